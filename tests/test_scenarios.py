"""Scenarios (gridiron_env.scenarios): the positions are their documented diagrams, general over the config,
drawn from the seed, valid, hidden where they must be, and every Gridiron env starts from them and plays on.
"""

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings, strategies as st
from pettingzoo.test import api_test, parallel_api_test

import gridiron_env
from gridiron_env import GameConfig, SCENARIOS
from gridiron_env.adapters import pettingzoo as pz_adapter
from gridiron_env.adapters.selfplay import GameSelfPlayBatch
from gridiron_env.adapters.single import GameEnv
from gridiron_env.adapters.vector import GameVectorEnv
from gridiron_env.core import check_invariants, from_diagram, mirror_state, observe, observe_planes, step
from gridiron_env.core.chance import seed_keys
from gridiron_env.core.engine import recompute_legal
from gridiron_env.core.geometry import FRAME_ROW, HASH_BAND, N_LANES, NEIGHBOUR, TAGS
from gridiron_env.core.state import GAME_OVER, OFFENCE_FORMATION, SCRAMBLE
from gridiron_env.envs.selfplay import SelfPlayBatch
from gridiron_env.envs.single import GridironEnv
from gridiron_env.envs.vector import GridironVectorEnv, episode_seeds
from gridiron_env.render import render_ansi
from gridiron_env.scenarios import FAMILIES, FAMILY_IDS, get_scenario

NAMES = list(SCENARIOS)
CONFIGS = {
    "default": GameConfig(),
    "no_specials": GameConfig(specials=False),
    "target_7_paper": GameConfig(target_score=7, kick_mode="paper"),
    "target_2": GameConfig(target_score=2, specials=False, longest_punt=5),
}
SHORT = GameConfig(max_steps=400)  # whole games in a test: capped
REQUIRED = ("goal_line_stand", "fourth_and_short", "backed_up", "last_drive", "red_zone", "blind_scramble")


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the checkers' own notes
        yield


def _frame_row(s, team, row):
    """Rulebook row (1-based) of code row ``row`` in ``team``'s frame."""
    return int(FRAME_ROW[team, int(row) * N_LANES]) + 1


def _random_legal(mask, rng):
    return int(rng.choice(np.flatnonzero(mask)))


# --- the positions ---------------------------------------------------------------------------------------

def test_the_required_scenarios_are_listed_read_only():
    for name in REQUIRED:
        assert name in SCENARIOS
    with pytest.raises(TypeError):
        SCENARIOS["mine"] = SCENARIOS["red_zone"]  # a read-only mapping
    for name, sc in SCENARIOS.items():
        assert sc.name == name and sc.title and sc.description and sc.family in FAMILIES
        assert sc.side in ("offence", "defence")
        assert sc.diagram.startswith("gridiron diagram v1\n") and "board:" in sc.diagram
    assert set(FAMILY_IDS.values()) == set(FAMILIES)
    assert sum(len(v) for v in FAMILIES.values()) == len(SCENARIOS)


@pytest.mark.parametrize("config_name", list(CONFIGS))
@pytest.mark.parametrize("name", NAMES)
def test_every_state_passes_the_invariants_and_is_its_diagram(name, config_name):
    config = CONFIGS[config_name]
    sc = SCENARIOS[name]
    seeds = np.arange(40, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)  # spread over the seed space
    s = sc.build(seeds, config)
    check_invariants(s, check_mask=True, config=config)
    assert np.array_equal(s.rng_key, seed_keys(seeds)) and not s.rng_counter.any()
    for i in range(0, 40, 7):
        text, offence = sc.seed_text(int(seeds[i]), config)
        want = from_diagram(text, config)  # the documented diagram, filled, read by the diagram reader
        if offence == 1:  # team two on offence: the half turn with the teams swapped
            want = mirror_state(want)
            recompute_legal(want, config)
        want.rng_key[:] = seed_keys([int(seeds[i])])
        assert s.take([i]).equals(want), f"{name} seed {seeds[i]}"
        assert sc.build([int(seeds[i])], config).equals(s.take([i]))  # batch-size independent
        if not config.specials:
            assert (s.special == -1).all()


