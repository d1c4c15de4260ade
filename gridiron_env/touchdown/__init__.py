"""Touchdown (seed 004, RULINGS-touchdown.md): the seven-a-side board game as a batched numpy engine, its
formations, diagram notation and invariant checker. Rules: gridiron_env/touchdown/RULES.md.

The engine has the shape of Table Football's and Sports Dice's: ``init`` / ``step`` / ``legal_action_mask``
over a :class:`State` of numpy arrays with a batch axis. (The env adapters, observation, rendering and
agents are built on top of it elsewhere.) The env layer serves it through the protocol (``game.py``):
``gridiron_env/Touchdown-v0``, ``gridiron_env/TouchdownOffence-v0``, ``gridiron_env/TouchdownDefence-v0``,
and ``env()``, ``raw_env``, ``parallel_env`` below for two players.
"""

from ..core.chance import CounterChance, ScriptedChance
from . import engine, formations
from .actions import ACTION_NAMES, DIRECTION_NAMES, IGNORED_ACTION, NUM_ACTIONS, action_id, action_name
from .config import TouchdownConfig
from .diagram import from_diagram, scenario, to_diagram
from .engine import IllegalActionError, init, legal_action_mask, recompute_legal, step
from .formations import DEFENCE, OFFENCE
from .invariants import InvariantError, check_invariants, find_violations
from .observe import OBS_LAYOUT, OBS_SIZE, observation_markdown, observe
from .render import render_ansi, render_rgb


def raw_env(**options):
    """The two-player PettingZoo AEC env of Touchdown, unwrapped (``gridiron_env.adapters.pettingzoo``;
    ``config`` or config fields as keywords)."""
    from ..adapters.pettingzoo import raw_env as _raw_env

    return _raw_env("touchdown", **options)


def env(**options):
    """The AEC env in PettingZoo's OrderEnforcingWrapper."""
    from ..adapters.pettingzoo import env as _env

    return _env("touchdown", **options)


def parallel_env(**options):
    """The parallel API over the AEC env (PettingZoo's ``turn_based_aec_to_parallel``)."""
    from ..adapters.pettingzoo import parallel_env as _parallel_env

    return _parallel_env("touchdown", **options)
from .state import EVENT_NAMES, FIELDS, PHASE_NAMES, SLOT_NAMES, State
