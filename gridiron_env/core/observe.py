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
from .rules import field_goal_distance_for_row
from .formations import DEFENCE_FORMATIONS, OFFENCE_FORMATIONS
from .geometry import FRAME_ROW, N_LANES, N_ROWS, N_SQUARES, SQUARE_LANE, SQUARE_ROW
from .odds import field_goal_chance, paper_field_goal_chance
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
    # Added in layout 2 (after every layout-1 feature, so layout 1 is a prefix of layout 2).
    ("rules", 5, "the rules in force: specials on, paper kicking, paper answer chance, longest punt / 20, "
                 "roll cap per down / 100"),
    ("kick_chance", 1, "chance a field goal from the LOS is good under the kick mode in force"),
)


def _layout(parts):
    out, start = {}, 0
    for name, width, meaning in parts:
        out[name] = (slice(start, start + width), meaning)
        start += width
    return out, start


SCALAR_LAYOUT, SCALARS_SIZE = _layout(_SCALARS)
# Layout 1 (the observation before "rules" and "kick_chance") is a prefix of the current one: a policy
# trained on it reads the first LAYOUT_1_SCALARS scalars (LAYOUT_1_FEATURES features) and ignores the rest.
LAYOUT_1_SCALARS = SCALAR_LAYOUT["rules"][0].start
N_PLAYER_SLOTS = 22
PLAYERS_SIZE = N_PLAYER_SLOTS * len(PLAYER_FEATURES)
FEATURE_LAYOUT, FEATURES_SIZE = _layout(
    [("players", PLAYERS_SIZE, "22 slots (own 11 then other 11, tag order) x " + ", ".join(PLAYER_FEATURES))]
    + list(_SCALARS))
LAYOUT_1_FEATURES = FEATURE_LAYOUT["rules"][0].start
# Feature lengths of every layout a bot may have been trained on (oldest first; the last is the current).
FEATURE_LAYOUT_SIZES = (LAYOUT_1_FEATURES, FEATURES_SIZE)

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

_PAPER_CHANCE_BY_FRAME_ROW: dict[float, np.ndarray] = {}


def kick_chance_by_frame_row(config: GameConfig) -> np.ndarray:
    """float32 [30]: the chance a field goal from each LOS row (offence's frame) is good, under the kick
    mode of ``config`` (the dice formula, or paper football's reach times the answer chance)."""
    if config.kick_mode == "dice":
        return _FG_CHANCE_BY_FRAME_ROW
    answer = config.paper_answer_chance
    table = _PAPER_CHANCE_BY_FRAME_ROW.get(answer)
    if table is None:
        table = np.array([paper_field_goal_chance(int(d), answer) if d > 0 else 0.0
                          for d in field_goal_distance_for_row(np.arange(N_ROWS))], dtype=np.float32)
        _PAPER_CHANCE_BY_FRAME_ROW[answer] = table
    return table


def rules_features(config: GameConfig) -> list:
    """The ``rules`` scalars of ``config`` (see the layout), as floats."""
    return [float(config.specials), float(config.kick_mode == "paper"), float(config.paper_answer_chance),
            config.longest_punt / 20, config.max_rolls_per_down / 100]


# --- precomputed tables -------------------------------------------------------------------------------
# The encoder runs once per env step, so its cost is mostly numpy call overhead (batch 1) or full-batch
# temporaries (large batches). Tables indexed by k = viewer * (N_SQUARES + 1) + square + 1 hold every
# per-square value already in the viewer's frame, already divided and rounded to float32 exactly as the
# plain formulas (float64 arithmetic, then float32) would give them; k of square -1 (off the field, or a
# hidden ball) holds 0, as the formulas' "where on / seen" did.
_K_STRIDE = N_SQUARES + 1


