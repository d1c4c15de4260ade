"""Difficulty levels: measured for a bot, stored in its file, read back by the game and the evaluation."""

import numpy as np
import pytest

from agents.bot import LEVELS, Bot, BotAgent, BotFileError
from agents.heuristic import HeuristicAgent
from agents.play import SHIPPED_BOT
from gridiron_env.config import GameConfig


def test_a_bot_file_stores_its_levels_and_one_without_plays_the_defaults(tmp_path):
    shipped = Bot.load(SHIPPED_BOT)  # the shipped bot stores its own measured levels, hottest first
    temperatures = [shipped.levels[level] for level in LEVELS]
    assert temperatures == sorted(temperatures, reverse=True) and len(set(temperatures)) == 3
    bare = Bot(shipped.offence, shipped.defence, shipped.activation, shipped.on_offence_index,
               shipped.features_size, shipped.num_actions)
    bare.save(tmp_path / "bare.npz")
    assert Bot.load(tmp_path / "bare.npz").levels == LEVELS  # a file without levels plays the defaults
    bot = Bot.load(tmp_path / "bare.npz")
    bot.set_levels([4.0, 1.5, 0.2], [0.1, 0.4, 0.7])
    bot.save(tmp_path / "b.npz")
    again = Bot.load(tmp_path / "b.npz")
    assert again.levels == {"easy": 4.0, "medium": 1.5, "hard": pytest.approx(0.2)}
    assert np.allclose(again.metadata["level_win_rates"], [0.1, 0.4, 0.7])
    assert BotAgent.load(tmp_path / "b.npz", level="medium").temperature == 1.5
    with pytest.raises(ValueError, match="level"):
        BotAgent.load(tmp_path / "b.npz", level="expert")
    for bad in ([1.0, 2.0], [1.0, -1.0, 0.5], [1.0, 2.0, 101.0]):
        with pytest.raises(ValueError, match="temperatures"):
            bot.set_levels(bad)
    with pytest.raises(ValueError, match="win rates"):
        bot.set_levels([3.0, 2.0, 1.0], [0.1, 0.2, 1.5])


@pytest.mark.parametrize("key, value", [("level_temperatures", np.array([1.0, 2.0], np.float32)),
                                        ("level_temperatures", np.array([1.0, np.nan, 0.3], np.float32)),
                                        ("level_temperatures", np.array([1.0, 200.0, 0.3], np.float32)),
                                        ("level_temperatures", np.array(["a", "b", "c"])),
                                        ("level_win_rates", np.array([0.1, 0.5, 1.2], np.float32))])
def test_a_bot_file_with_bad_levels_is_refused_naming_the_field(tmp_path, key, value):
    bot = Bot.load(SHIPPED_BOT)
    bot.metadata[key] = value
    bot.save(tmp_path / "bad.npz")
    with pytest.raises(BotFileError, match=key) as err:
        Bot.load(tmp_path / "bad.npz")
    assert "bad.npz" in str(err.value)


def test_calibrated_levels_rise_strictly_from_easy_to_hard(tmp_path):
    """The shipped bot against the heuristic (8 games a temperature, first to 7): hard is its best low
    temperature, and medium and easy play clearly weaker, at higher temperatures; the file keeps them."""
    from train.levels import calibrate, store_levels

    config = GameConfig(target_score=7)
    temperatures, rates = calibrate(Bot.load(SHIPPED_BOT), games=8, seed=5, config=config,
                                    opponents={"heuristic": HeuristicAgent()}, log=lambda line: None)
    easy, medium, hard = temperatures
    assert easy > medium > hard and rates[0] < rates[1] < rates[2], (temperatures, rates)
    path = tmp_path / "bot.npz"
    path.write_bytes(SHIPPED_BOT.read_bytes())
    stored, stored_rates = store_levels(path, games=8, seed=5, config=config,
                                        opponents={"heuristic": HeuristicAgent()}, log=lambda line: None)
    assert stored == temperatures and stored_rates == rates  # the same deals: the same measurement
    assert Bot.load(path).levels == pytest.approx(dict(zip(LEVELS, temperatures)), abs=1e-6)


def test_levels_command_refuses_a_bad_file_and_odd_games(tmp_path, capsys):
    from train.levels import main

    bad = tmp_path / "x.npz"
    bad.write_bytes(b"junk")
    assert main([str(bad)]) == 2
    assert "x.npz" in capsys.readouterr().err
    assert main([str(SHIPPED_BOT), "--games", "3", "--dry-run"]) == 2
    assert "games" in capsys.readouterr().err
