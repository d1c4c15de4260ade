"""The Touchdown rules engine: pure numpy functions over a struct of arrays (numpy only).

``init`` deals a batch of new games (the coin toss and the opening kick-off are played at once), ``step``
applies one action per game. Dice are drawn inside ``step`` from each game's own counter-based stream
(``gridiron_env.core.chance``), or from an injected chance source (``ScriptedChance`` in tests: a die
face f is the outcome f - 1, a number-wheel number w the outcome w - 1). Rulings are numbered as in
RULINGS-touchdown.md; RULES.md states every decision the rulings leave open.

Branches are index subsets of the batch (``g``: int arrays of game indices); the legal mask of the
``play`` phase is computed for the whole subset at once over the 7 slots x 8 directions of the side to act.
"""

from __future__ import annotations

import numpy as np

from ..small_games.engine import (  # noqa: F401 (legal_action_mask: the cached mask, re-exported)
    IllegalActionError, StepContext, checked_actions, game_config, legal_action_mask, new_batch,
)
from . import actions as A
from .config import END_ZONE_ROWS, MAX_DISTANCE_OTHER, MAX_DISTANCE_QB, TouchdownConfig
from .formations import DEFENCE, OFFENCE
from .state import (
    ALLOWANCE, DEFENCE_CALL, DRAW, EV, GAME_OVER, INTERCEPTION, KICK_CHOICE, KICK_OFF, N_PIECES, OFFENCE_CALL,
    PLAY, PUNT, QB, SINGLE, SLOT_TYPE, STRENGTH, TRIPLE, State, board_of,
)

__all__ = ["IllegalActionError", "init", "step", "legal_action_mask", "recompute_legal", "TOUCHDOWN_POINTS",
           "FIELD_GOAL_POINTS", "SAFETY_POINTS", "CONVERSION_POINTS", "KICK_OFF_ROW", "SAFETY_KICK_ROW",
           "TOUCHBACK_ROW", "field_goal_distance", "completion_need"]

TOUCHDOWN_POINTS, FIELD_GOAL_POINTS, SAFETY_POINTS, CONVERSION_POINTS = 6, 3, 2, 1
KICK_OFF_ROW, SAFETY_KICK_ROW, TOUCHBACK_ROW = 11, 6, 6  # rulings 15, 17 (the kicker's / receiver's rows)
KICK_OFF_BASE, PUNT_BASE_ROWS = 14, 11  # kick-off 14 + 1d6 rows, punt 11 + the dice (rulings 17, 18)
GAIN_ROWS = 10  # rows to gain in two plays (ruling 13)
MAX_BEHIND = 5  # no offensive piece more than 5 rows behind the LOS (ruling 7)
PROTECTED_AHEAD = 2  # an eligible receiver this many rows in front of the LOS cannot be pushed (ruling 10)
BIG = 1000

# The 8 directions, wheel order (1 back-left ... 8 back), as (lane, row) steps in team one's frame (forward =
# +row, right = +lane); team two's are the negatives (it faces the other way).
DIRS = np.array([(-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1)], dtype=np.int16)
DL, DR = DIRS[:, 0], DIRS[:, 1]
DIAGONAL = np.array([True, False, True, False, True, False, True, False])
_DIR_OF = np.full(9, -1, dtype=np.int16)  # (dl + 1) * 3 + (dr + 1) -> wheel index 0-7 (team one's frame)
for _k, (_l, _r) in enumerate(DIRS):
    _DIR_OF[(_l + 1) * 3 + (_r + 1)] = _k
SLOT_TYPE_A = np.array(SLOT_TYPE, dtype=np.int16)
STRENGTH_A = np.array([STRENGTH[t] for t in SLOT_TYPE], dtype=np.int16)  # by global slot
LOCAL_STRENGTH = STRENGTH_A[:7]  # the same by local slot for both sides: S S S D D T T/Q
LOCAL_ALLOW = np.array([ALLOWANCE[t] for t in SLOT_TYPE[:7]], dtype=np.int8)
IS_TQ = np.array([t in (TRIPLE, QB) for t in SLOT_TYPE[:7]])  # by local slot (both sides)
IS_SINGLE = np.array([t == SINGLE for t in SLOT_TYPE[:7]])
ELIGIBLE = np.array([False] * 3 + [True] * 4)  # offence local slots that may receive a forward pass
_BITS = (1 << np.arange(N_PIECES)).astype(np.int16)
_STR_BY_CODE = np.array([0, 0, 0] + list(LOCAL_STRENGTH), dtype=np.int16)  # grid code -> opposing strength


_CTX = StepContext()  # the config and chance source of the engine call in progress, one pair per thread


def _draw(s: State, g, high, count, what):
    return _CTX.draw(s, g, high, count, what)


def _dice(s: State, g, count, what) -> np.ndarray:
    """``count`` dice per game of ``g``: int64 [len(g), count], faces 1-6 (recorded in ``s.dice``)."""
    d = _draw(s, g, 6, count, what) + 1
    s.dice[g] = 0
    s.dice[g, :count] = d
    return d


def _config(config):
    return game_config(config, TouchdownConfig)


# --- frames and geometry ----------------------------------------------------------------------------------

def _frame(team, row):
    """Team ``team``'s own row number of absolute row ``row`` (int arrays)."""
    H = _CTX.config.rows
    return np.where(team == 0, row - 1, H - 2 - row)


def _absolute(team, frame_row):
    H = _CTX.config.rows
    return np.where(team == 0, frame_row + 1, H - 2 - frame_row)


def _clip(x, lo, hi):
    """``np.clip`` for the small per-game arrays of the engine (without its per-call overhead)."""
    return np.minimum(np.maximum(x, lo), hi)


def _per_game(x, n):
    """An int64 array [n] of ``x`` (a scalar repeated, or a copy of an array of n values)."""
    a = np.asarray(x, dtype=np.int64)
    return np.full(n, a, dtype=np.int64) if a.ndim == 0 else a.copy()


def _sign(team):
    return (1 - 2 * np.asarray(team, dtype=np.int16)).astype(np.int16)


def _hash(lane):
    lo, hi = _CTX.config.hash_lanes
    return _clip(lane, lo, hi)


def _region(row):
    """0 the field, 1 team one's end zone, 2 team two's (absolute rows)."""
    H = _CTX.config.rows
    row = np.asarray(row)
    return np.where(row < END_ZONE_ROWS, 1, np.where(row >= H - END_ZONE_ROWS, 2, 0))


def field_goal_distance(los, config: TouchdownConfig | None = None):
    """Ruling 19: the rows from the LOS row (counted) to the goal line, plus 2 (``los`` in the kicker's
    frame)."""
    config = _config(config)
    return config.field_rows + 1 - np.asarray(los) + 2


def completion_need(distance, close, config: TouchdownConfig | None = None):
    """Ruling 21: the 2d6 total a pass of ``distance`` (1-15) needs, ``close`` marked or not."""
    config = _config(config)
    table = _completion_table(config)
    return table[np.asarray(distance), np.asarray(close).astype(np.int64)]


_TABLES: dict = {}


def _completion_table(config):
    key = ("c", config.completion_table)
    t = _TABLES.get(key)
    if t is None:
        t = np.full((MAX_DISTANCE_QB + 1, 2), 13, dtype=np.int64)
        lo = 1
        for upto, plain, close in config.completion_table:
            t[lo:upto + 1, 0], t[lo:upto + 1, 1] = plain, close
            lo = upto + 1
        _TABLES[key] = t
    return t


def _field_goal_table(config):
    key = ("f", config.field_goal_table, config.field_rows)
    t = _TABLES.get(key)
    if t is None:
        t = np.full(config.field_rows + 4, 99, dtype=np.int64)  # 99: out of range
        lo = 0
        for upto, need in config.field_goal_table:
            t[lo:upto + 1] = need
            lo = upto + 1
        _TABLES[key] = t
    return t


# --- init -------------------------------------------------------------------------------------------------

def init(batch_size: int | None = None, seed: int = 0, config: TouchdownConfig | None = None,
         seeds=None, chance=None) -> State:
    """A batch of new games: game i draws from the stream of seed + i, or of ``seeds[i]`` when per-game
    seeds are given (then game i equals ``init(1, seeds[i])``). The coin toss (ruling 16: draw 0, team one
    kicks off) and the opening kick-off with its return are played at once."""
    config = _config(config)
    s = new_batch(State, batch_size, seed, seeds)
    s.board[:] = board_of(config)
    g = np.arange(s.batch_size)
    with _CTX.using(config, chance):
        kicker = _draw(s, g, 2, 1, "coin toss")[:, 0].astype(np.int8)
        s.opening_kicker[g] = kicker
        _kick_off(s, g, kicker, KICK_OFF_ROW)
        _refresh(s, g)
    return s


# --- scrimmages, quarters and the end ---------------------------------------------------------------------

def _set(s: State, g, **fields) -> None:
    """Write each field's value (one for all, or one per game) into games ``g``."""
    for name, value in fields.items():
        getattr(s, name)[g] = value


def _clear_board(s: State, g) -> None:
    """Between plays: no piece on the board, no ball held, no pass or kick pending."""
    _set(s, g, lane=-1, row=-1, marked=False, holder=-1)
    _new_turn(s, g)
    _set(s, g, turns=0, pass_from=-1, pass_to=-1, pass_forward=False, pass_close=False, loose_lateral=False,
         entered_by=-1, kick_kind=-1)


def _new_turn(s: State, g, parts=0) -> None:
    """A side's turn starts: no piece moving, ``parts`` parts done, no piece moved, not idle."""
    _set(s, g, active=-1, steps_left=0, parts=parts, moved=0, idle=0)


def _series(s: State, g, team, row, lane, down=1, to_gain=None) -> None:
    """``team`` has play ``down`` of a series with the LOS at its row ``row`` (clamped into the field), the
    ball's lane clamped into the hash band; the offence calls next."""
    if g.size == 0:
        return
    F = _CTX.config.field_rows
    row = _clip(np.asarray(row, dtype=np.int64), 1, F)
    team = np.asarray(team, dtype=np.int8)
    _clear_board(s, g)
    s.offence[g] = team
    s.poss[g] = team
    s.los[g] = row
    s.down[g] = down
    s.to_gain[g] = np.minimum(row + GAIN_ROWS, 127) if to_gain is None else to_gain
    s.ball_lane[g] = _hash(np.asarray(lane))
    s.los_lane[g] = s.ball_lane[g]
    s.ball_row[g] = _absolute(team, row)
    s.phase[g] = OFFENCE_CALL
    s.offence_formation[g] = -1
    s.defence_formation[g] = -1


