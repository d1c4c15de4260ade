"""train.distill: one unit of a bot taught a teacher's moves (DAgger), the other kept; agents.base.TeamOfUnits,
the team of one agent's offence and another's defence; the command line."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from agents.base import TeamOfUnits  # noqa: E402
from agents.bot import LEVELS, Bot  # noqa: E402
from agents.random_agent import RandomAgent  # noqa: E402
from conftest import random_bot  # noqa: E402
from gridiron_env import GameConfig, init, step  # noqa: E402


class _Pick:
    """The first (or the last) legal action of every game asked: a unit whose moves can be told apart."""

    def __init__(self, last: bool):
        self.name = "last" if last else "first"
        self.last = last
        self.asked: list[np.ndarray] = []

    def reset(self, seeds):
        pass

    def act(self, state, config=None, games=None):
        legal = state.legal[:, ::-1] if self.last else state.legal
        pick = legal.argmax(axis=1)
        self.asked.append(np.asarray(games).copy())
        return (legal.shape[1] - 1 - pick) if self.last else pick


def _first_and_last(state, games):
    """The first and the last legal action of each of ``games``: what ``_Pick`` plays."""
    legal = state.legal[games]
    return legal.argmax(axis=1), legal.shape[1] - 1 - legal[:, ::-1].argmax(axis=1)


def _a_batch_and_a_random_agent(unit, games: int, seed: int, max_steps: int):
    """(config, state, random agent) for ``games`` games to 7 points; ``unit`` and the agent reset on them."""
    config = GameConfig(target_score=7, max_steps=max_steps)
    other = RandomAgent()
    for agent in (unit, other):
        agent.reset(np.arange(games))
    return config, init(games, seed=seed, config=config), other


def test_team_of_units_plays_its_offence_where_it_had_the_ball_at_the_snap_and_its_defence_elsewhere():
    offence, defence = _Pick(last=False), _Pick(last=True)
    team = TeamOfUnits(offence, defence)
    assert team.name == "first offence, last defence"
    config, state, other = _a_batch_and_a_random_agent(team, games=6, seed=3, max_steps=300)
    seen = set()
    while not (state.terminated | state.truncated).all():
        live = ~(state.terminated | state.truncated) & (state.to_act >= 0)
        ours = np.flatnonzero(live & (state.to_act == 0))
        actions = np.asarray(other.act(state, config), dtype=np.int64)
        if ours.size:
            asked_before = len(offence.asked), len(defence.asked)
            played = team.act(state, config, games=ours)[ours]
            on_offence = state.offence[ours] == 0
            first, last = _first_and_last(state, ours)
            np.testing.assert_array_equal(played, np.where(on_offence, first, last))
            for unit, before, rows in ((offence, asked_before[0], ours[on_offence]),
                                       (defence, asked_before[1], ours[~on_offence])):
                # each unit is asked about its own games only, and not at all when it has none
                assert [list(g) for g in unit.asked[before:]] == ([list(rows)] if rows.size else [])
            seen.update(on_offence.tolist())
            actions[ours] = played
        state = step(state, actions, config=config)
    assert seen == {True, False}


def _small_config(**fields):
    from train.distill import DistillConfig

    return DistillConfig(**{"teacher": "power_run", "games": 16, "epochs": 8, "dagger_rounds": 1, "level_games": 0,
                            "threads": 1, "variants": "default", **fields})


def test_distil_moves_the_unit_toward_its_teacher_and_keeps_the_other_unit_to_the_bit():
    """A random bot's defence fitted to the power wall's: its agreement with the wall on held-out moves rises
    far above a random net's (measured: 1% -> 25% after 16 games to 7 points and one DAgger round); the
    offence is the old one, array for array."""
    from train.distill import distil

    bot = random_bot((32,), seed=2)
    lines = []
    new, summary = distil(bot, _small_config(), GameConfig(target_score=7), log=lines.append)
    for (w, b), (w0, b0) in zip(new.offence, bot.offence):
        assert np.array_equal(w, w0) and np.array_equal(b, b0)
    assert not np.array_equal(new.defence[0][0], bot.defence[0][0])
    assert summary["agreement_after"] >= summary["agreement_before"] + 0.15, summary
    assert [fit["samples"] for fit in summary["fits"]] == sorted({fit["samples"] for fit in summary["fits"]})
    assert len(summary["fits"]) == 2 and all(0.0 <= fit["accuracy"] <= 1.0 for fit in summary["fits"])
    assert summary["recording_seconds"] > 0 and summary["fits_seconds"] > 0  # where the teaching's time went
    assert any(line.startswith("DAgger 1: the defence fitted to") for line in lines)
    assert new.levels == {name: pytest.approx(t) for name, t in LEVELS.items()}  # the old levels were the old net's


def test_distil_can_teach_the_offence_too():
    from train.distill import distil

    bot = random_bot((16,), seed=4)
    new, summary = distil(bot, _small_config(side="offence", teacher="spread_pass", dagger_rounds=0),
                          GameConfig(target_score=7), log=lambda line: None)
    assert all(np.array_equal(w, w0) for (w, _), (w0, _) in zip(new.defence, bot.defence))
    assert summary["agreement_after"] > summary["agreement_before"], summary


def test_a_back_carries_when_a_snap_offence_player_but_the_quarterback_holds_the_ball():
    from train.distill import a_back_carries

    state = init(5, seed=1)
    state.ball_holder[:] = np.array([-1, 0, 1, 10, 11], dtype=state.ball_holder.dtype)  # loose, QB, back, end, defender
    assert a_back_carries(state).tolist() == [False, False, True, True, False]


def test_the_offence_holds_the_ball_in_a_play_when_its_quarterback_or_a_back_has_it():
    from gridiron_env.core.state import DEFENCE_FORMATION, PLAY
    from train.distill import a_back_carries, the_offence_holds_the_ball

    state = init(6, seed=1)
    state.ball_holder[:] = np.array([-1, 0, 1, 10, 11, 0], dtype=state.ball_holder.dtype)  # loose, QB, back, end, defender
    state.phase[:] = PLAY
    state.phase[5] = DEFENCE_FORMATION  # the quarterback has the ball before the snap: the formation pick
    assert the_offence_holds_the_ball(state).tolist() == [False, True, True, True, False, False]
    # every run position is one of them, and the quarterback's are the ones added
    held, runs = the_offence_holds_the_ball(state), a_back_carries(state)
    assert (held | runs).tolist() == held.tolist()


def test_the_defence_fronts_base_personnel_in_its_formation_pick_against_three_receivers_or_fewer():
    """The pick against every offence formation but the shotgun spread (4 receivers) and the empty set (5); not
    in a play, nor before the offence has picked; "held+fronts" is that or the offence holding the ball."""
    from gridiron_env.core.formations import OFFENCE_FORMATIONS
    from gridiron_env.core.state import DEFENCE_FORMATION, PLAY
    from train.distill import SITUATIONS, the_defence_fronts_base_personnel, the_offence_holds_the_ball

    n = len(OFFENCE_FORMATIONS)
    state = init(n + 2, seed=3)
    state.phase[:] = DEFENCE_FORMATION
    state.formation[:n, 0] = np.arange(n)
    state.formation[n, 0] = -1  # no offence formation yet
    state.formation[n + 1, 0] = OFFENCE_FORMATIONS.index("i_form")
    state.phase[n + 1] = PLAY  # the same formation in the play that follows
    fronted = the_defence_fronts_base_personnel(state).tolist()
    assert fronted[:n] == [name not in ("shotgun", "empty") for name in OFFENCE_FORMATIONS]
    assert fronted[n:] == [False, False]
    state.ball_holder[:] = 0  # the quarterback: held in the play only
    assert SITUATIONS["held+fronts"](state).tolist() == fronted[:n] + [False, True]
    assert (the_offence_holds_the_ball(state) | the_defence_fronts_base_personnel(state)).tolist() == \
        SITUATIONS["held+fronts"](state).tolist()


def test_distil_on_held_and_fronts_teaches_the_held_positions_and_the_picks_against_base_personnel():
    from train.distill import distil

    bot = random_bot((16,), seed=8)
    config = GameConfig(target_score=7)
    _, held = distil(bot, _small_config(situations="held", dagger_rounds=0), config, log=lambda line: None)
    _, fronts = distil(bot, _small_config(situations="held+fronts", dagger_rounds=0), config, log=lambda line: None)
    assert held["fits"][0]["samples"] < fronts["fits"][0]["samples"]


def test_distil_while_the_offence_holds_the_ball_teaches_more_positions_than_runs():
    from train.distill import distil

    bot = random_bot((16,), seed=8)
    config = GameConfig(target_score=7)
    _, runs = distil(bot, _small_config(situations="runs", dagger_rounds=0), config, log=lambda line: None)
    _, held = distil(bot, _small_config(situations="held", dagger_rounds=0), config, log=lambda line: None)
    _, everything = distil(bot, _small_config(dagger_rounds=0), config, log=lambda line: None)
    assert runs["fits"][0]["samples"] < held["fits"][0]["samples"] < everything["fits"][0]["samples"]


def test_recording_keeps_only_the_decisions_asked_for_and_the_games_are_the_same():
    """``keep`` filters what is recorded, never what is played: the kept samples are exactly the full
    recording's rows where the filter holds (it is asked about every decision, in order)."""
    from agents.panel import PowerRunAgent
    from train.distill import a_back_carries
    from train.learners import record_teacher_games

    config = GameConfig(target_score=7)
    seen = []

    def runs_seen(view):
        kept = a_back_carries(view)
        seen.append(kept)
        return kept

    opponents = [RandomAgent()]
    full = record_teacher_games(PowerRunAgent(), opponents, 4, 11, config)
    runs = record_teacher_games(PowerRunAgent(), opponents, 4, 11, config, keep=runs_seen)
    kept = np.concatenate(seen)
    assert kept.size == len(full[2]) and 0 < kept.sum() < kept.size  # every decision asked, some kept
    for part, whole in zip(runs, full):
        np.testing.assert_array_equal(part, whole[kept])
    nothing = record_teacher_games(PowerRunAgent(), opponents, 4, 11, config, keep=lambda view: np.zeros(
        view.batch_size, bool))
    assert [len(x) for x in nothing] == [0, 0, 0]


