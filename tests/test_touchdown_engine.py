"""Touchdown engine: config, action names, determinism (batch = lone games), illegal actions, the legal
mask against the general step evaluator, diagrams, invariants over random play."""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gridiron_env.touchdown as td
from gridiron_env.core.chance import uniform
from gridiron_env.touchdown import actions as A
from gridiron_env.touchdown import engine
from gridiron_env.touchdown.state import FIELDS, GAME_OVER, PLAY

CONFIG = td.TouchdownConfig()
SHORT = td.TouchdownConfig(quarters=1, scrimmages_per_quarter=3, max_rounds=6)


def pick(legal, seeds, t):
    """A legal action per game from a hash of (the game's seed, step t): independent of the batch."""
    seeds = np.asarray(seeds, dtype=np.uint64)
    h = uniform(seeds, np.full(seeds.size, t, dtype=np.uint64), 1 << 30, 1)[:, 0]
    count = legal.sum(axis=1)
    k = h % np.maximum(count, 1)
    rank = np.cumsum(legal, axis=1) - 1
    hit = legal & (rank == k[:, None])
    return np.where(count > 0, hit.argmax(axis=1), A.WAIT).astype(np.int64)


def play(n, seed, steps, config=CONFIG, check=False):
    """The states of ``n`` games of hashed legal play (``steps`` steps or until all are over)."""
    s = td.init(n, seed, config)
    seeds = seed + np.arange(n)
    yield s
    for t in range(steps):
        if s.is_over().all():
            return
        s = td.step(s, pick(s.legal, seeds, t), config)
        if check:
            td.check_invariants(s, config)
        yield s


# --- config -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("field,value", [
    ("lanes", 12), ("lanes", 9), ("lanes", 27), ("lanes", 13.0), ("lanes", True), ("field_rows", 25),
    ("field_rows", 61), ("hash_band", (5, 8)), ("hash_band", (8, 6)), ("hash_band", (6, 9)), ("hash_band", "6-8"),
    ("completion_table", ((3, 4, 8),)), ("completion_table", ((3, 1, 8), (15, 8, 12))),
    ("completion_table", ((6, 4, 8), (3, 6, 10), (15, 8, 12))), ("completion_table", "table"),
    ("field_goal_table", ((5, 14),)), ("field_goal_table", ((40, 6),)), ("field_goal_table", ()),
    ("conversion_need", 1), ("conversion_need", 14), ("max_rounds", 0), ("max_actions", 99),
    ("scrimmages_per_quarter", 0), ("scrimmages_per_quarter", 1), ("quarters", 9), ("overtime", 1), ("overtime", "yes"),
])
def test_config_rejects_bad_values_naming_the_field(field, value):
    with pytest.raises(ValueError, match=f"TouchdownConfig.{field}"):
        td.TouchdownConfig(**{field: value})


def test_config_round_trips_and_rejects_unknown_fields():
    c = td.TouchdownConfig(lanes=15, hash_band=[7, 9], overtime=True)
    assert c.hash_band == (7, 9) and c.hash_lanes == (6, 8) and c.rows == 34
    assert td.TouchdownConfig.from_dict(c.to_dict()) == c
    assert c.replace(quarters=2).quarters == 2
    with pytest.raises(ValueError, match="unknown TouchdownConfig field"):
        td.TouchdownConfig.from_dict({"lanes": 13, "speed": 3})
    with pytest.raises(ValueError, match="config must be a TouchdownConfig"):
        td.init(1, 0, {"lanes": 13})


# --- actions ----------------------------------------------------------------------------------------------

