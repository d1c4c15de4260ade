"""Touchdown's bot training (``train.touchdown_imitation``, ``python -m train.touchdown train``): the
imitation learns, the run writes a game bot the agent specs play, settings are validated."""

import json

import numpy as np
import pytest

from gridiron_env.adapters.agents import make_agent
from gridiron_env.touchdown import actions as A
from gridiron_env.touchdown.agents import HeuristicAgent, RandomAgent, play_games
from gridiron_env.touchdown.config import TouchdownConfig
from gridiron_env.touchdown.diagram import scenario
from gridiron_env.touchdown.engine import init, step
from gridiron_env.touchdown.state import OFFENCE_CALL, PLAY
from train import touchdown as td_cli
from train.touchdown_imitation import (
    Coach, ImitationConfig, Passer, _bot, _clear_lines, agreement, fit, make_net, record, train,
)

# a short game: one quarter of four scrimmages, plays of at most 10 rounds (whole games in a second or two)
SHORT = TouchdownConfig(quarters=1, scrimmages_per_quarter=4, max_rounds=10)


def _chance(samples) -> float:
    """The expected agreement of a uniformly random legal choice with the labels."""
    return float((1.0 / samples[1].sum(axis=1)).mean())


def test_record_labels_are_the_teachers_legal_moves():
    obs, masks, labels = record(HeuristicAgent(), 2, seed=3, keep_play=0.2, config=SHORT)
    assert obs.shape == (len(labels), 297) and masks.shape == (len(labels), A.NUM_ACTIONS)
    assert masks[np.arange(len(labels)), labels].all()  # every label legal where it was taken
    assert np.isfinite(obs).all()
    # calls are all kept, so both offence formations / kicks and the play's steps appear
    assert (labels >= A.OFFENCE_BASE).any() and (labels < A.N_STEPS).any()


def test_record_is_deterministic_and_keeps_the_share_asked():
    a = record(HeuristicAgent(), 2, seed=5, keep_play=0.1, config=SHORT)
    b = record(HeuristicAgent(), 2, seed=5, keep_play=0.1, config=SHORT)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    full = record(HeuristicAgent(), 2, seed=5, keep_play=1.0, config=SHORT)
    assert len(full[2]) > 3 * len(a[2])


@pytest.mark.slow  # about 30 s on a loaded machine
def test_imitation_agreement_rises_above_chance_and_the_untrained_net():
    """Fitted to the heuristic's moves of 8 short games, the net agrees with the heuristic on 2 other games'
    states far more often than the untrained net and than a random legal choice."""
    train_samples = record(HeuristicAgent(), 8, seed=11, keep_play=0.5, config=SHORT)
    held_out = record(HeuristicAgent(), 2, seed=1_000, keep_play=0.5, config=SHORT)
    net = make_net(64, 2, seed=0)
    before = agreement(_bot(net), held_out)
    fit(net, train_samples, epochs=30, learning_rate=3e-3, batch_size=256, seed=0)
    after = agreement(_bot(net), held_out)
    chance = _chance(held_out)
    assert after > before + 0.2, (before, after)
    assert after > chance + 0.2, (chance, after)


def test_the_run_writes_a_bot_the_specs_play(tmp_path):
    out = tmp_path / "run"
    cfg = ImitationConfig(teacher="heuristic", games=2, dagger_rounds=1, keep_play=0.3, width=32, epochs=2,
                          out=str(out), minutes=10)
    summary = train(cfg, log=lambda *_: None, config=SHORT)
    assert [row["round"] for row in summary["history"]] == [0, 1]  # the DAgger round added samples
    assert summary["history"][1]["samples"] > summary["history"][0]["samples"]
    assert json.loads((out / "summary.json").read_text())["policy"] == str(out / "policy.npz")
    bot = make_agent(f"bot:{out / 'policy.npz'}", "touchdown")
    result = play_games(bot, RandomAgent(), 2, seed=0, config=SHORT)  # the engine raises on an illegal action
    assert not result.truncated.any()


def test_the_budget_stops_after_the_first_round(tmp_path):
    cfg = ImitationConfig(teacher="heuristic", games=2, dagger_rounds=5, keep_play=0.2, width=16, epochs=1,
                          out=str(tmp_path), minutes=0.0)
    summary = train(cfg, log=lambda *_: None, config=SHORT)
    assert len(summary["history"]) == 1


def _decisions(agent, games: int, seed: int, steps: int = 4000):
    """(state, live games, the agent's actions) at each step of ``agent`` playing both teams of short games."""
    state = init(games, seed=seed, config=SHORT)
    for _ in range(steps):
        live = ~(state.terminated | state.truncated)
        if not live.any():
            return
        g = np.flatnonzero(live)
        actions = agent.act(state, SHORT, g)
        yield state, g, actions
        state = step(state, actions, SHORT)


def test_coach_kicks_a_field_goal_whenever_one_is_legal():
    heuristic = HeuristicAgent()
    seen = 0
    for state, g, actions in _decisions(Coach(), 64, seed=2):
        calls = g[(state.phase[g] == OFFENCE_CALL) & state.legal[g, A.FIELD_GOAL]]
        assert (actions[calls] == A.FIELD_GOAL).all()
        seen += calls.size
        others = g[(state.phase[g] == PLAY)]
        assert np.array_equal(actions[others], heuristic.act(state, SHORT, g)[others])  # the same play
    assert seen > 0


