"""The PettingZoo AEC env: official checkers, both teams' views, hidden information, masks, illegal
actions, rewards, seeding."""

import contextlib
import io
import os
import pickle
import time

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import gridiron_env as g
from gridiron_env.core import IllegalActionError, action_id, mirror_state, observe
from gridiron_env.core.engine import recompute_legal
from gridiron_env.core.state import SCRAMBLE
from gridiron_env.envs.pettingzoo_env import raw_env
from gridiron_env.core.scenario import hidden_ball_scramble
from gridiron_env.core.scenario import random_positions

AGENTS = ("team_one", "team_two")
# api_test's advice that does not apply: the issue names the agents team_one/team_two, and classic board
# games (connect_four, chess, go) have the same Dict {"observation", "action_mask"} observations.
ADVISORY = [
    "ignore:We recommend agents to be named:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be:UserWarning",
]
SMALL = dict(target_score=1, max_steps=200)  # games that end within a few hundred agent actions


def random_action(mask, rng):
    return int((rng.random(mask.shape) * mask).argmax())


def random_states(batch=16, steps=250, seed=5):
    return random_positions(batch, steps, seed)


# --------------------------------------------------------------------------------- official checkers

@pytest.mark.parametrize("options, cycles", [
    ({}, 150),
    ({"observation": "planes"}, 60),
    (dict(SMALL, score_reward_scale=0.1), 150),  # 300 agent turns > max_steps: the game always ends
])
@pytest.mark.filterwarnings(*ADVISORY)
def test_api_test(options, cycles):
    api_test(g.env(**options), num_cycles=cycles)


class _CountingEnv(raw_env):
    ends = 0

    def _finish(self, state, illegal_info):
        self.ends += 1
        super()._finish(state, illegal_info)


@pytest.mark.filterwarnings(*ADVISORY)
def test_api_test_on_the_raw_env_reaches_the_end():
    e = _CountingEnv(**SMALL)
    api_test(e, num_cycles=150)
    assert e.ends >= 1  # play_test played a game to its end (and removed both agents)


def test_seed_test():
    seed_test(g.env, num_cycles=150)
    seed_test(lambda: g.env(observation="planes", **SMALL), num_cycles=60)


def _wait_for_renderer(seconds=120):
    path = os.path.join(os.path.dirname(g.__file__), "render.py")
    deadline = time.time() + seconds
    while not os.path.exists(path) and time.time() < deadline:
        time.sleep(1)


def test_render_test_and_frames():
    _wait_for_renderer()
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        render_test(g.env)
    assert "score" in printed.getvalue()  # "human" printed the text board
    e = g.env(render_mode="ansi")
    e.reset(seed=1)
    assert isinstance(e.render(), str) and "score" in e.render()
    e = g.env(render_mode="rgb_array", offence_up=True)
    e.reset(seed=1)
    frame = e.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3 and frame.std() > 0


# --------------------------------------------------------------------------------- spaces and options

def test_spaces_are_cached_and_observations_fit_them():
    for kind in ("features", "planes"):
        e = raw_env(observation=kind)
        e.reset(seed=3)
        for agent in AGENTS:
            assert e.observation_space(agent) is e.observation_space(agent)
            assert e.action_space(agent) is e.action_space(agent)
            obs = e.observe(agent)
            assert e.observation_space(agent).contains(obs)
            assert obs["action_mask"].dtype == np.int8
    assert raw_env.metadata["name"] == "gridiron_v0"
    assert raw_env.metadata["render_modes"] == ["human", "ansi", "rgb_array"]
    assert raw_env.metadata["is_parallelizable"] is False


@pytest.mark.parametrize("options, word", [
    ({"observation": "pixels"}, "observation"),
    ({"illegal_action": "ignore"}, "illegal_action"),
    ({"render_mode": "window"}, "render_mode"),
    ({"score_reward_scale": -1}, "score_reward_scale"),
    ({"offence_up": "yes"}, "offence_up"),
    ({"target_score": 0}, "target_score"),
    ({"config": {"target_score": 3}}, "config"),
    ({"no_such_option": 1}, "no_such_option"),
])
def test_bad_options_raise_value_error_naming_them(options, word):
    with pytest.raises(ValueError, match=word):
        raw_env(**options)


def test_config_and_fields_combine_and_the_env_pickles():
    e = raw_env(config=g.GameConfig(target_score=5), max_steps=77)
    assert e.config == g.GameConfig(target_score=5, max_steps=77)
    clone = pickle.loads(pickle.dumps(e))
    assert clone.config == e.config


# --------------------------------------------------------------------------------- seeding

