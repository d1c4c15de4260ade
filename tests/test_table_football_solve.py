"""The exact solver of Table Football (ruling 17): its model against the engine, its fixed point, its
clock cap, its files, and Monte-Carlo play of the engine with fixed seeds."""

import numpy as np
import pytest

import gridiron_env.table_football as tf
from gridiron_env.table_football import actions as A
from gridiron_env.table_football.agents import FixedAgent, OptimalAgent, RandomAgent, play_games
from gridiron_env.table_football.solve import exact_win_probability, load_solution, solve

BASIC = tf.TableFootballConfig()
SMALL_CLOCK = tf.TableFootballConfig(clock=True, quarter_boxes=4, two_minute_boxes=2, timeouts_per_half=1,
                                     overtime_timeouts=1)
SMALL_CLOCK_OPTION = SMALL_CLOCK.replace(recovery_option=True)
SMALL_OPTION = tf.TableFootballConfig(target_score=10, recovery_option=True)


class _NeedMore(Exception):
    def __init__(self, high, count):
        self.high, self.count = high, count


class _PathChance:
    """Gives the draws of a fixed path, asking for more when the path runs out (for enumeration)."""

    def __init__(self, path):
        self.path = list(path)
        self.used = 0

    def draw(self, state, games, high, count, what=""):
        if np.asarray(games).size == 0:
            return np.zeros((0, count), dtype=np.int64)
        if self.used + count > len(self.path):
            raise _NeedMore(int(np.max(high)), count)
        out = np.array(self.path[self.used:self.used + count], dtype=np.int64)[None, :]
        self.used += count
        return out


