"""The legal mask of a batch (rules 9-24): which action ids the team to act may play, computed from the
state (``recompute_legal``, ``legal_action_mask``) and, inside a step, for the games just changed
(``compute_legal``). Vectorised over the games; the lone-game path (``lone.py``) computes the same mask
for one game in plain Python.
"""

from __future__ import annotations

import numpy as np

from ..config import GameConfig
from . import actions as A
from .geometry import N_DIRECTIONS, N_ROWS, N_SQUARES, NEIGHBOUR
from .rules import (
    DISTANCE_FLAT, FORWARD, GAME_SLOTS, GAP_BEYOND, LINEMAN_RECEIVER, MOVE_COST, PUSH_STEP_COST, RAY, STEP,
    THROW_OK, batch_rows, behind_los, check_config, check_state, kick_available, qb_factor, speedy_qb, throw_kind,
)
from .state import DEFENCE_FORMATION, GAME_OVER, KICK_DECISION, OFFENCE_FORMATION, PLAY, SCRAMBLE, SPECIALS_PICK, State


# The move mask gathers each mover's 8 neighbours straight from the (unpadded) board. An off-grid step
# points back at the mover's own square: his own slot stands there, which reads as blocked (a teammate,
# never the enemy carrier nor a lineman a defender may swap with), so the gather needs no padding and no
# bounds checks. _NB_SELF[team * _NB_ROWS + square + 1, direction]; the row of square -1 (not on the
# field) is masked off by the caller.
_NB_ROWS = N_SQUARES + 1
_NB_SELF = np.zeros((2, _NB_ROWS, N_DIRECTIONS), dtype=np.intp)
_NB_SELF[:, 1:] = np.where(NEIGHBOUR >= 0, NEIGHBOUR, np.arange(N_SQUARES)[None, :, None])
_NB_SELF = _NB_SELF.reshape(2 * _NB_ROWS, N_DIRECTIONS)
# _AFFORD[points as uint8 * 2 + qb_pays_double] = [11 * 8] bool: the mover can pay that step (rule 13);
# only slot 0 of the offence (the quarterback) may pay double. Indexed by the int8 points' byte, so
# negative points (128-255) afford nothing and any count of 4 or more affords every step.
_AFFORD = np.zeros((256, 2, 11, N_DIRECTIONS), dtype=bool)
for _double in range(2):
    _cost = np.broadcast_to(MOVE_COST, (11, N_DIRECTIONS)).copy()
    _cost[0] *= 1 + _double
    _AFFORD[:128, _double] = _cost[None] <= np.arange(128)[:, None, None]
_AFFORD = _AFFORD.reshape(512, 11 * N_DIRECTIONS)
_PUSH_REACH = RAY.shape[-1]

# The squares of each forward line from a carrier: [team * N_SQUARES + square] -> [3, reach], -1 off the
# grid; a short reach first (almost every push resolves within it), the whole line for the rest.
_PUSH_SHORT_REACH = 8
_RAY_FORWARD = {reach: np.ascontiguousarray(RAY[:, :, FORWARD, :reach]).reshape(2 * N_SQUARES, 3, reach)
                for reach in (_PUSH_SHORT_REACH, N_ROWS)}
_RAY_FORWARD_FIRST = np.ascontiguousarray(RAY[:, :, FORWARD, 0]).reshape(-1, 3)  # each line's first square


