"""Pieces every generic env shares: seeds, actions as callers pass them, masks, opponents, episode seeds.

Conventions (every env here keeps them, for any :class:`~gridiron_env.protocol.GameSpec`):

- Seeds: any int >= 0 (Python or numpy, not bool), taken modulo 2**64; a negative seed, a bool or a
  non-int is a ValueError. Game i of a batch reset with seed s plays like a lone env reset with s + i.
- Actions: an int id ``0..num_actions-1``. A bool is never an action id: it is played as an illegal
  action (the game is lost, or ``illegal_error`` with ``illegal_action="raise"``). An int outside the
  space is illegal too. A float, a str, None or several values for one game is a ValueError.
- Masks: int8 in infos and observations, bool from ``action_masks()``. No row is ever all zero: a row
  whose action is ignored (a finished episode, a team not to act) marks only ``game.ignored_action``.
"""

from __future__ import annotations

import inspect
import numbers

import numpy as np

from ..core.chance import GOLDEN, MASK64, UNIT_53, splitmix64, splitmix64_int
from ..protocol import EnvSalts, GameSpec

AGENTS = ("team_one", "team_two")  # team 0 and team 1
LEARNER_TEAMS = ("one", "two", "random")
ILLEGAL_ACTION_MODES = ("lose", "raise")
RENDER_MODES = ("ansi", "rgb_array")
SEED_MODULUS = 1 << 64

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
# The generic salts (``EnvSalts``' defaults); the envs take each game's own from ``GameSpec.salts``.
_DEFAULT_SALTS = EnvSalts()


def check_choice(name: str, value, allowed) -> None:
    if not any(isinstance(value, type(a)) and value == a for a in allowed):
        raise ValueError(f"{name} must be one of {tuple(allowed)}, got {value!r}")


def check_seed(seed, name: str = "seed") -> int:
    """``seed`` (an int >= 0, not bool) modulo 2**64 as a Python int; else ValueError."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"{name} must be None or an int >= 0 (taken modulo 2**64), got {seed!r}")
    return int(seed) % SEED_MODULUS


def check_positive_int(name, value, allow_none=False):
    if value is None and allow_none:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"{name} must be {'None or ' if allow_none else ''}an int >= 1, got {value!r}")
    return int(value)


def check_render_mode(value, allowed=RENDER_MODES):
    if value is not None and not (isinstance(value, str) and value in allowed):
        raise ValueError(f"render_mode must be None or one of {tuple(allowed)}, got {value!r}")
    return value


def check_options(options, allowed) -> dict:
    """A copy of reset ``options`` (None or a dict with only ``allowed`` keys), else ValueError."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ValueError(f"options must be None or a dict, got {type(options).__name__}")
    unknown = sorted(set(options) - set(allowed), key=repr)
    if unknown:
        raise ValueError(f"unknown reset option(s) {unknown}; allowed: {sorted(allowed)}")
    return dict(options)


# --- options a game may offer (GameSpec.observation_kinds, score_unit, orientation) ----------------------

def observation_kinds(game: GameSpec) -> tuple:
    """The names the envs' ``observation=`` option takes for ``game``: "features" and the game's own."""
    return ("features",) + tuple(game.observation_kinds)


def observation_encoder(game: GameSpec, kind: str):
    """``encode(state, team, config)`` of observation ``kind`` (checked: ValueError naming the allowed)."""
    check_choice("observation", kind, observation_kinds(game))
    return game.observe if kind == "features" else game.observation_kinds[kind].encode


