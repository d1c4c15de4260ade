"""Agents the solved small games share (Table Football, Sports Dice): uniform random play on per-game
streams, and the exact solution's play. Each game's ``agents`` module subclasses them, naming its salt,
its config class, its solver and the config field the solution ignores (the cap on plays or rolls).
``play_match`` runs a batch of games between two agents for each game's ``play_games`` (Touchdown's too)."""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass

import numpy as np

from agents.base import GameStreams, pick_uniform_legal

__all__ = ["UniformRandomAgent", "SolutionAgent", "MatchResult", "play_match"]


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


@dataclass
class MatchResult:
    """Per game: the team agent A played, the opener (the team that opened on offence), the winner (-1
    none, 2 a draw), the final score, truncation; and the wall time of the match."""

    a_team: np.ndarray
    opener: np.ndarray
    winner: np.ndarray
    score: np.ndarray
    truncated: np.ndarray
    seconds: float

    DRAW = 2  # the winner code of a draw (Table Football's and Touchdown's; Sports Dice has no draws)

    @property
    def a_points(self) -> np.ndarray:
        """1 for an A win, 1/2 for a draw or a game with no winner (truncated), 0 for a loss."""
        draw_or_none = (self.winner == self.DRAW) | (self.winner < 0)
        return np.where(self.winner == self.a_team, 1.0, np.where(draw_or_none, 0.5, 0.0))

    @property
    def a_rate(self) -> float:
        return float(self.a_points.mean())


def play_match(init, step, config, agent_a, agent_b, n_games: int, seed: int = 0, a_team=None,
               fill_action: int = 0, opener=None) -> MatchResult:
    """Play ``n_games`` full games of A against B in one batch of the engine ``init`` / ``step`` under
    ``config``: game i is seeded ``seed + i`` (both agents reset with those seeds); A plays team
    ``a_team[i]`` (default alternating 0, 1, ...), B the other. ``fill_action``: the action given to the
    finished games (which ignore it; Touchdown's ``wait``). ``opener``: a function of the first state (after
    ``init``) giving each game's opener, for a game whose state has no ``opener`` field; by default the
    last state's ``opener``."""
    a_team = (np.arange(n_games) % 2) if a_team is None else np.asarray(a_team, dtype=np.int64)
    start = time.perf_counter()
    seeds = seed + np.arange(n_games, dtype=np.int64)
    agent_a.reset(seeds)
    agent_b.reset(seeds)
    state = init(n_games, seed=seed, config=config)
    opened = None if opener is None else np.asarray(opener(state), dtype=np.int64).copy()
    while True:
        live = ~(state.terminated | state.truncated)
        if not live.any():
            break
        actions = np.full(n_games, fill_action, dtype=np.int64)
        a_turn = live & (state.to_act == a_team)
        for agent, turn in ((agent_a, a_turn), (agent_b, live & ~a_turn)):
            games = np.flatnonzero(turn)
            if games.size:
                actions[games] = np.asarray(agent.act(state, config, games))[games]
        state = step(state, actions, config, reuse_input=True)
    opened = state.opener.astype(np.int64) if opened is None else opened
    return MatchResult(a_team=a_team, opener=opened, winner=state.winner.astype(np.int64),
                       score=state.score.astype(np.int64), truncated=state.truncated.copy(),
                       seconds=time.perf_counter() - start)
