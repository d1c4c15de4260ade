"""Scenario tests of throws and loose balls: handoffs, laterals, forward passes, the pass contest,
interceptions and fumbles (rulings 15, 18, 19, 20, 25, 27 of /work/shared/RULINGS.md).

Every scenario starts from a diagram in the rulebook's numbering (rows 1-30 from the near end, lanes 1-18).
Team one attacks rows 1-3 (up the diagram), team two rows 28-30. Tags QB..F are the team that had the ball
at the snap (``offence``), LDE..SS the other team. ``position`` parks the players a diagram does not draw on
two far rows, so that all 22 stand on the field as the engine expects.

Random outcomes are injected with ``Script`` (a ScriptedChance that also records each draw's bound); the
chances themselves are checked exactly, or statistically with the default CounterChance over many games of
one position, each game with its own stream key, within 4 standard errors.
"""

from __future__ import annotations

import math
import textwrap
from fractions import Fraction

import numpy as np
import pytest

from gridiron_env import GameConfig
from gridiron_env.core import (
    IllegalActionError, ScriptedChance, State, action_id, check_invariants, completion_chance_exact,
    from_diagram, pass_price, step, to_diagram,
)
from gridiron_env.core.geometry import TAGS, squares_between
from gridiron_env.core.state import OFFENCE_FORMATION, PLAY, SCRAMBLE

from conftest import batch_of, legal  # noqa: E402

pytestmark = pytest.mark.usefixtures("engine_path")  # every rule test over both step paths

CFG = GameConfig()
ONE, TWO = 0, 1


# --------------------------------------------------------------------------------------------- helpers


def sq(row: int, lane: int) -> int:
    """Engine square of rulebook row ``row`` (1-30), lane ``lane`` (1-18)."""
    return (row - 1) * 18 + (lane - 1)


def slot(tag: str) -> int:
    return TAGS.index(tag)


def position(diagram: str, park=(29, 30)) -> State:
    """A batch of one from a partial diagram (header lines, then ``board:`` and board rows).

    Players the board leaves out are parked: the snap offence's on row ``park[0]``, the defence's on row
    ``park[1]``, from lane 1. The position must satisfy the invariants and its cached mask the rules.
    """
    text = textwrap.dedent(diagram).strip("\n")
    head, sep, board = text.partition("board:")
    assert sep, "a scenario diagram needs a board"
    drawn, rows_used = set(), set()
    for line in board.splitlines():
        label, bar, cells = line.partition("|")
        if bar:
            rows_used.add(int(label))
            drawn.update(c.rstrip("@") for c in cells.split() if c not in (".", "*"))
    parking = []
    for row, tags in zip(park, (TAGS[:11], TAGS[11:])):
        missing = [t for t in tags if t not in drawn]
        if missing:
            assert row not in rows_used, f"parking row {row} is part of the scenario"
            parking.append(f"{row} | " + " ".join(missing + ["."] * (18 - len(missing))))
    full = "gridiron diagram v1\n" + head.strip("\n") + "\nboard:\n" + board.strip("\n") + "\n" + "\n".join(parking)
    state = from_diagram(full, CFG)
    check_invariants(state, check_mask=True, config=CFG)
    return state


class Script(ScriptedChance):
    """ScriptedChance that also records (label, high) of every draw, per game, in ``highs``."""

    def __init__(self, *outcomes):
        super().__init__(list(outcomes))
        self.highs: list[tuple[str, int]] = []

    def draw(self, state, games, high, count, what=""):
        n = np.asarray(games).size
        self.highs.extend((what, int(h)) for h in np.broadcast_to(np.asarray(high), (n,)))
        return super().draw(state, games, high, count, what)

    def labels(self) -> list[str]:
        return [what for what, _ in self.log]


def contest_round(off_faces, def_faces, off_fill=1, def_fill=1) -> list[int]:
    """One round of the pass contest as the engine draws it: 7 offence dice, then 36 defence dice (faces
    1-6; the engine reads only the first N of each). ``*_fill`` is the face of every die past the listed
    ones, a decoy that would change the result if the engine read more dice than the rule gives."""
    off = list(off_faces) + [off_fill] * (7 - len(off_faces))
    dfn = list(def_faces) + [def_fill] * (36 - len(def_faces))
    return [f - 1 for f in off + dfn]


DEFENCE_WINS = contest_round([1], [6], 1, 6)  # every offence die a 1, every defence die a 6
OFFENCE_WINS = contest_round([6], [1], 6, 1)

_DELTA_NAME = {(-1, 0): "N", (-1, 1): "NE", (0, 1): "E", (1, 1): "SE", (1, 0): "S", (1, -1): "SW",
               (0, -1): "W", (-1, -1): "NW"}


def move(state: State, tag: str, row: int, lane: int) -> str:
    """The action name moving ``tag`` one square to (row, lane), in the acting team's own frame (team
    two's frame is the half turn: N is down the diagram, E toward lane 1)."""
    here = int(state.player_square[0, slot(tag)])
    dr, dl = (row - 1) - here // 18, (lane - 1) - here % 18
    if int(state.to_act[0]) == TWO:
        dr, dl = -dr, -dl
    return f"move {tag} {_DELTA_NAME[(dr, dl)]}"


def act(state: State, name: str, chance=None) -> State:
    out = step(state, np.array([action_id(name)]), config=CFG, chance=chance if chance is not None else Script())
    check_invariants(out, check_mask=True, config=CFG)
    return out



def board_cells(state: State) -> list[str]:
    text = to_diagram(state)
    rows = text.split("board:\n", 1)[1].splitlines()[1:]  # skip the lane numbers
    return [c for line in rows for c in line.partition("|")[2].split()]



def assert_rate(hits: int, n: int, p: float, what: str):
    se = math.sqrt(p * (1 - p) / n)
    rate = hits / n
    assert abs(rate - p) <= 4 * se, f"{what}: {hits}/{n} = {rate:.4f}, expected {p:.4f} within 4 SE ({4 * se:.4f})"


# ====================================================================================== rule 18: handoffs

HANDOFF_BOARD = """
     14 | .   .   .   .   .   .   .   .   Z   Y   .   .   .   .   .   .   .   .
     15 | .   .   .   .   .   .   .   H   QB@ F   .   .   .   .   .   .   .   .
     16 | .   .   .   .   .   .   .   X   C   RT  .   .   .   .   .   .   .   .
"""


def handoff_position(points_one: int) -> State:
    return position(f"""
        line of scrimmage: row 14 lane 9
        points: {points_one}-4
        board:
        {HANDOFF_BOARD}
    """)


