"""Sports Dice engine speed: random legal actions over a batch, the legal mask read every step.

    python benchmarks/sports_dice_speed.py [--batch 4096] [--seconds 5] [--rules]

Counts the steps of live games only (a finished game ignores its action until the batch refills its
finished games, every 32 steps). ``--rules`` runs the rule functions instead of the table-driven path.
Reports steps per second and the machine's load average (the machine may be shared: run it with nice and
read the CPU-second rate too; ``small_game_speed``).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from small_game_speed import main as speed_main  # noqa: E402

from gridiron_env import sports_dice  # noqa: E402


def main(argv=None) -> None:
    # a mask row is one of the engine's few patterns (phase x tied symbols): the rows of its legal table
    speed_main(sports_dice, "sports dice", argv=argv, description=__doc__.splitlines()[0],
               make_config=lambda args: sports_dice.SportsDiceConfig(), mask_rows=sports_dice.engine._LEGAL)


if __name__ == "__main__":
    main()
