"""SelfPlayBatch: N two-team games stepped together, for self-play training and tournaments.

Both teams are played by the caller. Each step takes one action per game, for whichever team is to act
in that game (teams do not alternate: a team often acts several times in a row), and reports, for every
game, which team acts next and what that team sees::

    from gridiron_env.envs.selfplay import SelfPlayBatch

    batch = SelfPlayBatch(256, autoreset=True, target_score=7)
    turn = batch.reset(seed=0)
    while training:
        actions = policy[...](turn.observation, turn.action_mask)     # one action per game, [N] ints
        turn = batch.step(actions)
        turn.rewards[:, 0], turn.rewards[:, 1]                          # team one's and team two's reward

Every call returns a :class:`SelfPlayStep` (a NamedTuple: unpack it or use the names):

- ``to_act``: int8 [N], the team to act in each game (0 = team one, 1 = team two), -1 when the game is over
  (only without autoreset: with autoreset a finished game is replaced at once by a new one);
- ``observation``: the acting team's observation of each game, from its own side (it attacks "up"):
  float32 [N, FEATURES_SIZE] (``observation="features"``) or ``{"planes": uint8 [N, C, 30, 18],
  "scalars": float32 [N, SCALARS_SIZE]}``; a finished game is shown from team one's side;
- ``action_mask``: int8 [N, 291], the acting team's legal actions; a finished game's row (its action is
  ignored) marks only id 0, "end turn", so that no row is ever all zero (masked samplers need one id);
- ``rewards``: float32 [N, 2], each team's reward for this step: +1 to the winner and -1 to the loser on
  the step a game ends with a winner (an illegal action included), 0 on truncation, plus
  ``score_reward_scale`` x the change of (own score - other score) on every step; the columns sum to 0;
- ``terminated`` / ``truncated``: bool [N], True only on the step where the game ended (won, or hit
  ``GameConfig.max_steps``); without autoreset the game then stays over (``to_act == -1``);
- ``info``: a dict: ``"illegal"`` bool [N] (the game was forfeited by an illegal action this step),
  ``"winner"`` int8 [N] (winner of a game that ended this step, else -1), ``"final_score"`` int16 [N, 2]
  (its final score, else 0), ``"episode_seed"`` uint64 [N] (the seed of the game now in each slot); when an
  illegal action was played, ``"illegal_action"``: {game: {"team", "action", "name", "reason"}}; when a
  game ended, ``"final_games"`` (their indices) and ``"final_state"`` (their States just before any
  autoreset, in that order).

Actions are ints [N] (another shape, or entries that are not ints: floats, strs, None, is a ValueError
that changes nothing). Actions of finished games are ignored (pass any int, e.g. the mask's 0). An
illegal action (one outside 0..290, or a bool: Python counts it as an int, but it is never an action id)
forfeits that game: it ends as a loss for the team that played it, the other games step normally. With
``illegal_action="raise"`` the step raises :class:`~gridiron_env.core.IllegalActionError` (a ValueError)
instead and changes nothing.

Seeding: ``reset(seed=s)`` plays game i as the engine does with seed s + i, so game i is the same game as a
lone env (or a ``SelfPlayBatch(1)``) reset with seed s + i, given the same actions. Game i's episode e
(e = 0 for the first) uses seed ``s + i + N * e``: with autoreset the e-th replacement of slot i, and
``reset()`` without a seed starts the next episode of every slot. A first ``reset()`` without any seed
draws s at random. A seed is any int >= 0 taken modulo 2**64, and the per-game seeds wrap past
2**64 - 1 to 0; a negative or non-int seed is a ValueError.

``observe(team)`` gives either team's view of every game (e.g. the waiting team's), ``action_mask(team)``
its mask (only "end turn" in a game where it is not to act: a placeholder; ``step`` plays each game's
action for the team to act), ``render(game)`` draws one game (lazily imports the renderer).
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from typing import Any, NamedTuple

import numpy as np

from ..config import GameConfig
from ..core import NUM_ACTIONS, IllegalActionError, action_name
from ..core import init as engine_init
from ..core import step as engine_step
from ..core.engine import forfeit, recompute_legal
from ..core.state import State
from ..scenarios import get_scenario
from .common import (
    AGENTS, IGNORED_ROW_ACTION, ILLEGAL_ACTION_MODES, OBSERVATION_KINDS, action_space, batch_actions,
    check_choice, check_seed, encode, illegal_entry, int8_mask, observation_space, render_game,
)

RENDER_MODES = ("human", "ansi", "rgb_array")
_CONFIG_FIELDS = tuple(f.name for f in dataclasses.fields(GameConfig))


# --------------------------------------------------------------------------------- shared with the AEC env

def make_config(config, fields: dict, env_options=()) -> GameConfig:
    """A GameConfig from ``config`` (a GameConfig or None) with ``fields`` (GameConfig field values) applied.

    Raises ValueError for a config that is not a GameConfig or a keyword that is neither a GameConfig field
    nor an env option (``env_options`` are listed in the message).
    """
    if config is not None and not isinstance(config, GameConfig):
        raise ValueError(f"config must be a GameConfig or None, got {type(config).__name__}")
    unknown = sorted(set(fields) - set(_CONFIG_FIELDS))
    if unknown:
        raise ValueError(f"unknown option(s) {unknown}; allowed: env options {sorted(env_options)} "
                         f"and GameConfig fields {list(_CONFIG_FIELDS)}")
    base = config or GameConfig()
    return base.replace(**fields) if fields else base


def check_scale(value) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value) or value < 0:
        raise ValueError(f"score_reward_scale must be a finite number >= 0, got {value!r}")
    return float(value)


def check_render_mode(value):
    if value is not None and not (isinstance(value, str) and value in RENDER_MODES):
        raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, got {value!r}")
    return value


def init_games(seeds, config: GameConfig) -> State:
    """New games, game j seeded ``seeds[j]``: equal to ``core.init(1, seeds[j])`` for each j."""
    return engine_init(seeds=seeds, config=config)


def advance(state: State, actions: np.ndarray, config: GameConfig, illegal_action: str = "lose", given=None):
    """Apply one action per live game (for its team to act). Returns (new_state, illegal bool [N], details).

    ``actions``: int64 [N]; finished games ignore theirs. An illegal or out-of-space action forfeits its
    game ("lose"; ``details`` maps the game index to the info entry) or raises IllegalActionError ("raise").
    ``given`` (object [N], optional): the actions as the caller passed them where some are not ids (bools,
    ints beyond int64; -1 in ``actions``), for the messages.
    """
    to_act = state.to_act
    live = to_act >= 0
    in_space = (actions >= 0) & (actions < NUM_ACTIONS)
    ok = state.legal[np.arange(actions.size), np.where(in_space, actions, 0)] & in_space
    illegal = live & ~ok
    if not illegal.any():
        return engine_step(state, actions, config=config), illegal, {}
    bad = np.flatnonzero(illegal)
    if illegal_action == "raise":
        if given is not None:  # the first offending game, in the caller's terms
            g = int(bad[0])
            entry = illegal_entry(state, g, given[g])
            names = [action_name(i) for i in np.flatnonzero(state.legal[g])]
            raise IllegalActionError(f"game {g}: {entry['reason']}", game=g, action=entry["action"],
                                     legal_actions=names)
        engine_step(state, actions, config=config, active=live)  # raises with the engine's full message
        raise IllegalActionError("illegal action")  # unreachable unless the engine accepted it
    stepping = live & ok
    new = engine_step(state, actions, config=config, active=stepping) if stepping.any() else state.copy()
    details = {}
    for g in bad.tolist():  # only the offending games, to build their messages
        entry = illegal_entry(state, g, int(actions[g]) if given is None else given[g])
        details[g] = {"team": AGENTS[int(to_act[g])], **entry}
    forfeit(new, bad, to_act[bad])
    return new, illegal, details


def team_rewards(old: State, new: State, ended: np.ndarray, scale: float) -> np.ndarray:
    """float32 [N, 2]: +1/-1 to the winner/loser of games that ended this step, plus score shaping."""
    rewards = np.zeros((old.batch_size, 2), dtype=np.float32)
    won = np.flatnonzero(ended & (new.winner >= 0))
    if won.size:
        w = new.winner[won].astype(np.int64)
        rewards[won, w] = 1.0
        rewards[won, 1 - w] = -1.0
    if scale:
        delta = (new.score.astype(np.float32) - old.score.astype(np.float32)) @ np.array([1.0, -1.0], np.float32)
        rewards[:, 0] += scale * delta
        rewards[:, 1] -= scale * delta
    return rewards


def team_index(team, n: int | None = None):
    """0/1 from an agent name or index; arrays of indices pass through (checked)."""
    if isinstance(team, str):
        if team not in AGENTS:
            raise ValueError(f"team must be one of {AGENTS} or 0/1, got {team!r}")
        return AGENTS.index(team)
    t = np.asarray(team)
    if not np.issubdtype(t.dtype, np.integer) or ((t != 0) & (t != 1)).any():
        raise ValueError(f"team must be 0, 1, {AGENTS[0]!r} or {AGENTS[1]!r}, got {team!r}")
    if t.ndim == 0:
        return int(t)
    if n is not None and t.shape != (n,):
        raise ValueError(f"a team array must have shape ({n},), got {t.shape}")
    return t.astype(np.int64)


# --------------------------------------------------------------------------------- the batch

class SelfPlayStep(NamedTuple):
    """What ``SelfPlayBatch.reset`` and ``step`` return; see the module docstring for every field."""

    to_act: np.ndarray
    observation: Any
    action_mask: np.ndarray
    rewards: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    info: dict


class SelfPlayBatch:
    """N two-team games in one batch; the caller plays both teams (see the module docstring).

    Options: ``num_games`` (int >= 1); ``config`` (a GameConfig) and/or GameConfig fields as keywords
    (``target_score=7``, ...); ``observation`` "features" or "planes"; ``illegal_action`` "lose" or
    "raise"; ``score_reward_scale`` (>= 0: reward per point of score difference gained); ``autoreset``
    (replace a finished game by a new one in the same step); ``render_mode`` None, "human", "ansi",
    "rgb_array"; ``offence_up`` (render with the offence attacking up); ``scenario`` (a name of
    ``gridiron_env.SCENARIOS``: every game, autoresets included, starts from it; ``reset(scenario=)``
    starts that reset's games from one).

    Attributes: ``state`` (the engine State of the N games: read it, change it only through
    ``set_state``), ``config``, ``num_games``, ``single_observation_space`` / ``single_action_space`` (one
    game), ``observation_space`` / ``action_space`` (batched), ``episode_seeds`` (uint64 [N]).
    """

    _ENV_OPTIONS = ("num_games", "config", "observation", "illegal_action", "score_reward_scale", "autoreset",
                    "render_mode", "offence_up", "scenario")

    def __init__(self, num_games: int, *, config: GameConfig | None = None, observation: str = "features",
                 illegal_action: str = "lose", score_reward_scale: float = 0.0, autoreset: bool = False,
                 render_mode: str | None = None, offence_up: bool = False, scenario: str | None = None,
                 **config_fields):
        if isinstance(num_games, bool) or not isinstance(num_games, numbers.Integral) or num_games < 1:
            raise ValueError(f"num_games must be an int >= 1, got {num_games!r}")
        check_choice("observation", observation, OBSERVATION_KINDS)
        check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        if not isinstance(autoreset, bool):
            raise ValueError(f"autoreset must be True or False, got {autoreset!r}")
        if not isinstance(offence_up, bool):
            raise ValueError(f"offence_up must be True or False, got {offence_up!r}")
        self.num_games = int(num_games)
        self.config = make_config(config, config_fields, self._ENV_OPTIONS)
        self.scenario = None if scenario is None else get_scenario(scenario)
        self.observation_kind = observation
        self.illegal_action = illegal_action
        self.score_reward_scale = check_scale(score_reward_scale)
        self.autoreset = autoreset
        self.render_mode = check_render_mode(render_mode)
        self.offence_up = offence_up
        self._renderer = None

        from gymnasium.vector.utils import batch_space

        self.single_observation_space = observation_space(observation)
        self.single_action_space = action_space()
        self.observation_space = batch_space(self.single_observation_space, self.num_games)
        self.action_space = batch_space(self.single_action_space, self.num_games)

        self._base_seed: np.uint64 | None = None
        self._episode = np.zeros(self.num_games, dtype=np.uint64)
        self._slots = np.arange(self.num_games, dtype=np.uint64)
        self.state: State | None = None

    # --- seeds

    @property
    def episode_seeds(self) -> np.ndarray:
        """uint64 [N]: the seed of the game in each slot, base seed + i + N * episode (wrapping)."""
        if self._base_seed is None:
            raise RuntimeError("call reset() first")
        with np.errstate(over="ignore"):
            return self._base_seed + self._slots + np.uint64(self.num_games) * self._episode

    # --- API

    def reset(self, seed: int | None = None, scenario: str | None = None) -> SelfPlayStep:
        """Start new games in every slot: game i seeded ``seed + i``; without a seed, each slot's next
        episode. ``scenario``: a name of ``gridiron_env.SCENARIOS`` these games start from (None: the
        env's own start)."""
        scenario = self.scenario if scenario is None else get_scenario(scenario)
        if seed is not None:
            self._base_seed = np.uint64(check_seed(seed))
            self._episode[:] = 0
        elif self._base_seed is None:
            self._base_seed = np.uint64(int(np.random.SeedSequence().entropy) % (1 << 63))
            self._episode[:] = 0
        else:
            self._episode += np.uint64(1)
        self.state = self._new_games(self.episode_seeds, scenario)
        n = self.num_games
        info = {
            "illegal": np.zeros(n, dtype=bool), "winner": np.full(n, -1, dtype=np.int8),
            "final_score": np.zeros((n, 2), dtype=np.int16), "episode_seed": self.episode_seeds,
        }
        if self.render_mode == "human":
            self.render()
        return self._report(np.zeros((n, 2), np.float32), np.zeros(n, bool), np.zeros(n, bool), info)

    def step(self, actions) -> SelfPlayStep:
        """One action per game (int [N]) for the team to act in it; finished games ignore theirs."""
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        actions, given = batch_actions(actions, self.num_games)
        old = self.state
        live = old.to_act >= 0
        new, illegal, details = advance(old, actions, self.config, self.illegal_action, given)
        ended = live & (new.to_act < 0)
        rewards = team_rewards(old, new, ended, self.score_reward_scale)
        terminated = ended & new.terminated
        truncated = ended & new.truncated
        winner = np.where(ended, new.winner, -1).astype(np.int8)
        final_score = np.where(ended[:, None], new.score, 0).astype(np.int16)
        info = {"illegal": illegal, "winner": winner, "final_score": final_score}
        if details:
            info["illegal_action"] = details
        if ended.any():
            games = np.flatnonzero(ended)
            info["final_games"] = games
            info["final_state"] = new.take(games)
            if self.autoreset:
                self._episode[games] += np.uint64(1)
                new.put(games, self._new_games(self.episode_seeds[games], self.scenario))
        info["episode_seed"] = self.episode_seeds
        self.state = new
        if self.render_mode == "human":
            self.render()
        return self._report(rewards, terminated, truncated, info)

    def _new_games(self, seeds, scenario) -> State:
        return init_games(seeds, self.config) if scenario is None else scenario.build(seeds, self.config)

    def _report(self, rewards, terminated, truncated, info) -> SelfPlayStep:
        s = self.state
        return SelfPlayStep(
            to_act=s.to_act.copy(),
            observation=self._encode(s.to_act),
            action_mask=self.action_mask(),
            rewards=rewards, terminated=terminated, truncated=truncated, info=info,
        )

    def _encode(self, team):
        obs = encode(self.state, team, self.observation_kind, self.config)
        return obs

    def observe(self, team):
        """Every game seen by ``team`` (0/1, an agent name, or an int array [N] of teams), from its side."""
        if self.state is None:
            raise RuntimeError("call reset() first")
        return self._encode(team_index(team, self.num_games))

    def action_mask(self, team=None) -> np.ndarray:
        """int8 [N, 291]: ``team``'s legal actions (default: the team to act's). A row where that team does
        not act (the other team is to act, or the game is over) marks only id 0, "end turn"."""
        if self.state is None:
            raise RuntimeError("call reset() first")
        s = self.state
        mask = int8_mask(s.legal)
        idle = s.to_act < 0
        if team is not None:
            idle = s.to_act != team_index(team, self.num_games)
            mask[idle] = 0
        mask[:, IGNORED_ROW_ACTION] |= idle
        return mask

    def set_state(self, state: State) -> SelfPlayStep:
        """Continue from a given engine State of N games (copied; legal masks recomputed). Returns its report."""
        if not isinstance(state, State) or state.batch_size != self.num_games:
            raise ValueError(f"state must be a State of {self.num_games} games")
        if self._base_seed is None:
            self._base_seed = np.uint64(0)
        self.state = state.copy()
        recompute_legal(self.state, self.config)
        n = self.num_games
        info = {"illegal": np.zeros(n, bool), "winner": np.full(n, -1, np.int8),
                "final_score": np.zeros((n, 2), np.int16), "episode_seed": self.episode_seeds}
        return self._report(np.zeros((n, 2), np.float32), np.zeros(n, bool), np.zeros(n, bool), info)

    def render(self, game: int = 0):
        """Draw one game: a str ("ansi"), an HxWx3 uint8 array ("rgb_array"), or print it ("human")."""
        if self.render_mode is None:
            raise ValueError("render() needs a render_mode: SelfPlayBatch(..., render_mode='ansi')")
        if self.state is None:
            raise RuntimeError("call reset() before render()")
        return render_game(self, self.state, game)

    def close(self) -> None:
        self._renderer = None
