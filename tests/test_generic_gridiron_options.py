"""The options of Gridiron's whole-game envs on the generic adapters, through the GameSpec's optional
fields (``observation_kinds``, ``score_unit``, ``orientation``, ``illegal_entry``, ``draws``) and the
opponent protocol (``needs_observation``, ``needs_state``, ``reset_games``): each played side by side with
Gridiron's own learner envs (below; their outputs recorded in tests/data/reference_episodes.json), every
output equal, episode after episode. And the same options refused, naming the field, for a game whose spec
does not offer them; and Gridiron-v0 served by the generic classes, its old class names presets of them."""

import numpy as np
import pytest

from gridiron_env import GameConfig
from gridiron_env.adapters.single import GameEnv
from gridiron_env.adapters.vector import GameVectorEnv

import gridiron_env.envs.single
import gridiron_env.envs.vector
import reference_episodes as references
from reference_episodes import Reference
from agents.random_agent import RandomAgent
from gridiron_env.core import IllegalActionError
from gridiron_env.envs.common import AgentOpponent

# The reference envs: Gridiron's own whole-game learner envs as they were before Gridiron-v0 moved onto the
# generic classes (the old learner core ``LearnerBatch`` with whole-game episodes), recorded
# (tests/reference_episodes.py): each test plays a twin (the GridironEnv / GridironVectorEnv presets)
# checked output by output against the old classes' recorded outputs.
def GridironEnv(**options):
    return Reference(gridiron_env.envs.single.GridironEnv(**options))


def _raw_vector(num_envs=1, **options):
    return gridiron_env.envs.vector.GridironVectorEnv(num_envs, **options)


def GridironVectorEnv(num_envs=1, **options):
    return Reference(_raw_vector(num_envs, **options))


@pytest.fixture(autouse=True)
def _reference_episodes(request):
    failed = request.session.testsfailed
    references.begin(request.node.nodeid.split("/")[-1])
    yield
    references.end(request.session.testsfailed == failed)


SHORT = GameConfig(target_score=3, max_steps=160)
LONG = GameConfig(target_score=7, max_steps=800)  # long enough for random play to score now and then


def _equal(ours, theirs):
    """Observations (arrays or dicts of them), infos and frames alike, key by key."""
    if isinstance(theirs, dict):
        assert isinstance(ours, dict) and sorted(ours) == sorted(theirs)
        for key in theirs:
            _equal(ours[key], theirs[key])
    elif isinstance(theirs, np.ndarray):
        assert isinstance(ours, np.ndarray) and ours.dtype == theirs.dtype and ours.shape == theirs.shape
        if theirs.dtype == object:
            assert len(ours) == len(theirs)
            for o, t in zip(ours, theirs):
                _equal(o, t)
        else:
            np.testing.assert_array_equal(ours, theirs)
    else:
        assert type(ours) is type(theirs) and ours == theirs


def _breaking(rng, mask, t, every=1):
    """A random legal id, or now and then (more rarely by a factor ``every``) something illegal: a
    masked-out id, an id outside the space, a bool."""
    if t % (53 * every) == 53 * every - 33:
        return int(np.flatnonzero(mask == 0)[0])
    if t % (89 * every) == 89 * every - 48:
        return 300
    if t % (97 * every) == 97 * every - 37:
        return True
    return int(rng.choice(np.flatnonzero(mask)))


def _lone(options, seed, episodes, render_mode=None, config=SHORT, every=1):
    """Play ``episodes`` episodes of both lone envs side by side; returns (illegal actions, steps whose
    reward is neither 0 nor +-1: a score's shaping)."""
    theirs = GridironEnv(config=config, render_mode=render_mode, **options)
    ours = GameEnv(game="gridiron", config=config, render_mode=render_mode, **options)
    _equal(ours.observation_space, theirs.observation_space)
    rng = np.random.default_rng(seed)
    obs_t, info_t = theirs.reset(seed=seed)
    obs_o, info_o = ours.reset(seed=seed)
    t = played = illegal = shaped = 0
    while played < episodes:
        _equal(obs_o, obs_t)
        _equal(info_o, info_t)
        assert ours.state.equals(theirs.state)
        if render_mode is not None:
            _equal(ours.render(), theirs.render())
        a = _breaking(rng, info_t["action_mask"], t, every)
        obs_t, r_t, te_t, tr_t, info_t = theirs.step(a)
        obs_o, r_o, te_o, tr_o, info_o = ours.step(a)
        assert (type(r_o), r_o, te_o, tr_o) == (type(r_t), r_t, te_t, tr_t)
        illegal += "illegal_action" in info_t
        shaped += r_t not in (0.0, 1.0, -1.0)
        t += 1
        if te_t or tr_t:
            _equal(obs_o, obs_t)
            _equal(info_o, info_t)
            if render_mode is not None:
                _equal(ours.render(), theirs.render())
            obs_t, info_t = theirs.reset()
            obs_o, info_o = ours.reset()
            played += 1
    return illegal, shaped