def test_open_parts_are_drawn_uniformly_from_the_seed():
    n = 6000
    for name, sc in SCENARIOS.items():
        picks = sc.picks(np.arange(n), GameConfig())
        for draw in list(sc.draws) + [None, None]:
            key, k = (draw.name, len(draw.values)) if draw is not None else ("offence", 2)
            counts = np.bincount(picks[key], minlength=k)
            expect = n / k
            # each count within 5 standard deviations of n/k (binomial)
            assert (np.abs(counts - expect) < 5 * np.sqrt(expect * (1 - 1 / k))).all(), (name, key, counts)
        for key in ("special one", "special two"):
            assert np.bincount(picks[key], minlength=4).min() > n / 4 - 5 * np.sqrt(n * 3 / 16)
        assert "special one" not in sc.picks(np.arange(10), GameConfig(specials=False))
    s = SCENARIOS["red_zone"].build(np.arange(2000), GameConfig())
    assert set(np.unique(s.offence)) == {0, 1}
    lanes = np.where(s.offence == 0, s.los_lane, N_LANES - 1 - s.los_lane)
    assert set(np.unique(lanes)) == set(HASH_BAND)


def _situation(s, g=0):
    off = int(s.offence[g])
    return dict(off=off, los=_frame_row(s, off, s.los_row[g]), gain=_frame_row(s, off, s.line_to_gain[g]),
                down=int(s.down[g]), phase=int(s.phase[g]), to_act=int(s.to_act[g]),
                score=(int(s.score[g, off]), int(s.score[g, 1 - off])), opener=int(s.opener[g]),
                drives=(int(s.drives[g, off]), int(s.drives[g, 1 - off])))


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 11])
def test_the_situations_are_the_named_ones(seed):
    """Read from the engine's State in the offence's own frame, whichever team it is."""
    for config in (GameConfig(), GameConfig(target_score=30), GameConfig(target_score=2)):
        t = config.target_score
        got = {name: _situation(sc.state(seed, config)) for name, sc in SCENARIOS.items()}
        for name in NAMES:
            if name != "blind_scramble":
                assert got[name]["phase"] == OFFENCE_FORMATION and got[name]["to_act"] == got[name]["off"]
        g = got["goal_line_stand"]
        assert (g["los"], g["gain"], g["down"]) == (4, 1, 1)  # first and goal next to the end zone
        assert got["fourth_and_goal"]["down"] == 4 and got["fourth_and_goal"]["los"] == 4
        f = got["fourth_and_short"]
        assert f["down"] == 4 and f["gain"] == f["los"] - 1 and 10 <= f["los"] <= 19
        assert got["third_and_short"]["down"] == 3 and got["third_and_short"]["gain"] == got["third_and_short"]["los"] - 1
        b = got["backed_up"]
        assert (b["los"], b["down"], b["gain"]) == (27, 1, 24)  # the last row before the own end zone
        r = got["red_zone"]
        assert 5 <= r["los"] <= 8 and r["gain"] == r["los"] - 3 and r["down"] == 1
        d = got["last_drive"]
        assert d["score"] == (max(t - 3, 0), t) and d["opener"] == 1 - d["off"]
        assert d["drives"][0] == d["drives"][1] and d["los"] == 22  # its own kickoff spot
        sc = got["blind_scramble"]
        assert sc["phase"] == SCRAMBLE and sc["to_act"] == 1 - sc["off"]  # the tackling side steps first


