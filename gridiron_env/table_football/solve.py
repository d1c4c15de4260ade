"""The exact solver of Table Football (ruling 17): optimal play and exact win probabilities.

``solve(config) -> Solution``. Every probability is a win probability with a draw counted 1/2.

- Basic game (``clock=False``): states (score of the team on offence, score of the other, node); values
  are the fixed point of the Bellman equations, level by level of the total score, by policy iteration
  with exact sparse solves (``solve_basic``). The game can loop without a score; the fixed point is exact.
- Clock version (``clock=True``): backward induction over the boxes (``solve_clock``); the score difference
  is capped at ``diff_cap`` points (a difference beyond it counts as the cap).

The engine's cap on plays is ignored (a truncated game is valued as if it went on). ``Solution.value``
is the win probability of the team with the ball (``state.offence``) in every phase, also when the
other team is to decide; ``value_for(state, team)`` of any team; ``action_values`` of the team to act;
``policy`` the optimal action of the team to act (-1 in finished games).

``python -m gridiron_env.table_football.solve`` prints the summary table of both versions and saves the
solutions (npz archives, a clock solution as a folder of raw arrays; no pickles, validated on load).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import actions as A
from .config import TableFootballConfig
from .model import build_model
from .state import CHOOSE, DRAW, RECOVERY, State

FORMAT = "table-football-solution-v1"


def _recovery_kind(state: State) -> np.ndarray:
    total = state.last_roll.sum(axis=1)
    return np.where(state.phase == RECOVERY, np.where(total == 3, 0, 1), -1)


class Solution:
    """Exact values and the optimal policy of one config (see the module docstring)."""

    def __init__(self, config: TableFootballConfig, arrays: dict):
        self.config = config
        self.model = build_model(config.downs, config.recovery_option)
        self.arrays = arrays

    # -- the interface --------------------------------------------------------------------------------------
    @property
    def opener_win_probability(self) -> float:
        """The team that opens on offence, both sides playing optimally."""
        return float(self.arrays["opener_win_probability"])

    def value(self, state: State) -> np.ndarray:
        """float64 [B]: exact win probability of the team with the ball (``state.offence``)."""
        return self.value_for(state, state.offence)

    def value_for(self, state: State, team) -> np.ndarray:
        """float64 [B]: exact win probability of ``team`` (an int or one per game)."""
        team = np.broadcast_to(np.asarray(team, dtype=np.int64), (state.batch_size,))
        v = self._offence_value(state)
        v = np.where(state.offence == team, v, 1.0 - v)
        over = state.terminated
        result = np.where(state.winner == DRAW, 0.5, (state.winner == team).astype(float))
        return np.where(over, result, v)

    def action_values(self, state: State) -> np.ndarray:
        """float64 [B, NUM_ACTIONS]: exact win probability of the team to act after each action; NaN for
        illegal actions and finished games."""
        q = self._action_values(state)
        return np.where(state.legal, q, np.nan)

    def policy(self, state: State) -> np.ndarray:
        """int64 [B]: an optimal action of the team to act (the lowest id among equal best); -1 when over."""
        q = self.action_values(state)
        live = state.legal.any(axis=1)
        best = np.argmax(np.where(np.isnan(q), -np.inf, q), axis=1)
        return np.where(live, best, -1).astype(np.int64)

    # -- per version ----------------------------------------------------------------------------------------
    def _offence_value(self, state):
        raise NotImplementedError

    def _action_values(self, state):
        raise NotImplementedError

    def save(self, path) -> None:
        """Write the solution: a path ending in ``.npz`` gets one compressed archive (small solutions), any
        other a folder of raw ``.npy`` arrays and ``meta.json`` (:func:`save_folder`), which loads memory-mapped
        in seconds (the clock solution: its 1 GB archive took minutes to inflate)."""
        if str(path).endswith(".npz"):
            meta = json.dumps({"format": FORMAT, "config": self.config.to_dict(), "kind": type(self).__name__})
            np.savez_compressed(path, meta=np.array(meta), **self.arrays)
        else:
            save_folder(self, path)


class BasicSolution(Solution):
    """The basic game: ``arrays["V"]`` [target, target, nodes], the win probability of the team on offence
    with score a against b at a node."""

    def _indices(self, state: State):
        m = self.model
        rows = np.arange(state.batch_size)
        off = state.offence.astype(np.int64)
        T = self.config.target_score
        a = np.minimum(state.score[rows, off].astype(np.int64), T - 1)
        b = np.minimum(state.score[rows, 1 - off].astype(np.int64), T - 1)
        node = m.node_of(state.position.astype(np.int64), state.line_to_gain.astype(np.int64),
                         state.down.astype(np.int64), _recovery_kind(state))
        return a, b, node

    def _offence_value(self, state):
        a, b, node = self._indices(state)
        return self.arrays["V"][a, b, node]

    def _action_values(self, state):
        from .solve_basic import action_values

        a, b, node = self._indices(state)
        return action_values(self.model, self.arrays["V"], self.config.target_score, a, b, node)

    def policy(self, state: State) -> np.ndarray:
        """int64 [B]: the solver's optimal action (the lowest id among the best), -1 when over."""
        a, b, node = self._indices(state)
        return np.where(state.legal.any(axis=1), self.arrays["P"][a, b, node], -1).astype(np.int64)


