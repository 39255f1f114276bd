"""End to end in real headless Chromium: whole games by clicking and by tapping on a phone."""
import json
import re
import os
import threading
import urllib.request
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from gui_helpers import running_server

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

in_ci = os.environ.get("CI") == "true"
if not Path(CHROMIUM).exists() and not in_ci:
    pytest.skip("Debian's chromium is not installed (CI installs it)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api") if not in_ci else __import__(
    "playwright.sync_api", fromlist=["sync_playwright"])

# Playwright's wait_for_function evaluates strings, which the page's own CSP forbids;
# these tests bypass it, and test_page_runs_under_its_own_csp checks the page without.
PHONE = {"viewport": {"width": 375, "height": 667}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2, "bypass_csp": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}, "bypass_csp": True}


def server_state(port, game_id):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games/{game_id}") as response:
        return json.load(response)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def open_page(browser, port, options, ready="body[data-ready='1']"):
    """``(context, page, problems)``: the app's first page open once ``ready`` shows, with every
    console error and page error collected in ``problems``."""
    context = browser.new_context(**options)
    page = context.new_page()
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(f"http://127.0.0.1:{port}/")
    page.wait_for_selector(ready)
    return context, page, problems


def start_game(page, act=None):
    """Press New game (click, or ``act`` such as a tap) and wait until the new game is on the page.

    A page that already shows a game keeps its ``data-game-id`` until the server answers, so wait
    for the id to change rather than for it to exist.
    """
    before = page.evaluate("() => (document.body && document.body.dataset.gameId) || ''")
    (act or page.click)("#new-game")
    page.wait_for_function("(before) => { const id = document.body && document.body.dataset.gameId; "
                           "return Boolean(id) && id !== before; }", arg=before, polling=50)


def no_horizontal_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def assert_controls_usable(page):
    """Every control inside the screen's width and at least 44 px (buttons)."""
    width = page.evaluate("window.innerWidth")
    for selector in ("#rules", "#first", "#new-game", ".dice-button", "#hint-toggle", "#surface-toggle"):
        for box in [e.bounding_box() for e in page.query_selector_all(selector)]:
            assert box is not None, selector
            assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (selector, box)
            if selector in ("#new-game", ".dice-button"):
                assert box["width"] >= 44 and box["height"] >= 44, (selector, box)


def play_to_the_end(page, act, dice="5", check_midgame=None, most=200):
    """Roll ``dice`` until the game is over, or ``most`` times."""
    moves = 0
    while page.is_hidden("#game-over") and moves < most:
        page.wait_for_function(polling=50,
                               expression=f"!document.querySelector(\".dice-button[data-dice='{dice}']\").disabled"
                               " || !document.getElementById('game-over').hidden")
        if not page.is_hidden("#game-over"):
            break
        if check_midgame and moves == 3:
            check_midgame()
        turns = int(page.evaluate("document.body.dataset.turns"))
        act(f".dice-button[data-dice='{dice}']")
        moves += 1
        page.wait_for_function(polling=50, expression=f"Number(document.body.dataset.turns) > {turns}")
        assert moves < 200
    return moves


@pytest.mark.slow
def test_a_few_rolls_on_the_desktop_then_a_reload_resumes(browser):
    """The fast tier's short form of the whole game below."""
    with running_server() as (_, port):
        context, page, problems = open_page(browser, port, DESKTOP)
        start_game(page)
        page.check("#hint-toggle")
        assert play_to_the_end(page, page.click, most=3) == 3
        game_id = page.evaluate("document.body.dataset.gameId")
        state = server_state(port, game_id)
        mine = max(i for i, t in enumerate(state["turns"]) if t["player"] == "you")
        assert page.locator("#tray .tray-row").count() == len(state["turns"]) - mine
        assert page.evaluate("document.activeElement.dataset.dice") == "5"  # focus stayed on the dice
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        assert page.evaluate("document.body.dataset.gameId") == game_id and page.is_checked("#hint-toggle")
        assert page.locator("#log li").count() == len(state["turns"]) and problems == []
        context.close()


