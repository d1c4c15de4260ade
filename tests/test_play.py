"""The terminal game (``agents.play``): scripted input plays full games to the end, bad input is answered
and asked again, watching runs agent against agent, and nothing ends in a traceback."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest

from agents import play
from agents.bot import Bot
from agents.play import build_menu, main, parse_choice
from gridiron_env.config import GameConfig
from gridiron_env.core import NUM_ACTIONS, CounterChance, action_id, action_name, init, pass_price, step
from gridiron_env.core.actions import THROW_BASE
from gridiron_env.core.geometry import N_SLOTS
from gridiron_env.core.observe import FEATURE_LAYOUT, FEATURES_SIZE
from gridiron_env.core.state import PLAY

ROOT = Path(__file__).resolve().parent.parent
NUMBER = re.compile(r"\[(\d+)\]")


class Terminal:
    """Scripted input and captured output. ``script`` is answered first; then ``then`` ("random": a random
    number from the last menu shown, "first": always 1; None: end of input)."""

    def __init__(self, script=(), then="random", seed=0):
        self.script = list(script)
        self.then = then
        self.rng = random.Random(seed)
        self.out: list[str] = []
        self.prompts: list[str] = []
        self.menu_max = 0

    def print(self, *args, **_kwargs):
        text = " ".join(str(a) for a in args)
        self.out.append(text)
        if "Your options" in text:
            self.menu_max = 0
        for n in NUMBER.findall(text):
            self.menu_max = max(self.menu_max, int(n))

    def input(self, prompt=""):
        self.prompts.append(prompt)
        self.out.append(f"{prompt}<input>")
        if self.script:
            return self.script.pop(0)
        if self.then == "first":
            return "1"
        if self.then == "random":
            return str(self.rng.randint(1, max(self.menu_max, 1)))
        raise EOFError

    @property
    def text(self) -> str:
        return "\n".join(self.out)


def run(argv, terminal: Terminal, sleep=None) -> int:
    kwargs = {"input_fn": terminal.input, "print_fn": terminal.print}
    if sleep is not None:
        kwargs["sleep_fn"] = sleep
    return main(argv, **kwargs)


def tiny_bot_file(path: Path) -> Path:
    """A valid bot file with zero weights: uniform logits (temperature > 0 samples the legal actions)."""
    on_offence = FEATURE_LAYOUT["on_offence"][0].start
    layers = [(np.zeros((FEATURES_SIZE, 8), np.float32), np.zeros(8, np.float32)),
              (np.zeros((8, NUM_ACTIONS), np.float32), np.zeros(NUM_ACTIONS, np.float32))]
    Bot(layers, layers, "tanh", on_offence, FEATURES_SIZE, NUM_ACTIONS).save(path)
    return path


# ------------------------------------------------------------------------------------------ full games

BAD_INPUTS = ["", "xyz", "999", "0", "punt 5", "help", "board", "list", "move qb"]


def test_full_game_with_bad_inputs_against_random():
    t = Terminal(script=BAD_INPUTS, then="random", seed=1)
    rc = run(["--opponent", "random", "--target", "3", "--seed", "11", "--team", "one"], t)
    text = t.text
    assert rc == 0
    # every bad input got its answer, and the game asked again
    assert "Please answer with a number from 1 to 4" in text  # "" at the specials pick
    assert "unknown action 'xyz'" in text
    assert "999 is not on the list: choose a number from 1 to 4" in text
    assert "0 is not on the list" in text
    assert "'punt 5' is not legal now" in text
    assert "How to play" in text and "Directions are team one's own" in text
    assert "unknown action 'move qb'" in text
    assert len(t.prompts) > len(BAD_INPUTS) + 10
    assert t.prompts[0] == "team one> "
    # the board with the lane ruler, the grouped menu, and the game played to the end
    assert "score one 0 - 0 two" in text and "(lanes)" in text
    assert "special:  [1] lead_blocker  [2] ball_hawk  [3] sure_hands  [4] speedy_qb" in text
    assert re.search(r"move \w+ \(row \d+, lane \d+\):", text)
    assert "Final score: one" in text
    assert ("Winner: team" in text) or ("No winner" in text)
    final = re.search(r"Final score: one (\d+) - (\d+) two", text)
    if "Winner: team" in text:
        assert max(int(final.group(1)), int(final.group(2))) >= 3
        assert "You win!" in text or "You lose." in text
    assert "Traceback" not in text


def test_full_game_always_first_option_against_heuristic_as_team_two():
    t = Terminal(then="first")
    rc = run(["--opponent", "heuristic", "--team", "two", "--target", "3", "--seed", "4", "--no-specials"], t)
    assert rc == 0
    assert t.prompts and set(t.prompts) == {"team two> "}
    assert "you are team two (lower case) against heuristic" in t.text
    assert "Final score: one" in t.text
    assert re.search(r"Winner: team (one|two) \(", t.text) or "No winner" in t.text


def test_throws_are_offered_with_their_price():
    # Play (first options) until a menu lists a throw; its price must be pass_price's.
    t = Terminal(then="random", seed=3)
    run(["--opponent", "random", "--target", "3", "--seed", "2", "--no-specials"], t)
    throws = [line for line in t.text.splitlines() if re.match(r"\s*\[\d+\] throw \w+  \(", line)]
    assert throws, "no throw was ever offered in a whole game"
    assert all(re.search(r"\((handoff: 100%|lateral: (99|95)%|forward pass( \d+ v \d+: \d+\.\d%|, nobody within 3"
                         r": always caught))\)", line) for line in throws), throws[:5]


def test_watch_heuristic_against_random_to_the_end():
    t = Terminal(then=None)  # a watched game never reads input
    pauses = []
    rc = run(["--watch", "--opponent", "heuristic", "--player", "random", "--target", "3", "--seed", "5",
              "--delay", "0.01"], t, sleep=pauses.append)
    assert rc == 0
    assert t.prompts == []
    assert "random (team one, UPPER case) v heuristic (team two, lower case)" in t.text
    assert "team one (random):" in t.text and "team two (heuristic):" in t.text
    assert "Final score: one" in t.text
    assert re.search(r"Winner: team (one|two) \((heuristic|random)\)\.", t.text)
    assert pauses and set(pauses) == {0.01}
    assert "-> specials: team one" in t.text  # both picks revealed once made


def test_watch_bot_against_bot_to_the_end(tmp_path):
    path = tiny_bot_file(tmp_path / "tiny.npz")
    t = Terminal(then=None)
    rc = run(["--watch", "--opponent", f"bot:{path}", "--temperature", "1", "--target", "2", "--seed", "3",
              "--no-specials"], t)
    assert rc == 0
    assert "bot tiny.npz (team one, UPPER case) v bot tiny.npz (team two, lower case)" in t.text
    assert "Final score: one" in t.text
    assert re.search(r"Winner: team (one|two)|No winner", t.text)


@pytest.mark.skipif(not play.SHIPPED_BOT.is_file(), reason="no shipped bot file yet")
def test_watch_shipped_bot_against_heuristic():
    t = Terminal(then=None)
    rc = run(["--watch", "--opponent", "bot", "--player", "heuristic", "--target", "3", "--seed", "1"], t)
    assert rc == 0 and "Final score: one" in t.text


# ------------------------------------------------------------------------------------------ stopping

def test_quit_ends_the_game_politely():
    t = Terminal(script=["quit"], then=None)
    rc = run(["--opponent", "random", "--seed", "1"], t)
    assert rc == 0
    assert "You quit." in t.text
    assert "Score when the game stopped: one 0 - 0 two" in t.text


def test_end_of_input_ends_the_game_politely():
    t = Terminal(script=["4", "", "nonsense"], then=None)  # pick a special, two bad lines, then EOF
    rc = run(["--opponent", "heuristic", "--seed", "2"], t)
    assert rc == 0
    assert "End of input: the game stops here." in t.text
    assert "Score when the game stopped" in t.text


def test_keyboard_interrupt_ends_the_game_politely():
    def interrupt(_prompt=""):
        raise KeyboardInterrupt

    out = []
    assert main(["--opponent", "random", "--seed", "1"], input_fn=interrupt, print_fn=out.append) == 130
    assert "Interrupted: the game stops here." in out


def test_module_runs_with_closed_stdin_without_a_traceback():
    proc = subprocess.run([sys.executable, "-m", "agents.play", "--opponent", "random", "--seed", "1"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    assert "End of input" in proc.stdout


# ------------------------------------------------------------------------------------------ options

@pytest.mark.parametrize("argv, message", [
    (["--opponent", "nobody"], "unknown agent 'nobody'"),
    (["--opponent", "bot:/no/such/bot.npz"], "no bot file at /no/such/bot.npz"),
    (["--target", "0"], "target_score must be an int from 1 to 99"),
    (["--team", "three"], "invalid choice: 'three'"),
    (["--seed", "x"], "invalid int value: 'x'"),
    (["--seed", "-1"], "argument --seed: must be from 0 to 2**64 - 1"),
    (["--watch", "--delay", "-1"], "--delay must be a number of seconds >= 0"),
    (["--bogus"], "unrecognized arguments: --bogus"),
    (["--temperature", "-0.5"], "--temperature must be a number >= 0"),
])
def test_bad_options_get_a_clear_message(argv, message):
    t = Terminal(then=None)
    assert run(argv, t) == 2
    assert message in t.text
    assert t.prompts == []


def test_help_is_printed_through_print_fn():
    t = Terminal(then=None)
    assert run(["--help"], t) == 0
    assert "usage: gridiron-play" in t.text and "--opponent" in t.text and "--watch" in t.text


def test_corrupt_and_wrong_shaped_bot_files_are_refused(tmp_path):
    corrupt = tmp_path / "corrupt.npz"
    corrupt.write_bytes(b"not a zip file")
    t = Terminal(then=None)
    assert run(["--opponent", f"bot:{corrupt}"], t) == 2
    assert "not a readable .npz bot file" in t.text
    wrong = tmp_path / "wrong.npz"
    on = FEATURE_LAYOUT["on_offence"][0].start
    layers = [(np.zeros((FEATURES_SIZE + 1, 3), np.float32), np.zeros(3, np.float32))]
    Bot(layers, layers, "relu", on, FEATURES_SIZE + 1, 3).save(wrong)
    t = Terminal(then=None)
    assert run(["--opponent", f"bot:{wrong}"], t) == 2
    assert "expects" in t.text and "features" in t.text


def test_default_opponent_is_the_shipped_bot_else_the_heuristic(tmp_path, monkeypatch):
    monkeypatch.setattr(play, "SHIPPED_BOT", tmp_path / "missing.npz")
    t = Terminal(script=["quit"], then=None)
    assert run(["--seed", "1"], t) == 0
    assert "No shipped bot at" in t.text and "against heuristic" in t.text
    t = Terminal(script=["quit"], then=None)
    assert run(["--opponent", "bot", "--seed", "1"], t) == 2
    assert "no shipped bot at" in t.text

    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"garbage")
    monkeypatch.setattr(play, "SHIPPED_BOT", broken)
    t = Terminal(script=["quit"], then=None)
    assert run(["--seed", "1"], t) == 0
    assert "could not be loaded" in t.text and "against heuristic" in t.text

    monkeypatch.setattr(play, "SHIPPED_BOT", tiny_bot_file(tmp_path / "bot.npz"))
    t = Terminal(script=["quit"], then=None)
    assert run(["--seed", "1"], t) == 0
    assert "against bot;" in t.text
    t = Terminal(script=["quit"], then=None)
    assert run(["--opponent", "bot", "--temperature", "0.5", "--seed", "1"], t) == 0
    assert "against bot;" in t.text


def test_team_random_and_offence_up():
    seen = set()
    for seed in range(6):
        t = Terminal(script=["quit"], then=None)
        assert run(["--opponent", "random", "--team", "random", "--seed", str(seed)], t) == 0
        seen.add(re.search(r"you are team (one|two)", t.text).group(1))
    assert seen == {"one", "two"}
    # Team two on offence with --offence-up: the board is turned, lanes run 18..1, N is up.
    for seed in range(20):
        t = Terminal(script=["quit"], then=None)
        run(["--opponent", "random", "--team", "two", "--offence-up", "--no-specials", "--seed", str(seed)], t)
        if "offence_formation, team two to act" in t.text:
            assert "N is up the board (toward rows 28-30)" in t.text
            assert "   8 7 6 5 4 3 2 1 0 9 8 7 6 5 4 3 2 1" in t.text
            break
    else:
        pytest.fail("team two never opened in 20 seeds")


def test_the_opponents_special_stays_secret_until_the_human_picks():
    # Team one (the heuristic) picks first; the human (team two) must not learn its pick before choosing.
    t = Terminal(script=["1"], then=None)
    run(["--opponent", "heuristic", "--team", "two", "--seed", "1"], t)
    before = t.text.split("team two> <input>")[0]
    assert "team one (heuristic): picks its special (secret until both have picked)" in before
    assert "team one (heuristic): special " not in before
    assert "specials one - two -" in before  # the board does not show it either
    after = t.text.split("team two> <input>")[1]
    assert "-> specials: team one " in after


def test_console_script_is_declared():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["scripts"]["gridiron-play"] == "agents.play:main"


# ------------------------------------------------------------------------------------------ menu and parsing

def _play_state(seed=0):
    """A real position in the PLAY phase with a ball carrier (random legal actions from a new game)."""
    config = GameConfig(specials=False)
    rng = np.random.default_rng(seed)
    s = init(1, seed=seed, config=config)
    while not (s.phase[0] == PLAY and s.ball_holder[0] >= 0 and s.legal[0, THROW_BASE:THROW_BASE + N_SLOTS].any()):
        s = step(s, np.array([rng.choice(np.flatnonzero(s.legal[0]))]), config=config)
    return s, config


def test_menu_lists_every_legal_action_once_numbered_in_order():
    for seed in range(5):
        s, config = _play_state(seed)
        menu = build_menu(s, config)
        assert sorted(menu.ids) == sorted(np.flatnonzero(s.legal[0]).tolist())
        numbers = [int(n) for n in NUMBER.findall(menu.text())]
        assert numbers == list(range(1, len(menu) + 1))
        for line in menu.lines:
            m = re.match(r"\s*\[(\d+)\] throw (\w+)", line)
            if m:
                price = pass_price(s, m.group(2))
                assert action_name(menu.ids[int(m.group(1)) - 1]) == f"throw {m.group(2)}"
                if price.kind == "forward pass" and price.offence_dice:
                    assert f"forward pass {price.offence_dice} v {price.defence_dice}: " \
                           f"{float(price.chance):.1%}" in line


def test_parse_choice():
    s, config = _play_state(1)
    menu = build_menu(s, config)
    legal = s.legal[0]
    assert parse_choice("1", menu, legal) == (menu.ids[0], "")
    assert parse_choice(f"  {len(menu)} ", menu, legal) == (menu.ids[-1], "")
    some = menu.ids[len(menu) // 2]
    messy = "  " + "   ".join(action_name(some).swapcase().split()) + " "
    assert parse_choice(messy, menu, legal) == (some, "")
    assert parse_choice(action_name(some) + "  (copied from the menu)", menu, legal) == (some, "")
    end_turn = action_id("end turn")
    assert legal[end_turn]
    assert parse_choice("END TURN", menu, legal) == (end_turn, "")
    assert parse_choice("formation shotgun", menu, legal)[1].startswith("'formation shotgun' is not legal now")
    assert parse_choice("shotgun", menu, legal)[1] == ("'formation shotgun' is not legal now; choose one "
                                                        "from the list (type 'list' to see it).")
    assert "is not on the list" in parse_choice(str(len(menu) + 1), menu, legal)[1]
    assert "unknown action 'fly away'" in parse_choice("fly away", menu, legal)[1]
    assert parse_choice("   ", menu, legal)[0] is None
    # the last words alone name one legal action: "qb n" if QB may go north
    qb_n = action_id("move QB N")
    if legal[qb_n]:
        assert parse_choice("qb n", menu, legal) == (qb_n, "")
    ambiguous = parse_choice("n", menu, legal)
    if sum(legal[action_id(f"move {t} N")] for t in ("QB", "C", "LG", "RG", "LT", "RT", "X", "Y", "Z", "H", "F")) > 1:
        assert ambiguous[0] is None and "could be" in ambiguous[1]


def test_level_plays_the_temperature_the_bot_file_stores(tmp_path, monkeypatch):
    """--level picks the bot file's own temperature for that level (agents.bot.LEVELS for a file without
    levels); with neither --level nor --temperature the bot plays its own hard level."""
    import agents.play as play
    from agents.bot import LEVELS, Bot, BotAgent

    seen = []
    real = BotAgent.__init__

    def spy(self, bot, name="bot", temperature=0.0):
        seen.append(temperature)
        real(self, bot, name=name, temperature=temperature)

    monkeypatch.setattr(BotAgent, "__init__", spy)
    plain = tmp_path / "plain.npz"
    tiny_bot_file(plain)
    own = tmp_path / "own.npz"
    bot = Bot.load(plain)
    bot.set_levels([3.0, 1.25, 0.5], [0.2, 0.5, 0.8])
    bot.save(own)
    for path, level, expected in ((plain, "easy", LEVELS["easy"]), (own, "easy", 3.0), (own, "medium", 1.25),
                                  (own, None, 0.5)):
        seen.clear()
        args = ["--opponent", f"bot:{path}", "--seed", "1", "--target", "3"] + (["--level", level] if level else [])
        code = play.main(args, input_fn=lambda prompt="": "quit", print_fn=lambda *a: None)
        assert code == 0 and seen == [expected], (path.name, level, seen)
    seen.clear()
    assert play.main(["--opponent", f"bot:{own}", "--temperature", "0.7", "--seed", "1", "--target", "3"],
                     input_fn=lambda prompt="": "quit", print_fn=lambda *a: None) == 0
    assert seen == [0.7]


# ------------------------------------------------------------------------------------------ the terminal
# Real subprocesses (``python -m agents.play``) against the terminal's failure modes: each ends with one
# clear line where a stream exists to take it and an exit code, never a traceback.

QUICK = ["--opponent", "random", "--seed", "1", "--target", "3", "--no-specials"]
WATCH = ["--watch", "--opponent", "random", "--player", "random", "--seed", "2", "--target", "3"]


def shell(command: str, stdin=None, env=None, timeout=120) -> subprocess.CompletedProcess:
    """``python -m agents.play`` run by bash with ``command`` as its arguments and redirections."""
    import os
    import shlex

    full = f"set -o pipefail; {shlex.quote(sys.executable)} -m agents.play {command}"
    environment = dict(os.environ, **(env or {}))
    return subprocess.run(["bash", "-c", full], input=stdin, capture_output=True, cwd=ROOT, env=environment,
                          timeout=timeout)


def no_traceback(proc) -> str:
    err = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err and "Exception ignored" not in err, err
    return err


def test_stdin_closed_is_the_end_of_input():
    proc = shell(" ".join(QUICK) + " 0<&-")
    no_traceback(proc)
    assert proc.returncode == 0
    assert b"End of input: the game stops here." in proc.stdout


def test_watching_needs_no_stdin():
    proc = shell(" ".join(WATCH) + " 0<&-")
    no_traceback(proc)
    assert proc.returncode == 0 and b"Final score" in proc.stdout


@pytest.mark.parametrize("args", [QUICK, WATCH], ids=["play", "watch"])
def test_stdout_closed_is_one_line_on_stderr(args):
    proc = shell(" ".join(args) + " >&- </dev/null")
    err = no_traceback(proc)
    assert proc.returncode == play.EXIT_OUTPUT_ERROR == 74
    assert err.strip().splitlines() == ["gridiron-play: standard output is closed: there is nowhere to show the game"]


def test_a_broken_pipe_is_one_line_and_exit_141():
    proc = shell(" ".join(WATCH).replace("--target 3", "--target 21") + " | head -c 200 > /dev/null")
    err = no_traceback(proc)
    assert proc.returncode == play.EXIT_BROKEN_PIPE == 141
    assert err.strip().splitlines() == ["gridiron-play: the output pipe was closed: the game stops here"]


def test_a_full_disk_is_one_line():
    proc = shell(" ".join(WATCH) + " > /dev/full")
    err = no_traceback(proc)
    assert proc.returncode == play.EXIT_OUTPUT_ERROR
    assert len(err.strip().splitlines()) == 1 and "cannot write the game out" in err


@pytest.mark.parametrize("encoding", ["ascii:strict", "utf-8:strict", ":strict"])
def test_undecodable_input_under_a_strict_locale_is_answered(encoding):
    proc = shell(" ".join(QUICK), stdin=b"\xff\n\xfe\x801\nmove qb n\xff\n\xc3\n",
                 env={"LC_ALL": "C", "LANG": "C", "PYTHONIOENCODING": encoding})
    no_traceback(proc)
    assert proc.returncode == 0
    out = proc.stdout.decode("utf-8", "replace")
    assert out.count("unknown action") == 4  # each bad line answered, then asked again
    assert "End of input: the game stops here." in out


@pytest.mark.parametrize("answers", [0, 1, 5, 25])
def test_end_of_input_at_any_prompt(answers):
    proc = shell(" ".join(QUICK), stdin=b"1\n" * answers)
    no_traceback(proc)
    out = proc.stdout.decode()
    assert proc.returncode == 0
    assert out.count("team one> ") == answers + 1  # every answer taken, then the prompt that met the end
    assert "End of input: the game stops here." in out and "Game over early." in out


def _interrupt_when(args, ready: bytes) -> tuple[int, bytes, str]:
    """Start the game, wait until ``ready`` is shown, send SIGINT; (exit code, stdout, stderr)."""
    import os
    import signal
    import time

    proc = subprocess.Popen([sys.executable, "-m", "agents.play", *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    os.set_blocking(proc.stdout.fileno(), False)
    shown, deadline = b"", time.monotonic() + 60
    while ready not in shown and time.monotonic() < deadline and proc.poll() is None:
        shown += proc.stdout.read() or b""
        time.sleep(0.02)
    assert ready in shown, shown[-500:]
    proc.send_signal(signal.SIGINT)
    os.set_blocking(proc.stdout.fileno(), True)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, shown + out, err.decode()


def test_ctrl_c_at_a_prompt():
    code, out, err = _interrupt_when(QUICK, b"team one> ")
    assert "Traceback" not in err, err
    assert code == play.EXIT_INTERRUPTED == 130
    assert b"Interrupted: the game stops here." in out


def test_ctrl_c_while_watching():
    """The first action is shown (a piped stdout is flushed before each pause), then Ctrl-C in the pause."""
    code, out, err = _interrupt_when(WATCH + ["--delay", "30"], b"  team one (random): ")
    assert "Traceback" not in err, err
    assert code == 130 and b"Interrupted: the game stops here." in out
    assert out.count(b"  team ") == 1  # interrupted in the first pause


def test_errors_go_to_stderr_and_nothing_to_stdout(tmp_path):
    proc = shell("--seed -1 </dev/null")
    err = no_traceback(proc)
    assert proc.returncode == 2 and proc.stdout == b""
    assert err.startswith("usage: gridiron-play") and "gridiron-play: error: argument --seed" in err
    proc = shell(f"--opponent bot:{tmp_path}/missing.npz </dev/null")
    err = no_traceback(proc)
    assert proc.returncode == 2 and proc.stdout == b""
    assert err.strip().splitlines() == [f"gridiron-play: error: no bot file at {tmp_path}/missing.npz"]


# ------------------------------------------------------------------------------------------ seeds

@pytest.mark.parametrize("seed", [2**63 - 1, 2**63, 9223372036854775808 + 12345, 2**64 - 1])
def test_any_seed_up_to_2_64_minus_1_plays(tmp_path, seed):
    """Seeds past the int64 range play (the bot sampling from its per-game stream too), the same seed
    gives the same game, and it is a different game from seed 0's."""
    bot = str(tiny_bot_file(tmp_path / "b.npz"))
    args = ["--watch", "--opponent", f"bot:{bot}", "--player", "random", "--target", "1", "--temperature", "1"]
    runs = []
    for s in (seed, seed, 0):
        t = Terminal(then=None)
        assert run([*args, "--seed", str(s)], t) == 0, t.text[-500:]
        runs.append(t.text)
    assert f"seed {seed}." in runs[0]
    assert runs[0] == runs[1]
    assert runs[0].replace(f"seed {seed}.", "") != runs[2].replace("seed 0.", "")


