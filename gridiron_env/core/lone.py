"""The engine's fast path for a batch of one game (an env's step, the exported bot).

The engine's handlers are vectorised over a batch, and on a lone game nearly all of their cost is numpy's
fixed cost per call (~150-300 calls a step). Here every kind of action is written again as plain Python
over one game's 11 players, reading the state as Python ints and bytes: the input checks, the legal mask
of every phase, moves (tackles, swaps and picking up a loose ball included), Lead Blocker follows, pushes,
gap runs, throws (fumbled laterals and interceptions included), the blind steps of a fumble scramble,
specials, formations, End turn with its dice, the automatic end of turns, kicks, and the down, possession
and scoring bookkeeping. That is an accepted exception to "no Python loops in the hot path": measured
about five times faster than the vectorised code on one game (the observation encoder's batch-of-one path
is the precedent).

Both paths read the rules' numbers from ``rules.py`` (costs, throw kinds, gap landings, the field-goal
table, the pass dice); this module imports nothing of the engine. Every formula mirrors its engine
counterpart (named in each docstring); a change to a rule must be made in both. The result is bit for bit
what the batched path computes, with any chance source: counter streams are computed here the same way,
and any other source (``ScriptedChance``) is asked for the same draws in the same order, under the same
names (``tests/test_lone_path.py`` plays the same games both ways and compares every field after every
step; every rule test runs over both paths). ``engine.step`` takes this path for a batch of one with no
``active`` mask (or a one-game mask that is True); an illegal action, a finished game or an unusual action
type goes the batched way, which raises or handles it as before. A small batch (up to
``engine.LONE_BATCH_LIMIT`` games, counter streams) is checked by the engine and then stepped here game by
game, in place: every function takes the state and a game ``g`` (its row, 0 for a batch of one) and reads
and writes that row alone, so a batch is stepped without one-row views of its 37 fields (making them cost
about 6 us a game, more than the engine's checks of the whole batch).
"""

from __future__ import annotations

from array import array
from operator import itemgetter

import numpy as np

from . import actions as A
from .chance import GOLDEN, MASK64, UNIT_53, CounterChance, splitmix64_int, uniform
from .formations import DEFENCE_PLACEMENT, OFFENCE_PLACEMENT
from .geometry import (
    DEFENDED_END_ZONE, DISTANCE, FIRST_FIELD_ROW, FORWARD_DIRECTIONS, FRAME_LANE,
    FRAME_ROW, HASH_BAND, KICKOFF_SQUARE, LAST_FIELD_ROW, LINE_OFFSETS, N_LANES, N_ROWS, NEIGHBOUR,
    SCORING_END_ZONE, SQUARE_LANE, SQUARE_ROW,
)
from .rules import (
    CARRIER_TD, CONTEST_ROUND, CONTEST_ROUNDS, FIELD_CLEARED_FOR_A_DOWN, FIELD_GOAL_TARGET_BY_ROW, GAP_BEYOND, INTERCEPTION_ONE_IN,
    LATERAL_DROPS, LATERAL_ROLL, LINEMAN_RECEIVER, MAX_DEFENCE_DICE, MAX_OFFENCE_DICE, MOVE_COST,
    PASS_DEFENCE_DICE, PASS_OFFENCE_DICE, PUSH_STEP_COST, STEP, TD_ROW, THROW_KIND, THROW_OK,
    field_goal_distance_for_row, field_goal_in_range, paper_reach,
)
from .state import (
    DEFENCE_FORMATION, GAME_OVER, KICK_DECISION, OFFENCE_FORMATION, PLAY, SCRAMBLE, SPECIALS_PICK, State,
)

# --- Python copies of the tables ------------------------------------------------------------------------

_ONE = np.zeros(1, dtype=np.int64)  # the game index array the vectorised handlers get (never written)
_ONE.flags.writeable = False
_NEIGHBOUR = NEIGHBOUR.tolist()  # [team][square][direction] -> square, -1 off the grid
# The big tables as bytes (or an int16 array): indexed like lists, a fraction of their memory and import time.
_DISTANCE = [row.tobytes() for row in DISTANCE.astype(np.uint8)]  # [a][b]; a = -1 reads the last row, as
# the batched take does
_FRAME_ROW = FRAME_ROW.tolist()
_MOVE_COST = MOVE_COST.tolist()
_KIND = A.ACTION_KIND.tolist()
_ARG = A.ACTION_ARG.tolist()
_DIRECTION = A.ACTION_DIRECTION.tolist()
_N_SQ1 = NEIGHBOUR.shape[1] + 1
_THROW_KIND = THROW_KIND.astype(np.uint8).tobytes()  # flat [(team * 541 + thrower + 1) * 541 + receiver + 1]
_GAP_BEYOND = array("h", GAP_BEYOND.astype(np.int16).tobytes())  # the same layout
_THROW_OK = THROW_OK.tolist()
_LINEMAN_RECEIVER = LINEMAN_RECEIVER.tolist()
_PUSH_STEP_COST = PUSH_STEP_COST[0].tolist()
_CARRIER_TD = CARRIER_TD.tobytes()
_TD_ROW = TD_ROW.tolist()


def _forward_lines():
    """[team][square] -> the 3 forward lines (NW, N, NE in the team's frame), each its squares up to the
    edge of the grid (a push's line of teammates runs along one)."""
    lines = []
    for team in range(2):
        per_square = []
        for sq in range(NEIGHBOUR.shape[1]):
            three = []
            for d in FORWARD_DIRECTIONS:
                line, cur = [], sq
                while True:
                    cur = _NEIGHBOUR[team][cur][d]
                    if cur < 0:
                        break
                    line.append(cur)
                three.append(line)
            per_square.append(three)
        lines.append(per_square)
    return lines


_FORWARD_LINES = _forward_lines()

# Moves: each square's 8 neighbours in a team's frame, an off-grid step pointing back at the square itself
# (its own player stands there: blocked, as legal._NB_SELF reads); a player off the field reads square 0
# and affords nothing.
_NB_SELF = [[tuple(t if t >= 0 else sq for t in per_square) for sq, per_square in enumerate(per_team)]
            for per_team in _NEIGHBOUR]
