"""The PettingZoo parallel API of every game, and the flat observation SuperSuit's wrappers need.

``gridiron_env.parallel_env()`` and ``gridiron_env.table_football.parallel_env()`` pass PettingZoo's
``parallel_api_test``; with ``observation="flat"`` SuperSuit's ``frame_stack_v1``, ``dtype_v0`` and
``pettingzoo_env_to_vec_env_v1`` (and ``concat_vec_envs_v1`` over it) run whole games.
"""

import functools
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test

import gridiron_env
from gridiron_env import protocol, table_football
from gridiron_env.adapters import pettingzoo as pz_adapter
from gridiron_env.core import NUM_ACTIONS, action_id
from gridiron_env.core.observe import FEATURES_SIZE, OBS_HIGH, OBS_LOW, observe
from gridiron_env.envs.pettingzoo_env import FLAT_LAYOUT, FLAT_SIZE

ss = pytest.importorskip("supersuit")

AGENTS = ("team_one", "team_two")



def _games():
    """(name, parallel constructor, AEC constructor, observation size, number of actions, kwargs of a short
    game): Gridiron, then every protocol game that loads (through the generic PettingZoo adapter)."""
    games = [("gridiron", gridiron_env.parallel_env, gridiron_env.env, FEATURES_SIZE, NUM_ACTIONS,
              {"max_steps": 300})]
    for name in protocol.game_names():
        try:
            spec = protocol.get_game(name)
        except Exception:  # a game still being built
            continue
        # Gridiron through the generic adapter too (its own envs are the first entry); a short game cap
        label, short = (f"{name}_protocol", {"max_steps": 300}) if name == "gridiron" else (name, {})
        if name == "touchdown":  # a whole 60-scrimmage game of random play runs past the tests' step budgets
            short = {"scrimmages_per_quarter": 2, "quarters": 1}
        games.append((label, functools.partial(pz_adapter.parallel_env, name), functools.partial(pz_adapter.env, name),
                      spec.observation_size, spec.num_actions, short))
    return games


GAMES = _games()
IDS = [g[0] for g in GAMES]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the checkers' own notes (e.g. "Observation is not a NumPy array")
        yield


def _masked_actions(obs_by_agent, n_actions, rng):
    """A random legal action for each agent, read from the tail of its flat observation (the mask)."""
    return {a: int(rng.choice(np.flatnonzero(o[-n_actions:]))) for a, o in obs_by_agent.items()}


@pytest.mark.parametrize("observation", ["features", "flat"])
@pytest.mark.parametrize("name,par,_aec,_obs,_n,short", GAMES, ids=IDS)
def test_parallel_api_test_passes(name, par, _aec, _obs, _n, short, observation):
    parallel_api_test(par(observation=observation, **short), num_cycles=400)


@pytest.mark.parametrize("name,par,_aec,_obs,_n,short", GAMES, ids=IDS)
def test_parallel_seed_test_passes(name, par, _aec, _obs, _n, short):
    from pettingzoo.test import parallel_seed_test

    parallel_seed_test(functools.partial(par, observation="flat", **short), num_cycles=100)


def test_gridiron_parallel_env_default_is_the_aec_default():
    env = gridiron_env.parallel_env()
    obs, infos = env.reset(seed=5)
    aec = gridiron_env.raw_env()
    aec.reset(seed=5)
    assert set(obs) == set(AGENTS) and env.metadata["name"] == "gridiron_v0"
    for a in AGENTS:
        assert set(obs[a]) == {"observation", "action_mask"}
        np.testing.assert_array_equal(obs[a]["observation"], aec.observe(a)["observation"])
        np.testing.assert_array_equal(obs[a]["action_mask"], aec.observe(a)["action_mask"])


@pytest.mark.parametrize("name,_par,aec,obs_size,n_actions,short", GAMES, ids=IDS)
def test_flat_aec_env_passes_api_test_and_holds_features_then_mask(name, _par, aec, obs_size, n_actions, short):
    api_test(aec(observation="flat", **short), num_cycles=300)
    flat, nested = aec(observation="flat", **short), aec(**short)
    rng = np.random.default_rng(1)
    flat.reset(seed=11)
    nested.reset(seed=11)
    space = flat.observation_space("team_one")
    assert space.shape == (obs_size + n_actions,) and space.dtype == np.float32
    assert flat.observation_space("team_one") is space  # cached, as api_test wants
    for _ in range(60):
        if not flat.agents:
            break
        for a in AGENTS:
            o, d = flat.observe(a), nested.observe(a)
            assert o.dtype == np.float32 and space.contains(o)
            np.testing.assert_array_equal(o[:obs_size], d["observation"])
            np.testing.assert_array_equal(o[obs_size:], d["action_mask"].astype(np.float32))
        agent = flat.agent_selection
        assert agent == nested.agent_selection
        done = flat.terminations[agent] or flat.truncations[agent]
        action = None if done else int(rng.choice(np.flatnonzero(nested.observe(agent)["action_mask"])))
        flat.step(action)
        nested.step(action)


