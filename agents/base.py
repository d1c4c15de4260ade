"""The agent protocol, per-game random streams, and a match runner for agents.

An **agent** plays one side of a batch of games through the engine State (``gridiron_env.core.state``):

- ``name: str`` - a short label for reports.
- ``reset(seeds)`` - called before a batch of games: ``seeds`` is an integer array with one seed per game
  of the batch. An agent keeps one random stream per game, keyed on that game's seed, so what it does in
  game i depends only on game i's seed and history, never on the batch size or on the other games.
- ``act(state, config, games=None) -> np.ndarray`` - int64 ``[batch]``: for every game of the batch a
  legal action (``state.legal``) of the team to act (``state.to_act``) in it. Games that are over, or in
  which another agent acts, may get any value. ``games`` (optional) lists the game indices the caller will
  use; an agent may compute only those (an agent may also ignore it). ``config`` is the game's
  ``GameConfig`` (or None for the defaults).

What an agent may read: the State as either team sees it. It must NOT use hidden information: never
``ball_square`` while ``ball_hidden`` is True (the blind fumble scramble), never the other team's
``special`` while ``phase`` is the specials pick (``state.SPECIALS_PICK``), never ``rng_key`` /
``rng_counter``. :func:`visible_view` makes a copy of a state with exactly those fields blanked, for
agents that want the guarantee by construction.

:class:`GameStreams` gives the per-game random numbers: draw ``k`` of game g at its ``state.steps`` is
``splitmix64(key[g] + (steps * 64 + k) * golden)`` - a counter-based stream indexed by the game's own step
count, so an agent's random choices depend only on (seed, game step), whatever the calling pattern.

:func:`play_games` plays two agents against each other over a batch of full games and returns a
:class:`MatchResult` (wins, scores, lengths, truncations). :class:`TeamOfUnits` makes one team of two
agents: one's offence, the other's defence.
"""

from __future__ import annotations

import inspect
import time
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from gridiron_env.config import GameConfig
from gridiron_env.core.chance import splitmix64
from gridiron_env.core.engine import init, step
from gridiron_env.core.state import State
from gridiron_env.core.visibility import team_view

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
DRAWS_PER_STEP = 64  # an agent may take up to 64 draws per game and step


@runtime_checkable
class Agent(Protocol):
    """The agent protocol (see the module docstring)."""

    name: str

    def reset(self, seeds: np.ndarray) -> None:
        ...

    def act(self, state: State, config: GameConfig | None = None, games: np.ndarray | None = None) -> np.ndarray:
        ...


class GameStreams:
    """One counter-based random stream per game, indexed by the game's step count (``state.steps``).

    ``reset(seeds, salt)`` keys game i on ``splitmix64(seeds[i] ^ salt)``; ``uniform(games, steps, k)``
    is the k-th uniform float in [0, 1) of each game in ``games`` at its step count ``steps`` (k < 64).
    """

    def __init__(self):
        self.keys = np.zeros(0, dtype=np.uint64)

    def reset(self, seeds, salt: int) -> None:
        seeds = np.asarray(seeds).astype(np.int64).astype(np.uint64)
        self.keys = splitmix64(seeds ^ np.uint64(salt))

    def ensure(self, batch_size: int, salt: int) -> None:
        """Key games 0..batch_size-1 on seeds 0, 1, ... if ``reset`` was not called for this batch."""
        if self.keys.size < batch_size:
            self.reset(np.arange(batch_size), salt)

    def uniform(self, games: np.ndarray, steps: np.ndarray, k: int = 0) -> np.ndarray:
        """The k-th uniform float in [0, 1) of each game in ``games`` (indices into the batch the streams
        were reset for) at its step count ``steps`` (``state.steps`` of those games)."""
        games = np.asarray(games, dtype=np.int64)
        if not 0 <= k < DRAWS_PER_STEP:
            raise ValueError(f"draw index k must be in 0..{DRAWS_PER_STEP - 1}, got {k}")
        counter = np.asarray(steps).astype(np.uint64) * np.uint64(DRAWS_PER_STEP) + np.uint64(k)
        with np.errstate(over="ignore"):
            bits = splitmix64(self.keys[games] + counter * _GOLDEN)
        return (bits >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))

    def integers(self, games: np.ndarray, steps: np.ndarray, high, k: int = 0) -> np.ndarray:
        """Uniform ints in [0, high) (``high`` a scalar or one value per game, >= 1)."""
        high = np.asarray(high, dtype=np.int64)
        u = self.uniform(games, steps, k)
        return np.minimum((u * high).astype(np.int64), np.maximum(high - 1, 0))


