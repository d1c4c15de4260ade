"""The Table Football rules engine: pure numpy functions over a struct of arrays (numpy only).

``init`` deals a batch of new games, ``step`` applies one decision per game; dice are drawn inside
``step`` from each game's own counter-based stream (``gridiron_env.core.chance``), or from an injected
chance source (``ScriptedChance`` in tests). Rulings are numbered as in RULINGS-table-football.md.
"""

from __future__ import annotations

import numpy as np

from ..core.chance import _GOLDEN, CounterChance, _mix
from ..small_games.engine import (
    IllegalActionError, StepContext, checked_actions, game_config, legal_action_mask, new_batch,
)
from . import actions as A
from .config import TableFootballConfig
from .state import (
    CHOOSE, DRAW, GAME_OVER, OOB_DEFENCE, OOB_OFFENCE, OVERTIME, RECOVERY, RUN, State,
    TIMEOUT_DEFENCE, TIMEOUT_OFFENCE,
)

__all__ = ["IllegalActionError", "init", "step", "legal_action_mask", "recompute_legal", "RESULTS"]

# --- the results table (ruling 5) and the box costs (ruling 10), by 2d6 total ------------------------------
GAIN, TOUCHDOWN_PASS, INTERCEPTION, FUMBLE = range(4)
RESULTS = {  # total: (name, kind, yards, boxes)
    2: ("touchdown pass", TOUCHDOWN_PASS, 0, 3),
    3: ("interception", INTERCEPTION, 10, 3),
    4: ("reverse", GAIN, 20, 3),
    5: ("sack", GAIN, -10, 3),
    6: ("draw play", GAIN, 5, 2),
    7: ("incomplete pass", GAIN, 0, 1),
    8: ("screen pass", GAIN, 5, 2),
    9: ("completed pass", GAIN, 25, 3),
    10: ("no gain", GAIN, 0, 2),
    11: ("fumble", FUMBLE, 0, 2),
    12: ("long pass", GAIN, 30, 3),
}
RESULT_KIND = np.zeros(13, dtype=np.int8)
RESULT_YARDS = np.zeros(13, dtype=np.int16)
RESULT_BOXES = np.zeros(13, dtype=np.int8)
for _t, (_n, _k, _y, _b) in RESULTS.items():
    RESULT_KIND[_t], RESULT_YARDS[_t], RESULT_BOXES[_t] = _k, _y, _b
GAINING_TOTALS = (4, 6, 8, 9, 12)  # the results that may go out of bounds (ruling 13)
RESULT_GAINING = np.isin(np.arange(13), GAINING_TOTALS)
SAFETY_BOXES = 2  # a sack into the end zone costs the safety's 2 boxes (ruling 10)
KICK_BOXES = 2  # a punt or a field-goal attempt (ruling 10)
TOUCHDOWN_POINTS, EXTRA_POINT_MIN, FIELD_GOAL_POINTS, SAFETY_POINTS = 6, 5, 3, 2
OWN_20 = 20  # where a possession after a score, a touchback or the opening starts (ruling 1)
WIN_ROLL = "high roll or tie"  # out of bounds and recovery: the side that asked wins on die >= other's


_CTX = StepContext()  # the config and chance source of the call in progress
_draw = _CTX.draw


