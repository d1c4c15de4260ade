"""Position notation: a text diagram of one whole game state (like FEN in chess).

``to_diagram(state)`` writes game 0 of a state (or game ``game``); ``from_diagram(text)`` reads it back as
a batch of one. Rows and lanes are the rulebook's 1-based numbers. A header of ``key: value`` lines is
followed by the board: 30 rows (row 1 at the top), 18 cells each; a cell is ``.`` (empty), a player tag
(``QB``, ``MLB``: offence tags are the team on offence at the snap), the tag with ``@`` for the ball
carrier, or ``*`` for a loose ball that is not hidden. RULES.md shows a full example.

``to_diagram(state, game, team=T)`` is team T's view: what T may not see (``core.visibility``) is written
``hidden``; such a view is for showing (error messages), and ``from_diagram`` refuses it.

``from_diagram`` validates everything it reads: exact syntax and ranges of every header value, unknown,
repeated and missing keys, the board's rows, lanes and cells, what each phase allows (RULES.md
"Diagrams"), then the engine's invariants and its legal mask. Every refusal is a :class:`DiagramError`
(a ValueError) naming the line and/or the key.
"""

from __future__ import annotations

import re

import numpy as np

from ..config import GameConfig
from .actions import FIELD_GOAL, LEAD_BLOCKER, PUNT_BASE, SPECIALS
from .formations import DEFENCE_FORMATIONS, OFFENCE_FORMATIONS, OFFENCE_PLACEMENT
from .invariants import find_violations
from .legal import recompute_legal
from .geometry import (
    DISTANCE, FIRST_FIELD_ROW, FRAME_LANE, FRAME_ROW, HASH_BAND, LAST_FIELD_ROW, N_LANES, N_ROWS, N_SQUARES,
    QB, TAGS,
)
from .state import (
    DEFENCE_FORMATION, GAME_OVER, KICK_DECISION, OFFENCE_FORMATION, PHASE_NAMES, PLAY, SCRAMBLE,
    SPECIALS_PICK, State,
)
from .visibility import team_view

_TEAM = {0: "one", 1: "two", -1: "-"}
_TEAM_ID = {v: k for k, v in _TEAM.items()}
_YES = {True: "yes", False: "no"}
_TAG_SLOT = {t: i for i, t in enumerate(TAGS)}
_STRONG_TAGS = TAGS[1:6]
HIDDEN = "hidden"  # what a team's view writes in place of a value that team may not see

MAX_DIAGRAM_CHARS = 65_536  # a full diagram is about 3,300 characters
FIRST_LINE = "gridiron diagram v1"


class DiagramError(ValueError):
    """A diagram that cannot be read; the message names the line and/or the header key."""


class _DiagramTypeError(DiagramError, TypeError):
    """Not a str at all (also a TypeError, as Python's own functions raise for the wrong type)."""


def _sq(square: int) -> str:
    return "-" if square < 0 else f"{square // N_LANES + 1},{square % N_LANES + 1}"


def _pair(values, fmt=str) -> str:
    return "-".join(fmt(int(v)) for v in values)


def to_diagram(state: State, game: int = 0, team: int | None = None) -> str:
    """The diagram of game ``game`` of ``state``; complete (it reads back with ``from_diagram``) when
    ``team`` is None. ``team`` 0 or 1: that team's view, with what it may not see (the hidden ball's
    square, the other team's special during the pick, the rng stream) written ``hidden``; -1: a
    spectator's view (neither special during the pick). A view does not read back."""
    g = int(game)
    if not -state.batch_size <= g < state.batch_size:
        raise ValueError(f"game {game} is not in the batch of {state.batch_size}")
    if team is not None:
        if isinstance(team, bool) or not isinstance(team, (int, np.integer)) or int(team) not in (-1, 0, 1):
            raise ValueError(f"team must be 0, 1, -1 (a spectator) or None, got {team!r}")
        return _write(team_view(state, [g], team=int(team)), 0, int(team))
    return _write(state, g, None)