def _check_supported(config: TableFootballConfig) -> None:
    if not isinstance(config, TableFootballConfig):
        raise ValueError(f"solve needs a TableFootballConfig, got {type(config).__name__}")
    if config.clock and config.clock_target:
        raise ValueError("the solver handles clock games with the target off (clock_target=False, ruling 15): "
                         "its clock states hold the score difference, not the scores")


_MEMO: dict = {}


def solve(config: TableFootballConfig | None = None, diff_cap: int | None = None, cache: bool = True,
          progress=None) -> Solution:
    """The exact solution of ``config`` (memoised; clock solutions are also cached on disk)."""
    config = config or TableFootballConfig()
    _check_supported(config)
    key_config = config.replace(max_plays=TableFootballConfig().max_plays)  # the solver ignores the cap
    if config.clock:
        from .solve_clock import DEFAULT_DIFF_CAP, solve_clock_solution

        cap = DEFAULT_DIFF_CAP if diff_cap is None else diff_cap
        key = (key_config, cap)
        if key not in _MEMO:
            _MEMO[key] = solve_clock_solution(key_config, cap, cache=cache, progress=progress)
        sol = _MEMO[key]
    else:
        key = (key_config, None)
        if key not in _MEMO:
            from .solve_basic import solve_values

            m = build_model(config.downs, config.recovery_option)
            V, P = solve_values(m, config.target_score, progress)
            owp = float(V[0, 0, m.first(20)])
            _MEMO[key] = BasicSolution(key_config, {"V": V, "P": P, "opener_win_probability": np.array(owp)})
        sol = _MEMO[key]
    if sol.config != config:
        sol = type(sol)(config, sol.arrays)
    return sol


MAX_SOLUTION_BYTES = 8 << 30  # all arrays of one file, uncompressed (the clock solution is about 1 GB)
MAX_META_BYTES = 1 << 16


