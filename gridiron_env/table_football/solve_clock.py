"""The exact solver of the clock version (ruling 17): backward induction over the boxes.

Every play costs at least one box, so the values of a box depend only on later boxes: one backward pass
over the overtime quarter, then the 4th, 3rd, 2nd and 1st quarters is exact. A state at the offence's
choice is (quarter q, boxes left b, score difference d of the team on offence, field node f, its
time-outs to, the other's td, and in the first half h = 1 if it opened the game). The difference is
capped: d beyond +-diff_cap counts as +-diff_cap (``test_table_football_solve`` shows the cap moves no
start value by more than 1e-9). Tied at the end of the 4th quarter the value is exactly 1/2 (the overtime
coin toss makes the two teams' chances mirror images), so overtime values matter only inside overtime,
where every score wins at once and d is 0.

The clock decisions after a result (rulings 11-13) are worked out inside each transition from the values
of later boxes: the out-of-bounds requests (the roll is the same whoever asks, so whoever gains from it
asks), then the offence's time-out, then the defence's. ``ClockSolution`` stores the values at the
offence's choice and works the other phases out the same way when asked.
"""

from __future__ import annotations

import numpy as np

from . import actions as A
from .config import TableFootballConfig
from .model import ASKER_WINS, FLIP, REC, SAME, build_model
from .solve import Solution, _recovery_kind
from .state import (
    CHOOSE, OOB_DEFENCE, OOB_OFFENCE, OVERTIME, PHASE_NAMES, RECOVERY, State, TIMEOUT_DEFENCE, TIMEOUT_OFFENCE,
)

DEFAULT_DIFF_CAP = 60  # points; see the module docstring
OWN_20_POSITION = 20


class _Clock:
    """Value lookups over the stored tables: V12 [2, QB, nd, F, NT, NT, 2], V34 [2, QB, nd, F, NT, NT],
    VOT [QB, F, NTo, NTo]."""

    def __init__(self, config: TableFootballConfig, cap: int, V12, V34, VOT):
        self.config, self.cap = config, cap
        self.m = build_model(config.downs, config.recovery_option)
        self.V12, self.V34, self.VOT = V12, V34, VOT
        self.QB = config.quarter_boxes
        self.NT = config.timeouts_per_half + 1
        self.NTo = config.overtime_timeouts + 1
        self.first20 = int(self.m.first(OWN_20_POSITION))

    # -- values at the offence's choice ----------------------------------------------------------------------
    def choose_value(self, q, b, d, f, to, td, h):
        """Value for the team on offence at its choice: quarter q (1-5), boxes left b (1..QB), the rest as
        in the tables; all arrays (or scalars) broadcast together, one gather per table."""
        args = np.broadcast_arrays(*(np.asarray(x, dtype=np.int64) for x in (q, b, d, f, to, td, h)))
        shape = args[0].shape
        q, b, d, f, to, td, h = (x.ravel() for x in args)
        out = np.empty(q.size)
        D, nt = self.cap, self.NT - 1
        di = np.clip(d, -D, D) + D
        to_h, td_h = np.clip(to, 0, nt), np.clip(td, 0, nt)
        for sel, table, first_q in ((q <= 2, self.V12, 1), ((q == 3) | (q == 4), self.V34, 3)):
            if sel.any():
                idx = (q[sel] - first_q, b[sel] - 1, di[sel], f[sel], to_h[sel], td_h[sel])
                out[sel] = table[idx + ((np.clip(h[sel], 0, 1),) if first_q == 1 else ())]
        sel = q == OVERTIME
        if sel.any():
            nto = self.NTo - 1
            out[sel] = self.VOT[b[sel] - 1, f[sel], np.clip(to[sel], 0, nto), np.clip(td[sel], 0, nto)]
        return out.reshape(shape)

    # -- running the clock ------------------------------------------------------------------------------------
    def after_clock(self, q, b, c, rel, dn, fn, ton, tdn, hn):
        """Value for the down's offence after ``c`` boxes are marked off from (q, b), the next down snapped
        by the same team (rel SAME) or the other (FLIP) with (dn, fn, ton, tdn, hn) in its own terms; all
        arrays (or scalars) broadcast together."""
        args = np.broadcast_arrays(*(np.asarray(x, dtype=np.int64) for x in (q, b, c, rel, dn, fn, ton, tdn, hn)))
        shape = args[0].shape
        q, b, c, rel, dn, fn, ton, tdn, hn = (x.ravel() for x in args)
        W = self.config.two_minute_boxes
        left = b - c
        if W > 0:  # the two-minute warning (ruling 11)
            left = np.where(((q == 2) | (q == 4)) & (b > W) & (left < W), W, left)
        v = np.empty(q.size)
        sel = left > 0
        if sel.any():
            v[sel] = self.choose_value(q[sel], left[sel], dn[sel], fn[sel], ton[sel], tdn[sel], hn[sel])
        ends = ~sel
        sel = ends & ((q == 1) | (q == 3))  # possession carries over (ruling 14)
        if sel.any():
            v[sel] = self.choose_value(q[sel] + 1, self.QB, dn[sel], fn[sel], ton[sel], tdn[sel], hn[sel])
        sel = ends & (q == 2)
        if sel.any():  # the second half: the team that did not open receives, time-outs reset
            full = self.NT - 1
            recv = self.choose_value(3, self.QB, dn[sel], self.first20, full, full, 0)
            kick = 1.0 - self.choose_value(3, self.QB, -dn[sel], self.first20, full, full, 0)
            v[sel] = np.where(hn[sel] == 1, kick, recv)
        sel = ends & (q == 4)  # the higher score wins; tied: the overtime coin toss, worth exactly 1/2
        v[sel] = np.where(dn[sel] > 0, 1.0, np.where(dn[sel] < 0, 0.0, 0.5))
        v[ends & (q == OVERTIME)] = 0.5  # overtime ends tied: a draw
        return np.where(rel == SAME, v, 1.0 - v).reshape(shape)

    def post_result(self, q, b, d, to_o, to_d, h, rel, fn, ds, do, cost, gain):
        """Value for the down's offence of a result on the board (the extra point done): its clock
        decisions (rulings 11-13), the clock, and the next down. ``q``, ``b`` (the time), ``d``, ``to_o``,
        ``to_d``, ``h`` are the down's offence's; the rest describe the result (model entries); all
        broadcast together."""
        q, rel = np.asarray(q), np.asarray(rel)
        flip = rel == FLIP
        d1 = np.asarray(d) + np.asarray(ds) - np.asarray(do)
        dn = np.where(flip, -d1, d1)
        hn = np.where(q <= 2, np.where(flip, 1 - np.asarray(h), h), 0)  # the opener flag: first half only
        to_o, to_d = np.asarray(to_o), np.asarray(to_d)
        cost = np.asarray(cost)

        def nv(c_arr, a_o, a_d):
            ton = np.where(flip, a_d, a_o)
            tdn = np.where(flip, a_o, a_d)
            return self.after_clock(q, b, c_arr, rel, dn, fn, ton, tdn, hn)

        A0 = nv(cost, to_o, to_d)
        Co = nv(1, np.maximum(to_o - 1, 0), to_d)
        Cd = nv(1, to_o, np.maximum(to_d - 1, 0))

        def todec(x, c):
            dfn = np.where((to_d > 0) & (c > 1), np.minimum(x, Cd), x)
            return np.where((to_o > 0) & (c > 1), np.maximum(dfn, Co), dfn)

        y0 = todec(A0, cost)
        gain = np.asarray(gain)
        if gain.any():
            c1 = np.maximum(cost - 1, 1)
            y1 = todec(nv(np.where(gain, c1, cost), to_o, to_d), c1)
            ask = ASKER_WINS * y1 + (1 - ASKER_WINS) * y0
            decline_off = np.minimum(y0, ask)  # the defence asks if that lowers the offence's value
            y0 = np.where(gain, np.maximum(ask, decline_off), y0)
        sudden = q == OVERTIME  # sudden death: any score wins at once (ruling 15)
        if sudden.any():
            ds, do = np.asarray(ds), np.asarray(do)
            y0 = np.where(sudden & (ds > 0), 1.0, np.where(sudden & (do > 0), 0.0, y0))
        return y0