@pytest.mark.parametrize("receiver, banked", [("H", 0), ("F", 0), ("X", 1), ("C", 1), ("RT", 1)])
def test_handoff_to_adjacent_teammate_not_forward_is_free_and_never_fails(receiver, banked):
    # Rule 18: a throw to a teammate beside the thrower who is not forward of him is a handoff: free,
    # never fails (no random draw at all); a backward one (X, C, RT are a row behind) banks 1 point.
    # An interior lineman (C, RT) may take a handoff: only forward passes need an eligible receiver.
    s = handoff_position(3)
    assert pass_price(s, receiver).kind == "handoff" and pass_price(s, receiver).chance == 1
    chance = Script()  # empty: any draw would raise
    out = act(s, f"throw {receiver}", chance)
    assert chance.log == []
    assert out.ball_holder[0] == slot(receiver)
    assert out.ball_square[0] == s.player_square[0, slot(receiver)]
    assert out.points[0].tolist() == [3 + banked, 4]
    assert not out.forward_pass_used[0]
    assert out.phase[0] == PLAY and out.to_act[0] == ONE


def test_handoff_needs_no_points_and_the_bank_is_capped_at_eight():
    # Rule 18: handoffs are free (legal with 0 points); the banked point respects the cap of 8 (rule 10).
    broke = handoff_position(0)
    assert legal(broke, "throw H") and legal(broke, "throw C")
    assert not legal(broke, "throw Z")  # the forward one is a pass and costs 2
    assert act(broke, "throw C").points[0].tolist() == [1, 4]
    assert act(handoff_position(7), "throw X").points[0].tolist() == [8, 4]
    assert act(handoff_position(8), "throw X").points[0].tolist() == [8, 4]


def test_handoff_direction_is_in_the_throwing_teams_frame():
    # Rules 1 and 18: team two scores in rows 28-30, so its "backward" is toward row 1. H (row 12) is behind
    # the QB (row 13): a handoff that banks; F on the same row: a plain handoff; Z (row 14) is forward.
    s = position("""
        offence: two
        to act: two
        line of scrimmage: row 14 lane 10
        points: 0-3
        board:
         12 | .   .   .   .   .   .   .   .   .   H   .   .   .   .   .   .   .   .
         13 | .   .   .   .   .   .   .   .   .   QB@ F   .   .   .   .   .   .   .
         14 | .   .   .   .   .   .   .   .   .   Z   .   .   .   .   .   .   .   .
    """, park=(2, 1))
    assert act(s, "throw H").points[0].tolist() == [0, 4]
    assert act(s, "throw F").points[0].tolist() == [0, 3]
    assert pass_price(s, "Z").kind == "forward pass"


def test_teammate_forward_and_adjacent_is_a_forward_pass_not_a_handoff():
    # Rule 18: Z (straight ahead) and Y (diagonally ahead) are forward of the QB, so a throw to them is a
    # forward pass: 2 points, spends the play's forward pass. Nobody within 3 of Z: caught with no roll.
    s = handoff_position(3)
    for receiver in ("Z", "Y"):
        price = pass_price(s, receiver)
        assert price.kind == "forward pass" and price.offence_dice == 0 and price.chance == 1
    chance = Script()
    out = act(s, "throw Z", chance)
    assert chance.log == []
    assert out.ball_holder[0] == slot("Z")
    assert out.points[0].tolist() == [1, 4]
    assert out.forward_pass_used[0]
    # With 1 point neither forward throw is affordable, while the handoffs still are.
    poor = handoff_position(1)
    assert not legal(poor, "throw Z") and not legal(poor, "throw Y")
    assert legal(poor, "throw H") and legal(poor, "throw X")


# ====================================================================================== rule 18: laterals

def lateral_position(thrower_row: int, points: str = "5-3") -> State:
    # H@ throws to F, 4 lanes away on his own row: not adjacent, not forward = a lateral.
    return position(f"""
        line of scrimmage: row 14 lane 9
        points: {points}
        board:
         {thrower_row} | .   .   .   .   .   .   .   .   H@  .   .   .   F   .   .   .   .   .
    """)


@pytest.mark.parametrize("row, roll, dropped", [
    (16, 0, True), (16, 1, False), (16, 99, False),   # behind the LOS row: dropped on 1 in 100
    (14, 0, True), (14, 4, True), (14, 5, False),     # on the LOS row is not behind it: 1 in 20
    (12, 4, True), (12, 5, False), (12, 99, False),   # past the LOS: 1 in 20
])
def test_lateral_costs_two_and_is_dropped_only_on_the_rules_roll(row, roll, dropped):
    # Rule 18: a lateral costs 2 points and completes 99 in 100 when the thrower is behind the LOS row,
    # 19 in 20 otherwise. It is never intercepted and does not spend the forward pass.
    s = lateral_position(row)
    price = pass_price(s, "F")
    assert price.kind == "lateral"
    assert price.chance == (Fraction(99, 100) if row > 14 else Fraction(19, 20))
    chance = Script(roll, 0) if dropped else Script(roll)
    out = act(s, "throw F", chance)
    assert chance.highs[0] == ("lateral", 100)
    assert not out.forward_pass_used[0]
    if dropped:
        assert out.phase[0] == SCRAMBLE and out.ball_holder[0] == -1
        assert out.points[0].tolist() == [0, 3]
    else:
        assert chance.log == [("lateral", [roll])]
        assert out.phase[0] == PLAY and out.ball_holder[0] == slot("F")
        assert out.points[0].tolist() == [3, 3]


@pytest.mark.parametrize("offence, thrower, receiver, expected, n, seed", [
    ("one", (16, 9), (16, 13), Fraction(1, 100), 20000, 1001),  # behind the LOS row 14 (team one)
    ("one", (12, 9), (12, 13), Fraction(1, 20), 8000, 2002),    # past it
    ("two", (11, 10), (11, 6), Fraction(1, 100), 20000, 3003),  # team two: behind is toward row 1
    ("two", (17, 10), (17, 6), Fraction(1, 20), 8000, 4004),
])
def test_lateral_drop_rate_with_the_default_random_source(offence, thrower, receiver, expected, n, seed):
    # Rule 18, statistically: n games of one position, each with its own stream; within 4 SE.
    cells = ["."] * 18
    cells[thrower[1] - 1], cells[receiver[1] - 1] = "H@", "F"
    s = position(f"""
        offence: {offence}
        to act: {offence}
        line of scrimmage: row 14 lane {9 if offence == 'one' else 10}
        points: 5-5
        board:
         {thrower[0]} | {' '.join(cells)}
    """, park=(29, 30) if offence == "one" else (2, 1))
    out = step(batch_of(s, n, seed), np.full(n, action_id("throw F")), config=CFG)
    check_invariants(out)
    dropped = out.phase == SCRAMBLE
    assert np.all(out.ball_holder[~dropped] == slot("F"))
    assert_rate(int(dropped.sum()), n, float(expected), f"lateral drops ({offence}, thrower row {thrower[0]})")


