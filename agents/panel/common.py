"""What every panel agent shares: the agent shell and the football building blocks its styles combine.

:class:`PanelAgent` is the shell: streams keyed per game (``GameStreams``), a :func:`agents.base.visible_view`
copy of the games to act in (so no style can read hidden fields), dispatch by phase, a legality check
(the legal mask is the ground truth; an illegal choice becomes End turn or the first legal action), and
the fumble-scramble / loose-ball play, which is the same for every style. A style overrides the
decisions: ``pick_special``, ``offence_formation``, ``defence_formation``, ``kick``, ``carry`` (its team
holds the ball) and ``defend`` (the other team holds it). Every decision takes a sub-batch view ``s`` and
the indices ``games`` of those games in the caller's batch (for the streams and memories) and returns one
action id per game.

The building blocks (all vectorised over the sub-batch; squares absolute, rows in the acting team's frame
unless said otherwise):

- least-cost maps over the board from :mod:`agents.board` (``least_cost``: moves 1 straight, 2 diagonal,
  times 2 for a slow quarterback; ``threat_map``: the tackling side's cost to reach each square);
- :func:`carrier_options` (the carrier's legal first actions: moves, pushes, gap runs), :func:`carrier_reach`
  and :func:`step_toward` (the first action of the cheapest path to a chosen square);
- :func:`forward_passes` (completion chance of a forward pass to each teammate, from ``pass_dice``),
  :func:`handoff_options` (handoffs and laterals);
- :func:`tackle_now` (a legal tackle or the first step of a tackle within reach), :func:`moves_toward_a_tackle`
  (every such move) and :func:`move_to_targets`
  (each defender walks toward his own target square);
- :func:`situation`, :func:`field_goal_chances`, :func:`points_needed`, :func:`punt_rows`: the facts a
  kick decision needs.
"""

from __future__ import annotations

import numpy as np

from gridiron_env.config import GameConfig
from gridiron_env.core import actions as A
from gridiron_env.core import rules
from gridiron_env.core.engine import pass_dice
from gridiron_env.core.formations import DEFENCE_FORMATIONS, OFFENCE_FORMATIONS
from gridiron_env.core.geometry import (
    DEFENDED_END_ZONE, DISTANCE, FRAME_ROW, N_DIRECTIONS, N_LANES, N_ROWS, NEIGHBOUR,
    SCORING_END_ZONE, SQUARE_LANE, SQUARE_ROW,
)
from gridiron_env.core.odds import COMPLETION_TABLE
from gridiron_env.core.state import (
    DEFENCE_FORMATION, KICK_DECISION, OFFENCE_FORMATION, PLAY, SCRAMBLE, SPECIALS_PICK, State,
)

from ..base import GameStreams, visible_view
from ..board import (
    BIG, Side, block_entries, gather, least_cost, qb_mult, side_of, sources, threat_map, weak_linemen,
)
from ..heuristic import HeuristicAgent

__all__ = [
    "BIG", "OFF", "DEF", "ELIGIBLE", "PanelAgent", "Side", "side_of", "least_cost", "sources", "gather",
    "threat_map", "qb_mult", "weak_linemen", "block_entries", "carrier_options", "carrier_reach", "step_toward",
    "square_terms", "forward_passes", "handoff_options", "tackle_now", "moves_toward_a_tackle", "pursuit_map",
    "move_to_targets", "manhattan", "pursuit_cost", "rank_of", "assign_nearest", "pass_live", "receivers_of",
    "goal_side", "at", "kick_choice", "situation", "field_goal_chances", "points_needed", "punt_rows", "frame_of",
]

OFF = {name: i for i, name in enumerate(OFFENCE_FORMATIONS)}
DEF = {name: i for i, name in enumerate(DEFENCE_FORMATIONS)}
ELIGIBLE = rules.ELIGIBLE_RECEIVER  # interior linemen never take a forward pass (rule 18)
STEP_COST = rules.MOVE_COST.astype(np.int64)  # N, NE, E, ... : 1 straight, 2 diagonal (rule 13)
FORWARD = (7, 0, 1)  # NW, N, NE in the team's frame
MOVE, PUSH, GAP, SHOVE = 0, 1, 2, 3  # kinds of a carrier's first action (SHOVE: a push that shoves a defender)


