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

import threading

import numpy as np

from ..core.chance import CounterChance, _uniform, game_keys, seed_keys
from ..core.engine import IllegalActionError
from . import actions as A
from .config import SportsDiceConfig
from .state import (
    CHIP, DEFENCE_PLAY, DEFENCE_SIDE, DEFENCE_SYMBOLS, DICE, END_ZONE, FIELD_GOAL_CHOICE, FIELD_GOAL_SYMBOL,
    FOURTH_DOWN, GAME_OVER, KEPT, MIDFIELD, NO_CALL, NO_GAIN, OFFENCE_PLAY, OFFENCE_SIDE, OFFENCE_SYMBOLS,
    OWN_25, PICK_SIX, ROLL_KICK, ROLL_PLAY, ROLL_PUNT, SACK, SNAP, State, SYMBOL_NAMES, SYMBOL_SHORT, TEN, TOSS,
    TOUCHDOWN_SYMBOL, TURNOVER, TWENTY, USED,
)

__all__ = ["IllegalActionError", "init", "step", "legal_action_mask", "recompute_legal", "roll_tables",
           "roll_value", "YARDS", "TOUCHDOWN_POINTS", "FIELD_GOAL_POINTS", "SAFETY_POINTS"]

TOUCHDOWN_POINTS, FIELD_GOAL_POINTS, SAFETY_POINTS = 7, 3, 2  # no extra point (ruling 11)
ADVANCE_YARDS = 25  # a FIELD GOAL play at 50 or beyond, not taken as points (ruling 9)
FIELD_GOAL_DEPTH = 10  # a kick must reach the back of the end zone: 10 yards past the goal line (ruling 14)
YARDS = {TEN: 10, TWENTY: 20, NO_GAIN: 0, SACK: -10}  # the plays that move the ball (rulings 9, 10)


class _StepContext(threading.local):
    """The config and chance source of the engine call in progress, one pair per thread."""

    config: SportsDiceConfig | None = None
    chance = None


_CTX = _StepContext()


def _draw(s: State, g, high, count, what):
    return _CTX.chance.draw(s, g, high, count, what)


# --- the roll tables --------------------------------------------------------------------------------------

_TABLES: dict = {}


