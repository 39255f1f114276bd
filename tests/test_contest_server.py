"""hogsolve.gui.contest and ``hogsolve contest``: the course's contest as a server (issue 54),
over real sockets: submissions from the command line and the API, standings equal to ``hogsolve
tournament`` on the same tables, every bad request one 4xx line, and a SIGKILL mid-scoring
that loses nothing."""
from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np
import pytest

import hogsolve
from hogsolve.contest.ledger import Ledger, check_table, token_hash
from hogsolve.gui.contest import Contest, ContestServer

from cli_helpers import run_main

GOAL = 30


def call(port, path, body=None, token=None, headers=None, raw=None):
    """``(status, JSON)`` of one request to the contest on ``port``."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    sent = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {}),
            **(headers or {})}
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, headers=sent,
                                     method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(request, timeout=60) as reply:
            return reply.status, json.loads(reply.read().decode())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read().decode())


def oversized(port, token, declared):
    """The status of a 10 MB submission: declared in Content-Length (the server refuses before
    reading), or chunked (it stops reading past its cap)."""
    import http.client
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.putrequest("POST", "/api/submit")
    connection.putheader("Content-Type", "application/json")
    connection.putheader("Authorization", f"Bearer {token}")
    connection.putheader("Content-Length" if declared else "Transfer-Encoding",
                         str(10 * 1024 * 1024) if declared else "chunked")
    connection.endheaders()
    try:
        if not declared:
            chunk = b"[" * (1024 * 1024)
            for _ in range(10):
                connection.send(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
            connection.send(b"0\r\n\r\n")
        else:
            connection.send(b"[" * 1024)
    except OSError:
        pass  # the server may close before the rest arrives: its answer is what counts
    status = connection.getresponse().status
    connection.close()
    return status


def wait_scored(port, entries, seconds=60):
    """The standings once every pair of ``entries`` entries is scored."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        _, standings = call(port, "/api/standings")
        if len(standings["entries"]) == entries and standings["pairs_done"] == entries * (entries - 1) // 2 \
                and not standings["scoring"]:
            return standings
        time.sleep(0.05)
    raise AssertionError(f"not scored in {seconds} s: {standings}")


