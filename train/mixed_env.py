"""Several SB3 ``VecEnv``s side by side as one: how a learner trains under several game configs at once.

The engine steps a whole batch under one ``GameConfig``, so a round that covers several rule variants
(specials on and off, both kick modes, several target scores) runs one drive env per variant and this
adapter concatenates them: games ``[offsets[k], offsets[k + 1])`` are env k's. MaskablePPO sees one
``VecEnv`` (``action_masks`` included); observations, rewards, dones and infos are concatenated in order.
"""

from __future__ import annotations

import numpy as np
from stable_baselines3.common.vec_env import VecEnv


class ConcatVecEnv(VecEnv):
    """The games of ``envs`` (SB3 VecEnvs with equal spaces) as one VecEnv, env by env."""

    def __init__(self, envs):
        envs = list(envs)
        if not envs:
            raise ValueError("ConcatVecEnv needs at least one env")
        first = envs[0]
        for env in envs[1:]:
            if env.observation_space != first.observation_space or env.action_space != first.action_space:
                raise ValueError("every env of a ConcatVecEnv must have the same observation and action spaces")
        self.envs = envs
        self.offsets = np.cumsum([0] + [env.num_envs for env in envs])
        self._actions = None
        self.render_mode = None
        super().__init__(int(self.offsets[-1]), first.observation_space, first.action_space)

    def _parts(self):
        return [slice(int(a), int(b)) for a, b in zip(self.offsets[:-1], self.offsets[1:])]

    def seed(self, seed=None):
        """Env k's game i gets seed ``seed + offsets[k] + i``: the seeds of one env of all the games."""
        if seed is None:
            return [s for env in self.envs for s in env.seed(None)]
        return [s for env, part in zip(self.envs, self._parts()) for s in env.seed(int(seed) + part.start)]

    def reset(self):
        obs = [env.reset() for env in self.envs]
        self.reset_infos = [info for env in self.envs for info in env.reset_infos]
        return np.concatenate(obs)

    def step_async(self, actions) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs)
        for env, part in zip(self.envs, self._parts()):
            env.step_async(self._actions[part])

    def step_wait(self):
        results = [env.step_wait() for env in self.envs]
        obs = np.concatenate([r[0] for r in results])
        rewards = np.concatenate([r[1] for r in results])
        dones = np.concatenate([r[2] for r in results])
        infos = [info for r in results for info in r[3]]
        return obs, rewards, dones, infos

    def close(self) -> None:
        for env in self.envs:
            env.close()

    def _indices_by_env(self, indices):
        indices = np.asarray(list(self._get_indices(indices)), dtype=np.int64)
        env_of = np.searchsorted(self.offsets, indices, side="right") - 1
        return [(k, (indices[env_of == k] - self.offsets[k]).tolist()) for k in range(len(self.envs))
                if (env_of == k).any()]

    def get_attr(self, attr_name: str, indices=None) -> list:
        return [v for k, idx in self._indices_by_env(indices) for v in self.envs[k].get_attr(attr_name, idx)]

    def set_attr(self, attr_name: str, value, indices=None) -> None:
        for k, idx in self._indices_by_env(indices):
            self.envs[k].set_attr(attr_name, value, idx)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list:
        return [v for k, idx in self._indices_by_env(indices)
                for v in self.envs[k].env_method(method_name, *method_args, indices=idx, **method_kwargs)]

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [v for k, idx in self._indices_by_env(indices) for v in self.envs[k].env_is_wrapped(wrapper_class, idx)]

    def get_images(self):
        return [img for env in self.envs for img in env.get_images()]

    def action_masks(self) -> np.ndarray:
        """bool [num_envs, actions]: every env's masks, in order."""
        return np.concatenate([env.action_masks() for env in self.envs])
