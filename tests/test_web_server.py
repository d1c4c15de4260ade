"""The browser game's server (gridiron_env.web): every message type, bad input, concurrent games, hidden
information, the legal actions as the page is offered them, and records (save, check, replay)."""

from __future__ import annotations

import json
import threading
import warnings

import numpy as np
import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # (starlette may prefer another http client; httpx works)
    from starlette.testclient import TestClient

from agents.random_agent import RandomAgent
from gridiron_env.config import GameConfig
from gridiron_env.core import actions as A
from gridiron_env.core import init, pass_price, recompute_legal, step
from gridiron_env.core.geometry import NEIGHBOUR, N_DIRECTIONS
from gridiron_env.core.state import PLAY, SCRAMBLE, SPECIALS_PICK
from gridiron_env.web import protocol as P
from gridiron_env.web import records as R
from gridiron_env.web.server import create_app, main
from gridiron_env.web.sessions import AgentFactory, GameSession, Settings
from gridiron_env.web.views import describe_options, view_of


@pytest.fixture()
def client(tmp_path):
    app = create_app(tmp_path / "records")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield TestClient(app)


def ask(ws, msg) -> dict:
    ws.send_text(json.dumps(msg))
    return ws.receive_json()


def new_game(ws, **settings) -> dict:
    reply = ask(ws, {"type": "new_game", "settings": settings})
    assert reply["type"] == "started", reply
    return reply


def play_until(ws, reply, n_actions, pick=None, seed=0):
    """Play up to n_actions legal actions (the page's options) from the last frame of ``reply``."""
    rng = np.random.default_rng(seed)
    view = reply["frames"][-1]["view"]
    game = reply["game"]
    for _ in range(n_actions):
        if view["over"] or not view["options"]:
            break
        options = view["options"]
        choice = pick(view) if pick else options[int(rng.integers(len(options)))]["id"]
        reply = ask(ws, {"type": "action", "game": game, "action": choice, "turn": view["steps"]})
        assert reply["type"] == "frames", reply
        view = reply["frames"][-1]["view"]
    return view


# --------------------------------------------------------------------------------------------- messages

def test_page_and_static_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert client.get("/health").json()["ok"] is True
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/nothing-here.js").status_code == 404


def test_hello_lists_opponents_formations_and_limits(client):
    with client.websocket_connect("/ws") as ws:
        reply = ask(ws, {"type": "hello", "id": 7})
    assert reply["type"] == "welcome" and reply["id"] == 7
    specs = {o["spec"]: o for o in reply["opponents"]}
    for spec in ("bot:easy", "bot:medium", "bot:hard", "heuristic", "random", "panel:power_run",
                 "panel:spread_pass", "panel:blitz", "panel:prevent", "panel:ball_control"):
        assert spec in specs
    assert specs["bot:hard"]["available"] is True  # the shipped bot loads
    tables = reply["tables"]
    assert [f["name"] for f in tables["offence_formations"]][:2] == ["i_form", "singleback"]
    assert len(tables["defence_formations"]) == 9
    i_form = {s["tag"]: (s["depth"], s["lane"]) for s in tables["offence_formations"][0]["spots"]}
    assert i_form["QB"] == (1, 0) and i_form["H"] == (3, 0) and len(i_form) == 11
    assert tables["limits"]["max_message_chars"] == P.MAX_MESSAGE_CHARS
    assert set(tables["helmets"]) == {"qb", "oline", "skill", "dline", "lb", "db"}


@pytest.mark.parametrize("opponent", ["bot:easy", "bot:medium", "bot:hard", "heuristic", "random",
                                      "panel:power_run", "panel:blitz"])
def test_a_single_player_game_against_each_opponent(client, opponent):
    with client.websocket_connect("/ws") as ws:
        reply = new_game(ws, team="two", opponent=opponent, seed=11, target_score=3)
        assert reply["seats"][1] == "you" and reply["human_team"] == 1
        assert reply["seats"][0] == next(o["label"] for o in ask(ws, {"type": "hello"})["opponents"]
                                         if o["spec"] == opponent)
        assert "seed" not in json.dumps(reply)  # the seed predicts the dice: never sent during a game
        view = reply["frames"][-1]["view"]
        assert view["viewer"] == 1 and view["to_act"] == 1 and view["options"]  # the bot picked first
        view = play_until(ws, reply, 40, seed=3)
        assert view["steps"] > 40  # the opponent played its own turns in between