def test_fourth_down_gives_the_kick_choices_after_the_formations():
    from gridiron_env.core import action_id

    s = SCENARIOS["fourth_and_goal"].build([5], GameConfig(specials=False))
    s = step(s, [action_id("formation jumbo")], GameConfig(specials=False))
    s = step(s, [action_id("formation goal_line")], GameConfig(specials=False))
    assert s.legal[0, action_id("field goal")] and s.legal[0, action_id("punt 1")] and s.legal[0, action_id("play on")]


def test_the_last_drive_is_final():
    """At the first change of possession the game is over or in overtime, whatever happened (random play
    with a tiny roll cap, so drives end quickly; seeds 0..299)."""
    for target in (21, 2):
        config = GameConfig(target_score=target, max_rolls_per_down=2, specials=False)
        s = SCENARIOS["last_drive"].build(np.arange(300), config)
        drives0 = s.drives.copy()
        rng = np.random.default_rng(0)
        for _ in range(3000):
            live = ~(s.terminated | s.truncated) & (s.drives == drives0).all(axis=1) & ~s.overtime
            if not live.any():
                break
            acts = (rng.random(s.legal.shape) * s.legal).argmax(1)
            s = step(s, acts, config, active=live)
        assert not live.any()
        assert ((s.phase == GAME_OVER) | s.overtime).all()
        assert (s.phase == GAME_OVER).any()  # (random play rarely scores: most drives just end)


def test_the_scramble_ball_is_one_of_the_carriers_free_neighbours():
    sc = SCENARIOS["blind_scramble"]
    s = from_diagram(sc.text({"ball": 0}), GameConfig())
    carrier = int(s.player_square[0, TAGS.index("H")])
    nb = NEIGHBOUR[0, carrier]
    free = [int(q) for q in nb if q >= 0 and s.board[0, q] < 0]
    want = [f"{q // N_LANES + 1},{q % N_LANES + 1}" for q in free]
    assert list(sc.draws[0].values) == want  # the engine's fumble squares, in its order
    squares = {int(sc.state(seed).ball_square[0]) for seed in range(60)}
    assert len(squares) == 2 * len(want)  # every one of them, for either team on offence


def test_unknown_and_bad_input():
    with pytest.raises(ValueError, match="unknown scenario 'nope'.*goal_line_stand.*blind_scramble"):
        get_scenario("nope")
    sc = SCENARIOS["red_zone"]
    for bad in (-1, 2**64, 1.5, True, [1, -2]):
        with pytest.raises(ValueError, match="seeds"):
            sc.build(bad)
    with pytest.raises(ValueError, match="config"):
        sc.build([1], {"specials": False})
    with pytest.raises(ValueError, match="offence"):
        sc.build([1, 2], offence=[0, 2])


# --- hidden information ----------------------------------------------------------------------------------

def test_the_hidden_ball_does_not_show_in_any_observation():
    sc = SCENARIOS["blind_scramble"]
    config = GameConfig(specials=False)
    states = [from_diagram(sc.text({"ball": i}, config), config) for i in range(len(sc.draws[0].values))]
    assert len({int(s.ball_square[0]) for s in states}) == len(states)
    for team in (0, 1):
        feats = [observe(s, team, config) for s in states]
        planes = [observe_planes(s, team, config) for s in states]
        for f, p in zip(feats[1:], planes[1:]):
            assert np.array_equal(f, feats[0])
            assert np.array_equal(p[0], planes[0][0]) and np.array_equal(p[1], planes[0][1])
    assert len({render_ansi(s, 0) for s in states}) == 1
    # the documented views (the docs page draws the spectator's) say "hidden", never the square
    for seed in range(12):
        view = sc.show(seed)
        assert "ball: loose hidden" in view
        sq = int(sc.state(seed).ball_square[0])
        assert f"{sq // N_LANES + 1},{sq % N_LANES + 1}" not in view.split("board:")[0]


