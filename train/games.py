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

**Warm start** (``teacher_decisions``, on by default for Sports Dice and Table Football's clock version):
before self-play the net is trained by imitation of the game's solver (:func:`warm_start`): the actor on the
solver's action values in states of the solver's own games (with some random play), the critic on its exact
values. The policy that self-play then refines starts from the solver's: a training stage that uses the
solution, said so wherever its figures are given. ``--teacher-decisions 0`` trains by self-play alone.

**Exact measurement.** Every ``eval_every`` rounds and at the end, the learner's greedy policy (the best
legal logit) is evaluated by the game's own solver module (``gridiron_env.<game>``: ``solve``,
``exact_win_probability``) against the optimal agent: its exact win probability as the opening team, as
the other team, and averaged over the toss, next to the optimal policy's own (1/2 over the toss: a policy
playing itself wins half its games over both seats; measured too unless ``measure_optimal`` is off).
A config the solver module's exact evaluation refuses (a ValueError even for the optimal policy) is measured
by Monte-Carlo games against the optimal agent instead (``eval_games``, with a 95% interval), and says so.

Every OpenBLAS in the process runs ``threads`` threads (:func:`limit_blas_threads`): the snapshots' and the
evaluations' numpy matmuls otherwise spin one thread per core against the other jobs of a shared machine.

No game-specific code beyond :data:`GAME_DEFAULTS` (a table of default settings per game): a game that
registers a GameSpec and ships a solver module with that interface trains with the same command.

Outputs in ``out``: ``policy.zip`` (the learner's checkpoint, tensors and JSON only, ``train.checkpoint``;
a rerun resumes from it), ``policy.npz`` (the exported policy: a numpy game bot of ``train.game_export``,
weights only, validated on load, never unpickled; ``gridiron_env.adapters.agents.NetAgent`` or the agent
spec ``bot:PATH`` plays it), ``policy.onnx`` (when onnx is installed), ``tensorboard/`` (SB3's scalars and
``eval/``: the exact win probabilities per evaluation), ``train_config.json``, ``summary.json`` and
``evaluation.md``. Steps are learner actions summed over the batch of games.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import inspect
import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gridiron_env.core.chance import splitmix64
from gridiron_env.protocol import GameSpec, game_names, get_game
from train.settings import check_choice, check_int, check_number

__all__ = [
    "GAME_DEFAULTS", "VARIANT_DEFAULTS", "GameTrainConfig", "SnapshotOpponent", "snapshot",
    "GameSolver", "GreedyPolicy", "evaluate_policy", "limit_blas_threads", "train", "main",
]

# Per-game defaults over GameTrainConfig's own (the one game-specific table of this module).
GAME_DEFAULTS: dict[str, dict] = {
    "table_football": {"variant": "basic"},
    # its exact evaluation asks 2.7 x 10^7 decision states (about a minute of one core): only at the end, the
    # optimal's by identity
    "sports_dice": {"variant": "basic", "eval_every": 1_000_000, "measure_optimal": False,
                    # self-play alone gets 39% of the chip calls wrong in 10 minutes (each worth a median 0.08 of
                    # win probability, under a +-1 return that dozens of later rolls decide): a warm start by
                    # imitation of the solver first
                    "teacher_decisions": 300_000},
}
# Defaults of one (game, variant) over the game's row: the clock version's exact evaluation asks ~10^9
# states (hours, RULES.md), so a clock run measures by games against the optimal agent.
VARIANT_DEFAULTS: dict[tuple, dict] = {
    # Its Monte-Carlo games against the optimal agent cost about 0.003 CPU s each (4000 in 12 s on an idle
    # core): 4000 after the warm start and at the end, a 95% interval of +-0.0155, narrow enough to tell a
    # gap of 0.02. Self-play alone scored 0.019 +- 0.008 against the optimal agent in 262,144 steps (a random
    # offence kicks from its own half, and 240 boxes give luck little room): a warm start by imitation of the
    # solver first. 1,000,000 of its decisions (130 s) came within 0.012 of the optimal's 0.5 where 300,000
    # left 0.03; self-play at PPO's usual step (learning rate 1e-3, entropy bonus 0.01) then drifted away from
    # that near-optimal start (0.488 -> 0.463 in 8 minutes), a tenth of the step, annealed to a hundredth, with
    # no entropy bonus, refined it instead (0.488 -> 0.494)
    ("table_football", "clock"): {"exact": False, "eval_every": 1_000_000, "eval_games": 4000,
                                  "teacher_decisions": 1_000_000, "learning_rate": 1e-4, "ent_coef": 0.0,
                                  "anneal": 0.1},
}
_OWNER = "GameTrainConfig"


