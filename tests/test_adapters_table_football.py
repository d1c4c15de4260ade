"""The generic env layer (gridiron_env.protocol, gridiron_env.adapters) serving Table Football: the official
checkers, seeding across batch sizes and autoreset modes, illegal actions, masks, rendering, opponents, the
SB3 adapter and a short MaskablePPO run."""

from __future__ import annotations

import numpy as np
import pytest
import gymnasium as gym
from gymnasium.vector import AutoresetMode

import gridiron_env  # noqa: F401  (registers the ids)
from gridiron_env import table_football as tf
from gridiron_env.adapters.common import batch_actions, one_action, uniform_legal
from gridiron_env.adapters.pettingzoo import GameAECEnv
from gridiron_env.adapters.sb3 import SB3VecEnv
from gridiron_env.adapters.single import GameEnv
from gridiron_env.adapters.vector import GameVectorEnv
from gridiron_env.protocol import GameSpec, check_game, get_game
from gridiron_env.table_football import TableFootballConfig
from gridiron_env.table_football.actions import DECLINE, FIELD_GOAL, PUNT, RUN_PLAY, TIME_OUT

IDS = ("gridiron_env/TableFootball-v0", "gridiron_env/TableFootballClock-v0")
GAME = get_game("table_football")


def _pick(mask_row, i, t, illegal_every=0):
    """A fixed action for slot i at its step t: one of the mask's ids by a hash of (i, t), or, every
    ``illegal_every`` steps, an id outside the mask."""
    ids = np.flatnonzero(mask_row)
    h = (i * 7919 + t * 104729) % 1009
    if illegal_every and h % illegal_every == 0:
        others = np.flatnonzero(mask_row == 0)
        return int(others[h % others.size])
    return int(ids[h % ids.size])


# --- the protocol -----------------------------------------------------------------------------------------

def test_game_spec_describes_the_engine():
    assert isinstance(GAME, GameSpec) and get_game(GAME) is GAME
    assert GAME.num_actions == tf.NUM_ACTIONS and GAME.action_names == tf.ACTION_NAMES
    assert GAME.action_id("Time Out") == TIME_OUT and GAME.action_name(PUNT) == "punt"
    with pytest.raises(ValueError):
        GAME.action_name(True)
    assert GAME.observation_size == tf.OBS_SIZE and GAME.observation_layout is tf.OBS_LAYOUT
    s = GAME.init(3, 11, TableFootballConfig())
    assert GAME.batch_size(s) == 3
    assert GAME.legal_mask(s).dtype == np.bool_ and GAME.legal_mask(s).shape == (3, tf.NUM_ACTIONS)
    obs = GAME.observe(s, 0, TableFootballConfig())
    low, high = GAME.observation_bounds
    assert obs.dtype == np.float32 and obs.shape == (3, tf.OBS_SIZE) and (obs >= low).all() and (obs <= high).all()
    assert (GAME.to_act(s) == s.opener).all() and (GAME.winner(s) == -1).all()
    # game i of a batch seeded s is the game of per-game seed s + i
    alone = GAME.init(1, 0, TableFootballConfig(), seeds=np.array([12], dtype=np.uint64))
    assert GAME.take(s, [1]).equals(alone)
    with pytest.raises(ValueError, match="game must be one of"):
        get_game("chess")


@pytest.mark.parametrize("config", [None, {"clock": True, "quarter_boxes": 10, "two_minute_boxes": 3,
                                            "recovery_option": True}, {"downs": 3, "target_score": 3}])
def test_table_football_meets_the_protocol(config):
    assert check_game(GAME, config, seed=8) > 3  # steps played (short games end sooner)


def test_check_game_catches_a_broken_spec():
    import dataclasses

    wide = dataclasses.replace(GAME, observe=lambda s, team, config=None: tf.observe(s, team, config).astype(float))
    with pytest.raises(AssertionError, match="float32"):
        check_game(wide)
    # a batch whose games are not the lone games of their seeds
    shifted = dataclasses.replace(GAME, init=lambda b, seed=0, config=None, seeds=None: tf.init(
        b, seed=seed + 1 if seeds is None else 0, config=config, seeds=seeds))
    with pytest.raises(AssertionError, match="lone game"):
        check_game(shifted, seed=3)
    # a legal_rows hook that disagrees with legal_mask's rows (here: the rows in the wrong order)
    reversed_rows = dataclasses.replace(GAME, legal_rows=lambda s, rows: tf.legal_action_mask(s)[np.asarray(rows)[::-1]])
    with pytest.raises(AssertionError, match="legal_rows"):
        check_game(reversed_rows, seed=3)


