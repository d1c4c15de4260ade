"""The generic env layer (gridiron_env.protocol, gridiron_env.adapters) serving Sports Dice with no env class
of its own: the protocol check, the official checkers, seeding across batch sizes, illegal actions, masks,
rendering and the SB3 adapter."""

from __future__ import annotations

import numpy as np
import pytest
import gymnasium as gym

import gridiron_env  # noqa: F401  (registers the ids)
from gridiron_env import sports_dice as sd
from gridiron_env.adapters.sb3 import SB3VecEnv
from gridiron_env.adapters.single import GameEnv
from gridiron_env.adapters.vector import GameVectorEnv
from gridiron_env.protocol import GameSpec, check_game, get_game
from gridiron_env.sports_dice import SportsDiceConfig
from gridiron_env.sports_dice.actions import CHOOSE_OFFENCE, PUNT, ROLL, USE_CHIP, WAIT

ID = "gridiron_env/SportsDice-v0"
GAME = get_game("sports_dice")


def _pick(mask_row, seed, t, illegal_every=0):
    """A fixed action for the slot of base seed ``seed`` at its step t: one of the mask's ids by a hash of
    (seed, t), or, every ``illegal_every`` steps, an id outside the mask."""
    ids = np.flatnonzero(mask_row)
    h = (seed * 7919 + t * 104729) % 1009
    if illegal_every and h % illegal_every == 0:
        others = np.flatnonzero(mask_row == 0)
        return int(others[h % others.size])
    return int(ids[h % ids.size])


# --- the protocol ---------------------------------------------------------------------------------------

def test_game_spec_describes_the_engine():
    assert isinstance(GAME, GameSpec) and GAME.name == "sports_dice" and GAME.config_class is SportsDiceConfig
    assert GAME.num_actions == sd.NUM_ACTIONS == 19 and GAME.action_names == sd.ACTION_NAMES
    assert GAME.ignored_action == WAIT and GAME.action_id("Use Chip") == USE_CHIP
    assert GAME.observation_size == sd.OBS_SIZE and GAME.observation_layout is sd.OBS_LAYOUT
    s = GAME.init(3, 11, SportsDiceConfig())
    assert (GAME.to_act(s) == s.toss_winner).all() and (GAME.winner(s) == -1).all()
    alone = GAME.init(1, 0, SportsDiceConfig(), seeds=np.array([12], dtype=np.uint64))
    assert GAME.take(s, [1]).equals(alone)
    assert GAME.make_config({"target_score": 7}).target_score == 7
    with pytest.raises(ValueError, match="variant"):
        GAME.make_config(None, "clock")


@pytest.mark.parametrize("config,seed", [(None, 0), (None, 8), ({"target_score": 3, "max_rolls": 6}, 1),
                                         ({"offence_faces": ("10", "TD"), "defence_faces": ("NG", "P6")}, 2)])
def test_sports_dice_meets_the_protocol(config, seed):
    assert check_game(GAME, config, seed=seed, max_steps=250) > 3


# --- the official checkers ---------------------------------------------------------------------------------

def test_gymnasium_check_env():
    from gymnasium.utils.env_checker import check_env

    check_env(gym.make(ID, render_mode="rgb_array").unwrapped)
    check_env(gym.make(ID, render_mode="ansi").unwrapped)


def test_sb3_check_env():
    from stable_baselines3.common.env_checker import check_env

    check_env(gym.make(ID).unwrapped)


def test_pettingzoo_checkers(capsys):
    from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test

    api_test(sd.env(), num_cycles=300)
    seed_test(lambda **kw: sd.env(**kw), num_cycles=300)
    render_test(lambda **kw: sd.env(**kw))
    parallel_api_test(sd.parallel_env(), num_cycles=300)
    capsys.readouterr()  # render_test's "human" frames


def test_registered_id_and_config():
    env = gym.make(ID, config={"target_score": 7})
    assert env.unwrapped.config == SportsDiceConfig(target_score=7)
    with pytest.raises(ValueError, match="SportsDiceConfig.target_score"):
        gym.make(ID, config={"target_score": 0})
    with pytest.raises(ValueError, match="unknown SportsDiceConfig field"):
        gym.make(ID, config={"target": 7})
    venv = gym.make_vec(ID, num_envs=3)
    assert isinstance(venv, GameVectorEnv) and venv.observation_space.shape == (3, sd.OBS_SIZE)
    aec = sd.raw_env(target_score=9)
    assert aec.config == SportsDiceConfig(target_score=9) and aec.metadata["name"] == "sports_dice_v0"
    assert aec.observation_space("team_one")["action_mask"].shape == (19,)


# --- seeds: batch sizes -----------------------------------------------------------------------------------

def _play(n, seed, steps, config, illegal_every=0):
    """Per slot, the (obs, reward, terminated, truncated, mask) sequence of a vector env of n slots under
    actions fixed by (slot seed, slot step)."""
    venv = GameVectorEnv(n, game="sports_dice", config=config, autoreset_mode="same_step", max_episode_steps=60)
    obs, info = venv.reset(seed=seed)
    out = [[(obs[i].copy(), info["action_mask"][i].copy())] for i in range(n)]
    for t in range(steps):
        actions = np.array([_pick(info["action_mask"][i], (seed + i) % 2**64, t, illegal_every) for i in range(n)])
        obs, r, te, tr, info = venv.step(actions)
        for i in range(n):
            out[i].append((obs[i].copy(), float(r[i]), bool(te[i]), bool(tr[i]), info["action_mask"][i].copy()))
    return out


