"""Movement rules through the engine: dice and turns (rulings 10-12), moves, blocks and tackles (13-15),
downs (6), pushes (16), gap runs (17), Lead Blocker (24) and touchdowns by a move (rule 4), plus the action
names.

Every scenario is built from a diagram (rulebook numbering: rows 1-30 from the top, lanes 1-18). Team one
attacks up the diagram (rows 1-3), team two down (rows 28-30). Players a scenario does not need are parked
by ``position`` on two far rows, so that all 22 are on the field as the engine expects. Random outcomes are
injected with ``ScriptedChance`` (a die face f is the outcome f - 1); ``act`` also checks that every
scripted outcome was used, so an unexpected or missing draw fails the test.
"""

from __future__ import annotations

import itertools
import textwrap

import numpy as np
import pytest

from gridiron_env import GameConfig, IllegalActionError, action_id, action_name, step, to_diagram
from gridiron_env.core.actions import ACTION_NAMES, FOLLOW_BASE, GAP_BASE, NUM_ACTIONS
from gridiron_env.core.chance import ScriptedChance
from gridiron_env.core.geometry import TAGS
from gridiron_env.core.invariants import check_invariants
from gridiron_env.core.state import PHASE_NAMES, State
from gridiron_env.core.scenario import position

from conftest import legal  # noqa: E402

pytestmark = pytest.mark.usefixtures("engine_path")  # every rule test over both step paths

CFG = GameConfig()
TEAM = {"one": 0, "two": 1}

# Team one's frame is the diagram itself: N is up (row - 1), E is right (lane + 1). Team two's frame is the
# half turn, so each of its deltas is negated (rule 1: "forward" is toward the end zone the team scores in).
DELTA = {"N": (-1, 0), "NE": (-1, 1), "E": (0, 1), "SE": (1, 1),
         "S": (1, 0), "SW": (1, -1), "W": (0, -1), "NW": (-1, -1)}


# ------------------------------------------------------------------------------------------------ helpers



def board_row(row: int, cells: dict) -> str:
    """One diagram board row (for scenarios parametrized by a square): ``cells`` maps lane -> cell."""
    return f"{row:>3} | " + "".join((cells.get(lane, ".") + " ").ljust(4) for lane in range(1, 19)).rstrip()


def act(s: State, name: str, *outcomes: int, config: GameConfig = CFG, draws: list | None = None) -> State:
    """Step game 0 with the action ``name``; the scripted outcomes must all be used, and no more drawn."""
    a = action_id(name)
    legal_names = [ACTION_NAMES[i] for i in np.flatnonzero(s.legal[0])]
    assert s.legal[0, a], f"{name!r} should be legal; legal: {legal_names}\n{to_diagram(s)}"
    chance = ScriptedChance(outcomes)
    out = step(s, a, config=config, chance=chance)
    assert chance.queue == [], f"outcomes {chance.queue} were not drawn; draws: {chance.log}"
    check_invariants(out, check_mask=True, config=config)
    if draws is not None:
        draws.extend(what for what, _ in chance.log)
    return out


def assert_illegal(s: State, name: str, config: GameConfig = CFG) -> None:
    a = action_id(name)
    assert not s.legal[0, a], f"{name!r} should be illegal\n{to_diagram(s)}"
    with pytest.raises(IllegalActionError):
        step(s, a, config=config, chance=ScriptedChance([]))



def at(s: State, tag: str) -> tuple[int, int]:
    """(row, lane) of a player, in diagram numbering."""
    sq = int(s.player_square[0, TAGS.index(tag)])
    assert sq >= 0, f"{tag} is not on the field"
    return sq // 18 + 1, sq % 18 + 1


def pts(s: State) -> tuple[int, int]:
    """Die points of (team one, team two)."""
    return int(s.points[0, 0]), int(s.points[0, 1])


def phase(s: State) -> str:
    return PHASE_NAMES[int(s.phase[0])]


def snap(s: State) -> dict:
    """Where the next down starts, in diagram numbering."""
    return {"offence": int(s.offence[0]), "down": int(s.down[0]), "los_row": int(s.los_row[0]) + 1,
            "los_lane": int(s.los_lane[0]) + 1, "line_to_gain": int(s.line_to_gain[0]) + 1}


def face(*faces: int) -> list[int]:
    """Scripted outcomes for die faces."""
    return [f - 1 for f in faces]


def any_follow(s: State) -> bool:
    return bool(s.legal[0, FOLLOW_BASE:FOLLOW_BASE + len(TAGS)].any())


# ---------------------------------------------------------------------------------------- rule 10: dice


def rule10_points(off, dfn):
    """Rule 10, written independently: the side with the higher high die moves it, the other its low die;
    on a tie both move their high die."""
    oh, ol, dh, dl = max(off), min(off), max(dfn), min(dfn)
    if oh > dh:
        return oh, dl
    if dh > oh:
        return ol, dh
    return oh, dh


@pytest.mark.parametrize("offence", ["one", "two"])
@pytest.mark.parametrize("carried", [(0, 0), (3, 5), (8, 7)], ids=["fresh", "carry", "full"])
def test_rule10_points_from_every_roll(offence, carried):
    # Rule 10: points = min(8, rolled + carried); checked for all 6^4 rolls at once (one game per roll).
    o = TEAM[offence]
    by_team = carried if o == 0 else carried[::-1]  # ``carried`` is (offence, defence)
    s = position(f"""
        offence: {offence}
        to act: {"two" if o == 0 else "one"}
        line of scrimmage: row 16 lane 9
        points: {by_team[0]}-{by_team[1]}
        board:
         12 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         17 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """)
    rolls = list(itertools.product(range(1, 7), repeat=4))  # offence die 1, die 2, defence die 1, die 2
    batch = State.concatenate([s] * len(rolls))
    chance = ScriptedChance([f - 1 for r in rolls for f in r])
    out = step(batch, np.full(len(rolls), action_id("end turn")), config=CFG, chance=chance)
    assert chance.queue == [] and [w for w, _ in chance.log] == ["dice"] * len(rolls)
    check_invariants(out)
    expected = np.array([rule10_points(r[:2], r[2:]) for r in rolls])
    assert np.array_equal(out.points[:, o], np.minimum(8, carried[0] + expected[:, 0]))
    assert np.array_equal(out.points[:, 1 - o], np.minimum(8, carried[1] + expected[:, 1]))
    assert np.array_equal(out.dice[:, o], np.array([sorted(r[:2], reverse=True) for r in rolls]))
    assert np.array_equal(out.dice[:, 1 - o], np.array([sorted(r[2:], reverse=True) for r in rolls]))
    assert (out.to_act == o).all() and (out.rolls == 2).all()


def test_rule10_unspent_points_carry_to_the_next_roll():
    # Rule 10: "Points a side does not spend carry over to its next roll in the same down."
    s = position("""
        offence: one
        to act: two
        line of scrimmage: row 16 lane 9
        points: 0-0
        board:
         12 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         17 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """)
    s = act(s, "end turn", *face(5, 2, 4, 3))  # offence high 5 beats 4: offence 5, defence its low 3
    assert pts(s) == (5, 3)
    s = act(s, "move H N")
    s = act(s, "move H N")
    assert pts(s) == (3, 3)
    s = act(s, "end turn")
    s = act(s, "move MLB N")  # team two's N is down the diagram
    assert at(s, "MLB") == (13, 9) and pts(s) == (3, 2)
    s = act(s, "end turn", *face(1, 1, 2, 1))  # defence high 2 beats 1: offence its low 1, defence 2
    assert pts(s) == (3 + 1, 2 + 2)