def _read_members(path) -> dict[str, np.ndarray]:
    """The arrays of a solution file, read without trusting it: each member's ``.npy`` header (dtype, shape)
    is checked against the size the zip directory declares, and the declared sizes are capped, before any
    array is allocated; nothing is unpickled. Raises ValueError naming the file."""
    import zipfile
    import zlib

    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
            names = [i.filename for i in infos]
            if len(set(names)) != len(names) or not all(n.endswith(".npy") for n in names):
                raise ValueError("its members are not distinct .npy arrays")
            if sum(i.file_size for i in infos) > MAX_SOLUTION_BYTES:
                raise ValueError(f"its arrays claim more than {MAX_SOLUTION_BYTES >> 30} GiB")
            data = {}
            for info in infos:
                with archive.open(info) as f:
                    version = np.lib.format.read_magic(f)
                    readers = {(1, 0): np.lib.format.read_array_header_1_0,
                               (2, 0): np.lib.format.read_array_header_2_0}
                    if version not in readers:
                        raise ValueError(f"{info.filename} has .npy version {version}")
                    shape, fortran, dtype = readers[version](f)
                    if dtype.hasobject or dtype.kind not in "biuUf" or fortran:
                        raise ValueError(f"{info.filename} holds {dtype} arrays")
                    size = int(np.prod(shape, dtype=object)) * dtype.itemsize
                    if size != info.file_size - f.tell():
                        raise ValueError(f"{info.filename}: its header does not fit its size")
                    if info.filename == "meta.npy" and size > MAX_META_BYTES:
                        raise ValueError("its meta record is too long")
                    raw = f.read(size + 1)
                    if len(raw) != size:
                        raise ValueError(f"{info.filename} is truncated")
                    data[info.filename[:-4]] = np.frombuffer(raw, dtype=dtype).reshape(shape).copy()
            return data
    except ValueError:
        raise
    except (OSError, EOFError, zipfile.BadZipFile, zlib.error, NotImplementedError, RuntimeError,
            OverflowError, MemoryError) as exc:
        raise ValueError(f"not a readable solution file ({type(exc).__name__}: {exc})") from None


FOLDER_FORMAT = "table-football-solution-folder-v1"
_META_FILE = "meta.json"


def read_archive(path) -> tuple:
    """A solution archive's ``(meta, arrays)``: its members read as ``_read_members`` does (headers checked,
    sizes capped, nothing unpickled) and its ``meta`` member parsed as JSON; any problem is a ValueError
    naming the file. Shared by every solved game's ``load_solution``."""
    try:
        data = _read_members(path)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None
    if "meta" not in data:
        raise ValueError(f"{path}: no meta record")
    try:
        meta = json.loads(str(data.pop("meta")))
    except ValueError as exc:
        raise ValueError(f"{path}: bad meta record ({exc})") from None
    return meta, data


