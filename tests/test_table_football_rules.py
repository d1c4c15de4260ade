"""Table Football: one test (or a few) per ruling of RULINGS-table-football.md, from diagrams, dice injected."""

import numpy as np
import pytest

import gridiron_env.table_football as tf
from gridiron_env.table_football import actions as A
from gridiron_env.table_football.diagram import field_strip
from gridiron_env.table_football.state import CHOOSE, OOB_DEFENCE, OOB_OFFENCE, RECOVERY, TIMEOUT_DEFENCE, TIMEOUT_OFFENCE

BASIC = tf.TableFootballConfig()
CLOCK = tf.TableFootballConfig(clock=True)
OPTION = tf.TableFootballConfig(recovery_option=True)

_BASE = {"phase": "choose", "to act": None, "offence": "one", "snap offence": None, "opener": "one",
         "score": "0-0", "ball": 20, "line to gain": None, "down": 1, "field": None, "quarter": "-", "boxes": "-",
         "time outs": "-", "pending cost": 0, "last play": "-", "plays": 0, "steps": 0, "result": "playing"}


def make(config=BASIC, **kv):
    """A one-game state from a diagram; keyword names use _ for spaces (line_to_gain=45)."""
    h = dict(_BASE)
    if config.clock:
        h.update({"quarter": 1, "boxes": 60, "time outs": "3-3"})
    for k, v in kv.items():
        h[k.replace("_", " ")] = v
    if h["line to gain"] is None:
        h["line to gain"] = min(int(h["ball"]) + 10, 100)
    if h["snap offence"] is None:
        h["snap offence"] = h["offence"]
    if h["to act"] is None:
        h["to act"] = h["offence"]
    h["field"] = field_strip(int(h["ball"]), int(h["line to gain"]))
    text = "table football diagram v1\n" + "\n".join(f"{k}: {v}" for k, v in h.items())
    return tf.from_diagram(text, config)


def pair(first, second):
    """The one draw of a pair of dice (ScriptedChance value) with faces first + 1, second + 1."""
    return 6 * first + second


def dice_for(total):
    """The draw of a pair of dice (high, low) with a given 2d6 total."""
    high = min(6, total - 1)
    return [pair(high - 1, total - high - 1)]


def act(state, action, outcomes=(), config=BASIC):
    chance = tf.ScriptedChance(list(outcomes))
    out = tf.step(state, np.array([tf.action_id(action)]), config, chance=chance)
    assert not chance.queue, f"unused dice {chance.queue}"
    tf.check_invariants(out, config)
    return out


def run(state, total, more=(), config=BASIC):
    return act(state, "run play", dice_for(total) + list(more), config)


def where(s):
    return int(s.offence[0]), int(s.position[0]), int(s.line_to_gain[0]), int(s.down[0])


# --- ruling 1: positions, multiples of 5, the own 20 -------------------------------------------------------

def test_r01_possessions_start_first_and_ten_at_the_own_20_and_positions_are_multiples_of_5():
    s = tf.init(64, 11, BASIC)
    assert (s.position == 20).all() and (s.line_to_gain == 30).all() and (s.down == 1).all()
    assert (s.offence == s.opener).all() and set(s.opener.tolist()) == {0, 1}
    rng = np.random.default_rng(3)
    from agents.base import pick_uniform_legal
    for _ in range(200):
        s = tf.step(s, pick_uniform_legal(s.legal, rng.random(64)), BASIC)
        assert (s.position % 5 == 0).all() and (s.line_to_gain % 5 == 0).all()
    # after a field goal the team that did not score starts at its own 20
    s = act(make(ball=70), "field goal", [4])  # die 5: 50 >= 30
    assert where(s) == (1, 20, 30, 1) and s.score[0].tolist() == [3, 0]


# --- ruling 2: touchdown at 100, safety at 0 -----------------------------------------------------------------

