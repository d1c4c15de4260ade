"""Measure the panel (agents.panel.PANEL): each panel agent against the random agent, the heuristic, the
shipped bot and every other panel agent; the README's "The panel" table.

    python benchmarks/panel_table.py                       # 400 games a pair, seed 2024
    python benchmarks/panel_table.py --games 40 --only baselines   # a quick look
    python benchmarks/panel_table.py --out runs/panel      # also write table.md and pairs.csv there
    python benchmarks/panel_table.py --only speed          # decisions per second in a training-size batch
    python benchmarks/panel_table.py --teams --only baselines --baselines bot   # the bot against every team

``--agents`` also takes teams, ``OFFENCE+DEFENCE`` (``agents.panel.composite``: one style's offence with
another's defence); ``--teams`` measures all twenty teams of two different styles. The league trains
against the teams of ``agents.panel.composite.TEAMS`` only, so the others are opponents the bot never met: a
stand-in for a panel written outside the project.

Every pair plays ``--games`` full games with ``train.tournament.run_tournament``: ``games / 2`` deals, each
played from both sides from the same engine seed, so teams and coin tosses are balanced exactly; a
truncated game counts half a win. Each cell is the row agent's win rate with its 95% Wilson interval. The
bot is ``gridiron_env/data/bot.npz`` (or ``--bot``) at its default level (``agents.bot.DEFAULT_LEVEL``),
at the temperature its file stores for it, as ``train.evaluate`` plays it.
The speed table gives each panel agent's own time per game against the random agent (the engine's steps
and the opponent's moves excluded) and the seconds of its match with the heuristic; ``--only speed``
measures decisions per second of each panel agent and of the heuristic in a batch of ``--batch`` games
(default 2048, as in training) over 150 steps against the random agent.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from agents.bot import DEFAULT_LEVEL, BotAgent  # noqa: E402
from agents.heuristic import HeuristicAgent  # noqa: E402
from agents.panel import PANEL  # noqa: E402
from agents.panel.composite import all_teams, composite_from_name  # noqa: E402
from agents.random_agent import RandomAgent  # noqa: E402
from gridiron_env.config import GameConfig  # noqa: E402
from train.tournament import run_tournament  # noqa: E402

DEFAULT_BOT = ROOT / "gridiron_env" / "data" / "bot.npz"
BASELINES = ("random", "heuristic", "bot")


class _Timed:
    """Wraps an agent and adds up the seconds spent in its ``act``."""

    def __init__(self, agent):
        self.agent, self.name, self.seconds = agent, agent.name, 0.0

    def reset(self, seeds):
        self.agent.reset(seeds)

    def act(self, state, config=None, games=None):
        start = time.perf_counter()
        out = self.agent.act(state, config, games=games)
        self.seconds += time.perf_counter() - start
        return out


def baseline(name: str, bot_path) -> object:
    if name == "random":
        return RandomAgent()
    if name == "heuristic":
        return HeuristicAgent()
    return BotAgent.load(bot_path, name="bot", level=DEFAULT_LEVEL)  # the level as the file stores it


def play_pair(a_name, a, b_name, b, games, seed, config) -> dict:
    start = time.perf_counter()
    result = run_tournament({a_name: a, b_name: b}, games, config=config, seed=seed)
    seconds = time.perf_counter() - start
    row = next(r for r in result.pair_rows() if r["agent"] == a_name)
    return {**row, "seconds": seconds}


def cell(row) -> str:
    return f"{row['win_rate']:.1%} ({row['win_low']:.1%}-{row['win_high']:.1%})"


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400, help="games per pair, even (default 400)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the first deal (default 2024)")
    parser.add_argument("--bot", default=str(DEFAULT_BOT), help="the bot file (default: the shipped bot)")
    parser.add_argument("--only", choices=("all", "baselines", "panel", "speed"), default="all",
                        help="the pairs to play: against the baselines, among the panel, or both; or the speed")
    parser.add_argument("--batch", type=int, default=2048, help="games in the batch of --only speed")
    parser.add_argument("--agents", nargs="*", default=sorted(PANEL),
                        help="panel agents or teams (OFFENCE+DEFENCE) to measure")
    parser.add_argument("--teams", action="store_true",
                        help="measure every team of two different panel styles instead of --agents")
    parser.add_argument("--baselines", nargs="*", choices=BASELINES, default=list(BASELINES),
                        help="the baselines of --only baselines (default all three)")
    parser.add_argument("--out", default=None, help="a directory for table.md and pairs.csv")
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2:
        parser.error(f"--games must be an even number >= 2, got {args.games}")
    if args.teams:
        args.agents = all_teams()
    for name in args.agents:
        try:
            composite_from_name(name)
        except ValueError as error:
            parser.error(f"--agents: {error}")
    config = GameConfig()
    names = list(args.agents)
    if args.only == "speed":
        lines = [f"| agent | decisions/s at batch {args.batch} | ms per call |", "|---|---|---|"]
        for name in names + ["heuristic"]:
            agent = HeuristicAgent() if name == "heuristic" else composite_from_name(name)
            rate, per_call = decision_speed(agent, args.batch, config)
            lines.append(f"| {name} | {rate:,.0f} | {per_call * 1000:.0f} |")
            print(lines[-1], flush=True)
        return {"markdown": "\n".join(lines) + "\n"}
    rows = []
    own_time = {}
    if args.only in ("all", "baselines"):
        for name in names:
            for opponent in args.baselines:
                timed = _Timed(composite_from_name(name))
                row = play_pair(name, timed, opponent, baseline(opponent, args.bot), args.games, args.seed, config)
                if opponent == "random":
                    own_time[name] = timed.seconds / row["games"]
                rows.append(row)
                print(f"{name} vs {opponent}: {cell(row)}, {row['seconds']:.0f} s", flush=True)
    if args.only in ("all", "panel"):
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                row = play_pair(a, composite_from_name(a), b, composite_from_name(b), args.games, args.seed, config)
                rows.append(row)
                mirrored = {**row, "agent": b, "opponent": a, "wins": row["losses"], "losses": row["wins"],
                            "win_rate": 1 - row["win_rate"], "win_low": 1 - row["win_high"],
                            "win_high": 1 - row["win_low"], "points_for": row["points_against"],
                            "points_against": row["points_for"]}
                rows.append(mirrored)
                print(f"{a} vs {b}: {cell(row)}, {row['seconds']:.0f} s", flush=True)
    markdown = to_markdown(rows, names, own_time, args.games)
    print()
    print(markdown)
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "table.md").write_text(markdown)
        columns = ["agent", "opponent", "games", "wins", "losses", "truncations", "win_rate", "win_low", "win_high",
                   "points_for", "points_against", "length", "seconds"]
        with open(out / "pairs.csv", "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
            writer.writeheader()
            writer.writerows(rows)
    return {"rows": rows, "markdown": markdown}


def decision_speed(agent, batch: int, config, steps: int = 150, seed: int = 0) -> tuple[float, float]:
    """(decisions per second, seconds per call) of ``agent`` playing half the games of a batch of ``batch``
    (each team in turn) against the random agent for ``steps`` engine steps; only its own calls are timed."""
    import numpy as np

    from gridiron_env.core.engine import init, step

    opponent = RandomAgent()
    seeds = seed + np.arange(batch)
    agent.reset(seeds)
    opponent.reset(seeds)
    state = init(batch, seed=seed, config=config)
    team = np.arange(batch) % 2
    seconds, decisions = 0.0, 0
    for _ in range(steps):
        live = ~(state.terminated | state.truncated)
        mine = live & (state.to_act == team)
        games = np.flatnonzero(mine)
        start = time.perf_counter()
        ours = agent.act(state, config, games=games)
        seconds += time.perf_counter() - start
        decisions += games.size
        theirs = opponent.act(state, config, games=np.flatnonzero(live & ~mine))
        state = step(state, np.where(mine, ours, theirs), config=config)
    return decisions / seconds, seconds / steps


def to_markdown(rows, names, own_time, games) -> str:
    by = {(r["agent"], r["opponent"]): r for r in rows}
    opponents = [o for o in BASELINES if any((n, o) in by for n in names)]
    opponents += [n for n in names if any((m, n) in by for m in names)]
    lines = [f"Win rate of the row agent, {games} games a pair (teams and coin tosses balanced), 95% interval:",
             "", "| agent | " + " | ".join(f"vs {o}" for o in opponents) + " |",
             "|---" * (len(opponents) + 1) + "|"]
    for n in names:
        cells = [cell(by[(n, o)]) if (n, o) in by else "-" for o in opponents]
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    speed = [n for n in names if n in own_time]
    if speed:
        lines += ["", "| agent | its own time per game (vs random) | match vs heuristic: seconds, games/s | "
                  "points per game vs heuristic (for-against) |", "|---|---|---|---|"]
        for n in speed:
            h = by.get((n, "heuristic"))
            match = f"{h['seconds']:.0f} s, {h['games'] / h['seconds']:.1f}" if h else "-"
            points = f"{h['points_for']:.1f}-{h['points_against']:.1f}" if h else "-"
            lines.append(f"| {n} | {own_time[n] * 1000:.1f} ms | {match} | {points} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
