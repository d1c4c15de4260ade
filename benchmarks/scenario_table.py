"""The baselines on every scenario (gridiron_env.SCENARIOS): the README's and the docs' "Scenarios" table.

    python benchmarks/scenario_table.py                 # 400 drives a cell, seed 2024
    python benchmarks/scenario_table.py --games 60      # a quick look
    python benchmarks/scenario_table.py --out runs/scen # also write table.md and cells.csv there

Every cell plays ``--games`` drives from the scenario (the games seeded ``seed .. seed + games - 1``, so
each matchup meets the same positions: team on offence, lanes, rows and specials drawn from the seed), the
attacking agent on the team on offence at the start and the defending agent on the other, until the ball
changes hands (a score, a kick, a turnover, downs) or the game ends. The cell is the attacking side's
scoring rate: the share of drives in which its team scored (a touchdown or a field goal; in the blind
scramble the drive goes on after the recovery) with its 95% Wilson interval. The matchups: each baseline
on both sides (random, heuristic, the shipped bot ``gridiron_env/data/bot.npz`` at its default level
``agents.bot.DEFAULT_LEVEL``), then the bot attacking the heuristic and the heuristic attacking the bot.
The config is the default ``GameConfig()`` (specials on) unless ``--no-specials`` or ``--target``.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from agents.bot import DEFAULT_LEVEL, BotAgent  # noqa: E402
from agents.heuristic import HeuristicAgent  # noqa: E402
from agents.random_agent import RandomAgent  # noqa: E402
from gridiron_env.config import GameConfig  # noqa: E402
from gridiron_env.core.engine import step  # noqa: E402
from gridiron_env.scenarios import SCENARIOS  # noqa: E402
from train.ratings import wilson_interval  # noqa: E402

DEFAULT_BOT = ROOT / "gridiron_env" / "data" / "bot.npz"
MATCHUPS = (("random", "random"), ("heuristic", "heuristic"), ("bot", "bot"), ("bot", "heuristic"),
            ("heuristic", "bot"))
MAX_ROUNDS = 20_000  # engine steps per cell: far more than a drive needs (its rolls are capped)


def make_agent(name: str, bot_path):
    if name == "random":
        return RandomAgent()
    if name == "heuristic":
        return HeuristicAgent()
    return BotAgent.load(bot_path, name="bot", level=DEFAULT_LEVEL)


def play_drives(scenario, attacker, defender, games: int, seed: int, config: GameConfig) -> dict:
    """``games`` drives of ``scenario`` (games seeded seed + i): {scored: bool [games], touchdown: bool
    [games], points: int [games] (the attacking team's), seconds}."""
    seeds = np.arange(seed, seed + games, dtype=np.uint64)
    s = scenario.build(seeds, config)
    attack = s.offence.astype(np.int64)
    rows = np.arange(games)
    score0, drives0 = s.score.astype(np.int64), s.drives.copy()
    for agent in (attacker, defender):
        agent.reset(seeds.astype(np.int64))
    start = time.perf_counter()
    for _ in range(MAX_ROUNDS):
        live = ~(s.terminated | s.truncated) & (s.drives == drives0).all(axis=1)
        if not live.any():
            break
        actions = np.zeros(games, dtype=np.int64)
        for agent, turn in ((attacker, live & (s.to_act == attack)), (defender, live & (s.to_act != attack))):
            idx = np.flatnonzero(turn)
            if idx.size:
                actions[idx] = np.asarray(agent.act(s, config, games=idx))[idx]
        s = step(s, actions, config=config, active=live)
    else:
        raise RuntimeError(f"{scenario.name}: drives still going after {MAX_ROUNDS} steps")
    points = s.score[rows, attack].astype(np.int64) - score0[rows, attack]
    # a touchdown is 6 (7 with its extra point); a field goal 3
    return {"scored": points > 0, "touchdown": points >= 6, "points": points,
            "seconds": time.perf_counter() - start}


def cell(scored: np.ndarray) -> str:
    low, high = wilson_interval(float(scored.sum()), int(scored.size))
    return f"{scored.mean():.1%} ({low:.1%}-{high:.1%})"


def table(results: dict, games: int) -> str:
    heads = [f"{a} vs {d}" for a, d in MATCHUPS]
    lines = ["| scenario | " + " | ".join(heads) + " |", "|---" * (len(heads) + 1) + "|"]
    for name, cells in results.items():
        lines.append(f"| `{name}` | " + " | ".join(cell(cells[m]["scored"]) for m in MATCHUPS) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400, help="drives per cell (default 400)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the first drive (default 2024)")
    parser.add_argument("--bot", type=Path, default=DEFAULT_BOT, help="the bot file (default: the shipped bot)")
    parser.add_argument("--only", nargs="*", choices=list(SCENARIOS), help="these scenarios only")
    parser.add_argument("--no-specials", action="store_true", help="play with GameConfig(specials=False)")
    parser.add_argument("--target", type=int, default=None, help="the target score (default: the config's 21)")
    parser.add_argument("--out", type=Path, default=None, help="a folder to write table.md and cells.csv to")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    fields = {"specials": not args.no_specials}
    if args.target is not None:
        fields["target_score"] = args.target
    config = GameConfig(**fields)
    agents = {name: make_agent(name, args.bot) for name in ("random", "heuristic", "bot")}
    results: dict = {}
    for name in args.only or SCENARIOS:
        results[name] = {}
        for a, d in MATCHUPS:
            out = play_drives(SCENARIOS[name], agents[a], agents[d], args.games, args.seed, config)
            results[name][(a, d)] = out
            print(f"{name:16s} {a:>9s} vs {d:9s} scored {cell(out['scored'])}  touchdown "
                  f"{out['touchdown'].mean():.1%}  mean points {out['points'].mean():.2f}  {out['seconds']:.1f} s",
                  flush=True)
    text = table(results, args.games)
    print()
    print(text)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "table.md").write_text(text)
        with open(args.out / "cells.csv", "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["scenario", "attacker", "defender", "drives", "scored", "touchdowns", "mean_points"])
            for name, cells in results.items():
                for (a, d), out in cells.items():
                    writer.writerow([name, a, d, out["scored"].size, int(out["scored"].sum()),
                                     int(out["touchdown"].sum()), f"{out['points'].mean():.4f}"])
    return results


if __name__ == "__main__":
    main()
