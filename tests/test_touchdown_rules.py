"""Touchdown: one scenario test (or a few) per rule of the seed and RULINGS-touchdown.md, each built from a
diagram (``diagram.scenario``) with the dice injected (``ScriptedChance``: a die face f is the outcome f-1,
a number-wheel number w the outcome w-1). Rows are team one's row numbers, lanes 0-based; team one attacks
toward higher rows, so its "forward" is up the board and team two's is down."""

from fractions import Fraction

import numpy as np
import pytest

import gridiron_env.touchdown as td
from gridiron_env.touchdown import actions as A
from gridiron_env.touchdown import engine
from gridiron_env.touchdown.diagram import LETTERS, scenario, to_diagram
from gridiron_env.touchdown.invariants import check_invariants
from gridiron_env.touchdown.state import (
    DEFENCE_CALL, EV, GAME_OVER, INTERCEPTION, KICK_CHOICE, OFFENCE_CALL, PLAY,
)

CONFIG = td.TouchdownConfig()
W = CONFIG.lanes
# every piece far from the others: offence on row 3 (5 behind the default LOS 8), defence on row 25
HOME = {"L": (0, 3), "C": (2, 3), "R": (4, 3), "E": (6, 3), "B": (8, 3), "T": (10, 3), "Q": (12, 3),
        "l": (0, 25), "m": (2, 25), "r": (4, 25), "j": (6, 25), "k": (8, 25), "u": (10, 25), "v": (12, 25)}


def make(pieces=None, ball=None, config=CONFIG, stacked=None, **fields):
    """A play position: ``pieces`` letter -> (lane, row) over HOME, ``ball`` (lane, row) of a loose ball
    (then give holder="-"), ``stacked`` a pair of letters -> their shared square, ``fields`` the diagram's
    header lines (see ``diagram.scenario``)."""
    where = dict(HOME)
    where.update(pieces or {})
    extra = [("o", ball)] if ball else []
    for pair, square in (stacked or {}).items():
        for letter in pair:
            del where[letter]
        extra.append(("*", square))
        fields["stacked"] = pair
    rows = {}
    for letter, (lane, row) in list(where.items()) + extra:
        line = list(rows.get(row, "." * config.lanes))
        assert line[lane] == ".", f"two things on {(lane, row)}"
        line[lane] = letter
        rows[row] = "".join(line)
    return scenario(rows, config, **fields)


def faces(*dice):
    return [d - 1 for d in dice]


def act(state, action, outcomes=(), config=CONFIG):
    """One action (a name) with scripted outcomes, all of which must be used; the invariants checked."""
    chance = td.ScriptedChance(list(outcomes))
    out = td.engine.step(state, np.array([A.action_id(action)]), config, chance=chance)
    assert not chance.queue, f"unused outcomes {chance.queue}"
    check_invariants(out, config)
    return out


def legal(state):
    return {A.ACTION_NAMES[i] for i in np.flatnonzero(state.legal[0])}


def at(state, letter):
    slot = LETTERS.index(letter)
    return int(state.lane[0, slot]), int(state.row[0, slot]) - 1  # lane, team one's row


# --- movement (ruling 4) ----------------------------------------------------------------------------------

def test_allowance_single_one_double_two_triple_three_squares():
    s = make({"E": (6, 5), "T": (10, 5)})
    s = act(s, "piece 4 forward")
    assert "piece 4 forward" in legal(s) and int(s.steps_left[0]) == 1
    s = act(s, "piece 4 forward")
    assert at(s, "E") == (6, 7) and not any(n.startswith("piece 4 ") for n in legal(s))  # a Double: 2 squares
    s = act(s, "piece 6 forward")
    s = act(s, "piece 6 forward")
    assert "piece 6 forward" in legal(s)
    s = act(s, "piece 6 forward")  # the third square of a Triple ends the turn (two pieces moved)
    assert at(s, "T") == (10, 8) and int(s.to_act[0]) == 1 and int(s.parts[0]) == 0
    s = act(s, "piece 1 back")  # team two's Single: one square back, up the board
    assert at(s, "l") == (0, 26) and not any(n.startswith("piece 1 ") for n in legal(s))


def test_a_side_moves_two_different_pieces_and_may_stop_early():
    s = make({"T": (10, 5)})
    s = act(s, "piece 6 forward")
    s = act(s, "stop")
    assert not any(n.startswith("piece 6 ") for n in legal(s))  # the same piece cannot move again
    s = act(s, "piece 4 forward")
    assert int(s.to_act[0]) == 0 and "stop" in legal(s)
    s = act(s, "stop")
    assert int(s.to_act[0]) == 1  # two parts: the defence's turn


def test_move_then_pass_and_two_passes_accomplish_the_offence_move():
    s = make({"Q": (6, 5), "B": (8, 5), "E": (10, 5)})
    s = act(s, "pass to 5", faces(3, 3))  # a lateral of 2 squares: complete on 4+
    assert int(s.holder[0]) == LETTERS.index("B") and int(s.to_act[0]) == 0
    s = act(s, "pass to 4", faces(3, 3))  # and a second pass
    assert int(s.holder[0]) == LETTERS.index("E") and int(s.to_act[0]) == 1


