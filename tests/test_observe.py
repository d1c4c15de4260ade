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


@pytest.mark.parametrize("config", [
    g.GameConfig(), g.GameConfig(specials=False, kick_mode="paper", paper_answer_chance=0.5, target_score=14),
    g.GameConfig(kick_mode="paper", longest_punt=7, max_rolls_per_down=30, target_score=35)])
def test_the_observation_says_which_rules_are_in_force(config):
    from gridiron_env.core.engine import field_goal_distance_for_row
    from gridiron_env.core.geometry import FRAME_ROW, N_LANES
    from gridiron_env.core.odds import field_goal_chance, paper_field_goal_chance

    s = random_states(batch=16, steps=120, seed=11)
    f = observe(s, None, config)
    rules = f[:, FEATURE_LAYOUT["rules"][0]]
    expected = [config.specials, config.kick_mode == "paper", config.paper_answer_chance,
                config.longest_punt / 20, config.max_rolls_per_down / 100]
    np.testing.assert_allclose(rules, np.tile(np.float32(expected), (16, 1)))
    assert f[0, FEATURE_LAYOUT["target"][0]] == np.float32(config.target_score / 99)
    # the kick chance is the mode's own: the dice formula's, or paper football's reach times the answer
    los = FRAME_ROW[s.offence.astype(np.int64), s.los_row.astype(np.int64) * N_LANES]
    for game in range(16):
        distance = int(field_goal_distance_for_row(np.array([los[game]]))[0])
        if config.kick_mode == "dice":
            chance = field_goal_chance(distance) if distance > 0 else 0.0
        else:
            chance = paper_field_goal_chance(distance, config.paper_answer_chance) if distance > 0 else 0.0
        assert f[game, FEATURE_LAYOUT["kick_chance"][0]][0] == pytest.approx(chance, abs=1e-7)
    # the one-game encoder gives the same bytes
    for game in range(16):
        np.testing.assert_array_equal(observe(s.take([game]), None, config), f[game:game + 1])
    planes, scalars = observe_planes(s, None, config)
    np.testing.assert_array_equal(f[:, FEATURE_LAYOUT["players"][0].stop:], scalars)


def test_the_two_kick_modes_encode_apart():
    s = random_states(batch=8, steps=80, seed=5)
    dice = observe(s, None, g.GameConfig())
    paper = observe(s, None, g.GameConfig(kick_mode="paper"))
    assert not np.array_equal(dice, paper)
    assert (dice[:, FEATURE_LAYOUT["rules"][0].start + 1] == 0).all()
    assert (paper[:, FEATURE_LAYOUT["rules"][0].start + 1] == 1).all()


def test_layout_1_is_a_prefix_of_the_current_layout_and_its_bots_still_play():
    from agents.bot import Bot, BotAgent
    from gridiron_env.core.observe import FEATURE_LAYOUT_SIZES, LAYOUT_1_FEATURES

    assert FEATURE_LAYOUT_SIZES == (LAYOUT_1_FEATURES, FEATURES_SIZE) and LAYOUT_1_FEATURES == 212
    assert all(sl.stop <= LAYOUT_1_FEATURES for name, (sl, _) in FEATURE_LAYOUT.items()
               if name not in ("rules", "kick_chance"))
    rng = np.random.default_rng(0)
    on_offence = FEATURE_LAYOUT["on_offence"][0].start
    layers = [(rng.normal(size=(LAYOUT_1_FEATURES, 16)).astype(np.float32), np.zeros(16, np.float32)),
              (rng.normal(size=(16, g.NUM_ACTIONS)).astype(np.float32), np.zeros(g.NUM_ACTIONS, np.float32))]
    old = Bot(layers, layers, "tanh", on_offence, LAYOUT_1_FEATURES, g.NUM_ACTIONS)
    s = random_states(batch=8, steps=60, seed=2)
    full = observe(s)
    np.testing.assert_array_equal(old.logits(full), old.logits(full[:, :LAYOUT_1_FEATURES]))
    actions = BotAgent(old).act(s)
    assert s.legal[np.arange(8), actions][s.to_act >= 0].all()
    with pytest.raises(ValueError, match="features"):
        old.logits(full[:, :100])
