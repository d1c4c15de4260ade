"""Environments over the engine: Gymnasium (single-agent, drive, vector), PettingZoo AEC, self-play batch.

Importing this package registers the Gymnasium ids (each with a natively batched vector entry point):
``gridiron_env/Gridiron-v0``, ``gridiron_env/GridironOffence-v0``, ``gridiron_env/GridironDefence-v0``,
``gridiron_env/GridironScenario-v0`` (a drive from ``scenario=`` any of ``gridiron_env.SCENARIOS``) and
one id per scenario family (``gridiron_env.scenarios.FAMILY_IDS``: ``gridiron_env/GridironGoalLineStand-v0``
...: a drive from the family's first scenario, the learner on its side).

Every id is served by the generic adapters (``gridiron_env.adapters``). ``gridiron_env/Gridiron-v0``:
over Gridiron's GameSpec (``gridiron_env.gridiron.game.GAME``), ``GridironEnv`` and ``GridironVectorEnv``
presets of ``GameEnv`` and ``GameVectorEnv`` that only fix ``game="gridiron"``; the AEC env
(``pettingzoo_env.raw_env``, ``gridiron_env.env()``) is the generic ``GameAECEnv`` with ``preset_game =
"gridiron"``. The spec's optional fields give them what Gridiron's whole game has: the ``"planes"``
observation kind, score shaping in target scores, the ``offence_up`` orientation, Gridiron's
illegal-action wording and its engine's forfeit.

The drive and scenario ids: over the drive spec (``gridiron_env.gridiron.drive.DRIVE``, game
``"gridiron_drive"``), ``GridironOffence(Vector)Env``, ``GridironDefence(Vector)Env`` and
``GridironScenario(Vector)Env`` presets of the same generic classes that map their options onto the
drive's config (``side``, ``start``, ``field_position_weight`` are fields of ``DriveConfig``; ``config``
is a GameConfig or a dict of its fields, specials off by default; ``start`` and ``scenario`` are refused
together). Their episode ends with the drive, rewards are points and field position, an illegal action
costs -(7 + w), a given position (an engine State) seats the learner by its side, and ``env.state`` is
the engine's State (the spec's ``lift_state`` and ``outer_state``). They play the episodes of the
drive envs' own learner core they replaced (``tests/test_generic_gridiron_drive.py``).
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
