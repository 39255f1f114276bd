"""SinbadHogBot rooms under load: one server process, many rooms of network bots.

    python scripts/bench_sinbad.py [--rooms 100] [--bots 6] [--seconds 30] [--think 0.4] [--write BENCHMARKS.md]

The server is ``hogsolve gui`` in its own process (its event log in a
temporary folder); the bots are WebSocket clients in this process, each
speaking the room protocol a person's page speaks (joined with ``"batch":
true``, as the page is) and acting every ``--think`` seconds (give or take
half); every room plays game after game.  Once every room has dealt its first
round, one bot a room also sends a chat line every 2 s; the time until that
line has reached every client of the room is the broadcast latency (median and
p99).  Also measured: lines sent and commands applied (from the event log) per
second, and the CPU of the server and of the clients.  The clients run on
uvloop and parse with orjson, as cheaply as they can: on two cores they share
the machine with the server they measure.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import orjson
import psutil
import uvloop
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from hogsolve.gui.server import quiet_collector  # noqa: E402
from hogsolve.sinbad.bots import BOTS  # noqa: E402
from hogsolve.sinbad.chatroom import from_plain  # noqa: E402
from hogsolve.sinbad.room import Message  # noqa: E402

KINDS = ("greedy", "random", "tracker")


class Stats:
    def __init__(self, bots_per_room: int, rooms: int):
        self.sent = 0
        self.probes: dict = {}      # (room, id) -> [send time, arrivals]
        self.latencies: list = []
        self.bots_per_room = bots_per_room
        self.waiting = rooms        # rooms not yet dealt: probes wait for every room to play
        self.measured_from = float("nan")

    def dealt(self) -> None:
        """A room's first deal; with the last one, the load is whole and probes start."""
        self.waiting -= 1
        if self.waiting == 0:
            self.measured_from = time.perf_counter()

    def arrived(self, room: str, line: str) -> None:
        key = (room, line)
        if key in self.probes:
            sent, seen = self.probes[key]
            seen += 1
            self.probes[key][1] = seen
            if seen == self.bots_per_room:
                self.latencies.append(time.perf_counter() - sent)
                del self.probes[key]


async def bot(url: str, room: str, name: str, kind: str, think: float, stats: Stats, stop: float,
              seated: asyncio.Event, starter: bool, prober: bool) -> None:
    brain = BOTS[kind](name, random.Random(name))
    rng = random.Random(f"think/{name}")
    hand: tuple = ()
    dealt, game_over = False, asyncio.Event()
    async with connect(url, max_queue=None, open_timeout=60) as ws:
        await ws.send(json.dumps({"join": name, "batch": True}))

        async def reader():
            async for raw in ws:
                frame = orjson.loads(raw)
                for m in frame if isinstance(frame, list) else (frame,):
                    read(m)

        def read(m: dict) -> None:
            nonlocal hand, dealt
            if m["type"] == "round_start" and starter and not dealt:
                dealt = True
                stats.dealt()
            elif m["type"] == "game_over" and starter:
                game_over.set()
            elif m["type"] == "hand":
                hand = tuple(c["item"] for c in m["cards"])
            elif m["type"] == "players" and starter and len(m["players"]) == stats.bots_per_room:
                seated.set()
            elif m["type"] == "chat" and m.get("line", "").startswith("probe "):
                stats.arrived(room, m["line"])
            if m.get("event"):
                brain.observe(Message(m["text"], None, from_plain(m["event"])))
        task = asyncio.create_task(reader())
        if starter:
            await seated.wait()
            await ws.send(json.dumps({"say": "/start"}))
        probe, next_probe = 0, None
        while time.perf_counter() < stop:
            await asyncio.sleep(think * (0.5 + rng.random()))
            if game_over.is_set():  # the load stays whole: every room plays game after game
                game_over.clear()
                await ws.send(json.dumps({"say": "/start"}))
            if prober and next_probe is None and not stats.waiting:  # probes every 2 s, spread over the rooms
                next_probe = stats.measured_from + 2 * rng.random()
            if next_probe is not None and next_probe <= time.perf_counter() < stop - 1.0:  # 1 s to arrive
                probe += 1
                line = f"probe {probe}"
                stats.probes[(room, line)] = [time.perf_counter(), 0]
                await ws.send(json.dumps({"say": line}))
                stats.sent += 1
                next_probe += 2
            if hand:
                line = brain.act(hand)
                if line:
                    await ws.send(json.dumps({"say": line}))
                    stats.sent += 1
        task.cancel()


async def load(port: int, rooms: range, bots: int, seconds: float, think: float) -> Stats:
    stats = Stats(bots, len(rooms))
    stop = time.perf_counter() + seconds
    tasks = []
    for r in rooms:
        room = f"bench{r}"
        url = f"ws://127.0.0.1:{port}/sinbad/{room}/ws"
        seated = asyncio.Event()
        for b in range(bots):
            tasks.append(bot(url, room, f"b{b}", KINDS[b % len(KINDS)], think, stats, stop, seated,
                             starter=b == 0, prober=b == 1))
    await asyncio.gather(*tasks)
    return stats


