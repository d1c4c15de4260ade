"""SpreadPassAgent: the air raid. Wide sets, receivers worked clear of the defenders, a throw whenever the
price of a pass is good, aggressive on fourth down; on defence man-to-man coverage behind a four-man rush.

- Special: Sure Hands (+1 die on every contested catch).
- Formations: the shotgun or the empty set (seeded; always empty on long yardage); on defence the 3-4
  (four linebackers and two deep safeties to help the man coverage), the dime against five receivers.
- Offence: the quarterback stays in the pocket. He throws as soon as a receiver past the line has a good
  price (completion chance from the engine's ``pass_dice``, the same dice ``pass_price`` shows: at least
  65%, or any catch that is certain), the most rows times the chance first. Otherwise he spends his points
  moving receivers into open grass (away from every defender, downfield), keeping two for the throw; with a
  tackle coming he throws the best ball he has (at least 35%), else runs. After the catch the receiver
  runs for open field.
- Kicks: goes for it on fourth down unless it is long yardage in its own half; a field goal only when the
  yardage is long and the kick is likely.
- Defence: the four down linemen and the middle linebacker rush the passer; the other six each take a
  receiver, the most dangerous first, and stand goal-side of him (a defender beside the receiver leaves
  the passer one die). Once the ball is past the line or the pass is gone, everybody pursues but the two
  safeties, who stay three rows in front of the carrier.
"""

from __future__ import annotations

import numpy as np

from gridiron_env.core import actions as A
from gridiron_env.core.geometry import DISTANCE, N_DIRECTIONS
from gridiron_env.core.odds import COMPLETION_TABLE

from .common import (
    DEF, ELIGIBLE, OFF, PanelAgent, assign_nearest, at, field_goal_chances, frame_of, forward_passes, goal_side,
    kick_choice, move_to_targets, pass_live, pursuit_cost, rank_of, receivers_of, side_of, situation, tackle_now,
)
from .power import plan_run

_RING_DICE = np.array([0, 1, 3, 6, 0])  # offence dice by the nearest defender's distance 0-4 (rule 19)


def open_grass_chance(side, squares, sure_hands) -> np.ndarray:
    """Completion chance of a throw to each of ``squares`` [m, ...] from the quarterback, counting only
    the ring of defenders around the square (rule 19; the throwing line is left out): certain when nobody
    is within 3 squares."""
    m = side.team.size
    d = DISTANCE[np.maximum(squares, 0)[..., None], np.maximum(side.opp_squares, 0).reshape(
        (m,) + (1,) * (squares.ndim - 1) + (11,))].astype(np.int64)
    nearest = np.minimum(d.min(axis=-1), 4)
    off = _RING_DICE[nearest] + np.where(nearest < 4, sure_hands.reshape((m,) + (1,) * (squares.ndim - 1)), 0)
    dfn = np.where(d == 1, 2, np.where(d <= 3, 1, 0)).sum(axis=-1)
    return np.where(nearest >= 4, 1.0, COMPLETION_TABLE[np.minimum(off, 8), np.minimum(dfn, 40)])


