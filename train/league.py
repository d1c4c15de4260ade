"""League self-play: the opponents the main job's learners meet, and how often they meet each.

A :class:`League` holds **members**, each a full-game agent of ``agents.base``:

- ``snapshot``: a frozen copy of the learner pair (its offence and its defence policy as one bot), taken
  after each round; the newest ``pool_size`` are kept (when the pool is full the snapshot the learner
  beats most often leaves);
- ``fixed``: the scripted panel (``agents.panel.PANEL``) and the heuristic, always in the league.

**Prioritised fictitious self-play (PFSP).** After each round the current learner (as the bot it would
export) plays a few full games against every member, teams and coin tosses balanced
(``train.tournament.run_tournament`` with only the learner's pairs); ``win_rate[m]`` is an exponential
moving average of its score against member m (win 1, truncation 1/2). The drive envs then draw each game's
opponent for the next round with the chances of :meth:`League.probabilities`: ``snapshot_share`` of the
games go to the snapshots and the rest to the fixed members, and within each group member m is drawn with
weight ``(1 - win_rate[m]) ** pfsp_power + pfsp_floor``: opponents the learner loses to come up more often,
ones it always beats still now and then (the "hard" weighting of AlphaStar's league). With no snapshot
yet, every game goes to the fixed members.

**Elo.** Every match the league plays is kept (the learner of round r is a player of its own); the current
learner's Elo is the maximum-likelihood rating over all of them (``train.ratings.elo_ratings``), the
heuristic pinned at 1000.

:class:`LeagueOpponent` is the drive envs' opponent seat: each game draws its member at every episode reset
from the episode's seed (so the draw does not depend on the batch) with the chances frozen at the start of
the round.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gridiron_env.config import GameConfig
from gridiron_env.core.chance import splitmix64

from .ratings import elo_ratings
from .settings import check_int, check_number

SNAPSHOT, FIXED = "snapshot", "fixed"
HEURISTIC_NAME = "heuristic"
_DRAW_SALT = np.uint64(0x1EA6_0E00_0000_9001)


@dataclass
class Member:
    """One league member: ``agent`` (full-game agent), its ``kind`` (``snapshot`` or ``fixed``), the
    learner's smoothed score against it (``win_rate``, None before the first match) and the games
    behind it."""

    name: str
    agent: object
    kind: str
    win_rate: float | None = None
    games: int = 0


def pfsp_weight(win_rate, power: float = 2.0, floor: float = 0.05):
    """PFSP's weight of an opponent the learner scores ``win_rate`` (0-1) against: ``(1 - win_rate) ** power
    + floor`` (those it loses to weigh most, those it always beats a little)."""
    return (1.0 - np.asarray(win_rate, dtype=np.float64)) ** power + floor


class League:
    """Members, their PFSP chances and the league's match record (see the module docstring).

    ``fixed``: dict name -> agent (the panel and the heuristic); ``pool_size``: snapshots kept;
    ``snapshot_share``: share of training games against snapshots once there is one, in [0, 1];
    ``pfsp_power`` >= 0 (0: uniform within a group); ``pfsp_floor`` > 0; ``smoothing``: weight of the
    newest match in ``win_rate``, in (0, 1].
    """

    def __init__(self, fixed: dict, pool_size: int = 8, snapshot_share: float = 0.6, pfsp_power: float = 2.0,
                 pfsp_floor: float = 0.05, smoothing: float = 0.5):
        if not fixed:
            raise ValueError("a league needs at least one fixed member (the heuristic or a panel agent)")
        check_int("League", "pool_size", pool_size, 0)
        for name, value, low, high in (("snapshot_share", snapshot_share, 0.0, 1.0),
                                       ("pfsp_power", pfsp_power, 0.0, 16.0),
                                       ("pfsp_floor", pfsp_floor, 1e-6, 1.0),
                                       ("smoothing", smoothing, 1e-6, 1.0)):
            check_number("League", name, value, low, high)
        self.members = [Member(name, agent, FIXED) for name, agent in fixed.items()]
        self.pool_size = pool_size
        self.snapshot_share = float(snapshot_share)
        self.pfsp_power = float(pfsp_power)
        self.pfsp_floor = float(pfsp_floor)
        self.smoothing = float(smoothing)
        # the match record: players by name (members and past learners), score[i, j] and games[i, j]
        self.players: list[str] = []
        self.score = np.zeros((0, 0))
        self.games = np.zeros((0, 0))

    # --- membership ------------------------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return [m.name for m in self.members]

    def fixed_members(self) -> list[Member]:
        return [m for m in self.members if m.kind == FIXED]

    def snapshots(self) -> list[Member]:
        return [m for m in self.members if m.kind == SNAPSHOT]

    def add_snapshot(self, name: str, agent, win_rate: float | None = 0.5) -> None:
        """Add a frozen learner; past ``pool_size`` the snapshot the learner beats most often leaves (the
        oldest of equals). ``win_rate``: the learner's starting score against it (it is the learner)."""
        if name in self.names:
            raise ValueError(f"the league already has a member named {name!r}")
        if self.pool_size == 0:
            return
        self.members.append(Member(name, agent, SNAPSHOT, win_rate))
        snapshots = self.snapshots()
        if len(snapshots) > self.pool_size:
            beaten = max(snapshots[:-1], key=lambda m: -1.0 if m.win_rate is None else m.win_rate)
            self.members.remove(beaten)

    # --- PFSP ------------------------------------------------------------------------------------------

    def probabilities(self) -> np.ndarray:
        """float64 [len(members)]: the chance that a training game draws each member (sums to 1)."""
        rate = np.array([0.5 if m.win_rate is None else m.win_rate for m in self.members])
        weight = pfsp_weight(rate, self.pfsp_power, self.pfsp_floor)
        snapshot = np.array([m.kind == SNAPSHOT for m in self.members])
        share = self.snapshot_share if snapshot.any() else 0.0
        if not (~snapshot).any():
            share = 1.0
        p = np.zeros(len(self.members))
        for group, mass in ((snapshot, share), (~snapshot, 1.0 - share)):
            if group.any():
                p[group] = mass * weight[group] / weight[group].sum()
        return p / p.sum()

    def record(self, learner_name: str, result, learner_index: int = 0) -> dict[str, float]:
        """Take a match of the learner (player ``learner_index`` of ``result``, a
        ``train.tournament.TournamentResult`` whose other players are members by name) into the league:
        smoothed win rates, the match record. Returns the learner's score rate against each member."""
        score, games = result.score_matrix()
        rates = {}
        for j, name in enumerate(result.names):
            if j == learner_index or games[learner_index, j] == 0:
                continue
            rate = float(score[learner_index, j] / games[learner_index, j])
            rates[name] = rate
            for m in self.members:
                if m.name == name:
                    m.win_rate = rate if m.win_rate is None else (1 - self.smoothing) * m.win_rate + self.smoothing * rate
                    m.games += int(games[learner_index, j])
        names = list(result.names)
        names[learner_index] = learner_name
        self._add_record(names, score, games)
        return rates

    def _add_record(self, names, score, games) -> None:
        new = [n for n in names if n not in self.players]
        if new:
            k = len(self.players) + len(new)
            grown_score, grown_games = np.zeros((k, k)), np.zeros((k, k))
            grown_score[:len(self.players), :len(self.players)] = self.score
            grown_games[:len(self.players), :len(self.players)] = self.games
            self.players += new
            self.score, self.games = grown_score, grown_games
        at = np.array([self.players.index(n) for n in names])
        self.score[np.ix_(at, at)] += score
        self.games[np.ix_(at, at)] += games

    def elo(self, anchor: str = HEURISTIC_NAME) -> dict[str, float]:
        """Elo of every player of the record (members and past learners), ``anchor`` at 1000 (else the
        first player)."""
        if not self.players:
            return {}
        a = self.players.index(anchor) if anchor in self.players else 0
        ratings = elo_ratings(self.score, self.games, anchor=a)
        return dict(zip(self.players, ratings.tolist()))

    def makeup(self) -> dict[str, float]:
        """The share of training games of each member kind: snapshots, the heuristic and the panel."""
        p = self.probabilities()
        out = {"snapshots": 0.0, "heuristic": 0.0, "panel": 0.0}
        for m, share in zip(self.members, p):
            key = "snapshots" if m.kind == SNAPSHOT else ("heuristic" if m.name == HEURISTIC_NAME else "panel")
            out[key] += float(share)
        return out


