"""Baseline agents (agents/): the protocol, RandomAgent and HeuristicAgent.

Scenarios are built from diagrams (rulebook numbering: rows 1-30 from the top, lanes 1-18; team one attacks
up the diagram toward rows 1-3, team two down). Players a scenario does not need are parked on far rows by
``position`` so that all 22 are on the field. Random outcomes are injected with ``ScriptedChance``.
"""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pytest

from agents import Agent, HeuristicAgent, RandomAgent, play_games, visible_view
from agents.bot import BotAgent
from gridiron_env import GameConfig, action_id, action_name, init, step, to_diagram
from gridiron_env.core import actions as A
from gridiron_env.core.chance import ScriptedChance
from gridiron_env.core.engine import recompute_legal, start_drive
from gridiron_env.core.geometry import DISTANCE, NEIGHBOUR, TAGS
from gridiron_env.core.invariants import check_invariants
from gridiron_env.core.state import KICK_DECISION, PLAY, SCRAMBLE, SPECIALS_PICK, State
from gridiron_env.core.scenario import position

SHIPPED_BOT = Path(__file__).resolve().parents[1] / "gridiron_env" / "data" / "bot.npz"

CFG = GameConfig()


# ------------------------------------------------------------------------------------------------ helpers



def row(number: int, cells: dict) -> str:
    """One diagram board row: ``cells`` maps lane (1-18) -> cell text."""
    return f"{number:>3} | " + " ".join(cells.get(lane, ".") for lane in range(1, 19))


def sq(r: int, lane: int) -> int:
    """Square of rulebook row ``r``, lane ``lane`` (1-based)."""
    return (r - 1) * 18 + (lane - 1)


def act_one(agent, s: State, config: GameConfig = CFG) -> int:
    """The agent's action in game 0, checked legal."""
    a = int(agent.act(s, config)[0])
    assert s.legal[0, a], f"{agent.name} chose illegal {action_name(a)!r}\n{to_diagram(s)}"
    return a


def move_destination(s: State, a: int, game: int = 0) -> int:
    """Square a move action takes its player to."""
    assert A.ACTION_KIND[a] == A.KIND_MOVE, action_name(a)
    slot = int(A.ACTION_ARG[a])
    team = int(s.to_act[game])
    return int(NEIGHBOUR[team, s.player_square[game, slot], A.ACTION_DIRECTION[a]])


def fresh(agent_class=HeuristicAgent, batch: int = 1, **kwargs):
    agent = agent_class(**kwargs)
    agent.reset(np.arange(batch))
    return agent


def run_games(agent_one, agent_two, n: int, seed: int, config: GameConfig, check=None):
    """Play n games (agent_one is team one); returns (final state, per-game action lists)."""
    s = init(n, seed=seed, config=config)
    seeds = seed + np.arange(n)
    agent_one.reset(seeds)
    agent_two.reset(seeds)
    history = [[] for _ in range(n)]
    while True:
        live = ~(s.terminated | s.truncated)
        if not live.any():
            return s, history
        actions = np.zeros(n, dtype=np.int64)
        for team, agent in ((0, agent_one), (1, agent_two)):
            games = np.flatnonzero(live & (s.to_act == team))
            if games.size:
                actions[games] = agent.act(s, config, games=games)[games]
        if check is not None:
            check(s, actions, live)
        for g in np.flatnonzero(live):
            history[g].append(int(actions[g]))
        s = step(s, actions, config=config)


# --------------------------------------------------------------------------------------------- protocol


def test_both_agents_follow_the_protocol():
    for agent in (RandomAgent(), HeuristicAgent(), HeuristicAgent(special=None)):
        assert isinstance(agent, Agent)
        assert isinstance(agent.name, str) and agent.name
        agent.reset(np.arange(3))
        out = agent.act(init(3, seed=5), CFG)
        assert out.shape == (3,) and out.dtype == np.int64


@pytest.mark.parametrize("one, two", [("random", "random"), ("heuristic", "random"), ("random", "heuristic"),
                                      ("heuristic", "heuristic")])