def frame_of(team, squares):
    """Frame rows (0 = the back of the end zone the team attacks) of absolute ``squares`` for ``team``
    (arrays that broadcast)."""
    return FRAME_ROW[np.asarray(team, dtype=np.int64), np.maximum(np.asarray(squares, dtype=np.int64), 0)].astype(
        np.int64)


def manhattan(a, b):
    """Rows + lanes between squares: the cost of walking from one to the other on an open board."""
    a, b = np.maximum(a, 0), np.maximum(b, 0)
    return np.abs(SQUARE_ROW[a] - SQUARE_ROW[b]) + np.abs(SQUARE_LANE[a] - SQUARE_LANE[b])


# --- the situation and kicks ------------------------------------------------------------------------------

def situation(s: State):
    """(LOS frame row of the offence, rows to the line to gain, rows to the goal line), int64 [m]."""
    return HeuristicAgent._situation(s)


def points_needed(s: State, config: GameConfig) -> np.ndarray:
    """Points the offence needs when this drive is its last of regulation (rule 28), else 0."""
    return HeuristicAgent._points_needed(s, config)


def field_goal_chances(los_frame_row, config: GameConfig) -> np.ndarray:
    """Chance a field goal from an LOS on ``los_frame_row`` (offence frame) is good, for the config's kick
    mode (0 out of range): the engine's own table (``core.rules.field_goal_chance_for_row``)."""
    return rules.field_goal_chance_for_row(np.clip(np.asarray(los_frame_row, dtype=np.int64), 0, N_ROWS - 1),
                                           config)


def punt_rows(s: State, config: GameConfig, short_of_goal: int = 3) -> np.ndarray:
    """The punt target (rows) that lands the ball ``short_of_goal`` rows short of the goal line when the
    spread is 0, within ``longest_punt`` (rule 22's spread of -2..+2 rows moves it either way)."""
    _, _, to_goal = situation(s)
    return np.clip(to_goal - short_of_goal, 1, config.longest_punt)


# --- the carrier ------------------------------------------------------------------------------------------

def carrier_options(s: State, side: Side):
    """The carrier's legal first actions as (landing square, cost, action id, kind) [m, 8 + 11 + 5]: the 8
    moves onto empty squares, the pushes (he steps into the pushed teammate's square; the cost doubles when
    the line shoves a defender, rule 16) and the gap runs (two squares past a strong lineman, rule 17).
    Squares are -1 where the action is not legal."""
    m = s.batch_size
    r = np.arange(m)
    team = side.team
    carrier = s.ball_holder.astype(np.int64)
    csq = s.ball_square.astype(np.int64)
    mult = qb_mult(s, carrier)
    dirs = np.arange(N_DIRECTIONS)
    move_to = NEIGHBOUR[team[:, None], csq[:, None], dirs[None, :]].astype(np.int64)
    move_id = A.MOVE_BASE + carrier[:, None] * N_DIRECTIONS + dirs[None, :]
    move_ok = s.legal[r[:, None], move_id] & (move_to >= 0) & side.empty[r[:, None], np.maximum(move_to, 0)]
    move_cost = STEP_COST[None, :] * mult[:, None]
    push_id = A.PUSH_BASE + side.slots
    push_ok = s.legal[r[:, None], push_id]
    push_to = side.squares
    diagonal = (SQUARE_ROW[np.maximum(push_to, 0)] != SQUARE_ROW[csq][:, None]) & (
        SQUARE_LANE[np.maximum(push_to, 0)] != SQUARE_LANE[csq][:, None])
    shove = _push_shoves(s, side, csq, np.where(push_ok, push_to, -1))
    push_cost = np.where(diagonal, 2, 1) * mult[:, None] * np.where(shove, 2, 1)
    gap_id = A.GAP_BASE + np.broadcast_to(np.arange(5), (m, 5))
    gap_ok = s.legal[r[:, None], gap_id]
    gap_to = 2 * s.player_square[:, 1:6].astype(np.int64) - csq[:, None]
    gap_cost = np.broadcast_to(rules.gap_cost(s, r, carrier)[:, None], (m, 5))  # the engine's own (rule 17)
    squares = np.concatenate([np.where(move_ok, move_to, -1), np.where(push_ok, push_to, -1),
                              np.where(gap_ok, gap_to, -1)], axis=1)
    costs = np.concatenate([move_cost, push_cost, gap_cost], axis=1).astype(np.int64)
    ids = np.concatenate([move_id, push_id, gap_id], axis=1)
    kinds = np.concatenate([np.full((m, 8), MOVE), np.where(shove, SHOVE, PUSH), np.full((m, 5), GAP)], axis=1)
    return squares, costs, ids, kinds


