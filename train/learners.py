"""What every training command shares: the learner pair (an offence and a defence MaskablePPO policy on the
natively batched drive envs), the imitation warm start, one round of PPO for both sides, and the pair as
a bot.

A round trains each side for ``round_steps`` learner steps against an opponent seat (any ``agents.base``
agent with ``reset_games``, e.g. ``train.league.LeagueOpponent``) over one drive env per game config of
the round (``train.mixed_env.ConcatVecEnv``): the envs are built anew each round, so a round may switch
rule variants and opponents. ``python -m train.selfplay`` (league self-play) and ``python -m
train.exploit`` (a best response to a frozen bot) are both made of these pieces.
"""

from __future__ import annotations

import time

import numpy as np

from agents.bot import Bot, BotAgent
from gridiron_env.config import GameConfig
from gridiron_env.core.observe import FEATURES_SIZE, observe

SIDES = ("offence", "defence")


def pair_bot(models) -> Bot:
    """The learner pair (dict side -> model) as one numpy bot: offence net and defence net."""
    from train.export import to_bot

    return to_bot(models["offence"].policy, models["defence"].policy)


def pair_agent(models, name: str, temperature: float) -> BotAgent:
    """A frozen copy of the learner pair as a full-game agent (sampling at ``temperature``: a snapshot that
    samples never loops on a free handoff, which would stall a batch until the step cap)."""
    return BotAgent(pair_bot(models), name=name, temperature=temperature)


# --- imitation --------------------------------------------------------------------------------------------

def record_heuristic_games(games: int, seed: int, game_config: GameConfig, max_steps: int = 1500):
    """Features, legal masks and the heuristic's actions from heuristic-vs-heuristic games (acting side)."""
    from agents.heuristic import HeuristicAgent

    return record_teacher_games(HeuristicAgent(), None, games, seed, game_config, max_steps=max_steps)


