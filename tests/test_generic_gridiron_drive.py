"""Gridiron's drive GameSpec (``gridiron_env.gridiron.drive.DRIVE``, game ``"gridiron_drive"``) through the
generic adapters plays the episodes of Gridiron's own drive envs (``GridironOffenceEnv``,
``GridironDefenceEnv``, ``GridironScenarioEnv`` and their vector envs): the same observations, masks,
rewards, terminations, truncations and infos at every step, episode after episode (autoresets and
``reset()`` included), from the drive starts, from scenarios and from given positions; the old envs'
outputs are recorded (tests/reference_episodes.py, tests/data/reference_episodes.json). Plus the spec
itself (the protocol's checker, its config, diagrams, results) and the Gymnasium / SB3 checkers."""

import copy
import pickle

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from gridiron_env import GameConfig
from gridiron_env.adapters.single import GameEnv
from gridiron_env.adapters.vector import GameVectorEnv
from gridiron_env.core import IllegalActionError
from gridiron_env.envs.single import GridironDefenceEnv, GridironOffenceEnv, GridironScenarioEnv
from gridiron_env.envs.vector import (
    GridironDefenceVectorEnv, GridironOffenceVectorEnv, GridironScenarioVectorEnv,
)
from gridiron_env.gridiron.drive import DRIVE, DriveConfig, DriveState, drive_over, new_drives
from gridiron_env.protocol import check_game, get_game
from gridiron_env.scenarios import FAMILIES, SCENARIOS

import reference_episodes as references
from reference_episodes import Reference

PRESET_VECTOR = {"offence": GridironOffenceVectorEnv, "defence": GridironDefenceVectorEnv}
PRESET_SINGLE = {"offence": GridironOffenceEnv, "defence": GridironDefenceEnv}


@pytest.fixture(autouse=True)
def _reference_episodes(request):
    failed = request.session.testsfailed
    references.begin(request.node.nodeid.split("/")[-1])
    yield
    references.end(request.session.testsfailed == failed)


# The reference envs: Gridiron's old drive envs (``_DriveVectorEnv`` / ``_DriveEnv`` over the old learner
# core), recorded (tests/reference_episodes.py): each test plays a twin preset checked output by output
# against the old classes' recorded outputs.
def _old_vector(side, *args, **options):
    return Reference(PRESET_VECTOR[side](*args, **options))


def _old_single(side, **options):
    return Reference(PRESET_SINGLE[side](**options))


def _old_scenario_vector(num_envs, *, scenario=None, family=None, side=None, **options):
    return Reference(GridironScenarioVectorEnv(num_envs, scenario=scenario, family=family, side=side, **options))


_DRIVE_FIELDS = ("start", "field_position_weight")


def _split(options):
    """Options of a Gridiron drive env -> (the generic env's keywords with the drive's config dict)."""
    options = dict(options)
    config = dict(options.pop("config", None) or {})
    for name in _DRIVE_FIELDS:
        if name in options:
            config[name] = options.pop(name)
    return {**options, "config": config}


def _pair_vectors(side, n, generic=False, **options):
    """Gridiron's old drive env and its preset (or with ``generic``, the generic env given the drive's config)."""
    ours = (GameVectorEnv(n, game="gridiron_drive", variant=side, **_split(options)) if generic
            else PRESET_VECTOR[side](n, **options))
    return _old_vector(side, n, **options), ours


def _highest_legal(obs, mask):
    """A deterministic callable opponent that reads its observation (so a wrong one would show)."""
    assert obs.shape[0] == mask.shape[0]
    return (mask.shape[1] - 1 - mask[:, ::-1].argmax(axis=1)).astype(np.int64)


def _assert_infos_equal(ours, theirs):
    np.testing.assert_array_equal(ours["action_mask"], theirs["action_mask"])
    assert ours["action_mask"].dtype == theirs["action_mask"].dtype
    np.testing.assert_array_equal(ours["learner_team"], theirs["learner_team"])
    assert ("illegal_action" in ours) == ("illegal_action" in theirs)
    if "illegal_action" in theirs:
        np.testing.assert_array_equal(ours["_illegal_action"], theirs["_illegal_action"])
        for g in np.flatnonzero(theirs["_illegal_action"]):
            assert ours["illegal_action"][g] == theirs["illegal_action"][g]


