"""The engine and core at their edges: a game that ends by truncation on the hardest steps (a fumble, a
blind scramble, a Lead Blocker follow on offer), and clear errors for bad arguments (seeds, batch sizes,
actions, masks, configs, states, action names, GameConfig fields, pass prices, odds), each refused call
leaving the state as it was."""

from fractions import Fraction

import numpy as np
import pytest

import gridiron_env as g
from gridiron_env.config import GameConfig
from gridiron_env.core import actions as A
from gridiron_env.core import engine, odds
from gridiron_env.core.chance import ScriptedChance, _uniform, game_keys, seed_keys
from gridiron_env.core.geometry import N_SLOTS, TAGS
from gridiron_env.core.invariants import check_invariants
from gridiron_env.core.pricing import pass_price
from gridiron_env.core.scenario import position
from gridiron_env.core.state import FIELDS, GAME_OVER, PLAY, SCRAMBLE, State

pytestmark = pytest.mark.usefixtures("vectorised_batches")  # a batch of more than one is the vectorised path here
CAP = 50
CFG = GameConfig(max_steps=CAP)
# What a truncation changes in the step that reaches the cap; every other field is the uncapped step's.
END_FIELDS = {"phase", "to_act", "truncated", "ball_hidden", "follow_square", "legal"}

# H carries on row 15; MLB, just in front of him in team two's frame, tackles him with "move MLB N".
TACKLE = """
    offence: one
    to act: two
    line of scrimmage: row 16 lane 9
    points: 3-5
    board:
     14 | .   .   .   .   .   .   .   .   MLB .   .   .   .   .   .   .   .   .
     15 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
"""


def at_last_step(s: State) -> State:
    s = s.copy()
    s.steps[:] = CAP - 1
    return s


def assert_valid_truncation(capped: State, uncapped: State) -> None:
    """``capped`` is the step that reached the cap, ``uncapped`` the same step with room to spare."""
    check_invariants(capped, check_mask=True, config=CFG)
    assert capped.truncated.all() and not capped.terminated.any()
    assert (capped.phase == GAME_OVER).all() and (capped.to_act == -1).all() and (capped.winner == -1).all()
    assert not capped.legal.any() and not capped.ball_hidden.any() and (capped.follow_square == -1).all()
    assert (capped.steps == CAP).all()
    for name in set(FIELDS) - END_FIELDS - {"steps"}:
        assert np.array_equal(getattr(capped, name), getattr(uncapped, name)), name
    # the finished game ignores further actions
    assert g.step(capped, 0, config=CFG).equals(capped)


def lone_step(s, action, monkeypatch):
    """``step`` on a batch of one, checking that the plain-Python path (core/lone.py) took it."""
    taken = []
    real = engine._lone.step_one

    def spy(*args):
        taken.append(real(*args))
        return taken[-1]

    monkeypatch.setattr(engine._lone, "step_one", spy)
    out = g.step(s, action, config=CFG)
    monkeypatch.setattr(engine._lone, "step_one", real)
    assert taken and taken[-1] is out, "the lone path did not take this step"
    return out


def batched_step(s, action):
    """The same step on the vectorised path: the game twice in a batch of two, its first row."""
    out = g.step(State.concatenate([s, s]), np.array([action, action]), config=CFG)
    assert out.take(0).equals(out.take(1))
    return out.take(0)


def stream_fumble(s: State) -> State:
    """``s`` with its stream counter moved to where the next draw, the tackle's fumble roll, is 0 (a fumble):
    the lone path draws from the counter streams only, so its dice are chosen this way."""
    s = s.copy()
    key = s.rng_key[:1]
    counter = next(c for c in range(10_000) if _uniform(key, np.array([c], dtype=np.uint64), 20, 1)[0, 0] == 0)
    s.rng_counter[0] = counter
    return s


# ------------------------------------------------------------------------------- truncation on a fumble


