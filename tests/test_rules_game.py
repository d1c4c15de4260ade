"""Scenario tests of the game-level rules: kickoff spots and the hash band (rulings 4-5), the order of a
down and the strong-lineman roll (7-8), the kick decision (9), field goals (21), punts (22), the PAT (23),
specials (24), the end of the game (28), overtime (29), the cap on agent steps (30) and GameConfig.

Rows and lanes in these tests are the rulebook's 1-based diagram numbers unless a name says ``0``.
Every position is built from a diagram; random outcomes are injected with ScriptedChance (a die face f is
f - 1) or measured statistically over a batch with fixed seeds, within 4 standard errors.
"""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction
import math

import numpy as np
import pytest

import gridiron_env
from gridiron_env import GameConfig, action_id, check_invariants, from_diagram, step
from gridiron_env.core import formations as fm
from gridiron_env.core import rules
from gridiron_env.core.chance import CounterChance, ScriptedChance
from gridiron_env.core.geometry import DEFENCE_TAGS, HASH_BAND, N_LANES, OFFENCE_TAGS
from gridiron_env.core.odds import field_goal_chance, paper_field_goal_chance
from gridiron_env.core.state import PHASE_NAMES
from gridiron_env.core.scenario import diagram, with_everyone

from conftest import batch_of, legal  # noqa: E402

pytestmark = pytest.mark.usefixtures("engine_path")  # every rule test over both step paths

ONE, TWO = 0, 1
TEAM_WORD = {ONE: "one", TWO: "two"}
KICKOFF = {ONE: (22, 9), TWO: (9, 10)}  # ruling 4, diagram numbering
FORWARD = {ONE: -1, TWO: +1}  # row change of one step toward the end zone the team attacks

OFFENCE_FORMATION_IDS = [action_id(f"formation {n}") for n in fm.OFFENCE_FORMATIONS]
DEFENCE_FORMATION_IDS = [action_id(f"formation {n}") for n in fm.DEFENCE_FORMATIONS]
SPECIAL_NAMES = ("lead_blocker", "ball_hawk", "sure_hands", "speedy_qb")
SPECIAL_IDS = [action_id(f"special {n}") for n in SPECIAL_NAMES]
PUNT_IDS = {k: action_id(f"punt {k}") for k in range(1, 21)}
PLAY_ON, FIELD_GOAL, END_TURN = action_id("play on"), action_id("field goal"), action_id("end turn")

# Ruling 21's table: (last distance in yards, 3-dice total needed).
RULING_21_TARGETS = ((40, 6), (45, 8), (50, 9), (55, 10), (60, 11), (63, 13), (65, 15), (69, 17), (80, 18))


def ruling_target(distance):
    for last, target in RULING_21_TARGETS:
        if distance <= last:
            return target
    return None


# --------------------------------------------------------------------------------------------- helpers




def header(offence=ONE, los=(15, 9), phase="play", to_act=None, **extra) -> dict:
    h = {
        "phase": phase,
        "to act": TEAM_WORD[offence if to_act is None else to_act],
        "offence": TEAM_WORD[offence],
        "line of scrimmage": f"row {los[0]} lane {los[1]}",
    }
    h.update({k.replace("_", " "): v for k, v in extra.items()})
    return h


def build(text: str, config: GameConfig | None = None):
    state = from_diagram(text, config or GameConfig())
    check_invariants(state, check_mask=True, config=config or GameConfig())
    return state


def act(state, name_or_id, outcomes=(), config=None):
    """One step of a batch of one with scripted outcomes; returns (new state, draw labels)."""
    config = config or GameConfig()
    chance = ScriptedChance(list(outcomes))
    a = action_id(name_or_id) if isinstance(name_or_id, str) else name_or_id
    new = step(state, np.array([a]), config=config, chance=chance)
    check_invariants(new, check_mask=True, config=config)
    return new, [what for what, _ in chance.log]


def los_of(state, g=0):
    """(row, lane) of the LOS, 1-based."""
    return int(state.los_row[g]) + 1, int(state.los_lane[g]) + 1


def gain_row(state, g=0):
    return int(state.line_to_gain[g]) + 1


def phase(state, g=0):
    return PHASE_NAMES[int(state.phase[g])]


def legal_names(state, g=0):
    return {gridiron_env.action_name(i) for i in np.flatnonzero(state.legal[g])}


def assert_first_and_ten(state, team, spot):
    """``team`` starts a new series (first-and-ten) at ``spot`` (diagram row, lane): ruling 6."""
    assert int(state.offence[0]) == team
    assert los_of(state) == spot
    assert int(state.down[0]) == 1
    assert gain_row(state) == spot[0] + 3 * FORWARD[team]
    assert phase(state) == "offence_formation" and int(state.to_act[0]) == team
    assert (state.player_square[0] == -1).all()  # no return, no play: the field is cleared for the snap


def pre_snap(offence=ONE, los=(15, 9), down=1, **extra) -> str:
    """A position at the start of a down: the offence is to pick its formation (empty board)."""
    return diagram(header(offence, los, phase="offence_formation", down=str(down), **extra))


def snap(text, config=None, strong=(0, 0, 0, 0, 0), offence_formation="i_form", defence_formation="four_three",
         dice=(0, 0, 0, 0)):
    """Both formations picked from a pre-snap diagram; returns (state, labels of the defence step's draws)."""
    config = config or GameConfig()
    s = build(text, config)
    s, labels = act(s, f"formation {offence_formation}", (), config)
    assert labels == []
    s, labels = act(s, f"formation {defence_formation}", list(strong) + list(dice), config)
    return s, labels


def kick_position(offence, los, down=1, config=None, **extra):
    """The kick decision of a down (rule 9); asserts the engine offers it."""
    s, labels = snap(pre_snap(offence, los, down, **extra), config)
    assert phase(s) == "kick_decision", to_diagram_text(s)
    assert labels == ["strong linemen"]
    return s


def to_diagram_text(state):
    return gridiron_env.to_diagram(state)


def faces_for_total(total):
    """Three die faces (as ScriptedChance values 0-5) summing to ``total`` (3-18)."""
    assert 3 <= total <= 18
    faces = []
    left = total
    for k in (2, 1, 0):
        f = min(6, left - k)
        faces.append(f)
        left -= f
    assert sum(faces) == total and all(1 <= f <= 6 for f in faces)
    return [f - 1 for f in faces]



def step_all(state, name, config=None):
    config = config or GameConfig()
    new = step(state, np.full(state.batch_size, action_id(name)), config=config, chance=CounterChance())
    check_invariants(new, config=config)
    return new


def within(observed_fraction, p, n, k=4.0):
    se = math.sqrt(p * (1 - p) / n)
    return abs(observed_fraction - p) <= k * se


