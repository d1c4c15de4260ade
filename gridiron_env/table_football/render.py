"""Text and image rendering of one Table Football game (numpy only).

Both draw the field in a fixed frame: team one defends the left goal line and attacks to the right. The
field strip has the two end zones (10 yards each), a yard line every 10 yards, the ball and the line to
gain; above it a bar with the score, the down and, on the clock, the quarter, the boxes left and the
time-outs.
"""

from __future__ import annotations

import numpy as np

from ..small_games.engine import game_index
from ..small_games.render import (
    BALL, BAR_PX, END_ZONE_YARDS, FIELD_PX, GLYPHS, TEAM_COLOURS, WIDTH, YARD_PX, absolute_yard, ansi_picture,
    draw_text, ordinal, paint_ball, paint_bar, paint_field, team_label, yard_column,
)
from .state import DRAW, OVERTIME, PHASE_NAMES, State

__all__ = ["render_rgb", "render_ansi", "status_lines", "yard_column", "absolute_yard", "draw_text", "GLYPHS",
           "BALL", "TO_GAIN", "TEAM_COLOURS", "BAR_PX", "FIELD_PX", "WIDTH", "HEIGHT", "YARD_PX", "END_ZONE_YARDS"]

HEIGHT = BAR_PX + FIELD_PX
TO_GAIN = (250, 210, 0)


def status_lines(state: State, game: int = 0) -> list[str]:
    """The bar's text: [score line, situation line]."""
    g = int(game)
    s = state
    score = f"ONE {int(s.score[g, 0])} - {int(s.score[g, 1])} TWO"
    if s.terminated[g]:
        w = int(s.winner[g])
        situation = "DRAW" if w == DRAW else f"{team_label(w)} WINS"
    elif s.truncated[g]:
        situation = "TRUNCATED"
    else:
        dist = int(s.line_to_gain[g]) - int(s.position[g])
        togo = "GOAL" if int(s.line_to_gain[g]) >= 100 else str(dist)
        situation = f"{team_label(int(s.offence[g]))} BALL {ordinal(int(s.down[g]))} & {togo}"
    if int(s.quarter[g]) > 0:
        q = int(s.quarter[g])
        qname = "OT" if q == OVERTIME else f"Q{q}"
        score += f"  {qname} {int(s.boxes[g])} BOXES  TO {int(s.timeouts[g, 0])}-{int(s.timeouts[g, 1])}"
    return [score, situation]


def render_rgb(state: State, game: int = 0) -> np.ndarray:
    """uint8 [HEIGHT, WIDTH, 3]: the field strip and the score bar of one game."""
    g = game_index(state, game)
    img = np.zeros((HEIGHT, WIDTH, 3), dtype=np.uint8)
    paint_bar(img, status_lines(state, g))
    field = img[BAR_PX:]
    paint_field(field)
    # the line to gain, then the ball on top
    ltg = yard_column(absolute_yard(state, g, state.line_to_gain[g]))
    field[:, max(ltg - 1, 0):ltg + 2] = TO_GAIN
    paint_ball(field, yard_column(absolute_yard(state, g, state.position[g])), int(state.offence[g]))
    return img


def render_ansi(state: State, game: int = 0) -> str:
    """A text picture of one game: the status, then the field strip (21 cells of 5 yards, team one's goal
    line on the left): ``o`` the ball, ``|`` the line to gain, ``>`` / ``<`` the attacking direction."""
    g = game_index(state, game)
    return ansi_picture(state, g, status_lines(state, g), PHASE_NAMES,
                        {absolute_yard(state, g, state.line_to_gain[g]): "|"})