def _left_aligned(ent, sel):
    """Columns of ``ent`` [N, K] where ``sel``, moved left in each row: [N, K'] (-1 padding)."""
    order = np.argsort(~sel, axis=1, kind="stable")
    ent = np.where(np.take_along_axis(sel, order, axis=1), np.take_along_axis(ent, order, axis=1), -1)
    k = int(sel.sum(axis=1).max()) if sel.size else 0
    return ent[:, :k]


def _groups(m, nodes, action):
    """The outcome entries of (node, action) rows split by (box cost, gaining), so that each group runs
    the clock by one number of boxes: ([(cost, gain, ent [N, K])], recovery entries [N, K] or None,
    legal [N])."""
    rows = m.node_rows[nodes, action]
    ent = np.where(rows[:, None] >= 0, m.row_entries[np.maximum(rows, 0)], -1)
    e = np.maximum(ent, 0)
    valid = ent >= 0
    rec = valid & (m.e_rel[e] == REC)
    groups = []
    for cost in (1, 2, 3):
        for gain in (False, True):
            sel = valid & ~rec & (m.e_cost[e] == cost) & (m.e_gain[e] == gain)
            if sel.any():
                groups.append((cost, gain, _left_aligned(ent, sel)))
    return groups, (_left_aligned(ent, rec) if rec.any() else None), rows >= 0


class _Layout:
    """Flat index of (difference, node, time-outs of the team with the ball, of the other, opener flag) in
    a quarter's value array [nd, N, nt, nt, H]."""

    def __init__(self, cap, n, nt, H):
        self.cap, self.n, self.nt, self.H = cap, n, nt, H
        self.shape = (2 * cap + 1, n, nt, nt, H)

    def index(self, d, f, to, td, h):
        c, n, nt, H = self.cap, self.n, self.nt, self.H
        return ((((np.clip(d, -c, c) + c) * n + f) * nt + to) * nt + td) * H + (h if H == 2 else 0)


def _lookups(lay: _Layout, ent, m, gd, gto, gtd, gh):
    """Time-independent gather indices of a group's lookups (A: no time-out, Co / Cd: a time-out of the
    offence / the defence), the flip mask (the other team snaps next), and the scoring masks."""
    e = np.maximum(ent, 0)[None, :, :, None, None, None]
    flip = m.e_rel[e] == FLIP
    d1 = gd + m.e_ds[e] - m.e_do[e]
    dn = np.where(flip, -d1, d1)
    hn = np.where(flip, 1 - gh, gh) if lay.H == 2 else 0 * gh
    f = m.e_f[e]
    out = {}
    for name, a_o, a_d in (("A", gto, gtd), ("Co", np.maximum(gto - 1, 0), gtd), ("Cd", gto, np.maximum(gtd - 1, 0))):
        out[name] = lay.index(dn, f, np.where(flip, a_d, a_o), np.where(flip, a_o, a_d), hn)
    return out, flip, (m.e_ds[e] + m.e_do[e]) > 0, m.e_ds[e] > 0


