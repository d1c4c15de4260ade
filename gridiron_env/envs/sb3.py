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

from ..adapters.sb3 import SB3VecEnv as _GameSB3VecEnv
from ..adapters.vector import GameVectorEnv

__all__ = ["SB3VecEnv"]


class SB3VecEnv(_GameSB3VecEnv):
    """An SB3 ``VecEnv`` over one of this package's vector envs: the generic adapter
    (``gridiron_env.adapters.sb3``) taking Gridiron's vector envs.

    ``env``: a Gridiron vector env (its autoreset mode is switched to SAME_STEP: the adapter owns it), or a
    registered id, built with ``gymnasium.make_vec(env, num_envs=num_envs, **kwargs)``.
    """

    vector_envs = (GameVectorEnv,)  # every Gridiron vector env is a preset of the generic one
    env_description = "a Gridiron vector env or a registered id"
