"""The rules engine: ``init``, ``step`` and ``legal_action_mask`` over a batch of games.

Every handler works on an index subset of the batch (``idx``: game indices) and is vectorised over it;
there is no Python loop over games or squares. The order of a down (rule 7): offence formation, defence
formation, strong-lineman roll, kick decision (when one applies), then rounds of dice: the offence's turn,
the defence's turn, roll again, until the play ends.

The rules' numbers and small shared functions are in ``rules.py`` (read by the lone-game path too), the
legal mask in ``legal.py``; a batch of up to ``LONE_BATCH_LIMIT`` games steps game by game through
``lone.py`` (see there), where that is faster.
"""

from __future__ import annotations

from operator import and_

import numpy as np

from ..config import DEFAULT_CONFIG, GameConfig
from . import actions as A
from . import lone as _lone  # the fast path of a batch of one
from .diagram import to_diagram
from .chance import CounterChance, check_seed, game_keys, seed_keys, uniform_at
from .formations import DEFENCE_PLACEMENT, OFFENCE_PLACEMENT
from .geometry import (
    DEFENDED_END_ZONE, DISTANCE, FIRST_FIELD_ROW, FORWARD_DIRECTIONS, FRAME_LANE, FRAME_ROW, HASH_BAND,
    LAST_FIELD_ROW, LINE_OFFSETS, N_DIRECTIONS, N_LANES, N_ROWS, N_SLOTS, N_SQUARES, NEIGHBOUR, QB,
    SCORING_END_ZONE, SQUARE_LANE, SQUARE_ROW,
)
from .legal import compute_legal, legal_action_mask, push_walk, recompute_legal  # noqa: F401  (re-exported)
from .rules import (
    ALL_KICKOFF, CARRIER_TD, CONTEST_ROUND, CONTEST_ROUNDS, DIRS, FIELD_CLEARED_FOR_A_DOWN, FIELD_GOAL_TARGET_BY_ROW, FORWARD, GAME_SLOTS,
    MAX_DEFENCE_DICE, MAX_OFFENCE_DICE, NEIGHBOUR_FLAT, PASS_DEFENCE_DICE, PASS_OFFENCE_DICE, RAY, STEP, TD_ROW,
    INTERCEPTION_ONE_IN, LATERAL_DROPS, LATERAL_ROLL, IllegalActionError, batch_rows, behind_los, check_chance, check_config, check_state, field_goal_distance_for_row,
    frame_los, gap_cost_per_square, kick_available, move_cost, paper_reach, slot_base, team_of,
    throw_kind,
)
from .state import (
    DEFENCE_FORMATION, GAME_OVER, KICK_DECISION, OFFENCE_FORMATION, PLAY, SCRAMBLE, SPECIALS_PICK, State,
)







def _move_player(s: State, idx, slot, to_square, frm=None):
    """Move ``slot`` to an empty square (board kept in step). ``frm``: his square, when the caller has it."""
    if idx.size == 0:
        return
    if frm is None:
        frm = s.player_square[idx, slot]
    if s.board.flags.c_contiguous and s.player_square.flags.c_contiguous:  # (always, in a step's copy)
        # flat writes: the same squares as the 2-d fancy writes below, far cheaper in a big batch
        board = s.board.reshape(-1)
        at = idx * N_SQUARES
        board[at + frm] = -1
        board[at + to_square] = slot
        s.player_square.reshape(-1)[idx * N_SLOTS + slot] = to_square
    else:
        s.board[idx, frm] = -1
        s.board[idx, to_square] = slot
        s.player_square[idx, slot] = to_square
    carrying = s.ball_holder[idx] == slot
    s.ball_square[idx[carrying]] = to_square[carrying]



# --- init ------------------------------------------------------------------------------------------------

MAX_BATCH = 2**31 - 1  # games in one batch (memory runs out long before: State.bytes_per_game() each)


def init(batch_size: int | None = None, seed: int = 0, config: GameConfig | None = None, chance=None,
         seeds=None) -> State:
    """A batch of new games (a State).

    ``batch_size``: int 1..2**31-1 (may be left out when ``seeds`` is given). ``seed``: int 0..2**64-1;
    game i draws from the stream of (seed + i) mod 2**64, so it plays exactly like a lone game seeded
    (seed + i) mod 2**64. ``seeds``: per-game seeds instead (a non-empty sequence or integer array of ints
    0..2**64-1; game i equals ``init(1, seed=seeds[i])``). ``config``: a GameConfig (None: the defaults).
    Python and numpy ints are accepted; bools, floats, negatives and too-large ints raise ValueError
    naming the argument.
    """
    config = check_config(config)
    check_chance(chance)
    if batch_size is not None and (isinstance(batch_size, (bool, np.bool_))
                                   or not isinstance(batch_size, (int, np.integer))
                                   or not 1 <= batch_size <= MAX_BATCH):
        raise ValueError(f"batch_size must be an int from 1 to {MAX_BATCH}, got {batch_size!r}")
    if seeds is not None:
        if not (isinstance(seed, (int, np.integer)) and not isinstance(seed, (bool, np.bool_)) and seed == 0):
            raise ValueError(f"give seed or seeds, not both (got seed={seed!r} with seeds)")
        keys = seed_keys(seeds)
        if batch_size is not None and batch_size != keys.size:
            raise ValueError(f"batch_size {batch_size} does not match the {keys.size} seeds")
        batch_size = keys.size
    elif batch_size is None:
        raise ValueError("init needs batch_size (an int >= 1) or seeds (one per game)")
    else:
        check_seed(seed)
    batch_size = int(batch_size)
    chance = chance or CounterChance()
    s = State.empty(batch_size)
    if seeds is None:
        s.rng_key[:] = game_keys(seed, batch_size)
    else:
        s.rng_key[:] = keys
    idx = np.arange(batch_size)
    s.opener[:] = chance.draw(s, idx, 2, 1, "coin toss")[:, 0]  # rule 28
    s.drives[idx, s.opener] = 1
    _new_series(s, idx, s.opener, ALL_KICKOFF[s.opener])
    if config.specials:  # both teams pick before the first down, team one first (rule 24)
        s.phase[:] = SPECIALS_PICK
        s.to_act[:] = 0
    _refresh(s, idx, config)
    return s


# --- down and possession bookkeeping --------------------------------------------------------------------

def _start_down(s: State, idx):
    """Clear the field for a new down at (los_row, los_lane); the offence picks its formation."""
    if idx.size == 0:
        return
    for field, value in FIELD_CLEARED_FOR_A_DOWN:
        getattr(s, field)[idx] = value
    s.ball_square[idx] = s.los_row[idx].astype(np.int16) * N_LANES + s.los_lane[idx]
    s.last_holder_team[idx] = s.offence[idx]
    s.phase[idx] = OFFENCE_FORMATION
    s.to_act[idx] = s.offence[idx]


def _spot(s, idx, square):
    """Put the next snap at ``square``'s row, the ball's lane moved into the hash band (rule 5)."""
    s.los_row[idx] = SQUARE_ROW[square]
    s.los_lane[idx] = np.minimum(np.maximum(SQUARE_LANE[square], HASH_BAND[0]), HASH_BAND[-1])


