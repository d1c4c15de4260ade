"""The Sports Dice state: a struct of numpy arrays, every field with a leading batch axis.

One game is a batch of one. Teams are 0 (team one) and 1 (team two). How to read a game g:

- possession: ``offence[g]`` has the ball and rolls the offence dice (ruling 3); the other team defends.
- position: ``position[g]``, yards from the offence's own goal line (0 its goal line, 100 the other's),
  a multiple of 5, always 5-95 while the game goes on (100 - position in the defence's frame).
- down: ``down[g]``, 1-4, the down of the next roll of the series.
- target: ``target[g]``, the series target in the offence's yards: 50 (a series that began short of
  midfield, position < 50) or 100 (the end zone; a series that began at 50 or beyond, or any series after
  reaching the 50).
- scores: ``score[g] = [team one's points, team two's points]``.
- chip: ``chip[g]``, the team holding the Power Chip.
- pending decision: ``phase[g]`` (``PHASE_NAMES``) and the team that decides, ``to_act[g]`` (-1 once over).
  In the ``toss`` phase the field holds the opening (25, 1st down, target 50) with ``offence`` the toss
  winner and ``chip`` the other team, as if it chose offence; ``choose defence`` swaps both.
- the last roll: ``roll_kind`` (none / play / punt / field goal), ``roll_offence`` (the team that rolled
  the offence dice then: after a turnover it no longer has the ball), ``dice`` (row 0 the six offence
  dice, row 1 the six defence dice, as symbol codes, -1 before any roll), ``counts`` (dice showing each
  side's most common symbol), ``top`` (bitmask of each side's symbols with that count, bit k = the side's
  k-th symbol), ``chip_call``, ``roll_winner`` and ``play``.

Symbol codes (``SYMBOL_NAMES``): offence 0 ``10``, 1 ``20``, 2 ``field goal``, 3 ``touchdown``; defence
4 ``no gain``, 5 ``sack``, 6 ``turnover``, 7 ``pick six``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..batch_state import BatchState

from .actions import NUM_ACTIONS

# Phases: the decision pending (RULES.md "Phases and actions").
TOSS, SNAP, FOURTH_DOWN, CHIP, OFFENCE_PLAY, DEFENCE_PLAY, FIELD_GOAL_CHOICE, GAME_OVER = range(8)
PHASE_NAMES = ("toss", "snap", "fourth down", "chip", "offence play", "defence play", "field goal choice",
               "game over")
# The dice symbols: offence codes 0-3, defence codes 4-7 (a defence die's local code + 4).
OFFENCE_SYMBOLS = ("10", "20", "field goal", "touchdown")
DEFENCE_SYMBOLS = ("no gain", "sack", "turnover", "pick six")
SYMBOL_NAMES = OFFENCE_SYMBOLS + DEFENCE_SYMBOLS
TEN, TWENTY, FIELD_GOAL_SYMBOL, TOUCHDOWN_SYMBOL, NO_GAIN, SACK, TURNOVER, PICK_SIX = range(8)
SYMBOL_SHORT = ("10", "20", "FG", "TD", "NG", "SK", "TO", "P6")  # diagrams and the text picture
# roll_kind codes
ROLL_NONE, ROLL_PLAY, ROLL_PUNT, ROLL_KICK = -1, 0, 1, 2
# chip_call codes: -1 no tie to call (or a kick), 0 the holder kept it, 1 the holder used it
NO_CALL, KEPT, USED = -1, 0, 1
# roll_winner codes (a side of the dice, not a team): -1 none (yet, or a kick), 0 offence dice, 1 defence dice
OFFENCE_SIDE, DEFENCE_SIDE = 0, 1
DICE = 6  # dice per side
MIDFIELD, END_ZONE = 50, 100  # the two series targets
OWN_25 = 25  # where a possession after a score (or the opening) starts
DRAW = 2  # the protocol's draw code; Sports Dice has no draws (one team scores at a time)

# name: (dtype, per-game shape, fill value, meaning)
FIELDS = {
    "phase": (np.int8, (), TOSS, "pending decision, one of PHASE_NAMES"),
    "to_act": (np.int8, (), 0, "team to decide now (0/1); -1 once the game is over"),
    "offence": (np.int8, (), 0, "team with the ball (rolls the offence dice); in the toss phase the toss winner"),
    "score": (np.int16, (2,), 0, "points of team one, team two"),
    "position": (np.int8, (), OWN_25, "ball: yards from the offence's own goal line, a multiple of 5 in 5-95"),
    "down": (np.int8, (), 1, "down of the next roll, 1-4"),
    "target": (np.int8, (), MIDFIELD, "series target in the offence's yards: 50 (midfield) or 100 (end zone)"),
    "chip": (np.int8, (), 1, "team holding the Power Chip"),
    "toss_winner": (np.int8, (), 0, "team that won the coin toss"),
    "opener": (np.int8, (), -1, "team that started on offence; -1 until the toss winner chooses"),
    "roll_kind": (np.int8, (), ROLL_NONE, "last roll: -1 none, 0 a play, 1 a punt, 2 a field-goal attempt"),
    "roll_offence": (np.int8, (), -1, "team that rolled the offence dice in the last roll, -1 none"),
    "dice": (np.int8, (2, DICE), -1, "last roll's symbols: row 0 offence dice (0-3), row 1 defence dice (4-7)"),
    "counts": (np.int8, (2,), 0, "last roll: dice showing each side's most common symbol (offence, defence)"),
    "top": (np.int8, (2,), 0, "last roll: bitmask of each side's symbols with the top count (bit k: k-th symbol)"),
    "chip_call": (np.int8, (), NO_CALL, "last roll: -1 no tie called, 0 chip kept, 1 chip used"),
    "roll_winner": (np.int8, (), -1, "last roll's winning side: -1 none (pending, or a kick), 0 offence, 1 defence"),
    "play": (np.int8, (), -1, "symbol code (0-7) of the play applied (or pending its choice), -1 none"),
    "rolls": (np.int32, (), 0, "rolls (play rolls, punts, field-goal attempts) in the game"),
    "steps": (np.int32, (), 0, "decisions (agent actions) taken in the game"),
    "winner": (np.int8, (), -1, "winning team, -1 none (yet, or truncated)"),
    "terminated": (np.bool_, (), False, "a team reached the target score"),
    "truncated": (np.bool_, (), False, "the game hit the cap on rolls (no winner)"),
    "rng_key": (np.uint64, (), 0, "this game's random stream key"),
    "rng_counter": (np.uint64, (), 0, "draws taken from the stream"),
    "legal": (np.bool_, (NUM_ACTIONS,), False, "legal actions of the team to act (cached mask)"),
}
TEAM_FIELDS = ("offence", "chip", "toss_winner", "opener", "roll_offence", "to_act", "winner")  # hold team ids


@dataclass
class State(BatchState):
    """Batch of Sports Dice games; see FIELDS (and the module doc) for every field's encoding."""

    phase: np.ndarray
    to_act: np.ndarray
    offence: np.ndarray
    score: np.ndarray
    position: np.ndarray
    down: np.ndarray
    target: np.ndarray
    chip: np.ndarray
    toss_winner: np.ndarray
    opener: np.ndarray
    roll_kind: np.ndarray
    roll_offence: np.ndarray
    dice: np.ndarray
    counts: np.ndarray
    top: np.ndarray
    chip_call: np.ndarray
    roll_winner: np.ndarray
    play: np.ndarray
    rolls: np.ndarray
    steps: np.ndarray
    winner: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    rng_key: np.ndarray
    rng_counter: np.ndarray
    legal: np.ndarray

    _FIELDS = FIELDS

    @property
    def defence(self) -> np.ndarray:
        """The team without the ball (int8 [B])."""
        return (1 - self.offence).astype(np.int8)


def mirror_state(state: State) -> State:
    """The same games with the teams' names swapped (team one <-> team two): every observation and legal
    mask of team t in ``state`` equals that of team 1 - t in the mirror (the field is in the offence's
    frame, so nothing else moves)."""
    return state.mirrored(TEAM_FIELDS, ("score",))
