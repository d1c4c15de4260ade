"""The Sports Dice rules engine: pure numpy functions over a struct of arrays (numpy only).

``init`` deals a batch of new games, ``step`` applies one decision per game; dice are drawn inside
``step`` from each game's own counter-based stream (``gridiron_env.core.chance``), or from an injected
chance source (``ScriptedChance`` in tests). Rulings are numbered as in RULINGS-sports-dice.md.

A roll of both sides (twelve dice) is one draw of ``F_o**6 * F_d**6`` equally likely values, ``F`` the
faces of a side's die: value ``v`` is the offence roll ``v // F_d**6`` and the defence roll ``v % F_d**6``;
a side's roll index holds its six dice as base-F digits, die 0 the most significant (``roll_value`` builds
the value from the symbols, for ``ScriptedChance``). ``roll_tables`` gives every side roll's summary (the
dice, the count of the most common symbol, the symbols with that count, the punt/kick yards, six of a
kind), which the engine reads by gathers and the solver enumerates.
"""

from __future__ import annotations

import numpy as np

from ..core.chance import CounterChance, _uniform
from ..small_games.engine import (
    IllegalActionError, StepContext, checked_actions, game_config, legal_action_mask, new_batch,
)
from . import actions as A
from .config import SportsDiceConfig
from .state import (
    CHIP, DEFENCE_PLAY, DEFENCE_SIDE, DEFENCE_SYMBOLS, DICE, END_ZONE, FIELD_GOAL_CHOICE, FIELD_GOAL_SYMBOL,
    FOURTH_DOWN, GAME_OVER, KEPT, MIDFIELD, NO_CALL, NO_GAIN, OFFENCE_PLAY, OFFENCE_SIDE, OFFENCE_SYMBOLS,
    OWN_25, PICK_SIX, ROLL_KICK, ROLL_PLAY, ROLL_PUNT, SACK, SNAP, State, SYMBOL_SHORT, TEN, TOSS,
    TOUCHDOWN_SYMBOL, TURNOVER, TWENTY, USED,
)

__all__ = ["IllegalActionError", "init", "step", "legal_action_mask", "recompute_legal", "roll_tables",
           "roll_value", "YARDS", "TOUCHDOWN_POINTS", "FIELD_GOAL_POINTS", "SAFETY_POINTS"]

TOUCHDOWN_POINTS, FIELD_GOAL_POINTS, SAFETY_POINTS = 7, 3, 2  # no extra point (ruling 11)
ADVANCE_YARDS = 25  # a FIELD GOAL play at 50 or beyond, not taken as points (ruling 9)
FIELD_GOAL_DEPTH = 10  # a kick must reach the back of the end zone: 10 yards past the goal line (ruling 14)
YARDS = {TEN: 10, TWENTY: 20, NO_GAIN: 0, SACK: -10}  # the plays that move the ball (rulings 9, 10)


_CTX = StepContext()  # the config and chance source of the call in progress
_draw = _CTX.draw


# --- the roll tables --------------------------------------------------------------------------------------

_TABLES: dict = {}