def push_walk(s, idx, team, carrier_square, reach=_PUSH_SHORT_REACH):
    """The push of rule 16 in each forward direction: the line of teammates from the carrier must end on
    an empty square; one defender may be in it, shoved only by a strong lineman right behind him.

    Returns (legal [n,3], shoves a defender [n,3], slot of the teammate pushed [n,3] or -1), computed from
    the occupants along each line at once (no walk square by square).
    """
    n = idx.size
    board = s.board.reshape(-1)
    # each carrier's row of the line tables; the lines' first squares for every carrier, whole lines only
    # for those that start with a teammate
    key = team * N_SQUARES + carrier_square
    row = (idx * N_SQUARES)[:, None]

    def occupants(squares, rows):
        # off the grid (-1) reads as a wall (-2); the gather there is harmless and discarded
        return np.where(squares >= 0, board.take(squares + rows), -2).astype(np.intp)

    attacking = (team == s.offence[idx])[:, None]  # the pushing team is the offence (slots 0-10)
    first = occupants(_RAY_FORWARD_FIRST.take(key, axis=0), row)  # [n, 3]
    teammate_first = (first >= 0) & ((first < 11) == attacking)
    legal = np.zeros((n, 3), dtype=bool)
    shove = np.zeros((n, 3), dtype=bool)
    game, j = teammate_first.nonzero()
    if game.size:
        m = game.size
        att = attacking[game]  # [m, 1]
        occ = occupants(_RAY_FORWARD[reach].reshape(-1, reach).take(key[game] * 3 + j, axis=0), row[game])
        # The line stops at the first square past the first that is not a teammate (k1); a defender there
        # shoved by a strong lineman of the offence right behind him lets it run on to the next (k2).
        stop = (occ < 0) | ((occ < 11) != att)
        stop[:, 0] = False
        base = np.arange(m) * reach
        k1 = stop.argmax(axis=1)
        found1 = stop.ravel()[base + k1]
        at1 = occ.ravel()[base + k1]
        behind = occ.ravel()[base + k1 - 1]
        strong = s.strong[idx[game], np.minimum(np.maximum(behind - 1, 0), 4)] & (behind >= 1) & (behind <= 5)
        shove[game, j] = line_shove = found1 & (at1 >= 0) & strong & att[:, 0]
        after = stop & (np.arange(reach) > k1[:, None])
        k2 = after.argmax(axis=1)
        found2 = after.ravel()[base + k2]
        at2 = occ.ravel()[base + k2]
        legal[game, j] = found1 & ((at1 == -1) | (line_shove & found2 & (at2 == -1)))
        unresolved = ~found1 | (line_shove & ~found2)
        if unresolved.any() and reach < N_ROWS:  # a line longer than the short reach: see it whole
            u = np.unique(game[unresolved])
            legal[u], shove[u], _ = push_walk(s, idx[u], team[u], carrier_square[u], N_ROWS)
    return legal, shove, np.where(teammate_first, first, -1)


def compute_legal(s: State, idx):
    """Fill ``s.legal`` for the games ``idx`` from their state, writing each phase's rows in place."""
    if idx.size == 0:
        return
    out = s.legal
    rows = batch_rows(s, idx)
    phase = s.phase[rows]
    out[rows] = False
    if idx.size == 1:  # one game: its phase alone decides (no per-phase subsets)
        present = (int(phase[0]),)
    else:
        present = np.bincount(phase, minlength=GAME_OVER + 1).nonzero()[0]
    for ph in present:
        if ph == GAME_OVER:
            continue
        sub = idx if len(present) == 1 else idx[phase == ph]
        if ph == PLAY:
            _legal_play(s, sub, out)
        elif ph == SCRAMBLE:
            _legal_scramble(s, sub, out)
        elif ph == SPECIALS_PICK:
            out[batch_rows(s, sub), A.SPECIAL_BASE:A.SPECIAL_BASE + 4] = True
        elif ph == OFFENCE_FORMATION:
            out[batch_rows(s, sub), A.OFFENCE_FORMATION_BASE:A.DEFENCE_FORMATION_BASE] = True
        elif ph == DEFENCE_FORMATION:
            out[batch_rows(s, sub), A.DEFENCE_FORMATION_BASE:A.SPECIAL_BASE] = True
        elif ph == KICK_DECISION:
            fg, punt = kick_available(s, sub)
            out[sub, A.PLAY_ON] = True
            out[sub, A.FIELD_GOAL] = fg
            out[sub, A.PUNT_BASE:A.PUNT_BASE + STEP.config.longest_punt] = punt[:, None]


def _acting_squares(s, idx):
    """(team to act, it is the defence, slots [n, 11], their squares [n, 11], side: 0 offence 1 defence)
    of the games ``idx``."""
    team = s.to_act[idx].astype(np.intp)
    defending = team != s.offence[idx]
    side = defending.astype(np.intp)
    # slots 0-10 and 11-21 are the two halves of each game's row: one row gather (a flat take, much
    # cheaper than a 2-d fancy index) picks the acting half
    squares = s.player_square.reshape(-1, 11).take(idx * 2 + side, axis=0).astype(np.intp)
    slots = side[:, None] * 11 + GAME_SLOTS[None, :]
    return team, defending, slots, squares, side


def _neighbour_occupants(s, idx, team, squares):
    """Occupant of each of the 8 neighbours of each square [n, 11] -> int8 [n, 11, 8] (see _NB_SELF)."""
    target = _NB_SELF.take(team[:, None] * _NB_ROWS + squares + 1, axis=0)
    target += (idx * N_SQUARES)[:, None, None]
    return s.board.reshape(-1).take(target)