class LeagueOpponent:
    """The drive envs' opponent seat: per game a league member, drawn at each episode reset from the
    episode seed with the chances of the last :meth:`refresh` (see the module docstring)."""

    needs_state = True

    def __init__(self, league: League):
        self.league = league
        self.members: list = []
        self.cumulative = np.ones(1)
        self.seeds = np.zeros(0, dtype=np.uint64)
        self.choice = np.zeros(0, dtype=np.int64)
        self.refresh()

    def refresh(self) -> None:
        """Freeze the league's current members and chances for the games reset from now on. Games in
        progress keep the member they drew, even one that has since left the league (it stays in this
        seat's list with no chance of being drawn again)."""
        members = [m.agent for m in self.league.members]
        chances = list(self.league.probabilities())
        remap = np.zeros(max(len(self.members), 1), dtype=np.int64)
        for old, agent in enumerate(self.members):
            found = [i for i, a in enumerate(members) if a is agent]
            if not found:
                members.append(agent)
                chances.append(0.0)
                found = [len(members) - 1]
            remap[old] = found[0]
        if self.members:
            self.choice = remap[self.choice]
        self.members = members
        self.cumulative = np.cumsum(chances)

    def reset_games(self, games, seeds) -> None:
        games = np.asarray(games, dtype=np.int64)
        n = int(games.max()) + 1 if games.size else 0
        if self.seeds.size < n:
            self.seeds = np.resize(self.seeds, n)
            self.choice = np.resize(self.choice, n)
        seeds = np.asarray(seeds).astype(np.uint64)
        self.seeds[games] = seeds
        unit = (splitmix64(seeds ^ _DRAW_SALT) >> np.uint64(11)).astype(np.float64) / (1 << 53)
        self.choice[games] = np.minimum(np.searchsorted(self.cumulative, unit * self.cumulative[-1], side="right"),
                                        len(self.members) - 1)

    def __call__(self, state, config=None, games=None):
        games = np.arange(state.batch_size) if games is None else np.asarray(games, dtype=np.int64)
        if self.choice.size <= (games.max() if games.size else -1):
            self.reset_games(games, games)
        actions = np.zeros(state.batch_size, dtype=np.int64)
        choice = self.choice[games]
        for member_index in np.unique(choice).tolist():  # a loop over league members, not over games
            rows = np.flatnonzero(choice == member_index)
            member = self.members[member_index]
            member.reset(self.seeds[games[rows]])
            actions[rows] = member.act(state.take(rows), config)
        return actions


