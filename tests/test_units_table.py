"""benchmarks/units_table.py: the bot next to a team of its offence with a style's defence (or the reverse)."""

import pytest
from conftest import benchmark_module, random_bot


def test_the_bot_and_the_team_of_units_each_play_every_opponent(tmp_path, capsys):
    random_bot((16,), seed=3).save(tmp_path / "bot.npz")
    result = benchmark_module("units_table").main(
        ["--bot", str(tmp_path / "bot.npz"), "--defence", "power_run", "--against", "blitz", "heuristic",
         "--games", "2"])
    assert result["label"] == "bot's offence, power_run's defence"
    assert [r["opponent"] for r in result["rows"]] == ["blitz", "heuristic"]
    assert all(r[k]["games"] == 2 for r in result["rows"] for k in ("bot", "team"))
    out = capsys.readouterr().out
    assert "| opponent | bot | bot's offence, power_run's defence |" in out and "| heuristic |" in out


@pytest.mark.parametrize("argv, words", [
    (["--against", "blitz"], "one of the arguments --defence --offence is required"),
    (["--defence", "chess"], "--defence must be"),
    (["--offence", "blitz", "--against", "blitz+chess"], "--against must be"),
    (["--defence", "blitz", "--games", "3"], "--games must be an even number"),
])
def test_bad_arguments_are_refused_naming_them(argv, words, capsys):
    with pytest.raises(SystemExit) as stop:
        benchmark_module("units_table").main(argv)
    assert stop.value.code == 2 and words in capsys.readouterr().err
