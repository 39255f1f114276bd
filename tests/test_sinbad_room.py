"""The SinbadHogBot room over real WebSockets: seats, refusals, floods, races, random play."""
import asyncio
import json
import logging
import random
import threading
import time

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect as ws_connect

from gui_helpers import running_server
from hogsolve.sinbad.chatroom import ChatRoom
from hogsolve.util.eventlog import EventLog
from test_sinbad_chatroom import deal_with_two_hogs


def connect(url, **options):
    """A client that keeps every message until read (and may be used outside a with block)."""
    return ws_connect(url, max_queue=None, legacy=True, **options)


def url(port, room):
    return f"ws://127.0.0.1:{port}/sinbad/{room}/ws"


def in_loop(server, function):
    """Run ``function()`` on the server's event loop (where rooms change) and return its value."""
    async def call():
        return function()
    return asyncio.run_coroutine_threadsafe(call(), server.rooms.loop).result(timeout=10)


def until(ws, kind, **wanted):
    """The next message of type ``kind`` with the ``wanted`` fields."""
    while True:
        m = json.loads(ws.recv(timeout=10))
        if m["type"] == kind and all(m.get(k) == v for k, v in wanted.items()):
            return m


def join(port, room, name, token=None):
    ws = connect(url(port, room))
    ws.send(json.dumps({"join": name, **({"token": token} if token else {})}))
    return ws, until(ws, "welcome")


@pytest.fixture()
def server(tmp_path):
    with running_server(data=tmp_path, think=0.05, stall=30) as (running, port):
        yield running, port


def test_seats_tokens_and_taken_names(server):
    running, port = server
    ann, welcome = join(port, "r", "ann")
    assert welcome["token"] and welcome["room"] == "r" and welcome["text"]
    with connect(url(port, "r")) as thief:
        thief.send(json.dumps({"join": "ann"}))
        refused = json.loads(thief.recv(timeout=10))
        assert refused["type"] == "error" and "taken" in refused["text"]
    with connect(url(port, "r")) as thief:
        thief.send(json.dumps({"join": "ann", "token": "guess"}))
        assert "taken" in json.loads(thief.recv(timeout=10))["text"]
    ann.close()
    again, back = join(port, "r", "ann", welcome["token"])  # the token resumes the seat
    assert back["token"] == welcome["token"]
    players = until(again, "players")
    assert [p["name"] for p in players["players"]] == ["ann"]
    again.close()


def test_refusals_change_nothing(server):
    running, port = server
    ann, _ = join(port, "r", "ann")
    applied = in_loop(running, lambda: running.rooms.rooms["r"].chat.applied)
    for message, words in ((json.dumps({"say": "/b 12"}), "has not started"), ("{oops", "JSON"),
                           (json.dumps({"talk": 1}), "say"), (json.dumps({"say": "/start"}), "2 to 8"),
                           (json.dumps({"say": "/bot add wizard"}), "no bot kind"),
                           (json.dumps({"say": "/bot remove ann"}), "no bot"), (json.dumps({"say": "x" * 600}), "500")):
        ann.send(message)
        assert words in until(ann, "error")["text"], message
    assert in_loop(running, lambda: running.rooms.rooms["r"].chat.applied) == applied
    ann.close()


def test_foreign_origins_and_oversized_messages_are_refused(server):
    running, port = server
    with pytest.raises(InvalidStatus) as refused:
        connect(url(port, "r"), origin="http://evil.example")
    assert refused.value.response.status_code == 403
    big, _ = join(port, "r", "big")
    big.send(json.dumps({"say": "x" * 20_000}))
    with pytest.raises(ConnectionClosed):
        while True:
            big.recv(timeout=10)
    assert big.close_code == 1009
    other, _ = join(port, "r", "other")  # the room goes on
    other.send(json.dumps({"say": "still here"}))
    assert until(other, "chat")["line"] == "still here"
    other.close()


