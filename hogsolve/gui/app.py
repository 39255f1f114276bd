"""The web app: pages, a JSON API and WebSockets, as one Starlette application.

Routes (every API answer is JSON; every error ``{"error": message}`` with a
4xx status, never a traceback):

* ``GET  /``, ``/pig``, ``/sibala``, ``/friend``, ``/sinbad``, ``/sinbad/ROOM``   the pages
* ``GET  /favicon.ico``                  a redirect to the site icon
* ``GET  /api/rulesets``                 every game: name, family, description, caveat
* ``GET  /api/policy/NAME[?memory=A,B]`` the optimal policy and win probabilities
  (Hog: one memory slice under Feral Hogs; roll-or-hold: hold thresholds);
  202 with ``{"preparing"}`` while the bot is still loading
* ``POST /api/games``  ``{"rules", "first": "you"|"bot", "seed"?}``  a game against the bot (202 likewise)
* ``GET  /api/games/ID``                 its state (resume after a reload)
* ``POST /api/games/ID/move``  ``{"dice": n}`` or ``{"action": "roll"|"hold"}``  your move, then the bot's
* ``GET  /api/games/ID/hint``            the optimal move and its values
* ``POST /api/tables``  ``{"rules", "seed"?}``  a table for two people: seat 0 and its token
* ``POST /api/tables/ID/join``           seat 1 and its token (409 when taken)
* ``WS   /api/tables/ID/ws``             first ``{"token"}``, then ``{"move"}`` or ``{"hint": true}``;
  the server pushes ``{"type": "state", ...}`` after every change
* ``GET  /api/sinbad/rooms``             the SinbadHogBot rooms open now
* ``WS   /sinbad/ROOM/ws``               a SinbadHogBot room (docs/guides/sinbad-bot.md)
* ``GET  /static/...``                   the pages' scripts, styles and images
* only under ``hogsolve lab``, its one file's strategy lab: ``GET  /lab`` the page,
  ``GET  /api/lab`` the figures, ``GET  /api/lab/state`` one state (``?at=S,O``),
  ``GET  /api/lab/maps`` the maps at other memories (``?memory=A,B``),
  ``GET  /api/lab/game`` a game (``?seed=N``), ``WS   /api/lab/ws`` the figures after every run

Who may call any of it is :mod:`hogsolve.gui.guard`'s business.
"""
from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
from collections import OrderedDict
from pathlib import Path
from typing import Any, Dict, Optional

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import HogsolveError
from .friends import FriendTables
from .lab import LabServer
from .sinbad import SinbadRooms
from .games import Bots, Catalog, GameError, GameStore
from .guard import MAX_BODY, Access, Guard
from .sockets import receive_json

STATIC = Path(__file__).resolve().parent / "static"
PAGES = {"/": "index.html", "/pig": "pig.html", "/sibala": "sibala.html", "/friend": "friend.html",
         "/sinbad": "sinbad_lobby.html", "/sinbad/{room}": "sinbad.html"}
#: Seconds a request waits for a bot being loaded before answering 202 "preparing".
BOT_WAIT = 0.5
POLICY_CACHE = 64


def json_reply(payload, status: int = 200) -> JSONResponse:
    """Standard JSON (no NaN), never cached."""
    return JSONResponse(payload, status_code=status, headers={"Cache-Control": "no-store"})


async def read_json(request: Request, limit: int = MAX_BODY) -> dict:
    """The body as a JSON object, at most ``limit`` bytes however it is sent (400, 413)."""
    raw = b""
    try:
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > limit:
                raise GameError(413, f"body over {limit} bytes")
    except ClientDisconnect:
        raise GameError(400, "the client left before its request arrived") from None
    try:
        data = json.loads(raw.decode("utf-8") or "null")
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise GameError(400, "body is not valid JSON") from None
    if not isinstance(data, dict):
        raise GameError(400, "body must be a JSON object")
    return data


def _loopback(host: str) -> bool:
    """True for ``localhost`` or a loopback address, with or without its port."""
    name = host.rsplit(":", 1)[0] if not host.startswith("[") else host[1:host.index("]")]
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def seed_of(body: dict) -> Optional[int]:
    """A request's optional seed, checked."""
    seed = body.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 63):
        raise GameError(400, f"seed must be a non-negative integer, got {seed!r}")
    return seed


