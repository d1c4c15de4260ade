"""Gridiron's natively batched Gymnasium vector envs: presets of the generic vector env
(:class:`~gridiron_env.adapters.vector.GameVectorEnv`) over Gridiron's GameSpecs.

- :class:`GridironVectorEnv` (``gridiron_env/Gridiron-v0``): whole games, over ``gridiron_env.gridiron.game.GAME``;
- :class:`GridironOffenceVectorEnv`, :class:`GridironDefenceVectorEnv`, :class:`GridironScenarioVectorEnv` (and
  the scenario family ids): one drive per episode, over the drive spec (``gridiron_env.gridiron.drive.DRIVE``),
  their options mapped onto its config (:func:`drive_options`, :func:`scenario_drive`).

Also the helpers the training code and the tests read here: :func:`episode_seeds` (the episode seeds of
Gridiron's envs), :func:`make_config` and ``FIELD_ROWS``. The learner core every one of these envs runs on,
its seeding and its autoresets are the generic adapters' (:mod:`gridiron_env.adapters.vector`).
"""

from __future__ import annotations

import math
import numbers

import numpy as np
from gymnasium.vector import AutoresetMode

from .common import check_choice
from ..adapters.common import episode_seeds as generic_episode_seeds
from ..adapters.vector import GameVectorEnv
from ..config import GameConfig
from ..gridiron.drive import (  # noqa: F401  (FIELD_ROWS: train.rllib_env reads it here)
    DRIVE_SIDES, DRIVE_STARTS, FIELD_ROWS, DriveConfig,
)
from ..gridiron.game import SALTS
from ..scenarios import FAMILIES, get_scenario, scenario_names

__all__ = ["GridironVectorEnv", "GridironOffenceVectorEnv", "GridironDefenceVectorEnv", "GridironScenarioVectorEnv",
           "episode_seeds", "make_config", "drive_options", "scenario_drive", "FIELD_ROWS"]


def episode_seeds(base, episode) -> np.ndarray:
    """uint64 seed of episode ``episode`` (0, 1, ...) of slots with base seed ``base`` in Gridiron's envs:
    ``base`` itself first, then seeds of Gridiron's episode stream (``SALTS.episode``)."""
    return generic_episode_seeds(base, episode, np.uint64(SALTS.episode))


def _check_number(name, value, low=0.0):
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value) or value < low:
        raise ValueError(f"{name} must be a finite number >= {low:g}, got {value!r}")
    return float(value)


def make_config(config, episode: str) -> GameConfig:
    """The GameConfig of an env: ``config`` may be None (the default), a GameConfig, or a dict of
    GameConfig fields that override the default. Drive envs (``episode`` "drive") default to
    ``specials=False``; whole games (``episode`` "game") to the GameConfig defaults."""
    default = {"specials": False} if episode == "drive" else {}
    if config is None:
        return GameConfig(**default)
    if isinstance(config, GameConfig):
        return config
    if isinstance(config, dict):
        return GameConfig.from_dict({**default, **config})
    raise ValueError(f"config must be None, a GameConfig or a dict of GameConfig fields, got {type(config).__name__}")


class GridironVectorEnv(GameVectorEnv):
    """``gymnasium.make_vec("gridiron_env/Gridiron-v0", num_envs=N)``: N whole games, the learner on one
    team of each, the opponent playing the other in batch. Options as :class:`~gridiron_env.envs.single.
    GridironEnv`, plus ``num_envs`` and ``autoreset_mode``."""

    def __init__(self, num_envs=1, **options):
        # a preset of the generic vector env (gridiron_env.adapters.vector.GameVectorEnv) over Gridiron's spec
        super().__init__(num_envs, game="gridiron", **options)


