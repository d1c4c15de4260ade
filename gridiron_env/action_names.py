"""Stable action names in both directions, for the small games (Table Football, Sports Dice).

``name_and_id(ACTION_NAMES)`` gives a game's ``action_name(id) -> str`` and ``action_id(name) -> int``:
ids are ints ``0..n-1`` (a bool is never one); names are matched with case, spacing and hyphens forgiven
(``" Use  Chip"``, ``"go-for-it"``). Anything else is a ValueError naming the bad value.
"""

from __future__ import annotations

__all__ = ["name_and_id"]


def name_and_id(names: tuple):
    """The pair ``(action_name, action_id)`` over the action names ``names`` (see the module docstring)."""
    by_name = {name: i for i, name in enumerate(names)}
    count = len(names)

    def action_name(action: int) -> str:
        """The stable readable name of an action id."""
        if isinstance(action, bool) or not isinstance(action, int) and not hasattr(action, "__index__"):
            raise ValueError(f"an action id must be an int, got {action!r}")
        if not (0 <= int(action) < count):
            raise ValueError(f"action id {action!r} is outside 0..{count - 1}")
        return names[int(action)]

    def action_id(name: str) -> int:
        """The id of an action name (case, spacing and hyphens are forgiven)."""
        if not isinstance(name, str):
            raise ValueError(f"an action name must be a str, got {type(name).__name__}")
        canonical = " ".join(name.lower().replace("-", " ").split())
        try:
            return by_name[canonical]
        except KeyError:
            raise ValueError(f"unknown action {name!r}; the actions are {list(names)}") from None

    return action_name, action_id
