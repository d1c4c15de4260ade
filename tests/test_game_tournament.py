"""train.game_tournament: exact seat and toss balance, numbers that match a direct count, batch independence,
optimal beats random, files and the command line."""

import csv
import io

import numpy as np
import pytest

from conftest import game_cases
from gridiron_env.adapters.agents import RandomGameAgent, game_agent_classes, make_agent
from gridiron_env.protocol import get_game
from train import game_tournament as gt
from train.ratings import elo_ratings, wilson_interval

# games of hundreds of decisions (Gridiron; Touchdown even in its short config): fewer games a pair
LONG_GAMES = ("gridiron", "touchdown")


def _lone_game(game, config, agents, seed):
    """One game seeded ``seed`` with agents[t] on team t, played alone: (winner, score, length)."""
    seeds = np.array([seed], dtype=np.uint64)
    for a in agents:
        a.reset(seeds)
    state = game.init(1, 0, config, seeds=seeds)
    length = 0
    while int(game.to_act(state)[0]) >= 0:
        team = int(game.to_act(state)[0])
        action = int(np.asarray(agents[team].act(state, config, games=np.array([0])))[0])
        state = game.step(state, np.array([action]), config)
        length += 1
    return int(game.winner(state)[0]), game.score(state)[0].tolist(), length


def _agents(name):
    """Three agents of the game: two random (different names) and, when the game has one, its own first agent."""
    game = get_game(name)
    agents = {"random": RandomGameAgent(game), "random_b": RandomGameAgent(game)}
    own = sorted(k for k in game_agent_classes(game) if k not in ("random", "optimal"))
    if own:
        agents[own[0]] = make_agent(own[0], game)
    return agents


