"""Recorded reference episodes for the equivalence tests of the Gridiron envs (tests/test_generic_gridiron.py,
tests/test_generic_gridiron_drive.py, tests/test_generic_gridiron_options.py).

Those tests once played Gridiron's old learner classes (``LearnerBatch`` with whole-game or drive
episodes, ``VectorBase``, ``_SingleBase``, ``_DriveVectorEnv``, ``_DriveEnv``) side by side with the
generic envs. The old classes' outputs are recorded here as digests: every call a test makes on its
reference env (``reset``, ``step``, ``render``, ``action_masks``, ``state``, ...) gives one entry, a short
sha256 of the returned value (arrays: dtype, shape and bytes; dicts: sorted keys and values; an engine
State: every field; an exception: its type and message) or of what was raised, in call order, under the
test's id. A test now plays a *twin* in place of the old class, the current env made with the same
options (the drive and whole-game presets of ``gridiron_env.envs``), every output of which is checked
against the recorded digest before the test sees it; the test compares the env under test with the
twin as it compared it with the old class.

The file tests/data/reference_episodes.json was recorded from the old classes (at commit 9113157; they
were deleted after it). To record it again, only when a change of behaviour is meant (the recording then
comes from the current envs, the twins, so the old classes' outputs are no longer what is checked)::

    python tests/reference_episodes.py

which runs those three test files in record mode (environment variable ``GRIDIRON_RECORD_REFERENCES``
naming the file to write) and writes the file anew.
"""

from __future__ import annotations

import hashlib
import json
import numbers
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parent / "data" / "reference_episodes.json"
RECORD_VAR = "GRIDIRON_RECORD_REFERENCES"
TEST_FILES = ("test_generic_gridiron.py", "test_generic_gridiron_drive.py", "test_generic_gridiron_options.py")
_DIGEST_CHARS = 10  # 40 bits an entry: a changed output matching its old digest by chance is negligible


def recording() -> bool:
    return bool(os.environ.get(RECORD_VAR))


# ------------------------------------------------------------------------------------------------ digests

def _feed(h, value) -> None:
    """Feed ``value`` to the hash ``h`` in a canonical form (Python and numpy scalars alike)."""
    from gridiron_env.core.state import FIELDS, State

    if isinstance(value, np.ndarray):
        if value.dtype == object:
            h.update(f"O{value.shape}".encode())
            for item in value.ravel().tolist():
                _feed(h, item)
        else:
            h.update(f"A{value.dtype.str}{value.shape}".encode())
            h.update(np.ascontiguousarray(value).tobytes())
    elif isinstance(value, State):
        h.update(b"State")
        for name in FIELDS:
            _feed(h, getattr(value, name))
    elif isinstance(value, dict):
        h.update(f"D{len(value)}".encode())
        for key in sorted(value, key=str):
            _feed(h, key)
            _feed(h, value[key])
    elif isinstance(value, (list, tuple)):
        h.update(f"L{len(value)}".encode())
        for item in value:
            _feed(h, item)
    elif isinstance(value, (bool, np.bool_)):
        h.update(b"B1" if value else b"B0")
    elif isinstance(value, numbers.Integral):
        h.update(f"I{int(value)}".encode())
    elif isinstance(value, numbers.Real):
        h.update(f"F{float(value).hex()}".encode())
    elif isinstance(value, str):
        h.update(f"S{len(value)}:".encode() + value.encode())
    elif value is None:
        h.update(b"N")
    elif isinstance(value, BaseException):
        h.update(f"E{type(value).__name__}:{value}".encode())
    else:  # spaces and the like: their repr says what they are
        h.update(f"R{type(value).__name__}:{value!r}".encode())


def digest(name: str, value) -> str:
    h = hashlib.sha256(name.encode())
    _feed(h, value)
    return h.hexdigest()[:_DIGEST_CHARS]


# ------------------------------------------------------------------------------------------------ streams

