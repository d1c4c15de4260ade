"""Touchdown's agents: legal actions everywhere, the heuristic's football (tackles, calls, kick choices,
interceptions) and its margin over the random agent; the agents through the env layer."""

from __future__ import annotations

import numpy as np
import pytest

from gridiron_env import touchdown as td
from gridiron_env.adapters.agents import game_agent_classes
from gridiron_env.adapters.single import GameEnv
from gridiron_env.touchdown import actions as A
from gridiron_env.touchdown.agents import HeuristicAgent, RandomAgent, play_games
from gridiron_env.touchdown.state import DEFENCE_CALL, INTERCEPTION, KICK_CHOICE, OFFENCE_CALL, PLAY


def _random_states(n=24, steps=300, seed=0):
    """States met in random play, every phase (a list of batches)."""
    s = td.init(n, seed=seed)
    agent = RandomAgent()
    agent.reset(np.arange(n) + seed)
    out = []
    for t in range(steps):
        if t % 10 == 0:
            out.append(s.copy())
        s = td.step(s, agent.act(s))
    return out


def test_agents_choose_legal_actions_in_every_phase():
    seen = set()
    heuristic, rnd = HeuristicAgent(), RandomAgent()
    rnd.reset(np.arange(24))
    for s in _random_states():
        live = ~s.is_over()
        for agent in (heuristic, rnd):
            a = agent.act(s)
            assert s.legal[np.flatnonzero(live), a[live]].all()
            td.step(s, a)  # raises on an illegal one
        seen |= set(s.phase[live].tolist())
    assert {OFFENCE_CALL, DEFENCE_CALL, PLAY} <= seen


def test_heuristic_tackles_when_it_can():
    hits = 0
    for s in _random_states(steps=400, seed=5):
        a = HeuristicAgent().act(s)
        for g in np.flatnonzero((s.phase == PLAY) & (s.holder >= 0) & ~s.is_over()):
            if s.to_act[g] == (s.offence[g] if s.holder[g] < 7 else 1 - s.offence[g]):
                continue  # the side with the ball
            one = s.take([g])
            tackles = [x for x in np.flatnonzero(one.legal[0, :A.N_STEPS])
                       if _step_lands_on_carrier(one, x)]
            if tackles:
                hits += 1
                assert a[g] in tackles, (g, a[g], tackles)
    assert hits >= 1


def _step_lands_on_carrier(one, action):
    from gridiron_env.touchdown.engine import DIRS

    slot, wheel = divmod(int(action), 8)
    mine = 0 if one.to_act[0] == one.offence[0] else 7
    sign = 1 if one.to_act[0] == 0 else -1
    h = int(one.holder[0])
    lane = int(one.lane[0, mine + slot]) + sign * int(DIRS[wheel, 0])
    row = int(one.row[0, mine + slot]) + sign * int(DIRS[wheel, 1])
    return lane == int(one.lane[0, h]) and row == int(one.row[0, h])


def test_heuristic_calls_and_kick_choices():
    h = HeuristicAgent()
    states = _random_states(steps=400, seed=9)
    kinds = set()
    for s in states:
        a = h.act(s)
        live = ~s.is_over()
        for g in np.flatnonzero(live):
            if s.phase[g] == KICK_CHOICE:
                assert a[g] == (A.TAKE_FIRST_DOWN if s.kick_row[g] <= 0 else A.RETURN)
            if s.phase[g] == INTERCEPTION and s.legal[g, :A.N_STEPS].any():
                assert a[g] < A.N_STEPS  # an interception offered is taken
            if s.phase[g] == OFFENCE_CALL:
                kinds.add(int(a[g]))
                if s.down[g] == 2 and s.to_gain[g] - s.los[g] > 3 and s.los[g] < 18 and not s.legal[g, A.FIELD_GOAL]:
                    late = s.scrimmages[g] >= 56
                    if not late:
                        assert a[g] == A.PUNT_BASE + 2
            if s.phase[g] == DEFENCE_CALL and s.offence_formation[g] == 2 and s.down[g] == 1:
                assert a[g] == A.DEFENCE_BASE + 3  # prevent against the spread
    assert len(kinds) >= 2