def _new_series(s: State, idx, team, square):
    """First-and-ten for ``team`` at ``square`` (rule 6)."""
    if idx.size == 0:
        return
    s.offence[idx] = team
    s.down[idx] = 1
    _spot(s, idx, square)
    los_frame = FRAME_ROW[team, s.los_row[idx].astype(np.int64) * N_LANES]
    gain_frame = los_frame - 3
    s.line_to_gain[idx] = np.where(team == 0, gain_frame, N_ROWS - 1 - gain_frame)
    _start_down(s, idx)


def _next_down(s: State, idx, square):
    """Same offence, next down, spotted at ``square``; a failed 4th down turns the ball over (rule 6)."""
    if idx.size == 0:
        return
    s.down[idx] += 1
    over = s.down[idx] > 4
    turnover = idx[over]
    _change_possession(s, turnover, 1 - s.offence[turnover], square[over], config=None)
    keep = idx[~over]
    _spot(s, keep, square[~over])
    _start_down(s, keep)


def _change_possession(s: State, idx, team, square, config=None):
    """The drive ends; ``team`` gets the ball first-and-ten at ``square`` (-1: its kickoff spot).

    Checks the end of the game first (rules 28-29). In overtime every possession starts at the kickoff
    spot and possessions alternate.
    """
    if idx.size == 0:
        return
    config = config or STEP.config
    team = np.asarray(team, dtype=np.int64)
    square = np.asarray(square, dtype=np.int64)
    if square.ndim == 0:
        square = np.full(idx.size, square)
    if team.ndim == 0:
        team = np.full(idx.size, team)
    n = idx.size
    over = np.zeros(n, dtype=bool)
    winner = np.full(n, -1)

    ot = s.overtime[idx]
    if ot.any():
        # Overtime (rule 29): first to 4 overtime points wins; otherwise alternate from kickoff spots.
        ot_pts = s.overtime_points[idx]
        ot_win = ot & (ot_pts.max(axis=1) >= 4)
        over |= ot_win
        winner = np.where(ot_win, ot_pts.argmax(axis=1), winner)
        team = np.where(ot, 1 - s.offence[idx], team)
        square = np.where(ot, -1, square)

    # Regulation (rule 28). Per-team fields read as flat [game * 2 + team] entries.
    reg = ~ot
    opener = s.opener[idx].astype(np.intp)
    other = 1 - opener
    opener_key = idx * 2 + opener
    other_key = opener_key ^ 1
    scores, drives = s.score.reshape(-1), s.drives.reshape(-1)
    opener_score = scores.take(opener_key)
    other_score = scores.take(other_key)
    target = config.target_score
    other_first = reg & (other_score >= target) & (opener_score < target)
    over |= other_first
    winner = np.where(other_first, other, winner)
    opener_reached = reg & (opener_score >= target) & ~other_first
    other_owed = drives.take(other_key) < drives.take(opener_key)
    final_drive_next = opener_reached & other_owed & (team == other)
    decide = opener_reached & ~final_drive_next
    higher = np.where(opener_score > other_score, opener, other)
    tie = opener_score == other_score
    over |= decide & ~tie
    winner = np.where(decide & ~tie, higher, winner)
    start_overtime = decide & tie

    if over.any():
        done = idx[over]
        s.winner[done] = winner[over]
        s.terminated[done] = True
        s.phase[done] = GAME_OVER
        s.to_act[done] = -1
        s.ball_holder[done] = -1
        s.ball_hidden[done] = False  # a finished game hides nothing (see _truncate)

    if start_overtime.any():
        sot = idx[start_overtime]
        s.overtime[sot] = True
        s.overtime_points[sot] = 0
        team = team.copy()
        team[start_overtime] = _chance_draw(s, sot, 2, 1, "overtime coin toss")[:, 0]
        square = square.copy()
        square[start_overtime] = -1

    go = ~over
    g = idx[go]
    t = team[go]
    sq = np.where(square[go] < 0, ALL_KICKOFF[t], square[go])
    s.drives[g, t] += 1
    _new_series(s, g, t, sq)


def _chance_draw(s, idx, high, count, what):
    return STEP.chance.draw(s, idx, high, count, what)


def _score(s: State, idx, team, points):
    s.score[idx, team] += points
    ot = s.overtime[idx]
    s.overtime_points[idx[ot], team[ot]] += points


def _touchdown(s: State, idx, team):
    """6 points, then the PAT (19 in 20) outside overtime; the other team receives (rules 23, 29)."""
    if idx.size == 0:
        return
    _score(s, idx, team, 6)
    reg = ~s.overtime[idx]
    pat_good = _chance_draw(s, idx[reg], 20, 1, "PAT")[:, 0] < 19
    s.score[idx[reg][pat_good], team[reg][pat_good]] += 1
    _change_possession(s, idx, 1 - team, -1)


def _safety(s: State, idx, scoring_team):
    """2 points; the team that scored it receives (rule 4)."""
    if idx.size == 0:
        return
    _score(s, idx, scoring_team, 2)
    _change_possession(s, idx, scoring_team, -1)


def _ball_dead(s: State, idx, team, square):
    """The play ends with ``team`` owning the dead ball at ``square`` (tackle, roll cap)."""
    if idx.size == 0:
        return
    team = np.asarray(team, dtype=np.int64)
    square = np.asarray(square, dtype=np.int64)
    in_own_end_zone = DEFENDED_END_ZONE[team, square]
    defence_ball = team != s.offence[idx]
    # Downed in his own end zone: a safety for the offence's carrier (rule 15), a touchback for a
    # defender returning a takeaway (rule 20).
    safety = in_own_end_zone & ~defence_ball
    _safety(s, idx[safety], 1 - team[safety])
    own_touchback = in_own_end_zone & defence_ball
    _change_possession(s, idx[own_touchback], team[own_touchback], -1)
    # A loose ball dead in the end zone its last holder attacks: touchback to the other team.
    touchback = SCORING_END_ZONE[team, square] & ~in_own_end_zone
    _change_possession(s, idx[touchback], 1 - team[touchback], -1)
    rest = ~in_own_end_zone & ~touchback
    idx, team, square = idx[rest], team[rest], square[rest]
    kept = team == s.offence[idx]
    # The defence ends the play holding the ball: first-and-ten for it at the spot (rule 26).
    _change_possession(s, idx[~kept], team[~kept], square[~kept])
    idx, team, square = idx[kept], team[kept], square[kept]
    gained = FRAME_ROW[team, square] <= FRAME_ROW[team, s.line_to_gain[idx].astype(np.int64) * N_LANES]
    _new_series(s, idx[gained], team[gained], square[gained])  # first down: same drive
    _next_down(s, idx[~gained], square[~gained])


def _incomplete(s: State, idx):
    """Incomplete pass: the down ends, the next starts from the same LOS (rule 20)."""
    if idx.size:
        _next_down(s, idx, s.los_row[idx].astype(np.int64) * N_LANES + s.los_lane[idx])


