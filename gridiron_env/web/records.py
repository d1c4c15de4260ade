"""Game records: everything needed to replay a game exactly (the config, the seed, every action), as JSON.

A record is a JSON object::

    {"format": "gridiron-record-v1",
     "config": {"target_score": 21, "specials": true, "kick_mode": "dice", ...},   # GameConfig fields
     "seed": 123456789,                    # int 0 .. 2**64 - 1: the game is init(1, seed=seed, config)
     "actions": [21, 19, 3, 11, 0, ...],   # action ids 0..290, in order, each legal when it was taken
     "seats": ["you", "bot (hard)"],       # optional: who played team one and team two (labels)
     "mode": "single",                     # optional: single, hotseat or watch
     "result": {"score": [21, 14], "winner": 0, "over": true},   # optional; checked against the replay
     "saved": "2026-12-01T17:00:00Z"}      # optional

Reading a record never trusts it: the text is capped (``MAX_RECORD_CHARS``), every field is checked
(type, range, unknown keys refused) and the actions are replayed through the engine, each one checked
against the legal mask of its position; the first bad one is named (its index and name). A result that
disagrees with the replay is refused too. :class:`Replay` then steps through the game forwards and
backwards (states are rebuilt from checkpoints every ``CHECKPOINT_EVERY`` actions).
"""

from __future__ import annotations

import dataclasses
import json
import numbers
import os
import tempfile
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from gridiron_env.config import GameConfig
from gridiron_env.core import actions as A
from gridiron_env.core.engine import init, step
from gridiron_env.core.state import State

FORMAT = "gridiron-record-v1"
MAX_RECORD_CHARS = 2_000_000  # a record of 100,000 actions is ~600 KB
MAX_RECORD_ACTIONS = 100_000
MAX_LABEL_CHARS = 64
MODES = ("single", "hotseat", "watch")
CHECKPOINT_EVERY = 64
_KEYS = {"format", "config", "seed", "actions", "seats", "mode", "result", "saved"}
_MAX_SEED = 2**64 - 1


class RecordError(ValueError):
    """A record that cannot be read: bad JSON, a bad field, or an action that was not legal."""


def _is_int(x) -> bool:
    return isinstance(x, numbers.Integral) and not isinstance(x, (bool, np.bool_))


def make_record(config: GameConfig, seed: int, actions, seats=None, mode: str | None = None,
                state: State | None = None) -> dict:
    """A record dict of a game (``state``, when given, fills in the result)."""
    record = {"format": FORMAT, "config": dataclasses.asdict(config), "seed": int(seed),
              "actions": [int(a) for a in actions]}
    if seats is not None:
        record["seats"] = [str(s) for s in seats]
    if mode is not None:
        record["mode"] = mode
    if state is not None:
        record["result"] = {"score": state.score[0].tolist(),
                            "winner": int(state.winner[0]) if int(state.winner[0]) >= 0 else None,
                            "over": bool(state.terminated[0] or state.truncated[0])}
    record["saved"] = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return record


def dumps(record: dict) -> str:
    return json.dumps(record, separators=(",", ":"))