def test_r02_touchdown_at_or_past_100_and_safety_at_or_behind_0():
    s = run(make(ball=80, line_to_gain=90), 4, [pair(1, 2)])  # reverse +20 reaches exactly 100; extra point 2+3
    assert s.score[0].tolist() == [7, 0] and where(s) == (1, 20, 30, 1)
    s = run(make(ball=10, down=2, line_to_gain=25), 5)  # sack -10 reaches exactly 0: safety
    assert s.score[0].tolist() == [0, 2] and where(s) == (1, 20, 30, 1)


# --- ruling 3: downs, line to gain, goal to go, turnover on downs, Canadian downs ------------------------------

def test_r03_downs_series_goal_to_go_and_turnover_on_downs():
    s = run(make(ball=40, line_to_gain=50, down=3), 6)  # +5, short
    assert where(s) == (0, 45, 50, 4)
    s = run(s, 8)  # +5 on 4th down reaches the line: new series from the new spot
    assert where(s) == (0, 50, 60, 1)
    s = run(make(ball=90), 6)  # goal to go: the line to gain is 100
    assert where(s) == (0, 95, 100, 2)
    s = run(make(ball=40, line_to_gain=50, down=4), 7)  # incomplete on the last down: over at the spot
    assert where(s) == (1, 60, 70, 1)
    canadian = tf.TableFootballConfig(downs=3)
    s = run(make(canadian, ball=40, line_to_gain=50, down=3), 10, config=canadian)
    assert where(s) == (1, 60, 70, 1)
    with pytest.raises(ValueError, match="down"):
        make(canadian, down=4)


# --- ruling 4: the offence's choice ---------------------------------------------------------------------------

def test_r04_field_goal_on_any_down_punt_on_the_last_down_only():
    for down, punt in ((1, False), (2, False), (3, False), (4, True)):
        s = make(ball=30, line_to_gain=40, down=down)
        legal = [tf.ACTION_NAMES[i] for i in np.flatnonzero(s.legal[0])]
        assert legal == (["run play", "field goal", "punt"] if punt else ["run play", "field goal"])
    s = make(ball=30, line_to_gain=40, down=1)
    before = tf.to_diagram(s)
    with pytest.raises(tf.IllegalActionError, match="punt.*game 0.*legal actions: \\['run play', 'field goal'\\]"):
        tf.step(s, np.array([A.PUNT]), BASIC)
    assert tf.to_diagram(s) == before
    s = make(tf.TableFootballConfig(downs=3), ball=30, line_to_gain=40, down=3)
    assert s.legal[0, A.PUNT]


# --- ruling 5: the results table ---------------------------------------------------------------------------

@pytest.mark.parametrize("total,expected", [
    (2, ("td",)), (3, (1, 40, 50, 1)), (4, (0, 70, 80, 1)), (5, (0, 40, 60, 2)), (6, (0, 55, 60, 2)),
    (7, (0, 50, 60, 2)), (8, (0, 55, 60, 2)), (9, (0, 75, 85, 1)), (10, (0, 50, 60, 2)), (11, (1, 50, 60, 1)),
    (12, (0, 80, 90, 1)),
])
def test_r05_every_total_of_the_results_table(total, expected):
    s = make(ball=50)
    if expected == ("td",):
        s = run(s, total, [pair(2, 2)])
        assert s.score[0].tolist() == [7, 0] and where(s) == (1, 20, 30, 1)
    else:
        s = run(s, total)
        assert where(s) == expected and s.score[0].tolist() == [0, 0]
    assert s.last_roll[0].sum() == total


def test_r05_interception_at_or_past_100_is_a_touchback():
    s = run(make(ball=90), 3)
    assert where(s) == (1, 20, 30, 1)


def test_r05_dice_are_fair_two_d6():
    s = tf.init(20000, 5, BASIC)
    s = tf.step(s, np.zeros(20000, dtype=np.int64), BASIC)
    totals = s.last_roll.sum(axis=1)
    counts = np.bincount(totals, minlength=13)[2:]
    expected = 20000 * np.array([1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]) / 36
    assert np.all(np.abs(counts - expected) < 5 * np.sqrt(expected))  # 5 sigma, fixed seed