@pytest.mark.parametrize("pick", [0, 3, 6])
def test_the_cap_reached_on_a_fumble_ends_a_valid_game_with_the_ball_shown(pick):
    # Rules 15, 27, 30: the tackle at the last allowed step fumbles (roll 0 of 20), the ball goes to the
    # pick-th free square beside the carrier, hidden; the cap then ends the game: truncated with no winner,
    # the scramble abandoned and the ball shown where it lies.
    s = position(TACKLE, config=CFG)
    tackle = A.action_id("move MLB N")
    uncapped = g.step(s, tackle, config=CFG, chance=ScriptedChance([0, pick]))
    assert uncapped.phase[0] == SCRAMBLE and uncapped.ball_hidden[0]  # the fumble happened
    chance = ScriptedChance([0, pick])
    capped = g.step(at_last_step(s), tackle, config=CFG, chance=chance)
    assert chance.queue == [] and [what for what, _ in chance.log] == ["tackle fumble", "fumble square"]
    assert_valid_truncation(capped, uncapped)
    assert capped.ball_holder[0] == -1 and capped.ball_square[0] == uncapped.ball_square[0]
    assert capped.board[0, capped.ball_square[0]] == -1  # loose on an empty square
    assert "*" in g.to_diagram(capped)  # the diagram shows the loose ball, as it shows a visible one


def test_the_cap_reached_on_a_fumble_is_the_same_on_the_lone_and_the_batched_path(monkeypatch):
    s = stream_fumble(position(TACKLE, config=CFG))
    tackle = A.action_id("move MLB N")
    uncapped = lone_step(s, tackle, monkeypatch)
    assert uncapped.phase[0] == SCRAMBLE and uncapped.ball_hidden[0]  # the stream fumbled
    assert batched_step(s, tackle).equals(uncapped)
    capped = lone_step(at_last_step(s), tackle, monkeypatch)
    assert_valid_truncation(capped, uncapped)
    assert batched_step(at_last_step(s), tackle).equals(capped)


@pytest.mark.parametrize("blind", ["end turn", "step"])
def test_the_cap_reached_in_a_blind_scramble_ends_a_valid_game(blind, monkeypatch):
    # Rule 27: a side declines its blind step (End turn) or steps blind onto a square without the ball at
    # the last allowed step: the scramble would go on with the ball hidden; the cap ends it, the ball shown.
    scramble = stream_fumble(position(TACKLE, config=CFG))
    scramble = g.step(scramble, A.action_id("move MLB N"), config=CFG)
    assert scramble.phase[0] == SCRAMBLE
    if blind == "end turn":
        action = A.END_TURN
    else:  # a blind step that misses the ball
        ball = int(scramble.ball_square[0])
        action = next(a for a in np.flatnonzero(scramble.legal[0]) if a >= A.MOVE_BASE and engine.NEIGHBOUR[
            int(scramble.to_act[0]), scramble.player_square[0, A.ACTION_ARG[a]], A.ACTION_DIRECTION[a]] != ball)
    uncapped = lone_step(scramble, action, monkeypatch)
    assert uncapped.phase[0] == SCRAMBLE and uncapped.ball_hidden[0]  # the scramble goes on
    capped = lone_step(at_last_step(scramble), action, monkeypatch)
    assert_valid_truncation(capped, uncapped)
    assert batched_step(at_last_step(scramble), action).equals(capped)


def test_the_cap_reached_on_a_lead_blocker_move_withdraws_the_follow(monkeypatch):
    # Rule 24: after a move by a team with Lead Blocker, a teammate may follow into the square just left;
    # when that move reaches the cap the game is over and no follow is on offer.
    s = position("""
        offence: one
        to act: one
        line of scrimmage: row 16 lane 9
        points: 4-0
        specials: lead_blocker -
        board:
         16 | .   .   .   .   .   .   .   .   H@  F   .   .   .   .   .   .   .   .
    """, config=CFG)
    move = A.action_id("move H N")
    uncapped = lone_step(s, move, monkeypatch)
    assert uncapped.follow_square[0] >= 0 and uncapped.legal[0, A.FOLLOW_BASE + TAGS.index("F")]
    capped = lone_step(at_last_step(s), move, monkeypatch)
    assert_valid_truncation(capped, uncapped)
    assert batched_step(at_last_step(s), move).equals(capped)


