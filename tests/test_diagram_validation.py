"""Diagrams are validated: ``from_diagram`` parses every header key and board cell strictly, knows what
each phase allows, and refuses what the engine cannot play. Every refusal is a ValueError naming the line
and/or the key; every accepted diagram passes ``check_invariants`` (the cached mask included), round-trips
through ``to_diagram`` and steps with its legal actions. Fuzzed with hypothesis from real diagrams."""

import functools
import os
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gridiron_env import GameConfig
from gridiron_env.core import State, check_invariants, from_diagram, init, step, to_diagram
from gridiron_env.core.actions import SPECIALS
from gridiron_env.core.diagram import KEYS, MAX_DIAGRAM_CHARS, DiagramError
from gridiron_env.core.formations import DEFENCE_FORMATIONS, OFFENCE_FORMATIONS
from gridiron_env.core.geometry import TAGS
from gridiron_env.core.scenario import hidden_ball_scramble, position
from gridiron_env.core.state import GAME_OVER, PHASE_NAMES, SCRAMBLE, SPECIALS_PICK

pytestmark = pytest.mark.usefixtures("vectorised_batches")  # a batch of more than one is the vectorised path here
CONFIGS = (GameConfig(), GameConfig(specials=False, kick_mode="paper"),
           GameConfig(target_score=7, max_steps=150, max_rolls_per_down=2, longest_punt=5))
# An error names a line ("line 12") or a key ("key 'rolls'"); "diagram:" alone only for non-text input.
NAMED = re.compile(r"^diagram (line \d+|key '[a-z ]+')")


# --------------------------------------------------------------------------------------------- corpus


@functools.lru_cache(maxsize=None)
def corpus() -> tuple[tuple[str, int], ...]:
    """(diagram, config index) of real positions: random play in every config, sampled in every phase
    (specials pick, formations, kick decisions, play, blind scrambles, game over), plus the scenario
    helpers' hand-made scrambles."""
    out, seen_phases = [], set()
    for c, config in enumerate(CONFIGS):
        rng = np.random.default_rng(40 + c)
        s = init(48, seed=7 + c, config=config)
        for t in range(260):
            s = step(s, (rng.random(s.legal.shape) * s.legal).argmax(1), config=config)
            pick = [g for g in range(s.batch_size) if s.phase[g] == SCRAMBLE]
            if t % 9 == 0 or t < 2:  # a game of each phase present (a different one each time)
                order = np.roll(np.arange(s.batch_size), t)
                pick += [int(order[np.argmax(s.phase[order] == p)]) for p in np.unique(s.phase)]
            for g in pick:
                out.append((to_diagram(s, g), c))
                seen_phases.add(int(s.phase[g]))
    for where in ("12,5", "14,2"):
        out.append((to_diagram(hidden_ball_scramble(where)), 0))
        seen_phases.add(SCRAMBLE)
    assert seen_phases == set(range(len(PHASE_NAMES))), seen_phases
    return tuple(out)


@functools.lru_cache(maxsize=None)
def values_of(key: str) -> list[str]:
    """Every value ``key`` takes in the corpus (for cross-over mutations)."""
    return sorted({ln.partition(": ")[2] for text, _ in corpus() for ln in text.splitlines()
                   if ln.startswith(key + ": ")})


WORDS = (["one", "two", "-", "yes", "no", "row", "lane", "step", "resume", "carrier", "loose", "hidden",
          "winner", "terminated", "truncated", "0", "1", "4", "5", "8", "9", "30", "31", "-1", "1,1", "30,18",
          "15,9", "0,0", "6,1", "5,2-3", "2-3", "0-0", "a-b"] + list(PHASE_NAMES) + list(OFFENCE_FORMATIONS)
         + list(DEFENCE_FORMATIONS) + list(SPECIALS) + list(TAGS))
CELLS = [".", "*", "**", "@", "QB@@", "x"] + list(TAGS) + [t + "@" for t in TAGS]
numbers = st.one_of(st.integers(-3, 40), st.integers(-2**70, 2**70), st.sampled_from([2**63, 2**64, 2**64 - 1,
                                                                                       127, 128, 255, 32768]))
tokens = st.one_of(st.sampled_from(WORDS), numbers.map(str), st.text(max_size=12))


