"""Touchdown's bot by imitation: a teacher's moves distilled into one net for both seats, then DAgger.

    python -m train.touchdown train --out runs/touchdown_bot                   # writes runs/touchdown_bot/policy.npz
    python -m train.touchdown --bot runs/touchdown_bot/policy.npz --games 400  # its table

The defaults are the run of the shipped bot (``gridiron_env/data/touchdown_bot.npz``): the passer taught,
64 games a round, every decision a sample, a 256 x 3 net, 12 epochs a fit, two DAgger rounds.

Why imitation and not PPO from scratch: a whole game is about 12,000 decisions a team (a play runs up to
40 rounds of steps), so a win at the end is too sparse a signal for a short budget (a 9-minute generic
PPO run lost 100/100 to the heuristic). The teacher (``teacher``: ``heuristic``; ``coach``, the
heuristic with the calls measured to beat it: :class:`Coach`; ``passer``, the coach with a passing game:
:class:`Passer`) plays whole games; every decision of both
teams is a sample (the observation from the acting team's side, the legal mask, the teacher's action):
every call, kick choice and interception decision, and a ``keep_play`` share of the play's steps (they
are many and alike). The net (``width`` x ``layers`` tanh, the generic game-bot MLP) is fitted by masked
cross-entropy; then ``dagger_rounds`` times the net plays one team against the teacher's opponent
(``opponent``: the heuristic), the teacher labels the states the net reached, and the net is fitted
again on all samples (DAgger: the net learns to recover from its own mistakes). Rounds stop early when
the ``minutes`` budget would be passed.

Outputs in ``out``: ``policy.npz`` (``train.game_export``'s game bot: ``bot:PATH`` specs, tournaments and
the play command take it), ``summary.json`` (per round: samples, training accuracy, held-out agreement).
"""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from gridiron_env.touchdown import actions as A
from gridiron_env.touchdown.agents import HeuristicAgent, squares_apart
from gridiron_env.touchdown.config import TouchdownConfig
from gridiron_env.touchdown.state import PLAY, QB_SLOT
from train.settings import check_choice, check_int, check_number

__all__ = ["Coach", "Passer", "ImitationConfig", "TEACHERS", "make_teacher", "record", "fit", "train", "POLICY_FILE"]

POLICY_FILE = "policy.npz"
_OWNER = "ImitationConfig"


class Coach(HeuristicAgent):
    """The heuristic's play with one other call: a field goal whenever one is legal (3 points at 15/36 to
    33/36 beat the heuristic's drives, which rarely score from afar). It beat the heuristic 0.602 over 64
    games (README, Touchdown)."""

    name = "coach"

    def _offence_call(self, s, g, cfg):
        call = super()._offence_call(s, g, cfg)
        return np.where(s.legal[g][:, A.FIELD_GOAL], A.FIELD_GOAL, call)


def _clear_lines(occupied, from_lane, from_row, to_lane, to_row, vacated_lane, vacated_row):
    """Whether each (from -> to) pair (broadcast arrays, absolute squares, batch first) is a straight line
    (orthogonal or diagonal) with every square strictly between empty, the square (vacated_lane,
    vacated_row) counted empty (the piece about to step off it); and the line's length in squares.
    ``occupied``: bool [k, lanes + 2, rows + 2], a one-square margin so off-board squares index safely."""
    k, lanes, rows = occupied.shape[0], occupied.shape[1] - 2, occupied.shape[2] - 2
    d_lane, d_row = to_lane - from_lane, to_row - from_row
    length = np.maximum(np.abs(d_lane), np.abs(d_row))
    clear = ((d_lane == 0) | (d_row == 0) | (np.abs(d_lane) == np.abs(d_row))) & (length >= 1)
    s_lane, s_row = np.sign(d_lane), np.sign(d_row)
    batch = np.arange(k).reshape((k,) + (1,) * (np.ndim(length) - 1))
    for i in range(1, int(length.max(initial=0))):
        lane_i, row_i = from_lane + s_lane * i, from_row + s_row * i
        busy = occupied[batch, np.clip(lane_i, -1, lanes) + 1, np.clip(row_i, -1, rows) + 1]
        vacated = (lane_i == vacated_lane) & (row_i == vacated_row)
        clear &= ~((i < length) & busy & ~vacated)
    return clear, length