@dataclass(frozen=True)
class GameTrainConfig:
    """Settings of a protocol game's training run (``GameTrainConfig.for_game(name, **changes)`` starts from
    the game's row of :data:`GAME_DEFAULTS`). A bad value raises ValueError naming the field.

    game / variant: a registered game (``gridiron_env.protocol.game_names()``) and one of its variants;
        game_config: fields of the game's config over the variant's (default: none, the variant itself).
    minutes: wall-clock budget of the learning rounds (the solve, the warm start and the periodic evaluations
        included; the final evaluation and export come on top, seconds). At least one round runs; a round that
        would end past the budget (judged by the length of the last one) is not started.
    max_steps: stop after this many learner steps as well (0: the budget alone decides).
    num_envs, n_steps, batch_size, n_epochs, learning_rate, gamma, gae_lambda, clip_range, ent_coef,
        vf_coef: MaskablePPO's (a rollout is num_envs x n_steps steps).
    anneal: the learning rate and the entropy coefficient fall linearly, round by round, to this fraction
        of their values at the end of the budget (of time, or of max_steps if that comes first); 1 keeps them.
    net_width, net_layers: the hidden layers of the policy and the value net (tanh).
    round_steps: learner steps between snapshots (one round).
    pool_size: snapshots kept as opponents; random_share: share of episodes against random legal play.
    opponent_temperature: the snapshots' sampling temperature (0: their best action).
    eval_every: rounds between exact evaluations (the last round is always evaluated).
    exact: measure by the solver's exact evaluation where it covers the variant; False (or where it does
        not) by ``eval_games`` Monte-Carlo games against the optimal agent.
    eval_games: Monte-Carlo games against the optimal agent (even: each deal from both seats).
    threads: torch and OpenBLAS threads (1 on the 2-core machine: small matmuls slow down badly with 2 under load).
    onnx: also export ``policy.onnx`` (skipped, with a note, when onnx or onnxscript is missing).
    scale_observations, scale_floor: the learner sees each observation value less its mean over random
        play, over its standard deviation there (at least scale_floor); the exported net takes the game's
        own observation (the scaling is folded into its first layer).
    measure_optimal: measure the optimal policy's own value with the exact evaluation (one more evaluation;
        off, it is 1/2 by identity: a policy playing itself wins half its games over both seats).
    teacher_decisions: a warm start by imitation of the game's solver before self-play (:func:`warm_start`):
        decisions with a choice labelled by the solver (0: none, pure self-play; also none without a solver
        or when resuming). teacher_explore: share of uniformly random legal actions in the teacher's games
        that generate those states; teacher_epochs, teacher_learning_rate: the supervised passes (Adam).
    """

    game: str = "table_football"
    variant: str = "basic"
    seed: int = 0
    minutes: float = 8.0
    max_steps: int = 0
    num_envs: int = 256
    n_steps: int = 32
    batch_size: int = 2048
    n_epochs: int = 8
    learning_rate: float = 1e-3
    gamma: float = 1.0
    gae_lambda: float = 0.8
    clip_range: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    net_width: int = 64
    net_layers: int = 2
    anneal: float = 1.0
    round_steps: int = 32_768
    pool_size: int = 8
    random_share: float = 0.05
    opponent_temperature: float = 1.0
    eval_every: int = 3
    eval_games: int = 4000
    threads: int = 1
    out: str = ""
    progress: bool = True
    onnx: bool = True
    measure_optimal: bool = True
    exact: bool = True
    scale_observations: bool = False
    scale_floor: float = 0.05
    teacher_decisions: int = 0
    teacher_explore: float = 0.1
    teacher_epochs: int = 20
    teacher_learning_rate: float = 3e-3
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
        check_int(_OWNER, "teacher_decisions", self.teacher_decisions, 0)
        check_int(_OWNER, "teacher_epochs", self.teacher_epochs, 1)
        check_number(_OWNER, "teacher_explore", self.teacher_explore, 0.0, 1.0)
        check_number(_OWNER, "teacher_learning_rate", self.teacher_learning_rate, 1e-8, 1.0)
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
        check_number(_OWNER, "anneal", self.anneal, 0.0, 1.0)
        check_number(_OWNER, "scale_floor", self.scale_floor, 1e-4, 100.0)
        check_number(_OWNER, "opponent_temperature", self.opponent_temperature, 0.0, 100.0)
        if self.batch_size > self.num_envs * self.n_steps:
            raise ValueError(f"{_OWNER}.batch_size must be at most num_envs x n_steps "
                             f"({self.num_envs * self.n_steps}), got {self.batch_size!r}")
        if not isinstance(self.out, str):
            raise ValueError(f"{_OWNER}.out must be a str (a folder; '' for runs/<game>_<variant>), got {self.out!r}")
        if not isinstance(self.game_config, dict):
            raise ValueError(f"{_OWNER}.game_config must be a dict of the game's config fields, "
                             f"got {self.game_config!r}")
        try:
            get_game(self.game).make_config(self.game_config, self.variant)
        except ValueError as err:
            raise ValueError(f"{_OWNER}.game_config: {err}") from None
        for name in ("progress", "onnx", "measure_optimal", "scale_observations", "exact"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{_OWNER}.{name} must be True or False, got {getattr(self, name)!r}")

    @classmethod
    def for_game(cls, game: str, **changes) -> "GameTrainConfig":
        """The config of ``game``: its :data:`GAME_DEFAULTS` row and its variant's :data:`VARIANT_DEFAULTS`, then
        ``changes`` (None values ignored)."""
        unknown = sorted(set(changes) - {f.name for f in dataclasses.fields(cls)})
        if unknown:
            raise ValueError(f"unknown {_OWNER} field(s) {unknown}")
        given = {k: v for k, v in changes.items() if v is not None}
        row = GAME_DEFAULTS.get(game, {})
        variant = given.get("variant", row.get("variant", "basic"))
        values = {**row, **VARIANT_DEFAULTS.get((game, variant), {}), **given}
        return cls(game=game, **values)

    @property
    def out_dir(self) -> Path:
        return Path(self.out or f"runs/{self.game}_{self.variant}")

    @property
    def net_arch(self) -> list[int]:
        return [self.net_width] * self.net_layers


def limit_blas_threads(threads: int) -> list[str]:
    """Cap the threads of every OpenBLAS loaded in this process (numpy's and scipy's) at ``threads``; returns
    the libraries capped. Why: the snapshots and the exact evaluation run small numpy matmuls, which with
    OpenBLAS's default of one thread per core spin against the other jobs of a shared 2-core machine and
    came out 15x slower (9.4 ms against 0.64 ms for a 256-row batch of a 64 x 64 net, under load)."""
    import ctypes

    done = []
    try:
        with open("/proc/self/maps") as maps:
            paths = sorted({line.split()[-1] for line in maps if "openblas" in line.lower() and "/" in line})
    except OSError:  # not Linux: nothing to cap this way
        return done
    for path in paths:
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for symbol in ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads", "openblas_set_num_threads64_",
                       "openblas_set_num_threads"):
            fn = getattr(lib, symbol, None)
            if fn is not None:
                fn(ctypes.c_int(threads))
                done.append(path)
                break
    return done