def test_end_turn_only_when_nothing_else_is_legal():
    # every offensive piece marked but the QB, who holds the ball boxed in by his own pieces: the QB may
    # still move, so end turn is not legal; once he has moved and the parts are not done, the turn may end
    s = make({"Q": (6, 5), "B": (8, 5)}, marked="LCRETB")
    assert "end turn" not in legal(s)
    s = act(s, "piece 7 forward")
    s = act(s, "piece 7 forward")
    s = act(s, "piece 7 forward")
    assert legal(s) == {"end turn"}  # no second piece may move and no receiver is unmarked
    s = act(s, "end turn")
    assert int(s.to_act[0]) == 1


# --- restrictions (rulings 5, 6) --------------------------------------------------------------------------

def test_restriction_one_no_diagonal_between_squares_beside_an_equal_or_stronger_piece():
    s = make({"E": (6, 11), "j": (7, 11)}, flags="limits, forward thrown")
    assert "piece 4 forward right" not in legal(s)  # (6,11) -> (7,12): both beside the Double j
    assert "piece 4 forward" in legal(s)  # round it orthogonally
    weaker = make({"E": (6, 11), "u": (7, 11)}, flags="limits, forward thrown")
    assert "piece 4 forward right" in legal(weaker)  # past a weaker Triple: no restriction


def test_restriction_two_triple_or_qb_never_beside_an_opposing_single():
    s = make({"Q": (6, 5), "l": (8, 7)})
    assert "piece 7 forward right" not in legal(s)  # (7,6) is beside the Single l
    assert "piece 7 forward" in legal(s)
    m = make({"Q": (6, 5), "l": (8, 7)}, marked="l")  # a marked Single still restricts
    assert "piece 7 forward right" not in legal(m)


# --- pushes (ruling 10) -----------------------------------------------------------------------------------

def test_push_moves_the_weaker_piece_on_in_the_step_direction_and_ends_the_move():
    s = make({"B": (6, 10), "u": (6, 11)}, flags="limits, forward thrown")
    s = act(s, "piece 5 forward")
    assert at(s, "B") == (6, 11) and at(s, "u") == (6, 12)
    assert int(s.steps_left[0]) == 0 and int(s.active[0]) == -1  # the push ended the Double's move
    single = make({"R": (7, 8), "k": (7, 9)})
    single = act(single, "piece 3 forward")
    assert at(single, "R") == (7, 9) and at(single, "k") == (7, 10)  # a Single pushes a Double


@pytest.mark.parametrize("blocker", ["occupied", "edge", "ball", "single", "equal"])
def test_push_refused(blocker):
    fields = {"flags": "limits, forward thrown"}
    if blocker == "occupied":
        s = make({"B": (6, 10), "u": (6, 11), "v": (6, 12)}, **fields)
        name = "piece 5 forward"
    elif blocker == "edge":
        s = make({"B": (1, 10), "u": (0, 10), "L": (3, 3)}, **fields)
        name = "piece 5 left"
    elif blocker == "ball":
        s = make({"B": (6, 10), "u": (6, 11)}, ball=(6, 12), holder="-", flags="-")
        name = "piece 5 forward"
    elif blocker == "single":  # a pushed Triple may not land beside another of the pusher's Singles
        s = make({"B": (6, 10), "u": (6, 11), "L": (7, 13)}, **fields)
        name = "piece 5 forward"
    else:  # a Double cannot push a Double
        s = make({"B": (6, 10), "j": (6, 11)}, **fields)
        name = "piece 5 forward"
    assert name not in legal(s)


def test_single_pushes_triple_by_stepping_beside_it():
    # team two's Single m steps down next to the receiver T: T is pushed along the line m -> T
    s = make({"m": (5, 11), "T": (6, 9)}, to_act="two")
    s = act(s, "piece 2 forward left")  # team two's forward-left is down and to team one's right
    assert at(s, "m") == (6, 10) and at(s, "T") == (6, 8)
    marked = make({"m": (5, 11), "T": (6, 9)}, to_act="two", marked="T")
    assert "piece 2 forward left" not in legal(marked)  # a marked piece cannot be pushed


def test_protected_receiver_and_the_carrier():
    # an eligible receiver 2 rows in front of the LOS cannot be pushed while a forward pass is possible
    s = make({"m": (5, 12), "T": (6, 10)}, to_act="two")
    assert "piece 2 forward left" not in legal(s)
    thrown = make({"m": (5, 12), "T": (6, 10)}, to_act="two", flags="limits, forward thrown")
    assert "piece 2 forward left" in legal(thrown)
    carrier = make({"B": (6, 10), "u": (6, 11)}, holder="B", flags="-")
    assert "piece 5 forward" not in legal(carrier)  # the carrier cannot push


# --- tackles and markers (rulings 11, 12) -----------------------------------------------------------------

def tackle_position(**extra):
    pieces = {"Q": (6, 9), "j": (6, 10)}
    pieces.update(extra)
    return make(pieces, to_act="two", flags="limits, forward thrown")


