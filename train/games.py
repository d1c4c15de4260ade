"""Self-play training for every game of the protocol (``gridiron_env.protocol.GameSpec``), measured exactly
against the game's optimal agent.

    python -m train.games --game table_football                    # the basic game, default budget
    python -m train.games --game table_football --variant clock --minutes 8 --out runs/tf_clock
    python -m train.selfplay --game table_football                 # the same, through the main command

**One network for both seats.** Roles alternate within a game (the team with the ball changes), so one
MaskablePPO policy plays whichever team is to act, always from that team's side (``game.observe``). It
learns on the natively batched generic envs (``gridiron_env.adapters``: ``GameVectorEnv`` under
``SB3VecEnv``), its team drawn per episode, against an opponent acting inside the env: per episode (from
the episode's seed) one of the last ``pool_size`` frozen snapshots of the learner (a snapshot joins after
every round, so the policy meets several of its past selves and does not chase its own tail), or, for a
``random_share`` of the episodes, uniformly random legal play. Snapshots sample from their policy.

**Exact measurement.** Every ``eval_every`` rounds and at the end, the learner's greedy policy (the best
legal logit) is evaluated by the game's own solver module (``gridiron_env.<game>``: ``solve``,
``exact_win_probability``) against the optimal agent: its exact win probability as the opening team, as
the other team, and averaged over the toss, next to the optimal policy's own (0.5 in a symmetric game).
A variant the exact evaluation does not cover (Table Football's clock version) is measured by Monte-Carlo
games against the optimal agent instead (``eval_games``, with a 95% interval), and says so.

No game-specific code beyond :data:`GAME_DEFAULTS` (a table of default settings per game): a game that
registers a GameSpec and ships a solver module with that interface trains with the same command.

Outputs in ``out``: ``policy.zip`` (the learner's checkpoint, tensors and JSON only, ``train.checkpoint``;
a rerun resumes from it), ``policy.npz`` (the exported greedy policy, weights only: :class:`PolicyNet`,
validated on load, never unpickled; :class:`PolicyAgent` plays it), ``tensorboard/`` (SB3's scalars and
``eval/``: the exact win probabilities per evaluation), ``train_config.json``, ``summary.json`` and
``evaluation.md``. Steps are learner actions summed over the batch of games.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import inspect
import io
import json
import math
import re
import sys
import time
import warnings
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from agents.bot import BotFileError, read_bot_file, short_reason
from gridiron_env.core.chance import splitmix64
from gridiron_env.protocol import GameSpec, game_names, get_game
from train.settings import check_choice, check_int, check_number

__all__ = [
    "GAME_DEFAULTS", "GameTrainConfig", "PolicyNet", "PolicyFileError", "PolicyAgent", "SnapshotOpponent",
    "GameSolver", "evaluate_policy", "train", "main",
]

# Per-game defaults over GameTrainConfig's own (the one game-specific table of this module).
GAME_DEFAULTS: dict[str, dict] = {
    "table_football": {"variant": "basic"},
    "sports_dice": {"variant": "basic"},
}
ACTIVATIONS = ("tanh", "relu")
_OWNER = "GameTrainConfig"


@dataclass(frozen=True)
class GameTrainConfig:
    """Settings of a protocol game's training run (``GameTrainConfig.for_game(name, **changes)`` starts from
    the game's row of :data:`GAME_DEFAULTS`). A bad value raises ValueError naming the field.

    game / variant: a registered game (``gridiron_env.protocol.game_names()``) and one of its variants;
        game_config: fields of the game's config over the variant's (default: none, the variant itself).
    minutes: wall-clock budget of the learning rounds (the solve and the periodic evaluations included; the
        final evaluation and export come on top, seconds). At least one round runs.
    max_steps: stop after this many learner steps as well (0: the budget alone decides).
    num_envs, n_steps, batch_size, n_epochs, learning_rate, gamma, gae_lambda, clip_range, ent_coef,
        vf_coef: MaskablePPO's (a rollout is num_envs x n_steps steps).
    net_width, net_layers: the hidden layers of the policy and the value net (tanh).
    round_steps: learner steps between snapshots (one round).
    pool_size: snapshots kept as opponents; random_share: share of episodes against random legal play.
    opponent_temperature: the snapshots' sampling temperature (0: their best action).
    eval_every: rounds between exact evaluations (the last round is always evaluated).
    eval_games: Monte-Carlo games against the optimal agent, when the variant has no exact evaluation.
    threads: torch threads (1 on the 2-core machine: small matmuls slow down badly with 2 under load).
    """

    game: str = "table_football"
    variant: str = "basic"
    seed: int = 0
    minutes: float = 8.0
    max_steps: int = 0
    num_envs: int = 128
    n_steps: int = 64
    batch_size: int = 2048
    n_epochs: int = 4
    learning_rate: float = 3e-4
    gamma: float = 1.0
    gae_lambda: float = 0.9
    clip_range: float = 0.2
    ent_coef: float = 0.0
    vf_coef: float = 0.5
    net_width: int = 64
    net_layers: int = 2
    round_steps: int = 65_536
    pool_size: int = 8
    random_share: float = 0.05
    opponent_temperature: float = 1.0
    eval_every: int = 4
    eval_games: int = 4000
    threads: int = 1
    out: str = ""
    progress: bool = True
    game_config: dict = dataclasses.field(default_factory=dict)  # the game's config fields over the variant's


    def __post_init__(self):
        if not isinstance(self.game, str) or self.game not in game_names() or self.game == "gridiron":
            raise ValueError(f"{_OWNER}.game must be one of {tuple(n for n in game_names() if n != 'gridiron')}, "
                             f"got {self.game!r}")
        check_choice(_OWNER, "variant", self.variant, tuple(get_game(self.game).variants))
        check_int(_OWNER, "seed", self.seed, 0)
        if self.seed >= 2**32:
            raise ValueError(f"{_OWNER}.seed must be an int from 0 to 2**32 - 1, got {self.seed!r}")
        check_number(_OWNER, "minutes", self.minutes, 0.0, 24 * 60.0)
        check_int(_OWNER, "max_steps", self.max_steps, 0)
        for name in ("num_envs", "n_steps", "batch_size", "n_epochs", "net_width", "net_layers", "round_steps",
                     "pool_size", "eval_every", "threads"):
            check_int(_OWNER, name, getattr(self, name), 1)
        check_int(_OWNER, "eval_games", self.eval_games, 2, even=True)
        check_number(_OWNER, "learning_rate", self.learning_rate, 1e-8, 1.0)
        check_number(_OWNER, "gamma", self.gamma, 0.0, 1.0)
        check_number(_OWNER, "gae_lambda", self.gae_lambda, 0.0, 1.0)
        check_number(_OWNER, "clip_range", self.clip_range, 1e-6, 10.0)
        check_number(_OWNER, "ent_coef", self.ent_coef, 0.0, 1.0)
        check_number(_OWNER, "vf_coef", self.vf_coef, 0.0, 10.0)
        check_number(_OWNER, "random_share", self.random_share, 0.0, 1.0)
        check_number(_OWNER, "opponent_temperature", self.opponent_temperature, 0.0, 100.0)
        if self.batch_size > self.num_envs * self.n_steps:
            raise ValueError(f"{_OWNER}.batch_size must be at most num_envs x n_steps "
                             f"({self.num_envs * self.n_steps}), got {self.batch_size!r}")
        if not isinstance(self.out, str):
            raise ValueError(f"{_OWNER}.out must be a str (a folder; '' for runs/<game>_<variant>), got {self.out!r}")
        if not isinstance(self.game_config, dict):
            raise ValueError(f"{_OWNER}.game_config must be a dict of the game's config fields, got {self.game_config!r}")
        try:
            get_game(self.game).make_config(self.game_config, self.variant)
        except ValueError as err:
            raise ValueError(f"{_OWNER}.game_config: {err}") from None
        if not isinstance(self.progress, bool):
            raise ValueError(f"{_OWNER}.progress must be True or False, got {self.progress!r}")

    @classmethod
    def for_game(cls, game: str, **changes) -> "GameTrainConfig":
        """The config of ``game``: its :data:`GAME_DEFAULTS` row, then ``changes`` (None values ignored)."""
        unknown = sorted(set(changes) - {f.name for f in dataclasses.fields(cls)})
        if unknown:
            raise ValueError(f"unknown {_OWNER} field(s) {unknown}")
        values = {**GAME_DEFAULTS.get(game, {}), **{k: v for k, v in changes.items() if v is not None}}
        return cls(game=game, **values)

    @property
    def out_dir(self) -> Path:
        return Path(self.out or f"runs/{self.game}_{self.variant}")

    @property
    def net_arch(self) -> list[int]:
        return [self.net_width] * self.net_layers


# --- the numpy policy: snapshots, export, agent -----------------------------------------------------------

POLICY_FORMAT = "game-policy-v1"
MAX_POLICY_LAYERS = 16
MAX_POLICY_WIDTH = 4096
MAX_POLICY_BYTES = 64 << 20
_TEXT_FIELDS = {"format": 32, "game": 64, "activation": 8}
_INT_FIELDS = ("observation_size", "num_actions", "layers")
_LAYER_KEY = re.compile(r"(w|b)(0|[1-9][0-9]?)")


class PolicyFileError(BotFileError):
    """A policy file that is missing, corrupt, or not a policy of the game it is loaded for (one line, naming
    the file)."""


class PolicyNet:
    """An MLP policy in numpy: ``layers`` [(W float32 [in, out], b float32 [out])], ``activation`` between
    them, logits over the game's actions from the acting team's observation. One net plays both seats.

    File (``save`` / ``load``): a zip of ``.npy`` arrays ``format`` ("game-policy-v1"), ``game`` (its
    registered name), ``observation_size``, ``num_actions``, ``activation`` ("tanh" or "relu"), ``layers``
    (count) and ``w{i}``, ``b{i}`` per layer. Loading reads the whole file (at most 64 MB), checks the zip
    directory, every ``.npy`` header (dtype, rank, size) before its data, every value (finite floats, sizes
    in range, layer shapes chained from observation_size to num_actions, the game's own sizes), and never
    unpickles; anything wrong raises :class:`PolicyFileError` naming the file."""

    def __init__(self, layers, activation: str, game: str, observation_size: int, num_actions: int):
        if activation not in ACTIVATIONS:
            raise PolicyFileError(f"activation must be one of {ACTIVATIONS}, got {activation!r}")
        if not 1 <= len(layers) <= MAX_POLICY_LAYERS:
            raise PolicyFileError(f"a policy has 1 to {MAX_POLICY_LAYERS} layers, got {len(layers)}")
        width = int(observation_size)
        checked = []
        for i, (w, b) in enumerate(layers):
            w, b = np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32)
            if w.ndim != 2 or b.ndim != 1 or w.shape[0] != width or w.shape[1] != b.shape[0]:
                raise PolicyFileError(f"layer {i} has shapes {w.shape} and {b.shape}; expected ({width}, n) and (n,)")
            if not (np.isfinite(w).all() and np.isfinite(b).all()):
                raise PolicyFileError(f"layer {i} holds non-finite weights")
            checked.append((w.copy(), b.copy()))
            width = w.shape[1]
        if width != int(num_actions):
            raise PolicyFileError(f"the net gives {width} logits; the game has {num_actions} actions")
        self.layers = checked
        self.activation = activation
        self.game = str(game)
        self.observation_size = int(observation_size)
        self.num_actions = int(num_actions)

    @classmethod
    def from_policy(cls, policy, game: GameSpec) -> "PolicyNet":
        """A frozen numpy copy of an SB3 actor-critic policy's actor (``train.export.actor_layers``)."""
        from train.export import actor_layers

        layers, activation = actor_layers(policy)
        return cls(layers, activation, game.name, game.observation_size, game.num_actions)

    def logits(self, observations) -> np.ndarray:
        """float32 [k, num_actions]: raw logits of float32 observations [k, observation_size]."""
        x = np.atleast_2d(np.asarray(observations, dtype=np.float32))
        if x.shape[1] != self.observation_size:
            raise ValueError(f"observations must have {self.observation_size} values, got {x.shape[1]}")
        with np.errstate(over="ignore", invalid="ignore"):
            for i, (w, b) in enumerate(self.layers):
                x = x @ w + b
                if i < len(self.layers) - 1:
                    x = np.tanh(x) if self.activation == "tanh" else np.maximum(x, 0.0)
        return np.nan_to_num(x, nan=-1e30, posinf=1e30, neginf=-1e30)

    def act(self, observations, masks, temperature: float = 0.0, uniforms=None) -> np.ndarray:
        """int64 [k]: a legal action per row (``masks`` bool/int [k, A]; a row with none gives 0): the best
        logit (temperature 0), else a sample at ``temperature`` from ``uniforms`` (floats in [0, 1))."""
        mask = np.atleast_2d(np.asarray(masks)).astype(bool)
        masked = np.where(mask, self.logits(observations).astype(np.float64), -np.inf)
        if not temperature > 0:
            return np.where(mask.any(axis=1), masked.argmax(axis=1), 0).astype(np.int64)
        z = masked / temperature
        z -= np.where(mask.any(axis=1), z.max(axis=1), 0.0)[:, None]
        p = np.where(mask, np.exp(z), 0.0)
        total = p.sum(axis=1, keepdims=True)
        p = np.divide(p, total, out=np.zeros_like(p), where=total > 0)
        pick = (p.cumsum(axis=1) > np.asarray(uniforms, dtype=np.float64)[:, None]).argmax(axis=1)
        # rounding can leave the cumulative sum a hair under u: fall back to the best legal action then
        best = np.where(mask.any(axis=1), masked.argmax(axis=1), 0)
        return np.where(mask[np.arange(mask.shape[0]), pick], pick, best).astype(np.int64)

    # --- files -----------------------------------------------------------------------------------------

    def save(self, path) -> None:
        arrays = {"format": np.array(POLICY_FORMAT), "game": np.array(self.game),
                  "observation_size": np.array(self.observation_size, dtype=np.int64),
                  "num_actions": np.array(self.num_actions, dtype=np.int64),
                  "activation": np.array(self.activation), "layers": np.array(len(self.layers), dtype=np.int64)}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        with open(path, "wb") as f:
            np.savez_compressed(f, **arrays)

    @classmethod
    def load(cls, path, game=None) -> "PolicyNet":
        """The policy file ``path`` (see the class doc); ``game`` (a name or GameSpec) is the game it must be
        for (its name, observation size and action count)."""
        try:
            data, name = read_bot_file(path, MAX_POLICY_BYTES)  # a regular file of a sane size, read whole
        except PolicyFileError:
            raise
        except BotFileError as err:
            raise PolicyFileError(str(err).replace("bot file", "policy file")) from None
        try:
            arrays = _policy_arrays(data)
            net = _policy_from_arrays(arrays)
        except PolicyFileError as err:
            raise PolicyFileError(f"{name}: {err}") from None
        if game is not None:
            spec = get_game(game)
            if (net.game, net.observation_size, net.num_actions) != (spec.name, spec.observation_size,
                                                                      spec.num_actions):
                raise PolicyFileError(f"{name} is a policy of {net.game!r} ({net.observation_size} observation "
                                      f"values, {net.num_actions} actions), not of {spec.name!r} "
                                      f"({spec.observation_size}, {spec.num_actions})")
        return net


def _policy_arrays(data: bytes) -> dict:
    """The checked arrays of a policy file's bytes (PolicyFileError on anything unexpected)."""
    if not data.startswith(b"PK"):
        raise PolicyFileError("not a policy file: it is not a zip archive of .npy arrays")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except Exception as err:  # noqa: BLE001 - zipfile raises many types on damaged bytes
        raise PolicyFileError(f"not a readable policy file: {short_reason(err)}") from None
    if len(infos) > len(_TEXT_FIELDS) + len(_INT_FIELDS) + 2 * MAX_POLICY_LAYERS:
        raise PolicyFileError(f"it holds {len(infos)} arrays, more than a policy file has")
    total, arrays = 0, {}
    for info in infos:
        key = info.filename[:-4] if info.filename.endswith(".npy") else None
        if key is None or not (key in _TEXT_FIELDS or key in _INT_FIELDS or _LAYER_KEY.fullmatch(key)):
            raise PolicyFileError(f"it holds {info.filename[:80]!r}, which is not an array of a policy file")
        if key in arrays:
            raise PolicyFileError(f"it holds the array {key!r} twice")
        if info.flag_bits & 0x1 or info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise PolicyFileError(f"the array {key!r} is encrypted or uses an unknown compression")
        total += info.file_size  # the directory's claim, checked before anything is decompressed
        if info.file_size > MAX_POLICY_BYTES or total > MAX_POLICY_BYTES:
            raise PolicyFileError(f"its arrays claim more than {MAX_POLICY_BYTES} bytes uncompressed")
        try:
            with archive.open(info) as f:
                blob = f.read(info.file_size + 1)
        except Exception as err:  # noqa: BLE001 - damaged member data
            raise PolicyFileError(f"the array {key!r} is damaged ({short_reason(err)})") from None
        if len(blob) != info.file_size:
            raise PolicyFileError(f"the array {key!r} unpacks to {len(blob)} bytes, not the {info.file_size} "
                                  "its directory entry claims")
        arrays[key] = _npy_value(blob, key)
    return arrays


def _npy_value(blob: bytes, key: str):
    """One ``.npy`` member, its header checked against what ``key`` must hold: a str, an int or a float32
    array (finite)."""
    fp = io.BytesIO(blob)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            version = np.lib.format.read_magic(fp)
            if version not in ((1, 0), (2, 0)):
                raise ValueError(f"unsupported .npy version {version}")
            reader = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
            shape, fortran, dtype = reader(fp)
    except Exception as err:  # noqa: BLE001 - numpy's header parser on hostile bytes
        raise PolicyFileError(f"the array {key!r} has an unreadable .npy header: {short_reason(err)}") from None
    text, integer = key in _TEXT_FIELDS, key in _INT_FIELDS
    kinds = "U" if text else "iu" if integer else "f"
    ndim = 0 if text or integer else 2 if key[0] == "w" else 1
    if dtype.hasobject or dtype.kind not in kinds or dtype.names is not None or dtype.shape != ():
        raise PolicyFileError(f"the array {key!r} holds {dtype.str} values; it must be "
                              f"{'text' if text else 'an integer' if integer else 'floats'}")
    if len(shape) != ndim or any(n < 1 or n > MAX_POLICY_WIDTH for n in shape):
        raise PolicyFileError(f"the array {key!r} has shape {shape}; it must have {ndim} dimension(s) of 1 to "
                              f"{MAX_POLICY_WIDTH}")
    if text and dtype.itemsize > 4 * _TEXT_FIELDS[key]:
        raise PolicyFileError(f"the text {key!r} is longer than {_TEXT_FIELDS[key]} characters")
    size = math.prod(shape) * dtype.itemsize
    if len(blob) - fp.tell() != size:
        raise PolicyFileError(f"the array {key!r} has {len(blob) - fp.tell()} bytes of data; its header needs {size}")
    array = np.frombuffer(blob, dtype=dtype, count=math.prod(shape), offset=fp.tell())
    array = array.reshape(shape, order="F" if fortran else "C")
    if text:
        return str(array.item())
    if integer:
        value = int(array.item())
        if not 1 <= value <= (MAX_POLICY_LAYERS if key == "layers" else MAX_POLICY_WIDTH):
            raise PolicyFileError(f"the array {key!r} is {value}, out of range")
        return value
    with np.errstate(over="ignore", invalid="ignore"):
        array = array.astype(np.float32)
    if not np.isfinite(array).all():
        raise PolicyFileError(f"the array {key!r} holds non-finite values (nan or inf, or beyond float32)")
    return array


def _policy_from_arrays(arrays: dict) -> PolicyNet:
    for key in (*_TEXT_FIELDS, *_INT_FIELDS):
        if key not in arrays:
            raise PolicyFileError(f"it lacks the array {key!r}")
    if arrays["format"] != POLICY_FORMAT:
        raise PolicyFileError(f"its format is {arrays['format']!r}, not {POLICY_FORMAT!r}")
    if arrays["activation"] not in ACTIVATIONS:
        raise PolicyFileError(f"its activation is {arrays['activation']!r}; it must be one of {ACTIVATIONS}")
    count = arrays["layers"]
    wanted = {f"{part}{i}" for i in range(count) for part in "wb"}
    present = {k for k in arrays if _LAYER_KEY.fullmatch(k)}
    if present != wanted:
        odd = sorted(present ^ wanted)[0]
        raise PolicyFileError(f"its layer arrays do not fit its {count} layers ({odd!r} "
                              f"{'is extra' if odd in present else 'is missing'})")
    layers = [(arrays[f"w{i}"], arrays[f"b{i}"]) for i in range(count)]
    return PolicyNet(layers, arrays["activation"], arrays["game"], arrays["observation_size"], arrays["num_actions"])


_AGENT_SALT = np.uint64(0x6A3E_9011_C7A6_E001)
_PICK_SALT = np.uint64(0x6A3E_0990_5EED_0003)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def _unit(bits) -> np.ndarray:
    return (np.asarray(bits, dtype=np.uint64) >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))