def _gain_possession(s: State, idx, slot, recovery=False):
    """``slot`` now holds the ball where he stands: a touchdown in the end zone his team attacks. When
    ``recovery`` (a loose ball picked up), a defender in the end zone his team defends gets a touchback
    at once (rule 27); a catch or an interception there is live (rule 20)."""
    if idx.size == 0:
        return
    slot = np.asarray(slot, dtype=np.int64)
    sq = s.player_square[idx, slot].astype(np.int64)
    team = team_of(s, idx, slot)
    s.ball_holder[idx] = slot
    s.ball_square[idx] = sq
    s.ball_hidden[idx] = False
    s.last_holder_team[idx] = team
    td = SCORING_END_ZONE[team, sq]
    if td.any():
        _touchdown(s, idx[td], team[td])
    if recovery:
        touchback = DEFENDED_END_ZONE[team, sq] & (slot >= 11) & ~td
        if touchback.any():
            _change_possession(s, idx[touchback], team[touchback], -1)


def _carrier_moved(s: State, idx):
    """After the carrier moves: a touchdown if he stands in the end zone his team attacks."""
    if idx.size == 0:
        return
    holder = s.ball_holder[idx]
    key = TD_ROW.take(s.offence[idx] * 23 + holder + 1) + s.ball_square[idx]
    td = CARRIER_TD.take(key)
    if td.any():
        idx = idx[td]
        team = team_of(s, idx, holder[td].astype(np.int64))
        _touchdown(s, idx, team)




def _in_play(s, idx):
    return idx[(s.phase[idx] == PLAY) | (s.phase[idx] == SCRAMBLE)]


# --- rounds and turns -------------------------------------------------------------------------------------

def _begin_round(s: State, idx):
    """Roll the dice (rule 10); past the cap on rolls the ball is dead where it is (rule 12)."""
    if idx.size == 0:
        return
    rolls = s.rolls[idx] + 1
    s.rolls[idx] = rolls
    capped = rolls > STEP.config.max_rolls_per_down
    go = idx
    if capped.any():
        dead = idx[capped]
        holder = s.ball_holder[dead].astype(np.int64)
        owner = np.where(holder >= 0, team_of(s, dead, np.maximum(holder, 0)), s.last_holder_team[dead])
        s.ball_hidden[dead] = False
        _ball_dead(s, dead, owner, s.ball_square[dead])
        go = idx[~capped]
        if go.size == 0:
            return
    faces = _chance_draw(s, go, 6, 4, "dice") + 1
    pairs = np.sort(faces.reshape(-1, 2, 2), axis=2)[:, :, ::-1]  # each side's dice, high then low: one sort
    off, dfn = pairs[:, 0], pairs[:, 1]
    off_pts = np.where(off[:, 0] >= dfn[:, 0], off[:, 0], off[:, 1])
    def_pts = np.where(dfn[:, 0] >= off[:, 0], dfn[:, 0], dfn[:, 1])
    o = s.offence[go]
    # flat [game * 2 + team] entries (a step's state is C-contiguous: these reshapes are views)
    off_key = go * 2 + o
    def_key = off_key ^ 1  # the other team's entry of the same game
    dice, points = s.dice.reshape(-1, 2), s.points.reshape(-1)
    dice[off_key] = off
    dice[def_key] = dfn
    points[off_key] = np.minimum(8, points.take(off_key) + off_pts)
    points[def_key] = np.minimum(8, points.take(def_key) + def_pts)
    s.phase[go] = PLAY
    s.to_act[go] = o
    s.follow_square[go] = -1


def _end_turn(s: State, idx):
    """End the acting side's turn: the defence follows the offence; then the dice roll again."""
    if idx.size == 0:
        return
    s.follow_square[idx] = -1
    first_half = s.to_act[idx] == s.offence[idx]
    a = idx[first_half]
    s.to_act[a] = 1 - s.offence[a]
    _begin_round(s, idx[~first_half])


# --- action handlers -------------------------------------------------------------------------------------

def _do_special(s, idx, choice):
    s.special[idx, s.to_act[idx]] = choice
    second = s.to_act[idx] == 1
    s.to_act[idx[~second]] = 1
    done = idx[second]
    s.phase[done] = OFFENCE_FORMATION
    s.to_act[done] = s.offence[done]


def _place(s, idx, slots, placement_squares):
    """Put players on their formation squares (offence-frame squares turned to absolute)."""
    if idx.size == 0:
        return
    frame_team = s.offence[idx][:, None]
    sq = np.where(frame_team == 0, placement_squares, N_SQUARES - 1 - placement_squares).astype(np.int64)
    s.player_square[idx[:, None], slots[None, :]] = sq
    s.board[idx[:, None], sq] = slots[None, :]



def _band_index(s, idx):
    return FRAME_LANE[s.offence[idx], s.los_lane[idx].astype(np.int64)] - HASH_BAND[0]


def _do_offence_formation(s, idx, formation):
    s.formation[idx, 0] = formation
    _place(s, idx, np.arange(11), OFFENCE_PLACEMENT[formation, frame_los(s, idx), _band_index(s, idx)])
    # The ball is snapped to the quarterback.
    s.ball_holder[idx] = QB
    s.ball_square[idx] = s.player_square[idx, QB]
    s.phase[idx] = DEFENCE_FORMATION
    s.to_act[idx] = 1 - s.offence[idx]



def _do_defence_formation(s, idx, formation):
    s.formation[idx, 1] = formation
    _place(s, idx, np.arange(11, 22), DEFENCE_PLACEMENT[formation, frame_los(s, idx), _band_index(s, idx)])
    s.strong[idx] = _chance_draw(s, idx, 2, 5, "strong linemen") == 1  # rule 8
    fg, punt = kick_available(s, idx)
    decide = fg | punt
    k = idx[decide]
    s.phase[k] = KICK_DECISION
    s.to_act[k] = s.offence[k]
    _begin_round(s, idx[~decide])


def _do_field_goal(s, idx):
    los = frame_los(s, idx)
    offence = s.offence[idx].astype(np.int64)
    if STEP.config.kick_mode == "dice":
        total = (_chance_draw(s, idx, 6, 3, "field goal") + 1).sum(axis=1)
        good = total >= FIELD_GOAL_TARGET_BY_ROW[los]
    else:
        total = (_chance_draw(s, idx, 6, 3, "field goal reach") + 1).sum(axis=1)
        reach = paper_reach(total)
        answer = _chance_draw(s, idx, 1_000_000, 1, "field goal answer")[:, 0]
        good = (reach >= field_goal_distance_for_row(los)) & (answer < STEP.config.paper_answer_chance * 1e6)
    _score(s, idx[good], offence[good], 3)
    _change_possession(s, idx[good], 1 - offence[good], -1)
    miss = idx[~good]
    _change_possession(s, miss, 1 - offence[~good],
                       s.los_row[miss].astype(np.int64) * N_LANES + s.los_lane[miss])


def _do_punt(s, idx, rows):
    """Punt: lands target + uniform -2..+2 rows downfield, same lane; no return (rule 22)."""
    offence = s.offence[idx].astype(np.int64)
    spread = _chance_draw(s, idx, 5, 1, "punt spread")[:, 0] - 2
    land = frame_los(s, idx) - rows - spread
    touchback = land < FIRST_FIELD_ROW
    _change_possession(s, idx[touchback], 1 - offence[touchback], -1)
    ok = ~touchback
    land = np.minimum(land[ok], LAST_FIELD_ROW)  # a short punt never lands behind the field of play
    lane = FRAME_LANE[offence[ok], s.los_lane[idx[ok]].astype(np.int64)]
    row_abs = np.where(offence[ok] == 0, land, N_ROWS - 1 - land)
    lane_abs = np.where(offence[ok] == 0, lane, N_LANES - 1 - lane)
    _change_possession(s, idx[ok], 1 - offence[ok], row_abs * N_LANES + lane_abs)