def test_rule10_points_are_capped_at_8():
    # Rule 10: "the points available at a roll are min(8, rolled + carried)".
    s = position("""
        offence: one
        to act: two
        line of scrimmage: row 16 lane 9
        points: 7-6
        board:
         12 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         17 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """)
    s = act(s, "end turn", *face(6, 5, 6, 2))  # tie on 6: both move 6
    assert pts(s) == (8, 8)


def test_rule10_carry_over_ends_with_the_down():
    # Rule 10: "Carry-over ends with the down." The offence has 5 unspent points and the defence 4 after
    # its tackle; the first roll of the next down gives exactly the rolled points.
    s = position("""
        offence: one
        to act: two
        line of scrimmage: row 22 lane 9
        points: 5-5
        board:
         22 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         23 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """)
    s = act(s, "move MLB N", 1)  # the tackle (fumble roll 1: no fumble)
    assert phase(s) == "offence_formation" and pts(s) == (0, 0)
    s = act(s, "formation i_form")
    s = act(s, "formation four_three", 0, 0, 0, 0, 0, *face(2, 1, 1, 1))  # strong linemen, then the dice
    assert phase(s) == "play" and int(s.down[0]) == 2
    assert pts(s) == (2, 1)  # offence high 2 beats 1: offence 2, defence its low 1; nothing carried


# ------------------------------------------------------------------------------------- rule 11: turns


@pytest.mark.parametrize("offence", ["one", "two"])
def test_rule11_offence_then_defence_then_a_new_roll(offence):
    # Rule 11: "A round is the offence's turn, then the defence's turn ... After both turns, the dice roll
    # again."
    o = TEAM[offence]
    s = position(f"""
        offence: {offence}
        to act: {offence}
        line of scrimmage: row 16 lane 9
        points: {"3-2" if o == 0 else "2-3"}
        board:
         12 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         17 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """)
    assert legal(s, "move H N") and not any(legal(s, f"move MLB {d}") for d in DELTA)
    assert_illegal(s, "move MLB N")
    draws = []
    s = act(s, "end turn", draws=draws)
    assert draws == [] and int(s.to_act[0]) == 1 - o and int(s.rolls[0]) == 1
    assert pts(s)[o] == 3 and pts(s)[1 - o] == 2  # ending a turn changes no points
    assert legal(s, "move MLB N") and not any(legal(s, f"move H {d}") for d in DELTA)
    assert_illegal(s, "move H N")
    s = act(s, "end turn", *face(1, 1, 1, 1), draws=draws)
    assert draws == ["dice"] and int(s.to_act[0]) == o and int(s.rolls[0]) == 2
    assert pts(s)[o] == 3 + 1 and pts(s)[1 - o] == 2 + 1


def test_rule11_engine_ends_a_turn_when_end_turn_is_the_only_legal_action():
    # Rule 11: "When End turn is its only legal action the engine ends the turn itself." The offence spends
    # its last point; the defence (3 points) is then to act, with nothing drawn.
    s = position("""
        offence: one
        to act: one
        line of scrimmage: row 16 lane 9
        points: 1-3
        board:
         12 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         17 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """)
    draws = []
    s = act(s, "move H N", draws=draws)
    assert draws == [] and pts(s) == (0, 3)
    assert int(s.to_act[0]) == 1 and phase(s) == "play" and legal(s, "move MLB N")


def test_rule11_both_turns_ended_by_the_engine_rolls_again_in_the_same_step():
    # Rule 11: the offence spends its last point and the defence has none: both turns end and the dice
    # roll again inside the same step.
    s = position("""
        offence: one
        to act: one
        line of scrimmage: row 16 lane 9
        points: 1-0
        board:
         12 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         17 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """)
    draws = []
    s = act(s, "move H N", *face(3, 2, 1, 1), draws=draws)
    assert draws == ["dice"] and int(s.rolls[0]) == 2 and int(s.to_act[0]) == 0
    assert pts(s) == (3, 1) and at(s, "H") == (16, 9)


def test_rule11_a_free_handoff_keeps_the_turn_open():
    # Rule 11 edge: with 0 points the offence can still hand off for free (rule 18), so End turn is not its
    # only legal action and the engine must not end its turn.
    s = position("""
        offence: one
        to act: one
        line of scrimmage: row 16 lane 9
        points: 1-3
        board:
         12 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   .   F   .   .   .   .   .   .   .   .
         17 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """)
    s = act(s, "move H N")  # H now stands beside F on the same row
    assert pts(s) == (0, 3) and int(s.to_act[0]) == 0 and phase(s) == "play"
    assert legal(s, "throw F") and legal(s, "end turn")


def board_rows(cells: dict) -> str:
    """Diagram board rows for ``cells`` {(row, lane): cell}, one line per row used, in row order."""
    by_row: dict = {}
    for (row, lane), cell in cells.items():
        by_row.setdefault(row, {})[lane] = cell
    return "\n".join(board_row(row, by_row[row]) for row in sorted(by_row))


# Where F stands, as (rows, lanes) from the carrier's first square in the offence's frame (row - 1 is
# forward for team one); the carrier then moves one square forward.
HANDOFF_MATE = {"ahead": (-2, 0), "beside": (-1, 1), "behind": (0, 1)}


@pytest.mark.parametrize("offence", ["one", "two"])
@pytest.mark.parametrize("mate", ["ahead", "beside", "behind"])
def test_rule11_with_no_points_left_only_a_handoff_keeps_the_turn(offence, mate):
    # Rules 11 and 18: with its last point spent the offence can still hand off for free to a teammate
    # beside or behind the carrier. A teammate ahead could only be thrown a forward pass (2 points): End
    # turn is then the only legal action, and the engine ends the turn, drawing nothing.
    o = TEAM[offence]
    forward = -1 if o == 0 else 1  # team two's frame is the half turn: both deltas negated
    carrier_row = 17 if o == 0 else 14
    d_row, d_lane = HANDOFF_MATE[mate]
    cells = {(carrier_row, 9): "H@", (carrier_row - forward * d_row, 9 - forward * d_lane): "F",
             (12 if o == 0 else 19, 9): "MLB"}
    s = position(f"""
        offence: {offence}
        to act: {offence}
        line of scrimmage: row 16 lane 9
        points: {"1-3" if o == 0 else "3-1"}
        board:
{textwrap.indent(board_rows(cells), " " * 8)}
    """)
    draws = []
    s = act(s, "move H N", draws=draws)
    assert draws == [] and pts(s)[o] == 0 and phase(s) == "play"
    if mate == "ahead":
        assert int(s.to_act[0]) == 1 - o and legal(s, "move MLB N")
    else:
        assert int(s.to_act[0]) == o and legal(s, "throw F") and legal(s, "end turn")
        assert not any(legal(s, f"move {tag} {d}") for tag in ("H", "F") for d in DELTA)


