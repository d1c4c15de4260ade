"""Training checkpoints (train.checkpoint): tensors and JSON only, validated; nothing in one can run code.

The model here is the project's own (train.learners.make_model) with a tiny net and batch, so that a build
takes milliseconds."""

import base64
import dataclasses
import io
import json
import pickle
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from gridiron_env.config import GameConfig  # noqa: E402
from train.checkpoint import JSON_MEMBER, CheckpointError, load_checkpoint, save_checkpoint  # noqa: E402
from train.learners import drive_env, make_model  # noqa: E402
from train.selfplay import TrainConfig, main, resume_model  # noqa: E402

CFG = TrainConfig(num_envs=4, n_steps=16, batch_size=32, n_epochs=2, net_arch=(8,), imitation_games=0, eval_games=0,
                  round_steps=64, progress_bar=False, threads=1, seed=3)


def make_env(side="offence", cfg=CFG):
    from agents.heuristic import HeuristicAgent
    from train.league import League, LeagueOpponent

    league = League({"heuristic": HeuristicAgent()})
    return drive_env(side, lambda: LeagueOpponent(league), cfg, [GameConfig.from_dict(cfg.game)], cfg.seed)


@pytest.fixture(scope="module")
def env():
    torch.set_num_threads(1)
    return make_env()


class Trained(tuple):
    """(model, checkpoint bytes), with a short repr for hypothesis' reports."""

    def __repr__(self):
        return f"Trained(checkpoint of {len(self[1]):,} bytes)"


@pytest.fixture(scope="module")
def trained(env, tmp_path_factory):
    """An offence model after a little training (so its optimizer has state), and its checkpoint's bytes."""
    model = make_model(make_env(), CFG, None)
    model.learn(64)
    path = tmp_path_factory.mktemp("ckpt") / "offence.zip"
    save_checkpoint(path, model, "offence", rounds=2)
    return Trained((model, path.read_bytes()))


def load(path, env, side="offence", cfg=CFG):
    return resume_model(Path(path), side, env, cfg, None, log=lambda line: None)


def same_state(a, b):
    assert list(a.keys()) == list(b.keys())
    return all(torch.equal(a[k], b[k]) for k in a)


def same_optimizer(a, b):
    sa, sb = a.policy.optimizer.state_dict(), b.policy.optimizer.state_dict()
    assert sa["param_groups"] == sb["param_groups"]
    assert sa["state"].keys() == sb["state"].keys() and len(sa["state"]) > 0
    return all(same_state(sa["state"][i], sb["state"][i]) for i in sa["state"])


