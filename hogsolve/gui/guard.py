"""Who may talk to the server: one ASGI middleware in front of every route.

A local server is still a server.  For every HTTP request and WebSocket
handshake it checks, in order:

* **Host** is one of this server's names (DNS rebinding gets 403);
* on the local network (``--host``), the **access token** of the join link,
  as ``?access=`` once (it then lives in a same-site cookie) or the cookie;
* **Origin**, when a browser sends one, is this server's own (cross-site
  requests and WebSocket hijacking get 403); an API GET that a browser marks
  ``Sec-Fetch-Site: cross-site`` is refused too, so another page's
  ``<img src>`` can start no work here;
* a state-changing request says ``Content-Type: application/json`` (415)
  and declares at most :data:`MAX_BODY` bytes (413).

Every HTTP response gets the security headers (CSP with no framing, nosniff,
no referrer, ``Server: hogsolve`` without a version) and no CORS header.
"""
from __future__ import annotations

import hmac
import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, Sequence, Tuple
from urllib.parse import parse_qs, urlencode

MAX_BODY = 64 * 1024
COOKIE = "hogsolve_access"
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                                 b"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"server", b"hogsolve"),
]
#: The methods that change anything here (the routes take no other; PUT and the like get 405).
STATE_CHANGING = {"POST"}


@dataclass
class Access:
    """The names this server answers to and, on a network, the join link's token."""

    hosts: Tuple[str, ...]
    token: Optional[str] = None
    origins: Tuple[str, ...] = field(init=False)

    def __post_init__(self):
        self.origins = tuple(f"http://{host}" for host in self.hosts)

    @classmethod
    def for_addresses(cls, addresses: Iterable[str], port: int, token: Optional[str] = None) -> "Access":
        """Every ``address:port`` (and the bare address on port 80, which browsers send so)."""
        hosts = []
        for address in addresses:
            name = f"[{address}]" if ":" in address else address
            hosts.append(f"{name}:{port}")
            if port == 80:
                hosts.append(name)
        return cls(tuple(dict.fromkeys(hosts)), token)

    def token_ok(self, given: Optional[str]) -> bool:
        """True when no token is needed or ``given`` is it (compared in constant time)."""
        return self.token is None or (given is not None and hmac.compare_digest(given.encode(), self.token.encode()))


def _headers(scope) -> dict:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


def _cookie(header: str, name: str) -> Optional[str]:
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return None


class Guard:
    """The ASGI middleware of the module docstring."""

    # the app's stores, set by create_app for tests and benchmarks
    api: Any
    rooms: Any
    lab: Any

    def __init__(self, app, access: Access, max_body: int = MAX_BODY):
        self.app, self.access, self.max_body = app, access, max_body

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = _headers(scope)
        problem = self.problem(scope, headers)
        if problem is not None:
            status, message = problem
            if scope["type"] == "websocket":
                return await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})
            return await reply(send, status, {"error": message})
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        if self.access.token is not None and "access" in query and scope["type"] == "http" \
                and scope["method"] == "GET" and not scope["path"].startswith("/api/"):
            rest = {k: v for k, v in query.items() if k != "access"}  # the token moves into a cookie
            location = scope["path"] + (f"?{urlencode(rest, doseq=True)}" if rest else "")
            cookie = f"{COOKIE}={self.access.token}; Path=/; HttpOnly; SameSite=Strict"
            return await reply(send, 303, {"go": location}, [(b"location", location.encode()),
                                                             (b"set-cookie", cookie.encode())])

        async def secured(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)
        await self.app(scope, receive, secured if scope["type"] == "http" else send)

    def problem(self, scope, headers: dict) -> Optional[Tuple[int, str]]:
        """``(status, message)`` of the first check the request fails, None if it passes all."""
        access = self.access
        if headers.get("host", "") not in access.hosts:
            return 403, "this server answers only to " + " and ".join(access.hosts[:4])
        if access.token is not None:
            query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
            given = (query.get("access") or [None])[0] or _cookie(headers.get("cookie", ""), COOKIE)
            if not access.token_ok(given):
                return 403, "open the join link the server printed (it carries the access token)"
        origin = headers.get("origin")
        if origin is not None and origin not in access.origins:
            return 403, f"requests from {origin[:80]} are not accepted"
        if scope["type"] == "websocket":
            return None
        method, path = scope["method"], scope["path"]
        if path.startswith("/api/") and headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            return 403, "the API answers only this server's own pages"
        if method in STATE_CHANGING:
            kind = headers.get("content-type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                return 415, "send Content-Type: application/json"
            try:
                length = int(headers.get("content-length", "0"))
            except ValueError:
                return 400, "bad Content-Length"
            if length > self.max_body:
                return 413, f"body over {self.max_body} bytes"
        return None


async def reply(send, status: int, payload: dict, extra: Sequence = ()) -> None:
    """A JSON response with the security headers, straight on the ASGI channel."""
    body = json.dumps(payload).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"cache-control", b"no-store"), *extra, *SECURITY_HEADERS]})
    await send({"type": "http.response.body", "body": body})
