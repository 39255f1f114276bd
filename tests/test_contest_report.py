"""``hogsolve tournament --report``: one self-contained page a TA can publish."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ENTRIES = {
    "fours.py": "def final_strategy(score, opponent_score):\n    return 4\n",
    "sly<b>&amp;.py": "def final_strategy(score, opponent_score):\n    return 6 if score < 50 else 3\n",
    "broken.py": "def final_strategy(score, opponent_score):\n    return 11\n",
}


def _hogsolve(*args, cwd):
    return subprocess.run([sys.executable, "-m", "hogsolve", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600, env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)})


@pytest.fixture(scope="module")
def contest(tmp_path_factory):
    root = tmp_path_factory.mktemp("contest")
    folder = root / "entries"
    folder.mkdir()
    for name, code in ENTRIES.items():
        (folder / name).write_text(code)
    run = _hogsolve("tournament", "entries", "always_roll:5", "--rules", "su18", "--report", "results.html",
                    "--json", cwd=root)
    assert run.returncode == 0, run.stderr
    return root, json.loads(run.stdout), (root / "results.html").read_text()


def test_the_page_holds_the_standings_the_matrix_and_the_skipped(contest):
    root, record, page = contest
    for row in record["ranking"]:
        assert f'data-value="{row["mean_win_rate"]}"' in page  # every figure, sortable by its value
        for rate in row["win_rates"].values():
            assert f"{rate:.4f}" in page
    assert "broken.py" in page and "returned 11" in page  # skipped, with the reason
    assert "ruleset su18, goal 100" in page and "won above a win rate of 0.5" in page
    assert "sly<b>" not in page and "sly&lt;b&gt;&amp;amp;" in page  # a file name is text


def test_each_entry_against_the_optimum_is_what_compare_prints(contest):
    """Mistakes: the column read from the wrong seat, or against the wrong opponent."""
    root, record, page = contest
    for entry in ("entries/fours.py",):
        spec = entry + (":final_strategy" if entry.endswith(".py") else "")
        run = _hogsolve("compare", spec, "optimal", "--rules", "su18", "--json", cwd=root)
        assert run.returncode == 0, run.stderr
        average = json.loads(run.stdout)["exact"]["average"]
        row = re.search(re.escape(entry) + r'</td>.*?</tr>', page, re.S).group(0)
        assert re.findall(r'data-value="([^"]*)"', row)[-1] == str(average), row


def test_the_page_asks_no_server_for_anything(contest):
    root, record, page = contest
    assert "default-src 'none'" in page
    assert not re.search(r'(src|href)\s*=\s*"(https?:)?//', page)
    assert "<link" not in page and "@import" not in page


def test_a_bad_report_path_is_one_line(tmp_path):
    run = _hogsolve("tournament", "always_roll:4", "always_roll:5", "--report", "out.txt", cwd=tmp_path)
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and "--report must name a .html file" in run.stderr
    assert not (tmp_path / "out.txt").exists()


@pytest.mark.slow
def test_the_page_sorts_and_reads_on_a_phone_from_disk(contest):
    sync_api = pytest.importorskip("playwright.sync_api")
    root, record, page = contest
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"])
        context = browser.new_context(viewport={"width": 375, "height": 667}, is_mobile=True)
        tab = context.new_page()
        requests = []
        tab.on("request", lambda r: requests.append(r.url))
        tab.goto((root / "results.html").as_uri())
        first = lambda: tab.locator("table.standings tbody tr td:nth-child(2)").first.inner_text()  # noqa: E731
        best = max(record["ranking"], key=lambda r: r["mean_win_rate"])["strategy"]
        worst = min(record["ranking"], key=lambda r: r["mean_win_rate"])["strategy"]
        tab.click("table.standings th:nth-child(5) button")  # mean win rate, highest first
        assert first() == best
        tab.click("table.standings th:nth-child(5) button")  # and again: lowest first
        assert first() == worst
        assert tab.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        # every column of the standings shows on the phone, in its short heading (none scrolled away)
        assert tab.evaluate("(() => { const t = document.querySelector('table.standings'); "
                            "return t.scrollWidth <= t.parentElement.clientWidth; })()")
        assert tab.locator("table.standings thead th").all_inner_texts() == ["#", "entry", "W", "L", "mean", "vs opt."]
        assert requests == [(root / "results.html").as_uri()]
        browser.close()


def test_an_exact_tie_is_reported_named_by_folder_and_skipped_once(tmp_path):
    """Two identical entries at the default threshold tie exactly (1/2, settled in fractions).
    Mistakes: the report crashing on the settled rate's JSON text ('1/2'), entries named by their
    paths when --names folder is asked, the title not used, a skipped entry printed twice."""
    from cli_helpers import run_main
    for who, code in (("ann", "return 4"), ("ben", "return 4"), ("cy", "return 11")):
        (tmp_path / "students" / who).mkdir(parents=True)
        (tmp_path / "students" / who / "hog.py").write_text(f"def final_strategy(score, opponent_score):\n    {code}\n")
    (tmp_path / "students" / "ann" / "hog_old.py").write_text("def final_strategy(score, opponent_score):\n"
                                                              "    return 2\n")
    page = tmp_path / "report.html"
    result = run_main("tournament", str(tmp_path / "students"), "always_roll:5", "--rules", "su18", "--goal", "30",
                      "--names", "folder", "--title", "Fall contest", "--report", str(page))
    assert result.returncode == 0, result.stderr
    standings = result.stdout.splitlines()
    rows = {line.split()[1]: line.split()[0] for line in standings[2:5]}
    assert sorted(rows) == ["always_roll:5", "ann", "ben"] and rows["ann"] == rows["ben"] and rows["ann"][0] == "="
    assert "ann vs ben: within rounding of the threshold, settled exactly: 0.500000000000 (exactly 1/2)" in standings
    # a second file beside an entry is left out, not counted as a skipped student
    assert "left out ann/hog_old.py (not a student: ann's entry is another file in its folder)" in result.stdout
    assert result.stdout.count("skipped cy: ") == 1 and "skipped" not in result.stderr
    text = page.read_text()
    assert "5 entries" not in text and "3 entries, 1 skipped" in text and "Other files left out" in text
    assert "<title>Fall contest: su18</title>" in text and "settled exactly at 1/2 = 0.500000000000" in text
    assert "students/ann" not in text and ">ann<" in text
    anonymous = run_main("tournament", str(tmp_path / "students"), "always_roll:5", "--rules", "su18", "--goal", "30",
                         "--names", "anonymous")
    assert "entry 1" in anonymous.stdout and "ann" not in anonymous.stdout and "students" not in anonymous.stdout
