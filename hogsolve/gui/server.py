"""HTTP for the GUI: a JSON API and the static page, bound to 127.0.0.1.

API (every answer is JSON; every error is ``{"error": message}`` with a 4xx
status, never a traceback):

* ``GET  /api/rulesets``                   names, descriptions, the default
* ``GET  /api/policy/NAME``                optimal policy and win probabilities
* ``POST /api/games``   ``{"rules", "first": "you"|"bot", "seed"?}``   a new game
* ``GET  /api/games/ID``                   the game's state (resume after reload)
* ``POST /api/games/ID/roll``  ``{"dice": n}``  your turn, then the bot's
* ``GET  /api/games/ID/hint``              the optimal move and every count's value

A local server is still a server.  Only ``Host: 127.0.0.1:PORT`` or
``localhost:PORT`` is answered (DNS rebinding gets 403); a state-changing
request needs ``Content-Type: application/json`` (415 otherwise) and, when
it carries an ``Origin``, this server's own (403 otherwise); no CORS header
is ever sent.  Every connection has a read timeout, at most
:data:`MAX_CONNECTIONS` are served at once, and the listen backlog is
:data:`BACKLOG`.  Every response carries a Content-Security-Policy (self
only, no framing) and ``X-Content-Type-Options: nosniff``.  Static files
come only from the ``static`` folder next to this module.
"""
from __future__ import annotations

import json
import math
import re
import sys
import threading
import webbrowser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Optional, Tuple
from urllib.parse import unquote, urlsplit

from ..hog.rules import NO_VALUE, UnknownRulesetError, rulesets
from .games import GameError, GameStore, canonical

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 64 * 1024
#: Seconds a connection may take to send its request before it is closed.
READ_TIMEOUT = 5.0
#: Connections served at once; more wait in the listen backlog.
MAX_CONNECTIONS = 64
BACKLOG = 256
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".png": "image/png", ".svg": "image/svg+xml"}
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; "
                               "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
}
API_METHODS = {"rulesets": "GET", "policy": "GET", "games": "POST", "game": "GET", "roll": "POST",
               "hint": "GET"}


def finite(x: float) -> Optional[float]:
    """A probability for JSON: rounded, and None rather than a non-standard NaN."""
    x = float(x)
    return round(x, 6) if math.isfinite(x) else None


def policy_payload(store: GameStore, name: str) -> dict:
    """A ruleset's policy and win probabilities for the page's heatmap (under a history rule,
    the slice where neither player remembers anything yet: both memories 0)."""
    bot = store.bot(name)
    first = (0,) * (bot.table.ndim - 2)
    return {"rules": name, "goal": int(bot.rules.goal), "max_dice": int(bot.rules.max_dice),
            "policy": bot.table[(...,) + first].astype(int).tolist(),
            "win_probability": [[finite(x) for x in row] for row in bot.win_probability[(...,) + first]],
            **({"memories": "both 0"} if first else {})}


class HogServer(ThreadingHTTPServer):
    """A threading server with a real backlog and a cap on connections served at once."""

    request_queue_size = BACKLOG
    daemon_threads = True

    def __init__(self, address, handler):
        super().__init__(address, handler)
        port = self.server_address[1]
        self.allowed_hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
        self.allowed_origins = {f"http://{host}" for host in self.allowed_hosts}
        self.slots = threading.BoundedSemaphore(MAX_CONNECTIONS)

    def process_request(self, request, client_address):
        """Wait for a free connection slot, then serve in a thread."""
        self.slots.acquire()  # the accept loop waits; the backlog holds the rest
        try:
            super().process_request(request, client_address)
        except BaseException:
            self.slots.release()
            raise

    def process_request_thread(self, request, client_address):
        """Serve one connection and free its slot."""
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()

    def handle_error(self, request, client_address):
        """One line on stderr for a connection that failed, never a traceback."""
        print(f"hogsolve gui: a connection from {client_address[0]} failed: {sys.exc_info()[1]!r}",
              file=sys.stderr)


