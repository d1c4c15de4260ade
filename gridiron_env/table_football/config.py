"""Table Football settings (RULINGS-table-football.md): the basic game and the clock version."""

from __future__ import annotations

from dataclasses import dataclass

from ..small_games.config import ConfigRecord, int_field


@dataclass(frozen=True)
class TableFootballConfig(ConfigRecord):
    """Settings of a Table Football game. Every field is validated; a bad value raises ValueError naming it.

    target_score: points that end the game (ruling 9), 1-99.
    downs: downs to reach the line to gain, 4 or 3 (Canadian version, ruling 3).
    clock: play the advanced version with the game clock (rulings 10-15).
    recovery_option: the recovery OPTION after a fumble or interception (ruling 16).
    max_plays: plays (run, field goal or punt) before the game is truncated with no winner, 1-1,000,000.
        The exact solver ignores it (ruling 17).
    clock_target: in a clock game, whether reaching target_score also ends the game (ruling 15: off).
    quarter_boxes: 15-second boxes in a quarter (and in the overtime quarter), 1-240 (ruling 10: 60).
    two_minute_boxes: boxes left at the two-minute warning of the 2nd and 4th quarters (ruling 11: 8);
        0 turns the warning off; less than quarter_boxes.
    timeouts_per_half: time-outs of each team per half, 0-9 (ruling 12: 3).
    overtime_timeouts: time-outs of each team in the overtime quarter, 0-9 (ruling 15: 2).
    """

    target_score: int = 28
    downs: int = 4
    clock: bool = False
    recovery_option: bool = False
    max_plays: int = 2000
    clock_target: bool = False
    quarter_boxes: int = 60
    two_minute_boxes: int = 8
    timeouts_per_half: int = 3
    overtime_timeouts: int = 2

    def __post_init__(self):
        def check_bool(name):
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise ValueError(f"TableFootballConfig.{name} must be True or False, got {value!r}")

        int_field(self, "target_score", 1, 99)
        if isinstance(self.downs, bool) or self.downs not in (3, 4):
            raise ValueError(f"TableFootballConfig.downs must be 4 or 3 (Canadian), got {self.downs!r}")
        check_bool("clock")
        check_bool("recovery_option")
        check_bool("clock_target")
        int_field(self, "max_plays", 1, 1_000_000)
        int_field(self, "quarter_boxes", 1, 240)
        int_field(self, "two_minute_boxes", 0, 239)
        if self.two_minute_boxes >= self.quarter_boxes:
            raise ValueError(f"TableFootballConfig.two_minute_boxes must be less than quarter_boxes "
                             f"({self.quarter_boxes}), got {self.two_minute_boxes!r}")
        int_field(self, "timeouts_per_half", 0, 9)
        int_field(self, "overtime_timeouts", 0, 9)

    @property
    def target_on(self) -> bool:
        """Whether reaching target_score ends the game (always in the basic game)."""
        return (not self.clock) or self.clock_target
