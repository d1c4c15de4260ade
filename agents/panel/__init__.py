"""The panel: scripted opponents of genuinely different football styles, for evaluation and training.

``PANEL`` maps a name to a constructor (call it for a fresh agent). Every agent follows the protocol of
:mod:`agents.base` (``name``, ``reset(seeds)``, ``act(state, config, games=None)``, one random stream per
game) and plays a whole game: the specials pick, formations, kicks, carrying, defending and fumble
scrambles. Each decides from a :func:`agents.base.visible_view` copy, so it cannot read hidden fields.

==================  ==============  ================================================  ==========================
name                special         offence                                           defence
==================  ==============  ================================================  ==========================
``power_run``       Lead Blocker    heavy sets, handoff, pushes and gap runs, never   a wall two rows in front
                                    a forward pass; conservative kicks                of the carrier, 5-2 / 46
``spread_pass``     Sure Hands      shotgun / empty, receivers worked clear, a throw  man-to-man coverage, 3-4,
                                    whenever the price is good; goes for it on 4th    four-man rush
``blitz``           Speedy QB       balanced: the option, passes on seeded downs      all eleven attack the
                                                                                      carrier, no reserve
``prevent``         Ball Hawk       West Coast: short throws of 80% or better         deep cushion, four-man
                                                                                      rush, points kept back
``ball_control``    Lead Blocker    handoffs, safe runs that bank dice, only certain  read by down and distance,
                                    throws; kicks by the book                         two pursue, zones
==================  ==============  ================================================  ==========================

``agents.panel.common`` holds the shell and the building blocks they share.
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

__all__ = ["PANEL", "BallControlAgent", "BlitzAgent", "PowerRunAgent", "PreventAgent", "SpreadPassAgent"]
