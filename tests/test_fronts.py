"""train.fronts: the defence's formation picks taught by search (every front tried on copies of the game with
common random numbers, a table of paired differences, a fit); train.league.pfsp_weight; the command line."""

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from agents.bot import Bot  # noqa: E402
from conftest import random_bot  # noqa: E402
from gridiron_env import GameConfig  # noqa: E402
from gridiron_env.core import actions as A  # noqa: E402
from gridiron_env.core.state import DEFENCE_FORMATION, State  # noqa: E402
from train.fronts import (  # noqa: E402
    FRONTS, ILLEGAL, MIN_GROUP, FrontsConfig, Picks, front_candidates, front_table, front_values, main,
    pick_groups, play_and_keep, teach_fronts,
)
from train.league import League, pfsp_weight  # noqa: E402


def _opponents():
    from train.selfplay import fixed_members

    return list(fixed_members("panel").values())


def _picks(bot, games=8, seed=3, search_share=1.0, anchor_share=0.2, config=GameConfig()):
    return play_and_keep(bot, 0.3, _opponents(), config, games, seed, search_share, anchor_share,
                         np.random.default_rng(0))


def test_the_games_keep_the_defences_formation_picks_and_the_bots_score_against_each_opponent():
    bot = random_bot((16,), seed=2)
    picks = _picks(bot)
    assert picks.games.batch_size > 0 and len(picks.own) == picks.games.batch_size == len(picks.opponent)
    # each kept game stands at the bot's defence formation pick, the bot's team to act on defence
    assert (picks.games.phase == DEFENCE_FORMATION).all()
    assert (picks.games.to_act != picks.games.offence).all()
    assert (picks.games.legal[np.arange(len(picks.own)), picks.own]).all()
    assert ((picks.own >= A.DEFENCE_FORMATION_BASE) & (picks.own < A.DEFENCE_FORMATION_BASE + FRONTS)).all()
    # the seeds are the games' (3 on), the opponents met in turn, a pair of games each
    assert set(picks.seed) <= set(range(3, 11)) and set(picks.opponent) <= {0, 1, 2, 3}
    assert picks.played.tolist() == [2, 2, 2, 2, 0, 0, 0] and 0 <= picks.score.sum() <= 8
    observations, masks, moves = picks.anchor
    assert len(observations) == len(masks) == len(moves) > 0 and masks[np.arange(len(moves)), moves].all()
    # none searched: no pick, the anchor still kept
    none = _picks(bot, search_share=0.0)
    assert none.games.batch_size == 0 and len(none.own) == 0 and len(none.anchor[2]) > 0


def test_every_front_is_played_out_on_copies_that_share_the_games_dice_and_streams():
    bot = random_bot((16,), seed=2)
    picks = _picks(bot, games=4)
    values = front_values(bot, 0.3, _opponents, GameConfig(), picks, horizon=1)
    assert values.shape == (picks.games.batch_size, FRONTS)
    legal = picks.games.legal[:, A.DEFENCE_FORMATION_BASE:A.DEFENCE_FORMATION_BASE + FRONTS]
    assert np.array_equal(np.isfinite(values), legal) and (values[~legal] == ILLEGAL).all()
    assert np.array_equal(values[legal], np.round(values[legal]))  # points
    # the same pick twice in one batch, or alone: the same values (each copy replays its own game's streams)
    twice = Picks(State.concatenate([picks.games.take([0]), picks.games.take([0]), picks.games.take([1])]),
                  picks.opponent[[0, 0, 1]], picks.seed[[0, 0, 1]], picks.own[[0, 0, 1]], picks.anchor,
                  picks.score, picks.played)
    again = front_values(bot, 0.3, _opponents, GameConfig(), twice, horizon=1)
    assert np.array_equal(again[0], again[1]) and np.array_equal(again[0], values[0])
    assert np.array_equal(again[2], values[1])
    # a longer horizon plays on past the drive: not the same points everywhere
    longer = front_values(bot, 0.3, _opponents, GameConfig(), picks, horizon=3)
    assert not np.array_equal(longer[legal], values[legal])
    # some fronts searched: those of them legal played out, to the same points as with every front
    searched = np.zeros_like(legal)
    searched[:, [0, 4, 7]] = True
    searched[np.arange(len(picks.own)), picks.own - A.DEFENCE_FORMATION_BASE] = True
    some = front_values(bot, 0.3, _opponents, GameConfig(), picks, horizon=1, searched=searched)
    assert np.array_equal(np.isfinite(some), searched & legal)
    assert np.array_equal(some[searched & legal], values[searched & legal])