def test_every_action_either_agent_returns_is_legal(one, two):
    # Rules 7-29 through the legal mask: every action of a whole batch of games, to the end (the step cap
    # is small so that a game may also end truncated, rule 30), must be legal for the team to act.
    make = {"random": RandomAgent, "heuristic": HeuristicAgent}
    config = GameConfig(target_score=7, max_steps=300)
    seen_phases = set()

    def check(s, actions, live):
        games = np.flatnonzero(live)
        assert s.legal[games, actions[games]].all(), [
            (int(g), action_name(int(actions[g]))) for g in games if not s.legal[g, actions[g]]]
        seen_phases.update(int(p) for p in s.phase[games])

    s, _ = run_games(make[one](), make[two](), 12, seed=11, config=config, check=check)
    assert (s.terminated | s.truncated).all()
    check_invariants(s, config=config)
    assert {SPECIALS_PICK, KICK_DECISION, PLAY} <= seen_phases


def test_game_i_of_a_batch_plays_exactly_like_a_lone_game():
    # Per-game random streams: game i's actions depend only on its seed and its own history.
    config = GameConfig(target_score=7, max_steps=400)

    def sampling_bot():  # the shipped bot's logits, and so its samples, are per game too
        return BotAgent.load(SHIPPED_BOT, temperature=1.0)

    for make_one, make_two in ((HeuristicAgent, RandomAgent), (RandomAgent, HeuristicAgent),
                               (lambda: HeuristicAgent(special=None), HeuristicAgent),
                               (sampling_bot, HeuristicAgent)):
        batch_state, batch_hist = run_games(make_one(), make_two(), 4, seed=40, config=config)
        for i in range(4):
            lone_state, lone_hist = run_games(make_one(), make_two(), 1, seed=40 + i, config=config)
            assert lone_hist[0] == batch_hist[i]
            assert lone_state.take(0).equals(batch_state.take(i))


def test_play_games_game_i_equals_a_lone_match():
    config = GameConfig(target_score=7, max_steps=400)
    batch = play_games(HeuristicAgent(), RandomAgent(), 4, seed=70, config=config)
    for i in range(4):
        lone = play_games(HeuristicAgent(), RandomAgent(), 1, seed=70 + i, config=config,
                          a_team=batch.a_team[i:i + 1])
        assert lone.winner[0] == batch.winner[i]
        assert (lone.score[0] == batch.score[i]).all() and lone.steps[0] == batch.steps[i]


def test_random_agent_is_uniform_over_the_legal_actions():
    # 4000 draws over the 4 legal specials (rule 24): each count within 4 standard errors of 1000.
    agent = fresh(RandomAgent, batch=4000)
    s = init(4000, seed=3)
    counts = np.bincount(agent.act(s, CFG) - A.SPECIAL_BASE, minlength=4)
    assert counts.sum() == 4000 and counts.size == 4
    assert (np.abs(counts - 1000) < 4 * np.sqrt(4000 * 0.25 * 0.75)).all(), counts


# ---------------------------------------------------------------------------------- hidden information


TACKLE_POSITION = """
phase: play
to act: two
offence: one
line of scrimmage: row 15 lane 9
points: 0-3
specials: speedy_qb speedy_qb
board:
 11 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
 12 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
 14 | .   .   .   .   .   .   C   .   .   .   LDE .   .   .   .   .   .   .
"""


def scramble_position(ball: str) -> State:
    # The moment after MLB tackled H at (12, 9) and the ball came loose (rule 27): the tackling side (two)
    # takes the first blind step; the ball is hidden on an empty square beside the pile.
    return position(f"""
        phase: scramble
        to act: two
        offence: one
        line of scrimmage: row 15 lane 9
        specials: speedy_qb speedy_qb
        scramble: step 0 resume two
        ball: loose {ball} hidden
        last holder: one
        board:
         11 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         12 | .   .   .   .   .   .   .   .   H   .   .   .   .   .   .   .   .   .
         14 | .   .   .   .   .   .   C   .   .   .   LDE .   .   .   .   .   .   .
        """)


