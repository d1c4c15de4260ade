"""Table Football engine speed: random legal actions over a batch, the legal mask read every step.

    python benchmarks/table_football_speed.py [--batch 4096] [--seconds 5] [--clock] [--recovery] [--rules]

Counts the steps of live games only (a finished game ignores its action until the batch refills its
finished games, every 32 steps). ``--rules`` runs the rule functions instead of the engine's
whole-column step from tables (every version's). Reports steps per wall second and per CPU second of the
process, and the machine's load average (``small_game_speed``). The issue's target: 5 million steps per
second at batch 4096 in each version (README, Table Football envs, for the figures measured).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from small_game_speed import main as speed_main  # noqa: E402

from gridiron_env import table_football  # noqa: E402


def main(argv=None) -> None:
    speed_main(
        table_football, "table football", argv=argv, description=__doc__.splitlines()[0],
        options=(("--clock", "the clock version"), ("--recovery", "the recovery option on")),
        make_config=lambda args: table_football.TableFootballConfig(clock=args.clock, recovery_option=args.recovery),
        label=lambda args: ("clock" if args.clock else "basic") + (", recovery" if args.recovery else "")
        + (", rule functions" if args.rules else ""))


if __name__ == "__main__":
    main()
