"""Table Football engine: config, actions, determinism, illegal actions, observation, diagrams, invariants,
rendering, and the table-driven path against the rule functions."""

import numpy as np
import pytest

import gridiron_env.table_football as tf
from gridiron_env.table_football import actions as A
from gridiron_env.table_football import engine
from gridiron_env.table_football.render import BALL, TO_GAIN, yard_column, BAR_PX, render_ansi, render_rgb

CONFIGS = [tf.TableFootballConfig(), tf.TableFootballConfig(downs=3, target_score=14),
           tf.TableFootballConfig(recovery_option=True), tf.TableFootballConfig(clock=True),
           tf.TableFootballConfig(clock=True, recovery_option=True, clock_target=True, target_score=21),
           tf.TableFootballConfig(clock=True, quarter_boxes=6, two_minute_boxes=2, timeouts_per_half=1,
                                  overtime_timeouts=0, max_plays=60)]


def random_games(config, n=32, seed=0, steps=3000):
    """Yield the successive states of ``n`` games of random legal play until all are over."""
    s = tf.init(n, seed, config)
    agent = tf.RandomAgent()
    agent.reset(seed + np.arange(n))
    yield s
    for _ in range(steps):
        if s.is_over().all():
            return
        s = tf.step(s, agent.act(s, config), config)
        yield s


# --- config -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("field,value", [
    ("target_score", 0), ("target_score", 100), ("target_score", 2.5), ("target_score", True),
    ("downs", 5), ("downs", 2), ("downs", True), ("clock", 1), ("recovery_option", "yes"), ("max_plays", 0),
    ("clock_target", None), ("quarter_boxes", 0), ("quarter_boxes", 241), ("two_minute_boxes", -1),
    ("two_minute_boxes", 60), ("timeouts_per_half", 10), ("overtime_timeouts", -1),
])
def test_config_rejects_bad_values_naming_the_field(field, value):
    with pytest.raises(ValueError, match=f"TableFootballConfig.{field}"):
        tf.TableFootballConfig(**{field: value})


def test_config_from_dict_and_defaults():
    c = tf.TableFootballConfig.from_dict({"downs": 3, "clock": True})
    assert c.downs == 3 and c.clock and c.target_score == 28 and c.quarter_boxes == 60
    assert tf.TableFootballConfig.from_dict(c.to_dict()) == c
    with pytest.raises(ValueError, match="unknown TableFootballConfig field"):
        tf.TableFootballConfig.from_dict({"downz": 3})
    with pytest.raises(ValueError, match="needs a dict"):
        tf.TableFootballConfig.from_dict([("downs", 3)])
    assert not tf.TableFootballConfig(clock=True).target_on and tf.TableFootballConfig().target_on


# --- actions ------------------------------------------------------------------------------------------------

def test_action_names_and_ids_both_ways():
    assert tf.ACTION_NAMES == ("run play", "field goal", "punt", "decline", "contest", "out of bounds", "time out")
    for i, name in enumerate(tf.ACTION_NAMES):
        assert tf.action_id(name) == i and tf.action_name(i) == name
        assert tf.action_id("  " + name.upper().replace(" ", "  ") + " ") == i
    assert tf.action_id("time-out") == A.TIME_OUT
    for bad in ("kick", "", "run", None, 3):
        with pytest.raises(ValueError):
            tf.action_id(bad)
    for bad in (-1, 7, 2.0, True):
        with pytest.raises(ValueError):
            tf.action_name(bad)


# --- determinism ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("config", CONFIGS[:4], ids=lambda c: f"clock={c.clock},opt={c.recovery_option}")
def test_game_i_of_a_batch_plays_like_a_lone_game_seeded_s_plus_i(config):
    seed, n = 40, 6
    agent = tf.RandomAgent()
    batch = tf.init(n, seed, config)
    agent.reset(seed + np.arange(n))
    history = [batch]
    for _ in range(120):
        batch = tf.step(batch, agent.act(batch, config), config)
        history.append(batch)
    for i in (0, 3, 5):
        lone = tf.init(1, seed + i, config)
        lone_agent = tf.RandomAgent()
        lone_agent.reset(np.array([seed + i]))
        assert tf.init(seeds=[seed + i], config=config).equals(lone)
        for t in range(1, 121):
            lone = tf.step(lone, lone_agent.act(lone, config), config)
            assert lone.equals(history[t].take([i])), (i, t)


