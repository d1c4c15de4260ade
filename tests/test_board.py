"""The scripted agents' least-cost maps (agents.board.least_cost) against a plain square-by-square
reference of the same rule: rule 13's step costs (1 straight, 2 diagonal, times the mover's multiplier),
a weak lineman's square entered for a flat 2 (rule 14), at most ``iters`` relaxations."""

import numpy as np
import pytest

from agents.board import BIG, least_cost
from gridiron_env.core.geometry import N_LANES, N_ROWS, N_SQUARES


def reference_least_cost(start, enter, mult, iters, swap=None):
    """Each relaxation sets every square to its cheapest way in from one of its eight neighbours, all
    squares at once from the costs before it; costs never exceed BIG."""
    games = start.shape[0]
    cost = np.minimum(start, BIG).reshape(games, N_ROWS, N_LANES).astype(np.int64)
    enter = enter.reshape(games, N_ROWS, N_LANES)
    swap = np.zeros_like(enter) if swap is None else swap.reshape(games, N_ROWS, N_LANES)
    for game in range(games):
        for _ in range(iters):
            before = cost[game].copy()
            for row in range(N_ROWS):
                for lane in range(N_LANES):
                    for d_row in (-1, 0, 1):
                        for d_lane in (-1, 0, 1):
                            r, l = row + d_row, lane + d_lane
                            if (d_row, d_lane) == (0, 0) or not (0 <= r < N_ROWS and 0 <= l < N_LANES):
                                continue
                            step = (1 if 0 in (d_row, d_lane) else 2) * int(mult[game])
                            if enter[game, row, lane]:
                                cost[game, row, lane] = min(cost[game, row, lane], before[r, l] + step)
                            if swap[game, row, lane]:
                                cost[game, row, lane] = min(cost[game, row, lane], before[r, l] + 2)
    return np.minimum(cost, BIG).reshape(games, N_SQUARES)


@pytest.mark.parametrize("case", range(6))
def test_least_cost_is_the_plain_relaxation_of_the_step_costs(case):
    rng = np.random.default_rng(case)
    games = 3
    start = np.full((games, N_SQUARES), BIG, dtype=np.int32)
    for game in range(games):
        start[game, rng.integers(0, N_SQUARES, 2)] = rng.integers(0, 4, 2)
    enter = rng.random((games, N_SQUARES)) < 0.8
    swap = rng.random((games, N_SQUARES)) < 0.05 if case % 2 else None
    mult = rng.integers(1, 3, games)  # 2: a quarterback without Speedy QB
    iters = (4, 9, 30)[case % 3]
    got = least_cost(start, enter, mult, iters, swap)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, reference_least_cost(start, enter, mult, iters, swap))
    # the relaxations stop early once nothing changes: more of them change nothing past the fixed point
    np.testing.assert_array_equal(least_cost(start, enter, mult, 200, swap),
                                  reference_least_cost(start, enter, mult, 60, swap))
