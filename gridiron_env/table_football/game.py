"""Table Football's :class:`~gridiron_env.protocol.GameSpec`: the engine as the generic env layer serves it.

Variants: ``"basic"`` (no fixed fields) and ``"clock"`` (``clock=True``), behind the Gymnasium ids
``gridiron_env/TableFootball-v0`` and ``gridiron_env/TableFootballClock-v0``. The id a mask row marks when
its action is ignored is ``decline`` (3, "do nothing"). Illegal actions in the envs are recorded by the
adapters (``forfeit=None``): the engine's invariants require a winner to lead, which a forfeit may not.
"""

from __future__ import annotations

from ..protocol import GameSpec, array_state_members
from .actions import ACTION_NAMES, DECLINE, NUM_ACTIONS, action_id
from .config import TableFootballConfig
from .diagram import from_diagram, to_diagram
from .engine import IllegalActionError, init, legal_action_mask, step
from .invariants import check_invariants
from .observe import OBS_HIGH, OBS_LAYOUT, OBS_LOW, OBS_SIZE, observe
from .render import render_ansi, render_rgb
from .state import DRAW, State

__all__ = ["GAME"]


def _init(batch_size, seed=0, config=None, seeds=None):
    return init(batch_size, seed=seed, config=config, seeds=seeds)


def _step(state, actions, config=None):
    return step(state, actions, config)


GAME = GameSpec(
    name="table_football",
    config_class=TableFootballConfig,
    init=_init,
    step=_step,
    illegal_error=IllegalActionError,
    num_actions=NUM_ACTIONS,
    action_names=ACTION_NAMES,
    action_id=action_id,
    ignored_action=DECLINE,
    legal_mask=legal_action_mask,
    observe=observe,
    observation_size=OBS_SIZE,
    observation_layout=OBS_LAYOUT,
    observation_bounds=(OBS_LOW, OBS_HIGH),
    draw_value=DRAW,
    **array_state_members(State),
    render_ansi=render_ansi,
    render_rgb=render_rgb,
    to_diagram=to_diagram,
    from_diagram=lambda text, config=None: from_diagram(text, config),
    check_invariants=check_invariants,
    forfeit=None,
    variants={"basic": {}, "clock": {"clock": True}},
)