def rewrite(data: bytes, path, meta=None, members=None, compression=zipfile.ZIP_STORED):
    """A copy of a checkpoint with ``meta(dict)`` / ``members(dict name -> bytes)`` applied, CRCs recomputed
    (so only the change itself is wrong)."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        entries = {name: archive.read(name) for name in archive.namelist()}
    if meta is not None:
        obj = json.loads(entries[JSON_MEMBER])
        meta(obj)
        entries[JSON_MEMBER] = json.dumps(obj).encode()
    if members is not None:
        members(entries)
    with zipfile.ZipFile(path, "w", compression=compression) as archive:
        for name, raw in entries.items():
            archive.writestr(name, raw)
    return path


def refused(path, env, match, side="offence", cfg=CFG):
    with pytest.raises(CheckpointError, match=match) as info:
        load(path, env, side, cfg)
    message = str(info.value)
    assert message.startswith(f"{path}: ") and "\n" not in message, message
    return message


# --- round trip ---------------------------------------------------------------------------------------------

def test_round_trip_restores_weights_optimizer_and_counters_and_training_continues(trained, tmp_path):
    model, data = trained
    path = tmp_path / "offence.zip"
    path.write_bytes(data)
    loaded, meta = load(path, make_env())
    assert same_state(model.policy.state_dict(), loaded.policy.state_dict())
    assert same_optimizer(model, loaded)
    assert loaded.num_timesteps == model.num_timesteps == 64
    assert loaded._n_updates == model._n_updates > 0
    assert list(loaded.ep_info_buffer) == [{"r": float(e["r"]), "l": int(e["l"]), "t": float(e["t"])}
                                           for e in model.ep_info_buffer]
    assert meta["progress"]["rounds"] == 2 and meta["side"] == "offence"
    # the same model saved again gives the same bytes (fixed timestamps, fixed member order)
    save_checkpoint(tmp_path / "again.zip", loaded, "offence", rounds=2)
    assert (tmp_path / "again.zip").read_bytes() == data
    before = [p.detach().clone() for p in loaded.policy.parameters()]
    loaded.learn(64, reset_num_timesteps=False)
    assert loaded.num_timesteps == 128
    assert any(not torch.equal(a, b) for a, b in zip(before, loaded.policy.parameters()))
    assert all(torch.isfinite(p).all() for p in loaded.policy.parameters())


def test_resume_trains_exactly_as_the_old_sb3_resume_did(tmp_path):
    """Reference: SB3's own save/load on a file this test wrote itself from a trusted model. Resuming from
    the new checkpoint gives bit-identical weights after more training."""
    from sb3_contrib import MaskablePPO

    model = make_model(make_env(), CFG, None)
    model.learn(64)
    model.save(tmp_path / "sb3.zip")
    save_checkpoint(tmp_path / "offence.zip", model, "offence")
    reference = MaskablePPO.load(tmp_path / "sb3.zip", env=make_env(), device="cpu", n_steps=CFG.n_steps,
                                 batch_size=CFG.batch_size, tensorboard_log=None)
    reference.learn(64, reset_num_timesteps=False)  # the global RNGs are reseeded by each build: one at a time
    resumed, _ = load(tmp_path / "offence.zip", make_env())
    resumed.learn(64, reset_num_timesteps=False)
    assert resumed.num_timesteps == reference.num_timesteps == 128
    assert resumed._n_updates == reference._n_updates
    assert same_state(reference.policy.state_dict(), resumed.policy.state_dict())
    assert same_optimizer(reference, resumed)


def test_an_untrained_model_round_trips_with_an_empty_optimizer_state(env, tmp_path):
    model = make_model(env, CFG, None)
    save_checkpoint(tmp_path / "defence.zip", model, "offence")
    loaded, _ = load(tmp_path / "defence.zip", env)
    assert loaded.policy.optimizer.state_dict()["state"] == {}
    assert same_state(model.policy.state_dict(), loaded.policy.state_dict())


def test_load_checkpoint_builds_through_the_given_function_only(trained, env, tmp_path):
    _, data = trained
    path = tmp_path / "offence.zip"
    path.write_bytes(data)
    seen = []

    def build(hyperparameters):
        seen.append(hyperparameters)
        return make_model(env, dataclasses.replace(CFG, **hyperparameters), None)

    model, meta = load_checkpoint(path, "offence", build, [8])
    assert seen == [meta["hyperparameters"]] and model.num_timesteps == 64
    with pytest.raises(CheckpointError, match="checkpoint of the offence, not of the defence"):
        load_checkpoint(path, "defence", build, [8])
    assert len(seen) == 1  # refused before any model was built
    with pytest.raises(ValueError, match="side must be"):
        load_checkpoint(path, "kicker", build, [8])


def test_a_checkpoint_keeps_its_hyperparameters_over_the_run_config(trained, env, tmp_path):
    _, data = trained
    path = rewrite(data, tmp_path / "offence.zip", meta=lambda m: m["hyperparameters"].update(gamma=0.5, seed=9))
    lines = []
    loaded, _ = resume_model(path, "offence", env, CFG, None, log=lines.append)
    assert loaded.gamma == 0.5 and loaded.rollout_buffer.gamma == 0.5 and loaded.seed == 9
    assert any("keeps its checkpoint's gamma 0.5" in line for line in lines)


def test_save_refuses_non_finite_weights_and_keeps_the_previous_checkpoint(trained, env, tmp_path):
    _, data = trained
    path = tmp_path / "offence.zip"
    path.write_bytes(data)
    model = make_model(env, CFG, None)
    with torch.no_grad():
        model.policy.action_net.bias[3] = float("nan")
    with pytest.raises(CheckpointError, match="non-finite"):
        save_checkpoint(path, model, "offence")
    assert path.read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == ["offence.zip"]  # no partial file left


# --- code in an SB3 archive never runs ----------------------------------------------------------------------

class _Touch:
    """Unpickling this creates ``marker`` (an empty file): a stand-in for any shell command."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


