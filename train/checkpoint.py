"""Training checkpoints that hold only tensors and JSON, so that loading one can never run code.

A checkpoint is a zip archive (stored, not compressed) with these members::

    checkpoint.json                      settings, counters and the list of tensors (below)
    policy/<state_dict key>              one tensor of the policy's ``state_dict``
    optimizer/<parameter name>/<key>     one tensor of the optimizer's state for that parameter

Each tensor member is the tensor's raw bytes, little-endian, C order; its dtype and shape are listed in
``checkpoint.json`` under ``tensors``. Nothing is pickled: ``torch.load``, ``pickle`` and SB3's ``load`` are
never called on a checkpoint. Loading reads ``checkpoint.json`` (size capped), checks every field's type and
range and that the checkpoint fits the model wanted (side, observation size, action count, net), builds a
fresh model from the project's own code, then checks every member's name and size against that model
before reading it (so no header can make us allocate more than the model itself), every tensor's dtype,
shape and finiteness, and only then copies the tensors in. Any problem raises ``CheckpointError`` with one
line naming the file.

``checkpoint.json`` fields::

    format           "gridiron_env.train.checkpoint"      version  1
    side             "offence" or "defence"                 algorithm  "MaskablePPO"
    observation_size int, length of the observation         action_count  int, size of the action space
    net_arch         {"pi": [widths], "vf": [widths]}       activation  "tanh", "relu", ...
    optimizer        class name of the policy's optimizer ("Adam")
    hyperparameters  learning_rate, n_epochs, gamma, gae_lambda, clip_range, ent_coef, seed (int or null)
    progress         num_timesteps (learner steps so far), n_updates (gradient steps), episode_num,
                     rounds (self-play rounds this side has finished)
    episodes         recent episode statistics [[reward, length, seconds], ...] (the live figures)
    tensors          {member name: {"dtype": "float32", "shape": [rows, columns]}}
"""

from __future__ import annotations

import json
import math
import os
import struct
import zipfile
import zlib
from collections import deque
from pathlib import Path

import numpy as np

FORMAT = "gridiron_env.train.checkpoint"
VERSION = 1
JSON_MEMBER = "checkpoint.json"
SIDES = ("offence", "defence")
ALGORITHM = "MaskablePPO"
# Caps checked before anything is read: the whole file, checkpoint.json, and the number of members (a
# default-net checkpoint is about 4 MB with ~50 members; a tensor member must be exactly its tensor's size).
MAX_FILE_BYTES = 1 << 30
MAX_JSON_BYTES = 1 << 20
MAX_MEMBERS = 10_000
MAX_EPISODES = 10_000
MAX_COUNT = 1 << 62
MAX_LAYERS = 64
MAX_WIDTH = 1 << 16
# Members of a stable-baselines3 archive (``model.save``): its "data" member holds cloudpickled objects.
SB3_MEMBERS = {"data", "policy.pth", "policy.optimizer.pth", "pytorch_variables.pth", "_stable_baselines3_version"}
# dtype names in checkpoint.json -> little-endian numpy dtype (torch dtypes are matched by name)
_DTYPES = {"float16": "<f2", "float32": "<f4", "float64": "<f8", "int8": "|i1", "uint8": "|u1", "int16": "<i2",
           "int32": "<i4", "int64": "<i8", "bool": "|b1"}
_HYPERPARAMETERS = ("learning_rate", "n_epochs", "gamma", "gae_lambda", "clip_range", "ent_coef", "seed")
_PROGRESS = ("num_timesteps", "n_updates", "episode_num", "rounds")
_FIELDS = ("format", "version", "side", "algorithm", "observation_size", "action_count", "net_arch", "activation",
           "optimizer", "hyperparameters", "progress", "episodes", "tensors")
# What a damaged archive can raise from zipfile / zlib / lzma / bz2 while it is opened or a member read.
_ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, OSError, ValueError, struct.error,
               NotImplementedError, RuntimeError, KeyError, IndexError, OverflowError, UnicodeError)