def test_gridiron_flat_layout_and_bounds():
    env = gridiron_env.raw_env(observation="flat")
    env.reset(seed=3)
    space = env.observation_space("team_two")
    assert FLAT_SIZE == FEATURES_SIZE + NUM_ACTIONS == space.shape[0]
    assert FLAT_LAYOUT["features"] == slice(0, FEATURES_SIZE)
    assert FLAT_LAYOUT["action_mask"] == slice(FEATURES_SIZE, FLAT_SIZE)
    assert (space.low[FLAT_LAYOUT["features"]] == OBS_LOW).all()
    assert (space.high[FLAT_LAYOUT["features"]] == OBS_HIGH).all()
    assert (space.low[FLAT_LAYOUT["action_mask"]] == 0).all() and (space.high[FLAT_LAYOUT["action_mask"]] == 1).all()
    for team, agent in enumerate(AGENTS):
        o = env.observe(agent)
        np.testing.assert_array_equal(o[FLAT_LAYOUT["features"]], observe(env.game_state, team, env.config)[0])
        mask = o[FLAT_LAYOUT["action_mask"]]
        if env.agent_selection == agent:
            np.testing.assert_array_equal(mask.astype(bool), env.game_state.legal[0])
        else:  # the agent not to act: only the placeholder id, "end turn"
            assert np.flatnonzero(mask).tolist() == [0]
    with pytest.raises(ValueError, match="observation"):
        gridiron_env.raw_env(observation="flatten")
    with pytest.raises(ValueError, match="observation"):
        table_football.raw_env(observation="planes")


def test_flat_observation_is_a_copy():
    env = gridiron_env.raw_env(observation="flat")
    env.reset(seed=0)
    first = env.observe("team_one")
    first[:] = 7.0
    assert env.observation_space("team_one").contains(env.observe("team_one"))


@pytest.mark.parametrize("name,par,_aec,obs_size,n_actions,short", GAMES, ids=IDS)
def test_supersuit_frame_stack_and_dtype_on_the_parallel_env(name, par, _aec, obs_size, n_actions, short):
    stack = 3
    env = ss.dtype_v0(ss.frame_stack_v1(par(observation="flat", **short), stack), np.float64)
    parallel_api_test(env, num_cycles=200)
    plain = par(observation="flat", **short)
    width = obs_size + n_actions
    space = env.observation_space("team_one")
    assert space.shape == (stack * width,) and space.dtype == np.float64
    obs, _ = env.reset(seed=21)
    ref, _ = plain.reset(seed=21)
    history = {a: [np.zeros(width), np.zeros(width), ref[a].astype(np.float64)] for a in AGENTS}
    rng = np.random.default_rng(4)
    for _ in range(80):
        for a in AGENTS:  # oldest frame first, the current one last (zeros before the first)
            assert obs[a].dtype == np.float64
            np.testing.assert_array_equal(obs[a], np.concatenate(history[a][-stack:]))
        if not env.agents:
            break
        actions = _masked_actions(ref, n_actions, rng)
        obs, rewards, terms, truncs, _ = env.step(actions)
        ref, ref_rewards, ref_terms, ref_truncs, _ = plain.step(actions)
        assert rewards == ref_rewards and terms == ref_terms and truncs == ref_truncs
        for a in AGENTS:
            history[a].append(ref[a].astype(np.float64))


def _illegal_for_acting(vec, obs, n_actions):
    """Actions where the agent to act plays an id its mask rules out (the other plays its placeholder)."""
    acting = vec.par_env.unwrapped.agent_selection
    actions = []
    for i, agent in enumerate(vec.par_env.possible_agents):
        mask = obs[i, -n_actions:]
        pick = np.flatnonzero(mask == 0)[0] if agent == acting else np.flatnonzero(mask)[0]
        actions.append(int(pick))
    return np.array(actions), vec.par_env.possible_agents.index(acting)