LATERAL_FUMBLE = """
    line of scrimmage: row 14 lane 9
    points: 6-4
    board:
     15 | .   .   .   .   .   .   .   .   .   .   .   .   Y   LCB .   .   .   .
     16 | .   .   .   .   .   .   .   .   QB@ .   .   .   F   .   .   .   .   .
"""
# F's neighbours in the order N, NE, E, SE, S, SW, W, NW (absolute): N (Y) and NE (LCB) are taken.
F_FREE_NEIGHBOURS = [(16, 14), (17, 14), (17, 13), (17, 12), (16, 12), (15, 12)]


@pytest.mark.parametrize("k", range(len(F_FREE_NEIGHBOURS)))
def test_dropped_lateral_is_a_hidden_fumble_beside_the_receiver(k):
    # Rules 18 and 27: the ball lands on an empty square beside the receiver (chosen at random among the
    # free ones), hidden; the throwing side loses its remaining points; the other side steps first.
    s = position(LATERAL_FUMBLE)
    chance = Script(0, k)
    out = act(s, "throw F", chance)
    assert chance.highs == [("lateral", 100), ("fumble square", len(F_FREE_NEIGHBOURS))]
    assert out.phase[0] == SCRAMBLE
    assert out.ball_holder[0] == -1 and out.ball_hidden[0]
    assert out.ball_square[0] == sq(*F_FREE_NEIGHBOURS[k])
    assert "*" not in board_cells(out)
    assert out.points[0].tolist() == [0, 4]  # 6 - 2 for the throw, the remaining 4 lost; defence keeps 4
    assert out.to_act[0] == TWO and out.scramble_step[0] == 0
    assert out.player_square[0, slot("QB")] == sq(16, 9) and out.player_square[0, slot("F")] == sq(16, 13)


def test_dropped_lateral_recovered_by_the_other_side_is_its_live_ball_with_its_points():
    # Rules 18 and 27: LCB's blind step onto the ball recovers it; the throwing side has no points left,
    # so the other side (team two) moves next, carrying the ball with its 4 points. Nothing is rolled.
    s = act(position(LATERAL_FUMBLE), "throw F", Script(0, 0))  # ball hidden on (16,14)
    chance = Script()
    out = act(s, move(s, "LCB", 16, 14), chance)
    assert chance.log == []
    assert out.phase[0] == PLAY and out.ball_holder[0] == slot("LCB") and not out.ball_hidden[0]
    assert out.to_act[0] == TWO and out.points[0].tolist() == [0, 4]
    assert out.offence[0] == ONE


def test_dropped_lateral_with_no_free_square_beside_the_receiver_is_caught():
    # Rule 27: F stands on the edge with all five neighbours taken, so the dropped lateral is caught:
    # no fumble, the throwing side keeps its remaining points.
    s = position("""
        line of scrimmage: row 14 lane 9
        points: 6-4
        board:
         15 | Y   LCB .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .
         16 | F   X   .   .   QB@ .   .   .   .   .   .   .   .   .   .   .   .   .
         17 | Z   RCB .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .
    """)
    chance = Script(0)
    out = act(s, "throw F", chance)
    assert chance.log == [("lateral", [0])]
    assert out.phase[0] == PLAY and out.ball_holder[0] == slot("F") and not out.ball_hidden[0]
    assert out.points[0].tolist() == [4, 4]
    assert out.to_act[0] == ONE


# ============================================================================ rule 18: forward pass legality

def test_forward_pass_costs_two_and_only_one_per_play():
    # Rule 18: at most one forward pass per play. After QB -> H (forward, behind the LOS, uncovered: no
    # roll), H still stands behind the LOS with Z ahead of him, but may not throw forward again.
    s = position("""
        line of scrimmage: row 14 lane 9
        points: 6-4
        board:
         15 | .   .   .   .   .   .   .   .   .   .   .   .   Z   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   H   .   .   .   .   .   .   .   .   .
         18 | .   .   .   .   .   .   .   .   QB@ .   .   .   .   .   .   .   .   .
    """)
    out = act(s, "throw H", Script())
    assert out.ball_holder[0] == slot("H") and out.points[0].tolist() == [4, 4] and out.forward_pass_used[0]
    assert not legal(out, "throw Z")
    with pytest.raises(IllegalActionError):
        act(out, "throw Z")
    assert legal(out, "throw QB")  # a lateral back to the QB is still allowed
    # The same board with H carrying and the pass unused: the throw to Z is legal.
    fresh = position("""
        line of scrimmage: row 14 lane 9
        points: 4-4
        forward pass used: no
        board:
         15 | .   .   .   .   .   .   .   .   .   .   .   .   Z   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
         18 | .   .   .   .   .   .   .   .   QB  .   .   .   .   .   .   .   .   .
    """)
    assert legal(fresh, "throw Z")


@pytest.mark.parametrize("row, allowed", [(15, True), (14, False), (13, False)])
def test_forward_pass_only_from_strictly_behind_the_los_row(row, allowed):
    # Rule 18: only while the thrower is strictly behind the LOS row (row 14). Laterals are allowed anywhere.
    s = position(f"""
        line of scrimmage: row 14 lane 9
        points: 4-4
        board:
         {row - 2} | .   .   .   .   .   .   .   .   .   .   .   Z   .   .   .   .   .   .
         {row} | .   .   .   .   .   .   .   .   H@  .   .   .   .   F   .   .   .   .
    """)
    assert pass_price(s, "Z").kind == "forward pass"
    assert legal(s, "throw Z") == allowed
    assert legal(s, "throw F")


def test_forward_pass_never_to_an_interior_lineman():
    # Rules 8 and 18: C, LG, RG, LT, RT are ineligible; the tight end Y and split end X on the line are
    # backs for this rule, and so are the backs H and Z.
    s = position("""
        line of scrimmage: row 14 lane 9
        points: 4-4
        board:
         14 | .   .   .   X   .   .   LT  LG  C   RG  RT  Y   .   .   .   .   .   .
         15 | .   .   .   .   .   .   .   H   .   .   .   .   .   Z   .   .   .   .
         16 | .   .   .   .   .   .   .   .   QB@ .   .   .   .   .   .   .   .   .
    """)
    for tag in ("C", "LG", "RG", "LT", "RT"):
        assert pass_price(s, tag).kind == "forward pass"
        assert not legal(s, f"throw {tag}"), tag
    for tag in ("X", "Y", "Z", "H"):
        assert legal(s, f"throw {tag}"), tag
    with pytest.raises(IllegalActionError):
        act(s, "throw C")


# ======================================================================================= rule 19: pass dice