def _learner_actions(mask, rng, step):
    """Random legal actions, with now and then an illegal id, an id outside the space or a bool."""
    actions = [int(rng.choice(np.flatnonzero(row))) for row in mask]
    if step % 9 == 4:
        g = step % len(actions)
        illegal = np.flatnonzero(mask[g] == 0)
        actions[g] = (int(illegal[0]) if illegal.size else 291, 291, True)[step % 3]
    return actions


def _step_both(theirs, ours, actions):
    """One step of both vector envs; asserts equal observations, rewards, ends and infos (final ones
    included); returns Gridiron's env's outputs."""
    out_t, out_o = theirs.step(actions), ours.step(actions)
    for a, b in zip(out_o[:4], out_t[:4]):
        np.testing.assert_array_equal(a, b)
    info_o, info_t = out_o[4], out_t[4]
    _assert_infos_equal(info_o, info_t)
    if "final_obs" in info_t:
        np.testing.assert_array_equal(info_o["_final_obs"], info_t["_final_obs"])
        for g in np.flatnonzero(info_t["_final_obs"]):
            np.testing.assert_array_equal(info_o["final_obs"][g], info_t["final_obs"][g])
        _assert_infos_equal(info_o["final_info"], info_t["final_info"])
    return out_t


def _play_vectors(theirs, ours, seed, steps, rng_seed=0, options=None):
    """Step both vector envs with the same actions; assert every output equal. Returns (episodes ended,
    nonzero rewards, illegal actions seen)."""
    obs_t, info_t = theirs.reset(seed=seed, options=options)
    obs_o, info_o = ours.reset(seed=seed, options=options)
    np.testing.assert_array_equal(obs_o, obs_t)
    _assert_infos_equal(info_o, info_t)
    rng = np.random.default_rng(rng_seed)
    ended = rewarded = illegal = 0
    for step in range(steps):
        assert ours.state.equals(theirs.state)
        actions = _learner_actions(info_t["action_mask"], rng, step)
        _, rew_t, term_t, trunc_t, info_t = _step_both(theirs, ours, actions)
        ended += int((term_t | trunc_t).sum())
        rewarded += int(np.count_nonzero(rew_t))
        illegal += int(info_t.get("_illegal_action", np.zeros(1, bool)).sum())
    return ended, rewarded, illegal


@pytest.mark.parametrize("side, n, seed, options", [
    ("offence", 6, 0, {}),
    ("defence", 5, 3, {"generic": True, "start": "random", "field_position_weight": 0.5}),
    ("defence", 5, 7, {}),
    ("offence", 4, 2**64 - 2, {"start": "random", "field_position_weight": 0.5, "learner_team": "two"}),
    ("defence", 6, 123, {"start": 9, "field_position_weight": 0.3, "config": {"specials": True}}),
    ("offence", 3, 5, {"start": 27, "learner_team": "one", "max_episode_steps": 12}),
    ("defence", 4, 99, {"start": "random", "field_position_weight": 1.0, "config": {"max_steps": 40}}),
])
def test_the_generic_drive_vector_env_plays_every_episode_like_gridiron_s(side, n, seed, options):
    theirs, ours = _pair_vectors(side, n, **options)
    ended, rewarded, illegal = _play_vectors(theirs, ours, seed, 100)
    assert ended >= 2 * n and rewarded > 0 and illegal > 0  # autoresets, rewards and forfeits were compared


def test_a_callable_opponent_and_same_step_autoresets_play_alike_too():
    theirs, ours = _pair_vectors("offence", 4, opponent=_highest_legal, field_position_weight=0.25,
                                 autoreset_mode=AutoresetMode.SAME_STEP)
    ended, _, _ = _play_vectors(theirs, ours, 31, 120)
    assert ended >= 8