_OFF_FIELD_TARGETS = (0,) * 8
_NONE8 = b"\0" * 8
# _AFFORD[points capped at 4] = (pattern of a player, of a quarterback who pays double): the directions
# whose step he can pay (rule 13), one byte each
_AFFORD = [(bytes(int(c <= p) for c in _MOVE_COST), bytes(int(2 * c <= p) for c in _MOVE_COST)) for p in range(5)]
_MOVE_TABLES = {}


def _move_table(enemy_carrier: int, strong) -> bytes:
    """bytes.translate table: occupant byte -> 1 where a move onto it is open (empty, the enemy carrier, or,
    when ``strong`` is given, a weak offensive lineman to swap with)."""
    key = (enemy_carrier, strong)
    table = _MOVE_TABLES.get(key)
    if table is None:
        t = bytearray(256)
        t[255] = 1
        if enemy_carrier >= 0:
            t[enemy_carrier] = 1
        if strong is not None:
            for k in range(5):
                if not strong[k]:
                    t[k + 1] = 1
        table = _MOVE_TABLES[key] = bytes(t)
    return table


_MOVE_BASE, _PUSH_BASE, _GAP_BASE = A.MOVE_BASE, A.PUSH_BASE, A.GAP_BASE
_THROW_BASE, _FOLLOW_BASE, _NUM_ACTIONS = A.THROW_BASE, A.FOLLOW_BASE, A.NUM_ACTIONS
_KIND_MOVE, _KIND_END_TURN, _KIND_FOLLOW = A.KIND_MOVE, A.KIND_END_TURN, A.KIND_FOLLOW
_KIND_OFFENCE_FORMATION, _KIND_DEFENCE_FORMATION = A.KIND_OFFENCE_FORMATION, A.KIND_DEFENCE_FORMATION
_KIND_THROW, _KIND_PUSH = A.KIND_THROW, A.KIND_PUSH
_SPEEDY_QB, _LEAD_BLOCKER = A.SPEEDY_QB, A.LEAD_BLOCKER
_MASK_DTYPE = np.dtype(np.bool_)
_BOARD_DTYPE = np.dtype(np.int8)
_COUNTER_CHANCE = CounterChance()  # stateless: the streams live in the state


def _int8(b: int) -> int:
    """A board byte (tobytes of int8) as the slot it holds, -1 empty."""
    return b - 256 if b > 127 else b


# --- legal mask ------------------------------------------------------------------------------------------

def _legal_play(s: State, g: int, mask: bytearray) -> bool:
    """Write the legal ids of the lone game in PLAY into ``mask`` (End turn included); True when anything
    but End turn is legal. The same rules as legal._legal_play, game by game."""
    team = s.to_act.item(g)
    offence = s.offence.item(g)
    side = 0 if team == offence else 1
    defending = side == 1
    squares = s.player_square[g].tolist()
    base = 11 * side
    mine = squares[base:base + 11]
    points = s.points[g].tolist()
    pts = points[team]
    holder = s.ball_holder.item(g)
    own_carrier = holder >= 0 and (holder < 11) == (side == 0)
    enemy_carrier = holder if holder >= 0 and not own_carrier else -3
    speedy = s.special.item(g, offence) == _SPEEDY_QB
    board = s.board[g].tobytes()
    strong = s.strong[g].tobytes()

    if pts > 0:
        # Moves (rules 13-14): what stands on each target square decides (one translate of the 88
        # occupants' bytes): empty or the enemy carrier (a tackle) for the step's cost, double for a
        # quarterback without Speedy QB (the afford pattern); a weak offensive lineman, for a defender
        # with 2 points (who can then pay any step), a swap.
        nb_self = _NB_SELF[team]
        afford = _AFFORD[pts if pts < 4 else 4]
        targets = []
        patterns = []
        for k in range(11):
            sq = mine[k]
            if sq >= 0:
                targets += nb_self[sq]
                patterns.append(afford[1] if k == 0 and not defending and not speedy else afford[0])
            else:
                targets += _OFF_FIELD_TARGETS
                patterns.append(_NONE8)
        occupants = bytes(itemgetter(*targets)(board))
        table = _move_table(enemy_carrier, strong if defending and pts >= 2 else None)
        moves = (int.from_bytes(occupants.translate(table), "little")
                 & int.from_bytes(b"".join(patterns), "little"))
        if moves:
            at = _MOVE_BASE + side * 88
            mask[at:at + 88] = moves.to_bytes(88, "little")

    # Lead Blocker follow (rule 24).
    fsq = s.follow_square.item(g)
    if fsq >= 0:
        mover = s.follow_mover.item(g)
        at = _FOLLOW_BASE + base
        for k in range(11):
            if _DISTANCE[mine[k]][fsq] == 1 and base + k != mover:
                mask[at + k] = 1

    # Carrier actions: push, gap, throw (rules 16-18).
    if own_carrier:
        csq = s.ball_square.item(g)
        qb_factor = 2 if holder == 0 and not speedy else 1
        if pts > 0:
            attacking = team == offence
            lines = _FORWARD_LINES[team][csq]
            for j in range(3):
                line = lines[j]
                if not line:
                    continue
                first = _int8(board[line[0]])
                if first < 0 or (first < 11) != attacking:
                    continue
                legal, shove = _push_line(board, line, attacking, strong)
                if legal and _PUSH_STEP_COST[j] * qb_factor * (2 if shove else 1) <= pts:
                    mask[_PUSH_BASE + first] = 1
        if not defending and 2 * (qb_factor + 1) <= pts:
            row = ((team * _N_SQ1 + csq + 1) * _N_SQ1) + 1
            for k in range(5):
                if strong[k]:
                    beyond = _GAP_BEYOND[row + squares[1 + k]]
                    if beyond >= 0 and board[beyond] == 255:
                        mask[_GAP_BASE + k] = 1
        two = pts >= 2
        allowed = int(two)
        if two and not defending and not s.forward_pass_used.item(g) and (
                _FRAME_ROW[team][csq] > _FRAME_ROW[team][s.los_row.item(g) * N_LANES]):
            allowed += 2
        row = ((team * _N_SQ1 + csq + 1) * _N_SQ1) + 1
        at = _THROW_BASE + base
        for k in range(11):
            if base + k != holder and _THROW_OK[allowed * 6 + _THROW_KIND[row + mine[k]] * 2 + _LINEMAN_RECEIVER[k]]:
                mask[at + k] = 1
    return mask.find(1, 1) >= 0