@pytest.mark.parametrize("options", [
    {"observation": "planes", "learner_team": "random"},
    {"observation": "planes", "score_reward_scale": 2.5, "learner_team": "one"},
])
def test_planes_alike_episode_after_episode(options):
    """Illegal actions of every sort included: each ends its game alike (the same info, the same reward)."""
    assert _lone(options, 4, 5)[0] >= 3


@pytest.mark.parametrize("scale, learner_team", [(0.7, "two"), (2.5, "random")])
def test_score_shaping_alike_episode_after_episode(scale, learner_team):
    """Long games, rare illegal actions: scores happen, each step's shaped reward the same float."""
    illegal, shaped = _lone({"score_reward_scale": scale, "learner_team": learner_team}, 1, 3, config=LONG,
                            every=20)
    assert shaped >= 3 and illegal >= 1


@pytest.mark.parametrize("render_mode, offence_up", [("ansi", False), ("ansi", True), ("rgb_array", True)])
def test_renders_alike_the_offence_up_orientation_and_a_forfeit_s_frame_included(render_mode, offence_up):
    _lone({"offence_up": offence_up, "learner_team": "random"}, 9, 2, render_mode)


def _vectors(n, seed, steps, options, autoreset_mode="next_step"):
    kw = dict(config=SHORT, autoreset_mode=autoreset_mode, **options)
    theirs, ours = GridironVectorEnv(n, **kw), GameVectorEnv(n, game="gridiron", **kw)
    _equal(ours.single_observation_space, theirs.single_observation_space)
    rng = np.random.default_rng(seed)
    obs_t, info_t = theirs.reset(seed=seed)
    obs_o, info_o = ours.reset(seed=seed)
    ended = 0
    for t in range(steps):
        _equal(obs_o, obs_t)
        _equal(info_o, info_t)
        assert ours.state.equals(theirs.state)
        actions = np.array([_breaking(rng, row, t + 7 * g) for g, row in enumerate(info_t["action_mask"])],
                           dtype=object)
        if not any(isinstance(a, bool) for a in actions):
            actions = actions.astype(np.int64)
        obs_t, r_t, te_t, tr_t, info_t = theirs.step(actions)
        obs_o, r_o, te_o, tr_o, info_o = ours.step(actions)
        for o, th in ((r_o, r_t), (te_o, te_t), (tr_o, tr_t)):
            _equal(o, th)
        ended += int((te_t | tr_t).sum())
    return ended


class _Spy:
    """A callable opponent that records what it was given (its actions: the highest legal id)."""

    def __init__(self, **attributes):
        self.__dict__.update(attributes)
        self.seen, self.resets = [], []

    def __call__(self, obs, mask, games=None):
        self.seen.append((obs, np.asarray(games).copy()))
        return (mask.shape[1] - 1 - mask[:, ::-1].argmax(axis=1)).astype(np.int64)

    def reset_games(self, games, seeds):
        self.resets.append((np.asarray(games).copy(), np.asarray(seeds).copy()))


