"""GameSelfPlayBatch over every registered game and variant: lone-game equality at any batch size, rewards,
illegal actions, autoreset and seeds."""

import numpy as np
import pytest

from conftest import game_cases
from gridiron_env.adapters.common import episode_seeds
from gridiron_env.adapters.selfplay import SELFPLAY_SALT, GameSelfPlayBatch
from gridiron_env.protocol import game_names, get_game

CASES = [(name, variant) for name in game_names() for variant in get_game(name).variants]
IDS = [f"{n}-{v}" for n, v in CASES]
# games of hundreds of decisions (Gridiron): smaller batches in the default suite, to keep it lean
LONG_GAMES = ("gridiron",)


def _choose(rngs, mask, illegal_rate=0.0, num_actions=None):
    """One action per slot from that slot's own generator: a uniform legal id, now and then an illegal one."""
    out = np.empty(len(rngs), dtype=np.int64)
    for i, (rng, row) in enumerate(zip(rngs, mask)):
        u, v = rng.random(), rng.random()
        legal = np.flatnonzero(row)
        out[i] = legal[min(int(v * legal.size), legal.size - 1)]
        if u < illegal_rate and (row == 0).any():
            out[i] = np.flatnonzero(row == 0)[0]
    return out


def _trajectory(batch, seed, steps, illegal_rate):
    """Per slot, every report field of ``steps`` steps driven by per-slot generators seeded seed + i."""
    n = batch.num_games
    rngs = [np.random.default_rng(seed + i) for i in range(n)]
    turn = batch.reset(seed=seed)
    out = []
    for _ in range(steps):
        acts = _choose(rngs, turn.action_mask, illegal_rate)
        turn = batch.step(acts)
        out.append((turn.to_act.copy(), turn.observation.copy(), turn.action_mask.copy(), turn.rewards.copy(),
                    turn.terminated.copy(), turn.truncated.copy(), turn.info["winner"].copy(),
                    turn.info["illegal"].copy(), turn.info["episode_seed"].copy(), turn.info["final_score"].copy()))
    return out


@pytest.mark.parametrize("name,variant", CASES, ids=IDS)
@pytest.mark.parametrize("autoreset", [True, False])
def test_batch_equals_lone_games_at_any_batch_size(name, variant, autoreset):
    seed, steps = 1234, 120
    lone = [_trajectory(GameSelfPlayBatch(1, game=name, variant=variant, autoreset=autoreset), seed + i, steps, 0.03)
            for i in range(5)]
    for n in (2, 5):
        batch = _trajectory(GameSelfPlayBatch(n, game=name, variant=variant, autoreset=autoreset), seed, steps, 0.03)
        for t in range(steps):
            for i in range(n):
                for got, want in zip(batch[t], lone[i][t]):
                    np.testing.assert_array_equal(got[i], want[0])
    # the run really exercised ends (and forfeits)
    ends = sum(int(step[4].sum() + step[5].sum()) for traj in lone for step in traj)
    forfeits = sum(int(step[7].sum()) for traj in lone for step in traj)
    assert ends >= 3 and forfeits >= 1


@pytest.mark.parametrize("name,variant", CASES, ids=IDS)
def test_slot_plays_the_engine_game_of_its_seed(name, variant):
    game = get_game(name)
    batch = GameSelfPlayBatch(3, game=name, variant=variant)
    config = batch.config
    turn = batch.reset(seed=77)
    lones = [game.init(1, 0, config, seeds=np.array([77 + i], dtype=np.uint64)) for i in range(3)]
    rng = np.random.default_rng(0)
    for _ in range(60):
        acts = np.array([rng.choice(np.flatnonzero(r)) for r in turn.action_mask])
        for i in range(3):
            assert game.to_diagram(batch.state, i) == game.to_diagram(lones[i], 0)
            viewer = max(int(game.to_act(lones[i])[0]), 0)
            np.testing.assert_array_equal(turn.observation[i], game.observe(lones[i], viewer, config)[0])
            if int(game.to_act(lones[i])[0]) >= 0:
                lones[i] = game.step(lones[i], acts[i:i + 1], config)
        turn = batch.step(acts)