def _push_line(board: bytes, line: list, attacking: bool, strong: bytes):
    """(legal, shoves a defender) of a push along ``line`` whose first square holds a teammate (rule 16):
    the teammates must end on an empty square; one defender in the way may be shoved by a strong
    offensive lineman right behind him, if the square past him is empty."""
    n = len(line)
    prev = _int8(board[line[0]])
    k = 1
    while k < n:
        occ = _int8(board[line[k]])
        if occ < 0 or (occ < 11) != attacking:
            break
        prev = occ
        k += 1
    if k == n:  # the teammates reach the edge of the grid
        return False, False
    if occ == -1:
        return True, False
    shove = attacking and 1 <= prev <= 5 and bool(strong[prev - 1])
    if not shove:
        return False, False
    # the shoved defender moves on along the line: the next square that is not a teammate must be empty
    k += 1
    while k < n:
        occ = _int8(board[line[k]])
        if occ < 0 or (occ < 11) != attacking:
            return occ == -1, True
        k += 1
    return False, True


def _legal_scramble(s: State, g: int, mask: bytearray) -> bool:
    """The blind steps of a fumble scramble: any free neighbour (rule 27), and End turn."""
    team = s.to_act.item(g)
    side = 0 if team == s.offence.item(g) else 1
    mine = s.player_square[g].tolist()[11 * side:11 * side + 11]
    board = s.board[g].tobytes()
    nb_team = _NEIGHBOUR[team]
    any_other = False
    at = _MOVE_BASE + side * 88
    for k in range(11):
        sq = mine[k]
        if sq >= 0:
            nbs = nb_team[sq]
            for d in range(8):
                t = nbs[d]
                if t >= 0 and board[t] == 255:
                    mask[at + d] = 1
                    any_other = True
        at += 8
    return any_other


def _compute_legal(s: State, g: int) -> bool:
    """Fill the lone game's mask; True when its turn may end on its own (in play, only End turn)."""
    phase = s.phase.item(g)
    if phase == PLAY or phase == SCRAMBLE:
        mask = bytearray(_NUM_ACTIONS)
        mask[0] = 1
        other = _legal_play(s, g, mask) if phase == PLAY else _legal_scramble(s, g, mask)
        s.legal[g] = np.frombuffer(mask, dtype=_MASK_DTYPE)
        return not other
    if phase == KICK_DECISION:
        mask = bytearray(_NUM_ACTIONS)
        mask[A.PLAY_ON] = 1
        los = _FRAME_ROW[s.offence.item(g)][s.los_row.item(g) * N_LANES]
        mask[A.FIELD_GOAL] = _FG_IN_RANGE[los]
        if s.down.item(g) == 4:
            mask[A.PUNT_BASE:A.PUNT_BASE + STEP.config.longest_punt] = b"\1" * STEP.config.longest_punt
        s.legal[g] = np.frombuffer(mask, dtype=_MASK_DTYPE)
    else:
        s.legal[g] = _PHASE_MASKS[phase]
    return False


def _phase_masks():
    """[phase] -> the mask of a phase whose legal actions are fixed (a choice of formation or special)."""
    masks = {}
    for phase, (first, stop) in ((SPECIALS_PICK, (A.SPECIAL_BASE, A.SPECIAL_BASE + len(A.SPECIALS))),
                                 (OFFENCE_FORMATION, (A.OFFENCE_FORMATION_BASE, A.DEFENCE_FORMATION_BASE)),
                                 (DEFENCE_FORMATION, (A.DEFENCE_FORMATION_BASE, A.SPECIAL_BASE)),
                                 (GAME_OVER, (0, 0))):
        mask = np.zeros(_NUM_ACTIONS, dtype=bool)
        mask[first:stop] = True
        mask.flags.writeable = False
        masks[phase] = mask
    return masks


_PHASE_MASKS = _phase_masks()


def _refresh(s: State, g: int) -> None:
    """engine._refresh for the lone game: the mask, then end turns that can only end."""
    if not _compute_legal(s, g):
        return
    for _ in range(10_000):
        if s.phase.item(g) == SCRAMBLE:
            _scramble_step_done(s, g)
        else:
            _end_turn(s, g)
        if not _compute_legal(s, g):
            return


# --- dice and turns --------------------------------------------------------------------------------------

def _draws(s: State, g: int, high: int, count: int, what: str) -> list:
    """``count`` draws in [0, high) for the lone game: from its counter stream, as CounterChance.draw gives
    them, or from the step's other chance source (``what`` names the draw, as the engine names it)."""
    chance = STEP.chance
    if type(chance) is not CounterChance:
        return chance.draw(s, _ONE if g == 0 else np.array([g]), high, count, what)[0].tolist()
    key = s.rng_key.item(g)
    counter = s.rng_counter.item(g)
    s.rng_counter[g] = (counter + count) & MASK64
    out = []
    for k in range(count):
        v = int(float(splitmix64_int(key + (counter + k) * GOLDEN) >> 11) * UNIT_53 * high)
        out.append(v if v < high else high - 1)
    return out


