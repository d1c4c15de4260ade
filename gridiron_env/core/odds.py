"""Exact odds of the game's random events (rulings 10, 18-23).

Everything here is a pure function of dice counts or distances; nothing draws random numbers. Exact values
are ``fractions.Fraction``; the float versions exist for the engine and observations.

Units: dice counts are numbers of six-sided dice; distances are yards as the rulebook counts them
(``field_goal_distance``); chances are probabilities in [0, 1].
"""

from __future__ import annotations

import itertools
import numbers
from fractions import Fraction
from functools import lru_cache

import numpy as np

__all__ = [
    "completion_chance_exact",
    "completion_chance",
    "COMPLETION_TABLE",
    "COMPLETION_TABLE_MAX_OFFENCE",
    "COMPLETION_TABLE_MAX_DEFENCE",
    "field_goal_distance",
    "FIELD_GOAL_RANGE",
    "field_goal_target",
    "field_goal_chance_exact",
    "field_goal_chance",
    "paper_reach_chance_exact",
    "paper_field_goal_chance",
    "PAT_CHANCE",
    "INTERCEPTION_CHANCE",
    "BALL_HAWK_INTERCEPTION_CHANCE",
    "TACKLE_FUMBLE_CHANCE",
    "LATERAL_CATCH_BEHIND_LOS",
    "LATERAL_CATCH_PAST_LOS",
    "roll_points",
    "roll_points_distribution",
]

# Fixed chances from the rulings (each a probability).
PAT_CHANCE = Fraction(19, 20)  # ruling 23
INTERCEPTION_CHANCE = Fraction(1, 15)  # ruling 20, of a failed forward pass
BALL_HAWK_INTERCEPTION_CHANCE = Fraction(1, 10)  # ruling 20 with Ball Hawk
TACKLE_FUMBLE_CHANCE = Fraction(1, 20)  # ruling 15
LATERAL_CATCH_BEHIND_LOS = Fraction(99, 100)  # ruling 18, thrower behind the LOS row
LATERAL_CATCH_PAST_LOS = Fraction(19, 20)  # ruling 18, otherwise

_SIDES = 6


# The most dice a completion chance is worked out for: far past any board (offence at most 7 dice,
# defence at most 36), and it keeps the exact fractions (and their cache) small.
MAX_DICE = 100


def _check_count(value, name: str, minimum: int = 0, maximum: int | None = None) -> int:
    """Return ``value`` as an int, or raise ValueError naming ``name``.

    bool is refused although it is an int subclass: ``True`` as a dice count is always a bug.
    numpy integers are accepted because the engine indexes numpy arrays.
    """
    allowed = f"an int from {minimum} to {maximum}" if maximum is not None else f"an int >= {minimum}"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be {allowed}, got {value!r} ({type(value).__name__})")
    value = int(value)
    if value < minimum or (maximum is not None and value > maximum):
        raise ValueError(f"{name} must be {allowed}, got {value}")
    return value


# --------------------------------------------------------------------------------------------------
# Forward pass (ruling 19)
# --------------------------------------------------------------------------------------------------


def _max_at_most(n: int, k: int) -> Fraction:
    """P(the highest of n d6 is <= k); for n == 0 the empty max counts as 0, so this is 1."""
    return Fraction(k, _SIDES) ** n


def _max_is(n: int, k: int) -> Fraction:
    """P(the highest of n d6 equals k), for n >= 1 and k in 1..6."""
    return _max_at_most(n, k) - _max_at_most(n, k - 1)


@lru_cache(maxsize=4096)
def _completion_exact(offence_dice: int, defence_dice: int) -> Fraction:
    if offence_dice == 0 or defence_dice == 0:
        # No defender within 3 squares (offence 0), or nobody contests (defence 0): certain.
        return Fraction(1)
    win = sum(_max_is(offence_dice, k) * _max_at_most(defence_dice, k - 1) for k in range(1, _SIDES + 1))
    tie = sum(_max_is(offence_dice, k) * _max_is(defence_dice, k) for k in range(1, _SIDES + 1))
    # A tie is rolled again until decided, so the chance is win conditioned on "not a tie":
    # win * (1 + tie + tie^2 + ...) = win / (1 - tie). tie < 1 whenever both sides roll dice.
    return win / (1 - tie)