def _prepare(m, lay: _Layout, rec_lay: _Layout, grid, plan, extra=None):
    """The gathers of every (action, outcome group) of ``plan`` (``_groups`` per action) over the solver
    states of ``grid`` (d, own time-outs, other's, opener flag, broadcast as [nd, 1, 1, nt, nt, H]): per action
    ([(cost, gain, chances, lookups[, extra(ent, e, lookups)])], the recovery part (chances, indices into
    ``rec_lay``) or None, legal [nodes])."""
    gd, gto, gtd, gh = grid
    out = []
    for groups, rec, legal in plan:
        gl = []
        for cost, gain, ent in groups:
            e = np.maximum(ent, 0)[None, :, :, None, None, None]
            prob = np.where((ent >= 0)[None, :, :, None, None, None], m.e_prob[e], 0.0)
            lookups = _lookups(lay, ent, m, gd, gto, gtd, gh)
            gl.append((cost, gain, prob, lookups) + ((extra(ent, e, lookups),) if extra else ()))
        rec_part = None
        if rec is not None:
            e = np.maximum(rec, 0)[None, :, :, None, None, None]
            prob = np.where((rec >= 0)[None, :, :, None, None, None], m.e_prob[e], 0.0)
            rnode = np.where(rec >= 0, m.e_f[np.maximum(rec, 0)] - m.n_fields, 0)[None, :, :, None, None, None]
            rec_part = (prob, rec_lay.index(gd, rnode, gto, gtd, gh))
        out.append((gl, rec_part, legal))
    return out


def _induction(config: TableFootballConfig, cap: int, progress=None):
    m = build_model(config.downs, config.recovery_option)
    F, QB = m.n_fields, config.quarter_boxes
    NT, NTo = config.timeouts_per_half + 1, config.overtime_timeouts + 1
    W = config.two_minute_boxes
    nd = 2 * cap + 1
    V12 = np.zeros((2, QB, nd, F, NT, NT, 2))
    V34 = np.zeros((2, QB, nd, F, NT, NT))
    VOT = np.zeros((QB, F, NTo, NTo))
    clk = _Clock(config, cap, V12, V34, VOT)
    f20 = clk.first20
    plan = [_groups(m, np.arange(F), a) for a in (A.RUN_PLAY, A.FIELD_GOAL, A.PUNT)]
    rec_plan = [_groups(m, F + np.arange(2 * F), a) for a in (A.DECLINE, A.CONTEST)] \
        if config.recovery_option else []
    for kind in ("ot", "34", "12"):  # backward in time: overtime, the second half, the first half
        qc = 0 if kind == "ot" else cap  # overtime goes on only while tied
        nt = NTo if kind == "ot" else NT
        H = 2 if kind == "12" else 1
        lay, rec_lay = _Layout(qc, F, nt, H), _Layout(qc, 2 * F, nt, H)
        d = np.arange(-qc, qc + 1)
        gd = d[:, None, None, None, None, None]
        gto = np.arange(nt)[None, None, None, :, None, None]
        gtd = np.arange(nt)[None, None, None, None, :, None]
        gh = np.arange(H)[None, None, None, None, None, :]
        has_o, has_d = gto > 0, gtd > 0

        grid = (gd, gto, gtd, gh)
        prepared, rec_prepared = (_prepare(m, lay, rec_lay, grid, p) for p in (plan, rec_plan))
        for q in {"ot": (OVERTIME,), "34": (4, 3), "12": (2, 1)}[kind]:
            for b in range(1, QB + 1):
                targets = {c: _target(clk, q, b, c, W, lay, d, f20) for c in (1, 2, 3)}

                def group_value(cost, gain, prob, lk):
                    idx, flip, scoring, won = lk

                    def look(c, name):
                        v = targets[c].take(idx[name])
                        return np.where(flip, 1.0 - v, v)

                    co, cdv = look(1, "Co"), look(1, "Cd")

                    def todec(x, c):  # the offence's time-out, else the defence's (ruling 12)
                        if c <= 1:
                            return x
                        dfn = np.where(has_d, np.minimum(x, cdv), x)
                        return np.where(has_o, np.maximum(dfn, co), dfn)

                    y0 = todec(look(cost, "A"), cost)
                    if gain:  # out of bounds: the roll is the same whoever asks (ruling 13)
                        c1 = max(cost - 1, 1)
                        ask = ASKER_WINS * todec(look(c1, "A"), c1) + (1 - ASKER_WINS) * y0
                        y0 = np.maximum(ask, np.minimum(y0, ask))
                    if q == OVERTIME:  # sudden death
                        y0 = np.where(scoring, np.where(won, 1.0, 0.0), y0)
                    return (y0 * prob).sum(axis=2)

                def values(prep, rec_value=None):
                    out = []
                    for gl, rec_part, legal in prep:
                        total = sum(group_value(*g) for g in gl)
                        if rec_part is not None:
                            prob, ridx = rec_part
                            total = total + (rec_value.take(ridx) * prob).sum(axis=2)
                        out.append(np.where(legal[None, :, None, None, None], total, -np.inf))
                    return out

                rec_value = np.maximum(*values(rec_prepared)).ravel() if rec_prepared else None
                qs = values(prepared, rec_value)
                best = np.maximum(np.maximum(qs[0], qs[1]), qs[2])
                if q == OVERTIME:
                    VOT[b - 1] = best[0, :, :, :, 0]
                elif q <= 2:
                    V12[q - 1, b - 1] = best
                else:
                    V34[q - 3, b - 1] = best[..., 0]
                if progress:
                    progress(q, b)
    owp = float(clk.choose_value(1, QB, 0, f20, NT - 1, NT - 1, 1))
    return V12, V34, VOT, owp


def _target(clk, q, b, c, W, lay, d, f20):
    """The flat value array (quarter layout ``lay``, for the team snapping next) that ``c`` boxes from
    (q, b) lead to: later in the quarter, the next quarter, the half, the end of regulation or overtime."""
    left = b - c
    if W > 0 and q in (2, 4) and b > W and left < W:  # the two-minute warning
        left = W
    QB = clk.QB
    if left > 0:
        return _table(clk, q, left)
    if q in (1, 3):
        return _table(clk, q + 1, QB)
    if q == 2:  # the team that did not open receives in the second half, time-outs reset
        full = clk.NT - 1
        start = clk.V34[0, QB - 1][:, f20, full, full]  # [nd] by the receiver's difference
        recv, kick = start, 1.0 - start[::-1]  # h = 0: this team receives; h = 1: the other, at -d
        return np.broadcast_to(np.stack([recv, kick], axis=1)[:, None, None, None, :], lay.shape).ravel()
    if q == 4:  # the higher score wins; tied: the coin toss of overtime, exactly 1/2
        return np.broadcast_to((np.sign(d) * 0.5 + 0.5)[:, None, None, None, None], lay.shape).ravel()
    return np.full(int(np.prod(lay.shape)), 0.5)  # overtime ends tied: a draw


