"""RandomAgent: a uniformly random legal action, from one counter-based stream per game."""

from __future__ import annotations

import numpy as np

from gridiron_env.config import GameConfig
from gridiron_env.core.state import State

from .base import GameStreams, pick_uniform_legal

_SALT = 0x7A2D_0C1E_5EED_0001


class RandomAgent:
    """Uniform over the legal actions of the team to act. Game g's choice at its step t is drawn from
    the stream keyed on its seed (``reset``) at counter t, so it is the same in any batch."""

    name = "random"

    def __init__(self):
        self.streams = GameStreams()

    def reset(self, seeds) -> None:
        self.streams.reset(seeds, _SALT)

    def act(self, state: State, config: GameConfig | None = None, games=None) -> np.ndarray:
        self.streams.ensure(state.batch_size, _SALT)
        games = np.arange(state.batch_size) if games is None else np.asarray(games, dtype=np.int64)
        actions = np.zeros(state.batch_size, dtype=np.int64)
        if games.size:
            unit = self.streams.uniform(games, state.steps[games])
            actions[games] = pick_uniform_legal(state.legal[games], unit)
        return actions