# [acting side * _CARRIER_ROWS + ball holder + 1]: the holder is the acting side's carrier (his slot half,
# offence 0-10, matches the side), and the enemy carrier's slot (-3, matching no occupant, when the ball is
# loose or the acting side's).
_CARRIER_ROWS = 23
_WEAK_BIT = np.array([2, 4, 8, 16, 32], dtype=np.uint8)  # bit k + 1 for strong-lineman flag k (slot k + 1)
_HOLDER = np.arange(-1, 22)
_OWN_CARRIER = np.stack([(_HOLDER >= 0) & (_HOLDER < 11), _HOLDER >= 11]).reshape(-1)
_ENEMY_CARRIER = np.where((_HOLDER >= 0) & ~_OWN_CARRIER.reshape(2, -1), _HOLDER, -3).astype(np.int8).reshape(-1)


def _write_side_rows(out, base, width, idx, side, rows):
    """Write ``rows`` [n, width] into the ids ``base + side * width + k`` of the games ``idx``: per-slot
    actions of the offence's slots (side 0) or the defence's (side 1).

    A C-contiguous mask (every mask in ``step``, a fresh copy) is written through a window view whose row r
    is the ``width`` bytes from flat position r, so each game's run of ids is one row picked by a single
    flat index: a plain row scatter, far cheaper than two fancy indices. Any other layout goes through
    [batch, 2, width] view (splitting the last axis of a 2-d array is always a view)."""
    if out.flags.c_contiguous:
        flat = out.reshape(-1)
        window = np.ndarray((flat.size - width + 1, width), dtype=np.bool_, buffer=flat, strides=(1, 1))
        window[idx * out.shape[1] + (base + side * width)] = rows
    else:
        out[:, base:base + 2 * width].reshape(out.shape[0], 2, width)[idx, side] = rows


def _legal_scramble(s, idx, out):
    """Write the masks of the scramble games ``idx`` into their (cleared) rows of ``out``."""
    n = idx.size
    out[idx, A.END_TURN] = True
    team, defending, slots, squares, side = _acting_squares(s, idx)
    free = (_neighbour_occupants(s, idx, team, squares) == -1) & (squares >= 0)[:, :, None]
    _write_side_rows(out, A.MOVE_BASE, 11 * N_DIRECTIONS, idx, side, free.reshape(n, -1))


def _legal_play(s, idx, out):
    """Write the masks of the games ``idx`` in play into their (cleared) rows of ``out``."""
    n = idx.size
    out[idx, A.END_TURN] = True
    team, defending, slots, squares, side = _acting_squares(s, idx)
    pts = s.points.reshape(-1).take(idx * 2 + team)
    holder = s.ball_holder[idx]
    carrier_key = side * _CARRIER_ROWS + holder + 1
    own_carrier = _OWN_CARRIER.take(carrier_key)
    enemy_carrier = _ENEMY_CARRIER.take(carrier_key)

    speedy = speedy_qb(s, idx)
    # Moves (rules 13-14). A side without points has none (a step costs at least one, a swap two): those
    # games, among them every game whose turn is about to end on its own, skip the neighbour lookups.
    mv = (pts > 0).nonzero()[0]
    if mv.size == n:
        _legal_moves(s, idx, out, team, defending, side, squares, pts, enemy_carrier, speedy)
    elif mv.size:
        _legal_moves(s, idx[mv], out, team[mv], defending[mv], side[mv], squares[mv], pts[mv], enemy_carrier[mv],
                     speedy[mv])

    # Lead Blocker follow (rule 24).
    fsq = s.follow_square[idx]
    f = (fsq >= 0).nonzero()[0]
    if f.size:
        # DISTANCE[a, b] as a flat take (a = -1 wraps to the last row either way)
        follow_ok = (DISTANCE_FLAT.take(squares[f] * N_SQUARES + fsq[f, None]) == 1) & (
            slots[f] != s.follow_mover[idx[f], None])
        _write_side_rows(out, A.FOLLOW_BASE, 11, idx[f], side[f], follow_ok)

    # Carrier actions: push, gap, throw (rules 16-18).
    c = own_carrier.nonzero()[0]
    if c.size:
        ci = idx[c]
        cteam = team[c]
        csq = s.ball_square[ci].astype(np.intp)
        cpts = pts[c]
        carrier = holder[c].astype(np.intp)
        factor = qb_factor(s, ci, carrier, speedy[c])
        # push: a step costs at least a point, so carriers without points skip the walk
        pw = (cpts > 0).nonzero()[0]
        if pw.size:
            pci = ci if pw.size == c.size else ci[pw]
            push_legal, shove, first = push_walk(s, pci, cteam[pw], csq[pw])
            if push_legal.any():
                push_cost = PUSH_STEP_COST * factor[pw, None] * np.where(shove, 2, 1)
                pushing, j = np.nonzero(push_legal & (push_cost <= cpts[pw, None]))
                out[pci[pushing], A.PUSH_BASE + first[pushing, j]] = True
        # gap (offence only: strong linemen are the offence's), at 4 points or more
        offence_carrier = ~defending[c]
        g = (offence_carrier & (2 * (factor + 1) <= cpts)).nonzero()[0]  # 2 squares at gap_cost_per_square
        if g.size:
            gi = ci[g]
            line_sq = s.player_square[gi, 1:6].astype(np.intp)  # [m,5]
            beyond = GAP_BEYOND.take(((cteam[g] * (N_SQUARES + 1) + csq[g] + 1) * (N_SQUARES + 1))[:, None]
                                      + line_sq + 1)
            # where there is no landing square (-1) the gather is harmless and discarded
            beyond_free = (beyond >= 0) & (s.board.reshape(-1).take(beyond + (gi * N_SQUARES)[:, None]) < 0)
            out[gi, A.GAP_BASE:A.GAP_BASE + 5] = s.strong[gi] & beyond_free
        # throw: what the game allows (bit 0 a lateral, bit 1 a forward pass) and each receiver's kind of
        # throw and eligibility pick his entry of THROW_OK in one gather
        two = cpts >= 2
        allowed = two + 2 * (offence_carrier & ~s.forward_pass_used[ci] & behind_los(s, ci, cteam, csq) & two)
        kind = throw_kind(s, ci, cteam[:, None], csq[:, None], squares[c])
        throw_ok = THROW_OK.take((allowed * 6)[:, None] + kind * 2 + LINEMAN_RECEIVER)
        throw_ok &= slots[c] != carrier[:, None]
        _write_side_rows(out, A.THROW_BASE, 11, ci, side[c], throw_ok)



