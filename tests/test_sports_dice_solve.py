"""The exact solver of Sports Dice (ruling 17): its dice chances by enumeration, its model against the
engine (every outcome of every legal action, one step ahead), bounds and symmetries, policy evaluation,
Monte-Carlo play of the engine with fixed seeds, and its files."""

import itertools
import zipfile
from fractions import Fraction

import numpy as np
import pytest

import gridiron_env.sports_dice as sd
from gridiron_env.sports_dice import actions as A
from gridiron_env.sports_dice import model as M
from gridiron_env.sports_dice.agents import FixedAgent, ObservationAgent, OptimalAgent, RandomAgent, play_games
from gridiron_env.sports_dice.engine import roll_tables, roll_value
from gridiron_env.sports_dice.solve import (
    PolicyValue, bellman_residual, exact_win_probability, load_solution, main, model_of, solve,
)
from gridiron_env.sports_dice.state import (
    CHIP, DEFENCE_PLAY, FIELD_GOAL_CHOICE, FOURTH_DOWN, GAME_OVER, OFFENCE_PLAY, PHASE_NAMES, SNAP, TOSS,
    mirror_state,
)

SMALL = sd.SportsDiceConfig(target_score=7)
ODD = sd.SportsDiceConfig(offence_faces=("10", "20", "TD", "FG", "10"), defence_faces=("NG", "SK", "TO", "P6", "NG"),
                          target_score=6)
TINY = sd.SportsDiceConfig(target_score=4)


@pytest.fixture(scope="module")
def small():
    return solve(SMALL, cache=False)


# --- the dice ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("faces", [(0, 0, 1, 1, 2, 3), (0, 1, 3, 2, 0), (0, 0, 0, 2), (3,)])
def test_count_distribution_is_the_brute_force_count_over_every_face(faces):
    F = len(faces)
    counts = {}
    for roll in itertools.product(range(F), repeat=6):
        c = [0, 0, 0, 0]
        for face in roll:
            c[faces[face]] += 1
        counts[tuple(c)] = counts.get(tuple(c), 0) + 1
    exact = M.exact_count_distribution(faces, 6)
    assert exact == {c: Fraction(k, F ** 6) for c, k in counts.items()}
    assert sum(exact.values()) == 1


def test_dice_classes_and_contest_against_the_engine_roll_tables():
    for config in (sd.SportsDiceConfig(), ODD):
        m = model_of(config)
        off_t, def_t = roll_tables(config)
        for dice, table in ((m.off, off_t), (m.dfn, def_t)):
            n = table["count"].size
            # every roll of the engine's table, by (top count, top symbols): the model's class chances
            key = table["count"].astype(np.int64) * 16 + table["top"]
            for i in range(dice.n_classes):
                share = np.count_nonzero(key == dice.cls_top[i] * 16 + dice.cls_mask[i]) / n
                if dice.cls_special[i]:
                    assert dice.cls_mask[i] == 1 and dice.cls_top[i] == 6
                assert abs(share - dice.cls_prob[i]) < 1e-15
            assert abs(dice.cls_prob.sum() - 1) < 1e-15
            assert set(np.unique(key)) == set(dice.cls_top * 16 + dice.cls_mask)
        # the contest: P(offence count > defence count), P(equal), by the engine's tables
        oc = np.bincount(off_t["count"], minlength=7) / off_t["count"].size
        dc = np.bincount(def_t["count"], minlength=7) / def_t["count"].size
        p_off = sum(oc[x] * dc[y] for x in range(7) for y in range(7) if x > y)
        p_tie = sum(oc[x] * dc[x] for x in range(7))
        assert abs((m.off.cls_prob * m.off_beats).sum() - p_off) < 1e-14
        assert abs(m.tie_w.sum() - p_tie) < 1e-14
        assert abs((m.dfn.cls_prob * m.def_beats).sum() - (1 - p_off - p_tie)) < 1e-14