def test_agents_are_found_by_the_env_layer():
    classes = game_agent_classes("touchdown")
    assert classes["heuristic"] is HeuristicAgent and classes["random"] is RandomAgent
    env = GameEnv(game="touchdown", opponent=HeuristicAgent(), learner_team="one")
    obs, info = env.reset(seed=1)
    for _ in range(30):
        obs, r, te, tr, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if te or tr:
            break


@pytest.mark.slow
def test_heuristic_beats_random_in_99_percent():
    r = play_games(HeuristicAgent(), RandomAgent(), 100, seed=1000)
    assert r.a_team.sum() == 50  # balanced seats
    assert r.a_rate >= 0.99, r.a_rate


def test_heuristic_beats_random_over_a_few_games():
    r = play_games(HeuristicAgent(), RandomAgent(), 4, seed=77,
                   config=td.TouchdownConfig(scrimmages_per_quarter=4))
    rows = np.arange(4)
    mine, theirs = r.score[rows, r.a_team], r.score[rows, 1 - r.a_team]
    # a short game is noisy (one return touchdown decides it): most games and far more points
    assert r.a_rate >= 0.75 and mine.sum() >= 3 * theirs.sum()


def test_play_games_is_the_shared_match_runner_with_wait_and_the_opener():
    from gridiron_env.solved_agents import MatchResult

    config = td.TouchdownConfig(scrimmages_per_quarter=2, quarters=1, max_rounds=4)
    r = play_games(RandomAgent(), RandomAgent(), 6, seed=40, config=config, a_team=[1, 1, 0, 0, 1, 0])
    assert isinstance(r, MatchResult) and r.a_team.tolist() == [1, 1, 0, 0, 1, 0]
    assert np.array_equal(r.opener, 1 - td.init(6, 40, config).opening_kicker)  # the opening kick-off's receiver
    # the same games played by hand, the finished ones given "wait" (any other id would be ignored too)
    a, b = RandomAgent(), RandomAgent()
    seeds = 40 + np.arange(6)
    a.reset(seeds)
    b.reset(seeds)
    s = td.init(6, 40, config)
    while not s.is_over().all():
        acts = np.full(6, A.WAIT, dtype=np.int64)
        for agent, team in ((a, r.a_team), (b, 1 - r.a_team)):
            games = np.flatnonzero(~s.is_over() & (s.to_act == team))
            acts[games] = agent.act(s, config, games)[games]
        s = td.step(s, acts, config)
    assert np.array_equal(r.winner, s.winner) and np.array_equal(r.score, s.score)


def test_bot_table_counts_balanced_games():
    from train.touchdown import measure

    rows = measure(RandomAgent(), games=2, seed=3, config=td.TouchdownConfig(scrimmages_per_quarter=2, quarters=1))
    assert [r["opponent"] for r in rows] == ["heuristic", "random"]
    for r in rows:
        assert r["wins"] + r["draws"] + r["losses"] == 2 and 0 <= r["low"] <= r["win_rate"] <= r["high"] <= 1
    with pytest.raises(ValueError, match="even"):
        measure(RandomAgent(), games=3)


def test_agents_play_the_drive_envs():
    import gymnasium as gym

    import gridiron_env  # noqa: F401

    for env_id in ("gridiron_env/TouchdownOffence-v0", "gridiron_env/TouchdownDefence-v0"):
        for opponent in (HeuristicAgent(), RandomAgent()):
            venv = gym.make_vec(env_id, num_envs=3, opponent=opponent)
            obs, info = venv.reset(seed=4)
            for _ in range(20):
                obs, r, te, tr, info = venv.step(np.argmax(info["action_mask"], axis=1))
            assert obs.shape == (3, td.OBS_SIZE)
