"""Environments over the engine: Gymnasium (single-agent, drive, vector), PettingZoo AEC, self-play batch.

Importing this package registers the Gymnasium ids (each with a natively batched vector entry point):
``gridiron_env/Gridiron-v0``, ``gridiron_env/GridironOffence-v0``, ``gridiron_env/GridironDefence-v0``,
``gridiron_env/GridironScenario-v0`` (a drive from ``scenario=`` any of ``gridiron_env.SCENARIOS``) and
one id per scenario family (``gridiron_env.scenarios.FAMILY_IDS``: ``gridiron_env/GridironGoalLineStand-v0``
...: a drive from the family's first scenario, the learner on its side).

``gridiron_env/Gridiron-v0`` is served by the generic adapters (``gridiron_env.adapters``) over Gridiron's
GameSpec (``gridiron_env.gridiron.game.GAME``): ``GridironEnv`` and ``GridironVectorEnv`` are presets of
``GameEnv`` and ``GameVectorEnv`` that only fix ``game="gridiron"`` (the SB3 adapter takes them as it
takes any generic vector env), and the AEC env (``pettingzoo_env.raw_env``, ``gridiron_env.env()``) is
the generic ``GameAECEnv`` with ``preset_game = "gridiron"``. The spec's optional fields give them what Gridiron's whole game has: the
``"planes"`` observation kind, score shaping in target scores, the ``offence_up`` orientation, Gridiron's
illegal-action wording and its engine's forfeit; the games, observations, masks, rewards, infos and
frames are those of Gridiron's own learner core (``tests/test_generic_gridiron.py``,
``tests/test_generic_gridiron_options.py``). The drive and scenario ids keep Gridiron's own classes (the
learner core below): their episode ends with the drive, rewards are points and field position, an
illegal action costs -(7 + w), and a given position seats the learner by its side.

The drive spec (``gridiron_env.gridiron.drive.DRIVE``, game ``"gridiron_drive"``, variants ``"offence"``
and ``"defence"``) gives the generic envs those drives: they play the drive and scenario envs' episodes
(``tests/test_generic_gridiron_drive.py``). The drive ids still keep these classes: there the drive's
settings (``side``, ``start``, ``field_position_weight``) are fields of its config (``DriveConfig``, a
GameConfig), a given position and ``env.state`` are a ``DriveState`` (the engine's State inside), the
``start`` / ``scenario`` clash is not refused at construction, and the generic vector env runs these
drives about a third slower at batch 2048 (it steps each opponent round on a taken sub-batch).
"""

import gymnasium

from ..scenarios import FAMILY_IDS

_IDS = {
    "gridiron_env/Gridiron-v0": ("GridironEnv", "GridironVectorEnv"),
    "gridiron_env/GridironOffence-v0": ("GridironOffenceEnv", "GridironOffenceVectorEnv"),
    "gridiron_env/GridironDefence-v0": ("GridironDefenceEnv", "GridironDefenceVectorEnv"),
}

for _id, (_single, _vector) in _IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(
            id=_id,
            entry_point=f"gridiron_env.envs.single:{_single}",
            vector_entry_point=f"gridiron_env.envs.vector:{_vector}",
        )

for _id, _family in {"gridiron_env/GridironScenario-v0": None, **FAMILY_IDS}.items():
    if _id not in gymnasium.registry:
        gymnasium.register(
            id=_id,
            entry_point="gridiron_env.envs.single:GridironScenarioEnv",
            vector_entry_point="gridiron_env.envs.vector:GridironScenarioVectorEnv",
            kwargs={} if _family is None else {"family": _family},
        )
