"""League self-play training of an **offence policy** and a **defence policy**, then export and evaluation.

    python -m train.selfplay                      # the main job: default TrainConfig, 25 min on 2 cores
    python -m train.selfplay --minutes 2 --out runs/quick

Stages (all in ``TrainConfig``):

1. **Imitation warm start**: the ``teacher`` (the heuristic, a panel style, or a team of two panel styles,
   ``agents.panel.composite``) plays full games against the league's fixed members; each policy (offence: the team that had the ball at the snap; defence: the
   other) is fitted to its moves by cross-entropy over the legal actions. Then ``dagger_rounds`` times the
   student plays those games itself, the teacher labels the positions it reaches, and both policies are
   fitted again to everything recorded (DAgger). This gives PPO a strong start instead of random play.
   Or ``--init-bot BOT``: the pair starts from a bot file's nets (a shipped bot trained on), the first
   round fitting only the critics, which the file does not hold.
2. **League rounds** (``train.league``): each round trains the offence, then the defence, with MaskablePPO
   on the natively batched drive envs (``GridironOffence-v0`` / ``GridironDefence-v0``), split over several
   rule variants at once (specials on and off, both kick modes, target scores 14-35: ``variants``); every
   game's opponent is a league member drawn by prioritised fictitious self-play: mostly frozen snapshots
   of the learner pair, the rest the scripted panel (``agents.panel``) and the heuristic, the members the
   learner loses to more often. After each round the learner meets every member in a few full games
   (``league_games``), which set those chances, the learner's Elo and the TensorBoard scalars; then it
   joins the league as a snapshot.
3. **Teaching the defence**: its moves in a play fitted to the power wall's (``defence_teacher``,
   ``train.distill``), then its formation picks by search (``fronts_games``, ``train.fronts``), both
   within the budget.
4. **Export** of the pair (numpy ``bot.npz`` and ``bot.onnx``) and an **evaluation** against the random
   agent, the heuristic and every panel agent, printed as a table and saved.

Outputs in ``out``: ``offence.zip`` / ``defence.zip`` (checkpoints a rerun resumes from: tensors and JSON
only, see ``train.checkpoint``), ``bot.npz``, ``bot.onnx``, ``tensorboard/`` (SB3's scalars per side and
``league/``: win rate against each fixed member, Elo, pool makeup, imitation agreement, per round),
``evaluation.md``, ``train_config.json``, ``summary.json``. A checkpoint that is corrupt, foreign, of another
game or net, or an SB3 archive is refused: the job prints one line naming the file and exits with status 1,
changing nothing in ``out``.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from agents.bot import DEFAULT_LEVEL, LEVELS, Bot, BotAgent, BotFileError
from agents.panel.composite import TEAMS as DEFAULT_TEAMS
from gridiron_env.config import GameConfig
from train.checkpoint import CheckpointError, load_checkpoint, save_checkpoint
from train.export import actor_parameters, export_onnx, load_actor
from train.distill import SITUATIONS, SITUATIONS_HELP
from train.league import VARIANT_SETS
from train.settings import check_choice, check_int, check_number
from train.learners import (
    SIDES, agreement, by_side, learn_round, make_model, pair_agent, pair_bot, record_teacher_games, round_env,
    warm_start,
)


OPPONENT_SETS = ("panel", "heuristic")


@dataclass(frozen=True)
class TrainConfig:
    """Settings of a training run. Units: steps are learner actions summed over the batch of games.

    minutes: wall-clock budget from the start of the job to the end of the defence's teaching and front
        search, the imitation warm start and the PPO rounds included (a slow machine gets fewer rounds, not a
        longer job; at least one round runs, and the last ends within about half a round of its deadline:
        the budget less the teaching's and the search's time, their games and minibatches at the warm
        start's paces, ``teaching_reserve``); the levels and the evaluation come on top (about 3 minutes).
    rounds: the league's rounds in this run (a resumed run adds that many), or 0 (the default) for as many as
        ``minutes`` allows. With a number the job runs exactly that many, however long they take, and
        ``minutes`` no longer stops it (no teaching reserve is taken): the same seed, rounds and ``threads``
        give the same bot on a busy machine as on an idle one (the same torch and CPU), where the budget
        gives a slower one fewer rounds (15-16 for the default job on the 2-core machine idle, its front
        search included; 13 when its teaching fitted 36 passes a fit).
    teacher: the warm start's teacher: "heuristic", a panel style, or "OFFENCE+DEFENCE" (two panel styles,
        ``agents.panel.composite``), or several of these joined by commas (``agents.base.MixedTeam``: each
        game played as one of them, by the game's seed; a name given twice, twice the games). It also joins
        the league as a fixed member (a mixed one as each of its teams). The default plays half its games
        as spread passing with the power wall and half as ball control with the wall: the strongest scripted
        team alone (spread passing with the wall; its imitated pair, before any PPO, won 10-42% against the
        heuristic and each panel style, the heuristic's imitated pair 0-10%, 100 games each) loses to the
        power run (its offence with the wall's defence won 47.0% against power_run, ball control's 72.3%;
        against prevent 78.2% and 64.2%, 400 games each), and a bot imitating it inherited that: the
        25-minute job with it won 37-58% against power_run across the rule sets, with the mix 69-86%
        (seed 0; README, "The default run").
    imitation_games: teacher games recorded for the warm start, against the fixed members in turn (0 skips
        it).
    imitation_epochs: passes over those samples. 12: the default job with 12 won 39-91% against each panel
        agent and 54% against the heuristic (400 games each), with 6 37-82% and 49%, in the same 25 minutes.
    dagger_rounds: rounds of DAgger after the first fit (each: ``imitation_games`` more games played by the
        student and labelled by the teacher, then a fit to all samples).
    imitation_variant_groups: 0 (the default): the warm start plays the job's game alone (``game``, the default
        game unless set); n: each of its recordings is split over n of the rule variants of ``variants``
        (``train.learners.teaching_configs``): with two, half its games have the specials and half not, and
        the DAgger recording plays the other kick mode; with one, each recording plays one variant.
    teacher_without_specials: the warm start's teacher in its games without the specials (None: ``teacher``);
        the observation says which rules are in force, so the policies can learn one offence for each.
    num_envs: games per drive environment batch (large batches amortise the opponent's turns, which run
        as rounds of engine calls over the games still waiting).
    round_steps: the offence's learner steps in one PPO round.
    defence_share: the defence's learner steps in one PPO round, as a share of ``round_steps`` (rounded, at
        least one step; 1: as many as the offence). The defence's steps cost 2.5 times the offence's (its
        opponents are the scripted offences, which plan every move) and its PPO drifts from the warm start's
        wall to a weaker defence (README, "Its defence was the weak unit"), so the default spends the round on the offence:
        131,072 steps to 32,768 (README, "The default run").
    pool_size: frozen snapshots of the learner pair kept in the league.
    snapshot_share: share of training games against snapshots once there is one (the rest: the panel and
        the heuristic).
    pfsp_power: PFSP weighting, (1 - win rate) ** pfsp_power (0: uniform).
    league_games: full games (even) against every league member after each round: PFSP, Elo, TensorBoard
        (the league's win rates are smoothed over rounds; 16 took 27% of a round).
    opponents: the league's fixed members: "panel" (the heuristic, every agent of agents.panel.PANEL and
        the ``teams``) or "heuristic" (the heuristic alone).
    teams: the teams of two styles ("OFFENCE+DEFENCE", ``agents.panel.composite``) that join the panel as
        fixed members, and the evaluation's and the levels' opponents with it (default
        ``agents.panel.composite.TEAMS``); the other teams stay opponents the bot never met
        (``benchmarks/panel_table.py --teams`` plays them all).
    variants: the rule variants trained on: "all" (specials on/off x kick modes x targets 14-35) or
        "default" (the ``game`` config only).
    env_groups: drive envs per side and round, each under one variant (the default game always one of them).
    level_games: games (even) against each fixed member per probed temperature when the exported bot's
        difficulty levels are measured and stored in it (``train.levels``); 0 keeps the default levels.
    eval_games: games against each baseline in the final evaluation (both teams balanced).
    threads: torch threads (the machine's 2 cores; the envs step while torch is idle).
    init_bot: a bot file (``.npz``, as this job exports) whose offence and defence nets start the learner
        pair instead of the imitation warm start: a fresh run goes on from a shipped bot. Its first round
        trains the critics only (the actors frozen, as the file holds no critic), then the league runs as
        usual; None for none.
    defence_teacher: after the last round, the defence net is taught this teacher's defence
        (``train.distill``: ``distil_games`` games, ``distil_rounds`` DAgger rounds, ``distil_fit_steps``
        minibatches a fit, the offence kept) before the export, within the budget; None skips it. The default is the
        power wall (``agents.panel.power``), a run defence: it lifted the 434-round shipped bot from
        65.8-84.2% to 86.2-94.0% against every panel agent.
    distil_situations: the positions of that teaching (``train.distill.SITUATIONS``): "held" (the snap
        offence holds the ball in a play: the quarterback's time and the runs), "held+fronts" (those and
        the formation pick against base personnel, at most three wide receivers), "runs" (a back carries
        the ball) or "all". Taught everywhere, the seventeenth session's job's bot lost its pass defence
        (26.2% against the team of spread passing and the wall: the wall's run fronts against the spread
        sets); taught on runs, the nineteenth session's seed-1 job's bot won 52.8% against the heuristic,
        taught on "held" 73.8%. On "held+fronts" the seed-1 job's rounds won 62-64% against ball_control in
        the three rule sets without the specials where "held" won 58-60%, but seed 0's won 57-66% against it,
        under 60% in six rule sets (62-80% on "held"; README, "The default run").
    distil_fit_steps: minibatches (of 1,024 samples) per fit of that teaching, however many samples the
        DAgger rounds have gathered: each fit starts from the last one's net, and a fixed count makes the
        teaching's time known in advance (``teaching_reserve``). 2,600 is about what 36 passes over the
        first fit's samples took (2,300-2,600 minibatches); at 36 passes over every fit's samples the
        default job's fits took 268 s of its 437 s teaching (four fits of 2,300-9,700 minibatches). See
        README, "The default run".
    distil_own_share: with a situation other than "all", the share of the other positions recorded with the net's own
        greedy move as the label (``train.distill.DistillConfig.own_share``): the long fits then keep its
        play there. With 48 passes and 0.3 (on runs), the seed-1 job won 62.7% against power_run (55.0% before) and 89.5%
        against the team (81.5%).
    distil_variant_groups: the rule variants of ``variants`` each recording of that teaching is split over
        (``train.learners.teaching_configs``): with one, each of its four recordings plays one variant, the
        default game first and two of them without the specials; every extra batch costs its steps' time
        again (split in two, the teaching took 409 s instead of 292-316 s). Taught on the default game
        alone, the 25-minute bot won 50-64% against power_run with specials off (62-72% with them).
    distil_tackle_weight: in that teaching's fits, a move toward a tackle (``train.distill.toward_a_tackle``:
        a tackle, or a step of a way to one the points pay for this turn) counts this many times. The
        seed-1 job's bot missed 8% of the wall's tackles in the positions it reached; the wall's move there
        alone took it from 55.8% to 61.3% against power_run without the specials. Counted 8 times, the
        same rounds taught anew won 2.5-3 points more there (README, "The default run").
    fronts_games: after that teaching, the defence's formation picks are taught by search
        (``train.fronts``: ``fronts_games`` full games against the fixed members; at half of the defence's
        picks fronts are played out on copies of the game to the end of the drive, and a front that concedes
        fewer points than the net's own pick by two standard errors is taught), within the budget; 0 skips
        it. With 1,024 (about 2.5 minutes) the seed-1 job won 60-69% against ball_control without the
        specials, where the same rounds untaught had won 56-62% (README, "The default run").
    fronts_candidates: fronts besides the net's own searched at each of those picks (``train.fronts.
        FrontsConfig.candidates``; fewer than all eight: a fifth of the picks, searched with every front,
        nominates them; two took half the time of all eight and taught the same fronts).
    """

    seed: int = 0
    minutes: float = 25.0
    rounds: int = 0
    teacher: str = "spread_pass+power_run,ball_control+power_run"
    imitation_games: int = 512
    imitation_epochs: int = 12
    dagger_rounds: int = 1
    imitation_variant_groups: int = 0
    teacher_without_specials: str | None = None
    imitation_lr: float = 1e-3
    num_envs: int = 2048
    n_steps: int = 8
    batch_size: int = 2048
    n_epochs: int = 4
    learning_rate: float = 3e-4
    gamma: float = 0.995
    gae_lambda: float = 0.95
    clip_range: float = 0.1
    ent_coef: float = 0.002
    net_arch: tuple[int, ...] = (256, 256)
    round_steps: int = 131_072
    defence_share: float = 0.25
    pool_size: int = 8
    snapshot_share: float = 0.6
    pfsp_power: float = 2.0
    league_games: int = 8
    opponents: str = "panel"
    teams: tuple[str, ...] = DEFAULT_TEAMS
    variants: str = "all"
    env_groups: int = 4
    level_games: int = 16
    start: str = "random"
    field_position_weight: float = 0.5
    eval_games: int = 400
    threads: int = 2
    out: str = "runs/default"
    progress_bar: bool = True
    game: dict = field(default_factory=dict)  # GameConfig fields for the drives (defaults: the game's)
    init_bot: str | None = None
    defence_teacher: str | None = "power_run"
    distil_games: int = 1024
    distil_rounds: int = 3
    distil_situations: str = "held"
    distil_own_share: float = 0.3
    distil_variant_groups: int = 1
    distil_tackle_weight: float = 8.0
    distil_fit_steps: int = 2_600
    fronts_games: int = 1024
    fronts_candidates: int = 2

    def __post_init__(self):
        owner = "TrainConfig"
        for name in ("num_envs", "n_steps", "batch_size", "n_epochs", "round_steps", "threads", "imitation_epochs",
                     "env_groups", "distil_fit_steps", "distil_variant_groups"):
            check_int(owner, name, getattr(self, name), 1)
        for name in ("imitation_games", "pool_size", "dagger_rounds", "distil_rounds", "rounds",
                     "imitation_variant_groups"):
            check_int(owner, name, getattr(self, name), 0)
        for name in ("eval_games", "level_games"):  # each deal is played from both sides
            check_int(owner, name, getattr(self, name), 0, even=True)
        check_int(owner, "league_games", self.league_games, 2, even=True)
        check_int(owner, "distil_games", self.distil_games, 2)
        check_int(owner, "fronts_games", self.fronts_games, 0, even=True)
        from train.fronts import FRONTS

        check_int(owner, "fronts_candidates", self.fronts_candidates, 1, high=FRONTS - 1)
        check_number(owner, "snapshot_share", self.snapshot_share, 0.0, 1.0)
        check_number(owner, "pfsp_power", self.pfsp_power, 0.0, 16.0)
        check_number(owner, "defence_share", self.defence_share, 1e-6, 16.0)
        check_number(owner, "minutes", self.minutes, 0.0)
        check_choice(owner, "opponents", self.opponents, OPPONENT_SETS)
        check_choice(owner, "variants", self.variants, VARIANT_SETS)
        check_choice(owner, "start", self.start, ("kickoff", "random"))
        check_choice(owner, "distil_situations", self.distil_situations, tuple(SITUATIONS))
        check_number(owner, "distil_own_share", self.distil_own_share, 0.0, 1.0)
        check_number(owner, "distil_tackle_weight", self.distil_tackle_weight, 1.0, 1000.0)
        GameConfig.from_dict(self.game)  # validates the game fields
        if self.init_bot is not None and (not isinstance(self.init_bot, str) or not self.init_bot):
            raise ValueError(f"TrainConfig.init_bot must be a bot file's path or None, got {self.init_bot!r}")
        make_teacher(self.teacher)  # ValueError naming the field for an unknown style
        if self.teacher_without_specials is not None:
            make_teacher(self.teacher_without_specials, "TrainConfig.teacher_without_specials")
            if not self.imitation_variant_groups and GameConfig.from_dict(self.game).specials:
                raise ValueError("TrainConfig.teacher_without_specials needs imitation_variant_groups >= 1: with 0 "
                                 "the warm start plays only the job's game, which has the specials")
        if self.defence_teacher is not None:
            make_teacher(self.defence_teacher, "TrainConfig.defence_teacher")
        check_teams(self.teams)


def check_teams(teams, field: str = "TrainConfig.teams") -> None:
    """ValueError naming ``field`` unless ``teams`` is a tuple of distinct "OFFENCE+DEFENCE" names of two
    different panel styles."""
    from agents.panel.composite import composite_from_name

    if not isinstance(teams, tuple) or not all(isinstance(t, str) for t in teams):
        raise ValueError(f"{field} must be a tuple of 'OFFENCE+DEFENCE' names, got {teams!r}")
    for team in teams:
        offence, plus, defence = team.partition("+")
        if not plus or offence == defence:
            raise ValueError(f"{field}: {team!r} is not a team of two different panel styles ('OFFENCE+DEFENCE')")
        try:
            composite_from_name(team)
        except ValueError as err:
            raise ValueError(f"{field}: {err}") from None
    if len(set(teams)) != len(teams):
        raise ValueError(f"{field} names a team twice: {list(teams)}")


def make_teacher(name: str, field: str = "TrainConfig.teacher"):
    """The teacher agent named ``name`` (a warm start's or a distillation's: ``field``, named by the
    ValueError for an unknown one): "heuristic", a panel style, a team "OFFENCE+DEFENCE", or several of
    these joined by commas, a ``agents.base.MixedTeam`` that plays each game as one of them (by the game's
    seed), e.g. "spread_pass+power_run,ball_control+power_run"; a name given twice plays twice the games."""
    from agents.base import MixedTeam
    from agents.heuristic import HeuristicAgent
    from agents.panel.composite import composite_from_name

    if not isinstance(name, str):
        raise ValueError(f"{field} must be a teacher's name (str), got {name!r}")
    parts = name.split(",")
    if len(parts) > 1:
        return MixedTeam([make_teacher(part, field) for part in parts], name=name)
    if name == "heuristic":
        return HeuristicAgent()
    try:
        return composite_from_name(name)
    except ValueError as err:
        raise ValueError(f"{field} must be 'heuristic', a panel style, 'OFFENCE+DEFENCE' or several joined by "
                         f"commas: {err}") from None


# --- the league's members --------------------------------------------------------------------------------

def fixed_members(opponents: str, teams: tuple[str, ...] = DEFAULT_TEAMS) -> dict:
    """The league's fixed members by name: the heuristic, and unless ``opponents`` is "heuristic" the
    scripted panel and the ``teams`` (``TrainConfig.teams``)."""
    from agents.heuristic import HeuristicAgent
    from agents.panel import PANEL

    from agents.panel.composite import composite_from_name

    members = {"heuristic": HeuristicAgent()}
    if opponents == "panel":
        members.update({name: make() for name, make in PANEL.items()})
        members.update({name: composite_from_name(name) for name in teams})
    return members


def snapshot_agent(policy, name: str, temperature: float = 1.0) -> BotAgent:
    """A frozen numpy copy of one side's actor, playing whichever side it is asked to (both nets the same).

    It samples (``temperature`` 1, like the learner) rather than taking its best action: a deterministic
    policy that picks a free same-row handoff once picks it back again, forever, and such a loop stalls the
    whole batch until the game's step cap."""
    from train.export import to_bot

    return BotAgent(to_bot(policy, policy), name=name, temperature=temperature)