def _k_tables():
    frame = np.full((2, _K_STRIDE), -1, dtype=np.int64)
    frame[0, 1:] = np.arange(N_SQUARES)
    frame[1, 1:] = N_SQUARES - 1 - np.arange(N_SQUARES)
    frame = frame.reshape(-1)
    on = frame >= 0
    row, lane = SQUARE_ROW[frame], SQUARE_LANE[frame]  # square -1 reads row 29, lane 17 (numpy wraps)
    basic = np.stack([on, np.where(on, row / 29, 0), np.where(on, lane / 17, 0)], axis=1).astype(np.float32)
    rel_row = np.where(on[:, None], (row[:, None] - np.arange(N_ROWS)) / 29, 0).astype(np.float32)
    rel_lane = np.where(on[:, None], (lane[:, None] - np.arange(N_LANES)) / 17, 0).astype(np.float32)
    return row, lane, basic, rel_row, rel_lane


# _K_ROW / _K_LANE: frame row and lane (int); _K_BASIC: (on, row / 29, lane / 17); _K_REL_ROW[k, ref_row],
# _K_REL_LANE[k, ref_lane]: (row - ref_row) / 29 and (lane - ref_lane) / 17.
_K_ROW, _K_LANE, _K_BASIC, _K_REL_ROW, _K_REL_LANE = _k_tables()
# A player's six values start as _K_PLAYER[k] (on, row, lane; the rest filled per game); the relative
# tables are read flat, at k * N_ROWS + ref_row and k * N_LANES + ref_lane (one 1-d take each).
_K_PLAYER = np.concatenate([_K_BASIC, np.zeros((_K_BASIC.shape[0], 3), np.float32)], axis=1)
_K_REL_ROW, _K_REL_LANE = _K_REL_ROW.ravel(), _K_REL_LANE.ravel()
_K_SPOT = np.ascontiguousarray(_K_BASIC[:, 1:])  # (row / 29, lane / 17) of a spot: ball, LOS
# Slot order seen by a viewer: own 11 then the other 11; row 1 when the viewer is not the offence.
_SLOT_ORDER = np.array([np.arange(22), np.r_[11:22, 0:11]])
_PAIR = np.array([[0, 1], [1, 0]])  # [viewer, other team] by viewer
# (distance / 80, dice-formula chance) of a field goal by LOS frame row (offence's frame).
_FG_BY_FRAME_ROW = np.stack([field_goal_distance_for_row(np.arange(N_ROWS)) / 80,
                             _FG_CHANCE_BY_FRAME_ROW], axis=1).astype(np.float32)


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
    return _SLOT_ORDER[(state.offence != viewer).astype(np.intp)]


def _visible_ball(state):
    """Ball square as the viewer may see it: -1 while hidden."""
    return np.where(state.ball_hidden, -1, state.ball_square.astype(np.int64))


_AT = {name: sl.start for name, (sl, _) in SCALAR_LAYOUT.items()}


