"""gridiron_env: the Gridiron football board game as a batched numpy engine and RL environments."""

from .config import GameConfig
from .core import (
    ACTION_NAMES, NUM_ACTIONS, IllegalActionError, State, action_id, action_name, check_invariants,
    completion_chance, field_goal_chance, from_diagram, init, legal_action_mask, pass_price, step,
    to_diagram,
)

from .scenarios import SCENARIOS
from . import envs as _envs  # registers the Gymnasium ids (the scenario families' too)  # noqa: F401
from .adapters import registration as _adapter_ids  # registers the protocol games' ids  # noqa: F401

__version__ = "0.1.0"


def raw_env(**kwargs):
    """The PettingZoo AEC env, unwrapped (see gridiron_env.envs.pettingzoo_env)."""
    from .envs.pettingzoo_env import raw_env as _raw_env

    return _raw_env(**kwargs)


def env(**kwargs):
    """The PettingZoo AEC env with PettingZoo's standard wrappers."""
    from .envs.pettingzoo_env import env as _env

    return _env(**kwargs)


def parallel_env(**kwargs):
    """The PettingZoo ParallelEnv (turn-based: each step plays the action of the agent to act; see
    gridiron_env.envs.pettingzoo_env). ``observation="flat"`` gives one Box for SuperSuit's wrappers."""
    from .envs.pettingzoo_env import parallel_env as _parallel_env

    return _parallel_env(**kwargs)


__all__ = [
    "env", "raw_env", "parallel_env",
    "ACTION_NAMES", "GameConfig", "SCENARIOS", "IllegalActionError", "NUM_ACTIONS", "State", "action_id", "action_name",
    "check_invariants", "completion_chance", "field_goal_chance", "from_diagram", "init",
    "legal_action_mask", "pass_price", "step", "to_diagram",
]