@pytest.mark.parametrize("autoreset_mode", ["next_step", "same_step"])
def test_a_callable_opponent_sees_planes_from_its_side_and_hears_of_each_episode_alike(autoreset_mode):
    spies = [_Spy(), _Spy()]
    opponents = iter(spies)
    kw = dict(config=SHORT, autoreset_mode=autoreset_mode, observation="planes", score_reward_scale=1.0)
    theirs = GridironVectorEnv(3, opponent=next(opponents), **kw)
    ours = GameVectorEnv(3, game="gridiron", opponent=next(opponents), **kw)
    rng = np.random.default_rng(2)
    _, info_t = theirs.reset(seed=21)
    _, info_o = ours.reset(seed=21)
    ended = 0
    for t in range(150):
        actions = np.array([_breaking(rng, row, t + 5 * g) for g, row in enumerate(info_t["action_mask"])],
                           dtype=object)
        _, r_t, te_t, tr_t, info_t = theirs.step(actions)
        _, r_o, te_o, tr_o, info_o = ours.step(actions)
        _equal(info_o, info_t)
        _equal(r_o, r_t)
        ended += int((te_t | tr_t).sum())
    assert ended >= 3
    mine, gridiron_s = spies[1], spies[0]
    theirs.check("what the opponent was given", (gridiron_s.seen, gridiron_s.resets))
    assert len(mine.seen) == len(gridiron_s.seen) > 0
    for (obs_o, games_o), (obs_t, games_t) in zip(mine.seen, gridiron_s.seen):
        _equal(obs_o, obs_t)
        _equal(games_o, games_t)
    assert isinstance(mine.seen[0][0], dict) and sorted(mine.seen[0][0]) == ["planes", "scalars"]
    assert len(mine.resets) == len(gridiron_s.resets) > 1
    for (g_o, s_o), (g_t, s_t) in zip(mine.resets, gridiron_s.resets):
        _equal(g_o, g_t)
        _equal(s_o.astype(np.uint64), s_t.astype(np.uint64))


def test_an_opponent_that_needs_no_observation_gets_none():
    spy = _Spy(needs_observation=False)
    env = GameVectorEnv(2, game="gridiron", config=SHORT, opponent=spy)
    env.reset(seed=1)
    for _ in range(30):
        env.step(np.array([int(np.flatnonzero(row)[0]) for row in env.action_masks()]))
    assert spy.seen and all(obs is None for obs, _ in spy.seen)


def test_an_opponent_that_needs_the_state_plays_alike():
    """``AgentOpponent`` (``needs_state``): called with the engine state of the games it acts in and the
    config, re-keyed per episode by ``reset_games``."""
    kw = dict(config=SHORT, autoreset_mode="next_step")
    theirs = GridironVectorEnv(4, opponent=AgentOpponent(RandomAgent()), **kw)
    ours = GameVectorEnv(4, game="gridiron", opponent=AgentOpponent(RandomAgent()), **kw)
    rng = np.random.default_rng(5)
    _, info_t = theirs.reset(seed=3)
    _, info_o = ours.reset(seed=3)
    for _ in range(200):
        assert ours.state.equals(theirs.state)
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in info_t["action_mask"]])
        _, r_t, *_, info_t = theirs.step(actions)
        _, r_o, *_, info_o = ours.step(actions)
        _equal(info_o, info_t)
        _equal(r_o, r_t)


@pytest.mark.parametrize("n, options", [(1, {"observation": "planes"}), (5, {"score_reward_scale": 0.3}),
                                        (4, {"observation": "planes", "learner_team": "two"})])
def test_the_vector_envs_alike_with_the_options_and_illegal_entries(n, options):
    assert _vectors(n, 8, 160, options) >= n


def test_same_step_final_observations_of_planes_alike():
    _vectors(3, 12, 120, {"observation": "planes"}, "same_step")


def test_a_raise_says_gridiron_s_words():
    for env_class in (GridironEnv, lambda **kw: GameEnv(game="gridiron", **kw)):
        env = env_class(config=SHORT, illegal_action="raise", learner_team="one")
        _, info = env.reset(seed=0)
        bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
        with pytest.raises(IllegalActionError) as caught:
            env.step(bad)
        if env_class is GridironEnv:
            want = (str(caught.value), caught.value.action, caught.value.legal_actions)
        else:
            assert (str(caught.value), caught.value.action, caught.value.legal_actions) == want


