"""The batch plumbing of the small games' engines (Table Football, Sports Dice): what ``init`` and
``step`` do around a game's rules.

- :class:`StepContext`: the config and chance source of the engine call in progress, one pair per thread
  (the rule functions read them instead of passing them down every call).
- :func:`game_config`: the config argument, checked.
- :func:`new_batch`: a batch of new games keyed on their random streams (game i from ``seed + i``, or
  ``seeds[i]``), before the game deals them.
- :func:`checked_actions`: the action argument of ``step``, checked against the cached legal masks; an
  illegal action raises :class:`IllegalActionError` naming the game, the action and the legal actions,
  with the game's diagram, before anything changes.
- :func:`legal_action_mask`, :func:`game_index`: the cached mask and a checked game index.
"""

from __future__ import annotations

import threading

import numpy as np

from ..core.chance import CounterChance, game_keys, seed_keys
from ..core.engine import IllegalActionError

__all__ = ["IllegalActionError", "StepContext", "game_config", "new_batch", "checked_actions",
           "legal_action_mask", "game_index"]


class StepContext(threading.local):
    """The config and chance source of the engine call in progress, one pair per thread. ``with
    ctx.using(config, chance):`` sets them (``chance`` None: the games' own streams) and drops the chance
    source at the end; ``ctx.draw(...)`` draws from it."""

    config = None
    chance = None

    def using(self, config, chance=None) -> "StepContext":
        self.config, self.chance = config, chance or CounterChance()
        return self

    def __enter__(self) -> "StepContext":
        return self

    def __exit__(self, *exc) -> bool:
        self.chance = None
        return False

    def draw(self, s, g, high: int, count: int, what: str) -> np.ndarray:
        """int64 [len(g), count]: draws uniform on 0..high-1 for games ``g`` (``what`` names them for a
        scripted source)."""
        return self.chance.draw(s, g, high, count, what)


def game_config(config, config_class):
    """``config``, or the default ``config_class()`` for None; ValueError for anything else."""
    if config is None:
        return config_class()
    if not isinstance(config, config_class):
        raise ValueError(f"config must be a {config_class.__name__}, got {type(config).__name__}")
    return config


def new_batch(state_class, batch_size, seed: int = 0, seeds=None):
    """A batch of ``state_class.empty`` games, game i keyed on the stream of ``seed + i`` (mod 2**64), or
    of ``seeds[i]`` when per-game seeds are given (then ``batch_size`` may be None, and must match).
    ValueError for a batch size that is not an int >= 1, or a bad seed."""
    if seeds is not None:
        keys = seed_keys(seeds)
        if batch_size is not None and batch_size != keys.size:
            raise ValueError(f"batch_size {batch_size} does not match {keys.size} seeds")
        batch_size = keys.size
    if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) or batch_size < 1:
        raise ValueError(f"batch_size must be an int >= 1, got {batch_size!r}")
    s = state_class.empty(int(batch_size))
    s.rng_key[:] = game_keys(seed, int(batch_size)) if seeds is None else keys
    return s


_MASK_ROWS: dict = {}


def _mask_rows(n: int, num_actions: int) -> np.ndarray:
    """0, A, 2A, ...: the flat index of each game's first action in an [n, A] mask (cached)."""
    rows = _MASK_ROWS.get((n, num_actions))
    if rows is None:
        rows = _MASK_ROWS[(n, num_actions)] = np.arange(n, dtype=np.int64) * num_actions
    return rows


def checked_actions(state, actions, action_names: tuple, diagram) -> tuple[np.ndarray, np.ndarray]:
    """``step``'s actions as int64 [B] (a scalar serves a batch of one), and the bool [B] of finished
    games (which ignore their action). ValueError for a wrong shape or dtype; IllegalActionError (see
    :func:`raise_illegal`) if a live game's action is not in its cached mask ``state.legal``.
    ``diagram(state, game) -> str`` draws the game for the message."""
    B = state.batch_size
    actions = np.asarray(actions)
    if actions.ndim == 0:
        actions = np.full(B, actions)
    if actions.shape != (B,) or actions.dtype.kind not in "iu":
        raise ValueError(f"actions must be ints of shape ({B},), got {actions.dtype} {actions.shape}")
    over = state.terminated | state.truncated
    a = actions.astype(np.int64)
    num_actions = len(action_names)
    in_space = a.view(np.uint64) < num_actions  # negative ids wrap to huge values
    ok = state.legal.reshape(-1).take(_mask_rows(B, num_actions) + np.where(in_space, a, 0))
    ok &= in_space
    ok |= over
    if not ok.all():
        bad = int(np.flatnonzero(~ok)[0])
        raise_illegal(state, bad, int(a[bad]), action_names, diagram)
    return a, over


def raise_illegal(state, game: int, action: int, action_names: tuple, diagram):
    """Raise IllegalActionError for ``action`` in ``game``: its name (or "(not an action id)"), the legal
    actions' names and the game's diagram (a small game hides nothing from the team to act)."""
    names = [action_names[i] for i in np.flatnonzero(state.legal[game])]
    label = action_names[action] if 0 <= action < len(action_names) else "(not an action id)"
    try:
        picture = diagram(state, game)
    except Exception:  # the message must not fail because of the picture
        picture = "(diagram unavailable)"
    raise IllegalActionError(
        f"illegal action {label!r} (id {action}) in game {game}; legal actions: {names}\n{picture}",
        game=game, action=action, legal_actions=names)


def legal_action_mask(state) -> np.ndarray:
    """bool [batch, NUM_ACTIONS]: the legal actions of the team to act (all False once a game is over)."""
    return state.legal.copy()


def game_index(state, game) -> int:
    """``game`` as an int index into the batch; ValueError outside 0..B-1."""
    g = int(game)
    if not (0 <= g < state.batch_size):
        raise ValueError(f"game {game!r} is outside 0..{state.batch_size - 1}")
    return g
