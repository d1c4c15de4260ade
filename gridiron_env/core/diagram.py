"""Position notation: a text diagram of one whole game state (like FEN in chess).

``to_diagram(state)`` writes game 0 of a state (or game ``game``); ``from_diagram(text)`` reads it back as
a batch of one. Rows and lanes are the rulebook's 1-based numbers. A header of ``key: value`` lines is
followed by the board: 30 rows (row 1 at the top), 18 cells each; a cell is ``.`` (empty), a player tag
(``QB``, ``MLB``: offence tags are the team on offence at the snap), the tag with ``@`` for the ball
carrier, or ``*`` for a loose ball that is not hidden. RULES.md shows a full example.
"""

from __future__ import annotations

import numpy as np

from ..config import GameConfig
from .actions import SPECIALS
from .formations import DEFENCE_FORMATIONS, OFFENCE_FORMATIONS
from .geometry import N_LANES, N_ROWS, TAGS
from .state import PHASE_NAMES, State

_TEAM = {0: "one", 1: "two", -1: "-"}
_TEAM_ID = {v: k for k, v in _TEAM.items()}
_YES = {True: "yes", False: "no"}
_TAG_SLOT = {t: i for i, t in enumerate(TAGS)}
_STRONG_TAGS = TAGS[1:6]


def _sq(square: int) -> str:
    return "-" if square < 0 else f"{square // N_LANES + 1},{square % N_LANES + 1}"


def _parse_sq(text: str) -> int:
    if text == "-":
        return -1
    row, lane = (int(x) for x in text.split(","))
    if not (1 <= row <= N_ROWS and 1 <= lane <= N_LANES):
        raise ValueError(f"square {text!r} is off the 30 x 18 grid")
    return (row - 1) * N_LANES + lane - 1


def _pair(values, fmt=str) -> str:
    return "-".join(fmt(int(v)) for v in values)


def to_diagram(state: State, game: int = 0) -> str:
    """The diagram of game ``game`` of ``state``."""
    g = int(game)
    s = state
    formation = s.formation[g]
    holder = int(s.ball_holder[g])
    if holder >= 0:
        ball = f"carrier {TAGS[holder]}"
    elif s.ball_square[g] >= 0:
        ball = f"loose {_sq(int(s.ball_square[g]))}" + (" hidden" if s.ball_hidden[g] else "")
    else:
        ball = "-"
    strong = [t for t, on in zip(_STRONG_TAGS, s.strong[g]) if on]
    lines = [
        "gridiron diagram v1",
        f"phase: {PHASE_NAMES[s.phase[g]]}",
        f"to act: {_TEAM[int(s.to_act[g])]}",
        f"offence: {_TEAM[int(s.offence[g])]}",
        f"opener: {_TEAM[int(s.opener[g])]}",
        f"score: {_pair(s.score[g])}",
        f"overtime: {_YES[bool(s.overtime[g])]} {_pair(s.overtime_points[g])}",
        f"drives: {_pair(s.drives[g])}",
        f"down: {int(s.down[g])}",
        f"line of scrimmage: row {int(s.los_row[g]) + 1} lane {int(s.los_lane[g]) + 1}",
        f"line to gain: row {int(s.line_to_gain[g]) + 1}",
        f"rolls: {int(s.rolls[g])}",
        f"points: {_pair(s.points[g])}",
        f"dice: {','.join(map(str, s.dice[g, 0]))}-{','.join(map(str, s.dice[g, 1]))}",
        "formations: " + (OFFENCE_FORMATIONS[formation[0]] if formation[0] >= 0 else "-") + " "
        + (DEFENCE_FORMATIONS[formation[1]] if formation[1] >= 0 else "-"),
        "strong: " + (" ".join(strong) if strong else "-"),
        "specials: " + " ".join(SPECIALS[v] if v >= 0 else "-" for v in s.special[g]),
        f"forward pass used: {_YES[bool(s.forward_pass_used[g])]}",
        "lead blocker used: " + " ".join(_YES[bool(v)] for v in s.lead_blocker_used[g]),
        f"follow: {_sq(int(s.follow_square[g]))} "
        + (TAGS[s.follow_mover[g]] if s.follow_mover[g] >= 0 else "-"),
        f"scramble: step {int(s.scramble_step[g])} resume {_TEAM[int(s.resume_team[g])]}",
        f"ball: {ball}",
        f"last holder: {_TEAM[int(s.last_holder_team[g])]}",
        f"result: winner {_TEAM[int(s.winner[g])]} terminated {_YES[bool(s.terminated[g])]} "
        f"truncated {_YES[bool(s.truncated[g])]}",
        f"steps: {int(s.steps[g])}",
        f"rng: {int(s.rng_key[g])} {int(s.rng_counter[g])}",
        "board:",
        "      " + "".join(f"{lane + 1:<4}" for lane in range(N_LANES)).rstrip(),
    ]
    board = s.board[g]
    loose = holder < 0 and s.ball_square[g] >= 0 and not s.ball_hidden[g]
    for row in range(N_ROWS):
        cells = []
        for lane in range(N_LANES):
            sq = row * N_LANES + lane
            slot = int(board[sq])
            if slot >= 0:
                cells.append(TAGS[slot] + ("@" if slot == holder else ""))
            elif loose and sq == s.ball_square[g]:
                cells.append("*")
            else:
                cells.append(".")
        # cells are 4 wide; a 4-character cell ("MLB@") still gets its separating space
        lines.append(f"{row + 1:>3} | " + " ".join(c.ljust(3) for c in cells).rstrip())
    return "\n".join(lines) + "\n"