class Passer(Coach):
    """The coach with a passing game: while the QB holds the ball before a forward pass, the eligible
    receivers (end, back, receiver) run deep to squares on a clear line from the QB with no defender beside
    them, the QB steps to squares from which such a receiver is in sight (away from defenders), and throws
    to an open receiver at least ``min_gain`` rows ahead. The heuristic's play never throws (its receivers
    block, its own line hides every lane: each play loses a row and games are punting duels); the passer
    beat the heuristic 0.920 over 400 games (README, Touchdown)."""

    name = "passer"
    min_gain = 3  # rows ahead of the QB for a throw
    max_line = 10  # squares of a throw a receiver runs to (7/12 open at 7-10, 5/12 beyond)

    def _can_throw(self, s, g, board):
        qb = (board.holder >= 0) & (board.holder - board.mine_base == QB_SLOT)
        return qb & s.limits[g] & ~s.forward_thrown[g]

    def _step_values(self, s, g, cfg, board, value):
        throw = self._can_throw(s, g, board)
        if not throw.any():
            return value
        b = board
        occupied = np.zeros((b.k, cfg.lanes + 2, cfg.rows + 2), dtype=bool)
        on = b.lane >= 0
        occupied[np.nonzero(on)[0], b.lane[on] + 1, b.row[on] + 1] = True
        # receivers: run deep, away from defenders, to open squares in the QB's sight
        in_sight, length = _clear_lines(occupied, b.hl[:, None, None], b.hr[:, None, None], b.nl, b.nr,
                                        b.ml[:, :, None], b.mr[:, :, None])
        ahead = (b.nr - b.hr[:, None, None]) * b.sign[:, :, None]
        on_board = (b.nl >= 0) & (b.nl < cfg.lanes) & (b.nr >= 0) & (b.nr < cfg.rows)
        open_square = in_sight & (length <= self.max_line) & (ahead >= self.min_gain) & (b.adjacent == 0) & on_board
        route = 3.0 * b.fwd - 5.0 * b.adjacent - 1.5 * b.near + (40.0 + 2.0 * ahead) * open_square
        eligible = np.zeros(7, dtype=bool)
        eligible[3:6] = True
        value = np.where((throw[:, None] & eligible[None, :])[..., None], route, value)
        # the QB: to a square that sees an open receiver, away from defenders, not backwards
        q_lane, q_row = b.hl[:, None] + b.dl, b.hr[:, None] + b.dr  # [k, 8]
        covered = (np.where(b.t_live[:, None, :], squares_apart(b.ml[..., None], b.mr[..., None], b.tl[:, None, :],
                                                         b.tr[:, None, :]), 99) <= 1).any(-1)  # [k, 7]
        sees, reach = _clear_lines(occupied, q_lane[:, :, None], q_row[:, :, None], b.ml[:, None, :],
                                   b.mr[:, None, :], b.hl[:, None, None], b.hr[:, None, None])
        rows_ahead = (b.mr[:, None, :] - q_row[:, :, None]) * b.sign[:, :, None]
        target = (sees & (reach <= self.max_line) & (rows_ahead >= self.min_gain) & ~covered[:, None, :]
                  & eligible[None, None, :] & (b.ml[:, None, :] >= 0)).any(-1)
        qb_value = 30.0 * target - 8.0 * b.adjacent[:, QB_SLOT] - 1.0 * (b.fwd[:, QB_SLOT] < 0)
        value = value.copy()
        value[throw, QB_SLOT] = qb_value[throw]
        return value

    def _pass_values(self, s, g, cfg, board, pass_value, clear, gain):
        throw = self._can_throw(s, g, board)
        return np.where(throw[:, None] & clear & (gain >= self.min_gain), 100.0 + 5.0 * gain, pass_value)


TEACHERS = {"heuristic": HeuristicAgent, "coach": Coach, "passer": Passer}


def make_teacher(name: str):
    check_choice(_OWNER, "teacher", name, tuple(TEACHERS))
    return TEACHERS[name]()