def test_a_game_won_on_the_last_allowed_step_is_won_not_truncated():
    # Rule 30: the cap truncates only a game that did not end with a winner in that step.
    s = position("""
        offence: one
        to act: one
        line of scrimmage: row 5 lane 9
        score: 20-0
        drives: 1-1
        points: 4-0
        board:
          4 | .   .   .   .   .   .   .   .   H@  .   .   .   .   .   .   .   .   .
    """, config=CFG)
    out = g.step(at_last_step(s), A.action_id("move H N"), config=CFG, chance=ScriptedChance([0]))  # PAT good
    check_invariants(out, check_mask=True, config=CFG)
    assert out.terminated[0] and not out.truncated[0] and out.winner[0] == 0


def test_the_invariants_tell_a_half_finished_game():
    # What a finished game may not keep (the fields a truncation settles), each caught by check_invariants.
    from gridiron_env.core.invariants import find_violations

    s = position(TACKLE, config=CFG)
    over = g.step(at_last_step(s), A.action_id("move MLB N"), config=CFG, chance=ScriptedChance([0, 2]))
    assert find_violations(over, check_mask=True, config=CFG) == []
    for field, value, message in (("ball_hidden", True, "the ball is hidden outside a scramble"),
                                  ("follow_square", 100, "a Lead Blocker follow on offer after the game is over"),
                                  ("to_act", 1, "a team to act after the game is over"),
                                  ("terminated", True, "both terminated and truncated"),
                                  ("phase", SCRAMBLE, "truncated but not over")):
        bad = over.copy()
        getattr(bad, field)[0] = value
        assert message in [m for _, m in find_violations(bad)], field


# ------------------------------------------------------------------------------------------------ seeds


def test_seeds_take_every_uint64_and_game_i_is_seed_plus_i_modulo_2_64():
    top = 2**64 - 1
    batch = g.init(3, seed=top)
    for i in range(3):
        assert batch.take(i).equals(g.init(1, seed=(top + i) % 2**64))
    assert batch.take(1).equals(g.init(1, seed=0))
    for seed in (0, 1, 2**63, top, np.uint64(top), np.int64(5), np.uint8(7), np.int32(2**31 - 1)):
        assert g.init(2, seed=seed).equals(g.init(2, seed=int(seed)))
        assert g.init(seeds=[seed]).equals(g.init(1, seed=int(seed)))
    assert g.init(seeds=np.array([top, 0], dtype=np.uint64)).equals(g.init(2, seed=top))
    assert g.init(seeds=np.array([3, 4], dtype=np.int8)).equals(g.init(2, seed=3))
    # the key helpers wrap rather than overflow
    np.testing.assert_array_equal(game_keys(top, 4), seed_keys([top, 0, 1, 2]))


@pytest.mark.parametrize("bad", [-1, np.int64(-1), 2**64, 2**70, True, False, np.bool_(True), 1.0, 2.5,
                                 np.float64(3), "7", None, [1], np.array(5), 1j])
def test_a_bad_seed_is_refused_naming_seed(bad):
    with pytest.raises(ValueError, match="seed"):
        g.init(2, seed=bad)
    with pytest.raises(ValueError, match="seeds"):
        g.init(seeds=[4, bad])


@pytest.mark.parametrize("bad", [[], np.array([], dtype=np.int64), np.array([1.0]), np.array([True]),
                                 np.array([-3, 4]), np.array([[1, 2]]), "12", b"12", {1.5}, [[1, 2]],
                                 (x for x in range(2)), g.init(2)])  # a State has a length, not items
def test_bad_per_game_seeds_are_refused(bad):
    with pytest.raises(ValueError, match="seeds"):
        g.init(seeds=bad)


def test_seed_and_seeds_together_and_batch_size_edges():
    with pytest.raises(ValueError, match="seed or seeds"):
        g.init(seed=3, seeds=[1, 2])
    with pytest.raises(ValueError, match="batch_size"):
        g.init(3, seeds=[1, 2])
    assert g.init(2, seeds=[1, 2]).equals(g.init(seeds=[1, 2]))
    assert g.init(np.int64(3), seed=4).equals(g.init(3, seed=4))
    for bad in (0, -1, True, np.bool_(True), 2.0, "2", 2**31, 10**30, [2], np.array(2)):
        with pytest.raises(ValueError, match="batch_size"):
            g.init(bad)
    with pytest.raises(ValueError, match="batch_size"):
        g.init()