def pick_uniform_legal(legal: np.ndarray, unit: np.ndarray) -> np.ndarray:
    """For each row of the bool mask ``legal`` the legal action at quantile ``unit`` (0 if none)."""
    count = legal.sum(axis=1)
    pick = np.minimum((unit * count).astype(np.int64), np.maximum(count - 1, 0))
    order = np.cumsum(legal, axis=1) - 1
    return np.argmax(legal & (order == pick[:, None]), axis=1).astype(np.int64)


def visible_view(state: State, games=None) -> State:
    """A copy of ``state`` (or of its ``games``) with the hidden fields blanked: ``ball_square`` -1 while
    ``ball_hidden``; during the specials pick the special of the team not to act -1; rng fields 0."""
    return team_view(state, games)  # the one definition of what a team may see (core.visibility)


def _accepts_games(agent) -> bool:
    try:
        return "games" in inspect.signature(agent.act).parameters
    except (TypeError, ValueError):
        return False


def act_on_rows(agent, state: State, config, rows, actions: np.ndarray) -> None:
    """Write ``agent``'s moves in the games ``rows`` of ``state`` into ``actions`` (asked with ``games=rows``
    when the agent takes them); nothing when ``rows`` is empty."""
    if rows.size:
        out = agent.act(state, config, games=rows) if _accepts_games(agent) else agent.act(state, config)
        actions[rows] = np.asarray(out)[rows]


class TeamOfUnits:
    """A team whose offensive unit is one agent and whose defensive unit another: wherever the team to act
    had the ball at the snap (``state.offence``) it plays ``offence``'s move, elsewhere ``defence``'s (the
    split of the bot's two nets, by the observation's on_offence feature). Each unit keeps its own per-game
    streams, so it decides as it would for a whole team of its own."""

    def __init__(self, offence, defence, name: str | None = None):
        self.offence, self.defence = offence, defence
        self.name = name or f"{offence.name} offence, {defence.name} defence"

    def reset(self, seeds) -> None:
        self.offence.reset(seeds)
        if self.defence is not self.offence:
            self.defence.reset(seeds)

    def act(self, state: State, config: GameConfig | None = None, games=None) -> np.ndarray:
        games = np.arange(state.batch_size) if games is None else np.asarray(games, dtype=np.int64)
        actions = np.zeros(state.batch_size, dtype=np.int64)
        on_offence = state.to_act[games] == state.offence[games]
        for unit, rows in ((self.offence, games[on_offence]), (self.defence, games[~on_offence])):
            act_on_rows(unit, state, config, rows, actions)
        return actions


class MixedTeam:
    """A team that plays each game as one of ``members`` (agents), the same one all game: game g's member
    is ``splitmix64(seed_g ^ salt) % len(members)``, so it depends on the game's seed alone, whatever the
    batch. A teacher of two styles: a net that imitates it learns each style's plays from the formation
    it itself picked, where a mixture within a play would join one style's formation to another's carries.
    Every member is reset on every game and keeps its own per-game streams."""

    salt = 0x3C6E_F372_FE94_F82B

    def __init__(self, members, name: str | None = None):
        self.members = list(members)
        if len(self.members) < 2:
            raise ValueError(f"a mixed team needs at least two members, got {len(self.members)}")
        self.name = name or ",".join(member.name for member in self.members)
        self.member_of = np.zeros(0, dtype=np.int64)

    def reset(self, seeds) -> None:
        seeds = np.asarray(seeds).astype(np.uint64)
        self.member_of = (splitmix64(seeds ^ np.uint64(self.salt)) % np.uint64(len(self.members))).astype(np.int64)
        for member in self.members:
            member.reset(seeds)

    def act(self, state: State, config: GameConfig | None = None, games=None) -> np.ndarray:
        games = np.arange(state.batch_size) if games is None else np.asarray(games, dtype=np.int64)
        if self.member_of.size < state.batch_size:
            raise ValueError(f"{self.name}: reset for {self.member_of.size} games, asked to act in a batch of "
                             f"{state.batch_size}")
        actions = np.zeros(state.batch_size, dtype=np.int64)
        for k, member in enumerate(self.members):  # a loop over the members, not over games
            act_on_rows(member, state, config, games[self.member_of[games] == k], actions)
        return actions


