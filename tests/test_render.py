"""Tests of the renderer (gridiron_env/render.py): the text board and the RGB frame.

Positions are real: a game is opened with ``init``, both specials are picked and the formations are called
with ``step`` until the play phase; header values the test needs (score, down, strong linemen, a loose or
hidden ball) are set by editing the position's diagram (``to_diagram`` / ``from_diagram``), and every
position passes ``check_invariants``. What is asserted is what the rulebook's sections "The field" and
"The line" say the picture shows (team one attacks rows 1-3 at the top, team two rows 28-30; end zones in
the colour of the team that attacks them; busts with position helmets, team jerseys and shoulder widths;
strong linemen glowing red; the football badge on the carrier; the yellow line to gain; the hidden ball of
a fumble scramble shown nowhere, ruling 27; the field turned with possession under "offence always up").
"""

from __future__ import annotations

import colorsys
import re
import struct
import zlib

import numpy as np
import pytest

import gridiron_env as g
from gridiron_env import GameConfig
from gridiron_env.core import State, action_id, check_invariants, from_diagram, step, to_diagram
from gridiron_env.core.geometry import TAGS
from gridiron_env.core.state import KICK_DECISION, OFFENCE_FORMATION, PLAY, SCRAMBLE
from gridiron_env.render import (
    BALL_BROWN, BAR_H, FIELD_BOX, FRAME_SHAPE, GLOW_RED, HELMET_COLOURS, LOS_BLUE, STAR_GOLD,
    SQUARE_PX, YELLOW, Renderer, render_ansi, render_rgb, save_png, square_box,
)

CFG = GameConfig()
ONE, TWO = 0, 1
S = SQUARE_PX
BLUE, RED = (31, 79, 191), (200, 16, 46)  # DEFAULT_COLOURS as RGB
GREEN, ORANGE = (20, 160, 60), (240, 120, 0)


# --------------------------------------------------------------------------------------------- helpers


def opening(team: int, specials=("speedy_qb", "ball_hawk")) -> State:
    """A new game that ``team`` opens on offence (the first seed whose coin toss says so), specials picked
    (team one's pick first, rule 24), waiting for the offence's formation."""
    for seed in range(100):
        s = g.init(1, seed=seed, config=CFG)
        if int(s.opener[0]) == team:
            break
    for pick in specials:
        s = step(s, [action_id(f"special {pick}")], config=CFG)
    assert s.phase[0] == OFFENCE_FORMATION and s.offence[0] == team
    return s


def snap(team: int, offence="i_form", defence="four_three", specials=("speedy_qb", "ball_hawk"), start=None):
    """The position after both formations are called: the play phase, the dice rolled."""
    s = opening(team, specials) if start is None else start
    s = step(s, [action_id(f"formation {offence}")], config=CFG)
    s = step(s, [action_id(f"formation {defence}")], config=CFG)
    if s.phase[0] == KICK_DECISION:  # a field goal in range (rule 9): run a play
        s = step(s, [action_id("play on")], config=CFG)
    assert s.phase[0] == PLAY
    check_invariants(s)
    return s


def edit(state: State, board=None, **header) -> State:
    """The position with some header lines of its diagram replaced (``line_to_gain`` -> 'line to gain')."""
    text = to_diagram(state)
    for key, value in header.items():
        key = key.replace("_", " ")
        text, n = re.subn(rf"^{key}: .*$", f"{key}: {value}", text, flags=re.M)
        assert n == 1, key
    if board is not None:
        text = board(text)
    s = from_diagram(text, CFG)
    check_invariants(s)
    return s


def loose_ball(state: State, square: int, hidden: bool) -> State:
    """The same position with the ball loose on ``square`` (empty): hidden in a scramble, or visible in play."""
    assert state.board[0, square] < 0
    r, l = divmod(square, 18)
    return edit(state, board=lambda t: t.replace("@", " "),
                phase="scramble" if hidden else "play",
                ball=f"loose {r + 1},{l + 1}" + (" hidden" if hidden else ""))


def empty_squares(state: State, rows) -> list[int]:
    return [r * 18 + l for r in rows for l in range(18) if state.board[0, r * 18 + l] < 0]


def team_squares(state: State, team: int) -> set[int]:
    slots = range(11) if int(state.offence[0]) == team else range(11, 22)
    return {int(state.player_square[0, k]) for k in slots}


