"""The protocol games' trainer (train.games): its config, the exported numpy policy file, the snapshot
opponents, the exact measurement against the optimal agent, learning, resuming, and the ``--game`` hand-off
of ``python -m train.selfplay``."""

from __future__ import annotations

import io
import json
import zipfile

import numpy as np
import pytest

from gridiron_env.protocol import get_game
from gridiron_env.table_football import TableFootballConfig, exact_win_probability, solve
from train import games as G
from train.games import GameTrainConfig

GAME = get_game("table_football")
SMALL = {"target_score": 7}  # a short game: its solve and exact evaluation take a fraction of a second


def tiny_config(tmp_path, **changes) -> GameTrainConfig:
    values = dict(game_config=SMALL, minutes=10.0, max_steps=1, num_envs=16, n_steps=16, batch_size=128,
                  round_steps=256, eval_every=1, net_width=16, out=str(tmp_path / "run"), progress=False,
                  onnx=False)
    values.update(changes)
    return GameTrainConfig.for_game("table_football", **values)


def random_net(seed=0, width=12):
    from train.game_export import GameBot

    rng = np.random.default_rng(seed)
    sizes = [GAME.observation_size, width, width, GAME.num_actions]
    layers = [(rng.normal(size=(a, b)).astype(np.float32), rng.normal(size=b).astype(np.float32))
              for a, b in zip(sizes[:-1], sizes[1:])]
    return GameBot(layers, "tanh", GAME)


def _run(tmp_path, name="run", **changes):
    cfg = tiny_config(tmp_path, out=str(tmp_path / name), **changes)
    return cfg, G.train(cfg, log=lambda *a: None)


# --- the config -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("field, value", [
    ("game", "no_such_game"), ("game", "gridiron"), ("variant", "turbo"), ("num_envs", 0), ("n_steps", True),
    ("learning_rate", -1.0), ("learning_rate", float("nan")), ("random_share", 1.5), ("gamma", 2.0),
    ("seed", -1), ("seed", 2**32), ("eval_games", 3), ("minutes", "ten"), ("max_steps", -5), ("net_layers", 0),
    ("game_config", {"target_score": 0}), ("game_config", {"no_field": 1}),
    ("game_config", []), ("out", 3), ("progress", 1), ("onnx", "yes"), ("anneal", 1.5), ("scale_floor", 0.0),
    ("scale_observations", None), ("measure_optimal", 0), ("opponent_temperature", -0.5),
])
def test_config_refuses_a_bad_value_naming_the_field(field, value):
    with pytest.raises(ValueError, match=f"GameTrainConfig.{field}"):
        GameTrainConfig(**{field: value})


def test_config_batch_must_fit_the_rollout_and_for_game_refuses_unknown_fields():
    with pytest.raises(ValueError, match="GameTrainConfig.game_config: .*clock"):
        GameTrainConfig(variant="clock", game_config={"clock": False})
    with pytest.raises(ValueError, match="GameTrainConfig.batch_size"):
        GameTrainConfig(num_envs=4, n_steps=8, batch_size=64)
    with pytest.raises(ValueError, match="unknown GameTrainConfig field"):
        GameTrainConfig.for_game("table_football", learning_speed=3)


def test_config_for_game_takes_the_table_then_changes():
    cfg = GameTrainConfig.for_game("table_football", variant="clock", minutes=None, seed=4)
    assert (cfg.game, cfg.variant, cfg.minutes, cfg.seed) == ("table_football", "clock", GameTrainConfig.minutes, 4)
    assert str(cfg.out_dir) == "runs/table_football_clock"
    assert cfg.net_arch == [cfg.net_width] * cfg.net_layers
    # the clock version's exact evaluation takes hours: its runs measure by games unless told otherwise
    assert cfg.exact is False and GameTrainConfig.for_game("table_football").exact is True
    assert GameTrainConfig.for_game("table_football", variant="clock", exact=True).exact is True


# --- opponents and measurement --------------------------------------------------------------------------------

