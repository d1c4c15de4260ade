"""Touchdown (seed 004, RULINGS-touchdown.md): the seven-a-side board game as a batched numpy engine, its
formations, diagram notation and invariant checker. Rules: gridiron_env/touchdown/RULES.md.

The engine has the shape of Table Football's and Sports Dice's: ``init`` / ``step`` / ``legal_action_mask``
over a :class:`State` of numpy arrays with a batch axis.
"""

from ..core.chance import CounterChance, ScriptedChance
from .actions import ACTION_NAMES, IGNORED_ACTION, NUM_ACTIONS, action_id, action_name
from .config import TouchdownConfig
from .state import FIELDS, PHASE_NAMES, State