class Api:
    """The handlers, sharing one catalog, bot loader, game store and table store."""

    def __init__(self, catalog: Catalog, default_rules: str, access_token: Optional[str] = None, **store_options):
        self.catalog, self.access_token = catalog, access_token
        self.lan_hosts: tuple = ()  # host:port on the network (network mode), for friend links
        self.bots = Bots(catalog)
        self.store = GameStore(catalog, self.bots, default_rules, **store_options)
        self.tables = FriendTables(catalog, self.bots)
        self.policies: "OrderedDict[tuple, bytes]" = OrderedDict()

    def name(self, raw, status: int = 400) -> str:
        """The canonical game name, or a GameError listing what there is."""
        name = self.catalog.canonical(raw)
        if name is None:
            raise GameError(status, f"unknown game {str(raw)[:80]!r}; GET /api/rulesets lists them")
        return name

    async def rulesets(self, request: Request):
        """GET /api/rulesets."""
        return json_reply({"default": self.store.default_rules, "rulesets": self.catalog.listing()})

    async def policy(self, request: Request):
        """GET /api/policy/NAME."""
        name = self.name(request.path_params["name"], 404)
        family = self.catalog.family(name)
        if family is None:
            raise GameError(404, "Sibala has no policy: nobody decides anything")
        rules = self.catalog.rules(name)
        memory = self.memory_slice(request.query_params.get("memory"), rules)
        key = (name, memory)
        if key not in self.policies:  # kept as the bytes sent (a few hundred kB each at most)
            bot = await self.bots.wait(name, BOT_WAIT)
            if bot is None:
                return json_reply(self.bots.progress(name), 202)
            payload = family.policy_map(name, rules, bot, memory)
            self.policies[key] = bytes(json_reply(payload).body)
            while len(self.policies) > POLICY_CACHE:
                self.policies.popitem(last=False)
        self.policies.move_to_end(key)
        return Response(self.policies[key], media_type="application/json", headers={"Cache-Control": "no-store"})

    @staticmethod
    def memory_slice(raw: Optional[str], rules) -> tuple:
        """``(mover's memory, opponent's memory)`` from ``?memory=A,B`` (both 0 when absent)."""
        if not rules.context_shape:
            if raw:
                raise GameError(400, f"{rules.name} has no memories")
            return ()
        size = rules.context_shape[0]
        try:
            pair = tuple(int(x) for x in (raw or "0,0").split(","))
        except ValueError:
            pair = ()
        if len(pair) != 2 or not all(0 <= x < size for x in pair):
            raise GameError(400, f"memory must be two whole numbers from 0 to {size - 1}, like 3,5")
        return pair

    async def new_game(self, request: Request):
        """POST /api/games."""
        body = await read_json(request)
        name = self.name(body.get("rules", self.store.default_rules))
        first = body.get("first", "you")
        if first not in ("you", "bot"):
            raise GameError(400, f"first must be 'you' or 'bot', got {first!r}")
        seed = seed_of(body)
        bot = None
        if self.catalog.family(name) is not None:
            bot = await self.bots.wait(name, BOT_WAIT)
            if bot is None:
                return json_reply(self.bots.progress(name), 202)
        return json_reply(self.store.create(name, first == "you", seed, bot).state(), 201)

    async def game(self, request: Request):
        """GET /api/games/ID."""
        return json_reply(self.store.get(request.path_params["id"]).state())

    async def move(self, request: Request):
        """POST /api/games/ID/move."""
        game = self.store.get(request.path_params["id"])
        game.move(await read_json(request))
        return json_reply(game.state())

    async def hint(self, request: Request):
        """GET /api/games/ID/hint."""
        return json_reply(self.store.get(request.path_params["id"]).hint())

    async def new_table(self, request: Request):
        """POST /api/tables."""
        body = await read_json(request)
        name = self.name(body.get("rules", self.store.default_rules))
        table = self.tables.create(name, seed_of(body))
        self.bots.job(name)  # the hint's bot, loaded meanwhile
        return json_reply({"table": table.id, "seat": 0, "token": table.tokens[0], "rules": name,
                           "join": self.join_link(table.id),
                           "lan": list(self.lan_hosts)}, 201)

    def join_link(self, table_id: str) -> str:
        """The path a friend opens to take the other seat (with the network's access token)."""
        return "/friend" + (f"?access={self.access_token}" if self.access_token else "") + f"#table={table_id}"

    async def join_table(self, request: Request):
        """POST /api/tables/ID/join."""
        table = self.tables.get(request.path_params["id"])
        seat, token = table.join()
        return json_reply({"table": table.id, "seat": seat, "token": token,
                           "rules": table.duel.rules.name}, 200)

    async def table_socket(self, websocket: WebSocket):
        """One seat's connection: authenticate with the seat token, then move and be told."""
        await websocket.accept()
        try:
            table = self.tables.get(websocket.path_params["id"])
        except GameError as exc:
            await websocket.send_json({"type": "error", "text": str(exc)})
            return await websocket.close(4404)
        try:
            first = await receive_json(websocket)
        except WebSocketDisconnect:
            return
        seat = table.seat_of(first.get("token") if isinstance(first, dict) else None)
        if seat is None:
            await websocket.send_json({"type": "error", "text": "that is not a seat's token at this table"})
            return await websocket.close(4403)
        await serve_seat(websocket, table, seat)


