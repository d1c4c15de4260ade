"""The action space: one discrete space for both teams, every id with a stable readable name.

=======================  ====  ===================================================================
name                     id    who, when (phase)
=======================  ====  ===================================================================
``choose offence``       0     the toss winner, at the start (``toss``): start on offence
``choose defence``       1     the toss winner, at the start (``toss``): start on defence (and hold the chip)
``roll``                 2     the offence, downs 1-3 (``snap``): both sides roll all six dice
``go for it``            3     the offence, 4th down (``fourth down``): a normal roll
``punt``                 4     the offence, 4th down (``fourth down``): a punt roll (ruling 13)
``field goal``           5     the offence, 4th down (``fourth down``): a field-goal roll (ruling 14)
``use chip``             6     the chip holder, counts tied (``chip``): its side wins the roll, the chip passes
``keep chip``            7     the chip holder, counts tied (``chip``): the other side wins the roll
``play 10``              8     the offence, its top symbols tied (``offence play``): apply 10
``play 20``              9     ... apply 20
``play field goal``      10    ... apply FIELD GOAL
``play touchdown``       11    ... apply TOUCHDOWN
``play no gain``         12    the defence, its top symbols tied (``defence play``): apply NO GAIN
``play sack``            13    ... apply SACK
``play turnover``        14    ... apply TURNOVER
``play pick six``        15    ... apply PICK SIX
``take the points``      16    the offence, a FIELD GOAL play at 50 or beyond (``field goal choice``): 3 points
``advance 25``           17    ... instead move 25 yards using a down
``wait``                 18    never legal: the id a mask row marks when its action is ignored
=======================  ====  ===================================================================

Play ids are ``PLAY_BASE + symbol`` with the symbol codes of ``state.SYMBOL_NAMES`` (offence 0-3, defence
4-7).
"""

from __future__ import annotations

from ..action_names import name_and_id

(CHOOSE_OFFENCE, CHOOSE_DEFENCE, ROLL, GO_FOR_IT, PUNT, FIELD_GOAL, USE_CHIP, KEEP_CHIP,
 PLAY_10, PLAY_20, PLAY_FIELD_GOAL, PLAY_TOUCHDOWN, PLAY_NO_GAIN, PLAY_SACK, PLAY_TURNOVER, PLAY_PICK_SIX,
 TAKE_POINTS, ADVANCE, WAIT) = range(19)
PLAY_BASE = PLAY_10  # play id = PLAY_BASE + symbol code (0-7)
ACTION_NAMES = ("choose offence", "choose defence", "roll", "go for it", "punt", "field goal", "use chip",
                "keep chip", "play 10", "play 20", "play field goal", "play touchdown", "play no gain",
                "play sack", "play turnover", "play pick six", "take the points", "advance 25", "wait")
NUM_ACTIONS = len(ACTION_NAMES)
IGNORED_ACTION = WAIT
action_name, action_id = name_and_id(ACTION_NAMES)  # ids <-> stable names, both ways
