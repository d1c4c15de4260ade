"""Sports Dice: Football (seed 002, RULINGS-sports-dice.md): a batched numpy engine, its diagram notation,
rendering and the exact solver (``solve(config) -> Solution``, loaded on first use). Rules:
gridiron_env/sports_dice/RULES.md.

The engine has the shape of Table Football's: ``init`` / ``step`` / ``legal_action_mask`` / ``observe``
over a :class:`State` of numpy arrays with a batch axis; the env layer serves it through the same protocol
(``gridiron_env/SportsDice-v0``, ``env()``, ``raw_env``, ``parallel_env``).
"""

import importlib
import sys
import types

from ..core.chance import CounterChance, ScriptedChance
from .actions import ACTION_NAMES, IGNORED_ACTION, NUM_ACTIONS, action_id, action_name
from .config import SportsDiceConfig
from .diagram import from_diagram, to_diagram
from .engine import IllegalActionError, init, legal_action_mask, recompute_legal, roll_tables, roll_value, step
from .invariants import InvariantError, check_invariants, find_violations
from .observe import OBS_LAYOUT, OBS_SIZE, observation_markdown, observe
from .render import render_ansi, render_rgb
from .state import FIELDS, PHASE_NAMES, SYMBOL_NAMES, State, mirror_state


# The exact solver (solve.py, agents.py) loads on first use: it imports scipy, which the engine and the envs
# never need. ``solve`` names both the function, ``sports_dice.solve(config) -> Solution``, and its
# module; the package makes that module callable (calling its ``solve``), so ``sports_dice.solve(config)``,
# ``sports_dice.solve.Solution`` and ``from gridiron_env.sports_dice import solve as module`` all work,
# whichever way the module was first imported.
_LAZY = {"Solution": ".solve", "PolicyValue": ".solve", "exact_win_probability": ".solve",
         "load_solution": ".solve", "OptimalAgent": ".agents", "RandomAgent": ".agents",
         "FixedAgent": ".agents", "play_games": ".agents", "ObservationAgent": ".agents"}


class _CallableSolveModule(types.ModuleType):
    """The solver module, callable: ``module(config, ...)`` is ``module.solve(config, ...)``."""

    def __call__(self, *args, **kwargs):
        return self.solve(*args, **kwargs)


class _Package(types.ModuleType):
    """This package: when the import system binds the submodule ``solve`` here, it becomes callable."""

    def __setattr__(self, name, value):
        if name == "solve" and isinstance(value, types.ModuleType) and type(value) is types.ModuleType:
            value.__class__ = _CallableSolveModule
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name):
    if name == "solve":
        return importlib.import_module(".solve", __name__)
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def raw_env(**options):
    """The two-player PettingZoo AEC env of Sports Dice, unwrapped (``gridiron_env.adapters.pettingzoo``;
    ``config`` or config fields as keywords)."""
    from ..adapters.pettingzoo import raw_env as _raw_env

    return _raw_env("sports_dice", **options)


def env(**options):
    """The AEC env in PettingZoo's OrderEnforcingWrapper."""
    from ..adapters.pettingzoo import env as _env

    return _env("sports_dice", **options)


def parallel_env(**options):
    """The parallel API over the AEC env (PettingZoo's ``turn_based_aec_to_parallel``)."""
    from ..adapters.pettingzoo import parallel_env as _parallel_env

    return _parallel_env("sports_dice", **options)


__all__ = [
    "env", "raw_env", "parallel_env",
    "ACTION_NAMES", "CounterChance", "FIELDS", "IGNORED_ACTION", "IllegalActionError", "InvariantError",
    "NUM_ACTIONS", "OBS_LAYOUT", "OBS_SIZE", "PHASE_NAMES", "SYMBOL_NAMES", "ScriptedChance", "SportsDiceConfig",
    "State", "action_id", "action_name", "check_invariants", "find_violations", "from_diagram", "init",
    "legal_action_mask", "mirror_state", "observation_markdown", "observe", "recompute_legal", "render_ansi",
    "render_rgb", "roll_tables", "roll_value", "step", "to_diagram",
    "solve", "Solution", "PolicyValue", "exact_win_probability", "load_solution", "OptimalAgent", "RandomAgent",
    "FixedAgent", "play_games", "ObservationAgent",
]