def test_tackle_stands_on_any_total_but_4_and_7():
    s = act(tackle_position(), "piece 4 forward", faces(3, 5))
    assert int(s.phase[0]) == OFFENCE_CALL and int(s.event[0]) == EV["tackle"]
    assert (int(s.offence[0]), int(s.down[0]), int(s.los[0]), int(s.to_gain[0])) == (0, 2, 9, 18)
    assert int(s.scrimmages[0]) == 1


def test_tackle_7_misses_the_tackler_goes_back_marked():
    s = act(tackle_position(), "piece 4 forward", faces(3, 4))
    assert int(s.phase[0]) == PLAY and at(s, "j") == (6, 10) and s.marked[0, LETTERS.index("j")]
    assert not any(n.startswith("piece 4 ") for n in legal(s))


@pytest.mark.parametrize("dice,square", [((1, 3), (6, 10)), ((2, 2), (6, 11))])
def test_tackle_4_fumbles_by_the_wheel(dice, square):
    s = act(tackle_position(), "piece 4 forward", faces(*dice) + [4 - 1])  # wheel 4: forward as team one sees it
    assert int(s.holder[0]) == -1 and (int(s.ball_lane[0]), int(s.ball_row[0]) - 1) == square
    assert at(s, "j") == (6, 9) == at(s, "Q")  # the tackler stays on the tackled square, both marked
    assert s.marked[0, LETTERS.index("j")] and s.marked[0, LETTERS.index("Q")] and not s.limits[0]


def test_single_tackles_triple_or_qb_carrier_by_stepping_beside_it():
    s = make({"Q": (6, 9), "l": (7, 11)}, to_act="two", flags="limits, forward thrown")
    s = act(s, "piece 1 forward", faces(6, 6))  # team two forward: down to (7, 10), beside the QB
    assert int(s.event[0]) == EV["tackle"] and int(s.phase[0]) == OFFENCE_CALL


def test_triple_cannot_tackle_a_single():
    # restriction 2 keeps a Triple off the squares beside a Single, so it never reaches one to tackle
    s = make({"L": (6, 9), "u": (6, 11)}, holder="L", to_act="two", flags="forward thrown")
    assert "piece 6 forward" not in legal(s) and "piece 6 left" in legal(s)


def test_marked_pieces_do_not_move_and_a_marked_piece_picks_up_the_ball():
    s = make({"Q": (6, 9), "j": (6, 10), "B": (7, 10)}, marked="B", to_act="two", flags="limits, forward thrown")
    s = act(s, "piece 4 forward", faces(1, 3) + [5 - 1])  # fumble: wheel 5 (forward right) onto the marked B
    assert int(s.holder[0]) == LETTERS.index("B") and not s.marked[0, LETTERS.index("B")]
    assert int(s.poss[0]) == 0 and int(s.to_act[0]) == 1  # the defence's turn goes on
    assert not any(n.startswith("piece 4 ") for n in legal(s))  # its marked tackler j takes no part


# --- fumbles (ruling 24) ----------------------------------------------------------------------------------

def test_wheel_is_read_as_the_fumbling_team_sees_it():
    # team two has the ball (offence two); its forward is down the board
    s = make({"Q": (6, 20), "j": (6, 19)}, offence="two", possession="two", to_act="one",
             series="1 11 21 7", flags="forward thrown")
    # team two is the offence: its pieces are the upper-case letters; the defence (team one) tackles
    s = act(s, "piece 4 forward", faces(1, 3) + [4 - 1])
    assert (int(s.ball_lane[0]), int(s.ball_row[0]) - 1) == (6, 19)  # "forward" for team two is down


def test_fumble_over_the_side_line_restarts_level_with_it():
    s = make({"Q": (0, 12), "j": (0, 13)}, to_act="two", flags="limits, forward thrown")
    s = act(s, "piece 4 forward", faces(1, 3) + [2 - 1])  # wheel 2: left, over the side line
    assert int(s.phase[0]) == OFFENCE_CALL and int(s.offence[0]) == 0
    assert (int(s.down[0]), int(s.los[0])) == (2, 12) and int(s.los_lane[0]) == CONFIG.hash_lanes[0]


def test_fumble_out_of_play_behind_own_goal_line_is_a_safety():
    s = make({"Q": (6, -1), "j": (6, 0)}, to_act="two", flags="-", entered_by="one")
    s = act(s, "piece 4 forward", faces(1, 3) + [8 - 1] + faces(1) + faces(3, 5))  # wheel 8: back, off the end
    assert tuple(s.score[0]) == (0, 2) and int(s.event[0]) == EV["return"]
    # team one kicked off from its 6th row: 14 + 1 rows, team two's row 31 - 21 = 10, returned 8
    assert (int(s.offence[0]), int(s.los[0])) == (1, 18)


def test_fumble_over_side_line_level_with_opponent_end_zone_is_a_turnover_at_the_6th_row():
    s = make({"Q": (0, 30), "j": (1, 30)}, to_act="two", flags="limits, forward thrown")
    s = act(s, "piece 4 right", faces(2, 2) + [3 - 1])  # team two's right; wheel 3: (-1, 31) is off the board
    assert (int(s.offence[0]), int(s.los[0]), int(s.down[0])) == (1, 6, 1)


