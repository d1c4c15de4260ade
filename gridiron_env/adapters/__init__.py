"""One set of env classes for every game of the protocol (:mod:`gridiron_env.protocol`).

- :mod:`.vector`: ``LearnerCore`` (N games, one learner seat each, the opponent acting inside) and
  ``GameVectorEnv``, the natively batched ``gymnasium.vector.VectorEnv`` behind ``make_vec``;
- :mod:`.single`: ``GameEnv``, the Gymnasium env (the core with N = 1);
- :mod:`.pettingzoo`: ``GameAECEnv`` / ``raw_env`` / ``env`` / ``parallel_env``, the two-player AEC env;
- :mod:`.sb3`: ``SB3VecEnv``, the stable-baselines3 ``VecEnv`` over ``GameVectorEnv``;
- :mod:`.registration`: the Gymnasium ids (``gridiron_env/TableFootball-v0``, ``...Clock-v0``).

Submodules are imported on use, so importing this package costs nothing beyond Gymnasium.
"""
