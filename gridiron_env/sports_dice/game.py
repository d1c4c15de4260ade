"""Sports Dice's :class:`~gridiron_env.protocol.GameSpec`: the engine as the generic env layer serves it.

One variant, ``"basic"``, behind the Gymnasium id ``gridiron_env/SportsDice-v0``. Every decision is an
action of the team that takes it (the toss winner's choice included), so the protocol's turn-based envs
serve the game unchanged. The id a mask row marks when its action is ignored is ``wait`` (18), never
legal in the engine. Illegal actions in the envs are recorded by the adapters (``forfeit=None``): the
engine's invariants require a winner to have reached the target, which a forfeit may not.
"""

from __future__ import annotations

from ..small_games.game import small_game_spec
from . import actions
from .config import SportsDiceConfig
from .state import DRAW, State

__all__ = ["GAME"]

GAME = small_game_spec(
    "sports_dice", "gridiron_env.sports_dice", config_class=SportsDiceConfig, state_class=State,
    ignored_action=actions.IGNORED_ACTION, draw_value=DRAW,
)
