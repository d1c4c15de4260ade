"""The panel: scripted opponents of genuinely different football styles, for evaluation and training.

``PANEL`` maps a name to a constructor (call it for a fresh agent). Every agent follows the protocol of
:mod:`agents.base` and plays a whole game: specials, formations, kicks, carrying, defending, scrambles.
"""

from .blitz import BlitzAgent
from .clock import BallControlAgent
from .power import PowerRunAgent
from .prevent import PreventAgent
from .spread import SpreadPassAgent

PANEL = {
    PowerRunAgent.name: PowerRunAgent,
    SpreadPassAgent.name: SpreadPassAgent,
    BlitzAgent.name: BlitzAgent,
    PreventAgent.name: PreventAgent,
    BallControlAgent.name: BallControlAgent,
}

__all__ = ["PANEL", "BallControlAgent", "BlitzAgent", "PreventAgent", "PowerRunAgent", "SpreadPassAgent"]