@pytest.mark.parametrize("seed", ["-1", str(2**64), str(10**30), "-9223372036854775809"])
def test_seeds_outside_0_to_2_64_minus_1_get_an_argparse_error(seed):
    t = Terminal(then=None)
    assert run(["--seed", seed], t) == 2
    assert t.text.startswith("usage: gridiron-play")
    assert f"gridiron-play: error: argument --seed: must be from 0 to 2**64 - 1 = {2**64 - 1}, got {seed}" in t.text
    assert t.prompts == []


# ------------------------------------------------------------------------------------------ the 100 x 40 screen

class Screens(Terminal):
    """A Terminal that also cuts the output into screens: everything printed between two answers (the
    prompt that asks ends its screen)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.screens: list[list[str]] = [[]]

    def print(self, *args, **kwargs):
        super().print(*args, **kwargs)
        self.screens[-1].extend(" ".join(str(a) for a in args).split("\n"))

    def input(self, prompt=""):
        self.screens[-1].append(prompt)
        self.screens.append([])
        return super().input(prompt)


def assert_fits(screens):
    for k, screen in enumerate(screens):
        assert len(screen) <= play.SCREEN_ROWS == 40, (k, len(screen), "\n".join(screen))
        wide = [line for line in screen if len(line) > play.SCREEN_COLUMNS]
        assert not wide and play.SCREEN_COLUMNS == 100, (k, wide)


@pytest.mark.parametrize("argv, then, seed, expected", [
    (["--opponent", "random", "--target", "3", "--seed", "0", "--team", "one"], "random", 0,
     ["play on or kick", "] punt 1", "] field goal  (", "special:  [1]", "Your options 1/"]),
    (["--opponent", "random", "--target", "3", "--seed", "4", "--team", "two"], "random", 4,
     ["to act, fumble scramble", "fumble: ball hidden", "(tackle)"]),  # a blind scramble
    (["--opponent", "heuristic", "--target", "7", "--seed", "3", "--team", "two", "--no-specials"], "random", 1,
     []),
    (["--opponent", "heuristic", "--target", "3", "--seed", "5", "--team", "one"], "first", 0, []),
], ids=["kicks", "scramble", "heuristic-two", "first-options"])
def test_every_screen_of_a_game_fits_100_columns_by_40_rows(argv, then, seed, expected):
    t = Screens(then=then, seed=seed)
    assert run(argv, t) == 0
    assert "Final score: one" in t.text and len(t.screens) >= 10
    assert_fits(t.screens)
    asked = [s for s in t.screens if s and s[-1].endswith("> ")]
    assert all(any(line.startswith("score one ") for line in s) for s in asked)  # each turn shows the board
    for text in expected:
        assert text in t.text, text


def test_commands_and_bad_input_screens_fit_too():
    script = ["?", "board", "list", "log", "n", "n", "n", "p", "p", "p", "p", "x" * 300, "move qb", "999"]
    t = Screens(script=["4", "1", "1"] + script + script, then="random", seed=2)
    assert run(["--opponent", "heuristic", "--target", "3", "--seed", "2"], t) == 0
    assert_fits(t.screens)
    assert "How to play" in t.text and "There is no previous page" in t.text


def test_screens_through_real_stdin_fit():
    """The command itself, answers piped in: every screen (the output between two prompts) fits."""
    proc = shell("--opponent random --target 3 --seed 4 --team two", stdin=b"1\n" * 400)
    no_traceback(proc)
    assert proc.returncode == 0
    screens = [s.split("\n") for s in proc.stdout.decode().split("team two> ")]
    assert len(screens) > 50 and "Final score" in screens[-1][-3] + screens[-1][-2]
    assert_fits(screens)


def test_options_are_paged_with_n_and_p_and_numbers_are_those_of_the_whole_list():
    s, config = _play_state(3)
    menu = build_menu(s, config)
    for size in (2, 3, 7, 15, 40):
        pages = menu.pages(size)
        assert [line for page in pages for line in page] == menu.lines  # every line once, in order
        assert all(1 <= len(page) <= size for page in pages)
        for group in menu.groups:  # a group that fits on a page is never split
            if len(group) <= size:
                assert any(all(line in page for line in group) for page in pages)
    # in the game: answer "1" until the options take pages; then n to the last page (the numbers go on), p
    # back to the first, p once more (answered), then the last number of the last page, typed on page 1
    t = PagingTerminal()
    assert run(["--opponent", "random", "--no-specials", "--seed", "3", "--team", "one", "--target", "3"], t) == 0
    assert t.paged is not None, "no screen with paged options"
    k, n = t.paged, t.pages
    shown = [[int(x) for line in t.screens[k + i] for x in NUMBER.findall(line)] for i in range(n)]
    for i in range(n):
        assert any(f"Your options {i + 1}/{n}" in line for line in t.screens[k + i])
        if i:
            assert min(shown[i]) == max(shown[i - 1]) + 1  # page i + 1 goes on where page i stopped
    assert any(f"Your options 1/{n}" in line for line in t.screens[k + 2 * n - 2])  # back on page 1
    assert t.screens[k + 2 * n - 1][0].startswith("There is no previous page")
    answered = t.screens[k + 2 * n]  # the last page's last number, typed on page 1: taken
    assert answered[0].startswith("  team one (you): ") and "not on the list" not in "\n".join(answered)
    assert_fits(t.screens)


class PagingTerminal(Screens):
    """Answers 1 until a screen's options take pages, then turns them all (n ... p ... p) and answers the
    last number of the last page; then quits."""

    def __init__(self):
        super().__init__(then=None)
        self.paged = self.pages = None
        self.plan: list[str] = []

    def input(self, prompt=""):
        screen = self.screens[-1]
        m = re.search(r"Your options 1/(\d+)", "\n".join(screen))
        if self.paged is None and m:
            self.paged, self.pages = len(self.screens) - 1, int(m.group(1))
            self.plan = ["n"] * (self.pages - 1) + ["p"] * (self.pages - 1) + ["p", "last"]
        if self.plan:
            answer = self.plan.pop(0)
            if answer == "last":
                last_page = self.screens[self.paged + self.pages - 1]
                answer = str(max(int(x) for line in last_page for x in NUMBER.findall(line)))
            self.script = [answer]
        else:
            self.script = ["quit" if self.paged is not None else "1"]
        return super().input(prompt)


# ------------------------------------------------------------------------------------------ tackles

MARKED = re.compile(r"\[(\d+)\] (?:N|NE|E|SE|S|SW|W|NW) \(tackle\)")


class DrawLog(CounterChance):
    """The engine's own dice, noting which games of the batch draw the chance named ``what``."""

    def __init__(self, what: str):
        self.what, self.games = what, set()

    def draw(self, state, games, high, count, what=""):
        if what == self.what:
            self.games |= {int(g) for g in np.asarray(games).reshape(-1)}
        return super().draw(state, games, high, count, what)


