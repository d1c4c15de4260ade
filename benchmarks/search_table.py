"""Measure the search baseline (agents.search.SearchAgent): its win rate against the heuristic, the panel
(agents.panel.PANEL) and the shipped bot at a few budgets, and its decisions per second; the README's
"The search baseline" table.

    python benchmarks/search_table.py --budgets 4 16 --games 100 --target 7 --out runs/search
    python benchmarks/search_table.py --budgets 4 4:bot --opponents heuristic bot --games 20
    python benchmarks/search_table.py --budgets 1 4 16 4:bot --speed 1 8 64 --out runs/search

Every pair plays ``--games`` (even) full games with ``train.tournament.run_tournament``: ``games / 2``
deals, each played from both sides from the same engine seed, so seats and coin tosses are balanced; a
truncated game counts half a win. With ``--chunk C`` the pairs take turns, C games (C / 2 deals) at a
time, on the deals ``seed + k * C / 2 ...`` of chunk k, so the chunks of a pair together are exactly its
``--games`` deals. Each chunk is written to ``--out``/rows.jsonl as soon as it is done (the runs are
long) and ``table.md`` holds the pairs summed over their chunks so far (``--combine`` rebuilds it). Decisions per second: the searching agent's decisions (every game it acts in, searched or
not) over the seconds spent in its ``act``, in batches of ``games`` games.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import sys
import time
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):  # before numpy loads BLAS
    os.environ.setdefault(_var, "1")

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from agents.bot import BotAgent  # noqa: E402
from agents.heuristic import HeuristicAgent  # noqa: E402
from agents.panel import PANEL  # noqa: E402
from agents.search import make_search_agent  # noqa: E402
from gridiron_env.config import GameConfig  # noqa: E402
from train.tournament import run_tournament  # noqa: E402

DEFAULT_BOT = ROOT / "gridiron_env" / "data" / "bot.npz"


class _Timed:
    """Wraps an agent; adds up the seconds spent in its ``act`` and the decisions (games acted in)."""

    def __init__(self, agent):
        self.agent, self.name, self.seconds, self.decisions = agent, agent.name, 0.0, 0

    def reset(self, seeds):
        self.agent.reset(seeds)

    def act(self, state, config=None, games=None):
        start = time.perf_counter()
        out = self.agent.act(state, config, games=games)
        self.seconds += time.perf_counter() - start
        idx = np.arange(state.batch_size) if games is None else np.asarray(games)
        self.decisions += int(((state.to_act[idx] >= 0) & state.legal[idx].any(axis=1)).sum())
        return out


def opponent(name: str, bot_path):
    if name == "heuristic":
        return HeuristicAgent()
    if name == "bot":
        return BotAgent.load(bot_path, name="bot")
    if name in PANEL:
        return PANEL[name]()
    raise ValueError(f"unknown opponent {name!r}: use heuristic, bot or one of {sorted(PANEL)}")


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def bot_sha256(bot_path) -> str:
    """The first 12 hex digits of the bot file's sha256: which bot a row was measured against (the shipped
    file may be replaced by a newer one between runs)."""
    return hashlib.sha256(Path(bot_path).read_bytes()).hexdigest()[:12]


def measure(budget: str, opp: str, games: int, seed: int, config: GameConfig, bot_path) -> dict:
    search = _Timed(make_search_agent(str(budget)))
    other = opponent(opp, bot_path)
    start = time.perf_counter()
    result = run_tournament({search.name: search, opp: other}, games, config=config, seed=seed, batch_size=games)
    seconds = time.perf_counter() - start
    mine = result.team_agent[np.arange(result.winner.size), np.clip(result.winner, 0, 1)] == 0
    wins = float((mine & (result.winner >= 0)).sum()) + 0.5 * float((result.winner < 0).sum())
    lo, hi = wilson(wins, games)
    r = np.arange(result.winner.size)
    margin = (result.score[r, np.argmin(result.team_agent, axis=1)]
              - result.score[r, np.argmax(result.team_agent, axis=1)]).mean()
    return {"agent": search.name, "budget": str(budget), "opponent": opp, "seed": seed, "games": games, "wins": wins,
            "win_rate": wins / games, "lo": lo, "hi": hi, "mean_margin": float(margin), "decisions": search.decisions,
            "searched": search.agent.searched, "act_seconds": search.seconds,
            "decisions_per_second": search.decisions / max(search.seconds, 1e-9), "seconds": seconds,
            "target_score": config.target_score, "bot_sha256": bot_sha256(bot_path) if opp == "bot" else None}


def positions(batch: int, seed: int, config: GameConfig, every: int = 40, count: int = 3) -> list:
    """Mid-game positions of heuristic self-play: the states of a batch of ``batch`` games after 40, 80, 120
    steps (games in every phase, a few finished)."""
    from gridiron_env.core.engine import init, step

    players = HeuristicAgent()
    players.reset(np.arange(batch) + seed)
    s = init(seeds=np.arange(batch) + seed, config=config)
    found = []
    for k in range(every * count):
        s = step(s, players.act(s, config), config=config)
        if (k + 1) % every == 0:
            found.append(s.copy())
    return found


def speed(budget: str, batch: int, seed: int, config: GameConfig) -> dict:
    """Decisions per CPU second of this process (``time.process_time``: what other jobs on the host take
    is not counted) of ``search:budget`` deciding in ``batch`` games at once, over :func:`positions`."""
    agent = make_search_agent(str(budget))
    states = positions(batch, seed, config)
    agent.reset(np.arange(batch) + seed)
    decisions, cpu, wall = 0, 0.0, 0.0
    for s in states:
        start, start_wall = time.process_time(), time.perf_counter()
        agent.act(s, config)
        cpu += time.process_time() - start
        wall += time.perf_counter() - start_wall
        decisions += int(((s.to_act >= 0) & s.legal.any(axis=1)).sum())
    return {"agent": agent.name, "budget": str(budget), "batch": batch, "decisions": decisions,
            "searched": agent.searched, "cpu_seconds": cpu, "wall_seconds": wall,
            "decisions_per_cpu_second": decisions / max(cpu, 1e-9)}


def combine(rows: list[dict]) -> list[dict]:
    """The rows of one (agent, opponent, target score) summed over their chunks (distinct deals), in the
    order they first appear: games, wins, decisions and seconds added, the margin weighted by games."""
    out: dict = {}
    for r in rows:
        key = (r.get("agent", f"search:{r['budget']}"), r["opponent"], r.get("target_score"), r.get("bot_sha256"))
        c = out.setdefault(key, {**r, "games": 0, "wins": 0.0, "margin_sum": 0.0, "decisions": 0, "searched": 0,
                                 "act_seconds": 0.0, "seconds": 0.0, "chunks": 0})
        c["games"] += r["games"]
        c["wins"] += r["wins"]
        c["margin_sum"] += r["mean_margin"] * r["games"]
        for k in ("decisions", "searched", "act_seconds", "seconds"):
            c[k] += r[k]
        c["chunks"] += 1
    for c in out.values():
        c["win_rate"] = c["wins"] / c["games"]
        c["lo"], c["hi"] = wilson(c["wins"], c["games"])
        c["mean_margin"] = c.pop("margin_sum") / c["games"]
        c["decisions_per_second"] = c["decisions"] / max(c["act_seconds"], 1e-9)
    return list(out.values())


def to_markdown(rows: list[dict]) -> str:
    """The pairs as a markdown table; the bot opponent is named with its file's sha256 prefix."""
    lines = ["| agent | opponent | games | wins | win rate (95% CI) | mean margin | decisions/s |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        opp = r["opponent"] + (f" ({r['bot_sha256']})" if r.get("bot_sha256") else "")
        lines.append(f"| {r.get('agent', 'search:' + str(r['budget']))} | {opp} | {r['games']} | {r['wins']:g} | "
                     f"{r['win_rate']:.0%} ({r['lo']:.0%}-{r['hi']:.0%}) | {r['mean_margin']:+.1f} | "
                     f"{r['decisions_per_second']:.1f} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--budgets", nargs="+", default=["4", "16"],
                   help="search budgets to measure: N (rollouts per candidate) or N:POLICY (rollout policy)")
    p.add_argument("--opponents", nargs="+", default=["heuristic", "bot", *PANEL],
                   help="heuristic, bot and/or panel names (default: all)")
    p.add_argument("--games", type=int, default=8, help="games per pair (even)")
    p.add_argument("--target", type=int, default=7, help="target score of the games")
    p.add_argument("--seed", type=int, default=2024, help="tournament seed")
    p.add_argument("--bot", default=str(DEFAULT_BOT), help="bot file for the 'bot' opponent")
    p.add_argument("--chunk", type=int, default=None,
                   help="games per run (even, divides --games; default all): the pairs take turns chunk by chunk "
                        "on distinct deals, so a stopped run still has every pair measured alike")
    p.add_argument("--out", default="runs/search", help="directory for rows.jsonl and table.md")
    p.add_argument("--combine", action="store_true", help="only rebuild table.md from --out/rows.jsonl")
    p.add_argument("--speed", type=int, nargs="+", default=None, metavar="BATCH",
                   help="only measure decisions per CPU second at these batch sizes (games deciding at once), "
                        "over mid-game positions of heuristic self-play, into --out/speed.jsonl")
    args = p.parse_args(argv)
    out = Path(args.out)
    if args.speed:
        if min(args.speed) < 1:
            p.error("--speed batch sizes must be >= 1")
        out.mkdir(parents=True, exist_ok=True)
        print("| agent | batch | decisions | searched | decisions per CPU second |\n|---|---|---|---|---|")
        for budget in args.budgets:
            for batch in args.speed:
                row = speed(budget, batch, args.seed, GameConfig(target_score=args.target))
                with open(out / "speed.jsonl", "a") as f:
                    f.write(json.dumps(row) + "\n")
                print(f"| {row['agent']} | {batch} | {row['decisions']} | {row['searched']} | "
                      f"{row['decisions_per_cpu_second']:.1f} |", flush=True)
        return 0
    if args.combine:
        rows = [json.loads(line) for line in (out / "rows.jsonl").read_text().splitlines() if line.strip()]
        (out / "table.md").write_text(to_markdown(combine(rows)) + "\n")
        print(to_markdown(combine(rows)))
        return 0
    chunk = args.chunk or args.games
    if chunk < 2 or chunk % 2 or args.games % chunk:
        p.error("--chunk must be an even number >= 2 that divides --games")
    if args.games < 2 or args.games % 2:
        p.error("--games must be an even number >= 2")
    for budget in args.budgets:
        try:
            make_search_agent(budget)
        except ValueError as err:
            p.error(str(err))
    for opp in args.opponents:
        if opp not in ("heuristic", "bot", *PANEL):
            p.error(f"unknown opponent {opp!r}: use heuristic, bot or one of {sorted(PANEL)}")
    out.mkdir(parents=True, exist_ok=True)
    config = GameConfig(target_score=args.target)
    rows = []
    for k in range(args.games // chunk):
        seed = args.seed + k * (chunk // 2)  # deal d of chunk k is deal k * chunk / 2 + d of the whole run
        for budget in args.budgets:
            for opp in args.opponents:
                row = measure(budget, opp, chunk, seed, config, args.bot)
                rows.append(row)
                with open(out / "rows.jsonl", "a") as f:
                    f.write(json.dumps(row) + "\n")
                (out / "table.md").write_text(to_markdown(combine(rows)) + "\n")
                print(to_markdown([row]).splitlines()[-1], f"(seed {seed}, {row['seconds']:.0f} s)", flush=True)
    print(to_markdown(combine(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
