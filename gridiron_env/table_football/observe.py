"""The observation encoder: float32 [batch, OBS_SIZE], drawn from the viewing team's side.

Yard values are in the viewer's frame (0 = its own goal line, 100 = the other's), so a position and the
same position with the teams swapped encode identically. There is no hidden information in this game
(only the random streams, which no observation shows). ``OBS_LAYOUT`` names every slice; RULES.md prints
the table (``observation_markdown``).
"""

from __future__ import annotations

import numpy as np

from .config import TableFootballConfig
from .state import PHASE_NAMES, State

OBS_LOW, OBS_HIGH = -2.0, 2.0  # bounds of every value (scores past twice the target are clipped)
TO_GAIN_BINS = 8  # yards to gain 5..40 by 5 (a series can lose at most 10 a down: 4th and 40 at worst)
BALL_BINS = 21  # the ball on 0, 5, ..., 100
NEED_BINS = 14  # points still needed, up to two touchdowns with their extra points

_PARTS = (  # (name, width, meaning)
    ("own_score", 1, "viewer's score / target_score (clipped to 2)"),
    ("other_score", 1, "other team's score / target_score (clipped to 2)"),
    ("score_difference", 1, "(own - other) / target_score, clipped to [-2, 2]"),
    ("has_ball", 1, "1 if the viewer's team has the ball"),
    ("ball", 1, "ball: yards from the viewer's own goal line / 100"),
    ("line_to_gain", 1, "line to gain: yards from the viewer's own goal line / 100"),
    ("to_gain", 1, "yards from the ball to the line to gain / 100"),
    ("goal_to_go", 1, "1 if the line to gain is the goal line"),
    ("down", 4, "one-hot down 1-4 of the next snap"),
    ("last_down", 1, "1 if the next snap is the last down (a punt is allowed)"),
    ("field_goal_chance", 1, "chance a field goal from the ball is good: faces d with 10 d >= 100 - ball, / 6"),
    ("phase", len(PHASE_NAMES), "one-hot phase (PHASE_NAMES order)"),
    ("to_decide", 1, "1 if the viewer decides now"),
    ("snap_offence", 1, "1 if the viewer was on offence at the last snap"),
    ("opener", 1, "1 if the viewer's team opened the game on offence"),
    ("clock", 1, "1 in the clock version"),
    ("quarter", 5, "one-hot quarter 1-4 and overtime (all 0 in the basic game)"),
    ("boxes", 1, "boxes left in the quarter / quarter_boxes"),
    ("regulation_boxes", 1, "boxes left before the end of the 4th quarter / (4 quarter_boxes); 0 in overtime"),
    ("timeouts", 2, "own, other time-outs left / the most a team can hold (timeouts_per_half, overtime_timeouts)"),
    ("pending_cost", 1, "box cost of the result whose clock decisions are pending / 3"),
    ("last_play", 4, "one-hot last play: none, run, field goal, punt"),
    ("last_roll", 2, "dice of the last roll / 6 (a kick's single die first, then 0)"),
    ("plays", 1, "plays so far / max_plays"),
    # the same facts again on a scale a network reads at once (a value / 100 moves a first layer by little):
    ("to_gain_bins", TO_GAIN_BINS, "one-hot yards to gain in 5-yard steps: 5, 10, ..., 40 (and more)"),
    ("ball_bins", BALL_BINS, "one-hot ball in the viewer's frame in 5-yard steps: 0, 5, ..., 100"),
    ("own_needs", NEED_BINS, f"thermometer: 1 at k (k = 1..{NEED_BINS}) if the viewer needs at most k points to win"),
    ("other_needs", NEED_BINS, f"thermometer: 1 at k (k = 1..{NEED_BINS}) if the other team needs at most k points"),
)


def _layout(parts):
    out, start = {}, 0
    for name, width, meaning in parts:
        out[name] = (slice(start, start + width), meaning)
        start += width
    return out, start


OBS_LAYOUT, OBS_SIZE = _layout(_PARTS)