def save_record(record: dict, path) -> Path:
    """Write ``record`` as JSON to ``path`` atomically (a temporary file, then a rename)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".record-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(dumps(record))
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path


def parse_record_text(text) -> dict:
    """The record in ``text`` (a JSON str), checked as :func:`check_record` does."""
    if not isinstance(text, str):
        raise RecordError(f"a record is JSON text, got {type(text).__name__}")
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(f"a record is at most {MAX_RECORD_CHARS} characters, got {len(text)}")
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError) as err:
        raise RecordError(f"the record is not valid JSON: {err}") from None
    return check_record(obj)


def load_record(path) -> dict:
    """Read and check the record file ``path``."""
    path = Path(path)
    try:
        size = path.stat().st_size
    except OSError as err:
        raise RecordError(f"cannot read the record {path}: {err.strerror or err}") from None
    if size > 4 * MAX_RECORD_CHARS:  # (UTF-8: at most 4 bytes a character)
        raise RecordError(f"the record {path} is {size} bytes; a record is at most {MAX_RECORD_CHARS} characters")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise RecordError(f"cannot read the record {path}: {err}") from None
    return parse_record_text(text)


def check_record(obj) -> dict:
    """Check a record object field by field and replay its actions; returns a clean copy. Raises
    RecordError naming the field, or the first action that was not legal (its index and name)."""
    clean = check_record_fields(obj)
    clean, _ = _check(obj, clean, every=max(1, len(clean["actions"])))
    return clean


def check_record_fields(obj) -> dict:
    """Check a record's fields (not its actions' legality, nor its result); returns a clean copy."""
    if not isinstance(obj, dict):
        raise RecordError(f"a record is a JSON object, got {type(obj).__name__}")
    unknown = sorted(str(k) for k in obj if k not in _KEYS)
    if unknown:
        raise RecordError(f"unknown record field(s) {unknown}; allowed: {sorted(_KEYS)}")
    for key in ("format", "config", "seed", "actions"):
        if key not in obj:
            raise RecordError(f"the record has no '{key}' field")
    if obj["format"] != FORMAT:
        raise RecordError(f"record 'format' must be {FORMAT!r}, got {obj['format']!r}"[:200])
    if not isinstance(obj["config"], dict):
        raise RecordError(f"record 'config' must be an object of GameConfig fields, got {type(obj['config']).__name__}")
    try:
        config = GameConfig.from_dict(obj["config"])
    except (ValueError, TypeError) as err:
        raise RecordError(f"record 'config': {err}"[:300]) from None
    seed = obj["seed"]
    if not _is_int(seed) or not 0 <= seed <= _MAX_SEED:
        raise RecordError(f"record 'seed' must be an int from 0 to 2**64 - 1, got {seed!r}"[:200])
    actions = obj["actions"]
    if not isinstance(actions, list):
        raise RecordError(f"record 'actions' must be a list of action ids, got {type(actions).__name__}")
    if len(actions) > min(MAX_RECORD_ACTIONS, config.max_steps):
        raise RecordError(f"record 'actions' holds {len(actions)} actions; a game has at most "
                          f"{min(MAX_RECORD_ACTIONS, config.max_steps)} (max_steps)")
    for i, a in enumerate(actions):
        if not _is_int(a) or not 0 <= a < A.NUM_ACTIONS:
            raise RecordError(f"record 'actions'[{i}] must be an action id 0..{A.NUM_ACTIONS - 1}, got {a!r}"[:200])
    clean = {"format": FORMAT, "config": dataclasses.asdict(config), "seed": int(seed),
             "actions": [int(a) for a in actions]}
    if "seats" in obj:
        seats = obj["seats"]
        if (not isinstance(seats, list) or len(seats) != 2
                or not all(isinstance(s, str) and 0 < len(s) <= MAX_LABEL_CHARS and s.isprintable() for s in seats)):
            raise RecordError(f"record 'seats' must be two labels (printable text of 1-{MAX_LABEL_CHARS} "
                              "characters)")
        clean["seats"] = list(seats)
    if "mode" in obj:
        if obj["mode"] not in MODES:
            raise RecordError(f"record 'mode' must be one of {list(MODES)}, got {obj['mode']!r}"[:200])
        clean["mode"] = obj["mode"]
    if "saved" in obj:
        if not isinstance(obj["saved"], str) or len(obj["saved"]) > 40:
            raise RecordError("record 'saved' must be a time stamp (text of at most 40 characters)")
        clean["saved"] = obj["saved"]
    return clean


def _check(obj: dict, clean: dict, every: int) -> tuple[dict, list[State]]:
    """Replay ``clean`` (keeping every ``every``-th state) and check the record's result against it."""
    checkpoints = replay_states(clean, every=every)  # raises on the first illegal action
    final = checkpoints[-1]
    if "result" in obj:
        result = obj["result"]
        if not isinstance(result, dict) or set(result) - {"score", "winner", "over"}:
            raise RecordError("record 'result' must be an object with 'score', 'winner' and 'over'")
        expected = {"score": final.score[0].tolist(),
                    "winner": int(final.winner[0]) if int(final.winner[0]) >= 0 else None,
                    "over": bool(final.terminated[0] or final.truncated[0])}
        for key, value in result.items():
            try:
                same = json.dumps(value) == json.dumps(expected[key])  # (strict: true is not 1)
            except (TypeError, ValueError):
                same = False
            if not same:
                raise RecordError(f"record 'result' {key} is {value!r}, but its actions give {expected[key]!r}"[:200])
        clean["result"] = expected
    return clean, checkpoints


def _config_of(record: dict) -> GameConfig:
    return GameConfig.from_dict(record["config"])


def replay_states(record: dict, every: int = 1) -> list[State]:
    """The states of a (checked) record's game: after 0, ``every``, 2 ``every``, ... actions, and the
    last. Raises RecordError on the first action that is not legal where it was taken."""
    config = _config_of(record)
    state = init(1, seed=record["seed"], config=config)
    out = [state]
    actions = record["actions"]
    for i, a in enumerate(actions):
        if not bool(state.legal[0, a]):
            over = bool(state.terminated[0] or state.truncated[0])
            raise RecordError(f"record 'actions'[{i}] = {a} ('{A.ACTION_NAMES[a]}') is not legal there"
                              + (" (the game was already over)" if over else ""))
        state = step(state, np.array([a], dtype=np.int64), config=config)
        if (i + 1) % every == 0 or i + 1 == len(actions):
            out.append(state)
    return out


class Replay:
    """A checked record stepped through forwards and backwards: ``state_at(k)`` is the game after its
    first k actions (0 <= k <= ``length``)."""

    def __init__(self, record: dict):
        clean = check_record_fields(record)
        self.record, self._checkpoints = _check(record, clean, every=CHECKPOINT_EVERY)
        self.config = _config_of(self.record)
        self.length = len(self.record["actions"])

    def state_at(self, index: int) -> State:
        if not _is_int(index) or not 0 <= index <= self.length:
            raise RecordError(f"replay index must be an int from 0 to {self.length}, got {index!r}")
        k = index // CHECKPOINT_EVERY
        state = self._checkpoints[k]
        for a in self.record["actions"][k * CHECKPOINT_EVERY:index]:
            state = step(state, np.array([a], dtype=np.int64), config=self.config)
        return state

    def action_at(self, index: int) -> int | None:
        """The action that led to position ``index`` (None for the start)."""
        return self.record["actions"][index - 1] if index >= 1 else None
