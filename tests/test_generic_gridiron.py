"""The generic single and vector envs over Gridiron's GameSpec play the same games as Gridiron's own learner
envs (the learner core of ``gridiron_env.envs.vector`` with whole-game episodes, which served
``gridiron_env/Gridiron-v0`` before the id moved onto the generic classes; their outputs recorded in
tests/data/reference_episodes.json) in every episode, autoresets and ``reset()`` included: the spec
carries Gridiron's env salts (``GameSpec.salts``). And the salts field itself: validated, defaulting to
the generic adapters' own, and the one thing that picks a game's later episodes."""

import dataclasses

import numpy as np
import pytest

from gridiron_env import GameConfig
from gridiron_env.adapters.common import episode_seeds, learner_teams
from gridiron_env.adapters.selfplay import SELFPLAY_SALT, GameSelfPlayBatch
from gridiron_env.adapters.single import GameEnv
from gridiron_env.adapters.vector import GameVectorEnv

import gridiron_env.envs.single
import gridiron_env.envs.vector
import reference_episodes as references
from reference_episodes import Reference
from gridiron_env.gridiron.game import GAME, SALTS
from gridiron_env.protocol import EnvSalts, game_names, get_game

# The reference envs: Gridiron's own whole-game learner envs as they were before Gridiron-v0 moved onto the
# generic classes (the old learner core ``LearnerBatch`` with whole-game episodes), recorded
# (tests/reference_episodes.py): each test plays a twin (the GridironEnv / GridironVectorEnv presets)
# checked output by output against the old classes' recorded outputs.
def GridironEnv(**options):
    return Reference(gridiron_env.envs.single.GridironEnv(**options))


def _raw_vector(num_envs=1, **options):
    return gridiron_env.envs.vector.GridironVectorEnv(num_envs, **options)


def GridironVectorEnv(num_envs=1, **options):
    return Reference(_raw_vector(num_envs, **options))


@pytest.fixture(autouse=True)
def _reference_episodes(request):
    failed = request.session.testsfailed
    references.begin(request.node.nodeid.split("/")[-1])
    yield
    references.end(request.session.testsfailed == failed)


# short games, so that every slot plays several episodes in a few hundred steps
SHORT = GameConfig(target_score=3, max_steps=160)


def _highest_legal(obs, mask):
    """A deterministic callable opponent: the highest legal id."""
    return (mask.shape[1] - 1 - mask[:, ::-1].argmax(axis=1)).astype(np.int64)


def _play_vectors(n, seed, learner_team, opponent, autoreset_mode, steps, config=SHORT, rng_seed=0):
    """Step GridironVectorEnv and the generic GameVectorEnv over Gridiron side by side with the same random
    legal learner actions; assert every output equal at every step. Returns the episodes that ended."""
    kw = dict(learner_team=learner_team, opponent=opponent, config=config, autoreset_mode=autoreset_mode)
    theirs, ours = GridironVectorEnv(n, **kw), GameVectorEnv(n, game="gridiron", **kw)
    obs_t, info_t = theirs.reset(seed=seed)
    obs_o, info_o = ours.reset(seed=seed)
    rng = np.random.default_rng(rng_seed)
    ended = 0
    for _ in range(steps):
        np.testing.assert_array_equal(obs_o, obs_t)
        np.testing.assert_array_equal(info_o["action_mask"], info_t["action_mask"])
        np.testing.assert_array_equal(info_o["learner_team"], info_t["learner_team"])
        assert ours.state.equals(theirs.state)
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in info_t["action_mask"]])
        obs_t, rew_t, term_t, trunc_t, info_t = theirs.step(actions)
        obs_o, rew_o, term_o, trunc_o, info_o = ours.step(actions)
        np.testing.assert_array_equal(rew_o, rew_t)
        np.testing.assert_array_equal(term_o, term_t)
        np.testing.assert_array_equal(trunc_o, trunc_t)
        if "final_obs" in info_t:
            np.testing.assert_array_equal(info_o["_final_obs"], info_t["_final_obs"])
            for g in np.flatnonzero(info_t["_final_obs"]):
                np.testing.assert_array_equal(info_o["final_obs"][g], info_t["final_obs"][g])
        ended += int((term_t | trunc_t).sum())
    return ended


