"""The same games whatever the batch: a batch of up to engine.LONE_BATCH_LIMIT games steps game by game
through core/lone.py, a bigger one through the vectorised handlers, and observe encodes a small batch game
by game too; every way gives the same states, dice, rewards and observations, and refuses an illegal
action the same way, changing nothing.

Game i of a batch seeded s plays like a lone game seeded s + i, so 97 games are played together (the
vectorised path) and, with the same actions, as consecutive chunks of 1, 2, 3, 4, 8 and 16 games (the
small-batch path; the last chunk of 3 is a lone game), compared field by field after every step.
"""

import importlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gridiron_env as g
from gridiron_env.config import GameConfig
from gridiron_env.core import IllegalActionError, engine, observe
from gridiron_env.core import actions as A
from gridiron_env.core.chance import ScriptedChance
from gridiron_env.core.state import FIELDS, GAME_OVER, PLAY, SCRAMBLE, State

GAMES = 97
CHUNKS = (1, 2, 3, 4, 8, 16)
OBSERVE_MODULE = importlib.import_module("gridiron_env.core.observe")  # (the package's name is the function)
observe_scalars = OBSERVE_MODULE.observe_scalars
CONFIGS = (GameConfig(), GameConfig(specials=False, kick_mode="paper", max_rolls_per_down=6),
           GameConfig(target_score=3, max_steps=150))


def _pick(rng, legal_row, holder):
    """A random legal action, often one of the rarer kinds (not a move nor End turn), so that throws,
    pushes, gaps, kicks and follows are played too; a finished game's 0 is ignored."""
    ids = np.flatnonzero(legal_row)
    if ids.size == 0:
        return 0
    rare = ids[(ids >= A.PUSH_BASE) | ((ids > A.END_TURN) & (ids < A.MOVE_BASE))]
    if rare.size and rng.random() < 0.35:
        return int(rare[rng.integers(rare.size)])
    if holder >= 0 and rng.random() < 0.3:  # the carrier runs forward: touchdowns, tackles, fumbles
        forward = A.MOVE_BASE + holder * 8 + np.array([7, 0, 1])
        forward = forward[legal_row[forward]]
        if forward.size:
            return int(forward[rng.integers(forward.size)])
    return int(ids[rng.integers(ids.size)])


def _chunks(size, seed, config):
    """(first game, batch) pairs covering GAMES games in batches of ``size`` (the last one may be smaller)."""
    return [(first, g.init(min(size, GAMES - first), seed=seed + first, config=config))
            for first in range(0, GAMES, size)]


def _assert_same(big, chunks, size):
    together = State.concatenate([chunk for _, chunk in chunks])
    for name in FIELDS:
        assert np.array_equal(getattr(big, name), getattr(together, name)), f"{name} in batches of {size}"


@settings(max_examples=3)
@given(seed=st.integers(0, 2**32), config=st.sampled_from(CONFIGS), steps=st.integers(40, 100),
       reuse=st.booleans())
def test_games_play_alike_in_every_batch_size(seed, config, steps, reuse):
    _play_alike(seed, config, steps, reuse)


@pytest.mark.slow
@settings(max_examples=12)
@given(seed=st.integers(0, 2**32), config=st.sampled_from(CONFIGS), steps=st.integers(100, 400),
       reuse=st.booleans())
def test_games_play_alike_in_every_batch_size_over_longer_games(seed, config, steps, reuse):
    _play_alike(seed, config, steps, reuse)


def _play_alike(seed, config, steps, reuse):
    """Play GAMES games together and in chunks of every size in CHUNKS with the same random legal actions
    (and, now and then, the same ``active`` mask); every chunk equals its rows of the big batch after
    every step, and so do the observations at the end."""
    assert GAMES > engine.LONE_BATCH_LIMIT  # the big batch is the vectorised path's
    rng = np.random.default_rng(seed)
    big = g.init(GAMES, seed=seed, config=config)
    runs = {size: _chunks(size, seed, config) for size in CHUNKS}
    kinds = set()  # of the actions played in play
    for _ in range(steps):
        actions = np.array([_pick(rng, big.legal[i], int(big.ball_holder[i])) for i in range(GAMES)])
        active = rng.random(GAMES) < 0.9 if rng.random() < 0.3 else None  # a few games wait their turn
        kinds.update(A.ACTION_KIND[actions[(big.phase == PLAY) | (big.phase == SCRAMBLE)]].tolist())
        big = g.step(big, actions, config=config, active=active, reuse_input=reuse)
        for size, chunks in runs.items():
            for k, (first, chunk) in enumerate(chunks):
                rows = slice(first, first + chunk.batch_size)
                chunks[k] = (first, g.step(chunk, actions[rows], config=config,
                                           active=None if active is None else active[rows], reuse_input=reuse))
            _assert_same(big, chunks, size)
    # the observations of every batch size are the big batch's rows, from either team's side too
    for team in (None, 0, 1):
        whole = observe(big, team, config)
        scalars = observe_scalars(big, team, config)
        for size, chunks in runs.items():
            for first, chunk in chunks:
                rows = slice(first, first + chunk.batch_size)
                assert np.array_equal(observe(chunk, team, config), whole[rows])
                assert np.array_equal(observe_scalars(chunk, team, config), scalars[rows])
    # not vacuous: the games were played through several kinds of action (moves, End turn, throws, ...)
    assert len(kinds) >= 4, kinds


