"""A batch of one takes the engine's plain-Python path (core/lone.py): bit for bit the batched path.

Game i of a batch seeded s plays exactly like a lone game seeded s + i given the same actions, so each
lone game here is checked field by field, after every step, against its row of a batch of three (the
vectorised path). The actions lean toward the rarer kinds so that every branch of the fast path runs, and
the test counts the branches it saw so that it cannot pass vacuously.
"""

from collections import Counter

import numpy as np
import pytest

import gridiron_env as g
from gridiron_env.core import actions as A
from gridiron_env.core import engine, rules
from gridiron_env.core.chance import ScriptedChance
from gridiron_env.core.state import FIELDS, GAME_OVER, PLAY, SCRAMBLE

pytestmark = pytest.mark.usefixtures("vectorised_batches")  # a batch of more than one is the vectorised path here
BATCH = 3


def _pick(rng, s, game):
    """A random legal action; often one of the rarer kinds (not a move nor End turn), or a step forward
    by the ball carrier, when there is one."""
    legal = s.legal[game]
    holder = int(s.ball_holder[game])
    if holder >= 0 and rng.random() < 0.3:
        forward = A.MOVE_BASE + holder * 8 + np.array([7, 0, 1])
        forward = forward[legal[forward]]
        if forward.size:
            return int(forward[rng.integers(forward.size)])
    ids = np.flatnonzero(legal)
    rare = ids[(ids >= A.PUSH_BASE) | ((ids > A.END_TURN) & (ids < A.MOVE_BASE))]
    if rare.size and rng.random() < 0.3:
        return int(rare[rng.integers(rare.size)])
    return int(ids[rng.integers(ids.size)])


def _branch(before, game, action):
    """The branch of the fast path an action takes, read from the state it is played in."""
    phase = int(before.phase[game])
    kind = int(A.ACTION_KIND[action])
    if phase == SCRAMBLE:
        return "scramble"
    if kind == A.KIND_MOVE and phase == PLAY:
        slot = int(A.ACTION_ARG[action])
        team = int(before.to_act[game])
        to = engine.NEIGHBOUR[team, before.player_square[game, slot], A.ACTION_DIRECTION[action]]
        occupant = int(before.board[game, to])
        if occupant < 0:
            return "pickup" if before.ball_holder[game] < 0 and before.ball_square[game] == to else "move"
        return "tackle" if occupant == before.ball_holder[game] else "swap"
    return {A.KIND_FOLLOW: "follow", A.KIND_PUSH: "push", A.KIND_GAP: "gap", A.KIND_THROW: "throw",
            A.KIND_END_TURN: "end turn"}.get(kind, "other")


def _lone_bytes(s):
    return [getattr(s, name).tobytes() for name in FIELDS]


def _row_bytes(s, game):
    return [getattr(s, name)[game].tobytes() for name in FIELDS]


def _tied(s):  # 3-3 at a target of 3: when the opener's drive ends, overtime starts
    s.score[:] = 3


def _late_overtime(s):  # 3-3 in overtime: the next score wins at the end of that possession
    s.overtime[:] = True
    s.overtime_points[:] = 3


