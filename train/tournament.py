"""Tournaments: any set of agents plays full games in batch; win rates, points and an Elo rating.

:func:`run_tournament` plays every pair of agents ``games_per_pair`` full games (round robin). The games of
a pair come in **deals**: deal k (k = 0 .. games_per_pair/2 - 1) is played twice, once with each agent on
team one, from the same engine seed ``seed + k`` - so the coin toss (rule 28) is the same in both games
and each agent opens once on each side of it: teams and coin tosses are balanced exactly. Every pair gets
the same deals (common random numbers), so a pair's games do not depend on which other agents take part.

Each game is an engine game of its own seed (``init(seeds=...)``) and both agents are reset with that same
seed per game, so game (seed s, agent A on team t) plays exactly like ``agents.base.play_games(A, B, 1,
seed=s, a_team=[t])``, whatever the batch it runs in: the results depend on ``seed`` only, never on
``batch_size``. The games of all pairs run in batches of ``batch_size`` (pairs mixed); in every game and
step only the agent controlling the team to act (``state.to_act``) is asked, for just those games.

Scoring: a win counts 1, a loss 0, a truncation (``config.max_steps`` reached, no winner) 0.5 - for the
win rate (with a 95% Wilson interval, ``train.ratings.wilson_interval``) and for the Elo rating
(``train.ratings.elo_ratings``, maximum likelihood over all games, anchored: the random agent at 1000 if
one takes part, else the first agent).

Statistics, per ordered pair (agent, opponent) and per agent over all its opponents:

===================  ===================================================================================
games                games played (by the agent against the opponent / against anyone)
wins, losses         games the agent's team won / the other team won
truncations          games stopped by ``max_steps`` with no winner
win_rate             (wins + truncations / 2) / games; ``win_low``, ``win_high``: its 95% Wilson interval
points_for           the agent's team's final score, mean per game (overtime included)
points_against       the other team's final score, mean per game
points_per_drive     the agent's points / the drives its team started (``state.drives``), over all games
length               agent actions (``state.steps``) per game, mean
as_team_one, opened  games the agent played as team one / in which its team won the toss and opened
elo                  the agent's Elo rating (per-agent table; in the pair table: the agent's rating)
elo_low, elo_high    its 95% bootstrap interval (``train.ratings.elo_intervals``)
===================  ===================================================================================

Files (:meth:`TournamentResult.save`):

- ``results.csv`` - one row per **agent-pair-direction**: for every ordered pair (agent, opponent) the
  columns ``agent, opponent,`` then the statistics above (``elo`` = the agent's rating,
  ``opponent_elo``), so each unordered pair appears twice, once from each side;
- ``standings.csv`` - one row per **agent**, ``opponent`` = ``ALL``, same columns (totals over its
  opponents), ordered by Elo, best first;
- ``games.csv`` - one row per game: ``game, pair, deal, seed, team_one, team_two, opener, winner,
  score_one, score_two, drives_one, drives_two, steps, truncated`` (teams and winner as agent names;
  ``winner`` empty for a truncated game);
- ``results.md`` - :meth:`TournamentResult.to_markdown`: the standings, the win-rate matrix, the pairs;
- ``results.png`` - the plot: the pairwise win-rate heatmap (row agent against column agent, with
  the 95% Wilson intervals) and the Elo bar chart with 95% bootstrap intervals
  (``train.ratings.elo_intervals``). Drawn with matplotlib, the ``plot`` extra; without it the other
  files are written and the command says which extra to install.

Command line::

    python -m train.tournament --agents random heuristic bot:path/to/bot.npz@0.5 --games 100 --seed 0 \\
        --out runs/tournament

Agent specs: ``random``, ``heuristic[:SPECIAL]``, ``first`` (always the first legal action),
``search[:ROLLOUTS]`` (Monte-Carlo search over the engine, ``agents.search``), ``bot:PATH``
or ``bot:PATH@TEMPERATURE`` (a numpy ``.npz`` bot; temperature 0 = best action), ``onnx:PATH`` (an
exported ONNX bot, needs onnxruntime); prefix ``NAME=`` to name an agent (``strong=bot:b.npz``).
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from agents.base import _accepts_games
from gridiron_env.config import GameConfig
from gridiron_env.core.engine import init, step
from gridiron_env.extras import exit_on_missing_extra, install_hint, require

from .ratings import elo_intervals, elo_ratings, wilson_interval

DEFAULT_BATCH_SIZE = 1024
ANCHOR_RATING = 1000.0
PLOT_BACKENDS = ("auto", "matplotlib", "none")

PAIR_COLUMNS = (
    "agent", "opponent", "games", "wins", "losses", "truncations", "win_rate", "win_low", "win_high",
    "points_for", "points_against", "points_per_drive", "length", "as_team_one", "opened", "elo",
    "elo_low", "elo_high", "opponent_elo",
)
GAME_COLUMNS = (
    "game", "pair", "deal", "seed", "team_one", "team_two", "opener", "winner", "score_one", "score_two",
    "drives_one", "drives_two", "steps", "truncated",
)


# ------------------------------------------------------------------------------------------------ agents


class FirstLegalAgent:
    """Always the first legal action (lowest action id) of the team to act: a deterministic baseline that
    never forfeits (it always plays a legal move) but has no plan."""

    name = "first"

    def reset(self, seeds) -> None:
        pass

    def act(self, state, config=None, games=None) -> np.ndarray:
        return np.argmax(state.legal, axis=1).astype(np.int64)


class OnnxAgent:
    """An exported ONNX bot (``train.export.OnnxBot``, needs onnxruntime) as an agent: best action."""

    def __init__(self, path, name: str = "onnx"):
        from gridiron_env.extras import MissingExtra

        from .export import OnnxBot

        try:
            self.runtime = OnnxBot(path)
        except MissingExtra as err:
            raise MissingExtra(err.module, f"the agent onnx:{path}") from None
        self.name = name

    def reset(self, seeds) -> None:
        pass

    def act(self, state, config=None, games=None) -> np.ndarray:
        from gridiron_env.core.observe import observe

        games = np.arange(state.batch_size) if games is None else np.asarray(games, dtype=np.int64)
        actions = np.zeros(state.batch_size, dtype=np.int64)
        live = games[state.to_act[games] >= 0]
        if live.size:
            sub = state.take(live)
            actions[live] = self.runtime.run(observe(sub, None, config), sub.legal)[0]
        return actions


def make_agent(spec: str):
    """An agent from a command-line spec (see the module docstring). Raises ValueError for a bad spec."""
    name = None
    if "=" in spec.split(":", 1)[0]:
        name, spec = spec.split("=", 1)
        if not name:
            raise ValueError(f"empty agent name in {spec!r}")
    kind, _, arg = spec.partition(":")
    if kind == "random" and not arg:
        from agents.random_agent import RandomAgent

        agent = RandomAgent()
    elif kind == "heuristic":
        from agents.heuristic import HeuristicAgent

        agent = HeuristicAgent(special=arg) if arg else HeuristicAgent()
        if arg:
            agent.name = f"heuristic:{arg}"
    elif kind == "first" and not arg:
        agent = FirstLegalAgent()
    elif kind == "search":
        from agents.search import make_search_agent

        agent = make_search_agent(arg)
    elif kind == "bot" and arg:
        from agents.bot import BotAgent
        from gridiron_env.adapters.agents import split_bot_temperature

        path, temperature = split_bot_temperature(arg)
        label = f"bot:{Path(path).stem}" + (f"@{temperature:g}" if temperature > 0 else "")
        agent = BotAgent.load(path, name=label, temperature=temperature)
    elif kind == "onnx" and arg:
        agent = OnnxAgent(arg, name=f"onnx:{Path(arg).stem}")
    else:
        raise ValueError(f"unknown agent spec {spec!r}: use random, heuristic[:SPECIAL], first, "
                         "search[:ROLLOUTS], bot:PATH[@TEMPERATURE] or onnx:PATH, optionally prefixed NAME=")
    if name:
        agent.name = name
    return agent


def _named_agents(agents) -> tuple[list[str], list]:
    if isinstance(agents, dict):
        names, objs = [str(k) for k in agents], list(agents.values())
    else:
        objs = list(agents)
        names, seen = [], {}
        for a in objs:
            base = str(getattr(a, "name", type(a).__name__))
            seen[base] = seen.get(base, 0) + 1
            names.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    if len(objs) < 2:
        raise ValueError(f"a tournament needs at least 2 agents, got {len(objs)}")
    if len(set(names)) != len(names):
        raise ValueError(f"agent names must be unique, got {names}")
    for n, a in zip(names, objs):
        if not (callable(getattr(a, "act", None)) and callable(getattr(a, "reset", None))):
            raise TypeError(f"agent {n!r} lacks act() / reset() (see agents.base.Agent)")
    return names, objs


def _anchor_index(names, agents) -> int:
    from agents.random_agent import RandomAgent

    for i, a in enumerate(agents):
        if isinstance(a, RandomAgent):
            return i
    return names.index("random") if "random" in names else 0


# ------------------------------------------------------------------------------------------------ results


@dataclass
class TournamentResult:
    """The games of a tournament (one entry per game) and the tables derived from them.

    ``team_agent[g]`` = (agent on team one, agent on team two) as indices into ``names``; ``pair[g]`` the
    index into ``pairs`` (unordered agent pairs i < j); ``deal[g]``, ``seed[g]`` its deal and engine seed;
    ``winner`` the winning team (-1 for a truncated game), ``score`` / ``drives`` per team, ``steps`` the
    agent actions, ``opener`` the team that opened (coin toss).
    """

    names: list[str]
    pairs: list[tuple[int, int]]
    games_per_pair: int
    seed: int
    config: GameConfig
    pair: np.ndarray
    deal: np.ndarray
    game_seed: np.ndarray
    team_agent: np.ndarray
    winner: np.ndarray
    score: np.ndarray
    drives: np.ndarray
    steps: np.ndarray
    truncated: np.ndarray
    opener: np.ndarray
    anchor: int = 0
    seconds: float = 0.0
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def n_games(self) -> int:
        return int(self.winner.size)

    # --- the statistics ------------------------------------------------------------------------------

    def _sides(self):
        """Every game seen from each of its two agents: arrays over 2 * n_games entries."""
        if "sides" not in self._cache:
            n = self.n_games
            idx = np.concatenate([np.arange(n), np.arange(n)])
            team = np.repeat([0, 1], n)
            agent = self.team_agent[idx, team]
            opp = self.team_agent[idx, 1 - team]
            won = self.winner[idx] == team
            lost = self.winner[idx] == 1 - team
            self._cache["sides"] = dict(
                agent=agent, opp=opp, team=team, won=won, lost=lost, trunc=self.truncated[idx],
                pf=self.score[idx, team], pa=self.score[idx, 1 - team], drives=self.drives[idx, team],
                steps=self.steps[idx], opened=self.opener[idx] == team)
        return self._cache["sides"]

    def _row(self, sel, agent: str, opponent: str) -> dict:
        s = self._sides()
        games = int(sel.sum())
        wins, losses, trunc = int(s["won"][sel].sum()), int(s["lost"][sel].sum()), int(s["trunc"][sel].sum())
        points = wins + 0.5 * trunc
        low, high = wilson_interval(points, games)
        drives = int(s["drives"][sel].sum())
        pf = int(s["pf"][sel].sum())
        return dict(
            agent=agent, opponent=opponent, games=games, wins=wins, losses=losses, truncations=trunc,
            win_rate=points / games if games else float("nan"), win_low=low, win_high=high,
            points_for=pf / games if games else float("nan"),
            points_against=int(s["pa"][sel].sum()) / games if games else float("nan"),
            points_per_drive=pf / drives if drives else float("nan"),
            length=float(s["steps"][sel].mean()) if games else float("nan"),
            as_team_one=int((s["team"][sel] == 0).sum()), opened=int(s["opened"][sel].sum()))

    def score_matrix(self) -> tuple[np.ndarray, np.ndarray]:
        """(score[i, j], games[i, j]): points (win 1, truncation 0.5) agent i took from its games against
        agent j, and the games i played against j."""
        n = len(self.names)
        s = self._sides()
        points = s["won"] + 0.5 * s["trunc"]
        score = np.zeros((n, n))
        games = np.zeros((n, n))
        np.add.at(score, (s["agent"], s["opp"]), points)
        np.add.at(games, (s["agent"], s["opp"]), 1)
        return score, games

    def win_matrix(self) -> np.ndarray:
        """win_rate[i, j] of agent i against agent j (NaN on the diagonal / for pairs that did not play)."""
        score, games = self.score_matrix()
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(games > 0, score / np.maximum(games, 1), np.nan)

    def elo(self) -> np.ndarray:
        """Elo ratings [n_agents] (train.ratings.elo_ratings; agent ``anchor`` at 1000)."""
        if "elo" not in self._cache:
            score, games = self.score_matrix()
            self._cache["elo"] = elo_ratings(score, games, anchor=self.anchor, anchor_rating=ANCHOR_RATING)
        return self._cache["elo"]

    def outcome_matrices(self) -> tuple[np.ndarray, np.ndarray]:
        """(wins[i, j], draws[i, j]): games agent i won against j, and the truncated games of the pair."""
        n = len(self.names)
        s = self._sides()
        wins = np.zeros((n, n))
        draws = np.zeros((n, n))
        np.add.at(wins, (s["agent"], s["opp"]), s["won"])
        np.add.at(draws, (s["agent"], s["opp"]), s["trunc"])
        return wins, draws

    def elo_interval(self) -> tuple[np.ndarray, np.ndarray]:
        """95% bootstrap intervals of :meth:`elo` (``train.ratings.elo_intervals``, seeded by the
        tournament's seed): (low [n_agents], high [n_agents]); the anchor's is its fixed 1000."""
        if "elo_interval" not in self._cache:
            self._cache["elo_interval"] = elo_intervals(*self.outcome_matrices(), anchor=self.anchor,
                                                        anchor_rating=ANCHOR_RATING, seed=self.seed)
        return self._cache["elo_interval"]

    def unbeaten(self) -> np.ndarray:
        """bool [n_agents]: agents that lost no game (the games give their rating no upper bound)."""
        wins, _ = self.outcome_matrices()
        return wins.sum(axis=0) == 0

    def pair_rows(self) -> list[dict]:
        """One row per ordered pair (agent, opponent) that played, in agent order then opponent order."""
        s, elo, rows = self._sides(), self.elo(), []
        low, high = self.elo_interval()
        for i, a in enumerate(self.names):
            for j, b in enumerate(self.names):
                sel = (s["agent"] == i) & (s["opp"] == j)
                if i != j and sel.any():
                    rows.append(self._row(sel, a, b) | dict(elo=float(elo[i]), elo_low=float(low[i]),
                                                            elo_high=float(high[i]), opponent_elo=float(elo[j])))
        return rows

    def agent_rows(self) -> list[dict]:
        """One row per agent over all its games (``opponent`` = "ALL"), best Elo first."""
        s, elo = self._sides(), self.elo()
        low, high = self.elo_interval()
        rows = [self._row(s["agent"] == i, a, "ALL") | dict(elo=float(elo[i]), elo_low=float(low[i]),
                                                            elo_high=float(high[i]), opponent_elo=float("nan"))
                for i, a in enumerate(self.names)]
        order = np.argsort(-elo, kind="stable")
        return [rows[k] for k in order]

    # --- output ----------------------------------------------------------------------------------------

    def to_markdown(self) -> str:
        cfg = self.config
        out = [f"### Tournament: {len(self.names)} agents, {self.games_per_pair} games per pair "
               f"({self.n_games} games), seed {self.seed}",
               "",
               f"Game: target score {cfg.target_score}, specials {'on' if cfg.specials else 'off'}, "
               f"kick mode {cfg.kick_mode}, max steps {cfg.max_steps}. A truncated game counts half a win. "
               f"Win rates with 95% Wilson intervals; Elo anchored at {ANCHOR_RATING:.0f} on "
               f"{self.names[self.anchor]}, with 95% bootstrap intervals (games resampled within each pair)"
               f"{_UNBEATEN_NOTE if self.unbeaten().any() else ''}. {self.seconds:.1f} s.",
               "",
               "| rank | agent | Elo (95% CI) | games | W | L | T | win rate (95% CI) | points for / game | "
               "points against / game | points / drive | length |",
               "|---:|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|"]
        unbeaten = dict(zip(self.names, self.unbeaten()))
        for rank, r in enumerate(self.agent_rows(), 1):
            elo = f"{r['elo']:.0f} ({r['elo_low']:.0f}-{r['elo_high']:.0f}){'*' if unbeaten[r['agent']] else ''}"
            out.append(f"| {rank} | {r['agent']} | {elo} | {r['games']} | {r['wins']} | {r['losses']} | "
                       f"{r['truncations']} | {_rate(r)} | {r['points_for']:.2f} | {r['points_against']:.2f} | "
                       f"{_num(r['points_per_drive'])} | {r['length']:.0f} |")
        matrix = self.win_matrix()
        out += ["", "Win rate of the row agent against the column agent:", "",
                "| | " + " | ".join(self.names) + " |", "|---|" + "---:|" * len(self.names)]
        for i, a in enumerate(self.names):
            cells = ["-" if np.isnan(v) else f"{v:.3f}" for v in matrix[i]]
            out.append(f"| **{a}** | " + " | ".join(cells) + " |")
        out += ["", "| agent | opponent | games | W | L | T | win rate (95% CI) | points for / game | "
                "points against / game | points / drive | length |",
                "|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|"]
        for r in self.pair_rows():
            out.append(f"| {r['agent']} | {r['opponent']} | {r['games']} | {r['wins']} | {r['losses']} | "
                       f"{r['truncations']} | {_rate(r)} | {r['points_for']:.2f} | {r['points_against']:.2f} | "
                       f"{_num(r['points_per_drive'])} | {r['length']:.0f} |")
        return "\n".join(out) + "\n"

    def to_csv(self, path=None, by: str = "pair") -> str:
        """Write (if ``path``) and return the CSV: ``by="pair"`` one row per agent-pair-direction (the
        ``results.csv`` format), ``by="agent"`` one row per agent (``standings.csv``), ``by="game"`` one
        row per game (``games.csv``). See the module docstring for the columns."""
        if by == "pair":
            columns, rows = PAIR_COLUMNS, self.pair_rows()
        elif by == "agent":
            columns, rows = PAIR_COLUMNS, self.agent_rows()
        elif by == "game":
            columns, rows = GAME_COLUMNS, self.game_rows()
        else:
            raise ValueError(f"by must be 'pair', 'agent' or 'game', got {by!r}")
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        for r in rows:
            writer.writerow({k: _csv_value(r[k]) for k in columns})
        text = buf.getvalue()
        if path is not None:
            Path(path).write_text(text)
        return text

    def game_rows(self) -> list[dict]:
        names = self.names
        return [dict(game=g, pair=int(self.pair[g]), deal=int(self.deal[g]), seed=int(self.game_seed[g]),
                     team_one=names[self.team_agent[g, 0]], team_two=names[self.team_agent[g, 1]],
                     opener=names[self.team_agent[g, self.opener[g]]],
                     winner=names[self.team_agent[g, self.winner[g]]] if self.winner[g] >= 0 else "",
                     score_one=int(self.score[g, 0]), score_two=int(self.score[g, 1]),
                     drives_one=int(self.drives[g, 0]), drives_two=int(self.drives[g, 1]),
                     steps=int(self.steps[g]), truncated=int(self.truncated[g]))
                for g in range(self.n_games)]

    def plot_image(self) -> np.ndarray:
        """The plot (see :meth:`save_plot`) as an H x W x 3 uint8 image."""
        return _plot_matplotlib(self, None)

    def save_plot(self, path) -> None:
        """Write the plot as a PNG: the win-rate heatmap with Wilson intervals and the Elo bars with their
        bootstrap intervals. Needs matplotlib (the ``plot`` extra; ``gridiron_env.extras.MissingExtra``
        otherwise)."""
        _plot_matplotlib(self, path)

    def save(self, directory, plot_backend: str = "auto") -> dict[str, Path]:
        """Write results.csv, standings.csv, games.csv, results.md and results.png into ``directory``
        (created if needed). Returns {kind: path}. ``plot_backend``: "matplotlib" (MissingExtra without
        it), "auto" (the plot only when matplotlib is installed: no "plot" key otherwise) or "none"."""
        if plot_backend not in PLOT_BACKENDS:
            raise ValueError(f"plot_backend must be one of {PLOT_BACKENDS}, got {plot_backend!r}")
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        paths = {k: directory / f for k, f in (("pairs", "results.csv"), ("standings", "standings.csv"),
                                              ("games", "games.csv"), ("markdown", "results.md"),
                                              ("plot", "results.png"))}
        self.to_csv(paths["pairs"], by="pair")
        self.to_csv(paths["standings"], by="agent")
        self.to_csv(paths["games"], by="game")
        paths["markdown"].write_text(self.to_markdown())
        if plot_backend == "none" or (plot_backend == "auto" and not plot_available()):
            del paths["plot"]
        else:
            self.save_plot(paths["plot"])
        return paths


_UNBEATEN_NOTE = ("; * an unbeaten agent: its games set no upper bound on its rating, which the estimate's "
                  "prior (one drawn game against a virtual opponent) holds finite")


def _rate(r) -> str:
    return f"{r['win_rate']:.3f} ({r['win_low']:.3f}-{r['win_high']:.3f})"


def _num(x) -> str:
    return "-" if np.isnan(x) else f"{x:.2f}"


def _csv_value(v):
    if isinstance(v, float):
        return "" if np.isnan(v) else f"{v:.6g}"
    return v


# ------------------------------------------------------------------------------------------------ running


def schedule(n_agents: int, games_per_pair: int, seed: int = 0, pairs=None):
    """The games of a round robin: (pairs, pair [G], deal [G], seed [G], team_agent [G, 2]).

    Game ``p * games_per_pair + 2k + s`` is deal k of pair p = (i, j), seeded ``seed + k``, with agent i
    on team one if s = 0 and agent j on team one if s = 1. ``pairs`` (optional, a list of (i, j) with
    i != j) plays only those pairs instead of every pair (a league's learner against each member)."""
    if isinstance(games_per_pair, bool) or not isinstance(games_per_pair, (int, np.integer)) \
            or games_per_pair < 2 or games_per_pair % 2:
        raise ValueError(f"games_per_pair must be an even int >= 2 (each deal is played from both sides), "
                         f"got {games_per_pair!r}")
    if pairs is None:
        pairs = [(i, j) for i in range(n_agents) for j in range(i + 1, n_agents)]
    else:
        pairs = [(int(i), int(j)) for i, j in pairs]
        if not pairs or any(not (0 <= i < n_agents and 0 <= j < n_agents and i != j) for i, j in pairs):
            raise ValueError(f"pairs must be a non-empty list of (i, j), 0 <= i, j < {n_agents}, i != j; got {pairs}")
    deals = games_per_pair // 2
    p = np.repeat(np.arange(len(pairs)), games_per_pair)
    k = np.tile(np.repeat(np.arange(deals), 2), len(pairs))
    s = np.tile([0, 1], len(pairs) * deals)
    ij = np.array(pairs, dtype=np.int64)[p]
    team_agent = np.where(s[:, None] == 0, ij, ij[:, ::-1])
    return pairs, p, k, int(seed) + k, team_agent


def run_tournament(agents, games_per_pair: int, config: GameConfig | None = None, seed: int = 0,
                   batch_size: int = DEFAULT_BATCH_SIZE, progress=None, pairs=None) -> TournamentResult:
    """Play a round robin of full games between ``agents`` (a dict name -> agent, or a list of agents
    named by their ``name``, duplicates numbered) and return a :class:`TournamentResult`.

    ``games_per_pair`` (even): games of every pair, as ``games_per_pair / 2`` deals each played from both
    sides (see the module docstring). All games run in batches of at most ``batch_size`` (pairs mixed);
    the results do not depend on it. ``progress``: optional callable(games_done, games_total).
    ``pairs``: only these (i, j) index pairs play (default: every pair).
    """
    config = config or GameConfig()
    names, objs = _named_agents(agents)
    if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) or batch_size < 1:
        raise ValueError(f"batch_size must be an int >= 1, got {batch_size!r}")
    pairs, pair, deal, game_seed, team_agent = schedule(len(objs), games_per_pair, seed, pairs)
    total = pair.size
    winner = np.full(total, -1, dtype=np.int64)
    score = np.zeros((total, 2), dtype=np.int64)
    drives = np.zeros((total, 2), dtype=np.int64)
    steps = np.zeros(total, dtype=np.int64)
    truncated = np.zeros(total, dtype=bool)
    opener = np.zeros(total, dtype=np.int64)
    start = time.perf_counter()
    for lo in range(0, total, batch_size):
        chunk = slice(lo, min(lo + batch_size, total))
        state = _play_batch(objs, names, team_agent[chunk], game_seed[chunk], config)
        winner[chunk] = state.winner
        score[chunk] = state.score
        drives[chunk] = state.drives
        steps[chunk] = state.steps
        truncated[chunk] = state.truncated
        opener[chunk] = state.opener
        if progress is not None:
            progress(chunk.stop, total)
    return TournamentResult(
        names=names, pairs=pairs, games_per_pair=int(games_per_pair), seed=int(seed), config=config, pair=pair,
        deal=deal, game_seed=game_seed, team_agent=team_agent, winner=winner, score=score, drives=drives,
        steps=steps, truncated=truncated, opener=opener, anchor=_anchor_index(names, objs),
        seconds=time.perf_counter() - start)


def _play_batch(agents, names, team_agent, seeds, config):
    """Play one batch of full games to the end; returns the final State."""
    n = seeds.size
    involved = np.unique(team_agent)
    reset_done = set()
    for a in involved:  # every agent gets the per-game seeds of the whole batch (it acts only in its games)
        if id(agents[a]) not in reset_done:
            agents[a].reset(seeds.copy())
            reset_done.add(id(agents[a]))
    with_games = {a: _accepts_games(agents[a]) for a in involved}
    state = init(seeds=seeds, config=config)
    rows = np.arange(n)
    while True:
        live = ~(state.terminated | state.truncated)
        if not live.any():
            return state
        controller = np.where(live, team_agent[rows, np.clip(state.to_act, 0, 1)], -1)
        actions = np.zeros(n, dtype=np.int64)
        for a in involved:
            games = np.flatnonzero(controller == a)
            if not games.size:
                continue
            agent = agents[a]
            out = agent.act(state, config, games=games) if with_games[a] else agent.act(state, config)
            chosen = np.asarray(out, dtype=np.int64)[games]
            ok = (chosen >= 0) & (chosen < state.legal.shape[1])
            ok[ok] = state.legal[games[ok], chosen[ok]]
            if not ok.all():
                g = int(games[np.flatnonzero(~ok)[0]])
                raise ValueError(f"agent {names[a]!r} chose the illegal action {int(np.asarray(out)[g])} in the "
                                 f"game seeded {int(seeds[g])} at step {int(state.steps[g])}")
            actions[games] = chosen
        state = step(state, actions, config=config)


# ------------------------------------------------------------------------------------------------ plots


def plot_available() -> bool:
    """Whether matplotlib (the ``plot`` extra) can be imported."""
    from gridiron_env.extras import MissingExtra, require

    try:
        require("matplotlib", "the tournament plot")
    except MissingExtra:
        return False
    return True


def _plot_matplotlib(result: TournamentResult, path):
    """Draw the tournament's figure; write it as a PNG to ``path``, or return it as an RGB array when
    ``path`` is None."""
    from gridiron_env.extras import require

    require("matplotlib", "the tournament plot")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    names, n = result.names, len(result.names)
    matrix = result.win_matrix()
    score, games = result.score_matrix()
    elo = result.elo()
    low, high = result.elo_interval()
    unbeaten = result.unbeaten()
    fig = Figure(figsize=(5 + 1.1 * n, 0.9 * n + 2.5), dpi=110)
    canvas = FigureCanvasAgg(fig)
    ax, bx = fig.subplots(1, 2, gridspec_kw={"width_ratios": [max(n, 2), 2.5]})
    im = ax.imshow(np.ma.masked_invalid(matrix), cmap="RdYlGn", vmin=0, vmax=1)
    for i in range(n):
        for j in range(n):
            if not np.isnan(matrix[i, j]):
                lo, hi = wilson_interval(score[i, j], int(games[i, j]))
                ax.text(j, i, f"{matrix[i, j]:.2f}\n[{lo:.2f}, {hi:.2f}]", ha="center", va="center", fontsize=8,
                        color="white" if abs(matrix[i, j] - 0.5) > 0.35 else "black")
    ax.set_xticks(range(n), names, rotation=30, ha="right")
    ax.set_yticks(range(n), names)
    ax.set_title("win rate (row vs column, 95% Wilson CI)")
    fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    order = np.argsort(elo)
    rows = {r["agent"]: r for r in result.agent_rows()}
    base = min(float(low.min()), float(elo.min())) - 50
    bx.barh(range(n), elo[order] - base, left=base, color="#1f4fbf",
            xerr=np.vstack([elo[order] - low[order], high[order] - elo[order]]).clip(0), capsize=3,
            error_kw={"ecolor": "#555555", "elinewidth": 1})
    bx.set_yticks(range(n), [names[k] + ("*" if unbeaten[k] else "") for k in order])
    for y, k in enumerate(order):
        bx.text(high[k], y, f" {elo[k]:.0f}  ({rows[names[k]]['win_rate']:.2f})", va="center", fontsize=8)
    top = max(float(high.max()), float(elo.max()))
    bx.set_xlim(base - 10, top + 0.45 * max(top - base, 100))
    bx.set_title(f"Elo, 95% bootstrap CI ({names[result.anchor]} = {ANCHOR_RATING:.0f})"
                 + ("\n* unbeaten: no upper bound from the games" if unbeaten.any() else ""), fontsize=9)
    fig.suptitle(f"{result.n_games} games, {result.games_per_pair} per pair, seed {result.seed}")
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, format="png")
        return None
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[:, :, :3].copy()