def test_init_seeds_and_bad_batch_sizes():
    s = tf.init(seeds=[5, 9, 5])
    assert s.batch_size == 3 and s.take([0]).equals(s.take([2])) and s.take([0]).equals(tf.init(1, 5))
    for bad in (0, -3, 2.5, True):
        with pytest.raises(ValueError):
            tf.init(bad)
    with pytest.raises(ValueError, match="does not match"):
        tf.init(2, seeds=[1, 2, 3])
    with pytest.raises(ValueError, match="config"):
        tf.init(1, 0, config={"downs": 3})


# --- illegal actions ----------------------------------------------------------------------------------------

def test_illegal_action_raises_names_it_and_changes_nothing():
    config = tf.TableFootballConfig(clock=True)
    s = tf.init(4, 3, config)
    before = s.copy()
    actions = np.array([A.RUN_PLAY, A.TIME_OUT, A.RUN_PLAY, A.RUN_PLAY])
    with pytest.raises(tf.IllegalActionError) as err:
        tf.step(s, actions, config)
    msg = str(err.value)
    assert "'time out'" in msg and "game 1" in msg and "['run play', 'field goal']" in msg
    assert err.value.game == 1 and err.value.action == A.TIME_OUT
    assert s.equals(before)
    for bad in (-1, 7, 255):
        with pytest.raises(tf.IllegalActionError, match="not an action id"):
            tf.step(s, np.array([0, 0, bad, 0]), config)
        assert s.equals(before)
    with pytest.raises(ValueError, match="shape"):
        tf.step(s, np.zeros(3, dtype=np.int64), config)
    with pytest.raises(ValueError, match="shape"):
        tf.step(s, np.zeros(4), config)
    # reuse_input with an illegal action changes nothing either
    with pytest.raises(tf.IllegalActionError):
        tf.step(s, actions, config, reuse_input=True)
    assert s.equals(before)


def test_finished_games_ignore_their_action_and_step_copies_unless_reuse_input():
    config = tf.TableFootballConfig(target_score=3)
    s = tf.State.concatenate([_state_at(0, 80, 90), _state_at(0, 80, 90)])
    chance = tf.ScriptedChance([5, 0])  # both kick from 80: a 6 is good (and wins), a 1 misses
    s = tf.step(s, np.array([A.FIELD_GOAL, A.FIELD_GOAL]), config, chance=chance)
    assert s.terminated[0] and not s.terminated[1]
    before = s.copy()
    out = tf.step(s, np.array([99, A.RUN_PLAY]), config)
    assert s.equals(before) and out.take([0]).equals(before.take([0]))
    out2 = tf.step(s, np.array([99, A.RUN_PLAY]), config, reuse_input=True)
    assert out2 is s and out2.equals(out)


# --- the table-driven path --------------------------------------------------------------------------------

_C = tf.TableFootballConfig
TABLE_CONFIGS = [
    _C(), _C(downs=3, target_score=10, max_plays=40),
    _C(clock=True), _C(clock=True, recovery_option=True), _C(recovery_option=True),
    _C(recovery_option=True, downs=3, target_score=10),
    _C(clock=True, quarter_boxes=3, two_minute_boxes=1, timeouts_per_half=1, overtime_timeouts=0),
    _C(clock=True, clock_target=True, target_score=7, recovery_option=True, quarter_boxes=10, two_minute_boxes=0,
       timeouts_per_half=0),
    _C(clock=True, quarter_boxes=1, two_minute_boxes=0, max_plays=5),
    _C(clock=True, recovery_option=True, downs=3, quarter_boxes=20, timeouts_per_half=9, overtime_timeouts=9,
       max_plays=150),
    _C(target_score=1), _C(target_score=99, max_plays=25),
    _C(clock=True, clock_target=True, target_score=14, downs=3, quarter_boxes=12, two_minute_boxes=11),
    _C(clock=True, recovery_option=True, quarter_boxes=8, two_minute_boxes=0, timeouts_per_half=0,
       overtime_timeouts=0),
]


