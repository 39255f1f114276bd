"""The chat room: lines in from named players, lines out to the room or to one player.

Commands (any other line starting with ``/`` is refused as an unknown command, so that a
mistyped command is never sent as chat; everything else is chat):

* ``/b NNN``        open offer of the cards at positions NNN (1 to 4 digits)
* ``/b NNN PLAYER`` accept PLAYER's offer (or trade with an away player)
* ``hog``           claim nine of a kind
* ``/hand``         show your hand privately
* ``/away``, ``/back``, ``/leave``   presence

Each :class:`Message` carries its text, its addressee (None: the whole room)
and ``event``, a tuple with the same content for programs.  A refused command
gets a private ``error: ...`` reply and changes nothing.
"""
from __future__ import annotations

import dataclasses
import random
import re
from typing import List, Optional, Sequence, Tuple

from .rules import DEFAULT_ITEMS, TARGET, Game, RuleError, label

#: The presence commands and the status each sets.
PRESENCE = {"/away": "away", "/back": "here", "/leave": "gone"}
#: Every command of a game in play (the first word of its line), "hog" aside.
COMMANDS = ("/b", "/hand", *PRESENCE)
OFFER = re.compile(r"^/b\s+(\d+)\s*$")
ACCEPT = re.compile(r"^/b\s+(\d+)\s+(\S+)\s*$")


@dataclasses.dataclass(frozen=True)
class Message:
    """A line of the room: its text, its addressee (None: everyone), and the same content as data."""
    text: str
    to: Optional[str] = None
    event: Tuple = ()


class Room:
    """A game of SinbadHogBot driven by chat lines."""

    def __init__(self, players: Sequence[str], seed: Optional[int] = None,
                 items: Sequence[Tuple[str, int]] = DEFAULT_ITEMS, target: int = TARGET):
        self.game = Game(players, random.Random(seed), items, target)

    @property
    def round(self):
        """The round being played (None before :meth:`start`)."""
        return self.game.round

    def start(self) -> List[Message]:
        """Deal the first round; the messages announce it and show each hand."""
        return self._new_round()

    def hand_message(self, player: str) -> Message:
        """A private message showing ``player`` their hand."""
        r = self.round
        cards = tuple(r.hands[player])
        text = "your hand: " + ", ".join(f"{i} {label(c, r.values)}" for i, c in enumerate(cards, 1))
        return Message(text, player, ("hand", cards))

    def _new_round(self) -> List[Message]:
        r = self.game.new_round()
        items = ", ".join(label(i, r.values) for i in r.items)
        out = [Message(f"round {self.game.rounds}: {items}; nine cards of each",
                       None, ("round", self.game.rounds, tuple((i, r.values[i]) for i in r.items)))]
        return out + [self.hand_message(p) for p in self.game.players]

    def handle(self, player: str, line: str) -> List[Message]:
        """Messages caused by ``player`` saying ``line``."""
        if player not in self.game.totals:
            return [Message(f"error: {player} is not in this game", player, ("error",))]
        if self.round is None:
            return [Message("error: the game has not started", player, ("error", "not started"))]
        text = line.strip()
        try:
            if self.game.over and (text.startswith("/b") or text.lower() == "hog"):
                raise RuleError("the game is over")
            if text in PRESENCE:  # before /b: "/back" starts with "/b"
                state = PRESENCE[text]
                self.round.status[player] = state
                words = {"away": "is away", "here": "is back", "gone": "has left"}[state]
                return [Message(f"{player} {words}", None, ("status", player, state))]
            m = ACCEPT.match(text)
            if m:
                return self._accept(player, positions(m.group(1)), m.group(2))
            m = OFFER.match(text)
            if m:
                return self._offer(player, positions(m.group(1)))
            if text.startswith("/b"):
                raise RuleError("usage: /b NNN to offer, /b NNN PLAYER to accept")
            if text.lower() == "hog":
                return self._hog(player)
            if text == "/hand":
                return [self.hand_message(player)]
            if text.startswith("/"):
                raise RuleError(f"unknown command {text.split()[0]}")
            return [Message(f"{player}: {text}", None, ("chat", player))]
        except RuleError as exc:
            return [Message(f"error: {exc}", player, ("error", str(exc)))]

    def _offer(self, player: str, pos: Sequence[int]) -> List[Message]:
        offer = self.round.offer(player, pos)
        return [Message(f"{player} offers {offer.count} card{'s' if offer.count > 1 else ''}",
                        None, ("offer", player, offer.count)),
                Message(f"your open offer: {offer.count} {label(offer.item, self.round.values)}",
                        player, ("my_offer", offer.item, offer.count))]

    def _accept(self, player: str, pos: Sequence[int], other: str) -> List[Message]:
        r = self.round
        trade = r.accept(player, pos, other)
        out = [Message(f"{player} trades {trade.count} card{'s' if trade.count > 1 else ''} with {other}", None,
                       ("trade", player, other, trade.count))]
        for me, them, got in ((player, other, trade.b_item), (other, player, trade.a_item)):
            out.append(Message(f"you received {trade.count} {label(got, r.values)} from {them}", me,
                               ("received", them, got, trade.count)))
            out.append(self.hand_message(me))
        return out

    def _hog(self, player: str) -> List[Message]:
        item = self.round.hog(player)
        out = [Message(f"{player} says hog with nine {label(item, self.round.values)}!", None,
                       ("hog", player, item))]
        return out + self._end_round()

    def stall(self) -> List[Message]:
        """End a round in which no one can or will move: no hog, largest collections score."""
        self.round.end_without_hog()
        return [Message("the round stalls: no hog", None, ("stall",))] + self._end_round()

    def _end_round(self) -> List[Message]:
        scores = self.game.finish_round()
        totals = self.game.totals
        text = "; ".join(f"{p} +{scores[p]} = {totals[p]}" for p in self.game.players)
        out = [Message(f"round {self.game.rounds} scores: {text}", None,
                       ("scores", dict(scores), dict(totals)))]
        if self.game.over:
            w = self.game.winners
            names = " and ".join(w)
            out.append(Message(f"{names} win{'s' if len(w) == 1 else ''} the game with {totals[w[0]]}",
                               None, ("winner", tuple(w))))
            return out
        return out + self._new_round()


def positions(digits: str) -> List[int]:
    """``"134"`` -> ``[1, 3, 4]``."""
    return [int(d) for d in digits]
