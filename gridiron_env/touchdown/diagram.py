"""Position notation: a text diagram of one Touchdown game (like FEN in chess).

``to_diagram(state, game)`` writes one game; ``from_diagram(text, config)`` reads it back as a batch of one
(its random stream keyed on ``seed``). The format is a title line, fixed ``key: value`` lines in this
order, and in a play the board (RULES.md "Diagram notation" shows examples)::

    touchdown diagram v1
    phase: play                 one of PHASE_NAMES
    to act: one                 one / two / -
    offence: one                the team with the series: its pieces are the upper-case letters
    possession: one             the team with the ball (in a play)
    score: 7-3                  team one - team two
    clock: 2 4 19 two           quarter, scrimmages of the quarter, of the game, opening kicker
    series: 1 12 22 7           down, LOS and line to gain (offence's rows), snap lane (1-based)
    call: pro set / base        the formations of the play (- none)
    holder: Q                   the piece holding the ball, - (loose or between plays)
    marked: E m                 the pieces with missed-tackle markers, or -
    stacked: -                  the pieces sharing '*' squares, in reading order, pairs like Cm
    turn: B 1 2 BQ 3 0          moving piece (-), its squares left, parts done, pieces moved (-), turns, idle
    flags: limits               limits, forward thrown, loose lateral; or -
    entered by: -               the team that put the ball into the end zone it is in
    pass: -                     interception phase: passer receiver forward|lateral close|open
    kick: -                     kick choice: kick-off|punt row lane (receiver's row, 1-based lane)
    event: snap 3 4 0           the last chance event and its dice
    steps: 57
    result: playing             playing / one wins / two wins / draw / truncated
    board:                      (a play only) rows from team two's end line down to team one's,
     32 |.............|         each labelled with team one's row number; '.' a square, 'o' the loose
    ...                         ball, '*' two pieces, letters the pieces

Piece letters (``LETTERS``): the offence's slots 1-7 are ``L C R E B T Q`` (left guard, centre, right
guard, end, back, receiver, quarterback), the defence's ``l m r j k u v`` (three linemen, two linebackers,
two backs). Everything is validated: an unknown or missing line, a bad value or a state that breaks an
invariant raises ValueError naming the line.
"""

from __future__ import annotations

import numpy as np

from ..small_games.diagram import (
    TEAM_NAMES, check_diagram_state, number_pair, read_diagram, read_result, result_text, team,
)
from .config import END_ZONE_ROWS, TouchdownConfig
from .formations import DEFENCE_NAMES, OFFENCE_NAMES
from .state import DRAW, EVENT_NAMES, INTERCEPTION, N_PIECES, PHASE_NAMES, PLAY, State, board_config, board_of

TITLE = "touchdown diagram v1"
KEYS = ("phase", "to act", "offence", "possession", "score", "clock", "series", "call", "holder", "marked",
        "stacked", "turn", "flags", "entered by", "pass", "kick", "event", "steps", "result")
LETTERS = "LCREBTQlmrjkuv"  # by slot 0-13
_TEAM = TEAM_NAMES
_FLAGS = ("limits", "forward thrown", "loose lateral")
_KICKS = ("kick-off", "punt")


def _letters(mask) -> str:
    out = "".join(LETTERS[i] for i in np.flatnonzero(mask))
    return out or "-"


def board_lines(s: State, g: int, config: TouchdownConfig) -> list:
    """The board rows of game g, top (team two's end line) first."""
    H, W = config.rows, config.lanes
    grid = [["."] * W for _ in range(H)]
    for slot in range(N_PIECES):
        lane, row = int(s.lane[g, slot]), int(s.row[g, slot])
        if 0 <= lane < W and 0 <= row < H:
            grid[row][lane] = "*" if grid[row][lane] != "." else LETTERS[slot]
    if int(s.holder[g]) < 0:
        bl, br = int(s.ball_lane[g]), int(s.ball_row[g])
        if 0 <= bl < W and 0 <= br < H and grid[br][bl] == ".":
            grid[br][bl] = "o"
    return [f"{r - 1:>3} |{''.join(grid[r])}|" for r in range(H - 1, -1, -1)]


