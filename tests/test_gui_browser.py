"""End to end in real headless Chromium: whole games by clicking and by tapping on a phone."""
import json
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


def open_page(browser, port, options):
    context = browser.new_context(**options)
    page = context.new_page()
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(f"http://127.0.0.1:{port}/")
    page.wait_for_selector("body[data-ready='1']")
    return context, page, problems


def start_game(page, act=None):
    """Press New game (click, or ``act`` such as a tap) and wait until the game is on the page."""
    (act or page.click)("#new-game")
    page.wait_for_selector("body[data-game-id]")


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


def play_to_the_end(page, act, dice="5", check_midgame=None):
    moves = 0
    while page.is_hidden("#game-over"):
        page.wait_for_function(f"!document.querySelector(\".dice-button[data-dice='{dice}']\").disabled"
                               " || !document.getElementById('game-over').hidden")
        if not page.is_hidden("#game-over"):
            break
        if check_midgame and moves == 3:
            check_midgame()
        turns = int(page.evaluate("document.body.dataset.turns"))
        act(f".dice-button[data-dice='{dice}']")
        moves += 1
        page.wait_for_function(f"Number(document.body.dataset.turns) > {turns}")
        assert moves < 200
    return moves


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
            page.wait_for_function("document.getElementById('hint-text').textContent.startsWith('Optimal')")
            assert "0.00" in page.inner_html("#hint-chart") and "1.00" in page.inner_html("#hint-chart")
            page.hover("#policy-canvas", position={"x": 150, "y": 200})
            page.wait_for_timeout(900)  # let the dice land
            assert page.is_visible("#tooltip") and "roll" in page.inner_text("#tooltip")
            tip, window = page.locator("#tooltip").bounding_box(), page.evaluate("window.innerWidth")
            assert tip["x"] + tip["width"] <= window
            assert "rolled" in page.get_attribute("#tray", "aria-label")
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
        server.RequestHandlerClass.store.games.clear()  # as if the server restarted
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
        page.wait_for_function("Number(document.body.dataset.turns) > 0")
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
        assert len(server.RequestHandlerClass.store.games) == 0


def test_nellers_hog_in_the_page(browser):
    """No 0 button for a ruleset without a zero-dice move, and its hints draw (they used to
    answer 500 and leave every dice button dead)."""
    with running_server() as (_, port):
        context, page, problems = open_page(browser, port, DESKTOP)
        page.select_option("#rules", "hog")
        page.check("#hint-toggle")
        page.select_option("#first", "you")
        start_game(page)
        page.wait_for_function("() => !document.querySelector('.dice-button[data-dice=\"5\"]').disabled")
        assert page.is_disabled('.dice-button[data-dice="0"]')
        page.wait_for_function("() => document.querySelector('#hint-text').textContent.startsWith('Optimal: roll')")
        assert "roll 0 dice" not in page.text_content("#hint-text")
        assert "0: not allowed" in page.get_attribute("#hint-chart", "aria-label")
        page.click('.dice-button[data-dice="5"]')
        page.wait_for_function("() => Number(document.body.dataset.turns) >= 1")
        assert problems == []
        context.close()


def test_sp22_says_it_has_no_value(browser):
    """sp22 was offered with no word that optimal play never ends; the page now says so."""
    with running_server() as (_, port):
        context, page, problems = open_page(browser, port, DESKTOP)
        page.select_option("#rules", "sp22")
        assert page.is_visible("#caveat")
        text = page.text_content("#caveat")
        assert text.startswith("sp22 has no optimal value") and "(72, 75)" in text
        page.select_option("#rules", "su18")
        assert page.is_hidden("#caveat")
        assert problems == []
        context.close()
