"""Measure a bot file against the baselines: the tables of README.md and gridiron_env/data/BOT.md.

    python -m train.evaluate runs/default/bot.npz              # default level vs random and heuristic
    python -m train.evaluate gridiron_env/data/bot.npz --levels --seed 31337   # each level vs heuristic + panel

Full games, both teams and coin tosses balanced (each deal played from both sides, ``train.tournament``);
a truncated game counts as half a win. The opponents: the random agent, the heuristic and every agent of
the scripted panel (``agents.panel.PANEL``). Prints a Markdown table.
"""

from __future__ import annotations

import argparse


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m train.evaluate", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bot", help="a numpy bot file (.npz)")
    parser.add_argument("--games", type=int, default=400, help="games per row (default 400)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the games (default 2024)")
    parser.add_argument("--levels", action="store_true",
                        help="each difficulty level (agents.bot.LEVELS) against the heuristic and the panel instead")
    parser.add_argument("--opponents", choices=("panel", "heuristic"), default="panel",
                        help="the heuristic and every panel agent (agents.panel.PANEL), or the heuristic alone "
                             "(default %(default)s); the default level also meets the random agent")
    return parser


def main(argv=None) -> dict:
    from agents.bot import Bot, BotFileError
    from gridiron_env.config import GameConfig

    parser = build_parser()
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2:
        parser.error(f"--games must be an even number >= 2 (each deal is played from both sides), got {args.games}")
    try:
        Bot.load(args.bot)  # a bad file or path: one line naming it, exit status 2, before any game
    except BotFileError as err:
        parser.exit(2, f"{parser.prog}: error: {err}\n")
    from train.selfplay import evaluate, evaluate_levels  # torch and friends: only for a usable bot

    measure = evaluate_levels if args.levels else evaluate
    try:
        return measure(args.bot, args.games, args.seed, GameConfig(), opponents=args.opponents)
    except KeyboardInterrupt:
        parser.exit(130, f"{parser.prog}: interrupted\n")


if __name__ == "__main__":
    main()