@pytest.mark.parametrize("teammate_beside", [True, False])
def test_rule11_with_no_points_left_a_lead_blocker_follow_keeps_the_turn(teammate_beside):
    # Rules 11 and 24: the offence spends its last point moving X; a teammate beside the square X left may
    # still follow into it for free, so the turn stays open. When only X himself stands beside it (he
    # cannot follow his own move), nothing is left and the engine ends the turn.
    cells = {(20, 3): "H@", (16, 9): "X", (17, 9) if teammate_beside else (18, 14): "F", (12, 9): "MLB"}
    s = position(f"""
        offence: one
        to act: one
        line of scrimmage: row 16 lane 9
        specials: lead_blocker -
        points: 1-3
        board:
{textwrap.indent(board_rows(cells), " " * 8)}
    """)
    draws = []
    s = act(s, "move X N", draws=draws)
    assert draws == [] and pts(s) == (0, 3) and phase(s) == "play"
    if teammate_beside:
        assert int(s.to_act[0]) == 0 and legal(s, "follow F") and not legal(s, "follow X")
        s = act(s, "follow F")
        assert at(s, "F") == (16, 9) and int(s.to_act[0]) == 1  # the follow spent, the turn ends
    else:
        assert int(s.to_act[0]) == 1 and not any_follow(s)


# --------------------------------------------------------------------------------- rule 12: rolls cap


@pytest.mark.parametrize("max_rolls", [2, 12])
def test_rule12_no_roll_past_the_cap_ball_dead_where_it_is(max_rolls):
    # Rule 12: "a cap on rolls in one down, after which the ball is dead where it is". The down has had
    # max_rolls - 1 rolls: one more roll happens, then no more; the next down starts at the carrier's row
    # (lane 4 moved into the hash band, rule 5).
    cfg = GameConfig(max_rolls_per_down=max_rolls)
    s = position(f"""
        offence: one
        to act: one
        line of scrimmage: row 16 lane 9
        down: 2
        rolls: {max_rolls - 1}
        points: 3-3
        board:
         12 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         15 | .   .   .   H@  .   .   .   .   .   .   .   .   .   .   .   .   .   .
    """, config=cfg)
    draws = []
    s = act(s, "end turn", config=cfg, draws=draws)
    s = act(s, "end turn", *face(1, 1, 1, 1), config=cfg, draws=draws)
    assert draws == ["dice"] and int(s.rolls[0]) == max_rolls and phase(s) == "play"
    s = act(s, "end turn", config=cfg, draws=draws)
    s = act(s, "end turn", config=cfg, draws=draws)  # no outcomes scripted: no dice may be rolled
    assert draws == ["dice"]
    assert phase(s) == "offence_formation" and pts(s) == (0, 0)
    assert snap(s) == {"offence": 0, "down": 3, "los_row": 15, "los_lane": 8, "line_to_gain": 13}


def test_rule12_roll_cap_past_the_line_to_gain_is_a_first_down():
    # Rules 12 and 6: a ball dead by the cap on or past the line to gain earns a first down.
    cfg = GameConfig(max_rolls_per_down=3)
    s = position("""
        offence: one
        to act: two
        line of scrimmage: row 16 lane 9
        down: 3
        rolls: 3
        points: 3-3
        board:
         11 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         13 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """, config=cfg)
    s = act(s, "end turn", config=cfg)
    assert snap(s) == {"offence": 0, "down": 1, "los_row": 13, "los_lane": 9, "line_to_gain": 10}


def test_rule12_roll_cap_in_own_end_zone_is_a_safety():
    # Rules 12 and 15 (decided as American football would): a carrier whose ball is dead by the cap in the
    # end zone his team defends has given up a safety; team two scores 2 and receives at its kickoff spot.
    cfg = GameConfig(max_rolls_per_down=3)
    s = position("""
        offence: one
        to act: two
        line of scrimmage: row 27 lane 9
        rolls: 3
        points: 3-3
        board:
         25 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         28 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """, park=(5, 7), config=cfg)
    s = act(s, "end turn", config=cfg)
    assert tuple(s.score[0]) == (0, 2)
    assert snap(s) == {"offence": 1, "down": 1, "los_row": 9, "los_lane": 10, "line_to_gain": 12}


# ------------------------------------------------------------------------------------ rule 13: moves


POSITION_COSTS = """
    offence: one
    to act: one
    line of scrimmage: row 16 lane 9
    points: 8-3
    specials: {specials}
    board:
     17 | .   .   X@  .   .   .   .   .   H   .   .   .   .   .   .   .   .   .
     20 | .   .   .   .   .   .   .   .   QB  .   .   .   .   .   .   .   .   .
"""


@pytest.mark.parametrize("direction", DELTA)
@pytest.mark.parametrize("tag, specials, base", [
    ("H", "- -", 1), ("QB", "- -", 2), ("QB", "speedy_qb -", 1), ("QB", "- speedy_qb", 2),
], ids=["back", "qb", "speedy-qb", "qb-other-team-speedy"])
def test_rule13_move_cost(tag, specials, base, direction):
    # Rule 13: "Cost: 1 orthogonal, 2 diagonal; the quarterback pays double (2 and 4) unless his team has
    # Speedy QB." The opponent's Speedy QB does not help this quarterback.
    s = position(POSITION_COSTS.format(specials=specials))
    row, lane = at(s, tag)
    s = act(s, f"move {tag} {direction}")
    dr, dl = DELTA[direction]
    assert at(s, tag) == (row + dr, lane + dl)
    assert pts(s) == (8 - base * (2 if dr and dl else 1), 3)


@pytest.mark.parametrize("tag, specials, points, direction, ok", [
    ("H", "- -", 1, "N", True), ("H", "- -", 1, "NE", False), ("H", "- -", 2, "SW", True),
    ("QB", "- -", 1, "N", False), ("QB", "- -", 2, "S", True), ("QB", "- -", 3, "NW", False),
    ("QB", "- -", 4, "NW", True), ("QB", "speedy_qb -", 1, "N", True), ("QB", "speedy_qb -", 1, "NE", False),
    ("QB", "speedy_qb -", 2, "SE", True),
])
def test_rule13_not_enough_points_is_illegal(tag, specials, points, direction, ok):
    # Rule 13: a move costing more than the side's points is illegal; one costing exactly them is legal.
    s = position(POSITION_COSTS.format(specials=specials).replace("points: 8-3", f"points: {points}-3"))
    if ok:
        s = act(s, f"move {tag} {direction}")
        assert pts(s) == (0, 3)
    else:
        assert_illegal(s, f"move {tag} {direction}")


@pytest.mark.parametrize("direction", DELTA)
@pytest.mark.parametrize("offence, actor, tag", [
    ("one", "one", "H"), ("one", "two", "MLB"), ("two", "two", "H"), ("two", "one", "MLB"),
], ids=["team-one-offence", "team-two-defence", "team-two-offence", "team-one-defence"])
def test_rule13_directions_are_in_the_acting_teams_frame(offence, actor, tag, direction):
    # Rule 1 / actions: N is toward the end zone the acting team scores in. Team two's frame is the half
    # turn: its N goes to a higher row, its E toward lane 1 - for its offence and its defence alike.
    s = position(f"""
        offence: {offence}
        to act: {actor}
        line of scrimmage: row 16 lane 9
        points: 8-8
        board:
         12 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         17 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """)
    sign = 1 if actor == "one" else -1
    row, lane = at(s, tag)
    s = act(s, f"move {tag} {direction}")
    dr, dl = DELTA[direction]
    assert at(s, tag) == (row + sign * dr, lane + sign * dl)
    assert pts(s)[TEAM[actor]] == 8 - (2 if dr and dl else 1)


