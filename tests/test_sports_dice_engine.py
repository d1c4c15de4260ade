"""Sports Dice engine: config, actions, determinism, illegal actions, observation, diagrams, invariants,
rendering, the rules document, and the table-driven path against the rule functions."""

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gridiron_env.sports_dice as sd
from gridiron_env.sports_dice import actions as A
from gridiron_env.sports_dice import engine
from gridiron_env.sports_dice.render import (
    BALL, BAR_PX, CHIP_COLOUR, DICE_LEFT, DIE_PX, FIELD_PX, LINE, MARK, TARGET, TEAM_COLOURS, WIDTH, render_ansi,
    render_rgb, yard_column,
)
from gridiron_env.sports_dice.state import CHIP, GAME_OVER, OFFENCE_SYMBOLS, DEFENCE_SYMBOLS

CONFIGS = [sd.SportsDiceConfig(), sd.SportsDiceConfig(target_score=7, max_rolls=40),
           sd.SportsDiceConfig(offence_faces=("10", "20", "TD"), defence_faces=("NG", "SK", "TO", "P6", "NG"),
                               target_score=10),
           sd.SportsDiceConfig(offence_faces=("10",) * 3 + ("fg",), defence_faces=("no gain", "sack"), max_rolls=25)]


def pick(legal, seeds, t):
    """A legal action per game from a hash of (the game's seed, step t): independent of the batch."""
    seeds = np.asarray(seeds, dtype=np.uint64)
    h = engine._uniform(seeds, np.full(seeds.size, t, dtype=np.uint64), 1 << 30, 1)[:, 0]
    count = legal.sum(axis=1)
    k = h % np.maximum(count, 1)
    rank = np.cumsum(legal, axis=1) - 1
    hit = legal & (rank == k[:, None])
    return np.where(count > 0, hit.argmax(axis=1), A.WAIT).astype(np.int64)


def random_games(config, n=32, seed=0, steps=3000):
    """Yield the successive states of ``n`` games of hashed legal play until all are over."""
    s = sd.init(n, seed, config)
    seeds = seed + np.arange(n)
    yield s
    for t in range(steps):
        if s.is_over().all():
            return
        s = sd.step(s, pick(s.legal, seeds, t), config)
        yield s


# --- config -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("field,value", [
    ("target_score", 0), ("target_score", 100), ("target_score", 2.5), ("target_score", True),
    ("max_rolls", 0), ("max_rolls", 1_000_001), ("max_rolls", "9"),
    ("offence_faces", ()), ("offence_faces", "10"), ("offence_faces", ("10", "sack")), ("offence_faces", ("10",) * 13),
    ("offence_faces", (10, 20)), ("defence_faces", ("no gain", "touchdown")), ("defence_faces", None),
])
def test_config_rejects_bad_values_naming_the_field(field, value):
    with pytest.raises(ValueError, match=f"SportsDiceConfig.{field}"):
        sd.SportsDiceConfig(**{field: value})


def test_config_from_dict_replace_and_aliases():
    c = sd.SportsDiceConfig.from_dict({"offence_faces": ["TD", " Field  Goal", "10"], "target_score": 14})
    assert c.offence_faces == ("touchdown", "field goal", "10") and c.target_score == 14
    assert c.offence_face_codes == (3, 2, 0) and sd.SportsDiceConfig().defence_face_codes == (0, 0, 1, 1, 2, 3)
    again = sd.SportsDiceConfig.from_dict(c.to_dict())
    assert again == c and hash(again) == hash(c)
    assert c.replace(max_rolls=5).max_rolls == 5
    with pytest.raises(ValueError, match="SportsDiceConfig.target_score"):
        c.replace(target_score=-1)
    with pytest.raises(ValueError, match="unknown SportsDiceConfig field"):
        sd.SportsDiceConfig.from_dict({"target": 7})
    with pytest.raises(ValueError, match="needs a dict"):
        sd.SportsDiceConfig.from_dict([("target_score", 7)])


