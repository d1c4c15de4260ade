"""What a team may see of a game: the one definition of hidden information (RULES.md rules 24 and 27).

A team may not see: ``ball_square`` while ``ball_hidden`` (the blind fumble scramble: nobody sees it);
during the specials pick (``SPECIALS_PICK``) the other team's ``special`` (the pick is hidden until both
have picked); ``rng_key`` / ``rng_counter`` (they would let it predict the dice). Everything else in the
State is public. ``agents.base.visible_view``, the engine's error messages and ``to_diagram(..., team=)``
all blank exactly these fields through :func:`team_view`.
"""

from __future__ import annotations

import numpy as np

from .state import SPECIALS_PICK, State

# The fields a team may not (always) see, for documentation and tests: field -> when it is hidden.
HIDDEN_FIELDS = {
    "ball_square": "while ball_hidden (the blind fumble scramble), from both teams",
    "special": "during the specials pick, the other team's",
    "rng_key": "always",
    "rng_counter": "always",
}


def team_view(state: State, games=None, team=None) -> State:
    """A copy of ``state`` (or of its ``games``) as ``team`` sees it: ``ball_square`` -1 while
    ``ball_hidden``; during the specials pick every ``special`` but ``team``'s -1; rng fields 0.

    ``team``: 0 or 1 for every game, an int array with one team per game of the copy, or None for each
    game's team to act (``state.to_act``). Any other value (such as -1) is a spectator: during the pick he
    sees neither team's special.
    """
    view = state.copy() if games is None else state.take(games)
    view.ball_square[view.ball_hidden] = -1
    picking = np.flatnonzero(view.phase == SPECIALS_PICK)
    if picking.size:
        viewer = view.to_act if team is None else np.broadcast_to(np.asarray(team), view.phase.shape)
        viewer = viewer[picking].astype(np.int64)
        for t in (0, 1):
            hide = picking[viewer != t]
            view.special[hide, t] = -1
    view.rng_key[:] = 0
    view.rng_counter[:] = 0
    return view