def scenario_drive(scenario, family=None, side=None) -> tuple:
    """(Scenario, side) of a scenario drive env: ``scenario`` a name (or None: the family's first),
    ``family`` None or a family of :data:`gridiron_env.scenarios.FAMILIES` the scenario must belong to,
    ``side`` None (the scenario's own side), "offence" or "defence"."""
    if family is not None:
        check_choice("family", family, tuple(FAMILIES))
        if scenario is None:
            scenario = FAMILIES[family][0]
    if scenario is None:
        raise ValueError(f"a scenario env needs scenario= one of {', '.join(scenario_names())}")
    sc = get_scenario(scenario)
    if family is not None and sc.family != family:
        raise ValueError(f"scenario {sc.name!r} is not of the {family!r} family; its scenarios: "
                         f"{', '.join(FAMILIES[family])}")
    side = sc.side if side is None else side
    check_choice("side", side, DRIVE_SIDES)
    return sc, side


def drive_options(side, start="kickoff", field_position_weight=0.0, config=None, scenario=None) -> dict:
    """The generic env's ``config`` (a :class:`~gridiron_env.gridiron.drive.DriveConfig`) and ``scenario``
    (a name) of a Gridiron drive env's options: ``config`` as :func:`make_config` takes it (None, a
    GameConfig or a dict of its fields; specials off by default), ``side``, ``start`` and
    ``field_position_weight`` its drive settings; ``start`` and ``scenario`` are refused together."""
    named_start = isinstance(start, str) and start in DRIVE_STARTS
    row_start = isinstance(start, numbers.Integral) and not isinstance(start, bool) and 4 <= start <= 27
    if not (named_start or row_start):
        raise ValueError(f"start must be 'kickoff', 'random' or an int LOS row 4..27 (rulebook rows from the "
                         f"goal line the offence attacks), got {start!r}")
    weight = _check_number("field_position_weight", field_position_weight)
    engine_config = make_config(config, "drive")
    if scenario is not None:
        scenario = get_scenario(scenario).name  # an unknown name: ValueError listing the allowed
        if start != "kickoff":  # the scenario is the start: a second one would be ignored
            raise ValueError(f"give start or scenario, not both (got start={start!r}, scenario={scenario!r})")
    return {"config": DriveConfig.of(engine_config, side=side, start=start, field_position_weight=weight),
            "scenario": scenario}


class _DrivePreset(GameVectorEnv):
    """A Gridiron drive env as a preset of the generic vector env over the drive spec
    (``gridiron_env.gridiron.drive.DRIVE``): the learner on ``_SIDE``; the drive's settings are its config's."""

    _SIDE = "offence"

    def __init__(self, num_envs=1, *, learner_team="random", opponent=None, observation="features",
                 illegal_action="lose", start="kickoff", field_position_weight=0.0, config=None,
                 max_episode_steps=None, autoreset_mode=AutoresetMode.NEXT_STEP, render_mode=None,
                 offence_up=False, scenario=None):
        super().__init__(num_envs, game="gridiron_drive", variant=self._SIDE, learner_team=learner_team,
                         opponent=opponent, observation=observation, illegal_action=illegal_action,
                         max_episode_steps=max_episode_steps, autoreset_mode=autoreset_mode,
                         render_mode=render_mode, offence_up=offence_up,
                         **drive_options(self._SIDE, start, field_position_weight, config, scenario))


class GridironOffenceVectorEnv(_DrivePreset):
    """``make_vec("gridiron_env/GridironOffence-v0", num_envs=N)``: N drives, the learner on offence.
    Options as :class:`~gridiron_env.envs.single.GridironOffenceEnv`."""

    _SIDE = "offence"


class GridironDefenceVectorEnv(_DrivePreset):
    """``make_vec("gridiron_env/GridironDefence-v0", num_envs=N)``: N drives, the learner on defence.
    Options as :class:`~gridiron_env.envs.single.GridironDefenceEnv`."""

    _SIDE = "defence"


class GridironScenarioVectorEnv(_DrivePreset):
    """``make_vec("gridiron_env/GridironScenario-v0", num_envs=N, scenario=name)`` (or a family's id,
    :data:`gridiron_env.scenarios.FAMILY_IDS`): N drives, each episode from the scenario, the learner on
    ``side`` (default: the scenario's own). Options as :class:`~gridiron_env.envs.single.
    GridironScenarioEnv`."""

    def __init__(self, num_envs=1, *, scenario=None, family=None, side=None, **options):
        sc, self._SIDE = scenario_drive(scenario, family, side)
        self.family = family
        super().__init__(num_envs, scenario=sc.name, **options)
