"""The small games' invariant checkers, their shared reporting (Table Football, Sports Dice).

A game's ``find_violations(state, config, check_mask)`` lists every (game, problem) of a batch: it takes
a :func:`problem_list`, flags its facts, ends with :func:`flag_cached_mask` (the cached legal mask and
team to act against the rules) and returns the list. ``checker(find_violations)`` is its
``check_invariants``, raising :class:`InvariantError`.
"""

from __future__ import annotations

import numpy as np

from ..core.invariants import InvariantError

__all__ = ["InvariantError", "problem_list", "flag_cached_mask", "checker"]

FLAGGED_GAMES = 20  # the games one problem lists at most (a broken batch would list every game)


def problem_list():
    """``(problems, flag)``: an empty list of (game, message) and ``flag(mask, message)``, which adds the
    first FLAGGED_GAMES games where the bool [B] ``mask`` holds."""
    problems: list[tuple[int, str]] = []

    def flag(mask, message: str) -> None:
        for g in np.flatnonzero(mask)[:FLAGGED_GAMES]:
            problems.append((int(g), message))

    return problems, flag


def flag_cached_mask(flag, s, config, recompute_legal) -> None:
    """Flag the games whose cached legal mask or team to act differ from what ``recompute_legal(copy,
    config)`` derives from the rest of the state."""
    fresh = s.copy()
    recompute_legal(fresh, config)
    flag((fresh.legal != s.legal).any(axis=1), "cached legal mask differs from the rules")
    flag(fresh.to_act != s.to_act, "to_act differs from the phase's decider")


def checker(find_violations):
    """The ``check_invariants(state, config=None, check_mask=True)`` over a game's ``find_violations``."""

    def check_invariants(state, config=None, check_mask: bool = True) -> None:
        """Raise InvariantError if any game of the batch breaks an invariant."""
        problems = find_violations(state, config, check_mask)
        if problems:
            raise InvariantError(problems)

    return check_invariants
