"""Ray RLlib training (``train.rllib_selfplay``, ``train.rllib_env``).

Ray RLlib pins an older gymnasium, so these tests run in their own venv (``.ci/rllib``, ``pytest -m rllib``);
in the main environment (no ray) they are skipped, except the checks of the command line that need no ray.
"""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

try:
    import ray  # noqa: F401
    import ray.rllib  # noqa: F401

    HAVE_RAY = True
except ImportError:
    HAVE_RAY = False

_skip_without_ray = pytest.mark.skipif(not HAVE_RAY, reason='needs Ray RLlib: pip install -e ".[rllib]"')


def needs_ray(test):
    """Marked ``rllib`` and skipped where ray is not importable (the main environment)."""
    return pytest.mark.rllib(_skip_without_ray(test))
ROOT = Path(__file__).resolve().parents[1]


# --- the command line, with or without ray -----------------------------------------------------------------

def _run_without_ray(*args: str) -> subprocess.CompletedProcess:
    """``python -m train.rllib_selfplay ARGS`` in a process where ``import ray`` fails."""
    code = ("import sys; sys.modules['ray'] = None; from train.rllib_selfplay import main; "
            f"main({list(args)!r})")
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.rllib
def test_missing_ray_is_one_line_naming_the_extra(tmp_path):
    done = _run_without_ray("--out", str(tmp_path / "run"), "--iterations", "1")
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and 'pip install -e ".[rllib]"' in lines[0] and "Traceback" not in done.stderr
    assert not (tmp_path / "run").exists()


@pytest.mark.rllib
def test_help_names_every_option_with_a_text():
    from train.rllib_selfplay import build_parser

    parser = build_parser()
    for action in parser._actions:
        assert action.help, f"{action.option_strings} has no help text"
    assert "--address" in parser.format_help()


@pytest.mark.rllib
@pytest.mark.parametrize("args, field", [
    (["--minibatch-size", "5000"], "minibatch_size"),
    (["--eval-games", "3"], "eval_games"),
    (["--net-arch", "64,x"], "--net-arch"),
    (["--net-arch", "0"], "net_arch"),
    (["--env-runners", "-1"], "env_runners"),
    (["--address", "auto", "--num-cpus", "2"], "num_cpus"),
])
def test_bad_settings_name_the_field(args, field):
    done = _run_without_ray(*args)
    assert done.returncode == 2 and field in done.stderr and "Traceback" not in done.stderr


# --- the env -----------------------------------------------------------------------------------------------

def _play(env, rng, segments: int):
    """Random legal play over ``segments`` segments: one dict per step (role, obs, action, rewards, term,
    trunc, teams: the team of each role, before / after: the engine states)."""
    obs, _ = env.reset(seed=11)
    done = 0
    while done < segments:
        (role,) = obs  # exactly one agent acts at a time
        teams, before = dict(env._team), env.state.copy()
        action = int(rng.choice(np.flatnonzero(obs[role]["action_mask"])))
        nxt, rewards, term, trunc, _ = env.step({role: action})
        yield {"role": role, "obs": obs[role], "action": action, "rewards": rewards, "term": term["__all__"],
               "trunc": trunc["__all__"], "teams": teams, "before": before, "after": env.state.copy()}
        obs = nxt
        if term["__all__"] or trunc["__all__"]:
            done += 1
            obs, _ = env.reset()


@needs_ray
def test_segments_are_drives_played_by_the_offence_and_defence():
    from train.export import ON_OFFENCE_INDEX
    from train.rllib_env import GridironDrives

    env = GridironDrives({"field_position_weight": 0.0})
    team_points = np.zeros(2)
    games = 0
    for step in _play(env, np.random.default_rng(0), 120):
        role, obs, teams, before, after = step["role"], step["obs"], step["teams"], step["before"], step["after"]
        # the role is the acting team's side at the snap: exactly what picks the exported bot's net
        assert int(before.to_act[0]) == teams[role] and teams["offence"] == int(before.offence[0])
        assert obs["observations"][ON_OFFENCE_INDEX] == (1.0 if role == "offence" else 0.0)
        assert obs["action_mask"].dtype == np.float32 and obs["action_mask"][step["action"]] == 1.0
        rewards = step["rewards"]
        assert set(rewards) == {"offence", "defence"} and rewards["offence"] == -rewards["defence"]
        for r in rewards:
            team_points[teams[r]] += rewards[r]
        game_over = after.to_act[0] < 0
        changed = (after.drives[0] != before.drives[0]).any() or after.offence[0] != before.offence[0]
        assert (step["term"] or step["trunc"]) == bool(changed or game_over)
        assert step["trunc"] == bool(game_over and after.truncated[0])
        if game_over:  # a game's points, summed over its segments, are its final margin
            margin = int(after.score[0, 0]) - int(after.score[0, 1])
            assert team_points[0] == margin and team_points[1] == -margin
            team_points[:] = 0
            games += 1
    assert games >= 1


