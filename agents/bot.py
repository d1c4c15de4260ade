"""The single-player bot's runtime: numpy only.

A bot file (``.npz``) holds two multilayer perceptrons, the **offence policy** (used when the team to act
had the ball at the snap) and the **defence policy**, as weight and bias arrays, plus metadata that pins
the observation it expects (``gridiron_env.core.observe``, the ``features`` form). The game feeds it the
documented encoder's features and the legal-action mask; the bot never picks an illegal action.

File layout (all arrays; loaded with ``allow_pickle=False``)::

    format            str   "gridiron-bot-v1"
    features_size     int   length of the observation vector
    num_actions       int   size of the action space
    activation        str   "tanh" or "relu"
    offence_layers    int   number of linear layers of the offence net; likewise defence_layers
    offence_w{i}, offence_b{i}   float32 [in, out] and [out] for layer i (the last one gives the logits)
    defence_w{i}, defence_b{i}
    on_offence_index  int   index of the "on_offence" feature that selects the net
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np

FORMAT = "gridiron-bot-v1"
# Difficulty levels of the single-player bot: its sampling temperature (0 = always its best action).
# Each level's win rate against the heuristic is measured and listed in README.md. The temperatures are
# set for the shipped bot (gridiron_env/data/BOT.md): a stronger bot needs more sampling to play as weakly,
# so they are measured again whenever the shipped bot changes.
LEVELS = {"easy": 2.5, "medium": 2.0, "hard": 0.3}
# The level the bot plays unless told otherwise (evaluations, `gridiron-play`): a little sampling plays
# better than the plain best action and never loops on free handoffs.
DEFAULT_LEVEL = "hard"
MASKED_LOGIT = -1e8
_ACTIVATIONS = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
}


class BotFileError(ValueError):
    """A bot file that is missing, corrupt, or does not fit this game's observation or actions."""


class Bot:
    """Two MLPs (offence, defence) over the features observation. Pure numpy."""

    def __init__(self, offence: list[tuple[np.ndarray, np.ndarray]], defence: list[tuple[np.ndarray, np.ndarray]],
                 activation: str, on_offence_index: int, features_size: int, num_actions: int):
        if activation not in _ACTIVATIONS:
            raise BotFileError(f"activation must be one of {sorted(_ACTIVATIONS)}, got {activation!r}")
        for name, layers in (("offence", offence), ("defence", defence)):
            _check_layers(name, layers, features_size, num_actions)
        self.offence = [(w.astype(np.float32), b.astype(np.float32)) for w, b in offence]
        self.defence = [(w.astype(np.float32), b.astype(np.float32)) for w, b in defence]
        self.activation = activation
        self.on_offence_index = int(on_offence_index)
        self.features_size = int(features_size)
        self.num_actions = int(num_actions)

    # --- files -----------------------------------------------------------------------------------------

    def save(self, path) -> None:
        arrays = {
            "format": np.array(FORMAT),
            "features_size": np.array(self.features_size),
            "num_actions": np.array(self.num_actions),
            "activation": np.array(self.activation),
            "on_offence_index": np.array(self.on_offence_index),
        }
        for name, layers in (("offence", self.offence), ("defence", self.defence)):
            arrays[f"{name}_layers"] = np.array(len(layers))
            for i, (w, b) in enumerate(layers):
                arrays[f"{name}_w{i}"] = w
                arrays[f"{name}_b{i}"] = b
        np.savez_compressed(path, **arrays)

    @classmethod
    def load(cls, path, features_size: int | None = None, num_actions: int | None = None) -> "Bot":
        """Load a ``.npz`` bot; raises BotFileError naming what is wrong. Checks the file against the
        given (or this package's) observation and action sizes."""
        path = Path(path)
        if not path.is_file():
            raise BotFileError(f"no bot file at {path}")
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {k: data[k] for k in data.files}
        except (zipfile.BadZipFile, ValueError, OSError, EOFError) as err:
            raise BotFileError(f"{path} is not a readable .npz bot file: {err}") from None
        if str(arrays.get("format", "")) != FORMAT:
            raise BotFileError(f"{path} is not a {FORMAT} file (format={arrays.get('format')!r})")
        try:
            layers = {}
            for name in ("offence", "defence"):
                n = int(arrays[f"{name}_layers"])
                layers[name] = [(arrays[f"{name}_w{i}"], arrays[f"{name}_b{i}"]) for i in range(n)]
            meta = dict(activation=str(arrays["activation"]), on_offence_index=int(arrays["on_offence_index"]),
                        features_size=int(arrays["features_size"]), num_actions=int(arrays["num_actions"]))
        except KeyError as err:
            raise BotFileError(f"{path} lacks the array {err.args[0]!r}") from None
        expected_features, expected_actions = _package_sizes()
        features_size = expected_features if features_size is None else features_size
        num_actions = expected_actions if num_actions is None else num_actions
        if meta["features_size"] != features_size or meta["num_actions"] != num_actions:
            raise BotFileError(
                f"{path} expects {meta['features_size']} features and {meta['num_actions']} actions; this game "
                f"has {features_size} and {num_actions}")
        return cls(layers["offence"], layers["defence"], **meta)

    # --- inference -------------------------------------------------------------------------------------

    def _forward(self, layers, x):
        act = _ACTIVATIONS[self.activation]
        for i, (w, b) in enumerate(layers):
            x = x @ w + b
            if i < len(layers) - 1:
                x = act(x)
        return x

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """Raw logits [batch, num_actions] (float32) of the net chosen by each row's on_offence feature."""
        x = np.atleast_2d(np.asarray(observation, dtype=np.float32))
        if x.shape[1] != self.features_size:
            raise ValueError(f"observation must have {self.features_size} features, got {x.shape[1]}")
        on_offence = x[:, self.on_offence_index] > 0.5
        out = np.empty((x.shape[0], self.num_actions), dtype=np.float32)
        if on_offence.any():
            out[on_offence] = self._forward(self.offence, x[on_offence])
        if (~on_offence).any():
            out[~on_offence] = self._forward(self.defence, x[~on_offence])
        return out

    def act(self, observation, action_mask, temperature: float = 0.0, rng: np.random.Generator | None = None,
            uniforms: np.ndarray | None = None):
        """A legal action per row: the best masked logit (temperature 0) or a sample at ``temperature``
        (from ``uniforms``, one float in [0, 1) per row, else from ``rng``)."""
        logits = self.logits(observation)
        mask = np.atleast_2d(np.asarray(action_mask)).astype(bool)
        masked = np.where(mask, logits, MASKED_LOGIT)
        if temperature <= 0:
            return masked.argmax(axis=1)
        rng = rng or np.random.default_rng()
        z = masked / temperature
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z) * mask
        p /= p.sum(axis=1, keepdims=True)
        u = rng.random(p.shape[0]) if uniforms is None else np.asarray(uniforms, dtype=np.float64)
        return (p.cumsum(axis=1) > u[:, None]).argmax(axis=1)


