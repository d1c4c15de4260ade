"""The single-agent Gymnasium envs: GridironEnv (whole game), GridironOffenceEnv and GridironDefenceEnv
(one drive): official checkers, options, masks, illegal actions, the opponent, seeding, rewards on
scripted positions, truncation and rendering.

Positions are written as partial diagrams (rulebook 1-based rows and lanes) and loaded with
``reset(options={"state": ...})``; their dice come from the diagram's own stream (``rng`` header).
"""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

import gridiron_env
from gridiron_env import GameConfig, IllegalActionError, action_id, from_diagram, legal_action_mask

from gridiron_env.core.observe import FEATURE_LAYOUT, FEATURES_SIZE, N_PLANES, SCALARS_SIZE, observe
from gridiron_env.envs.common import RandomOpponent
from gridiron_env.adapters.common import RandomPolicy
from gridiron_env.envs.single import GridironDefenceEnv, GridironEnv, GridironOffenceEnv
from gridiron_env.core.scenario import diagram, with_everyone

IDS = ("gridiron_env/Gridiron-v0", "gridiron_env/GridironOffence-v0", "gridiron_env/GridironDefence-v0")
CLASSES = {"game": GridironEnv, "offence": GridironOffenceEnv, "defence": GridironDefenceEnv}
ONE, TWO = 0, 1


# --------------------------------------------------------------------------------------------- helpers



def position(cells=None, config=None, **header):
    h = {k.replace("_", " "): v for k, v in header.items()}
    return from_diagram(diagram(h, cells), config or GameConfig(specials=False))


class Scripted:
    """An opponent playing given action names in order (then falling back to the lowest legal action);
    it records every call's observations and masks."""

    def __init__(self, names=()):
        self.queue = [action_id(n) for n in names]
        self.calls = []

    def __call__(self, observation, mask):
        self.calls.append((observation, mask.copy()))
        out = []
        for row in mask:
            if self.queue and row[self.queue[0]]:
                out.append(self.queue.pop(0))
            else:
                out.append(int(np.flatnonzero(row)[0]))
        return np.array(out)


def random_legal(rng, info):
    return int(rng.choice(np.flatnonzero(info["action_mask"])))


def first_illegal(info):
    return int(np.flatnonzero(info["action_mask"] == 0)[0])


def make(kind, **kwargs):
    return CLASSES[kind](**kwargs)


# ------------------------------------------------------------------------------------ official checkers

@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("observation", ["features", "planes"])
def test_official_checkers_pass(env_id, observation):
    env = gymnasium.make(env_id, observation=observation)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any Gymnasium checker warning fails the test
        gym_check_env(env.unwrapped)
    with warnings.catch_warnings():
        # SB3 guesses that 3-d uint8 planes are an image for its CNN: advice, not an API problem.
        warnings.filterwarnings("ignore", message=".*image.*")
        warnings.filterwarnings("ignore", message=".*resolution.*")
        sb3_check_env(env.unwrapped)
    env.close()


@pytest.mark.parametrize("kind", CLASSES)
def test_observation_forms_and_spaces(kind):
    env = make(kind, observation="features")
    obs, info = env.reset(seed=1)
    assert obs.shape == (FEATURES_SIZE,) and obs.dtype == np.float32 and obs in env.observation_space
    env = make(kind, observation="planes")
    obs, info = env.reset(seed=1)
    assert obs["planes"].shape == (N_PLANES, 30, 18) and obs["planes"].dtype == np.uint8
    assert obs["scalars"].shape == (SCALARS_SIZE,) and obs in env.observation_space
    assert env.action_space == gymnasium.spaces.Discrete(291)
    assert info["action_mask"].dtype == np.int8 and info["action_mask"].shape == (291,)
    assert env.action_masks().dtype == np.bool_
    np.testing.assert_array_equal(env.action_masks(), info["action_mask"].astype(bool))