# ------------------------------------------------------------------------------------- actions in step


def _states():
    """A lone game (the plain-Python path) and a batch of three (the vectorised path), mid-game."""
    rng = np.random.default_rng(0)
    out = []
    for batch in (1, 3):
        s = g.init(batch, seed=7)
        for _ in range(30):
            s = g.step(s, (rng.random(s.legal.shape) * s.legal).argmax(axis=1))
        out.append(s)
    return out


def _bad_action(label, s):
    """A value for ``actions`` that is not action ids, for the state ``s``."""
    legal = s.legal.argmax(axis=1)
    return {"True": True, "False": False, "np.True_": np.bool_(True), "bool array": np.ones(s.batch_size, bool),
            "list with a bool": [True] + legal[1:].tolist(), "1.7": 1.7, "float array": legal.astype(np.float64),
            "None": None, "a name": "end turn", "bytes": b"\x00", "dict": {}, "2-d": legal[None, :],
            "too long": np.append(legal, 0), "object array": legal.astype(object)}[label]


@pytest.mark.parametrize("label", ["True", "False", "np.True_", "bool array", "list with a bool", "1.7",
                                   "float array", "None", "a name", "bytes", "dict", "2-d", "too long",
                                   "object array"])
def test_actions_that_are_not_action_ids_are_refused_and_change_nothing(label):
    for s in _states():
        before = s.copy()
        with pytest.raises(ValueError, match="actions must be action ids") as err:
            g.step(s, _bad_action(label, s))
        assert not isinstance(err.value, engine.IllegalActionError)
        if "bool" in label or label in ("True", "False", "np.True_"):
            assert "bool is not an action id" in str(err.value)
        assert s.equals(before)


@pytest.mark.parametrize("bad", [-1, A.NUM_ACTIONS, 2**63 + 5, 10**30, -(10**30)])
def test_ids_outside_the_action_space_are_illegal_naming_the_id_and_the_game(bad):
    for s in _states():
        before = s.copy()
        if bad < 2**64 and bad >= -2**63:  # in an int64 array (uint64 past 2**63), in the last game
            game = s.batch_size - 1
            given = s.legal.argmax(axis=1).astype(np.int64 if bad < 2**63 else np.uint64)
            given[game] = bad
        else:  # a Python int too large for any numpy int: one id for every game, refused in the first
            game, given = 0, bad
        with pytest.raises(engine.IllegalActionError, match=f"id {bad}\\) in game {game}") as err:
            g.step(s, given)
        assert err.value.game == game and err.value.action == bad
        assert s.equals(before)


def test_valid_action_forms_step_alike():
    lone, batch = _states()
    a = int(lone.legal[0].argmax())
    results = [g.step(lone, x) for x in (a, np.int64(a), np.uint8(a), [a], (a,), np.array([a]), np.array(a),
                                         np.array([a], dtype=np.uint16))]
    assert all(r.equals(results[0]) for r in results)
    b = batch.legal.argmax(axis=1)
    results = [g.step(batch, x) for x in (b, b.tolist(), tuple(b.tolist()), b.astype(np.int16))]
    assert all(r.equals(results[0]) for r in results)


@pytest.mark.parametrize("bad", ["no", 1, True, [1, 0, 1], np.array([1, 0, 1]), np.array([True, False]),
                                 np.ones((1, 3), dtype=bool), np.array([True, False, True], dtype=object)])
def test_a_bad_active_mask_is_refused_naming_active(bad):
    _, s = _states()
    before = s.copy()
    with pytest.raises(ValueError, match="active"):
        g.step(s, s.legal.argmax(axis=1), active=bad)
    assert s.equals(before)
    lone, _ = _states()
    with pytest.raises(ValueError, match="active"):
        g.step(lone, int(lone.legal[0].argmax()), active="no")
    assert g.step(s, s.legal.argmax(axis=1), active=[True, False, True]).equals(
        g.step(s, s.legal.argmax(axis=1), active=np.array([True, False, True])))