@needs_ray
def test_handing_over_scores_the_field_position():
    from train.rllib_env import GridironDrives

    plain = list(_play(GridironDrives({"field_position_weight": 0.0}), np.random.default_rng(1), 40))
    weighted = list(_play(GridironDrives({"field_position_weight": 1.0}), np.random.default_rng(1), 40))
    assert [p["action"] for p in plain] == [w["action"] for w in weighted]  # the same games
    handovers = 0
    for p, w in zip(plain, weighted):
        extra = w["rewards"]["offence"] - p["rewards"]["offence"]
        if p["term"] and p["after"].to_act[0] >= 0:  # the ball changes hands, the game goes on
            handovers += 1
            assert 0 < abs(extra) <= 1.0  # (rows the next offence must go, 1..24) / 24
            next_offence = int(p["after"].offence[0])
            assert (extra < 0) == (p["teams"]["offence"] == next_offence)  # keeping the ball costs its value
        else:
            assert extra == 0.0
    assert handovers >= 10


@needs_ray
def test_games_follow_the_seed_and_runners_play_different_games():
    from ray.rllib.env.env_context import EnvContext

    from train.rllib_env import GridironDrives

    def actions(env):
        return [step["action"] for step in _play(env, np.random.default_rng(5), 10)]

    assert actions(GridironDrives({})) == actions(GridironDrives({}))
    other_runner = GridironDrives(EnvContext({}, worker_index=1))
    assert actions(GridironDrives({})) != actions(other_runner)
    with pytest.raises(ValueError, match="field_position_weight"):
        GridironDrives({"field_position_weight": -1})
    with pytest.raises(ValueError, match="unknown option"):
        GridironDrives({"seed": 3})


# --- export and checkpoints ----------------------------------------------------------------------------------

def _module(cfg):
    from train.rllib_selfplay import module_spec

    return module_spec(cfg, spaces=True).build()


@needs_ray
@pytest.mark.parametrize("activation", ["tanh", "relu"])
def test_the_exported_bot_computes_the_modules_logits(activation):
    import torch
    from ray.rllib.core.columns import Columns

    from gridiron_env.core.actions import NUM_ACTIONS
    from gridiron_env.core.observe import FEATURES_SIZE
    from train.export import ON_OFFENCE_INDEX
    from train.rllib_selfplay import RllibConfig, numpy_weights, to_bot

    cfg = RllibConfig(net_arch=(32, 16), activation=activation)
    modules = {"offence": _module(cfg), "defence": _module(cfg)}
    weights = numpy_weights({side: m.state_dict() for side, m in modules.items()})
    bot = to_bot(weights, activation)
    rng = np.random.default_rng(3)
    obs = rng.uniform(-1, 2, (16, FEATURES_SIZE)).astype(np.float32)
    obs[:, ON_OFFENCE_INDEX] = np.arange(16) % 2  # rows of both nets
    mask = (rng.random((16, NUM_ACTIONS)) < 0.3).astype(np.float32)
    mask[:, 0] = 1.0
    expected = np.empty((16, NUM_ACTIONS), dtype=np.float32)
    for side, rows in (("offence", obs[:, ON_OFFENCE_INDEX] == 1), ("defence", obs[:, ON_OFFENCE_INDEX] == 0)):
        batch = {Columns.OBS: {"observations": torch.from_numpy(obs[rows]),
                               "action_mask": torch.ones((int(rows.sum()), NUM_ACTIONS))}}
        with torch.no_grad():
            expected[rows] = modules[side].forward_inference(batch)[Columns.ACTION_DIST_INPUTS].numpy()
    np.testing.assert_allclose(bot.logits(obs), expected, rtol=1e-4, atol=1e-5)
    chosen = bot.act(obs, mask > 0)
    assert mask[np.arange(16), chosen].all()  # the bot never picks a masked action


