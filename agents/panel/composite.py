"""A team of two styles: one panel style's offence with another's defence.

``composite("spread_pass", "power_run")`` is an agent that picks the offence style's special, formations,
kicks and carries, and the defence style's formations and defence; the fumble scramble and the loose ball
are the shell's (the same for every style). It is a training aid, not a panel member: the main job's
imitation warm start learns from the strongest such team (``train.selfplay.TrainConfig.teacher``).

A name ``"OFFENCE+DEFENCE"`` (``composite_from_name``) names one; a plain style name is that style.
"""

from __future__ import annotations

from .common import PanelAgent

__all__ = ["composite", "composite_from_name", "CompositeAgent"]


class CompositeAgent(PanelAgent):
    """The offence of ``offence`` and the defence of ``defence`` (two style classes of ``agents.panel``),
    drawing from one set of per-game streams (see the module docstring)."""

    def __init__(self, offence: type, defence: type):
        self.name = f"{offence.name}+{defence.name}"
        self.salt = (offence.salt ^ (defence.salt >> 1)) & ((1 << 63) - 1)
        self.special = offence.special
        super().__init__()
        self.offence, self.defence = offence(), defence()
        # one stream per game for the team: both styles draw from the composite's (reset by it)
        self.offence.streams = self.streams
        self.defence.streams = self.streams

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