# --- ruling 6: punt --------------------------------------------------------------------------------------

def test_r06_punt_lands_or_is_a_touchback():
    s = act(make(ball=50, line_to_gain=60, down=4), "punt", [3])  # 40 yards to 90: receiver at its 10
    assert where(s) == (1, 10, 20, 1)
    s = act(make(ball=50, line_to_gain=60, down=4), "punt", [4])  # 50 yards to 100: touchback
    assert where(s) == (1, 20, 30, 1)


# --- ruling 7: field goal -----------------------------------------------------------------------------------

def test_r07_field_goal_good_when_the_die_reaches_the_goal_line_missed_at_the_spot():
    s = act(make(ball=50, down=2, line_to_gain=55), "field goal", [4])  # 50 >= 50: good
    assert s.score[0].tolist() == [3, 0] and where(s) == (1, 20, 30, 1)
    s = act(make(ball=50, down=2, line_to_gain=55), "field goal", [3])  # 40 < 50: missed, other team at 50
    assert s.score[0].tolist() == [0, 0] and where(s) == (1, 50, 60, 1)
    s = act(make(ball=5, down=1), "field goal", [5])  # from anywhere: 60 < 95 misses
    assert where(s) == (1, 95, 100, 1)


# --- ruling 8: touchdown, extra point, kickoffs ----------------------------------------------------------

def test_r08_extra_point_good_on_5_or_more_and_who_receives():
    s = run(make(ball=50), 2, [pair(1, 1)])  # extra point 2+2 = 4: no good
    assert s.score[0].tolist() == [6, 0] and where(s) == (1, 20, 30, 1)
    s = run(make(ball=50), 2, [pair(2, 1)])  # 3+2 = 5: good
    assert s.score[0].tolist() == [7, 0]
    s = run(make(ball=5, offence="two", down=2, line_to_gain=20), 5)  # team two concedes a safety
    assert s.score[0].tolist() == [2, 0] and where(s) == (0, 20, 30, 1)


# --- ruling 9: the end of the basic game -------------------------------------------------------------------

def test_r09_first_to_the_target_and_the_cap_on_plays():
    s = run(make(ball=50, score="22-0"), 2)  # 28 before the extra point: no extra-point dice drawn
    assert s.terminated[0] and s.winner[0] == 0 and s.score[0].tolist() == [28, 0] and s.to_act[0] == -1
    s = run(make(ball=50, score="21-0"), 2, [pair(3, 3)])  # 27, then the extra point reaches 28
    assert s.terminated[0] and s.winner[0] == 0 and s.score[0].tolist() == [28, 0]
    s = act(make(ball=80, score="0-25", offence="two"), "field goal", [5])
    assert s.terminated[0] and s.winner[0] == 1 and not s.legal.any()
    capped = tf.TableFootballConfig(max_plays=3)
    s = make(capped, plays=2, steps=2)
    s = run(s, 7, config=capped)
    assert s.truncated[0] and not s.terminated[0] and s.winner[0] == -1
    # the coin toss: both teams open about half the time
    assert abs(tf.init(4000, 9).opener.mean() - 0.5) < 0.05


# --- ruling 10: box costs --------------------------------------------------------------------------------

@pytest.mark.parametrize("total,boxes", [(2, 3), (3, 3), (4, 3), (5, 3), (6, 2), (7, 1), (8, 2), (9, 3), (10, 2),
                                         (11, 2), (12, 3)])
def test_r10_box_cost_of_every_result(total, boxes):
    s = make(CLOCK, ball=50, time_outs="0-0")
    s = run(s, total, [pair(2, 2)] if total == 2 else [], config=CLOCK)
    while s.phase[0] in (OOB_OFFENCE, OOB_DEFENCE):  # the gaining plays: nobody asks for out of bounds
        s = act(s, "decline", config=CLOCK)
    assert s.phase[0] == CHOOSE and s.boxes[0] == 60 - boxes