# --- the rules a learner trains under -------------------------------------------------------------------

# the sets of rule variants a training may cover (``game_variants``)
VARIANT_SETS = ("all", "default")


def game_variants(kind: str = "all", base: dict | None = None) -> list[GameConfig]:
    """The game configs training covers. ``"all"``: specials on and off x both kick modes x target scores
    14, 21, 28 and 35 (16 configs, the default game first); ``"default"``: the base game only. ``base``:
    GameConfig fields kept in every variant."""
    base_config = GameConfig.from_dict(dict(base or {}))
    if kind == "default":
        return [base_config]
    if kind not in VARIANT_SETS:
        raise ValueError(f"game variants must be one of {VARIANT_SETS}, got {kind!r}")
    variants = [base_config]
    for specials in (True, False):
        for kick_mode in ("dice", "paper"):
            for target in (21, 14, 28, 35):
                config = base_config.replace(specials=specials, kick_mode=kick_mode, target_score=target)
                if config not in variants:
                    variants.append(config)
    return variants


def round_variants(variants: list[GameConfig], round_index: int, groups: int) -> list[GameConfig]:
    """The ``groups`` configs of one round: group 0 always plays the first variant (the default game),
    the others walk through the rest in turn, so every variant comes up every few rounds."""
    if groups < 1:
        raise ValueError(f"groups must be >= 1, got {groups}")
    rest = variants[1:] or variants
    chosen = [variants[0]]
    for g in range(1, groups):
        chosen.append(rest[(round_index * (groups - 1) + g - 1) % len(rest)])
    return chosen
