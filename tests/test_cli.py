"""The command lines a newcomer meets: every option of every command has a help text and ``--help`` runs;
a missing optional dependency is one line naming the extra to install; the ONNX export prints nothing.

The commands are found, not listed: every module of the packages and ``benchmarks/`` that runs as a script
(``if __name__ == "__main__"``), and every console script of ``pyproject.toml``. A module's parser is its
``build_parser()`` (or ``_parser()``); a module with neither has its parser caught as its ``main`` parses.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

from gridiron_env.extras import EXTRA_OF, MISSING_EXTRA_STATUS, MissingExtra, require

ROOT = Path(__file__).resolve().parents[1]
COMMAND_DIRS = ("train", "agents", "gridiron_env", "benchmarks")


def _command_modules() -> list[str]:
    found = []
    for folder in COMMAND_DIRS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.name != "__main__.py" and '__name__ == "__main__"' in path.read_text(encoding="utf-8"):
                found.append(".".join(path.relative_to(ROOT).with_suffix("").parts))
    return found


COMMANDS = _command_modules()
SCRIPTS = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]


def test_the_commands_are_found():
    # the ones a newcomer meets first must be among them (the search itself is what is tested)
    assert {"train.selfplay", "train.tournament", "train.evaluate", "agents.play", "gridiron_env.web.video",
            "gridiron_env.table_football.solve", "gridiron_env.sports_dice.solve",
            "benchmarks.engine_speed"} <= set(COMMANDS)
    assert set(SCRIPTS) >= {"gridiron-play", "gridiron-serve"}


class _Caught(Exception):
    pass


def _parser_of(module, monkeypatch) -> argparse.ArgumentParser:
    for name in ("build_parser", "_parser"):
        factory = getattr(module, name, None)
        if callable(factory):
            return factory()
    caught = []

    def catch(self, args=None, namespace=None):
        caught.append(self)
        raise _Caught

    with monkeypatch.context() as patch:
        patch.setattr(argparse.ArgumentParser, "parse_args", catch)
        patch.setattr(sys, "argv", [module.__name__])
        try:
            module.main(*([[]] if inspect.signature(module.main).parameters else []))
        except _Caught:
            pass
    assert caught, f"{module.__name__}.main() parsed no command line"
    return caught[-1]


def _actions(parser: argparse.ArgumentParser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _actions(sub)
        elif not isinstance(action, argparse._HelpAction) and "-h" not in action.option_strings:
            yield action


def _unhelped(parser) -> list[str]:
    return [("/".join(a.option_strings) or a.dest) for a in _actions(parser)
            if not (isinstance(a.help, str) and a.help.strip() and a.help != argparse.SUPPRESS)]


def test_a_missing_help_text_is_noticed(monkeypatch):
    parser = argparse.ArgumentParser()
    parser.add_argument("--kept", help="has one")
    parser.add_argument("--bare")
    parser.add_argument("spot", help=" ")
    assert _unhelped(parser) == ["--bare", "spot"]


@pytest.mark.parametrize("name", COMMANDS)
def test_every_option_has_a_help_text(name, monkeypatch):
    parser = _parser_of(importlib.import_module(name), monkeypatch)
    assert list(_actions(parser)), f"{name}: no options found"
    assert _unhelped(parser) == [], f"{name}: options without a help text"


def _run_help(main, monkeypatch, capsys) -> tuple[int, str]:
    monkeypatch.setattr(sys, "argv", ["prog", "--help"])
    try:
        code = main(*([["--help"]] if inspect.signature(main).parameters else []))
    except SystemExit as done:
        code = done.code
    return code or 0, capsys.readouterr().out


@pytest.mark.parametrize("name", COMMANDS)
def test_help_runs(name, monkeypatch, capsys):
    module = importlib.import_module(name)
    code, out = _run_help(module.main, monkeypatch, capsys)
    assert code == 0 and "usage:" in out.lower(), f"{name} --help"
    for action in _actions(_parser_of(module, monkeypatch)):
        for option in action.option_strings:
            assert option in out, f"{name} --help does not show {option}"


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_console_scripts_help(script, monkeypatch, capsys):
    module, _, function = SCRIPTS[script].partition(":")
    code, out = _run_help(getattr(importlib.import_module(module), function), monkeypatch, capsys)
    assert code == 0 and script in out


def test_python_dash_m_help_prints_nothing_else():
    done = subprocess.run([sys.executable, "-m", "train.selfplay", "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0 and "--minutes" in done.stdout
    assert done.stderr == ""


# --- a missing optional dependency ---------------------------------------------------------------------------

def _hide(monkeypatch, *modules):
    """Make ``import module`` fail as if it were not installed (its loaded submodules hidden too)."""
    for loaded in list(sys.modules):
        if loaded.split(".")[0] in modules:
            monkeypatch.delitem(sys.modules, loaded)
    for module in modules:
        monkeypatch.setitem(sys.modules, module, None)


def _one_line(err: str, extra: str) -> None:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert f"pip install 'gridiron_env[{extra}]'" in err, err


def test_require_names_the_extra(monkeypatch):
    _hide(monkeypatch, "matplotlib")
    with pytest.raises(MissingExtra) as info:
        require("matplotlib.figure", "the plot")
    assert str(info.value) == "the plot needs matplotlib, which is not installed: pip install 'gridiron_env[plot]'"
    assert isinstance(info.value, ImportError) and info.value.extra == "plot"
    assert require("json", "nothing").dumps([1]) == "[1]"
    for module, extra in EXTRA_OF.items():  # every extra named is one of pyproject's
        assert extra in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]


def _game_agents(tmp_path):
    return ["--agents", "first", "random", "--games", "2", "--target-score", "3", "--max-steps", "100", "--quiet",
            "--out", str(tmp_path / "t")]


def test_tournament_plot_backend_matplotlib_without_it(tmp_path, monkeypatch, capsys):
    from train.tournament import main

    _hide(monkeypatch, "matplotlib")
    with pytest.raises(SystemExit) as done:
        main(_game_agents(tmp_path) + ["--plot-backend", "matplotlib"])
    assert done.value.code == MISSING_EXTRA_STATUS
    captured = capsys.readouterr()
    _one_line(captured.err, "plot")
    assert captured.err.startswith("python -m train.tournament: error: --plot-backend matplotlib needs matplotlib")
    assert captured.out == "" and not (tmp_path / "t").exists()  # refused before any game


def test_tournament_auto_plot_without_matplotlib_writes_the_rest(tmp_path, monkeypatch, capsys):
    from train.tournament import main

    _hide(monkeypatch, "matplotlib")
    assert main(_game_agents(tmp_path)) == 0
    _one_line(capsys.readouterr().err, "plot")
    written = sorted(p.name for p in (tmp_path / "t").iterdir())
    assert written == ["games.csv", "results.csv", "results.md", "standings.csv"]


def test_onnx_agent_without_onnxruntime(tmp_path, monkeypatch, capsys):
    from train import game_tournament, tournament

    _hide(monkeypatch, "onnxruntime")
    for main, agents in ((tournament.main, ["random", f"onnx:{tmp_path / 'b.onnx'}"]),
                         (game_tournament.main, ["random", f"onnx:{tmp_path / 'b.onnx'}"])):
        with pytest.raises(SystemExit) as done:
            main(["--agents", *agents, "--games", "2", "--quiet"])
        assert done.value.code == 2
        _one_line(capsys.readouterr().err, "export")


def test_gridiron_serve_without_the_web_extra(monkeypatch, capsys):
    from gridiron_env import web

    _hide(monkeypatch, "uvicorn")
    assert web.main([]) == MISSING_EXTRA_STATUS
    err = capsys.readouterr().err
    _one_line(err, "web")
    assert err.startswith("gridiron-serve: error: gridiron-serve needs uvicorn")


def test_onnx_exports_without_the_export_extra(tmp_path, monkeypatch):
    from train import export, game_export

    _hide(monkeypatch, "onnxscript")
    with pytest.raises(MissingExtra, match=r"the ONNX export needs onnxscript.*gridiron_env\[export\]"):
        export.export_onnx(None, None, tmp_path / "bot.onnx")
    with pytest.raises(MissingExtra, match=r"gridiron_env\[export\]"):
        game_export.export_onnx({"layers": [], "activation": "tanh"}, tmp_path / "g.onnx", "table_football")
    assert not list(tmp_path.iterdir())


def test_video_without_moviepy(tmp_path, monkeypatch, capsys):
    from gridiron_env.config import GameConfig
    from gridiron_env.web import records, video

    path = records.save_record(records.make_record(GameConfig(), 3, []), tmp_path / "game.json")
    _hide(monkeypatch, "moviepy")
    assert video.main([str(path), str(tmp_path / "game.mp4")]) == 2
    _one_line(capsys.readouterr().err, "video")
    assert not (tmp_path / "game.mp4").exists()


def test_exploit_curve_without_matplotlib(tmp_path, monkeypatch):
    from train.exploit import plot_curve

    curve = [{"minutes": 0.0, "win_rate": 0.4, "win_low": 0.3, "win_high": 0.5}]
    assert plot_curve(curve, tmp_path / "with.png", "t") is True
    _hide(monkeypatch, "matplotlib")
    assert plot_curve(curve, tmp_path / "without.png", "t") is False
    assert not (tmp_path / "without.png").exists()


# --- the ONNX export is quiet ------------------------------------------------------------------------------

def _tiny_policy(features: int, actions: int):
    """An SB3-like actor (what ``train.export.actor_layers`` reads) with one hidden layer of 8."""
    from types import SimpleNamespace

    import torch

    net = torch.nn.Sequential(torch.nn.Linear(features, 8), torch.nn.Tanh())
    return SimpleNamespace(mlp_extractor=SimpleNamespace(policy_net=net), features_extractor=torch.nn.Flatten(),
                           action_net=torch.nn.Linear(8, actions))


CHATTER = ("[torch.onnx]", "torchvision", "LeafSpec", "axis name")
QUIET_EXPORT = textwrap.dedent("""
    import sys
    sys.path.insert(0, "tests")
    from test_cli import _tiny_policy
    from gridiron_env.core.actions import NUM_ACTIONS
    from gridiron_env.core.observe import FEATURES_SIZE
    from gridiron_env.protocol import get_game
    from train.export import OnnxBot, export_onnx
    from train.game_export import export_policy

    export_onnx(_tiny_policy(FEATURES_SIZE, NUM_ACTIONS), _tiny_policy(FEATURES_SIZE, NUM_ACTIONS), sys.argv[1] + "/bot.onnx")
    OnnxBot(sys.argv[1] + "/bot.onnx")
    game = get_game("table_football")
    export_policy(_tiny_policy(game.observation_size, game.num_actions), sys.argv[1] + "/game.npz", game,
                  onnx_path=sys.argv[1] + "/game.onnx")
