"""Randomness: every game draws from its own counter-based stream.

A game's stream is ``splitmix64(key + k * golden)`` for draw k = 0, 1, 2, ...; the key comes from
``(seed + game_index) mod 2**64``, so game i of a batch seeded s plays exactly like a lone game seeded
(s + i) mod 2**64, and no game's dice depend on the batch size or on the other games. Tests inject dice
with :class:`ScriptedChance`.
"""

from __future__ import annotations

import numpy as np

GOLDEN = 0x9E3779B97F4A7C15  # draw k of a game's stream is splitmix64(key + k * GOLDEN), modulo 2**64
_GOLDEN = np.uint64(GOLDEN)
_M1_INT, _M2_INT = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB  # the finaliser's multipliers
_M1, _M2 = np.uint64(_M1_INT), np.uint64(_M2_INT)


def splitmix64(x: np.ndarray) -> np.ndarray:
    """The splitmix64 finaliser, elementwise on uint64 (wrapping arithmetic)."""
    x = np.asarray(x, dtype=np.uint64)
    with np.errstate(over="ignore"):
        return _mix(x)


_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)
MASK64 = (1 << 64) - 1  # arithmetic modulo 2**64 on Python ints
_MASK64 = MASK64  # (the old name)
UNIT_53 = 1.0 / (1 << 53)  # (bits >> 11) * UNIT_53: a draw's uniform float in [0, 1)


def splitmix64_int(x: int) -> int:
    """splitmix64 of one Python int (taken modulo 2**64): the value ``splitmix64`` gives, for code that
    works on one game in plain Python."""
    z = (x + GOLDEN) & MASK64
    z = ((z ^ (z >> 30)) * _M1_INT) & MASK64
    z = ((z ^ (z >> 27)) * _M2_INT) & MASK64
    return z ^ (z >> 31)


def _mix(z: np.ndarray) -> np.ndarray:
    """splitmix64 of a uint64 array of at least one dimension. Array ufuncs wrap silently (only numpy
    scalar arithmetic warns on overflow), so the hot path needs no errstate context; the steps work in
    place on the one temporary."""
    z = z + _GOLDEN
    t = z >> _S30
    z ^= t
    z *= _M1
    np.right_shift(z, _S27, out=t)
    z ^= t
    z *= _M2
    np.right_shift(z, _S31, out=t)
    z ^= t
    return z


SEED_MAX = (1 << 64) - 1  # seeds are ints 0 .. 2**64 - 1 (a uint64)


def check_seed(seed, name: str = "seed") -> int:
    """``seed`` as a Python int, or ValueError naming ``name``: an int (Python or numpy) in 0..2**64-1;
    bool, floats, negatives and larger ints are refused rather than converted or wrapped."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"{name} must be an int from 0 to 2**64-1, got {seed!r} ({type(seed).__name__})")
    value = int(seed)
    if not 0 <= value <= SEED_MAX:
        raise ValueError(f"{name} must be an int from 0 to 2**64-1, got {value}")
    return value


def game_keys(seed: int, batch_size: int) -> np.ndarray:
    """Stream keys of games seed, seed+1, ..., seed+batch_size-1, each taken modulo 2**64 (game i of a
    batch seeded 2**64-1 is seeded i - 1). ``seed``: an int 0..2**64-1 (ValueError otherwise)."""
    base = np.uint64(check_seed(seed))
    # uint64 array arithmetic wraps (no OverflowError, no warning: only numpy scalar arithmetic warns)
    return splitmix64(base + np.arange(batch_size, dtype=np.uint64))


def seed_keys(seeds) -> np.ndarray:
    """Stream keys of games with the given per-game seeds (each an int 0..2**64-1), as ``init(1, seed)``
    gives its game. Raises ValueError, naming ``seeds``, for anything but a non-empty 1-d sequence (or
    integer array) of such ints: bools, floats, negatives and ints past 2**64-1 are refused."""
    if isinstance(seeds, np.ndarray):
        arr = seeds.reshape(1) if seeds.ndim == 0 else seeds
        if arr.dtype.kind not in "iu":  # (bool is kind "b": refused with the floats)
            raise ValueError(f"seeds must be ints from 0 to 2**64-1, got an array of dtype {arr.dtype}")
    elif isinstance(seeds, (str, bytes)) or not hasattr(seeds, "__len__"):
        if isinstance(seeds, (int, np.integer)) and not isinstance(seeds, (bool, np.bool_)):
            arr = np.array([check_seed(seeds, "seeds")], dtype=np.uint64)  # one seed: a batch of one
        else:
            raise ValueError(f"seeds must be a non-empty 1-d sequence of ints, got {seeds!r}")
    else:
        try:
            values = list(seeds)
        except TypeError:
            raise ValueError(f"seeds must be a non-empty 1-d sequence of ints, got {type(seeds).__name__}") from None
        # (a sequence from the caller, checked one by one: the envs pass uint64 arrays, checked above)
        arr = np.array([check_seed(x, f"seeds[{i}]") for i, x in enumerate(values)], dtype=np.uint64)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"seeds must be a non-empty 1-d sequence of ints, got shape {arr.shape}")
    if arr.dtype.kind == "i" and (arr < 0).any():
        raise ValueError(f"seeds must be ints from 0 to 2**64-1, got {int(arr[arr < 0][0])}")
    return splitmix64(arr.astype(np.uint64))


class CounterChance:
    """The default source: draws from each game's own stream in the state."""

    def draw(self, state, games: np.ndarray, high, count: int, what: str = "") -> np.ndarray:
        """``count`` uniform ints in [0, high) for each game in ``games``: int64 [len(games), count].

        ``high`` is a scalar or one value per game. Advances each game's counter by ``count``.
        """
        games = np.asarray(games)
        if games.size == 0:
            return np.zeros((0, count), dtype=np.int64)
        counter = state.rng_counter[games]
        state.rng_counter[games] = counter + np.uint64(count)
        return uniform(state.rng_key[games], counter, high, count)


