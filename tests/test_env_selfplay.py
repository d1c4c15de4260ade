"""SelfPlayBatch: reports, both teams' views, seeding across batch sizes and env kinds, illegal actions,
rewards, autoreset."""

import numpy as np
import pytest

import gridiron_env as g
from gridiron_env.core import IllegalActionError, action_id, mirror_state, observe, observe_planes
from gridiron_env.core.observe import FEATURES_SIZE, N_PLANES, SCALARS_SIZE
from gridiron_env.envs.pettingzoo_env import raw_env
from gridiron_env.envs.selfplay import SelfPlayBatch, SelfPlayStep, init_games
from gridiron_env.core.scenario import hidden_ball_scramble

AGENTS = ("team_one", "team_two")


def random_actions(mask, rng):
    return (rng.random(mask.shape) * mask).argmax(1)


def test_reset_reports_every_game_from_the_acting_teams_side():
    b = SelfPlayBatch(5, specials=False)
    t = b.reset(seed=3)
    assert isinstance(t, SelfPlayStep)
    to_act, obs, mask, rewards, term, trunc, info = t  # a NamedTuple unpacks
    s = b.state
    np.testing.assert_array_equal(to_act, s.to_act)
    assert to_act.dtype == np.int8 and (to_act >= 0).all()
    assert obs.shape == (5, FEATURES_SIZE) and obs.dtype == np.float32
    np.testing.assert_array_equal(obs, observe(s, s.to_act, b.config))  # (the rules features read the config)
    assert mask.dtype == np.int8 and mask.shape == (5, g.NUM_ACTIONS)
    np.testing.assert_array_equal(mask, s.legal.astype(np.int8))
    assert rewards.shape == (5, 2) and not rewards.any() and not term.any() and not trunc.any()
    assert b.observation_space.contains(obs) and b.single_observation_space.contains(obs[0])


def test_planes_observation():
    b = SelfPlayBatch(3, observation="planes")
    t = b.reset(seed=0)
    assert t.observation["planes"].shape == (3, N_PLANES, 30, 18)
    assert t.observation["scalars"].shape == (3, SCALARS_SIZE)
    planes, scalars = observe_planes(b.state, b.state.to_act)
    np.testing.assert_array_equal(t.observation["planes"], planes)
    np.testing.assert_array_equal(t.observation["scalars"], scalars)
    assert b.observation_space.contains(t.observation)


def test_observe_gives_both_teams_views_from_their_own_side():
    b = SelfPlayBatch(12)
    b.reset(seed=8)
    rng = np.random.default_rng(8)
    for _ in range(200):
        b.step(random_actions(b.action_mask(), rng))
    s = b.state.copy()
    views = [b.observe(0), b.observe("team_two")]
    np.testing.assert_array_equal(views[0], observe(s, 0))
    np.testing.assert_array_equal(views[1], observe(s, 1))
    assert not np.array_equal(views[0], views[1])
    # a position and its mirror: team t here sees what team 1 - t sees there
    m = mirror_state(s)
    mirrored = SelfPlayBatch(12)
    mirrored.set_state(m)
    for t in (0, 1):
        np.testing.assert_array_equal(b.observe(t), mirrored.observe(1 - t))
        np.testing.assert_array_equal(b.action_mask(t), mirrored.action_mask(1 - t))
    # per-game teams, and masks only where that team is to act
    teams = np.arange(12) % 2
    np.testing.assert_array_equal(b.observe(teams), observe(s, teams))
    mask0 = b.action_mask(0)
    assert (mask0[s.to_act != 0] == np.eye(1, 291, 0, dtype=np.int8)).all()  # only the placeholder "end turn"
    np.testing.assert_array_equal(mask0[s.to_act == 0], s.legal[s.to_act == 0].astype(np.int8))


def test_the_hidden_ball_is_invisible_to_both_teams():
    position = hidden_ball_scramble

    both = g.State.concatenate([position("14,8"), position("16,12")])
    assert both.ball_hidden.all() and both.ball_square[0] != both.ball_square[1]
    for kind in ("features", "planes"):
        b = SelfPlayBatch(2, observation=kind)
        t = b.set_state(both)
        views = [t.observation] + [b.observe(team) for team in (0, 1)]
        for view in views:
            for arr in (view.values() if kind == "planes" else [view]):
                np.testing.assert_array_equal(arr[0], arr[1])
        np.testing.assert_array_equal(t.action_mask[0], t.action_mask[1])