def _same_visible_seeds(config):
    """Seeds whose scramble positions differ only in the hidden square (team one on offence)."""
    sc = SCENARIOS["blind_scramble"]
    picks = sc.picks(np.arange(400), config)
    seen = {}
    for seed in np.flatnonzero(picks["offence"] == 0):
        seen.setdefault(int(picks["ball"][seed]), int(seed))
    assert len(seen) >= 3
    return list(seen.values())


def test_no_env_shows_the_hidden_ball():
    config = GameConfig(specials=False)
    seeds = _same_visible_seeds(config)
    for learner_team in ("one", "two"):
        firsts = []
        for seed in seeds:
            env = GridironEnv(learner_team=learner_team, config=config,
                                                       observation="planes")
            obs, info = env.reset(seed=seed, options={"scenario": "blind_scramble"})
            assert env.state.ball_hidden[0] or env.state.phase[0] != SCRAMBLE
            firsts.append((obs, info["action_mask"]))
        if learner_team == "two":  # the learner steps first: the very same position and menu for each
            for obs, mask in firsts[1:]:
                assert np.array_equal(obs["planes"], firsts[0][0]["planes"])
                assert np.array_equal(obs["scalars"], firsts[0][0]["scalars"])
                assert np.array_equal(mask, firsts[0][1])
    aecs = [gridiron_env.raw_env(config=config, scenario="blind_scramble") for _ in seeds]
    for env, seed in zip(aecs, seeds):
        env.reset(seed=seed)
    for agent in ("team_one", "team_two"):
        views = [env.observe(agent) for env in aecs]
        for v in views[1:]:
            assert np.array_equal(v["observation"], views[0]["observation"])
            assert np.array_equal(v["action_mask"], views[0]["action_mask"])


# --- every env kind ---------------------------------------------------------------------------------------

def _play_single(env, seed, scenario, rng, max_steps=3000):
    obs, info = env.reset(seed=seed, options=None if scenario is None else {"scenario": scenario})
    first = env.unwrapped.state.copy()
    for _ in range(max_steps):
        obs, r, term, trunc, info = env.step(_random_legal(info["action_mask"], rng))
        assert "illegal_action" not in info
        if term or trunc:
            return first
    raise AssertionError("the episode did not end")


@pytest.mark.parametrize("name", NAMES)
def test_every_gymnasium_env_starts_from_the_scenario_and_plays_to_the_end(name):
    rng = np.random.default_rng(1)
    sc = SCENARIOS[name]
    envs = {
        "game": GridironEnv(config=SHORT, learner_team="one"),
        "offence": gymnasium.make("gridiron_env/GridironOffence-v0"),
        "defence": gymnasium.make("gridiron_env/GridironDefence-v0"),
        "adapter": GameEnv(game="gridiron", config=SHORT),
    }
    for kind, env in envs.items():
        first = _play_single(env, 7, name, rng)
        check_invariants(first, config=env.unwrapped.config)
        if kind in ("game", "adapter"):
            # before the learner's first action the opponent may have played: compare the situation
            built = sc.state(7, env.unwrapped.config)
            assert first.los_row[0] == built.los_row[0] and first.offence[0] == built.offence[0]
            assert np.array_equal(first.score, built.score) and first.down[0] == built.down[0]
        else:  # a drive env: the learner's team takes its side of the scenario
            learner = env.unwrapped.learner_team
            side_team = first.offence[0] if kind == "offence" else 1 - first.offence[0]
            assert side_team == learner
    # the scenario option of the constructor: every episode, the next ones too
    env = GridironEnv(config=SHORT, scenario=name)
    for seed in (3, None):
        env.reset(seed=seed)
        # the scenario's down is under way, the learner to act: the offence's or defence's formation, or
        # the blind step
        assert env.state.phase[0] in (OFFENCE_FORMATION, SCRAMBLE, 2)
        assert env.state.down[0] == sc.state(0).down[0]