@pytest.mark.parametrize("n, seed, learner_team", [(1, 0, "random"), (3, 7, "random"), (5, 2**64 - 2, "two"),
                                                   (8, 123, "one")])
def test_the_generic_vector_env_plays_every_episode_like_gridiron_s(n, seed, learner_team):
    """Default random opponent (its stream is the spec's ``salts.opponent``), NEXT_STEP autoresets."""
    ended = _play_vectors(n, seed, learner_team, None, "next_step", 260)
    assert ended >= 2 * n  # every slot went on past its first episode (on average)


def test_a_callable_opponent_and_same_step_autoresets_play_alike_too():
    ended = _play_vectors(4, 31, "random", _highest_legal, "same_step", 200)
    assert ended >= 8


def _lone_episodes(theirs, ours, seed, episodes, rng, alongside=None):
    """Play ``episodes`` episodes of two lone envs side by side (``reset()`` between them) with the same
    random legal actions, asserting equal observations, masks, seats, states and results.
    ``alongside(action, info, result)``, if given, is called at each step with the learner's info before
    the action and the step's (reward, terminated, truncated), and with None at each reset."""
    obs_t, info_t = theirs.reset(seed=seed)
    obs_o, info_o = ours.reset(seed=seed)
    for _ in range(episodes):
        done = False
        while not done:
            np.testing.assert_array_equal(obs_o, obs_t)
            np.testing.assert_array_equal(info_o["action_mask"], info_t["action_mask"])
            assert info_o["learner_team"] == info_t["learner_team"]
            assert ours.state.equals(theirs.state)
            a = int(rng.choice(np.flatnonzero(info_t["action_mask"])))
            before = info_t
            obs_t, r_t, te_t, tr_t, info_t = theirs.step(a)
            obs_o, r_o, te_o, tr_o, info_o = ours.step(a)
            assert (r_o, te_o, tr_o) == (r_t, te_t, tr_t)
            if alongside is not None:
                alongside(a, before, (r_t, te_t, tr_t))
            done = te_t or tr_t
        obs_t, info_t = theirs.reset()
        obs_o, info_o = ours.reset()
        if alongside is not None:
            alongside(None, None, None)


def test_slot_i_of_any_batch_is_the_lone_generic_env_seeded_s_plus_i_in_every_episode():
    """Batch-size independence across episodes: slot 2 of a batch of 4 seeded 10 is GridironEnv and the
    generic GameEnv seeded 12, episode after episode (``reset()`` between them)."""
    vec = GameVectorEnv(4, game="gridiron", config=SHORT, autoreset_mode="disabled")
    seen = {"info": vec.reset(seed=10)[1]}

    def slot_2(action, info, result):
        if action is None:  # the lone envs reset: so does slot 2 alone
            seen["info"] = vec.reset(options={"reset_mask": np.array([False, False, True, False])})[1]
            return
        vinfo = seen["info"]
        assert vinfo["learner_team"][2] == info["learner_team"]
        np.testing.assert_array_equal(vinfo["action_mask"][2], info["action_mask"])
        actions = np.array([int(np.flatnonzero(row)[0]) for row in vinfo["action_mask"]])
        actions[2] = action
        _, vr, vte, vtr, seen["info"] = vec.step(actions)
        assert (vr[2], vte[2], vtr[2]) == result

    _lone_episodes(GridironEnv(config=SHORT), GameEnv(game="gridiron", config=SHORT), 12, 4,
                   np.random.default_rng(3), slot_2)