def _stacks(s: State, g: int, config: TouchdownConfig) -> list:
    """The pairs of slots sharing a square, in reading order (top row first, then lanes)."""
    seen = {}
    for slot in range(N_PIECES):
        seen.setdefault((int(s.row[g, slot]), int(s.lane[g, slot])), []).append(slot)
    pairs = [(key, v) for key, v in seen.items() if len(v) > 1]
    pairs.sort(key=lambda kv: (-kv[0][0], kv[0][1]))
    return ["".join(LETTERS[i] for i in v) for _, v in pairs]


def to_diagram(state: State, game: int = 0, config: TouchdownConfig | None = None) -> str:
    """The diagram of game ``game`` of ``state`` (on the state's own board unless ``config`` is given)."""
    g = int(game)
    if not (0 <= g < state.batch_size):
        raise ValueError(f"game {game!r} is outside 0..{state.batch_size - 1}")
    config = board_config(state, g, config)
    s = state
    ph = int(s.phase[g])
    in_play = ph in (PLAY, INTERCEPTION)
    of, df = int(s.offence_formation[g]), int(s.defence_formation[g])
    call = f"{OFFENCE_NAMES[of] if of >= 0 else '-'} / {DEFENCE_NAMES[df] if df >= 0 else '-'}"
    act = int(s.active[g])
    moved = (int(s.moved[g]) >> np.arange(N_PIECES)) & 1
    turn = (f"{LETTERS[act] if act >= 0 else '-'} {int(s.steps_left[g])} {int(s.parts[g])} "
            f"{_letters(moved.astype(bool))} {int(s.turns[g])} {int(s.idle[g])}")
    flags = [name for name, v in zip(_FLAGS, (s.limits[g], s.forward_thrown[g], s.loose_lateral[g])) if v]
    if ph == INTERCEPTION:
        pas = (f"{LETTERS[int(s.pass_from[g])]} {LETTERS[int(s.pass_to[g])]} "
               f"{'forward' if s.pass_forward[g] else 'lateral'} {'close' if s.pass_close[g] else 'open'}")
    else:
        pas = "-"
    kick = "-" if int(s.kick_kind[g]) < 0 else f"{_KICKS[int(s.kick_kind[g])]} {int(s.kick_row[g])} {int(s.kick_lane[g]) + 1}"
    values = {
        "phase": PHASE_NAMES[ph],
        "to act": _TEAM[int(s.to_act[g])],
        "offence": _TEAM[int(s.offence[g])],
        "possession": _TEAM[int(s.poss[g])],
        "score": f"{int(s.score[g, 0])}-{int(s.score[g, 1])}",
        "clock": f"{int(s.quarter[g])} {int(s.scrimmage[g])} {int(s.scrimmages[g])} {_TEAM[int(s.opening_kicker[g])]}",
        "series": f"{int(s.down[g])} {int(s.los[g])} {int(s.to_gain[g])} {int(s.los_lane[g]) + 1}",
        "call": call,
        "holder": LETTERS[int(s.holder[g])] if int(s.holder[g]) >= 0 else "-",
        "marked": _letters(s.marked[g]),
        "stacked": " ".join(_stacks(s, g, config)) if in_play and _stacks(s, g, config) else "-",
        "turn": turn,
        "flags": ", ".join(flags) if flags else "-",
        "entered by": _TEAM[int(s.entered_by[g])],
        "pass": pas,
        "kick": kick,
        "event": f"{EVENT_NAMES[int(s.event[g])]} {' '.join(str(int(x)) for x in s.dice[g])}",
        "steps": str(int(s.steps[g])),
        "result": result_text(s, g, DRAW),
    }
    lines = [TITLE] + [f"{k}: {values[k]}" for k in KEYS]
    if in_play:
        lines.append("board:")
        lines += board_lines(s, g, config)
    return "\n".join(lines) + "\n"


