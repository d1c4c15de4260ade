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

from ..action_names import name_and_id

RUN_PLAY, FIELD_GOAL, PUNT, DECLINE, CONTEST, OUT_OF_BOUNDS, TIME_OUT = range(7)
ACTION_NAMES = ("run play", "field goal", "punt", "decline", "contest", "out of bounds", "time out")
NUM_ACTIONS = len(ACTION_NAMES)
action_name, action_id = name_and_id(ACTION_NAMES)  # ids <-> stable names, both ways
