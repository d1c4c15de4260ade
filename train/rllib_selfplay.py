"""Self-play training of the offence and defence policies on Ray RLlib, locally or on a Ray cluster.

    pip install -e ".[rllib]"                                # Ray RLlib (pins gymnasium 1.2.2: use a venv)
    python -m train.rllib_selfplay --minutes 10              # a local Ray runtime
    python -m train.rllib_selfplay --address auto --env-runners 32 --minutes 60   # an existing cluster

PPO (RLlib's new API stack) trains two policies, ``offence`` and ``defence``, at once, each against the
other, on whole games of Gridiron cut into drives (``train.rllib_env``: the project's PettingZoo env, one
RLlib episode per drive, rewards the drive envs'), with action masking (RLlib's
``ActionMaskingTorchRLModule``: illegal actions get no probability). Env runners sample in parallel on
the Ray runtime (``--env-runners`` actors of ``--envs-per-runner`` games each); the learner updates in
the driver (or on ``--learners`` remote learner actors). The project's code is shipped to every worker
(Ray's ``py_modules``); each node needs the extra installed.

Budget: ``--minutes`` (wall clock from the start to the end of the last iteration, at least one) and/or
``--iterations`` (0: no cap), whichever comes first. After every iteration both policies' weights go to
``rllib_checkpoint.npz`` (tensors and JSON only, never unpickled; RLlib's own checkpoints are pickles and
are not used); a rerun on the same ``--out`` resumes from it (the weights and counters; Adam's moments
start afresh). At the end the pair is exported into the project's numpy bot format (``bot.npz``: the
actor nets are MLPs over the features observation, as the bot's) and evaluated exactly as
``train.selfplay`` does (``train.selfplay.evaluate``): the table it prints, also in ``evaluation.md``.

Outputs in ``--out``: ``rllib_checkpoint.npz``, ``bot.npz``, ``evaluation.md``, ``rllib_config.json``,
``summary.json``. A checkpoint that is corrupt or does not fit the nets is refused: one line naming the
file, exit status 1, nothing in ``--out`` changed. Without ray installed the command prints one line
naming the extra and exits with status 1.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
import re
import sys
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from train.selfplay import TrainConfig as _MainJob
from train.settings import check_choice, check_int, check_number

SIDES = ("offence", "defence")
ACTIVATIONS = ("tanh", "relu")
OPPONENT_SETS = ("panel", "heuristic")
INSTALL_HINT = 'pip install -e ".[rllib]"'
CHECKPOINT_NAME = "rllib_checkpoint.npz"
CHECKPOINT_FORMAT = "gridiron_env.train.rllib_checkpoint"
CHECKPOINT_VERSION = 1
MAX_CHECKPOINT_BYTES = 1 << 30
_META_KEY = "meta"
# How long an iteration waits for its samples (RLlib's default, 60 s, ends an iteration with no samples
# at all on a busy machine, and then nothing is learnt)
SAMPLE_TIMEOUT_S = 900.0


@dataclass(frozen=True)
class RllibConfig:
    """Settings of an RLlib run. Units: steps are env steps (one agent action each), over all env runners.

    minutes / iterations: the budget (see the module docstring); iterations 0 means no cap.
    address: a Ray cluster to join (``ray.init(address=...)``, e.g. "auto" on a cluster node, or
        "ray://head:10001"); None starts a local Ray runtime of ``num_cpus`` CPUs (None: all).
    env_runners / envs_per_runner: sampling actors, and games each steps at once (0 runners: sample in the
        driver).
    learners: remote learner actors (0: the learner runs in the driver).
    train_batch_size: env steps per training iteration (per learner); minibatch_size, num_epochs: the SGD
        passes over it.
    net_arch / activation: the hidden layers of each policy's actor (and of its separate critic).
    field_position_weight: the drive reward's weight of the field position a drive leaves (see
        ``train.rllib_env``).
    eval_games: games against each baseline in the final evaluation (even: both teams balanced), 0 none.
    level_games: games (even) per opponent and probed temperature when the bot's levels are measured
        and stored in it (``train.levels``), 0 keeps the default levels.
    threads: torch threads of the driver (the learner).
    """

    seed: int = 0
    minutes: float = _MainJob.minutes
    iterations: int = 0
    address: str | None = None
    num_cpus: int | None = None
    env_runners: int = 1
    envs_per_runner: int = 32  # a runner's per-step cost is mostly fixed: many games a call amortise it
    learners: int = 0
    train_batch_size: int = 4000
    minibatch_size: int = 500
    # the PPO settings, the net, the drive reward and the evaluation: the main job's
    num_epochs: int = _MainJob.n_epochs
    learning_rate: float = _MainJob.learning_rate
    gamma: float = _MainJob.gamma
    gae_lambda: float = _MainJob.gae_lambda
    clip_range: float = _MainJob.clip_range
    ent_coef: float = _MainJob.ent_coef
    net_arch: tuple[int, ...] = _MainJob.net_arch
    activation: str = "tanh"
    field_position_weight: float = _MainJob.field_position_weight
    eval_games: int = _MainJob.eval_games
    level_games: int = 0
    opponents: str = "panel"
    threads: int = 1
    out: str = "runs/rllib"
    game: dict = field(default_factory=dict)  # GameConfig fields (defaults: the game's)

    def __post_init__(self):
        owner = "RllibConfig"
        check_int(owner, "seed", self.seed, 0)
        check_number(owner, "minutes", self.minutes, 0.0)
        for name in ("iterations", "env_runners", "learners"):
            check_int(owner, name, getattr(self, name), 0)
        for name in ("envs_per_runner", "train_batch_size", "minibatch_size", "num_epochs", "threads"):
            check_int(owner, name, getattr(self, name), 1)
        if self.num_cpus is not None:
            check_int(owner, "num_cpus", self.num_cpus, 1)
        if self.address is not None and (not isinstance(self.address, str) or not self.address.strip()):
            raise ValueError(f"{owner}.address must be None or a Ray address (\"auto\", \"host:port\", "
                             f"\"ray://host:10001\"), got {self.address!r}")
        if self.address is not None and self.num_cpus is not None:
            raise ValueError(f"{owner}.num_cpus is for a local Ray runtime only; a cluster ({self.address!r}) "
                             "has its own CPUs")
        if self.minibatch_size > self.train_batch_size:
            raise ValueError(f"{owner}.minibatch_size must be at most train_batch_size "
                             f"({self.train_batch_size}), got {self.minibatch_size}")
        for name, high in (("learning_rate", 1.0), ("gamma", 1.0), ("gae_lambda", 1.0), ("clip_range", 10.0),
                           ("ent_coef", 10.0)):
            check_number(owner, name, getattr(self, name), 0.0, high)
        check_number(owner, "field_position_weight", self.field_position_weight, 0.0, 100.0)
        if (not isinstance(self.net_arch, tuple) or not self.net_arch or len(self.net_arch) > 16
                or any(isinstance(w, bool) or not isinstance(w, int) or not 1 <= w <= 4096 for w in self.net_arch)):
            raise ValueError(f"{owner}.net_arch must be a tuple of 1 to 16 layer widths, each an int in 1..4096, "
                             f"got {self.net_arch!r}")
        check_choice(owner, "activation", self.activation, ACTIVATIONS)
        for name in ("eval_games", "level_games"):  # each deal is played from both sides
            check_int(owner, name, getattr(self, name), 0, even=True)
        check_choice(owner, "opponents", self.opponents, OPPONENT_SETS)
        from gridiron_env.config import GameConfig

        GameConfig.from_dict(self.game)  # validates the game fields


# --- the Ray side (imported only once ray is known to be there) ------------------------------------------

def require_ray(prog: str = "train.rllib_selfplay") -> None:
    """Exit with status 1 and one line naming the extra when Ray RLlib cannot be imported."""
    try:
        import ray  # noqa: F401
        import ray.rllib  # noqa: F401
    except ImportError as err:
        print(f"{prog}: needs Ray RLlib ({err.name or 'ray'} is not installed): {INSTALL_HINT}", file=sys.stderr)
        raise SystemExit(1) from None


def project_modules() -> list:
    """The project's packages, shipped to every Ray worker (``runtime_env["py_modules"]``)."""
    import agents
    import gridiron_env
    import train

    return [gridiron_env, agents, train]


