"""Training code: a short MaskablePPO run learns, and the training job runs end to end and resumes."""

import dataclasses
import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from conftest import random_bot  # noqa: E402


def _mean_drive_reward(model, episodes=512, seed=999):
    from gridiron_env.envs.vector import GridironOffenceVectorEnv

    env = GridironOffenceVectorEnv(episodes, start=10, config={"specials": False})
    obs, info = env.reset(seed=seed)
    total = np.zeros(episodes)
    done = np.zeros(episodes, dtype=bool)
    for _ in range(400):
        actions, _ = model.predict(obs, action_masks=info["action_mask"].astype(bool), deterministic=False)
        obs, reward, terminated, truncated, info = env.step(actions)
        total += reward * ~done
        done |= terminated | truncated
        if done.all():
            break
    assert done.all()
    return total.mean()


def test_a_short_maskable_ppo_run_beats_its_untrained_start():
    """30k steps of MaskablePPO on the offence drive env (random defence, drives from 7 rows out) raise the
    mean drive reward over 512 fixed-seed drives by more than 0.25 points (measured: 1.94 -> 2.43)."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor

    from gridiron_env.envs.sb3 import SB3VecEnv
    from gridiron_env.envs.vector import GridironOffenceVectorEnv

    torch.set_num_threads(1)
    venv = VecMonitor(SB3VecEnv(GridironOffenceVectorEnv(32, start=10, config={"specials": False})))
    venv.seed(0)
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=512, n_epochs=4, learning_rate=1e-3,
                        gamma=0.98, ent_coef=0.0, seed=0, device="cpu", policy_kwargs=dict(net_arch=[64, 64]))
    before = _mean_drive_reward(model)
    model.learn(40_000)
    after = _mean_drive_reward(model)
    assert after > before + 0.25, (before, after)


def test_training_job_runs_exports_evaluates_and_resumes(tmp_path):
    from agents.bot import Bot
    from train.selfplay import TrainConfig, train

    torch.set_num_threads(1)
    cfg = TrainConfig(out=str(tmp_path / "run"), minutes=0.05, imitation_games=8, imitation_epochs=1,
                      num_envs=8, n_steps=32, batch_size=128, round_steps=256, eval_games=4, league_games=2,
                      opponents="heuristic", env_groups=2, threads=1, level_games=2, progress_bar=False,
                      game={"target_score": 7}, distil_games=8, distil_rounds=1, distil_fit_steps=8, fronts_games=4)
    lines = []
    summary = train(cfg, log=lines.append)
    out = tmp_path / "run"
    # the default defence teaching ran, its time reserved out of the budget at the warm start's pace
    assert cfg.defence_teacher == "power_run" and summary["distil"]["teacher"] == "power_run"
    assert summary["distil"]["situations"] == "held" and summary["distil"]["tackle_weight"] == 8.0
    assert summary["distil"]["fit_steps"] == 8 and len(summary["distil"]["fits"]) == 2
    assert summary["teaching_reserve_seconds"] > 0
    assert summary["imitation_recorded_games"] == 8 * 2 and summary["imitation_sample_passes"] > 0
    assert summary["imitation_recording_seconds"] > 0 and summary["imitation_fits_seconds"] > 0
    assert any(line.startswith("the rounds end") and line.endswith("for the defence's teaching and front search")
               for line in lines), lines
    assert summary["fronts"]["picks"] > 0 and summary["fronts"]["seconds"] > 0
    for name in ("offence.zip", "defence.zip", "bot.npz", "evaluation.md", "train_config.json", "summary.json"):
        assert (out / name).exists(), name
    assert summary["rounds"] >= 1
    assert 0.0 <= summary["imitation_accuracy_offence"] <= 1.0
    Bot.load(out / "bot.npz")
    rows = {row["opponent"]: row for row in summary["evaluation"]["rows"]}
    assert set(rows) == {"random", "heuristic"}
    assert all(r["wins"] + r["losses"] + r["truncated"] == 4 for r in rows.values())
    assert json.loads((out / "train_config.json").read_text())["num_envs"] == 8
    # the league: the heuristic and a snapshot per round, the learner rated against them, TensorBoard scalars
    members = {m["name"]: m for m in summary["league"]["members"]}
    assert "heuristic" in members and members["heuristic"]["games"] == 2 * summary["rounds"]
    # the warm start's teacher, a mix of two teams by default, joins as each of its teams, not as the mix
    assert "," in cfg.teacher and cfg.teacher not in members
    assert all(members[team]["kind"] == "fixed" for team in cfg.teacher.split(","))
    assert sum(m["kind"] == "snapshot" for m in members.values()) == min(summary["rounds"], cfg.pool_size)
    assert "learner-0" in summary["league"]["elo"]
    assert list((out / "tensorboard" / "league").glob("events.out.tfevents.*"))
    # the exported bot carries its own measured levels
    assert Bot.load(out / "bot.npz").levels == pytest.approx(
        dict(zip(("easy", "medium", "hard"), summary["levels"]["temperatures"])), abs=1e-6)
    steps_before = json.loads((out / "summary.json").read_text())["rounds"]
    # a second run in the same folder resumes from the checkpoints (no imitation again), here with another
    # batch shape: the rollout buffer is rebuilt for it
    lines.clear()
    resumed = train(dataclasses.replace(cfg, num_envs=4, n_steps=16, batch_size=64), log=lines.append)
    assert any("resumed the offence" in line for line in lines)
    assert steps_before >= 1 and resumed["rounds"] >= 1


def _random_bot(widths, seed=5):
    return random_bot(widths, seed=seed, weight_std=0.3, bias_std=0.1)


def _same_nets(a, b) -> bool:
    return all(np.array_equal(x, y) for side in ("offence", "defence")
               for layer_a, layer_b in zip(getattr(a, side), getattr(b, side)) for x, y in zip(layer_a, layer_b))


def test_a_run_goes_on_from_a_bot_file_its_first_round_fitting_the_critics_only(tmp_path):
    """init_bot: the pair starts from the file's nets, round 0 leaves the actors exactly as the file has them
    (the critics learn), a rerun with init_bot in that folder is refused, and the resumed run moves the actors."""
    from agents.bot import Bot
    from train.checkpoint import CheckpointError
    from train.selfplay import TrainConfig, train

    torch.set_num_threads(1)
    start = _random_bot((32, 32))
    start.save(tmp_path / "start.npz")
    out = tmp_path / "run"
    cfg = TrainConfig(out=str(out), minutes=0.0, imitation_games=0, num_envs=8, n_steps=16, batch_size=64,
                      round_steps=128, eval_games=0, league_games=2, opponents="heuristic", env_groups=1,
                      threads=1, level_games=0, progress_bar=False, net_arch=(32, 32), variants="default",
                      init_bot=str(tmp_path / "start.npz"), defence_teacher=None, fronts_games=0)
    lines = []
    summary = train(cfg, log=lines.append)
    assert summary["rounds"] == 1 and "imitation_accuracy_offence" not in summary
    assert any(f"the offence starts from {cfg.init_bot}" in line for line in lines)
    assert _same_nets(Bot.load(out / "bot.npz"), start)  # the critic-only round kept the actors
    with pytest.raises(CheckpointError, match="init_bot starts a fresh run"):
        train(cfg, log=lines.append)
    train(dataclasses.replace(cfg, init_bot=None), log=lines.append)  # resumes: now the actors learn
    assert not _same_nets(Bot.load(out / "bot.npz"), start)


def test_the_defence_teacher_teaches_the_exported_defence_and_leaves_the_offence(tmp_path):
    """defence_teacher: after the rounds the defence net is fitted to the teacher's defence (train.distill)
    before the export; the offence is the rounds' own (here the file's: the one round trains critics only)."""
    from agents.bot import Bot
    from train.selfplay import TrainConfig, train

    torch.set_num_threads(1)
    start = _random_bot((32, 32))
    start.save(tmp_path / "start.npz")
    cfg = TrainConfig(out=str(tmp_path / "run"), minutes=0.0, imitation_games=0, num_envs=8, n_steps=16,
                      batch_size=64, round_steps=128, eval_games=0, league_games=2, opponents="heuristic",
                      env_groups=1, threads=1, level_games=0, progress_bar=False, net_arch=(32, 32),
                      variants="default", init_bot=str(tmp_path / "start.npz"), defence_teacher="power_run",
                      distil_games=8, distil_rounds=1, distil_fit_steps=40, imitation_epochs=4, game={"target_score": 7},
                      distil_situations="all", fronts_games=0)
    lines = []
    summary = train(cfg, log=lines.append)
    exported = Bot.load(tmp_path / "run" / "bot.npz")
    assert all(np.array_equal(w, w0) for (w, _), (w0, _) in zip(exported.offence, start.offence))
    assert not np.array_equal(exported.defence[0][0], start.defence[0][0])
    taught = summary["distil"]
    assert taught["teacher"] == "power_run" and len(taught["fits"]) == 2
    assert taught["agreement_after"] > taught["agreement_before"], taught
    assert any(line.startswith("the defence taught by power_run") for line in lines)
    with pytest.raises(ValueError, match="TrainConfig.defence_teacher must be"):
        TrainConfig(defence_teacher="chess")
    with pytest.raises(ValueError, match="TrainConfig.distil_games"):
        TrainConfig(distil_games=1)
    with pytest.raises(ValueError, match="TrainConfig.distil_fit_steps"):
        TrainConfig(distil_fit_steps=0)


def test_a_number_of_rounds_runs_exactly_that_many_and_the_same_seed_gives_the_same_bot(tmp_path):
    """rounds: the job runs that many league rounds whatever the budget (here none: minutes 0 alone gives
    one), takes no teaching reserve, and two runs with one seed export the same nets bit for bit (the
    warm start, the rounds, the defence's teaching and the levels included); another seed other nets."""
    from agents.bot import Bot
    from train.selfplay import TrainConfig, train

    torch.set_num_threads(1)
    cfg = TrainConfig(minutes=0.0, rounds=2, imitation_games=4, imitation_epochs=1, num_envs=8, n_steps=16,
                      batch_size=64, round_steps=128, eval_games=0, league_games=2, opponents="heuristic",
                      env_groups=1, threads=1, level_games=2, progress_bar=False, net_arch=(32, 32),
                      variants="default", game={"target_score": 7}, distil_games=4, distil_rounds=1, distil_fit_steps=8, seed=3,
                      fronts_games=4)
    bots = {}
    for name, seed in (("first", 3), ("again", 3), ("other", 4)):
        lines = []
        summary = train(dataclasses.replace(cfg, out=str(tmp_path / name), seed=seed), log=lines.append)
        assert summary["rounds"] == 2 and "teaching_reserve_seconds" not in summary
        assert summary["distil"]["teacher"] == "power_run" and summary["fronts"]["picks"] > 0
        assert any("(2 round(s) asked): 2 league round(s)" in line for line in lines), lines
        assert any(line.startswith("the defence's fronts taught by search") for line in lines), lines
        bots[name] = Bot.load(tmp_path / name / "bot.npz")
    assert _same_nets(bots["first"], bots["again"]) and bots["first"].levels == bots["again"].levels
    assert not _same_nets(bots["first"], bots["other"])
    # resumed with rounds: that many more
    more = train(dataclasses.replace(cfg, out=str(tmp_path / "first"), rounds=1), log=lambda line: None)
    assert more["rounds"] == 1 and more["total_rounds"] == 3


def test_another_round_follows_the_asked_rounds_or_else_the_clock():
    from train.selfplay import _another_round

    assert _another_round(0, now=100.0, deadline=0.0, round_seconds=0.0)  # always a first round
    assert not _another_round(1, now=100.0, deadline=0.0, round_seconds=10.0)
    assert _another_round(1, now=100.0, deadline=106.0, round_seconds=10.0)  # ends 4 s past: nearer than 6 s short
    assert not _another_round(1, now=100.0, deadline=104.0, round_seconds=10.0)
    # asked rounds: the clock says nothing
    assert _another_round(4, now=100.0, deadline=0.0, round_seconds=10.0, asked=5)
    assert not _another_round(5, now=0.0, deadline=1e9, round_seconds=10.0, asked=5)


def test_the_teaching_reserve_is_the_teachings_games_and_minibatches_at_the_warm_starts_paces():
    from train.distill import DistillConfig
    from train.learners import FIT_BATCH
    from train.selfplay import (FRONTS_GAME_COST, TEACHING_BATCH_COST, TEACHING_GAME_COST, TrainConfig,
                                defence_distil_config, teaching_reserve)

    cfg = TrainConfig(distil_games=512, distil_rounds=2, distil_fit_steps=300, fronts_games=0)
    taught = defence_distil_config(cfg)
    assert (taught.teacher, taught.side, taught.games, taught.dagger_rounds) == ("power_run", "defence", 512, 2)
    assert taught.fit_steps == 300
    assert taught.games_recorded == 64 + 512 * 3  # the held-out games, then one batch per fit
    assert DistillConfig(games=16, dagger_rounds=0).games_recorded == 8 + 16
    # the warm start: 1,000 games recorded in 100 s (0.1 s a game), 500 minibatches fitted in 50 s (0.1 s each)
    warm = {"imitation_recorded_games": 1000, "imitation_recording_seconds": 100.0,
            "imitation_fits_seconds": 50.0, "imitation_sample_passes": 500 * FIT_BATCH}
    games = TEACHING_GAME_COST * 0.1 * (64 + 512 * 3)
    fits = 0.1 * 300 * 3  # three fits of 300 minibatches
    assert teaching_reserve(cfg, warm) == pytest.approx(games + fits)
    # the fits' share grows with their minibatches, not with the samples the DAgger rounds gather
    assert teaching_reserve(dataclasses.replace(cfg, distil_fit_steps=600), warm) == pytest.approx(games + 2 * fits)
    # one variant per recording by default: no extra batch; split over two or three variants each, a
    # batch's fixed cost (TEACHING_BATCH_COST small batches) for each extra one
    assert taught.batches_recorded(16) == 4 and taught.variants == "all"
    assert teaching_reserve(cfg, warm, 5.0) == pytest.approx(games + fits)
    split = dataclasses.replace(cfg, distil_variant_groups=2)
    assert defence_distil_config(split).batches_recorded(16) == 2 * 4
    assert teaching_reserve(split, warm, 5.0) == pytest.approx(games + fits + 4 * 5.0 * TEACHING_BATCH_COST)
    assert teaching_reserve(dataclasses.replace(split, variants="default"), warm, 5.0) == pytest.approx(games + fits)
    assert teaching_reserve(dataclasses.replace(cfg, distil_variant_groups=3), warm, 5.0) == pytest.approx(
        games + fits + 8 * 5.0 * TEACHING_BATCH_COST)
    # the warm start split over two variants (one DAgger round: two recordings, two extra batches): its
    # recording pace without those batches' fixed cost, at most half its time taken out
    warm_split = dataclasses.replace(cfg, imitation_variant_groups=2, dagger_rounds=1)
    assert teaching_reserve(warm_split, warm, 5.0) == pytest.approx(
        TEACHING_GAME_COST * (100.0 - 2 * 5.0 * TEACHING_BATCH_COST) / 1000 * (64 + 512 * 3) + fits)
    assert teaching_reserve(warm_split, warm, 50.0) == pytest.approx(
        TEACHING_GAME_COST * 50.0 / 1000 * (64 + 512 * 3) + fits)
    assert teaching_reserve(dataclasses.replace(warm_split, variants="default"), warm, 5.0) == pytest.approx(
        games + fits)
    assert teaching_reserve(cfg, {}) == 0.0  # no warm start: no pace to go by
    assert teaching_reserve(cfg, {**warm, "imitation_recorded_games": 0}) == 0.0
    assert teaching_reserve(dataclasses.replace(cfg, defence_teacher=None), warm) == 0.0
    # the front search: its games at FRONTS_GAME_COST of the warm start's pace each, with or without the teaching
    fronts = FRONTS_GAME_COST * 0.1 * 1024
    assert teaching_reserve(dataclasses.replace(cfg, fronts_games=1024), warm) == pytest.approx(games + fits + fronts)
    assert teaching_reserve(dataclasses.replace(cfg, fronts_games=1024, defence_teacher=None), warm) == pytest.approx(
        fronts)
    assert teaching_reserve(dataclasses.replace(cfg, fronts_games=1024), {}) == 0.0


def test_the_main_job_refuses_an_unfit_or_corrupt_init_bot_in_one_line(tmp_path, capsys):
    from train.selfplay import TrainConfig, main

    _random_bot((16,)).save(tmp_path / "narrow.npz")  # one hidden layer of 16; the run's net is 256 x 256
    (tmp_path / "junk.npz").write_bytes(b"PK\x03\x04 not a bot")
    small = ["--minutes", "0", "--num-envs", "4", "--imitation-games", "0", "--eval-games", "0", "--threads", "1"]
    for name, reason in (("narrow.npz", "does not fit the run's (net_arch [256, 256])"), ("junk.npz", "junk.npz"),
                         ("absent.npz", "absent.npz")):
        out = tmp_path / f"run-{name}"
        with pytest.raises(SystemExit) as info:
            main(["--out", str(out), "--init-bot", str(tmp_path / name), *small])
        assert info.value.code == 1
        err = capsys.readouterr().err
        assert err.startswith("train.selfplay: bot file refused:") and reason in err, err
        assert err.count("\n") == 1 and "Traceback" not in err
        assert not out.exists()  # refused before anything is written
    with pytest.raises(ValueError, match="TrainConfig.init_bot"):
        TrainConfig(init_bot="")


def test_each_side_learns_its_own_steps_in_a_round():
    """round_steps are the offence's steps in a round, defence_share of them the defence's."""
    from gridiron_env.config import GameConfig
    from agents.heuristic import HeuristicAgent
    from train.learners import SIDES, learn_round, make_model, round_env, side_round_steps
    from train.league import League, LeagueOpponent
    from train.selfplay import TrainConfig

    torch.set_num_threads(1)
    config = GameConfig(specials=False)
    league = League({"heuristic": HeuristicAgent()}, pool_size=1)
    seats = {side: (lambda: LeagueOpponent(league)) for side in SIDES}
    for share, expected, learned in ((1.0, 256, 256), (0.5, 128, 128), (2.0, 512, 512), (0.25, 64, 128)):
        cfg = TrainConfig(num_envs=8, n_steps=16, batch_size=64, round_steps=256, defence_share=share,
                          net_arch=(16,), imitation_games=0, progress_bar=False)
        assert (side_round_steps(cfg, "offence"), side_round_steps(cfg, "defence")) == (256, expected)
        models = {}
        for side in SIDES:
            env = round_env(side, seats, cfg, [config], 0)
            models[side] = make_model(env, cfg, None)
            env.close()
        learn_round(models, seats, cfg, [config], 0)
        # SB3 learns whole rollouts (n_steps x num_envs = 128 steps each)
        assert models["offence"].num_timesteps == 256
        assert models["defence"].num_timesteps == learned


def test_snapshots_in_the_opponent_pool_sample_their_actions():
    """A frozen snapshot samples like the learner (temperature 1): a deterministic one would hand the ball
    back and forth for free forever once it chose a same-row handoff."""
    from gridiron_env.core import init
    from gridiron_env.core.observe import observe
    from sb3_contrib import MaskablePPO

    from gridiron_env.envs.single import GridironOffenceEnv
    from train.selfplay import snapshot_agent

    model = MaskablePPO("MlpPolicy", GridironOffenceEnv(), seed=0, device="cpu", policy_kwargs=dict(net_arch=[16]))
    agent = snapshot_agent(model.policy, "s")
    assert agent.temperature == 1.0
    state = init(256, seed=5)
    agent.reset(np.arange(256))
    sampled = agent.act(state)
    best = agent.bot.act(observe(state), state.legal, 0.0)
    assert np.all(state.legal[np.arange(256), sampled])
    # an untrained net is near uniform over the opening choices: sampling mostly differs from the best one
    assert (sampled != best).mean() > 0.3


def test_train_config_rejects_bad_values():
    from train.selfplay import TrainConfig

    with pytest.raises(ValueError, match="num_envs"):
        TrainConfig(num_envs=0)
    with pytest.raises(ValueError, match="snapshot_share"):
        TrainConfig(snapshot_share=1.5)
    with pytest.raises(ValueError, match="league_games"):
        TrainConfig(league_games=3)
    with pytest.raises(ValueError, match="opponents"):
        TrainConfig(opponents="everyone")
    with pytest.raises(ValueError, match="variants"):
        TrainConfig(variants="some")
    with pytest.raises(ValueError, match="eval_games"):
        TrainConfig(eval_games=5)
    with pytest.raises(ValueError, match="target_score"):
        TrainConfig(game={"target_score": 0})
    for steps in (0, -0.5, 17.0, float("nan"), "many"):
        with pytest.raises(ValueError, match="defence_share"):
            TrainConfig(defence_share=steps)
    for rounds in (-1, 2.5, "ten"):
        with pytest.raises(ValueError, match="TrainConfig.rounds"):
            TrainConfig(rounds=rounds)
    for games in (3, -2, 2.0):
        with pytest.raises(ValueError, match="TrainConfig.fronts_games"):
            TrainConfig(fronts_games=games)
    for candidates in (0, 9, True, 2.0):
        with pytest.raises(ValueError, match=r"TrainConfig.fronts_candidates must be an int in \[1, 8\]"):
            TrainConfig(fronts_candidates=candidates)


def test_evaluate_command_measures_the_default_level_and_every_level(capsys):
    from agents.bot import DEFAULT_LEVEL, Bot
    from agents.play import SHIPPED_BOT
    from train.evaluate import main

    own = Bot.load(SHIPPED_BOT).levels  # the file's own levels (the defaults for a file without any)
    baseline = main([str(SHIPPED_BOT), "--games", "4", "--seed", "3", "--opponents", "heuristic"])
    assert [row["opponent"] for row in baseline["rows"]] == ["random", "heuristic"]
    assert all(row["temperature"] == own[DEFAULT_LEVEL] for row in baseline["rows"])
    assert all(row["wins"] + row["losses"] + row["truncated"] == 4 for row in baseline["rows"])
    levels = main([str(SHIPPED_BOT), "--games", "4", "--seed", "3", "--levels", "--opponents", "heuristic"])
    assert [(row["level"], row["temperature"]) for row in levels["rows"]] == list(own.items())
    printed = capsys.readouterr().out
    assert "| level | temperature |" in printed and f"| heuristic | {own[DEFAULT_LEVEL]:g} | 4 |" in printed
    for games in ("0", "3"):
        with pytest.raises(SystemExit):
            main([str(SHIPPED_BOT), "--games", games])


def test_every_main_job_option_reaches_its_config_field(monkeypatch):
    """Each ``--some-option`` of ``python -m train.selfplay`` sets TrainConfig's ``some_option``: an option
    parsed and then dropped would leave the job on its default without a word."""
    import train.selfplay as selfplay

    parser = selfplay.build_parser()
    names = [action.dest for action in parser._actions if action.dest not in ("help", "game")]
    seen = {}
    monkeypatch.setattr(selfplay, "train", lambda cfg: seen.setdefault("cfg", cfg))
    argv, expected = [], {}
    defaults = selfplay.TrainConfig()
    for name in names:
        value = getattr(defaults, name)
        flag = "--" + name.replace("_", "-")
        if name in ("opponents", "variants"):
            changed = next(c for c in (selfplay.OPPONENT_SETS if name == "opponents" else selfplay.VARIANT_SETS)
                           if c != value)
        elif name == "teacher":
            changed = "heuristic,prevent+power_run"  # a mixed teacher: each game one of them
        elif name == "teacher_without_specials":  # valid with --imitation-variant-groups set too (below: 2)
            changed = "ball_control+power_run"
        elif name == "distil_situations":
            changed = "all" if value != "all" else "runs"
        elif name == "defence_teacher":
            changed = "blitz" if value != "blitz" else "prevent"
        elif name in ("out", "init_bot"):
            changed = f"/tmp/{name}-elsewhere"
        elif name == "teams":
            changed = ("blitz+prevent", "power_run+spread_pass")
        elif isinstance(value, float):
            changed = value / 2 if 0 < value <= 1 else value + 1.5
        else:
            changed = value + 2
        argv += [flag, *changed] if isinstance(changed, tuple) else [flag, str(changed)]
        expected[name] = changed
    selfplay.main(argv)
    for name, changed in expected.items():
        assert getattr(seen["cfg"], name) == changed, name


def test_the_teams_join_the_league_and_a_bad_team_is_refused_naming_the_field():
    import train.selfplay as selfplay

    members = selfplay.fixed_members("panel", ("blitz+prevent", "ball_control+power_run"))
    assert {"blitz+prevent", "ball_control+power_run"} <= set(members)
    assert members["blitz+prevent"].name == "blitz+prevent"
    assert not any("+" in name for name in selfplay.fixed_members("panel", ()))
    assert set(selfplay.fixed_members("heuristic", ("blitz+prevent",))) == {"heuristic"}
    assert selfplay.TrainConfig(teams=()).teams == ()
    for bad in (("blitz",), ("blitz+blitz",), ("blitz+nobody",), ("blitz+prevent", "blitz+prevent"),
                ["blitz+prevent"], (3,)):
        with pytest.raises(ValueError, match="TrainConfig.teams"):
            selfplay.TrainConfig(teams=bad)


def test_the_teams_flag_alone_means_no_teams(monkeypatch):
    import train.selfplay as selfplay

    seen = {}
    monkeypatch.setattr(selfplay, "train", lambda cfg: seen.setdefault("cfg", cfg))
    selfplay.main(["--teams"])
    assert seen["cfg"].teams == ()
    with pytest.raises(SystemExit):
        selfplay.main(["--teams", "blitz+nobody"])


def test_the_defence_teacher_none_skips_the_teaching(monkeypatch):
    import train.selfplay as selfplay

    seen = []
    monkeypatch.setattr(selfplay, "train", seen.append)
    selfplay.main([])
    selfplay.main(["--defence-teacher", "none"])
    assert [cfg.defence_teacher for cfg in seen] == ["power_run", None]
    with pytest.raises(SystemExit):
        selfplay.main(["--defence-teacher", "nobody"])
