"""Least-cost maps over the board and the per-game facts of the acting team: the building blocks the
scripted agents (``agents.heuristic``, ``agents.panel``) plan with. Vectorised over a sub-batch of games;
squares are absolute (0..539), costs in die points (rule 13: 1 a straight step, 2 a diagonal one; the
quarterback pays double unless his team took Speedy QB)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gridiron_env.core import actions as A
from gridiron_env.core import rules
from gridiron_env.core.geometry import (
    DISTANCE, FRAME_ROW, N_DIRECTIONS, N_LANES, N_ROWS, N_SQUARES, NEIGHBOUR, SQUARE_LANE, SQUARE_ROW,
)
from gridiron_env.core.state import PLAY, State

BIG = 999  # "out of reach"
DIRECTIONS = np.arange(N_DIRECTIONS)
STEP_COST = rules.MOVE_COST.astype(np.int64)  # rule 13: 1 straight, 2 diagonal
_SLOTS = np.arange(11)


def least_cost(start: np.ndarray, enter: np.ndarray, mult, iters: int, swap: np.ndarray | None = None) -> np.ndarray:
    """Least cost to stand on each square. ``start`` [m, 540]: cost at the sources, BIG elsewhere. A plain
    move enters an ``enter`` square for 1 (orthogonal) or 2 (diagonal) times ``mult`` [m]; a ``swap`` square
    (a weak lineman, rule 14) is entered for a flat 2. At most ``iters`` relaxations, each from every square's
    eight neighbours at once (enough for any cost up to ``iters``, every step costing at least 1)."""
    m = start.shape[0]
    blocked = np.where(enter.reshape(m, N_ROWS, N_LANES), 0, BIG).astype(np.int16)
    swap_cost = None  # 2 to enter a swap square, BIG elsewhere
    if swap is not None and swap.any():
        swap_cost = np.where(swap.reshape(m, N_ROWS, N_LANES), 2, BIG).astype(np.int16)
    # a plain step's cost into each square, BIG more where it may not be entered
    step = np.asarray(mult, dtype=np.int16).reshape(-1, 1, 1)
    straight = step + blocked
    diagonal = straight + step
    # the board framed by a border of BIG, so that every square has eight neighbours; costs stay below
    # 3 * BIG, inside int16
    pad = np.full((m, N_ROWS + 2, N_LANES + 2), BIG, dtype=np.int16)
    d = pad[:, 1:-1, 1:-1]
    d[...] = np.minimum(start, BIG).reshape(m, N_ROWS, N_LANES)
    for _ in range(iters):
        # the cheapest neighbour in each direction class: the lane pair first, shared by the diagonals
        beside = np.minimum(pad[:, :, :-2], pad[:, :, 2:])
        diag = np.minimum(beside[:, :-2], beside[:, 2:])
        orth = np.minimum(np.minimum(pad[:, :-2, 1:-1], pad[:, 2:, 1:-1]), beside[:, 1:-1])
        new = np.minimum(orth + straight, diag + diagonal)
        if swap_cost is not None:
            np.minimum(new, np.minimum(orth, diag) + swap_cost, out=new)
        np.minimum(new, d, out=new)  # never above d (itself at most BIG)
        if not (new < d).any():
            break
        d[...] = new
    return d.reshape(m, N_SQUARES).astype(np.int32)


def sources(m: int, squares: np.ndarray, costs=0) -> np.ndarray:
    """A start array for :func:`least_cost`: ``squares`` [m, k] (-1 = none) at ``costs`` [m, k], BIG elsewhere."""
    start = np.full((m, N_SQUARES + 1), BIG, dtype=np.int32)
    squares = np.asarray(squares, dtype=np.int64).reshape(m, -1)
    costs = np.broadcast_to(np.asarray(costs, dtype=np.int32), squares.shape)
    rows = np.broadcast_to(np.arange(m)[:, None], squares.shape)
    # a square listed twice keeps its lowest cost
    np.minimum.at(start, (rows, np.where(squares >= 0, squares, N_SQUARES)), costs)
    return start[:, :N_SQUARES]


def gather(grid: np.ndarray, squares: np.ndarray, fill=BIG) -> np.ndarray:
    """grid [m, 540] at ``squares`` [m, ...] (-1 gives ``fill``)."""
    m = grid.shape[0]
    shape = squares.shape
    flat = squares.reshape(m, -1)
    out = np.take_along_axis(grid, np.maximum(flat, 0), axis=1)
    return np.where(flat >= 0, out, fill).reshape(shape)


@dataclass
class Side:
    """Per-game facts of the acting team in a sub-batch (all arrays have the sub-batch as first axis)."""

    s: State
    team: np.ndarray  # acting team
    base: np.ndarray  # its first slot (0 if it had the ball at the snap, else 11)
    slots: np.ndarray  # [m, 11]
    squares: np.ndarray  # [m, 11]
    opp_slots: np.ndarray
    opp_squares: np.ndarray
    points: np.ndarray  # acting team's points
    opp_points: np.ndarray
    frame: np.ndarray  # [m, 540]: frame rows of the acting team (smaller = nearer the end zone it attacks)
    empty: np.ndarray  # [m, 540] bool
    move_ids: np.ndarray = field(init=False)  # [m, 11, 8] move action ids
    targets: np.ndarray = field(init=False)  # [m, 11, 8] square each move goes to, -1 off the grid
    move_legal: np.ndarray = field(init=False)

    def __post_init__(self):
        m = self.team.size
        self.move_ids = A.MOVE_BASE + self.slots[:, :, None] * N_DIRECTIONS + DIRECTIONS[None, None, :]
        self.targets = NEIGHBOUR[self.team[:, None, None], np.maximum(self.squares, 0)[:, :, None],
                                 DIRECTIONS[None, None, :]].astype(np.int64)
        self.targets[self.squares < 0] = -1
        self.move_legal = self.s.legal[np.arange(m)[:, None, None], self.move_ids]


def side_of(s: State) -> Side:
    m = s.batch_size
    r = np.arange(m)
    team = s.to_act.astype(np.int64)
    base = np.where(s.offence == team, 0, 11)
    slots = base[:, None] + _SLOTS[None, :]
    opp_slots = (11 - base)[:, None] + _SLOTS[None, :]
    return Side(
        s=s, team=team, base=base, slots=slots, squares=s.player_square[r[:, None], slots].astype(np.int64),
        opp_slots=opp_slots, opp_squares=s.player_square[r[:, None], opp_slots].astype(np.int64),
        points=s.points[r, team].astype(np.int64), opp_points=s.points[r, 1 - team].astype(np.int64),
        frame=FRAME_ROW[team].astype(np.int64), empty=s.board < 0,
    )


def tackle_moves_mask(s: State) -> np.ndarray:
    """[m, NUM_ACTIONS] bool: the legal ``move`` actions that are tackles (rule 14): in the play phase, a
    move of a player of the side not holding the ball onto the square of the enemy ball carrier."""
    m = s.batch_size
    holder = s.ball_holder.astype(np.int64)
    moves = np.flatnonzero(A.ACTION_KIND == A.KIND_MOVE)
    slot = A.ACTION_ARG[moves].astype(np.int64)
    square = s.player_square[:, slot].astype(np.int64)  # [m, moves]
    team = s.to_act.astype(np.int64).clip(0, 1)[:, None]
    target = NEIGHBOUR[team, np.maximum(square, 0), A.ACTION_DIRECTION[moves].astype(np.int64)[None, :]]
    onto_carrier = (square >= 0) & (target >= 0) & (
        np.take_along_axis(s.board.astype(np.int64), np.maximum(target, 0), axis=1) == holder[:, None])
    enemy = (slot[None, :] < 11) != (holder[:, None] < 11)
    live = ((s.phase == PLAY) & (holder >= 0))[:, None]
    mask = np.zeros((m, A.NUM_ACTIONS), dtype=bool)
    mask[:, moves] = s.legal[:, moves] & onto_carrier & enemy & live
    return mask


def qb_mult(s: State, slot: np.ndarray) -> np.ndarray:
    """2 for the quarterback unless his team took Speedy QB, else 1 (rule 13)."""
    speedy = rules.speedy_qb(s, np.arange(s.batch_size))
    slot = np.asarray(slot)
    speedy = speedy.reshape((-1,) + (1,) * (slot.ndim - 1))
    return np.where((slot == 0) & ~speedy, 2, 1)


def weak_linemen(s: State, tackler_is_snap_defence: np.ndarray) -> np.ndarray:
    """[m, 540] squares a tackler may swap onto: weak interior linemen, for the snap defence (rule 14)."""
    m = s.batch_size
    out = np.zeros((m, N_SQUARES), dtype=bool)
    sq = s.player_square[:, 1:6].astype(np.int64)
    weak = ~s.strong & (sq >= 0) & tackler_is_snap_defence[:, None]
    rows = np.broadcast_to(np.arange(m)[:, None], sq.shape)
    out[rows[weak], sq[weak]] = True
    return out


def threat_map(side: Side, carrier_square: np.ndarray, iters: int) -> np.ndarray:
    """Least cost for the other team to put a player on each square (the carrier's own square counts as
    empty: a move onto him is a tackle)."""
    m = side.team.size
    enter = side.empty.copy()
    enter[np.arange(m), carrier_square] = True
    swap = weak_linemen(side.s, side.base == 0)
    return least_cost(sources(m, side.opp_squares), enter, 1, iters, swap)


def manhattan(a, b):
    return np.abs(SQUARE_ROW[a] - SQUARE_ROW[b]) + np.abs(SQUARE_LANE[a] - SQUARE_LANE[b])


def block_entries(side: Side, threat, csq) -> np.ndarray:
    """A teammate's move onto an empty square next to the carrier from which a tackle can come this round
    (the most dangerous one first), or -1."""
    m = side.team.size
    r = np.arange(m)
    t = side.targets
    carrier_slot = side.s.ball_holder.astype(np.int64)
    adjacent = (t >= 0) & (DISTANCE[np.maximum(t, 0), csq[:, None, None]] == 1) & side.empty[r[:, None, None], np.maximum(t, 0)]
    step_in = STEP_COST[None, None, :]  # (approximate: a tackle from there costs 1 or 2)
    danger = gather(threat, t.reshape(m, -1)).reshape(t.shape)
    threatened = adjacent & (danger + 1 <= side.opp_points[:, None, None])
    ok = threatened & side.move_legal & (side.slots[:, :, None] != carrier_slot[:, None, None])
    score = np.where(ok, -danger * 10 - step_in, -BIG).reshape(m, -1)
    k = np.argmax(score, axis=1)
    good = score[r, k] > -BIG
    return np.where(good, side.move_ids.reshape(m, -1)[r, k], -1)
