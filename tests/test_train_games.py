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
from train.games import GameTrainConfig, PolicyAgent, PolicyFileError, PolicyNet

GAME = get_game("table_football")
SMALL = {"target_score": 7}  # a short game: its solve and exact evaluation take a fraction of a second


def tiny_config(tmp_path, **changes) -> GameTrainConfig:
    values = dict(game_config=SMALL, minutes=10.0, max_steps=1, num_envs=16, n_steps=16, batch_size=128,
                  round_steps=256, eval_every=1, net_width=16, out=str(tmp_path / "run"), progress=False)
    values.update(changes)
    return GameTrainConfig.for_game("table_football", **values)


def random_net(seed=0, width=12) -> PolicyNet:
    rng = np.random.default_rng(seed)
    sizes = [GAME.observation_size, width, width, GAME.num_actions]
    layers = [(rng.normal(size=(a, b)).astype(np.float32), rng.normal(size=b).astype(np.float32))
              for a, b in zip(sizes[:-1], sizes[1:])]
    return PolicyNet(layers, "tanh", GAME.name, GAME.observation_size, GAME.num_actions)


# --- the config -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("field, value", [
    ("game", "no_such_game"), ("game", "gridiron"), ("variant", "turbo"), ("num_envs", 0), ("n_steps", True),
    ("learning_rate", -1.0), ("learning_rate", float("nan")), ("random_share", 1.5), ("gamma", 2.0),
    ("seed", -1), ("seed", 2**32), ("eval_games", 3), ("minutes", "ten"), ("max_steps", -5), ("net_layers", 0),
    ("game_config", {"target_score": 0}), ("game_config", {"no_field": 1}),
    ("game_config", []), ("out", 3), ("progress", 1), ("opponent_temperature", -0.5),
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


# --- the policy file --------------------------------------------------------------------------------------

def test_policy_file_round_trips_and_plays_legal_actions(tmp_path):
    net = random_net()
    path = tmp_path / "policy.npz"
    net.save(path)
    back = PolicyNet.load(path, "table_football")
    obs = GAME.observe(GAME.init(32, 5, TableFootballConfig()), 0, TableFootballConfig())
    assert np.array_equal(back.logits(obs), net.logits(obs))
    assert (back.activation, back.game, len(back.layers)) == ("tanh", "table_football", 3)
    # as an agent it picks only legal actions, greedy and sampling, and games of a batch play like lone ones
    config = TableFootballConfig(target_score=7)
    solver = G.GameSolver(GAME, config, __import__("gridiron_env.table_football", fromlist=["solve"]))
    optimal = G._FunctionAgent(solver.optimal_policy, "optimal")
    for temperature in (0.0, 1.0):
        agent = PolicyAgent.load(path, "table_football", temperature=temperature)
        batch = G.play_against(GAME, config, agent, optimal, 6, seed=11)  # the engine raises on an illegal one
        lone = [G.play_against(GAME, config, PolicyAgent(back, temperature=temperature), optimal, 1, seed=11 + i)
                for i in (0, 2, 4)]  # team one plays in even games
        assert np.array_equal(batch[0::2], np.concatenate(lone))


def _npz(arrays: dict) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def _arrays(net: PolicyNet) -> dict:
    arrays = {"format": np.array(G.POLICY_FORMAT), "game": np.array(net.game),
              "observation_size": np.array(net.observation_size), "num_actions": np.array(net.num_actions),
              "activation": np.array(net.activation), "layers": np.array(len(net.layers))}
    for i, (w, b) in enumerate(net.layers):
        arrays[f"w{i}"], arrays[f"b{i}"] = w, b
    return arrays


def _corruptions(net: PolicyNet, good: bytes):
    base = _arrays(net)
    yield "truncated", good[: len(good) // 2], "not a readable policy file|damaged"
    yield "not a zip", b"hello, I am no policy", "not a zip archive"
    yield "empty", b"", "empty"
    yield "pickled object", _npz({**base, "w0": np.array([object()], dtype=object)}), "holds|O"
    yield "wrong format", _npz({**base, "format": np.array("gridiron-bot-v1")}), "format"
    yield "nan weight", _npz({**base, "b1": np.full_like(base["b1"], np.nan)}), "non-finite"
    yield "missing layer", _npz({k: v for k, v in base.items() if k != "w2"}), "w2"
    yield "extra member", _npz({**base, "notes": np.array("hi")}), "not an array of a policy file"
    yield "layer count", _npz({**base, "layers": np.array(2)}), "do not fit"
    yield "bad shapes", _npz({**base, "w1": np.zeros((5, 12), np.float32)}), "layer 1 has shapes"
    yield "wrong action count", _npz({**base, "num_actions": np.array(9)}), "logits"
    yield "other game", _npz({**base, "game": np.array("sports_dice")}), "not of 'table_football'"
    yield "bad activation", _npz({**base, "activation": np.array("gelu")}), "activation"
    yield "huge header", _npz({**base, "w0": np.zeros((1, 1), np.float32)}).replace(b"(1, 1)", b"(9999999, 9)"), \
        "shape|header|bytes"
    flipped = bytearray(good)
    flipped[len(flipped) // 3] ^= 0xFF
    yield "flipped byte", bytes(flipped), "policy"


def test_a_corrupted_policy_file_is_refused_naming_the_file(tmp_path):
    net = random_net()
    good = tmp_path / "good.npz"
    net.save(good)
    data = good.read_bytes()
    for label, blob, reason in _corruptions(net, data):
        path = tmp_path / f"{label.replace(' ', '_')}.npz"
        path.write_bytes(blob)
        with pytest.raises(PolicyFileError, match=reason) as err:
            PolicyNet.load(path, "table_football")
        assert path.name in str(err.value), label
        assert "\n" not in str(err.value), label
    with pytest.raises(PolicyFileError, match="no policy file"):
        PolicyNet.load(tmp_path / "absent.npz")
    assert zipfile.is_zipfile(good)  # the good file was never touched


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
    assert G.evaluate_policy(net, GAME, config, None) == {"method": "none"}


# --- training ----------------------------------------------------------------------------------------------

def test_a_tiny_run_writes_its_outputs_and_resumes(tmp_path):
    cfg = tiny_config(tmp_path)
    summary = G.train(cfg, log=lambda *a: None)
    out = cfg.out_dir
    for name in ("policy.zip", "policy.npz", "summary.json", "evaluation.md", "train_config.json"):
        assert (out / name).is_file(), name
    written = json.loads((out / "summary.json").read_text())
    assert written["rounds"] == 1 and written["steps"] >= 256 and written["evaluation"]["method"] == "exact"
    assert 0.0 <= written["evaluation"]["overall"] <= 1.0
    assert "| trained |" in (out / "evaluation.md").read_text()
    net = PolicyNet.load(out / "policy.npz", "table_football")
    again = G.evaluate_policy(net, GAME, TableFootballConfig(**SMALL), G.GameSolver.of(GAME, TableFootballConfig(**SMALL)))
    assert again["overall"] == summary["evaluation"]["overall"]  # the exported file is the measured policy
    resumed = G.train(cfg, log=lambda *a: None)
    assert resumed["total_rounds"] == 2 and resumed["total_steps"] > summary["total_steps"]


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