@pytest.mark.parametrize("kind, kwargs, words", [
    ("game", {"learner_team": "three"}, "learner_team"),
    ("game", {"observation": "pixels"}, "observation"),
    ("game", {"illegal_action": "ignore"}, "illegal_action"),
    ("game", {"score_reward_scale": -1.0}, "score_reward_scale"),
    ("game", {"opponent": "random"}, "opponent"),
    ("game", {"config": 3}, "config"),
    ("game", {"config": {"target_scor": 7}}, "target_scor"),
    ("game", {"max_episode_steps": 0}, "max_episode_steps"),
    ("game", {"render_mode": "human"}, "render_mode"),
    ("game", {"offence_up": "yes"}, "offence_up"),
    ("offence", {"start": 3}, "start"),
    ("offence", {"start": 28}, "start"),
    ("defence", {"start": "midfield"}, "start"),
    ("defence", {"field_position_weight": float("nan")}, "field_position_weight"),
])
def test_bad_constructor_values_raise_value_error_naming_the_argument(kind, kwargs, words):
    with pytest.raises(ValueError, match=words):
        make(kind, **kwargs)


def test_drive_options_are_not_game_options():
    with pytest.raises(TypeError):
        GridironEnv(start="kickoff")
    with pytest.raises(TypeError):
        GridironOffenceEnv(score_reward_scale=1.0)


# ---------------------------------------------------------------------------------------------- seeding

@pytest.mark.parametrize("kind", CLASSES)
def test_same_seed_same_episodes_and_reset_without_seed_continues_the_stream(kind):
    def play(env, seed, steps=80):
        """Observations and (reward, terminated, truncated) of ``steps`` random legal steps, resetting
        without a seed whenever an episode ends."""
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        observations, outcomes = [obs], []
        for _ in range(steps):
            obs, r, term, trunc, info = env.step(random_legal(rng, info))
            outcomes.append((r, term, trunc))
            if term or trunc:
                obs, info = env.reset()
            observations.append(obs)
        return np.array(observations), outcomes

    env = make(kind, max_episode_steps=30)
    (obs_a, out_a), (obs_b, out_b), (obs_c, _) = play(env, 5), play(env, 5), play(env, 6)
    np.testing.assert_array_equal(obs_a, obs_b)
    assert out_a == out_b and any(term or trunc for _, term, trunc in out_a)
    assert not np.array_equal(obs_a, obs_c)
    # reset() without a seed starts the stream's next episode, not the seed's first episode again
    env.reset(seed=5)
    first = env.state.copy()
    env.reset()
    assert not env.state.equals(first)


def test_game_env_seeded_s_is_the_engine_game_seeded_s():
    for seed in (0, 7, 123456789):
        env = GridironEnv(learner_team="one")
        env.reset(seed=seed)
        assert env.state.equals(gridiron_env.init(1, seed=seed))


def test_learner_team_option():
    def teams(option):
        env = GridironEnv(learner_team=option)
        out = []
        for seed in range(24):
            _, info = env.reset(seed=seed)
            out.append(env.learner_team)
            assert info["learner_team"] == ("team_one", "team_two")[env.learner_team]
        return out

    assert set(teams("one")) == {ONE} and set(teams("two")) == {TWO}
    drawn = teams("random")
    assert set(drawn) == {ONE, TWO}  # both, drawn from the seed
    assert drawn == teams("random")


# ------------------------------------------------------------------------------------------------ masks

@pytest.mark.parametrize("kind", CLASSES)
@pytest.mark.parametrize("config", [None, {"specials": True}])
def test_mask_always_equals_the_engines_legal_actions_from_the_learners_side(kind, config):
    env = make(kind, config=config)
    rng = np.random.default_rng(3)
    obs, info = env.reset(seed=11)
    episodes = 0
    for _ in range(400):
        s = env.state
        # after every reset and step the learner is to act (or its episode is over)
        assert int(s.to_act[0]) == env.learner_team
        np.testing.assert_array_equal(info["action_mask"], legal_action_mask(s)[0].astype(np.int8))
        np.testing.assert_array_equal(obs, observe(s, env.learner_team, env.config)[0])
        obs, r, term, trunc, info = env.step(random_legal(rng, info))
        if term or trunc:
            # the episode is over: only the placeholder "end turn" (id 0), never an all-zero mask
            assert np.flatnonzero(info["action_mask"]).tolist() == [0] == np.flatnonzero(env.action_masks()).tolist()
            obs, info = env.reset()
            episodes += 1
    assert episodes >= (0 if kind == "game" else 3)


