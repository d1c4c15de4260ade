"""The pass price the rulebook's confirm dialog shows: dice on each side and the exact chance."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..config import ArgumentTypeError
from .engine import pass_dice
from .rules import LATERAL_DROPS, LATERAL_ROLL, behind_los, throw_kind
from .geometry import N_SLOTS, TAGS
from .odds import completion_chance_exact
from .state import PLAY, State


@dataclass(frozen=True)
class PassPrice:
    """A throw's price. kind: "handoff", "lateral" or "forward pass". For a forward pass, offence_dice
    0 means nobody within 3 squares (caught for sure); chance is the exact completion chance."""

    kind: str
    offence_dice: int
    defence_dice: int
    chance: Fraction

    def __str__(self):
        if self.kind != "forward pass":
            return f"{self.kind}: {float(self.chance):.0%}"
        if self.offence_dice == 0:
            return "forward pass: nobody within 3 squares, always caught"
        return (f"forward pass: you roll {self.offence_dice} against {self.defence_dice}: "
                f"{float(self.chance):.1%}")


def _check_game(state, game) -> int:
    if not isinstance(state, State):
        raise ArgumentTypeError(f"state must be a State (as init returns), got {type(state).__name__}")
    if isinstance(game, (bool, np.bool_)) or not isinstance(game, (int, np.integer)) or not (
            0 <= game < state.batch_size):
        raise ValueError(f"game must be a game index 0..{state.batch_size - 1} (an int), got {game!r}")
    return int(game)


def _check_receiver(receiver) -> int:
    """The slot of ``receiver``: a tag (``"Z"``, any case) or a slot 0..21."""
    if isinstance(receiver, str):
        tag = receiver.strip().upper()
        if tag not in TAGS:
            raise ValueError(f"receiver {receiver!r} is not a tag; tags are {', '.join(TAGS)}")
        return TAGS.index(tag)
    if isinstance(receiver, (bool, np.bool_)) or not isinstance(receiver, (int, np.integer)) or not (
            0 <= receiver < N_SLOTS):
        raise ValueError(f"receiver must be a tag (QB .. SS) or a slot 0..{N_SLOTS - 1}, got {receiver!r}")
    return int(receiver)


def pass_price(state: State, receiver: str | int, game: int = 0) -> PassPrice:
    """Price of a throw from the ball carrier of game ``game`` to ``receiver`` (a tag or slot), in play
    with the carrier's team to act. Raises ValueError for a bad game index or receiver, or when there is no
    such throw to price (no carrier, the other team to act, the receiver not a teammate on the field)."""
    game = _check_game(state, game)
    slot = _check_receiver(receiver)
    g = np.array([game])
    holder = int(state.ball_holder[game])
    team = int(state.to_act[game])
    if state.phase[game] != PLAY or holder < 0 or holder == slot:
        raise ValueError(f"game {game} has no ball carrier who could throw to {TAGS[slot]}")
    offence = int(state.offence[game])
    carrier_team = offence if holder < 11 else 1 - offence  # slots 0-10 are the offence's
    if carrier_team != team or (slot < 11) != (holder < 11) or state.player_square[game, slot] < 0:
        raise ValueError(f"game {game}: {TAGS[slot]} is not a teammate of the ball carrier {TAGS[holder]} "
                         "on the field, with their team to act")
    teams = np.array([team], dtype=np.int64)
    kind = int(throw_kind(state, g, teams, state.ball_square[g].astype(np.int64),
                           state.player_square[g, slot].astype(np.int64))[0])
    if kind == 0:
        return PassPrice("handoff", 0, 0, Fraction(1))
    if kind == 1:
        behind = bool(behind_los(state, g, teams, state.ball_square[g].astype(np.int64))[0])
        return PassPrice("lateral", 0, 0, Fraction(LATERAL_ROLL - LATERAL_DROPS[behind], LATERAL_ROLL))
    off, dfn = pass_dice(state, g, np.array([slot]))
    return PassPrice("forward pass", int(off[0]), int(dfn[0]), completion_chance_exact(int(off[0]), int(dfn[0])))
