"""Touchdown settings (RULINGS-touchdown.md): the board, the hash band, the dice tables and the caps."""

from __future__ import annotations

import numbers
from dataclasses import dataclass

from ..small_games.config import ConfigRecord, int_field

END_ZONE_ROWS = 2  # rows of each end zone (ruling 1); fixed: the row numbering -1, 0 / 31, 32 rests on it
MAX_DISTANCE_QB, MAX_DISTANCE_OTHER = 15, 6  # pass distance limits (ruling 20)


def _table(name, value, width, last_distance, what, exact=True):
    """A tuple of rows (up to distance, need, [need when close marked]) with increasing distances ending at
    ``last_distance`` (or at most there when not ``exact``) and needs that are 2d6 totals 2-13 (13: never)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (tuple, list)) or not (1 <= len(value) <= 16):
        raise ValueError(f"TouchdownConfig.{name} must be a tuple of 1-16 rows {what}, got {value!r}")
    rows, previous = [], 0
    for i, row in enumerate(value):
        if isinstance(row, (str, bytes)) or not isinstance(row, (tuple, list)) or len(row) != width:
            raise ValueError(f"TouchdownConfig.{name}[{i}] must be a row {what}, got {row!r}")
        upto = row[0]
        if isinstance(upto, bool) or not isinstance(upto, numbers.Integral) or not (previous < upto <= last_distance):
            raise ValueError(f"TouchdownConfig.{name}[{i}][0] must be a distance from {previous + 1} to "
                             f"{last_distance} (increasing), got {upto!r}")
        for j, need in enumerate(row[1:], 1):
            if isinstance(need, bool) or not isinstance(need, numbers.Integral) or not (2 <= need <= 13):
                raise ValueError(f"TouchdownConfig.{name}[{i}][{j}] must be a 2d6 total from 2 to 13 "
                                 f"(13: never), got {need!r}")
        rows.append(tuple(int(x) for x in row))
        previous = int(upto)
    if exact and previous != last_distance:
        raise ValueError(f"TouchdownConfig.{name} must cover distances up to {last_distance}, ends at {previous}")
    return tuple(rows)


@dataclass(frozen=True)
class TouchdownConfig(ConfigRecord):
    """Settings of a Touchdown game. Every field is validated; a bad value raises ValueError naming it.

    lanes: board width in lanes (ruling 1: 13), an odd int 11-25.
    field_rows: rows between the goal lines (ruling 1: 30), 26-60; each end zone is 2 rows more.
    hash_band: (first, last) lane of the hash band, 1-based (ruling 1: (6, 8)); the ball's lane at a snap
        or a kick is clamped into it. At least 6 lanes from each side line (the formations' width).
    completion_table: rows (up to distance, need, need when close marked) of the completion roll (ruling 21):
        the pass is complete on a 2d6 total >= need; distances end at 15. Default ((3, 4, 8), (6, 6, 10),
        (10, 7, 11), (15, 8, 12)).
    field_goal_table: rows (up to distance, need) of the field-goal roll (ruling 19), distances ending at
        the longest kick allowed (beyond it no attempt). Default ((5, 4), (10, 6), (15, 8)).
    conversion_need: the 2d6 total a conversion needs (ruling 14: 4), 2-13.
    max_rounds: rounds (a turn of each side) before a play ends with the ball dead (ruling 9: 40), 1-500.
    max_actions: actions in a game before it is truncated with no winner (ruling 25), 100-10,000,000.
    scrimmages_per_quarter: ruling 16: 15, 2-100. A quarter opens with its kick-off, itself a scrimmage
        (ruling 16), so a quarter of one scrimmage would be that kick-off alone and no play could ever be
        snapped: refused. quarters: ruling 16: 4, 1-8.
    overtime: play a 15-scrimmage overtime after a tie (ruling 16's option; first score wins).
    """

    lanes: int = 13
    field_rows: int = 30
    hash_band: tuple = (6, 8)
    completion_table: tuple = ((3, 4, 8), (6, 6, 10), (10, 7, 11), (15, 8, 12))
    field_goal_table: tuple = ((5, 4), (10, 6), (15, 8))
    conversion_need: int = 4
    max_rounds: int = 40
    max_actions: int = 100_000
    scrimmages_per_quarter: int = 15
    quarters: int = 4
    overtime: bool = False

    def __post_init__(self):
        lanes = int(int_field(self, "lanes", 11, 25))
        if lanes % 2 == 0:
            raise ValueError(f"TouchdownConfig.lanes must be odd (a middle lane for the kick-off), got {lanes}")
        object.__setattr__(self, "lanes", lanes)
        object.__setattr__(self, "field_rows", int(int_field(self, "field_rows", 26, 60)))
        hb = self.hash_band
        if isinstance(hb, (str, bytes)) or not isinstance(hb, (tuple, list)) or len(hb) != 2:
            raise ValueError(f"TouchdownConfig.hash_band must be a pair (first lane, last lane), got {hb!r}")
        for v in hb:
            if isinstance(v, bool) or not isinstance(v, numbers.Integral):
                raise ValueError(f"TouchdownConfig.hash_band must be two lanes (ints), got {hb!r}")
        lo, hi = int(hb[0]), int(hb[1])
        if not (6 <= lo <= hi <= lanes - 5):
            raise ValueError(f"TouchdownConfig.hash_band must be lanes (first, last) with 6 <= first <= last <= "
                             f"lanes - 5 = {lanes - 5}, got {hb!r}")
        object.__setattr__(self, "hash_band", (lo, hi))
        object.__setattr__(self, "completion_table", _table(
            "completion_table", self.completion_table, 3, MAX_DISTANCE_QB, "(up to distance, need, need close marked)"))
        object.__setattr__(self, "field_goal_table", _table(
            "field_goal_table", self.field_goal_table, 2, self.field_rows + 2, "(up to distance, need)", exact=False))
        object.__setattr__(self, "conversion_need", int(int_field(self, "conversion_need", 2, 13)))
        object.__setattr__(self, "max_rounds", int(int_field(self, "max_rounds", 1, 500)))
        object.__setattr__(self, "max_actions", int(int_field(self, "max_actions", 100, 10_000_000)))
        spq = self.scrimmages_per_quarter
        if isinstance(spq, numbers.Integral) and not isinstance(spq, bool) and spq == 1:
            raise ValueError("TouchdownConfig.scrimmages_per_quarter must be an int from 2 to 100, got 1: a quarter "
                             "opens with its kick-off, itself a scrimmage (ruling 16), so a quarter of one "
                             "scrimmage is that kick-off alone and no play is ever snapped")
        object.__setattr__(self, "scrimmages_per_quarter", int(int_field(self, "scrimmages_per_quarter", 2, 100)))
        object.__setattr__(self, "quarters", int(int_field(self, "quarters", 1, 8)))
        if not isinstance(self.overtime, bool):
            raise ValueError(f"TouchdownConfig.overtime must be True or False, got {self.overtime!r}")

    # --- derived geometry (absolute rows: 0 is team one's end line, team one attacks toward higher rows) ---
    @property
    def rows(self) -> int:
        """Board height: the field and both end zones."""
        return self.field_rows + 2 * END_ZONE_ROWS

    @property
    def hash_lanes(self) -> tuple:
        """The hash band as 0-based lanes (first, last)."""
        return self.hash_band[0] - 1, self.hash_band[1] - 1

    @property
    def max_field_goal(self) -> int:
        """The longest field-goal distance that may be tried."""
        return self.field_goal_table[-1][0]