def _acting_view(game: GameSpec, state, config):
    """Observations of the team to act (team one's where nobody acts) and the legal masks, of every game."""
    team = np.maximum(game.to_act(state), 0)
    return game.observe(state, team, config), game.legal_mask(state)


class PolicyAgent:
    """A :class:`PolicyNet` as an agent of its game (``reset(seeds)``, ``act(state, config, games)``): it sees
    the acting team's observation (``game.observe``) and the legal mask, nothing else. ``temperature`` 0
    plays the best legal action; above 0 it samples, from one counter-based stream per game keyed on the
    game's seed, so a game's play does not depend on the batch it is in."""

    def __init__(self, net: PolicyNet, game=None, temperature: float = 0.0, name: str = "policy"):
        self.net = net
        self.game = get_game(game if game is not None else net.game)
        if (self.game.observation_size, self.game.num_actions) != (net.observation_size, net.num_actions):
            raise ValueError(f"the policy has {net.observation_size} observation values and {net.num_actions} "
                             f"actions; {self.game.name} has {self.game.observation_size} and {self.game.num_actions}")
        check_number("PolicyAgent", "temperature", temperature, 0.0, 100.0)
        self.temperature = float(temperature)
        self.name = name
        self.keys = np.zeros(0, dtype=np.uint64)
        self.counters = np.zeros(0, dtype=np.uint64)

    @classmethod
    def load(cls, path, game=None, **kwargs) -> "PolicyAgent":
        net = PolicyNet.load(path, game)
        return cls(net, game, **kwargs)

    def reset(self, seeds) -> None:
        seeds = np.asarray(seeds).astype(np.int64).astype(np.uint64)
        self.keys = splitmix64(seeds ^ _AGENT_SALT)
        self.counters = np.zeros(seeds.shape, dtype=np.uint64)

    def act(self, state, config=None, games=None) -> np.ndarray:
        game = self.game
        n = game.batch_size(state)
        games = np.arange(n) if games is None else np.asarray(games, dtype=np.int64)
        actions = np.full(n, game.ignored_action, dtype=np.int64)
        if games.size == 0:
            return actions
        sub = state if games.size == n else game.take(state, games)
        obs, mask = _acting_view(game, sub, config)
        uniforms = None
        if self.temperature > 0:
            if self.keys.size < n:
                self.reset(np.arange(n))
            with np.errstate(over="ignore"):
                uniforms = _unit(splitmix64(self.keys[games] + self.counters[games] * _GOLDEN))
            self.counters[games] += np.uint64(1)
        chosen = self.net.act(obs, mask, self.temperature, uniforms)
        actions[games] = np.where(mask.any(axis=1), chosen, game.ignored_action)
        return actions


