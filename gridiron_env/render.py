"""Pictures of a game: a text board (``render_ansi``) and an RGB frame (``render_rgb``).

Rendering sits outside the engine: it only reads a :class:`~gridiron_env.core.state.State` (one game of
the batch, ``game``) and needs nothing but numpy. Pillow is used lazily by :func:`save_png` when it is
installed; without it a minimal PNG writer (zlib) does the job.

What is drawn follows the rulebook ("The field", "The line"):

- the field is 30 rows x 18 lanes of mown grass (a stripe per row, a subtle checker per square); each end
  zone is painted, over the same grass pattern, in the colour of the team that **attacks** it: team one
  attacks rows 1-3 (the top of the picture), team two rows 28-30; row markers 4, 8, ..., 28 run down
  both sides;
- every player is a helmet-and-shoulders bust: the helmet colour shows the position (a fixed palette,
  ``HELMET_COLOURS``), the shoulders are the team's jersey colour, wide for interior and defensive
  linemen, narrow for everyone else; a strong lineman burns a red glow with a red rim on his square; the
  ball carrier wears a vertical football badge; a Speedy QB wears a small gold star down in the corner of
  his square; a loose ball that is not hidden lies on its square; a **hidden ball is drawn nowhere**;
- the line of scrimmage (light blue) and the line to gain (yellow) are drawn as a line on a row edge
  (``lines="line"``) or as tinted rows (``lines="tint"``). In line mode the LOS line is the LOS row's
  forward edge (between the offence on its LOS row and the defence), and the yellow line is the edge of
  the line-to-gain row nearest the LOS, so reaching that row (ruling 6) is crossing the line. When the
  line to gain lies in the end zone (goal to go) the yellow line is drawn on the goal line in both modes;
- ``offence_up=True``: while team two is on offence (``state.offence``, the team that had the ball at the
  snap of the current down), the field is turned a half turn so the offence attacks up the picture.
  Busts, badges and digits stay upright; only their squares move.

Banners: given the position one step earlier (``previous=``; the State keeps no record of the last play),
the frame wears a banner across the middle of the field for what that step did (by default touchdowns,
interceptions, fumbles and first downs; the events are :func:`gridiron_env.events.play_events`, the same
ones the web game's video captions), gold text on a dark band edged in the colour of the team it is
good for.

A status bar over the field shows the score (team one's colour swatch left, team two's right, a small ball
beside the team on offence, a white bar under the team to act), the down and distance, the die points
(team one - team two) and ``OT`` in overtime. Frame size: ``FRAME_SHAPE`` (642 x 420 x 3) whatever the
options; ``FIELD_BOX`` and :func:`square_box` locate the field and each square in the frame.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .core.actions import SPECIALS, SPEEDY_QB
from .core.formations import DEFENCE_ROLES, OFFENCE_ROLES
from .core.geometry import (
    DEFENCE_TAGS, END_ZONE_DEPTH, N_LANES, N_ROWS, N_SLOTS, OFFENCE_TAGS, TAGS,
)
from .core.state import GAME_OVER, PHASE_NAMES, SCRAMBLE

__all__ = [
    "BALL_BROWN", "BANNER_H", "BANNER_KINDS", "DEFAULT_COLOURS", "banner_box", "banner_of", "draw_banner",
    "text_mask", "FIELD_BOX", "FRAME_SHAPE", "GLOW_RED", "HELMET_COLOURS", "LOS_BLUE",
    "LINE_MODES", "RENDER_MODES", "Renderer", "SQUARE_PX", "YELLOW", "position_group", "render_ansi",
    "render_rgb", "save_png", "square_box",
]

# --------------------------------------------------------------------------------------------- layout

SQUARE_PX = 20
MARGIN_X = 30  # row markers either side of the field
BAR_H = 30  # status bar over the field
GAP = 6
FIELD_Y0 = BAR_H + GAP
FIELD_X0 = MARGIN_X
FIELD_H = N_ROWS * SQUARE_PX  # 600
FIELD_W = N_LANES * SQUARE_PX  # 360
FRAME_SHAPE = (FIELD_Y0 + FIELD_H + GAP, 2 * MARGIN_X + FIELD_W, 3)  # (642, 420, 3)
FIELD_BOX = (FIELD_Y0, FIELD_Y0 + FIELD_H, FIELD_X0, FIELD_X0 + FIELD_W)  # y0, y1, x0, x1

RENDER_MODES = ("ansi", "rgb_array")
LINE_MODES = ("line", "tint")
DEFAULT_COLOURS = ("#1f4fbf", "#c8102e")

# --------------------------------------------------------------------------------------------- colours

GRASS_LIGHT = np.array([92.0, 158.0, 64.0])
GRASS_DARK = np.array([70.0, 134.0, 50.0])
CHECKER = 5.0  # +- added to alternate squares
MARGIN_GREEN = np.array([38.0, 84.0, 36.0])
BAR_BG = np.array([28.0, 30.0, 36.0])
WHITE = np.array([250.0, 250.0, 250.0])
OUTLINE = np.array([22.0, 22.0, 26.0])
LOS_BLUE = np.array([70.0, 150.0, 255.0])
YELLOW = np.array([255.0, 222.0, 0.0])
GLOW_RED = np.array([255.0, 40.0, 20.0])
BALL_BROWN = np.array([128.0, 70.0, 26.0])
LACE_WHITE = np.array([255.0, 255.0, 255.0])
STAR_GOLD = np.array([255.0, 200.0, 30.0])
FACEMASK = np.array([70.0, 70.0, 78.0])

# Position groups and their helmet colours (fixed, whatever the team colours).
GROUPS = ("qb", "oline", "skill", "dline", "lb", "db")
HELMET_COLOURS = {
    "qb": np.array([245.0, 245.0, 245.0]),  # quarterback: white
    "oline": np.array([150.0, 152.0, 162.0]),  # interior linemen: silver
    "skill": np.array([255.0, 146.0, 28.0]),  # receivers and backs: orange
    "dline": np.array([12.0, 12.0, 16.0]),  # defensive line: black
    "lb": np.array([150.0, 72.0, 205.0]),  # linebackers: purple
    "db": np.array([36.0, 205.0, 215.0]),  # defensive backs: teal
}
WIDE_GROUPS = ("oline", "dline")  # wide shoulders
_ROLE_GROUP = {
    "QB": "qb", "C": "oline", "LG": "oline", "RG": "oline", "LT": "oline", "RT": "oline",
    "WR": "skill", "TE": "skill", "RB": "skill", "FB": "skill", "HB": "skill",
    "DE": "dline", "DT": "dline", "NT": "dline", "NG": "dline",
    "OLB": "lb", "ILB": "lb", "MLB": "lb", "LB": "lb",
    "CB": "db", "NB": "db", "DB": "db", "FS": "db", "SS": "db", "S": "db",
}
# Roles by tag when no formation is known (hand-built positions).
_DEFAULT_ROLE = dict(zip(OFFENCE_TAGS, ("QB", "C", "LG", "RG", "LT", "RT", "WR", "TE", "WR", "RB", "FB")))
_DEFAULT_ROLE.update(zip(DEFENCE_TAGS, ("DE", "DT", "DT", "DE", "OLB", "MLB", "OLB", "CB", "CB", "FS", "SS")))
_ANSI_LETTER = {"qb": "Q", "oline": "L", "skill": "R", "dline": "D", "lb": "B", "db": "S"}


def position_group(state, game: int, slot: int) -> str:
    """The display group of a slot: qb, oline, skill (receivers and backs), dline, lb or db.

    Taken from the role the slot plays in this down's formation (``formations.*_ROLES``; e.g. the goal-line
    defence uses the safety slots as tackles), else from the tag.
    """
    g = int(game)
    if slot < 11:
        f = int(state.formation[g, 0])
        role = OFFENCE_ROLES[f][slot] if f >= 0 else _DEFAULT_ROLE[TAGS[slot]]
    else:
        f = int(state.formation[g, 1])
        role = DEFENCE_ROLES[f][slot - 11] if f >= 0 else _DEFAULT_ROLE[TAGS[slot]]
    return _ROLE_GROUP[role]


def _parse_colour(c) -> np.ndarray:
    if isinstance(c, str):
        h = c.strip().lstrip("#")
        if len(h) == 3:
            h = "".join(ch * 2 for ch in h)
        if len(h) != 6:
            raise ValueError(f"a colour is '#rrggbb' or an (r, g, b) triple, got {c!r}")
        try:
            return np.array([int(h[i:i + 2], 16) for i in (0, 2, 4)], dtype=np.float64)
        except ValueError:
            raise ValueError(f"a colour is '#rrggbb' or an (r, g, b) triple, got {c!r}") from None
    arr = np.asarray(c, dtype=np.float64)
    if arr.shape != (3,) or (arr < 0).any() or (arr > 255).any():
        raise ValueError(f"a colour is '#rrggbb' or an (r, g, b) triple of 0-255, got {c!r}")
    return np.round(arr)


def _parse_colours(colours) -> tuple[tuple[float, ...], tuple[float, ...]]:
    if len(colours) != 2:
        raise ValueError(f"colours needs two colours (team one, team two), got {colours!r}")
    return tuple(tuple(_parse_colour(c)) for c in colours)


# --------------------------------------------------------------------------------------------- font

# A 5 x 7 bitmap font: digits and the few letters the status bar needs.
_GLYPHS_TEXT = {
    "0": ".###.|#...#|#..##|#.#.#|##..#|#...#|.###.",
    "1": "..#..|.##..|..#..|..#..|..#..|..#..|.###.",
    "2": ".###.|#...#|....#|...#.|..#..|.#...|#####",
    "3": "#####|...#.|..#..|...#.|....#|#...#|.###.",
    "4": "...#.|..##.|.#.#.|#..#.|#####|...#.|...#.",
    "5": "#####|#....|####.|....#|....#|#...#|.###.",
    "6": "..##.|.#...|#....|####.|#...#|#...#|.###.",
    "7": "#####|....#|...#.|..#..|.#...|.#...|.#...",
    "8": ".###.|#...#|#...#|.###.|#...#|#...#|.###.",
    "9": ".###.|#...#|#...#|.####|....#|...#.|.##..",
    "A": ".###.|#...#|#...#|#####|#...#|#...#|#...#",
    "D": "####.|#...#|#...#|#...#|#...#|#...#|####.",
    "F": "#####|#....|#....|####.|#....|#....|#....",
    "G": ".###.|#...#|#....|#.###|#...#|#...#|.####",
    "H": "#...#|#...#|#...#|#####|#...#|#...#|#...#",
    "I": ".###.|..#..|..#..|..#..|..#..|..#..|.###.",
    "L": "#....|#....|#....|#....|#....|#....|#####",
    "N": "#...#|#...#|##..#|#.#.#|#..##|#...#|#...#",
    "O": ".###.|#...#|#...#|#...#|#...#|#...#|.###.",
    "P": "####.|#...#|#...#|####.|#....|#....|#....",
    "R": "####.|#...#|#...#|####.|#.#..|#..#.|#...#",
    "S": ".####|#....|#....|.###.|....#|....#|####.",
    "T": "#####|..#..|..#..|..#..|..#..|..#..|..#..",
    "&": ".##..|#..#.|#.#..|.#...|#.#.#|#..#.|.##.#",
    "-": ".....|.....|.....|.###.|.....|.....|.....",
    ":": ".....|..#..|..#..|.....|..#..|..#..|.....",
    " ": ".....|.....|.....|.....|.....|.....|.....",
    # the rest of the alphabet and the marks the banners need
    "B": "####.|#...#|#...#|####.|#...#|#...#|####.", "C": ".###.|#...#|#....|#....|#....|#...#|.###.",
    "E": "#####|#....|#....|####.|#....|#....|#####", "J": "..###|...#.|...#.|...#.|...#.|#..#.|.##..",
    "K": "#...#|#..#.|#.#..|##...|#.#..|#..#.|#...#", "M": "#...#|##.##|#.#.#|#.#.#|#...#|#...#|#...#",
    "Q": ".###.|#...#|#...#|#...#|#.#.#|#..#.|.##.#", "U": "#...#|#...#|#...#|#...#|#...#|#...#|.###.",
    "V": "#...#|#...#|#...#|#...#|#...#|.#.#.|..#..", "W": "#...#|#...#|#...#|#.#.#|#.#.#|#.#.#|.#.#.",
    "X": "#...#|#...#|.#.#.|..#..|.#.#.|#...#|#...#", "Y": "#...#|#...#|.#.#.|..#..|..#..|..#..|..#..",
    "Z": "#####|....#|...#.|..#..|.#...|#....|#####", "!": "..#..|..#..|..#..|..#..|..#..|.....|..#..",
    ".": ".....|.....|.....|.....|.....|.##..|.##..", "(": "...#.|..#..|.#...|.#...|.#...|..#..|...#.",
    ")": ".#...|..#..|...#.|...#.|...#.|..#..|.#...",
}
GLYPHS = {ch: np.array([[c == "#" for c in row] for row in g.split("|")]) for ch, g in _GLYPHS_TEXT.items()}
_GLYPH_SCALE = 2
_GLYPH_ADVANCE = 6 * _GLYPH_SCALE


@lru_cache(maxsize=256)
def _scaled_glyph(ch: str, scale: int) -> np.ndarray:
    return np.kron(GLYPHS[ch], np.ones((scale, scale), dtype=bool))


def _text_width(text: str, scale: int = _GLYPH_SCALE) -> int:
    return max(0, len(text) * 6 * scale - scale)


def _draw_text(img: np.ndarray, text: str, y: int, x: int, colour, scale: int = _GLYPH_SCALE) -> None:
    """Draw ``text`` (upper case; unknown characters are blanks) with its top-left corner at (y, x)."""
    H, W = img.shape[:2]
    for i, ch in enumerate(text.upper()):
        glyph = GLYPHS.get(ch)
        if glyph is None:
            continue
        big = _scaled_glyph(ch, scale)
        gy, gx = y, x + i * 6 * scale
        y0, x0 = max(gy, 0), max(gx, 0)
        y1, x1 = min(gy + big.shape[0], H), min(gx + big.shape[1], W)
        if y1 <= y0 or x1 <= x0:
            continue
        sub = big[y0 - gy:y1 - gy, x0 - gx:x1 - gx]
        img[y0:y1, x0:x1][sub] = colour


# --------------------------------------------------------------------------------------------- banners

BANNER_H = 40  # the dark band across the middle of the field
BANNER_GOLD = STAR_GOLD
BANNER_KINDS = ("touchdown", "interception", "fumble", "first_down")  # render_rgb's banners by default


def text_mask(text: str, scale: int) -> np.ndarray:
    """The lit pixels of ``text`` (upper-cased; characters the font lacks are left out) at ``scale``:
    bool [7 * scale, width], one blank column between letters."""
    chars = [ch for ch in text.upper() if ch in GLYPHS]
    if not chars:
        return np.zeros((7 * scale, 1), dtype=bool)
    row = np.concatenate([np.pad(GLYPHS[ch], ((0, 0), (0, 1))) for ch in chars], axis=1)[:, :-1]
    return np.kron(row, np.ones((scale, scale), dtype=bool))


def banner_box() -> tuple[int, int, int, int]:
    """Pixel box (y0, y1, x0, x1) of the banner band in the frame."""
    y0, y1, x0, x1 = FIELD_BOX
    top = (y0 + y1) // 2 - BANNER_H // 2
    return top, top + BANNER_H, x0, x1


def _draw_banner(frame: np.ndarray, text: str, edge=None) -> None:
    """In place on a float frame: the band darkened, edged top and bottom in ``edge`` (r, g, b) when
    given, ``text`` in gold at the largest of scales 3, 2, 1 that fits (cut at the band's width)."""
    by0, by1, bx0, bx1 = banner_box()
    band = frame[by0:by1, bx0:bx1]
    band *= 0.25
    if edge is not None:
        band[:3] = edge
        band[-3:] = edge
    width = bx1 - bx0 - 12
    for scale in (3, 2, 1):
        mask = text_mask(text, scale)
        if mask.shape[1] <= width:
            break
    mask = mask[:, :width]
    h, w = mask.shape
    ty, tx = (BANNER_H - h) // 2, (bx1 - bx0 - w) // 2
    band[ty:ty + h, tx:tx + w][mask] = BANNER_GOLD


def banner_of(events: list[dict]) -> tuple[str, int | None] | None:
    """One banner for a step's events (``gridiron_env.events.play_events``): their texts joined, in the
    colour of the first event that is good for a team; None when there are none."""
    if not events:
        return None
    team = next((e["team"] for e in events if e["team"] is not None), None)
    return "  ".join(e["text"] for e in events), team


def draw_banner(frame: np.ndarray, text: str, colour=None) -> np.ndarray:
    """A copy of ``frame`` (a ``render_rgb`` picture, uint8) with ``text`` on a dark band across the middle
    of the field, in gold, edged in ``colour`` ('#rrggbb' or (r, g, b); None: no edge)."""
    out = np.asarray(frame, dtype=np.float64).copy()
    if out.shape != FRAME_SHAPE:
        raise ValueError(f"a frame is {FRAME_SHAPE}, got shape {out.shape}")
    _draw_banner(out, str(text), None if colour is None else _parse_colour(colour))
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def _check_banners(banners) -> tuple[str, ...]:
    from .events import EVENT_KINDS

    if isinstance(banners, str):
        banners = (banners,)
    try:
        kinds = tuple(banners)
    except TypeError:
        raise ValueError(f"banners must be a sequence of event kinds, got {banners!r}") from None
    unknown = [k for k in kinds if k not in EVENT_KINDS]
    if unknown:
        raise ValueError(f"banners: unknown event kind {unknown[0]!r}; the kinds are {EVENT_KINDS}")
    return kinds


# --------------------------------------------------------------------------------------------- sprites

def _coverage(inside, size: int = SQUARE_PX, ss: int = 4) -> np.ndarray:
    """Anti-aliased coverage [size, size] in 0..1 of the region ``inside(y, x)`` (tile pixel units)."""
    c = (np.arange(size * ss) + 0.5) / ss
    Y, X = np.meshgrid(c, c, indexing="ij")
    return inside(Y, X).reshape(size, ss, size, ss).mean(axis=(1, 3))


def _ellipse(cy, cx, ry, rx):
    return lambda Y, X: ((Y - cy) / ry) ** 2 + ((X - cx) / rx) ** 2 <= 1.0


def _polygon(points):
    pts = np.asarray(points, dtype=np.float64)

    def inside(Y, X):
        res = np.zeros(Y.shape, dtype=bool)
        n = len(pts)
        for i in range(n):
            (y1, x1), (y2, x2) = pts[i], pts[(i + 1) % n]
            crosses = (y1 > Y) != (y2 > Y)
            with np.errstate(divide="ignore", invalid="ignore"):
                xint = x1 + (Y - y1) * (x2 - x1) / (y2 - y1)
            res ^= crosses & (X < xint)
        return res
    return inside


def _football_lace(cy, cx, ry, rx, size):
    """A white lace down the long axis of a vertical football, with three stitches across it."""
    half = 0.5 * ry
    stitch_ys = cy + np.array([-0.6, 0.0, 0.6]) * half

    def inside(Y, X):
        spine = (np.abs(X - cx) <= 0.5) & (np.abs(Y - cy) <= half)
        stitches = np.zeros(Y.shape, dtype=bool)
        for sy in stitch_ys:
            stitches |= (np.abs(Y - sy) <= 0.5) & (np.abs(X - cx) <= 0.45 * rx + 0.5)
        return spine | stitches
    return _coverage(inside, size)


@lru_cache(maxsize=4)
def _sprites(size: int = SQUARE_PX) -> dict:
    """Coverage masks of every sprite part, for a square of ``size`` pixels."""
    S = float(size)
    cx = S / 2
    hy, hr = 0.36 * S, 0.26 * S  # helmet
    sy = 1.1 * S  # shoulder ellipse centre (below the tile: only its top shows)
    shoulders = {"wide": (0.55 * S, 0.48 * S), "narrow": (0.52 * S, 0.31 * S)}
    m = {}
    m["helmet"] = _coverage(_ellipse(hy, cx, hr, hr), size)
    m["helmet_outline"] = _coverage(_ellipse(hy, cx, hr + 1.1, hr + 1.1), size)
    # facemask: two bars across the lower front of the helmet and a short centre post
    fm = lambda Y, X: (
        ((np.abs(Y - (hy + 0.42 * hr)) <= 0.5) | (np.abs(Y - (hy + 0.78 * hr)) <= 0.5)) & (np.abs(X - cx) <= 0.62 * hr)
    ) | ((np.abs(X - cx) <= 0.5) & (Y >= hy + 0.42 * hr) & (Y <= hy + 0.95 * hr))
    m["facemask"] = _coverage(lambda Y, X: fm(Y, X) & _ellipse(hy, cx, hr, hr)(Y, X), size)
    # a helmet stripe over the crown
    m["stripe"] = _coverage(
        lambda Y, X: (np.abs(X - cx) <= 0.9) & (Y <= hy - 0.1 * hr) & _ellipse(hy, cx, hr - 0.6, hr)(Y, X), size)
    for name, (ry, rx) in shoulders.items():
        m[f"shoulders_{name}"] = _coverage(_ellipse(sy, cx, ry, rx), size)
        m[f"shoulders_{name}_outline"] = _coverage(_ellipse(sy, cx, ry + 1.1, rx + 1.1), size)
    # strong lineman: a red rim on the square's border and a red glow around the bust
    c = np.arange(size) + 0.5
    Y, X = np.meshgrid(c, c, indexing="ij")
    edge = np.minimum(np.minimum(Y, S - Y), np.minimum(X, S - X))  # distance to the border
    m["rim"] = np.clip(2.0 - edge, 0.0, 1.0)
    for name, (ry, rx) in shoulders.items():
        glow = np.zeros((size, size))
        for k in range(1, 6):
            grown = np.maximum(_coverage(_ellipse(sy, cx, ry + k, rx + k), size),
                               _coverage(_ellipse(hy, cx, hr + k, hr + k), size))
            glow = np.maximum(glow, grown * (1.0, 1.0, 0.8, 0.45, 0.18)[k - 1])
        m[f"glow_{name}"] = glow
    # carrier: a vertical football badge on the right of the chest, a lace down the middle
    by, bx, bry, brx = 0.66 * S, 0.79 * S, 0.3 * S, 0.185 * S
    m["badge_outline"] = _coverage(_ellipse(by, bx, bry + 1.0, brx + 1.0), size)
    m["badge"] = _coverage(_ellipse(by, bx, bry, brx), size)
    m["badge_lace"] = _football_lace(by, bx, bry, brx, size)
    # a loose ball lying on its square
    ly, lx, lry, lrx = 0.5 * S, 0.5 * S, 0.36 * S, 0.22 * S
    m["loose_outline"] = _coverage(_ellipse(ly, lx, lry + 1.0, lrx + 1.0), size)
    m["loose"] = _coverage(_ellipse(ly, lx, lry, lrx), size)
    m["loose_lace"] = _football_lace(ly, lx, lry, lrx, size)
    # Speedy QB: a gold star down in the corner of his square
    scy, scx, ro, ri = 0.79 * S, 0.2 * S, 0.2 * S, 0.085 * S
    ang = -np.pi / 2 + np.arange(10) * np.pi / 5
    rad = np.where(np.arange(10) % 2 == 0, ro, ri)
    star = list(zip(scy + rad * np.sin(ang), scx + rad * np.cos(ang)))
    star_big = list(zip(scy + (rad + 1.0) * np.sin(ang), scx + (rad + 1.0) * np.cos(ang)))
    m["star_outline"] = _coverage(_polygon(star_big), size)
    m["star"] = _coverage(_polygon(star), size)
    return m


def _blend(tile: np.ndarray, colour, alpha: np.ndarray) -> None:
    a = alpha[:, :, None]
    tile += a * (np.asarray(colour, dtype=tile.dtype) - tile)


# --------------------------------------------------------------------------------------------- field

def _grass_squares() -> np.ndarray:
    """Per-square grass colour [30, 18, 3]: a mown stripe per row and a subtle checker."""
    rows = np.arange(N_ROWS)[:, None]
    lanes = np.arange(N_LANES)[None, :]
    base = np.where((rows % 2 == 0)[..., None], GRASS_LIGHT, GRASS_DARK)
    checker = np.where(((rows + lanes) % 2 == 0)[..., None], CHECKER, -CHECKER)
    return base + checker


def _end_zone_squares(grass: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """The team colour laid over the grass pattern: the stripes and the checker still show through."""
    lum = grass @ np.array([0.299, 0.587, 0.114])
    mean = (GRASS_LIGHT + GRASS_DARK) / 2 @ np.array([0.299, 0.587, 0.114])
    shade = (lum / mean)[..., None]  # about 0.85 .. 1.15
    shade = 1.0 + (shade - 1.0) * 1.6
    return np.clip(0.82 * colour * shade + 0.18 * grass, 0, 255)


@lru_cache(maxsize=16)
def _base_field(colours: tuple) -> np.ndarray:
    """The field in the absolute frame (row 1 at the top), float [600, 360, 3], without the lines."""
    S = SQUARE_PX
    squares = _grass_squares()
    for team, rows in ((0, slice(0, END_ZONE_DEPTH)), (1, slice(N_ROWS - END_ZONE_DEPTH, N_ROWS))):
        squares[rows] = _end_zone_squares(squares[rows], np.array(colours[team]))
    img = np.repeat(np.repeat(squares, S, axis=0), S, axis=1)
    # goal lines
    for y in (END_ZONE_DEPTH * S, (N_ROWS - END_ZONE_DEPTH) * S):
        img[y - 1:y + 1] = WHITE
    # hash marks at the edges of the hash band (lanes 8-11) and short ticks by the sidelines, every row
    for r in range(END_ZONE_DEPTH + 1, N_ROWS - END_ZONE_DEPTH):
        y = r * S
        for x in (7 * S, 11 * S):
            img[y:y + 1, x - 3:x + 3] = 0.55 * WHITE + 0.45 * img[y:y + 1, x - 3:x + 3]
        for x0, x1 in ((0, 5), (N_LANES * S - 5, N_LANES * S)):
            img[y:y + 1, x0:x1] = 0.55 * WHITE + 0.45 * img[y:y + 1, x0:x1]
    img.setflags(write=False)
    return img


def _goal_to_go(offence: int, line_to_gain: int) -> bool:
    return line_to_gain < END_ZONE_DEPTH if offence == 0 else line_to_gain >= N_ROWS - END_ZONE_DEPTH


def _line_rows(state, g: int):
    """(LOS edge y, line-to-gain edge y) in absolute field pixels, or None when not shown."""
    if int(state.phase[g]) == GAME_OVER:
        return None
    S = SQUARE_PX
    off = int(state.offence[g])
    los, ltg = int(state.los_row[g]), int(state.line_to_gain[g])
    if off == 0:
        los_y = los * S
        gain_y = END_ZONE_DEPTH * S if _goal_to_go(0, ltg) else (ltg + 1) * S
    else:
        los_y = (los + 1) * S
        gain_y = (N_ROWS - END_ZONE_DEPTH) * S if _goal_to_go(1, ltg) else ltg * S
    return los_y, gain_y


def _draw_lines(field: np.ndarray, state, g: int, lines: str, flipped: bool) -> None:
    """Draw the LOS and the line to gain on the displayed field (turned a half turn when ``flipped``)."""
    S = SQUARE_PX
    ys = _line_rows(state, g)
    if ys is None:
        return
    off = int(state.offence[g])
    los, ltg = int(state.los_row[g]), int(state.line_to_gain[g])
    if flipped:  # the half turn: an edge at y goes to FIELD_H - y, row r to row 29 - r
        ys = tuple(FIELD_H - y for y in ys)
        los_d, ltg_d = N_ROWS - 1 - los, N_ROWS - 1 - ltg
    else:
        los_d, ltg_d = los, ltg
    los_y, gain_y = ys
    if lines == "tint":
        band = field[los_d * S:(los_d + 1) * S]
        band[:] = 0.55 * band + 0.45 * LOS_BLUE
        if _goal_to_go(off, ltg):
            field[gain_y - 2:gain_y + 2] = YELLOW
        else:
            band = field[ltg_d * S:(ltg_d + 1) * S]
            band[:] = 0.5 * band + 0.5 * YELLOW
    else:
        field[los_y - 2:los_y + 2] = LOS_BLUE
        field[gain_y - 2:gain_y + 2] = YELLOW


def square_box(row: int, lane: int, flipped: bool = False) -> tuple[int, int, int, int]:
    """Pixel box (y0, y1, x0, x1) in the frame of code square (row, lane); ``flipped``: the half turn."""
    if flipped:
        row, lane = N_ROWS - 1 - row, N_LANES - 1 - lane
    y0 = FIELD_Y0 + row * SQUARE_PX
    x0 = FIELD_X0 + lane * SQUARE_PX
    return y0, y0 + SQUARE_PX, x0, x0 + SQUARE_PX


def _is_flipped(state, g: int, offence_up: bool) -> bool:
    return bool(offence_up) and int(state.offence[g]) == 1


def _draw_player(tile: np.ndarray, jersey, group: str, strong: bool, carrier: bool, star: bool) -> None:
    m = _sprites()
    width = "wide" if group in WIDE_GROUPS else "narrow"
    if strong:
        _blend(tile, GLOW_RED, m[f"glow_{width}"])
        _blend(tile, GLOW_RED, m["rim"])
    _blend(tile, OUTLINE, m[f"shoulders_{width}_outline"])
    _blend(tile, OUTLINE, m["helmet_outline"])
    _blend(tile, jersey, m[f"shoulders_{width}"])
    helmet = HELMET_COLOURS[group]
    _blend(tile, helmet, m["helmet"])
    _blend(tile, 0.7 * helmet + 0.3 * np.asarray(jersey), m["stripe"])
    _blend(tile, FACEMASK, m["facemask"])
    if star:
        _blend(tile, OUTLINE, m["star_outline"])
        _blend(tile, STAR_GOLD, m["star"])
    if carrier:
        _blend(tile, OUTLINE, m["badge_outline"])
        _blend(tile, BALL_BROWN, m["badge"])
        _blend(tile, LACE_WHITE, m["badge_lace"])


def _draw_loose_ball(tile: np.ndarray) -> None:
    m = _sprites()
    _blend(tile, OUTLINE, m["loose_outline"])
    _blend(tile, BALL_BROWN, m["loose"])
    _blend(tile, LACE_WHITE, m["loose_lace"])


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _down_text(state, g: int) -> str:
    off = int(state.offence[g])
    ltg = int(state.line_to_gain[g])
    dist = "goal" if _goal_to_go(off, ltg) else str(abs(ltg - int(state.los_row[g])))
    return f"{_ordinal(int(state.down[g]))} & {dist}"


def _draw_bar(img: np.ndarray, state, g: int, colours) -> None:
    img[:BAR_H] = BAR_BG
    y = (BAR_H - 7 * _GLYPH_SCALE) // 2
    sw = 16  # swatch size
    sy = (BAR_H - sw) // 2
    off, act = int(state.offence[g]), int(state.to_act[g])
    over = int(state.phase[g]) == GAME_OVER
    score = f"{int(state.score[g, 0])}-{int(state.score[g, 1])}"
    x = 14
    spans = []
    img[sy:sy + sw, x:x + sw] = colours[0]
    spans.append(x)
    x += sw + 6
    _draw_text(img, score, y, x, WHITE)
    x += _text_width(score) + 6
    img[sy:sy + sw, x:x + sw] = colours[1]
    spans.append(x)
    for team in (0, 1):
        sx = spans[team]
        if not over and team == off:  # a small ball beside the team on offence
            by, bx = sy + sw // 2, sx - 4 if team == 0 else sx + sw + 3
            yy, xx = np.ogrid[-4:5, -2:3]
            ball = (yy / 4.0) ** 2 + (xx / 2.0) ** 2 <= 1.0
            img[by - 4:by + 5, bx - 2:bx + 3][ball] = BALL_BROWN
        if not over and team == act:
            img[sy + sw + 2:sy + sw + 4, sx:sx + sw] = WHITE
    x += sw + 16
    if over:
        status = "FINAL"
    else:
        status = _down_text(state, g).replace(" & ", "&")
    _draw_text(img, status, y, x, WHITE)
    x += _text_width(status) + 14
    pts = f"P {int(state.points[g, 0])}-{int(state.points[g, 1])}"
    if not over:
        _draw_text(img, pts, y, x, WHITE)
        x += _text_width(pts) + 14
    if bool(state.overtime[g]):
        _draw_text(img, "OT", y, x, YELLOW)


def _draw_markers(img: np.ndarray, flipped: bool) -> None:
    """Row markers 4, 8, ..., 28 on both sides, upright, beside their rows; a tick at every row."""
    S = SQUARE_PX
    for row in range(N_ROWS):
        disp = N_ROWS - 1 - row if flipped else row
        yc = FIELD_Y0 + disp * S + S // 2
        img[yc:yc + 1, FIELD_X0 - 5:FIELD_X0 - 2] = 0.6 * WHITE + 0.4 * MARGIN_GREEN
        img[yc:yc + 1, FIELD_X0 + FIELD_W + 2:FIELD_X0 + FIELD_W + 5] = 0.6 * WHITE + 0.4 * MARGIN_GREEN
        number = row + 1
        if number % 4:
            continue
        text = str(number)
        w = _text_width(text)
        ty = yc - 7 * _GLYPH_SCALE // 2
        _draw_text(img, text, ty, (FIELD_X0 - 3 - w) // 2 + 0, WHITE)
        _draw_text(img, text, ty, FIELD_X0 + FIELD_W + 3 + (MARGIN_X - 3 - w) // 2, WHITE)


@lru_cache(maxsize=16)
def _static_frame(colours: tuple, flipped: bool) -> np.ndarray:
    """Margins, sidelines, the field (turned when ``flipped``) and the row markers: float32, read-only."""
    frame = np.empty(FRAME_SHAPE, dtype=np.float32)
    frame[:] = MARGIN_GREEN
    y0, y1, x0, x1 = FIELD_BOX
    frame[y0 - 2:y1 + 2, x0 - 2:x1 + 2] = WHITE  # sidelines and end lines
    field = _base_field(colours)
    frame[y0:y1, x0:x1] = field[::-1, ::-1] if flipped else field
    _draw_markers(frame, flipped)
    frame.setflags(write=False)
    return frame


def render_rgb(state, game: int = 0, offence_up: bool = False, colours=DEFAULT_COLOURS,
               lines: str = "line", previous=None, action=None, banners=BANNER_KINDS) -> np.ndarray:
    """An RGB picture (uint8, ``FRAME_SHAPE`` = 642 x 420 x 3) of game ``game`` of ``state``.

    ``colours``: the jersey (and end zone) colours of team one and team two, '#rrggbb' or (r, g, b).
    ``lines``: "line" (the LOS and the line to gain as lines on a row edge) or "tint" (tinted rows).
    ``offence_up``: turn the field a half turn while team two is on offence.
    ``previous``: the position one step before ``state`` (same batch layout; the State keeps no record of
    the last play): when given, a banner across the middle of the field names what that step did, if it
    is one of ``banners`` (event kinds of :mod:`gridiron_env.events`; default touchdowns, interceptions,
    fumbles and first downs), edged in the colour of the team it is good for. ``action``: the step's
    action id (an int, or one per game of the batch), needed for the tackle, completion, incompletion and
    missed field goal banners.
    """
    if lines not in LINE_MODES:
        raise ValueError(f"lines must be one of {LINE_MODES}, got {lines!r}")
    g = int(game)
    if not 0 <= g < state.batch_size:
        raise ValueError(f"game {game!r} is outside the batch of {state.batch_size}")
    banner = None
    if previous is not None:
        from .events import play_events

        kinds = _check_banners(banners)
        if action is not None and np.ndim(action) > 0:
            action = np.asarray(action).reshape(-1)
            if action.size != state.batch_size:
                raise ValueError(f"action: one per game of the batch of {state.batch_size}, got {action.size}")
            action = action[g]
        banner = banner_of([e for e in play_events(previous, state, action, g) if e["kind"] in kinds])
    cols = _parse_colours(colours)
    jerseys = [np.array(c) for c in cols]
    flipped = _is_flipped(state, g, offence_up)

    frame = _static_frame(cols, flipped).copy()
    y0, y1, x0, x1 = FIELD_BOX
    _draw_lines(frame[y0:y1, x0:x1], state, g, lines, flipped)

    offence = int(state.offence[g])
    holder = int(state.ball_holder[g])
    speedy = int(state.special[g, offence]) == SPEEDY_QB
    for slot in range(N_SLOTS):
        sq = int(state.player_square[g, slot])
        if sq < 0:
            continue
        team = offence if slot < 11 else 1 - offence
        group = position_group(state, g, slot)
        ty0, ty1, tx0, tx1 = square_box(sq // N_LANES, sq % N_LANES, flipped)
        tile = frame[ty0:ty1, tx0:tx1]
        _draw_player(tile, jerseys[team], group,
                     strong=1 <= slot <= 5 and bool(state.strong[g, slot - 1]),
                     carrier=slot == holder,
                     star=slot == 0 and speedy)
    ball = int(state.ball_square[g])
    if holder < 0 and ball >= 0 and not bool(state.ball_hidden[g]) and int(state.board[g, ball]) < 0:
        ty0, ty1, tx0, tx1 = square_box(ball // N_LANES, ball % N_LANES, flipped)
        _draw_loose_ball(frame[ty0:ty1, tx0:tx1])

    _draw_bar(frame, state, g, jerseys)
    np.rint(frame, out=frame)
    np.clip(frame, 0, 255, out=frame)
    if banner is not None:  # over the finished picture, as draw_banner draws it
        text, team = banner
        _draw_banner(frame, text, None if team is None else jerseys[team])
        np.rint(frame, out=frame)
    return frame.astype(np.uint8)


# --------------------------------------------------------------------------------------------- ansi

def render_ansi(state, game: int = 0, offence_up: bool = False) -> str:
    """A compact text board of game ``game``: a header, then 30 board lines, then a legend.

    Board line format: the row number (rulebook numbering, 2 characters), a space, then 18 cells of two
    characters each (columns 3-38), then side marks (``< LOS``, ``< gain``). A cell is a player's role letter
    (team one UPPER case, team two lower case: Q quarterback, L interior lineman, R receiver or back,
    D defensive lineman, B linebacker, S defensive back) followed by ``@`` for the ball carrier, ``!`` for a
    strong lineman, ``+`` for a Speedy QB, or a space; ``* `` is a loose visible ball; empty squares are
    ``. `` on the field and ``::`` in the end zones. A hidden ball is not shown. With ``offence_up`` the
    board is turned a half turn while team two is on offence (row 30 at the top, lane 18 on the left).
    """
    g = int(game)
    if not 0 <= g < state.batch_size:
        raise ValueError(f"game {game!r} is outside the batch of {state.batch_size}")
    s = state
    offence = int(s.offence[g])
    phase = int(s.phase[g])
    over = phase == GAME_OVER
    holder = int(s.ball_holder[g])
    team_name = ("one", "two")

    head1 = f"score one {int(s.score[g, 0])} - {int(s.score[g, 1])} two"
    if over:
        winner = int(s.winner[g])
        head1 += " | final" + (f", team {team_name[winner]} wins" if winner >= 0 else ", no winner (truncated)")
    else:
        head1 += (f" | {_down_text(s, g)} | LOS row {int(s.los_row[g]) + 1}"
                  f" | line to gain row {int(s.line_to_gain[g]) + 1}")
    if bool(s.overtime[g]):
        head1 += f" | overtime {int(s.overtime_points[g, 0])}-{int(s.overtime_points[g, 1])}"
    dice = " ".join(f"{team_name[t]} {int(s.dice[g, t, 0])},{int(s.dice[g, t, 1])}" for t in (0, 1))
    to_act = int(s.to_act[g])
    head2 = (f"points one {int(s.points[g, 0])} two {int(s.points[g, 1])} | dice {dice}"
             f" | {PHASE_NAMES[phase]}" + (f", team {team_name[to_act]} to act" if not over and to_act >= 0 else "")
             + f" | offence team {team_name[offence]}")
    specials = " ".join(f"{team_name[t]} {SPECIALS[int(s.special[g, t])] if s.special[g, t] >= 0 else '-'}"
                        for t in (0, 1))
    strong = [TAGS[1 + i] for i in range(5) if bool(s.strong[g, i])]
    head3 = f"specials {specials} | strong {' '.join(strong) if strong else '-'}"
    if phase == SCRAMBLE and bool(s.ball_hidden[g]):
        head3 += " | fumble: ball hidden"

    speedy = int(s.special[g, offence]) == SPEEDY_QB
    loose_visible = holder < 0 and int(s.ball_square[g]) >= 0 and not bool(s.ball_hidden[g])
    cells = [[". " for _ in range(N_LANES)] for _ in range(N_ROWS)]
    for r in list(range(END_ZONE_DEPTH)) + list(range(N_ROWS - END_ZONE_DEPTH, N_ROWS)):
        cells[r] = ["::" for _ in range(N_LANES)]
    if loose_visible:
        b = int(s.ball_square[g])
        cells[b // N_LANES][b % N_LANES] = "* "
    for slot in range(N_SLOTS):
        sq = int(s.player_square[g, slot])
        if sq < 0:
            continue
        team = offence if slot < 11 else 1 - offence
        letter = _ANSI_LETTER[position_group(s, g, slot)]
        letter = letter if team == 0 else letter.lower()
        if slot == holder:
            mark = "@"
        elif 1 <= slot <= 5 and bool(s.strong[g, slot - 1]):
            mark = "!"
        elif slot == 0 and speedy:
            mark = "+"
        else:
            mark = " "
        cells[sq // N_LANES][sq % N_LANES] = letter + mark

    side = {}
    if not over:
        side[int(s.los_row[g])] = "< LOS"
        ltg = int(s.line_to_gain[g])
        side[ltg] = "< gain" + (" (goal)" if _goal_to_go(offence, ltg) else "")
    flipped = _is_flipped(s, g, offence_up)
    rows = range(N_ROWS - 1, -1, -1) if flipped else range(N_ROWS)
    board = []
    for r in rows:
        row_cells = cells[r][::-1] if flipped else cells[r]
        line = f"{r + 1:>2} " + "".join(row_cells)
        if r in side:
            line += " " + side[r]
        board.append(line.rstrip())
    legend = ("UPPER team one, lower team two: Q quarterback L lineman R receiver/back D d-line B linebacker "
              "S d-back; @ carrier ! strong + speedy QB * ball")
    return "\n".join([head1, head2, head3] + board + [legend]) + "\n"


# --------------------------------------------------------------------------------------------- renderer

class Renderer:
    """Render mode and options in one object, for the environment adapters.

    ``Renderer("rgb_array").render(state, game)`` returns a uint8 ``FRAME_SHAPE`` array;
    ``Renderer("ansi").render(state, game)`` returns the text board.
    """

    metadata = {"render_modes": list(RENDER_MODES)}

    def __init__(self, render_mode: str, offence_up: bool = False, colours=DEFAULT_COLOURS, lines: str = "line"):
        if render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES}, got {render_mode!r}")
        if lines not in LINE_MODES:
            raise ValueError(f"lines must be one of {LINE_MODES}, got {lines!r}")
        self.render_mode = render_mode
        self.offence_up = bool(offence_up)
        self.colours = _parse_colours(colours)
        self.lines = lines

    @property
    def frame_shape(self) -> tuple[int, int, int]:
        return FRAME_SHAPE

    def render(self, state, game: int = 0, previous=None, action=None):
        """The picture of ``game``; an rgb frame wears the banner of the step from ``previous`` (with
        ``action``) when given (see :func:`render_rgb`)."""
        if self.render_mode == "ansi":
            return render_ansi(state, game, offence_up=self.offence_up)
        return render_rgb(state, game, offence_up=self.offence_up, colours=self.colours, lines=self.lines,
                          previous=previous, action=action)


# --------------------------------------------------------------------------------------------- PNG

def save_png(frame: np.ndarray, path) -> None:
    """Write an H x W x 3 uint8 frame as a PNG (Pillow when installed, else a minimal zlib writer)."""
    frame = np.ascontiguousarray(frame, dtype=np.uint8)
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise ValueError(f"a frame is H x W x 3, got shape {frame.shape}")
    try:
        from PIL import Image  # optional
    except ImportError:
        Image = None
    if Image is not None:
        Image.fromarray(frame).save(path)
        return
    import struct
    import zlib

    h, w, _ = frame.shape
    raw = np.concatenate([np.zeros((h, 1), dtype=np.uint8), frame.reshape(h, w * 3)], axis=1).tobytes()

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))
    with open(path, "wb") as f:
        f.write(png)