def record_teacher_games(teacher, opponents, games: int, seed: int, game_config: GameConfig, student=None,
                         student_share: float = 0.0, max_steps: int = 1500, keep=None, weigh=None):
    """Imitation samples: ``games`` full games of the teacher's team against ``opponents`` (a list of agents,
    met in turn; the teacher's team alternates between team one and team two). At every decision of that
    team: its features (``observe`` from the acting side), the legal mask and the teacher's action.
    ``opponents`` None: the teacher plays both teams, and both teams' decisions are recorded.

    With ``student`` (an agent), the team is played by the student instead in a ``student_share`` of the
    games (every k-th game), still labelled by the teacher: DAgger's correction of the states the student
    itself reaches. ``keep`` (a function of a State batch, returning bool per game): only the decisions it
    keeps are recorded (the teacher still plays every one). Returns (float32 [n, F], bool [n, A], int64 [n]);
    with ``weigh`` (a function of the recorded positions' State batch and the teacher's actions there,
    returning a float per position), also each sample's weight in the fit (float32 [n])."""
    from gridiron_env.core import init, step

    config = game_config.replace(max_steps=max_steps)
    seeds = np.arange(seed, seed + games, dtype=np.int64)
    index = np.arange(games)
    both = opponents is None
    opponents = [] if both else list(opponents)
    recorded_team = index % 2
    opponent_of = (index // 2) % max(len(opponents), 1)
    by_student = np.zeros(games, dtype=bool)
    if student is not None and student_share > 0:
        every = max(1, int(round(1.0 / student_share)))
        by_student = index % every == 0
    players = [teacher] + opponents + ([student] if student is not None else [])
    reset = set()
    for agent in players:  # each agent keyed on every game's seed (an agent shared by two roles: once)
        if id(agent) not in reset:
            agent.reset(seeds.copy())
            reset.add(id(agent))
    state = init(seeds=seeds.astype(np.uint64), config=config)
    observations, masks, labels, weights = [], [], [], []
    while not (state.terminated | state.truncated).all():
        live = ~(state.terminated | state.truncated)
        ours = np.flatnonzero(live & (state.to_act >= 0) & (both | (state.to_act == recorded_team)))
        actions = np.zeros(games, dtype=np.int64)
        if ours.size:
            taught = np.asarray(teacher.act(state, config, games=ours), dtype=np.int64)[ours]
            actions[ours] = taught
            kept = np.ones(ours.size, dtype=bool) if keep is None else np.asarray(keep(state.take(ours)), dtype=bool)
            if kept.any():
                view = state.take(ours[kept])
                observations.append(observe(view, None, config))
                masks.append(view.legal.copy())
                labels.append(taught[kept])
                if weigh is not None:
                    weights.append(np.asarray(weigh(view, taught[kept]), dtype=np.float32))
            played = ours[by_student[ours]]
            if played.size:
                actions[played] = np.asarray(student.act(state, config, games=played), dtype=np.int64)[played]
        theirs = live & (state.to_act >= 0) & (state.to_act != recorded_team)
        for k, opponent in enumerate(opponents):
            rows = np.flatnonzero(theirs & (opponent_of == k))
            if rows.size:
                actions[rows] = np.asarray(opponent.act(state, config, games=rows), dtype=np.int64)[rows]
        state = step(state, actions, config=config)
    if not observations:
        samples = (np.zeros((0, FEATURES_SIZE), np.float32), np.zeros((0, state.legal.shape[1]), bool),
                   np.zeros(0, np.int64))
        return samples if weigh is None else (*samples, np.zeros(0, np.float32))
    samples = np.concatenate(observations), np.concatenate(masks), np.concatenate(labels)
    return samples if weigh is None else (*samples, np.concatenate(weights))


def teaching_configs(variants, recording: int, recordings: int, groups: int) -> list:
    """The game configs of recording ``recording`` (0-based) of a teaching's ``recordings``: ``groups`` of
    ``variants`` spaced evenly through the list, so with ``train.league.game_variants``' order (specials on,
    then off) two groups are one config with specials and one without; each recording starts further on, so
    together they spread over the variants. Recording 0 starts at the first variant (the default game)."""
    groups = min(groups, len(variants))
    block = len(variants) / groups
    start = int(recording * block / recordings)
    return [variants[(start + int(k * block)) % len(variants)] for k in range(groups)]


def even_parts(games: int, parts: int) -> list[tuple[int, int]]:
    """``games`` split into ``parts`` (start, end) ranges in order, each of an even size but the last (which
    ends at ``games``), as near equal as that allows; a range may be empty."""
    bounds = [2 * round(k * games / (2 * parts)) for k in range(parts + 1)]
    bounds[-1] = games
    return list(zip(bounds, bounds[1:]))


def record_across_configs(configs, teacher, opponents, games: int, seed: int, keep_for=None, teacher_for=None,
                          **options):
    """``train.learners.record_teacher_games`` with its ``games`` split into even parts, one per config of
    ``configs``, the samples concatenated; part games keep the seeds they have in one recording (``seed`` on).
    ``keep_for(first_seed)``: the ``keep`` function of the part whose games start at that seed (None: every
    decision); ``teacher_for(config)``: the teacher of that config's part (None: ``teacher`` in every part);
    ``options``: the other arguments of ``record_teacher_games``."""
    parts = [record_teacher_games(teacher if teacher_for is None else teacher_for(config), opponents, end - start,
                                  seed + start, config,
                                  keep=None if keep_for is None else keep_for(seed + start), **options)
             for config, (start, end) in zip(configs, even_parts(games, len(configs))) if end > start]
    return tuple(np.concatenate(pieces) for pieces in zip(*parts))


def by_side(samples):
    """Split imitation samples (observations, masks, actions and any further per-sample arrays, such as
    weights) into {"offence": ..., "defence": ...} by the observation's on-offence feature (the team that had
    the ball at the snap)."""
    from train.export import ON_OFFENCE_INDEX

    on_offence = samples[0][:, ON_OFFENCE_INDEX] > 0.5
    return {side: tuple(part[rows] for part in samples)
            for side, rows in (("offence", on_offence), ("defence", ~on_offence))}


def warm_start(models, teacher, opponents, games: int, dagger_rounds: int, epochs: int, lr: float, seed: int,
               game_config: GameConfig, log=print, variants=None, variant_groups: int = 1,
               teacher_for=None) -> dict:
    """The imitation warm start: ``games`` teacher games against ``opponents`` (``record_teacher_games``),
    both policies fitted to the teacher's moves; then ``dagger_rounds`` times the student (the pair at a low
    temperature) plays ``games`` more, the teacher labels them, and both policies are fitted again to all
    samples. ``variants`` (a list of GameConfig, None for ``game_config`` alone): each recording's games are
    split over ``variant_groups`` of them (``teaching_configs``: with ``train.league.game_variants``' order
    and two groups, half the games with the specials and half without); ``teacher_for(config)``: the teacher
    in that variant's games (None: ``teacher`` in all). Returns
    {"imitation_accuracy_<side>": training accuracy of the last fit, "imitation_samples": n,
    "imitation_configs": the rule variants played, "imitation_recording_seconds" and "imitation_fits_seconds":
    the time its game recordings and its fits took, "imitation_recorded_games", "imitation_sample_passes": the
    samples times the epochs over its fits}."""
    variants = [game_config] if not variants else list(variants)
    recordings = dagger_rounds + 1

    def configs(recording: int) -> list:
        return teaching_configs(variants, recording, recordings, variant_groups)

    played = [config for recording in range(recordings) for config in configs(recording)]
    taught_by = " and ".join(dict.fromkeys(
        (teacher if teacher_for is None else teacher_for(config)).name for config in played))
    seconds = {"recording": 0.0, "fits": 0.0}
    sample_passes = 0  # samples times epochs over the fits (the teaching's fits go at the same pace a pass)
    t0 = time.perf_counter()
    samples = record_across_configs(configs(0), teacher, opponents, games, seed, teacher_for=teacher_for)
    seconds["recording"] += time.perf_counter() - t0
    out = {}
    for dagger in range(dagger_rounds + 1):
        if dagger:
            t0 = time.perf_counter()
            student = pair_agent(models, "student", 0.1)
            more = record_across_configs(configs(dagger), teacher, opponents, games, seed + 7_919 * dagger,
                                         teacher_for=teacher_for, student=student, student_share=1.0)
            samples = tuple(np.concatenate([a, b]) for a, b in zip(samples, more))
            seconds["recording"] += time.perf_counter() - t0
        for side, (obs, masks, actions) in by_side(samples).items():
            t0 = time.perf_counter()
            accuracy = imitate(models[side].policy, obs, masks, actions, epochs, lr, seed + dagger)
            seconds["fits"] += time.perf_counter() - t0
            sample_passes += epochs * len(actions)
            out[f"imitation_accuracy_{side}"] = accuracy
            log(f"imitation{f' (DAgger {dagger})' if dagger else ''}: {side} fitted to {len(actions):,} moves of "
                f"{taught_by}, accuracy {accuracy:.1%}")
    out["imitation_samples"] = int(len(samples[2]))
    out.update({f"imitation_{stage}_seconds": value for stage, value in seconds.items()})
    out["imitation_sample_passes"] = sample_passes
    out["imitation_recorded_games"] = games * recordings
    out["imitation_configs"] = len(set(played))
    return out


def actor_logits(policy, observations):
    """The actor's raw logits (torch) for a batch of observations."""
    return policy.action_net(policy.mlp_extractor.forward_actor(policy.extract_features(observations)))


# samples per minibatch of the imitation fits (the warm start's and the teachings')
FIT_BATCH = 1024


def fit_masked(logits_of, params, observations, masks, actions, epochs: int, lr: float, seed: int,
               batch_size: int = FIT_BATCH, weights=None, steps: int = 0) -> float:
    """Fit ``logits_of`` (a function of an observation batch, its trainable ``params``) to (observation,
    action) pairs by cross-entropy over the legal actions (Adam, minibatches in an order drawn from
    ``seed``); ``weights`` (one per pair, None for all 1): each pair's share of its minibatch's loss.
    ``epochs`` passes over the pairs, or with ``steps`` > 0 that many minibatches instead (passes over the
    pairs in a new order each, the last one cut short). Returns the training accuracy of the last pass (its
    minibatches played)."""
    import torch

    generator = torch.Generator().manual_seed(seed)
    optimiser = torch.optim.Adam(params, lr=lr)
    obs = torch.as_tensor(observations)
    mask = torch.as_tensor(masks)
    target = torch.as_tensor(actions).long()
    weight = None if weights is None else torch.as_tensor(np.asarray(weights, dtype=np.float32))
    n = obs.shape[0]
    left = steps if steps > 0 else epochs * -(-n // batch_size)  # minibatches still to play
    correct, seen = 0, 0
    while left > 0 and n:
        order = torch.randperm(n, generator=generator)
        correct, seen = 0, 0
        for start in range(0, n, batch_size):
            if left <= 0:
                break
            left -= 1
            rows = order[start:start + batch_size]
            logits = torch.where(mask[rows], logits_of(obs[rows]), torch.tensor(-1e8))
            if weight is None:
                loss = torch.nn.functional.cross_entropy(logits, target[rows])
            else:
                each = torch.nn.functional.cross_entropy(logits, target[rows], reduction="none")
                loss = (each * weight[rows]).sum() / weight[rows].sum().clamp_min(1e-12)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            correct += int((logits.argmax(1) == target[rows]).sum())
            seen += len(rows)
    return correct / max(seen, 1)


def imitate(policy, observations, masks, actions, epochs: int, lr: float, seed: int, batch_size: int = FIT_BATCH):
    """Fit the actor of ``policy`` to (observation, action) pairs by masked cross-entropy. Returns the
    final training accuracy."""
    params = list(policy.mlp_extractor.policy_net.parameters()) + list(policy.action_net.parameters())
    return fit_masked(lambda obs: actor_logits(policy, obs), params, observations, masks, actions, epochs, lr,
                      seed, batch_size)


def agreement(policy, observations, masks, actions) -> float:
    """Share of (observation, action) pairs where the policy's best legal action is the recorded one."""
    return masked_agreement(lambda obs: actor_logits(policy, obs), observations, masks, actions)


def masked_agreement(logits_of, observations, masks, actions) -> float:
    """Share of (observation, action) pairs where the best legal action of ``logits_of`` (a torch function
    of an observation batch) is the recorded one; NaN for no pairs."""
    import torch

    if not len(actions):
        return float("nan")
    with torch.no_grad():
        logits = logits_of(torch.as_tensor(observations))
        logits = torch.where(torch.as_tensor(masks), logits, torch.tensor(-1e8))
        return float((logits.argmax(1).numpy() == np.asarray(actions)).mean())


# --- models and envs --------------------------------------------------------------------------------------

def make_model(env, cfg, tensorboard: str | None):
    """A fresh MaskablePPO learner with the run's settings (``cfg``: a ``train.selfplay.TrainConfig``)."""
    import torch
    from sb3_contrib import MaskablePPO

    return MaskablePPO(
        "MlpPolicy", env, learning_rate=cfg.learning_rate, n_steps=cfg.n_steps, batch_size=cfg.batch_size,
        n_epochs=cfg.n_epochs, gamma=cfg.gamma, gae_lambda=cfg.gae_lambda, clip_range=cfg.clip_range,
        ent_coef=cfg.ent_coef, seed=cfg.seed, verbose=0, tensorboard_log=tensorboard, device="cpu",
        policy_kwargs=dict(net_arch=dict(pi=list(cfg.net_arch), vf=list(cfg.net_arch)), activation_fn=torch.nn.Tanh))


def drive_env(side: str, seat_factory, cfg, configs, seed: int):
    """The drive env of one side for one round: ``cfg.num_envs`` games split evenly over ``configs`` (one
    natively batched drive env per config, each with its own opponent seat from ``seat_factory()``),
    concatenated and wrapped in ``VecMonitor``."""
    from stable_baselines3.common.vec_env import VecMonitor

    from gridiron_env.envs.sb3 import SB3VecEnv
    from gridiron_env.envs.vector import GridironDefenceVectorEnv, GridironOffenceVectorEnv
    from train.mixed_env import ConcatVecEnv

    cls = GridironOffenceVectorEnv if side == "offence" else GridironDefenceVectorEnv
    sizes = np.diff(np.linspace(0, cfg.num_envs, len(configs) + 1).round().astype(int))
    parts = [SB3VecEnv(cls(int(n), opponent=seat_factory(), start=cfg.start,
                           field_position_weight=cfg.field_position_weight, config=config))
             for n, config in zip(sizes, configs) if n > 0]
    venv = ConcatVecEnv(parts)
    venv.seed(int(seed))
    return VecMonitor(venv)


def round_env(side: str, seats, cfg, configs, round_index: int):
    """The drive env of ``side`` for round ``round_index`` (its seed follows from the run's seed, the round
    and the side)."""
    k = SIDES.index(side)
    return drive_env(side, seats[side], cfg, configs, seed=cfg.seed + 1_000_003 * (2 * round_index + k))


def side_round_steps(cfg, side: str) -> int:
    """Learner steps of ``side`` in one round: ``cfg.round_steps`` for the offence, ``cfg.defence_share`` of
    them (rounded, at least 1) for the defence."""
    if side == "offence":
        return cfg.round_steps
    return max(1, round(cfg.round_steps * cfg.defence_share))


def learn_round(models, seats, cfg, configs, round_index: int, progress=None) -> None:
    """One PPO round: each side learns its steps (:func:`side_round_steps`) on fresh drive envs over ``configs``
    against ``seats[side]()`` (a factory of opponent seats for that side's env). A model's first env
    (``make_model(round_env(...))``) has the same number of games, as SB3's ``set_env`` requires."""
    for side in SIDES:
        env = round_env(side, seats, cfg, configs, round_index)
        models[side].set_env(env)
        models[side].learn(side_round_steps(cfg, side), reset_num_timesteps=False, tb_log_name=side)
        env.close()
        if progress is not None:
            progress(side)