@pytest.mark.parametrize("game", ["table_football", "sports_dice", "touchdown"])
def test_the_options_a_spec_does_not_offer_are_refused_naming_them(game):
    with pytest.raises(ValueError, match="observation must be one of"):
        GameEnv(game=game, observation="planes")
    with pytest.raises(ValueError, match="score_reward_scale must be 0"):
        GameVectorEnv(2, game=game, score_reward_scale=0.5)
    with pytest.raises(ValueError, match="offence_up must be False"):
        GameEnv(game=game, offence_up=True)
    for bad in (-1.0, float("nan"), True, "1"):
        with pytest.raises(ValueError, match="score_reward_scale must be a finite number"):
            GameEnv(game=game, score_reward_scale=bad)
    with pytest.raises(ValueError, match="offence_up must be True or False"):
        GameEnv(game=game, offence_up=1)
    env = GameEnv(game=game, score_reward_scale=0, offence_up=False, observation="features")
    assert env.observation_space.shape == (env.game.observation_size,)


def test_gridiron_v0_is_served_by_the_generic_classes_and_the_old_names_are_presets():
    import gymnasium

    from gridiron_env.envs import sb3 as gridiron_sb3
    from gridiron_env.envs import single, vector

    assert issubclass(single.GridironEnv, GameEnv) and issubclass(vector.GridironVectorEnv, GameVectorEnv)
    assert "__init__" in vars(single.GridironEnv) and set(vars(single.GridironEnv)) <= {
        "__init__", "__doc__", "__module__", "__qualname__", "__parameters__"}  # no logic: only the game fixed
    env = gymnasium.make("gridiron_env/Gridiron-v0", config=SHORT, observation="planes")
    assert isinstance(env.unwrapped, GameEnv) and env.unwrapped.game.name == "gridiron"
    assert isinstance(env.observation_space, gymnasium.spaces.Dict)
    venv = gymnasium.make_vec("gridiron_env/Gridiron-v0", num_envs=3, config=SHORT, score_reward_scale=0.5)
    assert type(venv) is vector.GridironVectorEnv and venv.game.name == "gridiron"
    sb3 = gridiron_sb3.SB3VecEnv("gridiron_env/Gridiron-v0", num_envs=2, config=SHORT)
    assert isinstance(sb3.venv, GameVectorEnv) and sb3.reset().shape == (2, env.unwrapped.game.observation_size)
    with pytest.raises(TypeError):
        single.GridironEnv(game="table_football")  # the game is the preset's


# --- the AEC env ---------------------------------------------------------------------------------------

class _GridironAECReference:
    """What Gridiron's own AEC env did before ``raw_env`` became a preset of the generic one, from the same
    pieces: the engine's game seeded s, ``selfplay.advance`` (the forfeit and the illegal-action entry),
    ``selfplay.team_rewards`` (+-1 and the per-step score shaping), ``common.encode`` and the renderer."""

    def __init__(self, config, observation="features", score_reward_scale=0.0, render_mode=None,
                 offence_up=False):
        self.config, self.kind, self.scale = config, observation, score_reward_scale
        self.render_mode, self.offence_up, self._renderer = render_mode, offence_up, None

    def reset(self, seed):
        from gridiron_env.envs.selfplay import init_games

        self.state = init_games(np.array([seed], dtype=np.uint64), self.config)
        self.rewards, self.info = (0.0, 0.0), {}

    def observe(self, team):
        from gridiron_env.envs.common import encode

        obs = encode(self.state, team, "features" if self.kind == "flat" else self.kind, self.config)
        obs = {k: v[0] for k, v in obs.items()} if isinstance(obs, dict) else obs[0]
        mask = np.zeros(291, dtype=np.int8)
        if self.state.to_act[0] == team:
            mask = self.state.legal[0].astype(np.int8)
        else:
            mask[0] = 1
        if self.kind == "flat":
            return np.concatenate([obs, mask.astype(np.float32)])
        return {"observation": obs, "action_mask": mask}

    def step(self, action):
        from gridiron_env.envs.selfplay import advance, team_rewards

        old = self.state
        given = np.empty(1, dtype=object)
        given[0] = action
        ok = isinstance(action, int) and not isinstance(action, bool) and 0 <= action < 291
        new, _, details = advance(old, np.array([action if ok else -1], dtype=np.int64), self.config, "lose",
                                  given=given)
        self.state = new
        ended = new.to_act[0] < 0
        r = team_rewards(old, new, np.array([ended]), self.scale)[0]
        self.rewards = (float(r[0]), float(r[1]))
        if ended:
            w = int(new.winner[0])
            self.info = {"winner": AGENTS[w] if w >= 0 else None,
                         "score": (int(new.score[0, 0]), int(new.score[0, 1]))}
            if details.get(0):
                self.info["illegal_action"] = dict(details[0])
        return ended

    def render(self):
        from gridiron_env.envs.common import render_game

        return render_game(self, self.state, 0)


