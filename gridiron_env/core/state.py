"""The game state: a struct of numpy arrays, every field with a leading batch axis.

One game is a batch of one. Teams are 0 (team one) and 1 (team two). Player slots 0-10 belong to the
team on offence at the snap (``offence``), slots 11-21 to the team on defence; tags in
:mod:`gridiron_env.core.geometry`. Squares are ``row * 18 + lane`` (0-based, absolute frame), -1 = none.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from .actions import NUM_ACTIONS
from .geometry import N_LANES, N_LINEMEN, N_ROWS, N_SLOTS, N_SQUARES

# Phases of a game.
SPECIALS_PICK, OFFENCE_FORMATION, DEFENCE_FORMATION, KICK_DECISION, PLAY, SCRAMBLE, GAME_OVER = range(7)
PHASE_NAMES = ("specials", "offence_formation", "defence_formation", "kick_decision", "play", "scramble",
               "game_over")

# name: (dtype, per-game shape, fill value, meaning)
FIELDS = {
    "phase": (np.int8, (), OFFENCE_FORMATION, "phase of the game, one of PHASE_NAMES"),
    "to_act": (np.int8, (), 0, "team to act (0/1); -1 once the game is over"),
    "offence": (np.int8, (), 0, "team with the ball at the snap of this down: owns slots 0-10"),
    "player_square": (np.int16, (N_SLOTS,), -1, "square of each slot, -1 when not on the field"),
    "board": (np.int8, (N_SQUARES,), -1, "slot standing on each square, -1 empty (mirror of player_square)"),
    "ball_square": (np.int16, (), -1, "square of the ball: the carrier's square, or where it lies loose"),
    "ball_holder": (np.int8, (), -1, "slot carrying the ball, -1 when loose (or before the snap)"),
    "ball_hidden": (np.bool_, (), False, "the loose ball's square is hidden (blind fumble scramble)"),
    "last_holder_team": (np.int8, (), 0, "team that last carried the ball (who keeps a loose dead ball)"),
    "score": (np.int16, (2,), 0, "points of each team, overtime included"),
    "overtime": (np.bool_, (), False, "the game is in overtime"),
    "overtime_points": (np.int8, (2,), 0, "points each team has scored in overtime"),
    "opener": (np.int8, (), 0, "team that won the opening coin toss and opened on offence"),
    "drives": (np.int16, (2,), 0, "drives (possessions) each team has started"),
    "down": (np.int8, (), 1, "down 1-4"),
    "los_row": (np.int8, (), 0, "row of the line of scrimmage (rows 3-26)"),
    "los_lane": (np.int8, (), 0, "lane of the ball at the snap (inside the hash band)"),
    "line_to_gain": (np.int8, (), 0, "row the offence must reach for a first down (may lie in the end zone)"),
    "points": (np.int8, (2,), 0, "die points each team has to spend now (0-8)"),
    "dice": (np.int8, (2, 2), 0, "last roll: [team, (high, low)] die faces 1-6, 0 before the first roll"),
    "rolls": (np.int8, (), 0, "rolls so far in this down"),
    "formation": (np.int8, (2,), -1, "[offence formation id, defence formation id] of this down, -1 unset"),
    "strong": (np.bool_, (N_LINEMEN,), False, "strong flag of C, LG, RG, LT, RT (slots 1-5)"),
    "special": (np.int8, (2,), -1, "special player of each team (actions.SPECIALS index), -1 none"),
    "forward_pass_used": (np.bool_, (), False, "the forward pass of this play has been thrown"),
    "lead_blocker_used": (np.bool_, (2,), False, "each team's Lead Blocker follow is spent for this play"),
    "follow_square": (np.int16, (), -1, "square just left by a move a Lead Blocker follow may fill, -1 none"),
    "follow_mover": (np.int8, (), -1, "slot that made that move (he cannot follow himself)"),
    "scramble_step": (np.int8, (), 0, "blind steps taken in the current fumble scramble (0 or 1)"),
    "resume_team": (np.int8, (), 0, "team whose turn resumes after a scramble recovery"),
    "winner": (np.int8, (), -1, "winning team, -1 none yet (or truncated)"),
    "terminated": (np.bool_, (), False, "the game ended with a winner"),
    "truncated": (np.bool_, (), False, "the game hit the cap on agent steps (no winner)"),
    "steps": (np.int32, (), 0, "agent actions taken in this game"),
    "rng_key": (np.uint64, (), 0, "this game's random stream key"),
    "rng_counter": (np.uint64, (), 0, "draws taken from the stream"),
    "legal": (np.bool_, (NUM_ACTIONS,), False, "legal actions of the team to act (cached mask)"),
}


@dataclass
class State:
    """Batch of games; see FIELDS for every field's dtype, per-game shape and encoding."""

    phase: np.ndarray
    to_act: np.ndarray
    offence: np.ndarray
    player_square: np.ndarray
    board: np.ndarray
    ball_square: np.ndarray
    ball_holder: np.ndarray
    ball_hidden: np.ndarray
    last_holder_team: np.ndarray
    score: np.ndarray
    overtime: np.ndarray
    overtime_points: np.ndarray
    opener: np.ndarray
    drives: np.ndarray
    down: np.ndarray
    los_row: np.ndarray
    los_lane: np.ndarray
    line_to_gain: np.ndarray
    points: np.ndarray
    dice: np.ndarray
    rolls: np.ndarray
    formation: np.ndarray
    strong: np.ndarray
    special: np.ndarray
    forward_pass_used: np.ndarray
    lead_blocker_used: np.ndarray
    follow_square: np.ndarray
    follow_mover: np.ndarray
    scramble_step: np.ndarray
    resume_team: np.ndarray
    winner: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    steps: np.ndarray
    rng_key: np.ndarray
    rng_counter: np.ndarray
    legal: np.ndarray

    @classmethod
    def empty(cls, batch_size: int) -> "State":
        new = object.__new__(cls)  # as copy() does: no keyword assembly (init runs this for every reset)
        for name, (dtype, shape, fill, _) in FIELDS.items():
            value = np.empty((batch_size,) + shape, dtype=dtype)
            value.fill(fill)
            new.__dict__[name] = value
        return new

    @property
    def batch_size(self) -> int:
        return self.phase.shape[0]

    def __len__(self) -> int:
        return self.batch_size

    def copy(self) -> "State":
        # Every step copies the state: fill the new instance's attributes directly (what the dataclass
        # __init__ would do) rather than through fields() and keyword arguments, a fixed cost per call.
        new = object.__new__(State)
        fields_ = self.__dict__
        new.__dict__.update({name: fields_[name].copy() for name in FIELDS})
        return new

    def is_contiguous(self) -> bool:
        """Every field is one C-contiguous block (as ``empty``, ``copy`` and ``take`` make them)."""
        fields_ = self.__dict__
        return all(fields_[name].flags.c_contiguous for name in FIELDS)

    def take(self, games) -> "State":
        """The sub-batch of the given game indices (a copy)."""
        # fancy indexing copies already: one copy a field, filled as ``copy`` fills them (the adapters take
        # sub-batches every few opponent rounds)
        games = np.atleast_1d(np.asarray(games))
        new = object.__new__(State)
        fields_ = self.__dict__
        new.__dict__.update({name: fields_[name][games] for name in FIELDS})
        return new

    def put(self, games, other: "State") -> None:
        """Write ``other``'s games into the given game indices of this batch, in place."""
        for f in fields(self):
            getattr(self, f.name)[games] = getattr(other, f.name)

    @staticmethod
    def concatenate(states: list["State"]) -> "State":
        return State(**{f.name: np.concatenate([getattr(s, f.name) for s in states]) for f in fields(State)})

    def equals(self, other: "State") -> bool:
        return all(np.array_equal(getattr(self, f.name), getattr(other, f.name)) for f in fields(self))

    @staticmethod
    def bytes_per_game() -> int:
        return sum(np.dtype(dtype).itemsize * int(np.prod(shape)) for dtype, shape, _, _ in FIELDS.values())

    def team_of_slot(self, slot):
        """Team of a slot (per game): slots 0-10 are the offence's."""
        return np.where(np.asarray(slot) < 11, self.offence, 1 - self.offence)


