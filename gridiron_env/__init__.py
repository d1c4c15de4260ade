"""gridiron_env: the Gridiron football board game as a batched numpy engine and RL environments."""

from .config import GameConfig
from .core import (
    ACTION_NAMES, NUM_ACTIONS, IllegalActionError, State, action_id, action_name, check_invariants,
    completion_chance, field_goal_chance, from_diagram, init, legal_action_mask, pass_price, step,
    to_diagram,
)

__version__ = "0.1.0"

__all__ = [
    "ACTION_NAMES", "GameConfig", "IllegalActionError", "NUM_ACTIONS", "State", "action_id", "action_name",
    "check_invariants", "completion_chance", "field_goal_chance", "from_diagram", "init",
    "legal_action_mask", "pass_price", "step", "to_diagram",
]
