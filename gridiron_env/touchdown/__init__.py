"""Touchdown (seed 004, RULINGS-touchdown.md): the seven-a-side board game as a batched numpy engine, its
formations, diagram notation and invariant checker. Rules: gridiron_env/touchdown/RULES.md.

The engine has the shape of Table Football's and Sports Dice's: ``init`` / ``step`` / ``legal_action_mask``
over a :class:`State` of numpy arrays with a batch axis. (The env adapters, observation, rendering and
agents are built on top of it elsewhere.)
"""

from ..core.chance import CounterChance, ScriptedChance
from . import engine, formations
from .actions import ACTION_NAMES, DIRECTION_NAMES, IGNORED_ACTION, NUM_ACTIONS, action_id, action_name
from .config import TouchdownConfig
from .diagram import from_diagram, scenario, to_diagram
from .engine import IllegalActionError, init, legal_action_mask, recompute_legal, step
from .formations import DEFENCE, OFFENCE
from .invariants import InvariantError, check_invariants, find_violations
from .state import EVENT_NAMES, FIELDS, PHASE_NAMES, SLOT_NAMES, State
