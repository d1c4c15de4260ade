"""Text and image rendering of one Table Football game (numpy only).

Both draw the field in a fixed frame: team one defends the left goal line and attacks to the right. The
field strip has the two end zones (10 yards each), a yard line every 10 yards, the ball and the line to
gain; above it a bar with the score, the down and, on the clock, the quarter, the boxes left and the
time-outs.
"""

from __future__ import annotations

import numpy as np

from ..render import GLYPHS as _BASE_GLYPHS
from .state import DRAW, OVERTIME, PHASE_NAMES, State

YARD_PX = 5  # pixels per yard
END_ZONE_YARDS = 10
BAR_PX = 44  # the score bar above the field
FIELD_PX = 80  # the field strip's height
WIDTH = (100 + 2 * END_ZONE_YARDS) * YARD_PX
HEIGHT = BAR_PX + FIELD_PX

GRASS = (40, 120, 50)
LINE = (235, 235, 235)
BALL = (120, 66, 20)
TO_GAIN = (250, 210, 0)
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


def absolute_yard(state: State, game: int, offence_yards) -> int:
    """Yards from team one's goal line of a spot given in the offence's yards."""
    y = int(offence_yards)
    return y if int(state.offence[game]) == 0 else 100 - y


def yard_column(yard: float) -> int:
    """Pixel column of a yard line (team one's goal line is yard 0)."""
    return int(round((END_ZONE_YARDS + yard) * YARD_PX))


def _ordinal(n: int) -> str:
    return {1: "1ST", 2: "2ND", 3: "3RD"}.get(n, f"{n}TH")


def _team(t: int) -> str:
    return "ONE" if t == 0 else "TWO"


def status_lines(state: State, game: int = 0) -> list[str]:
    """The bar's text: [score line, situation line]."""
    g = int(game)
    s = state
    score = f"ONE {int(s.score[g, 0])} - {int(s.score[g, 1])} TWO"
    if s.terminated[g]:
        w = int(s.winner[g])
        situation = "DRAW" if w == DRAW else f"{_team(w)} WINS"
    elif s.truncated[g]:
        situation = "TRUNCATED"
    else:
        dist = int(s.line_to_gain[g]) - int(s.position[g])
        togo = "GOAL" if int(s.line_to_gain[g]) >= 100 else str(dist)
        situation = f"{_team(int(s.offence[g]))} BALL {_ordinal(int(s.down[g]))} & {togo}"
    if int(s.quarter[g]) > 0:
        q = int(s.quarter[g])
        qname = "OT" if q == OVERTIME else f"Q{q}"
        score += f"  {qname} {int(s.boxes[g])} BOXES  TO {int(s.timeouts[g, 0])}-{int(s.timeouts[g, 1])}"
    return [score, situation]


def render_rgb(state: State, game: int = 0) -> np.ndarray:
    """uint8 [HEIGHT, WIDTH, 3]: the field strip and the score bar of one game."""
    g = int(game)
    if not (0 <= g < state.batch_size):
        raise ValueError(f"game {game!r} is outside 0..{state.batch_size - 1}")
    img = np.zeros((HEIGHT, WIDTH, 3), dtype=np.uint8)
    img[:BAR_PX] = BAR
    field = img[BAR_PX:]
    field[:] = GRASS
    ez = END_ZONE_YARDS * YARD_PX
    field[:, :ez] = TEAM_COLOURS[0]  # team one's end zone (it defends the left goal line)
    field[:, WIDTH - ez:] = TEAM_COLOURS[1]
    for yard in range(0, 101, 10):
        x = yard_column(yard)
        field[:, max(x - 1, 0):x + 1] = LINE
    # the line to gain, then the ball on top
    ltg = yard_column(absolute_yard(state, g, state.line_to_gain[g]))
    field[:, max(ltg - 1, 0):ltg + 2] = TO_GAIN
    bx = yard_column(absolute_yard(state, g, state.position[g]))
    cy = FIELD_PX // 2
    yy, xx = np.mgrid[0:FIELD_PX, 0:WIDTH]
    ball = ((yy - cy) / 7.0) ** 2 + ((xx - bx) / 12.0) ** 2 <= 1.0
    field[ball] = BALL
    # the attacking direction: a small arrow of the offence's colour under the ball
    off = int(state.offence[g])
    tip = 1 if off == 0 else -1
    for k in range(8):
        x = bx + tip * (14 + k)
        field[cy + 12 - (7 - k) // 2: cy + 13 + (7 - k) // 2, max(x, 0):max(x + 1, 0)] = TEAM_COLOURS[off]
    top, bottom = status_lines(state, g)
    draw_text(img, top, 6, 8, TEXT)
    draw_text(img, bottom, 26, 8, TEXT)
    return img


def render_ansi(state: State, game: int = 0) -> str:
    """A text picture of one game: the status, then the field strip (24 cells of 5 yards, team one's end
    zone on the left): ``o`` the ball, ``|`` the line to gain, ``>`` / ``<`` the attacking direction."""
    g = int(game)
    if not (0 <= g < state.batch_size):
        raise ValueError(f"game {game!r} is outside 0..{state.batch_size - 1}")
    top, bottom = status_lines(state, g)
    cells = ["."] * 21
    ltg = absolute_yard(state, g, state.line_to_gain[g]) // 5
    ball = absolute_yard(state, g, state.position[g]) // 5
    cells[0] = cells[20] = "G"
    cells[ltg] = "|"
    cells[ball] = "o"
    arrow = ">" if int(state.offence[g]) == 0 else "<"
    strip = "[1]" + "".join(cells) + "[2]"
    phase = PHASE_NAMES[int(state.phase[g])]
    to_act = int(state.to_act[g])
    who = "-" if to_act < 0 else _team(to_act).lower()
    return "\n".join([top, f"{bottom}  {arrow}  ({phase}, to act: {who})", strip]) + "\n"