@pytest.mark.parametrize("wrap", [True, False])
def test_an_agent_opponent_reads_the_engine_state_and_plays_alike(wrap):
    """An agent (``act(state, config)``) as the opponent, in an AgentOpponent (a ``needs_state`` callable)
    or as it is: it is given the engine's State and GameConfig (the spec's ``agent_view``), as in
    Gridiron's drive env."""
    from agents.heuristic import HeuristicAgent
    from gridiron_env.envs.common import AgentOpponent

    theirs = _old_vector("defence", 3, opponent=AgentOpponent(HeuristicAgent()), start="random")
    agent = HeuristicAgent()
    ours = GameVectorEnv(3, game="gridiron_drive", variant="defence", config={"start": "random"},
                         opponent=AgentOpponent(agent) if wrap else agent)
    ended, _, _ = _play_vectors(theirs, ours, 12, 40)
    assert ended >= 3


@pytest.mark.parametrize("side", ["offence", "defence"])
def test_scenarios_by_reset_option_play_alike(side):
    """``reset(options={"scenario": ...})``: one name for all, then one per slot (None: the env's start);
    the learner's team takes the env's side of each scenario, its later episodes the env's own start."""
    theirs, ours = _pair_vectors(side, 4, field_position_weight=0.5)
    names = list(SCENARIOS)
    _play_vectors(theirs, ours, 3, 40, options={"scenario": names[0]})
    _play_vectors(theirs, ours, 4, 60, options={"scenario": [names[1], None, names[-1], names[3]]})


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_the_scenario_envs_play_alike(name):
    """``GridironScenarioVectorEnv(scenario=name)``: every episode from the scenario, the learner on the
    scenario's own side; the generic env with ``scenario=name`` and that side in its config."""
    sc = SCENARIOS[name]
    theirs = _old_scenario_vector(3, scenario=name, field_position_weight=0.5)
    ours = GameVectorEnv(3, game="gridiron_drive", config={"side": sc.side, "field_position_weight": 0.5},
                         scenario=name)
    ended, _, _ = _play_vectors(theirs, ours, 17, 45)
    assert ended >= 3


def test_a_family_env_with_the_other_side_plays_alike():
    family = next(iter(FAMILIES))
    sc = SCENARIOS[FAMILIES[family][0]]
    other = "offence" if sc.side == "defence" else "defence"
    theirs = _old_scenario_vector(3, family=family, side=other)
    ours = GridironScenarioVectorEnv(3, family=family, side=other)
    assert ours.family == family
    generic = GameVectorEnv(3, game="gridiron_drive", variant=other, scenario=sc.name)
    _play_vectors(theirs, generic, 8, 40)
    _play_vectors(theirs, ours, 8, 40)


def _lone_episodes(theirs, ours, seed, episodes, rng, options=None):
    """Episodes of two lone envs side by side (``reset()`` between them); returns the rewards seen."""
    obs_t, info_t = theirs.reset(seed=seed, options=options)
    obs_o, info_o = ours.reset(seed=seed, options=options)
    rewards = []
    for _ in range(episodes):
        done = False
        while not done:
            for key in obs_t if isinstance(obs_t, dict) else [None]:  # "planes": a dict of arrays
                np.testing.assert_array_equal(obs_o if key is None else obs_o[key], obs_t if key is None else obs_t[key])
            _assert_infos_equal({k: np.asarray([v]) for k, v in info_o.items() if k != "illegal_action"},
                                {k: np.asarray([v]) for k, v in info_t.items() if k != "illegal_action"})
            assert info_o.get("illegal_action") == info_t.get("illegal_action")
            assert ours.learner_team == theirs.learner_team
            assert ours.render() == theirs.render()
            action = _learner_actions(info_t["action_mask"][None], rng, len(rewards))[0]
            obs_t, r_t, term_t, trunc_t, info_t = theirs.step(action)
            obs_o, r_o, term_o, trunc_o, info_o = ours.step(action)
            assert (r_o, term_o, trunc_o) == (r_t, term_t, trunc_t)
            rewards.append(r_t)
            done = term_t or trunc_t
        assert info_o.get("illegal_action") == info_t.get("illegal_action")
        obs_t, info_t = theirs.reset()
        obs_o, info_o = ours.reset()
    return rewards


@pytest.mark.parametrize("side, options", [
    ("offence", {}),
    ("defence", {"start": "random", "field_position_weight": 0.75, "learner_team": "random", "offence_up": True}),
    ("offence", {"start": 5, "config": {"specials": True}, "learner_team": "two", "observation": "planes"}),
])
def test_the_lone_drive_envs_play_alike(side, options):
    theirs = _old_single(side, render_mode="ansi", **options)
    ours = PRESET_SINGLE[side](render_mode="ansi", **options)
    rewards = _lone_episodes(theirs, ours, 2024, 6, np.random.default_rng(1))
    assert any(rewards)
    rewards = _lone_episodes(theirs, ours, 5, 3, np.random.default_rng(2),
                             options={"scenario": "red_zone"})
    assert len(rewards) >= 3