# --- actions ------------------------------------------------------------------------------------------------

def test_action_names_and_ids_both_ways():
    assert sd.NUM_ACTIONS == 19 and sd.ACTION_NAMES[A.WAIT] == "wait" and sd.IGNORED_ACTION == A.WAIT
    for i, name in enumerate(sd.ACTION_NAMES):
        assert sd.action_id(name) == i and sd.action_name(i) == name
        assert sd.action_id("  " + name.upper().replace(" ", "  ") + " ") == i
    assert sd.action_id("go-for-it") == A.GO_FOR_IT
    for k in range(8):
        assert sd.ACTION_NAMES[A.PLAY_BASE + k] == "play " + sd.SYMBOL_NAMES[k]
    for bad in ("kick", "", "play", None, 3):
        with pytest.raises(ValueError):
            sd.action_id(bad)
    for bad in (-1, 19, 2.0, True):
        with pytest.raises(ValueError):
            sd.action_name(bad)
    assert not engine._LEGAL[:, A.WAIT].any()  # the ignored id is never legal


# --- determinism ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("config", CONFIGS[:3], ids=range(3))
def test_game_i_of_a_batch_plays_like_a_lone_game_seeded_s_plus_i(config):
    seed, n = 40, 6
    history = list(random_games(config, n, seed, steps=150))
    for i in (0, 3, 5):
        lone = sd.init(1, seed + i, config)
        assert sd.init(seeds=[seed + i], config=config).equals(lone)
        for t in range(1, len(history)):
            lone = sd.step(lone, pick(lone.legal, [seed + i], t - 1), config)
            assert lone.equals(history[t].take([i])), (i, t)


def test_init_seeds_wrap_and_bad_batch_sizes():
    s = sd.init(seeds=[5, 9, 5])
    assert s.batch_size == 3 and s.take([0]).equals(s.take([2])) and s.take([0]).equals(sd.init(1, 5))
    wrapped = sd.init(3, 2**64 - 1)
    assert wrapped.take([1]).equals(sd.init(1, 0)) and wrapped.take([2]).equals(sd.init(1, 1))
    for bad in (0, -3, 2.5, True):
        with pytest.raises(ValueError):
            sd.init(bad)
    with pytest.raises(ValueError, match="does not match"):
        sd.init(2, seeds=[1, 2, 3])
    with pytest.raises(ValueError, match="config"):
        sd.init(1, 0, config={"target_score": 3})
    assert set(sd.init(400, 1).toss_winner.tolist()) == {0, 1}


# --- illegal actions ----------------------------------------------------------------------------------------

def test_illegal_action_raises_names_it_and_changes_nothing():
    s = sd.init(4, 3)
    s = sd.step(s, np.zeros(4, dtype=np.int64))  # every toss winner chooses offence
    before = s.copy()
    actions = np.array([A.ROLL, A.USE_CHIP, A.ROLL, A.ROLL])
    with pytest.raises(sd.IllegalActionError) as err:
        sd.step(s, actions)
    msg = str(err.value)
    assert "'use chip'" in msg and "game 1" in msg and "['roll']" in msg and "sports dice diagram v1" in msg
    assert err.value.game == 1 and err.value.action == A.USE_CHIP and err.value.legal_actions == ("roll",)
    assert isinstance(err.value, ValueError) and s.equals(before)
    for bad in (-1, 19, 255, A.WAIT):
        with pytest.raises(sd.IllegalActionError, match="game 2"):
            sd.step(s, np.array([A.ROLL, A.ROLL, bad, A.ROLL]))
        assert s.equals(before)
    with pytest.raises(ValueError, match="shape"):
        sd.step(s, np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="shape"):
        sd.step(s, np.zeros(4))
    with pytest.raises(sd.IllegalActionError):
        sd.step(s, actions, reuse_input=True)
    assert s.equals(before)