def _table_case(picks=200, better=5, gap=-1.0, noise=1.0, own=2):
    """Points conceded: ``own`` 0, every other front 2, but ``better`` ``gap`` +- ``noise`` (in turn): a mean
    gap of ``gap`` with a standard error of ``noise / sqrt(picks)``."""
    values = np.full((picks, FRONTS), 2.0)
    values[:, own] = 0.0
    values[:, better] = gap + noise * np.where(np.arange(picks) % 2, 1.0, -1.0)
    return np.zeros(picks, np.int64), values, np.full(picks, own), np.ones(picks)


def test_the_table_teaches_a_front_only_where_it_beats_the_nets_own_by_z_standard_errors():
    groups, values, own, weights = _table_case()
    assert (front_table(groups, values, own, weights, z=2.0) == 5).all()
    # no better front: the own one stays
    groups, values, own, weights = _table_case(gap=0.0)
    assert (front_table(groups, values, own, weights, z=2.0) == 2).all()
    # a small gain in much noise is not enough
    groups, values, own, weights = _table_case(gap=-0.1, noise=3.0)
    assert (front_table(groups, values, own, weights, z=2.0) == 2).all()
    # too few picks in the group
    groups, values, own, weights = _table_case(picks=MIN_GROUP - 1)
    assert (front_table(groups, values, own, weights, z=2.0) == 2).all()
    # each group's row: the best front, its mean gap and standard error
    rows = []
    front_table(*_table_case(gap=-0.1, noise=3.0), z=2.0, rows=rows)
    assert len(rows) == 1 and rows[0][:4] == (0, 2, 200, 5)
    assert rows[0][4] == pytest.approx(-0.1) and rows[0][5] == pytest.approx(3.0 / np.sqrt(200))
    # an illegal front is never taught, however good its (unused) value
    groups, values, own, weights = _table_case()
    values[:, 5] = ILLEGAL
    values[:, 7] = -0.5
    assert (front_table(groups, values, own, weights, z=2.0) == 7).all()


def test_the_table_decides_each_group_and_each_own_front_apart_and_follows_the_weights():
    g0, v0, o0, w0 = _table_case(better=5, own=2)
    g1, v1, o1, w1 = _table_case(better=1, own=2)
    g2, v2, o2, w2 = _table_case(gap=0.0, own=4)
    taught = front_table(np.concatenate([g0, g1 + 1, g2]), np.concatenate([v0, v1, v2]),
                         np.concatenate([o0, o1, o2]), np.ones(600), z=2.0)
    assert (taught[:200] == 5).all() and (taught[200:400] == 1).all() and (taught[400:] == 4).all()
    # one group, two kinds of opponent: front 5 is better against the first, front 1 against the second;
    # the weights say which counts
    _, va, own, _ = _table_case(better=5)
    _, vb, _, _ = _table_case(better=1)
    values, groups = np.concatenate([va, vb]), np.zeros(400, np.int64)
    heavy_first = np.r_[np.full(200, 1.0), np.full(200, 0.05)]
    assert (front_table(groups, values, np.full(400, 2), heavy_first, z=2.0) == 5).all()
    assert (front_table(groups, values, np.full(400, 2), heavy_first[::-1], z=2.0) == 1).all()