def _table(clk, q, b):
    if q == OVERTIME:
        return clk.VOT[b - 1].reshape(-1)
    if q <= 2:
        return clk.V12[q - 1, b - 1].reshape(-1)
    return clk.V34[q - 3, b - 1].reshape(-1)


class ClockSolution(Solution):
    """The clock version: the values at the offence's choice in ``arrays`` V12, V34, VOT (see
    ``_Clock``); the recovery and clock decisions are worked out from them when asked."""

    def __init__(self, config, arrays):
        super().__init__(config, arrays)
        self.cap = int(arrays["diff_cap"])
        self.clk = _Clock(config, self.cap, arrays["V12"], arrays["V34"], arrays["VOT"])

    @staticmethod
    def _terms(s: State, team):
        """(difference, own time-outs, other's, opened the game) of ``team`` in each game of ``s``."""
        rows = np.arange(s.batch_size)
        team = np.asarray(team, dtype=np.int64)
        d = s.score[rows, team].astype(np.int64) - s.score[rows, 1 - team]
        return (d, s.timeouts[rows, team].astype(np.int64), s.timeouts[rows, 1 - team].astype(np.int64),
                (s.opener == team).astype(np.int64))

    def _node(self, s: State, kind=None):
        return self.model.node_of(s.position.astype(np.int64), s.line_to_gain.astype(np.int64),
                                  s.down.astype(np.int64), kind)

    @staticmethod
    def _time(s: State):
        """(quarter, boxes left) of each game, int64 [n] each."""
        return s.quarter.astype(np.int64), s.boxes.astype(np.int64)

    def _live_values(self, state: State) -> np.ndarray:
        """``_values`` of the games not terminated (NaN rows for the others), all in one batch: every
        lookup takes each game's own quarter and boxes."""
        out = np.full((state.batch_size, 1 + A.NUM_ACTIONS), np.nan)
        g = np.flatnonzero(~state.terminated)
        if g.size:
            out[g] = self._values(state.take(g))
        return out

    def _entries_value(self, s, team, ent):
        """Value for ``team`` (the down's offence) of model entries ``ent`` [n, K] weighted by their
        chances, summed: [n]."""
        m = self.model
        d, to, td, h = self._terms(s, team)
        q, b = self._time(s)
        e = np.maximum(ent, 0)
        rel = m.e_rel[e]
        is_rec = rel == REC
        val = self.clk.post_result(q[:, None], b[:, None], d[:, None], to[:, None], td[:, None], h[:, None],
                                   np.where(is_rec, SAME, rel), np.where(is_rec, 0, m.e_f[e]), m.e_ds[e],
                                   m.e_do[e], m.e_cost[e], m.e_gain[e])
        if is_rec.any():
            r = np.where(is_rec, m.e_f[e], m.n_fields)  # recovery nodes
            best = None
            for a in (A.DECLINE, A.CONTEST):
                sub = m.row_entries[m.node_rows[r, a]]  # [n, K, K2]
                e2 = np.maximum(sub, 0)
                v2 = self.clk.post_result(q[:, None, None], b[:, None, None], d[:, None, None], to[:, None, None],
                                          td[:, None, None],
                                          h[:, None, None], m.e_rel[e2], m.e_f[e2], m.e_ds[e2], m.e_do[e2],
                                          m.e_cost[e2], m.e_gain[e2])
                qa = np.where(sub >= 0, v2 * m.e_prob[e2], 0.0).sum(axis=2)
                best = qa if best is None else np.maximum(best, qa)
            val = np.where(is_rec, best, val)
        return np.where(ent >= 0, val * m.e_prob[e], 0.0).sum(axis=1)

    def _choose_q(self, s):
        """[n, 3]: run, field goal, punt for the offence (NaN where illegal)."""
        m = self.model
        node = self._node(s)
        out = []
        for a in (A.RUN_PLAY, A.FIELD_GOAL, A.PUNT):
            rows = m.node_rows[node, a]
            ent = np.where(rows[:, None] >= 0, m.row_entries[np.maximum(rows, 0)], -1)
            out.append(np.where(rows >= 0, self._entries_value(s, s.offence, ent), np.nan))
        return np.stack(out, axis=1)

    def _recovery_q(self, s):
        """[n, 2]: decline, contest for the team that lost the ball."""
        m = self.model
        node = self._node(s, _recovery_kind(s))
        return np.stack([self._entries_value(s, s.offence, m.row_entries[m.node_rows[node, a]])
                         for a in (A.DECLINE, A.CONTEST)], axis=1)

    def _pending(self, s):
        """[n, 3]: (decline, ask, the phase's value) of a clock decision, for the down's offence."""
        snap = s.snap_offence.astype(np.int64)
        d, to_o, to_d, h = self._terms(s, snap)
        q, b = self._time(s)
        flip = s.offence != snap
        rel = np.where(flip, FLIP, SAME)
        fn = self._node(s)
        dn = np.where(flip, -d, d)
        hn = np.where(q <= 2, np.where(flip, 1 - h, h), 0)  # the opener flag: first half only
        cost = s.pending_cost.astype(np.int64)

        def after(c, a_o, a_d):
            ton, tdn = np.where(flip, a_d, a_o), np.where(flip, a_o, a_d)
            return self.clk.after_clock(q, b, c, rel, dn, fn, ton, tdn, hn)

        co = after(np.ones_like(cost), np.maximum(to_o - 1, 0), to_d)
        cd = after(np.ones_like(cost), to_o, np.maximum(to_d - 1, 0))

        def todec(c):  # (no time-out value, after the defence's choice, after the offence's)
            x = after(c, to_o, to_d)
            dfn = np.where((to_d > 0) & (c > 1), np.minimum(x, cd), x)
            return x, dfn, np.where((to_o > 0) & (c > 1), np.maximum(dfn, co), dfn)

        x, dfn, y0 = todec(cost)
        y1 = todec(np.maximum(cost - 1, 1))[2]
        ask = ASKER_WINS * y1 + (1 - ASKER_WINS) * y0
        ph = s.phase
        decline = np.select([ph == OOB_OFFENCE, ph == OOB_DEFENCE, ph == TIMEOUT_OFFENCE],
                            [np.minimum(y0, ask), y0, dfn], x)
        take = np.select([ph == OOB_OFFENCE, ph == OOB_DEFENCE, ph == TIMEOUT_OFFENCE], [ask, ask, co], cd)
        offence_decides = (ph == OOB_OFFENCE) | (ph == TIMEOUT_OFFENCE)
        value = np.where(offence_decides, np.maximum(decline, take), np.minimum(decline, take))
        return np.stack([decline, take, value], axis=1)

    def _values(self, s):
        """[n, 1 + NUM_ACTIONS]: the value for the team with the ball, then the action values for the
        team to act."""
        out = np.full((s.batch_size, 1 + A.NUM_ACTIONS), np.nan)
        ph = s.phase
        sel = ph == CHOOSE
        if sel.any():
            qv = self._choose_q(s.take(np.flatnonzero(sel)))
            out[sel, 1:4] = qv
            sub = s.take(np.flatnonzero(sel))
            d, to, td, h = self._terms(sub, sub.offence)
            out[sel, 0] = self.clk.choose_value(*self._time(sub), d, self._node(sub), to, td, h)
        sel = ph == RECOVERY
        if sel.any():
            rq = self._recovery_q(s.take(np.flatnonzero(sel)))
            out[sel, 1 + A.DECLINE], out[sel, 1 + A.CONTEST] = rq[:, 0], rq[:, 1]
            out[sel, 0] = rq.max(axis=1)
        sel = ~np.isin(ph, (CHOOSE, RECOVERY))
        if sel.any():
            sub = s.take(np.flatnonzero(sel))
            pend = self._pending(sub)
            defence = np.isin(sub.phase, (OOB_DEFENCE, TIMEOUT_DEFENCE))
            pair = np.where(defence[:, None], 1.0 - pend[:, :2], pend[:, :2])  # for the team to act
            ask = np.where(np.isin(sub.phase, (OOB_OFFENCE, OOB_DEFENCE)), A.OUT_OF_BOUNDS, A.TIME_OUT)
            rows = np.flatnonzero(sel)
            out[rows, 1 + A.DECLINE] = pair[:, 0]
            out[rows, 1 + ask] = pair[:, 1]
            # the phase value is the down's offence's; the team with the ball may be the other
            out[rows, 0] = np.where(sub.offence == sub.snap_offence, pend[:, 2], 1.0 - pend[:, 2])
        return out

    def _offence_value(self, state):
        return self._live_values(state)[:, 0]

    def _action_values(self, state):
        return self._live_values(state)[:, 1:]



