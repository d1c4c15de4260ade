"""The action space: one small discrete space for both teams, every id with a stable readable name.

=====================  ====  ===============================================================
name                   id    who, when
=====================  ====  ===============================================================
``run play``           0     offence, before a down: roll 2d6 on the results table
``field goal``         1     offence, before any down: 1d6 x 10 yards must reach the goal line
``punt``               2     offence, before the last down only
``decline``            3     the side asked, at any optional decision: do nothing
``contest``            4     the team that lost the ball, after a fumble or interception (option)
``out of bounds``      5     clock: after a gaining play, the offence, then the defence
``time out``           6     clock: after a timed result, the offence, then the defence
=====================  ====  ===============================================================
"""

from __future__ import annotations

RUN_PLAY, FIELD_GOAL, PUNT, DECLINE, CONTEST, OUT_OF_BOUNDS, TIME_OUT = range(7)
ACTION_NAMES = ("run play", "field goal", "punt", "decline", "contest", "out of bounds", "time out")
NUM_ACTIONS = len(ACTION_NAMES)
_ID_BY_NAME = {name: i for i, name in enumerate(ACTION_NAMES)}


def action_name(action: int) -> str:
    """The stable readable name of an action id."""
    if isinstance(action, bool) or not isinstance(action, int) and not hasattr(action, "__index__"):
        raise ValueError(f"an action id must be an int, got {action!r}")
    if not (0 <= int(action) < NUM_ACTIONS):
        raise ValueError(f"action id {action!r} is outside 0..{NUM_ACTIONS - 1}")
    return ACTION_NAMES[int(action)]


def action_id(name: str) -> int:
    """The id of an action name (case and spacing are forgiven: ``" Run  Play"``)."""
    if not isinstance(name, str):
        raise ValueError(f"an action name must be a str, got {type(name).__name__}")
    canonical = " ".join(name.lower().replace("-", " ").split())
    try:
        return _ID_BY_NAME[canonical]
    except KeyError:
        raise ValueError(f"unknown action {name!r}; the actions are {list(ACTION_NAMES)}") from None