@pytest.mark.parametrize("distance, sure_hands, off, dfn, printed", [
    (1, False, 1, 2, 31), (2, False, 3, 1, 79), (3, False, 6, 1, 91), (4, False, 0, 0, None),
    (1, True, 2, 2, None), (2, True, 4, 1, None), (3, True, 7, 1, None), (4, True, 0, 0, None),
])
def test_offence_dice_are_set_by_the_nearest_defender(distance, sure_hands, off, dfn, printed):
    # Rule 19: offence dice 1 / 3 / 6 with the nearest defender at distance 1 / 2 / 3 of the receiver,
    # +1 with Sure Hands; nobody within 3: automatic. One defender: 2 dice beside, else 1 within 3.
    cells = ["."] * 18
    cells[8], cells[8 + distance] = "Z", "LCB"
    s = position(f"""
        line of scrimmage: row 14 lane 9
        points: 4-4
        specials: {'sure_hands' if sure_hands else '-'} -
        board:
         11 | {' '.join(cells)}
         18 | .   .   .   .   .   .   .   .   QB@ .   .   .   .   .   .   .   .   .
    """)
    price = pass_price(s, "Z")
    assert (price.kind, price.offence_dice) == ("forward pass", off)
    if off:
        assert price.defence_dice == dfn
        assert price.chance == completion_chance_exact(off, dfn)
    else:
        assert price.chance == 1
    if printed is not None:
        assert round(100 * float(price.chance)) == printed  # the rulebook's table


def test_no_defender_within_three_is_an_automatic_catch_with_nothing_rolled():
    # Rule 19: nobody within 3 of Z (LCB is 4 away), so the catch is automatic although a defender stands
    # in the throwing lane and the thrower is not the quarterback: no contest, no interception roll.
    s = position("""
        line of scrimmage: row 14 lane 9
        points: 6-4
        board:
         11 | .   .   .   .   .   .   .   .   Z   .   .   .   LCB .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         18 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """)
    price = pass_price(s, "Z")
    assert price.offence_dice == 0 and price.chance == 1
    chance = Script()
    out = act(s, "throw Z", chance)
    assert chance.log == []
    assert out.ball_holder[0] == slot("Z") and out.points[0].tolist() == [4, 4]


CROWD = """
      8 | .   .   .   .   .   .   .   SLB .   .   .   .   .   .   .   .   .   .
      9 | .   .   .   .   .   .   .   .   .   .   SS  .   .   .   .   .   .   .
     10 | .   .   .   .   .   .   .   FS  .   .   .   .   .   .   .   .   .   .
     12 | .   .   .   .   .   .   .   Z   LCB .   .   .   .   .   .   .   .   .
     14 | .   .   .   .   .   .   Y   .   .   .   .   .   .   .   .   .   .   .
     15 | .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .   .   .
     16 | .   .   .   .   .   .   RCB .   .   .   .   .   .   .   .   .   .   .
     17 | .   .   .   .   .   WLB .   .   .   .   .   .   .   .   .   .   .   .
     18 | .   .   .   .   {T} .   .   .   .   .   .   .   .   .   .   .   .   .
"""


def crowd_position(thrower: str, sure_hands=False) -> State:
    return position(f"""
        line of scrimmage: row 14 lane 9
        points: 4-4
        specials: {'sure_hands' if sure_hands else '-'} -
        board:
        {CROWD.replace('{T}', thrower + '@')}
    """)


def test_defence_dice_count_ring_beside_lane_and_thrower():
    # Rule 19, the defence's dice for H (18,5) -> Z (12,8):
    #   LCB beside Z: 2; FS at 2: 1; SS at 3: 1; SLB at 4: 0;
    #   MLB at 3 and on the throwing line: 1 + 1; WLB on the line, 5 away: 1; RCB next to the line, off it: 0;
    #   Y (a teammate) on the line: 0; thrower not the quarterback: 1.   Total 8. Offence: 1 die (LCB beside).
    # The project's line (rule 19): squares round(k * d / n) from the thrower, halves away from zero.
    assert squares_between(sq(18, 5), sq(12, 8)) == [sq(17, 6), sq(16, 6), sq(15, 7), sq(14, 7), sq(13, 8)]
    price = pass_price(crowd_position("H"), "Z")
    assert (price.kind, price.offence_dice, price.defence_dice) == ("forward pass", 1, 8)
    assert price.chance == completion_chance_exact(1, 8)
    assert round(100 * float(price.chance)) == 6  # rulebook: beside him, 8 defence dice: 6%
    # The quarterback throwing from the same square takes the thrower's die away; Sure Hands adds one.
    qb = pass_price(crowd_position("QB"), "Z")
    assert (qb.offence_dice, qb.defence_dice) == (1, 7)
    sure = pass_price(crowd_position("QB", sure_hands=True), "Z")
    assert (sure.offence_dice, sure.defence_dice) == (2, 7)
    assert sure.chance == completion_chance_exact(2, 7)


@pytest.mark.parametrize("thrower, complete_first_round", [("H", False), ("QB", True)])
def test_contest_rolls_exactly_the_priced_dice(thrower, complete_first_round):
    # Rule 19: only the count of dice matters. The offence's single die shows 6; the defence's first 7 dice
    # show 1 and its 8th a 6. Against 8 dice (H throwing) that is a tie, rolled again (then the offence
    # wins); against 7 dice (the QB throwing) the offence wins at once.
    s = crowd_position(thrower)
    first = contest_round([6], [1] * 7 + [6], 1, 1)
    second = contest_round([6], [1], 1, 1)
    chance = Script(*first, *second)
    out = act(s, "throw Z", chance)
    assert out.ball_holder[0] == slot("Z")
    contest_draws = [w for w in chance.labels() if w.startswith("pass contest")]
    assert len(contest_draws) == (2 if complete_first_round else 4)


P32 = """
    line of scrimmage: row 14 lane 9
    points: 6-5
    down: 2
    board:
      9 | .   .   .   .   .   .   .   .   FS  .   .   .   .   .   .   .   .   .
     11 | .   .   .   .   .   .   .   .   Z   .   .   SS  .   .   .   .   .   .
     18 | .   .   .   .   .   .   .   .   QB@ .   .   .   .   .   .   .   .   .
"""  # FS 2 from Z, SS 3 from Z, nobody in the lane, the QB throws: 3 dice against 2


@pytest.mark.parametrize("rounds, caught", [
    ([([5, 2, 1], [4, 3], 6, 6)], True),                 # 5 beats 4; a 6 past the defence's 2 dice is unread
    ([([2, 3, 4], [5, 1], 6, 1)], False),                # 5 beats 4; a 6 past the offence's 3 dice is unread
    ([([4, 1, 1], [4, 2], 1, 1), ([6, 1, 1], [5, 5], 1, 1)], True),   # tie on 4, rolled again: 6 beats 5
    ([([3, 3, 3], [3, 1], 1, 1), ([2, 2, 2], [2, 3], 1, 1)], False),  # tie on 3, rolled again: 3 beats 2
])
def test_contest_highest_die_wins_and_a_tie_is_rolled_again(rounds, caught):
    # Rule 19: highest single die wins; a tie never decides, it is rolled again.
    s = position(P32)
    assert (pass_price(s, "Z").offence_dice, pass_price(s, "Z").defence_dice) == (3, 2)
    outcomes = [v for r in rounds for v in contest_round(*r)]
    chance = Script(*outcomes, *([1] if not caught else []))  # a failed pass: not intercepted
    out = act(s, "throw Z", chance)
    assert chance.labels()[:2 * len(rounds)] == ["pass contest offence", "pass contest defence"] * len(rounds)
    if caught:
        assert chance.labels() == ["pass contest offence", "pass contest defence"] * len(rounds)
        assert out.ball_holder[0] == slot("Z") and out.phase[0] == PLAY
    else:
        assert chance.labels()[-1] == "interception"
        assert out.phase[0] == OFFENCE_FORMATION and out.down[0] == 3