@pytest.mark.parametrize("config", TABLE_CONFIGS, ids=range(len(TABLE_CONFIGS)))
def test_table_driven_step_equals_the_rule_functions(config):
    """The tables (the basic game's, and the clock's and the recovery option's whole-column step) play the
    same games as the rule functions: every field of every game after every step, random legal play with
    the decline taken half the time where it is legal (longer games, every clock decision both ways), a
    finished game given any action (ignored), and finished games refilled with new ones for a while (so the
    batch mixes every stage of a game)."""
    s1 = tf.init(300, 12, config)
    s2 = s1.copy()
    rng = np.random.default_rng(1)
    from agents.base import pick_uniform_legal
    try:
        for i in range(100_000):
            over = s1.is_over()
            if over.all():
                break
            if i < 60 and i % 6 == 5 and over.any():
                refill = tf.init(int(over.sum()), 1000 + i, config)
                s1.put(np.flatnonzero(over), refill)
                s2.put(np.flatnonzero(over), refill)
                over = s1.is_over()
            a = pick_uniform_legal(s1.legal, rng.random(300))
            a = np.where(s1.legal[:, A.DECLINE] & (rng.random(300) < 0.5), A.DECLINE, a)
            a = np.where(over, rng.choice([-1, 6, 99], 300), a)
            engine.FAST_PATH = True
            s1 = tf.step(s1, a, config, reuse_input=bool(i % 2))
            engine.FAST_PATH = False
            s2 = tf.step(s2, a, config)
            assert s1.equals(s2)
    finally:
        engine.FAST_PATH = True
    assert s1.is_over().all()


# --- invariants ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("config", CONFIGS, ids=range(len(CONFIGS)))
def test_random_play_keeps_every_invariant_and_ends(config):
    phases = set()
    for s in random_games(config, n=24, seed=5):
        tf.check_invariants(s, config)
        phases |= set(s.phase.tolist())
    assert s.is_over().all()
    assert 0 in phases and 6 in phases
    if config.clock:
        assert {2, 3, 4, 5} <= phases
    if config.recovery_option:
        assert 1 in phases


def test_invariants_flag_a_broken_state():
    s = tf.init(3, 0)
    s.line_to_gain[1] = s.position[1]
    s.score[2, 0] = 40
    problems = tf.find_violations(s)
    games = {g for g, _ in problems}
    assert games == {1, 2}
    with pytest.raises(tf.InvariantError):
        tf.check_invariants(s)


# --- observation ---------------------------------------------------------------------------------------------

def test_observation_layout_covers_the_vector():
    start = 0
    for name, (sl, meaning) in tf.OBS_LAYOUT.items():
        assert sl.start == start and meaning
        start = sl.stop
    assert start == tf.OBS_SIZE
    md = tf.observation_markdown()
    assert all(f"`{name}`" in md for name in tf.OBS_LAYOUT)


@pytest.mark.parametrize("config", [CONFIGS[0], CONFIGS[4]], ids=["basic", "clock"])
def test_observation_bounds_and_team_symmetry(config):
    for k, s in enumerate(random_games(config, n=16, seed=8)):
        if k % 7:
            continue
        for team in (0, 1):
            obs = tf.observe(s, team, config)
            assert obs.dtype == np.float32 and obs.shape == (16, tf.OBS_SIZE)
            assert (obs >= -2).all() and (obs <= 2).all()
            m = tf.mirror_state(s)
            assert np.array_equal(obs, tf.observe(m, 1 - team, config))
        assert np.array_equal(tf.legal_action_mask(s), tf.legal_action_mask(tf.mirror_state(s)))


def test_observation_values_from_the_viewers_side():
    config = tf.TableFootballConfig()
    s = tf.from_diagram(diagram_text(False, offence="two", snap_offence="two", to_act="two", score="7-14"))
    L = tf.OBS_LAYOUT
    mine = tf.observe(s, 1, config)[0]
    theirs = tf.observe(s, 0, config)[0]
    assert mine[L["has_ball"][0]][0] == 1 and theirs[L["has_ball"][0]][0] == 0
    assert mine[L["ball"][0]][0] == pytest.approx(0.2) and theirs[L["ball"][0]][0] == pytest.approx(0.8)
    assert mine[L["own_score"][0]][0] == pytest.approx(14 / 28) and theirs[L["own_score"][0]][0] == pytest.approx(7 / 28)
    assert mine[L["to_decide"][0]][0] == 1 and theirs[L["to_decide"][0]][0] == 0
    assert mine[L["down"][0]].tolist() == [1, 0, 0, 0]
    with pytest.raises(ValueError):
        tf.observe(s, 2, config)