def crafted_sb3_zip(path, marker):
    """An SB3-style archive whose ``data`` member has a ':serialized:' cloudpickle entry that creates
    ``marker`` when SB3 decodes it."""
    entry = {":type:": "<class 'abc.ABCMeta'>", ":serialized:": base64.b64encode(pickle.dumps(_Touch(marker))).decode()}
    data = {"policy_class": entry, "num_timesteps": 64, "seed": 0}
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("data", json.dumps(data))
        archive.writestr("policy.pth", b"")
        archive.writestr("pytorch_variables.pth", b"")
        archive.writestr("_stable_baselines3_version", "2.9.2")
    return path


def test_the_crafted_archive_runs_code_under_sb3s_decoder(tmp_path):
    """Control: the payload is live. SB3's json_to_data (what MaskablePPO.load runs on 'data') creates the
    marker; so the next tests' absent marker means the file was never decoded."""
    from stable_baselines3.common.save_util import json_to_data

    marker = tmp_path / "control-marker"
    path = crafted_sb3_zip(tmp_path / "control.zip", marker)
    with zipfile.ZipFile(path) as archive:
        json_to_data(archive.read("data").decode())
    assert marker.exists()


def test_a_crafted_sb3_archive_is_refused_and_runs_nothing(env, tmp_path):
    marker = tmp_path / "marker"
    path = crafted_sb3_zip(tmp_path / "offence.zip", marker)
    message = refused(path, env, "stable-baselines3 archive")
    assert "can carry code" in message and "fresh run" in message
    assert not marker.exists()
    # the same payload next to a checkpoint.json is an unknown member, still never read
    with zipfile.ZipFile(path, "a") as archive:
        archive.writestr(JSON_MEMBER, json.dumps({"format": "gridiron_env.train.checkpoint", "version": 1}))
    refused(path, env, "lacks the field")
    assert not marker.exists()


def test_a_real_sb3_save_is_refused_with_a_clear_message(trained, tmp_path):
    model, _ = trained
    model.save(tmp_path / "offence.zip")
    refused(tmp_path / "offence.zip", None, "is a stable-baselines3 archive .* not read, because")


def test_the_main_job_refuses_a_crafted_archive_in_one_line_and_runs_nothing(tmp_path, capsys):
    out = tmp_path / "run"
    out.mkdir()
    marker = tmp_path / "marker"
    for side in ("offence", "defence"):
        crafted_sb3_zip(out / f"{side}.zip", marker)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    with pytest.raises(SystemExit) as info:
        main(["--out", str(out), "--minutes", "0", "--num-envs", "4", "--imitation-games", "0", "--eval-games", "0",
              "--round-steps", "64", "--n-steps", "16", "--threads", "1"])
    assert info.value.code == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert str(out / "offence.zip") in err and "stable-baselines3 archive" in err
    assert not marker.exists()
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # nothing written, nothing lost


def test_the_main_job_refuses_a_run_folder_with_one_checkpoint(trained, tmp_path, capsys):
    out = tmp_path / "run"
    out.mkdir()
    (out / "offence.zip").write_bytes(trained[1])
    with pytest.raises(SystemExit) as info:
        main(["--out", str(out), "--minutes", "0", "--num-envs", "4", "--imitation-games", "0", "--eval-games", "0"])
    assert info.value.code == 1
    err = capsys.readouterr().err
    assert f"{out / 'defence.zip'}: missing" in err and err.count("\n") == 1
    assert sorted(p.name for p in out.iterdir()) == ["offence.zip"]