def completion_chance_exact(offence_dice: int, defence_dice: int) -> Fraction:
    """Exact chance that a forward pass is caught (ruling 19).

    ``offence_dice``: dice the offence rolls (0 = no defender within 3 squares, an automatic catch).
    ``defence_dice``: dice the defence rolls (0 with offence dice = uncontested, also certain).
    Each is an int from 0 to MAX_DICE (100); anything else raises ValueError naming it.
    Highest single die wins; ties are rolled again.
    """
    o = _check_count(offence_dice, "offence_dice", maximum=MAX_DICE)
    d = _check_count(defence_dice, "defence_dice", maximum=MAX_DICE)
    return _completion_exact(o, d)


def completion_chance(offence_dice: int, defence_dice: int) -> float:
    """Chance in [0, 1] that a forward pass is caught; float of ``completion_chance_exact``."""
    return float(completion_chance_exact(offence_dice, defence_dice))


# Offence dice top out at 7 (6 + Sure Hands); defence dice are bounded by 2 per defender beside the
# receiver plus lane and thrower dice, so 40 covers any board. Indexed [offence_dice, defence_dice].
COMPLETION_TABLE_MAX_OFFENCE = 8
COMPLETION_TABLE_MAX_DEFENCE = 40
COMPLETION_TABLE = np.array(
    [
        [float(_completion_exact(o, d)) for d in range(COMPLETION_TABLE_MAX_DEFENCE + 1)]
        for o in range(COMPLETION_TABLE_MAX_OFFENCE + 1)
    ],
    dtype=np.float64,
)
COMPLETION_TABLE.setflags(write=False)  # shared module state: nobody may edit it in place


# --------------------------------------------------------------------------------------------------
# Field goals (ruling 21)
# --------------------------------------------------------------------------------------------------

FIELD_GOAL_RANGE = 80  # yards; longer kicks are out of range

# (last distance in yards, 3d6 total needed), in increasing distance.
_FIELD_GOAL_TARGETS = (
    (40, 6),
    (45, 8),
    (50, 9),
    (55, 10),
    (60, 11),
    (63, 13),
    (65, 15),
    (69, 17),
    (80, 18),
)

# Number of the 216 ordered 3d6 outcomes with each total 3..18.
_THREE_D6_COUNTS: dict[int, int] = {}
for _dice in itertools.product(range(1, _SIDES + 1), repeat=3):
    _THREE_D6_COUNTS[sum(_dice)] = _THREE_D6_COUNTS.get(sum(_dice), 0) + 1
del _dice
_THREE_D6_OUTCOMES = _SIDES**3  # 216


def _three_d6_at_least(target: int) -> Fraction:
    """P(3d6 total >= target), by counting the 216 outcomes."""
    hits = sum(count for total, count in _THREE_D6_COUNTS.items() if total >= target)
    return Fraction(hits, _THREE_D6_OUTCOMES)


def field_goal_distance(rows_to_goal: int) -> int:
    """Kick distance in yards: 4 * rows + 17.

    ``rows_to_goal`` counts the rows from the LOS row to the goal line, the LOS row included (so 1 when
    the LOS row is next to the end zone, giving 21 yards). Must be an int >= 1.
    """
    rows = _check_count(rows_to_goal, "rows_to_goal", minimum=1)
    return 4 * rows + 17


def field_goal_target(distance_yards: int) -> int | None:
    """3d6 total needed for a field goal from ``distance_yards`` (int >= 0); None when out of range."""
    distance = _check_count(distance_yards, "distance_yards")
    for last, target in _FIELD_GOAL_TARGETS:
        if distance <= last:
            return target
    return None


def field_goal_chance_exact(distance_yards: int) -> Fraction:
    """Exact chance a dice-formula field goal from ``distance_yards`` is good (0 past 80 yards)."""
    target = field_goal_target(distance_yards)
    if target is None:
        return Fraction(0)
    return _three_d6_at_least(target)


