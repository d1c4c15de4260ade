"""Round-robin tournaments for any protocol game: balanced seats and tosses, win rates, Elo, CSV and Markdown.

:func:`run_game_tournament` plays every pair of agents ``games_per_pair`` full games of a
:class:`~gridiron_env.protocol.GameSpec`. As in ``train.tournament``, a pair's games come in **deals**:
deal k is played twice from the same engine seed ``seed + k``, once with each agent on team one. The
game's randomness lives in its state (the protocol), so the opening toss and every chance that does not
depend on the play are the same in both games: each agent plays each seat, and each side of the toss,
exactly once per deal. Every pair gets the same deals (common random numbers).

Game (seed s, agent A on team t) is the game ``game.init(seeds=[s])`` with both agents reset with s, so
it plays alike in any batch: the results depend on ``seed`` only, never on ``batch_size``. In every step
only the agent controlling the team to act (``game.to_act``) is asked, for just those games; an agent
that chooses an illegal action is a bug: ValueError naming it, the game's seed and the action.

Scoring: a win 1, a loss 0, a draw or a truncation (the game's own cap) 1/2, for the win rate (with its 95%
Wilson interval, ``train.ratings.wilson_interval``) and for the Elo rating (``train.ratings.elo_ratings``,
maximum likelihood, anchored at 1000 on the random agent if one plays, else the first agent).

Statistics per ordered pair (agent, opponent) and per agent (``opponent`` = ``ALL``): ``games``, ``wins``,
``losses``, ``draws``, ``truncations``, ``win_rate`` (points / games), ``win_low`` / ``win_high``,
``points_for`` / ``points_against`` (the final scores, mean per game), ``length`` (decisions per game, both
teams, mean), ``as_team_one``, ``first`` (games in which the agent's team decided first: the toss),
``elo`` (with ``elo_low`` / ``elo_high``, its 95% bootstrap interval), ``opponent_elo``.

Files (:meth:`GameTournamentResult.save`): ``results.csv`` (one row per ordered pair), ``standings.csv``
(one row per agent, best Elo first), ``games.csv`` (one row per game: ``game, pair, deal, seed,
team_one, team_two, first, winner, score_one, score_two, length, truncated``, ``winner`` the agent's
name, ``draw``, or empty for a truncation) and ``results.md`` (:meth:`~GameTournamentResult.to_markdown`).

Command line::

    python -m train.game_tournament --game table_football [--variant clock] \\
        --agents random optimal fixed bot:path/to/bot.npz --games 400 --seed 0 --out runs/tf_tournament

Agent specs: ``gridiron_env.adapters.agents.make_agent`` (``random``, ``bot:PATH[@T]``, ``onnx:PATH``,
the game's own agents by kind, e.g. ``optimal``, ``fixed``); prefix ``NAME=`` to name one.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from gridiron_env.adapters.agents import RandomGameAgent, make_agent
from gridiron_env.protocol import TEAMS, GameSpec, game_names, get_game

from .ratings import elo_intervals, elo_ratings, wilson_interval
from .tournament import schedule

__all__ = ["GameTournamentResult", "run_game_tournament", "main", "PAIR_COLUMNS", "GAME_COLUMNS"]

DEFAULT_BATCH_SIZE = 1024
ANCHOR_RATING = 1000.0

PAIR_COLUMNS = ("agent", "opponent", "games", "wins", "losses", "draws", "truncations", "win_rate", "win_low",
                "win_high", "points_for", "points_against", "length", "as_team_one", "first", "elo",
                "elo_low", "elo_high", "opponent_elo")
GAME_COLUMNS = ("game", "pair", "deal", "seed", "team_one", "team_two", "first", "winner", "score_one",
                "score_two", "length", "truncated")


@dataclass
class GameTournamentResult:
    """The games of a tournament and the tables derived from them.

    Per game g: ``team_agent[g]`` (agent on team one, agent on team two) as indices into ``names``;
    ``pair[g]`` (index into ``pairs``), ``deal[g]``, ``game_seed[g]``; ``winner[g]`` 0 / 1 the winning
    team, -1 none (a draw or a truncation); ``draw[g]``, ``truncated[g]``; ``score[g]`` per team;
    ``length[g]`` decisions taken; ``first[g]`` the team that decided first."""

    game: str
    variant: str
    config: object
    names: list
    pairs: list
    games_per_pair: int
    seed: int
    pair: np.ndarray
    deal: np.ndarray
    game_seed: np.ndarray
    team_agent: np.ndarray
    winner: np.ndarray
    draw: np.ndarray
    truncated: np.ndarray
    score: np.ndarray
    length: np.ndarray
    first: np.ndarray
    anchor: int = 0
    seconds: float = 0.0
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def n_games(self) -> int:
        return int(self.winner.size)

    def _sides(self) -> dict:
        """Every game seen from each of its two agents (arrays over 2 * n_games entries)."""
        if "sides" not in self._cache:
            n = self.n_games
            idx = np.concatenate([np.arange(n), np.arange(n)])
            team = np.repeat([0, 1], n)
            self._cache["sides"] = dict(
                agent=self.team_agent[idx, team], opp=self.team_agent[idx, 1 - team], team=team,
                won=self.winner[idx] == team, lost=self.winner[idx] == 1 - team, draw=self.draw[idx],
                trunc=self.truncated[idx], pf=self.score[idx, team], pa=self.score[idx, 1 - team],
                length=self.length[idx], first=self.first[idx] == team)
        return self._cache["sides"]

    def _row(self, sel, agent: str, opponent: str) -> dict:
        s = self._sides()
        games = int(sel.sum())
        wins, losses = int(s["won"][sel].sum()), int(s["lost"][sel].sum())
        draws, trunc = int(s["draw"][sel].sum()), int(s["trunc"][sel].sum())
        points = wins + 0.5 * (draws + trunc)
        low, high = wilson_interval(points, games)
        nan = float("nan")
        return dict(agent=agent, opponent=opponent, games=games, wins=wins, losses=losses, draws=draws,
                    truncations=trunc, win_rate=points / games if games else nan, win_low=low, win_high=high,
                    points_for=float(s["pf"][sel].mean()) if games else nan,
                    points_against=float(s["pa"][sel].mean()) if games else nan,
                    length=float(s["length"][sel].mean()) if games else nan,
                    as_team_one=int((s["team"][sel] == 0).sum()), first=int(s["first"][sel].sum()))

    def score_matrix(self) -> tuple[np.ndarray, np.ndarray]:
        """(score[i, j], games[i, j]): the points (win 1, draw or truncation 1/2) agent i took from its games
        against agent j, and the games they played."""
        n = len(self.names)
        s = self._sides()
        points = s["won"] + 0.5 * (s["draw"] | s["trunc"])
        score, games = np.zeros((n, n)), np.zeros((n, n))
        np.add.at(score, (s["agent"], s["opp"]), points)
        np.add.at(games, (s["agent"], s["opp"]), 1)
        return score, games

    def win_matrix(self) -> np.ndarray:
        """win_rate[i, j] of agent i against agent j (NaN on the diagonal and for pairs that did not play)."""
        score, games = self.score_matrix()
        return np.where(games > 0, score / np.maximum(games, 1), np.nan)

    def elo(self) -> np.ndarray:
        """Elo ratings [n_agents] (``train.ratings.elo_ratings``; agent ``anchor`` at 1000)."""
        if "elo" not in self._cache:
            score, games = self.score_matrix()
            self._cache["elo"] = elo_ratings(score, games, anchor=self.anchor, anchor_rating=ANCHOR_RATING)
        return self._cache["elo"]

    def elo_interval(self) -> tuple[np.ndarray, np.ndarray]:
        """95% bootstrap intervals of :meth:`elo` (``train.ratings.elo_intervals``, games resampled within
        each pair, seeded by the tournament's seed): (low [n_agents], high [n_agents])."""
        if "elo_interval" not in self._cache:
            n = len(self.names)
            s = self._sides()
            wins, draws = np.zeros((n, n)), np.zeros((n, n))
            np.add.at(wins, (s["agent"], s["opp"]), s["won"])
            np.add.at(draws, (s["agent"], s["opp"]), s["draw"] | s["trunc"])
            self._cache["elo_interval"] = elo_intervals(wins, draws, anchor=self.anchor, anchor_rating=ANCHOR_RATING,
                                                        seed=self.seed)
        return self._cache["elo_interval"]

    def _elo_columns(self, i: int) -> dict:
        low, high = self.elo_interval()
        return dict(elo=float(self.elo()[i]), elo_low=float(low[i]), elo_high=float(high[i]))

    def pair_rows(self) -> list[dict]:
        """One row per ordered pair (agent, opponent) that played, in agent then opponent order."""
        s, elo, rows = self._sides(), self.elo(), []
        for i, a in enumerate(self.names):
            for j, b in enumerate(self.names):
                sel = (s["agent"] == i) & (s["opp"] == j)
                if i != j and sel.any():
                    rows.append(self._row(sel, a, b) | self._elo_columns(i) | dict(opponent_elo=float(elo[j])))
        return rows

    def agent_rows(self) -> list[dict]:
        """One row per agent over all its games (``opponent`` = "ALL"), best Elo first."""
        s, elo = self._sides(), self.elo()
        rows = [self._row(s["agent"] == i, a, "ALL") | self._elo_columns(i) | dict(opponent_elo=float("nan"))
                for i, a in enumerate(self.names)]
        return [rows[k] for k in np.argsort(-elo, kind="stable")]

    def game_rows(self) -> list[dict]:
        names = self.names
        out = []
        for g in range(self.n_games):
            w = int(self.winner[g])
            winner = names[self.team_agent[g, w]] if w in TEAMS else ("draw" if self.draw[g] else "")
            out.append(dict(game=g, pair=int(self.pair[g]), deal=int(self.deal[g]), seed=int(self.game_seed[g]),
                            team_one=names[self.team_agent[g, 0]], team_two=names[self.team_agent[g, 1]],
                            first=names[self.team_agent[g, self.first[g]]], winner=winner,
                            score_one=int(self.score[g, 0]), score_two=int(self.score[g, 1]),
                            length=int(self.length[g]), truncated=int(self.truncated[g])))
        return out

    # --- output ----------------------------------------------------------------------------------------

    def to_markdown(self) -> str:
        out = [f"### {self.game} ({self.variant}) tournament: {len(self.names)} agents, {self.games_per_pair} "
               f"games per pair ({self.n_games} games), seed {self.seed}", "",
               f"Config: `{_config_text(self.config)}`. A draw or a truncated game counts half a win. Win "
               f"rates with 95% Wilson intervals; Elo anchored at {ANCHOR_RATING:.0f} on "
               f"{self.names[self.anchor]}, with 95% bootstrap intervals (games resampled within each pair). "
               f"{self.seconds:.1f} s.", "",
               "| rank | agent | Elo (95% CI) | games | W | L | D | T | win rate (95% CI) | points for / game | "
               "points against / game | length |",
               "|---:|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|"]
        for rank, r in enumerate(self.agent_rows(), 1):
            out.append(f"| {rank} | {r['agent']} | {r['elo']:.0f} ({r['elo_low']:.0f}-{r['elo_high']:.0f}) | "
                       f"{r['games']} | {r['wins']} | {r['losses']} | {r['draws']} | {r['truncations']} | {_rate(r)} | {r['points_for']:.2f} | "
                       f"{r['points_against']:.2f} | {r['length']:.1f} |")
        matrix = self.win_matrix()
        out += ["", "Win rate of the row agent against the column agent:", "",
                "| | " + " | ".join(self.names) + " |", "|---|" + "---:|" * len(self.names)]
        for i, a in enumerate(self.names):
            out.append(f"| **{a}** | " + " | ".join("-" if np.isnan(v) else f"{v:.3f}" for v in matrix[i]) + " |")
        out += ["", "| agent | opponent | games | W | L | D | T | win rate (95% CI) | points for / game | "
                "points against / game | length |", "|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|"]
        for r in self.pair_rows():
            out.append(f"| {r['agent']} | {r['opponent']} | {r['games']} | {r['wins']} | {r['losses']} | "
                       f"{r['draws']} | {r['truncations']} | {_rate(r)} | {r['points_for']:.2f} | "
                       f"{r['points_against']:.2f} | {r['length']:.1f} |")
        return "\n".join(out) + "\n"

    def to_csv(self, path=None, by: str = "pair") -> str:
        """Write (if ``path``) and return the CSV: ``by`` "pair" (results.csv), "agent" (standings.csv) or
        "game" (games.csv); see the module docstring for the columns."""
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
            writer.writerow({k: ("" if isinstance(r[k], float) and np.isnan(r[k]) else
                                 f"{r[k]:.6g}" if isinstance(r[k], float) else r[k]) for k in columns})
        text = buf.getvalue()
        if path is not None:
            Path(path).write_text(text)
        return text

    def save(self, directory) -> dict:
        """Write results.csv, standings.csv, games.csv and results.md into ``directory`` (created if
        needed). Returns {kind: path}."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        paths = {"pairs": directory / "results.csv", "standings": directory / "standings.csv",
                 "games": directory / "games.csv", "markdown": directory / "results.md"}
        self.to_csv(paths["pairs"], "pair")
        self.to_csv(paths["standings"], "agent")
        self.to_csv(paths["games"], "game")
        paths["markdown"].write_text(self.to_markdown())
        return paths


def _rate(r) -> str:
    return f"{r['win_rate']:.3f} ({r['win_low']:.3f}-{r['win_high']:.3f})"


def _config_text(config) -> str:
    fields = getattr(config, "__dataclass_fields__", None)
    if fields:
        return ", ".join(f"{k}={getattr(config, k)!r}" for k in fields)
    return repr(config)


# --------------------------------------------------------------------------------------------- running

def _named_agents(agents) -> tuple[list, list]:
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
            raise TypeError(f"agent {n!r} lacks act() / reset() (see gridiron_env.adapters.agents)")
    return names, objs


def _anchor(names, objs) -> int:
    for i, a in enumerate(objs):
        if isinstance(a, RandomGameAgent):
            return i
    return names.index("random") if "random" in names else 0


def run_game_tournament(agents, games_per_pair: int, game="table_football", variant: str = "basic", config=None,
                        seed: int = 0, batch_size: int = DEFAULT_BATCH_SIZE, progress=None,
                        pairs=None) -> GameTournamentResult:
    """A round robin of full games of ``game`` between ``agents`` (a dict name -> agent, or a list named by
    their ``name``, duplicates numbered); see the module docstring.

    ``games_per_pair`` (even): ``games_per_pair / 2`` deals per pair, each played from both sides.
    ``config``: the game's config or a dict of its fields (over ``variant``'s default). Games run in
    batches of at most ``batch_size`` (pairs mixed); the results do not depend on it. ``progress``:
    optional callable(games_done, games_total). ``pairs``: only these (i, j) index pairs play."""
    spec = get_game(game)
    config = spec.make_config(config, variant)
    names, objs = _named_agents(agents)
    if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) or batch_size < 1:
        raise ValueError(f"batch_size must be an int >= 1, got {batch_size!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be an int >= 0, got {seed!r}")
    pairs, pair, deal, game_seed, team_agent = schedule(len(objs), games_per_pair, int(seed), pairs)
    total = pair.size
    winner = np.full(total, -1, dtype=np.int64)
    draw = np.zeros(total, dtype=bool)
    truncated = np.zeros(total, dtype=bool)
    score = np.zeros((total, 2), dtype=np.int64)
    length = np.zeros(total, dtype=np.int64)
    first = np.zeros(total, dtype=np.int64)
    start = time.perf_counter()
    for lo in range(0, total, batch_size):
        chunk = slice(lo, min(lo + batch_size, total))
        out = _play_batch(spec, config, objs, names, team_agent[chunk], game_seed[chunk])
        winner[chunk], draw[chunk], truncated[chunk], score[chunk], length[chunk], first[chunk] = out
        if progress is not None:
            progress(chunk.stop, total)
    return GameTournamentResult(
        game=spec.name, variant=variant, config=config, names=names, pairs=pairs,
        games_per_pair=int(games_per_pair), seed=int(seed), pair=pair, deal=deal, game_seed=game_seed,
        team_agent=team_agent, winner=winner, draw=draw, truncated=truncated, score=score, length=length,
        first=first, anchor=_anchor(names, objs), seconds=time.perf_counter() - start)


def _play_batch(spec: GameSpec, config, agents, names, team_agent, seeds):
    """Play one batch of full games to the end: (winner, draw, truncated, score, length, first)."""
    n = seeds.size
    involved = np.unique(team_agent)
    done = set()
    for a in involved:  # each agent gets the per-game seeds of the whole batch (it acts only in its games)
        if id(agents[a]) not in done:
            agents[a].reset(seeds.astype(np.uint64))
            done.add(id(agents[a]))
    state = spec.init(n, 0, config, seeds=seeds.astype(np.uint64))
    first = spec.to_act(state).astype(np.int64).copy()
    length = np.zeros(n, dtype=np.int64)
    rows = np.arange(n)
    while True:
        to_act = spec.to_act(state)
        live = to_act >= 0
        if not live.any():
            break
        controller = np.where(live, team_agent[rows, np.clip(to_act, 0, 1)], -1)
        actions = np.full(n, spec.ignored_action, dtype=np.int64)
        legal = spec.legal_mask(state)
        for a in involved:
            games = np.flatnonzero(controller == a)
            if not games.size:
                continue
            out = np.asarray(agents[a].act(state, config, games=games))
            if out.shape != (n,) or out.dtype.kind not in "iu":
                raise ValueError(f"agent {names[a]!r} must return one int action per game of the batch ({n}), "
                                 f"got {out.dtype} {out.shape}")
            chosen = out[games].astype(np.int64)
            ok = (chosen >= 0) & (chosen < spec.num_actions)
            ok[ok] = legal[games[ok], chosen[ok]]
            if not ok.all():
                g = int(games[np.flatnonzero(~ok)[0]])
                shown = spec.action_names[out[g]] if 0 <= out[g] < spec.num_actions else int(out[g])
                raise ValueError(f"agent {names[a]!r} chose the illegal action {shown!r} in the {spec.name} game "
                                 f"seeded {int(seeds[g])} after {int(length[g])} decisions")
            actions[games] = chosen
        state = spec.step(state, actions, config)
        length += live
    winner = spec.winner(state).astype(np.int64)
    terminated = spec.terminated(state)
    draw = terminated & (winner == spec.draw_value)
    return (np.where(np.isin(winner, TEAMS), winner, -1), draw, spec.truncated(state) & ~terminated,
            spec.score(state).astype(np.int64), length, first)


# --------------------------------------------------------------------------------------------- CLI

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m train.game_tournament", description="Round-robin tournament of agents of any game.",
        epilog="Agent specs: random, bot:PATH[@TEMPERATURE], onnx:PATH, or the game's own agents (e.g. "
               "optimal, fixed for table_football); prefix NAME= to name one.")
    parser.add_argument("--game", default="table_football", help=f"the game (registered: {', '.join(game_names())})")
    parser.add_argument("--variant", default="basic", help="the game's variant (e.g. basic, clock)")
    parser.add_argument("--config", default=None, help="config fields as a JSON object, e.g. '{\"target_score\": 7}'")
    parser.add_argument("--agents", nargs="+", required=True, metavar="SPEC",
                        help="two or more agent specs (see below)")
    parser.add_argument("--games", type=int, default=100, help="games per pair (even; default 100)")
    parser.add_argument("--seed", type=int, default=0, help="engine seed of the first deal (default %(default)s)")
    parser.add_argument("--batch-size", type=int, default=DEFAULT_BATCH_SIZE,
                        help="games played at once; the results do not depend on it (default %(default)s)")
    parser.add_argument("--out", default=None, help="directory for results.csv, standings.csv, games.csv, results.md")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        spec = get_game(args.game)
        fields = None
        if args.config is not None:
            try:
                fields = json.loads(args.config)
            except json.JSONDecodeError as err:
                raise ValueError(f"--config must be a JSON object of config fields: {err}") from None
            if not isinstance(fields, dict):
                raise ValueError(f"--config must be a JSON object of config fields, got {args.config!r}")
        config = spec.make_config(fields, args.variant)
        agents = [make_agent(s, spec, config) for s in args.agents]
        names, _ = _named_agents(agents)

        def progress(done, total):
            if not args.quiet:
                print(f"{done}/{total} games", file=sys.stderr, flush=True)

        result = run_game_tournament(dict(zip(names, agents)), args.games, spec, args.variant, config,
                                     seed=args.seed, batch_size=args.batch_size, progress=progress)
    except KeyboardInterrupt:
        parser.exit(130, f"{parser.prog}: interrupted\n")
    # a bad spec, config or bot file (GameBotFileError is a ValueError naming the file), a missing
    # onnxruntime: one line and exit status 2, never a traceback
    except (ValueError, TypeError, ImportError, OSError) as err:
        parser.exit(2, f"{parser.prog}: error: {' '.join(str(err).split())}\n")
    print(result.to_markdown(), end="")
    if args.out:
        try:
            paths = result.save(args.out)
        except OSError as err:
            parser.exit(2, f"{parser.prog}: error: cannot write the results to {args.out}: {err}\n")
        print(f"\nWrote {', '.join(str(p) for p in paths.values())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