def test_distil_on_runs_alone_teaches_only_run_positions():
    """situations="runs": every sample and the held-out agreement come from positions where a back carries."""
    from train.distill import distil

    bot = random_bot((16,), seed=8)
    _, summary = distil(bot, _small_config(situations="runs"), GameConfig(target_score=7), log=lambda line: None)
    _, everything = distil(bot, _small_config(), GameConfig(target_score=7), log=lambda line: None)
    assert 0 < summary["fits"][0]["samples"] < everything["fits"][0]["samples"]
    assert summary["agreement_after"] > summary["agreement_before"], summary


def test_the_situation_teacher_plays_the_teacher_in_its_situations_and_the_own_unit_elsewhere():
    """SituationTeacher: at every decision of a played batch, the teacher's move where a back carries the
    ball and the own unit's move elsewhere; each unit is asked only about its own games."""
    from train.distill import SituationTeacher, a_back_carries

    teacher, own = _Pick(last=False), _Pick(last=True)
    unit = SituationTeacher(teacher, own, a_back_carries, name="first on runs")
    config, state, walker = _a_batch_and_a_random_agent(unit, games=8, seed=5, max_steps=400)
    seen = set()
    while not (state.terminated | state.truncated).all():
        games = np.flatnonzero(~(state.terminated | state.truncated) & (state.to_act >= 0))
        teacher.asked.clear()
        own.asked.clear()
        actions = unit.act(state, config, games=games)
        runs = a_back_carries(state)[games]
        first, last = _first_and_last(state, games)
        np.testing.assert_array_equal(actions[games], np.where(runs, first, last))
        assert sorted(np.concatenate(teacher.asked + [np.zeros(0, int)]).tolist()) == games[runs].tolist()
        assert sorted(np.concatenate(own.asked + [np.zeros(0, int)]).tolist()) == games[~runs].tolist()
        seen.update(runs.tolist())
        state = step(state, walker.act(state, config), config=config)
    assert seen == {True, False}


