"""The rules both step paths share: the tables and the small functions of the rulebook that the batched
engine (``engine.py``, ``legal.py``) and the lone-game path (``lone.py``) read, so each rule's numbers live
in one place. Everything here is numpy over a batch (``idx``: game indices) or a precomputed table; the
lone path reads the tables as Python values.

Public for the agents and tools too: the move and gap costs (rule 13, 17), the kind of a throw (rule 18),
the field-goal target and distance by the line of scrimmage (rule 21), the kick choices (rule 9).
"""

from __future__ import annotations

import threading

import numpy as np

from ..config import DEFAULT_CONFIG, ArgumentTypeError, GameConfig
from . import actions as A
from .geometry import (
    DIAGONAL, DISTANCE, END_ZONE_DEPTH, FIRST_FIELD_ROW, FORWARD_DIRECTIONS, FRAME_ROW, KICKOFF_SQUARE,
    N_DIRECTIONS, N_LANES, N_ROWS, N_SQUARES, NEIGHBOUR, QB, SCORING_END_ZONE, SQUARE_LANE, SQUARE_ROW,
)
from .odds import field_goal_chance, field_goal_target, paper_field_goal_chance
from .state import State


class StepContext(threading.local):
    """The config and chance source of the engine call in progress (set by ``step``, ``init`` and
    ``recompute_legal``), read by the rule functions rather than passed down through every one. One pair
    per thread: two threads stepping their own batches, with other configs, never see each other's."""

    config: GameConfig | None = None
    chance = None


STEP = StepContext()


class IllegalActionError(ValueError):
    """An action that is not legal for the team to act. Nothing in the batch was changed."""

    def __init__(self, message, game=None, action=None, legal_actions=()):
        super().__init__(message)
        self.game = game
        self.action = action
        self.legal_actions = tuple(legal_actions)


# --- precomputed tables --------------------------------------------------------------------------------

GAME_SLOTS = np.arange(11)
DIRS = np.arange(N_DIRECTIONS)
MOVE_COST = np.where(DIAGONAL, 2, 1).astype(np.int16)  # rule 13
ALL_KICKOFF = np.array(KICKOFF_SQUARE, dtype=np.int16)
LINEMAN_SLOT = np.zeros(22, dtype=bool)
LINEMAN_SLOT[1:6] = True
FORWARD = np.array(FORWARD_DIRECTIONS)


def _ray_table():
    """RAY[team, square, direction, k] = square k+1 steps away in that team's frame, -1 off the grid."""
    ray = np.full((2, N_SQUARES, N_DIRECTIONS, N_ROWS), -1, dtype=np.int16)
    cur = np.broadcast_to(np.arange(N_SQUARES)[None, :, None], (2, N_SQUARES, N_DIRECTIONS)).astype(np.int64)
    for k in range(N_ROWS):
        nxt = np.where(cur >= 0, NEIGHBOUR[np.arange(2)[:, None, None], np.maximum(cur, 0), DIRS], -1)
        ray[..., k] = nxt
        cur = nxt
    return ray


RAY = _ray_table()
DISTANCE_FLAT = DISTANCE.reshape(-1)
NEIGHBOUR_FLAT = NEIGHBOUR.reshape(-1)  # [(team * N_SQUARES + square) * N_DIRECTIONS + direction]

# Field-goal 3-dice target by the LOS row in the offence's frame (rule 21); 99 = out of range.
FIELD_GOAL_TARGET_BY_ROW = np.array(
    [99 if r < FIRST_FIELD_ROW else (field_goal_target(4 * (r - END_ZONE_DEPTH + 1) + 17) or 99)
     for r in range(N_ROWS)], dtype=np.int64)


def field_goal_distance_for_row(frame_row):
    """Yards of a field goal from an LOS ``frame_row`` (offence frame, rows counted from its goal end)."""
    return 4 * (np.asarray(frame_row) - END_ZONE_DEPTH + 1) + 17


# --- argument checks -------------------------------------------------------------------------------------

