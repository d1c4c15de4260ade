"""Engine speed by batch size: game-steps per second with random legal actions, and the state's size.

    python benchmarks/engine_speed.py [--batches 1 2 4 8 16 64 1024 4096] [--seconds 5] [--clock cpu]

A step is one action in each game of the batch; steps/s counts game-steps (batch x calls / s), so a flat
row means a game costs the same whatever the batch, and the figure should never fall as the batch grows.
Three columns: ``step`` returning a new state (the default), ``step(..., reuse_input=True)``, which
updates the state in place, and ``env call``: the in-place step, ``legal_action_mask`` and ``observe``,
the three calls an env makes per step. Only those engine calls are timed: the random agent and the resets
of finished games (``init`` into their rows) run between them, off the clock.

The batch sizes are measured in rounds, each round visiting every size for ``seconds / rounds``, so a
slower minute of a shared machine weighs on all of them alike, and each figure is the median of its
rounds' figures; ``--clock cpu`` times the process's own CPU
time instead of the wall clock (steadier when other jobs share the cores; the same figure on an idle one).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere, installed or not
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import gridiron_env as g  # noqa: E402
from gridiron_env.core import State, observe  # noqa: E402
from gridiron_env.envs.common import kth_legal  # noqa: E402

BATCHES = (1, 2, 4, 8, 16, 64, 1024, 4096)
COLUMNS = ("step", "in place", "env call")


def random_legal_actions(rng: np.random.Generator, legal: np.ndarray) -> np.ndarray:
    """A uniformly random legal action in each game (0 in a finished game, which ignores it): the k-th of
    its legal ids, k drawn per game (the envs' random opponent), so the benchmark's agent costs little next
    to the engine."""
    if legal.shape[0] == 1:  # one game: a single numpy call, not the batch's dozen
        ids = np.flatnonzero(legal[0])
        return np.array([ids[int(rng.random() * ids.size)] if ids.size else 0])
    return kth_legal(legal, rng.random(legal.shape[0]))


class _Run:
    """One column's games at one batch size, played on across the rounds (timed calls only)."""

    def __init__(self, batch: int, column: str, seed: int, clock):
        self.config = g.GameConfig()
        self.rng = np.random.default_rng(seed)
        self.state = g.init(batch, seed=seed, config=self.config)
        self.column, self.clock = column, clock
        self.rounds = []  # (game-steps, timed seconds) of each round

    def play(self, seconds: float) -> None:
        config, clock, s, column = self.config, self.clock, self.state, self.column
        in_place, env_call = column != "step", column == "env call"
        steps, timed = 0, 0.0
        start = clock()
        while clock() - start < seconds:
            action = random_legal_actions(self.rng, s.legal)
            t0 = clock()
            s = g.step(s, action, config=config, reuse_input=in_place)
            if env_call:
                g.legal_action_mask(s)
                observe(s, config=config)
            timed += clock() - t0
            steps += s.batch_size
            done = np.flatnonzero(s.terminated | s.truncated)
            if done.size:
                s.put(done, g.init(done.size, seed=int(self.rng.integers(1 << 31)), config=config))
        self.state = s
        self.rounds.append((steps, timed))

    @property
    def rate(self) -> float:
        """The median of the rounds' game-steps per second (a spell of a busy machine moves it little)."""
        return float(np.median([steps / timed for steps, timed in self.rounds if timed > 0]))


def measure_table(batches=BATCHES, seconds: float = 5.0, rounds: int = 5, seed: int = 0,
                  clock=time.perf_counter, columns=COLUMNS) -> dict:
    """{batch: {column: game-steps per second}}, each cell played for about ``seconds`` in all, spread over
    ``rounds`` rounds that visit every batch size and column in turn; a cell's figure is the median of its
    rounds'."""
    runs = {(b, c): _Run(b, c, seed, clock) for b in batches for c in columns}
    share = seconds / rounds
    for _ in range(rounds):
        for run in runs.values():
            run.play(share)
    return {b: {c: runs[b, c].rate for c in columns} for b in batches}


def measure(batch: int, seconds: float, seed: int = 0, reuse_input: bool = False) -> float:
    """Game-steps per second of ``step`` alone at one batch size (``reuse_input``: the in-place step)."""
    column = "in place" if reuse_input else "step"
    return measure_table([batch], seconds, rounds=1, seed=seed, columns=(column,))[batch][column]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--batches", type=int, nargs="+", default=list(BATCHES),
                        help="batch sizes to measure (default: %(default)s)")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per batch size and column")
    parser.add_argument("--rounds", type=int, default=5, help="rounds the seconds are spread over")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="wall: time.perf_counter; cpu: the process's CPU time (time.process_time)")
    args = parser.parse_args()
    clock = time.perf_counter if args.clock == "wall" else time.process_time
    print(f"state: {State.bytes_per_game()} bytes per game; game-steps per second ({args.clock} clock)")
    table = measure_table(args.batches, args.seconds, args.rounds, clock=clock)
    print(f"{'batch':>6}" + "".join(f"  {c:>12}" for c in COLUMNS))
    for batch, row in table.items():
        print(f"{batch:>6}" + "".join(f"  {row[c]:>12,.0f}" for c in COLUMNS), flush=True)


if __name__ == "__main__":
    main()
