"""Offensive and defensive formations and their placement tables (rulings 5 and 7).

Every formation is a set of eleven *spots*, one per player tag, given in the offence's frame as
``(depth, lane_offset)``:

- ``depth`` is in rows (one row is about 4 yards). For the offence it counts rows *behind* the line of
  scrimmage (0 = on the LOS row, 1 = one row behind, at most 4). For the defence it counts rows
  *forward* of the LOS as the offence sees it, i.e. into the defence's side of the ball (at least 1, at
  most 10).
- ``lane_offset`` is in lanes, to the offence's right (positive) or left (negative) of the ball,
  ``|lane_offset| <= MAX_FORMATION_HALF_WIDTH`` (7). Defensive tags say left/right in the offence's frame
  too: LDE lines up on the offence's left. The strong side (tight end side) is the offence's right.

The ids of the formations are their positions in ``OFFENCE_FORMATIONS`` / ``DEFENCE_FORMATIONS``.
The eleven defensive tags are fixed slots; a formation may use a slot for another position (in the
nickel the WLB slot is the nickel back). ``OFFENCE_ROLES`` / ``DEFENCE_ROLES`` hold that display role.

``OFFENCE_PLACEMENT`` / ``DEFENCE_PLACEMENT`` (int16, ``[formation, los_row, band_index, player]``) give
each player's square in the offence's frame for every LOS row and hash-band lane; see
:func:`place_team` for the rule near the goal lines.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

import numpy as np

from .geometry import (
    DEFENCE_TAGS,
    FIRST_FIELD_ROW,
    HASH_BAND,
    LAST_FIELD_ROW,
    MAX_FORMATION_HALF_WIDTH,
    N_LANES,
    N_ROWS,
    OFFENCE_TAGS,
    PLAYERS_PER_TEAM,
)

OFFENCE, DEFENCE = "offence", "defence"
MAX_OFFENCE_DEPTH = 4  # rows behind the LOS: a row is ~4 yards, so 4 rows is a deep backfield already
MIN_DEFENCE_DEPTH = 1  # defenders line up forward of the LOS row, never on it (ruling 7)
MAX_DEFENCE_DEPTH = 10

# The interior line is the same in every offensive formation: tackle, guard, centre on the ball, guard,
# tackle, shoulder to shoulder on the LOS row.
INTERIOR_LINE = {"LT": (0, -2), "LG": (0, -1), "C": (0, 0), "RG": (0, 1), "RT": (0, 2)}

# --------------------------------------------------------------------------------------------------
# Formation data. Each entry: name -> (real-football model in one sentence, {tag: (depth, lane, role)}).
# Offence: depth = rows behind the LOS. Defence: depth = rows forward of the LOS (offence's view).
# --------------------------------------------------------------------------------------------------

_LINE_WITH_ROLES = {tag: (depth, lane, tag) for tag, (depth, lane) in INTERIOR_LINE.items()}

_OFFENCE_DATA: dict[str, tuple[str, dict[str, tuple[int, int, str]]]] = {
    "i_form": (
        "The pro I formation: quarterback under centre with the fullback and then the tailback lined up "
        "straight behind him, a tight end on the right, a split end left and a flanker right.",
        {
            "QB": (1, 0, "QB"),
            "X": (0, -7, "WR"),  # split end, on the line
            "Y": (0, 3, "TE"),  # tight end beside the right tackle
            "Z": (1, 7, "WR"),  # flanker, a step off the line
            "F": (2, 0, "FB"),  # fullback, first man in the I
            "H": (3, 0, "RB"),  # tailback, deepest man in the I
        },
    ),
    "singleback": (
        "The singleback (11 personnel): quarterback under centre, one running back deep behind him, a "
        "tight end right, a split end and a slot receiver left, a flanker right.",
        {
            "QB": (1, 0, "QB"),
            "X": (0, -7, "WR"),
            "Y": (0, 3, "TE"),
            "Z": (1, 7, "WR"),
            "F": (1, -4, "WR"),  # slot receiver inside the split end
            "H": (3, 0, "RB"),  # the single back, at tailback depth
        },
    ),
    "shotgun": (
        "The shotgun spread (2x2): quarterback several yards deep with the running back beside him, two "
        "receivers on each side, the outside ones on the line.",
        {
            "QB": (2, 0, "QB"),
            "X": (0, -7, "WR"),
            "Z": (0, 7, "WR"),
            "F": (1, -4, "WR"),  # left slot
            "Y": (1, 4, "WR"),  # right slot
            "H": (2, -1, "RB"),  # offset back beside the quarterback
        },
    ),
    "pistol": (
        "The pistol: quarterback a short shotgun depth behind centre with the running back straight behind "
        "him, a tight end right, an H-back on the left wing, a split end and a flanker.",
        {
            "QB": (2, 0, "QB"),
            "X": (0, -7, "WR"),
            "Y": (0, 3, "TE"),
            "Z": (1, 7, "WR"),
            "F": (1, -3, "TE"),  # H-back on the wing, off the line outside the left tackle
            "H": (3, 0, "RB"),  # tailback behind the quarterback
        },
    ),
    "pro_set": (
        "The pro set (split backs): quarterback under centre with the halfback and fullback side by side "
        "behind him, a tight end right, a split end left and a flanker right.",
        {
            "QB": (1, 0, "QB"),
            "X": (0, -7, "WR"),
            "Y": (0, 3, "TE"),
            "Z": (1, 7, "WR"),
            "H": (2, -1, "RB"),  # halfback behind the left guard
            "F": (2, 1, "FB"),  # fullback behind the right guard
        },
    ),
    "empty": (
        "The empty backfield (3x2): quarterback alone in the shotgun, five receivers spread, two to the "
        "left and three (trips) to the right.",
        {
            "QB": (2, 0, "QB"),
            "X": (0, -7, "WR"),
            "Z": (0, 7, "WR"),
            "H": (1, -4, "WR"),  # left slot
            "F": (1, 3, "WR"),  # inside trips receiver
            "Y": (1, 5, "WR"),  # middle trips receiver
        },
    ),
    "jumbo": (
        "The jumbo / heavy goal-line set (23 personnel): quarterback under centre, three tight ends (one on "
        "each end of the line and a wing on the right), fullback and tailback in an I.",
        {
            "QB": (1, 0, "QB"),
            "X": (0, -3, "TE"),  # left tight end
            "Y": (0, 3, "TE"),  # right tight end
            "Z": (1, 4, "TE"),  # wing tight end off the right end
            "F": (2, 0, "FB"),
            "H": (3, 0, "RB"),
        },
    ),
    "wishbone": (
        "The wishbone: quarterback under centre, fullback right behind him and two halfbacks a step deeper "
        "and to either side (the wishbone's Y), with a tight end right and a split end left.",
        {
            "QB": (1, 0, "QB"),
            "X": (0, -7, "WR"),
            "Y": (0, 3, "TE"),
            "F": (2, 0, "FB"),
            "H": (3, -1, "HB"),  # left halfback
            "Z": (3, 1, "HB"),  # right halfback
        },
    ),
}

_DEFENCE_DATA: dict[str, tuple[str, dict[str, tuple[int, int, str]]]] = {
    "four_three": (
        "The 4-3 base: four down linemen, three linebackers (strong-side one over the tight end), two "
        "corners and two safeties, the free safety deep in the middle.",
        {
            "LDE": (1, -3, "DE"),
            "LDT": (1, -1, "DT"),
            "RDT": (1, 1, "DT"),
            "RDE": (1, 3, "DE"),
            "WLB": (2, -3, "OLB"),
            "MLB": (2, 0, "MLB"),
            "SLB": (2, 3, "OLB"),
            "LCB": (2, -6, "CB"),
            "RCB": (2, 6, "CB"),
            "SS": (3, 4, "SS"),  # strong safety rolled down to the tight end side
            "FS": (4, 0, "FS"),  # single deep free safety
        },
    ),
    "three_four": (
        "The 3-4: a nose tackle and two defensive ends, two outside and two inside linebackers, two "
        "corners and two deep safeties.",
        {
            "LDE": (1, -2, "DE"),
            "LDT": (1, 0, "NT"),  # nose tackle on the centre
            "RDT": (1, 2, "DE"),  # the right-side 3-4 end
            "RDE": (2, 4, "OLB"),  # the edge rusher stands up as the right outside linebacker
            "WLB": (2, -4, "OLB"),
            "MLB": (2, -1, "ILB"),
            "SLB": (2, 1, "ILB"),
            "LCB": (2, -6, "CB"),
            "RCB": (2, 6, "CB"),
            "FS": (4, -2, "FS"),
            "SS": (4, 2, "SS"),
        },
    ),
    "nickel": (
        "The nickel (4-2-5): four down linemen, two linebackers and a fifth defensive back, the nickel "
        "back, over the slot.",
        {
            "LDE": (1, -3, "DE"),
            "LDT": (1, -1, "DT"),
            "RDT": (1, 1, "DT"),
            "RDE": (1, 3, "DE"),
            "MLB": (2, -1, "LB"),
            "SLB": (2, 1, "LB"),
            "WLB": (2, -4, "NB"),  # the weak-side linebacker comes off for the nickel back
            "LCB": (2, -6, "CB"),
            "RCB": (2, 6, "CB"),
            "FS": (4, -2, "FS"),
            "SS": (4, 2, "SS"),
        },
    ),
    "dime": (
        "The dime (4-1-6): four down linemen, one linebacker and six defensive backs, with the safeties "
        "a row deeper than in the base defences.",
        {
            "LDE": (1, -3, "DE"),
            "LDT": (1, -1, "DT"),
            "RDT": (1, 1, "DT"),
            "RDE": (1, 3, "DE"),
            "MLB": (2, 0, "LB"),
            "WLB": (2, -4, "NB"),  # nickel back over the left slot
            "SLB": (2, 4, "DB"),  # dime back over the right slot
            "LCB": (2, -6, "CB"),
            "RCB": (2, 6, "CB"),
            "FS": (5, -2, "FS"),
            "SS": (5, 2, "SS"),
        },
    ),
    "bear_46": (
        "The 46 (Bear) defence: centre and both guards covered, both outside linebackers on the line on "
        "the tight end side, the strong safety down in the box, press corners and one deep safety.",
        {
            "LDE": (1, -3, "DE"),  # weak-side end, wide
            "LDT": (1, -1, "DT"),  # on the left guard
            "RDT": (1, 0, "NT"),  # nose on the centre
            "RDE": (1, 1, "DT"),  # on the right guard
            "WLB": (1, 3, "OLB"),  # on the line over the tight end
            "SLB": (1, 4, "OLB"),  # on the line outside the tight end
            "MLB": (2, 0, "MLB"),
            "SS": (2, -2, "SS"),  # the eighth man in the box
            "LCB": (1, -7, "CB"),  # press coverage on the split end
            "RCB": (1, 7, "CB"),
            "FS": (4, 0, "FS"),  # lone deep safety
        },
    ),
    "goal_line": (
        "The 6-3-2 goal-line defence: six down linemen, three linebackers and two corners; the two "
        "safety slots put their hands down as extra tackles.",
        {
            "LDE": (1, -3, "DE"),
            "LDT": (1, -2, "DT"),
            "FS": (1, -1, "DT"),  # safeties are off the field in goal-line personnel: extra tackles
            "SS": (1, 1, "DT"),
            "RDT": (1, 2, "DT"),
            "RDE": (1, 3, "DE"),
            "WLB": (2, -2, "LB"),
            "MLB": (2, 0, "LB"),
            "SLB": (2, 2, "LB"),
            "LCB": (1, -6, "CB"),
            "RCB": (1, 6, "CB"),
        },
    ),
    "three_three_five": (
        "The 3-3-5 stack: three down linemen with three linebackers stacked right behind them, two "
        "corners and three safeties (two hybrid safeties at the flanks, one deep).",
        {
            "LDE": (1, -2, "DE"),
            "LDT": (1, 0, "NT"),
            "RDE": (1, 2, "DE"),
            "WLB": (2, -2, "LB"),
            "MLB": (2, 0, "LB"),
            "SLB": (2, 2, "LB"),
            "RDT": (3, 4, "S"),  # the second tackle comes off for a hybrid safety on the strong side
            "SS": (3, -4, "S"),  # hybrid safety on the weak side
            "LCB": (2, -6, "CB"),
            "RCB": (2, 6, "CB"),
            "FS": (5, 0, "FS"),
        },
    ),
    "five_two": (
        "The 5-2 (Oklahoma) defence: nose guard on the centre, tackles on the offensive tackles, ends "
        "outside them, two inside linebackers, two corners and two safeties.",
        {
            "LDE": (1, -4, "DE"),
            "LDT": (1, -2, "DT"),
            "MLB": (1, 0, "NG"),  # the middle linebacker slot is the nose guard
            "RDT": (1, 2, "DT"),
            "RDE": (1, 4, "DE"),
            "WLB": (2, -1, "LB"),
            "SLB": (2, 1, "LB"),
            "LCB": (2, -6, "CB"),
            "RCB": (2, 6, "CB"),
            "SS": (3, 3, "SS"),
            "FS": (4, -2, "FS"),
        },
    ),
    "prevent": (
        "The prevent defence: a four-man rush, one linebacker and six defensive backs all playing deep "
        "to keep everything in front of them.",
        {
            "LDE": (1, -3, "DE"),
            "LDT": (1, -1, "DT"),
            "RDT": (1, 1, "DT"),
            "RDE": (1, 3, "DE"),
            "MLB": (3, 0, "LB"),
            "WLB": (3, -4, "NB"),
            "SLB": (3, 4, "DB"),
            "LCB": (4, -6, "CB"),
            "RCB": (4, 6, "CB"),
            "FS": (6, -3, "FS"),
            "SS": (6, 3, "SS"),
        },
    ),
}

OFFENCE_FORMATIONS = ("i_form", "singleback", "shotgun", "pistol", "pro_set", "empty", "jumbo", "wishbone")
DEFENCE_FORMATIONS = (
    "four_three", "three_four", "nickel", "dime", "bear_46", "goal_line", "three_three_five", "five_two",
    "prevent",
)
N_OFFENCE_FORMATIONS = len(OFFENCE_FORMATIONS)  # 8
N_DEFENCE_FORMATIONS = len(DEFENCE_FORMATIONS)  # 9


def _freeze(kind: str, names: tuple[str, ...], data: dict, tags: tuple[str, ...]):
    """Split the raw data into (models, spots, roles, offsets array), checking every formation."""
    models, spots, roles, offsets = {}, {}, [], np.zeros((len(names), len(tags), 2), dtype=np.int8)
    for f, name in enumerate(names):
        model, entries = data[name]
        if kind == OFFENCE:
            entries = {**_LINE_WITH_ROLES, **entries}
        _check_formation(kind, name, {tag: (d, l) for tag, (d, l, _) in entries.items()})
        models[name] = model
        spots[name] = MappingProxyType({tag: entries[tag][:2] for tag in tags})
        roles.append(tuple(entries[tag][2] for tag in tags))
        offsets[f] = [entries[tag][:2] for tag in tags]
    offsets.flags.writeable = False
    return MappingProxyType(models), MappingProxyType(spots), tuple(roles), offsets


def _check_formation(kind: str, name: str, spots: Mapping[str, tuple[int, int]]) -> None:
    """Raise ValueError unless a formation obeys rulings 5 and 7 and the depth/width limits."""
    tags = OFFENCE_TAGS if kind == OFFENCE else DEFENCE_TAGS
    problems = []
    if sorted(spots) != sorted(tags):
        problems.append(f"tags {sorted(spots)} are not {sorted(tags)}")
    if len(set(spots.values())) != len(spots):
        problems.append("two players share a square")
    for tag, (depth, lane) in spots.items():
        lo, hi = (0, MAX_OFFENCE_DEPTH) if kind == OFFENCE else (MIN_DEFENCE_DEPTH, MAX_DEFENCE_DEPTH)
        if not lo <= depth <= hi or abs(lane) > MAX_FORMATION_HALF_WIDTH:
            problems.append(f"{tag} at {(depth, lane)} is outside depth {lo}-{hi} / width")
    if kind == OFFENCE:
        for tag, spot in INTERIOR_LINE.items():
            if spots.get(tag) != spot:
                problems.append(f"{tag} must stand at {spot}")
        if sum(depth == 0 for depth, _ in spots.values()) < 7:
            problems.append("fewer than 7 players on the LOS row")
        if spots.get("QB", (0, 0))[0] not in (1, 2, 3) or spots.get("QB", (0, 0))[1] != 0:
            problems.append("the QB must be behind the centre (depth 1-3, lane 0)")
    if problems:
        raise ValueError(f"{kind} formation {name!r}: " + "; ".join(problems))


OFFENCE_MODELS, OFFENCE_SPOTS, OFFENCE_ROLES, OFFENCE_OFFSETS = _freeze(
    OFFENCE, OFFENCE_FORMATIONS, _OFFENCE_DATA, OFFENCE_TAGS
)
DEFENCE_MODELS, DEFENCE_SPOTS, DEFENCE_ROLES, DEFENCE_OFFSETS = _freeze(
    DEFENCE, DEFENCE_FORMATIONS, _DEFENCE_DATA, DEFENCE_TAGS
)
# OFFENCE_SPOTS[name][tag] -> (depth, lane_offset); OFFENCE_OFFSETS[formation, player] -> same, int8,
# player in OFFENCE_TAGS order (likewise DEFENCE_*). OFFENCE_ROLES[formation][player] -> role label.


# --------------------------------------------------------------------------------------------------
# Placement
# --------------------------------------------------------------------------------------------------


def _lane_search_order(lane: int):
    """The player's own lane, then +1, -1, +2, -2, ... (offence-frame lanes), skipping lanes off the grid."""
    yield lane
    for step in range(1, N_LANES):
        for candidate in (lane + step, lane - step):
            if 0 <= candidate < N_LANES:
                yield candidate