CHECKPOINT_NAMES = {"offence": "offence.zip", "defence": "defence.zip"}


def resume_model(path: Path, side: str, env, cfg: TrainConfig, tensorboard: str | None, log=print):
    """A fresh model of ``side`` (``train.learners.make_model``) with the checkpoint's tensors, counters and
    hyperparameters (as a resume always kept them); the batch shape (``n_steps``, ``num_envs``,
    ``batch_size``) is this run's. Returns ``(model, meta)``; raises ``CheckpointError``."""

    def build(hyperparameters: dict):
        return make_model(env, dataclasses.replace(cfg, **hyperparameters), tensorboard)

    model, meta = load_checkpoint(path, side, build, cfg.net_arch, activation="tanh")
    kept = [f"{name} {value!r} (this run's config: {getattr(cfg, name)!r})"
            for name, value in meta["hyperparameters"].items() if getattr(cfg, name) != value]
    if kept:
        log(f"the {side} keeps its checkpoint's " + ", ".join(kept))
    return model, meta


def train(cfg: TrainConfig, log=print) -> dict:
    """Run the whole job; returns a summary dict (paths, timings, evaluation rows).

    Resumes from ``offence.zip`` and ``defence.zip`` in ``cfg.out`` when both are there; raises
    ``CheckpointError`` (before writing anything) if either is refused or only one is there."""
    import torch

    from train.league import League, LeagueOpponent, game_variants, round_variants

    torch.set_num_threads(cfg.threads)
    out = Path(cfg.out)
    checkpoints = {side: out / name for side, name in CHECKPOINT_NAMES.items()}
    present = {side: path.exists() or path.is_symlink() for side, path in checkpoints.items()}
    if any(present.values()) and not all(present.values()):
        missing = next(side for side, there in present.items() if not there)
        other = "defence" if missing == "offence" else "offence"
        raise CheckpointError(checkpoints[missing], f"missing, while {checkpoints[other].name} is there: a run resumes "
                              f"from both checkpoints; restore it, or move {checkpoints[other].name} away to start "
                              "fresh")
    resumed = all(present.values())
    if resumed and cfg.init_bot is not None:
        raise CheckpointError(checkpoints["offence"], "is there, and init_bot starts a fresh run from a bot file: "
                              "resume without init_bot, or give another out folder")
    init_bot = None if cfg.init_bot is None else Bot.load(cfg.init_bot)  # BotFileError names the file
    game_config = GameConfig.from_dict(cfg.game)
    started = time.perf_counter()
    summary: dict = {"out": str(out)}

    members = fixed_members(cfg.opponents, cfg.teams)
    # the warm start's teacher is a fixed member too (the learner must beat it); a mixed one joins as its
    # teams, not as the mix: each of its games is one of them, and a team the league has joins once
    for part in dict.fromkeys(cfg.teacher.split(",")):
        if part not in members:
            members[part] = make_teacher(part)
    league = League(members, pool_size=cfg.pool_size, snapshot_share=cfg.snapshot_share, pfsp_power=cfg.pfsp_power)
    seats = {side: (lambda: LeagueOpponent(league)) for side in SIDES}  # a fresh seat for every drive env
    variants = game_variants(cfg.variants, cfg.game)
    groups = min(cfg.env_groups, len(variants))
    tensorboard = str(out / "tensorboard")
    models = {}
    rounds_before = {"offence": 0, "defence": 0}  # league rounds each side finished in earlier runs
    for side in SIDES:
        # the model's first env fixes its batch size (every round's envs have cfg.num_envs games)
        env = round_env(side, seats, cfg, round_variants(variants, 0, groups), 0)
        try:
            if resumed:
                # the batch shape may differ from the saved run's: the rollout buffer is built for this one
                models[side], meta = resume_model(checkpoints[side], side, env, cfg, tensorboard, log)
                rounds_before[side] = meta["progress"]["rounds"]
                log(f"resumed the {side} from {checkpoints[side]} (round {rounds_before[side]}, "
                    f"{models[side].num_timesteps:,} steps)")
            else:
                models[side] = make_model(env, cfg, tensorboard)
                if init_bot is not None:
                    try:
                        load_actor(models[side].policy, getattr(init_bot, side), init_bot.activation)
                    except ValueError as err:  # another net shape: say which file and how
                        raise BotFileError(f"{cfg.init_bot}: its {side} net does not fit the run's "
                                           f"(net_arch {list(cfg.net_arch)}): {err}") from None
                    log(f"the {side} starts from {cfg.init_bot}")
        finally:
            env.close()  # each round sets envs of its own
    if resumed:  # the league of the earlier run is not kept: the resumed pair is its first snapshot
        league.add_snapshot("resumed", pair_agent(models, "resumed", 1.0))
    # written only once the checkpoints (if any) are accepted: a refused resume changes nothing in ``out``
    out.mkdir(parents=True, exist_ok=True)
    (out / "train_config.json").write_text(json.dumps(dataclasses.asdict(cfg), indent=2))

    # the bar counts the budget's seconds from the start of the job, imitation included, and ticks while a
    # round runs; it appears once the checkpoints are accepted; log lines go above it
    with _budget_bar(cfg, started) as bar:
        if cfg.progress_bar and log is print:
            log = bar.write
        # the teacher's moves: the warm start's samples, and held-out games the rounds' agreement is measured on
        held_out = None
        if cfg.imitation_games:
            bar.set_description("imitation")
            t0 = time.perf_counter()
            teacher, opponents = make_teacher(cfg.teacher), list(fixed_members(cfg.opponents, cfg.teams).values())
            held_out_games = max(2, cfg.imitation_games // 16)
            held_out = by_side(record_teacher_games(teacher, opponents, held_out_games, cfg.seed + 78_787,
                                                    game_config))
            small_batch_seconds = time.perf_counter() - t0
            if not resumed and init_bot is None:
                teacher_for = None  # the one teacher in every game
                if cfg.teacher_without_specials is not None:
                    without_specials = make_teacher(cfg.teacher_without_specials)
                    teacher_for = lambda config: teacher if config.specials else without_specials  # noqa: E731
                summary.update(warm_start(models, teacher, opponents, cfg.imitation_games, cfg.dagger_rounds,
                                          cfg.imitation_epochs, cfg.imitation_lr, cfg.seed + 77, game_config, log,
                                          variants if cfg.imitation_variant_groups else None,
                                          max(cfg.imitation_variant_groups, 1),
                                          teacher_for))
                seconds = time.perf_counter() - t0
                log(f"imitation took {seconds:.0f} s")
                # the defence's teaching comes out of the budget too: the rounds end early enough for it, at
                # the warm start's paces (a resumed run or one from a bot file has no pace: it teaches after)
                reserve = teaching_reserve(cfg, summary, small_batch_seconds)
                if reserve and not cfg.rounds:  # a fixed number of rounds needs no reserve
                    summary["teaching_reserve_seconds"] = reserve
                    stages = [name for name, on in (("teaching", cfg.defence_teacher), ("front search", cfg.fronts_games))
                              if on]
                    log(f"the rounds end {reserve:.0f} s before the budget, for the defence's {' and '.join(stages)}")

        deadline = started + cfg.minutes * 60 - summary.get("teaching_reserve_seconds", 0.0)
        rounds, round_seconds = 0, 0.0
        writer = _league_writer(out / "tensorboard" / "league")
        bar.set_description("league")
        while _another_round(rounds, time.perf_counter(), deadline, round_seconds, cfg.rounds):
            index = rounds_before["offence"] + rounds
            t0 = time.perf_counter()
            # a bot file holds actors only: the first round fits the critics to them, the actors frozen
            frozen = ([p for side in SIDES for p in actor_parameters(models[side].policy)]
                      if init_bot is not None and rounds == 0 else [])
            for parameter in frozen:
                parameter.requires_grad_(False)
            try:
                learn_round(models, seats, cfg, round_variants(variants, index, groups), index)
            finally:
                for parameter in frozen:
                    parameter.requires_grad_(True)
            for side in SIDES:
                save_checkpoint(checkpoints[side], models[side], side, rounds=rounds_before[side] + rounds + 1)
            t1 = time.perf_counter()
            figures = league_round(league, models, index, cfg, game_config, writer, held_out,
                                   seconds={"learn": t1 - t0})
            rounds += 1
            round_seconds = time.perf_counter() - t0
            if cfg.rounds:
                bar.update(1)
            bar.set_postfix(_short(figures))
            if not cfg.progress_bar:
                log(" | ".join(f"{k} {v}" for k, v in _short(figures).items()))
    if writer is not None:
        writer.close()
    summary["league"] = {"elo": league.elo(), "members": [
        {"name": m.name, "kind": m.kind, "win_rate": m.win_rate, "games": m.games} for m in league.members]}
    summary["rounds"] = rounds
    summary["total_rounds"] = rounds_before["offence"] + rounds
    summary["train_seconds"] = time.perf_counter() - started
    budget = f"{cfg.rounds} round(s) asked" if cfg.rounds else f"budget {cfg.minutes * 60:.0f} s"
    log(f"trained {summary['train_seconds']:.0f} s ({budget}): {rounds} league round(s)")

    if cfg.defence_teacher is not None:
        summary["distil"] = distil_defence(models, cfg, game_config, log)
    if cfg.fronts_games:
        summary["fronts"] = teach_defence_fronts(models, cfg, game_config, log)

    t0 = time.perf_counter()
    bot = pair_bot(models)
    bot.save(out / "bot.npz")
    written = "bot.npz and bot.onnx"
    try:
        export_onnx(models["offence"].policy, models["defence"].policy, out / "bot.onnx")
    except ImportError as err:  # onnx / onnxscript not installed: the numpy bot is enough to play
        log(f"ONNX export skipped, bot.npz is written: {err}")
        written = "bot.npz"
    summary["bot"] = str(out / "bot.npz")
    summary["export_seconds"] = time.perf_counter() - t0
    log(f"exported {written} ({summary['export_seconds']:.0f} s)")
    if cfg.level_games:
        from train.levels import store_levels

        t0 = time.perf_counter()
        log("difficulty levels (win rate against the heuristic and the panel, pooled):")
        temperatures, rates = store_levels(out / "bot.npz", cfg.level_games, cfg.seed + 31337, game_config,
                                           fixed_members(cfg.opponents, cfg.teams), log)
        summary["levels"] = {"temperatures": temperatures, "win_rates": rates}
        log(f"levels stored in bot.npz ({time.perf_counter() - t0:.0f} s): " +
            ", ".join(f"{name} {t:g} ({r:.0%})" for name, t, r in zip(LEVELS, temperatures, rates)))

    if cfg.eval_games:
        t0 = time.perf_counter()
        summary["evaluation"] = evaluate(out / "bot.npz", cfg.eval_games, cfg.seed + 2024, game_config, log,
                                         cfg.opponents, cfg.teams)
        (out / "evaluation.md").write_text(summary["evaluation"]["markdown"])
        summary["evaluation_seconds"] = time.perf_counter() - t0
        log(f"evaluation: {summary['evaluation_seconds']:.0f} s")
    summary["total_seconds"] = time.perf_counter() - started
    log(f"done in {summary['total_seconds']:.0f} s")
    (out / "summary.json").write_text(json.dumps({k: v for k, v in summary.items() if k != "evaluation"}, indent=2))
    return summary


def defence_distil_config(cfg: TrainConfig):
    """The ``train.distill`` settings of the job's defence teaching (``cfg.defence_teacher``, which is set)."""
    from train.distill import DistillConfig

    return DistillConfig(teacher=cfg.defence_teacher, side="defence", games=cfg.distil_games,
                         dagger_rounds=cfg.distil_rounds, lr=cfg.imitation_lr,
                         seed=cfg.seed + 4_243, level_games=0, threads=cfg.threads,
                         situations=cfg.distil_situations, own_share=cfg.distil_own_share,
                         variants=cfg.variants, variant_groups=cfg.distil_variant_groups,
                         tackle_weight=cfg.distil_tackle_weight, fit_steps=cfg.distil_fit_steps)


def _teach_the_defence(models, teach, done: str, log=print) -> dict:
    """Teach the learner's defence net with ``teach(bot)`` -> (taught bot, summary), the offence kept, and
    copy it into the defence model's actor (its critic stays: a resumed run's first PPO round fits it
    again). Logs ``done`` with the seconds; returns the summary, with its seconds."""
    t0 = time.perf_counter()
    taught, info = teach(pair_bot(models))
    load_actor(models["defence"].policy, taught.defence, taught.activation)
    info["seconds"] = time.perf_counter() - t0
    log(f"{done} ({info['seconds']:.0f} s)")
    return info


def distil_defence(models, cfg: TrainConfig, game_config: GameConfig, log=print) -> dict:
    """Teach the learner's defence net ``cfg.defence_teacher``'s defence (``train.distill.distil``).
    Returns the distillation's summary, with its seconds."""
    from train.distill import distil

    return _teach_the_defence(models, lambda bot: distil(bot, defence_distil_config(cfg), game_config, log),
                              f"the defence taught by {cfg.defence_teacher}", log)


def fronts_config(cfg: TrainConfig):
    """The ``train.fronts`` settings of the job's front search (``cfg.fronts_games`` > 0)."""
    from train.fronts import FrontsConfig

    return FrontsConfig(games=cfg.fronts_games, candidates=cfg.fronts_candidates, seed=cfg.seed + 4099,
                        threads=cfg.threads, variants=cfg.variants, opponents=cfg.opponents, teams=cfg.teams)


def teach_defence_fronts(models, cfg: TrainConfig, game_config: GameConfig, log=print) -> dict:
    """Teach the learner's defence net its formation picks by search (``train.fronts.teach_fronts``).
    Returns the search's summary, with its seconds."""
    from train.fronts import teach_fronts

    return _teach_the_defence(models, lambda bot: teach_fronts(bot, fronts_config(cfg), game_config, log),
                              "the defence's fronts taught by search", log)


# a teaching batch's fixed cost (its steps, whatever its size) in units of the warm start's small held-out
# batch: the default job's teaching split over two variants took 409 s where the unsplit one took 292-316 s,
# about 20 s for each of its 5 extra batches, against 5 s for the warm start's 32-game held-out batch
TEACHING_BATCH_COST = 4.0
# a teaching game's recording time in warm start games: the teaching's team has one scripted unit (the
# teacher's) and the bot's net, the warm start's two scripted units; the default job's teaching recorded
# its 4,224 games in 169 s and 206 s (seed 0, after 13 rounds and after 16), its warm start 1,024 in 88-89 s:
# 0.47-0.56 of its pace a game
TEACHING_GAME_COST = 0.55
# a front search's game (``train.fronts``: the game, its picks' scouts and candidates played out, the fit)
# in warm start games: the seed-1 default job's search took 155 s for 1,024 games where its warm start had
# recorded 0.078 s a game (1.95 of it)
FRONTS_GAME_COST = 1.95


def teaching_reserve(cfg: TrainConfig, warm_start: dict, small_batch_seconds: float = 0.0) -> float:
    """Seconds the rounds leave at the end of the budget for the defence's teaching and its front search, at
    the paces of the warm start (``warm_start``: its summary, ``train.learners.warm_start``). The teaching:
    its games at the warm start's recording pace a game, ``TEACHING_GAME_COST`` of it; for every batch its
    recordings are split into beyond one each (``distil_variant_groups`` above 1) the fixed cost of a batch,
    ``TEACHING_BATCH_COST`` times the warm start's small held-out recording's ``small_batch_seconds``; and
    its fits' minibatches (``distil_fit_steps`` a fit) at the warm start's fits' pace a minibatch. The front
    search: its games, ``FRONTS_GAME_COST`` of that pace each. 0 without either or without a measured pace.
    The warm start's own extra batches (its recordings split over ``imitation_variant_groups`` variants)
    are taken out of its recording pace the same way (at most half its time)."""
    games = warm_start.get("imitation_recorded_games", 0)
    if (cfg.defence_teacher is None and not cfg.fronts_games) or games <= 0:
        return 0.0
    from train.learners import FIT_BATCH
    from train.league import game_variants

    variant_count = len(game_variants(cfg.variants, cfg.game))
    warm_start_more_batches = (cfg.dagger_rounds + 1) * (min(max(cfg.imitation_variant_groups, 1), variant_count) - 1)
    recording = warm_start["imitation_recording_seconds"]
    per_game = max(recording - warm_start_more_batches * TEACHING_BATCH_COST * small_batch_seconds,
                   recording / 2) / games
    reserve = FRONTS_GAME_COST * per_game * cfg.fronts_games
    if cfg.defence_teacher is not None:
        taught = defence_distil_config(cfg)
        more_batches = taught.batches_recorded(variant_count) - taught.batches_recorded(1)
        per_minibatch = (warm_start["imitation_fits_seconds"]
                         / max(warm_start["imitation_sample_passes"] / FIT_BATCH, 1.0))
        reserve += (TEACHING_GAME_COST * per_game * taught.games_recorded
                    + more_batches * TEACHING_BATCH_COST * small_batch_seconds
                    + per_minibatch * taught.fit_steps * (taught.dagger_rounds + 1))
    return reserve


def _another_round(rounds: int, now: float, deadline: float, round_seconds: float, asked: int = 0) -> bool:
    """Whether the league starts another round. With ``asked`` rounds (``TrainConfig.rounds`` > 0): until
    there are that many, whatever the clock says. Otherwise always a first one, however slow the start;
    after that only while it is expected (the last round's ``round_seconds`` as the estimate) to end nearer
    the deadline than stopping now, so the rounds end within about half a round of the budget rather than a
    whole round past it."""
    if asked:
        return rounds < asked
    return rounds == 0 or now + round_seconds / 2 < deadline


@contextlib.contextmanager
def _budget_bar(cfg: TrainConfig, started: float):
    """tqdm's bar over the budget in seconds since ``started`` (``time.perf_counter``), moved every second by
    a thread so that it advances while a round runs; past the budget its total grows with the count, and
    when the block ends normally the total is the seconds actually taken (the rounds end within about half
    a round of the budget). With a number of rounds (``cfg.rounds``) it counts the rounds instead, moved by
    the caller's ``bar.update(1)`` after each."""
    from tqdm import tqdm

    if cfg.rounds:
        bar = tqdm(total=cfg.rounds, desc="setup: ", disable=not cfg.progress_bar, dynamic_ncols=True,
                   bar_format="{desc}{percentage:3.0f}%|{bar}| {n}/{total} rounds [{elapsed}]{postfix}")
        try:
            yield bar
        finally:
            bar.close()
        return

    def elapsed() -> int:
        return int(time.perf_counter() - started)

    total = max(1, round(cfg.minutes * 60))
    bar = tqdm(total=total, initial=min(total, elapsed()), desc="setup: ", disable=not cfg.progress_bar,
               dynamic_ncols=True, bar_format="{desc}{percentage:3.0f}%|{bar}| {n}/{total} s{postfix}")
    stop = threading.Event()

    def tick():
        while not stop.wait(1.0):
            bar.n = elapsed()
            bar.total = max(bar.total, bar.n)  # a last round that runs past the budget: the count goes on
            bar.refresh()

    ticker = threading.Thread(target=tick, name="budget-bar", daemon=True)
    if cfg.progress_bar:
        ticker.start()
    finished = False
    try:
        yield bar
        finished = True
    finally:
        stop.set()
        if ticker.is_alive():
            ticker.join()
        if finished:
            bar.total = bar.n = max(1, elapsed())
        bar.close()


def league_round(league, models, index: int, cfg: TrainConfig, game_config: GameConfig, writer=None,
                 held_out=None, seconds: dict | None = None) -> dict:
    """After round ``index``: the learner pair (at the default level) meets every league member in
    ``cfg.league_games`` full games of the ``game_config`` game, teams and tosses balanced; the results set
    the PFSP chances and the league's record; then the pair joins the league as a snapshot. The round's
    figures (win rate against each fixed member, Elo, pool makeup, agreement with the teacher on held-out
    moves, and the seconds the round's stages took: ``seconds`` plus the league's matches) go to
    TensorBoard (``writer``) and are returned."""
    from train.tournament import run_tournament

    started = time.perf_counter()
    name = f"learner-{index}"
    players = {name: pair_agent(models, name, LEVELS[DEFAULT_LEVEL])}
    players.update({m.name: m.agent for m in league.members})
    result = run_tournament(players, cfg.league_games, config=game_config, seed=cfg.seed + 7919 * (index + 1),
                            pairs=[(0, j) for j in range(1, len(players))])
    rates = league.record(name, result)
    league.add_snapshot(f"snapshot-{index}", pair_agent(models, f"snapshot-{index}", 1.0))
    fixed = [m.name for m in league.fixed_members()]
    panel = [rates[m] for m in fixed if m != "heuristic" and m in rates]
    figures = {"round": index + 1, "elo": league.elo()[name]}
    figures.update({f"win_rate/{m}": rates[m] for m in fixed if m in rates})
    if panel:
        figures["win_rate/panel_mean"] = float(np.mean(panel))
        figures["win_rate/panel_min"] = float(np.min(panel))
    figures.update({f"pool/{kind}": share for kind, share in league.makeup().items()})
    for side in SIDES:
        if held_out is not None:
            figures[f"imitation_agreement/{side}"] = agreement(models[side].policy, *held_out[side])
    figures.update({f"seconds/{stage}": s for stage, s in (seconds or {}).items()})
    figures["seconds/league_matches"] = time.perf_counter() - started
    if writer is not None:
        step = int(models["offence"].num_timesteps)
        for key, value in figures.items():
            if key != "round":
                writer.add_scalar(f"league/{key}", value, step)
        writer.flush()
    return figures


def _league_writer(path):
    """TensorBoard's writer for the league's scalars, or None when tensorboard is not installed."""
    try:
        from torch.utils.tensorboard import SummaryWriter
    except ImportError:
        return None
    return SummaryWriter(str(path))


def _short(figures: dict) -> dict:
    """The progress bar's postfix: round, Elo, the panel's latest mean and lowest win rate."""
    short = {"round": figures["round"], "elo": round(figures["elo"])}
    if "win_rate/panel_mean" in figures:
        short["panel"] = f"{figures['win_rate/panel_mean']:.0%} (min {figures['win_rate/panel_min']:.0%})"
    if "win_rate/heuristic" in figures:
        short["heuristic"] = f"{figures['win_rate/heuristic']:.0%}"
    return short


EVALUATION_COLUMNS = ("games", "wins", "losses", "truncated", "rate", "low", "high", "points_for", "points_against")


def match_row(bot, opponent, games: int, seed: int, game_config: GameConfig) -> dict:
    """``bot`` against ``opponent`` over ``games`` (even) full games, teams and coin tosses balanced (each
    deal played from both sides, ``train.tournament``); a truncated game counts half a win."""
    from train.tournament import run_tournament

    result = run_tournament({"bot": bot, "opponent": opponent}, games, config=game_config, seed=seed)
    row = result.pair_rows()[0]
    return {"games": row["games"], "wins": row["wins"], "losses": row["losses"], "truncated": row["truncations"],
            "rate": row["win_rate"], "low": row["win_low"], "high": row["win_high"],
            "points_for": row["points_for"], "points_against": row["points_against"]}


def _table(rows, first_column: str) -> str:
    lines = [f"| {first_column} | temperature | games | bot wins | losses | truncated | win rate | 95% interval | "
             "points for | points against |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r[first_column]} | {r['temperature']:g} | {r['games']} | {r['wins']} | {r['losses']} | "
                     f"{r['truncated']} | {r['rate']:.1%} | {r['low']:.1%}-{r['high']:.1%} | "
                     f"{r['points_for']:.1f} | {r['points_against']:.1f} |")
    return "\n".join(lines) + "\n"


def evaluation_opponents(opponents: str = "panel", teams: tuple[str, ...] = DEFAULT_TEAMS) -> dict:
    """The evaluation's opponents by name: the random agent, then the league's fixed members."""
    from agents.random_agent import RandomAgent

    return {"random": RandomAgent(), **fixed_members(opponents, teams)}


def evaluate(bot_path, games: int, seed: int, game_config: GameConfig, log=print, opponents: str = "panel",
             teams: tuple[str, ...] = DEFAULT_TEAMS) -> dict:
    """The bot at its default level against the random agent, the heuristic and every panel agent,
    ``games`` (even) full games each, teams and coin tosses balanced."""
    temperature = BotAgent.load(bot_path, level=DEFAULT_LEVEL).temperature  # the file's own level
    rows = []
    for label, opponent in evaluation_opponents(opponents, teams).items():
        bot = BotAgent.load(bot_path, name="bot", temperature=temperature)
        rows.append({"opponent": label, "temperature": temperature,
                     **match_row(bot, opponent, games, seed, game_config)})
    markdown = _table(rows, "opponent")
    log(markdown)
    return {"rows": rows, "markdown": markdown}


def evaluate_levels(bot_path, games: int, seed: int, game_config: GameConfig, log=print,
                    opponents: str = "panel", teams: tuple[str, ...] = DEFAULT_TEAMS) -> dict:
    """Each difficulty level of the bot (its file's own, else ``agents.bot.LEVELS``) against the heuristic and
    every panel agent, ``games`` (even) full games each; a level's row pools its games against all of them."""
    from agents.bot import Bot

    rows, detail = [], []
    for level, temperature in Bot.load(bot_path).levels.items():
        pooled = {k: 0.0 for k in EVALUATION_COLUMNS}
        for label, opponent in fixed_members(opponents, teams).items():
            bot = BotAgent.load(bot_path, name="bot", temperature=temperature)
            row = match_row(bot, opponent, games, seed, game_config)
            detail.append({"level": level, "opponent": label, "temperature": temperature, **row})
            for k in ("games", "wins", "losses", "truncated"):
                pooled[k] += row[k]
            pooled["points_for"] += row["points_for"] * row["games"]
            pooled["points_against"] += row["points_against"] * row["games"]
        from train.ratings import wilson_interval

        n = int(pooled["games"])
        points = pooled["wins"] + 0.5 * pooled["truncated"]
        low, high = wilson_interval(points, n)
        rows.append({"level": level, "temperature": temperature, "games": n, "wins": int(pooled["wins"]),
                     "losses": int(pooled["losses"]), "truncated": int(pooled["truncated"]), "rate": points / n,
                     "low": low, "high": high, "points_for": pooled["points_for"] / n,
                     "points_against": pooled["points_against"] / n})
    markdown = _table(rows, "level") + "\n" + _table([{**d, "level": f"{d['level']} vs {d['opponent']}"}
                                                      for d in detail], "level")
    log(markdown)
    return {"rows": rows, "detail": detail, "markdown": markdown}


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``python -m train.selfplay`` (gridiron; ``--game`` hands other games to
    ``train.games``)."""
    parser = argparse.ArgumentParser(prog="python -m train.selfplay", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    d = TrainConfig
    parser.add_argument("--game", default="gridiron",
                        help="gridiron (this job), or a protocol game trained by train.games (python -m train.games -h)")
    parser.add_argument("--out", default=d.out, help="run folder: checkpoints, bot, logs (default %(default)s)")
    parser.add_argument("--minutes", type=float, default=d.minutes,
                        help="wall-clock budget of imitation and rounds; export and evaluation on top (default %(default)s)")
    parser.add_argument("--rounds", type=int, default=d.rounds,
                        help="run exactly this many league rounds, however long they take (the same bot on a busy "
                             "machine as on an idle one), instead of as many as --minutes allows; 0 for the budget (default %(default)s)")
    parser.add_argument("--seed", type=int, default=d.seed, help="run seed (default %(default)s)")
    parser.add_argument("--num-envs", type=int, default=d.num_envs, help="games per drive env batch (default %(default)s)")
    parser.add_argument("--imitation-games", type=int, default=d.imitation_games,
                        help="the teacher's games for the warm start, 0 for none (default %(default)s)")
    parser.add_argument("--imitation-epochs", type=int, default=d.imitation_epochs,
                        help="passes over the warm start's samples (default %(default)s)")
    parser.add_argument("--imitation-variant-groups", type=int, default=d.imitation_variant_groups,
                        help="the rule variants (of --variants) each of the warm start's recordings is split over; "
                             "0: the job's game alone (default %(default)s)")
    parser.add_argument("--teacher-without-specials", default=d.teacher_without_specials, metavar="TEACHER",
                        help="the warm start's teacher in its games without the specials (default: --teacher)")
    parser.add_argument("--eval-games", type=int, default=d.eval_games,
                        help="final evaluation games against each opponent, even, 0 for none (default %(default)s)")
    parser.add_argument("--round-steps", type=int, default=d.round_steps,
                        help="the offence's learner steps per round (default %(default)s)")
    parser.add_argument("--defence-share", type=float, default=d.defence_share,
                        help="the defence's learner steps per round as a share of --round-steps (default %(default)s)")
    parser.add_argument("--n-steps", type=int, default=d.n_steps, help="PPO rollout length per game (default %(default)s)")
    parser.add_argument("--threads", type=int, default=d.threads, help="torch threads (default %(default)s)")
    parser.add_argument("--pool-size", type=int, default=d.pool_size,
                        help="learner snapshots kept in the league (default %(default)s)")
    parser.add_argument("--snapshot-share", type=float, default=d.snapshot_share,
                        help="share of training games against snapshots (default %(default)s)")
    parser.add_argument("--league-games", type=int, default=d.league_games,
                        help="games (even) against each league member after every round (default %(default)s)")
    parser.add_argument("--opponents", choices=OPPONENT_SETS, default=d.opponents,
                        help="the league's fixed members: the heuristic and the panel, or the heuristic alone "
                             "(default %(default)s)")
    parser.add_argument("--teams", nargs="*", default=list(d.teams), metavar="OFFENCE+DEFENCE",
                        help="teams of two panel styles that join the league as fixed members (default: "
                             f"{' '.join(d.teams)}; the flag alone for none)")
    parser.add_argument("--teacher", default=d.teacher,
                        help="the warm start's teacher: heuristic, a panel style, OFFENCE+DEFENCE, or several of these "
                             "joined by commas, each game played as one of them (a name given twice: twice the games; "
                             "default %(default)s)")
    parser.add_argument("--dagger-rounds", type=int, default=d.dagger_rounds,
                        help="DAgger rounds after the first imitation fit (default %(default)s)")
    parser.add_argument("--variants", choices=VARIANT_SETS, default=d.variants,
                        help="rule variants trained on (default %(default)s)")
    parser.add_argument("--level-games", type=int, default=d.level_games,
                        help="games (even) per opponent and probed temperature when the bot's levels are measured, "
                             "0 to keep the default levels (default %(default)s)")
    parser.add_argument("--defence-teacher", default=d.defence_teacher, metavar="TEACHER",
                        help="after the last round, teach the defence net this teacher's defence (train.distill): "
                             "heuristic, a panel style or OFFENCE+DEFENCE; none to skip it (default %(default)s)")
    parser.add_argument("--distil-games", type=int, default=d.distil_games,
                        help="games per stage of that teaching (default %(default)s)")
    parser.add_argument("--distil-rounds", type=int, default=d.distil_rounds,
                        help="its DAgger rounds (default %(default)s)")
    parser.add_argument("--distil-situations", choices=tuple(SITUATIONS), default=d.distil_situations,
                        help=f"the positions it teaches: {SITUATIONS_HELP} (default %(default)s)")
    parser.add_argument("--distil-own-share", type=float, default=d.distil_own_share,
                        help="with --distil-situations other than all: the share (0-1) of the other positions taught the net's "
                             "own greedy move, so it keeps its play there (default %(default)s)")
    parser.add_argument("--distil-variant-groups", type=int, default=d.distil_variant_groups,
                        help="the rule variants (of --variants) each of its recordings is split over "
                             "(default %(default)s)")
    parser.add_argument("--distil-tackle-weight", type=float, default=d.distil_tackle_weight,
                        help="in its fits, a move toward a tackle counts this many times (default %(default)s)")
    parser.add_argument("--distil-fit-steps", type=int, default=d.distil_fit_steps,
                        help="its minibatches (of 1,024 samples) per fit, however many samples so far "
                             "(default %(default)s)")
    parser.add_argument("--fronts-games", type=int, default=d.fronts_games,
                        help="after that teaching, teach the defence's formation picks by search (train.fronts) "
                             "over this many games (even), 0 to skip it (default %(default)s)")
    parser.add_argument("--fronts-candidates", type=int, default=d.fronts_candidates,
                        help="fronts besides the net's own searched at each pick, 1-8 (default %(default)s)")
    parser.add_argument("--init-bot", default=d.init_bot, metavar="BOT",
                        help="start the learner pair from this bot file (.npz) instead of the imitation warm start, "
                             "its first round training the critics only: go on from a shipped bot (default: none)")
    return parser


def main(argv=None):
    # --game NAME: a protocol game (Table Football, ...) is trained by train.games; gridiron stays here
    argv = sys.argv[1:] if argv is None else list(argv)
    game_parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    game_parser.add_argument("--game", default="gridiron")
    chosen = game_parser.parse_known_args(argv)[0].game
    if chosen != "gridiron":
        from train import games

        return games.main(argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        cfg = TrainConfig(out=args.out, minutes=args.minutes, rounds=args.rounds, seed=args.seed, num_envs=args.num_envs,
                          imitation_games=args.imitation_games, imitation_epochs=args.imitation_epochs,
                          imitation_variant_groups=args.imitation_variant_groups,
                          teacher_without_specials=args.teacher_without_specials, eval_games=args.eval_games,
                          round_steps=args.round_steps, defence_share=args.defence_share,
                          n_steps=args.n_steps, threads=args.threads,
                          pool_size=args.pool_size, snapshot_share=args.snapshot_share,
                          league_games=args.league_games, opponents=args.opponents, variants=args.variants,
                          level_games=args.level_games, teacher=args.teacher, dagger_rounds=args.dagger_rounds,
                          init_bot=args.init_bot, teams=tuple(args.teams),
                          defence_teacher=None if args.defence_teacher == "none" else args.defence_teacher,
                          distil_games=args.distil_games, distil_rounds=args.distil_rounds,
                          distil_situations=args.distil_situations,
                          distil_own_share=args.distil_own_share,
                          distil_variant_groups=args.distil_variant_groups,
                          distil_tackle_weight=args.distil_tackle_weight, distil_fit_steps=args.distil_fit_steps,
                          fronts_games=args.fronts_games, fronts_candidates=args.fronts_candidates)
    except ValueError as err:
        parser.error(str(err))
    try:
        return train(cfg)
    except CheckpointError as err:  # one line, no traceback: the file and why it is refused
        print(f"train.selfplay: checkpoint refused: {err}", file=sys.stderr)
        raise SystemExit(1) from None
    except BotFileError as err:  # the init_bot file: one line likewise
        print(f"train.selfplay: bot file refused: {err}", file=sys.stderr)
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()