class SnapshotOpponent:
    """The learner's opponent inside the env (an agent the adapters reset with each game's episode seed):
    per episode, from its seed, uniformly random legal play with chance ``random_share`` (and while the pool
    is empty), else one of the pool's frozen snapshots, uniformly. Snapshots sample at ``temperature``."""

    name = "snapshots"

    def __init__(self, game: GameSpec, config, pool_size: int, random_share: float, temperature: float, seed: int):
        self.game, self.config = game, config
        self.pool_size, self.random_share, self.temperature = pool_size, random_share, temperature
        self.pool: list[PolicyNet] = []
        self.rng = np.random.default_rng(seed)
        self.seeds = np.zeros(0, dtype=np.uint64)

    def add(self, net: PolicyNet) -> None:
        self.pool = (self.pool + [net])[-self.pool_size:]

    def reset(self, seeds) -> None:
        self.seeds = np.asarray(seeds).astype(np.int64).astype(np.uint64)

    def choices(self, n: int) -> np.ndarray:
        """int64 [n]: per game of the last ``reset``, -1 (random play) or the pool index it plays."""
        u = _unit(splitmix64(self.seeds[:n] ^ _PICK_SALT))
        if not self.pool:
            return np.full(n, -1, dtype=np.int64)
        rest = (u - self.random_share) / max(1.0 - self.random_share, 1e-12)
        index = np.minimum((rest * len(self.pool)).astype(np.int64), len(self.pool) - 1)
        return np.where(u < self.random_share, -1, index)

    def act(self, state, config=None, games=None) -> np.ndarray:
        game = self.game
        n = game.batch_size(state)
        obs, mask = _acting_view(game, state, self.config)
        pick = self.choices(n)
        uniforms = self.rng.random(n)
        # random legal play: the legal id at quantile u of each row
        count = mask.sum(axis=1)
        rank = np.cumsum(mask, axis=1) - 1
        target = np.minimum((uniforms * count).astype(np.int64), np.maximum(count - 1, 0))
        actions = np.where(count > 0, (mask & (rank == target[:, None])).argmax(axis=1), game.ignored_action)
        for index in np.unique(pick[pick >= 0]).tolist():
            rows = np.flatnonzero(pick == index)
            actions[rows] = self.pool[index].act(obs[rows], mask[rows], self.temperature, uniforms[rows])
        return actions.astype(np.int64)


