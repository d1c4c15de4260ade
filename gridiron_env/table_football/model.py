"""The solver's model of a down: every decision node, its actions and their outcomes, with exact chances.

It restates the engine's rules (rulings 1-8, 10, 13, 16) as tables; ``tests/test_table_football_solve.py``
checks them against the engine by enumerating the dice through ``step``.

Nodes: ``0..F-1`` the offence's choice at each field state (position, line to gain, down); with the
recovery option, ``F + 2 f + kind`` the recovery decision after an interception (kind 0) or a fumble (1) at
field state f. An outcome entry says, for the team on offence in the down: with chance ``prob`` the next
down is snapped by the same team (``rel`` SAME) or the other (FLIP) at field node ``f``, after ``ds``
points to itself and ``do`` to the other, at a box cost ``cost`` (``gain``: an out-of-bounds request is
open); or (``rel`` REC) the game goes to recovery node ``f`` first.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from . import actions as A
from .engine import (
    FUMBLE, GAIN, INTERCEPTION, KICK_BOXES, OWN_20, RESULT_BOXES, RESULT_GAINING, RESULT_KIND, RESULT_YARDS,
    SAFETY_BOXES,
)

SAME, FLIP, REC = 0, 1, 2
WAYS = {t: 6 - abs(t - 7) for t in range(2, 13)}  # ways to roll each 2d6 total, out of 36
EXTRA_POINT_GOOD = 30 / 36  # 2d6 >= 5
ASKER_WINS = 21 / 36  # 1d6 each, high roll or tie (rulings 13, 16)


@dataclass(frozen=True)
class Model:
    downs: int
    recovery_option: bool
    pos: np.ndarray  # [F] field states
    ltg: np.ndarray
    down: np.ndarray
    index: np.ndarray  # [21, 21, downs + 1]: (position // 5, line to gain // 5, down) -> f, -1 none
    n_fields: int
    n_nodes: int
    row_node: np.ndarray  # [R] (node, action) rows, sorted by node
    row_action: np.ndarray
    node_rows: np.ndarray  # [N, NUM_ACTIONS]: row of (node, action), -1 illegal
    e_row: np.ndarray  # [E] outcome entries
    e_prob: np.ndarray
    e_rel: np.ndarray
    e_f: np.ndarray
    e_ds: np.ndarray
    e_do: np.ndarray
    e_cost: np.ndarray
    e_gain: np.ndarray
    row_entries: np.ndarray  # [R, K]: entry ids of each row, -1 padding

    def first(self, position) -> np.ndarray:
        """Field node of first-and-ten (or goal to go) at ``position``."""
        p = np.asarray(position)
        return self.index[p // 5, np.minimum(p + 10, 100) // 5, 1]

    def node_of(self, position, line_to_gain, down, recovery_kind=None) -> np.ndarray:
        """Node of field states (and of a pending recovery: kind 0 interception, 1 fumble, -1 none)."""
        f = self.index[np.asarray(position) // 5, np.asarray(line_to_gain) // 5, np.asarray(down)]
        if recovery_kind is None:
            return f
        k = np.asarray(recovery_kind)
        return np.where(k >= 0, self.n_fields + 2 * f + np.maximum(k, 0), f)


@lru_cache(maxsize=8)
def build_model(downs: int = 4, recovery_option: bool = False) -> Model:
    pos, ltg, down = [], [], []
    index = np.full((21, 21, downs + 1), -1, dtype=np.int64)
    for k in range(1, downs + 1):
        for p in range(5, 100, 5):
            lines = [min(p + 10, 100)] if k == 1 else range(p + 5, min(100, p + 10 * k) + 1, 5)
            for L in lines:
                index[p // 5, L // 5, k] = len(pos)
                pos.append(p), ltg.append(L), down.append(k)
    F = len(pos)
    pos, ltg, down = (np.array(x, dtype=np.int64) for x in (pos, ltg, down))

    def first(p):
        return int(index[p // 5, min(p + 10, 100) // 5, 1])

    rows: list[tuple[int, int]] = []
    entries: list[tuple] = []  # (row, prob, rel, f, ds, do, cost, gain)

    def add(row, prob, rel, f, ds=0, do=0, cost=0, gain=False):
        entries.append((row, prob, rel, f, ds, do, cost, gain))

    def touchdown(row, prob, cost, gain):
        add(row, prob * EXTRA_POINT_GOOD, FLIP, first(OWN_20), 7, 0, cost, gain)
        add(row, prob * (1 - EXTRA_POINT_GOOD), FLIP, first(OWN_20), 6, 0, cost, gain)

    def interception_spot(p):
        return OWN_20 if p + 10 >= 100 else 100 - (p + 10)

    for f in range(F):
        p, L, k = int(pos[f]), int(ltg[f]), int(down[f])
        acts = [A.RUN_PLAY, A.FIELD_GOAL] + ([A.PUNT] if k == downs else [])
        for a in acts:
            row = len(rows)
            rows.append((f, a))
            if a == A.RUN_PLAY:
                for t, ways in WAYS.items():
                    pr = ways / 36
                    kind, cost, gain = int(RESULT_KIND[t]), int(RESULT_BOXES[t]), bool(RESULT_GAINING[t])
                    if kind == INTERCEPTION or kind == FUMBLE:
                        if recovery_option:
                            add(row, pr, REC, F + 2 * f + (0 if kind == INTERCEPTION else 1), cost=cost)
                        else:
                            spot = interception_spot(p) if kind == INTERCEPTION else 100 - p
                            add(row, pr, FLIP, first(spot), cost=cost)
                        continue
                    if kind != GAIN:  # the touchdown pass
                        touchdown(row, pr, cost, gain)
                        continue
                    q = p + int(RESULT_YARDS[t])
                    if q >= 100:
                        touchdown(row, pr, cost, gain)
                    elif q <= 0:
                        add(row, pr, FLIP, first(OWN_20), 0, 2, SAFETY_BOXES, False)
                    elif q >= L:
                        add(row, pr, SAME, first(q), cost=cost, gain=gain)
                    elif k == downs:
                        add(row, pr, FLIP, first(100 - q), cost=cost, gain=gain)
                    else:
                        add(row, pr, SAME, int(index[q // 5, L // 5, k + 1]), cost=cost, gain=gain)
            elif a == A.FIELD_GOAL:
                for d in range(1, 7):
                    if 10 * d >= 100 - p:
                        add(row, 1 / 6, FLIP, first(OWN_20), 3, 0, KICK_BOXES)
                    else:
                        add(row, 1 / 6, FLIP, first(100 - p), cost=KICK_BOXES)
            else:
                for d in range(1, 7):
                    q = p + 10 * d
                    add(row, 1 / 6, FLIP, first(OWN_20 if q >= 100 else 100 - q), cost=KICK_BOXES)
    n_nodes = F
    if recovery_option:
        n_nodes = 3 * F
        for f in range(F):
            p, L, k = int(pos[f]), int(ltg[f]), int(down[f])
            for kind in (0, 1):
                node = F + 2 * f + kind
                spot = interception_spot(p) if kind == 0 else 100 - p
                cost = int(RESULT_BOXES[3 if kind == 0 else 11])
                row = len(rows)
                rows.append((node, A.DECLINE))
                add(row, 1.0, FLIP, first(spot), cost=cost)
                row = len(rows)
                rows.append((node, A.CONTEST))
                if k == downs:  # kept, but the down counts as played: over on downs at the spot
                    add(row, ASKER_WINS, FLIP, first(100 - p), cost=cost)
                else:
                    add(row, ASKER_WINS, SAME, int(index[p // 5, L // 5, k + 1]), cost=cost)
                add(row, 1 - ASKER_WINS, FLIP, first(spot), cost=cost)
    # merge equal outcomes of a row (chances add up)
    e = np.array([x[:1] + x[2:] for x in entries], dtype=np.int64)
    prob = np.array([x[1] for x in entries])
    keys, inverse = np.unique(e, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    prob = np.bincount(inverse, weights=prob)
    row_node = np.array([r[0] for r in rows], dtype=np.int64)
    row_action = np.array([r[1] for r in rows], dtype=np.int64)
    node_rows = np.full((n_nodes, A.NUM_ACTIONS), -1, dtype=np.int64)
    node_rows[row_node, row_action] = np.arange(len(rows))
    counts = np.bincount(keys[:, 0], minlength=len(rows))
    K = int(counts.max())
    row_entries = np.full((len(rows), K), -1, dtype=np.int64)
    order = np.argsort(keys[:, 0], kind="stable")
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    slot = np.arange(order.size) - starts[keys[order, 0]]
    row_entries[keys[order, 0], slot] = order
    return Model(downs=downs, recovery_option=recovery_option, pos=pos, ltg=ltg, down=down, index=index,
                 n_fields=F, n_nodes=n_nodes, row_node=row_node, row_action=row_action, node_rows=node_rows,
                 e_row=keys[:, 0], e_prob=prob, e_rel=keys[:, 1], e_f=keys[:, 2], e_ds=keys[:, 3],
                 e_do=keys[:, 4], e_cost=keys[:, 5], e_gain=keys[:, 6].astype(bool), row_entries=row_entries)
