"""Text and image rendering of one Touchdown game (numpy only).

Both draw the board in a fixed frame: team two's end line at the top, team one's at the bottom (team one
attacks up the page), lanes left to right as team one sees them.

Image (``render_rgb``): a score bar (two lines of text) over the board, :data:`CELL` pixels a square. The
end zones are tinted in their team's colour, the LOS row is a light stripe and the line to gain an orange
rule on its row's far edge. A piece's colour is its team's (``TEAM_COLOURS``) and its **shape is its type**:
a Single a full square, a Double a disc, a Triple a triangle (apex toward the top of the page), the QB a
diamond (:data:`SHAPES` as unit-box tests). The interior line (the offence's three Singles) has a white
frame, a missed-tackle marker is a yellow dot in the square's top-left corner, the ball carrier has a
brown ball with a white ring in the middle of its piece, and a loose ball is a brown ball on an empty
square.

Text (``render_ansi``): status lines (score, clock, series, phase, who acts, the carrier and the marked
pieces), then the board, one line a row labelled with team one's row number: ``S D T Q`` team one's
Singles, Doubles, Triples and QB, ``s d t q`` team two's, ``I``/``i`` the interior line, ``@`` the ball
carrier, ``o`` a loose ball, ``*`` two pieces; ``<LOS`` and ``<GAIN`` end the LOS row and the line to gain.
"""

from __future__ import annotations

import numpy as np

from ..small_games.engine import game_index
from ..small_games.render import BALL, BAR_PX, GLYPHS, LINE, TEAM_COLOURS, draw_text, ordinal, paint_bar, team_label
from .config import END_ZONE_ROWS, TouchdownConfig
from .formations import DEFENCE_NAMES, OFFENCE_NAMES
from .state import DOUBLE, DRAW, INTERCEPTION, N_PIECES, PHASE_NAMES, PLAY, QB, SINGLE, SLOT_NAMES, SLOT_TYPE, \
    TRIPLE, TYPE_NAMES, State, board_config

__all__ = ["render_rgb", "render_ansi", "status_lines", "square_box", "CELL", "MARGIN", "SHAPES", "GRASS",
           "LOS_STRIPE", "TO_GAIN", "MARKER", "INTERIOR_FRAME", "BALL", "TEAM_COLOURS", "GLYPHS", "BAR_PX"]

CELL = 24  # pixels per square
MARGIN = 3  # pixels between a square's edge and its piece
GRASS = (40, 120, 50)
GRID = (52, 138, 62)
LOS_STRIPE = (95, 170, 105)
TO_GAIN = (250, 150, 0)
MARKER = (255, 230, 0)
INTERIOR_FRAME = (255, 255, 255)
_END_ZONE_TINT = 0.45  # an end zone: its team's colour mixed with grass

# piece type -> inside test over (u, v) in [-1, 1]^2 (v down the page)
SHAPES = {
    SINGLE: lambda u, v: (np.abs(u) <= 1) & (np.abs(v) <= 1),
    DOUBLE: lambda u, v: u * u + v * v <= 1,
    TRIPLE: lambda u, v: np.abs(u) <= (v + 1) / 2,
    QB: lambda u, v: np.abs(u) + np.abs(v) <= 1,
}
_TEXT_LETTER = {SINGLE: "S", DOUBLE: "D", TRIPLE: "T", QB: "Q"}


def _config(config):
    return config if config is not None else TouchdownConfig()


def square_box(lane: int, row: int, config: TouchdownConfig | None = None) -> tuple:
    """(top, left) pixel of the square (lane, absolute row) in ``render_rgb``'s picture."""
    cfg = _config(config)
    return BAR_PX + (cfg.rows - 1 - int(row)) * CELL, int(lane) * CELL


def _piece_team(s: State, g: int, slot: int) -> int:
    off = int(s.offence[g])
    return off if slot < 7 else 1 - off


def _abs_row(team: int, frame_row: int, cfg) -> int:
    return frame_row + 1 if team == 0 else cfg.rows - 2 - frame_row