@pytest.mark.parametrize("bad", [None, "state", {}, 3, np.zeros(3)])
def test_a_state_that_is_not_a_state_is_refused(bad):
    for call in (lambda: g.step(bad, 0), lambda: engine.recompute_legal(bad), lambda: g.legal_action_mask(bad),
                 lambda: check_invariants(bad), lambda: engine.start_drive(bad, [0], 0, 10, 8)):
        with pytest.raises(TypeError, match="state must be a State"):
            call()
        with pytest.raises(ValueError, match="state must be a State"):  # the same error is both
            call()


@pytest.mark.parametrize("bad", ["x", {}, {"max_steps": 5}, 5, GameConfig])
def test_a_config_that_is_not_a_game_config_is_refused_naming_config(bad):
    lone, batch = _states()
    for call in (lambda: g.init(2, config=bad), lambda: g.step(lone, int(lone.legal[0].argmax()), config=bad),
                 lambda: g.step(batch, batch.legal.argmax(axis=1), config=bad),
                 lambda: engine.recompute_legal(batch, bad)):
        before = batch.copy()
        with pytest.raises(ValueError, match="config must be a GameConfig"):
            call()
        assert batch.equals(before)


def test_a_chance_source_without_draw_is_refused():
    _, s = _states()
    with pytest.raises(ValueError, match="chance"):
        g.step(s, s.legal.argmax(axis=1), chance="dice")
    with pytest.raises(ValueError, match="chance"):
        g.init(2, chance=object())


@pytest.mark.parametrize("bad", [[1.7], [True], [-1], ["3"], [None], [0, 2.0]])
def test_scripted_chance_takes_only_ints(bad):
    with pytest.raises(ValueError, match="ScriptedChance outcomes must be ints"):
        ScriptedChance(bad)
    assert ScriptedChance([np.int64(3), 0]).queue == [3, 0]


def test_start_drive_checks_its_games_and_numbers():
    s = g.init(2, seed=1)
    before = s.copy()
    for games, team, row, lane in (([2], 0, 10, 8), ([-1], 0, 10, 8), ([0.5], 0, 10, 8), ([True], 0, 10, 8),
                                   ([0], 2, 10, 8), ([0], 0, 1, 8), ([0], 0, 10, 18), ([0], 0, 10.5, 8),
                                   ([0, 1], [0, 1, 0], 10, 8)):
        with pytest.raises(ValueError):
            engine.start_drive(s, games, team, row, lane)
        assert s.equals(before)


# ------------------------------------------------------------------------------- action names and ids


@pytest.mark.parametrize("bad", [1.7, 1.0, True, False, np.bool_(True), -1, A.NUM_ACTIONS, 10**30, "3", None,
                                 np.array([3]), [3], np.float64(2)])
def test_action_name_refuses_what_is_not_an_action_id(bad):
    with pytest.raises(ValueError, match="action id"):
        A.action_name(bad)


def test_action_name_and_id_keep_their_answers_for_valid_input():
    assert [A.action_name(x) for x in (0, np.int64(44), np.uint16(290), np.array(22))] == [
        "end turn", "move QB N", "follow SS", "play on"]
    assert A.action_id("  Move qb  n ") == 44 and A.action_id("PUNT 9") == 32


@pytest.mark.parametrize("bad", ["nonsense", "", "   ", "move QB", "punt 99", 5, None, b"end turn", ["end turn"]])
def test_action_id_refuses_what_is_not_an_action_name(bad):
    with pytest.raises(ValueError, match="action"):
        A.action_id(bad)


# ------------------------------------------------------------------------------------------ GameConfig


_WRONG_TYPES = [np.array(["dice"]), np.array(["dice", "paper"]), np.array([5]), np.array(5), np.array([True]),
                [5], ["dice"], (5,), None, {}, {"a": 1}, set(), object(), b"dice", 5j, float("nan")]


@pytest.mark.parametrize("field", [f for f in GameConfig.__dataclass_fields__])
@pytest.mark.parametrize("value", _WRONG_TYPES, ids=repr)
def test_every_game_config_field_refuses_a_wrong_type_with_a_value_error_naming_it(field, value):
    with pytest.raises(ValueError, match=f"GameConfig.{field} must be") as err:
        GameConfig(**{field: value})
    assert type(err.value) is ValueError
    with pytest.raises(ValueError, match=f"GameConfig.{field} must be"):
        GameConfig().replace(**{field: value})
    with pytest.raises(ValueError, match=f"GameConfig.{field} must be"):
        GameConfig.from_dict({field: value})


