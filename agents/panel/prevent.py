"""PreventAgent: bend but don't break. A deep, soft defence that keeps everything in front of it and
gives up short gains; a West Coast offence of short, near-certain throws and safe runs.

- Special: Ball Hawk (a failed pass against it is intercepted 1 in 10).
- Defence formations: the prevent on third or fourth and long (4 rows or more), the 3-4 and its two deep
  safeties otherwise, the goal-line front near its own goal (no room left to give).
- Defence: a tackle it can make this turn, always. Otherwise only the four down linemen rush; everybody
  else keeps a cushion: while a pass may come they stand two rows goal-side of the three deepest
  receivers (a receiver with a defender two squares away draws three dice against his catch), then two
  lines across the field three and five rows in front of the carrier. The cushion players keep three
  points back, so a carrier who breaks through meets a tackle next round.
- Offence: the singleback, the pro set or the pistol (seeded), jumbo at the goal. The quarterback throws
  only short and safe: a receiver in front with at least an 80% chance (the chance counts far more than
  the rows); no such throw, he gives the ball to a back. Runners look for squares out of tackle range
  first and bank what they do not need.
- Kicks: a field goal on fourth down from 45% up, going for it only on fourth and one in the other half.
"""

from __future__ import annotations

import numpy as np

from gridiron_env.core import actions as A

from .blitz import best_throw
from .common import (
    DEF, OFF, PanelAgent, assign_nearest, at, field_goal_chances, frame_of, goal_side, kick_choice,
    move_to_targets, pass_live, receivers_of, side_of, situation, tackle_now,
)
from .power import give_to_back, plan_run


class PreventAgent(PanelAgent):
    """Prevent defence, short-passing offence (see the module docstring)."""

    name = "prevent"
    salt = 0x5A9E_1004_0000_0004
    special = "ball_hawk"
    safe_bonus, bank, first_down_bonus = 3.5, 0.5, 1.5  # the runner's values (rows): safety first
    backs = (10, 9, 7)  # who takes the ball from the quarterback, in order: F, H, Y
    rushers = 4  # defence slots 0.. that rush: the down linemen
    cushion = 3  # rows in front of the carrier of the first cushion line (the second: two more)

    def offence_formation(self, s, config, games):
        _, _, to_goal = situation(s)
        coin = self.coin(games, s, 3, k=1)
        name = np.array([OFF["singleback"], OFF["pro_set"], OFF["pistol"]])[coin]
        return A.OFFENCE_FORMATION_BASE + np.where(to_goal <= 2, OFF["jumbo"], name)

    def defence_formation(self, s, config, games):
        _, to_gain, to_goal = situation(s)
        soft = (s.down >= 3) & (to_gain >= 4)
        name = np.where(soft, DEF["prevent"], DEF["three_four"])
        return A.DEFENCE_FORMATION_BASE + np.where(to_goal <= 3, DEF["goal_line"], name)

    def kick(self, s, config, games):
        los, to_gain, _ = situation(s)
        fourth = s.down == 4
        field_goal = fourth & (field_goal_chances(los, config) >= 0.45)
        go = (to_gain <= 1) & (los <= 14)
        return kick_choice(s, config, field_goal, fourth & ~field_goal & ~go)

    def carry(self, s, config, games):
        side = side_of(s)
        run, _, _, _ = plan_run(s, side, side.points, safe_bonus=self.safe_bonus, bank=self.bank,
                                first_down_bonus=self.first_down_bonus)
        # short and safe: any receiver in front with an 80% chance or better
        throw, _ = best_throw(s, side, 0.8, min_rows=0)
        out = np.where(throw >= 0, throw, run)
        carrier = s.ball_holder.astype(np.int64)
        qb = (side.base == 0) & (carrier == 0) & (throw < 0)
        hand = give_to_back(s, side, self.backs)
        return np.where(qb & (hand >= 0), hand, out)

    def defend(self, s, config, games):
        side = side_of(s)
        m = s.batch_size
        tackle, dist, cost = tackle_now(s, side)
        csq = s.ball_square.astype(np.int64)
        carrier_team = 1 - side.team
        live = pass_live(s, side)
        rushers = np.zeros((m, 11), dtype=bool)
        rushers[:, :self.rushers] = True
        target = np.where(rushers, csq[:, None], -1)
        # deep help over the three deepest receivers while a pass may come
        rec, eligible, downfield = receivers_of(s, side)
        order = np.argsort(-np.where(eligible, downfield, -99), axis=1, kind="stable")[:, :3]
        deep = np.take_along_axis(goal_side(carrier_team[:, None], rec, 2), order, axis=1)
        deep = np.where(live[:, None] & np.take_along_axis(eligible, order, axis=1), deep, -1)
        target = assign_nearest(side.squares, ~rushers, deep, target)
        # the cushion: two lines across the field in front of the carrier
        front = frame_of(carrier_team, csq)
        lane = csq % 18
        lanes = np.array([0, -2, 2, -4, 4, 0, -3, 3])
        depth = self.cushion + np.array([0, 0, 0, 0, 0, 2, 2, 2])
        spots = at(carrier_team[:, None], front[:, None] - depth[None, :], lane[:, None] + lanes[None, :])
        target = assign_nearest(side.squares, (target < 0), spots, target)
        weight = np.where(rushers, 1.0, 1.2)
        moved = move_to_targets(s, side, target, weight, np.full(m, 3), dist, cost)
        rush = move_to_targets(s, side, np.where(rushers, target, -1), weight, np.full(m, 1), dist, cost)
        moved = np.where(moved == A.END_TURN, rush, moved)
        return np.where(tackle >= 0, tackle, moved)