def status_lines(state: State, game: int = 0) -> list:
    """The bar's text: [score and clock, situation]."""
    s, g = state, int(game)
    q = int(s.quarter[g])
    score = f"ONE {int(s.score[g, 0])} - {int(s.score[g, 1])} TWO  Q{q} SCRIMMAGE {int(s.scrimmage[g]) + 1}"
    if s.terminated[g]:
        w = int(s.winner[g])
        situation = "DRAW" if w == DRAW else f"{team_label(w)} WINS"
    elif s.truncated[g]:
        situation = "TRUNCATED"
    else:
        togo = int(s.to_gain[g]) - int(s.los[g])
        situation = (f"{team_label(int(s.offence[g]))} BALL {ordinal(int(s.down[g]))} & {togo} AT {int(s.los[g])}"
                     f"  {PHASE_NAMES[int(s.phase[g])].upper()}")
    return [score, situation]


def _shape_mask(kind: int) -> np.ndarray:
    n = CELL - 2 * MARGIN
    c = (np.arange(n) + 0.5) / n * 2 - 1
    v, u = np.meshgrid(c, c, indexing="ij")
    return SHAPES[kind](u, v)


_MASKS = {k: _shape_mask(k) for k in SHAPES}


def _ball_masks():
    n = CELL - 2 * MARGIN
    c = (np.arange(n) + 0.5) / n * 2 - 1
    v, u = np.meshgrid(c, c, indexing="ij")
    d = u * u + v * v
    return d <= 0.12, (d > 0.12) & (d <= 0.22)


_BALL_CORE, _BALL_RING = _ball_masks()


def render_rgb(state: State, game: int = 0, config: TouchdownConfig | None = None) -> np.ndarray:
    """uint8 [BAR_PX + rows * CELL, lanes * CELL, 3]: the score bar and the board of one game (the state's
    own board unless ``config`` is given)."""
    g = game_index(state, game)
    cfg = board_config(state, g, config)
    s = state
    H, W = cfg.rows, cfg.lanes
    img = np.zeros((BAR_PX + H * CELL, W * CELL, 3), dtype=np.uint8)
    paint_bar(img, status_lines(s, g))
    board = img[BAR_PX:]
    board[:] = GRASS
    board[::CELL, :] = GRID
    board[:, ::CELL] = GRID
    for team in (0, 1):  # end zones: frame rows 0 and -1 of each team
        tint = (np.array(TEAM_COLOURS[team]) * _END_ZONE_TINT + np.array(GRASS) * (1 - _END_ZONE_TINT))
        for frame_row in range(1 - END_ZONE_ROWS, 1):
            top, _ = square_box(0, _abs_row(team, frame_row, cfg), cfg)
            board[top - BAR_PX:top - BAR_PX + CELL, :] = tint.astype(np.uint8)
    in_play = int(s.phase[g]) in (PLAY, INTERCEPTION)
    off = int(s.offence[g])
    if not s.is_over()[g]:
        los_row = _abs_row(off, int(s.los[g]), cfg)
        if 0 <= los_row < H:
            top, _ = square_box(0, los_row, cfg)
            board[top - BAR_PX + 1:top - BAR_PX + CELL, :] = LOS_STRIPE
        gain_row = _abs_row(off, int(s.to_gain[g]), cfg)
        if 0 <= gain_row < H:
            top, _ = square_box(0, gain_row, cfg)
            edge = top - BAR_PX if off == 0 else top - BAR_PX + CELL - 3  # the row's far edge for the offence
            board[edge:edge + 3, :] = TO_GAIN
    if in_play:
        holder = int(s.holder[g])
        for slot in range(N_PIECES):
            lane, row = int(s.lane[g, slot]), int(s.row[g, slot])
            if not (0 <= lane < W and 0 <= row < H):
                continue
            top, left = square_box(lane, row, cfg)
            cell = img[top:top + CELL, left:left + CELL]
            inner = cell[MARGIN:CELL - MARGIN, MARGIN:CELL - MARGIN]
            if slot in (0, 1, 2):  # the interior line
                cell[1:MARGIN, 1:CELL - 1] = INTERIOR_FRAME
                cell[CELL - MARGIN:CELL - 1, 1:CELL - 1] = INTERIOR_FRAME
                cell[1:CELL - 1, 1:MARGIN] = INTERIOR_FRAME
                cell[1:CELL - 1, CELL - MARGIN:CELL - 1] = INTERIOR_FRAME
            inner[_MASKS[SLOT_TYPE[slot]]] = TEAM_COLOURS[_piece_team(s, g, slot)]
            if s.marked[g, slot]:
                cell[0:MARGIN + 2, 0:MARGIN + 2] = MARKER
            if slot == holder:
                inner[_BALL_RING] = LINE
                inner[_BALL_CORE] = BALL
        if holder < 0:
            bl, br = int(s.ball_lane[g]), int(s.ball_row[g])
            if 0 <= bl < W and 0 <= br < H:
                top, left = square_box(bl, br, cfg)
                inner = img[top + MARGIN:top + CELL - MARGIN, left + MARGIN:left + CELL - MARGIN]
                inner[_BALL_RING] = LINE
                inner[_BALL_CORE] = BALL
    return img