def _begin_round(s: State, g: int, config) -> None:
    """engine._begin_round for the lone game; the roll cap's dead ball goes the batched way."""
    rolls = s.rolls.item(g) + 1
    s.rolls[g] = rolls
    if rolls > config.max_rolls_per_down:  # past the cap the ball is dead where it is (rule 12)
        holder = s.ball_holder.item(g)
        owner = _team_of(s, g, holder) if holder >= 0 else s.last_holder_team.item(g)
        s.ball_hidden[g] = False
        _ball_dead(s, g, owner, s.ball_square.item(g))
        return
    f = _draws(s, g, 6, 4, "dice")
    off_hi, off_lo = (f[0], f[1]) if f[0] >= f[1] else (f[1], f[0])
    def_hi, def_lo = (f[2], f[3]) if f[2] >= f[3] else (f[3], f[2])
    off_hi, off_lo, def_hi, def_lo = off_hi + 1, off_lo + 1, def_hi + 1, def_lo + 1
    off_pts = off_hi if off_hi >= def_hi else off_lo
    def_pts = def_hi if def_hi >= off_hi else def_lo
    o = s.offence.item(g)
    dice = s.dice
    dice[g, o, 0], dice[g, o, 1] = off_hi, off_lo
    dice[g, 1 - o, 0], dice[g, 1 - o, 1] = def_hi, def_lo
    points = s.points[g].tolist()
    s.points[g, o] = min(8, points[o] + off_pts)
    s.points[g, 1 - o] = min(8, points[1 - o] + def_pts)
    s.phase[g] = PLAY
    s.to_act[g] = o
    s.follow_square[g] = -1


def _end_turn(s: State, g: int) -> None:
    s.follow_square[g] = -1
    o = s.offence.item(g)
    if s.to_act.item(g) == o:
        s.to_act[g] = 1 - o
    else:
        _begin_round(s, g, STEP.config)


# --- downs, possessions and scores (engine's bookkeeping, one game) -----------------------------------

_DEFENDED_END_ZONE = DEFENDED_END_ZONE.tolist()
_KICKOFF = list(KICKOFF_SQUARE)
_FG_TARGET = FIELD_GOAL_TARGET_BY_ROW.tolist()
_FG_DISTANCE = field_goal_distance_for_row(np.arange(N_ROWS)).tolist()


def _team_of(s: State, g: int, slot: int) -> int:
    offence = s.offence.item(g)
    return offence if slot < 11 else 1 - offence


def _start_down(s: State, g: int) -> None:
    """engine._start_down: clear the field for a new down; the offence picks its formation."""
    offence = s.offence.item(g)
    for field, value in FIELD_CLEARED_FOR_A_DOWN:
        getattr(s, field)[g] = value
    s.ball_square[g] = s.los_row.item(g) * N_LANES + s.los_lane.item(g)
    s.last_holder_team[g] = offence
    s.phase[g] = OFFENCE_FORMATION
    s.to_act[g] = offence


def _spot(s: State, g: int, square: int) -> None:
    s.los_row[g] = _ROW[square]
    s.los_lane[g] = min(max(_LANE[square], HASH_BAND[0]), HASH_BAND[-1])


def _new_series(s: State, g: int, team: int, square: int) -> None:
    """engine._new_series: first-and-ten for ``team`` at ``square`` (rule 6)."""
    s.offence[g] = team
    s.down[g] = 1
    _spot(s, g, square)
    gain_frame = _FRAME_ROW[team][s.los_row.item(g) * N_LANES] - 3
    s.line_to_gain[g] = gain_frame if team == 0 else N_ROWS - 1 - gain_frame
    _start_down(s, g)


def _next_down(s: State, g: int, square: int) -> None:
    """engine._next_down: same offence, next down; a failed 4th down turns the ball over (rule 6)."""
    down = s.down.item(g) + 1
    s.down[g] = down
    if down > 4:
        _change_possession(s, g, 1 - s.offence.item(g), square)
    else:
        _spot(s, g, square)
        _start_down(s, g)


def _change_possession(s: State, g: int, team: int, square: int) -> None:
    """engine._change_possession: the drive ends, the end of the game checked first (rules 28-29)."""
    over, winner, start_overtime = False, -1, False
    if s.overtime.item(g):
        ot_points = s.overtime_points[g].tolist()
        if max(ot_points) >= 4:
            over, winner = True, (0 if ot_points[0] >= ot_points[1] else 1)
        team, square = 1 - s.offence.item(g), -1
    else:
        opener = s.opener.item(g)
        other = 1 - opener
        score = s.score[g].tolist()
        opener_score, other_score = score[opener], score[other]
        target = STEP.config.target_score
        if other_score >= target and opener_score < target:
            over, winner = True, other
        elif opener_score >= target:
            drives = s.drives[g].tolist()
            if not (drives[other] < drives[opener] and team == other):  # no final drive owed: decide
                if opener_score == other_score:
                    start_overtime = True
                else:
                    over, winner = True, (opener if opener_score > other_score else other)
    if over:
        s.winner[g] = winner
        s.terminated[g] = True
        s.phase[g] = GAME_OVER
        s.to_act[g] = -1
        s.ball_holder[g] = -1
        s.ball_hidden[g] = False
        return
    if start_overtime:
        s.overtime[g] = True
        s.overtime_points[g] = 0
        team, square = _draws(s, g, 2, 1, "overtime coin toss")[0], -1
    if square < 0:
        square = _KICKOFF[team]
    s.drives[g, team] += 1
    _new_series(s, g, team, square)


def _score(s: State, g: int, team: int, points: int) -> None:
    s.score[g, team] += points
    if s.overtime.item(g):
        s.overtime_points[g, team] += points


def _touchdown(s: State, g: int, team: int) -> None:
    """6 points, then the PAT (19 in 20) outside overtime; the other team receives (rules 23, 29)."""
    _score(s, g, team, 6)
    if not s.overtime.item(g) and _draws(s, g, 20, 1, "PAT")[0] < 19:
        s.score[g, team] += 1
    _change_possession(s, g, 1 - team, -1)


def _ball_dead(s: State, g: int, team: int, square: int) -> None:
    """engine._ball_dead: the play ends with ``team`` owning the dead ball at ``square``."""
    offence = s.offence.item(g)
    if _DEFENDED_END_ZONE[team][square]:
        if team == offence:  # a safety (rule 15): 2 points, the team that scored it receives (rule 4)
            _score(s, g, 1 - team, 2)
            _change_possession(s, g, 1 - team, -1)
        else:  # a touchback for a defender returning a takeaway (rule 20)
            _change_possession(s, g, team, -1)
    elif _SCORING_END_ZONE[team][square]:  # loose and dead in the end zone it attacks: touchback
        _change_possession(s, g, 1 - team, -1)
    elif team != offence:  # the defence holds the ball: first-and-ten for it at the spot (rule 26)
        _change_possession(s, g, team, square)
    elif _FRAME_ROW[team][square] <= _FRAME_ROW[team][s.line_to_gain.item(g) * N_LANES]:
        _new_series(s, g, team, square)  # first down: same drive
    else:
        _next_down(s, g, square)