def test_snapshot_opponent_draws_one_member_per_episode_seed():
    config = TableFootballConfig()
    opponent = G.SnapshotOpponent(GAME, config, pool_size=3, random_share=0.25, temperature=1.0, seed=0)
    seeds = np.arange(8000)
    opponent.reset(seeds)
    assert (opponent.choices(seeds.size) == -1).all()  # no snapshot yet: random legal play
    for k in range(5):
        opponent.add(random_net(k))
    assert len(opponent.pool) == 3  # the latest three
    picks = opponent.choices(seeds.size)
    share = np.bincount(picks + 1, minlength=4) / seeds.size
    # 1/4 random, 1/4 each snapshot; tolerance 4.5 standard errors of a share near 1/4 over 8000 draws
    assert np.allclose(share, 0.25, atol=4.5 * np.sqrt(0.25 * 0.75 / seeds.size))
    again = G.SnapshotOpponent(GAME, config, 3, 0.25, 1.0, seed=99)
    again.pool = opponent.pool
    again.reset(seeds[::-1])
    assert np.array_equal(again.choices(seeds.size), picks[::-1])  # a function of each episode's seed alone
    state = GAME.init(seeds.size, 0, config)
    actions = opponent.act(state, config)
    assert GAME.legal_mask(state)[np.arange(seeds.size), actions].all()


def test_snapshots_fold_the_observation_scaling_into_the_first_layer():
    config = TableFootballConfig()
    mean, scale = G.observation_scaling(GAME, config, seed=0, floor=0.05)
    assert mean.shape == scale.shape == (GAME.observation_size,) and (scale >= 0.05).all()
    to_gain = GAME.observation_layout["to_gain"][0]
    assert (scale[to_gain] < 0.2).all()  # a feature on a small range is stretched
    again = G.observation_scaling(GAME, config, seed=0, floor=0.05)
    assert np.array_equal(again[0], mean) and np.array_equal(again[1], scale)  # a resumed run scales alike
    raw = random_net(2)
    folded = G.snapshot({"layers": raw.layers, "activation": "tanh"}, GAME, "basic", scaling=(mean, scale))
    obs = GAME.observe(GAME.init(64, 1, config), 0, config)
    np.testing.assert_allclose(folded.logits(obs), raw.logits((obs - mean) / scale), rtol=1e-4, atol=1e-4)


def test_exact_measurement_matches_the_solver_module():
    config = TableFootballConfig(target_score=7)
    module = __import__("gridiron_env.table_football", fromlist=["solve"])
    solver = G.GameSolver.of(GAME, config)
    net = random_net(3)
    result = G.evaluate_policy(net, GAME, config, solver)
    direct = exact_win_probability(G.greedy_policy_fn(net, GAME, config), config, solution=solve(config))
    assert result["method"] == "exact"
    assert (result["opening"], result["receiving"], result["overall"]) == (direct.opening, direct.receiving,
                                                                           direct.overall)
    assert result["optimal"]["overall"] == pytest.approx(0.5, abs=1e-9)
    assert result["optimal"]["opening"] == pytest.approx(module.solve(config).opener_win_probability, abs=1e-9)
    identity = G.evaluate_policy(net, GAME, config, solver, measure_optimal=False)["optimal"]
    assert identity["identity"] and identity["overall"] == 0.5
    assert identity["opening"] == pytest.approx(result["optimal"]["opening"], abs=1e-9)
    assert G.evaluate_policy(net, GAME, config, None) == {"method": "none"}


