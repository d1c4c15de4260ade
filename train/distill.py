"""Teach one unit of a bot a teacher's football: fit the bot's defence net (or its offence net) to a
teacher's moves, with DAgger in the positions the bot itself reaches; the other net stays as it is.

    python -m train.distill gridiron_env/data/bot.npz --teacher power_run --out runs/distill/bot.npz

Why: league self-play gave the shipped bot a strong offence and a weak defence. The 389-round bot's offence
with the power wall's defence (``agents.panel.power``) as one team (``agents.base.TeamOfUnits``) won
87.5-95.2% against the heuristic, each panel style and three teams (400 balanced games each), where the bot
itself won 65.8-84.2%; the bot's defence with the spread passing offence won 28.5% against the team of
spread passing and the power wall. PPO had not found that defence in 389 rounds; imitation puts the net
next to it.

Stages:

1. **The teacher team**: the bot's own other unit (at its ``hard`` level) with the ``teacher``'s unit for
   ``side`` plays ``games`` full games against the league's fixed members in turn (the heuristic, the panel
   and ``agents.panel.composite.TEAMS``); every decision of that unit is recorded: the features from the
   acting side, the legal mask and the teacher's move (``train.learners.record_teacher_games``).
2. **The fit**: the side's net, starting from the bot's, is fitted to those moves by cross-entropy over the
   legal actions (``train.learners.fit_masked``, ``epochs`` passes, Adam at ``lr``).
3. **DAgger**, ``dagger_rounds`` times: the bot with its new net plays ``games`` more itself (both units,
   at its ``hard`` level), the teacher labels the unit's positions it reaches, and the net is fitted again
   to every sample so far.
4. **Levels**: the new bot's difficulty levels are measured (``train.levels``, ``level_games`` games
   against each fixed member per probed temperature) and stored in the file written to ``out``; with
   ``level_games`` 0 the file stores none (the defaults of ``agents.bot.LEVELS``).

``situations`` "runs" teaches the teacher's moves only where a back carries the ball (``a_back_carries``):
the wall's defence is a run defence, which covers no receiver, so a defence taught it everywhere gave a
25-minute bot 26% against spread passing with the wall (its untaught defence: 79%). Elsewhere the target is
the net's own greedy move (:class:`SituationTeacher` plays both in the recorded games), and ``own_share`` of
those positions are recorded and fitted as well: taught runs alone, a net fitted long (48 passes) drifts
there too (a 25-minute bot fell from 81.5% to 35.2% against spread passing with the wall); with 30% of its
own moves kept in the fits it held 86.5% and gained 10 points against power_run. The held-out agreement is
measured on the taught positions, and ``own_moves_kept`` on the others.

``situations`` "held" teaches the teacher's moves wherever the snap offence holds the ball in a play
(``the_offence_holds_the_ball``): the runs and the quarterback's time before his throw or handoff; the
formation pick and the loose balls stay the net's own. The seed-1 25-minute job's bot taught on runs won
52.8% against the heuristic, and its offence with the wall's defence 76.8%. With the wall's moves only
where the quarterback held the ball that bot won 72.8%; with only the wall's formation picks 48.5% (400
games each; "everywhere" had cost the pass defence through the wall's run fronts). Taught on "held" it won
71.5% against the heuristic, 84.2% against blitz (73.2%), 92.8% against the team (84.0%), 98.2% against
spread passing (94.8%) and 63.0% against power_run (63.5%). Not for every bot: the 434-round league bot
taught on "held" lost its pass defence (74.8% against spread passing, 67.8% against the team; taught
everywhere, as the shipped bot was, 88.5% and 85.0%).

``situations`` "held+fronts" teaches, besides, the teacher's formation pick against base personnel
(``the_defence_fronts_base_personnel``: an offence formation of at most three wide receivers, every one but
the shotgun spread and the empty set); against those two the pick stays the net's own coverage. The wall
picks a run front there (the 5-2 or the 46, the goal-line front near its goal), and its moves in a play are
made for those fronts: the seed-1 25-minute job's bot with the wall's moves where the snap offence held the
ball won 61.5% against ball_control without the specials (dice kicks, to 14); with the wall's picks too
against base personnel 66.2%, against every formation 66.2% but 80.5% against spread passing (93.2%).
Taught so, the same rounds won 62-64% in the three rule sets without the specials where "held" won 58-60%,
but 62-71% against power_run with the specials (at least 64% on "held"); the seed-0 job's rounds taught so won 57-66%
against ball_control, under 60% in six rule sets (62-80% on "held"; 400 games a cell): the job keeps "held".

The teaching plays the rule variants a user can choose (``variants`` "all": ``train.league.game_variants``
of the given game): each recording's games are split over ``variant_groups`` configs (``teaching_configs``;
with two, one has the specials and one not), each recording further on through the list. Taught on the
default game alone (specials on), a 25-minute bot won 62-72% against power_run with specials on but 50-64%
with them off; the seed-0 bot taught again across the variants won 64.2% (was 50.0%) with specials off,
dice kicks, to 21 points, 400 games.

``tackle_weight`` counts a move toward a tackle (``toward_a_tackle``: a tackle, rule 14, or a step of a way
to one that the side's points pay for this turn) that many times in the fits' loss. Most of the wall's moves
build its wall one step at a time, and the net may make them in another order at little cost; a tackle
missed lets the run go on. The seed-1 25-minute job's bot, taught with every move counted once, made 92%
of the wall's tackles in the positions it reached itself against power_run (specials off); with the
wall's move only where the wall tackled and the bot did not, it won 61.3% there instead of 55.8%, and with
the wall's pursuit steps too 62.5% (400 games each). Counted 8 times, the same rounds taught anew won 2.5-3
points more without the specials against power_run (seeds 1 and 2, 400 games a config).

It prints, per fit, the samples and the training accuracy, and the net's agreement with the teacher on
held-out teacher games (``games // 8``, at least 8, another seed) before and after, on all of them and
on the teacher's moves toward a tackle. Those are the teacher's own games; each DAgger round prints too how
the last fit's net agrees with the target in the games it played itself (``student_agreement``). The seed-1
25-minute job's taught net made the wall's move in 94.5% of the held-out positions but in 85.5% of its own
against ball_control (specials off), with no move toward a tackle in 4.3% of the wall's moves toward one;
the wall's move in just those took it from 55.0% to 60.5% there (greedy, 400 games). Teachers: ``heuristic``, a panel
style, or a team ``OFFENCE+DEFENCE`` (its unit for ``side`` teaches).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gridiron_env.core.formations import OFFENCE_ROLES
from gridiron_env.core.geometry import PLAYERS_PER_TEAM, QB
from gridiron_env.core.state import DEFENCE_FORMATION, PLAY
from train.learners import SIDES, record_across_configs, teaching_configs
from train.league import VARIANT_SETS
from train.settings import check_choice, check_int, check_number


def _snap_offence_holder(state) -> tuple[np.ndarray, np.ndarray]:
    """Per game: the ball holder's slot and whether it is a player of the snap offence (slots 0-10)."""
    holder = state.ball_holder.astype(np.int64)
    return holder, (holder >= QB) & (holder < PLAYERS_PER_TEAM)