def test_ball_on_two_marked_pieces_goes_to_the_higher_die_dead():
    # E and j share (7, 11) after an earlier fumble, both marked; the carrier Q fumbles one square onto them
    s = make({"Q": (6, 10), "k": (6, 11)}, stacked={"Ej": (7, 11)}, to_act="two", flags="forward thrown",
             marked="Ej")
    s = act(s, "piece 5 forward", faces(1, 3) + [5 - 1] + faces(3, 3, 5, 2))  # a tie, rolled again: 5 beats 2
    assert int(s.phase[0]) == OFFENCE_CALL and int(s.event[0]) == EV["dead ball"]
    assert (int(s.offence[0]), int(s.los[0]), int(s.down[0])) == (0, 11, 1)  # the offence's first down there


# --- passes (rulings 20-23) -------------------------------------------------------------------------------

def pass_position(**kw):
    pieces = {"Q": (6, 7), "T": (6, 12), "B": (9, 7), "E": (6, 1 + 3)}
    pieces.update(kw.pop("pieces", {}))
    return make(pieces, **kw)


def test_pass_needs_a_clear_straight_line_and_the_distance_limits():
    s = pass_position()
    assert "pass to 6" in legal(s) and "pass to 5" in legal(s)
    blocked = pass_position(pieces={"u": (6, 10)})
    assert "pass to 6" not in legal(blocked)  # a Triple on the line of pass
    own = pass_position(pieces={"R": (6, 9)})
    assert "pass to 6" not in legal(own)  # an own piece blocks too
    bent = pass_position(pieces={"T": (7, 12)})
    assert "pass to 6" not in legal(bent)  # not on a line
    far = make({"Q": (6, 3), "T": (6, 18), "E": (7, 4)})
    assert "pass to 6" in legal(far)  # the QB passes 15
    far16 = make({"Q": (6, 3), "T": (6, 19), "E": (7, 4)})
    assert "pass to 6" not in legal(far16)
    lateral = make({"B": (6, 10), "T": (0, 10), "E": (12, 4)}, holder="B", flags="-")
    assert "pass to 6" in legal(lateral)  # another piece passes 6 ...
    lat7 = make({"B": (7, 10), "T": (0, 10)}, holder="B", flags="-")
    assert "pass to 6" not in legal(lat7)  # ... not 7


def test_forward_pass_rules():
    s = pass_position(pieces={"C": (6, 8)}, flags="limits")
    assert "pass to 2" not in legal(s)  # interior linemen cannot receive a forward pass
    beyond = pass_position(pieces={"Q": (6, 8), "T": (6, 12)})
    assert "pass to 6" not in legal(beyond)  # the passer must be behind the LOS (row 8)
    thrown = pass_position(flags="limits, forward thrown")
    assert "pass to 6" not in legal(thrown) and "pass to 5" in legal(thrown)  # one forward pass a play
    fumbled = pass_position(flags="-")
    assert "pass to 6" not in legal(fumbled)  # none after a fumble


def test_completion_table_and_its_chances():
    t = engine.completion_need(np.arange(1, 16), np.zeros(15, bool))
    c = engine.completion_need(np.arange(1, 16), np.ones(15, bool))
    assert list(t) == [4] * 3 + [6] * 3 + [7] * 4 + [8] * 5 and list(c) == [8] * 3 + [10] * 3 + [11] * 4 + [12] * 5
    chance = {need: Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= need), 36)
              for need in (4, 6, 7, 8, 10, 11, 12)}
    assert chance[4] == Fraction(33, 36) and chance[12] == Fraction(1, 36)
    s = pass_position()
    assert int(act(s, "pass to 6", faces(2, 3)).down[0]) == 2  # distance 5 needs 6: incomplete, 2nd play
    done = act(s, "pass to 6", faces(3, 3))
    assert int(done.holder[0]) == LETTERS.index("T") and int(done.event[0]) == EV["complete"]


def test_close_marked_receiver_needs_the_higher_total():
    s = pass_position(pieces={"j": (7, 13)})  # a Double beside the receiver, farther from the passer
    assert int(act(s, "pass to 6", faces(4, 5)).down[0]) == 2  # 9 < 10
    assert int(act(s, "pass to 6", faces(5, 5)).holder[0]) == LETTERS.index("T")
    single = make({"Q": (6, 7), "E": (6, 12), "l": (7, 13)})  # a Single close marks a Double
    assert int(act(single, "pass to 4", faces(4, 5)).down[0]) == 2
    marked = pass_position(pieces={"j": (7, 13)}, marked="j")  # a marked piece does not close mark
    assert int(act(marked, "pass to 6", faces(3, 3)).holder[0]) == LETTERS.index("T")


def test_incomplete_on_the_second_play_and_into_the_end_zone():
    s = pass_position(series="2 8 18 7")
    s = act(s, "pass to 6", faces(1, 1))
    assert (int(s.offence[0]), int(s.los[0]), int(s.down[0])) == (1, 23, 1)
    deep = {"L": (0, 27), "C": (2, 27), "R": (4, 27), "E": (8, 27), "B": (10, 27), "Q": (6, 26), "T": (6, 31),
            "l": (0, 29), "m": (2, 29), "r": (4, 29), "j": (8, 30), "k": (10, 30), "u": (10, 32), "v": (12, 32)}
    ez = make(deep, series="2 27 37 7")
    ez = act(ez, "pass to 6", faces(1, 1))
    assert (int(ez.offence[0]), int(ez.los[0])) == (1, 6)  # the 6th row, farther than the LOS (row 4)


