"""Engine speed: agent steps per second with random legal actions (mask included), and state size.

    python benchmarks/engine_speed.py [--batches 1 64 1024 4096] [--seconds 5]

A step here is one action in each game of the batch; steps/s counts game-steps (batch x batch steps).
Finished games are reset in place so the batch stays full. Two columns: ``step`` returning a new state
(the default), and ``step(..., reuse_input=True)``, which updates the state in place (what the envs do).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import gridiron_env as g
from gridiron_env.core import State
from gridiron_env.envs.common import kth_legal


def random_legal_actions(rng: np.random.Generator, legal: np.ndarray) -> np.ndarray:
    """A uniformly random legal action in each game (0 in a finished game, which ignores it): the k-th of
    its legal ids, k drawn per game (the envs' random opponent), so the benchmark's agent costs little next
    to the engine."""
    if legal.shape[0] == 1:  # one game: a single numpy call, not the batch's dozen
        ids = np.flatnonzero(legal[0])
        return np.array([ids[int(rng.random() * ids.size)] if ids.size else 0])
    return kth_legal(legal, rng.random(legal.shape[0]))


def measure(batch: int, seconds: float, seed: int = 0, reuse_input: bool = False) -> float:
    """Game-steps per second; ``reuse_input``: step with ``reuse_input=True`` (the state updated in place,
    as the envs step their own state) instead of the default copy-and-return."""
    config = g.GameConfig()
    rng = np.random.default_rng(seed)
    s = g.init(batch, seed=seed, config=config)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        action = random_legal_actions(rng, s.legal)
        s = g.step(s, action, config=config, reuse_input=reuse_input)
        done = np.flatnonzero(s.terminated | s.truncated)
        if done.size:
            s.put(done, g.init(done.size, seed=int(rng.integers(1 << 31)), config=config))
        steps += batch
    return steps / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 64, 1024, 4096])
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    print(f"state: {State.bytes_per_game()} bytes per game")
    print(f"{'batch':>6}  {'steps/s':>12}  {'in place':>12}")
    for batch in args.batches:
        copied = measure(batch, args.seconds)
        in_place = measure(batch, args.seconds, reuse_input=True)
        print(f"{batch:>6}  {copied:>12,.0f}  {in_place:>12,.0f}", flush=True)


if __name__ == "__main__":
    main()