def _int(key, text, low, high):
    t = text[1:] if text.startswith("-") else text
    if not (t.isascii() and t.isdigit()) or len(t) > 9:
        raise ValueError(f"diagram line {key!r}: {text!r} is not a whole number")
    value = int(text)
    if not (low <= value <= high):
        raise ValueError(f"diagram line {key!r}: {value} is outside {low}..{high}")
    return value


_team = team


def _piece(key, text, allow_none=True):
    if allow_none and text == "-":
        return -1
    if len(text) == 1 and text in LETTERS:
        return LETTERS.index(text)
    raise ValueError(f"diagram line {key!r}: {text!r} is not a piece letter of {LETTERS!r}{' or -' if allow_none else ''}")


def _piece_set(key, text):
    if text == "-":
        return []
    out = [_piece(key, c, False) for c in text.replace(" ", "")]
    if len(set(out)) != len(out):
        raise ValueError(f"diagram line {key!r}: a piece is named twice in {text!r}")
    return out


def _fields(key, text, n):
    parts = text.split()
    if len(parts) != n:
        raise ValueError(f"diagram line {key!r}: expected {n} values, got {text!r}")
    return parts


def from_diagram(text: str, config: TouchdownConfig | None = None, seed: int = 0) -> State:
    """A batch of one from a diagram (see the module docstring). Raises ValueError naming the bad line."""
    from ..core.chance import game_keys
    from .engine import recompute_legal
    from .invariants import find_violations

    config = config or TouchdownConfig()
    if not isinstance(config, TouchdownConfig):
        raise ValueError(f"config must be a TouchdownConfig, got {type(config).__name__}")
    if not isinstance(text, str):
        raise ValueError(f"a diagram must be a str, got {type(text).__name__}")
    lines = [ln.rstrip() for ln in text.strip().splitlines() if ln.strip()]
    cut = next((i for i, ln in enumerate(lines) if ln.strip() == "board:"), len(lines))
    h = read_diagram("\n".join(lines[:cut]), TITLE, KEYS)
    rest = lines[cut:]

    H, W, F = config.rows, config.lanes, config.field_rows
    s = State.empty(1)
    s.rng_key[:] = game_keys(seed, 1)
    s.board[0] = board_of(config)
    if h["phase"] not in PHASE_NAMES:
        raise ValueError(f"diagram line 'phase': {h['phase']!r} is not one of {list(PHASE_NAMES)}")
    ph = PHASE_NAMES.index(h["phase"])
    s.phase[0] = ph
    to_act = _team("to act", h["to act"], allow_none=True)
    s.to_act[0] = to_act
    s.offence[0] = _team("offence", h["offence"])
    s.poss[0] = _team("possession", h["possession"])
    s.score[0] = number_pair("score", h["score"], 0, 999)
    q, sc, scs, ok = _fields("clock", h["clock"], 4)
    s.quarter[0] = _int("clock", q, 1, config.quarters + 1)
    s.scrimmage[0] = _int("clock", sc, 0, 100)
    s.scrimmages[0] = _int("clock", scs, 0, 1000)
    s.opening_kicker[0] = _team("clock", ok)
    d, los, gain, ll = _fields("series", h["series"], 4)
    s.down[0] = _int("series", d, 1, 2)
    s.los[0] = _int("series", los, 1, F)
    s.to_gain[0] = _int("series", gain, 2, 127)
    s.los_lane[0] = _int("series", ll, 1, W) - 1
    call = [c.strip() for c in h["call"].split("/")]
    if len(call) != 2:
        raise ValueError(f"diagram line 'call': {h['call']!r} is not 'offence formation / defence formation'")
    for i, (name, names) in enumerate(zip(call, (OFFENCE_NAMES, DEFENCE_NAMES))):
        if name != "-" and name not in names:
            raise ValueError(f"diagram line 'call': {name!r} is not - or one of {list(names)}")
        (s.offence_formation if i == 0 else s.defence_formation)[0] = names.index(name) if name != "-" else -1
    s.holder[0] = _piece("holder", h["holder"])
    s.marked[0, _piece_set("marked", h["marked"])] = True
    act, left, prt, mv, turns, idle = _fields("turn", h["turn"], 6)
    s.active[0] = _piece("turn", act)
    s.steps_left[0] = _int("turn", left, 0, 3)
    s.parts[0] = _int("turn", prt, 0, 2)
    bits = 0
    for p in _piece_set("turn", mv):
        bits |= 1 << p
    s.moved[0] = bits
    s.turns[0] = _int("turn", turns, 0, 1000)
    s.idle[0] = _int("turn", idle, 0, 2)
    flags = [] if h["flags"] == "-" else [f.strip() for f in h["flags"].split(",")]
    for f in flags:
        if f not in _FLAGS:
            raise ValueError(f"diagram line 'flags': {f!r} is not one of {list(_FLAGS)}")
    s.limits[0], s.forward_thrown[0], s.loose_lateral[0] = (name in flags for name in _FLAGS)
    s.entered_by[0] = _team("entered by", h["entered by"], allow_none=True)
    if h["pass"] != "-":
        a, b, kind, close = _fields("pass", h["pass"], 4)
        if kind not in ("forward", "lateral") or close not in ("close", "open"):
            raise ValueError(f"diagram line 'pass': {h['pass']!r} is not 'passer receiver forward|lateral close|open'")
        s.pass_from[0], s.pass_to[0] = _piece("pass", a, False), _piece("pass", b, False)
        s.pass_forward[0], s.pass_close[0] = kind == "forward", close == "close"
    else:
        s.pass_from[0] = s.pass_to[0] = -1
    if h["kick"] != "-":
        parts = h["kick"].split()
        kind = " ".join(parts[:-2])
        if len(parts) < 3 or kind not in _KICKS:
            raise ValueError(f"diagram line 'kick': {h['kick']!r} is not 'kick-off|punt row lane'")
        s.kick_kind[0] = _KICKS.index(kind)
        s.kick_row[0] = _int("kick", parts[-2], 1 - END_ZONE_ROWS, F)
        s.kick_lane[0] = _int("kick", parts[-1], 1, W) - 1
    else:
        s.kick_kind[0] = -1
    ev = h["event"].split()
    name = " ".join(ev[:-3])
    if len(ev) < 4 or name not in EVENT_NAMES:
        raise ValueError(f"diagram line 'event': {h['event']!r} is not an event name and three dice")
    s.event[0] = EVENT_NAMES.index(name)
    s.dice[0] = [_int("event", x, 0, 6) for x in ev[-3:]]
    s.steps[0] = _int("steps", h["steps"], 0, config.max_actions)
    read_result(s, h["result"], DRAW)
    in_play = ph in (PLAY, INTERCEPTION)
    if in_play:
        _read_board(s, rest, config, h)
    elif rest:
        raise ValueError(f"diagram line {rest[0]!r}: a board is shown only in a play")
    else:
        s.lane[0] = -1
        s.row[0] = -1
        s.ball_lane[0] = s.los_lane[0]
        off = int(s.offence[0])
        s.ball_row[0] = int(s.los[0]) + 1 if off == 0 else H - 2 - int(s.los[0])
    return check_diagram_state(s, config, int(s.to_act[0]), h, recompute_legal,
                               lambda st, cfg: find_violations(st, cfg, check_mask=False))