def _end_game(s: State, g) -> None:
    if g.size == 0:
        return
    sc = s.score[g]
    s.winner[g] = np.where(sc[:, 0] > sc[:, 1], 0, np.where(sc[:, 1] > sc[:, 0], 1, DRAW))
    s.terminated[g] = True
    s.phase[g] = GAME_OVER
    _clear_board(s, g)


def _finish(s: State, g, kind, team, row, lane=None, down=None, to_gain=None) -> None:
    """A scrimmage is over (ruling 16). What comes next, unless a quarter or the game ends: ``kind`` 0 a
    series for ``team`` at its row ``row`` (play ``down``, line ``to_gain``; default a first down), 1 a
    kick-off by ``team`` from its row ``row``."""
    if g.size == 0:
        return
    cfg = _CTX.config
    n = g.size
    kind = _per_game(kind, n)
    team = _per_game(team, n)
    row = _per_game(row, n)
    lane = _per_game(s.ball_lane[g] if lane is None else lane, n)
    down = _per_game(1 if down is None else down, n)
    gain = (np.minimum(_clip(row, 1, cfg.field_rows) + GAIN_ROWS, 127) if to_gain is None
            else _per_game(to_gain, n))
    s.scrimmage[g] += 1
    s.scrimmages[g] += 1
    over_time = s.quarter[g] > cfg.quarters
    tied = s.score[g, 0] == s.score[g, 1]
    quarter_end = s.scrimmage[g] >= cfg.scrimmages_per_quarter
    last = s.quarter[g] >= cfg.quarters
    # overtime: first score wins (checked where points are scored); its end is a draw
    end = quarter_end & last & (over_time | ~tied | (not cfg.overtime))
    _end_game(s, g[end])
    start_ot = quarter_end & last & ~over_time & tied & cfg.overtime
    if start_ot.any():
        go = g[start_ot]
        s.quarter[go] = cfg.quarters + 1
        s.scrimmage[go] = 0
        kicker = _draw(s, go, 2, 1, "overtime coin toss")[:, 0].astype(np.int8)
        s.opening_kicker[go] = kicker
        _kick_off(s, go, kicker, KICK_OFF_ROW)
    new_q = quarter_end & ~last
    if new_q.any():
        gq = g[new_q]
        s.quarter[gq] += 1
        s.scrimmage[gq] = 0
        kicker = (1 - s.opening_kicker[gq]).astype(np.int8)
        s.opening_kicker[gq] = kicker
        _kick_off(s, gq, kicker, KICK_OFF_ROW)
    go_on = ~quarter_end
    ser = go_on & (kind == 0)
    _series(s, g[ser], team[ser], row[ser], lane[ser], down[ser], gain[ser])
    kk = go_on & (kind == 1)
    if kk.any():
        _kick_off(s, g[kk], team[kk].astype(np.int8), row[kk])


def _add_points(s: State, g, team, points) -> np.ndarray:
    """Points to ``team``; in overtime the first score ends the game. Returns the mask of games that go on."""
    team = np.asarray(team, dtype=np.int64)
    s.score[g, team] += np.asarray(points, dtype=np.int16)
    ot = s.quarter[g] > _CTX.config.quarters
    _end_game(s, g[ot])
    return ~ot


