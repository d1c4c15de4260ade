"""Formations (ruling 7) and their placement tables near the goal lines (ruling 5)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from gridiron_env.core import formations as fm
from gridiron_env.core.geometry import (
    DEFENCE_TAGS,
    HASH_BAND,
    MAX_FORMATION_HALF_WIDTH,
    N_LANES,
    N_ROWS,
    OFFENCE_TAGS,
)

VALID_LOS_ROWS = range(3, 27)  # 0-based rows 3..26 = rulebook rows 4..27
BANDS = range(len(HASH_BAND))
INTERIOR_LINE = {"LT": (0, -2), "LG": (0, -1), "C": (0, 0), "RG": (0, 1), "RT": (0, 2)}


def raw_squares(kind: str, formation: int, los_row: int, band: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows and lanes the raw offsets give, before any goal-line adjustment (rows may be off the grid)."""
    offsets = (fm.OFFENCE_OFFSETS if kind == fm.OFFENCE else fm.DEFENCE_OFFSETS)[formation].astype(int)
    sign = 1 if kind == fm.OFFENCE else -1
    return los_row + sign * offsets[:, 0], HASH_BAND[band] + offsets[:, 1]


# ---------------------------------------------------------------------------------------------- data


def test_names_and_ids():
    assert fm.OFFENCE_FORMATIONS == (
        "i_form", "singleback", "shotgun", "pistol", "pro_set", "empty", "jumbo", "wishbone")
    assert fm.DEFENCE_FORMATIONS == (
        "four_three", "three_four", "nickel", "dime", "bear_46", "goal_line", "three_three_five",
        "five_two", "prevent")
    assert fm.OFFENCE_OFFSETS.shape == (8, 11, 2) and fm.DEFENCE_OFFSETS.shape == (9, 11, 2)


@pytest.mark.parametrize("name", fm.OFFENCE_FORMATIONS)
def test_offensive_formation_is_legal(name):
    spots = fm.OFFENCE_SPOTS[name]
    assert sorted(spots) == sorted(OFFENCE_TAGS)  # 11 distinct tags, each once
    assert len(set(spots.values())) == 11  # no two players on one square
    assert sum(depth == 0 for depth, _ in spots.values()) >= 7
    for tag, spot in INTERIOR_LINE.items():
        assert spots[tag] == spot
    for depth, lane in spots.values():
        assert 0 <= depth <= 4 and abs(lane) <= MAX_FORMATION_HALF_WIDTH
    # Exactly one quarterback, behind the centre: under centre (depth 1) or in the gun (depth 2-3).
    qb_depth, qb_lane = spots["QB"]
    assert qb_lane == 0 and qb_depth in (1, 2, 3)
    roles = fm.OFFENCE_ROLES[fm.OFFENCE_FORMATIONS.index(name)]
    assert len(roles) == 11 and roles.count("QB") == 1 and roles[OFFENCE_TAGS.index("QB")] == "QB"
    # The offsets array is the same data in tag order.
    f = fm.OFFENCE_FORMATIONS.index(name)
    assert [tuple(o) for o in fm.OFFENCE_OFFSETS[f].tolist()] == [spots[t] for t in OFFENCE_TAGS]


@pytest.mark.parametrize("name", fm.DEFENCE_FORMATIONS)
def test_defensive_formation_is_legal(name):
    spots = fm.DEFENCE_SPOTS[name]
    assert sorted(spots) == sorted(DEFENCE_TAGS)
    assert len(set(spots.values())) == 11
    for depth, lane in spots.values():
        assert 1 <= depth <= 10 and abs(lane) <= MAX_FORMATION_HALF_WIDTH
    f = fm.DEFENCE_FORMATIONS.index(name)
    assert len(fm.DEFENCE_ROLES[f]) == 11 and all(fm.DEFENCE_ROLES[f])
    assert [tuple(o) for o in fm.DEFENCE_OFFSETS[f].tolist()] == [spots[t] for t in DEFENCE_TAGS]


