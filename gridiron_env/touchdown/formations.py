"""The formations (ruling 8): where each slot stands relative to the ball at the LOS, in the offence's frame.

An offset is ``(lane, row)``: ``lane`` to the offence's right (+) or left (-) of the ball's lane, ``row``
toward the defence's goal (+) or the offence's own (-) from the LOS row. Slots as in ``state.SLOT_NAMES``:
offence 1-3 the interior line (left guard, centre, right guard) side by side on the LOS, the centre on the
ball, 4 the end (a Double), 5 the back (a Double), 6 the receiver (a Triple), 7 the QB directly behind the
centre; defence 1-3 the linemen (Singles), 4-5 the linebackers (Doubles), 6-7 the backs (Triples).
RULES.md draws every formation; ``tests/test_touchdown_rules.py`` checks that every pair is legal at every
hash lane and LOS row (the engine moves a piece that would stand off the board toward the LOS).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Formation:
    name: str
    offsets: tuple  # seven (lane, row) pairs, slot order
    note: str = ""


_LINE = ((-1, 0), (0, 0), (1, 0))  # the interior line: left guard, centre, right guard
_QB = (0, -1)

OFFENCE = (
    Formation("pro set", _LINE + ((2, 0), (0, -2), (-5, 0), _QB),
              "end tight on the right, back deep behind the QB, receiver split wide left"),
    Formation("split back", _LINE + ((-2, 0), (-1, -2), (5, 0), _QB),
              "end tight on the left, back offset left, receiver split wide right"),
    Formation("spread", _LINE + ((-5, 0), (2, -1), (5, 0), _QB),
              "end and receiver split wide on both sides, back as a wing right"),
    Formation("power", _LINE + ((2, 0), (-1, -2), (1, -3), _QB),
              "end tight right, back and receiver stacked deep for a run"),
)

DEFENCE = (
    Formation("base", ((-1, 1), (0, 1), (1, 1), (-3, 2), (3, 2), (-4, 5), (4, 5)),
              "three linemen over the ball, linebackers outside, backs deep"),
    Formation("wide line", ((-2, 1), (0, 1), (2, 1), (-1, 3), (1, 3), (-5, 4), (5, 4)),
              "linemen spread, linebackers stacked inside, backs wide"),
    Formation("blitz", ((-1, 1), (0, 1), (1, 1), (-2, 1), (2, 1), (-3, 3), (3, 3)),
              "five on the line, backs close"),
    Formation("prevent", ((-1, 1), (0, 1), (1, 1), (-2, 4), (2, 4), (-3, 8), (3, 8)),
              "linemen only up front, linebackers and backs deep against the pass"),
)

OFFENCE_NAMES = tuple(f.name for f in OFFENCE)
DEFENCE_NAMES = tuple(f.name for f in DEFENCE)
