"""Pieces every environment shares: spaces, agent names, masks, seeds, actions, the default opponent.

Conventions every env follows (each env's docstring repeats the part it uses):

- Seeds: any int >= 0 (Python or numpy, not bool), taken modulo 2**64 (the engine keys a game on 64 bits,
  as Gymnasium's own seeding takes any non-negative int): seeds 0..2**64-1 are distinct games, s and
  s + 2**64 the same one, and the per-game seeds s + i of a batch wrap past 2**64 - 1 to 0. A negative
  seed, a bool or a non-int is a ValueError.
- Actions: an int id 0..290 (Python or numpy int). A bool, which Python and Gymnasium's ``Discrete`` count
  as an int, is never an action id: it is played as an illegal action (the game is lost, or
  IllegalActionError, a ValueError, with ``illegal_action="raise"``), never as id 0 or 1.
- Masks: no mask row is ever all zero (a masked sampler needs one legal id). A row whose action is
  ignored (a finished game or episode, or a team that is not to act) marks exactly one id,
  ``IGNORED_ROW_ACTION`` = 0, "end turn"; any other row is the engine's legal actions.
"""

from __future__ import annotations

import numpy as np

from ..core import NUM_ACTIONS, action_name
from ..core.chance import splitmix64
from ..core.observe import (
    FEATURES_SIZE, N_PLANES, OBS_HIGH, OBS_LOW, SCALARS_SIZE, observe, observe_planes,
)
from ..core.geometry import N_LANES, N_ROWS
from ..gridiron.game import SALTS
from ..adapters.common import batch_actions as generic_batch_actions
from ..adapters.common import check_choice, check_seed, is_action_int  # noqa: F401  (used by the envs)
from ..adapters.common import SEED_MODULUS  # noqa: F401  (used by the envs)
from ..adapters.common import one_action as generic_one_action
from ..adapters.common import draw_legal_one, uniform_legal

AGENTS = ("team_one", "team_two")  # team index 0 and 1
OBSERVATION_KINDS = ("features", "planes")
ILLEGAL_ACTION_MODES = ("lose", "raise")
# The one id marked legal in a mask row whose action is ignored: "end turn" (id 0), a stable id that every
# masked sampler can pick; the env ignores whatever is played there.
IGNORED_ROW_ACTION = 0


def mark_ignored_rows(mask: np.ndarray, ignored: np.ndarray) -> np.ndarray:
    """In place, and returned: rows ``ignored`` (bool [k]) of ``mask`` ([k, NUM_ACTIONS], bool or int8, all
    zero there) get their one placeholder id, ``IGNORED_ROW_ACTION``."""
    mask[:, IGNORED_ROW_ACTION] |= ignored
    return mask


# --- actions as callers pass them --------------------------------------------------------------------------

def one_action(action):
    """One action as a single-game env takes it: ``(id, None)`` for an id 0..290, ``(-1, given)`` for one
    played as illegal (an int out of range, or a bool); ValueError for anything else
    (``gridiron_env.adapters.common.one_action`` over this game's action space)."""
    return generic_one_action(action, NUM_ACTIONS)


def batch_actions(actions, n: int):
    """The actions of a batch of ``n`` games: ``(ids int64 [n], given)`` (see
    ``gridiron_env.adapters.common.batch_actions``: -1 in ``ids`` where an entry is played as illegal)."""
    return generic_batch_actions(actions, n, NUM_ACTIONS)


def illegal_entry(state, game: int, given) -> dict:
    """The ``{"action", "name", "reason"}`` of an illegal action ``given`` (as passed; a numpy scalar as
    its Python value) in ``game``."""
    if isinstance(given, np.generic):
        given = given.item()
    if is_action_int(given):
        a = int(given)
        return {"action": a, "name": action_name(a) if 0 <= a < NUM_ACTIONS else None,
                "reason": illegal_reason(state, game, a)}
    return {"action": given, "name": None,
            "reason": f"action {given!r} is not an integer action id (an int 0..{NUM_ACTIONS - 1}; "
                      "a bool is not one)"}


def observation_space(kind: str):
    """The single-game observation space of ``kind`` ("features" or "planes")."""
    from gymnasium import spaces

    check_choice("observation", kind, OBSERVATION_KINDS)
    if kind == "features":
        return spaces.Box(OBS_LOW, OBS_HIGH, (FEATURES_SIZE,), np.float32)
    return spaces.Dict({
        "planes": spaces.Box(0, 1, (N_PLANES, N_ROWS, N_LANES), np.uint8),
        "scalars": spaces.Box(OBS_LOW, OBS_HIGH, (SCALARS_SIZE,), np.float32),
    })


def action_space():
    from gymnasium import spaces

    return spaces.Discrete(NUM_ACTIONS)


def encode(state, team, kind: str, config=None):
    """Batched observation of ``kind`` from ``team``'s side: an array, or a dict of arrays for planes."""
    if kind == "features":
        return observe(state, team, config)
    planes, scalars = observe_planes(state, team, config)
    return {"planes": planes, "scalars": scalars}