def check_score_scale(game: GameSpec, value) -> float:
    """``score_reward_scale``: a finite number >= 0, and 0 for a game without ``score_unit``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) or not np.isfinite(value) \
            or value < 0:
        raise ValueError(f"score_reward_scale must be a finite number >= 0, got {value!r}")
    if value and game.score_unit is None:
        raise ValueError(f"score_reward_scale must be 0 for {game.name!r}: the game offers no score shaping, "
                         f"got {value!r}")
    return float(value)


def check_offence_up(game: GameSpec, value) -> bool:
    """``offence_up``: True or False, and False for a game whose pictures have no orientation option."""
    if not isinstance(value, bool):
        raise ValueError(f"offence_up must be True or False, got {value!r}")
    if value and not game.orientation:
        raise ValueError(f"offence_up must be False for {game.name!r}: its pictures have one orientation")
    return value


def index_obs(obs, i):
    """Game (or rows) ``i`` of a batched observation: an array, or a dict of arrays."""
    if isinstance(obs, dict):
        return {k: v[i] for k, v in obs.items()}
    return obs[i]


# --- actions as callers pass them ---------------------------------------------------------------------

def is_action_int(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def one_action(action, num_actions: int):
    """One game's action: ``(id, None)`` for an id in the space, ``(-1, given)`` for one played as illegal
    (an int outside the space, or a bool; ``given`` as passed, for the info). ValueError for anything
    else (a float, a str, None, several values)."""
    if isinstance(action, (bool, np.bool_)):
        return -1, bool(action)
    if is_action_int(action):
        a = int(action)
        return (a, None) if 0 <= a < num_actions else (-1, a)
    if isinstance(action, np.ndarray) and action.size == 1 and action.dtype.kind in "iub":
        return one_action(action.reshape(()).item(), num_actions)
    raise ValueError(f"action must be one int (an action id 0..{num_actions - 1}), got {action!r}")


def batch_actions(actions, n: int, num_actions: int):
    """A batch's actions: ``(ids int64 [n], given)``; ``given`` None for an int array, else an object
    array [n] of the entries as passed, with -1 in ``ids`` where an entry is not an id in the space (a bool,
    an int outside it). ValueError for another shape or entries that are not ints or bools."""
    try:
        if isinstance(actions, (list, tuple)) and any(isinstance(x, (bool, np.bool_)) for x in actions):
            arr = np.array(actions, dtype=object)  # numpy would turn [True, 3] into [1, 3]
        else:
            arr = np.asarray(actions)
    except (TypeError, ValueError) as err:
        raise ValueError(f"actions must be {n} int action ids (shape ({n},)), got {actions!r}") from err
    if arr.shape != (n,):
        raise ValueError(f"actions must be ints of shape ({n},), got {arr.dtype} {arr.shape}")
    kind = arr.dtype.kind
    if kind == "i" or (kind == "u" and arr.dtype.itemsize < 8):
        return arr.astype(np.int64, copy=False), None
    if kind not in "ubO":
        raise ValueError(f"actions must be ints of shape ({n},), got {arr.dtype} {arr.shape}")
    given = np.empty(n, dtype=object)
    given[:] = arr.tolist()
    ids = np.full(n, -1, dtype=np.int64)
    for j, value in enumerate(given.tolist()):  # off the fast path only: bools, uint64, objects
        if isinstance(value, (bool, np.bool_)):
            continue
        if not is_action_int(value):
            raise ValueError(f"actions must be ints of shape ({n},), got {value!r} at index {j}")
        if 0 <= value < num_actions:
            ids[j] = int(value)
    return ids, given


def illegal_entry(game: GameSpec, state, index: int, given, team: int) -> dict:
    """The ``info["illegal_action"]`` of action ``given`` (as passed) by ``team`` in game ``index``: the
    game's own (``GameSpec.illegal_entry``) or the adapters' ``{"team", "action", "name", "reason"}``
    (``name`` None when it is not an id of the space)."""
    if isinstance(given, np.generic):
        given = given.item()
    if game.illegal_entry is not None:
        return dict(game.illegal_entry(state, index, given, team))
    legal = [game.action_names[i] for i in np.flatnonzero(game.legal_mask(game.take(state, [index]))[0])]
    entry = {"team": AGENTS[team], "action": given, "name": None}
    if not is_action_int(given):
        entry["reason"] = (f"action {given!r} is not an integer action id (an int 0..{game.num_actions - 1}; "
                           "a bool is not one)")
    elif not (0 <= given < game.num_actions):
        entry["reason"] = f"action {given} is outside the action space 0..{game.num_actions - 1}"
    else:
        entry["name"] = game.action_names[given]
        entry["reason"] = (f"{game.action_names[given]!r} (id {given}) is not legal now for {AGENTS[team]}; "
                           f"legal: {legal}")
    return entry


def masks_for(game: GameSpec, legal: np.ndarray, mine: np.ndarray) -> np.ndarray:
    """bool [k, A]: ``legal`` where the row's team decides (``mine``), else only ``game.ignored_action``."""
    mask = legal & mine[:, None]
    mask[:, game.ignored_action] |= ~mine
    return mask


