"""Self-play training of an **offence policy** and a **defence policy**, then export and evaluation.

    python -m train.selfplay                      # the main job: default TrainConfig, ~30 min on 2 cores
    python -m train.selfplay --minutes 2 --out runs/quick

Stages (all in ``TrainConfig``):

1. **Imitation warm start**: the heuristic plays both sides of full games; each policy (offence: the team
   that had the ball at the snap; defence: the other) is fitted to its moves by cross-entropy over the legal
   actions. This gives PPO a sensible start instead of random play.
2. **Alternating MaskablePPO rounds** on the drive environments (``GridironOffence-v0`` and
   ``GridironDefence-v0``, natively batched): each round trains the offence against an opponent pool of the
   heuristic and frozen snapshots of the defence, then the defence against the heuristic and snapshots of
   the offence. Each game of the batch draws its opponent from the pool at every reset.
3. **Export** of the pair (numpy ``bot.npz`` and ``bot.onnx``) and an **evaluation** tournament against the
   random and heuristic agents, printed as a table and saved.

Outputs in ``out``: ``offence.zip`` / ``defence.zip`` (checkpoints a rerun resumes from: tensors and JSON
only, see ``train.checkpoint``), ``bot.npz``, ``bot.onnx``, ``tensorboard/``, ``evaluation.md``,
``train_config.json``. A checkpoint that is corrupt, foreign, of another game or net, or an SB3 archive is
refused: the job prints one line naming the file and exits with status 1, changing nothing in ``out``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from agents.bot import DEFAULT_LEVEL, LEVELS, Bot, BotAgent
from gridiron_env.config import GameConfig
from gridiron_env.core.actions import NUM_ACTIONS
from gridiron_env.core.observe import FEATURES_SIZE, observe
from train.checkpoint import CheckpointError, load_checkpoint, save_checkpoint
from train.export import ON_OFFENCE_INDEX, actor_layers, export_onnx, to_bot


@dataclass(frozen=True)
class TrainConfig:
    """Settings of a training run. Units: steps are learner actions summed over the batch of games.

    minutes: wall-clock budget from the start of the job to the end of the last PPO round, the imitation
        warm start included (a slow machine gets fewer rounds, not a longer job; at least one round runs);
        export and evaluation come on top (about 2 minutes).
    imitation_games: heuristic-vs-heuristic games recorded for the warm start (0 skips it).
    imitation_epochs: passes over those samples.
    num_envs: games per drive environment batch (large batches amortise the opponent's turns, which run
        as rounds of engine calls over the games still waiting).
    round_steps: learner steps per side in one PPO round.
    pool_size: frozen snapshots kept per side (plus the heuristic) as opponents.
    heuristic_share: chance that a game's opponent is the heuristic rather than a snapshot.
    eval_games: games against each baseline in the final evaluation (both teams balanced).
    threads: torch threads (the machine's 2 cores; the envs step while torch is idle).
    """

    seed: int = 0
    minutes: float = 25.0
    imitation_games: int = 512
    imitation_epochs: int = 6
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
    round_steps: int = 65_536
    pool_size: int = 4
    heuristic_share: float = 0.7
    start: str = "random"
    field_position_weight: float = 0.5
    eval_games: int = 400
    threads: int = 2
    out: str = "runs/default"
    progress_bar: bool = True
    game: dict = field(default_factory=dict)  # GameConfig fields for the drives (defaults: the game's)

    def __post_init__(self):
        positive = ("num_envs", "n_steps", "batch_size", "n_epochs", "round_steps", "threads", "imitation_epochs")
        for name in positive:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"TrainConfig.{name} must be an int >= 1, got {value!r}")
        for name in ("imitation_games", "eval_games", "pool_size"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"TrainConfig.{name} must be an int >= 0, got {value!r}")
        if not 0 <= self.heuristic_share <= 1:
            raise ValueError(f"TrainConfig.heuristic_share must be in [0, 1], got {self.heuristic_share!r}")
        if not self.minutes >= 0:
            raise ValueError(f"TrainConfig.minutes must be >= 0, got {self.minutes!r}")
        if self.start not in ("kickoff", "random"):
            raise ValueError(f"TrainConfig.start must be 'kickoff' or 'random', got {self.start!r}")
        GameConfig.from_dict(self.game)  # validates the game fields


# --- opponents -------------------------------------------------------------------------------------------

class PoolOpponent:
    """The other seat of a drive env: per game, the heuristic or one frozen snapshot, drawn at each reset.

    Members are agents of ``agents.base`` (``reset``, ``act``). A game's member is chosen from its episode
    seed, so the draw does not depend on the batch.
    """

    needs_state = True

    def __init__(self, heuristic, heuristic_share: float):
        self.members = [heuristic]
        self.heuristic_share = heuristic_share
        self.seeds = np.zeros(0, dtype=np.uint64)
        self.choice = np.zeros(0, dtype=np.int64)

    def add(self, agent, pool_size: int) -> None:
        self.members.append(agent)
        if len(self.members) - 1 > pool_size:
            del self.members[1]  # drop the oldest snapshot

    def reset_games(self, games, seeds) -> None:
        from gridiron_env.core.chance import splitmix64

        games = np.asarray(games, dtype=np.int64)
        n = int(games.max()) + 1 if games.size else 0
        if self.seeds.size < n:
            self.seeds = np.resize(self.seeds, n)
            self.choice = np.resize(self.choice, n)
        seeds = np.asarray(seeds).astype(np.uint64)
        self.seeds[games] = seeds
        unit = (splitmix64(seeds ^ np.uint64(0x9001)) >> np.uint64(11)).astype(np.float64) / (1 << 53)
        snapshots = len(self.members) - 1
        pick = 1 + np.minimum((unit * max(snapshots, 1) / max(1e-9, 1 - self.heuristic_share)).astype(np.int64),
                              max(snapshots - 1, 0))
        self.choice[games] = np.where((unit < self.heuristic_share) | (snapshots == 0), 0, pick)

    def __call__(self, state, config=None, games=None):
        games = np.asarray(games, dtype=np.int64)
        if self.choice.size <= (games.max() if games.size else -1):
            self.reset_games(games, games)
        actions = np.zeros(state.batch_size, dtype=np.int64)
        choice = np.minimum(self.choice[games], len(self.members) - 1)
        for member_index in np.unique(choice):  # a loop over pool members, not over games
            rows = np.flatnonzero(choice == member_index)
            member = self.members[member_index]
            member.reset(self.seeds[games[rows]].astype(np.int64))
            actions[rows] = member.act(state.take(rows), config)
        return actions


def snapshot_agent(policy, name: str, temperature: float = 1.0) -> BotAgent:
    """A frozen numpy copy of one side's actor, playing whichever side it is asked to.

    It samples (``temperature`` 1, like the learner) rather than taking its best action: a deterministic
    policy that picks a free same-row handoff once picks it back again, forever, and such a loop stalls the
    whole batch until the game's step cap."""
    layers, activation = actor_layers(policy)
    bot = Bot(layers, layers, activation, ON_OFFENCE_INDEX, FEATURES_SIZE, NUM_ACTIONS)
    return BotAgent(bot, name=name, temperature=temperature)


# --- imitation --------------------------------------------------------------------------------------------

def record_heuristic_games(games: int, seed: int, game_config: GameConfig, max_steps: int = 1500):
    """Features, legal masks and the heuristic's actions from heuristic-vs-heuristic games (acting side)."""
    from agents.heuristic import HeuristicAgent
    from gridiron_env.core import init, step

    config = game_config.replace(max_steps=max_steps)
    agent = HeuristicAgent()
    state = init(games, seed=seed, config=config)
    agent.reset(np.arange(seed, seed + games))
    observations, masks, actions = [], [], []
    while not (state.terminated | state.truncated).all():
        live = np.flatnonzero(~(state.terminated | state.truncated))
        chosen = agent.act(state, config)
        view = state.take(live)
        observations.append(observe(view, None, config))
        masks.append(view.legal.copy())
        actions.append(chosen[live])
        state = step(state, chosen, config=config)
    return np.concatenate(observations), np.concatenate(masks), np.concatenate(actions)


def imitate(policy, observations, masks, actions, epochs: int, lr: float, seed: int, batch_size: int = 1024):
    """Fit the actor of ``policy`` to (observation, action) pairs by masked cross-entropy. Returns the
    final training accuracy."""
    import torch

    generator = torch.Generator().manual_seed(seed)
    params = list(policy.mlp_extractor.policy_net.parameters()) + list(policy.action_net.parameters())
    optimiser = torch.optim.Adam(params, lr=lr)
    obs = torch.as_tensor(observations)
    mask = torch.as_tensor(masks)
    target = torch.as_tensor(actions, dtype=torch.long)
    n = obs.shape[0]
    correct = 0
    for _ in range(epochs):
        order = torch.randperm(n, generator=generator)
        correct = 0
        for start in range(0, n, batch_size):
            rows = order[start:start + batch_size]
            logits = policy.action_net(policy.mlp_extractor.forward_actor(policy.extract_features(obs[rows])))
            logits = torch.where(mask[rows], logits, torch.full_like(logits, -1e8))
            loss = torch.nn.functional.cross_entropy(logits, target[rows])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            correct += int((logits.argmax(1) == target[rows]).sum())
    return correct / max(n, 1)


# --- the run ----------------------------------------------------------------------------------------------

def _make_env(side: str, opponent, cfg: TrainConfig, game_config: GameConfig):
    from stable_baselines3.common.vec_env import VecMonitor

    from gridiron_env.envs.sb3 import SB3VecEnv
    from gridiron_env.envs.vector import GridironDefenceVectorEnv, GridironOffenceVectorEnv

    cls = GridironOffenceVectorEnv if side == "offence" else GridironDefenceVectorEnv
    venv = SB3VecEnv(cls(cfg.num_envs, opponent=opponent, start=cfg.start,
                         field_position_weight=cfg.field_position_weight, config=game_config))
    venv.seed(cfg.seed + (0 if side == "offence" else 1_000_000))
    return VecMonitor(venv)


def _make_model(env, cfg: TrainConfig, tensorboard: str | None):
    from sb3_contrib import MaskablePPO

    import torch

    return MaskablePPO(
        "MlpPolicy", env, learning_rate=cfg.learning_rate, n_steps=cfg.n_steps, batch_size=cfg.batch_size,
        n_epochs=cfg.n_epochs, gamma=cfg.gamma, gae_lambda=cfg.gae_lambda, clip_range=cfg.clip_range,
        ent_coef=cfg.ent_coef, seed=cfg.seed, verbose=0, tensorboard_log=tensorboard, device="cpu",
        policy_kwargs=dict(net_arch=dict(pi=list(cfg.net_arch), vf=list(cfg.net_arch)), activation_fn=torch.nn.Tanh))


CHECKPOINT_NAMES = {"offence": "offence.zip", "defence": "defence.zip"}


def _resume_model(path: Path, side: str, env, cfg: TrainConfig, tensorboard: str | None, log=print):
    """A fresh model of ``side`` (this project's ``_make_model``) with the checkpoint's tensors, counters and
    hyperparameters (as a resume always kept them); the batch shape (``n_steps``, ``num_envs``,
    ``batch_size``) is this run's. Returns ``(model, meta)``; raises ``CheckpointError``."""

    def build(hyperparameters: dict):
        return _make_model(env, dataclasses.replace(cfg, **hyperparameters), tensorboard)

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

    from agents.heuristic import HeuristicAgent

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
    game_config = GameConfig.from_dict(cfg.game)
    started = time.perf_counter()
    summary: dict = {"out": str(out)}

    offence_pool = PoolOpponent(HeuristicAgent(), cfg.heuristic_share)  # opponents of the defence learner
    defence_pool = PoolOpponent(HeuristicAgent(), cfg.heuristic_share)  # opponents of the offence learner
    tensorboard = str(out / "tensorboard")
    envs = {"offence": _make_env("offence", defence_pool, cfg, game_config),
            "defence": _make_env("defence", offence_pool, cfg, game_config)}
    models = {}
    rounds_before = {"offence": 0, "defence": 0}  # self-play rounds each side finished in earlier runs
    try:
        for side in ("offence", "defence"):
            if resumed:
                # the batch shape may differ from the saved run's: the rollout buffer is built for this one
                models[side], meta = _resume_model(checkpoints[side], side, envs[side], cfg, tensorboard, log)
                rounds_before[side] = meta["progress"]["rounds"]
                log(f"resumed the {side} from {checkpoints[side]} (round {rounds_before[side]}, "
                    f"{models[side].num_timesteps:,} steps)")
            else:
                models[side] = _make_model(envs[side], cfg, tensorboard)
    except BaseException:
        for env in envs.values():
            env.close()
        raise
    # written only once the checkpoints (if any) are accepted: a refused resume changes nothing in ``out``
    out.mkdir(parents=True, exist_ok=True)
    (out / "train_config.json").write_text(json.dumps(dataclasses.asdict(cfg), indent=2))

    if not resumed and cfg.imitation_games:
        t0 = time.perf_counter()
        obs, masks, actions = record_heuristic_games(cfg.imitation_games, cfg.seed + 77, game_config)
        on_offence = obs[:, ON_OFFENCE_INDEX] > 0.5
        for side, rows in (("offence", on_offence), ("defence", ~on_offence)):
            accuracy = imitate(models[side].policy, obs[rows], masks[rows], actions[rows], cfg.imitation_epochs,
                               cfg.imitation_lr, cfg.seed)
            summary[f"imitation_accuracy_{side}"] = accuracy
            log(f"imitation: {side} fitted to {int(rows.sum()):,} heuristic moves, accuracy {accuracy:.1%}")
        log(f"imitation took {time.perf_counter() - t0:.0f} s")

    deadline = started + cfg.minutes * 60
    rounds = 0
    from tqdm import tqdm

    # the bar runs over the time budget (seconds); its postfix shows live drive rewards and steps
    with tqdm(total=int(cfg.minutes * 60), unit="s", desc="self-play", disable=not cfg.progress_bar) as bar:
        bar.update(min(bar.total, int(time.perf_counter() - started)))
        while rounds == 0 or time.perf_counter() < deadline:  # at least one round, however slow the start
            for side, pool in (("offence", offence_pool), ("defence", defence_pool)):
                models[side].learn(cfg.round_steps, reset_num_timesteps=False, tb_log_name=side)
                pool.add(snapshot_agent(models[side].policy, f"{side}-{rounds_before[side] + rounds}"), cfg.pool_size)
                save_checkpoint(checkpoints[side], models[side], side, rounds=rounds_before[side] + rounds + 1)
            rounds += 1
            bar.n = min(bar.total, int(time.perf_counter() - started))
            bar.set_postfix(_figures(models, rounds))
            if not cfg.progress_bar:
                log(" | ".join(f"{k} {v}" for k, v in _figures(models, rounds).items()))
    summary["rounds"] = rounds
    summary["total_rounds"] = rounds_before["offence"] + rounds
    summary["train_seconds"] = time.perf_counter() - started

    bot = to_bot(models["offence"].policy, models["defence"].policy)
    bot.save(out / "bot.npz")
    try:
        export_onnx(models["offence"].policy, models["defence"].policy, out / "bot.onnx")
    except ImportError as err:  # onnx / onnxscript not installed: the numpy bot is enough to play
        log(f"ONNX export skipped: {err}")
    summary["bot"] = str(out / "bot.npz")
    for env in envs.values():
        env.close()

    if cfg.eval_games:
        summary["evaluation"] = evaluate(out / "bot.npz", cfg.eval_games, cfg.seed + 2024, game_config, log)
        (out / "evaluation.md").write_text(summary["evaluation"]["markdown"])
    (out / "summary.json").write_text(json.dumps({k: v for k, v in summary.items() if k != "evaluation"}, indent=2))
    return summary


def _figures(models, rounds) -> dict:
    """Live figures of the run: rounds, steps and mean drive reward of each side's recent episodes."""
    figures = {"round": rounds}
    for side, model in models.items():
        buffer = model.ep_info_buffer or []
        figures[f"{side}_steps"] = model.num_timesteps
        figures[f"{side}_reward"] = round(float(np.mean([e["r"] for e in buffer])), 3) if buffer else None
    return figures


def _match_rows(bot_path, pairings, games: int, seed: int, game_config: GameConfig, first_column: str, log):
    """Play the bot (at each pairing's temperature) against each pairing's opponent: rows and a table.

    ``pairings``: (label, opponent agent, bot temperature). Draws (truncated games) count half a win."""
    from agents.base import play_games
    from train.ratings import wilson_interval

    rows = []
    lines = [f"| {first_column} | temperature | games | bot wins | losses | truncated | win rate | 95% interval | "
             "points for | points against |", "|---|---|---|---|---|---|---|---|---|---|"]
    for label, opponent, temperature in pairings:
        bot = BotAgent.load(bot_path, name="bot", temperature=temperature)
        result = play_games(bot, opponent, games, config=game_config, seed=seed)
        team = result.a_team
        wins = int((result.winner == team).sum())
        truncated = int(result.truncated.sum())
        losses = games - wins - truncated
        low, high = wilson_interval(wins + 0.5 * truncated, games)
        rate = (wins + 0.5 * truncated) / games
        r = np.arange(games)
        points_for = float(result.score[r, team].mean())
        points_against = float(result.score[r, 1 - team].mean())
        rows.append({first_column: label, "temperature": temperature, "games": games, "wins": wins,
                     "losses": losses, "truncated": truncated, "rate": rate, "low": low, "high": high,
                     "points_for": points_for, "points_against": points_against})
        lines.append(f"| {label} | {temperature:g} | {games} | {wins} | {losses} | {truncated} | {rate:.1%} | "
                     f"{low:.1%}-{high:.1%} | {points_for:.1f} | {points_against:.1f} |")
    markdown = "\n".join(lines) + "\n"
    log(markdown)
    return {"rows": rows, "markdown": markdown}


def evaluate(bot_path, games: int, seed: int, game_config: GameConfig, log=print) -> dict:
    """The bot at its default level against the random and heuristic agents, ``games`` full games each,
    teams balanced."""
    from agents.heuristic import HeuristicAgent
    from agents.random_agent import RandomAgent

    temperature = LEVELS[DEFAULT_LEVEL]
    pairings = [("random", RandomAgent(), temperature), ("heuristic", HeuristicAgent(), temperature)]
    return _match_rows(bot_path, pairings, games, seed, game_config, "opponent", log)


def evaluate_levels(bot_path, games: int, seed: int, game_config: GameConfig, log=print) -> dict:
    """Each difficulty level of ``agents.bot.LEVELS`` against the heuristic, ``games`` full games each."""
    from agents.heuristic import HeuristicAgent

    pairings = [(level, HeuristicAgent(), temperature) for level, temperature in LEVELS.items()]
    return _match_rows(bot_path, pairings, games, seed, game_config, "level", log)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=TrainConfig.out)
    parser.add_argument("--minutes", type=float, default=TrainConfig.minutes)
    parser.add_argument("--seed", type=int, default=TrainConfig.seed)
    parser.add_argument("--num-envs", type=int, default=TrainConfig.num_envs)
    parser.add_argument("--imitation-games", type=int, default=TrainConfig.imitation_games)
    parser.add_argument("--eval-games", type=int, default=TrainConfig.eval_games)
    parser.add_argument("--round-steps", type=int, default=TrainConfig.round_steps)
    parser.add_argument("--n-steps", type=int, default=TrainConfig.n_steps)
    parser.add_argument("--threads", type=int, default=TrainConfig.threads)
    parser.add_argument("--heuristic-share", type=float, default=TrainConfig.heuristic_share)
    args = parser.parse_args(argv)
    cfg = TrainConfig(out=args.out, minutes=args.minutes, seed=args.seed, num_envs=args.num_envs,
                      imitation_games=args.imitation_games, eval_games=args.eval_games,
                      round_steps=args.round_steps, n_steps=args.n_steps, threads=args.threads,
                      heuristic_share=args.heuristic_share)
    try:
        return train(cfg)
    except CheckpointError as err:  # one line, no traceback: the file and why it is refused
        print(f"train.selfplay: checkpoint refused: {err}", file=sys.stderr)
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()