try:
    import lzma

    _ZIP_ERRORS += (lzma.LZMAError,)
except ImportError:  # a Python built without lzma cannot open lzma members at all
    pass


class CheckpointError(ValueError):
    """A checkpoint that is missing, corrupt, foreign, or does not fit the model being resumed. The message
    is one line: the file, then the problem."""

    def __init__(self, path, problem: str):
        self.path = str(path)
        self.problem = " ".join(str(problem).split())  # one line whatever the cause's text
        super().__init__(f"{self.path}: {self.problem}")


# --- the model's side of the format -----------------------------------------------------------------------

def _dtype_name(dtype) -> str:
    """The checkpoint name of a torch dtype ("float32"), or "" if the format has no such dtype."""
    name = str(dtype).removeprefix("torch.")
    return name if name in _DTYPES else ""


def _parameter_names(model) -> list[str]:
    """Names of the optimizer's parameters in its own index order (the order of its ``state_dict``)."""
    names = {id(p): name for name, p in model.policy.named_parameters()}
    ordered = []
    for group in model.policy.optimizer.param_groups:
        for p in group["params"]:
            if id(p) not in names:
                raise ValueError("the optimizer holds a parameter that is not the policy's")
            ordered.append(names[id(p)])
    return ordered


def _optimizer_template(model) -> dict[int, dict[str, "object"]]:
    """The state one step of the model's optimizer creates, per parameter index: ``{key: tensor}``.

    Built by one step of a same-class optimizer over zero copies of the parameters, so the expected keys,
    dtypes and shapes come from torch itself (Adam: ``step`` float32 [], ``exp_avg``, ``exp_avg_sq``)."""
    import torch

    optimizer = model.policy.optimizer
    groups = []
    for group in optimizer.param_groups:
        copies = [torch.zeros_like(p, requires_grad=True) for p in group["params"]]
        groups.append({**{k: v for k, v in group.items() if k != "params"}, "params": copies})
    probe = type(optimizer)(groups)
    for group in groups:
        for p in group["params"]:
            p.grad = torch.zeros_like(p)
    probe.step()
    return probe.state_dict()["state"]


def _expected_tensors(model) -> dict[str, tuple[tuple[str, tuple[int, ...]], ...]]:
    """Member name -> (dtype name, shape) for every tensor a checkpoint of ``model`` holds, split into the
    policy's (always all present) and, per optimizer parameter, its state (all or none per checkpoint)."""
    def spec(name, t):
        if not _dtype_name(t.dtype):
            raise ValueError(f"the model's tensor {name} has dtype {t.dtype}, which checkpoints do not hold")
        return _dtype_name(t.dtype), tuple(t.shape)

    policy = {f"policy/{key}": spec(key, t) for key, t in model.policy.state_dict().items()}
    names = _parameter_names(model)
    optimizer = {}
    for index, state in _optimizer_template(model).items():
        for key, t in state.items():
            name = f"optimizer/{names[index]}/{key}"
            optimizer[name] = spec(name, t)
    return {"policy": policy, "optimizer": optimizer}


def _net_arch(model) -> dict:
    arch = model.policy.net_arch
    if isinstance(arch, dict):
        return {"pi": [int(w) for w in arch.get("pi", [])], "vf": [int(w) for w in arch.get("vf", [])]}
    return {"pi": [int(w) for w in arch], "vf": [int(w) for w in arch]}


def _activation(model) -> str:
    return model.policy.activation_fn.__name__.lower()


def _constant(schedule, name: str) -> float:
    """The value of a constant SB3 schedule (the project's learning rate and clip range are constants)."""
    start, end = float(schedule(1.0)), float(schedule(0.0))
    if start != end:
        raise ValueError(f"{name} is a schedule ({start} -> {end}); only constants are saved")
    return start


