"""Text and image rendering of one Sports Dice game (numpy only).

Both draw the field in a fixed frame: team one defends the left goal line and attacks to the right. The
picture has a bar with the score, the Power Chip holder and the situation (the team with the ball, the
down, the series target), the field strip (end zones, a line every 10 yards, the 50 drawn wide, in the
target colour while it is the target, the ball), and under it both sides' dice of the last roll with the
dice of the winning play marked.
"""

from __future__ import annotations

import numpy as np

from ..small_games.engine import game_index
from ..small_games.render import (
    BALL, BAR_PX, END_ZONE_YARDS, FIELD_PX, LINE, TEAM_COLOURS, TEXT, WIDTH, YARD_PX, absolute_yard, ansi_picture,
    draw_text, ordinal, paint_ball, paint_bar, paint_field, team_label, yard_column,
)
from .state import (
    DEFENCE_SIDE, DICE, END_ZONE, KEPT, MIDFIELD, PHASE_NAMES, ROLL_KICK, ROLL_NONE,
    ROLL_PUNT, State, SYMBOL_SHORT, USED,
)

DIE_PX = 34  # a die's square
DICE_PX = 2 * DIE_PX + 3 * 8  # the dice panel under the field: two rows of dice
HEIGHT = BAR_PX + FIELD_PX + DICE_PX
DICE_LEFT = 130  # pixel column of the first die

TARGET = (250, 210, 0)  # the 50 while it is the series target
CHIP_COLOUR = (255, 170, 0)
PANEL = (30, 30, 38)
DIE = (235, 235, 225)
DIE_TEXT = (20, 20, 20)
MARK = (0, 230, 230)  # the frame of a die showing the winning play
_team = team_label


def status_lines(state: State, game: int = 0) -> list[str]:
    """The bar's text: [score line with the chip holder, situation line]."""
    g = int(game)
    s = state
    score = f"ONE {int(s.score[g, 0])} - {int(s.score[g, 1])} TWO   CHIP {_team(int(s.chip[g]))}"
    if s.terminated[g]:
        situation = f"{_team(int(s.winner[g]))} WINS"
    elif s.truncated[g]:
        situation = "TRUNCATED"
    else:
        goal = "GOAL" if int(s.target[g]) == END_ZONE else "THE 50"
        situation = f"{_team(int(s.offence[g]))} BALL ON {int(s.position[g])} {ordinal(int(s.down[g]))} DOWN TO {goal}"
    return [score, situation]


def winning_dice(state: State, game: int = 0) -> np.ndarray:
    """bool [2, 6]: the dice of the last roll that show the winning play (none for a kick or before the
    winner is known); on a punt or field-goal roll, the offence's 10s and 20s (the kick's yards)."""
    g = int(game)
    out = np.zeros((2, DICE), dtype=bool)
    kind = int(state.roll_kind[g])
    if kind in (ROLL_PUNT, ROLL_KICK):
        out[0] = state.dice[g, 0] <= 1
    elif kind != ROLL_NONE and int(state.play[g]) >= 0:
        side = int(state.roll_winner[g])
        out[side] = state.dice[g, side] == int(state.play[g])
    return out


def _kick_yards(state: State, g: int) -> int:
    """10 x the offence's 10s + 20 x its 20s in the last roll (rulings 13, 14)."""
    return 10 * int((state.dice[g, 0] == 0).sum()) + 20 * int((state.dice[g, 0] == 1).sum())


def roll_lines(state: State, game: int = 0) -> list[str]:
    """The last roll in words: both sides' dice (winning dice in brackets), the contest and the play."""
    g = int(game)
    s = state
    kind = int(s.roll_kind[g])
    if kind == ROLL_NONE:
        return ["no roll yet"]
    marked = winning_dice(s, g)
    roller = int(s.roll_offence[g])
    rows = []
    for side, team, label in ((0, roller, "offence"), (1, 1 - roller, "defence")):
        dice = " ".join(f"[{SYMBOL_SHORT[d]}]" if m else SYMBOL_SHORT[d]
                        for d, m in zip(s.dice[g, side].tolist(), marked[side]))
        rows.append(f"{_team(team).lower()} {label} dice: {dice}  (count {int(s.counts[g, side])})")
    if kind in (ROLL_PUNT, ROLL_KICK):
        what = "punt" if kind == ROLL_PUNT else "field goal"
        rows.append(f"{what} roll: {_kick_yards(s, g)} yards")
        return rows
    call = int(s.chip_call[g])
    note = {KEPT: ", tie: chip kept", USED: ", tie: chip used"}.get(call, "")
    side = int(s.roll_winner[g])
    if side < 0:
        rows.append("counts tied: the chip holder decides")
    else:
        play = int(s.play[g])
        chosen = "choosing its play" if play < 0 else f"play {SYMBOL_SHORT[play]}"
        rows.append(f"{'defence' if side == DEFENCE_SIDE else 'offence'} dice win{note}: {chosen}")
    return rows