def test_r10_kicks_cost_2_a_safety_2_an_extra_point_nothing():
    s = act(make(CLOCK, ball=50, time_outs="0-0"), "field goal", [5], config=CLOCK)
    assert s.boxes[0] == 58
    s = act(make(CLOCK, ball=50, down=4, line_to_gain=55, time_outs="0-0"), "punt", [0], config=CLOCK)
    assert s.boxes[0] == 58
    s = run(make(CLOCK, ball=10, down=2, line_to_gain=20, time_outs="0-0"), 5, config=CLOCK)
    assert s.score[0].tolist() == [0, 2] and s.boxes[0] == 58


# --- ruling 11: the two-minute warning and the order of the decisions ----------------------------------------

def test_r11_two_minute_warning_stops_the_play_at_8_boxes():
    s = run(make(CLOCK, ball=50, quarter=2, boxes=10, time_outs="0-0"), 10, config=CLOCK)  # 2 boxes: to 8
    assert s.boxes[0] == 8
    s = run(make(CLOCK, ball=50, quarter=4, boxes=9, time_outs="0-0"), 5, config=CLOCK)  # 3 boxes: stops at 8
    assert s.boxes[0] == 8 and s.quarter[0] == 4
    s = run(make(CLOCK, ball=50, quarter=1, boxes=9, time_outs="0-0"), 5, config=CLOCK)  # no warning in Q1
    assert s.boxes[0] == 6
    s = run(make(CLOCK, ball=50, quarter=4, boxes=8, time_outs="0-0"), 5, config=CLOCK)  # past the mark
    assert s.boxes[0] == 5


def test_r11_decisions_come_offence_out_of_bounds_defence_out_of_bounds_offence_time_out_defence_time_out():
    s = run(make(CLOCK, ball=50, offence="two"), 9, config=CLOCK)  # +25: first down; team two was on offence
    assert s.phase[0] == OOB_OFFENCE and s.to_act[0] == 1
    s = act(s, "decline", config=CLOCK)
    assert s.phase[0] == OOB_DEFENCE and s.to_act[0] == 0
    s = act(s, "decline", config=CLOCK)
    assert s.phase[0] == TIMEOUT_OFFENCE and s.to_act[0] == 1
    s = act(s, "decline", config=CLOCK)
    assert s.phase[0] == TIMEOUT_DEFENCE and s.to_act[0] == 0
    s = act(s, "decline", config=CLOCK)
    assert s.phase[0] == CHOOSE and s.boxes[0] == 57 and where(s) == (1, 75, 85, 1)
    # the roles are the down's: after a touchdown the scorers (now kicking off) still decide first
    s = run(make(CLOCK, ball=50), 2, [pair(2, 2)], config=CLOCK)
    assert s.offence[0] == 1 and s.phase[0] == TIMEOUT_OFFENCE and s.to_act[0] == 0


# --- ruling 12: time-outs ---------------------------------------------------------------------------------------

def test_r12_a_time_out_makes_the_play_cost_one_box_at_most_one_a_play():
    s = run(make(CLOCK, ball=50, time_outs="3-3"), 11, config=CLOCK)  # fumble: 2 boxes, not gaining
    assert s.phase[0] == TIMEOUT_OFFENCE
    s = act(s, "time out", config=CLOCK)
    assert s.phase[0] == CHOOSE and s.boxes[0] == 59 and s.timeouts[0].tolist() == [2, 3]
    s = run(make(CLOCK, ball=50, time_outs="0-1"), 10, config=CLOCK)  # the offence has none: the defence asks
    assert s.phase[0] == TIMEOUT_DEFENCE and s.to_act[0] == 1
    s = act(s, "time out", config=CLOCK)
    assert s.boxes[0] == 59 and s.timeouts[0].tolist() == [0, 0]
    s = run(make(CLOCK, ball=50, time_outs="3-3"), 7, config=CLOCK)  # 1 box already: no time-out offered
    assert s.phase[0] == CHOOSE and s.boxes[0] == 59
    s = act(make(CLOCK, ball=50, time_outs="1-0"), "field goal", [5], config=CLOCK)  # kicks and scores too
    assert s.phase[0] == TIMEOUT_OFFENCE and s.score[0].tolist() == [3, 0]