def algorithm_config(cfg: RllibConfig):
    """RLlib's PPOConfig of the run: the drive env, two masked policies mapped by role, the batch shape."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec

    from train.rllib_env import ENV_NAME, policy_for

    specs = {side: module_spec(cfg) for side in SIDES}
    env_config = {"game": dict(cfg.game), "field_position_weight": cfg.field_position_weight}
    return (
        PPOConfig()
        .framework("torch")
        # the env checker steps random actions, which are illegal (masked) in Gridiron: the env is tested here
        .environment(ENV_NAME, env_config=env_config, disable_env_checking=True)
        .env_runners(num_env_runners=cfg.env_runners, num_envs_per_env_runner=cfg.envs_per_runner,
                     sample_timeout_s=SAMPLE_TIMEOUT_S)
        .learners(num_learners=cfg.learners)
        .training(train_batch_size_per_learner=cfg.train_batch_size, minibatch_size=cfg.minibatch_size,
                  num_epochs=cfg.num_epochs, lr=cfg.learning_rate, gamma=cfg.gamma, lambda_=cfg.gae_lambda,
                  clip_param=cfg.clip_range, entropy_coeff=cfg.ent_coef)
        .multi_agent(policies=set(SIDES), policy_mapping_fn=policy_for, policies_to_train=list(SIDES))
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
        .debugging(seed=cfg.seed, log_level="ERROR")
    )


def module_spec(cfg: RllibConfig, spaces: bool = False):
    """One policy's RLModuleSpec: RLlib's masked PPO module over the features, the net of ``cfg``. No hidden
    layers in the policy head, so that the actor is one MLP (encoder, then the logits layer): the bot's
    net. ``spaces``: with the env's spaces filled in (to build a module outside an algorithm)."""
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    from gridiron_env.envs.common import action_space
    from train.rllib_env import rllib_observation_space

    model = {"fcnet_hiddens": list(cfg.net_arch), "fcnet_activation": cfg.activation, "vf_share_layers": False,
             "head_fcnet_hiddens": []}
    if not spaces:
        return RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=model)
    return RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=model,
                        observation_space=rllib_observation_space(), action_space=action_space())


