"""Which unit of the bot is weak: the bot against each opponent, next to a team made of the bot's offence with
a panel style's defence (``--defence STYLE``) or of a style's offence with the bot's defence
(``--offence STYLE``), ``agents.base.TeamOfUnits``; the README's "Its defence" table.

    python benchmarks/units_table.py --defence power_run        # the bot's offence with the power wall
    python benchmarks/units_table.py --offence spread_pass --against spread_pass+power_run
    python benchmarks/units_table.py --bot runs/default/bot.npz --defence power_run --games 40

Every pair plays ``--games`` full games with ``train.tournament.run_tournament`` (``games / 2`` deals,
each from both sides: teams and coin tosses balanced; a truncated game counts half); each cell is the
row's win rate with its 95% Wilson interval. The bot plays at its file's ``hard`` level. Opponents
(``--against``): the heuristic, a panel style or a team ``OFFENCE+DEFENCE``; by default the heuristic,
the five styles and ``agents.panel.composite.TEAMS``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from agents.base import TeamOfUnits  # noqa: E402
from agents.bot import BotAgent, BotFileError  # noqa: E402
from agents.panel import PANEL  # noqa: E402
from agents.panel.composite import TEAMS  # noqa: E402
from gridiron_env.config import GameConfig  # noqa: E402
from train.selfplay import make_teacher  # noqa: E402
from train.tournament import run_tournament  # noqa: E402

DEFAULT_BOT = ROOT / "gridiron_env" / "data" / "bot.npz"


def win_row(team, opponent, games: int, seed: int) -> dict:
    """``team``'s win rate against ``opponent`` over ``games`` balanced full games of the default game."""
    result = run_tournament({"team": team, "opponent": opponent}, games, config=GameConfig(), seed=seed)
    return next(r for r in result.pair_rows() if r["agent"] == "team")


def cell(row) -> str:
    return f"{row['win_rate']:.1%} ({row['win_low']:.1%}-{row['win_high']:.1%})"


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    unit = parser.add_mutually_exclusive_group(required=True)
    unit.add_argument("--defence", help="the panel style (or heuristic) whose defence joins the bot's offence")
    unit.add_argument("--offence", help="the panel style (or heuristic) whose offence joins the bot's defence")
    parser.add_argument("--bot", default=str(DEFAULT_BOT), help="the bot file (default: the shipped bot)")
    parser.add_argument("--against", nargs="+", default=["heuristic", *sorted(PANEL), *TEAMS],
                        help="opponents: heuristic, panel styles, OFFENCE+DEFENCE teams (default: %(default)s)")
    parser.add_argument("--games", type=int, default=400, help="games per row, even (default %(default)s)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the first deal (default %(default)s)")
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2:
        parser.error(f"--games must be an even number >= 2 (each deal is played from both sides), got {args.games}")
    style = args.defence or args.offence
    flag = "--defence" if args.defence else "--offence"
    try:
        make_teacher(style, flag)
        opponents = {name: make_teacher(name, "--against") for name in args.against}
        BotAgent.load(args.bot)
    except (ValueError, BotFileError) as err:
        parser.error(str(err))

    def bot():
        return BotAgent.load(args.bot, name="bot", level="hard")

    label = f"bot's offence, {style}'s defence" if args.defence else f"{style}'s offence, bot's defence"
    rows = []
    for name, opponent in opponents.items():
        mixed = TeamOfUnits(bot(), make_teacher(style)) if args.defence else TeamOfUnits(make_teacher(style), bot())
        rows.append({"opponent": name, "bot": win_row(bot(), opponent, args.games, args.seed),
                     "team": win_row(mixed, opponent, args.games, args.seed)})
    lines = [f"Win rate against each opponent, {args.games} balanced games a row, 95% interval ({args.bot}):", "",
             f"| opponent | bot | {label} |", "|---|---|---|"]
    lines += [f"| {r['opponent']} | {cell(r['bot'])} | {cell(r['team'])} |" for r in rows]
    print("\n".join(lines))
    return {"label": label, "rows": rows}


if __name__ == "__main__":
    main()