def _same(a, b):
    return len(a) == len(b) and all(
        all(np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y for x, y in zip(ea, eb))
        for ea, eb in zip(a, b))


def test_make_vec_slots_do_not_depend_on_the_batch_size():
    config = {"target_score": 7}
    seed = 2**64 - 2  # slots wrap past 2**64 - 1
    big = _play(7, seed, 80, config, illegal_every=89)
    small = _play(3, seed, 80, config, illegal_every=89)
    for i in range(3):
        assert _same(big[i], small[i]), i
    assert any(r != 0 for ev in big for e in ev[1:] for r in [e[1]])  # episodes ended
    # and slot i is the lone env seeded seed + i
    lone = _play(1, (seed + 2) % 2**64, 80, config, illegal_every=89)
    assert _same(big[2], lone[0])


def test_make_vec_through_gymnasium():
    a = gym.make_vec(ID, num_envs=5)
    b = gym.make_vec(ID, num_envs=2)
    oa, ia = a.reset(seed=30)
    ob, ib = b.reset(seed=31)
    assert np.array_equal(oa[1:3], ob) and np.array_equal(ia["action_mask"][1:3], ib["action_mask"])


# --- illegal actions --------------------------------------------------------------------------------------

def test_illegal_action_loses_with_the_reason():
    env = GameEnv(game="sports_dice", learner_team="one")
    obs, info = env.reset(seed=0)
    while info["action_mask"][ROLL] != 1:
        obs, r, te, tr, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert not (te or tr)
    before = env.state.copy()
    obs, r, te, tr, info = env.step(PUNT)  # not legal on downs 1-3
    assert (r, te, tr) == (-1.0, True, False)
    ill = info["illegal_action"]
    assert ill["name"] == "punt" and ill["team"] == "team_one"
    assert "not legal" in ill["reason"] and "roll" in ill["reason"]
    assert before.equals(env.state)
    assert info["action_mask"].tolist() == [0] * 18 + [1]  # only "wait", the ignored id
    for bad in (99, -1, True):
        env.reset(seed=0)
        assert env.step(bad)[1] == -1.0
    env = GameEnv(game="sports_dice", illegal_action="raise", learner_team="two")
    obs, info = env.reset(seed=3)
    before = env.state.copy()
    wrong = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(sd.IllegalActionError) as err:
        env.step(wrong)
    assert isinstance(err.value, ValueError) and before.equals(env.state)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))  # and the game goes on


def test_pettingzoo_illegal_action_and_the_toss():
    env = sd.env()
    env.reset(seed=3)
    agent = env.agent_selection
    assert agent == ("team_one", "team_two")[int(env.unwrapped.game_state.toss_winner[0])]
    assert env.observe(agent)["action_mask"].tolist()[:2] == [1, 1]
    other = "team_two" if agent == "team_one" else "team_one"
    assert env.observe(other)["action_mask"].tolist() == [0] * 18 + [1]
    env.step(ROLL)  # not legal during the toss
    assert env.terminations[agent] and env.rewards[agent] == -1.0 and env.rewards[other] == 1.0
    assert env.infos[other]["illegal_action"]["name"] == "roll"
    env = sd.env()
    env.reset(seed=3)
    env.step(CHOOSE_OFFENCE)
    assert env.agent_selection == agent  # the toss winner rolls first
    assert env.observe(agent)["action_mask"][ROLL] == 1


# --- rendering and SB3 --------------------------------------------------------------------------------------

def test_rendering_content():
    env = GameEnv(game="sports_dice", render_mode="ansi", learner_team="one")
    obs, info = env.reset(seed=4)
    assert env.render() == sd.render_ansi(env.state, 0) and "CHIP" in env.render().splitlines()[0]
    for _ in range(6):
        obs, r, te, tr, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    text = env.render()
    assert "offence dice:" in text and "defence dice:" in text and text == sd.render_ansi(env.state, 0)
    env = GameEnv(game="sports_dice", render_mode="rgb_array")
    env.reset(seed=4)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.shape == (216, 600, 3)
    assert np.array_equal(frame, sd.render_rgb(env.state, 0))


def test_sb3_adapter():
    venv = SB3VecEnv(ID, num_envs=4, max_episode_steps=8)
    venv.seed(21)
    obs = venv.reset()
    assert obs.shape == (4, sd.OBS_SIZE)
    ended = 0
    for _ in range(10):
        masks = venv.action_masks()
        assert masks.dtype == np.bool_ and (masks.sum(axis=1) >= 1).all()
        obs, r, done, infos = venv.step(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
        for i in np.flatnonzero(done):
            ended += 1
            assert infos[i]["terminal_observation"].shape == (sd.OBS_SIZE,)
    assert ended >= 4
