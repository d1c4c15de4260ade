"""Sports Dice's :class:`~gridiron_env.protocol.GameSpec`: the engine as the generic env layer serves it.

One variant, ``"basic"``, behind the Gymnasium id ``gridiron_env/SportsDice-v0``. Every decision is an
action of the team that takes it (the toss winner's choice included), so the protocol's turn-based envs
serve the game unchanged. The id a mask row marks when its action is ignored is ``wait`` (18), never
legal in the engine. Illegal actions in the envs are recorded by the adapters (``forfeit=None``): the
engine's invariants require a winner to have reached the target, which a forfeit may not.
"""

from __future__ import annotations

from ..protocol import GameSpec, array_state_members
from .actions import ACTION_NAMES, IGNORED_ACTION, NUM_ACTIONS, action_id
from .config import SportsDiceConfig
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
    name="sports_dice",
    config_class=SportsDiceConfig,
    init=_init,
    step=_step,
    illegal_error=IllegalActionError,
    num_actions=NUM_ACTIONS,
    action_names=ACTION_NAMES,
    action_id=action_id,
    ignored_action=IGNORED_ACTION,
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
    variants={"basic": {}},
)