def save_folder(solution: Solution, path) -> None:
    """``path`` as a folder: ``meta.json`` (format, config, kind, the 0-d arrays' values, each array's dtype
    and shape) and one raw little-endian ``.npy`` per array of more than one value, written into a fresh
    folder beside it and moved into place whole (an interrupted write leaves no half solution)."""
    import shutil
    import tempfile

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays, scalars = {}, {}
    for name, arr in solution.arrays.items():
        arr = np.asarray(arr)
        if arr.ndim == 0:
            scalars[name] = arr.item()
        else:
            arrays[name] = np.ascontiguousarray(arr, dtype=arr.dtype.newbyteorder("<"))
    meta = {"format": FOLDER_FORMAT, "config": solution.config.to_dict(), "kind": type(solution).__name__,
            "scalars": scalars, "arrays": {k: {"dtype": v.dtype.str, "shape": list(v.shape)} for k, v in arrays.items()}}
    tmp = Path(tempfile.mkdtemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent))
    try:
        tmp.chmod(0o755)  # (mkdtemp makes it private; a solution is no secret)
        for name, arr in arrays.items():
            np.save(tmp / f"{name}.npy", arr, allow_pickle=False)
        (tmp / _META_FILE).write_text(json.dumps(meta))
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        os.replace(tmp, path)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _read_folder(path: Path) -> tuple[dict, dict[str, np.ndarray]]:
    """(meta record, arrays) of a solution folder, read without trusting it: the meta record is size-capped
    JSON; each array its meta names must be a plain ``.npy`` file whose header (version, dtype, order,
    shape) is the one the record states and whose size fits that header exactly, and is then memory-mapped
    read-only (nothing is unpickled, nothing allocated for it). Raises ValueError."""
    meta_path = path / _META_FILE
    try:
        if meta_path.stat().st_size > MAX_META_BYTES:
            raise ValueError("its meta record is too long")
        meta = json.loads(meta_path.read_text())
        declared = meta["arrays"]
        scalars = meta["scalars"]
        if not isinstance(declared, dict) or not isinstance(scalars, dict):
            raise TypeError("'arrays' and 'scalars' must be objects")
    except ValueError:
        raise
    except (OSError, KeyError, TypeError, UnicodeDecodeError) as exc:
        raise ValueError(f"bad meta record ({type(exc).__name__}: {exc})") from None
    data, total = {}, 0
    for name, spec in declared.items():
        if not isinstance(name, str) or not name.isidentifier() or name in scalars:
            raise ValueError(f"bad array name {name!r}")
        try:
            dtype, shape = np.dtype(spec["dtype"]), tuple(int(x) for x in spec["shape"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"bad record of array {name} ({exc})") from None
        if dtype.hasobject or dtype.kind not in "biuf" or any(x < 0 for x in shape):
            raise ValueError(f"array {name} is declared {dtype} {shape}")
        size = int(np.prod(shape, dtype=object)) * dtype.itemsize
        total += size
        if total > MAX_SOLUTION_BYTES:
            raise ValueError(f"its arrays claim more than {MAX_SOLUTION_BYTES >> 30} GiB")
        file = path / f"{name}.npy"
        try:
            with open(file, "rb") as f:
                version = np.lib.format.read_magic(f)
                readers = {(1, 0): np.lib.format.read_array_header_1_0, (2, 0): np.lib.format.read_array_header_2_0}
                if version not in readers:
                    raise ValueError(f"{name}.npy has .npy version {version}")
                got_shape, fortran, got_dtype = readers[version](f)
                offset = f.tell()
            if got_dtype != dtype or tuple(got_shape) != shape or fortran:
                raise ValueError(f"{name}.npy holds {got_dtype} {got_shape}, its record says {dtype} {shape}")
            if file.stat().st_size != offset + size:
                raise ValueError(f"{name}.npy is {file.stat().st_size} bytes, its header needs {offset + size}")
            data[name] = np.memmap(file, dtype=dtype, mode="r", offset=offset, shape=shape) if size else \
                np.zeros(shape, dtype=dtype)
        except ValueError:
            raise
        except (OSError, EOFError) as exc:
            raise ValueError(f"{name}.npy is not readable ({type(exc).__name__}: {exc})") from None
    for name, value in scalars.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"bad scalar {name!r}: {value!r}")
        data[name] = np.array(value, dtype=np.int64 if isinstance(value, int) else np.float64)
    return meta, data


def _check_unit_range(name: str, arr: np.ndarray, path) -> None:
    """ValueError unless every value of a float array is finite and in [0, 1]; a block at a time (a
    memory-mapped array is read once, with no array-sized temporary). NaN fails (its min is NaN)."""
    flat = arr.reshape(-1)
    block = 1 << 22
    for start in range(0, max(flat.size, 1), block):
        part = flat[start:start + block]
        if part.size and not (part.min() >= 0.0 and part.max() <= 1.0):
            raise ValueError(f"{path}: {name} holds values outside [0, 1]")