# --- diagrams -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("config", CONFIGS, ids=range(len(CONFIGS)))
def test_diagram_round_trip(config):
    for k, s in enumerate(random_games(config, n=8, seed=2)):
        if k % 5:
            continue
        for g in range(8):
            text = tf.to_diagram(s, g)
            back = tf.from_diagram(text, config)
            assert tf.to_diagram(back) == text
            for name in tf.FIELDS:
                if name not in ("rng_key", "rng_counter"):
                    assert np.array_equal(getattr(back, name)[0], getattr(s, name)[g]), name


def diagram_text(clock=True, **kv):
    """A diagram from the fields of a clock (or basic) game at the opening; keywords use _ for spaces."""
    from gridiron_env.table_football.diagram import field_strip

    h = {"phase": "choose", "to act": "one", "offence": "one", "snap offence": "one", "opener": "one",
         "score": "0-0", "ball": 20, "line to gain": 30, "down": 1, "field": None,
         "quarter": 1 if clock else "-", "boxes": 60 if clock else "-", "time outs": "3-3" if clock else "-",
         "pending cost": 0, "last play": "-", "plays": 0, "steps": 0, "result": "playing"}
    for k, v in kv.items():
        h[k.replace("_", " ")] = v
    if h["field"] is None:
        h["field"] = field_strip(int(h["ball"]), int(h["line to gain"]))
    return "table football diagram v1\n" + "\n".join(f"{k}: {v}" for k, v in h.items()) + "\n"


GOOD = diagram_text()


@pytest.mark.parametrize("old,new,where", [
    ("table football diagram v1", "table football diagram v2", "must start"),
    ("phase: choose", "phase: kickoff", "'phase'"),
    ("to act: one", "to act: two", "'to act'"),
    ("offence: one", "offence: three", "'offence'"),
    ("score: 0-0", "score: 0", "'score'"),
    ("score: 0-0", "score: a-0", "'score'"),
    ("ball: 20", "ball: 22", "'ball'.*multiple of 5"),
    ("ball: 20", "ball: 25", "'field'"),
    ("ball: 20", "ball: 0", "'ball'"),
    ("line to gain: 30", "line to gain: 20", "'field'"),
    ("down: 1", "down: 5", "'down'"),
    ("field: G...o.|.............G", "field: G...o..|............G", "'field'"),
    ("quarter: 1", "quarter: 6", "'quarter'"),
    ("boxes: 60", "boxes: 61", "'boxes'"),
    ("time outs: 3-3", "time outs: 3", "'time outs'"),
    ("last play: -", "last play: kick 3", "'last play'"),
    ("last play: -", "last play: run 7-1", "'last play'"),
    ("result: playing", "result: maybe", "'result'"),
    ("steps: 0", "step: 0", "expected the line 'steps'"),
    ("pending cost: 0", "pending cost: 2", "breaks the rules"),
    ("time outs: 3-3", "time outs: 4-3", "breaks the rules"),
    ("result: playing", "result: one wins", "breaks the rules"),
])
def test_diagram_errors_name_the_line(old, new, where):
    assert old in GOOD
    with pytest.raises(ValueError, match=where):
        tf.from_diagram(GOOD.replace(old, new))


def test_diagram_structure_errors_and_config_mismatch():
    lines = GOOD.splitlines()
    with pytest.raises(ValueError, match="lines after the title"):
        tf.from_diagram("\n".join(lines[:-1]))
    with pytest.raises(ValueError, match="expected the line"):
        tf.from_diagram("\n".join([lines[0], lines[2], lines[1]] + lines[3:]))
    with pytest.raises(ValueError, match="clock=False"):
        tf.from_diagram(GOOD, tf.TableFootballConfig())
    with pytest.raises(ValueError, match="must be a str"):
        tf.from_diagram(b"table football diagram v1")