def test_kick_rows_follow_the_yards_of_the_engine_rolls():
    """The punt and field-goal rows against every offence roll of the engine's table and the defence's
    chance of six NO GAINs (rulings 13, 14)."""
    config = sd.SportsDiceConfig()
    m = model_of(config)
    off_t, def_t = roll_tables(config)
    yards, six10 = off_t["yards"].astype(np.int64), off_t["six"]
    p_ng = float(def_t["six"].mean())
    for p, series in ((5, M.MIDFIELD), (30, M.MIDFIELD), (55, M.END_ZONE), (90, M.END_ZONE), (40, M.END_ZONE)):
        f = int(m.field(p, 4, series))
        for kind in (M.KICK_PUNT, M.KICK_FIELD_GOAL):
            expected = {}
            pairs, ways = np.unique(np.stack([yards, six10], axis=1), axis=0, return_counts=True)
            for (y, six), k in zip(pairs.tolist(), ways.tolist()):
                for ng, w in ((True, p_ng), (False, 1 - p_ng)):
                    if six and not ng:
                        key = (7, 0, True, m.start)
                    elif ng and not six:
                        key = (0, 7, False, m.start)
                    elif kind == M.KICK_PUNT:
                        q = p + y
                        key = (0, 0, True, m.start if q >= 100 else int(m.first_down(100 - q)))
                    else:
                        key = (3, 0, True, m.start) if y >= 110 - p else (0, 0, True, int(m.first_down(100 - p)))
                    expected[key] = expected.get(key, 0.0) + w * k / yards.size
            got = {}
            for e in range(m.kick_prob.shape[2]):
                if m.kick_prob[f, kind, e] > 0:
                    key = (int(m.kick_ds[f, kind, e]), int(m.kick_do[f, kind, e]), bool(m.kick_flip[f, kind, e]),
                           int(m.kick_f[f, kind, e]))
                    got[key] = got.get(key, 0.0) + float(m.kick_prob[f, kind, e])
            assert got.keys() == expected.keys()
            assert max(abs(got[k] - expected[k]) for k in got) < 1e-13


def test_a_policy_moves_all_of_each_state_chance_and_both_mass_paths_agree(small):
    m, V = small.model, small.arrays["V"]
    for level in (0, 5, 12):
        L = M.Level(m, V, 7, level)
        VL = V[L.a_s, L.b_s]
        pol = L.greedy(VL)
        counted = L.masses_of_choices(*pol)
        mixed = L.masses(M.Tables.from_choices(*pol))
        for x, y in zip(counted, mixed):
            assert np.abs(x - y).max() < 1e-15
        pm, km = counted
        assert np.abs(pm.sum(axis=(3, 4)) + km.sum(axis=-1) - 1).max() < 1e-14
        assert np.abs(L.evaluate(M.Tables.from_choices(*pol)) - VL).max() < 1e-13  # the greedy policy is optimal


# --- the model against the engine ----------------------------------------------------------------------------

class _Draws:
    """A chance source giving game g the draw ``values[g]``."""

    def __init__(self, values):
        self.values = np.asarray(values, dtype=np.int64)

    def draw(self, state, games, high, count, what=""):
        return np.repeat(self.values[np.asarray(games)][:, None], count, axis=1)


def _roll_outcomes(config):
    """Every pair of count vectors (offence, defence) as a roll draw with its chance."""
    m = model_of(config)
    draws, probs = [], []
    off_names, def_names = sd.state.OFFENCE_SYMBOLS, sd.state.DEFENCE_SYMBOLS
    for co, po in zip(m.off.counts, m.off.count_prob):
        od = [off_names[s] for s in range(4) for _ in range(co[s])]
        for cd, pd in zip(m.dfn.counts, m.dfn.count_prob):
            dd = [def_names[s] for s in range(4) for _ in range(cd[s])]
            draws.append(roll_value(od, dd, config))
            probs.append(po * pd)
    return np.array(draws), np.array(probs)


