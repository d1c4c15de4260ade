"""The search baseline (agents.search.SearchAgent): legal whole games, determinism whatever the batch,
hidden information, strength against the heuristic, and its names in tournaments and the play command."""

from __future__ import annotations

import numpy as np
import pytest

from agents import HeuristicAgent, play_games
from agents.search import SearchAgent, make_search_agent, position_value
from gridiron_env import GameConfig, init, step
from gridiron_env.core import actions as A
from gridiron_env.core.scenario import position
from gridiron_env.core.state import DEFENCE_FORMATION, KICK_DECISION, OFFENCE_FORMATION, PLAY, SCRAMBLE, SPECIALS_PICK


def _played(result, config):
    over = result.winner >= 0
    assert (over | result.truncated).all()
    assert (result.steps <= config.max_steps).all()
    return over


@pytest.mark.parametrize("config", [
    pytest.param(GameConfig(target_score=2, max_steps=400), marks=pytest.mark.slow),
    GameConfig(target_score=7, max_steps=60),  # truncated mid-game
    pytest.param(GameConfig(target_score=1, specials=False, longest_punt=5, max_steps=300),
                 marks=pytest.mark.slow),
    pytest.param(GameConfig(target_score=1, kick_mode="paper", max_rolls_per_down=3, max_steps=300),
                 marks=pytest.mark.slow),
])
def test_plays_whole_games_legally(config):
    # the engine raises on any illegal action, so games played to the end are legal games (both seats)
    search = SearchAgent(rollouts=1)
    result = play_games(search, HeuristicAgent(), 2, seed=31, config=config)
    _played(result, config)
    assert search.searched > 0  # it did search (formations at least)


@pytest.mark.parametrize("rollout", ["bot", "random"])
def test_other_rollout_policies_play_legally(rollout):
    # the bot and random rollouts, truncated mid-game; the bot's own choice joins the play candidates
    config = GameConfig(target_score=7, max_steps=50)
    search = SearchAgent(rollouts=1, rollout=rollout)
    assert search.name == f"search:1:{rollout}"
    assert (search.bot is not None) == (rollout == "bot") and len(search.priors) == 5 + (rollout == "bot")
    result = play_games(search, HeuristicAgent(), 2, seed=33, config=config)
    _played(result, config)
    assert search.searched > 0


def test_search_sees_formations_and_plays():
    # the searched phases come up in a game, and each action it plays is legal (step would raise)
    config = GameConfig(target_score=7, max_steps=100)
    search = SearchAgent(rollouts=1)
    other = HeuristicAgent()
    seeds = np.arange(2) + 70
    search.reset(seeds)
    other.reset(seeds)
    s = init(seeds=seeds, config=config)
    seen = set()
    while not (s.terminated | s.truncated).all():
        live = ~(s.terminated | s.truncated)
        games = np.flatnonzero(live & (s.to_act == 0))
        rest = np.flatnonzero(live & (s.to_act == 1))
        actions = np.zeros(2, dtype=np.int64)
        if games.size:
            seen.update(int(p) for p in s.phase[games])
            actions[games] = search.act(s, config, games=games)[games]
        if rest.size:
            actions[rest] = other.act(s, config, games=rest)[rest]
        s = step(s, actions, config=config)
    assert {OFFENCE_FORMATION, DEFENCE_FORMATION, PLAY} <= seen


def test_same_games_whatever_the_batch():
    # game i of a batch seeded s plays exactly like the lone game seeded s + i (two runs: same seed, same
    # game, too)
    config = GameConfig(target_score=3, max_steps=45)
    batch = play_games(SearchAgent(rollouts=2), HeuristicAgent(), 3, seed=40, config=config)
    lone = play_games(SearchAgent(rollouts=2), HeuristicAgent(), 1, seed=42, config=config, a_team=[batch.a_team[2]])
    assert lone.score[0].tolist() == batch.score[2].tolist()
    assert lone.steps[0] == batch.steps[2] and lone.winner[0] == batch.winner[2]


