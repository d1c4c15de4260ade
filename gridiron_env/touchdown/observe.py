"""The observation encoder: float32 [batch, OBS_SIZE], drawn from the viewing team's side.

Orientation and identity are separate. Every square is given in the viewer's frame: the board turned so
that the viewer attacks toward higher rows and "left" is its left (team two's view is team one's turned
half a circle, as the action directions are), so a position and the same position with the teams' names
swapped encode identically except for ``is_team_one``. Pieces are listed viewer's side first, each side in
its slot order 1-7 (the action names' "piece P"), so piece P of the viewer is always the same columns.

Nothing in Touchdown is hidden (RULINGS-touchdown.md hides no card, die or square): both teams see the
whole board, both formations once lined up, and the dice. Only the random streams are not shown.
``OBS_LAYOUT`` names every slice; RULES.md prints the table (``observation_markdown``).
"""

from __future__ import annotations

import numpy as np

from .config import TouchdownConfig
from .formations import DEFENCE, OFFENCE
from .state import EVENT_NAMES, N_PIECES, PHASE_NAMES, SLOT_TYPE, State

OBS_LOW, OBS_HIGH = -2.0, 2.0  # bounds of every value (scores past 2 * SCORE_SCALE are clipped)
SCORE_SCALE = 50.0
SLOT_FEATURES = ("on_board", "lane", "row", "marked", "holds_ball", "moved", "active", "single", "double",
                 "triple", "quarterback")
N_SLOT_FEATURES = len(SLOT_FEATURES)
_SLOT_CHOICES = N_PIECES + 1  # none, then the 14 slots viewer's side first

_PARTS = (  # (name, width, meaning)
    ("is_team_one", 1, "1 if the viewer is team one (identity; the board is always in the viewer's frame)"),
    ("to_decide", 1, "1 if the viewer decides now"),
    ("has_series", 1, "1 if the viewer's team has the series (is the offence; owns slots 0-6 of the state)"),
    ("has_ball", 1, "1 if the viewer's team has the ball in the play (holder's team, or the last holder's)"),
    ("own_score", 1, f"viewer's points / {SCORE_SCALE:g} (clipped to 2)"),
    ("other_score", 1, f"other team's points / {SCORE_SCALE:g} (clipped to 2)"),
    ("score_difference", 1, f"(own - other) / {SCORE_SCALE:g}, clipped to [-2, 2]"),
    ("phase", len(PHASE_NAMES), "one-hot phase (PHASE_NAMES order)"),
    ("quarter", 1, "quarter / (quarters + 1) (the overtime is quarters + 1)"),
    ("scrimmage", 1, "scrimmages played in the quarter / scrimmages_per_quarter"),
    ("scrimmages_left", 1, "scrimmages left in regulation / (quarters * scrimmages_per_quarter), at least 0"),
    ("opened_quarter", 1, "1 if the viewer kicked off to open the quarter"),
    ("down", 2, "one-hot down 1, 2 of the series"),
    ("los", 1, "LOS: the offence's row / field_rows"),
    ("los_viewer", 1, "LOS in the viewer's frame: its own row / field_rows"),
    ("to_gain", 1, "rows from the LOS to the line to gain / 10"),
    ("los_lane", 1, "snap lane in the viewer's frame / (lanes - 1)"),
    ("ball_lane", 1, "ball's lane in the viewer's frame / (lanes - 1)"),
    ("ball_row", 1, "ball's row in the viewer's frame / (rows - 1) (0 = the viewer's own end line)"),
    ("ball_loose", 1, "1 if the ball is loose in a play"),
    ("loose_lateral", 1, "1 if the loose ball comes from a missed lateral"),
    ("entered_by", 3, "one-hot team that put the ball in its end zone: none, viewer, other"),
    ("limits", 1, "1 while the scrimmage limits hold"),
    ("forward_thrown", 1, "1 once a forward pass was thrown in the play"),
    ("holder", _SLOT_CHOICES, "one-hot slot holding the ball: none, viewer's pieces 1-7, other's 1-7"),
    ("active", _SLOT_CHOICES, "one-hot slot moving now: none, viewer's 1-7, other's 1-7"),
    ("steps_left", 1, "squares left in the moving piece's move / 3"),
    ("parts", 1, "parts of the accomplished move done this turn / 2"),
    ("turns", 1, "turns of the play / (2 * max_rounds)"),
    ("idle", 1, "consecutive idle turns / 2 (clipped to 1)"),
    ("pass_from", _SLOT_CHOICES, "interception phase: one-hot passer (none, viewer's 1-7, other's 1-7)"),
    ("pass_to", _SLOT_CHOICES, "interception phase: one-hot intended receiver"),
    ("pass_forward", 1, "interception phase: 1 for a forward pass"),
    ("pass_close", 1, "interception phase: 1 if the receiver was close marked"),
    ("kick", 3, "one-hot kick awaiting the receiver's choice: none, kick-off, punt"),
    ("kick_row", 1, "kick choice: the ball's row in the receiver's frame / field_rows (clipped to 2)"),
    ("kick_lane", 1, "kick choice: the ball's lane in the viewer's frame / (lanes - 1)"),
    ("offence_formation", len(OFFENCE) + 1, "one-hot offensive formation of the play: none, then OFFENCE"),
    ("defence_formation", len(DEFENCE) + 1, "one-hot defensive formation of the play: none, then DEFENCE"),
    ("event", len(EVENT_NAMES), "one-hot last chance event (EVENT_NAMES order)"),
    ("dice", 3, "faces of the last roll's dice / 6 (0 unused)"),
    ("game_steps", 1, "actions taken in the game / max_actions"),
    ("pieces", N_PIECES * N_SLOT_FEATURES,
     "14 pieces (viewer's 1-7, then the other side's 1-7), each: " + ", ".join(SLOT_FEATURES) +
     " (lane / (lanes - 1) and row / (rows - 1) in the viewer's frame, 0 off the board; the last four one-hot "
     "piece type)"),
)


