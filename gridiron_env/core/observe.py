"""The observation encoder: one for every env and for the exported bot (numpy only).

Everything is drawn from the viewing team's side: its frame (it attacks "up", toward row 0 of the
frame), its players first. A position and its half turn with the teams swapped encode identically, so
one policy serves both teams. No observation shows a hidden ball (blind fumble scramble), nor the other
team's special while the specials are being picked.

Two forms (``FEATURE_LAYOUT`` and ``PLANE_LAYOUT`` name every slice; RULES.md prints the table):

- ``features``: float32 [batch, FEATURES_SIZE]: 22 player slots (own 11 then the other team's 11, each
  in tag order) x 6 values, then the scalars.
- ``planes``: uint8 [batch, N_PLANES, 30, 18] board planes plus the float32 scalars [batch, SCALARS_SIZE].
"""

from __future__ import annotations

import numpy as np

from ..config import GameConfig
from .actions import SPECIALS
from .engine import field_goal_distance_for_row
from .formations import DEFENCE_FORMATIONS, OFFENCE_FORMATIONS
from .geometry import FRAME_ROW, N_LANES, N_ROWS, N_SQUARES, SQUARE_LANE, SQUARE_ROW
from .odds import field_goal_chance
from .state import PHASE_NAMES, SPECIALS_PICK, State

OBS_LOW, OBS_HIGH = -1.0, 2.0  # bounds of every feature value (scores past twice the target are clipped)
PLAYER_FEATURES = ("on_field", "row", "lane", "row_from_ball", "lane_from_ball", "carrier")

_SCALARS = (  # (name, width, meaning)
    ("strong_linemen", 5, "C, LG, RG, LT, RT of the offence: 1 if strong"),
    ("ball_row", 1, "ball row / 29 (viewer frame); 0 while hidden"),
    ("ball_lane", 1, "ball lane / 17 (viewer frame); 0 while hidden"),
    ("ball_loose", 1, "1 if the ball lies loose and visible"),
    ("ball_hidden", 1, "1 during the blind scramble"),
    ("own_ball", 1, "1 if the viewer's team carries the ball"),
    ("other_ball", 1, "1 if the other team carries the ball"),
    ("score", 2, "own, other score / target score"),
    ("target", 1, "target score / 99"),
    ("overtime", 1, "1 in overtime"),
    ("overtime_points", 2, "own, other overtime points / 4"),
    ("opener", 1, "1 if the viewer's team opened the game on offence"),
    ("drives", 2, "own, other drives / 20"),
    ("on_offence", 1, "1 if the viewer's team had the ball at the snap"),
    ("to_act", 1, "1 if the viewer's team is to act"),
    ("down", 4, "one-hot down 1-4"),
    ("line_of_scrimmage", 2, "LOS row / 29 and lane / 17 (viewer frame)"),
    ("line_to_gain", 1, "line-to-gain row / 29 (viewer frame)"),
    ("rows_to_gain", 1, "rows from the LOS to the line to gain / 29 (offence's view)"),
    ("goal_to_go", 1, "1 if the line to gain is in the end zone"),
    ("points", 2, "own, other die points / 8"),
    ("dice", 4, "own high, low, other high, low of the last roll / 6"),
    ("rolls", 1, "rolls in this down / 20"),
    ("phase", len(PHASE_NAMES), "one-hot phase"),
    ("own_special", len(SPECIALS) + 1, "one-hot: none, lead blocker, ball hawk, sure hands, speedy QB"),
    ("other_special", len(SPECIALS) + 1, "the same for the other team (none while picks are secret)"),
    ("forward_pass_used", 1, "1 once this play's forward pass is thrown"),
    ("lead_blocker_used", 2, "own, other Lead Blocker follow spent this play"),
    ("follow_open", 1, "1 if a Lead Blocker follow is open now"),
    ("scramble_step", 1, "blind steps taken in this scramble"),
    ("offence_formation", len(OFFENCE_FORMATIONS), "one-hot offence formation of this down"),
    ("defence_formation", len(DEFENCE_FORMATIONS), "one-hot defence formation of this down"),
    ("field_goal", 2, "distance / 80 yards and the dice-formula chance, from the LOS"),
    ("steps", 1, "agent steps taken in the game / 10,000"),
)