def _do_move(s, idx, slot, direction):
    # (flat takes rather than 2-d fancy indices: the same values, at a fraction of the cost in a big batch)
    team = s.to_act[idx].astype(np.int64)
    frm = s.player_square.reshape(-1).take(idx * N_SLOTS + slot).astype(np.int64)
    to = NEIGHBOUR_FLAT.take((team * N_SQUARES + frm) * N_DIRECTIONS + direction).astype(np.int64)
    occupant = s.board.reshape(-1).take(idx * N_SQUARES + to).astype(np.int64)

    scramble = s.phase[idx] == SCRAMBLE
    if scramble.any():  # (the subsets below are skipped when they would be everything or nothing)
        _blind_step(s, idx[scramble], slot[scramble], to[scramble])
        keep = ~scramble
        idx, team, slot, frm, to, occupant, direction = (
            idx[keep], team[keep], slot[keep], frm[keep], to[keep], occupant[keep], direction[keep])

    cost = move_cost(s, idx, slot, direction)
    plain = occupant < 0
    if plain.all():  # no tackle and no swap (the common case)
        s.points[idx, team] -= cost.astype(np.int8)
        pi, ps, pf, pt, pteam = idx, slot, frm, to, team
    else:
        holder = s.ball_holder[idx].astype(np.int64)
        tackle = (occupant >= 0) & (occupant == holder)
        swap = (occupant >= 0) & ~tackle
        s.points[idx, team] -= np.where(swap, 2, cost).astype(np.int8)

        # Tackle (rules 14-15).
        _tackle(s, idx[tackle], team[tackle])

        # Swap through a weak lineman (rule 14).
        w = swap
        if w.any():
            wi, ws, wo, wf, wt = idx[w], slot[w], occupant[w], frm[w], to[w]
            s.board[wi, wt] = ws
            s.board[wi, wf] = wo
            s.player_square[wi, ws] = wt
            s.player_square[wi, wo] = wf
            carrier = s.ball_holder[wi] == ws
            s.ball_square[wi[carrier]] = wt[carrier]
            _carrier_moved(s, wi)
        pi, ps, pf, pt, pteam = idx[plain], slot[plain], frm[plain], to[plain], team[plain]

    # A plain move; picking up a visible loose ball; Lead Blocker may follow into the square left.
    _move_player(s, pi, ps, pt, pf)
    pickup = (s.ball_holder[pi] < 0) & (s.ball_square[pi] == pt)
    if pickup.any():
        _gain_possession(s, pi[pickup], ps[pickup], recovery=True)
        _carrier_moved(s, pi[~pickup])
    else:
        _carrier_moved(s, pi)
    lead = s.special[pi, pteam] == A.LEAD_BLOCKER
    if lead.any():  # only a team with Lead Blocker leaves a square to follow into
        lead &= (s.phase[pi] == PLAY) & ~s.lead_blocker_used[pi, pteam]
        s.follow_square[pi[lead]] = pf[lead]
        s.follow_mover[pi[lead]] = ps[lead]


def _blind_step(s, idx, slot, to):
    """One free blind step in a fumble scramble (rule 27); stepping onto the hidden ball recovers it."""
    if idx.size == 0:
        return
    _move_player(s, idx, slot, to)
    found = s.ball_square[idx] == to
    _recover(s, idx[found], slot[found])
    _scramble_step_done(s, idx[~found])


def _recover(s, idx, slot):
    if idx.size == 0:
        return
    s.phase[idx] = PLAY
    s.to_act[idx] = s.resume_team[idx]
    _gain_possession(s, idx, slot, recovery=True)


def _scramble_step_done(s, idx):
    """After a blind step that missed (or a declined one): the other side steps, or the ball is shown and
    the dice roll again."""
    if idx.size == 0:
        return
    first = s.scramble_step[idx] == 0
    a = idx[first]
    s.scramble_step[a] = 1
    s.to_act[a] = 1 - s.to_act[a]
    b = idx[~first]
    s.ball_hidden[b] = False
    _begin_round(s, b)


def _start_fumble(s, idx, around_square, first_stepper, resume_team, loser_team):
    """The ball goes to a random empty square beside ``around_square``; returns the mask of games where
    that happened (none free: no fumble) (rule 27)."""
    nb = NEIGHBOUR[0, around_square]  # [n, 8] absolute neighbours
    free = (nb >= 0) & (s.board[idx[:, None], np.maximum(nb, 0)] < 0)
    count = free.sum(axis=1)
    ok = count > 0
    if not ok.any():
        return ok
    i = idx[ok]
    pick = _chance_draw(s, i, count[ok], 1, "fumble square")[:, 0]
    # the pick-th free neighbour, in direction order
    order = np.cumsum(free[ok], axis=1) - 1
    chosen = np.argmax(free[ok] & (order == pick[:, None]), axis=1)
    s.ball_square[i] = nb[ok][np.arange(i.size), chosen]
    s.ball_holder[i] = -1
    s.ball_hidden[i] = True
    s.last_holder_team[i] = loser_team[ok]
    s.phase[i] = SCRAMBLE
    s.scramble_step[i] = 0
    s.to_act[i] = first_stepper[ok]
    s.resume_team[i] = resume_team[ok]
    s.follow_square[i] = -1
    return ok


def _tackle(s, idx, tackling_team):
    """The carrier is tackled: 1 in 20 a fumble, otherwise the play ends at his square (rule 15)."""
    if idx.size == 0:
        return
    fumble = _chance_draw(s, idx, 20, 1, "tackle fumble")[:, 0] == 0
    carrier_square = s.ball_square[idx].astype(np.int64)
    fumbled = np.zeros(idx.size, dtype=bool)
    f = idx[fumble]
    fumbled[fumble] = _start_fumble(s, f, carrier_square[fumble], tackling_team[fumble], tackling_team[fumble],
                                    1 - tackling_team[fumble])
    dead = ~fumbled
    _ball_dead(s, idx[dead], 1 - tackling_team[dead], carrier_square[dead])


def _do_follow(s, idx, slot):
    if idx.size == 0:
        return
    team = s.to_act[idx].astype(np.int64)
    _move_player(s, idx, slot, s.follow_square[idx].astype(np.int64))
    s.lead_blocker_used[idx, team] = True
    s.follow_square[idx] = -1
    _carrier_moved(s, idx)