def int8_mask(legal: np.ndarray) -> np.ndarray:
    """Masks as Gymnasium and PettingZoo expect them: int8 (a bool mask makes Discrete.sample assert)."""
    return legal.astype(np.int8)


def illegal_reason(state, game: int, action) -> str:
    """A sentence saying why ``action`` is illegal in ``game`` (for info dicts)."""
    try:
        a = int(action)
    except (TypeError, ValueError):
        return f"action {action!r} is not an action id"
    if not (0 <= a < NUM_ACTIONS):
        return f"action {a} is outside the action space 0..{NUM_ACTIONS - 1}"
    legal = [action_name(i) for i in np.flatnonzero(state.legal[game])]
    return f"{action_name(a)!r} (id {a}) is not legal now; legal: {legal}"


class RandomOpponent:
    """Uniformly random legal actions, one counter-based stream per game (batch-size independent).

    ``reset(seeds)`` keys game i's stream on seeds[i]; ``__call__(observation, mask)`` takes the masks
    [batch, NUM_ACTIONS] (int8 or bool) and returns int64 actions [batch]. ``games`` selects which
    streams to draw from when only some games act.
    """

    def __init__(self):
        self.keys = np.zeros(0, dtype=np.uint64)
        self.counters = np.zeros(0, dtype=np.uint64)

    def reset(self, seeds) -> None:
        seeds = np.asarray(seeds, dtype=np.uint64)
        self.keys = splitmix64(seeds ^ np.uint64(SALTS.opponent))  # the GameSpec's stream too
        self.counters = np.zeros(seeds.shape, dtype=np.uint64)

    def __call__(self, observation, mask, games=None):
        mask = np.asarray(mask)
        return self.draw(mask if mask.dtype == np.bool_ else mask.astype(bool), games)

    def draw(self, legal: np.ndarray, games=None) -> np.ndarray:
        """The actions for bool masks ``legal`` [k, NUM_ACTIONS] (what ``__call__`` does once the mask is
        bool; the vector env calls it with the engine's masks, skipping the int8 round trip)."""
        games = np.arange(legal.shape[0]) if games is None else np.asarray(games)
        if self.keys.size == 0:
            self.reset(np.arange(int(games.max()) + 1 if games.size else 1))
        with np.errstate(over="ignore"):
            bits = splitmix64(self.keys[games] + self.counters[games] * np.uint64(0x9E3779B97F4A7C15))
        self.counters[games] += np.uint64(1)
        unit = (bits >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))
        return kth_legal(legal, unit)

    def draw_one(self, legal: np.ndarray, game: int = 0) -> int:
        """``draw`` for one game in plain Python (``legal``: its bool mask [NUM_ACTIONS]): the same action
        and the same stream position, without the batch's numpy calls."""
        return draw_legal_one(self.keys, self.counters, legal, game)


def kth_legal(legal: np.ndarray, unit: np.ndarray) -> np.ndarray:
    """int64 [k]: in each row of the bool masks ``legal`` [k, width], the legal id number
    ``min(floor(unit * count), count - 1)`` (0-based, in id order) of its ``count`` legal ids; 0 where
    none is legal (``gridiron_env.adapters.common.uniform_legal``)."""
    return uniform_legal(legal, unit)


class AgentOpponent:
    """An agent of ``agents.base`` (``reset(seeds)``, ``act(state, config)``) as an env opponent.

    The env calls it with the engine State of the games where the opponent is to act (``needs_state``)
    and their indices in the env's batch; ``reset_games(games, seeds)`` records each game's episode seed,
    and the agent is re-keyed with those seeds before every call, so its per-game random streams (which are
    indexed by the game's own step count) do not depend on how the env groups games.
    """

    needs_state = True

    def __init__(self, agent):
        self.agent = agent
        self.seeds = np.zeros(0, dtype=np.uint64)

    def reset_games(self, games, seeds) -> None:
        games = np.asarray(games, dtype=np.int64)
        if games.size and self.seeds.size <= games.max():
            grown = np.zeros(int(games.max()) + 1, dtype=np.uint64)
            grown[:self.seeds.size] = self.seeds
            self.seeds = grown
        self.seeds[games] = np.asarray(seeds).astype(np.uint64)

    def __call__(self, state, config=None, games=None):
        games = np.arange(state.batch_size) if games is None else np.asarray(games, dtype=np.int64)
        if self.seeds.size <= (games.max() if games.size else -1):
            self.reset_games(games, games)
        self.agent.reset(self.seeds[games].astype(np.int64))
        return np.asarray(self.agent.act(state, config), dtype=np.int64)


def render_game(env, state, game: int = 0):
    """Draw ``game`` of ``state`` for an env with ``render_mode``, ``offence_up`` and a ``_renderer`` slot
    (built on first use: rendering is imported lazily). "human" prints the text board and returns None."""
    if env._renderer is None:
        from ..render import Renderer

        env._renderer = Renderer("ansi" if env.render_mode == "human" else env.render_mode,
                                 offence_up=env.offence_up)
    frame = env._renderer.render(state, game)
    if env.render_mode == "human":
        print(frame)
        return None
    return frame
