"""The exact solver of Sports Dice (ruling 17): optimal play and exact win probabilities.

``solve(config) -> Solution``. A win counts 1, a loss 0; there are no draws. The model (``model.py``) is
the game from the rulings: states (offence score, defence score, position, down, series target, chip
holder) before each roll, with every decision of a roll (the chip call on equal counts, the winner's
choice among tied symbols, take 3 or advance 25) valued inside it and the 4th-down declaration before it.
Scores only go up, so levels a + b are solved from the top; each level, where possession and position can
cycle, by value iteration then policy iteration with exact sparse solves (the Bellman residual is about
1e-15). The engine's cap on rolls is ignored (a game that never ends has probability 0). The solve takes
about 10-25 s at the default target (21) on the 2-core machine; the result is memoised and cached on disk.

Conventions (as Table Football's): ``Solution.value(state)`` is the exact win probability of the team with
the ball (``state.offence``) in every phase, also when the other team decides (in the ``toss`` phase the
engine holds the toss winner as ``offence``: its value after its best choice); ``value_for(state, team)``
of any team; ``action_values`` of the team to act after each legal action; ``policy`` its optimal action
(the lowest id among the best within 1e-12; -1 when no action is legal). A truncated game is valued as if
it went on.

``exact_win_probability(agent, config)`` evaluates a stationary policy exactly against the optimal
opponent (policy evaluation over the same model, both arrangements of who has the ball at once). The agent
is asked once at a representative state of every decision class: the field state, scores and chip holder,
and of a roll the classes of both sides (top count, top symbols, six of a kind) with the likeliest dice of
each class. This is exact for policies that see a roll only through those classes (as the rules do, and
the solver's own policy); a policy that reads more of the dice is judged by its choice at the likeliest
dice. Agents with ``action_probabilities(state, config)`` are evaluated as mixed policies.

``python -m gridiron_env.sports_dice.solve`` prints a summary and saves the solution (npz, no pickles,
validated on load).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import actions as A
from . import model as M
from .config import SportsDiceConfig
from .engine import recompute_legal
from .state import (
    CHIP, DEFENCE_PLAY, DICE, END_ZONE, FIELD_GOAL_CHOICE, FOURTH_DOWN, MIDFIELD, NO_CALL,
    OFFENCE_PLAY, PHASE_NAMES, ROLL_PLAY, SNAP, State, TOSS, USED,
)

FORMAT = "sports-dice-solution-v1"
SOLVER_VERSION = "1"  # part of the disk cache's key: bump when the model changes
POLICY_TOL = 1e-12  # actions within this of the best count as best (the lowest id is played)
_DEFAULT_MAX_ROLLS = SportsDiceConfig().max_rolls


def model_of(config: SportsDiceConfig) -> M.Model:
    """The solver's model of a config's face tables."""
    return M.build_model(config.offence_face_codes, config.defence_face_codes, DICE)


def _class_table(dice: M.Dice) -> np.ndarray:
    """[DICE + 1, 16]: class of (top count, top bitmask), -1 none."""
    t = np.full((DICE + 1, 16), -1, dtype=np.int64)
    t[dice.cls_top, dice.cls_mask] = np.arange(dice.n_classes)
    return t


class Solution:
    """Exact values and the optimal policy of one config (see the module docstring).

    ``arrays["V"]`` [T, T, F, 2]: the win probability of the offence with score a against b before its roll
    at field state f (``model.Model``) with the chip held by the offence (0) or the defence (1)."""

    def __init__(self, config: SportsDiceConfig, arrays: dict):
        self.config = config
        self.model = model_of(config)
        self.arrays = arrays
        self._off_cls = _class_table(self.model.off)
        self._def_cls = _class_table(self.model.dfn)

    # -- the interface --------------------------------------------------------------------------------------
    @property
    def opener_win_probability(self) -> float:
        """The team that starts on offence (at 0-0 from its 25, the other team holding the chip), both
        sides playing optimally."""
        return float(self.arrays["opener_win_probability"])

    @property
    def toss_winner_win_probability(self) -> float:
        """The toss winner, after its best choice of offence or defence."""
        return float(self.arrays["toss_winner_win_probability"])

    def value_at(self, offence_score, defence_score, position, down, target, offence_holds_chip) -> np.ndarray:
        """float64: the offence's win probability before a roll (arrays broadcast; target 50 or 100)."""
        m, T = self.model, self.config.target_score
        a, b = np.asarray(offence_score), np.asarray(defence_score)
        f = m.field(position, down, np.where(np.asarray(target) == END_ZONE, M.END_ZONE, M.MIDFIELD))
        if (f < 0).any() or (a < 0).any() or (b < 0).any():
            raise ValueError("value_at: no such state (positions 5-95 by 5, downs 1-4, a midfield target short "
                             "of the 50, scores >= 0)")
        chip = np.where(np.asarray(offence_holds_chip, dtype=bool), M.CHIP_OFFENCE, M.CHIP_DEFENCE)
        v = self.arrays["V"][np.minimum(a, T - 1), np.minimum(b, T - 1), f, chip]
        return np.where(a >= T, 1.0, np.where(b >= T, 0.0, v))

    def value(self, state: State) -> np.ndarray:
        """float64 [B]: exact win probability of the team with the ball (``state.offence``)."""
        return self.value_for(state, state.offence)

    def value_for(self, state: State, team) -> np.ndarray:
        """float64 [B]: exact win probability of ``team`` (an int or one per game)."""
        team = np.broadcast_to(np.asarray(team, dtype=np.int64), (state.batch_size,))
        v = self._offence_value(state)
        v = np.where(state.offence == team, v, 1.0 - v)
        return np.where(state.terminated, (state.winner == team).astype(float), v)

    def action_values(self, state: State) -> np.ndarray:
        """float64 [B, NUM_ACTIONS]: exact win probability of the team to act after each action; NaN for
        illegal actions and finished games."""
        q = self._offence_action_values(state)
        q = np.where((state.to_act == state.offence)[:, None], q, 1.0 - q)
        return np.where(state.legal, q, np.nan)

    def policy(self, state: State) -> np.ndarray:
        """int64 [B]: an optimal action of the team to act (the lowest id among the best); -1 when over."""
        q = self.action_values(state)
        live = state.legal.any(axis=1)
        qq = np.where(np.isnan(q), -np.inf, q)
        best = qq.max(axis=1, initial=-np.inf)
        choice = np.argmax(qq >= best[:, None] - POLICY_TOL, axis=1)
        return np.where(live, choice, -1).astype(np.int64)

    def save(self, path) -> None:
        """Write the solution as an npz of plain arrays and a JSON meta record (no pickles)."""
        meta = json.dumps({"format": FORMAT, "config": _config_dict(self.config)})
        with open(path, "wb") as f:
            np.savez_compressed(f, meta=np.array(meta), **self.arrays)

    # -- the lookahead ----------------------------------------------------------------------------------------
    def _indices(self, state: State):
        m, T = self.model, self.config.target_score
        rows = np.arange(state.batch_size)
        off = state.offence.astype(np.int64)
        a = np.minimum(state.score[rows, off].astype(np.int64), T - 1)
        b = np.minimum(state.score[rows, 1 - off].astype(np.int64), T - 1)
        series = np.where(state.target == END_ZONE, M.END_ZONE, M.MIDFIELD)
        f = m.field(state.position, state.down, series)
        f = np.where(f >= 0, f, m.start)  # finished games' fields are not read
        chip = np.where(state.chip == state.offence, M.CHIP_OFFENCE, M.CHIP_DEFENCE)
        return a, b, f, chip

    def _offence_value(self, state: State) -> np.ndarray:
        q = self._offence_action_values(state)
        off_decides = (state.to_act == state.offence)[:, None]
        qq = np.where(state.legal, q, np.nan)
        live = state.legal.any(axis=1)
        best = np.where(off_decides[:, 0], np.nanmax(np.where(state.legal, qq, -np.inf), axis=1),
                        np.nanmin(np.where(state.legal, qq, np.inf), axis=1))
        a, b, f, chip = self._indices(state)
        stored = self.arrays["V"][a, b, f, chip]
        return np.where(live, best, stored)

    def _lookahead_tables(self) -> dict:
        """The one-step values of every model state (flat index (a T + b) F + f), computed once: ``off`` /
        ``dfn`` [N, 2 chip after, 4] the symbols' values (FIELD GOAL: its better choice), ``Wt`` [N, 2,
        N_PLAYS] every play's, ``kicks`` [N, 2 kinds, 2 holder], ``go`` [N, 2] the roll's, ``offwin``
        [N, C_off] / ``defwin`` [N, C_def] a roll won by each class on a tie (the chip then with the
        defence / the offence)."""
        if getattr(self, "_look", None) is None:
            m, T, V = self.model, self.config.target_score, self.arrays["V"]
            a, b, f = (x.ravel() for x in np.meshgrid(np.arange(T), np.arange(T), np.arange(m.n_fields), indexing="ij"))
            W, K = M.lookahead(m, V, T, a, b, f)
            offwin, defwin = M.class_values(m, W)
            off_sym, def_sym, _, Wt = M.symbol_values(W)
            self._look = {"off": off_sym, "dfn": def_sym, "Wt": Wt, "kicks": K,
                          "go": M.roll_value(m, offwin, defwin),
                          "offwin": offwin[:, :, M.CHIP_DEFENCE].copy(), "defwin": defwin[:, :, M.CHIP_OFFENCE].copy()}
        return self._look

    def _offence_action_values(self, state: State) -> np.ndarray:
        """float64 [B, NUM_ACTIONS]: the offence's win probability after each action (NaN where illegal);
        each phase computes only what its actions need."""
        m, V, look = self.model, self.arrays["V"], self._lookahead_tables()
        T, F = self.config.target_score, m.n_fields
        B = state.batch_size
        a, b, f, chip = self._indices(state)
        x = (a * T + b) * F + f
        q = np.full((B, A.NUM_ACTIONS), np.nan)
        ph = state.phase

        def rows(*phases):
            g = np.flatnonzero(np.isin(ph, phases))
            return g, x[g], chip[g]

        g, xg, _ = rows(TOSS)
        if g.size:  # choose defence hands the other team the ball; the team on defence holds the chip (ruling 4)
            q[g, A.CHOOSE_OFFENCE] = V.reshape(-1, 2)[xg, M.CHIP_DEFENCE]
            q[g, A.CHOOSE_DEFENCE] = 1.0 - V[b[g], a[g], f[g], M.CHIP_DEFENCE]
        g, xg, cg = rows(SNAP, FOURTH_DOWN)
        q[g, A.ROLL] = q[g, A.GO_FOR_IT] = look["go"][xg, cg]
        q[g, A.PUNT] = look["kicks"][xg, M.KICK_PUNT, cg]
        q[g, A.FIELD_GOAL] = look["kicks"][xg, M.KICK_FIELD_GOAL, cg]
        g, xg, cg = rows(OFFENCE_PLAY)
        q[g, A.PLAY_BASE:A.PLAY_BASE + 4] = look["off"][xg, cg]
        g, xg, cg = rows(DEFENCE_PLAY)
        q[g, A.PLAY_BASE + 4:A.PLAY_BASE + 8] = look["dfn"][xg, cg]
        g, xg, cg = rows(FIELD_GOAL_CHOICE)
        q[g, A.TAKE_POINTS] = look["Wt"][xg, cg, M.P_FG]
        q[g, A.ADVANCE] = look["Wt"][xg, cg, M.P_FG_ADVANCE]
        g, xg, cg = rows(CHIP)
        if g.size:
            i = self._off_cls[np.clip(state.counts[g, 0], 0, DICE), state.top[g, 0] & 15]
            j = self._def_cls[np.clip(state.counts[g, 1], 0, DICE), state.top[g, 1] & 15]
            if (i < 0).any() or (j < 0).any():
                bad = int(g[np.flatnonzero((i < 0) | (j < 0))[0]])
                raise ValueError(f"game {bad}: its roll (counts {state.counts[bad].tolist()}, top "
                                 f"{state.top[bad].tolist()}) cannot come from the config's dice")
            o = look["offwin"][xg, i]  # the offence's side wins the tie: the chip ends with the defence
            d = look["defwin"][xg, j]
            holder_off = cg == M.CHIP_OFFENCE
            q[g, A.USE_CHIP] = np.where(holder_off, o, d)
            q[g, A.KEEP_CHIP] = np.where(holder_off, d, o)
        return np.where(state.legal, q, np.nan)