def test_a_share_of_the_other_positions_is_kept_and_the_draw_repeats_with_its_seed():
    from train.distill import a_back_carries, situations_and_a_share

    state = init(4000, seed=2)
    state.ball_holder[:] = np.where(np.arange(4000) % 4 == 0, 3, 0).astype(state.ball_holder.dtype)  # a quarter runs
    runs = a_back_carries(state)
    assert situations_and_a_share(a_back_carries, 0.0, 1)(state).tolist() == runs.tolist()
    assert situations_and_a_share(a_back_carries, 1.0, 1)(state).all()
    kept = situations_and_a_share(a_back_carries, 0.3, 1)(state)
    assert kept[runs].all()
    share = kept[~runs].mean()  # 3,000 draws: 0.3 within 4 standard errors (0.034)
    assert abs(share - 0.3) < 0.034, share
    assert situations_and_a_share(a_back_carries, 0.3, 1)(state).tolist() == kept.tolist()
    assert situations_and_a_share(a_back_carries, 0.3, 2)(state).tolist() != kept.tolist()


def test_own_share_fits_the_nets_own_moves_elsewhere_and_keeps_them():
    """A runs-only teaching with ``own_share`` records the net's own greedy moves in a share of the other
    positions too (more samples) and keeps far more of them than one without (measured on a random 16-unit
    net, 16 games to 7 points, 24 passes: 6% kept without, 62% with all of them)."""
    from train.distill import distil

    bot = random_bot((16,), seed=8)
    runs = dict(situations="runs", epochs=24, dagger_rounds=0)
    _, alone = distil(bot, _small_config(**runs), GameConfig(target_score=7), log=lambda line: None)
    lines = []
    _, kept = distil(bot, _small_config(own_share=1.0, **runs), GameConfig(target_score=7), log=lines.append)
    assert kept["fits"][0]["samples"] > alone["fits"][0]["samples"]
    assert kept["own_moves_kept"] > alone["own_moves_kept"] + 0.3, (alone, kept)
    assert kept["own_share"] == 1.0 and alone["own_share"] == 0.0
    assert any(line.startswith("its own greedy move kept in") for line in lines)
    _, everything = distil(bot, _small_config(dagger_rounds=0, epochs=1), GameConfig(target_score=7),
                           log=lambda line: None)
    assert "own_moves_kept" not in everything  # taught everywhere: no other positions


