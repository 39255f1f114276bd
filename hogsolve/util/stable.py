"""Figures that come out the same on every machine.

A float solve's last bits follow the summation order, which follows the
BLAS kernel and SIMD width of the machine (about 1e-16 here, up to the
certificate's error bound in principle).  Anything hogsolve stores or prints
from float values goes through this module, so that noise far below the
error bound cannot move a byte or a digit:

* stored values are rounded to a fixed absolute grid (:data:`GRID`, 2^-20),
  far above the noise and far below anything a player reads; a value within
  :data:`MIDPOINT_ZONE` of a grid midpoint is settled by rounding half to
  even, so exact midpoints (dyadic chances, as in Piglet's coin) land the
  same way whatever their noise;
* a float figure is printed to the decimals its error bound leaves certain
  (:func:`certain_digits`: one unit of the last digit is at least 100 times
  the bound);
* an error bound is printed rounded *up* to two significant digits
  (:func:`bound_text`), so the printed bound is still a bound.

The solvers make the bound itself machine-independent (a residual at the
rounding level is charged as a full rounding step; see
:mod:`hogsolve.solver.certificate`).

>>> float(on_grid(0.5 + 2.0 ** -22))   # nearest grid point
0.5
>>> float(on_grid(2.220446e-16)), float(on_grid(1.110223e-16))   # noise near 0 is gone
(0.0, 0.0)
>>> float(on_grid(3 * 2.0 ** -21)) == float(on_grid(3 * 2.0 ** -21 + 1e-14)) == 2 * GRID   # a midpoint: to even
True
>>> certain_digits(0.5225964072271, 1e-12), certain_digits(0.5305927252, 1.4e-9)
('0.5225964072', '0.530593')
>>> bound_text(9.87e-13), bound_text(6.4e-12), bound_text(0.0)
('9.9e-13', '6.4e-12', '0')
"""
from __future__ import annotations

import math

import numpy as np

#: The absolute grid stored float values are rounded to (about 9.5e-7).
GRID = 2.0 ** -20
#: Largest distance from a stored value to the solved one, besides the certificate's bound.
GRID_ERROR = GRID / 2
#: Values this close to a grid midpoint round half to even (far above float noise, far below the grid).
MIDPOINT_ZONE = 2.0 ** -40
#: A printed figure's last digit is worth at least this many error bounds.
DIGIT_MARGIN = 100.0


def on_grid(values) -> np.ndarray:
    """``values`` (probabilities) rounded to :data:`GRID` as float32, exactly representable:
    the nearest grid point, or the even one within :data:`MIDPOINT_ZONE` of a midpoint."""
    scaled = np.asarray(values, dtype=np.float64) / GRID
    low = np.floor(scaled)
    frac = scaled - low
    near_mid = np.abs(frac - 0.5) <= MIDPOINT_ZONE / GRID
    nearest = np.where(frac < 0.5, low, low + 1)
    even = np.where(low % 2 == 0, low, low + 1)
    return (np.where(near_mid, even, nearest) * GRID).astype(np.float32)


def certain_decimals(bound: float, most: int = 12) -> int:
    """Decimals of a figure with error ``bound`` whose last digit is worth at least
    :data:`DIGIT_MARGIN` bounds (``most`` for an exact figure, bound 0)."""
    if not bound > 0:
        return most
    if not math.isfinite(bound):
        return 0
    return max(0, min(most, math.floor(-math.log10(DIGIT_MARGIN * bound))))


def certain_digits(value: float, bound: float, most: int = 12) -> str:
    """``value`` printed to :func:`certain_decimals` of ``bound``."""
    return f"{value:.{certain_decimals(bound, most)}f}"


def certain_value(value: float, bound: float, most: int = 12) -> float:
    """``value`` rounded to :func:`certain_decimals` of ``bound``, as a float (for JSON)."""
    return float(certain_digits(value, bound, most))


def bound_up(bound: float) -> float:
    """``bound`` rounded up to two significant digits (still a bound)."""
    if not (bound > 0 and math.isfinite(bound)):
        return float(bound)
    exponent = math.floor(math.log10(bound)) - 1
    scale = 10.0 ** exponent
    up = math.ceil(round(bound / scale, 9)) * scale  # the round() keeps 9.9e-13 from becoming 1e-12
    return float(f"{up:.2g}")


def bound_text(bound: float) -> str:
    """:func:`bound_up` as text (``.2g``)."""
    return f"{bound_up(bound):.2g}"


def residual_text(residual: float, step: float) -> str:
    """A Bellman residual as printed: ``0`` (a one-pass solve, on every machine), "at the rounding
    level" (at most one backup's rounding ``step``: its digits are machine noise), else the bound
    on it (:func:`bound_text`)."""
    if residual == 0:
        return "0"
    return "at the rounding level" if residual <= step else bound_text(residual)


def certificate_text(bound: float, residual: float, step: float, margin: float, ties: int) -> str:
    """What a certificate line says, for every game: the bound rounded up, the residual as
    :func:`residual_text` puts it, the smallest margin (two digits)."""
    return (f"values within {bound_text(bound)} of optimal (Bellman residual {residual_text(residual, step)}); "
            f"smallest decision margin {margin:.2g}; {ties} states tied within the bound")