def test_specials_pick_is_played_by_the_learner():
    env = GridironEnv(learner_team="one", opponent=Scripted(["special ball_hawk"]))
    _, info = env.reset(seed=0)
    # team one picks first (rule 24): the learner sees the four specials
    assert [gridiron_env.action_name(a) for a in np.flatnonzero(info["action_mask"])] == [
        "special lead_blocker", "special ball_hawk", "special sure_hands", "special speedy_qb"]
    env.step(action_id("special speedy_qb"))
    assert env.state.special[0].tolist() == [3, 1]  # the learner's pick, then the opponent's


# ------------------------------------------------------------------------------------- illegal actions

@pytest.mark.parametrize("kind", CLASSES)
@pytest.mark.parametrize("bad", ["masked", 291, -1])
def test_an_illegal_action_loses_and_info_says_which_and_why(kind, bad):
    w = 0.5
    env = make(kind) if kind == "game" else make(kind, field_position_weight=w)
    _, info = env.reset(seed=2)
    action = first_illegal(info) if bad == "masked" else bad
    obs, reward, term, trunc, info = env.step(action)
    assert term and not trunc
    assert reward == (-1.0 if kind == "game" else -(7 + w))
    report = info["illegal_action"]
    assert report["action"] == action
    if bad == "masked":
        assert report["name"] == gridiron_env.action_name(action) and "not legal" in report["reason"]
    else:
        assert report["name"] is None and "outside the action space" in report["reason"]
    s = env.state
    assert bool(s.terminated[0]) and int(s.winner[0]) == 1 - env.learner_team and int(s.to_act[0]) == -1
    assert np.flatnonzero(info["action_mask"]).tolist() == [0]  # over: only the placeholder "end turn"


@pytest.mark.parametrize("kind", CLASSES)
def test_illegal_action_raise_option_raises_and_changes_nothing(kind):
    env = make(kind, illegal_action="raise")
    _, info = env.reset(seed=2)
    before = env.state.copy()
    bad = first_illegal(info)
    with pytest.raises(IllegalActionError, match="not legal") as err:
        env.step(bad)
    assert err.value.action == bad
    assert env.state.equals(before)
    _, _, term, _, _ = env.step(int(np.flatnonzero(info["action_mask"])[0]))  # still playable
    assert not term


def test_a_non_integer_action_is_a_value_error():
    env = GridironEnv()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action"):
        env.step(1.5)


# ---------------------------------------------------------------------------------------- the opponent

def test_the_opponent_callable_plays_the_other_team():
    # The defence env's opponent is the offence: its formation pick is the first thing played.
    for names, formation in ((["formation shotgun"], "shotgun"), (["formation i_form"], "i_form")):
        opponent = Scripted(names)
        env = GridironDefenceEnv(opponent=opponent)
        env.reset(seed=4)
        assert gridiron_env.core.formations.OFFENCE_FORMATIONS[int(env.state.formation[0, 0])] == formation
        obs, mask = opponent.calls[0]
        # it saw its own side: it is the offence and it is to act
        scal = FEATURE_LAYOUT
        assert obs.shape == (1, FEATURES_SIZE) and mask.dtype == np.int8
        assert obs[0, scal["on_offence"][0]][0] == 1 and obs[0, scal["to_act"][0]][0] == 1


def test_an_opponent_may_skip_observations_and_receive_game_indices():
    seen = []

    class Blind:
        needs_observation = False

        def __call__(self, observation, mask, games=None):
            seen.append((observation, games.copy()))
            return np.flatnonzero(mask[0])[:1].repeat(mask.shape[0])

    env = GridironDefenceEnv(opponent=Blind())
    env.reset(seed=0)
    assert seen and seen[0][0] is None and seen[0][1].tolist() == [0]


def test_an_illegal_opponent_action_raises():
    env = GridironDefenceEnv(opponent=lambda obs, mask: np.zeros(mask.shape[0], dtype=np.int64))
    with pytest.raises(IllegalActionError, match="opponent"):
        env.reset(seed=0)  # "end turn" is not a formation


def test_the_default_opponent_is_random_and_seeded():
    env = GridironDefenceEnv()
    formations = set()
    for seed in range(12):
        env.reset(seed=seed)
        formations.add(int(env.state.formation[0, 0]))
    assert len(formations) >= 3
    assert isinstance(env._core.opponent, RandomPolicy)  # the generic adapters' uniformly random legal actions


# ------------------------------------------------------------------------------ drive rewards, scripted