def test_reset_seed_is_the_engines_game_seed():
    e = raw_env()
    e.reset(seed=11)
    assert e.game_state.equals(g.init(1, seed=11))
    assert e.game_state.equals(g.init(4, seed=8).take(3))  # game 3 of a batch seeded 8
    e.reset()  # the next seed: 12
    assert e.game_state.equals(g.init(1, seed=12))
    e.reset(seed=11)
    assert e.game_state.equals(g.init(1, seed=11))


# --------------------------------------------------------------------------------- views

def _env_at(state, **options):
    e = raw_env(**options)
    e.set_state(state)
    return e


@pytest.mark.parametrize("kind", ["features", "planes"])
def test_each_agent_sees_from_its_own_side_mirror_symmetry(kind):
    s = random_states()
    m = mirror_state(s)
    recompute_legal(m)
    for i in range(s.batch_size):
        a, b = _env_at(s.take(i), observation=kind), _env_at(m.take(i), observation=kind)
        assert a.agent_selection != b.agent_selection  # the mirror swaps the teams
        for t in (0, 1):
            oa, ob = a.observe(AGENTS[t]), b.observe(AGENTS[1 - t])
            np.testing.assert_array_equal(oa["action_mask"], ob["action_mask"])
            if kind == "features":
                np.testing.assert_array_equal(oa["observation"], ob["observation"])
                np.testing.assert_array_equal(oa["observation"], observe(s.take(i), t)[0])
            else:
                for k in ("planes", "scalars"):
                    np.testing.assert_array_equal(oa["observation"][k], ob["observation"][k])
    # and the two teams' views of one position do differ (the test can fail)
    e = _env_at(s.take(0))
    assert not np.array_equal(e.observe(AGENTS[0])["observation"], e.observe(AGENTS[1])["observation"])


def _scramble_position(hidden_square):
    return hidden_ball_scramble(hidden_square)


@pytest.mark.parametrize("kind", ["features", "planes"])
def test_the_hidden_ball_is_invisible_to_both_agents(kind):
    a, b = _scramble_position("14,8"), _scramble_position("16,12")
    assert a.phase[0] == SCRAMBLE and a.ball_hidden[0] and a.ball_square[0] != b.ball_square[0]
    ea, eb = _env_at(a, observation=kind), _env_at(b, observation=kind)
    for agent in AGENTS:
        oa, ob = ea.observe(agent), eb.observe(agent)
        np.testing.assert_array_equal(oa["action_mask"], ob["action_mask"])
        if kind == "features":
            np.testing.assert_array_equal(oa["observation"], ob["observation"])
        else:
            for k in ("planes", "scalars"):
                np.testing.assert_array_equal(oa["observation"][k], ob["observation"][k])
    # once the ball is visible, the two positions do look different
    a.ball_hidden[:], b.ball_hidden[:] = False, False
    ea, eb = _env_at(a), _env_at(b)
    assert not np.array_equal(ea.observe(AGENTS[1])["observation"], eb.observe(AGENTS[1])["observation"])


def test_team_twos_view_does_not_reveal_team_ones_special_pick():
    picks = ("special ball_hawk", "special sure_hands")
    envs = []
    for pick in picks:
        e = raw_env()
        e.reset(seed=4)
        assert e.agent_selection == "team_one"
        e.step(action_id(pick))
        assert e.agent_selection == "team_two"
        envs.append(e)
    o1, o2 = (e.observe("team_two") for e in envs)
    np.testing.assert_array_equal(o1["observation"], o2["observation"])
    np.testing.assert_array_equal(o1["action_mask"], o2["action_mask"])
    # team one sees its own pick, and team two sees it once both have picked
    assert not np.array_equal(envs[0].observe("team_one")["observation"], envs[1].observe("team_one")["observation"])
    for e in envs:
        e.step(action_id("special lead_blocker"))
    assert not np.array_equal(envs[0].observe("team_two")["observation"], envs[1].observe("team_two")["observation"])


def test_the_action_mask_is_always_the_engines_legal_actions_of_the_acting_team():
    rng = np.random.default_rng(0)
    e = raw_env(**SMALL)
    e.reset(seed=21)
    ref = g.init(1, seed=21, config=e.config)  # the engine stepped alongside with the same actions
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        assert agent == AGENTS[ref.to_act[0]]
        np.testing.assert_array_equal(obs["action_mask"], ref.legal[0].astype(np.int8))
        other = AGENTS[1 - AGENTS.index(agent)]
        # only the team to act has legal actions; the other's mask is the placeholder "end turn" alone
        assert np.flatnonzero(e.observe(other)["action_mask"]).tolist() == [0]
        a = random_action(obs["action_mask"], rng)
        e.step(a)
        ref = g.step(ref, [a], config=e.config)
        assert e.game_state.equals(ref)
    assert ref.to_act[0] == -1


