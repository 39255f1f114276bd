"""Two people at one game over the network: tables with two seats, each held by a secret token.

The creator takes seat 0; the first to join takes seat 1; nobody else can
sit.  Only a seat's token moves for it (a name is never enough), and the
same token resumes the seat after a reload or a dropped connection.  Every
change wakes the table's listeners (the WebSockets of :mod:`hogsolve.gui.app`),
which all run on the server's event loop, as every move does.
"""
from __future__ import annotations

import asyncio
import hmac
import random
import secrets
import time
from collections import OrderedDict
from typing import Any, Callable, Dict, List, Optional, Set

from ..families import GameFamily
from ..sessions.hog import SessionError
from .games import Catalog, GameError


class FriendTable:
    """One game between two seats (see the module docstring)."""

    def __init__(self, table_id: str, duel, hint: Optional[Callable[[object], dict]]):
        self.id, self.duel, self.hint_of = table_id, duel, hint
        self.tokens: List[Optional[str]] = [secrets.token_urlsafe(16), None]
        self.listeners: Set[asyncio.Queue] = set()
        self.online = [0, 0]  # open connections per seat

    def join(self) -> tuple:
        """``(seat, token)`` of the free seat; 409 when both are taken."""
        if self.tokens[1] is not None:
            raise GameError(409, "both seats at this table are taken")
        self.tokens[1] = secrets.token_urlsafe(16)
        self.changed()
        return 1, self.tokens[1]

    def seat_of(self, token) -> Optional[int]:
        """The seat ``token`` holds, or None (compared in constant time)."""
        if not isinstance(token, str):
            return None
        found = None
        for seat, held in enumerate(self.tokens):
            if held is not None and hmac.compare_digest(held.encode(), token.encode()):
                found = seat
        return found

    def move(self, seat: int, move) -> None:
        """The seat's move (dice for Hog, "roll"/"hold" for the roll-or-hold games)."""
        if self.tokens[1] is None:
            raise GameError(409, "wait for your friend to join")
        try:
            self.duel.move(seat, move)
        except SessionError as exc:
            raise GameError(409, str(exc)) from None
        self.changed()

    def hint(self, seat: int) -> dict:
        """The optimal move for ``seat`` on its turn (``best`` None otherwise)."""
        if self.duel.to_move != seat or self.hint_of is None:
            return {"best": None}
        return self.hint_of(self.duel)

    def view(self, seat: int) -> dict:
        """What seat ``seat`` sees: the game, its own seat, who has sat down and who is online."""
        return {"type": "state", "table": self.id, "you": seat, **self.duel.state(),
                "seated": [token is not None for token in self.tokens], "online": [n > 0 for n in self.online]}

    def changed(self) -> None:
        """Wake every listener."""
        for queue in list(self.listeners):
            queue.put_nowait(True)


class FriendTables:
    """The server's tables by id: at most ``max_tables``, the least recently used going first."""

    def __init__(self, catalog: Catalog, bots, max_tables: int = 500, idle_seconds: float = 6 * 3600,
                 clock=time.monotonic):
        self.catalog, self.bots = catalog, bots
        self.max_tables, self.idle_seconds, self.clock = max_tables, idle_seconds, clock
        self.tables: "OrderedDict[str, FriendTable]" = OrderedDict()
        self.used: Dict[str, float] = {}

    def create(self, name: str, seed: Optional[int] = None) -> FriendTable:
        """A new table of the canonical ``name`` (Hog or a roll-or-hold game)."""
        family = self.catalog.family(name)
        if family is None:
            raise GameError(400, f"{name} is not a game for two players")
        seed = seed if seed is not None else random.SystemRandom().randrange(2 ** 32)
        rules = self.catalog.rules(name)
        table = FriendTable(secrets.token_hex(8), family.duel(rules, seed), self._hint(name, family, rules))
        self.tables[table.id] = table
        self.used[table.id] = self.clock()
        self._expire()
        return table

    def _hint(self, name: str, family: GameFamily, rules: Any) -> Callable:
        bots = self.bots

        def hint(duel) -> dict:
            bot = bots.get(name)
            if bot is None:
                return {"best": None, **bots.progress(name)}
            return family.hint(rules, bot, duel.where())
        return hint

    def _expire(self) -> None:
        now = self.clock()
        while self.tables:
            oldest = next(iter(self.tables))
            if now - self.used[oldest] <= self.idle_seconds and len(self.tables) <= self.max_tables:
                break
            del self.tables[oldest], self.used[oldest]

    def get(self, table_id: str) -> FriendTable:
        """The table, marked as just used; 404 if it expired or never was."""
        self._expire()
        table = self.tables.get(table_id)
        if table is None:
            raise GameError(404, f"table {table_id} has expired or never existed; start a new one")
        self.tables.move_to_end(table_id)
        self.used[table_id] = self.clock()
        return table