P74 = """
    offence: two
    to act: two
    line of scrimmage: row 14 lane 10
    points: 5-6
    specials: - sure_hands
    board:
     12 | .   .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .
     16 | .   .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .
     19 | .   .   .   .   .   .   .   .   .   Z   .   .   .   .   .   .   .   .
     22 | .   .   .   .   .   .   .   .   .   FS  .   .   .   .   .   .   .   .
"""  # team two, H throws; MLB 3 from Z and in the lane, FS 3 from Z; Sure Hands: 7 dice against 4


@pytest.mark.parametrize("diagram, park, dice, n, seed", [
    (P32, (29, 30), (3, 2), 4000, 11),
    (P74, (2, 1), (7, 4), 4000, 12),
])
def test_engine_completion_rate_matches_the_exact_chance(diagram, park, dice, n, seed):
    # Rule 19, statistically: the engine's contest over n games of one position (own stream each) completes
    # at the exact chance within 4 SE. Every game ends in exactly one of caught / incomplete / intercepted.
    s = position(diagram, park=park)
    price = pass_price(s, "Z")
    assert (price.offence_dice, price.defence_dice) == dice
    out = step(batch_of(s, n, seed), np.full(n, action_id("throw Z")), config=CFG)
    check_invariants(out)
    caught = out.ball_holder == slot("Z")
    incomplete = out.phase == OFFENCE_FORMATION
    picked = (out.phase == PLAY) & (out.ball_holder >= 11)
    assert np.all(caught.astype(int) + incomplete + picked == 1)
    assert_rate(int(caught.sum()), n, float(price.chance), f"completions {dice}")


# =================================================================================== rule 20: interceptions

P19 = """
    line of scrimmage: row 14 lane 9
    points: 6-5
    specials: - {hawk}
    board:
     10 | .   .   .   .   .   .   .   .   FS  .   .   .   .   .   .   .   .   .
     11 | .   .   .   .   .   .   .   RCB Z   LCB .   .   .   .   .   .   .   .
     12 | .   .   .   .   .   .   .   .   SS  .   .   .   .   .   .   .   .   .
     18 | .   .   .   .   .   .   .   .   QB@ .   .   .   .   .   .   .   .   .
"""  # four defenders beside Z (2 dice each), SS also in the lane: 1 die against 9


@pytest.mark.parametrize("ball_hawk, expected, seed", [(False, Fraction(1, 15), 21), (True, Fraction(1, 10), 22)])
def test_interception_rate_of_failed_passes(ball_hawk, expected, seed):
    # Rule 20, statistically: a failed forward pass is intercepted 1 in 15 (1 in 10 against Ball Hawk).
    s = position(P19.replace("{hawk}", "ball_hawk" if ball_hawk else "-"))
    assert (pass_price(s, "Z").offence_dice, pass_price(s, "Z").defence_dice) == (1, 9)
    n = 4000
    out = step(batch_of(s, n, seed), np.full(n, action_id("throw Z")), config=CFG)
    check_invariants(out)
    failed = out.ball_holder != slot("Z")
    picked = failed & (out.ball_holder >= 11)
    assert np.all(out.phase[failed & ~picked] == OFFENCE_FORMATION)
    assert_rate(int(picked.sum()), int(failed.sum()), float(expected), f"interceptions (ball hawk {ball_hawk})")


@pytest.mark.parametrize("ball_hawk, roll, picked", [
    (False, 0, True), (False, 1, False), (False, 14, False), (True, 0, True), (True, 9, False),
])
def test_interception_roll_thresholds(ball_hawk, roll, picked):
    # Rule 20: the interception draw is 1 in 15, or 1 in 10 when the defence has Ball Hawk.
    s = position(P32.replace("points: 6-5", "points: 6-5\n    specials: - " + ("ball_hawk" if ball_hawk else "-")))
    chance = Script(*DEFENCE_WINS, roll)
    out = act(s, "throw Z", chance)
    assert chance.highs[-1] == ("interception", 10 if ball_hawk else 15)
    if picked:
        assert out.ball_holder[0] == slot("FS")  # FS is the defender nearest Z
    else:
        assert out.phase[0] == OFFENCE_FORMATION and out.ball_holder[0] == -1


@pytest.mark.parametrize("offence, rows, expected", [
    # nearest the receiver wins although FS is nearer the thrower
    ("one", {11: {9: "Z", 10: "LCB"}, 13: {9: "FS"}, 18: {9: "QB@"}}, "LCB"),
    # both 1 from Z: RCB (6 from the QB) beats LCB (8 from the QB) although LCB has the lower lane
    ("one", {10: {8: "LCB"}, 11: {9: "Z"}, 12: {10: "RCB"}, 18: {9: "QB@"}}, "RCB"),
    # both 1 from Z and 6 from the QB: the lowest lane (RCB, lane 8) although LCB is the lower slot
    ("one", {11: {9: "Z"}, 12: {8: "RCB", 10: "LCB"}, 18: {9: "QB@"}}, "RCB"),
    # team two throwing: lanes are the rulebook's (absolute) lanes: RCB on lane 9 beats LCB on lane 11
    ("two", {11: {10: "QB@"}, 17: {9: "RCB", 11: "LCB"}, 18: {10: "Z"}}, "RCB"),
])
def test_interceptor_is_the_defender_nearest_the_receiver_then_the_thrower_then_the_lowest_lane(
        offence, rows, expected):
    # Rule 20: the interceptor is the defender nearest the receiver (ties: nearest the thrower, then the
    # lowest lane); he holds the ball where he stands.
    board = "\n".join(
        f"{r} | " + " ".join(cells.get(lane, ".") for lane in range(1, 19)) for r, cells in sorted(rows.items()))
    s = position(f"""
        offence: {offence}
        to act: {offence}
        line of scrimmage: row 14 lane {9 if offence == 'one' else 10}
        points: 6-6
        board:
        {board}
    """, park=(29, 30) if offence == "one" else (2, 1))
    where = int(s.player_square[0, slot(expected)])
    out = act(s, "throw Z", Script(*DEFENCE_WINS, 0))
    assert out.ball_holder[0] == slot(expected)
    assert out.player_square[0, slot(expected)] == where and out.ball_square[0] == where


RETURN = """
    line of scrimmage: row 14 lane 9
    points: 6-5
    board:
     11 | .   .   .   .   .   .   .   .   Z   LCB .   .   .   .   .   .   .   .
     14 | .   .   .   .   .   .   .   .   .   X   .   .   .   .   .   .   .   .
     18 | .   .   .   .   .   .   .   .   QB@ .   .   .   .   .   .   .   .   .
"""


