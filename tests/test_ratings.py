"""Tournament maths against hand-worked examples."""

import math

import numpy as np
import pytest

from train.ratings import elo_expected, elo_intervals, elo_ratings, wilson_interval


def test_wilson_interval_hand_worked():
    # 8 wins in 10 games, z = 1.96: centre = (0.8 + 0.19208) / 1.38416 = 0.716738...,
    # half = 1.96 * sqrt(0.016 + 0.009604) / 1.38416 = 0.226618... -> (0.4902, 0.9433)
    low, high = wilson_interval(8, 10, z=1.96)
    assert low == pytest.approx(0.49016, abs=1e-4)
    assert high == pytest.approx(0.94331, abs=1e-4)


def test_wilson_interval_edges():
    low, high = wilson_interval(0, 20)
    assert low == 0.0 and 0.15 < high < 0.17  # 3.84 / 23.84 = 0.1611
    assert wilson_interval(20, 20)[0] == pytest.approx(1 - 0.16113, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(5, 4)


def test_elo_expected_hand_worked():
    assert elo_expected(1000, 1000) == 0.5
    assert elo_expected(1400, 1000) == pytest.approx(10 / 11)  # 1 / (1 + 10^-1)
    assert elo_expected(1000, 1400) == pytest.approx(1 / 11)


def test_elo_ratings_recover_a_known_gap():
    # A beat B 75 times in 100: the ML rating gap is 400 * log10(3) = 190.85 (weak prior barely moves it)
    score = np.array([[0, 75], [25, 0]])
    games = np.array([[0, 100], [100, 0]])
    r = elo_ratings(score, games, prior_games=0.0)
    assert r[0] == 1000.0
    assert r[0] - r[1] == pytest.approx(400 * math.log10(3), abs=0.01)


def test_elo_ratings_three_players_are_consistent():
    # A beats B 2:1, B beats C 2:1, A beats C 4:1: Bradley-Terry strengths 4:2:1 fit exactly
    score = np.array([[0, 200, 400], [100, 0, 200], [100, 100, 0]])
    games = np.array([[0, 300, 500], [300, 0, 300], [500, 300, 0]])
    r = elo_ratings(score, games, prior_games=0.0)
    gap = 400 * math.log10(2)
    assert r[0] - r[1] == pytest.approx(gap, abs=0.5)
    assert r[1] - r[2] == pytest.approx(gap, abs=0.5)


def test_elo_ratings_unbeaten_agent_stays_finite():
    score = np.array([[0, 10], [0, 0]])
    games = np.array([[0, 10], [10, 0]])
    r = elo_ratings(score, games)
    assert np.isfinite(r).all() and r[0] > r[1] + 200


# --- bootstrap intervals of the Elo ratings --------------------------------------------------------------

def _pair(wins_a, draws, wins_b):
    wins = np.array([[0, wins_a], [wins_b, 0]], dtype=float)
    return wins, np.array([[0, draws], [draws, 0]], dtype=float)


def test_elo_intervals_are_seeded_anchored_and_shrink_with_games():
    wins, draws = _pair(30, 4, 16)
    low, high = elo_intervals(wins, draws, seed=3)
    again = elo_intervals(wins, draws, seed=3)
    assert np.array_equal(low, again[0]) and np.array_equal(high, again[1])
    assert low[0] == high[0] == 1000.0  # the anchor's rating is fixed
    point = elo_ratings(wins + 0.5 * draws, wins + wins.T + draws)
    assert low[1] < point[1] < high[1]
    low4, high4 = elo_intervals(4 * wins, 4 * draws, seed=3)
    assert high4[1] - low4[1] < 0.7 * (high[1] - low[1])  # four times the games: about half the width


def test_elo_intervals_cover_the_true_gap():
    # B's true expected score against A is 0.64 (a gap of 400 log10(0.64 / 0.36) = 99.9 Elo); in 200
    # tournaments of 100 games each (fixed seeds) the 90% interval holds it in 90% of them, give or take
    # the binomial spread (sd 2.1%) and the percentile bootstrap's own error: accepted between 82% and 97%.
    rng = np.random.default_rng(11)
    gap = 400 * math.log10(0.64 / 0.36)
    covered = 0
    for trial in range(200):
        b_wins = int(rng.binomial(100, 0.64))
        low, high = elo_intervals(*_pair(100 - b_wins, 0, b_wins), level=0.90, samples=400, seed=trial,
                                  prior_games=0.01)
        covered += low[1] - 1000 <= gap <= high[1] - 1000
    assert 0.82 <= covered / 200 <= 0.97


def test_elo_intervals_of_an_unbeaten_agent_stay_finite():
    wins = np.array([[0, 20, 12], [0, 0, 9], [0, 5, 0]], dtype=float)  # agent 0 never lost
    draws = np.zeros((3, 3))
    low, high = elo_intervals(wins, draws, anchor=2)
    point = elo_ratings(wins, wins + wins.T, anchor=2)
    assert np.isfinite(low).all() and np.isfinite(high).all()
    assert low[0] < point[0] < 3000 and high[0] < 3000
    with pytest.raises(ValueError):
        elo_intervals(wins, draws, prior_games=0.0)
    with pytest.raises(ValueError):
        elo_intervals(wins, np.triu(np.ones((3, 3))))  # draws must be symmetric