# --------------------------------------------------------------------- rule 14: occupied squares


# MLB (team two, defending) at 14,9. Team two's directions: N = 15,9 (weak C), NE = 15,8 (strong LG),
# NW = 15,10 (Y, a tight end: a back), S = 13,9 (QB, not carrying), SE = 13,8 (H, a back, not carrying),
# W = 14,10 (SLB, a team-mate), E = 14,8 and SW = 13,10 empty. RCB stands beside the carrier Z.
POSITION_BLOCKS = """
    offence: one
    to act: {to_act}
    line of scrimmage: row 16 lane 9
    strong: LG
    points: {points}
    board:
     13 | .   .   .   .   .   .   .   H   QB  .   .   .   .   .   .   .   .   .
     14 | .   .   .   .   .   .   .   .   MLB SLB .   .   .   .   .   .   .   .
     15 | .   .   .   .   .   .   .   LG  C   Y   .   .   .   .   .   .   .   .
     18 | .   .   .   .   .   .   .   .   .   .   .   .   .   .   RCB .   .   .
     19 | .   .   .   .   .   .   .   .   .   .   .   .   .   .   Z@  .   .   .
"""


def test_rule14_which_occupied_squares_a_defender_may_enter():
    # Rule 14: "No player moves onto an occupied square, except: a defender moving onto the ball carrier
    # tackles him; a defender moving onto a weak lineman ... swap squares. Otherwise a defender never moves
    # onto a strong lineman, or onto a back or quarterback who is not carrying the ball."
    s = position(POSITION_BLOCKS.format(to_act="two", points="0-8"))
    allowed = {d for d in DELTA if legal(s, f"move MLB {d}")}
    assert allowed == {"N", "E", "SW"}
    for d in ("NE", "NW", "S", "SE", "W"):
        assert_illegal(s, f"move MLB {d}")
    assert legal(s, "move RCB N")  # onto the carrier: a tackle


def test_rule14_defender_through_a_weak_lineman_pays_2_and_they_swap():
    # Rule 14: "a defender moving onto a weak lineman pays 2 points (instead of the move's cost) and the two
    # swap squares." An orthogonal move would cost 1.
    s = position(POSITION_BLOCKS.format(to_act="two", points="0-8"))
    s = act(s, "move MLB N")
    assert at(s, "MLB") == (15, 9) and at(s, "C") == (14, 9)
    assert pts(s) == (0, 6) and phase(s) == "play" and int(s.ball_holder[0]) == TAGS.index("Z")


def test_rule14_swap_needs_2_points():
    # Rule 14: the swap costs 2, so a defender with 1 point cannot go through a weak lineman.
    s = position(POSITION_BLOCKS.format(to_act="two", points="0-1"))
    assert_illegal(s, "move MLB N")
    assert legal(s, "move MLB E")


def test_rule14_offence_never_moves_onto_an_occupied_square():
    # Rule 14: "No player moves onto an occupied square": not a team-mate, not a defender, and the carrier
    # cannot run onto a defender either.
    s = position(POSITION_BLOCKS.format(to_act="one", points="8-0"))
    assert_illegal(s, "move C N")  # MLB
    assert_illegal(s, "move C W")  # LG
    assert_illegal(s, "move LG E")  # C
    assert_illegal(s, "move Z N")  # RCB
    assert_illegal(s, "move QB S")  # MLB
    assert legal(s, "move C S") and legal(s, "move Z S")


def test_rule14_a_weak_lineman_carrying_the_ball_is_tackled_not_swapped():
    # Rules 14-15 edge: the exception for the carrier comes first: a defender moving onto a weak lineman
    # who carries the ball (after a handoff) tackles him, paying the move's cost.
    s = position("""
        offence: one
        to act: two
        line of scrimmage: row 16 lane 9
        points: 0-8
        board:
         14 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         15 | .   .   .   .   .   .   .   .   C@  .   .   .   .   .   .   .   .   .
    """)
    draws = []
    s = act(s, "move MLB N", 1, draws=draws)
    assert draws == ["tackle fumble"] and phase(s) == "offence_formation"
    assert snap(s) == {"offence": 0, "down": 2, "los_row": 15, "los_lane": 9, "line_to_gain": 13}


# ------------------------------------------------------------------------------------ rule 15: tackles


@pytest.mark.parametrize("lane", [1, 3, 8, 9, 10, 11, 12, 18])
def test_rule15_tackle_ends_the_play_at_the_carriers_square(lane):
    # Rule 15: "A tackle ends the play at the carrier's square"; rule 5: the next LOS is that row, the
    # ball's lane moved into the hash band (lanes 8-11).
    s = position(f"""
        offence: one
        to act: two
        line of scrimmage: row 16 lane 9
        points: 3-5
        board:
        {board_row(14, {lane: 'MLB'})}
        {board_row(15, {lane: 'H@'})}
    """)
    draws = []
    s = act(s, "move MLB N", 1, draws=draws)  # fumble roll 1 of 20: no fumble
    assert draws == ["tackle fumble"]
    assert phase(s) == "offence_formation" and int(s.to_act[0]) == 0 and pts(s) == (0, 0)
    assert snap(s) == {"offence": 0, "down": 2, "los_row": 15, "los_lane": min(11, max(8, lane)),
                       "line_to_gain": 13}


def test_rule15_diagonal_tackle_costs_the_diagonal_move():
    # Rules 13-15: the tackle is "the move onto his square": diagonally that costs 2, so 1 point is not
    # enough, 2 are.
    text = """
        offence: one
        to act: two
        line of scrimmage: row 16 lane 9
        points: 0-{p}
        board:
         14 | .   .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .
         15 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """
    assert_illegal(position(text.format(p=1)), "move MLB NE")  # team two's NE is row + 1, lane - 1
    s = act(position(text.format(p=2)), "move MLB NE", 1)
    assert snap(s)["los_row"] == 15 and snap(s)["down"] == 2


def test_rule15_tackled_in_own_end_zone_team_one_is_a_safety():
    # Rule 15: "Tackled in the end zone his own team defends: safety, 2 points to the other team"; rule 4:
    # the team that scored it receives at its kickoff spot (team two: row 9, lane 10).
    s = position("""
        offence: one
        to act: two
        line of scrimmage: row 27 lane 9
        drives: 1-0
        points: 0-3
        board:
         28 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         29 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """, park=(5, 7))
    s = act(s, "move MLB N", 1)
    assert tuple(s.score[0]) == (0, 2) and tuple(s.drives[0]) == (1, 1)
    assert phase(s) == "offence_formation" and int(s.to_act[0]) == 1
    assert snap(s) == {"offence": 1, "down": 1, "los_row": 9, "los_lane": 10, "line_to_gain": 12}


