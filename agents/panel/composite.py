"""A team of two styles: one panel style's offence with another's defence.

``composite("spread_pass", "power_run")`` is an agent that picks the offence style's special, formations,
kicks and carries, and the defence style's formations and defence; the fumble scramble and the loose ball
are the shell's (the same for every style). It is a training aid, not a panel style: the main job's
league keeps the teams of :data:`TEAMS` as fixed members, and its warm start may learn from one
(``train.selfplay.TrainConfig.teacher``).

A name ``"OFFENCE+DEFENCE"`` (``composite_from_name``) names one; a plain style name is that style.
"""

from __future__ import annotations

from .common import PanelAgent

__all__ = ["all_teams", "composite", "composite_from_name", "CompositeAgent", "TEAMS"]

# Teams the league keeps as fixed members beside the panel: the strongest pairing of a sweep over every
# style's offence with every style's defence (48 balanced games against the heuristic and each panel agent:
# spread passing with the power wall won 50-94%, mean 76%; the plain styles 19-89%).
TEAMS = ("spread_pass+power_run",)


class CompositeAgent(PanelAgent):
    """The offence of ``offence`` and the defence of ``defence`` (two style classes of ``agents.panel``).
    Each style keeps its own per-game streams, so in a given position the team decides exactly as that
    style would (see the module docstring)."""

    def __init__(self, offence: type, defence: type):
        self.name = f"{offence.name}+{defence.name}"
        self.salt = (offence.salt ^ (defence.salt >> 1)) & ((1 << 63) - 1)
        self.special = offence.special
        super().__init__()
        self.offence, self.defence = offence(), defence()

    def reset(self, seeds) -> None:
        super().reset(seeds)
        self.offence.reset(seeds)
        self.defence.reset(seeds)

    def act(self, state, config=None, games=None):
        for style in (self.offence, self.defence):  # as the shell does for its own streams
            style.streams.ensure(state.batch_size, style.salt)
        return super().act(state, config, games)

    def offence_formation(self, s, config, games):
        return self.offence.offence_formation(s, config, games)

    def kick(self, s, config, games):
        return self.offence.kick(s, config, games)

    def carry(self, s, config, games):
        return self.offence.carry(s, config, games)

    def defence_formation(self, s, config, games):
        return self.defence.defence_formation(s, config, games)

    def defend(self, s, config, games):
        return self.defence.defend(s, config, games)


def composite(offence: str, defence: str) -> CompositeAgent:
    """The agent playing panel style ``offence``'s offence and style ``defence``'s defence (names of
    ``agents.panel.PANEL``; ValueError naming the unknown one)."""
    from . import PANEL

    for role, name in (("offence", offence), ("defence", defence)):
        if name not in PANEL:
            raise ValueError(f"{role} style must be one of {sorted(PANEL)}, got {name!r}")
    return CompositeAgent(PANEL[offence], PANEL[defence])


def all_teams() -> list[str]:
    """Every team of two different panel styles, ``"OFFENCE+DEFENCE"``, sorted by offence then defence."""
    from . import PANEL

    return [f"{offence}+{defence}" for offence in sorted(PANEL) for defence in sorted(PANEL) if offence != defence]


def composite_from_name(name: str):
    """``"OFFENCE+DEFENCE"`` as a :func:`composite`; a plain panel name as that style's agent."""
    from . import PANEL

    if not isinstance(name, str):
        raise ValueError(f"a team name must be a str, got {name!r}")
    if "+" in name:
        offence, _, defence = name.partition("+")
        return composite(offence, defence)
    if name not in PANEL:
        raise ValueError(f"a team must be a panel style of {sorted(PANEL)} or 'OFFENCE+DEFENCE', got {name!r}")
    return PANEL[name]()
