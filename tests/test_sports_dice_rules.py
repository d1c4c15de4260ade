"""Sports Dice: one test (or a few) per ruling of RULINGS-sports-dice.md, from diagrams, dice injected."""

import itertools
from fractions import Fraction
from math import factorial

import numpy as np
import pytest

import gridiron_env.sports_dice as sd
from gridiron_env.sports_dice import actions as A
from gridiron_env.sports_dice import engine
from gridiron_env.sports_dice.diagram import field_strip
from gridiron_env.sports_dice.state import (
    CHIP, DEFENCE_PLAY, FIELD_GOAL_CHOICE, FOURTH_DOWN, OFFENCE_PLAY, SNAP, TOSS,
)

CONFIG = sd.SportsDiceConfig()


@pytest.fixture(autouse=True, params=[True, False], ids=["tables", "rule-functions"])
def engine_path(request):
    """Every ruling on both engine paths: the table-driven step and the rule functions."""
    engine.FAST_PATH = request.param
    yield request.param
    engine.FAST_PATH = True

_BASE = {"phase": None, "to act": None, "toss winner": "one", "opener": "one", "offence": "one", "chip": "two",
         "score": "0-0", "ball": 25, "target": None, "down": 1, "field": None, "last roll": "punt",
         "roller": None, "offence dice": "10 20 FG TD FG TD", "defence dice": "NG SK TO P6 TO P6",
         "chip call": "-", "roll winner": "-", "play": "-", "rolls": 5, "steps": 6, "result": "playing"}


def make(config=CONFIG, **kv):
    """A one-game state from a diagram: by default team one has the ball at its 25, 1st down, after an
    earlier punt by team two; keyword names use _ for spaces (ball=40, down=4, chip="one")."""
    h = dict(_BASE)
    for k, v in kv.items():
        h[k.replace("_", " ")] = v
    if h["target"] is None:
        h["target"] = 50 if int(h["ball"]) < 50 else "end zone"
    if h["phase"] is None:
        h["phase"] = "fourth down" if int(h["down"]) == 4 else "snap"
    if h["roller"] is None:
        h["roller"] = "two" if h["offence"] == "one" else "one"
    if h["to act"] is None:
        decider = {"chip": h["chip"], "defence play": "two" if h["offence"] == "one" else "one",
                   "toss": h["toss winner"]}
        h["to act"] = decider.get(h["phase"], h["offence"])
    h["field"] = field_strip(int(h["ball"]), 50 if str(h["target"]) == "50" else 100)
    text = "sports dice diagram v1\n" + "\n".join(f"{k}: {v}" for k, v in h.items())
    return sd.from_diagram(text, config)


def roll(offence, defence, config=CONFIG):
    """The scripted draw of a roll: six offence and six defence short symbols, space-separated."""
    return sd.roll_value(offence.split(), defence.split(), config)


OFF_LOSES = "10 10 20 20 FG TD"  # count 2
DEF_LOSES = "NG NG SK SK TO P6"  # count 2


def off_wins(play):
    """An offence roll of four ``play`` (count 4, the only top symbol) against a count of 2."""
    others = [x for x in ("10", "20", "FG", "TD") if x != play][:2]
    return roll(" ".join([play] * 4 + others), DEF_LOSES)


def def_wins(play):
    others = [x for x in ("NG", "SK", "TO", "P6") if x != play][:2]
    return roll(OFF_LOSES, " ".join([play] * 4 + others))


def act(state, action, outcomes=(), config=CONFIG):
    chance = sd.ScriptedChance(list(outcomes))
    out = sd.step(state, np.array([sd.action_id(action)]), config, chance=chance)
    assert not chance.queue, f"unused dice {chance.queue}"
    sd.check_invariants(out, config)
    return out


def where(s):
    """(offence, position, down, target) of game 0."""
    return int(s.offence[0]), int(s.position[0]), int(s.down[0]), int(s.target[0])