def _sample_states(config, n_games=48, seed=3, steps=600):
    """States met in random play, a few of every phase but the end."""
    s = sd.init(n_games, seed, config)
    agent = RandomAgent()
    agent.reset(np.arange(n_games) + seed)
    by_phase = {}
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if s.is_over().all():
            break
        s = sd.step(s, agent.act(s, config), config)
        for g in rng.permutation(np.flatnonzero(~s.is_over()))[:4]:
            by_phase.setdefault(int(s.phase[g]), []).append(s.take([g]))
    picked = []
    for ph, states in by_phase.items():
        picked += states[:: max(1, len(states) // 6)][:6]
    return picked, set(by_phase)


def _check_one_step(config, sol, states):
    draws, probs = _roll_outcomes(config)
    rolls = (A.ROLL, A.GO_FOR_IT, A.PUNT, A.FIELD_GOAL)
    for s in states:
        q = sol.action_values(s)[0]
        decider = int(s.to_act[0])
        for a in np.flatnonzero(s.legal[0]):
            if a in rolls:
                batch = s.take(np.zeros(draws.size, dtype=np.int64))
                nxt = sd.step(batch, np.full(draws.size, a), config, chance=_Draws(draws))
                expected = float(probs @ sol.value_for(nxt, decider))
            else:
                expected = float(sol.value_for(sd.step(s, np.array([a]), config), decider)[0])
            assert abs(q[a] - expected) < 1e-12, (sd.to_diagram(s), A.ACTION_NAMES[a], q[a], expected)
        v = float(sol.value_for(s, decider)[0])
        assert abs(v - np.nanmax(q)) < 1e-15
        assert q[int(sol.policy(s)[0])] >= np.nanmax(q) - 1e-12


def test_values_are_the_engine_one_step_look_ahead(small):
    states, phases = _sample_states(SMALL)
    assert phases >= {TOSS, SNAP, FOURTH_DOWN, CHIP, OFFENCE_PLAY, DEFENCE_PLAY, FIELD_GOAL_CHOICE} - {TOSS}
    toss = sd.init(1, 5, SMALL)
    _check_one_step(SMALL, small, states + [toss])


def test_other_face_tables_are_the_engine_one_step_look_ahead():
    sol = solve(ODD, cache=False)
    states, phases = _sample_states(ODD, seed=4)
    assert {CHIP, FOURTH_DOWN} <= phases
    _check_one_step(ODD, sol, states[::2])


# --- bounds, symmetry, finished games ----------------------------------------------------------------------------

def test_values_bounds_fixed_point_and_monotone_in_the_scores(small):
    V = small.arrays["V"]
    m = small.model
    assert V.shape == (7, 7, m.n_fields, 2) and (V > 0).all() and (V < 1).all()
    assert bellman_residual(m, 7, V) < 1e-13
    assert (np.diff(V, axis=0) >= -1e-13).all()  # more points never hurt
    assert (np.diff(V, axis=1) <= 1e-13).all()
    # holding the chip never hurts either
    assert (V[..., M.CHIP_OFFENCE] >= V[..., M.CHIP_DEFENCE] - 1e-13).all()
    # the start values
    start = V[0, 0, m.start, M.CHIP_DEFENCE]
    assert small.opener_win_probability == start
    assert small.toss_winner_win_probability == max(start, 1 - start)


def test_scores_translate_with_the_target(small):
    """Only the points still needed matter: a - c against b - c with target T - c is the same game as
    a against b with target T (two independent solves)."""
    tiny = solve(TINY, cache=False)
    assert np.abs(small.arrays["V"][3:, 3:] - tiny.arrays["V"]).max() < 1e-12
    assert abs(float(small.value_at(3, 3, 25, 1, 50, False)) - tiny.opener_win_probability) < 1e-12


def test_value_for_both_teams_adds_to_one_and_mirrors(small):
    states, _ = _sample_states(SMALL, n_games=16, seed=7, steps=200)
    s = sd.State.concatenate(states)
    one, two = small.value_for(s, 0), small.value_for(s, 1)
    assert np.allclose(one + two, 1, atol=1e-15)
    mirrored = mirror_state(s)
    assert np.array_equal(small.value_for(mirrored, 1), one)
    assert np.array_equal(small.policy(mirrored), small.policy(s))
    # the toss: the toss winner's value after its best choice, through value()
    t = sd.init(4, 0, SMALL)
    assert (t.phase == TOSS).all()
    assert np.allclose(small.value_for(t, t.toss_winner), small.toss_winner_win_probability, atol=1e-15)
    best = A.CHOOSE_OFFENCE if small.opener_win_probability >= 0.5 else A.CHOOSE_DEFENCE
    assert (small.policy(t) == best).all()


def test_finished_and_truncated_games():
    config = SMALL.replace(max_rolls=3)
    sol = solve(config, cache=False)
    agent = OptimalAgent(config, sol)
    s = sd.init(64, 1, config)
    while not s.is_over().all():
        s = sd.step(s, agent.act(s, config), config)
    assert (sol.policy(s) == -1).all() and (s.phase == GAME_OVER).all()
    won = s.terminated
    assert np.array_equal(sol.value_for(s, 0)[won], (s.winner[won] == 0).astype(float))
    cut = np.flatnonzero(s.truncated)
    assert cut.size  # 3 rolls rarely finish a game
    # a truncated game is valued as if it went on (the model's value before the next roll)
    g = int(cut[0])
    off = int(s.offence[g])
    v = sol.value_at(s.score[g, off], s.score[g, 1 - off], s.position[g], s.down[g], s.target[g], s.chip[g] == off)
    assert sol.value(s.take([g]))[0] == pytest.approx(float(v), abs=1e-15)


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="SportsDiceConfig"):
        solve("not a config")
    sol = solve(TINY, cache=False)
    with pytest.raises(ValueError, match="no such state"):
        sol.value_at(0, 0, 55, 1, 50, True)  # a midfield target beyond the 50
    with pytest.raises(ValueError, match="illegal action 'wait'.*'fourth down' state"):
        exact_win_probability(lambda s: np.full(s.batch_size, A.WAIT), TINY, sol)

    class Sloppy:  # a mixed policy that gives an illegal action a chance
        def action_probabilities(self, state, config):
            return np.full((state.batch_size, A.NUM_ACTIONS), 1.0 / A.NUM_ACTIONS)

    with pytest.raises(ValueError, match="illegal actions a chance"):
        exact_win_probability(Sloppy(), TINY, sol)
    with pytest.raises(ValueError, match="shape"):
        exact_win_probability(lambda s: np.zeros(3, dtype=np.int64), TINY, sol)


# --- policy evaluation and Monte-Carlo play ------------------------------------------------------------------

def test_policy_evaluation_of_the_optimal_policy_is_the_solution():
    config = sd.SportsDiceConfig(target_score=3)
    sol = solve(config, cache=False)
    pv = exact_win_probability(OptimalAgent(config, sol), config, sol)
    assert isinstance(pv, PolicyValue)
    assert abs(pv.opening - sol.opener_win_probability) < 1e-12
    assert abs(pv.receiving - (1 - sol.opener_win_probability)) < 1e-12
    assert abs(pv.toss_won - sol.toss_winner_win_probability) < 1e-12
    assert abs(pv.overall - 0.5) < 1e-12
    # a worse policy is worse, for each start
    fixed = exact_win_probability(FixedAgent(), config, sol)
    assert fixed.opening < pv.opening - 0.01 and fixed.receiving < pv.receiving - 0.01


def test_monte_carlo_optimal_against_optimal_matches_the_opener_win_probability(small):
    agent = OptimalAgent(SMALL, small)
    n = 4000
    r = play_games(agent, agent, n, seed=100, config=SMALL)
    assert not r.truncated.any()
    rate = float((r.winner == r.opener).mean())
    assert abs(rate - small.opener_win_probability) < 4 * np.sqrt(0.25 / n)  # 4 sigma, fixed seeds
    # the toss winner chose as the solution says, so it wins at the toss winner's probability
    assert abs(rate - (1 - small.toss_winner_win_probability)) < 4 * np.sqrt(0.25 / n)


@pytest.mark.parametrize("agent", [FixedAgent(), RandomAgent()], ids=["fixed", "random"])
def test_monte_carlo_against_the_optimal_agent_matches_exact_win_probability(agent):
    config = sd.SportsDiceConfig(target_score=3)
    sol = solve(config, cache=False)
    pv = exact_win_probability(agent, config, sol)
    assert 0 < pv.overall < 0.45
    n = 4000
    r = play_games(agent, OptimalAgent(config, sol), n, seed=200, config=config)
    assert abs(r.a_rate - pv.overall) < 4 * np.sqrt(0.25 / n)  # 4 sigma, fixed seeds


@pytest.mark.parametrize("config", [TINY, ODD], ids=["default dice", "other dice"])
def test_the_states_asked_are_positions_of_the_game(config):
    """Every representative decision state keeps the engine's invariants and has the decision it stands
    for legal, with the roll's classes of its kind."""
    from gridiron_env.sports_dice.solve import representative_states

    r = representative_states(config, np.array([0, 1, 2]), np.array([2, 1, 0]))
    assert sd.find_violations(r.state, config) == []
    phases = np.array([FOURTH_DOWN, CHIP, OFFENCE_PLAY, DEFENCE_PLAY, FIELD_GOAL_CHOICE])
    assert np.array_equal(r.state.phase, phases[r.kind]) and r.state.legal.sum(axis=1).min() >= 2
    m = model_of(config)
    chip = r.kind == 1
    assert np.array_equal(r.state.counts[chip, 0], m.off.cls_top[m.tie_i[r.k[chip]]])
    assert np.array_equal(r.state.top[chip, 1], m.dfn.cls_mask[m.tie_j[r.k[chip]]])
    assert np.bincount(r.kind)[1] == 3 * m.n_fields * 2 * m.tie_i.size  # every tie pair, field, holder


def test_an_observation_policy_is_evaluated_like_the_same_rule_on_states():
    """A rule written on observations (punt on 4th down, else the last legal action) and the same rule on
    engine states get the same exact value; the wrapper passes only the asked games."""
    from gridiron_env.sports_dice.observe import OBS_LAYOUT

    config = sd.SportsDiceConfig(target_score=2)
    sol = solve(config, cache=False)
    fourth = OBS_LAYOUT["phase"][0].start + FOURTH_DOWN

    def predict(obs, mask):
        last = mask.shape[1] - 1 - np.argmax(mask[:, ::-1], axis=1)
        return np.where(obs[:, fourth] == 1, A.PUNT, last)

    def on_states(s):
        last = s.legal.shape[1] - 1 - np.argmax(s.legal[:, ::-1], axis=1)
        return np.where(s.phase == FOURTH_DOWN, A.PUNT, last)

    a = exact_win_probability(ObservationAgent(predict), config, sol)
    b = exact_win_probability(on_states, config, sol)
    assert a == b and a.overall < 0.5
    s = sd.init(6, 0, config)
    out = ObservationAgent(predict).act(s, config, np.array([1, 4]))
    assert out[1] == out[4] == A.CHOOSE_DEFENCE and out[0] == 0
    with pytest.raises(ValueError, match="callable"):
        ObservationAgent(3)


@pytest.mark.slow
def test_monte_carlo_at_the_default_target():
    config = sd.SportsDiceConfig()
    sol = solve(config, cache=False)
    opt = OptimalAgent(config, sol)
    n = 3000
    r = play_games(opt, opt, n, seed=300, config=config)
    assert abs(float((r.winner == r.opener).mean()) - sol.opener_win_probability) < 4 * np.sqrt(0.25 / n)
    agent = FixedAgent("punt", use_chip=True)
    pv = exact_win_probability(agent, config, sol)  # a few minutes: about 3e7 states asked
    r = play_games(agent, opt, n, seed=400, config=config)
    assert abs(r.a_rate - pv.overall) < 4 * np.sqrt(0.25 / n)


# --- files and the command ------------------------------------------------------------------------------------------

def test_solution_file_round_trip_and_validation(tmp_path):
    sol = solve(TINY, cache=False)
    path = tmp_path / "tiny.npz"
    sol.save(path)
    back = load_solution(path)
    assert back.config == TINY and np.array_equal(back.arrays["V"], sol.arrays["V"])
    s = sd.init(8, 3, TINY)
    assert np.array_equal(back.value(s), sol.value(s))
    good = dict(np.load(path, allow_pickle=False))

    def refused(name, match, **changes):
        arrays = {**good, **changes}
        np.savez(tmp_path / name, **arrays)
        with pytest.raises(ValueError, match=match):
            load_solution(tmp_path / name)

    refused("short.npz", "do not fit", V=good["V"][:, :, :10])
    refused("f32.npz", "do not fit", V=good["V"].astype(np.float32))
    refused("big.npz", "outside", V=good["V"] * 2)
    refused("nan.npz", "outside", V=np.where(good["V"] > 0.5, np.nan, good["V"]))
    nudged = good["V"].copy()
    nudged[1, 2, 7, 0] += 1e-6
    refused("nudged.npz", "Bellman", V=nudged)
    refused("start.npz", "start values", opener_win_probability=np.array(0.25))
    refused("format.npz", "format", meta=np.array(str(good["meta"]).replace("-v1", "-v0")))
    refused("meta.npz", "meta", meta=np.array("{not json"))
    refused("config.npz", "meta", meta=np.array(str(good["meta"]).replace('"target_score": 4', '"target_score": 0')))
    extra = dict(good, P=np.zeros(3))
    np.savez(tmp_path / "extra.npz", **extra)
    with pytest.raises(ValueError, match="arrays"):
        load_solution(tmp_path / "extra.npz")
    np.savez(tmp_path / "pickled.npz", meta=np.array([{"x": 1}], dtype=object), V=good["V"])
    with pytest.raises(ValueError):
        load_solution(tmp_path / "pickled.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="junk.npz"):
        load_solution(tmp_path / "junk.npz")
    data = path.read_bytes()
    rng = np.random.default_rng(0)
    for trial in range(20):
        broken = bytearray(data)
        if trial % 2:
            broken = broken[:int(rng.integers(1, len(broken)))]
        else:
            for at in rng.integers(0, len(broken), size=6):
                broken[at] ^= 0xFF
        damaged = tmp_path / f"damaged{trial}.npz"
        damaged.write_bytes(bytes(broken))
        try:
            again = load_solution(damaged)
        except ValueError as err:
            assert f"damaged{trial}.npz" in str(err)
        else:  # only flips the archive's checks cannot see (none change the arrays that count)
            assert np.array_equal(again.arrays["V"], sol.arrays["V"])
    with zipfile.ZipFile(tmp_path / "empty.npz", "w"):
        pass
    with pytest.raises(ValueError, match="meta"):
        load_solution(tmp_path / "empty.npz")


def test_disk_cache_is_written_read_and_a_bad_one_replaced(tmp_path, monkeypatch):
    from gridiron_env.sports_dice import solve as solve_module

    monkeypatch.setenv("SPORTS_DICE_CACHE", str(tmp_path))
    config = sd.SportsDiceConfig(target_score=3, max_rolls=77)
    monkeypatch.setattr(solve_module, "_MEMO", {})
    first = solve(config)
    files = list(tmp_path.glob("sports_dice_*.npz"))
    assert len(files) == 1 and first.config == config
    monkeypatch.setattr(solve_module, "_MEMO", {})
    again = solve(config.replace(max_rolls=5))  # the cap does not change the solution
    assert np.array_equal(again.arrays["V"], first.arrays["V"]) and again.config.max_rolls == 5
    files[0].write_bytes(b"damaged")
    monkeypatch.setattr(solve_module, "_MEMO", {})
    third = solve(config)
    assert np.array_equal(third.arrays["V"], first.arrays["V"])
    assert load_solution(files[0]).config == config.replace(max_rolls=sd.SportsDiceConfig().max_rolls)


def test_command_prints_the_summary_and_saves(tmp_path, capsys):
    assert main(["--out", str(tmp_path), "--target", "5", "--no-cache"]) == 0
    out = capsys.readouterr().out
    sol = solve(sd.SportsDiceConfig(target_score=5), cache=False)
    assert f"{sol.opener_win_probability:.10f}" in out and f"{sol.toss_winner_win_probability:.10f}" in out
    assert "4th-down declarations" in out and out.count("\n") > 25
    assert load_solution(tmp_path / "sports_dice_target_5.npz").config == sd.SportsDiceConfig(target_score=5)
    with pytest.raises(SystemExit):
        main(["--target", "0"])


def test_phase_names_cover_every_decision_the_solver_values():
    # every phase but the end has legal actions the solver gives a value to
    states, phases = _sample_states(TINY, n_games=32, seed=9, steps=300)
    sol = solve(TINY, cache=False)
    for s in states:
        q = sol.action_values(s)
        assert np.isfinite(q[s.legal]).all(), PHASE_NAMES[int(s.phase[0])]
