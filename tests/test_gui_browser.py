"""End to end in real headless Chromium: play a whole game by clicking."""
import json
import os
import urllib.request
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


def server_state(port, game_id):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games/{game_id}") as response:
        return json.load(response)


def test_play_whole_game_in_chromium(tmp_path):
    shots = Path(os.environ.get("HOGSOLVE_SCREENSHOTS", tmp_path))
    with running_server() as (_, port), sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1300, "height": 1160})
        page.goto(f"http://127.0.0.1:{port}/")
        page.wait_for_selector("body[data-ready='1']")
        page.select_option("#rules", "fa13")
        page.click("#new-game")
        page.wait_for_function("document.body.dataset.gameId !== undefined")
        page.check("#hint-toggle")
        clicks = 0
        while page.is_hidden("#game-over"):
            button = page.locator(".dice-button[data-dice='5']")
            button.wait_for(state="visible")
            page.wait_for_function("!document.querySelector(\".dice-button[data-dice='5']\").disabled"
                                   " || !document.getElementById('game-over').hidden")
            if not page.is_hidden("#game-over"):
                break
            if clicks == 3:
                page.wait_for_function("document.getElementById('hint-text').textContent.startsWith('Optimal')")
                page.hover("#policy-canvas", position={"x": 120, "y": 200})
                page.wait_for_timeout(900)  # let the dice land
                assert page.is_visible("#tooltip") and "roll" in page.inner_text("#tooltip")
                page.screenshot(path=str(shots / "gui-midgame.png"))
            turns = int(page.evaluate("document.body.dataset.turns"))
            button.click()
            clicks += 1
            page.wait_for_function(f"Number(document.body.dataset.turns) > {turns}")
            assert clicks < 200
        game_id = page.evaluate("document.body.dataset.gameId")
        state = server_state(port, game_id)
        assert state["winner"] is not None
        assert int(page.inner_text("#score-you")) == state["scores"]["you"]
        assert int(page.inner_text("#score-bot")) == state["scores"]["bot"]
        assert page.locator("#log li").count() == len(state["turns"])
        assert page.is_visible("#game-over") and " win" in page.inner_text("#game-over-text")
        page.check("#surface-toggle")
        page.wait_for_timeout(900)
        page.screenshot(path=str(shots / "gui-end.png"))
        # reloading resumes the same game
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        assert page.evaluate("document.body.dataset.gameId") == game_id
        assert int(page.inner_text("#score-you")) == state["scores"]["you"]
        browser.close()
    assert (shots / "gui-end.png").stat().st_size > 10_000