@pytest.mark.parametrize("env_id", list(FAMILY_IDS) + ["gridiron_env/GridironScenario-v0"])
def test_the_scenario_ids_pass_check_env_and_play(env_id):
    kwargs = {} if env_id in FAMILY_IDS else {"scenario": "last_drive"}
    env = gymnasium.make(env_id, **kwargs)
    check_env(env.unwrapped, skip_render_check=True)
    sc = get_scenario(FAMILIES[FAMILY_IDS[env_id]][0] if env_id in FAMILY_IDS else "last_drive")
    rng = np.random.default_rng(2)
    for seed in range(3):
        first = _play_single(env, seed, None, rng)
        learner = env.unwrapped.learner_team
        assert (first.offence[0] == learner) == (sc.side == "offence")
    vec = gymnasium.make_vec(env_id, num_envs=5, **kwargs)
    core = vec._core
    obs, infos = vec.reset(seed=4)
    done = np.zeros(5, bool)
    checked = 0
    for _ in range(3000):
        acts = np.array([_random_legal(m, rng) for m in infos["action_mask"]])
        ending = vec._needs_reset.copy()  # these reset on this step (NEXT_STEP autoreset)
        obs, r, term, trunc, infos = vec.step(acts)
        fresh = np.flatnonzero(ending)
        if fresh.size:  # the next episodes start from the scenario too, drawn from their own seeds
            e = episode_seeds(core.base_seed[fresh], core.episode[fresh])
            offence = core.learner[fresh] if sc.side == "offence" else 1 - core.learner[fresh]
            want, got = sc.build(e, core.config, offence=offence), vec.state.take(fresh)
            for f in ("los_row", "los_lane", "score", "down", "offence", "drives"):
                assert np.array_equal(getattr(got, f), getattr(want, f)), f
            checked += fresh.size
        done |= term | trunc
        if done.all() and checked:
            break
    assert done.all() and checked


def test_family_ids_take_their_own_scenarios_and_sides():
    env = gymnasium.make("gridiron_env/GridironShortYardage-v0", scenario="third_and_short")
    env.reset(seed=0)
    assert env.unwrapped.state.down[0] == 3
    with pytest.raises(ValueError, match="not of the 'short_yardage' family"):
        gymnasium.make("gridiron_env/GridironShortYardage-v0", scenario="red_zone")
    with pytest.raises(ValueError, match="scenario="):
        gymnasium.make("gridiron_env/GridironScenario-v0")
    env = gymnasium.make("gridiron_env/GridironGoalLineStand-v0", side="offence")
    env.reset(seed=3)
    assert env.unwrapped.state.offence[0] == env.unwrapped.learner_team
    with pytest.raises(ValueError, match="start or scenario"):
        gymnasium.make("gridiron_env/GridironOffence-v0", scenario="red_zone", start=10)


def test_vector_envs_take_one_scenario_or_one_per_game():
    names = ["red_zone", None, "blind_scramble", "backed_up"]
    for vec in (GridironVectorEnv(4, config=SHORT),
                GameVectorEnv(4, game="gridiron", config=SHORT)):
        vec.reset(seed=10, options={"scenario": "goal_line_stand"})
        for g in range(4):
            lone = SCENARIOS["goal_line_stand"].state(10 + g, vec.config)
            for f in ("los_row", "los_lane", "offence", "down", "score", "drives", "special"):
                assert np.array_equal(getattr(vec.state, f)[g], getattr(lone, f)[0]), f
        if isinstance(vec, GameVectorEnv):
            continue
        vec.reset(seed=10, options={"scenario": names})
        s = vec.state
        assert _situation(s, 0)["los"] in range(5, 9) and s.score[1].sum() == 0
        assert s.phase[2] in (SCRAMBLE, 4) and _situation(s, 3)["los"] == 27
        with pytest.raises(ValueError, match="num_envs = 4"):
            vec.reset(options={"scenario": names[:3]})
        # the seed list form, a scenario for each game
        vec.reset(seed=[1, 2, 3, 4], options={"scenario": names})
        assert _situation(vec.state, 3)["los"] == 27