def _do_push(s, idx, slot):
    team = s.to_act[idx].astype(np.int64)
    carrier = s.ball_holder[idx].astype(np.int64)
    csq = s.ball_square[idx].astype(np.int64)
    r = np.arange(idx.size)
    _, shove, first = push_walk(s, idx, team, csq)
    j = np.argmax(first == slot[:, None], axis=1)  # which forward direction holds the pushed teammate
    direction = FORWARD[j]
    cost = move_cost(s, idx, carrier, direction) * np.where(shove[r, j], 2, 1)
    s.points[idx, team] -= cost.astype(np.int8)
    # The line: squares along the push direction up to the first empty one, which the last man fills.
    # Every man in it moves one square at once: clear their squares, then stand them one further on.
    line = RAY[team, csq, direction].astype(np.int64)  # [n, K]
    occupied = s.board[idx[:, None], np.maximum(line, 0)] >= 0
    n_line = np.argmin(occupied, axis=1)
    in_line = np.arange(line.shape[1] - 1)[None, :] < n_line[:, None]
    games = np.broadcast_to(idx[:, None], in_line.shape)[in_line]
    source, target = line[:, :-1][in_line], line[:, 1:][in_line]
    movers = s.board[games, source].astype(np.int64)
    s.board[games, source] = -1
    s.board[games, target] = movers
    s.player_square[games, movers] = target
    _move_player(s, idx, carrier, line[:, 0])
    _carrier_moved(s, idx)


def _do_gap(s, idx, slot):
    team = s.to_act[idx].astype(np.int64)
    carrier = s.ball_holder[idx].astype(np.int64)
    lineman_square = s.player_square[idx, slot].astype(np.int64)
    csq = s.ball_square[idx].astype(np.int64)
    beyond = 2 * lineman_square - csq  # straight on past the lineman, same direction (rule 17)
    s.points[idx, team] -= (2 * gap_cost_per_square(s, idx, carrier)).astype(np.int8)
    _move_player(s, idx, carrier, beyond)
    _carrier_moved(s, idx)



def pass_dice(s: State, idx, receiver_slot):
    """(offence dice, defence dice) for a forward pass from the carrier to ``receiver_slot`` (rule 19).

    Offence dice 0 means no defender within 3 squares: the catch is automatic.
    """
    idx = np.asarray(idx)
    receiver_slot = np.asarray(receiver_slot, dtype=np.int64)
    team = s.to_act[idx].astype(np.int64)
    thrower = s.ball_holder[idx].astype(np.int64)
    tsq = s.ball_square[idx].astype(np.int64)
    rsq = s.player_square[idx, receiver_slot].astype(np.int64)
    dbase = 11 - slot_base(s, idx, team)
    defenders = s.player_square[idx[:, None], dbase[:, None] + GAME_SLOTS[None, :]].astype(np.int64)
    dist = DISTANCE[defenders, rsq[:, None]].astype(np.int64)
    nearest = dist.min(axis=1)
    off = PASS_OFFENCE_DICE.take(nearest)
    sure = s.special[idx, team] == A.SURE_HANDS
    off = np.where((off > 0) & sure, off + 1, off)
    dfn = PASS_DEFENCE_DICE.take(dist).sum(axis=1)
    dfn += _defenders_in_lane(s, idx, tsq, rsq, 1 - team)
    dfn += (thrower != QB)
    return off, dfn


def _defenders_in_lane(s, idx, thrower_square, receiver_square, defending_team):
    dr = SQUARE_ROW[receiver_square] - SQUARE_ROW[thrower_square] + N_ROWS - 1
    dl = SQUARE_LANE[receiver_square] - SQUARE_LANE[thrower_square] + N_LANES - 1
    offs = LINE_OFFSETS[dr, dl].astype(np.int64)  # [n, K, 2]
    valid = offs[..., 0] != 99
    rows = SQUARE_ROW[thrower_square][:, None] + offs[..., 0]
    lanes = SQUARE_LANE[thrower_square][:, None] + offs[..., 1]
    sq = np.where(valid, rows * N_LANES + lanes, 0)
    occ = s.board[idx[:, None], sq].astype(np.int64)
    occ_team = np.where(occ < 11, s.offence[idx][:, None], 1 - s.offence[idx][:, None])
    return (valid & (occ >= 0) & (occ_team == defending_team[:, None])).sum(axis=1)




def _contest(s, idx, off, dfn):
    """Highest single die wins, ties rolled again (rule 19). True where the offence wins."""
    result = np.zeros(idx.size, dtype=bool)
    pending = np.arange(idx.size)
    if type(STEP.chance) is CounterChance:
        # A counter stream's draws depend only on their positions: read several rounds at once, keep each
        # game's first decisive one and set its counter just past that round, exactly where the round by
        # round loop below would leave it (with far fewer passes, as ties are common). Only the positions
        # of dice in use are computed: a round's first ``off`` of its 7 offence dice, first ``dfn`` of 36.
        while pending.size:
            g = idx[pending]
            counter = s.rng_counter[g]
            o_n, d_n = off[pending], dfn[pending]
            o_width, d_width = int(o_n.max()), max(int(d_n.max()), 1)
            in_round = np.concatenate([np.arange(o_width), MAX_OFFENCE_DICE + np.arange(d_width)])
            positions = (np.arange(CONTEST_ROUNDS)[:, None] * CONTEST_ROUND + in_round).reshape(-1)
            faces = uniform_at(s.rng_key[g], counter, 6, positions).reshape(-1, CONTEST_ROUNDS, in_round.size)
            o_max = np.where(np.arange(o_width) < o_n[:, None, None], faces[:, :, :o_width], -1).max(axis=2)
            d_max = np.where(np.arange(d_width) < d_n[:, None, None], faces[:, :, o_width:], -1).max(axis=2)
            decisive = o_max != d_max  # [m, rounds]
            first = decisive.argmax(axis=1)
            done = decisive[np.arange(g.size), first]
            used = np.where(done, first + 1, CONTEST_ROUNDS).astype(np.uint64)
            s.rng_counter[g] = counter + used * np.uint64(CONTEST_ROUND)
            result[pending[done]] = (o_max > d_max)[done, first[done]]
            pending = pending[~done]
        return result
    while pending.size:
        g = idx[pending]
        o = _chance_draw(s, g, 6, MAX_OFFENCE_DICE, "pass contest offence")
        d = _chance_draw(s, g, 6, MAX_DEFENCE_DICE, "pass contest defence")
        o_max = np.where(np.arange(MAX_OFFENCE_DICE)[None, :] < off[pending][:, None], o, -1).max(axis=1)
        d_max = np.where(np.arange(MAX_DEFENCE_DICE)[None, :] < dfn[pending][:, None], d, -1).max(axis=1)
        result[pending] = o_max > d_max
        pending = pending[o_max == d_max]
    return result