# --- snapshots and the exported bot ---------------------------------------------------------------------------

_PICK_SALT = np.uint64(0x6A3E_0990_5EED_0003)


def _unit(bits) -> np.ndarray:
    return (np.asarray(bits, dtype=np.uint64) >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))


def _acting_view(game: GameSpec, state, config):
    """Observations of the team to act (team one's where nobody acts) and the legal masks, of every game."""
    team = np.maximum(game.to_act(state), 0)
    return game.observe(state, team, config), game.legal_mask(state)


def _random_legal(mask, uniforms, ignored: int) -> np.ndarray:
    """int64 [B]: uniformly random legal play, the legal id at quantile ``uniforms`` [B] of each mask row
    (``ignored`` where none is legal)."""
    count = mask.sum(axis=1)
    rank = np.cumsum(mask, axis=1) - 1
    pick = np.minimum((uniforms * count).astype(np.int64), np.maximum(count - 1, 0))
    return np.where(count > 0, (mask & (rank == pick[:, None])).argmax(axis=1), ignored).astype(np.int64)


def observation_scaling(game: GameSpec, config, seed: int, floor: float, games: int = 256, steps: int = 400):
    """(mean, scale) float32 [N]: the game's observations (the acting team's side) over ``games`` games of
    uniformly random legal play, up to ``steps`` decisions each; scale is the standard deviation, at least
    ``floor``. The learner sees (obs - mean) / scale: a feature the game encodes on a small range (Table
    Football's yards to gain, /100) gets as much say in the first layer as the others. Deterministic in
    ``seed``, so a resumed run scales alike."""
    rng = np.random.default_rng(seed)
    state = game.init(games, seed, config)
    seen = []
    for _ in range(steps):
        to_act = game.to_act(state)
        live = to_act >= 0
        if not live.any():
            break
        obs, mask = _acting_view(game, state, config)
        seen.append(obs[live])
        state = game.step(state, _random_legal(mask, rng.random(games), game.ignored_action), config)
    obs = np.concatenate(seen).astype(np.float64)
    return obs.mean(axis=0).astype(np.float32), np.maximum(obs.std(axis=0), floor).astype(np.float32)


def snapshot(policy, game: GameSpec, variant: str | None = None, scaling=None):
    """A frozen numpy copy of an SB3 policy's actor: a ``train.game_export.GameBot`` (one net, both seats)
    over the game's own observation, the ``scaling`` (mean, scale) the policy was trained under folded into
    its first layer (x_n @ W + b with x_n = (x - mean) / scale is x @ (W / scale) + (b - (mean / scale) @ W))."""
    from train.game_export import GameBot, policy_layers

    layers, activation = policy_layers(policy)
    if scaling is not None:
        mean, scale = (np.asarray(a, dtype=np.float64) for a in scaling)
        w, b = (np.asarray(a, dtype=np.float64) for a in layers[0])
        layers = [((w / scale[:, None]).astype(np.float32), (b - (mean / scale) @ w).astype(np.float32))] + layers[1:]
    return GameBot(layers, activation, game, variant=variant)


def _scaled_env(env, scaling):
    """An SB3 VecEnv wrapper giving the learner (obs - mean) / scale (terminal observations too)."""
    from gymnasium import spaces
    from stable_baselines3.common.vec_env import VecEnvWrapper

    mean, scale = scaling

    class ScaledObservations(VecEnvWrapper):
        def __init__(self, venv):
            low = (venv.observation_space.low - mean) / scale
            high = (venv.observation_space.high - mean) / scale
            super().__init__(venv, observation_space=spaces.Box(low.astype(np.float32), high.astype(np.float32)))

        def reset(self):
            return ((self.venv.reset() - mean) / scale).astype(np.float32)

        def step_wait(self):
            obs, reward, done, infos = self.venv.step_wait()
            for info in infos:
                if "terminal_observation" in info:
                    info["terminal_observation"] = ((info["terminal_observation"] - mean) / scale).astype(np.float32)
            return ((obs - mean) / scale).astype(np.float32), reward, done, infos

    return ScaledObservations(env)


