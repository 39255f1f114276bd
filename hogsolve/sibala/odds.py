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

import itertools
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from typing import Dict, Sequence, Tuple

from .hands import ALL_OF_A_KIND, KATA, NO_POINT, NORMAL_POINT, Variant, evaluate

ROLLS = tuple(itertools.product(range(1, 7), repeat=4))  # 1296 equally likely rolls


@lru_cache(maxsize=8)
def strength_distribution(variant: Variant = KATA, reroll: bool = False) -> Dict[tuple, Fraction]:
    """P(hand strength key) of one roll (of the final roll with re-rolling)."""
    counts = Counter(evaluate(r, variant).strength(variant) for r in ROLLS)
    if reroll:
        counts.pop((0, 0, 0), None)
    total = sum(counts.values())
    return {k: Fraction(c, total) for k, c in counts.items()}


def versus(mine: Dict[tuple, Fraction], theirs: Dict[tuple, Fraction]) -> Tuple[Fraction, Fraction, Fraction]:
    """(P(mine stronger), P(equal), P(theirs stronger)) for independent hands."""
    win = tie = lose = Fraction(0)
    for a, pa in mine.items():
        for b, pb in theirs.items():
            if a > b:
                win += pa * pb
            elif a == b:
                tie += pa * pb
            else:
                lose += pa * pb
    return win, tie, lose


def hand_odds(dice: Sequence[int], variant: Variant = KATA, reroll: bool = False):
    """(P(beats), P(ties), P(loses to)) a random roll."""
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


def odds(variant: Variant = KATA, reroll: bool = False) -> dict:
    """Every table of this module as exact fractions (see the module docstring)."""
    hands = [evaluate(r, variant) for r in ROLLS]
    total = len(ROLLS)
    categories = Counter(h.category for h in hands)
    points = Counter(h.points for h in hands if h.category == NORMAL_POINT)
    kinds = Counter(h.points for h in hands if h.category == ALL_OF_A_KIND)
    scoring = Fraction(total - categories[NO_POINT], total)
    dist = strength_distribution(variant, reroll)
    black, tie, white = versus(dist, dist)
    out = {
        "variant": variant.names() or ["kata"],
        "reroll": reroll,
        "rolls": total,
        "categories": {c: Fraction(categories[c], total) for c in (ALL_OF_A_KIND, NORMAL_POINT, NO_POINT)},
        "points": {p: Fraction(points[p], total) for p in sorted(points)},
        "all_of_a_kind": {f: Fraction(kinds[f], total) for f in variant.kind_order},
        "one_roll_each": {"black_wins": black, "tie": tie, "white_wins": white},
        "expected_rolls_per_hand": 1 / scoring if reroll else Fraction(1),
        "banker_value": {"ties_push": banker_value(variant, False),
                         "ties_to_banker": banker_value(variant, True)},
    }
    if reroll:
        out["points_after_reroll"] = {p: Fraction(points[p], total - categories[NO_POINT])
                                      for p in sorted(points)}
    return out