def test_every_accepted_mutated_diagram_passes_the_invariants():
    rng = np.random.default_rng(4)
    base = [tf.to_diagram(s, g) for k, s in enumerate(random_games(CONFIGS[4], n=4, seed=1)) if k % 40 == 0
            for g in range(4)]
    config = CONFIGS[4]
    accepted = 0
    for text in base:
        for _ in range(20):
            lines = text.splitlines()
            i = int(rng.integers(1, len(lines)))
            key, _, value = lines[i].partition(": ")
            digits = [c for c in value if c.isdigit()]
            if digits:
                pos = [j for j, c in enumerate(value) if c.isdigit()][int(rng.integers(len(digits)))]
                value = value[:pos] + str(int(rng.integers(10))) + value[pos + 1:]
            lines[i] = f"{key}: {value}"
            try:
                s = tf.from_diagram("\n".join(lines), config)
            except ValueError:
                continue
            accepted += 1
            tf.check_invariants(s, config)
    assert accepted > 20


# --- rendering ----------------------------------------------------------------------------------------------

def _state_at(offence, position, ltg, clock=False):
    team = "one" if offence == 0 else "two"
    text = diagram_text(clock, to_act=team, offence=team, snap_offence=team, ball=position, line_to_gain=ltg,
                        down=2)
    return tf.from_diagram(text, tf.TableFootballConfig(clock=clock))


def _columns(img, colour):
    hit = (img[BAR_PX:] == np.array(colour, dtype=np.uint8)).all(axis=2)
    return np.flatnonzero(hit.any(axis=0))


@pytest.mark.parametrize("offence", [0, 1])
def test_rgb_ball_and_line_to_gain_follow_the_position(offence):
    for position in (5, 35, 50, 80, 95):
        ltg = min(position + 5, 100)
        s = _state_at(offence, position, ltg)
        img = render_rgb(s)
        assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
        absolute = position if offence == 0 else 100 - position
        ball_cols = _columns(img, BALL)
        assert abs(ball_cols.mean() - yard_column(absolute)) <= 1
        ltg_abs = ltg if offence == 0 else 100 - ltg
        assert abs(_columns(img, TO_GAIN).mean() - yard_column(ltg_abs)) <= 1.5


def test_rgb_bar_text_and_ansi():
    s = _state_at(1, 60, 70, clock=True)
    img = render_rgb(s)
    assert (img[:BAR_PX] != img[0, 0]).any()  # text drawn on the bar
    other = _state_at(1, 60, 70, clock=False)
    assert not np.array_equal(render_rgb(other)[:BAR_PX], img[:BAR_PX])  # the clock text differs
    text = render_ansi(s)
    assert "ONE 0 - 0 TWO" in text and "Q1 60 BOXES" in text and "TO 3-3" in text and "TWO BALL 2ND & 10" in text
    strip = text.splitlines()[2]
    assert strip.startswith("[1]") and strip.endswith("[2]")
    cells = strip[3:-3]
    assert cells[(100 - 60) // 5] == "o" and cells[(100 - 70) // 5] == "|"
    with pytest.raises(ValueError):
        render_rgb(s, 1)
    over = tf.step(_state_at(0, 95, 100), np.array([A.FIELD_GOAL]), tf.TableFootballConfig(target_score=3),
                   chance=tf.ScriptedChance([0]))
    assert "ONE WINS" in render_ansi(over)


# --- the rules document -----------------------------------------------------------------------------------

def test_rules_document_holds_the_tables_of_the_code():
    from pathlib import Path
    import dataclasses

    text = (Path(tf.__file__).parent / "RULES.md").read_text()
    assert tf.observation_markdown() in text
    for name in tf.ACTION_NAMES:
        assert f"`{name}`" in text
    for f in dataclasses.fields(tf.TableFootballConfig):
        assert f"| `{f.name}` | {f.default} |" in text
    for total, (name, _, _, boxes) in tf.RESULTS.items():
        assert f"| {total} | {6 - abs(total - 7)} | {name} |" in text
    for n in range(1, 17):
        assert f"**Ruling {n}.**" in text
    assert "**Basic game.**" in text and "**Clock version.**" in text
    # the example diagram in the document is a valid diagram
    example = text.split("```\n")[1]
    tf.from_diagram(example)
