"""Tournament maths against hand-worked examples."""

import math

import numpy as np
import pytest

from train.ratings import elo_expected, elo_ratings, wilson_interval


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
