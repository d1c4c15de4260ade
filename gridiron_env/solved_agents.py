"""Agents the solved small games share (Table Football, Sports Dice): uniform random play on per-game
streams, and the exact solution's play. Each game's ``agents`` module subclasses them, naming its salt,
its config class, its solver and the config field the solution ignores (the cap on plays or rolls)."""

from __future__ import annotations

import importlib

import numpy as np

from agents.base import GameStreams, pick_uniform_legal

__all__ = ["UniformRandomAgent", "SolutionAgent"]


class UniformRandomAgent:
    """Uniform over the legal actions; game g's choice at its step t comes from its own stream (keyed on
    the subclass's ``salt``)."""

    name = "random"
    salt = 0

    def __init__(self):
        self.streams = GameStreams()

    def reset(self, seeds) -> None:
        self.streams.reset(seeds, self.salt)

    def act(self, state, config=None, games=None) -> np.ndarray:
        self.streams.ensure(state.batch_size, self.salt)
        games = np.arange(state.batch_size) if games is None else np.asarray(games, dtype=np.int64)
        actions = np.zeros(state.batch_size, dtype=np.int64)
        if games.size:
            unit = self.streams.uniform(games, state.steps[games])
            actions[games] = pick_uniform_legal(state.legal[games], unit)
        return actions

    def action_probabilities(self, state, config=None) -> np.ndarray:
        """float64 [B, NUM_ACTIONS]: 1 / (legal actions) on each legal action (0 rows when over)."""
        legal = state.legal.astype(np.float64)
        return legal / np.maximum(legal.sum(axis=1, keepdims=True), 1.0)


class SolutionAgent:
    """Plays the exact solution of its config (solved on first use, or given). A subclass sets
    ``config_class``, ``solver`` (the module path of its ``solve``) and ``ignored_field`` (a config field
    the solution does not depend on)."""

    name = "optimal"
    config_class: type = type(None)
    solver = ""
    ignored_field = ""

    def __init__(self, config=None, solution=None):
        self.config = config
        self.solution = solution

    def reset(self, seeds) -> None:  # deterministic: nothing to key
        pass

    def _solution(self, config):
        config = config or self.config or self.config_class()
        same = {self.ignored_field: 1}
        if self.solution is None or self.solution.config.replace(**same) != config.replace(**same):
            self.solution = importlib.import_module(self.solver).solve(config)
        return self.solution

    def act(self, state, config=None, games=None) -> np.ndarray:
        sol = self._solution(config)
        actions = np.zeros(state.batch_size, dtype=np.int64)
        games = np.arange(state.batch_size) if games is None else np.asarray(games, dtype=np.int64)
        if games.size:
            actions[games] = np.maximum(sol.policy(state.take(games)), 0)
        return actions