@pytest.mark.parametrize("generic", [False, True])
def test_the_lone_scenario_env_plays_alike(generic):
    theirs = _old_single("offence", scenario="last_drive", field_position_weight=0.2, render_mode="ansi")
    if generic:
        ours = GameEnv(game="gridiron_drive", config={"side": "offence", "field_position_weight": 0.2},
                       scenario="last_drive", render_mode="ansi")
    else:
        ours = GridironScenarioEnv(scenario="last_drive", field_position_weight=0.2, render_mode="ansi")
    _lone_episodes(theirs, ours, 77, 4, np.random.default_rng(3))


@pytest.mark.parametrize("side, generic", [("offence", False), ("defence", False), ("offence", True)])
def test_a_given_position_seats_the_learner_by_its_side(side, generic):
    """``reset(options={"state": ...})``: the learner takes the position's offence (or defence), whatever
    ``learner_team`` says, in both envs; the generic one takes the position as a DriveState."""
    position = SCENARIOS["third_and_short"].build(np.array([4, 9], dtype=np.uint64), GameConfig(specials=False),
                                                  offence=np.array([1, 0]))
    theirs, ours = _pair_vectors(side, 2, generic=generic, learner_team="one")
    theirs.reset(seed=1, options={"state": position})
    ours.reset(seed=1, options={"state": DriveState(position) if generic else position})
    seats = position.offence.astype(np.int64) if side == "offence" else 1 - position.offence
    np.testing.assert_array_equal(ours._core.learner, seats)
    np.testing.assert_array_equal(theirs._core.learner, seats)
    rng = np.random.default_rng(0)
    for step in range(25):  # the episodes from the position, then the env's own drives
        _step_both(theirs, ours, _learner_actions(ours.action_masks().astype(np.int8), rng, step))


def test_a_given_position_with_a_list_of_seeds_plays_alike():
    """``reset(seed=[s, None], options={"state": ...})``: the position's games go to the slots in order,
    the seeded slot restarting its stream, the other going on with its own."""
    position = SCENARIOS["red_zone"].build(np.array([2, 3], dtype=np.uint64), GameConfig(specials=False),
                                           offence=np.array([0, 1]))
    theirs, ours = _pair_vectors("offence", 2)
    _play_vectors(theirs, ours, 5, 10)
    theirs.reset(seed=[11, None], options={"state": position})
    ours.reset(seed=[11, None], options={"state": position})
    assert ours.state.equals(theirs.state)
    rng = np.random.default_rng(4)
    for step in range(20):
        _step_both(theirs, ours, _learner_actions(ours.action_masks().astype(np.int8), rng, step))


def test_a_position_that_ends_before_the_learner_acts_is_refused_alike():
    from gridiron_env.core.engine import forfeit

    position = SCENARIOS["red_zone"].build(np.array([2], dtype=np.uint64), GameConfig(specials=False),
                                           offence=np.array([0]))
    forfeit(position, np.array([0]), np.array([1]))  # the game is over: no turn is left for anyone
    for env in (*_pair_vectors("defence", 1), _old_single("offence"), GridironOffenceEnv()):
        with pytest.raises(ValueError, match="ends the episode before the learner acts"):
            env.reset(seed=0, options={"state": position})


def test_an_illegal_action_raises_alike_with_illegal_action_raise():
    theirs, ours = _pair_vectors("defence", 3, illegal_action="raise")
    theirs.reset(seed=6)
    ours.reset(seed=6)
    mask = ours.action_masks()
    actions = [int(np.flatnonzero(row)[0]) for row in mask]
    actions[1] = int(np.flatnonzero(~mask[1])[0])
    before = ours.state.copy()
    with pytest.raises(IllegalActionError) as err_t:
        theirs.step(actions)
    with pytest.raises(IllegalActionError) as err_o:
        ours.step(actions)
    assert str(err_o.value) == str(err_t.value) and err_o.value.game == 1
    assert ours.state.equals(before)