@dataclass(frozen=True)
class ImitationConfig:
    """Settings of an imitation run; a bad value raises ValueError naming the field.

    teacher: ``heuristic``, ``coach`` or ``passer`` (:data:`TEACHERS`); games: whole games recorded per round (even:
        the net takes each team in turn in the DAgger rounds); dagger_rounds: rounds after the first;
    keep_play: share of the play-phase decisions kept as samples (the others: all);
    width, layers: the net's hidden layers (tanh); epochs, learning_rate, batch_size: the fit's (Adam);
    minutes: wall-clock budget (a round that would end past it is not started; the first always runs);
    seed: the run's seed (games, sampling, weights); threads: torch threads; out: the run folder."""

    # the defaults are the shipped bot's run (gridiron_env/data/touchdown_bot.npz; README, Touchdown): the
    # passer's skill is in the play's steps, so all of them are samples, and a deeper net fits its geometry
    teacher: str = "passer"
    games: int = 64
    dagger_rounds: int = 2
    keep_play: float = 1.0
    width: int = 256
    layers: int = 3
    epochs: int = 12
    learning_rate: float = 1e-3
    batch_size: int = 1024
    minutes: float = 120.0
    seed: int = 0
    threads: int = 1
    out: str = "runs/touchdown_bot"

    def __post_init__(self):
        check_choice(_OWNER, "teacher", self.teacher, tuple(TEACHERS))
        check_int(_OWNER, "games", self.games, 2, even=True)
        for name in ("dagger_rounds",):
            check_int(_OWNER, name, getattr(self, name), 0)
        for name in ("width", "layers", "epochs", "batch_size", "threads"):
            check_int(_OWNER, name, getattr(self, name), 1)
        check_int(_OWNER, "seed", self.seed, 0)
        check_number(_OWNER, "keep_play", self.keep_play, 1e-4, 1.0)
        check_number(_OWNER, "learning_rate", self.learning_rate, 1e-8, 1.0)
        check_number(_OWNER, "minutes", self.minutes, 0.0, 24 * 60.0)
        if not isinstance(self.out, str) or not self.out:
            raise ValueError(f"{_OWNER}.out must be a non-empty str (a folder), got {self.out!r}")


def record(teacher, games: int, seed: int, keep_play: float, student=None, opponent=None,
           config: TouchdownConfig | None = None):
    """Samples of ``games`` whole games (game i seeded ``seed + i``): (float32 [n, OBS], bool [n, A],
    int64 [n] the teacher's action), from every decision but the play's, of which a ``keep_play`` share
    (drawn from ``seed``). Without ``student`` the teacher plays both teams; with one, the student plays
    team ``i % 2`` of game i and ``opponent`` (default the teacher) the other, every decision labelled by
    the teacher."""
    from gridiron_env.touchdown.engine import init, step
    from gridiron_env.touchdown.game import GAME

    config = config or TouchdownConfig()
    rng = np.random.default_rng([seed, 0x7D])
    seeds = seed + np.arange(games, dtype=np.int64)
    player_team = np.arange(games) % 2
    others = opponent or teacher
    for agent in {id(a): a for a in (teacher, student, others) if a is not None}.values():
        agent.reset(seeds)
    state = init(games, seed=seed, config=config)
    observations, masks, labels = [], [], []
    while True:
        live = ~(state.terminated | state.truncated)
        if not live.any():
            break
        idx = np.flatnonzero(live)
        taught = np.asarray(teacher.act(state, config, idx), dtype=np.int64)
        keep = idx[(state.phase[idx] != PLAY) | (rng.random(idx.size) < keep_play)]
        if keep.size:
            view = GAME.take(state, keep)
            observations.append(GAME.observe(view, view.to_act.astype(np.int64), config))
            masks.append(view.legal.copy())
            labels.append(taught[keep])
        actions = taught.copy()
        if student is not None:
            mine = idx[state.to_act[idx] == player_team[idx]]
            theirs = idx[state.to_act[idx] != player_team[idx]]
            if mine.size:
                actions[mine] = np.asarray(student.act(state, config, mine), dtype=np.int64)[mine]
            if theirs.size and others is not teacher:
                actions[theirs] = np.asarray(others.act(state, config, theirs), dtype=np.int64)[theirs]
        actions[~live] = A.WAIT
        state = step(state, actions, config, reuse_input=True)
    return (np.concatenate(observations).astype(np.float32), np.concatenate(masks).astype(bool),
            np.concatenate(labels))


