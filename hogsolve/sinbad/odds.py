"""Exact deal statistics: N players, N items of nine cards, nine cards each.

A hand is a multivariate hypergeometric draw of nine cards from N groups of
nine.  Computed exactly with integer counts over C(9N, 9) hands (one
player) and, for "someone is dealt a hog", inclusion-exclusion over the
players who are.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from math import comb, factorial, perm
from typing import Dict

from ..util.plain import plain
from .rules import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS
from ..errors import InputError


def largest_collection(players: int) -> Dict[int, Fraction]:
    """P(a player's largest starting collection is m) for m = 1..9."""
    # ways[c][m]: hands built from the first items, c cards so far, largest pile m
    ways = {(0, 0): 1}
    for _ in range(players):
        nxt: Dict[tuple, int] = {}
        for (c, m), w in ways.items():
            for take in range(0, HAND_SIZE - c + 1):
                key = (c + take, max(m, take))
                nxt[key] = nxt.get(key, 0) + w * comb(HAND_SIZE, take)
        ways = nxt
    total = comb(HAND_SIZE * players, HAND_SIZE)
    return {m: Fraction(w, total) for (c, m), w in sorted(ways.items()) if c == HAND_SIZE and w}


def player_dealt_hog(players: int) -> Fraction:
    """P(a given player is dealt all nine cards of one item)."""
    return Fraction(players, comb(HAND_SIZE * players, HAND_SIZE))


def someone_dealt_hog(players: int) -> Fraction:
    """P(at least one player is dealt a hog), by inclusion-exclusion."""
    def deals(n):  # ordered deals of n players' hands from n items
        return factorial(HAND_SIZE * n) // factorial(HAND_SIZE) ** n
    total = deals(players)
    count = 0
    for j in range(1, players + 1):
        # j chosen players each hold a distinct complete item; the rest is dealt freely
        count += (-1) ** (j + 1) * comb(players, j) * perm(players, j) * deals(players - j)
    return Fraction(count, total)


@dataclasses.dataclass(frozen=True)
class DealOdds:
    """Exact deal statistics for one number of players."""

    players: int
    player_dealt_hog: Fraction
    someone_dealt_hog: Fraction
    largest_collection: Dict[int, Fraction]

    def to_dict(self) -> dict:
        """The statistics as plain JSON values (fractions as exact strings)."""
        return plain(dataclasses.asdict(self))


def deal_odds(players: int) -> DealOdds:
    """Every deal statistic for ``players`` players (2 to 8)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InputError(f"players must be from {MIN_PLAYERS} to {MAX_PLAYERS}, got {players}")
    return DealOdds(players, player_dealt_hog(players), someone_dealt_hog(players),
                    largest_collection(players))