def _side_table(faces: tuple, symbols: tuple, base: int) -> dict:
    """Every roll of six dice with ``faces`` (names of ``symbols``): the per-roll summary arrays (built die
    by die in small integer types: 12 faces make 2,985,984 rolls)."""
    F = len(faces)
    codes = np.array([symbols.index(f) for f in faces], dtype=np.int8)
    n = F ** DICE
    idx = np.arange(n, dtype=np.int32)
    local = np.empty((n, DICE), dtype=np.int8)  # the side's symbol codes 0-3, die 0 the most significant digit
    per_symbol = np.zeros((n, 4), dtype=np.int8)
    for k in range(DICE):
        local[:, k] = codes[(idx // F ** (DICE - 1 - k)) % F]
        for sym in range(4):
            per_symbol[:, sym] += local[:, k] == sym
    count = per_symbol.max(axis=1)
    top = np.zeros(n, dtype=np.int8)
    for sym in range(4):
        top |= (per_symbol[:, sym] == count).astype(np.int8) << sym
    if base == 0:
        yards = 10 * per_symbol[:, TEN].astype(np.int16) + 20 * per_symbol[:, TWENTY].astype(np.int16)
    else:
        yards = np.zeros(n, dtype=np.int16)
    return {"faces": F, "dice": local + np.int8(base), "per_symbol": per_symbol, "count": count, "top": top,
            "yards": yards, "six": per_symbol[:, 0] == DICE}  # six 10s (offence) / six NO GAINs (defence)


def roll_tables(config: SportsDiceConfig | None = None) -> tuple[dict, dict]:
    """(offence, defence) tables over every roll index of a side (``F**6`` rolls, equally likely): each a
    dict of ``faces`` (F), ``dice`` int8 [n, 6] (symbol codes: offence 0-3, defence 4-7), ``per_symbol``
    int8 [n, 4] (dice showing each of the side's symbols), ``count`` int8 [n] (dice showing the most common
    symbol), ``top`` int8 [n] (bitmask of the side's symbols with that count), ``yards`` int16 [n] (10 x
    10s + 20 x 20s: punt and kick yards, ruling 13; 0 for the defence), ``six`` bool [n] (six 10s /
    six NO GAINs). Cached per face table; do not modify."""
    config = _config(config)
    key = (config.offence_faces, config.defence_faces)
    t = _TABLES.get(key)
    if t is None:
        t = _TABLES[key] = (_side_table(config.offence_faces, OFFENCE_SYMBOLS, 0),
                            _side_table(config.defence_faces, DEFENCE_SYMBOLS, 4))
    return t


def _symbol_code(value, side: int) -> int:
    names = OFFENCE_SYMBOLS if side == 0 else DEFENCE_SYMBOLS
    if isinstance(value, str):
        low = " ".join(value.lower().split())
        shorts = [x.lower() for x in SYMBOL_SHORT[4 * side:4 * side + 4]]
        if low in names:
            return names.index(low)
        if low in shorts:
            return shorts.index(low)
    elif isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        if 4 * side <= int(value) < 4 * side + 4:
            return int(value) - 4 * side
    raise ValueError(f"{value!r} is not a {'offence' if side == 0 else 'defence'} symbol ({list(names)}, "
                     f"their short names or codes {4 * side}-{4 * side + 3})")


def roll_value(offence_dice, defence_dice, config: SportsDiceConfig | None = None) -> int:
    """The draw (a ``ScriptedChance`` value) of a roll showing these dice: six offence and six defence
    symbols (names like ``"touchdown"``, short names like ``"TD"``, or codes), each on a face of its die (the
    first face with that symbol). ValueError for a symbol no face shows."""
    config = _config(config)
    out = 0
    for side, dice, faces, names in ((0, offence_dice, config.offence_faces, OFFENCE_SYMBOLS),
                                     (1, defence_dice, config.defence_faces, DEFENCE_SYMBOLS)):
        dice = list(dice)
        if len(dice) != DICE:
            raise ValueError(f"a side rolls {DICE} dice, got {len(dice)}")
        index = 0
        for d in dice:
            name = names[_symbol_code(d, side)]
            if name not in faces:
                raise ValueError(f"no face of the {'offence' if side == 0 else 'defence'} die shows {name!r} "
                                 f"(faces {list(faces)})")
            index = index * len(faces) + faces.index(name)
        out = out * len(faces) ** DICE + index if side else index
    return out


# --- legal masks ------------------------------------------------------------------------------------------

def _legal_table():
    # [phase * 16 + top bits of the deciding side (play choices only), action]
    t = np.zeros((16 * (GAME_OVER + 1), A.NUM_ACTIONS), dtype=bool)
    for bits in range(16):
        t[TOSS * 16 + bits, [A.CHOOSE_OFFENCE, A.CHOOSE_DEFENCE]] = True
        t[SNAP * 16 + bits, A.ROLL] = True
        t[FOURTH_DOWN * 16 + bits, [A.GO_FOR_IT, A.PUNT, A.FIELD_GOAL]] = True
        t[CHIP * 16 + bits, [A.USE_CHIP, A.KEEP_CHIP]] = True
        t[FIELD_GOAL_CHOICE * 16 + bits, [A.TAKE_POINTS, A.ADVANCE]] = True
        for k in range(4):
            t[OFFENCE_PLAY * 16 + bits, A.PLAY_BASE + k] = bool(bits >> k & 1)
            t[DEFENCE_PLAY * 16 + bits, A.PLAY_BASE + 4 + k] = bool(bits >> k & 1)
    return t


_LEGAL = _legal_table()
# to_act by phase: 0 = the toss winner, 1 = the offence, 2 = the defence, 3 = the chip holder, 4 = nobody
_DECIDER = np.array([0, 1, 1, 3, 1, 2, 1, 4], dtype=np.int8)
_POPCOUNT = np.array([bin(b).count("1") for b in range(16)], dtype=np.int8)
_LOWBIT = np.array([(b & -b).bit_length() - 1 if b else 0 for b in range(16)], dtype=np.int8)


def _refresh(s: State, g) -> None:
    """Recompute to_act and the cached legal mask of games ``g`` from their phase."""
    ph = s.phase[g].astype(np.intp)
    who = _DECIDER[ph]
    off = s.offence[g]
    s.to_act[g] = np.select([who == 0, who == 1, who == 2, who == 3],
                            [s.toss_winner[g], off, 1 - off, s.chip[g]], -1)
    bits = np.where(ph == OFFENCE_PLAY, s.top[g, 0], np.where(ph == DEFENCE_PLAY, s.top[g, 1], 0))
    s.legal[g] = _LEGAL[ph * 16 + bits]


def recompute_legal(state: State, config: SportsDiceConfig | None = None) -> None:
    """In place: to_act and the legal mask of every game, from the rest of the state."""
    _refresh(state, np.arange(state.batch_size))


# --- init -------------------------------------------------------------------------------------------------

def init(batch_size: int | None = None, seed: int = 0, config: SportsDiceConfig | None = None,
         seeds=None, chance=None) -> State:
    """A batch of new games: game i draws from the stream of seed + i, or of ``seeds[i]`` when per-game
    seeds are given (then game i equals ``init(1, seeds[i])``). The coin toss (ruling 4) is the first draw
    (0: team one wins it); each game starts in the ``toss`` phase, the toss winner to choose."""
    config = _config(config)
    s = new_batch(State, batch_size, seed, seeds)
    g = np.arange(s.batch_size)
    with _CTX.using(config, chance):
        s.toss_winner[:] = _draw(s, g, 2, 1, "coin toss")[:, 0]
    s.offence[:] = s.toss_winner
    s.chip[:] = 1 - s.toss_winner
    _refresh(s, g)
    return s


def _config(config) -> SportsDiceConfig:
    return game_config(config, SportsDiceConfig)


# --- possession and scoring -------------------------------------------------------------------------------

def _new_series(s: State, g, team, position) -> None:
    """1st down for ``team`` at ``position`` (its own frame); the target is the 50 from short of midfield,
    else the end zone (ruling 5)."""
    s.offence[g] = team
    s.position[g] = position
    s.down[g] = 1
    s.target[g] = np.where(np.asarray(position) < MIDFIELD, MIDFIELD, END_ZONE)


def _end_game(s: State, g, winner) -> None:
    s.winner[g] = winner
    s.terminated[g] = True
    s.phase[g] = GAME_OVER


def _score(s: State, g, team, points, restart_team) -> None:
    """Add points to ``team``; the first to the target wins at once (ruling 16); otherwise
    ``restart_team`` starts a drive at its own 25 (ruling 15)."""
    if g.size == 0:
        return
    s.score[g, team] += points
    won = s.score[g, team] >= _CTX.config.target_score
    if won.any():
        _end_game(s, g[won], team[won])
    go = ~won
    _new_series(s, g[go], restart_team[go], OWN_25)


def _touchdown(s: State, g, team) -> None:
    """7 points to ``team`` (either side's touchdown); the team that did not score starts at its 25."""
    team = np.asarray(team, dtype=np.int64)
    _score(s, g, team, TOUCHDOWN_POINTS, 1 - team)


def _turnover(s: State, g, spot) -> None:
    """The defence takes over, 1st down, at ``spot`` (offence's yards), in its own frame (100 - spot)."""
    _new_series(s, g, 1 - s.offence[g], 100 - np.asarray(spot))


def _move(s: State, g, yards) -> None:
    """The ball moves ``yards`` on a roll of the same offence: a touchdown at 100, a safety at 0, a new
    series on reaching the 50 in a midfield series, else the next down; a 4th down that falls short hands
    the ball over at the spot (rulings 5, 6, 11)."""
    if g.size == 0:
        return
    new = s.position[g].astype(np.int16) + yards
    off = s.offence[g].astype(np.int64)
    td = new >= END_ZONE
    sf = new <= 0
    if td.any():
        _touchdown(s, g[td], off[td])
    if sf.any():  # 2 points to the defence, which then starts at its own 25 (ruling 15)
        _score(s, g[sf], 1 - off[sf], SAFETY_POINTS, 1 - off[sf])
    on = ~(td | sf)
    g, new = g[on], new[on]
    first = (s.target[g] == MIDFIELD) & (new >= MIDFIELD)
    last = ~first & (s.down[g] >= 4)
    nxt = ~first & ~last
    fg = g[first]
    s.position[fg] = new[first]
    s.down[fg] = 1
    s.target[fg] = END_ZONE
    _turnover(s, g[last], new[last])
    gn = g[nxt]
    s.position[gn] = new[nxt]
    s.down[gn] += 1


# --- a play roll ------------------------------------------------------------------------------------------

def _roll_high(config: SportsDiceConfig) -> int:
    """The number of equally likely rolls of both sides (the draw's range)."""
    return len(config.offence_faces) ** DICE * len(config.defence_faces) ** DICE


def _roll(s: State, g, kind, v) -> tuple[np.ndarray, np.ndarray]:
    """Both sides roll all six dice (the draws ``v``): record the dice and their summaries. Returns the
    (offence, defence) roll indices."""
    off_t, def_t = roll_tables(_CTX.config)
    nd = def_t["faces"] ** DICE
    oi, di = v // nd, v % nd
    s.rolls[g] += 1
    s.roll_kind[g] = kind
    s.roll_offence[g] = s.offence[g]
    s.dice[g, 0] = off_t["dice"][oi]
    s.dice[g, 1] = def_t["dice"][di]
    s.counts[g, 0] = off_t["count"][oi]
    s.counts[g, 1] = def_t["count"][di]
    s.top[g, 0] = off_t["top"][oi]
    s.top[g, 1] = def_t["top"][di]
    s.chip_call[g] = NO_CALL
    s.roll_winner[g] = -1
    s.play[g] = -1
    return oi, di


def _play_roll(s: State, g, v) -> None:
    """A normal roll (ruling 7): the higher count wins; equal counts go to the chip holder's decision."""
    if g.size == 0:
        return
    _roll(s, g, ROLL_PLAY, v)
    co, cd = s.counts[g, 0], s.counts[g, 1]
    s.phase[g[co == cd]] = CHIP
    _won(s, g[co > cd], OFFENCE_SIDE)
    _won(s, g[cd > co], DEFENCE_SIDE)


def _chip_call(s: State, g, use) -> None:
    """The chip holder uses the chip (its side wins the roll, the chip passes) or keeps it (ruling 7)."""
    holder = s.chip[g]
    holder_side = (holder != s.offence[g]).astype(np.int64)  # 0 when the offence holds it
    side = np.where(use, holder_side, 1 - holder_side)
    s.chip_call[g] = np.where(use, USED, KEPT)
    s.chip[g] = np.where(use, 1 - holder, holder)
    _won(s, g[side == OFFENCE_SIDE], OFFENCE_SIDE)
    _won(s, g[side == DEFENCE_SIDE], DEFENCE_SIDE)


def _won(s: State, g, side: int) -> None:
    """``side`` won the roll: its play is its top symbol, or its choice among tied ones (ruling 8)."""
    if g.size == 0:
        return
    s.roll_winner[g] = side
    top = s.top[g, side]
    choose = _POPCOUNT[top] > 1
    s.phase[g[choose]] = OFFENCE_PLAY if side == OFFENCE_SIDE else DEFENCE_PLAY
    one = ~choose
    _apply_play(s, g[one], _LOWBIT[top[one]].astype(np.int64) + 4 * side)


def _apply_play(s: State, g, play) -> None:
    """The winning play (symbol code 0-7) of the roll winner, with six of a kind (rulings 9, 10)."""
    if g.size == 0:
        return
    s.play[g] = play
    off = s.offence[g].astype(np.int64)
    six_tens = (play == TEN) & (s.counts[g, 0] == DICE)
    six_no_gains = (play == NO_GAIN) & (s.counts[g, 1] == DICE)
    td = (play == TOUCHDOWN_SYMBOL) | six_tens
    pick = (play == PICK_SIX) | six_no_gains
    _touchdown(s, g[td], off[td])
    _touchdown(s, g[pick], 1 - off[pick])
    fg = play == FIELD_GOAL_SYMBOL
    short = fg & (s.position[g] < MIDFIELD)
    gs = g[short]  # to the 50, a new series aimed at the end zone
    s.position[gs] = MIDFIELD
    s.down[gs] = 1
    s.target[gs] = END_ZONE
    s.phase[g[fg & ~short]] = FIELD_GOAL_CHOICE
    to = play == TURNOVER
    gt = g[to]
    _turnover(s, gt, s.position[gt].astype(np.int16))
    moves = ~(td | pick | fg | to)
    yards = np.select([play == TEN, play == TWENTY, play == SACK], [10, 20, -10], 0)
    _move(s, g[moves], yards[moves])


def _field_goal_choice(s: State, g, take) -> None:
    """A FIELD GOAL play at 50 or beyond: 3 points, or 25 yards using a down (ruling 9)."""
    gt = g[take]
    off = s.offence[gt].astype(np.int64)
    _score(s, gt, off, FIELD_GOAL_POINTS, 1 - off)
    _move(s, g[~take], ADVANCE_YARDS)


# --- the 4th-down kicks -----------------------------------------------------------------------------------

def _kick_roll(s: State, g, kind, v):
    """A punt or field-goal roll: the offence's kick yards and the fake / return flags (rulings 13, 14);
    the Power Chip never moves."""
    oi, di = _roll(s, g, kind, v)
    off_t, def_t = roll_tables(_CTX.config)
    six_tens, six_no_gains = off_t["six"][oi], def_t["six"][di]
    fake = six_tens & ~six_no_gains
    ret = six_no_gains & ~six_tens
    off = s.offence[g].astype(np.int64)
    _touchdown(s, g[fake], off[fake])
    _touchdown(s, g[ret], 1 - off[ret])
    plain = ~(fake | ret)
    return g[plain], off_t["yards"][oi[plain]].astype(np.int16), off[plain]


def _punt(s: State, g, v) -> None:
    g, yards, off = _kick_roll(s, g, ROLL_PUNT, v)
    spot = s.position[g].astype(np.int16) + yards
    deep = spot >= END_ZONE  # the receiver starts at its own 25
    _new_series(s, g[deep], 1 - off[deep], OWN_25)
    _turnover(s, g[~deep], spot[~deep])


def _field_goal(s: State, g, v) -> None:
    g, yards, off = _kick_roll(s, g, ROLL_KICK, v)
    pos = s.position[g].astype(np.int16)
    good = yards >= (END_ZONE - pos) + FIELD_GOAL_DEPTH
    _score(s, g[good], off[good], FIELD_GOAL_POINTS, 1 - off[good])
    miss = ~good
    _turnover(s, g[miss], pos[miss])


# --- the table-driven path ---------------------------------------------------------------------------
#
# Every decision's consequence depends only on the field node (position, down, target), an event code
# (the play, the kick and its yards, a pending decision) and, for ending the game, the scores. These
# tables hold every (node, event) result, and per side roll its summary code, so a step is a few gathers
# and selections over whole columns. ``FAST_PATH = False`` sends every step through the rule functions
# above (a test checks that both paths give the same games).

FAST_PATH = True
# event codes: 0-7 the plays (symbol codes; six 10s -> 3, six NO GAINs -> 7), then these
E_ADVANCE, E_TAKE_POINTS, E_PUNT, E_KICK = 8, 9, 10, 23  # punt / kick events: + yards // 10 (0-120 yards)
E_CHIP, E_OFFENCE_CHOICE, E_DEFENCE_CHOICE, E_NONE = 36, 37, 38, 39
N_EVENTS = 40
N_NODES = 21 * 8  # node = (position // 5) * 8 + (down - 1) * 2 + (target == 100)
_SIX = 6 << 4 | 1  # the summary code of six of the side's first symbol (six 10s, six NO GAINs)


def _node(position, down, target):
    return (position // 5) * 8 + (down - 1) * 2 + (target == END_ZONE)


def _outcome(p: int, d: int, t: int, e: int):
    """(position, down, target, flip, points to the offence, points to the defence, phase) after event
    ``e`` at node (p, d, t), by the rulings (the rule functions above do the same on arrays)."""
    start = (OWN_25, 1, MIDFIELD)

    def series(q):
        return (q, 1, MIDFIELD if q < MIDFIELD else END_ZONE)

    def settle(node, flip, po=0, pd=0, phase=None):
        if phase is None:
            phase = FOURTH_DOWN if node[1] >= 4 else SNAP
        return node + (flip, po, pd, phase)

    def move(y):
        q = p + y
        if q >= END_ZONE:
            return settle(start, 1, TOUCHDOWN_POINTS)
        if q <= 0:
            return settle(start, 1, 0, SAFETY_POINTS)
        if t == MIDFIELD and q >= MIDFIELD:
            return settle((q, 1, END_ZONE), 0)
        if d >= 4:
            return settle(series(100 - q), 1)
        return settle((q, d + 1, t), 0)

    if e in YARDS:
        return move(YARDS[e])
    if e == FIELD_GOAL_SYMBOL:
        return settle((MIDFIELD, 1, END_ZONE), 0) if p < MIDFIELD else settle((p, d, t), 0, phase=FIELD_GOAL_CHOICE)
    if e == TOUCHDOWN_SYMBOL:
        return settle(start, 1, TOUCHDOWN_POINTS)
    if e == PICK_SIX:
        return settle(start, 0, 0, TOUCHDOWN_POINTS)
    if e == TURNOVER:
        return settle(series(100 - p), 1)
    if e == E_ADVANCE:
        return move(ADVANCE_YARDS)
    if e == E_TAKE_POINTS:
        return settle(start, 1, FIELD_GOAL_POINTS)
    if E_PUNT <= e < E_KICK:
        q = p + 10 * (e - E_PUNT)
        return settle(start if q >= END_ZONE else series(100 - q), 1)
    if E_KICK <= e < E_CHIP:
        good = 10 * (e - E_KICK) >= (END_ZONE - p) + FIELD_GOAL_DEPTH
        return settle(start, 1, FIELD_GOAL_POINTS) if good else settle(series(100 - p), 1)
    pending = {E_CHIP: CHIP, E_OFFENCE_CHOICE: OFFENCE_PLAY, E_DEFENCE_CHOICE: DEFENCE_PLAY}
    return settle((p, d, t), 0, phase=pending.get(e))


def _build_fast_tables():
    """The (node, event) table, packed: next node | flip << 8 | offence points << 9 | defence points << 13 |
    phase << 17; and the event tables of a play roll (by both sides' summary codes) and of a won roll (by
    the winning side and its summary code), packed event | (roll winner + 1) << 6 | (play + 1) << 8."""
    result = np.zeros(N_NODES * N_EVENTS, dtype=np.int32)
    for p in range(5, 100, 5):
        for d in range(1, 5):
            for tg in (MIDFIELD, END_ZONE):
                if tg == MIDFIELD and p >= MIDFIELD:
                    continue
                n = _node(p, d, tg)
                for e in range(N_EVENTS):
                    q, dd, tt, flip, po, pd, ph = _outcome(p, d, tg, e)
                    result[n * N_EVENTS + e] = _node(q, dd, tt) | flip << 8 | po << 9 | pd << 13 | ph << 17
    nodes = np.arange(N_NODES)
    node_pos, node_down = (nodes // 8 * 5).astype(np.int8), (nodes % 8 // 2 + 1).astype(np.int8)
    node_target = np.where(nodes % 2, END_ZONE, MIDFIELD).astype(np.int8)

    def won(side, code):
        top = code & 15
        if _POPCOUNT[top] > 1:
            return (E_OFFENCE_CHOICE if side == 0 else E_DEFENCE_CHOICE) | (side + 1) << 6
        play = int(_LOWBIT[top]) + 4 * side
        event = TOUCHDOWN_SYMBOL if side == 0 and code == _SIX else PICK_SIX if side == 1 and code == _SIX else play
        return event | (side + 1) << 6 | (play + 1) << 8

    win = np.zeros(2 * 128, dtype=np.int16)
    for side in (0, 1):
        for code in range(128):
            if code >> 4 and code & 15:
                win[side * 128 + code] = won(side, code)
    roll = np.zeros(128 * 128, dtype=np.int16)
    for co in range(128):
        for cd in range(128):
            if co >> 4 > cd >> 4:
                roll[co * 128 + cd] = win[co]
            elif cd >> 4 > co >> 4:
                roll[co * 128 + cd] = win[128 + cd]
            else:
                roll[co * 128 + cd] = E_CHIP
    action_event = np.full(A.NUM_ACTIONS, E_NONE, dtype=np.int64)
    action_event[A.PLAY_BASE:A.PLAY_BASE + 8] = np.arange(8)
    action_event[A.TAKE_POINTS], action_event[A.ADVANCE] = E_TAKE_POINTS, E_ADVANCE
    return {"result": result, "pos": node_pos, "down": node_down, "target": node_target, "win": win,
            "roll": roll, "action_event": action_event}


_FAST: dict = {}
_SIDE_CODES: dict = {}
_U16 = np.uint16


def _side_codes(config):
    """Per roll index of each side, for the table-driven path: its record, one uint64 whose bytes 0-5 are
    the dice, byte 6 the count and byte 7 the top (built byte by byte); and the offence's kick yards // 10."""
    key = (config.offence_faces, config.defence_faces)
    c = _SIDE_CODES.get(key)
    if c is None:
        off_t, def_t = roll_tables(config)
        c = {"off_y10": (off_t["yards"] // 10).astype(np.int64)}
        for name, t in (("off", off_t), ("def", def_t)):
            rec = np.zeros((t["count"].size, 8), dtype=np.int8)
            rec[:, :DICE], rec[:, 6], rec[:, 7] = t["dice"], t["count"], t["top"]
            c[name + "_record"] = rec.view(np.uint64)[:, 0].copy()
        _SIDE_CODES[key] = c
    return c


_S7, _S16, _S40, _S44, _S48, _S56 = (np.uint64(k) for k in (7, 16, 40, 44, 48, 56))
_M70, _MFF, _MFF00, _M48 = np.uint64(0x70), np.uint64(0xFF), np.uint64(0xFF00), np.uint64((1 << 48) - 1)
_SIX_U = np.uint64(_SIX)
_ROLL_KIND_OF = np.full(A.NUM_ACTIONS, -1, dtype=np.int8)
_ROLL_KIND_OF[[A.ROLL, A.GO_FOR_IT, A.PUNT, A.FIELD_GOAL]] = [ROLL_PLAY, ROLL_PLAY, ROLL_PUNT, ROLL_KICK]


def _step_fast(s: State, a, live, config: SportsDiceConfig) -> None:
    """One decision in every live game (bool mask ``live`` [B]) from the tables, in place; also sets the
    counters, the cap, to_act and the legal mask. Works on whole columns (every game is computed, only the
    live games' values are written: a finished game's fields and stream stay), and on index subsets for
    the rare branches (kicks, chip calls, scores, the toss)."""
    T = _FAST.get("t")
    if T is None:
        T = _FAST["t"] = _build_fast_tables()
    C = _side_codes(config)
    B = s.batch_size
    nd = len(config.defence_faces) ** DICE
    ph = s.phase
    off = s.offence
    rolled = ((a - A.ROLL).view(np.uint64) < 4) & live  # roll, go for it, punt, field goal
    ev = T["action_event"].take(np.where(live, a, A.WAIT))
    packed = None
    if rolled.any():
        if type(_CTX.chance) is CounterChance:
            v = _uniform(s.rng_key, s.rng_counter, _roll_high(config), 1)[:, 0]
            s.rng_counter += rolled
        else:
            v = np.zeros(B, dtype=np.int64)
            gg = np.flatnonzero(rolled)
            v[gg] = _draw(s, gg, _roll_high(config), 1, "roll")[:, 0]
        oi = v // nd
        di = v - oi * nd
        # each side's roll record, one uint64: bytes 0-5 the dice, 6 the count, 7 the top (little-endian:
        # byte k is bits 8k-8k+7); the state's counts and top pairs are written as one uint16 each, its twelve
        # dice as a uint64 (six offence dice, two defence dice) and a uint32 (four defence dice)
        orec = C["off_record"].take(oi)
        drec = C["def_record"].take(di)
        co = (orec >> _S44) & _M70
        co |= orec >> _S56
        cd = (drec >> _S44) & _M70
        cd |= drec >> _S56
        play_roll = (a == A.ROLL) | (a == A.GO_FOR_IT)
        packed = T["roll"].take(((co << _S7) | cd).view(np.int64))
        ev = np.where(play_roll, packed & 63, ev)
        pair = (orec >> _S48) & _MFF
        pair |= (drec >> _S40) & _MFF00
        np.copyto(s.counts.view(_U16)[:, 0], pair, casting="unsafe", where=rolled)
        pair = orec >> _S56
        pair |= (drec >> _S48) & _MFF00
        np.copyto(s.top.view(_U16)[:, 0], pair, casting="unsafe", where=rolled)
        raw = s.dice.reshape(B, 2 * DICE)
        lo = orec & _M48
        lo |= drec << _S48
        np.copyto(raw[:, :8].view(np.uint64)[:, 0], lo, where=rolled)
        np.copyto(raw[:, 8:].view(np.uint32)[:, 0], drec >> _S16, casting="unsafe", where=rolled)
        np.copyto(s.roll_kind, _ROLL_KIND_OF.take(a, mode="clip"), where=rolled)
        np.copyto(s.roll_offence, off, where=rolled)
        np.copyto(s.chip_call, np.int8(NO_CALL), where=rolled)
        s.rolls += rolled
        decided = play_roll & live
        np.copyto(s.roll_winner, ((packed >> 6 & 3) - 1).astype(np.int8), where=decided)
        np.copyto(s.play, ((packed >> 8) - 1).astype(np.int8), where=decided)
        kicks = np.flatnonzero(rolled & ~play_roll)
        if kicks.size:  # the kick's yards, or a fake / a return on six of a kind (rulings 13, 14)
            ak = a[kicks]
            six_tens, six_no_gains = co[kicks] == _SIX_U, cd[kicks] == _SIX_U
            kev = np.where(ak == A.PUNT, E_PUNT, E_KICK) + C["off_y10"].take(oi[kicks])
            ev[kicks] = np.where(six_tens & ~six_no_gains, TOUCHDOWN_SYMBOL,
                                 np.where(six_no_gains & ~six_tens, PICK_SIX, kev))
            s.roll_winner[kicks] = -1
            s.play[kicks] = -1
    gc = np.flatnonzero((ph == CHIP) & live)
    if gc.size:  # the chip call: the winning side's summary code gives the event (ruling 7)
        use = a[gc] == A.USE_CHIP
        holder = s.chip[gc]
        holder_side = (holder != off[gc]).astype(np.int64)
        side = np.where(use, holder_side, 1 - holder_side)
        scode = (s.counts[gc, side].astype(np.int64) << 4) | s.top[gc, side]
        pc = T["win"].take(side * 128 + scode)
        ev[gc] = pc & 63
        s.roll_winner[gc] = (pc >> 6 & 3) - 1
        s.play[gc] = (pc >> 8) - 1
        s.chip_call[gc] = np.where(use, USED, KEPT)
        s.chip[gc] = np.where(use, 1 - holder, holder)
    choice = ((ph == OFFENCE_PLAY) | (ph == DEFENCE_PLAY)) & live
    np.copyto(s.play, (a - A.PLAY_BASE).astype(np.int8), where=choice)
    # the field: one gather of the (node, event) result
    node = s.position.astype(np.int64)
    node //= 5
    node *= 4
    node += s.down
    node -= 1
    node *= 2
    node += s.target == END_ZONE
    node *= N_EVENTS
    node += ev
    res = T["result"].take(node)
    scored = np.flatnonzero((res & (255 << 9)) != 0)
    ended = None
    if scored.size:
        rs = res[scored]
        so = off[scored].astype(np.int64)
        po, pd = rs >> 9 & 15, rs >> 13 & 15
        lv = live[scored]
        s.score[scored, so] += (po * lv).astype(np.int16)
        s.score[scored, 1 - so] += (pd * lv).astype(np.int16)
        target = config.target_score
        won_off = s.score[scored, so] >= target
        over = (won_off | (s.score[scored, 1 - so] >= target)) & lv
        if over.any():
            e = scored[over]
            s.winner[e] = np.where(won_off[over], so[over], 1 - so[over])
            s.terminated[e] = True
            ended = np.zeros(B, dtype=bool)
            ended[e] = True
    going = live if ended is None else live & ~ended
    nn = res & 255
    np.copyto(s.position, T["pos"].take(nn), where=going)
    np.copyto(s.down, T["down"].take(nn), where=going)
    np.copyto(s.target, T["target"].take(nn), where=going)
    flip = (res >> 8 & 1).astype(np.int8)
    flip &= going
    off ^= flip  # (s.offence in place)
    toss = np.flatnonzero((ph == TOSS) & live)
    if toss.size:  # ruling 4: the toss winner picks; the team on defence holds the chip
        tw = s.toss_winner[toss]
        new_off = np.where(a[toss] == A.CHOOSE_DEFENCE, 1 - tw, tw)
        s.offence[toss] = new_off
        s.opener[toss] = new_off
        s.chip[toss] = 1 - new_off
    new_phase = (res >> 17).astype(np.int8)
    s.steps += live
    capped = going & (s.rolls >= config.max_rolls) & (new_phase <= FOURTH_DOWN)  # (SNAP or FOURTH_DOWN)
    if ended is not None or capped.any():
        s.truncated |= capped
        new_phase[capped] = GAME_OVER
        if ended is not None:
            new_phase[ended] = GAME_OVER
    np.copyto(s.phase, new_phase, where=live)
    _refresh_all(s)


def _refresh_all(s: State) -> None:
    """to_act and the legal mask of every game, on whole columns (the same as ``_refresh``). In the toss
    phase the offence is the toss winner (the state's convention), so the offence decides there too."""
    ph = s.phase
    to_act = np.where(ph == CHIP, s.chip, s.offence ^ (ph == DEFENCE_PLAY))
    to_act |= -(ph == GAME_OVER).view(np.int8)  # -1 once over
    s.to_act[:] = to_act
    key = ph.astype(np.intp)
    key <<= 16
    key |= s.top.view(_U16)[:, 0]
    _LEGAL_BY_KEY.take(_LEGAL_KEY.take(key), axis=0, out=s.legal)


def _legal_keys():
    """The legal mask's rows by (phase << 16 | the state's [offence, defence] top pair read as a uint16):
    a map of that key to a row of _LEGAL (the play choices read the deciding side's top bits)."""
    key = np.zeros((GAME_OVER + 1) << 16, dtype=np.int16)
    tops = np.array([[t0, t1] for t0 in range(16) for t1 in range(16)], dtype=np.int8)
    as_u16 = tops.view(_U16)[:, 0].astype(np.intp)
    for ph in range(GAME_OVER + 1):
        bits = tops[:, 0] if ph == OFFENCE_PLAY else tops[:, 1] if ph == DEFENCE_PLAY else np.zeros(256, np.int8)
        key[(ph << 16) | as_u16] = ph * 16 + bits
    return key


_LEGAL_KEY = _legal_keys()
_LEGAL_BY_KEY = _LEGAL


# --- step -------------------------------------------------------------------------------------------------

def step(state: State, actions, config: SportsDiceConfig | None = None, chance=None,
         reuse_input: bool = False) -> State:
    """Apply one action per game and return the new state (the input is not changed, unless
    ``reuse_input``: then the caller gives the state up and it is updated in place).

    ``actions``: int array [batch] (a scalar for a batch of one). Finished games ignore their action.
    Raises IllegalActionError, changing nothing, if any live game's action is illegal.
    """
    config = _config(config)
    a, over = checked_actions(state, actions, A.ACTION_NAMES, _diagram)
    live_mask = ~over
    s = state if reuse_input else state.copy()
    with _CTX.using(config, chance):
        if FAST_PATH and np.little_endian:  # (the table path reads byte fields as wider integers)
            _step_fast(s, a, live_mask, config)
            return s
        live = np.flatnonzero(live_mask)
        _apply(s, live, a[live])
        s.steps[live] += 1
        ph = s.phase[live]
        settled = (ph == SNAP) | (ph == FOURTH_DOWN)
        capped = live[settled & (s.rolls[live] >= config.max_rolls)]
        if capped.size:  # the cap on rolls: truncated with no winner, once the last roll is settled
            s.truncated[capped] = True
            s.phase[capped] = GAME_OVER
        _refresh(s, live)
    return s


def _apply(s: State, live, a) -> None:
    ph = s.phase[live]
    # every branch that ends a roll's business leaves the phase to _next_down; decisions set their own
    s.phase[live] = -1
    toss = ph == TOSS
    if toss.any():  # ruling 4: the toss winner picks; the team on defence holds the chip
        g = live[toss]
        defence = a[toss] == A.CHOOSE_DEFENCE
        tw = s.toss_winner[g]
        s.offence[g] = np.where(defence, 1 - tw, tw)
        s.chip[g] = 1 - s.offence[g]
        s.opener[g] = s.offence[g]
    rolled = (a >= A.ROLL) & (a <= A.FIELD_GOAL)  # both sides roll: one draw each, in game order
    v = np.zeros(a.size, dtype=np.int64)
    if rolled.any():
        v[rolled] = _draw(s, live[rolled], _roll_high(_CTX.config), 1, "roll")[:, 0]
    rolling = (a == A.ROLL) | (a == A.GO_FOR_IT)
    _play_roll(s, live[rolling], v[rolling])
    punt, kick = a == A.PUNT, a == A.FIELD_GOAL
    _punt(s, live[punt], v[punt])
    _field_goal(s, live[kick], v[kick])
    chip = ph == CHIP
    if chip.any():
        _chip_call(s, live[chip], a[chip] == A.USE_CHIP)
    choice = (ph == OFFENCE_PLAY) | (ph == DEFENCE_PLAY)
    if choice.any():
        _apply_play(s, live[choice], a[choice] - A.PLAY_BASE)
    fgc = ph == FIELD_GOAL_CHOICE
    if fgc.any():
        _field_goal_choice(s, live[fgc], a[fgc] == A.TAKE_POINTS)
    done = live[s.phase[live] == -1]  # the roll is settled: the next down's decision
    s.phase[done] = np.where(s.down[done] >= 4, FOURTH_DOWN, SNAP)


def _diagram(state: State, game: int) -> str:
    from .diagram import to_diagram  # lazy: the diagram module imports this one

    return to_diagram(state, game)