def test_models_shape_the_formations():
    """A few signature features of the real-football models, so a copy-paste slip shows up."""
    o, d = fm.OFFENCE_SPOTS, fm.DEFENCE_SPOTS
    assert o["i_form"]["F"] == (2, 0) and o["i_form"]["H"] == (3, 0) and o["i_form"]["QB"] == (1, 0)
    assert o["shotgun"]["QB"][0] >= 2 and o["pistol"]["QB"][0] >= 2 and o["pistol"]["H"][1] == 0
    assert o["empty"]["QB"][0] >= 2 and all(o["empty"][t][0] <= 1 for t in "XYZHF")  # nobody in the backfield
    jumbo_roles = fm.OFFENCE_ROLES[fm.OFFENCE_FORMATIONS.index("jumbo")]
    assert jumbo_roles.count("TE") == 3
    wishbone_roles = fm.OFFENCE_ROLES[fm.OFFENCE_FORMATIONS.index("wishbone")]
    assert wishbone_roles.count("FB") + wishbone_roles.count("HB") == 3
    assert d["goal_line"]["FS"][0] == 1 and d["goal_line"]["SS"][0] == 1  # six-man line
    nickel_roles = fm.DEFENCE_ROLES[fm.DEFENCE_FORMATIONS.index("nickel")]
    assert nickel_roles[DEFENCE_TAGS.index("WLB")] == "NB"
    assert fm.DEFENCE_ROLES[fm.DEFENCE_FORMATIONS.index("three_four")][DEFENCE_TAGS.index("LDT")] == "NT"
    assert max(depth for depth, _ in d["prevent"].values()) > max(
        depth for n in ("four_three", "three_four", "nickel") for depth, _ in d[n].values())
    assert sum(depth == 1 for depth, _ in d["five_two"].values()) >= 5


def test_check_rejects_an_illegal_formation():
    spots = dict(fm.OFFENCE_SPOTS["i_form"])
    spots["Y"] = (1, 3)  # only six on the line now
    with pytest.raises(ValueError, match="7"):
        fm._check_formation(fm.OFFENCE, "bad", spots)
    spots = dict(fm.DEFENCE_SPOTS["four_three"])
    spots["MLB"] = (0, 0)  # on the LOS row
    with pytest.raises(ValueError):
        fm._check_formation(fm.DEFENCE, "bad", spots)


# ---------------------------------------------------------------------------------------------- tables


def test_table_shapes_and_unused_rows():
    assert fm.OFFENCE_PLACEMENT.shape == (8, 30, 4, 11) and fm.OFFENCE_PLACEMENT.dtype == np.int16
    assert fm.DEFENCE_PLACEMENT.shape == (9, 30, 4, 11) and fm.DEFENCE_PLACEMENT.dtype == np.int16
    for table in (fm.OFFENCE_PLACEMENT, fm.DEFENCE_PLACEMENT):
        unused = [r for r in range(N_ROWS) if r not in VALID_LOS_ROWS]
        assert (table[:, unused] == -1).all()
        assert (table[:, 3:27] >= 0).all()


@pytest.mark.parametrize("kind", [fm.OFFENCE, fm.DEFENCE])
def test_every_placement_is_eleven_distinct_squares_on_the_right_side(kind):
    table = fm.OFFENCE_PLACEMENT if kind == fm.OFFENCE else fm.DEFENCE_PLACEMENT
    for f, los_row, band in itertools.product(range(table.shape[0]), VALID_LOS_ROWS, BANDS):
        squares = table[f, los_row, band].astype(int)
        assert ((squares >= 0) & (squares < N_ROWS * N_LANES)).all()
        assert len(set(squares.tolist())) == 11
        rows, lanes = squares // N_LANES, squares % N_LANES
        assert ((lanes >= 0) & (lanes < N_LANES)).all()
        if kind == fm.OFFENCE:
            assert (rows >= los_row).all()
        else:
            assert (rows <= los_row - 1).all()


def test_offence_and_defence_never_overlap():
    off = fm.OFFENCE_PLACEMENT[:, 3:27].astype(int)  # [8, 24, 4, 11]
    dfn = fm.DEFENCE_PLACEMENT[:, 3:27].astype(int)  # [9, 24, 4, 11]
    # Every offence formation against every defence formation, same LOS row and band.
    same = off[:, None, :, :, :, None] == dfn[None, :, :, :, None, :]
    assert not same.any()


def test_midfield_placement_equals_raw_offsets():
    los_row = 15
    for kind, table in ((fm.OFFENCE, fm.OFFENCE_PLACEMENT), (fm.DEFENCE, fm.DEFENCE_PLACEMENT)):
        for f, band in itertools.product(range(table.shape[0]), BANDS):
            rows, lanes = raw_squares(kind, f, los_row, band)
            assert table[f, los_row, band].tolist() == (rows * N_LANES + lanes).tolist()