def fresh_weights(cfg: RllibConfig) -> dict[str, dict[str, np.ndarray]]:
    """Freshly initialised weights of both policies (what a checkpoint of ``cfg``'s nets must hold), built
    without a Ray runtime."""
    module = module_spec(cfg, spaces=True).build()
    state = {key: value.detach().cpu().numpy() for key, value in module.state_dict().items()}
    return numpy_weights({side: state for side in SIDES})


def start_ray(cfg: RllibConfig) -> None:
    """Join the cluster at ``cfg.address``, or start a local runtime of ``cfg.num_cpus`` CPUs."""
    import ray

    from ray.tune.registry import register_env

    from train.rllib_env import ENV_NAME, GridironDrives, quiet_ray_logs

    quiet_ray_logs()
    runtime_env = {"py_modules": project_modules(), "excludes": ["__pycache__", "*.pyc"],
                   "worker_process_setup_hook": "train.rllib_env.quiet_ray_logs"}
    kwargs = {"include_dashboard": False} if cfg.address is None else {}
    if cfg.num_cpus is not None:
        kwargs["num_cpus"] = cfg.num_cpus
    ray.init(address=cfg.address, runtime_env=runtime_env, logging_level="ERROR", **kwargs)
    register_env(ENV_NAME, lambda env_config: GridironDrives(env_config))


# --- weights: checkpoint and export ----------------------------------------------------------------------

class RllibCheckpointError(ValueError):
    """A checkpoint that is missing a part, corrupt, or does not fit this run's nets."""

    def __init__(self, path, problem: str):
        from agents.bot import display_name

        super().__init__(f"{display_name(path)}: {problem}")


