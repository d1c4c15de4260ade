"""PettingZoo env speed: agent steps per second of one game, next to the raw engine and SelfPlayBatch.

    python benchmarks/pettingzoo_speed.py [--seconds 5] [--batches 1 64 1024]

Rows (every one plays uniformly random legal actions, restarting finished games):

- ``engine batch 1``: ``core.step`` on a batch of one (the mask read included), no observation;
- ``engine + observe``: the same plus the ``features`` encoder once per step (what any env must add);
- ``raw_env``: ``last()`` (observation + mask of the agent to act) then ``step(action)``;
- ``env`` (wrapped): the same through PettingZoo's OrderEnforcing wrapper;
- ``connect_four_v3``: PettingZoo's own classic game, the same loop, for scale;
- ``SelfPlayBatch N``: game-steps per second (N x batch steps / s) of the batched two-team env, autoreset on.

The issue's target for one PettingZoo game is 5,000 steps/s. The env's own work per step is one engine step,
one observation of the acting team (cached: ``observe`` is not recomputed for the same state), an int8 mask and
a few dict updates, so its speed is bounded by the engine's batch-1 step plus the encoder's batch-1 call.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import gridiron_env as g
from gridiron_env.core import observe
from gridiron_env.envs.pettingzoo_env import raw_env
from gridiron_env.envs.selfplay import SelfPlayBatch


def _rate(loop, seconds: float) -> float:
    loop(20)  # warm-up
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += loop(200)
    return steps / (time.perf_counter() - start)


def engine(seconds: float, with_observation: bool) -> float:
    rng = np.random.default_rng(0)
    config = g.GameConfig()
    box = {"s": g.init(1, seed=0, config=config), "seed": 0}

    def loop(k):
        s = box["s"]
        for _ in range(k):
            if s.to_act[0] < 0:
                box["seed"] += 1
                s = g.init(1, seed=box["seed"], config=config)
            legal = s.legal[0]
            if with_observation:
                observe(s, s.to_act, config)
            s = g.step(s, np.array([(rng.random(legal.shape) * legal).argmax()]), config=config)
        box["s"] = s
        return k

    return _rate(loop, seconds)


def aec(make_env, seconds: float) -> float:
    rng = np.random.default_rng(0)
    e = make_env()
    e.reset(seed=0)

    def loop(k):
        for _ in range(k):
            if not e.agents:
                e.reset()
            obs, reward, term, trunc, info = e.last()
            if term or trunc:
                e.step(None)
            else:
                mask = obs["action_mask"]
                e.step(int((rng.random(mask.shape) * mask).argmax()))
        return k

    return _rate(loop, seconds)


def selfplay(n: int, seconds: float) -> float:
    rng = np.random.default_rng(0)
    b = SelfPlayBatch(n, autoreset=True)
    box = {"t": b.reset(seed=0)}

    def loop(k):
        k = max(1, k // n)
        t = box["t"]
        for _ in range(k):
            t = b.step((rng.random(t.action_mask.shape) * t.action_mask).argmax(1))
        box["t"] = t
        return k * n

    return _rate(loop, seconds)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="timed seconds per row (default %(default)s)")
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 64, 1024],
                        help="games per batch of the SelfPlayBatch rows (default %(default)s)")
    args = parser.parse_args()
    rows = [
        ("engine batch 1", lambda: engine(args.seconds, False)),
        ("engine + observe", lambda: engine(args.seconds, True)),
        ("raw_env", lambda: aec(raw_env, args.seconds)),
        ("env (wrapped)", lambda: aec(g.env, args.seconds)),
    ]
    try:
        from pettingzoo.classic import connect_four_v3

        rows.append(("connect_four_v3", lambda: aec(connect_four_v3.env, args.seconds)))
    except ImportError:  # it needs pygame, which this project does not install
        print("connect_four_v3 skipped: pygame is not installed")
    rows += [(f"SelfPlayBatch {n}", (lambda n=n: selfplay(n, args.seconds))) for n in args.batches]
    print(f"{'':<20} {'steps/s':>12}")
    for name, run in rows:
        print(f"{name:<20} {run():>12,.0f}", flush=True)
    print("target for one PettingZoo game: 5,000 steps/s")


if __name__ == "__main__":
    main()
