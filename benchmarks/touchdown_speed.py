"""Touchdown engine speed: random legal actions over a batch, the legal mask read every step.

    python benchmarks/touchdown_speed.py [--batch 4096] [--seconds 10] [--warmup 60]

The issue's target: at least 300,000 engine steps per second at batch 4096. Counts the steps of live
games only (a finished game ignores its action until the batch refills its finished games, every 32
steps). A random legal action per game is the argmax of 16-bit noise over its legal ids. Reports
steps per wall second, per CPU second of this process, and the machine's load average (the machine may
be shared: run it with nice and read the CPU-second rate too).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from gridiron_env.touchdown import TouchdownConfig, init, legal_action_mask, step  # noqa: E402


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """For each row of the bool mask [B, A] a random legal action (0 if none): the argmax of 16-bit noise
    (1-65535) over the legal ids, uniform up to ties of the noise (under 0.1% of the picks)."""
    noise = np.frombuffer(rng.bytes(mask.size * 2), dtype=np.uint16).reshape(mask.shape) | np.uint16(1)
    noise *= mask  # 0 on the illegal ids (in place: the picker's cost counts in the steps per second)
    return np.argmax(noise, axis=1)


def run(batch: int, seconds: float, config: TouchdownConfig, seed: int = 0, warmup: int = 60):
    """(steps per wall second, steps per CPU second of this process, step calls)."""
    state = init(batch, seed, config)
    rng = np.random.default_rng(seed)
    for _ in range(warmup):  # past the opening kick-offs and line-ups, into the plays
        state = step(state, random_legal(legal_action_mask(state), rng), config, reuse_input=True)
    steps = n = 0
    next_seed = seed + batch
    t0, c0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        for _ in range(32):
            mask = legal_action_mask(state)
            actions = random_legal(mask, rng)
            steps += batch - int(np.count_nonzero(state.terminated | state.truncated))
            state = step(state, actions, config, reuse_input=True)
            n += 1
        done = np.flatnonzero(state.terminated | state.truncated)
        if done.size:
            state.put(done, init(int(done.size), next_seed, config))
            next_seed += int(done.size)
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
    return steps / elapsed, steps / cpu, n


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--batch", type=int, default=4096, help="games stepped at once (default %(default)s)")
    p.add_argument("--seconds", type=float, default=10.0, help="timed seconds (default %(default)s)")
    p.add_argument("--warmup", type=int, default=60, help="untimed steps first, past the kick-offs into the plays (default %(default)s)")
    args = p.parse_args(argv)
    rate, cpu_rate, calls = run(args.batch, args.seconds, TouchdownConfig(), warmup=args.warmup)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"touchdown, batch {args.batch}: {rate:,.0f} steps/s wall, {cpu_rate:,.0f} steps per CPU second of "
          f"this process ({calls} step calls; load average {load:.1f} on {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