def _touchdown(s: State, g, team) -> None:
    """6 points and the conversion roll (ruling 14: no scrimmage); the scorer kicks off (ruling 16)."""
    if g.size == 0:
        return
    team = np.asarray(team, dtype=np.int64)
    s.event[g] = EV["touchdown"]
    on = _add_points(s, g, team, TOUCHDOWN_POINTS)
    g, team = g[on], team[on]
    if g.size == 0:
        return
    d = _dice(s, g, 2, "conversion")
    good = d.sum(axis=1) >= _CTX.config.conversion_need
    s.score[g[good], team[good]] += CONVERSION_POINTS
    s.event[g] = np.where(good, EV["conversion good"], EV["conversion missed"])
    _finish(s, g, 1, team, KICK_OFF_ROW, _CTX.config.lanes // 2)


def _safety(s: State, g, conceding) -> None:
    """2 points to the other team; the conceding team kicks off from its 6th row (ruling 15)."""
    if g.size == 0:
        return
    conceding = np.asarray(conceding, dtype=np.int64)
    s.event[g] = EV["safety"]
    on = _add_points(s, g, 1 - conceding, SAFETY_POINTS)
    _finish(s, g[on], 1, conceding[on], SAFETY_KICK_ROW, _CTX.config.lanes // 2)


# --- kicks (rulings 17-19) --------------------------------------------------------------------------------

def _kick_off(s: State, g, kicker, from_row) -> None:
    """The kick travels 14 + 1d6 rows from the kicker's row ``from_row``; in the receiver's end zone the
    receiver chooses, past its end line a first down at its 6th row, otherwise the return is rolled."""
    if g.size == 0:
        return
    cfg = _CTX.config
    kicker = np.asarray(kicker, dtype=np.int64)
    recv = 1 - kicker
    _clear_board(s, g)
    s.offence[g] = recv
    s.poss[g] = recv
    s.event[g] = EV["kick-off"]
    d = _dice(s, g, 1, "kick-off")[:, 0]
    land = cfg.field_rows + 1 - (np.asarray(from_row) + KICK_OFF_BASE + d)
    lane = np.full(g.size, cfg.lanes // 2, dtype=np.int64)
    beyond = land < 1 - END_ZONE_ROWS
    _finish(s, g[beyond], 0, recv[beyond], TOUCHBACK_ROW, lane[beyond])
    ez = ~beyond & (land <= 0)
    _await_choice(s, g[ez], recv[ez], KICK_OFF, land[ez], lane[ez])
    rt = ~beyond & ~ez
    _return(s, g[rt], recv[rt], land[rt], lane[rt], KICK_OFF)


def _await_choice(s: State, g, receiver, kind, row, lane) -> None:
    """The kick ``kind`` lands where the receiver chooses between a first down and a return."""
    if g.size == 0:
        return
    _set(s, g, phase=KICK_CHOICE, offence=receiver, poss=receiver, kick_kind=kind, kick_row=row, kick_lane=lane)


def _return(s: State, g, recv, row, lane, kind) -> None:
    """The return roll and its chain (rulings 17, 18); ``row`` in the receiver's frame."""
    if g.size == 0:
        return
    F = _CTX.config.field_rows
    recv = np.asarray(recv, dtype=np.int64).copy()
    row = np.asarray(row, dtype=np.int64).copy()
    lane = np.asarray(lane, dtype=np.int64).copy()
    s.event[g] = EV["return"]
    todo = np.arange(g.size)
    first = True
    fumble_at = np.zeros(g.size, dtype=bool)
    two = np.zeros(g.size, dtype=bool)
    while todo.size:
        d = _dice(s, g[todo], 2, "return")
        a, b = d[:, 0], d[:, 1]
        total = a + b
        fum = total == 4
        fumble_at[todo[fum]] = True
        two[todo[fum]] = (a[fum] == 2)
        if first:
            again = (a == 6) & (b == 6)
            adv = np.where(again, 12, np.where(kind == PUNT, np.minimum(a, b), total))
        else:
            again = (a == b) & ~fum
            adv = total
        adv = np.where(fum, 0, adv)
        row[todo] += adv
        scored = row[todo] > F
        todo = todo[again & ~fum & ~scored]
        first = False
    td = row > F
    _touchdown(s, g[td], recv[td])
    fb = fumble_at & ~td
    if fb.any():
        _return_fumble(s, g[fb], recv[fb], row[fb], lane[fb], two[fb])
    rest = ~td & ~fumble_at
    sf = rest & (row <= 0)  # a return that does not leave the end zone (ruling 18)
    _safety(s, g[sf], recv[sf])
    ok = rest & ~sf
    _finish(s, g[ok], 0, recv[ok], row[ok], lane[ok])


def _return_fumble(s: State, g, recv, row, lane, two) -> None:
    """A 4 on a return (ruling 17): the ball flies by the wheel as the receiver sees it; out of play behind
    its goal line a safety; else the receiver's two dice against the kicker's one."""
    cfg = _CTX.config
    s.event[g] = EV["fumble"]
    w = _draw(s, g, 8, 1, "number wheel")[:, 0]
    dist = np.where(two, 2, 1)
    al, ar = _fly_path(recv, lane, _absolute(recv, row), w, dist)
    fr = _frame(recv, ar)
    off_side = (al < 0) | (al >= cfg.lanes)
    behind = (fr < 1 - END_ZONE_ROWS) | (off_side & (fr <= 0))
    _safety(s, g[behind], recv[behind])
    c = ~behind
    gc, rc, fc, lc = g[c], recv[c], fr[c], al[c]
    if gc.size == 0:
        return
    rd = _draw(s, gc, 6, 2, "receiver's recovery dice") + 1
    kd = _draw(s, gc, 6, 1, "kicker's recovery die")[:, 0] + 1
    s.dice[gc, 0], s.dice[gc, 1], s.dice[gc, 2] = rd[:, 0], rd[:, 1], kd
    kicker_gains = kd > rd.max(axis=1)
    holder = np.where(kicker_gains, 1 - rc, rc)
    hrow = np.where(kicker_gains, cfg.field_rows + 1 - fc, fc)  # the holder's frame
    s.event[gc] = np.where(kicker_gains, EV["turnover"], EV["recovery"])
    td = kicker_gains & (fc <= 0)
    _touchdown(s, gc[td], holder[td])
    sf = ~kicker_gains & (fc <= 0)
    _safety(s, gc[sf], rc[sf])
    ok = ~td & ~sf
    _finish(s, gc[ok], 0, holder[ok], hrow[ok], lc[ok])


def _fly_path(view_team, lane, row, wheel, dist):
    """The ball's square after flying ``dist`` (1 or 2) squares from (``lane``, ``row``) (absolute) in
    number-wheel direction ``wheel`` (0-7) as ``view_team`` sees it; it stops on the first square off the
    board (ruling 24). Returns absolute (lane, row), possibly one square off the board."""
    cfg = _CTX.config
    sg = _sign(view_team).astype(np.int64)
    dl, dr = DL[wheel] * sg, DR[wheel] * sg
    l1, r1 = lane + dl, row + dr
    off1 = (l1 < 0) | (l1 >= cfg.lanes) | (r1 < 0) | (r1 >= cfg.rows)
    second = (dist >= 2) & ~off1
    return np.where(second, l1 + dl, l1), np.where(second, r1 + dr, r1)


def _punt(s: State, g, ndice) -> None:
    """Ruling 18: the ball lands 11 + the dice rows in front of the LOS; past the receiver's end line its
    first down at the 6th row, otherwise the receiver chooses."""
    cfg = _CTX.config
    kicker = s.offence[g].astype(np.int64)
    recv = 1 - kicker
    s.event[g] = EV["punt"]
    s.dice[g] = 0
    total = np.zeros(g.size, dtype=np.int64)
    for k in (1, 2):
        sub = np.flatnonzero(ndice >= k)
        if sub.size:
            d = _draw(s, g[sub], 6, 1, "punt die")[:, 0] + 1
            s.dice[g[sub], k - 1] = d
            total[sub] += d
    land = cfg.field_rows + 1 - (s.los[g].astype(np.int64) + PUNT_BASE_ROWS + total)
    lane = s.ball_lane[g].astype(np.int64)
    _clear_board(s, g)
    beyond = land < 1 - END_ZONE_ROWS
    _finish(s, g[beyond], 0, recv[beyond], TOUCHBACK_ROW, lane[beyond])
    _await_choice(s, g[~beyond], recv[~beyond], PUNT, land[~beyond], lane[~beyond])


def _kick_choice(s: State, g, take) -> None:
    recv = s.offence[g].astype(np.int64)
    row = s.kick_row[g].astype(np.int64)
    lane = s.kick_lane[g].astype(np.int64)
    kind = s.kick_kind[g].astype(np.int64)
    _finish(s, g[take], 0, recv[take], np.where(row[take] <= 0, TOUCHBACK_ROW, row[take]), lane[take])
    r = ~take
    for k in (KICK_OFF, PUNT):
        m = r & (kind == k)
        _return(s, g[m], recv[m], row[m], lane[m], k)


def _field_goal(s: State, g) -> None:
    """Ruling 19: good on the table's total -> 3 points and the kicker kicks off; missed -> the other
    team's first down at the LOS or its 6th row, whichever is farther from its goal line."""
    cfg = _CTX.config
    kicker = s.offence[g].astype(np.int64)
    los = s.los[g].astype(np.int64)
    need = _field_goal_table(cfg)[field_goal_distance(los, cfg)]
    d = _dice(s, g, 2, "field goal")
    good = d.sum(axis=1) >= need
    lane = s.ball_lane[g].astype(np.int64)
    _clear_board(s, g)
    s.event[g] = np.where(good, EV["field goal good"], EV["field goal missed"])
    gg = g[good]
    on = _add_points(s, gg, kicker[good], FIELD_GOAL_POINTS)
    _finish(s, gg[on], 1, kicker[good][on], KICK_OFF_ROW, cfg.lanes // 2)
    m = ~good
    _finish(s, g[m], 0, 1 - kicker[m], np.maximum(cfg.field_rows + 1 - los[m], TOUCHBACK_ROW), lane[m])


# --- the end of a play ------------------------------------------------------------------------------------

def _ball_dead(s: State, g, team, row, lane) -> None:
    """The ball is dead with ``team`` (its row ``row`` in the field, clamped): the downs decide (ruling 13)."""
    if g.size == 0:
        return
    cfg = _CTX.config
    team = np.asarray(team, dtype=np.int64)
    row = _clip(np.asarray(row, dtype=np.int64), 1, cfg.field_rows)
    lane = np.asarray(lane, dtype=np.int64)
    off = s.offence[g].astype(np.int64)
    same = team == off
    gained = same & (row >= s.to_gain[g])
    second = same & ~gained & (s.down[g] == 1)
    failed = same & ~gained & ~second
    new_team = np.where(failed, 1 - team, team)
    new_row = np.where(failed, cfg.field_rows + 1 - row, row)
    down = np.where(second, 2, 1)
    gain = np.where(second, s.to_gain[g], np.minimum(new_row + GAIN_ROWS, 127))
    _finish(s, g, 0, new_team, new_row, lane, down, gain)


def _dead_where_it_is(s: State, g) -> None:
    """A play ends with the ball where it is (a tackle that stands, the round cap, two idle turns): in the
    holder's own end zone a safety when his side put it there, else a touchback (ruling 15); a loose ball
    goes to its last holder's team (ruling 9)."""
    if g.size == 0:
        return
    team = s.poss[g].astype(np.int64)
    fr = _frame(team, s.ball_row[g].astype(np.int64))
    own_ez = fr <= 0
    safety = own_ez & (s.entered_by[g] == team)
    _safety(s, g[safety], team[safety])
    tb = own_ez & ~safety
    s.event[g[tb]] = EV["touchback"]
    _finish(s, g[tb], 0, team[tb], TOUCHBACK_ROW, s.ball_lane[g[tb]])
    rest = ~own_ez
    _ball_dead(s, g[rest], team[rest], fr[rest], s.ball_lane[g[rest]])


def _incomplete(s: State, g, receiver_row) -> None:
    """An incomplete forward pass (ruling 23): on play 1 play 2 from the same LOS; on play 2 the other
    team's first down at the LOS (a pass thrown into the opponent's end zone: at the LOS or the receiving
    team's 6th row, whichever is farther from its goal line). ``receiver_row``: absolute."""
    cfg = _CTX.config
    s.event[g] = EV["incomplete"]
    off = s.offence[g].astype(np.int64)
    los = s.los[g].astype(np.int64)
    lane = s.los_lane[g].astype(np.int64)
    first = s.down[g] == 1
    _finish(s, g[first], 0, off[first], los[first], lane[first], 2, s.to_gain[g[first]])
    sec = ~first
    into_ez = _frame(off, np.asarray(receiver_row, dtype=np.int64)) > cfg.field_rows
    other = cfg.field_rows + 1 - los
    row = np.where(into_ez, np.maximum(other, TOUCHBACK_ROW), other)
    _finish(s, g[sec], 0, 1 - off[sec], row[sec], lane[sec])


# --- the board of a play ----------------------------------------------------------------------------------

_TEMPLATES: dict = {}


def _template(cfg):
    """The padded board (one square of wall round it), flat: 1 on the wall, 0 inside."""
    key = (cfg.lanes, cfg.rows)
    t = _TEMPLATES.get(key)
    if t is None:
        t = np.ones((cfg.rows + 2, cfg.lanes + 2), dtype=np.int8)
        t[1:-1, 1:-1] = 0
        t = _TEMPLATES[key] = t.reshape(-1)
    return t


class _Board:
    """The squares of a play from one side's view (``team`` [n] the acting side, for games ``g``): its
    slots' and the opposing slots' squares (int16 [n, 7], local slot order), the padded flat grid of codes
    (0 empty, 1 wall, 2 own piece, 3 + k the opposing local slot k; an opposing piece shows over an own
    piece sharing its square) and the scrimmage limits per slot (rows of the offence's frame)."""

    def __init__(self, s: State, g, team):
        cfg = _CTX.config
        n = g.size
        self.g, self.n = g, n
        self.team = np.asarray(team, dtype=np.int64)
        self.sg = _sign(self.team)[:, None]
        self.off = s.offence.take(g).astype(np.int64)
        side = self.team != self.off
        self.side = side
        sd = side[:, None]
        self.own_base = np.where(side, 7, 0)
        self.opp_base = 7 - self.own_base
        lim = s.limits.take(g)[:, None]
        fwd = s.forward_thrown.take(g)[:, None]
        los = s.los.take(g).astype(np.int16)[:, None]
        self.los = los
        # by half (slots 0-6 the offence's, 7-13 the defence's): lanes, rows, markers, the limits' rows (lo, hi)
        both = np.empty((5, n, 2, 7), dtype=np.int16)
        both[0] = s.lane.take(g, axis=0).reshape(n, 2, 7)
        both[1] = s.row.take(g, axis=0).reshape(n, 2, 7)
        both[2] = s.marked.take(g, axis=0).reshape(n, 2, 7)
        both[3, :, 0] = np.where(lim, los - MAX_BEHIND, -BIG)
        both[4, :, 0] = BIG
        both[4, :, 0, :3] = np.where(lim & ~fwd, los + 1, BIG)
        both[3, :, 1] = -BIG
        both[3, :, 1, 5:] = np.where(lim, los + 1, -BIG)
        both[4, :, 1] = BIG
        own_half = 2 * np.arange(n) + side
        mine = both.reshape(5, 2 * n, 7).take(np.stack([own_half, own_half ^ 1], axis=1).reshape(-1), axis=1)
        mine = mine.reshape(5, n, 2, 7)  # the acting side's half first
        self.ol, self.orow, self.own_marked = mine[0, :, 0], mine[1, :, 0], mine[2, :, 0].astype(bool)
        self.pl, self.prow, self.opp_marked = mine[0, :, 1], mine[1, :, 1], mine[2, :, 1].astype(bool)
        self.own_lo, self.own_hi, self.opp_lo, self.opp_hi = mine[3, :, 0], mine[4, :, 0], mine[3, :, 1], mine[4, :, 1]
        self.gw = cfg.lanes + 2
        self.G = (cfg.rows + 2) * self.gw
        self.base = (np.arange(n, dtype=np.int64) * self.G)[:, None]
        code = np.empty((n, self.G), dtype=np.int8)
        code[:] = _template(cfg)
        cells = (mine[1].astype(np.int64) + 1) * self.gw + mine[0] + 1  # [n, 2, 7]
        self.own_cells, self.opp_cells = cells[:, 0], cells[:, 1]
        flat = code.reshape(-1)
        flat[self.base + self.own_cells] = 2
        flat[self.base + self.opp_cells] = _OPP_CODES
        self.code = flat
        holder = s.holder.take(g).astype(np.int64)
        self.holder = holder
        own_h = holder - self.own_base
        self.own_holder = np.where((holder >= 0) & (own_h >= 0) & (own_h < 7), own_h, -1)
        opp_h = holder - self.opp_base
        self.opp_holder = np.where((holder >= 0) & (opp_h >= 0) & (opp_h < 7), opp_h, -1)
        self.loose = holder < 0
        self.ball_cell = (s.ball_row.take(g).astype(np.int64) + 1) * self.gw + s.ball_lane.take(g) + 1
        self.fsg = np.where(side, -1, 1).astype(np.int16)[:, None]
        osg = (1 - 2 * self.off).astype(np.int16)[:, None, None]
        fr = osg * (mine[1] - 1) + (self.off * (cfg.rows - 3)).astype(np.int16)[:, None, None]
        self.own_fr, self.opp_fr = fr[:, 0], fr[:, 1]
        self.opp_protected = (sd & lim & ~fwd) & ELIGIBLE[None, :] & (self.opp_fr >= los + PROTECTED_AHEAD)


    def at(self, cell):
        return self.code.take(self.base + cell)


_OPP_CODES = (3 + np.arange(7)).astype(np.int8)


def _near(al, ar, bl, br):
    """King-move distance <= 1 (the same square included)."""
    return (np.abs(al - bl) <= 1) & (np.abs(ar - br) <= 1)


def _push_ok(b: _Board, rows, k, d) -> np.ndarray:
    """bool [m]: in game ``rows`` (indices into the board's games) the opposing local slot ``k`` may be
    pushed one square in the acting side's wheel direction ``d`` (ruling 10): the square is on the board,
    empty, without the loose ball, inside the pushed piece's limits, and for a Triple or QB not beside a
    Single of the pushing side; the piece is unmarked, not the carrier, not a protected receiver."""
    if rows.size == 0:
        return np.zeros(0, dtype=bool)
    sg = b.sg[rows, 0]
    tl = b.pl[rows, k] + sg * DL[d]
    tr = b.prow[rows, k] + sg * DR[d]
    cell = (tr.astype(np.int64) + 1) * b.gw + tl + 1
    ok = b.code.take(rows * b.G + cell) == 0
    ok &= ~(b.loose[rows] & (cell == b.ball_cell[rows]))
    ok &= ~(b.opp_marked[rows, k] | b.opp_protected[rows, k] | (k == b.opp_holder[rows]))
    fr = b.opp_fr[rows, k] + b.fsg[rows, 0] * DR[d]
    ok &= (fr >= b.opp_lo[rows, k]) & (fr <= b.opp_hi[rows, k])
    beside = np.zeros(rows.size, dtype=bool)
    for j in range(3):  # the pushing side's Singles
        beside |= _near(tl, tr, b.ol[rows, j], b.orow[rows, j])
    ok &= ~(IS_TQ[k] & beside)
    return ok


def _eval_steps(b: _Board, slots, dirs, can_move, intercept=False):
    """Each candidate step (local ``slots``, wheel ``dirs``: int [n, K]) of the acting side: a dict with
    ``legal`` bool [n, K] and what the step does (``push`` the opposing slot pushed onto, -1 none;
    ``tackle`` onto the carrier; ``adj`` bool [n, K, 2] the opposing slots 5 and 6 beside a stepping Single
    (to push); ``adj_tackle``; the squares). ``intercept``: the interception step of ruling 22 (to an empty
    square, no push, no tackle). The general path (the apply step and the interception); the mask of a
    play uses the faster ``_step_mask``."""
    n, K = slots.shape
    sl = np.take_along_axis(b.ol, slots, 1)
    sr = np.take_along_axis(b.orow, slots, 1)
    dl = (b.sg * DL[dirs]).astype(np.int16)
    dr = (b.sg * DR[dirs]).astype(np.int16)
    tl, tr = sl + dl, sr + dr
    src = (sr.astype(np.int64) + 1) * b.gw + sl + 1
    cell = src + dr.astype(np.int64) * b.gw + dl
    v = b.at(cell)
    empty = v == 0
    mstr = LOCAL_STRENGTH[slots]
    diag = DIAGONAL[dirs]
    c1 = b.at(src + dl)
    c2 = b.at(src + dr.astype(np.int64) * b.gw)
    r1 = ~(diag & ((_STR_BY_CODE[c1] >= mstr) | (_STR_BY_CODE[c2] >= mstr)))
    fr = np.take_along_axis(b.own_fr, slots, 1) + b.fsg * DR[dirs]
    lim = (fr >= np.take_along_axis(b.own_lo, slots, 1)) & (fr <= np.take_along_axis(b.own_hi, slots, 1))
    tq = IS_TQ[slots]
    single = IS_SINGLE[slots]
    beside_single = np.zeros((n, K), dtype=bool)
    for j in range(3):
        beside_single |= _near(tl, tr, b.pl[:, j, None], b.prow[:, j, None])
    r2 = ~(tq & beside_single)
    mover_holder = slots == b.own_holder[:, None]
    adj = np.zeros((n, K, 2), dtype=bool)
    adj_dir = np.zeros((n, K, 2), dtype=np.int64)
    adj_ok = np.ones((n, K), dtype=bool)
    adj_tackle = np.zeros((n, K), dtype=bool)
    for i, q in enumerate((5, 6)):
        ddl = b.pl[:, q, None] - tl
        ddr = b.prow[:, q, None] - tr
        a = single & (np.abs(ddl) <= 1) & (np.abs(ddr) <= 1) & ((ddl != 0) | (ddr != 0))
        key = (np.clip(b.sg * ddl, -1, 1) + 1) * 3 + (np.clip(b.sg * ddr, -1, 1) + 1)
        dq = np.where(a, _DIR_OF[key], 0).astype(np.int64)
        is_carrier = (b.opp_holder == q)[:, None]
        if intercept:
            ok = ~a
        else:
            rr, cc = np.nonzero(a & ~is_carrier & ~mover_holder)
            pushable = np.zeros((n, K), dtype=bool)
            pushable[rr, cc] = _push_ok(b, rr, q, dq[rr, cc])
            ok = ~a | (~mover_holder & (is_carrier | pushable))
        adj[:, :, i] = a & ~is_carrier
        adj_dir[:, :, i] = dq
        adj_tackle |= a & is_carrier
        adj_ok &= ok
    if intercept:
        legal = can_move & empty & r1 & r2 & lim & adj_ok
        return {"legal": legal, "tl": tl, "tr": tr, "sl": sl, "sr": sr}
    k = np.where(v >= 3, v - 3, 0).astype(np.int64)
    opp_here = v >= 3
    carrier = opp_here & (k == b.opp_holder[:, None])
    tackle = carrier & ~(tq & IS_SINGLE[k]) & lim & adj_ok  # (a Single's pushes beside must be legal too)
    cand = opp_here & ~carrier & (mstr > LOCAL_STRENGTH[k]) & ~mover_holder & ~(single & IS_TQ[k])
    rr, cc = np.nonzero(cand)
    push_ok = np.zeros((n, K), dtype=bool)
    push_ok[rr, cc] = _push_ok(b, rr, k[rr, cc], dirs[rr, cc])
    push = cand & push_ok & r1 & lim & adj_ok
    plain = empty & r1 & r2 & lim & adj_ok
    legal = can_move & (plain | push | tackle)
    return {"legal": legal, "push": np.where(push, k, -1), "tackle": tackle & can_move, "adj": adj,
            "adj_dir": adj_dir, "adj_tackle": adj_tackle & (plain | push), "tl": tl, "tr": tr, "sl": sl, "sr": sr}


def _can_move(s: State, b: _Board) -> np.ndarray:
    """bool [n, 7]: the acting side's slot may take a step now (ruling 9): unmarked, and the moving piece
    with squares left, or a piece not yet moved this turn while fewer than two parts are done."""
    g = b.g
    active_local = s.active[g].astype(np.int64) - b.own_base
    is_active = (_LOCAL7 == active_local[:, None]) & (s.steps_left[g] > 0)[:, None]
    moved = (s.moved[g].astype(np.int64) >> (b.own_base))[:, None] & _BIT7
    fresh = (moved == 0) & (s.parts[g] < 2)[:, None]
    return ~b.own_marked & (is_active | fresh)


_LOCAL7 = np.arange(7)[None, :]
_BIT7 = (1 << np.arange(7))[None, :]
_ALL_SLOTS = np.repeat(np.arange(7), 8)[None, :]
_ALL_DIRS = np.tile(np.arange(8), 7)[None, :]


def _pass_targets(s: State, b: _Board, rows=None) -> tuple[np.ndarray, dict]:
    """bool [m, 7]: in games ``rows`` of the board (all by default) the holder of the acting side may pass
    to own slot j now (rulings 20, 9), and the geometry (distance, forward)."""
    g = b.g if rows is None else b.g[rows]
    r = slice(None) if rows is None else rows
    own_holder = b.own_holder[r]
    ol, orow = b.ol[r], b.orow[r]
    h = np.maximum(own_holder, 0)
    has = (own_holder >= 0) & (s.parts[g] < 2) & (s.poss[g] == b.team[r])
    at = np.arange(h.size)
    hl = ol[at, h][:, None]
    hr = orow[at, h][:, None]
    dl, dr = ol - hl, orow - hr
    adl, adr = np.abs(dl), np.abs(dr)
    dist = np.maximum(adl, adr)
    aligned = (dl == 0) | (dr == 0) | (adl == adr)
    side = b.side[r]
    maxd = np.where((h == QB_LOCAL) & ~side, MAX_DISTANCE_QB, MAX_DISTANCE_OTHER)[:, None]
    ok = has[:, None] & aligned & (dist >= 1) & (dist <= maxd) & ~b.own_marked[r]
    # the line is clear: no piece strictly between (marked ones included), read off the board's squares
    # one square farther each round, on the candidates only
    gi, ji = np.nonzero(ok)
    if gi.size:
        line = np.sign(dr[gi, ji]).astype(np.int64) * b.gw + np.sign(dl[gi, ji])  # flat step along the line
        rows_g = gi if rows is None else rows[gi]
        cell = b.base[rows_g, 0] + b.own_cells[rows_g, h[gi]]
        left = dist[gi, ji].astype(np.int64) - 1  # squares strictly between
        clear = np.ones(gi.size, dtype=bool)
        todo = np.flatnonzero(left > 0)
        while todo.size:
            cell[todo] += line[todo]
            clear[todo] = b.code.take(cell[todo]) == 0
            left[todo] -= 1
            todo = todo[clear[todo] & (left[todo] > 0)]
        ok[gi, ji] = clear
    forward = (dr * b.sg[r]) > 0
    h_frame = b.own_fr[r][at, h][:, None]
    fwd_ok = (s.limits[g] & ~s.forward_thrown[g] & ~side)[:, None] & (h_frame < b.los[r]) & ELIGIBLE[None, :]
    ok &= ~forward | fwd_ok
    return ok, {"dist": dist, "forward": forward, "h": h}


QB_LOCAL = 6


_CODE_STR = np.array([0, 0, 0] + list(LOCAL_STRENGTH), dtype=np.int8)  # grid code -> opposing strength
_ROW_OF_DIR = (DR + 1).astype(np.int64)  # wheel direction -> 0 back, 1 level, 2 forward (the side's frame)


def _offset_tables():
    """Over an opposing piece's offset (lanes, rows in the acting side's frame, each -2..2; index 25: farther):
    the bits of the directions whose step lands beside or on it (``near``), beside it only (``adj``), and
    the direction from that landing square to the piece (``push``)."""
    near = np.zeros(26, dtype=np.uint8)
    adj = np.zeros(26, dtype=np.uint8)
    push = np.zeros((26, 8), dtype=np.int64)
    for rl in range(-2, 3):
        for rr in range(-2, 3):
            k = (rl + 2) * 5 + rr + 2
            for d in range(8):
                el, er = rl - int(DL[d]), rr - int(DR[d])
                if max(abs(el), abs(er)) <= 1:
                    near[k] |= 1 << d
                    if (el, er) != (0, 0):
                        adj[k] |= 1 << d
                        push[k, d] = _DIR_OF[(el + 1) * 3 + er + 1]
    bits = ((np.arange(256)[:, None] >> np.arange(8)) & 1).astype(bool)
    return near, adj, push, bits


_NEAR_BITS, _ADJ_BITS, _PUSH_DIR, _BITS_TO_BOOL = _offset_tables()


def _rel_index(dl, dr):
    """The offset tables' index of offsets (dl, dr): 25 beyond two squares."""
    inside = (np.abs(dl) <= 2) & (np.abs(dr) <= 2)
    return np.where(inside, (dl + 2) * 5 + dr + 2, 25)


_REL_TABLES = {}


def _rel_tables(cfg):
    """For an offset (dl, dr) between two squares of the board as the acting side sees it, flat index
    ``(dl + W - 1) * (2H - 1) + dr + H - 1`` (team two's half of the table reversed: its view negates both),
    the offset tables' bits: near, adjacent, and the offset index (25: beyond two squares)."""
    key = (cfg.lanes, cfg.rows)
    t = _REL_TABLES.get(key)
    if t is None:
        W, H = cfg.lanes, cfg.rows
        dl = np.arange(-(W - 1), W)[:, None]
        dr = np.arange(-(H - 1), H)[None, :]
        rel = _rel_index(dl, dr).reshape(-1)
        rel = np.concatenate([rel, rel[::-1]])
        t = _REL_TABLES[key] = (rel.astype(np.int64), _NEAR_BITS.take(rel), _ADJ_BITS.take(rel), 2 * H - 1,
                                (W - 1) * (2 * H - 1) + H - 1, rel.size // 2)
    return t




_STR_COL = LOCAL_STRENGTH.astype(np.int8)[None, :, None]  # [1, 7, 1]
_ODD_PREV4 = np.array([3, 0, 1, 2])  # the orthogonal neighbour before each (left, forward, right, back)
_SHIFT8 = np.arange(8, dtype=np.uint8)


def _step_mask(s: State, b: _Board) -> np.ndarray:
    """bool [n, 56]: the legal steps of the acting side (the same rules as ``_eval_steps``, over the static
    layout direction x slot x game, the games innermost so that every dense operation runs over long
    contiguous rows: the 8 neighbours of each piece in one gather, restriction 2 checked on the Triple / QB
    slots only, a Single's pushes on the Single slots only, pushes and tackles looked up sparsely)."""
    n = b.n
    cfg = _CTX.config
    can = _can_move(s, b).T  # [7, n]
    off8 = (DR.astype(np.int64) * b.gw + DL)[:, None, None] * b.sg[:, 0][None, None, :]  # [8, 1, n]
    cells = (b.base + b.own_cells).T  # [7, n]
    nb = b.code.take(cells[None] + off8)  # [8, 7, n] the neighbours' codes
    fr, lo, hi, fsg = b.own_fr.T, b.own_lo.T, b.own_hi.T, b.fsg[:, 0]
    lim3 = np.empty((3, 7, n), dtype=bool)
    for c, r in enumerate((fr - fsg, fr, fr + fsg)):
        lim3[c] = (r >= lo) & (r <= hi) & can
    base_ok = lim3.take(_ROW_OF_DIR, axis=0)  # [8, 7, n]
    legal = base_ok & (nb == 0)
    strong = _CODE_STR.take(nb[1::2]) >= _STR_COL  # [4, 7, n]: left, forward, right, back
    r1_diag = ~(strong | strong.take(_ODD_PREV4, axis=0))
    legal[0::2] &= r1_diag
    rel_t, near_t, adj_t, span, centre, half = _rel_tables(cfg)
    tb = b.team * half + centre  # [n]
    pl, prow = b.pl.T.astype(np.int64), b.prow.T.astype(np.int64)
    ol, orow = b.ol.T.astype(np.int64), b.orow.T.astype(np.int64)
    key = (pl[None, :3] - ol[5:, None]) * span + (prow[None, :3] - orow[5:, None]) + tb  # [2, 3, n]
    bits = near_t.take(key)
    bits = bits[:, 0] | bits[:, 1] | bits[:, 2]  # [2, n]
    legal[:, 5:] &= ((bits[None] >> _SHIFT8[:, None, None]) & 1) == 0
    key = (pl[None, 5:] - ol[:3, None]) * span + (prow[None, 5:] - orow[:3, None]) + tb  # [3, 2, n]
    adj_bits = adj_t.take(key) * can[:3, None, :]  # [3, 2, n] (a Single that cannot move needs no check)
    single_bad = None
    si, qi, gi = np.nonzero(adj_bits)
    if si.size:
        e, d = np.nonzero(_BITS_TO_BOOL[adj_bits[si, qi, gi]])
        si, qi, gi = si[e], qi[e], gi[e]
        rel_e = rel_t.take(key[si, qi, gi])
        q = qi + 5
        carrier = q == b.opp_holder[gi]
        mover_holder = si == b.own_holder[gi]
        ok = carrier & ~mover_holder
        push = ~carrier & ~mover_holder
        if push.any():
            pd = _PUSH_DIR[rel_e[push], d[push]]
            ok[push] = _push_ok(b, gi[push], q[push], pd)
        bad = ~ok
        single_bad = (d[bad], si[bad], gi[bad])
    flat = np.flatnonzero((nb >= 3) & base_ok)
    if flat.size:
        di, rem = np.divmod(flat, 7 * n)
        si, gi = np.divmod(rem, n)
        k = nb.reshape(-1)[flat].astype(np.int64) - 3
        carrier = k == b.opp_holder[gi]
        tackle = carrier & ~(IS_TQ[si] & IS_SINGLE[k])
        r1 = np.ones(gi.size, dtype=bool)
        dd = np.flatnonzero(DIAGONAL[di])
        r1[dd] = r1_diag[di[dd] // 2, si[dd], gi[dd]]
        cand = (~carrier & (LOCAL_STRENGTH[si] > LOCAL_STRENGTH[k]) & (si != b.own_holder[gi])
                & ~(IS_SINGLE[si] & IS_TQ[k]) & r1)
        c = np.flatnonzero(cand)
        ok = tackle.copy()
        if c.size:
            ok[c] = _push_ok(b, gi[c], k[c], di[c])
        legal.reshape(-1)[flat] = ok
    if single_bad is not None:
        legal[single_bad] = False
    out = np.empty((n, 7, 8), dtype=bool)
    out[...] = legal.transpose(2, 1, 0)
    return out.reshape(n, 56)


def _play_mask(s: State, g) -> None:
    """The legal mask of games ``g`` in the play phase (their side ``to_act``)."""
    b = _Board(s, g, s.to_act[g])
    m = np.zeros((b.n, A.NUM_ACTIONS), dtype=bool)
    steps = _step_mask(s, b)
    m[:, :A.N_STEPS] = steps
    some = steps.any(axis=1)
    m[:, A.STOP] = stop = s.active[g] >= 0
    some |= stop
    hold = b.own_holder >= 0
    hp = np.flatnonzero(hold & (s.parts[g] < 2))
    if hp.size:
        passes, _ = _pass_targets(s, b, hp)
        m[hp, A.PASS_BASE:A.PASS_BASE + 7] = passes
        some[hp] |= passes.any(axis=1)
    hrow = b.orow[np.arange(b.n), np.maximum(b.own_holder, 0)]
    m[:, A.DECLARE_SAFETY] = safety = hold & (_frame(b.team, hrow.astype(np.int64)) <= 0)
    m[:, A.END_TURN] = ~(some | safety)
    s.legal[g] = m


def _interception_candidates(s: State, g, passer_team, h, j) -> np.ndarray:
    """bool [n, 56]: the defence's interception steps (ruling 22) against a pass from slot ``h`` to slot
    ``j``: an unmarked defender close marking the receiver, nearer the passer (Euclidean), steps legally
    to an empty square on the line strictly between them. The step rules are evaluated only in the games
    where such a defender stands."""
    n = g.size
    out = np.zeros((n, 56), dtype=bool)
    defence = 1 - np.asarray(passer_team, dtype=np.int64)
    hl, hr = s.lane[g, h].astype(np.int64), s.row[g, h].astype(np.int64)
    jl, jr = s.lane[g, j].astype(np.int64), s.row[g, j].astype(np.int64)
    base = np.where(defence != s.offence[g], 7, 0)[:, None] + np.arange(7)
    dl_, dr_ = np.take_along_axis(s.lane[g], base, 1), np.take_along_axis(s.row[g], base, 1)
    marked = np.take_along_axis(s.marked[g], base, 1)
    close = _close_to(dl_, dr_, marked, jl, jr, SLOT_TYPE_A[j])
    d_i = (dl_ - hl[:, None]) ** 2 + (dr_ - hr[:, None]) ** 2
    d_j = ((jl - hl) ** 2 + (jr - hr) ** 2)[:, None]
    cand = close & (d_i < d_j)
    some = np.flatnonzero(cand.any(axis=1))
    if some.size == 0:
        return out
    gs = g[some]
    b = _Board(s, gs, defence[some])
    can_k = np.repeat(cand[some], 8, axis=1)
    ev = _eval_steps(b, np.broadcast_to(_ALL_SLOTS, (some.size, 56)), np.broadcast_to(_ALL_DIRS, (some.size, 56)),
                     can_k, intercept=True)
    hl, hr, jl, jr = hl[some], hr[some], jl[some], jr[some]
    dist = np.maximum(np.abs(jl - hl), np.abs(jr - hr))[:, None]
    ul, ur = np.sign(jl - hl)[:, None], np.sign(jr - hr)[:, None]
    rl, rr = ev["tl"] - hl[:, None], ev["tr"] - hr[:, None]
    t = np.maximum(np.abs(rl), np.abs(rr))
    on_line = (t > 0) & (t < dist) & (rl == t * ul) & (rr == t * ur)
    out[some] = ev["legal"] & on_line
    return out


def _close_to(lanes, rows, marked, jl, jr, jtype) -> np.ndarray:
    """bool [n, 7]: the pieces at (lanes, rows) [n, 7] (one side's slots, local order) that close mark a
    receiver of type ``jtype`` at (jl, jr): unmarked and beside him, a Single never close marking a Triple
    or QB nor they a Single (ruling 20)."""
    lanes, rows = lanes.astype(np.int64), rows.astype(np.int64)
    near = (np.abs(lanes - jl[:, None]) <= 1) & (np.abs(rows - jr[:, None]) <= 1)
    near &= (lanes != jl[:, None]) | (rows != jr[:, None])
    j_tq = ((jtype == TRIPLE) | (jtype == QB))[:, None]
    j_single = (jtype == SINGLE)[:, None]
    excluded = (IS_SINGLE[None, :] & j_tq) | (IS_TQ[None, :] & j_single)
    return near & ~excluded & ~marked


# --- lining up and the snap (rulings 8, 9) ----------------------------------------------------------------

_SEARCH = [(t, u) for t in range(8) for u in (0, -1, 1, -2, 2, -3, 3, -4, 4)]  # nearest first


def line_up(s: State, g, offence_formation, defence_formation) -> None:
    """Place both sides by their formations round the ball (ruling 8), in place: each slot at its offset,
    or, when that square is off the board, taken or illegal, the nearest free legal square toward the LOS
    (rows toward the LOS first, then lanes). Clears markers and the turn."""
    cfg = _CTX.config
    n = g.size
    off = s.offence[g].astype(np.int64)
    sg = _sign(off).astype(np.int64)
    los = s.los[g].astype(np.int64)
    bl = _hash(s.los_lane[g].astype(np.int64))
    offsets = np.zeros((n, 14, 2), dtype=np.int64)
    fo = np.asarray(offence_formation, dtype=np.int64)
    fd = np.asarray(defence_formation, dtype=np.int64)
    offsets[:, :7] = _OFF_OFFSETS[fo]
    offsets[:, 7:] = _DEF_OFFSETS[fd]
    L = np.full((n, 14), -100, dtype=np.int64)
    R = np.full((n, 14), -100, dtype=np.int64)
    t_all = np.array([c[0] for c in _SEARCH])
    u_all = np.array([c[1] for c in _SEARCH])
    rr_all = np.arange(n)
    for slot in range(14):
        # the slot's own square first for every game; the search only where it is not free and legal
        todo = rr_all
        for t, u in ((t_all[:1], u_all[:1]), (t_all, u_all)):
            dx, dy = offsets[todo, slot, 0], offsets[todo, slot, 1]
            ty = np.sign(dy)[:, None]
            fy = (dy[:, None] - ty * np.minimum(t[None, :], np.abs(dy)[:, None]))  # rows toward the LOS
            fy = np.where(t[None, :] > np.abs(dy)[:, None], BIG, fy)  # never past the LOS
            lane = _clip(bl[todo] + sg[todo] * dx, 0, cfg.lanes - 1)[:, None] + u[None, :]
            frow = los[todo, None] + fy
            row = _absolute(off[todo, None], frow)
            ok = (lane >= 0) & (lane < cfg.lanes) & (row >= 0) & (row < cfg.rows) & (fy < BIG)
            Lt, Rt = L[todo], R[todo]
            ok &= ~((Lt[:, None, :] == lane[:, :, None]) & (Rt[:, None, :] == row[:, :, None])).any(axis=2)
            if slot < 7:
                ok &= frow >= los[todo, None] - MAX_BEHIND
                if slot < 3:
                    ok &= frow <= los[todo, None] + 1
            else:
                ok &= frow >= los[todo, None] + 1  # the defence stays on its side (its Triples: ruling 7)
                typ = SLOT_TYPE[slot]
                foes = range(5, 7) if typ == SINGLE else range(0, 3) if typ in (TRIPLE, QB) else ()
                for f in foes:  # restriction 2 against the placed offence
                    ok &= ~_near(lane, row, Lt[:, f, None], Rt[:, f, None])
            found = ok.any(axis=1)
            pick = ok.argmax(axis=1)
            rr = np.arange(todo.size)
            done = todo[found]
            L[done, slot] = lane[rr, pick][found]
            R[done, slot] = row[rr, pick][found]
            todo = todo[~found]
            if todo.size == 0:
                break
    _set(s, g, lane=L, row=R, marked=False, offence_formation=fo, defence_formation=fd)


_OFF_OFFSETS = np.array([f.offsets for f in OFFENCE], dtype=np.int64)  # [formation, 7, 2] (lane, row)
_DEF_OFFSETS = np.array([f.offsets for f in DEFENCE], dtype=np.int64)


def _start_play(s: State, g, fd) -> None:
    """The defence's formation: line up, then the snap (ruling 9), the offence's first part."""
    if g.size == 0:
        return
    line_up(s, g, s.offence_formation[g], fd)
    off = s.offence[g].astype(np.int64)
    _set(s, g, phase=PLAY, to_act=off, poss=off, limits=True, forward_thrown=False, loose_lateral=False)
    _new_turn(s, g, 1)  # the snap is the offence's first part
    # the centre has the ball on the LOS ...
    _set(s, g, turns=0, entered_by=-1, holder=1, ball_lane=s.lane[g, 1], ball_row=s.row[g, 1])
    d = _dice(s, g, 2, "snap")
    missed = d.sum(axis=1) == 2  # ... and laterals it to the QB: missed only on a 2 (1 in 36)
    s.event[g] = np.where(missed, EV["missed snap"], EV["snap"])
    ok = g[~missed]
    s.holder[ok] = 6
    _ball_to(s, ok, s.lane[ok, 6], s.row[ok, 6], s.offence[ok])
    gm = g[missed]
    if gm.size:
        _missed_lateral_from(s, gm, np.full(gm.size, 6), s.offence[gm], (d[missed] == 2).any(axis=1))


def _ball_to(s: State, g, lane, row, team) -> None:
    """The ball moves to (lane, row) by ``team``'s action: ``entered_by`` follows (ruling 15)."""
    if g.size == 0:
        return
    old = _region(s.ball_row[g].astype(np.int64))
    new = _region(np.asarray(row, dtype=np.int64))
    s.entered_by[g] = np.where(new == 0, -1, np.where(new != old, team, s.entered_by[g]))
    s.ball_lane[g] = lane
    s.ball_row[g] = row


def _slot_team(s: State, g, slot):
    off = s.offence[g].astype(np.int64)
    return np.where(np.asarray(slot) >= 7, 1 - off, off)


def _check_touchdown(s: State, g) -> np.ndarray:
    """A holder in the opponent's end zone scores (ruling 14). Returns the mask of games that go on."""
    if g.size == 0:
        return np.zeros(0, dtype=bool)
    h = s.holder[g].astype(np.int64)
    team = _slot_team(s, g, np.maximum(h, 0))
    fr = _frame(team, s.ball_row[g].astype(np.int64))
    td = (h >= 0) & (fr > _CTX.config.field_rows)
    _touchdown(s, g[td], team[td])
    return ~td


# --- fumbles and missed laterals (rulings 23, 24) ---------------------------------------------------------

def _fumble_from(s: State, g, lane, row, view_team, two, lateral) -> None:
    """The ball flies from (lane, row) by the number wheel as ``view_team`` sees it, 2 squares if ``two``
    else 1; the team with the ball (``poss``) is the fumbling team. The scrimmage limits end."""
    if g.size == 0:
        return
    w = _draw(s, g, 8, 1, "number wheel")[:, 0]
    al, ar = _fly_path(np.asarray(view_team, dtype=np.int64), np.asarray(lane, dtype=np.int64),
                       np.asarray(row, dtype=np.int64), w, np.where(two, 2, 1))
    s.limits[g] = False
    s.holder[g] = -1
    s.loose_lateral[g] = lateral
    _land(s, g, al, ar)


def _missed_lateral_from(s: State, g, receiver, passer_team, two) -> None:
    """A missed lateral: a fumble from the intended receiver, the wheel as the passing team sees it."""
    s.event[g] = EV["missed lateral"]
    r = np.asarray(receiver, dtype=np.int64)
    _fumble_from(s, g, s.lane[g, r].astype(np.int64), s.row[g, r].astype(np.int64), passer_team, two, True)


def _land(s: State, g, lane, row) -> None:
    """Where a flying ball comes down (ruling 24); ``poss`` is the fumbling team."""
    cfg = _CTX.config
    F = cfg.field_rows
    ft = s.poss[g].astype(np.int64)
    fr = _frame(ft, row)
    side_out = (lane < 0) | (lane >= cfg.lanes)
    end_out = (row < 0) | (row >= cfg.rows)
    own_out = (end_out & (fr <= 0)) | (side_out & ~end_out & (fr <= 0))
    opp_out = (end_out & (fr > F)) | (side_out & ~end_out & (fr > F))
    side_field = side_out & ~end_out & ~own_out & ~opp_out
    s.event[g[own_out | opp_out | side_field]] = EV["out of bounds"]
    _safety(s, g[own_out], ft[own_out])
    _finish(s, g[opp_out], 0, 1 - ft[opp_out], TOUCHBACK_ROW, _clip(lane[opp_out], 0, cfg.lanes - 1))
    _ball_dead(s, g[side_field], ft[side_field], fr[side_field], _clip(lane[side_field], 0, cfg.lanes - 1))
    on = ~(own_out | opp_out | side_field)
    g, lane, row, ft = g[on], lane[on], row[on], ft[on]
    if g.size == 0:
        return
    _ball_to(s, g, lane, row, ft)
    here = (s.lane[g] == lane[:, None]) & (s.row[g] == row[:, None])
    count = here.sum(axis=1)
    two = count >= 2
    if two.any():  # two marked pieces: a die each, ties rolled again; the ball is dead (ruling 24)
        gt = g[two]
        winner_off = np.zeros(gt.size, dtype=bool)
        todo = np.arange(gt.size)
        while todo.size:
            d = _draw(s, gt[todo], 6, 2, "recovery dice") + 1
            s.dice[gt[todo], 0], s.dice[gt[todo], 1], s.dice[gt[todo], 2] = d[:, 0], d[:, 1], 0
            winner_off[todo] = d[:, 0] > d[:, 1]  # die 0: the offence's (slots 0-6)
            todo = todo[d[:, 0] == d[:, 1]]
        off = s.offence[gt].astype(np.int64)
        team = np.where(winner_off, off, 1 - off)
        s.event[gt] = EV["dead ball"]
        _finish(s, gt, 0, team, _frame(team, row[two]), lane[two])
    one = count == 1
    if one.any():
        go = g[one]
        p = here[one].argmax(axis=1)
        _pick_up(s, go, p)


def _pick_up(s: State, g, slot) -> None:
    """Slot ``slot`` picks up the ball on its square (a marked piece loses its marker). A defensive piece
    picking up a missed lateral ends the play at once (ruling 23); otherwise play goes on, a holder in the
    opponent's end zone scoring."""
    slot = np.asarray(slot, dtype=np.int64)
    team = _slot_team(s, g, slot)
    lateral = s.loose_lateral[g].copy()
    changed = team != s.poss[g]
    s.holder[g] = slot
    s.marked[g, slot] = False
    s.poss[g] = team
    s.loose_lateral[g] = False
    s.limits[g[changed]] = False
    s.event[g[changed]] = EV["turnover"]
    go = _check_touchdown(s, g)
    turn = go & lateral & changed
    gt = g[turn]
    if gt.size:
        tm = team[turn]
        fr = _frame(tm, s.ball_row[gt].astype(np.int64))
        own_ez = fr <= 0  # a missed lateral picked up in the picker's own end zone: a touchback
        _finish(s, gt, 0, tm, np.where(own_ez, TOUCHBACK_ROW, fr), s.ball_lane[gt])


# --- the play phase: steps, tackles, passes ---------------------------------------------------------------

def _apply_steps(s: State, g, slot_local, wheel) -> None:
    """One step of piece ``slot_local`` (the acting side's local slot) in direction ``wheel`` (0-7) in each
    game of ``g`` (all legal, checked against the mask): the move's bookkeeping, pushes, the loose ball,
    the carrier's ball, tackles. What the step does is read off the squares directly (no board grid)."""
    team = s.to_act[g].astype(np.int64)
    n = g.size
    rows = np.arange(n)
    side = team != s.offence[g]
    own_base = np.where(side, 7, 0)
    opp_base = 7 - own_base
    sl = np.asarray(slot_local, dtype=np.int64)
    w = np.asarray(wheel, dtype=np.int64)
    slot = own_base + sl
    sg = _sign(team).astype(np.int64)
    L, R = s.lane[g].astype(np.int64), s.row[g].astype(np.int64)
    fl, fr = L[rows, slot], R[rows, slot]
    tl, tr = fl + sg * DL[w], fr + sg * DR[w]
    holder = s.holder[g].astype(np.int64)
    opp_cols = (np.arange(N_PIECES)[None, :] >= 7) != side[:, None]
    opp_occ = (L == tl[:, None]) & (R == tr[:, None]) & opp_cols
    has_opp = opp_occ.any(axis=1)
    k = opp_occ.argmax(axis=1)
    tackle = has_opp & (k == holder)
    push = has_opp & ~tackle
    # the move's bookkeeping (ruling 9): a new piece is a new part of the accomplished move
    new = s.active[g] != slot
    gn = g[new]
    s.parts[gn] += 1
    s.moved[gn] |= _BITS[slot[new]]
    s.active[gn] = slot[new]
    s.steps_left[gn] = LOCAL_ALLOW[sl[new]]
    s.steps_left[g] -= 1
    if push.any():  # the pushed piece moves one square on in the step's direction; the push ends the move
        gp = g[push]
        kp = k[push]
        s.lane[gp, kp] = tl[push] + sg[push] * DL[w[push]]
        s.row[gp, kp] = tr[push] + sg[push] * DR[w[push]]
        s.steps_left[gp] = 0
    adj_tackle = np.zeros(n, dtype=bool)
    single = IS_SINGLE[sl]
    if single.any():  # a stepping Single pushes the Triples / QB beside it, or tackles the carrier
        for q in (5, 6):
            qg = opp_base + q
            ddl = L[rows, qg] - tl
            ddr = R[rows, qg] - tr
            a = single & (np.abs(ddl) <= 1) & (np.abs(ddr) <= 1) & ((ddl != 0) | (ddr != 0))
            carrier = qg == holder
            adj_tackle |= a & carrier
            pq = a & ~carrier
            if pq.any():
                ga = g[pq]
                s.lane[ga, qg[pq]] = L[pq, qg[pq]] + ddl[pq]
                s.row[ga, qg[pq]] = R[pq, qg[pq]] + ddr[pq]
    s.lane[g, slot] = tl
    s.row[g, slot] = tr
    carrier_moves = slot == holder
    gc = g[carrier_moves]
    _ball_to(s, gc, tl[carrier_moves], tr[carrier_moves], team[carrier_moves])
    tk = tackle | adj_tackle
    s.steps_left[g[tk]] = 0
    # the loose ball: the first piece onto its square picks it up (ruling 24)
    pick = (holder < 0) & (s.ball_lane[g] == tl) & (s.ball_row[g] == tr)
    go = np.ones(n, dtype=bool)
    if pick.any():
        gp = g[pick]
        _pick_up(s, gp, slot[pick])
        go[pick] = s.phase[gp] == PLAY
    if carrier_moves.any():
        go[carrier_moves] &= _check_touchdown(s, gc)
    tk &= go
    if tk.any():
        gt = g[tk]
        _tackle(s, gt, slot[tk], holder[tk], fl[tk], fr[tk])
        go[tk] = (s.phase[gt] == PLAY) & (s.to_act[gt] == team[tk])
    gg = g[go]
    done = s.steps_left[gg] <= 0
    s.active[gg[done]] = -1
    s.steps_left[gg[done]] = 0
    _maybe_end_turn(s, gg)


def _maybe_end_turn(s: State, g) -> None:
    """The accomplished move is done (two parts, no piece still moving): the other side's turn."""
    if g.size == 0:
        return
    done = (s.phase[g] == PLAY) & (s.parts[g] >= 2) & (s.active[g] < 0)
    _end_turn(s, g[done])


def _end_turn(s: State, g) -> None:
    """Turns alternate (ruling 9); the play ends after the round cap or two consecutive idle turns."""
    if g.size == 0:
        return
    idle = s.parts[g] == 0
    s.idle[g] = np.where(idle, s.idle[g] + 1, 0)
    s.turns[g] += 1
    s.to_act[g] = 1 - s.to_act[g]
    idle_count = s.idle[g].copy()
    _new_turn(s, g)
    s.idle[g] = idle_count
    over = (s.idle[g] >= 2) | (s.turns[g] >= 2 * _CTX.config.max_rounds)
    go = g[over]
    s.event[go] = EV["dead ball"]
    _dead_where_it_is(s, go)


def _tackle(s: State, g, tackler, carrier, from_lane, from_row) -> None:
    """The defence rolls 2d6 (ruling 11): 4 a fumble, 7 a miss (the tackler back where it stepped from,
    marked), any other total the tackle stands."""
    d = _dice(s, g, 2, "tackle")
    total = d.sum(axis=1)
    fum = total == 4
    miss = total == 7
    gm = g[miss]
    s.lane[gm, tackler[miss]] = from_lane[miss]
    s.row[gm, tackler[miss]] = from_row[miss]
    s.marked[gm, tackler[miss]] = True
    s.event[gm] = EV["missed tackle"]
    gs = g[~fum & ~miss]
    s.event[gs] = EV["tackle"]
    _dead_where_it_is(s, gs)
    gf = g[fum]
    if gf.size:
        s.event[gf] = EV["fumble"]
        s.marked[gf, tackler[fum]] = True
        s.marked[gf, carrier[fum]] = True
        c = carrier[fum]
        _fumble_from(s, gf, s.lane[gf, c].astype(np.int64), s.row[gf, c].astype(np.int64), s.poss[gf],
                     (d[fum, 0] == 2) & (d[fum, 1] == 2), False)


def _pass(s: State, g, target_local) -> None:
    """The holder places the ball on teammate ``target_local`` (ruling 20): a part of the move; the
    defence may then try an interception (ruling 22), else the completion roll."""
    team = s.to_act[g].astype(np.int64)
    side = team != s.offence[g]
    j = np.where(side, 7, 0) + np.asarray(target_local, dtype=np.int64)
    h = s.holder[g].astype(np.int64)
    jl, jr = s.lane[g, j].astype(np.int64), s.row[g, j].astype(np.int64)
    forward = (jr - s.row[g, h]) * _sign(team) > 0  # toward the opponent's goal
    s.parts[g] += 1
    s.active[g] = -1
    s.steps_left[g] = 0
    s.forward_thrown[g] |= forward
    s.pass_from[g] = h
    s.pass_to[g] = j
    s.pass_forward[g] = forward
    opp = np.where(side, 0, 7)[:, None] + np.arange(7)
    close = _close_to(np.take_along_axis(s.lane[g], opp, 1), np.take_along_axis(s.row[g], opp, 1),
                      np.take_along_axis(s.marked[g], opp, 1), jl, jr, SLOT_TYPE_A[j])
    s.pass_close[g] = close.any(axis=1)
    cand = _interception_candidates(s, g, team, h, j)
    can = cand.any(axis=1)
    gi = g[can]
    s.phase[gi] = INTERCEPTION
    s.to_act[gi] = 1 - team[can]
    _completion(s, g[~can])


def _completion(s: State, g) -> None:
    """The offence's completion roll (ruling 21): complete, the receiver holds the ball and play goes on;
    an incomplete forward pass ends the play (ruling 23); a missed lateral is a fumble from the receiver."""
    if g.size == 0:
        return
    cfg = _CTX.config
    h = s.pass_from[g].astype(np.int64)
    j = s.pass_to[g].astype(np.int64)
    team = _slot_team(s, g, h)
    s.phase[g] = PLAY
    s.to_act[g] = team
    dist = np.maximum(np.abs(s.lane[g, j].astype(np.int64) - s.lane[g, h]),
                      np.abs(s.row[g, j].astype(np.int64) - s.row[g, h]))
    need = completion_need(np.minimum(dist, MAX_DISTANCE_QB), s.pass_close[g], cfg)
    d = _dice(s, g, 2, "completion")
    ok = d.sum(axis=1) >= need
    forward = s.pass_forward[g]
    s.pass_from[g] = -1
    s.pass_to[g] = -1
    gc = g[ok]
    s.event[gc] = EV["complete"]
    s.holder[gc] = j[ok]
    _ball_to(s, gc, s.lane[gc, j[ok]], s.row[gc, j[ok]], team[ok])
    go = _check_touchdown(s, gc)
    _maybe_end_turn(s, gc[go])
    inc = ~ok & forward
    gi = g[inc]
    _incomplete(s, gi, s.row[gi, j[inc]])
    ml = ~ok & ~forward
    gm = g[ml]
    if gm.size:
        _missed_lateral_from(s, gm, j[ml], team[ml], (d[ml] == 2).any(axis=1))
        _after_loose(s, gm)


def _after_loose(s: State, g) -> None:
    """After a ball came loose or changed hands in the acting side's turn: still in play, the move goes on
    (a side that gains the ball finishes its turn as the side with the ball, ruling 24)."""
    if g.size == 0:
        return
    gp = g[s.phase[g] == PLAY]
    _maybe_end_turn(s, gp)


def _intercept(s: State, g, slot_local, wheel) -> None:
    """The interception step and roll (ruling 22): 7 a miss (marked; the completion roll follows), 4 the
    ball knocked away, any other total an interception (possession changes at once)."""
    team = s.to_act[g].astype(np.int64)  # the defence
    sl_ = np.asarray(slot_local, dtype=np.int64)
    w = np.asarray(wheel, dtype=np.int64)
    slot = np.where(team != s.offence[g], 7, 0) + sl_
    sg = _sign(team).astype(np.int64)
    s.lane[g, slot] = s.lane[g, slot] + sg * DL[w]
    s.row[g, slot] = s.row[g, slot] + sg * DR[w]
    d = _dice(s, g, 2, "interception")
    total = d.sum(axis=1)
    miss = total == 7
    knock = total == 4
    got = ~miss & ~knock
    gm = g[miss]
    s.marked[gm, slot[miss]] = True
    s.event[gm] = EV["missed interception"]
    _completion(s, gm)
    forward = s.pass_forward[g]
    gk = g[knock & forward]
    s.event[gk] = EV["knocked away"]
    _incomplete(s, gk, s.row[gk, s.pass_to[gk].astype(np.int64)])
    kl = knock & ~forward
    gl = g[kl]
    if gl.size:
        s.phase[gl] = PLAY
        s.to_act[gl] = 1 - team[kl]
        s.event[gl] = EV["knocked away"]
        s.pass_from[gl] = -1
        s.pass_to[gl] = -1
        sk = slot[kl]
        _fumble_from(s, gl, s.lane[gl, sk].astype(np.int64), s.row[gl, sk].astype(np.int64), team[kl],
                     (d[kl, 0] == 2) & (d[kl, 1] == 2), True)
        _after_loose(s, gl)
    gi = g[got]
    if gi.size:
        passer_team = 1 - team[got]
        s.event[gi] = EV["interception"]
        s.phase[gi] = PLAY
        s.holder[gi] = slot[got]
        s.poss[gi] = team[got]
        s.limits[gi] = False
        s.pass_from[gi] = -1
        s.pass_to[gi] = -1
        _ball_to(s, gi, s.lane[gi, slot[got]], s.row[gi, slot[got]], passer_team)
        # the new offence takes its move straight away
        s.to_act[gi] = team[got]
        _new_turn(s, gi)
        s.turns[gi] += 1
        _check_touchdown(s, gi)


# --- legal masks ------------------------------------------------------------------------------------------

def _phase_rows(cfg) -> dict:
    key = ("rows", cfg)
    t = _TABLES.get(key)
    if t is None:
        call = np.zeros(A.NUM_ACTIONS, dtype=bool)
        call[A.OFFENCE_BASE:A.OFFENCE_BASE + A.N_OFFENCE] = True
        call[A.PUNT_BASE:A.PUNT_BASE + 3] = True
        dcall = np.zeros(A.NUM_ACTIONS, dtype=bool)
        dcall[A.DEFENCE_BASE:A.DEFENCE_BASE + A.N_DEFENCE] = True
        kick = np.zeros(A.NUM_ACTIONS, dtype=bool)
        kick[[A.TAKE_FIRST_DOWN, A.RETURN]] = True
        fg_in_range = field_goal_distance(np.arange(cfg.field_rows + 1), cfg) <= cfg.max_field_goal
        t = _TABLES[key] = {"call": call, "dcall": dcall, "kick": kick, "fg": fg_in_range}
    return t


def _refresh(s: State, g) -> None:
    """Recompute to_act (outside plays) and the cached legal mask of games ``g``."""
    if g.size == 0:
        return
    cfg = _CTX.config
    T = _phase_rows(cfg)
    ph = s.phase[g]
    s.legal[g[ph != PLAY]] = False
    c = g[ph == OFFENCE_CALL]
    s.to_act[c] = s.offence[c]
    s.legal[c] = T["call"]
    s.legal[c, A.FIELD_GOAL] = T["fg"][s.los[c]]
    d = g[ph == DEFENCE_CALL]
    s.to_act[d] = 1 - s.offence[d]
    s.legal[d] = T["dcall"]
    k = g[ph == KICK_CHOICE]
    s.to_act[k] = s.offence[k]
    s.legal[k] = T["kick"]
    o = g[ph == GAME_OVER]
    s.to_act[o] = -1
    p = g[ph == PLAY]
    if p.size:
        _play_mask(s, p)
    i = g[ph == INTERCEPTION]
    if i.size:
        h, j = s.pass_from[i].astype(np.int64), s.pass_to[i].astype(np.int64)
        s.legal[i, :A.N_STEPS] = _interception_candidates(s, i, 1 - s.to_act[i].astype(np.int64), h, j)
        s.legal[i, A.DECLINE_INTERCEPTION] = True


def recompute_legal(state: State, config: TouchdownConfig | None = None) -> None:
    """In place: to_act (outside plays) and the legal mask of every game, from the rest of the state."""
    _CTX.config = _config(config)
    _refresh(state, np.arange(state.batch_size))


# --- step -------------------------------------------------------------------------------------------------

def step(state: State, actions, config: TouchdownConfig | None = None, chance=None,
         reuse_input: bool = False) -> State:
    """Apply one action per game and return the new state (the input is not changed, unless
    ``reuse_input``: then the caller gives the state up and it is updated in place).

    ``actions``: int array [batch] (a scalar for a batch of one). Finished games ignore their action.
    Raises IllegalActionError, changing nothing in any game, if any live game's action is illegal.
    """
    config = _config(config)
    if not isinstance(state, State):
        raise ValueError(f"state must be a touchdown State, got {type(state).__name__}")
    _check_board(state, config)
    from .diagram import to_diagram  # lazy: the diagram module imports this one

    a, over = checked_actions(state, actions, A.ACTION_NAMES, lambda st, game: to_diagram(st, game, config))
    s = state if reuse_input else state.copy()
    with _CTX.using(config, chance):
        live = np.flatnonzero(~over)
        _apply(s, live, a[live])
        s.steps[live] += 1
        capped = live[(s.steps[live] >= config.max_actions) & ~s.terminated[live]]
        if capped.size:  # the cap on actions (ruling 25): truncated, no result
            s.truncated[capped] = True
            s.phase[capped] = GAME_OVER
            _clear_board(s, capped)
        _refresh(s, live)
    return s


def _check_board(state: State, config: TouchdownConfig) -> None:
    """A state dealt on another board than the config's cannot be stepped (its squares would be misread)."""
    dealt = state.board[:, 0] != 0
    want = np.asarray(board_of(config), dtype=state.board.dtype)
    bad = np.flatnonzero(dealt & (state.board != want).any(axis=1))
    if bad.size:
        g = int(bad[0])
        raise ValueError(f"game {g} of the state was dealt on a board of {tuple(int(v) for v in state.board[g])} "
                         f"(lanes, field rows, hash band), the config's is {tuple(int(v) for v in want)}: "
                         "step it with its own config")


def _apply(s: State, live, a) -> None:
    """Each live game's action by the route of its phase and id (in a fixed order: a scripted chance
    source is read in call order)."""
    ph = s.phase[live]
    routed = [((ph == phase) & (a >= low) & (a < high), handler) for phase, low, high, handler in _ROUTES]
    for m, handler in routed:  # (the masks first: a handler changes the phases)
        if m.any():
            handler(s, live[m], a[m])


def _stop(s: State, g, a) -> None:
    """``stop``: the moving piece ends its move early."""
    _set(s, g, active=-1, steps_left=0)
    _maybe_end_turn(s, g)


def _call_formation(s: State, g, a) -> None:
    """The offence's formation: the defence calls next."""
    _set(s, g, offence_formation=a - A.OFFENCE_BASE, phase=DEFENCE_CALL)


# (phase, first id, last id + 1, handler(state, games, their actions)): every legal action of a phase
_ROUTES = (
    (PLAY, A.STEP_BASE, A.N_STEPS, lambda s, g, a: _apply_steps(s, g, a // 8, a % 8)),
    (PLAY, A.STOP, A.STOP + 1, _stop),
    (PLAY, A.END_TURN, A.END_TURN + 1, lambda s, g, a: _end_turn(s, g)),
    (PLAY, A.PASS_BASE, A.PASS_BASE + 7, lambda s, g, a: _pass(s, g, a - A.PASS_BASE)),
    (PLAY, A.DECLARE_SAFETY, A.DECLARE_SAFETY + 1, lambda s, g, a: _safety(s, g, s.poss[g].astype(np.int64))),
    (INTERCEPTION, A.STEP_BASE, A.N_STEPS, lambda s, g, a: _intercept(s, g, a // 8, a % 8)),
    (INTERCEPTION, A.DECLINE_INTERCEPTION, A.DECLINE_INTERCEPTION + 1, lambda s, g, a: _completion(s, g)),
    (OFFENCE_CALL, A.OFFENCE_BASE, A.OFFENCE_BASE + A.N_OFFENCE, _call_formation),
    (OFFENCE_CALL, A.PUNT_BASE, A.PUNT_BASE + 3, lambda s, g, a: _punt(s, g, a - A.PUNT_BASE)),
    (OFFENCE_CALL, A.FIELD_GOAL, A.FIELD_GOAL + 1, lambda s, g, a: _field_goal(s, g)),
    (DEFENCE_CALL, A.DEFENCE_BASE, A.DEFENCE_BASE + A.N_DEFENCE, lambda s, g, a: _start_play(s, g, a - A.DEFENCE_BASE)),
    (KICK_CHOICE, A.TAKE_FIRST_DOWN, A.RETURN + 1, lambda s, g, a: _kick_choice(s, g, a == A.TAKE_FIRST_DOWN)),
)