def test_same_seed_same_game_and_game_i_is_a_lone_env():
    rng_actions = np.random.default_rng(5)
    for name in ("fourth_and_short", "blind_scramble"):
        vec = GridironVectorEnv(3, config=SHORT, learner_team="one")
        lones = [GridironEnv(config=SHORT, learner_team="one") for _ in range(3)]
        obs, infos = vec.reset(seed=20, options={"scenario": name})
        for i, env in enumerate(lones):
            o, _ = env.reset(seed=20 + i, options={"scenario": name})
            assert np.array_equal(o, obs[i])
        live = np.ones(3, bool)
        for _ in range(150):
            acts = np.array([_random_legal(m, rng_actions) for m in infos["action_mask"]])
            obs, r, term, trunc, infos = vec.step(acts)
            for i in np.flatnonzero(live):
                o, ri, ti, tri, _ = lones[i].step(int(acts[i]))
                assert np.array_equal(o, obs[i]) and ri == r[i] and ti == term[i] and tri == trunc[i]
                live[i] = not (ti or tri)
    # two envs, the same seed and actions: the same game
    a = GridironEnv(config=SHORT)
    b = GridironEnv(config=SHORT)
    oa, ia = a.reset(seed=99, options={"scenario": "red_zone"})
    ob, ib = b.reset(seed=99, options={"scenario": "red_zone"})
    rng = np.random.default_rng(0)
    for _ in range(200):
        act = _random_legal(ia["action_mask"], rng)
        oa, ra, ta, tra, ia = a.step(act)
        ob, rb, tb, trb, ib = b.step(act)
        assert np.array_equal(oa, ob) and ra == rb and ta == tb
        if ta or tra:
            break
    assert a.state.equals(b.state)


@pytest.mark.parametrize("name", NAMES)
def test_pettingzoo_envs_start_from_the_scenario_and_play_to_the_end(name):
    rng = np.random.default_rng(3)
    sc = SCENARIOS[name]
    for make in (lambda: gridiron_env.env(max_steps=400), lambda: pz_adapter.env("gridiron", max_steps=400)):
        env = make()
        env.reset(seed=8, options={"scenario": name})
        assert env.unwrapped.game_state.equals(sc.state(8, env.unwrapped.config))
        for agent in env.agent_iter(max_iter=2000):
            obs, reward, term, trunc, info = env.last()
            env.step(None if term or trunc else _random_legal(obs["action_mask"], rng))
        assert not env.agents
    for make in (lambda: gridiron_env.parallel_env(max_steps=400, scenario=name),
                 lambda: pz_adapter.parallel_env("gridiron", max_steps=400, scenario=name)):
        par = make()
        obs, infos = par.reset(seed=9)
        for _ in range(2000):
            if not par.agents:
                break
            obs, rewards, terms, truncs, infos = par.step(
                {a: _random_legal(o["action_mask"], rng) for a, o in obs.items()})
        assert not par.agents


def test_pettingzoo_checkers_pass_with_scenarios():
    api_test(gridiron_env.env(scenario="blind_scramble", max_steps=300), num_cycles=200)
    api_test(pz_adapter.env("gridiron", scenario="red_zone", max_steps=300), num_cycles=200)
    parallel_api_test(gridiron_env.parallel_env(scenario="last_drive", max_steps=300), num_cycles=200)
    parallel_api_test(pz_adapter.parallel_env("gridiron", scenario="goal_line_stand", max_steps=300),
                      num_cycles=200)