# --- the game's solver ---------------------------------------------------------------------------------------

def _call(fn, *args, **optional):
    """``fn(*args, **optional)`` passing only the keywords ``fn`` takes (solver modules differ in extras)."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        params = {}
    takes_all = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    return fn(*args, **{k: v for k, v in optional.items() if takes_all or k in params})


class GameSolver:
    """The exact solution of one config of a game whose package (``gridiron_env.<name>``) has ``solve(config)
    -> Solution`` (``policy(state)``, ``opener_win_probability``) and ``exact_win_probability(policy,
    config)`` (a policy: a function state -> actions; it returns a number or a record with ``opening``,
    ``receiving`` and ``overall``). ``GameSolver.of(game, config)`` is None for a game without them."""

    def __init__(self, game: GameSpec, config, module):
        self.game, self.config, self.module = game, config, module
        self.solution = _call(module.solve, config)
        try:  # the optimal policy's own value; a ValueError: the exact evaluation does not cover this config
            self.optimal_exact = self._exact(self.optimal_policy)
        except ValueError:
            self.optimal_exact = None

    @classmethod
    def of(cls, game: GameSpec, config):
        try:
            module = importlib.import_module(f"gridiron_env.{game.name}")
        except ImportError:
            return None
        if not (callable(getattr(module, "solve", None)) and callable(getattr(module, "exact_win_probability", None))):
            return None
        return cls(game, config, module)

    def optimal_policy(self, state) -> np.ndarray:
        actions = np.asarray(self.solution.policy(state), dtype=np.int64)
        return np.where(actions >= 0, actions, self.game.ignored_action)

    def exact(self, policy_fn) -> dict | None:
        """The exact win probabilities of ``policy_fn`` against the optimal agent, or None where the solver
        module's exact evaluation does not cover this config (it refused the optimal policy itself)."""
        return None if self.optimal_exact is None else self._exact(policy_fn)

    def _exact(self, policy_fn) -> dict:
        result = _call(self.module.exact_win_probability, policy_fn, self.config, solution=self.solution)
        if hasattr(result, "overall"):
            return {k: float(getattr(result, k)) for k in ("opening", "receiving", "overall") if hasattr(result, k)}
        return {"overall": float(result)}