def _push_shoves(s: State, side: Side, csq, push_to) -> np.ndarray:
    """[m, 11]: does a push into each teammate's square shove a defender (an opponent in the line)?"""
    m = s.batch_size
    r = np.arange(m)
    out = np.zeros((m, 11), dtype=bool)
    dr = np.sign(SQUARE_ROW[np.maximum(push_to, 0)] - SQUARE_ROW[csq][:, None])
    dl = np.sign(SQUARE_LANE[np.maximum(push_to, 0)] - SQUARE_LANE[csq][:, None])
    row = SQUARE_ROW[np.maximum(push_to, 0)].astype(np.int64)
    lane = SQUARE_LANE[np.maximum(push_to, 0)].astype(np.int64)
    open_line = push_to >= 0
    opp_first = 11 - side.base  # the other team's first slot
    for _ in range(N_ROWS):
        row, lane = row + dr, lane + dl
        on = open_line & (row >= 0) & (row < N_ROWS) & (lane >= 0) & (lane < N_LANES)
        occ = np.where(on, s.board[r[:, None], np.where(on, row * N_LANES + lane, 0)], -1).astype(np.int64)
        opponent = on & (occ >= 0) & ((occ >= opp_first[:, None]) & (occ < opp_first[:, None] + 11))
        out |= opponent
        open_line = on & (occ >= 0)
        if not open_line.any():
            break
    return out


def carrier_reach(s: State, side: Side, options, points) -> np.ndarray:
    """[m, 540] the carrier's least cost to stand on each square this turn (BIG where out of ``points``):
    his square at 0, each first action's landing square at its cost, then plain moves."""
    squares, costs, _, _ = options
    m = s.batch_size
    csq = s.ball_square.astype(np.int64)
    start = sources(m, np.concatenate([csq[:, None], squares], axis=1),
                    np.concatenate([np.zeros((m, 1), dtype=np.int64), costs], axis=1))
    mult = qb_mult(s, s.ball_holder.astype(np.int64))
    top = int(np.max(points)) if m else 0
    reach = least_cost(start, side.empty, mult, max(top, 1))
    return np.where(reach <= np.asarray(points)[:, None], reach, BIG)


def step_toward(s: State, side: Side, options, target, points, prefer=None) -> np.ndarray:
    """The first action of the carrier's cheapest way to ``target`` [m] within ``points`` (End turn where
    none, or where ``target`` is his square). ``prefer`` [m, K] (optional): a bonus in points that breaks
    ties between first actions of equal total cost, e.g. a power runner's pushes."""
    squares, costs, ids, _ = options
    m = s.batch_size
    out = np.full(m, A.END_TURN, dtype=np.int64)
    go = np.flatnonzero(target != s.ball_square)
    if go.size == 0:
        return out
    mult = qb_mult(s, s.ball_holder.astype(np.int64))[go]
    enter = side.empty[go].copy()
    land = squares[go]
    enter[np.arange(go.size)[:, None].repeat(land.shape[1], 1)[land >= 0], land[land >= 0]] = True
    back = least_cost(sources(go.size, target[go][:, None]), enter, mult, int(np.max(points[go])) + 1)
    after = gather(back, land)
    total = np.where(land >= 0, costs[go] + after, BIG).astype(np.float64)
    if prefer is not None:
        total = total - 0.01 * prefer[go]
    k = np.argmin(total, axis=1)
    ok = total[np.arange(go.size), k] <= points[go] + 0.5
    out[go[ok]] = ids[go, k][ok]
    return out