def test_the_main_job_refuses_a_corrupt_checkpoint(trained, tmp_path, capsys):
    out = tmp_path / "run"
    out.mkdir()
    (out / "offence.zip").write_bytes(trained[1][: len(trained[1]) // 2])
    (out / "defence.zip").write_bytes(trained[1])
    with pytest.raises(SystemExit) as info:
        main(["--out", str(out), "--minutes", "0", "--num-envs", "4", "--imitation-games", "0", "--eval-games", "0",
              "--n-steps", "16", "--threads", "1"])
    assert info.value.code == 1
    err = capsys.readouterr().err
    assert f"{out / 'offence.zip'}: not a checkpoint" in err and "Traceback" not in err


# --- corrupt, foreign and mismatched files --------------------------------------------------------------------

def test_missing_unreadable_and_non_zip_files_are_refused(trained, env, tmp_path):
    data = trained[1]
    refused(tmp_path / "absent.zip", env, "no such file")
    (tmp_path / "folder.zip").mkdir()
    refused(tmp_path / "folder.zip", env, "not a regular file")
    (tmp_path / "empty.zip").write_bytes(b"")
    refused(tmp_path / "empty.zip", env, "not a readable zip archive")
    (tmp_path / "random.zip").write_bytes(np.random.default_rng(0).bytes(5000))
    refused(tmp_path / "random.zip", env, "not a readable zip archive")
    (tmp_path / "pickle.zip").write_bytes(pickle.dumps({"weights": [1.0]}))
    refused(tmp_path / "pickle.zip", env, "not a readable zip archive")
    for cut in (10, len(data) // 3, len(data) - 30, len(data) - 1):
        (tmp_path / "cut.zip").write_bytes(data[:cut])
        refused(tmp_path / "cut.zip", env, "not a checkpoint|corrupt|cannot be read")
    with zipfile.ZipFile(tmp_path / "foreign.zip", "w") as archive:
        archive.writestr("readme.txt", "hello")
    refused(tmp_path / "foreign.zip", env, "no checkpoint.json member")
    with open(tmp_path / "huge.zip", "wb") as f:  # sparse: nothing is written or read
        f.truncate((1 << 30) + 1)
    refused(tmp_path / "huge.zip", env, "more than a checkpoint may be")


@pytest.mark.parametrize("change, match", [
    (lambda m: m.clear(), "format None"),
    (lambda m: m.update(format="gridiron-bot-v1"), "not a gridiron_env training checkpoint"),
    (lambda m: m.update(version=2), "version 2 is not one this code reads"),
    (lambda m: m.update(version=True), "version True"),
    (lambda m: m.pop("progress"), "lacks the field"),
    (lambda m: m.update(extra=1), "unknown field"),
    (lambda m: m.update(observation_size="212"), "observation_size must be an integer"),
    (lambda m: m.update(observation_size=211), "observations of 211 features"),
    (lambda m: m.update(action_count=290), "290 actions"),
    (lambda m: m.update(side="defence"), "checkpoint of the defence, not of the offence"),
    (lambda m: m.update(side="kicker"), "side must be"),
    (lambda m: m.update(algorithm="PPO"), "algorithm"),
    (lambda m: m.update(activation="relu"), "relu activations"),
    (lambda m: m.update(activation="os.system"), "activation must be a class name"),
    (lambda m: m.update(optimizer="SGD"), "SGD optimizer state"),
    (lambda m: m["net_arch"].update(pi=[16]), "net of layers"),
    (lambda m: m["net_arch"].update(pi=[0]), r"net_arch.pi\[0\] must be an integer"),
    (lambda m: m["net_arch"].update(vf="8"), "net_arch.vf must be a list"),
    (lambda m: m["hyperparameters"].update(gamma=1.5), "gamma must be a finite number in"),
    (lambda m: m["hyperparameters"].update(learning_rate=0), "learning_rate"),
    (lambda m: m["hyperparameters"].update(learning_rate=1e300), "learning_rate"),
    (lambda m: m["hyperparameters"].update(n_epochs=0), "n_epochs"),
    (lambda m: m["hyperparameters"].update(n_epochs=2.0), "n_epochs"),
    (lambda m: m["hyperparameters"].update(seed=-1), "seed"),
    (lambda m: m["hyperparameters"].update(seed=2**40), "seed"),
    (lambda m: m["hyperparameters"].pop("clip_range"), "lacks the field"),
    (lambda m: m["progress"].update(num_timesteps=-5), "num_timesteps"),
    (lambda m: m["progress"].update(num_timesteps=True), "num_timesteps"),
    (lambda m: m["progress"].update(rounds=10**30), "rounds"),
    (lambda m: m.update(progress=[1, 2]), "progress must be an object"),
    (lambda m: m.update(episodes=[[1.0, -1, 0.0]]), r"episodes\[0\]"),
    (lambda m: m.update(episodes=[[1.0, 2]]), r"episodes\[0\]"),
    (lambda m: m.update(episodes={"r": 1}), "episodes must be a list"),
    (lambda m: m.update(tensors=[]), "tensors must be an object"),
])
def test_bad_checkpoint_json_is_refused(trained, env, tmp_path, change, match):
    path = rewrite(trained[1], tmp_path / "offence.zip", meta=change)
    refused(path, env, match)


@pytest.mark.parametrize("raw, match", [
    (b"[1, 2]", "must hold an object"),
    (b"{\"format\": ", "not valid JSON"),
    (b"\xff\xfe{}", "not valid JSON"),
    (b"{\"format\": NaN}", "not valid JSON"),
    (b"{\"format\": Infinity}", "Infinity is not a number"),
    (b"{\"format\": 1, \"format\": 2}", "duplicate key"),
    pytest.param(b"[" * 100_000, "not valid JSON", id="nested-100000-deep"),
])
def test_checkpoint_json_that_is_not_a_json_object_is_refused(trained, env, tmp_path, raw, match):
    path = rewrite(trained[1], tmp_path / "offence.zip", members=lambda e: e.update({JSON_MEMBER: raw}))
    refused(path, env, match)


def test_a_checkpoint_of_the_other_side_or_another_net_is_refused(trained, tmp_path):
    defence_env = make_env("defence")
    defence = make_model(defence_env, CFG, None)
    save_checkpoint(tmp_path / "defence.zip", defence, "defence")
    refused(tmp_path / "defence.zip", None, "checkpoint of the defence, not of the offence")
    load(tmp_path / "defence.zip", defence_env, side="defence")  # where it belongs it loads
    (tmp_path / "offence.zip").write_bytes(trained[1])
    refused(tmp_path / "offence.zip", None, r"net of layers .*'pi': \[8\].* this run builds .*'pi': \[8, 8\]",
            cfg=dataclasses.replace(CFG, net_arch=(8, 8)))


def test_bad_tensors_are_refused(trained, env, tmp_path):
    data = trained[1]
    weight = "policy/action_net.weight"
    moment = "optimizer/action_net.weight/exp_avg_sq"

    def nan_in(name, value=np.nan, dtype="<f4"):
        def change(entries):
            array = np.frombuffer(entries[name], dtype=dtype).copy()
            array[min(1, array.size - 1)] = value
            entries[name] = array.tobytes()
        return change

    cases = [
        (dict(members=nan_in(weight)), "policy/action_net.weight holds non-finite values"),
        (dict(members=nan_in(weight, np.inf)), "non-finite"),
        (dict(members=nan_in(moment, -1.0)), "negative second moments"),
        (dict(members=nan_in("optimizer/action_net.bias/step", -4.0)), "whole step count"),
        (dict(members=nan_in("optimizer/action_net.bias/step", 0.5)), "whole step count"),
        (dict(members=lambda e: e.update({weight: e[weight][:-4]})), "its tensor needs"),
        (dict(members=lambda e: e.update({weight: e[weight] + b"\0" * 4})), "its tensor needs"),
        (dict(meta=lambda m: m["tensors"][weight].update(shape=[8, 291])), r"is float32 \[8, 291\]; the model's"),
        (dict(meta=lambda m: m["tensors"][weight].update(dtype="float64")), "is float64"),
        (dict(meta=lambda m: m["tensors"][weight].update(dtype="object")), "dtype must be one of"),
        (dict(meta=lambda m: m["tensors"][weight].update(shape=[-1])), r"shape\[0\] must be an integer"),
        (dict(members=lambda e: e.pop(weight), meta=lambda m: m["tensors"].pop(weight)), "lacks the tensor"),
        (dict(members=lambda e: e.pop(moment), meta=lambda m: m["tensors"].pop(moment)), "lacks the tensor"),
        (dict(members=lambda e: e.pop(weight)), "listed in checkpoint.json but absent"),
        (dict(members=lambda e: e.update({"policy/extra.weight": b"\0" * 4})), "not listed in checkpoint.json"),
        (dict(members=lambda e: e.update({"policy/extra.weight": b"\0" * 4}),
              meta=lambda m: m["tensors"].update({"policy/extra.weight": {"dtype": "float32", "shape": [1]}})),
         "which the offence model does not have"),
    ]
    for change, match in cases:
        path = rewrite(data, tmp_path / "offence.zip", **change)
        refused(path, env, match)


def test_a_member_whose_header_claims_800_gb_is_refused_before_reading(trained, env, tmp_path):
    for name in ("policy/action_net.weight", JSON_MEMBER):
        path = tmp_path / "offence.zip"
        with zipfile.ZipFile(io.BytesIO(trained[1])) as source, zipfile.ZipFile(path, "w") as archive:
            for info in source.infolist():
                archive.writestr(info.filename, source.read(info.filename))
            archive.getinfo(name).file_size = 800 * 10**9  # the central directory (zip64) will claim 800 GB
        with zipfile.ZipFile(path) as check:
            assert check.getinfo(name).file_size == 800 * 10**9
        refused(path, env, f"member {name} is 800,000,000,000 bytes")


def test_duplicate_and_compressed_members(trained, env, tmp_path):
    path = tmp_path / "offence.zip"
    path.write_bytes(trained[1])
    with pytest.warns(UserWarning, match="Duplicate name"), zipfile.ZipFile(path, "a") as archive:
        archive.writestr(JSON_MEMBER, b"{}")
    refused(path, env, "holds the member 'checkpoint.json' twice")
    # deflated members are read too (a checkpoint rezipped by a tool is still one)
    path = rewrite(trained[1], tmp_path / "deflated.zip", compression=zipfile.ZIP_DEFLATED)
    model, _ = load(path, env)
    assert same_state(model.policy.state_dict(), trained[0].policy.state_dict())


# --- fuzzing ----------------------------------------------------------------------------------------------------

def _structure_offsets(data: bytes) -> list[int]:
    """Byte offsets of the zip's structure (local headers, central directory, end record) and of
    checkpoint.json: where a flip meets the parser rather than a CRC-checked payload."""
    offsets = set()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for info in archive.infolist():
            offsets.update(range(info.header_offset, info.header_offset + 30 + len(info.filename)))
            if info.filename == JSON_MEMBER:
                start = info.header_offset + 30 + len(info.filename)
                offsets.update(range(start, start + info.file_size))
        central = archive.start_dir
    offsets.update(range(central, len(data)))
    return sorted(offsets)


def _check_outcome(path, env, original):
    try:
        model, meta = load(path, env)
    except CheckpointError as err:
        assert str(err).startswith(f"{path}: ") and "\n" not in str(err)
        return
    # accepted: then it is the original model (a changed tensor cannot pass its CRC and checks)
    assert same_state(model.policy.state_dict(), original.policy.state_dict())
    assert all(torch.isfinite(p).all() for p in model.policy.parameters())
    assert meta["side"] == "offence"


@settings(max_examples=120, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.data())
def test_fuzz_flipped_and_truncated_bytes_load_or_raise_checkpoint_error(trained, env, tmp_path, data):
    original, raw = trained
    structure = _structure_offsets(raw)
    mutated = bytearray(raw)
    flips = data.draw(st.lists(st.tuples(st.one_of(st.sampled_from(structure), st.integers(0, len(raw) - 1)),
                                         st.integers(1, 255)), min_size=0, max_size=6), label="flips")
    for offset, mask in flips:
        mutated[offset] ^= mask
    cut = data.draw(st.one_of(st.none(), st.integers(0, len(raw))), label="truncate at")
    if cut is not None:
        mutated = mutated[:cut]
    path = tmp_path / "offence.zip"
    path.write_bytes(bytes(mutated))
    _check_outcome(path, env, original)


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6)


def _paths(obj, prefix=()):
    yield prefix
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield from _paths(value, prefix + (key,))
    elif isinstance(obj, list):
        for i, value in enumerate(obj[:3]):
            yield from _paths(value, prefix + (i,))


@settings(max_examples=100, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.data())
def test_fuzz_any_json_value_anywhere_in_checkpoint_json_loads_or_raises_checkpoint_error(trained, env, tmp_path,
                                                                                          data):
    """checkpoint.json with one value replaced by any JSON (CRC recomputed, so the parser sees it)."""
    original, raw = trained
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        meta = json.loads(archive.read(JSON_MEMBER))
    where = data.draw(st.sampled_from([p for p in _paths(meta) if p]), label="path")
    value = data.draw(_json_values, label="value")

    def change(obj):
        for key in where[:-1]:
            obj = obj[key]
        obj[where[-1]] = value

    path = rewrite(raw, tmp_path / "offence.zip", meta=change)
    _check_outcome(path, env, original)