def greedy_policy_fn(net: PolicyNet, game: GameSpec, config):
    """The net's best legal action in each game of a state (``game.ignored_action`` where nobody acts)."""

    def policy(state):
        obs, mask = _acting_view(game, state, config)
        return np.where(mask.any(axis=1), net.act(obs, mask), game.ignored_action)

    return policy


def play_against(game: GameSpec, config, first, second, games: int, seed: int) -> np.ndarray:
    """Points of ``first`` (1 win, 1/2 draw or truncation, 0 loss) in ``games`` full games against ``second``,
    game i seeded ``seed + i``; ``first`` plays team one in even games and team two in odd ones. Both are
    agents (``act(state, config, games)``)."""
    state = game.init(games, seed, config)
    team = np.arange(games) % 2
    seeds = seed + np.arange(games)
    for agent in (first, second):
        if hasattr(agent, "reset"):
            agent.reset(seeds)
    while True:
        to_act = game.to_act(state)
        live = to_act >= 0
        if not live.any():
            break
        actions = np.full(games, game.ignored_action, dtype=np.int64)
        for agent, turn in ((first, live & (to_act == team)), (second, live & (to_act != team))):
            idx = np.flatnonzero(turn)
            if idx.size:
                actions[idx] = np.asarray(agent.act(state, config, idx), dtype=np.int64)[idx]
        state = game.step(state, actions, config)
    winner = game.winner(state)
    return np.where(winner == team, 1.0, np.where((winner == game.draw_value) | (winner < 0), 0.5, 0.0))