def _tackle(s: State, g: int, tackling_team: int) -> None:
    """engine._tackle: 1 in 20 a fumble, otherwise the play ends at the carrier's square (rule 15)."""
    carrier_square = s.ball_square.item(g)
    if _draws(s, g, 20, 1, "tackle fumble")[0] == 0:
        if _start_fumble(s, g, carrier_square, tackling_team, tackling_team, 1 - tackling_team):
            return
    _ball_dead(s, g, 1 - tackling_team, carrier_square)


def _do_field_goal(s: State, g: int) -> None:
    """engine._do_field_goal (rule 21)."""
    offence = s.offence.item(g)
    los = _FRAME_ROW[offence][s.los_row.item(g) * N_LANES]
    config = STEP.config
    if config.kick_mode == "dice":
        good = sum(_draws(s, g, 6, 3, "field goal")) + 3 >= _FG_TARGET[los]
    else:
        reach = paper_reach(sum(_draws(s, g, 6, 3, "field goal reach")) + 3)
        answer = _draws(s, g, 1_000_000, 1, "field goal answer")[0]
        good = reach >= _FG_DISTANCE[los] and answer < config.paper_answer_chance * 1e6
    if good:
        _score(s, g, offence, 3)
        _change_possession(s, g, 1 - offence, -1)
    else:
        _change_possession(s, g, 1 - offence, s.los_row.item(g) * N_LANES + s.los_lane.item(g))


def _do_punt(s: State, g: int, rows: int) -> None:
    """engine._do_punt: lands target + uniform -2..+2 rows downfield, same lane; no return (rule 22)."""
    offence = s.offence.item(g)
    land = _FRAME_ROW[offence][s.los_row.item(g) * N_LANES] - rows - (_draws(s, g, 5, 1, "punt spread")[0] - 2)
    if land < FIRST_FIELD_ROW:
        _change_possession(s, g, 1 - offence, -1)
        return
    land = min(land, LAST_FIELD_ROW)
    lane = _FRAME_LANE[offence][s.los_lane.item(g)]
    if offence:
        land, lane = N_ROWS - 1 - land, N_LANES - 1 - lane
    _change_possession(s, g, 1 - offence, land * N_LANES + lane)


# --- moves -----------------------------------------------------------------------------------------------

def _carrier_moved(s: State, g: int) -> None:
    """A touchdown if the carrier stands in the end zone his team attacks (engine._carrier_moved)."""
    holder = s.ball_holder.item(g)
    if _CARRIER_TD[_TD_ROW[s.offence.item(g) * 23 + holder + 1] + s.ball_square.item(g)]:
        _touchdown(s, g, _team_of(s, g, holder))


def _do_move(s: State, g: int, slot: int, direction: int) -> None:
    """engine._do_move for the lone game in PLAY."""
    team = s.to_act.item(g)
    ps = s.player_square
    board = s.board
    frm = ps.item(g, slot)
    to = _NEIGHBOUR[team][frm][direction]
    occupant = board.item(g, to)
    cost = _MOVE_COST[direction]
    if slot == 0 and s.special.item(g, s.offence.item(g)) != _SPEEDY_QB:
        cost *= 2
    if occupant >= 0:
        holder = s.ball_holder.item(g)
        if occupant == holder:  # a tackle (rules 14-15)
            s.points[g, team] -= cost
            _tackle(s, g, team)
            return
        # a swap through a weak lineman (rule 14)
        s.points[g, team] -= 2
        board[g, to] = slot
        board[g, frm] = occupant
        ps[g, slot] = to
        ps[g, occupant] = frm
        if holder == slot:
            s.ball_square[g] = to
        _carrier_moved(s, g)
        return
    s.points[g, team] -= cost
    board[g, frm] = -1
    board[g, to] = slot
    ps[g, slot] = to
    holder = s.ball_holder.item(g)
    if holder == slot:
        s.ball_square[g] = to
    if holder < 0 and s.ball_square.item(g) == to:  # picking up a visible loose ball
        _gain_possession(s, g, slot, to, recovery=True)
    else:
        _carrier_moved(s, g)
    # Lead Blocker may follow into the square left (rule 24).
    if (s.special.item(g, team) == _LEAD_BLOCKER and s.phase.item(g) == PLAY
            and not s.lead_blocker_used.item(g, team)):
        s.follow_square[g] = frm
        s.follow_mover[g] = slot


def _do_follow(s: State, g: int, slot: int) -> None:
    team = s.to_act.item(g)
    to = s.follow_square.item(g)
    frm = s.player_square.item(g, slot)
    s.board[g, frm] = -1
    s.board[g, to] = slot
    s.player_square[g, slot] = to
    if s.ball_holder.item(g) == slot:
        s.ball_square[g] = to
    s.lead_blocker_used[g, team] = True
    s.follow_square[g] = -1
    _carrier_moved(s, g)


# --- fumbles, scrambles, interceptions, gap runs and specials ---------------------------------------------

_ABS_NEIGHBOUR = _NEIGHBOUR[0]  # absolute neighbours (team one's frame is the grid's)


def _start_fumble(s: State, g: int, around_square: int, first_stepper: int, resume_team: int, loser_team: int) -> bool:
    """engine._start_fumble: the ball goes to a random empty square beside ``around_square`` (the pick-th
    free neighbour in direction order); False when none is free (no fumble) (rule 27)."""
    board = s.board[g].tobytes()
    free = [t for t in _ABS_NEIGHBOUR[around_square] if t >= 0 and board[t] == 255]
    if not free:
        return False
    s.ball_square[g] = free[_draws(s, g, len(free), 1, "fumble square")[0]]
    s.ball_holder[g] = -1
    s.ball_hidden[g] = True
    s.last_holder_team[g] = loser_team
    s.phase[g] = SCRAMBLE
    s.scramble_step[g] = 0
    s.to_act[g] = first_stepper
    s.resume_team[g] = resume_team
    s.follow_square[g] = -1
    return True


