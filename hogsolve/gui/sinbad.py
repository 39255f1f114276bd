"""SinbadHogBot rooms on the web app: WebSockets, server-side bots, the event log.

A room (``/sinbad/ROOM``) is a :class:`~hogsolve.sinbad.chatroom.ChatRoom`
held by one :class:`RoomHost` on the server's event loop.  Every command is
applied whole before the next (nothing awaits in between), appended to the
:class:`~hogsolve.util.eventlog.EventLog` and only then sent out (after the
one commit of its turn of the event loop), each connection through its own
queue so a slow reader delays nobody else.  On
start the log is replayed, so a killed server comes back with every room.

The protocol (``/sinbad/ROOM/ws``): the client's first message is
``{"join": NAME}`` or ``{"join": NAME, "token": T}`` (with ``"batch": true``,
the messages waiting for the client go in one frame, a JSON array); then
``{"say": LINE}``.  The server answers with JSON objects that all have
``type`` and ``text``: ``welcome`` (the seat's ``token``), ``history`` (the
recent lines), ``players``, ``offers`` (the open offers alone),
``round_start``, ``hand`` (private), ``offer``, ``my_offer`` (private),
``trade``, ``received`` (private), ``chat``, ``status``, ``hog``, ``stall``,
``round_over``, ``game_over`` and ``error`` (private; nothing changed).
"""
from __future__ import annotations

import asyncio
import hmac
import random
import secrets
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Set

import orjson
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..sinbad.bots import BOTS
from ..sinbad.chatroom import BOT_KINDS, ChatRoom, Out, RoomError
from ..sinbad.room import Message
from ..sinbad.rules import NAME
from ..util.eventlog import EventLog
from .sockets import NOT_JSON, receive_json

#: Rooms a server holds, connections a seat may have, lines a connection may send per second.
MAX_ROOMS = 1000
MAX_CONNECTIONS_PER_SEAT = 4
RATE = 20.0
BURST = 40.0
#: Messages waiting for one slow connection before it is dropped.
MAX_QUEUE = 2000
#: Messages at most in one frame to a client that joined with ``"batch": true``.
MAX_BATCH = 64
#: A round that lasts this long without a hog stalls (largest collections score): bots can trade
#: for ever, and people wander off.
STALL_SECONDS = 180.0


def encode(message: dict) -> str:
    """A message as the JSON text of one frame (orjson: a room's lines are encoded a thousand
    times a second under load, four times faster than the standard library)."""
    return orjson.dumps(message).decode()


class Connection:
    """One WebSocket: its queue of outgoing messages and its rate limit."""

    def __init__(self, websocket: WebSocket, clock=time.monotonic):
        self.websocket, self.clock = websocket, clock
        self.queue: asyncio.Queue = asyncio.Queue()
        self.batch = False  # the client reads a JSON array of messages as several frames
        self.tokens, self.last = BURST, clock()
        self.noticed = -1e9  # when the client was last told to slow down

    def allow(self) -> bool:
        """Take one line from the token bucket; False when the client sends too fast."""
        now = self.clock()
        self.tokens = min(BURST, self.tokens + (now - self.last) * RATE)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def notice_due(self) -> bool:
        """True at most once every few seconds of throttling: one notice per flood."""
        now = self.clock()
        due = now - self.noticed > 5.0
        self.noticed = now
        return due

    def send(self, message: dict) -> None:
        """Queue a message (a connection that stopped reading is closed instead)."""
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        """Queue a message already in JSON (one line to a room is serialized once for all)."""
        if self.queue.qsize() >= MAX_QUEUE:
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    async def writer(self) -> None:
        """Send the queue's messages in order until told to stop (None).  To a batching client,
        whatever is waiting when the writer wakes (a command's messages, or several commands' under
        load) goes as one frame, a JSON array: fewer frames for both sides, no added delay."""
        while True:
            texts = [await self.queue.get()]
            while self.batch and texts[-1] is not None and len(texts) < MAX_BATCH and not self.queue.empty():
                texts.append(self.queue.get_nowait())
            stop = texts[-1] is None
            if stop:
                texts.pop()
            if texts:
                await self.websocket.send_text(texts[0] if len(texts) == 1 else "[" + ",".join(texts) + "]")
            if stop:
                await self.websocket.close(1008)
                return