def touchdown_for_one():
    """Team one's H carries the ball one row from the end zone it attacks, team one to act, 1 point."""
    cells = with_everyone({(4, 5): "H@"}, 14, 17)
    return position(cells, phase="play", to_act="one", offence="one", line_of_scrimmage="row 15 lane 9",
                    points="1-0", rng="77 0")


def pick_six_for_two():
    """Team one on offence; team two's LCB holds an intercepted ball on row 27, one row from the end zone
    team one defends. Team one (offence) to act first in the round, each side 1 point."""
    cells = with_everyone({(27, 5): "LCB@"}, 14, 12)
    return position(cells, phase="play", to_act="one", offence="one", line_of_scrimmage="row 15 lane 9",
                    points="1-1", last_holder="two", rng="78 0")


@pytest.mark.parametrize("w", [0.0, 0.5])
def test_offence_touchdown_scores_its_points(w):
    env = GridironOffenceEnv(field_position_weight=w)
    env.reset(seed=0, options={"state": touchdown_for_one()})
    assert env.learner_team == ONE
    _, reward, term, trunc, _ = env.step(action_id("move H N"))
    points = int(env.state.score[0, ONE])
    assert points in (6, 7) and term and not trunc
    # the other team receives at its kickoff spot: 19 rows to go, a good position for the scorer
    assert int(env.state.offence[0]) == TWO and int(env.state.los_row[0]) + 1 == 9
    assert reward == pytest.approx(points + w * 19 / 24)


@pytest.mark.parametrize("w", [0.0, 0.7])
def test_a_pick_six_counts_against_the_offence_and_for_the_defence(w):
    off = GridironOffenceEnv(field_position_weight=w, opponent=Scripted(["move LCB N"]))
    off.reset(seed=0, options={"state": pick_six_for_two()})
    _, r_off, term, _, _ = off.step(action_id("end turn"))
    points = int(off.state.score[0, TWO])
    assert term and points in (6, 7) and off.state.score[0, ONE] == 0
    assert r_off == pytest.approx(-points - w * 19 / 24)  # scored on, and it gets the ball back deep

    de = GridironDefenceEnv(field_position_weight=w, opponent=Scripted(["end turn"]))
    de.reset(seed=0, options={"state": pick_six_for_two()})
    assert de.learner_team == TWO
    _, r_def, term, _, _ = de.step(action_id("move LCB N"))
    assert term and int(de.state.score[0, TWO]) == points  # same dice stream, same PAT
    assert r_off + r_def == pytest.approx(0.0)


def test_a_given_position_must_leave_the_learner_a_turn():
    # The opponent (the defence, to act) scores the pick-six before the offence learner ever acts.
    cells = with_everyone({(27, 5): "LCB@"}, 14, 12)
    s = position(cells, phase="play", to_act="two", offence="one", line_of_scrimmage="row 15 lane 9",
                 points="1-1", last_holder="two")
    env = GridironOffenceEnv(opponent=Scripted(["move LCB N"]))
    with pytest.raises(ValueError, match="before the learner acts"):
        env.reset(seed=0, options={"state": s})


def test_a_game_truncated_before_the_learner_acts_ends_at_its_first_step():
    # With a one-action cap the opponent's specials pick (team one picks first) truncates the game.
    env = GridironEnv(learner_team="two", config={"max_steps": 1})
    _, info = env.reset(seed=0)
    assert bool(env.state.truncated[0]) and np.flatnonzero(info["action_mask"]).tolist() == [0]
    _, reward, term, trunc, info = env.step(0)
    assert trunc and not term and reward == 0.0 and "illegal_action" not in info


@pytest.mark.parametrize("w", [0.0, 1.0])
def test_a_punt_ends_the_drive_with_no_points(w):
    pre_snap = position(phase="offence_formation", to_act="one", offence="one",
                        line_of_scrimmage="row 20 lane 9", down="4", rng="5 0")
    env = GridironOffenceEnv(field_position_weight=w, opponent=Scripted(["formation four_three"]))
    _, info = env.reset(seed=0, options={"state": pre_snap})
    _, reward, term, _, info = env.step(action_id("formation i_form"))
    assert not term and info["action_mask"][action_id("punt 8")]
    _, reward, term, _, _ = env.step(action_id("punt 8"))
    s = env.state
    assert term and s.score[0].tolist() == [0, 0] and int(s.offence[0]) == TWO
    rows_to_go = 30 - (int(s.los_row[0]) + 1) - 2  # team two attacks rows 28-30
    assert 1 <= rows_to_go <= 24
    assert reward == pytest.approx(w * rows_to_go / 24)  # the punter did not get the ball: positive