def _positions_with_tackles(games: int = 24, seed: int = 5):
    """A batch of play positions of power_run against the random agent, some with a tackle in reach (the
    states reached every 40 steps)."""
    from agents.panel import PowerRunAgent
    from gridiron_env.core.state import PLAY

    config = GameConfig(target_score=7)
    agents = [PowerRunAgent(), RandomAgent()]
    for agent in agents:
        agent.reset(np.arange(games))
    state, seen = init(games, seed=seed, config=config), []
    for turn in range(600):
        if turn % 40 == 0 and (state.phase == PLAY).any():
            seen.append(state.take(np.flatnonzero(state.phase == PLAY)))
        acting = state.to_act.clip(0, 1)
        actions = np.where(acting == 0, agents[0].act(state, config), agents[1].act(state, config))
        state = step(state, actions, config=config, active=~(state.terminated | state.truncated))
    return seen


def test_the_tackles_of_a_batch_are_each_games_tackles_and_each_one_tackles():
    """``agents.board.tackle_moves_mask`` over a batch is, game by game, the terminal game's tackles
    (``agents.play.tackle_moves``, checked against the engine in test_play); each marked move, stepped, makes
    the engine draw its tackle-fumble chance (rule 15: the run ends there)."""
    from agents.board import tackle_moves_mask
    from agents.play import tackle_moves
    from gridiron_env.core import CounterChance

    class Tackles(CounterChance):
        def __init__(self):
            self.games = set()

        def draw(self, state, games, high, count, what=""):
            if what == "tackle fumble":
                self.games |= {int(g) for g in np.asarray(games).reshape(-1)}
            return super().draw(state, games, high, count, what)

    marked = 0
    for view in _positions_with_tackles():
        mask = tackle_moves_mask(view)
        for game in range(view.batch_size):
            assert np.flatnonzero(mask[game]).tolist() == tackle_moves(view, game).tolist()
        games, actions = np.nonzero(mask)
        if games.size:
            chance = Tackles()
            step(view.take(games), actions, chance=chance)
            assert chance.games == set(range(games.size))
            marked += games.size
    assert marked > 0


