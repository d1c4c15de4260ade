"""Tests for gridiron_env.core.odds against the rulebook's printed numbers and independent enumerations."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from gridiron_env.core import odds

# --------------------------------------------------------------------------------------------------
# Forward pass
# --------------------------------------------------------------------------------------------------

# The rulebook's "Chance of completing a forward pass" table: offence dice -> percentages for defence
# dice 1..8. Rows: "3 squares" (6 dice), "2 squares" (3 dice), "beside him" (1 die).
RULEBOOK_TABLE = {
    6: [91, 82, 73, 65, 57, 50, 43, 37],
    3: [79, 63, 50, 40, 33, 27, 22, 18],
    1: [50, 31, 21, 15, 11, 9, 7, 6],
}


@pytest.mark.parametrize(
    "offence, defence, printed",
    [(o, d, pct) for o, row in RULEBOOK_TABLE.items() for d, pct in zip(range(1, 9), row)],
)
def test_rulebook_table_entry(offence, defence, printed):
    # Convention: the printed integer is the percentage rounded to nearest. No entry sits on .5 except
    # the exact 50% ones, so Python's round-half-even cannot change any of them.
    assert round(100 * odds.completion_chance(offence, defence)) == printed


def test_rulebook_table_has_24_entries():
    assert sum(len(row) for row in RULEBOOK_TABLE.values()) == 24


def test_rulebook_worked_claims():
    assert round(100 * odds.completion_chance(6, 1)) == 91  # "Six dice against one defender ... 91%"
    assert round(100 * odds.completion_chance(1, 4)) == 15  # "one die against four is 15%"
    assert round(100 * odds.completion_chance(6, 3)) == 73  # "rolls 6 against 3 (73%)"
    assert odds.completion_chance_exact(3, 3) == Fraction(1, 2)  # "(50%)": equal dice are a coin flip


def test_no_defender_is_automatic():
    for d in range(0, 10):
        assert odds.completion_chance_exact(0, d) == 1
    for o in range(1, 8):
        assert odds.completion_chance_exact(o, 0) == 1


def _brute_force_contest(o: int, d: int) -> Fraction:
    """Enumerate every roll of o + d dice; a tie is rerolled, so P = win * sum(tie^k) = win / (1 - tie)."""
    win = tie = 0
    for roll in itertools.product(range(1, 7), repeat=o + d):
        high_off, high_def = max(roll[:o]), max(roll[o:])
        win += high_off > high_def
        tie += high_off == high_def
    n = 6 ** (o + d)
    p_win, p_tie = Fraction(win, n), Fraction(tie, n)
    return p_win / (1 - p_tie)  # geometric series of rerolls


@pytest.mark.parametrize("o, d", [(o, d) for o in range(1, 4) for d in range(1, 4)])
def test_exact_matches_brute_force(o, d):
    assert odds.completion_chance_exact(o, d) == _brute_force_contest(o, d)


def test_symmetry_equal_dice_is_half_and_complement():
    # Swapping sides turns a win into a loss and ties are rerolled, so p(o, d) + p(d, o) = 1.
    for o in range(1, 9):
        for d in range(1, 9):
            assert odds.completion_chance_exact(o, d) + odds.completion_chance_exact(d, o) == 1


@pytest.mark.parametrize("o, d", [(6, 3), (3, 3), (1, 4)])
def test_monte_carlo_contest(o, d):
    rng = np.random.default_rng(20240519 + 10 * o + d)
    trials = 200_000
    caught = np.zeros(trials, dtype=bool)
    undecided = np.arange(trials)
    # Simulate the reroll-on-tie literally: keep rolling the undecided trials until none is left.
    while undecided.size:
        off = rng.integers(1, 7, size=(undecided.size, o)).max(axis=1)
        de = rng.integers(1, 7, size=(undecided.size, d)).max(axis=1)
        caught[undecided[off > de]] = True
        undecided = undecided[off == de]
    p = odds.completion_chance(o, d)
    standard_error = math.sqrt(p * (1 - p) / trials)
    # Tolerance: 4 standard errors of a binomial proportion (a fixed seed makes it deterministic; a
    # correct p fails this with probability ~6e-5 for a fresh seed).
    assert abs(caught.mean() - p) < 4 * standard_error


def test_completion_table():
    table = odds.COMPLETION_TABLE
    assert table.shape == (9, 41)
    assert table.dtype == np.float64
    for o in range(9):
        for d in range(41):
            assert table[o, d] == odds.completion_chance(o, d)
    # More defence dice never help the offence; more offence dice never hurt it.
    assert np.all(np.diff(table[1:, :], axis=1) <= 0)
    assert np.all(np.diff(table[1:, 1:], axis=0) >= 0)
    with pytest.raises(ValueError):
        table[1, 1] = 0.0  # read-only


@pytest.mark.parametrize(
    "args, name",
    [((-1, 2), "offence_dice"), ((2, -1), "defence_dice"), ((1.0, 2), "offence_dice"),
     ((2, "3"), "defence_dice"), ((True, 2), "offence_dice"), ((None, 2), "offence_dice")],
)
def test_completion_bad_input(args, name):
    with pytest.raises(ValueError, match=name):
        odds.completion_chance_exact(*args)
    with pytest.raises(ValueError, match=name):
        odds.completion_chance(*args)


def test_completion_accepts_numpy_ints():
    assert odds.completion_chance(np.int64(6), np.int32(3)) == odds.completion_chance(6, 3)


# --------------------------------------------------------------------------------------------------
# Fixed chances
# --------------------------------------------------------------------------------------------------


def test_fixed_chances():
    assert odds.PAT_CHANCE == Fraction(19, 20)
    assert odds.INTERCEPTION_CHANCE == Fraction(1, 15)
    assert odds.BALL_HAWK_INTERCEPTION_CHANCE == Fraction(1, 10)
    assert odds.TACKLE_FUMBLE_CHANCE == Fraction(1, 20)
    assert odds.LATERAL_CATCH_BEHIND_LOS == Fraction(99, 100)
    assert odds.LATERAL_CATCH_PAST_LOS == Fraction(19, 20)


# --------------------------------------------------------------------------------------------------
# Field goals
# --------------------------------------------------------------------------------------------------


def test_field_goal_distance():
    assert odds.field_goal_distance(1) == 21
    assert odds.field_goal_distance(2) == 25
    assert odds.field_goal_distance(15) == 77
    assert odds.field_goal_distance(16) == 81  # first row out of range
    assert odds.FIELD_GOAL_RANGE == 80


def test_field_goal_targets_table():
    expected = {40: 6, 41: 8, 45: 8, 46: 9, 50: 9, 51: 10, 55: 10, 56: 11, 60: 11, 61: 13, 63: 13,
                64: 15, 65: 15, 66: 17, 69: 17, 70: 18, 80: 18, 81: None, 200: None, 0: 6, 21: 6}
    for distance, target in expected.items():
        assert odds.field_goal_target(distance) == target, distance


def test_field_goal_anchors():
    for distance in range(21, 41):  # "95% from inside 40 yards"
        assert round(100 * odds.field_goal_chance(distance)) == 95
    assert round(100 * odds.field_goal_chance(45)) == 84  # "about 84% at 45"
    assert odds.field_goal_chance_exact(60) == Fraction(1, 2)  # "50% at 60"
    assert round(100 * odds.field_goal_chance(65)) == 9  # "9% at 65"
    for distance in range(70, 81):  # "three sixes from 70 out"
        assert odds.field_goal_chance_exact(distance) == Fraction(1, 216)
    for distance in (81, 85, 100, 137):  # "past 80 yards it is out of range"
        assert odds.field_goal_chance_exact(distance) == 0
        assert odds.field_goal_chance(distance) == 0.0


def _three_d6_at_least(target: int) -> Fraction:
    return Fraction(sum(1 for r in itertools.product(range(1, 7), repeat=3) if sum(r) >= target), 216)


def test_field_goal_chance_is_enumeration():
    for distance in range(0, 90):
        target = odds.field_goal_target(distance)
        expected = Fraction(0) if target is None else _three_d6_at_least(target)
        assert odds.field_goal_chance_exact(distance) == expected


def test_field_goal_chance_never_increases():
    chances = [odds.field_goal_chance_exact(d) for d in range(0, 120)]
    assert all(a >= b for a, b in zip(chances, chances[1:]))


def test_every_game_distance_has_a_target():
    for rows in range(1, 16):
        distance = odds.field_goal_distance(rows)
        assert distance <= odds.FIELD_GOAL_RANGE
        assert odds.field_goal_target(distance) is not None
        assert odds.field_goal_chance(distance) > 0


@pytest.mark.parametrize("fn", [odds.field_goal_target, odds.field_goal_chance_exact, odds.field_goal_chance,
                                odds.paper_reach_chance_exact])
@pytest.mark.parametrize("bad", [-1, 40.0, "40", None, True])
def test_field_goal_bad_distance(fn, bad):
    with pytest.raises(ValueError, match="distance_yards"):
        fn(bad)


@pytest.mark.parametrize("bad", [0, -3, 2.0, "1", None, False])
def test_field_goal_distance_bad_rows(bad):
    with pytest.raises(ValueError, match=r"rows_to_goal.*>= 1"):
        odds.field_goal_distance(bad)


def test_field_goal_error_says_what_is_allowed():
    with pytest.raises(ValueError, match=r"distance_yards must be an int >= 0"):
        odds.field_goal_chance(-5)


# --------------------------------------------------------------------------------------------------
# Paper football
# --------------------------------------------------------------------------------------------------


def test_paper_reach():
    assert odds.paper_reach_chance_exact(20) == 1  # shortest reach is 8 + 4*3 = 20
    assert odds.paper_reach_chance_exact(21) == Fraction(215, 216)  # needs total >= 4
    assert odds.paper_reach_chance_exact(80) == Fraction(1, 216)  # only three sixes reach 80
    assert odds.paper_reach_chance_exact(81) == 0
    for distance in range(0, 90):
        expected = Fraction(
            sum(1 for r in itertools.product(range(1, 7), repeat=3) if 8 + 4 * sum(r) >= distance), 216
        )
        assert odds.paper_reach_chance_exact(distance) == expected


def test_paper_field_goal_chance():
    assert odds.paper_field_goal_chance(20, 1) == 1.0
    assert odds.paper_field_goal_chance(81, 1.0) == 0.0
    assert odds.paper_field_goal_chance(60, Fraction(3, 4)) == float(odds.paper_reach_chance_exact(60) * Fraction(3, 4))
    assert odds.paper_field_goal_chance(45, 0.8) == pytest.approx(float(odds.paper_reach_chance_exact(45)) * 0.8)


@pytest.mark.parametrize("bad", [0, 0.0, -0.1, 1.01, float("nan"), "0.5", None, True])
def test_paper_field_goal_bad_answer_chance(bad):
    with pytest.raises(ValueError, match="answer_chance"):
        odds.paper_field_goal_chance(40, bad)


def test_paper_field_goal_bad_distance():
    with pytest.raises(ValueError, match="distance_yards"):
        odds.paper_field_goal_chance(-1, 0.5)


# --------------------------------------------------------------------------------------------------
# Points per roll (ruling 10)
# --------------------------------------------------------------------------------------------------


def test_roll_points_hand_cases():
    assert odds.roll_points((6, 2), (5, 5)) == (6, 5)  # offence high wins: its H, defence its L
    assert odds.roll_points((3, 1), (4, 2)) == (1, 4)  # defence high wins: offence its L, defence its H
    assert odds.roll_points((4, 1), (4, 3)) == (4, 4)  # tie: both take H
    assert odds.roll_points((2, 6), (5, 5)) == (6, 5)  # order of the dice does not matter


@pytest.mark.parametrize(
    "args, name",
    [(((0, 1), (2, 2)), "off_dice"), (((1, 7), (2, 2)), "off_dice"), (((1, 2, 3), (2, 2)), "off_dice"),
     (((1, 2), (2,)), "def_dice"), (((1, 2), 5), "def_dice"), (((1, 2), (2.0, 2)), "def_dice")],
)
def test_roll_points_bad_input(args, name):
    with pytest.raises(ValueError, match=name):
        odds.roll_points(*args)


def _independent_roll_distribution() -> dict[tuple[int, int], Fraction]:
    """Ruling 10 written out a second way: compare high dice, hand out (H or L) per side."""
    counts: Counter = Counter()
    for roll in itertools.product(range(1, 7), repeat=4):
        off, de = roll[:2], roll[2:]
        off_high, def_high = max(off), max(de)
        off_pts = off_high if off_high >= def_high else min(off)
        def_pts = def_high if def_high >= off_high else min(de)
        counts[(off_pts, def_pts)] += 1
    return {key: Fraction(n, 1296) for key, n in counts.items()}


def test_roll_points_distribution():
    dist = odds.roll_points_distribution()
    assert sum(dist.values()) == 1
    assert dist == _independent_roll_distribution()
    assert all(isinstance(p, Fraction) and p > 0 for p in dist.values())
    # Ruling 10 treats the sides alike, so swapping them mirrors the distribution.
    for (o, d), p in dist.items():
        assert dist[(d, o)] == p
    # A fresh dict each call: mutating one must not change the next.
    dist.clear()
    assert sum(odds.roll_points_distribution().values()) == 1
