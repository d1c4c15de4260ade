"""Invariant checker for a Table Football batch: the facts every reachable state satisfies."""

from __future__ import annotations

import numpy as np

from ..small_games.invariants import InvariantError, checker, flag_cached_mask, problem_list
from .config import TableFootballConfig
from .state import (
    CHOOSE, DRAW, GAME_OVER, NO_PLAY, OOB_DEFENCE, OOB_OFFENCE, OVERTIME, RECOVERY, State, TIMEOUT_DEFENCE,
    TIMEOUT_OFFENCE,
)

__all__ = ["InvariantError", "check_invariants", "find_violations"]


def find_violations(s: State, config: TableFootballConfig | None = None, check_mask: bool = True) -> list:
    """Every (game, problem) in the batch; empty when all invariants hold."""
    config = config or TableFootballConfig()
    problems, flag = problem_list()

    ph = s.phase.astype(np.int64)
    over = ph == GAME_OVER
    for name in ("to_act", "offence", "snap_offence", "opener"):
        v = getattr(s, name)
        low = -1 if name == "to_act" else 0
        flag((v < low) | (v > 1), f"{name} is not a team")
    flag((ph < 0) | (ph > GAME_OVER), "unknown phase")
    flag((s.score < 0).any(axis=1), "a negative score")
    pos = s.position.astype(np.int64)
    ltg = s.line_to_gain.astype(np.int64)
    down = s.down.astype(np.int64)
    flag((pos < 5) | (pos > 95) | (pos % 5 != 0), "the ball is not on a multiple of 5 inside 5-95")
    flag((ltg <= pos) | (ltg > 100) | (ltg % 5 != 0), "the line to gain is not past the ball, at most 100")
    flag((down < 1) | (down > config.downs), f"the down is not 1-{config.downs}")
    flag((down == 1) & (ltg != np.minimum(pos + 10, 100)), "first down without ten to go (or goal to go)")
    flag(ltg - pos > 10 * down, "more yards to go than the downs so far could lose")
    flag(over != (s.terminated | s.truncated), "game_over phase and terminated/truncated disagree")
    flag(s.terminated & s.truncated, "both terminated and truncated")
    flag(over != (s.to_act == -1), "to_act is -1 exactly when the game is over")
    flag(s.terminated & ~np.isin(s.winner, (0, 1, DRAW)), "a finished game without a result")
    flag(~s.terminated & (s.winner != -1), "a winner in a game that goes on")
    flag((s.winner == DRAW) & ~((s.quarter == OVERTIME) & (s.score[:, 0] == s.score[:, 1])),
         "a draw outside a tied overtime")
    won = s.terminated & ((s.winner == 0) | (s.winner == 1))
    w = np.clip(s.winner.astype(np.int64), 0, 1)
    rows = np.arange(s.batch_size)
    flag(won & (s.score[rows, w] <= s.score[rows, 1 - w]), "the winner does not lead")
    if config.target_on:
        flag(~over & (s.score >= config.target_score).any(axis=1), "a game goes on past the target score")
        flag(s.score.max(axis=1) >= config.target_score + 7, "a score past the target by more than a touchdown")
    flag(s.plays > config.max_plays, "more plays than the cap")
    flag(s.truncated & (s.plays < config.max_plays), "truncated before the cap on plays")
    flag((s.plays == 0) & (s.last_play != NO_PLAY), "a last play before any play")
    flag(s.steps < s.plays, "fewer decisions than plays")
    flag(~over & ~np.isin(ph, (CHOOSE, RECOVERY, OOB_OFFENCE, OOB_DEFENCE, TIMEOUT_OFFENCE, TIMEOUT_DEFENCE)),
         "a live game in no phase")
    if not config.recovery_option:
        flag(ph == RECOVERY, "a recovery decision with the option off")
    flag((ph == RECOVERY) & ~np.isin(s.last_roll.sum(axis=1), (3, 11)), "a recovery decision after no turnover")
    flag((ph == RECOVERY) & (s.offence != s.snap_offence), "the recovery decision is not the offence's")
    clockish = (ph == OOB_OFFENCE) | (ph == OOB_DEFENCE) | (ph == TIMEOUT_OFFENCE) | (ph == TIMEOUT_DEFENCE)
    if config.clock:
        q = s.quarter.astype(np.int64)
        flag((q < 1) | (q > OVERTIME), "the quarter is not 1-5")
        flag(~over & ((s.boxes < 1) | (s.boxes > config.quarter_boxes)), "boxes left not in 1..quarter_boxes")
        cap = np.where(q == OVERTIME, config.overtime_timeouts, config.timeouts_per_half)
        flag(((s.timeouts < 0) | (s.timeouts > cap[:, None])).any(axis=1), "time-outs out of range")
        flag(clockish & (s.pending_cost < 1), "a clock decision without a pending cost")
        flag(~clockish & ~over & (s.pending_cost != 0), "a pending cost outside the clock decisions")
        flag((s.pending_cost < 0) | (s.pending_cost > 3), "a pending cost outside 0-3")
        flag((q == OVERTIME) & (s.score[:, 0] != s.score[:, 1]) & ~over, "overtime goes on after a score")
        flag((q <= 4) & (s.winner == DRAW), "a draw before overtime")
        snap = s.snap_offence.astype(np.int64)
        flag((ph == TIMEOUT_OFFENCE) & ((s.timeouts[rows, snap] < 1) | (s.pending_cost < 2)),
             "an offence time-out decision that saves nothing")
        flag((ph == TIMEOUT_DEFENCE) & ((s.timeouts[rows, 1 - snap] < 1) | (s.pending_cost < 2)),
             "a defence time-out decision that saves nothing")
    else:
        flag(clockish, "a clock decision in the basic game")
        flag((s.quarter != 0) | (s.boxes != 0) | (s.timeouts != 0).any(axis=1) | (s.pending_cost != 0),
             "clock fields set in the basic game")
    if check_mask:
        from .engine import recompute_legal

        flag_cached_mask(flag, s, config, recompute_legal)
    return problems


check_invariants = checker(find_violations)  # raises InvariantError if any game breaks an invariant