def _layout(parts):
    out, start = {}, 0
    for name, width, meaning in parts:
        out[name] = (slice(start, start + width), meaning)
        start += width
    return out, start


SCALAR_LAYOUT, SCALARS_SIZE = _layout(_SCALARS)
N_PLAYER_SLOTS = 22
PLAYERS_SIZE = N_PLAYER_SLOTS * len(PLAYER_FEATURES)
FEATURE_LAYOUT, FEATURES_SIZE = _layout(
    [("players", PLAYERS_SIZE, "22 slots (own 11 then other 11, tag order) x " + ", ".join(PLAYER_FEATURES))]
    + list(_SCALARS))

PLANES = (
    ("own_players", "the viewer's players"),
    ("other_players", "the other team's players"),
    ("quarterback", "the quarterback"),
    ("weak_linemen", "interior linemen who are not strong"),
    ("strong_linemen", "strong interior linemen"),
    ("carrier", "the ball carrier"),
    ("loose_ball", "a loose ball that is not hidden"),
    ("line_of_scrimmage", "the LOS row"),
    ("line_to_gain", "the line-to-gain row"),
    ("attacked_end_zone", "the end zone the viewer attacks"),
    ("defended_end_zone", "the end zone the viewer defends"),
    ("follow_square", "the square a Lead Blocker follow may fill"),
)
N_PLANES = len(PLANES)
PLANE_LAYOUT = {name: (i, meaning) for i, (name, meaning) in enumerate(PLANES)}

_FG_CHANCE_BY_FRAME_ROW = np.array(
    [field_goal_chance(int(d)) if d > 0 else 0.0 for d in field_goal_distance_for_row(np.arange(N_ROWS))],
    dtype=np.float32)


def _viewer(state: State, team):
    team = np.asarray(team if team is not None else state.to_act, dtype=np.int64)
    if team.ndim == 0:
        team = np.full(state.batch_size, team)
    return np.where(team < 0, 0, team)  # finished games: team one's view


def _to_frame(square, viewer):
    """Square in the viewer's frame (team two sees the half turn); -1 stays -1."""
    square = np.asarray(square, dtype=np.int64)
    return np.where(square < 0, -1, np.where(viewer == 0, square, N_SQUARES - 1 - square))


def _viewer_slots(state, viewer):
    """[batch, 22] slot ids in viewer order: own 11 then the other team's 11."""
    own_base = np.where(state.offence == viewer, 0, 11)
    k = np.arange(11)
    return np.concatenate([own_base[:, None] + k, (11 - own_base)[:, None] + k], axis=1)


def _visible_ball(state):
    """Ball square as the viewer may see it: -1 while hidden."""
    return np.where(state.ball_hidden, -1, state.ball_square.astype(np.int64))


_AT = {name: sl.start for name, (sl, _) in SCALAR_LAYOUT.items()}


