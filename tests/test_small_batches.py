"""Small batches (2 to engine.LONE_BATCH_LIMIT games) play exactly as their games would alone.

The small-batch path checks the whole batch once, then steps each game through lone.step_one in place on
its row of the batch (``game``) without checking again (``checked``), and observe reads each field once for
the whole batch (``observe._Columns``). Game i of a batch seeded s is the lone game seeded s + i: played
with the same actions, every field, every observation and every refusal must be the same, in place or
copying.
"""

import importlib

import numpy as np
import pytest

import gridiron_env as g
from gridiron_env.config import GameConfig
from gridiron_env.core import IllegalActionError, engine, observe
from gridiron_env.core.state import FIELDS, State

OBSERVE = importlib.import_module("gridiron_env.core.observe")  # (the package's name is the function)
CONFIGS = (GameConfig(), GameConfig(specials=False, kick_mode="paper", target_score=3, max_steps=120))


def _random_legal(rng, legal):
    """A uniformly random legal id per game (0 for a finished game, which ignores it)."""
    out = []
    for row in legal:
        ids = np.flatnonzero(row)
        out.append(int(ids[rng.integers(ids.size)]) if ids.size else 0)
    return np.array(out)


def _same_fields(batch, lone, game, where):
    for name in FIELDS:
        assert np.array_equal(getattr(batch, name)[game:game + 1], getattr(lone, name)), (name, game, where)


@pytest.mark.parametrize("size", [2, 3, 4, 8])
@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("reuse", [False, True])
def test_a_small_batch_plays_its_games_as_lone_games(size, config, reuse, monkeypatch):
    checked = []  # the games the small-batch path handed to lone.step_one as checked
    real = engine._lone.step_one

    def spy(*args):
        checked.append(len(args) > 5 and args[5])
        return real(*args)

    monkeypatch.setattr(engine._lone, "step_one", spy)
    seed = 40 + size
    rng = np.random.default_rng(seed)
    batch = g.init(size, seed=seed, config=config)
    lone = [g.init(1, seed=seed + i, config=config) for i in range(size)]
    finished = 0
    for step in range(150):
        actions = _random_legal(rng, batch.legal)
        before = batch.copy()
        after = g.step(batch, actions, config=config, reuse_input=reuse)
        if not reuse:  # the copying step leaves its input as it was
            assert after is not batch and batch.equals(before)
        batch = after
        for i in range(size):
            lone[i] = g.step(lone[i], actions[i:i + 1], config=config, reuse_input=reuse)
            _same_fields(batch, lone[i], i, step)
        done = np.flatnonzero(batch.terminated | batch.truncated)
        finished = max(finished, done.size)
        if done.size == size:
            break
    # the observations of the small batch are its games' own, from every side
    for team in (None, 0, 1, np.arange(size) % 2):
        whole = observe(batch, team, config)
        scalars = OBSERVE.observe_scalars(batch, team, config)
        for i in range(size):
            side = team[i] if isinstance(team, np.ndarray) else team
            assert np.array_equal(whole[i:i + 1], observe(lone[i], side, config))
            assert np.array_equal(scalars[i:i + 1], OBSERVE.observe_scalars(lone[i], side, config))
    assert batch.steps.max() > 20  # not vacuous: the games were played on, the batch's by the small path
    assert sum(checked) >= 20 * size


def test_games_that_wait_or_are_over_are_left_as_they_are():
    config = GameConfig()
    rng = np.random.default_rng(3)
    s = g.init(4, seed=3, config=config)
    for _ in range(30):
        s = g.step(s, _random_legal(rng, s.legal), config=config, reuse_input=True)
    engine.forfeit(s, [1], 0)  # game 1 is over
    before = s.copy()
    active = np.array([True, True, False, True])
    actions = _random_legal(rng, s.legal)
    actions[1], actions[2] = 10**6, -5  # ignored: game 1 is over, game 2 waits
    after = g.step(s, actions, config=config, active=active)
    for game in (1, 2):
        _same_fields(after, before.take([game]), game, "left alone")
    for game in (0, 3):
        one = g.step(before.take([game]), actions[game:game + 1], config=config)
        _same_fields(after, one, game, "stepped")


@pytest.mark.parametrize("reuse", [False, True])
def test_an_illegal_action_in_any_game_changes_no_game(reuse):
    config = GameConfig()
    rng = np.random.default_rng(8)
    s = g.init(5, seed=8, config=config)
    for _ in range(25):
        s = g.step(s, _random_legal(rng, s.legal), config=config, reuse_input=True)
    for bad_game in range(5):
        actions = _random_legal(rng, s.legal)
        actions[bad_game] = int(np.flatnonzero(~s.legal[bad_game])[0])
        before = s.copy()
        with pytest.raises(IllegalActionError, match=f"game {bad_game}"):
            g.step(s, actions, config=config, reuse_input=reuse)
        assert s.equals(before)


@pytest.mark.parametrize("size", [1, 2, 3, 8])
def test_the_small_batch_encoder_reads_as_the_batched_one(size, monkeypatch):
    config = GameConfig(kick_mode="paper", paper_answer_chance=0.6)
    rng = np.random.default_rng(size)
    s = g.init(size, seed=size, config=config)
    for _ in range(70):
        s = g.step(s, _random_legal(rng, s.legal), config=config)
    teams = (None, 0, 1, np.arange(size) % 2)
    small = [(observe(s, t, config), OBSERVE.observe_scalars(s, t, config)) for t in teams]
    monkeypatch.setattr(OBSERVE, "SMALL_BATCH_OBSERVE", 0)
    for (features, scalars), t in zip(small, teams):
        assert features.dtype == np.float32 and np.array_equal(features, observe(s, t, config))
        assert np.array_equal(scalars, OBSERVE.observe_scalars(s, t, config))


@pytest.mark.parametrize("contiguous", [True, False])
def test_the_lone_step_of_one_row_writes_that_row_alone(contiguous):
    """lone.step_one on game g of a batch (checked, in place) plays as the game's own batch of one, and every
    other row keeps every field, bit for bit; also on a batch whose fields are strided views."""
    config = GameConfig()
    rng = np.random.default_rng(11)
    size = 6
    s = g.init(size, seed=11, config=config)
    played = 0
    for step in range(120):
        if not contiguous:  # every field a strided view: every other row of a batch twice the size
            s = State(**{name: np.repeat(getattr(s, name), 2, axis=0)[::2] for name in FIELDS})
            assert not s.is_contiguous()
        actions = _random_legal(rng, s.legal)
        game = int(rng.integers(size))
        if s.terminated[game] or s.truncated[game]:
            continue
        before = s.copy()
        alone = g.step(before.take([game]), actions[game:game + 1], config=config)
        assert engine._lone.step_one(s, int(actions[game]), config, None, True, True, game) is s
        for name in FIELDS:
            here, was = getattr(s, name), getattr(before, name)
            assert np.array_equal(here[game:game + 1], getattr(alone, name)), (name, step)
            others = np.arange(size) != game
            assert np.array_equal(here[others], was[others]), (name, step)
        played += 1
    assert played > 60
