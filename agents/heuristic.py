"""HeuristicAgent: a scripted player of sensible Gridiron football, vectorised over the batch.

Every call re-plans from the position (one action per game), so a multi-square run is a sequence of
"take the first step of the best plan" decisions. The plans use least-cost maps over the board
(``agents.board.least_cost``: Bellman-Ford relaxations on a [games, 30, 18] grid, diagonal steps cost 2 as in rule 13):

- **threat map** ``T[sq]``: the tackling side's least cost to put a player on ``sq`` (a carrier standing on
  ``sq`` can be tackled this round iff ``T[sq] <= their points``; defenders go through weak linemen, rule 14);
- **reach map** ``R[sq]``: the carrier's least cost to get to ``sq`` (quarterback pays double, rule 13;
  pushes and gap runs as first steps, rules 16-17).

Decisions (all phases; the legal mask ``state.legal`` is the ground truth, a final check falls back to
End turn / the first legal action):

- specials: Speedy QB (or a seeded pick of Speedy QB / Sure Hands);
- formations: by down, distance and field position (jumbo near the goal, shotgun / empty on long yardage,
  i_form on short yardage; nickel / dime against spread sets, goal_line near the own goal, else 4-3);
- kick decision: expected points of field goal, punt (target keeps the ball out of the end zone) and going
  for it (rough conversion chance by distance), with end-of-game needs (a final drive never punts);
- carrying the ball: the best reachable square by (rows gained, safe from a tackle this round, margin,
  banked points, first down if tackled, touchdown); a forward pass when its expected value beats the
  run (chance from the engine's ``pass_dice`` and ``COMPLETION_TABLE``); handoffs / laterals when another
  player's best plan is clearly better; blockers fill the squares a tackle would come from;
- tackling side: always a legal tackle; else the first step of a tackle path within reach; else spend
  points (down to a reserve) moving pursuers toward the carrier, coverers goal-side of dangerous
  receivers while a forward pass is possible, and the rest into the carrier's forward cone;
- fumble scramble: step onto an empty square next to the pile (remembered from visible information only);
  a visible loose ball: the nearest player goes for it.

The agent never reads hidden information: it works on :func:`agents.base.visible_view` copies.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gridiron_env.config import GameConfig
from gridiron_env.core import actions as A
from gridiron_env.core.engine import pass_dice
from gridiron_env.core.formations import DEFENCE_FORMATIONS, OFFENCE_FORMATIONS
from gridiron_env.core.geometry import (
    DEFENDED_END_ZONE, DISTANCE, END_ZONE_DEPTH, FRAME_ROW, N_DIRECTIONS, N_LANES, N_ROWS, NEIGHBOUR,
    SCORING_END_ZONE, SQUARE_LANE, SQUARE_ROW,
)
from gridiron_env.core.odds import COMPLETION_TABLE
from gridiron_env.core.rules import (
    ELIGIBLE_RECEIVER, INTERCEPTION_ONE_IN, MOVE_COST, behind_los, field_goal_chance_for_row, gap_cost, qb_factor,
    throw_kind,
)
from gridiron_env.core.state import (
    DEFENCE_FORMATION, KICK_DECISION, OFFENCE_FORMATION, PLAY, SCRAMBLE, SPECIALS_PICK, State,
)

from .base import GameStreams, visible_view
from .board import (
    BIG, DIRECTIONS, Side, block_entries, gather, least_cost, manhattan, qb_mult, side_of, sources,
    threat_map, weak_linemen,
)

_SALT = 0x4E75_1C0D_5EED_0002
_SLOTS = np.arange(11)
_OFF = {name: i for i, name in enumerate(OFFENCE_FORMATIONS)}
_DEF = {name: i for i, name in enumerate(DEFENCE_FORMATIONS)}


@dataclass
class HeuristicParams:
    """The heuristic's weights (in rows of field position unless said otherwise)."""

    safe_bonus: float = 2.0  # a square the defence cannot reach this round: the play goes on
    margin_weight: float = 0.25  # per point of threat margin beyond their points (capped at 3)
    bank_weight: float = 0.35  # per point left unspent by a safe carrier (capped at 4)
    first_down_bonus: float = 1.5  # tackled on or past the line to gain
    cost_weight: float = 0.01  # tie-break: cheaper plans first
    handoff_gain: float = 0.75  # another carrier's plan must beat the current one by this much
    pass_min_chance: float = 0.5
    pass_margin: float = 0.5  # a pass must beat the run by this much
    lost_down: float = 1.5  # value of an incomplete pass: the down is lost
    interception: float = 12.0  # value lost to an interception
    defence_reserve: int = 3  # the tackling side keeps this many points for next round's tackle range
    behind_weight: float = 0.6  # pursuers: penalty per row behind the carrier
    pursuers: int = 3  # defenders that chase the carrier directly
    cone_width: int = 3  # contain: lanes either side of the carrier
    cone_depth: int = 4  # contain: rows in front of the carrier


# --- the agent -----------------------------------------------------------------------------------------------