@pytest.mark.parametrize("changes, field", [
    ({"games": 3}, "games"), ({"teacher": "oracle"}, "teacher"), ({"keep_play": 0.0}, "keep_play"),
    ({"width": 0}, "width"), ({"minutes": -1}, "minutes"), ({"out": ""}, "out"), ({"dagger_rounds": True}, "dagger_rounds"),
])
def test_bad_settings_are_refused_by_name(changes, field):
    with pytest.raises(ValueError, match=f"ImitationConfig.{field}"):
        ImitationConfig(**changes)


def test_the_command_refuses_bad_counts_before_training(capsys, tmp_path):
    for argv in (["train", "--games", "3", "--out", str(tmp_path)], ["train", "--measure", "5", "--out", str(tmp_path)]):
        with pytest.raises(SystemExit) as err:
            td_cli.main(argv)
        assert err.value.code == 2
    assert "must be an even int" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


def test_the_shipped_bot_loads_and_plays_legal_games():
    from train.game_export import GameBot

    assert td_cli.SHIPPED_BOT.name == "touchdown_bot.npz"
    GameBot.load(td_cli.SHIPPED_BOT, "touchdown")  # validated: the game's layout and actions, no pickle
    bot = make_agent(f"bot:{td_cli.SHIPPED_BOT}", "touchdown")
    for opponent in (RandomAgent(), HeuristicAgent()):  # the engine raises on an illegal action
        result = play_games(bot, opponent, 2, seed=7, config=SHORT)
        assert not result.truncated.any() and set(result.a_team.tolist()) == {0, 1}


def test_clear_lines_need_a_straight_empty_line_and_count_a_vacated_square_empty():
    occupied = np.zeros((1, 13 + 2, 34 + 2), dtype=bool)
    occupied[0, 3 + 1, 9 + 1] = True  # a piece on (lane 3, row 9)
    clear, length = _clear_lines(occupied, np.array([[3]]), np.array([[7]]), np.array([[3]]), np.array([[12]]),
                                 np.array([[-5]]), np.array([[-5]]))
    assert not clear[0, 0] and length[0, 0] == 5  # blocked at row 9
    clear, _ = _clear_lines(occupied, np.array([[3]]), np.array([[7]]), np.array([[3]]), np.array([[12]]),
                            np.array([[3]]), np.array([[9]]))
    assert clear[0, 0]  # the blocker is the piece stepping off
    clear, length = _clear_lines(occupied, np.array([[3]]), np.array([[7]]), np.array([[7, 5, 4]]),
                                 np.array([[11, 12, 8]]), np.array([[-5]]), np.array([[-5]]))
    assert clear[0].tolist() == [True, False, True] and length[0].tolist() == [4, 5, 1]  # diagonal; off line; beside


# team one's QB off the line with its receiver (T) one step from an open lane, the defence far from him
_OPEN_FIELD = {20: "u...........v", 12: "....T........", 10: ".........jk..", 9: ".....lmr.....",
               8: ".....LCRE....", 7: "...Q.........", 6: "......B......"}


def _offence_turn(agent, state):
    names = []
    while state.to_act[0] == 0 and len(names) < 10:
        action = agent.act(state)
        names.append(A.ACTION_NAMES[action[0]])
        state = step(state, action)
    return names, state


def test_the_passer_runs_its_receiver_into_the_qbs_sight_and_throws():
    names, state = _offence_turn(Passer(), scenario(_OPEN_FIELD))
    assert names == ["piece 6 forward left", "pass to 6"] and state.forward_thrown[0]
    # the heuristic's receiver blocks instead: its turn throws nothing
    names, state = _offence_turn(HeuristicAgent(), scenario(_OPEN_FIELD))
    assert not state.forward_thrown[0] and not any(n.startswith("pass") for n in names)
    # the back moved onto the QB's line to that lane: the throw goes to him (open, 3 rows ahead), not through him
    blocked = {**_OPEN_FIELD, 10: "...B.....jk..", 6: "............."}
    names, state = _offence_turn(Passer(), scenario(blocked))
    assert names[0] == "pass to 5" and "pass to 6" not in names


def test_the_passer_plays_as_the_coach_unless_its_qb_can_still_throw():
    coach = Coach()
    differ = 0
    for state, g, ours in _decisions(Passer(), 32, seed=4):
        mine = np.where(state.to_act[g] == state.offence[g], 0, 7)
        throw = ((state.holder[g] - mine == 6) & (state.holder[g] >= 0) & state.limits[g] & ~state.forward_thrown[g]
                 & (state.phase[g] == PLAY))
        theirs = coach.act(state, SHORT, g)
        assert np.array_equal(ours[g[~throw]], theirs[g[~throw]])
        differ += int((ours[g[throw]] != theirs[g[throw]]).sum())
    assert differ > 0


@pytest.mark.slow  # whole games of the default rules: a minute or two on a loaded machine
def test_the_training_command_at_a_tiny_budget(tmp_path):
    out = tmp_path / "run"
    argv = ["train", "--teacher", "passer", "--games", "2", "--dagger-rounds", "1", "--keep-play", "0.02",
            "--width", "16", "--layers", "1", "--epochs", "1", "--out", str(out)]
    assert td_cli.main(argv) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["config"]["teacher"] == "passer" and [r["round"] for r in summary["history"]] == [0, 1]
    bot = make_agent(f"bot:{out / 'policy.npz'}", "touchdown")
    assert not play_games(bot, RandomAgent(), 2, seed=0, config=SHORT).truncated.any()