def test_r12_time_outs_reset_to_3_at_half_time_and_are_lost():
    s = run(make(CLOCK, ball=50, quarter=2, boxes=1, time_outs="0-1"), 10, config=CLOCK)
    s = act(s, "decline", config=CLOCK)  # the defence keeps its time-out: lost at the half
    assert s.quarter[0] == 3 and s.timeouts[0].tolist() == [3, 3]


# --- ruling 13: out of bounds ----------------------------------------------------------------------------------

def test_r13_out_of_bounds_wins_on_a_high_roll_or_a_tie():
    s = run(make(CLOCK, ball=50, time_outs="0-0"), 9, config=CLOCK)  # 3 boxes
    s = act(s, "out of bounds", [pair(2, 2)], config=CLOCK)  # asker 3, other 3: tie wins
    assert s.phase[0] == CHOOSE and s.boxes[0] == 58
    s = run(make(CLOCK, ball=50, time_outs="0-0"), 6, config=CLOCK)  # 2 boxes
    s = act(s, "decline", config=CLOCK)
    s = act(s, "out of bounds", [pair(1, 4)], config=CLOCK)  # the defence asks, rolls 2 against 5: lost
    assert s.boxes[0] == 58
    s = run(make(CLOCK, ball=50, time_outs="0-0"), 6, config=CLOCK)
    s = act(s, "out of bounds", [pair(5, 0)], config=CLOCK)  # 2 boxes less 1
    assert s.boxes[0] == 59
    s = run(make(CLOCK, ball=50, time_outs="0-0"), 10, config=CLOCK)  # no gain: not a gaining play
    assert s.phase[0] == CHOOSE
    s = run(make(CLOCK, ball=50, boxes=2, time_outs="0-0"), 9, config=CLOCK)  # overrun boxes are lost
    s = act(s, "decline", config=CLOCK)
    s = act(s, "decline", config=CLOCK)
    assert s.quarter[0] == 2 and s.boxes[0] == 60 and where(s) == (0, 75, 85, 1)


def test_r13_the_out_of_bounds_roll_is_fair():
    from gridiron_env.table_football.engine import WIN_ROLL  # noqa: F401  (documented rule name)
    wins = sum(1 for a in range(6) for b in range(6) if a >= b)
    assert wins == 21


# --- ruling 14: quarters and the second half -------------------------------------------------------------------

def test_r14_possession_carries_over_and_the_second_half_starts_with_the_other_team():
    s = run(make(CLOCK, ball=50, quarter=1, boxes=1, time_outs="0-0"), 10, config=CLOCK)
    assert s.quarter[0] == 2 and s.boxes[0] == 60 and where(s) == (0, 50, 60, 2)
    s = run(make(CLOCK, ball=50, quarter=3, boxes=2, time_outs="0-0"), 7, config=CLOCK)
    assert s.quarter[0] == 3 and s.boxes[0] == 1
    s = run(make(CLOCK, ball=50, quarter=2, boxes=1, opener="two", time_outs="0-0"), 10, config=CLOCK)
    assert s.quarter[0] == 3 and where(s) == (0, 20, 30, 1)  # team one did not open: it receives
    s = run(make(CLOCK, ball=50, quarter=2, boxes=1, opener="one", time_outs="0-0"), 10, config=CLOCK)
    assert s.quarter[0] == 3 and where(s) == (1, 20, 30, 1)


# --- ruling 15: the end of a clock game, sudden death, the draw ------------------------------------------------