def test_sports_dice_exact_measurement_of_a_net_matches_the_state_by_state_evaluation():
    """Sports Dice's exact evaluation asks an observation policy by observations assembled from contexts and
    rolls: the same figures, to the last bit, as asking it state by state; the trainer's GreedyPolicy, by
    its first layer, within rounding. The optimal side's choices read from the solution's tables are
    ``solution.policy`` at every decision state."""
    from gridiron_env import sports_dice as sd
    from gridiron_env.sports_dice import SportsDiceConfig
    from gridiron_env.sports_dice import solve as sd_solve
    from gridiron_env.sports_dice.model import level_pairs
    from train.game_export import GameBot

    game = get_game("sports_dice")
    config = SportsDiceConfig(target_score=2)
    solver = G.GameSolver.of(game, config)
    rng = np.random.default_rng(7)
    sizes = [game.observation_size, 16, game.num_actions]
    net = GameBot([(rng.normal(size=(a, b)).astype(np.float32), rng.normal(size=b).astype(np.float32))
                   for a, b in zip(sizes[:-1], sizes[1:])], "tanh", game)
    policy = G.greedy_policy_fn(net, game, config)
    by_states = sd_solve.exact_win_probability(lambda state: policy(state), config, solver.solution)
    by_observations = sd_solve.exact_win_probability(sd.ObservationAgent(policy.predict_observations), config,
                                                     solver.solution)
    assert by_observations == by_states
    # the trainer's path adds the first layer's products of contexts and rolls: a sum that may round apart
    # from obs @ W + b in the last bit of a float32, so a near-tied greedy choice could flip
    fast = G.evaluate_policy(net, game, config, solver, measure_optimal=False)
    assert fast["method"] == "exact" and policy.first_layer is not None
    assert fast["overall"] == pytest.approx(by_states.overall, abs=1e-6)
    assert fast["opening"] == pytest.approx(by_states.opening, abs=1e-6)
    sol = solver.solution
    for level in (0, 1, 2):
        a, b, _ = level_pairs(level, config.target_score)
        reps = sd_solve.representative_states(config, a, b)
        choices = sd_solve._optimal_choices(sol, a, b, reps.kind, reps.l, reps.f, reps.h, reps.k)
        assert np.array_equal(choices, sol.policy(reps.state)), level


def test_blas_threads_are_capped():
    """Every OpenBLAS loaded (numpy's, scipy's) is capped: the numpy matmuls of snapshots and evaluations
    stay on the torch thread budget."""
    from pathlib import Path

    import scipy.sparse.linalg  # noqa: F401

    maps = Path("/proc/self/maps")
    if not maps.exists() or "openblas" not in maps.read_text().lower():
        pytest.skip("no OpenBLAS loaded in this process (another BLAS, or not Linux)")
    capped = G.limit_blas_threads(1)
    assert capped and all("openblas" in path.lower() for path in capped)


def test_the_monte_carlo_measurement_agrees_with_the_exact_one():
    config = TableFootballConfig(target_score=7)
    solver = G.GameSolver.of(GAME, config)
    optimal = G._FunctionAgent(solver.optimal_policy, "optimal")
    # each deal from both seats: the optimal agent against itself scores exactly 1/2 per pair of games
    points = G.play_against(GAME, config, optimal, optimal, 200, seed=3)
    assert np.array_equal(points[0::2] + points[1::2], np.ones(100))
    net = random_net(5, width=16)
    exact = G.evaluate_policy(net, GAME, config, solver)["overall"]
    games = G.evaluate_policy(net, GAME, config, solver, games=2000, seed=8, exact=False)
    assert games["method"] == "monte-carlo" and games["exact"] == "not asked for"
    # 2000 games: a standard error of at most 0.5 / sqrt(2000) = 0.011; tolerance 4.5 of them
    assert abs(games["overall"] - exact) < 4.5 * 0.5 / np.sqrt(2000)
    assert games["interval"] < 0.05


def test_a_config_the_exact_evaluation_refuses_is_measured_by_games_against_the_optimal_agent():
    """A solver module whose exact_win_probability refuses the config (a ValueError even for the optimal
    policy): the measurement falls back to Monte-Carlo games against the optimal agent."""
    import types

    def refuse(policy, config, solution=None):
        raise ValueError("this config is not covered")

    config = TableFootballConfig(target_score=7)
    module = types.SimpleNamespace(solve=solve, exact_win_probability=refuse)
    solver = G.GameSolver(GAME, config, module)
    result = G.evaluate_policy(random_net(4), GAME, config, solver, games=200, seed=5)
    assert result["method"] == "monte-carlo" and result["games"] == 200 and solver.covered is False
    assert result["exact"] == "not available for this config" and 0.0 <= result["overall"] <= 1.0
    assert result["optimal"]["identity"] and result["optimal"]["overall"] == 0.5


# --- training ----------------------------------------------------------------------------------------------