def test_rule15_tackled_in_own_end_zone_team_two_is_a_safety():
    # Rule 15 for team two, which defends rows 1-3: team one scores 2 and receives at row 22, lane 9.
    s = position("""
        offence: two
        to act: one
        line of scrimmage: row 4 lane 10
        drives: 1-1
        points: 3-0
        board:
          2 | .   .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .
          3 | .   .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .
    """)
    s = act(s, "move MLB N", 1)  # team one's N is up the diagram
    assert tuple(s.score[0]) == (2, 0) and tuple(s.drives[0]) == (2, 1)
    assert snap(s) == {"offence": 0, "down": 1, "los_row": 22, "los_lane": 9, "line_to_gain": 19}


# -------------------------------------------------------------------------------------- rule 6: downs


@pytest.mark.parametrize("down, carrier_row, expected", [
    (1, 14, {"offence": 0, "down": 2, "los_row": 14, "los_lane": 9, "line_to_gain": 13}),  # short
    (1, 13, {"offence": 0, "down": 1, "los_row": 13, "los_lane": 9, "line_to_gain": 10}),  # on the line
    (1, 12, {"offence": 0, "down": 1, "los_row": 12, "los_lane": 9, "line_to_gain": 9}),  # past it
    (3, 17, {"offence": 0, "down": 4, "los_row": 17, "los_lane": 9, "line_to_gain": 13}),  # a loss
    (4, 13, {"offence": 0, "down": 1, "los_row": 13, "los_lane": 9, "line_to_gain": 10}),  # 4th, gained
    (4, 14, {"offence": 1, "down": 1, "los_row": 14, "los_lane": 9, "line_to_gain": 17}),  # turnover
    (4, 18, {"offence": 1, "down": 1, "los_row": 18, "los_lane": 9, "line_to_gain": 21}),  # turnover
], ids=["short", "on-line", "past", "loss", "4th-gained", "4th-short", "4th-loss"])
def test_rule6_downs_team_one(down, carrier_row, expected):
    # Rule 6: "The offence earns a new series when the ball is dead on or past that row" (the new line 3
    # rows ahead); otherwise the next down, and a failed 4th down gives the other team first-and-ten at
    # the spot, its line to gain 3 rows forward in its own direction.
    s = position(f"""
        offence: one
        to act: two
        line of scrimmage: row 16 lane 9
        line to gain: row 13
        down: {down}
        drives: 1-0
        points: 0-3
        board:
        {board_row(carrier_row - 1, {9: 'MLB'})}
        {board_row(carrier_row, {9: 'H@'})}
    """)
    s = act(s, "move MLB N", 1)
    assert snap(s) == expected
    assert phase(s) == "offence_formation" and int(s.to_act[0]) == expected["offence"]
    assert tuple(s.drives[0]) == ((1, 1) if expected["offence"] == 1 else (1, 0))


@pytest.mark.parametrize("down, carrier_row, expected", [
    (1, 17, {"offence": 1, "down": 2, "los_row": 17, "los_lane": 10, "line_to_gain": 18}),
    (2, 18, {"offence": 1, "down": 1, "los_row": 18, "los_lane": 10, "line_to_gain": 21}),
    (4, 17, {"offence": 0, "down": 1, "los_row": 17, "los_lane": 10, "line_to_gain": 14}),
], ids=["short", "on-line", "4th-short"])
def test_rule6_downs_team_two(down, carrier_row, expected):
    # Rule 6 for team two, which drives down the diagram.
    s = position(f"""
        offence: two
        to act: one
        line of scrimmage: row 15 lane 10
        down: {down}
        drives: 1-1
        points: 3-0
        board:
        {board_row(carrier_row, {10: 'H@'})}
        {board_row(carrier_row + 1, {10: 'MLB'})}
    """)
    s = act(s, "move MLB N", 1)
    assert snap(s) == expected


def test_rule6_line_to_gain_in_the_end_zone_is_kept():
    # Rule 6: "If that row is in the end zone, only a touchdown gains." Tackled on row 4 (the last row of the
    # field) with the line to gain on row 2: next down, and the line stays in the end zone.
    s = position("""
        offence: one
        to act: two
        line of scrimmage: row 5 lane 9
        line to gain: row 2
        points: 0-3
        board:
          3 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
          4 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """)
    s = act(s, "move MLB N", 1)
    assert snap(s) == {"offence": 0, "down": 2, "los_row": 4, "los_lane": 9, "line_to_gain": 2}


def test_rule6_new_series_near_the_goal_puts_the_line_in_the_end_zone():
    # Rule 6: the line to gain is 3 rows forward of the LOS "at the start of a series", even in the end zone.
    s = position("""
        offence: one
        to act: two
        line of scrimmage: row 9 lane 9
        points: 0-3
        board:
          5 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
          6 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """)
    s = act(s, "move MLB N", 1)
    assert snap(s) == {"offence": 0, "down": 1, "los_row": 6, "los_lane": 9, "line_to_gain": 3}


def test_rule6_with_the_line_in_the_end_zone_only_a_touchdown_gains():
    # Rule 6: the carrier crossing into the end zone scores (it is not a first down).
    s = position("""
        offence: one
        to act: one
        line of scrimmage: row 4 lane 9
        line to gain: row 1
        down: 4
        points: 3-0
        board:
          4 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """)
    s = act(s, "move H N", 0)  # PAT good
    assert tuple(s.score[0]) == (7, 0) and int(s.offence[0]) == 1


# ------------------------------------------------------------------------------------- rule 16: push


def push_position(rows: str, points="8-0", specials="- -", strong="-", los=16, offence="one") -> State:
    return position(f"""
        offence: {offence}
        to act: {offence}
        line of scrimmage: row {los} lane 9
        points: {points}
        specials: {specials}
        strong: {strong}
        board:
        {rows}
    """)


PUSH_STRAIGHT = """
         15 | .   .   .   .   .   .   .   .   Y   .   .   .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
"""
PUSH_NE = """
         15 | .   .   .   .   .   .   .   .   .   Y   .   .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
"""
PUSH_NW = """
         15 | .   .   .   .   .   .   .   Y   .   .   .   .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
"""
PUSH_LINE = """
         14 | .   .   .   .   .   .   .   .   X   .   .   .   .   .   .   .   .   .
         15 | .   .   .   .   .   .   .   .   Y   .   .   .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   F   .   .   .   .   .   .   .   .   .
         17 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
"""
SHOVE = """
         15 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   C   .   .   .   .   .   .   .   .   .
         17 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
"""
SHOVE_NE = """
         15 | .   .   .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   .   C   .   .   .   .   .   .   .   .
         17 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
"""
SHOVE_THEN_TEAMMATE = """
         14 | .   .   .   .   .   .   .   .   Y   .   .   .   .   .   .   .   .   .
         15 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   C   .   .   .   .   .   .   .   .   .
         17 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
"""
QB_STRAIGHT = """
         15 | .   .   .   .   .   .   .   .   Y   .   .   .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   QB@ .   .   .   .   .   .   .   .   .
"""
QB_NE = """
         15 | .   .   .   .   .   .   .   .   .   Y   .   .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   QB@ .   .   .   .   .   .   .   .   .
"""
QB_SHOVE = """
         15 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   C   .   .   .   .   .   .   .   .   .
         17 | .   .   .   .   .   .   .   .   QB@ .   .   .   .   .   .   .   .   .
"""