@pytest.mark.slow
def test_play_whole_game_on_the_desktop(browser, tmp_path):
    shots = Path(os.environ.get("HOGSOLVE_SCREENSHOTS", tmp_path))
    with running_server() as (_, port):
        context, page, problems = open_page(browser, port, DESKTOP)
        # before any game: the heatmap and the starting chance are drawn
        assert page.evaluate("""(() => { const c = document.getElementById('policy-canvas');
            const d = c.getContext('2d').getImageData(60, 60, 1, 1).data; return d[3]; })()""") == 255
        assert "at the start" in page.text_content("#trend")
        page.select_option("#rules", "fa13")
        start_game(page)
        page.check("#hint-toggle")

        def midgame():
            page.wait_for_function(polling=50,
                                   expression="document.getElementById('hint-text').textContent.startsWith('Optimal')")
            # each bar is what a move gives up against the best, on an axis from 0 to a round scale:
            # the best bar is flat and the worst move's bar is tall (not every bar at one half)
            heights = page.evaluate("[...document.querySelectorAll('#hint-chart rect')].map((r) => "
                                    "Number(r.getAttribute('height')))")
            assert min(heights) <= 1.5 and max(heights) >= 40
            labels = page.evaluate("[...document.querySelectorAll('#hint-chart text')].map((t) => t.textContent)")
            scale = float(page.evaluate("document.getElementById('hint-chart').dataset.scale"))
            assert "0" in labels and any(t.startswith("−") and float(t[1:]) == pytest.approx(scale) for t in labels)
            page.hover("#policy-canvas", position={"x": 150, "y": 200})
            page.wait_for_timeout(900)  # let the dice land
            assert page.is_visible("#tooltip") and "roll" in page.inner_text("#tooltip")
            tip, window = page.locator("#tooltip").bounding_box(), page.evaluate("window.innerWidth")
            assert tip["x"] + tip["width"] <= window
            assert "rolled" in page.inner_text("#tray .tray-row .sr-only") or "no dice" in page.inner_text("#tray")
            # the tray holds your turn and then every turn of the bot's since, extra turns included
            state = server_state(port, page.evaluate("document.body.dataset.gameId"))
            mine = max(i for i, t in enumerate(state["turns"]) if t["player"] == "you")
            assert page.locator("#tray .tray-row").count() == len(state["turns"]) - mine
            assert page.locator("#tray .tray-row").first.get_attribute("data-player") == "you"
            assert page.evaluate("document.activeElement.dataset.dice") == "5"  # focus stayed on the dice
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(shots / "gui-midgame.png"), full_page=True)
        play_to_the_end(page, page.click, check_midgame=midgame)
        game_id = page.evaluate("document.body.dataset.gameId")
        state = server_state(port, game_id)
        assert state["winner"] is not None
        assert int(page.inner_text("#score-you")) == state["scores"]["you"]
        assert int(page.inner_text("#score-bot")) == state["scores"]["bot"]
        assert page.locator("#log li").count() == len(state["turns"])
        assert page.is_visible("#game-over") and " win" in page.inner_text("#game-over-text")
        page.check("#surface-toggle")
        page.wait_for_timeout(900)
        page.screenshot(path=str(shots / "gui-end.png"), full_page=True)
        # reloading resumes the same game, with the hint setting kept
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        assert page.evaluate("document.body.dataset.gameId") == game_id
        assert int(page.inner_text("#score-you")) == state["scores"]["you"]
        assert page.is_checked("#hint-toggle")
        assert no_horizontal_scroll(page)
        assert problems == []
        context.close()
    assert (shots / "gui-end.png").stat().st_size > 10_000


@pytest.mark.slow
def test_play_whole_game_by_tapping_on_a_phone(browser, tmp_path):
    shots = Path(os.environ.get("HOGSOLVE_SCREENSHOTS", tmp_path))
    with running_server() as (_, port):
        context, page, problems = open_page(browser, port, PHONE)
        assert no_horizontal_scroll(page)
        page.select_option("#first", "bot")
        start_game(page, page.tap)
        assert_controls_usable(page)

        def midgame():
            page.wait_for_timeout(1600)  # both rolls replayed and landed
            assert no_horizontal_scroll(page)
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(shots / "gui-phone.png"), full_page=False)
        play_to_the_end(page, page.tap, dice="4", check_midgame=midgame)
        state = server_state(port, page.evaluate("document.body.dataset.gameId"))
        assert state["winner"] is not None and state["turns"][0]["player"] == "bot"
        assert no_horizontal_scroll(page)
        assert_controls_usable(page)
        page.reload()  # who moves first is remembered
        page.wait_for_selector("body[data-ready='1']")
        assert page.input_value("#first") == "bot"
        assert problems == []
        context.close()


@pytest.mark.slow
def test_errors_are_shown_and_offer_a_new_game(browser):
    with running_server() as (server, port):
        context, page, problems = open_page(browser, port, DESKTOP)
        start_game(page)
        server.api.store.games.clear()  # as if the server restarted
        page.click(".dice-button[data-dice='3']")
        page.wait_for_selector("#error:not([hidden])")
        assert "expired" in page.inner_text("#error-text")
        assert page.locator(".dice-button[data-dice='3']").is_disabled()
        page.click("#error-new-game")
        page.wait_for_selector("#error", state="hidden")
        assert page.inner_text("#status") in ("Your turn", "Your turn: Hog Wild, four-sided dice")
        assert [p for p in problems if "404" not in p] == []
        context.close()


@pytest.mark.slow
def test_keys_roll_but_never_with_ctrl_alt_meta(browser):
    with running_server() as (_, port):
        context, page, _ = open_page(browser, port, DESKTOP)
        start_game(page)
        page.check("#hint-toggle")  # focus stays on the checkbox
        for combo in ("Control+3", "Alt+3", "Meta+3"):
            page.keyboard.press(combo)
        page.wait_for_timeout(400)
        assert page.evaluate("document.body.dataset.turns") == "0"
        page.keyboard.press("3")
        page.wait_for_function(polling=50, expression="Number(document.body.dataset.turns) > 0")
        # the heatmap is readable from the keyboard
        page.focus("#policy-canvas")
        page.keyboard.press("ArrowRight")
        assert "score" in page.inner_text("#cursor-text") and page.is_visible("#tooltip")
        context.close()


def test_page_runs_under_its_own_csp(browser):
    with running_server() as (_, port):
        context, page, problems = open_page(browser, port, {"viewport": {"width": 1280, "height": 800}})
        start_game(page)
        page.click(".dice-button[data-dice='2']")
        page.wait_for_selector("#log li")
        assert problems == [], problems
        context.close()