def test_variant_configs():
    assert GAME.make_config(None, "clock").clock is True
    assert GAME.make_config({"target_score": 7}, "clock").target_score == 7
    with pytest.raises(ValueError, match="clock"):
        GAME.make_config(TableFootballConfig(), "clock")
    with pytest.raises(ValueError, match="clock"):
        GAME.make_config({"clock": False}, "clock")
    with pytest.raises(ValueError, match="variant"):
        GAME.make_config(None, "blitz")


# --- the official checkers ---------------------------------------------------------------------------------

@pytest.mark.parametrize("env_id", IDS)
def test_gymnasium_check_env(env_id):
    from gymnasium.utils.env_checker import check_env

    check_env(gym.make(env_id, render_mode="rgb_array").unwrapped)
    check_env(gym.make(env_id, render_mode="ansi").unwrapped)


def test_sb3_check_env():
    from stable_baselines3.common.env_checker import check_env

    check_env(gym.make(IDS[0]).unwrapped)
    check_env(gym.make(IDS[1]).unwrapped)


@pytest.mark.parametrize("variant", ["basic", "clock"])
def test_pettingzoo_checkers(variant, capsys):
    from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test

    api_test(tf.env(variant=variant), num_cycles=300)
    seed_test(lambda **kw: tf.env(variant=variant, **kw), num_cycles=300)
    render_test(lambda **kw: tf.env(variant=variant, **kw))
    parallel_api_test(tf.parallel_env(variant=variant), num_cycles=300)
    capsys.readouterr()  # render_test's "human" frames


