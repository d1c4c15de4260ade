"""Gridiron behind the game protocol: its GameSpec meets ``check_game``, names and ids agree with the
engine's, and the generic adapters serving it through the spec play exactly the game the Gridiron envs
play for the same seed and actions."""

import numpy as np
import pytest

import gridiron_env
from gridiron_env import GameConfig, action_id, action_name
from gridiron_env.adapters.pettingzoo import raw_env as generic_raw_env
from gridiron_env.adapters.vector import GameVectorEnv
from gridiron_env.core import engine
from gridiron_env.envs.vector import GridironVectorEnv
from gridiron_env.gridiron.game import GAME
from gridiron_env.protocol import check_game, get_game


@pytest.mark.parametrize("config, seed", [
    (None, 0),
    ({"specials": False, "target_score": 7}, 11),
    ({"kick_mode": "paper", "paper_answer_chance": 0.5, "max_rolls_per_down": 2}, 22),
    ({"max_steps": 60}, 33),  # truncated games inside the check
])
def test_check_game_accepts_gridiron(config, seed):
    steps = check_game(GAME, config=config, seed=seed, batch_size=4, max_steps=120)
    assert steps >= 60


def test_the_registered_game_is_gridiron_s_spec():
    assert get_game("gridiron") is GAME
    assert gridiron_env.gridiron.GAME is GAME
    assert GAME.make_config({"target_score": 7}) == GameConfig(target_score=7)
    assert GAME.make_config(None, "no_specials") == GameConfig(specials=False)
    with pytest.raises(ValueError, match="specials"):
        GAME.make_config(GameConfig(specials=True), "no_specials")


def test_names_and_ids_agree_with_the_engine():
    assert GAME.num_actions == gridiron_env.NUM_ACTIONS == len(GAME.action_names)
    for a in range(GAME.num_actions):
        name = GAME.action_name(a)
        assert name == action_name(a) == GAME.action_names[a]
        assert GAME.action_id(name) == action_id(name) == a
    with pytest.raises(ValueError):
        GAME.action_id("not an action")
    assert GAME.action_name(GAME.ignored_action) == "end turn"


def test_spec_members_are_the_engine_s():
    config = GameConfig()
    s = GAME.init(3, 5, config)
    ref = engine.init(3, seed=5, config=config)
    assert s.equals(ref)
    assert GAME.init(1, 0, config, seeds=np.array([6], dtype=np.uint64)).equals(ref.take([1]))
    actions = np.array([int(np.flatnonzero(row)[-1]) for row in ref.legal])
    assert GAME.step(s, actions, config).equals(engine.step(ref, actions, config=config))
    assert np.array_equal(GAME.legal_mask(s), ref.legal)
    assert np.array_equal(GAME.observe(s, 1, config), gridiron_env.core.observe(ref, 1, config))
    assert (GAME.winner(s) == -1).all() and GAME.score(s).shape == (3, 2)
    bad = actions.copy()
    bad[1] = int(np.flatnonzero(~ref.legal[1])[0])
    with pytest.raises(GAME.illegal_error) as err:
        GAME.step(s, bad, config)
    assert err.value.game == 1 and err.value.action == bad[1]
    GAME.forfeit(s, np.array([2]), np.array([0]), config)
    assert GAME.terminated(s)[2] and GAME.winner(s)[2] == 1 and GAME.to_act(s)[2] == -1
    GAME.check_invariants(s, config)


def _play_both(seed, config, steps, rng):
    """The generic AEC adapter on "gridiron" and Gridiron's own AEC env, the same seed and actions: the
    same observations, masks, agents to act, rewards and ends after every step."""
    ours, theirs = generic_raw_env("gridiron", config=config), gridiron_env.raw_env(config=config)
    ours.reset(seed=seed)
    theirs.reset(seed=seed)
    ended = False
    for _ in range(steps):
        agent = ours.agent_selection
        assert agent == theirs.agent_selection
        for who in ours.possible_agents:
            a, b = ours.observe(who), theirs.observe(who)
            assert np.array_equal(a["observation"], b["observation"]), who
            assert np.array_equal(a["action_mask"], b["action_mask"]), who
        assert ours.rewards == theirs.rewards
        assert ours.terminations == theirs.terminations and ours.truncations == theirs.truncations
        if ours.terminations[agent] or ours.truncations[agent]:
            ended = True
            break
        legal = np.flatnonzero(ours.observe(agent)["action_mask"])
        action = int(legal[rng.integers(legal.size)])
        ours.step(action)
        theirs.step(action)
    assert ours.game_state.equals(theirs.game_state)
    return ended


def test_the_generic_aec_adapter_plays_gridiron_like_the_gridiron_env():
    rng = np.random.default_rng(0)
    ended = [_play_both(seed, config, 700, rng)
             for seed, config in ((0, GameConfig(target_score=3, max_steps=400)),
                                  (7, GameConfig(specials=False, target_score=3)))]
    assert any(ended)  # at least one game was played to its end, rewards included


def test_an_illegal_action_ends_the_game_alike_in_both():
    config = GameConfig()
    ours, theirs = generic_raw_env("gridiron", config=config), gridiron_env.raw_env(config=config)
    ours.reset(seed=3)
    theirs.reset(seed=3)
    agent = ours.agent_selection
    illegal = int(np.flatnonzero(ours.observe(agent)["action_mask"] == 0)[0])
    ours.step(illegal)
    theirs.step(illegal)
    assert ours.rewards == theirs.rewards and ours.rewards[agent] == -1
    assert ours.terminations == theirs.terminations and all(ours.terminations.values())
    assert ours.game_state.equals(theirs.game_state)
    for who in ours.possible_agents:
        assert ours.infos[who]["illegal_action"]["action"] == theirs.infos[who]["illegal_action"]["action"] == illegal


def _highest_legal(obs, mask):
    """A deterministic opponent for both vector envs: the highest legal id."""
    return (mask.shape[1] - 1 - mask[:, ::-1].argmax(axis=1)).astype(np.int64)


@pytest.mark.parametrize("learner_team", ["one", "two"])
def test_the_generic_vector_env_plays_gridiron_like_the_gridiron_vector_env(learner_team):
    """Each slot's first episode: the same observations, masks, rewards and ends as GridironVectorEnv for
    the same seed, learner actions and opponent. (Later episodes, which the spec's salts make the same
    games too, are checked in tests/test_generic_gridiron.py.)"""
    config = GameConfig(target_score=3, max_steps=300)
    n = 3
    theirs = GridironVectorEnv(n, learner_team=learner_team, opponent=_highest_legal, config=config)
    ours = GameVectorEnv(n, game="gridiron", learner_team=learner_team, opponent=_highest_legal, config=config)
    obs_t, info_t = theirs.reset(seed=4)
    obs_o, info_o = ours.reset(seed=4)
    rng = np.random.default_rng(1)
    first = np.ones(n, dtype=bool)  # still in the first episode
    for _ in range(2000):
        assert np.array_equal(obs_o[first], obs_t[first])
        assert np.array_equal(info_o["action_mask"][first], info_t["action_mask"][first])
        if not first.any():
            break
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in info_t["action_mask"]])
        obs_t, rew_t, term_t, trunc_t, info_t = theirs.step(actions)
        obs_o, rew_o, term_o, trunc_o, info_o = ours.step(actions)
        for ours_v, theirs_v in ((rew_o, rew_t), (term_o, term_t), (trunc_o, trunc_t), (obs_o, obs_t)):
            assert np.array_equal(ours_v[first], theirs_v[first])
        first &= ~(term_t | trunc_t)
    assert not first.any(), "every slot's first episode ended"