def observe_scalars(state: State, team=None, config: GameConfig | None = None) -> np.ndarray:
    """float32 [batch, SCALARS_SIZE]: the non-board part, from ``team``'s side (default: team to act)."""
    s = state
    target = float((config or GameConfig()).target_score)
    v = _viewer(s, team)
    B = s.batch_size
    r = np.arange(B)
    own, other = v, 1 - v
    out = np.zeros((B, SCALARS_SIZE), dtype=np.float32)
    at = _AT

    out[:, at["strong_linemen"]:at["strong_linemen"] + 5] = s.strong
    ball = _to_frame(_visible_ball(s), v)
    seen = ball >= 0
    ball_sq = np.maximum(ball, 0)
    out[:, at["ball_row"]] = np.where(seen, SQUARE_ROW[ball_sq] / 29, 0)
    out[:, at["ball_lane"]] = np.where(seen, SQUARE_LANE[ball_sq] / 17, 0)
    holder = s.ball_holder.astype(np.int64)
    holder_team = np.where(holder < 0, -1, np.where(holder < 11, s.offence, 1 - s.offence))
    out[:, at["ball_loose"]] = (holder < 0) & seen & (s.phase >= 4) & (s.phase <= 5)
    out[:, at["ball_hidden"]] = s.ball_hidden
    out[:, at["own_ball"]] = holder_team == own
    out[:, at["other_ball"]] = holder_team == other
    # own/other pairs of per-team fields, in one gather each
    pair = np.stack([own, other], axis=1)
    rr = r[:, None]
    out[:, at["score"]:at["score"] + 2] = s.score[rr, pair] / target
    out[:, at["target"]] = target / 99
    out[:, at["overtime"]] = s.overtime
    out[:, at["overtime_points"]:at["overtime_points"] + 2] = s.overtime_points[rr, pair] / 4
    out[:, at["opener"]] = s.opener == own
    out[:, at["drives"]:at["drives"] + 2] = s.drives[rr, pair] / 20
    out[:, at["on_offence"]] = s.offence == own
    out[:, at["to_act"]] = s.to_act == own
    los = _to_frame(s.los_row.astype(np.int64) * N_LANES + s.los_lane, v)
    out[:, at["line_of_scrimmage"]] = SQUARE_ROW[los] / 29
    out[:, at["line_of_scrimmage"] + 1] = SQUARE_LANE[los] / 17
    out[:, at["line_to_gain"]] = SQUARE_ROW[_to_frame(s.line_to_gain.astype(np.int64) * N_LANES, v)] / 29
    off = s.offence.astype(np.int64)
    los_off = FRAME_ROW[off, s.los_row.astype(np.int64) * N_LANES].astype(np.int64)
    gain_off = FRAME_ROW[off, s.line_to_gain.astype(np.int64) * N_LANES].astype(np.int64)
    out[:, at["rows_to_gain"]] = (los_off - gain_off) / 29
    out[:, at["goal_to_go"]] = gain_off < 3
    out[:, at["points"]:at["points"] + 2] = s.points[rr, pair] / 8
    out[:, at["dice"]:at["dice"] + 4] = s.dice[rr, pair].reshape(B, 4) / 6
    out[:, at["rolls"]] = s.rolls / 20
    out[:, at["forward_pass_used"]] = s.forward_pass_used
    out[:, at["lead_blocker_used"]:at["lead_blocker_used"] + 2] = s.lead_blocker_used[rr, pair]
    out[:, at["follow_open"]] = s.follow_square >= 0
    out[:, at["scramble_step"]] = s.scramble_step
    out[:, at["field_goal"]] = field_goal_distance_for_row(los_off) / 80
    out[:, at["field_goal"] + 1] = _FG_CHANCE_BY_FRAME_ROW[los_off]
    out[:, at["steps"]] = s.steps / 10_000

    # One-hots, all set in one scatter; -1 (unset) entries are dropped.
    specials = s.special[rr, pair].astype(np.int64)
    secret = s.phase == SPECIALS_PICK  # rule 24: picks are made without seeing the other's
    other_special = np.where(secret, -1, specials[:, 1])
    columns = np.stack([
        at["down"] + s.down.astype(np.int64) - 1,
        at["phase"] + s.phase.astype(np.int64),
        at["own_special"] + specials[:, 0] + 1,
        at["other_special"] + other_special + 1,
        np.where(s.formation[:, 0] >= 0, at["offence_formation"] + s.formation[:, 0].astype(np.int64), -1),
        np.where(s.formation[:, 1] >= 0, at["defence_formation"] + s.formation[:, 1].astype(np.int64), -1),
    ], axis=1)
    valid = columns >= 0
    out[np.broadcast_to(rr, columns.shape)[valid], columns[valid]] = 1.0
    return np.clip(out, OBS_LOW, OBS_HIGH, out=out)


def observe(state: State, team=None, config: GameConfig | None = None) -> np.ndarray:
    """float32 [batch, FEATURES_SIZE]: the ``features`` form, from ``team``'s side (default: to act)."""
    s = state
    v = _viewer(s, team)
    B = s.batch_size
    r = np.arange(B)
    slots = _viewer_slots(s, v)
    squares = _to_frame(s.player_square[r[:, None], slots], v[:, None])
    on = squares >= 0
    sq = np.maximum(squares, 0)
    row, lane = SQUARE_ROW[sq], SQUARE_LANE[sq]
    # Relative to the ball where it can be seen, else to the LOS spot (a hidden ball must not leak).
    ref = _to_frame(np.where(s.ball_hidden | (s.ball_square < 0),
                             s.los_row.astype(np.int64) * N_LANES + s.los_lane,
                             s.ball_square.astype(np.int64)), v)
    ref_row, ref_lane = SQUARE_ROW[ref][:, None], SQUARE_LANE[ref][:, None]
    players = np.stack([
        on,
        np.where(on, row / 29, 0),
        np.where(on, lane / 17, 0),
        np.where(on, (row - ref_row) / 29, 0),
        np.where(on, (lane - ref_lane) / 17, 0),
        slots == s.ball_holder[:, None],
    ], axis=2).astype(np.float32).reshape(B, PLAYERS_SIZE)
    return np.concatenate([players, observe_scalars(s, v, config)], axis=1)  # every value in [-1, 2]


