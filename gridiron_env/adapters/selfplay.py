"""GameSelfPlayBatch: N two-team games of any protocol game stepped together; the caller plays both teams.

For self-play training (one net for both seats) and tournaments, over any
:class:`~gridiron_env.protocol.GameSpec`::

    from gridiron_env.adapters.selfplay import GameSelfPlayBatch

    batch = GameSelfPlayBatch(256, game="table_football", variant="clock", autoreset=True)
    turn = batch.reset(seed=0)
    while training:
        actions = policy(turn.observation, turn.action_mask)   # one action per game, int [N]
        turn = batch.step(actions)
        turn.rewards[:, 0], turn.rewards[:, 1]                   # team one's and team two's reward

Each step takes one action per game for whichever team is to act in it (turns need not alternate) and
returns a :class:`GameSelfPlayStep` (a NamedTuple):

- ``to_act``: int8 [N], the team to act (0 team one, 1 team two), -1 once the game is over (only without
  autoreset: with autoreset a finished game is replaced by a new one in the same step);
- ``observation``: float32 [N, observation_size], the acting team's view of each game from its own side
  (``game.observe``); a finished game is shown from team one's side;
- ``action_mask``: int8 [N, num_actions], the acting team's legal actions; a finished game's row (its
  action is ignored) marks only ``game.ignored_action``, so no row is ever all zero;
- ``rewards``: float32 [N, 2], each team's reward: +1 to the winner and -1 to the loser on the step a game
  ends with a winner (an illegal action included), 0 for a draw and on truncation (the game's own cap),
  plus ``score_reward_scale`` x the change of (own score - other score) on every step; rows sum to 0;
- ``terminated`` / ``truncated``: bool [N], True only on the step the game ended (a result / the cap);
- ``info``: ``"illegal"`` bool [N] (forfeited by an illegal action this step), ``"winner"`` int8 [N] (the
  winning team of a game that ended this step, -1 otherwise, a draw included), ``"draw"`` bool [N],
  ``"final_score"`` int64 [N, 2] (the score of a game that ended, else 0), ``"episode_seed"`` uint64 [N]
  (the seed of the game now in each slot); when an illegal action was played ``"illegal_action"``:
  {slot: {"team", "action", "name", "reason"}}; when games ended ``"final_games"`` (their slots) and
  ``"final_state"`` (their states before any autoreset, in that order; a game forfeited in a game with no
  ``forfeit`` of its own stays where the illegal action was tried, its result in ``"winner"``).

Actions: ints [N] as :func:`~gridiron_env.adapters.common.batch_actions` reads them (another shape, or
entries that are not ints or bools, is a ValueError that changes nothing). Finished games ignore theirs.
An illegal action (not legal now, outside the space, or a bool) forfeits that game as a loss for the team
that played it; the other games step normally. ``illegal_action="raise"`` raises the game's
``illegal_error`` instead and changes nothing.

Seeding (as every env of :mod:`.common`): ``reset(seed=s)`` gives slot i the base seed s + i (mod 2**64);
its episode 0 is the game ``init(seeds=[s + i])``, later episodes (autoresets, or ``reset()`` without a
seed) take ``common.episode_seeds(s + i, e, game.salts.selfplay)``. So slot i of a batch of
any size plays exactly like slot 0 of a batch of one reset with s + i, given the same actions.
"""

from __future__ import annotations

import math
import numbers
from typing import Any, NamedTuple

import numpy as np

from ..protocol import TEAMS, EnvSalts, GameSpec, get_game
from .common import (
    AGENTS, ILLEGAL_ACTION_MODES, batch_actions, check_choice, check_positive_int, check_seed, episode_seeds,
    forfeit_note, get_scenario, illegal_entry, masks_for, new_games,
)

__all__ = ["GameSelfPlayBatch", "GameSelfPlayStep", "SELFPLAY_SALT"]