def numpy_weights(weights: dict) -> dict[str, dict[str, np.ndarray]]:
    """RLlib's ``get_weights`` result as float32 numpy arrays, side -> {state_dict key: array}."""
    out = {}
    for side in SIDES:
        out[side] = {}
        for key, value in weights[side].items():
            if hasattr(value, "detach"):  # a torch tensor
                value = value.detach().cpu().numpy()
            out[side][key] = np.asarray(value, dtype=np.float32)
    return out


def save_checkpoint(path: Path, weights: dict, meta: dict) -> None:
    """Write the two policies' weights and ``meta`` (JSON) to ``path`` (an npz of float32 arrays and one
    text array), atomically (a temporary file renamed over the old one)."""
    arrays = {f"{side}/{key}": array for side in SIDES for key, array in weights[side].items()}
    arrays[_META_KEY] = np.array(json.dumps({"format": CHECKPOINT_FORMAT, "version": CHECKPOINT_VERSION, **meta}))
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        np.savez(f, **arrays)
    tmp.replace(path)


def load_checkpoint(path: Path, expected: dict, cfg: RllibConfig) -> tuple[dict, dict]:
    """The weights (as ``expected``: side -> {key: array of the shape wanted}) and meta of the checkpoint at
    ``path``, checked before and after reading: a regular file of at most 1 GiB, a zip of exactly the
    expected members, each no bigger than its array, float32 arrays of the expected shapes, all finite, and
    meta of this format and net. Never unpickles. Raises RllibCheckpointError."""
    if not path.is_file():
        raise RllibCheckpointError(path, "not a regular file")
    size = path.stat().st_size
    if size > MAX_CHECKPOINT_BYTES:
        raise RllibCheckpointError(path, f"{size} bytes; a checkpoint is at most {MAX_CHECKPOINT_BYTES}")
    try:
        data = path.read_bytes()
    except OSError as err:
        raise RllibCheckpointError(path, f"cannot be read: {err.strerror}") from None
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = {info.filename: info for info in archive.infolist()}
    except Exception as err:  # noqa: BLE001 - zipfile raises many types on damaged bytes
        raise RllibCheckpointError(path, f"not a readable checkpoint archive ({type(err).__name__})") from None
    wanted = {f"{side}/{key}.npy": array for side in SIDES for key, array in expected[side].items()}
    names = set(wanted) | {f"{_META_KEY}.npy"}
    if set(infos) != names:
        extra, missing = sorted(set(infos) - names), sorted(names - set(infos))
        raise RllibCheckpointError(path, f"does not fit this run's nets (net_arch {list(cfg.net_arch)}): "
                                   f"unexpected {extra[:3]}, missing {missing[:3]}")
    for name, info in infos.items():  # before decompressing a byte: no member larger than its array
        cap = (wanted[name].nbytes if name in wanted else 1 << 20) + 1024
        if info.file_size > cap:
            raise RllibCheckpointError(path, f"{name} claims {info.file_size} bytes, more than its array")
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as npz:
            meta_text = npz[_META_KEY]
            arrays = {name: npz[name[:-4]] for name in wanted}
    except Exception as err:  # noqa: BLE001 - numpy's ValueError / OSError / zip errors: all mean corrupt
        raise RllibCheckpointError(path, f"unreadable ({type(err).__name__}: {str(err)[:120]})") from None
    meta = _parse_meta(path, meta_text, cfg)
    weights = {side: {} for side in SIDES}
    for name, want in wanted.items():
        got = arrays[name]
        if got.dtype != np.float32 or got.shape != want.shape:
            raise RllibCheckpointError(path, f"{name[:-4]} is {got.dtype} {got.shape}, expected float32 {want.shape}")
        if not np.isfinite(got).all():
            raise RllibCheckpointError(path, f"{name[:-4]} holds a non-finite value")
        side, key = name[:-4].split("/", 1)
        weights[side][key] = got
    return weights, meta


