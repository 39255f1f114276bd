"""The rules of SinbadHogBot, enforced exactly.

A round: with N players (2 to 8) the deck holds N items, nine cards of each,
and each player is dealt nine cards.  Trading:

* ``offer(player, positions)``: an open offer of 1 to 4 of your cards, all of
  one item (positions 1 to 9 in your hand); it replaces your previous offer.
* ``accept(player, positions, other)``: give the same number of your cards,
  all of one item, for ``other``'s open offer; the exchange is atomic.
  Accepting someone's offer withdraws your own.
* A player marked away, or gone, can be traded with as if they had an offer
  on the table: their open offer if its count matches, otherwise they give
  the same number of cards of the item they hold fewest of among those they
  have enough of (ties: the item listed first in the round's deck).
* Any other change to a hand withdraws that player's open offer, so an offer
  always names cards its owner still holds.

Hands are kept sorted by the round's item order, so positions are stable
between trades.  ``hog``: a player holding all nine cards of one item ends
the round and scores the item's value; everyone else scores the size of
their largest collection.  A round that stalls (no one acts) ends the same
way without a hog.  The game ends after the round in which someone reaches
``target`` (60) points; the highest total wins, and a tie at the top goes to
the player who said hog in that round if they are among the tied, else all
tied players share the win.
"""
from __future__ import annotations

from ..errors import HogsolveError
import dataclasses
import random
import re
import unicodedata
from collections import Counter
from typing import Dict, List, Optional, Sequence, Tuple

# Default items and their point values (distinct, shown as "name [value]").
DEFAULT_ITEMS: Tuple[Tuple[str, int], ...] = (
    ("bacon", 10), ("ham", 15), ("sausage", 20), ("chop", 25),
    ("ribs", 30), ("loin", 35), ("trotter", 40), ("truffle", 45),
)
#: Cards in a hand, and cards of each item in the deck (a hog is all of one item).
HAND_SIZE = 9
MAX_OFFER = 4
TARGET = 60
MIN_PLAYERS, MAX_PLAYERS = 2, 8
#: A room or item name: one word of ASCII letters, digits, _ . or - (room names name files).
NAME = re.compile(r"^[A-Za-z0-9_.-]{1,32}$")
#: A player name must be one word, so that ``/b NNN PLAYER`` can address it: letters of any
#: script (Zoë, José), digits, _ . or -, in Unicode's composed form (NFC).
PLAYER_NAME = re.compile(r"^[\w.-]{1,32}$")


def is_player_name(name: object) -> bool:
    """True for a valid player name (see :data:`PLAYER_NAME`)."""
    return isinstance(name, str) and bool(PLAYER_NAME.match(name)) and unicodedata.normalize("NFC", name) == name


class RuleError(HogsolveError, ValueError):
    """A command the rules refuse; nothing changed."""


@dataclasses.dataclass(frozen=True)
class Offer:
    """An open offer: ``count`` cards of ``item``."""
    item: str
    count: int


@dataclasses.dataclass(frozen=True)
class Trade:
    """A completed exchange: ``a`` gave ``count`` ``a_item`` to ``b`` for ``b_item``."""

    a: str
    b: str
    count: int
    a_item: str
    b_item: str


def label(item: str, values: Dict[str, int]) -> str:
    """``name [value]``, as the room shows an item."""
    return f"{item} [{values[item]}]"