@pytest.mark.parametrize("rows, pushed, specials, moved, cost", [
    (PUSH_STRAIGHT, "Y", "- -", {"H": (15, 9), "Y": (14, 9)}, 1),
    (PUSH_NE, "Y", "- -", {"H": (15, 10), "Y": (14, 11)}, 2),
    (PUSH_NW, "Y", "- -", {"H": (15, 8), "Y": (14, 7)}, 2),
    (PUSH_LINE, "F", "- -", {"H": (16, 9), "F": (15, 9), "Y": (14, 9), "X": (13, 9)}, 1),
    (SHOVE, "C", "- -", {"H": (16, 9), "C": (15, 9), "MLB": (14, 9)}, 2),
    (SHOVE_NE, "C", "- -", {"H": (16, 10), "C": (15, 11), "MLB": (14, 12)}, 4),
    (SHOVE_THEN_TEAMMATE, "C", "- -", {"H": (16, 9), "C": (15, 9), "MLB": (14, 9), "Y": (13, 9)}, 2),
    (QB_STRAIGHT, "Y", "- -", {"QB": (15, 9), "Y": (14, 9)}, 2),
    (QB_NE, "Y", "- -", {"QB": (15, 10), "Y": (14, 11)}, 4),
    (QB_SHOVE, "C", "- -", {"QB": (16, 9), "C": (15, 9), "MLB": (14, 9)}, 4),
    (QB_STRAIGHT, "Y", "speedy_qb -", {"QB": (15, 9), "Y": (14, 9)}, 1),
    (QB_NE, "Y", "speedy_qb -", {"QB": (15, 10), "Y": (14, 11)}, 2),
], ids=["straight", "diagonal-NE", "diagonal-NW", "whole-line", "shove", "shove-diagonal",
        "shove-then-teammate", "qb", "qb-diagonal", "qb-shove", "speedy-qb", "speedy-qb-diagonal"])
def test_rule16_push_moves_the_line_one_square(rows, pushed, specials, moved, cost):
    # Rule 16: "The carrier, that teammate and every player standing next in line beyond them in that
    # direction move one square that way ... Cost: the carrier's move cost for that direction, doubled when
    # a defender is shoved" (a quarterback carrier pays double, rule 13).
    s = push_position(rows, specials=specials, strong="C")
    before = {t: at(s, t) for t in TAGS if t not in moved}
    s = act(s, f"push {pushed}")
    assert {t: at(s, t) for t in moved} == moved
    assert {t: at(s, t) for t in before} == before  # nobody else moved
    assert pts(s) == (8 - cost, 0)
    assert int(s.ball_holder[0]) == TAGS.index("QB" if "QB" in moved else "H")


def test_rule16_push_team_two_goes_down_the_diagram():
    # Rule 16 in team two's frame: its "forward" is toward row 30.
    s = push_position("""
         14 | .   .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .
         15 | .   .   .   .   .   .   .   .   .   Y   .   .   .   .   .   .   .   .
    """, offence="two", points="0-8", los=13)
    s = act(s, "push Y")
    assert at(s, "H") == (15, 10) and at(s, "Y") == (16, 10) and pts(s) == (0, 7)


@pytest.mark.parametrize("rows, pushed, strong", [
    # the lineman behind the defender is weak
    ("""
         15 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   C   .   .   .   .   .   .   .   .   .
         17 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """, "C", "-"),
    # a back (not a lineman) is directly behind him
    ("""
         15 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   Y   .   .   .   .   .   .   .   .   .
         17 | .   .   .   .   .   .   .   .   C   .   .   .   .   .   .   .   .   .
         18 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """, "C", "C"),
    # two defenders in the line
    ("""
         14 | .   .   .   .   .   .   .   .   SLB .   .   .   .   .   .   .   .   .
         15 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   C   .   .   .   .   .   .   .   .   .
         17 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """, "C", "C"),
    # two defenders, not stacked
    ("""
         13 | .   .   .   .   .   .   .   .   SLB .   .   .   .   .   .   .   .   .
         14 | .   .   .   .   .   .   .   .   Y   .   .   .   .   .   .   .   .   .
         15 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   C   .   .   .   .   .   .   .   .   .
         17 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """, "C", "C"),
    # two, each behind a strong lineman
    ("""
         12 | .   .   .   .   .   .   .   .   SLB .   .   .   .   .   .   .   .   .
         13 | .   .   .   .   .   .   .   .   LG  .   .   .   .   .   .   .   .   .
         14 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         15 | .   .   .   .   .   .   .   .   C   .   .   .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """, "C", "C LG"),
    # only a teammate can be pushed
    ("""
         15 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """, "MLB", "C"),
    # diagonal into the side edge of the grid
    ("""
         15 | X   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .
         16 | .   H@  .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .
    """, "X", "-"),
    # beside, not forward
    ("""
         16 | .   .   .   .   .   .   .   .   Y   H@  .   .   .   .   .   .   .   .
    """, "Y", "-"),
    # behind
    ("""
         16 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
         17 | .   .   .   .   .   .   .   .   Y   .   .   .   .   .   .   .   .   .
    """, "Y", "-"),
    # not beside
    ("""
         14 | .   .   .   .   .   .   .   .   Y   .   .   .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """, "Y", "-"),
], ids=["weak-lineman-behind", "back-behind", "two-defenders", "two-defenders-apart", "two-defenders-strong",
         "defender-first",
        "side-edge", "sideways", "backward", "not-beside"])
def test_rule16_push_blocked(rows, pushed, strong):
    # Rule 16: "A defender in the line is shoved too, only if the player directly behind him in the line is
    # a strong lineman, and only one defender"; the square past the line must be "empty and on the grid";
    # the teammate stands beside the carrier "straight forward or diagonally forward".
    s = push_position(rows, strong=strong)
    assert_illegal(s, f"push {pushed}")


def test_rule16_no_empty_square_before_the_end_line_stops_a_push():
    # Rule 16: a pile reaching the end of the grid has no empty square past it.
    s = push_position("""
          1 | .   .   .   .   .   .   .   .   F   .   .   .   .   .   .   .   .   .
          2 | .   .   .   .   .   .   .   .   Z   .   .   .   .   .   .   .   .   .
          3 | .   .   .   .   .   .   .   .   X   .   .   .   .   .   .   .   .   .
          4 | .   .   .   .   .   .   .   .   Y   .   .   .   .   .   .   .   .   .
          5 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """, los=7)
    assert_illegal(s, "push Y")


def test_rule16_push_needs_the_points():
    # Rule 16: the push costs the carrier's move cost (doubled for a shove); with fewer points it is illegal.
    assert_illegal(push_position(PUSH_NE, points="1-0"), "push Y")
    assert_illegal(push_position(SHOVE, points="1-0", strong="C"), "push C")
    assert_illegal(push_position(QB_STRAIGHT, points="1-0"), "push Y")
    assert_illegal(push_position(QB_SHOVE, points="3-0", strong="C"), "push C")
    assert legal(push_position(SHOVE, points="2-0", strong="C"), "push C")


