"""Exact Sibala odds, every number from enumerating the 1296 rolls.

* the distribution of categories, points and all-of-a-kind faces;
* one roll each: P(Black wins), P(tie), P(White wins);
* a given hand against a random roll;
* with the re-roll house rule (a no-point hand is rolled again until it
  scores): the expected rolls per hand and the same win/tie figures;
* the banker's expected value per unit bet.  Bank rules: the banker rolls
  first (re-rolling no point); 12 or all of a kind wins at once, 3 loses at
  once; otherwise the player rolls (re-rolling no point) and the higher hand
  wins; ties push, or go to the banker.
"""
from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from typing import Dict, Optional, Sequence, Tuple

from ..util.plain import plain
from .rules import ALL_OF_A_KIND, KATA, NO_POINT, NORMAL_POINT, Variant, evaluate

ROLLS = tuple(itertools.product(range(1, 7), repeat=4))  # 1296 equally likely rolls


@lru_cache(maxsize=8)
def strength_distribution(variant: Variant = KATA, reroll: bool = False) -> Dict[tuple, Fraction]:
    """P(hand strength key) of one roll (of the final roll with re-rolling)."""
    counts = Counter(evaluate(r, variant).strength(variant) for r in ROLLS)
    if reroll:
        counts.pop((0, 0, 0), None)
    total = sum(counts.values())
    return {k: Fraction(c, total) for k, c in counts.items()}


@dataclasses.dataclass(frozen=True)
class Chances:
    """Exact chances that one hand beats, ties or loses to another."""

    beats: Fraction
    ties: Fraction
    loses: Fraction

    def __iter__(self):
        return iter((self.beats, self.ties, self.loses))

    def to_dict(self) -> dict:
        """The chances as exact fraction strings."""
        return plain({"beats": self.beats, "ties": self.ties, "loses": self.loses})


@dataclasses.dataclass(frozen=True)
class OddsTable:
    """Every exact table of :func:`odds` for one variant (see the module docstring)."""

    variant: Tuple[str, ...]
    reroll: bool
    rolls: int
    categories: Dict[str, Fraction]
    points: Dict[int, Fraction]
    all_of_a_kind: Dict[int, Fraction]
    one_roll_each: Chances  # Black's chances against White
    expected_rolls_per_hand: Fraction
    banker_value: Dict[str, Fraction]
    points_after_reroll: Optional[Dict[int, Fraction]] = None

    def to_dict(self) -> dict:
        """Every table as plain JSON values (fractions as exact strings)."""
        out = {"variant": list(self.variant), "reroll": self.reroll, "rolls": self.rolls,
               "categories": dict(self.categories), "points": dict(self.points),
               "all_of_a_kind": dict(self.all_of_a_kind),
               "one_roll_each": {"black_wins": self.one_roll_each.beats, "tie": self.one_roll_each.ties,
                                 "white_wins": self.one_roll_each.loses},
               "expected_rolls_per_hand": self.expected_rolls_per_hand,
               "banker_value": dict(self.banker_value)}
        if self.points_after_reroll is not None:
            out["points_after_reroll"] = dict(self.points_after_reroll)
        return plain(out)


def versus(mine: Dict[tuple, Fraction], theirs: Dict[tuple, Fraction]) -> Chances:
    """The chances that a hand drawn from ``mine`` is stronger, equal, weaker than one from ``theirs``."""
    win = tie = lose = Fraction(0)
    for a, pa in mine.items():
        for b, pb in theirs.items():
            if a > b:
                win += pa * pb
            elif a == b:
                tie += pa * pb
            else:
                lose += pa * pb
    return Chances(win, tie, lose)


def hand_odds(dice: Sequence[int], variant: Variant = KATA, reroll: bool = False) -> Chances:
    """The chances that ``dice`` beat, tie or lose to a random roll (re-rolled until it scores)."""
    key = evaluate(dice, variant).strength(variant)
    return versus({key: Fraction(1)}, strength_distribution(variant, reroll))


def banker_instant(strength: tuple) -> int:
    """+1 if the banker's hand wins at once (all of a kind, 12), -1 if it loses
    at once (3), 0 if the player must roll."""
    if strength[0] == 2 or strength[:2] == (1, 12):
        return 1
    return -1 if strength[:2] == (1, 3) else 0


def banker_value(variant: Variant = KATA, ties_to_banker: bool = False) -> Fraction:
    """The banker's expected gain per unit bet (re-roll house rule for both sides)."""
    dist = strength_distribution(variant, reroll=True)
    value = Fraction(0)
    for banker, pb in dist.items():
        instant = banker_instant(banker)
        if instant:
            value += instant * pb
        else:
            for player, pp in dist.items():
                if player < banker:
                    value += pb * pp
                elif player > banker:
                    value -= pb * pp
                elif ties_to_banker:
                    value += pb * pp
    return value


def odds(variant: Variant = KATA, reroll: bool = False) -> OddsTable:
    """Every table of this module as exact fractions (see the module docstring)."""
    hands = [evaluate(r, variant) for r in ROLLS]
    total = len(ROLLS)
    categories = Counter(h.category for h in hands)
    points = Counter(h.points for h in hands if h.category == NORMAL_POINT and h.points is not None)
    kinds = Counter(h.points for h in hands if h.category == ALL_OF_A_KIND and h.points is not None)
    scoring = Fraction(total - categories[NO_POINT], total)
    dist = strength_distribution(variant, reroll)
    return OddsTable(
        variant=tuple(variant.names() or ["kata"]),
        reroll=reroll,
        rolls=total,
        categories={c: Fraction(categories[c], total) for c in (ALL_OF_A_KIND, NORMAL_POINT, NO_POINT)},
        points={p: Fraction(points[p], total) for p in sorted(points)},
        all_of_a_kind={f: Fraction(kinds[f], total) for f in variant.kind_order},
        one_roll_each=versus(dist, dist),
        expected_rolls_per_hand=1 / scoring if reroll else Fraction(1),
        banker_value={"ties_push": banker_value(variant, False), "ties_to_banker": banker_value(variant, True)},
        points_after_reroll={p: Fraction(points[p], total - categories[NO_POINT]) for p in sorted(points)}
        if reroll else None,
    )