class Round:
    """One deal and its trading, until a hog (or a stall)."""

    def __init__(self, players: Sequence[str], items: Sequence[Tuple[str, int]], rng: random.Random):
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise RuleError(f"a round needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(players)}")
        if len(items) != len(players):
            raise RuleError("a round uses as many items as players")
        self.players = list(players)
        self.items = [name for name, _ in items]
        self.values = dict(items)
        self.order = {name: i for i, name in enumerate(self.items)}
        deck = [name for name in self.items for _ in range(HAND_SIZE)]
        rng.shuffle(deck)
        self.hands: Dict[str, List[str]] = {
            p: self._sorted(deck[i * HAND_SIZE:(i + 1) * HAND_SIZE]) for i, p in enumerate(self.players)}
        self.offers: Dict[str, Offer] = {}
        self.status: Dict[str, str] = {p: "here" for p in self.players}
        self.hog_by: Optional[str] = None
        self.over = False

    def _sorted(self, cards) -> List[str]:
        return sorted(cards, key=lambda c: self.order[c])

    # -- checks -------------------------------------------------------------
    def _cards(self, player: str, positions: Sequence[int]) -> Tuple[str, int]:
        """(item, count) of a valid set of positions in ``player``'s hand."""
        if not 1 <= len(positions) <= MAX_OFFER:
            raise RuleError(f"trade 1 to {MAX_OFFER} cards at a time, not {len(positions)}")
        if len(set(positions)) != len(positions):
            raise RuleError("each card number may appear once")
        for p in positions:
            if not 1 <= p <= HAND_SIZE:
                raise RuleError(f"card numbers run from 1 to {HAND_SIZE}, not {p}")
        hand = self.hands[player]
        items = {hand[p - 1] for p in positions}
        if len(items) != 1:
            raise RuleError(f"cards {''.join(map(str, positions))} are not all one item "
                            f"({', '.join(sorted(items, key=self.order.__getitem__))})")
        return items.pop(), len(positions)

    def _live(self, player: str) -> None:
        if self.over:
            raise RuleError("the round is over")
        if player not in self.hands:
            raise RuleError(f"{player} is not playing this round")

    # -- moves --------------------------------------------------------------
    def offer(self, player: str, positions: Sequence[int]) -> Offer:
        """Open an offer of the cards at ``positions`` (replacing the previous one)."""
        self._live(player)
        item, count = self._cards(player, positions)
        self.offers[player] = Offer(item, count)
        return self.offers[player]

    def away_gives(self, other: str, count: int) -> str:
        """The item an away or gone player gives for ``count`` cards (see module doc)."""
        offer = self.offers.get(other)
        if offer is not None and offer.count == count:
            return offer.item
        held = Counter(self.hands[other])
        enough = [i for i in self.items if held[i] >= count]
        if not enough:
            raise RuleError(f"{other} holds no {count} cards of one item")
        return min(enough, key=lambda i: (held[i], self.order[i]))

    def accept(self, player: str, positions: Sequence[int], other: str) -> Trade:
        """Trade the cards at ``positions`` for ``other``'s offer, atomically."""
        self._live(player)
        if other not in self.hands:
            raise RuleError(f"no player named {other!r} in this round")
        if other == player:
            raise RuleError("you cannot accept your own offer")
        my_item, count = self._cards(player, positions)
        offer = self.offers.get(other)
        if self.status[other] == "here":
            if offer is None:
                raise RuleError(f"{other} has no open offer")
            if offer.count != count:
                raise RuleError(f"{other} offers {offer.count} cards; you gave {count}")
            their_item = offer.item
        else:
            their_item = self.away_gives(other, count)
        self._move(player, my_item, count, other)
        self._move(other, their_item, count, player)
        self.offers.pop(player, None)
        self.offers.pop(other, None)
        return Trade(player, other, count, my_item, their_item)

    def _move(self, giver: str, item: str, count: int, taker: str) -> None:
        hand = self.hands[giver]
        for _ in range(count):
            hand.remove(item)
        self.hands[taker] = self._sorted(self.hands[taker] + [item] * count)

    def hog(self, player: str) -> str:
        """End the round with ``player``'s nine of one item; returns the item."""
        self._live(player)
        held = Counter(self.hands[player])
        item, count = held.most_common(1)[0]
        if count != HAND_SIZE:
            raise RuleError(f"no hog: your largest collection is {count} {item}")
        self.hog_by, self.over = player, True
        return item

    def end_without_hog(self) -> None:
        """End a stalled round: everyone scores their largest collection."""
        self.over = True

    def scores(self) -> Dict[str, int]:
        """Points of each player for the round (hog: the item's value)."""
        out = {}
        for p, hand in self.hands.items():
            item, count = Counter(hand).most_common(1)[0]
            out[p] = self.values[item] if p == self.hog_by else count
        return out

    def card_totals(self) -> Counter:
        """Cards of each item over every hand (nine each, always)."""
        return Counter(card for hand in self.hands.values() for card in hand)


def check_config(players: Sequence[str], items: Sequence[Tuple[str, int]], target: int) -> None:
    """Refuse a configuration the rules or the chat protocol cannot play (RuleError)."""
    for name in players:
        if not is_player_name(name):
            raise RuleError(f"player name {name!r} must be one word of letters, digits, _ . or -")
    if len(set(players)) != len(players):
        raise RuleError("player names must differ")
    for entry in items:
        if (not isinstance(entry, tuple) or len(entry) != 2 or not isinstance(entry[0], str)
                or not NAME.match(entry[0]) or isinstance(entry[1], bool) or not isinstance(entry[1], int)
                or entry[1] < 1):
            raise RuleError(f"an item is (one-word name, positive int value), got {entry!r}")
    names = [n for n, _ in items]
    if len(set(names)) != len(names):
        raise RuleError("item names must differ (each item has exactly nine cards)")
    values = [v for _, v in items]
    if len(set(values)) != len(values):
        raise RuleError("item values must be distinct")
    most = min(MAX_PLAYERS, len(items))
    if not MIN_PLAYERS <= len(players) <= most:
        raise RuleError(f"{MIN_PLAYERS} to {most} players, got {len(players)}")
    if isinstance(target, bool) or not isinstance(target, int) or target < 1:
        raise RuleError(f"the target must be a positive int, got {target!r}")


class Game:
    """Rounds until someone reaches ``target`` points."""

    def __init__(self, players: Sequence[str], rng: random.Random,
                 items: Sequence[Tuple[str, int]] = DEFAULT_ITEMS, target: int = TARGET):
        check_config(players, items, target)
        self.players, self.rng, self.items, self.target = list(players), rng, list(items), target
        self.totals = {p: 0 for p in players}
        self.rounds = 0
        self.round: Optional[Round] = None
        self.winners: List[str] = []

    def new_round(self) -> Round:
        """Deal a new round with as many items as players, keeping presence."""
        chosen = self.rng.sample(self.items, len(self.players))
        chosen.sort(key=lambda it: it[1])
        status = self.round.status if self.round else None
        self.round = Round(self.players, chosen, self.rng)
        if status:
            self.round.status.update(status)
        self.rounds += 1
        return self.round

    def finish_round(self) -> Dict[str, int]:
        """Add the round's scores; decide the game if someone reached the target."""
        assert self.round is not None, "no round to finish"
        scores = self.round.scores()
        for p, s in scores.items():
            self.totals[p] += s
        top = max(self.totals.values())
        if top >= self.target:
            tied = [p for p in self.players if self.totals[p] == top]
            hog = self.round.hog_by
            self.winners = [hog] if hog in tied else tied
        return scores

    @property
    def over(self) -> bool:
        """True once someone reached the target."""
        return bool(self.winners)