def _blind_step(s: State, g: int, slot: int, direction: int) -> None:
    """engine._blind_step: one free blind step in a fumble scramble (rule 27); stepping onto the hidden
    ball recovers it, and play resumes with the team whose turn the fumble broke."""
    team = s.to_act.item(g)
    frm = s.player_square.item(g, slot)
    to = _NEIGHBOUR[team][frm][direction]
    s.board[g, frm] = -1
    s.board[g, to] = slot
    s.player_square[g, slot] = to
    if s.ball_square.item(g) == to:
        s.phase[g] = PLAY
        s.to_act[g] = s.resume_team.item(g)
        _gain_possession(s, g, slot, to, recovery=True)
    else:
        _scramble_step_done(s, g)


def _scramble_step_done(s: State, g: int) -> None:
    """engine._scramble_step_done: after a blind step that missed (or a declined one) the other side
    steps, or the ball is shown and the dice roll again."""
    if s.scramble_step.item(g) == 0:
        s.scramble_step[g] = 1
        s.to_act[g] = 1 - s.to_act.item(g)
    else:
        s.ball_hidden[g] = False
        _begin_round(s, g, STEP.config)


def _intercept(s: State, g: int, throwing_team: int, receiver_square: int, thrower_square: int) -> None:
    """engine._intercept: the defender nearest the receiver (then nearest the thrower, lowest lane, lowest
    row) holds the ball; the throwing side loses its points and its turn, and the defence runs it back
    (rule 20). Not a recovery: an interceptor in his own end zone may run it out."""
    first = 11 if throwing_team == s.offence.item(g) else 0
    squares = s.player_square[g].tolist()[first:first + 11]
    keys = [_DISTANCE[sq][receiver_square] * 1_000_000 + _DISTANCE[sq][thrower_square] * 10_000
            + _LANE[sq] * 100 + _ROW[sq] for sq in squares]  # (a square -1 reads the last one, as numpy does)
    k = keys.index(min(keys))
    s.points[g, throwing_team] = 0
    _gain_possession(s, g, first + k, squares[k])
    if s.phase.item(g) == PLAY:
        _end_turn(s, g)


def _do_gap(s: State, g: int, slot: int) -> None:
    """engine._do_gap: the carrier runs two squares straight on past the strong lineman ``slot``, at 2
    points a square, 3 for a quarterback without Speedy QB (rule 17)."""
    team = s.to_act.item(g)
    carrier = s.ball_holder.item(g)
    csq = s.ball_square.item(g)
    beyond = 2 * s.player_square.item(g, slot) - csq
    per_square = 3 if carrier == 0 and s.special.item(g, s.offence.item(g)) != _SPEEDY_QB else 2
    s.points[g, team] -= 2 * per_square
    s.board[g, csq] = -1
    s.board[g, beyond] = carrier
    s.player_square[g, carrier] = beyond
    s.ball_square[g] = beyond
    _carrier_moved(s, g)


def _do_special(s: State, g: int, choice: int) -> None:
    """engine._do_special: team one picks, then team two; then the offence picks its formation (rule 24)."""
    team = s.to_act.item(g)
    s.special[g, team] = choice
    if team == 1:
        s.phase[g] = OFFENCE_FORMATION
        s.to_act[g] = s.offence.item(g)
    else:
        s.to_act[g] = 1


# --- formations and handoffs ------------------------------------------------------------------------------

_OFFENCE_PLACEMENT = OFFENCE_PLACEMENT.tolist()  # [formation][frame LOS row][band index] -> 11 squares
_DEFENCE_PLACEMENT = DEFENCE_PLACEMENT.tolist()
_FRAME_LANE = FRAME_LANE.tolist()
_HASH_BAND_0 = HASH_BAND[0]
_FG_IN_RANGE = field_goal_in_range(np.arange(N_ROWS)).tolist()  # [frame LOS row]
_SCORING_END_ZONE = SCORING_END_ZONE.tolist()
_ROW, _LANE = SQUARE_ROW.tolist(), SQUARE_LANE.tolist()
_PASS_OFFENCE_DICE = PASS_OFFENCE_DICE.tolist()
_PASS_DEFENCE_DICE = PASS_DEFENCE_DICE.tolist()
_ROUND, _ROUNDS, _MAX_OFF = CONTEST_ROUND, CONTEST_ROUNDS, MAX_OFFENCE_DICE
_LANE_SPAN = 2 * N_LANES - 1


def _lane_squares():
    """[(dr + 29) * 35 + dl + 17] -> the square offsets (from the thrower) strictly between thrower and
    receiver on the throwing line (rule 19), from geometry.LINE_OFFSETS."""
    table = []
    for per_dr in LINE_OFFSETS.tolist():
        for offsets in per_dr:
            table.append([orow * N_LANES + olane for orow, olane in offsets if orow != 99])
    return table


_LANE_SQUARES = _lane_squares()
_LAST_SQUARE = NEIGHBOUR.shape[1] - 1


def _place(s: State, g: int, first_slot: int, placement, offence: int) -> None:
    """Stand the 11 players of slots first_slot.. on their formation squares (offence frame -> absolute)."""
    ps, board = s.player_square, s.board
    for k, sq in enumerate(placement):
        if offence:
            sq = _LAST_SQUARE - sq
        ps[g, first_slot + k] = sq
        board[g, sq] = first_slot + k


def _frame_los_band(s: State, g: int, offence: int):
    los = _FRAME_ROW[offence][s.los_row.item(g) * N_LANES]
    return los, _FRAME_LANE[offence][s.los_lane.item(g)] - _HASH_BAND_0


