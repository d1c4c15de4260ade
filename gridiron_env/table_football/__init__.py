"""Table Football (seed 003, RULINGS-table-football.md): a batched numpy engine, its diagram notation,
rendering and the exact solver. Rules: gridiron_env/table_football/RULES.md.

The engine has the shape of Gridiron's core: ``init`` / ``step`` / ``legal_action_mask`` / ``observe``
over a :class:`State` of numpy arrays with a batch axis; the env layer serves it through the same protocol.
"""

from ..core.chance import CounterChance, ScriptedChance
from .actions import ACTION_NAMES, NUM_ACTIONS, action_id, action_name
from .config import TableFootballConfig
from .diagram import from_diagram, to_diagram
from .engine import RESULTS, IllegalActionError, init, legal_action_mask, recompute_legal, step
from .invariants import InvariantError, check_invariants, find_violations
from .observe import OBS_LAYOUT, OBS_SIZE, observation_markdown, observe
from .render import render_ansi, render_rgb
from .state import DRAW, FIELDS, PHASE_NAMES, State, mirror_state
from .solve import PolicyValue, Solution, exact_win_probability, load_solution, solve  # noqa: E402
from .agents import FixedAgent, OptimalAgent, RandomAgent, play_games  # noqa: E402


def raw_env(**options):
    """The two-player PettingZoo AEC env of Table Football, unwrapped (``gridiron_env.adapters.pettingzoo``;
    ``variant="clock"`` or ``config`` / config fields as keywords)."""
    from ..adapters.pettingzoo import raw_env as _raw_env

    return _raw_env("table_football", **options)


def env(**options):
    """The AEC env in PettingZoo's OrderEnforcingWrapper."""
    from ..adapters.pettingzoo import env as _env

    return _env("table_football", **options)


def parallel_env(**options):
    """The parallel API over the AEC env (PettingZoo's ``turn_based_aec_to_parallel``)."""
    from ..adapters.pettingzoo import parallel_env as _parallel_env

    return _parallel_env("table_football", **options)

__all__ = [
    "env", "raw_env", "parallel_env",
    "ACTION_NAMES", "CounterChance", "DRAW", "FIELDS", "IllegalActionError", "InvariantError", "NUM_ACTIONS",
    "OBS_LAYOUT", "OBS_SIZE", "PHASE_NAMES", "RESULTS", "ScriptedChance", "State", "TableFootballConfig",
    "action_id", "action_name", "check_invariants", "find_violations", "from_diagram", "init",
    "legal_action_mask", "mirror_state", "observation_markdown", "observe", "recompute_legal", "render_ansi",
    "render_rgb", "step", "to_diagram", "solve", "Solution", "PolicyValue", "load_solution", "OptimalAgent",
    "RandomAgent", "FixedAgent", "play_games", "exact_win_probability",
]