def _do_throw(s, idx, slot):
    team = s.to_act[idx].astype(np.int64)
    tsq = s.ball_square[idx].astype(np.int64)
    rsq = s.player_square[idx, slot].astype(np.int64)
    kind = throw_kind(s, idx, team, tsq, rsq)

    # Handoff: free; a backward one banks a point (rule 18).
    h = kind == 0
    if h.any():  # the blocks below skip kinds of throw that are absent
        hi = idx[h]
        back = FRAME_ROW[team[h], rsq[h]] > FRAME_ROW[team[h], tsq[h]]
        s.points[hi[back], team[h][back]] = np.minimum(8, s.points[hi[back], team[h][back]] + 1)
        _gain_possession(s, hi, slot[h])

    # Lateral: 2 points; 99/100 behind the LOS row, 19/20 past it; a drop is a fumble at the receiver.
    lat = kind == 1
    if lat.any():
        li, lteam, lslot, ltsq, lrsq = idx[lat], team[lat], slot[lat], tsq[lat], rsq[lat]
        s.points[li, lteam] -= 2
        behind = behind_los(s, li, lteam, ltsq)
        roll = _chance_draw(s, li, LATERAL_ROLL, 1, "lateral")[:, 0]
        dropped = roll < np.where(behind, LATERAL_DROPS[1], LATERAL_DROPS[0])
        fumbled = np.zeros(li.size, dtype=bool)
        d = li[dropped]
        if d.size:
            fumbled[dropped] = _start_fumble(s, d, lrsq[dropped], 1 - lteam[dropped], lteam[dropped], lteam[dropped])
            s.points[li[fumbled], lteam[fumbled]] = 0  # the throwing side loses its remaining points
        caught = ~fumbled
        _gain_possession(s, li[caught], lslot[caught])

    # Forward pass: 2 points, spent either way; the dice contest; 1 in 15 (10) of failures picked off.
    f = kind == 2
    if not f.any():
        return
    fi, fteam, fslot, ftsq, frsq = idx[f], team[f], slot[f], tsq[f], rsq[f]
    s.points[fi, fteam] -= 2
    s.forward_pass_used[fi] = True
    off, dfn = pass_dice(s, fi, fslot)
    complete = off == 0
    contested = ~complete
    complete[contested] = _contest(s, fi[contested], off[contested], dfn[contested])
    _gain_possession(s, fi[complete], fslot[complete])
    failed = ~complete
    gi, gteam, grsq, gtsq = fi[failed], fteam[failed], frsq[failed], ftsq[failed]
    hawk = s.special[gi, 1 - gteam] == A.BALL_HAWK
    pick = _chance_draw(s, gi, np.where(hawk, INTERCEPTION_ONE_IN[1], INTERCEPTION_ONE_IN[0]), 1, "interception")[:, 0] == 0
    _incomplete(s, gi[~pick])
    _intercept(s, gi[pick], gteam[pick], grsq[pick], gtsq[pick])


def _intercept(s, idx, throwing_team, receiver_square, thrower_square):
    """The defender nearest the receiver (then nearest the thrower, lowest lane, lowest row) holds the
    ball; the offence's turn ends and the defence runs it back with its points (rule 20)."""
    if idx.size == 0:
        return
    dbase = 11 - slot_base(s, idx, throwing_team)
    slots = dbase[:, None] + GAME_SLOTS[None, :]
    sq = s.player_square[idx[:, None], slots].astype(np.int64)
    key = (DISTANCE[sq, receiver_square[:, None]].astype(np.int64) * 1_000_000
           + DISTANCE[sq, thrower_square[:, None]].astype(np.int64) * 10_000
           + SQUARE_LANE[sq] * 100 + SQUARE_ROW[sq])
    interceptor = slots[np.arange(idx.size), np.argmin(key, axis=1)]
    s.points[idx, throwing_team] = 0
    # Not a recovery: an interceptor in his own end zone may run it out (a touchback if downed there).
    _gain_possession(s, idx, interceptor)
    _end_turn(s, idx[s.phase[idx] == PLAY])



# --- step ---------------------------------------------------------------------------------------------------

_IN_PLAY = np.zeros(GAME_OVER + 1, dtype=bool)  # [phase]: a side's turn, which may end on its own
_IN_PLAY[[PLAY, SCRAMBLE]] = True


def _end_spent_turns(s: State, idx):
    """End at once the turns of sides in play that can offer nothing but End turn for want of points: no
    points left, no Lead Blocker follow possible and no handoff (every other action costs points; those two
    are free). It spares these games, common in play, a mask computed only to be thrown away and a second
    mask pass once their turn has ended. A sufficient test, not the exact one: _refresh's check on the
    mask catches the rest (a side boxed in)."""
    for _ in range(10_000):
        rows = batch_rows(s, idx)
        team = s.to_act[rows].astype(np.intp)  # -1 once over: reads a neighbour's points, masked by phase
        spent = (s.phase[rows] == PLAY) & (s.points.reshape(-1).take(idx * 2 + team) == 0)
        holder = s.ball_holder[rows]
        attacking = team == s.offence[rows]
        own_ball = spent & (holder >= 0) & ((holder < 11) == attacking)
        follow = spent & (s.follow_square[rows] >= 0)
        if own_ball.any():  # a handoff: a teammate beside the carrier, not ahead of him (rule 18)
            o = own_ball.nonzero()[0]
            mates, _ = _teammates_beside(s, idx[o], team[o], attacking[o], s.ball_square[idx[o]],
                                         _HANDOFF_DIRECTIONS)
            spent[o] = ~mates.any(axis=1)
        if follow.any():  # a follow: a teammate beside the square just left, not the man who left it
            f = follow.nonzero()[0]
            fi = idx[f]
            mates, occupant = _teammates_beside(s, fi, team[f], attacking[f], s.follow_square[fi], DIRS)
            spent[f] &= ~(mates & (occupant != s.follow_mover[fi, None])).any(axis=1)
        if not spent.any():
            return
        idx = idx[spent]
        _end_turn(s, idx)


_HANDOFF_DIRECTIONS = np.array([d for d in range(N_DIRECTIONS) if d not in FORWARD_DIRECTIONS])
_NEIGHBOUR_ROWS = NEIGHBOUR.reshape(2 * N_SQUARES, N_DIRECTIONS)


def _teammates_beside(s, idx, team, attacking, square, directions):
    """(bool [n, k]: a player of ``team`` stands on the neighbour of ``square`` in each of ``directions``
    (team frame), the slots read there [n, k]). ``attacking``: ``team`` is the offence (slots 0-10)."""
    nb = _NEIGHBOUR_ROWS.take(team * N_SQUARES + square.astype(np.intp), axis=0)[:, directions].astype(np.intp)
    occupant = s.board.reshape(-1).take(np.maximum(nb, 0) + (idx * N_SQUARES)[:, None])
    return (nb >= 0) & (occupant >= 0) & ((occupant < 11) == attacking[:, None]), occupant


def _refresh(s: State, idx, config):
    """Recompute masks; end turns whose only legal action is End turn (rule 11)."""
    STEP.config = config
    _end_spent_turns(s, idx)
    compute_legal(s, idx)
    check = idx
    for _ in range(10_000):
        rows = batch_rows(s, check)
        phase = s.phase[rows]
        only_end = _IN_PLAY.take(phase) & ~s.legal[rows, 1:].any(axis=1)
        auto = check[only_end]
        if auto.size == 0:
            break
        scramble = s.phase[auto] == SCRAMBLE
        _scramble_step_done(s, auto[scramble])
        _end_turn(s, auto[~scramble])
        compute_legal(s, auto)
        check = auto  # the other games are unchanged: their masks already offer more than End turn
    # (finished games need no clearing: compute_legal cleared every row it covered, and writes none
    # for a game over)


def _truncate(s: State, idx) -> None:
    """The step cap (rule 30): the games end where they stand, with no winner. What was under way ends
    with them, so that the finished game is a valid one (``check_invariants``): a blind scramble's ball is
    shown where it lies (``ball_hidden`` False; the ball stays loose there), a Lead Blocker follow on offer
    is withdrawn (``follow_square`` -1). The board, the ball, score, down, dice and points stay as they
    were; the legal mask is cleared by the refresh that follows. lone.step_one does the same."""
    s.truncated[idx] = True
    s.phase[idx] = GAME_OVER
    s.to_act[idx] = -1
    s.ball_hidden[idx] = False
    s.follow_square[idx] = -1