def _fill_scalars(array, first: int, s: State, v, config: GameConfig) -> None:
    """Write the scalars of every game into columns ``first`` on of ``array`` (contiguous float32 [batch,
    first + SCALARS_SIZE], zeros there). Not clipped: the caller clips the whole array at once."""
    B = s.batch_size
    rr = np.arange(B)[:, None]
    at = _AT
    target = float(config.target_score)
    base = v * _K_STRIDE + 1  # k of square 0 for each game's viewer
    out = array[:, first:]

    out[:, at["strong_linemen"]:at["strong_linemen"] + 5] = s.strong
    out[:, at["ball_row"]:at["ball_lane"] + 1] = _K_SPOT.take(base + _visible_ball(s), axis=0)  # 0: hidden/absent
    seen = s.ball_square >= 0
    seen &= ~s.ball_hidden
    holder = s.ball_holder
    phase = s.phase
    offence_is_own = s.offence == v
    out[:, at["ball_loose"]] = (holder < 0) & seen & (phase >= 4) & (phase <= 5)
    out[:, at["ball_hidden"]] = s.ball_hidden
    # the carrier's team is the offence for slots 0-10: own when that matches the viewer's side
    carried = holder >= 0
    own_slot = (holder < 11) == offence_is_own
    out[:, at["own_ball"]] = carried & own_slot
    out[:, at["other_ball"]] = carried & ~own_slot
    # own/other pairs of per-team fields, in one flat gather each ([game * 2 + team] entries)
    pair = rr * 2 + _PAIR[v]
    out[:, at["score"]:at["score"] + 2] = s.score.reshape(-1).take(pair) / target
    out[:, at["target"]] = target / 99
    out[:, at["overtime"]] = s.overtime
    out[:, at["overtime_points"]:at["overtime_points"] + 2] = s.overtime_points.reshape(-1).take(pair) / 4
    out[:, at["opener"]] = s.opener == v
    out[:, at["drives"]:at["drives"] + 2] = s.drives.reshape(-1).take(pair) / 20
    out[:, at["on_offence"]] = offence_is_own
    out[:, at["to_act"]] = s.to_act == v
    los_row = s.los_row.astype(np.int64)
    los = at["line_of_scrimmage"]
    out[:, los:los + 2] = _K_SPOT.take(base + los_row * N_LANES + s.los_lane, axis=0)
    gain = s.line_to_gain.astype(np.int64) * N_LANES
    out[:, at["line_to_gain"]] = _K_SPOT[base + gain, 0]
    off = s.offence.astype(np.int64)
    los_off = FRAME_ROW[off, los_row * N_LANES].astype(np.int64)
    gain_off = FRAME_ROW[off, gain].astype(np.int64)
    out[:, at["rows_to_gain"]] = (los_off - gain_off) / 29
    out[:, at["goal_to_go"]] = gain_off < 3
    out[:, at["points"]:at["points"] + 2] = s.points.reshape(-1).take(pair) / 8
    out[:, at["dice"]:at["dice"] + 4] = s.dice.reshape(-1, 2).take(pair, axis=0).reshape(B, 4) / 6  # [own, other]
    out[:, at["rolls"]] = s.rolls / 20
    out[:, at["forward_pass_used"]] = s.forward_pass_used
    out[:, at["lead_blocker_used"]:at["lead_blocker_used"] + 2] = s.lead_blocker_used.reshape(-1).take(pair)
    out[:, at["follow_open"]] = s.follow_square >= 0
    out[:, at["scramble_step"]] = s.scramble_step
    out[:, at["field_goal"]:at["field_goal"] + 2] = _FG_BY_FRAME_ROW.take(los_off, axis=0)
    out[:, at["steps"]] = s.steps / 10_000
    out[:, at["rules"]:at["rules"] + 5] = rules_features(config)
    out[:, at["kick_chance"]] = kick_chance_by_frame_row(config).take(los_off)

    # One-hots, all set in one scatter; -1 (unset) entries are dropped.
    specials = s.special.reshape(-1).take(pair).astype(np.int64)
    secret = phase == SPECIALS_PICK  # rule 24: picks are made without seeing the other's
    formation = s.formation.astype(np.int64)
    columns = np.stack([
        at["down"] + s.down.astype(np.int64) - 1,
        at["phase"] + phase.astype(np.int64),
        at["own_special"] + specials[:, 0] + 1,
        np.where(secret, at["other_special"], at["other_special"] + specials[:, 1] + 1),
        np.where(formation[:, 0] >= 0, at["offence_formation"] + formation[:, 0], -1),
        np.where(formation[:, 1] >= 0, at["defence_formation"] + formation[:, 1], -1),
    ], axis=1)
    valid = columns >= 0
    flat = columns + (rr * array.shape[1] + first)  # flat indices: one 1-d scatter
    array.reshape(-1)[flat[valid]] = 1.0