def intercept_position():
    return pass_position(pieces={"j": (5, 11)})  # beside the receiver, nearer the passer


def test_interception_choice_and_its_three_outcomes():
    s = act(intercept_position(), "pass to 6")
    assert int(s.phase[0]) == INTERCEPTION and int(s.to_act[0]) == 1
    # j (5, 11) may step onto (6, 11) or (6, 10): team two's left and forward left (it faces down the board)
    assert {"piece 4 left", "piece 4 forward left", "decline interception"} == legal(s)
    got = act(s, "piece 4 left", faces(4, 4))
    assert int(got.holder[0]) == LETTERS.index("j") and int(got.poss[0]) == 1 and int(got.to_act[0]) == 1
    assert int(got.parts[0]) == 0 and not got.limits[0]
    miss = act(s, "piece 4 left", faces(3, 4) + faces(5, 5))  # missed (marked), then the completion roll
    assert s.marked is not miss.marked and miss.marked[0, LETTERS.index("j")]
    assert int(miss.holder[0]) == LETTERS.index("T")
    knock = act(s, "piece 4 left", faces(1, 3))
    assert int(knock.event[0]) == EV["incomplete"] and int(knock.down[0]) == 2
    declined = act(s, "decline interception", faces(6, 6))
    assert int(declined.holder[0]) == LETTERS.index("T")


def test_no_interception_by_a_defender_farther_from_the_passer():
    s = act(pass_position(pieces={"j": (5, 13)}), "pass to 6", faces(6, 6))
    assert int(s.phase[0]) == PLAY and int(s.holder[0]) == LETTERS.index("T")


def test_missed_lateral_onto_a_defender_ends_the_play_there():
    s = make({"Q": (6, 10), "B": (8, 10), "u": (9, 11)}, flags="-")
    s = act(s, "pass to 5", faces(1, 1) + [5 - 1])  # 1+1: one square, forward-right onto u
    assert int(s.phase[0]) == OFFENCE_CALL and int(s.event[0]) == EV["turnover"]
    assert (int(s.offence[0]), int(s.los[0]), int(s.down[0])) == (1, 31 - 11, 1)


def test_missed_lateral_back_onto_the_passer_plays_on():
    s = make({"Q": (6, 10), "B": (7, 10)}, flags="-")
    s = act(s, "pass to 5", faces(1, 1) + [2 - 1])  # one square left of B: back onto the QB
    assert int(s.phase[0]) == PLAY and int(s.holder[0]) == LETTERS.index("Q")


# --- the snap (ruling 9) and formations (ruling 8) --------------------------------------------------------

def call_state(los=8, lane=7, offence="one", **kw):
    text = to_diagram(make(), 0).split("board:")[0]
    lines = dict(line.split(": ", 1) for line in text.strip().splitlines()[1:])
    lines.update({"phase": "offence call", "to act": offence, "offence": offence, "possession": offence,
                  "series": f"1 {los} {min(los + 10, 127)} {lane}", "holder": "-", "turn": "- 0 0 - 0 0",
                  "flags": "limits"})
    lines.update({k.replace("_", " "): v for k, v in kw.items()})
    return td.from_diagram("touchdown diagram v1\n" + "\n".join(f"{k}: {v}" for k, v in lines.items()), CONFIG)


def test_snap_misses_only_on_a_two():
    s = act(call_state(), "offence pro set")
    assert int(s.phase[0]) == DEFENCE_CALL and int(s.to_act[0]) == 1
    ok = act(s, "defence base", faces(1, 2))
    assert int(ok.holder[0]) == LETTERS.index("Q") and int(ok.parts[0]) == 1 and int(ok.to_act[0]) == 0
    miss = act(s, "defence base", faces(1, 1) + [2 - 1])  # one square left of the QB
    assert int(miss.holder[0]) == -1 and int(miss.event[0]) == EV["missed lateral"] and not miss.limits[0]
    q_lane, q_row = at(miss, "Q")
    assert (int(miss.ball_lane[0]), int(miss.ball_row[0]) - 1) == (q_lane - 1, q_row)