def load_solution(path) -> Solution:
    """A solution saved by ``Solution.save``, an ``.npz`` archive or a solution folder (validated: format,
    config, array shapes and ranges; a folder's arrays come memory-mapped, read-only)."""
    path_obj = Path(path)
    if path_obj.is_dir():
        try:
            meta, data = _read_folder(path_obj)
        except ValueError as exc:
            raise ValueError(f"{path}: {exc}") from None
        expected = FOLDER_FORMAT
    else:
        meta, data = read_archive(path)
        expected = FORMAT
    try:
        config = TableFootballConfig.from_dict(meta["config"])
        kind = meta["kind"]
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: bad meta record ({exc})") from None
    if meta.get("format") != expected:
        raise ValueError(f"{path}: format {meta.get('format')!r}, expected {expected!r}")
    classes = {"BasicSolution": BasicSolution}
    from .solve_clock import ClockSolution, validate_clock_arrays

    classes["ClockSolution"] = ClockSolution
    if kind not in classes or (kind == "ClockSolution") != config.clock:
        raise ValueError(f"{path}: kind {kind!r} does not fit the config")
    if kind == "BasicSolution":
        m = build_model(config.downs, config.recovery_option)
        T = config.target_score
        V, P = data.get("V"), data.get("P")
        if set(data) != {"V", "P", "opener_win_probability"} or V.shape != (T, T, m.n_nodes) \
                or V.dtype != np.float64 or P.shape != V.shape or P.dtype != np.int8:
            raise ValueError(f"{path}: arrays do not fit the basic game of target {T}")
        a, b, n = np.meshgrid(np.arange(T), np.arange(T), np.arange(m.n_nodes), indexing="ij")
        if not (m.node_rows[n, P.astype(np.int64).clip(0, A.NUM_ACTIONS - 1)] >= 0).all() or (P < 0).any():
            raise ValueError(f"{path}: P holds an action that is not legal at its node")
    else:
        validate_clock_arrays(config, data, path)
    for name, arr in data.items():
        if arr.dtype.kind == "f":
            _check_unit_range(name, arr, path)
    return classes[kind](config, data)


# --- exact evaluation of a stationary policy ----------------------------------------------------------------

@dataclass(frozen=True)
class PolicyValue:
    """Exact win probabilities of a policy against the optimal opponent (a draw counts 1/2)."""

    opening: float  # the policy's team opens on offence
    receiving: float  # the optimal team opens
    overall: float  # after the coin toss (1/2 each)


def exact_win_probability(agent_or_policy, config: TableFootballConfig | None = None,
                          solution: Solution | None = None) -> PolicyValue:
    """The exact win probability of a stationary policy against the optimal opponent (``solution``'s
    policy), by policy evaluation in the solver's state space.

    ``agent_or_policy``: an agent (``act(state, config, games)``) or a function ``state -> actions``; it
    is asked once in every state of the space, as the team to act there, and its answers are its policy.
    The clock version (``solve_clock.evaluate_clock_policy``): by backward induction over the boxes, the
    policy asked in big batches of engine states, one box layer at a time; for the default clock config
    about 10^9 states, for ``OptimalAgent`` roughly 10 hours on the shared 2-core machine (RULES.md).
    """
    config = config or TableFootballConfig()
    if solution is not None and solution.config.replace(max_plays=1) != config.replace(max_plays=1):
        raise ValueError("the solution given is of another config than the one to evaluate")
    solution = solution or solve(config)
    if config.clock:
        from .solve_clock import evaluate_clock_policy

        opening, receiving = evaluate_clock_policy(agent_or_policy, solution)
        return PolicyValue(opening, receiving, 0.5 * (opening + receiving))
    from .solve_basic import evaluate_policies

    m = solution.model
    T = config.target_score
    states = enumerate_states(config)
    if hasattr(agent_or_policy, "act"):
        if hasattr(agent_or_policy, "reset"):
            agent_or_policy.reset(np.arange(states.batch_size))
        actions = np.asarray(agent_or_policy.act(states, config, np.arange(states.batch_size)), dtype=np.int64)
    else:
        actions = np.asarray(agent_or_policy(states), dtype=np.int64)
    if actions.shape != (states.batch_size,):
        raise ValueError(f"the policy gave shape {actions.shape}, expected ({states.batch_size},)")
    ok = (actions >= 0) & (actions < A.NUM_ACTIONS)
    ok[ok] = states.legal[np.flatnonzero(ok), actions[ok]]
    if not ok.all():
        g = int(np.flatnonzero(~ok)[0])
        raise ValueError(f"the policy chose illegal action {int(actions[g])} in state {g}")
    a, b, node = solution._indices(states)
    rows = m.node_rows[node, actions]
    agent_rows = np.full((T, T, m.n_nodes), -1, dtype=np.int64)
    agent_rows[a, b, node] = rows
    best = solution.policy(states)
    opt_rows = np.full((T, T, m.n_nodes), -1, dtype=np.int64)
    opt_rows[a, b, node] = m.node_rows[node, best]
    WP, WO = evaluate_policies(m, T, agent_rows, opt_rows)
    f20 = m.first(20)
    opening, receiving = float(WP[0, 0, f20]), float(WO[0, 0, f20])
    return PolicyValue(opening, receiving, 0.5 * (opening + receiving))


