"""Invariant checker for a batch state: the facts every reachable state satisfies."""

from __future__ import annotations

import numpy as np

from ..config import ArgumentTypeError
from .legal import recompute_legal
from .geometry import FRAME_ROW, HASH_BAND, LAST_FIELD_ROW, FIRST_FIELD_ROW, N_LANES, N_SLOTS
from .state import (
    DEFENCE_FORMATION, GAME_OVER, KICK_DECISION, OFFENCE_FORMATION, PLAY, SCRAMBLE, SPECIALS_PICK, State,
)


class InvariantError(AssertionError):
    """A state broke an invariant; ``problems`` lists (game, message)."""

    def __init__(self, problems):
        self.problems = problems
        shown = "; ".join(f"game {g}: {m}" for g, m in problems[:10])
        super().__init__(f"{len(problems)} invariant violation(s): {shown}")


def find_violations(s: State, check_mask: bool = False, config=None) -> list[tuple[int, str]]:
    """Every (game, problem) in the batch; empty when all invariants hold."""
    if not isinstance(s, State):
        raise ArgumentTypeError(f"state must be a State (as init returns), got {type(s).__name__}")
    problems: list[tuple[int, str]] = []
    B = s.batch_size
    games = np.arange(B)

    def flag(mask, message):
        for g in np.flatnonzero(mask)[:20]:
            problems.append((int(g), message))

    phase = s.phase
    over = phase == GAME_OVER
    flag((phase < 0) | (phase > GAME_OVER), "unknown phase")

    # One player a square, board mirrors player_square.
    on = s.player_square >= 0
    sq = np.maximum(s.player_square, 0).astype(np.int64)
    board_at = s.board[games[:, None], sq]
    flag((on & (board_at != np.arange(N_SLOTS)[None, :])).any(axis=1), "board does not show a player's square")
    flag((s.board >= 0).sum(axis=1) != on.sum(axis=1), "board and player squares disagree on head count")

    # Eleven a side whenever the field is set.
    offence_on = on[:, :11].sum(axis=1)
    defence_on = on[:, 11:].sum(axis=1)
    full = (phase == KICK_DECISION) | (phase == PLAY) | (phase == SCRAMBLE)
    flag(full & ((offence_on != 11) | (defence_on != 11)), "a team does not have 11 players on the field")
    flag((phase == DEFENCE_FORMATION) & ((offence_on != 11) | (defence_on != 0)), "bad head count before the defence lines up")
    flag(((phase == OFFENCE_FORMATION) | (phase == SPECIALS_PICK)) & on.any(axis=1), "players on the field before the snap formation")

    # The ball: with exactly one player, or loose on an empty square.
    holder = s.ball_holder.astype(np.int64)
    held = holder >= 0
    holder_sq = s.player_square[games, np.maximum(holder, 0)]
    flag(full & held & (holder_sq != s.ball_square), "the ball is not on its carrier's square")
    loose = full & ~held
    flag(loose & ((s.ball_square < 0) | (s.board[games, np.maximum(s.ball_square, 0)] >= 0)),
         "a loose ball is not on an empty square")
    flag(s.ball_hidden & ~((phase == SCRAMBLE) & ~held), "the ball is hidden outside a scramble")
    flag((phase == SCRAMBLE) & held, "a carrier during the blind scramble")

    # Numbers in range.
    flag(((s.points < 0) | (s.points > 8)).any(axis=1), "die points outside 0-8")
    flag(~over & ((s.down < 1) | (s.down > 4)), "down outside 1-4")
    flag(~over & ((s.los_row < FIRST_FIELD_ROW) | (s.los_row > LAST_FIELD_ROW)), "LOS outside the field of play")
    flag(~over & ((s.los_lane < HASH_BAND[0]) | (s.los_lane > HASH_BAND[-1])), "LOS lane outside the hash band")
    team = s.offence.astype(np.int64)
    los_frame = FRAME_ROW[team, s.los_row.astype(np.int64) * N_LANES]
    gain_frame = FRAME_ROW[team, s.line_to_gain.astype(np.int64) * N_LANES]
    flag(~over & ((gain_frame >= los_frame) | (gain_frame < 0)), "line to gain is not ahead of the LOS")
    flag((s.score < 0).any(axis=1) | (s.overtime_points < 0).any(axis=1), "negative score")
    flag((s.overtime_points > s.score).any(axis=1), "overtime points exceed the score")
    flag(~s.overtime & (s.overtime_points != 0).any(axis=1), "overtime points outside overtime")
    flag(((s.to_act < 0) | (s.to_act > 1)) & ~over, "no team to act in a live game")
    flag(s.terminated & ((s.winner < 0) | ~over), "terminated without a winner")
    flag(s.truncated & (s.winner >= 0), "truncated with a winner")
    flag(s.truncated & ~over, "truncated but not over")
    flag(s.terminated & s.truncated, "both terminated and truncated")
    flag(over & ~(s.terminated | s.truncated), "game over without an ending")
    # A finished game is finished through and through (a truncation drops what was under way).
    flag(over & (s.to_act != -1), "a team to act after the game is over")
    flag(over & (s.follow_square >= 0), "a Lead Blocker follow on offer after the game is over")
    flag(over & s.legal.any(axis=1), "legal actions after the game is over")
    flag(~over & ~s.legal.any(axis=1), "no legal action in a live game")
    flag((s.drives < 0).any(axis=1), "negative drive count")

    if check_mask:
        fresh = s.copy()
        recompute_legal(fresh, config)
        flag((fresh.legal != s.legal).any(axis=1), "cached legal mask differs from the rules")
    return problems


def check_invariants(state: State, check_mask: bool = False, config=None) -> None:
    """Raise InvariantError if any game of the batch breaks an invariant."""
    problems = find_violations(state, check_mask, config)
    if problems:
        raise InvariantError(problems)
