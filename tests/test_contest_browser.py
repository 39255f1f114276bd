"""The contest's leaderboard in real headless Chromium: it updates by itself as submissions are
scored, at desktop and phone widths, and takes a table file from the page."""
import json

import numpy as np
import pytest

import hogsolve
from hogsolve.gui.contest import Contest, ContestServer

from test_contest_server import GOAL, call, tables, wait_scored
from test_gui_browser import ARGS, CHROMIUM, open_page, sync_api  # skips this module too where Chromium is missing

# the app's browser tests' sizes, with the page's own CSP kept (they bypass it)
PHONE = {"viewport": {"width": 375, "height": 667}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


@pytest.mark.parametrize("options", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_leaderboard_updates_itself_and_takes_a_table_file(tmp_path, options):
    """Mistakes: a leaderboard that needs a reload to show new entries (no WebSocket push), rows
    that differ from the standings the API gives, a page wider than a phone, a page that breaks
    its own CSP (no inline script), a submission from the page's form not accepted, a past
    contest in the course's format not shown, or a student's page without their figures and maps."""
    game = hogsolve.get_rules("su18", goal=GOAL)
    course = tmp_path / "fa19.json"  # a past contest in the course's published format
    course.write_text(json.dumps({"teams": ["old a", "old b"], "winrate_mat": [[None, 0.6], [0.4, None]]}))
    contest = Contest(tmp_path / "data", game, past=[course])
    tokens = contest.ledger.enrol(["ann", "ben", "cho"])
    boards = tables(3)
    with ContestServer(contest) as server, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        _, page, problems = open_page(browser, server.port, options, ready="#connection:has-text('Live')")
        for name in ("ann", "ben"):
            call(server.port, "/api/submit", {"table": boards[0 if name == "ann" else 1].tolist()},
                 tokens[name])
        standings = wait_scored(server.port, 2)
        page.wait_for_selector("#progress[data-done='1']")
        rows = page.locator("#board tbody tr").all_inner_texts()
        assert [r.split("\t")[1] for r in rows] == [e["name"] for e in standings["entries"]]
        table_file = tmp_path / "mine.json"
        table_file.write_text(json.dumps({"name": "Cho's table", "table": boards[2].tolist()}))
        page.fill("#token", tokens["cho"])
        page.set_input_files("#file", str(table_file))
        page.click("#submit button")
        page.wait_for_selector("#submit-status:has-text('Accepted as Cho')")
        page.wait_for_selector("#progress[data-done='3']", timeout=30_000)
        assert page.locator("#board tbody tr").count() == 3
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert page.locator("#past-board tbody tr").first.inner_text().split("\t")[:3] == ["1", "old a", "1"]
        page.click("#show-matrix")
        page.wait_for_selector("#matrix tr:nth-child(4)")
        page.goto(f"http://127.0.0.1:{server.port}/me")  # the student's own page: figures and the lab's maps
        page.fill("#token", tokens["cho"])
        page.click("#who button")
        page.wait_for_selector("body[data-maps='1']")
        assert page.locator("#entry-name").inner_text() == "Cho's table"
        assert page.locator("#map-unit").inner_text() == "(dice)"  # the family's unit, as the lab shows it
        assert "Against the optimal strategy" in page.locator("#against-optimal").inner_text()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert problems == []
        browser.close()
    assert np.array_equal(contest.ledger.entries()[2]["table"], boards[2])
