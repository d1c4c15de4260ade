"""What the page is sent: one game as a team may see it, and that team's legal actions described for the
screen (who acts, which square, the cost in die points, a throw's price).

Every view is built from :func:`gridiron_env.core.visibility.team_view` of the viewer (0 or 1, or -1 for
a spectator), never from the raw state: the hidden ball's square during a blind scramble and the other
team's special during the pick are blanked before anything is read, and the random stream never leaves
the server. Squares are absolute code squares (``row * 18 + lane``, row 0 at the top, team one attacking
up); the page turns the picture itself for "offence drives up".
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from gridiron_env.config import GameConfig
from gridiron_env.core import actions as A
from gridiron_env.core.engine import field_goal_distance_for_row
from gridiron_env.core.formations import (
    DEFENCE_FORMATIONS, DEFENCE_MODELS, DEFENCE_SPOTS, OFFENCE_FORMATIONS, OFFENCE_MODELS, OFFENCE_SPOTS,
)
from gridiron_env.core.geometry import (
    DEFENCE_TAGS, DIAGONAL, END_ZONE_DEPTH, FRAME_ROW, N_LANES, N_ROWS, N_SLOTS, NEIGHBOUR, OFFENCE_TAGS, QB,
    TAGS,
)
from gridiron_env.core.odds import field_goal_chance_exact, paper_field_goal_chance, roll_points
from gridiron_env.core.pricing import pass_price
from gridiron_env.core.state import GAME_OVER, PHASE_NAMES, SCRAMBLE, SPECIALS_PICK, State
from gridiron_env.core.visibility import team_view
from gridiron_env.render import DEFAULT_COLOURS, HELMET_COLOURS, WIDE_GROUPS, position_group

SPECTATOR = -1
TEAM_WORDS = ("one", "two")
_MOVE_COST = np.where(DIAGONAL, 2, 1)


def _hex(rgb) -> str:
    return "#" + "".join(f"{int(round(float(c))):02x}" for c in rgb)


def _fraction(f: Fraction) -> dict:
    return {"num": f.numerator, "den": f.denominator, "value": float(f)}


# --------------------------------------------------------------------------------------------- helpers

def _team_of_slot(view: State, slot: int) -> int:
    offence = int(view.offence[0])
    return offence if slot < 11 else 1 - offence


def _speedy(view: State) -> bool:
    return int(view.special[0, int(view.offence[0])]) == A.SPEEDY_QB


def _qb_factor(view: State, slot: int) -> int:
    """The quarterback (slot 0, the offence's) pays double unless his team took Speedy QB (rule 13)."""
    return 2 if slot == QB and not _speedy(view) else 1


def goal_to_go(view: State) -> bool:
    offence = int(view.offence[0])
    return int(FRAME_ROW[offence, int(view.line_to_gain[0]) * N_LANES]) < END_ZONE_DEPTH


def kick_facts(view: State, config: GameConfig) -> dict:
    """The field goal from the LOS as the kick button shows it: yards, in range, and the chance (exact
    in dice mode; in paper mode the reach chance times the answer chance)."""
    offence = int(view.offence[0])
    frame_los = int(FRAME_ROW[offence, int(view.los_row[0]) * N_LANES])
    yards = int(field_goal_distance_for_row(frame_los))
    if config.kick_mode == "dice":
        exact = field_goal_chance_exact(yards)
        chance = {"num": exact.numerator, "den": exact.denominator, "value": float(exact)}
    else:
        chance = {"num": None, "den": None, "value": float(paper_field_goal_chance(yards, config.paper_answer_chance))}
    return {"yards": yards, "in_range": yards <= 80, "mode": config.kick_mode, "chance": chance}


def _push_line(view: State, team: int, carrier_square: int, direction: int) -> tuple[list[int], bool]:
    """The squares of a push's line (rule 16) from the carrier in ``direction`` up to (not including) the
    empty square that ends it, and whether an opponent stands in it."""
    board = view.board[0]
    carrier_team_is_offence = team == int(view.offence[0])
    squares, shove = [], False
    sq = int(NEIGHBOUR[team, carrier_square, direction])
    while sq >= 0 and int(board[sq]) >= 0:
        squares.append(sq)
        occupant = int(board[sq])
        if (occupant < 11) != carrier_team_is_offence:
            shove = True
        sq = int(NEIGHBOUR[team, sq, direction])
    return squares, shove


# --------------------------------------------------------------------------------------------- options

def describe_options(view: State, config: GameConfig) -> list[dict]:
    """Every legal action of the team to act in game 0 of ``view`` (a team's view), described for the
    page: ``id`` and ``name``; ``kind``; ``actor`` (the slot that acts), ``target`` (the square the page
    clicks to choose it: the square moved to, the teammate pushed or thrown to, a gap run's landing
    square), ``cost`` in die points and per kind ``tackle``/``swap``/``pickup``/``blind``, ``shove``,
    ``price`` (a throw's kind, dice on each side and exact chance), ``gain`` (a handoff backwards banks a
    point), ``kick`` (a field goal's yards and chance) or ``rows`` (a punt's target)."""
    if int(view.phase[0]) == GAME_OVER or int(view.to_act[0]) < 0:
        return []
    team = int(view.to_act[0])
    phase = int(view.phase[0])
    holder = int(view.ball_holder[0])
    carrier_square = int(view.player_square[0, holder]) if holder >= 0 else -1
    board = view.board[0]
    out = []
    for a in np.flatnonzero(view.legal[0]):
        a = int(a)
        kind = int(A.ACTION_KIND[a])
        arg = int(A.ACTION_ARG[a])
        opt = {"id": a, "name": A.ACTION_NAMES[a]}
        if kind == A.KIND_END_TURN:
            opt.update(kind="end_turn", cost=0, blind=phase == SCRAMBLE)
        elif kind in (A.KIND_OFFENCE_FORMATION, A.KIND_DEFENCE_FORMATION):
            side = "offence" if kind == A.KIND_OFFENCE_FORMATION else "defence"
            names = OFFENCE_FORMATIONS if side == "offence" else DEFENCE_FORMATIONS
            opt.update(kind="formation", side=side, formation=names[arg], cost=0)
        elif kind == A.KIND_SPECIAL:
            opt.update(kind="special", special=A.SPECIALS[arg], cost=0)
        elif kind == A.KIND_PLAY_ON:
            opt.update(kind="play_on", cost=0)
        elif kind == A.KIND_FIELD_GOAL:
            opt.update(kind="field_goal", cost=0, kick=kick_facts(view, config))
        elif kind == A.KIND_PUNT:
            opt.update(kind="punt", rows=arg, cost=0)
        elif kind == A.KIND_MOVE:
            direction = int(A.ACTION_DIRECTION[a])
            frm = int(view.player_square[0, arg])
            to = int(NEIGHBOUR[team, frm, direction])
            occupant = int(board[to])
            tackle = occupant >= 0 and occupant == holder
            swap = occupant >= 0 and not tackle
            blind = phase == SCRAMBLE
            if blind:
                cost = 0  # a blind step is free (rule 27)
            elif swap:
                cost = 2  # through a weak lineman: 2 flat (rule 14)
            else:
                cost = int(_MOVE_COST[direction]) * _qb_factor(view, arg)
            pickup = (not blind and holder < 0 and not bool(view.ball_hidden[0])
                      and int(view.ball_square[0]) == to)
            opt.update(kind="move", actor=arg, direction=A.DIRECTION_NAMES[direction], target=to, cost=cost,
                       tackle=tackle, swap=swap, blind=blind, pickup=pickup)
        elif kind == A.KIND_PUSH:
            pushed_square = int(view.player_square[0, arg])
            direction = next(d for d in (7, 0, 1) if int(NEIGHBOUR[team, carrier_square, d]) == pushed_square)
            line, shove = _push_line(view, team, carrier_square, direction)
            cost = int(_MOVE_COST[direction]) * _qb_factor(view, holder) * (2 if shove else 1)
            opt.update(kind="push", actor=holder, pushed=arg, target=pushed_square, line=line,
                       direction=A.DIRECTION_NAMES[direction], cost=cost, shove=shove)
        elif kind == A.KIND_GAP:
            lineman_square = int(view.player_square[0, arg])
            landing = 2 * lineman_square - carrier_square  # straight on past the lineman (rule 17)
            cost = 2 * (_qb_factor(view, holder) + 1)
            opt.update(kind="gap", actor=holder, lineman=arg, target=landing, cost=cost)
        elif kind == A.KIND_THROW:
            price = pass_price(view, arg, 0)
            receiver_square = int(view.player_square[0, arg])
            cost = 0 if price.kind == "handoff" else 2
            gain = int(price.kind == "handoff"  # a handoff backwards banks a point, up to the cap of 8
                       and FRAME_ROW[team, receiver_square] > FRAME_ROW[team, carrier_square]
                       and int(view.points[0, team]) < 8)
            opt.update(kind="throw", actor=holder, receiver=arg, target=receiver_square, cost=cost, gain=gain,
                       price={"kind": price.kind, "offence_dice": price.offence_dice,
                              "defence_dice": price.defence_dice, "chance": _fraction(price.chance),
                              "text": str(price)})
        elif kind == A.KIND_FOLLOW:
            opt.update(kind="follow", actor=arg, target=int(view.follow_square[0]), cost=0)
        out.append(opt)
    return out


# --------------------------------------------------------------------------------------------- view

def _name_or_none(names, index: int):
    return names[index] if index >= 0 else None


def view_of(state: State, viewer: int, config: GameConfig, with_options: bool) -> dict:
    """Game 0 of ``state`` as ``viewer`` (0, 1 or -1 a spectator) may see it, as a JSON-ready dict.

    ``with_options``: also list the legal actions (only when ``viewer`` is the team to act)."""
    view = team_view(state, None, viewer)
    g = 0
    phase = int(view.phase[g])
    offence = int(view.offence[g])
    holder = int(view.ball_holder[g])
    over = phase == GAME_OVER
    speedy = _speedy(view)
    players = []
    for slot in range(N_SLOTS):
        sq = int(view.player_square[g, slot])
        if sq < 0:
            continue
        group = position_group(view, g, slot)
        players.append({
            "slot": slot, "tag": TAGS[slot], "team": _team_of_slot(view, slot), "square": sq,
            "row": sq // N_LANES, "lane": sq % N_LANES, "group": group, "wide": group in WIDE_GROUPS,
            "strong": 1 <= slot <= 5 and bool(view.strong[g, slot - 1]),
            "carrier": slot == holder, "star": slot == QB and speedy,
        })
    ball_hidden = bool(view.ball_hidden[g])
    ball_square = int(view.ball_square[g])
    loose = holder < 0 and ball_square >= 0 and not ball_hidden and int(view.board[g, ball_square]) < 0
    dice = view.dice[g].tolist()
    rolled = None
    if int(view.rolls[g]) > 0 and min(min(d) for d in dice) >= 1:
        off_pts, def_pts = roll_points(tuple(dice[offence]), tuple(dice[1 - offence]))
        rolled = [0, 0]
        rolled[offence], rolled[1 - offence] = off_pts, def_pts
    to_act = int(view.to_act[g])
    out = {
        "viewer": viewer,
        "phase": PHASE_NAMES[phase],
        "to_act": to_act,
        "offence": offence,
        "opener": int(view.opener[g]),
        "score": view.score[g].tolist(),
        "overtime": bool(view.overtime[g]),
        "overtime_points": view.overtime_points[g].tolist(),
        "drives": view.drives[g].tolist(),
        "down": int(view.down[g]),
        "los_row": int(view.los_row[g]),
        "los_lane": int(view.los_lane[g]),
        "line_to_gain": int(view.line_to_gain[g]),
        "goal_to_go": goal_to_go(view) if not over else False,
        "distance": abs(int(view.line_to_gain[g]) - int(view.los_row[g])),
        "points": view.points[g].tolist(),
        "dice": dice,
        "rolled": rolled,
        "rolls": int(view.rolls[g]),
        "formations": [_name_or_none(OFFENCE_FORMATIONS, int(view.formation[g, 0])),
                       _name_or_none(DEFENCE_FORMATIONS, int(view.formation[g, 1]))],
        "strong": [bool(x) for x in view.strong[g]],
        "specials": [_name_or_none(A.SPECIALS, int(view.special[g, t])) for t in (0, 1)],
        "specials_secret": phase == SPECIALS_PICK,
        "players": players,
        "ball": {"square": None if ball_hidden or ball_square < 0 else ball_square, "loose": loose,
                 "hidden": ball_hidden, "holder": holder if holder >= 0 else None},
        "forward_pass_used": bool(view.forward_pass_used[g]),
        "lead_blocker_used": [bool(x) for x in view.lead_blocker_used[g]],
        "follow": ({"square": int(view.follow_square[g]), "mover": int(view.follow_mover[g])}
                   if int(view.follow_square[g]) >= 0 else None),
        "scramble_step": int(view.scramble_step[g]),
        "over": over,
        "winner": int(view.winner[g]) if int(view.winner[g]) >= 0 else None,
        "truncated": bool(view.truncated[g]),
        "steps": int(view.steps[g]),
        "kick": None if over or phase == SPECIALS_PICK else kick_facts(view, config),
    }
    out["options"] = describe_options(view, config) if with_options and viewer == to_act else []
    return out


def public_tables(config_limits: dict) -> dict:
    """The fixed facts the page draws with: tags, formations (cards), specials, palette, limits."""
    def cards(names, models, spots, tags):
        return [{"name": n, "title": n.replace("_", " "), "model": models[n],
                 "spots": [{"tag": t, "depth": int(spots[n][t][0]), "lane": int(spots[n][t][1])} for t in tags]}
                for n in names]
    return {
        "tags": list(TAGS), "offence_tags": list(OFFENCE_TAGS), "defence_tags": list(DEFENCE_TAGS),
        "rows": N_ROWS, "lanes": N_LANES, "end_zone_depth": END_ZONE_DEPTH,
        "offence_formations": cards(OFFENCE_FORMATIONS, OFFENCE_MODELS, OFFENCE_SPOTS, OFFENCE_TAGS),
        "defence_formations": cards(DEFENCE_FORMATIONS, DEFENCE_MODELS, DEFENCE_SPOTS, DEFENCE_TAGS),
        "specials": list(A.SPECIALS),
        "helmets": {group: _hex(rgb) for group, rgb in HELMET_COLOURS.items()},
        "jerseys": list(DEFAULT_COLOURS),
        "limits": config_limits,
    }
