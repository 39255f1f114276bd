"""The GUI's JSON API through the standard library's HTTP client."""
import http.client
import json
import threading

import numpy as np
import pytest

from gui_helpers import running_server
from hogsolve.strategy.optimal import optimal_strategy


@pytest.fixture(scope="module")
def port():
    with running_server() as (_, port):
        yield port


def request(port, method, path, body=None, raw=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    payload = raw if raw is not None else (json.dumps(body) if body is not None else None)
    conn.request(method, path, body=payload, headers=headers or {"Content-Type": "application/json"})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    kind = response.getheader("Content-Type", "")
    return response.status, (json.loads(data) if kind.startswith("application/json") else data)


def new_game(port, **body):
    status, state = request(port, "POST", "/api/games", body)
    assert status == 201, state
    return state


def test_play_a_whole_game_and_the_bot_plays_optimally(port):
    state = new_game(port, rules="su18", first="you", seed=9)
    bot = optimal_strategy("su18")
    while state["winner"] is None:
        assert state["to_move"] == "you"
        status, state = request(port, "POST", f"/api/games/{state['id']}/roll", {"dice": 4})
        assert status == 200
    scores = {"you": 0, "bot": 0}
    for turn in state["turns"]:
        me, other = turn["player"], "bot" if turn["player"] == "you" else "you"
        assert (turn["score"], turn["opponent_score"]) == (scores[me], scores[other])
        if me == "bot":
            assert turn["num_dice"] == bot(scores["bot"], scores["you"])
        else:
            assert turn["num_dice"] == 4
        scores[me], scores[other] = turn["new_score"], turn["new_opponent_score"]
        assert turn["scores"] == scores
    assert scores == state["scores"] and max(scores.values()) >= 100
    assert state["winner"] == ("you" if scores["you"] >= 100 else "bot")
    assert len(state["win_probability"]) == len(state["turns"]) + 1
    assert state["win_probability"][-1] == (1.0 if state["winner"] == "you" else 0.0)
    # after the end: moves are refused, the state stays
    status, error = request(port, "POST", f"/api/games/{state['id']}/roll", {"dice": 3})
    assert status == 409 and "over" in error["error"]
    assert request(port, "GET", f"/api/games/{state['id']}")[1] == state


def test_bot_first_and_hint(port):
    state = new_game(port, rules="fa13", first="bot", seed=1)
    assert state["turns"][0]["player"] == "bot" and state["to_move"] == "you"
    assert {"kind": "hog_wild", "sides": 4} in state["turns"][0]["events"]  # 0 + 0 is a multiple of 7
    status, hint = request(port, "GET", f"/api/games/{state['id']}/hint")
    assert status == 200 and len(hint["values"]) == 11
    assert hint["values"][hint["best"]] == max(hint["values"])
    over = new_game(port, rules="su18", first="you", seed=9)
    while over["winner"] is None:
        over = request(port, "POST", f"/api/games/{over['id']}/roll", {"dice": 5})[1]
    status, none = request(port, "GET", f"/api/games/{over['id']}/hint")
    assert status == 200 and none["best"] is None and none["winner"] == over["winner"]


def test_policy(port):
    status, data = request(port, "GET", "/api/policy/fa18")
    assert status == 200
    assert np.array_equal(np.array(data["policy"]), optimal_strategy("fa18").table)
    assert request(port, "GET", "/api/policy/nope")[0] == 404


@pytest.mark.parametrize("body, raw, status, words", [
    ({"dice": 11}, None, 400, "integer from 0 to 10"),
    ({"dice": -1}, None, 400, "integer from 0 to 10"),
    ({"dice": 2.5}, None, 400, "integer from 0 to 10"),
    ({"dice": "3"}, None, 400, "integer from 0 to 10"),
    ({"dice": True}, None, 400, "integer from 0 to 10"),
    ({}, None, 400, "integer from 0 to 10"),
    (None, "{not json", 400, "not valid JSON"),
    (None, "[1, 2]", 400, "JSON object"),
    (None, b"\xff\xfe", 400, "not valid JSON"),
])
def test_bad_moves(port, body, raw, status, words):
    state = new_game(port, seed=2)
    got, error = request(port, "POST", f"/api/games/{state['id']}/roll", body=body, raw=raw)
    assert got == status and words in error["error"]
    assert request(port, "GET", f"/api/games/{state['id']}")[1] == state  # nothing changed


@pytest.mark.parametrize("method, path, body, status", [
    ("GET", "/api/games/0123456789abcdef", None, 404),
    ("POST", "/api/games/0123456789abcdef/roll", {"dice": 1}, 404),
    ("GET", "/api/nothing", None, 404),
    ("GET", "/nothing.html", None, 404),
    ("DELETE", "/api/games", None, 405),
    ("GET", "/api/games", None, 405),
    ("POST", "/api/games", {"rules": "sp99"}, 400),
    ("POST", "/api/games", {"first": "both"}, 400),
    ("POST", "/api/games", {"seed": -4}, 400),
])
def test_errors_are_json_4xx(port, method, path, body, status):
    got, data = request(port, method, path, body)
    assert got == status and isinstance(data, dict) and data["error"]


def test_too_large_body(port):
    got, data = request(port, "POST", "/api/games", raw="x" * 70000)
    assert got == 413


@pytest.mark.parametrize("path", [
    "/../hogsolve/gui/server.py", "/static/../server.py", "/static/..%2fserver.py",
    "/static/%2e%2e/server.py", "/%2e%2e/%2e%2e/README.md", "/static//etc/passwd",
    "/static/%2fetc%2fpasswd", "//etc/passwd", "/static/..\\server.py", "/static/%00",
])
def test_no_file_outside_static(port, path):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.putrequest("GET", path, skip_accept_encoding=True)
    conn.endheaders()
    response = conn.getresponse()
    body = response.read()
    assert response.status == 404
    assert b"import" not in body and b"root:" not in body


def test_static_files(port):
    status, body = request(port, "GET", "/")
    assert status == 200 and b"hogsolve" in body
    status, body = request(port, "GET", "/static/app.js")
    assert status == 200 and b"async function" in body


def test_games_do_not_interfere(port):
    a, b = new_game(port, seed=5), new_game(port, seed=5)
    assert a["id"] != b["id"]
    results = {}

    def play(state, dice):
        while state["winner"] is None:
            state = request(port, "POST", f"/api/games/{state['id']}/roll", {"dice": dice})[1]
        results[state["id"]] = state

    threads = [threading.Thread(target=play, args=(a, 3)), threading.Thread(target=play, args=(b, 7))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert {t["num_dice"] for t in results[a["id"]]["turns"] if t["player"] == "you"} == {3}
    assert {t["num_dice"] for t in results[b["id"]]["turns"] if t["player"] == "you"} == {7}


@pytest.mark.slow
def test_feral_hogs_game_in_the_browser_api(port):
    """sp20 over HTTP: the bot's moves follow both players' memories (the points each scored
    on their previous turn), hints are the bot's action values there, and the policy view is
    the slice where neither player remembers anything."""
    rules_name = "sp20"
    bot = optimal_strategy(rules_name)
    state = new_game(port, rules=rules_name, first="you", seed=3)
    status, hint = request(port, "GET", f"/api/games/{state['id']}/hint")
    assert status == 200 and hint["best"] == bot(0, 0, 0, 0)
    assert hint["values"] == pytest.approx(list(bot.action_values[0, 0, 0, 0]), abs=1e-6)  # shown to 6 places
    while state["winner"] is None:
        state = request(port, "POST", f"/api/games/{state['id']}/roll", {"dice": 3})[1]
    memory = {"you": 0, "bot": 0}
    feral = 0
    for turn in state["turns"]:
        me, other = turn["player"], "bot" if turn["player"] == "you" else "you"
        if me == "bot":
            assert turn["num_dice"] == bot(turn["score"], turn["opponent_score"], memory["bot"], memory["you"])
        feral += turn["feral_bonus"] > 0
        assert (turn["feral_bonus"] == 3) == (abs(turn["num_dice"] - memory[me]) == 2)
        memory[me] = turn["points"]
    assert feral > 0
    status, data = request(port, "GET", f"/api/policy/{rules_name}")
    assert status == 200 and data["memories"] == "both 0"
    assert np.array_equal(np.array(data["policy"]), bot.table[:, :, 0, 0])


def test_nellers_hog_hints_and_dice_in_the_api(port):
    """Neller's Hog has no zero-dice move: its hint said -inf, which JSON cannot carry (a 500);
    now the forbidden move is null and the game says its least dice count."""
    state = new_game(port, rules="hog", first="you", seed=4)
    assert state["min_dice"] == 1 and state["max_dice"] == 10
    status, hint = request(port, "GET", f"/api/games/{state['id']}/hint")
    assert status == 200 and hint["values"][0] is None
    assert all(0 <= v <= 1 for v in hint["values"][1:]) and hint["best"] >= 1
    status, answer = request(port, "POST", f"/api/games/{state['id']}/roll", {"dice": 0})
    assert 400 <= status < 500


def test_a_feral_bots_values_are_solved_once_however_many_ask(monkeypatch):
    """Feral Hogs' values do not ship: many requests at once used to solve them once each."""
    import threading
    import hogsolve.solver.optimal as optimal_solver
    from hogsolve.strategy.optimal import OptimalStrategy
    from hogsolve import get_rules
    rules = get_rules("fa19", goal=20)
    calls = []
    real = optimal_solver.solve
    monkeypatch.setattr(optimal_solver, "solve", lambda r, *a, **k: calls.append(r) or real(r, *a, **k))
    table = real(rules).policy
    bot = OptimalStrategy(rules, None, {"policy.npy": table})
    threads = [threading.Thread(target=lambda: bot.win_probability) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(calls) == 1 and bot.action_values.shape == (20, 20) + rules.context_shape + (11,)


def test_semester_names_reach_the_page():
    """`hogsolve gui --rules sp23` came up blank: the page lists base names only, and
    /api/policy/sp23 was 404. A semester (in any case) is the ruleset it names."""
    from gui_helpers import running_server
    from hogsolve.gui.server import make_server
    server = make_server(0, "sp23")
    assert server.RequestHandlerClass.store.default_rules == "fa22"
    server.server_close()
    with running_server() as (_, port):
        status, policy = request(port, "GET", "/api/policy/sp23")
        assert status == 200 and policy["rules"] == "fa22"
        state = new_game(port, rules="SP23", first="you", seed=1)
        assert state["rules"] == "fa22"
        status, error = request(port, "GET", "/api/policy/sp99")
        assert status == 404 and "sp99" in error["error"]
