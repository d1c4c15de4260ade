"""Tournament maths: Wilson score intervals and Elo ratings from pairwise results."""

from __future__ import annotations

import math

import numpy as np

Z_95 = 1.959963984540054  # two-sided 95% normal quantile


def wilson_interval(wins: float, games: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval for a win rate (wins may be fractional, e.g. draws as halves).

    Returns (low, high) in [0, 1]; (0, 1) for no games.
    """
    if games < 0 or wins < 0 or wins > games:
        raise ValueError(f"need 0 <= wins <= games, got wins={wins}, games={games}")
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def elo_expected(rating_a: float, rating_b: float) -> float:
    """Expected score of A against B under the Elo model (400-point logistic scale)."""
    return 1.0 / (1.0 + 10 ** ((rating_b - rating_a) / 400))


def elo_ratings(score: np.ndarray, games: np.ndarray, anchor: int = 0, anchor_rating: float = 1000.0,
                iterations: int = 2000, prior_games: float = 1.0) -> np.ndarray:
    """Maximum-likelihood Elo ratings (Bradley-Terry) from pairwise results.

    ``score[i, j]``: points agent i took from its games against j (win 1, draw or truncation 0.5);
    ``games[i, j]``: games i played against j (symmetric). A weak prior (``prior_games`` drawn games
    against a virtual 1000-rated opponent) keeps unbeaten or winless agents finite. Agent ``anchor`` is
    pinned at ``anchor_rating``. Returns ratings [n].
    """
    score = np.asarray(score, dtype=float)
    games = np.asarray(games, dtype=float)
    n = score.shape[0]
    strength = np.ones(n)
    for _ in range(iterations):
        # minorise-maximise update of Bradley-Terry strengths (Hunter 2004), with the prior opponent
        wins = score.sum(axis=1) + 0.5 * prior_games
        denom = (games / (strength[:, None] + strength[None, :])).sum(axis=1) + prior_games / (strength + 1.0)
        new = wins / denom
        if np.allclose(new, strength, rtol=1e-12, atol=0):
            strength = new
            break
        strength = new
    ratings = 400 * np.log10(strength)
    return ratings - ratings[anchor] + anchor_rating