class SpreadPassAgent(PanelAgent):
    """Spread passing football (see the module docstring)."""

    name = "spread_pass"
    salt = 0x5A9E_1002_0000_0002
    special = "sure_hands"
    good_price = 0.65
    cover_depth = -9  # receivers covered: those at most this many rows behind the ball
    reserve = 1  # points the defence keeps for next round's tackle range

    def offence_formation(self, s, config, games):
        _, to_gain, _ = situation(s)
        coin = self.coin(games, s, 2, k=1)
        name = np.where((coin == 0) & (to_gain < 3), OFF["shotgun"], OFF["empty"])
        return A.OFFENCE_FORMATION_BASE + name

    def defence_formation(self, s, config, games):
        offence_set = s.formation[:, 0].astype(np.int64)
        name = np.where(offence_set == OFF["empty"], DEF["dime"], DEF["three_four"])
        return A.DEFENCE_FORMATION_BASE + name

    def kick(self, s, config, games):
        los, to_gain, _ = situation(s)
        fourth = s.down == 4
        p_fg = field_goal_chances(los, config)
        field_goal = fourth & (to_gain >= 3) & (p_fg >= 0.6)
        punt = fourth & ~field_goal & (to_gain >= 3) & (los >= 16)
        return kick_choice(s, config, field_goal, punt)

    def carry(self, s, config, games):
        side = side_of(s)
        csq = s.ball_square.astype(np.int64)
        run, _, _, threat = plan_run(s, side, side.points, safe_bonus=2.5)
        chance, rsq = forward_passes(s, side)
        can_throw = (chance >= 0).any(axis=1)
        out = run.copy()
        g = np.flatnonzero(can_throw)
        if g.size == 0:
            return out
        los = frame_of(side.team[g], s.los_row[g].astype(np.int64) * 18)
        past = los[:, None] - frame_of(side.team[g][:, None], rsq[g])  # rows past the line
        c = chance[g]
        value = np.where(c >= 0, c * (np.maximum(past, 0) + 2), -np.inf)
        best = np.argmax(value, axis=1)
        best_c = c[np.arange(g.size), best]
        throw = A.THROW_BASE + side.slots[g, best]
        good = (best_c >= self.good_price) & (past[np.arange(g.size), best] >= 1)
        pressure = threat[g, csq[g]] <= side.opp_points[g]
        hurry = pressure & (best_c >= 0.35) & (past[np.arange(g.size), best] >= 0)
        clear = self._clear_receiver(s.take(g), side_of(s.take(g)))
        decided = np.where(good | hurry, throw,
                           np.where(pressure, run[g], np.where(clear >= 0, clear, A.END_TURN)))
        out[g] = decided
        return out

    def _clear_receiver(self, s, side) -> np.ndarray:
        """The receiver move (keeping two points for the throw) that most raises the best pass value:
        completion chance times (rows past the line + 2) of that receiver's new square; -1 if none helps."""
        m = s.batch_size
        r = np.arange(m)
        sure = s.special[r, side.team] == A.SURE_HANDS
        los = frame_of(side.team, s.los_row.astype(np.int64) * 18)
        qb_frame = frame_of(side.team, s.ball_square.astype(np.int64))
        slots = np.flatnonzero(ELIGIBLE[1:]) + 1  # X, Y, Z, H, F (the quarterback throws)
        here = side.squares[:, slots]
        to = side.targets[:, slots]  # [m, 5, 8]
        legal = side.move_legal[:, slots] & (to >= 0) & (side.points[:, None, None] >= 3 + np.array(
            [0, 1] * 4)[None, None, :])

        def worth(sq):
            rows = los.reshape((m,) + (1,) * (sq.ndim - 1)) - frame_of(side.team.reshape(
                (m,) + (1,) * (sq.ndim - 1)), sq)
            ahead = frame_of(side.team.reshape((m,) + (1,) * (sq.ndim - 1)), sq) < qb_frame.reshape(
                (m,) + (1,) * (sq.ndim - 1))
            return np.where(ahead, open_grass_chance(side, sq, sure) * (np.maximum(rows, 0) + 2), 0.0)

        now = worth(here)
        best_now = now.max(axis=1)
        after = worth(to)
        # the gain of the whole receiving corps: the best value after the move against the best now
        others = np.where(np.eye(slots.size, dtype=bool)[None], -np.inf, now[:, None, :]).max(axis=2)
        new_best = np.maximum(after, others[:, :, None])
        cost = np.array([1, 2] * 4)[None, None, :]
        gain = np.where(legal, (new_best - best_now[:, None, None]) / cost + 0.01 * after, -np.inf).reshape(m, -1)
        k = np.argmax(gain, axis=1)
        ok = gain[r, k] > 0.05
        ids = (A.MOVE_BASE + slots[None, :, None] * N_DIRECTIONS + np.arange(8)[None, None, :]
               + side.base[:, None, None] * N_DIRECTIONS)
        return np.where(ok, ids.reshape(m, -1)[r, k], -1)

    def defend(self, s, config, games):
        side = side_of(s)
        m = s.batch_size
        tackle, dist, cost = tackle_now(s, side)
        csq = s.ball_square.astype(np.int64)
        carrier_team = 1 - side.team
        live = pass_live(s, side)
        target = np.full((m, 11), -1, dtype=np.int64)
        # man-to-man while a pass may come: coverers goal-side of the receivers, most dangerous first
        rec, eligible, downfield = receivers_of(s, side)
        danger = np.where(eligible, downfield, -99)
        order = np.argsort(-danger, axis=1, kind="stable")
        spots = np.take_along_axis(goal_side(carrier_team[:, None], rec), order, axis=1)
        dangerous = np.take_along_axis(eligible & (downfield >= self.cover_depth), order, axis=1)
        spots = np.where(dangerous & live[:, None], spots, -1)[:, :6]
        coverers = np.zeros((m, 11), dtype=bool)
        coverers[:, [4, 6, 7, 8, 9, 10]] = True
        target = assign_nearest(side.squares, coverers & live[:, None], spots, target)
        # everybody else rushes / pursues; after the pass the safeties keep three rows in front
        deep = ~live[:, None] & (np.arange(11)[None, :] >= 9)
        deep_spot = at(carrier_team, frame_of(carrier_team, csq) - 3, csq % 18)
        target = np.where(target >= 0, target, np.where(deep, deep_spot[:, None], csq[:, None]))
        rank = rank_of(pursuit_cost(s, side, dist, cost))
        weight = np.where(target == csq[:, None], np.where(rank < 3, 1.4, 1.0), 1.2)
        moved = move_to_targets(s, side, target, weight, np.full(m, self.reserve), dist, cost)
        return np.where(tackle >= 0, tackle, moved)