def _read_board(s: State, rest: list, config: TouchdownConfig, h: dict) -> None:
    H, W = config.rows, config.lanes
    if not rest or rest[0].strip() != "board:":
        raise ValueError("diagram line 'board': a play needs the line 'board:' and the board after the other lines")
    rows = rest[1:]
    if len(rows) != H:
        raise ValueError(f"diagram line 'board': {len(rows)} board rows, expected {H}")
    found = {}
    stars = []
    ball = None
    for i, line in enumerate(rows):
        r = H - 1 - i
        label = f"{r - 1:>3} |"
        if not (line.startswith(label) and line.endswith("|") and len(line) == len(label) + W + 1):
            raise ValueError(f"diagram board row {line!r}: expected {label!r}, {W} squares and '|'")
        cells = line[len(label):-1]
        for lane, c in enumerate(cells):
            if c == ".":
                continue
            if c == "o":
                if ball is not None:
                    raise ValueError(f"diagram board row {line!r}: a second loose ball")
                ball = (lane, r)
            elif c == "*":
                stars.append((lane, r))
            elif c in LETTERS:
                if c in found:
                    raise ValueError(f"diagram board row {line!r}: piece {c!r} shown twice")
                found[c] = (lane, r)
            else:
                raise ValueError(f"diagram board row {line!r}: {c!r} is not '.', 'o', '*' or a piece letter")
    pairs = [] if h["stacked"] == "-" else h["stacked"].split()
    if len(pairs) != len(stars):
        raise ValueError(f"diagram line 'stacked': {len(pairs)} pairs for {len(stars)} '*' squares")
    for pair, square in zip(pairs, stars):
        if len(pair) != 2:
            raise ValueError(f"diagram line 'stacked': {pair!r} is not two piece letters")
        for c in pair:
            _piece("stacked", c, False)
            if c in found:
                raise ValueError(f"diagram line 'stacked': piece {c!r} is also on the board")
            found[c] = square
    missing = [c for c in LETTERS if c not in found]
    if missing:
        raise ValueError(f"diagram line 'board': pieces {''.join(missing)!r} are not on the board")
    for slot, c in enumerate(LETTERS):
        s.lane[0, slot], s.row[0, slot] = found[c]
    holder = int(s.holder[0])
    if holder >= 0:
        if ball is not None:
            raise ValueError("diagram line 'holder': a holder and a loose ball")
        s.ball_lane[0], s.ball_row[0] = s.lane[0, holder], s.row[0, holder]
    else:
        if ball is None:
            raise ValueError("diagram line 'holder': no holder and no loose ball 'o' on the board")
        s.ball_lane[0], s.ball_row[0] = ball