def test_init_games_matches_the_engines_numbering():
    config = g.GameConfig(target_score=7)
    seeds = np.arange(40, 46, dtype=np.uint64)
    assert init_games(seeds, config).equals(g.init(6, seed=40, config=config))
    scattered = np.array([7, 1000, 3], dtype=np.uint64)
    got = init_games(scattered, config)
    for j, seed in enumerate(scattered.tolist()):
        assert got.take(j).equals(g.init(1, seed=seed, config=config))


def test_game_i_seeded_s_equals_a_lone_aec_env_and_a_batch_of_one_seeded_s_plus_i():
    n, seed, steps = 3, 100, 120
    options = dict(target_score=1, max_steps=100, score_reward_scale=0.5)
    batch = SelfPlayBatch(n, **options)
    ones = [SelfPlayBatch(1, **options) for _ in range(n)]
    aecs = [raw_env(**options) for _ in range(n)]
    t = batch.reset(seed=seed)
    singles = [one.reset(seed=seed + i) for i, one in enumerate(ones)]
    for i, e in enumerate(aecs):
        e.reset(seed=seed + i)
    rng = np.random.default_rng(0)
    for _ in range(steps):
        for i in range(n):
            np.testing.assert_array_equal(t.observation[i], singles[i].observation[0])
            np.testing.assert_array_equal(t.action_mask[i], singles[i].action_mask[0])
            assert t.to_act[i] == singles[i].to_act[0]
            if t.to_act[i] >= 0:
                obs = aecs[i].observe(aecs[i].agent_selection)
                assert aecs[i].agent_selection == AGENTS[t.to_act[i]]
                np.testing.assert_array_equal(t.observation[i], obs["observation"])
                np.testing.assert_array_equal(t.action_mask[i], obs["action_mask"])
        actions = random_actions(t.action_mask, rng)
        t = batch.step(actions)
        for i in range(n):
            singles[i] = ones[i].step(actions[i:i + 1])
            np.testing.assert_array_equal(t.rewards[i], singles[i].rewards[0])
            assert t.terminated[i] == singles[i].terminated[0] and t.truncated[i] == singles[i].truncated[0]
            e = aecs[i]
            if e.agents and not (e.terminations[e.agent_selection] or e.truncations[e.agent_selection]):
                e.step(int(actions[i]))
                np.testing.assert_allclose([e.rewards[a] for a in AGENTS], t.rewards[i])
            assert batch.state.take(i).equals(e.game_state)
    assert (t.to_act == -1).all()  # every game ended within max_steps


def test_an_illegal_action_forfeits_only_its_game():
    b = SelfPlayBatch(3)
    t = b.reset(seed=0)
    assert (t.to_act == 0).all()  # team one picks its special first
    actions = np.array([action_id("special ball_hawk"), action_id("formation i_form"), 5000])
    t = b.step(actions)
    np.testing.assert_array_equal(t.info["illegal"], [False, True, True])
    np.testing.assert_array_equal(t.terminated, [False, True, True])
    np.testing.assert_array_equal(t.to_act, [1, -1, -1])
    np.testing.assert_array_equal(t.rewards, [[0, 0], [-1, 1], [-1, 1]])
    np.testing.assert_array_equal(t.info["winner"], [-1, 1, 1])
    assert set(t.info["illegal_action"]) == {1, 2}
    detail = t.info["illegal_action"][1]
    assert detail["team"] == "team_one" and detail["action"] == action_id("formation i_form")
    assert detail["name"] == "formation i_form" and "is not legal now" in detail["reason"]
    assert "outside the action space" in t.info["illegal_action"][2]["reason"]
    assert (t.action_mask[1:] == np.eye(1, 291, 0, dtype=np.int8)).all()  # finished: only "end turn"
    # finished games ignore their actions afterwards (anything goes) and report nothing new
    t = b.step(np.array([action_id("special sure_hands"), -7, 123]))
    assert not t.info["illegal"].any() and not t.terminated.any() and not t.rewards.any()
    np.testing.assert_array_equal(t.to_act[1:], [-1, -1])


def test_illegal_action_raise_option():
    b = SelfPlayBatch(2, illegal_action="raise")
    b.reset(seed=0)
    before = b.state.copy()
    with pytest.raises(IllegalActionError):
        b.step(np.array([action_id("special ball_hawk"), action_id("formation i_form")]))
    assert b.state.equals(before)
    t = b.step(np.array([action_id("special ball_hawk"), action_id("special speedy_qb")]))
    assert (t.to_act == 1).all()


