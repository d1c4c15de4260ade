"""Touchdown through the generic env layer: the official checkers on every id, seed independence across
batch sizes, illegal actions, the drive envs' roles and results, observation and rendering content."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import gridiron_env  # noqa: F401  (registers the ids)
from gridiron_env import touchdown as td
from gridiron_env.adapters.sb3 import SB3VecEnv
from gridiron_env.adapters.single import GameEnv
from gridiron_env.adapters.vector import GameVectorEnv
from gridiron_env.protocol import check_game, get_game
from gridiron_env.touchdown import actions as A
from gridiron_env.touchdown.game import DRIVE, GAME, drive_status
from gridiron_env.touchdown.state import KICK_CHOICE, PLAY

IDS = ("gridiron_env/Touchdown-v0", "gridiron_env/TouchdownOffence-v0", "gridiron_env/TouchdownDefence-v0")


def test_specs_meet_the_protocol():
    assert check_game(get_game("touchdown"), seed=5, batch_size=3, max_steps=60) == 60
    assert check_game(get_game("touchdown_drive"), seed=9, batch_size=3, max_steps=60) >= 1


@pytest.mark.parametrize("env_id", IDS)
def test_gymnasium_and_sb3_check_env(env_id):
    from gymnasium.utils.env_checker import check_env
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    check_env(gym.make(env_id, render_mode="rgb_array").unwrapped)
    check_env(gym.make(env_id, render_mode="ansi").unwrapped)
    sb3_check_env(gym.make(env_id).unwrapped)


def test_pettingzoo_checkers(capsys):
    from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test

    api_test(td.env(), num_cycles=60)
    seed_test(lambda **kw: td.env(**kw), num_cycles=60)
    render_test(lambda **kw: td.env(**kw))
    parallel_api_test(td.parallel_env(), num_cycles=60)
    capsys.readouterr()


def _play(env_id, n, seed, steps):
    venv = gym.make_vec(env_id, num_envs=n)
    obs, info = venv.reset(seed=seed)
    out = [[obs[i].copy()] for i in range(n)]
    for t in range(steps):
        masks = info["action_mask"]
        # slot i's action depends only on its own mask and step
        actions = np.array([np.flatnonzero(masks[i])[(t * 7) % masks[i].sum()] for i in range(n)])
        obs, r, te, tr, info = venv.step(actions)
        for i in range(n):
            out[i].append((obs[i].copy(), float(r[i]), bool(te[i]), bool(tr[i])))
    return out


def _same(a, b):
    return len(a) == len(b) and all(
        np.array_equal(x, y) if isinstance(x, np.ndarray) else
        all(np.array_equal(p, q) if isinstance(p, np.ndarray) else p == q for p, q in zip(x, y))
        for x, y in zip(a, b))


@pytest.mark.parametrize("env_id", IDS)
def test_make_vec_slots_do_not_depend_on_the_batch_size(env_id):
    big = _play(env_id, 4, 100, 40)
    small = _play(env_id, 2, 102, 40)  # slots 2, 3 of the big batch
    assert _same(big[2], small[0]) and _same(big[3], small[1])
    lone = _play(env_id, 1, 101, 40)
    assert _same(big[1], lone[0])


@pytest.mark.slow
def test_drive_roles_and_results():
    venv = GameVectorEnv(16, game="touchdown_drive", learner_team="one")
    obs, info = venv.reset(seed=3)
    # the learner is the drive's team: the receiver of the opening kick, who decides first at a kick choice
    ended, rewards = 0, []
    rng = np.random.default_rng(0)
    for _ in range(400):
        masks = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, r, te, tr, info = venv.step(actions)
        rewards += [float(x) for x, d in zip(r, te | tr) if d]
        ended += int((te | tr).sum())
    assert ended >= 16 and set(rewards) <= {-1.0, 0.0, 1.0}
    # a drive's result: scored by its team -> role 0 wins; series lost -> role 1
    d = DRIVE.init(64, 11)
    assert (d.team == np.where(d.game.phase == KICK_CHOICE, d.game.to_act, d.game.offence)).all()
    rng = np.random.default_rng(1)
    for _ in range(3000):
        over = DRIVE.over(d)
        if over.all():
            break
        legal = DRIVE.legal_mask(d)
        a = np.array([rng.choice(np.flatnonzero(m)) if m.any() else A.WAIT for m in legal])
        d = DRIVE.step(d, a)
    over, winner, cut = drive_status(d)
    assert over.all()
    score = DRIVE.score(d)
    assert (winner[score[:, 0] > score[:, 1]] == 0).all() and (winner[score[:, 0] <= score[:, 1]] == 1).all()
    assert (DRIVE.to_act(d) == -1).all() and not DRIVE.legal_mask(d).any()


def test_illegal_action_loses_with_the_reason_or_raises():
    env = GameEnv(game="touchdown", learner_team="one")
    obs, info = env.reset(seed=0)
    while True:
        wrong = np.flatnonzero(info["action_mask"] == 0)
        wrong = wrong[wrong != A.WAIT]
        if wrong.size:
            break
        obs, r, te, tr, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    before = env.state.copy()
    obs, r, te, tr, info = env.step(int(wrong[0]))
    assert (r, te, tr) == (-1.0, True, False)
    ill = info["illegal_action"]
    assert ill["name"] == A.ACTION_NAMES[int(wrong[0])] and ill["team"] == "team_one"
    assert "not legal" in ill["reason"]
    assert before.equals(env.state)
    env = GameEnv(game="touchdown", illegal_action="raise", learner_team="two")
    obs, info = env.reset(seed=3)
    before = env.state.copy()
    with pytest.raises(td.IllegalActionError) as err:
        env.step(A.WAIT)
    assert isinstance(err.value, ValueError) and "wait" in str(err.value) and before.equals(env.state)
    # the drive spec maps the engine's sub-batch index back to the drive batch's
    d = DRIVE.init(3, 0)
    legal = DRIVE.legal_mask(d)
    a = np.array([np.flatnonzero(m)[0] for m in legal])
    a[2] = A.WAIT
    with pytest.raises(td.IllegalActionError) as err:
        DRIVE.step(d, a)
    assert err.value.game == 2


def test_observation_is_from_the_viewer_side():
    s = td.init(8, seed=4)
    rng = np.random.default_rng(2)
    while not (s.phase == PLAY).all():
        legal = td.legal_action_mask(s)
        a = np.array([rng.choice(np.flatnonzero(m)) if m.any() else A.WAIT for m in legal])
        a[s.phase == PLAY] = A.WAIT
        live = s.phase != PLAY
        if not live.any():
            break
        sub = s.take(np.flatnonzero(live))
        s.put(np.flatnonzero(live), td.step(sub, a[live]))
    o0, o1 = td.observe(s, 0), td.observe(s, 1)
    lay = td.OBS_LAYOUT
    assert (o0[:, lay["is_team_one"][0]] == 1).all() and (o1[:, lay["is_team_one"][0]] == 0).all()
    # the acting team's piece 7 (QB or Triple) is always the same columns
    pieces = o0[:, lay["pieces"][0]].reshape(8, 14, -1)
    off = s.offence == 0
    assert (pieces[off, 6, -1] == 1).all()  # team one on offence: its 7th piece is the QB
    assert (pieces[~off, 6, -1] == 0).all() and (pieces[~off, 6, -2] == 1).all()
    # turning the board: team two's view of a square is team one's of the square turned half a circle
    cfg = td.TouchdownConfig()
    p1 = o1[:, lay["pieces"][0]].reshape(8, 14, -1)
    # team one's 1st piece seen by team two is at position 7 + 0 of team two's list
    assert np.allclose(pieces[:, :7, 1:3] + p1[:, 7:, 1:3], 1) and np.allclose(pieces[:, 7:, 1:3] + p1[:, :7, 1:3], 1)
    assert "| 0-0 | `is_team_one` |" in td.observation_markdown()


def test_rules_md_prints_the_generated_observation_table():
    from pathlib import Path

    rules = (Path(td.__file__).parent / "RULES.md").read_text()
    assert td.observation_markdown() in rules and f"float32 [batch, {td.OBS_SIZE}]" in rules


# --- rendering --------------------------------------------------------------------------------------------

BOARDS = [td.TouchdownConfig(), td.TouchdownConfig(lanes=17, hash_band=(7, 11), field_rows=44),
          td.TouchdownConfig(lanes=11, hash_band=(6, 6), field_rows=26)]


def _a_play(seed=6, config=BOARDS[0]):
    """A game in the play phase with the ball held (the first snap of a seeded random game)."""
    s = td.init(1, seed=seed, config=config)
    rng = np.random.default_rng(seed)
    while not (s.phase[0] == PLAY and s.holder[0] >= 0):
        legal = np.flatnonzero(td.legal_action_mask(s)[0])
        s = td.step(s, np.array([rng.choice(legal)]), config)
    return s


@pytest.mark.parametrize("cfg", BOARDS)
def test_text_shows_the_los_the_carrier_and_the_pieces(cfg):
    s = _a_play(config=cfg)
    s.marked[0, 10] = True
    text = td.render_ansi(s, 0)  # the state's own board: no config needed
    lines = text.splitlines()
    board = [ln for ln in lines if "|" in ln]
    assert len(board) == cfg.rows and all(len(ln.split("|")[1]) == cfg.lanes for ln in board)
    los_line = [ln for ln in board if "<LOS" in ln]
    gain_line = [ln for ln in board if "<GAIN" in ln]
    assert len(los_line) == 1 and len(gain_line) == 1
    off = int(s.offence[0])
    los_abs = int(s.los[0]) + 1 if off == 0 else cfg.rows - 2 - int(s.los[0])
    assert los_line[0].startswith(f"{los_abs - 1:>3} |")
    cells = "".join(ln.split("|")[1] for ln in board)
    assert cells.count("@") == 1  # the carrier
    letters = "ISDTQ"
    expected_one = sorted("I" * 3 + "DDTQ" if off == 0 else "SSSDDTT")
    got_one = sorted(c for c in cells if c in letters)
    got_two = sorted(c for c in cells if c in letters.lower())
    holder_team = off if int(s.holder[0]) < 7 else 1 - off
    assert len(got_one) + len(got_two) == 13  # 14 pieces, one drawn as the carrier
    assert "carrier: team " in text and td.state.SLOT_NAMES[int(s.holder[0])] in text
    assert "marked: team" in text and td.state.SLOT_NAMES[10] in text
    assert (len(got_one) == 6) == (holder_team == 0)
    if holder_team == 1:
        assert got_one == expected_one


@pytest.mark.parametrize("cfg", BOARDS)
def test_image_tells_the_piece_types_apart(cfg):
    from gridiron_env.touchdown.render import (
        BALL, BAR_PX, CELL, INTERIOR_FRAME, MARGIN, MARKER, TEAM_COLOURS, square_box,
    )

    s = _a_play(config=cfg)
    s.marked[0, 9] = True
    img = td.render_rgb(s, 0)  # the state's own board
    assert np.array_equal(img, td.render_rgb(s, 0, cfg))
    assert img.dtype == np.uint8 and img.shape == (BAR_PX + cfg.rows * CELL, cfg.lanes * CELL, 3)
    n = CELL - 2 * MARGIN

    def px(slot, u, v):  # the pixel at (u, v) of the unit box of the slot's piece
        top, left = square_box(int(s.lane[0, slot]), int(s.row[0, slot]), cfg)
        y = top + MARGIN + int(round((v + 1) / 2 * n - 0.5))  # the pixel whose centre is nearest (u, v)
        x = left + MARGIN + int(round((u + 1) / 2 * n - 0.5))
        return tuple(int(c) for c in img[y, x])

    off = int(s.offence[0])
    stacked = {k for k in range(14) for j in range(14) if j != k and s.lane[0, j] == s.lane[0, k]
               and s.row[0, j] == s.row[0, k]}
    probes = {"corner": (0.95, 0.6), "upper": (0.6, -0.6), "low side": (0.8, 0.9), "bottom": (0.0, 0.8)}
    expected = {  # type -> which probes are filled
        0: {"corner", "upper", "low side", "bottom"},  # Single: square
        1: {"upper", "bottom"},  # Double: disc
        2: {"low side", "bottom"},  # Triple: triangle, apex up
        3: {"bottom"},  # QB: diamond
    }
    checked = set()
    for slot in range(14):
        if slot in stacked:
            continue
        team = off if slot < 7 else 1 - off
        colour = TEAM_COLOURS[team]
        kind = td.state.SLOT_TYPE[slot]
        filled = {name for name, (u, v) in probes.items() if px(slot, u, v) == colour}
        assert filled == expected[kind], (slot, kind, filled)
        checked.add(kind)
    assert checked == {0, 1, 2, 3}
    # the interior line's frame, the marker, the carrier's ball
    for slot in (0, 1, 2):
        if slot not in stacked:
            top, left = square_box(int(s.lane[0, slot]), int(s.row[0, slot]), cfg)
            assert tuple(img[top + 1, left + CELL // 2]) == INTERIOR_FRAME
    top, left = square_box(int(s.lane[0, 9]), int(s.row[0, 9]), cfg)
    assert tuple(img[top + 1, left + 1]) == MARKER
    top, left = square_box(int(s.lane[0, 11]), int(s.row[0, 11]), cfg)
    assert tuple(img[top + 1, left + 1]) != MARKER
    h = int(s.holder[0])
    top, left = square_box(int(s.lane[0, h]), int(s.row[0, h]), cfg)
    assert tuple(img[top + CELL // 2, left + CELL // 2]) == BALL


@pytest.mark.parametrize("cfg", BOARDS)
def test_image_marks_the_los_row(cfg):
    from gridiron_env.touchdown.render import CELL, LOS_STRIPE, square_box

    s = _a_play(8, cfg)
    img = td.render_rgb(s, 0)
    off = int(s.offence[0])
    los_abs = int(s.los[0]) + 1 if off == 0 else cfg.rows - 2 - int(s.los[0])
    occupied = {int(x) for x, r in zip(s.lane[0], s.row[0]) if r == los_abs}
    free = [lane for lane in range(cfg.lanes) if lane not in occupied]
    top, left = square_box(free[0], los_abs, cfg)
    assert tuple(img[top + CELL // 2, left + CELL // 2]) == LOS_STRIPE
    top, left = square_box(free[0], los_abs + 3, cfg)
    assert tuple(img[top + CELL // 2, left + CELL // 2]) != LOS_STRIPE


@pytest.mark.parametrize("cfg", BOARDS[1:])
def test_diagrams_and_pictures_of_other_boards_need_no_config(cfg):
    """A state knows its board: the specs' diagrams (which take no config) round-trip, a state of one board
    cannot be stepped or checked with another board's config."""
    from gridiron_env.touchdown.invariants import find_violations

    s = td.init(6, seed=3, config=cfg)
    assert (s.board == (cfg.lanes, cfg.field_rows) + cfg.hash_band).all()
    rng = np.random.default_rng(3)
    shown = set()
    for t in range(60):
        for g in range(s.batch_size if t % 3 == 0 else 0):
            text = GAME.to_diagram(s, g)
            assert text == td.to_diagram(s, g, cfg)
            assert GAME.to_diagram(GAME.from_diagram(text, cfg), 0) == text
            if "board:" in text:
                rows = text.split("board:\n")[1].splitlines()
                assert len(rows) == cfg.rows and {len(r) for r in rows} == {cfg.lanes + 6}
                shown.add(g)
        legal = td.legal_action_mask(s)
        s = td.step(s, np.argmax(np.where(legal, rng.random(legal.shape), -1), axis=1), cfg)
    assert len(shown) >= 3
    drive = DRIVE.init(2, 5, cfg)
    text = DRIVE.to_diagram(drive, 1)
    assert DRIVE.to_diagram(DRIVE.from_diagram(text, cfg), 0) == text
    with pytest.raises(ValueError, match="dealt on a board of"):
        td.step(s, np.zeros(s.batch_size, dtype=np.int64), td.TouchdownConfig())
    assert any("board" in m for _, m in find_violations(s, td.TouchdownConfig(), check_mask=False))
    with pytest.raises(ValueError, match="board rows"):
        td.from_diagram(td.to_diagram(_a_play(config=cfg), 0))  # read on the default board: refused


def test_env_render_is_the_game_render():
    env = GameEnv(game="touchdown", render_mode="ansi")
    env.reset(seed=2)
    assert env.render() == td.render_ansi(env.state, 0)
    env = gym.make("gridiron_env/TouchdownOffence-v0", render_mode="rgb_array").unwrapped
    env.reset(seed=2)
    assert np.array_equal(env.render(), td.render_rgb(env.state.game, 0))


def test_sb3_adapter_and_selfplay():
    venv = SB3VecEnv("gridiron_env/TouchdownOffence-v0", num_envs=3)
    venv.seed(1)
    obs = venv.reset()
    assert obs.shape == (3, td.OBS_SIZE)
    masks = venv.action_masks()
    obs, r, done, infos = venv.step(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
    assert obs.shape == (3, td.OBS_SIZE)
