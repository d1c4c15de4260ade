"""The small games' config records, their shared part (Table Football, Sports Dice).

A game's config is a frozen dataclass that subclasses :class:`ConfigRecord` for ``replace``,
``to_dict`` and ``from_dict``, and checks its fields in ``__post_init__`` (:func:`int_field` for the
whole-number ones): a bad value raises ValueError naming ``Class.field`` and what is allowed.
"""

from __future__ import annotations

import dataclasses
import numbers

__all__ = ["ConfigRecord", "int_field"]


class ConfigRecord:
    """``replace``, ``to_dict`` and ``from_dict`` of a frozen config dataclass."""

    def replace(self, **changes):
        """A copy with ``changes`` (validated like a new config)."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, values: dict):
        """The config of a dict of its fields; ValueError for a non-dict or an unknown field."""
        if not isinstance(values, dict):
            raise ValueError(f"{cls.__name__}.from_dict needs a dict, got {type(values).__name__}")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(values) - known, key=repr)
        if unknown:
            raise ValueError(f"unknown {cls.__name__} field(s) {unknown}; allowed: {sorted(known)}")
        return cls(**values)


def int_field(config, name: str, low: int, high: int):
    """The field ``name`` of ``config``, checked to be an int (not a bool) from ``low`` to ``high``."""
    value = getattr(config, name)
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not (low <= value <= high):
        raise ValueError(f"{type(config).__name__}.{name} must be an int from {low} to {high}, got {value!r}")
    return value
