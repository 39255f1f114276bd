"""Exact turn-score distributions: the only place dice probabilities are made.

Counts are integers over ``sides ** num_dice`` equally likely rolls, so every
probability downstream can stay exact.
"""
from __future__ import annotations

import dataclasses
from functools import lru_cache

import numpy as np
from ..errors import InputError


@dataclasses.dataclass(frozen=True)
class Distribution:
    """Exact distribution of a turn's points.

    ``counts[i]`` of the ``total`` equally likely rolls score ``points[i]``;
    ``probabilities`` is ``counts / total`` as floats.
    """

    num_dice: int
    sides: int
    points: np.ndarray
    counts: np.ndarray
    total: int

    @property
    def probabilities(self) -> np.ndarray:
        """``counts / total`` as floats."""
        return self.counts / self.total

    def as_dict(self) -> dict:
        """``{points: count}`` with plain ints."""
        return {int(p): int(c) for p, c in zip(self.points, self.counts)}


@lru_cache(maxsize=None)
def sum_counts_without_ones(num_dice: int, sides: int) -> tuple:
    """Counts of each sum ``2n .. sides*n`` over rolls in which no die shows 1.

    Returns a tuple of Python ints, index i for the sum ``2 * num_dice + i``.
    """
    counts = [1]
    for _ in range(num_dice):
        nxt = [0] * (len(counts) + sides - 2)
        for i, c in enumerate(counts):
            for face in range(sides - 1):  # faces 2..sides
                nxt[i + face] += c
        counts = nxt
    return tuple(counts)


def pig_out_count(num_dice: int, sides: int) -> int:
    """Number of rolls in which at least one die shows 1."""
    return sides ** num_dice - (sides - 1) ** num_dice


def turn_score_distribution(num_dice: int, sides: int = 6, pig_out: int = 1) -> Distribution:
    """Exact distribution of the points of rolling ``num_dice`` dice under Pig Out.

    A roll containing a 1 scores ``pig_out``; any other roll scores its sum.

    Examples
    --------
    >>> d = turn_score_distribution(2, 6)
    >>> d.total, d.as_dict()[1], d.as_dict()[12]
    (36, 11, 1)
    """
    if not isinstance(num_dice, (int, np.integer)) or num_dice < 1:
        raise InputError(f"num_dice must be a positive int, got {num_dice!r}")
    if not isinstance(sides, (int, np.integer)) or sides < 2:
        raise InputError(f"sides must be an int of at least 2, got {sides!r}")
    totals: dict = {}
    totals[pig_out] = pig_out_count(num_dice, sides)
    for i, c in enumerate(sum_counts_without_ones(num_dice, sides)):
        totals[2 * num_dice + i] = totals.get(2 * num_dice + i, 0) + c
    points = np.array(sorted(totals), dtype=np.int64)
    counts = np.array([totals[p] for p in sorted(totals)], dtype=np.int64)
    return Distribution(num_dice, sides, points, counts, sides ** num_dice)
