"""Teams of two panel styles (agents.panel.composite) and the main job's warm start from a teacher
(train.learners.record_teacher_games, warm_start; TrainConfig.teacher)."""

import numpy as np
import pytest

from agents import PANEL, RandomAgent
from agents.heuristic import HeuristicAgent
from agents.panel.composite import TEAMS, CompositeAgent, composite, composite_from_name
from gridiron_env.config import GameConfig
from gridiron_env.core import actions as A
from gridiron_env.core import init, step
from gridiron_env.core.observe import FEATURE_LAYOUT, FEATURES_SIZE
from gridiron_env.core.state import DEFENCE_FORMATION, OFFENCE_FORMATION, PLAY
from train.learners import record_teacher_games
from train.selfplay import TrainConfig, fixed_members, make_teacher

CONFIG = GameConfig(target_score=7, max_steps=300)


def _decisions(agent, opponent, games, seed, config=CONFIG):
    """Play ``agent`` (team 0 in even games, team 1 in odd ones) against ``opponent``; return the phases,
    ball-holder sides and actions of every decision ``agent`` made, checking each is legal."""
    team = np.arange(games) % 2
    seeds = np.arange(seed, seed + games)
    agent.reset(seeds)
    opponent.reset(seeds)
    state = init(games, seed=seed, config=config)
    seen = []
    while not (state.terminated | state.truncated).all():
        live = ~(state.terminated | state.truncated)
        mine = np.flatnonzero(live & (state.to_act == team))
        theirs = np.flatnonzero(live & (state.to_act >= 0) & (state.to_act != team))
        actions = np.zeros(games, dtype=np.int64)
        if mine.size:
            ours = np.asarray(agent.act(state, config, games=mine))[mine]
            assert state.legal[mine, ours].all(), f"{agent.name} chose an illegal action"
            actions[mine] = ours
            holder = state.ball_holder[mine].astype(np.int64)
            holder_team = np.where(holder < 11, state.offence[mine], 1 - state.offence[mine])
            seen.append((state.phase[mine].copy(), (holder >= 0) & (holder_team == state.to_act[mine]), ours))
        if theirs.size:
            actions[theirs] = np.asarray(opponent.act(state, config, games=theirs))[theirs]
        state = step(state, actions, config=config)
    phases, carrying, chosen = (np.concatenate(x) for x in zip(*seen))
    return phases, carrying, chosen, state


def test_a_team_takes_each_role_from_its_own_style():
    # the same games, played by the team and by each pure style: offence formations come from the offence
    # style, defence formations from the defence style (the first snap of every game: same state, no history)
    team = composite("spread_pass", "power_run")
    assert isinstance(team, CompositeAgent) and team.name == "spread_pass+power_run"
    assert team.special == PANEL["spread_pass"].special
    state = init(16, seed=3, config=CONFIG)
    for _ in range(60):  # play on with random legal actions until formations are being chosen
        if (state.phase == OFFENCE_FORMATION).any() and (state.phase == DEFENCE_FORMATION).any():
            break
        rng = np.random.default_rng(int(state.steps.sum()))
        state = step(state, (rng.random(state.legal.shape) * state.legal).argmax(axis=1), config=CONFIG)
    seeds = np.arange(16)
    offence_style, defence_style = PANEL["spread_pass"](), PANEL["power_run"]()
    for agent in (team, offence_style, defence_style):
        agent.reset(seeds)
    picks = {name: np.asarray(a.act(state, CONFIG)) for name, a in
             (("team", team), ("offence", offence_style), ("defence", defence_style))}
    off = np.flatnonzero(state.phase == OFFENCE_FORMATION)
    dfn = np.flatnonzero(state.phase == DEFENCE_FORMATION)
    assert off.size and dfn.size
    np.testing.assert_array_equal(picks["team"][off], picks["offence"][off])
    np.testing.assert_array_equal(picks["team"][dfn], picks["defence"][dfn])


@pytest.mark.parametrize("name", TEAMS)
def test_every_kept_team_plays_legally_and_beats_the_random_agent(name):
    phases, carrying, chosen, state = _decisions(composite_from_name(name), RandomAgent(), 8, 11)
    assert (phases == PLAY).any() and carrying.any() and (~carrying & (phases == PLAY)).any()
    team = np.arange(8) % 2
    assert (state.winner == team).sum() >= 7, "a kept team must beat the random agent"


def test_team_names_are_validated():
    assert composite_from_name("blitz").name == "blitz"
    for bad in ("nope", "spread_pass+", "+power_run", "spread_pass+nope", 3, None):
        with pytest.raises(ValueError):
            composite_from_name(bad)
    with pytest.raises(ValueError, match="defence style"):
        composite("spread_pass", "wall")