def tile(frame, square: int, flipped=False):
    y0, y1, x0, x1 = square_box(square // 18, square % 18, flipped)
    return frame[y0:y1, x0:x1]


def field(frame):
    y0, y1, x0, x1 = FIELD_BOX
    return frame[y0:y1, x0:x1]


def count(pixels, colour) -> int:
    return int(np.all(pixels == np.asarray(colour, dtype=np.uint8), axis=-1).sum())


def hue(rgb) -> float:
    return colorsys.rgb_to_hsv(*(np.asarray(rgb, dtype=float) / 255.0))[0] * 360.0


def hue_gap(a, b) -> float:
    d = abs(hue(a) - hue(b)) % 360.0
    return min(d, 360.0 - d)


def end_zone_colour(frame, state, top: bool, flipped=False):
    """Median colour of the end zone at the top (or bottom) of the picture, players' squares left out."""
    f = field(frame)
    rows = range(3) if top else range(27, 30)
    occupied = {divmod(int(q), 18) for q in state.player_square[0] if q >= 0}
    if flipped:
        occupied = {(29 - r, 17 - l) for r, l in occupied}
    pix = [f[r * S:(r + 1) * S, l * S:(l + 1) * S].reshape(-1, 3) for r in rows for l in range(18)
           if (r, l) not in occupied]
    return np.median(np.concatenate(pix), axis=0)


def board_lines(text: str) -> list[str]:
    lines = [ln for ln in text.splitlines() if re.match(r"^[ \d]\d ", ln)]
    assert len(lines) == 30
    return lines


def cells(line: str) -> list[str]:
    body = line[3:39].ljust(36)
    return [body[2 * i:2 * i + 2] for i in range(18)]


def bands(frame, colour, share=0.6) -> list[int]:
    """Field pixel rows where at least ``share`` of the pixels are exactly ``colour``."""
    f = field(frame)
    hits = np.all(f == np.asarray(colour, dtype=np.uint8), axis=-1).mean(axis=1)
    return [int(y) for y in np.flatnonzero(hits >= share)]


# --------------------------------------------------------------------------------------------- text board


def test_ansi_header_shows_score_down_points_dice_specials_strong():
    s = edit(snap(ONE), score="14-7", down="3", points="4-2", strong="C RT")
    text = render_ansi(s)
    head = "\n".join(text.splitlines()[:3])
    assert "score one 14 - 7 two" in head
    assert "3rd & 3" in head  # line to gain 3 rows ahead of the LOS (rule 6)
    assert f"LOS row {int(s.los_row[0]) + 1}" in head
    assert "points one 4 two 2" in head
    d = s.dice[0]
    assert f"dice one {d[0, 0]},{d[0, 1]} two {d[1, 0]},{d[1, 1]}" in head
    assert "play, team one to act" in head
    assert "specials one speedy_qb two ball_hawk" in head
    assert "strong C RT" in head
    assert "overtime" not in head
    over = edit(s, score="17-14", overtime="yes 3-0")
    assert "overtime" in "\n".join(render_ansi(over).splitlines()[:3])


def test_ansi_board_shows_22_players_the_carrier_and_the_strong_men_but_no_ball():
    s = edit(snap(ONE), strong="LG RG RT")
    lines = board_lines(render_ansi(s))
    grid = [cells(ln) for ln in lines]
    letters = [c[0] for row in grid for c in row if c[0].isalpha()]
    assert len(letters) == 22
    assert sum(ch.isupper() for ch in letters) == 11  # team one on offence, upper case
    assert sum(ch.islower() for ch in letters) == 11
    marks = [(r, l, c) for r, row in enumerate(grid) for l, c in enumerate(row)]
    carrier = [(r, l) for r, l, c in marks if c[1] == "@"]
    assert carrier == [divmod(int(s.player_square[0, 0]), 18)] and grid[carrier[0][0]][carrier[0][1]] == "Q@"
    strong = {(r, l) for r, l, c in marks if c[1] == "!"}
    assert strong == {divmod(int(s.player_square[0, TAGS.index(t)]), 18) for t in ("LG", "RG", "RT")}
    assert not any("*" in c for row in grid for c in row)  # the ball is in the QB's hands
    # the end zones are shaded, the field is not
    assert all(c == "::" for r in (0, 1, 2, 27, 28, 29) for c in grid[r] if not c[0].isalpha())
    assert all(c == ". " for c in grid[10])
    # LOS and line to gain marked at the side of their rows
    los, gain = int(s.los_row[0]), int(s.line_to_gain[0])
    assert lines[los].rstrip().endswith("< LOS") and lines[gain].rstrip().endswith("< gain")
    assert sum("< LOS" in ln for ln in lines) == 1 and sum("< gain" in ln for ln in lines) == 1


def test_ansi_hidden_ball_is_shown_nowhere_and_a_visible_loose_ball_is():
    # Ruling 27: in the blind scramble no observation shows the ball's square.
    base = snap(ONE)
    a, b = empty_squares(base, [int(base.los_row[0]) + 1])[:2]
    hidden_a, hidden_b = loose_ball(base, a, True), loose_ball(base, b, True)
    assert hidden_a.phase[0] == SCRAMBLE and hidden_a.ball_hidden[0]
    text_a = render_ansi(hidden_a)
    assert text_a == render_ansi(hidden_b)
    assert not any("*" in c or "@" in c for ln in board_lines(text_a) for c in cells(ln))
    assert str(a) not in text_a.splitlines()[2] and "ball hidden" in text_a.splitlines()[2]
    visible = loose_ball(base, a, False)
    grid = [cells(ln) for ln in board_lines(render_ansi(visible))]
    stars = [(r, l) for r, row in enumerate(grid) for l, c in enumerate(row) if "*" in c]
    assert stars == [divmod(a, 18)]


def test_ansi_offence_up_turns_the_board_only_when_team_two_has_the_ball():
    two = snap(TWO)
    plain, up = board_lines(render_ansi(two)), board_lines(render_ansi(two, offence_up=True))
    assert plain[0].startswith(" 1 ") and up[0].startswith("30 ")
    for r in range(30):
        assert cells(up[29 - r]) == cells(plain[r])[::-1]
    # the offence (lower case, team two) now stands below the defence: it attacks up the screen
    rows_of = lambda lines, pred: [i for i, ln in enumerate(lines) for c in cells(ln) if pred(c[0])]
    assert np.mean(rows_of(up, str.islower)) > np.mean(rows_of(up, str.isupper))
    assert np.mean(rows_of(plain, str.islower)) < np.mean(rows_of(plain, str.isupper))
    one = snap(ONE)
    assert render_ansi(one, offence_up=True) == render_ansi(one)


# --------------------------------------------------------------------------------------------- RGB frame


def test_frame_size_is_fixed_and_uint8():
    s1, s2 = snap(ONE), snap(TWO)
    for st in (s1, s2):
        for kw in ({}, {"offence_up": True}, {"lines": "tint"}, {"colours": (GREEN, "#f07800")}):
            f = render_rgb(st, **kw)
            assert f.shape == FRAME_SHAPE and f.dtype == np.uint8
    assert 16 <= S <= 24


def test_end_zones_wear_the_colour_of_the_team_that_attacks_them():
    # "Each end zone is painted in the colour of the team that attacks it": team one rows 1-3 (top).
    s = snap(ONE)
    for colours in ((BLUE, RED), (RED, BLUE), (GREEN, ORANGE)):
        f = render_rgb(s, colours=colours)
        top, bottom = end_zone_colour(f, s, True), end_zone_colour(f, s, False)
        assert hue_gap(top, colours[0]) < 15 and hue_gap(bottom, colours[1]) < 15, colours
        assert hue_gap(top, colours[1]) > 40 and hue_gap(bottom, colours[0]) > 40
    # "over the same mown grass and checker": tinted, not flat - the stripes show through
    f = field(render_rgb(s))
    row0, row1 = f[:S, :S * 4].reshape(-1, 3).mean(axis=0), f[S:2 * S, :S * 4].reshape(-1, 3).mean(axis=0)
    assert np.abs(row0 - row1).sum() > 15
    assert len({tuple(p) for p in f[:3 * S].reshape(-1, 3)}) >= 4
    # the field of play between them is grass
    mid = f[12 * S:14 * S].reshape(-1, 3).mean(axis=0)
    assert mid[1] > mid[0] + 30 and mid[1] > mid[2] + 30


def test_one_bust_per_player_in_the_team_jersey():
    for team in (ONE, TWO):
        s = snap(team, specials=("lead_blocker", "sure_hands"))
        f = render_rgb(s)
        for jersey, side in ((BLUE, ONE), (RED, TWO)):
            wearing = {q for q in range(540) if count(tile(f, q), jersey) >= 20}
            assert wearing == team_squares(s, side) and len(wearing) == 11
        # swapping the colours swaps the jerseys
        f = render_rgb(s, colours=(RED, BLUE))
        assert {q for q in range(540) if count(tile(f, q), BLUE) >= 20} == team_squares(s, TWO)


def test_helmet_colour_shows_the_position_and_the_bust_is_upright():
    # Rulebook: "The helmet colour shows the position". Groups: QB; interior linemen; receivers and backs;
    # defensive line; linebackers; defensive backs. In the goal-line defence the FS and SS slots play
    # defensive tackle (RULES.md roles line), so they wear the defensive-line helmet.
    expected = {"QB": "qb", "C": "oline", "LG": "oline", "RG": "oline", "LT": "oline", "RT": "oline",
                "X": "skill", "Y": "skill", "Z": "skill", "H": "skill", "F": "skill",
                "LDE": "dline", "LDT": "dline", "RDT": "dline", "RDE": "dline", "SLB": "lb", "MLB": "lb",
                "WLB": "lb", "LCB": "db", "RCB": "db", "FS": "db", "SS": "db"}
    for defence, changes in (("four_three", {}), ("goal_line", {"FS": "dline", "SS": "dline"})):
        s = snap(ONE, defence=defence)
        f = render_rgb(s)
        for slot, tag in enumerate(TAGS):
            t = tile(f, int(s.player_square[0, slot]))
            group = changes.get(tag, expected[tag])
            assert count(t, HELMET_COLOURS[group]) >= 20, (defence, tag)
            for other, colour in HELMET_COLOURS.items():
                if other != group:
                    assert count(t, colour) == 0, (defence, tag, other)
            ys_helmet = np.nonzero(np.all(t == HELMET_COLOURS[group].astype(np.uint8), axis=-1))[0]
            ys_jersey = np.nonzero(np.all(t == np.array(BLUE if slot < 11 else RED, np.uint8), axis=-1))[0]
            assert ys_helmet.mean() < ys_jersey.mean()  # helmet over the shoulders


def test_linemen_have_wide_shoulders_and_backs_narrow_ones():
    s = snap(ONE)
    f = render_rgb(s)

    def width(slot):
        t = tile(f, int(s.player_square[0, slot]))
        jersey = BLUE if slot < 11 else RED
        return int(np.all(t == np.array(jersey, np.uint8), axis=-1).sum(axis=1).max())

    wide = [width(TAGS.index(t)) for t in ("C", "LG", "RG", "LT", "RT", "LDE", "LDT", "RDT", "RDE")]
    narrow = [width(TAGS.index(t)) for t in ("QB", "X", "Y", "Z", "H", "F", "SLB", "MLB", "LCB", "FS", "SS")]
    assert min(wide) >= max(narrow) + 4, (wide, narrow)


def glow(pixels, jersey) -> int:
    """Bright red pixels far from the jersey colour (its anti-aliased edges left out): the glow."""
    p = pixels.reshape(-1, 3).astype(float)
    red = (p[:, 0] >= 180) & (p[:, 1] <= 110) & (p[:, 2] <= 110)
    return int((red & (np.linalg.norm(p - np.array(jersey), axis=1) > 40)).sum())


def test_strong_linemen_glow_red_and_weak_ones_do_not():
    # "A strong lineman burns a red glow ... (the red-rimmed square)."
    for team in (ONE, TWO):  # team two's default jersey is red: the glow must still tell them apart
        s = edit(snap(team), strong="C LT")
        f = render_rgb(s)
        jersey = BLUE if team == ONE else RED
        for tag in ("C", "LG", "RG", "LT", "RT"):
            t = tile(f, int(s.player_square[0, TAGS.index(tag)]))
            if tag in ("C", "LT"):
                # the rim: the square's top edge and both sides are red; and the glow around the bust
                assert count(t[0], GLOW_RED) >= 15 and count(t[:, 0], GLOW_RED) >= 8, (team, tag)
                assert count(t[:, -1], GLOW_RED) >= 8 and glow(t[2:-2, 2:-2], jersey) >= 20, (team, tag)
            else:
                assert count(t, GLOW_RED) == 0 and glow(t, jersey) == 0, (team, tag)
        # no one else glows
        others = [q for q in range(540) if q not in {int(s.player_square[0, k]) for k in (1, 4)}]
        assert all(count(tile(f, q), GLOW_RED) == 0 for q in others)


def test_the_football_badge_marks_the_carrier_and_follows_a_handoff():
    s = snap(ONE)
    f = render_rgb(s)
    qb, fb = int(s.player_square[0, 0]), int(s.player_square[0, TAGS.index("F")])
    assert count(tile(f, qb), BALL_BROWN) >= 25
    assert count(field(f), BALL_BROWN) == count(tile(f, qb), BALL_BROWN)
    # a handoff back to the fullback behind him (rule 18) moves the badge
    s2 = step(s, [action_id("throw F")], config=CFG)
    check_invariants(s2)
    assert s2.ball_holder[0] == TAGS.index("F")
    f2 = render_rgb(s2)
    assert count(tile(f2, qb), BALL_BROWN) == 0
    assert count(tile(f2, fb), BALL_BROWN) >= 25 and count(field(f2), BALL_BROWN) == count(tile(f2, fb), BALL_BROWN)
    # badge: a vertical oval (taller than wide) with a white lace
    mask = np.all(tile(f2, fb) == BALL_BROWN.astype(np.uint8), axis=-1)
    ys, xs = np.nonzero(mask)
    assert np.ptp(ys) > np.ptp(xs)
    assert count(tile(f2, fb)[ys.min():ys.max() + 1, xs.min():xs.max() + 1], (255, 255, 255)) >= 3


def test_hidden_ball_is_drawn_nowhere_and_a_visible_loose_ball_is_drawn_on_its_square():
    # Ruling 27: the hidden ball's square is not shown; two scrambles that differ only by where the ball
    # hides render to the same frame.
    base = snap(TWO)
    a, b = empty_squares(base, [int(base.los_row[0]) - 2, int(base.los_row[0]) + 4])[:2]
    fa = render_rgb(loose_ball(base, a, True), offence_up=True, lines="tint")
    fb = render_rgb(loose_ball(base, b, True), offence_up=True, lines="tint")
    assert np.array_equal(fa, fb)
    assert count(field(fa), BALL_BROWN) == 0
    visible = render_rgb(loose_ball(base, a, False))
    assert count(tile(visible, a), BALL_BROWN) >= 30
    assert count(field(visible), BALL_BROWN) == count(tile(visible, a), BALL_BROWN)


def test_speedy_qb_wears_a_gold_star_and_no_one_else_does():
    s = snap(ONE, specials=("speedy_qb", "sure_hands"))
    f = render_rgb(s)
    qb = int(s.player_square[0, 0])
    assert count(tile(f, qb), STAR_GOLD) >= 5
    assert count(field(f), STAR_GOLD) == count(tile(f, qb), STAR_GOLD)
    # the defence's Speedy QB has no quarterback on the field this down: no star
    s = snap(ONE, specials=("sure_hands", "speedy_qb"))
    assert count(field(render_rgb(s)), STAR_GOLD) == 0


def test_lines_on_the_row_edges_los_blue_and_line_to_gain_yellow():
    # The LOS line lies on the LOS row's forward edge (between the offence on the LOS row and the
    # defence); the yellow line on the edge of the line-to-gain row nearest the LOS: reaching that row
    # is crossing it (rule 6).
    for team in (ONE, TWO):
        s = snap(team)
        los, gain = int(s.los_row[0]), int(s.line_to_gain[0])
        los_edge = los * S if team == ONE else (los + 1) * S
        gain_edge = (gain + 1) * S if team == ONE else gain * S
        for offence_up in (False, True):
            f = render_rgb(s, offence_up=offence_up)
            flip = offence_up and team == TWO
            le, ge = (600 - los_edge, 600 - gain_edge) if flip else (los_edge, gain_edge)
            blue, yellow = bands(f, LOS_BLUE), bands(f, YELLOW)
            assert blue and set(blue) <= set(range(le - 2, le + 2)), (team, offence_up, blue, le)
            assert yellow and set(yellow) <= set(range(ge - 2, ge + 2)), (team, offence_up, yellow, ge)
            assert abs(le - ge) == 2 * S  # two rows between: the line-to-gain row is the third
            if team == ONE or flip:  # the offence attacks up the picture: the yellow line is above
                assert ge < le
            else:
                assert ge > le


def test_tinted_rows_mark_the_los_and_the_line_to_gain():
    s = snap(ONE)
    f = field(render_rgb(s, lines="tint"))
    los, gain = int(s.los_row[0]), int(s.line_to_gain[0])
    empty = lambda r: np.concatenate([f[r * S:(r + 1) * S, l * S:(l + 1) * S].reshape(-1, 3)
                                      for l in range(18) if s.board[0, r * 18 + l] < 0]).mean(axis=0)
    plain, los_c, gain_c = empty(15), empty(los), empty(gain)
    assert gain_c[0] > plain[0] + 50 and gain_c[2] < 80  # yellowed
    assert los_c[2] > plain[2] + 50  # blued
    assert not bands(render_rgb(s, lines="tint"), YELLOW) and not bands(render_rgb(s, lines="tint"), LOS_BLUE)


def test_goal_to_go_puts_the_yellow_line_on_the_goal_line():
    # Ruling 6: with the LOS on row 5 for team one the line to gain lies in the end zone: only a TD gains.
    start = edit(opening(ONE), line_of_scrimmage="row 5 lane 9", line_to_gain="row 2", ball="loose 5,9",
                 board=lambda text: text.replace("*", "."))  # the ball moves with the LOS: not at the old spot
    s = snap(ONE, start=start)
    assert int(s.los_row[0]) == 4
    assert "1st & goal" in render_ansi(s).splitlines()[0]
    for lines in ("line", "tint"):
        yellow = bands(render_rgb(s, lines=lines), YELLOW)
        assert yellow and set(yellow) <= set(range(3 * S - 2, 3 * S + 2)), lines


def test_offence_up_turns_the_field_a_half_turn_only_while_team_two_has_the_ball():
    two = snap(TWO, offence="shotgun", defence="nickel")
    plain, up = render_rgb(two), render_rgb(two, offence_up=True)
    turned = np.rot90(field(plain), 2)
    occupied = np.zeros((30, 18), dtype=bool)
    for q in two.player_square[0]:
        r, l = divmod(int(q), 18)
        occupied[29 - r, 17 - l] = True  # where the busts stand in the turned picture
    mask = ~np.repeat(np.repeat(occupied, S, axis=0), S, axis=1)
    assert np.array_equal(field(up)[mask], turned[mask])
    assert not np.array_equal(field(up), field(plain))
    # the end zones swap ends: team two's colour is now at the top, the end it attacks
    assert hue_gap(end_zone_colour(up, two, True, flipped=True), RED) < 15
    assert hue_gap(end_zone_colour(up, two, False, flipped=True), BLUE) < 15
    # the players stand on the turned squares, busts still upright (helmet above jersey)
    for q in team_squares(two, TWO):
        t = tile(up, q, flipped=True)
        assert count(t, RED) >= 20
        ys_h = np.nonzero(np.all(t == HELMET_COLOURS["qb"].astype(np.uint8), axis=-1))[0]
        if q == int(two.player_square[0, 0]):
            assert ys_h.mean() < np.nonzero(np.all(t == np.array(RED, np.uint8), axis=-1))[0].mean()
    # team one on offence: nothing turns
    one = snap(ONE)
    assert np.array_equal(render_rgb(one, offence_up=True), render_rgb(one))


def test_status_bar_changes_with_the_score_and_the_field_does_not():
    s = snap(ONE)
    a, b = render_rgb(s), render_rgb(edit(s, score="21-14"))
    diff = np.any(a != b, axis=-1)
    assert diff[:BAR_H].any() and not diff[BAR_H:].any()
    # team colour swatches in the bar
    assert count(a[:BAR_H], BLUE) >= 200 and count(a[:BAR_H], RED) >= 200


def test_renderer_class_and_batches():
    one, two = snap(ONE), snap(TWO)
    batch = State.concatenate([one, two])
    assert Renderer("ansi").render(batch, 1) == render_ansi(two)
    assert Renderer("ansi", offence_up=True).render(batch, 1) == render_ansi(two, offence_up=True)
    r = Renderer("rgb_array", offence_up=True, colours=("#14a03c", ORANGE), lines="tint")
    assert np.array_equal(r.render(batch, 1), render_rgb(two, offence_up=True, colours=(GREEN, ORANGE), lines="tint"))
    assert np.array_equal(Renderer("rgb_array").render(batch, 0), render_rgb(one))
    assert r.frame_shape == FRAME_SHAPE
    with pytest.raises(ValueError):
        Renderer("human")
    with pytest.raises(ValueError):
        Renderer("rgb_array", lines="dotted")
    with pytest.raises(ValueError):
        render_rgb(one, colours=("#12345", RED))
    with pytest.raises(ValueError):
        render_rgb(one, game=1)


def test_every_phase_renders():
    # pre-snap (the ball on its spot, no players), the kick decision, a finished game
    s = opening(TWO)
    assert "*" in "".join(c for ln in board_lines(render_ansi(s)) for c in cells(ln))
    assert count(field(render_rgb(s)), BALL_BROWN) > 0
    over = edit(snap(ONE), phase="game_over", to_act="-", score="21-3",
                result="winner one terminated yes truncated no")
    assert "final, team one wins" in render_ansi(over)
    assert render_rgb(over).shape == FRAME_SHAPE


def _read_png(path) -> np.ndarray:
    try:
        from PIL import Image
    except ImportError:
        Image = None
    if Image is not None:
        return np.asarray(Image.open(path).convert("RGB"))
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    i, idat = 8, b""
    while i < len(data):
        n = struct.unpack(">I", data[i:i + 4])[0]
        kind, body = data[i + 4:i + 8], data[i + 8:i + 8 + n]
        if kind == b"IHDR":
            w, h = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        i += 12 + n
    raw = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(h, 1 + 3 * w)
    assert (raw[:, 0] == 0).all()  # filter type 0, as the built-in writer writes
    return raw[:, 1:].reshape(h, w, 3)


def test_png_of_a_mid_play_frame(tmp_path):
    # A real mid-play position: team one's offence moved the fullback, strong men on the line.
    s = snap(ONE, specials=("speedy_qb", "ball_hawk"))
    s = step(s, [action_id("move F E")], config=CFG)
    check_invariants(s)
    frame = render_rgb(s)
    for path in (tmp_path / "frame.png", "/tmp/gridiron_frame.png"):
        save_png(frame, path)
        assert np.array_equal(_read_png(path), frame)


# --------------------------------------------------------------------------------------------- banners

from functools import lru_cache  # noqa: E402

from gridiron_env.core import actions as A  # noqa: E402
from gridiron_env.core.state import GAME_OVER  # noqa: E402
from gridiron_env.core.visibility import team_view  # noqa: E402
from gridiron_env.events import ACTION_EVENT_KINDS, EVENT_KINDS, play_events  # noqa: E402
from gridiron_env.render import BANNER_H, BANNER_KINDS, banner_box, draw_banner, text_mask  # noqa: E402


@lru_cache(maxsize=2)
def _steps(n: int = 16):
    """(before, after, action) of every step of ``n`` games, spread passing (touchdowns, interceptions) against
    the heuristic (first downs; tackles, some of them fumbles), as a spectator sees the positions."""
    from agents.panel import PANEL
    from agents.heuristic import HeuristicAgent

    config = GameConfig(target_score=7)
    agents = [PANEL["spread_pass"](), HeuristicAgent()]
    for agent in agents:
        agent.reset(np.arange(n))
    side = np.arange(n) % 2
    state = g.init(n, seed=0, config=config)
    out = []
    for _ in range(1500):
        live = np.flatnonzero(~(state.terminated | state.truncated))
        if live.size == 0:
            break
        mine = state.to_act == side
        first, second = np.flatnonzero(mine), np.flatnonzero(~mine)  # each agent only where it acts
        actions = np.where(mine, agents[0].act(state, config, games=first), agents[1].act(state, config, games=second))
        after = step(state, actions, config=config)
        for k in live:
            out.append((team_view(state, [k], -1), team_view(after, [k], -1), int(actions[k])))
        state = after
    return out


def _expected(before, after) -> list[tuple[str, int, str]]:
    """The default banners' events of a step by the rulebook's words, as (kind, team it is good for, text):
    a touchdown is 6 or 7 points; an interception is the ball going from a carrier to the other side
    with the down still on; a fumble starts a scramble; a first down is a new set of downs for the same
    team in the same drive without a score."""
    out = []
    scored = False
    for t in (0, 1):
        gained = int(after.score[0, t]) - int(before.score[0, t])
        scored |= gained > 0
        if gained in (6, 7):
            words = "Touchdown! (and the extra point)" if gained == 7 else "Touchdown!"
            out.append(("touchdown", t, f"{words} Team {('one', 'two')[t]}"))
    b_holder, a_holder = int(before.ball_holder[0]), int(after.ball_holder[0])
    down_on = (int(after.phase[0]) in (PLAY, SCRAMBLE) and int(after.down[0]) == int(before.down[0])
               and int(after.offence[0]) == int(before.offence[0]) and int(after.los_row[0]) == int(before.los_row[0]))
    if int(before.phase[0]) == PLAY and b_holder >= 0 and a_holder >= 0 and (a_holder < 11) != (b_holder < 11) \
            and down_on:
        off = int(after.offence[0])
        out.append(("interception", off if a_holder < 11 else 1 - off, f"Intercepted by {TAGS[a_holder]}!"))
    if int(after.phase[0]) == SCRAMBLE and int(before.phase[0]) != SCRAMBLE:
        out.append(("fumble", int(before.to_act[0]), "Fumble! The ball is loose and hidden"))
    if (int(after.phase[0]) != GAME_OVER and int(after.down[0]) == 1 and not scored
            and int(after.offence[0]) == int(before.offence[0]) and (after.drives == before.drives).all()
            and (int(before.down[0]) != 1 or int(after.los_row[0]) != int(before.los_row[0]))):
        out.append(("first_down", int(after.offence[0]), "First down!"))
    return out


def _gold(frame) -> np.ndarray:
    return np.all(frame == np.asarray(STAR_GOLD, dtype=np.uint8), axis=-1)


def _assert_banner(plain, frame, text, team):
    """``frame`` is ``plain`` with the banner: only the band changed, darkened, edged in the team's
    colour, and its gold pixels spell ``text`` (5 x 7 letters at the largest scale that fits), centred."""
    y0, y1, x0, x1 = banner_box()
    changed = np.flatnonzero((plain != frame).any(axis=(1, 2)))
    assert changed.size and changed.min() >= y0 and changed.max() < y1
    assert not (plain[:, :x0] != frame[:, :x0]).any() and not (plain[:, x1:] != frame[:, x1:]).any()
    band = frame[y0:y1, x0:x1]
    assert np.all(band[:3] == np.asarray((BLUE, RED)[team], dtype=np.uint8))
    assert np.all(band[-3:] == np.asarray((BLUE, RED)[team], dtype=np.uint8))
    inner = band[3:-3].astype(int)
    dark = ~_gold(band[3:-3])
    assert inner[dark].max() <= 64  # darkened to a quarter
    lit = _gold(band)
    rows, cols = np.flatnonzero(lit.any(axis=1)), np.flatnonzero(lit.any(axis=0))
    glyphs = lit[rows.min():rows.max() + 1, cols.min():cols.max() + 1]
    masks = [text_mask(text, scale) for scale in (3, 2, 1)]
    mask = next((m for m in masks if m.shape[1] <= (x1 - x0) - 12), masks[-1][:, :(x1 - x0) - 12])
    lit_rows, lit_cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
    assert np.array_equal(glyphs, mask[lit_rows.min():lit_rows.max() + 1, lit_cols.min():lit_cols.max() + 1])
    # the text's box (its letters' blank edges included) is centred in the band
    assert cols.min() - lit_cols.min() == ((x1 - x0) - mask.shape[1]) // 2
    assert rows.min() - lit_rows.min() == (BANNER_H - mask.shape[0]) // 2


@pytest.mark.parametrize("n, kinds", [
    (6, ("touchdown", "fumble", "first_down")),
    pytest.param(16, BANNER_KINDS, marks=pytest.mark.slow),  # interceptions too (~15 s)
], ids=["6-games", "16-games"])
def test_the_default_banners_are_exactly_the_steps_with_a_touchdown_interception_fumble_or_first_down(n, kinds):
    steps = _steps(n)
    found = {k: 0 for k in BANNER_KINDS}
    for before, after, action in steps:  # the events, every step
        expected = _expected(before, after)
        for with_action in (None, action):
            got = [(e["kind"], e["team"], e["text"]) for e in play_events(before, after, with_action)
                   if e["kind"] in BANNER_KINDS]
            assert got == expected, (got, expected, A.ACTION_NAMES[action])
        for kind, _, _ in expected:
            found[kind] += 1
    assert all(found[k] >= 2 for k in kinds), found
    # the pictures: steps with one of those events (up to 5 a kind) and 30 steps without
    rng = np.random.default_rng(0)
    shown = {k: 0 for k in BANNER_KINDS}
    quiet = 0
    for i in rng.permutation(len(steps)):
        before, after, action = steps[i]
        expected = _expected(before, after)
        if expected and all(shown[k] >= 5 for k, _, _ in expected) or not expected and quiet >= 30:
            continue
        plain = render_rgb(after)
        for with_action in (None, action):
            frame = render_rgb(after, previous=before, action=with_action)
            if expected:
                _assert_banner(plain, frame, "  ".join(t for _, _, t in expected), expected[0][1])
            else:
                assert np.array_equal(frame, plain)
        if expected:
            for k, _, _ in expected:
                shown[k] += 1
        else:
            quiet += 1
    assert all(shown[k] >= 2 for k in kinds) and quiet == 30, (shown, quiet)


def test_banner_options_pick_the_kinds_and_bad_ones_are_refused():
    steps = _steps(6)
    touchdown = next(s for s in steps if any(k == "touchdown" for k, _, _ in _expected(s[0], s[1])))
    before, after, action = touchdown
    plain = render_rgb(after)
    assert np.array_equal(render_rgb(after, previous=before, banners=()), plain)
    assert not np.array_equal(render_rgb(after, previous=before, banners=("touchdown",)), plain)
    assert np.array_equal(render_rgb(after, previous=before, banners=("fumble",)), plain)
    # a tackle needs the action: with it the tackle banner (edged in the tackler's colour), without it none
    tackle = next(s for s in steps if A.ACTION_KIND[s[2]] == A.KIND_MOVE
                  and any(e["kind"] == "tackle" for e in play_events(*s)))
    before, after, action = tackle
    events = play_events(before, after, action)
    assert all(e["kind"] not in ACTION_EVENT_KINDS for e in play_events(before, after))
    frame = render_rgb(after, previous=before, action=action, banners=EVENT_KINDS)
    _assert_banner(render_rgb(after), frame, "  ".join(e["text"] for e in events), events[0]["team"])
    assert A.ACTION_NAMES[action].split()[1] + " tackles " in events[0]["text"]
    # the Renderer passes the step on; batches take one action per game
    r = Renderer("rgb_array")
    assert np.array_equal(r.render(after, 0, previous=before, action=action),
                          render_rgb(after, previous=before, action=action))
    two_after, two_before = State.concatenate([after, after]), State.concatenate([before, before])
    assert np.array_equal(render_rgb(two_after, 1, previous=two_before, action=[0, action], banners=EVENT_KINDS),
                          frame)
    with pytest.raises(ValueError, match="banners: unknown event kind 'party'"):
        render_rgb(after, previous=before, banners=("party",))
    with pytest.raises(ValueError, match="one per game of the batch of 2"):
        render_rgb(two_after, 0, previous=two_before, action=[1, 2, 3])
    with pytest.raises(ValueError, match="action must be an action id"):
        render_rgb(after, previous=before, action=10**6)
    with pytest.raises(ValueError, match="outside the batch"):
        play_events(before, two_after, None, game=1)
    # draw_banner on a finished picture: the same band
    assert np.array_equal(draw_banner(render_rgb(after), events[0]["text"] + "  " + events[1]["text"]
                                      if len(events) > 1 else events[0]["text"], BLUE if events[0]["team"] == 0
                                      else RED), frame)
    assert BANNER_H == banner_box()[1] - banner_box()[0]


def test_the_events_are_the_web_games_captions():
    """One implementation: the video's banners (play_events) and the page's captions (describe_step)
    name the same events for every step."""
    sessions = pytest.importorskip("gridiron_env.web.sessions")
    for before, after, action in _steps(6):
        caption = sessions.describe_step(before, after, action, int(before.to_act[0]), -1)
        assert play_events(before, after, action) == caption["banners"], A.ACTION_NAMES[action]
