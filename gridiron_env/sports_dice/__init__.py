"""Sports Dice: Football (seed 002, RULINGS-sports-dice.md): a batched numpy engine, its diagram notation,
rendering and the exact solver. Rules: gridiron_env/sports_dice/RULES.md."""

from .actions import ACTION_NAMES, NUM_ACTIONS, action_id, action_name
from .config import SportsDiceConfig
from .state import FIELDS, PHASE_NAMES, SYMBOL_NAMES, State, mirror_state