def _play(config, seed, steps, seen, near_goal=False, setup=None):
    rng = np.random.default_rng(seed)
    batch = g.init(BATCH, seed=seed, config=config)
    lone = [g.init(1, seed=seed + i, config=config) for i in range(BATCH)]
    if setup is not None:  # the same edit to every game, batched and lone
        for s in [batch] + lone:
            setup(s)
    if near_goal:  # drives from 2 rows out (team one attacks row 0): carriers run in for touchdowns
        engine.start_drive(batch, np.arange(BATCH), 0, 4, 8, config)
        for s in lone:
            engine.start_drive(s, [0], 0, 4, 8, config)
    for t in range(steps):
        live = ~(batch.terminated | batch.truncated)
        if not live.any():
            break
        actions = np.array([_pick(rng, batch, i) if live[i] else 0 for i in range(BATCH)])
        for i in np.flatnonzero(live):
            seen[_branch(batch, i, actions[i])] += 1
        new = g.step(batch, actions, config=config)
        for i in range(BATCH):
            old = lone[i]
            lone[i] = g.step(old, np.array([actions[i]]), config=config)
            # a move that leaves only End turn ends the side's turn on its own (engine._refresh)
            seen["turn ended on its own"] += int(
                live[i] and A.ACTION_KIND[actions[i]] == A.KIND_MOVE and old.phase[0] == PLAY
                and lone[i].phase[0] == PLAY and (lone[i].to_act[0] != old.to_act[0]
                                                  or lone[i].rolls[0] != old.rolls[0]))
            assert _lone_bytes(lone[i]) == _row_bytes(new, i), (
                f"seed {seed}, step {t}, game {i}: fields "
                f"{[n for n, x, y in zip(FIELDS, _lone_bytes(lone[i]), _row_bytes(new, i)) if x != y]}")
        for i in np.flatnonzero(live):
            seen["game won"] += int(new.terminated[i])
            seen["game truncated"] += int(new.truncated[i])
            seen["touchdown"] += int(A.ACTION_KIND[actions[i]] in (A.KIND_MOVE, A.KIND_FOLLOW)
                                     and (new.score[i] - batch.score[i]).max() >= 6)
            seen["first down"] += int(new.down[i] == 1 and batch.down[i] > 1 and new.offence[i] == batch.offence[i])
            seen["turnover on downs"] += int(batch.down[i] == 4 and new.offence[i] != batch.offence[i]
                                             and new.phase[i] != GAME_OVER)
            seen["overtime"] += int(new.overtime[i] and not batch.overtime[i])
            seen["overtime won"] += int(new.overtime[i] and new.terminated[i] and not batch.terminated[i])
            seen["fumble"] += int(new.phase[i] == SCRAMBLE and batch.phase[i] == PLAY)
            seen["field goal good"] += int(actions[i] == A.FIELD_GOAL and (new.score[i] - batch.score[i]).max() == 3)
            seen["punt"] += int(A.ACTION_KIND[actions[i]] == A.KIND_PUNT)
            seen["forward pass"] += int(batch.forward_pass_used[i] < new.forward_pass_used[i])
            seen["interception"] += int(batch.forward_pass_used[i] < new.forward_pass_used[i]
                                        and new.offence[i] == batch.offence[i] and new.ball_holder[i] >= 11)
            seen["special"] += int(A.ACTION_KIND[actions[i]] == A.KIND_SPECIAL)
        batch = new


def test_a_lone_game_steps_exactly_as_in_a_batch():
    seen = Counter()
    _play(g.GameConfig(), 0, 2500, seen)
    _play(g.GameConfig(specials=False), 10, 1200, seen)
    _play(g.GameConfig(kick_mode="paper", paper_answer_chance=0.5, target_score=7), 20, 1500, seen)
    _play(g.GameConfig(max_steps=200, max_rolls_per_down=2, target_score=3, longest_punt=3), 30, 1500, seen)
    _play(g.GameConfig(target_score=3), 40, 1500, seen, near_goal=True)
    _play(g.GameConfig(target_score=3), 70, 1000, seen, setup=_tied)
    _play(g.GameConfig(), 80, 1000, seen, setup=_late_overtime)
    _play(g.GameConfig(max_steps=80), 50, 200, seen)
    for branch in ("move", "tackle", "swap", "follow", "push", "gap", "throw", "pickup", "scramble", "fumble",
                   "end turn", "turn ended on its own", "touchdown", "first down", "turnover on downs",
                   "field goal good", "punt", "forward pass", "interception", "special", "overtime", "overtime won", "game won",
                   "game truncated"):
        assert seen[branch] > 0, (branch, seen)


def test_the_lone_path_checks_its_input_as_the_batched_one():
    config = g.GameConfig()
    s = g.init(1, seed=5, config=config)
    before = _lone_bytes(s)
    illegal = int(np.flatnonzero(~s.legal[0])[0])
    with pytest.raises(engine.IllegalActionError) as err:
        g.step(s, np.array([illegal]), config=config)
    assert (err.value.game, err.value.action) == (0, illegal)
    for bad in (np.array([A.NUM_ACTIONS]), np.array([-1]), 10**6):
        with pytest.raises(engine.IllegalActionError):
            g.step(s, bad, config=config)
    with pytest.raises(ValueError):
        g.step(s, np.array([1.0]), config=config)
    with pytest.raises(ValueError):
        g.step(s, np.array([1, 2]), config=config)
    assert _lone_bytes(s) == before  # nothing changed
    legal = int(np.flatnonzero(s.legal[0])[0])
    # a scalar, a numpy integer, a list and an array give the same step
    results = [_lone_bytes(g.step(s, x, config=config))
               for x in (legal, np.int16(legal), [legal], np.array([legal], dtype=np.uint8))]
    assert all(r == results[0] for r in results)


def test_injected_dice_still_reach_a_lone_game():
    """ScriptedChance (tests' dice) reaches the lone path: its outcomes are used, not the stream's."""
    config = g.GameConfig(specials=False)
    s = g.init(1, seed=0, config=config)
    s = g.step(s, [A.action_id("formation i_form")], config=config)
    chance = ScriptedChance([0, 0, 0, 0, 0] + [5, 5, 0, 0])  # strong linemen, then the dice: 6-6 against 1-1
    s = g.step(s, [A.action_id("formation four_three")], config=config, chance=chance)
    assert not chance.queue
    assert s.phase[0] == PLAY and s.points[0, s.offence[0]] == 6 and s.points[0, 1 - s.offence[0]] == 1


