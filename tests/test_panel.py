"""The panel of scripted opponents (agents.panel): legal play in every config, no hidden information,
determinism whatever the batch, each style's football idea in a scripted position, and the bar against
the random agent."""

import copy

import numpy as np
import pytest

from agents import PANEL, RandomAgent, play_games
from agents.base import Agent
from gridiron_env.config import GameConfig
from gridiron_env.core import actions as A
from gridiron_env.core import from_diagram, init, pass_price, step
from gridiron_env.core.engine import pass_dice, start_drive
from gridiron_env.core.geometry import FRAME_ROW, TAGS
from gridiron_env.core.state import (
    DEFENCE_FORMATION, KICK_DECISION, OFFENCE_FORMATION, PLAY, SCRAMBLE, SPECIALS_PICK,
)
from train.tournament import run_tournament

NAMES = sorted(PANEL)
CONFIGS = (
    GameConfig(target_score=7, max_steps=300),
    GameConfig(target_score=3, specials=False, max_steps=300),
    GameConfig(target_score=10, kick_mode="paper", paper_answer_chance=0.5, max_steps=300),
    GameConfig(target_score=14, longest_punt=4, max_rolls_per_down=3, max_steps=300),
)


def _watch(agent, opponent, n_games, seed, config, seen=None, a_team=None):
    """Play ``agent`` against ``opponent`` step by step, asking ``agent`` for every game of the batch (no
    ``games`` argument) and checking its action is legal wherever its team is to act. ``seen(state,
    actions, mine)`` is called before each step. Returns the final state."""
    a_team = np.arange(n_games) % 2 if a_team is None else np.asarray(a_team)
    seeds = seed + np.arange(n_games)
    agent.reset(seeds)
    opponent.reset(seeds)
    state = init(n_games, seed=seed, config=config)
    while True:
        live = ~(state.terminated | state.truncated)
        if not live.any():
            return state
        mine = live & (state.to_act == a_team)
        ours = np.asarray(agent.act(state, config))
        assert ours.shape == (n_games,)
        g = np.flatnonzero(mine)
        bad = g[~state.legal[g, ours[g]]]
        assert bad.size == 0, f"{agent.name} chose the illegal {A.ACTION_NAMES[ours[bad[0]]]} in game {bad[0]}"
        theirs = np.asarray(opponent.act(state, config, games=np.flatnonzero(live & ~mine)))
        actions = np.where(mine, ours, theirs)
        if seen is not None:
            seen(state, actions, mine)
        state = step(state, actions, config=config)


def test_panel_lists_five_or_more_distinct_agents():
    assert len(PANEL) >= 5
    specials = set()
    for name, make in PANEL.items():
        agent = make()
        assert isinstance(agent, Agent)
        assert agent.name == name
        specials.add(agent.special)
    assert len(specials) >= 3  # the styles pick different special players
    # fresh objects: two constructions share no memory
    assert PANEL[NAMES[0]]() is not PANEL[NAMES[0]]()


@pytest.mark.parametrize("name", NAMES)
def test_only_legal_actions_in_every_config(name):
    for i, config in enumerate(CONFIGS):
        phases = set()

        def seen(state, actions, mine):
            phases.update(state.phase[mine].tolist())

        _watch(PANEL[name](), RandomAgent(), 6, 100 + 10 * i, config, seen)
        assert {OFFENCE_FORMATION, DEFENCE_FORMATION, PLAY} <= phases
        assert (SPECIALS_PICK in phases) == config.specials
    # against another style too (both sides planned)
    other = PANEL[NAMES[(NAMES.index(name) + 1) % len(NAMES)]]()
    state = _watch(PANEL[name](), other, 4, 7, CONFIGS[0])
    assert (state.terminated | state.truncated).all()


@pytest.mark.parametrize("name", NAMES)
def test_deterministic_per_seed_whatever_the_batch(name):
    config = GameConfig(target_score=7, max_steps=400)
    opponent = PANEL[NAMES[(NAMES.index(name) + 2) % len(NAMES)]]
    batch = play_games(PANEL[name](), opponent(), 4, seed=31, config=config)
    for i in range(4):
        lone = play_games(PANEL[name](), opponent(), 1, seed=31 + i, config=config, a_team=[batch.a_team[i]])
        assert lone.winner[0] == batch.winner[i]
        assert (lone.score[0] == batch.score[i]).all()
        assert lone.steps[0] == batch.steps[i]
    again = play_games(PANEL[name](), opponent(), 4, seed=31, config=config)
    assert (again.score == batch.score).all() and (again.steps == batch.steps).all()