def test_a_flooding_client_is_throttled_and_nobody_else_waits(server):
    running, port = server
    flood, _ = join(port, "r", "flood")
    calm, _ = join(port, "r", "calm")
    applied = in_loop(running, lambda: running.rooms.rooms["r"].chat.applied)
    started = time.monotonic()
    for i in range(1000):
        flood.send(json.dumps({"say": f"spam {i}"}))
    calm.send(json.dumps({"say": "hello"}))
    assert until(calm, "chat", player="calm")["line"] == "hello"
    elapsed = time.monotonic() - started
    time.sleep(0.3)
    notices = []
    try:
        while True:
            m = json.loads(flood.recv(timeout=0.5))
            notices += [m] if m["type"] == "error" else []
    except TimeoutError:
        pass
    assert len(notices) == 1 and "slow down" in notices[0]["text"]
    spam = in_loop(running, lambda: running.rooms.rooms["r"].chat.applied) - applied - 1
    assert 40 <= spam <= 40 + 20 * (elapsed + 1)  # the burst, then 20 a second
    flood.close()
    calm.close()


def test_two_hogs_at_once_have_one_winner_the_first_to_arrive(tmp_path):
    seed = deal_with_two_hogs()
    with running_server(data=tmp_path, think=0.05) as (running, port):
        in_loop(running, lambda: running.rooms.room("race", seed))
        ann, _ = join(port, "race", "ann")
        bob, _ = join(port, "race", "bob")
        ann.send(json.dumps({"say": "/start"}))
        for ws in (ann, bob):
            until(ws, "round_start")
        gate = threading.Barrier(2)

        def claim(ws):
            gate.wait()
            ws.send(json.dumps({"say": "hog"}))
        threads = [threading.Thread(target=claim, args=(ws,)) for ws in (ann, bob)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        over = until(ann, "round_over")
        winner = over["hog"]["player"]
        loser = bob if winner == "ann" else ann
        assert "too late" in until(loser, "error")["text"]
        log = list(EventLog(tmp_path / "sinbad.sqlite3").commands("race"))
        hogs = [c for _, c in log if c.get("line") == "hog"]
        assert [c["name"] for c in hogs] == [winner]  # the first to arrive, and only it, was applied
        ann.close()
        bob.close()


def test_random_play_with_disconnects_keeps_every_invariant(tmp_path):
    """Four clients send random valid and invalid lines and drop and resume their connections;
    after every message the cards are conserved, each round ends once, and the log alone
    rebuilds the room (no command lost or applied twice)."""
    rng = random.Random(3)
    with running_server(data=tmp_path, think=0.05, stall=30) as (running, port):
        names = ["ann", "bob", "cy", "dee"]
        sockets, tokens = {}, {}
        for name in names:
            sockets[name], welcome = join(port, "fuzz", name)
            tokens[name] = welcome["token"]
        sockets["ann"].send(json.dumps({"say": "/start"}))
        rounds_over = {}

        def host():
            return running.rooms.rooms["fuzz"]

        def check():
            chat = host().chat
            if chat.playing:
                r = chat.room.round
                assert all(len(h) == 9 for h in r.hands.values()) and set(r.card_totals().values()) == {9}
            return chat.applied
        hands = {}
        for step in range(900):
            name = rng.choice(names)
            ws = sockets[name]
            if rng.random() < 0.02:  # a dropped connection, then the seat resumed with its token
                ws.close()
                sockets[name], _ = join(port, "fuzz", name, tokens[name])
                continue
            hand = hands.get(name, [])
            choice = rng.random()
            if choice < 0.1 or not hand:
                line = rng.choice(["/hand", "hog", "/b 0", "/b 12345", "hi", "/away", "/back", "/start", "/b 1 nobody"])
            else:
                item = rng.choice(hand)
                places = "".join(str(i) for i, c in enumerate(hand, 1) if c == item)[:rng.randint(1, 4)]
                line = f"/b {places}" + (f" {rng.choice([n for n in names if n != name])}" if choice < 0.6 else "")
            ws.send(json.dumps({"say": line}))
            if step % 5 == 0:
                in_loop(running, check)
            for other, sock in sockets.items():  # read what has arrived
                try:
                    while True:
                        m = json.loads(sock.recv(timeout=0))
                        if m["type"] == "hand":
                            hands[other] = [c["item"] for c in m["cards"]]
                        if m["type"] == "round_over":
                            key = (other, in_loop(running, lambda: host().chat.games), m["round"])
                            assert key not in rounds_over  # a round ends once
                            rounds_over[key] = m["hog"]
                except TimeoutError:
                    pass
            if step % 250 == 249:
                in_loop(running, lambda: host().apply({"op": "stall"}) if host().chat.playing else None)
        time.sleep(0.5)
        live = in_loop(running, lambda: host().chat.snapshot())
        for sock in sockets.values():
            sock.close()
    assert len({(g, r) for _, g, r in rounds_over}) >= 3
    replayed = ChatRoom("fuzz", EventLog(tmp_path / "sinbad.sqlite3").rooms()[0][1])
    log = EventLog(tmp_path / "sinbad.sqlite3")
    seqs = []
    for seq, command in log.commands("fuzz"):
        replayed.apply(command)
        seqs.append(seq)
    assert seqs == list(range(1, len(seqs) + 1))
    live_now = replayed.snapshot()
    assert live_now["hands"] == live["hands"] and live_now["totals"] == live["totals"]
    assert live_now["offers"] == live["offers"] and live_now["applied"] >= live["applied"]


@pytest.mark.slow
def test_a_network_bot_and_a_room_bot_play_a_game_and_history_lists_it(tmp_path):
    from cli_helpers import run_main
    from hogsolve.gui.sinbad_bot import play_over_network
    with running_server(data=tmp_path, think=0.01, stall=1.0, sinbad_room=("den", ["greedy"], 2)) as (running, port):
        result = {}
        player = threading.Thread(target=lambda: result.update(
            play_over_network(url(port, "den"), "net", "tracker", think=0.01, seed=1)))
        player.start()
        starter, _ = join(port, "den", "starter")
        while len(until(starter, "players")["players"]) < 3:
            pass
        starter.send(json.dumps({"say": "/start"}))
        starter.close()  # away from now on: still dealt in, traded with as the rules say
        player.join(timeout=120)
        assert max(result["totals"].values()) >= 60 and result["reconnects"] == 0
    listed = run_main("sinbad", "history", "den", "--data", str(tmp_path))
    assert listed.returncode == 0 and "den game 1:" in listed.stdout and "won by" in listed.stdout


@pytest.mark.parametrize("args, words", [
    (["sinbad", "serve", "--room", "two words", "--no-browser"], "--room must be one word"),
    (["sinbad", "serve", "--bots", "wizard", "--no-browser"], "unknown bot"),
    (["sinbad", "bot", "--url", "ws://127.0.0.1:9/sinbad/r/ws", "--name", "x"], "cannot reach"),
    (["sinbad", "bot", "--url", "http://nowhere", "--name", "x"], "cannot use"),
    (["sinbad", "history", "--data", "/nonexistent-hogsolve"], "no rooms have been played here yet"),
])
def test_bad_room_commands_are_one_line(args, words):
    from cli_helpers import run_main
    result = run_main(*args)
    assert result.returncode == 2 and words in result.stderr and result.stderr.count("\n") == 1, result.stderr


@pytest.mark.slow
def test_the_protocol_documents_example_bot_plays_a_whole_game(tmp_path):
    """The complete bot in docs/guides/sinbad-bot.md, run as written against a room."""
    import re
    from pathlib import Path
    text = (Path(__file__).resolve().parents[1] / "docs" / "guides" / "sinbad-bot.md").read_text()
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    code = code[:code.index("print(play(")]  # everything but the call, which names a fixed port
    namespace = {}
    exec(compile(code, "sinbad-bot.md", "exec"), namespace)
    with running_server(data=tmp_path, think=0.01, stall=1.0, sinbad_room=("doc", ["greedy"], 4)) as (_, port):
        result = {}
        player = threading.Thread(target=lambda: result.update(totals=namespace["play"](url(port, "doc"), "mybot")))
        player.start()
        starter, _ = join(port, "doc", "starter")
        while len(until(starter, "players")["players"]) < 3:
            pass
        starter.send(json.dumps({"say": "/start"}))
        starter.close()
        player.join(timeout=240)
    assert max(result["totals"].values()) >= 60 and "mybot" in result["totals"]


class _Records(logging.Handler):
    """Every log record of the server, kept for the test to read."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records = []

    def emit(self, record):
        self.records.append(record)


def _closed(ws):
    """Read until the server closes; its close code."""
    try:
        while True:
            ws.recv(timeout=10)
    except ConnectionClosed:
        pass
    return ws.close_code


def test_no_client_behaviour_leaves_a_traceback_in_the_server_log(server):
    """Mistakes: a send after the close of an oversized first message, a binary frame read as
    text, a client gone before its first message: each logged a traceback."""
    running, port = server
    records = _Records()
    loggers = [logging.getLogger(name) for name in ("", "uvicorn", "uvicorn.error", "asyncio", "hogsolve")]
    for logger in loggers:
        logger.addHandler(records)
    try:
        big = connect(url(port, "r"))
        big.send(json.dumps({"join": "x" * 20_000}))  # too large before joining
        assert _closed(big) == 1009
        binary = connect(url(port, "r"))
        binary.send(b"\x00\x01")  # a binary first message
        assert _closed(binary) in (1003, 4403, 1008)
        gone = connect(url(port, "r"))
        gone.close()  # away before a word
        ann, _ = join(port, "r", "ann")
        ann.send(b"\xff" * 10)  # a binary line once seated
        ann.send(json.dumps({"say": "after the binary frame"}))
        assert until(ann, "chat")["line"] == "after the binary frame"
        ann.send(json.dumps({"say": "y" * 20_000}))
        assert _closed(ann) == 1009
        status, table = _post(port, "/api/tables", {"rules": "su18"})
        seat_url = f"ws://127.0.0.1:{port}/api/tables/{table['table']}/ws"
        first_big = connect(seat_url)
        first_big.send("z" * 20_000)
        assert _closed(first_big) == 1009
        seat = connect(seat_url)
        seat.send(json.dumps({"token": table["token"]}))
        seat.recv(timeout=10)
        seat.send(b"\x00")  # binary at a table
        seat.send(json.dumps({"hint": True}))
        assert any(json.loads(seat.recv(timeout=10)).get("type") == "hint" for _ in range(5))
        seat.close()
        time.sleep(0.5)  # let the server finish each connection
    finally:
        for logger in loggers:
            logger.removeHandler(records)
    noisy = [r for r in records.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not noisy, [(r.name, r.getMessage()) for r in noisy]


def _post(port, path, body):
    import http.client
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
    response = conn.getresponse()
    data = json.loads(response.read())
    conn.close()
    return response.status, data


def test_the_room_sends_its_lines_uncompressed_and_serialized_once(server):
    """Mistakes: permessage-deflate left on (a sixth of a busy room's core for small JSON),
    a line to the room serialized again for every connection."""
    running, port = server
    ann, _ = join(port, "r", "ann")
    bob, _ = join(port, "r", "bob")
    assert not ann.response.headers.get("Sec-WebSocket-Extensions")  # the client offered deflate
    host = running.rooms.rooms["r"]

    def say_and_take():  # on the loop, before any writer runs: what each connection has queued
        host.say("ann", "hello all")
        host.flush()  # the turn's commit, which the loop would make after this call
        taken = []
        for conns in host.connections.values():
            for conn in conns:
                while not conn.queue.empty():
                    taken.append(conn.queue.get_nowait())
        return taken
    texts = in_loop(running, say_and_take)
    said = [t for t in texts if isinstance(t, str) and "hello all" in t]
    assert len(said) == 2 and said[0] is said[1]
    ann.close()
    bob.close()


def _messages(ws, until_type, seconds=10):
    """Every message up to the whole frame holding one of ``until_type``, as (frame, position, message)."""
    got = []
    deadline = time.monotonic() + seconds
    for frames in range(10_000):
        frame = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        got += [(frames, number, m) for number, m in enumerate(frame if isinstance(frame, list) else [frame])]
        if any(m["type"] == until_type for _, _, m in got):
            return got


def test_a_batching_client_gets_each_commands_messages_in_one_frame(server):
    """Mistakes: a batch frame that drops or reorders messages, a batch sent to a client that did
    not ask (a bot written from the docs reads one object a frame), a command's messages split."""
    running, port = server
    ann = connect(url(port, "b"))
    ann.send(json.dumps({"join": "ann", "batch": True}))
    _messages(ann, "welcome")
    bob, _ = join(port, "b", "bob")
    while not any(p["name"] == "bob" and p["online"] for _, _, m in _messages(ann, "players")
                  if m["type"] == "players" for p in m["players"]):
        pass  # bob joins, then comes online
    until(bob, "players")
    bob.send(json.dumps({"say": "/start"}))
    theirs = _messages(bob, "players")
    mine = _messages(ann, "players")
    # bob: one object a frame; ann: the whole command in one array, in the same order
    assert all(number == 0 for _, number, _ in theirs) and len({frame for frame, _, _ in theirs}) == len(theirs)
    assert len({frame for frame, _, _ in mine}) == 1 and [n for _, n, _ in mine] == list(range(len(mine)))
    shared = [m["type"] for _, _, m in theirs if m["type"] != "hand"]
    assert [m["type"] for _, _, m in mine if m["type"] != "hand"] == shared
    assert shared[:2] == ["chat", "round_start"] and shared[-1] == "players"
    hand = [m for _, _, m in mine if m["type"] == "hand"]
    assert len(hand) == 1 and len(hand[0]["cards"]) == 9  # her own hand only
    ann.close()
    bob.close()


def test_an_offer_or_a_trade_sends_the_open_offers_alone(server):
    """Mistake: the whole players table after every offer (six times the bytes of the offers,
    the largest share of a busy room's traffic), or offers that disagree with the room's."""
    running, port = server
    ann, _ = join(port, "o", "ann")
    bob, _ = join(port, "o", "bob")
    ann.send(json.dumps({"say": "/start"}))
    hand = until(ann, "hand")["cards"]
    until(bob, "hand")
    until(bob, "players")  # the deal's table
    first = hand[0]["item"]
    positions = "".join(str(c["position"]) for c in hand if c["item"] == first)[:1]
    ann.send(json.dumps({"say": f"/b {positions}"}))
    seen = []
    while not seen or seen[-1]["type"] != "offers":
        seen.append(json.loads(bob.recv(timeout=10)))
    assert [m["type"] for m in seen][-2:] == ["offer", "offers"]
    assert "players" not in [m["type"] for m in seen]
    room = running.rooms.rooms["o"]
    assert seen[-1]["offers"] == [{"player": "ann", "count": 1}] == in_loop(running, room.chat.offers)
    assert seen[-1]["text"] == "open offers: ann 1"
    story = in_loop(running, lambda: running.rooms.rooms["o"].chat.recent("bob"))
    assert "offers" not in [m["type"] for m in story] and "offer" in [m["type"] for m in story]
    ann.close()
    bob.close()


def test_a_batching_writer_caps_its_frames_and_closes_after_what_came_before_the_stop():
    """Mistakes in the writer: frames past MAX_BATCH messages, messages queued before an
    overflowing connection's stop lost or sent after the close, a lone message sent as an array,
    a plain client batched."""
    from hogsolve.gui.sinbad import MAX_BATCH, Connection

    class Socket:
        def __init__(self):
            self.sent = []

        async def send_text(self, text):
            self.sent.append(json.loads(text))

        async def close(self, code):
            self.sent.append(("closed", code))

    async def written(batch, texts):
        socket = Socket()
        conn = Connection(socket)
        conn.batch = batch
        for text in texts:
            conn.queue.put_nowait(text)
        await conn.writer()
        return socket.sent

    many = [json.dumps({"n": n}) for n in range(MAX_BATCH + 3)]
    sent = asyncio.run(written(True, many + [None]))
    assert [len(frame) for frame in sent[:2]] == [MAX_BATCH, 3] and sent[2] == ("closed", 1008)
    assert [m["n"] for frame in sent[:2] for m in frame] == list(range(MAX_BATCH + 3))
    assert asyncio.run(written(True, [many[0], None])) == [{"n": 0}, ("closed", 1008)]
    assert asyncio.run(written(False, many[:2] + [None])) == [{"n": 0}, {"n": 1}, ("closed", 1008)]
