"""stable-baselines3 adapter: a generic natively batched vector env (:class:`~.vector.GameVectorEnv`) as an
SB3 ``VecEnv``.

::

    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor
    from gridiron_env.adapters.sb3 import SB3VecEnv

    venv = VecMonitor(SB3VecEnv("gridiron_env/TableFootball-v0", num_envs=64))
    MaskablePPO("MlpPolicy", venv).learn(50_000)

SB3 resets finished games at once: the adapter runs the vector env with ``AutoresetMode.SAME_STEP`` and
puts the terminal observation in ``infos[i]["terminal_observation"]``, with ``infos[i]["TimeLimit.
truncated"]`` True when the episode was cut rather than ended. A game lost by an illegal action has
``infos[i]["illegal_action"]``. MaskablePPO finds the masks through ``has_attr("action_masks")`` and
``env_method("action_masks")`` (one bool [A] row per game; never all zero). ``seed(s)`` then ``reset()``
plays game i with seed s + i; ``set_options({"scenario": name})`` (or a list of one dict per game) then
``reset()`` starts the games from a named position of the game's scenarios. Actions: ints of shape (num_envs,) or (num_envs, 1); a bool entry is an
illegal action of its game, anything else a ValueError, as in the vector env.
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env import VecEnv

from .common import batch_actions
from .vector import GameVectorEnv

__all__ = ["SB3VecEnv"]


class SB3VecEnv(VecEnv):
    """An SB3 ``VecEnv`` over a :class:`GameVectorEnv` (its autoreset mode is switched to SAME_STEP: the
    adapter owns it), or over a registered id built with ``gymnasium.make_vec(env, num_envs, **kwargs)``.
    A subclass serves other vector env classes by setting ``vector_envs`` and ``env_description``."""

    vector_envs: tuple = (GameVectorEnv,)  # the vector env classes this adapter takes
    env_description = "a GameVectorEnv or a registered id of one"

    def __init__(self, env, num_envs: int | None = None, **kwargs):
        if isinstance(env, str):
            env = gymnasium.make_vec(env, num_envs=1 if num_envs is None else num_envs,
                                     autoreset_mode=AutoresetMode.SAME_STEP, **kwargs)
        elif kwargs or num_envs is not None:
            raise ValueError("num_envs and env options are only taken with an env id; got a built env")
        if not isinstance(env, self.vector_envs):
            raise ValueError(f"env must be {self.env_description}, got {type(env).__name__}")
        env.autoreset_mode = AutoresetMode.SAME_STEP
        env.metadata = {**env.metadata, "autoreset_mode": AutoresetMode.SAME_STEP}
        self.venv = env
        self._actions = None
        self.render_mode = None  # read by VecEnv.__init__; frames come from get_images
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)

    def reset(self):
        seeds = self._seeds
        options = self._vector_options()
        if any(s is not None for s in seeds):
            obs, info = self.venv.reset(seed=list(seeds), options=options)
        else:
            obs, info = self.venv.reset(options=options)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = self._list_infos(info, np.zeros(self.num_envs, dtype=bool))
        return obs

    def _vector_options(self):
        """The vector env's reset options from SB3's ``set_options`` (one dict per game): its only key is
        ``"scenario"`` (a name of the game's scenarios, per game); another key is a ValueError."""
        per_game = [dict(o or {}) for o in self._options]
        unknown = sorted({key for o in per_game for key in o} - {"scenario"}, key=repr)
        if unknown:
            raise ValueError(f"unknown reset option(s) {unknown} given to set_options; allowed: 'scenario'")
        scenarios = [o.get("scenario") for o in per_game]
        return None if all(s is None for s in scenarios) else {"scenario": scenarios}

    def step_async(self, actions) -> None:
        if isinstance(actions, np.ndarray) and actions.shape == (self.num_envs, 1):
            actions = actions.reshape(self.num_envs)
        batch_actions(actions, self.num_envs, int(self.action_space.n))  # checked, not cast
        self._actions = actions

    def step_wait(self):
        obs, reward, terminated, truncated, info = self.venv.step(self._actions)
        done = terminated | truncated
        infos = self._list_infos(info, done)
        if done.any():
            final = info["final_obs"]
            for i in np.flatnonzero(done).tolist():
                infos[i]["terminal_observation"] = final[i]
                infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return obs, reward.astype(np.float32), done, infos

    def _list_infos(self, info: dict, done: np.ndarray) -> list[dict]:
        infos = [{} for _ in range(self.num_envs)]
        source = info.get("final_info", {}) if done.any() else {}
        for where in (info, source):
            values = where.get("illegal_action")
            if values is not None:
                for i in np.flatnonzero(where["_illegal_action"]).tolist():
                    infos[i]["illegal_action"] = values[i]
        return infos

    def close(self) -> None:
        self.venv.close()

    def get_attr(self, attr_name: str, indices=None) -> list:
        value = getattr(self.venv, attr_name)  # AttributeError when absent, as has_attr expects
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value, indices=None) -> None:
        if len(list(self._get_indices(indices))) != self.num_envs:
            raise ValueError("set_attr applies to every game of the batch; indices must select all of them")
        setattr(self.venv, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list:
        """``action_masks``: each selected game's bool row; other methods are called once on the vector env
        and their result repeated per selected game."""
        indices = list(self._get_indices(indices))
        result = getattr(self.venv, method_name)(*method_args, **method_kwargs)
        if method_name == "action_masks":
            return list(result[indices])
        return [result for _ in indices]

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def get_images(self):
        if self.venv.render_mode != "rgb_array":
            raise ValueError("build the vector env with render_mode='rgb_array' to get images")
        return list(self.venv.render())

    def action_masks(self) -> np.ndarray:
        """bool [num_envs, A]: every game's legal actions for the learner."""
        return self.venv.action_masks()
