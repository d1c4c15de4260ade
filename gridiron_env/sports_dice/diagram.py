"""Position notation: a text diagram of one Sports Dice game (like FEN in chess).

``to_diagram(state, game)`` writes one game; ``from_diagram(text, config)`` reads it back as a batch of one
(its random stream keyed on ``seed``). The format is a title line and fixed ``key: value`` lines, in this
order (RULES.md "Diagram notation" shows an example)::

    sports dice diagram v1
    phase: snap                        one of PHASE_NAMES
    to act: one                        one / two / - (derived: checked, not free)
    toss winner: one
    opener: one                        the team that started on offence, - during the toss
    offence: one                       the team with the ball
    chip: two                          the Power Chip holder
    score: 7-3                         team one - team two
    ball: 35                           offence's yards from its own goal line
    target: 50                         50 or end zone
    down: 2
    field: G......o...|.........G      21 cells at 0, 5, ..., 100 yards (derived: checked)
    last roll: play                    play / punt / field goal / -
    roller: one                        the team that rolled the offence dice, -
    offence dice: 10 10 20 TD FG 10    six of 10 20 FG TD, or -
    defence dice: NG SK SK TO P6 NG    six of NG SK TO P6, or -
    chip call: -                       - / kept / used
    roll winner: offence               - / offence / defence (a side of the dice)
    play: 10                           - or the applied play's short name
    rolls: 12
    steps: 14
    result: playing                    playing / one wins / two wins / truncated

Everything is validated: an unknown or missing line, a bad value or a state that breaks an invariant
raises ValueError naming the line.
"""

from __future__ import annotations

from ..small_games import diagram as D
from ..small_games.engine import game_index, new_batch
from .config import SportsDiceConfig
from .state import (
    DICE, END_ZONE, KEPT, MIDFIELD, NO_CALL, PHASE_NAMES, ROLL_KICK, ROLL_NONE, ROLL_PLAY, ROLL_PUNT, State,
    SYMBOL_SHORT, USED,
)

TITLE = "sports dice diagram v1"
KEYS = ("phase", "to act", "toss winner", "opener", "offence", "chip", "score", "ball", "target", "down",
        "field", "last roll", "roller", "offence dice", "defence dice", "chip call", "roll winner", "play",
        "rolls", "steps", "result")
_TEAM = D.TEAM_NAMES
_KIND = {ROLL_NONE: "-", ROLL_PLAY: "play", ROLL_PUNT: "punt", ROLL_KICK: "field goal"}
_CALL = {NO_CALL: "-", KEPT: "kept", USED: "used"}
_SIDE = {-1: "-", 0: "offence", 1: "defence"}


def field_strip(position: int, target: int) -> str:
    """21 cells for 0, 5, ..., 100 yards: ``G`` the goal lines, ``|`` the 50 when it is the target, ``o``
    the ball."""
    return D.field_strip(position, {MIDFIELD: "|"} if int(target) == MIDFIELD else None)


def _dice(row) -> str:
    return "-" if row[0] < 0 else " ".join(SYMBOL_SHORT[int(x)] for x in row)


def to_diagram(state: State, game: int = 0) -> str:
    """The diagram of game ``game`` of ``state``."""
    g = game_index(state, game)
    s = state
    values = {
        "phase": PHASE_NAMES[int(s.phase[g])],
        "to act": _TEAM[int(s.to_act[g])],
        "toss winner": _TEAM[int(s.toss_winner[g])],
        "opener": _TEAM[int(s.opener[g])],
        "offence": _TEAM[int(s.offence[g])],
        "chip": _TEAM[int(s.chip[g])],
        "score": f"{int(s.score[g, 0])}-{int(s.score[g, 1])}",
        "ball": str(int(s.position[g])),
        "target": "end zone" if int(s.target[g]) == END_ZONE else str(int(s.target[g])),
        "down": str(int(s.down[g])),
        "field": field_strip(int(s.position[g]), int(s.target[g])),
        "last roll": _KIND.get(int(s.roll_kind[g]), "?"),
        "roller": _TEAM[int(s.roll_offence[g])],
        "offence dice": _dice(s.dice[g, 0]),
        "defence dice": _dice(s.dice[g, 1]),
        "chip call": _CALL.get(int(s.chip_call[g]), "?"),
        "roll winner": _SIDE.get(int(s.roll_winner[g]), "?"),
        "play": "-" if int(s.play[g]) < 0 else SYMBOL_SHORT[int(s.play[g])],
        "rolls": str(int(s.rolls[g])),
        "steps": str(int(s.steps[g])),
        "result": D.result_text(s, g),
    }
    return D.write_diagram(TITLE, KEYS, values)