def test_interception_ends_the_offences_turn_and_the_defence_runs_it_back_with_its_points():
    # Rule 20: the offence's turn ends, its points are lost; the interceptor's side runs it back now with
    # its points for this roll. The team with the ball at the snap stays the "offence" of the down.
    s = position(RETURN)
    out = act(s, "throw Z", Script(*DEFENCE_WINS, 0))
    assert out.ball_holder[0] == slot("LCB") and out.ball_square[0] == sq(11, 10)
    assert out.phase[0] == PLAY and out.to_act[0] == TWO
    assert out.points[0].tolist() == [0, 5]
    assert out.offence[0] == ONE and out.down[0] == 1
    # The return: LCB runs toward the end zone team two attacks (down the diagram), 1 point a square.
    run = act(out, move(out, "LCB", 12, 10))
    assert run.ball_holder[0] == slot("LCB") and run.ball_square[0] == sq(12, 10)
    assert run.points[0].tolist() == [0, 4]


def test_tackling_the_interceptor_is_a_turnover_at_the_spot_and_the_snap_team_moves_first():
    # Rules 20, 25, 26: after the return the dice roll and the team that had the ball at the snap (team one)
    # moves first; its tackle of the interceptor ends the play, and team two takes first-and-ten there.
    s = position(RETURN)
    s = act(s, "throw Z", Script(*DEFENCE_WINS, 0))
    s = act(s, move(s, "LCB", 12, 10))
    s = act(s, move(s, "LCB", 13, 10))
    chance = Script(2, 1, 0, 0)  # offence 3,2 against 1,1: offence takes 3, the defence its low 1
    s = act(s, "end turn", chance)
    assert chance.labels() == ["dice"]
    assert s.to_act[0] == ONE and s.offence[0] == ONE
    assert s.points[0].tolist() == [3, 4]  # the defence's 3 unspent points carry over
    chance = Script(1)  # the tackle does not fumble
    out = act(s, move(s, "X", 13, 10), chance)
    assert chance.log == [("tackle fumble", [1])]
    assert out.offence[0] == TWO and out.down[0] == 1
    assert (out.los_row[0] + 1, out.los_lane[0] + 1) == (13, 10)
    assert out.line_to_gain[0] + 1 == 16  # three rows on, toward row 30
    assert out.phase[0] == OFFENCE_FORMATION and out.to_act[0] == TWO
    assert out.drives[0].tolist() == [1, 1]


def test_interception_in_the_end_zone_the_thrower_defends_is_a_defensive_touchdown():
    # Rule 20: the LOS is row 27; the QB throws from his own end zone (row 30) to Z on row 29, and LCB,
    # beside Z in that end zone, intercepts: a touchdown for team two at once, then its PAT (19 in 20),
    # and team one receives at its kickoff spot (rule 4: row 22, lane 9).
    s = position("""
        line of scrimmage: row 27 lane 9
        points: 6-5
        board:
         29 | .   .   .   .   .   .   .   .   .   .   .   Z   LCB .   .   .   .   .
         30 | .   .   .   .   .   .   .   .   QB@ .   .   .   .   .   .   .   .   .
    """, park=(5, 6))
    chance = Script(*DEFENCE_WINS, 0, 0)
    out = act(s, "throw Z", chance)
    assert chance.labels() == ["pass contest offence", "pass contest defence", "interception", "PAT"]
    assert chance.highs[-1] == ("PAT", 20)
    assert out.score[0].tolist() == [0, 7]
    assert out.offence[0] == ONE and out.down[0] == 1
    assert (out.los_row[0] + 1, out.los_lane[0] + 1) == (22, 9)
    assert out.phase[0] == OFFENCE_FORMATION


def test_interception_in_the_interceptors_own_end_zone_is_returned_and_downed_there_is_a_touchback():
    # Rule 20: only a pick in the end zone the thrower's team defends scores at once; "otherwise the play
    # goes on until a tackle, a score, or a touchback (a defender downed with the ball in his own end zone)".
    # LCB intercepts in rows 1-3 (team two's own end zone), stays there, and is tackled there.
    s = position("""
        line of scrimmage: row 5 lane 9
        line to gain: row 2
        points: 6-5
        board:
          2 | .   .   .   .   .   .   .   .   Z   LCB .   .   .   .   .   .   .   .
          3 | .   .   .   .   .   .   .   .   .   X   .   .   .   .   .   .   .   .
          6 | .   .   .   .   .   .   .   .   QB@ .   .   .   .   .   .   .   .   .
    """)
    s = act(s, "throw Z", Script(*DEFENCE_WINS, 0))
    assert s.phase[0] == PLAY and s.ball_holder[0] == slot("LCB") and s.to_act[0] == TWO
    assert s.offence[0] == ONE and s.score[0].tolist() == [0, 0]
    s = act(s, "end turn", Script(2, 1, 0, 0))
    assert s.to_act[0] == ONE
    out = act(s, move(s, "X", 2, 10), Script(1))
    assert out.score[0].tolist() == [0, 0]  # not a safety
    assert out.offence[0] == TWO and out.down[0] == 1
    assert (out.los_row[0] + 1, out.los_lane[0] + 1) == (9, 10)  # team two's kickoff spot
    assert out.phase[0] == OFFENCE_FORMATION


@pytest.mark.parametrize("down", [1, 2, 3])
def test_incomplete_pass_ends_the_down_and_the_next_starts_from_the_same_los(down):
    # Rule 20: a failed pass that is not intercepted is incomplete; the next down starts from the same LOS
    # (row 14, lane 10 here, not the QB's lane 9), with the same line to gain.
    s = position(P32.replace("down: 2", f"down: {down}").replace("lane 9", "lane 10"))
    out = act(s, "throw Z", Script(*DEFENCE_WINS, 1))
    assert out.offence[0] == ONE and out.down[0] == down + 1
    assert (out.los_row[0] + 1, out.los_lane[0] + 1) == (14, 10)
    assert out.line_to_gain[0] + 1 == 11
    assert out.phase[0] == OFFENCE_FORMATION and out.to_act[0] == ONE
    assert out.points[0].tolist() == [0, 0] and out.ball_holder[0] == -1


def test_fourth_down_incompletion_turns_the_ball_over_on_the_los():
    # Rules 6 and 20: an incomplete pass on 4th down fails the series: team two takes over at the LOS.
    s = position(P32.replace("down: 2", "down: 4"))
    out = act(s, "throw Z", Script(*DEFENCE_WINS, 1))
    assert out.offence[0] == TWO and out.down[0] == 1
    assert out.los_row[0] + 1 == 14
    assert out.line_to_gain[0] + 1 == 17
    assert out.phase[0] == OFFENCE_FORMATION and out.to_act[0] == TWO
    assert out.drives[0].tolist() == [1, 1]


# ================================================================================== rules 15 and 27: fumbles

