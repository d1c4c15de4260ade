"""agents.game_play: scripted games through stdin to the end, names and numbers, EOF and quit, bad options."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agents import game_play
from conftest import game_cases
from gridiron_env.adapters.agents import RandomGameAgent, make_agent
from gridiron_env.protocol import game_names, get_game

ROOT = Path(__file__).resolve().parents[1]


def _run(argv, answers):
    """main() with scripted input: (exit code, printed lines, error lines, answers used)."""
    printed, errors, used = [], [], []
    feed = iter(answers)

    def input_fn(prompt):
        try:
            text = next(feed)
        except StopIteration:
            raise EOFError from None
        used.append(text)
        return text

    code = game_play.main(argv, input_fn=input_fn, print_fn=lambda *a: printed.append(" ".join(map(str, a))),
                          error_fn=errors.append)
    return code, "\n".join(printed), errors, used


def _replay(name, variant, seed, human, answers, overrides=None):
    """The final score of the game that the human's answers (menu numbers) play against the random agent
    (``overrides``: config fields over the variant's)."""
    game = get_game(name)
    config = game.make_config(overrides, variant)
    seeds = np.array([seed], dtype=np.uint64)
    agent = RandomGameAgent(game)
    agent.reset(seeds)
    state = game.init(1, 0, config, seeds=seeds)
    feed = iter(answers)
    while int(game.to_act(state)[0]) >= 0:
        if int(game.to_act(state)[0]) == human:
            legal = np.flatnonzero(game.legal_mask(state)[0])
            k = int(next(feed))
            while not 1 <= k <= legal.size:  # the command answers it and asks again
                k = int(next(feed))
            action = int(legal[k - 1])
        else:
            action = int(agent.act(state, config, games=np.array([0]))[0])
        state = game.step(state, np.array([action]), config)
    return game.score(state)[0].tolist(), int(game.winner(state)[0])


@pytest.mark.parametrize("name,variant,config", game_cases())
def test_a_scripted_game_plays_to_the_end(name, variant, config):
    rng = np.random.default_rng(4)
    answers = [str(int(k)) for k in rng.integers(1, 3, 5000)]  # always 1 or 2: every menu has at least one
    short = ["--config", json.dumps(config)] if config else []
    for team, human in (("one", 0), ("two", 1)):
        code, out, errors, used = _run(["--game", name, "--variant", variant, "--seed", "21", "--team", team] + short,
                                       answers)
        assert code == 0 and not errors
        score, winner = _replay(name, variant, 21, human, used, config)
        assert f"Final score: one {score[0]} - {score[1]} two." in out
        if winner in (0, 1):
            assert ("You win!" if winner == human else "You lose.") in out
        assert "Traceback" not in out and f"You play team {team}" in out


def test_names_numbers_commands_and_eof():
    game = get_game("table_football")
    state = game.init(1, seeds=np.array([3], dtype=np.uint64))
    ids = [int(a) for a in np.flatnonzero(game.legal_mask(state)[0])]
    names = [game.action_names[a] for a in ids]
    lines = [f"  [{k}] {n}" for k, n in enumerate(names, 1)]
    assert game_play.menu_lines(game, game.legal_mask(state)[0]) == (ids, lines)
    assert game_play.parse_choice(game, "1", ids) == (ids[0], "")
    assert game_play.parse_choice(game, "  Run   PLAY ", ids)[0] == game.action_id("run play")
    assert game_play.parse_choice(game, "fie", ids)[0] == game.action_id("field goal")
    action, message = game_play.parse_choice(game, "punt", ids)
    assert action is None and "not legal now" in message
    assert "not on the list" in game_play.parse_choice(game, "0", ids)[1]
    assert "not a legal action" in game_play.parse_choice(game, "xyzzy", ids)[1]
    assert "Please answer" in game_play.parse_choice(game, "   ", ids)[1]
    # through the command: help, list, board, bad answers, then a name; end of input stops politely
    code, out, errors, used = _run(["--seed", "3"], ["?", "list", "board", "zz", "99", "\ufffd", "run play"])
    assert code == 0 and not errors and "How to play" in out and "End of input: the game stops here." in out
    assert "(you): run play" in out and "Game over early." in out
    code, out, _, _ = _run(["--seed", "3"], ["quit"])
    assert code == 0 and "You quit." in out


def test_watch_plays_both_seats_without_input():
    code, out, errors, used = _run(["--watch", "--player", "fixed", "--opponent", "random", "--seed", "8"], [])
    assert code == 0 and not used and not errors and "Final score" in out and "Winner: team" in out


@pytest.mark.parametrize("argv,message", [
    (["--game", "chess"], "game must be one of"),
    (["--variant", "turbo"], "variant must be one of"),
    (["--opponent", "nobody"], "unknown agent spec"),
    (["--opponent", "bot:/no/such/bot.npz"], "no bot file at /no/such/bot.npz"),
    (["--config", "{nope"], "--config must be a JSON object"),
    (["--config", '{"target_score": -1}'], "target_score"),
    (["--seed", "-1"], "--seed"),
    (["--seed", "x"], "--seed"),
    (["--team", "three"], "--team"),
    (["--player", "random"], "only with --watch"),
    (["--frobnicate"], "unrecognized"),
])
def test_bad_options_one_line_and_exit_2(argv, message):
    code, out, errors, used = _run(argv, ["1"] * 5)
    assert code == 2 and len(errors) == 1 and message in errors[0] and not used and "Traceback" not in errors[0]


def test_bad_bot_file_names_the_file(tmp_path):
    bad = tmp_path / "broken.npz"
    bad.write_bytes(b"PK\x03\x04 not really")
    code, _, errors, _ = _run(["--opponent", f"bot:{bad}"], [])
    assert code == 2 and len(errors) == 1 and "broken.npz" in errors[0]


def test_an_agent_that_breaks_the_rules_ends_the_game_with_status_1(monkeypatch):
    class Cheat(RandomGameAgent):
        def act(self, state, config=None, games=None):
            return np.full(1, 6, dtype=np.int64)  # "time out", never legal in the basic game

    real = make_agent
    monkeypatch.setattr("gridiron_env.adapters.agents.make_agent",
                        lambda spec, game, config=None: Cheat(game) if spec == "cheat" else real(spec, game, config))
    code, out, _, _ = _run(["--opponent", "cheat", "--team", "two", "--seed", "1"], ["1"] * 50)
    assert code == 1 and "chose an illegal action" in out and "The game cannot go on." in out


def test_the_real_terminal_through_stdin():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "agents.game_play", "--seed", "5", "--opponent", "random"],
                         input="1\n" * 3000, capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert run.returncode == 0 and "Final score" in run.stdout and run.stderr == ""
    run = subprocess.run([sys.executable, "-m", "agents.game_play", "--seed", "5"], input="", capture_output=True,
                         text=True, cwd=ROOT, env=env, timeout=120)
    assert run.returncode == 0 and "End of input" in run.stdout
    run = subprocess.run([sys.executable, "-m", "agents.game_play", "--opponent", "bogus"], input="",
                         capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and run.stdout == ""


def test_gridiron_play_hands_a_game_over():
    from agents import play

    printed, errors = [], []
    answers = iter(["quit"])
    code = play.main(["--game", "table_football", "--seed", "3"], input_fn=lambda prompt: next(answers),
                     print_fn=lambda *a: printed.append(" ".join(map(str, a))), error_fn=errors.append)
    assert code == 0 and not errors and "You quit." in printed
    assert printed[0].startswith("table_football (basic), seed 3")
    code = play.main(["--game=chess"], input_fn=lambda prompt: "", print_fn=printed.append, error_fn=errors.append)
    assert code == 2 and len(errors) == 1 and "chess" in errors[0]


def test_a_player_sees_only_what_the_game_lets_him_see():
    hiding = [n for n in game_names() if get_game(n).view is not None]
    if not hiding:
        pytest.skip("no registered game hides anything")
    for name in hiding:
        game = get_game(name)
        config = game.make_config(None)
        secrets_seen = hidden_pictures = 0
        for seed in range(4):
            code, out, _, _ = _run(["--game", name, "--team", "two", "--seed", str(seed)], ["quit"])
            assert code == 0
            said = [line for line in out.split("\n") if line.startswith("  team one (random): ")]
            # replay the opponent's turns before the human's first decision
            seeds = np.array([seed], dtype=np.uint64)
            agent = RandomGameAgent(game)
            agent.reset(seeds)
            state = game.init(1, 0, config, seeds=seeds)
            k = 0
            while int(game.to_act(state)[0]) == 0:
                action = int(agent.act(state, config, games=np.array([0]))[0])
                legal = np.flatnonzero(game.legal_mask(state)[0])
                others = legal[legal != action]
                tried = game.step(game.take(state, np.zeros(others.size + 1, dtype=np.int64)),
                                  np.concatenate([[action], others]), config)
                seen = game.observe(tried, 1, config)
                secret = bool(others.size) and bool((seen[1:] == seen[0]).all(axis=1).any())
                secrets_seen += secret
                want = "makes a choice you may not see yet" if secret else game.action_names[action]
                assert said[k] == f"  team one (random): {want}"
                state = game.step(state, np.array([action]), config)
                k += 1
            shown = game.render_ansi(game.view(state, 1), 0).rstrip("\n")
            full = game.render_ansi(state, 0).rstrip("\n")
            assert shown in out
            if full != shown:
                hidden_pictures += 1
                assert full not in out
        if name == "gridiron":  # team one picks its special first in some of these deals: kept secret
            assert secrets_seen >= 1 and hidden_pictures >= 1