def solve_clock_solution(config: TableFootballConfig, cap: int, cache: bool = True, progress=None):
    from .solve import config_digest, default_cache_dir, load_solution

    if isinstance(cap, bool) or not isinstance(cap, int) or not (1 <= cap <= 200):
        raise ValueError(f"diff_cap must be an int from 1 to 200, got {cap!r}")
    path = default_cache_dir() / f"table_football_clock_{config_digest(config, f'cap{cap}')}"
    if cache:
        # the folder (memory-mapped in seconds), else an archive of the earlier cache format (minutes to
        # inflate: read once and rewritten as a folder)
        for source in (path, path.with_name(path.name + ".npz")):
            if not source.exists():
                continue
            try:
                sol = load_solution(source)
            except ValueError:
                continue  # a bad cache entry is solved again and overwritten
            if sol.config == config and int(sol.arrays["diff_cap"]) == cap:
                if source == path:
                    return sol
                _store(sol, path)
                try:
                    return load_solution(path)  # memory-mapped: the inflated copy goes
                except ValueError:
                    return sol
    V12, V34, VOT, owp = _induction(config, cap, progress)
    sol = ClockSolution(config, {"V12": V12, "V34": V34, "VOT": VOT, "diff_cap": np.array(cap),
                       "opener_win_probability": np.array(owp)})
    if cache:
        _store(sol, path)
    return sol


def _store(sol: "ClockSolution", path) -> None:
    try:
        sol.save(path)
    except OSError:
        pass  # a read-only cache only costs the solve next time


def validate_clock_arrays(config: TableFootballConfig, data: dict, path) -> None:
    m = build_model(config.downs, config.recovery_option)
    if set(data) != {"V12", "V34", "VOT", "diff_cap", "opener_win_probability"}:
        raise ValueError(f"{path}: arrays {sorted(data)} are not a clock solution's")
    cap = data["diff_cap"]
    if cap.shape != () or cap.dtype.kind not in "iu" or not (1 <= int(cap) <= 200):
        raise ValueError(f"{path}: bad diff_cap")
    cap = int(cap)
    QB, NT, NTo, F, nd = (config.quarter_boxes, config.timeouts_per_half + 1, config.overtime_timeouts + 1,
                          m.n_fields, 2 * cap + 1)
    shapes = {"V12": (2, QB, nd, F, NT, NT, 2), "V34": (2, QB, nd, F, NT, NT), "VOT": (QB, F, NTo, NTo),
              "opener_win_probability": ()}
    for name, shape in shapes.items():
        if data[name].shape != shape or data[name].dtype != np.float64:
            raise ValueError(f"{path}: {name} has shape {data[name].shape} {data[name].dtype}, expected {shape} float64")