class _FunctionAgent:
    def __init__(self, fn, name):
        self.fn, self.name = fn, name

    def act(self, state, config=None, games=None):
        return self.fn(state)


def evaluate_policy(net: PolicyNet, game: GameSpec, config, solver: GameSolver | None, games: int = 4000,
                    seed: int = 0) -> dict:
    """The greedy policy of ``net`` against the optimal agent: ``{"method": "exact", "opening", "receiving",
    "overall", "optimal": {...}}`` from the solver's exact evaluation, or ``"method": "monte-carlo"`` with
    ``overall``, ``interval`` (95%) and ``games`` when the variant has no exact evaluation; ``"method":
    "none"`` for a game without a solver. ``optimal`` is the optimal policy's own value, measured alike."""
    if solver is None:
        return {"method": "none"}
    policy = greedy_policy_fn(net, game, config)
    exact = solver.exact(policy)
    if exact is not None:
        return {"method": "exact", **exact, "optimal": solver.optimal_exact}
    opponent = _FunctionAgent(solver.optimal_policy, "optimal")
    points = play_against(game, config, _FunctionAgent(policy, "learner"), opponent, games, seed)
    half = 1.96 * points.std(ddof=1) / math.sqrt(games)
    # the optimal agent against itself, each team once per deal, scores exactly 1/2 on average over seats
    opening = points[0::2].mean(), points[1::2].mean()
    return {"method": "monte-carlo", "overall": float(points.mean()), "interval": float(half), "games": games,
            "as_team_one": float(opening[0]), "as_team_two": float(opening[1]),
            "optimal": {"overall": 0.5}}


# --- training --------------------------------------------------------------------------------------------