def describe(model, side: str, rounds: int = 0) -> tuple[dict, dict[str, np.ndarray]]:
    """The ``checkpoint.json`` object and the tensors (member name -> little-endian numpy array) of a
    MaskablePPO ``model`` playing ``side``."""
    import torch

    policy = model.policy
    hyper = {
        "learning_rate": _constant(model.lr_schedule, "learning_rate"),
        "n_epochs": int(model.n_epochs), "gamma": float(model.gamma), "gae_lambda": float(model.gae_lambda),
        "clip_range": _constant(model.clip_range, "clip_range"), "ent_coef": float(model.ent_coef),
        "seed": None if model.seed is None else int(model.seed),
    }
    tensors: dict[str, np.ndarray] = {}
    specs: dict[str, dict] = {}

    def add(name, t):
        dtype = _dtype_name(t.dtype)
        if not dtype:
            raise ValueError(f"tensor {name} has dtype {t.dtype}, which checkpoints do not hold")
        array = t.detach().cpu().contiguous().numpy().astype(_DTYPES[dtype], copy=False)
        tensors[name] = array
        specs[name] = {"dtype": dtype, "shape": list(array.shape)}

    for key, t in policy.state_dict().items():
        add(f"policy/{key}", t)
    names = _parameter_names(model)
    stepped = policy.optimizer.state_dict()["state"]
    if stepped:
        # a parameter the optimizer has not stepped yet (frozen so far: train.selfplay's critic-only first
        # round) is saved with the state it would start from: step 0 and zero moments (for Adam the same
        # updates as no state), so a checkpoint holds every parameter's state or none
        for index, template in _optimizer_template(model).items():
            state = stepped.get(index) or {key: torch.zeros_like(t) for key, t in template.items()}
            for key, t in state.items():
                add(f"optimizer/{names[index]}/{key}", t)
    episodes = [[float(e["r"]), int(e["l"]), float(e["t"])] for e in (model.ep_info_buffer or [])]
    meta = {
        "format": FORMAT, "version": VERSION, "side": side, "algorithm": ALGORITHM,
        "observation_size": int(np.prod(model.observation_space.shape)), "action_count": int(model.action_space.n),
        "net_arch": _net_arch(model), "activation": _activation(model),
        "optimizer": type(policy.optimizer).__name__, "hyperparameters": hyper,
        "progress": {"num_timesteps": int(model.num_timesteps), "n_updates": int(model._n_updates),
                     "episode_num": int(model._episode_num), "rounds": int(rounds)},
        "episodes": episodes, "tensors": specs,
    }
    return meta, tensors


# --- checkpoint.json ---------------------------------------------------------------------------------------

def _fail(path, problem):
    raise CheckpointError(path, problem)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value) -> bool:
    return (_is_int(value) or isinstance(value, float)) and math.isfinite(value)


def _check_keys(path, where: str, obj, keys) -> None:
    if not isinstance(obj, dict):
        _fail(path, f"checkpoint.json field {where} must be an object, got {type(obj).__name__}")
    missing = [k for k in keys if k not in obj]
    unknown = sorted(set(obj) - set(keys))
    if missing:
        _fail(path, f"checkpoint.json {where} lacks the field(s) {', '.join(missing)}")
    if unknown:
        _fail(path, f"checkpoint.json {where} has unknown field(s) {', '.join(unknown)}")


def _check_int(path, where: str, value, low: int, high: int) -> int:
    if not _is_int(value) or not low <= value <= high:
        _fail(path, f"checkpoint.json field {where} must be an integer in [{low}, {high}], got {value!r:.80}")
    return value


def _check_number(path, where: str, value, low: float, high: float, low_open: bool = False) -> float:
    ok = _is_number(value) and (low < value if low_open else low <= value) and value <= high
    if not ok:
        bounds = f"{'(' if low_open else '['}{low:g}, {high:g}]"
        _fail(path, f"checkpoint.json field {where} must be a finite number in {bounds}, got {value!r:.80}")
    return float(value)


def _no_duplicates(pairs):
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise ValueError(f"duplicate key {key!r}")
        obj[key] = value
    return obj


