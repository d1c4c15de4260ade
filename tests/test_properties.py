"""Property tests of the engine: determinism, batch independence, refusal of illegal actions, round trips."""

import threading

import numpy as np
import pytest

import gridiron_env as g
from gridiron_env.core import IllegalActionError, State, action_id, action_name, from_diagram, to_diagram
from gridiron_env.core.actions import NUM_ACTIONS
from gridiron_env.core.invariants import check_invariants

pytestmark = pytest.mark.usefixtures("vectorised_batches")  # a batch of more than one is the vectorised path here


def random_legal(legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per game (0 for finished games)."""
    weights = rng.random(legal.shape) * legal
    return weights.argmax(axis=1)


def play(batch, seed, steps, action_seed=0, config=None):
    rng = np.random.default_rng(action_seed)
    s = g.init(batch, seed=seed, config=config)
    history = []
    for _ in range(steps):
        a = random_legal(s.legal, rng)
        history.append(a)
        s = g.step(s, a, config=config)
    return s, np.array(history)


def test_same_seed_same_game():
    a, _ = play(5, seed=11, steps=300)
    b, _ = play(5, seed=11, steps=300)
    assert a.equals(b)
    c, _ = play(5, seed=12, steps=300)
    assert not a.equals(c)


def test_game_i_of_batch_plays_like_lone_game_seeded_s_plus_i():
    seed, batch = 40, 7
    s, history = play(batch, seed=seed, steps=400, action_seed=3)
    for i in range(batch):
        lone = g.init(1, seed=seed + i)
        for a in history[:, i]:
            lone = g.step(lone, np.array([a]))
        assert lone.equals(s.take(i)), f"game {i} diverged from a lone game seeded {seed + i}"


def test_batched_step_equals_single_steps_from_mixed_positions():
    """Games at different phases of play step together exactly as they would alone."""
    s, _ = play(6, seed=5, steps=250, action_seed=9)
    rng = np.random.default_rng(1)
    for _ in range(60):
        a = random_legal(s.legal, rng)
        together = g.step(s, a)
        for i in range(s.batch_size):
            alone = g.step(s.take(i), a[i:i + 1])
            assert alone.equals(together.take(i))
        s = together


def test_illegal_action_raises_and_changes_nothing():
    s, _ = play(4, seed=2, steps=120)
    before = s.copy()
    rng = np.random.default_rng(0)
    a = random_legal(s.legal, rng)
    bad_game = 2
    illegal = int(np.flatnonzero(~s.legal[bad_game])[0])
    a[bad_game] = illegal
    with pytest.raises(IllegalActionError) as err:
        g.step(s, a)
    assert s.equals(before), "a refused step must leave every game untouched"
    message = str(err.value)
    assert action_name(illegal) in message and "game 2" in message
    legal_names = [action_name(i) for i in np.flatnonzero(s.legal[bad_game])]
    assert err.value.legal_actions == tuple(legal_names)
    assert all(name in message for name in legal_names)
    assert "gridiron diagram v1" in message  # the position is shown
    assert isinstance(err.value, ValueError)


def test_out_of_range_action_is_refused():
    s = g.init(2, seed=0)
    with pytest.raises(IllegalActionError):
        g.step(s, np.array([0, NUM_ACTIONS]))
    with pytest.raises(IllegalActionError):
        g.step(s, np.array([-1, 0]))
    with pytest.raises(ValueError):
        g.step(s, np.array([0, 0, 0]))


def _without_counters(state: State) -> State:
    t = state.copy()
    t.steps[:] = 0
    return t


def test_every_legal_action_changes_the_state():
    s, _ = play(8, seed=21, steps=200, action_seed=4)
    for i in range(s.batch_size):
        one = s.take(i)
        for a in np.flatnonzero(one.legal[0]):
            nxt = g.step(one, np.array([a]))
            assert not _without_counters(nxt).equals(_without_counters(one)), action_name(a)


def test_step_does_not_modify_its_input():
    s, _ = play(3, seed=8, steps=50)
    before = s.copy()
    g.step(s, random_legal(s.legal, np.random.default_rng(5)))
    assert s.equals(before)


def test_action_names_and_ids_round_trip():
    assert len(set(g.ACTION_NAMES)) == NUM_ACTIONS
    for i in range(NUM_ACTIONS):
        assert action_id(action_name(i)) == i
    assert action_id("  Move qb   n ") == action_id("move QB N")
    assert action_id("PUNT 9") == action_id("punt 9")
    with pytest.raises(ValueError):
        action_id("move QB UP")
    with pytest.raises(ValueError):
        action_name(NUM_ACTIONS)


def test_diagram_round_trips_reachable_states():
    s, _ = play(16, seed=31, steps=500, action_seed=2)
    for i in range(s.batch_size):
        text = to_diagram(s, i)
        back = from_diagram(text)
        assert back.equals(s.take(i)), text


def test_state_fits_the_budget():
    assert State.bytes_per_game() <= 4096
    s = g.init(3)
    total = sum(getattr(s, name).nbytes for name in s.__dataclass_fields__)
    assert total == 3 * State.bytes_per_game()


@pytest.mark.parametrize("batch,steps,cap", [(1, 6_000, 200), (1, 2_000, 7), (7, 2_000, 60), (256, 400, 23)])
def test_random_play_keeps_invariants_and_every_game_ends(batch, steps, cap):
    """Random legal play: invariants after every step (so at every game's end, at the step it ends), the
    cached mask equals the rules' mask, and every game ends (a winner, or truncation at the cap on agent
    steps) within ``cap`` steps. Small caps: truncation comes often, at every phase of the game."""
    config = g.GameConfig(max_steps=cap)
    rng = np.random.default_rng(batch)
    s = g.init(batch, seed=1000 + batch, config=config)
    since_init, games_ended = 0, 0
    for t in range(steps):
        s = g.step(s, random_legal(s.legal, rng), config=config)
        since_init += 1
        check_invariants(s, check_mask=(t % 97 == 0), config=config)
        finished = s.terminated | s.truncated
        assert not (since_init >= cap and not finished.all()), "a game outlived the step cap"
        assert not (s.terminated & s.truncated).any()
        if finished.all():
            games_ended += batch
            s = g.init(batch, seed=int(rng.integers(1 << 31)), config=config)
            since_init = 0
    assert games_ended >= batch * (steps // cap)


# Small caps, so that truncation comes often and at every phase of a game.
_SOAK_CONFIGS = {
    "cap 5": g.GameConfig(max_steps=5),
    "cap 23, no specials, 2 rolls a down": g.GameConfig(max_steps=23, specials=False, max_rolls_per_down=2),
    "cap 60, paper kicks, target 3": g.GameConfig(max_steps=60, kick_mode="paper", paper_answer_chance=0.5,
                                                  target_score=3),
    "cap 200, target 7, short punts": g.GameConfig(max_steps=200, target_score=7, longest_punt=3,
                                                   max_rolls_per_down=4),
}


def _tackle_leaning(legal, s, rng):
    """A random legal action per game, a tackle (a move onto the enemy carrier) 4 times in 5 when one is
    legal: tackles are what lead to fumbles and blind scrambles, the hardest positions to end a game in."""
    from gridiron_env.core.actions import MOVE_BASE
    from gridiron_env.core.geometry import NEIGHBOUR, N_DIRECTIONS, N_SLOTS

    actions = random_legal(legal, rng)
    team = np.maximum(s.to_act, 0).astype(np.intp)
    target = NEIGHBOUR[team[:, None, None], np.maximum(s.player_square, 0)[:, :, None], np.arange(N_DIRECTIONS)]
    moves = legal[:, MOVE_BASE:MOVE_BASE + N_SLOTS * N_DIRECTIONS].reshape(target.shape)
    tackle = (moves & (target == s.ball_square[:, None, None]) & (s.ball_holder[:, None, None] >= 0)
              ).reshape(len(actions), -1)
    take = tackle.any(axis=1) & (rng.random(len(actions)) < 0.8)
    actions[take] = MOVE_BASE + random_legal(tackle, rng)[take]
    return actions


def _new_games(n, config, rng):
    """Fresh games, half of them with a random part of their step allowance already used, so that the
    cap also falls in the middle of plays (``steps`` only counts toward the cap), and a third of them
    starting with a drive 2 rows from the goal line, so that games are also won."""
    s = g.init(n, seed=int(rng.integers(1 << 62)), config=config)
    late = rng.random(n) < 0.5
    s.steps[late] = rng.integers(0, config.max_steps, int(late.sum()))
    near_goal = np.flatnonzero(rng.random(n) < 1 / 3)
    if near_goal.size:  # team one attacks row 0: first-and-ten on row 5 (0-based 4)
        g.core.engine.start_drive(s, near_goal, 0, 4, 8, config)
        s.score[near_goal, 0] = config.target_score - 1  # a score ends the game (or gives a final drive)
    return s


@pytest.mark.parametrize("name", list(_SOAK_CONFIGS))
def test_every_game_ends_valid(name):
    """Every game that finishes, by a winner or by truncation at the step cap, is a valid finished game at
    the step it finishes (check_invariants, the cached mask included), on the batched and the lone path.

    Besides the games that end on their own in random play, every step is also played with every game at
    its last allowed step (``steps`` = max_steps - 1), so the cap falls on every position the games pass
    through, blind scrambles and Lead Blocker follows included; a lone game (a batch of one, core/lone.py)
    truncated there must be bit for bit its row of the batched result."""
    config = _SOAK_CONFIGS[name]
    rng = np.random.default_rng(len(name))
    batch = 48
    s = _new_games(batch, config, rng)
    ended = truncated_loose = lone_checked = capped_won = 0
    for _ in range(160):
        actions = _tackle_leaning(s.legal, s, rng)
        live = ~(s.terminated | s.truncated)
        at_cap = s.copy()
        at_cap.steps[:] = config.max_steps - 1
        capped = g.step(at_cap, actions, config=config)
        check_invariants(capped, check_mask=True, config=config)
        assert (capped.terminated | capped.truncated).all()
        assert (capped.truncated == (live & ~capped.terminated) | s.truncated).all()
        capped_won += int((capped.terminated & live).sum())
        truncated_loose += int((capped.truncated & live & (capped.ball_holder < 0)
                                & np.isin(s.phase, (g.core.state.PLAY, g.core.state.SCRAMBLE))).sum())
        for i in np.flatnonzero(live)[:3]:  # the lone path on the same positions
            lone = g.step(at_cap.take(i), actions[i:i + 1], config=config)
            assert lone.equals(capped.take(i)), f"game {i}: the lone path ended the game otherwise"
            lone_checked += 1

        new = g.step(s, actions, config=config)
        finished = np.flatnonzero((new.terminated | new.truncated) & live)
        if finished.size:
            check_invariants(new.take(finished), check_mask=True, config=config)
            ended += finished.size
        s = new
        done = np.flatnonzero(s.terminated | s.truncated)
        if done.size:
            s.put(done, _new_games(done.size, config, rng))
    assert ended > 0 and lone_checked > 0 and capped_won > 0
    assert truncated_loose > 0, "the cap never fell on a loose ball: the test did not reach a scramble"


def test_every_lone_game_ends_valid():
    """Lone games (a batch of one: the plain-Python path) played to their end again and again with small
    caps: each is a valid finished game at the step it finishes."""
    endings = {"terminated": 0, "truncated": 0}
    for k, config in enumerate(_SOAK_CONFIGS.values()):
        rng = np.random.default_rng(100 + k)
        s = _new_games(1, config, rng)
        for _ in range(700):
            s = g.step(s, _tackle_leaning(s.legal, s, rng), config=config)
            if s.terminated[0] or s.truncated[0]:
                check_invariants(s, check_mask=True, config=config)
                endings["terminated" if s.terminated[0] else "truncated"] += 1
                s = _new_games(1, config, rng)
    assert endings["terminated"] > 0 and endings["truncated"] > 0, endings


@pytest.mark.slow
def test_a_long_soak_ends_every_game_valid():
    """The soak that found truncated games with a hidden ball (103 in 26M steps at the default cap): many
    games on each soak config, each checked at the step it ends, with the default cap too."""
    configs = list(_SOAK_CONFIGS.values()) + [g.GameConfig()]
    ended = 0
    for k, config in enumerate(configs):
        rng = np.random.default_rng(1000 + k)
        s = _new_games(1024, config, rng)
        for _ in range(1000):
            live = ~(s.terminated | s.truncated)
            s = g.step(s, _tackle_leaning(s.legal, s, rng), config=config, reuse_input=True)
            finished = np.flatnonzero((s.terminated | s.truncated) & live)
            if finished.size:
                check_invariants(s.take(finished), check_mask=True, config=config)
                ended += finished.size
                s.put(finished, _new_games(finished.size, config, rng))
    assert ended > 10_000


def test_diagram_round_trips_a_defender_carrying_the_ball():
    text = """gridiron diagram v1
phase: play
to act: two
line of scrimmage: row 15 lane 9
points: 3-4
board:
 10 | .   .   LDE LDT RDT RDE SLB MLB@ WLB LCB RCB FS  SS  .   .   .   .   .
 15 | .   .   .   .   .   .   QB  C   LG  RG  LT  RT  X   Y   Z   H   F   .
"""
    s = from_diagram(text)
    assert s.ball_holder[0] == 16  # MLB
    assert from_diagram(to_diagram(s)).equals(s)


def test_init_with_per_game_seeds_equals_lone_games():
    seeds = [5, 2**63 + 7, 0, 123456789]
    batch = g.init(seeds=seeds)
    for i, seed in enumerate(seeds):
        assert batch.take(i).equals(g.init(1, seed=seed))
    assert g.init(seeds=[10, 11, 12]).equals(g.init(3, seed=10))
    with pytest.raises(ValueError):
        g.init(2, seeds=[1, 2, 3])


def test_the_stream_helpers_agree_on_every_draw():
    # The pass contest reads only the stream positions of the dice in use (_uniform_at), the lone-game
    # path and the default opponent draw with Python ints (splitmix64_int): each must give exactly the
    # draws of the batched stream at the same positions.
    from gridiron_env.core.chance import (
        GOLDEN, UNIT_53, _uniform, _uniform_at, game_keys, splitmix64, splitmix64_int,
    )

    keys = game_keys(12345, 50)
    counters = np.arange(50, dtype=np.uint64) * np.uint64(1_000_003) + np.uint64(2**63 - 40)  # near wrapping
    for high in (2, 6, 20, 1_000_000):
        whole = _uniform(keys, counters, high, 129)
        positions = np.array([0, 1, 2, 7, 8, 40, 43, 50, 128])
        np.testing.assert_array_equal(_uniform_at(keys, counters, high, positions), whole[:, positions])
        for i in (0, 17, 49):
            for k in (0, 5, 128):
                bits = splitmix64_int(int(keys[i]) + (int(counters[i]) + k) * GOLDEN)
                assert min(int(float(bits >> 11) * UNIT_53 * high), high - 1) == whole[i, k]
    x = np.array([0, 1, 2**64 - 1, 0x9E3779B97F4A7C15], dtype=np.uint64)
    assert [splitmix64_int(int(v)) for v in x] == [int(v) for v in splitmix64(x)]


def test_reuse_input_steps_in_place_to_the_same_game():
    # step(..., reuse_input=True) updates the given state in place (no copy) and plays exactly the game the
    # default copy-and-return does, masks included; an illegal action still changes nothing.
    rng = np.random.default_rng(5)
    s = g.init(32, seed=9)
    t = g.init(32, seed=9)
    for _ in range(400):
        a = random_legal(s.legal, rng)
        active = rng.random(32) < 0.8
        s = g.step(s, a, active=active)
        stepped = g.step(t, a, active=active, reuse_input=True)
        assert stepped is t
        assert s.equals(t)
    actions = random_legal(t.legal, rng)
    game = int(np.flatnonzero(~t.terminated & ~t.truncated)[-1])
    actions[game] = int(np.flatnonzero(~t.legal[game])[0])
    before = t.copy()
    with pytest.raises(IllegalActionError):
        g.step(t, actions, reuse_input=True)
    assert t.equals(before)


def test_reuse_input_copies_a_state_whose_fields_are_not_contiguous():
    s = g.init(4, seed=1)
    odd = State(**{name: np.asfortranarray(getattr(s, name)) if getattr(s, name).ndim > 1 else getattr(s, name)
                   for name in s.__dict__})
    assert not odd.is_contiguous()
    a = random_legal(odd.legal, np.random.default_rng(0))
    out = g.step(odd, a, reuse_input=True)
    assert out is not odd and out.equals(g.step(s, a)) and odd.equals(s)


class _PausingChance(g.core.chance.CounterChance):
    """The counter streams, pausing at the first draw until ``resume`` is set (``paused`` says it is)."""

    def __init__(self):
        self.paused, self.resume, self.first = threading.Event(), threading.Event(), True

    def draw(self, state, games, high, count, what=""):
        if self.first:
            self.first = False
            self.paused.set()
            assert self.resume.wait(timeout=30), "the other thread never finished its step"
        return super().draw(state, games, high, count, what)


def test_a_step_in_one_thread_keeps_its_config_while_another_thread_steps():
    """The engine's step context (config, chance source) is per thread: a step paused between its draws
    (the strong-lineman roll, then the dice) while another thread steps a batch with another config ends
    exactly as it does alone."""
    config = g.GameConfig(specials=False)
    other_config = g.GameConfig(specials=False, max_rolls_per_down=1, longest_punt=3)

    def at_defence_formation(seed, cfg):
        s = g.init(2, seed=seed, config=cfg)
        s = g.step(s, s.legal.argmax(axis=1), config=cfg)  # an offence formation
        assert (s.phase == g.core.state.DEFENCE_FORMATION).all()
        return s

    s = at_defence_formation(5, config)
    action = s.legal.argmax(axis=1)
    alone = g.step(s, action, config=config, chance=g.core.chance.CounterChance())
    chance = _PausingChance()
    result = {}

    def paused_step():
        try:
            result["state"] = g.step(s, action, config=config, chance=chance)
        except Exception as err:  # reported below, in the test's thread
            result["error"] = err

    worker = threading.Thread(target=paused_step)
    worker.start()
    assert chance.paused.wait(timeout=30)
    other = at_defence_formation(9, other_config)
    other_after = g.step(other, other.legal.argmax(axis=1), config=other_config)
    chance.resume.set()
    worker.join(timeout=30)
    assert "error" not in result, result.get("error")
    assert result["state"].equals(alone)
    expected = g.step(at_defence_formation(9, other_config), other.legal.argmax(axis=1), config=other_config)
    assert other_after.equals(expected)