def _parse_meta(path, text: np.ndarray, cfg: RllibConfig) -> dict:
    if text.dtype.kind != "U" or text.ndim != 0:
        raise RllibCheckpointError(path, "its meta entry is not one text")
    try:
        meta = json.loads(str(text))
    except ValueError:
        raise RllibCheckpointError(path, "its meta entry is not JSON") from None
    if not isinstance(meta, dict) or meta.get("format") != CHECKPOINT_FORMAT:
        raise RllibCheckpointError(path, f"not a {CHECKPOINT_FORMAT} checkpoint")
    if meta.get("version") != CHECKPOINT_VERSION:
        raise RllibCheckpointError(path, f"version {meta.get('version')!r}, this code reads {CHECKPOINT_VERSION}")
    if meta.get("net_arch") != list(cfg.net_arch) or meta.get("activation") != cfg.activation:
        raise RllibCheckpointError(path, f"nets {meta.get('net_arch')!r} {meta.get('activation')!r}, this run's "
                                   f"{list(cfg.net_arch)} {cfg.activation!r}")
    for name in ("iterations", "env_steps"):
        value = meta.get(name)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 1 << 62:
            raise RllibCheckpointError(path, f"meta {name} must be an int >= 0, got {value!r}")
    return meta


# the actor of an RLlib PPO module: its actor encoder's MLP, then the logits head (state dict key prefixes)
_ACTOR_PARTS = ("encoder.actor_encoder.net.mlp", "pi.net.mlp")


def actor_layers(state: dict[str, np.ndarray]) -> list[tuple[np.ndarray, np.ndarray]]:
    """The actor of one RLlib PPO module (its state dict) as the bot's (W [in, out], b [out]) layers. The
    encoder applies its activation after every layer and the head is one linear layer
    (``head_fcnet_hiddens=[]``): the bot's net, which applies it after all layers but the last."""
    layers = []
    for prefix in _ACTOR_PARTS:
        pattern = re.compile(re.escape(prefix) + r"\.(\d+)\.(weight|bias)")
        found = sorted({int(m.group(1)) for key in state if (m := pattern.fullmatch(key))})
        if not found or (prefix == _ACTOR_PARTS[1] and len(found) != 1):
            raise ValueError(f"cannot export the RLlib module: {prefix} has {len(found)} linear layers (the "
                             "encoder needs at least one, the head exactly one: head_fcnet_hiddens=[])")
        for index in found:
            w, b = state.get(f"{prefix}.{index}.weight"), state.get(f"{prefix}.{index}.bias")
            if w is None or b is None:
                raise ValueError(f"cannot export the RLlib module: {prefix}.{index} lacks its weight or bias")
            layers.append((np.asarray(w, np.float32).T.copy(), np.asarray(b, np.float32).copy()))
    return layers


def to_bot(weights: dict, activation: str):
    """The numpy bot (``agents.bot.Bot``) of the two policies' weights."""
    from agents.bot import Bot
    from gridiron_env.core.actions import NUM_ACTIONS
    from gridiron_env.core.observe import FEATURES_SIZE
    from train.export import ON_OFFENCE_INDEX

    return Bot(actor_layers(weights["offence"]), actor_layers(weights["defence"]), activation, ON_OFFENCE_INDEX,
               FEATURES_SIZE, NUM_ACTIONS)


# --- the job ---------------------------------------------------------------------------------------------

def _figures(result: dict) -> dict:
    """The iteration's figures from RLlib's result dict (missing ones left out)."""
    runners = result.get("env_runners", {})
    figures = {"env_steps": runners.get("num_env_steps_sampled_lifetime"),
               "segments": runners.get("num_episodes_lifetime"),
               "segment_length": runners.get("episode_len_mean")}
    returns = runners.get("module_episode_returns_mean") or {}
    for side in SIDES:
        if side in returns:
            figures[f"return/{side}"] = returns[side]
    return {k: float(v) for k, v in figures.items() if v is not None}