def test_action_names_round_trip_and_are_unique():
    assert len(set(A.ACTION_NAMES)) == A.NUM_ACTIONS == len(A.ACTION_NAMES)
    for i, name in enumerate(A.ACTION_NAMES):
        assert td.action_id(name) == i and td.action_name(i) == name
        assert td.action_id(name.upper().replace(" ", "  ")) == i
    assert td.action_id("piece 3 forward-left") == A.step_id(2, 3)
    assert A.ACTION_NAMES[A.step_id(6, 8)] == "piece 7 back"
    for bad in ("piece 8 forward", "pass to 0", "", "punt"):
        with pytest.raises(ValueError):
            td.action_id(bad)
    for bad in (-1, A.NUM_ACTIONS, True, 1.0):
        with pytest.raises(ValueError):
            td.action_name(bad)


# --- init, determinism ------------------------------------------------------------------------------------

def test_init_validates_its_arguments():
    for bad in (0, -1, 1.5, True, None):
        with pytest.raises(ValueError, match="batch_size"):
            td.init(bad, 0)
    with pytest.raises(ValueError, match="does not match"):
        td.init(3, 0, seeds=[1, 2])
    with pytest.raises(ValueError):
        td.init(2, -1)


def test_batch_games_equal_lone_games_seeded_s_plus_i():
    n, seed, steps = 4, 41, 160
    batch = list(play(n, seed, steps))
    lones = [list(play(1, seed + i, steps)) for i in range(n)]
    seeded = td.init(n, 0, seeds=seed + np.arange(n))
    assert seeded.equals(batch[0])
    for t in range(0, len(batch), 25):
        for i in range(n):
            if t < len(lones[i]):
                assert batch[t].take([i]).equals(lones[i][t]), f"game {i} differs at step {t}"


def test_a_legal_action_changes_the_state_and_finished_games_ignore_theirs():
    s = td.init(8, 3)
    seeds = 3 + np.arange(8)
    for t in range(120):
        a = pick(s.legal, seeds, t)
        n = td.step(s, a)
        for g in range(8):
            assert not n.take([g]).equals(s.take([g])), f"a legal action changed nothing in game {g}"
        s = n
    over = td.init(2, 0, SHORT)
    over.terminated[0] = True
    over.phase[0] = GAME_OVER
    over.to_act[0] = -1
    over.legal[0] = False
    after = td.step(over, np.array([A.WAIT, pick(over.legal, [1, 2], 0)[1]]), SHORT)
    assert after.take([0]).equals(over.take([0]))


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 90), game=st.integers(0, 3))
def test_an_illegal_action_raises_naming_it_and_changes_no_game(seed, steps, game):
    states = list(play(4, seed, steps))
    s = states[-1]
    if s.is_over()[game]:
        return
    bad_ids = np.flatnonzero(~s.legal[game])
    before = s.copy()
    actions = pick(s.legal, seed + np.arange(4), 999)
    actions[game] = bad_ids[seed % bad_ids.size]
    with pytest.raises(td.IllegalActionError) as err:
        td.step(s, actions)
    assert err.value.game == game and err.value.action == int(actions[game])
    assert A.ACTION_NAMES[int(actions[game])] in str(err.value) and f"game {game}" in str(err.value)
    assert s.equals(before)
    with pytest.raises(td.IllegalActionError):
        td.step(s, np.where(np.arange(4) == game, 9999, actions))
    with pytest.raises(td.IllegalActionError):
        td.step(s, np.where(np.arange(4) == game, -3, actions))
    assert s.equals(before)
    with pytest.raises(ValueError, match="actions must be ints"):
        td.step(s, np.zeros(3, dtype=np.int64))


def test_reuse_input_steps_in_place_and_the_default_copies():
    s = td.init(4, 9)
    a = pick(s.legal, 9 + np.arange(4), 0)
    kept = s.copy()
    out = td.step(s, a)
    assert s.equals(kept) and out is not s
    same = td.step(s, a, reuse_input=True)
    assert same is s and same.equals(out)


def test_the_cap_on_actions_truncates():
    config = td.TouchdownConfig(max_actions=100)
    for s in play(4, 5, 200, config):
        pass
    assert s.truncated.all() and (s.winner == -1).all() and (s.steps == 100).all()
    assert not s.legal.any() and (s.to_act == -1).all()