async def serve_seat(websocket: WebSocket, table, seat: int) -> None:
    """Push the table's state after every change; apply this seat's moves in arrival order."""
    queue: asyncio.Queue = asyncio.Queue()
    table.listeners.add(queue)
    table.online[seat] += 1
    table.changed()

    async def pushes():
        while True:
            await queue.get()
            while not queue.empty():
                queue.get_nowait()  # many changes, one push of the latest state
            await websocket.send_json(table.view(seat))
    pusher = asyncio.create_task(pushes())
    try:
        while True:
            message = await receive_json(websocket)
            if not isinstance(message, dict):
                await websocket.send_json({"type": "error", "text": "send JSON objects"})
            elif message.get("hint"):
                await websocket.send_json({"type": "hint", **table.hint(seat)})
            elif "move" in message:
                try:
                    table.move(seat, message["move"])
                except GameError as exc:
                    await websocket.send_json({"type": "error", "text": str(exc)})
            else:
                await websocket.send_json({"type": "error", "text": "send {\"move\": ...} or {\"hint\": true}"})
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        pusher.cancel()
        table.listeners.discard(queue)
        table.online[seat] -= 1
        table.changed()


def page(file: str):
    """The route handler of one page of the app."""
    async def serve_page(request: Request):
        return FileResponse(STATIC / file, headers={"Cache-Control": "no-cache"})
    return serve_page


async def game_error(request, exc: GameError):
    """A refused request: its status and message as JSON."""
    return json_reply({"error": str(exc)}, exc.status)


async def refused(request, exc: HogsolveError):
    """A deliberate refusal below the web layer (a game that does not offer what was asked): 400."""
    return json_reply({"error": " ".join(str(exc).split())[:300]}, 400)


async def http_error(request, exc: HTTPException):
    """Starlette's own 404 and 405 in our JSON shape (405 keeps its Allow header)."""
    words = {404: f"not found: {request.url.path[:200]}", 405: f"{request.method} is not allowed here"}
    headers = {"Allow": exc.headers["Allow"]} if exc.headers and "Allow" in exc.headers else None
    response = json_reply({"error": words.get(exc.status_code, exc.detail)}, exc.status_code)
    if headers:
        response.headers.update(headers)
    return response


async def server_error(request, exc: Exception):
    """A bug: still JSON, never a traceback."""
    return json_reply({"error": f"internal error: {type(exc).__name__}"}, 500)


def create_app(access: Access, default_rules: str = "su18", rule_files: Optional[dict] = None,
               sinbad: Optional[SinbadRooms] = None, lab: Optional[Any] = None, **store_options) -> Guard:
    """The whole web app behind its guard (see the module docstring); ``sinbad``: the chat
    rooms (by default kept in memory only); ``lab``: the strategy lab of ``hogsolve lab``'s
    one file (a :class:`~hogsolve.gui.lab.Lab`), whose page and routes exist only then."""
    api = Api(Catalog(rule_files), default_rules, access.token, **store_options)
    api.lan_hosts = tuple(host for host in access.hosts if access.token and not _loopback(host))
    rooms = sinbad if sinbad is not None else SinbadRooms(None)
    lab_server = LabServer(lab) if lab is not None else None

    async def sinbad_rooms(request: Request):
        """GET /api/sinbad/rooms: every room, its seats and whether a game is on."""
        return json_reply({"rooms": [{"room": name, "players": len(host.chat.seats), "playing": host.chat.playing}
                                     for name, host in rooms.rooms.items()]})

    @contextlib.asynccontextmanager
    async def lifespan(app):
        rooms.start()  # replay the event log: every room (and its bots) as it was
        if lab_server is not None:
            await lab_server.start()
        yield
        if lab_server is not None:
            await lab_server.close()
    routes = [
        *(Route(path, page(file), methods=["GET"]) for path, file in PAGES.items()),
        Route("/favicon.ico", lambda request: RedirectResponse("/static/favicon.svg", 301), methods=["GET"]),
        Route("/api/rulesets", api.rulesets, methods=["GET"]),
        Route("/api/policy/{name}", api.policy, methods=["GET"]),
        Route("/api/games", api.new_game, methods=["POST"]),
        Route("/api/games/{id:str}", api.game, methods=["GET"]),
        Route("/api/games/{id:str}/move", api.move, methods=["POST"]),
        Route("/api/games/{id:str}/hint", api.hint, methods=["GET"]),
        Route("/api/tables", api.new_table, methods=["POST"]),
        Route("/api/tables/{id:str}/join", api.join_table, methods=["POST"]),
        WebSocketRoute("/api/tables/{id:str}/ws", api.table_socket),
        Route("/api/sinbad/rooms", sinbad_rooms, methods=["GET"]),
        WebSocketRoute("/sinbad/{room:str}/ws", rooms.serve),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    if lab_server is not None:
        routes[:0] = [Route("/lab", page("lab.html"), methods=["GET"]), *lab_server.routes()]
    handlers: Dict[Any, Any] = {GameError: game_error, HogsolveError: refused, HTTPException: http_error,
                                Exception: server_error}
    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan)
    guarded = Guard(app, access)
    guarded.api, guarded.rooms, guarded.lab = api, rooms, lab_server  # the stores, for tests and benchmarks
    return guarded