def test_heuristic_ignores_the_hidden_ball_square():
    # Rule 27: during the blind scramble no one may see the ball. Two positions that differ only in the
    # hidden ball square get the same step, from an agent that saw the tackle (it remembers the pile) and
    # from a fresh one.
    states = [scramble_position(ball) for ball in ("12,10", "13,9", "11,8")]
    assert all(s.phase[0] == SCRAMBLE and s.ball_hidden[0] for s in states)
    witness = fresh()
    tackle = act_one(witness, position(TACKLE_POSITION))
    assert move_destination(position(TACKLE_POSITION), tackle) == sq(12, 9)
    remembered = [act_one(copy.deepcopy(witness), s) for s in states]
    assert len(set(remembered)) == 1
    # ... and the step it takes lands beside the pile, where the ball must be
    assert DISTANCE[move_destination(states[0], remembered[0]), sq(12, 9)] == 1
    forgetful = [act_one(fresh(), s) for s in states]
    assert len(set(forgetful)) == 1


def test_visible_view_blanks_exactly_the_hidden_fields():
    s = scramble_position("12,10")
    s.rng_key[:] = 12345
    view = visible_view(s)
    assert view.ball_square[0] == -1 and view.rng_key[0] == 0 and view.rng_counter[0] == 0
    assert (view.player_square == s.player_square).all() and s.ball_square[0] == sq(12, 10)


@pytest.mark.parametrize("special", ["speedy_qb", None])
def test_heuristic_ignores_the_other_teams_secret_special(special):
    # Rule 24: each team picks without seeing the other's pick. Team two's pick must be the same whatever
    # team one picked.
    s0 = init(1, seed=9)
    picks = []
    for first in range(4):
        s = step(s0, np.array([A.SPECIAL_BASE + first]))
        assert s.phase[0] == SPECIALS_PICK and s.to_act[0] == 1 and s.special[0, 0] == first
        picks.append(act_one(fresh(special=special), s))
    assert len(set(picks)) == 1


def test_heuristic_ignores_the_random_stream_state():
    # The dice to come live in rng_key / rng_counter: changing them must not change any decision.
    config = GameConfig(target_score=7, max_steps=150)
    agents = [HeuristicAgent(), HeuristicAgent()]
    for a in agents:
        a.reset(np.arange(4))
    s = init(4, seed=21, config=config)
    compared = 0
    while not (s.terminated | s.truncated).all():
        actions = np.zeros(4, dtype=np.int64)
        for team in (0, 1):
            games = np.flatnonzero(s.to_act == team)
            if games.size:
                twin = s.copy()
                twin.rng_key[:] = ~twin.rng_key
                twin.rng_counter[:] += np.uint64(77)
                before = copy.deepcopy(agents[team])
                mine = agents[team].act(s, config, games=games)[games]
                theirs = before.act(twin, config, games=games)[games]
                assert (mine == theirs).all()
                compared += games.size
                actions[games] = mine
        s = step(s, actions, config=config)
    assert compared > 300


# ----------------------------------------------------------------------------------------------- defence


@pytest.mark.parametrize("defender_at, points", [((11, 9), 1), ((11, 10), 2), ((12, 8), 1), ((13, 10), 3)])
def test_heuristic_always_takes_a_legal_tackle(defender_at, points):
    # Rule 14: a defender moving onto the carrier tackles him (a diagonal step costs 2, rule 13). Whenever a
    # tackle is legal the heuristic takes it, even with other defenders it could move.
    r, lane = defender_at
    s = position("\n".join([
        "phase: play", "to act: two", "offence: one", "line of scrimmage: row 14 lane 9", f"points: 3-{points}",
        "board:",
        row(8, {9: "FS"}),
        row(r, {lane: "MLB"}) if r != 12 else row(12, {lane: "MLB", 9: "H@"}),
        *([row(12, {9: "H@"})] if r != 12 else []),
        row(15, {7: "C", 12: "LDE"}),
    ]))
    a = act_one(fresh(), s)
    assert move_destination(s, a) == sq(12, 9)
    after = step(s, np.array([a]), chance=ScriptedChance([7]))  # tackle fumble roll: no fumble (rule 15)
    check_invariants(after, check_mask=True)
    # short of the line to gain (row 11): 2nd down at the tackle (row 12, 0-based 11)
    assert after.down[0] == 2 and after.los_row[0] == 11


