"""The bot under every rule set a user can choose: issue 11's "the targets hold for each config".

    python benchmarks/bot_configs.py                          # the shipped bot, 100 games a cell
    python benchmarks/bot_configs.py --bot runs/default/bot.npz --games 400 --targets 14 21 35
    python benchmarks/bot_configs.py --out runs/configs       # also write table.md there

Each row is one rule set: specials on or off x dice or paper-football kicking x each target score (the
configs training covers, ``train.league.game_variants``). Each cell is the bot's win rate, at its default
level, against one opponent (the random agent, the heuristic and every fixed league member: the panel and
its composite teams), over ``--games`` full games with teams and coin tosses balanced
(``train.selfplay.match_row``), with its 95% Wilson interval; a truncated game counts half a win.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

DEFAULT_BOT = ROOT / "gridiron_env" / "data" / "bot.npz"


def rule_sets(targets) -> list:
    """GameConfigs: specials on/off x kick modes x ``targets``, the default game first."""
    from gridiron_env.config import GameConfig

    base = GameConfig()
    configs = []
    for specials in (base.specials, not base.specials):
        for kick_mode in ("dice", "paper"):
            for target in targets:
                config = base.replace(specials=specials, kick_mode=kick_mode, target_score=int(target))
                if config not in configs:
                    configs.append(config)
    return configs


def label(config) -> str:
    """A rule set's row label, e.g. ``specials on, dice kicks, to 21``."""
    return (f"specials {'on' if config.specials else 'off'}, {config.kick_mode} kicks, "
            f"to {config.target_score}")


def measure(bot_path, configs, games: int, seed: int, opponents: str = "panel", log=print,
            against=None) -> list[dict]:
    """One row per config: ``{"config": label, "cells": {opponent: match_row}, "seconds"}``; ``against``:
    the names of the opponents to play (None: all of ``opponents``)."""
    from agents.bot import DEFAULT_LEVEL, BotAgent
    from train.selfplay import evaluation_opponents, match_row

    temperature = BotAgent.load(bot_path, level=DEFAULT_LEVEL).temperature
    rows = []
    for config in configs:
        t0 = time.perf_counter()
        cells = {}
        for name, opponent in evaluation_opponents(opponents).items():
            if against is not None and name not in against:
                continue
            bot = BotAgent.load(bot_path, name="bot", temperature=temperature)
            cells[name] = match_row(bot, opponent, games, seed, config)
        rows.append({"config": label(config), "cells": cells, "seconds": time.perf_counter() - t0})
        log(f"{label(config)}: " + ", ".join(f"{n} {c['rate']:.0%}" for n, c in cells.items()) +
            f" ({rows[-1]['seconds']:.0f} s)")
    return rows


def markdown(rows) -> str:
    """The table: a row per config, a column per opponent, ``rate (low-high)`` in each cell."""
    names = list(rows[0]["cells"])
    lines = ["| rules | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for row in rows:
        cells = [f"{c['rate']:.0%} ({c['low']:.0%}-{c['high']:.0%})" for c in row["cells"].values()]
        lines.append(f"| {row['config']} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python benchmarks/bot_configs.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default=str(DEFAULT_BOT), help="numpy bot file (default: the shipped bot)")
    parser.add_argument("--games", type=int, default=100, help="games a cell, even (default 100)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the games (default 2024)")
    parser.add_argument("--targets", type=int, nargs="+", default=[14, 21, 35],
                        help="target scores, each 1-99 (default 14 21 35)")
    parser.add_argument("--opponents", choices=("panel", "heuristic"), default="panel",
                        help="the heuristic and the panel, or the heuristic alone (default panel); the random "
                             "agent always plays")
    parser.add_argument("--against", nargs="+", metavar="NAME",
                        help="only these of the opponents, e.g. power_run (default: all of them)")
    parser.add_argument("--out", help="folder to write table.md into (optional)")
    return parser


def main(argv=None) -> str:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2:
        parser.error(f"--games must be an even number >= 2 (each deal is played from both sides), got {args.games}")
    from agents.bot import Bot, BotFileError

    try:
        Bot.load(args.bot)
    except BotFileError as err:
        parser.exit(2, f"{parser.prog}: error: {err}\n")
    try:
        configs = rule_sets(args.targets)
    except ValueError as err:
        parser.error(str(err))
    if args.against:
        from train.selfplay import evaluation_opponents

        known = list(evaluation_opponents(args.opponents))
        unknown = [name for name in args.against if name not in known]
        if unknown:
            parser.error(f"--against: {', '.join(unknown)} not among the opponents ({', '.join(known)})")
    table = markdown(measure(args.bot, configs, args.games, args.seed, args.opponents, against=args.against))
    print(table)
    if args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)
        (Path(args.out) / "table.md").write_text(table)
    return table


if __name__ == "__main__":
    main()