def _check_layers(name, layers, features_size, num_actions):
    if not layers:
        raise BotFileError(f"the {name} net has no layers")
    width = features_size
    for i, (w, b) in enumerate(layers):
        if w.ndim != 2 or b.ndim != 1 or w.shape[0] != width or w.shape[1] != b.shape[0]:
            raise BotFileError(f"the {name} net's layer {i} has shapes {w.shape} and {b.shape}; expected "
                               f"({width}, n) and (n,)")
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise BotFileError(f"the {name} net's layer {i} holds non-finite weights")
        width = w.shape[1]
    if width != num_actions:
        raise BotFileError(f"the {name} net gives {width} logits; the game has {num_actions} actions")


def _package_sizes():
    from gridiron_env.core.actions import NUM_ACTIONS
    from gridiron_env.core.observe import FEATURES_SIZE

    return FEATURES_SIZE, NUM_ACTIONS


class BotAgent:
    """A bot (numpy ``Bot``) as an agent of ``agents.base``: it sees only the documented observation
    (``features``, from the acting team's side) and the legal mask. ``temperature`` 0 plays the best
    action; above 0 it samples from per-game streams (so a game's play does not depend on the batch)."""

    _SALT = 0xB07B07

    def __init__(self, bot: "Bot", name: str = "bot", temperature: float = 0.0):
        from agents.base import GameStreams

        self.bot = bot
        self.name = name
        self.temperature = float(temperature)
        self.streams = GameStreams()

    @classmethod
    def load(cls, path, **kwargs) -> "BotAgent":
        return cls(Bot.load(path), **kwargs)

    def reset(self, seeds) -> None:
        self.streams.reset(seeds, self._SALT)

    def act(self, state, config=None, games=None) -> np.ndarray:
        from gridiron_env.core.observe import observe

        games = np.arange(state.batch_size) if games is None else np.asarray(games)
        actions = np.zeros(state.batch_size, dtype=np.int64)
        live = games[state.to_act[games] >= 0]
        if live.size:
            self.streams.ensure(state.batch_size, self._SALT)
            sub = state.take(live)
            uniforms = self.streams.uniform(live, state.steps[live]) if self.temperature > 0 else None
            actions[live] = self.bot.act(observe(sub, None, config), sub.legal, self.temperature, uniforms=uniforms)
        return actions