def test_finished_games_ignore_their_action_and_step_copies_unless_reuse_input():
    config = sd.SportsDiceConfig(target_score=3)
    games = [g for g in random_games(config, n=16, seed=1)]
    s = games[-1]
    assert s.is_over().all() and (s.to_act == -1).all() and not s.legal.any()
    before = s.copy()
    out = sd.step(s, np.full(16, A.ROLL), config)
    assert s.equals(before) and out.equals(before)
    mid = next(g for g in games if g.is_over().any() and not g.is_over().all())
    a = pick(mid.legal, np.arange(16) + 1, 999)
    a[mid.is_over()] = np.array([255, -7, 2**40, A.ROLL] * 4)[mid.is_over()]  # any int: ignored
    keep = mid.copy()
    out = sd.step(mid, a, config)
    assert mid.equals(keep)
    over = np.flatnonzero(mid.is_over())
    assert out.take(over).equals(mid.take(over))
    out2 = sd.step(mid, a, config, reuse_input=True)
    assert out2 is mid and out2.equals(out)


# --- the table-driven path --------------------------------------------------------------------------------

@pytest.mark.parametrize("config", CONFIGS, ids=range(len(CONFIGS)))
def test_table_driven_step_equals_the_rule_functions(config):
    s1 = sd.init(300, 12, config)
    s2 = s1.copy()
    seeds = 12 + np.arange(300)
    try:
        for t in range(400):
            if s1.is_over().all():
                break
            a = pick(s1.legal, seeds, t)
            engine.FAST_PATH = True
            s1 = sd.step(s1, a, config)
            engine.FAST_PATH = False
            s2 = sd.step(s2, a, config)
            assert s1.equals(s2), t
    finally:
        engine.FAST_PATH = True
    assert s1.is_over().all()


def test_table_driven_step_with_scripted_dice_draws_in_game_order():
    s = sd.init(3, 0, chance=sd.ScriptedChance([0, 1, 0]))
    s = sd.step(s, np.array([A.CHOOSE_OFFENCE] * 3))
    values = [sd.roll_value("10 10 10 10 20 FG".split(), "NG NG SK SK TO P6".split()),
              sd.roll_value("10 10 20 20 FG TD".split(), "P6 P6 P6 P6 NG SK".split()),
              sd.roll_value("10 10 20 20 FG TD".split(), "NG NG SK SK TO P6".split())]
    chance = sd.ScriptedChance(values)
    out = sd.step(s, np.full(3, A.ROLL), chance=chance)
    assert [w for w, _ in chance.log] == ["roll"] * 3
    assert out.position.tolist() == [35, 25, 25] and out.score.tolist() == [[0, 0], [7, 0], [0, 0]]
    assert int(out.phase[2]) == CHIP


# --- invariants ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("config", CONFIGS, ids=range(len(CONFIGS)))
def test_random_play_keeps_every_invariant_and_ends(config):
    phases = set()
    for s in random_games(config, n=24, seed=5):
        sd.check_invariants(s, config)
        phases |= set(s.phase.tolist())
    assert s.is_over().all()
    assert {0, 1, 2, GAME_OVER} <= phases
    if config == CONFIGS[0]:
        assert phases == set(range(8))


def test_invariants_flag_broken_states():
    s = sd.init(5, 0)
    s = sd.step(s, np.zeros(5, dtype=np.int64))
    s.position[1] = 55  # a midfield series past the 50
    s.score[2, 0] = 40
    s.dice[3, 0, 0] = 5  # a defence symbol on an offence die
    s.legal[4, A.PUNT] = True
    problems = sd.find_violations(s)
    assert {g for g, _ in problems} == {1, 2, 3, 4}
    with pytest.raises(sd.InvariantError):
        sd.check_invariants(s)


# --- observation ---------------------------------------------------------------------------------------------