# --- the spec itself --------------------------------------------------------------------------------------

@pytest.mark.parametrize("config", [None, {"side": "defence"}, {"start": "random", "specials": True},
                                    {"start": 20, "max_steps": 30}])
def test_the_drive_spec_meets_the_protocol(config):
    assert get_game("gridiron_drive") is DRIVE
    assert check_game(DRIVE, config, seed=3, batch_size=4, max_steps=80) >= 1


def test_the_drive_legal_rows_are_the_masks_rows_with_handed_over_drives_cleared():
    """``legal_rows`` (read by the adapters' opponent rounds) equals ``legal_mask``'s rows in every position
    of random drives, drives handed over (all False) and live ones alike, rows in any order and repeated."""
    rng = np.random.default_rng(11)
    state = DRIVE.init(64, 5, None)
    handed_over_seen = 0
    for _ in range(60):
        legal = DRIVE.legal_mask(state)
        for rows in (rng.permutation(64)[:17], np.array([3, 3, 0]), np.arange(64)):
            assert np.array_equal(DRIVE.legal_rows(state, rows), legal[rows])
        handed_over_seen += int((DRIVE.to_act(state) < 0).sum())
        if DRIVE.over(state).all():
            break
        actions = np.array([rng.choice(np.flatnonzero(r)) if r.any() else DRIVE.ignored_action for r in legal])
        state = DRIVE.step(state, actions, None)
    assert handed_over_seen > 0


def test_a_drive_ends_when_the_ball_changes_hands_and_names_its_winner():
    """Random drives to their end: each ends with either team's drive count moved or the game over; the
    winner is the game's, else the team that gained more points in the drive, else the team with the ball
    next (the one that stopped the drive)."""
    config = DRIVE.make_config({"start": "random"})
    d = DRIVE.init(64, 11, config)
    start_drives, start_score = d.game.drives.copy(), d.game.score.astype(np.int64)
    rng = np.random.default_rng(5)
    for _ in range(400):
        legal = DRIVE.legal_mask(d)
        if not legal.any():
            break
        d = DRIVE.step(d, np.array([rng.choice(np.flatnonzero(r)) if r.any() else 0 for r in legal]), config)
    over = drive_over(d)
    assert over.all()
    moved = (d.game.drives != start_drives).any(axis=1)
    assert (moved | d.game.terminated | d.game.truncated).all()
    winner, terminated = DRIVE.winner(d), DRIVE.terminated(d)
    gained = d.game.score.astype(np.int64) - start_score
    for g in range(64):
        if d.game.terminated[g]:
            assert winner[g] == d.game.winner[g]
        elif moved[g]:
            a, b = gained[g]
            assert winner[g] == (d.game.offence[g] if a == b else (0 if a > b else 1))
        else:  # cut by the step cap with the drive on
            assert not terminated[g] and winner[g] == -1
    assert (DRIVE.to_act(d) == -1).all()


def test_the_drive_spec_step_raises_on_an_illegal_action_and_changes_nothing():
    config = DRIVE.make_config(None, "offence")
    d = DRIVE.init(3, 0, config)
    before = d.copy()
    actions = np.array([int(np.flatnonzero(row)[0]) for row in DRIVE.legal_mask(d)])
    actions[2] = int(np.flatnonzero(~DRIVE.legal_mask(d)[2])[0])
    with pytest.raises(IllegalActionError, match="game 2") as err:
        DRIVE.step(d, actions, config)
    assert err.value.game == 2 and err.value.action == actions[2]
    assert d.game.equals(before.game) and np.array_equal(d.drives0, before.drives0)


def test_bad_states_and_scenario_names_are_value_errors():
    with pytest.raises(ValueError, match="unknown scenario 'nowhere'; allowed: goal_line_stand"):
        GameEnv(game="gridiron_drive").reset(seed=0, options={"scenario": "nowhere"})
    with pytest.raises(ValueError, match="unknown scenario 'nowhere'"):
        new_drives(np.array([1], dtype=np.uint64), None, [0], "nowhere")
    with pytest.raises(ValueError, match="DriveState"):
        DRIVE.step(DRIVE.init(1, 0).game, np.array([0]))
    with pytest.raises(ValueError, match="must be a DriveState"):
        GameEnv(game="gridiron_drive").reset(seed=0, options={"state": "the red zone"})
    sc = DRIVE.scenarios["red_zone"]
    assert (sc.name, sc.family, sc.side) == ("red_zone", SCENARIOS["red_zone"].family, SCENARIOS["red_zone"].side)
    assert copy.deepcopy(sc).build(np.array([5], dtype=np.uint64)).game.equals(sc.build(np.array([5], np.uint64)).game)