class RoomHost:
    """One room on the server: its game, its connections, its bots and its log."""

    def __init__(self, name: str, seed: int, log: Optional[EventLog], think: float, stall: float):
        self.chat = ChatRoom(name, seed)
        self.log, self.think, self.stall_after = log, think, stall
        self.connections: Dict[str, Set[Connection]] = {}
        self.bots: Dict[str, asyncio.Task] = {}
        self.brains: Dict[str, Any] = {}  # a bot kind's brain per seat (observe, speak)
        self.progress = time.monotonic()
        self.stall_task: Optional[asyncio.Task] = None
        self.replaying = False

    # -- applying -----------------------------------------------------------
    def apply(self, command: dict, sender: Optional[str] = None) -> List[Out]:
        """Apply, log, then deliver a command; a refusal goes to ``sender`` alone (RoomError)."""
        out = self.chat.apply(command)
        if self.log is not None and not self.replaying:
            self.log.append(self.chat.name, self.chat.applied, command)
            if any(o.message["type"] == "game_over" for o in out):
                game = self.chat.current.game
                self.log.finish_game(self.chat.name, self.chat.games, dict(game.totals), list(game.winners))
        if any(o.message["type"] == "round_start" for o in out):
            self.progress = time.monotonic()  # the round's clock
        self.in_order(lambda: self.deliver(out))
        return out

    def in_order(self, action: Callable[[], None]) -> None:
        """Run ``action`` (a sending) once what this turn of the loop applied is logged, after
        the sendings before it."""
        if self.log is not None:
            self.log.after_commit(action)
        else:
            action()

    def flush(self) -> None:
        """Commit what this turn of the loop applied and send it now (before a reply that goes
        straight to a socket)."""
        if self.log is not None:
            self.log.commit()

    def say(self, name: str, line: str) -> None:
        """A seat's line: server commands (/bot) become room commands; refusals come back privately."""
        text = line.strip()
        try:
            if text.startswith("/bot"):
                self.bot_command(name, text)
            else:
                self.apply({"op": "say", "name": name, "line": line}, name)
        except RoomError as exc:
            self.private(name, {"type": "error", "text": f"error: {exc}"})

    def bot_command(self, name: str, text: str) -> None:
        """``/bot add KIND`` or ``/bot remove NAME``."""
        words = text.split()
        if len(words) == 3 and words[1] == "add":
            kind = words[2].lower()
            if kind not in BOT_KINDS:
                raise RoomError(f"no bot kind {kind!r}; choose from {', '.join(BOT_KINDS)}")
            number = 1
            while any(n.lower() == f"{kind}{number}" for n in self.chat.seats):
                number += 1
            self.add_bot(f"{kind}{number}", kind)
        elif len(words) == 3 and words[1] == "remove":
            self.apply({"op": "unseat", "name": words[2]}, name)
            self.stop_bot(words[2])
        else:
            raise RoomError("usage: /bot add KIND (random, greedy or tracker), /bot remove NAME")

    def add_bot(self, name: str, kind: str) -> None:
        """Seat a server-side bot and start it."""
        self.apply({"op": "seat", "name": name, "kind": kind, "token": secrets.token_urlsafe(16)})
        self.start_bot(name, kind)

    def start_bot(self, name: str, kind: str) -> None:
        """Start the bot of a seat (again, after a replay)."""
        self.brains[name] = BOTS[kind](name, random.Random(f"{self.chat.name}/{name}/{self.chat.seed}"))
        if self.chat.playing:
            for out in self._bot_catch_up(name):
                self.brains[name].observe(out)
        self.bots[name] = asyncio.get_running_loop().create_task(self.bot_loop(name))

    def _bot_catch_up(self, name: str) -> List[Message]:
        """What a bot restarted mid-round must know: the round's items and its hand."""
        r = self.chat.current
        items = tuple((i, r.round.values[i]) for i in r.round.items)
        return [Message("", None, ("round", r.game.rounds, items))]

    def stop_bot(self, name: str) -> None:
        """Stop a bot's task."""
        task = self.bots.pop(name, None)
        if task is not None:
            task.cancel()
        self.brains.pop(name, None)

    async def bot_loop(self, name: str) -> None:
        """Think, then act, as long as the seat exists."""
        rng = random.Random(f"think/{name}")
        while name in self.chat.seats:
            await asyncio.sleep(self.think * (0.5 + rng.random()))
            chat = self.chat
            if not chat.playing or name not in chat.current.game.totals:
                continue
            line = self.brains[name].speak(tuple(chat.current.round.hands[name]), time.monotonic())
            if line:
                self.say(name, line)

    # -- delivering ---------------------------------------------------------
    def deliver(self, out: List[Out]) -> None:
        """Each line to everyone or to its addressee; bots read the engine's messages."""
        if self.replaying:
            return
        for o in out:
            targets = self.connections.values() if o.to is None else [self.connections.get(o.to, ())]
            text = encode(o.message)
            for conns in targets:
                for conn in conns:
                    conn.send_text(text)
            if o.engine is not None:
                for name, brain in self.brains.items():
                    if o.to is None or o.to == name:
                        brain.observe(o.engine)

    def tell(self, conn: Connection, message: dict) -> None:
        """A message to one connection, in the order of what caused it."""
        self.in_order(lambda: conn.send(message))

    def private(self, name: str, message: dict) -> None:
        """A message to every connection of one seat."""
        for conn in self.connections.get(name, ()):
            self.tell(conn, message)

    async def watch_stalls(self) -> None:
        """Stall a round that has lasted ``stall_after`` seconds without a hog."""
        while True:
            await asyncio.sleep(max(0.05, self.stall_after / 4))
            if self.chat.playing and time.monotonic() - self.progress > self.stall_after:
                self.apply({"op": "stall"})