def square_terms(s: State, side: Side, threat, reach, points):
    """Facts about ending the carrier's turn on each square [m, 540]: (frame row, safe from a tackle this
    round, threat margin beyond the other side's points (0-3), points left, first down if tackled there,
    in the end zone the carrier attacks, in the end zone he defends)."""
    frame = side.frame
    opp = side.opp_points[:, None]
    safe = threat > opp
    margin = np.clip(threat - opp, 0, 3)
    left = np.clip(np.asarray(points)[:, None] - reach, 0, 8)
    gain_row = frame_of(side.team, s.line_to_gain.astype(np.int64) * N_LANES)[:, None]
    first_down = (side.base == 0)[:, None] & (frame <= gain_row)
    return frame, safe, margin, left, first_down, SCORING_END_ZONE[side.team], DEFENDED_END_ZONE[side.team]


def forward_passes(s: State, side: Side) -> tuple[np.ndarray, np.ndarray]:
    """(chance [m, 11], receiver square [m, 11]) of a forward pass from the carrier to each teammate slot
    of the acting side, -1 where no forward pass is legal; chance from the engine's ``pass_dice``
    (1.0 when nobody is within 3 squares of the receiver)."""
    m = s.batch_size
    r = np.arange(m)
    chance = np.full((m, 11), -1.0)
    csq = s.ball_square.astype(np.int64)
    if m == 0:
        return chance, side.squares
    los = frame_of(side.team, s.los_row.astype(np.int64) * N_LANES)
    can = (side.base == 0) & ~s.forward_pass_used & (side.frame[r, csq] > los) & (side.points >= 2)
    if not can.any():
        return chance, side.squares
    for slot in np.flatnonzero(ELIGIBLE):
        rsq = side.squares[:, slot]
        ok = can & (rsq >= 0) & s.legal[r, A.THROW_BASE + side.slots[:, slot]] & (
            side.frame[r, np.maximum(rsq, 0)] < side.frame[r, csq])
        g = np.flatnonzero(ok)
        if g.size:
            off, dfn = pass_dice(s, g, side.slots[g, slot])
            chance[g, slot] = np.where(off == 0, 1.0, COMPLETION_TABLE[np.minimum(off, 8), np.minimum(dfn, 40)])
    return chance, side.squares


def handoff_options(s: State, side: Side) -> tuple[np.ndarray, np.ndarray]:
    """(kind [m, 11]: 0 none, 1 handoff, 2 lateral; points change [m, 11]) of a throw that is not forward
    to each teammate (rule 18: a handoff beside and not forward is free, +1 point when behind; a lateral
    costs 2)."""
    m = s.batch_size
    r = np.arange(m)
    csq = s.ball_square.astype(np.int64)
    rsq = side.squares
    legal = s.legal[r[:, None], A.THROW_BASE + side.slots] & (rsq >= 0) & (
        side.slots != s.ball_holder.astype(np.int64)[:, None])
    rf = side.frame[r[:, None], np.maximum(rsq, 0)]
    cf = side.frame[r, csq][:, None]
    not_forward = rf >= cf
    beside = DISTANCE[np.maximum(rsq, 0), csq[:, None]] == 1
    kind = np.where(legal & not_forward, np.where(beside, 1, 2), 0)
    change = np.where(kind == 1, np.where(rf > cf, 1, 0), np.where(kind == 2, -2, 0))
    return kind, change


# --- the tackling side ------------------------------------------------------------------------------------

def pursuit_map(s: State, side: Side, iters: int = 16) -> np.ndarray:
    """[m, 540] least cost for a tackler to go from each square to the carrier: over empty squares, through
    weak linemen for a flat 2 when the tacklers are the snap defence (rule 14)."""
    m = s.batch_size
    csq = s.ball_square.astype(np.int64)
    swap = weak_linemen(s, side.base == 11)
    return least_cost(sources(m, csq[:, None]), side.empty, 1, iters, swap)