class _Test:
    """The digest streams of one test (one per reference env it makes, in the order it makes them)."""

    def __init__(self, key: str, expected: dict | None):
        self.key, self.expected, self.streams = key, expected, []

    def new_stream(self) -> "_Stream":
        index = len(self.streams)
        name = f"{self.key}#{index}"
        stream = _Stream(name, None if self.expected is None else self.expected.get(name))
        if self.expected is not None and stream.expected is None:
            raise AssertionError(f"no recorded reference episodes for {name} (see tests/reference_episodes.py)")
        self.streams.append(stream)
        return stream

    def finish(self) -> None:
        for stream in self.streams:
            if stream.expected is not None:
                assert stream.seen == len(stream.expected), (
                    f"{stream.name}: the test read {stream.seen} of the {len(stream.expected)} recorded outputs")


class _Stream:
    def __init__(self, name: str, expected):
        self.name, self.expected, self.digests, self.seen = name, expected, [], 0

    def see(self, what: str, value) -> None:
        d = digest(what, value)
        if self.expected is None:
            self.digests.append(d)
            return
        i = self.seen
        assert i < len(self.expected), f"{self.name}: output {i} ({what}) is past the recorded episodes' end"
        assert d == self.expected[i], (f"{self.name}: output {i} ({what}) differs from the recorded reference "
                                       f"episodes (the old classes' outputs)")
        self.seen += 1


_current: _Test | None = None
_loaded: dict | None = None


def _expected() -> dict:
    global _loaded
    if _loaded is None:
        # each stream's digests are stored as one space-separated string (a line of the file per stream)
        _loaded = {name: digests.split() for name, digests in json.loads(DATA.read_text())["streams"].items()}
    return _loaded


def begin(key: str) -> None:
    """Start test ``key`` (its streams recorded, or checked against the file)."""
    global _current
    _current = _Test(key, None if recording() else _expected())


def end(passed: bool) -> None:
    """End the current test: check every recorded output was read; in record mode add its streams."""
    global _current
    test, _current = _current, None
    if test is None:
        return
    if not recording():
        if passed:
            test.finish()
        return
    path = Path(os.environ[RECORD_VAR])
    data = json.loads(path.read_text()) if path.exists() else {"streams": {}}
    for stream in test.streams:
        data["streams"][stream.name] = " ".join(stream.digests)
    path.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")


class Reference:
    """A reference env: every output of ``env`` (method results, exceptions raised, public attributes)
    goes through the current test's digest stream, recorded or checked; private attributes (``_core``)
    pass as they are."""

    def __init__(self, env):
        if _current is None:
            raise RuntimeError("a reference env is made inside a test (the module's autouse fixture)")
        object.__setattr__(self, "_env", env)
        object.__setattr__(self, "_stream", _current.new_stream())

    def __getattr__(self, name):
        value = getattr(self._env, name)
        if name.startswith("_"):
            return value
        if callable(value):
            def call(*args, **kwargs):
                try:
                    out = value(*args, **kwargs)
                except Exception as err:
                    self._stream.see(f"{name} raised", err)
                    raise
                self._stream.see(name, out)
                return out
            return call
        self._stream.see(name, value)
        return value

    def check(self, what: str, value) -> None:
        """Record (or check) something the test read off the reference env's run, such as what a spy
        opponent was given."""
        self._stream.see(what, value)


def main() -> None:
    tests = Path(__file__).resolve().parent
    out = DATA.with_suffix(".new.json")
    out.unlink(missing_ok=True)
    env = {**os.environ, RECORD_VAR: str(out)}
    code = subprocess.call([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                            *[str(tests / f) for f in TEST_FILES]], env=env, cwd=tests.parent)
    if code != 0:
        raise SystemExit(f"the tests failed while recording (exit {code}); {DATA} left as it was")
    data = json.loads(out.read_text())
    data["about"] = "per-call output digests of the Gridiron envs' equivalence tests: see tests/reference_episodes.py"
    DATA.parent.mkdir(exist_ok=True)
    DATA.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
    out.unlink()
    outputs = sum(len(digests.split()) for digests in data["streams"].values())
    print(f"wrote {DATA} ({len(data['streams'])} streams, {outputs} outputs)")


if __name__ == "__main__":
    main()