def test_tackles_are_marked_exactly_when_the_engine_says_the_move_tackles():
    """Every legal move of many play positions is stepped (all at once, a batch of copies) with a chance
    source that notes the engine's draws: the engine tackles exactly when it draws its "tackle fumble"
    chance (rule 15: every tackle may fumble). The menu marks exactly those moves."""
    config = GameConfig()
    checked = tackles = 0
    for seed in range(2):
        rng = np.random.default_rng(seed)
        s = init(1, seed=seed, config=config)
        while not (s.terminated[0] or s.truncated[0]) and int(s.steps[0]) < 500:
            if s.phase[0] == PLAY:
                menu = build_menu(s, config)
                marked = {menu.ids[int(k) - 1] for line in menu.lines for k in MARKED.findall(line)}
                assert marked == set(play.tackle_moves(s).tolist())
                moves = np.array([a for a in np.flatnonzero(s.legal[0]) if action_name(a).startswith("move ")])
                if moves.size:
                    log = DrawLog("tackle fumble")
                    step(s.take(np.zeros(moves.size, dtype=np.int64)), moves, config=config, chance=log)
                    engine = {int(moves[g]) for g in log.games}
                    assert marked == engine, (seed, [action_name(a) for a in marked ^ engine])
                    checked += moves.size
                    tackles += len(engine)
            s = step(s, np.array([rng.choice(np.flatnonzero(s.legal[0]))]), config=config)
    assert checked > 20000 and tackles > 20, (checked, tackles)