def test_action_out_of_turn_illegal_and_for_the_agent_are_refused(client):
    with client.websocket_connect("/ws") as ws:
        reply = new_game(ws, team="one", opponent="heuristic", seed=5, specials=False)
        game = reply["game"]
        view = reply["frames"][-1]["view"]
        assert view["phase"] == "offence_formation" or view["phase"] == "defence_formation"
        legal = {o["id"] for o in view["options"]}
        illegal = next(a for a in range(A.NUM_ACTIONS) if a not in legal)
        bad = ask(ws, {"type": "action", "game": game, "action": illegal, "turn": view["steps"]})
        assert bad["type"] == "error" and "not legal" in bad["error"] and A.ACTION_NAMES[illegal] in bad["error"]
        stale = ask(ws, {"type": "action", "game": game, "action": min(legal), "turn": view["steps"] + 1})
        assert stale["type"] == "error" and "out of turn" in stale["error"]
        ok = ask(ws, {"type": "action", "game": game, "action": min(legal), "turn": view["steps"]})
        assert ok["type"] == "frames" and ok["frames"][0]["caption"]["action"] == min(legal)
        # the record holds exactly the one person's action and the agent's after it: nothing refused
        stop = ask(ws, {"type": "stop", "game": game})
        record = ask(ws, {"type": "record", "game": game})["record"]
        assert record["actions"][view["steps"]] == min(legal)
        assert len(record["actions"]) == stop["frames"][-1]["view"]["steps"]
        # a watch game has no person to act
        watch = new_game(ws, mode="watch", agents=["random", "heuristic"], seed=2)
        refused = ask(ws, {"type": "action", "game": watch["game"], "action": 0, "turn": 0})
        assert refused["type"] == "error" and "not your turn" in refused["error"]


def test_watch_advance_stop_record_close(client, tmp_path):
    with client.websocket_connect("/ws") as ws:
        reply = new_game(ws, mode="watch", agents=["heuristic", "bot:hard"], seed=9, target_score=7)
        game = reply["game"]
        assert reply["frames"][-1]["view"]["viewer"] == -1 and reply["frames"][-1]["view"]["options"] == []
        early = ask(ws, {"type": "record", "game": game})
        assert early["type"] == "error" and "still being played" in early["error"]
        steps = 0
        while True:
            more = ask(ws, {"type": "advance", "game": game, "steps": 50})
            assert more["type"] == "frames" and 1 <= len(more["frames"]) <= 50
            steps += len(more["frames"])
            assert more["frames"][-1]["view"]["steps"] == steps
            if more["frames"][-1]["view"]["over"]:
                break
        assert not more["more"]
        over = ask(ws, {"type": "advance", "game": game, "steps": 1})
        assert over["type"] == "error" and "over" in over["error"]
        record = ask(ws, {"type": "record", "game": game})["record"]
        assert len(record["actions"]) == steps and record["result"]["over"] is True
        saved = list((tmp_path / "records").glob(f"*{game}.json"))
        assert len(saved) == 1 and R.load_record(saved[0])["actions"] == record["actions"]
        assert ask(ws, {"type": "close", "game": game}) == {"type": "closed", "game": game}
        gone = ask(ws, {"type": "advance", "game": game, "steps": 1})
        assert gone["type"] == "error" and "unknown game" in gone["error"]


def test_hotseat_shows_the_team_to_act_and_keeps_the_first_pick_secret(client):
    with client.websocket_connect("/ws") as ws:
        reply = new_game(ws, mode="hotseat", seed=4)
        game = reply["game"]
        view = reply["frames"][-1]["view"]
        assert view["phase"] == "specials" and view["viewer"] == 0 and view["to_act"] == 0
        pick = A.action_id("special ball_hawk")
        after = ask(ws, {"type": "action", "game": game, "action": pick, "turn": 0})
        frame = after["frames"][-1]
        assert frame["view"]["viewer"] == 1 and frame["view"]["specials"] == [None, None]
        shown = {k: v for k, v in frame["view"].items() if k != "options"}  # (the options name all four)
        assert frame["caption"]["action"] is None and "ball_hawk" not in json.dumps([shown, frame["caption"]])
        both = ask(ws, {"type": "action", "game": game, "action": A.action_id("special speedy_qb"), "turn": 1})
        assert both["frames"][-1]["view"]["specials"] == ["ball_hawk", "speedy_qb"]


# --------------------------------------------------------------------------------------------- bad input

