"""train.distill: one unit of a bot taught a teacher's moves (DAgger), the other kept; agents.base.TeamOfUnits,
the team of one agent's offence and another's defence; the command line."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from agents.base import TeamOfUnits  # noqa: E402
from agents.bot import LEVELS, Bot  # noqa: E402
from agents.random_agent import RandomAgent  # noqa: E402
from conftest import random_bot  # noqa: E402
from gridiron_env import GameConfig, init, step  # noqa: E402


class _Pick:
    """The first (or the last) legal action of every game asked: a unit whose moves can be told apart."""

    def __init__(self, last: bool):
        self.name = "last" if last else "first"
        self.last = last
        self.asked: list[np.ndarray] = []

    def reset(self, seeds):
        pass

    def act(self, state, config=None, games=None):
        legal = state.legal[:, ::-1] if self.last else state.legal
        pick = legal.argmax(axis=1)
        self.asked.append(np.asarray(games).copy())
        return (legal.shape[1] - 1 - pick) if self.last else pick


def test_team_of_units_plays_its_offence_where_it_had_the_ball_at_the_snap_and_its_defence_elsewhere():
    offence, defence = _Pick(last=False), _Pick(last=True)
    team = TeamOfUnits(offence, defence)
    assert team.name == "first offence, last defence"
    config = GameConfig(target_score=7, max_steps=300)
    state = init(6, seed=3, config=config)
    team.reset(np.arange(6))
    other = RandomAgent()
    other.reset(np.arange(6))
    seen = set()
    while not (state.terminated | state.truncated).all():
        live = ~(state.terminated | state.truncated) & (state.to_act >= 0)
        ours = np.flatnonzero(live & (state.to_act == 0))
        actions = np.asarray(other.act(state, config), dtype=np.int64)
        if ours.size:
            asked_before = len(offence.asked), len(defence.asked)
            played = team.act(state, config, games=ours)[ours]
            on_offence = state.offence[ours] == 0
            first, last = state.legal[ours].argmax(1), state.legal.shape[1] - 1 - state.legal[ours, ::-1].argmax(1)
            np.testing.assert_array_equal(played, np.where(on_offence, first, last))
            for unit, before, rows in ((offence, asked_before[0], ours[on_offence]),
                                       (defence, asked_before[1], ours[~on_offence])):
                # each unit is asked about its own games only, and not at all when it has none
                assert [list(g) for g in unit.asked[before:]] == ([list(rows)] if rows.size else [])
            seen.update(on_offence.tolist())
            actions[ours] = played
        state = step(state, actions, config=config)
    assert seen == {True, False}


def _small_config(**fields):
    from train.distill import DistillConfig

    return DistillConfig(**{"teacher": "power_run", "games": 16, "epochs": 8, "dagger_rounds": 1, "level_games": 0,
                            "threads": 1, **fields})


def test_distil_moves_the_unit_toward_its_teacher_and_keeps_the_other_unit_to_the_bit():
    """A random bot's defence fitted to the power wall's: its agreement with the wall on held-out moves rises
    far above a random net's (measured: 1% -> 25% after 16 games to 7 points and one DAgger round); the
    offence is the old one, array for array."""
    from train.distill import distil

    bot = random_bot((32,), seed=2)
    lines = []
    new, summary = distil(bot, _small_config(), GameConfig(target_score=7), log=lines.append)
    for (w, b), (w0, b0) in zip(new.offence, bot.offence):
        assert np.array_equal(w, w0) and np.array_equal(b, b0)
    assert not np.array_equal(new.defence[0][0], bot.defence[0][0])
    assert summary["agreement_after"] >= summary["agreement_before"] + 0.15, summary
    assert [fit["samples"] for fit in summary["fits"]] == sorted({fit["samples"] for fit in summary["fits"]})
    assert len(summary["fits"]) == 2 and all(0.0 <= fit["accuracy"] <= 1.0 for fit in summary["fits"])
    assert any(line.startswith("DAgger 1: the defence fitted to") for line in lines)
    assert new.levels == {name: pytest.approx(t) for name, t in LEVELS.items()}  # the old levels were the old net's


def test_distil_can_teach_the_offence_too():
    from train.distill import distil

    bot = random_bot((16,), seed=4)
    new, summary = distil(bot, _small_config(side="offence", teacher="spread_pass", dagger_rounds=0),
                          GameConfig(target_score=7), log=lambda line: None)
    assert all(np.array_equal(w, w0) for (w, _), (w0, _) in zip(new.defence, bot.defence))
    assert summary["agreement_after"] > summary["agreement_before"], summary


def test_a_back_carries_when_a_snap_offence_player_but_the_quarterback_holds_the_ball():
    from train.distill import a_back_carries

    state = init(5, seed=1)
    state.ball_holder[:] = np.array([-1, 0, 1, 10, 11], dtype=state.ball_holder.dtype)  # loose, QB, back, end, defender
    assert a_back_carries(state).tolist() == [False, False, True, True, False]


def test_recording_keeps_only_the_decisions_asked_for_and_the_games_are_the_same():
    """``keep`` filters what is recorded, never what is played: the kept samples are exactly the full
    recording's rows where the filter holds (it is asked about every decision, in order)."""
    from agents.panel import PowerRunAgent
    from train.distill import a_back_carries
    from train.learners import record_teacher_games

    config = GameConfig(target_score=7)
    seen = []

    def runs_seen(view):
        kept = a_back_carries(view)
        seen.append(kept)
        return kept

    opponents = [RandomAgent()]
    full = record_teacher_games(PowerRunAgent(), opponents, 4, 11, config)
    runs = record_teacher_games(PowerRunAgent(), opponents, 4, 11, config, keep=runs_seen)
    kept = np.concatenate(seen)
    assert kept.size == len(full[2]) and 0 < kept.sum() < kept.size  # every decision asked, some kept
    for part, whole in zip(runs, full):
        np.testing.assert_array_equal(part, whole[kept])
    nothing = record_teacher_games(PowerRunAgent(), opponents, 4, 11, config, keep=lambda view: np.zeros(
        view.batch_size, bool))
    assert [len(x) for x in nothing] == [0, 0, 0]