def _config_dict(config: SportsDiceConfig) -> dict:
    d = config.to_dict()
    return {k: list(v) if isinstance(v, tuple) else v for k, v in d.items()}


def _config_from_dict(d) -> SportsDiceConfig:
    if not isinstance(d, dict):
        raise ValueError("its config is not a record")
    return SportsDiceConfig.from_dict({k: tuple(v) if isinstance(v, list) else v for k, v in d.items()})


# --- solving, the memo and the disk cache -----------------------------------------------------------------

_MEMO: dict = {}


def default_cache_dir() -> Path:
    """Where solutions are cached: $SPORTS_DICE_CACHE, else $XDG_CACHE_HOME/gridiron_env, else
    ~/.cache/gridiron_env."""
    if os.environ.get("SPORTS_DICE_CACHE"):
        return Path(os.environ["SPORTS_DICE_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "gridiron_env"


def config_digest(config: SportsDiceConfig) -> str:
    text = json.dumps(_config_dict(config), sort_keys=True) + "|solver " + SOLVER_VERSION
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def cache_path(config: SportsDiceConfig, cache_dir=None) -> Path:
    key = config.replace(max_rolls=_DEFAULT_MAX_ROLLS)
    return Path(cache_dir or default_cache_dir()) / f"sports_dice_{config_digest(key)}.npz"


def _solve_arrays(config: SportsDiceConfig, progress=None) -> dict:
    m = model_of(config)
    V = M.solve_levels(m, config.target_score, progress=progress)
    opener = float(V[0, 0, m.start, M.CHIP_DEFENCE])
    return {"V": V, "opener_win_probability": np.array(opener),
            "toss_winner_win_probability": np.array(max(opener, 1.0 - opener))}


def solve(config: SportsDiceConfig | None = None, cache: bool = True, cache_dir=None, progress=None) -> Solution:
    """The exact solution of ``config`` (memoised in the process; with ``cache`` also read from / written to
    the disk cache, ``default_cache_dir()``; a cached file that fails validation is solved again)."""
    config = config if config is not None else SportsDiceConfig()
    if not isinstance(config, SportsDiceConfig):
        raise ValueError(f"solve needs a SportsDiceConfig, got {type(config).__name__}")
    key = config.replace(max_rolls=_DEFAULT_MAX_ROLLS)  # the solver ignores the cap
    sol = _MEMO.get(key)
    if sol is None:
        path = cache_path(key, cache_dir) if cache else None
        if path is not None and path.exists():
            try:
                sol = load_solution(path)
            except ValueError:
                sol = None
            if sol is not None and sol.config != key:
                sol = None
        if sol is None:
            sol = Solution(key, _solve_arrays(key, progress))
            if path is not None:
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    tmp = path.with_suffix(f".{os.getpid()}.tmp")
                    sol.save(tmp)
                    os.replace(tmp, path)
                except OSError:
                    pass  # a read-only cache is no error: the solution is in memory
        _MEMO[key] = sol
    if sol.config != config:
        sol = Solution(config, sol.arrays)
    return sol


# --- files ---------------------------------------------------------------------------------------------------

def load_solution(path) -> Solution:
    """A solution saved by ``Solution.save``, validated: format, config, array names, shapes, dtypes and
    ranges, the start values against V, and V against the Bellman equations (residual < 1e-9)."""
    from ..table_football.solve import read_archive  # the same reader: nothing unpickled, sizes capped

    meta, data = read_archive(path)
    try:
        if not isinstance(meta, dict):
            raise ValueError("not a JSON object")
        config = _config_from_dict(meta.get("config"))
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: bad meta record ({exc})") from None
    if meta.get("format") != FORMAT:
        raise ValueError(f"{path}: format {meta.get('format')!r}, expected {FORMAT!r}")
    m, T = model_of(config), config.target_score
    expected = {"V": (T, T, m.n_fields, 2), "opener_win_probability": (), "toss_winner_win_probability": ()}
    if set(data) != set(expected):
        raise ValueError(f"{path}: arrays {sorted(data)}, expected {sorted(expected)}")
    for name, shape in expected.items():
        arr = data[name]
        if arr.shape != shape or arr.dtype != np.float64:
            raise ValueError(f"{path}: arrays do not fit the game of target {T}: {name} is {arr.dtype} "
                             f"{arr.shape}, expected float64 {shape}")
        if not np.isfinite(arr).all() or arr.min() < 0 or arr.max() > 1:
            raise ValueError(f"{path}: {name} holds values outside [0, 1]")
    V = data["V"]
    opener = float(V[0, 0, m.start, M.CHIP_DEFENCE])
    if float(data["opener_win_probability"]) != opener or \
            float(data["toss_winner_win_probability"]) != max(opener, 1.0 - opener):
        raise ValueError(f"{path}: the start values do not match V")
    residual = bellman_residual(m, T, V)
    if not residual < 1e-9:
        raise ValueError(f"{path}: V is not the game's solution (Bellman residual {residual:.3g})")
    return Solution(config, data)


def bellman_residual(m: M.Model, target: int, V: np.ndarray) -> float:
    """max |V - one step of optimal play from V| over every state: 0 (to rounding) for the solution."""
    worst = 0.0
    for level in range(2 * target - 2, -1, -1):
        L = M.Level(m, V, target, level)
        VL = V[L.a_s, L.b_s]
        worst = max(worst, float(np.abs(L.bellman(VL) - VL).max()))
    return worst


# --- exact evaluation of a stationary policy ------------------------------------------------------------------

@dataclass(frozen=True)
class PolicyValue:
    """Exact win probabilities of a policy against the optimal opponent."""

    opening: float  # the policy's team starts on offence
    receiving: float  # the optimal team starts on offence
    toss_won: float  # the policy's team wins the toss and makes its choice
    toss_lost: float  # the optimal team wins the toss and makes its choice
    overall: float  # before the toss (1/2 each)


@dataclass
class _Reps:
    """Representative decision states of one level (see ``representative_states``) and where each goes."""

    state: State
    kind: np.ndarray  # 0 fourth down, 1 chip, 2 offence play, 3 defence play, 4 field goal choice
    l: np.ndarray
    f: np.ndarray
    h: np.ndarray  # holder before the roll (fourth down, chip) or after it (the other kinds)
    k: np.ndarray  # tie pair (chip) or class (plays, field goal choice)


def _loser_class(winner: M.Dice, loser: M.Dice):
    """For each winner class: the loser's likeliest class with a lower count, else with the same count
    (then the roll was a tie), and whether it was a tie."""
    rep = np.zeros(winner.n_classes, dtype=np.int64)
    tie = np.zeros(winner.n_classes, dtype=bool)
    for i, c in enumerate(winner.cls_top):
        lower = np.flatnonzero(loser.cls_top < c)
        if lower.size:
            rep[i] = lower[np.argmax(loser.cls_prob[lower])]
        else:
            same = np.flatnonzero(loser.cls_top == c)
            rep[i], tie[i] = (same[np.argmax(loser.cls_prob[same])], True) if same.size else (0, False)
    return rep, tie


def _dice_rows(counts: np.ndarray, base: int) -> np.ndarray:
    """int8 [n, 6]: dice showing count vectors [n, 4], by symbol (codes + base)."""
    out = np.zeros((counts.shape[0], DICE), dtype=np.int8)
    ends = np.cumsum(counts, axis=1)
    for k in range(DICE):
        out[:, k] = base + (k >= ends).sum(axis=1)
    return out


def representative_states(config: SportsDiceConfig, a_s, b_s) -> _Reps:
    """Every decision class of the pairs (a_s[l], b_s[l]) as engine states, team one with the ball (its
    score a): the 4th-down declarations, the chip calls of every tie pair, the offence's and defence's
    choices among tied symbols and the field-goal choices (for each chip holder after the roll, and each
    class of the winner), with the likeliest dice of each class (module docstring)."""
    m = model_of(config)
    a_s, b_s = np.asarray(a_s, dtype=np.int64), np.asarray(b_s, dtype=np.int64)
    kind, l, f, h, k = representative_index(m, a_s.size)
    return _Reps(_representative_state(config, m, a_s, b_s, kind, l, f, h, k), kind, l, f, h, k)


def representative_index(m: M.Model, nL: int):
    """(kind, l, f, h, k) int64 [n]: the decision classes of ``nL`` score pairs, in the order of
    ``representative_states`` (see ``_Reps``), without building their states."""
    F = m.n_fields
    pieces = []
    pop = np.array([bin(x).count("1") for x in range(16)])

    def grid(kind, fields, hs, ks):
        l, f, h, k = (x.ravel() for x in np.meshgrid(np.arange(nL), fields, hs, ks, indexing="ij"))
        pieces.append((np.full(l.size, kind), l, f, h, k))

    fields = np.arange(F)
    grid(0, fields[m.down == M.DOWNS], np.arange(2), np.zeros(1, np.int64))
    grid(1, fields, np.arange(2), np.arange(m.tie_i.size))
    multi_off = np.flatnonzero((pop[m.off.cls_mask] > 1) & ~m.off.cls_special)
    multi_def = np.flatnonzero((pop[m.dfn.cls_mask] > 1) & ~m.dfn.cls_special)
    fg_off = np.flatnonzero((m.off.cls_mask >> M.OFF_FIELD_GOAL & 1).astype(bool) & ~m.off.cls_special)
    grid(2, fields, np.arange(2), multi_off)
    grid(3, fields, np.arange(2), multi_def)
    grid(4, fields[m.pos >= 50], np.arange(2), fg_off)
    kind, l, f, h, k = (np.concatenate(x) for x in zip(*pieces))
    lose_d, tie_d = _loser_class(m.off, m.dfn)
    lose_o, tie_o = _loser_class(m.dfn, m.off)
    # a class that can only win a tie leaves the chip with the loser's opponent (the offence wins a tie
    # with the chip then held by the defence, and the reverse): the other holder cannot happen
    offwin = (kind == 2) | (kind == 4)
    kk = np.where(offwin | (kind == 3), k, 0)
    never = (offwin & tie_d[kk] & (h == M.CHIP_OFFENCE)) | ((kind == 3) & tie_o[kk] & (h == M.CHIP_DEFENCE))
    return tuple(x[~never] for x in (kind, l, f, h, k))


def _representative_state(config: SportsDiceConfig, m: M.Model, a_s, b_s, kind, l, f, h, k) -> State:
    """The engine states of decision classes (kind, l, f, h, k) of the pairs (a_s, b_s)."""
    lose_d, tie_d = _loser_class(m.off, m.dfn)
    lose_o, tie_o = _loser_class(m.dfn, m.off)
    n = kind.size
    s = State.empty(n)
    s.offence[:], s.toss_winner[:], s.opener[:] = 0, 0, 0
    s.score[:, 0], s.score[:, 1] = a_s[l], b_s[l]
    s.position[:], s.down[:] = m.pos[f], m.down[f]
    s.target[:] = np.where(m.series[f] == M.END_ZONE, END_ZONE, MIDFIELD)
    s.chip[:] = np.where(h == M.CHIP_OFFENCE, 0, 1)
    s.phase[:] = np.array([FOURTH_DOWN, CHIP, OFFENCE_PLAY, DEFENCE_PLAY, FIELD_GOAL_CHOICE])[kind]
    s.rolls[:], s.steps[:] = 1, 2  # as after the toss and one roll (before any roll is the opening)
    # the roll: each side's class; before a 4th-down declaration, the last roll a defence's NO GAIN
    rolled = np.ones(n, dtype=bool)
    oc = np.zeros(n, dtype=np.int64)
    dc = np.zeros(n, dtype=np.int64)
    no_gain = np.flatnonzero((m.dfn.cls_mask == 1 << M.DEF_NO_GAIN) & ~m.dfn.cls_special & ~tie_o)
    if no_gain.size:
        j0 = no_gain[np.argmax(m.dfn.cls_prob[no_gain])]
        oc[kind == 0], dc[kind == 0] = lose_o[j0], j0
    else:  # (dice without a clear NO GAIN win: no last roll shown)
        rolled = kind > 0
        s.rolls[kind == 0], s.steps[kind == 0] = 0, 1
    oc[kind == 1], dc[kind == 1] = m.tie_i[k[kind == 1]], m.tie_j[k[kind == 1]]
    offwin = (kind == 2) | (kind == 4)
    oc[offwin], dc[offwin] = k[offwin], lose_d[k[offwin]]
    oc[kind == 3], dc[kind == 3] = lose_o[k[kind == 3]], k[kind == 3]
    was_tie = np.where(offwin, tie_d[np.where(offwin, k, 0)],
                       (kind == 3) & tie_o[np.where(kind == 3, k, 0)])  # the winner could only tie
    s.roll_kind[:] = np.where(rolled, ROLL_PLAY, -1)
    s.roll_offence[:] = np.where(rolled, 0, -1)
    s.dice[:, 0] = np.where(rolled[:, None], _dice_rows(m.off.cls_counts, 0)[oc], -1)
    s.dice[:, 1] = np.where(rolled[:, None], _dice_rows(m.dfn.cls_counts, 4)[dc], -1)
    s.counts[:, 0] = np.where(rolled, m.off.cls_top[oc], 0)
    s.counts[:, 1] = np.where(rolled, m.dfn.cls_top[dc], 0)
    s.top[:, 0] = np.where(rolled, m.off.cls_mask[oc], 0)
    s.top[:, 1] = np.where(rolled, m.dfn.cls_mask[dc], 0)
    s.chip_call[:] = np.where(was_tie, USED, NO_CALL)
    s.roll_winner[:] = np.select([offwin, kind == 3, (kind == 0) & rolled], [0, 1, 1], -1)
    s.play[:] = np.select([kind == 4, (kind == 0) & rolled], [M.OFF_FIELD_GOAL, 4 + M.DEF_NO_GAIN], -1)
    recompute_legal(s, config)
    return s


def toss_state(config: SportsDiceConfig) -> State:
    """The opening toss decision, team one the toss winner."""
    s = State.empty(1)
    s.toss_winner[:], s.offence[:], s.chip[:] = 0, 0, 1
    s.phase[:] = TOSS
    recompute_legal(s, config)
    return s


def _answers(agent_or_policy, state: State, config) -> np.ndarray:
    """float64 [B, NUM_ACTIONS]: the chances of each action of the team to act (one-hot for a
    deterministic agent); ValueError for an illegal or malformed answer."""
    B = state.batch_size
    if hasattr(agent_or_policy, "action_probabilities"):
        p = np.asarray(agent_or_policy.action_probabilities(state, config), dtype=np.float64)
        if p.shape != (B, A.NUM_ACTIONS) or not np.isfinite(p).all() or (p < 0).any() \
                or np.abs(p.sum(axis=1) - 1).max() > 1e-9:
            raise ValueError(f"action_probabilities gave {p.shape} rows that are not distributions")
        if (p[~state.legal] > 0).any():
            g = int(np.flatnonzero((p * ~state.legal).sum(axis=1) > 0)[0])
            raise ValueError(f"the policy gives illegal actions a chance in {_where(state, g)}")
        return p
    if hasattr(agent_or_policy, "act"):
        if hasattr(agent_or_policy, "reset"):
            agent_or_policy.reset(np.arange(B))
        actions = np.asarray(agent_or_policy.act(state, config, np.arange(B)), dtype=np.int64)
    else:
        actions = np.asarray(agent_or_policy(state), dtype=np.int64)
    if actions.shape != (B,):
        raise ValueError(f"the policy gave shape {actions.shape}, expected ({B},)")
    ok = (actions >= 0) & (actions < A.NUM_ACTIONS)
    ok[ok] = state.legal[np.flatnonzero(ok), actions[ok]]
    if not ok.all():
        g = int(np.flatnonzero(~ok)[0])
        a = int(actions[g])
        name = A.ACTION_NAMES[a] if 0 <= a < A.NUM_ACTIONS else "(not an action id)"
        raise ValueError(f"the policy chose illegal action {name!r} (id {a}) in {_where(state, g)}; legal: "
                         f"{[A.ACTION_NAMES[i] for i in np.flatnonzero(state.legal[g])]}")
    return np.eye(A.NUM_ACTIONS)[actions]


def _where(state: State, g: int) -> str:
    return (f"a {PHASE_NAMES[int(state.phase[g])]!r} state (score {state.score[g, 0]}-{state.score[g, 1]}, "
            f"ball {state.position[g]}, down {state.down[g]}, target {state.target[g]})")


# the actions whose chances each kind of representative state needs (-1: none)
_KIND_ACTIONS = np.array([[A.GO_FOR_IT, A.PUNT, A.FIELD_GOAL, -1], [A.USE_CHIP, -1, -1, -1],
                          [A.PLAY_BASE + k for k in range(4)], [A.PLAY_BASE + 4 + k for k in range(4)],
                          [A.TAKE_POINTS, -1, -1, -1]])
# every legal action of each kind, in id order (plays: those of the class's tied symbols)
_KIND_OPTIONS = np.array([[A.GO_FOR_IT, A.PUNT, A.FIELD_GOAL, -1], [A.USE_CHIP, A.KEEP_CHIP, -1, -1],
                          [A.PLAY_BASE + k for k in range(4)], [A.PLAY_BASE + 4 + k for k in range(4)],
                          [A.TAKE_POINTS, A.ADVANCE, -1, -1]])
QUERY_CHUNK = 200_000  # states asked at once (bounds the memory of an agent's batch)


def _kind_answers(ask, reps: _Reps) -> np.ndarray:
    """float64 [n, 4]: the chances of the actions ``_KIND_ACTIONS[kind]`` at each representative state,
    asking ``ask(state) -> [b, NUM_ACTIONS] chances`` chunk by chunk."""
    n = reps.kind.size
    out = np.zeros((n, 4))
    cols = _KIND_ACTIONS[reps.kind]
    for lo in range(0, n, QUERY_CHUNK):
        idx = np.arange(lo, min(n, lo + QUERY_CHUNK))
        p = ask(reps.state.take(idx))
        c = cols[idx]
        out[idx] = np.where(c >= 0, np.take_along_axis(p, np.maximum(c, 0), axis=1), 0.0)
    return out


def _tables(m: M.Model, reps: _Reps, p: np.ndarray, nL: int) -> M.Tables:
    """A side's decision tables from its answers ``p`` [n, 4] (``_kind_answers``) at the representative
    states."""
    F, Co, Cd, NT, P = m.n_fields, m.off.n_classes, m.dfn.n_classes, m.tie_i.size, M.N_PLAYS
    declare = np.zeros((nL, F, 2, 3))
    declare[..., M.GO] = 1.0
    sel = reps.kind == 0
    declare[reps.l[sel], reps.f[sel], reps.h[sel]] = p[sel, :3]
    use = np.zeros((nL, F, 2, NT))
    sel = reps.kind == 1
    use[reps.l[sel], reps.f[sel], reps.h[sel], reps.k[sel]] = p[sel, 0]
    # symbols: the answers where asked
    sym_off = np.zeros((nL, F, Co, 2, 4))
    low = np.array([(int(x) & -int(x)).bit_length() - 1 for x in m.off.cls_mask])
    sym_off[:, :, np.arange(Co), :, low] = 1.0  # forced for one top symbol (and where never asked)
    sel = reps.kind == 2
    sym_off[reps.l[sel], reps.f[sel], reps.k[sel], reps.h[sel]] = p[sel]
    take = np.ones((nL, F, Co, 2))
    sel = reps.kind == 4
    take[reps.l[sel], reps.f[sel], reps.k[sel], reps.h[sel]] = p[sel, 0]
    off = np.zeros((nL, F, Co, 2, P))
    for sym, play in zip(range(4), M.OFF_SYMBOL_PLAY):
        off[..., play] = sym_off[..., sym]
    deep = (m.pos >= 50)[None, :, None, None]
    fg = sym_off[..., M.OFF_FIELD_GOAL]
    off[..., M.P_FG] = np.where(deep, fg * take, fg)
    off[..., M.P_FG_ADVANCE] = np.where(deep, fg * (1.0 - take), 0.0)
    off[:, :, m.off.cls_special] = np.eye(P)[M.P_SIX_10]
    sym_def = np.zeros((nL, F, Cd, 2, 4))
    low = np.array([(int(x) & -int(x)).bit_length() - 1 for x in m.dfn.cls_mask])
    sym_def[:, :, np.arange(Cd), :, low] = 1.0
    sel = reps.kind == 3
    sym_def[reps.l[sel], reps.f[sel], reps.k[sel], reps.h[sel]] = p[sel]
    dfn = np.zeros((nL, F, Cd, 2, P))
    for sym, play in zip(range(4), M.DEF_SYMBOL_PLAY):
        dfn[..., play] = sym_def[..., sym]
    dfn[:, :, m.dfn.cls_special] = np.eye(P)[M.P_SIX_NO_GAIN]
    return M.Tables(off, dfn, use, declare)


def _dense_ids(key: np.ndarray, size: int):
    """(ids [n], one [u]): each key's rank among the distinct keys (keys in 0..size-1), and the index of one
    row holding each distinct key."""
    one = np.full(size, -1, dtype=np.int64)
    one[key] = np.arange(key.size)
    used = np.flatnonzero(one >= 0)
    rank = np.full(size, -1, dtype=np.int64)
    rank[used] = np.arange(used.size)
    return rank[key], one[used]


def _optimal_choices(solution: Solution, a_s, b_s, kind, l, f, h, k) -> np.ndarray:
    """int64 [n]: ``solution.policy`` at the representative states of decision classes (kind, l, f, h, k),
    read from the solution's one-step tables without building the states (the same rule: the decider's best
    legal action, the lowest id within POLICY_TOL)."""
    m, T, look = solution.model, solution.config.target_score, solution._lookahead_tables()
    x = (a_s[l] * T + b_s[l]) * m.n_fields + f
    n = kind.size
    q = np.full((n, 4), np.nan)  # the offence's value after the kind's actions _KIND_ACTIONS[kind]
    offence_decides = np.ones(n, dtype=bool)
    g = np.flatnonzero(kind == 0)
    q[g, 0] = look["go"][x[g], h[g]]
    q[g, 1] = look["kicks"][x[g], M.KICK_PUNT, h[g]]
    q[g, 2] = look["kicks"][x[g], M.KICK_FIELD_GOAL, h[g]]
    g = np.flatnonzero(kind == 1)  # the holder calls: it keeps the side it favours
    o = look["offwin"][x[g], m.tie_i[k[g]]]
    d = look["defwin"][x[g], m.tie_j[k[g]]]
    holder_off = h[g] == M.CHIP_OFFENCE
    q[g, 0], q[g, 1] = np.where(holder_off, o, d), np.where(holder_off, d, o)
    offence_decides[g] = holder_off
    for kk, table, dice in ((2, "off", m.off), (3, "dfn", m.dfn)):
        g = np.flatnonzero(kind == kk)
        tied = (dice.cls_mask[k[g]][:, None] >> np.arange(4)) & 1 == 1
        q[g] = np.where(tied, look[table][x[g], h[g]], np.nan)
        offence_decides[g] = kk == 2
    g = np.flatnonzero(kind == 4)
    q[g, 0] = look["Wt"][x[g], h[g], M.P_FG]
    q[g, 1] = look["Wt"][x[g], h[g], M.P_FG_ADVANCE]
    mine = np.where(offence_decides[:, None], q, 1.0 - q)
    cols = _KIND_OPTIONS[kind]
    best = np.nanmax(mine, axis=1)
    # _KIND_OPTIONS rows are in id order: the first column within the tolerance is the lowest id
    first = np.argmax(np.nan_to_num(mine, nan=-np.inf) >= best[:, None] - POLICY_TOL, axis=1)
    return cols[np.arange(n), first]


def _choice_answers(actions: np.ndarray, kind: np.ndarray) -> np.ndarray:
    """float64 [n, 4]: a deterministic policy's actions as the chances of ``_KIND_ACTIONS[kind]``."""
    return (actions[:, None] == _KIND_ACTIONS[kind]).astype(np.float64)


def _observation_predictor(agent_or_policy):
    """``predict(obs, mask) -> actions`` of an agent that decides from observations alone (an
    ``ObservationAgent``, or anything with ``predict_observations``), else None."""
    from .agents import ObservationAgent

    if isinstance(agent_or_policy, ObservationAgent):
        return agent_or_policy.predict
    fn = getattr(agent_or_policy, "predict_observations", None)
    return fn if callable(fn) else None


def _first_layer_predictor(agent_or_policy):
    """((W, b), predict_first_layer) of a network policy that offers them (``first_layer``: its first
    layer's weights [OBS_SIZE, H] and bias [H]; ``predict_first_layer(obs @ W + b, mask) -> actions``), else
    None."""
    layer = getattr(agent_or_policy, "first_layer", None)
    fn = getattr(agent_or_policy, "predict_first_layer", None)
    if layer is None or not callable(fn):
        return None
    w, b = (np.asarray(x, dtype=np.float32) for x in layer)
    from .observe import OBS_SIZE

    if w.ndim != 2 or w.shape[0] != OBS_SIZE or b.shape != (w.shape[1],):
        raise ValueError(f"first_layer must be W [{OBS_SIZE}, H] and b [H], got {w.shape} and {b.shape}")
    return (w, b), fn


CHECK_ROWS = 256  # representative states per level rebuilt in full to check the assembled observations


def _observed_choices(predict, config: SportsDiceConfig, m: M.Model, a_s, b_s, kind, l, f, h, k,
                      check_seed: int = 0, first_layer=None) -> np.ndarray:
    """int64 [n]: an observation policy's actions at decision classes (kind, l, f, h, k), asked in batches of
    observations assembled from two small sets: the observation of each context (kind, pair, field, holder)
    and the roll columns (``observe.ROLL_COLUMNS``) of each roll (kind, class, holder), so only those few
    thousand engine states are built and observed. A sample of rows is rebuilt in full (states, ``observe``,
    legal masks) and must match exactly. With ``first_layer`` ((W, b), predict_first_layer) a network's
    first layer is applied to the two sets (context @ W + b, roll columns @ W) and the rows get their sum:
    no observation row is built at all."""
    from .observe import ROLL_COLUMNS, observe

    nL, F = a_s.size, m.n_fields
    n_k = int(k.max(initial=0)) + 1
    ctx, ctx_one = _dense_ids(((kind * nL + l) * F + f) * 2 + h, 5 * nL * F * 2)
    roll, roll_one = _dense_ids((kind * n_k + k) * 2 + h, 5 * n_k * 2)
    pick = lambda rows: (kind[rows], l[rows], f[rows], h[rows], k[rows])  # noqa: E731
    s_ctx = _representative_state(config, m, a_s, b_s, *pick(ctx_one))
    s_roll = _representative_state(config, m, a_s, b_s, *pick(roll_one))
    obs_ctx = observe(s_ctx, s_ctx.to_act, config)
    obs_roll = observe(s_roll, s_roll.to_act, config)[:, ROLL_COLUMNS]
    legal_roll = s_roll.legal

    def assemble(rows):
        obs = obs_ctx[ctx[rows]]
        obs[:, ROLL_COLUMNS] = obs_roll[roll[rows]]
        return obs, legal_roll[roll[rows]]

    sample = np.random.default_rng(check_seed).choice(kind.size, size=min(CHECK_ROWS, kind.size), replace=False)
    full = _representative_state(config, m, a_s, b_s, *pick(sample))
    obs, legal = assemble(sample)
    if not (np.array_equal(obs, observe(full, full.to_act, config)) and np.array_equal(legal, full.legal)):
        raise RuntimeError("the assembled observations differ from observe(): a roll column is missing from "
                           "observe.ROLL_COLUMNS")
    if first_layer is not None:
        (w, b), predict_hidden = first_layer
        ctx_part = obs_ctx.copy()
        ctx_part[:, ROLL_COLUMNS] = 0.0
        pre_ctx = ctx_part @ w + b
        pre_roll = obs_roll @ w[ROLL_COLUMNS]
    actions = np.zeros(kind.size, dtype=np.int64)
    for lo in range(0, kind.size, QUERY_CHUNK):
        rows = np.arange(lo, min(kind.size, lo + QUERY_CHUNK))
        if first_layer is None:
            obs, legal = assemble(rows)
            out = predict(obs, legal.copy())
        else:
            legal = legal_roll[roll[rows]]
            hidden = pre_ctx[ctx[rows]]
            hidden += pre_roll[roll[rows]]
            out = predict_hidden(hidden, legal.copy())
        out = np.asarray(out).astype(np.int64).reshape(-1)
        if out.shape != (rows.size,):
            raise ValueError(f"predict gave {out.shape} actions for {rows.size} states")
        bad = (out < 0) | (out >= A.NUM_ACTIONS)
        bad[~bad] = ~legal[np.flatnonzero(~bad), out[~bad]]
        if bad.any():
            g = rows[np.flatnonzero(bad)[0]]
            state = _representative_state(config, m, a_s, b_s, *pick(np.array([g])))
            a = int(out[np.flatnonzero(bad)[0]])
            name = A.ACTION_NAMES[a] if 0 <= a < A.NUM_ACTIONS else "(not an action id)"
            raise ValueError(f"the policy chose illegal action {name!r} (id {a}) in {_where(state, 0)}; legal: "
                             f"{[A.ACTION_NAMES[i] for i in np.flatnonzero(state.legal[0])]}")
        actions[rows] = out
    return actions


def exact_win_probability(agent_or_policy, config: SportsDiceConfig | None = None,
                          solution: Solution | None = None, progress=None) -> PolicyValue:
    """The exact win probability of a stationary policy against the optimal opponent (``solution``'s
    policy), by policy evaluation over the solver's model (module docstring: how the agent is asked).

    ``agent_or_policy``: an agent (``act(state, config, games)``, optionally ``action_probabilities(state,
    config)`` for a mixed policy), a function ``state -> actions``, or an observation policy (an
    ``ObservationAgent``, or an object with ``predict_observations(obs, mask) -> actions``, and optionally
    ``first_layer`` and ``predict_first_layer``: ``_first_layer_predictor``); it is asked at every decision
    state of the model as the team to act there (about 6 x 10^4 per pair of scores, 2.7 x 10^7 at the default
    target). An observation policy is asked in batches of observations assembled from the few thousand
    distinct contexts and rolls of each level, with no engine state built per decision (a network with its
    first layer: not even the observation rows); other agents through engine states. The optimal side's
    choices are read from the solution's tables and kept with it for the next evaluation."""
    config = config if config is not None else SportsDiceConfig()
    solution = solution or solve(config)
    m, T = solution.model, config.target_score
    predict = _observation_predictor(agent_or_policy)
    first_layer = _first_layer_predictor(agent_or_policy) if predict is not None else None
    memo = solution.__dict__.setdefault("_optimal_rep_choices", {})

    def tables_for(a_s, b_s):
        kind, l, f, h, k = index = representative_index(m, a_s.size)
        reps = _Reps(None, kind, l, f, h, k)
        key = int(a_s[0] + b_s[0])
        if key not in memo:
            memo[key] = _optimal_choices(solution, a_s, b_s, *index).astype(np.int8)
        best = _choice_answers(memo[key].astype(np.int64), kind)
        if predict is not None:
            mine = _choice_answers(_observed_choices(predict, config, m, a_s, b_s, *index, check_seed=key,
                                                     first_layer=first_layer), kind)
        else:
            reps.state = _representative_state(config, m, a_s, b_s, *index)
            mine = _kind_answers(lambda s: _answers(agent_or_policy, s, config), reps)
        return _tables(m, reps, mine, a_s.size), _tables(m, reps, best, a_s.size)

    W = M.evaluate_two_sided(m, T, tables_for, progress)
    opening = float(W[0, 0, 0, m.start, M.CHIP_DEFENCE])
    receiving = float(W[1, 0, 0, m.start, M.CHIP_DEFENCE])
    toss = toss_state(config)
    p = _answers(agent_or_policy, toss, config)[0]
    toss_won = p[A.CHOOSE_OFFENCE] * opening + p[A.CHOOSE_DEFENCE] * receiving
    toss_lost = receiving if int(solution.policy(toss)[0]) == A.CHOOSE_OFFENCE else opening
    return PolicyValue(opening, receiving, float(toss_won), float(toss_lost), 0.5 * float(toss_won + toss_lost))


# --- the command ---------------------------------------------------------------------------------------------

_DECLARE = {A.GO_FOR_IT: "go", A.PUNT: "punt", A.FIELD_GOAL: "fg"}


def fourth_down_table(solution: Solution, offence_score: int = 0, defence_score: int = 0) -> list[str]:
    """Lines: the optimal 4th-down declaration and its value at each position, for both series targets
    and both chip holders."""
    lines = [f"{'ball':>4}  {'target 50, chip D':>18}  {'target 50, chip O':>18}  "
             f"{'end zone, chip D':>18}  {'end zone, chip O':>18}"]
    for p in range(5, 100, 5):
        cells = []
        for series in (M.MIDFIELD, M.END_ZONE):
            for chip in (M.CHIP_DEFENCE, M.CHIP_OFFENCE):
                if series == M.MIDFIELD and p >= 50:
                    cells.append(f"{'-':>18}")
                    continue
                s = State.empty(1)
                s.score[0] = (offence_score, defence_score)
                s.position[:], s.down[:] = p, 4
                s.target[:] = MIDFIELD if series == M.MIDFIELD else END_ZONE
                s.offence[:], s.chip[:] = 0, 0 if chip == M.CHIP_OFFENCE else 1
                s.phase[:], s.opener[:] = FOURTH_DOWN, 0
                recompute_legal(s, solution.config)
                a = int(solution.policy(s)[0])
                cells.append(f"{_DECLARE[a] + ' ' + format(float(solution.value(s)[0]), '.6f'):>18}")
        lines.append(f"{p:>4}  " + "  ".join(cells))
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gridiron_env.sports_dice.solve",
                                     description="Solve Sports Dice exactly; print a summary, save the solution.")
    parser.add_argument("--out", default=".", help="directory for the solution file (default: here)")
    parser.add_argument("--target", type=int, default=SportsDiceConfig().target_score,
                        help="target score (default 21)")
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write the disk cache")
    args = parser.parse_args(argv)
    try:
        config = SportsDiceConfig(target_score=args.target)
    except ValueError as exc:
        parser.error(str(exc))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    sol = solve(config, cache=not args.no_cache)
    seconds = time.perf_counter() - t0
    name = out / f"sports_dice_target_{config.target_score}.npz"
    sol.save(name)
    T = config.target_score
    print(f"Sports Dice, target {T}: solved in {seconds:.1f} s, saved {name}")
    print(f"{'opener (starts on offence) wins':<44} {sol.opener_win_probability:.10f}")
    print(f"{'toss winner wins (after its best choice)':<44} {sol.toss_winner_win_probability:.10f}")
    choice = "offence" if sol.opener_win_probability >= 0.5 else "defence"
    print(f"{'toss winner chooses':<44} {choice}")
    print("\nKey states (the offence's win probability before its roll):")
    key = [("0-0, own 25, 1st down, chip with the defence", 0, 0, 25, 1, MIDFIELD, False),
           ("0-0, own 25, 1st down, chip with the offence", 0, 0, 25, 1, MIDFIELD, True),
           ("0-0, midfield 50, 1st down, end zone, chip D", 0, 0, 50, 1, END_ZONE, False),
           ("0-0, opponent's 25 (75), 1st down, chip D", 0, 0, 75, 1, END_ZONE, False),
           (f"0-{min(7, T - 1)}, own 25, 1st down, chip D", 0, min(7, T - 1), 25, 1, MIDFIELD, False),
           (f"{T - 3}-{T - 3}, own 25, 1st down, chip D", max(T - 3, 0), max(T - 3, 0), 25, 1, MIDFIELD, False),
           ("0-0, own 25, 4th down, chip D", 0, 0, 25, 4, MIDFIELD, False)]
    for label, a, b, p, d, t, chip in key:
        print(f"  {label:<46} {float(sol.value_at(a, b, p, d, t, chip)):.10f}")
    print("\nOptimal 4th-down declarations at 0-0 (declaration, offence's value):")
    for line in fourth_down_table(sol):
        print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