def test_ball_lane_follows_band_index():
    # i_form, LOS 10: the centre is on the ball, whose offence-frame lane is HASH_BAND[band].
    centre = OFFENCE_TAGS.index("C")
    for band, lane in enumerate(HASH_BAND):
        assert fm.OFFENCE_PLACEMENT[0, 10, band, centre] == 10 * N_LANES + lane
        assert fm.band_index(lane) == band
    with pytest.raises(ValueError):
        fm.band_index(3)


# ------------------------------------------------------------------------------------ near goal lines


@pytest.mark.parametrize("kind", [fm.OFFENCE, fm.DEFENCE])
def test_players_on_the_grid_stay_put_and_the_rest_take_the_nearest_free_square(kind):
    """At every LOS row: ruling 5's move toward the LOS, checked as a property of the table."""
    table = fm.OFFENCE_PLACEMENT if kind == fm.OFFENCE else fm.DEFENCE_PLACEMENT
    toward_los = -1 if kind == fm.OFFENCE else 1
    for f, los_row, band in itertools.product(range(table.shape[0]), VALID_LOS_ROWS, BANDS):
        placed = table[f, los_row, band].astype(int)
        rows, lanes = raw_squares(kind, f, los_row, band)
        on_grid = (rows >= 0) & (rows < N_ROWS)
        assert (placed[on_grid] == (rows * N_LANES + lanes)[on_grid]).all()
        occupied = set(placed.tolist())
        for p in np.flatnonzero(~on_grid):
            edge_row = 0 if rows[p] < 0 else N_ROWS - 1
            row, lane = divmod(placed[p], N_LANES)
            if lane == lanes[p]:
                # Every square between the end line and him in his own lane is taken by a teammate.
                for r in range(edge_row, row, toward_los):
                    assert r * N_LANES + lane in occupied
            else:  # his own lane was full from the end line to the LOS
                last = los_row if kind == fm.OFFENCE else los_row - 1
                for r in range(edge_row, last + toward_los, toward_los):
                    assert r * N_LANES + lanes[p] in occupied