def train(cfg: RllibConfig, log=print) -> dict:
    """Run the whole job (Ray must be importable); returns a summary dict. Resumes from the checkpoint in
    ``cfg.out``; raises RllibCheckpointError (before writing anything) if it is refused."""
    import ray
    import torch

    from gridiron_env.config import GameConfig

    torch.set_num_threads(cfg.threads)
    out = Path(cfg.out)
    started = time.perf_counter()
    checkpoint = out / CHECKPOINT_NAME
    resumed = None  # checked before Ray starts: a refused checkpoint costs no cluster time
    if checkpoint.exists() or checkpoint.is_symlink():
        resumed = load_checkpoint(checkpoint, fresh_weights(cfg), cfg)
    start_ray(cfg)
    try:
        summary = {"out": str(out), "ray": _ray_resources()}
        algo = algorithm_config(cfg).build_algo()
        try:
            summary.update(_learn(algo, cfg, out, started, resumed, log))
        finally:
            algo.stop()
    finally:
        ray.shutdown()  # the evaluation below runs in this process alone
    _evaluate(out, cfg, GameConfig.from_dict(cfg.game), summary, log)
    (out / "summary.json").write_text(json.dumps({k: v for k, v in summary.items() if k != "evaluation"}, indent=2))
    return summary


def _learn(algo, cfg: RllibConfig, out: Path, started: float, resumed, log) -> dict:
    """Resume (``resumed``: the checked checkpoint's weights and meta, or None), train within the budget
    (a checkpoint after every iteration), export ``bot.npz``."""
    checkpoint = out / CHECKPOINT_NAME
    before = {"iterations": 0, "env_steps": 0}
    if resumed is not None:
        weights, meta = resumed
        algo.set_weights(weights)
        before = {"iterations": meta["iterations"], "env_steps": meta["env_steps"]}
        log(f"resumed from {checkpoint} (iteration {before['iterations']}, {before['env_steps']:,} env steps)")
    out.mkdir(parents=True, exist_ok=True)  # only once a checkpoint (if any) is accepted
    (out / "rllib_config.json").write_text(json.dumps(dataclasses.asdict(cfg), indent=2))
    deadline = started + cfg.minutes * 60
    iterations, figures, steps = 0, {}, before["env_steps"]
    while True:
        t0 = time.perf_counter()
        figures = _figures(algo.train())
        iterations += 1
        steps = before["env_steps"] + int(figures.get("env_steps", 0))
        meta = {"iterations": before["iterations"] + iterations, "env_steps": steps,
                "net_arch": list(cfg.net_arch), "activation": cfg.activation, "seed": cfg.seed}
        save_checkpoint(checkpoint, numpy_weights(algo.get_weights(list(SIDES))), meta)
        log(f"iteration {meta['iterations']}: {steps:,} env steps, {time.perf_counter() - t0:.1f} s" +
            "".join(f", {k} {v:.3g}" for k, v in figures.items() if k != "env_steps"))
        if (cfg.iterations and iterations >= cfg.iterations) or time.perf_counter() >= deadline:
            break
    to_bot(numpy_weights(algo.get_weights(list(SIDES))), cfg.activation).save(out / "bot.npz")
    return {"iterations": iterations, "total_iterations": before["iterations"] + iterations, "env_steps": steps,
            "figures": figures, "train_seconds": time.perf_counter() - started, "bot": str(out / "bot.npz")}


def _evaluate(out: Path, cfg: RllibConfig, game_config, summary: dict, log) -> None:
    """The main job's levels and evaluation (``train.selfplay``), on the exported bot file."""
    from train.selfplay import evaluate, fixed_members

    if cfg.level_games:
        from train.levels import store_levels

        store_levels(out / "bot.npz", cfg.level_games, cfg.seed + 31337, game_config, fixed_members(cfg.opponents),
                     log)
    if cfg.eval_games:
        summary["evaluation"] = evaluate(out / "bot.npz", cfg.eval_games, cfg.seed + 2024, game_config, log,
                                         cfg.opponents)
        (out / "evaluation.md").write_text(summary["evaluation"]["markdown"])


def _ray_resources() -> dict:
    import ray

    resources = ray.cluster_resources()
    return {"nodes": len([n for n in ray.nodes() if n.get("Alive")]), "cpus": resources.get("CPU", 0.0)}