def test_game_config_stores_numpy_values_as_python_ones():
    c = GameConfig(target_score=np.int64(5), specials=np.bool_(False), kick_mode=np.str_("paper"),
                   paper_answer_chance=np.float64(0.5), longest_punt=np.uint8(3))
    assert c == GameConfig(target_score=5, specials=False, kick_mode="paper", paper_answer_chance=0.5,
                           longest_punt=3)
    assert [type(v) for v in (c.target_score, c.specials, c.kick_mode, c.paper_answer_chance)] == [
        int, bool, str, float]
    assert GameConfig(paper_answer_chance=Fraction(3, 5)).paper_answer_chance == Fraction(3, 5)  # kept exact
    for bad in (True, 1.0, 0, 100):
        with pytest.raises(ValueError, match="target_score"):
            GameConfig(target_score=bad)
    for bad in (1, 0, "True"):
        with pytest.raises(ValueError, match="specials"):
            GameConfig(specials=bad)
    for bad in ("Dice", "dice ", ""):
        with pytest.raises(ValueError, match="kick_mode"):
            GameConfig(kick_mode=bad)
    for bad in (0, 1.5, -0.1, float("inf"), True):
        with pytest.raises(ValueError, match="paper_answer_chance"):
            GameConfig(paper_answer_chance=bad)


@pytest.mark.parametrize("bad", [None, [("max_steps", 5)], "max_steps", 5, GameConfig()])
def test_from_dict_takes_only_a_dict(bad):
    with pytest.raises(ValueError, match="from_dict takes a dict"):
        GameConfig.from_dict(bad)


def test_unknown_config_names_are_refused():
    for call in (lambda: GameConfig.from_dict({"max_step": 5}), lambda: GameConfig.from_dict({1: 2}),
                 lambda: GameConfig().replace(max_step=5)):
        with pytest.raises(ValueError, match="unknown GameConfig field"):
            call()
    assert GameConfig.from_dict({"max_steps": 7}) == GameConfig().replace(max_steps=7) == GameConfig(max_steps=7)


# ------------------------------------------------------------------------------------------ pass prices


THROW = """
    offence: one
    to act: one
    line of scrimmage: row 16 lane 9
    points: 6-2
    board:
     12 | .   .   .   .   .   .   .   .   .   .   .   .   Z   .   .   .   .   .
     16 | .   .   .   .   .   .   .   .   QB@ .   .   .   .   .   .   .   .   .
"""


def test_pass_price_refuses_bad_receivers_and_games_and_changes_nothing():
    s = position(THROW)
    before = s.copy()
    good = pass_price(s, "Z")
    assert good.kind == "forward pass" and pass_price(s, TAGS.index("Z")) == good == pass_price(s, np.int8(8))
    assert pass_price(s, "z") == good and pass_price(s, "Z", game=np.int64(0)) == good
    for receiver in (99, N_SLOTS, -1, True, 1.5, None, "nobody", "", [8], np.array([8])):
        with pytest.raises(ValueError, match="receiver"):
            pass_price(s, receiver)
    for receiver in ("MLB", "SS", "QB"):  # a defender, or the carrier himself
        with pytest.raises(ValueError, match="game 0"):
            pass_price(s, receiver)
    for game in (1, -1, True, 0.0, "0", None, 10**20):
        with pytest.raises(ValueError, match="game"):
            pass_price(s, "Z", game=game)
    with pytest.raises(ValueError, match="state must be a State"):
        pass_price(None, "Z")
    defence_to_act = s.copy()
    defence_to_act.to_act[0] = 1
    with pytest.raises(ValueError, match="team to act"):
        pass_price(defence_to_act, "Z")
    assert s.equals(before)


