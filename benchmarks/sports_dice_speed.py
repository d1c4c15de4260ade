"""Sports Dice engine speed: random legal actions over a batch, the legal mask read every step.

    python benchmarks/sports_dice_speed.py [--batch 4096] [--seconds 5] [--rules]

Counts the steps of live games only (a finished game ignores its action until the batch refills its
finished games, every 32 steps). ``--rules`` runs the rule functions instead of the table-driven path.
Reports steps per second and the machine's load average (the machine may be shared: run it with nice and
read the CPU-second rate too).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from gridiron_env.sports_dice import NUM_ACTIONS, SportsDiceConfig, engine, init, legal_action_mask, step

# A legal mask row is one of the engine's few patterns (phase x tied symbols): its packed 19-bit code
# indexes the count of legal actions and the k-th legal id, so a uniform legal action costs a handful of
# array operations.
_WEIGHTS = (1 << np.arange(NUM_ACTIONS)).astype(np.int64)
_COUNT = np.zeros(1 << NUM_ACTIONS, dtype=np.int64)
_KTH = np.zeros((1 << NUM_ACTIONS, 4), dtype=np.int64)
for _row in np.unique(engine._LEGAL, axis=0):
    _c = int(_row @ _WEIGHTS)
    _ids = np.flatnonzero(_row)
    _COUNT[_c] = _ids.size
    _KTH[_c, :_ids.size] = _ids


def random_legal(mask: np.ndarray, unit: np.ndarray) -> np.ndarray:
    """For each row of the bool mask [B, 19] the legal action at quantile ``unit`` (0 if none)."""
    packed = np.packbits(mask, axis=1, bitorder="little").astype(np.int64)  # [B, 3] bytes of the 19 bits
    code = packed[:, 0] | packed[:, 1] << 8 | packed[:, 2] << 16
    k = (unit * _COUNT[code]).astype(np.int64)
    return _KTH[code, np.minimum(k, 3)]


def run(batch: int, seconds: float, config: SportsDiceConfig, seed: int = 0) -> tuple[float, float, int]:
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
    p.add_argument("--rules", action="store_true", help="the rule functions, not the table-driven path")
    args = p.parse_args(argv)
    engine.FAST_PATH = not args.rules
    rate, cpu_rate, calls = run(args.batch, args.seconds, SportsDiceConfig())
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"sports dice ({'rule functions' if args.rules else 'tables'}), batch {args.batch}: {rate:,.0f} "
          f"steps/s wall, {cpu_rate:,.0f} steps per CPU second of this process ({calls} step calls; load "
          f"average {load:.1f} on {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
