"""The web app against other web pages, slow or flooding clients and bad input, over real sockets."""
import http.client
import json
import re
import socket
import subprocess
import sys
import threading
import time

import pytest
from websockets.exceptions import ConnectionClosedError, InvalidStatus
from websockets.sync.client import connect

from gui_helpers import running_server
from hogsolve.gui.games import Bots, Catalog, GameStore, finite
from hogsolve.gui.guard import Access


def start_gui(*args):
    """A real `hogsolve gui --no-browser --port 0 ...`: (port, process, first line)."""
    proc = subprocess.Popen([sys.executable, "-m", "hogsolve", "gui", "--no-browser", "--port", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    return int(re.search(r":(\d+)/", line).group(1)), proc, line


@pytest.fixture(scope="module")
def gui():
    port, proc, _ = start_gui()
    yield port, proc
    proc.terminate()
    proc.wait(timeout=30)


def raw(port, data: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(data)
        chunks = []
        while True:
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
    """DNS rebinding: a page of evil.example whose name now points at 127.0.0.1."""
    port, _ = gui
    for host in ("evil.example", f"evil.example:{port}", "127.0.0.1", f"localhost:{port + 1}"):
        response, data = ask(port, "GET", "/", host=host)
        assert response.status == 403 and "answers only to" in json.loads(data)["error"]
        response, _ = ask(port, "POST", "/api/games", GAME, JSON, host=host)
        assert response.status == 403
    for host in (f"127.0.0.1:{port}", f"localhost:{port}"):
        response, _ = ask(port, "GET", "/api/rulesets", host=host)
        assert response.status == 200


def test_port_80_answers_hosts_without_the_port():
    """Browsers leave ':80' out of Host; the old server answered 403 to everything on port 80."""
    access = Access.for_addresses(["127.0.0.1", "localhost"], 80)
    assert {"127.0.0.1", "localhost", "127.0.0.1:80"} <= set(access.hosts)
    assert "http://127.0.0.1" in access.origins
    assert "127.0.0.1" not in Access.for_addresses(["127.0.0.1"], 8061).hosts
    try:
        server = running_server(port=80)
        server.__enter__()
    except OSError:
        pytest.skip("cannot bind port 80 here")
    try:
        response, _ = ask(80, "GET", "/api/rulesets", host="127.0.0.1")
        assert response.status == 200
    finally:
        server.__exit__(None, None, None)


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


def test_another_sites_images_start_no_work(gui):
    """<img src=".../api/policy/fa19"> on another site: the browser says Sec-Fetch-Site:
    cross-site (and may send no Origin); the API refuses it before any work."""
    port, _ = gui
    for headers in ({"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"},
                    {"Origin": "http://evil.example"}):
        response, data = ask(port, "GET", "/api/policy/fa19", headers=headers)
        assert response.status == 403, headers
    for headers in ({}, {"Sec-Fetch-Site": "same-origin"}, {"Sec-Fetch-Site": "none"}):
        assert ask(port, "GET", "/api/policy/su18", headers=headers)[0].status == 200
    assert ask(port, "GET", "/", headers={"Sec-Fetch-Site": "cross-site"})[0].status == 200  # a link to the page


def test_cross_site_websocket_hijacking_is_refused():
    with running_server() as (server, port):
        table = json.loads(ask(port, "POST", "/api/tables", json.dumps({"rules": "su18"}), JSON)[1])
        url = f"ws://127.0.0.1:{port}/api/tables/{table['table']}/ws"
        with pytest.raises(InvalidStatus) as refused:
            connect(url, origin="http://evil.example")
        assert refused.value.response.status_code == 403
        with pytest.raises(InvalidStatus):
            connect(url, additional_headers={"Host": "evil.example"})
        with connect(url, origin=f"http://127.0.0.1:{port}") as ws:
            ws.send(json.dumps({"token": table["token"]}))
            assert json.loads(ws.recv(timeout=10))["type"] == "state"


def test_websocket_messages_are_capped():
    with running_server() as (_, port):
        table = json.loads(ask(port, "POST", "/api/tables", json.dumps({"rules": "pig"}), JSON)[1])
        with connect(f"ws://127.0.0.1:{port}/api/tables/{table['table']}/ws") as ws:
            ws.send(json.dumps({"token": table["token"]}))
            ws.recv(timeout=10)
            ws.send("x" * 100_000)
            with pytest.raises(ConnectionClosedError):
                while True:
                    ws.recv(timeout=10)
            assert ws.close_code == 1009  # message too big
        assert ask(port, "GET", "/api/rulesets")[0].status == 200


def test_the_network_mode_needs_the_join_links_token():
    with running_server(lan=True) as (server, port):
        assert server.token and f"?access={server.token}" in server.url
        response, data = ask(port, "GET", "/")
        assert response.status == 403 and "join link" in json.loads(data)["error"]
        assert ask(port, "GET", "/api/rulesets?access=wrong")[0].status == 403
        response, _ = ask(port, "GET", f"/?access={server.token}")
        assert response.status == 303 and response.getheader("Location") == "/"
        cookie = response.getheader("Set-Cookie")
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
        response, _ = ask(port, "GET", "/api/rulesets", headers={"Cookie": cookie.split(";")[0]})
        assert response.status == 200
        with pytest.raises(InvalidStatus):
            connect(f"ws://127.0.0.1:{port}/api/tables/00/ws")


def test_lan_command_prints_a_join_link():
    port, proc, line = start_gui("--host", "127.0.0.1")
    try:
        token = re.search(r"access=([\w-]+)", line).group(1)
        assert ask(port, "GET", "/api/rulesets")[0].status == 403
        assert ask(port, "GET", f"/api/rulesets?access={token}")[0].status == 200
        assert "403" in proc.stdout.readline()  # the second line says who is refused
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_games_are_capped_and_expire():
    now = [0.0]
    catalog = Catalog()
    store = GameStore(catalog, Bots(catalog), "su18", max_games=5, idle_seconds=100, clock=lambda: now[0])
    bot = store.bots.job("su18").result()
    ids = [store.create("su18", True, i, bot).id for i in range(8)]
    assert len(store.games) == 5
    for gone in ids[:3]:
        with pytest.raises(Exception, match="expired"):
            store.get(gone)
    store.get(ids[3])
    now[0] = 50
    store.get(ids[4])
    now[0] = 120
    assert store.get(ids[4]).id == ids[4]
    assert set(store.games) == {ids[4]}


def test_expired_game_answers_404_with_a_message():
    with running_server(max_games=2) as (_, port):
        first = json.loads(ask(port, "POST", "/api/games", GAME, JSON)[1])["id"]
        for _ in range(2):
            ask(port, "POST", "/api/games", GAME, JSON)
        response, data = ask(port, "POST", f"/api/games/{first}/move", json.dumps({"dice": 3}), JSON)
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


def test_trickling_clients_are_cut_off_and_hold_nobody():
    """64 connections each sending one header line every 0.2 s: the old server's limit
    was per read, so they held it for ever and a normal request waited 58 s. The whole request
    now has a deadline (1 s here), and nobody waits for the tricklers meanwhile."""
    with running_server(limits={"request_deadline": 1.0}) as (_, port):
        tricklers = [socket.create_connection(("127.0.0.1", port)) for _ in range(64)]
        stop = threading.Event()

        def trickle():
            for sock in tricklers:
                sock.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
            while not stop.wait(0.2):
                for sock in tricklers:
                    try:
                        sock.sendall(b"X-Slow: 1\r\n")
                    except OSError:
                        pass
        thread = threading.Thread(target=trickle, daemon=True)
        thread.start()
        try:
            time.sleep(0.3)
            response, _ = ask(port, "GET", "/api/rulesets")  # answered at once, not after them
            assert response.status == 200
            time.sleep(0.4)  # trickling on, past where a per-read limit would have been met
            stop.set()
            thread.join()
            cut = 0
            for sock in tricklers:  # each is cut off (408, then closed) once its second is up
                sock.settimeout(10)
                answer = b""
                try:
                    while (chunk := sock.recv(4096)):
                        answer += chunk
                except ConnectionResetError:  # it kept sending after the 408: the kernel resets
                    pass
                assert answer == b"" or answer.startswith(b"HTTP/1.1 408"), answer[:40]
                cut += answer.startswith(b"HTTP/1.1 408")
            assert cut == 64
        finally:
            stop.set()
            for sock in tricklers:
                sock.close()


def test_idle_and_half_sent_requests_are_closed():
    with running_server(limits={"request_deadline": 1.0}) as (_, port):
        idle = socket.create_connection(("127.0.0.1", port))
        liar = socket.create_connection(("127.0.0.1", port))
        liar.sendall(f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                     f"Content-Length: 500\r\n\r\n{{\"rules\"".encode())
        for sock in (idle, liar):
            sock.settimeout(10)
            answer = sock.recv(4096)
            assert answer == b"" or answer.startswith(b"HTTP/1.1 408")
            sock.close()


def test_connections_beyond_the_cap_are_closed_at_once():
    with running_server(limits={"max_connections": 20}) as (_, port):
        held = [socket.create_connection(("127.0.0.1", port)) for _ in range(20)]
        try:
            extra = socket.create_connection(("127.0.0.1", port))
            extra.settimeout(10)
            extra.sendall(f"GET /api/rulesets HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            try:
                assert extra.recv(4096) == b""  # closed without an answer
            except ConnectionResetError:
                pass
        finally:
            for sock in held:
                sock.close()
        time.sleep(0.2)
        assert ask(port, "GET", "/api/rulesets")[0].status == 200  # freed again


def test_bad_input_never_gives_5xx(gui):
    port, _ = gui
    cases = [("GET", "/" + "a" * 256, None), ("GET", "/static/" + "b" * 4000, None),
             ("GET", "/api/games/" + "f" * 300, None), ("POST", "/api/games", "[" * 30000 + "]" * 30000),
             ("POST", "/api/games", "{\"rules\": NaN}"), ("POST", "/api/games", "\xff\xfe"),
             ("POST", "/api/games", "x" * 70000), ("POST", "/api/tables", "{\"rules\": [1]}"),
             ("PATCH", "/api/games", "{}"), ("DELETE", "/", None), ("PUT", "/api/rulesets", "{}"),
             ("GET", "/api/policy/" + "%ff" * 20, None), ("POST", "/api/tables/zz/join", "{}")]
    for method, path, body in cases:
        response, data = ask(port, method, path, body, JSON if body is not None else None)
        assert 400 <= response.status < 500, (method, path[:30], response.status)
        assert "error" in json.loads(data)
    for request in (b"BREW /pot HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", b"GARBAGE\r\n\r\n", b"GET /\r\n\r\n",
                    b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"):
        answer = raw(port, request)
        assert re.match(rb"HTTP/1\.[01] 4\d\d ", answer), (request, answer[:60])


def test_a_client_that_leaves_early_costs_no_traceback():
    port, proc, _ = start_gui()
    for _ in range(3):
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.sendall(f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                         f"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{".encode())
    assert ask(port, "GET", "/api/rulesets")[0].status == 200  # still serving
    proc.terminate()
    proc.wait(timeout=30)
    assert "Traceback" not in proc.stderr.read()


def test_security_headers_and_methods(gui):
    port, _ = gui
    for path in ("/", "/pig", "/static/hog.js", "/api/rulesets", "/nothing"):
        response, _ = ask(port, "GET", path)
        assert "default-src 'self'" in response.getheader("Content-Security-Policy"), path
        assert "frame-ancestors 'none'" in response.getheader("Content-Security-Policy")
        assert response.getheader("X-Content-Type-Options") == "nosniff"
        assert response.getheader("Referrer-Policy") == "no-referrer"
        assert response.getheader("Server") == "hogsolve"
    response, data = ask(port, "DELETE", "/api/games")
    assert response.status == 405 and response.getheader("Allow") == "POST" and json.loads(data)["error"]
    response, data = ask(port, "OPTIONS", "/api/games")
    assert response.status == 405 and response.getheader("Access-Control-Allow-Origin") is None
    response, data = ask(port, "HEAD", "/api/rulesets")
    assert response.status == 200 and data == b"" and response.getheader("Content-Type") == "application/json"
    response, data = ask(port, "GET", "/favicon.ico")
    assert response.status == 301 and response.getheader("Location") == "/static/favicon.svg"


def test_nan_never_reaches_the_page():
    assert finite(float("nan")) is None and finite(float("inf")) is None and finite(0.25) == 0.25
    with running_server() as (server, port):
        bot = server.api.bots.job("su18").result()
        bot.win_probability = bot.win_probability.copy()
        bot.win_probability[3, 4] = float("nan")
        _, data = ask(port, "GET", "/api/policy/su18")

        def refuse(name):
            raise AssertionError(f"non-standard JSON constant {name}")
        payload = json.loads(data, parse_constant=refuse)
        assert payload["win_probability"][3][4] is None
