"""A SinbadHogBot room that people and bots join and leave while it plays: the real-time game.

Everything that changes a room is a *command*, a plain dict, applied by
:meth:`ChatRoom.apply` one at a time:

* ``{"op": "seat", "name", "token", "kind"}``: a new seat (a person, or a bot
  of a kind); its token is what acts for it;
* ``{"op": "unseat", "name"}``: a bot leaves (``/bot remove NAME``);
* ``{"op": "presence", "name", "online"}``: a seat's last connection closed
  (it becomes away) or one opened again (it is back);
* ``{"op": "say", "name", "line"}``: a chat line, exactly as typed (``/b NNN``,
  ``/b NNN PLAYER``, ``hog``, ``/hand``, ``/away``, ``/back``, ``/start``, chat);
* ``{"op": "stall"}``: the round stalls (nobody traded for a long time).

Randomness comes only from the room's seed and from the commands (a seat's
token is part of its command), so the same commands applied in the same
order give the same room: that is how a restarted server gets its rooms
back from the event log.  A refused command changes nothing and answers
its sender privately with an ``error``.

Each outgoing line is an :class:`Out`: who it is for (None: everyone), the
JSON message of the protocol (``type``, ``text`` and fields), and the
engine's :class:`~hogsolve.sinbad.room.Message`, which bots read.
"""
from __future__ import annotations

from ..errors import HogsolveError
import collections
import dataclasses
import hashlib
import json
from typing import Deque, Dict, List, Optional, Tuple

from .room import COMMANDS, Message, Room
from .rules import MAX_PLAYERS, MIN_PLAYERS, is_player_name

#: Seats a room holds (people waiting for the next game and bots included).
MAX_SEATS = 16
BOT_KINDS = ("random", "greedy", "tracker")


#: Lines of a room's story kept for pages that join or come back.
HISTORY = 300


class RoomError(HogsolveError, ValueError):
    """A command the room refuses; nothing changed."""


@dataclasses.dataclass(frozen=True)
class Out:
    """One outgoing line: its addressee (None: everyone), the protocol message, the engine message."""

    to: Optional[str]
    message: dict
    engine: Optional[Message] = None


@dataclasses.dataclass
class Seat:
    """A seat: its token, a person or a bot kind, and whether anyone is connected to it."""

    name: str
    token: str
    kind: str = "person"
    online: bool = False


