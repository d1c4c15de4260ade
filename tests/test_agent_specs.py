"""Gridiron's agents through the generic agent specs (gridiron_env.adapters.agents.make_agent, the specs of
train.game_tournament and agents.game_play): every name resolves to the agent train.tournament names the
same way, plays legal games through the generic tournament, and a bad name raises ValueError listing the
allowed ones."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from agents.bot import BotAgent, BotFileError
from agents.heuristic import HeuristicAgent
from agents.panel import PANEL
from agents.panel.composite import CompositeAgent
from agents.search import SearchAgent
from gridiron_env.adapters.agents import (
    SHIPPED_GRIDIRON_BOT, NetAgent, RandomGameAgent, agent_kinds, make_agent,
)
from gridiron_env.protocol import get_game
from train import game_tournament as gt
from train import tournament

GAME = get_game("gridiron")
SHORT = {"target_score": 1, "max_steps": 80}  # short games (truncated ones count half): legality is the point

# spec -> (class, name); every kind of Gridiron's table, with and without its argument
SPECS = {
    "random": (RandomGameAgent, "random"),
    "heuristic": (HeuristicAgent, "heuristic"),
    "heuristic:sure_hands": (HeuristicAgent, "heuristic:sure_hands"),
    "first": (tournament.FirstLegalAgent, "first"),
    "search:1": (SearchAgent, "search:1"),
    "search:1:bot": (SearchAgent, "search:1:bot"),
    "bot": (BotAgent, "bot"),
    f"bot:{SHIPPED_GRIDIRON_BOT}@0.5": (BotAgent, "bot:bot@0.5"),
    **{style: (cls, style) for style, cls in PANEL.items()},
    "spread_pass+power_run": (CompositeAgent, "spread_pass+power_run"),
    "blitz+prevent": (CompositeAgent, "blitz+prevent"),
}


@pytest.mark.parametrize("spec", list(SPECS))
def test_every_name_resolves(spec):
    cls, name = SPECS[spec]
    agent = make_agent(spec, "gridiron")
    assert type(agent) is cls and agent.name == name
    assert make_agent(f"mine={spec}", GAME).name == "mine"


def test_the_same_agents_as_train_tournament():
    # the names train.tournament knows give the same agent with the same settings
    for spec in ("heuristic", "heuristic:speedy_qb", "first", "search:3", "search:2:random",
                 f"bot:{SHIPPED_GRIDIRON_BOT}@0.25"):
        mine, theirs = make_agent(spec, GAME), tournament.make_agent(spec)
        assert type(mine) is type(theirs) and mine.name == theirs.name, spec
        for field in ("special", "rollouts", "rollout", "temperature"):
            assert getattr(mine, field, None) == getattr(theirs, field, None), (spec, field)
    assert make_agent("search", GAME).rollouts == tournament.make_agent("search").rollouts
    bot = make_agent("bot", GAME)
    assert bot.temperature == 0 and bot.bot.features_size == BotAgent.load(SHIPPED_GRIDIRON_BOT).bot.features_size
    team = make_agent("spread_pass+power_run", GAME)
    assert type(team.offence).name == "spread_pass" and type(team.defence).name == "power_run"


@pytest.mark.parametrize("spec", [s for s in SPECS if s != "random"])
def test_every_name_plays_legal_games_in_the_generic_tournament(spec):
    # against the random agent, one deal (both seats): the generic tournament raises on any illegal
    # action, so finished (or truncated) games are legal games
    agents = {"random": make_agent("random", GAME), spec: make_agent(spec, GAME)}
    result = gt.run_game_tournament(agents, 2, game="gridiron", config=SHORT, seed=7)
    assert result.n_games == 2 and ((result.winner >= 0) | result.truncated).all()
    assert (result.length > 0).all() and (result.length <= SHORT["max_steps"]).all()
    row = next(r for r in result.pair_rows() if r["agent"] == spec)
    assert row["games"] == 2 and row["as_team_one"] == 1


def test_a_game_bot_file_for_gridiron_plays_too(tmp_path):
    # a bot of the generic export (train.game_export, format game-bot-v1) for Gridiron: a NetAgent
    from train.game_export import export_npz

    rng = np.random.default_rng(0)
    layers = [(rng.normal(0, 0.1, (GAME.observation_size, 16)).astype(np.float32), np.zeros(16, np.float32)),
              (rng.normal(0, 0.1, (16, GAME.num_actions)).astype(np.float32), np.zeros(GAME.num_actions, np.float32))]
    path = tmp_path / "net.npz"
    export_npz({"layers": layers, "activation": "tanh"}, path, "gridiron")
    agent = make_agent(f"bot:{path}", GAME)
    assert isinstance(agent, NetAgent) and agent.name == "bot:net"
    result = gt.run_game_tournament({"net": agent, "heuristic": make_agent("heuristic", GAME)}, 2, game="gridiron",
                                    config=SHORT, seed=3)
    assert ((result.winner >= 0) | result.truncated).all()


def test_unknown_names_list_the_allowed_ones():
    for bad in ("nope", "panel", "random_b", "search_agent", "bot+power_run"):
        with pytest.raises(ValueError) as err:
            make_agent(bad, GAME)
        text = str(err.value)
        if "+" in bad:
            assert "style must be one of" in text and "power_run" in text
            continue
        assert f"unknown agent spec {bad!r} for gridiron" in text
        for kind in ("random", "heuristic[:SPECIAL]", "first", "search[:ROLLOUTS[:POLICY]]", "bot:PATH",
                     "onnx:PATH", "OFFENCE+DEFENCE", *PANEL):
            assert kind in text, kind
    assert set(PANEL) <= set(agent_kinds(GAME)) and "first" in agent_kinds("gridiron")


@pytest.mark.parametrize("bad,said", [
    ("power_run:2", "takes no argument"),
    ("random:1", "takes no argument"),
    ("spread_pass+power_run:1", "takes no argument"),
    ("heuristic:zzz", "special must be one of"),
    ("search:0", "search budget"),
    ("search:4:greedy", "rollout policy"),
    ("bot:", "needs a file"),
    ("bot:/no/such/bot.npz@0.5", "/no/such/bot.npz"),
    ("bot:x.npz@-1", "temperature"),
    ("onnx:", "needs a file"),
    ("=heuristic", "empty agent name"),
    ("", "non-empty"),
])
def test_bad_specs_are_refused(bad, said):
    with pytest.raises(ValueError, match=None) as err:
        make_agent(bad, GAME)
    assert said in str(err.value)


def test_a_bad_bot_file_names_the_file(tmp_path):
    path = tmp_path / "junk.npz"
    path.write_bytes(b"not a zip")
    with pytest.raises(BotFileError) as err:
        make_agent(f"bot:{path}", GAME)
    assert "junk.npz" in str(err.value)


def test_other_games_keep_their_own_kinds():
    kinds = agent_kinds("table_football")
    assert "optimal" in kinds and "power_run" not in kinds and "search[:ROLLOUTS[:POLICY]]" not in kinds
    with pytest.raises(ValueError, match="unknown agent spec 'heuristic' for table_football"):
        make_agent("heuristic", "table_football")


def test_no_import_cycle():
    # the adapter imports no Gridiron agent until a spec asks for one; importing it first, then the
    # agents (and the other way round) works in a fresh interpreter
    code = ("import sys, gridiron_env.adapters.agents as g; "
            "assert not any(m == 'agents' or m.startswith('agents.') for m in sys.modules), sorted(sys.modules); "
            "a = g.make_agent('search:1', 'gridiron'); import agents.search, train.game_tournament; "
            "print(type(a).__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "SearchAgent"


def test_the_generic_play_command_watches_gridiron_agents():
    from agents import game_play

    printed, errors = [], []
    code = game_play.main(["--game", "gridiron", "--config", '{"target_score": 1, "max_steps": 40}', "--watch",
                           "--player", "search:1", "--opponent", "spread_pass+power_run", "--seed", "4"],
                          input_fn=lambda prompt: "", print_fn=lambda *a: printed.append(" ".join(map(str, a))),
                          error_fn=errors.append)
    text = "\n".join(printed)
    assert code == 0 and not errors, errors
    assert "search:1" in text and "spread_pass+power_run" in text


def test_the_generic_tournament_command_takes_gridiron_names(capsys):
    code = gt.main(["--game", "gridiron", "--config", '{"target_score": 1, "max_steps": 60}', "--agents",
                    "heuristic", "team=spread_pass+power_run", "ball_control", "--games", "2", "--quiet"])
    out = capsys.readouterr().out
    assert code == 0 and all(name in out for name in ("heuristic", "team", "ball_control"))
    with pytest.raises(SystemExit) as stop:
        gt.main(["--game", "gridiron", "--agents", "heuristic", "zone_blitz", "--games", "2", "--quiet"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "zone_blitz" in err and "power_run" in err and "search[:ROLLOUTS[:POLICY]]" in err