def test_rule16_push_into_the_end_zone_scores():
    # Rule 16 with the touchdown rule: the carrier pushed into the end zone he attacks scores 6 + PAT.
    s = push_position("""
          3 | .   .   .   .   .   .   .   .   Y   .   .   .   .   .   .   .   .   .
          4 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """, los=6, points="3-0")
    draws = []
    s = act(s, "push Y", 0, draws=draws)
    assert draws == ["PAT"] and tuple(s.score[0]) == (7, 0)
    assert snap(s) == {"offence": 1, "down": 1, "los_row": 9, "los_lane": 10, "line_to_gain": 12}


# ---------------------------------------------------------------------------------- rule 17: gap runs



def gap_position(rows: str, points="8-0", specials="- -", strong="C LG RG LT RT", offence="one", los=16):
    return position(f"""
        offence: {offence}
        to act: {offence}
        line of scrimmage: row {los} lane 9
        strong: {strong}
        specials: {specials}
        points: {points}
        board:
        {rows}
    """)


GAP_C = """
         15 | .   .   .   .   .   .   .   .   C   .   .   .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
"""
GAP_LG = """
         15 | .   .   .   .   .   .   .   LG  .   .   .   .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
"""
GAP_RG = """
         15 | .   .   .   .   .   .   .   .   .   RG  .   .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
"""
GAP_QB = """
         15 | .   .   .   .   .   .   .   .   C   .   .   .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   QB@ .   .   .   .   .   .   .   .   .
"""
GAP_QB_RG = """
         15 | .   .   .   .   .   .   .   .   .   RG  .   .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   QB@ .   .   .   .   .   .   .   .   .
"""


@pytest.mark.parametrize("rows, lineman, carrier, specials, lands, cost", [
    (GAP_C, "C", "H", "- -", (14, 9), 4),
    (GAP_LG, "LG", "H", "- -", (14, 7), 4),
    (GAP_RG, "RG", "H", "- -", (14, 11), 4),
    (GAP_QB, "C", "QB", "- -", (14, 9), 6),
    (GAP_QB_RG, "RG", "QB", "- -", (14, 11), 6),
    (GAP_QB, "C", "QB", "speedy_qb -", (14, 9), 4),
    (GAP_QB, "C", "QB", "- speedy_qb", (14, 9), 6),
], ids=["straight", "diagonal-NW", "diagonal-NE", "qb", "qb-diagonal", "speedy-qb", "qb-other-team-speedy"])
def test_rule17_gap_run_past_a_strong_lineman(rows, lineman, carrier, specials, lands, cost):
    # Rule 17: "a ball carrier beside a strong lineman of his team (straight or diagonally forward) may jump
    # to the empty square directly beyond that lineman ... 4; the quarterback pays 3 per square (6) unless
    # Speedy QB (then 4). The lineman stays."
    s = gap_position(rows, specials=specials)
    lineman_square = at(s, lineman)
    s = act(s, f"gap {lineman}")
    assert at(s, carrier) == lands and at(s, lineman) == lineman_square
    assert pts(s) == (8 - cost, 0) and int(s.ball_holder[0]) == TAGS.index(carrier)


def test_rule17_gap_run_team_two_goes_down_the_diagram():
    # Rule 17 in team two's frame.
    s = gap_position("""
         14 | .   .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .
         15 | .   .   .   .   .   .   .   .   .   C   .   .   .   .   .   .   .   .
    """, offence="two", points="0-8", los=13)
    s = act(s, "gap C")
    assert at(s, "H") == (16, 10) and at(s, "C") == (15, 10) and pts(s) == (0, 4)


@pytest.mark.parametrize("rows, lineman, strong, points", [
    (GAP_C, "C", "LG RG", "8-0"),  # the lineman is weak
    # a defender beyond
    ("""
         14 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         15 | .   .   .   .   .   .   .   .   C   .   .   .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """, "C", "C", "8-0"),
    # a teammate beyond
    ("""
         14 | .   .   .   .   .   .   .   .   Y   .   .   .   .   .   .   .   .   .
         15 | .   .   .   .   .   .   .   .   C   .   .   .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """, "C", "C", "8-0"),
    # beyond is off the grid
    ("""
         15 | LT  .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .
         16 | .   H@  .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .
    """, "LT", "LT", "8-0"),
    # beside, not forward
    ("""
         16 | .   .   .   .   .   .   .   .   H@  C   .   .   .   .   .   .   .   .
    """, "C", "C", "8-0"),
    # behind
    ("""
         16 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
         17 | .   .   .   .   .   .   .   .   C   .   .   .   .   .   .   .   .   .
    """, "C", "C", "8-0"),
    # not beside
    ("""
         14 | .   .   .   .   .   .   .   .   C   .   .   .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """, "C", "C", "8-0"),
    (GAP_C, "C", "C", "3-0"),  # 4 points needed
    (GAP_QB, "C", "C", "5-0"),  # 6 points needed
], ids=["weak", "defender-beyond", "teammate-beyond", "off-grid", "sideways", "backward", "not-beside",
        "points", "qb-points"])
def test_rule17_gap_run_not_allowed(rows, lineman, strong, points):
    # Rule 17: only past a strong lineman, straight or diagonally forward, onto an empty square on the grid,
    # with the points to pay.
    assert_illegal(gap_position(rows, strong=strong, points=points), f"gap {lineman}")


def test_rule17_speedy_qb_gap_needs_only_4():
    # Rule 17: "(6) unless Speedy QB (then 4)" - 4 points are enough.
    s = act(gap_position(GAP_QB, points="4-0", specials="speedy_qb -"), "gap C")
    assert at(s, "QB") == (14, 9) and pts(s)[0] == 0


def test_rule17_gap_run_into_the_end_zone_scores():
    # Rule 17 with the touchdown rule.
    s = gap_position("""
          4 | .   .   .   .   .   .   .   .   C   .   .   .   .   .   .   .   .   .
          5 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """, los=6, points="4-0")
    s = act(s, "gap C", 0)
    assert tuple(s.score[0]) == (7, 0) and int(s.offence[0]) == 1


def test_rule17_the_defence_after_a_turnover_has_no_gap_runs():
    # Rule 17: the lineman must be "a strong lineman of his team"; the strong linemen are the offence's, so a
    # defender carrying the ball (here after an interception) never runs a gap, even past a strong C with
    # the square beyond free in his own forward direction.
    s = position("""
        offence: one
        to act: two
        line of scrimmage: row 16 lane 9
        strong: C LG RG LT RT
        points: 0-8
        last holder: two
        board:
         14 | .   .   .   .   .   .   .   .   MLB@ .   .   .   .   .   .   .   .   .
         15 | .   .   .   .   .   .   .   .   C   .   .   .   .   .   .   .   .   .
    """)
    assert not s.legal[0, GAP_BASE:GAP_BASE + 5].any()
    assert_illegal(s, "gap C")
    assert legal(s, "move MLB E")  # he can still run


# ------------------------------------------------------------------------------- rule 24: Lead Blocker


