"""Env speed: learner steps per second through each Gymnasium env kind, next to the raw engine.

    python benchmarks/env_speed.py [--env gridiron_env/Gridiron-v0] [--batches 1 2 4 8 16 64 1024 4096] [--seconds 5]

A learner step is one action of the learner in one game; the opponent's actions that follow (the default
uniformly random opponent, acting in batch inside the env) are not counted, so a learner step costs about
two engine actions. The learner plays uniformly random legal actions; observations are ``features``.
Rows: the single-agent env (one game, ``gymnasium.make``), the natively batched vector env
(``gymnasium.make_vec``) at each batch size, the stable-baselines3 adapter at each batch size, and the raw
engine (``benchmarks/engine_speed.py``: engine actions per second, no opponent, no observation).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere, installed or not
    sys.path.insert(0, str(ROOT))

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402

import gridiron_env  # noqa: F401,E402  (registers the ids)
from gridiron_env.envs.common import kth_legal  # noqa: E402
from gridiron_env.envs.sb3 import SB3VecEnv  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine_speed import measure as engine_measure  # noqa: E402


def _random_legal(rng, masks):
    """A uniformly random legal action per row of int8 masks (one mask: one action), as the envs' random
    opponent draws it: the k-th legal id, k drawn per row."""
    rows = np.atleast_2d(masks).view(bool)
    chosen = kth_legal(rows, rng.random(rows.shape[0]))
    return chosen if masks.ndim == 2 else chosen[0]


def single_env(env_id: str, seconds: float, seed: int = 0) -> float:
    env = gymnasium.make(env_id)
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, term, trunc, info = env.step(int(_random_legal(rng, info["action_mask"])))
        steps += 1
        if term or trunc:
            _, info = env.reset()
    return steps / (time.perf_counter() - start)


def vector_env(env_id: str, batch: int, seconds: float, seed: int = 0) -> float:
    env = gymnasium.make_vec(env_id, num_envs=batch)
    rng = np.random.default_rng(seed)
    _, infos = env.reset(seed=seed)
    resetting = np.zeros(batch, dtype=bool)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        # NEXT_STEP autoreset: a game that just ended is reset on this step and its action ignored; it is
        # not counted as a learner step.
        _, _, term, trunc, infos = env.step(_random_legal(rng, infos["action_mask"]))
        steps += int((~resetting).sum())
        resetting = term | trunc
    return steps / (time.perf_counter() - start)


def sb3_adapter(env_id: str, batch: int, seconds: float, seed: int = 0) -> float:
    venv = SB3VecEnv(env_id, num_envs=batch)
    rng = np.random.default_rng(seed)
    venv.seed(seed)
    venv.reset()
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        masks = np.stack(venv.env_method("action_masks"))  # as MaskablePPO asks for them
        venv.step(_random_legal(rng, masks))
        steps += batch
    return steps / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", default="gridiron_env/Gridiron-v0", help="the env id to time (default %(default)s)")
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 2, 4, 8, 16, 64, 1024, 4096],
                        help="games per batch of the vector env and the raw engine rows (default %(default)s)")
    parser.add_argument("--sb3-batches", type=int, nargs="+", default=[64, 1024],
                        help="games per batch of the SB3 adapter rows (default %(default)s)")
    parser.add_argument("--seconds", type=float, default=5.0, help="timed seconds per row (default %(default)s)")
    args = parser.parse_args()
    print(f"env: {args.env}; learner steps/s (random legal learner, random opponent inside, features)")
    print(f"{'what':<22} {'batch':>6} {'steps/s':>12}")
    print(f"{'single env (make)':<22} {1:>6} {single_env(args.env, args.seconds):>12,.0f}", flush=True)
    for batch in args.batches:
        print(f"{'vector env (make_vec)':<22} {batch:>6} {vector_env(args.env, batch, args.seconds):>12,.0f}",
              flush=True)
    for batch in args.sb3_batches:
        print(f"{'SB3 adapter':<22} {batch:>6} {sb3_adapter(args.env, batch, args.seconds):>12,.0f}", flush=True)
    for batch in dict.fromkeys([1] + args.batches):  # (batch 1 once)
        print(f"{'raw engine (actions/s)':<22} {batch:>6} {engine_measure(batch, args.seconds):>12,.0f}", flush=True)


if __name__ == "__main__":
    main()