def forfeit(state: State, games, loser) -> None:
    """In place: end ``games`` as a win for the other team of ``loser`` (one team per game, 0 or 1): the
    envs' answer to an illegal action. Like the step cap, whatever was under way ends with the game (a
    blind scramble's ball is shown, a Lead Blocker follow withdrawn), so the game ends valid."""
    games = np.atleast_1d(np.asarray(games, dtype=np.int64))
    loser = np.broadcast_to(np.asarray(loser, dtype=np.int64), games.shape)
    if games.size and (((loser != 0) & (loser != 1)).any() or games.min() < 0 or games.max() >= state.batch_size):
        raise ValueError(f"forfeit needs games in 0..{state.batch_size - 1} and losers 0 or 1, got {games}, {loser}")
    _truncate(state, games)
    state.truncated[games] = False
    state.terminated[games] = True
    state.winner[games] = 1 - loser
    state.legal[games] = False


def _bad_actions(batch_size, what):
    return ValueError(
        f"actions must be action ids (ints 0..{A.NUM_ACTIONS - 1}) of shape ({batch_size},), or one int for "
        f"every game; got {what}")


def _describe(value) -> str:
    if isinstance(value, np.ndarray):
        return f"an array of dtype {value.dtype} and shape {value.shape}"
    text = repr(value)
    return f"{text if len(text) <= 80 else text[:77] + '...'} ({type(value).__name__})"


def _check_actions(actions, batch_size):
    """(int array [batch_size] of the given action ids (one int is broadcast), a Python int too large
    for int64 or None), or ValueError: bools (True is not action 1), floats (1.7 is not action 1), None,
    strings and wrong shapes are refused. Ids out of 0..290 pass: the legality check refuses them, naming
    the game (the too-large int stands as -1 in the array, for that message)."""
    huge = None
    if type(actions) is not np.ndarray:
        given = actions
        if isinstance(actions, (bool, np.bool_)):
            raise _bad_actions(batch_size, f"the bool {actions!r} (bool is not an action id)")
        if type(actions) is int and not -2**63 <= actions < 2**63:
            huge, actions = actions, -1
        actions = np.asarray(actions)
        if actions.dtype.kind not in "iu" or actions.shape not in ((), (batch_size,)):
            hint = " (bool is not an action id)" if actions.dtype.kind == "b" else ""
            raise _bad_actions(batch_size, _describe(given) + hint)
        # a list of ints with a bool in it comes out as ints: look for the bool (a list is never the hot path)
        if isinstance(given, (list, tuple)) and any(isinstance(x, (bool, np.bool_)) for x in given):
            raise _bad_actions(batch_size, f"{_describe(given)}: a bool among them (bool is not an action id)")
    if actions.dtype.kind not in "iu":
        hint = " (bool is not an action id)" if actions.dtype.kind == "b" else ""
        raise _bad_actions(batch_size, _describe(actions) + hint)
    if actions.ndim == 0:
        actions = np.full(batch_size, actions)
    elif actions.shape != (batch_size,):
        raise _bad_actions(batch_size, _describe(actions))
    return actions, huge


def step(state: State, actions, config: GameConfig | None = None, chance=None, active=None,
         reuse_input: bool = False) -> State:
    """Apply one action per game and return the new state (the input is not changed, unless
    ``reuse_input``).

    ``actions``: action ids, an int array [batch] (or a list of ints; one int for every game, e.g. for a
    batch of one). Finished games ignore their action, and so do games where the optional bool mask
    ``active`` [batch] is False. ``config``: the GameConfig the games were made with (None: the defaults).
    Raises IllegalActionError (a ValueError), changing nothing, if any stepped game's action is illegal or
    not an id in 0..290; ValueError for actions that are not ints (bools, floats, None, strings) or of the
    wrong shape, and for a bad ``active`` or ``config``; a ``state`` that is not a State raises too.
    ``reuse_input=True``: the caller gives ``state`` up (it will only use the returned state), so the
    engine may update it in place rather than copy every field first; a big batch saves that copy.
    """
    # (the checks inline: a lone game's step takes ~20 us, and a function call costs ~0.1 us)
    if type(state) is not State:
        check_state(state)
    if config is None:
        config = DEFAULT_CONFIG
    elif type(config) is not GameConfig:
        config = check_config(config)
    if chance is not None and type(chance) is not CounterChance:
        check_chance(chance)
    if state.phase.shape[0] == 1 and (
            active is None or (type(active) is np.ndarray and active.dtype == np.bool_ and active.shape == (1,)
                               and active.item())):
        lone = _lone.step_one(state, actions, config, chance, reuse_input)  # plain Python (lone.py)
        if lone is not None:
            return lone
    batch_size = state.phase.shape[0]
    if type(actions) is np.ndarray and actions.shape == (batch_size,) and actions.dtype.kind in "iu":
        huge = None  # (int ids of the right shape, an agent's usual answer: nothing to convert)
    else:
        actions, huge = _check_actions(actions, batch_size)
    if active is not None:
        mask = np.asarray(active)
        if mask.dtype != np.bool_ or mask.shape != (batch_size,):
            raise ValueError(f"active must be None or a bool array of shape ({batch_size},) (True: step that "
                             f"game), got {_describe(active)}")
    if batch_size <= LONE_BATCH_LIMIT and (chance is None or type(chance) is CounterChance) and (
            state.board.dtype == _BOARD_DTYPE):  # (lone.py reads the board as bytes)
        # A small batch: checked and stepped game by game (see LONE_BATCH_LIMIT); the same checks, in the
        # same order, as the batched ones below. Lean: this fixed cost is shared by only a few games.
        over, cap = state.terminated.tolist(), state.truncated.tolist()
        if active is None and True not in over and True not in cap:
            live = range(batch_size)  # (the usual case: every game plays on)
        else:
            go = [not (o or c) for o, c in zip(over, cap)]
            live = [game for game, on in enumerate(go if active is None else map(and_, go, mask.tolist())) if on]
        if huge is not None and live:
            _raise_illegal(state, live[0], huge)
        ids, legal = actions.tolist(), state.legal  # (the ids as given: a uint64 past int64 too)
        for game in live:
            action = ids[game]
            if not (0 <= action < _NUM_ACTIONS and legal.item(game, action)):
                _raise_illegal(state, game, action)
        s = state if reuse_input else state.copy()
        # each game through lone.step_one, in place in its row, told the checks are done (a game it
        # declines goes the batched way below)
        step_one = _lone.step_one
        declined = [game for game in live if step_one(s, ids[game], config, chance, True, True, game) is None]
        if not declined:
            return s
        live = np.array(declined, dtype=np.int64)  # (none, unless the lone path is switched off)
        a = actions[live].astype(np.int64)
    else:
        stepping = ~state.terminated & ~state.truncated
        if active is not None:
            stepping &= mask
        live = stepping.nonzero()[0]
        if huge is not None and live.size:
            _raise_illegal(state, int(live[0]), huge)
        a = actions[batch_rows(state, live)].astype(np.int64)
        in_space = a.view(np.uint64) < A.NUM_ACTIONS  # negative ids wrap to huge values
        ok = in_space & state.legal[live, np.where(in_space, a, 0)]
        if not ok.all():
            bad = int(np.flatnonzero(~ok)[0])
            game = int(live[bad])
            _raise_illegal(state, game, int(actions[game]))  # (the id as given: a uint64 past int64 too)
        s = state if reuse_input else state.copy()
    if s is state and not s.is_contiguous():  # the handlers write through flat views: in place only then
        s = state.copy()
    STEP.config, STEP.chance = config, chance or CounterChance()
    try:
        _apply(s, live, a)
        rows = batch_rows(s, live)
        s.steps[rows] += 1
        cap = live[(s.steps[rows] >= config.max_steps) & ~s.terminated[rows]]
        if cap.size:
            _truncate(s, cap)
        _refresh(s, live, config)
    finally:
        STEP.chance = None
    return s


