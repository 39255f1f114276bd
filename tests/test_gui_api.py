"""The GUI's JSON API through the standard library's HTTP client."""
import http.client
import json
import threading
import time

import numpy as np
import pytest

from gui_helpers import running_server
from hogsolve.strategy.optimal_bot import optimal_strategy


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
        status, state = request(port, "POST", f"/api/games/{state['id']}/move", {"dice": 4})
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
    status, error = request(port, "POST", f"/api/games/{state['id']}/move", {"dice": 3})
    assert status == 409 and "over" in error["error"]
    assert request(port, "GET", f"/api/games/{state['id']}")[1] == state


def test_bot_first_and_hint(port):
    state = new_game(port, rules="fa13", first="bot", seed=1)
    assert state["turns"][0]["player"] == "bot" and state["to_move"] == "you"
    hog_wild = {"kind": "hog_wild", "name": "Hog Wild", "text": "Hog Wild: 4-sided dice", "sides": 4}
    assert hog_wild in state["turns"][0]["events"]  # 0 + 0 is a multiple of 7
    status, hint = request(port, "GET", f"/api/games/{state['id']}/hint")
    assert status == 200 and len(hint["values"]) == 11
    assert hint["values"][hint["best"]] == max(hint["values"])
    over = new_game(port, rules="su18", first="you", seed=9)
    while over["winner"] is None:
        over = request(port, "POST", f"/api/games/{over['id']}/move", {"dice": 5})[1]
    status, none = request(port, "GET", f"/api/games/{over['id']}/hint")
    assert status == 200 and none["best"] is None and none["winner"] == over["winner"]


def test_policy(port):
    status, data = request(port, "GET", "/api/policy/fa18")
    assert status == 200
    assert np.array_equal(np.array(data["policy"]), optimal_strategy("fa18").table)
    assert request(port, "GET", "/api/policy/nope")[0] == 404


@pytest.mark.parametrize("body, raw, status, words", [
    ({"dice": 11}, None, 400, "whole number from 0 to 10"),
    ({"dice": -1}, None, 400, "whole number from 0 to 10"),
    ({"dice": 2.5}, None, 400, "whole number from 0 to 10"),
    ({"dice": "3"}, None, 400, "whole number from 0 to 10"),
    ({"dice": True}, None, 400, "whole number from 0 to 10"),
    ({}, None, 400, "whole number from 0 to 10"),
    (None, "{not json", 400, "not valid JSON"),
    (None, "[1, 2]", 400, "JSON object"),
    (None, b"\xff\xfe", 400, "not valid JSON"),
])
def test_bad_moves(port, body, raw, status, words):
    state = new_game(port, seed=2)
    got, error = request(port, "POST", f"/api/games/{state['id']}/move", body=body, raw=raw)
    assert got == status and words in error["error"]
    assert request(port, "GET", f"/api/games/{state['id']}")[1] == state  # nothing changed


