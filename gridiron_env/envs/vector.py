"""Natively batched Gymnasium envs, and the learner core every single-agent env is built on.

``LearnerBatch`` holds N games in one engine state, with one learner seat per game (the learner's team),
the opponent (one callable acting for the other team of every game, in batch) and the episode kind:

- ``"game"``: a whole game; reward +1 / -1 to the learner when the game is won / lost, 0 on truncation,
  plus ``score_reward_scale * (change of own score - change of other score) / target_score`` every step;
- ``"drive"``: one drive, the learner on offence or on defence (see :class:`GridironOffenceVectorEnv`).

A learner step applies the learner's actions (validated: an illegal action ends that game as a loss, or
raises with ``illegal_action="raise"``), then lets the opponent act in batch, one engine step for all
games where it is to act, until the learner is to act again or the episode is over. Observations and
masks are always from the learner's side.

The single-agent envs (:mod:`gridiron_env.envs.single`) are this core with N = 1 and the vector envs here
are the core with N = num_envs, so "game i of a batch reset with seed s plays exactly like a lone env
reset with seed s + i, given the same actions" holds by construction. Seeding: slot i has a base seed b
(``s + i`` after ``reset(seed=s)``) and an episode count k; episode k plays the engine game seeded b for
k = 0 and a seed derived from (b, k) after that, so autoresets of game i in a batch and ``reset()`` calls
of a lone env seeded s + i play the same episodes. Everything random an episode needs (the engine's
dice, the learner's team when "random", drive start positions and specials, the default opponent's
stream) is drawn from that episode seed.
"""

from __future__ import annotations

import inspect
import math
import numbers

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..config import GameConfig
from ..core import NUM_ACTIONS, IllegalActionError, action_name
from ..core import init as engine_init
from ..core.engine import forfeit
from ..adapters.common import draw_int as _draw
from ..adapters.common import check_render_mode
from ..adapters.vector import GameVectorEnv, expand_infos, parse_autoreset_mode
from ..adapters.common import episode_seeds as generic_episode_seeds
from ..adapters.common import scenario_groups, scenario_of, scenario_option
from ..core import step as engine_step
from ..core.state import FIELDS as _FIELDS
from ..core.state import State
from ..gridiron.drive import (  # noqa: F401  (FIELD_ROWS: train.rllib_env reads it here)
    DRIVE_SIDES, DRIVE_STARTS, FIELD_ROWS, MAX_DRIVE_POINTS, DriveConfig, field_position, start_drives,
)
from ..gridiron.game import SALTS
from ..scenarios import FAMILIES, get_scenario, scenario_names
from .common import (
    AGENTS, IGNORED_ROW_ACTION, ILLEGAL_ACTION_MODES, OBSERVATION_KINDS, RandomOpponent, action_space,
    batch_actions, check_choice, check_seed, encode, illegal_entry, observation_space, render_game,
)

EPISODE_KINDS = ("game", "drive")
LEARNER_TEAMS = ("one", "two", "random")
RENDER_MODES = ("ansi", "rgb_array")

# Salts of the per-episode draws: Gridiron's GameSpec's (``gridiron_env.gridiron.game.SALTS``), so the
# generic envs over it play these episodes; a drive's start draws are the drive spec's (``gridiron.drive``).
_EPISODE_SALT = np.uint64(SALTS.episode)
_LEARNER_SALT = np.uint64(SALTS.learner)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_AGENT_NAMES = np.array(AGENTS, dtype=object)


# ----------------------------------------------------------------------------------------------- helpers

def episode_seeds(base, episode) -> np.ndarray:
    """uint64 seed of episode ``episode`` (0, 1, ...) of slots with base seed ``base``: ``base`` itself first."""
    return generic_episode_seeds(base, episode, _EPISODE_SALT)


# The opponent loop compacts its sub-batch only when that drops at least this many finished games: a
# compaction costs two calls per state field (write back, take), a few finished games riding along cost
# the engine little more than copying their rows.
_MIN_COMPACTION = 128


def _take_rows(state: State, rows) -> State:
    """``state.take(rows)`` with one copy per field (State.take copies each fancy-indexed field twice).
    ``ndarray.take`` along the batch axis: about 3x cheaper than ``value[rows]`` over a whole state."""
    new = object.__new__(State)
    new.__dict__.update({name: value.take(rows, axis=0) for name, value in state.__dict__.items()
                         if name in _FIELDS})
    return new


def _put_rows(state: State, games, other: State, rows) -> None:
    """In place: ``state``'s ``games`` get rows ``rows`` of ``other`` (``state.put`` of a sub-batch)."""
    whole = isinstance(rows, slice) and rows == slice(None)
    for name in _FIELDS:
        value = getattr(other, name)
        getattr(state, name)[games] = value if whole else value.take(rows, axis=0)


def _new_engine_games(seeds, config) -> State:
    return engine_init(seeds=seeds, config=config)