def test_registered_ids_and_config():
    env = gym.make(IDS[0], config={"target_score": 7})
    assert env.unwrapped.config == TableFootballConfig(target_score=7)
    env = gym.make(IDS[1], config=TableFootballConfig(clock=True, quarter_boxes=20, two_minute_boxes=4))
    assert env.unwrapped.config.quarter_boxes == 20
    with pytest.raises(ValueError, match="clock"):
        gym.make(IDS[1], config=TableFootballConfig())
    with pytest.raises(ValueError, match="target_score"):
        gym.make(IDS[0], config={"target_score": 0})
    with pytest.raises(ValueError, match="unknown TableFootballConfig field"):
        gym.make(IDS[0], config={"target": 7})
    with pytest.raises(ValueError, match="learner_team"):
        gym.make(IDS[0], learner_team="both")
    with pytest.raises(ValueError, match="illegal_action"):
        gym.make(IDS[0], illegal_action="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        GameEnv(render_mode="human")
    with pytest.raises(ValueError, match="opponent"):
        gym.make(IDS[0], opponent=3)
    with pytest.raises(ValueError, match="num_envs"):
        gym.make_vec(IDS[0], num_envs=0)
    with pytest.raises(ValueError, match="max_episode_steps"):
        gym.make_vec(IDS[0], num_envs=2, max_episode_steps=True)
    venv = gym.make_vec(IDS[1], num_envs=3)
    assert isinstance(venv, GameVectorEnv) and venv.config.clock
    assert venv.single_observation_space is venv.single_observation_space
    assert venv.observation_space.shape == (3, tf.OBS_SIZE)
    aec = tf.raw_env(target_score=9, variant="clock")
    assert aec.config == TableFootballConfig(clock=True, target_score=9)
    assert aec.observation_space("team_one") is aec.observation_space("team_one")
    assert aec.metadata["name"] == "table_football_v0"


# --- seeds ---------------------------------------------------------------------------------------------

def test_seeds_modulo_and_rejected():
    a, b = GameEnv(), GameEnv()
    oa, _ = a.reset(seed=5)
    ob, _ = b.reset(seed=5 + 2**64)
    assert np.array_equal(oa, ob) and a.state.equals(b.state)
    for bad in (-1, True, 1.5, "3"):
        with pytest.raises(ValueError, match="seed"):
            a.reset(seed=bad)
    v = GameVectorEnv(3)
    v.reset(seed=2**64 - 1)  # slot i's seed s + i wraps past 2**64 - 1 to 0
    lone = GameEnv()
    lone.reset(seed=1)
    assert GAME.take(v.state, [2]).equals(lone.state)
    with pytest.raises(ValueError, match="seed"):
        v.reset(seed=[1, 2])


def _run_vector(mode, n, seed, steps, config, illegal_every, max_episode_steps=None):
    """Play a vector env; return per slot the events a lone env must reproduce."""
    venv = GameVectorEnv(n, config=config, autoreset_mode=mode, max_episode_steps=max_episode_steps)
    obs, info = venv.reset(seed=seed)
    events = [[("reset", obs[i].copy(), info["action_mask"][i].copy())] for i in range(n)]
    t = np.zeros(n, dtype=np.int64)
    pending = np.zeros(n, dtype=bool)  # NEXT_STEP: this step of the slot is its reset
    for _ in range(steps):
        actions = np.array([_pick(info["action_mask"][i], i, t[i], illegal_every) for i in range(n)])
        obs, reward, term, trunc, info = venv.step(actions)
        done = term | trunc
        for i in range(n):
            if pending[i]:
                events[i].append(("reset", obs[i].copy(), info["action_mask"][i].copy()))
                continue
            final = obs[i] if mode != AutoresetMode.SAME_STEP or not done[i] else info["final_obs"][i]
            fmask = info["action_mask"][i] if mode != AutoresetMode.SAME_STEP or not done[i] else \
                info["final_info"]["action_mask"][i]
            events[i].append(("step", int(actions[i]), final.copy(), float(reward[i]), bool(term[i]),
                              bool(trunc[i]), fmask.copy()))
            t[i] += 1
            if done[i] and mode == AutoresetMode.SAME_STEP:
                events[i].append(("reset", obs[i].copy(), info["action_mask"][i].copy()))
        if mode == AutoresetMode.NEXT_STEP:
            pending = done.copy()
        elif mode == AutoresetMode.DISABLED and done.any():
            obs, info = venv.reset(options={"reset_mask": done})
            for i in np.flatnonzero(done):
                events[i].append(("reset", obs[i].copy(), info["action_mask"][i].copy()))
    return events


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED])
@pytest.mark.parametrize("variant", ["basic", "clock"])
def test_batch_game_equals_lone_game(mode, variant):
    config = {"target_score": 7} if variant == "basic" else {"clock": True, "quarter_boxes": 8,
                                                              "two_minute_boxes": 2}
    seed, n = 2**64 - 3, 5  # slots wrap past 2**64 - 1
    events = _run_vector(mode, n, seed, 120, config, illegal_every=97, max_episode_steps=40)
    episodes = 0
    for i in range(n):
        lone = GameEnv(config=config, max_episode_steps=40)
        first = True
        for ev in events[i]:
            if ev[0] == "reset":
                obs, info = lone.reset(seed=(seed + i) % 2**64) if first else lone.reset()
                first = False
                episodes += 1
                assert np.array_equal(obs, ev[1]) and np.array_equal(info["action_mask"], ev[2])
            else:
                obs, r, te, tr, info = lone.step(ev[1])
                assert np.array_equal(obs, ev[2]) and (r, te, tr) == ev[3:6]
                assert np.array_equal(info["action_mask"], ev[6])
    assert episodes > 2 * n  # autoresets happened


# --- illegal actions --------------------------------------------------------------------------------------

def _to_state_where(env, pred, seed=0):
    """Reset ``env`` (seeds seed, seed+1, ...) and step legal first ids until ``pred(mask)``."""
    for s in range(seed, seed + 200):
        obs, info = env.reset(seed=s)
        for _ in range(400):
            if pred(info["action_mask"]):
                return info
            obs, r, te, tr, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            if te or tr:
                break
    raise AssertionError("no such state found")