CHECKPOINT = "policy.zip"
POLICY_FILE = "policy.npz"
# train.checkpoint names two sides; a protocol game's single net (both seats) is stored as the "offence"
CHECKPOINT_SIDE = "offence"


def _make_model(env, cfg: GameTrainConfig, tensorboard, hyper: dict | None = None):
    import torch
    from sb3_contrib import MaskablePPO

    hyper = hyper or {}
    return MaskablePPO(
        "MlpPolicy", env, n_steps=cfg.n_steps, batch_size=cfg.batch_size,
        n_epochs=hyper.get("n_epochs", cfg.n_epochs), learning_rate=hyper.get("learning_rate", cfg.learning_rate),
        gamma=hyper.get("gamma", cfg.gamma), gae_lambda=hyper.get("gae_lambda", cfg.gae_lambda),
        clip_range=hyper.get("clip_range", cfg.clip_range), ent_coef=hyper.get("ent_coef", cfg.ent_coef),
        vf_coef=cfg.vf_coef, seed=hyper.get("seed", cfg.seed), verbose=0, tensorboard_log=tensorboard,
        policy_kwargs={"net_arch": {"pi": cfg.net_arch, "vf": cfg.net_arch}, "activation_fn": torch.nn.Tanh})


def _line(result: dict) -> str:
    if result["method"] == "exact":
        parts = [f"{result['overall']:.4f}"]
        if "opening" in result:
            parts.append(f"(opening {result['opening']:.4f}, other {result['receiving']:.4f})")
        opt = result["optimal"]["overall"]
        return " ".join(parts) + f"; optimal {opt:.4f}, gap {opt - result['overall']:+.4f}"
    if result["method"] == "monte-carlo":
        return (f"{result['overall']:.4f} +- {result['interval']:.4f} over {result['games']} games (Monte Carlo); "
                f"optimal {result['optimal']['overall']:.4f}")
    return "no solver for this game"


def _writer(path):
    try:
        from torch.utils.tensorboard import SummaryWriter
    except ImportError:
        return None
    return SummaryWriter(str(path))