def scenario(rows: dict, config: TouchdownConfig | None = None, seed: int = 0, **fields) -> State:
    """A play position from a picture, for tests and examples: ``rows`` maps team one's row numbers to
    strings of ``lanes`` squares (the board's notation: '.', 'o', piece letters; all 14 pieces once), every
    other row empty; ``fields`` override the diagram's header lines (keys with underscores for spaces:
    ``to_act="two"``, ``series="1 8 18 7"``, ``holder="Q"``, ``flags="limits"`` ...). Defaults: team one on
    offence to act in a play, first down, the LOS at row 8 in lane 7, limits on, parts 0. Validated as
    ``from_diagram``."""
    config = config or TouchdownConfig()
    head = {"phase": "play", "to act": "one", "offence": "one", "possession": "one", "score": "0-0",
            "clock": "1 0 0 one", "series": "1 8 18 7", "call": "- / -", "holder": "Q", "marked": "-",
            "stacked": "-", "turn": "- 0 0 - 0 0", "flags": "limits", "entered by": "-", "pass": "-",
            "kick": "-", "event": "none 0 0 0", "steps": "0", "result": "playing"}
    for k, v in fields.items():
        key = k.replace("_", " ")
        if key not in head:
            raise ValueError(f"scenario: unknown header {k!r}; known: {sorted(head)}")
        head[key] = v
    H, W = config.rows, config.lanes
    for r, line in rows.items():
        if not (isinstance(r, int) and -1 <= r <= H - 2) or not isinstance(line, str) or len(line) != W:
            raise ValueError(f"scenario: row {r!r} must be a row number -1..{H - 2} with {W} squares, got {line!r}")
    board = [f"{r:>3} |{rows.get(r, '.' * W)}|" for r in range(H - 2, -2, -1)]
    text = "\n".join([TITLE] + [f"{k}: {head[k]}" for k in KEYS] + ["board:"] + board) + "\n"
    return from_diagram(text, config, seed)
