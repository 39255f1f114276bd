"""Reading a WebSocket client's messages without trusting them: text or binary, JSON or not,
there or gone, each is an answer, never an exception that the server would log."""
from __future__ import annotations

import json
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect


class _NotJson:
    """A message that is binary, or text that is not JSON."""

    def __repr__(self) -> str:
        return "NOT_JSON"


NOT_JSON: Any = _NotJson()


async def receive_json(websocket: WebSocket) -> Any:
    """The client's next message parsed as JSON, or :data:`NOT_JSON`; WebSocketDisconnect once
    the client is gone (or the server closed the socket, e.g. for an oversized message)."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        return NOT_JSON
    try:
        return json.loads(text)
    except ValueError:
        return NOT_JSON