def observe_planes(state: State, team=None, config: GameConfig | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(uint8 [batch, N_PLANES, 30, 18], float32 [batch, SCALARS_SIZE]): the ``planes`` form."""
    s = state
    v = _viewer(s, team)
    B = s.batch_size
    r = np.arange(B)
    planes = np.zeros((B, N_PLANES, N_SQUARES), dtype=np.uint8)
    slots = _viewer_slots(s, v)
    squares = _to_frame(s.player_square[r[:, None], slots], v[:, None])
    on = squares >= 0

    def mark(plane, mask, sq):
        rows = np.broadcast_to(r[:, None], mask.shape)[mask]
        planes[rows, PLANE_LAYOUT[plane][0], sq[mask]] = 1

    mark("own_players", on[:, :11], squares[:, :11])
    mark("other_players", on[:, 11:], squares[:, 11:])
    mark("quarterback", on & (slots == 0), squares)
    lineman = (slots >= 1) & (slots <= 5)
    strong = np.take_along_axis(s.strong, np.clip(slots - 1, 0, 4), axis=1) & lineman
    mark("weak_linemen", on & lineman & ~strong, squares)
    mark("strong_linemen", on & strong, squares)
    mark("carrier", on & (slots == s.ball_holder[:, None]), squares)
    ball = _to_frame(_visible_ball(s), v)
    loose = (s.ball_holder < 0) & (ball >= 0) & (s.phase >= 4) & (s.phase <= 5)
    mark("loose_ball", loose[:, None], ball[:, None])
    los_row = SQUARE_ROW[_to_frame(s.los_row.astype(np.int64) * N_LANES, v)]
    gain_row = SQUARE_ROW[_to_frame(s.line_to_gain.astype(np.int64) * N_LANES, v)]
    board_rows = (np.arange(N_SQUARES) // N_LANES)[None, :]
    planes[:, PLANE_LAYOUT["line_of_scrimmage"][0]] = board_rows == los_row[:, None]
    planes[:, PLANE_LAYOUT["line_to_gain"][0]] = board_rows == gain_row[:, None]
    planes[:, PLANE_LAYOUT["attacked_end_zone"][0]] = board_rows < 3
    planes[:, PLANE_LAYOUT["defended_end_zone"][0]] = board_rows >= N_ROWS - 3
    follow = _to_frame(s.follow_square, v)
    mark("follow_square", (follow >= 0)[:, None], follow[:, None])
    return planes.reshape(B, N_PLANES, N_ROWS, N_LANES), observe_scalars(s, v, config)


def observation_markdown() -> str:
    """The tables of both observation forms (every slice), as printed in RULES.md."""
    lines = [
        f"`features`: float32 [{FEATURES_SIZE}], every value in [{OBS_LOW:g}, {OBS_HIGH:g}].",
        "",
        "| slice | name | meaning |",
        "|---|---|---|",
    ]
    for name, (sl, meaning) in FEATURE_LAYOUT.items():
        lines.append(f"| {sl.start}-{sl.stop - 1} | `{name}` | {meaning} |")
    lines += [
        "",
        f"`planes`: uint8 [{N_PLANES}, 30, 18] in the viewer's frame (row 0 = the end it attacks), plus "
        f"`scalars` float32 [{SCALARS_SIZE}] = `features` from index {PLAYERS_SIZE} on.",
        "",
        "| plane | name | 1 on |",
        "|---|---|---|",
    ]
    for name, (i, meaning) in PLANE_LAYOUT.items():
        lines.append(f"| {i} | `{name}` | {meaning} |")
    return "\n".join(lines) + "\n"
