"""uvicorn, with the two limits a public-facing server needs and uvicorn leaves out.

* A **deadline for the whole request** (head and body): uvicorn's keep-alive
  timer stops at the first byte, so a client trickling one header line every
  few seconds would hold its connection forever.  Here every request must
  arrive whole within :data:`REQUEST_DEADLINE` seconds of its first byte (or
  of the connection opening); otherwise it gets 408 and is closed.
* A **cap on open connections** (:data:`MAX_CONNECTIONS`): one more is
  closed at once, rather than answered 503 as uvicorn's own limit would.

Everything else (HTTP parsing, WebSockets, keep-alive, shutdown) is uvicorn's.
"""
from __future__ import annotations

import asyncio
from typing import Optional

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

#: Seconds a client has to send a whole request (head and body).
REQUEST_DEADLINE = 10.0
#: Connections (HTTP and WebSocket) open at once; one more is closed at once.
MAX_CONNECTIONS = 1000
#: Largest WebSocket message accepted (bytes); a larger one closes the socket (1009).
MAX_WS_MESSAGE = 16 * 1024


class DeadlineProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a whole-request deadline and a connection cap."""

    request_deadline = REQUEST_DEADLINE
    max_connections = MAX_CONNECTIONS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Count the connection (closing it over the cap) and start its deadline."""
        super().connection_made(transport)
        self.deadline: Optional[asyncio.TimerHandle] = None
        if len(self.connections) > self.max_connections:
            transport.close()  # over the cap: no work, no answer
            return
        self._arm()

    def _arm(self) -> None:
        if self.deadline is None:
            self.deadline = self.loop.call_later(self.request_deadline, self._too_slow)

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def data_received(self, data: bytes) -> None:
        """Start the deadline with a request's first byte; stop it once the request is whole."""
        if self.conn.their_state is h11.IDLE:
            self._arm()  # a new request starts: it has until the deadline to arrive
        super().data_received(data)
        if self.transport.get_protocol() is not self or self.conn.their_state is not h11.IDLE \
                and self.conn.their_state is not h11.SEND_BODY:
            self._disarm()  # the request arrived whole (or the socket became a WebSocket)

    def on_response_complete(self) -> None:
        """Between requests, uvicorn's keep-alive timer rules."""
        super().on_response_complete()
        self._disarm()  # idle again: uvicorn's keep-alive timer takes over until the next byte

    def connection_lost(self, exc: Optional[Exception]) -> None:
        """Forget the deadline."""
        self._disarm()
        super().connection_lost(exc)

    def _too_slow(self) -> None:
        self.deadline = None
        if self.transport.is_closing() or self.transport.get_protocol() is not self:
            return
        cycle = self.cycle
        if cycle is None or cycle.response_complete or not cycle.response_started:
            self.transport.write(TOO_SLOW)
        self.transport.close()


_BODY = b'{"error": "the request took too long to arrive"}'
TOO_SLOW = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\n"
            b"content-length: " + str(len(_BODY)).encode() + b"\r\n\r\n" + _BODY)


def config(app, host: str, port: int, *, request_deadline: float = REQUEST_DEADLINE,
           max_connections: int = MAX_CONNECTIONS, **options) -> uvicorn.Config:
    """A uvicorn configuration with our protocol and limits, quiet (the terminal shows the link)."""
    protocol = type("Protocol", (DeadlineProtocol,), {"request_deadline": request_deadline,
                                                      "max_connections": max_connections})
    return uvicorn.Config(app, host=host, port=port, http=protocol, ws="websockets-sansio",
                          ws_max_size=MAX_WS_MESSAGE, ws_per_message_deflate=False,  # small JSON: compressing
                          ws_ping_interval=20.0, ws_ping_timeout=20.0,  # costs a room a sixth of its core
                          timeout_keep_alive=5, server_header=False, log_level="error", access_log=False,
                          lifespan="on", backlog=512, **options)