def _positions(n_games=4, seed=21, config=None, want=(OFFENCE_FORMATION, DEFENCE_FORMATION, KICK_DECISION, PLAY)):
    """Positions of heuristic self-play at which the search agent searches: (state, game) pairs."""
    config = config or GameConfig(target_score=7, max_steps=400)
    agents = [HeuristicAgent(), HeuristicAgent()]
    for a in agents:
        a.reset(np.arange(n_games))
    s = init(n_games, seed=seed, config=config)
    found = {}
    while not (s.terminated | s.truncated).all() and len(found) < len(want):
        for g in range(n_games):
            ph = int(s.phase[g])
            if ph in want and ph not in found and not (s.terminated[g] | s.truncated[g]) and s.steps[g] > 20:
                found[ph] = s.take([g])
        actions = np.zeros(n_games, dtype=np.int64)
        for team in (0, 1):
            games = np.flatnonzero(s.to_act == team)
            if games.size:
                actions[games] = agents[team].act(s, config, games=games)[games]
        s = step(s, actions, config=config)
    return found


def test_decisions_ignore_the_real_dice():
    # The dice to come live in rng_key / rng_counter: the rollouts draw from their own streams, so
    # changing the real game's stream changes no decision.
    found = _positions()
    assert {OFFENCE_FORMATION, DEFENCE_FORMATION, PLAY} <= set(found)
    for ph, s in found.items():
        twin = s.copy()
        twin.rng_key[:] = ~twin.rng_key
        twin.rng_counter[:] += np.uint64(977)
        picks = []
        for state in (s, twin):
            agent = SearchAgent(rollouts=3)
            agent.reset(np.array([123]))
            picks.append(int(agent.act(state)[0]))
        assert picks[0] == picks[1], ph
        assert s.legal[0, picks[0]]


@pytest.mark.parametrize("rollout", ["heuristic", "bot"])
def test_decisions_do_not_depend_on_the_batch_or_the_chunking(monkeypatch, rollout):
    # one batch of the found positions, against each alone, and with the rollouts cut in chunks of 5
    import agents.search as search_module
    from gridiron_env.core.state import State

    found = _positions()
    states = list(found.values())
    batch = State.concatenate(states)
    seeds = np.arange(len(states)) + 50

    def decide(s, games_seeds):
        agent = SearchAgent(rollouts=3, rollout=rollout)
        agent.reset(games_seeds)
        return agent.act(s).tolist()

    together = decide(batch, seeds)
    alone = [decide(s, seeds[i:i + 1])[0] for i, s in enumerate(states)]
    assert together == alone
    monkeypatch.setattr(search_module, "MAX_ROLLOUT_BATCH", 5)
    assert decide(batch, seeds) == together


def test_formation_search_tries_every_legal_formation():
    found = _positions(want=(OFFENCE_FORMATION,))
    s = found[OFFENCE_FORMATION]
    agent = SearchAgent(rollouts=1)
    agent.reset(np.array([1]))
    view_prior = HeuristicAgent()
    view_prior.reset(np.array([1]))
    prior = view_prior.act(s)
    from agents.base import visible_view

    view = visible_view(s)
    cand = agent._candidates(s, GameConfig(), view, np.array([0]), prior, np.array([True]))
    legal = np.flatnonzero(s.legal[0])
    assert cand[0, 0] == prior[0]
    assert sorted(cand[0][cand[0] >= 0].tolist()) == legal.tolist()


def scramble_position(ball: str):
    # The moment after MLB tackled H at (12, 9) and the ball came loose (rule 27): the tackling side (two)
    # takes the first blind step; the ball is hidden on an empty square beside the pile.
    return position(f"""
        phase: scramble
        to act: two
        offence: one
        line of scrimmage: row 15 lane 9
        specials: speedy_qb speedy_qb
        scramble: step 0 resume two
        ball: loose {ball} hidden
        last holder: one
        board:
         11 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
         12 | .   .   .   .   .   .   .   .   H   .   .   .   .   .   .   .   .   .
         14 | .   .   .   .   .   .   C   .   .   .   LDE .   .   .   .   .   .   .
        """)


