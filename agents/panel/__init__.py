"""The panel: scripted opponents of genuinely different football styles, for evaluation and training.

``PANEL`` maps a name to a constructor (call it for a fresh agent). Every agent follows the protocol of
:mod:`agents.base` and plays a whole game: specials, formations, kicks, carrying, defending, scrambles.
"""

from .power import PowerRunAgent

PANEL = {
    PowerRunAgent.name: PowerRunAgent,
}

__all__ = ["PANEL", "PowerRunAgent"]
