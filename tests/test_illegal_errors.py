"""Errors keep secrets: an illegal action's error (message, repr, args, attributes) and the envs' illegal
action info show only what the team to act may see (core.visibility): never the hidden ball's square in a
blind scramble, the other team's special before both have picked, or the rng stream. They still name the
action, the game and the legal actions."""

import numpy as np
import pytest

from gridiron_env import GameConfig
from gridiron_env.core import IllegalActionError, action_id, action_name, from_diagram, init, step, to_diagram
from gridiron_env.core.scenario import hidden_ball_scramble
from gridiron_env.core.state import SPECIALS_PICK, State
from gridiron_env.core.state import FIELDS
from gridiron_env.core.visibility import HIDDEN_FIELDS, team_view
from gridiron_env.envs.common import illegal_reason
from gridiron_env.envs.selfplay import advance

CFG = GameConfig()
# empty squares of hidden_ball_scramble's position where the ball may hide
HIDING = ("12,5", "11,17", "14,2", "16,9")


def error_of(state: State, actions) -> IllegalActionError:
    before = state.copy()
    with pytest.raises(IllegalActionError) as info:
        step(state, actions, config=CFG)
    assert state.equals(before)  # nothing changed
    return info.value


def everything_shown(err: IllegalActionError) -> str:
    """All a caller can read off the error: str, repr, args and every attribute."""
    return "\n".join([str(err), repr(err), repr(err.args), repr(sorted(vars(err).items())),
                      repr(err.__cause__), repr(err.__context__), repr(getattr(err, "__notes__", None))])


def with_rng(state: State, key: int, counter: int) -> State:
    s = state.copy()
    s.rng_key[:] = key
    s.rng_counter[:] = counter
    return s


def specials_pick(first_pick: str) -> State:
    """Team two to pick its special; team one picked ``first_pick``."""
    s = init(1, seed=4, config=CFG)
    s = step(s, action_id(f"special {first_pick}"), config=CFG)
    assert s.phase[0] == SPECIALS_PICK and s.to_act[0] == 1
    return s


@pytest.mark.parametrize("action", ["field goal", "formation i_form", "throw X", 291, -1])
def test_an_illegal_action_in_a_blind_scramble_never_shows_the_hidden_ball(action):
    a = action_id(action) if isinstance(action, str) else action
    shown = []
    for where in HIDING:
        s = hidden_ball_scramble(where)
        assert s.ball_hidden[0]
        for key, counter in ((0, 0), (987654321987654321, 4242)):
            err = error_of(with_rng(s, key, counter), np.array([a]))
            text = everything_shown(err)
            assert f"{where} hidden" not in text and f"loose {where}" not in text
            assert "987654321987654321" not in text and "4242" not in text
            shown.append(text)
    # the strongest check: positions that differ only in where the ball hides (and in the rng) give the
    # very same error, to the character
    assert len(set(shown)) == 1
    err = error_of(hidden_ball_scramble(HIDING[0]), np.array([a]))
    assert err.game == 0 and err.action == a
    legal = [action_name(i) for i in np.flatnonzero(hidden_ball_scramble(HIDING[0]).legal[0])]
    assert list(err.legal_actions) == legal and "end turn" in legal
    assert f"(id {a})" in str(err) and "in game 0" in str(err)
    assert (repr(action_name(a)) if 0 <= a < 291 else "not an action id") in str(err)
    assert "ball: loose hidden" in str(err) and "view: team two" in str(err)


def test_an_illegal_action_in_the_specials_pick_never_shows_the_first_pick():
    shown = []
    for pick in ("lead_blocker", "ball_hawk", "sure_hands", "speedy_qb"):
        s = specials_pick(pick)
        assert pick in to_diagram(s)  # the full diagram has it ...
        err = error_of(s, np.array([action_id("end turn")]))
        text = everything_shown(err)
        # ... the error the second picker sees does not (the legal actions name every special, of course)
        assert "specials: hidden -" in str(err) and f"special {pick}'" not in str(err).split("legal actions")[0]
        assert pick not in str(err).split("\n", 1)[1]  # the picture
        assert str(int(s.rng_key[0])) not in text
        assert "'end turn' (id 0)" in str(err) and "in game 0" in str(err)
        assert list(err.legal_actions) == [f"special {p}" for p in
                                           ("lead_blocker", "ball_hawk", "sure_hands", "speedy_qb")]
        shown.append(text)
    assert len(set(shown)) == 1