def test_the_scouts_nominate_the_own_front_and_the_candidates_nearest_below_it():
    # points against the own front (2): front 5 one less, front 1 half a point less, front 7 a quarter
    # more, the rest two more; front 6 never legal
    groups, values, own, weights = _table_case(better=5)
    values[:, 1], values[:, 7], values[:, 6] = -0.5, 0.25, ILLEGAL
    for candidates, chosen in ((1, {2, 5}), (2, {1, 2, 5}), (3, {1, 2, 5, 7}), (8, set(range(FRONTS)) - {6})):
        nominated = front_candidates(groups, values, own, weights, candidates)
        assert list(nominated) == [(0, 2)] and set(np.flatnonzero(nominated[0, 2])) == chosen
    # the weights rank them: front 1 better against the heavy opponent, front 5 against the light one
    _, va, _, _ = _table_case(better=5)
    _, vb, _, _ = _table_case(better=1)
    heavy = np.r_[np.full(200, 0.05), np.full(200, 1.0)]
    nominated = front_candidates(np.zeros(400, np.int64), np.concatenate([va, vb]), np.full(400, 2), heavy, 1)
    assert set(np.flatnonzero(nominated[0, 2])) == {1, 2}
    # each (group, own front) apart; too few scouts: no nomination (every front searched there)
    g1, v1, o1, w1 = _table_case(better=3, own=4)
    nominated = front_candidates(np.r_[groups, g1 + 1, np.full(MIN_GROUP - 1, 2)],
                                 np.concatenate([values, v1, values[:MIN_GROUP - 1]]),
                                 np.r_[own, o1, own[:MIN_GROUP - 1]], np.ones(400 + MIN_GROUP - 1), 1)
    assert set(nominated) == {(0, 2), (1, 4)} and set(np.flatnonzero(nominated[1, 4])) == {3, 4}