def test_observation_layout_covers_the_vector():
    start = 0
    for name, (sl, meaning) in sd.OBS_LAYOUT.items():
        assert sl.start == start and meaning
        start = sl.stop
    assert start == sd.OBS_SIZE == 134
    md = sd.observation_markdown()
    assert all(f"`{name}`" in md for name in sd.OBS_LAYOUT)


def test_observation_bounds_and_team_symmetry():
    for k, s in enumerate(random_games(CONFIGS[0], n=16, seed=8)):
        if k % 5:
            continue
        for team in (0, 1):
            obs = sd.observe(s, team)
            assert obs.dtype == np.float32 and obs.shape == (16, sd.OBS_SIZE)
            assert (obs >= -2).all() and (obs <= 2).all()
            m = sd.mirror_state(s)
            assert np.array_equal(obs, sd.observe(m, 1 - team))
        assert np.array_equal(sd.legal_action_mask(s), sd.legal_action_mask(sd.mirror_state(s)))
        assert np.array_equal(sd.observe(s, s.to_act), np.where((s.to_act == 1)[:, None], sd.observe(s, 1),
                                                                 sd.observe(s, 0)))


def test_observation_values_from_the_viewers_side():
    from tests.test_sports_dice_rules import make, roll

    s = make(ball=30, down=2, offence="two", opener="two", chip="two", score="7-14")
    s = sd.step(s, np.array([A.ROLL]), chance=sd.ScriptedChance([roll("10 10 10 TD TD TD", "NG NG SK SK TO P6")]))
    L = sd.OBS_LAYOUT
    mine, theirs = sd.observe(s, 1)[0], sd.observe(s, 0)[0]

    def get(obs, name):
        return obs[L[name][0]].tolist()

    assert get(mine, "has_ball") == [1] and get(theirs, "has_ball") == [0]
    assert get(mine, "ball") == [pytest.approx(0.3)] and get(theirs, "ball") == [pytest.approx(0.7)]
    assert get(mine, "own_score") == [pytest.approx(14 / 21)] and get(theirs, "own_to_win") == [pytest.approx(14 / 21)]
    assert get(mine, "to_decide") == [1] and get(theirs, "to_decide") == [0]
    assert get(mine, "down") == [0, 1, 0, 0] and get(mine, "to_target") == [pytest.approx(0.2)]
    assert get(mine, "holds_chip") == [1] and get(mine, "rolled_offence_dice") == [1]
    assert get(theirs, "rolled_offence_dice") == [0]
    assert get(mine, "offence_dice") == pytest.approx([0.5, 0, 0, 0.5])
    assert get(mine, "counts") == pytest.approx([0.5, 2 / 6])
    assert get(mine, "top") == [1, 0, 0, 1, 1, 1, 0, 0] and get(mine, "phase")[4] == 1
    assert get(mine, "roll_winner") == [0, 1, 0] and get(mine, "play") == [1] + [0] * 8
    with pytest.raises(ValueError):
        sd.observe(s, 2)


# --- diagrams -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("config", CONFIGS, ids=range(len(CONFIGS)))
def test_diagram_round_trip(config):
    for k, s in enumerate(random_games(config, n=8, seed=2)):
        if k % 3:
            continue
        for g in range(8):
            text = sd.to_diagram(s, g)
            back = sd.from_diagram(text, config)
            assert sd.to_diagram(back) == text
            for name in sd.FIELDS:
                if name not in ("rng_key", "rng_counter"):
                    assert np.array_equal(getattr(back, name)[0], getattr(s, name)[g]), name


def _good():
    from tests.test_sports_dice_rules import make

    return sd.to_diagram(make(ball=30, down=2))


