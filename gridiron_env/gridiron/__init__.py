"""Gridiron, shaped like every game of the project: its :class:`~gridiron_env.protocol.GameSpec`
(``gridiron_env.gridiron.game.GAME``, registered as ``"gridiron"``) and the PettingZoo entry points as
PettingZoo's own games give them (``env()``, ``raw_env``, ``parallel_env()``).

The AEC env (``gridiron_env.envs.pettingzoo_env.raw_env``, metadata name ``gridiron_v0``) is the generic
one (``gridiron_env.adapters.pettingzoo.GameAECEnv``) preset to this game: the same env as
``gridiron_env.env()``, with every option of it (``config``, ``observation``, ``illegal_action``,
``score_reward_scale``, ``offence_up``, ``render_mode``, ...). The engine itself is ``gridiron_env.core``.
"""

def env(**options):
    """The AEC env in PettingZoo's OrderEnforcingWrapper (``gridiron_env.envs.pettingzoo_env.env``)."""
    from ..envs.pettingzoo_env import env as _env

    return _env(**options)


def parallel_env(**options):
    """The parallel API over the AEC env (``gridiron_env.envs.pettingzoo_env.parallel_env``)."""
    from ..envs.pettingzoo_env import parallel_env as _parallel_env

    return _parallel_env(**options)


def __getattr__(name):
    # on first use: the AEC env class (PettingZoo is imported only then) and the GameSpec
    if name == "raw_env":
        from ..envs.pettingzoo_env import raw_env

        return raw_env
    if name == "GAME":
        from .game import GAME

        return GAME
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["env", "raw_env", "parallel_env", "GAME"]