# --- seeds of episodes ----------------------------------------------------------------------------------

def episode_seeds(base, episode, salt=_DEFAULT_SALTS.episode) -> np.ndarray:
    """uint64 seed of episode ``episode`` (0, 1, ...) of slots with base seed ``base``: ``base`` first, then
    seeds of the stream ``salt`` (a uint64; each env family keeps its own, ``GameSpec.salts``)."""
    base = np.asarray(base, dtype=np.uint64)
    episode = np.asarray(episode, dtype=np.uint64)
    with np.errstate(over="ignore"):
        later = splitmix64((base ^ np.uint64(salt)) + episode * _GOLDEN)
    return np.where(episode == 0, base, later)


def draw_int(seeds, salt, high: int) -> np.ndarray:
    """One uniform int in [0, high) per seed from the stream ``salt`` (int64)."""
    bits = splitmix64(np.asarray(seeds, dtype=np.uint64) ^ np.uint64(salt))
    unit = (bits >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))
    return np.minimum((unit * high).astype(np.int64), high - 1)


def get_scenario(game: GameSpec, name):
    """The named starting position ``name`` of ``game`` (``GameSpec.scenarios``); ValueError naming it and
    the allowed names (or saying the game has none)."""
    scenarios = game.scenarios or {}
    if any(name is s for s in scenarios.values()):  # one of the game's own scenario objects
        return name
    if not (isinstance(name, str) and name in scenarios):
        allowed = ", ".join(scenarios) if scenarios else f"none: the game {game.name!r} has no scenarios"
        raise ValueError(f"unknown scenario {name!r}; allowed: {allowed}")
    return scenarios[name]


def scenario_groups(scenario, k: int, default, lookup) -> list:
    """[(scenario, int64 rows)] of ``k`` games being reset: ``scenario`` a name for all, a list of ``k``
    names or Nones, or None; a None takes ``default`` (the env's own: a scenario or None, the game's own
    start, which is left out). ``lookup(name)`` gives the scenario (ValueError for an unknown name)."""
    if not isinstance(scenario, (list, tuple, np.ndarray)):  # one for all (the autoresets' case)
        one = default if scenario is None else lookup(scenario)
        return [] if one is None else [(one, np.arange(k))]
    names = list(scenario)
    if len(names) != k:
        raise ValueError(f"options['scenario'] as a list needs one name (or None) per game reset ({k}), "
                         f"got {len(names)}")
    found: dict = {}
    for i, name in enumerate(names):
        one = default if name is None else lookup(name)
        if one is not None:
            found.setdefault(one, []).append(i)
    return [(one, np.array(rows, dtype=np.int64)) for one, rows in found.items()]


def scenario_option(scenario, n: int, lookup):
    """A vector env's ``options["scenario"]``: a name (or None) as it is, a list of ``n`` (one per game of
    the env, a name or None each) as a list; every name checked with ``lookup`` before any game resets."""
    if isinstance(scenario, (list, tuple, np.ndarray)):
        if len(scenario) != n:
            raise ValueError(f"options['scenario'] as a list needs num_envs = {n} entries (a name or None "
                             f"each), got {len(scenario)}")
        scenario = list(scenario)
    for name in scenario if isinstance(scenario, list) else [scenario]:
        if name is not None:
            lookup(name)  # an unknown name raises before any game is reset
    return scenario


def scenario_of(scenario, games):
    """The scenario option of ``games`` (indices into the env): a name for all as it is, theirs from a list."""
    if isinstance(scenario, list):
        return [scenario[g] for g in np.asarray(games).tolist()]
    return scenario