def _do_offence_formation(s: State, g: int, formation: int) -> None:
    """engine._do_offence_formation for the lone game."""
    offence = s.offence.item(g)
    s.formation[g, 0] = formation
    los, band = _frame_los_band(s, g, offence)
    _place(s, g, 0, _OFFENCE_PLACEMENT[formation][los][band], offence)
    s.ball_holder[g] = 0  # the ball is snapped to the quarterback
    s.ball_square[g] = s.player_square.item(g, 0)
    s.phase[g] = DEFENCE_FORMATION
    s.to_act[g] = 1 - offence


def _do_defence_formation(s: State, g: int, formation: int) -> None:
    """engine._do_defence_formation for the lone game: the strong-lineman roll (rule 8), then the kick
    decision (rule 9) or the first roll of the dice."""
    offence = s.offence.item(g)
    s.formation[g, 1] = formation
    los, band = _frame_los_band(s, g, offence)
    _place(s, g, 11, _DEFENCE_PLACEMENT[formation][los][band], offence)
    s.strong[g] = [v == 1 for v in _draws(s, g, 2, 5, "strong linemen")]
    if _FG_IN_RANGE[los] or s.down.item(g) == 4:
        s.phase[g] = KICK_DECISION
        s.to_act[g] = offence
    else:
        _begin_round(s, g, STEP.config)


def _do_handoff(s: State, g: int, slot: int, team: int, thrower_square: int, receiver_square: int) -> None:
    """A handoff (engine._do_throw, kind 0): free; a backward one banks a point (rule 18)."""
    if _FRAME_ROW[team][receiver_square] > _FRAME_ROW[team][thrower_square]:
        s.points[g, team] = min(8, s.points.item(g, team) + 1)
    _gain_possession(s, g, slot, receiver_square)


def _gain_possession(s: State, g: int, slot: int, receiver_square: int, recovery: bool = False) -> None:
    """engine._gain_possession: ``slot`` holds the ball where he stands (``receiver_square``); a touchdown
    in the end zone his team attacks. When ``recovery`` (a loose ball picked up), a defender in the end
    zone his team defends gets a touchback at once (rule 27); a catch or an interception there is live."""
    offence = s.offence.item(g)
    holder_team = offence if slot < 11 else 1 - offence
    s.ball_holder[g] = slot
    s.ball_square[g] = receiver_square
    s.ball_hidden[g] = False
    s.last_holder_team[g] = holder_team
    if _SCORING_END_ZONE[holder_team][receiver_square]:
        _touchdown(s, g, holder_team)
    elif recovery and slot >= 11 and _DEFENDED_END_ZONE[holder_team][receiver_square]:
        _change_possession(s, g, holder_team, -1)


# --- step ------------------------------------------------------------------------------------------------

def _throw(s: State, g: int, slot: int) -> None:
    """Play the throw to ``slot``: a handoff, a lateral or a forward pass by the distance and direction."""
    team = s.to_act.item(g)
    thrower_square = s.ball_square.item(g)
    receiver_square = s.player_square.item(g, slot)
    kind = _THROW_KIND[((team * _N_SQ1 + thrower_square + 1) * _N_SQ1) + receiver_square + 1]
    if kind == 0:
        _do_handoff(s, g, slot, team, thrower_square, receiver_square)
    elif kind == 1:
        _do_lateral(s, g, slot, team, thrower_square, receiver_square)
    else:
        _do_forward_pass(s, g, slot, team, thrower_square, receiver_square)


def _do_lateral(s: State, g: int, slot: int, team: int, thrower_square: int, receiver_square: int) -> None:
    """engine._do_throw's lateral: 2 points; 99/100 caught behind the LOS row, 19/20 past it; a drop is a
    fumble at the receiver (batched), and the throwing side loses its remaining points (rule 18)."""
    s.points[g, team] -= 2
    behind = _FRAME_ROW[team][thrower_square] > _FRAME_ROW[team][s.los_row.item(g) * N_LANES]
    dropped = _draws(s, g, LATERAL_ROLL, 1, "lateral")[0] < LATERAL_DROPS[behind]
    if dropped and _start_fumble(s, g, receiver_square, 1 - team, team, team):
        s.points[g, team] = 0
        return
    _gain_possession(s, g, slot, receiver_square)


def _do_forward_pass(s: State, g: int, slot: int, team: int, thrower_square: int, receiver_square: int) -> None:
    """engine._do_throw's forward pass: 2 points, spent either way; the dice contest (rule 19); 1 in 15 (10
    against Ball Hawk) of the failures picked off (rule 20)."""
    s.points[g, team] -= 2
    s.forward_pass_used[g] = True
    offence = s.offence.item(g)
    squares = s.player_square[g].tolist()
    defenders = squares[11:] if team == offence else squares[:11]
    # engine.pass_dice
    dist = [_DISTANCE[sq][receiver_square] for sq in defenders]
    off = _PASS_OFFENCE_DICE[min(dist)]
    special = s.special[g].tolist()
    if off > 0 and special[team] == A.SURE_HANDS:
        off += 1
    dfn = sum(_PASS_DEFENCE_DICE[d] for d in dist)
    board = s.board[g].tobytes()
    for sq in _LANE_SQUARES[(_ROW[receiver_square] - _ROW[thrower_square] + N_ROWS - 1) * _LANE_SPAN
                            + _LANE[receiver_square] - _LANE[thrower_square] + N_LANES - 1]:
        occ = board[sq + thrower_square]
        if occ != 255 and (offence if occ < 11 else 1 - offence) != team:
            dfn += 1
    if s.ball_holder.item(g) != 0:
        dfn += 1
    if off == 0 or _contest(s, g, off, dfn):
        _gain_possession(s, g, slot, receiver_square)
        return
    hawk = special[1 - team] == A.BALL_HAWK
    if _draws(s, g, INTERCEPTION_ONE_IN[hawk], 1, "interception")[0] == 0:
        _intercept(s, g, team, receiver_square, thrower_square)
    else:  # incomplete: the next down from the same LOS (rule 20)
        _next_down(s, g, s.los_row.item(g) * N_LANES + s.los_lane.item(g))


