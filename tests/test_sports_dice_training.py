"""Sports Dice's training (train.games, --game sports_dice): the warm start by imitation of the solver (its
states, its labels, what it teaches), its settings, and a short run measured exactly against the optimal
agent."""

from __future__ import annotations

import numpy as np
import pytest

from gridiron_env import sports_dice as sd
from gridiron_env.protocol import get_game
from gridiron_env.sports_dice import SportsDiceConfig
from train import games as G
from train.games import GameTrainConfig

GAME = get_game("sports_dice")
SMALL = SportsDiceConfig(target_score=7)  # its solve and exact evaluation take about a second


@pytest.fixture(scope="module")
def solver():
    return G.GameSolver.of(GAME, SMALL)


def test_teacher_states_hold_the_solvers_labels(solver):
    data = G.teacher_states(GAME, SMALL, solver, decisions=1500, explore=0.2, seed=3, batch=128)
    obs, mask, regret, value, choice = (data[k] for k in ("obs", "mask", "regret", "value", "choice"))
    n = obs.shape[0]
    assert obs.shape == (n, GAME.observation_size) and mask.shape == regret.shape == (n, GAME.num_actions)
    assert choice.sum() >= 1500 and n > choice.sum()  # a share of the states without a choice, for the critic
    assert (mask.sum(axis=1)[choice] > 1).all() and (mask.sum(axis=1)[~choice] == 1).all()
    assert (regret >= 0).all() and (regret[~mask] == 0).all()
    # the best legal action gives up nothing; in the chip calls something is at stake in most states
    assert np.allclose(np.where(mask, regret, np.inf).min(axis=1), 0.0)
    chip = obs[:, sd.OBS_LAYOUT["phase"][0]][:, list(sd.PHASE_NAMES).index("chip")] == 1
    assert chip.sum() > 50 and (regret[chip].max(axis=1) > 1e-4).mean() > 0.5
    assert np.isfinite(value).all() and ((value >= 0) & (value <= 1)).all()
    again = G.teacher_states(GAME, SMALL, solver, decisions=1500, explore=0.2, seed=3, batch=128)
    assert all(np.array_equal(data[k], again[k]) for k in data)
    other = G.teacher_states(GAME, SMALL, solver, decisions=1500, explore=0.2, seed=4, batch=128)
    assert other["obs"].shape != obs.shape or not np.array_equal(other["obs"], obs)


def test_teacher_regret_is_the_solutions_action_values_and_falls_back_to_its_policy(solver):
    state = sd.init(64, seed=11, config=SMALL)
    rng = np.random.default_rng(0)
    seen = np.zeros(0)
    for _ in range(12):  # a few random decisions in, so that chip calls and play choices come up
        mask = state.legal
        actions = np.array([rng.choice(np.flatnonzero(r)) if r.any() else sd.IGNORED_ACTION for r in mask])
        state = sd.step(state, actions, SMALL)
        seen = np.concatenate([seen, state.phase[state.legal.sum(axis=1) > 1]])
    mask, best = state.legal, solver.optimal_policy(state)
    regret = G._teacher_regret(solver.solution, state, mask, best)
    q = solver.solution.action_values(state)
    live = mask.any(axis=1)
    for g in np.flatnonzero(live):
        legal = np.flatnonzero(mask[g])
        assert np.allclose(regret[g, legal], q[g, legal].max() - q[g, legal])
        assert regret[g, best[g]] == pytest.approx(0.0, abs=1e-12)
    assert (regret[~mask] == 0).all()

    class PolicyOnly:  # a solution offering only its policy: every other legal action counts a regret of 1
        pass

    fallback = G._teacher_regret(PolicyOnly(), state, mask, best)
    assert (fallback[live, best[live]] == 0).all()
    assert (fallback.sum(axis=1)[live] == mask.sum(axis=1)[live] - 1).all() and (fallback[~mask] == 0).all()


def _model(cfg):
    from stable_baselines3.common.vec_env import VecMonitor

    from gridiron_env.adapters.sb3 import SB3VecEnv
    from gridiron_env.adapters.vector import GameVectorEnv

    venv = GameVectorEnv(cfg.num_envs, game=GAME, variant="basic", learner_team="random", config=SMALL)
    return G._make_model(VecMonitor(SB3VecEnv(venv)), cfg, None)