def a_back_carries(state) -> np.ndarray:
    """Per game: a player of the snap offence other than its quarterback (slots 1-10) holds the ball: a run,
    after the handoff or the catch, where the defence's job is the tackle and no pass is left to cover."""
    holder, offence_holds = _snap_offence_holder(state)
    return offence_holds & (holder != QB)


def the_offence_holds_the_ball(state) -> np.ndarray:
    """Per game: in a play, a player of the snap offence (slots 0-10) holds the ball: the quarterback before
    his throw or handoff (the pass rush and the coverage) or a back on a run (the tackle). Not the defence's
    formation pick, nor a loose ball or a return."""
    return (state.phase == PLAY) & _snap_offence_holder(state)[1]


# per offence formation id: base personnel, at most three wide receivers (the formation tables' roles); four or
# five (the shotgun spread, the empty set) are spread personnel, which a run front does not answer
BASE_PERSONNEL = np.array([roles.count("WR") <= 3 for roles in OFFENCE_ROLES])


def the_defence_fronts_base_personnel(state) -> np.ndarray:
    """Per game: the defence picks its formation (ruling 7: seeing the offence's) against base personnel
    (``BASE_PERSONNEL``), where the wall's run front is the answer; against spread personnel the pick is the
    net's own coverage."""
    offence_formation = state.formation[:, 0].astype(np.int64)
    return ((state.phase == DEFENCE_FORMATION) & (offence_formation >= 0)
            & BASE_PERSONNEL[np.maximum(offence_formation, 0)])