def test_a_short_game_ends_after_its_scrimmages_with_a_result():
    for s in play(8, 11, 5000, SHORT, check=True):
        pass
    assert s.terminated.all() and (s.scrimmages == 3).all()
    sc = s.score.astype(int)
    expect = np.where(sc[:, 0] > sc[:, 1], 0, np.where(sc[:, 1] > sc[:, 0], 1, 2))
    assert np.array_equal(s.winner, expect)


def test_overtime_first_score_wins():
    config = td.TouchdownConfig(quarters=1, scrimmages_per_quarter=2, max_rounds=4, overtime=True)
    seen = False
    for s in play(16, 2, 6000, config, check=True):
        ot = s.quarter > config.quarters
        seen |= bool(ot.any())
    assert s.terminated.all() and seen
    ended_in_ot = s.quarter > config.quarters
    assert (s.winner[ended_in_ot & (s.score[:, 0] != s.score[:, 1])] != 2).all()


# --- the mask -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("config", [CONFIG, td.TouchdownConfig(lanes=17, hash_band=(7, 11), field_rows=44),
                                    td.TouchdownConfig(lanes=11, hash_band=(6, 6), field_rows=26)])
def test_play_mask_agrees_with_the_general_step_evaluator(config):
    """The fast static mask and the general evaluator (used by the interception) give the same steps, on
    the default board and on others (the mask's offset tables are per board)."""
    checked = 0
    for s in play(12, 21, 240, config=config):
        g = np.flatnonzero(s.phase == PLAY)
        if not g.size:
            continue
        engine._CTX.config = config
        b = engine._Board(s, g, s.to_act[g])
        fast = engine._step_mask(s, b)
        can = np.repeat(engine._can_move(s, b), 8, axis=1)
        ref = engine._eval_steps(b, np.broadcast_to(engine._ALL_SLOTS, (g.size, 56)),
                                 np.broadcast_to(engine._ALL_DIRS, (g.size, 56)), can)["legal"]
        assert np.array_equal(fast, ref)
        checked += g.size
    assert checked > 1000


def test_every_live_game_has_a_legal_action_and_the_wait_id_is_never_legal():
    for s in play(16, 4, 300):
        live = ~s.is_over()
        assert s.legal[live].any(axis=1).all() and not s.legal[:, A.WAIT].any()
        assert np.array_equal(td.legal_action_mask(s), s.legal)


# --- diagrams ---------------------------------------------------------------------------------------------

def test_diagrams_round_trip_in_every_phase():
    phases = set()
    for t, s in enumerate(play(6, 8, 500)):
        if t % 20:
            continue
        for g in range(s.batch_size):
            text = td.to_diagram(s, g)
            back = td.from_diagram(text)
            assert td.to_diagram(back, 0) == text
            assert np.array_equal(back.legal[0], s.legal[g])
            phases.add(int(s.phase[g]))
    assert phases >= {0, 1, 2}


@pytest.mark.parametrize("edit,match", [
    (lambda t: t.replace("phase: play", "phase: dance"), "phase"),
    (lambda t: t.replace("holder: Q", "holder: Z"), "holder"),
    (lambda t: t.replace("series: 1 8 18 7", "series: 1 8 18"), "series"),
    (lambda t: t.replace("series: 1 8 18 7", "series: 3 8 18 7"), "series"),
    (lambda t: t.replace("possession: one", "possession: two"), "holder's team"),
    (lambda t: t.replace("marked: -", "marked: Q"), "marked piece holds"),
    (lambda t: t.replace("phase: play", "phase: offence call"), "board is shown only"),
    (lambda t: t.replace("  7 |", "  7 ~"), "board row"),
    (lambda t: t.replace("result: playing", "result: won"), "result"),
    (lambda t: t + "extra line\n", "board"),
    (lambda t: "\n".join(t.splitlines()[:-1]), "board"),
])
def test_bad_diagrams_raise_naming_the_line(edit, match):
    s = td.scenario({8: "....LCR.E....", 7: "......Q.B.T..", 9: ".....lmr.....", 11: "..j.....k....",
                     14: ".u.........v."})
    text = td.to_diagram(s, 0)
    assert td.to_diagram(td.from_diagram(text), 0) == text
    with pytest.raises(ValueError, match=match):
        td.from_diagram(edit(text))