def render_rgb(state: State, game: int = 0) -> np.ndarray:
    """uint8 [HEIGHT, WIDTH, 3]: the score bar, the field strip and the dice of one game."""
    g = game_index(state, game)
    s = state
    img = np.zeros((HEIGHT, WIDTH, 3), dtype=np.uint8)
    paint_bar(img, status_lines(s, g))
    # the chip: a disc of its colour at the right end of the bar, framed in the holder's colour
    yy, xx = np.mgrid[0:BAR_PX, 0:WIDTH]
    cx, cy = WIDTH - 24, BAR_PX // 2
    r2 = (yy - cy) ** 2 + (xx - cx) ** 2
    img[:BAR_PX][r2 <= 15 ** 2] = TEAM_COLOURS[int(s.chip[g])]
    img[:BAR_PX][r2 <= 11 ** 2] = CHIP_COLOUR
    field = img[BAR_PX:BAR_PX + FIELD_PX]
    paint_field(field)
    x = yard_column(50)  # the 50: always drawn wide, in the target colour while it is the target
    field[:, x - 2:x + 2] = TARGET if int(s.target[g]) == MIDFIELD else LINE
    paint_ball(field, yard_column(absolute_yard(s, g, s.position[g])), int(s.offence[g]))
    panel = img[BAR_PX + FIELD_PX:]
    panel[:] = PANEL
    if int(s.roll_kind[g]) != ROLL_NONE:
        marked = winning_dice(s, g)
        roller = int(s.roll_offence[g])
        for side in (0, 1):
            team = roller if side == 0 else 1 - roller
            y0 = 8 + side * (DIE_PX + 8)
            draw_text(panel, f"{_team(team)} {'OFF' if side == 0 else 'DEF'}", y0 + 10, 8, TEAM_COLOURS[team])
            for k in range(DICE):
                x0 = DICE_LEFT + k * (DIE_PX + 8)
                if marked[side, k]:
                    panel[y0 - 3:y0 + DIE_PX + 3, x0 - 3:x0 + DIE_PX + 3] = MARK
                panel[y0:y0 + DIE_PX, x0:x0 + DIE_PX] = DIE
                draw_text(panel, SYMBOL_SHORT[int(s.dice[g, side, k])], y0 + 10, x0 + 6, DIE_TEXT)
        x = DICE_LEFT + DICE * (DIE_PX + 8) + 10
        kind = int(s.roll_kind[g])
        if kind in (ROLL_PUNT, ROLL_KICK):
            label = f"{'PUNT' if kind == ROLL_PUNT else 'KICK'} {_kick_yards(s, g)}"
        elif int(s.play[g]) >= 0:
            label = f"PLAY {SYMBOL_SHORT[int(s.play[g])]}"
        else:
            label = "TIE" if int(s.roll_winner[g]) < 0 else "CHOOSING"
        draw_text(panel, label, 8 + 10, x, TEXT)
        if int(s.chip_call[g]) == USED:
            draw_text(panel, "CHIP USED", 8 + DIE_PX + 8 + 10, x, CHIP_COLOUR)
    return img


def render_ansi(state: State, game: int = 0) -> str:
    """A text picture of one game: the status, the field strip (21 cells of 5 yards, team one's goal line
    on the left: ``o`` the ball, the 50 ``|`` while it is the target and ``:`` after, ``>`` / ``<`` the
    attacking direction), then the last roll (the dice of the winning play in brackets)."""
    g = game_index(state, game)
    return ansi_picture(state, g, status_lines(state, g), PHASE_NAMES,
                        {MIDFIELD: "|" if int(state.target[g]) == MIDFIELD else ":"}, roll_lines(state, g))


__all__ = ["render_rgb", "render_ansi", "status_lines", "roll_lines", "winning_dice", "yard_column",
           "absolute_yard", "BALL", "BAR_PX", "CHIP_COLOUR", "DICE_LEFT", "DIE_PX", "FIELD_PX", "HEIGHT", "LINE",
           "MARK", "TARGET", "TEAM_COLOURS", "WIDTH", "YARD_PX", "END_ZONE_YARDS"]