def place_team(kind: str, offsets: np.ndarray, los_row: int, ball_lane: int) -> np.ndarray:
    """Squares (offence frame, ``row * 18 + lane``) of one team's eleven players at the snap.

    ``offsets`` is ``[11, 2]`` (depth in rows, lane offset in lanes) in tag order; ``los_row`` is the
    LOS row and ``ball_lane`` the ball's lane, both in the offence's frame (row 0 is the end the offence
    attacks). Offence players stand at row ``los_row + depth``, defenders at ``los_row - depth``.

    Near the goal lines (ruling 5), a player whose row would be past an end line (row < 0 or > 29) is
    moved toward the LOS to the nearest free square:

    1. Players whose square is on the grid keep it (a formation never puts two players on one square).
    2. Then, in tag order, each player past an end line: clip his row to the grid (row 0 or 29) in his
       own lane; while that square is taken (by a player from step 1 or one placed earlier in this step),
       step one row toward the LOS. The offence never goes in front of the LOS row (rows >= los_row);
       the defence never onto or behind it (rows <= los_row - 1).
    3. If that whole lane segment is full, try the lanes at offset +1, -1, +2, -2, ... from his own lane
       (offence-frame lanes, skipping lanes off the grid), each from the clipped row with the same rule.

    Offence and defence are placed independently; they cannot overlap since offence rows are >= the LOS
    row and defence rows < it.
    """
    sign = 1 if kind == OFFENCE else -1  # +1: offence depth runs away from the goal it attacks
    lo_row, hi_row = (los_row, N_ROWS - 1) if kind == OFFENCE else (0, los_row - 1)
    rows = los_row + sign * offsets[:, 0].astype(np.int64)
    lanes = ball_lane + offsets[:, 1].astype(np.int64)
    squares = np.full(len(offsets), -1, dtype=np.int64)

    on_grid = (rows >= 0) & (rows < N_ROWS)
    squares[on_grid] = rows[on_grid] * N_LANES + lanes[on_grid]
    taken = set(squares[on_grid].tolist())

    toward_los = -sign  # offence rows shrink toward the LOS, defence rows grow toward it
    for player in np.flatnonzero(~on_grid):
        edge_row = int(np.clip(rows[player], 0, N_ROWS - 1))
        for lane in _lane_search_order(int(lanes[player])):
            row = edge_row
            while lo_row <= row <= hi_row and row * N_LANES + lane in taken:
                row += toward_los
            if lo_row <= row <= hi_row:
                squares[player] = row * N_LANES + lane
                taken.add(row * N_LANES + lane)
                break
        else:  # cannot happen on a 30x18 grid with 11 players, but never place silently off the grid
            raise ValueError(f"no free square for {kind} player {player} at LOS row {los_row}")
    return squares