def tackle_position(offence, carrier, los, down=1, **extra):
    """Play phase, the defence to act with 1 point, a defender right in front of the carrier (in the
    carrier's forward direction), ready to tackle by moving N in the defence's own frame."""
    defence = 1 - offence
    # The defender stands one row in front of the carrier; his own N (toward the end zone he attacks) is
    # the offence's backward direction, so "move MLB N" lands on the carrier.
    tackler = (carrier[0] + FORWARD[offence], carrier[1])
    far_off, far_def = (29, 30) if carrier[0] < 15 else (1, 2)
    cells = with_everyone({carrier: "H@", tackler: "MLB"}, far_off, far_def)
    points = "0-1" if defence == TWO else "1-0"
    return diagram(header(offence, los, to_act=defence, down=str(down), points=points, **extra), cells)


NO_FUMBLE = 1  # "tackle fumble" draw, high 20: 0 is a fumble


def touchdown_position(team, on_defence=False, **extra):
    """Play phase: a carrier of ``team`` one step from the end zone ``team`` attacks, ``team`` to act with
    1 point. ``on_defence``: he is a defender returning the ball (so a touchdown would be a defensive one)."""
    offence = 1 - team if on_defence else team
    tag = "LCB@" if on_defence else "H@"
    row = 4 if team == ONE else 27
    los = (15, 9)
    cells = with_everyone({(row, 5): tag}, 14, 17)
    points = "1-0" if team == ONE else "0-1"
    return diagram(header(offence, los, to_act=team, points=points, **extra), cells)


# ===================================================================================== rulings 4 and 5


@pytest.mark.parametrize("opener", [ONE, TWO])
@pytest.mark.parametrize("specials", [True, False])
def test_opening_possession_starts_at_the_openers_kickoff_spot(opener, specials):
    # Ruling 4: the opening possession starts first-and-ten at the kickoff spot: team one row 22 lane 9,
    # team two row 9 lane 10; ruling 28: the coin toss picks the opener.
    config = GameConfig(specials=specials)
    chance = ScriptedChance([opener])
    s = gridiron_env.init(1, seed=0, config=config, chance=chance)
    check_invariants(s, check_mask=True, config=config)
    assert [what for what, _ in chance.log] == ["coin toss"]
    assert int(s.opener[0]) == opener and int(s.offence[0]) == opener
    assert los_of(s) == KICKOFF[opener]
    assert int(s.down[0]) == 1 and gain_row(s) == KICKOFF[opener][0] + 3 * FORWARD[opener]
    assert s.drives[0].tolist() == ([1, 0] if opener == ONE else [0, 1])


@pytest.mark.parametrize("scorer", [ONE, TWO])
def test_after_a_touchdown_the_other_team_receives_at_its_kickoff_spot(scorer):
    # Ruling 4: a possession after a score starts at that team's kickoff spot.
    s = build(touchdown_position(scorer))
    s, labels = act(s, "move H N", [0])
    assert labels == ["PAT"]
    assert_first_and_ten(s, 1 - scorer, KICKOFF[1 - scorer])


@pytest.mark.parametrize("kicker", [ONE, TWO])
def test_after_a_punt_touchback_the_receiver_starts_at_its_kickoff_spot(kicker):
    # Ruling 4 and 22: a punt into the end zone is a touchback, first-and-ten at the kickoff spot.
    los = (10, 9) if kicker == ONE else (21, 10)
    s = kick_position(kicker, los, down=4)
    s, labels = act(s, "punt 10", [4])  # 9 + 2 = 12 rows: well into the end zone
    assert labels == ["punt spread"]
    assert_first_and_ten(s, 1 - kicker, KICKOFF[1 - kicker])


@pytest.mark.parametrize("recoverer", [ONE, TWO])
def test_defender_falling_on_the_ball_in_his_own_end_zone_is_a_touchback_at_the_kickoff_spot(recoverer):
    # Rulebook (Turnovers) and ruling 27: a defender who recovers in his own end zone gets a touchback;
    # ruling 4: his team then starts at its kickoff spot.
    offence = 1 - recoverer
    # The end zone the recovering team defends: rows 28-30 for team one, rows 1-3 for team two.
    ball = (28, 5) if recoverer == ONE else (3, 5)
    defender = (ball[0] + FORWARD[recoverer], 5)  # one row out of the end zone: his S steps onto the ball
    cells = with_everyone({ball: "*", defender: "MLB"}, 14, 16)
    points = "1-0" if recoverer == ONE else "0-1"
    s = build(diagram(header(offence, (15, 9), to_act=recoverer, points=points, last_holder=TEAM_WORD[offence]),
                      cells))
    s, labels = act(s, "move MLB S", [])
    assert labels == []
    assert s.score[0].tolist() == [0, 0]
    assert_first_and_ten(s, recoverer, KICKOFF[recoverer])


@pytest.mark.parametrize("offence", [ONE, TWO])
def test_after_a_safety_the_scoring_team_receives_at_its_kickoff_spot(offence):
    # Ruling 15: tackled in the end zone his own team defends is a safety, 2 points; ruling 4: after a
    # safety the team that scored it receives, at its kickoff spot.
    defence = 1 - offence
    carrier = (29, 9) if offence == ONE else (2, 9)
    s = build(tackle_position(offence, carrier, (27, 9) if offence == ONE else (4, 10)))
    s, labels = act(s, "move MLB N", [NO_FUMBLE])
    assert labels == ["tackle fumble"]
    expected = [0, 0]
    expected[defence] = 2
    assert s.score[0].tolist() == expected
    assert_first_and_ten(s, defence, KICKOFF[defence])


def test_the_hash_band_is_central_at_least_four_lanes_and_fits_every_formation():
    # Ruling 5: a central hash band at least 4 lanes wide, chosen so that every formation fits the grid at
    # every lane of the band (the field is symmetric under the half turn lane l <-> 19 - l).
    band = [lane + 1 for lane in HASH_BAND]
    assert len(band) >= 4 and band == list(range(band[0], band[-1] + 1))
    assert sorted(19 - lane for lane in band) == band
    for spots in list(fm.OFFENCE_SPOTS.values()) + list(fm.DEFENCE_SPOTS.values()):
        for ball_lane in band:
            assert all(1 <= ball_lane + offset <= 18 for _, offset in spots.values())


@pytest.mark.parametrize("offence", [ONE, TWO])
@pytest.mark.parametrize("lane", range(1, 19))
def test_the_next_snap_is_moved_into_the_hash_band(offence, lane):
    # Ruling 5: the LOS is the row of the ball; at the snap the ball's lane is moved into the hash band
    # (lanes inside it stay, lanes outside go to the nearest band lane).
    band = [l + 1 for l in HASH_BAND]
    los = (18, 9) if offence == ONE else (12, 10)
    carrier = (17, lane) if offence == ONE else (13, lane)  # one row gained: short of the line to gain
    s = build(tackle_position(offence, carrier, los))
    s, _ = act(s, "move MLB N", [NO_FUMBLE])
    assert int(s.offence[0]) == offence and int(s.down[0]) == 2
    assert los_of(s) == (carrier[0], min(max(lane, band[0]), band[-1]))


