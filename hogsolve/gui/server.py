"""HTTP for the GUI: a JSON API and the static page, bound to 127.0.0.1.

API (every answer is JSON; every error is ``{"error": message}`` with a 4xx
status, never a traceback):

* ``GET  /api/rulesets``                   names, descriptions, the default
* ``GET  /api/policy/NAME``                optimal policy and win probabilities
* ``POST /api/games``   ``{"rules", "first": "you"|"bot", "seed"?}``   a new game
* ``GET  /api/games/ID``                   the game's state (resume after reload)
* ``POST /api/games/ID/roll``  ``{"dice": n}``  your turn, then the bot's
* ``GET  /api/games/ID/hint``              the optimal move and every count's value

Static files come only from the ``static`` folder next to this module.
"""
from __future__ import annotations

import json
import re
import threading
import webbrowser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Optional, Tuple
from urllib.parse import unquote, urlsplit

from ..rules import UnknownRulesetError, rulesets
from .games import GameError, GameStore

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 64 * 1024
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".png": "image/png", ".svg": "image/svg+xml"}


def policy_payload(store: GameStore, name: str) -> dict:
    bot = store.bot(name)
    return {"rules": name, "goal": int(bot.rules.goal),
            "policy": bot.table.astype(int).tolist(),
            "win_probability": [[round(float(x), 6) for x in row] for row in bot.win_probability]}


class Handler(BaseHTTPRequestHandler):
    server_version = "hogsolve"
    store: GameStore  # set by make_server
    policy_cache: dict

    def log_message(self, format, *args):  # quiet: the terminal shows only the URL
        pass

    # -- plumbing ---------------------------------------------------------
    def send_json(self, status: int, payload) -> None:
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def fail(self, status: int, message: str) -> None:
        self.send_json(status, {"error": message})

    def read_json(self) -> dict:
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            raise GameError(400, "bad Content-Length") from None
        if length > MAX_BODY:
            raise GameError(413, f"body over {MAX_BODY} bytes")
        raw = self.rfile.read(length) if length > 0 else b""
        try:
            data = json.loads(raw.decode("utf-8") or "null")
        except (UnicodeDecodeError, ValueError):
            raise GameError(400, "body is not valid JSON") from None
        if not isinstance(data, dict):
            raise GameError(400, "body must be a JSON object")
        return data

    def dispatch(self, method: str) -> None:
        try:
            path = urlsplit(self.path).path
            if path.startswith("/api/"):
                self.api(method, path)
            elif method == "GET":
                self.static(path)
            else:
                raise GameError(405, f"{method} is not allowed here")
        except GameError as exc:
            self.fail(exc.status, str(exc))
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception as exc:  # a bug: still answer in JSON, without a traceback
            self.fail(500, f"internal error: {type(exc).__name__}")

    def do_GET(self):
        self.dispatch("GET")

    def do_POST(self):
        self.dispatch("POST")

    def do_PUT(self):
        self.dispatch("PUT")

    def do_DELETE(self):
        self.dispatch("DELETE")

    # -- API --------------------------------------------------------------
    def api(self, method: str, path: str) -> None:
        route, arg = match_route(path)
        allowed = {"rulesets": "GET", "policy": "GET", "games": "POST", "game": "GET",
                   "roll": "POST", "hint": "GET"}
        if route is None:
            raise GameError(404, f"no such API path: {path}")
        if method != allowed[route]:
            raise GameError(405, f"{method} is not allowed on {path}")
        store = self.store
        if route == "rulesets":
            self.send_json(200, {"default": store.default_rules, "rulesets": [
                {"name": r.name, "description": r.description} for r in rulesets().values()]})
        elif route == "policy":
            if arg not in rulesets():
                raise GameError(404, f"unknown ruleset {arg!r}")
            if arg not in self.policy_cache:
                self.policy_cache[arg] = policy_payload(store, arg)
            self.send_json(200, self.policy_cache[arg])
        elif route == "games":
            self.send_json(201, self.new_game(self.read_json()))
        elif route == "game":
            self.send_json(200, store.get(arg).state())
        elif route == "roll":
            game = store.get(arg)
            dice = self.read_json().get("dice")
            if isinstance(dice, bool) or not isinstance(dice, int) or not 0 <= dice <= game.rules.max_dice:
                raise GameError(400, f"dice must be an integer from 0 to {game.rules.max_dice}, got {dice!r}")
            game.play(dice)
            self.send_json(200, game.state())
        elif route == "hint":
            self.send_json(200, store.get(arg).hint())

    def new_game(self, body: dict) -> dict:
        name = body.get("rules", self.store.default_rules)
        first = body.get("first", "you")
        seed = body.get("seed")
        if not isinstance(name, str) or name not in rulesets():
            raise GameError(400, f"unknown ruleset {name!r}; choose from {', '.join(rulesets())}")
        if first not in ("you", "bot"):
            raise GameError(400, f"first must be 'you' or 'bot', got {first!r}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise GameError(400, f"seed must be a non-negative integer, got {seed!r}")
        try:
            return self.store.create(name, first == "you", seed).state()
        except UnknownRulesetError as exc:
            raise GameError(400, str(exc)) from None

    # -- static files -----------------------------------------------------
    def static(self, path: str) -> None:
        file = static_file(path)
        if file is None:
            raise GameError(404, f"not found: {path}")
        body = file.read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", TYPES.get(file.suffix, "application/octet-stream"))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


ROUTES = [
    (re.compile(r"^/api/rulesets$"), "rulesets"),
    (re.compile(r"^/api/policy/([a-z0-9_-]{1,40})$"), "policy"),
    (re.compile(r"^/api/games$"), "games"),
    (re.compile(r"^/api/games/([0-9a-f]{1,64})$"), "game"),
    (re.compile(r"^/api/games/([0-9a-f]{1,64})/roll$"), "roll"),
    (re.compile(r"^/api/games/([0-9a-f]{1,64})/hint$"), "hint"),
]


def match_route(path: str) -> Tuple[Optional[str], Optional[str]]:
    for pattern, name in ROUTES:
        m = pattern.match(path)
        if m:
            return name, (m.group(1) if m.groups() else None)
    return None, None


def static_file(path: str) -> Optional[Path]:
    """The file under STATIC that ``path`` names, or None; never anything outside it."""
    if path in ("", "/"):
        path = "/index.html"
    name = unquote(path)
    if "\x00" in name or "\\" in name:
        return None
    relative = name.lstrip("/")
    if relative.startswith("static/"):
        relative = relative[len("static/"):]
    root = STATIC.resolve()
    candidate = (root / relative).resolve()
    if root not in candidate.parents or not candidate.is_file():
        return None
    return candidate


def make_server(port: int = 0, default_rules: str = "su18") -> ThreadingHTTPServer:
    """A server on 127.0.0.1 (port 0: any free port), not yet serving."""
    store = GameStore(default_rules)
    handler = type("BoundHandler", (Handler,), {"store": store, "policy_cache": {}})
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    return server


def serve(default_rules: str = "su18", port: int = 8061, open_browser: bool = True,
          announce=print) -> None:
    """Serve until interrupted, printing the URL and opening a browser."""
    server = make_server(port, default_rules)
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    announce(f"hogsolve GUI at {url} (Ctrl-C to stop)")
    if open_browser:
        threading.Timer(0.3, webbrowser.open, args=(url,)).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