def build_parser() -> argparse.ArgumentParser:
    d = RllibConfig
    parser = argparse.ArgumentParser(prog="python -m train.rllib_selfplay", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=d.out, help="run folder: checkpoint, bot, evaluation (default %(default)s)")
    parser.add_argument("--minutes", type=float, default=d.minutes,
                        help="wall-clock budget of training, at least one iteration; export and evaluation on top "
                             "(default %(default)s)")
    parser.add_argument("--iterations", type=int, default=d.iterations,
                        help="stop after this many training iterations, 0 for no cap (default %(default)s)")
    parser.add_argument("--address", default=None,
                        help='a running Ray cluster to join: "auto" on one of its nodes, "host:6379", or '
                             '"ray://host:10001" (default: start a local Ray runtime)')
    parser.add_argument("--num-cpus", type=int, default=None,
                        help="CPUs of the local Ray runtime (default: all; not with --address)")
    parser.add_argument("--env-runners", type=int, default=d.env_runners,
                        help="sampling actors, one CPU each; 0 samples in the driver (default %(default)s)")
    parser.add_argument("--envs-per-runner", type=int, default=d.envs_per_runner,
                        help="games each env runner steps at once (default %(default)s)")
    parser.add_argument("--learners", type=int, default=d.learners,
                        help="remote learner actors, 0 to learn in the driver (default %(default)s)")
    parser.add_argument("--train-batch-size", type=int, default=d.train_batch_size,
                        help="env steps per training iteration (default %(default)s)")
    parser.add_argument("--minibatch-size", type=int, default=d.minibatch_size,
                        help="SGD minibatch, in env steps (default %(default)s)")
    parser.add_argument("--num-epochs", type=int, default=d.num_epochs,
                        help="SGD passes over each iteration's batch (default %(default)s)")
    parser.add_argument("--lr", type=float, default=d.learning_rate, help="Adam learning rate (default %(default)s)")
    parser.add_argument("--net-arch", default=",".join(map(str, d.net_arch)),
                        help="hidden layer widths of each actor and critic, comma-separated (default %(default)s)")
    parser.add_argument("--field-position-weight", type=float, default=d.field_position_weight,
                        help="weight of the field position a drive leaves in its reward (default %(default)s)")
    parser.add_argument("--seed", type=int, default=d.seed, help="run seed (default %(default)s)")
    parser.add_argument("--eval-games", type=int, default=d.eval_games,
                        help="final evaluation games against each opponent, even, 0 for none (default %(default)s)")
    parser.add_argument("--level-games", type=int, default=d.level_games,
                        help="games (even) per opponent and probed temperature to measure the bot's levels, 0 to "
                             "keep the default levels (default %(default)s)")
    parser.add_argument("--opponents", choices=OPPONENT_SETS, default=d.opponents,
                        help="the evaluation's opponents besides the random agent: the heuristic and the panel, "
                             "or the heuristic alone (default %(default)s)")
    parser.add_argument("--threads", type=int, default=d.threads, help="torch threads of the learner (default %(default)s)")
    return parser


def config_from_args(args, parser) -> RllibConfig:
    try:
        net_arch = tuple(int(w) for w in args.net_arch.split(","))
    except ValueError:
        parser.error(f"--net-arch must be comma-separated ints such as 256,256, got {args.net_arch!r}")
    try:
        return RllibConfig(out=args.out, minutes=args.minutes, iterations=args.iterations, address=args.address,
                           num_cpus=args.num_cpus, env_runners=args.env_runners, envs_per_runner=args.envs_per_runner,
                           learners=args.learners, train_batch_size=args.train_batch_size,
                           minibatch_size=args.minibatch_size, num_epochs=args.num_epochs,
                           learning_rate=args.lr, net_arch=net_arch, field_position_weight=args.field_position_weight,
                           seed=args.seed, eval_games=args.eval_games, level_games=args.level_games,
                           opponents=args.opponents, threads=args.threads)
    except ValueError as err:
        parser.error(str(err))


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    cfg = config_from_args(args, parser)
    require_ray(parser.prog)
    try:
        return train(cfg)
    except RllibCheckpointError as err:  # one line, no traceback: the file and why it is refused
        print(f"{parser.prog}: checkpoint refused: {err}", file=sys.stderr)
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()
