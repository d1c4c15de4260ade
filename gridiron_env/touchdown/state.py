"""The Touchdown state: a struct of numpy arrays, every field with a leading batch axis (one game = a batch
of one). Teams are 0 (team one) and 1 (team two).

The board (ruling 1) is ``config.lanes`` lanes by ``config.rows`` rows. Squares are stored in **absolute**
coordinates: ``lane`` 0..lanes-1 (0-based, left to right as team one sees the board) and ``row``
0..rows-1, row 0 team one's end line; team one attacks toward higher rows. A team's own row numbers (the
rulings' "frame") run from its own goal line: team one's row r is absolute r + 1, team two's row r is
absolute rows - 2 - r (``to_frame`` / ``from_frame``), so rows 1..30 are the field, 0 and -1 the team's
own end zone, 31 and 32 the opponent's.

Pieces: 14 **slots**. Slots 0-6 belong to ``offence`` (the team that snapped the play in progress, or that
has the series between plays), slots 7-13 to the other team; within a side slot k (0-6) is ``SLOT_NAMES``
(the action names call it "piece k+1"). Types follow the slot: ``SLOT_TYPE`` (rulings 3, 4), so a piece
keeps its type for the play whoever gains the ball. Between plays (the ``offence call``, ``defence call``
and ``kick choice`` phases) no piece is on the board: lanes and rows are -1.

How to read game g:

- phase ``phase[g]`` (``PHASE_NAMES``), the team to decide ``to_act[g]`` (-1 once over).
- series: ``offence`` has the ball's series (and slots 0-6); ``down`` 1 or 2; ``los`` the LOS row and
  ``to_gain`` the line to gain, both in the offence's frame; ``los_lane`` the snap lane (hash band).
- in a play: ``poss`` the team with the ball (its holder's team, or the last holder's while loose),
  ``holder`` the slot holding it (-1 loose) and ``ball_lane``/``ball_row`` its square (absolute; the
  holder's square when held); ``loose_lateral`` a loose ball from a missed lateral (ruling 23);
  ``entered_by`` the team whose action put the ball into the end zone it stands in (-1 outside one:
  ruling 15's safety / touchback); ``limits`` the scrimmage limits still hold (ruling 7);
  ``forward_thrown`` a forward pass was thrown.
- the turn: ``active`` the slot moving now (-1 none), ``steps_left`` its remaining squares, ``parts`` the
  parts of the accomplished move done (pieces started and passes, 0-2), ``moved`` bitmask of slots moved
  this turn, ``turns`` turns of the play taken, ``idle`` consecutive turns in which the side did nothing.
- a pass awaiting the defence's interception choice: ``pass_from``/``pass_to`` slots, ``pass_forward``,
  ``pass_close`` (close marked when placed).
- a kick awaiting the receiver's choice: ``kick_kind`` (0 kick-off, 1 punt), ``kick_row`` (receiver's
  frame), ``kick_lane``; the receiver is ``to_act``.
- the clock: ``quarter`` (1..quarters; quarters+1 the overtime), ``scrimmage`` scrimmages played in the
  current quarter, ``scrimmages`` in the game, ``opening_kicker`` the team that kicked off to open the
  current quarter.
- the last chance event: ``event`` (``EVENT_NAMES``), ``dice`` (up to three dice, 0 none).
- the board it is played on: ``board`` (lanes, field rows, first and last lane of the hash band, 1-based:
  the config's, set by ``init`` and ``from_diagram``; all 0 in a bare ``State.empty``, read as the default
  board), so that a picture or a diagram of the state needs no config (``board_config``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..batch_state import BatchState
from .actions import NUM_ACTIONS
from .config import TouchdownConfig

OFFENCE_CALL, DEFENCE_CALL, PLAY, INTERCEPTION, KICK_CHOICE, GAME_OVER = range(6)
PHASE_NAMES = ("offence call", "defence call", "play", "interception", "kick choice", "game over")

SINGLE, DOUBLE, TRIPLE, QB = range(4)
TYPE_NAMES = ("single", "double", "triple", "quarterback")
ALLOWANCE = (1, 2, 3, 3)  # squares per move (ruling 4)
STRENGTH = (3, 2, 1, 1)  # blocking strength: Single > Double > Triple = QB (ruling 4)
OFFENCE_TYPES = (SINGLE, SINGLE, SINGLE, DOUBLE, DOUBLE, TRIPLE, QB)
DEFENCE_TYPES = (SINGLE, SINGLE, SINGLE, DOUBLE, DOUBLE, TRIPLE, TRIPLE)
SLOT_TYPE = OFFENCE_TYPES + DEFENCE_TYPES  # by global slot 0-13
N_PIECES = 14
INTERIOR = (0, 1, 2)  # offence slots of the interior line (ruling 3)
CENTRE, QB_SLOT = 1, 6
OFFENCE_SLOT_NAMES = ("left guard", "centre", "right guard", "end", "back", "receiver", "quarterback")
DEFENCE_SLOT_NAMES = ("left lineman", "middle lineman", "right lineman", "left linebacker", "right linebacker",
                      "left back", "right back")
SLOT_NAMES = OFFENCE_SLOT_NAMES + DEFENCE_SLOT_NAMES

KICK_OFF, PUNT = 0, 1
EVENT_NAMES = ("none", "kick-off", "return", "punt", "snap", "missed snap", "tackle", "missed tackle", "fumble",
               "complete", "incomplete", "interception", "missed interception", "knocked away", "missed lateral",
               "touchdown", "conversion good", "conversion missed", "safety", "touchback", "field goal good",
               "field goal missed", "out of bounds", "dead ball", "recovery", "turnover")
EV = {name: i for i, name in enumerate(EVENT_NAMES)}
DRAW = 2  # the protocol's draw code (a tie after the last scrimmage)

# name: (dtype, per-game shape, fill value, meaning)
FIELDS = {
    "phase": (np.int8, (), OFFENCE_CALL, "pending decision, one of PHASE_NAMES"),
    "to_act": (np.int8, (), 0, "team to decide now (0/1); -1 once the game is over"),
    "offence": (np.int8, (), 0, "team with the series; owns slots 0-6 (the snapping team in a play)"),
    "poss": (np.int8, (), 0, "team with the ball in a play (its holder's, or the last holder's while loose)"),
    "score": (np.int16, (2,), 0, "points of team one, team two"),
    "quarter": (np.int8, (), 1, "quarter 1..quarters; quarters+1 is the overtime"),
    "scrimmage": (np.int16, (), 0, "scrimmages played in the current quarter (or overtime)"),
    "scrimmages": (np.int16, (), 0, "scrimmages played in the game"),
    "opening_kicker": (np.int8, (), 0, "team that kicked off to open the current quarter"),
    "down": (np.int8, (), 1, "play of the series, 1 or 2 (ruling 13)"),
    "los": (np.int8, (), 1, "line of scrimmage, the offence's row 1..field_rows"),
    "to_gain": (np.int8, (), 11, "line to gain, the offence's row (may lie past the goal line)"),
    "los_lane": (np.int8, (), 6, "the ball's lane at the snap (in the hash band)"),
    "lane": (np.int8, (N_PIECES,), -1, "each slot's lane (absolute, 0-based); -1 off the board (between plays)"),
    "row": (np.int8, (N_PIECES,), -1, "each slot's row (absolute, 0 = team one's end line); -1 off the board"),
    "marked": (np.bool_, (N_PIECES,), False, "each slot carries a missed-tackle marker (ruling 12)"),
    "holder": (np.int8, (), -1, "slot holding the ball, -1 loose (or between plays)"),
    "ball_lane": (np.int8, (), 6, "ball's lane (absolute); between plays the next snap's lane"),
    "ball_row": (np.int8, (), 0, "ball's row (absolute); between plays the LOS"),
    "loose_lateral": (np.bool_, (), False, "the loose ball comes from a missed lateral (ruling 23)"),
    "entered_by": (np.int8, (), -1, "team that put the ball into the end zone it is in, -1 outside one"),
    "limits": (np.bool_, (), True, "the scrimmage limits hold (no fumble, missed lateral or turnover yet)"),
    "forward_thrown": (np.bool_, (), False, "a forward pass was thrown in this play"),
    "active": (np.int8, (), -1, "slot moving now, -1 none"),
    "steps_left": (np.int8, (), 0, "squares left in the active slot's move"),
    "parts": (np.int8, (), 0, "parts of the accomplished move done this turn (pieces started, passes)"),
    "moved": (np.int16, (), 0, "bitmask of slots that moved this turn"),
    "turns": (np.int16, (), 0, "turns taken in this play"),
    "idle": (np.int8, (), 0, "consecutive turns in which the side to act did nothing"),
    "pass_from": (np.int8, (), -1, "interception phase: the passer's slot"),
    "pass_to": (np.int8, (), -1, "interception phase: the intended receiver's slot"),
    "pass_forward": (np.bool_, (), False, "interception phase: a forward pass"),
    "pass_close": (np.bool_, (), False, "interception phase: the receiver was close marked"),
    "kick_kind": (np.int8, (), -1, "kick choice: 0 kick-off, 1 punt; -1 none"),
    "kick_row": (np.int8, (), 0, "kick choice: the ball's row in the receiver's frame (32 past it: end line)"),
    "kick_lane": (np.int8, (), 6, "kick choice: the ball's lane"),
    "offence_formation": (np.int8, (), -1, "formation of the play (index into formations.OFFENCE), -1 none"),
    "defence_formation": (np.int8, (), -1, "formation of the play (formations.DEFENCE), -1 none"),
    "event": (np.int8, (), 0, "last chance event, one of EVENT_NAMES"),
    "dice": (np.int8, (3,), 0, "faces of the last roll's dice, 0 unused"),
    "steps": (np.int32, (), 0, "actions taken in the game"),
    "winner": (np.int8, (), -1, "winning team, 2 a draw, -1 none (yet, or truncated)"),
    "terminated": (np.bool_, (), False, "the game ended with a result"),
    "truncated": (np.bool_, (), False, "the game hit the cap on actions (no result)"),
    "rng_key": (np.uint64, (), 0, "this game's random stream key"),
    "rng_counter": (np.uint64, (), 0, "draws taken from the stream"),
    "legal": (np.bool_, (NUM_ACTIONS,), False, "legal actions of the team to act (cached mask)"),
    "board": (np.int8, (4,), 0, "the board: lanes, field rows, hash band first and last lane (1-based); 0s unknown"),
}
TEAM_FIELDS = ("to_act", "offence", "poss", "opening_kicker", "entered_by", "winner")


@dataclass
class State(BatchState):
    """Batch of Touchdown games; see FIELDS (and the module doc) for every field's encoding."""

    phase: np.ndarray
    to_act: np.ndarray
    offence: np.ndarray
    poss: np.ndarray
    score: np.ndarray
    quarter: np.ndarray
    scrimmage: np.ndarray
    scrimmages: np.ndarray
    opening_kicker: np.ndarray
    down: np.ndarray
    los: np.ndarray
    to_gain: np.ndarray
    los_lane: np.ndarray
    lane: np.ndarray
    row: np.ndarray
    marked: np.ndarray
    holder: np.ndarray
    ball_lane: np.ndarray
    ball_row: np.ndarray
    loose_lateral: np.ndarray
    entered_by: np.ndarray
    limits: np.ndarray
    forward_thrown: np.ndarray
    active: np.ndarray
    steps_left: np.ndarray
    parts: np.ndarray
    moved: np.ndarray
    turns: np.ndarray
    idle: np.ndarray
    pass_from: np.ndarray
    pass_to: np.ndarray
    pass_forward: np.ndarray
    pass_close: np.ndarray
    kick_kind: np.ndarray
    kick_row: np.ndarray
    kick_lane: np.ndarray
    offence_formation: np.ndarray
    defence_formation: np.ndarray
    event: np.ndarray
    dice: np.ndarray
    steps: np.ndarray
    winner: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    rng_key: np.ndarray
    rng_counter: np.ndarray
    legal: np.ndarray
    board: np.ndarray

    _FIELDS = FIELDS

    def is_over(self) -> np.ndarray:
        return self.terminated | self.truncated

    @property
    def defence(self) -> np.ndarray:
        """The team without the series (owner of slots 7-13), int8 [B]."""
        return (1 - self.offence).astype(np.int8)