def _variant_hidden_ball(state, g):
    """A copy of the batch with game g's hidden ball moved to another empty square beside a player next to
    it (where a fumble could as well have put it), or None."""
    from gridiron_env.core.geometry import DISTANCE

    ball = int(state.ball_square[g])
    board = state.board[g]
    for p in np.flatnonzero((DISTANCE[:, ball] == 1) & (board >= 0)):
        for sq in np.flatnonzero((DISTANCE[:, p] == 1) & (board < 0)):
            if sq != ball:
                other = state.copy()
                other.ball_square[g] = sq
                return other
    return None


@pytest.mark.parametrize("name", NAMES)
def test_never_reads_hidden_information(name):
    config = GameConfig(target_score=10, max_steps=600)
    checked = {"scramble": 0, "special": 0, "rng": 0}
    agent = PANEL[name]()

    def seen(state, actions, mine):
        for g in np.flatnonzero(mine):
            probe, key = None, None
            if state.phase[g] == SCRAMBLE and state.ball_hidden[g]:
                probe, key = _variant_hidden_ball(state, g), "scramble"
            elif state.phase[g] == SPECIALS_PICK and state.to_act[g] == 1:
                probe, key = state.copy(), "special"
                probe.special[g, 0] = (probe.special[g, 0] + 1) % 4
            elif state.phase[g] == PLAY and checked["rng"] < 20:
                probe, key = state.copy(), "rng"
                probe.rng_key[g] ^= np.uint64(0xDEADBEEF)
                probe.rng_counter[g] += np.uint64(17)
            if probe is None:
                continue
            # two copies of the agent's memory, asked about the real game and about the changed one
            real = copy.deepcopy(agent).act(state, config, games=np.array([g]))[g]
            changed = copy.deepcopy(agent).act(probe, config, games=np.array([g]))[g]
            assert changed == real, f"{name} read hidden {key} information in game {g}"
            checked[key] += 1

    _watch(agent, RandomAgent(), 24, 500, config, seen)
    assert checked["scramble"] >= 1 and checked["special"] >= 1 and checked["rng"] >= 1, checked


# --- each style's idea in a scripted position ----------------------------------------------------------------

def _fourth_down(los_row, to_gain, config=GameConfig(specials=False)):
    """Team one at the kick decision of 4th and ``to_gain`` from code row ``los_row`` (rows in its frame)."""
    state = init(1, seed=3, config=config)
    start_drive(state, [0], 0, los_row, 8, config)
    state.down[0] = 4
    state.line_to_gain[0] = los_row - to_gain
    state = step(state, np.array([A.OFFENCE_FORMATION_BASE]), config=config)  # i_form
    state = step(state, np.array([A.DEFENCE_FORMATION_BASE]), config=config)  # four_three
    assert state.phase[0] == KICK_DECISION and state.to_act[0] == 0
    return state


def _decide(name, state, config=None):
    agent = PANEL[name]()
    agent.reset(np.arange(state.batch_size))
    return int(agent.act(state, config)[0])


def test_fourth_and_two_near_midfield_splits_the_styles():
    # 4th and 2 on frame row 14 (a 65-yard field goal, 9%): the spread and the blitz's balanced offence go
    # for it; the power runner, the prevent team and ball control punt
    state = _fourth_down(14, 2)
    assert _decide("spread_pass", state) == A.PLAY_ON
    assert _decide("blitz", state) == A.PLAY_ON
    for name in ("power_run", "prevent", "ball_control"):
        assert A.ACTION_KIND[_decide(name, state)] == A.KIND_PUNT, name


def test_fourth_down_field_goal_by_the_book():
    # 4th and 2 on frame row 11 (a 53-yard field goal, 62.5%): ball control kicks it
    state = _fourth_down(11, 2)
    assert _decide("ball_control", state) == A.FIELD_GOAL
    assert _decide("spread_pass", state) == A.PLAY_ON  # short yardage: the spread goes for it


