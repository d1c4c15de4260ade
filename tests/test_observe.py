"""The observation encoder: layout, symmetry between the teams, and hidden information."""

import numpy as np
import pytest

import gridiron_env as g
from gridiron_env.core import action_id
from gridiron_env.core.engine import recompute_legal
from gridiron_env.core.observe import (
    FEATURE_LAYOUT, FEATURES_SIZE, N_PLANES, PLANE_LAYOUT, SCALAR_LAYOUT, SCALARS_SIZE, observe,
    observe_planes,
)
from gridiron_env.core.state import SCRAMBLE, mirror_state
from gridiron_env.core.scenario import hidden_ball_scramble
from gridiron_env.core.scenario import random_positions


def random_states(batch=32, steps=300, seed=3):
    return random_positions(batch, steps, seed)


def test_layouts_tile_the_vectors_without_gaps():
    for layout, size in ((FEATURE_LAYOUT, FEATURES_SIZE), (SCALAR_LAYOUT, SCALARS_SIZE)):
        covered = np.zeros(size, dtype=int)
        for sl, _meaning in layout.values():
            covered[sl] += 1
        assert (covered == 1).all()
    assert sorted(i for i, _ in PLANE_LAYOUT.values()) == list(range(N_PLANES))


def test_shapes_dtypes_and_ranges():
    s = random_states()
    f = observe(s)
    assert f.shape == (32, FEATURES_SIZE) and f.dtype == np.float32
    assert np.isfinite(f).all() and f.min() >= -1.0 and f.max() <= 1.5
    planes, scalars = observe_planes(s)
    assert planes.shape == (32, N_PLANES, 30, 18) and planes.dtype == np.uint8
    assert scalars.dtype == np.float32 and scalars.shape == (32, SCALARS_SIZE)
    # the scalar tail of the features is the planes' scalars
    np.testing.assert_array_equal(f[:, FEATURE_LAYOUT["players"][0].stop:], scalars)


@pytest.mark.parametrize("team", [0, 1])
def test_a_position_and_its_mirror_encode_identically(team):
    s = random_states()
    m = mirror_state(s)
    recompute_legal(m)
    t = np.full(s.batch_size, team)
    np.testing.assert_array_equal(observe(s, t), observe(m, 1 - t))
    pa, sa = observe_planes(s, t)
    pb, sb = observe_planes(m, 1 - t)
    np.testing.assert_array_equal(pa, pb)
    np.testing.assert_array_equal(sa, sb)
    np.testing.assert_array_equal(s.legal, m.legal)  # actions are in the acting team's frame too


def test_each_team_sees_its_own_players_first_attacking_up():
    s = g.init(1, seed=0, config=g.GameConfig(specials=False))
    s = g.step(s, [action_id("formation i_form")])
    s = g.step(s, [action_id("formation four_three")])
    offence = int(s.offence[0])
    f = observe(s, [offence]).reshape(-1)
    players = f[FEATURE_LAYOUT["players"][0]].reshape(22, 6)
    # own 11 (the offence) stand on or behind the LOS, i.e. at larger rows of their frame than defenders
    assert players[:11, 1].min() > players[11:, 1].max()
    f_def = observe(s, [1 - offence]).reshape(-1)
    players_def = f_def[FEATURE_LAYOUT["players"][0]].reshape(22, 6)
    # the defence attacks the end zone behind the offence: it sees the offence "above" it
    assert players_def[:11, 1].min() > players_def[11:, 1].max()


def _scramble_position(hidden_square):
    return hidden_ball_scramble(hidden_square)


def test_the_hidden_ball_is_invisible_to_both_teams():
    a = _scramble_position("14,8")
    b = _scramble_position("16,12")
    assert a.ball_hidden[0] and b.ball_hidden[0] and a.phase[0] == SCRAMBLE
    assert not np.array_equal(a.ball_square, b.ball_square)
    for team in (0, 1):
        np.testing.assert_array_equal(observe(a, [team]), observe(b, [team]))
        pa, sa = observe_planes(a, [team])
        pb, sb = observe_planes(b, [team])
        np.testing.assert_array_equal(pa, pb)
        np.testing.assert_array_equal(sa, sb)
    np.testing.assert_array_equal(a.legal, b.legal)


def test_a_visible_loose_ball_is_seen():
    s = _scramble_position("14,8")
    s.ball_hidden[:] = False
    s.phase[:] = 4  # play
    planes, _ = observe_planes(s, [0])
    loose = planes[0, PLANE_LAYOUT["loose_ball"][0]]
    assert loose.sum() == 1 and loose[13, 7] == 1


def test_the_other_teams_special_is_secret_while_picking():
    s = g.init(1, seed=0)
    s = g.step(s, [action_id("special ball_hawk")])  # team one picks
    sl = SCALAR_LAYOUT["other_special"][0]
    seen_by_two = observe(s, [1])[0, FEATURE_LAYOUT["other_special"][0]]
    assert seen_by_two[0] == 1.0 and seen_by_two[1:].sum() == 0  # "none": not revealed
    s = g.step(s, [action_id("special sure_hands")])
    seen_by_two = observe(s, [1])[0, FEATURE_LAYOUT["other_special"][0]]
    assert seen_by_two[1 + 1] == 1.0  # ball_hawk shown once both have picked
    assert sl.stop - sl.start == 5


@pytest.mark.parametrize("config", [None, g.GameConfig(specials=False, target_score=7, kick_mode="paper")])
def test_a_lone_game_encodes_exactly_as_in_a_batch(config):
    """A batch of one takes its own (plain Python) path through the encoder: bit for bit the batched
    result, for the team to act and for both teams explicitly, in every phase that random play reaches
    (formations, kicks, play), plus the opening pick and a blind fumble scramble."""
    positions = [random_positions(96, 120, seed=11, config=config), random_positions(96, 700, seed=12, config=config),
                 g.init(2, seed=4, config=config), hidden_ball_scramble("14,9", config)]
    s = g.State.concatenate(positions)
    for team in (None, 0, 1):
        batched = observe(s, None if team is None else np.full(s.batch_size, team), config)
        for i in range(s.batch_size):
            lone = observe(s.take(i), None if team is None else np.array([team]), config)
            np.testing.assert_array_equal(lone[0], batched[i], err_msg=f"game {i}, team {team}")