def _layout(parts):
    out, start = {}, 0
    for name, width, meaning in parts:
        out[name] = (slice(start, start + width), meaning)
        start += width
    return out, start


OBS_LAYOUT, OBS_SIZE = _layout(_PARTS)
_TYPE_ONE_HOT = np.eye(4, dtype=np.float32)[np.array(SLOT_TYPE)]  # [14, 4] by global slot


def viewer_slots(state: State, v: np.ndarray) -> np.ndarray:
    """int64 [B, 14]: the state's slot at each observation position (viewer's side first)."""
    off = (state.offence.astype(np.int64) == v)[:, None]
    base = np.arange(N_PIECES)
    return np.where(off, base, (base + 7) % N_PIECES)


def observe(state: State, team, config: TouchdownConfig | None = None) -> np.ndarray:
    """float32 [batch, OBS_SIZE]: each game seen by ``team`` (an int for all games, or one per game;
    pass ``state.to_act`` for the acting team: a finished game, -1, is seen by team one)."""
    config = config or TouchdownConfig()
    B = state.batch_size
    v = np.broadcast_to(np.asarray(team, dtype=np.int64), (B,)).copy()
    if ((v < -1) | (v > 1)).any():
        raise ValueError(f"team must be 0 or 1, got {team!r}")
    v[v < 0] = 0
    rows = np.arange(B)
    out = np.zeros((B, OBS_SIZE), dtype=np.float32)
    lanes, nrows, field = config.lanes, config.rows, float(config.field_rows)
    flip = v == 1

    def put(name, values):
        out[:, OBS_LAYOUT[name][0]] = np.asarray(values, dtype=np.float32).reshape(B, -1)

    def one_hot(name, index):
        width = OBS_LAYOUT[name][0].stop - OBS_LAYOUT[name][0].start
        hot = np.zeros((B, width), dtype=np.float32)
        hot[rows, np.clip(np.asarray(index, dtype=np.int64), 0, width - 1)] = 1
        put(name, hot)

    def lane_v(lane):  # absolute lane -> the viewer's, scaled
        lane = np.asarray(lane, dtype=np.float64)
        return np.where(flip.reshape((-1,) + (1,) * (lane.ndim - 1)), lanes - 1 - lane, lane) / (lanes - 1)

    def row_v(row):
        row = np.asarray(row, dtype=np.float64)
        return np.where(flip.reshape((-1,) + (1,) * (row.ndim - 1)), nrows - 1 - row, row) / (nrows - 1)

    slots = viewer_slots(state, v)  # observation position -> state slot
    position = np.argsort(slots, axis=1)  # state slot -> observation position

    def slot_choice(name, slot):
        slot = np.asarray(slot, dtype=np.int64)
        pos = position[rows, np.clip(slot, 0, N_PIECES - 1)] + 1
        one_hot(name, np.where(slot < 0, 0, pos))

    own = state.score[rows, v].astype(np.float64)
    other = state.score[rows, 1 - v].astype(np.float64)
    put("is_team_one", v == 0)
    put("to_decide", state.to_act == v)
    put("has_series", state.offence == v)
    put("has_ball", state.poss == v)
    put("own_score", np.minimum(own / SCORE_SCALE, 2))
    put("other_score", np.minimum(other / SCORE_SCALE, 2))
    put("score_difference", np.clip((own - other) / SCORE_SCALE, -2, 2))
    one_hot("phase", state.phase)
    put("quarter", state.quarter / (config.quarters + 1.0))
    put("scrimmage", np.minimum(state.scrimmage / float(config.scrimmages_per_quarter), 2))
    total = config.quarters * config.scrimmages_per_quarter
    put("scrimmages_left", np.maximum(total - state.scrimmages.astype(np.float64), 0) / total)
    put("opened_quarter", state.opening_kicker == v)
    one_hot("down", state.down.astype(np.int64) - 1)
    los = state.los.astype(np.float64)
    put("los", los / field)
    put("los_viewer", np.where(state.offence == v, los, field + 1 - los) / field)
    put("to_gain", np.clip((state.to_gain - los) / 10.0, -2, 2))
    put("los_lane", lane_v(state.los_lane))
    in_play = state.lane[:, 0] >= 0
    put("ball_lane", np.where(in_play, lane_v(state.ball_lane), 0))
    put("ball_row", np.where(in_play, row_v(state.ball_row), 0))
    put("ball_loose", in_play & (state.holder < 0) & (state.phase == 2))
    put("loose_lateral", state.loose_lateral)
    eb = state.entered_by.astype(np.int64)
    one_hot("entered_by", np.where(eb < 0, 0, np.where(eb == v, 1, 2)))
    put("limits", state.limits)
    put("forward_thrown", state.forward_thrown)
    slot_choice("holder", state.holder)
    slot_choice("active", state.active)
    put("steps_left", state.steps_left / 3.0)
    put("parts", state.parts / 2.0)
    put("turns", np.minimum(state.turns / (2.0 * config.max_rounds), 2))
    put("idle", np.minimum(state.idle / 2.0, 1))
    slot_choice("pass_from", state.pass_from)
    slot_choice("pass_to", state.pass_to)
    put("pass_forward", state.pass_forward)
    put("pass_close", state.pass_close)
    one_hot("kick", state.kick_kind.astype(np.int64) + 1)
    kicking = state.kick_kind >= 0
    put("kick_row", np.where(kicking, np.clip(state.kick_row / field, 0, 2), 0))
    put("kick_lane", np.where(kicking, lane_v(state.kick_lane), 0))
    one_hot("offence_formation", state.offence_formation.astype(np.int64) + 1)
    one_hot("defence_formation", state.defence_formation.astype(np.int64) + 1)
    one_hot("event", state.event)
    put("dice", state.dice / 6.0)
    put("game_steps", np.minimum(state.steps / float(config.max_actions), 1))
    # the pieces, viewer's side first
    lane = np.take_along_axis(state.lane, slots, axis=1).astype(np.int64)
    row = np.take_along_axis(state.row, slots, axis=1).astype(np.int64)
    on = lane >= 0
    feats = np.zeros((B, N_PIECES, N_SLOT_FEATURES), dtype=np.float32)
    feats[..., 0] = on
    feats[..., 1] = np.where(on, lane_v(lane), 0)
    feats[..., 2] = np.where(on, row_v(row), 0)
    feats[..., 3] = np.take_along_axis(state.marked, slots, axis=1)
    feats[..., 4] = slots == state.holder.astype(np.int64)[:, None]
    feats[..., 5] = (state.moved.astype(np.int64)[:, None] >> slots) & 1
    feats[..., 6] = slots == state.active.astype(np.int64)[:, None]
    feats[..., 7:] = _TYPE_ONE_HOT[slots]
    put("pieces", feats.reshape(B, -1))
    return out


def observation_markdown() -> str:
    """The layout table, as RULES.md prints it."""
    lines = ["| slice | name | size | meaning |", "|---|---|---|---|"]
    for name, width, meaning in _PARTS:
        sl = OBS_LAYOUT[name][0]
        lines.append(f"| {sl.start}-{sl.stop - 1} | `{name}` | {width} | {meaning} |")
    return "\n".join(lines)