def new_games(game: GameSpec, seeds, config, scenario=None, learner=None):
    """New games, one per uint64 seed: the game's own start, or the scenario's (a :func:`get_scenario`);
    for a learner env (``learner``: the learner's team per game) of a game with ``learner_start``, that."""
    if learner is not None and game.learner_start is not None:
        return game.learner_start(seeds, config, learner, scenario)
    if scenario is None:
        return game.init(len(seeds), 0, config, seeds=seeds)
    return scenario.build(seeds, config)


def learner_teams(kind: str, seeds, salt=_DEFAULT_SALTS.learner) -> np.ndarray:
    """int64 [k]: the learner's team per episode (``kind`` "one", "two" or "random" drawn from the seed
    with ``salt``, the game's ``salts.learner``)."""
    if kind == "random":
        return draw_int(seeds, salt, 2)
    return np.full(np.asarray(seeds).shape, LEARNER_TEAMS.index(kind), dtype=np.int64)


# --- opponents ------------------------------------------------------------------------------------------

def uniform_legal(legal: np.ndarray, unit: np.ndarray) -> np.ndarray:
    """int64 [k]: the legal id at quantile ``unit`` [k] of each bool row of ``legal`` (0 if none): legal id
    number ``min(floor(unit * count), count - 1)`` in id order. One pass over the legal ids (row-major)
    and a binary search for each row's first, rather than a running count over every row's width."""
    k, width = legal.shape
    ids = np.flatnonzero(legal)
    if ids.size == 0:
        return np.zeros(k, dtype=np.int64)
    row_start = np.arange(k + 1) * width
    start = np.searchsorted(ids, row_start)
    count = np.diff(start)
    pick = np.minimum((unit * count).astype(np.int64), np.maximum(count - 1, 0))
    return np.where(count > 0, ids[np.minimum(start[:-1] + pick, ids.size - 1)] - row_start[:-1], 0)


class RandomPolicy:
    """Uniformly random legal actions, one counter-based stream per env slot, keyed on its episode seed, so
    a game's choices depend only on its seed and history, never on the batch. ``salt``: the stream's
    (the game's ``salts.opponent``)."""

    kind = "random"

    def __init__(self, salt=_DEFAULT_SALTS.opponent):
        self.salt = np.uint64(salt)
        self.keys = np.zeros(0, dtype=np.uint64)
        self.counters = np.zeros(0, dtype=np.uint64)

    def reset_games(self, n, games, seeds) -> None:
        if self.keys.shape != (n,):
            self.keys = np.zeros(n, dtype=np.uint64)
            self.counters = np.zeros(n, dtype=np.uint64)
        self.keys[games] = splitmix64(np.asarray(seeds, dtype=np.uint64) ^ self.salt)
        self.counters[games] = 0

    def actions(self, game: GameSpec, sub_state, config, games, obs_fn) -> np.ndarray:
        return self.draw(game.legal_mask(sub_state), games)

    def draw(self, legal: np.ndarray, games) -> np.ndarray:
        """int64 [k]: the actions in slots ``games`` given their bool masks ``legal`` [k, A] (``actions``
        once the masks are read: the learner env passes the rows of the whole batch's mask)."""
        with np.errstate(over="ignore"):
            bits = splitmix64(self.keys[games] + self.counters[games] * _GOLDEN)
        self.counters[games] += np.uint64(1)
        unit = (bits >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))
        return uniform_legal(legal, unit)

    def draw_one(self, legal: np.ndarray, slot: int) -> int:
        """``actions`` for one slot in plain Python (``legal``: its bool mask row [A]): the same action and
        stream position, without the batch's numpy calls (a lone env's opponent turns)."""
        return draw_legal_one(self.keys, self.counters, legal, slot)


def draw_legal_one(keys: np.ndarray, counters: np.ndarray, legal: np.ndarray, slot: int) -> int:
    """The next uniformly random legal id of stream ``slot`` (key ``keys[slot]``, its draw number
    ``counters[slot]``, advanced in place) for the bool mask row ``legal`` [A], in plain Python: the id
    :func:`uniform_legal` picks for that draw (0 if none is legal)."""
    key, counter = keys.item(slot), counters.item(slot)
    counters[slot] = (counter + 1) & MASK64
    unit = float(splitmix64_int(key + counter * GOLDEN) >> 11) * UNIT_53
    ids = np.flatnonzero(legal)
    if ids.size == 0:
        return 0
    return int(ids[min(int(unit * ids.size), ids.size - 1)])