def test_illegal_action_loses():
    env = GameEnv(learner_team="one")
    for action, name in ((PUNT, "punt"), (99, None), (-1, None), (True, None), (np.int64(TIME_OUT), "time out")):
        info = _to_state_where(env, lambda m: m[RUN_PLAY] == 1 and m[PUNT] == 0)
        before = env.state.copy()
        obs, r, te, tr, info = env.step(action)
        assert (r, te, tr) == (-1.0, True, False)
        ill = info["illegal_action"]
        assert ill["action"] == (action.item() if isinstance(action, np.generic) else action)
        assert ill["name"] == name and ill["team"] == "team_one" and isinstance(ill["reason"], str)
        assert before.equals(env.state)  # the adapters record the forfeit; the position stays as it was
        assert info["action_mask"].tolist() == [0, 0, 0, 1, 0, 0, 0]  # only the ignored id, "decline"
        obs2, r2, te2, tr2, _ = env.step(DECLINE)  # a step after the end is ignored
        assert r2 == 0.0 and te2 and np.array_equal(obs, obs2)
    # True is not id 1 even where "field goal" is legal
    info = _to_state_where(env, lambda m: m[FIELD_GOAL] == 1)
    assert env.step(True)[1] == -1.0
    for bad in (1.0, "run play", None, [0, 1]):
        env.reset(seed=0)
        with pytest.raises(ValueError):
            env.step(bad)


def test_illegal_action_raise_changes_nothing():
    env = GameEnv(illegal_action="raise", learner_team="two")
    _to_state_where(env, lambda m: m[PUNT] == 0 and m[RUN_PLAY] == 1)
    before = env.state.copy()
    with pytest.raises(tf.IllegalActionError, match="punt") as err:
        env.step(PUNT)
    assert isinstance(err.value, ValueError) and "run play" in err.value.legal_actions
    assert before.equals(env.state)
    env.step(RUN_PLAY)  # and the game goes on


def test_vector_illegal_action_only_its_game():
    v = GameVectorEnv(4, learner_team="one")
    obs, info = v.reset(seed=40)
    actions = np.array([int(np.flatnonzero(m)[0]) for m in info["action_mask"]])
    before = v.state.copy()
    actions[2] = 42
    obs, r, te, tr, info = v.step(actions)
    assert te[2] and r[2] == -1.0 and info["_illegal_action"].tolist() == [False, False, True, False]
    assert info["illegal_action"][2]["action"] == 42
    assert GAME.take(v.state, [2]).equals(GAME.take(before, [2]))
    assert v.render_mode is None
    with pytest.raises(ValueError):
        v.step(np.zeros(4))  # floats
    with pytest.raises(ValueError):
        v.step([0, 0, 0])
    ids, given = batch_actions([True, 0, 1, 2], 4, tf.NUM_ACTIONS)
    assert ids[0] == -1 and given[0] is True
    assert one_action(np.array([3]), tf.NUM_ACTIONS) == (3, None)


def test_pettingzoo_illegal_action():
    env = tf.env()
    env.reset(seed=3)
    agent = env.agent_selection
    other = "team_two" if agent == "team_one" else "team_one"
    env.step(PUNT)  # not legal on first down
    assert env.terminations[agent] and env.terminations[other]
    assert env.rewards[agent] == -1.0 and env.rewards[other] == 1.0
    info = env.infos[other]
    assert info["winner"] == other and info["illegal_action"]["team"] == agent
    assert info["illegal_action"]["name"] == "punt"
    assert env.observe(agent)["action_mask"].tolist() == [0, 0, 0, 1, 0, 0, 0]
    env.unwrapped.render_mode = "ansi"
    assert f"{agent} forfeits" in env.unwrapped.render()
    raw = tf.raw_env(illegal_action="raise")
    raw.reset(seed=3)
    before = raw.game_state.copy()
    with pytest.raises(tf.IllegalActionError):
        raw.step(True)
    assert before.equals(raw.game_state)