def enumerate_states(config: TableFootballConfig) -> State:
    """Every decision state of the basic game's solver space, team one with the ball, as a State batch:
    (score of the offence, score of the other, node) in C order."""
    from .engine import recompute_legal

    m = build_model(config.downs, config.recovery_option)
    T = config.target_score
    a, b, n = (x.ravel() for x in np.meshgrid(np.arange(T), np.arange(T), np.arange(m.n_nodes), indexing="ij"))
    s = State.empty(a.size)
    s.offence[:] = 0
    s.snap_offence[:] = 0
    s.score[:, 0], s.score[:, 1] = a, b
    f = np.where(n < m.n_fields, n, (n - m.n_fields) // 2)
    rec = n >= m.n_fields
    s.position[:], s.line_to_gain[:], s.down[:] = m.pos[f], m.ltg[f], m.down[f]
    s.phase[:] = np.where(rec, RECOVERY, CHOOSE)
    kind = (n - m.n_fields) % 2
    s.last_play[:] = np.where(rec, 0, -1)
    s.last_roll[:, 0] = np.where(rec, np.where(kind == 0, 1, 5), 0)
    s.last_roll[:, 1] = np.where(rec, np.where(kind == 0, 2, 6), 0)
    s.plays[:] = np.where(rec, 1, 0)
    s.steps[:] = s.plays
    recompute_legal(s, config)
    return s


# --- the command ---------------------------------------------------------------------------------------------

def default_cache_dir() -> Path:
    """Where clock solutions are cached: $TABLE_FOOTBALL_CACHE, else $XDG_CACHE_HOME/gridiron_env, else
    ~/.cache/gridiron_env."""
    if os.environ.get("TABLE_FOOTBALL_CACHE"):
        return Path(os.environ["TABLE_FOOTBALL_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "gridiron_env"


def config_digest(config: TableFootballConfig, extra: str = "") -> str:
    text = json.dumps(config.to_dict(), sort_keys=True) + extra
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gridiron_env.table_football.solve",
                                     description="Solve Table Football exactly; print a summary, save the solutions.")
    parser.add_argument("--out", default=".", help="directory for the solution files (default: here)")
    parser.add_argument("--basic-only", action="store_true", help="skip the clock version")
    parser.add_argument("--all", action="store_true",
                        help="also the clock version with the recovery option (a long solve)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    configs = [("basic", TableFootballConfig()), ("basic, 3 downs", TableFootballConfig(downs=3)),
               ("basic, recovery option", TableFootballConfig(recovery_option=True))]
    if not args.basic_only:
        configs.append(("clock", TableFootballConfig(clock=True)))
        if args.all:
            configs.append(("clock, recovery option", TableFootballConfig(clock=True, recovery_option=True)))
    for label, config in configs:
        t0 = time.perf_counter()
        sol = solve(config)
        seconds = time.perf_counter() - t0
        # a clock solution as a folder of raw arrays (1.7 GB, memory-mapped on load), the small ones as archives
        name = "table_football_" + label.replace(", ", "_").replace(" ", "_") + ("" if config.clock else ".npz")
        sol.save(out / name)
        rows.append((label, sol.opener_win_probability, seconds, name))
    print(f"{'version':<26} {'opener wins':>12} {'seconds':>8}  file")
    for label, owp, seconds, name in rows:
        print(f"{label:<26} {owp:>12.9f} {seconds:>8.1f}  {out / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