class CallablePolicy:
    """A callable ``(observations [k, ...], int8 masks [k, A]) -> actions [k]``, the observations from its
    own side in the env's observation kind (None when it has ``needs_observation = False``); if it takes
    a ``games=`` keyword it also gets the env slots it acts in, and if it has ``reset_games(games,
    seeds)`` it is told each new episode's seed per slot."""

    kind = "callable"

    def __init__(self, fn):
        self.fn = fn
        try:
            params = inspect.signature(fn).parameters
            self.takes_games = "games" in params or any(p.kind is inspect.Parameter.VAR_KEYWORD
                                                        for p in params.values())
        except (TypeError, ValueError):
            self.takes_games = False
        self.needs_observation = getattr(fn, "needs_observation", True) is not False
        self._reset_games = getattr(fn, "reset_games", None)

    def reset_games(self, n, games, seeds) -> None:
        if self._reset_games is not None:
            self._reset_games(games, seeds)

    def actions(self, game: GameSpec, sub_state, config, games, obs_fn) -> np.ndarray:
        obs = obs_fn(sub_state) if self.needs_observation else None
        mask = game.legal_mask(sub_state).astype(np.int8)
        return self.fn(obs, mask, games=games) if self.takes_games else self.fn(obs, mask)


class StatePolicy(CallablePolicy):
    """A callable with ``needs_state = True``: ``(state of the k games it acts in, config, games=slots) ->
    actions [k]`` (it reads the engine state itself; ``reset_games`` as :class:`CallablePolicy`)."""

    kind = "state"

    def actions(self, game: GameSpec, sub_state, config, games, obs_fn) -> np.ndarray:
        return self.fn(*agent_view(game, sub_state, config), games=games)


class AgentPolicy:
    """An agent (``reset(seeds)``, ``act(state, config, games=None)``, as in ``agents/base.py``) reading
    the engine state of the games it acts in. Before each call it is reset with those games' episode
    seeds, so its per-game streams do not depend on how the env groups games."""

    kind = "agent"

    def __init__(self, agent):
        self.agent = agent
        self.seeds = np.zeros(0, dtype=np.uint64)

    def reset_games(self, n, games, seeds) -> None:
        if self.seeds.shape != (n,):
            self.seeds = np.zeros(n, dtype=np.uint64)
        self.seeds[games] = np.asarray(seeds, dtype=np.uint64)

    def actions(self, game: GameSpec, sub_state, config, games, obs_fn) -> np.ndarray:
        if hasattr(self.agent, "reset"):
            self.agent.reset(self.seeds[games].astype(np.int64))
        return self.agent.act(*agent_view(game, sub_state, config))


def agent_view(game: GameSpec, state, config) -> tuple:
    """(state, config) as the game's agents read them (``GameSpec.agent_view``; None: as they are)."""
    return (state, config) if game.agent_view is None else game.agent_view(state, config)


def make_policy(opponent, salt=_DEFAULT_SALTS.opponent):
    """The opponent of a learner env: None (uniformly random legal actions, from the stream ``salt``), an
    agent with ``act``, a callable with ``needs_state = True`` (:class:`StatePolicy`) or a callable
    ``(obs, mask) -> actions`` (:class:`CallablePolicy`); ValueError for anything else."""
    if opponent is None:
        return RandomPolicy(salt)
    if hasattr(opponent, "act") and callable(opponent.act):
        return AgentPolicy(opponent)
    if callable(opponent) and getattr(opponent, "needs_state", False) is True:
        return StatePolicy(opponent)
    if callable(opponent):
        return CallablePolicy(opponent)
    raise ValueError("opponent must be None (uniformly random legal actions), an agent with act(state, config, "
                     f"games) or a callable (observations, int8 masks) -> actions, got {opponent!r}")


def forfeit_note(winner_team: int) -> str:
    return f"{AGENTS[1 - winner_team]} forfeits (illegal action): {AGENTS[winner_team]} wins"