def test_a_tiny_run_writes_its_outputs_and_resumes(tmp_path):
    cfg, summary = _run(tmp_path)
    out = cfg.out_dir
    for name in ("policy.zip", "policy.npz", "summary.json", "evaluation.md", "train_config.json"):
        assert (out / name).is_file(), name
    written = json.loads((out / "summary.json").read_text())
    assert written["rounds"] == 1 and written["steps"] >= 256 and written["evaluation"]["method"] == "exact"
    assert 0.0 <= written["evaluation"]["overall"] <= 1.0
    assert "| trained |" in (out / "evaluation.md").read_text()
    assert GameTrainConfig(**json.loads((out / "train_config.json").read_text())) == cfg
    resumed = G.train(cfg, log=lambda *a: None)
    assert resumed["total_rounds"] == 2 and resumed["total_steps"] > summary["total_steps"]


def test_the_exported_policy_is_the_measured_one_and_plays_as_a_bot(tmp_path):
    from gridiron_env.adapters.agents import make_agent
    from train.game_export import GameBot

    cfg, summary = _run(tmp_path)
    path = cfg.out_dir / "policy.npz"
    config = TableFootballConfig(**SMALL)
    bot = GameBot.load(path, "table_football")
    assert bot.variant == "basic"
    again = G.evaluate_policy(bot, GAME, config, G.GameSolver.of(GAME, config))
    assert again["overall"] == summary["evaluation"]["overall"]  # the file holds the policy measured last
    # as an agent (the spec bot:PATH) it plays legal actions only: the engine raises on an illegal one
    optimal = G._FunctionAgent(G.GameSolver.of(GAME, config).optimal_policy, "optimal")
    points = G.play_against(GAME, config, make_agent(f"bot:{path}", GAME), optimal, 40, seed=3)
    assert points.shape == (40,) and set(np.unique(points)) <= {0.0, 0.5, 1.0}
    # the greedy agent picks what the measured greedy policy picks, state by state
    state = GAME.init(64, 9, config)
    assert np.array_equal(make_agent(f"bot:{path}", GAME).act(state, config),
                          G.greedy_policy_fn(bot, GAME, config)(state))