def test_moves_toward_a_tackle_are_the_defences_tackles_and_the_steps_its_points_pay_for():
    """``toward_a_tackle``: every tackle of the side defending a carrier; tackle_now's pick (the wall's
    pursuit) whenever there is one; a defender's step that leaves a tackle out of this turn's points, the
    offence's own moves and every other kind of action are not; ``tackles_count`` weighs exactly those."""
    from agents.board import tackle_moves_mask
    from agents.panel.common import moves_toward_a_tackle, side_of, tackle_now
    from gridiron_env.core import actions as A
    from train.distill import tackles_count, toward_a_tackle

    weigh = tackles_count(5.0)
    counts = dict(tackles=0, picks=0, others=0)
    for view in _positions_with_tackles():
        m = view.batch_size
        tackles = tackle_moves_mask(view)
        with_tackle = tackles.any(axis=1)
        assert toward_a_tackle(view, tackles.argmax(axis=1))[with_tackle].all()
        counts["tackles"] += int(with_tackle.sum())
        side = side_of(view)
        pick = tackle_now(view, side)[0]
        holder = view.ball_holder.astype(np.int64)
        defending = (holder >= 0) & ((holder < 11) != (side.base == 0)) & (view.to_act >= 0)
        picked = defending & (pick >= 0)
        assert toward_a_tackle(view, np.maximum(pick, 0))[picked].all()
        counts["picks"] += int(picked.sum())
        # each move is marked exactly when the defending side's ways to a tackle include it; none when there
        # is no way this turn; no other kind of action
        ways = moves_toward_a_tackle(view, side)
        for action in range(A.NUM_ACTIONS):
            marked = toward_a_tackle(view, np.full(m, action))
            if A.ACTION_KIND[action] != A.KIND_MOVE:
                assert not marked.any()
                continue
            legal = view.legal[:, action]
            assert marked.tolist() == (defending & (ways & (side.move_ids == action)).any(axis=(1, 2))).tolist()
            assert not marked[(pick < 0) | ~legal].any()
            counts["others"] += int((legal & defending & ~marked).sum())
        actions = np.where(with_tackle, tackles.argmax(axis=1), view.legal.argmax(axis=1))
        assert weigh(view, actions).tolist() == np.where(toward_a_tackle(view, actions), 5.0, 1.0).tolist()
    assert min(counts.values()) > 0, counts


def test_a_recording_with_weights_records_the_same_moves_and_one_weight_each():
    from agents.panel import PowerRunAgent
    from train.distill import tackles_count
    from train.learners import record_teacher_games

    config = GameConfig(target_score=7)
    plain = record_teacher_games(PowerRunAgent(), [RandomAgent()], 4, 3, config)
    weighted = record_teacher_games(PowerRunAgent(), [RandomAgent()], 4, 3, config, weigh=tackles_count(3.0))
    assert len(weighted) == 4 and len(plain) == 3
    for part, whole in zip(weighted, plain):
        assert np.array_equal(part, whole)
    assert weighted[3].shape == (len(plain[2]),) and set(np.unique(weighted[3])) <= {1.0, 3.0}
    assert (weighted[3] == 3.0).any()  # the power wall tackles the random agent's carriers