def test_defence_at_los_3_moves_deep_players_onto_the_field():
    """LOS on the row next to the end zone the offence attacks: only rows 0-2 are left for defenders."""
    los_row = 3
    moved_any = False
    for f, band in itertools.product(range(len(fm.DEFENCE_FORMATIONS)), BANDS):
        placed = fm.DEFENCE_PLACEMENT[f, los_row, band].astype(int)
        rows, lanes = raw_squares(fm.DEFENCE, f, los_row, band)
        fell_off = rows < 0
        moved_any |= bool(fell_off.any())
        assert (placed[~fell_off] == (rows * N_LANES + lanes)[~fell_off]).all()  # the others stay put
        assert (placed[fell_off] // N_LANES <= 2).all()  # moved onto the grid, in front of the LOS
        assert (placed[fell_off] // N_LANES > rows[fell_off]).all()  # i.e. toward the LOS
    assert moved_any
    # Worked example: four_three, ball in lane 7 (band 0). The free safety (4 rows deep, lane 0) would
    # be on row -1; he goes to row 0 in his own lane, which is free. Everyone else is unchanged.
    fs = DEFENCE_TAGS.index("FS")
    assert fm.DEFENCE_PLACEMENT[0, 3, 0, fs] == 0 * N_LANES + 7


def test_offence_at_los_26_stays_on_the_grid():
    """LOS on the row next to its own end zone: rows 26-29 hold every backfield (max depth 3)."""
    los_row = 26
    for f, band in itertools.product(range(len(fm.OFFENCE_FORMATIONS)), BANDS):
        rows, lanes = raw_squares(fm.OFFENCE, f, los_row, band)
        placed = fm.OFFENCE_PLACEMENT[f, los_row, band].astype(int)
        fell_off = rows > N_ROWS - 1
        assert (placed[~fell_off] == (rows * N_LANES + lanes)[~fell_off]).all()
        assert (placed[fell_off] // N_LANES < rows[fell_off]).all()
        assert (placed // N_LANES <= N_ROWS - 1).all()


def _offsets(*spots):
    return np.array(spots, dtype=np.int64)


def test_place_team_steps_toward_the_los_then_tries_neighbouring_lanes_defence():
    # LOS row 3, ball lane 8. Tag order: A, B, C, D would stand on rows -1..-4 of lane 8; E stands on
    # row 2 of lane 8 and G on row 0 of lane 9 (both on the grid, so they keep their squares).
    offsets = _offsets((4, 0), (5, 0), (6, 0), (7, 0), (1, 0), (3, 1),
                       (1, -7), (2, -7), (1, 7), (2, 7), (3, 7))
    placed = fm.place_team(fm.DEFENCE, offsets, los_row=3, ball_lane=8)
    square = lambda r, l: r * N_LANES + l  # noqa: E731
    assert placed[4] == square(2, 8) and placed[5] == square(0, 9)  # stay put
    assert placed[0] == square(0, 8)  # clipped to row 0, free
    assert placed[1] == square(1, 8)  # row 0 taken by A: one row toward the LOS
    assert placed[2] == square(1, 9)  # lane 8 full up to the LOS (row 2 is E): lane +1, row 0 is G
    assert placed[3] == square(2, 9)  # lane 8 full; lane 9 rows 0, 1 taken
    assert placed[6:].tolist() == [square(2, 1), square(1, 1), square(2, 15), square(1, 15), square(0, 15)]


def test_place_team_steps_toward_the_los_then_tries_neighbouring_lanes_offence():
    # LOS row 26, ball lane 8: the offence has rows 26-29. C on the ball, E at row 29 and F2 at row 27
    # of lane 8; A and B (4 deep) would stand on row 30.
    offsets = _offsets((0, 0), (3, 0), (1, 0), (4, 0), (4, 0), (0, -1), (0, 1), (0, -2), (0, 2),
                       (0, -7), (0, 7))
    placed = fm.place_team(fm.OFFENCE, offsets, los_row=26, ball_lane=8)
    square = lambda r, l: r * N_LANES + l  # noqa: E731
    assert placed[:3].tolist() == [square(26, 8), square(29, 8), square(27, 8)]
    assert placed[3] == square(28, 8)  # row 29 taken: one row toward the LOS
    assert placed[4] == square(29, 9)  # lane 8 rows 29..26 all taken: lane +1, row 29 free


def test_table_matches_place_team():
    for f, los_row, band in itertools.product(range(9), (3, 4, 7, 20), BANDS):
        expected = fm.place_team(fm.DEFENCE, fm.DEFENCE_OFFSETS[f], los_row, HASH_BAND[band])
        assert fm.DEFENCE_PLACEMENT[f, los_row, band].tolist() == expected.tolist()


# ---------------------------------------------------------------------------------------------- diagrams


def parse_diagram(text: str) -> dict[str, tuple[int, int]]:
    """Read a diagram back into {tag: (depth, lane_offset)}; depth measured away from the LOS."""
    body = [line for line in text.splitlines()[1:] if not line.startswith("roles:")]
    found = {}
    for line in body:
        label = line[:7].strip()
        depth = 0 if label == "LOS" else int(label.split()[1])
        cells = line[7:].split("<--")[0]  # 7-character row label, then 4 characters per lane -7..+7
        for i in range(15):
            token = cells[4 * i: 4 * i + 4].strip()
            if token and token not in (".", "()"):
                found[token] = (depth, i - 7)
    return found


@pytest.mark.parametrize("kind,name", [(fm.OFFENCE, n) for n in fm.OFFENCE_FORMATIONS]
                         + [(fm.DEFENCE, n) for n in fm.DEFENCE_FORMATIONS])
def test_diagram_draws_every_tag_where_it_stands(kind, name):
    text = fm.formation_diagram(kind, name)
    spots = (fm.OFFENCE_SPOTS if kind == fm.OFFENCE else fm.DEFENCE_SPOTS)[name]
    assert parse_diagram(text) == dict(spots)
    lines = text.splitlines()
    los = [i for i, line in enumerate(lines) if line.startswith("LOS")]
    assert len(los) == 1 and "line of scrimmage" in lines[los[0]]
    if kind == fm.DEFENCE:
        assert los[0] == len(lines) - 2  # defenders drawn above the LOS, the offence attacks up
    else:
        assert los[0] == 1  # offence on and below the LOS


def test_diagram_roles_and_bad_kind():
    assert "WLB=NB" in fm.formation_diagram(fm.DEFENCE, "nickel")
    assert "Y=TE" in fm.formation_diagram(fm.OFFENCE, "i_form")
    with pytest.raises(ValueError):
        fm.formation_diagram("special_teams", "i_form")


def test_markdown_lists_every_formation():
    text = fm.formations_markdown()
    for kind, names in ((fm.OFFENCE, fm.OFFENCE_FORMATIONS), (fm.DEFENCE, fm.DEFENCE_FORMATIONS)):
        for name in names:
            assert f"`{name}`" in text
            assert fm.formation_diagram(kind, name) in text