# Batches of up to LONE_BATCH_LIMIT games step game by game through lone.py, each game in place in its row:
# below it the vectorised handlers' fixed cost (a few hundred numpy calls a step, whatever the batch)
# outweighs what they save per game. Measured (per CPU second, the same positions both ways, median of 15
# interleaved rounds, a loaded machine): the lone path plays 57,000-61,000 game-steps/s at 48, 64 and 80
# games; the vectorised one 46,000 at 48, 54,000 at 64 and 59,000-61,000 at 80, where they cross (69,000 at
# 128). Only with the counter streams: each game draws from its own stream, so the order the games are
# stepped in changes nothing (a scripted chance source is asked in the batched order, so it goes the
# batched way). The tests whose reference for the vectorised path is a small batch set it to 1
# (tests/conftest.py, ``vectorised_batches``).
LONE_BATCH_LIMIT = 80
_BOARD_DTYPE = np.dtype(np.int8)
_NUM_ACTIONS = A.NUM_ACTIONS


def start_drive(state: State, games, team, los_row, lane, config: GameConfig | None = None) -> None:
    """In place: give ``team`` first-and-ten at (``los_row``, ``lane``) (0-based, absolute) in ``games``.

    For drive environments and tests: the specials phase is skipped (picks stay as they are), the down
    starts with the offence's formation. ``los_row`` must be in the field of play (3-26).
    """
    check_state(state)
    config = check_config(config)
    given = games
    games = np.atleast_1d(np.asarray(games))
    if games.size == 0 and games.ndim == 1:
        games = games.astype(np.int64)  # (an empty list is float64 to numpy: no game, nothing to do)
    if games.dtype.kind not in "iu" or games.ndim != 1 or ((games < 0) | (games >= state.batch_size)).any():
        raise ValueError(f"games must be game indices 0..{state.batch_size - 1} (ints), got {_describe(given)}")
    games = games.astype(np.int64)
    try:
        team, los_row, lane = (np.broadcast_to(np.asarray(v), games.shape) for v in (team, los_row, lane))
    except ValueError:
        raise ValueError(f"team, los_row and lane must be ints, one or one per game of {games.size}") from None
    if any(v.dtype.kind not in "iu" for v in (team, los_row, lane)):
        raise ValueError("team, los_row and lane must be ints (not bools or floats)")
    team, los_row, lane = (v.astype(np.int64) for v in (team, los_row, lane))
    if ((los_row < FIRST_FIELD_ROW) | (los_row > LAST_FIELD_ROW)).any():
        raise ValueError(f"los_row must be in the field of play ({FIRST_FIELD_ROW}-{LAST_FIELD_ROW}), got {los_row}")
    if ((lane < 0) | (lane >= N_LANES)).any() or ((team < 0) | (team > 1)).any():
        raise ValueError("lane must be 0-17 and team 0 or 1")
    _new_series(state, games, team, los_row * N_LANES + lane)
    recompute_legal(state, config)


def _apply(s, idx, a):
    """Dispatch each game's action to its kind's handler, each handler vectorised over its games."""
    kind = A.ACTION_KIND[a]
    arg = A.ACTION_ARG[a].astype(np.int64)
    s.follow_square[idx[kind != A.KIND_FOLLOW]] = -1  # a Lead Blocker follow must come straight after the move
    if idx.size == 1:  # one game (an env's step): no grouping by kind
        _HANDLERS[int(kind[0])](s, idx, arg, a)
        return
    # Group the games by kind with one stable sort (game order kept within a kind), then hand each
    # handler its run of the sorted arrays: slices, not a boolean selection per kind.
    order = np.argsort(kind, kind="stable")
    idx, arg, a = idx[order], arg[order], a[order]
    counts = np.bincount(kind, minlength=len(_HANDLERS))
    end = np.cumsum(counts).tolist()
    for k in counts.nonzero()[0].tolist():  # kinds present, in order
        z = slice(end[k] - counts[k], end[k])
        _HANDLERS[k](s, idx[z], arg[z], a[z])


def _do_end_turn(s, idx):
    scramble = s.phase[idx] == SCRAMBLE
    _scramble_step_done(s, idx[scramble])  # declining the blind step
    _end_turn(s, idx[~scramble])


_HANDLERS = {
    A.KIND_END_TURN: lambda s, g, arg, a: _do_end_turn(s, g),
    A.KIND_SPECIAL: lambda s, g, arg, a: _do_special(s, g, arg),
    A.KIND_OFFENCE_FORMATION: lambda s, g, arg, a: _do_offence_formation(s, g, arg),
    A.KIND_DEFENCE_FORMATION: lambda s, g, arg, a: _do_defence_formation(s, g, arg),
    A.KIND_PLAY_ON: lambda s, g, arg, a: _begin_round(s, g),
    A.KIND_FIELD_GOAL: lambda s, g, arg, a: _do_field_goal(s, g),
    A.KIND_PUNT: lambda s, g, arg, a: _do_punt(s, g, arg),
    A.KIND_MOVE: lambda s, g, arg, a: _do_move(s, g, arg, A.ACTION_DIRECTION[a].astype(np.int64)),
    A.KIND_PUSH: lambda s, g, arg, a: _do_push(s, g, arg),
    A.KIND_GAP: lambda s, g, arg, a: _do_gap(s, g, arg),
    A.KIND_THROW: lambda s, g, arg, a: _do_throw(s, g, arg),
    A.KIND_FOLLOW: lambda s, g, arg, a: _do_follow(s, g, arg),
}


def _raise_illegal(state, game, action):
    """Raise IllegalActionError for ``action`` in ``game``. The message shows the game as the team to act
    sees it (``to_diagram(..., team=)``): never the hidden ball's square, the other team's special during
    the pick, or the rng stream, which the error may be shown to that team."""
    names = [A.ACTION_NAMES[i] for i in np.flatnonzero(state.legal[game])]
    label = A.ACTION_NAMES[action] if 0 <= action < A.NUM_ACTIONS else "(not an action id)"
    team = int(state.to_act[game])
    team = team if team in (0, 1) else -1  # (a spectator's view: no game in play has no team to act)
    try:
        picture = to_diagram(state, game, team=team)
    except Exception:  # the message must not fail because of the picture
        picture = "(diagram unavailable)"
    raise IllegalActionError(
        f"illegal action {label!r} (id {action}) in game {game}; legal actions: {names}\n{picture}",
        game=game, action=action, legal_actions=names)