def held_or_fronting_base_personnel(state) -> np.ndarray:
    """Per game: ``the_offence_holds_the_ball`` or ``the_defence_fronts_base_personnel``."""
    return the_offence_holds_the_ball(state) | the_defence_fronts_base_personnel(state)


# the positions a teaching may be limited to: every decision of the unit, those of a run (a back carries),
# every one while the snap offence holds the ball, or those and the formation pick against base personnel
SITUATIONS = {"all": None, "runs": a_back_carries, "held": the_offence_holds_the_ball,
              "held+fronts": held_or_fronting_base_personnel}
SITUATIONS_HELP = ("all, runs (a back carries the ball), held (the snap offence holds the ball in a play) or "
                   "held+fronts (held, and the formation pick against at most three wide receivers)")


class SituationTeacher:
    """A unit that plays ``teacher``'s move where ``situation`` holds and ``own``'s elsewhere: the target of
    a teaching limited to some positions, which keeps the net's own play in the others (an agent of
    ``agents.base``)."""

    def __init__(self, teacher, own, situation, name: str):
        self.teacher, self.own, self.situation, self.name = teacher, own, situation, name

    def reset(self, seeds) -> None:
        self.teacher.reset(seeds)
        self.own.reset(seeds)

    def act(self, state, config=None, games=None) -> np.ndarray:
        games = np.arange(state.batch_size) if games is None else np.asarray(games, dtype=np.int64)
        actions = np.zeros(state.batch_size, dtype=np.int64)
        taught = np.asarray(self.situation(state.take(games)), dtype=bool)
        for unit, rows in ((self.teacher, games[taught]), (self.own, games[~taught])):
            if rows.size:
                actions[rows] = np.asarray(unit.act(state, config, games=rows), dtype=np.int64)[rows]
        return actions


def situations_and_a_share(situation, share: float, seed: int):
    """``keep`` for ``record_teacher_games``: every position where ``situation`` holds and a ``share`` of the
    others (drawn from a generator seeded ``seed``, so a recording is the same every time)."""
    rng = np.random.default_rng(seed)

    def keep(state) -> np.ndarray:
        return np.asarray(situation(state), dtype=bool) | (rng.random(state.batch_size) < share)

    return keep


def toward_a_tackle(state, actions) -> np.ndarray:
    """[m] bool: each game's action is a tackle (rule 14: onto the enemy ball carrier, which ends his run) or
    a step of a way to one that the side's points still pay for this turn
    (``agents.panel.common.moves_toward_a_tackle``)."""
    from agents.panel.common import moves_toward_a_tackle, side_of
    from gridiron_env.core import actions as A
    from gridiron_env.core.geometry import N_SLOTS, SQUARE_LANE, SQUARE_ROW

    actions = np.asarray(actions, dtype=np.int64)
    holder = state.ball_holder.astype(np.int64)
    team = state.to_act.astype(np.int64).clip(0, 1)
    slot = A.ACTION_ARG[actions].astype(np.int64).clip(0, N_SLOTS - 1)  # a move's argument is its player's slot
    mover = state.player_square[np.arange(state.batch_size), slot].astype(np.int64)
    carrier = state.ball_square.astype(np.int64)
    # every step costs at least its rows plus its lanes (rule 13), so a player further from the carrier than
    # the side's points can reach no tackle this turn: the pursuit map is drawn only for the others
    apart = np.abs(SQUARE_ROW[mover] - SQUARE_ROW[carrier]) + np.abs(SQUARE_LANE[mover] - SQUARE_LANE[carrier])
    # the acting side defends a carrier in a play and moves a player within reach
    rows = np.flatnonzero(
        (state.phase == PLAY) & (holder >= 0) & (state.to_act >= 0)
        & ((holder < PLAYERS_PER_TEAM) != (state.to_act == state.offence))
        & (A.ACTION_KIND[actions] == A.KIND_MOVE) & (mover >= 0)
        & (apart <= state.points[np.arange(state.batch_size), team]))
    found = np.zeros(state.batch_size, dtype=bool)
    if rows.size:
        view = state.take(rows)
        side = side_of(view)
        toward = moves_toward_a_tackle(view, side) & (side.move_ids == actions[rows, None, None])
        found[rows] = toward.any(axis=(1, 2))
    return found


