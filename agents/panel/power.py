"""PowerRunAgent: smash-mouth football. Heavy sets, the ball handed to a back, pushes behind strong
linemen and gap runs, never a forward pass, conservative kicking; on defence a run-stopping wall.

- Special: Lead Blocker (a blocker's step opens a free follow for the carrier).
- Formations: jumbo near the goal or on short yardage, else the I, the wishbone or the pro set (seeded);
  against any set a heavy front (goal line near its own goal, the 5-2 or the 46 otherwise).
- Offence: the quarterback hands off at once to the back behind him (free, +1 point) and never throws
  forward; the runner goes for the square that gains most while staying out of tackle range, taking a
  push that drives a defender back, or a gap run, over plain moves whenever it costs no more; a forward
  follow is always taken;
  blockers fill the squares a tackle would come from.
- Kicks: punt on 4th down unless a field goal is better than even, or it is 4th and 1 in the other half.
- Defence: any tackle in reach; the three nearest defenders pursue; the others build a wall two rows in
  front of the carrier, spread over his lane and the three either side, keeping two points back.
"""

from __future__ import annotations

import numpy as np

from gridiron_env.core import actions as A
from gridiron_env.core.geometry import SQUARE_LANE

from .common import (
    DEF, GAP, OFF, SHOVE, PanelAgent, assign_nearest, at, block_entries, carrier_options, carrier_reach,
    field_goal_chances, frame_of, handoff_options, kick_choice, move_to_targets, pursuit_cost, rank_of, side_of,
    situation, square_terms, step_toward, tackle_now, threat_map,
)

_BACKS = (10, 9, 8, 7)  # F, H, Z, Y: who takes the handoff, in order of preference


def run_values(s, side, threat, reach, points, safe_bonus, bank, margin_weight, first_down_bonus):
    """Value (rows) of ending the carrier's turn on each square: rows gained, plus bonuses for staying out
    of tackle range (and the points it banks), a first down if tackled there, a touchdown above all."""
    frame, safe, margin, left, first_down, scores, own_end = square_terms(s, side, threat, reach, points)
    value = -frame + np.where(safe, safe_bonus + margin_weight * margin + bank * np.minimum(left, 4),
                              np.where(first_down, first_down_bonus, 0.0)) - 0.01 * reach
    value = np.where(scores, 1000.0 - reach, value)
    value = np.where(own_end & ~safe, -500.0, value)
    return np.where(reach < 999, value, -np.inf)


def plan_run(s, side, points, safe_bonus=2.0, bank=0.3, margin_weight=0.25, first_down_bonus=1.5,
             prefer_power=False):
    """(first action, value of the best square, value of staying): the carrier's run this turn."""
    m = s.batch_size
    r = np.arange(m)
    csq = s.ball_square.astype(np.int64)
    threat = threat_map(side, csq, int(min(side.opp_points.max(), 8)) + 4)
    options = carrier_options(s, side)
    reach = carrier_reach(s, side, options, points)
    value = run_values(s, side, threat, reach, points, safe_bonus, bank, margin_weight, first_down_bonus)
    target = np.argmax(value, axis=1)
    best, stay = value[r, target], value[r, csq]
    target = np.where(best > stay, target, csq)
    prefer = np.where(np.isin(options[3], (SHOVE, GAP)), 1.0, 0.0) if prefer_power else None
    return step_toward(s, side, options, target, points, prefer), np.maximum(best, stay), stay, threat


class PowerRunAgent(PanelAgent):
    """Power running football (see the module docstring)."""

    name = "power_run"
    salt = 0x5A9E_1001_0000_0001
    special = "lead_blocker"

    def offence_formation(self, s, config, games):
        _, to_gain, to_goal = situation(s)
        coin = self.coin(games, s, 3, k=1)
        base = np.array([OFF["i_form"], OFF["wishbone"], OFF["pro_set"]])[coin]
        heavy = (to_goal <= 4) | (to_gain <= 1)
        return A.OFFENCE_FORMATION_BASE + np.where(heavy, OFF["jumbo"], base)

    def defence_formation(self, s, config, games):
        _, _, to_goal = situation(s)
        coin = self.coin(games, s, 2, k=1)
        front = np.where(coin == 0, DEF["five_two"], DEF["bear_46"])
        return A.DEFENCE_FORMATION_BASE + np.where(to_goal <= 4, DEF["goal_line"], front)

    def kick(self, s, config, games):
        los, to_gain, _ = situation(s)
        fourth = s.down == 4
        p_fg = field_goal_chances(los, config)
        short = (to_gain <= 1) & (los <= 14)
        field_goal = fourth & (p_fg > 0.5)
        return kick_choice(s, config, field_goal, fourth & ~field_goal & ~short)

    def carry(self, s, config, games):
        side = side_of(s)
        m = s.batch_size
        r = np.arange(m)
        carrier = s.ball_holder.astype(np.int64)
        out, value, stay, threat = plan_run(s, side, side.points, prefer_power=True)
        # the quarterback gives the ball to a back: a free handoff (+1 behind him), else a pitch
        hand = give_to_back(s, side, _BACKS)
        qb = (side.base == 0) & (carrier == 0)
        out = np.where(qb & (hand >= 0), hand, out)
        # a Lead Blocker follow forward is a free step
        follow = A.FOLLOW_BASE + side.slots[r, np.clip(carrier - side.base, 0, 10)]
        fsq = s.follow_square.astype(np.int64)
        forward = (fsq >= 0) & (frame_of(side.team, fsq) < frame_of(side.team, s.ball_square))
        out = np.where(forward & s.legal[r, follow], follow, out)
        # nothing to run: the blockers fill the squares a tackle would come from
        block = block_entries(side, threat, s.ball_square.astype(np.int64))
        return np.where((out == A.END_TURN) & (block >= 0), block, out)

    def defend(self, s, config, games):
        side = side_of(s)
        m = s.batch_size
        tackle, dist, cost = tackle_now(s, side)
        csq = s.ball_square.astype(np.int64)
        carrier_team = 1 - side.team
        rank = rank_of(pursuit_cost(s, side, dist, cost))
        # the wall: lanes of the carrier and three either side, two rows in front of him
        wall_row = frame_of(carrier_team, csq) - 2
        lane = SQUARE_LANE[csq].astype(np.int64)
        offsets = np.array([0, -1, 1, -2, 2, -3, 3, -4])
        spots = at(carrier_team[:, None], wall_row[:, None], lane[:, None] + offsets[None, :])
        target = assign_nearest(side.squares, rank >= 3, spots, np.where(rank < 3, csq[:, None], -1))
        weight = np.where(rank < 3, 1.3, 1.0)
        moved = move_to_targets(s, side, target, weight, np.full(m, 2), dist, cost)
        return np.where(tackle >= 0, tackle, moved)


def give_to_back(s, side, backs) -> np.ndarray:
    """A throw (not forward) to the first of ``backs`` (offence slots, in order of preference) who can take
    a handoff, a handoff that gains a point first; else a lateral when the points allow; else -1."""
    m = s.batch_size
    kind, change = handoff_options(s, side)
    score = np.zeros((m, 11))
    for i, slot in enumerate(backs):
        score[:, slot] = np.where(kind[:, slot] == 1, 20 - i + 5 * change[:, slot],
                                  np.where((kind[:, slot] == 2) & (side.points >= 2), 10 - i, 0))
    k = np.argmax(score, axis=1)
    return np.where(score[np.arange(m), k] > 0, A.THROW_BASE + side.slots[np.arange(m), k], -1)


__all__ = ["PowerRunAgent", "give_to_back", "plan_run", "run_values"]
