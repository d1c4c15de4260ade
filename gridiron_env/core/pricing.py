"""The pass price the rulebook's confirm dialog shows: dice on each side and the exact chance."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .engine import _throw_kind, pass_dice
from .geometry import FRAME_ROW, N_LANES, TAGS
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


def pass_price(state: State, receiver: str | int, game: int = 0) -> PassPrice:
    """Price of a throw from the ball carrier of game ``game`` to ``receiver`` (a tag or slot)."""
    slot = TAGS.index(receiver) if isinstance(receiver, str) else int(receiver)
    g = np.array([game])
    holder = int(state.ball_holder[game])
    if state.phase[game] != PLAY or holder < 0 or holder == slot:
        raise ValueError(f"game {game} has no ball carrier who could throw to {TAGS[slot]}")
    team = state.to_act[g].astype(np.int64)
    kind = int(_throw_kind(state, g, team, state.ball_square[g].astype(np.int64),
                           state.player_square[g, slot].astype(np.int64))[0])
    if kind == 0:
        return PassPrice("handoff", 0, 0, Fraction(1))
    if kind == 1:
        behind = FRAME_ROW[team[0], int(state.ball_square[game])] > FRAME_ROW[team[0], int(state.los_row[game]) * N_LANES]
        return PassPrice("lateral", 0, 0, Fraction(99, 100) if behind else Fraction(19, 20))
    off, dfn = pass_dice(state, g, np.array([slot]))
    return PassPrice("forward pass", int(off[0]), int(dfn[0]), completion_chance_exact(int(off[0]), int(dfn[0])))