def test_distil_on_runs_alone_teaches_only_run_positions():
    """situations="runs": every sample and the held-out agreement come from positions where a back carries."""
    from train.distill import distil

    bot = random_bot((16,), seed=8)
    _, summary = distil(bot, _small_config(situations="runs"), GameConfig(target_score=7), log=lambda line: None)
    _, everything = distil(bot, _small_config(), GameConfig(target_score=7), log=lambda line: None)
    assert 0 < summary["fits"][0]["samples"] < everything["fits"][0]["samples"]
    assert summary["agreement_after"] > summary["agreement_before"], summary


@pytest.mark.parametrize("field, value, words", [
    ("situations", "passes", "DistillConfig.situations"),
    ("side", "kicker", "DistillConfig.side"), ("games", 1, "DistillConfig.games"),
    ("epochs", 0, "DistillConfig.epochs"), ("dagger_rounds", -1, "DistillConfig.dagger_rounds"),
    ("lr", 0.0, "DistillConfig.lr"), ("level_games", 3, "DistillConfig.level_games"),
    ("threads", 0, "DistillConfig.threads"), ("teacher", "chess", "DistillConfig.teacher"),
    ("teacher", "spread_pass+chess", "DistillConfig.teacher"),
])
def test_a_bad_setting_raises_naming_its_field(field, value, words):
    with pytest.raises(ValueError, match=words):
        _small_config(**{field: value})


def test_the_command_writes_the_taught_bot_and_refuses_bad_input_in_one_line(tmp_path, capsys):
    from train.distill import main

    path = tmp_path / "random.npz"
    random_bot((16,), seed=6).save(path)
    out = tmp_path / "taught" / "bot.npz"
    summary = main([str(path), "--out", str(out), "--games", "2", "--epochs", "1", "--dagger-rounds", "0",
                    "--level-games", "0", "--threads", "1"])
    taught = Bot.load(out)
    assert summary["teacher"] == "power_run" and summary["side"] == "defence"
    assert all(np.array_equal(w, w0) for (w, _), (w0, _) in zip(taught.offence, Bot.load(path).offence))
    assert f"written {out}" in capsys.readouterr().out

    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a bot")
    with pytest.raises(SystemExit) as stop:
        main([str(bad), "--out", str(tmp_path / "never.npz")])
    err = capsys.readouterr().err.strip().splitlines()
    assert stop.value.code == 1 and len(err) == 1 and err[0].startswith("python -m train.distill: bot file refused:")
    assert not (tmp_path / "never.npz").exists()
    for argv, words in (([str(path), "--out", str(tmp_path / "x.npz"), "--teacher", "chess"], "DistillConfig.teacher"),
                        ([str(path), "--out", str(tmp_path / "x.txt")], "--out must name a .npz file"),
                        ([str(path), "--out", str(tmp_path / "x.npz"), "--games", "0"], "DistillConfig.games")):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 2 and words in capsys.readouterr().err
