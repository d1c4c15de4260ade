"""BlitzAgent: pressure defence. Crowded fronts and every defender sent after the ball; a balanced offence
with a running quarterback that mixes runs and throws by down.

- Special: Speedy QB (the quarterback moves, pushes and runs gaps at the normal cost).
- Defence formations: the 46, the 5-2 or the 3-4 (seeded), the goal-line front near its own goal.
- Defence: any tackle in reach; otherwise all eleven attack the carrier by the cheapest way (through weak
  linemen too), spending every point: no coverage, no reserve. Only the free safety hangs back, on the
  deepest receiver, while a pass may still come.
- Offence formations: by down: the singleback or the pistol on first down, the pro set on second, the
  shotgun on third and long, the I on short yardage.
- Offence: the option. On a down marked for a pass (seeded: a third of first downs, half of second downs,
  every third or fourth and long) the quarterback throws to the receiver with the best chance times rows
  once that chance is at least 50%; on a running down he keeps the ball and runs (he is fast) or, on a
  seeded read at each decision, gives it to the fullback beside and behind him.
- Kicks: a field goal on fourth down when it is at least 40%; going for it on fourth and two or less
  anywhere past its own 20-row line; else a punt.
"""

from __future__ import annotations

import numpy as np

from gridiron_env.core import actions as A

from .common import (
    DEF, OFF, PanelAgent, at, field_goal_chances, forward_passes, frame_of, goal_side, kick_choice, move_to_targets,
    pass_live, receivers_of, side_of, situation, tackle_now,
)
from .power import give_to_back, plan_run


def best_throw(s, side, min_chance, min_rows=1):
    """(throw action or -1, its chance) [m]: the forward pass with the most chance x (rows past the line +
    2) among those with at least ``min_chance`` and ``min_rows`` rows past the line."""
    m = s.batch_size
    r = np.arange(m)
    chance, rsq = forward_passes(s, side)
    los = frame_of(side.team, s.los_row.astype(np.int64) * 18)
    past = los[:, None] - frame_of(side.team[:, None], rsq)
    ok = (chance >= min_chance) & (past >= min_rows)
    value = np.where(ok, chance * (np.maximum(past, 0) + 2), -np.inf)
    k = np.argmax(value, axis=1)
    found = np.isfinite(value[r, k])
    return np.where(found, A.THROW_BASE + side.slots[r, k], -1), np.where(found, chance[r, k], 0.0)


class BlitzAgent(PanelAgent):
    """Blitzing defence, balanced offence (see the module docstring)."""

    name = "blitz"
    salt = 0x5A9E_1003_0000_0003
    special = "speedy_qb"
    option = True  # the option: on a running down the quarterback may give the ball to the fullback

    def offence_formation(self, s, config, games):
        _, to_gain, _ = situation(s)
        down = s.down.astype(np.int64)
        coin = self.coin(games, s, 2, k=1)
        name = np.where(down == 1, np.where(coin == 0, OFF["singleback"], OFF["pistol"]), OFF["pro_set"])
        name = np.where((down >= 3) & (to_gain >= 3), OFF["shotgun"], name)
        name = np.where(to_gain <= 1, OFF["i_form"], name)
        return A.OFFENCE_FORMATION_BASE + name

    def defence_formation(self, s, config, games):
        _, _, to_goal = situation(s)
        coin = self.coin(games, s, 3, k=1)
        front = np.array([DEF["bear_46"], DEF["five_two"], DEF["three_four"]])[coin]
        return A.DEFENCE_FORMATION_BASE + np.where(to_goal <= 3, DEF["goal_line"], front)

    def kick(self, s, config, games):
        los, to_gain, _ = situation(s)
        fourth = s.down == 4
        field_goal = fourth & (field_goal_chances(los, config) >= 0.4)
        go = (to_gain <= 2) & (los <= 22)
        return kick_choice(s, config, field_goal, fourth & ~field_goal & ~go)

    def _pass_down(self, s, games) -> np.ndarray:
        """Is this down a passing down? Seeded per down (drawn at the snap's step count would change with
        every action, so it is keyed on the rolls' start: the LOS and the down)."""
        _, to_gain, _ = situation(s)
        down = s.down.astype(np.int64)
        key = (s.los_row.astype(np.int64) * 7 + down * 3 + s.drives.sum(axis=1).astype(np.int64) * 11) % 997
        coin = self.streams.integers(games, key, 6, k=2)
        share = np.select([down == 1, down == 2], [2, 3], np.where(to_gain >= 3, 6, 2))
        return coin < share

    def carry(self, s, config, games):
        side = side_of(s)
        run, _, _, _ = plan_run(s, side, side.points, safe_bonus=2.0)
        passing = self._pass_down(s, games)
        throw, _ = best_throw(s, side, 0.5)
        out = np.where((throw >= 0) & passing, throw, run)
        if self.option:  # on a running down the quarterback may give the ball to the fullback behind him
            hand = give_to_back(s, side, (10,))
            qb = (side.base == 0) & (s.ball_holder == 0) & ~passing & (hand >= 0)
            out = np.where(qb & (self.coin(games, s, 2, k=3) == 0), hand, out)
        return out

    def defend(self, s, config, games):
        side = side_of(s)
        m = s.batch_size
        tackle, dist, cost = tackle_now(s, side)
        csq = s.ball_square.astype(np.int64)
        carrier_team = 1 - side.team
        target = np.broadcast_to(csq[:, None], (m, 11)).copy()
        # the free safety on the deepest receiver while a pass may come, else deep behind the pile
        rec, eligible, downfield = receivers_of(s, side)
        deepest = np.argmax(np.where(eligible, downfield, -99), axis=1)
        cover = goal_side(carrier_team, rec[np.arange(m), deepest], 1)
        deep = at(carrier_team, frame_of(carrier_team, csq) - 4, csq % 18)
        target[:, 9] = np.where(pass_live(s, side), cover, deep)
        weight = np.ones((m, 11))
        moved = move_to_targets(s, side, target, weight, np.zeros(m, dtype=np.int64), dist, cost)
        return np.where(tackle >= 0, tackle, moved)