def test_every_formation_pair_is_legal_at_every_lane_and_los():
    """Every pair of formations, at every LOS row and hash lane, for both teams: lined up in one batch, every
    invariant holds (limits, restriction 2, no shared squares), the interior line side by side on the LOS
    with the centre on the ball and the QB directly behind him."""
    base = call_state()
    spots = [(los, lane, offence) for los in range(1, CONFIG.field_rows + 1)
             for lane in range(CONFIG.hash_band[0], CONFIG.hash_band[1] + 1) for offence in ("one", "two")]
    where = [spot + (fo, fd) for spot in spots for fo in range(A.N_OFFENCE) for fd in range(A.N_DEFENCE)]
    s = base.take(np.zeros(len(where), dtype=np.int64))
    for i, (los, lane, offence, _, _) in enumerate(where):  # the same call, moved (checked below)
        s.offence[i] = s.poss[i] = s.to_act[i] = 0 if offence == "one" else 1
        s.los[i], s.to_gain[i], s.los_lane[i] = los, los + 10, lane - 1
        s.ball_lane[i] = lane - 1
        s.ball_row[i] = los + 1 if offence == "one" else CONFIG.rows - 2 - los
    engine.recompute_legal(s, CONFIG)
    check_invariants(s, CONFIG)
    n = s.batch_size
    fo = np.array([w[3] for w in where])
    fd = np.array([w[4] for w in where])
    s = engine.step(s, A.OFFENCE_BASE + fo, CONFIG)
    s = engine.step(s, A.DEFENCE_BASE + fd, CONFIG, chance=td.ScriptedChance(faces(3, 4) * n))
    check_invariants(s, CONFIG)
    lane = np.array([w[1] for w in where]) - 1
    sign = np.array([1 if w[2] == "one" else -1 for w in where])
    c = LETTERS.index("C")
    assert (s.phase == PLAY).all() and (s.holder == LETTERS.index("Q")).all()
    assert (s.lane[:, c] == lane).all() and (s.row[:, 0] == s.row[:, c]).all() and (s.row[:, 2] == s.row[:, c]).all()
    assert (np.abs(s.lane[:, 0].astype(int) - s.lane[:, 2]) == 2).all()
    assert (s.lane[:, 6] == lane).all() and (s.row[:, 6] == s.row[:, c] - sign).all()
    los_abs = np.where(sign == 1, np.array([w[0] for w in where]) + 1, CONFIG.rows - 2 - np.array([w[0] for w in where]))
    assert (s.row[:, c] == los_abs).all()
    assert len(set(A.ACTION_NAMES[A.OFFENCE_BASE:A.OFFENCE_BASE + A.N_OFFENCE])) == A.N_OFFENCE >= 4
    assert len(set(A.ACTION_NAMES[A.DEFENCE_BASE:A.DEFENCE_BASE + A.N_DEFENCE])) == A.N_DEFENCE >= 4


# --- scrimmage limits (ruling 7) --------------------------------------------------------------------------

def test_scrimmage_limits():
    s = make({"u": (3, 9)}, to_act="two")
    assert "piece 6 forward" not in legal(s)  # a defensive Triple never enters the LOS row
    assert "piece 6 left" in legal(s)
    back = make({"B": (8, 3)})
    assert "piece 5 back" not in legal(back) and "piece 5 forward" in legal(back)  # 5 rows behind at most
    line = make({"L": (0, 9)})
    assert "piece 1 forward" not in legal(line)  # an interior lineman: 1 row in front of the LOS
    thrown = make({"L": (0, 9)}, flags="limits, forward thrown")
    assert "piece 1 forward" in legal(thrown)


# --- downs and scoring (rulings 13-15) --------------------------------------------------------------------

def test_gaining_ten_rows_is_a_new_series_and_failing_twice_hands_over():
    s = act(make({"Q": (6, 18), "j": (6, 19)}, to_act="two", flags="forward thrown"), "piece 4 forward", faces(5, 5))
    assert (int(s.down[0]), int(s.los[0]), int(s.to_gain[0])) == (1, 18, 28)
    f = act(make({"Q": (6, 12), "j": (6, 13)}, to_act="two", flags="forward thrown", series="2 8 18 7"),
            "piece 4 forward", faces(5, 5))
    assert (int(f.offence[0]), int(f.down[0]), int(f.los[0])) == (1, 1, 19)


def test_touchdown_and_conversion_then_the_scorer_kicks_off():
    s = make({"Q": (6, 30)}, flags="-")
    good = act(s, "piece 7 forward", faces(2, 2) + faces(3) + faces(2, 3))
    assert tuple(good.score[0]) == (7, 0)
    # team one kicks from its 11th row: 14 + 3 rows -> team two's row 3, returned 5 -> row 8
    assert (int(good.offence[0]), int(good.los[0])) == (1, 8) and int(good.scrimmages[0]) == 2
    missed = act(s, "piece 7 forward", faces(1, 2) + faces(6) + [])
    assert tuple(missed.score[0]) == (6, 0) and int(missed.phase[0]) == KICK_CHOICE  # row 0: a choice


def test_declared_safety_and_safety_by_a_tackle_in_own_end_zone():
    s = make({"Q": (6, 0)}, flags="-", entered_by="one")
    assert "declare safety" in legal(s)
    s = act(s, "declare safety", faces(2) + faces(1, 2))
    assert tuple(s.score[0]) == (0, 2)
    # team one kicks from its 6th row: 14 + 2 rows: team two's row 31 - 22 = 9, returned 3
    assert (int(s.offence[0]), int(s.los[0])) == (1, 12)
    t = act(make({"Q": (6, 0), "j": (6, 1)}, to_act="two", flags="-", entered_by="one"), "piece 4 forward",
            faces(5, 5) + faces(1) + faces(1, 2))
    assert tuple(t.score[0]) == (0, 2)


def test_touchback_when_the_other_side_put_the_ball_in_the_end_zone():
    t = act(make({"Q": (6, 0), "j": (6, 1)}, to_act="two", flags="-", entered_by="two"), "piece 4 forward",
            faces(5, 5))
    assert tuple(t.score[0]) == (0, 0) and (int(t.offence[0]), int(t.los[0])) == (0, 6)