class EvilPage(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.mark.slow
def test_a_page_from_another_origin_cannot_create_a_game(browser, tmp_path):
    with running_server() as (server, port):
        (tmp_path / "index.html").write_text(f"""<!doctype html><body>
<form id="f" method="POST" action="http://127.0.0.1:{port}/api/games" enctype="text/plain">
<input name='{{"rules":"su18","x":"' value='"}}'></form>
<script>
async function attack() {{
  const target = "http://127.0.0.1:{port}/api/games";
  const body = JSON.stringify({{rules: "su18", first: "you"}});
  for (const options of [
      {{method: "POST", mode: "no-cors", body, headers: {{"Content-Type": "text/plain"}}}},
      {{method: "POST", mode: "no-cors", body}},
      {{method: "POST", mode: "cors", body, headers: {{"Content-Type": "application/json"}}}}]) {{
    try {{ await fetch(target, options); }} catch (e) {{}}
  }}
  document.body.dataset.done = "1";
}}
attack();
</script></body>""")
        evil = ThreadingHTTPServer(("127.0.0.1", 0), partial(EvilPage, directory=str(tmp_path)))
        threading.Thread(target=evil.serve_forever, daemon=True).start()
        try:
            context = browser.new_context()
            page = context.new_page()
            page.goto(f"http://127.0.0.1:{evil.server_address[1]}/")
            page.wait_for_selector("body[data-done='1']")
            with page.expect_navigation():
                page.evaluate("document.getElementById('f').submit()")
            context.close()
        finally:
            evil.shutdown()
            evil.server_close()
        assert len(server.api.store.games) == 0


@pytest.mark.slow
def test_nellers_hog_in_the_page(browser):
    """No 0 button for a ruleset without a zero-dice move, and its hints draw (they used to
    answer 500 and leave every dice button dead)."""
    with running_server() as (_, port):
        context, page, problems = open_page(browser, port, DESKTOP)
        page.select_option("#rules", "hog")
        page.check("#hint-toggle")
        page.select_option("#first", "you")
        start_game(page)
        page.wait_for_function(polling=50,
                               expression="() => !document.querySelector('.dice-button[data-dice=\"5\"]').disabled")
        assert page.is_hidden('.dice-button[data-dice="0"]')
        page.wait_for_function(polling=50,
                               expression="() => document.querySelector('#hint-text').textContent"
                                          ".startsWith('Optimal: roll')")
        assert "roll 0 dice" not in page.text_content("#hint-text")
        assert "0: not allowed" in page.get_attribute("#hint-chart", "aria-label")
        page.click('.dice-button[data-dice="5"]')
        page.wait_for_function(polling=50, expression="() => Number(document.body.dataset.turns) >= 1")
        assert problems == []
        context.close()


# ------------------------------------------------------- defects of issue 24 --

@pytest.mark.slow
def test_semester_default_selects_its_ruleset(browser):
    """`hogsolve gui --rules sp23` came up blank: the select listed base names only."""
    with running_server(default_rules="sp23") as (_, port):
        context, page, problems = open_page(browser, port, DESKTOP)
        assert page.input_value("#rules") == "fa22"
        assert "sp23" in page.inner_text("#rules option[value='fa22']")
        assert page.get_attribute("#policy-canvas", "data-rules") == "fa22"
        # sp22 was offered with no word that optimal play never ends; the page now says so
        page.select_option("#rules", "sp22")
        text = page.text_content("#caveat")
        assert page.is_visible("#caveat") and text.startswith("sp22 has no optimal value") and "(72, 75)" in text
        page.select_option("#rules", "fa22")
        assert page.is_hidden("#caveat")
        start_game(page)
        labels = page.eval_on_selector_all("#rules option", "options => options.map((o) => o.textContent)")
        for semester in ("sp14", "su14", "sp16", "sp23", "su23", "sp24", "su24", "fa24", "su25", "fa25"):
            assert any(label.startswith(f"{semester} (") for label in labels), semester  # each by its own name
        page.select_option("#rules", label="sp24 (fa23's rules)")
        start_game(page)
        assert server_state(port, page.evaluate("document.body.dataset.gameId"))["rules"] == "fa23"
        assert problems == []
        context.close()


@pytest.mark.slow
def test_a_slower_earlier_map_never_covers_the_chosen_one(browser):
    """su20 then fa18 before a game: su20's map arrived last and covered fa18's."""
    with running_server() as (_, port):
        context, page, problems = open_page(browser, port, DESKTOP)
        page.select_option("#rules", "su20")
        page.select_option("#rules", "fa18")
        page.wait_for_timeout(1500)
        assert page.input_value("#rules") == "fa18"
        assert page.get_attribute("#policy-canvas", "data-rules") == "fa18"
        assert page.is_hidden("#memory-choice")
        assert problems == []
        context.close()


@pytest.mark.slow
def test_feral_map_follows_the_game_and_agrees_with_the_hint(browser):
    with running_server() as (_, port):
        context, page, problems = open_page(browser, port, DESKTOP)
        page.select_option("#rules", "fa19")
        page.check("#hint-toggle")
        start_game(page)
        for dice in ("4", "6", "2", "8"):
            page.wait_for_function(polling=50,
                                   expression="() => !document.querySelector('.dice-button[data-dice=\"3\"]').disabled"
                                   " || !document.getElementById('game-over').hidden")
            if not page.is_hidden("#game-over"):
                break
            state = server_state(port, page.evaluate("document.body.dataset.gameId"))
            memory = ",".join(map(str, state["memories"]))
            page.wait_for_function(polling=50,
                                   expression=f"() => document.getElementById('policy-canvas').dataset.memory ==="
                                              f" '{memory}'")
            assert page.is_visible("#memory-choice") and "following the game" in page.inner_text("#memory-note")
            page.wait_for_function(polling=50, expression="() => document.querySelector('.dice-button.best') !== null")
            best = int(page.get_attribute(".dice-button.best", "data-dice"))
            you, bot = state["scores"]["you"], state["scores"]["bot"]
            # the map says what the hint says
            assert page.evaluate(f"hogsolvePage.policy().policy[{you}][{bot}]") == best
            turns = len(state["turns"])
            page.click(f".dice-button[data-dice='{dice}']")
            page.wait_for_function(polling=50, expression=f"Number(document.body.dataset.turns) > {turns}")
        # every turn's gain in the log includes Feral Hogs' bonus ("+1" when it added 4, before)
        state = server_state(port, page.evaluate("document.body.dataset.gameId"))
        for line, turn in zip(page.locator("#log li").all_inner_texts(), state["turns"]):
            assert f"+{turn['points'] + turn['feral_bonus']}" in line
        assert problems == []
        context.close()


@pytest.mark.slow
def test_new_game_waits_for_a_bot_being_prepared(browser, monkeypatch):
    """sp20 took 35 s with no sign and New game stayed enabled (each click another solve)."""
    import time
    from hogsolve.gui import games
    real = games.Bots._load
    loads = []
    monkeypatch.setattr(games.Bots, "_load", lambda self, name: loads.append(name) or
                        time.sleep(4 if name in ("fa18", "fa17") else 0) or real(self, name))
    with running_server() as (_, port):
        context, page, problems = open_page(browser, port, DESKTOP)  # the map's su18 is loaded first
        page.select_option("#rules", "fa18")
        page.wait_for_selector("#progress:not([hidden])")
        assert "Preparing the optimal bot for fa18" in page.inner_text("#progress")
        page.wait_for_selector("#progress", state="hidden", timeout=20_000)
        page.select_option("#rules", "fa17")
        page.click("#new-game")
        page.wait_for_selector("#progress:not([hidden])")
        assert page.is_disabled("#new-game")
        page.wait_for_selector("body[data-game-id]", timeout=20_000)
        page.wait_for_function(polling=50, expression="!document.querySelector('#new-game').disabled", timeout=5_000)
        assert loads.count("fa17") == 1
        assert problems == []
        context.close()


# ------------------------------------------------------------ other families --

def open_at(browser, port, path, options):
    context = browser.new_context(**options)
    page = context.new_page()
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(f"http://127.0.0.1:{port}{path}")
    page.wait_for_selector("body[data-ready='1']")
    return context, page, problems


def play_pig(page, port, act, game="piglet", hold_at=3):
    page.select_option("#rules", game)
    start_game(page, act)
    page.check("#hint-toggle")
    for _ in range(400):
        page.wait_for_function(polling=50, expression="() => !document.getElementById('roll').disabled"
                               " || !document.getElementById('game-over').hidden")
        if not page.is_hidden("#game-over"):
            break
        moves = int(page.evaluate("document.body.dataset.moves"))
        if moves < 3:  # the hint draws (checked on the first moves only, to keep the test short)
            page.wait_for_function(polling=50,
                                   expression="() => document.getElementById('hint-text').textContent"
                                              ".startsWith('Optimal')")
        total = int(page.inner_text("#turn-total"))
        act("#hold" if total >= hold_at else "#roll")
        page.wait_for_function(polling=50, expression=f"Number(document.body.dataset.moves) > {moves}")
    state = server_state(port, page.evaluate("document.body.dataset.gameId"))
    assert state["winner"] is not None
    assert int(page.inner_text("#score-you")) == state["scores"]["you"]
    assert page.locator("#log li").count() == len(state["log"])
    assert page.is_visible("#game-over")


def test_roll_hold_hint_and_map_of_a_roll_or_hold_game(browser):
    """The fast tier's short form of the whole games below: a roll, a hold, the hint, the map."""
    with running_server() as (_, port):
        context, page, problems = open_at(browser, port, "/pig", DESKTOP)
        page.select_option("#rules", "two-dice-pig")
        start_game(page)
        page.check("#hint-toggle")
        page.wait_for_function(polling=50,
                               expression="() => document.getElementById('hint-text').textContent"
                                          ".startsWith('Optimal: roll')")
        assert page.is_disabled("#hold")  # the first roll of a turn is compulsory
        page.click("#roll")
        page.wait_for_function(polling=50, expression="Number(document.body.dataset.moves) > 0")
        state = server_state(port, page.evaluate("document.body.dataset.gameId"))
        assert page.inner_text("#turn-total") == str(state["turn_total"])
        assert page.get_attribute("#policy-canvas", "data-rules") == "two-dice-pig"
        assert problems == []
        context.close()


@pytest.mark.slow
@pytest.mark.parametrize("options", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_whole_roll_or_hold_game(browser, options):
    with running_server() as (_, port):
        context, page, problems = open_at(browser, port, "/pig", options)
        act = page.tap if options.get("has_touch") else page.click
        play_pig(page, port, act)
        assert page.get_attribute("#policy-canvas", "data-rules") == "piglet"
        assert no_horizontal_scroll(page) and problems == []
        context.close()


@pytest.mark.slow
@pytest.mark.parametrize("options", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_pig_at_goal_100_with_its_hold_map(browser, options, tmp_path):
    shots = Path(os.environ.get("HOGSOLVE_SCREENSHOTS", tmp_path))
    with running_server() as (_, port):
        context, page, problems = open_at(browser, port, "/pig", options)
        act = page.tap if options.get("has_touch") else page.click
        play_pig(page, port, act, game="pig", hold_at=25)
        if not options.get("has_touch"):
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(shots / "gui-pig.png"), full_page=True)
        assert no_horizontal_scroll(page) and problems == []
        context.close()


@pytest.mark.slow
@pytest.mark.parametrize("options", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_sibala_rounds_with_their_odds(browser, options):
    with running_server() as (_, port):
        context, page, problems = open_at(browser, port, "/sibala", options)
        act = page.tap if options.get("has_touch") else page.click
        for _ in range(8):
            before = page.evaluate("document.body.dataset.phase")
            rounds = int(page.evaluate("document.body.dataset.rounds"))
            act("#roll")
            page.wait_for_function(polling=50, expression=f"() => document.body.dataset.phase !== '{before}'"
                                   f" || Number(document.body.dataset.rounds) > {rounds}")
            state = server_state(port, page.evaluate("document.body.dataset.gameId"))
            if state["phase"] == "player":
                assert page.inner_text("#odds-win-exact") == state["odds"]["win"]["exact"]
                assert "%" in page.inner_text("#odds-win")
            assert page.inner_text("#rounds") == str(state["rounds"])
        assert "/" in page.inner_text("#edge") and no_horizontal_scroll(page) and problems == []
        context.close()


# ------------------------------------------------------------- two people --

@pytest.mark.slow  # the fast tier plays two seats over the same WebSockets without browsers (test_gui_api)
@pytest.mark.parametrize("most", [300], ids=["whole-game"])
def test_two_browsers_play_each_other_over_the_network_mode(browser, most):
    """Two devices (a desktop and a phone) at one table through the join link and its token,
    a whole game."""
    with running_server(lan=True) as (server, port):
        host = browser.new_context(**DESKTOP)
        guest = browser.new_context(**PHONE)
        problems = []
        stranger = browser.new_context(**DESKTOP)
        assert stranger.new_page().goto(f"http://127.0.0.1:{port}/friend").status == 403  # no token, no page
        stranger.close()
        a, b = host.new_page(), guest.new_page()
        for page in (a, b):
            page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        a.goto(server.url.replace("/?", "/friend?"))
        a.wait_for_selector("body[data-ready='1']")
        a.select_option("#rules", "piglet")
        a.click("#new-game")
        a.wait_for_function(polling=50,
                            expression="() => document.getElementById('share').textContent.includes('#table=')")
        link = a.inner_text("#share")
        assert f"access={server.token}" in link
        b.goto(link)
        b.wait_for_function(polling=50, expression="() => document.body.dataset.seat === '1'")
        a.wait_for_function(polling=50,
                            expression="() => document.getElementById('connection').textContent === 'Your friend is"
                                       " here.'")
        pages = {"0": a, "1": b}
        made = 0
        for _ in range(300):
            if "won" in a.inner_text("#status") or "won" in b.inner_text("#status") or made >= most:
                break
            for seat, page in pages.items():
                if page.inner_text("#status") == "Your turn":
                    moves = int(page.evaluate("document.body.dataset.moves"))
                    page.click("#hold" if int(page.inner_text("#turn-total")) >= 2 else "#roll")
                    made += 1
                    other = pages["1" if seat == "0" else "0"]
                    other.wait_for_function(polling=50, expression=f"Number(document.body.dataset.moves) > {moves}")
        if most >= 300:  # the end reaches the other page over its socket a moment later: wait for both
            for page in (a, b):
                page.wait_for_function(polling=50, timeout=15_000,
                                       expression="() => document.getElementById('status').textContent.includes('won')")
            assert {a.inner_text("#status"), b.inner_text("#status")} == {"You won!", "Your friend won"}
        assert a.inner_text("#score-you") == b.inner_text("#score-bot")
        status, moves = b.inner_text("#status"), b.evaluate("document.body.dataset.moves")
        b.reload()  # the seat survives a reload: same seat, same game
        b.wait_for_function(polling=50, expression="() => document.body.dataset.seat === '1'")
        b.wait_for_function(polling=50, expression=f"() => document.body.dataset.moves === '{moves}'")
        assert b.inner_text("#status") == status
        assert no_horizontal_scroll(b) and problems == []
        host.close()
        guest.close()


# ------------------------------------------------------------ SinbadHogBot --

def hand_of(page):
    return page.evaluate("document.body.dataset.hand").split(",")


@pytest.mark.slow
def test_three_browsers_play_a_room_round_to_hog(browser, tmp_path):
    """Three people (two desktops and a phone) join a room, one types /start, and they trade by
    clicking cards and offers until one holds nine of an item and types hog (the docs' picture
    of a room is the first desktop's page then)."""
    shots = Path(os.environ.get("HOGSOLVE_SCREENSHOTS", tmp_path))
    with running_server(data=tmp_path) as (_, port):
        contexts = [browser.new_context(**options) for options in (DESKTOP, DESKTOP, PHONE)]
        pages, problems = [], []
        for i, context in enumerate(contexts):
            page = context.new_page()
            page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
            page.goto(f"http://127.0.0.1:{port}/sinbad/den")
            page.wait_for_selector("#join:not([hidden])")
            page.fill("#name", f"p{i}")
            page.click("#join button")
            page.wait_for_function(polling=50, expression=f"() => document.body.dataset.seat === 'p{i}'")
            pages.append(page)
        pages[0].wait_for_function(polling=50, expression="() => document.querySelectorAll('#players li').length === 3")
        pages[0].fill("#line", "/start")
        pages[0].press("#line", "Enter")
        for page in pages:
            page.wait_for_function(polling=50,
                                   expression="() => (document.body.dataset.hand || '').split(',').length === 9")
        items = sorted(set(sum((hand_of(p) for p in pages), [])))
        target = {}
        for i, page in sorted(enumerate(pages), key=lambda ip: -max(hand_of(ip[1]).count(x) for x in items)):
            hand = hand_of(page)
            target[i] = max((x for x in items if x not in target.values()), key=hand.count)
        name = {i: f"p{i}" for i in range(3)}
        for _ in range(40):
            hands = {i: hand_of(p) for i, p in enumerate(pages)}
            done = [i for i in hands if hands[i].count(target[i]) == 9]
            if done:
                break
            # P gives Q cards of Q's item; Q pays with cards of one item that is not its own
            p, q = next((p, q) for p in hands for q in hands if p != q and target[q] in hands[p])
            n = min(4, hands[p].count(target[q]))
            pay = [x for x in items if x != target[q] and hands[q].count(x) >= 1]
            pay.sort(key=lambda x: (x != target[p], -hands[q].count(x)))
            item = pay[0]
            n = min(n, hands[q].count(item))
            for pos in [i for i, c in enumerate(hands[p], 1) if c == target[q]][:n]:
                pages[p].click(f"#hand .card[data-position='{pos}']")
            pages[p].click("#offer")
            pages[q].wait_for_selector(f"#offers li[data-player='{name[p]}'] button.take")
            for pos in [i for i, c in enumerate(hands[q], 1) if c == item][:n]:
                pages[q].click(f"#hand .card[data-position='{pos}']")
            before = (",".join(hands[p]), ",".join(hands[q]))
            pages[q].click(f"#offers li[data-player='{name[p]}'] button.take")
            pages[p].wait_for_function(polling=50, expression=f"() => document.body.dataset.hand !== '{before[0]}'")
            pages[q].wait_for_function(polling=50, expression=f"() => document.body.dataset.hand !== '{before[1]}'")
        hands = {i: hand_of(p) for i, p in enumerate(pages)}
        winner = next(i for i in hands if hands[i].count(target[i]) == 9)
        pages[winner].fill("#line", "hog")
        pages[winner].press("#line", "Enter")
        for page in pages:
            page.wait_for_function(polling=50, expression="() => document.body.dataset.roundsOver === '1'")
            assert f"p{winner} says hog" in page.inner_text("#chat")
        pages[1].fill("#line", "<b>nice</b> round")  # a player's HTML is shown as text
        pages[1].press("#line", "Enter")
        pages[0].wait_for_function(polling=50,
                                   expression="() => document.getElementById('chat').textContent"
                                              ".includes('<b>nice</b>')")
        assert pages[0].locator("#chat b").count() == 0
        pages[0].screenshot(path=str(shots / "sinbad-room.png"), full_page=False)
        assert (shots / "sinbad-room.png").stat().st_size > 10_000
        assert no_horizontal_scroll(pages[2]) and problems == []
        for context in contexts:
            context.close()


@pytest.mark.slow
@pytest.mark.parametrize("options", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_room_keeps_its_story_across_reloads_and_lost_connections(browser, options, tmp_path):
    """Zoë joins; her lines and the room's survive a reload; a line typed while the server is
    unreachable stays in the box and is sent after the reconnect; the numbers stay readable."""
    with running_server(data=tmp_path) as (running, port):
        context = browser.new_context(**options)
        page = context.new_page()
        problems = []
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(f"http://127.0.0.1:{port}/sinbad/story")
        page.wait_for_selector("#join:not([hidden])")
        page.fill("#name", "Zoë")
        page.click("#join button")
        page.wait_for_function(polling=50, expression="() => document.body.dataset.seat === 'Zoë'")
        for i in range(120):  # over a hundred lines: three-digit numbers
            page.evaluate(f"() => {{ document.getElementById('line').value = 'line {i}'; }}")
            page.press("#line", "Enter")
            page.wait_for_timeout(55)  # as a person types: under the room's 20 lines a second
        page.wait_for_function(polling=50,
                               expression="() => document.getElementById('chat').textContent.includes('line 119')")
        page.reload()
        page.wait_for_function(polling=50, expression="() => document.body.dataset.seat === 'Zoë'")
        page.wait_for_function(polling=50,
                               expression="() => document.getElementById('chat').textContent.includes('line 119')")
        chat = page.inner_text("#chat")
        assert "line 0" in chat and "welcome to story" in chat
        first = page.locator("#chat li").first.bounding_box()
        chat_box = page.locator("#chat").bounding_box()
        assert first["x"] - chat_box["x"] >= 30  # room for a marker of three digits and its dot
        context.set_offline(True)  # the page cannot reach the server
        page.evaluate("() => hogsolvePage.dropConnection()")
        page.wait_for_function(polling=50,
                               expression="() => document.getElementById('connection').textContent"
                                          ".includes('reconnecting')")
        page.fill("#line", "typed while away")
        page.press("#line", "Enter")
        assert page.input_value("#line") == "typed while away" and "Not connected" in page.inner_text("#notice")
        context.set_offline(False)
        page.wait_for_function(polling=100, timeout=20_000,
                               expression="() => document.getElementById('chat').textContent.includes('Zoë: typed"
                                          " while away')")
        assert page.input_value("#line") == "" and problems == []
        context.close()


@pytest.mark.slow
@pytest.mark.parametrize("options", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_hog_page_names_each_semesters_rules(browser, options):
    """fa23's log and tray show Boar Brawl and Sus Fuss by name, as the engine emits them."""
    with running_server() as (_, port):
        context = browser.new_context(**options)
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{port}/")
        page.wait_for_selector("body[data-ready='1']")
        page.select_option("#rules", "fa23")
        start_game(page)
        seen, moves = "", 0
        while page.is_hidden("#game-over") and moves < 80 and not ("Boar Brawl" in seen and "Sus Fuss" in seen):
            dice = "0" if moves % 2 else "4"
            page.wait_for_function(polling=50,
                                   expression=f"!document.querySelector(\".dice-button[data-dice='{dice}']\").disabled"
                                   " || !document.getElementById('game-over').hidden")
            if not page.is_hidden("#game-over"):
                break
            turns = int(page.evaluate("document.body.dataset.turns"))
            page.click(f".dice-button[data-dice='{dice}']")
            moves += 1
            page.wait_for_function(polling=50, expression=f"Number(document.body.dataset.turns) > {turns}")
            seen = page.inner_text("#log") + page.inner_text("#tray")
        assert "Boar Brawl" in seen and "Sus Fuss" in seen, seen[-500:]
        context.close()


@pytest.mark.slow
@pytest.mark.parametrize("options", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_motion_stays_in_the_tray_or_off_and_focus_lands_on_a_move(browser, options):
    """New game puts focus on the first dice button; dice land inside the tray, never over the
    controls; with prefers-reduced-motion nothing moves at all."""
    with running_server() as (_, port):
        for motion in ("no-preference", "reduce"):
            context = browser.new_context(**options, reduced_motion=motion)
            page = context.new_page()
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_selector("body[data-ready='1']")
            page.select_option("#rules", "su18")
            start_game(page)
            page.wait_for_function(polling=50, expression="() => document.activeElement && "
                                   "document.activeElement.classList.contains('dice-button')")
            turns = int(page.evaluate("document.body.dataset.turns"))
            page.click(".dice-button[data-dice='3']")
            page.wait_for_function(polling=50, expression=f"Number(document.body.dataset.turns) > {turns}")
            names = page.eval_on_selector_all("#tray .die, #tray .tray-row",
                                              "xs => xs.map((x) => getComputedStyle(x).animationName)")
            if motion == "reduce":
                assert set(names) == {"none"}, names
            else:
                assert "land" in names
                assert page.evaluate("getComputedStyle(document.getElementById('tray')).overflow") == "hidden"
            context.close()


@pytest.mark.slow
def test_a_game_lost_to_a_server_restart_is_said_to_have_expired(browser):
    with running_server() as (_, port):
        context, page, problems = open_page(browser, port, DESKTOP)
        page.evaluate("() => localStorage.setItem('hogsolve-game', '0123456789abcdef')")  # a game the server lost
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_function(polling=50, expression="() => document.body.textContent.includes('has expired')")
        context.close()


@pytest.mark.slow
def test_the_friend_page_alone_resumes_the_last_table(browser):
    with running_server() as (_, port):
        context, page, problems = open_page(browser, port, DESKTOP)
        page.goto(f"http://127.0.0.1:{port}/friend")
        page.wait_for_selector("body[data-ready='1']")
        page.select_option("#rules", "piglet")
        page.click("#new-game")
        page.wait_for_function(polling=50, expression="() => location.hash.includes('table=')")
        table = page.evaluate("location.hash")
        page.goto(f"http://127.0.0.1:{port}/friend")  # no link: the page finds its table again
        page.wait_for_function(polling=50,
                               expression=f"() => location.hash === '{table}' && document.body.dataset.seat === '0'")
        context.close()


@pytest.mark.slow
def test_on_a_phone_the_hint_and_the_offers_sit_by_the_controls(browser, tmp_path):
    """375x667: Hog's hint panel comes before the turn log; the room's hand and open offers
    before the chat; nothing scrolls sideways."""
    with running_server(data=tmp_path) as (_, port):
        context, page, problems = open_page(browser, port, PHONE)
        page.check("#hint-toggle")
        start_game(page)
        top = lambda selector: page.locator(selector).bounding_box()["y"]  # noqa: E731
        assert top("#dice-buttons") < top("#hint-toggle") < top("#log")
        assert top("#hint-toggle") - top("#dice-buttons") < 667  # within a screen of the buttons
        assert no_horizontal_scroll(page)
        page.goto(f"http://127.0.0.1:{port}/sinbad/phone")
        page.wait_for_selector("#join:not([hidden])")
        page.fill("#name", "pat")
        page.click("#join button")
        page.wait_for_function(polling=50, expression="() => document.body.dataset.seat === 'pat'")
        assert top("#hand") < top("#offers") < top("#chat") < top("#players")
        assert no_horizontal_scroll(page) and problems == []
        context.close()


# --------------------------------------------------------------------- lab --

@pytest.mark.slow
@pytest.mark.parametrize("options", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_lab_shows_the_figures_a_state_a_game_and_a_broken_save(browser, tmp_path, options):
    """The lab page as a student uses it: the figures as compare prints them, a click on the map,
    a game played out, and a save that fails, then one that mends it."""
    from hogsolve import get_rules
    from hogsolve.gui.lab import Lab
    file = tmp_path / "hog.py"
    file.write_text("def final_strategy(score, opponent_score):\n    return 4 if score < 20 else 2\n")
    lab = Lab(str(file), "final_strategy", get_rules("su18", goal=30))
    with running_server(lab=lab) as (_, port):
        context, page, problems = open_at(browser, port, "/lab", options)
        page.wait_for_function(polling=50,
                               expression="() => document.getElementById('fig-average').textContent !== '–'")
        figures = lab.payload()["figures"]
        assert page.inner_text("#fig-average") == f"{figures['average']:.12f}"
        assert page.inner_text("#fig-first") == f"{figures['first']:.12f}"
        assert page.inner_text("#fig-best") == f"{figures['best_response']:.12f}"
        assert page.locator("#worst tbody tr").count() == len(figures["worst"])
        assert no_horizontal_scroll(page)
        # every column of the costliest states shows, at 1280 px and on a phone (none cut off)
        assert page.evaluate("(() => { const t = document.getElementById('worst'); "
                             "return t.scrollWidth <= t.clientWidth; })()")
        assert page.locator("#worst thead th").all_inner_texts() == ["score", "opp", "rolls", "best", "loss", "reach",
                                                                     "expected"]
        assert page.inner_text("#lab-status").startswith("Run 1 ended at ")
        page.locator("#map-strategy").scroll_into_view_if_needed()  # a click lands only on what is on screen
        box = page.locator("#map-strategy").bounding_box()
        cell = box["width"] * (400 / 454) / 30  # the grid's cells, scaled as the page shows the canvas
        page.mouse.click(box["x"] + box["width"] * 34 / 454 + 12.5 * cell,
                         box["y"] + box["height"] * 22 / 432 + 5.5 * cell)
        page.wait_for_function(polling=50,
                               expression="() => document.getElementById('state-text').textContent.startsWith('State"
                                          " 5, 12')")
        assert "your strategy chooses 4" in page.inner_text("#state-text")
        assert page.locator("#state-actions tr").count() == 12  # a heading and 0..10 dice
        assert no_horizontal_scroll(page)  # a long path in the title wraps
        page.fill("#seed", "7")
        page.click("#play")
        page.wait_for_function(polling=50, expression="() => document.querySelectorAll('#game-log li').length > 0")
        assert page.inner_text("#game-result").endswith("(seed 7)")
        run = int(page.evaluate("document.body.dataset.run"))
        file.write_text("def final_strategy(score, opponent_score):\n    return 11\n")  # a return of 11
        page.wait_for_function(polling=100, timeout=60_000, expression="() => document.body.dataset.stale === '1'")
        assert "11" in page.inner_text("#error-text")
        assert page.inner_text("#fig-average") == f"{figures['average']:.12f}"
        # a slow but good save: the status says it is running (with its seconds) until the figures come
        file.write_text(f"# {tmp_path}: not in the cache of the other page size's run\n"
                        "import time\ntime.sleep(2.5)\ndef final_strategy(score, opponent_score):\n    return 5\n")
        page.wait_for_function(polling=50, timeout=60_000, expression="() => document.body.dataset.running === '1'")
        assert re.match(r"Run \d+ running \(\d+ s\)", page.inner_text("#lab-status"))
        page.wait_for_function(polling=100, timeout=60_000,
                               expression=f"() => Number(document.body.dataset.run) > {run + 1} && document.body"
                                          f".dataset.stale === '0'")
        assert page.is_hidden("#error") and page.inner_text("#fig-average") != f"{figures['average']:.12f}"
        # the state panel follows the new run: the clicked state now shows the new choice
        page.wait_for_function(polling=50, expression="() => document.getElementById('state-text').textContent"
                                                      ".includes('your strategy chooses 5')")
        took = re.search(r"ended at \d\d:\d\d:\d\d \((\d+\.\d) s\)", page.inner_text("#lab-status"))
        assert took and float(took.group(1)) >= 2.4  # the run's own time, its 2.5 s sleep included
        assert problems == []
        context.close()


@pytest.mark.slow
@pytest.mark.parametrize("rules, source", [
    ("su18", "def final_strategy(score, opponent_score):\n    return 4 if score < 20 else 2\n"),
    ("fa19", "def final_strategy(score, opponent_score):\n    return 5 if score < opponent_score else 3\n"),
    ("piglet", "def final_strategy(score, opponent_score, turn_total):\n    return turn_total < 3\n")])
def test_the_lab_shows_what_compare_best_response_and_regret_print(browser, tmp_path, rules, source):
    """su18, a Feral Hogs semester (its memory slices) and a roll-or-hold game, at goal 25: the
    page's figures are the command line's printed digits."""
    import re
    from cli_helpers import run_main
    from hogsolve import resolve
    from hogsolve.gui.lab import Lab
    file = tmp_path / "hog.py"
    file.write_text(source)
    spec = f"{file}:final_strategy"
    printed = run_main("compare", spec, "optimal", "--rules", rules, "--goal", "25").stdout
    first, second, average = re.findall(r"\d\.\d{12}", printed)
    response = json.loads(run_main("best-response", spec, "--rules", rules, "--goal", "25", "--json").stdout)
    worst = json.loads(run_main("regret", spec, "--rules", rules, "--goal", "25", "--top", "10", "--json").stdout)
    lab = Lab(str(file), "final_strategy", resolve(rules, 25)[1])
    with running_server(lab=lab) as (_, port):
        context, page, problems = open_at(browser, port, "/lab", DESKTOP)
        page.wait_for_function(polling=50,
                               expression="() => document.getElementById('fig-average').textContent !== '–'")
        assert [page.inner_text(f"#fig-{k}") for k in ("first", "second", "average")] == [first, second, average]
        assert page.inner_text("#fig-best") == f"{response['win_rate']['average']:.12f}"
        assert page.locator("#worst tbody tr").count() == len(worst["worst_states"])
        cells = page.locator("#worst tbody tr").first.locator("td").all_inner_texts()
        top = worst["worst_states"][0]
        assert cells[:2] == [str(top["score"]), str(top["opponent_score"])]
        # the numbers as `regret` prints them: loss and reach to 6 decimals, the expected loss as 1.234e-03
        assert cells[-3:] == [f"{top['loss']:.6f}", f"{top['reach']:.6f}", f"{top['expected_loss']:.3e}"]
        # what the maps count, the family's own unit (and the memories shown, under Feral Hogs)
        unit = {"su18": "(dice)", "fa19": "(dice, memories 0, 0)", "piglet": "(hold at turn total)"}[rules]
        assert page.inner_text("#map-unit") == unit
        if rules == "fa19":  # the memory slices the policy map offers
            assert page.is_visible("#memory-choice") and page.is_hidden("#unreached")
            page.select_option("#memory-mine", "1")  # it rolls 3 or 5, never 1: this slice is never reached
            page.select_option("#memory-other", "2")
            page.wait_for_function(polling=50, expression="() => document.body.dataset.memory === '1,2'")
            assert page.is_visible("#unreached") and "never reaches memories 1 and 2" in page.inner_text("#unreached")
            assert "no expected loss here" in page.inner_text("#legend") and "e-300" not in page.inner_text("#legend")
        else:
            assert page.is_hidden("#memory-choice")
        # "the CS 61A win rate" names Hog's contest average, not a roll-or-hold game's
        assert page.is_hidden("#cs61a-note") == (rules == "piglet")
        assert problems == []
        context.close()