def _move_costs(s: State, side: Side) -> np.ndarray:
    """[m, 11, 8] points each of the acting side's moves costs (a swap onto a weak lineman: 2)."""
    m = s.batch_size
    r = np.arange(m)
    t = side.targets
    cost = STEP_COST[None, None, :] * qb_mult(s, side.slots)[:, :, None]
    swap = side.move_legal & (t >= 0) & (s.board[r[:, None, None], np.maximum(t, 0)] >= 0) & (
        t != s.ball_square.astype(np.int64)[:, None, None])
    return np.where(swap, 2, cost)


def _ways_to_a_tackle(s: State, side: Side, dist=None):
    """(total [m, 11, 8], onto [m, 11, 8], pursuit map, move costs): the points each of the acting side's
    legal moves costs plus the least cost from its square to a tackle (0 onto the carrier; BIG for no
    move), and which moves are tackles themselves."""
    m = s.batch_size
    csq = s.ball_square.astype(np.int64)
    t = side.targets
    cost = _move_costs(s, side)
    if dist is None:
        dist = pursuit_map(s, side)
    onto = side.move_legal & (t == csq[:, None, None])
    after = np.where(onto, 0, gather(dist, t.reshape(m, -1)).reshape(t.shape))
    return np.where(side.move_legal & (t >= 0), cost + after, BIG), onto, dist, cost


def tackle_now(s: State, side: Side, dist=None):
    """(action [m] or -1, pursuit map, move costs [m, 11, 8]): the cheapest legal tackle; else the first
    step of the cheapest way to tackle within the side's points this turn; else -1."""
    m = s.batch_size
    r = np.arange(m)
    total, onto, dist, cost = _ways_to_a_tackle(s, side, dist)
    # a tackle itself first on equal totals
    total = total.reshape(m, -1) * 2 - onto.reshape(m, -1)
    k = np.argmin(total, axis=1)
    ok = total[r, k] <= 2 * side.points
    return np.where(ok, side.move_ids.reshape(m, -1)[r, k], -1), dist, cost


def moves_toward_a_tackle(s: State, side: Side) -> np.ndarray:
    """[m, 11, 8] bool: the acting side's legal moves that are a tackle, or a step of a way to one that its
    points still pay for this turn (rules 13-14; on the pursuit map)."""
    total, _, _, _ = _ways_to_a_tackle(s, side)
    return total <= side.points[:, None, None]


def pursuit_cost(s: State, side: Side, dist, cost) -> np.ndarray:
    """[m, 11] each of the acting side's players' cost to tackle the carrier (his cheapest first move plus
    the pursuit map ``dist`` from there; 30 + rows and lanes apart when boxed in)."""
    m = s.batch_size
    t = side.targets
    csq = s.ball_square.astype(np.int64)
    after = np.where(t == csq[:, None, None], 0, gather(dist, t.reshape(m, -1)).reshape(t.shape))
    best = np.where(t >= 0, after + cost, BIG).min(axis=2)
    return np.minimum(best, 30 + manhattan(side.squares, csq[:, None]))


def rank_of(values) -> np.ndarray:
    """[m, 11] each player's rank (0 = smallest value) within his game; ties by slot."""
    return np.argsort(np.argsort(values, axis=1, kind="stable"), axis=1, kind="stable")