# --- masks ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("env_id", IDS)
def test_no_all_zero_mask_rows(env_id):
    cfg = {"quarter_boxes": 12, "two_minute_boxes": 3} if "Clock" in env_id else {"target_score": 14}
    v = gym.make_vec(env_id, num_envs=32, config=cfg, max_episode_steps=60)
    obs, info = v.reset(seed=9)
    rng = np.random.default_rng(0)
    seen_done = 0
    for t in range(300):
        mask = info["action_mask"]
        assert mask.dtype == np.int8 and (mask.sum(axis=1) >= 1).all()
        assert np.array_equal(v.action_masks(), mask.astype(bool))
        acting = (v.state.to_act == v.unwrapped._core.learner)
        assert np.array_equal(mask[acting], v.state.legal[acting].astype(np.int8))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, r, te, tr, info = v.step(actions)
        assert v.observation_space.contains(obs)
        seen_done += int((te | tr).sum())
    assert seen_done > 32
    aec = tf.raw_env(variant="clock" if "Clock" in env_id else "basic", **cfg)
    aec.reset(seed=1)
    for agent in aec.agent_iter(2000):
        for a in aec.agents:
            assert aec.observe(a)["action_mask"].sum() >= 1
        _, _, term, trunc, _ = aec.last()
        aec.step(None if term or trunc else int(rng.choice(np.flatnonzero(aec.observe(agent)["action_mask"]))))


# --- opponents ------------------------------------------------------------------------------------------

def test_agent_and_callable_opponents():
    seen = {}

    def always_first(obs, mask):
        seen["obs"], seen["mask"] = obs, mask
        return np.argmax(mask, axis=1)

    v = GameVectorEnv(6, opponent=always_first, learner_team="two")
    v.reset(seed=1)
    assert seen["obs"].dtype == np.float32 and seen["mask"].dtype == np.int8
    assert (v.state.to_act == 1).all()
    # an agent opponent: batch game i equals a lone game seeded s + i
    v = GameVectorEnv(3, opponent=tf.FixedAgent(0.5), learner_team="random", autoreset_mode="same_step")
    obs, info = v.reset(seed=70)
    lones = [GameEnv(opponent=tf.FixedAgent(0.5)) for _ in range(3)]
    for i, e in enumerate(lones):
        assert np.array_equal(e.reset(seed=70 + i)[0], obs[i])
    for t in range(60):
        actions = np.array([_pick(info["action_mask"][i], i, t) for i in range(3)])
        obs, r, te, tr, info = v.step(actions)
        for i, e in enumerate(lones):
            o, ri, tei, tri, _ = e.step(int(actions[i]))
            if tei or tri:
                o, _ = e.reset()
            assert np.array_equal(o, obs[i]) and ri == r[i]


def test_random_opponent_is_uniform():
    legal = np.array([[1, 1, 0, 0, 0, 0, 0], [0, 0, 0, 1, 1, 0, 0], [1, 1, 1, 0, 0, 0, 0]], dtype=bool)
    unit = np.linspace(0, 1, 3000, endpoint=False)
    for row in legal:
        picks = uniform_legal(np.repeat(row[None], unit.size, axis=0), unit)
        ids, counts = np.unique(picks, return_counts=True)
        assert ids.tolist() == np.flatnonzero(row).tolist()
        assert counts.min() == counts.max()  # exact thirds / halves of the unit interval


# --- rewards and results ----------------------------------------------------------------------------------

def test_rewards_are_results():
    v = GameVectorEnv(64, config={"target_score": 7}, autoreset_mode="disabled", learner_team="random")
    obs, info = v.reset(seed=123)
    total = np.zeros(64)
    done = np.zeros(64, bool)
    for _ in range(500):
        obs, r, te, tr, info = v.step(np.argmax(info["action_mask"], axis=1))
        total += r
        done |= te | tr
        if done.all():
            break
    assert done.all()
    s = v.state
    learner = v.unwrapped._core.learner
    expected = np.where(s.winner == learner, 1.0, np.where(s.winner == 1 - learner, -1.0, 0.0))
    assert np.array_equal(total, expected)