def student_agreement(logits_of, recorded, tackle_weight: float) -> dict:
    """How a student's net (a torch function of an observation batch) agrees with the target in ``recorded``
    (observations, masks, the target's moves and their ``tackles_count(tackle_weight)`` weights, from the
    student's own games): "own_games_agreement" on all of them; "own_games_toward_a_tackle" on the target's
    moves toward a tackle (the ones weighted above 1; NaN with ``tackle_weight`` 1, which marks none)."""
    from train.learners import masked_agreement

    *moves, weights = recorded
    tackles = np.asarray(weights) > 1.0 if tackle_weight > 1.0 else np.zeros(len(weights), dtype=bool)
    return {"own_games_agreement": masked_agreement(logits_of, *moves),
            "own_games_toward_a_tackle": masked_agreement(logits_of, *(part[tackles] for part in moves))}


def tackles_count(weight: float):
    """``weigh`` for ``record_teacher_games``: ``weight`` for a recorded move toward a tackle
    (``toward_a_tackle``), 1 for any other. A tackle missed, or a pursuer's step not taken, lets the run go
    on, while most other moves the teacher makes in some order (a wall built one step at a time) cost little
    when made in another: those are the moves the fit must not get wrong."""

    def weigh(state, actions) -> np.ndarray:
        return np.where(toward_a_tackle(state, actions), weight, 1.0)

    return weigh