""")


@pytest.mark.slow
def test_a_tiny_onnx_export_prints_nothing(tmp_path):
    """In a fresh process (the exporter says some things once per process): no output at all."""
    pytest.importorskip("onnxscript")
    pytest.importorskip("onnxruntime")
    done = subprocess.run([sys.executable, "-c", QUIET_EXPORT, str(tmp_path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "bot.onnx").stat().st_size > 0 and (tmp_path / "game.onnx").stat().st_size > 0
    for chatter in CHATTER + ("Warning",):
        assert chatter not in done.stdout + done.stderr
    assert done.stdout == "" and done.stderr == ""


def test_a_tiny_onnx_export_in_process_shows_no_chatter(tmp_path, capfd):
    pytest.importorskip("onnxscript")
    import warnings

    from gridiron_env.core.actions import NUM_ACTIONS
    from gridiron_env.core.observe import FEATURES_SIZE
    from train.export import export_onnx

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        export_onnx(_tiny_policy(FEATURES_SIZE, NUM_ACTIONS), _tiny_policy(FEATURES_SIZE, NUM_ACTIONS),
                    tmp_path / "bot.onnx")
    printed = "".join(capfd.readouterr())
    assert (tmp_path / "bot.onnx").stat().st_size > 0
    assert not [c for c in CHATTER if c in printed], printed
    shown = [w for w in seen if not issubclass(w.category, (DeprecationWarning, PendingDeprecationWarning))]
    assert not shown, [str(w.message) for w in shown]


def test_the_quiet_export_keeps_other_warnings():
    import warnings

    from train.export import quiet_onnx_export

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with quiet_onnx_export():
            warnings.warn("`isinstance(treespec, LeafSpec)` is deprecated, use ...", FutureWarning)
            warnings.warn("# The axis name: batch will not be used, since it shares the same shape", UserWarning)
            warnings.warn("something else", UserWarning)
        warnings.warn("# The axis name: batch will not be used, since it shares the same shape", UserWarning)
    assert [str(w.message)[:16] for w in seen] == ["something else", "# The axis name:"]  # only inside


# --- the main job's budget -----------------------------------------------------------------------------------

def test_the_league_stops_nearest_the_budget():
    from train.selfplay import _another_round

    assert _another_round(0, now=500.0, deadline=100.0, round_seconds=0.0)  # a first round always runs
    # 40 s left: a 60 s round ends 20 s past the deadline, nearer than stopping 40 s short of it
    assert _another_round(3, now=60.0, deadline=100.0, round_seconds=60.0)
    assert not _another_round(3, now=75.0, deadline=100.0, round_seconds=60.0)  # 25 s short beats 35 s over
    assert not _another_round(1, now=101.0, deadline=100.0, round_seconds=0.0)


def test_the_budget_bar_ticks_every_second_and_ends_at_the_seconds_taken(capsys):
    import time

    from train.selfplay import TrainConfig, _budget_bar

    started = time.perf_counter()
    with _budget_bar(TrainConfig(minutes=0.05), started) as bar:  # a budget of 3 s
        bar.set_description("league")
        time.sleep(4.5)
    shown = [line.strip() for line in capsys.readouterr().err.replace("\r", "\n").splitlines() if line.strip()]
    counts = [line.split("|")[-1].split()[0] for line in shown]
    ticks = [int(c.split("/")[0]) for c in counts[:-1]]
    assert len(set(ticks)) >= 3 and ticks == sorted(ticks)  # it moved on its own while the block ran
    taken = int(counts[-1].split("/")[0])
    assert taken >= 4 and counts[-1] == f"{taken}/{taken}"  # past the budget the count went on: the seconds taken
    assert shown[-1].startswith("league: 100%")


@pytest.mark.slow
def test_the_main_job_prints_no_third_party_chatter(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "train.selfplay", "--minutes", "0", "--out", str(tmp_path / "run"), "--num-envs", "8",
         "--imitation-games", "2", "--eval-games", "2", "--level-games", "0", "--round-steps", "64",
         "--n-steps", "8", "--threads", "1", "--league-games", "2", "--opponents", "heuristic",
         "--variants", "default"], cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr
    bar = [line for line in done.stderr.replace("\r", "\n").splitlines() if line.strip()]
    assert bar and all(line.startswith(("setup", "imitation", "league")) for line in bar), bar
    for chatter in CHATTER + ("Warning", "warn("):
        assert chatter not in done.stdout + done.stderr
    assert "trained " in done.stdout and "(budget 0 s): 1 league round(s)" in done.stdout
    assert (tmp_path / "run" / "bot.onnx").is_file()
