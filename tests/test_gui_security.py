"""The GUI server against other web pages and heavy use, tested on a running `hogsolve gui`."""
import http.client
import json
import re
import socket
import subprocess
import sys
import threading
import time

import pytest

from gui_helpers import running_server
from hogsolve.gui.games import GameStore
from hogsolve.gui.server import MAX_CONNECTIONS, finite, make_server


def start_gui():
    """A real `hogsolve gui --no-browser --port 0`: (port, process)."""
    proc = subprocess.Popen([sys.executable, "-m", "hogsolve", "gui", "--no-browser", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    return int(re.search(r"127\.0\.0\.1:(\d+)/", line).group(1)), proc


@pytest.fixture(scope="module")
def gui():
    port, proc = start_gui()
    yield port, proc
    proc.terminate()
    proc.wait(timeout=30)


def raw(port, data: bytes, wait_close=True) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(data)
        chunks = []
        while wait_close:
            chunk = sock.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks)


def ask(port, method, path, body=None, headers=None, host=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    conn.putheader("Host", host or f"127.0.0.1:{port}")
    payload = body.encode() if isinstance(body, str) else body
    for k, v in (headers or {}).items():
        conn.putheader(k, v)
    if payload is not None:
        conn.putheader("Content-Length", str(len(payload)))
    conn.endheaders(payload)
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response, data


JSON = {"Content-Type": "application/json"}
GAME = json.dumps({"rules": "su18", "first": "you", "seed": 1})


def test_foreign_host_is_refused(gui):
    port, _ = gui
    for host in ("evil.example", f"evil.example:{port}", "127.0.0.1", f"localhost:{port + 1}"):
        response, data = ask(port, "GET", "/", host=host)
        assert response.status == 403 and "answers only to" in json.loads(data)["error"]
        response, _ = ask(port, "POST", "/api/games", GAME, JSON, host=host)
        assert response.status == 403
    for host in (f"127.0.0.1:{port}", f"localhost:{port}"):
        response, _ = ask(port, "GET", "/api/rulesets", host=host)
        assert response.status == 200


def test_cross_site_and_simple_requests_are_refused(gui):
    port, _ = gui
    response, data = ask(port, "POST", "/api/games", GAME, {**JSON, "Origin": "http://evil.example"})
    assert response.status == 403 and "evil.example" in json.loads(data)["error"]
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
        headers = {"Content-Type": kind} if kind else {}
        response, _ = ask(port, "POST", "/api/games", GAME, headers)
        assert response.status == 415, kind
    response, _ = ask(port, "POST", "/api/games", GAME, {**JSON, "Origin": f"http://127.0.0.1:{port}"})
    assert response.status == 201
    response, _ = ask(port, "POST", "/api/games", GAME, JSON)  # same-origin tools send no Origin
    assert response.status == 201
    assert response.getheader("Access-Control-Allow-Origin") is None


def test_games_are_capped_and_expire():
    now = [0.0]
    store = GameStore("su18", max_games=5, idle_seconds=100, clock=lambda: now[0])
    ids = [store.create("su18", True, seed=i).id for i in range(8)]
    assert len(store.games) == 5
    for gone in ids[:3]:
        with pytest.raises(Exception, match="expired"):
            store.get(gone)
    store.get(ids[3])            # used now: the newest
    now[0] = 50
    store.get(ids[4])
    now[0] = 120                 # ids 5..7 (used at 0) and id 3 (used at 0) idle past 100 s
    assert store.get(ids[4]).id == ids[4]
    assert set(store.games) == {ids[4]}


def test_expired_game_answers_404_with_a_message():
    with running_server() as (server, port):
        server.RequestHandlerClass.store.max_games = 2
        first = json.loads(ask(port, "POST", "/api/games", GAME, JSON)[1])["id"]
        for _ in range(2):
            ask(port, "POST", "/api/games", GAME, JSON)
        response, data = ask(port, "POST", f"/api/games/{first}/roll", json.dumps({"dice": 3}), JSON)
        assert response.status == 404 and "start a new one" in json.loads(data)["error"]


def test_many_concurrent_requests_all_answered(gui):
    port, _ = gui
    results = []

    def post():
        try:
            results.append(ask(port, "POST", "/api/games", GAME, JSON)[0].status)
        except OSError as exc:
            results.append(repr(exc))
    threads = [threading.Thread(target=post) for _ in range(200)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count(201) == 200, [r for r in results if r != 201][:5]


@pytest.fixture()
def quick_server():
    """A server whose read timeout is 1 s, so that the test waits less."""
    server = make_server(0, read_timeout=1.0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def test_slow_and_lying_clients_do_not_hold_the_server(quick_server):
    port, timeout = quick_server, 1.0
    idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(2 * MAX_CONNECTIONS)]
    liar = socket.create_connection(("127.0.0.1", port))
    liar.sendall(f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                 f"Content-Length: 500\r\n\r\n{{\"rules\"".encode())
    try:
        start = time.monotonic()
        response, _ = ask(port, "GET", "/api/rulesets")
        assert response.status == 200
        assert time.monotonic() - start < 4 * timeout + 5
        liar.settimeout(timeout + 10)
        answer = liar.recv(4096)  # the read timeout closes it
        assert answer == b"" or b"400" in answer
    finally:
        for sock in idle + [liar]:
            sock.close()


def test_bad_input_never_gives_5xx(gui):
    port, _ = gui
    cases = [("GET", "/" + "a" * 256, None), ("GET", "/static/" + "b" * 4000, None),
             ("GET", "/api/games/" + "f" * 300, None), ("POST", "/api/games", "[" * 30000 + "]" * 30000),
             ("POST", "/api/games", "{\"rules\": NaN}"), ("POST", "/api/games", "\xff\xfe"),
             ("PATCH", "/api/games", "{}"), ("DELETE", "/", None), ("PUT", "/api/rulesets", "{}")]
    for method, path, body in cases:
        response, data = ask(port, method, path, body, JSON if body is not None else None)
        assert 400 <= response.status < 500, (method, path[:30], response.status)
        assert "error" in json.loads(data)
    answer = raw(port, b"BREW /pot HTTP/1.1\r\nHost: x\r\n\r\n")
    assert answer.startswith(b"HTTP/1.0 405") and b"<html" not in answer.lower()
    answer = raw(port, b"GARBAGE\r\n\r\n")
    assert b" 400 " in answer.split(b"\r\n")[0] and b"application/json" in answer


def test_a_client_that_leaves_early_costs_one_line():
    port, proc = start_gui()
    for _ in range(3):
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.sendall(f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                         f"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{".encode())
    ask(port, "GET", "/api/rulesets")  # still serving
    proc.terminate()
    proc.wait(timeout=30)
    err = proc.stderr.read()
    assert "Traceback" not in err
    assert err.count("\n") <= 3  # at most one line per client that left


def test_security_headers_and_methods(gui):
    port, _ = gui
    response, _ = ask(port, "GET", "/")
    assert "default-src 'self'" in response.getheader("Content-Security-Policy")
    assert "frame-ancestors 'none'" in response.getheader("Content-Security-Policy")
    assert response.getheader("X-Content-Type-Options") == "nosniff"
    assert response.getheader("Server") == "hogsolve"
    response, data = ask(port, "DELETE", "/api/games")
    assert response.status == 405 and response.getheader("Allow") == "POST, OPTIONS"
    response, data = ask(port, "OPTIONS", "/api/games")
    assert response.status == 200 and json.loads(data) == {"allow": ["POST", "OPTIONS"]}
    assert response.getheader("Access-Control-Allow-Origin") is None
    response, data = ask(port, "HEAD", "/api/rulesets")
    assert response.status == 200 and data == b"" and response.getheader("Content-Type") == "application/json"
    response, data = ask(port, "PATCH", "/")
    assert response.status == 405 and json.loads(data)["error"]
    response, data = ask(port, "GET", "/favicon.ico")
    assert response.status == 200 and response.getheader("Content-Type") == "image/svg+xml"


def test_nan_never_reaches_the_page():
    assert finite(float("nan")) is None and finite(float("inf")) is None and finite(0.25) == 0.25
    server = make_server(0)
    store = server.RequestHandlerClass.store
    bot = store.bot("su18")
    bot.win_probability = bot.win_probability.copy()
    bot.win_probability[3, 4] = float("nan")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        port = server.server_address[1]
        _, data = ask(port, "GET", "/api/policy/su18")

        def refuse(name):
            raise AssertionError(f"non-standard JSON constant {name}")
        payload = json.loads(data, parse_constant=refuse)
        assert payload["win_probability"][3][4] is None
    finally:
        server.shutdown()
        server.server_close()