@pytest.mark.parametrize("name,variant,config", game_cases())
def test_balance_and_direct_count(name, variant, config):
    """A round robin of the game's agents under ``config`` (overrides of the variant's): seats and tosses
    balanced exactly, every game replayed alone to its recorded result, the tables a direct count."""
    game = get_game(name)
    per_pair = 2 if name in LONG_GAMES else 12
    result = gt.run_game_tournament(_agents(name), per_pair, game=name, variant=variant, config=config, seed=100,
                                    batch_size=17)
    config = result.config
    n_agents = len(result.names)
    assert result.n_games == per_pair * n_agents * (n_agents - 1) // 2
    s = result._sides()
    for row in result.pair_rows():  # every agent on each seat, and on each side of the toss, exactly half the time
        half = per_pair // 2
        assert row["games"] == per_pair and row["as_team_one"] == half and row["first"] == half
    for k in range(result.n_games // 2):  # the two games of a deal: one seed, seats swapped, the same toss
        a, b = 2 * k, 2 * k + 1
        assert result.game_seed[a] == result.game_seed[b]
        np.testing.assert_array_equal(result.team_agent[a], result.team_agent[b][::-1])
        assert result.first[a] == result.first[b]
    # every game replayed alone (fresh agents) gives the recorded result
    fresh = _agents(name)
    objs = list(fresh.values())
    for g in range(result.n_games):
        seated = [objs[i] for i in result.team_agent[g]]
        winner, score, length = _lone_game(game, config, seated, int(result.game_seed[g]))
        want = winner if winner in (0, 1) else -1
        assert (result.winner[g], result.score[g].tolist(), result.length[g]) == (want, score, length)
        assert result.draw[g] == (winner == game.draw_value)
    # the tables match a direct count over the games
    for row in result.pair_rows():
        i, j = result.names.index(row["agent"]), result.names.index(row["opponent"])
        mine = [(g, t) for g in range(result.n_games) for t in (0, 1)
                if result.team_agent[g, t] == i and result.team_agent[g, 1 - t] == j]
        wins = sum(result.winner[g] == t for g, t in mine)
        losses = sum(result.winner[g] == 1 - t for g, t in mine)
        halves = sum(bool(result.draw[g] or result.truncated[g]) for g, _ in mine)
        assert (row["wins"], row["losses"], row["draws"] + row["truncations"]) == (wins, losses, halves)
        assert row["win_rate"] == pytest.approx((wins + halves / 2) / len(mine))
        assert (row["win_low"], row["win_high"]) == pytest.approx(wilson_interval(wins + halves / 2, len(mine)))
        assert row["points_for"] == pytest.approx(np.mean([result.score[g, t] for g, t in mine]))
    score, games = result.score_matrix()
    np.testing.assert_allclose(result.elo(), elo_ratings(score, games, anchor=result.anchor))
    assert result.names[result.anchor] == "random" and result.elo()[result.anchor] == pytest.approx(1000)
    assert s["agent"].size == 2 * result.n_games


def test_results_do_not_depend_on_batch_size():
    runs = [gt.run_game_tournament(_agents("table_football"), 10, seed=3, batch_size=b) for b in (1, 7, 1024)]
    for r in runs[1:]:
        for key in ("winner", "score", "length", "first", "team_agent", "game_seed"):
            np.testing.assert_array_equal(getattr(r, key), getattr(runs[0], key))


def test_table_football_tosses_are_balanced_exactly():
    from gridiron_env.table_football import init

    result = gt.run_game_tournament(_agents("table_football"), 20, seed=11)
    opened = np.zeros(len(result.names), dtype=int)
    for g in range(result.n_games):
        opener = int(init(1, seeds=np.array([result.game_seed[g]], dtype=np.uint64)).opener[0])
        assert result.first[g] == opener  # the team that decides first is the toss winner
        opened[result.team_agent[g, opener]] += 1
    np.testing.assert_array_equal(opened, [20, 20, 20])  # each agent opens in half of its 40 games


def test_optimal_beats_random_clearly():
    result = gt.run_game_tournament({"random": RandomGameAgent("table_football"),
                                     "optimal": make_agent("optimal", "table_football")}, 200, seed=0)
    row = next(r for r in result.pair_rows() if r["agent"] == "optimal")
    assert row["win_rate"] > 0.95 and row["win_low"] > 0.9
    elo = dict(zip(result.names, result.elo()))
    assert elo["optimal"] - elo["random"] > 400


def test_files_and_markdown(tmp_path):
    result = gt.run_game_tournament(_agents("table_football"), 4, seed=1)
    paths = result.save(tmp_path / "out")
    pairs = list(csv.DictReader(io.StringIO(paths["pairs"].read_text())))
    assert tuple(pairs[0]) == gt.PAIR_COLUMNS and len(pairs) == 6
    standings = list(csv.DictReader(io.StringIO(paths["standings"].read_text())))
    assert [r["opponent"] for r in standings] == ["ALL"] * 3
    assert [float(r["elo"]) for r in standings] == sorted((float(r["elo"]) for r in standings), reverse=True)
    games = list(csv.DictReader(io.StringIO(paths["games"].read_text())))
    assert len(games) == result.n_games and tuple(games[0]) == gt.GAME_COLUMNS
    for g, row in enumerate(games):
        w = result.winner[g]
        assert row["winner"] == (result.names[result.team_agent[g, w]] if w >= 0 else
                                 "draw" if result.draw[g] else "")
        assert int(row["score_one"]) == result.score[g, 0]
    md = paths["markdown"].read_text()
    assert md.startswith("### table_football (basic) tournament: 3 agents")
    for name in result.names:
        assert f"| {name} |" in md


def test_bad_input():
    agents = _agents("table_football")
    for bad in (0, 3, -2, True):
        with pytest.raises(ValueError):
            gt.run_game_tournament(agents, bad)
    with pytest.raises(ValueError):
        gt.run_game_tournament(agents, 2, batch_size=0)
    with pytest.raises(ValueError):
        gt.run_game_tournament({"one": RandomGameAgent()}, 2)
    with pytest.raises(ValueError):
        gt.run_game_tournament(agents, 2, game="no_such_game")
    with pytest.raises(ValueError):
        gt.run_game_tournament(agents, 2, variant="no_such_variant")

    class Cheat(RandomGameAgent):
        name = "cheat"

        def act(self, state, config=None, games=None):
            return np.full(self.game.batch_size(state), 6, dtype=np.int64)  # "time out": never legal in the basic game

    with pytest.raises(ValueError, match="cheat.*illegal action 'time out'"):
        gt.run_game_tournament([RandomGameAgent(), Cheat()], 2)
    for spec in ("nope", "bot:", "random:3", "=random", "fixed:high", "fixed:2", "optimal:x", "", "bot:b.npz@-1"):
        with pytest.raises(ValueError):
            make_agent(spec, "table_football")
    assert make_agent("fixed:0.25", "table_football").kick_chance == 0.25
    assert make_agent("mine=Optimal", "table_football").name == "mine"


def test_command_line(tmp_path, capsys):
    code = gt.main(["--game", "table_football", "--agents", "random", "fixed", "b=random", "--games", "4",
                    "--quiet", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0 and "| **fixed(kick>=0.5)** |" in out and "| **b** |" in out
    assert (tmp_path / "results.csv").is_file() and (tmp_path / "results.md").is_file()
    code = gt.main(["--agents", "random", "fixed", "--games", "2", "--quiet", "--variant", "clock",
                    "--config", '{"target_score": 7}'])
    assert code == 0 and "target_score=7" in capsys.readouterr().out
    for argv in (["--agents", "random", "nope"], ["--agents", "random", "bot:/no/such/file.npz"],
                 ["--game", "chess", "--agents", "random", "random"], ["--agents", "random", "random", "--games", "3"],
                 ["--agents", "random", "fixed", "--config", "{bad json"],
                 ["--agents", "random", "fixed", "--config", '{"nope": 1}']):
        with pytest.raises(SystemExit) as stop:
            gt.main(argv + ["--quiet"])
        err = capsys.readouterr().err
        assert stop.value.code == 2 and err.count("\n") == 1 and "error:" in err and "Traceback" not in err


@pytest.mark.slow
def test_optimal_beats_random_on_the_clock():
    result = gt.run_game_tournament({"random": RandomGameAgent("table_football"),
                                     "optimal": make_agent("optimal", "table_football",
                                                           get_game("table_football").make_config(None, "clock"))},
                                    100, variant="clock", seed=0)
    row = next(r for r in result.pair_rows() if r["agent"] == "optimal")
    assert row["win_low"] > 0.9