def test_a_fit_with_weights_follows_the_heavier_label():
    """One observation labelled two ways: unweighted, the fit splits its odds by count; a weight on the rarer
    label makes it the net's choice."""
    from train.learners import fit_masked

    obs = np.zeros((30, 4), np.float32)
    masks = np.zeros((30, 3), bool)
    masks[:, :2] = True
    actions = np.array([0] * 20 + [1] * 10)
    results = {}
    for name, weights in (("plain", None), ("weighted", np.where(actions == 1, 5.0, 1.0))):
        torch.manual_seed(0)
        net = torch.nn.Linear(4, 3)
        fit_masked(net, list(net.parameters()), obs, masks, actions, 200, 0.05, 0, batch_size=30, weights=weights)
        results[name] = torch.softmax(net(torch.as_tensor(obs[:1]))[0, :2], 0).tolist()
    assert results["plain"][0] == pytest.approx(2 / 3, abs=0.02)
    assert results["weighted"][1] == pytest.approx(5 / 7, abs=0.02)


def test_a_fit_by_steps_plays_that_many_minibatches_whatever_the_samples():
    """``steps`` counts minibatches across passes (the last pass cut short); without it, ``epochs`` passes;
    the same steps over the same samples and seed give the same net."""
    from train.learners import fit_masked

    rng = np.random.default_rng(4)
    obs = rng.normal(size=(100, 4)).astype(np.float32)
    masks = np.ones((100, 3), bool)
    actions = rng.integers(0, 3, 100)
    calls = []

    def fitted(steps, epochs=1, n=100):
        torch.manual_seed(0)
        net = torch.nn.Linear(4, 3)
        calls.clear()
        logits_of = lambda batch: (calls.append(len(batch)), net(batch))[1]  # noqa: E731
        fit_masked(logits_of, list(net.parameters()), obs[:n], masks[:n], actions[:n], epochs, 0.01, 3,
                   batch_size=30, steps=steps)
        return net

    fitted(steps=0, epochs=2)
    assert calls == [30, 30, 30, 10] * 2  # two passes of four minibatches
    fitted(steps=6, epochs=50)
    assert calls == [30, 30, 30, 10, 30, 30]  # six minibatches, the epochs ignored
    fitted(steps=6, n=40)
    assert calls == [30, 10] * 3  # fewer samples: more passes, the same minibatches
    one, two = fitted(steps=5), fitted(steps=5)
    assert torch.equal(one.weight, two.weight)
    assert not torch.equal(one.weight, fitted(steps=6).weight)


def test_distil_reports_its_tackles_and_the_tackle_weight_changes_the_fit():
    from train.distill import distil

    bot = random_bot((16,), seed=8)
    config = GameConfig(target_score=7)
    taught = {}
    for weight in (1.0, 8.0):
        lines = []
        taught[weight], summary = distil(bot, _small_config(dagger_rounds=0, tackle_weight=weight), config,
                                         log=lines.append)
        assert summary["tackle_weight"] == weight
        assert 0.0 <= summary["toward_a_tackle_after"] <= 1.0  # the wall tackles in these games
        assert any("toward a tackle" in line for line in lines if line.startswith("agreement with"))
    assert not all(np.array_equal(a[0], b[0]) for a, b in zip(taught[1.0].defence, taught[8.0].defence))


def test_the_students_agreement_counts_its_own_positions_and_the_tackles_among_them():
    from train.distill import student_agreement

    logits_of = lambda obs: torch.tensor([[1.0, 0.0, 0.0]]).repeat(len(obs), 1)  # noqa: E731 (always move 0)
    recorded = (np.zeros((4, 2), np.float32), np.ones((4, 3), bool), np.array([0, 0, 0, 1]),
                np.array([1.0, 1.0, 8.0, 8.0], np.float32))
    assert student_agreement(logits_of, recorded, 8.0) == {"own_games_agreement": 0.75,
                                                          "own_games_toward_a_tackle": 0.5}
    plain = student_agreement(logits_of, recorded[:3] + (np.ones(4, np.float32),), 1.0)
    assert plain["own_games_agreement"] == 0.75 and np.isnan(plain["own_games_toward_a_tackle"])