def test_the_error_of_a_batch_shows_only_the_offending_game_as_its_team_sees_it():
    scramble = hidden_ball_scramble("12,5")
    pick = specials_pick("speedy_qb")
    batch = State.concatenate([scramble, pick, hidden_ball_scramble("14,2")])
    legal_scramble = int(np.flatnonzero(scramble.legal[0])[0])
    err = error_of(batch, np.array([legal_scramble, action_id("play on"), legal_scramble]))
    assert err.game == 1 and "in game 1" in str(err) and "'play on'" in str(err)
    text = everything_shown(err)
    assert "speedy_qb" not in str(err).split("\n", 1)[1] and "12,5" not in text and "14,2" not in text
    assert "phase: specials" in str(err) and "specials: hidden -" in str(err)


def test_the_team_view_diagram_hides_exactly_the_hidden_fields_and_does_not_read_back():
    s = with_rng(hidden_ball_scramble("12,5"), 77, 5)
    full = to_diagram(s)
    assert "ball: loose 12,5 hidden" in full and "rng: 77 5" in full
    assert from_diagram(full, CFG).equals(s)  # without a team: complete, and it round-trips
    for team in (0, 1, -1):
        view = to_diagram(s, team=team)
        assert "12,5" not in view and "77" not in view and "rng: hidden" in view
        # everything else is as the full diagram has it
        public = [ln for ln in full.splitlines() if not ln.startswith(("ball:", "rng:"))]
        assert [ln for ln in view.splitlines() if not ln.startswith(("ball:", "rng:", "view:"))] == public
        with pytest.raises(ValueError, match=r"line 2 \('view'\)"):
            from_diagram(view, CFG)
    pick = specials_pick("ball_hawk")
    assert "specials: hidden -" in to_diagram(pick, team=1)
    assert "specials: ball_hawk hidden" in to_diagram(pick, team=0)  # team one sees its own pick
    assert "specials: hidden hidden" in to_diagram(pick, team=-1)
    with pytest.raises(ValueError, match="team must be"):
        to_diagram(pick, team=2)


def test_team_view_is_what_agents_visible_view_blanks():
    from agents.base import visible_view

    batch = State.concatenate([with_rng(hidden_ball_scramble("12,5"), 3, 9), specials_pick("sure_hands"),
                               init(1, seed=2, config=CFG)])
    assert visible_view(batch).equals(team_view(batch))
    view = team_view(batch)
    assert view.ball_square[0] == -1 and (view.rng_key == 0).all() and (view.rng_counter == 0).all()
    assert view.special[1].tolist() == [-1, -1]  # team two to pick: team one's pick blanked
    assert team_view(batch, team=0).special[1].tolist() == [2, -1]  # team one sees its own
    assert team_view(batch, games=[1]).batch_size == 1
    changed = {name for name in FIELDS if not np.array_equal(getattr(view, name), getattr(batch, name))}
    assert changed == set(HIDDEN_FIELDS)  # exactly the hidden fields, each of them blanked here


def test_the_envs_illegal_action_info_keeps_the_secrets():
    reasons, details = [], []
    for where in HIDING:
        s = with_rng(hidden_ball_scramble(where), 31337, 99)
        reasons.append(illegal_reason(s, 0, action_id("field goal")))
        new, illegal, info = advance(s, np.array([action_id("field goal")]), CFG, "lose")
        assert illegal.tolist() == [True]
        details.append(repr(info))
    for text in reasons + details:
        assert not any(w in text for w in HIDING) and "31337" not in text
    assert len(set(reasons)) == 1 and len(set(details)) == 1
    assert "'field goal' (id 23)" in reasons[0] and "end turn" in reasons[0]
    pick_reasons = {illegal_reason(specials_pick(p), 0, 0) for p in ("lead_blocker", "speedy_qb")}
    assert len(pick_reasons) == 1  # the same whatever team one picked
    s = with_rng(hidden_ball_scramble("12,5"), 31337, 99)
    with pytest.raises(IllegalActionError) as raised:
        advance(s, np.array([action_id("field goal")]), CFG, "raise")
    assert "12,5" not in everything_shown(raised.value) and "31337" not in everything_shown(raised.value)