def legal(s):
    return [sd.ACTION_NAMES[i] for i in np.flatnonzero(s.legal[0])]


# --- ruling 1: the dice faces, each fair; the count contest by enumeration ---------------------------------

def _count_distribution(probabilities):
    """Exact P(count = c) of six dice over symbols with the given probabilities, by the multinomial."""
    out = [Fraction(0)] * 7
    k = len(probabilities)
    for counts in itertools.product(range(7), repeat=k):
        if sum(counts) != 6:
            continue
        ways = Fraction(factorial(6))
        for n, p in zip(counts, probabilities):
            ways *= Fraction(p) ** n / factorial(n)
        out[max(counts)] += ways
    return out


def test_r01_default_faces_and_the_exact_count_contest():
    assert CONFIG.offence_faces == ("10", "10", "20", "20", "field goal", "touchdown")
    assert CONFIG.defence_faces == ("no gain", "no gain", "sack", "sack", "turnover", "pick six")
    off, de = sd.roll_tables(CONFIG)
    n = 6 ** 6
    third, sixth = Fraction(1, 3), Fraction(1, 6)
    exact = _count_distribution([third, third, sixth, sixth])
    for table in (off, de):
        engine = [Fraction(int(c), n) for c in np.bincount(table["count"], minlength=7)]
        assert engine == exact
        # each die fair: every face index appears equally often at every die position
        assert (table["per_symbol"].sum(axis=0) == np.array([2, 2, 1, 1]) * 6 * n // 6).all()
    win = sum(exact[i] * exact[j] for i in range(7) for j in range(7) if i > j)
    tie = sum(exact[i] ** 2 for i in range(7))
    assert win == Fraction(172632515, 544195584) and tie == Fraction(99465277, 272097792)
    assert 2 * win + tie == 1


def test_r01_the_engine_rolls_the_exact_contest_statistically():
    """20000 opening rolls from the games' own streams: the share of tied counts (chip decisions) is within
    4 standard deviations (0.0136) of the exact 0.36555."""
    s = sd.init(20000, 99, CONFIG)
    s = sd.step(s, np.full(20000, A.CHOOSE_OFFENCE), CONFIG)
    s = sd.step(s, np.full(20000, A.ROLL), CONFIG)
    tie = float(Fraction(99465277, 272097792))
    share = float((s.phase == CHIP).mean())
    assert abs(share - tie) < 4 * np.sqrt(tie * (1 - tie) / 20000)
    assert ((s.counts[:, 0] == s.counts[:, 1]) == (s.phase == CHIP)).all()


def test_r01_configured_faces_change_the_dice():
    config = sd.SportsDiceConfig(offence_faces=("TD", "10"), defence_faces=("no gain",))
    off, de = sd.roll_tables(config)
    assert off["faces"] == 2 and de["faces"] == 1 and (de["count"] == 6).all() and de["six"].all()
    exact = _count_distribution([Fraction(1, 2), Fraction(1, 2)])
    assert [Fraction(int(c), 64) for c in np.bincount(off["count"], minlength=7)] == exact
    s = make(config, offence_dice="TD 10 TD 10 10 10", defence_dice="NG NG NG NG NG NG")
    # the defence always has six NO GAINs: the offence can only tie (six TDs or six 10s) or lose to a defensive TD
    s = act(s, "roll", [roll("TD TD 10 10 10 TD", "NG NG NG NG NG NG", config)], config)
    assert s.score[0].tolist() == [0, 7] and where(s) == (0, 25, 1, 50)
    with pytest.raises(ValueError, match="no face"):
        roll("20 20 20 20 20 20", "NG NG NG NG NG NG", config)


# --- ruling 2: positions ------------------------------------------------------------------------------------

def test_r02_positions_are_multiples_of_5_and_possessions_start_at_the_own_25():
    s = sd.init(200, 3, CONFIG)
    assert (s.position == 25).all() and (s.down == 1).all() and (s.target == 50).all()
    from agents.base import pick_uniform_legal
    rng = np.random.default_rng(0)
    for _ in range(150):
        s = sd.step(s, pick_uniform_legal(s.legal, rng.random(200)), CONFIG)
        assert (s.position % 5 == 0).all() and (s.position >= 5).all() and (s.position <= 95).all()
    assert s.is_over().any()
    with pytest.raises(ValueError, match="'ball'.*multiple of 5"):
        make(ball=27)


# --- ruling 3: the dice belong to the roles -------------------------------------------------------------

def test_r03_the_team_on_offence_rolls_the_offence_dice_and_a_turnover_swaps_them():
    s = act(make(), "roll", [def_wins("TO")])
    assert where(s) == (1, 75, 1, 100) and int(s.roll_offence[0]) == 0
    s = act(s, "roll", [off_wins("10")])
    assert int(s.roll_offence[0]) == 1 and (s.dice[0, 0] < 4).all() and (s.dice[0, 1] >= 4).all()
    assert where(s) == (1, 85, 2, 100)


# --- ruling 4: the toss and the choice ---------------------------------------------------------------------

@pytest.mark.parametrize("coin,choice", [(0, "choose offence"), (0, "choose defence"), (1, "choose offence"),
                                         (1, "choose defence")])
def test_r04_the_toss_winner_chooses_and_the_defence_holds_the_chip(coin, choice):
    s = sd.init(1, 0, CONFIG, chance=sd.ScriptedChance([coin]))
    assert int(s.toss_winner[0]) == coin and int(s.phase[0]) == TOSS and int(s.to_act[0]) == coin
    assert legal(s) == ["choose offence", "choose defence"]
    s = act(s, choice)
    opener = coin if choice == "choose offence" else 1 - coin
    assert int(s.opener[0]) == opener and where(s) == (opener, 25, 1, 50)
    assert int(s.chip[0]) == 1 - opener and int(s.to_act[0]) == opener and legal(s) == ["roll"]


# --- ruling 5: downs and the two-stage series ----------------------------------------------------------------

def test_r05_reaching_the_50_gives_an_end_zone_series_and_a_failed_4th_down_turns_over():
    s = act(make(ball=40, down=3), "roll", [off_wins("10")])  # exactly to the 50
    assert where(s) == (0, 50, 1, 100)
    s = act(make(ball=45, down=2), "roll", [off_wins("20")])  # past it: the new series starts at 65
    assert where(s) == (0, 65, 1, 100)
    s = act(make(ball=55, down=4), "go for it", [def_wins("NG")])  # end-zone series fails on 4th down
    assert where(s) == (1, 45, 1, 50)
    s = act(make(ball=40, down=4), "go for it", [def_wins("NG")])  # the other team at 60 aims at the end zone
    assert where(s) == (1, 60, 1, 100)
    s = act(make(ball=35, down=4), "go for it", [off_wins("10")])  # 45: short of the 50 on 4th down
    assert where(s) == (1, 55, 1, 100)


# --- ruling 6: a roll uses a down unless it scores, gains a series or changes possession -----------------------

def test_r06_downs_used_by_plays():
    s = act(make(ball=30, down=1), "roll", [def_wins("NG")])
    assert where(s) == (0, 30, 2, 50) and int(s.phase[0]) == SNAP
    s = act(s, "roll", [def_wins("SK")])
    assert where(s) == (0, 20, 3, 50)
    s = act(s, "roll", [off_wins("10")])
    assert where(s) == (0, 30, 4, 50) and int(s.phase[0]) == FOURTH_DOWN
    assert legal(s) == ["go for it", "punt", "field goal"]
    s = act(make(ball=60, down=2), "roll", [off_wins("20")])
    assert where(s) == (0, 80, 3, 100)


# --- ruling 7: the count contest and the Power Chip ---------------------------------------------------------------

def test_r07_higher_count_wins_and_ties_go_to_the_chip_holder():
    s = act(make(), "roll", [roll("10 10 10 20 FG TD", "NG NG SK SK TO P6")])  # 3 against 2
    assert int(s.roll_winner[0]) == 0 and where(s) == (0, 35, 2, 50)
    tie = roll("10 10 10 20 FG TD", "SK SK SK NG TO P6")  # 3 against 3
    for holder in ("one", "two"):
        s = act(make(chip=holder), "roll", [tie])
        assert int(s.phase[0]) == CHIP and int(s.to_act[0]) == ("one", "two").index(holder)
        assert legal(s) == ["use chip", "keep chip"] and int(s.roll_winner[0]) == -1
        for call, winner in (("use chip", "offence" if holder == "one" else "defence"),
                             ("keep chip", "defence" if holder == "one" else "offence")):
            t = act(s, call)
            holder_id = ("one", "two").index(holder)
            assert int(t.chip[0]) == (1 - holder_id if call == "use chip" else holder_id)
            assert int(t.chip_call[0]) == (1 if call == "use chip" else 0)
            if winner == "offence":  # 10: +10
                assert int(t.roll_winner[0]) == 0 and where(t) == (0, 35, 2, 50)
            else:  # sack: -10
                assert int(t.roll_winner[0]) == 1 and where(t) == (0, 15, 2, 50)
    # six against six is a tie of counts too (six 10s against six NO GAINs)
    s = act(make(), "roll", [roll("10 10 10 10 10 10", "NG NG NG NG NG NG")])
    assert int(s.phase[0]) == CHIP
    assert act(s, "keep chip").score[0].tolist() == [7, 0]  # team two kept: the offence's six 10s win
    assert act(s, "use chip").score[0].tolist() == [0, 7]  # used: the defence's six NO GAINs


# --- ruling 8: the winner chooses among its tied symbols --------------------------------------------------------

def test_r08_tied_symbols_the_winner_chooses_after_the_chip_call():
    s = act(make(), "roll", [roll("10 10 10 TD TD TD", DEF_LOSES)])
    assert int(s.phase[0]) == OFFENCE_PLAY and int(s.to_act[0]) == 0
    assert legal(s) == ["play 10", "play touchdown"]
    assert act(s, "play touchdown").score[0].tolist() == [7, 0]
    assert where(act(s, "play 10")) == (0, 35, 2, 50)
    with pytest.raises(sd.IllegalActionError, match="'play 20'.*game 0"):
        sd.step(s, np.array([A.PLAY_20]), CONFIG)
    s = act(make(), "roll", [roll(OFF_LOSES, "SK SK SK P6 P6 P6")])  # 2 against 3+3
    assert int(s.phase[0]) == DEFENCE_PLAY and int(s.to_act[0]) == 1
    assert legal(s) == ["play sack", "play pick six"]
    assert act(s, "play pick six").score[0].tolist() == [0, 7]
    assert where(act(s, "play sack")) == (0, 15, 2, 50)
    s = act(make(chip="one"), "roll", [roll(OFF_LOSES, "SK SK TO TO P6 P6")])  # 2+2 against 2+2+2: a tie
    s = act(s, "keep chip")  # the offence keeps its chip: the defence wins and picks among three
    assert int(s.phase[0]) == DEFENCE_PLAY and legal(s) == ["play sack", "play turnover", "play pick six"]
    assert where(act(s, "play turnover")) == (1, 75, 1, 100)
    # the choice comes after the chip call: tied counts, then the winner's tied symbols
    s = act(make(chip="one"), "roll", [roll("10 10 20 20 FG TD", "NG NG SK SK TO P6")])
    assert int(s.phase[0]) == CHIP and int(s.to_act[0]) == 0
    t = act(s, "use chip")
    assert int(t.phase[0]) == OFFENCE_PLAY and legal(t) == ["play 10", "play 20"]
    t = act(s, "keep chip")
    assert int(t.phase[0]) == DEFENCE_PLAY and legal(t) == ["play no gain", "play sack"]


# --- ruling 9: offence plays ----------------------------------------------------------------------------------------

def test_r09_offence_plays():
    assert where(act(make(ball=30), "roll", [off_wins("10")])) == (0, 40, 2, 50)
    assert where(act(make(ball=30), "roll", [off_wins("20")])) == (0, 50, 1, 100)
    s = act(make(ball=30, down=3), "roll", [off_wins("TD")])
    assert s.score[0].tolist() == [7, 0] and where(s) == (1, 25, 1, 50)
    # FIELD GOAL short of midfield: to the 50, a new series aimed at the end zone (no down used)
    assert where(act(make(ball=20, down=3), "roll", [off_wins("FG")])) == (0, 50, 1, 100)
    # also in an end-zone series pushed back behind the 50 by sacks
    s = act(make(ball=55, down=1), "roll", [def_wins("SK")])
    assert where(s) == (0, 45, 2, 100)  # re-crossing: no new downs
    s2 = act(s, "roll", [off_wins("10")])
    assert where(s2) == (0, 55, 3, 100)
    assert where(act(s, "roll", [off_wins("FG")])) == (0, 50, 1, 100)
    # at 50 or beyond: the choice
    s = act(make(ball=60, down=2), "roll", [off_wins("FG")])
    assert int(s.phase[0]) == FIELD_GOAL_CHOICE and legal(s) == ["take the points", "advance 25"]
    t = act(s, "take the points")
    assert t.score[0].tolist() == [3, 0] and where(t) == (1, 25, 1, 50)
    assert where(act(s, "advance 25")) == (0, 85, 3, 100)
    assert act(act(make(ball=75, down=2), "roll", [off_wins("FG")]), "advance 25").score[0].tolist() == [7, 0]
    # on 4th down an advance that does not score hands the ball over at the new spot
    s = act(make(ball=50, down=4), "go for it", [off_wins("FG")])
    assert where(act(s, "advance 25")) == (1, 25, 1, 50)
    # six 10s: a touchdown whatever the play
    s = act(make(ball=25), "roll", [roll("10 10 10 10 10 10", DEF_LOSES)])
    assert s.score[0].tolist() == [7, 0] and int(s.play[0]) == 0
    # six 20s are just 20
    assert where(act(make(ball=25), "roll", [roll("20 20 20 20 20 20", DEF_LOSES)])) == (0, 45, 2, 50)


# --- ruling 10: defence plays ---------------------------------------------------------------------------------------

def test_r10_defence_plays():
    assert where(act(make(ball=40, down=2), "roll", [def_wins("NG")])) == (0, 40, 3, 50)
    assert where(act(make(ball=40, down=2), "roll", [def_wins("SK")])) == (0, 30, 3, 50)
    assert where(act(make(ball=40, down=2), "roll", [def_wins("TO")])) == (1, 60, 1, 100)
    assert where(act(make(ball=70, down=3), "roll", [def_wins("TO")])) == (1, 30, 1, 50)
    s = act(make(ball=40, down=2), "roll", [def_wins("P6")])
    assert s.score[0].tolist() == [0, 7] and where(s) == (0, 25, 1, 50)
    s = act(make(ball=60), "roll", [roll(OFF_LOSES, "NG NG NG NG NG NG")])  # six NO GAINs
    assert s.score[0].tolist() == [0, 7] and where(s) == (0, 25, 1, 50)
    assert where(act(make(ball=60), "roll", [roll(OFF_LOSES, "SK SK SK SK SK SK")])) == (0, 50, 2, 100)


# --- ruling 11: touchdown at 100, safety at 0 -------------------------------------------------------------------------

def test_r11_touchdown_at_or_past_100_and_safety_at_or_behind_0():
    s = act(make(ball=80, down=2), "roll", [off_wins("20")])  # exactly 100
    assert s.score[0].tolist() == [7, 0] and where(s) == (1, 25, 1, 50)
    assert act(make(ball=95), "roll", [off_wins("20")]).score[0].tolist() == [7, 0]  # past it
    s = act(make(ball=10, down=2), "roll", [def_wins("SK")])  # exactly 0: a safety
    assert s.score[0].tolist() == [0, 2] and where(s) == (1, 25, 1, 50)
    s = act(make(ball=5, down=2), "roll", [def_wins("SK")])
    assert s.score[0].tolist() == [0, 2]


# --- ruling 12: the 4th-down declaration ------------------------------------------------------------------------------

def test_r12_fourth_down_declarations():
    for down in (1, 2, 3):
        assert legal(make(ball=30, down=down)) == ["roll"]
    s = make(ball=30, down=4)
    assert int(s.phase[0]) == FOURTH_DOWN and legal(s) == ["go for it", "punt", "field goal"]
    before = sd.to_diagram(s)
    with pytest.raises(sd.IllegalActionError, match="'roll'.*game 0.*\\['go for it', 'punt', 'field goal'\\]"):
        sd.step(s, np.array([A.ROLL]), CONFIG)
    assert sd.to_diagram(s) == before
    assert where(act(s, "go for it", [off_wins("20")])) == (0, 50, 1, 100)


# --- ruling 13: punts -----------------------------------------------------------------------------------------------

def test_r13_punts():
    s = make(ball=30, down=4, chip="one")
    t = act(s, "punt", [roll("10 20 20 FG TD TD", "NG NG SK SK TO P6")])  # 50 yards: to the 80
    assert where(t) == (1, 20, 1, 50) and int(t.chip[0]) == 0 and int(t.chip_call[0]) == -1
    assert int(t.roll_winner[0]) == -1 and int(t.play[0]) == -1
    t = act(s, "punt", [roll("FG FG TD TD FG TD", DEF_LOSES)])  # 0 yards: over at the spot
    assert where(t) == (1, 70, 1, 100)
    t = act(s, "punt", [roll("20 20 20 10 FG TD", DEF_LOSES)])  # 70 yards: to the 100, the receiver at its 25
    assert where(t) == (1, 25, 1, 50)
    t = act(s, "punt", [roll("10 10 10 10 10 10", DEF_LOSES)])  # fake punt
    assert t.score[0].tolist() == [7, 0] and where(t) == (1, 25, 1, 50)
    t = act(s, "punt", [roll(OFF_LOSES, "NG NG NG NG NG NG")])  # return touchdown: the punting team restarts
    assert t.score[0].tolist() == [0, 7] and where(t) == (0, 25, 1, 50)
    t = act(s, "punt", [roll("10 10 10 10 10 10", "NG NG NG NG NG NG")])  # both: an ordinary 60-yard punt
    assert t.score[0].tolist() == [0, 0] and where(t) == (1, 10, 1, 50)
    # a tie of counts on a punt asks nothing of the chip holder
    t = act(s, "punt", [roll("10 10 20 20 FG TD", "NG NG SK SK TO P6")])
    assert int(t.phase[0]) == SNAP and where(t) == (1, 10, 1, 50) and int(t.chip[0]) == 0


# --- ruling 14: field goals ------------------------------------------------------------------------------------------

def test_r14_field_goals_reach_the_back_of_the_end_zone():
    s = make(ball=70, down=4)  # the seed's "30-yard line": at least 40 yards
    t = act(s, "field goal", [roll("20 20 FG FG TD TD", DEF_LOSES)])
    assert t.score[0].tolist() == [3, 0] and where(t) == (1, 25, 1, 50)
    t = act(s, "field goal", [roll("10 20 FG FG TD TD", DEF_LOSES)])  # 30 yards: a miss, over at the spot
    assert t.score[0].tolist() == [0, 0] and where(t) == (1, 30, 1, 50)
    t = act(s, "field goal", [roll("10 10 10 10 10 10", DEF_LOSES)])  # fake
    assert t.score[0].tolist() == [7, 0]
    t = act(s, "field goal", [roll("20 20 20 TD TD TD", "NG NG NG NG NG NG")])  # blocked, returned
    assert t.score[0].tolist() == [0, 7] and where(t) == (0, 25, 1, 50)
    t = act(s, "field goal", [roll("10 10 10 10 10 10", "NG NG NG NG NG NG")])  # both: an ordinary 60 yards
    assert t.score[0].tolist() == [3, 0]
    s = make(ball=20, down=4)  # from the own 20 the kick needs 90 yards (six 10s would be a fake)
    t = act(s, "field goal", [roll("20 20 20 20 20 10", DEF_LOSES)])  # 110 yards
    assert t.score[0].tolist() == [3, 0]
    t = act(s, "field goal", [roll("20 20 20 20 10 FG", DEF_LOSES)])  # 90 yards: exactly the back line
    assert t.score[0].tolist() == [3, 0]
    t = act(s, "field goal", [roll("20 20 20 10 10 FG", DEF_LOSES)])  # 80: short
    assert where(t) == (1, 80, 1, 100)


# --- ruling 15: after a score ---------------------------------------------------------------------------------------

def test_r15_restarts_after_scores():
    s = act(make(ball=60, offence="two", opener="two", chip="one", down=2), "roll", [off_wins("TD")])
    assert s.score[0].tolist() == [0, 7] and where(s) == (0, 25, 1, 50)
    s = act(make(ball=60, offence="two", opener="two", chip="one", down=2), "roll", [def_wins("P6")])
    assert s.score[0].tolist() == [7, 0] and where(s) == (1, 25, 1, 50)
    s = act(act(make(ball=60, down=2), "roll", [off_wins("FG")]), "take the points")
    assert where(s) == (1, 25, 1, 50)
    s = act(make(ball=10, offence="two", opener="two", chip="one", down=3), "roll", [def_wins("SK")])
    assert s.score[0].tolist() == [2, 0] and where(s) == (0, 25, 1, 50)


# --- ruling 16: first to 21, the cap on rolls ------------------------------------------------------------------------

def test_r16_first_to_the_target_wins_at_once_and_the_cap_truncates():
    s = act(act(make(ball=60, score="18-20"), "roll", [off_wins("FG")]), "take the points")
    assert s.terminated[0] and int(s.winner[0]) == 0 and s.score[0].tolist() == [21, 20]
    assert int(s.to_act[0]) == -1 and not s.legal[0].any()
    s = act(make(ball=10, score="20-19", down=2), "roll", [def_wins("SK")])  # a safety wins for team two
    assert s.terminated[0] and int(s.winner[0]) == 1 and s.score[0].tolist() == [20, 21]
    after = sd.step(s, np.array([A.WAIT]), CONFIG)  # a finished game ignores its action
    assert after.equals(s)
    small = sd.SportsDiceConfig(target_score=7)
    s = act(make(small, ball=30, down=2), "roll", [off_wins("TD")], small)
    assert s.terminated[0] and int(s.winner[0]) == 0
    # the cap on rolls: truncated once the last roll is settled
    capped = sd.SportsDiceConfig(max_rolls=6)
    s = act(make(capped, ball=30), "roll", [roll("10 10 10 TD TD TD", DEF_LOSES)], capped)
    assert not s.truncated[0] and int(s.phase[0]) == OFFENCE_PLAY
    s = act(s, "play 10", config=capped)
    assert s.truncated[0] and not s.terminated[0] and int(s.winner[0]) == -1 and int(s.to_act[0]) == -1
    assert where(s) == (0, 40, 2, 50)