def test_an_illegal_action_then_later_episodes_alike():
    """A learner's illegal action loses the game alike (reward -1, the engine's forfeit), and the episodes
    after it are still the same games."""
    theirs = GridironVectorEnv(3, config=SHORT)
    ours = GameVectorEnv(3, game="gridiron", config=SHORT)
    obs_t, info_t = theirs.reset(seed=5)
    obs_o, info_o = ours.reset(seed=5)
    rng = np.random.default_rng(4)
    for step in range(120):
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in info_t["action_mask"]])
        if step % 40 == 3:  # slot 1 breaks a rule now and then
            actions[1] = int(np.flatnonzero(info_t["action_mask"][1] == 0)[0])
        obs_t, rew_t, term_t, trunc_t, info_t = theirs.step(actions)
        obs_o, rew_o, term_o, trunc_o, info_o = ours.step(actions)
        for o, t in ((obs_o, obs_t), (rew_o, rew_t), (term_o, term_t), (trunc_o, trunc_t),
                     (info_o["action_mask"], info_t["action_mask"])):
            np.testing.assert_array_equal(o, t)
        assert ("illegal_action" in info_o) == ("illegal_action" in info_t)
        if "illegal_action" in info_t:
            np.testing.assert_array_equal(info_o["_illegal_action"], info_t["_illegal_action"])
            assert info_o["illegal_action"][1]["action"] == info_t["illegal_action"][1]["action"]
            assert rew_o[1] == -1
        assert ours.state.equals(theirs.state)


def test_a_scenario_env_plays_its_later_episodes_alike():
    """``scenario=``: every episode from the named position, its open parts drawn from the episode seed."""
    _lone_episodes(GridironEnv(config=SHORT, scenario="red_zone"),
                   GameEnv(game="gridiron", config=SHORT, scenario="red_zone"), 8, 3, np.random.default_rng(6))


def test_the_sb3_adapter_over_the_generic_env_plays_gridiron_s_sb3_batch():
    """SB3's view (same-step resets, terminal observations): the generic adapter over the generic vector env
    and Gridiron's over GridironVectorEnv give the same batch, episode after episode."""
    from gridiron_env.adapters.sb3 import SB3VecEnv as GameSB3VecEnv

    theirs = Reference(GameSB3VecEnv(_raw_vector(4, config=SHORT)))  # recorded over the old VectorBase
    ours = GameSB3VecEnv(GameVectorEnv(4, game="gridiron", config=SHORT))
    theirs.seed(17)
    ours.seed(17)
    obs_t, obs_o = theirs.reset(), ours.reset()
    rng = np.random.default_rng(8)
    ended = 0
    for _ in range(200):
        np.testing.assert_array_equal(obs_o, obs_t)
        masks = theirs.env_method("action_masks")
        np.testing.assert_array_equal(np.array(ours.env_method("action_masks")), np.array(masks))
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        obs_t, rew_t, done_t, infos_t = theirs.step(actions)
        obs_o, rew_o, done_o, infos_o = ours.step(actions)
        np.testing.assert_array_equal(rew_o, rew_t)
        np.testing.assert_array_equal(done_o, done_t)
        for i in np.flatnonzero(done_t):
            np.testing.assert_array_equal(infos_o[i]["terminal_observation"], infos_t[i]["terminal_observation"])
            assert infos_o[i]["TimeLimit.truncated"] == infos_t[i]["TimeLimit.truncated"]
        ended += int(done_t.sum())
    assert ended >= 8


# --- the salts field ---------------------------------------------------------------------------------------

def test_gridiron_s_spec_carries_gridiron_s_env_salts():
    assert GAME.salts is SALTS
    assert SALTS != EnvSalts()  # Gridiron's envs were seeded apart from the generic ones


def test_the_other_games_keep_the_generic_salts():
    """Their behaviour was the generic adapters' before the field existed: a spec that names no salts keeps
    them (checked by a before/after random-play digest when the field came in)."""
    for name in game_names():
        if not name.startswith("gridiron"):  # Gridiron's whole game and its drive replay Gridiron's envs
            assert get_game(name).salts == EnvSalts(), name
    assert EnvSalts().selfplay == int(SELFPLAY_SALT)


@pytest.mark.parametrize("field, value", [("episode", -1), ("learner", 2**64), ("opponent", 1.5),
                                          ("selfplay", True), ("episode", "7")])
