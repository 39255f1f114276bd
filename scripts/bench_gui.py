"""The web app under load, against the stdlib server it replaced, in one run.

    python scripts/bench_gui.py [--players 50] [--moves 30] [--old REV]

Each server runs in its own process on 127.0.0.1, as ``hogsolve gui`` does:
the new one is this checkout's; the old one is ``hogsolve/gui/server.py`` and
``games.py`` of revision REV (default 466ce2f, the last with the stdlib
server), read with ``git show`` and served over today's game code.  Measured:

* the round trip of a move (your roll and the bot's answer) with ``--players``
  people playing at once, each on its own connection per request: median and
  p99 over every move, for both servers, and their ratio;
* a normal request while 64 clients trickle a header line every 0.5 s;
* the first policy of every game on a fresh server: the slowest answer and the
  most its memory (RSS) grew on one request.
"""
from __future__ import annotations

import argparse
import http.client
import json
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
OLD_SERVER = '''
import sys, types, importlib, threading
source = {name: open(path).read() for name, path in (("server", sys.argv[1]), ("games", sys.argv[2]))}
import hogsolve.gui
sys.modules["hogsolve.strategy.optimal"] = importlib.import_module("hogsolve.strategy.optimal_bot")  # renamed since
for name in ("games", "server"):
    module = types.ModuleType(f"hogsolve.gui.old_{name}")
    module.__package__ = "hogsolve.gui"
    module.__file__ = hogsolve.gui.__file__  # its static folder: today's page (the benchmark uses only the API)
    sys.modules[module.__name__] = module
    exec(compile(source[name].replace("from .games import", "from .old_games import"), name, "exec"), module.__dict__)
server = sys.modules["hogsolve.gui.old_server"].make_server(0)
print(f"http://127.0.0.1:{server.server_address[1]}/", flush=True)
server.serve_forever()
'''


def start(old_rev=None, env=None):
    """A server process: ``(process, port, move path)``."""
    if old_rev is None:
        proc = subprocess.Popen([sys.executable, "-m", "hogsolve", "gui", "--no-browser", "--port", "0"],
                                stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env)
        route = "move"
    else:
        files = []
        for name in ("server", "games"):
            path = Path(f"/tmp/hogsolve-old-{name}-{old_rev}.py")
            path.write_text(subprocess.check_output(["git", "show", f"{old_rev}:hogsolve/gui/{name}.py"], cwd=ROOT,
                                                    text=True))
            files.append(str(path))
        proc = subprocess.Popen([sys.executable, "-c", OLD_SERVER, *files], stdout=subprocess.PIPE, text=True, cwd=ROOT)
        route = "roll"
    port = int(re.search(r":(\d+)/", proc.stdout.readline()).group(1))
    return proc, port, route


def call(port, method, path, body=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request(method, path, body=json.dumps(body) if body is not None else None,
                 headers={"Content-Type": "application/json"})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, json.loads(data)


def play(port, route, moves, times, seed):
    status, game = call(port, "POST", "/api/games", {"rules": "su18", "seed": seed})
    for _ in range(moves):
        if game.get("winner"):
            game = call(port, "POST", "/api/games", {"rules": "su18", "seed": seed})[1]
        started = time.perf_counter()
        status, game = call(port, "POST", f"/api/games/{game['id']}/{route}", {"dice": 5})
        times.append(time.perf_counter() - started)
        assert status == 200, game


def moves_under_load(port, route, players, moves):
    """Every move's round trip with ``players`` playing at once."""
    times: list = []
    threads = [threading.Thread(target=play, args=(port, route, moves, times, i)) for i in range(players)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    times.sort()
    return statistics.median(times), times[int(0.99 * (len(times) - 1))], len(times)


def during_trickle(port):
    """Seconds a normal request takes while 64 clients trickle headers."""
    socks = [socket.create_connection(("127.0.0.1", port)) for _ in range(64)]
    stop = threading.Event()

    def trickle():
        for sock in socks:
            sock.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
        while not stop.wait(0.5):
            for sock in socks:
                try:
                    sock.sendall(b"X-Slow: 1\r\n")
                except OSError:
                    pass
    thread = threading.Thread(target=trickle, daemon=True)
    thread.start()
    time.sleep(3)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    started = time.perf_counter()
    try:
        conn.request("GET", "/api/rulesets")
        conn.getresponse().read()
        took = time.perf_counter() - started
    except OSError:
        took = float("inf")
    stop.set()
    for sock in socks:
        sock.close()
    return took


def first_policies():
    """On a fresh server with an empty cache: each game's first policy, its time and the
    server's RSS growth."""
    import os
    import tempfile
    cache = tempfile.mkdtemp(prefix="hogsolve-bench-cache-")
    proc, port, _ = start(env={**os.environ, "HOGSOLVE_CACHE": cache})
    server = psutil.Process(proc.pid)
    names = [r["name"] for r in call(port, "GET", "/api/rulesets")[1]["rulesets"] if r["family"] != "sibala"]
    rows = []
    for name in names:
        before = server.memory_info().rss
        started = time.perf_counter()
        status, body = call(port, "GET", f"/api/policy/{name}")
        while status == 202:  # still being prepared: the page asks again
            time.sleep(0.1)
            status, body = call(port, "GET", f"/api/policy/{name}")
        rows.append((name, time.perf_counter() - started, (server.memory_info().rss - before) / 2 ** 20))
    proc.terminate()
    proc.wait()
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--moves", type=int, default=30, help="moves per player")
    parser.add_argument("--old", default="466ce2f", help="revision of the stdlib server")
    args = parser.parse_args(argv)
    results = {}
    for label, rev in (("old (http.server)", args.old), ("new (Starlette on uvicorn)", None)):
        proc, port, route = start(rev)
        try:
            moves_under_load(port, route, 5, 5)  # warm up: the bot's table is loaded
            median, p99, count = moves_under_load(port, route, args.players, args.moves)
            trickle = during_trickle(port)
        finally:
            proc.terminate()
            proc.wait()
        results[label] = (median, p99, count, trickle)
        print(f"{label:28s} move round trip, {args.players} players: median {1000 * median:7.1f} ms, "
              f"p99 {1000 * p99:7.1f} ms ({count} moves); a request during 64 trickling clients: {trickle:.2f} s")
    (old, new) = results.values()
    print(f"new / old: median {new[0] / old[0]:.2f}x, p99 {new[1] / old[1]:.2f}x, "
          f"during the trickle {new[3] / old[3]:.3f}x")
    rows = first_policies()
    for name, seconds, grown in rows:
        print(f"  first policy {name:14s} {1000 * seconds:7.1f} ms, server memory +{grown:5.1f} MB")
    slowest = max(rows, key=lambda r: r[1])
    largest = max(rows, key=lambda r: r[2])
    print(f"first policy of {len(rows)} games on a fresh server: slowest {slowest[0]} {1000 * slowest[1]:.0f} ms; "
          f"most memory {largest[0]} +{largest[2]:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
