"""The single-agent Gymnasium env of any game: the learner core of :mod:`.vector` with one game.

A lone env reset with seed s + i plays exactly like game i of a vector env reset with seed s (given the
same actions), and every option means the same in both (see :class:`~.vector.GameVectorEnv`).

Observation: float32 [obs size] from the learner's side (``game.observe``; bounds
``game.observation_bounds``), or with ``observation=`` a kind of ``game.observation_kinds`` that form. Action: ``Discrete(game.num_actions)``. ``info["action_mask"]``: int8 [A],
the learner's legal actions (once the episode is over only ``game.ignored_action``, never all zero);
``action_masks()`` returns it as bool (sb3-contrib). ``info["learner_team"]``: the learner's agent name.

Illegal actions: any int or bool is accepted; an illegal one (an int outside the space, or a bool, which
is never an action id) ends the game as a loss for the learner (reward -1, terminated) with
``info["illegal_action"] = {"team", "action", "name", "reason"}``; ``illegal_action="raise"`` raises the
game's ``illegal_error`` (a ValueError) instead and changes nothing. A float, a str, None or several
values is a ValueError. An illegal action of the opponent raises (a bug in the opponent).
"""

from __future__ import annotations

import gymnasium
import numpy as np

from .common import RENDER_MODES, check_options, check_render_mode, check_seed, get_scenario, index_obs, one_action
from .vector import LearnerCore

__all__ = ["GameEnv"]

_SLOT = np.array([0])


class GameEnv(gymnasium.Env):
    """One whole game of ``game`` for a learner seat against an opponent (options: see the module doc and
    :class:`~.vector.GameVectorEnv`; ``max_episode_steps`` counts learner steps; ``reset(options=
    {"scenario": name})`` and ``scenario=`` start from a named position of ``game.scenarios``)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(self, *, game="table_football", variant="basic", learner_team="random", opponent=None,
                 observation="features", illegal_action="lose", score_reward_scale=0.0, config=None,
                 max_episode_steps=None, render_mode=None, offence_up=False, scenario=None):
        self._core = LearnerCore(1, game=game, variant=variant, learner_team=learner_team, opponent=opponent,
                                 illegal_action=illegal_action, config=config,
                                 max_episode_steps=max_episode_steps, scenario=scenario, observation=observation,
                                 score_reward_scale=score_reward_scale, offence_up=offence_up)
        self.game = self._core.game
        self.observation_space = self._core.single_observation_space
        self.action_space = self._core.single_action_space
        self.render_mode = check_render_mode(render_mode)
        self.offence_up = self._core.offence_up

    @property
    def config(self):
        return self._core.config

    @property
    def state(self):
        """The engine state (a batch of one game); read it, do not edit it."""
        return self._core.outer_state()

    @property
    def learner_team(self) -> int:
        """The learner's team in the current episode: 0 (team one) or 1 (team two)."""
        return int(self._core.learner[0])

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            seed = check_seed(seed)  # before Gymnasium's seeding, which takes Python ints only
        options = check_options(options, ("state", "scenario"))
        if options.get("scenario") is not None:
            get_scenario(self.game, options["scenario"])  # an unknown name raises before anything changes
        super().reset(seed=seed)
        if seed is not None:
            seeds = np.array([seed], dtype=np.uint64)
        elif not self._core.started:  # never seeded: a random first episode
            seeds = np.array([self.np_random.integers(0, 2**62)], dtype=np.uint64)
        else:  # the next episode of the same seed's stream
            seeds = None
        self._core.reset(_SLOT, seeds, options.get("state"), options.get("scenario"))
        return index_obs(self._core.observation(), 0), self._info()

    def step(self, action):
        if not self._core.started:
            raise RuntimeError("call reset() before step()")
        a, given = one_action(action, self.game.num_actions)
        core = self._core
        core.step(np.array([a]), _SLOT, None if given is None else [given])
        return (index_obs(core.observation(), 0), float(core.reward[0]), bool(core.terminated[0]), bool(core.truncated[0]),
                self._info())

    def _info(self) -> dict:
        core = self._core
        info = {"action_mask": core.masks()[0].astype(np.int8), "learner_team": str(core.learner_names()[0])}
        if core.illegal[0] is not None:
            info["illegal_action"] = dict(core.illegal[0])
        return info

    def action_masks(self) -> np.ndarray:
        """bool [A]: the learner's legal actions now (sb3-contrib's MaskablePPO calls this)."""
        return self._core.masks()[0]

    def render(self):
        """A str ("ansi") or an HxWx3 uint8 frame ("rgb_array") of the current position."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'rgb_array'")
            return None
        if not self._core.started:
            raise RuntimeError("call reset() before render()")
        return self._core.render(self.render_mode, 0)