@dataclass(frozen=True)
class DistillConfig:
    """Settings of :func:`distil`. ``side``: the unit taught ("offence" or "defence"); ``teacher``: the
    teacher's name (``train.selfplay.make_teacher``); ``games``: teacher games recorded at first and
    student games per DAgger round; ``epochs``: passes over the samples per fit; ``lr``: Adam's step size;
    ``level_games``: games (even) per fixed member and probed temperature for the levels, 0 for none;
    ``situations``: the positions taught (``SITUATIONS``): "all"; "runs" (a back carries the ball: the
    teacher's run defence is taught and the net keeps its own play elsewhere, its pass coverage above all);
    "held" (the snap offence holds the ball in a play: the runs and the quarterback's time); or "held+fronts"
    (those and the formation pick against base personnel, ``the_defence_fronts_base_personnel``);
    ``own_share``: with a situation other than "all", the share (0-1) of the other positions recorded with the net's own greedy
    move as the label, so the fits keep that play; ``variants``: the rule variants played
    (``train.league.game_variants`` of the given game: "all" or "default"); ``variant_groups``: the configs
    each recording's games are split over (``teaching_configs``); ``tackle_weight``: a recorded move that is
    a move toward a tackle counts that many times in the fits' loss (``tackles_count``); ``fit_steps``:
    minibatches (of 1,024) per fit, however many samples there are so far (0: ``epochs`` passes over them,
    so that each DAgger fit takes longer than the last)."""

    teacher: str = "power_run"
    side: str = "defence"
    games: int = 1024
    epochs: int = 16
    dagger_rounds: int = 3
    lr: float = 1e-3
    seed: int = 0
    level_games: int = 32
    threads: int = 2
    situations: str = "all"
    own_share: float = 0.0
    variants: str = "all"
    variant_groups: int = 2
    tackle_weight: float = 1.0
    fit_steps: int = 0

    def __post_init__(self):
        owner = "DistillConfig"
        check_choice(owner, "side", self.side, SIDES)
        check_int(owner, "games", self.games, 2)
        check_int(owner, "epochs", self.epochs, 1)
        check_int(owner, "dagger_rounds", self.dagger_rounds, 0)
        check_number(owner, "lr", self.lr, 1e-7, 1.0)
        check_int(owner, "seed", self.seed, 0)
        check_int(owner, "level_games", self.level_games, 0, even=True)
        check_int(owner, "threads", self.threads, 1)
        check_choice(owner, "situations", self.situations, tuple(SITUATIONS))
        check_number(owner, "own_share", self.own_share, 0.0, 1.0)
        check_choice(owner, "variants", self.variants, VARIANT_SETS)
        check_int(owner, "variant_groups", self.variant_groups, 1)
        check_number(owner, "tackle_weight", self.tackle_weight, 1.0, 1000.0)
        check_int(owner, "fit_steps", self.fit_steps, 0)
        from train.selfplay import make_teacher

        make_teacher(self.teacher, "DistillConfig.teacher")

    @property
    def held_out_games(self) -> int:
        """Teacher games kept aside to measure the agreement on."""
        return max(8, self.games // 8)

    @property
    def games_recorded(self) -> int:
        """Full games the teaching plays: the held-out games and ``games`` for each fit."""
        return self.held_out_games + self.games * (self.dagger_rounds + 1)

    def batches_recorded(self, variant_count: int) -> int:
        """Game batches the teaching plays with ``variant_count`` rule variants: the held-out recording and
        one per fit, each split over up to ``variant_groups`` configs."""
        return (self.dagger_rounds + 2) * min(self.variant_groups, variant_count)


def distil(bot, cfg: DistillConfig, game_config=None, log=print):
    """The bot with its ``cfg.side`` net fitted to ``cfg.teacher``'s unit (see the module docstring), and a
    summary: samples, the training accuracy of each fit (with DAgger, each fit's net in the student's next
    games too: ``student_agreement``), the held-out agreement before and after, the seconds
    its recordings and its fits took ("recording_seconds", "fits_seconds"). The
    returned bot stores no levels (the old ones were measured for the old net)."""
    import dataclasses

    import torch

    from agents.base import TeamOfUnits
    from agents.bot import Bot, BotAgent
    from gridiron_env.config import GameConfig
    from train.export import linear_layers, torch_net
    from train.learners import by_side, fit_masked, masked_agreement
    from train.league import game_variants
    from train.selfplay import fixed_members, make_teacher

    torch.set_num_threads(cfg.threads)
    variants = game_variants(cfg.variants, dataclasses.asdict(game_config or GameConfig()))
    recordings = cfg.dagger_rounds + 1

    def configs(recording: int) -> list:
        return teaching_configs(variants, recording, recordings, cfg.variant_groups)

    temperature = bot.levels["hard"]
    other = "defence" if cfg.side == "offence" else "offence"
    own_units = BotAgent(bot, name="bot", temperature=temperature)
    teacher_unit = make_teacher(cfg.teacher)
    keep = SITUATIONS[cfg.situations]
    taught_unit, recorded = teacher_unit, None
    if keep is not None:
        # the target: the teacher's moves in its situations, the net's own greedy ones elsewhere (a share of
        # those recorded too, so the fits keep its play there)
        taught_unit = SituationTeacher(teacher_unit, BotAgent(bot, name="own", temperature=0.0), keep,
                                       name=f"{teacher_unit.name} on {cfg.situations}, the bot's own elsewhere")
        recorded = lambda seed: situations_and_a_share(keep, cfg.own_share, seed)  # noqa: E731
    units = {cfg.side: taught_unit, other: own_units}
    teacher = TeamOfUnits(units["offence"], units["defence"], name=f"{cfg.teacher} {cfg.side} with the bot's {other}")
    opponents = list(fixed_members("panel").values())
    net, linears = torch_net(getattr(bot, cfg.side), bot.activation)

    def current() -> Bot:
        nets = {cfg.side: linear_layers(linears), other: getattr(bot, other)}
        return Bot(nets["offence"], nets["defence"], bot.activation, bot.on_offence_index, bot.features_size,
                   bot.num_actions)

    # the held-out games, recorded once: the situation's positions (the teacher's moves) and, with a
    # situation, the others (the net's own moves there, kept or not)
    in_situation = []

    def noting(view):
        in_situation.append(np.ones(view.batch_size, bool) if keep is None else np.asarray(keep(view), bool))
        return np.ones(view.batch_size, bool)

    held_out_started = time.perf_counter()
    recording = record_across_configs(configs(0), teacher, opponents, cfg.held_out_games, cfg.seed + 99_991,
                                      keep_for=lambda seed: noting, weigh=toward_a_tackle)
    *side_moves, a_tackle = by_side(recording)[cfg.side]
    taught_rows = by_side((*recording[:2], np.concatenate(in_situation or [np.zeros(0, bool)])))[cfg.side][2]
    held_out = tuple(part[taught_rows] for part in side_moves)
    held_tackles = tuple(part[a_tackle[taught_rows] > 0] for part in held_out)
    elsewhere = None if keep is None else tuple(part[~taught_rows] for part in side_moves)
    played = {config for recording in range(recordings) for config in configs(recording)}
    summary = {"teacher": cfg.teacher, "side": cfg.side, "situations": cfg.situations, "own_share": cfg.own_share,
               "tackle_weight": cfg.tackle_weight, "fit_steps": cfg.fit_steps, "configs_played": len(played),
               "agreement_before": masked_agreement(net, *held_out),
               "toward_a_tackle_before": masked_agreement(net, *held_tackles), "fits": []}
    log(f"teaching over {len(played)} rule variant(s) of {len(variants)}, {min(cfg.variant_groups, len(variants))} "
        "per recording")
    weigh = tackles_count(cfg.tackle_weight)
    seconds = {"recording": time.perf_counter() - held_out_started, "fits": 0.0}  # the held-out games so far
    t0 = time.perf_counter()
    samples = by_side(record_across_configs(configs(0), teacher, opponents, cfg.games, cfg.seed,
                                            keep_for=recorded, weigh=weigh))[cfg.side]
    seconds["recording"] += time.perf_counter() - t0
    for dagger in range(cfg.dagger_rounds + 1):
        t0 = time.perf_counter()
        if dagger:
            student = BotAgent(current(), name="student", temperature=temperature)
            more = by_side(record_across_configs(configs(dagger), teacher, opponents, cfg.games,
                                                 cfg.seed + 7_919 * dagger, keep_for=recorded, weigh=weigh,
                                                 student=student, student_share=1.0))[cfg.side]
            samples = tuple(np.concatenate([a, b]) for a, b in zip(samples, more))
            # the last fit's net in the positions it reached itself, before this fit: the held-out games are
            # the teacher's own, and the student's drift from them is what those numbers do not show
            own_games = student_agreement(net, more, cfg.tackle_weight)
            summary["fits"][-1].update(own_games)
            log(f"in its own games the {cfg.side} net's move is the target's in {own_games['own_games_agreement']:.1%} "
                f"of {len(more[2]):,} positions" + ("" if cfg.tackle_weight <= 1 else
                f", in {own_games['own_games_toward_a_tackle']:.1%} of the target's moves toward a tackle"))
        t1 = time.perf_counter()
        seconds["recording"] += t1 - t0
        *moves, weights = samples
        accuracy = fit_masked(net, list(net.parameters()), *moves, cfg.epochs, cfg.lr, cfg.seed + dagger,
                              weights=weights, steps=cfg.fit_steps)
        seconds["fits"] += time.perf_counter() - t1
        summary["fits"].append({"samples": int(len(samples[2])), "accuracy": accuracy})
        log(f"{'fit' if not dagger else f'DAgger {dagger}'}: the {cfg.side} fitted to {len(samples[2]):,} moves of "
            f"{teacher_unit.name}, training accuracy {accuracy:.1%}")
    summary.update({f"{stage}_seconds": value for stage, value in seconds.items()})
    summary["agreement_after"] = masked_agreement(net, *held_out)
    summary["toward_a_tackle_after"] = masked_agreement(net, *held_tackles)
    log(f"agreement with {teacher_unit.name} on {len(held_out[2]):,} held-out {cfg.side} moves: "
        f"{summary['agreement_before']:.1%} -> {summary['agreement_after']:.1%}; on its {len(held_tackles[2]):,} "
        f"moves toward a tackle {summary['toward_a_tackle_before']:.1%} -> {summary['toward_a_tackle_after']:.1%}")
    if elsewhere is not None:
        summary["own_moves_kept"] = masked_agreement(net, *elsewhere)
        log(f"its own greedy move kept in {summary['own_moves_kept']:.1%} of {len(elsewhere[2]):,} held-out "
            f"{cfg.side} moves elsewhere")
    return current(), summary


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m train.distill", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    d = DistillConfig
    parser.add_argument("bot", help="the bot file (.npz) whose unit is taught")
    parser.add_argument("--out", required=True, help="the bot file to write (.npz)")
    parser.add_argument("--teacher", default=d.teacher,
                        help="heuristic, a panel style or OFFENCE+DEFENCE (default %(default)s)")
    parser.add_argument("--side", choices=SIDES, default=d.side, help="the unit taught (default %(default)s)")
    parser.add_argument("--games", type=int, default=d.games,
                        help="teacher games recorded, and student games per DAgger round (default %(default)s)")
    parser.add_argument("--epochs", type=int, default=d.epochs, help="passes over the samples per fit (default %(default)s)")
    parser.add_argument("--fit-steps", type=int, default=d.fit_steps,
                        help="minibatches (of 1,024) per fit however many samples so far, instead of --epochs "
                             "passes; 0 for passes (default %(default)s)")
    parser.add_argument("--dagger-rounds", type=int, default=d.dagger_rounds,
                        help="DAgger rounds after the first fit (default %(default)s)")
    parser.add_argument("--lr", type=float, default=d.lr, help="Adam's step size (default %(default)s)")
    parser.add_argument("--seed", type=int, default=d.seed, help="seed of the games and the fits (default %(default)s)")
    parser.add_argument("--level-games", type=int, default=d.level_games,
                        help="games (even) per fixed member and probed temperature when the levels are measured, "
                             "0 to store none (default %(default)s)")
    parser.add_argument("--threads", type=int, default=d.threads, help="torch threads (default %(default)s)")
    parser.add_argument("--situations", choices=tuple(SITUATIONS), default=d.situations,
                        help=f"the positions taught: {SITUATIONS_HELP} (default %(default)s)")
    parser.add_argument("--own-share", type=float, default=d.own_share,
                        help="with --situations other than all: the share (0-1) of the other positions taught the net's "
                             "own greedy move, so it keeps its play there (default %(default)s)")
    parser.add_argument("--variants", choices=VARIANT_SETS, default=d.variants,
                        help="the rule variants the teaching plays: all (specials on and off, both kick modes, "
                             "targets 14-35) or default (default %(default)s)")
    parser.add_argument("--variant-groups", type=int, default=d.variant_groups,
                        help="the rule variants each recording's games are split over (default %(default)s)")
    parser.add_argument("--tackle-weight", type=float, default=d.tackle_weight,
                        help="in the fits, a move toward a tackle (a tackle, or a step of a way to one the side's "
                             "points pay for this turn) counts this many times (default %(default)s)")
    return parser


def main(argv=None) -> dict:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        cfg = DistillConfig(teacher=args.teacher, side=args.side, games=args.games, epochs=args.epochs,
                            dagger_rounds=args.dagger_rounds, lr=args.lr, seed=args.seed,
                            level_games=args.level_games, threads=args.threads, situations=args.situations,
                            own_share=args.own_share, variants=args.variants, variant_groups=args.variant_groups,
                            tackle_weight=args.tackle_weight, fit_steps=args.fit_steps)
    except ValueError as err:
        parser.error(str(err))
    return teach_a_bot_file(parser, args.bot, args.out, lambda bot: distil(bot, cfg), cfg.level_games, cfg.seed)


def teach_a_bot_file(parser, bot_path: str, out_path: str, teach, level_games: int, seed: int,
                     write_summary: bool = False) -> dict:
    """The teaching commands' common end: the bot file loaded (refused in one line before anything is
    written), ``teach(bot)`` -> (new bot, summary), the new bot's levels measured (``level_games`` per fixed
    member and probed temperature; 0: none stored), the bot written to ``out_path`` (a .npz) and, with
    ``write_summary``, the summary next to it as JSON. Returns the summary."""
    import json

    from agents.bot import LEVELS, Bot, BotFileError

    out = Path(out_path)
    if out.suffix != ".npz":
        parser.error(f"--out must name a .npz file, got {out_path!r}")
    try:
        bot = Bot.load(bot_path)
    except BotFileError as err:  # one line naming the file, before anything is written
        print(f"{parser.prog}: bot file refused: {err}", file=sys.stderr)
        raise SystemExit(1) from None
    new, summary = teach(bot)
    if level_games:
        from train.levels import calibrate

        temperatures, rates = calibrate(new, level_games, seed)
        new.set_levels(temperatures, rates)
        summary["levels"] = dict(zip(LEVELS, temperatures))
        print("levels: " + ", ".join(f"{name} {t:g} ({r:.0%})" for name, t, r in
                                     zip(LEVELS, temperatures, rates)))
    out.parent.mkdir(parents=True, exist_ok=True)
    new.save(out)
    if write_summary:
        out.with_suffix(".json").write_text(json.dumps(summary, indent=1))
    print(f"written {out}" + (f" and {out.with_suffix('.json').name}" if write_summary else ""))
    return summary


if __name__ == "__main__":
    main()