def _placement_table(kind: str, offsets: np.ndarray) -> np.ndarray:
    """[formation, los_row, band_index, player] -> square in the offence frame; -1 for invalid LOS rows."""
    table = np.full((len(offsets), N_ROWS, len(HASH_BAND), PLAYERS_PER_TEAM), -1, dtype=np.int16)
    for f in range(len(offsets)):
        for los_row in range(FIRST_FIELD_ROW, LAST_FIELD_ROW + 1):
            for band, ball_lane in enumerate(HASH_BAND):
                table[f, los_row, band] = place_team(kind, offsets[f], los_row, ball_lane)
    table.flags.writeable = False
    return table


OFFENCE_PLACEMENT = _placement_table(OFFENCE, OFFENCE_OFFSETS)  # int16 [8, 30, 4, 11]
DEFENCE_PLACEMENT = _placement_table(DEFENCE, DEFENCE_OFFSETS)  # int16 [9, 30, 4, 11]


def band_index(ball_lane_in_offence_frame: int) -> int:
    """Index into HASH_BAND of the ball's lane (offence frame) at the snap; ValueError outside the band."""
    return HASH_BAND.index(int(ball_lane_in_offence_frame))


# --------------------------------------------------------------------------------------------------
# Diagrams
# --------------------------------------------------------------------------------------------------

