"""Validation of the training commands' settings: each check raises ValueError naming the setting and what
is allowed (``TrainConfig.league_games must be an even int >= 2, got 3``)."""

from __future__ import annotations


def check_int(owner: str, name: str, value, low: int, even: bool = False, high: int | None = None) -> None:
    """``value`` is an int (not a bool) >= ``low``, <= ``high`` when given (and even, when ``even``)."""
    if (isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high)
            or (even and value % 2)):
        kind = "an even int" if even else "an int"
        bounds = f">= {low}" if high is None else f"in [{low}, {high}]"
        raise ValueError(f"{owner}.{name} must be {kind} {bounds}, got {value!r}")


def check_number(owner: str, name: str, value, low: float, high: float = float("inf")) -> None:
    """``value`` is a real number (not a bool) in [``low``, ``high``] (NaN is refused)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        bounds = f"in [{low:g}, {high:g}]" if high != float("inf") else f">= {low:g}"
        raise ValueError(f"{owner}.{name} must be a number {bounds}, got {value!r}")


def check_choice(owner: str, name: str, value, choices) -> None:
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{owner}.{name} must be one of {tuple(choices)}, got {value!r}")