@pytest.mark.parametrize("name,par,_aec,obs_size,n_actions,short", GAMES, ids=IDS)
def test_supersuit_vec_env_plays_games_and_autoresets(name, par, _aec, obs_size, n_actions, short):
    stack = 2
    vec = ss.pettingzoo_env_to_vec_env_v1(ss.dtype_v0(ss.frame_stack_v1(par(observation="flat", **short), stack),
                                                      np.float32))
    width = obs_size + n_actions
    assert vec.num_envs == 2 and vec.observation_space.shape == (stack * width,)
    obs, infos = vec.reset(seed=8)
    assert obs.shape == (2, stack * width) and obs.dtype == np.float32 and len(infos) == 2
    rng = np.random.default_rng(9)
    ends = 0
    for _ in range(4000):
        masks = obs[:, -n_actions:]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, terms, truncs, infos = vec.step(actions)
        if terms.any() or truncs.any():
            ends += 1
            assert (terms == terms[0]).all() and (truncs == truncs[0]).all()  # one game, both agents
            if terms[0]:
                assert sorted(rewards.tolist()) in ([-1.0, 1.0], [0.0, 0.0])  # a win, or a draw
            else:
                assert rewards.tolist() == [0.0, 0.0]
            for i in range(2):
                assert infos[i]["terminal_observation"].shape == (stack * width,)
                assert "score" in infos[i]
            # the autoreset: a new game, the stack cleared (only the current frame is not zero)
            assert not obs[:, :-width].any() and obs[:, -width:].any()
            if ends == 2:
                break
    assert ends == 2

    # an illegal action through the whole stack ends the game as a loss for the agent to act
    obs, _ = vec.reset(seed=30)
    actions, acting = _illegal_for_acting(vec, obs, n_actions)
    obs, rewards, terms, truncs, infos = vec.step(actions)
    assert terms.all() and not truncs.any()
    assert rewards[acting] == -1.0 and rewards[1 - acting] == 1.0
    assert infos[acting]["illegal_action"]["action"] == actions[acting]


def test_supersuit_concat_vec_envs_for_sb3():
    from stable_baselines3.common.vec_env import VecEnv

    vec = ss.pettingzoo_env_to_vec_env_v1(gridiron_env.parallel_env(observation="flat", max_steps=200))
    sb3 = ss.concat_vec_envs_v1(vec, 2, num_cpus=0, base_class="stable_baselines3")
    try:
        assert isinstance(sb3, VecEnv) and sb3.num_envs == 4
        obs = sb3.reset()
        assert obs.shape == (4, FLAT_SIZE)
        rng = np.random.default_rng(2)
        for _ in range(30):
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs[:, FEATURES_SIZE:]])
            obs, rewards, dones, infos = sb3.step(actions)
            assert obs.shape == (4, FLAT_SIZE) and rewards.shape == (4,)
    finally:
        sb3.close()


def test_parallel_step_plays_only_the_agent_to_act():
    env = gridiron_env.parallel_env(observation="flat")
    obs, _ = env.reset(seed=12)
    aec = gridiron_env.raw_env(observation="flat")
    aec.reset(seed=12)
    rng = np.random.default_rng(3)
    for _ in range(40):
        acting = aec.agent_selection
        legal = np.flatnonzero(obs[acting][FEATURES_SIZE:])
        a = int(rng.choice(legal))
        other = "team_two" if acting == "team_one" else "team_one"
        # the other agent's entry is ignored, whatever it is (here an id that is illegal for it)
        obs, rewards, terms, truncs, infos = env.step({acting: a, other: action_id("end turn") + 5})
        aec.step(a)
        for agent in AGENTS:
            np.testing.assert_array_equal(obs[agent], aec.observe(agent))
        assert not any(terms.values())
        assert infos["team_one"]["active_agent"] == aec.agent_selection


def test_table_football_named_constructors_are_the_adapter():
    assert "table_football" in IDS
    for kind in ("features", "flat"):
        named, generic = table_football.parallel_env(observation=kind), pz_adapter.parallel_env("table_football",
                                                                                                observation=kind)
        a, _ = named.reset(seed=4)
        b, _ = generic.reset(seed=4)
        assert named.observation_space("team_one") == generic.observation_space("team_one")
        for agent in AGENTS:
            np.testing.assert_equal(a[agent], b[agent])
    assert table_football.env(observation="flat").observation_space("team_two").shape == (
        table_football.OBS_SIZE + table_football.NUM_ACTIONS,)


def test_supersuit_wrappers_on_the_flat_aec_env():
    """SuperSuit's AEC wrappers too: frame_stack_v1 and dtype_v0 over ``env(observation="flat")``."""
    api_test(ss.frame_stack_v1(gridiron_env.env(observation="flat"), 2), num_cycles=150)
    env = ss.dtype_v0(gridiron_env.env(observation="flat"), np.float64)
    api_test(env, num_cycles=150)
    env.reset(seed=2)
    assert env.observe(env.agent_selection).dtype == np.float64


def test_default_dict_observation_is_what_supersuit_refuses():
    """Why the flat option exists: the default Dict observation is refused by both wrappers."""
    with pytest.raises(AssertionError, match="Box and Discrete"):
        ss.frame_stack_v1(gridiron_env.parallel_env(), 2)
    with pytest.raises(AttributeError):
        ss.dtype_v0(table_football.parallel_env(), np.float64)