TACKLE = """
    line of scrimmage: row 14 lane 9
    to act: two
    points: 2-3
    board:
     10 | .   .   .   .   .   .   .   .   .   .   SLB .   .   .   .   .   .   .
     11 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
     12 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
     13 | .   .   .   .   .   .   .   .   Y   .   .   .   .   .   .   .   .   .
     14 | .   .   .   .   .   .   .   .   .   .   X   .   .   .   .   .   .   .
"""
# H's neighbours in the order N, NE, E, SE, S, SW, W, NW (absolute): N (the tackler MLB) and S (Y) are taken.
H_FREE_NEIGHBOURS = [(11, 10), (12, 10), (13, 10), (13, 8), (12, 8), (11, 8)]


def tackle(chance):
    s = position(TACKLE)
    return act(s, move(s, "MLB", 12, 9), chance)


@pytest.mark.parametrize("roll, fumble", [(0, True), (1, False), (19, False)])
def test_tackle_fumbles_on_one_roll_in_twenty(roll, fumble):
    # Rule 15: a tackle ends the play at the carrier's square, except 1 time in 20, a fumble.
    chance = Script(roll, 0) if fumble else Script(roll)
    out = tackle(chance)
    assert chance.highs[0] == ("tackle fumble", 20)
    if fumble:
        assert out.phase[0] == SCRAMBLE
    else:
        assert chance.log == [("tackle fumble", [roll])]
        assert out.phase[0] == OFFENCE_FORMATION and out.offence[0] == ONE
        assert out.down[0] == 2 and (out.los_row[0] + 1, out.los_lane[0] + 1) == (12, 9)


def test_tackle_fumble_rate_with_the_default_random_source():
    # Rule 15, statistically: 1 in 20 over n tackles, each game with its own stream; within 4 SE.
    s = position(TACKLE)
    n = 8000
    out = step(batch_of(s, n, 31), np.full(n, action_id(move(s, "MLB", 12, 9))), config=CFG)
    check_invariants(out)
    fumbles = out.phase == SCRAMBLE
    assert np.all(out.phase[~fumbles] == OFFENCE_FORMATION)
    assert_rate(int(fumbles.sum()), n, 1 / 20, "tackle fumbles")


@pytest.mark.parametrize("k", range(len(H_FREE_NEIGHBOURS)))
def test_fumble_puts_the_ball_hidden_on_a_free_square_beside_the_carrier(k):
    # Rule 27: tackler and carrier stay; the ball goes to a random empty square beside the carrier, hidden;
    # the side that did not lose the ball (the tacklers, team two) takes the first blind step.
    chance = Script(0, k)
    out = tackle(chance)
    assert chance.highs == [("tackle fumble", 20), ("fumble square", len(H_FREE_NEIGHBOURS))]
    assert out.phase[0] == SCRAMBLE and out.ball_holder[0] == -1 and out.ball_hidden[0]
    assert out.ball_square[0] == sq(*H_FREE_NEIGHBOURS[k])
    assert "*" not in board_cells(out)
    assert out.player_square[0, slot("MLB")] == sq(11, 9) and out.player_square[0, slot("H")] == sq(12, 9)
    assert out.to_act[0] == TWO and out.scramble_step[0] == 0
    assert out.points[0].tolist() == [2, 2]


def test_hidden_ball_does_not_show_in_the_legal_mask():
    # Rule 27: no observation shows the hidden ball's square; the legal moves are the same wherever it is.
    masks = [tackle(Script(0, k)).legal[0] for k in range(len(H_FREE_NEIGHBOURS))]
    for mask in masks[1:]:
        assert np.array_equal(mask, masks[0])