# --- exact evaluation of a stationary policy (clock version) ------------------------------------------------

AGENT_CHUNK = 1 << 17  # engine states per agent call (bounds the memory of a query)
_TOO, _TOD, _OOBO, _OOBD = "timeout_offence", "timeout_defence", "oob_offence", "oob_defence"


def _ask(agent_or_policy, states: State, config) -> np.ndarray:
    """The policy's actions in ``states`` (team one to act in every game), checked legal."""
    out = np.empty(states.batch_size, dtype=np.int64)
    for start in range(0, states.batch_size, AGENT_CHUNK):
        part = states.take(np.arange(start, min(start + AGENT_CHUNK, states.batch_size)))
        n = part.batch_size
        if hasattr(agent_or_policy, "act"):
            if hasattr(agent_or_policy, "reset"):
                agent_or_policy.reset(np.arange(n))
            a = np.asarray(agent_or_policy.act(part, config, np.arange(n)))
        else:
            a = np.asarray(agent_or_policy(part))
        if a.shape != (n,) or a.dtype.kind not in "iu":
            raise ValueError(f"the policy gave {a.dtype} shape {a.shape}, expected ints of shape ({n},)")
        a = a.astype(np.int64)
        ok = (a >= 0) & (a < A.NUM_ACTIONS)
        ok[ok] = part.legal[np.flatnonzero(ok), a[ok]]
        if not ok.all():
            g = int(np.flatnonzero(~ok)[0])
            legal = [A.ACTION_NAMES[i] for i in np.flatnonzero(part.legal[g])]
            raise ValueError(f"the policy chose illegal action {int(a[g])} in a clock state (phase "
                             f"{PHASE_NAMES[int(part.phase[g])]}, quarter {int(part.quarter[g])}, boxes "
                             f"{int(part.boxes[g])}); legal: {legal}")
        out[start:start + n] = a
    return out


