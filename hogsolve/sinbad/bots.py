"""Bots that play SinbadHogBot seeing only what a player sees.

A bot is told the room's public lines and the private lines addressed to it
(:meth:`Bot.observe`), and is shown its own hand when asked to act
(:meth:`Bot.act`), which returns a chat line or None.  Nothing else reaches
it: not the engine, not another hand.

* :class:`RandomTrader`: random legal offers and acceptances.
* :class:`GreedyCollector`: collects its most-held item; offers its largest
  off-target set; accepts any offer it can match with off-target cards.
In a room a bot speaks as a person would (:meth:`Bot.speak`, which the room calls with its
clock, around :meth:`Bot.act`, the strategy that offline tournaments play): it does not offer
back the item it just received (that would swap the same cards to and fro) for
:data:`KEEP_ACTS` of its turns, never repeats an offer the room let stand unless a trade
happened since, and says at most :data:`LINES_PER_MINUTE` lines a minute besides "hog".

* :class:`TrackingBot`: infers the others' hands from offers and trades
  (every item totals nine cards) and uses the estimate to pick its target
  and which offers to take.
"""
from __future__ import annotations

import collections
import random
from collections import Counter
from typing import Deque, Dict, Optional, Sequence

from .rules import HAND_SIZE, MAX_OFFER

#: Lines a built-in bot says in any minute, "hog" aside.
LINES_PER_MINUTE = 30
#: Turns to act during which a bot does not offer the item it just received.
KEEP_ACTS = 8


def positions_of(hand: Sequence[str], item: str, count: int) -> str:
    """Digits of the first ``count`` positions holding ``item``."""
    found = [str(i) for i, card in enumerate(hand, 1) if card == item]
    return "".join(found[:count])


class Bot:
    """What every bot knows: its name, the open offers, its own offer, the items."""

    kind = "bot"

    def __init__(self, name: str, rng: random.Random):
        self.name, self.rng = name, rng
        self.offers: Dict[str, int] = {}   # other players' open offers: player -> count
        self.my_offer: Optional[tuple] = None
        self.values: Dict[str, int] = {}
        self.idle = 0
        self.said: Deque[float] = collections.deque()  # when each recent line was said
        self.kept: Optional[str] = None  # the item just received: not offered back for a while
        self.kept_acts = 0
        self.trades = 0              # trades seen in the room this round
        self.last_offer: Optional[tuple] = None  # (line, trades seen then) of my last open offer
        self.new_round()  # every bot can act (or pass) before its first round

    def speak(self, hand: Sequence[str], now: float) -> Optional[str]:
        """:meth:`act`, within :data:`LINES_PER_MINUTE` (``now`` in seconds): the line to say,
        or None.  A repeat of an open offer nobody took, with no trade since, is not said."""
        line = self.act(hand)
        self.kept_acts += 1
        if self.kept_acts >= KEEP_ACTS:
            self.kept = None
        if line is None or line == "hog":
            return line
        words = line.split()
        offer = words[0] == "/b" and len(words) == 2  # an open offer (three words: an acceptance)
        if offer and self.my_offer is not None and self.last_offer == (line, self.trades):
            return None
        if offer and self.kept is not None and any(hand[int(d) - 1] == self.kept for d in words[1]):
            return None  # not back to and fro: it passes this turn instead
        while self.said and now - self.said[0] >= 60:
            self.said.popleft()
        if len(self.said) >= LINES_PER_MINUTE:
            return None
        self.said.append(now)
        if offer:
            self.last_offer = (line, self.trades)
        return line


    def observe(self, message) -> None:
        """Take in one message the room showed this bot."""
        event = message.event
        if not event:
            return
        kind = event[0]
        if kind == "round":
            self.offers.clear()
            self.my_offer = None
            self.values = dict(event[2])
            self.kept, self.trades, self.last_offer = None, 0, None
            self.new_round()
        elif kind == "offer" and event[1] != self.name:
            self.offers[event[1]] = event[2]
        elif kind == "my_offer":
            self.my_offer = (event[1], event[2])
        elif kind == "trade":
            for p in event[1:3]:
                self.offers.pop(p, None)
                if p == self.name:
                    self.my_offer = None
            self.trades += 1
            self.seen_trade(event[1], event[2], event[3])
        elif kind == "received":
            self.kept, self.kept_acts = event[2], 0
            self.received(event[1], event[2], event[3])

    # hooks for subclasses
    def new_round(self) -> None:
        """Forget what belonged to the last round (a hook for subclasses)."""
        pass

    def seen_trade(self, a: str, b: str, count: int) -> None:
        """A trade of ``count`` cards between ``a`` and ``b`` happened (a hook)."""
        pass

    def received(self, giver: str, item: str, count: int) -> None:
        """This bot received ``count`` ``item`` from ``giver`` (a hook)."""
        pass

    def act(self, hand: Sequence[str]) -> Optional[str]:
        """A chat line to say with ``hand``, or None to pass."""
        raise NotImplementedError

    @staticmethod
    def hog_ready(hand: Sequence[str]) -> bool:
        """True when ``hand`` is nine of one item."""
        return Counter(hand).most_common(1)[0][1] == HAND_SIZE


