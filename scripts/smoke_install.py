"""Run every verb of an installed hogsolve, as a user would, from outside the source tree.

    VENV/bin/python scripts/smoke_install.py

Uses the ``hogsolve`` command beside the running interpreter (a fresh
virtual environment with the wheel installed, not an editable checkout),
in a temporary folder.  Prints one line per command; exit 1 on any failure.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent
HOGSOLVE = str(Path(sys.executable).parent / "hogsolve")

HELP = [[], ["rules"], ["solve"], ["play"], ["compare"], ["best-response"], ["regret"], ["tournament"],
        ["sweep"], ["gui"], ["lab"], ["plot"], ["sibala"], ["sibala", "compare"], ["sibala", "odds"],
        ["sibala", "hand"], ["sibala", "play"], ["sinbad"], ["sinbad", "tournament"], ["sinbad", "play"],
        ["sinbad", "odds"], ["contest"], ["contest", "serve"], ["contest", "submit"], ["contest", "export"]]

# (arguments, text the output must contain, standard input)
REAL = [
    (["--version"], "hogsolve ", None),
    (["rules"], "su18", None),
    (["solve", "--rules", "su18"], "P(first player wins) = 0.5003550395,", None),  # the digits its bound leaves certain
    (["play", "--seed", "1"], "Quit. Score so far", "h\n4\nq\n"),
    (["compare", "optimal", "always_roll:4"], "average:", None),
    (["solve", "--rules", "fa19"], "P(first player wins) = 0.5225964072,", None),
    (["compare", "optimal", "always_roll:4", "--rules", "fa19"], "average:                   0.824280819883", None),
    (["play", "--rules", "sp20", "--seed", "1"], "Quit. Score so far", "h\n4\nq\n"),
    (["best-response", "always_roll:4", "--out", "br.csv"], "exploitability", None),
    (["regret", "always_roll:4"], "total expected loss", None),
    (["tournament", "optimal", "always_roll:4", "bacon:8:4"], "Round robin", None),
    (["tournament", "students", "optimal", "--strategy-timeout", "5", "--out", "results.csv"],
     "ties count as losses", None),
    (["sweep", "grid.toml", "--out", "sweep.csv"], "4 rulesets from grid.toml", None),
    (["solve", "--rules", "su18", "--exact-ties"], "43 ties settled exactly", None),
    (["solve", "--rules", "two-dice-pig", "--goal", "40"], "proven optimal", None),
    (["plot", "--out", "su18.png"], "wrote su18.png", None),
    (["sibala", "odds"], "Sibala odds", None),
    (["sinbad", "odds"], "Exact deal statistics", None),
]


def run(args, stdin=None, cwd=None):
    return subprocess.run([HOGSOLVE, *args], input=stdin, capture_output=True, text=True, cwd=cwd,
                          timeout=600)


def check(ok: bool, what: str, detail: str = "") -> bool:
    print(f"{'ok  ' if ok else 'FAIL'} {what}" + ("" if ok else f"\n{detail}"), flush=True)
    return ok


def serving(args, cwd: str):
    """``hogsolve ARGS --no-browser --port 0`` started in ``cwd``: the process and the base URL it
    printed (None, with what it said, when it printed none)."""
    proc = subprocess.Popen([HOGSOLVE, *args, "--no-browser", "--port", "0"], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:\d+/", line)
    return proc, (match.group(0) if match else None), line


def gui(cwd: str) -> bool:
    proc, base, line = serving(["gui"], cwd)
    try:
        if base is None:
            return check(False, "gui --no-browser", line + proc.stderr.read())
        with urllib.request.urlopen(base, timeout=30) as page:
            html = page.read().decode()
        with urllib.request.urlopen(base + "api/rulesets", timeout=30) as api:
            default = json.load(api)["default"]
        pages = []
        for path in ("pig", "sibala", "friend", "static/common.js", "static/friend.js"):
            with urllib.request.urlopen(base + path, timeout=30) as page:
                pages.append(page.status)
        policies = []  # from the wheel's tables: answered at once (200), nothing solved (202)
        for name in ("fa19", "two-dice-pig"):
            with urllib.request.urlopen(base + f"api/policy/{name}", timeout=30) as api:
                policies.append(api.status)
        return check("<html" in html.lower() and default == "su18" and pages == [200] * 5 and policies == [200, 200],
                     "gui --no-browser: every page, the API, Feral Hogs' and Two-Dice Pig's policies from the wheel",
                     f"{pages} {policies}")
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def lab(cwd: str) -> bool:
    """``hogsolve lab`` from the wheel: its page, its module and the figures of a student file."""
    (Path(cwd) / "lab.py").write_text("def final_strategy(score, opponent_score):\n    return 4\n")
    proc, base, line = serving(["lab", "lab.py"], cwd)
    try:
        if base is None:
            return check(False, "lab --no-browser", line + proc.stderr.read())
        statuses = []
        for path in ("lab", "static/lab.js", "static/botgame.js", "static/socket.js"):
            with urllib.request.urlopen(base + path, timeout=30) as page:
                statuses.append(page.status)
        with urllib.request.urlopen(base + "api/lab", timeout=60) as api:
            figures = json.load(api)["figures"]
        return check(statuses == [200] * 4 and figures is not None and 0 < figures["average"] < 0.5,
                     "lab --no-browser: the page, its modules and a student file's figures from the wheel",
                     f"{statuses} {figures}")
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def contest(cwd: str) -> bool:
    """``hogsolve contest serve`` from the wheel: a roster's tokens, a file submitted with
    ``contest submit``, the leaderboard page and its module, the standings and the export."""
    (Path(cwd) / "roster.csv").write_text("name\nann\nben\n")
    (Path(cwd) / "ann.py").write_text("def final_strategy(score, opponent_score):\n    return 5\n")
    (Path(cwd) / "ben.py").write_text("def final_strategy(score, opponent_score):\n    return 3\n")
    proc = subprocess.Popen([HOGSOLVE, "contest", "serve", "--rules", "su18", "--goal", "40", "--data", "contest",
                             "--roster", "roster.csv", "--port", "0"], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:\d+/", line)
        if match is None:
            return check(False, "contest serve", line + proc.stderr.read())
        base = match.group(0)
        tokens = dict(row.split(",") for row in (Path(cwd) / "contest" / "tokens.csv").read_text().split()[1:])
        sent = [run(["contest", "submit", f"{who}.py", "--server", base, "--token", tokens[who]], cwd=cwd)
                for who in ("ann", "ben")]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with urllib.request.urlopen(base + "api/standings", timeout=30) as api:
                standings = json.load(api)
            if standings["pairs_done"] == 1 and not standings["scoring"]:
                break
            time.sleep(0.1)
        statuses = []
        for path in ("", "me", "static/contest.js"):
            with urllib.request.urlopen(base + path, timeout=30) as page:
                statuses.append(page.status)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    exported = run(["contest", "export", "--data", "contest", "--out", "pairs.csv"], cwd=cwd)
    return check(all(r.returncode == 0 for r in sent) and standings["pairs_done"] == 1 and statuses == [200] * 3
                 and exported.returncode == 0 and len((Path(cwd) / "pairs.csv").read_text().splitlines()) == 2,
                 "contest serve: tokens, two submissions from files, the leaderboard and the export from the wheel",
                 f"{[r.stderr for r in sent]} {standings} {statuses} {exported.stderr}")


def main() -> int:
    results = []
    with tempfile.TemporaryDirectory() as cwd:
        where = subprocess.run([sys.executable, "-c", "import hogsolve; print(hogsolve.__file__)"],
                               capture_output=True, text=True, cwd=cwd).stdout.strip()
        results.append(check(bool(where) and SOURCE not in Path(where).resolve().parents,
                             f"hogsolve imported from the installed package ({where})"))
        for args in HELP:
            r = run([*args, "--help"], cwd=cwd)
            results.append(check(r.returncode == 0 and "usage:" in r.stdout,
                                 f"hogsolve {' '.join(args + ['--help'])}", r.stderr[-2000:]))
        r = subprocess.run([sys.executable, "-m", "hogsolve", "--help"], capture_output=True, text=True, cwd=cwd)
        results.append(check(r.returncode == 0 and "usage: hogsolve" in r.stdout, "python -m hogsolve --help",
                             r.stderr[-2000:]))
        students = Path(cwd) / "students"  # a contest folder: two strategies and one that loops
        students.mkdir()
        (students / "five.py").write_text("def final_strategy(score, opponent_score):\n    return 5\n")
        (students / "six.py").write_text("def final_strategy(score, opponent_score):\n    return 6\n")
        (students / "loop.py").write_text("def final_strategy(score, opponent_score):\n    while True:\n"
                                          "        pass\n")
        (Path(cwd) / "grid.toml").write_text('base = "fa18"\n[grid]\npig_out = [1, 2]\ngoal = [30, 40]\n')
        for args, expected, stdin in REAL:
            start = time.perf_counter()
            r = run(args, stdin, cwd=cwd)
            took = time.perf_counter() - start
            results.append(check(r.returncode == 0 and expected in r.stdout,
                                 f"hogsolve {' '.join(args)} ({took:.1f} s)",
                                 f"exit {r.returncode}\n{r.stdout[-1000:]}\n{r.stderr[-2000:]}"))
        results.append(check(all((Path(cwd) / name).stat().st_size > 0
                                 for name in ("br.csv", "su18.png", "results.csv", "sweep.csv")),
                             "files written where asked"))
        results.append(gui(cwd))
        results.append(lab(cwd))
        results.append(contest(cwd))
    failed = results.count(False)
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
