"""The action space: one discrete space for both teams, every id with a stable readable name.

Layout (ids are stable; see RULES.md "Actions"):

=====================  ===========  =============================================================
names                  ids          meaning
=====================  ===========  =============================================================
``end turn``           0            end the side's turn (or decline a blind step)
``formation <name>``   1-8, 9-17    offensive formations, then defensive formations
``special <name>``     18-21        pick a special player
``play on``            22           kick decision: run a play
``field goal``         23           kick decision: attempt a field goal
``punt <rows>``        24-43        kick decision: punt with a target of 1-20 rows
``move <tag> <dir>``   44-219       move a player one square (tag-major, 8 directions)
``push <tag>``         220-241      the ball carrier pushes the teammate with that tag
``gap <tag>``          242-246      the carrier runs the gap past that interior lineman
``throw <tag>``        247-268      handoff, lateral or forward pass to that teammate
``follow <tag>``       269-290      Lead Blocker: that teammate follows into the square just left
=====================  ===========  =============================================================

Tags are the slot names of :mod:`gridiron_env.core.geometry` (offence QB..F, defence LDE..SS);
directions are in the acting team's own frame (N = toward the end zone it attacks).
"""

from __future__ import annotations

import operator

import numpy as np

from .geometry import DIRECTION_NAMES, INTERIOR_LINEMEN, N_DIRECTIONS, N_SLOTS, TAGS
from .formations import DEFENCE_FORMATIONS, OFFENCE_FORMATIONS

SPECIALS = ("lead_blocker", "ball_hawk", "sure_hands", "speedy_qb")
LEAD_BLOCKER, BALL_HAWK, SURE_HANDS, SPEEDY_QB = range(4)
MAX_PUNT_ROWS = 20  # the action space's longest punt; GameConfig.longest_punt may lower it

END_TURN = 0
OFFENCE_FORMATION_BASE = 1
DEFENCE_FORMATION_BASE = OFFENCE_FORMATION_BASE + len(OFFENCE_FORMATIONS)
SPECIAL_BASE = DEFENCE_FORMATION_BASE + len(DEFENCE_FORMATIONS)
PLAY_ON = SPECIAL_BASE + len(SPECIALS)
FIELD_GOAL = PLAY_ON + 1
PUNT_BASE = FIELD_GOAL + 1  # PUNT_BASE + k - 1 is "punt k"
MOVE_BASE = PUNT_BASE + MAX_PUNT_ROWS  # MOVE_BASE + slot * 8 + direction
PUSH_BASE = MOVE_BASE + N_SLOTS * N_DIRECTIONS
GAP_BASE = PUSH_BASE + N_SLOTS
THROW_BASE = GAP_BASE + len(INTERIOR_LINEMEN)
FOLLOW_BASE = THROW_BASE + N_SLOTS
NUM_ACTIONS = FOLLOW_BASE + N_SLOTS

# Action kinds, for dispatch: ACTION_KIND[id], ACTION_ARG[id] (slot, formation, punt rows, ...),
# ACTION_DIRECTION[id] for moves.
(KIND_END_TURN, KIND_OFFENCE_FORMATION, KIND_DEFENCE_FORMATION, KIND_SPECIAL, KIND_PLAY_ON,
 KIND_FIELD_GOAL, KIND_PUNT, KIND_MOVE, KIND_PUSH, KIND_GAP, KIND_THROW, KIND_FOLLOW) = range(12)


def _build_tables():
    names: list[str] = []
    kind = np.zeros(NUM_ACTIONS, dtype=np.int8)
    arg = np.zeros(NUM_ACTIONS, dtype=np.int16)
    direction = np.full(NUM_ACTIONS, -1, dtype=np.int8)

    def add(name, k, a=0, d=-1):
        i = len(names)
        names.append(name)
        kind[i], arg[i], direction[i] = k, a, d

    add("end turn", KIND_END_TURN)
    for i, f in enumerate(OFFENCE_FORMATIONS):
        add(f"formation {f}", KIND_OFFENCE_FORMATION, i)
    for i, f in enumerate(DEFENCE_FORMATIONS):
        add(f"formation {f}", KIND_DEFENCE_FORMATION, i)
    for i, s in enumerate(SPECIALS):
        add(f"special {s}", KIND_SPECIAL, i)
    add("play on", KIND_PLAY_ON)
    add("field goal", KIND_FIELD_GOAL)
    for rows in range(1, MAX_PUNT_ROWS + 1):
        add(f"punt {rows}", KIND_PUNT, rows)
    for slot, tag in enumerate(TAGS):
        for d, dname in enumerate(DIRECTION_NAMES):
            add(f"move {tag} {dname}", KIND_MOVE, slot, d)
    for slot, tag in enumerate(TAGS):
        add(f"push {tag}", KIND_PUSH, slot)
    for slot in INTERIOR_LINEMEN:
        add(f"gap {TAGS[slot]}", KIND_GAP, slot)
    for slot, tag in enumerate(TAGS):
        add(f"throw {tag}", KIND_THROW, slot)
    for slot, tag in enumerate(TAGS):
        add(f"follow {tag}", KIND_FOLLOW, slot)
    assert len(names) == NUM_ACTIONS
    return tuple(names), kind, arg, direction


ACTION_NAMES, ACTION_KIND, ACTION_ARG, ACTION_DIRECTION = _build_tables()
_ID_BY_NAME = {name: i for i, name in enumerate(ACTION_NAMES)}


def action_name(action: int) -> str:
    """The stable readable name of an action id (an int 0..290: Python or numpy int, or a 0-d int array).

    Raises ValueError for anything else: ids out of range, bools (True is not action 1), floats (1.7 is
    not action 1), strings (names go the other way: ``action_id``), None.
    """
    if isinstance(action, (bool, np.bool_)):
        raise ValueError(f"an action id must be an int 0..{NUM_ACTIONS - 1}, got the bool {action!r} "
                         "(bool is not an action id)")
    try:
        i = operator.index(action)  # ints, numpy ints, 0-d int arrays; never a float's truncation
    except TypeError:
        raise ValueError(f"an action id must be an int 0..{NUM_ACTIONS - 1}, got {action!r} "
                         f"({type(action).__name__})") from None
    if not 0 <= i < NUM_ACTIONS:
        raise ValueError(f"action id {i} is outside 0..{NUM_ACTIONS - 1}")
    return ACTION_NAMES[i]


def action_id(name: str) -> int:
    """Parse an action name (case and spacing are forgiven: ``"Move qb  n"``) into its id."""
    if not isinstance(name, str):
        looks_like_id = isinstance(name, (int, np.integer)) and not isinstance(name, bool)
        hint = " (that looks like an id: action_name(id) gives its name)" if looks_like_id else ""
        raise ValueError(f"an action name must be a str, got {name!r} ({type(name).__name__}){hint}")
    words = name.strip().split()
    if not words:
        raise ValueError("empty action name")
    words[0] = words[0].lower()
    if words[0] in ("formation", "special"):
        words[1:] = [w.lower() for w in words[1:]]
    elif words[0] in ("move", "push", "gap", "throw", "follow"):
        words[1:] = [w.upper() for w in words[1:]]
    else:
        words = [w.lower() for w in words]
    canonical = " ".join(words)
    try:
        return _ID_BY_NAME[canonical]
    except KeyError:
        raise ValueError(
            f"unknown action {name!r}; names look like 'move QB N', 'throw Z', 'push RG', 'gap LG', "
            f"'punt 9', 'formation shotgun', 'special speedy_qb', 'play on', 'end turn'"
        ) from None