def clients(port: int, rooms: range, bots: int, seconds: float, think: float) -> tuple:
    """One client process: the bots of ``rooms``; (lines sent, latencies, seconds measured, share of
    a core used).  Its garbage collector
    is tuned as the server's (:func:`hogsolve.gui.server.quiet_collector`), so the clients' own
    pauses stay out of the figures."""
    quiet_collector()
    started, cpu = time.perf_counter(), time.process_time()
    stats = uvloop.run(load(port, rooms, bots, seconds, think))
    busy = (time.process_time() - cpu) / (time.perf_counter() - started)
    lost = [float("inf")] * len(stats.probes)  # a probe that never reached everyone counts as endless
    return stats.sent, stats.latencies + lost, time.perf_counter() - stats.measured_from, busy


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=100)
    parser.add_argument("--bots", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=0.4)
    parser.add_argument("--client-processes", type=int, default=1,
                        help="processes the bots run in (one saturates its core before the server does)")
    parser.add_argument("--write", type=Path, default=None, help="put the figures into this Markdown file")
    args = parser.parse_args(argv)
    data = Path(tempfile.mkdtemp(prefix="hogsolve-bench-rooms-"))
    proc = subprocess.Popen([sys.executable, "-m", "hogsolve", "gui", "--no-browser", "--port", "0"],
                            stdout=subprocess.PIPE, text=True, env={**os.environ, "HOGSOLVE_DATA": str(data)})
    port = int(re.search(r":(\d+)/", proc.stdout.readline()).group(1))
    server = psutil.Process(proc.pid)
    server.cpu_percent()
    started = time.perf_counter()
    shares = [range(k, args.rooms, args.client_processes) for k in range(args.client_processes)]
    with ProcessPoolExecutor(len(shares), mp_context=multiprocessing.get_context("fork")) as pool:
        results = list(pool.map(clients, *zip(*[(port, share, args.bots, args.seconds, args.think)
                                                 for share in shares])))
    elapsed = time.perf_counter() - started
    sent = sum(r[0] for r in results)
    latencies = [latency for r in results for latency in r[1]]
    window = min(r[2] for r in results)
    client_cpu = sum(r[3] for r in results)
    cpu = server.cpu_percent()
    rss = server.memory_info().rss / 2 ** 20
    proc.terminate()
    proc.wait()
    with sqlite3.connect(data / "sinbad.sqlite3") as db:
        applied = db.execute("SELECT COUNT(*) FROM commands").fetchone()[0]
    lat = sorted(latencies)
    median = statistics.median(lat) if lat else float("nan")
    p99 = lat[int(0.99 * (len(lat) - 1))] if lat else float("nan")
    lines = [
        f"{args.rooms} rooms x {args.bots} network bots (think {args.think} s) for {elapsed:.0f} s, one server process "
        f"(the bots in {args.client_processes} client processes):",
        f"  lines sent {sent / elapsed:,.0f}/s; commands applied and logged {applied / elapsed:,.0f}/s",
        f"  a line to every client of its room: median {1000 * median:.1f} ms, p99 {1000 * p99:.1f} ms "
        f"({len(lat)} probes, {sum(x == float('inf') for x in lat)} lost; in the last {window:.0f} s, once every "
        f"room had dealt)",
        f"  server: {cpu:.0f}% of one core, {rss:.0f} MB resident; clients: {100 * client_cpu:.0f}% of one core",
    ]
    print("\n".join(lines))
    if args.write is not None:
        write(args.write, lines)
    return 0


def write(path: Path, lines) -> None:
    """Put the figures between this script's markers in ``path`` (added at the end the first time)."""
    start, end = "<!-- bench_sinbad -->", "<!-- /bench_sinbad -->"
    text = path.read_text() if path.exists() else ""
    block = (f"{start}\n## SinbadHogBot rooms (`python scripts/bench_sinbad.py`)\n\n```\n" + "\n".join(lines) +
             f"\n```\n\n{SCALING}\n{end}")
    if start in text:
        text = text[:text.index(start)] + block + text[text.index(end) + len(end):]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    path.write_text(text)


SCALING = """One process holds every room in memory (a room is its seats, one deal and the commands since
the server started) and applies each room's commands one at a time on one event loop; rooms never
touch each other. When one process is not enough, rooms spread over several processes (or
machines) by name: a room lives on exactly one process, chosen by a stable hash of its name (or a
small table of room -> process kept by a front proxy). The link `/sinbad/ROOM` goes to the proxy,
which forwards the page and its WebSocket to that process; each process keeps its own event log,
so a restarted process replays only its own rooms."""


if __name__ == "__main__":
    sys.exit(main())