def _contest(s: State, g: int, off: int, dfn: int) -> bool:
    """engine._contest on a counter stream: highest single die wins, ties rolled again; the draws of
    several rounds are read at once and the counter set just past the decisive one. Another chance source
    gives each round's dice by draws, as engine._contest draws them."""
    if type(STEP.chance) is not CounterChance:
        while True:
            o = _draws(s, g, 6, MAX_OFFENCE_DICE, "pass contest offence")
            d = _draws(s, g, 6, MAX_DEFENCE_DICE, "pass contest defence")
            o_max = max(o[:off]) if off else -1
            d_max = max(d[:dfn]) if dfn else -1
            if o_max != d_max:
                return o_max > d_max
    key = s.rng_key[g:g + 1]
    while True:
        counter = s.rng_counter.item(g)
        faces = uniform(key, s.rng_counter[g:g + 1], 6, _ROUND * _ROUNDS)[0].tolist()
        for r in range(_ROUNDS):
            at = r * _ROUND
            o_max = max(faces[at:at + off]) if off else -1
            d_max = max(faces[at + _MAX_OFF:at + _MAX_OFF + dfn]) if dfn else -1
            if o_max != d_max:
                s.rng_counter[g] = counter + (r + 1) * _ROUND
                return o_max > d_max
        s.rng_counter[g] = counter + _ROUNDS * _ROUND


def _do_push(s: State, g: int, slot: int) -> None:
    """engine._do_push for the lone game: the carrier pushes the line of teammates that starts with
    ``slot`` one square on along that forward direction (rule 16)."""
    team = s.to_act.item(g)
    carrier = s.ball_holder.item(g)
    csq = s.ball_square.item(g)
    board = s.board[g].tobytes()
    lines = _FORWARD_LINES[team][csq]
    for j in range(3):
        line = lines[j]
        if line and board[line[0]] == slot:
            break
    _, shove = _push_line(board, line, team == s.offence.item(g), s.strong[g].tobytes())
    cost = _PUSH_STEP_COST[j]
    if carrier == 0 and s.special.item(g, s.offence.item(g)) != _SPEEDY_QB:
        cost *= 2
    if shove:
        cost *= 2
    s.points[g, team] -= cost
    # every man in the line moves one square on at once; the first empty square is filled by the last
    ps, b = s.player_square, s.board
    k = 0
    while board[line[k]] != 255:
        k += 1
    for i in range(k, 0, -1):
        mover = board[line[i - 1]]
        b[g, line[i]] = mover
        ps[g, mover] = line[i]
    b[g, ps.item(g, carrier)] = -1  # (after the line has moved on: nobody else stood there)
    b[g, line[0]] = carrier
    ps[g, carrier] = line[0]
    s.ball_square[g] = line[0]
    _carrier_moved(s, g)


def _action_id(actions):
    """The action id of a batch of one as an int, or None when the batched checks must look at it."""
    t = type(actions)
    if t is int:
        a = actions
    elif t is np.ndarray:
        if actions.shape != (1,) or actions.dtype.kind not in "iu":
            return None
        a = actions.item()
    elif isinstance(actions, np.integer):
        a = int(actions)
    else:
        return None
    return a if 0 <= a < _NUM_ACTIONS else None


def step_one(state: State, actions, config, chance=None, in_place=False, checked=False, game=0) -> State | None:
    """engine.step for a batch of one (no ``active`` mask, or a one-game mask that is True); ``chance``: a
    chance source (None: the game's counter stream); None when the batched path must take it (an illegal
    or unusual action, a finished game), before anything is changed. ``in_place``: step ``state`` itself
    and return it, instead of a copy. ``checked`` (the engine's small-batch path, in place): ``actions`` is
    an int the caller has checked legal in the live game ``game`` (a row of ``state``, any batch size, with
    an int8 board), so the checks are not made again and only that row is read and written."""
    if checked:
        a, s, g = actions, state, game
    else:
        a = _action_id(actions)
        if (a is None or state.terminated.item() or state.truncated.item() or not state.legal.item(a)
                or state.board.dtype != _BOARD_DTYPE):  # (the board is read as bytes)
            return None
        s, g = state if in_place else state.copy(), 0
    STEP.config, STEP.chance = config, chance or _COUNTER_CHANCE
    try:
        kind = _KIND[a]
        if kind != _KIND_FOLLOW:
            s.follow_square[g] = -1  # a Lead Blocker follow must come straight after the move
        if kind == _KIND_MOVE and s.phase.item(g) == PLAY:
            _do_move(s, g, _ARG[a], _DIRECTION[a])
        elif kind == _KIND_END_TURN and s.phase.item(g) == PLAY:
            _end_turn(s, g)
        elif kind == _KIND_FOLLOW:
            _do_follow(s, g, _ARG[a])
        elif kind == _KIND_OFFENCE_FORMATION:
            _do_offence_formation(s, g, _ARG[a])
        elif kind == _KIND_DEFENCE_FORMATION:
            _do_defence_formation(s, g, _ARG[a])
        elif kind == _KIND_THROW:
            _throw(s, g, _ARG[a])
        elif kind == _KIND_PUSH:
            _do_push(s, g, _ARG[a])
        elif kind == A.KIND_PLAY_ON:
            _begin_round(s, g, config)
        elif kind == A.KIND_FIELD_GOAL:
            _do_field_goal(s, g)
        elif kind == A.KIND_PUNT:
            _do_punt(s, g, _ARG[a])
        elif kind == _KIND_MOVE:  # a blind step in a fumble scramble
            _blind_step(s, g, _ARG[a], _DIRECTION[a])
        elif kind == _KIND_END_TURN:  # declining the blind step
            _scramble_step_done(s, g)
        elif kind == A.KIND_GAP:
            _do_gap(s, g, _ARG[a])
        else:
            _do_special(s, g, _ARG[a])
        steps = s.steps.item(g) + 1
        s.steps[g] = steps
        if steps >= config.max_steps and not s.terminated.item(g):  # engine._truncate: a valid end
            s.truncated[g] = True
            s.phase[g] = GAME_OVER
            s.to_act[g] = -1
            s.ball_hidden[g] = False
            s.follow_square[g] = -1
        _refresh(s, g)
    finally:
        STEP.chance = None
    return s