# later episodes of a self-play slot: the generic salt (a game's own is its ``salts.selfplay``)
SELFPLAY_SALT = np.uint64(EnvSalts().selfplay)


class GameSelfPlayStep(NamedTuple):
    """What ``GameSelfPlayBatch.reset`` and ``step`` return (see the module docstring)."""

    to_act: np.ndarray
    observation: np.ndarray
    action_mask: np.ndarray
    rewards: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    info: dict


def _team_index(team, n: int):
    """0/1 from an agent name or index, or an int array [n] of them (checked)."""
    if isinstance(team, str):
        if team not in AGENTS:
            raise ValueError(f"team must be one of {AGENTS} or 0/1, got {team!r}")
        return AGENTS.index(team)
    if isinstance(team, (bool, np.bool_)):
        raise ValueError(f"team must be 0, 1 or an agent name, got {team!r}")
    t = np.asarray(team)
    if t.dtype.kind not in "iu" or not np.isin(t, TEAMS).all():
        raise ValueError(f"team must be 0, 1, {AGENTS[0]!r} or {AGENTS[1]!r}, got {team!r}")
    if t.ndim == 0:
        return int(t)
    if t.shape != (n,):
        raise ValueError(f"a team array must have shape ({n},), got {t.shape}")
    return t.astype(np.int64)