@pytest.mark.parametrize("name,variant,config", game_cases())
def test_rewards_results_and_masks(name, variant, config):
    """Random games under ``config`` (overrides of the variant's) to their ends, a budget's leftovers forfeited:
    masks, zero-sum rewards, one end a game, winners and final scores as the engine says."""
    game = get_game(name)
    n, budget = (4, 150) if name in LONG_GAMES else (16, 20000)
    batch = GameSelfPlayBatch(n, game=name, variant=variant, config=config, autoreset=False)
    turn = batch.reset(seed=5)
    rng = np.random.default_rng(1)
    ended = np.zeros(n, bool)
    for t in range(budget + 1):
        assert turn.action_mask.dtype == np.int8 and (turn.action_mask.sum(axis=1) >= 1).all()
        over = turn.to_act < 0
        idle = np.zeros(game.num_actions, np.int8)
        idle[game.ignored_action] = 1
        assert (turn.action_mask[over] == idle).all()
        if over.all():
            break
        acts = np.array([rng.choice(np.flatnonzero(r)) for r in turn.action_mask])
        if t == budget:  # out of budget: every live game is forfeited by an illegal action of the team to act
            acts = np.array([np.flatnonzero(r == 0)[0] for r in turn.action_mask])
            offender = turn.to_act.astype(np.int64)
        turn = batch.step(acts)
        if t == budget:
            live = offender >= 0
            assert (turn.info["illegal"] == live).all() and (turn.terminated == live).all()
            assert (turn.info["winner"][live] == 1 - offender[live]).all()
        np.testing.assert_array_equal(turn.rewards.sum(axis=1), 0)
        done = turn.terminated | turn.truncated
        assert not (done & ended).any(), "a game ends only once"
        ended |= done
        for g in np.flatnonzero(done):
            w = int(turn.info["winner"][g])
            if w in (0, 1):
                assert turn.terminated[g] and turn.rewards[g, w] == 1 and turn.rewards[g, 1 - w] == -1
            else:
                assert (turn.rewards[g] == 0).all()
            np.testing.assert_array_equal(turn.info["final_score"][g], game.score(batch.state)[g])
        assert (turn.rewards[~done] == 0).all()
        assert set(turn.info.get("final_games", [])) == set(np.flatnonzero(done).tolist())
    assert ended.all() and (batch.to_act() < 0).all()
    frozen = game.to_diagram(batch.state, 0)
    turn = batch.step(np.zeros(n, dtype=np.int64))  # finished games ignore their actions
    assert game.to_diagram(batch.state, 0) == frozen and not (turn.terminated | turn.truncated).any()


@pytest.mark.parametrize("name,variant", CASES[:2], ids=IDS[:2])
def test_illegal_action_forfeits_or_raises_changing_nothing(name, variant):
    game = get_game(name)
    batch = GameSelfPlayBatch(3, game=name, variant=variant)
    turn = batch.reset(seed=9)
    legal = [int(np.flatnonzero(r)[0]) for r in turn.action_mask]
    bad_id = int(np.flatnonzero(turn.action_mask[1] == 0)[0])
    offender = int(turn.to_act[1])
    turn = batch.step([legal[0], bad_id, legal[2]])
    assert turn.info["illegal"].tolist() == [False, True, False]
    assert turn.terminated[1] and turn.rewards[1, offender] == -1 and turn.rewards[1, 1 - offender] == 1
    assert turn.info["winner"][1] == 1 - offender and turn.to_act[1] == -1
    entry = turn.info["illegal_action"][1]
    assert entry["action"] == bad_id and entry["name"] == game.action_names[bad_id]
    assert "forfeits" in batch.render(1)
    # a bool and an out-of-space id are illegal too
    batch.reset(seed=9)
    turn = batch.step([True, game.num_actions, legal[2]])
    assert turn.info["illegal"].tolist() == [True, True, False]
    # raise mode: the game's error, nothing changed
    strict = GameSelfPlayBatch(3, game=name, variant=variant, illegal_action="raise")
    strict.reset(seed=9)
    before = [game.to_diagram(strict.state, i) for i in range(3)]
    with pytest.raises(game.illegal_error) as err:
        strict.step([legal[0], bad_id, legal[2]])
    assert err.value.game == 1 and game.action_names[bad_id] in str(err.value)
    assert [game.to_diagram(strict.state, i) for i in range(3)] == before
    for bad in ([0, 1], [0.5, 1, 1], ["run", 1, 1], None, [[0, 1, 2]]):
        with pytest.raises(ValueError):
            strict.step(bad)
    assert [game.to_diagram(strict.state, i) for i in range(3)] == before