class SnapshotOpponent:
    """The learner's opponent inside the env (an agent the adapters reset with each game's episode seed):
    per episode, from its seed, uniformly random legal play with chance ``random_share`` (and while the pool
    is empty), else one of the pool's frozen snapshots, uniformly. Snapshots sample at ``temperature``."""

    name = "snapshots"

    def __init__(self, game: GameSpec, config, pool_size: int, random_share: float, temperature: float, seed: int):
        self.game, self.config = game, config
        self.pool_size, self.random_share, self.temperature = pool_size, random_share, temperature
        self.pool: list = []  # GameBot snapshots
        self.rng = np.random.default_rng(seed)
        self.seeds = np.zeros(0, dtype=np.uint64)

    def add(self, net) -> None:
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
        actions = _random_legal(mask, uniforms, game.ignored_action)
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
    """The exact solution of one config of a game whose package (``gridiron_env.<name>``, or its ``solve``
    submodule) has ``solve(config) -> Solution`` (``policy(state)``, ``opener_win_probability``) and
    ``exact_win_probability(policy, config)`` (a policy: a function state -> actions; it returns a number or
    a record of figures with ``overall``, e.g. ``opening``, ``receiving``). ``GameSolver.of(game, config)``
    is None for a game without them."""

    def __init__(self, game: GameSpec, config, module):
        self.game, self.config, self.module = game, config, module
        self.solution = _call(module.solve, config)
        self.covered = None  # whether exact_win_probability covers this config (known after the first call)
        self._optimal = None

    @classmethod
    def of(cls, game: GameSpec, config):
        """The solver of ``game`` from its package ``gridiron_env.<name>``, or its ``solve`` submodule."""
        for name in (f"gridiron_env.{game.name}", f"gridiron_env.{game.name}.solve"):
            try:
                module = importlib.import_module(name)
            except ImportError:
                continue
            if callable(getattr(module, "solve", None)) and callable(getattr(module, "exact_win_probability", None)):
                return cls(game, config, module)
        return None

    def optimal_policy(self, state) -> np.ndarray:
        actions = np.asarray(self.solution.policy(state), dtype=np.int64)
        return np.where(actions >= 0, actions, self.game.ignored_action)

    def exact(self, policy_fn) -> dict | None:
        """The exact win probabilities of ``policy_fn`` against the optimal agent, or None where the solver
        module's exact evaluation does not cover this config (it refuses the optimal policy itself with a
        ValueError). A ValueError about the policy (an illegal action) is raised."""
        if self.covered is False:
            return None
        try:
            result = self._exact(policy_fn)
        except ValueError:
            if self.covered:
                raise
            try:
                self._exact(self.optimal_policy)
            except ValueError:
                self.covered = False
                return None
            raise
        self.covered = True
        return result

    def optimal_value(self, measure: bool = True) -> dict:
        """The optimal policy's own value against the optimal agent: measured by the exact evaluation
        (``measure``, once), or else from the identity that a policy playing itself wins 1/2 over both seats,
        as the opening team the solution's ``opener_win_probability``."""
        if measure and self.covered is not False:
            if self._optimal is None:
                self._optimal = self.exact(self.optimal_policy)
            if self._optimal is not None:
                return self._optimal
        value = {"overall": 0.5, "identity": True}
        opener = getattr(self.solution, "opener_win_probability", None)
        if isinstance(opener, (int, float)):
            value.update(opening=float(opener), receiving=1.0 - float(opener))
        return value

    def _exact(self, policy_fn) -> dict:
        result = _call(self.module.exact_win_probability, policy_fn, self.config, solution=self.solution)
        if dataclasses.is_dataclass(result):  # every figure of the record (opening, receiving, overall, ...)
            values = {k: v for k, v in dataclasses.asdict(result).items() if isinstance(v, (int, float))}
            return {k: float(v) for k, v in values.items()}
        return {"overall": float(result)}


class GreedyPolicy:
    """A net's greedy policy (its best legal logit) as the solvers' exact evaluations ask it: on engine states,
    ``policy(state)`` (the acting team's observation; ``game.ignored_action`` where nobody acts), or, by a
    solver that assembles the observations itself, ``predict_observations(obs, mask)``."""

    def __init__(self, net, game: GameSpec, config):
        self.net, self.game, self.config = net, game, config

    def __call__(self, state) -> np.ndarray:
        obs, mask = _acting_view(self.game, state, self.config)
        return np.where(mask.any(axis=1), self.predict_observations(obs, mask), self.game.ignored_action)

    def predict_observations(self, obs, mask) -> np.ndarray:
        return self.net.act(obs, mask)

    @property
    def first_layer(self):
        """(W float32 [observation, hidden], b [hidden]) of the net's first layer, or None (a net that is no
        stack of layers): a solver whose observations are sums of a few parts adds their products with W
        instead of building every observation (``predict_first_layer``)."""
        layers = getattr(self.net, "layers", None)
        activation = getattr(self.net, "activation", None)
        if not layers or len(layers) < 2 or activation not in ("tanh", "relu"):
            return None
        return layers[0]

    def predict_first_layer(self, hidden, mask) -> np.ndarray:
        """The greedy actions from the first layer's output before its activation (obs @ W + b), float32
        [batch, hidden]: the rest of the net, then the best legal logit (as ``net.act``; the sum may round
        differently from obs @ W + b in the last bit)."""
        from train.game_export import masked_choice

        x = np.asarray(hidden, dtype=np.float32)
        relu = self.net.activation == "relu"
        for w, b in self.net.layers[1:]:
            x = np.maximum(x, 0.0, out=x) if relu else np.tanh(x, out=x)
            x = x @ w
            x += b
        return masked_choice(x, mask, 0.0)