_DEFAULTS = {
    "phase": "play", "to act": "one", "offence": "one", "opener": "one", "score": "0-0",
    "overtime": "no 0-0", "drives": "1-0", "down": "1", "rolls": "1", "points": "0-0",
    "dice": "0,0-0,0", "formations": "- -", "strong": "-", "specials": "- -", "forward pass used": "no",
    "lead blocker used": "no no", "follow": "- -", "scramble": "step 0 resume one", "ball": "-",
    "result": "winner - terminated no truncated no", "steps": "0", "rng": "0 0",
}


def from_diagram(text: str, config: GameConfig | None = None) -> State:
    """A batch of one from a diagram. Raises ValueError on a malformed diagram, naming the line.

    For hand-written positions (tests), header lines may be left out (see ``_DEFAULTS``; ``line to
    gain`` defaults to 3 rows ahead of the LOS, ``last holder`` to the offence), board rows may be
    left out (empty), and the carrier may be marked on the board with ``@`` instead of a ``ball:`` line.
    """
    from .engine import recompute_legal  # lazy: the engine imports this module for error messages

    lines = [ln.rstrip() for ln in text.strip("\n").splitlines() if ln.strip()]
    if not lines or lines[0].strip() != "gridiron diagram v1":
        raise ValueError("a diagram starts with the line 'gridiron diagram v1'")
    header: dict[str, str] = {}
    i = 1
    while i < len(lines) and lines[i].strip() != "board:":
        key, sep, value = lines[i].partition(":")
        if not sep:
            raise ValueError(f"diagram line {i + 1} is not 'key: value': {lines[i]!r}")
        header[key.strip()] = value.strip()
        i += 1
    if i >= len(lines):
        raise ValueError("the diagram has no 'board:' section")
    if "line of scrimmage" not in header:
        raise ValueError("the diagram needs a 'line of scrimmage: row R lane L' line")
    header = {**_DEFAULTS, **header}
    if "line to gain" not in header:
        los = int(header["line of scrimmage"].split()[1])
        header["line to gain"] = f"row {los - 3 if header['offence'] == 'one' else los + 3}"
    header.setdefault("last holder", header["offence"])

    s = State.empty(1)
    try:
        _read_header(s, header)
    except (KeyError, ValueError, IndexError) as err:
        raise ValueError(f"bad diagram header: {err!r}") from None
    seen_rows = set()
    for line in lines[i + 1:]:
        label, bar, cells_text = line.partition("|")
        if not bar:
            if line.split() == [str(n) for n in range(1, N_LANES + 1)]:
                continue  # the lane numbers
            raise ValueError(f"board line is not 'row | cells': {line!r}")
        try:
            row = int(label) - 1
        except ValueError:
            raise ValueError(f"board line has no row number: {line!r}") from None
        if not (0 <= row < N_ROWS) or row in seen_rows:
            raise ValueError(f"board row {row + 1} is off the grid or repeated: {line!r}")
        seen_rows.add(row)
        cells = cells_text.split()
        if len(cells) != N_LANES:
            raise ValueError(f"board row {row + 1} has {len(cells)} cells, needs {N_LANES}: {line!r}")
        for lane, cell in enumerate(cells):
            sq = row * N_LANES + lane
            if cell == ".":
                continue
            if cell == "*":
                s.ball_square[0] = sq
                continue
            tag = cell.rstrip("@")
            if tag not in _TAG_SLOT:
                raise ValueError(f"unknown tag {cell!r} at row {row + 1} lane {lane + 1}")
            slot = _TAG_SLOT[tag]
            if s.player_square[0, slot] >= 0:
                raise ValueError(f"tag {tag} stands twice on the board")
            s.board[0, sq] = slot
            s.player_square[0, slot] = sq
            if cell.endswith("@"):
                s.ball_holder[0] = slot
    if s.ball_holder[0] >= 0:
        s.ball_square[0] = s.player_square[0, s.ball_holder[0]]
    recompute_legal(s, config or GameConfig())
    return s


