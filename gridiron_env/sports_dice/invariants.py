"""Invariant checker for a Sports Dice batch: the facts every reachable state satisfies."""

from __future__ import annotations

import numpy as np

from ..small_games.invariants import InvariantError, checker, flag_cached_mask, problem_list
from .config import SportsDiceConfig
from .state import (
    CHIP, DEFENCE_PLAY, END_ZONE, FIELD_GOAL_CHOICE, FIELD_GOAL_SYMBOL, FOURTH_DOWN, GAME_OVER, KEPT,
    MIDFIELD, NO_CALL, OFFENCE_PLAY, OWN_25, ROLL_KICK, ROLL_NONE, ROLL_PLAY, ROLL_PUNT, SNAP, State, TOSS, USED,
)

__all__ = ["InvariantError", "check_invariants", "find_violations", "dice_summary"]

_POP = np.array([bin(b).count("1") for b in range(16)])


def dice_summary(dice: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(counts, top) of dice int [B, 2, 6] (row 0 offence codes 0-3, row 1 defence codes 4-7, -1 none):
    int8 [B, 2] each, the engine's ``counts`` and ``top`` (0 and 0 for a row with no dice)."""
    d = np.asarray(dice, dtype=np.int64)
    local = d - np.array([0, 4])[None, :, None]
    per = np.stack([(local == k).sum(axis=2) for k in range(4)], axis=2)  # [B, 2, 4]
    count = per.max(axis=2)
    top = ((per == count[..., None]) & (count[..., None] > 0)) * (1 << np.arange(4))
    return count.astype(np.int8), top.sum(axis=2).astype(np.int8)


def find_violations(s: State, config: SportsDiceConfig | None = None, check_mask: bool = True) -> list:
    """Every (game, problem) in the batch; empty when all invariants hold."""
    config = config or SportsDiceConfig()
    problems, flag = problem_list()

    B = s.batch_size
    rows = np.arange(B)
    ph = s.phase.astype(np.int64)
    over = ph == GAME_OVER
    toss = ph == TOSS
    for name, low in (("to_act", -1), ("offence", 0), ("chip", 0), ("toss_winner", 0), ("opener", -1),
                      ("roll_offence", -1)):
        v = getattr(s, name)
        flag((v < low) | (v > 1), f"{name} is not a team")
    flag((ph < 0) | (ph > GAME_OVER), "unknown phase")
    pos = s.position.astype(np.int64)
    down = s.down.astype(np.int64)
    tgt = s.target.astype(np.int64)
    flag((pos < 5) | (pos > 95) | (pos % 5 != 0), "the ball is not on a multiple of 5 inside 5-95")
    flag((down < 1) | (down > 4), "the down is not 1-4")
    flag(~np.isin(tgt, (MIDFIELD, END_ZONE)), "the target is neither the 50 nor the end zone")
    flag((tgt == MIDFIELD) & (pos >= MIDFIELD), "a midfield series at or past the 50")
    flag(over != (s.terminated | s.truncated), "game_over phase and terminated/truncated disagree")
    flag(s.terminated & s.truncated, "both terminated and truncated")
    flag(over != (s.to_act == -1), "to_act is -1 exactly when the game is over")
    # the toss
    flag(toss != (s.opener == -1), "the opener is unset exactly in the toss phase")
    flag(toss & ((pos != OWN_25) | (down != 1) | (tgt != MIDFIELD) | (s.score != 0).any(axis=1)
                 | (s.rolls != 0) | (s.steps != 0) | (s.offence != s.toss_winner) | (s.chip == s.offence)),
         "the toss phase is not the opening (25, 1st down, 0-0, toss winner provisionally on offence)")
    flag(~toss & (s.rolls == 0) & ((s.offence != s.opener) | (s.chip == s.opener) | (pos != OWN_25) | (down != 1)
                                   | (tgt != MIDFIELD) | (s.score != 0).any(axis=1)),
         "before the first roll the opener is on offence at its 25, 1st down, 0-0, its opponent holding the chip")
    # scores and the result
    target = config.target_score
    flag((s.score < 0).any(axis=1), "a negative score")
    flag(~over & (s.score >= target).any(axis=1), "a game goes on past the target score")
    flag(s.score.max(axis=1) >= target + 7, "a score past the target by more than a touchdown")
    flag((s.score >= target).all(axis=1), "both teams at the target")
    w = np.clip(s.winner.astype(np.int64), 0, 1)
    flag(s.terminated & ~np.isin(s.winner, (0, 1)), "a finished game without a winner")
    flag(s.terminated & (s.score[rows, w] < target), "the winner has not reached the target")
    flag(~s.terminated & (s.winner != -1), "a winner in a game that goes on")
    flag(s.truncated & (s.rolls < config.max_rolls), "truncated before the cap on rolls")
    flag(s.rolls > config.max_rolls, "more rolls than the cap")
    flag(~over & (s.rolls >= config.max_rolls) & ((ph == SNAP) | (ph == FOURTH_DOWN)),
         "a settled game at the cap on rolls goes on")
    flag(s.steps < s.rolls + (s.opener >= 0), "fewer decisions than rolls and the toss choice")
    # downs and phases
    flag((ph == SNAP) & (down == 4), "a snap decision on 4th down")
    flag((ph == FOURTH_DOWN) & (down != 4), "a 4th-down declaration on another down")
    # the last roll
    kind = s.roll_kind.astype(np.int64)
    none = kind == ROLL_NONE
    flag(~np.isin(kind, (ROLL_NONE, ROLL_PLAY, ROLL_PUNT, ROLL_KICK)), "unknown roll kind")
    flag(none != (s.rolls == 0), "a last roll exactly when a roll was made")
    flag(none != (s.roll_offence == -1), "the roll's offence team is set exactly after a roll")
    d = s.dice.astype(np.int64)
    flag(none & (d != -1).any(axis=(1, 2)), "dice shown before any roll")
    off_faces = np.zeros(8, dtype=bool)
    off_faces[list(config.offence_face_codes)] = True
    def_faces = np.zeros(8, dtype=bool)
    def_faces[[c + 4 for c in config.defence_face_codes]] = True
    flag(~none & ~off_faces[np.clip(d[:, 0], 0, 7)].all(axis=1) | ~none & (d[:, 0] < 0).any(axis=1),
         "an offence die shows a symbol no offence face has")
    flag(~none & ~def_faces[np.clip(d[:, 1], 0, 7)].all(axis=1) | ~none & (d[:, 1] < 0).any(axis=1),
         "a defence die shows a symbol no defence face has")
    counts, top = dice_summary(s.dice)
    flag((counts != s.counts).any(axis=1) | (top != s.top).any(axis=1), "counts or top differ from the dice")
    pending = np.isin(ph, (CHIP, OFFENCE_PLAY, DEFENCE_PLAY, FIELD_GOAL_CHOICE))
    flag(pending & ((kind != ROLL_PLAY) | (s.offence != s.roll_offence)),
         "a roll decision pending without its play roll")
    co, cd = s.counts[:, 0].astype(np.int64), s.counts[:, 1].astype(np.int64)
    tie = co == cd
    call = s.chip_call.astype(np.int64)
    rw = s.roll_winner.astype(np.int64)
    play = s.play.astype(np.int64)
    flag(~np.isin(call, (NO_CALL, KEPT, USED)), "unknown chip call")
    flag((call != NO_CALL) & ((kind != ROLL_PLAY) | ~tie | (ph == CHIP)), "a chip call without a tied roll")
    flag((kind == ROLL_PLAY) & tie & (ph != CHIP) & (call == NO_CALL), "a tied roll settled without a chip call")
    flag((ph == CHIP) & ((call != NO_CALL) | (rw != -1) | (play != -1) | ~tie), "a chip decision after the call")
    flag(((kind == ROLL_PUNT) | (kind == ROLL_KICK) | none) & ((rw != -1) | (play != -1) | (call != NO_CALL)),
         "a roll winner or play on a kick")
    holder_then = np.where(call == USED, 1 - s.chip, s.chip)
    holder_side = (holder_then != s.roll_offence).astype(np.int64)
    expect = np.where(co > cd, 0, np.where(cd > co, 1, np.where(call == USED, holder_side, 1 - holder_side)))
    flag((kind == ROLL_PLAY) & (ph != CHIP) & (rw != expect), "the roll winner does not follow the counts")
    side = np.clip(rw, 0, 1)
    side_top = s.top[rows, side].astype(np.int64)
    flag(np.isin(ph, (OFFENCE_PLAY, DEFENCE_PLAY)) & ((play != -1) | (_POP[side_top] < 2)),
         "a play choice without tied top symbols")
    flag((ph == OFFENCE_PLAY) & (rw != 0) | (ph == DEFENCE_PLAY) & (rw != 1), "a play choice by the side that lost")
    settled_play = (kind == ROLL_PLAY) & ~np.isin(ph, (CHIP, OFFENCE_PLAY, DEFENCE_PLAY))
    flag(settled_play & (play == -1), "a settled play roll without its play")
    flag((play >= 0) & ((play // 4 != side) | ~((side_top >> np.clip(play % 4, 0, 3)) & 1).astype(bool)),
         "the play is not a top symbol of the winning side")
    flag((ph == FIELD_GOAL_CHOICE) & ((play != FIELD_GOAL_SYMBOL) | (pos < MIDFIELD)),
         "a field-goal choice without a FIELD GOAL play at 50 or beyond")
    if check_mask:
        from .engine import recompute_legal

        flag_cached_mask(flag, s, config, recompute_legal)
    return problems


check_invariants = checker(find_violations)  # raises InvariantError if any game breaks an invariant
