"""Board geometry, player tags and precomputed tables.

Coordinates are 0-based: ``row`` 0-29 is the rulebook's row ("yard") 1-30, ``lane`` 0-17 is lane 1-18.
A square is ``row * 18 + lane``. Row 0 is the near end: team one (team index 0) scores in rows 0-2 and
defends rows 27-29; team two (team index 1) scores in rows 27-29 and defends rows 0-2.

A team's *frame* is the board as that team sees it, attacking "up": team one's frame is the absolute
board; team two's frame is the half turn ``(row, lane) -> (29 - row, 17 - lane)``. Directions in actions
are given in the acting team's frame, so one policy serves both teams.
"""

from __future__ import annotations

import numpy as np

N_ROWS = 30
N_LANES = 18
N_SQUARES = N_ROWS * N_LANES
END_ZONE_DEPTH = 3
FIRST_FIELD_ROW = END_ZONE_DEPTH  # 3: first row of the field of play
LAST_FIELD_ROW = N_ROWS - END_ZONE_DEPTH - 1  # 26

TEAM_ONE, TEAM_TWO = 0, 1
TEAM_NAMES = ("one", "two")

# Player tags. Slots 0-10 are the team on offence at the snap, 11-21 the team on defence. Left/right
# are in the offence's frame. Only C, LG, RG, LT, RT are "interior linemen" (strong/weak, ineligible).
OFFENCE_TAGS = ("QB", "C", "LG", "RG", "LT", "RT", "X", "Y", "Z", "H", "F")
DEFENCE_TAGS = ("LDE", "LDT", "RDT", "RDE", "SLB", "MLB", "WLB", "LCB", "RCB", "FS", "SS")
TAGS = OFFENCE_TAGS + DEFENCE_TAGS
N_SLOTS = len(TAGS)  # 22
PLAYERS_PER_TEAM = 11
QB = 0
INTERIOR_LINEMEN = (1, 2, 3, 4, 5)  # C, LG, RG, LT, RT: index i here is strong-lineman bit i
N_LINEMEN = len(INTERIOR_LINEMEN)

# Directions in a team's own frame: N is toward the end zone it attacks, E is to its right.
DIRECTION_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
N_DIRECTIONS = 8
# (row delta, lane delta) in team one's frame (= absolute); team two negates both.
DIRECTION_DELTAS = np.array(
    [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)], dtype=np.int64
)
DIAGONAL = np.array([False, True, False, True, False, True, False, True])
FORWARD_DIRECTIONS = (7, 0, 1)  # NW, N, NE in the team's own frame

# The hash band: the ball's lane is moved into lanes 7-10 (rulebook 8-11) at the snap, so that every
# formation, laid out within 7 lanes either side of the ball, fits the grid. Symmetric under the half turn.
HASH_BAND = (7, 8, 9, 10)
MAX_FORMATION_HALF_WIDTH = 7

# Kickoff spots (rule 4): 6th row out from the team's own goal line.
KICKOFF_SQUARE = (21 * N_LANES + 8, 8 * N_LANES + 9)  # team one: row 22 lane 9; team two: row 9 lane 10

SQUARE_ROW = np.arange(N_SQUARES) // N_LANES
SQUARE_LANE = np.arange(N_SQUARES) % N_LANES


def square(row: int, lane: int) -> int:
    return row * N_LANES + lane


def rotate_square(sq):
    """The half turn: the same square seen from the other team's frame."""
    return N_SQUARES - 1 - sq


def _neighbour_table() -> np.ndarray:
    """NEIGHBOUR[team, square, direction] -> square, or -1 off the grid."""
    table = np.full((2, N_SQUARES, N_DIRECTIONS), -1, dtype=np.int16)
    for team, sign in ((0, 1), (1, -1)):
        for d, (dr, dl) in enumerate(DIRECTION_DELTAS * sign):
            r = SQUARE_ROW + dr
            l = SQUARE_LANE + dl
            ok = (r >= 0) & (r < N_ROWS) & (l >= 0) & (l < N_LANES)
            table[team, ok, d] = (r * N_LANES + l)[ok]
    return table


NEIGHBOUR = _neighbour_table()
# Chebyshev (king-move) distance between squares (rule 3).
DISTANCE = np.maximum(
    np.abs(SQUARE_ROW[:, None] - SQUARE_ROW[None, :]), np.abs(SQUARE_LANE[:, None] - SQUARE_LANE[None, :])
).astype(np.int8)

# A square's row counted from the goal line end a team attacks: 0-2 is the end zone it scores in,
# 27-29 the end zone it defends. "Forward" means a smaller value.
FRAME_ROW = np.stack([SQUARE_ROW, N_ROWS - 1 - SQUARE_ROW]).astype(np.int8)  # [team, square]
FRAME_LANE = np.stack([SQUARE_LANE, N_LANES - 1 - SQUARE_LANE]).astype(np.int8)
SCORING_END_ZONE = FRAME_ROW < END_ZONE_DEPTH  # [team, square]: in the end zone the team attacks
DEFENDED_END_ZONE = FRAME_ROW > LAST_FIELD_ROW  # [team, square]: in the end zone the team defends


def frame_square(team: int | np.ndarray, frame_row, frame_lane):
    """Absolute square of (row, lane) given in ``team``'s frame."""
    team = np.asarray(team)
    row = np.where(team == 0, frame_row, N_ROWS - 1 - np.asarray(frame_row))
    lane = np.where(team == 0, frame_lane, N_LANES - 1 - np.asarray(frame_lane))
    return row * N_LANES + lane


def _line_offsets() -> np.ndarray:
    """LINE[dr + 29, dl + 17, k] = (row, lane) offset of the k-th square strictly between two squares.

    Rule 19's lane: for a throw over Chebyshev distance n, the squares strictly between are, for
    k = 1 .. n-1, the offset ``round(k * d / n)`` per axis, rounding halves away from zero (so the line
    is the same from either end's frame). Unused entries are (99, 99).
    """
    max_k = N_ROWS - 2
    table = np.full((2 * N_ROWS - 1, 2 * N_LANES - 1, max_k, 2), 99, dtype=np.int8)
    for dr in range(-(N_ROWS - 1), N_ROWS):
        for dl in range(-(N_LANES - 1), N_LANES):
            n = max(abs(dr), abs(dl))
            for k in range(1, n):
                offsets = []
                for d in (dr, dl):
                    x = 2 * k * abs(d)  # twice k*|d|, over 2n: compare against n for the half
                    q, rem = divmod(x, 2 * n)
                    rounded = q + (1 if rem >= n else 0)
                    offsets.append(rounded if d >= 0 else -rounded)
                table[dr + N_ROWS - 1, dl + N_LANES - 1, k - 1] = offsets
    return table


LINE_OFFSETS = _line_offsets()
MAX_LINE_SQUARES = LINE_OFFSETS.shape[2]


def squares_between(a: int, b: int) -> list[int]:
    """Squares strictly between ``a`` and ``b`` on the throwing line (rule 19)."""
    dr = int(SQUARE_ROW[b] - SQUARE_ROW[a])
    dl = int(SQUARE_LANE[b] - SQUARE_LANE[a])
    out = []
    for orow, olane in LINE_OFFSETS[dr + N_ROWS - 1, dl + N_LANES - 1]:
        if orow == 99:
            break
        out.append(int((SQUARE_ROW[a] + orow) * N_LANES + SQUARE_LANE[a] + olane))
    return out