# ------------------------------------------------------------------------------------------ the turned board

def _board_rows(screen):
    """The row numbers of a screen's board lines, top to bottom (a folded run counts its first row)."""
    rows = []
    for line in screen:
        m = re.match(r"^(\d\d| \d) [.:A-Za-z*]", line) or re.match(r"^   ~~ rows (\d+)-", line)
        if m:
            rows.append(int(m.group(1)))
    return rows


@pytest.mark.parametrize("extra, turned", [([], True), (["--no-turn"], False)])
def test_team_twos_board_is_turned_so_it_drives_up(extra, turned):
    """Playing team two, the board is turned (row 30 at the top, lane 18 on the left) on offence and on
    defence alike, unless --no-turn; team one's never is."""
    seen = set()
    t = Screens(then="first")
    run(["--opponent", "heuristic", "--team", "two", "--target", "3", "--seed", "6", "--no-specials", *extra], t)
    for screen in t.screens:
        rows = _board_rows(screen)
        if len(rows) < 3 or not screen[-1].startswith("team two"):
            continue
        offence = re.search(r"offence team (one|two)", "\n".join(screen)).group(1)
        seen.add(offence)
        assert rows == sorted(rows, reverse=turned), rows
        ruler = [line for line in screen if re.match(r"^   [ 0-9]+$", line)]
        assert ruler[0].startswith("   8 7 6 5" if turned else "   1 2 3 4")
    assert seen == {"one", "two"}
    hint = "N is up the board (toward rows 28-30)" if turned else "N is down the board (toward rows 28-30)"
    assert hint in t.text
    t = Screens(then="first")
    run(["--opponent", "heuristic", "--team", "one", "--target", "3", "--seed", "6", "--no-specials"], t)
    boards = [_board_rows(s) for s in t.screens if len(_board_rows(s)) >= 3]
    assert boards and all(rows == sorted(rows) for rows in boards)