def check_config(config) -> GameConfig:
    """The config of a call: None gives the defaults; anything but a GameConfig is refused."""
    if config is None:
        return DEFAULT_CONFIG
    if not isinstance(config, GameConfig):
        raise ArgumentTypeError(f"config must be a GameConfig or None, got {config!r} ({type(config).__name__}); "
                                "a dict of settings becomes one with GameConfig.from_dict")
    return config


def check_state(state) -> None:
    if not isinstance(state, State):
        raise ArgumentTypeError(f"state must be a State (as init returns), got {type(state).__name__}")


def check_chance(chance) -> None:
    if chance is not None and not callable(getattr(chance, "draw", None)):
        raise ArgumentTypeError(f"chance must be None or a chance source with a draw() method "
                                f"(CounterChance, ScriptedChance), got {type(chance).__name__}")


# --- small helpers -------------------------------------------------------------------------------------

def slot_base(s: State, idx, team):
    """First slot of ``team`` in each game: 0 if it is the offence, else 11."""
    return np.where(s.offence[idx] == team, 0, 11)


def team_of(s: State, idx, slot):
    """The team of ``slot`` in each game ``idx``: slots 0-10 are the offence's, 11-21 the defence's."""
    return np.where(slot < 11, s.offence[idx], 1 - s.offence[idx])


def speedy_qb(s: State, idx):
    """bool: the offence of each game ``idx`` took Speedy QB (rule 24)."""
    return s.special.reshape(-1).take(idx * 2 + s.offence[idx]) == A.SPEEDY_QB  # flat take: no 2-d index


def qb_factor(s: State, idx, slot, speedy=None):
    """The quarterback pays double unless his team has Speedy QB (rule 13). ``speedy``: speedy_qb, when
    the caller has it already."""
    qb = slot == QB
    if speedy is None:
        if not qb.any():  # no quarterback among them: nobody pays double, and no need to look up specials
            return np.ones(qb.shape, dtype=np.int64)
        speedy = speedy_qb(s, idx)
    return np.where(qb & ~speedy, 2, 1)


def batch_rows(s: State, idx):
    """``idx`` as an index for whole-batch arrays: a plain slice when it is every game (callers pass
    sorted unique game indices), which spares numpy a gather or scatter of whole rows."""
    return slice(None) if idx.size == s.phase.shape[0] else idx


def frame_los(s, idx):
    """The LOS row of each game ``idx`` in its offence's frame (rows counted from the end the offence
    attacks)."""
    return FRAME_ROW[s.offence[idx], s.los_row[idx].astype(np.int64) * N_LANES]


def behind_los(s: State, idx, team, square):
    """bool: ``square`` (absolute) is behind the LOS row from ``team``'s side in each game ``idx``: where a
    forward pass may be thrown from, and where a lateral is caught 99 in 100 (rule 18)."""
    return FRAME_ROW[team, square] > FRAME_ROW[team, s.los_row[idx].astype(np.intp) * N_LANES]


def kick_available(s, idx):
    """(field goal in range, punt allowed) for each game (rule 9)."""
    return field_goal_in_range(frame_los(s, idx)), s.down[idx] == 4


def gap_cost_per_square(s, idx, carrier, speedy=None):
    """Die points a square of a gap run costs the ``carrier`` of each game ``idx``: 2, or 3 for a
    quarterback without Speedy QB (rule 17; a gap run is 2 squares). ``speedy``: speedy_qb, when known."""
    return qb_factor(s, idx, carrier, speedy) + 1


def _throw_kind_table():
    """THROW_KIND[team, thrower + 1, receiver + 1]: 0 handoff, 1 lateral, 2 forward pass (rule 18).

    Squares are shifted by one so that -1 (numpy's last square, as the row and distance tables read it)
    has a row of its own; one gather then replaces two table lookups and their arithmetic.
    """
    sq = np.arange(-1, N_SQUARES)
    forward = FRAME_ROW[:, sq][:, None, :] < FRAME_ROW[:, sq][:, :, None]
    adjacent = DISTANCE[sq[:, None], sq[None, :]] == 1
    return np.where(forward, 2, np.where(adjacent, 0, 1)[None]).astype(np.int8).reshape(-1)