@pytest.mark.parametrize("old,new,where", [
    ("sports dice diagram v1", "sports dice diagram v2", "must start"),
    ("phase: snap", "phase: kickoff", "'phase'"),
    ("to act: one", "to act: two", "'to act'"),
    ("offence: one", "offence: three", "'offence'"),
    ("chip: two", "chip: both", "'chip'"),
    ("score: 0-0", "score: 0", "'score'"),
    ("score: 0-0", "score: a-0", "'score'"),
    ("ball: 30", "ball: 32", "'ball'.*multiple of 5"),
    ("ball: 30", "ball: 35", "'field'"),
    ("ball: 30", "ball: 100", "'ball'"),
    ("target: 50", "target: 60", "'target'"),
    ("target: 50", "target: end zone", "'field'"),
    ("down: 2", "down: 5", "'down'"),
    ("down: 2", "down: 4", "breaks the rules"),
    ("last roll: punt", "last roll: kick", "'last roll'"),
    ("roller: two", "roller: three", "'roller'"),
    ("offence dice: 10 20 FG TD FG TD", "offence dice: 10 20 FG TD FG NG", "'offence dice'"),
    ("offence dice: 10 20 FG TD FG TD", "offence dice: 10 20 FG TD FG", "'offence dice'"),
    ("defence dice: NG SK TO P6 TO P6", "defence dice: -", "'defence dice'"),
    ("chip call: -", "chip call: maybe", "'chip call'"),
    ("chip call: -", "chip call: used", "breaks the rules"),
    ("roll winner: -", "roll winner: both", "'roll winner'"),
    ("play: -", "play: XX", "'play'"),
    ("play: -", "play: TD", "breaks the rules"),
    ("rolls: 5", "rolls: 0", "breaks the rules"),
    ("steps: 6", "step: 6", "expected the line 'steps'"),
    ("steps: 6", "steps: ６", "'steps'"),
    ("result: playing", "result: maybe", "'result'"),
    ("result: playing", "result: one wins", "breaks the rules"),
])
def test_diagram_errors_name_the_line(old, new, where):
    good = _good()
    assert old in good
    with pytest.raises(ValueError, match=where):
        sd.from_diagram(good.replace(old, new))


def test_diagram_structure_errors():
    lines = _good().splitlines()
    with pytest.raises(ValueError, match="lines after the title"):
        sd.from_diagram("\n".join(lines[:-1]))
    with pytest.raises(ValueError, match="expected the line"):
        sd.from_diagram("\n".join([lines[0], lines[2], lines[1]] + lines[3:]))
    with pytest.raises(ValueError, match="must be a str"):
        sd.from_diagram(b"sports dice diagram v1")
    with pytest.raises(ValueError, match="config"):
        sd.from_diagram(_good(), {"target_score": 5})
    # a diagram valid for one face table is refused under another that cannot show its dice
    with pytest.raises(ValueError, match="no offence face"):
        sd.from_diagram(_good(), sd.SportsDiceConfig(offence_faces=("10", "TD")))


def test_every_accepted_mutated_diagram_passes_the_invariants():
    rng = np.random.default_rng(4)
    base = [sd.to_diagram(s, g) for k, s in enumerate(random_games(CONFIGS[0], n=4, seed=1)) if k % 9 == 0
            for g in range(4)]
    words = ["one", "two", "-", "10", "20", "FG", "TD", "NG", "SK", "TO", "P6", "50", "end zone", "used", "kept",
             "offence", "defence", "play", "punt"]
    accepted = 0
    for text in base:
        for _ in range(40):
            lines = text.splitlines()
            i = int(rng.integers(1, len(lines)))
            key, _, value = lines[i].partition(": ")
            parts = value.split()
            if parts:
                j = int(rng.integers(len(parts)))
                parts[j] = str(rng.integers(0, 100)) if rng.random() < 0.4 else words[int(rng.integers(len(words)))]
            lines[i] = f"{key}: {' '.join(parts)}"
            try:
                s = sd.from_diagram("\n".join(lines))
            except ValueError:
                continue
            accepted += 1
            sd.check_invariants(s)
    assert accepted > 20


# --- rendering ----------------------------------------------------------------------------------------------