def _expected_square(kind, offence, los, ball_lane, depth, offset):
    """Nominal (row, lane), 1-based, of a formation spot: offence depth is rows behind the LOS, defence
    depth rows in front of it, lane offset to the offence's right (rule 7 / RULES.md)."""
    behind = -FORWARD[offence]
    right = +1 if offence == ONE else -1  # team one faces row 1, its right is toward lane 18
    sign = 1 if kind == "offence" else -1
    return los + sign * depth * behind, ball_lane + offset * right


@pytest.mark.parametrize("offence,los_row", [(ONE, 4), (ONE, 27), (TWO, 4), (TWO, 27), (ONE, 15), (TWO, 15)])
@pytest.mark.parametrize("ball_lane", [l + 1 for l in HASH_BAND])
def test_formations_are_placed_relative_to_the_ball_and_fitted_at_the_goal_lines(offence, los_row, ball_lane):
    # Rulings 5 and 7: the engine lays formations out relative to the ball: 11 a side, at least 7 offence
    # on the LOS row, defenders forward of the LOS row; a player who would stand past an end line is moved
    # toward the LOS to the nearest free square. Every offence x defence formation pair, both teams, the
    # LOS rows next to each goal line (4 and 27) and midfield.
    pairs = list(itertools.product(range(8), range(9)))
    s = build(pre_snap(offence, (los_row, ball_lane)))
    s = batch_of(s, len(pairs), seed=11)
    s = step(s, np.array([OFFENCE_FORMATION_IDS[o] for o, _ in pairs]), chance=CounterChance())
    check_invariants(s)
    assert (s.phase == PHASE_NAMES.index("defence_formation")).all()
    assert ((s.player_square[:, :11] >= 0).sum(axis=1) == 11).all()
    assert (s.player_square[:, 11:] == -1).all()
    s = step(s, np.array([DEFENCE_FORMATION_IDS[d] for _, d in pairs]), chance=CounterChance())
    check_invariants(s)
    for g, (o, d) in enumerate(pairs):
        where = {}
        for slot in range(22):
            sq = int(s.player_square[g, slot])
            assert sq >= 0
            where[slot] = (sq // N_LANES + 1, sq % N_LANES + 1)
        assert len(set(where.values())) == 22
        off_rows = [where[k][0] for k in range(11)]
        def_rows = [where[k][0] for k in range(11, 22)]
        assert sum(r == los_row for r in off_rows) >= 7
        ahead = FORWARD[offence]
        assert all((r - los_row) * ahead > 0 for r in def_rows), "defenders must line up forward of the LOS"
        assert all((r - los_row) * ahead <= 0 for r in off_rows), "no offensive player forward of the LOS"
        assert int(s.ball_holder[g]) == 0 and int(s.ball_square[g]) == int(s.player_square[g, 0])
        for kind, tags, spots, base in (("offence", OFFENCE_TAGS, fm.OFFENCE_SPOTS[fm.OFFENCE_FORMATIONS[o]], 0),
                                        ("defence", DEFENCE_TAGS, fm.DEFENCE_SPOTS[fm.DEFENCE_FORMATIONS[d]], 11)):
            team_squares = {where[base + k] for k in range(11)}
            for k, tag in enumerate(tags):
                row, lane = _expected_square(kind, offence, los_row, ball_lane, *spots[tag])
                got = where[base + k]
                if 1 <= row <= 30:
                    assert got == (row, lane), (kind, tag, got, (row, lane))
                    continue
                # Past an end line: moved toward the LOS to the nearest free square. In his own lane,
                # every square between the end line and him is taken by a teammate; if he had to leave
                # his lane, the whole of it (end line to the LOS side) was full.
                end_row = 1 if row < 1 else 30
                toward = 1 if end_row == 1 else -1
                if got[1] == lane:
                    between = range(end_row, got[0], toward)
                    assert all((r, lane) in team_squares for r in between), (kind, tag, got)
                else:
                    last = los_row if kind == "offence" else los_row + FORWARD[offence]
                    assert all((r, lane) in team_squares for r in range(end_row, last + toward, toward))


# ===================================================================================== rulings 7 and 8


@pytest.mark.parametrize("offence", [ONE, TWO])
def test_order_of_a_down_offence_then_defence_then_strong_roll_then_dice(offence):
    # Ruling 7: the offence picks one of its 8 formations; the defence, seeing it, picks one of its 9; the
    # strong linemen are rolled; then the dice. Ruling 8: the strong roll comes after the defence picks.
    s = build(pre_snap(offence, KICKOFF[offence]))  # out of field-goal range, 1st down: no kick decision
    assert int(s.to_act[0]) == offence
    assert {i for i in np.flatnonzero(s.legal[0])} == set(OFFENCE_FORMATION_IDS)

    s, labels = act(s, "formation shotgun", [])
    assert labels == []  # nothing rolled yet: the strong linemen are unknown when the defence chooses
    assert not s.strong[0].any()
    assert int(s.to_act[0]) == 1 - offence and phase(s) == "defence_formation"
    assert {i for i in np.flatnonzero(s.legal[0])} == set(DEFENCE_FORMATION_IDS)
    assert (s.player_square[0, :11] >= 0).all() and (s.player_square[0, 11:] < 0).all()  # the defence sees it

    # strong linemen C, LG, RG, LT, RT = 1 0 1 0 1; dice: offence 5,2 defence 3,1 (faces - 1)
    s, labels = act(s, "formation nickel", [1, 0, 1, 0, 1, 4, 1, 2, 0])
    assert labels == ["strong linemen", "dice"]
    assert s.strong[0].tolist() == [True, False, True, False, True]
    assert phase(s) == "play" and int(s.to_act[0]) == offence  # the offence moves first
    assert int(s.points[0, offence]) == 5 and int(s.points[0, 1 - offence]) == 1
    assert s.formation[0].tolist() == [fm.OFFENCE_FORMATIONS.index("shotgun"), fm.DEFENCE_FORMATIONS.index("nickel")]


def test_a_team_cannot_pick_the_other_sides_formation_or_act_out_of_turn():
    # Ruling 7: offence first (its 8 formations only), then the defence (its 9 only).
    s = build(pre_snap(ONE, (15, 9)))
    with pytest.raises(gridiron_env.IllegalActionError):
        step(s, np.array([DEFENCE_FORMATION_IDS[0]]), chance=ScriptedChance([]))
    s, _ = act(s, OFFENCE_FORMATION_IDS[0])
    with pytest.raises(gridiron_env.IllegalActionError):
        step(s, np.array([OFFENCE_FORMATION_IDS[1]]), chance=ScriptedChance([]))


def test_each_interior_lineman_is_strong_half_the_time_independently():
    # Ruling 8: each interior lineman is strong with probability 1/2, independently. 4000 games, fixed
    # seed; every frequency within 4 standard errors.
    n = 4000
    config = GameConfig(specials=False)
    s = gridiron_env.init(n, seed=2024, config=config)
    s = step_all(s, "formation i_form", config)
    assert not s.strong.any()
    s = step_all(s, "formation four_three", config)
    strong = s.strong.astype(float)
    for k in range(5):
        assert within(strong[:, k].mean(), 0.5, n), (k, strong[:, k].mean())
    for a, b in itertools.combinations(range(5), 2):
        assert within((strong[:, a] * strong[:, b]).mean(), 0.25, n), (a, b)
    counts = s.strong.sum(axis=1)
    for k in range(6):
        assert within((counts == k).mean(), math.comb(5, k) / 32, n), k


# =========================================================================================== ruling 9


# (offence, LOS row, down, field goal in range, punt allowed). Field-goal distance is 4 * rows + 17 with
# rows counted from the LOS row to the goal line inclusive; in range when <= 80, i.e. rows <= 15.
KICK_CASES = [
    (ONE, 18, 1, True, False),   # 15 rows: 77 yards
    (ONE, 19, 1, False, False),  # 16 rows: 81 yards, out of range; not 4th down: no decision
    (ONE, 19, 3, False, False),
    (ONE, 19, 4, False, True),
    (ONE, 18, 4, True, True),
    (ONE, 4, 2, True, False),    # 1 row: 21 yards
    (ONE, 27, 4, False, True),
    (TWO, 13, 1, True, False),   # team two attacks rows 28-30: 15 rows from row 13
    (TWO, 12, 2, False, False),
    (TWO, 12, 4, False, True),
    (TWO, 27, 3, True, False),
    (TWO, 4, 4, False, True),
]


@pytest.mark.parametrize("offence,los_row,down,fg,punt", KICK_CASES)
def test_kick_decision_offered_exactly_on_fourth_down_or_in_field_goal_range(offence, los_row, down, fg, punt):
    # Ruling 9: on 4th down, or when a field goal is in range, the offence chooses before the first roll:
    # play on, field goal (in range only), punt (4th down only, targets 1..longest_punt).
    config = GameConfig(longest_punt=7)
    lane = 9 if offence == ONE else 10
    s, labels = snap(pre_snap(offence, (los_row, lane), down), config)
    if not (fg or punt):
        assert labels == ["strong linemen", "dice"] and phase(s) == "play"
        return
    assert labels == ["strong linemen"]  # no dice before the decision
    assert phase(s) == "kick_decision" and int(s.to_act[0]) == offence
    expected = {"play on"}
    if fg:
        expected.add("field goal")
    if punt:
        expected |= {f"punt {k}" for k in range(1, 8)}
    assert legal_names(s) == expected


def test_punt_targets_go_up_to_the_configured_longest_punt():
    # Ruling 22 / GameConfig.longest_punt: targets 1..longest_punt rows (12 by default), never beyond.
    for longest in (1, 12, 20):
        config = GameConfig(longest_punt=longest)
        s = kick_position(ONE, (27, 9), down=4, config=config)
        for k in range(1, 21):
            assert bool(s.legal[0, PUNT_IDS[k]]) == (k <= longest)
        if longest < 20:
            with pytest.raises(gridiron_env.IllegalActionError):
                step(s, np.array([PUNT_IDS[longest + 1]]), config=config, chance=ScriptedChance([0]))


@pytest.mark.parametrize("down", [1, 4])
def test_play_on_leads_to_the_dice(down):
    # Ruling 9: "play on" runs the play: the dice roll and the offence moves first, the down unchanged.
    s = kick_position(ONE, (10, 9), down=down)
    s, labels = act(s, "play on", [5, 0, 2, 1])  # offence 6,1; defence 3,2
    assert labels == ["dice"]
    assert phase(s) == "play" and int(s.to_act[0]) == ONE
    assert int(s.down[0]) == down and los_of(s) == (10, 9)
    assert s.points[0].tolist() == [6, 2]
    assert s.score[0].tolist() == [0, 0]


# ========================================================================================== ruling 21


def fg_los(offence, rows_to_goal):
    """LOS (row, lane) ``rows_to_goal`` rows from the goal line ``offence`` attacks (LOS row included)."""
    return (rows_to_goal + 3, 8) if offence == ONE else (28 - rows_to_goal, 11)


@pytest.mark.parametrize("offence", [ONE, TWO])
@pytest.mark.parametrize("rows_to_goal", range(1, 16))
def test_field_goal_dice_formula_exact_threshold(offence, rows_to_goal):
    # Ruling 21: 3 dice against the target for the distance 4 * rows + 17; a total equal to the target is
    # good, one less is a miss.
    distance = 4 * rows_to_goal + 17
    target = ruling_target(distance)
    for total, good in ((target, True), (target - 1, False)):
        s = kick_position(offence, fg_los(offence, rows_to_goal))
        s, labels = act(s, "field goal", faces_for_total(total))
        assert labels == ["field goal"]
        assert int(s.score[0, offence]) == (3 if good else 0), (distance, total)


@pytest.mark.parametrize("offence", [ONE, TWO])
def test_good_field_goal_scores_three_and_the_other_team_receives_at_its_kickoff_spot(offence):
    # Ruling 21: success: 3 points, the other team receives at its kickoff spot.
    s = kick_position(offence, fg_los(offence, 7), drives="2-2")  # 45 yards, target 8
    s, _ = act(s, "field goal", faces_for_total(8))
    expected = [0, 0]
    expected[offence] = 3
    assert s.score[0].tolist() == expected
    assert_first_and_ten(s, 1 - offence, KICKOFF[1 - offence])
    assert int(s.drives[0, 1 - offence]) == 3  # a new drive for the receiver


@pytest.mark.parametrize("offence", [ONE, TWO])
def test_missed_field_goal_gives_the_ball_over_at_the_los(offence):
    # Ruling 21: miss: the other team takes over at the LOS (first-and-ten, same row and lane).
    los = fg_los(offence, 7)
    s = kick_position(offence, los)
    s, _ = act(s, "field goal", faces_for_total(7))
    assert s.score[0].tolist() == [0, 0]
    assert_first_and_ten(s, 1 - offence, los)


@pytest.mark.parametrize("rows_to_goal", [7, 11])  # 45 yards (target 8) and 61 yards (target 13)
def test_field_goal_make_rate_matches_field_goal_chance(rows_to_goal):
    # Ruling 21: the engine's make rate equals gridiron_env.field_goal_chance(distance) within 4 standard
    # errors over 3000 kicks (fixed seed).
    n = 3000
    distance = 4 * rows_to_goal + 17
    s = build(pre_snap(ONE, fg_los(ONE, rows_to_goal)))
    s = batch_of(s, n, seed=99 + rows_to_goal)
    s = step_all(s, "formation pro_set")
    s = step_all(s, "formation dime")
    assert (s.phase == PHASE_NAMES.index("kick_decision")).all()
    s = step_all(s, "field goal")
    made = (s.score[:, ONE] == 3).mean()
    assert within(made, field_goal_chance(distance), n), (made, field_goal_chance(distance))


@pytest.mark.parametrize("kick_mode", ["dice", "paper"])
@pytest.mark.parametrize("rows_to_goal", [1, 7, 15, 16, 24])
def test_the_rules_field_goal_chance_is_the_engine_s_by_enumeration(kick_mode, rows_to_goal):
    # Ruling 21: core.rules.field_goal_chance_for_row (what the agents read) is exactly the share of the 216
    # outcomes of three dice that the engine scores from that LOS (paper: times the answer chance, the
    # answer drawn right, 0, or wrong, 999,999); field_goal_in_range is the engine's offer of the kick.
    config = GameConfig(kick_mode=kick_mode, paper_answer_chance=0.5)
    frame_row = rows_to_goal + 2  # the LOS row in the offence's frame (rows 0-2: the end zone it attacks)
    s = build(pre_snap(ONE, fg_los(ONE, rows_to_goal), down=4), config)
    s, _ = act(s, "formation pro_set", (), config)
    s, _ = act(s, "formation dime", [0] * 5, config)
    assert legal(s, "field goal") == bool(rules.field_goal_in_range(frame_row))
    if not legal(s, "field goal"):
        assert rules.field_goal_chance_for_row(frame_row, config) == 0
        return
    good = 0
    for faces in itertools.product(range(6), repeat=3):
        outcomes = list(faces) + ([0] if kick_mode == "paper" else [])
        kicked, _ = act(s, "field goal", outcomes, config)
        good += int(kicked.score[0, ONE] == 3)
        if kick_mode == "paper":  # a wrong answer misses whatever the reach
            kicked, _ = act(s, "field goal", list(faces) + [999_999], config)
            assert kicked.score[0, ONE] == 0
    expected = Fraction(good, 216) * (Fraction(1, 2) if kick_mode == "paper" else 1)
    assert rules.field_goal_chance_for_row(frame_row, config) == float(expected)
    assert rules.field_goal_chance_for_row(np.array([frame_row]), config)[0] == float(expected)


@pytest.mark.parametrize("offence", [ONE, TWO])
def test_paper_football_reach_and_answer(offence):
    # Ruling 21, paper-football mode: reach = 8 + 4 * (3d6 total) yards must reach the distance, and the
    # true/false answer draw must come under paper_answer_chance (a draw in [0, 1e6)).
    config = GameConfig(kick_mode="paper", paper_answer_chance=0.75)
    los = fg_los(offence, 7)  # 45 yards: a total of 10 reaches 48 yards, 9 only 44
    cases = [(10, 749_999, True), (9, 0, False), (10, 750_000, False), (18, 999_999, False), (3, 0, False)]
    for total, answer, good in cases:
        s = kick_position(offence, los, config=config)
        s, labels = act(s, "field goal", faces_for_total(total) + [answer], config)
        assert set(labels) <= {"field goal reach", "field goal answer"} and "field goal reach" in labels
        assert int(s.score[0, offence]) == (3 if good else 0), (total, answer)
        if good:
            assert_first_and_ten(s, 1 - offence, KICKOFF[1 - offence])
        else:
            assert_first_and_ten(s, 1 - offence, los)


def test_paper_football_at_21_yards_needs_more_than_three_ones():
    # Ruling 21, paper mode: the shortest reach is 8 + 4 * 3 = 20 yards, short of the 21-yard kick.
    config = GameConfig(kick_mode="paper", paper_answer_chance=1.0)
    for total, good in ((3, False), (4, True)):
        s = kick_position(ONE, fg_los(ONE, 1), config=config)
        s, _ = act(s, "field goal", faces_for_total(total) + [999_999], config)
        assert int(s.score[0, ONE]) == (3 if good else 0)


def test_paper_football_make_rate():
    # Ruling 21, paper mode: make rate = P(reach) * paper_answer_chance, within 4 standard errors.
    n = 3000
    config = GameConfig(kick_mode="paper", paper_answer_chance=0.6)
    s = build(pre_snap(TWO, fg_los(TWO, 7)), config)
    s = batch_of(s, n, seed=5150)
    s = step_all(s, "formation jumbo", config)
    s = step_all(s, "formation goal_line", config)
    s = step_all(s, "field goal", config)
    made = (s.score[:, TWO] == 3).mean()
    p = paper_field_goal_chance(45, 0.6)
    assert abs(p - (135 / 216) * 0.6) < 1e-12  # P(3d6 >= 10) = 135/216
    assert within(made, p, n), (made, p)


# ========================================================================================== ruling 22


@pytest.mark.parametrize("kicker", [ONE, TWO])
@pytest.mark.parametrize("spread_value", range(5))
def test_punt_lands_target_plus_spread_same_lane_receiver_first_and_ten(kicker, spread_value):
    # Ruling 22: the ball lands at target + (-2..+2) rows in the same lane; the receiving team takes a
    # first down where it lands; no return.
    los = (24, 8) if kicker == ONE else (7, 11)
    s = kick_position(kicker, los, down=4)
    s, labels = act(s, "punt 8", [spread_value])
    assert labels == ["punt spread"]
    landing = los[0] + FORWARD[kicker] * (8 + spread_value - 2)
    assert_first_and_ten(s, 1 - kicker, (landing, los[1]))
    assert s.score[0].tolist() == [0, 0]


@pytest.mark.parametrize("kicker", [ONE, TWO])
def test_punt_touchback_boundary(kicker):
    # Ruling 22: landing in or past the receiving team's end zone is a touchback (kickoff spot, rule 4);
    # landing on the last row of the field of play is not.
    los = (16, 9) if kicker == ONE else (15, 10)  # 12 rows from row 16 lands on row 4 (team two: 27)
    last_field_row = 4 if kicker == ONE else 27
    s = kick_position(kicker, los, down=4)
    s1, _ = act(s, "punt 12", [2])  # exactly 12
    assert_first_and_ten(s1, 1 - kicker, (last_field_row, los[1]))
    s2, _ = act(s, "punt 12", [3])  # 13: into the end zone
    assert_first_and_ten(s2, 1 - kicker, KICKOFF[1 - kicker])
    s3, _ = act(kick_position(kicker, (8, 9) if kicker == ONE else (23, 10), down=4), "punt 12", [4])  # past it
    assert_first_and_ten(s3, 1 - kicker, KICKOFF[1 - kicker])


def test_a_one_row_punt_can_land_behind_the_los():
    # Ruling 22: target 1 with a spread of -2 lands 1 row behind the LOS (same lane).
    s = kick_position(ONE, (15, 10), down=4)
    s, _ = act(s, "punt 1", [0])
    assert_first_and_ten(s, TWO, (16, 10))


def test_punt_spread_is_uniform():
    # Ruling 22: the spread is uniform over -2..+2 rows: each landing row within 4 standard errors of 1/5
    # over 5000 punts (fixed seed).
    n = 5000
    s = kick_position(ONE, (22, 9), down=4)
    s = batch_of(s, n, seed=31337)
    s = step_all(s, "punt 8")
    rows = s.los_row + 1
    assert set(np.unique(rows).tolist()) == {12, 13, 14, 15, 16}
    for row in range(12, 17):
        assert within((rows == row).mean(), 0.2, n), row


# ========================================================================================== ruling 23


@pytest.mark.parametrize("team", [ONE, TWO])
@pytest.mark.parametrize("on_defence", [False, True])
def test_pat_after_every_touchdown_19_in_20_no_decision(team, on_defence):
    # Ruling 23: a PAT after every touchdown, for whichever team scored it (a defensive touchdown too):
    # good 19 in 20 ("PAT" draw < 19), no decision asked: the other team picks its formation next.
    mover = "LCB" if on_defence else "H"
    for value, points in ((18, 7), (19, 6), (0, 7)):
        s = build(touchdown_position(team, on_defence))
        s, labels = act(s, f"move {mover} N", [value])
        assert labels == ["PAT"]
        expected = [0, 0]
        expected[team] = points
        assert s.score[0].tolist() == expected
        assert_first_and_ten(s, 1 - team, KICKOFF[1 - team])
        assert {i for i in np.flatnonzero(s.legal[0])} == set(OFFENCE_FORMATION_IDS)


def test_pat_rate_is_19_in_20():
    # Ruling 23: over 4000 touchdowns (fixed seed) the PAT is good 19 in 20, within 4 standard errors.
    n = 4000
    s = batch_of(build(touchdown_position(TWO, on_defence=True)), n, seed=23)
    s = step_all(s, "move LCB N")
    assert set(np.unique(s.score[:, TWO]).tolist()) == {6, 7}
    assert within((s.score[:, TWO] == 7).mean(), 0.95, n)


# ========================================================================================== ruling 24


@pytest.mark.parametrize("opener", [ONE, TWO])
@pytest.mark.parametrize("pick_one,pick_two", [(a, b) for a in range(4) for b in range(4)])
def test_specials_phase_team_one_then_team_two(opener, pick_one, pick_two):
    # Ruling 24: with specials on, each team picks one of the four before the first down: team one picks,
    # then team two; then the opener picks its formation.
    config = GameConfig(specials=True)
    s = gridiron_env.init(1, seed=0, config=config, chance=ScriptedChance([opener]))
    assert phase(s) == "specials" and int(s.to_act[0]) == ONE
    assert {i for i in np.flatnonzero(s.legal[0])} == set(SPECIAL_IDS)
    s, labels = act(s, SPECIAL_IDS[pick_one], [], config)
    assert labels == []
    assert phase(s) == "specials" and int(s.to_act[0]) == TWO
    assert {i for i in np.flatnonzero(s.legal[0])} == set(SPECIAL_IDS)
    s, _ = act(s, SPECIAL_IDS[pick_two], [], config)
    assert s.special[0].tolist() == [pick_one, pick_two]
    assert phase(s) == "offence_formation" and int(s.to_act[0]) == opener
    assert {i for i in np.flatnonzero(s.legal[0])} == set(OFFENCE_FORMATION_IDS)


@pytest.mark.parametrize("opener", [ONE, TWO])
def test_no_specials_phase_when_specials_are_off(opener):
    # Ruling 24 / GameConfig.specials=False: no specials phase; the opener picks its formation at once.
    config = GameConfig(specials=False)
    s = gridiron_env.init(1, seed=0, config=config, chance=ScriptedChance([opener]))
    assert phase(s) == "offence_formation" and int(s.to_act[0]) == opener
    assert s.special[0].tolist() == [-1, -1]
    assert not s.legal[0, SPECIAL_IDS].any()
    s, _ = act(s, "formation i_form", [], config)
    s, _ = act(s, "formation four_three", [0] * 9, config)
    assert phase(s) == "play" and s.special[0].tolist() == [-1, -1]


# ========================================================================================== ruling 28


def test_coin_toss_decides_the_opener_about_half_each():
    # Ruling 28: a coin toss decides who opens: over 4000 seeds each team opens half the time within
    # 4 standard errors, and the opener is the offence.
    n = 4000
    s = gridiron_env.init(n, seed=777, config=GameConfig(specials=False))
    assert set(np.unique(s.opener).tolist()) == {0, 1}
    assert within((s.opener == TWO).mean(), 0.5, n)
    assert (s.offence == s.opener).all()


def test_target_score_is_configurable_and_defaults_to_21():
    # Ruling 28: target score 21 by default, configurable: a field goal taking the non-opener to the
    # target wins with target 10, but not with the default 21.
    assert GameConfig().target_score == 21
    for target, over in ((10, True), (21, False)):
        config = GameConfig(target_score=target)
        s = kick_position(TWO, fg_los(TWO, 5), config=config, opener="one", score="0-7", drives="2-2")
        s, _ = act(s, "field goal", faces_for_total(18), config)
        assert s.score[0].tolist() == [0, 10]
        assert bool(s.terminated[0]) == over and int(s.winner[0]) == (TWO if over else -1)


def assert_won(s, team):
    assert bool(s.terminated[0]) and not bool(s.truncated[0])
    assert int(s.winner[0]) == team
    assert phase(s) == "game_over" and int(s.to_act[0]) == -1
    assert not s.legal[0].any()


def assert_not_over(s):
    assert not bool(s.terminated[0]) and not bool(s.truncated[0]) and int(s.winner[0]) == -1
    assert phase(s) != "game_over"


def test_non_opener_reaching_the_target_first_wins_at_once():
    # Ruling 28: the team that did not open reaches the target while the opener has not: it wins at once,
    # even though the opener has had no answer.
    s = kick_position(TWO, fg_los(TWO, 5), opener="one", score="17-18", drives="4-4")
    s, _ = act(s, "field goal", faces_for_total(18))
    assert s.score[0].tolist() == [17, 21]
    assert_won(s, TWO)


def test_non_opener_touchdown_to_the_target_wins_at_once():
    # Ruling 28 (with ruling 23: the PAT is still kicked): a touchdown takes team two past 21 first.
    s = build(touchdown_position(TWO, opener="one", score="14-15", drives="3-3"))
    s, labels = act(s, "move H N", [0])
    assert labels == ["PAT"]
    assert s.score[0].tolist() == [14, 22]
    assert_won(s, TWO)


@pytest.mark.parametrize("opener", [ONE, TWO])
def test_opener_reaching_the_target_gives_the_other_team_one_more_drive(opener):
    # Ruling 28: when the opener reaches the target, the other team, having had one drive fewer, gets one
    # more drive (from its kickoff spot after the score).
    other = 1 - opener
    score = [0, 0]
    score[opener], score[other] = 18, 10
    drives = [0, 0]
    drives[opener], drives[other] = 3, 2
    s = kick_position(opener, fg_los(opener, 5), opener=TEAM_WORD[opener], score="-".join(map(str, score)),
                      drives="-".join(map(str, drives)))
    s, _ = act(s, "field goal", faces_for_total(18))
    assert int(s.score[0, opener]) == 21
    assert_not_over(s)
    assert_first_and_ten(s, other, KICKOFF[other])
    assert int(s.drives[0, other]) == 3


def test_opener_reaching_the_target_with_drives_level_wins_at_once():
    # Ruling 28: the opener reaches the target (a safety while team two has the ball) when team two has
    # already had as many drives: there is no further drive, the opener wins.
    carrier = (2, 9)  # team two's carrier in the end zone team two defends
    s = build(tackle_position(TWO, carrier, (4, 10), opener="one", score="19-10", drives="3-3"))
    s, _ = act(s, "move MLB N", [NO_FUMBLE])
    assert s.score[0].tolist() == [21, 10]
    assert_won(s, ONE)


def test_opener_defensive_touchdown_to_the_target_with_drives_level_wins_at_once():
    # Ruling 28: the opener reaches the target with a defensive touchdown on team two's drive; team two,
    # the team scored upon, would receive next, but it has already had as many drives: the opener wins.
    s = build(touchdown_position(ONE, on_defence=True, opener="one", score="14-10", drives="3-3"))
    s, labels = act(s, "move LCB N", [0])
    assert labels == ["PAT"]
    assert s.score[0].tolist() == [21, 10]
    assert_won(s, ONE)


def final_drive(score, **extra):
    """Team one opened and has reached the target; team two is on its last drive (drives level)."""
    return dict(opener="one", score=f"{score[0]}-{score[1]}", drives="3-3", **extra)


@pytest.mark.parametrize("before,after,winner", [
    ((21, 14), (21, 17), ONE),  # the drive ends with the opener ahead
    ((21, 19), (21, 22), TWO),  # the other team ends it ahead
    ((24, 19), (24, 22), ONE),  # reaching the target is not enough when the opener is higher
])
def test_when_the_last_drive_ends_the_higher_score_wins(before, after, winner):
    # Ruling 28: when that drive ends, the higher score wins.
    s = kick_position(TWO, fg_los(TWO, 5), **final_drive(before))
    s, _ = act(s, "field goal", faces_for_total(18))
    assert s.score[0].tolist() == list(after)
    assert_won(s, winner)


@pytest.mark.parametrize("how", ["missed field goal", "punt", "turnover on downs"])
def test_the_last_drive_ending_without_a_score_loses(how):
    # Ruling 28: a drive ends whenever the team loses the ball (punt, turnover, downs, field goal attempt).
    if how == "missed field goal":
        s = kick_position(TWO, fg_los(TWO, 5), **final_drive((21, 14)))
        s, _ = act(s, "field goal", faces_for_total(3))
    elif how == "punt":
        s = kick_position(TWO, (12, 10), down=4, **final_drive((21, 14)))
        s, _ = act(s, "punt 10", [2])
    else:
        s = build(tackle_position(TWO, (14, 10), (13, 10), down=4, **final_drive((21, 14))))
        s, _ = act(s, "move MLB N", [NO_FUMBLE])
    assert s.score[0].tolist() == [21, 14]
    assert_won(s, ONE)


def test_the_last_drive_goes_on_after_a_down_that_keeps_the_ball():
    # Ruling 28: the game ends when the drive ends, not when a down ends: a tackle short of the line to
    # gain on 1st down leaves team two on 2nd down of the same drive.
    s = build(tackle_position(TWO, (14, 10), (13, 10), down=1, **final_drive((21, 14))))
    s, _ = act(s, "move MLB N", [NO_FUMBLE])
    assert_not_over(s)
    assert int(s.offence[0]) == TWO and int(s.down[0]) == 2 and s.drives[0].tolist() == [3, 3]


@pytest.mark.parametrize("toss", [ONE, TWO])
def test_a_tie_after_the_last_drive_goes_to_overtime(toss):
    # Ruling 28: a tie when that drive ends goes to overtime; ruling 29: a coin toss decides who starts,
    # from its kickoff spot.
    s = kick_position(TWO, fg_los(TWO, 5), **final_drive((21, 18)))
    s, labels = act(s, "field goal", faces_for_total(18) + [toss])
    assert labels == ["field goal", "overtime coin toss"]
    assert s.score[0].tolist() == [21, 21]
    assert_not_over(s)
    assert bool(s.overtime[0]) and s.overtime_points[0].tolist() == [0, 0]
    assert_first_and_ten(s, toss, KICKOFF[toss])


def test_overtime_coin_toss_is_fair():
    # Ruling 29: who starts overtime is a coin toss: half each over 4000 games within 4 standard errors.
    n = 4000
    s = kick_position(TWO, (12, 10), down=4, **final_drive((21, 21)))
    s = batch_of(s, n, seed=4242)
    s = step_all(s, "punt 5")
    assert s.overtime.all() and not s.terminated.any()
    assert within((s.offence == TWO).mean(), 0.5, n)
    kickoff_rows = np.where(s.offence == ONE, KICKOFF[ONE][0], KICKOFF[TWO][0])
    assert (s.los_row + 1 == kickoff_rows).all()


# ========================================================================================== ruling 29


def ot(points, score=(21, 21), **extra):
    return dict(opener="one", score=f"{score[0]}-{score[1]}", overtime=f"yes {points[0]}-{points[1]}",
                drives="4-4", **extra)


def test_overtime_touchdown_wins_at_once_without_a_pat():
    # Ruling 29: a touchdown in overtime wins at once, with no PAT.
    s = build(touchdown_position(ONE, **ot((0, 3), score=(21, 24))))
    s, labels = act(s, "move H N", [])
    assert labels == []  # no PAT draw
    assert s.score[0].tolist() == [27, 24] and s.overtime_points[0].tolist() == [6, 3]
    assert_won(s, ONE)


def test_overtime_defensive_touchdown_wins_at_once():
    # Ruling 29: any touchdown reaches 4 overtime points, a defensive one too.
    s = build(touchdown_position(TWO, on_defence=True, **ot((0, 0))))
    s, labels = act(s, "move LCB N", [])
    assert labels == []
    assert_won(s, TWO)


@pytest.mark.parametrize("offence", [ONE, TWO])
def test_overtime_field_goal_alone_does_not_win_and_possessions_alternate(offence):
    # Ruling 29: a field goal alone (3 points) does not win; possessions alternate from kickoff spots.
    s = kick_position(offence, fg_los(offence, 5), **ot((0, 0)))
    s, _ = act(s, "field goal", faces_for_total(18))
    expected = [0, 0]
    expected[offence] = 3
    assert s.overtime_points[0].tolist() == expected
    assert_not_over(s)
    assert_first_and_ten(s, 1 - offence, KICKOFF[1 - offence])


@pytest.mark.parametrize("offence", [ONE, TWO])
def test_overtime_second_field_goal_wins(offence):
    # Ruling 29: two field goals win (6 >= 4), even after the other side has matched the first.
    for pts in ((3, 0), (3, 3)) if offence == ONE else ((0, 3), (3, 3)):
        s = kick_position(offence, fg_los(offence, 5), **ot(pts, score=(21 + pts[0], 21 + pts[1])))
        s, _ = act(s, "field goal", faces_for_total(18))
        assert int(s.overtime_points[0, offence]) == 6
        assert_won(s, offence)


def test_overtime_missed_field_goal_and_punt_still_give_the_ball_at_the_kickoff_spot():
    # Ruling 29: possessions alternate from kickoff spots, whatever ended the last one (not the LOS of a
    # missed kick, not where a punt lands).
    s = kick_position(ONE, fg_los(ONE, 5), **ot((0, 0)))
    s1, _ = act(s, "field goal", faces_for_total(3))
    assert_not_over(s1)
    assert_first_and_ten(s1, TWO, KICKOFF[TWO])
    s = kick_position(TWO, (12, 10), down=4, **ot((3, 0), score=(24, 21)))
    s2, _ = act(s, "punt 6", [2])
    assert_not_over(s2)
    assert_first_and_ten(s2, ONE, KICKOFF[ONE])


def test_overtime_turnover_on_downs_goes_to_the_kickoff_spot():
    # Ruling 29: possessions alternate from kickoff spots, after a turnover on downs too.
    s = build(tackle_position(ONE, (16, 9), (15, 9), down=4, **ot((0, 0))))
    s, _ = act(s, "move MLB N", [NO_FUMBLE])
    assert_not_over(s)
    assert_first_and_ten(s, TWO, KICKOFF[TWO])


# ================================================================================ ruling 30 / max_steps


def test_game_is_truncated_after_max_steps_agent_actions():
    # Ruling 30: the episode is truncated with no winner after max_steps agent actions (the engine's own
    # automatic turn ends and rolls do not count).
    config = GameConfig(specials=True, max_steps=3)
    s = gridiron_env.init(1, seed=3, config=config)
    for k in range(3):
        assert not bool(s.truncated[0]) and phase(s) != "game_over"
        legal = np.flatnonzero(s.legal[0])
        s = step(s, np.array([legal[0]]), config=config)
        check_invariants(s, check_mask=True, config=config)
        assert int(s.steps[0]) == k + 1
    assert bool(s.truncated[0]) and not bool(s.terminated[0])
    assert int(s.winner[0]) == -1
    assert phase(s) == "game_over" and not s.legal[0].any()
    assert not gridiron_env.legal_action_mask(s).any()


def test_a_win_on_the_last_allowed_step_is_a_win_not_a_truncation():
    # Ruling 30 with 28: terminated/winner are set on a win even on the step that reaches the cap.
    config = GameConfig(max_steps=10)
    s = kick_position(TWO, fg_los(TWO, 5), config=config, opener="one", score="0-18", drives="2-2")
    s.steps[:] = 9
    s, _ = act(s, "field goal", faces_for_total(18), config)
    assert int(s.steps[0]) == 10
    assert_won(s, TWO)


def test_a_finished_game_ignores_its_action_and_has_no_legal_actions():
    # After the game is over the legal mask is all False and stepping ignores the action (any id), while
    # the other games of the batch go on.
    s = kick_position(TWO, fg_los(TWO, 5), opener="one", score="0-18", drives="2-2")
    done, _ = act(s, "field goal", faces_for_total(18))
    assert_won(done, TWO)
    for a in (END_TURN, FIELD_GOAL, OFFENCE_FORMATION_IDS[0], gridiron_env.NUM_ACTIONS - 1):
        again = step(done, np.array([a]), chance=ScriptedChance([]))
        assert again.equals(done)
    live = build(pre_snap(ONE, (15, 9)))
    both = gridiron_env.State.concatenate([done, live])
    after = step(both, np.array([END_TURN, OFFENCE_FORMATION_IDS[0]]), chance=ScriptedChance([]))
    check_invariants(after)
    assert after.take(0).equals(done)
    assert phase(after, 1) == "defence_formation" and int(after.steps[1]) == 1
    assert not after.legal[0].any()


# ===================================================================================== GameConfig


BAD_VALUES = [
    ("target_score", 0, ("1", "99")), ("target_score", 100, ("1", "99")), ("target_score", 21.0, ("1", "99")),
    ("target_score", "21", ("1", "99")), ("target_score", True, ("1", "99")),
    ("specials", "yes", ("True", "False")), ("specials", 1, ("True", "False")), ("specials", None, ("True", "False")),
    ("kick_mode", "formula", ("dice", "paper")), ("kick_mode", "Dice", ("dice", "paper")),
    ("kick_mode", None, ("dice", "paper")),
    ("paper_answer_chance", 0, ("0", "1")), ("paper_answer_chance", 0.0, ("0", "1")),
    ("paper_answer_chance", 1.01, ("0", "1")), ("paper_answer_chance", -0.5, ("0", "1")),
    ("paper_answer_chance", float("nan"), ("0", "1")), ("paper_answer_chance", True, ("0", "1")),
    ("paper_answer_chance", "0.5", ("0", "1")),
    ("longest_punt", 0, ("1", "20")), ("longest_punt", 21, ("1", "20")), ("longest_punt", 12.0, ("1", "20")),
    ("max_rolls_per_down", 0, ("1", "100")), ("max_rolls_per_down", 101, ("1", "100")),
    ("max_rolls_per_down", False, ("1", "100")),
    ("max_steps", 0, ("1", "1000000")), ("max_steps", 1_000_001, ("1", "1000000")),
    ("max_steps", -5, ("1", "1000000")),
]


@pytest.mark.parametrize("field,value,allowed", BAD_VALUES)
def test_game_config_rejects_a_bad_value_naming_the_field_and_what_is_allowed(field, value, allowed):
    with pytest.raises(ValueError) as err:
        GameConfig(**{field: value})
    message = str(err.value)
    assert field in message
    for word in allowed:
        assert word in message
    # The same check guards replace and from_dict.
    with pytest.raises(ValueError, match=field):
        GameConfig().replace(**{field: value})
    with pytest.raises(ValueError, match=field):
        GameConfig.from_dict({field: value})


def test_every_game_config_field_is_covered_by_the_bad_value_table():
    assert {f.name for f in dataclasses.fields(GameConfig)} == {field for field, _, _ in BAD_VALUES}


@pytest.mark.parametrize("field,value", [
    ("target_score", 1), ("target_score", 99), ("specials", False), ("kick_mode", "paper"),
    ("paper_answer_chance", 1), ("paper_answer_chance", 1e-9), ("longest_punt", 1), ("longest_punt", 20),
    ("max_rolls_per_down", 1), ("max_rolls_per_down", 100), ("max_steps", 1), ("max_steps", 1_000_000),
])
def test_game_config_accepts_the_edges(field, value):
    assert getattr(GameConfig(**{field: value}), field) == value


def test_game_config_from_dict_rejects_unknown_fields_and_round_trips():
    with pytest.raises(ValueError) as err:
        GameConfig.from_dict({"target_score": 21, "overtime_rule": "sudden death"})
    assert "overtime_rule" in str(err.value)
    assert "target_score" in str(err.value)  # it says what is allowed
    cfg = GameConfig(target_score=35, specials=False, kick_mode="paper", paper_answer_chance=0.5,
                     longest_punt=9, max_rolls_per_down=7, max_steps=123)
    assert GameConfig.from_dict(dataclasses.asdict(cfg)) == cfg
    assert GameConfig.from_dict({}) == GameConfig()