def board_of(config: TouchdownConfig) -> tuple:
    """The ``board`` field's value for a config: (lanes, field rows, hash band first, last)."""
    return (config.lanes, config.field_rows) + tuple(config.hash_band)


def board_config(state: State, game: int = 0, config: TouchdownConfig | None = None) -> TouchdownConfig:
    """The config to draw game ``game`` of ``state`` with: ``config`` when given, else a default config on
    the state's own board (its ``board`` field; the default board when that is unset)."""
    if config is not None:
        return config
    lanes, field_rows, first, last = (int(v) for v in state.board[int(game)])
    if lanes == 0:
        return TouchdownConfig()
    return TouchdownConfig(lanes=lanes, field_rows=field_rows, hash_band=(first, last))


def slot_team(state: State) -> np.ndarray:
    """int8 [B, 14]: the team of each slot."""
    off = state.offence[:, None]
    side = np.arange(N_PIECES) >= 7
    return np.where(side, 1 - off, off).astype(np.int8)


def to_frame(team, row, rows: int):
    """A team's own row number (its goal line between its rows 0 and 1) of absolute row ``row``."""
    team = np.asarray(team)
    row = np.asarray(row)
    return np.where(team == 0, row - 1, rows - 2 - row)


def from_frame(team, frame_row, rows: int):
    """The absolute row of a team's own row number ``frame_row``."""
    team = np.asarray(team)
    frame_row = np.asarray(frame_row)
    return np.where(team == 0, frame_row + 1, rows - 2 - frame_row)