class HeuristicAgent:
    """A scripted player (see the module docstring). ``special``: the special player to pick (a name of
    ``gridiron_env.core.actions.SPECIALS``), or None for a seeded pick of Speedy QB / Sure Hands."""

    name = "heuristic"

    def __init__(self, special: str | None = "speedy_qb", params: HeuristicParams | None = None):
        if special is not None and special not in A.SPECIALS:
            raise ValueError(f"special must be one of {A.SPECIALS} or None, got {special!r}")
        self.special = special
        self.params = params or HeuristicParams()
        self.streams = GameStreams()
        self.pile = np.zeros(0, dtype=np.int64)  # last square the ball was seen at (per game), -1 unknown
        self.last_handoff = np.zeros(0, dtype=np.int64)  # game step of this agent's last handoff / lateral

    def reset(self, seeds) -> None:
        self.streams.reset(seeds, _SALT)
        self.pile = np.full(np.asarray(seeds).size, -1, dtype=np.int64)
        self.last_handoff = np.full(np.asarray(seeds).size, -2, dtype=np.int64)

    # The main entry point --------------------------------------------------------------------------------

    def act(self, state: State, config: GameConfig | None = None, games=None) -> np.ndarray:
        config = config or GameConfig()
        batch = state.batch_size
        self.streams.ensure(batch, _SALT)
        if self.pile.size < batch:
            extra = batch - self.pile.size
            self.pile = np.concatenate([self.pile, np.full(extra, -1, dtype=np.int64)])
            self.last_handoff = np.concatenate([self.last_handoff, np.full(extra, -2, dtype=np.int64)])
        games = np.arange(batch) if games is None else np.asarray(games, dtype=np.int64)
        actions = np.zeros(batch, dtype=np.int64)
        live = games[(state.to_act[games] >= 0) & state.legal[games].any(axis=1)]
        if live.size == 0:
            return actions
        view = visible_view(state, live)  # hidden fields blanked: nothing below can read them
        out = np.full(live.size, -1, dtype=np.int64)
        phase = view.phase
        handlers = (
            (SPECIALS_PICK, self._special), (OFFENCE_FORMATION, self._offence_formation),
            (DEFENCE_FORMATION, self._defence_formation), (KICK_DECISION, self._kick), (SCRAMBLE, self._scramble),
        )
        for ph, handler in handlers:
            sub = np.flatnonzero(phase == ph)
            if sub.size:
                out[sub] = handler(view.take(sub), config, live[sub])
        play = np.flatnonzero(phase == PLAY)
        if play.size:
            out[play] = self._play(view.take(play), config, live[play])
        out = self._ensure_legal(view, out)
        self._remember(view, live, out)
        actions[live] = out
        return actions

    @staticmethod
    def _ensure_legal(view: State, out: np.ndarray) -> np.ndarray:
        """The legal mask is the ground truth: an illegal choice becomes End turn, or the first legal action."""
        r = np.arange(view.batch_size)
        ok = (out >= 0) & view.legal[r, np.maximum(out, 0)]
        fallback = np.where(view.legal[:, A.END_TURN], A.END_TURN, np.argmax(view.legal, axis=1))
        return np.where(ok, out, fallback)

    def _remember(self, view: State, games: np.ndarray, out: np.ndarray) -> None:
        """Track the pile for a fumble scramble from what this team sees and does: the visible ball square,
        moved along by this team's own carrier moves, or the receiver of its own throw."""
        seen = view.ball_square >= 0  # -1 while hidden (the view blanks it)
        pile = np.where(seen, view.ball_square, self.pile[games]).astype(np.int64)
        holder = view.ball_holder.astype(np.int64)
        kind = A.ACTION_KIND[out]
        arg = A.ACTION_ARG[out].astype(np.int64)
        r = np.arange(view.batch_size)
        team = np.maximum(view.to_act, 0).astype(np.int64)
        carrier_move = (kind == A.KIND_MOVE) & (arg == holder) & (holder >= 0)
        if carrier_move.any():
            frm = view.player_square[r, np.maximum(arg, 0)].astype(np.int64)
            to = NEIGHBOUR[team, frm, np.maximum(A.ACTION_DIRECTION[out], 0)].astype(np.int64)
            pile = np.where(carrier_move, to, pile)
        to_player = ((kind == A.KIND_THROW) | (kind == A.KIND_PUSH)) & (holder >= 0)
        if to_player.any():
            pile = np.where(to_player, view.player_square[r, np.clip(arg, 0, 21)].astype(np.int64), pile)
        gap = (kind == A.KIND_GAP) & (holder >= 0)
        if gap.any():  # straight on past the lineman (rule 17)
            lineman = view.player_square[r, np.clip(arg, 0, 21)].astype(np.int64)
            pile = np.where(gap, 2 * lineman - view.ball_square.astype(np.int64), pile)
        self.pile[games] = pile

    # Specials and formations -----------------------------------------------------------------------------

    def _special(self, s: State, config, games) -> np.ndarray:
        if self.special is not None:
            return np.full(s.batch_size, A.SPECIAL_BASE + A.SPECIALS.index(self.special), dtype=np.int64)
        coin = self.streams.integers(games, s.steps, 2, k=1)
        return A.SPECIAL_BASE + np.where(coin == 0, A.SPEEDY_QB, A.SURE_HANDS)

    @staticmethod
    def _situation(s: State):
        """(frame row of the LOS for the offence, rows to gain, rows to the goal line)."""
        off = s.offence.astype(np.int64)
        los = FRAME_ROW[off, s.los_row.astype(np.int64) * N_LANES].astype(np.int64)
        gain_row = FRAME_ROW[off, s.line_to_gain.astype(np.int64) * N_LANES].astype(np.int64)
        return los, los - gain_row, los - (END_ZONE_DEPTH - 1)

    def _offence_formation(self, s: State, config, games) -> np.ndarray:
        _, to_gain, to_goal = self._situation(s)
        down = s.down.astype(np.int64)
        coin = self.streams.integers(games, s.steps, 2, k=2)
        name = np.where(down == 1, np.where(coin == 0, _OFF["singleback"], _OFF["pistol"]), _OFF["pro_set"])
        name = np.where(to_gain <= 1, _OFF["i_form"], name)
        long_yardage = (to_gain >= 4) | ((down >= 3) & (to_gain >= 3))
        name = np.where(long_yardage, np.where(to_gain >= 5, _OFF["empty"], _OFF["shotgun"]), name)
        name = np.where(to_goal <= 2, _OFF["jumbo"], name)
        return A.OFFENCE_FORMATION_BASE + name

    def _defence_formation(self, s: State, config, games) -> np.ndarray:
        _, _, to_goal = self._situation(s)
        offence_set = s.formation[:, 0].astype(np.int64)
        name = np.full(s.batch_size, _DEF["four_three"])
        name = np.where(offence_set == _OFF["shotgun"], _DEF["nickel"], name)
        name = np.where(offence_set == _OFF["empty"], _DEF["dime"], name)
        name = np.where((offence_set == _OFF["jumbo"]) | (to_goal <= 3), _DEF["goal_line"], name)
        return A.DEFENCE_FORMATION_BASE + name

    # Kick decision ----------------------------------------------------------------------------------------

    @staticmethod
    def _drive_value(frame_row):
        """Rough expected points of the drive of a team with a first down at ``frame_row`` (its frame);
        measured in heuristic self-play: about 6.5 at the goal line, 3.1 at the kickoff spot."""
        return 6.5 - 0.19 * (np.asarray(frame_row, dtype=np.float64) - END_ZONE_DEPTH)

    def _kick(self, s: State, config: GameConfig, games) -> np.ndarray:
        """Expected points of field goal, punt and going for it; every possession change hands the other
        team a drive (worth ``_drive_value`` of where it starts)."""
        los, to_gain, to_goal = self._situation(s)
        legal = s.legal
        ev = self._drive_value
        after_score = ev(21)  # the other team then receives at its kickoff spot (rule 4)
        opp_at_los = ev(N_ROWS - 1 - los)  # the other team takes over here
        # field goal
        p_fg = field_goal_chance_for_row(los, config)
        ev_fg = p_fg * (3.0 - after_score) - (1 - p_fg) * opp_at_los
        # going for it: a rough conversion chance by rows to gain (heuristic self-play: about 55% on 4th
        # and 1, 30-35% on 4th and 3); goal to go, converting is the touchdown
        p_conv = np.select([to_gain <= 1, to_gain == 2, to_gain == 3, to_gain == 4], [0.55, 0.45, 0.35, 0.3], 0.2)
        goal_to_go = to_goal <= to_gain
        converted = np.where(goal_to_go, 7.0, ev(los - to_gain - 1)) - after_score
        ev_go = p_conv * converted - (1 - p_conv) * opp_at_los
        ev_go = np.where(s.down < 4, np.inf, ev_go)  # downs left: never kick before 4th down
        # punt: land outside the end zone (target = rows to the goal line - 3, capped by the longest punt)
        rows = np.clip(to_goal - 3, 1, config.longest_punt)
        land = los - rows
        ev_punt = -ev(N_ROWS - 1 - np.maximum(land, END_ZONE_DEPTH))
        # the last drive of the game (rule 28): never punt; compare chances of winning instead
        need = self._points_needed(s, config)
        final = need > 0
        win_fg = np.where(need <= 3, p_fg, np.where(need == 4, 0.5 * p_fg, 0.0))  # a tie goes to overtime
        win_go = np.where(s.down < 4, 1.0, 0.6 * p_conv)
        ev_fg = np.where(final, win_fg, ev_fg)
        ev_go = np.where(final, win_go, ev_go)
        ev_punt = np.where(final, -1.0, ev_punt)
        choice = np.full(s.batch_size, A.PLAY_ON, dtype=np.int64)
        best = ev_go.copy()
        fg_ok = legal[:, A.FIELD_GOAL] & (ev_fg > best)
        choice = np.where(fg_ok, A.FIELD_GOAL, choice)
        best = np.where(fg_ok, ev_fg, best)
        punt_id = A.PUNT_BASE + rows - 1
        punt_ok = legal[np.arange(s.batch_size), punt_id] & (ev_punt > best)
        return np.where(punt_ok, punt_id, choice)

    @staticmethod
    def _points_needed(s: State, config: GameConfig) -> np.ndarray:
        """Points the offence needs on this drive when it is its last (rule 28: the other team reached the
        target and this is the owed drive), else 0."""
        off = s.offence.astype(np.int64)
        r = np.arange(s.batch_size)
        opener = s.opener.astype(np.int64)
        last = ~s.overtime & (off != opener) & (s.score[r, opener] >= config.target_score)
        deficit = s.score[r, 1 - off].astype(np.int64) - s.score[r, off].astype(np.int64)
        return np.where(last, np.maximum(deficit, 0) + 1, 0)

    # Fumble scramble and loose balls ------------------------------------------------------------------------

    def _scramble(self, s: State, config, games) -> np.ndarray:
        """One blind step: onto an empty square next to the remembered pile; else a step toward it."""
        side = side_of(s)
        m = s.batch_size
        pile = self.pile[games]
        known = pile >= 0
        t = side.targets  # [m, 11, 8]
        near = known[:, None, None] & (t >= 0) & side.move_legal & (
            DISTANCE[np.maximum(t, 0), np.maximum(pile, 0)[:, None, None]] == 1)
        out = np.full(m, A.END_TURN, dtype=np.int64)
        flat = near.reshape(m, -1)
        has = flat.any(axis=1)
        out[has] = side.move_ids.reshape(m, -1)[has, np.argmax(flat[has], axis=1)]
        # otherwise the player nearest the pile steps toward it (ready for the visible ball)
        rest = known & ~has
        if rest.any():
            dist_now = DISTANCE[np.maximum(side.squares, 0), np.maximum(pile, 0)[:, None]].astype(np.int64)
            dist_next = DISTANCE[np.maximum(t, 0), np.maximum(pile, 0)[:, None, None]].astype(np.int64)
            gain = np.where(side.move_legal, dist_now[:, :, None] - dist_next, -1)
            score = np.where(gain > 0, 100 - dist_next, -BIG).reshape(m, -1)
            ok = rest & (score.max(axis=1) > -BIG)
            out[ok] = side.move_ids.reshape(m, -1)[ok, np.argmax(score[ok], axis=1)]
        return out

    def _loose_ball(self, s: State, side: Side, games) -> np.ndarray:
        """A visible loose ball: the move that brings a player onto it soonest (picking it up if he can)."""
        m = s.batch_size
        ball = s.ball_square.astype(np.int64)
        dist = least_cost(sources(m, ball[:, None]), side.empty, 1, 12)
        return _best_approach(side, dist, np.zeros(m, dtype=np.int64))

    # The play ------------------------------------------------------------------------------------------------

    def _play(self, s: State, config, games) -> np.ndarray:
        side = side_of(s)
        out = np.full(s.batch_size, A.END_TURN, dtype=np.int64)
        holder = s.ball_holder.astype(np.int64)
        holder_team = np.where(holder < 0, -1, np.where(holder < 11, s.offence, 1 - s.offence))
        mine = (holder >= 0) & (holder_team == side.team)
        theirs = (holder >= 0) & (holder_team != side.team)
        loose = (holder < 0) & (s.ball_square >= 0)
        for mask, fn in ((mine, self._carry), (theirs, self._tackle), (loose, self._loose_ball)):
            sub = np.flatnonzero(mask)
            if sub.size:
                sv = s.take(sub)
                out[sub] = fn(sv, side_of(sv), games[sub])
        return out

    # Carrying the ball ----------------------------------------------------------------------------------------

    def _carry(self, s: State, side: Side, games) -> np.ndarray:
        p = self.params
        carrier = s.ball_holder.astype(np.int64)
        csq = s.ball_square.astype(np.int64)
        threat = threat_map(side, csq, int(min(side.opp_points.max(), 8)) + 4)
        plan = self._run_plan(s, side, threat, carrier, csq, side.points)
        out = plan["first_action"].copy()
        value = plan["value"]

        # Another carrier (handoff or lateral) when his plan is clearly better (never cycles: strict gain).
        hand = self._handoff_choice(s, side, threat, carrier, csq, value)
        use = (hand[0] >= 0) & (self.last_handoff[games] != s.steps - 1)  # never two in a row
        self.last_handoff[games[use]] = s.steps[use]
        out[use] = hand[0][use]
        value = np.where(use, hand[1], value)

        # A forward pass when its expected value beats the run.
        throw, throw_value = self._pass_choice(s, side, threat, csq, carrier)
        use = (throw >= 0) & (throw_value > value + p.pass_margin)
        out[use] = throw[use]

        # Nothing worth running: fill the squares a tackle would come from, else end the turn (bank).
        stay = out == A.END_TURN
        if stay.any():
            block = block_entries(side, threat, csq)
            out = np.where(stay & (block >= 0), block, out)
        return out

    def _run_plan(self, s: State, side: Side, threat, carrier, csq, points) -> dict:
        """The carrier's best reachable square and the first action toward it."""
        m = s.batch_size
        r = np.arange(m)
        mult = qb_factor(s, r, carrier)
        first_sq, first_cost, first_id = self._first_steps(s, side, carrier, csq, mult)
        start = sources(m, np.concatenate([csq[:, None], first_sq], axis=1),
                         np.concatenate([np.zeros((m, 1), dtype=np.int64), first_cost], axis=1))
        pmax = int(points.max()) if m else 0
        reach = least_cost(start, side.empty, mult, pmax)
        value = self._square_values(s, side, threat, reach, points)
        target = np.argmax(value, axis=1)
        best = value[r, target]
        stay_value = value[r, csq]
        go = (target != csq) & (best > stay_value)
        first_action = np.full(m, A.END_TURN, dtype=np.int64)
        if go.any():
            g = np.flatnonzero(go)
            enter = side.empty[g].copy()
            back = least_cost(sources(g.size, target[g][:, None]), enter, mult[g], pmax)
            # the cost to the target from each first-step square (occupied ones: one step from a neighbour)
            fsq = first_sq[g]
            nb = NEIGHBOUR[0, np.maximum(fsq, 0)].astype(np.int64)  # [k, f, 8] absolute neighbours
            via = gather(back, nb.reshape(g.size, -1)).reshape(nb.shape) + MOVE_COST[None, None, :] * mult[g][:, None, None]
            via = np.where(nb >= 0, via, BIG).min(axis=2)
            to_target = np.where(fsq == target[g][:, None], 0, np.minimum(gather(back, fsq), via))
            total = np.where(fsq >= 0, first_cost[g] + to_target, BIG)
            k = np.argmin(total, axis=1)
            ok = total[np.arange(g.size), k] <= points[g]
            first_action[g[ok]] = first_id[g, k][ok]
        return {"value": np.where(go, best, stay_value), "target": target, "first_action": first_action,
                "reach": reach}

    def _first_steps(self, s: State, side: Side, carrier, csq, mult):
        """The carrier's legal first actions: 8 moves, pushes and gap runs, as (landing square, cost, id)
        [m, 8 + 11 + 5]; -1 squares where not legal."""
        m = s.batch_size
        r = np.arange(m)
        team = side.team
        legal = s.legal
        # moves
        move_to = NEIGHBOUR[team[:, None], csq[:, None], DIRECTIONS[None, :]].astype(np.int64)
        move_id = A.MOVE_BASE + carrier[:, None] * N_DIRECTIONS + DIRECTIONS[None, :]
        move_ok = legal[r[:, None], move_id] & side.empty[r[:, None], np.maximum(move_to, 0)] & (move_to >= 0)
        move_cost = MOVE_COST[None, :] * mult[:, None]
        # pushes: the carrier steps into the pushed teammate's square (rule 16)
        push_id = A.PUSH_BASE + side.slots
        push_ok = legal[r[:, None], push_id]
        push_to = side.squares
        diag = (SQUARE_ROW[np.maximum(push_to, 0)] != SQUARE_ROW[csq][:, None]) & (
            SQUARE_LANE[np.maximum(push_to, 0)] != SQUARE_LANE[csq][:, None])
        push_cost = np.where(diag, 2, 1) * mult[:, None]
        # gap runs: two squares straight past a strong lineman (rule 17)
        gap_id = A.GAP_BASE + np.broadcast_to(np.arange(5), (m, 5))
        gap_ok = legal[r[:, None], gap_id]
        line_sq = s.player_square[:, 1:6].astype(np.int64)
        gap_to = 2 * line_sq - csq[:, None]
        run_cost = np.broadcast_to(gap_cost(s, r, carrier)[:, None], (m, 5))
        squares = np.concatenate([np.where(move_ok, move_to, -1), np.where(push_ok, push_to, -1),
                                  np.where(gap_ok, gap_to, -1)], axis=1)
        costs = np.concatenate([move_cost, push_cost, run_cost], axis=1)
        ids = np.concatenate([move_id, push_id, gap_id], axis=1)
        return squares, costs, ids

    def _square_values(self, s: State, side: Side, threat, reach, points) -> np.ndarray:
        """Value (in rows) of ending this turn with the carrier on each square; -inf where unreachable."""
        p = self.params
        team = side.team
        frame = side.frame
        opp = side.opp_points[:, None]
        safe = threat > opp
        margin = np.clip(threat - opp, 0, 3)
        left = np.clip(points[:, None] - reach, 0, 4)
        snap_offence = (side.base == 0)[:, None]
        gain_row = FRAME_ROW[team, s.line_to_gain.astype(np.int64) * N_LANES][:, None]
        first_down = snap_offence & (frame <= gain_row)
        value = -frame + np.where(safe, p.safe_bonus + p.margin_weight * margin + p.bank_weight * left,
                                  np.where(first_down, p.first_down_bonus, 0.0))
        value = value - p.cost_weight * reach
        value = np.where(SCORING_END_ZONE[team], 1000.0 - reach, value)
        value = np.where(DEFENDED_END_ZONE[team] & ~safe, -500.0, value)
        return np.where(reach <= points[:, None], value, -np.inf)

    def _handoff_choice(self, s: State, side: Side, threat, carrier, csq, value):
        """(throw action or -1, its value): a handoff or lateral to a teammate whose own best plan beats
        the carrier's by ``handoff_gain``. Checked when the carrier is a slow quarterback or has no safe
        square to go to."""
        p = self.params
        m = s.batch_size
        r = np.arange(m)
        out = np.full(m, -1, dtype=np.int64)
        out_value = np.full(m, -np.inf)
        slow_qb = qb_factor(s, r, carrier) == 2
        boxed = value < -side.frame[r, csq] + p.safe_bonus - 0.01  # no safe square that keeps the ground
        ask = np.flatnonzero(slow_qb | boxed)
        if ask.size == 0:
            return out, out_value
        team = side.team[ask]
        rsq = side.squares[ask]  # [k, 11]
        csq_a = csq[ask]
        throw_id = A.THROW_BASE + side.slots[ask]
        ok = s.legal[ask[:, None], throw_id] & ELIGIBLE_RECEIVER[None, :]
        kind = throw_kind(s, ask, team[:, None], csq_a[:, None], rsq)  # 0 handoff, 1 lateral, 2 forward pass
        handoff = ok & (kind == 0)
        behind = behind_los(s, ask, team, csq_a)
        lateral = ok & (kind == 1) & (DISTANCE[np.maximum(rsq, 0), csq_a[:, None]] <= 4) & behind[:, None]
        cand = handoff | lateral
        gi, si = np.nonzero(cand)
        if gi.size == 0:
            return out, out_value
        # each candidate carrier's own plan, as a batch of (game, receiver) pairs
        games = ask[gi]
        sub = s.take(games)
        rslot = side.slots[games, si]
        back = FRAME_ROW[side.team[games], side.squares[games, si]] > FRAME_ROW[side.team[games], csq[games]]
        pts = side.points[games] + np.where(handoff[gi, si], np.where(back, 1, 0), -2)
        pts = np.clip(pts, 0, 8)
        sub.ball_holder[:] = rslot
        sub.ball_square[:] = side.squares[games, si]
        sub.points[np.arange(games.size), side.team[games]] = pts
        sub.legal[:] = False  # only plain moves are planned for the new carrier
        sub_side = side_of(sub)
        mult = qb_factor(sub, np.arange(games.size), rslot)
        new_sq = sub.ball_square.astype(np.int64)
        reach = least_cost(sources(games.size, new_sq[:, None]), sub_side.empty, mult, int(pts.max()))
        # the new carrier's own square is a tackle target too: one step from the cheapest neighbour
        cand_threat = threat[games].copy()
        nb = NEIGHBOUR[0, new_sq].astype(np.int64)
        via = np.where(nb >= 0, gather(cand_threat, nb) + MOVE_COST[None, :], BIG).min(axis=1)
        cand_threat[np.arange(games.size), new_sq] = via
        v = self._square_values(sub, sub_side, cand_threat, reach, pts).max(axis=1)
        v = np.where(lateral[gi, si], v - 0.05 * 10, v)  # a lateral may be dropped (1 in 100 / 1 in 20)
        better = v > value[games] + p.handoff_gain
        order = np.lexsort((-v, games))  # per game, the best candidate first
        seen = np.zeros(m, dtype=bool)
        for j in order:
            g = games[j]
            if better[j] and not seen[g]:
                out[g] = A.THROW_BASE + rslot[j]
                out_value[g] = v[j]
                seen[g] = True
        return out, out_value

    def _pass_choice(self, s: State, side: Side, threat, csq, carrier):
        """(best forward pass action or -1, its expected value in rows) (rules 18-20)."""
        p = self.params
        m = s.batch_size
        r = np.arange(m)
        out = np.full(m, -1, dtype=np.int64)
        best = np.full(m, -np.inf)
        team = side.team
        los_frame = FRAME_ROW[team, s.los_row.astype(np.int64) * N_LANES].astype(np.int64)
        can = (side.base == 0) & ~s.forward_pass_used & behind_los(s, r, team, csq) & (side.points >= 2)
        if not can.any():
            return out, best
        hawk = s.special[r, 1 - team] == A.BALL_HAWK
        pick = 1 / np.where(hawk, INTERCEPTION_ONE_IN[1], INTERCEPTION_ONE_IN[0])
        fail = -los_frame - p.lost_down
        for slot in np.flatnonzero(ELIGIBLE_RECEIVER):
            rsq = side.squares[:, slot]
            ok = can & s.legal[r, A.THROW_BASE + side.slots[:, slot]] & (rsq >= 0) & (
                throw_kind(s, r, team, csq, rsq) == 2)
            g = np.flatnonzero(ok)
            if g.size == 0:
                continue
            off, dfn = pass_dice(s, g, side.slots[g, slot])
            chance = np.where(off == 0, 1.0, COMPLETION_TABLE[np.minimum(off, 8), np.minimum(dfn, 40)])
            rs = rsq[g]
            safe = threat[g, rs] > side.opp_points[g]
            left = np.clip(side.points[g] - 2, 0, 6)
            caught = -side.frame[g, rs] + np.where(safe, p.safe_bonus + 0.4 * left, 0.3 * left)
            caught = np.where(SCORING_END_ZONE[team[g], rs], 1000.0, caught)
            ev = chance * caught + (1 - chance) * (fail[g] - pick[g] * p.interception)
            ev = np.where(chance >= p.pass_min_chance, ev, -np.inf)
            better = ev > best[g]
            best[g[better]] = ev[better]
            out[g[better]] = A.THROW_BASE + side.slots[g[better], slot]
        return out, best

    # The tackling side -----------------------------------------------------------------------------------------

    def _tackle(self, s: State, side: Side, games) -> np.ndarray:
        p = self.params
        m = s.batch_size
        r = np.arange(m)
        csq = s.ball_square.astype(np.int64)
        out = np.full(m, A.END_TURN, dtype=np.int64)
        t = side.targets
        cost = MOVE_COST[None, None, :] * qb_mult(s, side.slots)[:, :, None]
        swap = side.move_legal & (t >= 0) & (s.board[r[:, None, None], np.maximum(t, 0)] >= 0) & (
            t != csq[:, None, None])
        cost = np.where(swap, 2, cost)

        # 1. a legal tackle: always take it (the cheapest)
        tackle = side.move_legal & (t == csq[:, None, None])
        tk = np.where(tackle, cost, BIG).reshape(m, -1)
        has = tk.min(axis=1) < BIG
        out[has] = side.move_ids.reshape(m, -1)[has, np.argmin(tk[has], axis=1)]
        rest = ~has
        if not rest.any():
            return out

        # 2. a tackle within reach this turn: the first step of the cheapest path
        swap_sq = weak_linemen(s, side.base == 11)
        dist = least_cost(sources(m, csq[:, None]), side.empty, 1, 14, swap_sq)
        after = gather(dist, t.reshape(m, -1)).reshape(t.shape)
        total = np.where(side.move_legal & (t >= 0), cost + after, BIG)
        flat_total = total.reshape(m, -1)
        k = np.argmin(flat_total, axis=1)
        reach = rest & (flat_total[r, k] <= side.points)
        out[reach] = side.move_ids.reshape(m, -1)[reach, k[reach]]
        rest &= ~reach
        if not rest.any():
            return out

        # 3. positioning, spending down to a reserve
        g = np.flatnonzero(rest & (side.points > p.defence_reserve))
        if g.size:
            out[g] = self._position(s.take(g), side_of(s.take(g)), dist[g], cost[g])
        return out

    def _position(self, s: State, side: Side, dist, cost) -> np.ndarray:
        """Pursue, cover and contain: the move that lowers its player's role potential most per point."""
        p = self.params
        m = s.batch_size
        r = np.arange(m)
        csq = s.ball_square.astype(np.int64)
        holder = s.ball_holder.astype(np.int64)
        carrier_team = 1 - side.team
        cframe = FRAME_ROW[carrier_team].astype(np.int64)  # the carrier's frame: smaller = nearer his goal
        t = side.targets
        sq = np.maximum(side.squares, 0)
        # each defender's cost to the carrier now: one step from a neighbour
        nb_cost = gather(dist, t.reshape(m, -1)).reshape(t.shape) + cost
        here = np.where(t >= 0, nb_cost, BIG).min(axis=2)  # [m, 11]
        here = np.minimum(here, 20 + DISTANCE[sq, csq[:, None]])
        nxt = np.minimum(gather(dist, t.reshape(m, -1)).reshape(t.shape), 20 + DISTANCE[np.maximum(t, 0), csq[:, None, None]])
        behind_here = np.maximum(0, cframe[r[:, None], sq] - cframe[r, csq][:, None])
        behind_next = np.maximum(0, cframe[r[:, None, None], np.maximum(t, 0)] - cframe[r, csq][:, None, None])
        pursue_here = here + p.behind_weight * behind_here
        pursue_next = nxt + p.behind_weight * behind_next

        # roles: the nearest defenders pursue; others cover receivers while a pass is possible, else contain
        rank = np.argsort(np.argsort(here, axis=1, kind="stable"), axis=1, kind="stable")
        pursuer = rank < p.pursuers
        los_frame = cframe[r, s.los_row.astype(np.int64) * N_LANES]
        pass_live = (side.base == 11) & ~s.forward_pass_used & (cframe[r, csq] > los_frame)
        cover_sq = self._cover_targets(s, side, pursuer, pass_live, carrier_team, holder)  # [m, 11], -1 none
        cover = cover_sq >= 0
        cover_here = manhattan(sq, np.maximum(cover_sq, 0))
        cover_next = manhattan(np.maximum(t, 0), np.maximum(cover_sq, 0)[:, :, None])
        cover_here = np.maximum(cover_here - 1, 0)
        cover_next = np.maximum(cover_next - 1, 0)
        # contain: into the cone in front of the carrier
        cone_here = self._cone_gap(sq, csq[:, None], carrier_team[:, None])
        cone_next = self._cone_gap(np.maximum(t, 0), csq[:, None, None], carrier_team[:, None, None])

        pot_here = np.where(pursuer, pursue_here, np.where(cover, cover_here, cone_here))[:, :, None]
        pot_next = np.where(pursuer[:, :, None], pursue_next,
                            np.where(cover[:, :, None], cover_next, cone_next))
        weight = np.where(pursuer, 1.2, np.where(cover, 1.0, 0.6))[:, :, None]
        gain = (pot_here - pot_next) / cost * weight
        affordable = side.move_legal & (t >= 0) & (side.points[:, None, None] - cost >= p.defence_reserve)
        gain = np.where(affordable & (pot_here - pot_next > 0), gain, -np.inf).reshape(m, -1)
        k = np.argmax(gain, axis=1)
        ok = np.isfinite(gain[r, k])
        return np.where(ok, side.move_ids.reshape(m, -1)[r, k], A.END_TURN)

    def _cover_targets(self, s: State, side: Side, pursuer, pass_live, carrier_team, holder) -> np.ndarray:
        """[m, 11] square each non-pursuing defender covers (goal-side of a dangerous receiver), -1 none."""
        m = s.batch_size
        r = np.arange(m)
        out = np.full((m, 11), -1, dtype=np.int64)
        if not pass_live.any():
            return out
        cframe = FRAME_ROW[carrier_team].astype(np.int64)
        rec_slots = side.opp_slots  # the snap offence: slots 0-10
        rec_sq = side.opp_squares
        eligible = ELIGIBLE_RECEIVER[None, :] & (rec_slots != holder[:, None]) & (rec_sq >= 0)
        # danger: how far downfield of the carrier (in his frame)
        down_field = cframe[r, s.ball_square.astype(np.int64)][:, None] - cframe[r[:, None], np.maximum(rec_sq, 0)]
        danger = np.where(eligible, down_field, -BIG)
        # goal-side square: one row nearer the end zone the receivers attack
        goal_side = NEIGHBOUR[carrier_team[:, None], np.maximum(rec_sq, 0), 0].astype(np.int64)
        goal_side = np.where(goal_side >= 0, goal_side, rec_sq)
        order = np.argsort(-danger, axis=1, kind="stable")
        free = ~pursuer.copy()
        sq = np.maximum(side.squares, 0)
        for j in range(5):
            rec = order[:, j]
            want = pass_live & (danger[r, rec] > 0)  # only a receiver past the ball can take a forward pass
            target = goal_side[r, rec]
            d = np.where(free, DISTANCE[sq, target[:, None]], BIG)
            k = np.argmin(d, axis=1)
            ok = want & (d[r, k] < BIG)
            out[r[ok], k[ok]] = target[ok]
            free[r[ok], k[ok]] = False
        return out

    def _cone_gap(self, squares, csq, carrier_team):
        """Moves needed to get into the cone in front of the carrier (lanes +-cone_width, 1..cone_depth rows
        nearer his goal)."""
        p = self.params
        row, lane = SQUARE_ROW[squares], SQUARE_LANE[squares]
        crow, clane = SQUARE_ROW[csq], SQUARE_LANE[csq]
        ahead = np.where(carrier_team == 0, crow - row, row - crow)  # rows in front of the carrier
        row_gap = np.maximum(1 - ahead, 0) + np.maximum(ahead - p.cone_depth, 0)
        lane_gap = np.maximum(np.abs(lane - clane) - p.cone_width, 0)
        return row_gap + lane_gap