def _positions(config, count, seed):
    """Positions in play from seeded random games (the ball carried), for the bookkeeping tests."""
    rng = np.random.default_rng(seed)
    s, found = g.init(1, seed=seed, config=config), []
    while len(found) < count:
        if s.to_act[0] < 0:
            s = g.init(1, seed=int(rng.integers(1 << 30)), config=config)
        if s.phase[0] == PLAY and s.ball_holder[0] >= 0 and rng.random() < 0.05:
            found.append(s)
        s = g.step(s, [_pick(rng, s, 0)], config=config)
    return found


def _same_as_engine(base, config, lone_call, engine_call):
    a, b = base.copy(), base.copy()
    rules.STEP.config, rules.STEP.chance = config, engine.CounterChance()
    lone_call(a)
    engine_call(b)
    assert _lone_bytes(a) == _lone_bytes(b), [n for n, x, y in zip(FIELDS, _lone_bytes(a), _lone_bytes(b)) if x != y]


def test_the_lone_bookkeeping_is_the_engine_s_on_every_square():
    """A dead ball, a fumble, an interception, a catch and a change of possession on every square and score
    line: the lone path's bookkeeping (safeties, touchbacks, first downs, touchdowns, the end of the game
    and overtime) against the engine's."""
    from gridiron_env.core import lone

    one = np.zeros(1, dtype=np.int64)
    config = g.GameConfig(target_score=7)
    for base in _positions(config, 3, 11):
        for team in (0, 1):
            for square in range(0, 540, 7):
                _same_as_engine(base, config, lambda s: lone._ball_dead(s, 0, team, square),
                                lambda s: engine._ball_dead(s, one, np.array([team]), np.array([square])))
            for square in range(0, 540, 11):  # a fumble around any square, an interception at any receiver
                _same_as_engine(base, config, lambda s: lone._start_fumble(s, 0, square, team, 1 - team, team),
                                lambda s: engine._start_fumble(s, one, np.array([square]), np.array([team]),
                                                               np.array([1 - team]), np.array([team])))
                thrower = int(base.ball_square[0])
                _same_as_engine(base, config, lambda s: lone._intercept(s, 0, team, square, thrower),
                                lambda s: engine._intercept(s, one, np.array([team]), np.array([square]),
                                                            np.array([thrower])))
        offence = int(base.offence[0])
        for slot in range(22):
            for square in (1, 9, 17, 280, 522, 530, 538):  # the end zones, and midfield
                def put(s):  # the carrier hands the ball to ``slot`` standing on ``square`` (if it is free)
                    if s.board[0, square] < 0:
                        s.board[0, s.player_square[0, slot]] = -1
                        s.board[0, square] = slot
                        s.player_square[0, slot] = square
                _same_as_engine(
                    base, config, lambda s: (put(s), lone._gain_possession(s, 0, slot, s.player_square[0, slot].item())),
                    lambda s: (put(s), engine._gain_possession(s, one, np.array([slot]))))
        for overtime in (False, True):
            for opener_score in (0, 6, 7, 9):
                for other_score in (0, 6, 7, 9):
                    for drives in ((1, 1), (2, 1), (1, 2)):
                        for team in (0, 1):
                            def edit(s):
                                s.overtime[0] = overtime
                                s.score[0, s.opener[0]], s.score[0, 1 - s.opener[0]] = opener_score, other_score
                                s.overtime_points[0] = (min(opener_score, 5), min(other_score, 3))
                                s.drives[0] = drives
                            _same_as_engine(
                                base, config, lambda s: (edit(s), lone._change_possession(s, 0, team, 100 + offence)),
                                lambda s: (edit(s), engine._change_possession(s, one, team, 100 + offence)))


def _core_imports():
    """module -> the core modules it imports (at the top or inside a function), from the source."""
    import ast
    import pathlib

    core = pathlib.Path(engine.__file__).parent
    graph = {}
    for path in core.glob("*.py"):
        deps = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                deps.update([node.module.split(".")[0]] if node.module else [a.name for a in node.names])
        graph[path.stem] = deps - {path.stem}
    return graph


def test_the_core_has_no_import_circle_and_the_lone_path_no_engine():
    graph = _core_imports()
    assert {"engine", "legal", "diagram", "invariants"}.isdisjoint(graph["lone"])
    assert "rules" in graph["lone"] and "rules" in graph["engine"]  # both read the rules from one module

    def reaches(start, goal, seen=()):
        return any(d == goal or (d not in seen and reaches(d, goal, seen + (d,))) for d in graph.get(start, ()))

    circles = [m for m in graph if m != "__init__" and reaches(m, m)]
    assert circles == [], f"core modules in an import circle: {circles}"