# --- one game: plain Python on scalars ------------------------------------------------------------------
# An env stepping one game (PettingZoo, a lone Gymnasium env) calls the encoder on a batch of one, where
# the ~60 numpy calls of the batched path cost far more than the arithmetic; a small batch is encoded
# game by game the same way (SMALL_BATCH_OBSERVE). The same formulas on Python ints and floats (IEEE
# doubles, as numpy's float64) give the same values bit for bit; the lists are turned into float32 once. Any change to a formula must be made in both paths (and their outputs compared).
_ROW_L, _LANE_L = SQUARE_ROW.tolist(), SQUARE_LANE.tolist()
_FG_L = _FG_BY_FRAME_ROW.tolist()
_SLOT_ORDER_L = _SLOT_ORDER.tolist()
_SCALAR_AT_L = [_AT[name] for name in ("down", "phase", "own_special", "other_special", "offence_formation",
                                       "defence_formation")]
_LAST_SQUARE = N_SQUARES - 1


def _small_viewers(s: State, team) -> list | None:
    """The viewer of each game as a list of ints (``_viewer``'s values: a finished game's -1 reads as team
    one), or None when ``team`` is not one team or one per game (the batched path answers it)."""
    B = s.batch_size
    if team is None:
        return [0 if t < 0 else t for t in s.to_act.tolist()]
    if isinstance(team, (int, np.integer)) and not isinstance(team, bool):
        teams = [int(team)] * B
    else:
        arr = np.asarray(team)
        if arr.dtype.kind not in "iu" or arr.ndim > 1 or arr.size != (1 if arr.ndim == 0 else B):
            return None
        teams = arr.reshape(-1).tolist() * (B if arr.ndim == 0 else 1)
    teams = [0 if t < 0 else t for t in teams]
    return teams if all(t == 0 or t == 1 for t in teams) else None


def _frame_one(square: int, v: int) -> int:
    return -1 if square < 0 else (square if v == 0 else _LAST_SQUARE - square)


class _Columns:
    """The fields the one-game formulas read, each as a Python list over the games (one ``tolist`` a field
    for the whole small batch, so a batch of 2-8 pays these reads once, not once a game), and the config's
    own values."""

    __slots__ = ("phase", "offence", "hidden", "ball", "holder", "score", "ot_points", "drives", "points",
                 "dice", "lead", "los_row", "los_lane", "ltg", "strong", "overtime", "opener", "to_act",
                 "rolls", "forward_pass_used", "follow_square", "scramble_step", "steps", "special",
                 "formation", "down", "squares", "target", "rules", "kick")

    def __init__(self, s: State, config: GameConfig, players: bool):
        self.phase, self.offence, self.hidden = s.phase.tolist(), s.offence.tolist(), s.ball_hidden.tolist()
        self.ball, self.holder, self.los_row = s.ball_square.tolist(), s.ball_holder.tolist(), s.los_row.tolist()
        self.los_lane = s.los_lane.tolist()
        self.squares = s.player_square.tolist() if players else None
        self.score, self.ot_points, self.drives = s.score.tolist(), s.overtime_points.tolist(), s.drives.tolist()
        self.points, self.dice, self.lead = s.points.tolist(), s.dice.tolist(), s.lead_blocker_used.tolist()
        self.ltg, self.strong, self.overtime = s.line_to_gain.tolist(), s.strong.tolist(), s.overtime.tolist()
        self.opener, self.to_act, self.rolls = s.opener.tolist(), s.to_act.tolist(), s.rolls.tolist()
        self.forward_pass_used, self.follow_square = s.forward_pass_used.tolist(), s.follow_square.tolist()
        self.scramble_step, self.steps, self.special = s.scramble_step.tolist(), s.steps.tolist(), s.special.tolist()
        self.formation, self.down = s.formation.tolist(), s.down.tolist()
        self.target = float(config.target_score)
        self.rules = rules_features(config)
        self.kick = [float(x) for x in kick_chance_by_frame_row(config).tolist()]