def _write(s: State, g: int, viewer: int | None) -> str:
    formation = s.formation[g]
    holder = int(s.ball_holder[g])
    if holder >= 0:
        ball = f"carrier {TAGS[holder]}"
    elif s.ball_hidden[g] and viewer is not None:
        ball = f"loose {HIDDEN}"
    elif s.ball_square[g] >= 0:
        ball = f"loose {_sq(int(s.ball_square[g]))}" + (" hidden" if s.ball_hidden[g] else "")
    else:
        ball = "-"
    strong = [t for t, on in zip(_STRONG_TAGS, s.strong[g]) if on]
    specials = [SPECIALS[v] if v >= 0 else "-" for v in s.special[g]]
    if viewer is not None and s.phase[g] == SPECIALS_PICK:
        specials = [v if t == viewer else HIDDEN for t, v in enumerate(specials)]
    lines = [FIRST_LINE]
    if viewer is not None:
        lines.append(f"view: team {_TEAM[viewer]}" if viewer >= 0 else "view: spectator")
    lines += [
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
        "specials: " + " ".join(specials),
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
        f"rng: {HIDDEN}" if viewer is not None else f"rng: {int(s.rng_key[g])} {int(s.rng_counter[g])}",
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


# --- reading ---------------------------------------------------------------------------------------------

# Every header key, in the order to_diagram writes them, with its default in a partial diagram (None:
# required, or a default that depends on the phase and other keys; see _default).
KEYS = (
    "phase", "to act", "offence", "opener", "score", "overtime", "drives", "down", "line of scrimmage",
    "line to gain", "rolls", "points", "dice", "formations", "strong", "specials", "forward pass used",
    "lead blocker used", "follow", "scramble", "ball", "last holder", "result", "steps", "rng",
)
_DEFAULTS = {
    "phase": "play", "offence": "one", "opener": "one", "score": "0-0",
    "overtime": "no 0-0", "drives": "1-0", "down": "1", "points": "0-0",
    "dice": "0,0-0,0", "formations": "- -", "strong": "-", "specials": "- -", "forward pass used": "no",
    "lead blocker used": "no no", "follow": "- -", "scramble": "step 0 resume one",
    "result": "winner - terminated no truncated no", "steps": "0", "rng": "0 0",
}
_BEFORE_PLAY = (SPECIALS_PICK, OFFENCE_FORMATION, DEFENCE_FORMATION, KICK_DECISION)
_FULL_FIELD = (KICK_DECISION, PLAY, SCRAMBLE)

# Ranges of the numbers (inclusive). Counts that the engine adds to are capped well below their dtype's
# limit, so no step can overflow them.
MAX_SCORE = 999  # score and drives (int16); a game to at most 99 points never comes near
MAX_OVERTIME_POINTS = 9  # a live overtime has at most 3 a team (4 ends it); a touchdown adds 6
MAX_ROLLS = 101  # GameConfig.max_rolls_per_down is at most 100; a game that ends on the capped roll keeps 101
MAX_STEPS = 2**31 - 2  # steps (int32); a step adds one
MAX_RNG_COUNTER = 2**63 - 1  # a step draws far fewer than 2**63 numbers: the counter never wraps


class _Bad(Exception):
    """A value's problem, before the caller adds where it is."""


def _show(text: str) -> str:
    """A value as quoted in a message, cut short (a diagram may be up to MAX_DIAGRAM_CHARS long)."""
    return repr(text) if len(text) <= 40 else repr(text[:40]) + "..."


_INT = re.compile(r"[0-9]{1,20}")
_SQUARE = re.compile(r"([0-9]{1,2}),([0-9]{1,2})")
_ROW_LINE = re.compile(r"\s*([0-9]{1,3})\s*\|(.*)")


def _int(text: str, low: int, high: int, what: str) -> int:
    if not _INT.fullmatch(text):
        raise _Bad(f"{what} must be a whole number from {low} to {high}, got {_show(text)}")
    value = int(text)
    if not low <= value <= high:
        raise _Bad(f"{what} must be from {low} to {high}, got {value}")
    return value


def _words(value: str, n: int, form: str) -> list[str]:
    words = value.split()
    if len(words) != n:
        raise _Bad(f"the value must be {form}, got {_show(value)}")
    return words


def _choice(text: str, allowed, what: str):
    if text not in allowed:
        raise _Bad(f"{what} must be one of {', '.join(allowed)}; got {_show(text)}")
    return allowed[text] if isinstance(allowed, dict) else text


def _team(text: str, what: str, none_ok: bool = False) -> int:
    allowed = {"one": 0, "two": 1, "-": -1} if none_ok else {"one": 0, "two": 1}
    return _choice(text, allowed, what)


def _yes(text: str, what: str) -> bool:
    return _choice(text, {"yes": True, "no": False}, what)


def _int_pair(value: str, high: int, what: str) -> tuple[int, int]:
    parts = value.split("-")
    if len(parts) != 2:
        raise _Bad(f"{what} must be 'a-b' (team one's, then team two's), got {_show(value)}")
    return _int(parts[0], 0, high, f"team one's {what}"), _int(parts[1], 0, high, f"team two's {what}")


def _square(text: str, what: str) -> int:
    m = _SQUARE.fullmatch(text)
    if not m:
        raise _Bad(f"{what} must be a square 'row,lane', got {_show(text)}")
    row, lane = int(m.group(1)), int(m.group(2))
    if not (1 <= row <= N_ROWS and 1 <= lane <= N_LANES):
        raise _Bad(f"{what} {_show(text)} is off the {N_ROWS} x {N_LANES} grid (rows 1-{N_ROWS}, lanes 1-{N_LANES})")
    return (row - 1) * N_LANES + lane - 1


def _tag(text: str, what: str, allowed=TAGS) -> int:
    if text not in allowed:
        raise _Bad(f"{what} must be a player tag ({' '.join(allowed)}), got {_show(text)}")
    return _TAG_SLOT[text]


def _parse_value(key: str, value: str) -> dict:
    """The State values (python ints and bools, 0-based) of one header line."""
    if key == "phase":
        return {"phase": PHASE_NAMES.index(_choice(value, PHASE_NAMES, "the phase"))}
    if key == "to act":
        return {"to_act": _team(value, "the team to act", none_ok=True)}
    if key == "offence":
        return {"offence": _team(value, "the offence")}
    if key == "opener":
        return {"opener": _team(value, "the opener")}
    if key == "last holder":
        return {"last_holder_team": _team(value, "the last holder")}
    if key == "score":
        return {"score": _int_pair(value, MAX_SCORE, "score")}
    if key == "drives":
        return {"drives": _int_pair(value, MAX_SCORE, "drives")}
    if key == "points":
        return {"points": _int_pair(value, 8, "die points")}
    if key == "overtime":
        on, pts = _words(value, 2, "'yes' or 'no', then the overtime points 'a-b'")
        return {"overtime": _yes(on, "overtime"), "overtime_points": _int_pair(pts, MAX_OVERTIME_POINTS, "overtime points")}
    if key == "down":
        return {"down": _int(value, 1, 5, "the down")}  # 5: a game that ended on a failed 4th down keeps it
    if key == "line of scrimmage":
        w = _words(value, 4, "'row R lane L'")
        if w[0] != "row" or w[2] != "lane":
            raise _Bad(f"the value must be 'row R lane L', got {_show(value)}")
        return {"los_row": _int(w[1], 1, N_ROWS, "the row") - 1, "los_lane": _int(w[3], 1, N_LANES, "the lane") - 1}
    if key == "line to gain":
        w = _words(value, 2, "'row R'")
        if w[0] != "row":
            raise _Bad(f"the value must be 'row R', got {_show(value)}")
        return {"line_to_gain": _int(w[1], 1, N_ROWS, "the row") - 1}
    if key == "rolls":
        return {"rolls": _int(value, 0, MAX_ROLLS, "rolls")}
    if key == "dice":
        sides = value.split("-")
        if len(sides) != 2:
            raise _Bad(f"the dice must be 'h,l-h,l' (each team's high die, low die), got {_show(value)}")
        dice = []
        for team, side in zip(("one", "two"), sides):
            faces = side.split(",")
            if len(faces) != 2:
                raise _Bad(f"team {team}'s dice must be two faces 'h,l', got {_show(side)}")
            high, low = (_int(f, 0, 6, f"team {team}'s die") for f in faces)
            if (high == 0) != (low == 0) or high < low:
                raise _Bad(f"team {team}'s dice must be high then low, faces 1-6 (or 0,0 before the first "
                           f"roll), got {_show(side)}")
            dice.append((high, low))
        if (dice[0][0] == 0) != (dice[1][0] == 0):
            raise _Bad(f"both teams roll together: both pairs are 0,0 or neither, got {_show(value)}")
        return {"dice": dice}
    if key == "formations":
        off, dfn = _words(value, 2, "the offence's and the defence's formation names ('-' unset)")
        return {"formation": (
            -1 if off == "-" else OFFENCE_FORMATIONS.index(_choice(off, OFFENCE_FORMATIONS, "the offence formation")),
            -1 if dfn == "-" else DEFENCE_FORMATIONS.index(_choice(dfn, DEFENCE_FORMATIONS, "the defence formation")))}
    if key == "strong":
        words = value.split()
        if words == ["-"]:
            return {"strong": [False] * 5}
        if not words or len(set(words)) != len(words):
            raise _Bad(f"the value must be '-' or distinct interior linemen ({' '.join(_STRONG_TAGS)}), got {_show(value)}")
        for w in words:
            _tag(w, "a strong lineman", _STRONG_TAGS)
        return {"strong": [t in words for t in _STRONG_TAGS]}
    if key == "specials":
        words = _words(value, 2, "each team's special player ('-' none)")
        return {"special": [-1 if w == "-" else SPECIALS.index(_choice(w, SPECIALS, "a special")) for w in words]}
    if key == "forward pass used":
        return {"forward_pass_used": _yes(value, "the value")}
    if key == "lead blocker used":
        words = _words(value, 2, "'yes' or 'no' for each team")
        return {"lead_blocker_used": [_yes(w, "each team's value") for w in words]}
    if key == "follow":
        square, mover = _words(value, 2, "the square of a pending follow and the mover's tag ('- -' none)")
        return {"follow_square": -1 if square == "-" else _square(square, "the follow square"),
                "follow_mover": -1 if mover == "-" else _tag(mover, "the mover")}
    if key == "scramble":
        w = _words(value, 4, "'step N resume one/two'")
        if w[0] != "step" or w[2] != "resume":
            raise _Bad(f"the value must be 'step N resume one/two', got {_show(value)}")
        return {"scramble_step": _int(w[1], 0, 1, "the blind steps taken"), "resume_team": _team(w[3], "the resume team")}
    if key == "ball":
        w = value.split()
        if w == ["-"]:
            return {"ball": ("none",)}
        if len(w) == 2 and w[0] == "carrier":
            return {"ball": ("carrier", _tag(w[1], "the carrier"))}
        if w[:1] == ["loose"] and len(w) in (2, 3) and (len(w) == 2 or w[2] == "hidden"):
            return {"ball": ("loose", _square(w[1], "the ball's square"), len(w) == 3)}
        raise _Bad(f"the value must be 'carrier TAG', 'loose r,l', 'loose r,l hidden' or '-', got {_show(value)}")
    if key == "result":
        w = _words(value, 6, "'winner one/two/- terminated yes/no truncated yes/no'")
        if (w[0], w[2], w[4]) != ("winner", "terminated", "truncated"):
            raise _Bad(f"the value must be 'winner one/two/- terminated yes/no truncated yes/no', got {_show(value)}")
        return {"winner": _team(w[1], "the winner", none_ok=True), "terminated": _yes(w[3], "terminated"),
                "truncated": _yes(w[5], "truncated")}
    if key == "steps":
        return {"steps": _int(value, 0, MAX_STEPS, "steps")}
    if key == "rng":
        key_text, counter = _words(value, 2, "the stream key and counter")
        return {"rng_key": _int(key_text, 0, 2**64 - 1, "the rng key"),
                "rng_counter": _int(counter, 0, MAX_RNG_COUNTER, "the rng counter")}
    raise AssertionError(key)  # (KEYS and this function list the same keys)


def _fail(message: str):
    raise DiagramError(message)


def from_diagram(text: str, config: GameConfig | None = None) -> State:
    """A batch of one from a diagram, its legal mask computed with ``config``.

    Raises DiagramError (a ValueError) naming the line and/or key on anything it cannot read, on a
    position a phase does not allow, and on one that breaks the engine's invariants. For hand-written
    positions (tests), header lines but ``line of scrimmage`` may be left out (see RULES.md "Diagrams"),
    board rows may be left out (empty), and the carrier may be marked on the board with ``@`` instead of
    a ``ball:`` line.
    """
    if not isinstance(text, str):
        raise _DiagramTypeError(f"diagram: a diagram is a str, got {type(text).__name__}")
    if len(text) > MAX_DIAGRAM_CHARS:
        _fail(f"diagram: {len(text)} characters is too long for a diagram (at most {MAX_DIAGRAM_CHARS})")
    if config is not None and not isinstance(config, GameConfig):
        raise _DiagramTypeError(f"diagram: config must be a GameConfig or None, got {type(config).__name__}")
    config = config or GameConfig()
    numbered = [(n, ln.strip()) for n, ln in enumerate(text.split("\n"), 1) if ln.strip()]
    if not numbered or numbered[0][1] != FIRST_LINE:
        where = f"line {numbered[0][0]}" if numbered else "line 1"
        _fail(f"diagram {where}: a diagram starts with the line {FIRST_LINE!r}")

    # --- header: known keys, each once
    lines_of: dict[str, int] = {}
    header: dict[str, str] = {}
    i = 1
    while i < len(numbered) and numbered[i][1] != "board:":
        n, line = numbered[i]
        key, sep, value = line.partition(":")
        key = key.strip()
        if not sep:
            _fail(f"diagram line {n}: not 'key: value' (or 'board:'): {line[:80]!r}")
        if key == "view":
            _fail(f"diagram line {n} ('view'): this is a team's view of a game (to_diagram(..., team=)), with "
                  "hidden fields left out; it cannot be read back")
        if key not in KEYS:
            _fail(f"diagram line {n}: unknown key {_show(key)}; the keys are: {', '.join(KEYS)}")
        if key in lines_of:
            _fail(f"diagram line {n} ({key!r}): {key!r} is given twice (first on line {lines_of[key]})")
        lines_of[key] = n
        header[key] = value.strip()
        i += 1
    if i >= len(numbered):
        _fail(f"diagram line {numbered[-1][0] + 1}: the diagram has no 'board:' line")
    board_line = numbered[i][0]

    def where(key: str) -> str:
        if key in lines_of:
            return f"line {lines_of[key]} ({key!r})"
        return f"key {key!r} (left out: default {header.get(key, '-')!r})"

    def bad(key: str, message: str):
        _fail(f"diagram {where(key)}: {message}")

    if "line of scrimmage" not in header:
        _fail(f"diagram line {board_line}: the key 'line of scrimmage' is missing (it has no default)")

    # --- header values, strictly; phase-dependent defaults for the keys left out
    v: dict = {}

    def read(key: str) -> None:
        try:
            v.update(_parse_value(key, header[key]))
        except _Bad as err:
            bad(key, str(err))

    for key in ("phase", "offence", "line of scrimmage"):
        header.setdefault(key, _DEFAULTS.get(key, ""))
        read(key)
    phase, offence = v["phase"], v["offence"]
    live = phase != GAME_OVER
    los_row = v["los_row"]
    defaults = {
        "to act": {GAME_OVER: "-", OFFENCE_FORMATION: _TEAM[offence], KICK_DECISION: _TEAM[offence],
                   DEFENCE_FORMATION: _TEAM[1 - offence]}.get(phase, "one"),
        "line to gain": f"row {min(max(los_row + 1 + (-3 if offence == 0 else 3), 1), N_ROWS)}",
        "last holder": _TEAM[offence],
        "rolls": "1" if phase in (PLAY, SCRAMBLE) else "0",
        "ball": "carrier QB" if phase == DEFENCE_FORMATION else "-",
    }
    for key in KEYS:
        if key not in header:
            header[key] = defaults[key] if key in defaults else _DEFAULTS[key]
        if key not in ("phase", "offence", "line of scrimmage"):
            read(key)

    # --- the board
    squares: dict[int, int] = {}  # slot -> square
    carrier_mark = star = None
    seen_rows: dict[int, int] = {}
    body = numbered[i + 1:]
    if body and body[0][1].split() == [str(k) for k in range(1, N_LANES + 1)]:
        body = body[1:]  # the lane numbers
    for n, line in body:
        m = _ROW_LINE.fullmatch(line)
        if not m:
            _fail(f"diagram line {n}: a board line is 'R | 18 cells' (R a row 1-{N_ROWS}): {line[:80]!r}")
        row = int(m.group(1))
        if not 1 <= row <= N_ROWS:
            _fail(f"diagram line {n}: board row {row} is off the grid (rows 1-{N_ROWS})")
        if row in seen_rows:
            _fail(f"diagram line {n}: board row {row} is given twice (first on line {seen_rows[row]})")
        seen_rows[row] = n
        cells = m.group(2).split()
        if len(cells) != N_LANES:
            _fail(f"diagram line {n}: board row {row} has {len(cells)} cells, needs {N_LANES}")
        for lane, cell in enumerate(cells, 1):
            sq = (row - 1) * N_LANES + lane - 1
            if cell == ".":
                continue
            if cell == "*":
                if star is not None:
                    _fail(f"diagram line {n}: a second loose ball '*' at row {row} lane {lane} (one at line {star[1]})")
                star = (sq, n)
                continue
            tag = cell[:-1] if cell.endswith("@") else cell
            if tag not in _TAG_SLOT:
                _fail(f"diagram line {n}: unknown cell {_show(cell)} at row {row} lane {lane}; a cell is '.', '*', "
                      "a player tag, or a tag with '@' (the carrier)")
            slot = _TAG_SLOT[tag]
            if slot in squares:
                _fail(f"diagram line {n}: {tag} stands twice on the board (row {row} lane {lane})")
            squares[slot] = sq
            if cell.endswith("@"):
                if carrier_mark is not None:
                    _fail(f"diagram line {n}: a second carrier {cell} at row {row} lane {lane} (one at line "
                          f"{carrier_mark[1]})")
                carrier_mark = (slot, n)

    # --- the ball: the ball line and the board must agree
    ball = v.pop("ball")
    holder, ball_square, hidden = -1, -1, False
    if ball[0] == "carrier":
        holder = ball[1]
        if carrier_mark is not None and carrier_mark[0] != holder:
            bad("ball", f"the carrier is {TAGS[holder]} but the board marks {TAGS[carrier_mark[0]]}@ "
                        f"(line {carrier_mark[1]})")
    elif ball[0] == "loose":
        ball_square, hidden = ball[1], ball[2]
        if carrier_mark is not None:
            bad("ball", f"the ball is loose but the board marks a carrier (line {carrier_mark[1]})")
        if star is not None and (hidden or star[0] != ball_square):
            bad("ball", f"the board's '*' (line {star[1]}) is not the visible loose ball of this line")
    elif carrier_mark is not None:
        holder = carrier_mark[0]
    if star is not None:
        if holder >= 0:
            bad("ball", f"the ball has a carrier but the board shows a loose ball '*' (line {star[1]})")
        ball_square = star[0]
    if holder >= 0:
        if holder not in squares:
            bad("ball", f"the carrier {TAGS[holder]} is not on the board")
        ball_square = squares[holder]
    elif ball_square >= 0 and ball_square in squares.values() and live:
        bad("ball", f"the loose ball's square {_sq(ball_square)} is not empty")

    # --- what each phase allows (RULES.md "Diagrams"); derived from what the engine sets and reads
    to_act, name = v["to_act"], PHASE_NAMES[phase]
    on_field = set(squares)
    n_off, n_def = sum(s < 11 for s in on_field), sum(s >= 11 for s in on_field)
    if v["terminated"] and v["truncated"]:
        bad("result", "a game is not both terminated (won) and truncated (capped, no winner)")
    if live:
        if v["winner"] >= 0 or v["terminated"] or v["truncated"]:
            bad("result", f"a game in the {name} phase has no result yet (winner -, terminated no, truncated no); "
                          "a finished game is in the game_over phase")
        if to_act < 0:
            bad("to act", f"a game in the {name} phase needs a team to act (one or two)")
        if v["down"] > 4:
            bad("down", "the down must be from 1 to 4 in a live game")
        if not (FIRST_FIELD_ROW <= los_row <= LAST_FIELD_ROW):
            bad("line of scrimmage", f"the line of scrimmage must be in the field of play (rows "
                                     f"{FIRST_FIELD_ROW + 1}-{LAST_FIELD_ROW + 1}) in a live game")
        if not (HASH_BAND[0] <= v["los_lane"] <= HASH_BAND[-1]):
            bad("line of scrimmage", f"the ball's lane at the snap must be in the hash band (lanes "
                                     f"{HASH_BAND[0] + 1}-{HASH_BAND[-1] + 1}) in a live game")
        gain = v["line_to_gain"]
        if (offence == 0 and gain >= los_row) or (offence == 1 and gain <= los_row):
            bad("line to gain", f"the line to gain (row {gain + 1}) must be ahead of the line of scrimmage "
                                f"(row {los_row + 1}) for team {_TEAM[offence]}, which attacks "
                                f"{'up' if offence == 0 else 'down'} the page")
        if v["overtime"] and max(v["overtime_points"]) >= 4:
            bad("overtime", "a live overtime has at most 3 overtime points a team (4 ends the game)")
    else:
        if not (v["terminated"] or v["truncated"]):
            bad("result", "a game_over game is terminated (with a winner) or truncated")
        if v["terminated"] and v["winner"] < 0:
            bad("result", "a terminated game has a winner")
        if v["truncated"] and v["winner"] >= 0:
            bad("result", "a truncated game has no winner")
        if to_act >= 0:
            bad("to act", "nobody acts once the game is over ('to act: -')")
    if not v["overtime"] and any(v["overtime_points"]):
        bad("overtime", "overtime points outside overtime")
    if any(p > s for p, s in zip(v["overtime_points"], v["score"])):
        bad("overtime", f"overtime points exceed the score {v['score'][0]}-{v['score'][1]}")

    if phase == SPECIALS_PICK:
        if not config.specials:
            bad("phase", "there is no specials phase with GameConfig(specials=False)")
        first, second = v["special"]
        if to_act == 0 and (first >= 0 or second >= 0):
            bad("specials", "team one picks first: while it is to act no special is picked yet")
        if to_act == 1 and (first < 0 or second >= 0):
            bad("specials", "team two picks second: while it is to act team one's special is picked, "
                            "team two's not yet")
    elif phase in (OFFENCE_FORMATION, KICK_DECISION) and to_act != offence:
        bad("to act", f"in the {name} phase the offence (team {_TEAM[offence]}) is to act")
    elif phase == DEFENCE_FORMATION and to_act != 1 - offence:
        bad("to act", f"in the {name} phase the defence (team {_TEAM[1 - offence]}) is to act")

    if phase in _BEFORE_PLAY:
        for key, field, clear in (("points", "points", (0, 0)), ("rolls", "rolls", 0),
                                  ("forward pass used", "forward_pass_used", False),
                                  ("lead blocker used", "lead_blocker_used", [False, False]),
                                  ("last holder", "last_holder_team", offence)):
            if (list(v[field]) if isinstance(clear, (tuple, list)) else v[field]) != (
                    list(clear) if isinstance(clear, (tuple, list)) else clear):
                shown = {"points": "0-0", "rolls": "0", "forward pass used": "no", "lead blocker used": "no no",
                         "last holder": _TEAM[offence]}[key]
                bad(key, f"before the first roll of a down (the {name} phase) it is {shown!r}")
        if v["scramble_step"] != 0:
            bad("scramble", f"no scramble before the first roll of a down (the {name} phase): step 0")
        if v["follow_square"] >= 0:
            bad("follow", f"no follow is pending before the first roll of a down (the {name} phase)")
    if phase in (SPECIALS_PICK, OFFENCE_FORMATION, DEFENCE_FORMATION) and any(v["strong"]):
        bad("strong", f"the strong linemen are rolled after the defence lines up, not in the {name} phase: '-'")
    if phase in (PLAY, SCRAMBLE) and v["rolls"] < 1:
        bad("rolls", f"the {name} phase comes after the dice have rolled at least once this down")

    # the pieces on the board
    field_rule = {SPECIALS_PICK: (0, 0), OFFENCE_FORMATION: (0, 0), DEFENCE_FORMATION: (11, 0)}.get(
        phase, (11, 11) if phase in _FULL_FIELD else None)
    if field_rule is not None and (n_off, n_def) != field_rule:
        want = {(0, 0): "no players on the field", (11, 0): "the offence's 11 players and none of the defence",
                (11, 11): "all 22 players"}[field_rule]
        _fail(f"diagram line {board_line} ('board:'): the {name} phase has {want} on the field; the board has "
              f"{n_off} offence and {n_def} defence players")
    off_f, def_f = v["formation"]
    if phase in (SPECIALS_PICK, OFFENCE_FORMATION) and (off_f >= 0 or def_f >= 0):
        bad("formations", f"no formation is picked yet in the {name} phase: '- -'")
    if phase == DEFENCE_FORMATION:
        if off_f < 0 or def_f >= 0:
            bad("formations", "in the defence_formation phase the offence's formation is picked, the defence's not: "
                              "'<offence formation> -'")
        band = int(FRAME_LANE[offence, v["los_lane"]]) - HASH_BAND[0]
        spots = OFFENCE_PLACEMENT[off_f, int(FRAME_ROW[offence, los_row * N_LANES]), band].astype(np.int64)
        spots = spots if offence == 0 else N_SQUARES - 1 - spots
        for slot, spot in enumerate(spots.tolist()):
            if squares.get(slot) != spot:
                _fail(f"diagram line {board_line} ('board:'): in the defence_formation phase the offence stands in "
                      f"its formation ({OFFENCE_FORMATIONS[off_f]}): {TAGS[slot]} belongs on {_sq(spot)}, the board "
                      f"has {_sq(squares.get(slot, -1))}")

    # the ball in each phase
    if phase in (SPECIALS_PICK, OFFENCE_FORMATION):
        if holder >= 0 or hidden or ball_square not in (-1, los_row * N_LANES + v["los_lane"]):
            bad("ball", f"before the snap (the {name} phase) the ball is '-' or loose on the line of scrimmage's "
                        f"square {_sq(los_row * N_LANES + v['los_lane'])}")
    elif phase in (DEFENCE_FORMATION, KICK_DECISION):
        if holder < 0 or (phase == DEFENCE_FORMATION and holder != QB):
            bad("ball", f"in the {name} phase the ball has a carrier" + (
                " (the QB: the ball is snapped to him)" if phase == DEFENCE_FORMATION else ""))
    elif phase == PLAY:
        if hidden:
            bad("ball", "the ball is hidden only in the scramble phase (a blind fumble scramble)")
        if holder < 0 and ball_square < 0:
            bad("ball", "in the play phase the ball has a carrier or lies loose on a square")
    elif phase == SCRAMBLE:
        if holder >= 0 or not hidden:
            bad("ball", "in the scramble phase the ball lies loose and hidden: 'loose r,l hidden'")
    elif hidden:
        bad("ball", "the ball is hidden only in the scramble phase (a blind fumble scramble)")

    # a pending Lead Blocker follow (rule 24)
    follow, mover = v["follow_square"], v["follow_mover"]
    if follow >= 0 and live:
        if phase != PLAY:
            bad("follow", f"a follow is pending only in the play phase, not in the {name} phase")
        if mover < 0 or mover not in squares:
            bad("follow", "a pending follow needs the mover, on the board")
        team = offence if mover < 11 else 1 - offence
        if team != to_act:
            bad("follow", f"the mover {TAGS[mover]} is not on the team to act")
        if v["special"][team] != LEAD_BLOCKER or v["lead_blocker_used"][team]:
            bad("follow", f"a follow needs the mover's team to have lead_blocker, not yet used this play")
        if follow in squares.values() or DISTANCE[follow, squares[mover]] != 1:
            bad("follow", f"the follow square {_sq(follow)} is the empty square just left by {TAGS[mover]}: "
                          "empty, next to him")

    # --- the state, its legal mask and the engine's invariants
    s = State.empty(1)
    for field, value in v.items():
        getattr(s, field)[0] = value
    s.rng_key[0] = np.uint64(v["rng_key"])
    s.rng_counter[0] = np.uint64(v["rng_counter"])
    for slot, sq in squares.items():
        s.board[0, sq] = slot
        s.player_square[0, slot] = sq
    s.ball_holder[0], s.ball_square[0], s.ball_hidden[0] = holder, ball_square, hidden
    try:
        recompute_legal(s, config)
        problems = find_violations(s)
    except Exception as err:  # a position the checks above let through but the engine cannot read
        bad("phase", f"the engine cannot play this position ({type(err).__name__}: {str(err)[:200]})")
    if problems:
        bad("phase", "the position breaks the engine's invariants: " + "; ".join(m for _, m in problems[:5]))
    if phase == KICK_DECISION and not (s.legal[0, FIELD_GOAL] or s.legal[0, PUNT_BASE]):
        bad("down", "the kick_decision phase comes only with a field goal in range or on 4th down")
    return s