THROW_KIND = _throw_kind_table()


def _gap_beyond_table():
    """GAP_BEYOND[team, carrier + 1, lineman + 1]: the square a gap run past that lineman lands on (rule
    17), -1 unless the lineman stands just ahead of the carrier (straight or diagonal, in the team's
    forward direction) with that square on the grid. Squares shifted by one as in THROW_KIND."""
    sq = np.arange(-1, N_SQUARES)
    row, lane = SQUARE_ROW[sq], SQUARE_LANE[sq]
    d_row = row[None, :] - row[:, None]  # [carrier, lineman]
    d_lane = lane[None, :] - lane[:, None]
    beyond_row, beyond_lane = row[None, :] + d_row, lane[None, :] + d_lane
    on = (beyond_row >= 0) & (beyond_row < N_ROWS) & (beyond_lane >= 0) & (beyond_lane < N_LANES)
    table = np.full((2,) + d_row.shape, -1, dtype=np.int16)
    for team, forward in ((0, -1), (1, 1)):
        ok = on & (d_row == forward) & (np.abs(d_lane) <= 1)
        table[team][ok] = (beyond_row * N_LANES + beyond_lane)[ok]
    return table.reshape(-1)


GAP_BEYOND = _gap_beyond_table()


def throw_kind(s, idx, team, thrower_square, receiver_square):
    """0 handoff, 1 lateral, 2 forward pass (rule 18)."""
    row = (np.asarray(team) * (N_SQUARES + 1) + thrower_square + 1) * (N_SQUARES + 1)
    return THROW_KIND.take(row + receiver_square + 1)


# A new down clears the field (RULES.md "Downs"): these State fields take these values in the games
# starting one; the ball is then placed at the line of scrimmage and the offence picks its formation.
FIELD_CLEARED_FOR_A_DOWN = (
    ("board", -1), ("player_square", -1), ("ball_holder", -1), ("ball_hidden", False), ("points", 0),
    ("rolls", 0), ("formation", -1), ("strong", False), ("forward_pass_used", False),
    ("lead_blocker_used", False), ("follow_square", -1), ("follow_mover", -1), ("scramble_step", 0),
)

MAX_OFFENCE_DICE = 7
# offence dice by the nearest defender's distance to the receiver: 1, 3 or 6 within 3 squares, else none
PASS_OFFENCE_DICE = np.zeros(N_ROWS + 1, dtype=np.int64)
PASS_OFFENCE_DICE[1:4] = (1, 3, 6)
MAX_DEFENCE_DICE = 36
# defence dice each defender adds by his distance to the receiver: 2 beside him, 1 within 3 squares (the
# distance 0 entry, never met on the field, keeps the formula's value)
PASS_DEFENCE_DICE = np.zeros(N_ROWS + 1, dtype=np.int64)
PASS_DEFENCE_DICE[:4] = (1, 2, 1, 1)


CONTEST_ROUND = MAX_OFFENCE_DICE + MAX_DEFENCE_DICE  # stream draws one round of the contest takes
CONTEST_ROUNDS = 3  # rounds drawn at once from counter streams (a tie in all of them is rare)

# CARRIER_TD[TD_ROW[offence * 23 + ball holder + 1] + ball square]: the ball is carried and stands in
# the end zone the carrier's team attacks (his team is the offence for slots 0-10). One gather from the
# game's fields instead of working out the carrier's team first. Rows hold square -1 first (never a
# touchdown), so TD_ROW points one past each row's start.
TD_ROW = np.arange(2 * 23, dtype=np.intp) * (N_SQUARES + 1) + 1
CARRIER_TD = np.zeros((2, 23, N_SQUARES + 1), dtype=bool)
CARRIER_TD[0, 1:12, 1:] = SCORING_END_ZONE[0]
CARRIER_TD[0, 12:, 1:] = SCORING_END_ZONE[1]
CARRIER_TD[1, 1:12, 1:] = SCORING_END_ZONE[1]
CARRIER_TD[1, 12:, 1:] = SCORING_END_ZONE[0]
CARRIER_TD = CARRIER_TD.reshape(-1)

