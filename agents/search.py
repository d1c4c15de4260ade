"""SearchAgent: one-step lookahead with Monte-Carlo rollouts, the engine as the forward model.

At every decision it can improve on, the agent scores each candidate action by ``rollouts`` simulated
continuations and plays the best (flat Monte-Carlo search, the root of an MCTS without a tree):

- **candidates**: every legal action at the formation and kick decisions (at most 9, 9 and 22); during a
  play, the distinct choices of the heuristic, of the five panel styles (``agents.panel.PANEL``) and of
  the rollout bot (when the rollouts use it) for this position (at most 7; a play has ~100 legal moves,
  most of them wasted dice);
- **rollouts**: the position as the acting team sees it (:func:`agents.base.visible_view`), the candidate
  applied, then the rollout policy playing both teams until ``downs`` new downs have begun (default 1:
  the end of the current play) or the game is over. The rollout policy (``rollout``) is ``"heuristic"``
  (default: ``agents.HeuristicAgent`` for both teams, the acting team remembering what it saw of the
  ball), ``"bot"`` (the shipped bot ``gridiron_env/data/bot.npz`` at temperature 0, read once per process:
  its net costs ~35 us a position at a big batch against ~320 us for the heuristic, whose least-cost maps
  are half the search's time, but measured against the heuristic the search is far weaker with it: 50%
  against 95% in 20 games to 3 points) or ``"random"`` (uniform legal actions: cheap and weak). The dice
  of a rollout come from a fresh stream keyed on (the agent's per-game stream, game step, rollout
  number), never from the real game's stream (the view blanks ``rng_key``/``rng_counter``): the sampled
  futures are independent of the real dice. Rollout j of every candidate uses the same stream (common
  random numbers), so candidates are compared on the same dice;
- **score** of a rollout, in points for the acting team: the score margin, plus the expected points of the
  position it ends in (the heuristic's drive value of the line of scrimmage, less a rough price of the down
  and the distance to gain; positive for the team with the ball), or +-100 for a won / lost game;
- the best mean score wins; ties go to the heuristic's own choice (candidate 0).

Everything else is the heuristic's: the specials pick and the blind fumble scramble (the ball's square is
hidden there, so the agent does not search it; the heuristic plays it from what it remembers seeing).

All rollouts of all candidates of all games in the call run as ONE batch (``State.take`` with repeated
indices, at most ``MAX_ROLLOUT_BATCH`` rows at once): a Python loop over rollout steps only, none over
games or rollouts; only the rollouts still running are asked and stepped. Per-game streams keyed on the seeds of ``reset`` make game i's decisions
depend only on its seed and history, whatever the batch.

Names (``make_search_agent``): ``search`` (16 rollouts per candidate, heuristic rollouts), ``search:N`` (N
rollouts) and ``search:N:POLICY`` (``bot`` or ``random`` rollouts, e.g. ``search:4:bot``), in
``train.tournament``, ``agents.play`` and the generic specs (``gridiron_env.adapters.agents``). Cost:
about ``candidates * rollouts * ~10`` engine + rollout-policy steps per decision.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from gridiron_env.config import GameConfig
from gridiron_env.core import actions as A
from gridiron_env.core.chance import splitmix64
from gridiron_env.core.engine import step
from gridiron_env.core.geometry import END_ZONE_DEPTH, FRAME_ROW, N_LANES
from gridiron_env.core.state import (
    DEFENCE_FORMATION, KICK_DECISION, OFFENCE_FORMATION, PLAY, State,
)

from .base import GameStreams, visible_view
from .heuristic import HeuristicAgent
from .random_agent import RandomAgent

_SALT = 0x5EA2_C400_0000_0016
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
DEFAULT_ROLLOUTS = 16
MAX_ROLLOUT_STEPS = 400  # a safety cap: a down takes ~10 agent steps
MAX_ROLLOUT_BATCH = 8192  # rollouts simulated at once (memory: a tournament batch of 1024 games would
# otherwise make ~150,000 at 16 rollouts a candidate)
WIN_VALUE = 100.0  # a won game, in points (beyond any margin a game can have)
# a rough price of the down (points; index down - 1) and of each row still to gain, on the drive value
DOWN_PRICE = np.array([0.0, 0.4, 1.0, 2.0])
ROW_TO_GAIN_PRICE = 0.15
_SEARCHED = (OFFENCE_FORMATION, DEFENCE_FORMATION, KICK_DECISION, PLAY)
ROLLOUT_POLICIES = ("bot", "heuristic", "random")
DEFAULT_ROLLOUT = "heuristic"
SHIPPED_BOT = Path(__file__).resolve().parent.parent / "gridiron_env" / "data" / "bot.npz"
_BOTS: dict = {}  # resolved path -> the loaded bot (read once per process; the net is never changed)


def rollout_bot(path=None):
    """The bot of ``path`` (default the shipped bot) as a temperature-0 ``agents.bot.BotAgent``, its file read
    once per process; raises ``agents.bot.BotFileError`` (a ValueError) for a bad file."""
    from .bot import Bot, BotAgent

    key = Path(path or SHIPPED_BOT).expanduser().resolve()
    if key not in _BOTS:
        _BOTS[key] = Bot.load(key)
    return BotAgent(_BOTS[key], name="rollout-bot")


def position_value(s: State, team: np.ndarray) -> np.ndarray:
    """Value of each game of ``s`` for ``team`` (int array, one per game), in points: the score margin
    plus the expected points of the down (positive for the team with the ball), or +-WIN_VALUE (plus the
    margin) once the game is won or lost; a truncated game is worth its margin."""
    r = np.arange(s.batch_size)
    team = np.asarray(team, dtype=np.int64)
    margin = s.score[r, team].astype(np.float64) - s.score[r, 1 - team].astype(np.float64)
    off = s.offence.astype(np.int64)
    los = FRAME_ROW[off, s.los_row.astype(np.int64) * N_LANES].astype(np.int64)  # rows from the goal line
    gain_row = FRAME_ROW[off, s.line_to_gain.astype(np.int64) * N_LANES].astype(np.int64)
    to_gain = np.maximum(los - gain_row, 0)
    down = np.clip(s.down.astype(np.int64), 1, 4)
    expected = (HeuristicAgent._drive_value(los) - DOWN_PRICE[down - 1] - ROW_TO_GAIN_PRICE * to_gain)
    value = margin + np.where(off == team, expected, -expected)
    over = s.terminated
    won = np.where(s.winner == team, WIN_VALUE, -WIN_VALUE)
    value = np.where(over, margin + won, value)
    return np.where(s.truncated, margin, value)


class SearchAgent:
    """Flat Monte-Carlo search over the engine (see the module docstring).

    ``rollouts``: simulated continuations per candidate action (>= 1); ``downs``: how many new downs a
    rollout runs into before it is scored (>= 1); ``rollout``: the policy playing both teams in the
    rollouts, one of :data:`ROLLOUT_POLICIES`; ``bot``: the bot file of the ``"bot"`` rollouts (default the
    shipped one); ``panel_priors``: add the panel styles' choices to the candidates during a play (else
    only the heuristic's and the rollout bot's).
    """

    def __init__(self, rollouts: int = DEFAULT_ROLLOUTS, downs: int = 1, panel_priors: bool = True,
                 rollout: str = DEFAULT_ROLLOUT, bot=None):
        for field, value in (("rollouts", rollouts), ("downs", downs)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(f"{field} must be an int >= 1, got {value!r}")
        if rollout not in ROLLOUT_POLICIES:
            raise ValueError(f"rollout must be one of {', '.join(ROLLOUT_POLICIES)}, got {rollout!r}")
        self.rollouts = int(rollouts)
        self.downs = int(downs)
        self.rollout = rollout
        self.name = (f"search:{self.rollouts}" + (f"x{self.downs}" if self.downs != 1 else "")
                     + (f":{rollout}" if rollout != DEFAULT_ROLLOUT else ""))
        self.streams = GameStreams()
        self.base = HeuristicAgent()  # the prior, and the player of what is not searched
        self.bot = rollout_bot(bot) if rollout == "bot" else None
        self.priors = [self.bot] if self.bot is not None else []
        if panel_priors:
            from .panel import PANEL

            self.priors += [make() for make in PANEL.values()]
        self.searched = 0  # decisions searched (with two or more candidates), for the benchmark

    def reset(self, seeds) -> None:
        seeds = np.asarray(seeds)
        self.streams.reset(seeds, _SALT)
        self.base.reset(seeds)
        for agent in self.priors:
            agent.reset(seeds)

    def act(self, state: State, config: GameConfig | None = None, games=None) -> np.ndarray:
        config = config or GameConfig()
        batch = state.batch_size
        self.streams.ensure(batch, _SALT)
        games = np.arange(batch) if games is None else np.asarray(games, dtype=np.int64)
        live = games[(state.to_act[games] >= 0) & state.legal[games].any(axis=1)]
        actions = self.base.act(state, config, games=live)  # the prior (and the heuristic's memory)
        if live.size == 0:
            return actions
        view = visible_view(state, live)  # hidden fields blanked: nothing below can read them
        searched = np.isin(view.phase, _SEARCHED) & ~view.ball_hidden
        cand = self._candidates(state, config, view, live, actions[live], searched)
        choice = self._search(view, config, live, cand)
        actions[live] = choice
        self.base._remember(view, live, choice)  # its scramble memory follows the action really played
        return actions

    def _candidates(self, state, config, view: State, live, prior, searched) -> np.ndarray:
        """Candidate actions [m, K] per game (-1 pads; column 0 the prior): every legal action at the
        formation and kick decisions, the distinct heuristic / panel choices during a play."""
        m = live.size
        legal = view.legal
        ids = np.arange(A.NUM_ACTIONS)
        decide = searched & (view.phase != PLAY)
        play = searched & (view.phase == PLAY)
        # formations and kicks: the prior first, then the other legal actions by id
        rank = np.where(ids[None, :] == prior[:, None], 2, legal.astype(np.int64))
        rank[~decide] = 0
        rank[~decide, prior[~decide]] = 2
        width = int((rank > 0).sum(axis=1).max())
        order = np.argsort(-rank, axis=1, kind="stable")[:, :width]
        cand = np.where(np.take_along_axis(rank, order, axis=1) > 0, order, -1)
        rows = np.flatnonzero(play)
        if rows.size and self.priors:
            picks = [prior[rows]]
            for agent in self.priors:
                picks.append(np.asarray(agent.act(state, config, games=live[rows]))[live[rows]])
            picks = np.stack(picks, axis=1)
            first = np.ones(picks.shape, dtype=bool)  # keep the first appearance of each action
            for j in range(1, picks.shape[1]):
                first[:, j] = ~(picks[:, :j] == picks[:, j:j + 1]).any(axis=1)
            ok = first & legal[rows[:, None], picks]
            if picks.shape[1] > cand.shape[1]:
                cand = np.concatenate([cand, np.full((m, picks.shape[1] - cand.shape[1]), -1)], axis=1)
            sub = np.full((rows.size, cand.shape[1]), -1, dtype=np.int64)
            sub[:, :picks.shape[1]] = np.where(ok, picks, -1)
            # compact each row: the valid candidates first, in order
            sub = np.take_along_axis(sub, np.argsort(sub < 0, axis=1, kind="stable"), axis=1)
            cand[rows] = sub
        return cand

    def _rollout_keys(self, live, steps, j) -> np.ndarray:
        """Stream keys of rollout j of each game at its step (uint64): the agent's per-game key mixed with
        the step and the rollout number, so no rollout shares dice with the real game or another step."""
        counter = steps.astype(np.uint64) * np.uint64(1 << 20) + j.astype(np.uint64)
        return splitmix64(self.streams.keys[live] ^ splitmix64(counter * _GOLDEN))

    def _search(self, view: State, config, live, cand) -> np.ndarray:
        m, width = cand.shape
        valid = cand >= 0
        choice = cand[:, 0].copy()
        todo = np.flatnonzero(valid.sum(axis=1) >= 2)
        if todo.size == 0:
            return choice
        self.searched += int(todo.size)
        n = self.rollouts
        pair_game, pair_cand = np.nonzero(valid[todo])  # (game row in todo, candidate column), row-major
        pair_game = todo[pair_game]
        q = np.full((m, width), -np.inf)
        per_chunk = max(1, MAX_ROLLOUT_BATCH // n)  # (pairs are independent: chunking changes no value)
        for lo in range(0, pair_game.size, per_chunk):
            g, c = pair_game[lo:lo + per_chunk], pair_cand[lo:lo + per_chunk]
            root = np.repeat(g, n)  # rows of the rollout batch: pair-major, then rollout j
            j = np.tile(np.arange(n), g.size)
            sim = view.take(root)
            keys = self._rollout_keys(live[root], view.steps[root], j)
            sim.rng_key[:] = keys
            sim.rng_counter[:] = 0
            team = view.to_act[root].astype(np.int64)
            sim = step(sim, cand[g, c].repeat(n), config=config, reuse_input=True)
            value = self._rollout(sim, config, team, keys, live[root])
            q[g, c] = value.reshape(g.size, n).mean(axis=1)
        best = np.argmax(q[todo], axis=1)  # the first maximum: ties go to the prior
        choice[todo] = cand[todo, best]
        return choice

    def _rollout(self, sim: State, config, team, keys, games) -> np.ndarray:
        """Play the rollout policy for both teams from ``sim`` until ``downs`` new downs have begun or the
        game is over; the value of each end position for ``team``. Only the rollouts still running are
        asked and stepped (the engine and the agents work on those rows alone)."""
        players = self._rollout_players(sim, team, keys, games)
        rows = np.arange(sim.batch_size)
        downs = (sim.phase == OFFENCE_FORMATION).astype(np.int64)
        for _ in range(MAX_ROLLOUT_STEPS):
            active = ~(sim.terminated | sim.truncated) & (downs < self.downs)
            if not active.any():
                break
            acts = np.zeros(sim.batch_size, dtype=np.int64)
            for agent, side in players:
                turn = active if side is None else active & ((sim.to_act == team) == side)
                idx = rows[turn]
                if idx.size:
                    acts[idx] = agent.act(sim, config, games=idx)[idx]
            before = sim.phase.copy()
            sim = step(sim, acts, config=config, active=active, reuse_input=True)
            downs += active & (sim.phase == OFFENCE_FORMATION) & (before != OFFENCE_FORMATION)
        return position_value(sim, team)

    def _rollout_players(self, sim, team, keys, games) -> list:
        """[(agent, side)]: the rollout policy's agents for the rollout batch ``sim``; ``side`` True: it
        plays the acting team, False: the other team, None: both."""
        seeds = (keys >> np.uint64(1)).astype(np.int64)
        if self.rollout == "bot":
            return [(self.bot, None)]  # temperature 0: nothing to reset
        if self.rollout == "random":
            agent = RandomAgent()
            agent.reset(seeds)
            return [(agent, None)]
        hero, villain = HeuristicAgent(), HeuristicAgent()
        hero.reset(seeds)
        villain.reset(seeds ^ 1)
        hero.pile[:] = self.base.pile[games]  # what the acting team remembers of the ball
        hero.last_handoff[:] = self.base.last_handoff[games]
        return [(hero, True), (villain, False)]


def make_search_agent(arg: str = "") -> SearchAgent:
    """A SearchAgent from the text after ``search:`` in an agent spec: ``N`` (rollouts per candidate, an
    int >= 1), ``N:POLICY`` (a rollout policy of :data:`ROLLOUT_POLICIES`) or empty (the defaults).
    Raises ValueError for anything else."""
    text, _, policy = arg.strip().partition(":")
    text, policy = text.strip(), policy.strip().lower() or DEFAULT_ROLLOUT
    if text and (not text.isdigit() or int(text) < 1):
        raise ValueError(f"search budget must be an int >= 1 (rollouts per candidate), got {arg!r}: use "
                         f"search[:ROLLOUTS[:POLICY]], POLICY one of {', '.join(ROLLOUT_POLICIES)}")
    if policy not in ROLLOUT_POLICIES:
        raise ValueError(f"search rollout policy must be one of {', '.join(ROLLOUT_POLICIES)}, got {policy!r} "
                         f"in {arg!r}")
    return SearchAgent(rollouts=int(text) if text else DEFAULT_ROLLOUTS, rollout=policy)
