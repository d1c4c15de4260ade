"""League self-play pieces: PFSP chances, the league's record and Elo, the drive envs' opponent seat, the
rule variants and the concatenated VecEnv."""

import numpy as np
import pytest

from agents.heuristic import HeuristicAgent
from agents.random_agent import RandomAgent
from gridiron_env.config import GameConfig
from train.league import FIXED, SNAPSHOT, League, LeagueOpponent, game_variants, round_variants
from train.tournament import run_tournament


class _Tagged:
    """An agent that always plays the legal action of lowest id and remembers the seeds it was reset with."""

    def __init__(self, name):
        self.name = name
        self.seen = []

    def reset(self, seeds):
        self.seen.append(np.asarray(seeds).copy())

    def act(self, state, config=None, games=None):
        return np.argmax(state.legal, axis=1).astype(np.int64)


def test_pfsp_draws_the_opponents_the_learner_loses_to_more_often():
    league = League({"heuristic": _Tagged("h"), "power": _Tagged("p")}, pool_size=3, snapshot_share=0.6)
    assert np.allclose(league.probabilities(), [0.5, 0.5])  # nothing known yet: uniform, all fixed
    league.members[0].win_rate, league.members[1].win_rate = 0.9, 0.2
    p = league.probabilities()
    assert p[1] > 4 * p[0]  # (1 - 0.2)^2 + floor against (1 - 0.9)^2 + floor
    assert p[0] > 0  # a beaten opponent still comes up now and then
    league.add_snapshot("round-0", _Tagged("s0"))
    p = league.probabilities()
    snap = np.array([m.kind == SNAPSHOT for m in league.members])
    assert np.isclose(p[snap].sum(), 0.6) and np.isclose(p.sum(), 1.0)


def test_a_full_pool_drops_the_snapshot_the_learner_beats_most():
    league = League({"heuristic": _Tagged("h")}, pool_size=2)
    for k, rate in enumerate((0.5, 0.95, 0.3)):
        league.add_snapshot(f"s{k}", _Tagged(f"s{k}"), win_rate=rate)
    assert [m.name for m in league.snapshots()] == ["s0", "s2"]
    assert [m.kind for m in league.members].count(FIXED) == 1


def test_record_smooths_win_rates_and_rates_the_learner_against_the_anchor():
    heuristic, random = HeuristicAgent(), RandomAgent()
    league = League({"heuristic": heuristic, "random": random}, smoothing=0.5)
    learner = HeuristicAgent()
    result = run_tournament({"learner": learner, "heuristic": heuristic, "random": random}, 8, seed=3,
                            config=GameConfig(target_score=7), pairs=[(0, 1), (0, 2)])
    assert result.n_games == 16  # only the learner's pairs played
    rates = league.record("learner-0", result)
    assert rates["random"] == 1.0  # the heuristic never loses to random play
    assert league.members[1].win_rate == 1.0 and league.members[1].games == 8
    elo = league.elo()
    assert elo["heuristic"] == pytest.approx(1000.0)
    assert elo["learner-0"] > elo["random"]
    rates2 = league.record("learner-1", result)
    assert league.members[0].win_rate == pytest.approx(rates["heuristic"])  # same match again: same rate
    assert set(league.elo()) == {"learner-0", "learner-1", "heuristic", "random"} and rates2 == rates


def test_league_opponent_draws_from_the_episode_seed_whatever_the_batch():
    members = {f"m{k}": _Tagged(f"m{k}") for k in range(3)}
    league = League(members)
    league.members[2].win_rate = 0.0  # the learner never beats m2: it is drawn most
    seeds = np.arange(1000, 1600, dtype=np.uint64)
    whole = LeagueOpponent(league)
    whole.reset_games(np.arange(600), seeds)
    parts = LeagueOpponent(league)
    parts.reset_games(np.arange(300), seeds[:300])
    parts.reset_games(np.arange(300, 600), seeds[300:])
    assert np.array_equal(whole.choice, parts.choice)
    share = np.bincount(whole.choice, minlength=3) / 600
    assert np.allclose(share, league.probabilities(), atol=0.06)  # 600 draws: about 4.5 standard errors


def test_league_opponent_keeps_a_departed_member_for_games_in_progress():
    league = League({"h": _Tagged("h")}, pool_size=1)
    league.add_snapshot("s0", _Tagged("s0"), win_rate=0.0)
    seat = LeagueOpponent(league)
    seat.reset_games(np.arange(200), np.arange(200, dtype=np.uint64))
    s0 = league.members[1].agent
    playing_s0 = seat.choice == 1
    assert playing_s0.any()
    league.add_snapshot("s1", _Tagged("s1"), win_rate=0.5)  # the pool holds one: s0 leaves
    assert s0 not in [m.agent for m in league.members]
    seat.refresh()
    assert all(seat.members[c] is s0 for c in seat.choice[playing_s0])
    seat.reset_games(np.arange(200), np.arange(200, dtype=np.uint64))
    assert not any(seat.members[c] is s0 for c in seat.choice)  # never drawn again