BAD_MESSAGES = [
    ("not json", "not valid JSON"),
    ("[1, 2]", "JSON object"),
    ('"hello"', "JSON object"),
    ("{}", "unknown message type"),
    ('{"type": "launch"}', "unknown message type"),
    ('{"type": 5}', "unknown message type"),
    ('{"type": "hello", "extra": 1}', "not ['extra']"),
    ('{"type": "action", "game": "abc", "action": 1}', "needs the field 'turn'"),
    ('{"type": "action", "game": "abc", "action": true, "turn": 0}', "'action' must be"),
    ('{"type": "action", "game": "abc", "action": 1.0, "turn": 0}', "'action' must be"),
    ('{"type": "action", "game": "abc", "action": 291, "turn": 0}', "'action' must be"),
    ('{"type": "action", "game": "abc", "action": -1, "turn": 0}', "'action' must be"),
    ('{"type": "action", "game": "abc", "action": NaN, "turn": 0}', "not valid JSON"),
    ('{"type": "action", "game": "a b", "action": 1, "turn": 0}', "'game' must be"),
    ('{"type": "action", "game": ["x"], "action": 1, "turn": 0}', "'game' must be"),
    ('{"type": "advance", "game": "abc", "steps": 0}', "'steps' must be"),
    ('{"type": "advance", "game": "abc", "steps": 100000}', "'steps' must be"),
    ('{"type": "seek", "game": "abc", "index": -3}', "'index' must be"),
    ('{"type": "new_game", "settings": []}', "'settings' must be an object"),
    ('{"type": "new_game", "settings": {"target_score": 100}}', "target_score"),
    ('{"type": "new_game", "settings": {"target_score": 7.5}}', "target_score"),
    ('{"type": "new_game", "settings": {"specials": 1}}', "specials"),
    ('{"type": "new_game", "settings": {"kick_mode": "laser"}}', "kick_mode"),
    ('{"type": "new_game", "settings": {"seed": -1}}', "seed"),
    ('{"type": "new_game", "settings": {"seed": 18446744073709551616}}', "seed"),
    ('{"type": "new_game", "settings": {"colour": "red"}}', "unknown setting"),
    ('{"type": "new_game", "settings": {"mode": "online"}}', "mode"),
    ('{"type": "new_game", "settings": {"agents": ["random"]}}', "agents"),
    ('{"type": "new_game", "settings": {"opponent": "Bot Hard!"}}', "opponent"),
    ('{"type": "load_record", "record": "x"}', "'record' must be a record object"),
    ('{"type": "hello", "id": {"a": 1}}', "'id' must be"),
    ("[" * 100000 + "]" * 100000, ""),
]


def test_bad_messages_get_a_clear_error_and_change_nothing(client):
    with client.websocket_connect("/ws") as ws:
        live = new_game(ws, team="one", opponent="random", seed=21)
        view = play_until(ws, live, 5, seed=1)
        record_before = R.make_record(GameConfig(), 0, [])  # (only its shape matters below)
        for text, expected in BAD_MESSAGES:
            reply = ask_raw(ws, text)
            assert reply["type"] == "error", text[:80]
            assert expected in reply["error"], (text[:80], reply["error"])
        ws.send_bytes(b'{"type": "hello"}')
        binary = ws.receive_json()
        assert binary["type"] == "error" and "text" in binary["error"]
        huge = json.dumps({"type": "hello", "id": "x" * 10, "pad": "y" * (P.MAX_MESSAGE_CHARS + 10)})
        too_big = ask_raw(ws, huge)
        assert too_big["type"] == "error" and f"at most {P.MAX_MESSAGE_CHARS}" in too_big["error"]
        # unknown games, and bad requests to a real game, answered; the live game is as it was
        for msg, expected in [({"type": "advance", "game": "nosuchgame", "steps": 1}, "unknown game"),
                              ({"type": "seek", "game": live["game"], "index": 0}, "needs a replay"),
                              ({"type": "new_game", "settings": {"opponent": "panel:nobody"}}, "unknown opponent"),
                              ({"type": "load_record", "record": {"format": "x"}}, "record")]:
            reply = ask(ws, msg)
            assert reply["type"] == "error" and expected in reply["error"], reply
        # the connection still works and the game goes on from where it was
        again = ask(ws, {"type": "action", "game": live["game"], "action": view["options"][0]["id"],
                         "turn": view["steps"]})
        assert again["type"] == "frames" and again["frames"][0]["view"]["steps"] == view["steps"] + 1
        assert record_before["format"] == R.FORMAT


def ask_raw(ws, text: str) -> dict:
    ws.send_text(text)
    return ws.receive_json()