def observe(state: State, team, config: TableFootballConfig | None = None) -> np.ndarray:
    """float32 [batch, OBS_SIZE]: each game seen by ``team`` (an int for all games, or one per game;
    pass ``state.to_act`` for the acting team, a finished game then is seen by team one)."""
    config = config or TableFootballConfig()
    B = state.batch_size
    v = np.broadcast_to(np.asarray(team, dtype=np.int64), (B,))
    v = np.where(v < 0, 0, v)
    if ((v < 0) | (v > 1)).any():
        raise ValueError(f"team must be 0 or 1, got {team!r}")
    rows = np.arange(B)
    out = np.zeros((B, OBS_SIZE), dtype=np.float32)

    def put(name, values):
        out[:, OBS_LAYOUT[name][0]] = np.asarray(values, dtype=np.float32).reshape(B, -1)

    target = float(config.target_score)
    own = state.score[rows, v].astype(np.float64)
    other = state.score[rows, 1 - v].astype(np.float64)
    put("own_score", np.minimum(own / target, 2))
    put("other_score", np.minimum(other / target, 2))
    put("score_difference", np.clip((own - other) / target, -2, 2))
    mine = state.offence == v
    pos = state.position.astype(np.float64)
    ltg = state.line_to_gain.astype(np.float64)
    put("has_ball", mine)
    put("ball", np.where(mine, pos, 100 - pos) / 100)
    put("line_to_gain", np.where(mine, ltg, 100 - ltg) / 100)
    put("to_gain", (ltg - pos) / 100)
    put("goal_to_go", ltg >= 100)
    down = np.zeros((B, 4))
    down[rows, np.clip(state.down - 1, 0, 3)] = 1
    put("down", down)
    put("last_down", state.down >= config.downs)
    put("field_goal_chance", np.clip(6 - np.ceil((100 - pos) / 10) + 1, 0, 6) / 6)
    phase = np.zeros((B, len(PHASE_NAMES)))
    phase[rows, state.phase] = 1
    put("phase", phase)
    put("to_decide", state.to_act == v)
    put("snap_offence", state.snap_offence == v)
    put("opener", state.opener == v)
    put("clock", np.full(B, float(config.clock)))
    quarter = np.zeros((B, 5))
    q = state.quarter.astype(np.int64)
    quarter[rows[q > 0], q[q > 0] - 1] = 1
    put("quarter", quarter)
    qb = float(config.quarter_boxes)
    put("boxes", state.boxes / qb)
    regulation = np.where((q >= 1) & (q <= 4), (4 - q) * qb + state.boxes, 0)
    put("regulation_boxes", regulation / (4 * qb))
    most = max(config.timeouts_per_half, config.overtime_timeouts, 1)
    put("timeouts", np.stack([state.timeouts[rows, v], state.timeouts[rows, 1 - v]], axis=1) / most)
    put("pending_cost", state.pending_cost / 3)
    last = np.zeros((B, 4))
    last[rows, state.last_play + 1] = 1
    put("last_play", last)
    put("last_roll", state.last_roll / 6)
    put("plays", state.plays / float(config.max_plays))
    gain = np.zeros((B, TO_GAIN_BINS))
    gain[rows, np.clip(state.line_to_gain.astype(np.int64) - state.position.astype(np.int64), 5, 5 * TO_GAIN_BINS)
             // 5 - 1] = 1
    put("to_gain_bins", gain)
    ball = np.zeros((B, BALL_BINS))
    ball[rows, np.clip(np.where(mine, pos, 100 - pos) // 5, 0, BALL_BINS - 1).astype(np.int64)] = 1
    put("ball_bins", ball)
    k = np.arange(1, NEED_BINS + 1)
    put("own_needs", (target - own)[:, None] <= k)
    put("other_needs", (target - other)[:, None] <= k)
    return out


def observation_markdown() -> str:
    """The layout table, as RULES.md prints it."""
    lines = ["| slice | name | size | meaning |", "|---|---|---|---|"]
    for name, width, meaning in _PARTS:
        sl = OBS_LAYOUT[name][0]
        lines.append(f"| {sl.start}-{sl.stop - 1} | `{name}` | {width} | {meaning} |")
    return "\n".join(lines)
