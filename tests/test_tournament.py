"""Tournaments (train/tournament.py): scheduling, balance, determinism, the tables' numbers, files, CLI."""

from __future__ import annotations

import csv
import struct

import numpy as np
import pytest

from agents import HeuristicAgent, RandomAgent, play_games
from agents.bot import Bot
from gridiron_env import GameConfig
from gridiron_env.core.actions import NUM_ACTIONS
from gridiron_env.core.observe import FEATURES_SIZE
from train.export import ON_OFFENCE_INDEX
from train.ratings import elo_ratings, wilson_interval
from train.tournament import FirstLegalAgent, TournamentResult, main, make_agent, run_tournament, schedule

SMALL = GameConfig(target_score=3, max_steps=300)  # short games; random play may still hit the cap
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def small() -> TournamentResult:
    agents = {"random": RandomAgent(), "first": FirstLegalAgent(), "random2": RandomAgent()}
    return run_tournament(agents, games_per_pair=6, config=SMALL, seed=11, batch_size=7)


def _png_size(path) -> tuple[int, int]:
    data = open(path, "rb").read()
    assert data[:8] == PNG_SIGNATURE
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def _tiny_bot(path, seed=0) -> None:
    rng = np.random.default_rng(seed)
    layers = lambda: [(rng.normal(0, 0.1, (FEATURES_SIZE, 8)).astype(np.float32), np.zeros(8, np.float32)),
                      (rng.normal(0, 0.1, (8, NUM_ACTIONS)).astype(np.float32), np.zeros(NUM_ACTIONS, np.float32))]
    Bot(layers(), layers(), "tanh", ON_OFFENCE_INDEX, FEATURES_SIZE, NUM_ACTIONS).save(path)


# ------------------------------------------------------------------------------------------- scheduling


def test_schedule_deals_are_played_from_both_sides():
    pairs, pair, deal, seeds, team_agent = schedule(3, 4, seed=5)
    assert pairs == [(0, 1), (0, 2), (1, 2)]
    assert pair.tolist() == [0] * 4 + [1] * 4 + [2] * 4
    assert deal.tolist() == [0, 0, 1, 1] * 3 and seeds.tolist() == [5, 5, 6, 6] * 3
    assert team_agent[:4].tolist() == [[0, 1], [1, 0], [0, 1], [1, 0]]
    assert team_agent[8:].tolist() == [[1, 2], [2, 1], [1, 2], [2, 1]]
    for bad in (0, 3, 2.0, True):
        with pytest.raises(ValueError):
            schedule(2, bad)


def test_every_game_counted_once_and_balanced(small):
    n_pairs, gpp = 3, 6
    assert small.n_games == n_pairs * gpp
    pair_rows, agent_rows = small.pair_rows(), small.agent_rows()
    assert len(pair_rows) == 2 * n_pairs  # both directions of every pair
    assert sum(r["games"] for r in pair_rows) == 2 * small.n_games
    assert sum(r["games"] for r in agent_rows) == 2 * small.n_games
    # every game is a win of one side and a loss of the other, or a truncation for both
    assert sum(r["wins"] for r in agent_rows) == sum(r["losses"] for r in agent_rows)
    decided = int((small.winner >= 0).sum())
    assert sum(r["wins"] for r in agent_rows) == decided
    assert sum(r["truncations"] for r in agent_rows) == 2 * int(small.truncated.sum())
    assert decided + int(small.truncated.sum()) == small.n_games
    for r in pair_rows:
        assert r["games"] == gpp
        assert r["wins"] + r["losses"] + r["truncations"] == r["games"]
        # balance: each agent plays each team, and opens (coin toss), in exactly half of a pair's games
        assert r["as_team_one"] == gpp // 2
        assert r["opened"] == gpp // 2
    # the two games of a deal share the engine seed, so the same team opens in both, with the agents swapped
    for g in range(0, small.n_games, 2):
        assert small.game_seed[g] == small.game_seed[g + 1]
        assert small.opener[g] == small.opener[g + 1]
        assert small.team_agent[g].tolist() == small.team_agent[g + 1][::-1].tolist()
    games_csv = list(csv.DictReader(small.to_csv(by="game").splitlines()))
    assert [int(r["game"]) for r in games_csv] == list(range(small.n_games))


def test_same_seed_same_table_whatever_batch_size(small):
    agents = {"random": RandomAgent(), "first": FirstLegalAgent(), "random2": RandomAgent()}
    for batch_size in (2, 5, 1000):
        again = run_tournament(agents, games_per_pair=6, config=SMALL, seed=11, batch_size=batch_size)
        for by in ("pair", "agent", "game"):
            assert again.to_csv(by=by) == small.to_csv(by=by), (batch_size, by)
    other = run_tournament(agents, games_per_pair=6, config=SMALL, seed=12, batch_size=1000)
    assert other.to_csv(by="game") != small.to_csv(by="game")