# ------------------------------------------------------------------------------------------------ CLI


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m train.tournament", description="Round-robin tournament of Gridiron agents.",
        epilog="Agent specs: random, heuristic[:SPECIAL], first, search[:ROLLOUTS], bot:PATH[@TEMPERATURE], onnx:PATH; "
               "prefix NAME= to name one.")
    parser.add_argument("--agents", nargs="+", required=True, metavar="SPEC",
                        help="two or more agent specs (see below)")
    parser.add_argument("--games", type=int, default=100, help="games per pair (even; default 100)")
    parser.add_argument("--seed", type=int, default=0, help="engine seed of the first deal (default %(default)s)")
    parser.add_argument("--out", default=None, help="directory for results.csv, results.md, results.png, ...")
    parser.add_argument("--batch-size", type=int, default=DEFAULT_BATCH_SIZE,
                        help="games played at once; the results do not depend on it (default %(default)s)")
    parser.add_argument("--target-score", type=int, default=None, help="points that win (default: the game's, 21)")
    parser.add_argument("--max-steps", type=int, default=None,
                        help="agent actions after which a game is truncated, half a win each (default: the game's)")
    parser.add_argument("--no-specials", action="store_true", help="play without special players")
    parser.add_argument("--kick-mode", choices=("dice", "paper"), default=None,
                        help="how kicks are resolved (default: the game's, dice)")
    parser.add_argument("--plot-backend", choices=PLOT_BACKENDS, default="auto",
                        help="results.png with matplotlib (the plot extra): 'auto' when it is installed, "
                             "'matplotlib' always (an error without it), 'none' never (default %(default)s)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    return parser


@exit_on_missing_extra("python -m train.tournament")
def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.out and args.plot_backend == "matplotlib":
        require("matplotlib", "--plot-backend matplotlib")  # before any game: one line and status 2
    try:
        changes = {k: v for k, v in (("target_score", args.target_score), ("max_steps", args.max_steps),
                                     ("kick_mode", args.kick_mode)) if v is not None}
        if args.no_specials:
            changes["specials"] = False
        config = GameConfig().replace(**changes)
        agents = [make_agent(spec) for spec in args.agents]
        names, _ = _named_agents(agents)
        agents = dict(zip(names, agents))

        def progress(done, total):
            if not args.quiet:
                print(f"{done}/{total} games", file=sys.stderr, flush=True)

        result = run_tournament(agents, args.games, config=config, seed=args.seed, batch_size=args.batch_size,
                                progress=progress)
    except KeyboardInterrupt:
        parser.exit(130, f"{parser.prog}: interrupted\n")
    # a bad spec, config or bot file (BotFileError is a ValueError: one line naming the file and the
    # problem), a missing onnxruntime: one line and exit status 2, never a traceback
    except (ValueError, TypeError, ImportError, OSError) as err:
        parser.exit(2, f"{parser.prog}: error: {err}\n")
    print(result.to_markdown(), end="")
    if args.out:
        try:
            paths = result.save(args.out, plot_backend=args.plot_backend)
        except OSError as err:
            parser.exit(2, f"{parser.prog}: error: cannot write the results to {args.out}: {err}\n")
        print(f"\nWrote {', '.join(str(p) for p in paths.values())}")
        if "plot" not in paths and args.plot_backend == "auto":
            print(f"results.png skipped: the plot needs matplotlib, {install_hint('matplotlib')}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