def train(cfg: GameTrainConfig, log=print) -> dict:
    """Run the job (see the module doc); returns the summary written to ``summary.json``. Resumes from
    ``policy.zip`` in the out folder (``CheckpointError`` if it is refused, before anything is written)."""
    import torch
    from gymnasium.vector import AutoresetMode
    from stable_baselines3.common.vec_env import VecMonitor

    from gridiron_env.adapters.sb3 import SB3VecEnv
    from gridiron_env.adapters.vector import GameVectorEnv
    from train.checkpoint import load_checkpoint, save_checkpoint

    torch.set_num_threads(cfg.threads)
    started = time.perf_counter()
    game = get_game(cfg.game)
    config = game.make_config(dict(cfg.game_config), cfg.variant)
    out = cfg.out_dir
    opponent = SnapshotOpponent(game, config, cfg.pool_size, cfg.random_share, cfg.opponent_temperature, cfg.seed)
    venv = GameVectorEnv(cfg.num_envs, game=game, variant=cfg.variant, learner_team="random", opponent=opponent,
                         config=config, autoreset_mode=AutoresetMode.SAME_STEP)
    env = VecMonitor(SB3VecEnv(venv))
    env.seed(cfg.seed)
    tensorboard = str(out / "tensorboard")
    checkpoint = out / CHECKPOINT
    rounds_before = 0
    if checkpoint.exists() or checkpoint.is_symlink():
        model, meta = load_checkpoint(checkpoint, CHECKPOINT_SIDE, lambda h: _make_model(env, cfg, tensorboard, h),
                                      cfg.net_arch, activation="tanh")
        rounds_before = meta["progress"]["rounds"]
        opponent.add(PolicyNet.from_policy(model.policy, game))
        log(f"resumed from {checkpoint} (round {rounds_before}, {model.num_timesteps:,} steps)")
    else:
        model = _make_model(env, cfg, tensorboard)
    out.mkdir(parents=True, exist_ok=True)
    (out / "train_config.json").write_text(json.dumps(dataclasses.asdict(cfg), indent=2))

    t0 = time.perf_counter()
    solver = GameSolver.of(game, config)
    solve_seconds = time.perf_counter() - t0
    if solver is None:
        log(f"{game.name} has no solver module: no exact evaluation")
    else:
        log(f"solved {game.name} ({cfg.variant}) in {solve_seconds:.1f} s")
    writer = _writer(out / "tensorboard" / "eval")
    deadline = started + cfg.minutes * 60
    steps_before = int(model.num_timesteps)
    history, rounds, result = [], 0, None
    while True:
        model.learn(cfg.round_steps, reset_num_timesteps=False, tb_log_name="ppo")
        rounds += 1
        net = PolicyNet.from_policy(model.policy, game)
        opponent.add(net)
        save_checkpoint(checkpoint, model, CHECKPOINT_SIDE, rounds=rounds_before + rounds)
        steps = int(model.num_timesteps) - steps_before
        done = time.perf_counter() >= deadline or (cfg.max_steps and steps >= cfg.max_steps)
        if rounds % cfg.eval_every == 0 or done:
            result = evaluate_policy(net, game, config, solver, cfg.eval_games, cfg.seed + 10_007 * rounds)
            seconds = time.perf_counter() - started
            history.append({"round": rounds_before + rounds, "steps": int(model.num_timesteps), "seconds": seconds,
                            **{k: v for k, v in result.items() if k != "optimal"}})
            if cfg.progress:
                log(f"round {rounds_before + rounds}: {int(model.num_timesteps):,} steps, {seconds:.0f} s: "
                    f"win probability vs optimal {_line(result)}")
            if writer is not None and "overall" in result:
                for key in ("overall", "opening", "receiving"):
                    if key in result:
                        writer.add_scalar(f"eval/win_probability_{key}", result[key], int(model.num_timesteps))
                writer.add_scalar("eval/gap_to_optimal", result["optimal"]["overall"] - result["overall"],
                                  int(model.num_timesteps))
                writer.flush()
        if done:
            break
    train_seconds = time.perf_counter() - started
    if writer is not None:
        writer.close()
    env.close()
    net.save(out / POLICY_FILE)
    PolicyNet.load(out / POLICY_FILE, game)  # the file as written reads back
    summary = {
        "game": game.name, "variant": cfg.variant, "out": str(out), "policy": str(out / POLICY_FILE),
        "rounds": rounds, "total_rounds": rounds_before + rounds, "steps": int(model.num_timesteps) - steps_before,
        "total_steps": int(model.num_timesteps), "train_seconds": train_seconds, "solve_seconds": solve_seconds,
        "steps_per_second": (int(model.num_timesteps) - steps_before) / max(train_seconds, 1e-9),
        "evaluation": result, "history": history,
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    (out / "evaluation.md").write_text(evaluation_markdown(summary))
    log(f"done: {summary['steps']:,} steps in {train_seconds / 60:.1f} min; policy {out / POLICY_FILE}")
    return summary


def evaluation_markdown(summary: dict) -> str:
    """``evaluation.md``: the final measurement and the curve of the periodic ones."""
    result = summary["evaluation"]
    lines = [f"# {summary['game']} ({summary['variant']}): the trained policy against the optimal agent", "",
             f"{summary['steps']:,} learner steps in {summary['train_seconds'] / 60:.1f} minutes "
             f"({summary['steps_per_second']:,.0f} steps/s; {summary['rounds']} rounds). The greedy policy "
             "(best legal logit) plays the optimal agent; a draw counts 1/2.", ""]
    if result["method"] == "exact":
        lines += ["| policy | as opener | as the other team | over the toss |", "|---|---|---|---|"]
        for name, row in (("trained", result), ("optimal", result["optimal"])):
            cells = [f"{row[k]:.4f}" if k in row else "-" for k in ("opening", "receiving", "overall")]
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
        lines += ["", f"Exact (the solver's policy evaluation). Gap to the optimal value: "
                  f"{result['optimal']['overall'] - result['overall']:.4f}."]
    elif result["method"] == "monte-carlo":
        lines += [f"Monte Carlo (no exact evaluation of this variant): {result['overall']:.4f} +- "
                  f"{result['interval']:.4f} (95%) over {result['games']} games against the optimal agent "
                  f"(as team one {result['as_team_one']:.4f}, as team two {result['as_team_two']:.4f}); "
                  "the optimal agent's own value over both seats is 0.5."]
    else:
        lines.append("No solver for this game: no measurement against an optimal agent.")
    if summary["history"]:
        lines += ["", "| round | steps | minutes | win probability vs optimal |", "|---|---|---|---|"]
        for row in summary["history"]:
            value = f"{row['overall']:.4f}" if "overall" in row else "-"
            lines.append(f"| {row['round']} | {row['steps']:,} | {row['seconds'] / 60:.1f} | {value} |")
    return "\n".join(lines) + "\n"


# --- the command -------------------------------------------------------------------------------------------

def main(argv=None) -> dict:
    from train.checkpoint import CheckpointError

    parser = argparse.ArgumentParser(prog="python -m train.games", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    d = GameTrainConfig
    parser.add_argument("--game", default=d.game, help="a registered protocol game (default %(default)s)")
    parser.add_argument("--variant", default=None, help="one of the game's variants (default: its table's, basic)")
    parser.add_argument("--minutes", type=float, default=None, help=f"budget of the rounds (default {d.minutes})")
    parser.add_argument("--max-steps", type=int, default=None, help="also stop after this many learner steps")
    parser.add_argument("--out", default=None, help="run folder (default runs/<game>_<variant>)")
    parser.add_argument("--seed", type=int, default=None, help=f"run seed (default {d.seed})")
    parser.add_argument("--num-envs", type=int, default=None, help=f"games per env batch (default {d.num_envs})")
    parser.add_argument("--round-steps", type=int, default=None, help=f"steps per round (default {d.round_steps})")
    parser.add_argument("--eval-every", type=int, default=None, help=f"rounds between evaluations (default {d.eval_every})")
    parser.add_argument("--threads", type=int, default=None, help=f"torch threads (default {d.threads})")
    args = parser.parse_args(argv)
    try:
        cfg = GameTrainConfig.for_game(args.game, variant=args.variant, minutes=args.minutes, max_steps=args.max_steps,
                                       out=args.out, seed=args.seed, num_envs=args.num_envs,
                                       round_steps=args.round_steps, eval_every=args.eval_every, threads=args.threads)
    except ValueError as err:
        parser.error(str(err))
    try:
        return train(cfg)
    except CheckpointError as err:
        print(f"train.games: checkpoint refused: {err}", file=sys.stderr)
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()