@pytest.mark.parametrize("field, value", [("side", "middle"), ("side", 1), ("start", "halfway"), ("start", 3),
                                          ("start", 28), ("start", True), ("field_position_weight", -0.1),
                                          ("field_position_weight", float("nan")), ("field_position_weight", "1"),
                                          ("specials", 1)])
def test_a_bad_drive_config_value_names_the_field(field, value):
    with pytest.raises(ValueError, match=f"Config.{field}"):
        DriveConfig(**{field: value})


def test_drive_configs_from_dicts_and_variants():
    assert DRIVE.make_config(None) == DriveConfig() and DriveConfig().specials is False
    config = DRIVE.make_config({"target_score": 7, "start": "random"}, "defence")
    assert (config.side, config.start, config.target_score) == ("defence", "random", 7)
    assert config.engine == GameConfig(target_score=7, specials=False)
    assert config.replace(start=12).start == 12
    assert DriveConfig.of(GameConfig(target_score=7, specials=False), side="defence", start="random") == config
    assert pickle.loads(pickle.dumps(config)) == config and pickle.loads(pickle.dumps(config)).engine == config.engine
    with pytest.raises(ValueError, match="unknown DriveConfig field"):
        DRIVE.make_config({"weight": 1})
    with pytest.raises(ValueError, match="unknown DriveConfig field"):
        config.replace(offence=1)
    with pytest.raises(ValueError, match="side must be 'offence'"):
        DRIVE.make_config({"side": "defence"}, "offence")


def test_drive_diagrams_round_trip_and_bad_ones_name_the_line():
    config = DRIVE.make_config({"start": "random"})
    d = DRIVE.init(2, 4, config)
    d = DRIVE.step(d, np.array([int(np.flatnonzero(r)[0]) for r in DRIVE.legal_mask(d)]), config)
    text = DRIVE.to_diagram(d, 1)
    back = DRIVE.from_diagram(text, config)
    assert DRIVE.to_diagram(back, 0) == text
    np.testing.assert_array_equal(back.drives0[0], d.drives0[1])
    lines = text.split("\n")
    for index, bad in ((0, "gridiron drive v0"), (1, "drives at start: 1"), (2, "score at start: x-0"),
                       (1, "drives at start: 9-9")):
        broken = "\n".join(lines[:index] + [bad] + lines[index + 1:])
        with pytest.raises(ValueError, match=f"line {index + 1}"):
            DRIVE.from_diagram(broken, config)


# --- the official checkers --------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", ["offence", "defence"])
def test_gymnasium_and_sb3_checkers_pass_on_the_generic_drive_envs(variant):
    from gymnasium.utils.env_checker import check_env as gymnasium_check_env
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    gymnasium_check_env(GameEnv(game="gridiron_drive", variant=variant, config={"start": "random"}),
                        skip_render_check=True)
    sb3_check_env(GameEnv(game="gridiron_drive", variant=variant), warn=False)


def test_the_sb3_adapter_serves_the_drive_vector_env():
    from gridiron_env.adapters.sb3 import SB3VecEnv

    venv = SB3VecEnv(GameVectorEnv(4, game="gridiron_drive", variant="offence"))
    venv.seed(3)
    obs = venv.reset()
    assert obs.shape == (4, DRIVE.observation_size)
    ended = 0
    for _ in range(60):
        masks = np.stack(venv.env_method("action_masks"))
        assert masks.any(axis=1).all()
        obs, rewards, dones, infos = venv.step(np.array([np.flatnonzero(m)[0] for m in masks]))
        for i in np.flatnonzero(dones):
            assert infos[i]["terminal_observation"].shape == (DRIVE.observation_size,)
        ended += int(dones.sum())
    assert ended > 0