_POCKET = """gridiron diagram v1
line of scrimmage: row 20 lane 9
points: 5-3
dice: 5,2-3,1
formations: shotgun nickel
specials: sure_hands ball_hawk
board:
 12 | .   .   .   .   .   .   .   .   FS  .   .   .   .   .   .   .   .   .
 13 | .   {X13} .   .   .   .   .   .   .   .   .   .   SS  .   .   .   .   .
 14 | .   X   .   .   .   .   .   LCB .   .   .   .   .   RCB .   .   .   .
 18 | .   .   .   .   .   .   WLB .   MLB .   SLB .   .   .   .   .   .   .
 19 | .   .   .   .   .   .   LDE LDT .   RDT RDE .   .   .   .   .   .   .
 20 | .   .   .   .   .   .   LT  LG  C   RG  RT  Y   .   .   .   .   Z   .
 22 | .   .   .   .   .   .   .   .   QB@ .   .   .   .   .   .   .   .   .
 23 | .   .   .   .   .   .   .   .   H   .   .   .   .   .   .   F   .   .
"""


def _pocket(covered: bool):
    text = _POCKET.replace("{X13}", "LCB" if covered else ".  ")
    if covered:
        text = text.replace(" LCB .   .   .   .   .   RCB", " .   .   .   .   .   .   RCB")
    return from_diagram(text)


def test_spread_throws_when_the_price_is_good():
    state = _pocket(covered=False)
    price = pass_price(state, "X")
    assert price.kind == "forward pass" and float(price.chance) >= 0.65
    assert _decide("spread_pass", state) == A.THROW_BASE + TAGS.index("X")
    # the same pocket with X blanketed: no good price, no pressure: no throw
    state = _pocket(covered=True)
    assert float(pass_price(state, "X").chance) < 0.65
    action = _decide("spread_pass", state)
    assert A.ACTION_KIND[action] != A.KIND_THROW
    # ball control never throws a contested ball, the power runner never throws forward
    for name in ("ball_control", "power_run"):
        action = _decide(name, state)
        if A.ACTION_KIND[action] == A.KIND_THROW:
            receiver = int(A.ACTION_ARG[action])
            assert FRAME_ROW[0, state.player_square[0, receiver]] >= FRAME_ROW[0, state.ball_square[0]], name


def test_power_runner_never_throws_forward_and_hands_off():
    handoffs = []

    def seen(state, actions, mine):
        for g in np.flatnonzero(mine & (state.phase == PLAY) & (state.to_act == state.offence)):
            a = int(actions[g])
            if A.ACTION_KIND[a] == A.KIND_THROW:
                receiver = int(A.ACTION_ARG[a])
                assert FRAME_ROW[state.to_act[g], state.player_square[g, receiver]] >= FRAME_ROW[
                    state.to_act[g], state.ball_square[g]], "the power runner threw forward"
                if state.ball_holder[g] == 0:
                    handoffs.append(TAGS[receiver])

    _watch(PANEL["power_run"](), RandomAgent(), 8, 40, GameConfig(target_score=14), seen)
    assert len(handoffs) >= 10 and set(handoffs) <= {"F", "H", "Z", "Y"}


def test_ball_control_throws_only_certain_passes():
    def seen(state, actions, mine):
        for g in np.flatnonzero(mine & (state.phase == PLAY)):
            a = int(actions[g])
            if A.ACTION_KIND[a] != A.KIND_THROW:
                continue
            receiver = int(A.ACTION_ARG[a])
            team = int(state.to_act[g])
            if FRAME_ROW[team, state.player_square[g, receiver]] < FRAME_ROW[team, state.ball_square[g]]:
                off, _ = pass_dice(state, np.array([g]), np.array([receiver]))
                assert off[0] == 0, "ball control threw a contested pass"

    _watch(PANEL["ball_control"](), RandomAgent(), 8, 60, GameConfig(target_score=14), seen)


_OPEN_FIELD = """gridiron diagram v1
phase: play
to act: two
line of scrimmage: row 20 lane 9
points: 0-3
dice: 1,1-3,1
formations: i_form four_three
specials: - -
board:
  4 | .   .   .   .   LDE LDT RDT RDE .   .   .   .   .   .   .   .   .   .
  5 | .   .   .   .   .   SLB MLB WLB .   .   .   .   .   .   .   .   .   .
  6 | .   .   .   LCB .   .   .   .   .   .   .   RCB .   .   .   .   .   .
  7 | .   .   .   .   .   .   .   FS  .   SS  .   .   .   .   .   .   .   .
 12 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
 20 | .   .   .   .   .   .   LT  LG  C   RG  RT  Y   .   .   .   .   .   .
 21 | .   .   .   .   .   .   .   .   QB  .   .   .   .   .   .   .   Z   .
 22 | .   .   .   .   .   .   .   .   F   .   .   .   .   .   .   .   .   .
 23 | X   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .   .
"""


