"""Agents for Table Football, in the agent protocol of ``agents/base.py`` (name, reset(seeds),
act(state, config, games)), and a match runner.

- ``OptimalAgent``: the exact solver's policy (``solve.py``), deterministic.
- ``RandomAgent``: a uniformly random legal action from one counter-based stream per game.
- ``FixedAgent``: a simple stationary rule: run, but on the last down kick a field goal when it is at
  least ``kick_chance`` likely to be good, else punt; decline every other decision.
"""

from __future__ import annotations

import numpy as np

from ..solved_agents import MatchResult, SolutionAgent, UniformRandomAgent, play_match

from . import actions as A
from .config import TableFootballConfig
from .engine import init, step
from .state import CHOOSE, State

_SALT = 0x7AB1_EF00_7BA1_0001


class OptimalAgent(SolutionAgent):
    """Plays the exact solution of its config (solved on first use, or given)."""

    config_class = TableFootballConfig
    solver = "gridiron_env.table_football.solve"
    ignored_field = "max_plays"  # the solution does not depend on the cap


class RandomAgent(UniformRandomAgent):
    """Uniform over the legal actions; game g's choice at its step t comes from its own stream."""

    salt = _SALT


class FixedAgent:
    """Run; on the last down a field goal if its chance is at least ``kick_chance``, else a punt; decline
    every recovery, out-of-bounds and time-out decision. Stationary and deterministic."""

    def __init__(self, kick_chance: float = 0.5):
        if not (0 <= kick_chance <= 1):
            raise ValueError(f"kick_chance must be in [0, 1], got {kick_chance!r}")
        self.kick_chance = kick_chance
        self.name = f"fixed(kick>={kick_chance:g})"

    def reset(self, seeds) -> None:
        pass

    def act(self, state: State, config: TableFootballConfig | None = None, games=None) -> np.ndarray:
        config = config or TableFootballConfig()
        pos = state.position.astype(np.int64)
        good_faces = np.clip(7 - np.ceil((100 - pos) / 10), 0, 6)
        last = state.down >= config.downs
        kick = np.where(good_faces / 6 >= self.kick_chance, A.FIELD_GOAL, A.PUNT)
        choose = np.where(last, kick, A.RUN_PLAY)
        return np.where(state.phase == CHOOSE, choose, A.DECLINE).astype(np.int64)


def play_games(agent_a, agent_b, n_games: int, seed: int = 0, config: TableFootballConfig | None = None,
               a_team=None) -> MatchResult:
    """Play ``n_games`` full games of A against B in one batch: game i is seeded ``seed + i``; A plays
    team ``a_team[i]`` (default alternating 0, 1, ...)."""
    return play_match(init, step, config or TableFootballConfig(), agent_a, agent_b, n_games, seed, a_team)