def test_selfplay_batches_start_from_scenarios():
    sc = SCENARIOS["backed_up"]
    batch = SelfPlayBatch(3, scenario="backed_up", autoreset=True, max_steps=300)
    batch.reset(seed=4)
    assert batch.state.equals(sc.build(batch.episode_seeds, batch.config))
    batch.reset(seed=4, scenario="red_zone")
    assert batch.state.equals(SCENARIOS["red_zone"].build(batch.episode_seeds, batch.config))
    generic = GameSelfPlayBatch(3, game="gridiron", scenario="blind_scramble")
    generic.reset(seed=1)
    assert (generic.state.phase == SCRAMBLE).all()
    rng = np.random.default_rng(0)
    for _ in range(400):
        out = batch.step(np.array([_random_legal(m, rng) for m in batch.action_mask()]))
        assert not out.info["illegal"].any()


@pytest.mark.parametrize("kind", ["single", "vector", "drive", "aec", "parallel", "adapter_single",
                                  "adapter_vector", "adapter_aec", "selfplay", "adapter_selfplay"])
def test_an_unknown_name_raises_naming_it_and_changes_nothing(kind):
    makers = {
        "single": lambda: GridironEnv(),
        "vector": lambda: GridironVectorEnv(2),
        "drive": lambda: gymnasium.make("gridiron_env/GridironDefence-v0").unwrapped,
        "aec": lambda: gridiron_env.raw_env(),
        "parallel": lambda: gridiron_env.parallel_env(),
        "adapter_single": lambda: GameEnv(game="gridiron"),
        "adapter_vector": lambda: GameVectorEnv(2, game="gridiron"),
        "adapter_aec": lambda: pz_adapter.raw_env("gridiron"),
        "selfplay": lambda: SelfPlayBatch(2),
        "adapter_selfplay": lambda: GameSelfPlayBatch(2, game="gridiron"),
    }
    env = makers[kind]()
    pattern = "unknown scenario 'goal_line'.*allowed: goal_line_stand, .*blind_scramble"
    if kind.endswith("selfplay"):
        env.reset(seed=1)
        before = env.state.copy()
        with pytest.raises(ValueError, match=pattern):
            env.reset(seed=2, scenario="goal_line")
        assert env.state.equals(before)
        return
    env.reset(seed=1)
    inner = getattr(env, "aec_env", env)
    before = (inner.unwrapped.game_state if hasattr(inner.unwrapped, "game_state") else inner.unwrapped.state).copy()
    with pytest.raises(ValueError, match=pattern):
        env.reset(seed=2, options={"scenario": "goal_line"})
    after = inner.unwrapped.game_state if hasattr(inner.unwrapped, "game_state") else inner.unwrapped.state
    assert after.equals(before)


def test_an_unknown_name_given_to_a_constructor_raises():
    pattern = "unknown scenario 'redzone'.*allowed: goal_line_stand, "
    for make in (lambda: GridironEnv(scenario="redzone"),
                 lambda: GridironVectorEnv(2, scenario="redzone"),
                 lambda: gymnasium.make("gridiron_env/GridironOffence-v0", scenario="redzone"),
                 lambda: gymnasium.make("gridiron_env/GridironScenario-v0", scenario="redzone"),
                 lambda: gridiron_env.raw_env(scenario="redzone"),
                 lambda: SelfPlayBatch(2, scenario="redzone"),
                 lambda: GameEnv(game="gridiron", scenario="redzone"),
                 lambda: GameVectorEnv(2, game="gridiron", scenario="redzone"),
                 lambda: pz_adapter.raw_env("gridiron", scenario="redzone"),
                 lambda: GameSelfPlayBatch(2, game="gridiron", scenario="redzone")):
        with pytest.raises(ValueError, match=pattern):
            make()


# --- the docs page ----------------------------------------------------------------------------------------