def test_games_end_with_rewards_summing_to_zero_and_the_right_winner():
    n = 16
    b = SelfPlayBatch(n, target_score=1, max_steps=250)
    t = b.reset(seed=50)
    rng = np.random.default_rng(3)
    totals = np.zeros((n, 2))
    ends = np.zeros(n, dtype=int)
    while (t.to_act >= 0).any():
        t = b.step(random_actions(t.action_mask, rng))
        totals += t.rewards
        ends += t.terminated | t.truncated
    s = b.state
    assert (ends == 1).all()  # each game reported its end exactly once
    assert s.terminated.any() and s.truncated.any()  # both kinds of ending occur in this batch
    np.testing.assert_array_equal(totals.sum(axis=1), 0)
    for i in range(n):
        if s.truncated[i]:
            assert s.winner[i] == -1 and (totals[i] == 0).all()
        else:
            w = s.winner[i]
            assert s.score[i, w] > s.score[i, 1 - w]
            assert totals[i, w] == 1 and totals[i, 1 - w] == -1


def test_score_shaping():
    b = SelfPlayBatch(8, target_score=3, max_steps=400, score_reward_scale=0.5)
    t = b.reset(seed=9)
    rng = np.random.default_rng(9)
    totals = np.zeros((8, 2))
    while (t.to_act >= 0).any():
        t = b.step(random_actions(t.action_mask, rng))
        totals += t.rewards
    s = b.state
    diff = (s.score[:, 0] - s.score[:, 1]).astype(float)
    result = np.where(s.winner == 0, 1.0, np.where(s.winner == 1, -1.0, 0.0))
    assert diff.any()
    np.testing.assert_allclose(totals[:, 0], result + 0.5 * diff)
    np.testing.assert_allclose(totals[:, 1], -totals[:, 0])


def test_autoreset_replaces_finished_games_with_the_documented_seeds():
    n, seed = 4, 70
    b = SelfPlayBatch(n, autoreset=True, target_score=1, max_steps=60)
    t = b.reset(seed=seed)
    rng = np.random.default_rng(0)
    episodes = np.zeros(n, dtype=int)
    for _ in range(200):
        t = b.step(random_actions(t.action_mask, rng))
        assert (t.to_act >= 0).all()  # a finished game is replaced in the same step
        done = np.flatnonzero(t.terminated | t.truncated)
        if done.size:
            np.testing.assert_array_equal(t.info["final_games"], done)
            final = t.info["final_state"]
            assert (final.to_act == -1).all()
            np.testing.assert_array_equal(t.info["final_score"][done], final.score)
            episodes[done] += 1
            for j, i in enumerate(done):
                expected = seed + i + n * episodes[i]
                assert t.info["episode_seed"][i] == expected
                assert b.state.take(i).equals(g.init(1, seed=int(expected), config=b.config))
            np.testing.assert_array_equal(t.observation[done], observe(b.state, b.state.to_act, b.config)[done])
            np.testing.assert_array_equal(t.action_mask[done], b.state.legal[done].astype(np.int8))
    assert (episodes >= 2).all()
    # reset() without a seed starts every slot's next episode
    before = b.episode_seeds.copy()
    b.reset()
    np.testing.assert_array_equal(b.episode_seeds, before + n)


@pytest.mark.parametrize("options, word", [
    ({"num_games": 0}, "num_games"),
    ({"num_games": 2, "observation": "pixels"}, "observation"),
    ({"num_games": 2, "illegal_action": "skip"}, "illegal_action"),
    ({"num_games": 2, "autoreset": 1}, "autoreset"),
    ({"num_games": 2, "score_reward_scale": float("nan")}, "score_reward_scale"),
    ({"num_games": 2, "render_mode": "video"}, "render_mode"),
    ({"num_games": 2, "max_steps": 0}, "max_steps"),
    ({"num_games": 2, "colour": "red"}, "colour"),
])
def test_bad_options_raise_value_error(options, word):
    with pytest.raises(ValueError, match=word):
        SelfPlayBatch(**options)


def test_bad_calls():
    b = SelfPlayBatch(2)
    with pytest.raises(RuntimeError):
        b.step(np.zeros(2, dtype=int))
    b.reset(seed=0)
    with pytest.raises(ValueError, match="actions"):
        b.step(np.zeros(3, dtype=int))
    with pytest.raises(ValueError, match="actions"):
        b.step(np.zeros(2))
    with pytest.raises(ValueError, match="team"):
        b.observe(2)


def test_render_one_game():
    b = SelfPlayBatch(2, render_mode="ansi")
    b.reset(seed=0)
    assert "score" in b.render(1)
    b = SelfPlayBatch(2, render_mode="rgb_array")
    b.reset(seed=0)
    frame = b.render(0)
    assert frame.dtype == np.uint8 and frame.shape[2] == 3