def test_heuristic_runs_down_a_carrier_within_reach():
    # MLB is three orthogonal squares from H and the defence has 4 points: a tackle this turn (rules 13-14).
    s = position("""
        phase: play
        to act: two
        offence: one
        line of scrimmage: row 14 lane 9
        points: 0-4
        board:
          6 | .   .   .   .   .   .   .   .   FS  .   .   .   .   .   .   .   .   .
          9 | .   .   .   .   .   .   .   .   .   .   .   .   MLB .   .   .   .   .
         12 | .   .   .   .   .   .   .   .   .   .   .   .   H@  .   .   .   .   .
        """)
    agent = fresh()
    for _ in range(3):
        a = act_one(agent, s)
        assert A.ACTION_KIND[a] == A.KIND_MOVE and TAGS[A.ACTION_ARG[a]] == "MLB"
        s = step(s, np.array([a]), chance=ScriptedChance([7]))
        check_invariants(s, check_mask=True)
        if s.phase[0] != PLAY:
            break
    assert s.down[0] == 2 and s.los_row[0] == 11


def test_heuristic_steps_onto_a_visible_loose_ball():
    # Rule 27: after the blind steps the ball is shown; the first player to move onto it picks it up.
    s = position("""
        phase: play
        to act: two
        offence: one
        line of scrimmage: row 15 lane 9
        points: 0-3
        ball: loose 12,10
        last holder: one
        board:
         11 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         12 | .   .   .   .   .   .   .   .   H   .   .   .   .   .   .   .   .   .
         14 | .   .   .   .   .   .   C   .   .   .   LDE .   .   .   .   .   .   .
        """)
    a = act_one(fresh(), s)
    assert move_destination(s, a) == sq(12, 10)
    after = step(s, np.array([a]))
    assert TAGS[after.ball_holder[0]] == "MLB"


# ----------------------------------------------------------------------------------------------- offence


def kick_state(team: int, frame_los: int, to_gain: int, down: int, seed: int = 0) -> State:
    """A kick decision for ``team`` with the LOS on its frame row ``frame_los`` (rows to the end zone it
    attacks: frame_los - 2), ``to_gain`` rows to gain on ``down``, reached through the engine (rule 9)."""
    s = init(1, seed=seed, config=CFG)
    s.special[:] = A.SPEEDY_QB
    los_row = frame_los if team == 0 else 29 - frame_los
    start_drive(s, [0], team, los_row, 8)
    s.down[:] = down
    s.line_to_gain[:] = los_row - to_gain if team == 0 else los_row + to_gain
    recompute_legal(s, CFG)
    s = step(s, np.array([action_id("formation singleback")]))
    s = step(s, np.array([action_id("formation four_three")]))
    assert s.phase[0] == KICK_DECISION, to_diagram(s)
    return s


@pytest.mark.parametrize("team", [0, 1])
@pytest.mark.parametrize("frame_los, to_gain", [(5, 3), (6, 3), (7, 4), (8, 6)])
def test_heuristic_kicks_a_field_goal_on_4th_down_from_close_range(team, frame_los, to_gain):
    # Rule 21: from frame row 5-8 the kick is 29-41 yards, 84-95% good; on 4th and 3+ it kicks.
    s = kick_state(team, frame_los, to_gain, down=4)
    assert act_one(fresh(), s) == A.FIELD_GOAL


@pytest.mark.parametrize("team", [0, 1])
def test_heuristic_does_not_kick_before_4th_down(team):
    # Rule 9: a field goal is on offer on every down in range; with downs left the heuristic plays on.
    s = kick_state(team, 6, 3, down=2)
    assert s.legal[0, A.FIELD_GOAL]
    assert act_one(fresh(), s) == A.PLAY_ON


@pytest.mark.parametrize("team", [0, 1])
@pytest.mark.parametrize("frame_los", [13, 14, 20, 25])
def test_heuristic_punts_on_4th_and_long_and_keeps_it_out_of_the_end_zone(team, frame_los):
    # Rule 22: the punt lands target + -2..+2 rows downfield; in the end zone it is a touchback. The
    # heuristic punts on 4th and 5 when a field goal is long (26% from frame row 13, 9% from 14, out of
    # range from 20), with a target
    # short enough that even +2 stays in the field of play, and as long as that allows.
    s = kick_state(team, frame_los, 5, down=4)
    a = act_one(fresh(), s)
    assert A.ACTION_KIND[a] == A.KIND_PUNT, action_name(a)
    rows = int(A.ACTION_ARG[a])
    assert frame_los - rows - 2 >= 3  # the farthest landing is still outside the end zone (frame rows 0-2)
    assert rows == min(CFG.longest_punt, frame_los - 5)