def _carrier_line(s: State, g: int) -> str:
    h = int(s.holder[g])
    if int(s.phase[g]) not in (PLAY, INTERCEPTION):
        return "carrier: - (between plays)"
    if h < 0:
        return f"carrier: - (ball loose at lane {int(s.ball_lane[g]) + 1}, row {int(s.ball_row[g]) - 1})"
    team = _piece_team(s, g, h)
    return (f"carrier: team {TEAM_NAMES_LOWER[team]} {SLOT_NAMES[h]} ({TYPE_NAMES[SLOT_TYPE[h]]}) "
            f"at lane {int(s.lane[g, h]) + 1}, row {int(s.row[g, h]) - 1}")


TEAM_NAMES_LOWER = ("one", "two")


def render_ansi(state: State, game: int = 0, config: TouchdownConfig | None = None) -> str:
    """The status lines and the board of one game (module doc; the state's own board unless ``config`` is
    given)."""
    g = game_index(state, game)
    cfg = board_config(state, g, config)
    s = state
    H, W = cfg.rows, cfg.lanes
    off = int(s.offence[g])
    lines = status_lines(s, g)
    of, df = int(s.offence_formation[g]), int(s.defence_formation[g])
    to_act = int(s.to_act[g])
    lines.append(f"phase: {PHASE_NAMES[int(s.phase[g])]}, to act: {TEAM_NAMES_LOWER[to_act] if to_act >= 0 else '-'}"
                 f", call: {OFFENCE_NAMES[of] if of >= 0 else '-'} / {DEFENCE_NAMES[df] if df >= 0 else '-'}")
    lines.append(f"LOS: team {TEAM_NAMES_LOWER[off]}'s row {int(s.los[g])}, line to gain row {int(s.to_gain[g])}, "
                 f"down {int(s.down[g])}")
    lines.append(_carrier_line(s, g))
    marked = [f"team {TEAM_NAMES_LOWER[_piece_team(s, g, k)]} {SLOT_NAMES[k]}" for k in range(N_PIECES)
              if s.marked[g, k]]
    lines.append("marked: " + (", ".join(marked) if marked else "-"))
    if int(s.phase[g]) in (PLAY, INTERCEPTION):
        grid = [["."] * W for _ in range(H)]
        for slot in range(N_PIECES):
            lane, row = int(s.lane[g, slot]), int(s.row[g, slot])
            if not (0 <= lane < W and 0 <= row < H):
                continue
            ch = "I" if slot < 3 else _TEXT_LETTER[SLOT_TYPE[slot]]
            ch = ch if _piece_team(s, g, slot) == 0 else ch.lower()
            if slot == int(s.holder[g]):
                ch = "@"
            grid[row][lane] = "*" if grid[row][lane] != "." else ch
        if int(s.holder[g]) < 0:
            bl, br = int(s.ball_lane[g]), int(s.ball_row[g])
            if 0 <= bl < W and 0 <= br < H and grid[br][bl] == ".":
                grid[br][bl] = "o"
        los_row, gain_row = _abs_row(off, int(s.los[g]), cfg), _abs_row(off, int(s.to_gain[g]), cfg)
        for r in range(H - 1, -1, -1):
            tail = (" <LOS" if r == los_row else "") + (" <GAIN" if r == gain_row else "")
            lines.append(f"{r - 1:>3} |{''.join(grid[r])}|{tail}")
    return "\n".join(lines) + "\n"
