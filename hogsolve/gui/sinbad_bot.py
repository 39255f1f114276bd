"""A SinbadHogBot bot that plays over the network, with the protocol a person's page uses.

It joins a room's WebSocket, rebuilds the engine's messages from the JSON it
is sent (each carries its ``event``), and every ``think`` seconds (give or
take half) asks its :mod:`~hogsolve.sinbad.bots` brain for a line.  When the
connection drops it comes back with its seat token, for as long as
``patience`` seconds allow, so a server restart costs it nothing.
"""
from __future__ import annotations

import json
import random
import time
from typing import Callable, Optional

from websockets.exceptions import ConnectionClosed, InvalidStatus, InvalidURI
from websockets.sync.client import connect

from ..errors import StateError
from ..sinbad.bots import BOTS
from ..sinbad.chatroom import from_plain
from ..sinbad.room import Message


class BotRefused(StateError):
    """The room refused the bot's seat (a taken name, a bad URL): retrying cannot help."""


def play_over_network(url: str, name: str, kind: str = "greedy", *, think: float = 0.4, seed: Optional[int] = None,
                      patience: float = 120.0, say: Callable[[str], None] = lambda line: None,
                      until_game_over: bool = True) -> dict:
    """Play in the room at ``url`` (``ws://HOST:PORT/sinbad/ROOM/ws``) until the game is over;
    returns ``{"totals", "winners", "reconnects"}``."""
    brain = BOTS[kind](name, random.Random(seed))
    rng = random.Random(seed)
    token: Optional[str] = None
    hand: tuple = ()
    reconnects, last_contact = -1, time.monotonic()
    result: dict = {}
    while True:
        try:
            with connect(url, open_timeout=10, max_queue=None) as ws:
                reconnects += 1
                ws.send(json.dumps({"join": name, "token": token} if token else {"join": name}))
                next_move = time.monotonic() + think * (0.5 + rng.random())
                while True:
                    last_contact = time.monotonic()
                    try:
                        raw = ws.recv(timeout=max(0.0, next_move - time.monotonic()))
                    except TimeoutError:
                        raw = None
                    if raw is not None:
                        message = json.loads(raw)
                        kind_ = message.get("type")
                        if kind_ == "welcome":
                            token = message["token"]
                            say(f"{name}: seated in {message['room']}")
                        elif kind_ == "error" and token is None:
                            raise BotRefused(message["text"])
                        elif kind_ == "hand":
                            hand = tuple(card["item"] for card in message["cards"])
                        elif kind_ == "game_over":
                            result = {"totals": message["totals"], "winners": message["winners"]}
                            say(message["text"])
                            if until_game_over:
                                return {**result, "reconnects": reconnects}
                        if message.get("event"):
                            brain.observe(Message(message["text"], None, from_plain(message["event"])))
                        continue
                    next_move = time.monotonic() + think * (0.5 + rng.random())
                    if hand:
                        line = brain.speak(hand, time.monotonic())
                        if line:
                            ws.send(json.dumps({"say": line}))
        except BotRefused:
            raise
        except (InvalidURI, ValueError) as exc:
            raise BotRefused(f"cannot use {url}: {exc}") from None
        except (OSError, ConnectionClosed, InvalidStatus, TimeoutError) as exc:
            if isinstance(exc, InvalidStatus) and exc.response.status_code in (403, 404):
                raise BotRefused(f"{url} answered {exc.response.status_code}") from None
            if token is None:  # never seated: a wrong address, not a restart to wait out
                raise BotRefused(f"cannot reach {url}: {exc}") from None
            if time.monotonic() - last_contact > patience:
                raise BotRefused(f"the room at {url} has been unreachable for {patience:.0f} s") from None
            time.sleep(min(2.0, 0.2 + rng.random()))