def _defence_turn(name):
    """Play the defence's whole turn in the open-field position: (its actions, the points it banked by
    ending its turn, or None when it spent all it could and the engine ended the turn)."""
    state = from_diagram(_OPEN_FIELD)
    agent = PANEL[name]()
    agent.reset(np.arange(1))
    taken = []
    while state.to_act[0] == 1 and state.rolls[0] == 1:
        a = int(agent.act(state)[0])
        taken.append(a)
        if a == A.END_TURN:
            return taken, int(state.points[0, 1])
        state = step(state, np.array([a]))
    return taken, None


def test_blitz_sends_everything_and_prevent_keeps_its_cushion():
    # the carrier is 5 rows from the nearest defender: no tackle this turn
    taken, banked = _defence_turn("blitz")
    assert banked is None and len(taken) == 3  # every point spent coming downhill (3 straight steps)
    taken, banked = _defence_turn("prevent")
    assert banked is not None and banked >= 1  # points kept for next round's tackle range
    movers = {TAGS[int(A.ACTION_ARG[a])] for a in taken if A.ACTION_KIND[a] == A.KIND_MOVE}
    assert movers <= {"LDE", "LDT", "RDT", "RDE"}  # only the four-man rush comes


@pytest.mark.parametrize("name", NAMES)
def test_fast_bar_against_random(name):
    # 40 games, teams and coin tosses balanced (each deal played from both sides)
    result = run_tournament({name: PANEL[name](), "random": RandomAgent()}, 40, config=GameConfig(), seed=900)
    row = next(r for r in result.pair_rows() if r["agent"] == name)
    assert row["wins"] >= 39, row


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_ninety_nine_percent_against_random(name):
    result = run_tournament({name: PANEL[name](), "random": RandomAgent()}, 400, config=GameConfig(), seed=2024)
    row = next(r for r in result.pair_rows() if r["agent"] == name)
    assert row["wins"] >= 396, row


def test_carrier_options_land_and_cost_as_the_engine_says():
    # the shared building block every runner plans with: each listed first action (move, push, gap run),
    # stepped by the engine, puts the carrier on the listed square for the listed points
    from agents.panel.common import carrier_options, side_of

    config = GameConfig(max_steps=400)
    checked = 0
    for seed in range(3):
        state = init(16, seed=seed, config=config)
        agents = (PANEL["power_run"](), PANEL["blitz"]())
        for a in agents:
            a.reset(seed * 16 + np.arange(16))
        for _ in range(160):
            carry = np.flatnonzero((state.phase == PLAY) & (state.ball_holder >= 0) & (state.to_act >= 0))
            for g in carry[:3]:
                view = state.take([g])
                holder = int(view.ball_holder[0])
                if (holder < 11) != (view.to_act[0] == view.offence[0]):
                    continue  # the other side is to act
                squares, costs, ids, _ = carrier_options(view, side_of(view))
                for k in np.flatnonzero(squares[0] >= 0):
                    after = step(view, np.array([ids[0, k]]), config=config)
                    team = int(view.to_act[0])
                    if after.rolls[0] != view.rolls[0] or after.phase[0] != PLAY or after.ball_holder[0] != holder:
                        continue  # the turn ended (dice rolled again) or the play did (a score)
                    assert after.player_square[0, holder] == squares[0, k], A.ACTION_NAMES[ids[0, k]]
                    assert view.points[0, team] - after.points[0, team] == costs[0, k], A.ACTION_NAMES[ids[0, k]]
                    checked += 1
            actions = np.zeros(16, dtype=np.int64)
            for i, a in enumerate(agents):
                games = np.flatnonzero(state.to_act == i)
                if games.size:
                    actions[games] = a.act(state, config, games=games)[games]
            state = step(state, actions, config=config)
    assert checked >= 50


def test_field_goal_chances_follow_the_kicking_table():
    from agents.panel.common import field_goal_chances
    from gridiron_env.core.odds import field_goal_chance, paper_field_goal_chance

    rows = np.arange(30)
    dice = field_goal_chances(rows, GameConfig())
    paper = field_goal_chances(rows, GameConfig(kick_mode="paper", paper_answer_chance=0.6))
    for r in rows:
        yards = 4 * (r - 2) + 17
        in_range = 3 <= r <= 17  # code rows 3-17: the rulebook's LOS frame rows 4-18, at most 80 yards
        assert dice[r] == (field_goal_chance(yards) if in_range else 0.0)
        assert paper[r] == (paper_field_goal_chance(yards, 0.6) if in_range else 0.0)
    assert dice[11] == 0.625  # a 53-yard kick: 3d6 >= 10
