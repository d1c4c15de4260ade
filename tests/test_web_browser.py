"""The browser game in a real browser: headless Chromium (Debian's ``chromium``, which .ci/run installs)
driven by Playwright's Python API against a real server. A scripted hot-seat game goes through the specials,
both formations, a move, a push, a forward pass with its confirm dialog and a tackle, checking the page
after each step (its state, the canvas's pixels, a screenshot with real content) and that the browser
logged no error; then the game's record is replayed backwards and forwards."""

from __future__ import annotations

import io
import os
import shutil
import tempfile

import numpy as np
import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (the test extra) is not installed")

CHROMIUM = os.environ.get("GRIDIRON_CHROMIUM", "/usr/bin/chromium")
if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
    pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium; .ci/run installs it)", allow_module_level=True)

from gridiron_env.web.server import serve_in_thread  # noqa: E402

LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SEED = 12


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = serve_in_thread(tmp_path_factory.mktemp("records"))
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser_context():
    profile = tempfile.mkdtemp(prefix="gridiron-chromium-")  # a fresh user data dir
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, headless=True,
                                                       args=LAUNCH_ARGS, viewport={"width": 1280, "height": 900})
        yield context
        context.close()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture()
def page(browser_context):
    page = browser_context.new_page()
    page.problems = []
    page.on("console", lambda m: page.problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: page.problems.append(f"page error: {e}"))
    yield page
    page.close()


def view(page) -> dict:
    return page.evaluate("window.gridiron.view")


def settle(page, states=("idle",), moved=True):
    """Wait until the page is ready again (one of ``states``) and, when ``moved``, shows a later position
    than the last one seen (an action's reply may land a moment after the click that sent it)."""
    last = getattr(page, "last_steps", None)
    moved_js = f" && document.body.dataset.steps !== '{last}'" if moved and last is not None else ""
    page.wait_for_function(f"{list(states)}.includes(document.body.dataset.state){moved_js}", timeout=15000)
    v = view(page)
    page.last_steps = v["steps"] if v else None
    return v


def shot(page) -> np.ndarray:
    from PIL import Image

    png = page.locator("#field").screenshot()
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def assert_real_picture(img: np.ndarray) -> None:
    colours = np.unique(img.reshape(-1, 3), axis=0)
    assert img.shape[0] > 600 and img.shape[1] > 400 and len(colours) > 40  # grass, end zones, busts, lines


def click_square(page, square: int, shift: bool = False, double: bool = False) -> None:
    point = page.evaluate(f"window.gridironSquarePoint({square})")
    target = page.locator("#field")
    if double:
        target.dblclick(position=point)
    else:
        target.click(position=point, modifiers=["Shift"] if shift else [])


def helmet_pixel(page, square: int) -> list[int]:
    return page.evaluate(f"window.gridironPixel({square}, 12, 6)")


def helmets(page) -> dict:
    return page.evaluate("window.gridiron.tables.helmets")


def hex_rgb(h: str) -> list[int]:
    return [int(h[i:i + 2], 16) for i in (1, 3, 5)]


def options_of(v, kind):
    return [o for o in v["options"] if o["kind"] == kind]


def end_turn(page):
    page.click("#end-turn")
    return settle(page)


