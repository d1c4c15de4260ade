"""Env speed: learner steps per second through each Gymnasium env kind, next to the raw engine.

    python benchmarks/env_speed.py [--env gridiron_env/Gridiron-v0] [--batches 1 2 4 8 16 64 1024 4096]
                                   [--seconds 5] [--rounds 5] [--clock cpu]

A learner step is one action of the learner in one game; the opponent's actions that follow (the default
uniformly random opponent, acting in batch inside the env) are not counted, so a learner step costs about
two engine actions. The learner plays uniformly random legal actions; observations are ``features``.
Rows: the single-agent env (one game, ``gymnasium.make``), the natively batched vector env
(``gymnasium.make_vec``) at each batch size, the stable-baselines3 adapter at each batch size, and the raw
engine (``benchmarks/engine_speed.py``: engine actions per second, no opponent, no observation).

Only the env's ``step`` calls are timed (the learner's random choice runs between them, off the clock).
As in engine_speed.py, the rows are measured in rounds, each round visiting every row for
``seconds / rounds``, and each figure is the median of its rounds'; ``--clock cpu`` times the process's
own CPU time (steadier on a shared machine).
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
from engine_speed import measure_table as engine_table  # noqa: E402

BATCHES = (1, 2, 4, 8, 16, 64, 1024, 4096)


def _random_legal(rng, masks):
    """A uniformly random legal action per row of int8 masks (one mask: one action), as the envs' random
    opponent draws it: the k-th legal id, k drawn per row."""
    rows = np.atleast_2d(masks).view(bool)
    chosen = kth_legal(rows, rng.random(rows.shape[0]))
    return chosen if masks.ndim == 2 else chosen[0]


class _Row:
    """One row of the table: an env played on across the rounds, only its ``step`` calls timed."""

    def __init__(self, clock, seed: int = 0):
        self.clock, self.rng, self.rounds = clock, np.random.default_rng(seed), []

    def play(self, seconds: float) -> None:
        clock, steps, timed = self.clock, 0, 0.0
        start = clock()
        while clock() - start < seconds:
            action = self.choose()
            t0 = clock()
            self.step(action)
            timed += clock() - t0
            steps += self.counted()
        self.rounds.append((steps, timed))

    @property
    def rate(self) -> float:
        """The median of the rounds' learner steps per second."""
        return float(np.median([steps / timed for steps, timed in self.rounds if timed > 0]))


class SingleEnv(_Row):
    """``gymnasium.make``: one game; a finished episode is reset on the clock (the learner's loop does)."""

    def __init__(self, env_id: str, clock, seed: int = 0):
        super().__init__(clock, seed)
        self.env = gymnasium.make(env_id)
        _, self.info = self.env.reset(seed=seed)

    def choose(self):
        return int(_random_legal(self.rng, self.info["action_mask"]))

    def step(self, action) -> None:
        _, _, term, trunc, self.info = self.env.step(action)
        if term or trunc:
            _, self.info = self.env.reset()

    def counted(self) -> int:
        return 1


class VectorEnv(_Row):
    """``gymnasium.make_vec`` with ``batch`` games (NEXT_STEP autoreset: a game that just ended is reset on
    the next step and its action ignored; that step is not counted as a learner step)."""

    def __init__(self, env_id: str, batch: int, clock, seed: int = 0):
        super().__init__(clock, seed)
        self.env = gymnasium.make_vec(env_id, num_envs=batch)
        _, self.infos = self.env.reset(seed=seed)
        self.resetting = np.zeros(batch, dtype=bool)
        self.learning = batch

    def choose(self):
        return _random_legal(self.rng, self.infos["action_mask"])

    def step(self, actions) -> None:
        self.learning = int((~self.resetting).sum())
        _, _, term, trunc, self.infos = self.env.step(actions)
        self.resetting = term | trunc

    def counted(self) -> int:
        return self.learning


class SB3Adapter(_Row):
    """The stable-baselines3 adapter with ``batch`` games; the masks asked for as MaskablePPO asks (timed)."""

    def __init__(self, env_id: str, batch: int, clock, seed: int = 0):
        super().__init__(clock, seed)
        self.venv, self.batch = SB3VecEnv(env_id, num_envs=batch), batch
        self.venv.seed(seed)
        self.venv.reset()

    def choose(self):
        return None  # (the choice needs the masks, asked for on the clock in step)

    def step(self, _) -> None:
        masks = np.stack(self.venv.env_method("action_masks"))
        self.venv.step(_random_legal(self.rng, masks))

    def counted(self) -> int:
        return self.batch


def measure_rows(rows: dict, seconds: float, rounds: int) -> dict:
    """{name: learner steps per second}: every row played for about ``seconds`` in all, in ``rounds``
    rounds that visit the rows in turn; a row's figure is the median of its rounds'."""
    for _ in range(rounds):
        for row in rows.values():
            row.play(seconds / rounds)
    return {name: row.rate for name, row in rows.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", default="gridiron_env/Gridiron-v0", help="the env id to time (default %(default)s)")
    parser.add_argument("--batches", type=int, nargs="+", default=list(BATCHES),
                        help="games per batch of the vector env and the raw engine rows (default %(default)s)")
    parser.add_argument("--sb3-batches", type=int, nargs="+", default=[64, 1024],
                        help="games per batch of the SB3 adapter rows (default %(default)s)")
    parser.add_argument("--seconds", type=float, default=5.0, help="timed seconds per row (default %(default)s)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds the seconds are spread over (default %(default)s)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="wall: time.perf_counter; cpu: the process's CPU time (time.process_time)")
    args = parser.parse_args()
    clock = time.perf_counter if args.clock == "wall" else time.process_time
    rows = {("single env (make)", 1): SingleEnv(args.env, clock)}
    rows.update({("vector env (make_vec)", b): VectorEnv(args.env, b, clock) for b in args.batches})
    rows.update({("SB3 adapter", b): SB3Adapter(args.env, b, clock) for b in args.sb3_batches})
    table = measure_rows(rows, args.seconds, args.rounds)
    print(f"env: {args.env}; learner steps/s (random legal learner, random opponent inside, features; "
          f"{args.clock} clock, median of {args.rounds} rounds)")
    print(f"{'what':<22} {'batch':>6} {'steps/s':>12}")
    for (what, batch), rate in table.items():
        print(f"{what:<22} {batch:>6} {rate:>12,.0f}")
    engine = engine_table(list(dict.fromkeys([1] + args.batches)), args.seconds, args.rounds, clock=clock,
                          columns=("step",))
    for batch, row in engine.items():
        print(f"{'raw engine (actions/s)':<22} {batch:>6} {row['step']:>12,.0f}", flush=True)


if __name__ == "__main__":
    main()