def test_a_first_down_does_not_end_the_drive():
    # H carries past the line to gain (row 12); the defence tackles him there: a new series, same drive.
    cells = with_everyone({(11, 5): "H@", (10, 5): "MLB"}, 20, 2)
    s = position(cells, phase="play", to_act="one", offence="one", line_of_scrimmage="row 15 lane 9",
                 points="1-1", rng="3 0")
    env = GridironOffenceEnv(opponent=Scripted(["move MLB N"]))
    env.reset(seed=0, options={"state": s})
    _, reward, term, trunc, info = env.step(action_id("end turn"))
    s = env.state
    assert int(s.offence[0]) == ONE and int(s.down[0]) == 1 and int(s.los_row[0]) + 1 == 11  # first down
    assert not term and not trunc and reward == 0.0 and info["action_mask"][1:].any()


class Recorder:
    """The default random opponent, recording the actions it plays."""

    def __init__(self):
        self.inner = RandomOpponent()
        self.actions = []

    def reset_games(self, games, seeds):  # keep the inner streams seeded like the default opponent's
        self.inner.reset(seeds)

    def __call__(self, observation, mask, games=None):
        chosen = self.inner(observation, mask, games=np.zeros_like(games))
        self.actions.extend(chosen.tolist())
        return chosen


@pytest.mark.parametrize("seed", range(4))
def test_drive_rewards_are_zero_sum_on_a_replayed_random_drive(seed):
    # The offence learner plays a random drive against a random defence; the defence env replays the same
    # drive (same seed, same team, the recorded defence actions as the learner's, the offence's as the
    # opponent's): the same game, and the two rewards sum to zero, field position included.
    w = 0.7
    recorder = Recorder()
    off = GridironOffenceEnv(learner_team="one", start="random", field_position_weight=w, opponent=recorder)
    _, info = off.reset(seed=seed)
    rng = np.random.default_rng(seed)
    learner_actions, r_off, term = [], 0.0, False
    while not term:
        learner_actions.append(random_legal(rng, info))
        _, r, term, trunc, info = off.step(learner_actions[-1])
        r_off += r
        assert not trunc

    replay = Scripted([gridiron_env.action_name(a) for a in learner_actions])
    de = GridironDefenceEnv(learner_team="two", start="random", field_position_weight=w, opponent=replay)
    de.reset(seed=seed)
    r_def, term = 0.0, False
    for a in recorder.actions:
        assert not term
        _, r, term, _, _ = de.step(a)
        r_def += r
    assert term and de.state.equals(off.state)
    assert r_off + r_def == pytest.approx(0.0)


# ----------------------------------------------------------------------------------- drive start spots

@pytest.mark.parametrize("kind", ["offence", "defence"])
def test_drive_starts_at_the_offences_kickoff_spot_by_default(kind):
    env = make(kind)
    for seed in range(8):
        env.reset(seed=seed)
        s = env.state
        offence = int(s.offence[0])
        assert (offence == env.learner_team) == (kind == "offence")
        spot = {ONE: (22, 9), TWO: (9, 10)}[offence]  # ruling 4, 1-based
        assert (int(s.los_row[0]) + 1, int(s.los_lane[0]) + 1) == spot
        assert int(s.down[0]) == 1 and int(s.opener[0]) == offence
        assert s.drives[0, offence] == 1 and s.drives[0, 1 - offence] == 0
        assert (s.special[0] == -1).all()  # drive envs default to no specials


@pytest.mark.parametrize("row", [4, 15, 27])
def test_an_int_start_is_the_los_row_counted_from_the_goal_line_the_offence_attacks(row):
    for team in ("one", "two"):
        env = GridironOffenceEnv(start=row, learner_team=team)
        env.reset(seed=0)
        s = env.state
        absolute = row if team == "one" else 31 - row  # team one attacks rows 1-3, team two rows 28-30
        assert int(s.los_row[0]) + 1 == absolute