def field_goal_chance(distance_yards: int) -> float:
    """Chance in [0, 1] a dice-formula field goal from ``distance_yards`` is good."""
    return float(field_goal_chance_exact(distance_yards))


# Paper-football mode: the rolled reach is 8 + 4 * (3d6 total) yards, 20 to 80, so it matches the
# dice formula's range exactly (a kick past 80 can never reach).
def _paper_reach(total: int) -> int:
    return 8 + 4 * total


def paper_reach_chance_exact(distance_yards: int) -> Fraction:
    """Exact chance that the rolled reach (8 + 4 * 3d6 yards) is at least ``distance_yards`` (int >= 0)."""
    distance = _check_count(distance_yards, "distance_yards")
    hits = sum(count for total, count in _THREE_D6_COUNTS.items() if _paper_reach(total) >= distance)
    return Fraction(hits, _THREE_D6_OUTCOMES)


def paper_field_goal_chance(distance_yards: int, answer_chance: float) -> float:
    """Chance in [0, 1] a paper-football field goal is good: the reach suffices and the answer is right.

    ``answer_chance``: probability, in (0, 1], that the true/false answer is right (a config value);
    independent of the reach roll.
    """
    if isinstance(answer_chance, bool) or not isinstance(answer_chance, numbers.Real):
        raise ValueError(f"answer_chance must be a number in (0, 1], got {answer_chance!r}")
    if not 0 < answer_chance <= 1:  # also refuses NaN
        raise ValueError(f"answer_chance must be a number in (0, 1], got {answer_chance!r}")
    reach = paper_reach_chance_exact(distance_yards)
    if isinstance(answer_chance, (numbers.Rational)):
        # Keep it exact until the end when the config gives an int or Fraction.
        return float(reach * Fraction(answer_chance))
    return float(reach) * float(answer_chance)


# --------------------------------------------------------------------------------------------------
# Points per roll (ruling 10)
# --------------------------------------------------------------------------------------------------


def _check_pair(dice, name: str) -> tuple[int, int]:
    try:
        pair = tuple(dice)
    except TypeError:
        raise ValueError(f"{name} must be a pair of d6 values 1-6, got {dice!r}") from None
    if len(pair) != 2:
        raise ValueError(f"{name} must be a pair of d6 values 1-6, got {dice!r}")
    for die in pair:
        if isinstance(die, bool) or not isinstance(die, numbers.Integral) or not 1 <= die <= _SIDES:
            raise ValueError(f"{name} must be a pair of d6 values 1-6, got {dice!r}")
    return int(pair[0]), int(pair[1])


def roll_points(off_dice: tuple[int, int], def_dice: tuple[int, int]) -> tuple[int, int]:
    """Points (offence, defence) one roll gives, before carry-over and the cap of 8 (ruling 10).

    Each argument is the side's two d6 in any order. The side with the higher high die takes its high
    die and the other its low die; on a tie both take their high die.
    """
    oh, ol = sorted(_check_pair(off_dice, "off_dice"), reverse=True)
    dh, dl = sorted(_check_pair(def_dice, "def_dice"), reverse=True)
    if oh > dh:
        return oh, dl
    if dh > oh:
        return ol, dh
    return oh, dh


@lru_cache(maxsize=1)
def _roll_points_distribution() -> tuple[tuple[tuple[int, int], Fraction], ...]:
    counts: dict[tuple[int, int], int] = {}
    faces = range(1, _SIDES + 1)
    for a, b, c, d in itertools.product(faces, repeat=4):
        key = roll_points((a, b), (c, d))
        counts[key] = counts.get(key, 0) + 1
    total = _SIDES**4
    return tuple(sorted((key, Fraction(n, total)) for key, n in counts.items()))


def roll_points_distribution() -> dict[tuple[int, int], Fraction]:
    """Exact joint distribution {(offence points, defence points): probability} of one roll (ruling 10).

    Counts all 6^4 ordered outcomes of the four dice; pairs that cannot happen are absent. A fresh dict
    each call, so callers may modify it.
    """
    return dict(_roll_points_distribution())