# game allows laterals, a forward pass (2) when it allows one and the receiver is no interior lineman (rule
# 18). A forward pass is only ever allowed to the offence, whose receivers k are slots k, so the lineman
# flag goes by position in the side (LINEMAN_RECEIVER).
THROW_OK = np.zeros((4, 3, 2), dtype=bool)
THROW_OK[:, 0] = True
THROW_OK[[1, 3], 1] = True
THROW_OK[[2, 3], 2, 0] = True
THROW_OK = THROW_OK.reshape(-1)
LINEMAN_RECEIVER = LINEMAN_SLOT[:11].astype(np.intp)
PUSH_STEP_COST = MOVE_COST[FORWARD][None, :]  # a push's step cost in each forward direction


def move_cost(s: State, idx, slot, direction):
    """Die points of a step by ``slot`` in ``direction`` (team frame) in each game ``idx``: 1 straight, 2
    diagonal, doubled for a quarterback without Speedy QB (rule 13). A tackle costs the step; a swap through
    a weak lineman costs 2 whatever the direction (rule 14)."""
    return MOVE_COST[direction] * qb_factor(s, idx, slot)


def field_goal_in_range(frame_row):
    """bool: a field goal may be tried from an LOS ``frame_row`` (offence frame) (rules 9, 21)."""
    return FIELD_GOAL_TARGET_BY_ROW[frame_row] < 99


def gap_cost(s: State, idx, carrier):
    """Die points of a whole gap run (2 squares) by the ``carrier`` of each game ``idx`` (rule 17)."""
    return 2 * gap_cost_per_square(s, idx, carrier)


# Receivers of a forward pass by position in their side (slots k and 11 + k): the interior linemen (1-5)
# are not eligible (rule 18).
ELIGIBLE_RECEIVER = ~LINEMAN_SLOT[:11]


def eligible_receiver(side_slot):
    """bool: a player at position ``side_slot`` (0-10 within his side) may catch a forward pass (rule 18)."""
    return ELIGIBLE_RECEIVER[side_slot]


# A lateral is dropped on a roll of 0..LATERAL_DROPS[behind] - 1 of LATERAL_ROLL: 1 in 100 from behind the
# LOS row, 5 in 100 past it (rule 18).
LATERAL_ROLL = 100
LATERAL_DROPS = (5, 1)  # [thrown from behind the LOS row]

# An incomplete forward pass is picked off 1 in INTERCEPTION_ONE_IN[defence has Ball Hawk] (rule 20).
INTERCEPTION_ONE_IN = (15, 10)

_FIELD_GOAL_CHANCES = {}  # (kick_mode, paper_answer_chance) -> float [N_ROWS]


def field_goal_chance_for_row(frame_row, config: GameConfig | None = None):
    """float (an array for an array): the chance a field goal tried from an LOS ``frame_row`` (offence
    frame) is good under ``config``'s kick mode (rule 21); 0 where no field goal may be tried."""
    config = check_config(config)
    key = (config.kick_mode, config.paper_answer_chance)
    table = _FIELD_GOAL_CHANCES.get(key)
    if table is None:
        distance = field_goal_distance_for_row(np.arange(N_ROWS))
        table = np.array([0.0 if FIELD_GOAL_TARGET_BY_ROW[r] == 99 else
                          field_goal_chance(int(distance[r])) if config.kick_mode == "dice" else
                          paper_field_goal_chance(int(distance[r]), config.paper_answer_chance)
                          for r in range(N_ROWS)])
        table.flags.writeable = False
        table = _FIELD_GOAL_CHANCES[key] = table
    return table[frame_row]


def paper_reach(total):
    """Yards a paper-football kick reaches for a 3d6 ``total``: 8 + 4 * total, 20 to 80 (rule 21)."""
    return 8 + 4 * total