def test_diagram_rejects_states_that_break_the_rules():
    rows = {8: "....LCR.E....", 7: "......Q.B.T..", 9: ".....lmr.....", 11: "..j.....k....", 14: ".u.........v."}
    td.scenario(rows)
    beside = dict(rows)
    beside[7], beside[9] = "......Q.B....", ".....lmrT...."  # the receiver beside the Single r
    with pytest.raises(ValueError, match="beside an opposing Single"):
        td.scenario(beside, flags="-")
    on_los = dict(rows)
    on_los[14], on_los[8] = "...........v.", ".u..LCR.E...."  # a defensive Triple on the LOS row
    with pytest.raises(ValueError, match="Triple on or behind the LOS"):
        td.scenario(on_los)
    unmarked = "\n".join(ln for ln in td.to_diagram(td.scenario(rows), 0).splitlines())
    with pytest.raises(ValueError, match="stacked"):
        td.from_diagram(unmarked.replace("stacked: -", "stacked: Ql"))


# --- random play with the invariant checker ---------------------------------------------------------------

def _random_play(n, seed, calls, config):
    steps = 0
    for s in play(n, seed, calls, config, check=True):
        steps += int((~s.is_over()).sum())
    return steps


def test_random_play_keeps_the_invariants_short():
    assert _random_play(16, 1, 250, CONFIG) >= 3000


@pytest.mark.slow
def test_random_play_keeps_the_invariants_200k_steps():
    configs = (CONFIG, SHORT, td.TouchdownConfig(lanes=15, hash_band=(7, 9), field_rows=40, overtime=True))
    steps, seed = 0, 100
    while steps < 200_000:
        steps += _random_play(64, seed, 1000, configs[seed % 3])
        seed += 1
    assert steps >= 200_000


# --- the rules document -----------------------------------------------------------------------------------

def test_rules_document_names_every_action_formation_and_chance():
    from fractions import Fraction
    from pathlib import Path

    rules = (Path(td.__file__).parent / "RULES.md").read_text()
    assert "## Observation" in rules and f"One fixed space of {A.NUM_ACTIONS} ids" in rules
    for name in A.ACTION_NAMES:
        if not name.startswith(("piece ", "pass to ")):
            assert f"`{name}`" in rules, name
    for f in td.OFFENCE + td.DEFENCE:
        assert f.name in rules
    for upto, plain, close in CONFIG.completion_table:
        for need in (plain, close):
            p = Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= need), 36)
            assert f"| {need} | {p.numerator * (36 // p.denominator)}/36" in rules or f"| {need} | 1/36" in rules
    # the drawings are the line-ups the engine makes (offence pro set against each defence)
    base = td.scenario({8: "....LCR.E....", 7: "......Q.B.T..", 9: ".....lmr.....", 11: "..j.....k....",
                        14: ".u.........v."})
    lines = dict(ln.split(": ", 1) for ln in td.to_diagram(base, 0).split("board:")[0].strip().splitlines()[1:])
    lines.update({"phase": "offence call", "holder": "-"})
    call = td.from_diagram("touchdown diagram v1\n" + "\n".join(f"{k}: {v}" for k, v in lines.items()))
    from gridiron_env.touchdown.diagram import board_lines
    for fd in range(A.N_DEFENCE):
        s = td.step(td.step(call, np.array([A.OFFENCE_BASE])), np.array([A.DEFENCE_BASE + fd]),
                    chance=td.ScriptedChance([2, 3]))
        drawn = "\n".join(board_lines(s, 0, CONFIG)[32 - 18:32 - 4])
        assert drawn in rules, td.DEFENCE[fd].name