def outcomes(state, action, config):
    """Every (probability, next state) of one game's action, by walking all dice through the engine."""
    out = []
    stack = [([], 1.0)]
    while stack:
        path, prob = stack.pop()
        try:
            nxt = tf.step(state, np.array([action]), config, chance=_PathChance(path))
        except _NeedMore as need:
            for v in range(need.high ** need.count):
                digits = [(v // need.high ** i) % need.high for i in range(need.count)]
                stack.append((path + digits, prob / need.high ** need.count))
            continue
        out.append((prob, nxt))
    assert abs(sum(p for p, _ in out) - 1) < 1e-12
    return out


def sample_states(config, n, seed, steps=400):
    """States met in random play (every phase the config has), one game each."""
    s = tf.init(64, seed, config)
    agent = RandomAgent()
    agent.reset(np.arange(64) + seed)
    rng = np.random.default_rng(seed)
    seen = []
    for _ in range(steps):
        if s.is_over().all():
            break
        s = tf.step(s, agent.act(s, config), config)
        live = np.flatnonzero(~s.is_over())
        if live.size:
            seen.append(s.take(rng.choice(live, 1)))
    idx = rng.choice(len(seen), min(n, len(seen)), replace=False)
    # rarer phases first, so that every phase is checked
    chosen = [seen[i] for i in idx]
    for ph in range(1, 6):
        extra = [x for x in seen if x.phase[0] == ph][:3]
        chosen += extra
    return chosen


def _check_against_engine(config, sol, states):
    checked_phases = set()
    for s in states:
        q = sol.action_values(s)[0]
        decider = int(s.to_act[0])
        for a in np.flatnonzero(s.legal[0]):
            expected = sum(p * float(sol.value_for(nxt, decider)[0]) for p, nxt in outcomes(s, int(a), config))
            assert abs(q[a] - expected) < 1e-11, (tf.to_diagram(s), tf.ACTION_NAMES[a], q[a], expected)
        best = np.nanmax(q)
        v = float(sol.value_for(s, decider)[0])
        assert abs(v - best) < 1e-11, (tf.to_diagram(s), v, best)
        assert q[int(sol.policy(s)[0])] >= best - 1e-12
        checked_phases.add(int(s.phase[0]))
    return checked_phases


@pytest.fixture(scope="module")
def basic():
    return solve(BASIC)


def test_basic_values_are_the_engine_one_step_look_ahead(basic):
    phases = _check_against_engine(BASIC, basic, sample_states(BASIC, 25, 1))
    assert phases == {0}


def test_recovery_option_values_are_the_engine_one_step_look_ahead():
    sol = solve(SMALL_OPTION)
    phases = _check_against_engine(SMALL_OPTION, sol, sample_states(SMALL_OPTION, 20, 2))
    assert phases == {0, 1}


def test_clock_values_are_the_engine_one_step_look_ahead():
    sol = solve(SMALL_CLOCK_OPTION, diff_cap=20, cache=False)
    phases = _check_against_engine(SMALL_CLOCK_OPTION, sol, sample_states(SMALL_CLOCK_OPTION, 20, 3, steps=150))
    assert phases == {0, 1, 2, 3, 4, 5}


@pytest.mark.parametrize("config", [SMALL_CLOCK_OPTION, SMALL_CLOCK.replace(quarter_boxes=6, two_minute_boxes=3)],
                         ids=["option", "six boxes"])
def test_clock_solution_answers_a_mixed_batch_as_each_time_apart(config):
    """The clock solution works a whole batch at once, each game at its own quarter and boxes: the values
    and the policy of a batch mixing every time and phase equal those of its games asked group by group
    of one (quarter, boxes), the old way, exactly."""
    sol = solve(config, diff_cap=20, cache=False)
    s = tf.init(64, 4, config)
    rng = np.random.default_rng(4)
    from agents.base import pick_uniform_legal
    seen = []
    for i in range(60):
        a = pick_uniform_legal(s.legal, rng.random(64))
        s = tf.step(s, np.where(s.legal[:, A.DECLINE] & (rng.random(64) < 0.4), A.DECLINE, a), config)
        if i % 4 == 3:
            seen.append(s.copy())
    batch = tf.State.concatenate(seen)
    live = ~batch.terminated
    times = set(zip(batch.quarter[live].tolist(), batch.boxes[live].tolist()))
    assert len(times) >= 4 * config.quarter_boxes and set(batch.phase[live].tolist()) >= {0, 2, 3, 4, 5}
    values, action_values, policy = sol.value(batch), sol.action_values(batch), sol.policy(batch)
    for q, b in times:
        g = np.flatnonzero(live & (batch.quarter == q) & (batch.boxes == b))
        part = batch.take(g)
        assert np.array_equal(sol.value(part), values[g])
        assert np.array_equal(sol.action_values(part), action_values[g], equal_nan=True)
        assert np.array_equal(sol.policy(part), policy[g])


def test_basic_fixed_point_and_symmetry(basic):
    V = basic.arrays["V"]
    assert V.shape == (28, 28, basic.model.n_nodes) and (V >= 0).all() and (V <= 1).all()
    # the opener's chance and the receiver's add up to 1 (the receiver starts at its own 20 after a toss)
    s = tf.init(2, 0, BASIC)
    v = basic.value_for(s, s.opener)
    assert np.allclose(v, basic.opener_win_probability, atol=1e-15)
    # more points never hurt (26 and 27 are worth the same: any score but a safety reaches 28)
    f = basic.model.first(20)
    assert (np.diff(V[:, 5, f]) >= -1e-15).all() and (np.diff(V[5, :, f]) <= 1e-15).all()
    assert V[27, 5, f] > V[0, 5, f] + 0.4


def test_value_of_finished_games_and_a_draw():
    s = tf.from_diagram(
        "table football diagram v1\nphase: game_over\nto act: -\noffence: two\nsnap offence: one\nopener: one\n"
        "score: 28-3\nball: 20\nline to gain: 30\ndown: 1\nfield: G...o.|.............G\nquarter: -\nboxes: -\n"
        "time outs: -\npending cost: 0\nlast play: run 6-6\nplays: 30\nsteps: 30\nresult: one wins\n")
    sol = solve(tf.TableFootballConfig(target_score=28))
    assert sol.value_for(s, 0)[0] == 1.0 and sol.value(s)[0] == 0.0 and sol.policy(s)[0] == -1


def test_monte_carlo_optimal_against_optimal_matches_the_opener_win_probability(basic):
    agent = OptimalAgent(BASIC, basic)
    n = 3000
    r = play_games(agent, agent, n, seed=100, config=BASIC)
    rate = float((r.winner == r.opener).mean())
    sigma = np.sqrt(0.25 / n)
    assert abs(rate - basic.opener_win_probability) < 4 * sigma  # 4 sigma, fixed seeds


def test_monte_carlo_against_a_fixed_policy_matches_exact_win_probability(basic):
    fixed = FixedAgent(0.5)
    pv = exact_win_probability(fixed, BASIC, basic)
    assert 0 < pv.overall < 0.5  # the optimal agent beats it
    n = 3000
    r = play_games(fixed, OptimalAgent(BASIC, basic), n, seed=200, config=BASIC)
    assert abs(r.a_rate - pv.overall) < 4 * np.sqrt(0.25 / n)
    # evaluating the optimal policy itself gives the solver's values back
    own = exact_win_probability(lambda s: basic.policy(s), BASIC, basic)
    assert abs(own.opening - basic.opener_win_probability) < 1e-12 and abs(own.overall - 0.5) < 1e-12


def test_optimal_agent_beats_random_and_fixed_policies(basic):
    r = play_games(OptimalAgent(BASIC, basic), RandomAgent(), 400, seed=300, config=BASIC)
    assert r.a_rate > 0.9
    always_run = exact_win_probability(lambda s: np.zeros(s.batch_size, dtype=np.int64), BASIC, basic)
    assert always_run.overall < 0.5 - 0.02


def test_clock_cap_moves_no_start_value_by_more_than_1e9():
    lo = solve(SMALL_CLOCK, diff_cap=20, cache=False)
    hi = solve(SMALL_CLOCK, diff_cap=26, cache=False)
    assert abs(lo.opener_win_probability - hi.opener_win_probability) < 1e-9
    start = tf.init(4, 0, SMALL_CLOCK)  # the opening state of either coin toss, through value()
    assert np.abs(lo.value(start) - hi.value(start)).max() < 1e-9
    # and a cap too small does move it (the test can fail)
    assert abs(solve(SMALL_CLOCK, diff_cap=8, cache=False).opener_win_probability - hi.opener_win_probability) > 1e-7


def test_clock_monte_carlo_optimal_against_optimal():
    sol = solve(SMALL_CLOCK, diff_cap=20, cache=False)
    agent = OptimalAgent(SMALL_CLOCK, sol)
    n = 2000
    r = play_games(agent, agent, n, seed=400, config=SMALL_CLOCK)
    points = np.where(r.winner == r.opener, 1.0, np.where(r.winner == tf.DRAW, 0.5, 0.0))
    assert abs(points.mean() - sol.opener_win_probability) < 4 * np.sqrt(0.25 / n)
    r = play_games(agent, FixedAgent(0.5), 600, seed=500, config=SMALL_CLOCK)
    assert r.a_rate > 0.5


def test_solution_file_round_trip_and_validation(tmp_path, basic):
    path = tmp_path / "basic.npz"
    basic.save(path)
    back = load_solution(path)
    assert back.config == BASIC and np.array_equal(back.arrays["V"], basic.arrays["V"])
    bad = dict(np.load(path, allow_pickle=False))
    bad["V"] = bad["V"][:, :, :10]
    np.savez(tmp_path / "bad.npz", **bad)
    with pytest.raises(ValueError, match="arrays do not fit"):
        load_solution(tmp_path / "bad.npz")
    bad = dict(np.load(path, allow_pickle=False))
    bad["V"] = bad["V"] * 2
    np.savez(tmp_path / "bad2.npz", **bad)
    with pytest.raises(ValueError, match="outside"):
        load_solution(tmp_path / "bad2.npz")
    np.savez(tmp_path / "pickled.npz", meta=np.array([{"x": 1}], dtype=object), V=bad["V"])
    with pytest.raises(ValueError):
        load_solution(tmp_path / "pickled.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="not a readable"):
        load_solution(tmp_path / "junk.npz")
    small = solve(SMALL_CLOCK, diff_cap=20, cache=False)
    small.save(tmp_path / "clock.npz")
    back = load_solution(tmp_path / "clock.npz")
    s = tf.init(8, 3, SMALL_CLOCK)
    assert np.array_equal(back.value(s), small.value(s))


def test_solver_refuses_what_it_cannot_solve():
    with pytest.raises(ValueError, match="clock_target"):
        solve(tf.TableFootballConfig(clock=True, clock_target=True))
    with pytest.raises(ValueError, match="diff_cap"):
        solve(SMALL_CLOCK, diff_cap=0, cache=False)


@pytest.mark.slow
def test_full_clock_cap_and_monte_carlo():
    from gridiron_env.table_football.solve_clock import DEFAULT_DIFF_CAP

    config = tf.TableFootballConfig(clock=True)
    sol = solve(config)  # the default cap (60)
    hi = solve(config, diff_cap=DEFAULT_DIFF_CAP + 10)
    start = tf.init(4, 0, config)
    assert np.abs(sol.value(start) - hi.value(start)).max() < 1e-9  # measured: 1.9e-10 (70 against 80: 4.5e-13)
    agent = OptimalAgent(config, sol)
    n = 800
    r = play_games(agent, agent, n, seed=600, config=config)
    points = np.where(r.winner == r.opener, 1.0, np.where(r.winner == tf.DRAW, 0.5, 0.0))
    assert abs(points.mean() - sol.opener_win_probability) < 4 * np.sqrt(0.25 / n)


@pytest.mark.slow
def test_command_prints_the_summary(tmp_path, capsys):
    from gridiron_env.table_football.solve import main

    assert main(["--out", str(tmp_path), "--basic-only"]) == 0
    out = capsys.readouterr().out
    assert "opener wins" in out and "basic, 3 downs" in out
    assert load_solution(tmp_path / "table_football_basic.npz").config == BASIC


def test_a_crafted_or_damaged_solution_file_is_refused_before_anything_is_allocated(tmp_path, basic):
    """A header claiming 745 GiB, a zip directory that lies about a size, a broken archive, flipped bytes:
    each a ValueError naming the file, never a MemoryError or a raw zip/zlib error."""
    import io
    import zipfile

    path = tmp_path / "basic.npz"
    basic.save(path)
    good = path.read_bytes()

    def npy_bytes(header_shape, dtype="<f8", payload=b""):
        buf = io.BytesIO()
        np.lib.format.write_array_header_1_0(buf, {"descr": dtype, "fortran_order": False, "shape": header_shape})
        return buf.getvalue() + payload

    huge = tmp_path / "huge.npz"
    with zipfile.ZipFile(huge, "w") as z:
        z.writestr("V.npy", npy_bytes((100_000, 100_000, 10)))
    with pytest.raises(ValueError, match="huge.npz"):
        load_solution(huge)
    lying = tmp_path / "lying.npz"
    with zipfile.ZipFile(lying, "w") as z:
        z.writestr("V.npy", npy_bytes((4, 4), payload=b"\0" * 16))  # 16 bytes where 128 are claimed
    with pytest.raises(ValueError, match="lying.npz"):
        load_solution(lying)
    rng = np.random.default_rng(0)
    for trial in range(40):
        data = bytearray(good)
        if trial % 2:
            data = data[:int(rng.integers(1, len(data)))]
        else:
            for at in rng.integers(0, len(data), size=8):
                data[at] ^= 0xFF
        damaged = tmp_path / f"damaged{trial}.npz"
        damaged.write_bytes(bytes(data))
        try:
            back = load_solution(damaged)
        except ValueError as err:
            assert f"damaged{trial}.npz" in str(err)
        else:  # only flips the archive's checks cannot see (none change the arrays that count)
            assert np.array_equal(back.arrays["V"], basic.arrays["V"])


@pytest.fixture(scope="module")
def small_clock():
    return solve(SMALL_CLOCK, diff_cap=20, cache=False)


def test_solution_folder_round_trip_is_memory_mapped(tmp_path, basic, small_clock):
    for sol, name in ((small_clock, "clock"), (basic, "basic")):
        sol.save(tmp_path / name)
        assert (tmp_path / name / "meta.json").is_file() and not list(tmp_path.glob("*.tmp"))
        back = load_solution(tmp_path / name)
        assert type(back) is type(sol) and back.config == sol.config
        assert back.opener_win_probability == sol.opener_win_probability
        for key, arr in sol.arrays.items():
            assert np.array_equal(back.arrays[key], arr) and back.arrays[key].dtype == np.asarray(arr).dtype
    assert isinstance(back.arrays["V"], np.memmap) and not back.arrays["V"].flags.writeable
    s = tf.init(16, 3, SMALL_CLOCK)
    back = load_solution(tmp_path / "clock")
    assert np.array_equal(back.value(s), small_clock.value(s)) and np.array_equal(back.policy(s), small_clock.policy(s))
    small_clock.save(tmp_path / "clock")  # saving over a folder replaces it whole
    assert np.array_equal(load_solution(tmp_path / "clock").arrays["V12"], small_clock.arrays["V12"])


def test_a_crafted_or_damaged_solution_folder_is_refused(tmp_path, small_clock):
    import json
    import shutil

    small_clock.save(tmp_path / "good")

    def variant(name, change):
        folder = tmp_path / name
        shutil.copytree(tmp_path / "good", folder)
        change(folder)
        with pytest.raises(ValueError, match=name):
            load_solution(folder)

    def edit_meta(fn):
        def change(folder):
            meta = json.loads((folder / "meta.json").read_text())
            fn(meta)
            (folder / "meta.json").write_text(json.dumps(meta))
        return change

    def write_npy(name, arr):
        return lambda folder: np.save(folder / name, arr)

    v12 = np.asarray(small_clock.arrays["V12"])
    variant("truncated", lambda f: (f / "V12.npy").write_bytes((f / "V12.npy").read_bytes()[:-8]))
    variant("longer", lambda f: (f / "V34.npy").write_bytes((f / "V34.npy").read_bytes() + b"\0" * 8))
    variant("reshaped", write_npy("V12.npy", v12.reshape(-1)))
    variant("retyped", write_npy("V12.npy", v12.astype(np.float32)))
    variant("outside", write_npy("V12.npy", v12 * 2))
    variant("nan", write_npy("V12.npy", np.where(v12 > 0.7, np.nan, v12)))
    variant("fortran", write_npy("V12.npy", np.asfortranarray(v12)))
    variant("pickled", lambda f: np.save(f / "V12.npy", np.array([{"x": 1}], dtype=object), allow_pickle=True))
    variant("missing", lambda f: (f / "VOT.npy").unlink())
    variant("notjson", lambda f: (f / "meta.json").write_text("{"))
    variant("longmeta", lambda f: (f / "meta.json").write_text(" " * (1 << 17)))
    variant("objectdtype", edit_meta(lambda m: m["arrays"]["V12"].update(dtype="|O")))
    variant("huge", edit_meta(lambda m: m["arrays"]["V12"].update(shape=[1 << 20, 1 << 20])))
    variant("badname", edit_meta(lambda m: m["arrays"].update({"../x": m["arrays"]["V12"]})))
    variant("format", edit_meta(lambda m: m.update(format="table-football-solution-v1")))
    variant("config", edit_meta(lambda m: m["config"].update(quarter_boxes=5)))
    variant("cap", edit_meta(lambda m: m["scalars"].update(diff_cap=21)))
    variant("scalar", edit_meta(lambda m: m["scalars"].update(opener_win_probability="half")))
    variant("extra", edit_meta(lambda m: m["arrays"].update(W=m["arrays"]["VOT"])))


def test_clock_cache_is_a_folder_and_an_old_archive_is_rewritten_as_one(tmp_path, monkeypatch, small_clock):
    import importlib

    from gridiron_env.table_football.solve import config_digest

    solve_module = importlib.import_module("gridiron_env.table_football.solve")  # (the package's solve is the function)

    monkeypatch.setenv("TABLE_FOOTBALL_CACHE", str(tmp_path))
    monkeypatch.setattr(solve_module, "_MEMO", {})
    folder = tmp_path / f"table_football_clock_{config_digest(SMALL_CLOCK, 'cap20')}"
    small_clock.save(folder.with_name(folder.name + ".npz"))  # the earlier cache format
    sol = solve(SMALL_CLOCK, diff_cap=20)
    assert folder.is_dir() and isinstance(sol.arrays["V12"], np.memmap)
    assert np.array_equal(sol.arrays["V12"], small_clock.arrays["V12"])
    (folder / "VOT.npy").write_bytes(b"junk")  # a damaged entry: the archive serves again, the folder rewritten
    monkeypatch.setattr(solve_module, "_MEMO", {})
    assert solve(SMALL_CLOCK, diff_cap=20).opener_win_probability == small_clock.opener_win_probability
    assert np.array_equal(load_solution(folder).arrays["VOT"], small_clock.arrays["VOT"])


# --- exact evaluation of a policy in the clock version ------------------------------------------------------

TINY_CLOCK = tf.TableFootballConfig(clock=True, quarter_boxes=2, two_minute_boxes=1, timeouts_per_half=1,
                                    overtime_timeouts=1)


class _EagerAgent:
    """Takes every time-out, out-of-bounds request and recovery contest it is offered; otherwise plays the
    fixed rule (so the evaluator must ask the policy at every kind of clock decision, and use the answers)."""

    name = "eager"

    def reset(self, seeds):
        pass

    def act(self, state, config=None, games=None):
        base = FixedAgent(0.5).act(state, config)
        legal = state.legal
        return np.select([legal[:, A.TIME_OUT], legal[:, A.OUT_OF_BOUNDS], legal[:, A.CONTEST]],
                         [A.TIME_OUT, A.OUT_OF_BOUNDS, A.CONTEST], base).astype(np.int64)


@pytest.mark.parametrize("option", [False, pytest.param(True, marks=pytest.mark.slow)],
                         ids=["plain", "recovery option"])
def test_clock_exact_value_of_the_optimal_agent_is_the_solution_value(option):
    """The optimal agent asked in every state gives the solver's values back (with the recovery option the
    agent's answers are slow to compute: marked slow)."""
    config = TINY_CLOCK.replace(recovery_option=option)
    sol = solve(config, diff_cap=6, cache=False)
    pv = exact_win_probability(OptimalAgent(config, sol), config, sol)
    owp = sol.opener_win_probability
    assert abs(pv.opening - owp) < 1e-9 and abs(pv.receiving - (1 - owp)) < 1e-9 and abs(pv.overall - 0.5) < 1e-9


def _seat_rates(result):
    """(A's points as the opening team, as the receiving team, the number of games of each)."""
    opens = result.a_team == result.opener
    pts = result.a_points
    return pts[opens].mean(), pts[~opens].mean(), opens.sum(), (~opens).sum()


@pytest.mark.parametrize("agent,option", [(FixedAgent(0.5), False), (_EagerAgent(), False),
                                          pytest.param(_EagerAgent(), True, marks=pytest.mark.slow)],
                         ids=["fixed", "eager", "eager, recovery option"])
def test_clock_exact_value_of_a_policy_matches_monte_carlo_in_both_seats(agent, option):
    """Exact against play of the engine with fixed seeds: within 4 standard errors (sd at most 1/2 a game)
    for the opening team and for the receiving team; both values are chances and below the optimal one's."""
    config = TINY_CLOCK.replace(recovery_option=option)
    sol = solve(config, diff_cap=14, cache=False)  # 2 unanswered touchdowns; more barely moves a value
    pv = exact_win_probability(agent, config, sol)
    owp = sol.opener_win_probability
    assert 0 <= pv.opening < owp - 1e-3 and 0 <= pv.receiving < 1 - owp - 1e-3
    assert pv.overall == 0.5 * (pv.opening + pv.receiving)
    r = play_games(agent, OptimalAgent(config, sol), 3000, seed=600, config=config)
    opening, receiving, n_open, n_recv = _seat_rates(r)
    assert abs(opening - pv.opening) < 4 * np.sqrt(0.25 / n_open), (opening, pv)
    assert abs(receiving - pv.receiving) < 4 * np.sqrt(0.25 / n_recv), (receiving, pv)


def test_clock_exact_value_of_always_running_is_lower():
    sol = solve(TINY_CLOCK, diff_cap=6, cache=False)
    pv = exact_win_probability(lambda s: np.where(s.phase == 0, A.RUN_PLAY, A.DECLINE), TINY_CLOCK, sol)
    assert 0 <= pv.overall < 0.5 - 1e-3 and pv.opening < sol.opener_win_probability


def test_clock_exact_value_refuses_an_illegal_policy_and_a_foreign_solution():
    sol = solve(TINY_CLOCK, diff_cap=8, cache=False)
    with pytest.raises(ValueError, match="illegal action 2"):
        exact_win_probability(lambda s: np.full(s.batch_size, A.PUNT), TINY_CLOCK, sol)
    with pytest.raises(ValueError, match="another config"):
        exact_win_probability(FixedAgent(0.5), TINY_CLOCK.replace(timeouts_per_half=2), sol)
