"""Invariant checker for a Touchdown batch: the facts every reachable state satisfies."""

from __future__ import annotations

import numpy as np

from ..small_games.invariants import InvariantError, checker, flag_cached_mask, problem_list
from .config import END_ZONE_ROWS, TouchdownConfig
from .state import (
    DEFENCE_CALL, GAME_OVER, INTERCEPTION, KICK_CHOICE, N_PIECES, OFFENCE_CALL, PLAY, QB, SINGLE, SLOT_TYPE,
    State, TRIPLE, board_of,
)

__all__ = ["InvariantError", "check_invariants", "find_violations"]

_TQ = np.array([t in (TRIPLE, QB) for t in SLOT_TYPE])
_SINGLE = np.array([t == SINGLE for t in SLOT_TYPE])


def find_violations(s: State, config: TouchdownConfig | None = None, check_mask: bool = True) -> list:
    """Every (game, problem) in the batch; empty when all invariants hold."""
    config = config or TouchdownConfig()
    if not isinstance(s, State):
        raise ValueError(f"state must be a touchdown State, got {type(s).__name__}")
    problems, flag = problem_list()

    F, H, W = config.field_rows, config.rows, config.lanes
    ph = s.phase.astype(np.int64)
    over = ph == GAME_OVER
    flag((ph < 0) | (ph > GAME_OVER), "unknown phase")
    flag((s.board[:, 0] != 0) & (s.board != np.asarray(board_of(config))).any(axis=1),
         "the state's board is not the config's")
    for name in ("offence", "poss", "opening_kicker"):
        v = getattr(s, name)
        flag((v < 0) | (v > 1), f"{name} is not a team")
    flag(over != (s.to_act == -1), "to_act is -1 exactly when the game is over")
    off = s.offence.astype(np.int64)
    flag((ph == OFFENCE_CALL) & (s.to_act != off), "the offence calls the play")
    flag((ph == DEFENCE_CALL) & (s.to_act != 1 - off), "the defence calls its formation")
    flag((ph == KICK_CHOICE) & (s.to_act != off), "the receiver chooses")
    flag(over != (s.terminated | s.truncated), "game over exactly when terminated or truncated")
    flag(s.terminated & s.truncated, "both terminated and truncated")
    flag(s.terminated & ~np.isin(s.winner, (0, 1, 2)), "a finished game without a result")
    flag(~s.terminated & (s.winner != -1), "a winner in a game that goes on")
    sc = s.score
    flag(s.terminated & (s.winner == 0) & (sc[:, 0] <= sc[:, 1]), "team one wins without more points")
    flag(s.terminated & (s.winner == 1) & (sc[:, 1] <= sc[:, 0]), "team two wins without more points")
    flag(s.terminated & (s.winner == 2) & (sc[:, 0] != sc[:, 1]), "a draw with unequal scores")
    flag((sc < 0).any(axis=1), "negative score")
    top_q = config.quarters + (1 if config.overtime else 0)
    flag((s.quarter < 1) | (s.quarter > top_q), "quarter out of range")
    flag(~over & ((s.scrimmage < 0) | (s.scrimmage >= config.scrimmages_per_quarter)), "scrimmage count out of range")
    flag(s.scrimmages > top_q * config.scrimmages_per_quarter, "too many scrimmages")
    flag(~over & ~np.isin(s.down, (1, 2)), "down is not 1 or 2")
    flag(~over & ((s.los < 1) | (s.los > F)), "LOS outside the field")
    flag(~over & (s.to_gain <= s.los), "line to gain not in front of the LOS")
    lo, hi = config.hash_lanes
    flag(~over & ((s.los_lane < lo) | (s.los_lane > hi)), "snap lane outside the hash band")
    in_play = (ph == PLAY) | (ph == INTERCEPTION)
    between = ~in_play
    flag(between & ((s.lane != -1) | (s.row != -1)).any(axis=1), "pieces on the board between plays")
    flag(between & (s.holder != -1), "a holder between plays")
    flag(between & s.marked.any(axis=1), "markers between plays")
    L, R = s.lane.astype(np.int64), s.row.astype(np.int64)
    flag(in_play & ((L < 0) | (L >= W) | (R < 0) | (R >= H)).any(axis=1), "a piece off the board")
    same = (L[:, :, None] == L[:, None, :]) & (R[:, :, None] == R[:, None, :]) & ~np.eye(N_PIECES, dtype=bool)
    both_marked = s.marked[:, :, None] & s.marked[:, None, :]
    side = np.arange(N_PIECES) >= 7
    opposed = side[:, None] != side[None, :]
    flag(in_play & (same & ~(both_marked & opposed)).any(axis=(1, 2)),
         "two pieces share a square (only a fumbled carrier and his tackler may, both marked)")
    flag(in_play & (same.sum(axis=2) > 1).any(axis=1), "three pieces on a square")
    h = s.holder.astype(np.int64)
    rows = np.arange(s.batch_size)
    hc = np.maximum(h, 0)
    held = in_play & (h >= 0)
    flag(in_play & (h > 13), "holder is not a slot")
    flag(held & ((L[rows, hc] != s.ball_lane) | (R[rows, hc] != s.ball_row)), "the ball is not on its holder")
    flag(held & s.marked[rows, hc], "a marked piece holds the ball")
    team_of = np.where(side[None, :], 1 - off[:, None], off[:, None])
    flag(held & (team_of[rows, hc] != s.poss), "poss is not the holder's team")
    loose = in_play & (h < 0)
    bl, br = s.ball_lane.astype(np.int64), s.ball_row.astype(np.int64)
    flag(loose & ((bl < 0) | (bl >= W) | (br < 0) | (br >= H)), "a loose ball off the board")
    flag(loose & ((L == bl[:, None]) & (R == br[:, None])).any(axis=1), "a loose ball under a piece")
    flag(in_play & (ph == INTERCEPTION) & (h < 0), "a pass from nobody")
    # restriction 2 between unmarked pieces (ruling 6)
    near = (np.abs(L[:, :, None] - L[:, None, :]) <= 1) & (np.abs(R[:, :, None] - R[:, None, :]) <= 1) & ~same
    bad = near & _TQ[None, :, None] & _SINGLE[None, None, :] & opposed & ~s.marked[:, :, None] & ~s.marked[:, None, :]
    flag(in_play & bad.any(axis=(1, 2)), "a Triple or QB beside an opposing Single")
    # the scrimmage limits (ruling 7)
    los = s.los.astype(np.int64)[:, None]
    fr = np.where(off[:, None] == 0, R - 1, H - 2 - R)
    lim = in_play & s.limits
    flag(lim & (fr[:, :7] < los - 5).any(axis=1), "an offensive piece more than 5 rows behind the LOS")
    flag(lim & ~s.forward_thrown & (fr[:, :3] > los + 1).any(axis=1), "an interior lineman too far forward")
    flag(lim & (fr[:, 12:14] <= los).any(axis=1), "a defensive Triple on or behind the LOS")
    flag(lim & (s.poss != s.offence), "limits still on after a change of possession")
    # the turn
    flag(in_play & ((s.parts < 0) | (s.parts > 2)), "parts out of 0-2")
    act = s.active.astype(np.int64)
    to_act = s.to_act.astype(np.int64)
    to_act = np.where(ph == INTERCEPTION, 1 - to_act, to_act)  # the passing side's turn waits
    flag(in_play & (act >= 0) & (team_of[rows, np.maximum(act, 0)] != to_act), "the moving piece is not the side's")
    flag(in_play & (act < 0) & (s.steps_left != 0), "squares left with no piece moving")
    flag(in_play & ((s.steps_left < 0) | (s.steps_left > 2)), "steps_left out of range")
    flag(in_play & (act >= 0) & s.marked[rows, np.maximum(act, 0)] & (s.steps_left > 0), "a marked piece moving")
    moved = (s.moved.astype(np.int64)[:, None] >> np.arange(N_PIECES)) & 1
    flag(in_play & ((moved == 1) & (team_of != to_act[:, None])).any(axis=1), "moved bits of the other side")
    flag(in_play & (s.parts >= 2) & (act < 0) & (ph == PLAY), "a finished move whose turn did not pass")
    flag((ph == INTERCEPTION) & ((s.pass_from < 0) | (s.pass_to < 0)), "an interception phase without a pass")
    flag(~(ph == INTERCEPTION) & ((s.pass_from != -1) | (s.pass_to != -1)), "pass fields outside the interception")
    flag((ph == KICK_CHOICE) & ~np.isin(s.kick_kind, (0, 1)), "kick choice without a kick")
    flag((ph == KICK_CHOICE) & ((s.kick_row < 1 - END_ZONE_ROWS) | (s.kick_row > F)), "kick row off the board")
    flag(over & s.legal.any(axis=1), "legal actions in a finished game")
    flag(~over & ~s.legal.any(axis=1), "a live game without a legal action")
    if check_mask:
        from .engine import recompute_legal

        flag_cached_mask(flag, s, config, recompute_legal)
    return problems


check_invariants = checker(find_violations)