def test_the_groups_are_the_offence_formation_and_the_goal_line_near():
    picks = _picks(random_bot((16,), seed=2))
    groups = pick_groups(picks.games)
    assert np.array_equal(groups // 2, picks.games.formation[:, 0])
    assert set(np.unique(groups % 2)) <= {0, 1}


def test_pfsp_weight_favours_the_opponents_the_learner_loses_to_and_the_league_uses_it():
    assert pfsp_weight(1.0) == pytest.approx(0.05) and pfsp_weight(0.0) == pytest.approx(1.05)
    assert np.all(np.diff(pfsp_weight(np.linspace(0, 1, 5))) < 0)
    league = League({"a": object(), "b": object()})
    league.members[0].win_rate, league.members[1].win_rate = 0.9, 0.3
    p = league.probabilities()
    assert p == pytest.approx(pfsp_weight([0.9, 0.3]) / pfsp_weight([0.9, 0.3]).sum())


def _small(**changes):
    settings = dict(games=8, horizon=1, fit_steps=5, threads=1, variants="default", variant_groups=1,
                    temperature=0.3)
    settings.update(changes)
    return FrontsConfig(**settings)


def test_teaching_fronts_fits_the_defence_to_the_table_and_keeps_the_offence_to_the_bit():
    bot = random_bot((16,), seed=2)
    taught, summary = teach_fronts(bot, _small(z=0.0, min_group=1, fit_steps=60, lr=1e-2), log=lambda *_: None)
    assert all(np.array_equal(w, w0) for (w, _), (w0, _) in zip(taught.offence, bot.offence))
    assert summary["picks"] > 0 and 0 < summary["changed"] < 1 and set(summary["win_rates"]) >= {"heuristic"}
    assert any(not np.array_equal(w, w0) for (w, _), (w0, _) in zip(taught.defence, bot.defence))
    assert summary["agreement_after"] > summary["agreement_before"]
    assert sum(c["picks"] for c in summary["changes"]) == round(summary["changed"] * summary["picks"])
    # no pick searched: nothing to teach
    none, summary = teach_fronts(bot, _small(search_share=0.0), log=lambda *_: None)
    assert summary["picks"] == 0 and summary["changed"] == 0 and summary["table"] == []
    assert all(np.array_equal(w, w0) for (w, _), (w0, _) in zip(none.defence, bot.defence))
    # a z no gap can pass: nothing taught, the defence to the bit
    kept, summary = teach_fronts(bot, _small(z=100.0), log=lambda *_: None)
    assert summary["changed"] == 0 and summary["changes"] == []
    assert all(np.array_equal(w, w0) for (w, _), (w0, _) in zip(kept.defence, bot.defence))


def test_scouts_nominate_the_fronts_the_other_picks_search_and_the_table_decides_on_those():
    bot = random_bot((16,), seed=2)
    searched = dict(games=32, z=0.0, min_group=2, fit_steps=60, lr=1e-2)
    _, every = teach_fronts(bot, _small(**searched, candidates=FRONTS - 1), log=lambda *_: None)
    _, summary = teach_fronts(bot, _small(**searched, candidates=1, scout_share=0.5), log=lambda *_: None)
    assert every["scouts"] == 0 and summary["picks"] == every["picks"]  # the same games, the same picks
    assert 0 < summary["scouts"] < summary["picks"]
    # a scout plays out every legal front, another pick (of a nominated group) two
    assert summary["fronts_played_out"] < every["fronts_played_out"]
    assert 0 < summary["changed"] < 1 and summary["changes"]
    assert sum(row["picks"] for row in summary["table"]) <= summary["picks"]


@pytest.mark.parametrize("field, value", [
    ("games", 3), ("games", 0), ("search_share", 1.5), ("anchor_share", -0.1), ("horizon", 0), ("horizon", 5),
    ("horizon", True), ("horizon", 2.0), ("z", -1.0), ("fit_steps", -1), ("lr", 0.0), ("seed", -1), ("threads", 0),
    ("variants", "some"), ("variant_groups", 0), ("temperature", -0.5), ("min_group", 0), ("candidates", 0),
    ("candidates", FRONTS), ("candidates", True), ("candidates", 2.0), ("scout_share", 1.5), ("opponents", "chess"),
    ("teams", ("power_run+power_run",)), ("teams", "spread_pass+blitz"),
])
def test_a_bad_setting_raises_naming_its_field(field, value):
    with pytest.raises(ValueError, match=f"FrontsConfig.{field}"):
        FrontsConfig(**{field: value})


def test_the_command_writes_the_taught_bot_and_refuses_bad_input_in_one_line(tmp_path, capsys):
    path = tmp_path / "random.npz"
    random_bot((16,), seed=6).save(path)
    out = tmp_path / "taught" / "bot.npz"
    summary = main([str(path), "--out", str(out), "--games", "4", "--horizon", "1", "--fit-steps", "2",
                    "--level-games", "0", "--threads", "1", "--variants", "default", "--variant-groups", "1"])
    taught = Bot.load(out)
    assert summary["picks"] > 0
    assert all(np.array_equal(w, w0) for (w, _), (w0, _) in zip(taught.offence, Bot.load(path).offence))
    assert f"written {out}" in capsys.readouterr().out
    assert json.loads(out.with_suffix(".json").read_text())["picks"] == summary["picks"]

    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a bot")
    with pytest.raises(SystemExit) as stop:
        main([str(bad), "--out", str(tmp_path / "never.npz")])
    err = capsys.readouterr().err.strip().splitlines()
    assert stop.value.code == 1 and len(err) == 1 and err[0].startswith("python -m train.fronts: bot file refused:")
    assert not (tmp_path / "never.npz").exists()
    for argv, words in (([str(path), "--out", str(tmp_path / "x.npz"), "--horizon", "9"], "FrontsConfig.horizon"),
                        ([str(path), "--out", str(tmp_path / "x.txt")], "--out must name a .npz file"),
                        ([str(path), "--out", str(tmp_path / "x.npz"), "--games", "3"], "FrontsConfig.games"),
                        ([str(path), "--out", str(tmp_path / "x.npz"), "--level-games", "3"], "level_games")):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 2 and words in capsys.readouterr().err