_CELL = 4  # characters per lane in a diagram
_EMPTY = "."
_BALL = "()"  # the ball on the LOS row of a defensive diagram (the centre stands on it otherwise)


def _formation(kind: str, name: str) -> tuple[Mapping[str, tuple[int, int]], tuple[str, ...]]:
    if kind == OFFENCE:
        return OFFENCE_SPOTS[name], OFFENCE_ROLES[OFFENCE_FORMATIONS.index(name)]
    if kind == DEFENCE:
        return DEFENCE_SPOTS[name], DEFENCE_ROLES[DEFENCE_FORMATIONS.index(name)]
    raise ValueError(f"kind must be {OFFENCE!r} or {DEFENCE!r}, not {kind!r}")


def formation_diagram(kind: str, name: str) -> str:
    """One formation drawn as text in the offence's frame, the offence attacking up the page.

    Columns are lane offsets -7..+7 from the ball; rows are marked ``fwd N`` (N rows forward of the LOS:
    defenders), ``LOS`` (the line of scrimmage row) and ``back N`` (N rows behind it: offence). Each cell
    shows the player tag standing there; a last line gives the display role of every tag that does not
    play its own position (e.g. ``X=WR``, ``WLB=NB``).
    """
    spots, roles = _formation(kind, name)
    tags = OFFENCE_TAGS if kind == OFFENCE else DEFENCE_TAGS
    half = MAX_FORMATION_HALF_WIDTH
    # Signed row offset from the LOS as drawn: forward (defence) positive, behind (offence) negative.
    at = {(depth if kind == DEFENCE else -depth, lane): tag for tag, (depth, lane) in spots.items()}
    if kind == DEFENCE:
        at[(0, 0)] = _BALL
        drawn_rows = range(max(d for d, _ in spots.values()), -1, -1)
    else:
        drawn_rows = range(0, -max(d for d, _ in spots.values()) - 1, -1)

    label_width = 7
    header = "".join((f"{lane:+d}" if lane else "0").center(_CELL) for lane in range(-half, half + 1))
    lines = [(" " * label_width + header).rstrip()]
    for row in drawn_rows:
        label = "LOS" if row == 0 else (f"fwd {row}" if row > 0 else f"back {-row}")
        cells = "".join(at.get((row, lane), _EMPTY).center(_CELL) for lane in range(-half, half + 1))
        line = f"{label:<{label_width}}{cells}"
        if row == 0:
            line += "  <-- line of scrimmage"
        lines.append(line.rstrip())
    # Interior linemen, QB and defenders playing their own position need no legend entry.
    lines.append("roles: " + ", ".join(f"{tag}={role}" for tag, role in zip(tags, roles) if role != tag))
    return "\n".join(lines)