def test_the_teacher_setting_is_validated():
    assert make_teacher("heuristic").name == "heuristic"
    assert make_teacher("prevent+blitz").name == "prevent+blitz"
    with pytest.raises(ValueError, match="TrainConfig.teacher"):
        TrainConfig(teacher="prevent+nobody")
    with pytest.raises(ValueError, match="dagger_rounds"):
        TrainConfig(dagger_rounds=-1)
    with pytest.raises(ValueError, match="TrainConfig.teacher_without_specials"):
        TrainConfig(teacher_without_specials="wall", imitation_variant_groups=2)
    with pytest.raises(ValueError, match="teacher_without_specials needs imitation_variant_groups"):
        TrainConfig(teacher_without_specials="ball_control+power_run")  # the job's game alone has the specials
    assert TrainConfig(teacher_without_specials="ball_control+power_run", game={"specials": False})
    with pytest.raises(ValueError, match="TrainConfig.imitation_variant_groups"):
        TrainConfig(imitation_variant_groups=-1)
    assert set(TEAMS) <= set(fixed_members("panel")) and list(fixed_members("heuristic")) == ["heuristic"]


def test_teacher_samples_are_the_teachers_legal_moves_of_one_team():
    teacher = composite("spread_pass", "power_run")
    obs, masks, actions = record_teacher_games(teacher, [HeuristicAgent(), RandomAgent()], 4, 5, CONFIG)
    assert obs.shape == (actions.size, FEATURES_SIZE) and masks.shape == (actions.size, A.NUM_ACTIONS)
    assert actions.size > 100
    assert masks[np.arange(actions.size), actions].all(), "every label is legal where it was recorded"
    to_act = FEATURE_LAYOUT["to_act"][0]
    assert (obs[:, to_act] == 1).all(), "each sample is seen from the side to act"
    again = record_teacher_games(composite("spread_pass", "power_run"), [HeuristicAgent(), RandomAgent()], 4, 5,
                                 CONFIG)
    for a, b in zip((obs, masks, actions), again):
        np.testing.assert_array_equal(a, b)  # deterministic from the seed


def test_dagger_games_follow_the_student_and_keep_the_teachers_labels():
    teacher = HeuristicAgent()
    student = RandomAgent()
    base = record_teacher_games(teacher, [RandomAgent()], 4, 9, CONFIG)
    mixed = record_teacher_games(teacher, [RandomAgent()], 4, 9, CONFIG, student=student, student_share=1.0)
    # the student played every game: the positions differ from the teacher's own games, the labels are the
    # teacher's (legal, and different from what a random student picks at least somewhere)
    assert mixed[2].size and not (mixed[0].shape == base[0].shape and np.array_equal(mixed[0], base[0]))
    assert mixed[1][np.arange(mixed[2].size), mixed[2]].all()
    both = record_teacher_games(teacher, None, 2, 9, CONFIG)
    one = record_teacher_games(teacher, [HeuristicAgent()], 2, 9, CONFIG)
    assert both[2].size > one[2].size, "opponents None records both teams' decisions"


def test_the_warm_start_records_each_rule_variant_it_is_given_its_share_of_the_games():
    """Split over two variants, the warm start fits the teacher's moves of half its games under each (each
    half with the seeds it has in one recording); without variants, every game under the given config."""
    from train.learners import SIDES, drive_env, make_model, warm_start

    cfg = TrainConfig(num_envs=4, n_steps=8, batch_size=32, net_arch=(16,), seed=3)
    models = {side: make_model(drive_env(side, RandomAgent, cfg, [CONFIG], 0), cfg, None) for side in SIDES}
    without = CONFIG.replace(specials=False)
    opponents = [HeuristicAgent()]

    def samples(config, games, seed):
        return record_teacher_games(composite("spread_pass", "power_run"), opponents, games, seed, config)[2].size

    def warm(**variants):
        return warm_start(models, composite("spread_pass", "power_run"), opponents, 4, 0, 1, 1e-3, 11, CONFIG,
                          log=lambda *_: None, **variants)

    split = warm(variants=[CONFIG, without], variant_groups=2)
    assert split["imitation_configs"] == 2
    assert split["imitation_samples"] == samples(CONFIG, 2, 11) + samples(without, 2, 13)
    alone = warm()
    assert alone["imitation_configs"] == 1 and alone["imitation_samples"] == samples(CONFIG, 4, 11)
    assert split["imitation_samples"] != alone["imitation_samples"]


def test_the_warm_start_can_have_another_teacher_in_the_games_without_the_specials():
    """``teacher_for``: each variant's games are taught by its own teacher (here ball control's offence
    without the specials), the samples those teachers' moves in those games; the log names both."""
    from train.learners import SIDES, drive_env, make_model, warm_start

    cfg = TrainConfig(num_envs=4, n_steps=8, batch_size=32, net_arch=(16,), seed=3)
    models = {side: make_model(drive_env(side, RandomAgent, cfg, [CONFIG], 0), cfg, None) for side in SIDES}
    without = CONFIG.replace(specials=False)
    spread, ball_control = composite("spread_pass", "power_run"), composite("ball_control", "power_run")
    opponents = [HeuristicAgent()]

    def recorded(teacher, config, games, seed):
        return record_teacher_games(teacher, opponents, games, seed, config)

    lines = []
    out = warm_start(models, spread, opponents, 4, 0, 1, 1e-3, 11, CONFIG, log=lines.append,
                     variants=[CONFIG, without], variant_groups=2,
                     teacher_for=lambda config: spread if config.specials else ball_control)
    with_specials, without_specials = recorded(spread, CONFIG, 2, 11), recorded(ball_control, without, 2, 13)
    assert out["imitation_samples"] == with_specials[2].size + without_specials[2].size
    assert without_specials[2].size != recorded(spread, without, 2, 13)[2].size or not np.array_equal(
        without_specials[2], recorded(spread, without, 2, 13)[2]), "the two teachers play those games differently"
    assert "spread_pass+power_run and ball_control+power_run" in lines[0]