def mirror_state(state: State) -> State:
    """The same position seen after a half turn with the teams swapped (team one <-> team two).

    Team identity is separate from orientation: every observation and legal mask of team t in ``state``
    equals that of team 1 - t in the mirror. Used by symmetry tests and for data augmentation.
    """
    m = state.copy()
    for name in ("offence", "opener", "last_holder_team", "resume_team"):
        setattr(m, name, (1 - getattr(state, name)).astype(getattr(state, name).dtype))
    for name in ("to_act", "winner"):
        value = getattr(state, name)
        setattr(m, name, np.where(value >= 0, 1 - value, value).astype(value.dtype))
    for name in ("score", "overtime_points", "drives", "points", "dice", "special", "lead_blocker_used"):
        setattr(m, name, getattr(state, name)[:, ::-1].copy())
    for name in ("player_square", "ball_square", "follow_square"):
        value = getattr(state, name)
        setattr(m, name, np.where(value >= 0, N_SQUARES - 1 - value, value).astype(value.dtype))
    m.board = state.board[:, ::-1].copy()
    m.los_row = (N_ROWS - 1 - state.los_row).astype(state.los_row.dtype)
    m.los_lane = (N_LANES - 1 - state.los_lane).astype(state.los_lane.dtype)
    m.line_to_gain = (N_ROWS - 1 - state.line_to_gain).astype(state.line_to_gain.dtype)
    return m
