"""The small games' drawing helpers (Table Football, Sports Dice), numpy only.

Both games draw one game in a fixed frame: team one defends the left goal line and attacks to the right.
The picture is a score bar (:data:`BAR_PX` high, two lines of text) over a field strip (:data:`FIELD_PX`
high: end zones of :data:`END_ZONE_YARDS` in the teams' colours, a line every 10 yards, the ball and an
arrow of the offence's colour pointing the way it attacks), :data:`YARD_PX` pixels a yard. The text
picture is the bar's two lines (the second with the arrow, the phase and the team to act) over the
21-cell strip between ``[1]`` and ``[2]``.
"""

from __future__ import annotations

import numpy as np

from ..render import GLYPHS as _BASE_GLYPHS
from .diagram import field_strip

__all__ = ["YARD_PX", "END_ZONE_YARDS", "BAR_PX", "FIELD_PX", "WIDTH", "GRASS", "LINE", "BALL", "TEAM_COLOURS",
           "BAR", "TEXT", "GLYPHS", "draw_text", "absolute_yard", "yard_column", "team_label", "ordinal",
           "paint_bar", "paint_field", "paint_ball", "ansi_picture"]

YARD_PX = 5  # pixels per yard
END_ZONE_YARDS = 10
BAR_PX = 44  # the score bar above the field
FIELD_PX = 80  # the field strip's height
WIDTH = (100 + 2 * END_ZONE_YARDS) * YARD_PX

GRASS = (40, 120, 50)
LINE = (235, 235, 235)
BALL = (120, 66, 20)
TEAM_COLOURS = ((40, 90, 200), (200, 45, 45))
BAR = (20, 20, 28)
TEXT = (240, 240, 240)

_EXTRA = {  # 5 x 7 letters the shared font lacks
    "B": "####.|#...#|#...#|####.|#...#|#...#|####.",
    "E": "#####|#....|#....|####.|#....|#....|#####",
    "Q": ".###.|#...#|#...#|#...#|#.#.#|#..#.|.##.#",
    "W": "#...#|#...#|#...#|#.#.#|#.#.#|##.##|#...#",
    "X": "#...#|#...#|.#.#.|..#..|.#.#.|#...#|#...#",
    "U": "#...#|#...#|#...#|#...#|#...#|#...#|.###.",
    "C": ".###.|#...#|#....|#....|#....|#...#|.###.",
    "K": "#...#|#..#.|#.#..|##...|#.#..|#..#.|#...#",
    "M": "#...#|##.##|#.#.#|#.#.#|#...#|#...#|#...#",
    "V": "#...#|#...#|#...#|#...#|#...#|.#.#.|..#..",
    "Y": "#...#|#...#|.#.#.|..#..|..#..|..#..|..#..",
    "/": "....#|...#.|...#.|..#..|.#...|.#...|#....",
}
GLYPHS = dict(_BASE_GLYPHS)
GLYPHS.update({ch: np.array([[c == "#" for c in row] for row in g.split("|")]) for ch, g in _EXTRA.items()})
_SCALE = 2


def draw_text(img: np.ndarray, text: str, y: int, x: int, colour, scale: int = _SCALE) -> None:
    """Draw ``text`` (upper-cased; unknown characters are blanks) with its top-left corner at (y, x)."""
    H, W = img.shape[:2]
    for i, ch in enumerate(text.upper()):
        glyph = GLYPHS.get(ch)
        if glyph is None:
            continue
        big = np.kron(glyph, np.ones((scale, scale), dtype=bool))
        gy, gx = y, x + i * 6 * scale
        y0, x0, y1, x1 = max(gy, 0), max(gx, 0), min(gy + big.shape[0], H), min(gx + big.shape[1], W)
        if y1 > y0 and x1 > x0:
            img[y0:y1, x0:x1][big[y0 - gy:y1 - gy, x0 - gx:x1 - gx]] = colour


def absolute_yard(state, game: int, offence_yards) -> int:
    """Yards from team one's goal line of a spot given in the offence's yards."""
    y = int(offence_yards)
    return y if int(state.offence[game]) == 0 else 100 - y


def yard_column(yard: float) -> int:
    """Pixel column of a yard line (team one's goal line is yard 0)."""
    return int(round((END_ZONE_YARDS + yard) * YARD_PX))


def team_label(t: int) -> str:
    """``ONE`` for team 0, ``TWO`` for team 1 (the pictures' names)."""
    return "ONE" if t == 0 else "TWO"


def ordinal(n: int) -> str:
    return {1: "1ST", 2: "2ND", 3: "3RD"}.get(n, f"{n}TH")


def paint_bar(img: np.ndarray, lines: list) -> None:
    """The score bar: its background over the top BAR_PX rows and its two lines of text."""
    img[:BAR_PX] = BAR
    top, bottom = lines
    draw_text(img, top, 6, 8, TEXT)
    draw_text(img, bottom, 26, 8, TEXT)


def paint_field(field: np.ndarray) -> None:
    """The field strip ``field`` [FIELD_PX, WIDTH, 3]: grass, the end zones (team one's on the left, as it
    defends the left goal line) and a line every 10 yards."""
    field[:] = GRASS
    ez = END_ZONE_YARDS * YARD_PX
    field[:, :ez] = TEAM_COLOURS[0]
    field[:, WIDTH - ez:] = TEAM_COLOURS[1]
    for yard in range(0, 101, 10):
        x = yard_column(yard)
        field[:, max(x - 1, 0):x + 1] = LINE


def paint_ball(field: np.ndarray, ball_column: int, offence: int) -> None:
    """The ball at pixel column ``ball_column``, and under it a small arrow of the offence's colour pointing
    the way it attacks."""
    cy = FIELD_PX // 2
    yy, xx = np.mgrid[0:FIELD_PX, 0:WIDTH]
    field[((yy - cy) / 7.0) ** 2 + ((xx - ball_column) / 12.0) ** 2 <= 1.0] = BALL
    tip = 1 if offence == 0 else -1
    for k in range(8):
        x = ball_column + tip * (14 + k)
        field[cy + 12 - (7 - k) // 2: cy + 13 + (7 - k) // 2, max(x, 0):max(x + 1, 0)] = TEAM_COLOURS[offence]


def ansi_picture(state, game: int, lines: list, phase_names: tuple, marks: dict, more=()) -> str:
    """The text picture of one game: the bar's ``lines`` (the second followed by the attacking arrow, the
    phase and the team to act), the strip (team one's goal line on the left; ``marks``: absolute yard ->
    character, then ``o`` the ball), then the lines ``more``."""
    g = int(game)
    top, bottom = lines
    ball = absolute_yard(state, g, state.position[g])
    arrow = ">" if int(state.offence[g]) == 0 else "<"
    phase = phase_names[int(state.phase[g])]
    to_act = int(state.to_act[g])
    who = "-" if to_act < 0 else team_label(to_act).lower()
    strip = "[1]" + field_strip(ball, marks) + "[2]"
    return "\n".join([top, f"{bottom}  {arrow}  ({phase}, to act: {who})", strip, *more]) + "\n"