def test_ignores_the_hidden_ball_square():
    states = [scramble_position(ball) for ball in ("12,10", "13,9", "11,8", "13,8")]
    assert all(s.phase[0] == SCRAMBLE and s.ball_hidden[0] for s in states)
    picks = []
    for s in states:
        agent = SearchAgent(rollouts=2)
        agent.reset(np.array([3]))
        picks.append(int(agent.act(s)[0]))
        assert s.legal[0, picks[-1]]
    assert len(set(picks)) == 1


def test_ignores_the_other_teams_secret_special():
    s0 = init(1, seed=9)
    picks = []
    for first in range(4):
        s = step(s0, np.array([A.SPECIAL_BASE + first]))
        assert s.phase[0] == SPECIALS_PICK and s.to_act[0] == 1 and s.special[0, 0] == first
        agent = SearchAgent(rollouts=2)
        agent.reset(np.array([9]))
        picks.append(int(agent.act(s)[0]))
    assert len(set(picks)) == 1


def test_position_value():
    s = init(2, seed=0)
    s.score[:] = [[7, 3], [0, 0]]
    v = position_value(s, np.array([0, 1]))
    assert v[0] > 0  # four points up
    both = position_value(s, np.array([0, 0])) + position_value(s, np.array([1, 1]))
    assert np.allclose(both, 0)  # zero-sum
    s.terminated[0], s.winner[0] = True, 1
    assert position_value(s, np.array([1, 1]))[0] > 90 and position_value(s, np.array([0, 0]))[0] < -90


def test_bad_budgets_are_refused():
    for bad in (0, -1, True, 2.5, "8"):
        with pytest.raises(ValueError, match="rollouts"):
            SearchAgent(rollouts=bad)
    with pytest.raises(ValueError, match="downs"):
        SearchAgent(downs=0)
    for text in ("x", "0", "-3", "1.5"):
        with pytest.raises(ValueError, match="search budget"):
            make_search_agent(text)
    assert make_search_agent("").rollouts == 16 and make_search_agent("8").name == "search:8"
    with pytest.raises(ValueError, match="rollout must be one of"):
        SearchAgent(rollout="greedy")
    for text in ("4:greedy", "4:bot:1"):
        with pytest.raises(ValueError, match="rollout policy"):
            make_search_agent(text)
    agent = make_search_agent("4:BOT")
    assert agent.rollout == "bot" and agent.rollouts == 4 and agent.name == "search:4:bot"
    agent = make_search_agent(":random")
    assert agent.rollout == "random" and agent.rollouts == 16
    assert make_search_agent("3:heuristic").name == "search:3" == make_search_agent("3").name


def test_tournament_and_play_names():
    from agents import play
    from train.tournament import make_agent, run_tournament

    agent = make_agent("search:2")
    assert isinstance(agent, SearchAgent) and agent.name == "search:2" and agent.rollouts == 2
    assert make_agent("mc=search").name == "mc"
    with pytest.raises(ValueError, match="search budget"):
        make_agent("search:lots")
    result = run_tournament([agent, make_agent("heuristic")], 2, config=GameConfig(target_score=2, max_steps=40))
    assert result.names == ["search:2", "heuristic"] and result.winner.size == 2 and (result.steps <= 40).all()
    assert isinstance(play.make_agent("search:3"), SearchAgent)
    assert play.make_agent("Search").rollouts == 16
    with pytest.raises(play.AgentSpecError, match="search budget"):
        play.make_agent("search:0")