def test_a_game_plays_as_in_play_games(small):
    """Game (seed s, agent A on team t) is play_games(A, B, 1, seed=s, a_team=[t]): an independent runner."""
    first, rnd = FirstLegalAgent(), RandomAgent()
    deals = small.games_per_pair // 2
    games = np.flatnonzero(small.pair == 0)  # random (0) vs first (1)
    for a_team in (0, 1):  # first plays team a_team in games deal 0..deals-1, seeded 11 + k
        ref = play_games(first, rnd, deals, seed=11, config=SMALL, a_team=np.full(deals, a_team))
        mine = games[small.team_agent[games, a_team] == 1]
        assert small.game_seed[mine].tolist() == list(range(11, 11 + deals))
        assert small.winner[mine].tolist() == ref.winner.tolist()
        assert small.score[mine].tolist() == ref.score.tolist()
        assert small.steps[mine].tolist() == ref.steps.tolist()
        assert small.truncated[mine].tolist() == ref.truncated.tolist()


def test_table_numbers_are_consistent(small):
    rows = {(r["agent"], r["opponent"]): r for r in small.pair_rows()}
    for (a, b), r in rows.items():
        back = rows[(b, a)]
        assert r["games"] == back["games"]
        assert (r["wins"], r["losses"], r["truncations"]) == (back["losses"], back["wins"], back["truncations"])
        assert r["points_for"] == pytest.approx(back["points_against"])
        assert r["points_against"] == pytest.approx(back["points_for"])
        assert r["win_rate"] + back["win_rate"] == pytest.approx(1.0)
        assert r["win_rate"] == pytest.approx((r["wins"] + 0.5 * r["truncations"]) / r["games"])
        assert (r["win_low"], r["win_high"]) == pytest.approx(
            wilson_interval(r["wins"] + 0.5 * r["truncations"], r["games"]))
        assert r["length"] == back["length"]
    # recompute one direction by hand from the per-game record: first (agent 1) against random (agent 0)
    g = np.flatnonzero(small.pair == 0)
    team = np.where(small.team_agent[g, 0] == 1, 0, 1)
    pf = small.score[g, team]
    r = rows[("first", "random")]
    assert r["wins"] == int((small.winner[g] == team).sum())
    assert r["losses"] == int((small.winner[g] == 1 - team).sum())
    assert r["points_for"] == pytest.approx(pf.mean())
    assert r["points_per_drive"] == pytest.approx(pf.sum() / small.drives[g, team].sum())
    assert r["length"] == pytest.approx(small.steps[g].mean())
    # per-agent totals add up the agent's pair rows
    for t in small.agent_rows():
        mine = [r for (a, _), r in rows.items() if a == t["agent"]]
        for key in ("games", "wins", "losses", "truncations", "as_team_one", "opened"):
            assert t[key] == sum(r[key] for r in mine)
        assert t["points_for"] == pytest.approx(sum(r["points_for"] * r["games"] for r in mine) / t["games"])
    # Elo: elo_ratings over the score matrix, anchored on the random agent at 1000
    score, games = small.score_matrix()
    assert np.allclose(score + score.T, games)
    elo = small.elo()
    assert elo[0] == 1000.0 and small.names[small.anchor] == "random"
    assert np.allclose(elo, elo_ratings(score, games, anchor=0))
    assert {r["agent"]: r["elo"] for r in small.agent_rows()}["first"] == pytest.approx(elo[1])


def test_anchor_is_the_first_agent_without_a_random_one():
    result = run_tournament([FirstLegalAgent(), FirstLegalAgent()], 2, config=SMALL, seed=0)
    assert result.names == ["first", "first#2"]
    assert result.anchor == 0 and result.elo()[0] == 1000.0
    assert result.elo()[1] == pytest.approx(1000.0)  # a mirror match: two drawn deals


def test_heuristic_beats_random():
    result = run_tournament({"heuristic": HeuristicAgent(), "random": RandomAgent()}, 24, config=SMALL, seed=3)
    row = next(r for r in result.pair_rows() if r["agent"] == "heuristic")
    assert row["games"] == 24
    assert row["win_rate"] > 0.9
    assert row["points_for"] > row["points_against"]
    elo = dict(zip(result.names, result.elo()))
    assert elo["random"] == 1000.0 and elo["heuristic"] > 1300


# ------------------------------------------------------------------------------------------- output