def _decision_states(config, m, lay: _Layout, flat, phase, snap, rel=None, cost=0, recovery=False) -> State:
    """Engine states of solver states ``flat`` (indices into ``lay``, in the terms of the team ``snap``
    snapping the down) in ``phase``, quarter and boxes left to be set. Team one is the evaluated team.
    ``rel`` (pending phases): SAME / FLIP, whether the snap team or the other has the ball next.
    A representative of each solver state: scores max(d, 0) and max(-d, 0), no last play at a choice,
    the solver's unused fields (the opener in the second half: team one) fixed."""
    from .engine import recompute_legal

    d, f, to, td, h = np.unravel_index(flat, lay.shape)
    d = d - lay.cap
    n = flat.size
    s = State.empty(n)
    snap = np.broadcast_to(np.asarray(snap, dtype=np.int64), (n,))
    other = 1 - snap
    rows = np.arange(n)
    s.snap_offence[:] = snap
    s.offence[:] = snap if rel is None else np.where(rel == FLIP, other, snap)
    s.score[rows, snap], s.score[rows, other] = np.maximum(d, 0), np.maximum(-d, 0)
    s.timeouts[rows, snap], s.timeouts[rows, other] = to, td
    s.opener[:] = np.where(h == 1, snap, other) if lay.H == 2 else 0
    if recovery:
        fi = (f // 2) if recovery else f
        kind = f % 2
        s.position[:], s.line_to_gain[:], s.down[:] = m.pos[fi], m.ltg[fi], m.down[fi]
        s.last_play[:] = 0
        s.last_roll[:, 0] = np.where(kind == 0, 1, 5)
        s.last_roll[:, 1] = np.where(kind == 0, 2, 6)
    else:
        s.position[:], s.line_to_gain[:], s.down[:] = m.pos[f], m.ltg[f], m.down[f]
        if phase != CHOOSE:
            s.last_play[:] = 0
    s.phase[:] = phase
    s.pending_cost[:] = cost
    s.plays[:] = 0 if phase == CHOOSE else 1
    s.steps[:] = s.plays
    recompute_legal(s, config)
    assert (s.to_act == 0).all(), "every state built for the policy has team one to act"
    return s


def evaluate_clock_policy(agent_or_policy, solution: "ClockSolution", progress=None):
    """(opening, receiving): the exact win probability (a draw 1/2) of a stationary policy against the
    solution's optimal policy, as the team opening the game and as the team receiving in the 2nd half.

    Backward induction over the boxes as ``_induction``, over the solver's states with one more index:
    which team has the ball (the evaluated one, P, or the optimal one, O). At every decision of P (the
    offence's choice, the recovery option, the out-of-bounds requests, the time-outs) the policy is
    asked, once per box layer, in big batches of engine states (team one = P, one representative state
    per solver state; ``_decision_states``); at every decision of O the solution's action (its values,
    lowest id among equal best, as ``Solution.policy``). A tie at the end of the 4th quarter goes to the
    overtime coin toss (1/2 each way). Only the tables of the last three boxes and of the quarter starts
    are kept. The default clock config asks the policy about 10^9 states, about 6 M per box of the first
    half: for ``OptimalAgent`` 90-130 s per box of the second half on the shared 2-core machine (load 11),
    roughly 10 hours in all (RULES.md); a small clock (2 boxes a quarter) well under a minute.
    """
    config, cap = solution.config, solution.cap
    m = build_model(config.downs, config.recovery_option)
    F, QB = m.n_fields, config.quarter_boxes
    NT, NTo = config.timeouts_per_half + 1, config.overtime_timeouts + 1
    W = config.two_minute_boxes
    clk = solution.clk
    f20 = clk.first20
    plan = [_groups(m, np.arange(F), a) for a in (A.RUN_PLAY, A.FIELD_GOAL, A.PUNT)]
    rec_plan = [_groups(m, F + np.arange(2 * F), a) for a in (A.DECLINE, A.CONTEST)] \
        if config.recovery_option else []
    EW: dict = {}  # (q, b) -> P's win probability [2 (P, O has the ball), lay size]
    EW_start: dict = {}  # q -> the same at the quarter's first box (kept)
    ot_start = None  # P's chance in overtime if P receives, if O receives
    for kind in ("ot", "34", "12"):
        qc = 0 if kind == "ot" else cap
        nt = NTo if kind == "ot" else NT
        H = 2 if kind == "12" else 1
        lay, rec_lay = _Layout(qc, F, nt, H), _Layout(qc, 2 * F, nt, H)
        size = int(np.prod(lay.shape))
        d = np.arange(-qc, qc + 1)
        gd = d[:, None, None, None, None, None]
        gto = np.arange(nt)[None, None, None, :, None, None]
        gtd = np.arange(nt)[None, None, None, None, :, None]
        gh = np.arange(H)[None, None, None, None, None, :]
        has_o, has_d = gto > 0, gtd > 0

        def pending_keys(ent, e, lookups):
            """The pending decision's solver state of each outcome: (rel, the snap team's d, next node, its
            time-outs) as one flat key into [2, lay size], -1 where no decision follows."""
            _, flip, scoring, _ = lookups
            d1 = gd + m.e_ds[e] - m.e_do[e]
            pk = np.where(flip, size, 0) + lay.index(d1, m.e_f[e], gto, gtd, gh)
            if kind == "ot":
                pk = np.where(scoring, -1, pk)  # sudden death: no decision after a score
            return np.where((ent >= 0)[None, :, :, None, None, None], pk, -1)

        grid = (gd, gto, gtd, gh)
        prepared, rec_prepared = (_prepare(m, lay, rec_lay, grid, p, pending_keys) for p in (plan, rec_plan))
        # the pending states P decides in, found once per kind (they do not depend on the time)
        need: dict = {}
        for gl, _, _ in prepared + rec_prepared:
            for cost, gain, _, _, pk in gl:
                offered_o = np.broadcast_to(has_o, pk.shape)
                offered_d = np.broadcast_to(has_d, pk.shape)
                costs = [cost] + ([max(cost - 1, 1)] if gain else [])
                for c in costs:
                    if c > 1:
                        need.setdefault((_TOO, c), []).append(np.unique(pk[(pk >= 0) & offered_o]))
                        need.setdefault((_TOD, c), []).append(np.unique(pk[(pk >= 0) & offered_d]))
                if gain:
                    for ph in (_OOBO, _OOBD):
                        need.setdefault((ph, cost), []).append(np.unique(pk[pk >= 0]))
        phase_of = {_TOO: TIMEOUT_OFFENCE, _TOD: TIMEOUT_DEFENCE, _OOBO: OOB_OFFENCE, _OOBD: OOB_DEFENCE}
        # P snaps (team one) at its own offence decisions, O (team two) at P's defence decisions
        snap_of = {_TOO: 0, _OOBO: 0, _TOD: 1, _OOBD: 1}
        pend_states = {}
        for key, parts in need.items():
            keys = np.unique(np.concatenate(parts))
            if keys.size:
                rel = np.where(keys >= size, FLIP, SAME)
                pend_states[key] = (keys, _decision_states(config, m, lay, keys % size, phase_of[key[0]],
                                                           snap_of[key[0]], rel, key[1]))
        choose_states = _decision_states(config, m, lay, np.arange(size), CHOOSE, 0)
        rec_states = _decision_states(config, m, rec_lay, np.arange(int(np.prod(rec_lay.shape))), RECOVERY, 0,
                                      recovery=True) if rec_prepared else None

        def ask(states, q, b):
            states.quarter[:], states.boxes[:] = q, b
            return _ask(agent_or_policy, states, config)

        for q in {"ot": (OVERTIME,), "34": (4, 3), "12": (2, 1)}[kind]:
            EW = {}  # a quarter reaches other quarters only through their first box (EW_start)
            for b in range(1, QB + 1):
                targets = {c: _target(clk, q, b, c, W, lay, d, f20) for c in (1, 2, 3)}
                wtargets = {c: _eval_target(EW, EW_start, ot_start, q, b, c, W, QB, lay, d, f20, NT)
                            for c in (1, 2, 3)}
                D = {}
                for key, (keys, st) in pend_states.items():
                    choice = ask(st, q, b)
                    table = np.zeros(2 * size + 1, dtype=bool)  # the last slot: no decision (-1 keys)
                    table[keys] = choice != A.DECLINE
                    D[key] = table

                def group_value(cost, gain, prob, lk, pk):
                    """(solver value for the snap team, P's chance when P snaps, when O snaps), summed over
                    the group's outcomes."""
                    idx, flip, scoring, won = lk

                    def lookv(c, name):
                        v = targets[c].take(idx[name])
                        return np.where(flip, 1.0 - v, v)

                    side_off = [np.where(flip, size, 0), np.where(flip, 0, size)]  # the next ball team's side

                    def lookw(c, name, s):
                        return wtargets[c].take(idx[name] + side_off[s])

                    def p_decides(key, s):
                        return D[key].take(pk) if key in D else np.zeros(pk.shape, dtype=bool)

                    co, cdv = lookv(1, "Co"), lookv(1, "Cd")
                    vpart = {}

                    def todec_v(c):  # the solver's values: (no time-out, after the defence's choice, phase)
                        if c not in vpart:
                            xv = lookv(c, "A")
                            if c <= 1:
                                vpart[c] = (xv, xv, xv)
                            else:
                                dv = np.where(has_d, np.minimum(xv, cdv), xv)
                                vpart[c] = (xv, dv, np.where(has_o, np.maximum(dv, co), dv))
                        return vpart[c]

                    def todec(c, s):  # P's chance with P's time-outs and O's (the solution's, ruling 12)
                        xv, dv, yv = todec_v(c)
                        xw = lookw(c, "A", s)
                        if c <= 1:
                            return yv, xw
                        take_d = has_d & (p_decides((_TOD, c), s) if s == 1 else (1.0 - cdv) > (1.0 - xv))
                        dw = np.where(take_d, lookw(1, "Cd", s), xw)
                        take_o = has_o & (p_decides((_TOO, c), s) if s == 0 else co > dv)
                        return yv, np.where(take_o, lookw(1, "Co", s), dw)

                    out = []
                    for s in (0, 1):
                        y0v, y0w = todec(cost, s)
                        if gain:  # out of bounds (ruling 13): the offence asks first, then the defence
                            y1v, y1w = todec(max(cost - 1, 1), s)
                            askv = ASKER_WINS * y1v + (1 - ASKER_WINS) * y0v
                            askw = ASKER_WINS * y1w + (1 - ASKER_WINS) * y0w
                            ask_d = p_decides((_OOBD, cost), s) if s == 1 else (1.0 - askv) > (1.0 - y0v)
                            dw = np.where(ask_d, askw, y0w)
                            decline_v = np.minimum(y0v, askv)
                            ask_o = p_decides((_OOBO, cost), s) if s == 0 else askv > decline_v
                            y0w = np.where(ask_o, askw, dw)
                            y0v = np.maximum(askv, decline_v)
                        if q == OVERTIME:  # sudden death
                            y0v = np.where(scoring, np.where(won, 1.0, 0.0), y0v)
                            y0w = np.where(scoring, np.where(won, 1.0 - s, float(s)), y0w)
                        if s == 0:
                            out.append((y0v * prob).sum(axis=2))
                        out.append((y0w * prob).sum(axis=2))
                    return out

                def values(prep, rec_v=None, rec_w=None):
                    """Per action: (solver value, P's chance when P decides, when O decides)."""
                    res = []
                    for gl, rec_part, legal in prep:
                        tv = tw0 = tw1 = 0.0
                        for cost, gain, prob, lk, pk in gl:
                            v, w0, w1 = group_value(cost, gain, prob, lk, pk)
                            tv, tw0, tw1 = tv + v, tw0 + w0, tw1 + w1
                        if rec_part is not None:
                            prob, ridx = rec_part
                            tv = tv + (rec_v.take(ridx) * prob).sum(axis=2)
                            tw0 = tw0 + (rec_w[0].take(ridx) * prob).sum(axis=2)
                            tw1 = tw1 + (rec_w[1].take(ridx) * prob).sum(axis=2)
                        lg = legal[None, :, None, None, None]
                        res.append((np.where(lg, tv, -np.inf), tw0, tw1))
                    return res

                def pick(res, p_actions, action_ids):
                    """(solver value, P's chance [2, size]) with P's actions when P decides and the
                    solution's (lowest id among equal best) when O does."""
                    qv = np.stack([r[0].ravel() for r in res])
                    o_pick = np.argmax(qv, axis=0)
                    p_pick = np.searchsorted(action_ids, p_actions)
                    cols = np.arange(qv.shape[1])
                    w0 = np.stack([r[1].ravel() for r in res])[p_pick, cols]
                    w1 = np.stack([r[2].ravel() for r in res])[o_pick, cols]
                    return qv.max(axis=0), np.stack([w0, w1])

                rec_v = rec_w = None
                if rec_prepared:
                    rec_v, rec_w = pick(values(rec_prepared), ask(rec_states, q, b), np.array([A.DECLINE, A.CONTEST]))
                _, ew = pick(values(prepared, rec_v, rec_w), ask(choose_states, q, b),
                             np.array([A.RUN_PLAY, A.FIELD_GOAL, A.PUNT]))
                EW[(q, b)] = ew
                if b == QB:
                    EW_start[q] = ew
                for old in [k for k in EW if k[0] == q and k[1] <= b - 3]:
                    del EW[old]  # no later box reaches back more than 3 boxes
                if progress:
                    progress(q, b)
        if kind == "ot":
            at = _Layout(0, F, NTo, 1).index(0, f20, NTo - 1, NTo - 1, 0)
            ot_start = (float(EW_start[OVERTIME][0, at]), float(EW_start[OVERTIME][1, at]))
    at = _Layout(cap, F, NT, 2).index(0, f20, NT - 1, NT - 1, 1)
    opening = float(EW_start[1][0, at])
    receiving = float(EW_start[1][1, at])
    return opening, receiving


def _eval_target(EW, EW_start, ot_start, q, b, c, W, QB, lay, d, f20, NT):
    """P's chance [2 * lay size] (P, O has the ball next) after ``c`` boxes from (q, b): ``_target`` for
    the evaluation."""
    left = b - c
    if W > 0 and q in (2, 4) and b > W and left < W:  # the two-minute warning
        left = W
    size = int(np.prod(lay.shape))
    if left > 0:
        return EW[(q, left)].ravel()
    if q in (1, 3):
        return EW_start[q + 1].ravel()
    if q == 2:  # the team that did not open receives the second half at its own 20, time-outs reset
        full = NT - 1
        lay34 = _Layout(lay.cap, lay.n, NT, 1)
        start = EW_start[3].reshape((2,) + lay34.shape)[:, :, f20, full, full, 0]  # [side, nd]
        # h = 0: the team with the ball receives (same side, d); h = 1: the other does, at -d
        recv, kick = start, start[::-1, ::-1]
        both = np.stack([recv, kick], axis=-1)  # [side, nd, h]
        return np.broadcast_to(both[:, :, None, None, None, :], (2,) + lay.shape).ravel()
    if q == 4:  # the higher score wins; tied: the overtime coin toss
        tie = 0.5 * (ot_start[0] + ot_start[1])
        mine = np.where(d > 0, 1.0, np.where(d < 0, 0.0, tie))
        theirs = np.where(d > 0, 0.0, np.where(d < 0, 1.0, tie))
        both = np.stack([mine, theirs])
        return np.broadcast_to(both[:, :, None, None, None, None], (2,) + lay.shape).ravel()
    return np.full(2 * size, 0.5)  # overtime ends tied: a draw