# --- kicks (rulings 17-19) --------------------------------------------------------------------------------

def test_kick_off_lands_on_rows_5_to_0_and_the_end_zone_choice():
    for die in range(1, 7):
        outcomes = [0] + faces(die) + ([] if die == 6 else faces(1, 2))
        chance = td.ScriptedChance(outcomes)
        s = engine.init(1, 0, CONFIG, chance=chance)
        assert not chance.queue
        if die == 6:
            assert int(s.phase[0]) == KICK_CHOICE and int(s.kick_row[0]) == 0 and int(s.to_act[0]) == 1
            take = act(s, "take first down")
            assert (int(take.offence[0]), int(take.los[0])) == (1, 6)
        else:
            assert (int(s.offence[0]), int(s.los[0])) == (1, 6 - die + 3)


def kick_state(die):
    return engine.init(1, 0, CONFIG, chance=td.ScriptedChance([0] + faces(die)))


def test_return_chain_on_double_six():
    s = engine.init(1, 0, CONFIG, chance=td.ScriptedChance([0] + faces(3) + faces(6, 6, 3, 3, 1, 2)))
    assert int(s.los[0]) == 3 + 12 + 6 + 3
    s = engine.init(1, 0, CONFIG, chance=td.ScriptedChance([0] + faces(3) + faces(6, 6, 2, 3)))
    assert int(s.los[0]) == 3 + 12 + 5
    s = engine.init(1, 0, CONFIG, chance=td.ScriptedChance([0] + faces(3) + faces(3, 3)))
    assert int(s.los[0]) == 3 + 6  # a double other than 6-6 first: no chain
    s = engine.init(1, 0, CONFIG, chance=td.ScriptedChance([0] + faces(1) + faces(6, 6, 6, 6, 6, 6)
                                                           + faces(2, 2) + faces(4) + faces(2, 3)))
    assert tuple(s.score[0]) == (0, 7)  # 5 + 36: a return touchdown, converted; team two kicks off


def test_return_fumble_and_the_recovery_dice():
    # a 4: the ball moves one square by the wheel (4: forward), then receiver 2 dice against kicker 1
    s = engine.init(1, 0, CONFIG, chance=td.ScriptedChance([0] + faces(3) + faces(1, 3) + [4 - 1]
                                                           + faces(2, 3) + faces(4)))
    assert (int(s.offence[0]), int(s.los[0])) == (0, 31 - 4)  # the kicker's die beat both: its ball at row 4
    s = engine.init(1, 0, CONFIG, chance=td.ScriptedChance([0] + faces(3) + faces(1, 3) + [4 - 1]
                                                           + faces(2, 4) + faces(4)))
    assert (int(s.offence[0]), int(s.los[0])) == (1, 4)  # 4 does not beat 4
    sf = kick_state(6)
    sf = act(sf, "return", faces(2, 2) + [8 - 1] + faces(1) + faces(1, 2))  # two squares back: out behind
    assert tuple(sf.score[0]) == (2, 0)


@pytest.mark.parametrize("action,dice,row", [("punt no dice", [], 12), ("punt one die", [6], 6),
                                              ("punt two dice", [3, 4], 5)])
def test_punt_distance_and_the_receivers_choice(action, dice, row):
    s = act(call_state(), action, faces(*dice))
    assert int(s.phase[0]) == KICK_CHOICE and int(s.to_act[0]) == 1 and int(s.kick_row[0]) == row
    taken = act(s, "take first down")
    assert (int(taken.offence[0]), int(taken.los[0])) == (1, row)
    ret = act(s, "return", faces(6, 2))
    assert int(ret.los[0]) == row + 2  # the lower die


def test_punt_beyond_the_end_line_and_into_the_end_zone():
    s = act(call_state(los=20), "punt two dice", faces(6, 6))
    assert int(s.phase[0]) == OFFENCE_CALL and (int(s.offence[0]), int(s.los[0])) == (1, 6)
    ez = act(call_state(los=16), "punt one die", faces(5))  # 16 + 16 = 32: the receiver's row -1
    assert int(ez.kick_row[0]) == -1
    assert (int(act(ez, "take first down").los[0])) == 6
    sf = act(ez, "return", faces(1, 5) + faces(3) + faces(1, 2))  # the lower die 1: still in the end zone
    assert tuple(sf.score[0]) == (2, 0)


@pytest.mark.parametrize("los,dice,good", [(28, (1, 3), True), (28, (1, 2), False), (20, (4, 4), True),
                                           (20, (3, 4), False), (26, (3, 3), True), (26, (2, 3), False)])
def test_field_goal_by_distance(los, dice, good):
    s = call_state(los=los)
    after = [] if not good else faces(2) + faces(1, 2)
    out = act(s, "field goal", faces(*dice) + after)
    if good:
        assert tuple(out.score[0]) == (3, 0) and int(out.offence[0]) == 1
    else:
        assert tuple(out.score[0]) == (0, 0)
        assert (int(out.offence[0]), int(out.los[0])) == (1, max(31 - los, 6))