def _docs_pages():
    import importlib.util
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    if "docs_pages" in sys.modules:
        return sys.modules["docs_pages"]
    spec = importlib.util.spec_from_file_location("docs_pages", root / "tools" / "docs_pages.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["docs_pages"] = module  # (dataclasses look their module up there)
    spec.loader.exec_module(module)
    return module


def test_the_docs_page_draws_every_scenario_from_its_diagram_and_its_example_runs():
    import re

    docs = _docs_pages()
    page = docs.scenarios_page()
    for sc in SCENARIOS.values():
        assert sc.diagram.rstrip() in page, sc.name
        assert f"## {sc.title} {{#{sc.name.replace('_', '-')}}}" in page
    assert "| `blind_scramble` |" in page  # the README's measured table
    nav = docs.nav({"scenarios.md": page})
    assert {"Scenarios": "scenarios.md"} in nav
    # the scramble's picture shows no ball: its square stays hidden on the page
    scramble = page.split("## Blind scramble")[1].split("## The baselines")[0]
    assert "*" not in scramble.split("a spectator's picture):")[1].split("UPPER")[0]
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "<scenarios.md>", "exec"), {"__name__": "docs_example"})


def test_sb3_set_options_and_generic_vector_lists():
    pytest.importorskip("stable_baselines3")
    from gridiron_env.envs.sb3 import SB3VecEnv

    venv = SB3VecEnv("gridiron_env/Gridiron-v0", num_envs=3)
    venv.seed(30)
    venv.set_options([{"scenario": "backed_up"}, {}, {"scenario": "blind_scramble"}])
    venv.reset()
    s = venv.venv.state
    assert _situation(s, 0)["los"] == 27 and s.phase[1] == 0 and s.phase[2] == SCRAMBLE  # game 1: a new game
    venv.set_options({"scenario": "nope"})
    with pytest.raises(ValueError, match="unknown scenario 'nope'"):
        venv.reset()
    venv.set_options({"scenarios": "red_zone"})
    with pytest.raises(ValueError, match="'scenarios'"):
        venv.reset()
    vec = GameVectorEnv(3, game="gridiron", scenario="red_zone")
    vec.reset(seed=2, options={"scenario": [None, "blind_scramble", None]})
    assert vec.state.phase[1] == SCRAMBLE and all(_situation(vec.state, g)["los"] in range(5, 9) for g in (0, 2))
    given = SCENARIOS["last_drive"].build([0, 1, 2], vec.config)
    vec.reset(options={"state": given})  # a given state, not the env's own scenario
    assert np.array_equal(vec.state.drives, given.drives) and np.array_equal(vec.state.score, given.score)
    with pytest.raises(ValueError, match="not both"):
        vec.reset(options={"state": given, "scenario": "red_zone"})


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 2**64 - 1), target=st.integers(1, 99),
       specials=st.booleans(), paper=st.booleans(), punt=st.integers(1, 20), rolls=st.integers(1, 100))
def test_any_config_and_seed_gives_a_valid_position_that_plays_on(name, seed, target, specials, paper, punt, rolls):
    config = GameConfig(target_score=target, specials=specials, kick_mode="paper" if paper else "dice",
                        longest_punt=punt, max_rolls_per_down=rolls)
    s = SCENARIOS[name].build([seed, seed ^ 1], config)
    check_invariants(s, check_mask=True, config=config)
    rng = np.random.default_rng(seed % 1000)
    for _ in range(30):  # the normal rules from here: legal random actions, the invariants hold
        live = ~(s.terminated | s.truncated)
        if not live.any():
            break
        s = step(s, (rng.random(s.legal.shape) * s.legal).argmax(1), config, active=live)
        check_invariants(s, config=config)


def test_the_benchmark_plays_whole_drives_the_same_way_twice():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from agents.random_agent import RandomAgent
    from benchmarks.scenario_table import play_drives

    runs = [play_drives(SCENARIOS["red_zone"], RandomAgent(), RandomAgent(), 30, 7, GameConfig()) for _ in range(2)]
    assert np.array_equal(runs[0]["points"], runs[1]["points"])
    points = runs[0]["points"]
    assert set(np.unique(points)) <= {0, 3, 6, 7} and (runs[0]["scored"] == (points > 0)).all()
    assert (runs[0]["touchdown"] == (points >= 6)).all()