def _check_number(name, value, low=0.0):
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value) or value < low:
        raise ValueError(f"{name} must be a finite number >= {low:g}, got {value!r}")
    return float(value)


def _check_positive_int(name, value, allow_none=False):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        allowed = "None or an int >= 1" if allow_none else "an int >= 1"
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    return int(value)


def make_config(config, episode: str) -> GameConfig:
    """The GameConfig of an env: ``config`` may be None (the default), a GameConfig, or a dict of
    GameConfig fields that override the default. Drive envs default to ``specials=False``."""
    default = {"specials": False} if episode == "drive" else {}
    if config is None:
        return GameConfig(**default)
    if isinstance(config, GameConfig):
        return config
    if isinstance(config, dict):
        return GameConfig.from_dict({**default, **config})
    raise ValueError(f"config must be None, a GameConfig or a dict of GameConfig fields, got {type(config).__name__}")


def _takes_games(fn) -> bool:
    """Whether the opponent callable accepts ``games=`` (the indices of the games it acts in)."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return "games" in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())


# ---------------------------------------------------------------------------------------- the learner core

class LearnerBatch:
    """N games with one learner seat each; the opponent plays the other seat in batch (see module doc).

    After :meth:`reset` or :meth:`step` the results are in attributes: ``reward`` float32 [N] (of the
    last step; 0 for games not stepped), ``terminated`` / ``truncated`` bool [N] (the episode of the
    game is over), ``illegal`` object [N] (the ``info["illegal_action"]`` dict of games lost by an
    illegal action in the last step, else None); :meth:`observation` and :meth:`masks` read the current
    state from the learner's side.
    """

    def __init__(self, num_games, *, episode="game", side=None, learner_team="random", opponent=None,
                 observation="features", illegal_action="lose", score_reward_scale=0.0, start="kickoff",
                 field_position_weight=0.0, config=None, max_episode_steps=None, scenario=None):
        self.n = _check_positive_int("num_envs", num_games)
        check_choice("episode", episode, EPISODE_KINDS)
        if episode == "drive":
            check_choice("side", side, DRIVE_SIDES)
        check_choice("learner_team", learner_team, LEARNER_TEAMS)
        check_choice("observation", observation, OBSERVATION_KINDS)
        check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        if opponent is not None and not callable(opponent):
            raise ValueError("opponent must be None (uniformly random legal actions) or a callable "
                             f"(observations, int8 masks) -> actions, got {opponent!r}")
        named_start = isinstance(start, str) and start in DRIVE_STARTS
        row_start = isinstance(start, numbers.Integral) and not isinstance(start, bool) and 4 <= start <= 27
        if not (named_start or row_start):
            raise ValueError(f"start must be 'kickoff', 'random' or an int LOS row 4..27 (rulebook rows from the "
                             f"goal line the offence attacks), got {start!r}")
        self.episode_kind = episode
        self.side = side
        self.learner_team = learner_team
        self.opponent = RandomOpponent() if opponent is None else opponent
        self._opponent_takes_games = _takes_games(self.opponent)
        # The default opponent draws each game's actions from that game's own stream, whatever games it acts
        # in together: its turns in different games may share engine calls (see ``step``). Other callables
        # keep the exact grouping of calls they always had (a batched policy's output may depend on it).
        self._random_opponent = type(self.opponent).__call__ is RandomOpponent.__call__
        # The default opponent never looks at observations: skip encoding them (a large share of a step).
        self._opponent_needs_obs = not (isinstance(self.opponent, RandomOpponent)
                                        or getattr(self.opponent, "needs_observation", True) is False
                                        or getattr(self.opponent, "needs_state", False))
        self.observation_kind = observation
        self.illegal_action = illegal_action
        self.score_reward_scale = _check_number("score_reward_scale", score_reward_scale)
        self.start = start
        self.field_position_weight = _check_number("field_position_weight", field_position_weight)
        self.config = make_config(config, episode)
        # every episode (autoresets included) starts from this scenario, unless a reset names another
        self.scenario = None if scenario is None else get_scenario(scenario)
        if self.scenario is not None and start != "kickoff":
            raise ValueError(f"give start or scenario, not both (got start={start!r}, scenario={scenario!r})")
        self.max_episode_steps = _check_positive_int("max_episode_steps", max_episode_steps, allow_none=True)

        n = self.n
        self.state: State | None = None
        self.learner = np.zeros(n, dtype=np.int64)
        self.base_seed = np.zeros(n, dtype=np.uint64)
        self.episode = np.zeros(n, dtype=np.uint64)
        self.elapsed = np.zeros(n, dtype=np.int64)  # learner steps in the current episode
        self.drives0 = np.zeros((n, 2), dtype=np.int16)  # drives when the episode started
        self.reward = np.zeros(n, dtype=np.float32)
        self.terminated = np.zeros(n, dtype=bool)
        self.truncated = np.zeros(n, dtype=bool)
        self.illegal = np.full(n, None, dtype=object)
        self.single_observation_space = observation_space(observation)
        self.single_action_space = action_space()

    @property
    def started(self) -> bool:
        return self.state is not None

    # --- reset -------------------------------------------------------------------------------------------

    def reset(self, games, seeds=None, state: State | None = None, scenario=None) -> None:
        """Start new episodes in ``games`` (indices): with base seeds ``seeds`` (uint64 per game), or
        without, each game's next episode. ``state`` (a State of len(games) games) starts them from a
        given position instead of a new game or drive (its own dice streams are kept). ``scenario`` (a
        name, or a list of one name or None per game of ``games``; None: the env's own start) starts them
        from a scenario of :mod:`gridiron_env.scenarios`, its open parts drawn from the episode seed."""
        games = np.asarray(games, dtype=np.int64)
        if games.size == 0:
            return
        if scenario is not None and state is not None:
            raise ValueError("give options['state'] or options['scenario'], not both")
        self._start_episodes(games, seeds, state, scenario)
        self._play_opponent(games)
        if state is not None and (self._episode_over(games) & ~self.state.truncated[games]).any():
            raise ValueError("options['state']: the position ends the episode before the learner acts "
                             "(give a position where the learner gets a turn)")

    def _start_episodes(self, games, seeds=None, state: State | None = None, scenario=None) -> None:
        """:meth:`reset` up to the opponent's opening turns (which the caller then plays)."""
        if state is not None and (not isinstance(state, State) or state.batch_size != games.size):
            raise ValueError(f"options['state'] must be a State of {games.size} game(s), got {state!r}")
        # validated before anything changes
        scenarios = scenario_groups(scenario, games.size, self.scenario, get_scenario)
        if seeds is not None:
            self.base_seed[games] = np.asarray(seeds, dtype=np.uint64)
            self.episode[games] = 0
        else:
            self.episode[games] += np.uint64(1)
        e = episode_seeds(self.base_seed[games], self.episode[games])
        if self.learner_team == "random":
            learner = _draw(e, _LEARNER_SALT, 2)
        else:
            learner = np.full(games.size, LEARNER_TEAMS.index(self.learner_team), dtype=np.int64)
        if state is not None:
            new = state.copy()
            if self.episode_kind == "drive":  # the learner's side decides its team in a given position
                offence = new.offence.astype(np.int64)
                learner = offence if self.side == "offence" else 1 - offence
        elif self.episode_kind == "game":
            new = _new_engine_games(e, self.config)
        else:
            new = self._new_drives(e, learner)
        if state is None:
            for sc, rows in scenarios:  # one build per scenario named (a handful), each over its games
                offence = None  # a whole game: the scenario draws the offence from the seed
                if self.episode_kind == "drive":
                    offence = learner[rows] if self.side == "offence" else 1 - learner[rows]
                new.put(rows, sc.build(e[rows], self.config, offence=offence))
        if self.state is None:
            if games.size != self.n:
                raise RuntimeError("the first reset must start every game")
            self.state = new
        else:
            self.state.put(games, new)
        self.learner[games] = learner
        self._reset_opponent(games, e)
        self.elapsed[games] = 0
        self.drives0[games] = self.state.drives[games]
        self.reward[games] = 0.0
        self.terminated[games] = False
        self.truncated[games] = False
        self.illegal[games] = None

    def _new_drives(self, e, learner) -> State:
        """New games set to one drive: the offence (the learner, or the other team for the defence env)
        has first-and-ten at the start position, opened the game and is on its first drive."""
        offence = learner if self.side == "offence" else 1 - learner
        return start_drives(e, self.config, offence, self.start)

    def _reset_opponent(self, games, e) -> None:
        opp = self.opponent
        if isinstance(opp, RandomOpponent):
            if opp.keys.shape != (self.n,):  # size its per-game streams to this batch
                opp.reset(np.zeros(self.n, dtype=np.uint64))
            fresh = RandomOpponent()
            fresh.reset(e)
            opp.keys[games] = fresh.keys
            opp.counters[games] = fresh.counters
        elif hasattr(opp, "reset_games"):
            opp.reset_games(games, e)

    # --- step --------------------------------------------------------------------------------------------

    def _episode_over(self, games) -> np.ndarray:
        """The episode of each game in ``games`` has ended in the engine (game over, or drive over)."""
        s = self.state
        over = s.terminated[games] | s.truncated[games]
        if self.episode_kind == "drive":
            over |= (s.drives[games] != self.drives0[games]).any(axis=1)
        return over

    def step(self, actions, games, reset_games=None, given=None) -> None:
        """The learner's ``actions`` (ints, one per game in ``games``), then the opponent's turns.

        ``reset_games`` (other games' indices, optional): start their next episodes too, as :meth:`reset`
        does after the step. With an opponent whose actions in a game do not depend on which other games
        it acts in at the same time (the default random opponent), their opening opponent turns are played
        in the same engine calls as the stepped games' turns: fewer, fuller rounds, the same games.
        ``given`` (object [len(games)], optional): the actions as the caller passed them, where some are
        not ids (see :func:`~gridiron_env.envs.common.batch_actions`), for the illegal-action infos."""
        if reset_games is not None and not self._random_opponent:
            self.step(actions, games, given=given)
            self.reset(reset_games)
            return
        games = np.asarray(games, dtype=np.int64)
        actions = np.asarray(actions)
        if actions.shape != games.shape or not (np.issubdtype(actions.dtype, np.integer) or actions.size == 0):
            raise ValueError(f"actions must be ints of shape {games.shape}, got {actions.dtype} {actions.shape}")
        actions = actions.astype(np.int64)
        self.reward[games] = 0.0
        self.illegal[games] = None
        finished = self.terminated[games] | self.truncated[games]  # stepped after the end: nothing happens
        games, actions = games[~finished], actions[~finished]
        if given is not None:
            given = np.asarray(given, dtype=object)[~finished]
        s = self.state
        already = self._episode_over(games)  # only possible when a reset position ended before the learner acted
        in_space = (actions >= 0) & (actions < NUM_ACTIONS)
        legal = in_space & s.legal[games, np.clip(actions, 0, NUM_ACTIONS - 1)]
        legal &= s.to_act[games] == self.learner[games]
        bad = np.flatnonzero(~legal & ~already)
        if bad.size:
            self._illegal_actions(games[bad], actions[bad] if given is None else given[bad])
        prev_score = s.score[games].astype(np.int64)
        go = games[legal & ~already]
        if go.size:
            full = np.zeros(self.n, dtype=np.int64)
            full[go] = actions[legal & ~already]
            active = np.zeros(self.n, dtype=bool)
            active[go] = True
            self.state = engine_step(self.state, full, config=self.config, active=active, reuse_input=True)
        if reset_games is not None and reset_games.size:
            self._start_episodes(reset_games)
            go = np.concatenate([go, reset_games])
        if go.size:
            self._play_opponent(go)
        self.elapsed[games] += 1
        self._results(games, prev_score, games[bad])

    def _illegal_actions(self, games, actions) -> None:
        """Games where the learner played an illegal action (``actions``: as given, ints or bools): raise,
        or end them as a loss for it."""
        s = self.state
        if self.illegal_action == "raise":
            g = int(games[0])
            entry = illegal_entry(s, g, actions[0])
            names = [action_name(i) for i in np.flatnonzero(s.legal[g])]
            raise IllegalActionError(f"game {g}: {entry['reason']}", game=g, action=entry["action"],
                                     legal_actions=names)
        for g, a in zip(games.tolist(), actions.tolist()):  # only the offending games: rare, not the hot path
            self.illegal[g] = illegal_entry(s, g, a)
        forfeit(s, games, self.learner[games])

    def _play_opponent(self, games) -> None:
        """Let the opponent act, in batch, in ``games`` until the learner is to act or the episode is over.

        One engine step per round over all games where the opponent is still to act (its turns are often
        several actions long); no loop over games. The rounds run on the whole batch (with an ``active``
        mask: the engine copies its input every step anyway) until fewer than half its games are still to
        act, then on a sub-batch holding only those, compacted again as games leave it, so that the long
        tail of rounds does not copy the whole batch. Finished games are written back as they leave.
        """
        if self.n == 1 and self._random_opponent:
            self._play_opponent_one()
            return
        n = self.n
        playing = np.zeros(n, dtype=bool)
        playing[games] = True
        rows = None  # indices in self.state of the rows of ``sub``; None while ``sub`` is the whole batch
        learner, drives0 = self.learner, self.drives0
        sub = self.state
        try:
            while True:
                turn = (sub.to_act >= 0) & (sub.to_act != learner)
                turn &= playing
                turn &= ~(sub.terminated | sub.truncated)
                if self.episode_kind == "drive":
                    turn &= ~(sub.drives != drives0).any(axis=1)
                count = np.count_nonzero(turn)
                if count == 0:
                    return
                if count * 2 < turn.size and turn.size - count >= _MIN_COMPACTION:
                    # compact: write the finished games back, keep the rest
                    keep = np.flatnonzero(turn)
                    if rows is None:
                        self.state = sub  # every row is current (rows not played were left unchanged)
                        rows = keep
                    else:
                        done = np.flatnonzero(~turn)
                        _put_rows(self.state, rows[done], sub, done)
                        rows = rows[keep]
                    sub = _take_rows(sub, keep)
                    learner, drives0 = learner[keep], drives0[keep]
                    turn = playing = np.ones(keep.size, dtype=bool)
                acting = np.flatnonzero(turn)
                in_batch = acting if rows is None else rows[acting]  # the games' indices in the env's batch
                if self._random_opponent:  # the default opponent: the engine's bool masks as they are
                    chosen = self.opponent.draw(sub.legal if count == sub.batch_size else sub.legal[acting],
                                                in_batch)
                else:
                    chosen = self._opponent_actions(sub, acting, in_batch)
                full = np.zeros(sub.batch_size, dtype=np.int64)
                full[acting] = chosen
                try:
                    sub = engine_step(sub, full, config=self.config, active=turn, reuse_input=True)
                except IllegalActionError as err:
                    game = None if err.game is None else int(err.game if rows is None else rows[err.game])
                    raise IllegalActionError(f"the opponent played an illegal action in game {game}: {err}",
                                             game=game, action=err.action, legal_actions=err.legal_actions) from err
        finally:
            if rows is None:
                self.state = sub
            else:
                _put_rows(self.state, rows, sub, slice(None))

    def _play_opponent_one(self) -> None:
        """``_play_opponent`` for a batch of one with the default opponent (a lone Gymnasium env): the same
        rounds, draws and engine steps, with the bookkeeping in plain Python."""
        s, learner, drive = self.state, self.learner.item(), self.episode_kind == "drive"
        while True:
            to_act = s.to_act.item()
            if to_act < 0 or to_act == learner or s.terminated.item() or s.truncated.item():
                break
            if drive and (s.drives[0] != self.drives0[0]).any():
                break
            action = self.opponent.draw_one(s.legal[0])
            s = engine_step(s, np.array([action]), config=self.config)
        self.state = s

    def _opponent_actions(self, sub, acting, games) -> np.ndarray:
        """A callable opponent's actions in the ``acting`` rows of ``sub`` (``games``: their batch indices)."""
        mask = sub.legal[acting].astype(np.int8)
        obs = None
        if getattr(self.opponent, "needs_state", False):  # an agent that reads the engine State
            chosen = self.opponent(_take_rows(sub, acting), self.config, games=games)
        else:
            if self._opponent_needs_obs:
                view = _take_rows(sub, acting)
                obs = encode(view, view.to_act, self.observation_kind, self.config)
            if self._opponent_takes_games:
                chosen = self.opponent(obs, mask, games=games)
            else:
                chosen = self.opponent(obs, mask)
        chosen = np.asarray(chosen).reshape(-1)
        if chosen.shape != acting.shape or not np.issubdtype(chosen.dtype, np.integer):
            raise ValueError(f"the opponent must return one int action per game ({acting.size}), "
                             f"got {chosen.dtype} {chosen.shape}")
        return chosen

    def _results(self, games, prev_score, illegal_games) -> None:
        """Rewards and episode ends of ``games`` after a learner step (see the env docstrings)."""
        s = self.state
        r = np.arange(games.size)
        own, other = self.learner[games], 1 - self.learner[games]
        score = s.score[games].astype(np.int64)
        margin = (score[r, own] - prev_score[r, own]) - (score[r, other] - prev_score[r, other])
        won = s.terminated[games] & (s.winner[games] == own)
        lost = s.terminated[games] & (s.winner[games] == other)
        if self.episode_kind == "game":
            reward = won.astype(np.float64) - lost + self.score_reward_scale * margin / self.config.target_score
            terminated = s.terminated[games].copy()
        else:
            drive_over = (s.drives[games] != self.drives0[games]).any(axis=1)
            terminated = s.terminated[games] | drive_over
            handed_over = drive_over & ~s.terminated[games]
            reward = margin + self.field_position_weight * field_position(s, games, own, handed_over)
            bad = np.isin(games, illegal_games)
            reward[bad] = -(MAX_DRIVE_POINTS + self.field_position_weight)
        truncated = s.truncated[games] & ~terminated
        if self.max_episode_steps is not None:
            truncated |= (self.elapsed[games] >= self.max_episode_steps) & ~terminated
        self.reward[games] = reward
        self.terminated[games] = terminated
        self.truncated[games] = truncated

    # --- views ------------------------------------------------------------------------------------------

    def observation(self, games=None):
        """Observations from the learner's side: float32 [k, F], or a dict of planes and scalars."""
        if games is None:
            return encode(self.state, self.learner, self.observation_kind, self.config)
        games = np.asarray(games, dtype=np.int64)
        return encode(self.state.take(games), self.learner[games], self.observation_kind, self.config)

    def masks(self) -> np.ndarray:
        """bool [N, NUM_ACTIONS]: the learner's legal actions; once its episode is over (its next action
        is ignored) only ``IGNORED_ROW_ACTION`` ("end turn"), so that no row is all zero."""
        s = self.state
        mine = (s.to_act == self.learner) & ~self.terminated & ~self.truncated
        mask = s.legal & mine[:, None]
        mask[:, IGNORED_ROW_ACTION] |= ~mine
        return mask

    def learner_names(self, games=None) -> np.ndarray:
        return _AGENT_NAMES[self.learner if games is None else self.learner[games]]


def index_obs(obs, i):
    """Game ``i`` of a batched observation (array or dict of arrays)."""
    if isinstance(obs, dict):
        return {k: v[i] for k, v in obs.items()}
    return obs[i]


# ------------------------------------------------------------------------------------------ the vector envs

class VectorBase(VectorEnv):
    """A natively batched VectorEnv over :class:`LearnerBatch` (no Sync/Async wrapper).

    ``step(actions)`` takes int actions [num_envs] and returns observations (float32 [N, F], or a dict of
    uint8 planes [N, C, 30, 18] and float32 scalars [N, S]), rewards float64 [N], terminations and
    truncations bool [N], and infos: ``"action_mask"`` int8 [N, 291] (the learner's legal actions),
    ``"learner_team"`` (the learner's agent name per game) and, for games lost by an illegal action,
    ``"illegal_action"`` (a dict per game: action, name, reason), each key with its ``"_key"`` bool mask.
    Actions of another shape, or entries that are not ints (floats, strs, None), are a ValueError and
    change nothing; a bool entry (a bool array included) is an illegal action of its game.

    Masks (``infos["action_mask"]``, ``action_masks()``, ``final_info``'s) are never all zero: the row of
    a game whose next action is ignored (its episode just ended: with NEXT_STEP the next step resets it;
    with DISABLED it waits for a reset) marks only id 0, "end turn" (``common.IGNORED_ROW_ACTION``).

    Autoreset (``autoreset_mode``): NEXT_STEP (default) returns the terminal observation on the ending
    step and a reset observation (reward 0, no action applied) on the next; SAME_STEP resets at once,
    the terminal observation and info in ``infos["final_obs"]`` (object array, None for other games) and
    ``infos["final_info"]``; DISABLED resets only what ``reset(options={"reset_mask": mask})`` asks.
    Truncation at ``max_episode_steps`` learner steps is done here (``make_vec`` adds no TimeLimit).

    ``reset(seed=s)`` seeds game i with s + i (a list gives each game's seed); ``reset()`` starts every
    game's next episode. A seed is any int >= 0 taken modulo 2**64 (s + i wraps past 2**64 - 1 to 0);
    a negative or non-int seed is a ValueError. ``options`` (None or a dict): ``{"state": State}``
    starts the games from a given position, ``{"reset_mask": bool [N]}`` resets only those games.
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4, "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, core: LearnerBatch, autoreset_mode=AutoresetMode.NEXT_STEP, render_mode=None,
                 offence_up=False):
        self._core = core
        self.num_envs = core.n
        self.autoreset_mode = parse_autoreset_mode(autoreset_mode)
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.render_mode = check_render_mode(render_mode)
        if not isinstance(offence_up, bool):
            raise ValueError(f"offence_up must be True or False, got {offence_up!r}")
        self.offence_up = offence_up
        self._renderer = None
        self.single_observation_space = core.single_observation_space
        self.single_action_space = core.single_action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._needs_reset = np.zeros(self.num_envs, dtype=bool)  # NEXT_STEP: reset on the next step

    # options shared by every env kind
    @property
    def config(self) -> GameConfig:
        return self._core.config

    @property
    def state(self) -> State:
        """The engine state of all games, updated in place as the env steps (copy it to keep a snapshot;
        do not edit it)."""
        return self._core.state

    def reset(self, *, seed=None, options=None):
        options = check_options(options)
        unknown = sorted(set(options) - {"reset_mask", "state", "scenario"}, key=repr)
        if unknown:
            raise ValueError(f"unknown reset option(s) {unknown}; allowed: 'reset_mask', 'scenario', 'state'")
        n = self.num_envs
        games = np.arange(n)
        if options.get("reset_mask") is not None:
            mask = np.asarray(options["reset_mask"])
            if mask.shape != (n,) or mask.dtype != np.bool_:
                raise ValueError(f"options['reset_mask'] must be a bool array of shape ({n},)")
            games = np.flatnonzero(mask)
        scenario = scenario_option(options.get("scenario"), n, get_scenario)
        if scenario is not None and options.get("state") is not None:
            raise ValueError("give options['state'] or options['scenario'], not both")
        if seed is None and not self._core.started:  # a first reset without a seed: draw one
            seed = int(self.np_random.integers(0, 2**62))
        if isinstance(seed, (list, tuple, np.ndarray)):
            if isinstance(seed, np.ndarray) and seed.ndim != 1:
                raise ValueError(f"an array of seeds must be 1-d (one per game), got shape {seed.shape}")
            seeds = [None if x is None else check_seed(x, "each seed of a list") for x in list(seed)]
            if len(seeds) != n:
                raise ValueError(f"a list of seeds must have num_envs = {n} entries, got {len(seeds)}")
            given = np.array([x is not None for x in seeds])
            if not self._core.started and not given.all():
                raise ValueError("the first reset needs a seed for every game (or seed=None / an int)")
            vals = np.array([0 if x is None else x for x in seeds], dtype=np.uint64)
            unseeded, seeded = games[~given[games]], games[given[games]]
            self._core.reset(unseeded, None, _take_state(options.get("state"), ~given[games]),
                             scenario_of(scenario, unseeded))
            self._core.reset(seeded, vals[seeded], _take_state(options.get("state"), given[games]),
                             scenario_of(scenario, seeded))
        elif seed is not None:
            seed = check_seed(seed)
            super().reset(seed=seed)
            with np.errstate(over="ignore"):  # game i's seed s + i wraps past 2**64 - 1 to 0
                seeds = np.uint64(seed) + games.astype(np.uint64)
            self._core.reset(games, seeds, options.get("state"), scenario_of(scenario, games))
        else:
            self._core.reset(games, None, options.get("state"), scenario_of(scenario, games))
        self._needs_reset[games] = False
        return self._core.observation(), self._infos()

    def step(self, actions):
        core, n = self._core, self.num_envs
        actions, given = batch_actions(actions, n)
        if not core.started:
            raise RuntimeError("call reset() before step()")
        all_games = np.arange(n)
        final = None
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            resetting = self._needs_reset
            # the resets' reward is 0 and they are not ended: starting their episodes cleared them
            core.step(actions[~resetting], all_games[~resetting], reset_games=all_games[resetting],
                      given=None if given is None else given[~resetting])
            done = core.terminated | core.truncated
            self._needs_reset = done.copy()
        else:
            core.step(actions, all_games, given=given)
            done = core.terminated | core.truncated
            if self.autoreset_mode == AutoresetMode.SAME_STEP and done.any():
                ended = np.flatnonzero(done)
                final = (ended, core.observation(ended), self._infos(ended))
        reward = core.reward.astype(np.float64)
        terminated, truncated = core.terminated.copy(), core.truncated.copy()
        if final is not None:
            core.reset(final[0])
        infos = self._infos()
        if final is not None:
            ended, obs, info = final
            final_obs = np.full(n, None, dtype=object)
            for j, g in enumerate(ended.tolist()):  # only the games that ended this step
                final_obs[g] = index_obs(obs, j)
            infos["final_obs"], infos["_final_obs"] = final_obs, done.copy()
            infos["final_info"], infos["_final_info"] = expand_infos(info, ended, n), done.copy()
        return core.observation(), reward, terminated, truncated, infos

    def _infos(self, games=None) -> dict:
        """Vector infos of ``games`` (default: all), in Gymnasium's key / "_key" layout."""
        core = self._core
        mask = core.masks()
        if games is not None:
            mask = mask[games]
        k = mask.shape[0]
        # the masks are fresh arrays: viewed as int8 (0/1 bytes either way) rather than copied
        infos = {"action_mask": mask.view(np.int8), "_action_mask": np.ones(k, dtype=bool),
                 "learner_team": core.learner_names(games), "_learner_team": np.ones(k, dtype=bool)}
        illegal = core.illegal if games is None else core.illegal[games]
        has = np.not_equal(illegal, None).astype(bool)
        if has.any():
            infos["illegal_action"], infos["_illegal_action"] = illegal.copy(), has
        return infos

    def action_masks(self) -> np.ndarray:
        """bool [num_envs, 291]: each game's legal actions for the learner (sb3-contrib's convention)."""
        return self._core.masks()

    def render(self):
        """One frame per game (a str for "ansi", an HxWx3 uint8 array for "rgb_array"), as a tuple."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'rgb_array'")
            return None
        return tuple(render_game(self, self._core.state, g) for g in range(self.num_envs))

    def __repr__(self):
        return f"{type(self).__name__}(num_envs={self.num_envs}, autoreset_mode={self.autoreset_mode.value})"


def check_options(options) -> dict:
    """A copy of reset ``options``: None or a dict (with str keys), else ValueError."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ValueError(f"options must be None or a dict, got {type(options).__name__}")
    return dict(options)


def _take_state(state, keep):
    if state is None:
        return None
    if not isinstance(state, State):
        raise ValueError(f"options['state'] must be a State, got {type(state).__name__}")
    return state.take(np.flatnonzero(keep))


class GridironVectorEnv(GameVectorEnv):
    """``gymnasium.make_vec("gridiron_env/Gridiron-v0", num_envs=N)``: N whole games, the learner on one
    team of each, the opponent playing the other in batch. Options as :class:`~gridiron_env.envs.single.
    GridironEnv`, plus ``num_envs`` and ``autoreset_mode``."""

    def __init__(self, num_envs=1, **options):
        # a preset of the generic vector env (gridiron_env.adapters.vector.GameVectorEnv) over Gridiron's spec
        super().__init__(num_envs, game="gridiron", **options)


class _DriveVectorEnv(VectorBase):
    _SIDE = "offence"

    def __init__(self, num_envs=1, *, learner_team="random", opponent=None, observation="features",
                 illegal_action="lose", start="kickoff", field_position_weight=0.0, config=None,
                 max_episode_steps=None, autoreset_mode=AutoresetMode.NEXT_STEP, render_mode=None,
                 offence_up=False, scenario=None):
        core = LearnerBatch(num_envs, episode="drive", side=self._SIDE, learner_team=learner_team,
                             opponent=opponent, observation=observation, illegal_action=illegal_action,
                             start=start, field_position_weight=field_position_weight, config=config,
                             max_episode_steps=max_episode_steps, scenario=scenario)
        super().__init__(core, autoreset_mode, render_mode, offence_up)


def scenario_drive(scenario, family=None, side=None) -> tuple:
    """(Scenario, side) of a scenario drive env: ``scenario`` a name (or None: the family's first),
    ``family`` None or a family of :data:`gridiron_env.scenarios.FAMILIES` the scenario must belong to,
    ``side`` None (the scenario's own side), "offence" or "defence"."""
    if family is not None:
        check_choice("family", family, tuple(FAMILIES))
        if scenario is None:
            scenario = FAMILIES[family][0]
    if scenario is None:
        raise ValueError(f"a scenario env needs scenario= one of {', '.join(scenario_names())}")
    sc = get_scenario(scenario)
    if family is not None and sc.family != family:
        raise ValueError(f"scenario {sc.name!r} is not of the {family!r} family; its scenarios: "
                         f"{', '.join(FAMILIES[family])}")
    side = sc.side if side is None else side
    check_choice("side", side, DRIVE_SIDES)
    return sc, side


def drive_options(side, start="kickoff", field_position_weight=0.0, config=None, scenario=None) -> dict:
    """The generic env's ``config`` (a :class:`~gridiron_env.gridiron.drive.DriveConfig`) and ``scenario``
    (a name) of a Gridiron drive env's options: ``config`` as :func:`make_config` takes it (None, a
    GameConfig or a dict of its fields; specials off by default), ``side``, ``start`` and
    ``field_position_weight`` its drive settings; ``start`` and ``scenario`` are refused together."""
    named_start = isinstance(start, str) and start in DRIVE_STARTS
    row_start = isinstance(start, numbers.Integral) and not isinstance(start, bool) and 4 <= start <= 27
    if not (named_start or row_start):
        raise ValueError(f"start must be 'kickoff', 'random' or an int LOS row 4..27 (rulebook rows from the "
                         f"goal line the offence attacks), got {start!r}")
    weight = _check_number("field_position_weight", field_position_weight)
    engine_config = make_config(config, "drive")
    if scenario is not None:
        scenario = get_scenario(scenario).name  # an unknown name: ValueError listing the allowed
        if start != "kickoff":  # the scenario is the start: a second one would be ignored
            raise ValueError(f"give start or scenario, not both (got start={start!r}, scenario={scenario!r})")
    return {"config": DriveConfig.of(engine_config, side=side, start=start, field_position_weight=weight),
            "scenario": scenario}


class _DrivePreset(GameVectorEnv):
    """A Gridiron drive env as a preset of the generic vector env over the drive spec
    (``gridiron_env.gridiron.drive.DRIVE``): the learner on ``_SIDE``; the drive's settings are its config's."""

    _SIDE = "offence"

    def __init__(self, num_envs=1, *, learner_team="random", opponent=None, observation="features",
                 illegal_action="lose", start="kickoff", field_position_weight=0.0, config=None,
                 max_episode_steps=None, autoreset_mode=AutoresetMode.NEXT_STEP, render_mode=None,
                 offence_up=False, scenario=None):
        super().__init__(num_envs, game="gridiron_drive", variant=self._SIDE, learner_team=learner_team,
                         opponent=opponent, observation=observation, illegal_action=illegal_action,
                         max_episode_steps=max_episode_steps, autoreset_mode=autoreset_mode,
                         render_mode=render_mode, offence_up=offence_up,
                         **drive_options(self._SIDE, start, field_position_weight, config, scenario))


class GridironOffenceVectorEnv(_DrivePreset):
    """``make_vec("gridiron_env/GridironOffence-v0", num_envs=N)``: N drives, the learner on offence.
    Options as :class:`~gridiron_env.envs.single.GridironOffenceEnv`."""

    _SIDE = "offence"


class GridironDefenceVectorEnv(_DrivePreset):
    """``make_vec("gridiron_env/GridironDefence-v0", num_envs=N)``: N drives, the learner on defence.
    Options as :class:`~gridiron_env.envs.single.GridironDefenceEnv`."""

    _SIDE = "defence"


class GridironScenarioVectorEnv(_DrivePreset):
    """``make_vec("gridiron_env/GridironScenario-v0", num_envs=N, scenario=name)`` (or a family's id,
    :data:`gridiron_env.scenarios.FAMILY_IDS`): N drives, each episode from the scenario, the learner on
    ``side`` (default: the scenario's own). Options as :class:`~gridiron_env.envs.single.
    GridironScenarioEnv`."""

    def __init__(self, num_envs=1, *, scenario=None, family=None, side=None, **options):
        sc, self._SIDE = scenario_drive(scenario, family, side)
        self.family = family
        super().__init__(num_envs, scenario=sc.name, **options)