def _damaged_copies(data: bytes):
    yield "truncated", data[: len(data) // 2]
    flipped = bytearray(data)
    flipped[len(flipped) // 2] ^= 0xFF
    yield "flipped", bytes(flipped)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = {info.filename: archive.read(info) for info in archive.infolist()}

    def rezip(changed):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            for name, blob in changed.items():
                archive.writestr(name, blob)
        return buffer.getvalue()

    def npy(value):
        buffer = io.BytesIO()
        np.save(buffer, value, allow_pickle=True)
        return buffer.getvalue()

    yield "pickled", rezip({**members, "w0.npy": npy(np.array([{"x": 1}], dtype=object))})
    yield "nan", rezip({**members, "b0.npy": npy(np.full(16, np.nan, dtype=np.float32))})
    yield "other game", rezip({**members, "game.npy": npy(np.array("sports_dice"))})
    yield "no layer", rezip({k: v for k, v in members.items() if k != "w1.npy"})


def test_a_damaged_exported_policy_is_refused_naming_the_file(tmp_path):
    from train.game_export import GameBot, GameBotFileError

    cfg, _ = _run(tmp_path)
    data = (cfg.out_dir / "policy.npz").read_bytes()
    for label, blob in _damaged_copies(data):
        path = tmp_path / f"damaged_{label.replace(' ', '_')}.npz"
        path.write_bytes(blob)
        with pytest.raises(GameBotFileError) as err:
            GameBot.load(path, "table_football")
        assert path.name in str(err.value) and "\n" not in str(err.value), label


def test_a_corrupt_checkpoint_is_refused_and_nothing_is_written(tmp_path):
    from train.checkpoint import CheckpointError

    cfg = tiny_config(tmp_path)
    cfg.out_dir.mkdir(parents=True)
    (cfg.out_dir / "policy.zip").write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(CheckpointError, match="policy.zip"):
        G.train(cfg, log=lambda *a: None)
    assert sorted(p.name for p in cfg.out_dir.iterdir()) == ["policy.zip"]
    with pytest.raises(SystemExit) as exit_:
        G.main(["--game", "table_football", "--out", str(cfg.out_dir), "--max-steps", "1"])
    assert exit_.value.code == 1


@pytest.mark.slow
def test_training_learns_far_beyond_random_play(tmp_path):
    """A short run on the 7-point game: the greedy policy's exact win probability against the optimal agent
    ends far above the uniformly random policy's exact value, and near the optimal 1/2."""
    config = TableFootballConfig(**SMALL)
    random_value = exact_win_probability(__import__("gridiron_env.table_football", fromlist=["RandomAgent"])
                                         .RandomAgent(), config).overall
    cfg = tiny_config(tmp_path, max_steps=60_000, num_envs=64, n_steps=32, batch_size=1024, round_steps=20_000,
                      net_width=32, eval_every=3)
    summary = G.train(cfg, log=lambda *a: None)
    final = summary["evaluation"]["overall"]
    assert random_value < 0.2
    assert final > random_value + 0.25
    assert final > 0.4


def test_a_small_run_beats_random_play(tmp_path):
    """The default suite's learning check: a few thousand steps already lift the greedy policy's exact value
    well above the uniformly random policy's."""
    config = TableFootballConfig(**SMALL)
    random_value = exact_win_probability(__import__("gridiron_env.table_football", fromlist=["RandomAgent"])
                                         .RandomAgent(), config).overall
    cfg = tiny_config(tmp_path, max_steps=6_000, num_envs=32, n_steps=32, batch_size=512, round_steps=3_000,
                      net_width=32, eval_every=2, seed=1)
    final = G.train(cfg, log=lambda *a: None)["evaluation"]["overall"]
    assert final > random_value + 0.15


@pytest.mark.slow
def test_a_short_sports_dice_run_learns_measured_exactly(tmp_path):
    """Sports Dice to 7 points: a short run's greedy policy, measured exactly against the optimal agent (by
    assembled observations, the trainer's path), ends well above the uniformly random policy (measured:
    0.388 against 0.258)."""
    from gridiron_env import sports_dice as sd

    config = sd.SportsDiceConfig(target_score=7)
    solution = sd.solve(config)
    random_value = sd.exact_win_probability(sd.RandomAgent(), config, solution).overall
    cfg = GameTrainConfig.for_game("sports_dice", game_config={"target_score": 7}, minutes=10.0, max_steps=16_384,
                                   num_envs=64, n_steps=32, batch_size=1024, round_steps=8_192, net_width=32,
                                   out=str(tmp_path / "sd"), progress=False, onnx=False, seed=2)
    summary = G.train(cfg, log=lambda *a: None)
    final = summary["evaluation"]
    assert final["method"] == "exact" and summary["steps"] >= 16_384
    assert final["overall"] > random_value + 0.08, (final["overall"], random_value)


# --- the hand-off of train.selfplay -------------------------------------------------------------------------

def test_selfplay_hands_a_protocol_game_to_train_games(monkeypatch, tmp_path):
    import train.selfplay as selfplay

    seen = {}
    monkeypatch.setattr(G, "train", lambda cfg, log=print: seen.setdefault("cfg", cfg))
    monkeypatch.setattr(selfplay, "train", lambda cfg, log=print: seen.setdefault("gridiron", cfg))
    selfplay.main(["--game", "table_football", "--minutes", "3", "--seed", "5", "--out", str(tmp_path / "tf")])
    cfg = seen.pop("cfg")
    assert isinstance(cfg, GameTrainConfig)
    assert (cfg.game, cfg.variant, cfg.minutes, cfg.seed, cfg.out) == ("table_football", "basic", 3.0, 5,
                                                                       str(tmp_path / "tf"))
    selfplay.main(["--game", "table_football", "--variant", "clock", "--out", str(tmp_path / "c")])
    assert seen.pop("cfg").variant == "clock"
    selfplay.main(["--game", "gridiron", "--minutes", "2", "--out", str(tmp_path / "g")])  # stays here
    assert type(seen.pop("gridiron")).__name__ == "TrainConfig" and not seen
    with pytest.raises(SystemExit) as exit_:
        selfplay.main(["--game", "no_such_game"])
    assert exit_.value.code == 2 and not seen