def test_the_compact_board_shows_every_player_the_carrier_and_both_lines():
    for seed in range(6):
        s, _ = _play_state(seed)
        for turned in (False, True):
            lines = play.board_lines(s, turned, viewer=int(s.to_act[0]))
            board = [line for line in lines if re.match(r"^(\d\d| \d) ", line)]
            cells = "".join(line[3:39] for line in board)
            assert sum(ch.isalpha() for ch in cells) == int((s.player_square[0] >= 0).sum())
            assert cells.count("@") == 1
            los = [line for line in board if "< LOS" in line]
            gain = [line for line in board if "< gain" in line]
            assert len(los) == 1 and int(los[0][:2]) == int(s.los_row[0]) + 1
            assert len(gain) == 1 and int(gain[0][:2]) == int(s.line_to_gain[0]) + 1
            shown = {int(line[:2]) for line in board}
            folded = [tuple(map(int, m)) for line in lines for m in re.findall(r"~~ rows (\d+)-(\d+)", line)]
            for a, b in folded:  # folded rows are empty ones, never a shown row
                assert not shown & set(range(min(a, b), max(a, b) + 1))
                assert not (s.player_square[0] // 18 + 1 == np.arange(min(a, b), max(a, b) + 1)[:, None]).any()
            assert len(shown) + sum(abs(a - b) + 1 for a, b in folded) == 30


def test_the_hidden_ball_of_a_blind_scramble_is_shown_on_no_screen():
    t = Screens(then="random", seed=4)
    assert run(["--opponent", "random", "--target", "3", "--seed", "4", "--team", "two"], t) == 0
    hidden = [s for s in t.screens if any("fumble: ball hidden" in line for line in s)]
    assert hidden and any(s[-1] == "team two> " and any("fumble scramble" in line for line in s) for s in hidden)
    for screen in hidden:
        rows = [line for line in screen if re.match(r"^(\d\d| \d) [.:A-Za-z]", line)]
        assert rows and not any("*" in line[3:39] for line in rows)
        assert not re.search(r"ball lies loose at|\* ", "\n".join(line for line in screen if "->" in line))


def test_a_board_spread_over_every_row_still_fits_with_its_options():
    """The worst board: players on 22 rows, the LOS and the line to gain on others, every one of the 30
    rows shown; the screen (long plays above it, the options paged) still fits 100 x 40."""
    s, config = _play_state(2)
    s = s.copy()
    s.board[0] = -1
    lines_at = (int(s.los_row[0]), int(s.line_to_gain[0]))
    empty = []  # six empty rows, none beside another (a lone empty row is drawn, not folded)
    for r in range(0, 30, 2):
        if len(empty) < 8 - len(set(lines_at)) and r not in lines_at and not {r - 1, r + 1} & set(empty):
            empty.append(r)
    rows = [r for r in range(30) if r not in lines_at and r not in empty]
    assert len(rows) == 22
    for slot, row in enumerate(rows):  # each player on a row of his own, lane by slot
        square = row * 18 + slot % 18
        s.player_square[0, slot] = square
        s.board[0, square] = slot
    s.ball_square[0] = s.player_square[0, int(s.ball_holder[0])]
    s.overtime[0] = True
    lines = play.board_lines(s, False, viewer=0)
    assert len([line for line in lines if re.match(r"^(\d\d| \d) ", line)]) == 30
    args = play._parser().parse_args(["--team", "one"])
    t = Screens(script=["n", "n", "log", "quit"], then=None)
    game = play._Game(args, [None, None], ["you", "you"], int(s.to_act[0]), config, t.print, t.input,
                      lambda _: None, intro=[f"  line of play {k}" for k in range(30)])
    assert game.ask(s) is None
    assert_fits(t.screens)
    assert any("lines of play: type 'log'" in line for line in t.screens[0])
    assert any("Your options 1/" in line for line in t.screens[0])
