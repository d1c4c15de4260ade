"""The exact Markov model of Sports Dice (RULINGS-sports-dice.md, rulings 1-16) for the solver (ruling 17).

It restates the rules as tables, independently of the engine; ``tests/test_sports_dice_solve.py`` checks
the two against each other.

**Dice.** Each side rolls ``n_dice`` fair dice of one face table. A roll's *count vector* is how many dice
show each of the side's four symbols; its *class* is what the count contest and the winner's choice see:
the top count, the set of symbols sharing it (a bitmask), and whether it is six of the side's special
symbol (six 10s for the offence, six NO GAINs for the defence, rulings 9 and 10). Chances are exact
multinomial sums (``exact_count_distribution`` gives them as Fractions).

**Field states** ``f``: (position, down, series), position in yards from the offence's goal line (5-95,
multiples of 5), down 1-4, series ``MIDFIELD`` (4 downs to reach the 50; position < 50) or ``END_ZONE``.
A model state is (offence score a, defence score b, f, chip) with ``chip`` the holder relative to the
offence (``CHIP_OFFENCE`` / ``CHIP_DEFENCE``); a, b < target. Values are the win probability of the
offence at the state *before* its roll (before the 4th-down declaration on 4th down).

**Plays.** After a roll the winning side applies one play (``PLAYS``); each is deterministic:
``play_*[f, play]`` say the points to each side, whether possession changes (``flip``) and the next field
state. FIELD GOAL at 50 or beyond is two plays: ``FG`` (take 3) and ``FG_ADVANCE`` (25 yards, a down);
short of the 50 ``FG`` is the move to the 50 and ``FG_ADVANCE`` does not exist. 4th-down punts and
field-goal attempts are chance rows ``kick_*[f, kind, entry]`` (``KICK_PUNT`` / ``KICK_FIELD_GOAL``).

**Decisions** (the policy tables of :class:`Tables`): the offence's play when it wins with class i
(``off_play[.., f, i, chip_after]``), the defence's likewise (``def_play``), the chip holder's use of the
chip on equal counts (``use[.., f, holder, tie pair]``), the 4th-down declaration (``declare``). Scores only
go up, so the solver goes by levels a + b from the top down and solves each level (where possession and
position can cycle) by value iteration followed by policy iteration with exact sparse solves.

The engine's cap on rolls is ignored: a game that never ends has probability 0 (every roll scores with
chance at least the chance of six TOUCHDOWN faces against a lower count).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import factorial

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

# die symbols, per side (the engine's face tables name them; see solve._symbol_ids)
OFF_10, OFF_20, OFF_FIELD_GOAL, OFF_TOUCHDOWN = range(4)
DEF_NO_GAIN, DEF_SACK, DEF_TURNOVER, DEF_PICK_SIX = range(4)
N_SYMBOLS = 4
OFF_SPECIAL, DEF_SPECIAL = OFF_10, DEF_NO_GAIN  # six of these: a touchdown for that side

# plays applied after a roll (offence 0-5, defence 6-10)
(P_10, P_20, P_FG, P_FG_ADVANCE, P_TOUCHDOWN, P_SIX_10,
 P_NO_GAIN, P_SACK, P_TURNOVER, P_PICK_SIX, P_SIX_NO_GAIN) = range(11)
PLAYS = ("10", "20", "field goal", "field goal advance", "touchdown", "six 10s",
         "no gain", "sack", "turnover", "pick six", "six no gains")
N_PLAYS = len(PLAYS)
OFF_SYMBOL_PLAY = (P_10, P_20, P_FG, P_TOUCHDOWN)
DEF_SYMBOL_PLAY = (P_NO_GAIN, P_SACK, P_TURNOVER, P_PICK_SIX)

MIDFIELD, END_ZONE = 0, 1  # series target
CHIP_OFFENCE, CHIP_DEFENCE = 0, 1  # chip holder, relative to the offence
GO, PUNT, FIELD_GOAL_TRY = 0, 1, 2  # 4th-down declarations
KICK_PUNT, KICK_FIELD_GOAL = 0, 1
START = 25  # every drive after a score (and the opening) starts at the own 25 (rulings 2, 15)
TOUCHDOWN_POINTS, FIELD_GOAL_POINTS, SAFETY_POINTS = 7, 3, 2
DOWNS = 4
FG_ADVANCE_YARDS = 25


# --- dice ------------------------------------------------------------------------------------------------

def compositions(n: int, k: int = N_SYMBOLS):
    """Every count vector of n dice over k symbols (tuples, lexicographic)."""
    for cut in itertools.combinations(range(n + k - 1), k - 1):
        edges = (-1,) + cut + (n + k - 1,)
        yield tuple(edges[i + 1] - edges[i] - 1 for i in range(k))


def exact_count_distribution(faces, n_dice: int) -> dict[tuple, Fraction]:
    """{count vector: exact chance} of n fair dice with face table ``faces`` (symbol ids 0-3)."""
    faces = tuple(int(x) for x in faces)
    p = [Fraction(faces.count(s), len(faces)) for s in range(N_SYMBOLS)]
    out = {}
    for c in compositions(n_dice):
        ways = factorial(n_dice)
        prob = Fraction(1)
        for s, k in enumerate(c):
            ways //= factorial(k)
            prob *= p[s] ** k
        if prob:
            out[c] = ways * prob
    return out


def roll_class(counts, n_dice: int, special: int) -> tuple[int, int, bool]:
    """(top count, bitmask of the symbols with it, six of the special symbol) of one count vector."""
    top = max(counts)
    mask = sum(1 << s for s, k in enumerate(counts) if k == top)
    return top, mask, bool(top == n_dice and mask == 1 << special)


@dataclass(frozen=True)
class Dice:
    """One side's dice: every count vector with its chance, and the contest classes."""

    n_dice: int
    faces: tuple
    counts: np.ndarray  # [M, 4] count vectors of positive chance
    count_prob: np.ndarray  # [M]
    count_class: np.ndarray  # [M] class of each count vector
    cls_top: np.ndarray  # [C] top count
    cls_mask: np.ndarray  # [C] bitmask of the top symbols (bit s: symbol s)
    cls_special: np.ndarray  # [C] six of the special symbol
    cls_prob: np.ndarray  # [C]
    cls_counts: np.ndarray  # [C, 4] a representative count vector (the likeliest, then the first)

    @property
    def n_classes(self) -> int:
        return int(self.cls_top.size)

    def class_of(self, counts) -> np.ndarray:
        """int64 [...]: class of count vectors [..., 4] (-1 for a vector of chance 0)."""
        counts = np.asarray(counts, dtype=np.int64)
        key = _count_key(counts, self.n_dice)
        table = np.full((self.n_dice + 1) ** N_SYMBOLS, -1, dtype=np.int64)
        table[_count_key(self.counts, self.n_dice)] = self.count_class
        ok = (counts >= 0).all(-1) & (counts.sum(-1) == self.n_dice)
        return np.where(ok, table[np.where(ok, key, 0)], -1)


