"""Gymnasium ids of the games served by the generic adapters (each with a natively batched vector entry
point for ``gymnasium.make_vec``). Imports Gymnasium only: the env modules load on first ``make``."""

from __future__ import annotations

import gymnasium

# id: (game, variant) or (game, variant, default keywords)
IDS = {
    "gridiron_env/TableFootball-v0": ("table_football", "basic"),
    "gridiron_env/TableFootballClock-v0": ("table_football", "clock"),
    "gridiron_env/SportsDice-v0": ("sports_dice", "basic"),
    "gridiron_env/Touchdown-v0": ("touchdown", "basic"),
    # one drive; the drive spec's team one is the drive's offence
    "gridiron_env/TouchdownOffence-v0": ("touchdown_drive", "basic", {"learner_team": "one"}),
    "gridiron_env/TouchdownDefence-v0": ("touchdown_drive", "basic", {"learner_team": "two"}),
}


def register_ids() -> None:
    """Register every id of ``IDS`` not registered yet."""
    for env_id, (game, variant, *extra) in IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="gridiron_env.adapters.single:GameEnv",
                vector_entry_point="gridiron_env.adapters.vector:GameVectorEnv",
                kwargs={"game": game, "variant": variant, **(extra[0] if extra else {})},
            )


register_ids()
