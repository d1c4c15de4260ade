"""Play Gridiron in the terminal against a bot, or watch two agents play each other.

Usage::

    python -m agents.play                       # you against the shipped bot (else the heuristic)
    gridiron-play --opponent heuristic --team two --target 14
    gridiron-play --opponent bot:path/to/bot.npz --no-specials
    gridiron-play --watch --opponent bot --player heuristic --delay 0.3

Options:

- ``--opponent SPEC``: who plays the other team: ``bot`` (the shipped bot, ``gridiron_env/data/bot.npz``),
  ``bot:PATH`` (a ``.npz`` bot file), ``heuristic``, ``search[:ROLLOUTS]`` (agents.search) or ``random``.
  Default: the shipped bot when its file exists and loads, else the heuristic. ``--temperature T`` makes a bot sample (0 = its best action).
- ``--team one|two|random``: the team you play (team one is shown in UPPER case and attacks up the board).
- ``--watch``: no human: ``--player SPEC`` (default: the same kind as the opponent) takes your seat;
  ``--delay SECONDS`` pauses after every action (default 0).
- ``--seed N`` (0 to 2**64 - 1; default: a random seed, printed so a game can be replayed), ``--target N``
  (points that win, default 21), ``--no-specials`` (no special players).
- The board is turned a half turn (row 30 at the top) whenever you play team two, so your team always
  drives up the screen; ``--no-turn`` never turns it; ``--offence-up`` turns it while team two is on
  offence instead, so the offence always drives up (the rulebook's option).

Everything shown between two answers fits 100 columns by 40 rows: what happened since your last answer
(a team's actions in a row on one line; cut to fit, ``log`` shows it all), a compact board (only the rows
that hold a player, the ball, the LOS or the line to gain; each run of empty rows is one line),
and a page of your numbered legal actions (``n``/``p`` turn the pages; a number may be typed on any page),
grouped: one line of moves per player, each tackle (a move onto the enemy ball carrier) marked
``(tackle)``, each throw with its price (handoff, lateral, or forward pass with the dice on each side and
the exact completion chance). Answer with a number or an action name (case and spaces do not matter:
``move qb n``, ``throw z``, ``punt 9``, ``formation shotgun``; the last words alone do when they name one
legal action: ``qb n``, ``shotgun``). Commands: ``?``/``help``, ``n``, ``p``, ``board``, ``list``, ``log``,
``quit``. Bad input is answered and asked again (bytes the locale cannot decode too); the end of input
ends the game politely.

Exit status: 0 the game ended or was stopped (``quit``, the end of input, stdin closed), 1 an agent broke a
rule, 2 bad options or an unusable bot file (one line on stderr), 130 Ctrl-C, 141 the output pipe was
closed (``| head``), 74 the output could not be written (stdout closed, a full disk); never a traceback.

The engine is driven directly (``gridiron_env.core``); the opponent is any agent of :mod:`agents.base`.
The human sees only what a player may see: during the specials pick the other team's choice stays secret
until both have picked, and a hidden fumbled ball is not shown.
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import os
import secrets
import sys
import textwrap
import time
from pathlib import Path

import numpy as np

from agents.board import tackle_moves_mask
from agents.bot import DEFAULT_LEVEL, LEVELS
from gridiron_env.config import GameConfig
from gridiron_env.core import IllegalActionError, init, pass_price, step
from gridiron_env.core import actions as A
from gridiron_env.core.engine import field_goal_distance_for_row
from gridiron_env.core.geometry import END_ZONE_DEPTH, FRAME_ROW, N_LANES, N_ROWS, N_SLOTS, TAGS
from gridiron_env.core.odds import field_goal_chance, paper_field_goal_chance
from gridiron_env.core.state import GAME_OVER, KICK_DECISION, PHASE_NAMES, PLAY, SCRAMBLE, SPECIALS_PICK
from gridiron_env.core.visibility import team_view

__all__ = ["SHIPPED_BOT", "ActionMenu", "board_lines", "build_menu", "main", "make_agent", "parse_choice",
           "tackle_moves"]

SHIPPED_BOT = Path(importlib.util.find_spec("gridiron_env").submodule_search_locations[0]) / "data" / "bot.npz"
TEAM_NAMES = ("one", "two")
WRAP = 100  # the terminal game fits 100 columns by 40 rows
SCREEN_COLUMNS, SCREEN_ROWS = 100, 40

HELP = """\
How to play: answer with the number of an action (any number of the list, whatever page shows it), or its
  name. Names forgive case and spaces: "move qb n", "throw z", "push rg", "punt 9", "formation shotgun",
  "special speedy_qb", "play on", "field goal", "end turn". The last words alone do when they name
  exactly one legal action: "qb n", "shotgun", "z". Directions are your team's own: N is toward the end
  zone you attack, E is to your right. A move marked (tackle) goes onto the enemy ball carrier.
Commands: n / p (next / previous page of options), board (the board again), list (this page again),
  log (all that happened since your last turn), help or ? (this text), quit (end the game here).