def _columns(img, colour, top=BAR_PX, bottom=BAR_PX + FIELD_PX):
    hit = (img[top:bottom] == np.array(colour, dtype=np.uint8)).all(axis=2)
    return np.flatnonzero(hit.any(axis=0))


@pytest.mark.parametrize("offence", ["one", "two"])
def test_rgb_ball_the_50_and_the_chip(offence):
    from tests.test_sports_dice_rules import make

    other = "two" if offence == "one" else "one"
    for position in (5, 35, 50, 80, 95):
        s = make(ball=position, offence=offence, opener=offence, chip=other)
        img = render_rgb(s)
        assert img.dtype == np.uint8 and img.shape == (216, WIDTH, 3)
        absolute = position if offence == "one" else 100 - position
        assert abs(_columns(img, BALL).mean() - yard_column(absolute)) <= 1
        target_cols = _columns(img, TARGET)
        if position < 50:
            assert abs(target_cols.mean() - yard_column(50)) <= 1
        else:
            assert target_cols.size == 0  # the 50 is drawn as the target only while it is one
        fifty = img[BAR_PX + 2, yard_column(50) - 2:yard_column(50) + 2]
        assert (fifty == np.array(TARGET if position < 50 else LINE, np.uint8)).all(axis=1).sum() >= 3
        holder = 0 if other == "one" else 1
        bar = img[:BAR_PX]
        assert (bar == np.array(CHIP_COLOUR, np.uint8)).all(axis=2).any()
        assert (bar == np.array(TEAM_COLOURS[holder], np.uint8)).all(axis=2).any()
        assert not (bar == np.array(TEAM_COLOURS[1 - holder], np.uint8)).all(axis=2).any()


