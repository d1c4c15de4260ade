"""Building test positions from short diagrams (used by the test suite; handy for users' tests too).

``position(text)`` takes a partial diagram (header lines, ``board:``, and only the board rows that matter)
and parks every player it does not mention on two far rows, so all 22 are on the field; the state is
checked against the invariants. ``diagram(header, cells)`` writes such a text from a dict of header lines
and a dict of cells; ``with_everyone`` adds the missing players to such a cells dict.
"""

from __future__ import annotations

import textwrap

import numpy as np

from ..config import GameConfig
from .diagram import from_diagram
from .engine import init, step
from .geometry import DEFENCE_TAGS, N_LANES, OFFENCE_TAGS
from .invariants import check_invariants
from .state import State


def position(text: str, park=(30, 28), config: GameConfig | None = None) -> State:
    """A state from a partial diagram (header lines, ``board:``, board rows). Offence tags missing from the
    board are parked on row ``park[0]``, defence tags on row ``park[1]`` (lanes 1, 2, ...)."""
    config = config or GameConfig()
    text = textwrap.dedent(text).strip("\n")
    header, sep, board = text.partition("board:")
    if not sep:
        raise ValueError("a scenario needs a board: section")
    present, used_rows = set(), set()
    for line in board.splitlines():
        label, bar, cells = line.partition("|")
        if bar and label.strip().isdecimal():  # (anything else is left for from_diagram to name)
            used_rows.add(int(label))
            present.update(c.rstrip("@") for c in cells.split() if c not in (".", "*"))
    parking = []
    for row, tags in zip(park, (OFFENCE_TAGS, DEFENCE_TAGS)):
        missing = [t for t in tags if t not in present]
        if missing:
            if row in used_rows:
                raise ValueError(f"parking row {row} is in use")
            parking.append(f"{row} | " + " ".join(missing + ["."] * (N_LANES - len(missing))))
    text = "gridiron diagram v1\n" + header + "\nboard:\n" + board.strip("\n") + "\n" + "\n".join(parking)
    s = from_diagram(text, config)
    check_invariants(s, check_mask=True, config=config)
    return s


def diagram(header: dict, cells: dict | None = None) -> str:
    """A partial diagram: header lines, then only the board rows that hold something.

    ``cells`` maps (row, lane), 1-based, to a cell text (``"H@"``, ``"MLB"``, ``"*"``).
    """
    lines = ["gridiron diagram v1"] + [f"{k}: {v}" for k, v in header.items()] + ["board:"]
    rows: dict[int, list[str]] = {}
    for (row, lane), text in (cells or {}).items():
        rows.setdefault(row, ["."] * N_LANES)[lane - 1] = text
    lines += [f"{row:>3} | " + " ".join(rows[row]) for row in sorted(rows)]
    return "\n".join(lines) + "\n"


def with_everyone(cells: dict, offence_row: int, defence_row: int) -> dict:
    """Put every tag not already in ``cells`` on a harmless row (offence tags on one, defence on another)."""
    cells = dict(cells)
    used = {text.rstrip("@") for text in cells.values()}
    for tags, row in ((OFFENCE_TAGS, offence_row), (DEFENCE_TAGS, defence_row)):
        lane = 1
        for tag in tags:
            if tag in used:
                continue
            while (row, lane) in cells:
                lane += 1
            cells[(row, lane)] = tag
            lane += 1
    return cells


def hidden_ball_scramble(hidden_square: str, config: GameConfig | None = None) -> State:
    """A blind fumble scramble (team two to step) with the hidden ball on ``hidden_square`` ("row,lane",
    1-based): two such positions differ only in where the ball hides."""
    return from_diagram(f"""gridiron diagram v1
phase: scramble
to act: two
line of scrimmage: row 15 lane 9
points: 3-4
scramble: step 0 resume two
ball: loose {hidden_square} hidden
board:
 10 | .   .   LDE LDT RDT RDE SLB MLB WLB LCB RCB FS  SS  .   .   .   .   .
 15 | .   .   .   .   .   .   QB  C   LG  RG  LT  RT  X   Y   Z   H   F   .
""", config)


def random_positions(batch: int, steps: int, seed: int, config: GameConfig | None = None) -> State:
    """A batch of positions reached by ``steps`` uniformly random legal actions (every phase of play)."""
    s = init(batch, seed=seed, config=config)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        s = step(s, (rng.random(s.legal.shape) * s.legal).argmax(1), config=config)
    return s