class ChatRoom:
    """One room's seats and game (see the module docstring)."""

    def __init__(self, name: str, seed: int = 0):
        self.name, self.seed = name, seed
        self.seats: Dict[str, Seat] = {}
        self.room: Optional[Room] = None   # the game being played, or the last one
        self.games = 0
        self.applied = 0                   # commands applied, the event log's sequence
        self.last_hog: Optional[tuple] = None  # (round, player, item) of the last round ended by a hog
        # the room's recent story, (addressee or None, message): rebuilt with the room when the
        # event log is replayed, so a page that joins, reloads or comes back sees it
        self.history: Deque[Tuple[Optional[str], dict]] = collections.deque(maxlen=HISTORY)

    # -- what there is ----------------------------------------------------
    @property
    def current(self) -> Room:
        """The room of the game under way, or the last one (callers check :attr:`playing` or
        that a game was started first)."""
        assert self.room is not None, "no game has started in this room"
        return self.room

    @property
    def playing(self) -> bool:
        """True while a game is on."""
        return self.room is not None and not self.current.game.over

    def players(self) -> List[dict]:
        """Every seat: name, kind, status (here, away, gone, waiting) and points."""
        game = self.current.game if self.room is not None else None
        out = []
        for seat in self.seats.values():
            in_game = game is not None and seat.name in game.totals
            status = "waiting"
            if game is not None and game.round is not None and in_game and self.playing:
                status = game.round.status[seat.name]
                status = "away" if status == "here" and not seat.online else status
            elif not self.playing:
                status = "here" if seat.online or seat.kind != "person" else "away"
            out.append({"name": seat.name, "kind": seat.kind, "status": status, "online": seat.online,
                        "points": game.totals[seat.name] if game is not None and in_game else 0})
        return out

    def hand(self, name: str) -> Optional[dict]:
        """The private ``hand`` message of ``name``, or None outside a game."""
        if not self.playing or name not in self.current.game.totals:
            return None
        return self._payload(self.current.hand_message(name))

    def offers(self) -> List[dict]:
        """The open offers: player and count (never the items)."""
        if not self.playing:
            return []
        return [{"player": p, "count": o.count} for p, o in self.current.round.offers.items()]

    def snapshot(self) -> dict:
        """Everything the room holds, for comparing rooms (a restarted one with the original)."""
        game = self.current.game if self.room is not None else None
        return {"seats": {n: dataclasses.asdict(s) for n, s in self.seats.items()}, "games": self.games,
                "applied": self.applied,
                "totals": dict(game.totals) if game else {}, "rounds": game.rounds if game else 0,
                "hands": {p: list(h) for p, h in game.round.hands.items()} if game and game.round else {},
                "offers": {p: [o.item, o.count] for p, o in game.round.offers.items()} if game and game.round else {},
                "status": dict(game.round.status) if game and game.round else {}}

    def fingerprint(self) -> str:
        """A short digest of :meth:`snapshot`: two rooms with the same one hold the same state."""
        text = json.dumps(self.snapshot(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    # -- commands ---------------------------------------------------------
    def apply(self, command: dict) -> List[Out]:
        """Apply one command (see the module docstring); raises RoomError when refused."""
        op = command.get("op")
        handler = {"seat": self._seat, "unseat": self._unseat, "presence": self._presence,
                   "say": self._say, "stall": self._stall}.get(op) if isinstance(op, str) else None
        if handler is None:
            raise RoomError(f"unknown command {op!r}")
        out = handler(command)
        self.applied += 1
        for o in out:
            kind, text = o.message["type"], str(o.message.get("text", ""))
            if kind not in ("hand", "offers") and not (kind == "players" and text.startswith("players:")):
                self.history.append((o.to, o.message))
        return out

    def recent(self, name: str) -> List[dict]:
        """The story so far as ``name`` heard it: every line to everyone or to them (at most
        :data:`HISTORY`, oldest first; ``private`` marks those to them alone)."""
        return [{**message, "private": to is not None} for to, message in self.history if to is None or to == name]

    def check_name(self, name: object) -> str:
        """A free, valid seat name (RoomError otherwise)."""
        if not isinstance(name, str) or not is_player_name(name):
            raise RoomError("a name is one word of letters (any script), digits, _ . or - (at most 32)")
        if name.lower() in {n.lower() for n in self.seats}:
            raise RoomError(f"the name {name} is taken in this room")
        if len(self.seats) >= MAX_SEATS:
            raise RoomError(f"this room is full ({MAX_SEATS} seats)")
        return name

    def _seat(self, command: dict) -> List[Out]:
        name = self.check_name(command.get("name"))
        kind = command.get("kind", "person")
        if kind != "person" and kind not in BOT_KINDS:
            raise RoomError(f"no bot kind {kind!r}; choose from {', '.join(BOT_KINDS)}")
        self.seats[name] = Seat(name, str(command["token"]), kind, online=kind != "person")
        words = f"{name} joins" + (f" (a {kind} bot)" if kind != "person" else "")
        return [self.players_message(words)]

    def _unseat(self, command: dict) -> List[Out]:
        name = command.get("name")
        seat = self.seats.get(name) if isinstance(name, str) else None
        if seat is None or seat.kind == "person":
            raise RoomError(f"no bot named {name!r} here")
        del self.seats[seat.name]
        out = []
        if self.playing and name in self.current.game.totals:  # still dealt in: gone, tradeable as the rules say
            out += self._engine(self.current.handle(name, "/leave"))
        return out + [self.players_message(f"the bot {name} leaves")]

    def _presence(self, command: dict) -> List[Out]:
        name = command.get("name")
        seat = self.seats.get(name) if isinstance(name, str) else None
        if seat is None:
            raise RoomError("no such seat")
        seat.online = bool(command.get("online"))
        out = []
        if self.playing and seat.name in self.current.game.totals:
            status = self.current.round.status[seat.name]
            if not seat.online and status == "here":
                out += self._engine(self.current.handle(seat.name, "/away"))
            elif seat.online and status == "away":
                out += self._engine(self.current.handle(seat.name, "/back"))
        return out + [self.players_message(None)]

    def _say(self, command: dict) -> List[Out]:
        name, line = command.get("name"), command.get("line")
        if name not in self.seats:
            raise RoomError("take a seat first")
        if not isinstance(line, str) or not line.strip() or len(line) > 500:
            raise RoomError("say one line of 1 to 500 characters")
        text = line.strip()
        if text == "/start":
            return self._start(name)
        if text.startswith("/bot"):
            raise RoomError("usage: /bot add KIND (random, greedy or tracker), /bot remove NAME")
        if not self.playing or name not in self.current.game.totals:
            if text.startswith("/") and text.split()[0] not in COMMANDS:
                raise RoomError(f"unknown command {text.split()[0]} (the commands: /start, /bot, "
                                f"{', '.join(COMMANDS)}, hog)")
            if text.startswith("/") or text.lower() == "hog":
                if text.lower() == "hog" and self.last_hog is not None:
                    return self._late_hog(name)
                raise RoomError("the game has not started: /start deals when 2 to 8 are seated"
                                if not self.playing else "you are not dealt in this game: wait for the next")
            return [Out(None, {"type": "chat", "text": f"{name}: {text}", "player": name, "line": text})]
        rounds = self.current.game.rounds
        messages = self.current.handle(name, text)
        errors = [m for m in messages if m.event and m.event[0] == "error"]
        if errors:
            problem = str(errors[0].event[1]) if len(errors[0].event) > 1 else errors[0].text
            if text.lower() == "hog" and self.last_hog is not None and self.last_hog[0] == rounds - 1 \
                    and problem.startswith("no hog"):
                return self._late_hog(name)
            raise RoomError(problem)
        return self._engine(messages)

    def _late_hog(self, name: str) -> List[Out]:
        """A "hog" after a round was won by ``last_hog``: to its winner a reminder, to anyone else
        an error."""
        won, winner, item = self.last_hog or (None, None, None)
        if winner == name:
            text = f"your hog already won round {won} ({item})"
            return [Out(name, {"type": "chat", "text": text, "player": None, "line": text})]
        raise RoomError(f"too late: {winner} said hog first")

    def _start(self, name: str) -> List[Out]:
        if self.playing:
            raise RoomError("a game is already on")
        names = list(self.seats)
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise RoomError(f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} seated players, not {len(names)}")
        self.games += 1
        self.last_hog = None
        self.room = Room(names, seed=self.seed * 1_000_003 + self.games)
        out = [Out(None, {"type": "chat", "text": f"{name} starts game {self.games} with {', '.join(names)}",
                          "player": name, "line": "/start"})]
        out += self._engine(self.current.start())
        for seat in self.seats.values():  # whoever is not connected is away from the first deal
            if not seat.online:
                out += self._engine(self.current.handle(seat.name, "/away"))
        return out

    def _stall(self, command: dict) -> List[Out]:
        if not self.playing:
            raise RoomError("no round to stall")
        return self._engine(self.current.stall())

    # -- messages ---------------------------------------------------------
    def players_message(self, words: Optional[str] = None) -> Out:
        """The ``players`` message: every seat and the open offers (``words``: its text)."""
        players = self.players()
        text = words or "players: " + ", ".join(f"{p['name']} [{p['status']}] {p['points']}" for p in players)
        return Out(None, {"type": "players", "text": text, "players": players, "offers": self.offers()})

    def offers_message(self) -> Out:
        """The ``offers`` message: the open offers alone (after an offer or a trade)."""
        offers = self.offers()
        text = "open offers: " + (", ".join(f"{o['player']} {o['count']}" for o in offers) or "none")
        return Out(None, {"type": "offers", "text": text, "offers": offers})

    def _engine(self, messages: List[Message]) -> List[Out]:
        out = []
        hog = None
        for i, m in enumerate(messages):
            dealt_after = sum(1 for later in messages[i + 1:] if later.event and later.event[0] == "round")
            round_no = self.current.game.rounds - dealt_after  # the round this message belongs to
            if m.event and m.event[0] == "hog":
                hog = m.event
                self.last_hog = (round_no, m.event[1], m.event[2])
            payload = self._payload(m, hog, round_no)
            if payload is not None:
                out.append(Out(m.to, payload, m))
        kinds = {m.event[0] for m in messages if m.event}
        if kinds & {"status", "round", "scores", "winner"}:  # seats or points changed
            out.append(self.players_message(None))
        elif kinds & {"offer", "trade"}:  # only the open offers: a tenth of the players message
            out.append(self.offers_message())
        return out

    def _payload(self, m: Message, hog: Optional[tuple] = None, round_no: int = 0) -> Optional[dict]:
        """The protocol message of an engine message."""
        event = m.event
        kind = event[0] if event else "chat"
        base = {"text": m.text, "event": list(_plain(event))}
        r = self.current.round
        if kind == "round":
            return {**base, "type": "round_start", "round": event[1],
                    "items": [{"item": item, "value": value} for item, value in event[2]]}
        if kind == "hand":
            return {**base, "type": "hand", "cards": [{"position": i, "item": c, "value": r.values[c]}
                                                      for i, c in enumerate(event[1], 1)]}
        if kind == "offer":
            return {**base, "type": "offer", "player": event[1], "count": event[2]}
        if kind == "my_offer":
            return {**base, "type": "my_offer", "item": event[1], "count": event[2]}
        if kind == "trade":
            return {**base, "type": "trade", "players": [event[1], event[2]], "count": event[3]}
        if kind == "received":
            return {**base, "type": "received", "from": event[1], "item": event[2], "count": event[3]}
        if kind == "status":
            return {**base, "type": "status", "player": event[1], "status": event[2]}
        if kind in ("hog", "stall"):
            return {**base, "type": "hog" if kind == "hog" else "stall",
                    **({"player": event[1], "item": event[2]} if kind == "hog" else {})}
        if kind == "scores":
            return {**base, "type": "round_over", "round": round_no,
                    "hog": {"player": hog[1], "item": hog[2]} if hog else None,
                    "points": event[1], "totals": event[2]}
        if kind == "winner":
            totals = dict(self.current.game.totals)
            return {**base, "type": "game_over", "totals": totals, "winners": list(event[1]),
                    "shared": len(event[1]) > 1}
        if kind == "error":
            return {**base, "type": "error"}
        player = event[1] if len(event) > 1 else None
        return {**base, "type": "chat", "player": player, "line": m.text[len(f"{player}: "):] if player else m.text}


def _plain(event) -> list:
    """An engine event as JSON-ready values (tuples as lists)."""
    out: list = []
    for x in event or ():
        if isinstance(x, tuple):
            out.append(_plain(x))
        elif isinstance(x, dict):
            out.append(dict(x))
        else:
            out.append(x)
    return out


def from_plain(event: list) -> tuple:
    """An engine event back from its JSON form (for bots playing over the network)."""
    return tuple(from_plain(x) if isinstance(x, list) else x for x in event)