def formations_markdown() -> str:
    """The Markdown section on formations (names, models, diagrams, goal-line rule) for RULES.md."""
    out = [
        "# Formations",
        "",
        "Ruling 7: the offence picks one of 8 formations, then the defence, seeing it, picks one of 9. "
        "Every formation is named after its real-football model. Diagrams are drawn in the offence's "
        "frame with the offence attacking **up** the page: defenders above the line of scrimmage (LOS), "
        "the offence on and below it. Columns are lanes counted from the ball (negative = the offence's "
        "left); rows are `fwd N` (N rows forward of the LOS, the defence's side), `LOS`, and `back N` "
        "(N rows behind the LOS). One row is about 4 yards. The centre `C` stands on the ball; in "
        "defensive diagrams the ball is drawn as `()`.",
        "",
        "Every offensive formation has 11 players: the interior line LT, LG, C, RG, RT on the LOS at lanes "
        "-2..+2, at least seven players on the LOS row, exactly one quarterback. The skill tags are X "
        "(split end), Y (tight end or slot), Z (flanker), H (halfback or slot) and F (fullback, second "
        "back or extra receiver); each formation puts them where its model does. Every defender lines up "
        "at least one row forward of the LOS. The eleven defensive tags (LDE, LDT, RDT, RDE, SLB, MLB, "
        "WLB, LCB, RCB, FS, SS; left/right in the offence's frame) are fixed slots: a formation may use a "
        "slot for another position. The `roles` line under each diagram gives the position each tag "
        "plays there, for every tag that does not simply play its own position (e.g. in the nickel, "
        "WLB=NB: the weak-side linebacker slot is the nickel back).",
        "",
        "Role labels: QB quarterback, C/LG/RG/LT/RT interior linemen, WR wide receiver, TE tight end, "
        "RB running back, FB fullback, HB halfback; DE defensive end, DT defensive tackle, NT nose "
        "tackle, NG nose guard, OLB/ILB/MLB/LB linebackers, CB cornerback, NB nickel back, DB dime back, "
        "FS free safety, SS strong safety, S safety.",
        "",
        "## Placement at the snap and near the goal lines",
        "",
        "At the snap the ball's lane is moved into the hash band (lanes 8-11 in the rulebook's numbers, "
        "counted in the offence's frame), so every formation, at most 7 lanes wide either side of the "
        "ball, fits the grid. Offensive players stand `depth` rows behind the LOS row, defenders `depth` "
        "rows forward of it, each at its lane offset from the ball.",
        "",
        "Ruling 5: a player who would stand past an end line is moved toward the LOS to the nearest free "
        "square. Every player whose square is on the grid keeps it. Then, in tag order, each player who "
        "would be off the grid is put on the last row of the grid in his own lane; if that square is "
        "taken he moves one row at a time toward the LOS until he finds a free square. An offensive "
        "player never ends up in front of the LOS row, a defender never on or behind it. If his whole "
        "lane is full between the end line and the LOS, the lanes one to the offence's right, one to its "
        "left, two to its right, two to its left, and so on are tried the same way. With the formations "
        "below this only ever moves defenders, and only when the LOS is on one of the three rows next to "
        "the end zone the offence attacks (rulebook rows 4-6 when team one has the ball, 25-27 when team "
        "two has it): there, a defender drawn deeper than the end line stands on the last row instead, "
        "or on the nearest free square toward the LOS. The "
        "offence always fits: its deepest back stands 3 rows behind the LOS, and the LOS is never nearer "
        "its own end line than the row next to its own end zone.",
        "",
        "## Offensive formations",
        "",
    ]
    for f, name in enumerate(OFFENCE_FORMATIONS):
        out += [f"### {f + 1}. `{name}`", "", OFFENCE_MODELS[name], "", "```text",
                formation_diagram(OFFENCE, name), "```", ""]
    out += ["## Defensive formations", ""]
    for f, name in enumerate(DEFENCE_FORMATIONS):
        out += [f"### {f + 1}. `{name}`", "", DEFENCE_MODELS[name], "", "```text",
                formation_diagram(DEFENCE, name), "```", ""]
    return "\n".join(out).rstrip() + "\n"