class RandomTrader(Bot):
    """Random legal offers and acceptances."""

    kind = "random"

    def act(self, hand):
        """A random legal offer or acceptance, or a pass."""
        if self.hog_ready(hand):
            return "hog"
        held = Counter(hand)
        r = self.rng.random()
        if r < 0.4 and self.offers:
            other = self.rng.choice(sorted(self.offers))
            k = self.offers[other]
            enough = sorted(i for i, c in held.items() if c >= k)
            if enough:
                return f"/b {positions_of(hand, self.rng.choice(enough), k)} {other}"
        if r < 0.8:
            item = self.rng.choice(sorted(held))
            k = self.rng.randint(1, min(MAX_OFFER, held[item]))
            return f"/b {positions_of(hand, item, k)}"
        return None


class GreedyCollector(Bot):
    """Collect the most-held item; trade away everything else."""

    kind = "greedy"

    def target(self, held: Counter) -> str:
        """The item to collect: the most held."""
        return max(held, key=lambda i: held[i])

    def choose_offer_to_take(self, hand, held: Counter, target: str):
        """(player, item, count) of the best offer to accept, or None."""
        best = None
        for other, k in self.offers.items():
            junk = [i for i, c in held.items() if i != target and c >= k]
            if junk and (best is None or k > best[2]):
                best = (other, min(junk, key=lambda i: held[i]), k)
        return best

    def act(self, hand):
        """Say hog, take a matching offer, or offer the largest off-target set."""
        if self.hog_ready(hand):
            return "hog"
        held = Counter(hand)
        target = self.target(held)
        take = self.choose_offer_to_take(hand, held, target)
        if take is not None:
            other, item, k = take
            return f"/b {positions_of(hand, item, k)} {other}"
        self.idle += 1
        if self.my_offer is None or self.idle > 3:
            junk = [i for i in held if i != target]
            if junk:
                self.idle = 0
                item = max(junk, key=lambda i: (held[i], self.rng.random()))
                k = min(MAX_OFFER, held[item])
                return f"/b {positions_of(hand, item, k)}"
        return None