def test_rgb_dice_with_the_winning_play_marked_and_ansi():
    from tests.test_sports_dice_rules import make, roll

    s = make(ball=40, down=2)
    before = render_rgb(s)
    s = sd.step(s, np.array([A.ROLL]), chance=sd.ScriptedChance([roll("20 TD 20 20 FG 20", "NG NG SK SK TO P6")]))
    img = render_rgb(s)
    panel = img[BAR_PX + FIELD_PX:]
    marked = (panel == np.array(MARK, np.uint8)).all(axis=2)
    framed = [bool(marked[8 + side * (DIE_PX + 8) - 2, DICE_LEFT + k * (DIE_PX + 8) + DIE_PX // 2])
              for side in (0, 1) for k in range(6)]
    assert framed == [True, False, True, True, False, True] + [False] * 6  # the four 20s
    assert not np.array_equal(before[BAR_PX + FIELD_PX:], panel)
    text = render_ansi(s)
    assert "ONE 0 - 0 TWO   CHIP TWO" in text and "ONE BALL ON 60 1ST DOWN TO GOAL" in text
    assert "one offence dice: [20] TD [20] [20] FG [20]  (count 4)" in text
    assert "two defence dice: NG NG SK SK TO P6  (count 2)" in text and "offence dice win: play 20" in text
    strip = text.splitlines()[2]
    assert strip.startswith("[1]") and strip.endswith("[2]") and strip[3:-3][12] == "o"
    assert strip[3:-3][10] == ":" and "|" not in strip  # the 50 is no longer the target
    tie = sd.step(make(), np.array([A.ROLL]),
                  chance=sd.ScriptedChance([roll("10 10 20 20 FG TD", "NG NG SK SK TO P6")]))
    assert "counts tied: the chip holder decides" in render_ansi(tie) and "to act: two" in render_ansi(tie)
    punt = sd.step(make(ball=30, down=4), np.array([A.PUNT]),
                   chance=sd.ScriptedChance([roll("10 20 20 FG TD TD", "NG NG SK SK TO P6")]))
    assert "punt roll: 50 yards" in render_ansi(punt) and "[10] [20] [20] FG TD TD" in render_ansi(punt)
    with pytest.raises(ValueError):
        render_rgb(s, 1)
    with pytest.raises(ValueError):
        render_ansi(s, -1)
    assert "no roll yet" in render_ansi(sd.init(1, 0))


# --- the rules document -----------------------------------------------------------------------------------

def test_rules_document_holds_the_tables_of_the_code():
    text = (Path(sd.__file__).parent / "RULES.md").read_text()
    assert sd.observation_markdown() in text
    for name in sd.ACTION_NAMES:
        assert f"`{name}`" in text
    for f in dataclasses.fields(sd.SportsDiceConfig):
        assert f"| `{f.name}` | {f.default} |" in text
    for n in range(1, 18):
        assert f"**Ruling {n}.**" in text
    example = text.split("```\n")[1]
    assert sd.to_diagram(sd.from_diagram(example)) == example


# --- properties ---------------------------------------------------------------------------------------------

_OFF = st.lists(st.sampled_from(OFFENCE_SYMBOLS), min_size=1, max_size=4)
_DEF = st.lists(st.sampled_from(DEFENCE_SYMBOLS), min_size=1, max_size=4)


@settings(max_examples=12, deadline=None)
@given(off=_OFF, de=_DEF, target=st.integers(1, 30), seed=st.integers(0, 2**64 - 1))
def test_any_face_table_plays_valid_games_on_both_paths(off, de, target, seed):
    config = sd.SportsDiceConfig(offence_faces=tuple(off), defence_faces=tuple(de), target_score=target,
                                 max_rolls=60)
    s1 = sd.init(16, seed, config)
    s2 = s1.copy()
    seeds = (np.uint64(seed) + np.arange(16, dtype=np.uint64))
    try:
        for t in range(250):
            if s1.is_over().all():
                break
            a = pick(s1.legal, seeds, t)
            engine.FAST_PATH = True
            s1 = sd.step(s1, a, config)
            engine.FAST_PATH = False
            s2 = sd.step(s2, a, config)
            assert s1.equals(s2)
            sd.check_invariants(s1, config)
    finally:
        engine.FAST_PATH = True
    assert s1.is_over().all()


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_roll_value_gives_the_dice_back(data):
    config = sd.SportsDiceConfig(offence_faces=tuple(data.draw(_OFF)), defence_faces=tuple(data.draw(_DEF)))
    offence = data.draw(st.lists(st.sampled_from(config.offence_faces), min_size=6, max_size=6))
    defence = data.draw(st.lists(st.sampled_from(config.defence_faces), min_size=6, max_size=6))
    v = sd.roll_value(offence, defence, config)
    off_t, def_t = sd.roll_tables(config)
    nd = def_t["faces"] ** 6
    assert 0 <= v < off_t["faces"] ** 6 * nd
    assert [sd.SYMBOL_NAMES[c] for c in off_t["dice"][v // nd]] == offence
    assert [sd.SYMBOL_NAMES[c] for c in def_t["dice"][v % nd]] == defence


def test_the_solver_loads_on_first_use_and_solve_is_both_function_and_module():
    """The engine and the envs never import scipy; ``sports_dice.solve`` is callable even when the solver
    module was first imported directly (a fresh interpreter), and ``from ... import solve`` gives the module."""
    import os
    import subprocess
    import sys

    root = str(Path(sd.__file__).resolve().parents[2])
    code = ("import sys, gridiron_env.sports_dice\n"
            "assert 'scipy' not in sys.modules\n"
            "import gridiron_env.sports_dice.solve as m\n"
            "import gridiron_env.sports_dice as sd\n"
            "assert sd.solve is m and callable(m) and m.Solution is sd.Solution\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": root})
    assert done.returncode == 0, done.stderr
    from gridiron_env.sports_dice import solve as module

    assert module is sd.solve and callable(module) and hasattr(module, "_MEMO")
    assert sd.OptimalAgent.__module__ == "gridiron_env.sports_dice.agents"
    with pytest.raises(AttributeError):
        sd.no_such_name
