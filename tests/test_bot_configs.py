"""benchmarks/bot_configs.py: the bot measured under every rule set a user can choose."""

import pytest
from conftest import benchmark_module

from gridiron_env.config import GameConfig


def _module():
    return benchmark_module("bot_configs")


def test_rule_sets_cover_specials_kicks_and_targets_default_first():
    configs = _module().rule_sets([21, 14])
    assert configs[0] == GameConfig()
    assert len(configs) == len(set(configs)) == 8
    assert {(c.specials, c.kick_mode, c.target_score) for c in configs} == {
        (s, k, t) for s in (True, False) for k in ("dice", "paper") for t in (14, 21)}


def test_a_bad_target_is_refused_naming_the_field():
    with pytest.raises(ValueError, match="target_score"):
        _module().rule_sets([0])


def test_the_table_has_a_row_per_rule_set_and_a_column_per_opponent(tmp_path, capsys):
    module = _module()
    table = module.main(["--games", "2", "--targets", "14", "--opponents", "heuristic", "--out", str(tmp_path)])
    lines = table.strip().splitlines()
    assert lines[0] == "| rules | random | heuristic |"
    assert [line.split(" | ")[0].lstrip("| ") for line in lines[2:]] == [
        module.label(c) for c in module.rule_sets([14])]
    assert (tmp_path / "table.md").read_text() == table


def test_an_odd_game_count_is_refused():
    with pytest.raises(SystemExit) as exit_info:
        _module().main(["--games", "3"])
    assert exit_info.value.code == 2


def test_against_plays_only_the_named_opponents_and_refuses_an_unknown_one(capsys):
    module = _module()
    table = module.main(["--games", "2", "--targets", "14", "--opponents", "heuristic", "--against", "heuristic"])
    assert table.strip().splitlines()[0] == "| rules | heuristic |"
    with pytest.raises(SystemExit) as exit_info:
        module.main(["--games", "2", "--against", "chess"])
    assert exit_info.value.code == 2 and "--against: chess not among the opponents" in capsys.readouterr().err
