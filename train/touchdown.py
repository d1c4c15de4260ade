"""Touchdown's bot table: a bot (any agent spec) against the heuristic and the random agent, balanced seats.

Training: ``python -m train.touchdown train`` (imitation of a teacher, by default the passer, then DAgger:
``train/touchdown_imitation.py``; one network for both seats, since the acting team's side is the
observation), or the generic PPO trainer (``python -m train.games --game touchdown``)::

    python -m train.touchdown train --out runs/touchdown_bot                    # writes runs/touchdown_bot/policy.npz
    python -m train.touchdown --bot runs/touchdown_bot/policy.npz --games 400  # this table
    python -m train.touchdown --bot gridiron_env/data/touchdown_bot.npz --games 400  # the shipped bot's (SHIPPED_BOT)

Each line plays ``games`` whole games (game i seeded ``seed + i``, the bot team one in the even games and
team two in the odd ones) and prints the bot's wins, draws, losses and win rate (a draw 1/2) with its 95%
Wilson interval, as a markdown table.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import gridiron_env
from gridiron_env.adapters.agents import make_agent
from gridiron_env.touchdown import TouchdownConfig
from gridiron_env.touchdown.agents import HeuristicAgent, RandomAgent, play_games

__all__ = ["SHIPPED_BOT", "check_games", "measure", "main", "train_main"]

# the shipped Touchdown bot: the default imitation run's net (README, Touchdown: its table)
SHIPPED_BOT = Path(gridiron_env.__file__).resolve().parent / "data" / "touchdown_bot.npz"


def _wilson(p: float, n: int) -> tuple:
    z = 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def check_games(games) -> None:
    """A count of measuring games: an even int >= 2 (each deal from both seats), else ValueError."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 2 or games % 2:
        raise ValueError(f"games must be an even int >= 2, got {games!r}")


def measure(bot, games: int = 400, seed: int = 0, config: TouchdownConfig | None = None) -> list:
    """Rows {opponent, games, wins, draws, losses, win_rate, low, high} of ``bot`` (an agent) against the
    heuristic and the random agent."""
    check_games(games)
    rows = []
    for name, opponent in (("heuristic", HeuristicAgent()), ("random", RandomAgent())):
        r = play_games(bot, opponent, games, seed=seed, config=config)
        wins = int((r.winner == r.a_team).sum())
        losses = int(((r.winner == 1 - r.a_team) & (r.winner >= 0)).sum())
        rate = r.a_rate
        low, high = _wilson(rate, games)
        rows.append({"opponent": name, "games": games, "wins": wins, "draws": games - wins - losses,
                     "losses": losses, "win_rate": rate, "low": low, "high": high})
    return rows


def train_main(argv) -> int:
    """``python -m train.touchdown train ...``: the imitation run (``train.touchdown_imitation``)."""
    from train.touchdown_imitation import TEACHERS, ImitationConfig, train

    d = ImitationConfig
    parser = argparse.ArgumentParser(prog="python -m train.touchdown train",
                                     description="Touchdown's bot by imitation of a teacher, then DAgger")
    parser.add_argument("--teacher", default=d.teacher, choices=tuple(TEACHERS), help="default %(default)s")
    parser.add_argument("--minutes", type=float, default=d.minutes, help="wall-clock budget (default %(default)s)")
    parser.add_argument("--games", type=int, default=d.games, help="games recorded per round (default %(default)s)")
    parser.add_argument("--dagger-rounds", type=int, default=d.dagger_rounds, help="default %(default)s")
    parser.add_argument("--keep-play", type=float, default=d.keep_play,
                        help="share of the play's decisions kept as samples (default %(default)s)")
    parser.add_argument("--width", type=int, default=d.width, help="hidden width (default %(default)s)")
    parser.add_argument("--layers", type=int, default=d.layers, help="hidden layers (default %(default)s)")
    parser.add_argument("--epochs", type=int, default=d.epochs, help="epochs per fit (default %(default)s)")
    parser.add_argument("--seed", type=int, default=d.seed, help="run seed (default %(default)s)")
    parser.add_argument("--threads", type=int, default=d.threads, help="torch threads (default %(default)s)")
    parser.add_argument("--out", default=d.out, help="run folder (default %(default)s)")
    parser.add_argument("--measure", type=int, default=0,
                        help="then this many games (even) against the heuristic and random (default none)")
    args = parser.parse_args(argv)
    try:
        cfg = ImitationConfig(teacher=args.teacher, minutes=args.minutes, games=args.games,
                              dagger_rounds=args.dagger_rounds, keep_play=args.keep_play, width=args.width,
                              layers=args.layers, epochs=args.epochs, seed=args.seed, threads=args.threads,
                              out=args.out)
        if args.measure:
            check_games(args.measure)  # a bad count is refused before the run, not after it
    except ValueError as err:
        parser.error(str(err))
    summary = train(cfg)
    if args.measure:
        return main(["--bot", summary["policy"], "--games", str(args.measure)])
    return 0


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["train"]:
        return train_main(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m train.touchdown", description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="heuristic", help="an agent spec: a bot file path, bot:PATH, heuristic, ...")
    parser.add_argument("--games", type=int, default=400, help="games per opponent (even)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the games (default %(default)s)")
    args = parser.parse_args(argv)
    spec = args.bot if ":" in args.bot or not args.bot.endswith(".npz") else f"bot:{args.bot}"
    try:
        bot = make_agent(spec, "touchdown")
        rows = measure(bot, args.games, args.seed)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(f"| {args.bot} against | games | W | D | L | win rate (95% CI) |")
    print("|---|---:|---:|---:|---:|---|")
    for r in rows:
        print(f"| {r['opponent']} | {r['games']} | {r['wins']} | {r['draws']} | {r['losses']} | "
              f"{r['win_rate']:.3f} ({r['low']:.3f}-{r['high']:.3f}) |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
