"""A small game's :class:`~gridiron_env.protocol.GameSpec` from its modules (Table Football, Sports Dice).

Each small game's folder has the same shape: ``actions`` (``NUM_ACTIONS``, ``ACTION_NAMES``,
``action_id``), ``engine`` (``init``, ``step``, ``legal_action_mask``, ``IllegalActionError``),
``observe`` (``observe``, ``OBS_SIZE``, ``OBS_LAYOUT``, ``OBS_LOW``, ``OBS_HIGH``), ``render``
(``render_ansi``, ``render_rgb``), ``diagram`` (``to_diagram``, ``from_diagram``) and ``invariants``
(``check_invariants``), over a struct-of-arrays ``State``; :func:`small_game_spec` serves them to the env
layer. Illegal actions in the envs are recorded by the adapters (``forfeit=None``): the games' invariants
tie a winner to the score, which a forfeit may not meet.
"""

from __future__ import annotations

import importlib

from ..protocol import GameSpec, array_state_members

__all__ = ["small_game_spec"]


def small_game_spec(name: str, package: str, *, config_class, state_class, ignored_action: int, draw_value: int,
                    variants: dict | None = None) -> GameSpec:
    """The GameSpec of the small game ``name`` from the modules of its ``package`` (see the module
    docstring; by module path, since a game's package names its functions ``observe``, ``solve``, ...)."""
    actions, engine, observe, render, diagram, invariants = (
        importlib.import_module(f"{package}.{module}")
        for module in ("actions", "engine", "observe", "render", "diagram", "invariants"))

    def init(batch_size, seed=0, config=None, seeds=None):
        return engine.init(batch_size, seed=seed, config=config, seeds=seeds)

    def step(state, actions, config=None):
        return engine.step(state, actions, config)

    def from_diagram(text, config=None):
        return diagram.from_diagram(text, config)

    return GameSpec(
        name=name,
        config_class=config_class,
        init=init,
        step=step,
        illegal_error=engine.IllegalActionError,
        num_actions=actions.NUM_ACTIONS,
        action_names=actions.ACTION_NAMES,
        action_id=actions.action_id,
        ignored_action=ignored_action,
        legal_mask=engine.legal_action_mask,
        observe=observe.observe,
        observation_size=observe.OBS_SIZE,
        observation_layout=observe.OBS_LAYOUT,
        observation_bounds=(observe.OBS_LOW, observe.OBS_HIGH),
        draw_value=draw_value,
        **array_state_members(state_class),
        render_ansi=render.render_ansi,
        render_rgb=render.render_rgb,
        to_diagram=diagram.to_diagram,
        from_diagram=from_diagram,
        check_invariants=invariants.check_invariants,
        forfeit=None,
        variants=variants or {"basic": {}},
    )
