"""SIGKILL the room server at random moments while bots play, start it again: every room comes
back exactly as the event log had it, and the bots (in the room and over the network) finish."""
import json
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

import pytest
from websockets.sync.client import connect

from hogsolve.sinbad.chatroom import ChatRoom
from hogsolve.util.eventlog import EventLog

pytestmark = pytest.mark.slow


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port, data):
    proc = subprocess.Popen([sys.executable, "-m", "hogsolve", "sinbad", "serve", "--port", str(port), "--data",
                             str(data), "--room", "r", "--bots", "greedy,tracker", "--seed", "3", "--think", "0.05",
                             "--stall", "4", "--no-browser"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = [proc.stdout.readline()]
    assert "SinbadHogBot room at" in lines[0], lines[0] + proc.stderr.read()
    return proc


def replayed(data):
    """The room as the log on disk has it (replayed here, independently of the server)."""
    log = EventLog(data / "sinbad.sqlite3")
    room = ChatRoom("r", dict(log.rooms())["r"])
    for _, command in log.commands("r"):
        room.apply(command)
    log.close()
    return room


def test_a_killed_server_comes_back_with_its_rooms_and_the_bots_finish(tmp_path):
    rng = random.Random(5)
    port = free_port()
    server = start_server(port, tmp_path)
    url = f"ws://127.0.0.1:{port}/sinbad/r/ws"
    bots = [subprocess.Popen([sys.executable, "-m", "hogsolve", "sinbad", "bot", "--url", url, "--name", f"net{i}",
                              "--kind", kind, "--think", "0.05", "--seed", str(i)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for i, kind in enumerate(("tracker", "greedy"), 1)]
    try:
        with connect(url, max_queue=None) as watcher:  # a person who starts the game and leaves
            watcher.send(json.dumps({"join": "watch"}))
            token = json.loads(watcher.recv(timeout=10))["token"]
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                m = json.loads(watcher.recv(timeout=10))
                if m["type"] == "players" and len(m["players"]) == 5:
                    break
            watcher.send(json.dumps({"say": "/start"}))
            while json.loads(watcher.recv(timeout=10))["type"] != "round_start":
                pass
        for kill in range(3):
            time.sleep(rng.uniform(0.5, 2.5))
            server.send_signal(signal.SIGKILL)
            server.wait()
            copy = tmp_path / f"after-kill-{kill}"
            copy.mkdir()
            for f in tmp_path.glob("sinbad.sqlite3*"):
                shutil.copy(f, copy / f.name)
            before = replayed(copy)
            server = start_server(port, tmp_path)
            line = server.stdout.readline()  # the restarted server's own replay
            match = re.search(r"replayed room r: (\d+) commands, state (\w+)", line)
            assert match, line
            assert int(match.group(1)) == before.applied and match.group(2) == before.fingerprint()
            with connect(url, max_queue=None) as watcher:  # the seat's token still works
                watcher.send(json.dumps({"join": "watch", "token": token}))
                assert json.loads(watcher.recv(timeout=10))["type"] == "welcome"
        for bot in bots:
            out, err = bot.communicate(timeout=240)
            assert bot.returncode == 0, err
            assert "game over:" in out
        final = replayed(tmp_path)
        assert final.room.game.over and max(final.room.game.totals.values()) >= 60
        history = subprocess.run([sys.executable, "-m", "hogsolve", "sinbad", "history", "r", "--data", str(tmp_path)],
                                 capture_output=True, text=True)
        assert history.returncode == 0 and "r game 1:" in history.stdout
    finally:
        for proc in [server, *bots]:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