def _legal_moves(s, idx, out, team, defending, side, squares, pts, enemy_carrier, speedy):
    """Write the move ids of the games ``idx`` (in play, acting side with points) into ``out``."""
    n = idx.size
    # Moves (rules 13-14): what stands on each target square decides. Empty or the enemy carrier (a
    # tackle): the step's cost; a weak offensive lineman, for a defender: a swap for 2 points; else blocked.
    occ = _neighbour_occupants(s, idx, team, squares)
    open_ = (occ == -1) | (occ == enemy_carrier[:, None, None])
    qb_double = ~defending & ~speedy
    afford = _AFFORD.take(pts.astype(np.uint8).astype(np.intp) * 2 + qb_double, axis=0)
    move_ok = open_.reshape(n, -1) & afford
    # Swaps: bit k of ``weak`` (k = 1..5) marks lineman slot k as one this defender may go through. The
    # occupant, as uint8 capped at 7, picks its bit (empty, 255, and slots 6+ land on the unused bit 7),
    # so the test is a few byte-wide passes instead of a per-game lookup gather.
    # Only the defence's games with 2 points or more (about half) are worked on.
    d = (defending & (pts >= 2)).nonzero()[0]
    if d.size:
        weak = (~s.strong[idx[d]]).view(np.uint8) @ _WEAK_BIT  # a tiny integer matmul: cheaper than packbits
        weak &= ~(np.uint8(1) << np.minimum(enemy_carrier[d].view(np.uint8), 7))  # the enemy carrier is tackled
        bit = np.minimum(occ[d].view(np.uint8), 7)
        move_ok[d] |= ((weak[:, None, None] >> bit) & 1).view(bool).reshape(d.size, -1)
    off_field = squares < 0
    if off_field.any():
        move_ok &= np.repeat(~off_field, N_DIRECTIONS, axis=1)
    _write_side_rows(out, A.MOVE_BASE, 11 * N_DIRECTIONS, idx, side, move_ok)


def recompute_legal(state: State, config: GameConfig | None = None) -> None:
    """Recompute the cached legal mask of every game in place (after editing a state by hand)."""
    check_state(state)
    STEP.config = check_config(config)
    idx = np.arange(state.batch_size)
    compute_legal(state, idx)
    state.legal[state.phase == GAME_OVER] = False


def legal_action_mask(state: State) -> np.ndarray:
    """bool [batch, NUM_ACTIONS]: the legal actions of the team to act (all False once a game is over)."""
    check_state(state)
    return state.legal.copy()