def test_game_variants_cover_both_kick_modes_specials_and_targets():
    variants = game_variants("all")
    assert variants[0] == GameConfig()
    assert len(variants) == len(set(variants)) == 16
    assert {v.kick_mode for v in variants} == {"dice", "paper"}
    assert {v.specials for v in variants} == {True, False}
    assert {v.target_score for v in variants} == {14, 21, 28, 35}
    seen = set()
    for r in range(8):
        chosen = round_variants(variants, r, 3)
        assert chosen[0] == GameConfig() and len(chosen) == 3
        seen.update(chosen)
    assert seen == set(variants)
    assert game_variants("default", {"target_score": 14}) == [GameConfig(target_score=14)]
    with pytest.raises(ValueError, match="variants"):
        game_variants("some")


def test_concat_vec_env_trains_maskable_ppo_over_two_configs():
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor

    from gridiron_env.envs.sb3 import SB3VecEnv
    from gridiron_env.envs.vector import GridironOffenceVectorEnv
    from train.mixed_env import ConcatVecEnv

    parts = [SB3VecEnv(GridironOffenceVectorEnv(4, config=GameConfig(kick_mode=mode))) for mode in ("dice", "paper")]
    venv = ConcatVecEnv(parts)
    assert venv.num_envs == 8
    venv.seed(5)
    obs = venv.reset()
    assert obs.shape[0] == 8
    masks = venv.action_masks()
    assert masks.shape == (8, venv.action_space.n) and masks.any(axis=1).all()
    assert np.array_equal(np.stack(venv.env_method("action_masks")), masks)
    assert np.array_equal(venv.env_method("action_masks", indices=[5])[0], masks[5])
    model = MaskablePPO("MlpPolicy", VecMonitor(venv), n_steps=8, batch_size=32, n_epochs=1, seed=0, device="cpu")
    model.learn(64)
    assert model.num_timesteps >= 64


def test_league_settings_are_checked():
    for kwargs, name in (({"pool_size": -1}, "pool_size"), ({"snapshot_share": 1.5}, "snapshot_share"),
                         ({"pfsp_power": True}, "pfsp_power"), ({"pfsp_floor": 0.0}, "pfsp_floor"),
                         ({"smoothing": float("nan")}, "smoothing")):
        with pytest.raises(ValueError, match=name):
            League({"h": _Tagged("h")}, **kwargs)
    with pytest.raises(ValueError, match="fixed member"):
        League({})


def _drive_points(model, side, opponent, episodes=256, seed=4242):
    """Mean drive reward of ``model`` on ``side``'s drive env against the agent ``opponent`` (seated as the
    league seats its members) over fixed-seed drives."""
    from gridiron_env.envs.vector import GridironDefenceVectorEnv, GridironOffenceVectorEnv

    cls = GridironOffenceVectorEnv if side == "offence" else GridironDefenceVectorEnv
    seat = LeagueOpponent(League({"opponent": opponent}, pool_size=0))
    env = cls(episodes, opponent=seat, start="random", config={"specials": False})
    obs, info = env.reset(seed=seed)
    total, done = np.zeros(episodes), np.zeros(episodes, dtype=bool)
    for _ in range(600):
        actions, _ = model.predict(obs, action_masks=info["action_mask"].astype(bool), deterministic=False)
        obs, reward, terminated, truncated, info = env.step(actions)
        total += reward * ~done
        done |= terminated | truncated
        if done.all():
            break
    return float(total[done].mean())


@pytest.mark.slow
def test_a_short_league_run_improves_against_a_panel_agent_it_loses_to():
    """From scratch, four league rounds (the blitz as the one fixed member, snapshots joining) raise the
    learner pair's mean drive reward against the blitz, offence plus defence, by more than 0.5 points over
    256 fixed-seed drives each (measured: see the assertion message)."""
    import torch

    from agents.panel import BlitzAgent
    from train.learners import SIDES, learn_round, make_model, round_env
    from train.league import League, LeagueOpponent
    from train.selfplay import TrainConfig, league_round

    torch.set_num_threads(1)
    cfg = TrainConfig(num_envs=64, n_steps=32, batch_size=512, n_epochs=4, learning_rate=1e-3, net_arch=(64, 64),
                      round_steps=12_288, defence_share=1.0, imitation_games=0, league_games=2, pool_size=2,
                      eval_games=0, level_games=0, ent_coef=0.0, progress_bar=False)
    config = GameConfig(specials=False)
    league = League({"blitz": BlitzAgent()}, pool_size=cfg.pool_size)
    seats = {side: (lambda: LeagueOpponent(league)) for side in SIDES}
    models = {}
    for side in SIDES:
        env = round_env(side, seats, cfg, [config], 0)
        models[side] = make_model(env, cfg, None)
        env.close()
    before = {side: _drive_points(models[side], side, BlitzAgent()) for side in SIDES}
    for index in range(4):
        learn_round(models, seats, cfg, [config], index)
        league_round(league, models, index, cfg, config)
    after = {side: _drive_points(models[side], side, BlitzAgent()) for side in SIDES}
    gain = sum(after.values()) - sum(before.values())
    assert gain > 0.5, (before, after)
    assert len(league.snapshots()) == 2
