"""Difficulty levels measured for one bot and stored in its file.

    python -m train.levels runs/default/bot.npz --games 32        # measure, print, and store the levels

A level is a sampling temperature (``agents.bot.LEVELS`` names them easy, medium and hard). A bot's own
levels come from its own win rate against the league's fixed members (the heuristic and the scripted
panel, ``agents.panel.PANEL``), pooled over ``games`` balanced full games against each of them, the same
deals at every temperature (common random numbers):

1. **hard** is the best of a few low temperatures (``HARD_CANDIDATES``; a little sampling plays better than
   the plain best action and never loops on free handoffs), with win rate h;
2. **medium** aims at 2h/3 and **easy** at h/3: each is found by bisection over the log temperature
   between the level above it and ``MAX_TEMPERATURE`` (``STEPS`` probes, stopping early within
   ``TOLERANCE`` of the aim).

The measured rates must rise strictly from easy to hard; a level that does not is pushed to a higher
temperature until it does (or the search gives up and says so). The temperatures and the rates go into the
bot file (``level_temperatures``, ``level_win_rates``), which ``gridiron-play --level`` and the evaluation
then use.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np

from gridiron_env.config import GameConfig

HARD_CANDIDATES = (0.1, 0.3, 0.6)
MAX_TEMPERATURE = 8.0
STEPS = 5
TOLERANCE = 0.04
AIMS = {"medium": 2 / 3, "easy": 1 / 3}  # of the hard level's win rate


def pooled_rate(bot, temperature: float, opponents: dict, games: int, seed: int, config: GameConfig) -> float:
    """Win rate (a truncated game half) of ``bot`` at ``temperature`` over ``games`` (even) balanced full
    games against each of ``opponents`` (name -> agent), pooled."""
    from agents.bot import BotAgent
    from train.tournament import run_tournament

    players = {"bot": BotAgent(bot, name="bot", temperature=temperature), **opponents}
    result = run_tournament(players, games, config=config, seed=seed, pairs=[(0, j) for j in range(1, len(players))])
    score, played = result.score_matrix()
    return float(score[0].sum() / played[0].sum())


def calibrate(bot, games: int = 16, seed: int = 0, config: GameConfig | None = None, opponents: dict | None = None,
              log=print) -> tuple[list[float], list[float]]:
    """The bot's (easy, medium, hard) temperatures and the win rates measured at them (see the module
    docstring). ``opponents``: name -> agent (default: the heuristic and the panel)."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 2 or games % 2:
        raise ValueError(f"games must be an even int >= 2, got {games!r}")
    if opponents is None:
        from train.selfplay import fixed_members

        opponents = fixed_members("panel")
    config = config or GameConfig()
    measured: dict[float, float] = {}

    def rate(temperature):
        temperature = round(float(temperature), 4)
        if temperature not in measured:
            measured[temperature] = pooled_rate(bot, temperature, opponents, games, seed, config)
            log(f"  temperature {temperature:g}: {measured[temperature]:.1%}")
        return measured[temperature], temperature

    hard_rate, hard = max(rate(t) for t in HARD_CANDIDATES)
    chosen = {"hard": (hard, hard_rate)}
    above_t, above_rate = hard, hard_rate
    for level in ("medium", "easy"):
        aim = AIMS[level] * hard_rate
        low, high = math.log(above_t), math.log(MAX_TEMPERATURE)
        best = None
        for _ in range(STEPS):
            r, t = rate(math.exp((low + high) / 2))
            if r < above_rate and (best is None or abs(r - aim) < abs(best[1] - aim)):
                best = (t, r)
            if abs(r - aim) <= TOLERANCE and r < above_rate:
                break
            if r > aim:
                low = math.log(t)  # still too strong: more sampling
            else:
                high = math.log(t)
        if best is None:  # nothing below the level above: the most sampling there is
            r, t = rate(MAX_TEMPERATURE)
            best = (t, r)
            if r >= above_rate:
                log(f"  {level}: even temperature {MAX_TEMPERATURE:g} wins {r:.1%}, not below {above_rate:.1%}")
        chosen[level] = best
        above_t, above_rate = best
    levels = ("easy", "medium", "hard")
    return [chosen[k][0] for k in levels], [chosen[k][1] for k in levels]


def store_levels(path, games: int = 16, seed: int = 0, config: GameConfig | None = None, opponents=None,
                 log=print) -> tuple[list[float], list[float]]:
    """Calibrate the bot file ``path`` and write its levels into it. Returns (temperatures, win rates)."""
    from agents.bot import Bot

    bot = Bot.load(path)
    temperatures, rates = calibrate(bot, games, seed, config, opponents, log)
    bot.set_levels(temperatures, rates)
    bot.save(path)
    return temperatures, rates


def levels_markdown(temperatures, rates, games: int, opponents: int) -> str:
    from agents.bot import LEVELS

    lines = [f"| level | temperature | win rate against the heuristic and the panel ({games} games each, "
             f"{opponents} opponents) |", "|---|---|---|"]
    lines += [f"| {name} | {t:g} | {r:.1%} |" for name, t, r in zip(LEVELS, temperatures, rates)]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m train.levels", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bot", help="the bot file (.npz) to measure; its levels are written into it")
    parser.add_argument("--games", type=int, default=32,
                        help="games (even) against each opponent at every probed temperature (default %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals (default %(default)s)")
    parser.add_argument("--dry-run", action="store_true", help="measure and print, but leave the file as it is")
    args = parser.parse_args(argv)
    from agents.bot import Bot, BotFileError

    try:
        bot = Bot.load(args.bot)
        temperatures, rates = calibrate(bot, args.games, args.seed)
    except (BotFileError, ValueError) as err:
        print(f"{parser.prog}: error: {err}", file=sys.stderr)
        return 2
    from train.selfplay import fixed_members

    print(levels_markdown(temperatures, rates, args.games, len(fixed_members("panel"))))
    if not args.dry_run:
        bot.set_levels(temperatures, rates)
        bot.save(Path(args.bot))
        print(f"levels written into {args.bot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