def test_heuristic_goes_for_it_on_the_last_drive_instead_of_punting():
    # Rule 28: the opener reached the target; this is the other team's owed drive, down by 7. A punt or a
    # field goal cannot win, so it plays on.
    s = kick_state(0, 20, 5, down=4)
    s.opener[:] = 1
    s.score[0] = [14, 21]
    s.drives[0] = [2, 3]
    assert act_one(fresh(), s) == A.PLAY_ON


def pass_position(cover: bool) -> State:
    # QB behind the LOS (row 15) with the forward pass unused, boxed in by defenders; Z 7 rows downfield.
    z_row = row(8, {3: "Z", 4: "LCB"} if cover else {3: "Z"})
    near = row(9, {3: "RCB", 5: "FS"} if cover else {})
    return position("\n".join([
        "phase: play", "to act: one", "offence: one", "line of scrimmage: row 15 lane 9", "points: 6-4",
        "specials: speedy_qb speedy_qb",
        "board:",
        z_row, near,
        row(14, {8: "LDT", 9: "MLB", 10: "RDT"}),
        row(15, {7: "SLB", 8: "C", 9: "LG", 10: "RG", 11: "WLB"}),
        row(16, {8: "LDE", 9: "QB@", 10: "RDE"}),
        row(17, {8: "SS", 10: "LCB" if not cover else "X"}),
    ]))


def test_heuristic_throws_to_a_wide_open_receiver():
    # Rule 19: nobody within three squares of Z: the catch is automatic, 7 rows downfield; the QB himself
    # is boxed in. The heuristic throws.
    s = pass_position(cover=False)
    a = act_one(fresh(), s)
    assert action_name(a) == "throw Z"
    after = step(s, np.array([a]))
    assert TAGS[after.ball_holder[0]] == "Z"


def test_heuristic_does_not_throw_into_coverage():
    # Z has a defender beside him and two more within three squares: 1 die against 4+ (15% or less).
    s = pass_position(cover=True)
    a = act_one(fresh(), s)
    assert action_name(a) != "throw Z"


def test_slow_quarterback_hands_off_to_the_back_beside_him():
    # Rule 13: without Speedy QB the quarterback pays double; H beside and behind him takes a free handoff
    # that even banks a point (rule 18), with open field in front.
    s = position("""
        phase: play
        to act: one
        offence: one
        line of scrimmage: row 15 lane 9
        points: 4-2
        specials: sure_hands sure_hands
        forward pass used: yes
        board:
         15 | .   .   .   .   .   .   C   LG  .   RG  RT  .   .   .   .   .   .   .
         16 | .   .   .   .   .   .   .   .   QB@ .   .   .   .   .   .   .   .   .
         17 | .   .   .   .   .   .   .   .   .   H   .   .   .   .   .   .   .   .
        """)
    a = act_one(fresh(special="sure_hands"), s)
    assert action_name(a) == "throw H"


def test_heuristic_runs_into_the_end_zone_when_it_can():
    # A touchdown by a move (rule 4 / scoring): H has 3 points and the goal line two rows ahead.
    s = position("""
        phase: play
        to act: one
        offence: one
        line of scrimmage: row 8 lane 9
        points: 3-6
        board:
          4 | .   .   .   .   .   .   .   MLB .   .   FS  .   .   .   .   .   .   .
          5 | .   .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .
        """)
    agent = fresh()
    for _ in range(3):
        a = act_one(agent, s)
        s = step(s, np.array([a]), chance=ScriptedChance([0]))  # PAT roll: good
        if s.score[0, 0] > 0:
            break
    assert s.score[0, 0] == 7


# ------------------------------------------------------------------------------------------------ match


def test_heuristic_beats_random_in_at_least_95_of_100_games():
    # 50 games as team one, 50 as team two; a truncated game (rule 30) counts as not won.
    config = GameConfig(target_score=7, max_steps=3000)
    result = play_games(HeuristicAgent(), RandomAgent(), 100, seed=2024, config=config)
    print("\n" + result.summary("heuristic", "random"))
    assert (result.a_team == 0).sum() == 50
    assert result.a_wins.sum() >= 95
    assert result.a_wins[result.a_team == 0].sum() >= 45 and result.a_wins[result.a_team == 1].sum() >= 45