AGENTS = ("team_one", "team_two")


def _aec_alike(options, seed, games, every=1):
    """The AEC env (``gridiron_env.envs.pettingzoo_env.raw_env``, a preset of the generic one) and Gridiron's
    own AEC play (the reference above), the same actions (now and then an illegal one) game after game:
    observations, masks, rewards, terminations, infos and frames equal."""
    from gridiron_env.adapters.pettingzoo import raw_env as generic_raw_env
    from gridiron_env.envs.pettingzoo_env import raw_env

    ours = raw_env(**options)
    assert type(ours).__mro__[1].__name__ == "GameAECEnv" and ours.metadata["name"] == "gridiron_v0"
    _equal(ours.observation_spaces, generic_raw_env("gridiron", **options).observation_spaces)
    config = ours.config
    theirs = _GridironAECReference(config, **{k: v for k, v in options.items()
                                               if k in ("observation", "score_reward_scale", "render_mode",
                                                        "offence_up")})
    rng = np.random.default_rng(seed)
    t = shaped = illegal = 0
    for g in range(games):
        theirs.reset(seed + g)
        ours.reset(seed=seed + g)
        over = False
        while not over:
            assert ours.agent_selection == AGENTS[int(theirs.state.to_act[0])]
            for team, agent in enumerate(AGENTS):
                _equal(ours.observe(agent), theirs.observe(team))
            if options.get("render_mode"):
                _equal(ours.render(), theirs.render())
            agent = ours.agent_selection
            obs = ours.observe(agent)
            mask = obs["action_mask"] if isinstance(obs, dict) else obs[-291:].astype(np.int8)
            action = _breaking(rng, mask, t, every)
            t += 1
            ours.step(action)
            over = theirs.step(action)
            _equal(ours.rewards, dict(zip(AGENTS, theirs.rewards)))
            shaped += any(r not in (0.0, 1.0, -1.0) for r in theirs.rewards)
        for agent in AGENTS:
            assert ours.terminations[agent] == bool(theirs.state.terminated[0])
            assert ours.truncations[agent] == bool(theirs.state.truncated[0])
            _equal(ours.infos[agent], theirs.info)
        if options.get("render_mode"):
            _equal(ours.render(), theirs.render())
        illegal += "illegal_action" in theirs.info
    return shaped, illegal


@pytest.mark.parametrize("options", [{"observation": "planes", "render_mode": "ansi", "offence_up": True},
                                     {"observation": "flat", "render_mode": "rgb_array", "config": SHORT},
                                     {"config": SHORT, "target_score": 2}])
def test_the_aec_env_alike_planes_flat_renders_and_illegal_actions(options):
    _, illegal = _aec_alike({"max_steps": 160, **options} if "config" not in options else options, 3, 3)
    assert illegal >= 1


def test_the_aec_env_alike_with_score_shaping():
    shaped, illegal = _aec_alike({"config": LONG, "score_reward_scale": 0.25}, 1, 2, every=40)
    assert shaped >= 2


def test_the_aec_env_refuses_what_a_spec_does_not_offer():
    from gridiron_env.adapters.pettingzoo import raw_env as generic_raw_env

    for option, message in (({"observation": "planes"}, "observation must be one of"),
                            ({"score_reward_scale": 1.0}, "score_reward_scale must be 0"),
                            ({"offence_up": True}, "offence_up must be False")):
        with pytest.raises(ValueError, match=message):
            generic_raw_env("table_football", **option)
    for game, has_draw in (("table_football", True), ("gridiron", False)):
        env = generic_raw_env(game, **({"max_steps": 160} if game == "gridiron" else {}))
        env.reset(seed=0)
        while not env.terminations[env.agent_selection] and not env.truncations[env.agent_selection]:
            env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
        assert ("draw" in env.infos["team_one"]) is has_draw  # a game that can draw says so
