"""The observation encoder: float32 [batch, OBS_SIZE], drawn from the viewing team's side.

Yard values are in the viewer's frame (0 = its own goal line, 100 = the other's), so a position and the
same position with the teams' names swapped encode identically (``mirror_state``). Nothing in this game is
hidden (only the random streams, which no observation shows): both sides' dice are seen by both teams.
``OBS_LAYOUT`` names every slice; RULES.md prints the table (``observation_markdown``).
"""

from __future__ import annotations

import numpy as np

from .config import SportsDiceConfig
from .state import DICE, END_ZONE, PHASE_NAMES, State

OBS_LOW, OBS_HIGH = -2.0, 2.0  # bounds of every value (scores past twice the target are clipped)
BALL_BINS = 21  # the ball on 0, 5, ..., 100
TARGET_BINS = 20  # yards to the series target: 5, 10, ..., 100
NEED_BINS = 14  # points still needed, up to two touchdowns

_PARTS = (  # (name, width, meaning)
    ("own_score", 1, "viewer's score / target_score (clipped to 2)"),
    ("other_score", 1, "other team's score / target_score (clipped to 2)"),
    ("score_difference", 1, "(own - other) / target_score, clipped to [-2, 2]"),
    ("own_to_win", 1, "points the viewer still needs / target_score (0 once reached)"),
    ("other_to_win", 1, "points the other team still needs / target_score"),
    ("has_ball", 1, "1 if the viewer's team has the ball (rolls the offence dice)"),
    ("ball", 1, "ball: yards from the viewer's own goal line / 100"),
    ("ball_offence", 1, "ball: yards from the offence's own goal line / 100"),
    ("target_end_zone", 1, "1 if the series aims at the end zone, 0 if at the 50"),
    ("to_target", 1, "yards from the ball to the series target / 100"),
    ("down", 4, "one-hot down 1-4 of the next roll"),
    ("holds_chip", 1, "1 if the viewer holds the Power Chip"),
    ("phase", len(PHASE_NAMES), "one-hot phase (PHASE_NAMES order)"),
    ("to_decide", 1, "1 if the viewer decides now"),
    ("toss_winner", 1, "1 if the viewer won the coin toss"),
    ("opener", 1, "1 if the viewer started on offence (0 during the toss)"),
    ("last_roll", 4, "one-hot last roll: none, play, punt, field goal"),
    ("rolled_offence_dice", 1, "1 if the viewer rolled the offence dice in the last roll"),
    ("offence_dice", 4, "last roll: offence dice showing 10, 20, FG, TD / 6"),
    ("defence_dice", 4, "last roll: defence dice showing NG, SACK, TURNOVER, PICK SIX / 6"),
    ("counts", 2, "last roll: offence, defence count of the most common symbol / 6"),
    ("top", 8, "last roll: 1 for each symbol with its side's top count (offence 10 20 FG TD, defence NG SK TO P6)"),
    ("chip_call", 3, "one-hot chip call of the last roll: none, kept, used"),
    ("roll_winner", 3, "one-hot winning side of the last roll: none, offence dice, defence dice"),
    ("play", 9, "one-hot play of the last roll: none, then the 8 symbols"),
    ("rolls", 1, "rolls so far / max_rolls"),
    # the same facts again on a scale a network reads at once (a value / 100 moves a first layer by little):
    ("ball_bins", BALL_BINS, "one-hot ball in the viewer's frame in 5-yard steps: 0, 5, ..., 100"),
    ("to_target_bins", TARGET_BINS, "one-hot yards from the ball to the series target in 5-yard steps: 5, ..., 100"),
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
# the parts that describe the last roll alone (the rest describe the scores, the field, the chip and the
# decision): the exact evaluation assembles a decision's observation from its context's and its roll's
ROLL_PARTS = ("last_roll", "rolled_offence_dice", "offence_dice", "defence_dice", "counts", "top", "chip_call",
              "roll_winner", "play")
ROLL_COLUMNS = np.zeros(OBS_SIZE, dtype=bool)
for _name in ROLL_PARTS:
    ROLL_COLUMNS[OBS_LAYOUT[_name][0]] = True


def observe(state: State, team, config: SportsDiceConfig | None = None) -> np.ndarray:
    """float32 [batch, OBS_SIZE]: each game seen by ``team`` (an int for all games, or one per game;
    pass ``state.to_act`` for the acting team, a finished game then is seen by team one)."""
    config = config or SportsDiceConfig()
    B = state.batch_size
    v = np.broadcast_to(np.asarray(team, dtype=np.int64), (B,))
    v = np.where(v < 0, 0, v)
    if ((v < 0) | (v > 1)).any():
        raise ValueError(f"team must be 0 or 1, got {team!r}")
    rows = np.arange(B)
    out = np.zeros((B, OBS_SIZE), dtype=np.float32)

    def put(name, values):
        out[:, OBS_LAYOUT[name][0]] = np.asarray(values, dtype=np.float32).reshape(B, -1)

    def one_hot(name, index, width):
        hot = np.zeros((B, width))
        hot[rows, np.clip(index, 0, width - 1)] = 1
        put(name, hot)

    target = float(config.target_score)
    own = state.score[rows, v].astype(np.float64)
    other = state.score[rows, 1 - v].astype(np.float64)
    put("own_score", np.minimum(own / target, 2))
    put("other_score", np.minimum(other / target, 2))
    put("score_difference", np.clip((own - other) / target, -2, 2))
    put("own_to_win", np.maximum(target - own, 0) / target)
    put("other_to_win", np.maximum(target - other, 0) / target)
    mine = state.offence == v
    pos = state.position.astype(np.float64)
    put("has_ball", mine)
    put("ball", np.where(mine, pos, 100 - pos) / 100)
    put("ball_offence", pos / 100)
    put("target_end_zone", state.target == END_ZONE)
    put("to_target", (state.target - pos) / 100)
    one_hot("down", state.down.astype(np.int64) - 1, 4)
    put("holds_chip", state.chip == v)
    one_hot("phase", state.phase.astype(np.int64), len(PHASE_NAMES))
    put("to_decide", state.to_act == v)
    put("toss_winner", state.toss_winner == v)
    put("opener", state.opener == v)
    one_hot("last_roll", state.roll_kind.astype(np.int64) + 1, 4)
    put("rolled_offence_dice", state.roll_offence == v)
    d = state.dice.astype(np.int64)
    put("offence_dice", np.stack([(d[:, 0] == k).sum(axis=1) for k in range(4)], axis=1) / DICE)
    put("defence_dice", np.stack([(d[:, 1] == 4 + k).sum(axis=1) for k in range(4)], axis=1) / DICE)
    put("counts", state.counts / DICE)
    top = state.top.astype(np.int64)
    put("top", np.concatenate([(top[:, :1] >> np.arange(4)) & 1, (top[:, 1:] >> np.arange(4)) & 1], axis=1))
    one_hot("chip_call", state.chip_call.astype(np.int64) + 1, 3)
    one_hot("roll_winner", state.roll_winner.astype(np.int64) + 1, 3)
    one_hot("play", state.play.astype(np.int64) + 1, 9)
    put("rolls", state.rolls / float(config.max_rolls))
    one_hot("ball_bins", (np.where(mine, pos, 100 - pos) // 5).astype(np.int64), BALL_BINS)
    one_hot("to_target_bins", (state.target.astype(np.int64) - state.position.astype(np.int64)) // 5 - 1, TARGET_BINS)
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