def _count_key(counts, n):
    c = np.clip(counts, 0, n)
    return ((c[..., 0] * (n + 1) + c[..., 1]) * (n + 1) + c[..., 2]) * (n + 1) + c[..., 3]


def build_dice(faces, n_dice: int, special: int) -> Dice:
    dist = exact_count_distribution(faces, n_dice)
    counts = np.array(list(dist), dtype=np.int64)
    prob = np.array([float(v) for v in dist.values()])
    keys = [roll_class(c, n_dice, special) for c in dist]
    classes = sorted(set(keys))
    cls_index = {k: i for i, k in enumerate(classes)}
    count_class = np.array([cls_index[k] for k in keys], dtype=np.int64)
    cls_prob = np.bincount(count_class, weights=prob, minlength=len(classes))
    reps = []
    for i in range(len(classes)):
        members = np.flatnonzero(count_class == i)
        reps.append(counts[members[np.argmax(prob[members])]])  # argmax: the first of the likeliest
    return Dice(n_dice=n_dice, faces=tuple(int(x) for x in faces), counts=counts, count_prob=prob,
                count_class=count_class, cls_top=np.array([k[0] for k in classes], dtype=np.int64),
                cls_mask=np.array([k[1] for k in classes], dtype=np.int64),
                cls_special=np.array([k[2] for k in classes], dtype=bool), cls_prob=cls_prob,
                cls_counts=np.array(reps, dtype=np.int64))


