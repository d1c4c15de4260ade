"""The small games' diagram notation, its shared part (Table Football, Sports Dice).

A diagram is a title line and fixed ``key: value`` lines in the game's order. This module writes and
reads that frame and the values both games use (whole numbers, teams ``one`` / ``two`` / ``-``, pairs
like ``7-3``, the result line, the 21-cell field strip), and makes the last checks of a read state (the
stated team to act against the phase's, then the game's invariants). Every error is a ValueError naming
the diagram line.
"""

from __future__ import annotations

__all__ = ["TEAM_NAMES", "TEAM_IDS", "write_diagram", "read_diagram", "whole_number", "team", "number_pair",
           "choice", "result_text", "read_result", "field_strip", "check_diagram_state"]

TEAM_NAMES = {0: "one", 1: "two", -1: "-"}  # team id -> its diagram name (-1: none)
TEAM_IDS = {"one": 0, "two": 1}


def write_diagram(title: str, keys: tuple, values: dict) -> str:
    """The diagram text: the title, then ``key: value`` for each key in order, newline-terminated."""
    return "\n".join([title] + [f"{k}: {values[k]}" for k in keys]) + "\n"


def read_diagram(text, title: str, keys: tuple) -> dict:
    """key -> value (white space folded to single spaces) of a diagram with exactly the lines ``keys`` in
    order after ``title`` (blank lines and the lines' outer spaces are ignored)."""
    if not isinstance(text, str):
        raise ValueError(f"a diagram must be a str, got {type(text).__name__}")
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    if not lines or lines[0] != title:
        raise ValueError(f"diagram must start with the line {title!r}")
    body = lines[1:]
    if len(body) != len(keys):
        raise ValueError(f"diagram has {len(body)} lines after the title, expected {len(keys)}: {list(keys)}")
    values = {}
    for key, line in zip(keys, body):
        name, sep, value = line.partition(":")
        if not sep or name.strip() != key:
            raise ValueError(f"diagram line {line!r}: expected the line {key!r} here")
        values[key] = " ".join(value.split())
    return values


def whole_number(key: str, text: str, low: int, high: int, multiple: int = 1) -> int:
    """The value of a line holding a whole number in ``low..high`` (ASCII digits; a multiple of
    ``multiple`` yards)."""
    if not (text.isascii() and text.isdigit()) or len(text) > max(9, len(str(high))):
        raise ValueError(f"diagram line {key!r}: {text!r} is not a whole number")
    value = int(text)
    if not (low <= value <= high):
        raise ValueError(f"diagram line {key!r}: {value} is outside {low}..{high}")
    if value % multiple:
        raise ValueError(f"diagram line {key!r}: {value} is not a multiple of {multiple} yards")
    return value


def team(key: str, text: str, allow_none: bool = False) -> int:
    """0 for ``one``, 1 for ``two``, -1 for ``-`` when ``allow_none``."""
    if text in TEAM_IDS:
        return TEAM_IDS[text]
    if allow_none and text == "-":
        return -1
    raise ValueError(f"diagram line {key!r}: {text!r} is not a team (one, two{', -' if allow_none else ''})")


def number_pair(key: str, text: str, low: int, high: int) -> list:
    """[a, b] of a line like ``7-3`` (team one's, then team two's), each in ``low..high``."""
    parts = text.split("-")
    if len(parts) != 2:
        raise ValueError(f"diagram line {key!r}: {text!r} is not two numbers like 7-3")
    return [whole_number(key, p, low, high) for p in parts]


def choice(key: str, text: str, table: dict):
    """The code of ``text`` in ``table`` (code -> name)."""
    for code, name in table.items():
        if text == name:
            return code
    raise ValueError(f"diagram line {key!r}: {text!r} is not one of {list(table.values())}")


def _results(draw) -> list:
    return ["playing", "one wins", "two wins"] + (["draw"] if draw is not None else []) + ["truncated"]


def result_text(s, g: int, draw=None) -> str:
    """Game ``g``'s result line: playing, one wins, two wins, draw (the winner code ``draw``, if the game
    has one) or truncated."""
    if s.truncated[g]:
        return "truncated"
    if not s.terminated[g]:
        return "playing"
    w = int(s.winner[g])
    return "draw" if draw is not None and w == draw else f"{TEAM_NAMES[w]} wins"


def read_result(s, text: str, draw=None) -> None:
    """Set game 0's terminated, truncated and winner from its result line (see :func:`result_text`)."""
    if text == "playing":
        return
    if text == "truncated":
        s.truncated[0] = True
    elif text == "draw" and draw is not None:
        s.terminated[0], s.winner[0] = True, draw
    elif text in ("one wins", "two wins"):
        s.terminated[0], s.winner[0] = True, TEAM_IDS[text.split()[0]]
    else:
        names = _results(draw)
        raise ValueError(f"diagram line 'result': {text!r} is not {', '.join(names[:-1])} or {names[-1]}")


def field_strip(ball: int, marks: dict | None = None) -> str:
    """21 cells for 0, 5, ..., 100 yards: ``G`` the goal lines, then each ``marks`` entry (yard -> one
    character) at its cell, then ``o`` the ball at yard ``ball``."""
    cells = ["."] * 21
    cells[0] = cells[20] = "G"
    for yard, mark in (marks or {}).items():
        cells[int(yard) // 5] = mark
    cells[int(ball) // 5] = "o"
    return "".join(cells)


def check_diagram_state(s, config, to_act: int, values: dict, recompute_legal, find_violations):
    """The last checks of a read batch of one: its cached mask and team to act from the rules
    (``recompute_legal(s, config)``), the stated ``to act`` (``to_act``) against the phase's, then the
    game's invariants (``find_violations(s, config)``). Returns ``s``."""
    recompute_legal(s, config)
    if int(s.to_act[0]) != to_act:
        raise ValueError(f"diagram line 'to act': {values['to act']!r} but phase {values['phase']} gives "
                         f"{TEAM_NAMES[int(s.to_act[0])]!r}")
    problems = find_violations(s, config)
    if problems:
        raise ValueError("diagram breaks the rules: " + "; ".join(m for _, m in problems))
    return s
