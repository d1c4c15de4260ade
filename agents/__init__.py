"""Agents that play Gridiron through the engine State.

- ``agents.base``: the agent protocol (``Agent``), per-game random streams, ``visible_view``, the match
  runner ``play_games`` and ``TeamOfUnits`` (one agent's offence with another's defence);
- ``agents.random_agent.RandomAgent``: uniform over the legal actions;
- ``agents.heuristic.HeuristicAgent``: scripted football (``python -m agents.heuristic`` plays a match);
- ``agents.panel``: the panel of scripted opponents of different styles, ``PANEL`` (name -> constructor).

Names are imported lazily, so ``import agents.bot`` (or ``python -m agents.heuristic``) loads only what it
needs.
"""

from importlib import import_module

_EXPORTS = {
    "Agent": "base", "GameStreams": "base", "MatchResult": "base", "play_games": "base", "visible_view": "base",
    "TeamOfUnits": "base",
    "HeuristicAgent": "heuristic", "HeuristicParams": "heuristic", "RandomAgent": "random_agent",
    "PANEL": "panel", "PowerRunAgent": "panel", "SpreadPassAgent": "panel", "BlitzAgent": "panel",
    "PreventAgent": "panel", "BallControlAgent": "panel",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name):
    if name in _EXPORTS:
        return getattr(import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(f"module 'agents' has no attribute {name!r}")