def make_net(width: int, layers: int, seed: int):
    import torch

    from gridiron_env.touchdown.observe import OBS_SIZE

    torch.manual_seed(seed)
    sizes = [OBS_SIZE] + [width] * layers + [A.NUM_ACTIONS]
    modules = []
    for i in range(len(sizes) - 1):
        modules.append(torch.nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            modules.append(torch.nn.Tanh())
    return torch.nn.Sequential(*modules)


def fit(net, samples, epochs: int, learning_rate: float, batch_size: int, seed: int) -> float:
    """Fit ``net`` (a torch MLP) to the samples by masked cross-entropy (Adam); the last epoch's training
    accuracy."""
    from train.learners import fit_masked

    obs, masks, labels = samples
    return fit_masked(net, list(net.parameters()), obs, masks, labels, epochs, learning_rate, seed, batch_size)


def agreement(bot, samples) -> float:
    """Share of the samples where the bot's best legal action is the teacher's."""
    obs, masks, labels = samples
    return float((bot.act(obs, masks) == labels).mean()) if len(labels) else float("nan")


def _bot(net):
    from train.game_export import GameBot, policy_layers

    layers, activation = policy_layers(net)
    return GameBot(layers, activation, "touchdown", variant="basic")


def train(cfg: ImitationConfig, log=print, config: TouchdownConfig | None = None) -> dict:
    """Run the job (module doc); returns the summary written to ``summary.json``. ``config``: the games' rules
    (default Touchdown's; a short game for tests)."""
    import torch

    from gridiron_env.adapters.agents import NetAgent
    from train.game_export import GameBot, export_policy
    from train.games import limit_blas_threads

    torch.set_num_threads(cfg.threads)
    limit_blas_threads(cfg.threads)
    started = time.perf_counter()
    deadline = started + cfg.minutes * 60
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    teacher = make_teacher(cfg.teacher)
    net = make_net(cfg.width, cfg.layers, cfg.seed)
    # held out: two teacher games of their own seeds, to read agreement on states the fit never saw
    held_out = record(teacher, 2, cfg.seed + 999_983, cfg.keep_play, config=config)
    samples, history = None, []
    for round_index in range(cfg.dagger_rounds + 1):
        round_start = time.perf_counter()
        seed = cfg.seed + 100_003 * round_index
        if round_index == 0:
            more = record(teacher, cfg.games, seed, cfg.keep_play, config=config)
        else:
            student = NetAgent(_bot(net), "touchdown", name="student")
            more = record(teacher, cfg.games, seed, cfg.keep_play, student=student, opponent=HeuristicAgent(),
                          config=config)
        samples = more if samples is None else tuple(np.concatenate([a, b]) for a, b in zip(samples, more))
        accuracy = fit(net, samples, cfg.epochs, cfg.learning_rate, cfg.batch_size, cfg.seed + round_index)
        bot = _bot(net)
        row = {"round": round_index, "samples": int(len(samples[2])), "train_accuracy": accuracy,
               "held_out_agreement": agreement(bot, held_out), "seconds": time.perf_counter() - started}
        history.append(row)
        log(f"round {round_index}{' (DAgger)' if round_index else ''}: {row['samples']:,} samples, accuracy "
            f"{accuracy:.1%}, held-out agreement {row['held_out_agreement']:.1%}, {row['seconds']:.0f} s")
        export_policy(net, out / POLICY_FILE, "touchdown", variant="basic")
        now = time.perf_counter()
        if now + (now - round_start) * 1.3 >= deadline:  # the next round adds samples: a little longer
            break
    GameBot.load(out / POLICY_FILE, "touchdown")  # the file as written reads back
    summary = {"config": dataclasses.asdict(cfg), "policy": str(out / POLICY_FILE), "history": history,
               "seconds": time.perf_counter() - started}
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    log(f"done in {summary['seconds'] / 60:.1f} min; policy {out / POLICY_FILE}")
    return summary