def test_random_start_covers_the_field_and_the_hash_band_and_specials_are_drawn():
    env = GridironDefenceEnv(start="random", config={"specials": True})
    rows, lanes, specials = set(), set(), set()
    for seed in range(300):
        env.reset(seed=seed)
        s = env.state
        offence = int(s.offence[0])
        frame_row = int(s.los_row[0]) if offence == ONE else 29 - int(s.los_row[0])
        frame_lane = int(s.los_lane[0]) if offence == ONE else 17 - int(s.los_lane[0])
        rows.add(frame_row + 1)
        lanes.add(frame_lane + 1)
        specials.update((int(s.special[0, 0]), int(s.special[0, 1])))
    assert rows == set(range(4, 28)) and lanes == {8, 9, 10, 11}
    assert specials == {0, 1, 2, 3}


# --------------------------------------------------------------------------------- game rewards, ends

def test_score_reward_scale_shapes_the_game_reward():
    env = GridironEnv(learner_team="one", score_reward_scale=0.5)
    env.reset(seed=0, options={"state": touchdown_for_one()})
    _, reward, term, _, _ = env.step(action_id("move H N"))
    points = int(env.state.score[0, ONE])
    assert not term and reward == pytest.approx(0.5 * points / 21)


def test_game_reward_is_plus_one_for_a_win_and_minus_one_for_a_loss():
    # Ruling 28: team two (not the opener) reaches the target first and wins at once.
    cells = with_everyone({(27, 5): "H@"}, 14, 17)
    winning = dict(phase="play", offence="two", opener="one", score="14-15", drives="3-3",
                   line_of_scrimmage="row 15 lane 10", rng="9 0")
    env = GridironEnv(learner_team="two")
    env.reset(seed=0, options={"state": position(cells, to_act="two", points="0-1", **winning)})
    _, reward, term, _, _ = env.step(action_id("move H N"))
    assert term and int(env.state.winner[0]) == TWO and reward == 1.0
    # the same touchdown scored by the opponent: team one ends its (defence) turn, team two scores
    env = GridironEnv(learner_team="one", opponent=Scripted(["move H N"]))
    env.reset(seed=0, options={"state": position(cells, to_act="one", points="1-1", **winning)})
    _, reward, term, _, _ = env.step(action_id("end turn"))
    assert term and int(env.state.winner[0]) == TWO and reward == -1.0


@pytest.mark.parametrize("kind", CLASSES)
def test_truncation_at_max_episode_steps(kind):
    env = make(kind, max_episode_steps=3, opponent=Scripted())  # a passive opponent: no early end
    _, info = env.reset(seed=0)
    for k in range(3):
        _, reward, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert not term and trunc == (k == 2) and reward == 0.0


def test_engine_step_cap_truncates_with_no_reward():
    env = GridironEnv(config={"max_steps": 12})
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(12):
        _, reward, term, trunc, info = env.step(random_legal(rng, info))
        if trunc:
            break
    assert trunc and not term and reward == 0.0 and bool(env.state.truncated[0])


def test_make_passes_options_and_max_episode_steps():
    env = gymnasium.make("gridiron_env/GridironOffence-v0", start=10, max_episode_steps=2)
    _, info = env.reset(seed=0)
    assert int(env.unwrapped.state.los_row[0]) + 1 in (10, 21)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    _, _, _, trunc, _ = env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))
    assert trunc


# -------------------------------------------------------------------------------------------- rendering

def test_render_modes_draw_the_current_position():
    env = GridironOffenceEnv(render_mode="rgb_array")
    env.reset(seed=0, options={"state": touchdown_for_one()})
    before = env.render()
    assert before.dtype == np.uint8 and before.ndim == 3 and before.shape[2] == 3
    env.step(action_id("move H N"))
    assert not np.array_equal(before, env.render())  # the picture follows the game
    text = GridironOffenceEnv(render_mode="ansi")
    text.reset(seed=0, options={"state": touchdown_for_one()})
    board = text.render()
    assert isinstance(board, str) and "score one 0 - 0 two" in board and " 4 . . . . R@" in board
    text.step(action_id("move H N"))
    assert text.render().startswith(f"score one {int(text.state.score[0, ONE])} - 0 two")


def test_offence_up_turns_the_picture_for_team_two():
    frames = {}
    for up in (False, True):
        env = GridironOffenceEnv(render_mode="rgb_array", learner_team="two", offence_up=up)
        env.reset(seed=0)
        frames[up] = env.render()
    assert frames[True].shape == frames[False].shape and not np.array_equal(frames[True], frames[False])


def test_render_without_a_mode_returns_none():
    env = GridironEnv()
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert env.render() is None