class TrackingBot(GreedyCollector):
    """Infer the others' hands and trade on the estimate.

    ``estimate[player][item]`` is the expected number of ``item`` cards that
    ``player`` holds.  It starts from card counting (the nine of each item
    that are not in my hand are spread evenly over the others) and is updated
    by what the room shows: a trade with me moves known cards; a trade between
    others moves ``count`` cards of an unknown item each way; an item a player
    gives me is one that player is not collecting.
    """

    kind = "tracker"

    def new_round(self) -> None:
        """Start a fresh estimate of the other hands."""
        self.estimate: Dict[str, Counter] = {}
        self.discards: Dict[str, set] = {}
        self.gave: Dict[str, str] = {}
        self.players: set = set()
        self.pending: Optional[str] = None   # the item of my last acceptance
        self.offered: Optional[tuple] = None  # my open offer, kept past the trade line

    def _init(self, hand) -> None:
        if self.estimate or not self.values:
            return
        others = sorted(self.players - {self.name})
        if not others:
            return
        held = Counter(hand)
        for p in others:
            self.estimate[p] = Counter({i: (HAND_SIZE - held[i]) / len(others) for i in self.values})
            self.discards[p] = set()

    def observe(self, message) -> None:
        """Note the players and my open offer, then update as any bot does."""
        event = message.event
        if event and event[0] in ("offer", "status"):
            self.players.add(event[1])            # ("status", player, "away"): the word is no player
        if event and event[0] == "trade":
            self.players.update(event[1:3])
        if event and event[0] == "scores":
            self.players.update(event[1])
        if event and event[0] == "my_offer":
            self.offered = (event[1], event[2])
        super().observe(message)

    def seen_trade(self, a, b, count):
        """Move estimated cards between the two traders."""
        if self.name in (a, b):
            other = b if a == self.name else a
            given = self.pending if a == self.name else (self.offered or (None,))[0]
            if given is not None and other in self.estimate:
                self.estimate[other][given] += count  # the cards I gave are theirs now
                self.gave[other] = given
            return
        for p in (a, b):
            self.gave.pop(p, None)  # my cards may have moved on
        if a not in self.estimate or b not in self.estimate:
            return
        # each side gave `count` cards of its likely discard item
        for giver, taker in ((a, b), (b, a)):
            item = self.likely_discard(giver, count)
            if item is not None:
                moved = min(count, self.estimate[giver][item])
                self.estimate[giver][item] -= moved
                self.estimate[taker][item] += moved

    def received(self, giver, item, count):
        """What ``giver`` gave me is an item it is not collecting."""
        if giver in self.estimate:
            self.estimate[giver][item] = max(0.0, self.estimate[giver][item] - count)
            self.discards[giver].add(item)

    def likely_discard(self, player: str, count: int) -> Optional[str]:
        """The item ``player`` most likely gives for ``count`` cards."""
        est, known_junk = self.estimate[player], self.discards.get(player, set())
        target = max(est, key=lambda i: est[i])
        candidates = [i for i in est if i != target and est[i] >= count - 0.5]
        if not candidates:
            return None
        return max(candidates, key=lambda i: (i in known_junk, est[i]))

    def target(self, held: Counter) -> str:
        """My most-held item, discounted when another player seems to collect it, valuing points."""
        def score(item):
            rival = max((est[item] for p, est in self.estimate.items()
                         if item not in self.discards.get(p, set())), default=0.0)
            return held[item] - 0.5 * max(0.0, rival - held[item]) + self.values.get(item, 0) / 100
        return max(held, key=score)

    def target_chance(self, other: str, count: int, target: str) -> float:
        """Estimated chance that ``other``'s open offer of ``count`` cards is my target.

        What the room showed me: an offer right after I gave that player cards
        is almost always my own cards coming back; a player who already gave
        me my target has usually run out of it; a one-card offer means every
        off-target pile of theirs is a single card, one of which may be mine.
        The rates are those measured over 200 simulated tracker/greedy games.
        """
        if self.gave.get(other) is not None:
            return 0.03
        chance = 0.11 if target in self.discards.get(other, set()) else 0.24
        return chance * (1.4 if count == 1 else 1.0)

    def choose_offer_to_take(self, hand, held, target):
        """``(player, my item, count)`` of the open offer most likely to bring my target."""
        best, best_gain = None, 0.0
        for other, k in self.offers.items():
            junk = [i for i, c in held.items() if i != target and c >= k]
            if not junk:
                continue
            gain = k * self.target_chance(other, k, target)
            if gain > best_gain:
                best, best_gain = (other, min(junk, key=lambda i: held[i]), k), gain
        return best

    def act(self, hand):
        """Act as the greedy collector would, with the estimate's choices."""
        if not self.estimate:
            self._init(hand)
        line = super().act(hand)
        if line and line.startswith("/b") and len(line.split()) == 3:
            self.pending = hand[int(line.split()[1][0]) - 1]
        return line


BOTS = {cls.kind: cls for cls in (RandomTrader, GreedyCollector, TrackingBot)}
