"""The small games' engine speed (Table Football, Sports Dice): random legal actions over a batch, the
legal mask read every step. ``benchmarks/table_football_speed.py`` and ``benchmarks/sports_dice_speed.py``
call :func:`main` with their game's package and options.

Counts the steps of live games only (a finished game ignores its action until the batch refills its
finished games, every 32 steps). Reports steps per wall second, steps per CPU second of this process (the
machine may be shared: run it with nice and read both) and the machine's load average.
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


def legal_picker(num_actions: int, rows=None):
    """``pick(mask, unit) -> int64 [B]``: for each row of the bool mask [B, num_actions] the legal action at
    quantile ``unit`` (float [B] in [0, 1)), 0 for a row with none. A mask row is one of a few patterns
    (``rows``, bool [R, num_actions]; None: every pattern): its packed little-endian code indexes the count
    of legal actions and the k-th legal id, so a uniform legal action costs a handful of array operations."""
    if rows is None:
        codes = np.arange(1 << num_actions)
        rows = ((codes[:, None] >> np.arange(num_actions)) & 1).astype(bool)
    rows = np.unique(np.asarray(rows, dtype=bool), axis=0)
    weights = (1 << np.arange(num_actions)).astype(np.int64)
    count = np.zeros(1 << num_actions, dtype=np.int64)
    kth = np.zeros((1 << num_actions, max(1, int(rows.sum(axis=1).max()))), dtype=np.int64)
    for row in rows:
        code = int(row @ weights)
        ids = np.flatnonzero(row)
        count[code] = ids.size
        kth[code, :ids.size] = ids
    n_bytes = (num_actions + 7) // 8
    bits8 = (1 << np.arange(num_actions)).astype(np.uint8)

    def pick(mask: np.ndarray, unit: np.ndarray) -> np.ndarray:
        if n_bytes == 1:  # the packed code as a uint8 dot product (< 256; packbits along rows is slow)
            code = np.asarray(mask, dtype=bool).view(np.uint8) @ bits8
        else:
            packed = np.packbits(mask, axis=1, bitorder="little")  # [B, n_bytes]
            packed = packed.astype(np.int64)
            code = packed[:, 0]
            for b in range(1, n_bytes):
                code = code | packed[:, b] << 8 * b
        k = (unit * count[code]).astype(np.int64)  # < count: unit < 1
        return kth[code, k]

    return pick


def run(game, config, batch: int = 4096, seconds: float = 5.0, seed: int = 0, pick=None) -> tuple[float, float, int]:
    """(steps per wall second, steps per CPU second of this process, step calls) of ``game`` (a small game's
    package: ``init``, ``step``, ``legal_action_mask``, ``NUM_ACTIONS``) under ``config``."""
    pick = pick or legal_picker(game.NUM_ACTIONS)
    state = game.init(batch, seed, config)
    rng = np.random.default_rng(seed)
    steps = 0
    t0 = time.perf_counter()
    c0 = time.process_time()
    n = 0
    next_seed = seed + batch
    while time.perf_counter() - t0 < seconds:
        for _ in range(32):
            mask = game.legal_action_mask(state)
            actions = pick(mask, rng.random(batch))
            steps += batch - int(np.count_nonzero(state.terminated | state.truncated))
            state = game.step(state, actions, config, reuse_input=True)
            n += 1
        done = np.flatnonzero(state.terminated | state.truncated)
        if done.size:
            state.put(done, game.init(int(done.size), next_seed, config))
            next_seed += int(done.size)
    elapsed = time.perf_counter() - t0
    cpu = time.process_time() - c0
    return steps / elapsed, steps / cpu, n


def main(game, title: str, make_config, argv=None, options=(), label=None, mask_rows=None,
         description: str = "") -> None:
    """The command line of a game's benchmark: ``--batch`` (4096), ``--seconds`` (5), ``--rules`` (the
    rule functions, not the engine's table-driven path) and the game's ``options`` (flag, help) pairs;
    ``make_config(args)`` the config, ``label(args)`` the run's name in the printed line."""
    p = argparse.ArgumentParser(description=description or f"{title} engine speed")
    p.add_argument("--batch", type=int, default=4096, help="games stepped at once (default %(default)s)")
    p.add_argument("--seconds", type=float, default=5.0, help="timed seconds (default %(default)s)")
    p.add_argument("--rules", action="store_true", help="the rule functions, not the table-driven path")
    for flag, help_text in options:
        p.add_argument(flag, action="store_true", help=help_text)
    args = p.parse_args(argv)
    game.engine.FAST_PATH = not args.rules
    config = make_config(args)
    pick = legal_picker(game.NUM_ACTIONS, mask_rows)
    rate, cpu_rate, calls = run(game, config, args.batch, args.seconds, pick=pick)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    name = label(args) if label else ("rule functions" if args.rules else "tables")
    print(f"{title} ({name}), batch {args.batch}: {rate:,.0f} steps/s wall, {cpu_rate:,.0f} steps per CPU "
          f"second of this process ({calls} step calls; load average {load:.1f} on {os.cpu_count()} cores)")