def test_markdown_and_files(small, tmp_path):
    md = small.to_markdown()
    for name in small.names:
        assert f"| {name} |" in md
    assert "win rate (95% CI)" in md and "Elo" in md
    paths = small.save(tmp_path / "out", plot_backend="matplotlib")
    for kind in ("pairs", "standings", "games", "markdown", "plot"):
        assert paths[kind].is_file() and paths[kind].stat().st_size > 0
    assert paths["markdown"].read_text() == md
    pairs = list(csv.DictReader(open(paths["pairs"])))
    assert len(pairs) == 6 and set(pairs[0]) >= {"agent", "opponent", "win_rate", "win_low", "win_high", "elo"}
    standings = list(csv.DictReader(open(paths["standings"])))
    assert sorted(r["agent"] for r in standings) == sorted(small.names)
    assert all(r["opponent"] == "ALL" for r in standings)
    assert len(list(csv.DictReader(open(paths["games"])))) == small.n_games
    height, width, _ = small.plot_image().shape
    assert _png_size(paths["plot"]) == (width, height)
    assert width >= 200 and height >= 200
    assert "plot" not in small.save(tmp_path / "none", plot_backend="none")
    assert not (tmp_path / "none" / "results.png").exists()
    with pytest.raises(ValueError, match="plot_backend"):
        small.save(tmp_path / "bad", plot_backend="numpy")


def test_plot_image_is_drawn(small):
    img = small.plot_image()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert (img != 255).any(axis=2).mean() > 0.05  # cells, bars and text, not a blank page


def test_elo_intervals_in_the_tables(small):
    elo = small.elo()
    low, high = small.elo_interval()
    assert (low <= elo + 1e-6).all() and (elo <= high + 1e-6).all()
    assert low[small.anchor] == high[small.anchor] == 1000.0
    rows = {r["agent"]: r for r in small.agent_rows()}
    for i, name in enumerate(small.names):
        assert rows[name]["elo_low"] == low[i] and rows[name]["elo_high"] == high[i]
        assert f"{elo[i]:.0f} ({low[i]:.0f}-{high[i]:.0f})" in small.to_markdown()


# ------------------------------------------------------------------------------------------- agents, CLI


def test_agent_specs(tmp_path):
    assert make_agent("random").name == "random"
    assert make_agent("first").name == "first"
    assert make_agent("heuristic").name == "heuristic"
    assert make_agent("hh=heuristic:sure_hands").special == "sure_hands"
    _tiny_bot(tmp_path / "tiny.npz")
    bot = make_agent(f"bot:{tmp_path / 'tiny.npz'}@0.5")
    assert bot.name == "bot:tiny@0.5" and bot.temperature == 0.5
    assert make_agent(f"mine=bot:{tmp_path / 'tiny.npz'}").name == "mine"
    for bad in ("nobody", "bot:", "random:x", "=random"):
        with pytest.raises(ValueError):
            make_agent(bad)
    with pytest.raises(ValueError):
        make_agent(f"bot:{tmp_path / 'missing.npz'}")


def test_bad_tournaments():
    with pytest.raises(ValueError, match="at least 2"):
        run_tournament([RandomAgent()], 2)
    with pytest.raises(ValueError, match="even"):
        run_tournament([RandomAgent(), FirstLegalAgent()], 3)
    with pytest.raises(ValueError, match="batch_size"):
        run_tournament([RandomAgent(), FirstLegalAgent()], 2, batch_size=0)

    class Cheat(FirstLegalAgent):
        name = "cheat"

        def act(self, state, config=None, games=None):
            return np.argmin(state.legal, axis=1)  # an illegal action wherever one exists

    with pytest.raises(ValueError, match="'cheat' chose the illegal action"):
        run_tournament([RandomAgent(), Cheat()], 2, config=SMALL)


def test_cli_end_to_end(tmp_path, capsys):
    _tiny_bot(tmp_path / "tiny.npz")
    out = tmp_path / "run"
    code = main(["--agents", "first", f"tiny=bot:{tmp_path / 'tiny.npz'}@1.0", "--games", "2", "--seed", "4",
                 "--target-score", "3", "--max-steps", "200", "--out", str(out), "--quiet",
                 "--plot-backend", "matplotlib"])
    assert code == 0
    printed = capsys.readouterr().out
    assert "| first |" in printed and "| tiny |" in printed and "results.csv" in printed
    assert (out / "results.md").read_text() in printed
    assert len(list(csv.DictReader(open(out / "results.csv")))) == 2
    assert _png_size(out / "results.png")[0] > 0
    with pytest.raises(SystemExit) as err:
        main(["--agents", "random", "nonsense", "--games", "2"])
    assert err.value.code == 2
    assert "unknown agent spec" in capsys.readouterr().err