def _read_header(s: State, h: dict[str, str]) -> None:
    def pair(key):
        a, b = h[key].split("-")
        return int(a), int(b)

    s.phase[0] = PHASE_NAMES.index(h["phase"])
    s.to_act[0] = _TEAM_ID[h["to act"]]
    s.offence[0] = _TEAM_ID[h["offence"]]
    s.opener[0] = _TEAM_ID[h["opener"]]
    s.score[0] = pair("score")
    ot, ot_pts = h["overtime"].split()
    s.overtime[0] = ot == "yes"
    s.overtime_points[0] = [int(x) for x in ot_pts.split("-")]
    s.drives[0] = pair("drives")
    s.down[0] = int(h["down"])
    _, row, _, lane = h["line of scrimmage"].split()
    s.los_row[0], s.los_lane[0] = int(row) - 1, int(lane) - 1
    s.line_to_gain[0] = int(h["line to gain"].split()[1]) - 1
    s.rolls[0] = int(h["rolls"])
    s.points[0] = pair("points")
    mine, theirs = h["dice"].split("-")
    s.dice[0, 0] = [int(x) for x in mine.split(",")]
    s.dice[0, 1] = [int(x) for x in theirs.split(",")]
    off_f, def_f = h["formations"].split()
    s.formation[0] = [OFFENCE_FORMATIONS.index(off_f) if off_f != "-" else -1,
                      DEFENCE_FORMATIONS.index(def_f) if def_f != "-" else -1]
    strong = h["strong"].split()
    s.strong[0] = [t in strong for t in _STRONG_TAGS]
    s.special[0] = [SPECIALS.index(v) if v != "-" else -1 for v in h["specials"].split()]
    s.forward_pass_used[0] = h["forward pass used"] == "yes"
    s.lead_blocker_used[0] = [v == "yes" for v in h["lead blocker used"].split()]
    follow_sq, mover = h["follow"].split()
    s.follow_square[0] = _parse_sq(follow_sq)
    s.follow_mover[0] = _TAG_SLOT[mover] if mover != "-" else -1
    _, step_no, _, resume = h["scramble"].split()
    s.scramble_step[0] = int(step_no)
    s.resume_team[0] = _TEAM_ID[resume]
    ball = h["ball"].split()
    if ball[0] == "carrier":
        s.ball_holder[0] = _TAG_SLOT[ball[1]]
    elif ball[0] == "loose":
        s.ball_square[0] = _parse_sq(ball[1])
        s.ball_hidden[0] = len(ball) > 2 and ball[2] == "hidden"
    s.last_holder_team[0] = _TEAM_ID[h["last holder"]]
    r = h["result"].split()
    s.winner[0] = _TEAM_ID[r[1]]
    s.terminated[0] = r[3] == "yes"
    s.truncated[0] = r[5] == "yes"
    s.steps[0] = int(h["steps"])
    key, counter = h["rng"].split()
    s.rng_key[0] = np.uint64(int(key))
    s.rng_counter[0] = np.uint64(int(counter))
