"""The contest server under a course's load: WebSocket leaderboards open while a class submits.

Starts ``hogsolve contest serve`` (su18 at goal 100, a roster of STUDENTS, a deadline) in its own
process, opens WATCHERS leaderboards on ``/api/live``, and sends one student-like table per
student spread over SPREAD seconds, as a class does: every tenth student submits twice (the
second replaces the first), every twentieth first sends a broken table (refused with 400), and
after the deadline a few try again (refused with 423).  Prints: submissions accepted and
refused, the time from the last submission until every pair is scored, how late the standings
reached the leaderboards (each update carries the server's time ``at``; the delay is its arrival
at each client: the median and the 99th percentile over every update and client), and whether
the final standings equal ``hogsolve.tournament`` on the accepted tables digit for digit.

    python scripts/bench_contest_server.py [--students 150] [--watchers 200] [--spread 50]
"""
from __future__ import annotations

import argparse
import asyncio
import collections
import csv
import datetime
import json
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np
import websockets

GOAL = 100


def student_tables(n: int, seed: int = 7) -> list:
    """Tables like students' final strategies: more dice behind, fewer near the goal, noise."""
    rng = np.random.default_rng(seed)
    s, o = np.indices((GOAL, GOAL))
    out = []
    for k in range(n):
        base = 4 + (o - s) // (8 + k % 9) - (s > 80 + k % 15) * 2 + k % 3
        table = np.clip(base, 0, 10)
        flips = rng.random((GOAL, GOAL)) < 0.02
        table[flips] = rng.integers(0, 11, size=int(flips.sum()))
        out.append(table.astype(int).tolist())
    return out


def post(port: int, token: str, body: dict) -> int:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/submit", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=120) as reply:
            return reply.status
    except urllib.error.HTTPError as exc:
        return exc.code


def standings(port: int) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/standings", timeout=60) as reply:
        return json.loads(reply.read().decode())


async def watch(port: int, delays: list, stop: asyncio.Event) -> None:
    async with websockets.connect(f"ws://127.0.0.1:{port}/api/live", max_size=None) as socket:
        first = True
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(socket.recv(), timeout=0.5)
            except asyncio.TimeoutError:
                continue
            arrived = time.time()
            if first:  # the standings sent on connecting: no change behind it
                first = False
                continue
            delays.append(arrived - json.loads(text)["at"])


async def main_async(args) -> None:
    folder = Path(tempfile.mkdtemp(prefix="contest-bench-"))
    names = [f"student{k:03d}" for k in range(args.students)]
    (folder / "roster.csv").write_text("name\n" + "".join(n + "\n" for n in names))
    deadline = time.time() + 5 + args.spread + 5
    server = subprocess.Popen([sys.executable, "-m", "hogsolve", "contest", "serve", "--rules", "su18",
                               "--data", str(folder / "data"), "--roster", str(folder / "roster.csv"), "--port", "0",
                               "--jobs", str(args.jobs), "--deadline",
                               datetime.datetime.fromtimestamp(deadline, datetime.timezone.utc).isoformat()],
                              stdout=subprocess.PIPE, text=True)
    try:
        port = int(server.stdout.readline().rsplit(":", 1)[1].strip("/\n"))
        with open(folder / "data" / "tokens.csv", newline="") as f:
            tokens = {r["name"]: r["token"] for r in csv.DictReader(f)}
        tables = student_tables(args.students)
        delays: list = []
        stop = asyncio.Event()
        watchers = [asyncio.create_task(watch(port, delays, stop)) for _ in range(args.watchers)]
        await asyncio.sleep(1.0)
        start = time.perf_counter()
        statuses: collections.Counter = collections.Counter()
        final = {}
        for k, name in enumerate(names):
            await asyncio.sleep(max(0.0, start + k * args.spread / args.students - time.perf_counter()))
            if k % 20 == 3:  # a broken table first: a cell out of range
                broken = [row[:] for row in tables[k]]
                broken[7][9] = 11
                statuses[await asyncio.to_thread(post, port, tokens[name], {"table": broken})] += 1
            if k % 10 == 5:  # an earlier try, replaced by the table sent below
                earlier = {"table": tables[(k + 1) % len(tables)]}
                statuses[await asyncio.to_thread(post, port, tokens[name], earlier)] += 1
            status = await asyncio.to_thread(post, port, tokens[name], {"table": tables[k]})
            statuses[status] += 1
            final[name] = tables[k]
        last = time.perf_counter()
        total = args.students * (args.students - 1) // 2
        while (s := await asyncio.to_thread(standings, port))["pairs_done"] < total or s["scoring"]:
            await asyncio.sleep(0.1)
        scored = time.perf_counter() - last
        await asyncio.sleep(max(0.0, deadline - time.time() + 0.5))
        for name in names[:5]:  # after the deadline
            statuses[await asyncio.to_thread(post, port, tokens[name], {"table": tables[0]})] += 1
        await asyncio.sleep(1.0)
        stop.set()
        await asyncio.gather(*watchers)
        ms = sorted(1000 * d for d in delays)
        p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))] if ms else float("nan")
        import hogsolve
        rules = hogsolve.get_rules("su18")
        expected = hogsolve.tournament([hogsolve.Policy(np.array(final[n]), rules) for n in names], rules, names=names)
        served = {e["name"]: (e["rank"], e["wins"], e["mean"]) for e in s["entries"]}
        alone = {r["strategy"]: (r["rank"], r["wins"], r["mean_win_rate"]) for r in expected.ranking()}
        # ranks and wins equal; the means to the last bits that a pair scored the other way round moves
        same = served.keys() == alone.keys() and all(served[n][:2] == alone[n][:2] for n in served)
        gap = max(abs(served[n][2] - alone[n][2]) for n in served) if same else float("nan")
        print(f"{args.students} students, su18 at goal {GOAL}, {args.watchers} leaderboards on the WebSocket, "
              f"submissions over {args.spread:g} s, scoring with --jobs {args.jobs}")
        print("| answers (status: count) | pairs | all scored after the last submission | updates received | "
              "delay median | delay p99 | ranks and wins = tournament's | largest gap of a mean |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
        answers = ", ".join(f"{code}: {count}" for code, count in sorted(statuses.items()))
        print(f"| {answers} | {total:,} | {scored:.1f} s | {len(ms):,} | "
              f"{statistics.median(ms) if ms else float('nan'):.1f} ms | {p99:.1f} ms | {same} | {gap:.1e} |")
    finally:
        server.kill()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=150)
    parser.add_argument("--watchers", type=int, default=200)
    parser.add_argument("--spread", type=float, default=50.0, help="seconds over which the submissions arrive")
    parser.add_argument("--jobs", type=int, default=1)
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
