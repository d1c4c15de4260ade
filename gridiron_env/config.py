"""Game configuration (the host's settings and this project's caps)."""

from __future__ import annotations

import dataclasses
import numbers
from dataclasses import dataclass

KICK_MODES = ("dice", "paper")


@dataclass(frozen=True)
class GameConfig:
    """Settings of a game. Every field is validated; a bad value raises ValueError.

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
        def check_int(name, low, high):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not (low <= value <= high):
                raise ValueError(f"GameConfig.{name} must be an int from {low} to {high}, got {value!r}")

        check_int("target_score", 1, 99)
        check_int("longest_punt", 1, 20)
        check_int("max_rolls_per_down", 1, 100)
        check_int("max_steps", 1, 1_000_000)
        if not isinstance(self.specials, bool):
            raise ValueError(f"GameConfig.specials must be True or False, got {self.specials!r}")
        if self.kick_mode not in KICK_MODES:
            raise ValueError(f"GameConfig.kick_mode must be one of {KICK_MODES}, got {self.kick_mode!r}")
        chance = self.paper_answer_chance
        if isinstance(chance, bool) or not isinstance(chance, numbers.Real) or not (0 < chance <= 1):
            raise ValueError(f"GameConfig.paper_answer_chance must be a number in (0, 1], got {chance!r}")

    def replace(self, **changes) -> "GameConfig":
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_dict(cls, values: dict) -> "GameConfig":
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ValueError(f"unknown GameConfig field(s) {unknown}; allowed: {sorted(known)}")
        return cls(**values)