class SinbadRooms:
    """Every room of the server, by name; the event log; the WebSocket endpoint."""

    def __init__(self, data: Optional[Path], think: float = 0.4, stall: float = STALL_SECONDS,
                 max_rooms: int = MAX_ROOMS, opening: Optional[tuple] = None,
                 announce: Optional[Callable[[str], None]] = None):
        self.log = EventLog(Path(data) / "sinbad.sqlite3", group=True) if data is not None else None
        self.think, self.stall, self.max_rooms, self.opening = think, stall, max_rooms, opening
        self.announce = announce
        self.rooms: Dict[str, RoomHost] = {}
        self.started = False
        self.loop: Optional[asyncio.AbstractEventLoop] = None

    def start(self) -> None:
        """Replay the log (once, on the running loop): every room as it was."""
        if self.started:
            return
        self.started = True
        self.loop = asyncio.get_running_loop()  # the one thread that touches the rooms
        log = self.log
        for name, seed in log.rooms() if log is not None else ():
            host = self._host(name, seed)
            host.replaying = True
            for _seq, command in log.commands(name) if log is not None else ():
                try:
                    host.chat.apply(command)
                except RoomError:  # never logged; a damaged log stops this room's replay here
                    break
            host.replaying = False
            if self.announce is not None:
                self.announce(f"replayed room {name}: {host.chat.applied} commands, state {host.chat.fingerprint()}")
            for seat in host.chat.seats.values():
                if seat.kind != "person":
                    host.start_bot(seat.name, seat.kind)
                else:
                    seat.online = False  # nobody is connected to a fresh process
        if self.opening is not None and self.opening[0] not in self.rooms:
            name, kinds, seed = self.opening
            host = self.room(name, seed)
            for kind in kinds:
                host.bot_command("", f"/bot add {kind}")

    def _host(self, name: str, seed: int) -> RoomHost:
        host = RoomHost(name, seed, self.log, self.think, self.stall)
        self.rooms[name] = host
        host.stall_task = asyncio.get_running_loop().create_task(host.watch_stalls())
        return host

    def room(self, name: str, seed: Optional[int] = None) -> RoomHost:
        """The room ``name``, made if new (with ``seed``, else a random one; RoomError past the
        cap or for a bad name)."""
        self.start()
        if name in self.rooms:
            return self.rooms[name]
        if not NAME.match(name):
            raise RoomError("a room name is one word of letters, digits, _ . or -")
        if len(self.rooms) >= self.max_rooms:
            raise RoomError(f"this server holds {self.max_rooms} rooms already")
        seed = seed if seed is not None else random.SystemRandom().randrange(2 ** 31)
        if self.log is not None:
            self.log.add_room(name, seed)
        return self._host(name, seed)

    async def serve(self, websocket: WebSocket) -> None:
        """One connection to a room: join (or resume) a seat, then lines in, messages out."""
        await websocket.accept()
        try:
            host = self.room(websocket.path_params["room"])
        except RoomError as exc:
            await websocket.send_json({"type": "error", "text": f"error: {exc}"})
            return await websocket.close(1008)
        conn = Connection(websocket)
        name = await self.join(websocket, host, conn)
        if name is None:
            return
        writer = asyncio.get_running_loop().create_task(conn.writer())
        try:
            while True:
                message = await receive_json(websocket)
                if not conn.allow():
                    if conn.notice_due():
                        host.tell(conn, {"type": "error", "text": "error: slow down: at most 20 lines a second"})
                    continue
                if message is NOT_JSON:
                    host.tell(conn, {"type": "error", "text": "error: send JSON objects such as {\"say\": \"/hand\"}"})
                    continue
                line = message.get("say") if isinstance(message, dict) else None
                if not isinstance(line, str):
                    host.tell(conn, {"type": "error", "text": "error: send {\"say\": LINE}"})
                    continue
                host.say(name, line)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            writer.cancel()
            seats = host.connections.get(name, set())
            seats.discard(conn)
            if not seats and name in host.chat.seats and host.chat.seats[name].kind == "person":
                host.connections.pop(name, None)
                host.apply({"op": "presence", "name": name, "online": False})  # vanished: away

    async def join(self, websocket: WebSocket, host: RoomHost, conn: Connection) -> Optional[str]:
        """The seat of a connection's first message, or None (told why, and closed)."""
        try:
            first = await receive_json(websocket)
        except WebSocketDisconnect:
            return None  # gone (or closed for an oversized message): nobody to tell
        name = first.get("join") if isinstance(first, dict) else None
        token = first.get("token") if isinstance(first, dict) else None
        conn.batch = isinstance(first, dict) and first.get("batch") is True
        try:
            if not isinstance(name, str):
                raise RoomError("the first message is {\"join\": NAME} (or with \"token\" to resume a seat)")
            seat = host.chat.seats.get(name)
            if seat is None:
                token = secrets.token_urlsafe(16)
                host.apply({"op": "seat", "name": name, "kind": "person", "token": token})
                seat = host.chat.seats[name]
            elif not isinstance(token, str) or not hmac.compare_digest(token.encode(), seat.token.encode()):
                raise RoomError(f"the name {name} is taken here; resume it with its token, or choose another")
            elif seat.kind != "person":
                raise RoomError(f"{name} is a server-side bot")
            elif len(host.connections.get(name, ())) >= MAX_CONNECTIONS_PER_SEAT:
                raise RoomError(f"{name} has {MAX_CONNECTIONS_PER_SEAT} connections already")
        except RoomError as exc:
            await websocket.send_json({"type": "error", "text": f"error: {exc}"})
            await websocket.close(4403)
            return None
        host.flush()  # the seat is on disk before its token goes out
        host.connections.setdefault(name, set()).add(conn)
        await websocket.send_json({"type": "welcome", "text": f"welcome to {host.chat.name}, {name}",
                                   "room": host.chat.name, "name": name, "token": seat.token})
        story = host.chat.recent(name)
        await websocket.send_json({"type": "history", "text": f"the room's last {len(story)} lines",
                                   "messages": story})
        if not seat.online:
            host.apply({"op": "presence", "name": name, "online": True})
            host.flush()
        else:
            conn.send(host.chat.players_message().message)
        hand = host.chat.hand(name)
        if hand is not None:
            conn.send(hand)
        return name