def _parse_dice(key, text, side):
    if text == "-":
        return [-1] * DICE
    names = SYMBOL_SHORT[4 * side:4 * side + 4]
    parts = text.split()
    if len(parts) != DICE or any(p not in names for p in parts):
        raise ValueError(f"diagram line {key!r}: {text!r} is not six of {list(names)} (or -)")
    return [4 * side + names.index(p) for p in parts]


def from_diagram(text: str, config: SportsDiceConfig | None = None, seed: int = 0) -> State:
    """A batch of one from a diagram (see the module docstring). Raises ValueError naming the bad line."""
    from .engine import _config, recompute_legal
    from .invariants import dice_summary, find_violations

    config = _config(config)
    h = D.read_diagram(text, TITLE, KEYS)
    s = new_batch(State, 1, seed)
    s.phase[0] = D.choice("phase", h["phase"], dict(enumerate(PHASE_NAMES)))
    to_act = D.team("to act", h["to act"], allow_none=True)
    s.toss_winner[0] = D.team("toss winner", h["toss winner"])
    s.opener[0] = D.team("opener", h["opener"], allow_none=True)
    s.offence[0] = D.team("offence", h["offence"])
    s.chip[0] = D.team("chip", h["chip"])
    s.score[0] = D.number_pair("score", h["score"], 0, 200)
    s.position[0] = D.whole_number("ball", h["ball"], 5, 95, 5)
    s.target[0] = D.choice("target", h["target"], {MIDFIELD: "50", END_ZONE: "end zone"})
    s.down[0] = D.whole_number("down", h["down"], 1, 4)
    expected = field_strip(int(s.position[0]), int(s.target[0]))
    if h["field"] != expected:
        raise ValueError(f"diagram line 'field': {h['field']!r} does not show ball {int(s.position[0])} and "
                         f"target {h['target']} (expected {expected!r})")
    s.roll_kind[0] = D.choice("last roll", h["last roll"], _KIND)
    s.roll_offence[0] = D.team("roller", h["roller"], allow_none=True)
    s.dice[0, 0] = _parse_dice("offence dice", h["offence dice"], 0)
    s.dice[0, 1] = _parse_dice("defence dice", h["defence dice"], 1)
    if (s.dice[0, 0, 0] < 0) != (s.dice[0, 1, 0] < 0):
        raise ValueError("diagram line 'defence dice': both sides' dice are shown, or neither")
    counts, top = dice_summary(s.dice)
    s.counts[:], s.top[:] = counts, top
    s.chip_call[0] = D.choice("chip call", h["chip call"], _CALL)
    s.roll_winner[0] = D.choice("roll winner", h["roll winner"], _SIDE)
    play = h["play"]
    if play == "-":
        s.play[0] = -1
    elif play in SYMBOL_SHORT:
        s.play[0] = SYMBOL_SHORT.index(play)
    else:
        raise ValueError(f"diagram line 'play': {play!r} is not - or one of {list(SYMBOL_SHORT)}")
    s.rolls[0] = D.whole_number("rolls", h["rolls"], 0, config.max_rolls)
    s.steps[0] = D.whole_number("steps", h["steps"], 0, 10**9)
    D.read_result(s, h["result"])
    return D.check_diagram_state(s, config, to_act, h, recompute_legal, find_violations)