def _best_approach(side: Side, dist, reserve) -> np.ndarray:
    """The legal move of any player that minimises (its cost + the cost left to the goal of ``dist``)."""
    m = side.team.size
    t = side.targets
    cost = MOVE_COST[None, None, :] * qb_mult(side.s, side.slots)[:, :, None]
    after = gather(dist, t.reshape(m, -1)).reshape(t.shape)
    # least total cost; on a tie, the move that gets there now
    total = np.where(side.move_legal & (t >= 0) & (cost <= side.points[:, None, None] - reserve[:, None, None]),
                     2 * (cost + after) + (after > 0), BIG).reshape(m, -1)
    k = np.argmin(total, axis=1)
    ok = total[np.arange(m), k] < BIG
    return np.where(ok, side.move_ids.reshape(m, -1)[np.arange(m), k], A.END_TURN)


def main(argv=None) -> None:
    """``python -m agents.heuristic [--games N] [--target T] [--opponent random|heuristic] [--seed S]``:
    play the heuristic against an opponent (half the games as each team) and print wins, scores, lengths."""
    import argparse

    from .base import play_games
    from .random_agent import RandomAgent

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--games", type=int, default=100, help="games, half as each team (default %(default)s)")
    parser.add_argument("--target", type=int, default=7, help="points that win (default %(default)s)")
    parser.add_argument("--opponent", choices=("random", "heuristic"), default="random",
                        help="the other team (default %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default %(default)s)")
    parser.add_argument("--max-steps", type=int, default=4000,
                        help="actions after which a game is truncated (default %(default)s)")
    args = parser.parse_args(argv)
    config = GameConfig(target_score=args.target, max_steps=args.max_steps)
    opponent = RandomAgent() if args.opponent == "random" else HeuristicAgent()
    result = play_games(HeuristicAgent(), opponent, args.games, seed=args.seed, config=config)
    print(result.summary("heuristic", opponent.name))
    print(f"  steps per game: 10%/50%/90% {np.percentile(result.steps, [10, 50, 90]).round().astype(int).tolist()}")


if __name__ == "__main__":
    main()
