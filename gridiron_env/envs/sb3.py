"""stable-baselines3 adapter: a natively batched Gridiron vector env as an SB3 ``VecEnv``.

::

    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor
    from gridiron_env.envs.sb3 import SB3VecEnv

    venv = VecMonitor(SB3VecEnv("gridiron_env/GridironOffence-v0", num_envs=64))
    MaskablePPO("MlpPolicy", venv).learn(100_000)

SB3 resets finished games at once (same-step): the adapter runs the vector env with
``AutoresetMode.SAME_STEP`` and moves the terminal observation to ``infos[i]["terminal_observation"]``,
with ``infos[i]["TimeLimit.truncated"]`` True when the episode was cut by a time limit rather than ended.
A game lost by an illegal action has ``infos[i]["illegal_action"]``. MaskablePPO finds the masks through
``has_attr("action_masks")`` and ``env_method("action_masks")`` (one bool [291] row per game). Wrap the
adapter in ``VecMonitor`` for episode statistics. ``seed(s)`` then ``reset()`` plays game i with seed
s + i, as ``reset(seed=s)`` of the vector env does (seeds taken modulo 2**64).

Actions: ints of shape (num_envs,) (or (num_envs, 1)); anything else is a ValueError, and a bool entry is
an illegal action of its game, as in the vector env (never cast to id 0 or 1). Masks: same-step resets
mean every game the learner steps has its legal actions; a row is never all zero (the vector env's rule:
a finished game's row marks only id 0, "end turn").
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env import VecEnv

from .common import batch_actions
from .vector import VectorBase

__all__ = ["SB3VecEnv"]


class SB3VecEnv(VecEnv):
    """An SB3 ``VecEnv`` over one of this package's vector envs.

    ``env``: a Gridiron vector env (its autoreset mode is switched to SAME_STEP: the adapter owns it), or a
    registered id, built with ``gymnasium.make_vec(env, num_envs=num_envs, **kwargs)``.
    """

    def __init__(self, env, num_envs: int | None = None, **kwargs):
        if isinstance(env, str):
            env = gymnasium.make_vec(env, num_envs=1 if num_envs is None else num_envs,
                                     autoreset_mode=AutoresetMode.SAME_STEP, **kwargs)
        elif kwargs or num_envs is not None:
            raise ValueError("num_envs and env options are only taken with an env id; got a built env")
        if not isinstance(env, VectorBase):
            raise ValueError(f"env must be a Gridiron vector env or a registered id, got {type(env).__name__}")
        env.autoreset_mode = AutoresetMode.SAME_STEP
        env.metadata = {**env.metadata, "autoreset_mode": AutoresetMode.SAME_STEP}
        self.venv = env
        self._actions = None
        self.render_mode = None  # read by VecEnv.__init__ through get_attr; frames come from get_images
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)

    # --- the VecEnv protocol -----------------------------------------------------------------------------

    def reset(self):
        seeds = self._seeds
        if any(s is not None for s in seeds):
            obs, info = self.venv.reset(seed=list(seeds))
        else:
            obs, info = self.venv.reset()
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = self._list_infos(info, np.zeros(self.num_envs, dtype=bool))
        return obs

    def step_async(self, actions) -> None:
        if isinstance(actions, np.ndarray) and actions.shape == (self.num_envs, 1):
            actions = actions.reshape(self.num_envs)  # a column of actions, as some SB3 code paths hold them
        # checked here (not cast): a bool or float array must not become ids; the vector env sorts them out
        batch_actions(actions, self.num_envs)
        self._actions = actions

    def step_wait(self):
        obs, reward, terminated, truncated, info = self.venv.step(self._actions)
        done = terminated | truncated
        infos = self._list_infos(info, done)
        if done.any():
            final = info["final_obs"]
            for i in np.flatnonzero(done).tolist():  # only the games that ended this step
                infos[i]["terminal_observation"] = final[i]
                infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return obs, reward.astype(np.float32), done, infos

    def _list_infos(self, info: dict, done: np.ndarray) -> list[dict]:
        """SB3's list of per-game dicts (kept lean: masks come through ``env_method("action_masks")``)."""
        infos = [{} for _ in range(self.num_envs)]
        source = info.get("final_info", {}) if done.any() else {}
        for where, values in ((info, info.get("illegal_action")), (source, source.get("illegal_action"))):
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
        indices = list(self._get_indices(indices))
        if len(indices) != self.num_envs:
            raise ValueError("set_attr applies to every game of the batch; indices must select all of them")
        setattr(self.venv, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list:
        """``action_masks`` gives each selected game's bool mask row; other methods of the vector env are
        called once and their result repeated per selected game."""
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
        """bool [num_envs, 291]: every game's legal actions for the learner."""
        return self.venv.action_masks()