def test_the_warm_start_teaches_the_solvers_calls(solver):
    """A few thousand labelled decisions: the greedy actor's regret falls well below the untrained net's, the
    critic learns the solver's values, and the exact win probability against the optimal agent rises far
    above the untrained net's."""
    import torch

    torch.manual_seed(0)
    cfg = GameTrainConfig.for_game("sports_dice", game_config={"target_score": 7}, num_envs=8, n_steps=64,
                                   batch_size=256, net_width=32, teacher_decisions=3000, teacher_epochs=5, seed=5)
    model = _model(cfg)
    before = G.evaluate_policy(G.snapshot(model.policy, GAME), GAME, SMALL, solver, measure_optimal=False)
    report = G.warm_start(model, GAME, SMALL, solver, cfg)
    after = G.evaluate_policy(G.snapshot(model.policy, GAME), GAME, SMALL, solver, measure_optimal=False)
    assert report["decisions"] >= 3000 and report["states"] > report["decisions"]
    assert report["value_error"] < 0.15
    data = G.teacher_states(GAME, SMALL, solver, 3000, cfg.teacher_explore, cfg.seed)
    untrained = G.snapshot(_model(cfg).policy, GAME)
    choice = data["choice"]
    picked = untrained.act(data["obs"][choice], data["mask"][choice])
    untrained_regret = data["regret"][choice][np.arange(choice.sum()), picked].mean()
    assert report["regret_per_decision"] < 0.5 * untrained_regret, (report, untrained_regret)
    assert after["method"] == "exact" and after["overall"] > before["overall"] + 0.1, (before, after)


def test_the_teacher_settings_are_checked_and_on_for_the_solved_games_that_need_it():
    for field, value in (("teacher_decisions", -1), ("teacher_decisions", 2.5), ("teacher_epochs", 0),
                         ("teacher_explore", 1.5), ("teacher_learning_rate", 0.0)):
        with pytest.raises(ValueError, match=f"GameTrainConfig.{field}"):
            GameTrainConfig(**{field: value})
    assert GameTrainConfig.for_game("sports_dice").teacher_decisions > 0
    assert GameTrainConfig.for_game("table_football").teacher_decisions == 0  # self-play alone meets its target
    assert GameTrainConfig.for_game("table_football", variant="clock").teacher_decisions > 0
    assert GameTrainConfig.for_game("touchdown").teacher_decisions == 0  # no solver
    assert GameTrainConfig.for_game("sports_dice", teacher_decisions=0).teacher_decisions == 0


def test_the_command_passes_the_teacher_setting(monkeypatch, tmp_path):
    seen = []
    monkeypatch.setattr(G, "train", lambda cfg, log=print: seen.append(cfg))
    G.main(["--game", "sports_dice", "--teacher-decisions", "0", "--out", str(tmp_path / "a")])
    G.main(["--game", "sports_dice", "--out", str(tmp_path / "b")])
    assert seen[0].teacher_decisions == 0
    assert seen[1].teacher_decisions == GameTrainConfig.for_game("sports_dice").teacher_decisions
    with pytest.raises(SystemExit):
        G.main(["--game", "sports_dice", "--teacher-decisions", "-3"])


@pytest.mark.slow
def test_a_warm_started_run_records_its_warm_start_and_stays_near_optimal(tmp_path):
    """Sports Dice to 7 points with the warm start: round 0 of the history is the warm-started policy,
    measured exactly; self-play after it keeps the policy near the optimal one (gap under 0.05)."""
    cfg = GameTrainConfig.for_game("sports_dice", game_config={"target_score": 7}, minutes=10.0, max_steps=8_192,
                                   num_envs=64, n_steps=32, batch_size=1024, round_steps=8_192, net_width=64,
                                   teacher_decisions=60_000, out=str(tmp_path / "sd"), progress=False, onnx=False,
                                   seed=1)
    summary = G.train(cfg, log=lambda *a: None)
    first = summary["history"][0]
    assert first["round"] == 0 and first["warm_start"] and first["method"] == "exact"
    assert summary["warm_start"]["evaluation"]["overall"] == first["overall"]
    assert summary["evaluation"]["overall"] > 0.45, summary["evaluation"]
    text = (tmp_path / "sd" / "evaluation.md").read_text()
    assert "Warm start by imitation" in text and "0 (warm start)" in text
    # a resumed run does not warm-start again
    again = G.train(cfg.__class__(**{**cfg.__dict__, "max_steps": 1}), log=lambda *a: None)
    assert again["warm_start"] is None and again["history"][0]["round"] >= 1