@needs_ray
def test_checkpoints_round_trip_and_refuse_bad_files(tmp_path):
    from train.rllib_selfplay import (
        RllibCheckpointError, RllibConfig, fresh_weights, load_checkpoint, save_checkpoint,
    )

    cfg = RllibConfig(net_arch=(16,))
    weights = fresh_weights(cfg)
    meta = {"iterations": 3, "env_steps": 1200, "net_arch": [16], "activation": "tanh", "seed": 0}
    path = tmp_path / "ck.npz"
    save_checkpoint(path, weights, meta)
    loaded, got_meta = load_checkpoint(path, fresh_weights(cfg), cfg)
    assert got_meta["iterations"] == 3 and got_meta["env_steps"] == 1200
    for side in weights:
        assert loaded[side].keys() == weights[side].keys()
        for key in weights[side]:
            np.testing.assert_array_equal(loaded[side][key], weights[side][key])

    def refused(p, match, want_cfg=cfg):
        with pytest.raises(RllibCheckpointError, match=match):
            load_checkpoint(p, fresh_weights(want_cfg), want_cfg)

    refused(path, "more than|does not fit", RllibConfig(net_arch=(8,)))  # another net
    refused(path, "does not fit", RllibConfig(net_arch=(16, 16)))
    refused(tmp_path / "missing.npz", "not a regular file")
    broken = tmp_path / "broken.npz"
    broken.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    refused(broken, "readable|unreadable")
    nan = {side: {k: v.copy() for k, v in w.items()} for side, w in weights.items()}
    key = next(iter(nan["defence"]))
    nan["defence"][key].flat[0] = np.nan
    save_checkpoint(tmp_path / "nan.npz", nan, meta)
    refused(tmp_path / "nan.npz", "non-finite")
    save_checkpoint(tmp_path / "meta.npz", weights, {**meta, "iterations": -1})
    refused(tmp_path / "meta.npz", "iterations")
    # a pickled object array in place of a tensor: refused, never unpickled
    pickled = tmp_path / "pickled.npz"
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(pickled, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == f"offence/{key}.npy":
                import io

                buf = io.BytesIO()
                np.save(buf, np.array([{"x": 1}], dtype=object), allow_pickle=True)
                data = buf.getvalue()
            dst.writestr(info, data)
    refused(pickled, "unreadable|float32")


# --- the whole job, tiny ---------------------------------------------------------------------------------------

@needs_ray
def test_a_tiny_run_trains_checkpoints_resumes_and_evaluates(tmp_path, capsys):
    from agents.bot import Bot
    from train.rllib_selfplay import main

    out = tmp_path / "run"
    args = ["--out", str(out), "--iterations", "1", "--num-cpus", "1", "--env-runners", "1",
            "--envs-per-runner", "2", "--train-batch-size", "128", "--minibatch-size", "64", "--num-epochs", "1",
            "--net-arch", "32", "--eval-games", "2", "--opponents", "heuristic"]
    summary = main(args)
    assert summary["iterations"] == 1 and summary["env_steps"] >= 128
    bot = Bot.load(out / "bot.npz")
    assert [w.shape for w, _ in bot.offence] == [(bot.features_size, 32), (32, bot.num_actions)]
    rows = summary["evaluation"]["rows"]
    assert [r["opponent"] for r in rows] == ["random", "heuristic"] and all(r["games"] == 2 for r in rows)
    assert (out / "evaluation.md").read_text() == summary["evaluation"]["markdown"]
    assert "| heuristic |" in capsys.readouterr().out  # the main job's table, printed

    meta = json.loads(str(np.load(out / "rllib_checkpoint.npz")["meta"]))
    assert meta["iterations"] == 1
    again = main(args[:-4] + ["--eval-games", "0"])  # resumes from the checkpoint: iteration 2
    assert again["total_iterations"] == 2 and "resumed from" in capsys.readouterr().out
    assert json.loads(str(np.load(out / "rllib_checkpoint.npz")["meta"]))["iterations"] == 2


@needs_ray
def test_a_refused_checkpoint_is_one_line_and_changes_nothing(tmp_path, capsys):
    from train.rllib_selfplay import main

    out = tmp_path / "run"
    out.mkdir()
    (out / "rllib_checkpoint.npz").write_bytes(b"PK\x03\x04 not a checkpoint")
    before = sorted(p.name for p in out.iterdir())
    with pytest.raises(SystemExit) as exit_info:
        main(["--out", str(out), "--iterations", "1", "--num-cpus", "1"])
    assert exit_info.value.code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "checkpoint refused" in err[0] and "rllib_checkpoint.npz" in err[0]
    assert sorted(p.name for p in out.iterdir()) == before