def _scalars_one(c: _Columns, g: int, v: int) -> list:
    """The scalars of game ``g`` as a list of floats (the formulas of :func:`_fill_scalars`)."""
    w = 1 - v
    target = c.target
    phase, offence = c.phase[g], c.offence[g]
    hidden = c.hidden[g]
    ball = _frame_one(-1 if hidden else c.ball[g], v)
    seen = ball >= 0
    holder = c.holder[g]
    holder_team = -1 if holder < 0 else (offence if holder < 11 else 1 - offence)
    score, ot_points, drives = c.score[g], c.ot_points[g], c.drives[g]
    points, dice, lead = c.points[g], c.dice[g], c.lead[g]
    los_row, ltg = c.los_row[g], c.ltg[g]
    los = _frame_one(los_row * N_LANES + c.los_lane[g], v)
    los_off = los_row if offence == 0 else N_ROWS - 1 - los_row
    gain_off = ltg if offence == 0 else N_ROWS - 1 - ltg
    out = [float(x) for x in c.strong[g]]
    out += [
        _ROW_L[ball] / 29 if seen else 0.0, _LANE_L[ball] / 17 if seen else 0.0,
        float(holder < 0 and seen and 4 <= phase <= 5), float(hidden),
        float(holder_team == v), float(holder_team == w),
        score[v] / target, score[w] / target, target / 99, float(c.overtime[g]),
        ot_points[v] / 4, ot_points[w] / 4, float(c.opener[g] == v), drives[v] / 20, drives[w] / 20,
        float(offence == v), float(c.to_act[g] == v),
        0.0, 0.0, 0.0, 0.0,  # down (one-hot below)
        _ROW_L[los] / 29, _LANE_L[los] / 17, _ROW_L[_frame_one(ltg * N_LANES, v)] / 29,
        (los_off - gain_off) / 29, float(gain_off < 3),
        points[v] / 8, points[w] / 8, dice[v][0] / 6, dice[v][1] / 6, dice[w][0] / 6, dice[w][1] / 6,
        c.rolls[g] / 20,
    ]
    out += [0.0] * (len(PHASE_NAMES) + 2 * (len(SPECIALS) + 1))  # phase, own and other special (one-hots)
    out += [float(c.forward_pass_used[g]), float(lead[v]), float(lead[w]),
            float(c.follow_square[g] >= 0), float(c.scramble_step[g])]
    out += [0.0] * (len(OFFENCE_FORMATIONS) + len(DEFENCE_FORMATIONS))  # formations (one-hots)
    out += _FG_L[los_off]
    out.append(c.steps[g] / 10_000)
    out += c.rules
    out.append(c.kick[los_off])
    special = c.special[g]
    formation = c.formation[g]
    down_at, phase_at, own_at, other_at, off_at, def_at = _SCALAR_AT_L
    for column in (down_at + c.down[g] - 1, phase_at + phase, own_at + special[v] + 1,
                   other_at + (0 if phase == SPECIALS_PICK else special[w] + 1),
                   off_at + formation[0] if formation[0] >= 0 else -1,
                   def_at + formation[1] if formation[1] >= 0 else -1):
        if column >= 0:
            out[column] = 1.0
    return out


def _players_one(c: _Columns, g: int, v: int) -> list:
    """The 22 x 6 player values of game ``g`` as a flat list of floats (the formulas of :func:`observe`)."""
    squares = c.squares[g]
    holder = c.holder[g]
    ball = c.ball[g]
    if c.hidden[g] or ball < 0:
        ball = c.los_row[g] * N_LANES + c.los_lane[g]
    ref = _frame_one(ball, v)
    ref_row, ref_lane = _ROW_L[ref], _LANE_L[ref]
    out = []
    for p in _SLOT_ORDER_L[c.offence[g] != v]:
        sq = squares[p]
        if sq < 0:
            out += (0.0, 0.0, 0.0, 0.0, 0.0, float(p == holder))
        else:
            f = sq if v == 0 else _LAST_SQUARE - sq
            row, lane = _ROW_L[f], _LANE_L[f]
            out += (1.0, row / 29, lane / 17, (row - ref_row) / 29, (lane - ref_lane) / 17, float(p == holder))
    return out


_DEFAULT_CONFIG = GameConfig()
# observe encodes batches of up to this many games with the one-game formulas, game by game: below it the
# batched encoder's ~60 numpy calls cost more than the plain Python. Measured on the same random-play
# states both ways (CPU time, medians of 5): game by game 0.25x the batched encoder's time at 2 games,
# 0.5x at 4, 0.7-0.9x at 5-7, 1.1x at 8 and 2.3x at 16.
SMALL_BATCH_OBSERVE = 7