class Handler(BaseHTTPRequestHandler):
    """Answers one connection: checks, routes, and replies in JSON (see the module docstring)."""
    server_version = "hogsolve"
    sys_version = ""
    timeout = READ_TIMEOUT
    store: GameStore  # set by make_server
    policy_cache: dict

    def log_message(self, format, *args):  # quiet: the terminal shows only the URL
        """Quiet: the terminal shows only the URL."""
        pass

    def version_string(self) -> str:
        """``Server: hogsolve``, without Python's version."""
        return self.server_version  # no Python version for the world to see

    # -- plumbing ---------------------------------------------------------
    def end_headers(self):
        """Add the security headers to every response."""
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        super().end_headers()

    def send_json(self, status: int, payload, allow: Optional[str] = None) -> None:
        """Reply with ``payload`` as standard JSON (no NaN), no body for HEAD."""
        body = json.dumps(payload, allow_nan=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        if allow:
            self.send_header("Allow", allow)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def send_error(self, code, message=None, explain=None):
        """The standard library's own errors (bad request line, unknown method) in JSON, never 5xx."""
        if code == 501:  # an unknown method is the client's mistake
            code, message = 405, f"{self.command} is not allowed"
        if getattr(self, "request_version", "HTTP/0.9") == "HTTP/0.9":
            self.request_version = "HTTP/1.0"  # always a status line and headers
        self.command = getattr(self, "command", None) or "GET"
        try:
            self.close_connection = True
            self.send_json(code, {"error": message or "bad request"}, allow="GET, HEAD, POST, OPTIONS")
        except OSError:
            pass

    def fail(self, status: int, message: str, allow: Optional[str] = None) -> None:
        """Reply ``{"error": message}`` with ``status``."""
        self.send_json(status, {"error": message}, allow)

    def read_json(self) -> dict:
        """The request body as a JSON object, or a GameError (400, 413)."""
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            raise GameError(400, "bad Content-Length") from None
        if length < 0:
            raise GameError(400, "bad Content-Length")
        if length > MAX_BODY:
            raise GameError(413, f"body over {MAX_BODY} bytes")
        raw = self.rfile.read(length) if length > 0 else b""
        if len(raw) < length:
            self.close_connection = True
            raise GameError(400, "the body is shorter than its Content-Length")
        try:
            data = json.loads(raw.decode("utf-8") or "null")
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise GameError(400, "body is not valid JSON") from None
        if not isinstance(data, dict):
            raise GameError(400, "body must be a JSON object")
        return data

    def check_request(self, method: str, allow: Optional[str]) -> None:
        """Refuse foreign hosts (DNS rebinding), other methods, and cross-site or non-JSON changes."""
        if self.headers.get("Host", "") not in self.server.allowed_hosts:
            raise GameError(403, "this server answers only to " + " and ".join(sorted(self.server.allowed_hosts)))
        if allow is not None:
            permitted = set(allow.split(", ")) | ({"HEAD"} if "GET" in allow else set())
            if method not in permitted:
                raise GameError(405, f"{method} is not allowed here")
        if method in ("GET", "HEAD", "OPTIONS"):
            return
        origin = self.headers.get("Origin")
        if origin is not None and origin not in self.server.allowed_origins:
            raise GameError(403, f"requests from {origin[:80]} are not accepted")
        kind = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise GameError(415, "send Content-Type: application/json")

    def dispatch(self, method: str) -> None:
        """Check the request, route it, and turn every failure into a JSON reply."""
        allow = None
        try:
            path = urlsplit(self.path).path
            route, _ = match_route(path)
            allow = (f"{API_METHODS[route]}, OPTIONS" if route else None) if path.startswith("/api/") \
                else "GET, HEAD, OPTIONS"
            self.check_request(method, allow)
            if method == "OPTIONS":
                if allow is None:
                    raise GameError(404, f"no such API path: {path[:200]}")
                self.send_json(200, {"allow": allow.split(", ")}, allow=allow)
            elif path.startswith("/api/"):
                self.api("GET" if method == "HEAD" else method, path)
            elif method in ("GET", "HEAD"):
                self.static(path)
            else:
                raise GameError(405, f"{method} is not allowed here")
        except GameError as exc:
            self.reply_error(exc.status, str(exc), allow if exc.status == 405 else None)
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            self.went_away()
        except Exception as exc:  # a bug: still answer in JSON, without a traceback
            self.reply_error(500, f"internal error: {type(exc).__name__}")

    def reply_error(self, status: int, message: str, allow: Optional[str] = None) -> None:
        """Reply with an error unless the client has gone."""
        try:
            self.fail(status, message, allow)
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            self.went_away()

    def went_away(self) -> None:
        """Log one line for a client that left mid-request."""
        self.close_connection = True
        print(f"hogsolve gui: a client went away during {self.command} {self.path[:80]}", file=sys.stderr)

    def do_GET(self):
        """Serve GET."""
        self.dispatch("GET")

    def do_HEAD(self):
        """Serve HEAD: GET's headers without its body."""
        self.dispatch("HEAD")

    def do_POST(self):
        """Serve POST."""
        self.dispatch("POST")

    def do_PUT(self):
        """Refuse PUT (405)."""
        self.dispatch("PUT")

    def do_PATCH(self):
        """Refuse PATCH (405)."""
        self.dispatch("PATCH")

    def do_DELETE(self):
        """Refuse DELETE (405)."""
        self.dispatch("DELETE")

    def do_OPTIONS(self):
        """Answer OPTIONS with the allowed methods (and no CORS headers)."""
        self.dispatch("OPTIONS")

    # -- API --------------------------------------------------------------
    def api(self, method: str, path: str) -> None:
        """Serve one API route."""
        route, arg = match_route(path)
        if route is None:
            raise GameError(404, f"no such API path: {path[:200]}")
        if method != API_METHODS[route]:
            raise GameError(405, f"{method} is not allowed on {path}")
        store = self.store
        if route == "rulesets":
            self.send_json(200, {"default": store.default_rules, "rulesets": [
                {"name": r.name, "description": r.description, "caveat": NO_VALUE.get(r.name, "")}
                for r in rulesets().values()]})
        elif route == "policy":
            name = canonical(arg)
            if name is None:
                raise GameError(404, f"unknown ruleset {arg!r}")
            arg = name
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
        """Create a game from a validated request body."""
        name = body.get("rules", self.store.default_rules)
        first = body.get("first", "you")
        seed = body.get("seed")
        if canonical(name) is None:
            raise GameError(400, f"unknown ruleset {name!r}; choose from {', '.join(rulesets())}")
        name = canonical(name)
        if first not in ("you", "bot"):
            raise GameError(400, f"first must be 'you' or 'bot', got {first!r}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 63):
            raise GameError(400, f"seed must be a non-negative integer, got {seed!r}")
        try:
            return self.store.create(name, first == "you", seed).state()
        except UnknownRulesetError as exc:
            raise GameError(400, str(exc)) from None

    # -- static files -----------------------------------------------------
    def static(self, path: str) -> None:
        """Serve a file of the page (only from the static folder)."""
        file = static_file(path)
        if file is None:
            raise GameError(404, f"not found: {path[:200]}")
        body = file.read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", TYPES.get(file.suffix, "application/octet-stream"))
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        if self.command != "HEAD":
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
    """``(route name, argument)`` of an API path, or ``(None, None)``."""
    for pattern, name in ROUTES:
        m = pattern.match(path)
        if m:
            return name, (m.group(1) if m.groups() else None)
    return None, None


def static_file(path: str) -> Optional[Path]:
    """The file under STATIC that ``path`` names, or None; never anything outside it."""
    if path in ("", "/"):
        path = "/index.html"
    if path == "/favicon.ico":
        path = "/favicon.svg"
    name = unquote(path)
    if "\x00" in name or "\\" in name:
        return None
    relative = name.lstrip("/")
    if relative.startswith("static/"):
        relative = relative[len("static/"):]
    root = STATIC.resolve()
    try:
        candidate = (root / relative).resolve()
        if root not in candidate.parents or not candidate.is_file():
            return None
    except (OSError, ValueError):  # a name too long for the file system, and the like
        return None
    return candidate


def make_server(port: int = 0, default_rules: str = "su18", *, read_timeout: float = READ_TIMEOUT,
                **store_options) -> HogServer:
    """A server on 127.0.0.1 (port 0: any free port), not yet serving."""
    store = GameStore(default_rules, **store_options)
    handler = type("BoundHandler", (Handler,), {"store": store, "policy_cache": {}, "timeout": read_timeout})
    return HogServer(("127.0.0.1", port), handler)


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
