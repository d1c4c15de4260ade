"""Agents for Touchdown, in the agent protocol of ``agents/base.py`` (name, reset(seeds),
act(state, config, games)), and a match runner.

- ``RandomAgent``: a uniformly random legal action from one counter-based stream per game.
- ``HeuristicAgent``: scripted football, batched over the games (no look-ahead, no peeking at dice):
  calls by situation (punt on a long second down in its own half, a field goal on second down in range, a
  run formation on short yardage, a spread on long; the defence answers a spread with ``prevent``, a
  power set with ``blitz``); a return unless the kick lands in its end zone; in the play every legal step
  is scored from the board: the carrier runs toward the goal away from defenders, the other pieces close
  on the defenders nearest the carrier (and push them), the QB passes to an eligible receiver ahead with
  no defender beside him; the defence steps onto the carrier (a tackle) or closes on him, and takes every
  interception offered; everyone goes for a loose ball.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..solved_agents import MatchResult, UniformRandomAgent, play_match
from . import actions as A
from .config import TouchdownConfig
from .engine import DIRS, init, step
from .formations import DEFENCE_NAMES, OFFENCE_NAMES
from .state import DEFENCE_CALL, INTERCEPTION, KICK_CHOICE, OFFENCE_CALL, PLAY, QB_SLOT, SLOT_TYPE, State

__all__ = ["RandomAgent", "HeuristicAgent", "MatchResult", "play_games", "squares_apart"]

_SALT = 0x70C4_D0E0_0004_0004


def _engine_state(state):
    """The engine state of ``state`` (a drive of ``game.DriveState`` holds one as ``.game``)."""
    return state if isinstance(state, State) else state.game


class RandomAgent(UniformRandomAgent):
    """Uniform over the legal actions; game g's choice at its step t comes from its own stream."""

    salt = _SALT

    def act(self, state, config=None, games=None) -> np.ndarray:
        return super().act(_engine_state(state), config, games)


_OFF = {name: A.OFFENCE_BASE + i for i, name in enumerate(OFFENCE_NAMES)}
_DEF = {name: A.DEFENCE_BASE + i for i, name in enumerate(DEFENCE_NAMES)}
_TYPE = np.array(SLOT_TYPE)
_TQ = np.isin(_TYPE, (2, 3))  # Triples and the QB, by global slot


@dataclass(frozen=True)
class _Board:
    """The heuristic's reading of the board in a play, per game k of the decision (absolute squares): the
    side to act's pieces ``ml, mr`` [k, 7] and their 8 destinations ``nl, nr`` [k, 7, 8] (``dl, dr`` the
    steps, ``fwd`` rows forward), the opponents ``tl, tr`` (``t_live``: on the board, unmarked),
    ``adjacent`` / ``near`` opponents within 1 / 2 of each destination, the ball's square ``hl, hr``,
    ``holder`` (global slot, -1 loose), ``mine_base`` (0 or 7), ``sign`` (+1 when forward is +row)."""

    k: int
    lane: np.ndarray
    row: np.ndarray
    mine_base: np.ndarray
    holder: np.ndarray
    ml: np.ndarray
    mr: np.ndarray
    tl: np.ndarray
    tr: np.ndarray
    t_live: np.ndarray
    nl: np.ndarray
    nr: np.ndarray
    dl: np.ndarray
    dr: np.ndarray
    fwd: np.ndarray
    sign: np.ndarray
    hl: np.ndarray
    hr: np.ndarray
    adjacent: np.ndarray
    near: np.ndarray


def squares_apart(al, ar, bl, br):
    """King-move distance in squares between (lane, row) pairs al, ar and bl, br (broadcast arrays)."""
    return np.maximum(np.abs(al - bl), np.abs(ar - br))


