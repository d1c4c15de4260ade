"""The struct-of-arrays shell the small games' States share (Table Football, Sports Dice).

A subclass is a dataclass of numpy arrays, every one with the batch axis first, and sets ``_FIELDS``: its
module's ``FIELDS`` table, name -> (dtype, per-game shape, fill value, meaning). The shell gives the batch
operations the engines and the env layer use: a new batch filled per the table, copies, sub-batches,
writing games back, concatenation and equality, all over exactly the table's fields; which games are
over; and the mirror (the teams' names swapped) over the fields a game names.
"""

from __future__ import annotations

import numpy as np

__all__ = ["BatchState"]


class BatchState:
    """Batch operations over the fields of ``_FIELDS`` (see the module docstring)."""

    _FIELDS: dict = {}

    @classmethod
    def empty(cls, batch_size: int):
        """A batch of ``batch_size`` games with every field at its table's fill value."""
        new = object.__new__(cls)
        for name, (dtype, shape, fill, _) in cls._FIELDS.items():
            value = np.empty((batch_size,) + shape, dtype=dtype)
            value.fill(fill)
            new.__dict__[name] = value
        return new

    @property
    def batch_size(self) -> int:
        return self.phase.shape[0]

    def __len__(self) -> int:
        return self.batch_size

    def _with(self, arrays: dict):
        new = object.__new__(type(self))
        new.__dict__.update(arrays)
        return new

    def copy(self):
        return self._with({name: self.__dict__[name].copy() for name in self._FIELDS})

    def take(self, games):
        """The sub-batch of the given game indices (a copy)."""
        games = np.atleast_1d(np.asarray(games))
        return self._with({name: self.__dict__[name][games].copy() for name in self._FIELDS})

    def put(self, games, other) -> None:
        """Write ``other``'s games into the given game indices of this batch, in place."""
        for name in self._FIELDS:
            self.__dict__[name][games] = other.__dict__[name]

    @classmethod
    def concatenate(cls, states: list):
        new = object.__new__(cls)
        new.__dict__.update({name: np.concatenate([s.__dict__[name] for s in states]) for name in cls._FIELDS})
        return new

    def equals(self, other) -> bool:
        return all(np.array_equal(self.__dict__[name], other.__dict__[name]) for name in self._FIELDS)

    def is_over(self) -> np.ndarray:
        """bool [B]: the game is over (terminated or truncated)."""
        return self.terminated | self.truncated

    def mirrored(self, team_fields: tuple, pair_fields: tuple):
        """A copy with the teams' names swapped (team one <-> team two): in ``team_fields`` (team ids) 0 and
        1 swap and other codes (-1 none, 2 a draw) stay; ``pair_fields`` (one column per team) swap
        columns."""
        m = self.copy()
        for name in team_fields:
            v = self.__dict__[name]
            m.__dict__[name] = np.where((v == 0) | (v == 1), 1 - v, v).astype(v.dtype)
        for name in pair_fields:
            m.__dict__[name] = self.__dict__[name][:, ::-1].copy()
        return m