def move_to_targets(s: State, side: Side, target, weight, reserve, dist=None, cost=None) -> np.ndarray:
    """One move of the acting side's players toward their own targets: ``target`` [m, 11] a square (-1 no
    target; the carrier's square means pursue him, measured on the pursuit map ``dist``), ``weight``
    [m, 11]. The move that closes the most (weighted) distance per point, keeping ``reserve`` [m] points;
    End turn when no move closes any."""
    m = s.batch_size
    r = np.arange(m)
    t = side.targets
    if cost is None:
        cost = _move_costs(s, side)
    csq = s.ball_square.astype(np.int64)
    here = side.squares
    tg = np.maximum(target, 0)
    d_here = manhattan(here, tg).astype(np.float64)
    d_next = manhattan(t, tg[:, :, None]).astype(np.float64)
    if dist is not None:
        chase = (target == csq[:, None]) & (target >= 0)
        nb = np.where(t >= 0, gather(dist, t.reshape(m, -1)).reshape(t.shape) + cost, BIG).min(axis=2)
        nb = np.minimum(nb, 30 + manhattan(here, csq[:, None]))
        nx = np.where(t == csq[:, None, None], 0, gather(dist, t.reshape(m, -1)).reshape(t.shape))
        nx = np.minimum(nx, 30 + manhattan(t, csq[:, None, None]))
        d_here = np.where(chase, nb, d_here)
        d_next = np.where(chase[:, :, None], nx, d_next)
    gain = (d_here[:, :, None] - d_next) * weight[:, :, None] / cost
    ok = side.move_legal & (t >= 0) & (target[:, :, None] >= 0) & (d_here[:, :, None] > d_next) & (
        side.points[:, None, None] - cost >= np.asarray(reserve)[:, None, None])
    gain = np.where(ok, gain, -np.inf).reshape(m, -1)
    k = np.argmax(gain, axis=1)
    return np.where(np.isfinite(gain[r, k]), side.move_ids.reshape(m, -1)[r, k], A.END_TURN)


def receivers_of(s: State, side: Side):
    """(squares [m, 11], eligible [m, 11], rows downfield of the ball [m, 11]) of the other team's
    receivers while the acting side defends the snap (their eligible players other than the carrier)."""
    carrier_team = 1 - side.team
    rec = side.opp_squares
    eligible = ELIGIBLE[None, :] & (side.opp_slots != s.ball_holder.astype(np.int64)[:, None]) & (rec >= 0)
    ball = frame_of(carrier_team, s.ball_square.astype(np.int64))
    downfield = ball[:, None] - frame_of(carrier_team[:, None], rec)
    return rec, eligible, downfield


def goal_side(team_attacking, squares, rows: int = 1) -> np.ndarray:
    """The square ``rows`` rows nearer the end zone ``team_attacking`` attacks (kept on the grid)."""
    team = np.asarray(team_attacking, dtype=np.int64)
    row = SQUARE_ROW[np.maximum(squares, 0)] + np.where(team == 0, -rows, rows)
    row = np.clip(row, 0, N_ROWS - 1)
    return row * N_LANES + SQUARE_LANE[np.maximum(squares, 0)]


def at(team, frame_row, lane) -> np.ndarray:
    """The absolute square of (frame row, absolute lane) for ``team``, both clipped onto the grid."""
    team = np.asarray(team, dtype=np.int64)
    frame_row = np.clip(frame_row, 0, N_ROWS - 1)
    row = np.where(team == 0, frame_row, N_ROWS - 1 - frame_row)
    return row * N_LANES + np.clip(lane, 0, N_LANES - 1)


def assign_nearest(squares, free, spots, target=None) -> np.ndarray:
    """Greedy assignment: for each column j of ``spots`` [m, k] (-1 none) in order, the nearest still
    ``free`` [m, 11] player (by :func:`manhattan` from ``squares`` [m, 11]) takes it. Returns ``target``
    [m, 11] (a copy, filled in; -1 for players left without a spot)."""
    m = squares.shape[0]
    r = np.arange(m)
    target = np.full((m, 11), -1, dtype=np.int64) if target is None else target.copy()
    free = free.copy()
    for j in range(spots.shape[1]):
        spot = spots[:, j]
        d = np.where(free & (spot[:, None] >= 0) & (squares >= 0), manhattan(squares, spot[:, None]), BIG)
        k = np.argmin(d, axis=1)
        ok = d[r, k] < BIG
        target[r[ok], k[ok]] = spot[ok]
        free[r[ok], k[ok]] = False
    return target


def pass_live(s: State, side: Side) -> np.ndarray:
    """[m] the acting side defends the snap and a forward pass may still come (the carrier is the snap
    offence's, behind the LOS, and this play's pass is not thrown)."""
    holder = s.ball_holder.astype(np.int64)
    offence = s.offence.astype(np.int64)
    carrier_frame = frame_of(offence, s.ball_square.astype(np.int64))
    los = frame_of(offence, s.los_row.astype(np.int64) * N_LANES)
    return (side.base == 11) & (holder >= 0) & (holder < 11) & ~s.forward_pass_used & (carrier_frame > los)


