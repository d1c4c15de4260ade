"""The Gridiron rules engine: pure functions over a struct of numpy arrays (numpy only)."""

from .actions import NUM_ACTIONS, action_id, action_name, ACTION_NAMES
from .chance import CounterChance, ScriptedChance
from .diagram import from_diagram, to_diagram
from .engine import IllegalActionError, init, legal_action_mask, pass_dice, recompute_legal, start_drive, step
from .observe import FEATURES_SIZE, N_PLANES, SCALARS_SIZE, observe, observe_planes
from .state import mirror_state
from .invariants import InvariantError, check_invariants
from .odds import completion_chance, completion_chance_exact, field_goal_chance, field_goal_chance_exact
from .pricing import pass_price
from .state import FIELDS, PHASE_NAMES, State

__all__ = [
    "ACTION_NAMES", "CounterChance", "FIELDS", "IllegalActionError", "InvariantError", "NUM_ACTIONS",
    "PHASE_NAMES", "ScriptedChance", "State", "action_id", "action_name", "check_invariants",
    "completion_chance", "completion_chance_exact", "field_goal_chance", "field_goal_chance_exact",
    "from_diagram", "init", "legal_action_mask", "pass_dice", "pass_price", "step", "to_diagram",
    "FEATURES_SIZE", "N_PLANES", "SCALARS_SIZE", "observe", "observe_planes", "recompute_legal", "start_drive",
    "mirror_state",
]