def test_a_scripted_hot_seat_game_through_every_kind_of_action(server, page):
    page.goto(server.url + f"?speed=0&seed={SEED}")
    settle(page, ("setup",), moved=False)
    page.select_option("#mode", "hotseat")
    page.click("#kickoff")
    v = settle(page)
    assert v["phase"] == "specials" and page.locator("#cards button").count() == 4
    before = shot(page)
    assert_real_picture(before)

    # specials: team one picks, and team two's screen does not show it
    page.click("#cards button >> text=Sure Hands")
    v = settle(page)
    assert v["to_act"] == 1 and v["specials"] == [None, None]
    assert "secret" in page.inner_text("#team-0")
    page.click("#cards button >> text=Ball Hawk")
    v = settle(page)
    assert v["specials"] == ["sure_hands", "ball_hawk"]
    assert "Sure Hands" in page.inner_text("#team-0") and "Ball Hawk" in page.inner_text("#team-1")

    # formations from the cards
    assert v["phase"] == "offence_formation" and page.locator("#cards .card").count() == 8
    page.click("#cards .card >> text=shotgun")
    v = settle(page)
    assert v["phase"] == "defence_formation" and v["formations"][0] == "shotgun"
    assert page.locator("#cards .card").count() == 9
    page.click("#cards .card >> text=prevent")
    v = settle(page)
    assert v["phase"] == "play" and v["formations"] == ["shotgun", "prevent"] and len(v["players"]) == 22
    after_snap = shot(page)
    assert_real_picture(after_snap)
    assert np.abs(after_snap.astype(int) - before.astype(int)).sum() > 0  # the players are on the field
    offence = v["offence"]
    for p in v["players"]:  # each bust wears its position's helmet on its square
        assert helmet_pixel(page, p["square"]) == hex_rgb(helmets(page)[p["group"]]), p

    # bank points until the offence can move, push and throw in one turn (the defence just passes)
    while v["points"][offence] < 6:
        rolls = v["rolls"]
        v = end_turn(page)
        assert v["phase"] == "play"
        if v["rolls"] == rolls + 1:  # a new roll: the scoreboard shows its dice, points rolled and carried
            for t in (0, 1):
                row = page.inner_text(f"#dice-{t}").split()
                assert row[1:] == [f"{v['dice'][t][0]},", str(v["dice"][t][1]), str(v["rolled"][t]),
                                   str(max(0, v["points"][t] - v["rolled"][t])), str(v["points"][t])], row
    qb = next(p for p in v["players"] if p["tag"] == "QB")

    # a move: click a back, then the square shown for him right in front of the quarterback
    forward = qb["square"] - 18 if offence == 0 else qb["square"] + 18
    move = next(o for o in options_of(v, "move") if o["target"] == forward and o["actor"] >= 6)
    mover_square = next(p["square"] for p in v["players"] if p["slot"] == move["actor"])
    click_square(page, mover_square)
    assert page.evaluate("window.gridiron.selected") == move["actor"]
    assert page.evaluate(f"window.gridironPixel({move['target']}, 3, 3)") != page.evaluate(
        f"window.gridironPixel({move['target']}, 0, 0)")  # the reachable square is highlighted
    click_square(page, move["target"])
    v = settle(page)
    moved = next(p for p in v["players"] if p["slot"] == move["actor"])
    assert moved["square"] == move["target"]
    assert helmet_pixel(page, move["target"]) == hex_rgb(helmets(page)[moved["group"]])
    assert helmet_pixel(page, mover_square) != helmet_pixel(page, move["target"])
    assert "move" in page.inner_text("#log")

    # a push: Shift-click him; he and the centre in front of him step up, the quarterback behind them
    push = next(o for o in options_of(v, "push") if o["pushed"] == move["actor"])
    points_before = v["points"][offence]
    click_square(page, forward, shift=True)
    v = settle(page)
    assert v["points"][offence] == points_before - push["cost"]
    assert next(p for p in v["players"] if p["slot"] == 0)["square"] == forward  # the QB took his square
    assert next(p for p in v["players"] if p["slot"] == push["pushed"])["square"] == push["line"][1]

    # a throw: double-click a receiver ahead; the dialog names both sides' dice and the exact chance
    throws = [o for o in options_of(v, "throw") if o["price"]["kind"] == "forward pass"]
    assert throws, "a forward pass is open"
    throw = max(throws, key=lambda o: o["price"]["chance"]["value"])
    click_square(page, throw["target"], double=True)
    page.wait_for_selector("#throw-dialog[open]")
    price = throw["price"]
    text = page.inner_text("#throw-dialog")
    if price["offence_dice"]:
        assert f"You roll {price['offence_dice']}" in text and f"their {price['defence_dice']}" in text
    assert f"{price['chance']['num']}/{price['chance']['den']}" in text
    assert f"{price['chance']['value'] * 100:.1f}%" in text
    page.screenshot()  # (the dialog over the page renders)
    page.click("#throw-confirm")
    v = settle(page)
    log = page.inner_text("#log")
    assert "throw " + page.evaluate("window.gridiron.tables.tags")[throw["receiver"]] in log

    # the defence closes in and tackles: each turn it moves the defender nearest the carrier toward him
    tackled = False
    for _ in range(150):
        if v["over"]:
            break
        if v["phase"] != "play":  # (a pass that failed ends the down: the next one is played to a tackle)
            cards = page.locator("#cards .card")
            if cards.count():
                cards.first.click()
            elif options_of(v, "play_on"):
                page.click("#kick button >> text=Play on")
            else:
                page.click("#end-turn")
            v = settle(page, ("idle", "over"))
            offence = v["offence"]
            continue
        team = v["to_act"]
        tackles = [o for o in options_of(v, "move") if o["tackle"]]
        if tackles:
            tackle = tackles[0]
            actor_square = next(p["square"] for p in v["players"] if p["slot"] == tackle["actor"])
            click_square(page, actor_square)
            click_square(page, tackle["target"])
            v = settle(page, ("idle", "over"))
            tackled = True
            break
        carrier = v["ball"]["holder"]
        if team == offence or carrier is None:
            v = end_turn(page)
            continue
        csq = next(p["square"] for p in v["players"] if p["slot"] == carrier)
        moves = [o for o in options_of(v, "move") if not o["swap"]]

        def gap(o):
            return max(abs(o["target"] // 18 - csq // 18), abs(o["target"] % 18 - csq % 18))
        best = min(moves, key=gap, default=None)
        here = {o["actor"]: next(p["square"] for p in v["players"] if p["slot"] == o["actor"]) for o in moves}
        if best is None or gap(best) >= max(abs(here[best["actor"]] // 18 - csq // 18),
                                             abs(here[best["actor"]] % 18 - csq % 18)):
            v = end_turn(page)
            continue
        click_square(page, here[best["actor"]])
        click_square(page, best["target"])
        v = settle(page, ("idle", "over"))
    assert tackled
    assert "tackles" in page.inner_text("#log")
    assert_real_picture(shot(page))

    # the Lines button tints the line of scrimmage's row instead of drawing a line
    if not v["over"]:
        los_square = v["los_row"] * 18 + 0
        line_pixel = page.evaluate(f"window.gridironPixel({los_square}, 12, 12)")
        page.click("#lines")
        assert page.evaluate(f"window.gridironPixel({los_square}, 12, 12)") != line_pixel
        assert "tinted" in page.inner_text("#lines")

    # stop, then replay the game backwards and forwards
    page.click("#stop")
    settle(page, ("over",), moved=False)
    steps = view(page)["steps"]
    page.click("#watch-replay")
    page.wait_for_function("window.gridiron.replay && document.body.dataset.state === 'idle'", timeout=15000)
    assert page.evaluate("window.gridiron.replay.length") == steps
    page.click("#r-last")
    page.wait_for_function(f"document.body.dataset.steps === '{steps}' && document.body.dataset.state === 'idle'")
    end_picture = shot(page)
    page.click("#r-back")
    page.wait_for_function(f"document.body.dataset.steps === '{steps - 1}' && document.body.dataset.state === 'idle'")
    page.click("#r-first")
    page.wait_for_function("document.body.dataset.steps === '0' && document.body.dataset.state === 'idle'")
    assert view(page)["players"] == []  # the start: nobody on the field yet
    page.click("#r-fwd")
    page.wait_for_function("document.body.dataset.steps === '1' && document.body.dataset.state === 'idle'")
    assert_real_picture(end_picture)
    assert page.problems == []


def test_single_player_against_the_bot_and_the_offence_up_flip(server, page):
    page.goto(server.url + "?speed=0&seed=3")
    settle(page, ("setup",), moved=False)
    page.select_option("#team", "two")
    page.select_option("#opponent", "bot:easy")
    page.uncheck("#specials")
    page.click("#kickoff")
    v = settle(page)
    assert v["viewer"] == 1 and v["to_act"] == 1
    assert page.inner_text("#team-1").startswith("two: you")
    # play formations and end turns until team two has the ball at a snap, then flip the picture
    for _ in range(40):
        if v["phase"] == "play" and v["offence"] == 1:
            break
        if v["over"]:
            break
        cards = page.locator("#cards .card")
        if cards.count():
            cards.first.click()
        elif options_of(v, "play_on"):
            page.click("#kick button >> text=Play on")
        else:
            page.click("#end-turn")
        v = settle(page, ("idle", "over"))
    assert v["phase"] == "play" and v["offence"] == 1
    somebody = v["players"][0]
    plain = helmet_pixel(page, somebody["square"])
    page.check("#offence-up")
    # the same bust now stands on the half-turned square of the picture: the pixel follows him
    flipped_point = page.evaluate(f"window.gridironSquarePoint({somebody['square']})")
    page.uncheck("#offence-up")
    plain_point = page.evaluate(f"window.gridironSquarePoint({somebody['square']})")
    assert flipped_point != plain_point
    assert helmet_pixel(page, somebody["square"]) == plain
    assert page.problems == []


def test_a_bad_record_file_is_refused_with_a_message(server, page, tmp_path):
    page.goto(server.url + "?speed=0")
    settle(page, ("setup",), moved=False)
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "gridiron-record-v1", "config": {}, "seed": 1, "actions": [999]}')
    page.set_input_files("#record-file", str(bad))
    page.wait_for_function("document.getElementById('setup-error').textContent.length > 0")
    assert "'actions'[0]" in page.inner_text("#setup-error")
    notjson = tmp_path / "notjson.json"
    notjson.write_text("{{{")
    page.set_input_files("#record-file", str(notjson))
    page.wait_for_function("document.getElementById('setup-error').textContent.includes('not JSON')")
    assert [p for p in page.problems if "error" in p and "WebSocket" not in p] == []


def test_watching_two_agents(server, page):
    page.goto(server.url + "?speed=0&seed=8")
    settle(page, ("setup",), moved=False)
    page.select_option("#mode", "watch")
    page.select_option("#agent-one", "panel:spread_pass")
    page.select_option("#agent-two", "bot:medium")
    page.fill("#target", "21")
    page.click("#kickoff")
    page.wait_for_function("Number(document.body.dataset.steps) > 30", timeout=20000)
    v = view(page)
    assert v["viewer"] == -1 and v["options"] == []  # a spectator is offered nothing
    assert page.inner_text("#team-0").startswith("one: panel: spread pass")
    assert page.inner_text("#team-1").startswith("two: bot (medium)")
    # a short game may end on its own (the pause button then hides) before a click lands: the check and the
    # click run in one turn of the page's event loop, so only a game still going is paused
    page.evaluate("() => { if (document.body.dataset.state !== 'over') document.getElementById('pause').click(); }")
    page.wait_for_function("document.body.dataset.state === 'paused' || document.body.dataset.state === 'over'")
    paused_at = page.evaluate("document.body.dataset.steps")
    page.wait_for_timeout(300)
    assert page.evaluate("document.body.dataset.steps") == paused_at
    if page.evaluate("document.body.dataset.state") == "paused":
        page.click("#pause")  # resume, then stop
        page.wait_for_function(f"document.body.dataset.steps !== '{paused_at}'")
        # the game may reach its end on its own (the stop button then hides) before a click from here lands:
        # the check and the click run in one turn of the page's event loop, so only a game still going stops
        page.evaluate("() => { if (document.body.dataset.state !== 'over') document.getElementById('stop').click(); }")
    page.wait_for_function("document.body.dataset.state === 'over'", timeout=20000)
    assert not page.locator("#download").is_hidden()
    assert_real_picture(shot(page))
    assert page.problems == []


@pytest.mark.slow
@pytest.mark.parametrize("seed", [31, 32, 33, 34])
def test_a_whole_game_against_the_bot_through_the_action_list(server, page, seed):
    """Every phase a game reaches (kicks, scrambles, follows, overtime, the end), chosen at random from the
    page's own list of legal actions: the page stays consistent and logs no error."""
    rng = np.random.default_rng(seed)
    page.goto(server.url + f"?speed=0&seed={seed}")
    settle(page, ("setup",), moved=False)
    page.select_option("#opponent", "bot:hard")
    page.fill("#target", "10")
    page.click("#kickoff")
    v = settle(page, ("idle", "over"), moved=False)
    phases = set()
    for _ in range(3000):
        if v["over"]:
            break
        phases.add(v["phase"])
        buttons = page.locator("#action-list button")
        assert buttons.count() == len(v["options"])
        # prefer moving on: the end turn and kicks half the time, so the game ends in a few hundred actions
        ends = [i for i, o in enumerate(v["options"]) if o["kind"] in ("end_turn", "play_on", "field_goal", "punt")]
        i = int(rng.choice(ends)) if ends and rng.random() < 0.5 else int(rng.integers(len(v["options"])))
        page.evaluate(f"document.querySelectorAll('#action-list button')[{i}].click()")
        v = settle(page, ("idle", "over"))
    assert v["over"] and "play" in phases and phases & {"offence_formation", "defence_formation"}
    assert "wins" in page.inner_text("#turn") or "No winner" in page.inner_text("#turn")
    assert page.problems == []