The board: UPPER case is team one, lower case team two. Q quarterback, L lineman, R receiver or back,
  D defensive lineman, B linebacker, S defensive back; @ ball carrier, ! strong lineman, + Speedy QB,
  * loose ball; '::' end zones; '< LOS' line of scrimmage, '< gain' line to gain; '~~ rows 9-14 ~~'
  stands for empty rows. Team one attacks rows 1-3, team two rows 28-30; when you play team two the
  board is turned (row 30 at the top) so you always drive up (--no-turn: never turned)."""


class _ArgError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # raise instead of exiting, so main() answers through print_fn
        raise _ArgError(message)


def _parser() -> _Parser:
    p = _Parser(prog="gridiron-play", add_help=False,
                description="Play Gridiron against a bot in the terminal, or watch a game.")
    p.add_argument("-h", "--help", action="store_true", help="show this help and exit")
    p.add_argument("--opponent", default=None,
                   help="bot | bot:PATH | heuristic | search[:ROLLOUTS] | random (default: the shipped bot if present, "
                        "else heuristic)")
    p.add_argument("--team", default="one", choices=("one", "two", "random"), help="the team you play")
    p.add_argument("--watch", action="store_true", help="watch --player against --opponent (no human)")
    p.add_argument("--player", default=None, help="in --watch, who plays your seat (default: like the opponent)")
    p.add_argument("--delay", type=float, default=0.0, help="in --watch, seconds to pause after each action")
    p.add_argument("--seed", type=int, default=None, help="game seed, 0 to 2**64 - 1 (default: random, printed)")
    p.add_argument("--target", type=int, default=21, help="points that win (1-99)")
    p.add_argument("--no-specials", action="store_true", help="play without special players")
    p.add_argument("--offence-up", action="store_true",
                   help="turn the board while team two is on offence, so the offence attacks up")
    p.add_argument("--no-turn", action="store_true",
                   help="never turn the board (by default it is turned when you play team two, so you drive up)")
    p.add_argument("--temperature", type=float, default=None,
                   help=f"a bot's sampling temperature (0 = best action; default: the bot's {DEFAULT_LEVEL} level)")
    p.add_argument("--level", choices=list(LEVELS), default=None,
                   help="the bot's difficulty: the temperature its file stores for the level (files without "
                        "levels: " + ", ".join(f"{k} {v}" for k, v in LEVELS.items()) + ")")
    return p


# ------------------------------------------------------------------------------------------------ agents

class AgentSpecError(ValueError):
    """An opponent or player spec that cannot be made into an agent (unknown name, bad bot file)."""


def make_agent(spec: str | None, temperature: float = 0.0, notes: list | None = None, level: str | None = None):
    """An agent from a spec: ``bot``, ``bot:PATH``, ``heuristic``, ``random``, or None for the default (the
    shipped bot when its file exists and loads, else the heuristic; ``notes`` gets a line saying which). A
    bot plays at ``level`` (its file's temperature for it) when one is given, else at ``temperature``."""
    if spec is None:
        if SHIPPED_BOT.is_file():
            try:
                return _load_bot(SHIPPED_BOT, temperature, level)
            except AgentSpecError as err:
                if notes is not None:
                    notes.append(f"The shipped bot could not be loaded ({err}); playing the heuristic instead.")
        elif notes is not None:
            notes.append(f"No shipped bot at {SHIPPED_BOT}; playing the heuristic instead.")
        return make_agent("heuristic")
    text = spec.strip()
    kind, _, path = text.partition(":")
    kind = kind.strip().lower()
    if kind == "random" and not path:
        from agents.random_agent import RandomAgent

        return RandomAgent()
    if kind == "heuristic" and not path:
        from agents.heuristic import HeuristicAgent

        return HeuristicAgent()
    if kind == "search":
        from agents.search import make_search_agent

        try:
            return make_search_agent(path)
        except ValueError as err:
            raise AgentSpecError(str(err)) from None
    if kind == "bot":
        if not path.strip():
            if not SHIPPED_BOT.is_file():
                raise AgentSpecError(f"no shipped bot at {SHIPPED_BOT}; give a file (bot:PATH) or use heuristic")
            return _load_bot(SHIPPED_BOT, temperature, level)
        return _load_bot(Path(path.strip()).expanduser(), temperature, level)
    raise AgentSpecError(f"unknown agent {spec!r}: use bot, bot:PATH, heuristic, search[:ROLLOUTS] or random")


def _load_bot(path: Path, temperature: float, level: str | None = None):
    from agents.bot import BotAgent, BotFileError

    if level is None and (temperature < 0 or not np.isfinite(temperature)):
        raise AgentSpecError(f"--temperature must be a number >= 0, got {temperature!r}")
    try:
        agent = BotAgent.load(path, level=level) if level is not None else BotAgent.load(path, temperature=temperature)
    except BotFileError as err:
        raise AgentSpecError(str(err)) from None
    agent.name = "bot" if path == SHIPPED_BOT else f"bot {path.name}"
    return agent


def _agent_action(agent, state, config) -> int:
    try:
        takes_games = "games" in inspect.signature(agent.act).parameters
    except (TypeError, ValueError):
        takes_games = False
    out = agent.act(state, config, games=np.array([0])) if takes_games else agent.act(state, config)
    return int(np.asarray(out).reshape(-1)[0])


def _down_text(state) -> str:
    """"1st & 10", or "& goal" when the line to gain lies in the end zone."""
    down, offence = int(state.down[0]), int(state.offence[0])
    ltg, los = int(state.line_to_gain[0]), int(state.los_row[0])
    ordinal = {1: "1st", 2: "2nd", 3: "3rd"}.get(down, f"{down}th")
    goal = int(FRAME_ROW[offence, ltg * N_LANES]) < END_ZONE_DEPTH
    return f"{ordinal} & {'goal' if goal else abs(ltg - los)}"


# ------------------------------------------------------------------------------------------------ menu

class ActionMenu:
    """The legal actions of the team to act, numbered 1..n in display order, with display lines, grouped
    (``groups``: one list of lines per kind of action or per player's moves; ``lines`` is them all)."""

    def __init__(self, ids: list[int], lines: list[str], groups: list[list[str]] | None = None):
        self.ids = ids  # menu number k -> action id ids[k - 1]
        self.lines = lines
        self.groups = groups if groups is not None else [[line] for line in lines]

    def __len__(self):
        return len(self.ids)

    def text(self) -> str:
        return "\n".join(self.lines)

    def pages(self, size: int) -> list[list[str]]:
        """The lines in pages of at most ``size`` lines (at least 1), a group kept on one page when it fits
        on one; the numbers stay those of the whole list, so any number may be typed on any page."""
        size = max(1, int(size))
        pages: list[list[str]] = [[]]
        for group in self.groups:
            if pages[-1] and len(pages[-1]) + len(group) > size:
                pages.append([])
            for line in group:
                if len(pages[-1]) >= size:
                    pages.append([])
                pages[-1].append(line)
        return pages


def _square_text(square: int) -> str:
    return f"row {square // N_LANES + 1}, lane {square % N_LANES + 1}"


def _slot_square(state, slot: int) -> int:
    return int(state.player_square[0, slot])


def tackle_moves(state, game: int = 0) -> np.ndarray:
    """The legal ``move`` action ids of game ``game`` that are tackles (rule 14, ``agents.board.tackle_moves_mask``):
    in the play phase, a move of a player of the side not holding the ball onto the square of the enemy ball
    carrier. Sorted ids."""
    return np.flatnonzero(tackle_moves_mask(state.take(np.array([int(game)])))[0])


def _price_text(state, slot: int) -> str:
    try:
        price = pass_price(state, slot, game=0)
    except ValueError:
        return ""
    if price.kind != "forward pass":
        return f"{price.kind}: {float(price.chance):.0%}"
    if price.offence_dice == 0:
        return "forward pass, nobody within 3: always caught"
    return f"forward pass {price.offence_dice} v {price.defence_dice}: {float(price.chance):.1%}"


def _field_goal_text(state, config: GameConfig) -> str:
    offence = int(state.offence[0])
    frame_los = int(FRAME_ROW[offence, int(state.los_row[0]) * N_LANES])
    yards = int(field_goal_distance_for_row(frame_los))
    if config.kick_mode == "dice":
        chance = field_goal_chance(yards)
    else:
        chance = paper_field_goal_chance(yards, config.paper_answer_chance)
    return f"{yards} yards: {chance:.1%}"


def _pack(label: str, entries: list[str], indent: int = 6) -> list[str]:
    """One labelled line of entries, wrapped at WRAP characters."""
    head = " " * indent + label + "  "
    lines, line = [], head
    for e in entries:
        if line != head and line.strip() and len(line) + len(e) > WRAP:
            lines.append(line.rstrip())
            line = " " * (indent + 4)
        line += e + "  "
    lines.append(line.rstrip())
    return lines


TACKLE_MARK = "(tackle)"


def build_menu(state, config: GameConfig | None = None) -> ActionMenu:
    """The numbered, grouped list of the legal actions of game 0's team to act (a player's moves on his own
    line, each tackle marked ``(tackle)``), lines at most WRAP (100) characters."""
    config = config or GameConfig()
    legal = np.flatnonzero(state.legal[0])
    kinds = A.ACTION_KIND[legal]
    ids: list[int] = []
    groups: list[list[str]] = []

    def number(a: int) -> str:
        ids.append(int(a))
        return f"[{len(ids)}]"

    def of_kind(kind) -> list[int]:
        return [int(a) for a in legal[kinds == kind]]

    phase = int(state.phase[0])
    for a in of_kind(A.KIND_END_TURN):
        note = "  (decline the blind step)" if phase == SCRAMBLE else ""
        groups.append([f"  {number(a):>5} end turn{note}"])
    for kind, label in ((A.KIND_SPECIAL, "special:"), (A.KIND_OFFENCE_FORMATION, "formation:"),
                        (A.KIND_DEFENCE_FORMATION, "formation:")):
        acts = of_kind(kind)
        if acts:
            groups.append(_pack(label, [f"{number(a)} {A.ACTION_NAMES[a].split(' ', 1)[1]}" for a in acts]))
    for a in of_kind(A.KIND_PLAY_ON):
        groups.append([f"  {number(a):>5} play on"])
    for a in of_kind(A.KIND_FIELD_GOAL):
        groups.append([f"  {number(a):>5} field goal  ({_field_goal_text(state, config)})"])
    punts = of_kind(A.KIND_PUNT)
    if punts:
        groups.append(_pack("punt (rows downfield, lands within 2 rows of it):",
                            [f"{number(a)} punt {int(A.ACTION_ARG[a])}" for a in punts]))
    moves = of_kind(A.KIND_MOVE)
    tackles = set(tackle_moves(state).tolist())
    labels = {}
    for slot in sorted({int(A.ACTION_ARG[a]) for a in moves}):
        sq = _slot_square(state, slot)
        labels[slot] = f"move {TAGS[slot]}" + (f" ({_square_text(sq)})" if sq >= 0 else "") + ":"
    width = max((len(label) for label in labels.values()), default=0)
    for slot, label in labels.items():
        acts = [a for a in moves if int(A.ACTION_ARG[a]) == slot]
        groups.append(_pack(f"{label:<{width}}",
                            [f"{number(a)} {A.DIRECTION_NAMES[int(A.ACTION_DIRECTION[a])]}"
                             + (f" {TACKLE_MARK}" if a in tackles else "") for a in acts]))
    for kind, verb in ((A.KIND_PUSH, "push"), (A.KIND_GAP, "gap")):
        acts = of_kind(kind)
        if acts:
            groups.append(_pack(f"{verb}:", [f"{number(a)} {verb} {TAGS[int(A.ACTION_ARG[a])]}" for a in acts]))
    throws = []
    for a in of_kind(A.KIND_THROW):
        slot = int(A.ACTION_ARG[a])
        sq = _slot_square(state, slot)
        price = _price_text(state, slot)
        throws.append(f"  {number(a):>5} throw {TAGS[slot]}" + (f"  ({price})" if price else "")
                      + (f"  at {_square_text(sq)}" if sq >= 0 else ""))
    if throws:
        groups.append(throws)
    follows = of_kind(A.KIND_FOLLOW)
    if follows:
        groups.append(_pack("follow (Lead Blocker):",
                            [f"{number(a)} follow {TAGS[int(A.ACTION_ARG[a])]}" for a in follows]))
    return ActionMenu(ids, [line for group in groups for line in group], groups)


# ------------------------------------------------------------------------------------------------ input

_NOT_LEGAL = "not legal now; choose one from the list (type 'list' to see it)."


def parse_choice(text: str, menu: ActionMenu, legal: np.ndarray) -> tuple[int | None, str]:
    """Turn one line of input into a legal action id, or (None, the message to show).

    Accepts a menu number, a full action name (``core.action_id``: case and spaces forgiven; anything from
    a "(" on is ignored, so a copied menu line works), or the last words of exactly one legal action's name.
    """
    raw = text.strip()
    if not raw:
        return None, f"Please answer with a number from 1 to {len(menu)} or an action name (? for help)."
    try:
        k = int(raw)
    except ValueError:
        k = None
    if k is not None:
        if 1 <= k <= len(menu):
            return menu.ids[k - 1], ""
        return None, f"{k} is not on the list: choose a number from 1 to {len(menu)} (or type 'list')."
    name = raw.split("(", 1)[0].strip()
    if not name:
        return None, f"{raw!r} is not an action: choose a number from 1 to {len(menu)} or type an action name."
    try:
        a = A.action_id(name)
    except ValueError as err:
        a = None
        unknown_message = str(err)
    if a is not None:
        if legal[a]:
            return a, ""
        return None, f"'{A.ACTION_NAMES[a]}' is {_NOT_LEGAL}"
    words = name.lower().split()
    matches = [int(b) for b in np.flatnonzero(legal) if A.ACTION_NAMES[b].lower().split()[-len(words):] == words]
    if len(matches) == 1:
        return matches[0], ""
    if len(matches) > 1:
        return None, f"{name!r} could be: " + ", ".join(A.ACTION_NAMES[b] for b in matches) + "; say which."
    anywhere = [n for n in A.ACTION_NAMES if n.lower().split()[-len(words):] == words]
    if anywhere:
        shown = ", ".join(f"'{n}'" for n in anywhere[:3]) + (", ..." if len(anywhere) > 3 else "")
        return None, f"{shown} {'is' if len(anywhere) == 1 else 'are'} {_NOT_LEGAL}"
    return None, unknown_message + ". Type a number from the list, or ? for help."


# ------------------------------------------------------------------------------------------------ board

def _lane_ruler(flipped: bool) -> list[str]:
    lanes = list(range(N_LANES, 0, -1)) if flipped else list(range(1, N_LANES + 1))
    tens = "   " + "".join(f"{(n // 10) if n >= 10 else ' '} " for n in lanes)
    units = "   " + "".join(f"{n % 10} " for n in lanes)
    return [tens.rstrip() + "   (lanes)", units.rstrip()]


def _wrap(text: str, width: int = SCREEN_COLUMNS) -> list[str]:
    """``text`` (which may hold newlines) as lines of at most ``width`` characters; a wrapped line goes on
    indented under its own start."""
    out = []
    for line in str(text).split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = " " * min(len(line) - len(line.lstrip()) + 4, width // 2)
        out += textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False) or [""]
    return out


def _header_lines(s) -> list[str]:
    """Three lines over the board: score, down and lines; points, dice and whose turn; specials, strong."""
    phase = int(s.phase[0])
    over = phase == GAME_OVER
    offence, to_act = int(s.offence[0]), int(s.to_act[0])
    one = f"score one {int(s.score[0, 0])} - {int(s.score[0, 1])} two"
    if over:
        winner = int(s.winner[0])
        one += " | final" + (f", team {TEAM_NAMES[winner]} wins" if winner >= 0 else ", no winner (truncated)")
    else:
        one += (f" | {_down_text(s)} | LOS row {int(s.los_row[0]) + 1} | line to gain row "
                f"{int(s.line_to_gain[0]) + 1} | offence team {TEAM_NAMES[offence]}")
    if bool(s.overtime[0]):
        one += f" | overtime {int(s.overtime_points[0, 0])}-{int(s.overtime_points[0, 1])}"
    dice = " ".join(f"{TEAM_NAMES[t]} {int(s.dice[0, t, 0])},{int(s.dice[0, t, 1])}" for t in (0, 1))
    two = (f"points one {int(s.points[0, 0])} two {int(s.points[0, 1])} | dice {dice} | {PHASE_NAMES[phase]}"
           + (f", team {TEAM_NAMES[to_act]} to act" if not over and to_act >= 0 else ""))
    specials = " ".join(f"{TEAM_NAMES[t]} {A.SPECIALS[int(s.special[0, t])] if s.special[0, t] >= 0 else '-'}"
                        for t in (0, 1))
    strong = [TAGS[1 + i] for i in range(5) if bool(s.strong[0, i])]
    three = f"specials {specials} | strong {' '.join(strong) if strong else '-'}"
    if phase == SCRAMBLE and bool(s.ball_hidden[0]):
        three += " | fumble: ball hidden"
    return [one, two, three]


def board_lines(state, turned: bool = False, viewer: int | None = None, ruler: bool = True) -> list[str]:
    """The compact text board of game 0 as ``viewer`` (0/1; None: everything, -1: a spectator) may see it:
    three header lines, a lane ruler, then one line per row that holds a player, the ball, the LOS, the
    line to gain; each run of other (empty) rows is one ``~~ rows a-b ~~`` line (naming any end-zone rows). A row line
    is the row number (1-30), then 18 two-character cells (see HELP) and ``< LOS`` / ``< gain`` marks.
    ``turned``: the half turn (row 30 at the top, lane 18 on the left), so team two attacks up.
    ``ruler``: False leaves the lane ruler out (a screen short of room)."""
    from gridiron_env.render import _ANSI_LETTER, position_group

    s = team_view(state, [0], viewer) if viewer is not None else state.take([0])
    phase = int(s.phase[0])
    over = phase == GAME_OVER
    offence, holder = int(s.offence[0]), int(s.ball_holder[0])
    cells = [["::" if (r < END_ZONE_DEPTH or r >= N_ROWS - END_ZONE_DEPTH) else ". " for _ in range(N_LANES)]
             for r in range(N_ROWS)]
    busy = set()
    ball = int(s.ball_square[0])
    if holder < 0 and ball >= 0 and not bool(s.ball_hidden[0]):
        cells[ball // N_LANES][ball % N_LANES] = "* "
        busy.add(ball // N_LANES)
    speedy = int(s.special[0, offence]) == A.SPEEDY_QB
    for slot in range(N_SLOTS):
        sq = int(s.player_square[0, slot])
        if sq < 0:
            continue
        team = offence if slot < 11 else 1 - offence
        letter = _ANSI_LETTER[position_group(s, 0, slot)]
        letter = letter if team == 0 else letter.lower()
        if slot == holder:
            mark = "@"
        elif 1 <= slot <= 5 and bool(s.strong[0, slot - 1]):
            mark = "!"
        elif slot == 0 and speedy:
            mark = "+"
        else:
            mark = " "
        cells[sq // N_LANES][sq % N_LANES] = letter + mark
        busy.add(sq // N_LANES)
    side = {}
    if not over:
        los, ltg = int(s.los_row[0]), int(s.line_to_gain[0])
        side[los] = "< LOS"
        goal = int(FRAME_ROW[offence, ltg * N_LANES]) < END_ZONE_DEPTH
        side[ltg] = (side[ltg] + ", " if ltg in side else "") + "< gain" + (" (goal)" if goal else "")
        busy |= {los, ltg}
    rows = list(range(N_ROWS - 1, -1, -1)) if turned else list(range(N_ROWS))
    lines = [line for text in _header_lines(s) for line in _wrap(text)] + (_lane_ruler(turned) if ruler else [])
    empty: list[int] = []

    def close_run():
        if len(empty) == 1:
            lines.append(row_line(empty[0]))
        elif empty:
            zone = sorted(r + 1 for r in empty if r < END_ZONE_DEPTH or r >= N_ROWS - END_ZONE_DEPTH)
            note = f" (end zone {zone[0]}-{zone[-1]})" if len(zone) > 1 else (f" (end zone {zone[0]})" if zone else "")
            lines.append(f"   ~~ rows {empty[0] + 1}-{empty[-1] + 1}{note} ~~")  # in the order shown
        empty.clear()

    def row_line(r: int) -> str:
        row_cells = cells[r][::-1] if turned else cells[r]
        line = f"{r + 1:>2} " + "".join(row_cells)
        return (line + " " + side[r]) if r in side else line.rstrip()

    for r in rows:
        if r in busy:
            close_run()
            lines.append(row_line(r))
        else:
            empty.append(r)
    close_run()
    return lines


def board_text(state, offence_up: bool = False, viewer: int | None = None, turned: bool | None = None) -> str:
    """:func:`board_lines` as one text; ``turned`` None: turned while team two is on offence when
    ``offence_up`` (the rulebook's "offence always drives up")."""
    if turned is None:
        turned = bool(offence_up) and int(state.offence[0]) == 1
    return "\n".join(board_lines(state, turned, viewer))


def _direction_hint(team: int, turned: bool) -> str:
    up = (team == 0) != turned
    return (f"Directions are team {TEAM_NAMES[team]}'s own: N is {'up' if up else 'down'} the board "
            f"(toward rows {'1-3' if team == 0 else '28-30'}), E is to its right.")


# ------------------------------------------------------------------------------------------------ events

def _events(before, after, action: int) -> list[str]:
    """What a step changed, in words (never revealing what the state hides)."""
    out = []
    kind = int(A.ACTION_KIND[action])
    scored = not (after.score[0] == before.score[0]).all()
    same_down = (int(after.down[0]) == int(before.down[0]) and int(after.offence[0]) == int(before.offence[0])
                 and int(after.los_row[0]) == int(before.los_row[0]))
    if kind == A.KIND_THROW and not scored:
        slot = int(A.ACTION_ARG[action])
        holder = int(after.ball_holder[0])
        if holder == slot and same_down:
            out.append(f"{TAGS[slot]} has the ball")
        elif holder >= 11 and same_down:
            out.append(f"intercepted by {TAGS[holder]}!")
        elif int(after.phase[0]) != SCRAMBLE:
            out.append("the pass is not caught")
    if kind == A.KIND_FIELD_GOAL and not scored:
        out.append("the field goal is no good")
    for t in (0, 1):
        gained = int(after.score[0, t]) - int(before.score[0, t])
        if gained > 0:
            what = {7: "touchdown and extra point", 6: "touchdown", 3: "field goal", 2: "safety"}.get(gained, "")
            out.append(f"team {TEAM_NAMES[t]} scores {gained}" + (f" ({what})" if what else "")
                       + f": one {int(after.score[0, 0])} - {int(after.score[0, 1])} two")
    if int(after.phase[0]) == SCRAMBLE and int(before.phase[0]) != SCRAMBLE:
        out.append("fumble! the ball is loose: scramble" + (" (the ball is hidden)" if bool(after.ball_hidden[0])
                                                           else ""))
    holder = int(after.ball_holder[0])
    if (int(before.phase[0]) in (PLAY, SCRAMBLE) and int(before.ball_holder[0]) < 0 and holder >= 0 and same_down
            and not scored):
        team = int(after.offence[0]) if holder < 11 else 1 - int(after.offence[0])
        out.append(f"{TAGS[holder]} (team {TEAM_NAMES[team]}) "
                   f"{'recovers' if int(before.phase[0]) == SCRAMBLE else 'picks up'} the ball")
    elif (int(before.phase[0]) == SCRAMBLE and int(after.phase[0]) == PLAY and holder < 0
          and not bool(after.ball_hidden[0]) and int(after.ball_square[0]) >= 0):
        out.append(f"the scramble is over: the ball lies loose at {_square_text(int(after.ball_square[0]))}")
    if int(after.rolls[0]) > 0 and int(after.rolls[0]) != int(before.rolls[0]):
        d = after.dice[0]
        out.append(f"roll: one {int(d[0, 0])},{int(d[0, 1])}  two {int(d[1, 0])},{int(d[1, 1])}"
                   f"  -> points one {int(after.points[0, 0])}, two {int(after.points[0, 1])}")
    over = bool(after.terminated[0] or after.truncated[0])
    if int(after.offence[0]) != int(before.offence[0]) and not over:
        out.append(f"change of possession: team {TEAM_NAMES[int(after.offence[0])]} has the ball")
    if not same_down and not over:
        out.append(f"next: {_down_text(after)}, line of scrimmage row {int(after.los_row[0]) + 1}, "
                   f"team {TEAM_NAMES[int(after.offence[0])]} on offence")
    return out


# ------------------------------------------------------------------------------------------------ game

REPORT_CAP = 12  # lines of play shown over a board at most (the rest on 'log')
MIN_PAGE = 2  # option lines a page holds at least, however tall the board


def _fit(lines: list[str], room: int) -> list[str]:
    """The last lines of play that fit in ``room`` lines, the first of them saying how many are left out."""
    if len(lines) <= room:
        return lines
    if room <= 0:
        return []
    if room == 1:
        return [f"  ({len(lines)} lines of play: type 'log' to see them)"]
    hidden = len(lines) - (room - 1)
    return ([f"  ({hidden} earlier line{'' if hidden == 1 else 's'} of play: type 'log' to see them)"]
            + lines[len(lines) - (room - 1):])


class _Game:
    """One game in the terminal. With a human, everything printed between two answers is one screen of at
    most SCREEN_ROWS lines of at most SCREEN_COLUMNS characters: what happened since the last answer (cut
    to fit, 'log' shows it all), the compact board, and a page of the options."""

    def __init__(self, args, seats, names, human, config, print_fn, input_fn, sleep_fn, flush_fn=None,
                 intro=()):
        self.args = args
        self.seats = seats  # agent per team, None for the human
        self.names = names  # label per team
        self.human = human  # the human's team, or None when watching
        self.config = config
        self._print = print_fn
        self.input = input_fn
        self.sleep = sleep_fn
        self.flush = flush_fn or (lambda: None)
        self.pending: list[str] = list(intro)  # with a human: lines to show over the next board
        self.last_report: list[str] = []
        self._merge: tuple[int, int] | None = None  # (team, index in pending) of a line more actions may join

    def say(self, *texts) -> None:
        """Print, each line wrapped at SCREEN_COLUMNS."""
        for text in texts:
            for line in _wrap(text):
                self._print(line)

    def turned(self, state) -> bool:
        """The board's half turn: while team two is on offence with --offence-up; else always when the
        human plays team two (he drives up), unless --no-turn."""
        if self.args.offence_up:
            return int(state.offence[0]) == 1
        return self.human == 1 and not self.args.no_turn

    def board(self, state, ruler: bool = True) -> list[str]:
        viewer = self.human if self.human is not None else -1  # watching: what a spectator may see
        return board_lines(state, self.turned(state), viewer=viewer, ruler=ruler)

    def take_report(self) -> list[str]:
        report = [line for text in self.pending for line in _wrap(text)]
        self.pending, self._merge = [], None
        if report:
            self.last_report = report
        return report

    def final(self, state, stopped: str | None = None) -> None:
        score = f"one {int(state.score[0, 0])} - {int(state.score[0, 1])} two"
        if stopped:
            for line in self.take_report():
                self._print(line)
            self.say(f"{stopped} Score when the game stopped: {score} (after {int(state.steps[0])} actions).")
            return
        closing = [f"Final score: {score}."]
        winner = int(state.winner[0])
        if winner < 0:
            closing.append(f"No winner: the game was stopped after {int(state.steps[0])} actions (the cap).")
        else:
            who = f"team {TEAM_NAMES[winner]} ({self.names[winner]})"
            if self.human is None:
                closing.append(f"Winner: {who}.")
            elif winner == self.human:
                closing.append(f"Winner: {who}. You win!")
            else:
                closing.append(f"Winner: {who}. You lose.")
        board = self.board(state)
        for line in _fit(self.take_report(), SCREEN_ROWS - len(board) - len(closing)):
            self._print(line)
        for line in board + closing:
            self._print(line)

    def ask(self, state) -> int | None:
        """The human's legal action, or None to stop (quit, end of input)."""
        team = int(state.to_act[0])
        menu = build_menu(state, self.config)
        board = self.board(state)
        report = self.take_report()
        heading = f"Team {TEAM_NAMES[team]} (you) to act, {_phase_text(state)}. Your options"
        status_rows = len(_wrap(heading + " 99/99 (n/p: next/previous page):"))
        room = SCREEN_ROWS - len(board) - status_rows - 1
        if room < MIN_PAGE:  # a board of nearly every row: its lane ruler makes way for the options
            board = self.board(state, ruler=False)
            room = SCREEN_ROWS - len(board) - status_rows - 1
        pages = menu.pages(max(MIN_PAGE, room - min(len(report), REPORT_CAP)))
        page = 0

        def status() -> list[str]:
            more = f" {page + 1}/{len(pages)} (n/p: next/previous page)" if len(pages) > 1 else ""
            return _wrap(heading + more + ":")

        def show(with_report: bool = False) -> None:
            lines = _fit(report, room - len(pages[page])) if with_report else []
            for line in lines + board + status() + pages[page]:
                self._print(line)

        show(with_report=True)
        while True:
            try:
                text = self.input(f"team {TEAM_NAMES[team]}> ")
            except EOFError:
                self._print("")
                self._print("End of input: the game stops here.")
                return None
            if text is None:
                self._print("End of input: the game stops here.")
                return None
            command = text.strip().lower()
            if command in ("?", "help", "h"):
                self.say(HELP, _direction_hint(team, self.turned(state)))
                continue
            if command == "board":
                show()
                continue
            if command in ("list", "options", "ls"):
                for line in status() + pages[page]:
                    self._print(line)
                continue
            if command in ("n", "next", "p", "prev", "previous"):
                step_by = 1 if command in ("n", "next") else -1
                if not 0 <= page + step_by < len(pages):
                    self.say(f"There is no {'next' if step_by > 0 else 'previous'} page: the options have "
                             f"{len(pages)} page{'' if len(pages) == 1 else 's'}.")
                    continue
                page += step_by
                show()
                continue
            if command == "log":
                lines = self.last_report or ["  (nothing has happened yet)"]
                for line in _fit(lines, SCREEN_ROWS - 1):
                    self._print(line)
                continue
            if command in ("quit", "exit", "q"):
                self._print("You quit.")
                return None
            action, message = parse_choice(text, menu, state.legal[0])
            if action is None:
                self.say(message)
                continue
            return action

    def play(self, seed: int) -> int:
        config = self.config
        state = init(1, seed=seed, config=config)
        for agent in self.seats:
            if agent is not None:
                agent.reset(np.array([seed], dtype=np.uint64))  # any seed 0 .. 2**64 - 1
        if self.human is not None:
            self.pending.append(_direction_hint(self.human, self.turned(state)) + " Type ? for help.")
        else:
            self.say(*self.pending)
            self.pending = []
            self.say(*self.board(state))
        while not (state.terminated[0] or state.truncated[0]):
            team = int(state.to_act[0])
            agent = self.seats[team]
            if agent is None:
                action = self.ask(state)
                if action is None:
                    self.final(state, stopped="Game over early.")
                    return 0
            else:
                action = _agent_action(agent, state, config)
            try:
                after = step(state, np.array([action], dtype=np.int64), config=config)
            except IllegalActionError as err:  # an agent's bug: say so plainly
                self.pending.append(f"{self.names[team]} (team {TEAM_NAMES[team]}) chose an illegal action: {err}")
                self.final(state, stopped="The game cannot go on.")
                return 1
            self.report(state, after, team, action)
            state = after
            if self.human is None and self.args.delay > 0:
                self.flush()  # a piped stdout is block-buffered: show the action before the pause
                self.sleep(self.args.delay)
        self.final(state)
        return 0

    def report(self, before, after, team: int, action: int) -> None:
        """What an action did: printed with the board when watching; with a human, kept for the next screen,
        a team's actions in a row on one line until something happens."""
        secret = (self.human is not None and team != self.human
                  and int(A.ACTION_KIND[action]) == A.KIND_SPECIAL and int(after.phase[0]) == SPECIALS_PICK)
        shown = "picks its special (secret until both have picked)" if secret else A.ACTION_NAMES[action]
        who = "you" if team == self.human else self.names[team]
        events = [f"    -> {line}" for line in _events(before, after, action)]
        if int(before.phase[0]) == SPECIALS_PICK and int(after.phase[0]) != SPECIALS_PICK:
            specials = ", ".join(f"team {TEAM_NAMES[t]} {A.SPECIALS[int(after.special[0, t])]}"
                                 for t in (0, 1) if int(after.special[0, t]) >= 0)
            events.append(f"    -> specials: {specials}")
        if self.human is None:
            self.say(f"  team {TEAM_NAMES[team]} ({who}): {shown}", *events, *self.board(after))
            return
        if self._merge is not None and self._merge[0] == team:
            self.pending[self._merge[1]] += f", {shown}"
        else:
            self.pending.append(f"  team {TEAM_NAMES[team]} ({who}): {shown}")
            self._merge = (team, len(self.pending) - 1)
        if events:
            self.pending += events
            self._merge = None


def _phase_text(state) -> str:
    phase = int(state.phase[0])
    if phase == SPECIALS_PICK:
        return "pick your special player"
    if phase == KICK_DECISION:
        return f"{_down_text(state)}: play on or kick"
    if phase == PLAY:
        points = int(state.points[0, int(state.to_act[0])])
        return f"{_down_text(state)}, {points} point{'' if points == 1 else 's'} to spend"
    if phase == SCRAMBLE:
        return "fumble scramble"
    if int(state.to_act[0]) == int(state.offence[0]):
        return f"{_down_text(state)}: choose the offence's formation"
    return f"{_down_text(state)}: choose the defence's formation"


MAX_SEED = 2**64 - 1  # the engine keys a game's stream on its seed modulo 2**64: one seed per key

# Exit codes besides 0 (the game ended or was stopped: quit, end of input), 1 (an agent broke a rule) and
# 2 (bad options, an unusable bot file): Ctrl-C, the reader of a pipe gone (as a shell reports a program
# ended by SIGPIPE), any other failure to write the game out (sysexits EX_IOERR).
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141
EXIT_OUTPUT_ERROR = 74


class _OutputLost(Exception):
    """Standard output is closed, a pipe whose reader is gone, or otherwise unwritable."""

    def __init__(self, message: str, broken_pipe: bool = False):
        super().__init__(message)
        self.broken_pipe = broken_pipe


class _Console:
    """The real terminal, whatever state it is in: stdin or stdout closed (``sys.stdin``/``sys.stdout``
    None), a broken pipe, bytes the locale cannot decode (read as U+FFFD and answered as any unknown
    input) or characters it cannot encode (written escaped). Reading ends in EOFError, writing in
    _OutputLost, never in a traceback."""

    def __init__(self):
        self._ready = False
        self.wrote = False

    def _setup(self) -> None:
        if self._ready:
            return
        self._ready = True
        for stream, errors in ((sys.stdin, "replace"), (sys.stdout, "backslashreplace")):
            try:
                stream.reconfigure(errors=errors)
            except (AttributeError, OSError, ValueError):  # None, closed, or not a TextIOWrapper
                pass

    def _write(self, text: str, flush: bool = False) -> None:
        self._setup()
        stream = sys.stdout
        if stream is None:
            raise _OutputLost("standard output is closed: there is nowhere to show the game")
        self.wrote = True
        try:
            try:
                stream.write(text)
            except UnicodeEncodeError:  # a stream that could not be told to escape
                stream.write(text.encode("ascii", "backslashreplace").decode("ascii"))
            if flush:
                stream.flush()
        except BrokenPipeError:
            raise _OutputLost("the output pipe was closed: the game stops here", broken_pipe=True) from None
        except (OSError, ValueError) as err:  # a full disk, a closed file
            raise _OutputLost(f"cannot write the game out ({err}): the game stops here") from None

    def print(self, *args) -> None:
        self._write(" ".join(str(a) for a in args) + "\n")

    def input(self, prompt: str = "") -> str:
        self._write(prompt, flush=True)
        stream = sys.stdin
        if stream is None:  # started with stdin closed: no input, ever
            raise EOFError
        try:
            line = stream.readline()
        except UnicodeDecodeError:  # a stream that could not be told to replace: the bytes are consumed
            return "\ufffd"
        except (OSError, ValueError):  # closed or unreadable (a hung-up terminal): the end of input
            raise EOFError from None
        if not line:
            raise EOFError
        return line.rstrip("\r\n")

    def flush(self) -> None:
        if self.wrote:
            self._write("", flush=True)

    @staticmethod
    def error(text: str) -> None:
        """One line on stderr, if there is a stderr that takes it."""
        stream = sys.stderr
        if stream is None:
            return
        try:
            stream.write(text + "\n")
            stream.flush()
        except (OSError, ValueError):
            pass

    @staticmethod
    def silence() -> None:
        """Point fd 1 at /dev/null, so the interpreter's own final flush of a lost stdout cannot fail again
        (the recipe of the Python docs' note on SIGPIPE)."""
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (AttributeError, OSError, ValueError):
            pass


def main(argv=None, input_fn=None, print_fn=None, sleep_fn=time.sleep, error_fn=None) -> int:
    """Run the command; returns the exit code: 0 the game ended or was stopped (quit, end of input), 1 an
    agent broke a rule, 2 bad options or an unusable bot file, 130 interrupted (Ctrl-C), 141 the output
    pipe was closed, 74 the output could not be written. ``input_fn``/``print_fn``/``sleep_fn`` stand in
    for the terminal in tests; ``error_fn`` gets the one-line errors (default: ``print_fn`` when one is
    given, else stderr)."""
    given = sys.argv[1:] if argv is None else list(argv)
    if any(isinstance(a, str) and (a == "--game" or a.startswith("--game=")) for a in given):
        from agents.game_play import main as game_main  # --game NAME: any game of the protocol

        return game_main(given, input_fn=input_fn, print_fn=print_fn, error_fn=error_fn)
    console = _Console()
    print_fn = console.print if print_fn is None else print_fn
    input_fn = console.input if input_fn is None else input_fn
    error_fn = error_fn or (console.error if print_fn == console.print else print_fn)
    try:
        try:
            code = _run(argv, input_fn, print_fn, sleep_fn, error_fn,
                        console.flush if print_fn == console.print else None)
        except KeyboardInterrupt:
            print_fn("")
            print_fn("Interrupted: the game stops here.")
            code = EXIT_INTERRUPTED
        console.flush()
        return code
    except _OutputLost as lost:
        console.silence()
        error_fn(f"gridiron-play: {lost}")
        return EXIT_BROKEN_PIPE if lost.broken_pipe else EXIT_OUTPUT_ERROR
    except KeyboardInterrupt:  # a second Ctrl-C while saying so
        return EXIT_INTERRUPTED


def _run(argv, input_fn, print_fn, sleep_fn, error_fn, flush_fn) -> int:
    try:
        args = _parser().parse_args(sys.argv[1:] if argv is None else list(argv))
        if args.seed is not None and not 0 <= args.seed <= MAX_SEED:
            raise _ArgError(f"argument --seed: must be from 0 to 2**64 - 1 = {MAX_SEED}, got {args.seed}")
    except _ArgError as err:
        error_fn(_parser().format_usage().rstrip())
        error_fn(f"gridiron-play: error: {err}")
        return 2
    if args.help:
        print_fn(_parser().format_help().rstrip())
        return 0
    try:
        config = GameConfig(target_score=args.target, specials=not args.no_specials)
    except ValueError as err:
        error_fn(f"gridiron-play: error: {err}")
        return 2
    if args.delay < 0 or not np.isfinite(args.delay):
        error_fn(f"gridiron-play: error: --delay must be a number of seconds >= 0, got {args.delay}")
        return 2
    if args.temperature is not None and (args.temperature < 0 or not np.isfinite(args.temperature)):
        error_fn(f"gridiron-play: error: --temperature must be a number >= 0, got {args.temperature}")
        return 2
    # a bot plays its file's level (the default level unless --level or --temperature says otherwise)
    level = args.level if args.level is not None else (DEFAULT_LEVEL if args.temperature is None else None)
    if args.temperature is None:
        args.temperature = LEVELS[level]
    seed = secrets.randbelow(2**31) if args.seed is None else int(args.seed)
    human = {"one": 0, "two": 1}.get(args.team)
    if human is None:
        human = int(np.random.default_rng(seed).integers(2))
    notes: list[str] = []
    try:
        opponent = make_agent(args.opponent, args.temperature, notes, level)
        if args.watch:
            spec = args.player if args.player is not None else args.opponent
            player = make_agent(spec, args.temperature, [], level)
        else:
            if args.player is not None:
                notes.append("--player is used only with --watch; ignored.")
            player = None
    except AgentSpecError as err:
        error_fn(f"gridiron-play: error: {err}")
        return 2
    seats = [None, None]
    names = ["", ""]
    seats[1 - human], names[1 - human] = opponent, opponent.name
    seats[human], names[human] = player, (player.name if player is not None else "you")
    specials = "with specials" if config.specials else "no specials"
    if args.watch:
        intro = [f"Gridiron: {names[0]} (team one, UPPER case) v {names[1]} (team two, lower case);",
                 f"first to {config.target_score}, {specials}, seed {seed}."]
    else:
        intro = [f"Gridiron: you are team {TEAM_NAMES[human]} ({'UPPER' if human == 0 else 'lower'} case) "
                 f"against {opponent.name};", f"first to {config.target_score}, {specials}, seed {seed}."]
    game = _Game(args, seats, names, None if args.watch else human, config, print_fn, input_fn, sleep_fn,
                 flush_fn, intro=notes + intro)
    return game.play(seed)


if __name__ == "__main__":
    sys.exit(main())