def test_clock_draw_gives_zero_to_both():
    cfg = TableFootballConfig(clock=True, quarter_boxes=1, two_minute_boxes=0)
    rng = np.random.default_rng(5)
    for seed in range(400):
        aec = tf.raw_env(config=cfg)
        aec.reset(seed=seed)
        final = {}
        for agent in aec.agent_iter(5000):
            _, reward, term, trunc, info = aec.last()
            if term or trunc:
                final[agent] = (reward, info)
            aec.step(None if term or trunc else int(rng.choice(np.flatnonzero(aec.observe(agent)["action_mask"]))))
        assert set(final) == {"team_one", "team_two"}
        if final["team_one"][1]["draw"]:
            assert final["team_one"][0] == final["team_two"][0] == 0.0
            assert final["team_two"][1]["winner"] is None
            score = final["team_one"][1]["score"]
            assert score[0] == score[1]
            return
        winner = final["team_one"][1]["winner"]
        assert {a: final[a][0] for a in final} == {a: 1.0 if a == winner else -1.0 for a in final}
    pytest.fail("no draw found in 400 one-box games")


def test_max_episode_steps_truncates():
    v = gym.make_vec(IDS[0], num_envs=2, max_episode_steps=3, autoreset_mode=AutoresetMode.SAME_STEP)
    obs, info = v.reset(seed=0)
    for t in range(3):
        obs, r, te, tr, info = v.step(np.argmax(info["action_mask"], axis=1))
    assert tr.all() and not te.any() and info["_final_obs"].all()
    # the engine's own cap on plays truncates too, with no reward
    env = GameEnv(config={"max_plays": 2}, learner_team="one")
    obs, info = env.reset(seed=2)
    for _ in range(20):
        obs, r, te, tr, info = env.step(int(np.argmax(info["action_mask"])))
        if te or tr:
            break
    assert env.state.plays[0] <= 2
    if tr:
        assert r == 0.0 and not te and env.state.truncated[0]
    else:
        assert te and r != 0.0
    sb3 = SB3VecEnv(IDS[0], num_envs=8, config={"max_plays": 1})
    sb3.seed(0)
    sb3.reset()
    flags = []
    for _ in range(4):
        _, r, done, infos = sb3.step(np.array([int(np.argmax(m)) for m in sb3.action_masks()]))
        flags += [(infos[i]["TimeLimit.truncated"], float(r[i])) for i in np.flatnonzero(done)]
    assert (True, 0.0) in flags and all(rew == 0.0 for trunc, rew in flags if trunc)


def test_reset_from_a_given_position():
    v = GameVectorEnv(3, learner_team="one", autoreset_mode="disabled")
    obs, info = v.reset(seed=31)
    for t in range(6):
        obs, r, te, tr, info = v.step(np.argmax(info["action_mask"], axis=1))
    position = GAME.take(v.state, [1])
    env = GameEnv(learner_team="one")
    obs, info = env.reset(seed=0, options={"state": position})
    assert env.state.equals(position) and env.state is not position
    assert np.array_equal(obs, tf.observe(position, 0)[0])
    broken = position.copy()
    broken.down[:] = 9
    with pytest.raises(ValueError, match="not a valid position"):
        env.reset(options={"state": broken})
    with pytest.raises(ValueError, match="unknown reset option"):
        env.reset(options={"seed": 3})
    aec = tf.raw_env()
    aec.set_state(position)
    assert aec.game_state.equals(position)
    assert aec.agent_selection == ("team_one", "team_two")[int(position.to_act[0])]
    with pytest.raises(ValueError):
        aec.set_state(v.state)  # three games


# --- rendering ------------------------------------------------------------------------------------------

def test_rendering_content():
    env = GameEnv(render_mode="ansi", variant="clock", config={"clock": True})
    env.reset(seed=4)
    text = env.render()
    assert "ONE 0 - 0 TWO" in text and "Q1 60 BOXES" in text and "TO 3-3" in text and "1ST & 10" in text
    env = GameEnv(render_mode="rgb_array")
    env.reset(seed=4)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3 and frame.std() > 0
    assert np.array_equal(frame, tf.render_rgb(env.state, 0))
    v = GameVectorEnv(2, render_mode="ansi")
    v.reset(seed=8)
    frames = v.render()
    assert len(frames) == 2 and all(f == tf.render_ansi(GAME.take(v.state, [i]), 0) for i, f in enumerate(frames))
    env = GameEnv(render_mode="ansi", learner_team="one")
    _to_state_where(env, lambda m: m[PUNT] == 0 and m[RUN_PLAY] == 1)
    env.step(PUNT)
    assert "team_one forfeits" in env.render()


