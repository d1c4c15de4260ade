"""BallControlAgent: ball control and the clock. Handoffs and short, safe gains that keep the chains
moving and bank the dice; never a risky throw; punts and field goals by the book; on defence the set
read from down and distance, the nearest defenders pursuing and the rest holding their zones.

- Special: Lead Blocker.
- Offence formations: the pro set, the singleback or the I (seeded), jumbo at the goal or on short yardage.
- Offence: the ball goes to a back at once, the fullback (F) by handoff when he stands beside and behind
  the quarterback, else the tailback (H), by handoff or pitch. A runner wants, first of all, a
  square out of tackle range with a margin, and banks every point he does not need there (spent later,
  up to 8, on a longer safe run); a first down counts double. The only forward pass is a certain one:
  nobody within three squares of a receiver at least a row past the line.
- Kicks, by the book: fourth and one or less past midfield, go for it; a field goal from 50% up; else punt,
  aiming to land the ball four rows short of the goal line.
- Defence formations: the goal-line front near its own goal, the 5-2 on short yardage (a row or less), the
  nickel on third or fourth and long (4 rows or more), the 4-3 otherwise.
- Defence: a tackle in reach; the two nearest defenders pursue; the others hold zones: each keeps his lane
  (pulled two lanes toward the ball) at his depth in front of the carrier (linemen 1 row, linebackers 2,
  backs 4), keeping two points back.
"""

from __future__ import annotations

import numpy as np

from gridiron_env.core import actions as A
from gridiron_env.core.geometry import SQUARE_LANE

from .blitz import best_throw
from .common import (
    DEF, OFF, PanelAgent, at, field_goal_chances, frame_of, kick_choice, move_to_targets, pursuit_cost, punt_rows,
    rank_of, side_of, situation, tackle_now,
)
from .power import give_to_back, plan_run

_ZONE_DEPTH = np.array([1, 1, 1, 1, 2, 2, 2, 4, 4, 4, 4])  # rows in front of the carrier, by defence slot


class BallControlAgent(PanelAgent):
    """Ball control football (see the module docstring)."""

    name = "ball_control"
    salt = 0x5A9E_1005_0000_0005
    special = "lead_blocker"
    backs = (10, 9)  # who takes the ball from the quarterback: the fullback, else the tailback
    pursuers, reserve = 2, 2  # defenders that chase the carrier; points the zone players keep
    safe_bonus, bank, first_down_bonus = 3.0, 0.5, 2.0  # the runner's values (rows): safety, banked dice

    def offence_formation(self, s, config, games):
        _, to_gain, to_goal = situation(s)
        coin = self.coin(games, s, 3, k=1)
        name = np.array([OFF["pro_set"], OFF["singleback"], OFF["i_form"]])[coin]
        return A.OFFENCE_FORMATION_BASE + np.where((to_goal <= 2) | (to_gain <= 1), OFF["jumbo"], name)

    def defence_formation(self, s, config, games):
        _, to_gain, to_goal = situation(s)
        down = s.down.astype(np.int64)
        name = np.where((down >= 3) & (to_gain >= 4), DEF["nickel"], DEF["four_three"])
        name = np.where(to_gain <= 1, DEF["five_two"], name)
        return A.DEFENCE_FORMATION_BASE + np.where(to_goal <= 3, DEF["goal_line"], name)

    def kick(self, s, config, games):
        los, to_gain, _ = situation(s)
        fourth = s.down == 4
        go = (to_gain <= 1) & (los <= 14)
        field_goal = fourth & ~go & (field_goal_chances(los, config) >= 0.5)
        out = kick_choice(s, config, field_goal, fourth & ~field_goal & ~go)
        # the book's punt lands four rows out: shorter than the shared target by one
        longer = out == A.PUNT_BASE + punt_rows(s, config) - 1
        shorter = A.PUNT_BASE + punt_rows(s, config, short_of_goal=4) - 1
        return np.where(longer & s.legal[np.arange(s.batch_size), shorter], shorter, out)

    def carry(self, s, config, games):
        side = side_of(s)
        run, _, _, _ = plan_run(s, side, side.points, safe_bonus=self.safe_bonus, bank=self.bank,
                                first_down_bonus=self.first_down_bonus)
        throw, chance = best_throw(s, side, 1.0, min_rows=1)
        out = np.where(throw >= 0, throw, run)
        carrier = s.ball_holder.astype(np.int64)
        hand = give_to_back(s, side, self.backs)
        qb = (side.base == 0) & (carrier == 0) & (throw < 0)
        return np.where(qb & (hand >= 0), hand, out)

    def defend(self, s, config, games):
        side = side_of(s)
        m = s.batch_size
        tackle, dist, cost = tackle_now(s, side)
        csq = s.ball_square.astype(np.int64)
        carrier_team = 1 - side.team
        rank = rank_of(pursuit_cost(s, side, dist, cost))
        lane = SQUARE_LANE[np.maximum(side.squares, 0)].astype(np.int64)
        ball_lane = (csq % 18)[:, None]
        lane = lane + np.clip(ball_lane - lane, -2, 2)
        zone = at(carrier_team[:, None], frame_of(carrier_team, csq)[:, None] - _ZONE_DEPTH[None, :], lane)
        target = np.where(rank < self.pursuers, csq[:, None], zone)
        weight = np.where(rank < self.pursuers, 1.5, 1.0)
        moved = move_to_targets(s, side, target, weight, np.full(m, self.reserve), dist, cost)
        return np.where(tackle >= 0, tackle, moved)
