"""Teach a bot's defence its formation picks by search: every front tried on copies of the game.

    python -m train.fronts runs/default/bot.npz --out runs/fronts/bot.npz

Why: the job's teaching fits the defence's moves in a play to the power wall's (``train.distill``, "held"),
and leaves the formation pick (ruling 7: the defence picks seeing the offence's) to the net's own PPO
policy. That pick is what differs most between the job's seeds. Seed 1's 16-round bot won 58.0% and 59.2%
against ball_control without the specials (paper kicks to 14, dice kicks to 21; 400 games, temperature
0.3); with seed 0's defence 67.8% and 74.8%, with only seed 0's formation picks 67.0% and 67.5%, while
seed 0's bot with seed 1's picks won 49.2% and 51.5%. Seed 1 fronts base personnel with the 46 where
seeds 0 and 2 pick the 5-2. No one front is the answer: the 5-2 on every down took seed 1's bot to 68%
against ball_control and 36% against spread_pass.

Stages:

1. **Games**: the bot (at ``temperature``) plays ``games`` full games against the league's fixed members in
   turn (``train.selfplay.fixed_members``), split over ``variant_groups`` rule variants
   (``train.learners.teaching_configs``). At a ``search_share`` of its defence's formation picks the game is
   copied; an ``anchor_share`` of its other defence decisions is recorded with the net's own greedy move.
2. **Search**: each copied pick is played out once per front searched, on copies that share the game's
   dice and every agent's stream (each draws from its game's seed and step count: common random numbers),
   by the bot and that game's opponent for ``horizon`` possessions (1: to the end of the defence's drive;
   3: that drive, the bot's next one and the opponent's after it, so field position counts). A front's
   value is the net points the bot's side concedes over them (``front_values``). With ``candidates`` all
   eight other fronts, every pick plays out every legal front; with fewer (the default two), a
   ``scout_share`` of the picks does, and in each group of stage 3 the scouts nominate the ``candidates``
   fronts nearest below the net's own (``front_candidates``); the other picks play out those and the own
   front only, and they alone decide (a scout's points count for its own front alone, so that a front
   is not nominated and judged on the same points).
3. **The table**: the picks grouped by the offence's formation, whether the ball is within 4 rows of the
   defence's goal, and the net's own greedy front g; in a group the front f with the lowest mean paired
   difference (value of f minus value of g, per pick) replaces g when it is lower by more than ``z``
   standard errors (``front_table``). Each pick is weighted by its opponent's PFSP weight
   (``train.league.pfsp_weight`` of the bot's score against it in these games): the opponents it loses to
   count most.
4. **The fit**: the defence net, from the bot's, fitted to the table's fronts at the copied picks and to
   the anchor (``train.learners.fit_masked``, ``fit_steps`` minibatches at ``lr``); the offence net is kept.
   Where the table changes no pick there is nothing to teach, and the net stays to the bit.

Measured (temperature 0.3, 400 games a cell; without the specials, paper kicks to 14 / dice kicks to 21;
then the default game). Seed 1's bot taught with the defaults (2,048 games, 18,081 picks searched,
horizon 1): against singleback the 46 became the 5-2 (1,637 picks), and the goal-line front away from the
goal a 5-2 or a 46; it won 63.2 / 65.0 / 72.5% against ball_control (58.0 / 59.2 / 71.0%), 69.8 / 74.2 /
79.5% against prevent (64.2 / 70.0 / 72.5%), 75.0 / 83.5 / 69.5% against the heuristic (80.5 / 81.0 /
74.5%) and within the intervals against the rest. Seed 2's bot (1.0% of its picks changed) stayed within
the intervals everywhere; seed 0's picks already were the table's (19,001 picks searched, none moved: the bot
stays to the bit). With 1,024
games and horizon 3 the search moved nothing on seed 1: the gain of the 5-2 there, 0.2-0.7 points a pick,
was under two standard errors (0.24). A drive's points vary less than three drives' do, so horizon 1
halves the error at less than half the cost. Those searches played out every front; with two candidates
nominated by a fifth of the picks, the same 18,081 picks of seed 1 played out 81,009 fronts instead of
162,729, in 163 s instead of 340 s, and the table taught the same fronts but one group's (the goal-line
front against the empty set near the goal, 74 picks: 10.4% of the picks changed, 10.8% before).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np

from agents.panel.composite import TEAMS
from gridiron_env.core import actions as A
from gridiron_env.core.formations import DEFENCE_FORMATIONS, OFFENCE_FORMATIONS
from gridiron_env.core.state import DEFENCE_FORMATION
from train.league import VARIANT_SETS
from train.settings import check_choice, check_int, check_number

FRONTS = len(DEFENCE_FORMATIONS)
NEAR_THE_GOAL = 4  # rows from the offence's line to the goal line within which a pick is grouped apart
MIN_GROUP = 30  # picks a table group needs before its mean is trusted
ILLEGAL = np.inf  # the value of a front the pick could not make
HORIZONS = (1, 2, 3, 4)  # possessions a search may play out


@dataclass(frozen=True)
class FrontsConfig:
    """Settings of :func:`teach_fronts` (see the module docstring). ``games``: full games played (even);
    ``search_share`` and ``anchor_share``: shares (0-1) of the defence's formation picks searched and of its
    other decisions kept as the anchor; ``horizon``: possessions a search plays out (1-4); ``z``: standard
    errors by which a front must beat the net's own; ``min_group``: picks a table group needs; ``fit_steps``:
    minibatches (of 1,024) of the fit; ``lr``: Adam's step size; ``variants``/``variant_groups``: the rule
    variants played (``train.league.game_variants``) and how many of them the games are split over;
    ``temperature``: the bot's sampling temperature in the games and the searches (None: its ``hard``
    level); ``candidates``: fronts besides the net's own searched at a pick (all the others, ``FRONTS`` - 1,
    or fewer: then a ``scout_share`` of the picks, the scouts, is searched with every front and nominates
    them, ``front_candidates``); ``opponents``/``teams``: the bot's opponents, the league's fixed members
    (``train.selfplay.fixed_members``)."""

    games: int = 2048
    search_share: float = 0.5
    anchor_share: float = 0.2
    horizon: int = 1
    z: float = 2.0
    fit_steps: int = 300
    lr: float = 3e-4
    seed: int = 0
    threads: int = 2
    variants: str = "all"
    variant_groups: int = 4
    temperature: float | None = None
    min_group: int = MIN_GROUP
    candidates: int = 2
    scout_share: float = 0.2
    opponents: str = "panel"
    teams: tuple[str, ...] = TEAMS

    def __post_init__(self):
        owner = "FrontsConfig"
        check_int(owner, "games", self.games, 2, even=True)
        check_number(owner, "search_share", self.search_share, 0.0, 1.0)
        check_number(owner, "anchor_share", self.anchor_share, 0.0, 1.0)
        check_int(owner, "horizon", self.horizon, HORIZONS[0], high=HORIZONS[-1])
        check_number(owner, "z", self.z, 0.0, 100.0)
        check_int(owner, "fit_steps", self.fit_steps, 0)
        check_number(owner, "lr", self.lr, 1e-7, 1.0)
        check_int(owner, "seed", self.seed, 0)
        check_int(owner, "threads", self.threads, 1)
        check_choice(owner, "variants", self.variants, VARIANT_SETS)
        check_int(owner, "variant_groups", self.variant_groups, 1)
        check_int(owner, "min_group", self.min_group, 1)
        check_int(owner, "candidates", self.candidates, 1, high=FRONTS - 1)
        check_number(owner, "scout_share", self.scout_share, 0.0, 1.0)
        from train.selfplay import OPPONENT_SETS, check_teams

        check_choice(owner, "opponents", self.opponents, OPPONENT_SETS)
        check_teams(self.teams, f"{owner}.teams")
        if self.temperature is not None:
            check_number(owner, "temperature", self.temperature, 0.0, 100.0)


@dataclass
class Picks:
    """The defence's formation picks kept in one config's games: ``games`` (a State batch: each game as it
    stood at the pick), ``opponent`` (index into the opponents), ``seed`` (the game's seed) and ``own`` (the
    net's greedy front, an action id), one row each; the anchor's (observations, masks, greedy moves); and
    the bot's ``score`` and ``played`` games against each opponent (a win 1, a truncation 1/2)."""

    games: object
    opponent: np.ndarray
    seed: np.ndarray
    own: np.ndarray
    anchor: tuple
    score: np.ndarray
    played: np.ndarray

    def take(self, rows) -> "Picks":
        """The picks at ``rows`` (the anchor and the scores kept whole)."""
        return Picks(self.games.take(rows), self.opponent[rows], self.seed[rows], self.own[rows], self.anchor,
                     self.score, self.played)


def _acting(agents, state, config, rows, actions) -> None:
    """Fill ``actions[rows]`` with ``agents``' moves, one (agent, its rows) pair at a time."""
    for agent, mine in agents:
        mine = rows[mine]
        if mine.size:
            actions[mine] = np.asarray(agent.act(state, config, games=mine), dtype=np.int64)[mine]


def play_and_keep(bot, temperature: float, opponents: list, config, games: int, seed: int, search_share: float,
                  anchor_share: float, rng: np.random.Generator) -> Picks:
    """Stage 1 in one config: ``games`` full games of the bot (team one in even games, team two in odd ones)
    against ``opponents`` in turn (a pair of games each), keeping picks and anchor as the module says."""
    from agents.bot import BotAgent
    from gridiron_env.core import init, step
    from gridiron_env.core.observe import FEATURES_SIZE, observe
    from gridiron_env.core.state import State

    config = config.replace(max_steps=1500)
    seeds = np.arange(seed, seed + games, dtype=np.int64)
    index = np.arange(games)
    bot_team, opponent_of = index % 2, (index // 2) % len(opponents)
    player, greedy = BotAgent(bot, name="bot", temperature=temperature), BotAgent(bot, name="greedy")
    for agent in [player, greedy, *opponents]:
        agent.reset(seeds.copy())
    state = init(seeds=seeds.astype(np.uint64), config=config)
    kept, anchor = [], [[], [], []]
    while not (state.terminated | state.truncated).all():
        live = ~(state.terminated | state.truncated) & (state.to_act >= 0)
        actions = np.zeros(games, dtype=np.int64)
        ours = np.flatnonzero(live & (state.to_act == bot_team))
        if ours.size:
            actions[ours] = np.asarray(player.act(state, config, games=ours), dtype=np.int64)[ours]
            defending = ours[state.offence[ours] != state.to_act[ours]]
            if defending.size:
                own = np.asarray(greedy.act(state, config, games=defending), dtype=np.int64)[defending]
                pick = state.phase[defending] == DEFENCE_FORMATION
                searched = pick & (rng.random(defending.size) < search_share)
                if searched.any():
                    rows = defending[searched]
                    kept.append((state.take(rows), opponent_of[rows], seeds[rows], own[searched]))
                anchored = ~pick & (rng.random(defending.size) < anchor_share)
                if anchored.any():
                    view = state.take(defending[anchored])
                    for part, value in zip(anchor, (observe(view, None, config), view.legal.copy(), own[anchored])):
                        part.append(value)
        theirs = np.flatnonzero(live & (state.to_act != bot_team))
        _acting([(o, opponent_of[theirs] == k) for k, o in enumerate(opponents)], state, config, theirs, actions)
        state = step(state, actions, config=config)
    won = np.where(state.winner == bot_team, 1.0, np.where(state.winner < 0, 0.5, 0.0))
    score = np.bincount(opponent_of, weights=won, minlength=len(opponents))
    played = np.bincount(opponent_of, minlength=len(opponents)).astype(np.float64)
    snapshots, opponent, seed_of, own = zip(*kept) if kept else ([state.take(np.zeros(0, np.int64))], [], [], [])
    empty = (np.zeros((0, FEATURES_SIZE), np.float32), np.zeros((0, state.legal.shape[1]), bool), np.zeros(0, np.int64))
    return Picks(State.concatenate(list(snapshots)), *(np.concatenate([*part, np.zeros(0, np.int64)]).astype(np.int64)
                                                      for part in (opponent, seed_of, own)),
                 tuple(np.concatenate([*part, blank]) for part, blank in zip(anchor, empty)), score, played)


def front_values(bot, temperature: float, make_opponents, config, picks: Picks, horizon: int,
                 max_steps: int = 3000, searched: np.ndarray | None = None) -> np.ndarray:
    """Stage 2: float64 [picks, FRONTS], the net points the bot's side concedes over ``horizon`` possessions
    after each pick made with each front (``ILLEGAL`` where the front is not legal, or not ``searched``: a
    bool [picks, FRONTS], None for every front). Every copy of a pick replays its game's dice and every
    agent's stream (common random numbers), so a pick's values do not depend on the other picks or fronts
    searched with it; ``make_opponents()`` gives fresh agents in the order of ``picks.opponent``'s indices."""
    from agents.bot import BotAgent
    from gridiron_env.core import step

    config = config.replace(max_steps=10**6)
    count = picks.games.batch_size
    values = np.full((count, FRONTS), ILLEGAL)
    playable = picks.games.legal[:, A.DEFENCE_FORMATION_BASE:A.DEFENCE_FORMATION_BASE + FRONTS].copy()
    if searched is not None:
        playable &= searched
    source, front = np.nonzero(playable)
    if not source.size:
        return values
    copies = picks.games.take(source)
    every = np.arange(source.size)
    defence = copies.to_act.astype(np.int64)
    offence = 1 - defence
    conceded_before = copies.score[every, offence].astype(np.int64) - copies.score[every, defence]
    possessions = copies.drives.sum(axis=1).astype(np.int64) + horizon
    player, opponents = BotAgent(bot, name="bot", temperature=temperature), make_opponents()
    for agent in [player, *opponents]:
        agent.reset(picks.seed[source].copy())
    opponent_of = picks.opponent[source]
    copies = step(copies, A.DEFENCE_FORMATION_BASE + front, config=config)
    done = copies.terminated | copies.truncated | (copies.drives.sum(axis=1) >= possessions)
    for _ in range(max_steps):
        if done.all():
            break
        rows = np.flatnonzero(~done & (copies.to_act >= 0))
        actions = np.zeros(source.size, dtype=np.int64)
        ours = copies.to_act[rows] == defence[rows]
        _acting([(player, ours)] + [(o, ~ours & (opponent_of[rows] == k)) for k, o in enumerate(opponents)],
                copies, config, rows, actions)
        copies.put(rows, step(copies.take(rows), actions[rows], config=config))
        done |= copies.terminated | copies.truncated | (copies.drives.sum(axis=1) >= possessions)
    values[source, front] = copies.score[every, offence].astype(np.int64) - copies.score[every, defence] - conceded_before
    return values


def _table_groups(groups: np.ndarray, own: np.ndarray, min_group: int):
    """(group, own front, members) for each (group, own front) pair with at least ``min_group`` picks."""
    index = np.arange(len(own))
    for group, front in np.unique(np.stack([groups, own], axis=1), axis=0) if len(own) else []:
        members = index[(groups == group) & (own == front)]
        if members.size >= min_group:
            yield int(group), int(front), members


def _paired_gaps(values: np.ndarray, front: int, weights: np.ndarray):
    """float64 [FRONTS] each, over one group's picks: the weighted mean of (a front's value - ``front``'s)
    over the picks where both were played out (inf where none was), and its standard error (with the
    weights' effective count)."""
    legal = np.isfinite(values) & np.isfinite(values[:, front])[:, None]
    weight = weights[:, None] * legal
    total = weight.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        gap = np.where(legal, values - values[:, front][:, None], 0.0)
        mean = np.where(total > 0, (weight * gap).sum(axis=0) / total, np.inf)
        error = np.sqrt((weight * (gap - np.where(total > 0, mean, 0.0)) ** 2).sum(axis=0) / total
                        / (total ** 2 / (weight ** 2).sum(axis=0)))
    return mean, error


def front_table(groups: np.ndarray, values: np.ndarray, own: np.ndarray, weights: np.ndarray, z: float,
                min_group: int = MIN_GROUP, rows: list | None = None) -> np.ndarray:
    """Stage 3: int64 [picks], the front (0-based) each pick is taught. ``groups``: int [picks] group key;
    ``values``: [picks, FRONTS] points conceded (``ILLEGAL`` where illegal or not searched); ``own``: the
    net's greedy front (0-based); ``weights``: each pick's weight. In each (group, own front) with at least
    ``min_group`` picks, the front with the lowest weighted mean of (its value - the own front's value)
    over the picks where both were played out replaces the own front if it is lower by more than ``z``
    standard errors (with the weights' effective count); elsewhere the own front stays. ``rows`` (a list):
    each such group's (group, own front, picks, best front, its mean gap, its standard error) is appended."""
    taught = own.astype(np.int64).copy()
    for group, front, members in _table_groups(groups, own, min_group):
        mean, error = _paired_gaps(values[members], front, weights[members])
        best = int(np.argmin(mean))
        if rows is not None:
            rows.append((group, front, int(members.size), best, float(mean[best]), float(error[best])))
        if best != front and mean[best] < -z * error[best]:
            taught[members] = best
    return taught


def front_candidates(groups: np.ndarray, values: np.ndarray, own: np.ndarray, weights: np.ndarray,
                     candidates: int, min_group: int = MIN_GROUP) -> dict:
    """The scouts' nominations: {(group, own front): bool [FRONTS]}, the own front and the ``candidates``
    fronts with the lowest weighted mean gap to it (``front_table``'s) over the scouted picks (``values``
    with every front played out) of each (group, own front) with at least ``min_group`` of them. A pair
    not in it has too few scouts to nominate: every front of its picks is searched."""
    nominated = {}
    for group, front, members in _table_groups(groups, own, min_group):
        mean, _ = _paired_gaps(values[members], front, weights[members])
        mean[front] = np.inf
        chosen = np.zeros(FRONTS, bool)
        chosen[front] = True
        ranked = np.argsort(mean, kind="stable")[:candidates]
        chosen[ranked[np.isfinite(mean[ranked])]] = True
        nominated[group, front] = chosen
    return nominated


def pick_groups(games) -> np.ndarray:
    """int64 [picks]: a pick's table group: the offence's formation, and whether the line of scrimmage is
    within ``NEAR_THE_GOAL`` rows of the defence's goal line (``agents.panel.common.situation``)."""
    from agents.panel.common import situation

    _, _, to_goal = situation(games)
    return games.formation[:, 0].astype(np.int64) * 2 + (to_goal <= NEAR_THE_GOAL)


def teach_fronts(bot, cfg: FrontsConfig, game_config=None, log=print):
    """The bot with its defence net taught the table's fronts (see the module docstring), and a summary:
    picks searched, the share of them whose front the table changed, the changes (offence formation, near
    the goal, own front -> taught front, picks), the table's rows, the bot's win rates in these games, the
    agreement of the net with the taught fronts and with the anchor before and after the fit, the seconds
    each stage took. The returned bot stores no levels."""
    import dataclasses

    import torch

    from agents.bot import Bot
    from gridiron_env.config import GameConfig
    from gridiron_env.core.observe import FEATURES_SIZE, observe
    from train.export import linear_layers, torch_net
    from train.league import game_variants, pfsp_weight
    from train.learners import even_parts, fit_masked, masked_agreement, teaching_configs
    from train.selfplay import fixed_members

    torch.set_num_threads(cfg.threads)
    temperature = bot.levels["hard"] if cfg.temperature is None else cfg.temperature
    variants = game_variants(cfg.variants, dataclasses.asdict(game_config or GameConfig()))
    configs = teaching_configs(variants, 0, 1, cfg.variant_groups)
    rng = np.random.default_rng(cfg.seed)

    def make_opponents():
        return list(fixed_members(cfg.opponents, cfg.teams).values())

    seconds = {"games": 0.0}
    parts = []
    for config, (start, end) in zip(configs, even_parts(cfg.games, len(configs))):
        if end == start:
            continue
        t0 = time.perf_counter()
        picks = play_and_keep(bot, temperature, make_opponents(), config, end - start, cfg.seed + start,
                              cfg.search_share, cfg.anchor_share, rng)
        seconds["games"] += time.perf_counter() - t0
        log(f"specials {'on' if config.specials else 'off'}, {config.kick_mode} kicks, to {config.target_score}: "
            f"{picks.games.batch_size:,} picks kept in {end - start} games ({time.perf_counter() - t0:.0f} s)")
        parts.append((config, picks))
    score = sum(p.score for _, p in parts)
    played = sum(p.played for _, p in parts)
    rates = score / np.maximum(played, 1)
    names = list(fixed_members(cfg.opponents, cfg.teams))
    own = np.concatenate([p.own for _, p in parts]) - A.DEFENCE_FORMATION_BASE
    groups = np.concatenate([pick_groups(p.games) if p.games.batch_size else np.zeros(0, np.int64)
                             for _, p in parts])
    weights = pfsp_weight(rates)[np.concatenate([p.opponent for _, p in parts])]
    starts = np.cumsum([0] + [p.games.batch_size for _, p in parts])
    values = np.full((len(own), FRONTS), ILLEGAL)

    def search(rows, searched=None):
        for (config, picks), start in zip(parts, starts):
            mine = rows[(rows >= start) & (rows < start + picks.games.batch_size)]
            if mine.size:
                values[mine] = front_values(bot, temperature, make_opponents, config, picks.take(mine - start),
                                            cfg.horizon, searched=None if searched is None else searched[mine])

    t0 = time.perf_counter()
    scout = np.zeros(len(own), bool)
    if cfg.candidates < FRONTS - 1:
        scout = rng.random(len(own)) < cfg.scout_share
        search(np.flatnonzero(scout))
        searched = np.ones((len(own), FRONTS), bool)
        for (group, front), chosen in front_candidates(groups[scout], values[scout], own[scout], weights[scout],
                                                       cfg.candidates, cfg.min_group).items():
            searched[(groups == group) & (own == front)] = chosen
        copies = int(np.isfinite(values).sum())
        # the scouts nominate and the others decide: a scout's values count for its own front alone, so that
        # the fronts a group's scouts found best are not also judged on the same points
        values[scout] = np.where(np.arange(FRONTS) == own[scout, None], values[scout], ILLEGAL)
        search(np.flatnonzero(~scout), searched)
        copies += int(np.isfinite(values[~scout]).sum())
    else:
        search(np.arange(len(own)))
        copies = int(np.isfinite(values).sum())
    seconds["search"] = time.perf_counter() - t0
    log(f"{copies:,} fronts played out from {len(own):,} picks ({int(scout.sum()):,} of them scouts) in "
        f"{seconds['search']:.0f} s")
    table = []
    taught = front_table(groups, values, own, weights, cfg.z, cfg.min_group, rows=table)
    changes = {}
    for group, before, after in zip(groups, own, taught):
        if before != after:
            key = (OFFENCE_FORMATIONS[group // 2], bool(group % 2), DEFENCE_FORMATIONS[before], DEFENCE_FORMATIONS[after])
            changes[key] = changes.get(key, 0) + 1
    observations = np.concatenate([observe(p.games, None, c.replace(max_steps=1500)) for c, p in parts
                                   if p.games.batch_size] or [np.zeros((0, FEATURES_SIZE), np.float32)])
    masks = np.concatenate([p.games.legal for _, p in parts])
    labels = taught + A.DEFENCE_FORMATION_BASE
    anchor = tuple(np.concatenate([p.anchor[i] for _, p in parts]) for i in range(3))
    net, linears = torch_net(bot.defence, bot.activation)
    summary = {"picks": int(len(own)), "scouts": int(scout.sum()), "fronts_played_out": copies,
               "changed": float(np.mean(taught != own)) if len(own) else 0.0,
               "changes": [{"offence_formation": o, "near_the_goal": n, "own": b, "taught": a, "picks": c}
                           for (o, n, b, a), c in sorted(changes.items())],
               "win_rates": dict(zip(names, rates.tolist())),
               "table": [{"offence_formation": OFFENCE_FORMATIONS[group // 2], "near_the_goal": bool(group % 2),
                          "own": DEFENCE_FORMATIONS[front], "picks": count, "best": DEFENCE_FORMATIONS[best],
                          "points_against_own": gap, "standard_error": error}
                         for group, front, count, best, gap, error in table],
               "agreement_before": masked_agreement(net, observations, masks, labels),
               "anchor_before": masked_agreement(net, *anchor)}
    for change in summary["changes"]:
        log(f"against {change['offence_formation']}{' near the goal' if change['near_the_goal'] else ''}: "
            f"{change['own']} -> {change['taught']} ({change['picks']} picks)")
    t0 = time.perf_counter()
    if (taught != own).any() and cfg.fit_steps:  # nothing to teach: the net stays to the bit
        fit_masked(net, list(net.parameters()), np.concatenate([observations, anchor[0]]),
                   np.concatenate([masks, anchor[1]]), np.concatenate([labels, anchor[2]]), 1, cfg.lr, cfg.seed,
                   steps=cfg.fit_steps)
    seconds["fit"] = time.perf_counter() - t0
    summary.update({"agreement_after": masked_agreement(net, observations, masks, labels),
                    "anchor_after": masked_agreement(net, *anchor),
                    **{f"{stage}_seconds": value for stage, value in seconds.items()}})
    log(f"{summary['picks']:,} picks searched, {summary['changed']:.1%} taught another front; the net's pick is the "
        f"taught one in {summary['agreement_before']:.1%} -> {summary['agreement_after']:.1%}, its own move kept "
        f"in {summary['anchor_before']:.1%} -> {summary['anchor_after']:.1%} of {len(anchor[2]):,} anchor positions")
    taught_bot = Bot(bot.offence, linear_layers(linears), bot.activation, bot.on_offence_index, bot.features_size,
                     bot.num_actions)
    return taught_bot, summary


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m train.fronts", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    d = FrontsConfig
    parser.add_argument("bot", help="the bot file (.npz) whose defence is taught")
    parser.add_argument("--out", required=True, help="the bot file to write (.npz); the summary goes next to it (.json)")
    parser.add_argument("--games", type=int, default=d.games, help="full games played (even; default %(default)s)")
    parser.add_argument("--search-share", type=float, default=d.search_share,
                        help="share (0-1) of the defence's formation picks searched (default %(default)s)")
    parser.add_argument("--anchor-share", type=float, default=d.anchor_share,
                        help="share (0-1) of its other decisions kept with its own move (default %(default)s)")
    parser.add_argument("--horizon", type=int, default=d.horizon,
                        help="possessions each search plays out, 1-4 (default %(default)s)")
    parser.add_argument("--candidates", type=int, default=d.candidates,
                        help=f"fronts besides the net's own searched at a pick, 1-{FRONTS - 1}; fewer than "
                             f"{FRONTS - 1}: scouts nominate them (default %(default)s)")
    parser.add_argument("--scout-share", type=float, default=d.scout_share,
                        help="share (0-1) of the picks searched with every front to nominate the candidates "
                             "(default %(default)s)")
    parser.add_argument("--z", type=float, default=d.z,
                        help="standard errors by which a front must beat the net's own (default %(default)s)")
    parser.add_argument("--fit-steps", type=int, default=d.fit_steps, help="minibatches of the fit (default %(default)s)")
    parser.add_argument("--lr", type=float, default=d.lr, help="Adam's step size (default %(default)s)")
    parser.add_argument("--seed", type=int, default=d.seed, help="seed of the games and the fit (default %(default)s)")
    parser.add_argument("--threads", type=int, default=d.threads, help="torch threads (default %(default)s)")
    parser.add_argument("--variants", choices=VARIANT_SETS, default=d.variants,
                        help="the rule variants played (default %(default)s)")
    parser.add_argument("--variant-groups", type=int, default=d.variant_groups,
                        help="the rule variants the games are split over (default %(default)s)")
    parser.add_argument("--level-games", type=int, default=32,
                        help="games (even) per fixed member and probed temperature for the new bot's levels, 0 to "
                             "store none (default %(default)s)")
    return parser


def main(argv=None) -> dict:
    from train.distill import teach_a_bot_file

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        cfg = FrontsConfig(games=args.games, search_share=args.search_share, anchor_share=args.anchor_share,
                           horizon=args.horizon, z=args.z, fit_steps=args.fit_steps, lr=args.lr, seed=args.seed,
                           threads=args.threads, variants=args.variants, variant_groups=args.variant_groups,
                           candidates=args.candidates, scout_share=args.scout_share)
        check_int("train.fronts", "level_games", args.level_games, 0, even=True)
    except ValueError as err:
        parser.error(str(err))
    return teach_a_bot_file(parser, args.bot, args.out, lambda bot: teach_fronts(bot, cfg), args.level_games, cfg.seed,
                            write_summary=True)


if __name__ == "__main__":
    main()