class GameSelfPlayBatch:
    """N two-team games of ``game`` in one engine state (see the module docstring).

    Options: ``num_games`` (int >= 1); ``game`` (a registered name or a GameSpec); ``variant``; ``config``
    (the game's config or a dict of its fields); ``illegal_action`` "lose" / "raise"; ``score_reward_scale``
    (a finite number >= 0); ``autoreset`` (bool); ``scenario`` (a name of ``game.scenarios``: every game,
    autoresets included, starts from that position; ``reset(scenario=)`` starts that reset's games from one).

    Attributes: ``game``, ``config``, ``num_games``, ``state`` (the engine state of the N games: read it,
    change it only with :meth:`set_state`), ``episode_seeds`` (uint64 [N]).
    """

    def __init__(self, num_games: int, *, game="table_football", variant: str = "basic", config=None,
                 illegal_action: str = "lose", score_reward_scale: float = 0.0, autoreset: bool = False,
                 scenario=None):
        self.num_games = check_positive_int("num_games", num_games)
        self.game: GameSpec = get_game(game)
        self.scenario = None if scenario is None else get_scenario(self.game, scenario)
        self.config = self.game.make_config(config, variant)
        self.variant = variant
        check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        if (isinstance(score_reward_scale, (bool, np.bool_)) or not isinstance(score_reward_scale, numbers.Real)
                or not math.isfinite(score_reward_scale) or score_reward_scale < 0):
            raise ValueError(f"score_reward_scale must be a finite number >= 0, got {score_reward_scale!r}")
        if not isinstance(autoreset, bool):
            raise ValueError(f"autoreset must be True or False, got {autoreset!r}")
        self.illegal_action = illegal_action
        self.score_reward_scale = float(score_reward_scale)
        self.autoreset = autoreset
        n = self.num_games
        self._base = np.zeros(n, dtype=np.uint64)
        self._episode = np.zeros(n, dtype=np.uint64)
        # the team that won by the other's illegal action, -1 none (for a game with no forfeit of its own,
        # the state stays where the illegal action was tried and this records the result)
        self._forfeit_winner = np.full(n, -1, dtype=np.int64)
        self.state = None

    # --- seeds ------------------------------------------------------------------------------------------

    @property
    def episode_seeds(self) -> np.ndarray:
        """uint64 [N]: the seed of the game now in each slot."""
        self._started()
        return episode_seeds(self._base, self._episode, self.game.salts.selfplay)

    def _started(self) -> None:
        if self.state is None:
            raise RuntimeError("call reset() first")

    def _new_games(self, games, scenario=None) -> Any:
        seeds = episode_seeds(self._base[games], self._episode[games], self.game.salts.selfplay)
        return new_games(self.game, seeds, self.config, self.scenario if scenario is None else scenario)

    # --- API --------------------------------------------------------------------------------------------

    def reset(self, seed=None, scenario=None) -> GameSelfPlayStep:
        """New games in every slot: slot i seeded ``seed + i``; without a seed, each slot's next episode (a
        first reset without a seed draws one at random). ``scenario``: a name of ``game.scenarios`` these
        games start from (None: the env's own start)."""
        n = self.num_games
        scenario = None if scenario is None else get_scenario(self.game, scenario)
        if seed is None and self.state is None:
            seed = int(np.random.SeedSequence().entropy) % (1 << 63)
        if seed is not None:
            s = check_seed(seed)
            with np.errstate(over="ignore"):  # s + i wraps past 2**64 - 1 to 0
                self._base = np.uint64(s) + np.arange(n, dtype=np.uint64)
            self._episode[:] = 0
        else:
            self._episode += np.uint64(1)
        self.state = self._new_games(np.arange(n), scenario)
        self._forfeit_winner[:] = -1
        return self._report(np.zeros((n, 2), np.float32), np.zeros(n, bool), np.zeros(n, bool), self._blank_info())

    def set_state(self, state) -> GameSelfPlayStep:
        """Continue from a given state of N games (validated by the game's invariants; copied)."""
        game = self.game
        if not isinstance(state, game.state_class) or game.batch_size(state) != self.num_games:
            raise ValueError(f"state must be a {game.state_class.__name__} of {self.num_games} game(s)")
        try:
            game.check_invariants(state, self.config)
        except Exception as err:  # the engine's own message says which game and why
            raise ValueError(f"state is not a valid position of this config: {err}") from err
        self.state = game.copy(state)
        self._forfeit_winner[:] = -1
        n = self.num_games
        return self._report(np.zeros((n, 2), np.float32), np.zeros(n, bool), np.zeros(n, bool), self._blank_info())

    def step(self, actions) -> GameSelfPlayStep:
        """One action per game (int [N]) for the team to act in it; finished games ignore theirs."""
        game, n = self.game, self.num_games
        ids, given = batch_actions(actions, n, game.num_actions)
        self._started()
        old = self.state
        to_act = self.to_act()
        live = to_act >= 0
        in_space = (ids >= 0) & (ids < game.num_actions)
        ok = in_space & game.legal_mask(old)[np.arange(n), np.where(in_space, ids, 0)]
        bad = np.flatnonzero(live & ~ok)
        details = {}
        for g in bad.tolist():  # only the offending games: rare
            details[g] = illegal_entry(game, old, g, ids[g] if given is None else given[g], int(to_act[g]))
        if bad.size and self.illegal_action == "raise":
            g = int(bad[0])
            legal = [game.action_names[i] for i in np.flatnonzero(game.legal_mask(game.take(old, [g]))[0])]
            raise game.illegal_error(f"game {g}: {details[g]['reason']}", game=g, action=details[g]["action"],
                                     legal_actions=legal)
        go = np.flatnonzero(live & ok)
        engine_live = game.to_act(old) >= 0
        if go.size == n or (not bad.size and not (engine_live & ~live).any()):
            # the whole batch in one engine step: the finished games ignore their action
            new = game.step(old, np.where(live, ids, game.ignored_action), self.config)
        else:
            new = game.copy(old)
            if go.size:
                game.put(new, go, game.step(game.take(old, go), ids[go], self.config))
        if bad.size:
            self._forfeit_winner[bad] = 1 - to_act[bad]
            if game.forfeit is not None:
                game.forfeit(new, bad, to_act[bad], self.config)
        self.state = new
        # results
        ended = live & (self.to_act() < 0)
        forfeited = self._forfeit_winner >= 0
        winner = np.where(forfeited, self._forfeit_winner, game.winner(new))
        terminated = ended & (game.terminated(new) | forfeited)
        truncated = ended & ~terminated
        won = terminated & np.isin(winner, TEAMS)
        rewards = np.zeros((n, 2), dtype=np.float32)
        rows = np.flatnonzero(won)
        rewards[rows, winner[rows]] = 1.0
        rewards[rows, 1 - winner[rows]] = -1.0
        score = game.score(new)
        if self.score_reward_scale:
            delta = ((score[:, 0] - score[:, 1]) - (game.score(old)[:, 0] - game.score(old)[:, 1])).astype(np.float32)
            rewards[:, 0] += self.score_reward_scale * delta
            rewards[:, 1] -= self.score_reward_scale * delta
        illegal = np.zeros(n, dtype=bool)
        illegal[bad] = True
        info = {"illegal": illegal, "winner": np.where(won, winner, -1).astype(np.int8),
                "draw": terminated & (winner == game.draw_value),
                "final_score": np.where(ended[:, None], score, 0).astype(np.int64)}
        if details:
            info["illegal_action"] = details
        if ended.any():
            games = np.flatnonzero(ended)
            info["final_games"] = games
            info["final_state"] = game.take(new, games)
            if self.autoreset:
                self._episode[games] += np.uint64(1)
                game.put(self.state, games, self._new_games(games))
                self._forfeit_winner[games] = -1
        info["episode_seed"] = self.episode_seeds
        return self._report(rewards, terminated, truncated, info)

    # --- views ------------------------------------------------------------------------------------------

    def to_act(self) -> np.ndarray:
        """int8 [N]: the team to act in each game, -1 once it is over (a forfeited game included)."""
        self._started()
        t = self.game.to_act(self.state)
        return np.where(self._forfeit_winner >= 0, -1, t).astype(np.int8)

    def observe(self, team) -> np.ndarray:
        """float32 [N, observation_size]: every game seen by ``team`` (0/1, an agent name, or int [N])."""
        self._started()
        return self.game.observe(self.state, _team_index(team, self.num_games), self.config)

    def action_mask(self, team=None) -> np.ndarray:
        """int8 [N, A]: the legal actions of ``team`` (default: the team to act's). A row where that team
        does not act (the other is to act, or the game is over) marks only ``game.ignored_action``."""
        to_act = self.to_act().astype(np.int64)
        mine = to_act >= 0 if team is None else to_act == _team_index(team, self.num_games)
        return masks_for(self.game, self.game.legal_mask(self.state), mine).astype(np.int8)

    def render(self, game: int = 0) -> str:
        """The text picture of one game (``game.render_ansi``), with a forfeit noted."""
        self._started()
        if isinstance(game, (bool, np.bool_)) or not isinstance(game, numbers.Integral) \
                or not 0 <= game < self.num_games:
            raise ValueError(f"game must be a slot 0..{self.num_games - 1}, got {game!r}")
        text = self.game.render_ansi(self.state, int(game))
        if self._forfeit_winner[game] >= 0:
            text += "\n" + forfeit_note(int(self._forfeit_winner[game]))
        return text

    def _blank_info(self) -> dict:
        n = self.num_games
        return {"illegal": np.zeros(n, bool), "winner": np.full(n, -1, np.int8), "draw": np.zeros(n, bool),
                "final_score": np.zeros((n, 2), np.int64), "episode_seed": self.episode_seeds}

    def _report(self, rewards, terminated, truncated, info) -> GameSelfPlayStep:
        to_act = self.to_act()
        seen_by = np.maximum(to_act, 0).astype(np.int64)  # a finished game is shown from team one's side
        return GameSelfPlayStep(
            to_act=to_act, observation=self.game.observe(self.state, seen_by, self.config),
            action_mask=self.action_mask(), rewards=rewards, terminated=terminated, truncated=truncated,
            info=info)

    def __repr__(self) -> str:
        return (f"{type(self).__name__}({self.num_games}, game={self.game.name!r}, variant={self.variant!r}, "
                f"autoreset={self.autoreset})")