def greedy_policy_fn(net, game: GameSpec, config) -> GreedyPolicy:
    """The net's best legal action in each game of a state (``game.ignored_action`` where nobody acts)."""
    return GreedyPolicy(net, game, config)


def play_against(game: GameSpec, config, first, second, games: int, seed: int) -> np.ndarray:
    """Points of ``first`` (1 win, 1/2 draw or truncation, 0 loss) in ``games`` full games against ``second``:
    each deal twice, game i seeded ``seed + i // 2``, ``first`` team one in even games and team two in odd
    ones (both seats from the same seed, so the same coin toss). Both are agents (``act(state, config, games)``)."""
    team = np.arange(games) % 2
    seeds = (seed + np.arange(games) // 2).astype(np.uint64)
    state = game.init(games, 0, config, seeds=seeds)
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


def evaluate_policy(net, game: GameSpec, config, solver: GameSolver | None, games: int = 4000,
                    seed: int = 0, measure_optimal: bool = True, exact: bool = True) -> dict:
    """The greedy policy of ``net`` against the optimal agent: ``{"method": "exact", "opening", "receiving",
    "overall", "optimal": {...}}`` from the solver's exact evaluation, or ``"method": "monte-carlo"`` with
    ``overall``, ``interval`` (95%) and ``games`` when the variant has no exact evaluation (or ``exact`` is
    False); ``"method":
    "none"`` for a game without a solver. ``optimal`` is the optimal policy's own value
    (:meth:`GameSolver.optimal_value`: measured exactly when ``measure_optimal``, else by identity)."""
    if solver is None:
        return {"method": "none"}
    policy = greedy_policy_fn(net, game, config)
    result = solver.exact(policy) if exact else None
    if result is not None:
        return {"method": "exact", **result, "optimal": solver.optimal_value(measure_optimal)}
    opponent = _FunctionAgent(solver.optimal_policy, "optimal")
    points = play_against(game, config, _FunctionAgent(policy, "learner"), opponent, games, seed)
    half = 1.96 * points.std(ddof=1) / math.sqrt(games)
    opening = points[0::2].mean(), points[1::2].mean()
    return {"method": "monte-carlo", "exact": "not asked for" if not exact else "not available for this config",
            "overall": float(points.mean()), "interval": float(half), "games": games,
            "as_team_one": float(opening[0]), "as_team_two": float(opening[1]),
            "optimal": solver.optimal_value(measure=False)}


# --- the warm start: imitation of the solver ----------------------------------------------------------------

REGRET_WEIGHT = 100.0  # the warm start's regret is in win probability, its typical gaps ~0.01: in points of percent
CE_WEIGHT = 0.01  # a little cross-entropy toward the solver's action: among near-equal actions, its choice
SINGLE_KEEP = 0.25  # share of the states without a choice kept (the critic's; the actor has nothing to learn there)


def teacher_states(game: GameSpec, config, solver: "GameSolver", decisions: int, explore: float, seed: int,
                   batch: int = 2048) -> dict:
    """The solver's own games with its labels, until ``decisions`` decisions with a choice (more than one legal
    action) are gathered. The games: the solver's optimal policy on both sides, each action replaced with
    chance ``explore`` by a uniformly random legal one (so states off the optimal path are seen too), batches
    of ``batch`` games seeded ``seed``, ``seed + batch``, ... Returns arrays over the states kept (every
    decision with a choice, a ``SINGLE_KEEP`` share of the others): ``obs`` float32 [n, observation] (the team
    to act's side), ``mask`` bool [n, actions], ``regret`` float32 [n, actions] (the win probability each
    legal action gives up against the best, from the solution's ``action_values``; 1 for every legal action
    but the optimal one where it has none), ``value`` float32 [n] (the acting team's win probability, the
    solution's ``value_for``; NaN where it has none), ``choice`` bool [n]."""
    rng = np.random.default_rng([seed, 0x7EAC_4E12])
    solution = solver.solution
    parts: dict[str, list] = {k: [] for k in ("obs", "mask", "regret", "value", "choice")}
    gathered, next_seed = 0, seed
    while gathered < decisions:
        state = game.init(batch, next_seed, config)
        next_seed += batch
        while True:
            to_act = game.to_act(state)
            live = to_act >= 0
            if not live.any():
                break
            obs, mask = _acting_view(game, state, config)
            best = solver.optimal_policy(state)
            count = mask.sum(axis=1)
            random_play = _random_legal(mask, rng.random(batch), game.ignored_action)
            actions = np.where(rng.random(batch) < explore, random_play, best)
            actions = np.where(live, actions, game.ignored_action).astype(np.int64)
            choice = live & (count > 1)
            keep = choice | (live & (rng.random(batch) < SINGLE_KEEP))
            rows = np.flatnonzero(keep)
            if rows.size:
                sub = state.take(rows) if hasattr(state, "take") else None
                parts["obs"].append(obs[rows])
                parts["mask"].append(mask[rows])
                parts["choice"].append(choice[rows])
                parts["regret"].append(_teacher_regret(solution, sub, mask[rows], best[rows]))
                if hasattr(solution, "value_for") and sub is not None:
                    parts["value"].append(np.asarray(solution.value_for(sub, to_act[rows]), dtype=np.float32))
                else:
                    parts["value"].append(np.full(rows.size, np.nan, dtype=np.float32))
                gathered += int(choice.sum())
            state = game.step(state, actions, config)
            if gathered >= decisions:
                break
    return {k: np.concatenate(v) for k, v in parts.items()}


def _teacher_regret(solution, state, mask, best) -> np.ndarray:
    """float32 [n, actions]: the win probability each legal action gives up against the best (0 where illegal)."""
    if state is not None and hasattr(solution, "action_values"):
        q = np.asarray(solution.action_values(state), dtype=np.float64)
        q = np.where(mask & np.isfinite(q), q, -np.inf)
        with np.errstate(invalid="ignore"):  # a row with no legal action: -inf - -inf, set to 0 below
            gap = q.max(axis=1, keepdims=True) - q
        return np.where(mask & np.isfinite(gap), gap, 0.0).astype(np.float32)
    gap = mask.astype(np.float32)
    gap[np.arange(mask.shape[0]), best] = 0.0
    return gap


def warm_start(model, game: GameSpec, config, solver: "GameSolver", cfg: GameTrainConfig, scaling=None) -> dict:
    """Train the MaskablePPO policy ``model.policy`` by imitation of the solver before self-play: on
    :func:`teacher_states` (``cfg.teacher_decisions``, ``cfg.teacher_explore``), ``cfg.teacher_epochs`` passes
    of Adam (``cfg.teacher_learning_rate``, batches of ``cfg.batch_size``) minimising the actor's expected
    regret (its chances times each action's regret, x ``REGRET_WEIGHT``) plus ``CE_WEIGHT`` of cross-entropy
    toward the solver's action, and the critic's squared error to the solver's value as a return (2 p - 1:
    +1 a win, -1 a loss). Why: self-play learns a call from the +-1 return of a whole game, which dozens of
    later rolls decide, while one call (Sports Dice's chip call: a median 0.08 of win probability) is a
    small part of it, so PPO needs many samples of each situation; the solver knows each action's worth. Returns what it did: ``decisions``, ``states``, ``seconds``,
    ``regret_per_decision`` (the greedy actor's mean regret over the decisions with a choice) and
    ``value_error`` (the critic's root mean square error, in win probability)."""
    import torch

    started = time.perf_counter()
    data = teacher_states(game, config, solver, cfg.teacher_decisions, cfg.teacher_explore, cfg.seed)
    obs = data["obs"]
    if scaling is not None:
        mean, scale = scaling
        obs = ((obs - mean) / scale).astype(np.float32)
    x = torch.as_tensor(obs)
    mask = torch.as_tensor(data["mask"])
    regret = torch.as_tensor(data["regret"])
    choice = torch.as_tensor(data["choice"])
    has_value = torch.as_tensor(np.isfinite(data["value"]))
    ret = torch.as_tensor(np.nan_to_num(2.0 * data["value"] - 1.0).astype(np.float32))
    best = regret.masked_fill(~mask, float("inf")).argmin(dim=1)
    policy = model.policy

    def heads(rows):
        features = policy.extract_features(x[rows])
        pi, vf = features if isinstance(features, tuple) else (features, features)
        logits = policy.action_net(policy.mlp_extractor.forward_actor(pi)).masked_fill(~mask[rows], -1e8)
        return logits, policy.value_net(policy.mlp_extractor.forward_critic(vf)).squeeze(-1)

    generator = torch.Generator().manual_seed(cfg.seed)
    optimizer = torch.optim.Adam(policy.parameters(), lr=cfg.teacher_learning_rate)
    policy.set_training_mode(True)
    n = x.shape[0]
    for _ in range(cfg.teacher_epochs):
        order = torch.randperm(n, generator=generator)
        for lo in range(0, n, cfg.batch_size):
            rows = order[lo:lo + cfg.batch_size]
            logits, values = heads(rows)
            c, v = choice[rows].float(), has_value[rows].float()
            chances = torch.softmax(logits, dim=1)
            actor = (REGRET_WEIGHT * (chances * regret[rows]).sum(dim=1)
                     + CE_WEIGHT * torch.nn.functional.cross_entropy(logits, best[rows], reduction="none"))
            critic = (values - ret[rows]) ** 2
            loss = (actor * c).sum() / c.sum().clamp(min=1) + (critic * v).sum() / v.sum().clamp(min=1)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    policy.set_training_mode(False)
    with torch.no_grad():
        greedy, errors = [], []
        for lo in range(0, n, 65_536):
            rows = torch.arange(lo, min(n, lo + 65_536))
            logits, values = heads(rows)
            greedy.append(regret[rows].gather(1, logits.argmax(dim=1, keepdim=True)).squeeze(1)[choice[rows]])
            errors.append(((values - ret[rows]) / 2)[has_value[rows]])
        greedy, errors = torch.cat(greedy), torch.cat(errors)
    return {"decisions": int(choice.sum()), "states": int(n), "seconds": time.perf_counter() - started,
            "regret_per_decision": float(greedy.mean()) if greedy.numel() else 0.0,
            "value_error": float(errors.pow(2).mean().sqrt()) if errors.numel() else float("nan")}


# --- training --------------------------------------------------------------------------------------------

CHECKPOINT = "policy.zip"
POLICY_FILE = "policy.npz"
ONNX_FILE = "policy.onnx"
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
    import scipy.sparse.linalg  # noqa: F401  (loads scipy's OpenBLAS, so that it is capped too)

    limit_blas_threads(cfg.threads)
    started = time.perf_counter()
    cpu_started = time.process_time()  # on a shared machine the CPU seconds say more than the wall clock
    game = get_game(cfg.game)
    config = game.make_config(dict(cfg.game_config), cfg.variant)
    out = cfg.out_dir
    opponent = SnapshotOpponent(game, config, cfg.pool_size, cfg.random_share, cfg.opponent_temperature, cfg.seed)
    venv = GameVectorEnv(cfg.num_envs, game=game, variant=cfg.variant, learner_team="random", opponent=opponent,
                         config=config, autoreset_mode=AutoresetMode.SAME_STEP)
    sb3_env = SB3VecEnv(venv)
    sb3_env.seed(cfg.seed)
    scaling = observation_scaling(game, config, cfg.seed, cfg.scale_floor) if cfg.scale_observations else None
    env = VecMonitor(sb3_env if scaling is None else _scaled_env(sb3_env, scaling))
    tensorboard = str(out / "tensorboard")
    checkpoint = out / CHECKPOINT
    rounds_before = 0
    if checkpoint.exists() or checkpoint.is_symlink():
        model, meta = load_checkpoint(checkpoint, CHECKPOINT_SIDE, lambda h: _make_model(env, cfg, tensorboard, h),
                                      cfg.net_arch, activation="tanh")
        rounds_before = meta["progress"]["rounds"]
        opponent.add(snapshot(model.policy, game, cfg.variant, scaling))
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
    teacher = None
    if cfg.teacher_decisions and solver is not None and rounds_before == 0 and steps_before == 0:
        teacher = warm_start(model, game, config, solver, cfg, scaling)
        net = snapshot(model.policy, game, cfg.variant, scaling)
        opponent.add(net)  # self-play starts against the warm-started policy, not random play
        t_eval = time.perf_counter()
        result = evaluate_policy(net, game, config, solver, cfg.eval_games, cfg.seed,
                                 cfg.measure_optimal, cfg.exact)
        seconds = time.perf_counter() - started
        teacher["evaluation"] = {k: v for k, v in result.items() if k != "optimal"}
        history.append({"round": 0, "steps": 0, "seconds": seconds, "eval_seconds": seconds - (t_eval - started),
                        "warm_start": True, **teacher["evaluation"]})
        if cfg.progress:
            log(f"warm start by imitation of the solver: {teacher['decisions']:,} decisions in "
                f"{teacher['seconds']:.0f} s (greedy regret {teacher['regret_per_decision']:.5f} a decision, "
                f"value error {teacher['value_error']:.4f}); evaluation {seconds - (t_eval - started):.0f} s: "
                f"win probability vs optimal {_line(result)}")
    while True:
        # how far through the budget this round starts: the annealed rates are constants within a round
        done_share = min(1.0, (time.perf_counter() - started) / max(cfg.minutes * 60, 1e-9))
        if cfg.max_steps:
            done_share = max(done_share, min(1.0, (int(model.num_timesteps) - steps_before) / cfg.max_steps))
        scale = 1.0 - done_share * (1.0 - cfg.anneal)
        model.learning_rate = cfg.learning_rate * scale
        model._setup_lr_schedule()
        model.ent_coef = cfg.ent_coef * scale
        round_start = time.perf_counter()
        model.learn(cfg.round_steps, reset_num_timesteps=False, tb_log_name="ppo")
        rounds += 1
        net = snapshot(model.policy, game, cfg.variant, scaling)
        opponent.add(net)
        save_checkpoint(checkpoint, model, CHECKPOINT_SIDE, rounds=rounds_before + rounds)
        steps = int(model.num_timesteps) - steps_before
        now = time.perf_counter()
        # a round that would end past the budget is not started (its length judged by the last one)
        done = now + (now - round_start) >= deadline or (cfg.max_steps and steps >= cfg.max_steps)
        if rounds % cfg.eval_every == 0 or done:
            t_eval = time.perf_counter()
            result = evaluate_policy(net, game, config, solver, cfg.eval_games, cfg.seed + 10_007 * rounds,
                                     cfg.measure_optimal, cfg.exact)
            seconds = time.perf_counter() - started
            history.append({"round": rounds_before + rounds, "steps": int(model.num_timesteps), "seconds": seconds,
                            "eval_seconds": seconds - (t_eval - started),
                            **{k: v for k, v in result.items() if k != "optimal"}})
            if cfg.progress:
                log(f"round {rounds_before + rounds}: {int(model.num_timesteps):,} steps, {seconds:.0f} s "
                    f"(evaluation {seconds - (t_eval - started):.0f} s): win probability vs optimal {_line(result)}")
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
    from train.game_export import GameBot, export_policy

    export_policy(net, out / POLICY_FILE, game, variant=cfg.variant)  # the net measured last, as a numpy bot
    GameBot.load(out / POLICY_FILE, game)  # the file as written reads back
    onnx_file = None
    if cfg.onnx:
        try:
            from train.game_export import export_onnx

            export_onnx(net, out / ONNX_FILE, game, variant=cfg.variant)
            onnx_file = str(out / ONNX_FILE)
        except ImportError as err:  # onnx / onnxscript missing: the numpy bot is enough to play
            log(f"ONNX export skipped: {err}")
    summary = {
        "game": game.name, "variant": cfg.variant, "out": str(out), "policy": str(out / POLICY_FILE), "onnx": onnx_file,
        "rounds": rounds, "total_rounds": rounds_before + rounds, "steps": int(model.num_timesteps) - steps_before,
        "total_steps": int(model.num_timesteps), "train_seconds": train_seconds, "solve_seconds": solve_seconds,
        "cpu_seconds": time.process_time() - cpu_started,
        "steps_per_second": (int(model.num_timesteps) - steps_before) / max(train_seconds, 1e-9),
        "evaluation": result, "history": history, "warm_start": teacher,
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    (out / "evaluation.md").write_text(evaluation_markdown(summary))
    log(f"done: {summary['steps']:,} steps in {train_seconds / 60:.1f} min ({summary['cpu_seconds'] / 60:.1f} min "
        f"of CPU, the final evaluation and export included); policy {out / POLICY_FILE}")
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
        how = ("the optimal row by the identity that a policy playing itself wins 1/2 over both seats"
               if result["optimal"].get("identity") else "both rows measured")
        lines += ["", f"Exact (the solver's policy evaluation; {how}). Gap to the optimal value: "
                  f"{result['optimal']['overall'] - result['overall']:.4f}."]
    elif result["method"] == "monte-carlo":
        lines += [f"Monte Carlo (the exact evaluation {result['exact']}): {result['overall']:.4f} +- "
                  f"{result['interval']:.4f} (95%) over {result['games']} games against the optimal agent "
                  f"(as team one {result['as_team_one']:.4f}, as team two {result['as_team_two']:.4f}); "
                  "the optimal agent's own value over both seats is 0.5."]
    else:
        lines.append("No solver for this game: no measurement against an optimal agent.")
    teacher = summary.get("warm_start")
    if teacher:
        lines += ["", f"Warm start by imitation of the game's solver before self-play: {teacher['decisions']:,} "
                  f"decisions of the solver's games with a choice ({teacher['seconds']:.0f} s; the greedy actor's "
                  f"regret {teacher['regret_per_decision']:.5f} of win probability a decision, the critic's error "
                  f"{teacher['value_error']:.4f}); round 0 below is the policy it gave."]
    if summary["history"]:
        lines += ["", "| round | steps | minutes | win probability vs optimal |", "|---|---|---|---|"]
        for row in summary["history"]:
            value = f"{row['overall']:.4f}" if "overall" in row else "-"
            label = "0 (warm start)" if row.get("warm_start") else row["round"]
            lines.append(f"| {label} | {row['steps']:,} | {row['seconds'] / 60:.1f} | {value} |")
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
    parser.add_argument("--eval-every", type=int, default=None,
                        help=f"rounds between evaluations (default {d.eval_every})")
    parser.add_argument("--threads", type=int, default=None, help=f"torch threads (default {d.threads})")
    parser.add_argument("--teacher-decisions", type=int, default=None,
                        help="warm start by imitation of the solver on this many decisions (0: pure self-play; "
                             "default: the game's table, 300000 for sports_dice and table_football's clock, else 0)")
    parser.add_argument("--monte-carlo", action="store_true",
                        help="measure by games against the optimal agent even where the exact evaluation exists")
    parser.add_argument("--eval-games", type=int, default=None,
                        help=f"Monte-Carlo games against the optimal agent, even (default {d.eval_games})")
    args = parser.parse_args(argv)
    try:
        cfg = GameTrainConfig.for_game(args.game, variant=args.variant, minutes=args.minutes, max_steps=args.max_steps,
                                       out=args.out, seed=args.seed, num_envs=args.num_envs,
                                       round_steps=args.round_steps, eval_every=args.eval_every, threads=args.threads,
                                       exact=False if args.monte_carlo else None, eval_games=args.eval_games,
                                       teacher_decisions=args.teacher_decisions)
    except ValueError as err:
        parser.error(str(err))
    try:
        return train(cfg)
    except CheckpointError as err:
        print(f"train.games: checkpoint refused: {err}", file=sys.stderr)
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()