def test_games_belong_to_their_page(client):
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        game = new_game(a, team="one", opponent="random", seed=1)
        view = game["frames"][-1]["view"]
        stolen = ask(b, {"type": "action", "game": game["game"], "action": view["options"][0]["id"],
                         "turn": view["steps"]})
        assert stolen["type"] == "error" and "unknown game" in stolen["error"]
        mine = ask(a, {"type": "action", "game": game["game"], "action": view["options"][0]["id"],
                       "turn": view["steps"]})
        assert mine["type"] == "frames"


def test_a_page_may_hold_a_limited_number_of_games(client):
    from gridiron_env.web.server import MAX_GAMES_PER_CONNECTION

    with client.websocket_connect("/ws") as ws:
        for _ in range(MAX_GAMES_PER_CONNECTION):
            new_game(ws, mode="hotseat")
        refused = ask(ws, {"type": "new_game", "settings": {"mode": "hotseat"}})
        assert refused["type"] == "error" and "close one first" in refused["error"]


def _watch_game(client, seed, results, key):
    with client.websocket_connect("/ws") as ws:
        reply = new_game(ws, mode="watch", agents=["random", "heuristic"], seed=seed, target_score=6)
        while True:
            more = ask(ws, {"type": "advance", "game": reply["game"], "steps": 37})
            if more["frames"][-1]["view"]["over"]:
                break
        results[key] = ask(ws, {"type": "record", "game": reply["game"]})["record"]


