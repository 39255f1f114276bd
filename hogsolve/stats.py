"""Confidence intervals for estimated proportions."""
from __future__ import annotations

import math

Z95 = 1.959963984540054


def standard_error(p: float, n: int) -> float:
    """Standard error of a proportion ``p`` estimated from ``n`` trials."""
    return math.sqrt(p * (1 - p) / n)