def _side_table(faces: tuple, symbols: tuple, base: int) -> dict:
    """Every roll of six dice with ``faces`` (names of ``symbols``): the per-roll summary arrays."""
    F = len(faces)
    codes = np.array([symbols.index(f) for f in faces], dtype=np.int8)
    idx = np.arange(F ** DICE, dtype=np.int64)
    digits = np.stack([(idx // F ** (DICE - 1 - k)) % F for k in range(DICE)], axis=1)
    local = codes[digits]  # [n, 6] the side's symbol codes 0-3
    per_symbol = np.stack([(local == k).sum(axis=1) for k in range(4)], axis=1)
    count = per_symbol.max(axis=1)
    top = ((per_symbol == count[:, None]) * (1 << np.arange(4))).sum(axis=1)
    yards = 10 * per_symbol[:, TEN] + 20 * per_symbol[:, TWENTY] if base == 0 else np.zeros(idx.size, np.int64)
    return {"faces": F, "dice": (local + base).astype(np.int8), "per_symbol": per_symbol.astype(np.int8),
            "count": count.astype(np.int8), "top": top.astype(np.int8), "yards": yards.astype(np.int16),
            "six": (per_symbol[:, 0] == DICE)}  # six 10s (offence) / six NO GAINs (defence)


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


def legal_action_mask(state: State) -> np.ndarray:
    """bool [batch, NUM_ACTIONS]: the legal actions of the team to act (all False once a game is over)."""
    return state.legal.copy()


# --- init -------------------------------------------------------------------------------------------------

def init(batch_size: int | None = None, seed: int = 0, config: SportsDiceConfig | None = None,
         seeds=None, chance=None) -> State:
    """A batch of new games: game i draws from the stream of seed + i, or of ``seeds[i]`` when per-game
    seeds are given (then game i equals ``init(1, seeds[i])``). The coin toss (ruling 4) is the first draw
    (0: team one wins it); each game starts in the ``toss`` phase, the toss winner to choose."""
    config = _config(config)
    if seeds is not None:
        keys = seed_keys(seeds)
        if batch_size is not None and batch_size != keys.size:
            raise ValueError(f"batch_size {batch_size} does not match {keys.size} seeds")
        batch_size = keys.size
    if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) or batch_size < 1:
        raise ValueError(f"batch_size must be an int >= 1, got {batch_size!r}")
    s = State.empty(int(batch_size))
    s.rng_key[:] = game_keys(seed, int(batch_size)) if seeds is None else keys
    g = np.arange(s.batch_size)
    _CTX.config, _CTX.chance = config, chance or CounterChance()
    try:
        s.toss_winner[:] = _draw(s, g, 2, 1, "coin toss")[:, 0]
    finally:
        _CTX.chance = None
    s.offence[:] = s.toss_winner
    s.chip[:] = 1 - s.toss_winner
    _refresh(s, g)
    return s


def _config(config):
    if config is None:
        return SportsDiceConfig()
    if not isinstance(config, SportsDiceConfig):
        raise ValueError(f"config must be a SportsDiceConfig, got {type(config).__name__}")
    return config


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

def _roll(s: State, g, kind) -> tuple[np.ndarray, np.ndarray]:
    """Both sides roll all six dice: record the dice and their summaries. Returns the (offence, defence)
    roll indices."""
    off_t, def_t = roll_tables(_CTX.config)
    nd = def_t["faces"] ** DICE
    v = _draw(s, g, off_t["faces"] ** DICE * nd, 1, "roll")[:, 0]
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


def _play_roll(s: State, g) -> None:
    """A normal roll (ruling 7): the higher count wins; equal counts go to the chip holder's decision."""
    if g.size == 0:
        return
    _roll(s, g, ROLL_PLAY)
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

def _kick_roll(s: State, g, kind):
    """A punt or field-goal roll: the offence's kick yards and the fake / return flags (rulings 13, 14);
    the Power Chip never moves."""
    oi, di = _roll(s, g, kind)
    off_t, def_t = roll_tables(_CTX.config)
    six_tens, six_no_gains = off_t["six"][oi], def_t["six"][di]
    fake = six_tens & ~six_no_gains
    ret = six_no_gains & ~six_tens
    off = s.offence[g].astype(np.int64)
    _touchdown(s, g[fake], off[fake])
    _touchdown(s, g[ret], 1 - off[ret])
    plain = ~(fake | ret)
    return g[plain], off_t["yards"][oi[plain]].astype(np.int16), off[plain]


def _punt(s: State, g) -> None:
    g, yards, off = _kick_roll(s, g, ROLL_PUNT)
    spot = s.position[g].astype(np.int16) + yards
    deep = spot >= END_ZONE  # the receiver starts at its own 25
    _new_series(s, g[deep], 1 - off[deep], OWN_25)
    _turnover(s, g[~deep], spot[~deep])


def _field_goal(s: State, g) -> None:
    g, yards, off = _kick_roll(s, g, ROLL_KICK)
    pos = s.position[g].astype(np.int16)
    good = yards >= (END_ZONE - pos) + FIELD_GOAL_DEPTH
    _score(s, g[good], off[good], FIELD_GOAL_POINTS, 1 - off[good])
    miss = ~good
    _turnover(s, g[miss], pos[miss])


# --- step -------------------------------------------------------------------------------------------------

def step(state: State, actions, config: SportsDiceConfig | None = None, chance=None,
         reuse_input: bool = False) -> State:
    """Apply one action per game and return the new state (the input is not changed, unless
    ``reuse_input``: then the caller gives the state up and it is updated in place).

    ``actions``: int array [batch] (a scalar for a batch of one). Finished games ignore their action.
    Raises IllegalActionError, changing nothing, if any live game's action is illegal.
    """
    config = _config(config)
    actions = np.asarray(actions)
    if actions.ndim == 0:
        actions = np.full(state.batch_size, actions)
    if actions.shape != (state.batch_size,) or actions.dtype.kind not in "iu":
        raise ValueError(f"actions must be ints of shape ({state.batch_size},), got {actions.dtype} {actions.shape}")
    over = state.terminated | state.truncated
    live_mask = ~over
    a = actions.astype(np.int64)
    in_space = a.view(np.uint64) < A.NUM_ACTIONS  # negative ids wrap to huge values
    flat = _rows(state.batch_size) + np.where(in_space, a, 0)
    ok = state.legal.reshape(-1).take(flat)
    ok &= in_space
    ok |= over
    if not ok.all():
        bad = int(np.flatnonzero(~ok)[0])
        _raise_illegal(state, bad, int(a[bad]))
    s = state if reuse_input else state.copy()
    _CTX.config, _CTX.chance = config, chance or CounterChance()
    try:
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
    finally:
        _CTX.chance = None
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
    rolling = (a == A.ROLL) | (a == A.GO_FOR_IT)
    _play_roll(s, live[rolling])
    _punt(s, live[a == A.PUNT])
    _field_goal(s, live[a == A.FIELD_GOAL])
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


_ROWS: dict = {}


def _rows(n: int) -> np.ndarray:
    """0, NUM_ACTIONS, 2 NUM_ACTIONS, ...: the flat index of each game's first action in the mask."""
    p = _ROWS.get(n)
    if p is None:
        p = _ROWS[n] = np.arange(n, dtype=np.int64) * A.NUM_ACTIONS
    return p


def _raise_illegal(state: State, game: int, action: int):
    names = [A.ACTION_NAMES[i] for i in np.flatnonzero(state.legal[game])]
    label = A.ACTION_NAMES[action] if 0 <= action < A.NUM_ACTIONS else "(not an action id)"
    from .diagram import to_diagram  # lazy: the diagram module imports this one

    try:
        picture = to_diagram(state, game)
    except Exception:  # the message must not fail because of the picture
        picture = "(diagram unavailable)"
    raise IllegalActionError(
        f"illegal action {label!r} (id {action}) in game {game}; legal actions: {names}\n{picture}",
        game=game, action=action, legal_actions=names)