@st.composite
def mutated(draw):
    """(text, config) : a corpus diagram with one to three random mutations."""
    text, c = draw(st.sampled_from(corpus()))
    lines = text.split("\n")
    board = lines.index("board:")
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["value", "value", "cross", "cross", "token", "delete", "duplicate", "swap",
                                     "cell", "cell", "truncate", "key", "insert"]))
        n = len(lines)
        if n < 2:
            break
        i = draw(st.integers(0, n - 1))
        if kind in ("value", "cross", "token", "key") and 0 < i < board and ": " in lines[i]:
            key, _, value = lines[i].partition(": ")
            if kind == "value":
                value = " ".join(draw(st.lists(tokens, min_size=0, max_size=4)))
            elif kind == "cross":
                value = draw(st.sampled_from(values_of(key) or [value]))
            elif kind == "token":
                words = value.split() or [""]
                words[draw(st.integers(0, len(words) - 1))] = draw(tokens)
                value = " ".join(words)
            else:
                key = draw(st.one_of(st.sampled_from(KEYS), st.text(max_size=10)))
            lines[i] = f"{key}: {value}"
        elif kind == "delete":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "swap":
            j = draw(st.integers(0, n - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "cell" and "|" in lines[i]:
            label, _, cells = lines[i].partition("|")
            cells = cells.split()
            if cells:
                cells[draw(st.integers(0, len(cells) - 1))] = draw(st.one_of(st.sampled_from(CELLS), tokens))
            lines[i] = f"{label}| " + "   ".join(cells)
        elif kind == "truncate":
            cut = draw(st.integers(0, len("\n".join(lines))))
            lines = "\n".join(lines)[:cut].split("\n")
        elif kind == "insert":
            lines.insert(i, draw(st.one_of(st.sampled_from(["board:", "gridiron diagram v1", ""]),
                                           st.builds(lambda k, v: f"{k}: {v}", st.sampled_from(KEYS), tokens))))
        board = lines.index("board:") if "board:" in lines else len(lines)
    return "\n".join(lines), c


def check_accepted(s: State, config: GameConfig, rng: np.random.Generator, tries: int = 2) -> None:
    """What an accepted diagram promises: invariants (the cached mask equals the rules'), a round trip, and
    a live game steps with its legal actions (the lone path and the batched one) into valid states."""
    check_invariants(s, check_mask=True, config=config)
    assert from_diagram(to_diagram(s), config).equals(s)
    if s.phase[0] == GAME_OVER:
        assert not s.legal[0].any()
        return
    legal = np.flatnonzero(s.legal[0])
    assert legal.size
    for a in rng.choice(legal, size=min(tries, legal.size), replace=False):
        after = step(s, np.array([a]), config=config)
        check_invariants(after, check_mask=True, config=config)
        pair = step(State.concatenate([s, s]), np.array([a, a]), config=config)  # the batched path
        check_invariants(pair, config=config)


def check_one(text: str, config: GameConfig, seed: int = 0) -> bool:
    """Either a ValueError that names the line or key, or a state that keeps every promise. True when
    accepted."""
    try:
        s = from_diagram(text, config)
    except ValueError as err:
        assert isinstance(err, DiagramError), repr(err)
        assert NAMED.match(str(err)), str(err)
        return False
    check_accepted(s, config, np.random.default_rng(seed))
    return True


CI = os.environ.get("HYPOTHESIS_PROFILE", "ci") == "ci"


# --------------------------------------------------------------------------------------------- fuzz


@settings(max_examples=120 if CI else settings.default.max_examples, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated(), st.integers(0, 2**32 - 1))
def test_fuzz_a_mutated_diagram_is_refused_with_its_line_or_plays(case, seed):
    text, c = case
    check_one(text, CONFIGS[c], seed)


@settings(max_examples=40 if CI else settings.default.max_examples, deadline=None)
@given(st.one_of(st.text(max_size=200), st.binary(max_size=50), st.none(), st.integers(), st.lists(st.text())))
def test_fuzz_any_input_is_refused_with_a_value_error(junk):
    if isinstance(junk, str) and junk.strip().startswith("gridiron diagram v1"):
        return  # (not junk)
    with pytest.raises(ValueError, match=r"^diagram"):
        from_diagram(junk)


@pytest.mark.slow
@settings(max_examples=4000, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated(), st.integers(0, 2**32 - 1))
def test_fuzz_long_run(case, seed):
    text, c = case
    check_one(text, CONFIGS[c], seed)


def cross_over(rnd, text: str) -> str:
    """``text`` with some header values taken from other real diagrams, maybe another one's board, maybe
    a player swapped with another cell, maybe some header lines left out: mostly well-formed, often
    inconsistent (deep checks)."""
    lines = text.split("\n")
    b = lines.index("board:")
    head, board = lines[:b], lines[b:]
    if rnd.random() < 0.3:
        other = rnd.choice(corpus())[0].split("\n")
        board = other[other.index("board:"):]
    for _ in range(rnd.randint(1, 4)):
        i = rnd.randrange(1, len(head))
        key = head[i].partition(": ")[0]
        head[i] = f"{key}: {rnd.choice(values_of(key))}"
    if rnd.random() < 0.3:
        r = rnd.randrange(2, 32)
        label, _, cells = board[r].partition("|")
        cells = cells.split()
        j, k = rnd.randrange(18), rnd.randrange(18)
        cells[j], cells[k] = cells[k], cells[j]
        board[r] = f"{label}| " + "   ".join(cells)
    if rnd.random() < 0.2:
        head = head[:1] + [h for h in head[1:] if rnd.random() < 0.7 or h.startswith("line of scrimmage")]
    return "\n".join(head + board)


def test_cross_over_diagrams_are_refused_naming_the_line_or_play_on_validly():
    # accepted ones are played 8 random legal steps on, by the lone path and the batched one (equal),
    # every state valid
    import random

    rnd = random.Random(0)
    outcomes = []
    for k in range(60):
        text, c = rnd.choice(corpus())
        config = CONFIGS[c]
        text = cross_over(rnd, text)
        outcomes.append(check_one(text, config, k))
        if outcomes[-1]:
            s, rng = from_diagram(text, config), np.random.default_rng(k)
            for _ in range(8):
                if s.phase[0] == GAME_OVER:
                    break
                a = np.array([rng.choice(np.flatnonzero(s.legal[0]))])
                lone, pair = step(s, a, config=config), step(State.concatenate([s, s]), np.repeat(a, 2), config=config)
                assert pair.take(0).equals(lone) and pair.take(1).equals(lone)
                check_invariants(lone, check_mask=True, config=config)
                s = lone
    assert 5 < sum(outcomes) < 55  # both outcomes are exercised


def test_every_corpus_diagram_reads_back_and_plays():
    rng = np.random.default_rng(0)
    for k, (text, c) in enumerate(corpus()[::5]):
        s = from_diagram(text, CONFIGS[c])
        assert to_diagram(s) == text
        check_accepted(s, CONFIGS[c], rng, tries=1)


# --------------------------------------------------------------------------------------------- found bugs


def full_text(**changes) -> str:
    """A real mid-play diagram (team one on offence) with some header values replaced."""
    s = position("""
        to act: one
        line of scrimmage: row 15 lane 9
        points: 3-4
        dice: 3,1-4,2
        board:
        15 | .   .   .   .   .   .   QB@ C   LG  RG  LT  RT  X   Y   Z   H   F   .
    """)
    text = to_diagram(s)
    for key, value in changes.items():
        key = key.replace("_", " ")
        text, n = re.subn(rf"^{key}: .*$", f"{key}: {value}", text, flags=re.M)
        assert n == 1
    return text


def line_of(text: str, key: str) -> int:
    return next(n for n, ln in enumerate(text.split("\n"), 1) if ln.startswith(key + ":"))


@pytest.mark.parametrize("key,value,why", [
    ("down", "300", "from 1 to 5"),
    ("down", "0", "from 1 to 5"),
    ("down", "5", "1 to 4 in a live game"),
    ("down", "+2", "whole number"),
    ("down", "٣", "whole number"),  # a unicode digit int() would take
    ("down", "1_0", "whole number"),
    ("rng", "-1 0", "whole number"),
    ("rng", "18446744073709551616 0", "from 0 to 18446744073709551615"),
    ("rng", "1 2 3", "stream key and counter"),
    ("steps", "99999999999", "from 0 to"),
    ("offence", "-", "one, two"),
    ("opener", "-", "one, two"),
    ("last holder", "-", "one, two"),
    ("scramble", "step 0 resume -", "one, two"),
    ("scramble", "step 2 resume one", "from 0 to 1"),
    ("line to gain", "row 128", "from 1 to 30"),
    ("line to gain", "row 16", "ahead of the line of scrimmage"),
    ("line of scrimmage", "row 127 lane 9", "from 1 to 30"),
    ("line of scrimmage", "row 15 lane 19", "from 1 to 18"),
    ("line of scrimmage", "row 15 lane 1", "hash band"),
    ("line of scrimmage", "row 2 lane 9", "field of play"),
    ("line of scrimmage", "lane 9 row 15", "row R lane L"),
    ("dice", "5,2-3", "two faces"),
    ("dice", "2,5-3,1", "high then low"),
    ("dice", "7,1-3,1", "from 0 to 6"),
    ("dice", "0,0-3,1", "both teams roll together"),
    ("points", "9-0", "from 0 to 8"),
    ("points", "3", "'a-b'"),
    ("score", "1000-0", "from 0 to 999"),
    ("overtime", "maybe 0-0", "yes, no"),
    ("overtime", "no 1-0", "overtime points outside overtime"),
    ("overtime", "yes 4-0", "at most 3"),
    ("phase", "halftime", "the phase must be one of"),
    ("to act", "-", "needs a team to act"),
    ("formations", "i_form", "formation names"),
    ("formations", "i_form four_four", "the defence formation must be one of"),
    ("strong", "C C", "distinct"),
    ("strong", "QB", "strong lineman"),
    ("specials", "speedy_qb", "each team's special"),
    ("ball", "loose 15,7", "the board marks a carrier"),
    ("ball", "carrier ZZ", "player tag"),
    ("ball", "carrier X", "board marks QB@"),
    ("ball", "carrier MLB", "the carrier is MLB but the board marks QB@"),
    ("follow", "14,9 X", "lead_blocker"),
    ("follow", "14,9", "square of a pending follow"),
    ("result", "winner one terminated yes truncated no", "no result yet"),
    ("result", "winner - terminated no truncated yes", "no result yet"),
    ("rolls", "0", "rolled at least once"),
    ("rolls", "102", "from 0 to 101"),
    ("forward pass used", "maybe", "yes, no"),
    ("lead blocker used", "no", "for each team"),
])
def test_a_bad_header_value_is_refused_naming_its_line_and_key(key, value, why):
    text = full_text(**{key: value})
    with pytest.raises(ValueError) as err:
        from_diagram(text)
    message = str(err.value)
    assert message.startswith(f"diagram line {line_of(text, key)} ({key!r})"), message
    assert why in message, message


def test_the_found_crashes_are_clean_value_errors():
    # each of these used to raise OverflowError / IndexError / a crash in check_invariants or the next step
    for key, value in (("down", "300"), ("rng", "-1 0"), ("steps", "99999999999"), ("offence", "-"),
                       ("line to gain", "row 128"), ("line of scrimmage", "row 127 lane 9")):
        with pytest.raises(DiagramError, match=rf"line \d+ \('{key}'\)"):
            from_diagram(full_text(**{key: value}))
    pre_snap = "gridiron diagram v1\nphase: offence_formation\nline of scrimmage: row 15 lane 1\nboard:\n"
    with pytest.raises(DiagramError, match="hash band"):
        from_diagram(pre_snap)
    with_players = pre_snap.replace("lane 1", "lane 9") + " 20 | QB" + " ." * 17 + "\n"
    with pytest.raises(DiagramError, match=r"line 4 \('board:'\).*no players"):
        from_diagram(with_players)
    assert from_diagram(pre_snap.replace("lane 1", "lane 9")).phase[0] == 1


@pytest.mark.parametrize("edit,why", [
    (lambda t: t.replace("phase: play\n", "phase: play\nbogus: 1\n"), r"line 3: unknown key 'bogus'"),
    (lambda t: t.replace("down: 1\n", "down: 1\ndown: 2\n"), r"line 10 \('down'\): 'down' is given twice \(first on line 9\)"),
    (lambda t: t.replace("line of scrimmage: row 15 lane 9\n", ""), r"'line of scrimmage' is missing"),
    (lambda t: t.split("board:")[0], r"no 'board:' line"),
    (lambda t: t.replace("gridiron diagram v1", "gridiron diagram v2"), r"line 1: a diagram starts with"),
    (lambda t: t.replace("phase: play", "phase play"), r"line 2: not 'key: value'"),
    (lambda t: t.replace(" 15 | ", " 31 | "), r"board row 31 is off the grid"),
    (lambda t: t.replace(" 14 | ", " 15 | "), r"board row 15 is given twice"),
    (lambda t: t.replace(" 15 | .   .", " 15 | ."), r"board row 15 has 17 cells, needs 18"),
    (lambda t: t.replace(" 15 | .   .", " 15 | qb  ."), r"unknown cell 'qb' at row 15 lane 1"),
    (lambda t: t.replace(" 15 | .   .", " 15 | X   ."), r"X stands twice on the board"),
    (lambda t: t.replace(" 15 | .   .", " 15 | *   *"), r"a second loose ball"),
    (lambda t: t.replace(" 15 | .   .", " 15 | *   ."), r"has a carrier but the board shows a loose ball"),
    (lambda t: t.replace("X   Y", "X@  Y"), r"a second carrier X@ at row 15 lane 13"),
    (lambda t: t.replace("QB@", "QB ").replace("X   Y", "X@  Y"), r"the carrier is QB but the board marks X@"),
    (lambda t: t.replace(" 15 | .   .", " 15 |"), r"15 has 16 cells"),
    (lambda t: t.replace(" 15 | ", " 15 ! "), r"a board line is 'R \| 18 cells'"),
])
def test_a_bad_structure_or_board_is_refused_naming_its_line(edit, why):
    text = edit(full_text())
    with pytest.raises(ValueError, match=why) as err:
        from_diagram(text)
    assert NAMED.match(str(err.value)), str(err.value)


def test_phase_rules():
    # the engine's phases: what each allows, refused naming the key
    cases = [
        ("gridiron diagram v1\nphase: specials\nto act: two\nline of scrimmage: row 22 lane 9\nboard:\n",
         "'specials'.*team one's special is picked"),
        ("gridiron diagram v1\nphase: specials\nspecials: speedy_qb -\nline of scrimmage: row 22 lane 9\nboard:\n",
         "'specials'.*team one picks first"),
        ("gridiron diagram v1\nphase: offence_formation\nto act: two\nline of scrimmage: row 22 lane 9\nboard:\n",
         "'to act'.*the offence"),
        ("gridiron diagram v1\nphase: offence_formation\nrolls: 3\nline of scrimmage: row 22 lane 9\nboard:\n",
         "'rolls'.*before the first roll"),
        ("gridiron diagram v1\nphase: offence_formation\nstrong: C\nline of scrimmage: row 22 lane 9\nboard:\n",
         "'strong'"),
        ("gridiron diagram v1\nphase: offence_formation\nformations: i_form -\nline of scrimmage: row 22 lane 9\n"
         "board:\n", "'formations'.*no formation is picked yet"),
        ("gridiron diagram v1\nphase: offence_formation\nball: loose 3,3\nline of scrimmage: row 22 lane 9\n"
         "board:\n", "'ball'.*before the snap"),
        ("gridiron diagram v1\nphase: game_over\nline of scrimmage: row 22 lane 9\nboard:\n",
         "'result'.*terminated .*or truncated"),
        ("gridiron diagram v1\nphase: game_over\nto act: one\nresult: winner two terminated yes truncated no\n"
         "line of scrimmage: row 22 lane 9\nboard:\n", "'to act'.*nobody acts"),
        ("gridiron diagram v1\nphase: game_over\nresult: winner - terminated yes truncated no\n"
         "line of scrimmage: row 22 lane 9\nboard:\n", "'result'.*has a winner"),
    ]
    for text, why in cases:
        with pytest.raises(DiagramError, match=why):
            from_diagram(text)
    pick = "gridiron diagram v1\nphase: specials\nline of scrimmage: row 22 lane 9\nboard:\n"
    assert from_diagram(pick).legal[0].sum() == 4
    with pytest.raises(DiagramError, match=r"line 2 \('phase'\): there is no specials phase"):
        from_diagram(pick, GameConfig(specials=False))
    over = from_diagram("gridiron diagram v1\nphase: game_over\nresult: winner two terminated yes truncated no\n"
                        "line of scrimmage: row 22 lane 9\nboard:\n")
    assert over.to_act[0] == -1 and not over.legal[0].any()  # the phase's defaults: nobody to act


def test_defence_formation_needs_the_offence_in_its_formation():
    s = init(1, seed=3, config=GameConfig(specials=False))
    s = step(s, np.array([1]))  # formation i_form
    text = to_diagram(s)
    assert from_diagram(text).equals(s)
    qb_row = next(ln for ln in text.splitlines() if "QB@" in ln)
    moved = text.replace(qb_row, qb_row.replace(".   QB@", "QB@ .  ", 1))
    assert moved != text
    with pytest.raises(DiagramError, match=r"'board:'.*offence stands in its formation \(i_form\): QB belongs on"):
        from_diagram(moved)
    with pytest.raises(DiagramError, match=r"'formations'"):
        from_diagram(text.replace("formations: i_form -", "formations: - -"))


def test_kick_decision_needs_a_kick():
    # team one on offence at row 8 (a short field goal): the engine stops for the kick decision
    s = from_diagram("gridiron diagram v1\nphase: offence_formation\nline of scrimmage: row 8 lane 9\nboard:\n")
    s = step(step(s, np.array([1])), np.array([9]))  # formations i_form, four_three
    assert PHASE_NAMES[s.phase[0]] == "kick_decision" and s.legal[0, 23]
    text = to_diagram(s)
    assert from_diagram(text).equals(s)
    # the same men with the LOS far from the goal, 1st down: no kick to decide, no such phase
    far = text.replace("line of scrimmage: row 8 lane 9", "line of scrimmage: row 25 lane 9").replace(
        "line to gain: row 5", "line to gain: row 22")
    with pytest.raises(DiagramError, match=r"\('down'\).*field goal in range or on 4th down"):
        from_diagram(far)
    assert from_diagram(far.replace("down: 1", "down: 4")).legal[0, 24]  # 4th down: a punt


def test_the_loose_ball_lies_on_an_empty_square_and_hides_only_in_a_scramble():
    board = (" 10 | .   .   LDE LDT RDT RDE SLB MLB WLB LCB RCB FS  SS  .   .   .   .   .\n"
             " 15 | .   .   .   .   .   .   QB  C   LG  RG  LT  RT  X   Y   Z   H   F   .\n")
    head = "gridiron diagram v1\nline of scrimmage: row 15 lane 9\npoints: 3-4\n"
    assert from_diagram(head + "ball: loose 14,9\nboard:\n" + board).ball_square[0] == 13 * 18 + 8
    assert from_diagram(head + "board:\n" + board.replace(" 15 | . ", " 15 | * ")).ball_square[0] == 14 * 18
    with pytest.raises(DiagramError, match=r"line 4 \('ball'\): the loose ball's square 15,7 is not empty"):
        from_diagram(head + "ball: loose 15,7\nboard:\n" + board)
    with pytest.raises(DiagramError, match=r"line 4 \('ball'\): the ball is hidden only in the scramble phase"):
        from_diagram(head + "ball: loose 14,9 hidden\nboard:\n" + board)
    with pytest.raises(DiagramError, match=r"line 4 \('ball'\): in the scramble phase the ball lies loose and hidden"):
        from_diagram(head + "ball: loose 14,9\nphase: scramble\nboard:\n" + board)
    with pytest.raises(DiagramError, match=r"\('ball'\).*the board's '\*' \(line 7\) is not the visible loose ball"):
        from_diagram(head + "ball: loose 14,9\nboard:\n" + board.replace(" 15 | . ", " 15 | * "))
    with pytest.raises(DiagramError, match=r"^diagram key 'ball' \(left out: default '-'\): in the play phase the ball has a carrier"):
        from_diagram(head + "board:\n" + board)


def test_input_that_is_not_a_diagram_gets_a_clear_error():
    for junk, why in ((None, "a diagram is a str, got NoneType"), (b"gridiron diagram v1", "got bytes"),
                      (42, "got int"), ("", "line 1: a diagram starts"), ("\n\n  \n", "line 1: a diagram starts"),
                      ("x" * (MAX_DIAGRAM_CHARS + 1), "too long"),
                      (full_text() + "\n" * MAX_DIAGRAM_CHARS, "too long")):
        with pytest.raises(ValueError, match=why):
            from_diagram(junk)
    with pytest.raises(DiagramError, match=r"line 2 \('phase'\)") as err:  # a long value is quoted cut short
        from_diagram(full_text(phase="x" * 60_000))
    assert len(str(err.value)) < 300
    with pytest.raises(TypeError):  # (a wrong type is also a TypeError)
        from_diagram(None)
    with pytest.raises(ValueError, match="config must be a GameConfig"):
        from_diagram(full_text(), config={"specials": False})


def test_a_partial_diagram_takes_phase_aware_defaults():
    s = from_diagram("gridiron diagram v1\nphase: offence_formation\noffence: two\nline of scrimmage: row 9 lane 10\n"
                     "board:\n")
    assert s.to_act[0] == 1 and s.rolls[0] == 0 and s.line_to_gain[0] == 11 and s.last_holder_team[0] == 1
    play = from_diagram(full_text())
    assert play.rolls[0] == 1