def test_blind_steps_are_free_single_squares_and_diagonals_count_as_one():
    # Rule 27: one player moves one square, free, a diagonal as good as a straight step - even for the
    # quarterback, even with no points. The tacklers spend their last point on the tackle here.
    s = position(TACKLE.replace("points: 2-3", "points: 0-1"))
    s = act(s, move(s, "MLB", 12, 9), Script(0, 0))  # ball hidden on (11,10)
    assert s.points[0].tolist() == [0, 0] and s.to_act[0] == TWO
    assert legal(s, move(s, "SLB", 9, 12)) and legal(s, move(s, "SLB", 11, 12))  # diagonals, 0 points
    assert legal(s, "end turn")
    s = act(s, move(s, "SLB", 9, 12))  # a miss: now team one's blind step
    assert s.phase[0] == SCRAMBLE and s.to_act[0] == ONE and s.ball_hidden[0]
    assert s.points[0].tolist() == [0, 0]
    qb_square = int(s.player_square[0, slot("QB")])
    qb_diagonal = move(s, "QB", qb_square // 18 + 1 - 1, qb_square % 18 + 1 + 1)  # up-right of the QB
    assert qb_diagonal == "move QB NE" and legal(s, qb_diagonal)


def test_defence_stepping_onto_the_hidden_ball_recovers_it_for_a_live_return():
    # Rule 27: a player who steps onto the ball recovers it. A defensive recovery is a live return with the
    # defence's remaining points; the next round the team that had the ball at the snap moves first (rule 25).
    s = tackle(Script(0, 0))  # ball hidden on (11,10)
    out = act(s, move(s, "SLB", 11, 10))  # diagonal blind step onto the ball
    assert out.phase[0] == PLAY and out.ball_holder[0] == slot("SLB") and not out.ball_hidden[0]
    assert out.ball_square[0] == sq(11, 10)
    assert out.to_act[0] == TWO and out.points[0].tolist() == [2, 2]
    run = act(out, move(out, "SLB", 12, 10))
    assert run.ball_square[0] == sq(12, 10) and run.points[0].tolist() == [2, 1]
    chance = Script(0, 0, 0, 0)
    nxt = act(run, "end turn", chance)
    assert chance.labels() == ["dice"]
    assert nxt.to_act[0] == ONE and nxt.offence[0] == ONE and nxt.ball_holder[0] == slot("SLB")


def test_declining_the_blind_step_and_the_other_side_recovering():
    # Rule 27: a side may decline its blind step with End turn (nothing moves, nothing is drawn); then the
    # side that lost the ball steps, and X's diagonal step onto the ball recovers it.
    s = tackle(Script(0, 2))  # ball hidden on (13,10)
    before = s.player_square.copy()
    chance = Script()
    s = act(s, "end turn", chance)
    assert chance.log == []
    assert np.array_equal(s.player_square, before)
    assert s.phase[0] == SCRAMBLE and s.to_act[0] == ONE and s.ball_hidden[0]
    out = act(s, move(s, "X", 13, 10))
    assert out.phase[0] == PLAY and out.ball_holder[0] == slot("X") and not out.ball_hidden[0]
    assert out.points[0].tolist() == [2, 2]


@pytest.mark.parametrize("picker", ["offence", "defence"])
def test_when_neither_side_finds_the_ball_it_is_shown_the_dice_roll_and_the_first_to_reach_it_has_it(picker):
    # Rule 27: both blind steps miss -> the ball is shown, the dice roll again (the team with the ball at the
    # snap moves first, rule 25), and the first player to move onto it picks it up at the normal cost.
    s = tackle(Script(0, 0))  # ball hidden on (11,10)
    s = act(s, move(s, "SLB", 10, 10))  # miss
    chance = Script(2, 1, 0, 0)  # offence 3,2 against 1,1: offence takes 3, defence 1
    s = act(s, move(s, "X", 13, 11), chance)  # miss: the ball is shown and the dice roll
    assert chance.labels() == ["dice"]
    assert s.phase[0] == PLAY and not s.ball_hidden[0] and s.ball_holder[0] == -1
    assert s.ball_square[0] == sq(11, 10)
    assert board_cells(s)[sq(11, 10)] == "*"
    assert s.to_act[0] == ONE
    assert s.points[0].tolist() == [5, 3]  # 2 + 3 and 2 + 1: points carry over within the down
    if picker == "offence":
        out = act(s, move(s, "H", 11, 10))  # diagonal: 2 points
        assert out.ball_holder[0] == slot("H") and out.points[0].tolist() == [3, 3]
    else:
        s = act(s, "end turn")
        out = act(s, move(s, "SLB", 11, 10))  # 1 point, then a live return
        assert out.ball_holder[0] == slot("SLB") and out.points[0].tolist() == [5, 2]
        assert out.phase[0] == PLAY and out.to_act[0] == TWO


GOAL = """
    line of scrimmage: row 7 lane 9
    to act: two
    points: 2-3
    board:
      2 | .   .   .   .   .   .   .   .   .   RDE .   .   .   .   .   .   .   .
      3 | .   .   .   .   .   .   .   .   LDE .   .   .   .   .   .   .   .   .
      4 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
      6 | .   .   .   .   .   .   .   .   .   .   SLB .   .   .   .   .   .   .
"""
# H's free neighbours (order N..NW, N is the tackler LDE): (3,10) (4,10) (5,10) (5,9) (5,8) (4,8) (3,8)


@pytest.mark.parametrize("k, ball, recoverer, touchback", [
    (0, (3, 10), "RDE", True),   # rows 1-3: the end zone team one attacks, team two's own
    (2, (5, 10), "SLB", False),  # field of play: a live return
])
def test_defender_recovering_in_his_own_end_zone_gets_a_touchback(k, ball, recoverer, touchback):
    # Rule 27: a defender who recovers in his own end zone (the one the offence attacks) gets a touchback:
    # his team takes first-and-ten at its kickoff spot (rule 4: team two at row 9, lane 10).
    s = position(GOAL)
    s = act(s, move(s, "LDE", 4, 9), Script(0, k))
    assert s.ball_square[0] == sq(*ball) and s.ball_hidden[0]
    out = act(s, move(s, recoverer, *ball))
    if touchback:
        assert out.offence[0] == TWO and out.down[0] == 1
        assert (out.los_row[0] + 1, out.los_lane[0] + 1) == (9, 10)
        assert out.line_to_gain[0] + 1 == 12
        assert out.phase[0] == OFFENCE_FORMATION and out.score[0].tolist() == [0, 0]
    else:
        assert out.phase[0] == PLAY and out.ball_holder[0] == slot(recoverer) and out.to_act[0] == TWO


def test_defender_picking_up_a_shown_ball_in_his_own_end_zone_gets_a_touchback():
    # Rule 27: the touchback applies to a recovery of the visible ball too (after the blind scramble).
    s = position("""
        line of scrimmage: row 7 lane 9
        to act: two
        points: 0-3
        last holder: one
        board:
          2 | .   .   .   .   .   .   .   .   .   .   RDE *   .   .   .   .   .   .
    """)
    out = act(s, move(s, "RDE", 2, 12))
    assert out.offence[0] == TWO and (out.los_row[0] + 1, out.los_lane[0] + 1) == (9, 10)
    assert out.phase[0] == OFFENCE_FORMATION


def test_no_free_square_beside_the_carrier_means_no_fumble():
    # Rule 27: H is on the edge with all five neighbours taken: the fumble roll hits but the tackle stands.
    s = position("""
        line of scrimmage: row 14 lane 9
        to act: two
        points: 2-3
        board:
         11 | MLB SLB .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .
         12 | H@  Y   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .
         13 | X   Z   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .
    """)
    chance = Script(0)
    out = act(s, move(s, "MLB", 12, 1), chance)
    assert chance.log == [("tackle fumble", [0])]
    assert out.phase[0] == OFFENCE_FORMATION and out.offence[0] == ONE and out.down[0] == 2
    assert out.los_row[0] + 1 == 12


# ================================================================================ rule 25: the carrying defence

DEF_CARRY = """
    line of scrimmage: row 14 lane 9
    to act: two
    points: 0-4
    last holder: two
    board:
     11 | .   .   .   .   .   .   .   .   RCB .   .   .   .   .   .   .   .   .
     12 | .   .   .   .   .   .   .   .   MLB@ WLB .   .   .   LCB .   .   .   .
     13 | .   .   .   .   .   .   .   .   .   SS  .   .   .   .   .   .   .   .
     14 | .   .   .   .   .   .   .   .   FS  .   .   .   .   .   .   .   .   .
"""  # team one had the ball at the snap; team two's MLB carries it, attacking rows 28-30 (down the diagram)


def test_carrying_defence_may_hand_off_and_lateral_but_never_throw_forward():
    # Rules 18 and 25: handoffs and laterals are open to whichever team carries the ball; the forward pass
    # only to the team that had it at the snap - even with the pass unused, points to spare and MLB behind
    # the LOS in his own team's frame.
    s = position(DEF_CARRY)
    assert legal(s, "throw WLB") and legal(s, "throw RCB") and legal(s, "throw LCB")
    assert not legal(s, "throw FS") and not legal(s, "throw SS")
    with pytest.raises(IllegalActionError):
        act(s, "throw FS")
    back = act(s, "throw RCB")  # RCB is behind MLB for team two: the handoff banks a point
    assert back.ball_holder[0] == slot("RCB") and back.points[0].tolist() == [0, 5]
    chance = Script(1)
    lat = act(s, "throw LCB", chance)
    assert chance.highs == [("lateral", 100)]
    assert lat.ball_holder[0] == slot("LCB") and lat.points[0].tolist() == [0, 2]


def test_team_with_the_ball_at_the_snap_moves_first_in_every_round():
    # Rule 25: team two holds the ball, but when the round ends the dice roll and team one moves first.
    s = position(DEF_CARRY)
    chance = Script(0, 0, 5, 5)
    out = act(s, "end turn", chance)
    assert chance.labels() == ["dice"]
    assert out.phase[0] == PLAY and out.to_act[0] == ONE and out.offence[0] == ONE
    assert out.ball_holder[0] == slot("MLB")
