"""Game configuration (the host's settings and this project's caps)."""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

KICK_MODES = ("dice", "paper")


class ArgumentTypeError(TypeError, ValueError):
    """An argument of the wrong type (a str where a State belongs, a dict where a GameConfig does).

    Both a TypeError and a ValueError (as numpy's AxisError is both an IndexError and a ValueError): the
    project answers bad input with ValueError, and a caller catching the usual TypeError sees it too."""


@dataclass(frozen=True)
class GameConfig:
    """Settings of a game. Every field is validated; a bad value (of any type) raises ValueError naming the
    field and what is allowed. numpy scalars are accepted and stored as the Python value.

    target_score: points that win (rule 28), 1-99.
    specials: whether each team picks a special player before the first down (rule 24).
    kick_mode: "dice" (the 3-dice formula of rule 21) or "paper" (rolled reach, then the true/false answer).
    paper_answer_chance: in paper mode, the chance the true/false answer is right, in (0, 1].
    longest_punt: the longest punt target in rows (rule 22), 1-20.
    max_rolls_per_down: rolls in one down before the ball is dead where it is (rule 12), 1-100.
    max_steps: agent actions per game before the game is truncated with no winner (rule 30), 1-1,000,000.
    """

    target_score: int = 21
    specials: bool = True
    kick_mode: str = "dice"
    paper_answer_chance: float = 0.75
    longest_punt: int = 12
    max_rolls_per_down: int = 12
    max_steps: int = 4000

    def __post_init__(self):
        # Each check looks at the type first, so that no value (an array, a list, a dict) reaches a
        # comparison that could raise something else ("truth value of an array is ambiguous") or pass by
        # accident (np.array(["dice"]) == "dice" is array([True])).
        def store(name, value):
            object.__setattr__(self, name, value)  # (frozen: the normalised value replaces the given one)

        def check_int(name, low, high):
            value = getattr(self, name)
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) or not (
                    low <= value <= high):
                raise ValueError(f"GameConfig.{name} must be an int from {low} to {high}, got {value!r}")
            store(name, int(value))

        check_int("target_score", 1, 99)
        check_int("longest_punt", 1, 20)
        check_int("max_rolls_per_down", 1, 100)
        check_int("max_steps", 1, 1_000_000)
        if not isinstance(self.specials, (bool, np.bool_)):
            raise ValueError(f"GameConfig.specials must be True or False, got {self.specials!r}")
        store("specials", bool(self.specials))
        if not isinstance(self.kick_mode, str) or self.kick_mode not in KICK_MODES:
            raise ValueError(f"GameConfig.kick_mode must be one of {KICK_MODES}, got {self.kick_mode!r}")
        store("kick_mode", str(self.kick_mode))
        chance = self.paper_answer_chance
        if isinstance(chance, (bool, np.bool_)) or not isinstance(chance, numbers.Real) or not (
                0 < chance <= 1):  # (NaN fails the comparison too)
            raise ValueError(f"GameConfig.paper_answer_chance must be a number in (0, 1], got {chance!r}")
        if isinstance(chance, np.generic):
            store("paper_answer_chance", chance.item())  # a Python int or Fraction stays exact

    def replace(self, **changes) -> "GameConfig":
        """A copy with some fields changed; an unknown name raises ValueError."""
        _check_names(changes)
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_dict(cls, values: Mapping) -> "GameConfig":
        """A config from a mapping of field names to values (missing fields keep their defaults)."""
        if not isinstance(values, Mapping):
            raise ValueError(f"GameConfig.from_dict takes a dict of field values, got {type(values).__name__}")
        _check_names(values)
        return cls(**values)


_FIELD_NAMES = tuple(f.name for f in dataclasses.fields(GameConfig))


def _check_names(values) -> None:
    unknown = sorted((k for k in values if k not in _FIELD_NAMES), key=repr)
    if unknown:
        raise ValueError(f"unknown GameConfig field(s) {unknown}; allowed: {sorted(_FIELD_NAMES)}")


DEFAULT_CONFIG = GameConfig()  # frozen: one shared default for every call that is given none