def _reject_constant(name):
    raise ValueError(f"{name} is not a number JSON allows")


def parse_meta(path, raw: bytes) -> dict:
    """Decode and check ``checkpoint.json`` (types and ranges of every field; nothing about a model)."""
    try:
        meta = json.loads(raw.decode("utf-8"), object_pairs_hook=_no_duplicates, parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as err:
        _fail(path, f"checkpoint.json is not valid JSON: {err}")
    if not isinstance(meta, dict):
        _fail(path, f"checkpoint.json must hold an object, got {type(meta).__name__}")
    if meta.get("format") != FORMAT:
        _fail(path, f"not a gridiron_env training checkpoint (checkpoint.json format {meta.get('format')!r:.80}, "
                    f"expected {FORMAT!r})")
    version = meta.get("version")
    if not _is_int(version) or version != VERSION:
        _fail(path, f"checkpoint version {version!r:.40} is not one this code reads (it reads {VERSION})")
    _check_keys(path, "the top level", meta, _FIELDS)
    if meta["side"] not in SIDES:
        _fail(path, f"checkpoint.json field side must be 'offence' or 'defence', got {meta['side']!r:.80}")
    if meta["algorithm"] != ALGORITHM:
        _fail(path, f"checkpoint.json field algorithm must be {ALGORITHM!r}, got {meta['algorithm']!r:.80}")
    _check_int(path, "observation_size", meta["observation_size"], 1, 1 << 24)
    _check_int(path, "action_count", meta["action_count"], 1, 1 << 24)
    _check_keys(path, "net_arch", meta["net_arch"], ("pi", "vf"))
    for part in ("pi", "vf"):
        widths = meta["net_arch"][part]
        if not isinstance(widths, list) or len(widths) > MAX_LAYERS:
            _fail(path, f"checkpoint.json field net_arch.{part} must be a list of at most {MAX_LAYERS} widths")
        for i, width in enumerate(widths):
            _check_int(path, f"net_arch.{part}[{i}]", width, 1, MAX_WIDTH)
    for name in ("activation", "optimizer"):
        value = meta[name]
        if not isinstance(value, str) or not value.isidentifier() or len(value) > 64:
            _fail(path, f"checkpoint.json field {name} must be a class name, got {value!r:.80}")
    hyper = meta["hyperparameters"]
    _check_keys(path, "hyperparameters", hyper, _HYPERPARAMETERS)
    _check_number(path, "hyperparameters.learning_rate", hyper["learning_rate"], 0.0, 1e3, low_open=True)
    _check_int(path, "hyperparameters.n_epochs", hyper["n_epochs"], 1, 1 << 20)
    _check_number(path, "hyperparameters.gamma", hyper["gamma"], 0.0, 1.0)
    _check_number(path, "hyperparameters.gae_lambda", hyper["gae_lambda"], 0.0, 1.0)
    _check_number(path, "hyperparameters.clip_range", hyper["clip_range"], 0.0, 1e6, low_open=True)
    _check_number(path, "hyperparameters.ent_coef", hyper["ent_coef"], -1e6, 1e6)
    if hyper["seed"] is not None:
        _check_int(path, "hyperparameters.seed", hyper["seed"], 0, 2**32 - 1)  # numpy's seeding range
    progress = meta["progress"]
    _check_keys(path, "progress", progress, _PROGRESS)
    for name in _PROGRESS:
        _check_int(path, f"progress.{name}", progress[name], 0, MAX_COUNT)
    episodes = meta["episodes"]
    if not isinstance(episodes, list) or len(episodes) > MAX_EPISODES:
        _fail(path, f"checkpoint.json field episodes must be a list of at most {MAX_EPISODES} entries")
    for i, episode in enumerate(episodes):
        if not (isinstance(episode, list) and len(episode) == 3 and _is_number(episode[0])
                and _is_int(episode[1]) and 0 <= episode[1] <= MAX_COUNT and _is_number(episode[2])
                and episode[2] >= 0):
            _fail(path, f"checkpoint.json field episodes[{i}] must be [reward, length, seconds] (finite "
                        f"numbers, length an integer >= 0, seconds >= 0), got {episode!r:.80}")
    tensors = meta["tensors"]
    if not isinstance(tensors, dict) or len(tensors) > MAX_MEMBERS:
        _fail(path, f"checkpoint.json field tensors must be an object of at most {MAX_MEMBERS} entries")
    for name, spec in tensors.items():
        where = f"tensors[{name!r:.80}]"
        _check_keys(path, where, spec, ("dtype", "shape"))
        if not isinstance(spec["dtype"], str) or spec["dtype"] not in _DTYPES:
            _fail(path, f"checkpoint.json {where}.dtype must be one of {', '.join(_DTYPES)}, "
                        f"got {spec['dtype']!r:.40}")
        shape = spec["shape"]
        if not isinstance(shape, list) or len(shape) > 8:
            _fail(path, f"checkpoint.json {where}.shape must be a list of at most 8 sizes")
        for i, size in enumerate(shape):
            _check_int(path, f"{where}.shape[{i}]", size, 0, 1 << 40)
    return meta


# --- the archive --------------------------------------------------------------------------------------------

def _open_archive(path: Path) -> zipfile.ZipFile:
    """Open ``path`` as a zip after checking it is a regular file of a sane size; refuse SB3 archives."""
    try:
        info = path.stat()
    except FileNotFoundError:
        _fail(path, "no such file")
    except OSError as err:
        _fail(path, f"cannot be read: {err}")
    if not path.is_file():
        _fail(path, "is not a regular file")
    if info.st_size > MAX_FILE_BYTES:
        _fail(path, f"is {info.st_size:,} bytes, more than a checkpoint may be ({MAX_FILE_BYTES:,})")
    try:
        archive = zipfile.ZipFile(path)
    except _ZIP_ERRORS as err:
        _fail(path, f"not a checkpoint: not a readable zip archive (truncated, or another kind of file): {err}")
    try:
        infos = archive.infolist()
        names = [i.filename for i in infos]
        if len(infos) > MAX_MEMBERS:
            _fail(path, f"has {len(infos):,} members, more than a checkpoint may have ({MAX_MEMBERS:,})")
        if JSON_MEMBER not in names and SB3_MEMBERS & set(names):
            _fail(path, "is a stable-baselines3 archive (from model.save), not a gridiron_env checkpoint; it is not "
                        "read, because its pickled 'data' member can carry code that would run on loading. "
                        "Delete or move it away to start a fresh run")
        if len(set(names)) != len(names):
            duplicate = next(n for n in names if names.count(n) > 1)
            _fail(path, f"holds the member {duplicate!r:.80} twice")
        if JSON_MEMBER not in names:
            _fail(path, f"not a checkpoint: the zip has no {JSON_MEMBER} member")
    except CheckpointError:
        archive.close()
        raise
    return archive


def _read_member(path, archive: zipfile.ZipFile, name: str, size: int | None, cap: int) -> bytes:
    """A member's bytes; its declared size must be ``size`` (or at most ``cap``), checked before reading."""
    info = archive.getinfo(name)
    if size is not None and info.file_size != size:
        _fail(path, f"member {name} is {info.file_size:,} bytes; its tensor needs {size:,}")
    if info.file_size > cap:
        _fail(path, f"member {name} is {info.file_size:,} bytes, more than allowed ({cap:,})")
    try:
        with archive.open(info) as member:
            data = member.read(info.file_size + 1)
    except _ZIP_ERRORS as err:
        _fail(path, f"member {name} cannot be read (corrupt archive): {err}")
    if len(data) != info.file_size:
        _fail(path, f"member {name} holds {len(data):,} bytes, its header says {info.file_size:,} (corrupt archive)")
    return data


def _decode_tensor(path, name: str, data: bytes, dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    array = np.frombuffer(data, dtype=np.dtype(_DTYPES[dtype])).reshape(shape)
    if dtype == "bool" and np.frombuffer(data, dtype=np.uint8).max(initial=0) > 1:
        _fail(path, f"tensor {name} holds bool bytes other than 0 and 1")
    if array.dtype.kind == "f" and not np.isfinite(array).all():
        _fail(path, f"tensor {name} holds non-finite values (NaN or infinity)")
    return array


def _check_optimizer_values(path, name: str, array: np.ndarray) -> None:
    """Adam's invariants: a whole, non-negative step count and non-negative second moments (a negative one
    would turn the next update into NaN)."""
    key = name.rsplit("/", 1)[-1]
    if key == "step":
        steps = array.astype(np.float64).reshape(-1)
        if (steps < 0).any() or (steps != np.floor(steps)).any():
            _fail(path, f"tensor {name} must be a whole step count >= 0, got {steps[:1]}")
    if key in ("exp_avg_sq", "max_exp_avg_sq") and (array < 0).any():
        _fail(path, f"tensor {name} holds negative second moments")


def _check_fit(path, meta: dict, side: str, net_arch: dict, activation: str) -> None:
    """The checkpoint is for this side and this net (checked before any model is built)."""
    if meta["side"] != side:
        _fail(path, f"is a checkpoint of the {meta['side']}, not of the {side}")
    if meta["net_arch"] != net_arch:
        _fail(path, f"holds a net of layers {meta['net_arch']}, this run builds {net_arch}")
    if meta["activation"] != activation:
        _fail(path, f"holds a net with {meta['activation']} activations, this run builds {activation}")


def _check_model_fit(path, meta: dict, model) -> None:
    """The checkpoint fits the built model: observation and action sizes, net, optimizer."""
    observation_size = int(np.prod(model.observation_space.shape))
    if meta["observation_size"] != observation_size:
        _fail(path, f"was trained on observations of {meta['observation_size']} features; this game's have "
                    f"{observation_size}")
    action_count = int(model.action_space.n)
    if meta["action_count"] != action_count:
        _fail(path, f"was trained with {meta['action_count']} actions; this game has {action_count}")
    _check_fit(path, meta, meta["side"], _net_arch(model), _activation(model))
    optimizer = type(model.policy.optimizer).__name__
    if meta["optimizer"] != optimizer:
        _fail(path, f"holds {meta['optimizer']} optimizer state; the model uses {optimizer}")


def load_checkpoint(path, side: str, build, net_arch, activation: str = "tanh"):
    """Read the checkpoint at ``path`` into a fresh model; returns ``(model, meta)``.

    ``build(hyperparameters)`` makes that model from the project's own code (a MaskablePPO with the given
    ``checkpoint.json`` hyperparameters); ``side``, ``net_arch`` (widths, or ``{"pi": [...], "vf": [...]}``)
    and ``activation`` are what the checkpoint must be for; observation and action sizes come from the built
    model. Raises ``CheckpointError`` naming the file for anything wrong; nothing is copied into the model
    until every member has passed."""
    import torch

    path = Path(path)
    if side not in SIDES:
        raise ValueError(f"side must be 'offence' or 'defence', got {side!r}")
    if not isinstance(net_arch, dict):
        net_arch = {"pi": [int(w) for w in net_arch], "vf": [int(w) for w in net_arch]}
    with _open_archive(path) as archive:
        meta = parse_meta(path, _read_member(path, archive, JSON_MEMBER, None, MAX_JSON_BYTES))
        _check_fit(path, meta, side, net_arch, activation)
        model = build(dict(meta["hyperparameters"]))
        _check_model_fit(path, meta, model)
        expected = _expected_tensors(model)
        listed = meta["tensors"]
        members = set(archive.namelist()) - {JSON_MEMBER}
        if set(listed) != members:
            extra, absent = sorted(members - set(listed)), sorted(set(listed) - members)
            _fail(path, f"member {(extra or absent)[0]!r:.120} is {'not listed in' if extra else 'listed in'} "
                        f"checkpoint.json{'' if extra else ' but absent from the archive'}")
        wanted = dict(expected["policy"])
        if any(name.startswith("optimizer/") for name in listed):  # optimizer state: none, or all of it
            wanted.update(expected["optimizer"])
        unknown = sorted(set(listed) - set(wanted))
        missing = sorted(set(wanted) - set(listed))
        if unknown:
            _fail(path, f"holds the tensor {unknown[0]!r:.120}, which the {side} model does not have")
        if missing:
            _fail(path, f"lacks the tensor {missing[0]!r:.120}")
        arrays = {}
        for name, (dtype, shape) in wanted.items():
            spec = listed[name]
            if spec["dtype"] != dtype or tuple(spec["shape"]) != shape:
                _fail(path, f"tensor {name} is {spec['dtype']} {spec['shape']}; the model's is {dtype} {list(shape)}")
            size = int(np.prod(shape, dtype=np.int64)) * np.dtype(_DTYPES[dtype]).itemsize
            arrays[name] = _decode_tensor(path, name, _read_member(path, archive, name, size, size), dtype, shape)
            if name.startswith("optimizer/"):
                _check_optimizer_values(path, name, arrays[name])

    # every member passed: copy the tensors in
    policy = model.policy
    state = {key: torch.from_numpy(arrays[f"policy/{key}"].copy()) for key in policy.state_dict()}
    policy.load_state_dict(state, strict=True)
    names = _parameter_names(model)
    optimizer_state = policy.optimizer.state_dict()
    optimizer_state["state"] = {}
    if len(wanted) > len(expected["policy"]):
        for index, template in _optimizer_template(model).items():
            optimizer_state["state"][index] = {
                key: torch.from_numpy(arrays[f"optimizer/{names[index]}/{key}"].copy()) for key in template}
    policy.optimizer.load_state_dict(optimizer_state)
    progress = meta["progress"]
    model.num_timesteps = progress["num_timesteps"]
    model._n_updates = progress["n_updates"]
    model._episode_num = progress["episode_num"]
    window = model._stats_window_size
    model.ep_info_buffer = deque(({"r": r, "l": n, "t": t} for r, n, t in meta["episodes"]), maxlen=window)
    model.ep_success_buffer = deque(maxlen=window)
    return model, meta


def save_checkpoint(path, model, side: str, rounds: int = 0) -> None:
    """Write ``model``'s checkpoint to ``path`` atomically (a temporary file, then a rename), so a crash
    mid-write leaves the previous checkpoint. Raises ``CheckpointError`` (and writes nothing) if the model's
    weights are not finite or its checkpoint would not pass ``parse_meta``."""
    path = Path(path)
    if side not in SIDES:
        raise ValueError(f"side must be 'offence' or 'defence', got {side!r}")
    try:
        meta, tensors = describe(model, side, rounds)
    except ValueError as err:
        _fail(path, f"not saved: {err}")
    try:
        raw = json.dumps(meta, indent=1, allow_nan=False).encode("utf-8")
    except ValueError as err:
        _fail(path, f"not saved: a setting or episode statistic is not finite ({err})")
    parse_meta(path, raw)  # what load would refuse is not written
    for name, array in tensors.items():
        if array.dtype.kind == "f" and not np.isfinite(array).all():
            _fail(path, f"not saved: tensor {name} holds non-finite values (NaN or infinity)")
    temporary = path.with_name(f".{path.name}.{os.getpid()}.partial")
    stamp = (1980, 1, 1, 0, 0, 0)  # fixed, so the same model always gives the same bytes
    try:
        with zipfile.ZipFile(temporary, "w", compression=zipfile.ZIP_STORED) as archive:
            archive.writestr(zipfile.ZipInfo(JSON_MEMBER, stamp), raw)
            for name, array in tensors.items():
                archive.writestr(zipfile.ZipInfo(name, stamp), np.ascontiguousarray(array).tobytes())
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
