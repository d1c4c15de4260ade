"""The edges of every env's API: seeds up to 2**64-1 and past it, bool and wrongly typed actions, the wrapped
PettingZoo env's out-of-range ids, stepping after the game, bad reset options and constructor values, and
the mask convention (no mask row is ever all zero: a row whose action is ignored marks only "end turn"),
checked at every step of long random runs with masked samplers (numpy and torch)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
import torch
from gymnasium.vector import AutoresetMode
from pettingzoo.utils.env_logger import EnvLogger

import gridiron_env as g
from gridiron_env import IllegalActionError, NUM_ACTIONS
from gridiron_env.envs.common import IGNORED_ROW_ACTION
from gridiron_env.envs.pettingzoo_env import raw_env
from gridiron_env.envs.sb3 import SB3VecEnv
from gridiron_env.envs.selfplay import SelfPlayBatch
from gridiron_env.envs.single import GridironDefenceEnv, GridironEnv, GridironOffenceEnv
from gridiron_env.envs.vector import GridironDefenceVectorEnv, GridironOffenceVectorEnv, GridironVectorEnv

IDS = {"game": "gridiron_env/Gridiron-v0", "offence": "gridiron_env/GridironOffence-v0",
       "defence": "gridiron_env/GridironDefence-v0"}
LONE = {"game": GridironEnv, "offence": GridironOffenceEnv, "defence": GridironDefenceEnv}
VECTOR = {"game": GridironVectorEnv, "offence": GridironOffenceVectorEnv, "defence": GridironDefenceVectorEnv}
AGENTS = ("team_one", "team_two")
BIG_SEEDS = [0, 2**63, 2**64 - 1]
BAD_SEEDS = [-1, -(2**64), True, np.True_, 1.5, "3", [1]]
# Small games: many end (won at 3 points, or truncated at 300 agent actions) within a few hundred steps.
SMALL = {"target_score": 3, "max_steps": 300}
# The mask row of a game whose action is ignored: only the placeholder "end turn".
IDLE = np.eye(1, NUM_ACTIONS, IGNORED_ROW_ACTION, dtype=np.int8)[0]

torch.set_num_threads(1)


def same(a, b) -> bool:
    if isinstance(a, dict):
        return all(np.array_equal(a[k], b[k]) for k in a)
    return np.array_equal(a, b)


def row(obs, i):
    return {k: v[i] for k, v in obs.items()} if isinstance(obs, dict) else obs[i]


def pick(mask, rng) -> np.ndarray:
    """One legal id per row, as a numpy masked sampler does (fails on an all-zero row)."""
    mask = np.atleast_2d(mask)
    return np.array([rng.choice(np.flatnonzero(r)) for r in mask], dtype=np.int64)


def torch_pick(mask, generator) -> np.ndarray:
    """One id per row from Categorical(logits.masked_fill(~mask, -inf)), as a masked policy samples: an
    all-zero row gives NaN probabilities, which Categorical refuses. Checks the ids are legal."""
    mask = torch.as_tensor(np.atleast_2d(np.asarray(mask)).astype(bool))
    logits = torch.randn(mask.shape, generator=generator).masked_fill(~mask, float("-inf"))
    chosen = torch.distributions.Categorical(logits=logits).sample()
    assert mask[torch.arange(mask.shape[0]), chosen].all()
    return chosen.numpy().astype(np.int64)


def assert_rows_ok(mask, ignored=None):
    """No row is all zero; rows ``ignored`` (bool per row) are exactly the placeholder."""
    mask = np.atleast_2d(np.asarray(mask))
    assert mask.any(axis=1).all(), "an all-zero mask row"
    if ignored is not None:
        ignored = np.atleast_1d(ignored)
        assert (mask[ignored] == IDLE.astype(mask.dtype)).all()


# ----------------------------------------------------------------------------------------------- seeds

@pytest.mark.parametrize("kind", IDS)
@pytest.mark.parametrize("seed", BIG_SEEDS)
def test_make_takes_seeds_up_to_2_64_minus_1(kind, seed):
    env = gymnasium.make(IDS[kind])
    obs, info = env.reset(seed=seed)
    again, _ = gymnasium.make(IDS[kind]).reset(seed=np.uint64(seed))  # a numpy int seed is the same seed
    assert same(obs, again)
    assert info["action_mask"].any()
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    if kind == "game":  # the whole-game env seeded s plays the engine's game seeded s
        assert env.unwrapped.state.rng_key[0] == g.init(1, seed=seed).rng_key[0]


def episode_key(env_id, seed):
    """The engine stream key of the game a freshly made env plays after ``reset(seed=seed)``."""
    env = gymnasium.make(env_id)
    env.reset(seed=seed)
    return int(env.unwrapped.state.rng_key[0])


@pytest.mark.parametrize("kind", IDS)
def test_seeds_past_2_64_minus_1_are_taken_modulo_2_64_like_gymnasium_takes_any_int(kind):
    for seed, same_as in [(2**64, 0), (2**64 + 5, 5), (3 * 2**64 + 2**63, 2**63)]:
        assert episode_key(IDS[kind], seed) == episode_key(IDS[kind], same_as)
    assert len({episode_key(IDS[kind], s) for s in (0, 1, 2**63, 2**64 - 1)}) == 4  # distinct below 2**64


@pytest.mark.parametrize("kind", IDS)
@pytest.mark.parametrize("seed", BIG_SEEDS)
def test_make_vec_seeds_game_i_with_s_plus_i_wrapping_modulo_2_64(kind, seed):
    n = 3
    env = gymnasium.make_vec(IDS[kind], num_envs=n)
    obs, infos = env.reset(seed=seed)
    lones = [LONE[kind]() for _ in range(n)]
    for i, lone in enumerate(lones):
        lone_obs, lone_info = lone.reset(seed=(seed + i) % 2**64)
        assert same(row(obs, i), lone_obs)
        np.testing.assert_array_equal(infos["action_mask"][i], lone_info["action_mask"])
    rng = np.random.default_rng(0)
    for _ in range(20):  # the same actions keep them equal
        actions = pick(infos["action_mask"], rng)
        obs, rewards, terms, truncs, infos = env.step(actions)
        for i, lone in enumerate(lones):
            if lone.unwrapped.state.to_act[0] < 0 or lone.unwrapped._core.terminated[0] or \
                    lone.unwrapped._core.truncated[0]:
                continue
            lone_obs, r, *_ = lone.step(int(actions[i]))
            if not (terms[i] or truncs[i]):
                assert same(row(obs, i), lone_obs) and r == rewards[i]


def test_a_list_of_seeds_takes_each_modulo_2_64():
    env = GridironVectorEnv(2)
    a, _ = env.reset(seed=[2**64 - 1, 2**64])
    b, _ = GridironVectorEnv(2).reset(seed=[2**64 - 1, 0])
    np.testing.assert_array_equal(a, b)
    c, _ = GridironVectorEnv(2).reset(seed=np.array([2**64 - 1, 0], dtype=np.uint64))
    np.testing.assert_array_equal(a, c)


@pytest.mark.parametrize("seed", BIG_SEEDS)
def test_pettingzoo_takes_seeds_up_to_2_64_minus_1_and_the_next_reset_wraps(seed):
    for make in (g.env, g.raw_env):
        e = make()
        e.reset(seed=seed)
        assert e.unwrapped.game_state.equals(g.init(1, seed=seed))
        e.reset()  # the next game: seed + 1, wrapping past 2**64 - 1 to 0
        assert e.unwrapped.game_state.equals(g.init(1, seed=(seed + 1) % 2**64))
    e = g.raw_env()
    e.reset(seed=seed + 2**64)
    assert e.game_state.equals(g.init(1, seed=seed))


@pytest.mark.parametrize("seed", BIG_SEEDS)
def test_selfplay_batch_takes_seeds_up_to_2_64_minus_1_and_wraps_per_game(seed):
    b = SelfPlayBatch(3, autoreset=True, **SMALL)
    t = b.reset(seed=seed)
    expected = [(seed + i) % 2**64 for i in range(3)]
    assert t.info["episode_seed"].tolist() == expected
    assert b.state.equals(g.init(seeds=np.array(expected, dtype=np.uint64), config=b.config))
    assert SelfPlayBatch(3, **SMALL).reset(seed=seed + 2**64).info["episode_seed"].tolist() == expected
    t = b.reset()  # the next episode of every slot: s + i + N, wrapping
    assert t.info["episode_seed"].tolist() == [(seed + i + 3) % 2**64 for i in range(3)]


def test_sb3_seed_wraps_like_the_vector_env():
    venv = SB3VecEnv("gridiron_env/Gridiron-v0", num_envs=3)
    venv.seed(2**64 - 1)
    obs = venv.reset()
    reference, _ = GridironVectorEnv(3).reset(seed=2**64 - 1)
    np.testing.assert_array_equal(obs, reference)
    lone, _ = GridironEnv().reset(seed=0)  # game 1 of a batch seeded 2**64 - 1 is seeded 0
    np.testing.assert_array_equal(obs[1], lone)


@pytest.mark.parametrize("seed", BAD_SEEDS)
def test_bad_seeds_are_value_errors_everywhere(seed):
    makers = [
        lambda: gymnasium.make(IDS["game"]).reset(seed=seed),
        lambda: gymnasium.make(IDS["offence"]).reset(seed=seed),
        lambda: gymnasium.make_vec(IDS["game"], num_envs=2).reset(seed=seed),
        lambda: g.env().reset(seed=seed),
        lambda: g.raw_env().reset(seed=seed),
        lambda: SelfPlayBatch(2).reset(seed=seed),
    ]
    if not isinstance(seed, list):
        makers.append(lambda: gymnasium.make_vec(IDS["game"], num_envs=2).reset(seed=[0, seed]))
    for make in makers:
        with pytest.raises(ValueError, match="seed"):
            make()


def test_a_bad_seed_list_changes_nothing():
    env = GridironVectorEnv(2)
    env.reset(seed=4)
    before = env.state.copy()
    for bad in ([1, -1], [1, 2, 3], np.zeros((2, 1), dtype=np.int64), [1, 2.0]):
        with pytest.raises(ValueError, match="seed"):
            env.reset(seed=bad)
        assert env.state.equals(before)


# --------------------------------------------------------------------------------------- bool actions

def lone_where_legal(kind, action, seed=0, **options):
    """A lone env reset so that ``int(action)`` is a legal action of the learner (steps random legal
    actions until it is)."""
    env = LONE[kind](**options)
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    for _ in range(2000):
        if info["action_mask"][int(action)]:
            return env, info
        _, _, term, trunc, info = env.step(int(pick(info["action_mask"], rng)[0]))
        if term or trunc:
            _, info = env.reset()
    raise AssertionError(f"no position where {int(action)} is legal")


@pytest.mark.parametrize("kind", IDS)
@pytest.mark.parametrize("action", [True, False, np.True_, np.False_, np.array(True), np.array([True])])
def test_a_bool_is_an_illegal_action_in_the_lone_envs_never_id_0_or_1(kind, action):
    as_int = int(np.asarray(action).reshape(()))
    if kind == "defence" and as_int == 1:  # id 1 is an offence formation: never the defence's to play
        env = LONE[kind](config={"specials": False})
        env.reset(seed=0)
    else:
        env, info = lone_where_legal(kind, as_int, config={"specials": False})
        assert info["action_mask"][as_int]  # the int it would be cast to is legal here
    _, reward, term, trunc, info = env.step(action)
    assert term and not trunc and reward == (-1.0 if kind == "game" else -7.0)
    report = info["illegal_action"]
    assert report["action"] is bool(np.asarray(action).reshape(())) and report["name"] is None
    assert "bool" in report["reason"]
    s = env.unwrapped.state
    assert int(s.winner[0]) == 1 - env.unwrapped.learner_team and int(s.to_act[0]) == -1
    np.testing.assert_array_equal(info["action_mask"], IDLE)


@pytest.mark.parametrize("kind", IDS)
def test_a_bool_action_raises_with_the_raise_option_and_changes_nothing(kind):
    env, info = lone_where_legal(kind, 0, illegal_action="raise", config={"specials": False})
    before = env.state.copy()
    with pytest.raises(ValueError, match="bool") as err:
        env.step(False)
    assert isinstance(err.value, IllegalActionError) and err.value.action is False
    assert env.state.equals(before)
    env.step(0)  # the int is legal ("end turn") and plays


@pytest.mark.parametrize("kind", IDS)
def test_bool_actions_in_the_vector_env_lose_only_their_games(kind):
    n = 3
    env, reference = VECTOR[kind](n), VECTOR[kind](n)
    _, infos = env.reset(seed=5)
    reference.reset(seed=5)
    actions = infos["action_mask"].argmax(axis=1)
    mixed = [True] + actions[1:].tolist()  # a list mixing a bool with ints (numpy would cast it to 1)
    obs, rewards, terms, _, infos = env.step(mixed)
    ref_obs, ref_rewards, ref_terms, *_ = reference.step(actions)
    assert terms[0] and rewards[0] < 0 and infos["_illegal_action"].tolist() == [True, False, False]
    assert infos["illegal_action"][0]["action"] is True and "bool" in infos["illegal_action"][0]["reason"]
    np.testing.assert_array_equal(obs[1:], ref_obs[1:])  # the other games played their ints
    np.testing.assert_array_equal(rewards[1:], ref_rewards[1:])
    assert_rows_ok(infos["action_mask"], ignored=terms)
    # a whole bool array: every stepped game loses; the resetting game 0 ignores its entry
    _, rewards, terms, _, infos = env.step(np.ones(n, dtype=bool))
    assert terms.tolist() == [False, True, True] and rewards[0] == 0.0
    raising = VECTOR[kind](n, illegal_action="raise")
    raising.reset(seed=5)
    before = raising.state.copy()
    with pytest.raises(IllegalActionError, match="bool"):
        raising.step(np.ones(n, dtype=bool))
    assert raising.state.equals(before)


def test_bool_actions_in_the_sb3_adapter_are_illegal_not_cast():
    venv = SB3VecEnv("gridiron_env/Gridiron-v0", num_envs=2)
    venv.seed(3)
    venv.reset()
    _, rewards, dones, infos = venv.step(np.array([True, False]))
    assert dones.all() and (rewards == -1).all()
    assert [info["illegal_action"]["action"] for info in infos] == [True, False]
    assert_rows_ok(np.stack(venv.env_method("action_masks")))


def test_bool_actions_in_the_selfplay_batch_forfeit_only_their_games():
    b = SelfPlayBatch(3, specials=False)
    t = b.reset(seed=2)
    actions = t.action_mask.argmax(axis=1)
    t = b.step([True, int(actions[1]), np.bool_(False)])
    assert t.info["illegal"].tolist() == [True, False, True] and t.to_act[1] >= 0
    assert t.info["illegal_action"][0]["action"] is True and t.info["illegal_action"][2]["action"] is False
    assert (t.rewards[[0, 2]].sum(axis=1) == 0).all() and (t.rewards[[0, 2]] != 0).all()
    assert_rows_ok(t.action_mask, ignored=t.to_act < 0)
    raising = SelfPlayBatch(2, illegal_action="raise")
    raising.reset(seed=0)
    before = raising.state.copy()
    with pytest.raises(IllegalActionError, match="bool"):
        raising.step(np.array([True, True]))
    assert raising.state.equals(before)


@pytest.mark.parametrize("make", [g.env, g.raw_env])
@pytest.mark.parametrize("action", [True, np.True_])
def test_a_bool_is_an_illegal_action_in_pettingzoo_wrapped_or_not(make, action):
    e = make(specials=False)
    e.reset(seed=0)
    agent = e.agent_selection
    assert e.observe(agent)["action_mask"][1]  # formation i_form: what True would be cast to
    e.step(action)
    assert all(e.terminations.values())
    info = e.infos[agent]
    assert info["illegal_action"]["action"] is bool(action) and "bool" in info["illegal_action"]["reason"]
    assert info["winner"] != agent and e.rewards[agent] == -1.0
    raising = make(specials=False, illegal_action="raise")
    raising.reset(seed=0)
    with pytest.raises(ValueError, match="bool"):
        raising.step(action)
    assert raising.unwrapped.game_state.equals(g.init(1, seed=0, config=raising.unwrapped.config))


# ------------------------------------------------------------------- the wrapped PettingZoo env's range

@pytest.mark.parametrize("action", [291, -1, 10**30, np.int64(2**62)])
def test_the_wrapped_pettingzoo_env_plays_an_out_of_range_id_as_an_illegal_action(action):
    e = g.env()
    e.reset(seed=1)
    agent = e.agent_selection
    e.step(action)  # not PettingZoo's AssertOutOfBoundsWrapper's AssertionError
    assert all(e.terminations.values())
    report = e.infos[agent]["illegal_action"]
    assert report["action"] == int(action) and report["name"] is None
    assert "outside the action space" in report["reason"]
    assert e.rewards[agent] == -1.0
    raising = g.env(illegal_action="raise")
    raising.reset(seed=1)
    with pytest.raises(IllegalActionError):
        raising.step(action)
    assert raising.unwrapped.game_state.equals(g.init(1, seed=1))


# -------------------------------------------------------------------------------- after the game's end

def finished_raw_env():
    e = raw_env()
    e.reset(seed=0)
    e.step(NUM_ACTIONS)  # an illegal action ends the game at once
    assert all(e.terminations.values())
    return e


def test_raw_env_after_the_game_follows_pettingzoo_none_removes_each_dead_agent():
    e = finished_raw_env()
    with pytest.raises(ValueError, match="None"):  # PettingZoo's rule for a dead agent
        e.step(0)
    e.step(None)
    assert len(e.agents) == 1
    np.testing.assert_array_equal(e.observe("team_one")["action_mask"], IDLE)
    e.step(None)
    assert e.agents == []
    for action in (None, 0, True):
        with pytest.raises(RuntimeError, match="reset"):
            e.step(action)
    e.reset(seed=3)  # and a new game plays
    assert e.agents == list(AGENTS)
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))


def test_wrapped_env_after_the_game_warns_as_order_enforcing_does():
    e = g.env()
    e.reset(seed=0)
    e.step(NUM_ACTIONS)
    e.step(None)
    e.step(None)
    EnvLogger.flush()
    e.step(None)  # no exception: OrderEnforcingWrapper's warning
    assert any("reset" in str(m) for m in EnvLogger.mqueue) and e.agents == []
    EnvLogger.flush()


def test_raw_env_before_reset_says_so():
    e = raw_env()
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)
    with pytest.raises(RuntimeError, match="reset"):
        e.observe("team_one")
    e.reset(seed=0)
    with pytest.raises(ValueError, match="agent"):
        e.observe("team_three")


# ----------------------------------------------------------------------- wrongly typed actions / options

@pytest.mark.parametrize("kind", IDS)
@pytest.mark.parametrize("action", [1.0, 2.5, "1", None, [1, 2], np.array([1, 2]), np.float32(3)])
def test_a_lone_env_refuses_an_action_that_is_not_one_int_and_changes_nothing(kind, action):
    env = LONE[kind]()
    env.reset(seed=0)
    before = env.state.copy()
    with pytest.raises(ValueError, match="action"):
        env.step(action)
    assert env.state.equals(before)


@pytest.mark.parametrize("actions", [
    np.zeros(3), np.array(["1", "2", "3"]), None, 7, np.zeros((3, 1), dtype=np.int64),
    np.zeros(4, dtype=np.int64), [1, 2], [[1], [2, 3], 4], [1, None, 2], [1, 2.0, 3],
])
def test_batched_envs_refuse_actions_of_the_wrong_type_or_shape_and_change_nothing(actions):
    env = GridironVectorEnv(3)
    env.reset(seed=0)
    sb3 = SB3VecEnv(GridironVectorEnv(3))
    sb3.reset()
    b = SelfPlayBatch(3)
    b.reset(seed=0)
    targets = [(env, lambda: env.state), (b, lambda: b.state)]
    # (SB3 code paths may hold actions as a column: the adapter takes one)
    if not (isinstance(actions, np.ndarray) and actions.shape == (3, 1)):
        targets.append((sb3, lambda: sb3.venv.state))
    for target, state in targets:
        before = state().copy()
        with pytest.raises(ValueError, match="actions"):
            target.step(actions)
        assert state().equals(before)


def test_the_sb3_adapter_takes_a_column_of_actions():
    venv = SB3VecEnv("gridiron_env/Gridiron-v0", num_envs=2)
    venv.reset()
    masks = np.stack(venv.env_method("action_masks"))
    _, _, dones, _ = venv.step(masks.argmax(axis=1).reshape(2, 1))
    assert not dones.any()


@pytest.mark.parametrize("action", [2.5, "x", None, [1, 2], np.float64(1.0)])
def test_pettingzoo_plays_a_non_int_as_an_illegal_action_as_its_docstring_says(action):
    e = g.env()
    e.reset(seed=0)
    agent = e.agent_selection
    e.step(action)
    assert all(e.terminations.values()) and e.infos[agent]["illegal_action"]["name"] is None
    assert "not an integer action id" in e.infos[agent]["illegal_action"]["reason"]


@pytest.mark.parametrize("options", [5, "state", [("state", None)], (), np.zeros(2)])
def test_reset_options_of_the_wrong_type_are_value_errors(options):
    for env in (GridironEnv(), GridironOffenceEnv(), GridironVectorEnv(2), g.raw_env(), g.env()):
        with pytest.raises(ValueError, match="options"):
            env.reset(seed=0, options=options)


def test_bad_reset_option_values_name_the_option():
    with pytest.raises(ValueError, match="state"):
        GridironEnv().reset(seed=0, options={"state": 3})
    with pytest.raises(ValueError, match="reset option"):
        GridironEnv().reset(seed=0, options={1: 2, "x": 3})
    env = GridironVectorEnv(2)
    env.reset(seed=0)
    for mask in ([1, 0], np.array([1, 0]), np.ones(3, dtype=bool), "all"):
        with pytest.raises(ValueError, match="reset_mask"):
            env.reset(options={"reset_mask": mask})
    g.raw_env().reset(seed=0, options={"anything": 1})  # PettingZoo's api_test passes options it ignores


VECTOR_ARGS = [
    ({"num_envs": 2.0}, "num_envs"), ({"num_envs": "4"}, "num_envs"), ({"num_envs": True}, "num_envs"),
    ({"learner_team": ["one"]}, "learner_team"), ({"learner_team": np.array(["one"])}, "learner_team"),
    ({"observation": None}, "observation"), ({"observation": np.array(["features", "planes"])}, "observation"),
    ({"illegal_action": 1}, "illegal_action"), ({"score_reward_scale": "1"}, "score_reward_scale"),
    ({"score_reward_scale": True}, "score_reward_scale"), ({"max_episode_steps": 2.0}, "max_episode_steps"),
    ({"autoreset_mode": 3}, "autoreset_mode"), ({"render_mode": np.array(["ansi"])}, "render_mode"),
    ({"render_mode": 1}, "render_mode"), ({"offence_up": 1}, "offence_up"), ({"opponent": 3}, "opponent"),
    ({"config": [("target_score", 3)]}, "config"), ({"config": {"target_score": "3"}}, "target_score"),
]


@pytest.mark.parametrize("kwargs, word", VECTOR_ARGS + [({"start": [4]}, "start"), ({"start": 4.0}, "start"),
                                                         ({"start": np.array([4])}, "start")])
def test_constructor_values_of_the_wrong_type_name_the_field(kwargs, word):
    drive = "start" in kwargs
    vector_only = "num_envs" in kwargs or "autoreset_mode" in kwargs
    kwargs = dict(kwargs)
    num_envs = kwargs.pop("num_envs", 2)
    with pytest.raises(ValueError, match=word):
        gymnasium.make_vec(IDS["offence" if drive else "game"], num_envs=num_envs, **kwargs)
    if not vector_only:
        with pytest.raises(ValueError, match=word):
            (GridironOffenceEnv if drive else GridironEnv)(**kwargs)


@pytest.mark.parametrize("kwargs, word", [
    ({"num_games": 2.0}, "num_games"), ({"observation": ["features"]}, "observation"),
    ({"illegal_action": None}, "illegal_action"), ({"score_reward_scale": "0"}, "score_reward_scale"),
    ({"autoreset": 1}, "autoreset"), ({"render_mode": ["ansi"]}, "render_mode"), ({"offence_up": "no"}, "offence_up"),
    ({"config": {"target_score": 3}}, "config"), ({"target_score": "7"}, "target_score"),
    ({"max_steps": 2.5}, "max_steps"), ({"colour": "red"}, "colour"),
])
def test_two_team_env_constructor_values_of_the_wrong_type_name_the_field(kwargs, word):
    kwargs = dict(kwargs)
    with pytest.raises(ValueError, match=word):
        SelfPlayBatch(kwargs.pop("num_games", 2), **kwargs)
    if word not in ("num_games", "autoreset"):
        with pytest.raises(ValueError, match=word):
            raw_env(**kwargs)


def test_sb3_adapter_refuses_what_is_not_a_gridiron_vector_env():
    with pytest.raises(ValueError, match="env"):
        SB3VecEnv(3)
    with pytest.raises(ValueError, match="num_envs"):
        SB3VecEnv("gridiron_env/Gridiron-v0", num_envs="2")


# -------------------------------------------------------------------------------- no all-zero mask rows

@pytest.mark.parametrize("kind", IDS)
@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_vector_env_masks_are_never_all_zero_in_any_autoreset_mode(kind, mode):
    n = 12
    env = gymnasium.make_vec(IDS[kind], num_envs=n, autoreset_mode=mode, config=SMALL, max_episode_steps=80)
    rng, gen = np.random.default_rng(1), torch.Generator().manual_seed(1)
    _, infos = env.reset(seed=11)
    done = np.zeros(n, dtype=bool)
    ended = 0
    for step in range(200):
        was_done = done
        mask = infos["action_mask"]
        s = env.unwrapped.state
        # a row is the engine's legal actions while the learner plays, the placeholder once its episode ended
        ignored = done if mode != AutoresetMode.SAME_STEP else np.zeros(n, dtype=bool)
        assert_rows_ok(mask, ignored=ignored)
        np.testing.assert_array_equal(mask[~ignored], s.legal[~ignored].astype(np.int8))
        np.testing.assert_array_equal(env.unwrapped.action_masks(), mask.astype(bool))
        actions = torch_pick(mask, gen) if step % 2 else pick(mask, rng)
        _, _, terms, truncs, infos = env.step(actions)
        done = terms | truncs
        ended += int((done & ~was_done).sum()) if mode == AutoresetMode.DISABLED else int(done.sum())
        if mode == AutoresetMode.SAME_STEP and done.any():
            assert_rows_ok(infos["final_info"]["action_mask"][done], ignored=np.ones(int(done.sum()), bool))
        if mode == AutoresetMode.DISABLED and step % 7 == 6:  # finished games wait a while, then reset
            finished = env.unwrapped._core.terminated | env.unwrapped._core.truncated
            _, infos = env.reset(options={"reset_mask": finished})
            done = np.zeros(n, dtype=bool)
        elif mode == AutoresetMode.DISABLED:
            done = env.unwrapped._core.terminated | env.unwrapped._core.truncated
    assert ended >= 8  # many episodes ended along the way


@pytest.mark.parametrize("kind", IDS)
def test_lone_env_masks_are_never_all_zero_even_after_the_episode(kind):
    env = gymnasium.make(IDS[kind], config=SMALL)
    rng, gen = np.random.default_rng(2), torch.Generator().manual_seed(2)
    _, info = env.reset(seed=4)
    episodes = 0
    for step in range(1500):
        assert_rows_ok(info["action_mask"])
        np.testing.assert_array_equal(env.unwrapped.action_masks(), info["action_mask"].astype(bool))
        action = int((torch_pick if step % 2 else pick)(info["action_mask"], gen if step % 2 else rng)[0])
        _, _, term, trunc, info = env.step(action)
        if term or trunc:
            np.testing.assert_array_equal(info["action_mask"], IDLE)
            np.testing.assert_array_equal(env.unwrapped.action_masks(), IDLE.astype(bool))
            torch_pick(info["action_mask"], gen)
            _, info = env.reset()
            episodes += 1
    assert episodes >= 3


def test_sb3_adapter_masks_are_never_all_zero():
    venv = SB3VecEnv("gridiron_env/GridironOffence-v0", num_envs=8, config=SMALL)
    venv.seed(5)
    venv.reset()
    gen = torch.Generator().manual_seed(5)
    ended = 0
    for _ in range(250):
        masks = np.stack(venv.env_method("action_masks"))
        assert_rows_ok(masks)
        np.testing.assert_array_equal(masks, venv.action_masks())
        _, _, dones, infos = venv.step(torch_pick(masks, gen))
        ended += int(dones.sum())
    assert ended >= 10


def test_pettingzoo_masks_are_never_all_zero_for_either_agent_at_any_time():
    e = g.env(**SMALL)
    rng, gen = np.random.default_rng(6), torch.Generator().manual_seed(6)
    games = 0
    for game in range(4):
        e.reset(seed=game)
        for agent in e.agent_iter():
            for other in AGENTS:
                mask = e.observe(other)["action_mask"]
                assert_rows_ok(mask)
                if other != agent or e.terminations[agent] or e.truncations[agent]:
                    np.testing.assert_array_equal(mask, IDLE)  # not its turn, or the game is over
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            sampler = torch_pick(obs["action_mask"], gen) if rng.random() < 0.5 else pick(obs["action_mask"], rng)
            e.step(int(sampler[0]))
        for other in AGENTS:  # after both agents are removed, observe still gives the placeholder
            np.testing.assert_array_equal(e.observe(other)["action_mask"], IDLE)
        games += 1
    assert games == 4


@pytest.mark.parametrize("autoreset", [True, False])
def test_selfplay_masks_are_never_all_zero(autoreset):
    n = 10
    b = SelfPlayBatch(n, autoreset=autoreset, **SMALL)
    t = b.reset(seed=9)
    rng, gen = np.random.default_rng(9), torch.Generator().manual_seed(9)
    ended = 0
    for step in range(500):
        assert_rows_ok(t.action_mask, ignored=t.to_act < 0)
        for team in (0, 1):
            assert_rows_ok(b.action_mask(team), ignored=t.to_act != team)
            assert_rows_ok(b.action_mask(AGENTS[team]), ignored=t.to_act != team)
        live = t.to_act >= 0
        np.testing.assert_array_equal(t.action_mask[live], b.state.legal[live].astype(np.int8))
        t = b.step(torch_pick(t.action_mask, gen) if step % 2 else pick(t.action_mask, rng))
        ended += int((t.terminated | t.truncated).sum())
        if not autoreset and (t.to_act < 0).all():
            t = b.reset()
    assert ended >= 10