def test_play_command_watches_a_search_game():
    from agents.play import main

    out = []
    rc = main(["--watch", "--opponent", "search:1", "--player", "heuristic", "--target", "2", "--seed", "4",
               "--delay", "0"], print_fn=lambda *a, **k: out.append(" ".join(map(str, a))), sleep_fn=lambda _: None)
    assert rc == 0
    text = "\n".join(out)
    assert "search:1" in text and "Final score" in text


def _wins(result) -> float:
    return float(result.a_wins.sum()) + 0.5 * float(result.truncated.sum())


@pytest.mark.slow
def test_beats_the_heuristic_small():
    # The short version (~60 s on a loaded host): 4 games to 2 points (seats alternate), 2 rollouts a candidate.
    # Tolerance: with a true win rate of 0.75 (about what the README's table measures), 3 or more wins of 4
    # happen with chance 0.74; the seeds are fixed, so this is a regression check, not a coin flip.
    config = GameConfig(target_score=2, max_steps=400)
    result = play_games(SearchAgent(rollouts=2), HeuristicAgent(), 4, seed=100, config=config)
    assert _wins(result) >= 3, result.summary("search", "heuristic")


@pytest.mark.slow
def test_beats_the_heuristic():
    # 10 games to 3 points, seats alternating, 4 rollouts a candidate. Tolerance: with a true win rate of
    # 0.75, 6 or more wins of 10 happen with chance 0.92 (fixed seeds: a regression check).
    config = GameConfig(target_score=3, max_steps=600)
    result = play_games(SearchAgent(rollouts=4), HeuristicAgent(), 10, seed=100, config=config)
    assert _wins(result) >= 6, result.summary("search", "heuristic")


def test_the_benchmark_sums_chunks_of_a_pair():
    # benchmarks/search_table.py: chunks of one pair (distinct deals) add up; other pairs stay apart
    import hashlib
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "benchmarks" / "search_table.py"
    spec = importlib.util.spec_from_file_location("search_table", path)
    table = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(table)
    rows = [dict(agent="search:2", budget="2", opponent="heuristic", target_score=3, games=10, wins=7.0,
                 mean_margin=2.0, decisions=300, searched=200, act_seconds=10.0, seconds=12.0),
            dict(agent="search:2", budget="2", opponent="bot", target_score=3, games=10, wins=5.5,
                 mean_margin=-1.0, decisions=100, searched=50, act_seconds=5.0, seconds=6.0),
            dict(agent="search:2", budget="2", opponent="heuristic", target_score=3, games=30, wins=24.0,
                 mean_margin=4.0, decisions=900, searched=600, act_seconds=20.0, seconds=25.0)]
    heuristic, bot = table.combine(rows)
    assert (heuristic["games"], heuristic["wins"], heuristic["chunks"]) == (40, 31.0, 2)
    assert heuristic["win_rate"] == pytest.approx(31 / 40) and heuristic["mean_margin"] == pytest.approx(3.5)
    assert heuristic["decisions_per_second"] == pytest.approx(1200 / 30)
    assert heuristic["lo"] < 31 / 40 < heuristic["hi"] and (heuristic["lo"], heuristic["hi"]) == table.wilson(31, 40)
    assert bot["games"] == 10 and bot["win_rate"] == pytest.approx(0.55)
    assert "| search:2 | heuristic | 40 | 31 | 78% (" in table.to_markdown([heuristic, bot])
    # rows measured against different bot files stay apart, each named by its file's sha256 prefix
    other_bot = dict(rows[1], bot_sha256="0123456789ab")
    assert len(table.combine(rows + [other_bot])) == 3
    assert "| search:2 | bot (0123456789ab) | 10 | 5.5 | 55% (" in table.to_markdown(table.combine([other_bot]))
    assert table.bot_sha256(table.DEFAULT_BOT) == hashlib.sha256(table.DEFAULT_BOT.read_bytes()).hexdigest()[:12]
    for bad in (["--games", "10", "--chunk", "4"], ["--budgets", "x"], ["--opponents", "zone"]):
        with pytest.raises(SystemExit):
            table.main(bad)