def test_each_dagger_round_reports_the_last_fits_net_in_its_own_games():
    from train.distill import distil

    lines = []
    _, summary = distil(random_bot((16,), seed=8), _small_config(dagger_rounds=1, tackle_weight=8.0),
                        GameConfig(target_score=7), log=lines.append)
    first, last = summary["fits"]
    assert 0.0 <= first["own_games_agreement"] <= 1.0 and 0.0 <= first["own_games_toward_a_tackle"] <= 1.0
    assert "own_games_agreement" not in last  # the last fit's net plays no more games
    assert any(line.startswith("in its own games the defence net") for line in lines)


def test_each_recording_is_split_over_variants_with_and_without_specials_and_together_they_spread():
    from train.learners import teaching_configs
    from train.league import game_variants

    variants = game_variants("all")
    chosen = [teaching_configs(variants, recording, 4, 2) for recording in range(4)]
    assert chosen[0][0] == GameConfig()  # the first recording plays the default game
    for configs in chosen:  # one config with the specials, one without
        assert sorted(config.specials for config in configs) == [False, True]
    played = {config for configs in chosen for config in configs}
    assert len(played) == 8 and {c.kick_mode for c in played} == {"dice", "paper"}
    assert len({c.target_score for c in played}) >= 2
    every = {config for r in range(8) for config in teaching_configs(variants, r, 8, 2)}
    assert every == set(variants)  # eight recordings of two: all sixteen
    assert teaching_configs([GameConfig()], 3, 4, 2) == [GameConfig()]  # one variant: no split
    assert [teaching_configs(variants, r, 4, 1) for r in range(4)] == [[variants[k]] for k in (0, 4, 8, 12)]


def test_a_recording_across_configs_is_its_parts_recorded_alone_with_the_same_seeds(monkeypatch):
    """``record_across_configs`` plays each config's share of the games, under that config, with the seeds
    those games have in one recording, and concatenates the samples in order."""
    import train.learners as learners
    from train.learners import record_across_configs

    teacher, opponents = RandomAgent(), [RandomAgent()]
    small = dict(max_steps=60)
    specials, plain = GameConfig(target_score=7), GameConfig(target_score=7, specials=False)
    whole = record_across_configs([specials, plain], teacher, opponents, 6, 40, **small)
    first = learners.record_teacher_games(teacher, opponents, 4, 40, specials, **small)
    second = learners.record_teacher_games(teacher, opponents, 2, 44, plain, **small)
    for got, parts in zip(whole, zip(first, second)):
        np.testing.assert_array_equal(got, np.concatenate(parts))
    alone = learners.record_teacher_games(teacher, opponents, 6, 40, specials, **small)
    for got, want in zip(record_across_configs([specials], teacher, opponents, 6, 40, **small), alone):
        np.testing.assert_array_equal(got, want)
    asked = []
    record_across_configs([specials, plain], teacher, opponents, 6, 40,
                          keep_for=lambda seed: asked.append(seed) or (lambda view: np.ones(view.batch_size, bool)),
                          **small)
    assert asked == [40, 44]  # each part's keep, keyed on its first game's seed


