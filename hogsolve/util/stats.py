"""Confidence intervals for estimated proportions: one definition for every estimate."""
from __future__ import annotations

import math
from typing import Tuple
from ..errors import InputError

Z95 = 1.959963984540054


def standard_error(p: float, n: int) -> float:
    """Standard error of a proportion ``p`` estimated from ``n`` trials (normal approximation)."""
    return math.sqrt(p * (1 - p) / n)


def wilson_interval(p: float, n: float, z: float = Z95) -> Tuple[float, float]:
    """Wilson score interval of a proportion ``p`` observed in ``n`` trials.

    Unlike ``p +- z * standard_error`` it never leaves [0, 1] and never has
    zero width, even for 0 or n successes or tiny n.

    >>> wilson_interval(0.0, 5)[0], round(wilson_interval(0.0, 5)[1], 4)
    (0.0, 0.4345)
    """
    if n <= 0:
        raise InputError(f"a proportion needs at least one trial, got n = {n}")
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)
