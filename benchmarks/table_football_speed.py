"""Table Football engine speed: random legal actions over a batch, the legal mask read every step.

    python benchmarks/table_football_speed.py [--batch 4096] [--seconds 5] [--clock] [--recovery]

Counts the steps of live games only (a finished game ignores its action until the batch refills its
finished games, every 32 steps). Reports steps per second and the machine's load average.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from gridiron_env.table_football import TableFootballConfig, init, legal_action_mask, step


# A legal mask row is one of a few 7-bit patterns: its packed code indexes the count of legal actions
# and the k-th legal id, so a uniform legal action costs a handful of array operations.
_CODES = np.arange(128)
_BITS = (_CODES[:, None] >> np.arange(7)) & 1
_COUNT = _BITS.sum(axis=1)
_KTH = np.zeros((128, 8), dtype=np.int64)
for _c in range(128):
    _ids = np.flatnonzero(_BITS[_c])
    _KTH[_c, :_ids.size] = _ids


def random_legal(mask: np.ndarray, unit: np.ndarray) -> np.ndarray:
    """For each row of the bool mask [B, 7] the legal action at quantile ``unit`` (0 if none)."""
    code = np.packbits(mask, axis=1, bitorder="little")[:, 0]
    k = (unit * _COUNT[code]).astype(np.int64)
    return _KTH[code, k]


def run(batch: int, seconds: float, config: TableFootballConfig, seed: int = 0) -> tuple[float, float, int]:
    """(steps per wall second, steps per CPU second of this process, step calls)."""
    state = init(batch, seed, config)
    rng = np.random.default_rng(seed)
    steps = 0
    t0 = time.perf_counter()
    c0 = time.process_time()
    n = 0
    next_seed = seed + batch
    while time.perf_counter() - t0 < seconds:
        for _ in range(32):
            mask = legal_action_mask(state)
            actions = random_legal(mask, rng.random(batch))
            steps += batch - int(np.count_nonzero(state.terminated | state.truncated))
            state = step(state, actions, config, reuse_input=True)
            n += 1
        done = np.flatnonzero(state.terminated | state.truncated)
        if done.size:
            state.put(done, init(int(done.size), next_seed, config))
            next_seed += int(done.size)
    elapsed = time.perf_counter() - t0
    cpu = time.process_time() - c0
    return steps / elapsed, steps / cpu, n


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--batch", type=int, default=4096)
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--clock", action="store_true", help="the clock version")
    p.add_argument("--recovery", action="store_true", help="the recovery option on")
    args = p.parse_args(argv)
    config = TableFootballConfig(clock=args.clock, recovery_option=args.recovery)
    rate, cpu_rate, calls = run(args.batch, args.seconds, config)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"table football ({'clock' if args.clock else 'basic'}{', recovery' if args.recovery else ''}), "
          f"batch {args.batch}: {rate:,.0f} steps/s wall, {cpu_rate:,.0f} steps per CPU second of this "
          f"process ({calls} step calls; load average {load:.1f} on {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