def _clip_scalars(out):
    """Clip the scalars of a ``features`` array in place (np.clip's bounds as two ufuncs on the view: the
    same values, without np.clip's wrapper cost; the players' values are in [-1, 1] already)."""
    scalars = out[:, PLAYERS_SIZE:]
    np.minimum(np.maximum(scalars, OBS_LOW, out=scalars), OBS_HIGH, out=scalars)
    return out


def observe_scalars(state: State, team=None, config: GameConfig | None = None) -> np.ndarray:
    """float32 [batch, SCALARS_SIZE]: the non-board part, from ``team``'s side (default: team to act)."""
    config = config or _DEFAULT_CONFIG
    if state.batch_size <= SMALL_BATCH_OBSERVE and (viewers := _small_viewers(state, team)) is not None:
        c = _Columns(state, config, False)
        out = np.array([_scalars_one(c, g, v) for g, v in enumerate(viewers)], dtype=np.float32)
        return np.clip(out, OBS_LOW, OBS_HIGH, out=out)
    out = np.zeros((state.batch_size, SCALARS_SIZE), dtype=np.float32)
    _fill_scalars(out, 0, state, _viewer(state, team), config)
    return np.clip(out, OBS_LOW, OBS_HIGH, out=out)


def observe(state: State, team=None, config: GameConfig | None = None) -> np.ndarray:
    """float32 [batch, FEATURES_SIZE]: the ``features`` form, from ``team``'s side (default: to act)."""
    s = state
    config = config or _DEFAULT_CONFIG
    B = s.batch_size
    if B <= SMALL_BATCH_OBSERVE and (viewers := _small_viewers(s, team)) is not None:
        # a small batch: the one-game formulas game by game (see SMALL_BATCH_OBSERVE)
        c = _Columns(s, config, True)
        return _clip_scalars(np.array([_players_one(c, g, v) + _scalars_one(c, g, v) for g, v in enumerate(viewers)],
                                      dtype=np.float32))
    v = _viewer(s, team)
    swap = s.offence != v  # the viewer is on defence: the other team's slots (0-10) come second
    squares = s.player_square
    squares = np.where(swap[:, None], squares[:, _SLOT_ORDER[1]], squares)  # viewer slot order
    base = v * _K_STRIDE + 1
    k = squares + base[:, None]
    out = np.empty((B, FEATURES_SIZE), dtype=np.float32)
    players = out[:, :PLAYERS_SIZE].reshape(B, N_PLAYER_SLOTS, len(PLAYER_FEATURES))  # a view into out
    players[...] = _K_PLAYER.take(k, axis=0)  # on, row, lane, then zeros (take: a faster gather than [k])
    # Relative to the ball where it can be seen, else to the LOS spot (a hidden ball must not leak).
    ref = base + np.where(s.ball_hidden | (s.ball_square < 0),
                          s.los_row.astype(np.int64) * N_LANES + s.los_lane, s.ball_square)
    players[:, :, 3] = _K_REL_ROW.take(k * N_ROWS + _K_ROW[ref][:, None])
    players[:, :, 4] = _K_REL_LANE.take(k * N_LANES + _K_LANE[ref][:, None])
    # the carrier: its slot's place in viewer order (slots shift by 11 when the viewer is on defence)
    holder = s.ball_holder.astype(np.int64)
    carried = np.flatnonzero(holder >= 0)
    place = np.where(swap[carried], (holder[carried] + 11) % N_PLAYER_SLOTS, holder[carried])
    players[carried, place, 5] = 1.0
    out[:, PLAYERS_SIZE:] = 0.0
    _fill_scalars(out, PLAYERS_SIZE, s, v, config)
    return np.clip(out, OBS_LOW, OBS_HIGH, out=out)  # the players' values are in [-1, 1]: clipped as is


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
