"""What one step did, in football words: the events a picture's banner or a caption names.

:func:`play_events` compares a game's position before a step with the position after it (the State keeps
no record of the last play, so both are needed) and returns the events, in this order: scores
(touchdown, field goal, safety), an interception, a completed or incomplete forward pass, a tackle, a
fumble, a recovery, a missed field goal, a first down, a turnover, the final whistle. Each event is a dict
``{"kind": ..., "team": 0/1 or None, "text": ...}``; ``team`` is the team the event is good for (the
scorer, the interceptor's team, the tackler's, the team with the new first down), the one whose colour a
banner wears.

Touchdowns, field goals, safeties, interceptions, fumbles, recoveries, first downs, turnovers and the
final are read from the two positions alone; completions, incompletions, tackles and missed field goals
need the ``action`` too (without it they are not reported). Only what both teams may see is used, so
positions as a spectator sees them (``core.visibility.team_view(state, None, -1)``) give the same events
and the texts never say where a hidden ball lies. Pure Python over numpy fields; no heavy imports.
"""

from __future__ import annotations

from .core import actions as A
from .core.geometry import FRAME_ROW, NEIGHBOUR, TAGS
from .core.state import GAME_OVER, PLAY, SCRAMBLE

__all__ = ["ACTION_EVENT_KINDS", "EVENT_KINDS", "play_events"]

TEAM_WORDS = ("one", "two")
EVENT_KINDS = ("touchdown", "field_goal", "safety", "score", "interception", "complete", "incomplete", "tackle",
               "fumble", "recovery", "no_good", "first_down", "turnover", "final")
ACTION_EVENT_KINDS = ("complete", "incomplete", "tackle", "no_good")  # reported only when the action is given

_SCORES = {7: ("touchdown", "Touchdown! (and the extra point)"), 6: ("touchdown", "Touchdown!"),
           3: ("field_goal", "Field goal!"), 2: ("safety", "Safety!")}


def _check(before, after, action, game: int) -> int:
    g = int(game)
    for name, s in (("before", before), ("after", after)):
        if not 0 <= g < s.batch_size:
            raise ValueError(f"game {game!r} is outside the batch of {s.batch_size} ({name})")
    if action is not None:
        a = int(action)
        if not 0 <= a < A.NUM_ACTIONS:
            raise ValueError(f"action must be an action id 0-{A.NUM_ACTIONS - 1} or None, got {action!r}")
    return g


def play_events(before, after, action=None, game: int = 0) -> list[dict]:
    """The events of game ``game`` between position ``before`` and position ``after`` (the position one
    step later), ``action`` the action id that step took (None: the events the positions alone show)."""
    g = _check(before, after, action, game)
    a = None if action is None else int(action)
    kind = None if a is None else int(A.ACTION_KIND[a])
    team = int(before.to_act[g])  # the team that acted
    b_phase, a_phase = int(before.phase[g]), int(after.phase[g])
    offence = int(after.offence[g])
    events = []
    same_down = (int(after.down[g]) == int(before.down[g]) and offence == int(before.offence[g])
                 and int(after.los_row[g]) == int(before.los_row[g]) and int(after.rolls[g]) >= int(before.rolls[g])
                 and a_phase in (PLAY, SCRAMBLE))
    for t in (0, 1):
        gained = int(after.score[g, t]) - int(before.score[g, t])
        if gained > 0:
            what, words = _SCORES.get(gained, ("score", f"{gained} points"))
            events.append({"kind": what, "team": t, "text": f"{words} Team {TEAM_WORDS[t]}"})
    scored = bool(events)
    holder = int(after.ball_holder[g])
    thrower = int(before.ball_holder[g])
    if b_phase == PLAY and (kind == A.KIND_THROW or kind is None):
        # an interception: the ball goes from a carrier to the other side in the same down (with no action:
        # in the step that threw the play's forward pass, the only way that happens)
        slot = int(A.ACTION_ARG[a]) if kind is not None else thrower
        thrown = kind is not None or (not bool(before.forward_pass_used[g]) and bool(after.forward_pass_used[g]))
        if (thrown and thrower >= 0 and holder >= 0 and holder != slot and same_down
                and (holder < 11) != (slot < 11)):
            events.append({"kind": "interception", "team": offence if holder < 11 else 1 - offence,
                           "text": f"Intercepted by {TAGS[holder]}!"})
        elif kind is not None and thrower >= 0:
            forward = int(FRAME_ROW[team, int(before.player_square[g, slot])]) < int(
                FRAME_ROW[team, int(before.player_square[g, thrower])])
            if forward and holder == slot and same_down:
                events.append({"kind": "complete", "team": team, "text": f"Complete to {TAGS[slot]}"})
            elif forward and not scored and not same_down:
                events.append({"kind": "incomplete", "team": team, "text": "Incomplete pass"})
    if kind == A.KIND_MOVE and b_phase == PLAY:
        mover = int(A.ACTION_ARG[a])
        target = int(NEIGHBOUR[team, int(before.player_square[g, mover]), int(A.ACTION_DIRECTION[a])])
        if thrower >= 0 and target >= 0 and int(before.board[g, target]) == thrower:
            events.append({"kind": "tackle", "team": team, "text": f"{TAGS[mover]} tackles {TAGS[thrower]}"})
    if a_phase == SCRAMBLE and b_phase != SCRAMBLE:
        events.append({"kind": "fumble", "team": team, "text": "Fumble! The ball is loose and hidden"})
    if b_phase == SCRAMBLE and holder >= 0 and not scored and thrower < 0:
        events.append({"kind": "recovery", "team": offence if holder < 11 else 1 - offence,
                       "text": f"{TAGS[holder]} recovers the ball"})
    if kind == A.KIND_FIELD_GOAL and not scored:
        events.append({"kind": "no_good", "team": team, "text": "The field goal is no good"})
    new_series = (a_phase != GAME_OVER and int(after.down[g]) == 1 and offence == int(before.offence[g])
                  and (int(after.los_row[g]) != int(before.los_row[g]) or int(before.down[g]) != 1)
                  and (after.drives[g] == before.drives[g]).all() and not scored)
    if new_series:
        events.append({"kind": "first_down", "team": offence, "text": "First down!"})
    if (offence != int(before.offence[g]) and not scored and a_phase != GAME_OVER
            and not any(e["kind"] == "interception" for e in events)):
        events.append({"kind": "turnover", "team": offence, "text": f"Team {TEAM_WORDS[offence]} takes over"})
    if a_phase == GAME_OVER and b_phase != GAME_OVER:
        w = int(after.winner[g])
        events.append({"kind": "final", "team": w if w >= 0 else None,
                       "text": f"Final: team {TEAM_WORDS[w]} wins" if w >= 0 else "Final: no winner (step cap)"})
    return events