# --- the shell ----------------------------------------------------------------------------------------------

class PanelAgent:
    """The shell of a panel agent (see the module docstring). A style sets ``name``, ``salt`` and
    ``special`` and overrides the decisions."""

    name = "panel"
    salt = 0x5A9E_1000_0000_0000
    special = "speedy_qb"

    def __init__(self):
        self.streams = GameStreams()
        self.holder = np.zeros(0, dtype=np.int64)  # per game: slot last seen (or made) carrying the ball

    def reset(self, seeds) -> None:
        self.streams.reset(seeds, self.salt)
        self.holder = np.full(np.asarray(seeds).size, -1, dtype=np.int64)

    def coin(self, games, s: State, high, k: int) -> np.ndarray:
        """A seeded integer in [0, high) per game (its own stream at its step count)."""
        return self.streams.integers(games, s.steps, high, k=k)

    def act(self, state: State, config: GameConfig | None = None, games=None) -> np.ndarray:
        config = config or GameConfig()
        batch = state.batch_size
        self.streams.ensure(batch, self.salt)
        if self.holder.size < batch:
            self.holder = np.concatenate([self.holder, np.full(batch - self.holder.size, -1, dtype=np.int64)])
        games = np.arange(batch) if games is None else np.asarray(games, dtype=np.int64)
        actions = np.zeros(batch, dtype=np.int64)
        live = games[(state.to_act[games] >= 0) & state.legal[games].any(axis=1)]
        if live.size == 0:
            return actions
        view = visible_view(state, live)  # hidden fields blanked: no decision below can read them
        out = np.full(live.size, -1, dtype=np.int64)
        holder = view.ball_holder.astype(np.int64)
        team = view.to_act.astype(np.int64)
        holder_team = np.where(holder < 11, view.offence, 1 - view.offence)
        in_play = view.phase == PLAY
        groups = (
            (view.phase == SPECIALS_PICK, self.pick_special),
            (view.phase == OFFENCE_FORMATION, self.offence_formation),
            (view.phase == DEFENCE_FORMATION, self.defence_formation),
            (view.phase == KICK_DECISION, self.kick),
            (view.phase == SCRAMBLE, self.scramble),
            (in_play & (holder >= 0) & (holder_team == team), self.carry),
            (in_play & (holder >= 0) & (holder_team != team), self.defend),
            (in_play & (holder < 0), self.loose_ball),
        )
        for mask, decide in groups:
            sub = np.flatnonzero(mask)
            if sub.size:
                out[sub] = decide(view.take(sub), config, live[sub])
        r = np.arange(live.size)
        ok = (out >= 0) & (out < A.NUM_ACTIONS) & view.legal[r, np.clip(out, 0, A.NUM_ACTIONS - 1)]
        fallback = np.where(view.legal[:, A.END_TURN], A.END_TURN, np.argmax(view.legal, axis=1))
        out = np.where(ok, out, fallback)
        self._remember(view, live, out)
        actions[live] = out
        return actions

    def _remember(self, view: State, games, out) -> None:
        """The slot last seen with the ball, or the receiver of this side's own throw: in a fumble scramble
        the ball lies beside him (rules 15, 18, 27); only visible facts and own actions go in."""
        holder = view.ball_holder.astype(np.int64)
        kind = A.ACTION_KIND[out]
        thrown = (kind == A.KIND_THROW) & (holder >= 0)
        keep = np.where(holder >= 0, holder, self.holder[games])
        self.holder[games] = np.where(thrown, A.ACTION_ARG[out].astype(np.int64), keep)

    # Decisions every style may keep --------------------------------------------------------------------------

    def pick_special(self, s: State, config, games) -> np.ndarray:
        return np.full(s.batch_size, A.SPECIAL_BASE + A.SPECIALS.index(self.special), dtype=np.int64)

    def scramble(self, s: State, config, games) -> np.ndarray:
        """A blind step onto an empty square beside the fumbler (the ball is on one of them), else the
        player nearest him steps closer; End turn when the fumbler is unknown."""
        side = side_of(s)
        m = s.batch_size
        r = np.arange(m)
        slot = self.holder[games]
        pile = np.where(slot >= 0, s.player_square[r, np.maximum(slot, 0)], -1).astype(np.int64)
        known = pile >= 0
        t = side.targets
        onto = known[:, None, None] & side.move_legal & (t >= 0) & (
            DISTANCE[np.maximum(t, 0), np.maximum(pile, 0)[:, None, None]] == 1)
        # seeded among the candidate steps: each empty square beside the pile is as likely to hide it
        unit = self.streams.uniform(games, s.steps, k=7)
        flat = onto.reshape(m, -1)
        count = flat.sum(axis=1)
        pick = np.minimum((unit * count).astype(np.int64), np.maximum(count - 1, 0))
        chosen = np.argmax(flat & (np.cumsum(flat, axis=1) - 1 == pick[:, None]), axis=1)
        out = np.where(count > 0, side.move_ids.reshape(m, -1)[r, chosen], A.END_TURN)
        closer = known & (count == 0)
        if closer.any():
            d_now = DISTANCE[np.maximum(side.squares, 0), np.maximum(pile, 0)[:, None]].astype(np.int64)
            d_next = DISTANCE[np.maximum(t, 0), np.maximum(pile, 0)[:, None, None]].astype(np.int64)
            score = np.where(side.move_legal & (t >= 0) & (d_next < d_now[:, :, None]), 50 - d_next, -BIG)
            score = score.reshape(m, -1)
            best = np.argmax(score, axis=1)
            ok = closer & (score[r, best] > -BIG)
            out = np.where(ok, side.move_ids.reshape(m, -1)[r, best], out)
        return out

    def loose_ball(self, s: State, config, games) -> np.ndarray:
        """A visible loose ball: the move that gets a player onto it soonest."""
        side = side_of(s)
        m = s.batch_size
        r = np.arange(m)
        ball = s.ball_square.astype(np.int64)
        dist = least_cost(sources(m, ball[:, None]), side.empty, 1, 12)
        t = side.targets
        cost = STEP_COST[None, None, :] * qb_mult(s, side.slots)[:, :, None]
        after = gather(dist, t.reshape(m, -1)).reshape(t.shape)
        total = np.where(side.move_legal & (t >= 0) & (cost <= side.points[:, None, None]),
                         2 * (cost + after) + (after > 0), BIG).reshape(m, -1)
        k = np.argmin(total, axis=1)
        return np.where(total[r, k] < BIG, side.move_ids.reshape(m, -1)[r, k], A.END_TURN)

    # Decisions each style makes -------------------------------------------------------------------------------

    def offence_formation(self, s, config, games):
        raise NotImplementedError

    def defence_formation(self, s, config, games):
        raise NotImplementedError

    def kick(self, s, config, games):
        raise NotImplementedError

    def carry(self, s, config, games):
        raise NotImplementedError

    def defend(self, s, config, games):
        raise NotImplementedError


def kick_choice(s: State, config: GameConfig, field_goal: np.ndarray, punt: np.ndarray) -> np.ndarray:
    """The kick-decision action from a style's masks [m] (``field_goal`` wins over ``punt``; neither: play
    on), with the end-of-game rules every style keeps (rule 28): on its final drive a team never punts and
    kicks a field goal only when three points win or tie (on 4th down, or earlier when it is nearly sure).
    The punt target is :func:`punt_rows`."""
    m = s.batch_size
    r = np.arange(m)
    legal = s.legal
    need = points_needed(s, config)
    final = need > 0
    los, _, _ = situation(s)
    fg_chance = field_goal_chances(los, config)
    enough = need <= 4
    last_kick = (s.down == 4) & (fg_chance >= 0.25) | (fg_chance >= 0.9) & (need <= 3)
    field_goal = np.where(final, enough & last_kick, field_goal)
    punt = punt & ~final
    punt_id = A.PUNT_BASE + punt_rows(s, config) - 1
    out = np.full(m, A.PLAY_ON, dtype=np.int64)
    out = np.where(punt & legal[r, punt_id], punt_id, out)
    return np.where(field_goal & legal[:, A.FIELD_GOAL], A.FIELD_GOAL, out)
