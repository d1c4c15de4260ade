"""benchmarks/panel_table.py: the panel's table, and the bot against teams it never trained on."""

from pathlib import Path

import pytest
from conftest import benchmark_module

ROOT = Path(__file__).resolve().parent.parent


def _module():
    return benchmark_module("panel_table")


def test_a_team_plays_the_chosen_baselines_only(tmp_path):
    result = _module().main(["--agents", "power_run+blitz", "--only", "baselines", "--baselines", "random",
                             "--games", "2", "--out", str(tmp_path)])
    assert [(r["agent"], r["opponent"], r["games"]) for r in result["rows"]] == [("power_run+blitz", "random", 2)]
    assert "| power_run+blitz |" in (tmp_path / "table.md").read_text()


def test_teams_are_every_pair_of_two_different_styles(monkeypatch):
    module = _module()
    played = []
    monkeypatch.setattr(module, "play_pair", lambda a_name, a, b_name, b, *rest: played.append((a_name, a.name))
                        or {"agent": a_name, "opponent": b_name, "games": 2, "win_rate": 0.5, "win_low": 0.1,
                            "win_high": 0.9, "points_for": 0, "points_against": 0, "seconds": 0.0})
    module.main(["--teams", "--only", "baselines", "--baselines", "random", "--games", "2"])
    styles = sorted(module.PANEL)
    assert sorted(name for name, _ in played) == sorted(f"{o}+{d}" for o in styles for d in styles if o != d)
    assert all(name == agent_name for name, agent_name in played)  # each name plays as the team it names


@pytest.mark.parametrize("name", ["power_run+nobody", "nobody", "+blitz"])
def test_an_unknown_agent_or_team_is_refused_naming_it(name, capsys):
    with pytest.raises(SystemExit):
        _module().main(["--agents", name, "--only", "baselines", "--games", "2"])
    assert "--agents" in capsys.readouterr().err


def test_the_bot_plays_at_the_level_its_file_stores(tmp_path):
    from agents.bot import Bot

    bot = Bot.load(ROOT / "gridiron_env" / "data" / "bot.npz")
    bot.set_levels([2.9, 1.7, 0.77])  # easy, medium, hard: a hard level no default table holds
    bot.save(tmp_path / "bot.npz")
    assert _module().baseline("bot", tmp_path / "bot.npz").temperature == pytest.approx(0.77)  # stored as float32
