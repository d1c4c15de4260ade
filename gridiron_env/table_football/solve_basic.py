"""The exact solver of the basic game (ruling 17): win probabilities by policy iteration, level by level.

A state is (score of the team on offence a, score of the other b, node n) with a, b < target. Scores
only go up, so the states fall into levels a + b; a level depends on itself (a possession can change hands
without a score, so the game can loop) and on higher levels. Each level is solved exactly: value iteration
to a first policy, then policy iteration, each policy evaluated by a sparse direct solve, until no action
improves any value by more than 1e-14 (the values are the fixed point to about 1e-15).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from .model import FLIP, Model

IMPROVE_TOL = 1e-14


def entry_values(m: Model, V: np.ndarray, target: int, a, b, entries) -> np.ndarray:
    """Values (for the team on offence in the down) of outcome ``entries`` from scores (a, b), with the
    table V [target, target, nodes]: a win 1, a loss 0. Broadcasts a, b against entries; -1 entries give 0."""
    e = np.maximum(entries, 0)
    a2 = a + m.e_ds[e]
    b2 = b + m.e_do[e]
    rel = m.e_rel[e]
    f = m.e_f[e]
    win = a2 >= target
    lose = b2 >= target
    ai, bi = np.minimum(a2, target - 1), np.minimum(b2, target - 1)
    same = V[ai, bi, f]
    flip = 1.0 - V[bi, ai, f]
    v = np.where(rel == FLIP, flip, same)
    v = np.where(win, 1.0, np.where(lose, 0.0, v))
    return np.where(entries >= 0, v, 0.0)


def action_values(m: Model, V: np.ndarray, target: int, a, b, node) -> np.ndarray:
    """float64 [B, NUM_ACTIONS]: the value of each action of the decider at (a, b, node); NaN illegal."""
    rows = m.node_rows[node]  # [B, A]
    ent = m.row_entries[np.maximum(rows, 0)]  # [B, A, K]
    vals = entry_values(m, V, target, np.asarray(a)[:, None, None], np.asarray(b)[:, None, None], ent)
    q = (vals * np.where(ent >= 0, m.e_prob[np.maximum(ent, 0)], 0.0)).sum(axis=2)
    return np.where(rows >= 0, q, np.nan)


def solve_values(m: Model, target: int, progress=None):
    """(V, P) [target, target, nodes]: the exact win probability of the team on offence (the decider at
    every node of the basic game) and its optimal action (the lowest id among the best)."""
    T, N = target, m.n_nodes
    V = np.zeros((T, T, N))
    P = np.zeros((T, T, N), dtype=np.int8)
    R = m.row_node.size
    node_start = np.flatnonzero(np.r_[True, m.row_node[1:] != m.row_node[:-1]])
    for level in range(2 * T - 2, -1, -1):
        a_s = np.arange(max(0, level - T + 1), min(level, T - 1) + 1)
        b_s = level - a_s
        nL = a_s.size
        swap = (b_s - a_s[0])  # layer of (b, a)
        A2 = a_s[:, None] + m.e_ds[None, :]
        B2 = b_s[:, None] + m.e_do[None, :]
        win, lose = A2 >= T, B2 >= T
        inlevel = ((m.e_ds + m.e_do) == 0)[None, :] & ~win & ~lose
        rel = np.broadcast_to(m.e_rel, A2.shape)
        p = np.broadcast_to(m.e_prob, A2.shape)
        ai, bi = np.minimum(A2, T - 1), np.minimum(B2, T - 1)
        f = np.broadcast_to(m.e_f, A2.shape)
        higher = np.where(rel == FLIP, 1.0 - V[bi, ai, f], V[ai, bi, f])
        const = p * np.where(win, 1.0, np.where(lose, 0.0, np.where(inlevel, (rel == FLIP).astype(float), higher)))
        layer = np.broadcast_to(np.arange(nL)[:, None], A2.shape)
        row_idx = layer * R + m.e_row[None, :]
        c = np.bincount(row_idx.ravel(), weights=const.ravel(), minlength=nL * R)
        col = np.where(rel == FLIP, swap[:, None] * N + f, layer * N + f)
        coef = np.where(rel == FLIP, -p, p)
        M = sp.csr_matrix((coef[inlevel], (row_idx[inlevel], col[inlevel])), shape=(nL * R, nL * N))
        offs = (np.arange(nL)[:, None] * R + node_start[None, :]).ravel()
        X, Q = _policy_iteration(M, c, offs, nL * R)
        V[a_s, b_s] = X.reshape(nL, N)
        best_rows, _ = _greedy(Q, offs, nL * R)
        P[a_s, b_s] = m.row_action[best_rows % R].reshape(nL, N)
        if progress:
            progress(level)
    return V, P


def block_solve(A, rhs):
    """Solve the sparse system A x = rhs (SuperLU)."""
    return spla.spsolve(sp.csc_matrix(A), rhs)


def _greedy(Q, offs, n_rows, old=None):
    best = np.maximum.reduceat(Q, offs)
    group = np.repeat(np.arange(offs.size), np.diff(np.r_[offs, n_rows]))
    if old is not None:  # keep the old choice unless another improves it by more than the tolerance
        keep = Q[old] >= best - IMPROVE_TOL
        best_rows = _first_max(Q, best, group, offs.size, n_rows)
        return np.where(keep, old, best_rows), best
    return _first_max(Q, best, group, offs.size, n_rows), best


def _first_max(Q, best, group, n_groups, n_rows):
    is_best = Q >= best[group]
    idx = np.where(is_best, np.arange(n_rows), n_rows)
    return np.minimum.reduceat(idx, np.r_[0, np.flatnonzero(np.diff(group)) + 1])


def _policy_iteration(M, c, offs, n_rows):
    n = offs.size
    X = np.full(n, 0.5)
    for _ in range(60):  # a few value-iteration sweeps give a good first policy
        X = np.maximum.reduceat(c + M @ X, offs)
    policy, _ = _greedy(c + M @ X, offs, n_rows)
    eye = sp.identity(n, format="csr")
    for _ in range(100):
        X = block_solve(eye - M[policy], c[policy])
        Q = c + M @ X
        new, best = _greedy(Q, offs, n_rows, old=policy)
        if np.array_equal(new, policy):
            return X, Q
        policy = new
    raise RuntimeError("policy iteration did not settle in 100 rounds")


def evaluate_policies(m: Model, target: int, p_rows: np.ndarray, o_rows: np.ndarray):
    """Exact win probabilities of side P (rows ``p_rows`` [T, T, nodes], the (node, action) row it picks
    when on offence with score a against b) against side O (``o_rows``): (WP, WO) [T, T, nodes], P's win
    probability when P, or O, has the ball (a = the score of the team with the ball)."""
    T, N = target, m.n_nodes
    WP = np.zeros((T, T, N))
    WO = np.zeros((T, T, N))
    for level in range(2 * T - 2, -1, -1):
        a_s = np.arange(max(0, level - T + 1), min(level, T - 1) + 1)
        b_s = level - a_s
        nL = a_s.size
        n = nL * N
        rows_i, cols_i, coefs, const = [], [], [], np.zeros(2 * n)
        for side, rows_tab in ((0, p_rows), (1, o_rows)):
            chosen = rows_tab[a_s, b_s]  # [nL, N]
            ent = m.row_entries[chosen]  # [nL, N, K]
            valid = ent >= 0
            e = np.maximum(ent, 0)
            la = np.broadcast_to(np.arange(nL)[:, None, None], ent.shape)
            nd = np.broadcast_to(np.arange(N)[None, :, None], ent.shape)
            A2 = a_s[:, None, None] + m.e_ds[e]
            B2 = b_s[:, None, None] + m.e_do[e]
            p = np.where(valid, m.e_prob[e], 0.0)
            rel, f = m.e_rel[e], m.e_f[e]
            win, lose = A2 >= T, B2 >= T  # for the team with the ball
            ai, bi = np.minimum(A2, T - 1), np.minimum(B2, T - 1)
            inlevel = valid & (m.e_ds[e] + m.e_do[e] == 0) & ~win & ~lose
            mine = WP if side == 0 else WO
            other = WO if side == 0 else WP
            higher = np.where(rel == FLIP, other[bi, ai, f], mine[ai, bi, f])
            p_wins_if_ball_wins = 1.0 if side == 0 else 0.0
            val = np.where(win, p_wins_if_ball_wins, np.where(lose, 1.0 - p_wins_if_ball_wins, higher))
            row = side * n + la * N + nd
            const += np.bincount(row[~inlevel].ravel(), weights=(p * val)[~inlevel].ravel(), minlength=2 * n)
            swap = b_s - a_s[0]
            tgt_side = np.where(rel == FLIP, 1 - side, side)
            tgt_layer = np.where(rel == FLIP, swap[:, None, None], la)
            col = tgt_side * n + tgt_layer * N + f
            rows_i.append(row[inlevel]), cols_i.append(col[inlevel]), coefs.append(p[inlevel])
        M = sp.csr_matrix((np.concatenate(coefs), (np.concatenate(rows_i), np.concatenate(cols_i))),
                          shape=(2 * n, 2 * n))
        X = block_solve(sp.identity(2 * n, format="csr") - M, const)
        WP[a_s, b_s] = X[:n].reshape(nL, N)
        WO[a_s, b_s] = X[n:].reshape(nL, N)
    return WP, WO