def test_small_batches_take_the_lone_path_and_big_ones_do_not(monkeypatch):
    calls = []
    real = engine._lone.step_one

    def spy(*args):
        calls.append(args[6] if len(args) > 6 else 0)  # the game stepped (its row of the batch)
        return real(*args)

    monkeypatch.setattr(engine._lone, "step_one", spy)
    for size in (2, 5, engine.LONE_BATCH_LIMIT, engine.LONE_BATCH_LIMIT + 1, 96):
        calls.clear()
        s = g.init(size, seed=size)
        g.step(s, A.OFFENCE_FORMATION_BASE if s.phase[0] != 0 else A.SPECIAL_BASE)
        assert calls == (list(range(size)) if size <= engine.LONE_BATCH_LIMIT else []), size
    # a scripted chance source is asked in the batched order: the small batch goes the batched way
    calls.clear()
    s = g.init(3, seed=1, config=GameConfig(specials=False))
    s = g.step(s, A.OFFENCE_FORMATION_BASE, config=GameConfig(specials=False))
    g.step(s, A.DEFENCE_FORMATION_BASE, config=GameConfig(specials=False), chance=ScriptedChance([1] * 100))
    assert calls == [0, 1, 2]  # the first step only


def _mid_game(batch, seed=5, steps=40):
    rng = np.random.default_rng(seed)
    s = g.init(batch, seed=seed)
    for _ in range(steps):
        s = g.step(s, np.array([_pick(rng, s.legal[i], int(s.ball_holder[i])) for i in range(batch)]))
    return s


@pytest.mark.parametrize("batch", [1, 2, 3, 4, 8, 16, 64, 96])
@pytest.mark.parametrize("reuse", [False, True])
def test_an_illegal_action_raises_naming_the_game_and_changes_nothing(batch, reuse):
    s = _mid_game(batch)
    rng = np.random.default_rng(batch)
    bad_game = batch // 2
    for bad in (int(np.flatnonzero(~s.legal[bad_game])[0]), A.NUM_ACTIONS, -1, 2**64 - 1):
        actions = np.array([_pick(rng, s.legal[i], -1) for i in range(batch)], dtype=np.int64)
        if bad == 2**64 - 1:
            actions = actions.astype(np.uint64)
        actions[bad_game] = bad
        before = s.copy()
        with pytest.raises(IllegalActionError) as err:
            g.step(s, actions, reuse_input=reuse)
        assert err.value.game == bad_game and err.value.action == bad
        assert f"game {bad_game}" in str(err.value)
        assert s.equals(before), "a refused step must leave every game untouched"
    # a finished game, and a game left out by ``active``, ignore whatever they are given
    s = _mid_game(batch)
    s.terminated[0], s.phase[0], s.to_act[0], s.legal[0] = True, GAME_OVER, -1, False
    before = s.copy()
    active = np.ones(batch, dtype=bool)
    active[-1] = batch == 1
    actions = np.array([_pick(rng, s.legal[i], -1) for i in range(batch)])
    actions[0] = A.NUM_ACTIONS + 5
    if batch > 1:
        actions[-1] = -3
    after = g.step(s, actions, active=active, reuse_input=reuse)
    assert after.take(0).equals(before.take(0))
    if batch > 1:
        assert after.take(batch - 1).equals(before.take(batch - 1))
        assert (after.steps[1:-1] == before.steps[1:-1] + 1).all()


@pytest.mark.parametrize("batch", [2, 8])
def test_a_huge_action_id_and_the_first_bad_game_are_named_as_in_a_big_batch(batch, monkeypatch):
    s = _mid_game(batch)
    actions = [int(np.flatnonzero(s.legal[i])[0]) for i in range(batch)]
    actions[1] = int(np.flatnonzero(~s.legal[1])[0])
    actions[-1] = A.NUM_ACTIONS
    errors = []
    for limit in (engine.LONE_BATCH_LIMIT, 1):  # the small-batch checks, then the vectorised ones
        monkeypatch.setattr(engine, "LONE_BATCH_LIMIT", limit)
        with pytest.raises(IllegalActionError) as err:
            g.step(s, np.array(actions))
        errors.append(str(err.value))
        with pytest.raises(IllegalActionError, match="not an action id") as err:
            g.step(s, 2**70)  # one int for every game, too large for int64: the first game is named
        assert err.value.game == 0
    assert errors[0] == errors[1]


def test_a_small_batch_encodes_as_the_batched_encoder(monkeypatch):
    s = _mid_game(6, seed=9, steps=90)
    small = [observe(s, team) for team in (None, 0, 1, np.array([0, 1, 1, 0, 1, 0]))]
    monkeypatch.setattr(OBSERVE_MODULE, "SMALL_BATCH_OBSERVE", 0)
    batched = [observe(s, team) for team in (None, 0, 1, np.array([0, 1, 1, 0, 1, 0]))]
    for a, b in zip(small, batched):
        assert a.dtype == b.dtype == np.float32 and np.array_equal(a, b)