@pytest.mark.parametrize("bad", [-1, True, 1.5, "2", None, odds.MAX_DICE + 1, 10**6])
def test_odds_refuse_bad_dice_counts_and_distances(bad):
    with pytest.raises(ValueError, match="offence_dice"):
        odds.completion_chance(bad, 1)
    with pytest.raises(ValueError, match="defence_dice"):
        odds.completion_chance_exact(1, bad)
    if bad not in (odds.MAX_DICE + 1, 10**6):
        with pytest.raises(ValueError, match="distance_yards"):
            odds.field_goal_chance(bad)
    assert odds.completion_chance(odds.MAX_DICE, odds.MAX_DICE) == float(
        odds.completion_chance_exact(np.int64(odds.MAX_DICE), np.uint8(odds.MAX_DICE)))
    assert odds.field_goal_chance(10**6) == 0.0 and odds.field_goal_chance(np.int64(40)) == odds.field_goal_chance(40)


# ------------------------------------------------------------------------------------ fuzzed arguments


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

_ANYTHING = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=-300, max_value=600), st.floats(), st.text(max_size=8),
    st.binary(max_size=4), st.lists(st.one_of(st.integers(-5, 300), st.booleans(), st.floats()), max_size=4),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2), st.complex_numbers(),
    hnp.arrays(st.sampled_from([np.int8, np.int64, np.uint64, np.float64, np.bool_, np.complex64]),
               hnp.array_shapes(min_dims=0, max_dims=2, max_side=4)),
)
_FUZZ_STATES = _states()


@settings(max_examples=150)
@given(_ANYTHING, st.sampled_from([0, 1]), st.sampled_from(["actions", "active", "config", "chance", "state"]))
def test_step_answers_any_argument_with_a_step_or_a_value_error_changing_nothing(value, which, argument):
    s = _FUZZ_STATES[which]
    before = s.copy()
    kwargs = {"state": s.copy(), "actions": s.legal.argmax(axis=1)}
    kwargs[argument] = value
    try:
        out = g.step(kwargs.pop("state"), kwargs.pop("actions"), **kwargs, reuse_input=False)
    except ValueError:
        pass
    else:
        assert isinstance(out, State) and (argument in ("actions", "active", "chance")
                                           or (argument == "config" and value is None))
        check_invariants(out)
    assert s.equals(before)


@settings(max_examples=150)
@given(_ANYTHING, st.sampled_from(list(GameConfig.__dataclass_fields__)))
def test_game_config_answers_any_value_with_a_config_or_a_value_error_naming_the_field(value, field):
    try:
        config = GameConfig(**{field: value})
    except ValueError as err:
        assert f"GameConfig.{field}" in str(err)
    else:
        assert getattr(config, field) == value and hash(config) == hash(GameConfig(**{field: value}))


@settings(max_examples=100)
@given(_ANYTHING)
def test_the_core_helpers_answer_any_value_with_a_value_error(value):
    s = g.init(1, seed=0)  # the specials pick: no ball carrier, so never a price
    for call in (lambda: A.action_name(value), lambda: A.action_id(value), lambda: g.init(2, seed=value),
                 lambda: g.init(seeds=value), lambda: g.init(value), lambda: odds.completion_chance(value, 1),
                 lambda: odds.field_goal_chance(value), lambda: GameConfig.from_dict(value)):
        try:
            call()
        except ValueError:
            pass
    for call in (lambda: pass_price(s, value), lambda: pass_price(s, 0, game=value)):
        with pytest.raises(ValueError):
            call()


def test_a_forfeit_ends_even_a_blind_scramble_or_an_open_follow_as_a_valid_game():
    """An env's answer to an illegal action (engine.forfeit) ends whatever was under way, as the step cap
    does: the game is won by the other team and passes check_invariants."""
    from gridiron_env.core.engine import forfeit
    from gridiron_env.core.invariants import check_invariants
    from gridiron_env.core.scenario import hidden_ball_scramble

    s = hidden_ball_scramble("12,9")
    assert s.ball_hidden.all()
    loser = int(s.to_act[0])
    forfeit(s, [0], [loser])
    check_invariants(s, check_mask=True)
    assert s.terminated[0] and not s.truncated[0] and s.winner[0] == 1 - loser and not s.ball_hidden[0]
    assert not s.legal[0].any() and s.to_act[0] == -1 and s.follow_square[0] == -1
    with pytest.raises(ValueError, match="forfeit"):
        forfeit(s, [0], [2])
