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
    return _ratings(score[None], games[None], anchor, anchor_rating, iterations, prior_games)[0]


def _ratings(score, games, anchor, anchor_rating, iterations, prior_games):
    """``elo_ratings`` of a stack of results: score and games [B, n, n]; returns [B, n]."""
    strength = np.ones(score.shape[:2])
    wins = score.sum(axis=2) + 0.5 * prior_games
    for _ in range(iterations):
        # minorise-maximise update of Bradley-Terry strengths (Hunter 2004), with the prior opponent
        denom = (games / (strength[:, :, None] + strength[:, None, :])).sum(axis=2) + prior_games / (strength + 1.0)
        new = wins / denom
        if np.allclose(new, strength, rtol=1e-12, atol=0):
            strength = new
            break
        strength = new
    ratings = 400 * np.log10(strength)
    return ratings - ratings[:, anchor:anchor + 1] + anchor_rating


def _newton_ratings(score, games, prior_games: float, start, iterations: int = 100) -> np.ndarray:
    """The maximum of :func:`elo_ratings`' likelihood (its prior included) for a stack of results, score
    and games [B, n, n], by Newton's method on the log strengths from ``start`` [n] (natural log units);
    returns Elo [B, n] before anchoring. The prior makes the likelihood strictly concave; steps are capped
    at 2 (about 350 Elo) so that a far start cannot overshoot."""
    theta = np.broadcast_to(np.asarray(start, dtype=float), score.shape[:2]).copy()
    wins = score.sum(axis=2) + 0.5 * prior_games
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(theta[:, None, :] - theta[:, :, None]))  # p[b, i, j]: i beats j
        prior = 1.0 / (1.0 + np.exp(-theta))  # against the virtual opponent of strength 1 (theta 0)
        gradient = wins - (games * p).sum(axis=2) - prior_games * prior
        curvature = games * p * (1 - p)
        hessian = curvature - np.eye(theta.shape[1]) * (curvature.sum(axis=2) + prior_games * prior * (1 - prior))[:, :, None]
        step = np.linalg.solve(hessian, -gradient[:, :, None])[:, :, 0]
        step = np.clip(step, -2.0, 2.0)
        theta = theta + step
        if np.abs(step).max() < 1e-10:
            break
    return 400 / np.log(10) * theta


def elo_intervals(wins: np.ndarray, draws: np.ndarray, anchor: int = 0, anchor_rating: float = 1000.0,
                  level: float = 0.95, samples: int = 1000, seed: int = 0,
                  prior_games: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Bootstrap intervals of :func:`elo_ratings`: (low [n], high [n]), each agent's rating relative to the
    ``anchor`` (whose interval is its fixed rating).

    ``wins[i, j]``: games agent i won against j; ``draws[i, j]`` (symmetric): drawn or truncated games of
    the pair. Each of ``samples`` resamples draws every pair's games with replacement from the games it
    played, as many as it played; the ratings of each resample are those of ``elo_ratings`` (its prior
    included, so they stay finite), and the interval is their central ``level`` quantiles (percentile
    bootstrap). A pair one agent never lost is never lost in a resample either: the games put no upper
    bound on how much stronger it is, and its upper end is held by the prior alone. Deterministic in
    ``seed``.
    """
    wins = np.asarray(wins, dtype=float)
    draws = np.asarray(draws, dtype=float)
    n = wins.shape[0]
    if wins.shape != (n, n) or draws.shape != (n, n) or (wins < 0).any() or (draws < 0).any() \
            or not np.array_equal(draws, draws.T):
        raise ValueError("wins and draws must be non-negative n x n matrices, draws symmetric")
    if not 0 < level < 1 or samples < 1 or not prior_games > 0:
        raise ValueError(f"need 0 < level < 1, samples >= 1 and prior_games > 0, got level={level}, "
                         f"samples={samples}, prior_games={prior_games}")
    rng = np.random.default_rng(seed)
    score = np.zeros((samples, n, n))
    games = np.zeros((samples, n, n))
    for i in range(n):
        for j in range(i + 1, n):
            w, d, l = wins[i, j], draws[i, j], wins[j, i]
            m = int(round(w + d + l))
            if m == 0:
                continue
            shares = np.array([w, d, l]) / m
            drawn = rng.multinomial(m, shares, size=samples)  # [samples, 3]: won, drawn, lost
            score[:, i, j] = drawn[:, 0] + 0.5 * drawn[:, 1]
            score[:, j, i] = drawn[:, 2] + 0.5 * drawn[:, 1]
            games[:, i, j] = games[:, j, i] = m
    observed = _newton_ratings((wins + 0.5 * draws)[None], (wins + wins.T + draws)[None], prior_games, np.zeros(n))
    ratings = _newton_ratings(score, games, prior_games, np.log(10) / 400 * observed[0])  # each resample is near
    ratings = ratings - ratings[:, anchor:anchor + 1] + anchor_rating
    tail = (1 - level) / 2
    low, high = np.quantile(ratings, [tail, 1 - tail], axis=0)
    return low, high
