"""The action space: one fixed discrete space for both teams, every id with a stable readable name.

Pieces are named by their **slot** 1-7 within the acting team (``state.SLOT_NAMES``): slots 1-3 the
Singles (the offence's left guard, centre and right guard: the interior line), 4-5 the Doubles, 6 a Triple
and 7 the QB (offence) or the second Triple (defence). Directions are as the acting team sees the board,
numbered like the number wheel (ruling 24), clockwise from the back left: 1 back left, 2 left,
3 forward left, 4 forward, 5 forward right, 6 right, 7 back right, 8 back (names use spaces; the parser
also accepts hyphens, "forward-left").

=============================  =======  =============================================================
name                           ids      who, when (phase)
=============================  =======  =============================================================
``piece P DIRECTION``          0-55     id ``8 (P-1) + (wheel-1)``. In ``play``: the acting side steps
                                        piece P one square (its first step starts its move; ruling 9).
                                        In ``interception``: the defence's interception step (ruling 22).
``stop``                       56       ``play``: end the moving piece's move early
``end turn``                   57       ``play``: legal only when nothing else is (ruling 9)
``pass to P``                  58-64    ``play``: the holder passes to teammate P (rulings 20-23)
``declare safety``             65       ``play``: the holder stands in his own end zone (ruling 15)
``offence FORMATION``          66-69    ``offence call``: line up (``formations.OFFENCE``)
``punt no dice`` / ``punt one  70-72    ``offence call``: punt, rolling 0, 1 or 2 dice (ruling 18)
die`` / ``punt two dice``
``field goal``                 73       ``offence call``: distance at most the table's last (ruling 19)
``defence FORMATION``          74-77    ``defence call``: line up (``formations.DEFENCE``)
``take first down``            78       ``kick choice``: the receiver declines a return (rulings 17, 18)
``return``                     79       ``kick choice``: the receiver rolls the return
``decline interception``       80       ``interception``: the defence lets the completion roll decide
``wait``                       81       never legal: the id a mask row marks when its action is ignored
=============================  =======  =============================================================
"""

from __future__ import annotations

from ..action_names import name_and_id
from .formations import DEFENCE, OFFENCE

DIRECTION_NAMES = ("back left", "left", "forward left", "forward", "forward right", "right", "back right", "back")
N_SLOTS = 7  # pieces of a side
N_DIRECTIONS = 8
STEP_BASE = 0
N_STEPS = N_SLOTS * N_DIRECTIONS  # 56
STOP = N_STEPS
END_TURN = STOP + 1
PASS_BASE = END_TURN + 1  # pass to slot k: PASS_BASE + k (k 0-6)
DECLARE_SAFETY = PASS_BASE + N_SLOTS
OFFENCE_BASE = DECLARE_SAFETY + 1  # offence formation f: OFFENCE_BASE + f
N_OFFENCE = len(OFFENCE)
PUNT_BASE = OFFENCE_BASE + N_OFFENCE  # punt rolling k dice: PUNT_BASE + k (k 0-2)
FIELD_GOAL = PUNT_BASE + 3
DEFENCE_BASE = FIELD_GOAL + 1  # defence formation f: DEFENCE_BASE + f
N_DEFENCE = len(DEFENCE)
TAKE_FIRST_DOWN = DEFENCE_BASE + N_DEFENCE
RETURN = TAKE_FIRST_DOWN + 1
DECLINE_INTERCEPTION = RETURN + 1
WAIT = DECLINE_INTERCEPTION + 1
NUM_ACTIONS = WAIT + 1
IGNORED_ACTION = WAIT


def step_id(slot: int, wheel: int) -> int:
    """The id of stepping slot ``slot`` (0-6) in wheel direction ``wheel`` (1-8)."""
    return STEP_BASE + slot * N_DIRECTIONS + wheel - 1


def _names() -> tuple:
    names = [f"piece {p + 1} {d}" for p in range(N_SLOTS) for d in DIRECTION_NAMES]
    names += ["stop", "end turn"]
    names += [f"pass to {p + 1}" for p in range(N_SLOTS)]
    names += ["declare safety"]
    names += [f"offence {f.name}" for f in OFFENCE]
    names += ["punt no dice", "punt one die", "punt two dice", "field goal"]
    names += [f"defence {f.name}" for f in DEFENCE]
    names += ["take first down", "return", "decline interception", "wait"]
    return tuple(names)


ACTION_NAMES = _names()
assert len(ACTION_NAMES) == NUM_ACTIONS
action_name, action_id = name_and_id(ACTION_NAMES)  # ids <-> stable names, both ways