def test_concurrent_games_stay_independent(client):
    """Four watch games served at once in threads give the same games as the engine alone (so the
    games never saw each other's state, random streams or agents)."""
    results = {}
    threads = [threading.Thread(target=_watch_game, args=(client, seed, results, seed)) for seed in (1, 2, 3, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert len(results) == 3 and all(not t.is_alive() for t in threads)
    from agents.heuristic import HeuristicAgent

    for seed, record in results.items():
        config = GameConfig(target_score=6)
        agents = [RandomAgent(), HeuristicAgent()]
        for agent in agents:
            agent.reset(np.array([seed], dtype=np.uint64))
        state = init(1, seed=seed, config=config)
        actions = []
        while not (state.terminated[0] or state.truncated[0]):
            a = int(agents[int(state.to_act[0])].act(state, config, games=np.array([0]))[0])
            actions.append(a)
            state = step(state, np.array([a]), config=config)
        assert record["actions"] == actions and record["result"]["score"] == state.score[0].tolist()


# --------------------------------------------------------------------------------------------- hidden information

def _random_states(config, n_games=48, seed=0, max_steps=400):
    """Positions of random play: every state each game passes through (a lone game each)."""
    agent = RandomAgent()
    agent.reset(np.arange(seed, seed + n_games))
    state = init(n_games, seed=seed, config=config)
    for _ in range(max_steps):
        yield state
        state = step(state, agent.act(state, config), config=config)


def test_the_page_never_receives_the_hidden_ball_or_a_secret_pick():
    config = GameConfig()
    found_scramble = found_pick = False
    for state in _random_states(config, n_games=64, seed=100, max_steps=900):
        for g in np.flatnonzero((state.phase == SCRAMBLE) & state.ball_hidden)[:2]:
            lone = state.take([g])
            square = int(lone.ball_square[0])
            views = []
            # the same position with the ball hidden on each other empty square beside it: the page
            # receives exactly the same message for every one
            around = [int(s) for s in NEIGHBOUR[0, square] if s >= 0 and lone.board[0, s] < 0] + [square]
            for hidden in around:
                moved = lone.copy()
                moved.ball_square[0] = hidden
                recompute_legal(moved, config)
                for viewer in (0, 1, -1):
                    views.append((viewer, json.dumps(view_of(moved, viewer, config, True), sort_keys=True)))
            for viewer in (0, 1, -1):
                texts = {t for v, t in views if v == viewer}
                assert len(texts) == 1
            view = view_of(lone, int(lone.to_act[0]), config, True)
            assert view["ball"] == {"square": None, "loose": False, "hidden": True, "holder": None}
            assert all(not o.get("pickup") for o in view["options"])
            found_scramble = True
        for g in np.flatnonzero((state.phase == SPECIALS_PICK) & (state.to_act == 1))[:1]:
            lone = state.take([g])
            texts = set()
            for pick in range(4):
                other = lone.copy()
                other.special[0, 0] = pick
                texts.add(json.dumps(view_of(other, 1, config, True), sort_keys=True))
            assert len(texts) == 1 and '"specials": [null, null]' in texts.pop()
            found_pick = True
        if found_scramble and found_pick:
            break
    assert found_scramble and found_pick


def test_a_session_frame_and_caption_hide_the_agents_pick():
    factory = AgentFactory()
    session = GameSession("g1", Settings(mode="single", team=1, opponent="random", seed=3), factory)
    frames = session.run_agents(5)  # team one (random) picks first
    assert len(frames) == 1 and int(session.state.special[0, 0]) >= 0
    text = json.dumps(frames)
    assert frames[0]["caption"]["action"] is None
    assert A.SPECIALS[int(session.state.special[0, 0])] not in text.replace('"special ', "")
    assert frames[0]["view"]["specials"] == [None, None]


# --------------------------------------------------------------------------------------------- options

def test_options_are_the_legal_actions_with_the_engines_costs_and_prices():
    """Every legal action of random positions, as the page is offered it: the set is the legal mask, a
    move lands its actor on its target, and the cost is what the engine takes from the side's points."""
    config = GameConfig()
    checked = {k: 0 for k in ("move", "push", "gap", "throw", "follow", "tackle", "swap", "shove")}
    for state in _random_states(config, n_games=16, seed=7, max_steps=300):
        for g in np.flatnonzero(state.phase == PLAY)[:3]:
            lone = state.take([g])
            team = int(lone.to_act[0])
            options = describe_options(lone, config)
            assert sorted(o["id"] for o in options) == np.flatnonzero(lone.legal[0]).tolist()
            for o in options:
                if o["kind"] not in checked:
                    continue
                after = step(lone, np.array([o["id"]]), config=config)
                same_turn = (int(after.phase[0]) == PLAY and int(after.rolls[0]) == int(lone.rolls[0])
                             and int(after.to_act[0]) == team and int(after.down[0]) == int(lone.down[0])
                             and int(after.los_row[0]) == int(lone.los_row[0]))
                if o["kind"] == "throw":
                    price = pass_price(lone, o["receiver"], 0)
                    assert o["price"]["kind"] == price.kind and o["price"]["chance"]["num"] == price.chance.numerator
                    assert o["price"]["offence_dice"] == price.offence_dice
                    if price.kind == "forward pass" or not same_turn:
                        continue  # (a forward pass's outcome, or a dropped lateral, moves the points)
                if o.get("tackle"):
                    checked["tackle"] += 1
                    continue  # the play ends: the points start again
                if not same_turn:
                    continue
                spent = int(lone.points[0, team]) - int(after.points[0, team])
                assert spent == o["cost"] - o.get("gain", 0), o
                checked[o["kind"]] += 1
                if o.get("swap"):
                    checked["swap"] += 1
                if o.get("shove"):
                    checked["shove"] += 1
                if o["kind"] in ("move", "follow"):
                    assert int(after.player_square[0, o["actor"]]) == o["target"]
                if o["kind"] == "gap":
                    assert int(after.player_square[0, o["actor"]]) == o["target"]
                if o["kind"] == "push":
                    assert int(after.player_square[0, o["actor"]]) == o["target"]
                    assert int(after.player_square[0, o["pushed"]]) != o["target"]
    assert checked["move"] > 100 and checked["throw"] > 10 and checked["push"] > 0 and checked["tackle"] > 0


# --------------------------------------------------------------------------------------------- records

def test_a_record_round_trips_and_replays_forwards_and_backwards(client):
    with client.websocket_connect("/ws") as ws:
        live = new_game(ws, team="one", opponent="heuristic", seed=77, target_score=3)
        frames = [f["view"] for f in live["frames"]]
        view = frames[-1]
        rng = np.random.default_rng(5)
        views_at = {view["steps"]: view}
        while not view["over"] and view["steps"] < 120:
            options = view["options"]
            reply = ask(ws, {"type": "action", "game": live["game"], "turn": view["steps"],
                             "action": options[int(rng.integers(len(options)))]["id"]})
            for f in reply["frames"]:
                views_at[f["view"]["steps"]] = f["view"]
            view = reply["frames"][-1]["view"]
        ask(ws, {"type": "stop", "game": live["game"]})
        record = ask(ws, {"type": "record", "game": live["game"]})["record"]
        assert record["seed"] == 77 and record["config"]["target_score"] == 3 and record["mode"] == "single"
        text = R.dumps(record)
        assert R.parse_record_text(text)["actions"] == record["actions"]
        replay = ask(ws, {"type": "load_record", "record": json.loads(text)})
        assert replay["type"] == "replay" and replay["length"] == len(record["actions"])
        assert replay["frame"]["index"] == 0
        # backwards from the end, then forwards: each position is the game's (seen as a spectator)
        config = GameConfig.from_dict(record["config"])
        states = [init(1, seed=77, config=config)]
        for a in record["actions"]:
            states.append(step(states[-1], np.array([a]), config=config))
        order = list(range(len(states) - 1, -1, -7)) + [0, 1, 2, 3]
        for k in order:
            frame = ask(ws, {"type": "seek", "game": replay["game"], "index": k})
            assert frame["type"] == "frame" and frame["index"] == k
            expected = view_of(states[k], -1, config, False)
            got = frame["view"]
            assert got["players"] == expected["players"] and got["score"] == expected["score"]
            assert got["steps"] == k
            if k in views_at:  # what the person saw then, less what a spectator may not see
                assert views_at[k]["players"] == got["players"]
            if k >= 1:
                assert frame["caption"]["action"] in (record["actions"][k - 1], None)
        past = ask(ws, {"type": "seek", "game": replay["game"], "index": len(states)})
        assert past["type"] == "error" and "replay index" in past["error"]
        for kind in ("advance", "stop", "record"):
            msg = {"type": kind, "game": replay["game"], **({"steps": 1} if kind == "advance" else {})}
            wrong = ask(ws, msg)
            assert wrong["type"] == "error" and f"'{kind}' needs a live game" in wrong["error"]


def _a_record(n=40, seed=3):
    config = GameConfig(target_score=7)
    agent = RandomAgent()
    agent.reset(np.array([seed]))
    state = init(1, seed=seed, config=config)
    actions = []
    for _ in range(n):
        a = int(agent.act(state, config)[0])
        actions.append(a)
        state = step(state, np.array([a]), config=config)
    return R.make_record(config, seed, actions, seats=["a", "b"], mode="watch", state=state)


@pytest.mark.parametrize("change, expected", [
    (lambda r: r.update(format="gridiron-record-v0"), "'format'"),
    (lambda r: r.update(extra=1), "unknown record field"),
    (lambda r: r.pop("actions"), "no 'actions'"),
    (lambda r: r.update(seed=-5), "'seed'"),
    (lambda r: r.update(seed=True), "'seed'"),
    (lambda r: r["config"].update(target_score=0), "target_score"),
    (lambda r: r["config"].update(laser=1), "unknown GameConfig field"),
    (lambda r: r.update(config=[1]), "'config'"),
    (lambda r: r.update(actions="1,2"), "list of action ids"),
    (lambda r: r["actions"].__setitem__(3, 999), "'actions'[3]"),
    (lambda r: r["actions"].__setitem__(3, True), "'actions'[3]"),
    (lambda r: r["result"].update(score=[99, 0]), "'result' score"),
    (lambda r: r["result"].update(over=1), "'result' over"),
    (lambda r: r.update(seats=["a"]), "'seats'"),
    (lambda r: r.update(mode="online"), "'mode'"),
])
def test_bad_records_are_refused_naming_the_field(change, expected):
    record = _a_record()
    R.check_record(json.loads(R.dumps(record)))  # the unchanged record is fine
    bad = json.loads(R.dumps(record))
    change(bad)
    with pytest.raises(R.RecordError) as err:
        R.check_record(bad)
    assert expected in str(err.value)


def test_an_illegal_action_in_a_record_is_named(tmp_path):
    record = _a_record()
    bad = json.loads(R.dumps(record))
    # an action that was legal nowhere near: the 10th action becomes one that is not legal there
    config = GameConfig(target_score=7)
    state = init(1, seed=3, config=config)
    for a in bad["actions"][:10]:
        state = step(state, np.array([a]), config=config)
    illegal = int(np.flatnonzero(~state.legal[0])[0])
    bad["actions"][10] = illegal
    path = tmp_path / "bad.json"
    path.write_text(R.dumps(bad))
    with pytest.raises(R.RecordError, match=rf"'actions'\[10\] = {illegal} \('{A.ACTION_NAMES[illegal]}'\) is not legal"):
        R.load_record(path)
    path.write_text("{" * 10)
    with pytest.raises(R.RecordError, match="not valid JSON"):
        R.load_record(path)
    with pytest.raises(R.RecordError, match="at most"):
        R.parse_record_text(" " * (R.MAX_RECORD_CHARS + 1))


# --------------------------------------------------------------------------------------------- the command

def test_the_command_refuses_bad_options(capsys):
    assert main(["--port", "70000"]) == 2
    assert "--port" in capsys.readouterr().err
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0 and "gridiron-serve" in capsys.readouterr().out


def test_python_dash_m_runs_the_command():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "gridiron_env.web", "--help"], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and "--port" in out.stdout and "--records" in out.stdout


def test_the_command_prints_its_url_and_serves_the_page():
    import re
    import subprocess
    import sys

    import httpx

    proc = subprocess.Popen([sys.executable, "-m", "gridiron_env.web", "--port", "0", "--no-records"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert url, line
        page = None
        for _ in range(100):  # (uvicorn starts serving a moment after the line)
            try:
                page = httpx.get(url.group(0), timeout=5)
                break
            except httpx.TransportError:
                threading.Event().wait(0.1)
        assert page is not None and page.status_code == 200 and "<canvas" in page.text
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_a_real_server_answers_over_a_real_websocket(tmp_path):
    """uvicorn and the websockets library end to end: a game, a huge frame refused with a clear error."""
    websockets_sync = pytest.importorskip("websockets.sync.client")
    from gridiron_env.web.server import serve_in_thread

    server = serve_in_thread(tmp_path)
    try:
        url = server.url.replace("http://", "ws://") + "ws"
        with websockets_sync.connect(url, max_size=None) as ws:
            ws.send(json.dumps({"type": "new_game", "settings": {"team": "one", "opponent": "bot:easy", "seed": 8}}))
            started = json.loads(ws.recv())
            assert started["type"] == "started"
            for size in (P.MAX_MESSAGE_CHARS + 1, 3_000_000):
                ws.send("x" * size)
                reply = json.loads(ws.recv())
                assert reply["type"] == "error" and "at most" in reply["error"]
            view = started["frames"][-1]["view"]
            ws.send(json.dumps({"type": "action", "game": started["game"], "action": view["options"][0]["id"],
                                "turn": view["steps"]}))
            assert json.loads(ws.recv())["type"] == "frames"
        assert list(tmp_path.glob("*.json"))
    finally:
        server.stop()


# --------------------------------------------------------------------------------------------- captions, video

def test_captions_name_what_happened_and_agree_with_the_state():
    """Banners from random play: each kind is checked against the positions before and after."""
    from gridiron_env.core.visibility import team_view
    from gridiron_env.web.sessions import describe_step

    from agents.panel import PANEL

    config = GameConfig(target_score=7)
    seen = set()
    n = 40
    agents = [PANEL["spread_pass"](), RandomAgent()]  # passes (and a pick), touchdowns; fumbles, safeties
    for agent in agents:
        agent.reset(np.arange(n))
    heuristic_team = np.arange(n) % 2
    state = init(n, seed=0, config=config)
    for _ in range(1500):
        if (state.terminated | state.truncated).all():
            break
        actions = np.where(state.to_act == heuristic_team, agents[0].act(state, config),
                           agents[1].act(state, config))
        after = step(state, actions, config=config)
        for g in np.flatnonzero(~(state.terminated | state.truncated)):
            b, a = team_view(state, [g], -1), team_view(after, [g], -1)
            team = int(b.to_act[0])
            caption = describe_step(b, a, int(actions[g]), team, -1)
            for banner in caption["banners"]:
                kind = banner["kind"]
                seen.add(kind)
                if kind == "touchdown":
                    assert int(a.score[0, banner["team"]]) - int(b.score[0, banner["team"]]) in (6, 7)
                elif kind == "first_down":
                    assert int(a.down[0]) == 1 and int(a.offence[0]) == int(b.offence[0])
                elif kind == "fumble":
                    assert int(a.phase[0]) == SCRAMBLE and bool(a.ball_hidden[0])
                elif kind == "interception":
                    holder = int(a.ball_holder[0])
                    assert holder >= 0 and (holder < 11) != (int(b.ball_holder[0]) < 11)
                elif kind == "tackle":
                    assert int(A.ACTION_KIND[int(actions[g])]) == A.KIND_MOVE
                elif kind == "final":
                    assert bool(a.terminated[0] or a.truncated[0])
        state = after
    assert {"touchdown", "first_down", "fumble", "interception", "tackle", "final", "turnover"} <= seen


def test_a_record_renders_to_frames_with_banners_and_to_a_video(tmp_path):
    from gridiron_env.render import FIELD_BOX, FRAME_SHAPE
    from gridiron_env.web import video as V

    record = _a_record(n=60, seed=4)
    plain = V.record_frames(record, hold=0)
    assert len(plain) == 61 and all(f.shape == FRAME_SHAPE and f.dtype == np.uint8 for f in plain)
    held = V.record_frames(record, hold=2)
    n_banner_actions = (len(held) - len(plain)) // 2
    assert n_banner_actions >= 1 and len(held) == len(plain) + 2 * n_banner_actions
    j, banners = 0, []
    for k in range(len(plain)):  # the plain pictures in order, each banner's two frames after its action's
        assert np.array_equal(held[j], plain[k])
        j += 1
        if j < len(held) and (k + 1 == len(plain) or not np.array_equal(held[j], plain[k + 1])):
            assert np.array_equal(held[j], held[j + 1])
            banners.append((plain[k], held[j]))
            j += 2
    assert j == len(held) and len(banners) == n_banner_actions
    mid = (FIELD_BOX[0] + FIELD_BOX[1]) // 2
    for picture, banner in banners:
        rows = np.flatnonzero((picture != banner).any(axis=(1, 2)))
        assert rows.min() >= mid - V.BANNER_H and rows.max() <= mid + V.BANNER_H  # only the band changed
    pytest.importorskip("moviepy")
    out = tmp_path / "game.mp4"
    assert V.write_video(record, out, fps=8, hold=1) == len(plain) + n_banner_actions
    assert out.stat().st_size > 1000
    path = tmp_path / "game.json"
    R.save_record(record, path)
    assert V.main([str(path), str(tmp_path / "again.mp4"), "--fps", "10", "--hold", "0"]) == 0
    assert V.main([str(tmp_path / "missing.json"), str(tmp_path / "x.mp4")]) == 2


def test_kick_options_carry_the_distance_and_the_exact_chance():
    from gridiron_env.core.geometry import FRAME_ROW, N_LANES
    from gridiron_env.core.odds import field_goal_chance_exact, paper_field_goal_chance
    from gridiron_env.core.state import KICK_DECISION

    seen = {"field_goal": 0, "punt": 0}
    for kick_mode in ("dice", "paper"):
        config = GameConfig(kick_mode=kick_mode, longest_punt=9)
        for state in _random_states(config, n_games=32, seed=50, max_steps=400):
            for g in np.flatnonzero(state.phase == KICK_DECISION)[:2]:
                lone = state.take([g])
                options = describe_options(lone, config)
                kinds = [o["kind"] for o in options]
                assert "play_on" in kinds
                offence = int(lone.offence[0])
                frame_row = int(FRAME_ROW[offence, int(lone.los_row[0]) * N_LANES])
                yards = 4 * (frame_row - 3 + 1) + 17  # RULES.md "Kicking": 4 (r - 3) + 17, r 1-based
                for o in options:
                    if o["kind"] == "field_goal":
                        assert o["kick"]["yards"] == yards and o["kick"]["in_range"]
                        if kick_mode == "dice":
                            exact = field_goal_chance_exact(yards)
                            assert (o["kick"]["chance"]["num"], o["kick"]["chance"]["den"]) == (
                                exact.numerator, exact.denominator)
                        else:
                            assert o["kick"]["chance"]["value"] == pytest.approx(paper_field_goal_chance(yards, 0.75))
                        seen["field_goal"] += 1
                if int(lone.down[0]) == 4:
                    assert sorted(o["rows"] for o in options if o["kind"] == "punt") == list(range(1, 10))
                    seen["punt"] += 1
                else:
                    assert "punt" not in kinds
    assert seen["field_goal"] > 0 and seen["punt"] > 0


def test_an_agent_that_fails_or_cheats_stops_its_game_cleanly(tmp_path):
    class Broken:
        name = "broken"

        def __init__(self, how):
            self.how = how

        def reset(self, seeds):
            pass

        def act(self, state, config=None, games=None):
            if self.how == "raise":
                raise RuntimeError("out of cheese")
            return np.array([int(np.flatnonzero(~state.legal[0])[0])])  # an illegal action

    for how, words in (("raise", "out of cheese"), ("illegal", "illegal action")):
        session = GameSession("g", Settings(mode="watch", agents=("random", "random"), seed=1), AgentFactory(),
                              tmp_path / "records")
        session.seats[0] = Broken(how)
        frames = session.advance(10)
        assert session.stopped and session.actions == [] and words in frames[-1]["caption"]["banners"][0]["text"]
        assert session.public_record()["actions"] == []


def test_a_record_that_cannot_be_saved_costs_the_record_not_the_game(tmp_path, capsys):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("x")
    session = GameSession("g", Settings(mode="watch", agents=("random", "random"), seed=1), AgentFactory(),
                          blocker)
    frames = session.advance(5)
    assert len(frames) == 5 and session.record_error is not None
    frames = session.advance(5)
    assert len(frames) == 5 and capsys.readouterr().err.count("cannot save") == 1