@pytest.mark.parametrize("method, path, body, status", [
    ("GET", "/api/games/0123456789abcdef", None, 404),
    ("POST", "/api/games/0123456789abcdef/move", {"dice": 1}, 404),
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
    status, body = request(port, "GET", "/static/hog.js")
    assert status == 200 and b"async function" in body


def test_games_do_not_interfere(port):
    a, b = new_game(port, seed=5), new_game(port, seed=5)
    assert a["id"] != b["id"]
    results = {}

    def play(state, dice):
        while state["winner"] is None:
            state = request(port, "POST", f"/api/games/{state['id']}/move", {"dice": dice})[1]
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
        state = request(port, "POST", f"/api/games/{state['id']}/move", {"dice": 3})[1]
    memory = {"you": 0, "bot": 0}
    feral = 0
    for turn in state["turns"]:
        me = turn["player"]
        if me == "bot":
            assert turn["num_dice"] == bot(turn["score"], turn["opponent_score"], memory["bot"], memory["you"])
        feral += turn["feral_bonus"] > 0
        assert (turn["feral_bonus"] == 3) == (abs(turn["num_dice"] - memory[me]) == 2)
        memory[me] = turn["points"]
    assert feral > 0
    status, data = request(port, "GET", f"/api/policy/{rules_name}")
    assert status == 200 and data["memory"] == [0, 0]
    assert np.array_equal(np.array(data["policy"]), bot.table[:, :, 0, 0])


def test_nellers_hog_hints_and_dice_in_the_api(port):
    """Neller's Hog has no zero-dice move: its hint said -inf, which JSON cannot carry (a 500);
    now the forbidden move is null and the game says its least dice count."""
    state = new_game(port, rules="hog", first="you", seed=4)
    assert state["min_dice"] == 1 and state["max_dice"] == 10
    status, hint = request(port, "GET", f"/api/games/{state['id']}/hint")
    assert status == 200 and hint["values"][0] is None
    assert all(0 <= v <= 1 for v in hint["values"][1:]) and hint["best"] >= 1
    status, answer = request(port, "POST", f"/api/games/{state['id']}/move", {"dice": 0})
    assert 400 <= status < 500


def test_a_feral_bots_values_are_solved_once_however_many_ask(monkeypatch):
    """Feral Hogs' values do not ship: many requests at once used to solve them once each."""
    import threading
    import hogsolve.solver.optimal as optimal_solver
    from hogsolve.strategy.optimal_bot import OptimalStrategy
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
    with running_server(default_rules="sp23") as (_, port):
        assert request(port, "GET", "/api/rulesets")[1]["default"] == "fa22"
        status, policy = request(port, "GET", "/api/policy/sp23")
        assert status == 200 and policy["rules"] == "fa22"
        state = new_game(port, rules="SP23", first="you", seed=1)
        assert state["rules"] == "fa22"
        status, error = request(port, "GET", "/api/policy/sp99")
        assert status == 404 and "sp99" in error["error"]


# ---------------------------------------------------------------- every family --

def test_a_whole_pig_game_and_the_bot_holds_where_the_table_says(port):
    from hogsolve.strategy.pig import pig_bot
    bot = pig_bot("pig")
    state = new_game(port, rules="PIG", first="you", seed=11)
    assert state["family"] == "roll-or-hold" and state["rules"] == "pig"
    status, hint = request(port, "GET", f"/api/games/{state['id']}/hint")
    assert status == 200 and hint["best"] == "roll" and hint["hold"] is None  # the first roll is compulsory
    while state["winner"] is None:
        action = "hold" if state["turn_total"] >= 20 else "roll"
        status, state = request(port, "POST", f"/api/games/{state['id']}/move", {"action": action})
        assert status == 200
    scores, total = [0, 0], 0  # replay the log: the bot rolled exactly where its table says
    for entry in state["log"]:
        me = entry["player"]
        if entry["who"] == "bot":
            assert (entry["action"] == "roll") == (total == 0 or bot(scores[me], scores[1 - me], total))
        if entry["action"] == "hold":
            scores[me] += entry["banked"]
            total = 0
        elif entry["outcome"] == "add":
            total += entry["amount"]
        else:
            total = 0
    assert {"you": scores[0], "bot": scores[1]} == state["scores"]
    assert state["win_probability"][-1] == (1.0 if state["winner"] == "you" else 0.0)


@pytest.mark.parametrize("body, words", [({"action": "stay"}, "'roll' or 'hold'"), ({"dice": 3}, "'roll' or 'hold'")])
def test_bad_pig_moves_change_nothing(port, body, words):
    state = new_game(port, rules="piglet", seed=1)
    got, error = request(port, "POST", f"/api/games/{state['id']}/move", body)
    assert got == 400 and words in error["error"]
    got, error = request(port, "POST", f"/api/games/{state['id']}/move", {"action": "hold"})
    assert got == 409 and "roll at least once" in error["error"]
    assert request(port, "GET", f"/api/games/{state['id']}")[1] == state


def test_pig_policy_is_the_shipped_hold_thresholds(port):
    from hogsolve.strategy.pig import pig_bot
    status, data = request(port, "GET", "/api/policy/two-dice-pig")
    assert status == 200 and data["family"] == "roll-or-hold"
    bot = pig_bot("two-dice-pig")
    assert np.array_equal(np.array(data["hold_threshold"]), bot.game.hold_thresholds(bot.policy))


def test_sibala_rounds_with_exact_odds(port):
    from fractions import Fraction
    from hogsolve.sibala.odds import strength_distribution, versus
    from hogsolve.sibala.rules import evaluate
    state = new_game(port, rules="sibala", seed=3)
    assert state["family"] == "sibala" and state["phase"] == "deal" and state["odds"] is None
    balance = 0
    for _ in range(12):
        status, state = request(port, "POST", f"/api/games/{state['id']}/move", {"action": "roll"})
        assert status == 200
        if state["phase"] == "player":  # the odds are the enumeration's against this banker hand
            banker = evaluate(state["banker"]).strength()
            expected = versus(strength_distribution(reroll=True), {banker: Fraction(1)})
            assert Fraction(state["odds"]["win"]["exact"]) == expected.beats
            assert sum(Fraction(state["odds"][k]["exact"]) for k in ("win", "push", "lose")) == 1
        else:
            balance += state["log"][-1]["result"]
            assert state["balance"] == balance
    assert request(port, "GET", "/api/policy/sibala")[0] == 404


def test_every_listed_game_starts(port):
    listing = request(port, "GET", "/api/rulesets")[1]["rulesets"]
    assert {r["family"] for r in listing} == {"hog", "roll-or-hold", "sibala"}
    fa22 = next(r for r in listing if r["name"] == "fa22")
    assert "sp23" in fa22["semesters"]
    for entry in listing:
        deadline = time.monotonic() + 30
        while True:  # 202 "preparing" while a bot loads (a busy machine): ask again, as the page does
            status, state = request(port, "POST", "/api/games", {"rules": entry["name"], "seed": 1})
            if status != 202 or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert status == 201 and state["rules"] == entry["name"], (entry["name"], status, state)


# ----------------------------------------------------------- Feral Hogs' map --

def test_feral_map_follows_the_memories_and_agrees_with_the_hint(port):
    """The map showed the slice where both memories are 0 whatever the game's: at fa19 1-10
    the hint said 8 dice and the map 6. The map now takes the game's memories."""
    bot = optimal_strategy("fa19")
    state = new_game(port, rules="fa19", first="you", seed=5)
    checked = 0
    while state["winner"] is None and checked < 25:
        memory = ",".join(map(str, state["memories"]))
        status, policy = request(port, "GET", f"/api/policy/fa19?memory={memory}")
        status, hint = request(port, "GET", f"/api/games/{state['id']}/hint")
        you, them = state["scores"]["you"], state["scores"]["bot"]
        assert policy["memory"] == state["memories"]
        assert policy["policy"][you][them] == hint["best"] == bot(you, them, *state["memories"])
        checked += 1
        state = request(port, "POST", f"/api/games/{state['id']}/move", {"dice": [2, 5, 8][checked % 3]})[1]
    assert checked >= 10


@pytest.mark.parametrize("query", ["memory=11,0", "memory=a,b", "memory=1", "memory=-1,2"])
def test_bad_memory_slices_are_400(port, query):
    status, error = request(port, "GET", f"/api/policy/fa19?{query}")
    assert status == 400 and "memory" in error["error"]
    assert request(port, "GET", "/api/policy/su18?memory=1,1")[0] == 400


# ------------------------------------------------------ bots being prepared --

def test_a_bot_being_prepared_answers_202_and_is_loaded_once(monkeypatch):
    """A request never waits on a solve: it gets 202 with the time so far and asks again;
    however many ask, the bot is loaded once."""
    import time as clock
    from hogsolve.gui import games
    loads = []
    real = games.Bots._load

    def slow(self, name):
        loads.append(name)
        clock.sleep(1.5)
        return real(self, name)
    monkeypatch.setattr(games.Bots, "_load", slow)
    with running_server() as (_, port):
        answers = []
        asks = [threading.Thread(target=lambda: answers.append(request(port, "POST", "/api/games", {"rules": "fa17"})))
                for _ in range(6)]
        asks.append(threading.Thread(target=lambda: answers.append(request(port, "GET", "/api/policy/fa17"))))
        started = clock.monotonic()
        for ask in asks:
            ask.start()
        for ask in asks:
            ask.join()
        assert clock.monotonic() - started < 1.4  # each waited half a second at most, all at once
        assert len(answers) == 7 and all(status == 202 and body["preparing"] == "fa17" for status, body in answers)
        deadline = clock.monotonic() + 30
        while (answer := request(port, "POST", "/api/games", {"rules": "fa17"}))[0] == 202:
            assert clock.monotonic() < deadline
            clock.sleep(0.2)
        assert answer[0] == 201 and loads == ["fa17"]


# -------------------------------------------------------------- two people --

def ws_url(port, table):
    return f"ws://127.0.0.1:{port}/api/tables/{table}/ws"


def connect(url):
    """A WebSocket client that buffers every message, read or not (its default stops reading
    after 16 unread ones, and then cannot see the server's closing frame)."""
    from websockets.sync.client import connect as open_socket
    return open_socket(url, max_queue=None)


def receive(ws, kind="state", **wanted):
    """The next message of type ``kind`` that has every ``wanted`` field."""
    while True:
        message = json.loads(ws.recv(timeout=10))
        if message["type"] == kind and all(message.get(k) == v for k, v in wanted.items()):
            return message


def test_two_seats_play_hog_over_websockets(port):
    status, host = request(port, "POST", "/api/tables", {"rules": "su18", "seed": 4})
    assert status == 201 and host["seat"] == 0 and "#table=" in host["join"]
    status, guest = request(port, "POST", f"/api/tables/{host['table']}/join", {})
    assert status == 200 and guest["seat"] == 1 and guest["token"] != host["token"]
    status, third = request(port, "POST", f"/api/tables/{host['table']}/join", {})
    assert status == 409 and "taken" in third["error"]
    with connect(ws_url(port, host["table"])) as a, connect(ws_url(port, host["table"])) as b:
        a.send(json.dumps({"token": host["token"]}))
        b.send(json.dumps({"token": guest["token"]}))
        state = receive(a, online=[True, True])
        b.send(json.dumps({"move": 3}))  # not seat 1's turn: refused, nothing changes
        assert "not your turn" in receive(b, "error")["text"]
        for _ in range(100):  # the bot loads in the background: until then a hint says so (best None)
            a.send(json.dumps({"hint": True}))
            hint = receive(a, "hint")
            if hint["best"] is not None:
                break
            time.sleep(0.05)
        assert hint["best"] == optimal_strategy("su18")(0, 0)
        while state["winner"] is None:
            moves = len(state["turns"])
            (a, b)[state["to_move"]].send(json.dumps({"move": 5}))
            state = receive(b)
            while len(state["turns"]) == moves:
                state = receive(b)
        assert max(state["scores"]) >= 100 and state["winner"] in (0, 1)
        assert [t["seat"] for t in state["turns"]][:2] == [0, 1]


def test_a_seat_is_held_by_its_token_only(port):
    host = request(port, "POST", "/api/tables", {"rules": "pig", "seed": 2})[1]
    with connect(ws_url(port, host["table"])) as ws:
        ws.send(json.dumps({"token": "guessed"}))
        assert "not a seat's token" in json.loads(ws.recv(timeout=10))["text"]
    with connect(ws_url(port, "0123456789abcdef")) as ws:
        assert "expired or never existed" in json.loads(ws.recv(timeout=10))["text"]
    guest = request(port, "POST", f"/api/tables/{host['table']}/join", {})[1]
    with connect(ws_url(port, host["table"])) as ws:  # the token resumes the seat, state and all
        ws.send(json.dumps({"token": host["token"]}))
        ws.send(json.dumps({"move": "roll"}))
        state = receive(ws)
        while not state["log"]:
            state = receive(ws)
    with connect(ws_url(port, host["table"])) as ws:
        ws.send(json.dumps({"token": host["token"]}))
        again = receive(ws)
        assert again["you"] == 0 and again["log"] == state["log"] and again["seated"] == [True, True]
    assert guest["seat"] == 1
    assert request(port, "POST", "/api/tables", {"rules": "sibala"})[0] == 400


def test_the_seed_is_told_only_when_the_game_is_over(port):
    """Fair dice: a game's seed predicts every roll, so the page learns it at the end."""
    state = new_game(port, rules="su18", first="you")
    assert "seed" not in state
    status, again = request(port, "GET", f"/api/games/{state['id']}")
    assert status == 200 and "seed" not in again
    while state["winner"] is None:
        status, state = request(port, "POST", f"/api/games/{state['id']}/move", {"dice": 5})
        assert status == 200
        assert ("seed" in state) == (state["winner"] is not None)
    assert isinstance(state["seed"], int)
    chosen = new_game(port, rules="pig", first="you", seed=77)  # a seed the client chose it may see
    assert chosen["seed"] == 77
    sibala = new_game(port, rules="sibala")  # rounds without end: never told
    assert "seed" not in sibala


def test_a_friend_link_on_the_network_names_the_machines_address_not_localhost():
    """Network mode opened locally: the table offers the server's network addresses."""
    from gui_helpers import running_server as serve
    with serve() as (_, local_port):  # on 127.0.0.1 only: no network address to offer
        status, table = request(local_port, "POST", "/api/tables", {"rules": "su18"})
        assert status == 201 and table["lan"] == []
    with serve(host="0.0.0.0", lan=True) as (server, port):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("POST", f"/api/tables?access={server.token}", body=json.dumps({"rules": "su18"}),
                     headers={"Content-Type": "application/json", "Host": f"127.0.0.1:{port}"})
        response = conn.getresponse()
        table = json.loads(response.read())
        conn.close()
        assert response.status == 201, table
        import ipaddress
        from urllib.parse import urlsplit
        if not ipaddress.ip_address(urlsplit(server.url).hostname).is_loopback:
            assert table["lan"]  # the machine has a network address: the link uses it
        for host in table["lan"]:
            address, _, lan_port = host.rpartition(":")
            assert lan_port == str(port) and not ipaddress.ip_address(address.strip("[]")).is_loopback