def test_seeds_episodes_and_wrap():
    batch = GameSelfPlayBatch(3, autoreset=True)
    turn = batch.reset(seed=2**64 - 2)
    np.testing.assert_array_equal(turn.info["episode_seed"], np.array([2**64 - 2, 2**64 - 1, 0], dtype=np.uint64))
    again = batch.reset()
    want = episode_seeds(np.array([2**64 - 2, 2**64 - 1, 0], dtype=np.uint64), np.ones(3, np.uint64), SELFPLAY_SALT)
    np.testing.assert_array_equal(again.info["episode_seed"], want)
    game = batch.game
    fresh = game.init(3, 0, batch.config, seeds=want)
    assert [game.to_diagram(batch.state, i) for i in range(3)] == [game.to_diagram(fresh, i) for i in range(3)]
    for bad in (-1, 1.5, True, "3"):
        with pytest.raises(ValueError):
            batch.reset(seed=bad)
    for bad in dict(num_games=0), dict(num_games=True), dict(num_games=2, variant="nope"), \
            dict(num_games=2, illegal_action="ignore"), dict(num_games=2, autoreset=1), \
            dict(num_games=2, score_reward_scale=-1), dict(num_games=2, config={"no_such_field": 1}):
        with pytest.raises(ValueError):
            GameSelfPlayBatch(**bad)
    with pytest.raises(RuntimeError):
        GameSelfPlayBatch(2).step([0, 0])


def test_autoreset_replaces_finished_games_with_the_next_episode():
    batch = GameSelfPlayBatch(4, autoreset=True)
    game = batch.game
    turn = batch.reset(seed=40)
    rng = np.random.default_rng(3)
    episode = np.zeros(4, dtype=np.uint64)
    base = np.arange(40, 44, dtype=np.uint64)
    seen = 0
    for _ in range(3000):
        turn = batch.step(np.array([rng.choice(np.flatnonzero(r)) for r in turn.action_mask]))
        done = turn.terminated | turn.truncated
        episode[done] += np.uint64(1)
        np.testing.assert_array_equal(turn.info["episode_seed"], episode_seeds(base, episode, SELFPLAY_SALT))
        if done.any():
            finals = turn.info["final_state"]
            assert game.batch_size(finals) == done.sum() and (game.to_act(finals) < 0).all()
        for g in np.flatnonzero(done):
            seen += 1
            fresh = game.init(1, 0, batch.config, seeds=turn.info["episode_seed"][g:g + 1])
            assert game.to_diagram(batch.state, int(g)) == game.to_diagram(fresh, 0)
            assert turn.to_act[g] >= 0
        if seen >= 8:
            break
    assert seen >= 8


def test_views_score_shaping_and_set_state():
    batch = GameSelfPlayBatch(4, score_reward_scale=0.1)
    game = batch.game
    turn = batch.reset(seed=0)
    for team in (0, 1, "team_one", "team_two", np.array([0, 1, 1, 0])):
        want = np.asarray(team) if not isinstance(team, str) else ("team_one", "team_two").index(team)
        np.testing.assert_array_equal(batch.observe(team), game.observe(batch.state, want, batch.config))
    mask_one, mask_two = batch.action_mask(0), batch.action_mask(1)
    acting = game.to_act(batch.state)
    for g in range(4):
        np.testing.assert_array_equal(turn.action_mask[g], (mask_one if acting[g] == 0 else mask_two)[g])
    for bad in (2, -1, "team_three", True, np.array([0, 1])):
        with pytest.raises(ValueError):
            batch.observe(bad)
    rng = np.random.default_rng(0)
    shaped = 0.0
    for _ in range(300):
        old = game.score(batch.state)
        turn = batch.step(np.array([rng.choice(np.flatnonzero(r)) for r in turn.action_mask]))
        new = game.score(batch.state)
        delta = (new[:, 0] - new[:, 1]) - (old[:, 0] - old[:, 1])
        end = np.where(turn.info["winner"] == 0, 1.0, np.where(turn.info["winner"] == 1, -1.0, 0.0))
        np.testing.assert_allclose(turn.rewards[:, 0], end + 0.1 * delta, rtol=1e-6)
        shaped += float(np.abs(delta).sum())
    assert shaped > 0
    other = GameSelfPlayBatch(4)
    other.reset(seed=1)
    turn = other.set_state(batch.state)
    assert [game.to_diagram(other.state, i) for i in range(4)] == [game.to_diagram(batch.state, i) for i in range(4)]
    with pytest.raises(ValueError):
        other.set_state(game.take(batch.state, [0]))
    with pytest.raises(ValueError):
        other.set_state("not a state")