_STEPS = {}  # count -> arange(count) * golden, the stream offsets of a draw's columns


def uniform(key, counter, high, count):
    """The draws at stream positions counter .. counter + count - 1 of each key: int64 [n, count] in
    [0, high). ``key + (counter + k) * golden`` is computed as ``(key + counter * golden) + k * golden``,
    the same value in wrapping arithmetic, with the column offsets from a cached table."""
    steps = _STEPS.get(count)
    if steps is None:
        steps = _STEPS[count] = np.arange(count, dtype=np.uint64) * _GOLDEN
    return _uniform_steps(key, counter, high, steps)


def uniform_at(key, counter, high, positions):
    """The draws at stream positions counter + positions (ints >= 0, the same for every key): int64
    [n, len(positions)] in [0, high), each equal to the draw ``uniform`` gives at that position."""
    return _uniform_steps(key, counter, high, np.asarray(positions, dtype=np.uint64) * _GOLDEN)


def _uniform_steps(key, counter, high, steps):
    bits = _mix((key + counter * _GOLDEN)[:, None] + steps)
    bits >>= _S11
    unit = bits.astype(np.float64)
    unit *= 1.0 / (1 << 53)
    high = np.asarray(high, dtype=np.int64)
    if high.ndim == 1:
        high = high[:, None]
    return np.minimum((unit * high).astype(np.int64), high - 1)


_uniform, _uniform_at = uniform, uniform_at  # (the old names)


class ScriptedChance:
    """Injected outcomes, for tests: each draw takes the next values from a queue.

    ``outcomes`` is a list of ints, each in [0, high) of the draw that takes it (a die face f is f - 1).
    Draws consume values game by game, ``count`` values per game. Running out raises, naming the draw.
    """

    def __init__(self, outcomes):
        values = list(outcomes)
        for i, v in enumerate(values):  # (a float or a bool is a slip in a test: never truncated to an int)
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or v < 0:
                raise ValueError(f"ScriptedChance outcomes must be ints >= 0, got {v!r} at position {i}")
        self.queue = [int(v) for v in values]
        self.log: list[tuple[str, list[int]]] = []

    def draw(self, state, games, high, count, what=""):
        games = np.asarray(games)
        out = np.zeros((games.size, count), dtype=np.int64)
        highs = np.broadcast_to(np.asarray(high, dtype=np.int64), (games.size,))
        for row in range(games.size):
            for col in range(count):
                if not self.queue:
                    raise RuntimeError(f"ScriptedChance ran out of outcomes at draw {what!r}")
                value = self.queue.pop(0)
                if not (0 <= value < highs[row]):
                    raise ValueError(f"scripted outcome {value} is outside [0, {highs[row]}) for {what!r}")
                out[row, col] = value
            self.log.append((what, out[row].tolist()))
        return out
