"""Position notation: a text diagram of one Table Football game (like FEN in chess).

``to_diagram(state, game)`` writes one game; ``from_diagram(text, config)`` reads it back as a batch of one
(its random stream keyed on ``seed``). The format is a title line and fixed ``key: value`` lines, in this
order (RULES.md "Diagram notation" shows an example)::

    table football diagram v1
    phase: choose                  one of PHASE_NAMES
    to act: one                    one / two / - (derived: checked, not free)
    offence: one                   the team with the ball
    snap offence: one              the team on offence at the last snap
    opener: one                    the team that opened the game on offence
    score: 7-3                     team one - team two
    ball: 35                       offence's yards from its own goal line
    line to gain: 45               offence's yards (100 = goal to go)
    down: 2
    field: G......o.|.........G    the same, drawn: 21 cells at 0, 5, ..., 100 yards (derived: checked)
    quarter: 2                     1-4, ot, or - in the basic game
    boxes: 14                      boxes left in the quarter, - in the basic game
    time outs: 3-2                 team one - team two, - in the basic game
    pending cost: 0                boxes of the result whose clock decisions are pending
    last play: run 4-5             run D-D / field goal D / punt D / -
    plays: 12
    steps: 14
    result: playing                playing / one wins / two wins / draw / truncated

Everything is validated: an unknown or missing line, a bad value or a state that breaks an invariant
raises ValueError naming the line.
"""

from __future__ import annotations

from ..small_games import diagram as D
from ..small_games.engine import game_index, new_batch
from .config import TableFootballConfig
from .state import DRAW, KICK, NO_PLAY, OVERTIME, PHASE_NAMES, PUNT_PLAY, RUN, State

TITLE = "table football diagram v1"
KEYS = ("phase", "to act", "offence", "snap offence", "opener", "score", "ball", "line to gain", "down",
        "field", "quarter", "boxes", "time outs", "pending cost", "last play", "plays", "steps", "result")
_TEAM = D.TEAM_NAMES


def field_strip(position: int, line_to_gain: int) -> str:
    """21 cells for 0, 5, ..., 100 yards: ``G`` the goal lines, ``o`` the ball, ``|`` the line to gain."""
    return D.field_strip(position, {line_to_gain: "|"})


def _last_play(s: State, g: int) -> str:
    lp = int(s.last_play[g])
    d = [int(x) for x in s.last_roll[g]]
    if lp == RUN:
        return f"run {d[0]}-{d[1]}"
    if lp == KICK:
        return f"field goal {d[0]}"
    if lp == PUNT_PLAY:
        return f"punt {d[0]}"
    return "-"


def to_diagram(state: State, game: int = 0) -> str:
    """The diagram of game ``game`` of ``state``."""
    g = game_index(state, game)
    s = state
    clock = int(s.quarter[g]) > 0
    q = int(s.quarter[g])
    values = {
        "phase": PHASE_NAMES[int(s.phase[g])],
        "to act": _TEAM[int(s.to_act[g])],
        "offence": _TEAM[int(s.offence[g])],
        "snap offence": _TEAM[int(s.snap_offence[g])],
        "opener": _TEAM[int(s.opener[g])],
        "score": f"{int(s.score[g, 0])}-{int(s.score[g, 1])}",
        "ball": str(int(s.position[g])),
        "line to gain": str(int(s.line_to_gain[g])),
        "down": str(int(s.down[g])),
        "field": field_strip(int(s.position[g]), int(s.line_to_gain[g])),
        "quarter": ("ot" if q == OVERTIME else str(q)) if clock else "-",
        "boxes": str(int(s.boxes[g])) if clock else "-",
        "time outs": f"{int(s.timeouts[g, 0])}-{int(s.timeouts[g, 1])}" if clock else "-",
        "pending cost": str(int(s.pending_cost[g])),
        "last play": _last_play(s, g),
        "plays": str(int(s.plays[g])),
        "steps": str(int(s.steps[g])),
        "result": D.result_text(s, g, DRAW),
    }
    return D.write_diagram(TITLE, KEYS, values)


def from_diagram(text: str, config: TableFootballConfig | None = None, seed: int = 0) -> State:
    """A batch of one from a diagram (see the module docstring). ``config`` defaults to the basic game, or
    the clock version when the diagram has a quarter. Raises ValueError naming the bad line."""
    from .engine import recompute_legal
    from .invariants import find_violations

    h = D.read_diagram(text, TITLE, KEYS)
    clock = h["quarter"] != "-"
    if config is None:
        config = TableFootballConfig(clock=clock)
    if config.clock != clock:
        raise ValueError(f"diagram line 'quarter': {h['quarter']!r} does not fit a config with clock={config.clock}")
    s = new_batch(State, 1, seed)
    s.phase[0] = D.choice("phase", h["phase"], dict(enumerate(PHASE_NAMES)))
    to_act = D.team("to act", h["to act"], allow_none=True)
    s.offence[0] = D.team("offence", h["offence"])
    s.snap_offence[0] = D.team("snap offence", h["snap offence"])
    s.opener[0] = D.team("opener", h["opener"])
    s.score[0] = D.number_pair("score", h["score"], 0, 200)
    s.position[0] = D.whole_number("ball", h["ball"], 5, 95, 5)
    s.line_to_gain[0] = D.whole_number("line to gain", h["line to gain"], 10, 100, 5)
    s.down[0] = D.whole_number("down", h["down"], 1, config.downs)
    if h["field"] != field_strip(int(s.position[0]), int(s.line_to_gain[0])):
        raise ValueError(f"diagram line 'field': {h['field']!r} does not show ball {int(s.position[0])} and line "
                         f"to gain {int(s.line_to_gain[0])} (expected "
                         f"{field_strip(int(s.position[0]), int(s.line_to_gain[0]))!r})")
    if clock:
        q = h["quarter"]
        s.quarter[0] = OVERTIME if q == "ot" else D.whole_number("quarter", q, 1, 4)
        s.boxes[0] = D.whole_number("boxes", h["boxes"], 0, config.quarter_boxes)
        s.timeouts[0] = D.number_pair("time outs", h["time outs"], 0, 9)
    else:
        for key in ("boxes", "time outs"):
            if h[key] != "-":
                raise ValueError(f"diagram line {key!r}: must be '-' in the basic game, got {h[key]!r}")
    s.pending_cost[0] = D.whole_number("pending cost", h["pending cost"], 0, 3)
    lp = h["last play"].split()
    if lp == ["-"]:
        s.last_play[0], s.last_roll[0] = NO_PLAY, 0
    elif len(lp) == 2 and lp[0] == "run":
        s.last_play[0] = RUN
        s.last_roll[0] = D.number_pair("last play", lp[1], 1, 6)
    elif len(lp) == 3 and lp[:2] == ["field", "goal"]:
        s.last_play[0], s.last_roll[0] = KICK, [D.whole_number("last play", lp[2], 1, 6), 0]
    elif len(lp) == 2 and lp[0] == "punt":
        s.last_play[0], s.last_roll[0] = PUNT_PLAY, [D.whole_number("last play", lp[1], 1, 6), 0]
    else:
        raise ValueError(f"diagram line 'last play': {h['last play']!r} is not 'run D-D', 'field goal D', "
                         f"'punt D' or '-'")
    s.plays[0] = D.whole_number("plays", h["plays"], 0, config.max_plays)
    s.steps[0] = D.whole_number("steps", h["steps"], 0, 10**9)
    D.read_result(s, h["result"], DRAW)
    return D.check_diagram_state(s, config, to_act, h, recompute_legal, find_violations)