# --- SB3 ------------------------------------------------------------------------------------------------

def test_sb3_adapter():
    venv = SB3VecEnv(IDS[0], num_envs=4, max_episode_steps=5)
    venv.seed(21)
    obs = venv.reset()
    assert obs.shape == (4, tf.OBS_SIZE)
    masks = venv.env_method("action_masks")
    assert len(masks) == 4 and masks[0].dtype == np.bool_
    ended = 0
    for _ in range(5):
        obs, r, done, infos = venv.step(np.array([int(np.flatnonzero(m)[0]) for m in venv.action_masks()]))
        for i in np.flatnonzero(done):
            ended += 1
            assert infos[i]["terminal_observation"].shape == (tf.OBS_SIZE,)
            assert infos[i]["TimeLimit.truncated"] == (r[i] == 0)
    assert ended >= 4
    built = GameVectorEnv(4)
    adapter = SB3VecEnv(built)
    assert built.autoreset_mode == AutoresetMode.SAME_STEP
    adapter.seed(21)
    assert np.array_equal(adapter.reset(), GameVectorEnv(4).reset(seed=21)[0])
    with pytest.raises(ValueError):
        SB3VecEnv(built, num_envs=4)
    with pytest.raises(ValueError):
        adapter.step_async(np.zeros(4))  # floats are not action ids


def _win_rate(model, config, n=400, seed=10_000):
    """Share of n fixed-seed games the policy (sampling, torch seeded) wins against the random opponent."""
    import torch

    torch.manual_seed(0)
    env = GameVectorEnv(n, config=config, autoreset_mode="disabled")
    obs, info = env.reset(seed=seed)
    total, done = np.zeros(n), np.zeros(n, bool)
    while not done.all():
        a, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=False)
        obs, r, te, tr, info = env.step(a)
        total += np.where(done, 0.0, r)
        done |= te | tr
    return float((total > 0).mean())


def test_maskable_ppo_learns_against_random():
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor

    torch.set_num_threads(1)
    config = {"target_score": 14}
    venv = VecMonitor(SB3VecEnv(IDS[0], num_envs=32, config=config))
    venv.seed(0)
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=256, n_epochs=4, learning_rate=3e-3,
                        ent_coef=0.0, seed=0, verbose=0)
    before = _win_rate(model, config)
    model.learn(16_384)
    after = _win_rate(model, config)
    # an untrained (near uniform) policy is about as good as random; the trained one wins most games
    assert 0.35 < before < 0.65
    assert after > 0.8 and after > before + 0.25


def test_envs_pickle_and_copy():
    import copy
    import pickle

    env = GameEnv(config={"target_score": 7})
    env.reset(seed=1)
    env.step(int(np.argmax(env.action_masks())))
    again = pickle.loads(pickle.dumps(env))
    assert again.game is GAME and again.state.equals(env.state) and again.config == env.config
    assert copy.deepcopy(env).state.equals(env.state)
    aec = pickle.loads(pickle.dumps(tf.raw_env(variant="clock")))
    assert aec.config.clock
    sync = gym.make_vec(IDS[0], num_envs=2, vectorization_mode="sync")  # Gymnasium's wrapper over lone envs
    native = gym.make_vec(IDS[0], num_envs=2)
    assert np.array_equal(sync.reset(seed=4)[0], native.reset(seed=4)[0])


def test_pettingzoo_seeding_and_dead_steps():
    a, b = tf.raw_env(), tf.raw_env()
    a.reset(seed=2**64 - 1)
    a.reset()  # the next seed: 2**64 - 1 + 1 wraps to 0
    b.reset(seed=0)
    assert a.game_state.equals(b.game_state)
    assert GAME.init(1, 0, b.config).equals(b.game_state)
    with pytest.raises(ValueError, match="seed"):
        a.reset(seed=-2)
    e = tf.env(target_score=1)
    e.reset(seed=6)
    rng = np.random.default_rng(1)
    while not any(e.terminations.values()):
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    with pytest.raises(ValueError, match="only valid action is None"):
        e.step(0)
    e.step(None)
    e.step(None)
    assert e.agents == []
