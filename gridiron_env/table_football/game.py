"""Table Football's :class:`~gridiron_env.protocol.GameSpec`: the engine as the generic env layer serves it.

Variants: ``"basic"`` (no fixed fields) and ``"clock"`` (``clock=True``), behind the Gymnasium ids
``gridiron_env/TableFootball-v0`` and ``gridiron_env/TableFootballClock-v0``. The id a mask row marks when
its action is ignored is ``decline`` (3, "do nothing"). Illegal actions in the envs are recorded by the
adapters (``forfeit=None``): the engine's invariants require a winner to lead, which a forfeit may not.
"""

from __future__ import annotations

from ..small_games.game import small_game_spec
from . import actions
from .config import TableFootballConfig
from .state import DRAW, State

__all__ = ["GAME"]

GAME = small_game_spec(
    "table_football", "gridiron_env.table_football", config_class=TableFootballConfig, state_class=State,
    ignored_action=actions.DECLINE, draw_value=DRAW, variants={"basic": {}, "clock": {"clock": True}},
)