def test_field_goal_out_of_range():
    assert "field goal" not in legal(call_state(los=17))  # distance 31 - 17 + 2 = 16 > 15
    assert "field goal" in legal(call_state(los=18))  # 15


# --- quarters and the end (ruling 16), the caps of a play (rulings 9, 25) -------------------------------

def test_a_new_quarter_opens_with_a_kick_off_by_the_previous_receiver():
    # quarter 1, 14 scrimmages played, team one kicked off to open it: a tackle ends the 15th scrimmage
    s = make({"Q": (6, 9), "j": (6, 10)}, to_act="two", flags="limits, forward thrown", clock="1 14 14 one")
    s = act(s, "piece 4 forward", faces(3, 5) + faces(2) + faces(3, 4))
    assert (int(s.quarter[0]), int(s.scrimmage[0]), int(s.scrimmages[0])) == (2, 1, 16)
    assert int(s.opening_kicker[0]) == 1  # team two kicks off: 14 + 2 rows, team one's row 4, returned 7
    assert (int(s.offence[0]), int(s.los[0])) == (0, 11)


def test_the_game_ends_after_the_last_scrimmage():
    s = make({"Q": (6, 9), "j": (6, 10)}, to_act="two", flags="limits, forward thrown", clock="4 14 59 two",
             score="10-7")
    s = act(s, "piece 4 forward", faces(3, 5))
    assert int(s.phase[0]) == GAME_OVER and s.terminated[0] and int(s.winner[0]) == 0 and int(s.to_act[0]) == -1
    tie = make({"Q": (6, 9), "j": (6, 10)}, to_act="two", flags="limits, forward thrown", clock="4 14 59 two",
               score="7-7")
    assert int(act(tie, "piece 4 forward", faces(3, 5)).winner[0]) == 2  # a draw
    ot = td.TouchdownConfig(overtime=True)
    extra = make({"Q": (6, 9), "j": (6, 10)}, config=ot, to_act="two", flags="limits, forward thrown",
                 clock="4 14 59 two", score="7-7")
    extra = act(extra, "piece 4 forward", faces(3, 5) + [1] + faces(1) + faces(2, 3), config=ot)
    assert int(extra.quarter[0]) == 5 and int(extra.opening_kicker[0]) == 1 and int(extra.phase[0]) == OFFENCE_CALL


def test_the_opening_kick_off_is_the_first_scrimmage_and_a_quarter_needs_a_second():
    with pytest.raises(ValueError, match="scrimmages_per_quarter must be an int from 2 to 100, got 1: a quarter"):
        td.TouchdownConfig(quarters=1, scrimmages_per_quarter=1)
    short = td.TouchdownConfig(quarters=1, scrimmages_per_quarter=2)
    # a plain return: the kick-off was scrimmage 1, the receiver's first down is the last
    s = engine.init(1, 0, short, chance=td.ScriptedChance([0] + faces(3) + faces(2, 3)))
    assert not s.terminated[0] and int(s.phase[0]) == OFFENCE_CALL and int(s.scrimmage[0]) == 1
    # a return touchdown (5 + 36 rows) ends scrimmage 1; the scorer's kick-off is scrimmage 2, the last:
    # the rules end the game inside init
    s = engine.init(1, 0, short, chance=td.ScriptedChance([0] + faces(1) + faces(6, 6, 6, 6, 6, 6) + faces(2, 2)
                                                          + faces(4) + faces(2, 3)))
    assert s.terminated[0] and int(s.phase[0]) == GAME_OVER and int(s.scrimmages[0]) == 2
    assert tuple(s.score[0]) == (0, 7) and int(s.winner[0]) == 1
    check_invariants(s, short)


def test_a_game_is_over_at_init_only_after_a_scoring_opening_kick_off():
    short = td.TouchdownConfig(quarters=1, scrimmages_per_quarter=2)
    s = engine.init(4000, 0, short)
    over = s.terminated | s.truncated
    assert 0 < over.sum() < 80  # 0.78% of seeds (156 of 20,000): a scoring return then the last kick-off
    assert (s.score[over].sum(axis=1) > 0).all() and (s.scrimmages[over] == 2).all()
    assert not (engine.init(4000, 0, CONFIG).terminated.any() or engine.init(4000, 0, short.replace(
        scrimmages_per_quarter=3)).terminated.any())


def test_the_round_cap_and_two_idle_turns_end_the_play_where_the_ball_is():
    cap = td.TouchdownConfig(max_rounds=1)
    s = make({"Q": (6, 12)}, config=cap, flags="-", turn="- 0 0 - 1 0", to_act="two")
    s = act(s, "piece 1 forward", config=cap)
    s = act(s, "piece 2 forward", config=cap)  # the second turn of the play: one round, the cap
    assert int(s.phase[0]) == OFFENCE_CALL and int(s.event[0]) == EV["dead ball"]
    assert (int(s.offence[0]), int(s.down[0]), int(s.los[0])) == (0, 2, 12)
    idle = make({"Q": (6, 12)}, flags="-", marked="lmrjkuv", to_act="two", turn="- 0 0 - 3 1")
    assert legal(idle) == {"end turn"}
    idle = act(idle, "end turn")  # the other side did nothing last turn either
    assert int(idle.phase[0]) == OFFENCE_CALL
