"""The small games' shared modules (gridiron_env.small_games, BatchState's mirror, the speed benchmark's
legal picker), checked on both games that use them."""

import sys
from pathlib import Path

import numpy as np
import pytest

from gridiron_env import sports_dice as sd
from gridiron_env import table_football as tf
from gridiron_env.small_games import diagram as D
from gridiron_env.small_games.config import ConfigRecord
from gridiron_env.small_games.engine import IllegalActionError, game_index, new_batch

GAMES = [(tf, tf.TableFootballConfig()), (tf, tf.TableFootballConfig(clock=True, recovery_option=True)),
         (sd, sd.SportsDiceConfig())]


def _play(mod, config, batch=16, steps=120, seed=3):
    """Random legal play; yields each state."""
    rng = np.random.default_rng(seed)
    s = mod.init(batch, seed, config)
    for _ in range(steps):
        yield s
        legal = mod.legal_action_mask(s)
        a = np.array([rng.choice(np.flatnonzero(r)) if r.any() else 0 for r in legal], dtype=np.int64)
        s = mod.step(s, a, config)


@pytest.mark.parametrize("mod,config", GAMES)
def test_illegal_action_names_game_action_and_legal_ones_and_changes_nothing(mod, config):
    for s in _play(mod, config, steps=30):
        live = np.flatnonzero(~s.is_over())
        if live.size == 0:
            continue
        g = int(live[-1])
        illegal = np.flatnonzero(~s.legal[g])
        actions = np.where(s.legal.any(axis=1), s.legal.argmax(axis=1), 0)
        actions[g] = illegal[0]
        before = s.copy()
        with pytest.raises(IllegalActionError) as err:
            mod.step(s, actions, config, reuse_input=True)
        assert err.value.game == g and err.value.action == illegal[0]
        assert list(err.value.legal_actions) == [mod.ACTION_NAMES[i] for i in np.flatnonzero(s.legal[g])]
        assert f"in game {g}" in str(err.value) and mod.to_diagram(s, g) in str(err.value)
        assert s.equals(before)


@pytest.mark.parametrize("mod,config", GAMES)
def test_mirror_twice_is_the_same_games_and_swaps_the_teams(mod, config):
    for s in _play(mod, config, steps=60):
        m = mod.mirror_state(s)
        assert mod.mirror_state(m).equals(s)
        assert np.array_equal(m.score, s.score[:, ::-1])
        swap = (s.offence == 0) | (s.offence == 1)
        assert np.array_equal(m.offence[swap], 1 - s.offence[swap])
        assert np.array_equal(m.winner[s.winner == -1], s.winner[s.winner == -1])  # none stays none
        assert np.array_equal(m.is_over(), s.terminated | s.truncated)


def test_new_batch_keys_games_by_seed_and_checks_its_arguments():
    a = new_batch(tf.State, 3, seed=10)
    b = new_batch(tf.State, None, seeds=np.array([10, 11, 12], dtype=np.uint64))
    assert np.array_equal(a.rng_key, b.rng_key)
    assert np.array_equal(new_batch(tf.State, 1, seed=12).rng_key, a.rng_key[2:])
    for bad in (0, -1, True, 2.0):
        with pytest.raises(ValueError, match="batch_size"):
            new_batch(tf.State, bad)
    with pytest.raises(ValueError, match="does not match"):
        new_batch(tf.State, 2, seeds=np.array([1, 2, 3], dtype=np.uint64))
    with pytest.raises(ValueError, match="outside 0..2"):
        game_index(a, 3)


def test_whole_numbers_of_a_diagram_are_ascii_digits_in_range():
    assert D.whole_number("ball", "35", 5, 95, 5) == 35
    assert D.whole_number("plays", "007", 0, 99) == 7
    assert D.whole_number("steps", "1000000000", 0, 10**9) == 10**9
    for text in ("", "-5", "3.0", "1e3", " 5", "\u0663", "\uff15", "5" * 12):  # Arabic-Indic, fullwidth
        with pytest.raises(ValueError, match="'ball'.*not a whole number"):
            D.whole_number("ball", text, 0, 95)
    with pytest.raises(ValueError, match="outside 5..95"):
        D.whole_number("ball", "100", 5, 95)
    with pytest.raises(ValueError, match="multiple of 5"):
        D.whole_number("ball", "33", 5, 95, 5)
    assert D.number_pair("score", "7-3", 0, 200) == [7, 3]
    with pytest.raises(ValueError, match="two numbers"):
        D.number_pair("score", "7-3-1", 0, 200)


@pytest.mark.parametrize("mod,config", GAMES)
def test_diagram_values_have_their_spaces_folded_and_lines_checked(mod, config):
    s = mod.init(1, 5, config)
    lines = mod.to_diagram(s, 0).splitlines()
    spaced = [lines[0]] + [f"  {k}:   {'   '.join(v.strip().split(' '))}  " for k, v in
                           (ln.split(":", 1) for ln in lines[1:])]
    assert mod.to_diagram(mod.from_diagram("\n\n".join(spaced), config), 0) == mod.to_diagram(s, 0)
    with pytest.raises(ValueError, match="must start with the line"):
        mod.from_diagram("\n".join(["x"] + lines[1:]), config)
    with pytest.raises(ValueError, match="expected the line 'to act' here"):
        mod.from_diagram("\n".join(lines[:2] + ["two act: one"] + lines[3:]), config)
    with pytest.raises(ValueError, match="lines after the title"):
        mod.from_diagram("\n".join(lines[:-1]), config)
    with pytest.raises(ValueError, match="'result'.*is not playing, one wins, two wins"):
        mod.from_diagram("\n".join(lines[:-1] + ["result: won"]), config)


def test_config_records_share_replace_and_dict_round_trip():
    for config in (tf.TableFootballConfig(clock=True), sd.SportsDiceConfig(target_score=14)):
        assert isinstance(config, ConfigRecord)
        assert type(config).from_dict(config.to_dict()) == config
        assert config.replace(target_score=9).target_score == 9
        with pytest.raises(ValueError, match=rf"unknown {type(config).__name__} field\(s\) \['zz', 1\]"):
            type(config).from_dict({"zz": 1, 1: 2})
        with pytest.raises(ValueError, match=rf"{type(config).__name__}.target_score must be an int from 1 to 99"):
            config.replace(target_score=100)


def test_speed_benchmark_picks_each_legal_action_uniformly():
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from small_game_speed import legal_picker

    rng = np.random.default_rng(0)
    for mod, rows in ((tf, None), (sd, sd.engine._LEGAL)):
        pick = legal_picker(mod.NUM_ACTIONS, rows)
        masks = np.unique(mod.engine._LEGAL, axis=0)
        masks = masks[masks.any(axis=1)]
        n = 20_000
        for mask in masks:
            picks = pick(np.repeat(mask[None], n, axis=0), rng.random(n))
            assert mask[picks].all()
            counts = np.bincount(picks, minlength=mod.NUM_ACTIONS)[mask]
            k = mask.sum()
            # each of k legal actions about n / k times: 5 standard deviations of a binomial count
            assert np.abs(counts - n / k).max() <= 5 * np.sqrt(n * (1 / k) * (1 - 1 / k)) + 1e-9
        assert (pick(np.zeros((3, mod.NUM_ACTIONS), dtype=bool), rng.random(3)) == 0).all()