# --- the model ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Model:
    """Tables of one pair of face tables (see the module docstring)."""

    off: Dice
    dfn: Dice
    pos: np.ndarray  # [F]
    down: np.ndarray  # [F]
    series: np.ndarray  # [F]
    index: np.ndarray  # [21, DOWNS + 1, 2]: (position // 5, down, series) -> f, -1 none
    play_valid: np.ndarray  # [F, N_PLAYS]
    play_ds: np.ndarray  # points to the offence
    play_do: np.ndarray  # points to the defence
    play_flip: np.ndarray  # possession changes
    play_f: np.ndarray  # next field state (in the frame of the team then on offence)
    kick_prob: np.ndarray  # [F, 2, K] (0: padding)
    kick_ds: np.ndarray
    kick_do: np.ndarray
    kick_flip: np.ndarray
    kick_f: np.ndarray
    off_options: np.ndarray  # [F, C_off, N_PLAYS] plays the offence may choose after winning with class i
    def_options: np.ndarray  # [C_def, N_PLAYS]
    off_beats: np.ndarray  # [C_off] chance that the defence's count is lower than class i's
    def_beats: np.ndarray  # [C_def] chance that the offence's count is lower than class j's
    tie_i: np.ndarray  # [NT] tie pairs (offence class, defence class) of equal counts
    tie_j: np.ndarray
    tie_w: np.ndarray  # [NT] chance of the pair

    @property
    def n_fields(self) -> int:
        return int(self.pos.size)

    def field(self, position, down, series) -> np.ndarray:
        """Field state of (position, down, series) arrays; -1 where there is none."""
        p = np.asarray(position, dtype=np.int64)
        d = np.asarray(down, dtype=np.int64)
        s = np.asarray(series, dtype=np.int64)
        ok = (p % 5 == 0) & (p > 0) & (p < 100) & (d >= 1) & (d <= DOWNS) & ((s == 0) | (s == 1))
        return np.where(ok, self.index[np.where(ok, p // 5, 0), np.where(ok, d, 1), np.where(ok, s, 0)], -1)

    def first_down(self, position) -> np.ndarray:
        """Field state of a new series at ``position`` (ruling 5: the series aims at the 50 when short of it)."""
        p = np.asarray(position, dtype=np.int64)
        return self.field(p, 1, np.where(p < 50, MIDFIELD, END_ZONE))

    @property
    def start(self) -> int:
        return int(self.first_down(START))


def series_of(position: int) -> int:
    return MIDFIELD if position < 50 else END_ZONE


@lru_cache(maxsize=16)
def build_model(off_faces: tuple, def_faces: tuple, n_dice: int = 6) -> Model:
    """The model of the given face tables (symbol ids, see ``OFF_*`` / ``DEF_*``) and dice per side."""
    off = build_dice(off_faces, n_dice, OFF_SPECIAL)
    dfn = build_dice(def_faces, n_dice, DEF_SPECIAL)
    pos, down, series = [], [], []
    index = np.full((21, DOWNS + 1, 2), -1, dtype=np.int64)
    for s in (MIDFIELD, END_ZONE):
        for k in range(1, DOWNS + 1):
            for p in range(5, 50 if s == MIDFIELD else 100, 5):
                index[p // 5, k, s] = len(pos)
                pos.append(p), down.append(k), series.append(s)
    F = len(pos)

    def first(p):
        return int(index[p // 5, 1, series_of(p)])

    after_score = first(START)
    valid = np.zeros((F, N_PLAYS), dtype=bool)
    ds = np.zeros((F, N_PLAYS), dtype=np.int64)
    do = np.zeros((F, N_PLAYS), dtype=np.int64)
    flip = np.zeros((F, N_PLAYS), dtype=bool)
    nf = np.zeros((F, N_PLAYS), dtype=np.int64)

    def touchdown(f, play):  # ruling 11 / 15: 7 points, the other team at its 25
        valid[f, play], ds[f, play], flip[f, play], nf[f, play] = True, TOUCHDOWN_POINTS, True, after_score

    def defence_touchdown(f, play):  # 7 to the defence; the team that did not score (the offence) at its 25
        valid[f, play], do[f, play], flip[f, play], nf[f, play] = True, TOUCHDOWN_POINTS, False, after_score

    def to_spot(f, play, q, k, s, new_series_at_50):
        """The ball moved to q within a series (rulings 5, 6, 9-11)."""
        valid[f, play] = True
        if q >= 100:
            touchdown(f, play)
        elif q <= 0:  # safety: 2 to the defence, which starts at its own 25
            do[f, play], flip[f, play], nf[f, play] = SAFETY_POINTS, True, after_score
        elif new_series_at_50 and s == MIDFIELD and q >= 50:
            nf[f, play] = int(index[q // 5, 1, END_ZONE])
        elif k == DOWNS:  # over on downs: the other team at the spot, first down
            flip[f, play], nf[f, play] = True, first(100 - q)
        else:
            nf[f, play] = int(index[q // 5, k + 1, s])

    for f in range(F):
        p, k, s = pos[f], down[f], series[f]
        to_spot(f, P_10, p + 10, k, s, True)
        to_spot(f, P_20, p + 20, k, s, True)
        touchdown(f, P_TOUCHDOWN)
        touchdown(f, P_SIX_10)
        if p < 50:  # ruling 9: to the 50, a new series aimed at the end zone
            valid[f, P_FG], nf[f, P_FG] = True, int(index[10, 1, END_ZONE])
        else:
            valid[f, P_FG], ds[f, P_FG], flip[f, P_FG], nf[f, P_FG] = True, FIELD_GOAL_POINTS, True, after_score
            to_spot(f, P_FG_ADVANCE, p + FG_ADVANCE_YARDS, k, s, False)  # an end-zone series: no new downs
        to_spot(f, P_NO_GAIN, p, k, s, False)
        to_spot(f, P_SACK, p - 10, k, s, False)
        valid[f, P_TURNOVER], flip[f, P_TURNOVER], nf[f, P_TURNOVER] = True, True, first(100 - p)
        defence_touchdown(f, P_PICK_SIX)
        defence_touchdown(f, P_SIX_NO_GAIN)

    # 4th-down kicks (rulings 13, 14): the offence's 10s and 20s, its six 10s, the defence's six NO GAINs
    kick = {}  # (f, kind) -> {(ds, do, flip, f2): prob}
    p_six_ng = float(sum(pr for c, pr in exact_count_distribution(def_faces, n_dice).items()
                         if c[DEF_NO_GAIN] == n_dice))
    for f in range(F):
        p = pos[f]
        for kind in (KICK_PUNT, KICK_FIELD_GOAL):
            out: dict = {}

            def add(key, pr):
                if pr > 0:
                    out[key] = out.get(key, 0.0) + pr

            for c, pr in zip(off.counts, off.count_prob):
                yards = 10 * int(c[OFF_10]) + 20 * int(c[OFF_20])
                six10 = int(c[OFF_10]) == n_dice
                for six_ng, pd in ((True, p_six_ng), (False, 1.0 - p_six_ng)):
                    w = pr * pd
                    if six10 and not six_ng:
                        add((TOUCHDOWN_POINTS, 0, True, after_score), w)
                    elif six_ng and not six10:
                        add((0, TOUCHDOWN_POINTS, False, after_score), w)
                    elif kind == KICK_PUNT:
                        q = p + yards
                        add((0, 0, True, after_score if q >= 100 else first(100 - q)), w)
                    elif yards >= (100 - p) + 10:
                        add((FIELD_GOAL_POINTS, 0, True, after_score), w)
                    else:
                        add((0, 0, True, first(100 - p)), w)
            kick[f, kind] = out
    K = max(len(v) for v in kick.values())
    kp = np.zeros((F, 2, K))
    kds, kdo, kfl, kf = (np.zeros((F, 2, K), dtype=np.int64) for _ in range(4))
    for (f, kind), out in kick.items():
        for e, ((a, b, fl, f2), pr) in enumerate(sorted(out.items())):
            kp[f, kind, e], kds[f, kind, e], kdo[f, kind, e], kfl[f, kind, e], kf[f, kind, e] = pr, a, b, fl, f2

    # what the winner of a roll may choose (ruling 8), the six-of-a-kind results first (rulings 9, 10)
    Co, Cd = off.n_classes, dfn.n_classes
    off_options = np.zeros((F, Co, N_PLAYS), dtype=bool)
    for i in range(Co):
        if off.cls_special[i]:
            off_options[:, i, P_SIX_10] = True
            continue
        for sym in range(N_SYMBOLS):
            if off.cls_mask[i] >> sym & 1:
                off_options[:, i, OFF_SYMBOL_PLAY[sym]] = True
                if sym == OFF_FIELD_GOAL:
                    off_options[:, i, P_FG_ADVANCE] = valid[:, P_FG_ADVANCE]
    def_options = np.zeros((Cd, N_PLAYS), dtype=bool)
    for j in range(Cd):
        if dfn.cls_special[j]:
            def_options[j, P_SIX_NO_GAIN] = True
            continue
        for sym in range(N_SYMBOLS):
            if dfn.cls_mask[j] >> sym & 1:
                def_options[j, DEF_SYMBOL_PLAY[sym]] = True
    off_beats = np.array([dfn.cls_prob[dfn.cls_top < t].sum() for t in off.cls_top])
    def_beats = np.array([off.cls_prob[off.cls_top < t].sum() for t in dfn.cls_top])
    ti, tj = np.nonzero(off.cls_top[:, None] == dfn.cls_top[None, :])
    return Model(off=off, dfn=dfn, pos=np.array(pos), down=np.array(down), series=np.array(series),
                 index=index, play_valid=valid, play_ds=ds, play_do=do, play_flip=flip, play_f=nf,
                 kick_prob=kp, kick_ds=kds, kick_do=kdo, kick_flip=kfl.astype(bool), kick_f=kf,
                 off_options=off_options, def_options=def_options, off_beats=off_beats, def_beats=def_beats,
                 tie_i=ti, tie_j=tj, tie_w=off.cls_prob[ti] * dfn.cls_prob[tj])


# --- the value of each decision after a roll (any leading axes) ------------------------------------------

def subset_best(vals, sign):
    """(best [..., 16], arg [..., 16]) over every subset (bitmask) of the last axis's 4 entries: the max
    (sign 1) or min (sign -1) and the lowest entry reaching it; the empty set gives -inf * sign, arg 0."""
    shape = vals.shape[:-1]
    best = np.full(shape + (16,), -np.inf * sign)
    arg = np.zeros(shape + (16,), dtype=np.int64)
    for mask in range(1, 16):
        low = (mask & -mask).bit_length() - 1
        rest = mask & (mask - 1)
        v = vals[..., low]
        better = sign * v >= sign * best[..., rest]  # the lower symbol wins ties
        best[..., mask] = np.where(better, v, best[..., rest])
        arg[..., mask] = np.where(better, low, arg[..., rest])
    return best, arg


def symbol_values(W):
    """W [..., N_PLAYS, 2]: the offence's value after each play (chip holder after the roll on the last
    axis). Returns (off [..., 2, 4], dfn [..., 2, 4], adv [..., 2], Wt [..., 2, N_PLAYS]): the value of
    each symbol's play (FIELD GOAL at 50 or beyond: the better of taking 3 and advancing, ``adv`` where
    advancing is strictly better), chip holder after the roll on axis -2."""
    Wt = np.swapaxes(W, -1, -2)
    adv = Wt[..., P_FG_ADVANCE] > Wt[..., P_FG]  # False where the advance does not exist (NaN)
    off = Wt[..., list(OFF_SYMBOL_PLAY)].copy()
    off[..., OFF_FIELD_GOAL] = np.where(adv, Wt[..., P_FG_ADVANCE], Wt[..., P_FG])
    return off, Wt[..., list(DEF_SYMBOL_PLAY)], adv, Wt


def class_values(m: Model, W, with_choice: bool = False):
    """(offwin [..., C_off, 2], defwin [..., C_def, 2]): the offence's value when the offence (defence) wins
    the roll with each class and chooses its best play (chip holder after the roll last); with
    ``with_choice`` also the plays chosen (int64, same shapes; the lowest symbol among equal values)."""
    off, dfn, adv, Wt = symbol_values(W)
    ob, oa = subset_best(off, 1.0)  # [..., 2, 16]
    db, da = subset_best(dfn, -1.0)
    offwin = np.where(m.off.cls_special, Wt[..., P_SIX_10, None], ob[..., m.off.cls_mask])
    defwin = np.where(m.dfn.cls_special, Wt[..., P_SIX_NO_GAIN, None], db[..., m.dfn.cls_mask])
    offwin, defwin = np.swapaxes(offwin, -1, -2), np.swapaxes(defwin, -1, -2)
    if not with_choice:
        return offwin, defwin
    sym = oa[..., m.off.cls_mask]  # [..., 2, C]
    play = np.asarray(OFF_SYMBOL_PLAY)[sym]
    play = np.where((sym == OFF_FIELD_GOAL) & adv[..., None], P_FG_ADVANCE, play)
    off_play = np.where(m.off.cls_special, P_SIX_10, play)
    def_play = np.where(m.dfn.cls_special, P_SIX_NO_GAIN, np.asarray(DEF_SYMBOL_PLAY)[da[..., m.dfn.cls_mask]])
    return offwin, defwin, np.swapaxes(off_play, -1, -2), np.swapaxes(def_play, -1, -2)


def tie_values(m: Model, offwin, defwin):
    """(o, d) [..., NT]: on each tie pair, the offence's value if the offence wins the roll (the chip then
    ends with the defence: the offence used it, or the defence kept it) and if the defence wins."""
    return offwin[..., m.tie_i, CHIP_DEFENCE], defwin[..., m.tie_j, CHIP_OFFENCE]


def roll_value(m: Model, offwin, defwin):
    """[..., 2]: the offence's value of a roll, both sides deciding best, for each chip holder."""
    nontie = (np.einsum("...ih,i->...h", offwin, m.off.cls_prob * m.off_beats)
              + np.einsum("...jh,j->...h", defwin, m.dfn.cls_prob * m.def_beats))
    o, d = tie_values(m, offwin, defwin)
    return nontie + np.stack([np.maximum(o, d) @ m.tie_w, np.minimum(o, d) @ m.tie_w], axis=-1)


def lookahead(m: Model, V: np.ndarray, target: int, a, b, f, kicks: bool = True):
    """For states (a, b, f) [B] with the solved table V [T, T, F, 2]: (W [B, N_PLAYS, 2] the offence's
    value after each play, chip holder after the roll last, NaN for plays that do not exist there;
    K [B, 2 kinds, 2 holder] the value of a punt and of a field-goal try, None without ``kicks``)."""
    T = target
    a, b, f = (np.asarray(x, dtype=np.int64) for x in (a, b, f))

    def value(ds, do, flip, f2, c):
        ex = (slice(None),) + (None,) * (ds.ndim - 1)
        A2, B2 = a[ex] + ds, b[ex] + do
        ai, bi = np.minimum(A2, T - 1), np.minimum(B2, T - 1)
        ch = np.where(flip, 1 - c, c)
        at = ((np.where(flip, bi, ai) * T + np.where(flip, ai, bi)) * F + f2) * 2 + ch
        v = V.reshape(-1)[at]
        v = np.where(flip, 1.0 - v, v)
        return np.where(A2 >= T, 1.0, np.where(B2 >= T, 0.0, v))

    F = m.n_fields
    c = np.arange(2)
    W = value(m.play_ds[f][..., None], m.play_do[f][..., None], m.play_flip[f][..., None],
              m.play_f[f][..., None], c)  # [B, P, 2]
    W = np.where(m.play_valid[f][..., None], W, np.nan)
    if not kicks:
        return W, None
    kv = value(m.kick_ds[f][..., None], m.kick_do[f][..., None], m.kick_flip[f][..., None],
               m.kick_f[f][..., None], c)  # [B, 2, K, 2]
    K = np.einsum("bkeh,bke->bkh", kv, m.kick_prob[f])
    return W, K


# --- one level's equations ---------------------------------------------------------------------------------

@dataclass
class Tables:
    """Decisions (as chances, so mixed policies fit) over one level's pairs [nL]: ``off`` [nL, F, C_off, 2
    chip after, N_PLAYS] the offence's play after winning with class i, ``dfn`` [nL, F, C_def, 2, N_PLAYS],
    ``use`` [nL, F, 2 holder, NT] the chance that the holder uses the chip on tie pair t, ``declare``
    [nL, F, 2 holder, 3] the 4th-down declaration (GO on other downs)."""

    off: np.ndarray
    dfn: np.ndarray
    use: np.ndarray
    declare: np.ndarray

    @classmethod
    def from_choices(cls, off_play, def_play, use, declare) -> "Tables":
        eye_p, eye_d = np.eye(N_PLAYS), np.eye(3)
        return cls(eye_p[off_play], eye_p[def_play], use.astype(float), eye_d[declare])


def level_pairs(level: int, target: int):
    """Score pairs (a, b) of a level a + b below the target, a ascending, and each pair's swapped index."""
    a = np.arange(max(0, level - target + 1), min(level, target - 1) + 1)
    b = level - a
    return a, b, b - a[0]


@dataclass
class _Edges:
    """Where the entries of one level lead: ``base`` the value fixed by higher levels or the end of the
    game, plus (in-level entries) ``coef`` times the level's value at flat index ``tgt``."""

    base: np.ndarray
    coef: np.ndarray
    tgt: np.ndarray

    def values(self, VL: np.ndarray) -> np.ndarray:
        return self.base + self.coef * VL.ravel()[self.tgt]


def _edges(m: Model, V, target, a_s, b_s, swap, ds, do, flip, f2, chip2, sigma=None) -> _Edges:
    """Entries with points (ds, do), possession change ``flip``, next field f2 and chip holder ``chip2``
    (relative to the old offence), from every pair of the level: arrays [nL, *entry shape].

    One-sided (``sigma`` None): V [T, T, F, 2] is the offence's value; an in-level entry that changes
    possession is 1 minus the other team's value. Two-sided (``sigma`` 0: side P has the ball, 1: side O):
    V [2, T, T, F, 2] is P's value in both arrangements; the flat index runs over [2, nL, F, 2]."""
    T, F = target, m.n_fields
    ex = (slice(None),) + (None,) * np.ndim(ds)
    A2, B2 = a_s[ex] + ds, b_s[ex] + do
    win, lose = A2 >= T, B2 >= T
    ch = np.where(flip, 1 - chip2, chip2)
    inl = ~win & ~lose & (ds + do == 0)
    ai, bi = np.minimum(A2, T - 1), np.minimum(B2, T - 1)
    nL = a_s.size
    pair = np.where(flip, swap[ex], np.arange(nL)[ex])
    if sigma is None:
        higher = np.where(flip, 1.0 - V[bi, ai, f2, ch], V[ai, bi, f2, ch])
        base = np.where(win, 1.0, np.where(lose, 0.0, np.where(inl, flip.astype(float), higher)))
        coef = np.where(inl, np.where(flip, -1.0, 1.0), 0.0)
        tgt = np.where(inl, (pair * F + f2) * 2 + ch, 0)
    else:
        higher = np.where(flip, V[1 - sigma][bi, ai, f2, ch], V[sigma][ai, bi, f2, ch])
        p_off = 1.0 if sigma == 0 else 0.0  # P's value when the offence wins the game
        base = np.where(win, p_off, np.where(lose, 1.0 - p_off, np.where(inl, 0.0, higher)))
        coef = np.where(inl, 1.0, 0.0)
        side = np.where(flip, 1 - sigma, sigma)
        tgt = np.where(inl, ((side * nL + pair) * F + f2) * 2 + ch, 0)
    shape = np.broadcast_shapes(base.shape, coef.shape, tgt.shape)
    return _Edges(np.broadcast_to(base, shape), np.broadcast_to(coef, shape), np.broadcast_to(tgt, shape))


class Level:
    """One level's entries: plays [nL, F, N_PLAYS, 2 chip after] and kicks [nL, F, 2 kinds, K, 2 holder]
    (the chip never moves in a kick, ruling 13)."""

    def __init__(self, m: Model, V: np.ndarray, target: int, level: int, sigma=None):
        self.m, self.target = m, target
        self.a_s, self.b_s, self.swap = level_pairs(level, target)
        nL, F = self.a_s.size, m.n_fields
        self.shape = (nL, F, 2)
        args = (m, V, target, self.a_s, self.b_s, self.swap)
        self.plays = _edges(*args, m.play_ds[..., None], m.play_do[..., None], m.play_flip[..., None],
                            m.play_f[..., None], np.arange(2)[None, None, :], sigma)
        k = (slice(None), slice(None), slice(None), None)
        self.kicks = _edges(*args, m.kick_ds[k], m.kick_do[k], m.kick_flip[k], m.kick_f[k],
                            np.arange(2)[None, None, None, :], sigma)
        self.fourth = (m.down == DOWNS)[None, :, None]
        self.tie_to_i = np.zeros((m.tie_i.size, m.off.n_classes))  # tie pair -> its offence class
        self.tie_to_i[np.arange(m.tie_i.size), m.tie_i] = 1.0
        self.tie_to_j = np.zeros((m.tie_j.size, m.dfn.n_classes))
        self.tie_to_j[np.arange(m.tie_j.size), m.tie_j] = 1.0

    # -- optimal play (one-sided) --
    def play_values(self, VL):
        """[nL, F, N_PLAYS, 2]: the offence's value after each play (NaN where a play does not exist)."""
        return np.where(self.m.play_valid[None, :, :, None], self.plays.values(VL), np.nan)

    def kick_values(self, VL):
        """[nL, F, 2 kinds, 2 holder]: the value of a punt and of a field-goal try."""
        return np.einsum("lfkeh,fke->lfkh", self.kicks.values(VL), self.m.kick_prob)

    def bellman(self, VL):
        """The level's values after one step of optimal play by both sides from VL."""
        offwin, defwin = class_values(self.m, self.play_values(VL))
        go = roll_value(self.m, offwin, defwin)
        return np.where(self.fourth, np.maximum(go, self.kick_values(VL).max(axis=2)), go)

    def greedy(self, VL, old=None, tol: float = 0.0):
        """(off_play, def_play, use, declare) int tables of the best decisions against VL; ``old`` (a
        previous result) is kept wherever the new choice is not better by more than ``tol``."""
        m = self.m
        W = self.play_values(VL)
        offwin, defwin, off_play, def_play = class_values(m, W, with_choice=True)
        go = roll_value(m, offwin, defwin)
        o, d = tie_values(m, offwin, defwin)
        use = np.stack([o > d, d < o], axis=2)  # the holder keeps the chip on equal values
        opts = np.concatenate([go[:, :, None, :], self.kick_values(VL)], axis=2)  # [nL, F, 3, 2]
        declare = np.where(self.fourth, np.argmax(opts, axis=2), GO)
        if old is not None:
            Wt = np.swapaxes(W, -1, -2)  # [nL, F, 2, P]

            def q_of(table):
                t = np.swapaxes(table, -1, -2)
                return np.swapaxes(np.take_along_axis(Wt, t, axis=3), -1, -2)

            o_off, o_def, o_use, o_dec = old
            off_play = np.where(q_of(o_off) >= offwin - tol, o_off, off_play)
            def_play = np.where(q_of(o_def) <= defwin + tol, o_def, def_play)
            use = np.where(np.abs(o - d)[:, :, None, :] <= tol, o_use, use)
            q_old = np.take_along_axis(opts, o_dec[:, :, None, :], axis=2)[:, :, 0]
            declare = np.where(self.fourth & (q_old >= opts.max(axis=2) - tol), o_dec, declare)
        return off_play, def_play, use, declare

    # -- a given policy --
    def masses(self, t: Tables):
        """The chance of every entry from each state under ``t``: (play mass [nL, F, 2 holder, N_PLAYS,
        2 chip after], kick mass [nL, F, 2 holder, 2 kinds])."""
        m = self.m
        nL, F, _ = self.shape
        M = np.zeros((nL, F, 2, N_PLAYS, 2))
        # a clear win keeps the chip where it is
        off_c = np.einsum("i,lfihp->lfhp", m.off.cls_prob * m.off_beats, t.off)
        def_c = np.einsum("j,lfjhp->lfhp", m.dfn.cls_prob * m.def_beats, t.dfn)
        for h in (0, 1):
            M[:, :, h, :, h] = off_c[:, :, h] + def_c[:, :, h]
        # equal counts: the offence wins when its holder uses the chip or the defence's keeps it
        off_wins = np.stack([t.use[:, :, 0], 1.0 - t.use[:, :, 1]], axis=2) * m.tie_w  # [nL, F, 2, NT]
        wo = off_wins @ self.tie_to_i
        wd = (m.tie_w - off_wins) @ self.tie_to_j
        M[..., CHIP_DEFENCE] += np.einsum("lfhi,lfip->lfhp", wo, t.off[:, :, :, CHIP_DEFENCE])
        M[..., CHIP_OFFENCE] += np.einsum("lfhj,lfjp->lfhp", wd, t.dfn[:, :, :, CHIP_OFFENCE])
        go = np.where(self.fourth, t.declare[..., GO], 1.0)
        K = np.where(self.fourth[..., None], t.declare[..., 1:], 0.0)
        return M * go[..., None, None], K

    def masses_of_choices(self, off_play, def_play, use, declare):
        """``masses`` for a deterministic policy (the int tables of ``greedy``), by counting."""
        m = self.m
        nL, F, _ = self.shape
        lf = (np.arange(nL)[:, None, None] * F + np.arange(F)[None, :, None]) * 2  # flat (l, f, holder 0)
        idx, wts = [], []

        def add(h, play, chip_after, w):
            idx.append((((lf + h) * N_PLAYS + play) * 2 + chip_after).ravel())
            wts.append(np.broadcast_to(w, play.shape).ravel())

        for h in (0, 1):
            add(h, off_play[:, :, :, h], h, m.off.cls_prob * m.off_beats)  # a clear win: the chip stays
            add(h, def_play[:, :, :, h], h, m.dfn.cls_prob * m.def_beats)
            off_wins = (use[:, :, h] if h == CHIP_OFFENCE else ~use[:, :, h]) * m.tie_w
            add(h, off_play[:, :, :, CHIP_DEFENCE], CHIP_DEFENCE, off_wins @ self.tie_to_i)
            add(h, def_play[:, :, :, CHIP_OFFENCE], CHIP_OFFENCE, (m.tie_w - off_wins) @ self.tie_to_j)
        M = np.bincount(np.concatenate(idx), weights=np.concatenate(wts),
                        minlength=nL * F * 2 * N_PLAYS * 2).reshape(nL, F, 2, N_PLAYS, 2)
        M *= ((declare == GO) | ~self.fourth)[..., None, None]
        K = np.stack([declare == PUNT, declare == FIELD_GOAL_TRY], axis=-1) & self.fourth[..., None]
        return M, K.astype(float)

    def system(self, play_mass, kick_mass, offset: int = 0):
        """(rows, cols, coefs, const) of V = const + sum coef V[col] for the level's states (rows from
        ``offset``)."""
        m = self.m
        x = offset + np.arange(play_mass[..., 0, 0].size).reshape(self.shape)
        pm = np.where(m.play_valid[None, :, None, :, None], play_mass, 0.0)
        base = np.where(m.play_valid[None, :, None, :, None], self.plays.base[:, :, None], 0.0)
        const = (pm * base).sum(axis=(3, 4))
        coef = pm * self.plays.coef[:, :, None]
        keep = coef != 0
        r1 = np.broadcast_to(x[:, :, :, None, None], pm.shape)[keep]
        c1 = np.broadcast_to(self.plays.tgt[:, :, None], pm.shape)[keep]
        v1 = coef[keep]
        kw = kick_mass[..., None] * self.m.kick_prob[None, :, None]  # [nL, F, h, kind, K]
        kb, kc, kt = (np.moveaxis(a, 4, 2) for a in (self.kicks.base, self.kicks.coef, self.kicks.tgt))
        const = const + (kw * kb).sum(axis=(3, 4))
        coef = kw * kc
        keep = coef != 0
        r2 = np.broadcast_to(x[:, :, :, None, None], kw.shape)[keep]
        return (np.concatenate([r1, r2]), np.concatenate([c1, kt[keep]]), np.concatenate([v1, coef[keep]]),
                const.ravel())

    def evaluate(self, t: Tables) -> np.ndarray:
        """[nL, F, 2]: the exact values of the level's states under ``t`` (one sparse solve)."""
        rows, cols, coefs, const = self.system(*self.masses(t))
        return _solve(rows, cols, coefs, const).reshape(self.shape)


def _solve(rows, cols, coefs, const):
    n = const.size
    A = sp.identity(n, format="csc") - sp.csc_matrix((coefs, (rows, cols)), shape=(n, n))
    return spla.spsolve(A, const)


IMPROVE_TOL = 1e-14


def solve_levels(m: Model, target: int, sweeps: int = 12, progress=None) -> np.ndarray:
    """V [T, T, F, 2]: the exact win probability of the offence before each roll (before the declaration
    on 4th down), both sides playing best; level by level from the top: value iteration to a first policy,
    then policy iteration with exact solves until no decision improves any value by more than IMPROVE_TOL
    (the Bellman residual is then at rounding level, about 1e-15)."""
    T = target
    V = np.zeros((T, T, m.n_fields, 2))
    for level in range(2 * T - 2, -1, -1):
        L = Level(m, V, T, level)
        VL = np.full(L.shape, 0.5)
        for _ in range(sweeps):
            VL = L.bellman(VL)
        pol = L.greedy(VL)
        for _ in range(100):
            rows, cols, coefs, const = L.system(*L.masses_of_choices(*pol))
            VL = _solve(rows, cols, coefs, const).reshape(L.shape)
            new = L.greedy(VL, old=pol, tol=IMPROVE_TOL)
            if all(np.array_equal(x, y) for x, y in zip(new, pol)):
                break
            pol = new
        else:
            raise RuntimeError(f"policy iteration did not settle at level {level}")
        V[L.a_s, L.b_s] = VL
        if progress:
            progress(level)
    return V


def evaluate_two_sided(m: Model, target: int, tables_for, progress=None) -> np.ndarray:
    """W [2, T, T, F, 2]: side P's exact win probability when P has the ball (axis 0 = 0) or O has it
    (1), with a, b the scores of the team with the ball. ``tables_for(a_s, b_s) -> (P's Tables, O's
    Tables)`` gives each side's decisions over a level's pairs (each side's tables cover both roles; the
    offence's decisions come from the side with the ball, the defence's from the other)."""
    T = target
    W = np.zeros((2, T, T, m.n_fields, 2))
    for level in range(2 * T - 2, -1, -1):
        a_s, b_s, _ = level_pairs(level, T)
        tp, to = tables_for(a_s, b_s)
        rows, cols, coefs, consts = [], [], [], []
        n = a_s.size * m.n_fields * 2
        for sigma, (offence, defence) in enumerate(((tp, to), (to, tp))):
            L = Level(m, W, T, level, sigma=sigma)
            mixed = Tables(offence.off, defence.dfn,
                           np.stack([offence.use[:, :, 0], defence.use[:, :, 1]], axis=2), offence.declare)
            r, c, v, k = L.system(*L.masses(mixed), offset=sigma * n)
            rows.append(r), cols.append(c), coefs.append(v), consts.append(k)
        X = _solve(np.concatenate(rows), np.concatenate(cols), np.concatenate(coefs), np.concatenate(consts))
        W[:, a_s, b_s] = X.reshape(2, *L.shape)
        if progress:
            progress(level)
    return W
