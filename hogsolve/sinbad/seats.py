"""Bots seated at a room: they hear its lines and act one at a time.

Each bot hears the room's public lines and the private lines addressed to
it, nothing else, and is shown only its own hand.  A round in which
``patience`` turns per player pass with no trade and no hog, or that runs past
``max_turns`` turns, stalls (no hog; largest collections score).
"""
from __future__ import annotations

from typing import Callable, Iterable, Mapping, Optional, Protocol, Sequence

from .room import Message, Room


class Trader(Protocol):
    """What a seated bot does: hear a line, and act on its hand (a line to say, or None)."""

    def observe(self, message: Message) -> None:
        """Hear one line of the room."""

    def act(self, hand: Sequence[str]) -> Optional[str]:
        """The line to say now, if any."""


class Seats:
    """Bots seated in a room: delivers each its messages and asks it to act."""
    def __init__(self, room: Room, bots: Mapping[str, Trader], *, patience: int = 20,
                 max_turns: int = 5000, observer: Optional[Callable[[Message], None]] = None):
        self.room, self.bots, self.observer = room, bots, observer
        self.limit = patience * len(room.game.players)
        self.max_turns = max_turns
        self.quiet = self.turns = 0
        self.round = room.game.rounds

    def deliver(self, messages: Iterable[Message]) -> None:
        """Show each bot the messages it may see."""
        for m in messages:
            if self.observer is not None:
                self.observer(m)
            for name, bot in self.bots.items():
                if m.to is None or m.to == name:
                    bot.observe(m)

    def step(self, name: str) -> None:
        """Bot ``name`` acts; the round stalls if nothing has happened for too long."""
        line = self.bots[name].act(tuple(self.room.round.hands[name]))
        out = self.room.handle(name, line) if line else []
        self.deliver(out)
        self.turns += 1
        progress = any(m.event and m.event[0] in ("trade", "hog") for m in out)
        self.quiet = 0 if progress else self.quiet + 1
        if self.room.game.rounds != self.round or self.room.game.over:
            self.new_round()
        elif self.quiet > self.limit or self.turns > self.max_turns:
            self.deliver(self.room.stall())
            self.new_round()

    def new_round(self) -> None:
        """Reset the stall counter at a new round."""
        self.round, self.quiet, self.turns = self.room.game.rounds, 0, 0