class HeuristicAgent:
    """Scripted football (module doc); deterministic."""

    name = "heuristic"

    def reset(self, seeds) -> None:
        pass

    def act(self, state: State, config: TouchdownConfig | None = None, games=None) -> np.ndarray:
        cfg = config or TouchdownConfig()
        state = _engine_state(state)
        B = state.batch_size
        games = np.arange(B) if games is None else np.asarray(games, dtype=np.int64)
        out = np.full(B, A.WAIT, dtype=np.int64)
        if games.size == 0:
            return out
        legal = state.legal
        ph = state.phase[games]
        for phase, fn in ((OFFENCE_CALL, self._offence_call), (DEFENCE_CALL, self._defence_call),
                          (KICK_CHOICE, self._kick_choice), (INTERCEPTION, self._interception),
                          (PLAY, self._play)):
            g = games[ph == phase]
            if g.size:
                out[g] = fn(state, g, cfg)
        # whatever the rule chose, only a legal action leaves (the first legal one otherwise)
        bad = ~legal[games, out[games]]
        if bad.any():
            g = games[bad]
            out[g] = np.argmax(legal[g], axis=1)
        return out

    # --- calls ---------------------------------------------------------------------------------------------

    def _offence_call(self, s, g, cfg):
        legal = s.legal[g]
        los = s.los[g].astype(np.int64)
        togo = s.to_gain[g].astype(np.int64) - los
        second = s.down[g] == 2
        behind = s.score[g, s.offence[g]].astype(np.int64) - s.score[g, 1 - s.offence[g]] < 0
        late = s.scrimmages[g] >= cfg.quarters * cfg.scrimmages_per_quarter - 4
        choice = np.where(togo <= 4, _OFF["power"], np.where(togo >= 8, _OFF["spread"], _OFF["pro set"]))
        choice = np.where(s.down[g] == 1, np.where(los % 2 == 0, _OFF["pro set"], _OFF["power"]), choice)
        fg = second & (togo > 3) & legal[:, A.FIELD_GOAL] & ~(late & behind)
        punt = second & (togo > 3) & (los < 18) & ~fg & ~(late & behind)
        choice = np.where(fg, A.FIELD_GOAL, np.where(punt, A.PUNT_BASE + 2, choice))
        return choice

    def _defence_call(self, s, g, cfg):
        of = s.offence_formation[g]
        choice = np.full(g.size, _DEF["base"])
        choice = np.where(of == OFFENCE_NAMES.index("spread"), _DEF["prevent"], choice)
        choice = np.where(of == OFFENCE_NAMES.index("power"), _DEF["blitz"], choice)
        togo = s.to_gain[g].astype(np.int64) - s.los[g]
        return np.where((s.down[g] == 2) & (togo >= 7) & (of != OFFENCE_NAMES.index("power")),
                        _DEF["wide line"], choice)

    def _kick_choice(self, s, g, cfg):
        return np.where(s.kick_row[g] <= 0, A.TAKE_FIRST_DOWN, A.RETURN)

    def _interception(self, s, g, cfg):
        legal = s.legal[g]
        steps = legal[:, :A.N_STEPS]
        return np.where(steps.any(axis=1), np.argmax(steps, axis=1), A.DECLINE_INTERCEPTION)

    # --- the play ------------------------------------------------------------------------------------------

    def _step_values(self, s, g, cfg, board, value):
        """The values [k, 7, 8] of stepping each piece of the side to act in each direction (this agent's
        as they are; a hook for a subclass)."""
        return value

    def _pass_values(self, s, g, cfg, board, pass_value, clear, gain):
        """The values [k, 7] of passing to each teammate (``clear``: no opponent beside him; ``gain``: rows
        ahead of the carrier); this agent's as they are, a hook for a subclass."""
        return pass_value

    def _play(self, s, g, cfg):
        k = g.size
        legal = s.legal[g]
        t = s.to_act[g].astype(np.int64)
        sign = np.where(t == 0, 1, -1)[:, None]  # forward = +row for team one
        mine_base = np.where(s.to_act[g] == s.offence[g], 0, 7)
        mine = mine_base[:, None] + np.arange(7)  # global slots of the side to act
        theirs = (mine + 7) % 14
        lane = s.lane[g].astype(np.int64)
        row = s.row[g].astype(np.int64)
        marked = s.marked[g]
        rows_k = np.arange(k)[:, None]
        ml, mr = lane[rows_k, mine], row[rows_k, mine]  # [k, 7]
        tl, tr = lane[rows_k, theirs], row[rows_k, theirs]
        t_live = (tl >= 0) & ~marked[rows_k, theirs]
        dl = DIRS[:, 0][None, :] * sign  # [k, 8] absolute lane step
        dr = DIRS[:, 1][None, :] * sign
        nl = ml[:, :, None] + dl[:, None, :]  # [k, 7, 8]
        nr = mr[:, :, None] + dr[:, None, :]
        fwd = (nr - mr[:, :, None]) * sign[:, :, None]
        holder = s.holder[g].astype(np.int64)
        loose = holder < 0
        have = (~loose) & np.isin(holder - mine_base, np.arange(7))
        hl = np.where(loose, s.ball_lane[g], lane[np.arange(k), np.maximum(holder, 0)]).astype(np.int64)
        hr = np.where(loose, s.ball_row[g], row[np.arange(k), np.maximum(holder, 0)]).astype(np.int64)
        score = np.full((k, A.NUM_ACTIONS), -1e6)
        big = 10_000

        # distances of the opponents to the destination squares: [k, 7, 8, 7]
        d_opp = squares_apart(nl[..., None], nr[..., None], tl[:, None, None, :], tr[:, None, None, :])
        d_opp = np.where(t_live[:, None, None, :], d_opp, big)
        adjacent = (d_opp <= 1).sum(axis=-1)
        near = (d_opp <= 2).sum(axis=-1)
        goal_row = np.where(t == 0, cfg.rows - 3, 2)[:, None, None]  # the opponent's goal line row (absolute)
        in_end_zone = (nr - goal_row) * sign[:, :, None] >= 0
        carrier_local = np.where(have, holder - mine_base, -1)
        is_carrier = np.arange(7)[None, :] == carrier_local[:, None]  # [k, 7]

        # the side with the ball
        run = 10.0 * fwd - 6.0 * adjacent - 2.0 * near + 1000.0 * in_end_zone
        # blockers close on the opponents nearest the carrier
        d_carrier_opp = np.where(t_live, squares_apart(tl, tr, hl[:, None], hr[:, None]), big)  # [k, 7]
        threat = np.argsort(d_carrier_opp, axis=1)[:, :3]  # the three nearest opponents
        thl = np.take_along_axis(tl, threat, 1)
        thr = np.take_along_axis(tr, threat, 1)
        th_ok = np.take_along_axis(d_carrier_opp, threat, 1) < big
        d_now = np.where(th_ok[:, None, :], squares_apart(ml[..., None], mr[..., None], thl[:, None, :], thr[:, None, :]), big)
        d_next = np.where(th_ok[:, None, None, :],
                          squares_apart(nl[..., None], nr[..., None], thl[:, None, None, :], thr[:, None, None, :]), big)
        block = 2.0 * (d_now.min(axis=-1)[..., None] - d_next.min(axis=-1)) + 3.0 * (d_next.min(axis=-1) == 0) \
            + 0.3 * fwd
        # defence: close on (or step onto) the carrier
        d_c_now = squares_apart(ml, mr, hl[:, None], hr[:, None])
        d_c_next = squares_apart(nl, nr, hl[:, None, None], hr[:, None, None])
        carrier_tq = (~loose) & _TQ[np.maximum(holder, 0)]
        single = np.array([True, True, True, False, False, False, False])
        tackle = (d_c_next == 0) | (carrier_tq[:, None, None] & single[None, :, None] & (d_c_next <= 1))
        pursue = 4.0 * (d_c_now[..., None] - d_c_next) / (1.0 + d_c_now[..., None]) + 1000.0 * tackle
        # a loose ball: everyone goes for it
        chase = 5.0 * (d_c_now[..., None] - d_c_next) + 1000.0 * (d_c_next == 0)
        value = np.where(loose[:, None, None], chase,
                         np.where(have[:, None, None], np.where(is_carrier[..., None], run, block), pursue))
        # a subclass's play (a teacher of train.touchdown_imitation) reshapes the values from the same board reading
        board = _Board(k=k, lane=lane, row=row, mine_base=mine_base, holder=holder, ml=ml, mr=mr, tl=tl, tr=tr,
                       t_live=t_live, nl=nl, nr=nr, dl=dl, dr=dr, fwd=fwd, sign=sign, hl=hl, hr=hr,
                       adjacent=adjacent, near=near)
        value = self._step_values(s, g, cfg, board, value)
        score[:, :A.N_STEPS] = value.reshape(k, -1)
        score[:, A.STOP] = 0.0
        score[:, A.END_TURN] = -10.0
        score[:, A.DECLARE_SAFETY] = -500.0
        # passes: from the QB to a clear eligible receiver well ahead of him
        passer_qb = have & (carrier_local == QB_SLOT)
        gain = (mr - hr[:, None]) * sign  # rows ahead of the carrier, [k, 7]
        d_rec = np.where(t_live[:, None, :], squares_apart(ml[..., None], mr[..., None], tl[:, None, :], tr[:, None, :]),
                         big).min(axis=-1)
        clear = d_rec >= 2
        pass_value = np.where(clear & (gain >= 3), 4.0 * gain, np.where(gain < 0, -50.0, -20.0))
        pass_value = np.where(passer_qb[:, None], pass_value, np.where(gain > 0, -5.0, -30.0))
        score[:, A.PASS_BASE:A.PASS_BASE + 7] = self._pass_values(s, g, cfg, board, pass_value, clear, gain)
        # the carrier also passes sideways or back to a clear teammate when hemmed in
        carrier_hemmed = have & (adjacent[np.arange(k), np.maximum(carrier_local, 0)].min(axis=1) >= 2)
        score[carrier_hemmed, A.PASS_BASE:A.PASS_BASE + 7] += np.where(clear[carrier_hemmed], 40.0, 0.0)
        score = np.where(legal, score, -np.inf)
        return np.argmax(score, axis=1)


def _opener(state: State) -> np.ndarray:
    """The team that opens on offence: the receiver of the opening kick-off (the coin toss's other team)."""
    return 1 - state.opening_kicker.astype(np.int64)


def play_games(agent_a, agent_b, n_games: int, seed: int = 0, config: TouchdownConfig | None = None,
               a_team=None) -> MatchResult:
    """``n_games`` whole games of A against B in one batch: game i seeded ``seed + i``, A playing team
    ``a_team[i]`` (default alternating 0, 1, ...: balanced); finished games are given ``wait``."""
    return play_match(init, step, config or TouchdownConfig(), agent_a, agent_b, n_games, seed, a_team,
                      fill_action=A.WAIT, opener=_opener)