def _two_dice(s: State, g, what):
    """Two dice as one draw of the 36 equally likely pairs: value v is the faces (v // 6 + 1, v % 6 + 1).
    int64 [n, 2] faces 1-6 (ScriptedChance takes v = 6 (first - 1) + (second - 1))."""
    v = _draw(s, g, 36, 1, what)[:, 0]
    return np.stack([v // 6 + 1, v % 6 + 1], axis=1)


# --- legal masks -------------------------------------------------------------------------------------------

def _legal_table():
    # [phase * 2 + last_down, action]
    t = np.zeros((2 * (GAME_OVER + 1), A.NUM_ACTIONS), dtype=bool)
    for last in (0, 1):
        t[CHOOSE * 2 + last, [A.RUN_PLAY, A.FIELD_GOAL]] = True
        t[CHOOSE * 2 + last, A.PUNT] = bool(last)  # punt on the last down only (ruling 4)
        t[RECOVERY * 2 + last, [A.DECLINE, A.CONTEST]] = True
        for ph in (OOB_OFFENCE, OOB_DEFENCE):
            t[ph * 2 + last, [A.DECLINE, A.OUT_OF_BOUNDS]] = True
        for ph in (TIMEOUT_OFFENCE, TIMEOUT_DEFENCE):
            t[ph * 2 + last, [A.DECLINE, A.TIME_OUT]] = True
    return t


_LEGAL = _legal_table()
# to_act by phase: 0 = offence, 1 = snap offence, 2 = snap defence, 3 = nobody
_DECIDER = np.array([0, 0, 1, 2, 1, 2, 3], dtype=np.int8)


def _refresh(s: State, g, config: TableFootballConfig) -> None:
    """Recompute to_act and the cached legal mask of games ``g`` from their phase."""
    ph = s.phase[g]
    who = _DECIDER[ph]
    snap = s.snap_offence[g]
    s.to_act[g] = np.where(who == 0, s.offence[g], np.where(who == 1, snap, np.where(who == 2, 1 - snap, -1)))
    s.legal[g] = _LEGAL[ph.astype(np.intp) * 2 + (s.down[g] >= config.downs)]


def _draw_one(s: State, scale, games=None) -> np.ndarray:
    """int64 [B] (or [len(games)]): each game's draw at its counter's position, uniform on 0..high-1, the
    value ``CounterChance`` gives there; the counters are not moved (the caller moves the games that draw).

    ``scale`` is high / 2**53 (a float, or one per game; high 6 or 36): the draw's 53 bits times it is the
    very product CounterChance rounds (bits * 2**-53 is exact, then times high), and for these highs it
    stays below high (the largest, (2**53 - 1) * high / 2**53, rounds down), so no clamp is needed."""
    if games is None:
        z = s.rng_counter * _GOLDEN
        z += s.rng_key
    else:
        z = s.rng_counter[games] * _GOLDEN
        z += s.rng_key[games]
    bits = _mix(z)
    bits >>= np.uint64(11)
    unit = bits.astype(np.float64)
    unit *= scale
    return unit.astype(np.int64)


_PAIR_SCALE = 36 / (1 << 53)  # _draw_one's scale of a pair of dice drawn as one value


_PAIR_TOTAL = np.arange(36) // 6 + np.arange(36) % 6 + 2  # a pair of dice drawn as one value: its total

# the team to act by phase * 4 + offence * 2 + snap offence: _DECIDER's rule as one table
_TO_ACT_BY_PHASE = np.array([(off, snap, 1 - snap, -1)[_DECIDER[ph]] for ph in range(GAME_OVER + 1)
                             for off in (0, 1) for snap in (0, 1)], dtype=np.int8)


def recompute_legal(state: State, config: TableFootballConfig | None = None) -> None:
    """In place: to_act and the legal mask of every game, from the rest of the state."""
    _refresh(state, np.arange(state.batch_size), config or TableFootballConfig())


# --- init --------------------------------------------------------------------------------------------------

def init(batch_size: int | None = None, seed: int = 0, config: TableFootballConfig | None = None,
         seeds=None, chance=None) -> State:
    """A batch of new games: game i draws from the stream of seed + i, or of ``seeds[i]`` when per-game
    seeds are given (then game i equals ``init(1, seeds[i])``). The coin toss (ruling 9) is the first draw."""
    config = _config(config)
    s = new_batch(State, batch_size, seed, seeds)
    g = np.arange(s.batch_size)
    with _CTX.using(config, chance):
        s.opener[:] = _draw(s, g, 2, 1, "coin toss")[:, 0]
    _new_series(s, g, s.opener, OWN_20)
    s.snap_offence[:] = s.opener
    if config.clock:
        s.quarter[:] = 1
        s.boxes[:] = config.quarter_boxes
        s.timeouts[:] = config.timeouts_per_half
    _refresh(s, g, config)
    return s


def _config(config) -> TableFootballConfig:
    return game_config(config, TableFootballConfig)


# --- possession and scoring ----------------------------------------------------------------------------------

def _new_series(s: State, g, team, position) -> None:
    """First and ten for ``team`` at ``position`` (its own frame) (ruling 3)."""
    s.offence[g] = team
    s.position[g] = position
    s.line_to_gain[g] = np.minimum(np.asarray(position) + 10, 100)
    s.down[g] = 1


def _end_game(s: State, g, winner) -> None:
    s.winner[g] = winner
    s.terminated[g] = True
    s.phase[g] = GAME_OVER


def _score(s: State, g, team, points) -> np.ndarray:
    """Add points; end the games where that wins (target reached, or any score in overtime). Returns the
    bool mask (over ``g``) of games that go on."""
    s.score[g, team] += points
    config = _CTX.config
    over = s.quarter[g] == OVERTIME  # sudden death: the first score wins at once (ruling 15)
    if config.target_on:
        over |= s.score[g, team] >= config.target_score  # ruling 9
    if over.any():
        _end_game(s, g[over], team[over])
    return ~over


def _touchdown(s: State, g) -> None:
    """6 points to the offence, then the extra point (2d6 >= 5, no decision), then the kickoff (ruling 8)."""
    if g.size == 0:
        return
    team = s.offence[g].astype(np.int64)
    going = _score(s, g, team, TOUCHDOWN_POINTS)
    g, team = g[going], team[going]
    if g.size == 0:
        return
    dice = _two_dice(s, g, "extra point")
    good = dice.sum(axis=1) >= EXTRA_POINT_MIN
    if good.any():
        going = np.ones(g.size, dtype=bool)
        going[good] = _score(s, g[good], team[good], 1)
        g, team = g[going], team[going]
    _new_series(s, g, 1 - team, OWN_20)


def _safety(s: State, g) -> None:
    """2 points to the defence, which then starts at its own 20 (ruling 8)."""
    if g.size == 0:
        return
    team = 1 - s.offence[g].astype(np.int64)
    going = _score(s, g, team, SAFETY_POINTS)
    _new_series(s, g[going], team[going], OWN_20)


def _turnover(s: State, g, spot) -> None:
    """The defence takes over first-and-ten at ``spot`` (offence's yards), in its own frame."""
    _new_series(s, g, 1 - s.offence[g], 100 - spot)


def _advance(s: State, g, new_position) -> None:
    """The ball ends a down of the same offence at ``new_position``: touchdown, safety, first down,
    turnover on downs or the next down (rulings 2, 3)."""
    td = new_position >= 100
    sf = new_position <= 0
    if td.any() or sf.any():
        _touchdown(s, g[td])
        _safety(s, g[sf])
        keep = ~(td | sf)
        g, new_position = g[keep], new_position[keep]
    first = new_position >= s.line_to_gain[g]
    last = ~first & (s.down[g] >= _CTX.config.downs)
    on = ~first & ~last
    if first.any():
        _new_series(s, g[first], s.offence[g[first]], new_position[first])
    if last.any():
        _turnover(s, g[last], new_position[last])
    go = g[on]
    s.position[go] = new_position[on]
    s.down[go] += 1


def _interception_spot_turnover(s: State, g) -> None:
    """The ball moves 10 yards, then the defence takes over there; at or past 100 a touchback (ruling 5)."""
    spot = s.position[g].astype(np.int16) + 10
    tb = spot >= 100
    _turnover(s, g, np.where(tb, 100 - OWN_20, spot))


# --- the offence's choices -------------------------------------------------------------------------------

def _run_play(s: State, g) -> None:
    dice = _two_dice(s, g, "play dice")
    s.last_roll[g] = dice
    total = dice.sum(axis=1)
    if _CTX.config.recovery_option:  # the team that lost the ball decides first (ruling 16)
        lost = (total == 3) | (total == 11)
        if lost.any():
            s.phase[g[lost]] = RECOVERY
            g, total = g[~lost], total[~lost]
    _apply_result(s, g, total)


def _apply_result(s: State, g, total) -> None:
    """Apply a play's result (ruling 5) and start its clock decisions."""
    kind = RESULT_KIND[total]
    cost = RESULT_BOXES[total].copy()
    pos = s.position[g].astype(np.int16)
    gain = kind == GAIN
    new_position = pos + RESULT_YARDS[total]
    cost[gain & (new_position <= 0)] = SAFETY_BOXES
    if gain.all():
        _advance(s, g, new_position)
    else:
        _advance(s, g[gain], new_position[gain])
        _touchdown(s, g[kind == TOUCHDOWN_PASS])
        _interception_spot_turnover(s, g[kind == INTERCEPTION])
        fumble = g[kind == FUMBLE]
        _turnover(s, fumble, s.position[fumble].astype(np.int16))
    _after_result(s, g, cost, RESULT_GAINING[total])


def _field_goal(s: State, g) -> None:
    die = _draw(s, g, 6, 1, "field goal die")[:, 0] + 1
    s.last_roll[g, 0], s.last_roll[g, 1] = die, 0
    pos = s.position[g].astype(np.int16)
    good = 10 * die >= 100 - pos  # ruling 7
    miss = g[~good]
    _turnover(s, miss, pos[~good])
    hit = g[good]
    if hit.size:
        team = s.offence[hit].astype(np.int64)
        going = _score(s, hit, team, FIELD_GOAL_POINTS)
        _new_series(s, hit[going], 1 - team[going], OWN_20)
    _after_result(s, g, np.full(g.size, KICK_BOXES, dtype=np.int8), np.zeros(g.size, dtype=bool))


def _punt(s: State, g) -> None:
    die = _draw(s, g, 6, 1, "punt die")[:, 0] + 1
    s.last_roll[g, 0], s.last_roll[g, 1] = die, 0
    spot = s.position[g].astype(np.int16) + 10 * die
    _turnover(s, g, np.where(spot >= 100, 100 - OWN_20, spot))  # touchback at the receiver's 20 (ruling 6)
    _after_result(s, g, np.full(g.size, KICK_BOXES, dtype=np.int8), np.zeros(g.size, dtype=bool))


def _recovery(s: State, g, contest) -> None:
    """The team that lost the ball contests (both roll 1d6, it keeps the ball on a high roll or a tie) or
    declines (ruling 16). Kept: the down counts as played at the spot, the interception's yards not applied."""
    total = s.last_roll[g].sum(axis=1).astype(np.int64)
    s.phase[g] = CHOOSE
    kept = np.zeros(g.size, dtype=bool)
    if contest.any():
        dice = _two_dice(s, g[contest], "recovery dice")  # [loser's die, other's die]
        kept[contest] = dice[:, 0] >= dice[:, 1]
    cost = RESULT_BOXES[total]
    keep = g[kept]
    _advance(s, keep, s.position[keep].astype(np.int16))
    lost = g[~kept]
    t = total[~kept]
    _interception_spot_turnover(s, lost[t == INTERCEPTION_TOTAL])
    fum = lost[t == FUMBLE_TOTAL]
    _turnover(s, fum, s.position[fum].astype(np.int16))
    _after_result(s, g, cost, np.zeros(g.size, dtype=bool))


INTERCEPTION_TOTAL, FUMBLE_TOTAL = 3, 11


# --- the clock (rulings 10-15) ---------------------------------------------------------------------------

def _after_result(s: State, g, cost, gaining) -> None:
    """A result is on the board: the next down (basic game) or the clock decisions, in ruling 11's order."""
    going = ~s.terminated[g]
    g = g[going]
    if not _CTX.config.clock:
        s.phase[g] = CHOOSE
        return
    s.pending_cost[g] = cost[going]
    _seek(s, g, np.where(gaining[going], OOB_OFFENCE, TIMEOUT_OFFENCE))


def _seek(s: State, g, stage) -> None:
    """Move games ``g`` to their next open clock decision from ``stage`` on, or run the clock.

    An out-of-bounds request is open to the offence after a gaining play (then to the defence if the
    offence declines); a time-out is offered to a side with one left only when the play costs more than
    one box (a time-out that saves nothing is never offered)."""
    if g.size == 0:
        return
    snap = s.snap_offence[g].astype(np.int64)
    saves = s.pending_cost[g] > 1
    oob = stage == OOB_OFFENCE
    off_to = ~oob & (stage <= TIMEOUT_OFFENCE) & saves & (s.timeouts[g, snap] > 0)
    def_to = ~oob & ~off_to & (stage <= TIMEOUT_DEFENCE) & saves & (s.timeouts[g, 1 - snap] > 0)
    s.phase[g] = np.where(oob, OOB_OFFENCE, np.where(off_to, TIMEOUT_OFFENCE, TIMEOUT_DEFENCE))
    _run_clock(s, g[~(oob | off_to | def_to)])


def _ask_out_of_bounds(s: State, g, asker_is_offence: bool) -> None:
    """Both roll 1d6; the side that asked wins on a high roll or a tie: the play costs 1 box less, at
    least 1 (ruling 13)."""
    dice = _two_dice(s, g, "out of bounds dice")  # [asker's die, other's die]
    won = dice[:, 0] >= dice[:, 1]
    s.pending_cost[g] = np.where(won, np.maximum(s.pending_cost[g] - 1, 1), s.pending_cost[g])
    _seek(s, g, np.full(g.size, TIMEOUT_OFFENCE))


def _time_out(s: State, g, team) -> None:
    """The play costs 1 box instead of its cost (ruling 12)."""
    s.timeouts[g, team] -= 1
    s.pending_cost[g] = 1
    _run_clock(s, g)


def _run_clock(s: State, g) -> None:
    """Mark the pending boxes off: the two-minute warning (ruling 11), the end of a quarter (rulings 11, 14, 15)."""
    if g.size == 0:
        return
    config = _CTX.config
    cost = s.pending_cost[g].astype(np.int16)
    s.pending_cost[g] = 0
    s.phase[g] = CHOOSE
    boxes = s.boxes[g]
    left = boxes - cost
    w = config.two_minute_boxes
    if w > 0:
        q = s.quarter[g]
        warn = ((q == 2) | (q == 4)) & (boxes > w) & (left < w)
        left = np.where(warn, w, left)
    s.boxes[g] = np.maximum(left, 0)
    ended = left <= 0
    if ended.any():
        _end_quarter(s, g[ended])


def _end_quarter(s: State, g) -> None:
    config = _CTX.config
    q = s.quarter[g]
    s.boxes[g] = config.quarter_boxes
    carry = (q == 1) | (q == 3)  # possession carries over (ruling 14)
    s.quarter[g[carry]] += 1
    half = g[q == 2]
    if half.size:  # the second half: the team that did not open, at its own 20; time-outs reset (ruling 14)
        s.quarter[half] = 3
        s.timeouts[half] = config.timeouts_per_half
        _new_series(s, half, 1 - s.opener[half], OWN_20)
    full = g[q == 4]
    if full.size:  # ruling 15: the higher score wins; tied, a sudden-death quarter
        diff = s.score[full, 0].astype(np.int32) - s.score[full, 1]
        decided = diff != 0
        _end_game(s, full[decided], np.where(diff[decided] > 0, 0, 1))
        tied = full[~decided]
        if tied.size:
            s.quarter[tied] = OVERTIME
            s.timeouts[tied] = config.overtime_timeouts
            receiver = _draw(s, tied, 2, 1, "overtime coin toss")[:, 0]
            _new_series(s, tied, receiver, OWN_20)
    ot = g[q == OVERTIME]
    if ot.size:  # still tied after the extra quarter: a draw (ruling 15)
        s.boxes[ot] = 0
        _end_game(s, ot, DRAW)



# --- the table-driven path ---------------------------------------------------------------------------------
#
# A play's result depends only on the field state (position, line to gain, down), the choice and the dice,
# and a clock decision's effect only on the phase, the decision, the box cost and which sides have a
# time-out left. The tables below hold every such effect, so a step is a few gathers over the batch (and a
# few rule functions on the rare games where a quarter ends or an extra point is tried). ``FAST_PATH = False``
# sends every step through the rule functions above (the tests play both paths side by side).

FAST_PATH = True
# outcome columns: 0 no result (the field stays), 2-12 a run's 2d6 total, 13-18 a field goal's die, 19-24 a
# punt's die, 25 / 26 the team that lost the ball keeps it after an interception / a fumble (ruling 16: the
# down counts as played at the spot, the 7's 0-yard result)
_N_OUTCOMES = 27
KEPT_INTERCEPTION, KEPT_FUMBLE = 25, 26


def _basic_tables(downs: int):
    cells = 21 * 21 * (downs + 1)
    node = np.full(cells, -1, dtype=np.int64)
    pos, ltg, dwn = [], [], []
    for k in range(1, downs + 1):
        for p in range(5, 100, 5):
            lines = [min(p + 10, 100)] if k == 1 else range(p + 5, min(100, p + 10 * k) + 1, 5)
            for L in lines:
                node[(p // 5 * 21 + L // 5) * (downs + 1) + k] = len(pos)
                pos.append(p), ltg.append(L), dwn.append(k)
    n = len(pos)

    def first(p):
        return node[(p // 5 * 21 + min(p + 10, 100) // 5) * (downs + 1) + 1]

    nxt = np.zeros((n, _N_OUTCOMES), dtype=np.int64)
    flip = np.zeros((n, _N_OUTCOMES), dtype=np.int8)
    own = np.zeros((n, _N_OUTCOMES), dtype=np.int16)  # points to the team on offence (6 = a touchdown)
    other = np.zeros((n, _N_OUTCOMES), dtype=np.int16)
    for f in range(n):
        p, L, k = pos[f], ltg[f], dwn[f]

        def out(o, nn, fl, ds=0, do=0):
            nxt[f, o], flip[f, o], own[f, o], other[f, o] = nn, fl, ds, do

        out(0, f, 0)  # no result: the field stays
        out(1, f, 0)  # (no 2d6 total: unused)
        for t in range(2, 13):
            kind = RESULT_KIND[t]
            if kind == TOUCHDOWN_PASS:
                out(t, first(OWN_20), 1, TOUCHDOWN_POINTS)
            elif kind == INTERCEPTION:
                q = p + 10
                out(t, first(OWN_20 if q >= 100 else 100 - q), 1)
            elif kind == FUMBLE:
                out(t, first(100 - p), 1)
            else:
                q = p + int(RESULT_YARDS[t])
                if q >= 100:
                    out(t, first(OWN_20), 1, TOUCHDOWN_POINTS)
                elif q <= 0:
                    out(t, first(OWN_20), 1, 0, SAFETY_POINTS)
                elif q >= L:
                    out(t, first(q), 0)
                elif k == downs:
                    out(t, first(100 - q), 1)
                else:
                    out(t, node[(q // 5 * 21 + L // 5) * (downs + 1) + k + 1], 0)
        for d in range(1, 7):
            if 10 * d >= 100 - p:
                out(12 + d, first(OWN_20), 1, FIELD_GOAL_POINTS)
            else:
                out(12 + d, first(100 - p), 1)
            q = p + 10 * d
            out(18 + d, first(OWN_20 if q >= 100 else 100 - q), 1)
        for kept in (KEPT_INTERCEPTION, KEPT_FUMBLE):
            out(kept, nxt[f, 7], flip[f, 7])
    return {"node": node, "pos": np.array(pos, dtype=np.int8), "ltg": np.array(ltg, dtype=np.int8),
            "down": np.array(dwn, dtype=np.int8), "next": nxt.ravel(), "flip": flip.ravel(), "own": own.ravel(),
            "other": other.ravel()}


_TABLES: dict = {}


def _play_rows(s: State, config: TableFootballConfig):
    """(the play tables of ``config.downs``, int [B]: each game's first entry in them, its field node x
    _N_OUTCOMES; add an outcome column to read a result)."""
    t = _TABLES.get(config.downs)
    if t is None:
        t = _TABLES[config.downs] = _basic_tables(config.downs)
    cell = s.position.astype(np.intp)
    cell //= 5
    cell *= 21
    cell += s.line_to_gain // 5
    cell *= config.downs + 1
    cell += s.down
    k = t["node"].take(cell)
    k *= _N_OUTCOMES
    return t, k


# the clock key's decision events (with the phase they are taken in)
EV_NONE, EV_RESULT, EV_GAINING_RESULT, EV_ASK_LOST, EV_ASK_WON, EV_DECLINE, EV_TIME_OUT, EV_LOST_BALL = range(8)
NO_DECISION = A.NUM_ACTIONS  # the action column of a finished game (its action is ignored)
_DIE_WINS = np.arange(36) // 6 >= np.arange(36) % 6  # a pair drawn as one value: the first die >= the second


class _Columns:
    """The whole-column step's tables for one (downs, recovery option, clock) setting.

    Indexes: ``kk = (offence * nodes + field node) * _N_OUTCOMES + outcome`` (a play's effect);
    ``pa = phase * 8 + action`` (action NO_DECISION = 7: a finished game) and ``pav = pa * 36 + draw``
    (the decision and the step's draw); the clock key ``phase * 256 + event * 32 + box cost * 8 + snap
    offence * 4 + team one has a time-out * 2 + team two has one``."""

    def __init__(self, downs: int, recovery: bool, clock: bool):
        b = _basic_tables(downs)
        n, O = b["pos"].size, _N_OUTCOMES
        # the field node of (offence, position, line to gain, down), as its first kk
        cell = np.zeros((2, 101, 101, downs + 1), dtype=np.int64)
        for off in (0, 1):
            cell[off, b["pos"], b["ltg"], b["down"]] = (off * n + np.arange(n)) * O
        self.cell = cell.ravel()
        # a play's effect, by kk
        off = np.repeat(np.array([0, 1], dtype=np.int8), n * O)
        nxt, own, other = np.tile(b["next"], 2), np.tile(b["own"], 2), np.tile(b["other"], 2)
        self.offence = off ^ np.tile(b["flip"], 2)
        self.position, self.ltg, self.down = b["pos"][nxt], b["ltg"][nxt], b["down"][nxt]
        rows = np.arange(2 * n * O)
        points = np.zeros((2 * n * O, 2), dtype=np.int16)  # to [team one, team two], laid out as a score row
        points[rows, off] = own
        points[rows, 1 - off] = other
        self.points16 = points
        self.points = points.view(np.int32)[:, 0]  # one add per game updates both scores
        self.touchdown = own == TOUCHDOWN_POINTS  # the extra point follows (ruling 8)
        col = np.tile(np.arange(O), 2 * n)
        col_cost = np.zeros(O, dtype=np.int8)  # the result's boxes (ruling 10)
        col_cost[2:13] = RESULT_BOXES[2:13]
        col_cost[13:25] = KICK_BOXES
        col_cost[KEPT_INTERCEPTION] = RESULT_BOXES[INTERCEPTION_TOTAL]
        col_cost[KEPT_FUMBLE] = RESULT_BOXES[FUMBLE_TOTAL]
        # a sack into the end zone costs the safety's boxes (ruling 10)
        self.cost = np.where(other == SAFETY_POINTS, SAFETY_BOXES, col_cost[col]).astype(np.int8)
        gaining = np.zeros(O, dtype=bool)  # may go out of bounds (ruling 13)
        gaining[2:13] = RESULT_GAINING[2:13]
        self.result_event = np.where(col == 0, EV_NONE, np.where(gaining[col], EV_GAINING_RESULT, EV_RESULT)) * 32
        # the decision and the step's draw, by pa and pav
        pa = np.arange(7 * 8)
        ph, act = pa // 8, pa % 8
        choose = ph == CHOOSE
        kick = choose & ((act == A.FIELD_GOAL) | (act == A.PUNT))
        # the draw's scale: a kick's die (6) or a pair of dice as one value (36), times 2**-53 (_draw_one)
        self.high = np.where(kick, 6.0, 36.0) / (1 << 53)
        draws = choose & np.isin(act, (A.RUN_PLAY, A.FIELD_GOAL, A.PUNT))
        draws |= (ph == RECOVERY) & (act == A.CONTEST)
        draws |= ((ph == OOB_OFFENCE) | (ph == OOB_DEFENCE)) & (act == A.OUT_OF_BOUNDS)
        self.draws = draws.astype(np.uint64)
        v = np.arange(36)
        first, second = v // 6 + 1, v % 6 + 1
        outcome = np.zeros((7, 8, 36), dtype=np.int64)
        event = np.zeros((7, 8, 36), dtype=np.int64)
        roll = np.zeros((7, 8, 36, 2), dtype=np.int8)  # last_roll of the offence's choice
        total = first + second
        lost = np.isin(total, (INTERCEPTION_TOTAL, FUMBLE_TOTAL)) & recovery  # ruling 16
        outcome[CHOOSE, A.RUN_PLAY] = np.where(lost, 0, total)
        event[CHOOSE, A.RUN_PLAY] = np.where(lost, EV_LOST_BALL, EV_NONE)
        roll[CHOOSE, A.RUN_PLAY] = np.stack([first, second], axis=1)
        for action, base in ((A.FIELD_GOAL, 12), (A.PUNT, 18)):  # the die is v + 1 (v < 6)
            outcome[CHOOSE, action] = base + np.minimum(v, 5) + 1
            roll[CHOOSE, action, :, 0] = np.minimum(v, 5) + 1
        for phase in (OOB_OFFENCE, OOB_DEFENCE):  # the asker's die first: it wins on a high roll or a tie
            event[phase, A.OUT_OF_BOUNDS] = np.where(_DIE_WINS, EV_ASK_WON, EV_ASK_LOST)
            event[phase, A.DECLINE] = EV_DECLINE
        for phase in (TIMEOUT_OFFENCE, TIMEOUT_DEFENCE):
            event[phase, A.TIME_OUT] = EV_TIME_OUT
            event[phase, A.DECLINE] = EV_DECLINE
        self.outcome = outcome.ravel()  # a recovery decision's outcome depends on its roll: set in the step
        self.event = (np.arange(7)[:, None, None] * 256 + event * 32).ravel()
        self.last_roll = np.ascontiguousarray(roll.reshape(-1, 2)).view(np.int16)[:, 0]
        self._clock_key_tables(clock)

    def _clock_key_tables(self, clock: bool) -> None:
        """The clock decisions (rulings 11-13), by clock key: the next phase, the pending box cost, the boxes
        marked off (the clock runs), the time-out taken (a score row of 0/1). Without the clock, a result
        goes to the next choice."""
        size = 7 * 256
        phase = np.zeros(size, dtype=np.int8)
        pending = np.zeros(size, dtype=np.int8)
        boxes = np.zeros(size, dtype=np.int16)
        timeout = np.zeros((size, 2), dtype=np.int8)
        for key in range(size):
            ph, ev, p = key // 256, key // 32 % 8, key // 8 % 4
            snap, has = key // 4 % 2, (key // 2 % 2, key % 2)

            def seek(stage, cost):
                # the next open decision from ``stage`` on (``_seek``), or the clock runs
                if stage == OOB_OFFENCE:
                    return OOB_OFFENCE, cost, 0
                if stage <= TIMEOUT_OFFENCE and cost > 1 and has[snap]:
                    return TIMEOUT_OFFENCE, cost, 0
                if stage <= TIMEOUT_DEFENCE and cost > 1 and has[1 - snap]:
                    return TIMEOUT_DEFENCE, cost, 0
                return CHOOSE, 0, cost

            out = (ph, p, 0)
            if ev == EV_LOST_BALL:
                out = (RECOVERY, p, 0)
            elif not clock:
                if ev in (EV_RESULT, EV_GAINING_RESULT):
                    out = (CHOOSE, p, 0)
            elif ev == EV_RESULT:
                out = seek(TIMEOUT_OFFENCE, p)
            elif ev == EV_GAINING_RESULT:
                out = seek(OOB_OFFENCE, p)
            elif ev == EV_ASK_LOST:
                out = seek(TIMEOUT_OFFENCE, p)
            elif ev == EV_ASK_WON:  # the play costs 1 box less, at least 1 (ruling 13)
                out = seek(TIMEOUT_OFFENCE, max(p - 1, 1))
            elif ev == EV_DECLINE:
                out = {OOB_OFFENCE: (OOB_DEFENCE, p, 0), OOB_DEFENCE: seek(TIMEOUT_OFFENCE, p),
                       TIMEOUT_OFFENCE: seek(TIMEOUT_DEFENCE, p), TIMEOUT_DEFENCE: (CHOOSE, 0, p)}.get(ph, out)
            elif ev == EV_TIME_OUT and ph in (TIMEOUT_OFFENCE, TIMEOUT_DEFENCE):  # the play costs 1 box (ruling 12)
                timeout[key, snap if ph == TIMEOUT_OFFENCE else 1 - snap] = 1
                out = (CHOOSE, 0, 1)
            phase[key], pending[key], boxes[key] = out
        self.clock_phase, self.clock_pending, self.clock_boxes = phase, pending, boxes
        self.clock_timeout = timeout.view(np.int16)[:, 0]  # one subtraction per game takes it off its team


_COLUMNS: dict = {}


def _columns(config: TableFootballConfig) -> _Columns:
    key = (config.downs, config.recovery_option, config.clock)
    t = _COLUMNS.get(key)
    if t is None:
        t = _COLUMNS[key] = _Columns(*key)
    return t


def _pair_view(a: np.ndarray, dtype) -> np.ndarray:
    """The [B, 2] field ``a`` as one ``dtype`` value a game (both entries in one add); ``a`` must be
    C-contiguous (every State's fields are: the batch operations copy)."""
    return a.view(dtype)[:, 0]


_ONE_POINT = np.array([[1, 0], [0, 1]], dtype=np.int16).view(np.int32)[:, 0]  # the extra point, by team


def _step_columns(s: State, a, live, all_live: bool, config: TableFootballConfig) -> None:
    """One decision in every live game (bool mask ``live`` [B]) on whole columns, from the tables: the same
    games as the rule functions (a test plays both side by side), with draws from each game's own stream
    (CounterChance only). Every game is computed; a finished game's decision column is NO_DECISION, which
    changes nothing (no draw, no result, its phase kept)."""
    t = _columns(config)
    for name in ("score", "timeouts", "last_roll"):  # (a field set from outside may be a strided view)
        if not getattr(s, name).flags.c_contiguous:
            setattr(s, name, np.ascontiguousarray(getattr(s, name)))
    ph = s.phase
    pa = ph.astype(np.intp)
    pa <<= 3
    pa += a if all_live else np.where(live, a, NO_DECISION)
    # the step's one draw (ruling 4's dice, a kick's die, a contest's or an out-of-bounds request's dice),
    # counted where the decision draws
    v = _draw_one(s, t.high.take(pa))
    s.rng_counter += t.draws.take(pa)
    pav = pa * 36
    pav += v
    outcome = t.outcome.take(pav)
    choose = ph == CHOOSE
    if not all_live:
        choose &= live
    off = s.offence
    # the offence's choice (ruling 4): the down's roles, its count, its dice
    np.putmask(s.snap_offence, choose, off)  # (putmask: a masked copy at a third of copyto's cost)
    s.plays += choose
    np.putmask(s.last_play, choose, a.astype(np.int8))
    np.putmask(_pair_view(s.last_roll, np.int16), choose, t.last_roll.take(pav))
    if config.recovery_option:
        rec = np.flatnonzero(ph == RECOVERY)  # (a finished game is never in this phase)
        if rec.size:  # the team that lost the ball contests or declines (ruling 16)
            fumble = s.last_roll[rec, 0] + s.last_roll[rec, 1] == FUMBLE_TOTAL
            kept = (a[rec] == A.CONTEST) & _DIE_WINS.take(v[rec])
            outcome[rec] = np.where(kept, np.where(fumble, KEPT_FUMBLE, KEPT_INTERCEPTION),
                                    np.where(fumble, FUMBLE_TOTAL, INTERCEPTION_TOTAL))
    kk = off.astype(np.intp)
    kk *= 101
    kk += s.position
    kk *= 101
    kk += s.line_to_gain
    kk *= config.downs + 1
    kk += s.down
    kk = t.cell.take(kk)
    kk += outcome
    points = t.points.take(kk)
    score = _pair_view(s.score, np.int32)
    score += points
    result = outcome != 0
    # a score that ends the game: the target where it is on (ruling 9), any in overtime (ruling 15)
    ended = None
    target = config.target_score
    if config.target_on:
        ended = (s.score[:, 0] >= target) | (s.score[:, 1] >= target)
        ended &= result
    if config.clock:
        sudden = (s.quarter == OVERTIME) & (points != 0)
        ended = sudden if ended is None else ended | sudden
    td = t.touchdown.take(kk)
    if ended is not None:
        td &= ~ended
    td = np.flatnonzero(td)
    if td.size:  # the extra point, unless the touchdown already won (ruling 8): the pair's total >= 5
        pair = _draw_one(s, _PAIR_SCALE, td)
        s.rng_counter[td] += np.uint64(1)
        good = td[_PAIR_TOTAL.take(pair) >= EXTRA_POINT_MIN]
        team = off[good].astype(np.intp)
        score[good] += _ONE_POINT.take(team)
        if config.target_on:
            ended[good] |= s.score[good, team] >= target
    e = None
    field = kk
    if ended is not None and ended.any():  # a finished game keeps its field (as the rule functions leave it)
        e = np.flatnonzero(ended)
        field = kk.copy()
        field[e] -= outcome[e]
    if config.clock or config.recovery_option:
        key = t.event.take(pav)
        key += t.result_event.take(field)
        if config.clock:
            cost = np.where(result, t.cost.take(field), s.pending_cost)
            cost <<= 3
            has = (s.timeouts[:, 0] > 0).view(np.int8) << 1
            has += s.timeouts[:, 1] > 0
            cost += has
            cost += s.snap_offence << 2
            key += cost
            s.pending_cost[...] = t.clock_pending.take(key)
            _pair_view(s.timeouts, np.int16)[...] -= t.clock_timeout.take(key)
            # mark the boxes off (ruling 11): the two-minute warning stops the clock at w boxes in the 2nd and
            # 4th quarters (a floor of w while more than w are left), a quarter ends at 0
            boxes = s.boxes
            marked = t.clock_boxes.take(key)
            left = boxes - marked
            w = config.two_minute_boxes
            if w > 0:
                q = s.quarter
                warn = (q == 2) | (q == 4)
                warn &= boxes > w
                np.maximum(left, w, out=left, where=warn)
            np.maximum(left, 0, out=left)
            ends = left == 0
            ends &= marked > 0  # the clock ran out
            boxes[...] = left
        s.phase[...] = t.clock_phase.take(key)
    s.offence[...] = t.offence.take(field)
    s.position[...] = t.position.take(field)
    s.line_to_gain[...] = t.ltg.take(field)
    s.down[...] = t.down.take(field)
    if e is not None:
        # the team that scored wins
        _end_game(s, e, (t.points16[kk[e], 0] == 0).astype(np.int8))
    if config.clock:
        ends = np.flatnonzero(ends)
        if ends.size:
            _end_quarter(s, ends)


def _refresh_columns(s: State, config: TableFootballConfig) -> None:
    """``_refresh`` of every game on whole columns (a finished game is in GAME_OVER: all False, -1)."""
    ph = s.phase
    legal = s.legal
    choose = ph == CHOOSE
    legal[:, A.RUN_PLAY] = choose
    legal[:, A.FIELD_GOAL] = choose
    choose &= s.down >= config.downs  # punt on the last down only (ruling 4)
    legal[:, A.PUNT] = choose
    if config.clock or config.recovery_option:
        rec = ph == RECOVERY
        oob = (ph == OOB_OFFENCE) | (ph == OOB_DEFENCE)
        to = (ph == TIMEOUT_OFFENCE) | (ph == TIMEOUT_DEFENCE)
        legal[:, A.CONTEST] = rec
        legal[:, A.OUT_OF_BOUNDS] = oob
        legal[:, A.TIME_OUT] = to
        rec |= oob
        rec |= to
        legal[:, A.DECLINE] = rec
    who = ph << 2
    who += s.offence << 1
    who += s.snap_offence
    s.to_act[...] = _TO_ACT_BY_PHASE.take(who)


_PAIRS: dict = {}


def _pairs(n: int) -> np.ndarray:
    """0, 2, 4, ...: the flat index of team one's entry of each game in a [n, 2] array."""
    p = _PAIRS.get(n)
    if p is None:
        p = _PAIRS[n] = np.arange(n, dtype=np.intp) * 2
    return p


def _step_basic(s: State, a, live, config: TableFootballConfig) -> None:
    """One play in every live game (bool mask ``live`` [B]) of the basic game without the recovery option,
    from the play tables, with an injected chance source (``_step_columns`` serves the games' own streams):
    the dice drawn by choice (every run's pair, then the field goals' and the punts' dice), then the extra
    points. Also sets to_act and the legal mask; only the live games' values are written."""
    t, k = _play_rows(s, config)
    B = s.batch_size
    all_live = bool(live.all())
    a = a if all_live else np.where(live, a, A.RUN_PLAY)
    first = np.zeros(B, dtype=np.intp)
    second = np.zeros(B, dtype=np.intp)
    for action, what, base in ((A.RUN_PLAY, "play dice", 0), (A.FIELD_GOAL, "field goal die", 12),
                               (A.PUNT, "punt die", 18)):
        gg = np.flatnonzero((a == action) & live)
        if gg.size:
            if action == A.RUN_PLAY:
                dice = _two_dice(s, gg, what)
                first[gg], second[gg] = dice[:, 0], dice[:, 1]
                k[gg] += dice[:, 0] + dice[:, 1]
            else:
                die = _draw(s, gg, 6, 1, what)[:, 0] + 1
                first[gg] = die
                k[gg] += base + die
    np.copyto(s.last_roll[:, 0], first, casting="unsafe", where=True if all_live else live)
    np.copyto(s.last_roll[:, 1], second, casting="unsafe", where=True if all_live else live)
    np.copyto(s.last_play, a, casting="unsafe", where=True if all_live else live)
    s.plays += live
    own = t["own"].take(k)
    other = t["other"].take(k)
    off = s.offence.astype(np.intp)
    flat = s.score.reshape(-1)  # [team one, team two] of each game, side by side
    at_own = _pairs(B) + off
    at_other = at_own ^ 1
    own_score = flat.take(at_own) + own
    other_score = flat.take(at_other) + other
    target = config.target_score
    td = np.flatnonzero((own == TOUCHDOWN_POINTS) & (own_score < target) & live)
    if td.size:  # the extra point, unless the touchdown already won (ruling 9)
        own_score[td] += _two_dice(s, td, "extra point").sum(axis=1) >= EXTRA_POINT_MIN
    if all_live:
        flat[at_own] = own_score
        flat[at_other] = other_score
    else:
        flat[at_own[live]] = own_score[live]
        flat[at_other[live]] = other_score[live]
    won = own_score >= target
    ended = (won | (other_score >= target)) & live
    np.copyto(s.snap_offence, s.offence, where=True if all_live else live)
    nn = t["next"].take(k)
    new_off = off ^ t["flip"].take(k)
    going = live & ~ended
    if ended.any():  # a finished game keeps its last field state (as the rule functions leave it)
        e = np.flatnonzero(ended)
        _end_game(s, e, np.where(won[e], off[e], 1 - off[e]))
        s.to_act[e] = -1
        s.legal[e] = False
        mask = going
    else:
        mask = True if all_live else live
    np.copyto(s.offence, new_off, casting="unsafe", where=mask)
    np.copyto(s.position, t["pos"].take(nn), where=mask)
    np.copyto(s.line_to_gain, t["ltg"].take(nn), where=mask)
    down = t["down"].take(nn)
    np.copyto(s.down, down, where=mask)
    np.copyto(s.to_act, new_off, casting="unsafe", where=mask)
    # a live game chooses again: run and field goal stay legal, the punt only on the last down
    np.copyto(s.legal[:, A.PUNT], down >= config.downs, where=mask)



# --- step ------------------------------------------------------------------------------------------------

def step(state: State, actions, config: TableFootballConfig | None = None, chance=None,
         reuse_input: bool = False) -> State:
    """Apply one action per game and return the new state (the input is not changed, unless
    ``reuse_input``: then the caller gives the state up and it is updated in place).

    ``actions``: int array [batch] (a scalar for a batch of one). Finished games ignore their action.
    Raises IllegalActionError, changing nothing, if any live game's action is illegal.
    """
    config = _config(config)
    a, over = checked_actions(state, actions, A.ACTION_NAMES, _diagram)
    live_mask = ~over
    all_live = bool(live_mask.all())
    s = state if reuse_input else state.copy()
    with _CTX.using(config, chance):
        if FAST_PATH and type(_CTX.chance) is CounterChance:
            _step_columns(s, a, live_mask, all_live, config)
            s.steps += live_mask
            capped = s.plays >= config.max_plays
            capped &= s.phase == CHOOSE  # (a finished game is in GAME_OVER)
            if capped.any():  # the cap on plays: truncated with no winner, once the last play is settled
                s.truncated[capped] = True
                s.phase[capped] = GAME_OVER
            _refresh_columns(s, config)
        elif FAST_PATH and not config.clock and not config.recovery_option:
            _step_basic(s, a, live_mask, config)
            s.steps += live_mask
            capped = np.flatnonzero((s.plays >= config.max_plays) & live_mask & ~s.terminated)
            if capped.size:  # the cap on plays: truncated with no winner
                s.truncated[capped] = True
                s.phase[capped] = GAME_OVER
                _refresh(s, capped, config)
        else:
            live = np.arange(state.batch_size) if all_live else np.flatnonzero(live_mask)
            _apply(s, live, a[live], config)
            s.steps[live] += 1
            capped = live[(s.plays[live] >= config.max_plays) & (s.phase[live] == CHOOSE)]
            if capped.size:  # the cap on plays: truncated with no winner, once the last play is settled
                s.truncated[capped] = True
                s.phase[capped] = GAME_OVER
            _refresh(s, live, config)
    return s


def _apply(s: State, live, a, config) -> None:
    ph = s.phase[live]
    if not config.clock and not config.recovery_option:
        choose_run = a == A.RUN_PLAY
        g = live
    else:
        choose = ph == CHOOSE
        g = live[choose]
        choose_run = a[choose] == A.RUN_PLAY
    if g.size:
        # the offence's choice (ruling 4): every play gets its roles and its count
        s.snap_offence[g] = s.offence[g]
        s.plays[g] += 1
        if choose_run.all():
            s.last_play[g] = RUN
            _run_play(s, g)
        else:
            ag = a[ph == CHOOSE] if g.size != live.size else a
            s.last_play[g] = ag
            _run_play(s, g[choose_run])
            _field_goal(s, g[ag == A.FIELD_GOAL])
            _punt(s, g[ag == A.PUNT])
    if g.size == live.size:
        return
    rec = ph == RECOVERY
    if rec.any():
        _recovery(s, live[rec], a[rec] == A.CONTEST)
    for phase, asker_offence in ((OOB_OFFENCE, True), (OOB_DEFENCE, False)):
        m = ph == phase
        if m.any():
            ask = a[m] == A.OUT_OF_BOUNDS
            gm = live[m]
            _ask_out_of_bounds(s, gm[ask], asker_offence)
            declined = gm[~ask]
            if asker_offence:
                s.phase[declined] = OOB_DEFENCE
            else:
                _seek(s, declined, np.full(declined.size, TIMEOUT_OFFENCE))
    for phase in (TIMEOUT_OFFENCE, TIMEOUT_DEFENCE):
        m = ph == phase
        if m.any():
            call = a[m] == A.TIME_OUT
            gm = live[m]
            snap = s.snap_offence[gm[call]].astype(np.int64)
            _time_out(s, gm[call], snap if phase == TIMEOUT_OFFENCE else 1 - snap)
            declined = gm[~call]
            if phase == TIMEOUT_OFFENCE:
                _seek(s, declined, np.full(declined.size, TIMEOUT_DEFENCE))
            else:
                _run_clock(s, declined)


def _diagram(state: State, game: int) -> str:
    from .diagram import to_diagram  # lazy: the diagram module imports this one

    return to_diagram(state, game)