# --------------------------------------------------------------------------------- illegal actions

ILLEGAL = [(action_id("formation i_form"), "is not legal now"), (9999, "outside the action space"),
           (-3, "outside the action space"), ("x", "not an integer"), (None, "not an integer"),
           (2.5, "not an integer")]


@pytest.mark.parametrize("action, why", ILLEGAL, ids=[repr(a) for a, _ in ILLEGAL])
def test_an_illegal_action_loses_the_game_with_a_reason(action, why):
    e = raw_env()
    e.reset(seed=2)
    assert e.agent_selection == "team_one"  # picking a special: a formation is illegal now
    e.step(action)
    assert e.terminations == {"team_one": True, "team_two": True}
    assert e.truncations == {"team_one": False, "team_two": False}
    assert e._cumulative_rewards == {"team_one": -1.0, "team_two": 1.0}
    for agent in AGENTS:
        info = e.infos[agent]
        assert info["winner"] == "team_two"
        assert info["illegal_action"]["team"] == "team_one"
        assert info["illegal_action"]["action"] == action or action is None
        assert why in info["illegal_action"]["reason"]
    assert e.game_state.winner[0] == 1 and e.game_state.to_act[0] == -1
    e.step(None), e.step(None)
    assert e.agents == []


def test_the_wrapped_env_accepts_in_space_illegal_actions():
    e = g.env()
    e.reset(seed=2)
    e.step(action_id("move QB N"))
    obs, reward, term, trunc, info = e.last()
    assert term and reward == -1.0 and "legal" in info["illegal_action"]["reason"]


def test_illegal_action_raise_option_raises_and_changes_nothing():
    e = raw_env(illegal_action="raise")
    e.reset(seed=2)
    before = e.game_state.copy()
    with pytest.raises(IllegalActionError):
        e.step(action_id("formation i_form"))
    with pytest.raises(IllegalActionError):
        e.step(500)
    assert e.game_state.equals(before) and not any(e.terminations.values())
    e.step(action_id("special ball_hawk"))  # legal actions still play
    assert e.agent_selection == "team_two"


# --------------------------------------------------------------------------------- full games and rewards

def _play(e, seed, rng):
    """Random masked play to the end; returns each agent's total reward and the final infos."""
    e.reset(seed=seed)
    totals = {a: 0.0 for a in AGENTS}
    finals = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        totals[agent] += reward
        if term or trunc:
            finals[agent] = (term, trunc, info)
            e.step(None)
        else:
            e.step(random_action(obs["action_mask"], rng))
    return totals, finals


def test_a_full_game_ends_with_the_right_winner_and_rewards():
    rng = np.random.default_rng(1)
    e = g.env(target_score=1, max_steps=3000)
    totals, finals = _play(e, 0, rng)
    state = e.unwrapped.game_state
    assert state.terminated[0] and not state.truncated[0]
    w = int(state.winner[0])
    assert state.score[0, w] >= 1 and state.score[0, w] > state.score[0, 1 - w]
    assert totals == {AGENTS[w]: 1.0, AGENTS[1 - w]: -1.0}
    assert sum(totals.values()) == 0
    for agent in AGENTS:
        term, trunc, info = finals[agent]
        assert term and not trunc and info["winner"] == AGENTS[w]
        assert info["score"] == (int(state.score[0, 0]), int(state.score[0, 1]))
    for agent in AGENTS:  # observe still works for both agents after the end, masks only "end turn"
        obs = e.observe(agent)
        assert np.flatnonzero(obs["action_mask"]).tolist() == [0]
        np.testing.assert_array_equal(obs["observation"], observe(state, AGENTS.index(agent), e.unwrapped.config)[0])


def test_truncation_gives_zero_rewards():
    e = g.env(max_steps=30)
    totals, finals = _play(e, 0, np.random.default_rng(2))
    assert totals == {"team_one": 0.0, "team_two": 0.0}
    assert all(trunc and not term and info["winner"] is None for term, trunc, info in finals.values())
    assert e.unwrapped.game_state.steps[0] == 30


def test_score_shaping_adds_the_scaled_score_difference():
    e = g.env(target_score=1, max_steps=3000, score_reward_scale=0.25)
    totals, _ = _play(e, 0, np.random.default_rng(1))
    state = e.unwrapped.game_state
    w = int(state.winner[0])
    diff = float(state.score[0, 0] - state.score[0, 1])
    assert totals["team_one"] == pytest.approx((1.0 if w == 0 else -1.0) + 0.25 * diff)
    assert totals["team_one"] + totals["team_two"] == pytest.approx(0.0)
