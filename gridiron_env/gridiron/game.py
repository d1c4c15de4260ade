"""Gridiron's :class:`~gridiron_env.protocol.GameSpec`: the engine (``gridiron_env.core``) as the generic
env layer (``gridiron_env.adapters``) serves it.

Every member is the engine's own function: the game is exactly the one the Gridiron envs
(``gridiron_env.envs``) play, with the same seeds, action ids and names. The observation is the
``features`` form (``core.observe.observe``, ``FEATURE_LAYOUT``); the id a mask row marks when its action
is ignored is End turn (0, as the Gridiron envs mark it). Gridiron has no draw: a game ends with a winner
or is truncated, so ``draw_value`` (2) never occurs. An illegal action in an env ends the game through the
engine's own ``forfeit`` (a win for the other team, a state the invariants accept).

Seeding: ``SALTS`` are the salts of Gridiron's own learner envs (``GridironEnv``, ``GridironVectorEnv``:
later episodes of a slot, the learner's team when random, the random opponent's stream), so the generic
single and vector envs over this spec play the same games as those in every episode, not only the first.
(Gridiron's self-play batch seeds its later episodes as base + slot + N * episode, not by a salt: the
generic self-play batch keeps its own salt, and its later episodes are other games.)

Variants: ``"basic"`` (the config as given) and ``"no_specials"`` (``specials=False``: no special picks
before the first down).
"""

from __future__ import annotations

import numbers

import numpy as np

from ..config import GameConfig
from ..core import engine
from ..core.actions import ACTION_NAMES, END_TURN, NUM_ACTIONS, action_id
from ..core.diagram import from_diagram, to_diagram
from ..core.invariants import check_invariants
from ..core.observe import FEATURE_LAYOUT, FEATURES_SIZE, N_PLANES, OBS_HIGH, OBS_LOW, SCALARS_SIZE, observe, observe_planes
from ..core.geometry import N_LANES, N_ROWS
from ..core.rules import IllegalActionError
from ..core.state import State
from ..core.visibility import team_view
from ..protocol import EnvSalts, GameSpec, ObservationKind, array_state_members
from ..scenarios import SCENARIOS

__all__ = ["GAME", "DRAW", "SALTS", "illegal_entry"]

DRAW = 2  # the protocol's draw code; Gridiron never ends in a draw

# Gridiron's env salts, the one definition: ``gridiron_env.envs`` draws with them too (see the module doc)
SALTS = EnvSalts(episode=0xE915_0DE5_A17C_0FFE, learner=0x1EA2_4E27_EA40_0001, opponent=0x5EED_0FF0)


def _init(batch_size, seed=0, config=None, seeds=None):
    if seeds is not None:
        return engine.init(None if batch_size is None else batch_size, seeds=seeds, config=config)
    return engine.init(batch_size, seed=seed, config=config)


def _step(state, actions, config=None):
    return engine.step(state, actions, config)


def _step_reusing(state, actions, config=None):
    return engine.step(state, actions, config, reuse_input=True)


def _step_active(state, actions, active, config=None):
    return engine.step(state, actions, config, active=active, reuse_input=True)


def _forfeit(state, games, loser, config=None):
    engine.forfeit(state, games, loser)


def _render_ansi(state, game=0, offence_up=False):
    from ..render import render_ansi

    return render_ansi(state, game, offence_up=offence_up)


def _render_rgb(state, game=0, offence_up=False):
    from ..render import render_rgb

    return render_rgb(state, game, offence_up=offence_up)


def _planes(state, team, config=None):
    planes, scalars = observe_planes(state, team, config)
    return {"planes": planes, "scalars": scalars}


def _planes_space():
    from gymnasium import spaces

    return spaces.Dict({
        "planes": spaces.Box(0, 1, (N_PLANES, N_ROWS, N_LANES), np.uint8),
        "scalars": spaces.Box(OBS_LOW, OBS_HIGH, (SCALARS_SIZE,), np.float32),
    })


def illegal_entry(state, game, given, team=None) -> dict:
    """Gridiron's ``info["illegal_action"]``: ``{"action": as given, "name", "reason"}`` (the team is not
    named: the learner envs have one seat; the AEC env adds ``"team"``)."""
    if isinstance(given, np.generic):
        given = given.item()
    if not isinstance(given, numbers.Integral) or isinstance(given, (bool, np.bool_)):
        return {"action": given, "name": None,
                "reason": f"action {given!r} is not an integer action id (an int 0..{NUM_ACTIONS - 1}; "
                          "a bool is not one)"}
    a = int(given)
    if not (0 <= a < NUM_ACTIONS):
        return {"action": a, "name": None, "reason": f"action {a} is outside the action space 0..{NUM_ACTIONS - 1}"}
    legal = [ACTION_NAMES[i] for i in np.flatnonzero(state.legal[game])]
    return {"action": a, "name": ACTION_NAMES[a], "reason": f"{ACTION_NAMES[a]!r} (id {a}) is not legal now; legal: {legal}"}


def _check_invariants(state, config=None):
    check_invariants(state, check_mask=True, config=config)


GAME = GameSpec(
    name="gridiron",
    config_class=GameConfig,
    init=_init,
    step=_step,
    illegal_error=IllegalActionError,
    num_actions=NUM_ACTIONS,
    action_names=tuple(ACTION_NAMES),
    action_id=action_id,
    ignored_action=END_TURN,
    legal_mask=engine.legal_action_mask,
    observe=lambda state, team, config=None: observe(state, team, config),
    observation_size=FEATURES_SIZE,
    observation_layout=dict(FEATURE_LAYOUT),
    observation_bounds=(OBS_LOW, OBS_HIGH),
    draw_value=DRAW,
    **{**array_state_members(State),
       "winner": lambda s: np.where(s.terminated, s.winner, -1).astype(np.int64)},  # no winner when truncated
    render_ansi=_render_ansi,
    render_rgb=_render_rgb,
    to_diagram=lambda state, game=0: to_diagram(state, game),
    from_diagram=lambda text, config=None: from_diagram(text, config),
    check_invariants=_check_invariants,
    forfeit=_forfeit,
    variants={"basic": {}, "no_specials": {"specials": False}},
    view=lambda state, team: team_view(state, team=team),  # the hidden ball, the other team's special
    scenarios=SCENARIOS,
    salts=SALTS,
    observation_kinds={"planes": ObservationKind(encode=_planes, space=_planes_space)},
    score_unit=lambda config: config.target_score,  # shaping in target scores, as Gridiron's envs have it
    orientation=True,
    illegal_entry=illegal_entry,
    draws=False,
    step_reusing=_step_reusing,  # the adapters own their state: the engine skips its copy
    step_active=_step_active,
)