def test_a_bad_salt_is_a_value_error_naming_the_field(field, value):
    with pytest.raises(ValueError, match=f"EnvSalts.{field}"):
        EnvSalts(**{field: value})


def test_a_spec_s_salts_must_be_env_salts():
    spec = get_game("table_football")
    with pytest.raises(ValueError, match="salts must be an EnvSalts"):
        dataclasses.replace(spec, salts=(1, 2, 3, 4))


@pytest.mark.parametrize("name", ["table_football", "gridiron"])
def test_the_salts_pick_the_later_episodes_and_the_learner_seats(name):
    """Slot i's episode k >= 1 is the episode a fresh env seeded ``episode_seeds(s + i, k, salts.episode)``
    starts with, the learner's seat drawn with ``salts.learner``: a spec with other salts plays the same
    first episodes and other later ones, each the game of its own formula."""
    game = get_game(name)
    config = SHORT if name == "gridiron" else None
    other = dataclasses.replace(game, salts=EnvSalts(episode=12345, learner=678, opponent=91011, selfplay=1213))
    n, seed = 6, 40
    base = np.uint64(seed) + np.arange(n, dtype=np.uint64)
    firsts, laters = [], []
    for spec in (game, other):
        kw = dict(game=spec, config=config, learner_team="random", opponent=_highest_legal,
                  autoreset_mode="disabled")
        one = GameVectorEnv(n, **{**kw, "learner_team": "one"})  # seats fixed: the salts' only part is seeding
        one.reset(seed=seed)
        firsts.append([spec.to_diagram(one.state, i) for i in range(n)])
        env = GameVectorEnv(n, **kw)
        env.reset(seed=seed)
        env.reset()  # every slot's episode 1
        e = episode_seeds(base, np.ones(n, dtype=np.uint64), spec.salts.episode)
        fresh = GameVectorEnv(n, **kw)
        fresh.reset(seed=[int(x) for x in e])
        laters.append([spec.to_diagram(env.state, i) for i in range(n)])
        assert laters[-1] == [spec.to_diagram(fresh.state, i) for i in range(n)]
        np.testing.assert_array_equal(env._core.learner, learner_teams("random", e, spec.salts.learner))
    assert firsts[0] == firsts[1]
    assert laters[0] != laters[1]  # other salts, other later games


def test_the_self_play_batch_takes_the_spec_s_self_play_salt():
    game = get_game("table_football")
    other = dataclasses.replace(game, salts=dataclasses.replace(game.salts, selfplay=99))
    for spec in (game, other):
        batch = GameSelfPlayBatch(3, game=spec)
        batch.reset(seed=1)
        batch.reset()
        want = episode_seeds(np.arange(1, 4, dtype=np.uint64), np.ones(3, dtype=np.uint64), spec.salts.selfplay)
        np.testing.assert_array_equal(batch.episode_seeds, want)


# --- the official checkers on the generic envs over Gridiron ------------------------------------------------

@pytest.mark.parametrize("render_mode", ["ansi", "rgb_array"])
def test_gymnasium_check_env_on_the_generic_env_over_gridiron(render_mode):
    from gymnasium.utils.env_checker import check_env

    check_env(GameEnv(game="gridiron", config=SHORT, render_mode=render_mode))


def test_sb3_check_env_on_the_generic_env_over_gridiron():
    from stable_baselines3.common.env_checker import check_env

    check_env(GameEnv(game="gridiron", config=SHORT))


def test_pettingzoo_checkers_on_the_generic_aec_env_over_gridiron(capsys):
    from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test

    from gridiron_env.adapters import pettingzoo as generic

    api_test(generic.env("gridiron", config=SHORT), num_cycles=200)
    seed_test(lambda **kw: generic.env("gridiron", config=SHORT, **kw), num_cycles=200)
    render_test(lambda **kw: generic.env("gridiron", config=SHORT, **kw))
    parallel_api_test(generic.parallel_env("gridiron", config=SHORT), num_cycles=200)
    capsys.readouterr()  # render_test's "human" frames