def _match_actions(agent, opponent, seeds, config=CONFIG):
    """Every action of a batch of games of ``agent`` (team 0) against ``opponent``, per game: a list of
    arrays, one per game, in the order they were taken."""
    seeds = np.asarray(seeds, dtype=np.int64)
    agent.reset(seeds)
    opponent.reset(seeds)
    state = init(seeds=seeds.astype(np.uint64), config=config)
    taken = [[] for _ in seeds]
    while not (state.terminated | state.truncated).all():
        live = ~(state.terminated | state.truncated)
        mine = np.flatnonzero(live & (state.to_act == 0))
        theirs = np.flatnonzero(live & (state.to_act == 1))
        actions = np.zeros(seeds.size, dtype=np.int64)
        if mine.size:
            actions[mine] = np.asarray(agent.act(state, config, games=mine))[mine]
        if theirs.size:
            actions[theirs] = np.asarray(opponent.act(state, config, games=theirs))[theirs]
        for g in np.flatnonzero(live & (state.to_act >= 0)):
            taken[g].append(int(actions[g]))
        state = step(state, actions, config=config)
    return taken


def test_a_mixed_teacher_plays_each_game_as_one_member_chosen_by_the_games_seed():
    from agents.base import MixedTeam

    names = ("spread_pass+power_run", "ball_control+power_run")
    mix = make_teacher(",".join(names))
    assert isinstance(mix, MixedTeam) and mix.name == ",".join(names)
    seeds = np.arange(40, 52)
    games = _match_actions(mix, HeuristicAgent(), seeds)
    member_of = mix.member_of.copy()
    assert set(member_of.tolist()) == {0, 1}, "12 seeds draw both members"
    # each game is its member's own game, move for move, and its member depends on its seed alone (the
    # same seeds in another order and batch size draw the same members)
    for k, name in enumerate(names):
        alone = _match_actions(composite_from_name(name), HeuristicAgent(), seeds[member_of == k])
        assert [games[g] for g in np.flatnonzero(member_of == k)] == alone
    mix.reset(seeds[::-1][:5])
    np.testing.assert_array_equal(mix.member_of, member_of[::-1][:5])
    # as the warm start's teacher: its labels are legal where they were recorded, the same from the seed
    obs, masks, labels = record_teacher_games(mix, [HeuristicAgent()], 4, 5, CONFIG)
    assert labels.size > 100 and masks[np.arange(labels.size), labels].all()
    again = record_teacher_games(make_teacher(",".join(names)), [HeuristicAgent()], 4, 5, CONFIG)
    np.testing.assert_array_equal(labels, again[2])


def test_a_mixed_teachers_members_share_its_games_about_evenly():
    # splitmix64 of the seeds: over 4,000 seeds each of two members takes 50% +- 2.5% (about 3.2 sigma)
    mix = make_teacher("spread_pass+power_run,prevent")
    mix.reset(np.arange(4_000))
    assert abs(mix.member_of.mean() - 0.5) < 0.025
    three = make_teacher("heuristic,blitz,prevent+power_run")
    three.reset(np.arange(6_000))
    assert np.all(np.abs(np.bincount(three.member_of, minlength=3) / 6_000 - 1 / 3) < 0.025)
    # a name given twice plays twice the games: two thirds +- 2.5% (about 3.5 sigma over 6,000)
    weighted = make_teacher("blitz,prevent,blitz")
    weighted.reset(np.arange(6_000))
    plays_blitz = np.isin(weighted.member_of, (0, 2))
    assert abs(plays_blitz.mean() - 2 / 3) < 0.025
    assert [member.name for member in weighted.members] == ["blitz", "prevent", "blitz"]


def test_a_mixed_teacher_is_validated():
    from agents.base import MixedTeam

    for bad in ("power_run,", "power_run,nobody", ",blitz", "power_run,,blitz"):
        with pytest.raises(ValueError, match="TrainConfig.teacher"):
            TrainConfig(teacher=bad)
    with pytest.raises(ValueError, match="TrainConfig.defence_teacher"):
        TrainConfig(defence_teacher="power_run,wall")
    with pytest.raises(ValueError, match="at least two members"):
        MixedTeam([HeuristicAgent()])
    mix = MixedTeam([HeuristicAgent(), RandomAgent()])
    mix.reset(np.arange(2))
    with pytest.raises(ValueError, match="reset for 2 games"):
        mix.act(init(4, seed=0, config=CONFIG), CONFIG)