def test_r15_higher_score_wins_tied_goes_to_sudden_death_then_a_draw():
    s = run(make(CLOCK, ball=50, quarter=4, boxes=1, score="30-3", time_outs="0-0"), 10, config=CLOCK)
    assert s.terminated[0] and s.winner[0] == 0  # the target is off in a clock game: 30 did not end it
    s = run(make(CLOCK, ball=50, quarter=4, boxes=1, score="10-10", time_outs="0-0"), 10, [1], config=CLOCK)
    assert s.quarter[0] == 5 and s.boxes[0] == 60 and s.timeouts[0].tolist() == [2, 2] and where(s) == (1, 20, 30, 1)
    s = run(make(CLOCK, ball=50, quarter="ot", score="10-10", time_outs="2-2"), 2, config=CLOCK)  # no extra point
    assert s.terminated[0] and s.winner[0] == 0 and s.score[0].tolist() == [16, 10]
    s = run(make(CLOCK, ball=10, down=2, line_to_gain=20, quarter="ot", score="10-10", time_outs="2-2"), 5,
            config=CLOCK)  # a safety wins too
    assert s.terminated[0] and s.winner[0] == 1
    s = run(make(CLOCK, ball=50, quarter="ot", boxes=1, score="10-10", time_outs="0-0"), 10, config=CLOCK)
    assert s.terminated[0] and s.winner[0] == tf.DRAW
    target = tf.TableFootballConfig(clock=True, clock_target=True)
    s = act(make(target, ball=80, score="26-0", time_outs="0-0"), "field goal", [5], config=target)
    assert s.terminated[0] and s.winner[0] == 0


# --- ruling 16: the recovery option ----------------------------------------------------------------------------

def test_r16_recovery_option_contest_and_decline():
    s = run(make(OPTION, ball=50), 3, config=OPTION)  # interception: team one decides first
    assert s.phase[0] == RECOVERY and s.to_act[0] == 0
    assert [tf.ACTION_NAMES[i] for i in np.flatnonzero(s.legal[0])] == ["decline", "contest"]
    kept = act(s, "contest", [pair(3, 3)], config=OPTION)  # tie: kept, the down counts, no 10 yards
    assert where(kept) == (0, 50, 60, 2)
    lost = act(s, "contest", [pair(2, 3)], config=OPTION)
    assert where(lost) == (1, 40, 50, 1)
    declined = act(s, "decline", config=OPTION)
    assert where(declined) == (1, 40, 50, 1)
    s = run(make(OPTION, ball=50, down=4, line_to_gain=55), 11, config=OPTION)  # fumble on 4th down
    kept = act(s, "contest", [pair(5, 0)], config=OPTION)
    assert where(kept) == (1, 50, 60, 1)  # the down counts as played: over on downs at the spot
    s = run(make(BASIC, ball=50), 11)  # option off: no decision
    assert s.phase[0] == CHOOSE and where(s) == (1, 50, 60, 1)


def test_r16_recovery_then_clock_decisions():
    config = tf.TableFootballConfig(clock=True, recovery_option=True)
    s = run(make(config, ball=50), 3, config=config)
    s = act(s, "contest", [pair(0, 5)], config=config)
    assert s.phase[0] == TIMEOUT_OFFENCE and s.pending_cost[0] == 3 and s.offence[0] == 1


# --- ruling 17: the exact solver (its own tests: test_table_football_solve.py) ---------------------------------

def test_r17_solver_values_match_a_one_step_look_ahead_through_the_engine():
    from gridiron_env.table_football.solve import solve

    config = tf.TableFootballConfig(target_score=7)
    sol = solve(config)
    s = make(config, ball=65, line_to_gain=70, down=3, score="3-0")
    # expected value of run play over the 36 dice pairs (and the 36 extra-point pairs), through the engine
    total = 0.0
    for a in range(6):
        for b in range(6):
            for xa, xb in ((x, y) for x in range(6) for y in range(6)):
                out = tf.step(s, np.array([A.RUN_PLAY]), config, chance=tf.ScriptedChance([pair(a, b), pair(xa, xb)]))
                v = float(sol.value_for(out, 0)[0])
                total += v / 36 / 36
    q = sol.action_values(s)[0]
    assert abs(q[A.RUN_PLAY] - total) < 1e-12