# H (the carrier) moves N from 16,9. Beside the square he leaves: F (17,9) and X (15,10); Z (16,12) is not.
LEAD = """
    offence: one
    to act: one
    line of scrimmage: row 16 lane 9
    specials: {specials}
    points: 8-8
    board:
     11 | .   .   .   .   .   .   .   .   SLB .   .   .   .   .   .   .   .   .
     12 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
     15 | .   .   .   .   .   .   .   .   .   X   .   .   .   .   .   .   .   .
     16 | .   .   .   .   .   .   .   .   H@  .   .   Z   .   .   .   .   .   .
     17 | .   .   .   .   .   .   .   .   F   .   .   .   .   .   .   .   .   .
"""


def test_rule24_lead_blocker_follows_for_free_once_per_play():
    # Rule 24: "once per play, after one of its players moves one square, a teammate beside the square he
    # left may follow into it for free".
    s = position(LEAD.format(specials="lead_blocker -"))
    s = act(s, "move H N")
    assert legal(s, "follow F") and legal(s, "follow X")
    assert_illegal(s, "follow Z")  # not beside the square left
    assert_illegal(s, "follow H")  # not the mover himself
    s = act(s, "follow F")
    assert at(s, "F") == (16, 9) and pts(s) == (7, 8)  # free
    assert not any_follow(s)
    s = act(s, "move X N")  # a second move in the same play: no follow
    assert not any_follow(s)
    assert_illegal(s, "follow H")


def test_rule24_follow_spent_for_the_whole_play():
    # Rule 24: "once per play" - not once per turn: after the next roll there is still no follow.
    s = position(LEAD.format(specials="lead_blocker -"))
    s = act(act(s, "move H N"), "follow F")
    s = act(s, "end turn")
    s = act(s, "end turn", *face(1, 1, 1, 1))
    assert int(s.to_act[0]) == 0 and int(s.rolls[0]) == 2
    s = act(s, "move X N")
    assert not any_follow(s)


def test_rule24_follow_lapses_after_any_other_action_but_is_not_spent():
    # Rule 24: the follow is offered right after the move; any other action (here a free handoff) ends the
    # offer. Declining does not use up the once-per-play follow.
    s = position(LEAD.format(specials="lead_blocker -"))
    s = act(s, "move H N")
    s = act(s, "throw X")  # handoff on the same row: free
    assert int(s.ball_holder[0]) == TAGS.index("X") and pts(s) == (7, 8)
    assert not any_follow(s)
    assert_illegal(s, "follow F")
    s = act(s, "move X N")  # X leaves 15,10; H (15,9) is beside it
    assert legal(s, "follow H")
    s = act(s, "follow H")
    assert at(s, "H") == (15, 10) and pts(s) == (6, 8)


def test_rule24_team_without_lead_blocker_has_no_follow():
    # Rule 24: only the team that picked Lead Blocker follows. Team one has none here; team two has it.
    s = position(LEAD.format(specials="- lead_blocker"))
    s = act(s, "move H N")
    assert not any_follow(s)
    s = act(s, "end turn")
    s = act(s, "move MLB N")  # the defence's move: SLB stands beside the square MLB left
    assert legal(s, "follow SLB")
    s = act(s, "follow SLB")
    assert at(s, "SLB") == (12, 9) and pts(s) == (7, 7)


def test_rule24_carrier_following_into_the_end_zone_scores():
    # Rule 24 with the touchdown rule: the follow is a move into the square, so a carrier following a
    # blocker into the end zone scores.
    s = position("""
        offence: one
        to act: one
        line of scrimmage: row 6 lane 9
        specials: lead_blocker -
        points: 1-0
        board:
          3 | .   .   .   .   .   .   .   .   Y   .   .   .   .   .   .   .   .   .
          4 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """)
    s = act(s, "move Y N")
    s = act(s, "follow H", 0)
    assert tuple(s.score[0]) == (7, 0) and int(s.offence[0]) == 1


# ------------------------------------------------------------------------ touchdowns by a move (rule 4)


TD_ONE = """
          4 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
"""
TD_TWO = """
         27 | .   .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .
"""


@pytest.mark.parametrize("offence, los, rows, direction, pat, score, receiver", [
    ("one", 6, TD_ONE, "N", 0, (7, 0),
     {"offence": 1, "down": 1, "los_row": 9, "los_lane": 10, "line_to_gain": 12}),
    ("one", 6, TD_ONE, "NE", 19, (6, 0),
     {"offence": 1, "down": 1, "los_row": 9, "los_lane": 10, "line_to_gain": 12}),
    ("two", 25, TD_TWO, "N", 18, (0, 7),
     {"offence": 0, "down": 1, "los_row": 22, "los_lane": 9, "line_to_gain": 19}),
], ids=["team-one", "team-one-pat-missed", "team-two"])
def test_touchdown_by_a_move(offence, los, rows, direction, pat, score, receiver):
    # Scoring: touchdown 6, then the PAT, good 19 in 20 (rule 23: outcomes 0-18 of 20 good, 19 missed);
    # rule 4: the other team starts first-and-ten at its kickoff spot.
    s = position(f"""
        offence: {offence}
        to act: {offence}
        line of scrimmage: row {los} lane 9
        drives: 1-1
        points: 3-3
        board:
        {rows}
    """, park=(30, 28) if offence == "one" else (1, 3))
    draws = []
    s = act(s, f"move H {direction}", pat, draws=draws)
    assert draws == ["PAT"] and tuple(s.score[0]) == score
    assert snap(s) == receiver and phase(s) == "offence_formation"
    assert int(s.to_act[0]) == receiver["offence"]
    assert tuple(s.drives[0]) == ((1, 2) if receiver["offence"] == 1 else (2, 1))


def test_no_touchdown_without_the_ball():
    # Only the carrier scores: a teammate stepping into the end zone does nothing.
    s = position("""
        offence: one
        to act: one
        line of scrimmage: row 6 lane 9
        points: 3-3
        board:
          4 | .   .   .   .   .   .   .   .   Y   .   .   .   .   .   .   .   .   .
          5 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """)
    s = act(s, "move Y N")
    assert tuple(s.score[0]) == (0, 0) and phase(s) == "play" and at(s, "Y") == (3, 9)


# --------------------------------------------------------------------------------------- action names


def test_every_action_name_round_trips_and_the_parser_forgives_case_and_spacing():
    assert len(ACTION_NAMES) == NUM_ACTIONS == len(set(ACTION_NAMES))
    for i in range(NUM_ACTIONS):
        name = action_name(i)
        assert action_id(name) == i
        for variant in (name.upper(), name.lower(), name.swapcase(), name.title(),
                        "  " + name.replace(" ", "   ") + "\t"):
            assert action_id(variant) == i, variant
    assert action_id("Move qb  n") == action_id("move QB N")
    assert action_id("FORMATION Shotgun") == action_id("formation shotgun")
    assert action_id(" special SPEEDY_QB ") == action_id("special speedy_qb")
    assert action_name(action_id("gap lg")) == "gap LG"
    for bad in ("", "   ", "move QB", "move QB X", "jump QB N", "gap QB", "gap X", "punt 0", "punt 21",
                "follow", "throw ZZ", "formation wing_t"):
        with pytest.raises(ValueError):
            action_id(bad)
    for bad_id in (-1, NUM_ACTIONS):
        with pytest.raises(ValueError):
            action_name(bad_id)
    with pytest.raises(ValueError):
        action_id(5)