def tables(n, seed=3):
    """``n`` student-like su18 tables: more dice when behind, a few random cells."""
    rng = np.random.default_rng(seed)
    s, o = np.indices((GOAL, GOAL))
    out = []
    for k in range(n):
        table = np.clip(4 + (o - s) // (5 + k % 7) + k % 3, 0, 10)
        flips = rng.random((GOAL, GOAL)) < 0.05
        table[flips] = rng.integers(0, 11, size=flips.sum())
        out.append(table.astype(int))
    return out


@pytest.fixture
def contest(tmp_path):
    """A contest of su18 at goal 30 with a roster of six, served on a free port."""
    game = hogsolve.get_rules("su18", goal=GOAL)
    state = Contest(tmp_path / "data", game)
    tokens = state.ledger.enrol([f"s{k}" for k in range(6)])
    state.ledger.set("staff_token_hash", token_hash("staff"))
    with ContestServer(state) as server:
        yield server, tokens


def test_submissions_score_as_the_tournament_does_digit_for_digit(contest):
    """Mistakes: standings that differ from ``hogsolve tournament`` on the same tables (another
    pairing order, a rate from the wrong seat, ties ranked otherwise), a second submission kept
    beside the first instead of replacing it, or identical tables scored apart."""
    server, tokens = contest
    boards = tables(6)
    boards[5] = boards[4]  # two students with the same table: one digest, ranked alike
    for k, table in enumerate(boards[:5]):
        body = {"name": f"team {k}", "table": table.tolist()}
        assert call(server.port, "/api/submit", body, tokens[f"s{k}"])[0] == 202
    status, answer = call(server.port, "/api/submit", {"table": boards[0].tolist()}, tokens["s5"])
    assert status == 202 and answer["name"] == "s5"
    status, _ = call(server.port, "/api/submit", {"name": "team 5", "table": boards[5].tolist()}, tokens["s5"])
    assert status == 202
    standings = wait_scored(server.port, 6)
    names = [f"team {k}" for k in range(6)]
    expected = hogsolve.tournament([hogsolve.Policy(t, server.contest.game) for t in boards],
                                   server.contest.game, names=names)
    assert [(e["rank"], e["name"], e["wins"], e["mean"]) for e in standings["entries"]] == \
        [(r["rank"], r["strategy"], r["wins"], r["mean_win_rate"]) for r in expected.ranking()]
    digests = {e["digest"] for e in server.contest.ledger.entries()}
    assert len(digests) == 5 and len(server.contest.ledger.entries()) == 6
    _, matrix = call(server.port, "/api/matrix")
    assert matrix["teams"] == names and matrix["winrate_mat"][0][0] is None


@pytest.mark.parametrize("body, status, words", [
    ({"table": [[4] * GOAL] * (GOAL - 1)}, 400, "has the shape (30, 30), not (29, 30)"),
    ({"table": [[4] * (GOAL - 1) + [float("nan")]] + [[4] * GOAL] * (GOAL - 1)}, 400, "cell [0, 29] holds NaN"),
    ({"table": [["4"] * GOAL] * GOAL}, 400, 'cell [0, 0] holds "4"'),
    ({"table": [[11] * GOAL] * GOAL}, 400, "from 0 to 10"),
    ({"table": [[4] * GOAL] * GOAL, "name": ["x"] * 10_000}, 400, "a team name is one line"),
    ({"table": [[4] * GOAL] * GOAL, "owner": "s1"}, 400, "holds name and table"),
])
def test_bad_tables_are_one_line_4xx_and_change_nothing(contest, body, status, words):
    """Mistakes: a table with NaN, strings, an out-of-range cell or the wrong shape accepted (or
    a 500), a name list of 10,000 taken, a field that would name another owner obeyed."""
    server, tokens = contest
    raw = json.dumps(body, allow_nan=True).encode()
    got, answer = call(server.port, "/api/submit", token=tokens["s0"], raw=raw)
    assert got == status and words in answer["error"] and "\n" not in answer["error"]
    assert server.contest.ledger.entries() == []


def test_who_may_submit_and_when(contest):
    """Mistakes: a submission without a token, with one off the roster, or from another site's
    page accepted; an oversized body read; a flood not slowed; a frozen contest or one past
    its deadline still taking entries (423); a staff call without the staff token."""
    server, tokens = contest
    good = {"table": [[4] * GOAL] * GOAL}
    assert call(server.port, "/api/submit", good)[0] == 401
    assert call(server.port, "/api/submit", good, "not-a-token")[0] == 403
    assert call(server.port, "/api/submit", good, tokens["s0"], headers={"Origin": "https://evil.example"})[0] == 403
    assert oversized(server.port, tokens["s0"], declared=True) == 413  # said by Content-Length
    assert oversized(server.port, tokens["s0"], declared=False) == 413  # sent in chunks without one
    for _ in range(10):
        assert call(server.port, "/api/submit", good, tokens["s1"])[0] == 202
    assert call(server.port, "/api/submit", good, tokens["s1"])[0] == 429
    assert call(server.port, "/api/staff/freeze", {"frozen": True}, tokens["s0"])[0] == 403
    assert call(server.port, "/api/staff/freeze", {"frozen": True}, "staff")[0] == 200
    status, answer = call(server.port, "/api/submit", good, tokens["s2"])
    assert status == 423 and "frozen" in answer["error"]
    call(server.port, "/api/staff/freeze", {"frozen": False}, "staff")
    server.contest.ledger.set("deadline", repr(time.time() - 1))
    status, answer = call(server.port, "/api/submit", good, tokens["s2"])
    assert status == 423 and "deadline" in answer["error"]
    assert [e["owner"] for e in server.contest.ledger.entries()] == ["s1"]


def test_a_students_page_holds_their_figures_and_nobody_elses(contest):
    """Mistakes: one student's page showing another's entry, or figures other than the exact
    win rate against the optimal strategy; the export's columns other than tournament --out's."""
    server, tokens = contest
    boards = tables(2)
    for k in range(2):
        call(server.port, "/api/submit", {"table": boards[k].tolist()}, tokens[f"s{k}"])
    wait_scored(server.port, 2)
    status, page = call(server.port, "/api/me", token=tokens["s1"])
    rate = hogsolve.win_rate(hogsolve.Policy(boards[1], server.contest.game), "optimal", server.contest.game)
    assert status == 200 and page["owner"] == "s1" and page["entry"]["against_optimal"]["first"] == rate.first
    assert page["entry"]["pairs"][0]["against"] == "s0" and page["entry"]["worst_states"]
    assert call(server.port, "/api/me", token=tokens["s3"])[1]["entry"] is None
    request = urllib.request.Request(f"http://127.0.0.1:{server.port}/api/staff/export.csv",
                                     headers={"Authorization": "Bearer staff"})
    with urllib.request.urlopen(request) as reply:
        rows = list(csv.DictReader(reply.read().decode().splitlines()))
    from hogsolve.contest.entries import COLUMNS
    assert list(rows[0]) == COLUMNS and len(rows) == 1
    request = urllib.request.Request(f"http://127.0.0.1:{server.port}/api/staff/report.html",
                                     headers={"Authorization": "Bearer staff"})
    with urllib.request.urlopen(request) as reply:
        page = reply.read().decode()
    assert page.lower().startswith("<!doctype html>") and "s0" in page and "s1" in page
    assert call(server.port, "/api/staff/report.html", token=tokens["s0"])[0] == 403


def test_check_table_takes_one_table_for_every_memory():
    """Mistake: a Feral Hogs contest refusing the plain 100 x 100 table students submit (the
    course's format), or taking it without spreading it over both memories."""
    game = hogsolve.get_rules("fa19", goal=12)
    table = check_table(game, [[3] * 12] * 12)
    assert table.shape == (12, 12) + game.context_shape and (table == 3).all()


def _serve(data: Path, roster: Path, port: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "hogsolve", "contest", "serve", "--rules", "su18", "--goal",
                             str(GOAL), "--data", str(data), "--roster", str(roster), "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


def _port_of(process: subprocess.Popen) -> int:
    line = process.stdout.readline()
    assert line.startswith("Hog contest (su18, goal 30) at http://127.0.0.1:"), line
    return int(line.rsplit(":", 1)[1].strip("/\n"))


def test_the_command_line_serves_submits_and_survives_a_sigkill_mid_scoring(tmp_path):
    """Mistakes: an acknowledged submission lost by a killed server, a pair recorded twice or
    lost across the restart, tokens.csv not written for the roster, or ``contest submit``
    sending anything but the table its strategy file gives (or a traceback on a refusal)."""
    names = [f"student{k}" for k in range(40)]
    roster = tmp_path / "roster.csv"
    roster.write_text("name\n" + "".join(n + "\n" for n in names))
    data = tmp_path / "data"
    server = _serve(data, roster, 0)
    try:
        port = _port_of(server)
        with open(data / "tokens.csv", newline="") as f:
            tokens = {r["name"]: r["token"] for r in csv.DictReader(f)}
        assert list(tokens) == names and oct(os.stat(data / "tokens.csv").st_mode & 0o777) == "0o600"
        student = tmp_path / "hog.py"
        student.write_text("def final_strategy(score, opponent_score):\n"
                           "    return 5 if score < opponent_score else 3\n")
        done = run_main("contest", "submit", str(student), "--server", f"http://127.0.0.1:{port}",
                        "--token", tokens["student0"], "--name", "Five-Three")
        assert done.returncode == 0, done.stderr
        refused = run_main("contest", "submit", str(student), "--server", f"http://127.0.0.1:{port}",
                           "--token", "wrong")
        assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "403" in refused.stderr
        boards = tables(len(names))
        for k in range(1, len(names)):
            assert call(port, "/api/submit", {"table": boards[k].tolist()}, tokens[names[k]])[0] == 202
        total = len(names) * (len(names) - 1) // 2
        deadline = time.monotonic() + 60
        while True:  # kill it once some pairs, not all, are recorded
            _, standings = call(port, "/api/standings")
            if 0 < standings["pairs_done"] < total or time.monotonic() > deadline:
                break
            time.sleep(0.005)
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=30)
        server.stdout.close()
        killed_at = Ledger(data / "contest.sqlite").scored()
        server = _serve(data, roster, 0)
        port = _port_of(server)
        standings = wait_scored(port, len(names), 120)
        ledger = Ledger(data / "contest.sqlite")
        rows = ledger.db.execute("SELECT COUNT(*), COUNT(DISTINCT a || b) FROM pairs").fetchone()
        assert rows == (total, total) and ledger.scored() == total and 0 < killed_at < total  # killed mid-scoring
        game = hogsolve.get_rules("su18", goal=GOAL)
        first = hogsolve.load_strategy(f"{student}:final_strategy", game).table
        expected = hogsolve.tournament([hogsolve.Policy(first, game)] + [hogsolve.Policy(t, game) for t in boards[1:]],
                                       game, names=["Five-Three"] + names[1:])
        assert [(e["name"], e["wins"], e["mean"]) for e in standings["entries"]] == \
            [(r["strategy"], r["wins"], r["mean_win_rate"]) for r in expected.ranking()]
    finally:
        server.kill()
        server.wait(timeout=30)
        server.stdout.close()
    out = tmp_path / "results.csv"
    exported = run_main("contest", "export", "--data", str(data), "--out", str(out))
    assert exported.returncode == 0, exported.stderr
    assert len(out.read_text().splitlines()) == total + 1


def test_past_contests_from_the_courses_format_and_from_hogsolves(tmp_path):
    """Mistakes: a published leaderboard (teams, winrate_mat) ranked other than by wins above
    the threshold with ties sharing a rank, a tournament --out file read with a seat's rate
    reversed, or a file of neither kind taken silently."""
    from hogsolve.contest.ledger import past_contest
    course = tmp_path / "fa19.json"
    course.write_text(json.dumps({"teams": ["a", "b", "c"],
                                  "winrate_mat": [[None, 0.6, 0.5], [0.4, None, 0.55], [0.5, 0.45, None]]}))
    title, result = past_contest(course)
    ranking = [(r["rank"], r["strategy"], r["wins"]) for r in result.ranking()]
    assert title == "fa19" and ranking == [(1, "a", 1), (1, "b", 1), (3, "c", 0)]
    game = hogsolve.get_rules("su18", goal=GOAL)
    boards = [hogsolve.Policy(t, game) for t in tables(3)]
    out = tmp_path / "results.csv"
    expected = hogsolve.tournament(boards, game, names=["x", "y", "z"])
    from hogsolve.contest.entries import COLUMNS
    with open(out, "w", newline="") as f:
        writer = csv.DictWriter(f, COLUMNS)
        writer.writeheader()
        for i in range(3):
            for j in range(i + 1, 3):
                writer.writerow(dict(zip(COLUMNS, ["su18", GOAL, "xyz"[i], "xyz"[j], "d", "d",
                                                   repr(float(expected.first[i, j])),
                                                   repr(float(1 - expected.first[j, i])), "0"])))
    _, read = past_contest(out)
    assert [(r["strategy"], r["wins"], r["mean_win_rate"]) for r in read.ranking()] == \
        [(r["strategy"], r["wins"], r["mean_win_rate"]) for r in expected.ranking()]
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    with pytest.raises(hogsolve.HogsolveError, match="not a leaderboard file"):
        past_contest(bad)


def test_staff_remove_an_entry_and_the_standings_follow(contest):
    """Mistakes: a removal by a student's token obeyed, a removed entry still ranked, or its
    removal not rescoring the standings."""
    server, tokens = contest
    for k, table in enumerate(tables(3)):
        call(server.port, "/api/submit", {"table": table.tolist()}, tokens[f"s{k}"])
    wait_scored(server.port, 3)
    assert call(server.port, "/api/staff/remove", {"owner": "s1"}, tokens["s0"])[0] == 403
    assert call(server.port, "/api/staff/remove", {"owner": "nobody"}, "staff")[0] == 404
    assert call(server.port, "/api/staff/remove", {"owner": "s1"}, "staff") == (200, {"removed": "s1"})
    standings = wait_scored(server.port, 2)
    assert sorted(e["name"] for e in standings["entries"]) == ["s0", "s2"]


def test_the_contest_listens_on_a_network_only_behind_a_named_https_proxy(tmp_path):
    """Mistake: a contest whose students send their tokens bound to a network address in plain
    HTTP; the command line says why in one line (exit 2)."""
    game = hogsolve.get_rules("su18", goal=GOAL)
    with pytest.raises(hogsolve.HogsolveError, match="--public-name"):
        ContestServer(Contest(tmp_path / "a", game), host="0.0.0.0")
    refused = run_main("contest", "serve", "--rules", "su18", "--data", str(tmp_path / "b"), "--host", "0.0.0.0")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "--public-name" in refused.stderr


def test_a_resubmission_under_the_same_name_is_never_shown_with_the_old_tables_figures(tmp_path):
    """Mistake: the finished round robin shown after a student replaced their table but kept
    their team name (the names match, the tables do not), before the scorer has run again."""
    game = hogsolve.get_rules("su18", goal=GOAL)
    contest = Contest(tmp_path / "data", game)
    tokens = contest.ledger.enrol(["a", "b"])
    boards = tables(3)
    for who, table in (("a", boards[0]), ("b", boards[1])):
        contest.submit(tokens[who], {"name": who, "table": table.tolist()})
    contest.scorer.score()
    before = contest.standings()
    contest.submit(tokens["b"], {"name": "b", "table": boards[2].tolist()})  # the scorer has not run since
    after = contest.standings()
    assert before["pairs_done"] == 1 and after["pairs_done"] == 0
    assert all(e["mean"] is None for e in after["entries"])
    contest.scorer.score()
    expected = hogsolve.tournament([hogsolve.Policy(boards[0], game), hogsolve.Policy(boards[2], game)], game,
                                   names=["a", "b"])
    assert [(e["name"], e["mean"]) for e in contest.standings()["entries"]] == \
        [(r["strategy"], r["mean_win_rate"]) for r in expected.ranking()]