@dataclass
class MatchResult:
    """Results of ``play_games``: per game, which team agent A played, the winner (-1 none), the final
    score [team one, team two], the agent steps taken, and whether it was truncated; plus wall time."""

    a_team: np.ndarray
    winner: np.ndarray
    score: np.ndarray
    steps: np.ndarray
    truncated: np.ndarray
    seconds: float

    @property
    def n_games(self) -> int:
        return int(self.winner.size)

    @property
    def a_wins(self) -> np.ndarray:
        return self.winner == self.a_team

    @property
    def b_wins(self) -> np.ndarray:
        return self.winner == 1 - self.a_team

    @property
    def a_score(self) -> np.ndarray:
        return self.score[np.arange(self.n_games), self.a_team]

    @property
    def b_score(self) -> np.ndarray:
        return self.score[np.arange(self.n_games), 1 - self.a_team]

    def summary(self, a_name: str = "A", b_name: str = "B") -> str:
        n = self.n_games
        lines = [
            f"{n} games: {a_name} won {int(self.a_wins.sum())} ({self.a_wins.mean():.1%}), "
            f"{b_name} won {int(self.b_wins.sum())}, truncated {int(self.truncated.sum())}",
        ]
        for team in (0, 1):
            m = self.a_team == team
            if m.any():
                lines.append(f"  {a_name} as team {'one' if team == 0 else 'two'}: won {int(self.a_wins[m].sum())}"
                             f"/{int(m.sum())}")
        lines.append(f"  mean score {a_name} {self.a_score.mean():.2f} - {b_name} {self.b_score.mean():.2f}; "
                     f"steps per game median {np.median(self.steps):.0f}, max {self.steps.max()}")
        lines.append(f"  {self.seconds:.1f} s, {self.seconds / max(n, 1) * 1000:.0f} ms per game")
        return "\n".join(lines)


def play_games(agent_a, agent_b, n_games: int, seed: int = 0, config: GameConfig | None = None,
               a_team=None) -> MatchResult:
    """Play ``n_games`` full games of ``agent_a`` against ``agent_b`` in one batch.

    Game i is the engine's game seeded ``seed + i`` (``init(n_games, seed)``) and both agents are reset
    with the seeds ``seed + arange(n_games)``, so game i plays exactly like a lone game with
    ``seed=seed + i`` and ``a_team=[a_team[i]]``. ``a_team[i]`` (0 or 1) is the team agent A plays in game
    i (default: alternating 0, 1, 0, ...); agent B plays the other team. Runs until every game is over
    (won or truncated by ``config.max_steps``).
    """
    config = config or GameConfig()
    a_team = (np.arange(n_games) % 2) if a_team is None else np.asarray(a_team, dtype=np.int64)
    if a_team.shape != (n_games,) or not np.isin(a_team, (0, 1)).all():
        raise ValueError("a_team must hold 0 or 1 for each game")
    start = time.perf_counter()
    seeds = seed + np.arange(n_games, dtype=np.int64)
    agent_a.reset(seeds)
    agent_b.reset(seeds)
    pass_games = (_accepts_games(agent_a), _accepts_games(agent_b))
    state = init(n_games, seed=seed, config=config)
    while True:
        live = ~(state.terminated | state.truncated)
        if not live.any():
            break
        actions = np.zeros(n_games, dtype=np.int64)
        a_turn = live & (state.to_act == a_team)
        for agent, turn, with_games in ((agent_a, a_turn, pass_games[0]), (agent_b, live & ~a_turn, pass_games[1])):
            games = np.flatnonzero(turn)
            if games.size:
                out = agent.act(state, config, games=games) if with_games else agent.act(state, config)
                actions[games] = np.asarray(out)[games]
        state = step(state, actions, config=config)
    return MatchResult(a_team=a_team, winner=state.winner.astype(np.int64), score=state.score.astype(np.int64),
                       steps=state.steps.astype(np.int64), truncated=state.truncated.copy(),
                       seconds=time.perf_counter() - start)
