"""The Table Football state: a struct of numpy arrays, every field with a leading batch axis.

One game is a batch of one. Teams are 0 (team one) and 1 (team two). Field positions are yards from the
goal line of the team with the ball (``offence``): 0 its own goal line, 100 the other's (ruling 1).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..batch_state import BatchState

from .actions import NUM_ACTIONS

# Phases: who decides what (RULES.md "Phases").
CHOOSE, RECOVERY, OOB_OFFENCE, OOB_DEFENCE, TIMEOUT_OFFENCE, TIMEOUT_DEFENCE, GAME_OVER = range(7)
PHASE_NAMES = ("choose", "recovery", "oob_offence", "oob_defence", "timeout_offence", "timeout_defence",
               "game_over")
NO_PLAY, RUN, KICK, PUNT_PLAY = -1, 0, 1, 2  # last_play codes (the offence's choice of the last down)
DRAW = 2  # winner code of a drawn game (clock version, ruling 15)
OVERTIME = 5  # the quarter number of the sudden-death quarter

# name: (dtype, per-game shape, fill value, meaning)
FIELDS = {
    "phase": (np.int8, (), CHOOSE, "phase, one of PHASE_NAMES"),
    "to_act": (np.int8, (), 0, "team to decide now (0/1); -1 once the game is over"),
    "offence": (np.int8, (), 0, "team with the ball: snaps the next down (in the recovery phase: the team that "
                                "lost it, until it decides)"),
    "snap_offence": (np.int8, (), 0, "team on offence at the snap of the current or last down (the roles of "
                                     "the clock decisions)"),
    "score": (np.int16, (2,), 0, "points of each team"),
    "position": (np.int8, (), 20, "ball: yards from the offence's own goal line, 5-95"),
    "line_to_gain": (np.int8, (), 30, "line to gain, offence's yards (100 = goal to go)"),
    "down": (np.int8, (), 1, "down of the next snap, 1..downs"),
    "opener": (np.int8, (), 0, "team that won the opening coin toss and opened on offence"),
    "quarter": (np.int8, (), 0, "clock: quarter 1-4, 5 = overtime; 0 in the basic game"),
    "boxes": (np.int16, (), 0, "clock: 15-second boxes left in the quarter; 0 in the basic game"),
    "timeouts": (np.int8, (2,), 0, "clock: time-outs left to each team in this half (or overtime)"),
    "pending_cost": (np.int8, (), 0, "clock: box cost of the last result while its decisions are pending, 0 none"),
    "last_play": (np.int8, (), NO_PLAY, "offence's choice of the last down: -1 none, 0 run, 1 field goal, 2 punt"),
    "last_roll": (np.int8, (2,), 0, "dice of the last down's roll (2d6 of a run, [die, 0] of a kick), 0 none"),
    "plays": (np.int32, (), 0, "plays (downs) run in the game"),
    "steps": (np.int32, (), 0, "decisions (agent actions) taken in the game"),
    "winner": (np.int8, (), -1, "winning team, 2 a draw, -1 none (yet, or truncated)"),
    "terminated": (np.bool_, (), False, "the game ended (a win or a draw)"),
    "truncated": (np.bool_, (), False, "the game hit the cap on plays (no winner)"),
    "rng_key": (np.uint64, (), 0, "this game's random stream key"),
    "rng_counter": (np.uint64, (), 0, "draws taken from the stream"),
    "legal": (np.bool_, (NUM_ACTIONS,), False, "legal actions of the team to act (cached mask)"),
}


@dataclass
class State(BatchState):
    """Batch of Table Football games; see FIELDS for every field's dtype, per-game shape and encoding."""

    phase: np.ndarray
    to_act: np.ndarray
    offence: np.ndarray
    snap_offence: np.ndarray
    score: np.ndarray
    position: np.ndarray
    line_to_gain: np.ndarray
    down: np.ndarray
    opener: np.ndarray
    quarter: np.ndarray
    boxes: np.ndarray
    timeouts: np.ndarray
    pending_cost: np.ndarray
    last_play: np.ndarray
    last_roll: np.ndarray
    plays: np.ndarray
    steps: np.ndarray
    winner: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    rng_key: np.ndarray
    rng_counter: np.ndarray
    legal: np.ndarray

    _FIELDS = FIELDS

    @property
    def distance(self) -> np.ndarray:
        """Yards to the line to gain (int [B])."""
        return self.line_to_gain.astype(np.int16) - self.position


TEAM_FIELDS = ("offence", "snap_offence", "opener", "to_act", "winner")  # hold team ids
TEAM_PAIR_FIELDS = ("score", "timeouts")  # one column per team


def mirror_state(state: State) -> State:
    """The same games with the teams' names swapped (team one <-> team two): every observation and legal
    mask of team t in ``state`` equals that of team 1 - t in the mirror (the field is in the offence's
    frame, so nothing else moves)."""
    return state.mirrored(TEAM_FIELDS, TEAM_PAIR_FIELDS)