def test_the_teaching_plays_the_rule_variants(monkeypatch):
    """With ``variants`` "all", the teaching's games run under configs with and without the specials and
    both kick modes; with "default", under the given game alone."""
    import train.learners as learners
    from train.distill import distil

    played = []
    real = learners.record_teacher_games

    def noting_the_config(teacher, opponents, games, seed, game_config, **options):
        played.append(game_config)
        return real(teacher, opponents, games, seed, game_config, **options)

    monkeypatch.setattr(learners, "record_teacher_games", noting_the_config)
    bot = random_bot((16,), seed=3)
    lines = []
    _, summary = distil(bot, _small_config(variants="all", games=8, epochs=1, dagger_rounds=1, situations="runs"),
                        GameConfig(target_score=7, max_steps=300), log=lines.append)
    assert {config.specials for config in played} == {True, False}
    assert {config.kick_mode for config in played} == {"dice", "paper"}
    assert GameConfig(target_score=7, max_steps=300) in played  # the given game is one of them
    assert summary["configs_played"] == 4 and "teaching over 4 rule variant(s) of 17, 2 per recording" in lines
    played.clear()
    _, summary = distil(bot, _small_config(games=8, epochs=1, dagger_rounds=0), GameConfig(target_score=7),
                        log=lambda line: None)
    assert set(played) == {GameConfig(target_score=7)} and summary["configs_played"] == 1


@pytest.mark.parametrize("field, value, words", [
    ("variants", "some", "DistillConfig.variants"), ("variant_groups", 0, "DistillConfig.variant_groups"),
    ("situations", "passes", "DistillConfig.situations"), ("own_share", 1.5, "DistillConfig.own_share"),
    ("own_share", -0.1, "DistillConfig.own_share"),
    ("side", "kicker", "DistillConfig.side"), ("games", 1, "DistillConfig.games"),
    ("epochs", 0, "DistillConfig.epochs"), ("dagger_rounds", -1, "DistillConfig.dagger_rounds"),
    ("lr", 0.0, "DistillConfig.lr"), ("level_games", 3, "DistillConfig.level_games"),
    ("threads", 0, "DistillConfig.threads"), ("teacher", "chess", "DistillConfig.teacher"),
    ("teacher", "spread_pass+chess", "DistillConfig.teacher"),
    ("tackle_weight", 0.5, "DistillConfig.tackle_weight"), ("tackle_weight", float("nan"), "DistillConfig.tackle_weight"),
    ("fit_steps", -1, "DistillConfig.fit_steps"), ("fit_steps", 2.5, "DistillConfig.fit_steps"),
])
def test_a_bad_setting_raises_naming_its_field(field, value, words):
    with pytest.raises(ValueError, match=words):
        _small_config(**{field: value})


def test_the_command_writes_the_taught_bot_and_refuses_bad_input_in_one_line(tmp_path, capsys):
    from train.distill import main

    path = tmp_path / "random.npz"
    random_bot((16,), seed=6).save(path)
    out = tmp_path / "taught" / "bot.npz"
    summary = main([str(path), "--out", str(out), "--games", "2", "--epochs", "1", "--dagger-rounds", "0",
                    "--level-games", "0", "--threads", "1", "--variants", "default", "--fit-steps", "3"])
    taught = Bot.load(out)
    assert summary["teacher"] == "power_run" and summary["side"] == "defence" and summary["configs_played"] == 1
    assert summary["fit_steps"] == 3
    assert all(np.array_equal(w, w0) for (w, _), (w0, _) in zip(taught.offence, Bot.load(path).offence))
    assert f"written {out}" in capsys.readouterr().out

    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a bot")
    with pytest.raises(SystemExit) as stop:
        main([str(bad), "--out", str(tmp_path / "never.npz")])
    err = capsys.readouterr().err.strip().splitlines()
    assert stop.value.code == 1 and len(err) == 1 and err[0].startswith("python -m train.distill: bot file refused:")
    assert not (tmp_path / "never.npz").exists()
    for argv, words in (([str(path), "--out", str(tmp_path / "x.npz"), "--teacher", "chess"], "DistillConfig.teacher"),
                        ([str(path), "--out", str(tmp_path / "x.txt")], "--out must name a .npz file"),
                        ([str(path), "--out", str(tmp_path / "x.npz"), "--games", "0"], "DistillConfig.games"),
                        ([str(path), "--out", str(tmp_path / "x.npz"), "--variant-groups", "0"],
                         "DistillConfig.variant_groups"),
                        ([str(path), "--out", str(tmp_path / "x.npz"), "--fit-steps", "-1"], "DistillConfig.fit_steps")):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 2 and words in capsys.readouterr().err
