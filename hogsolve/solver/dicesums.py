"""Exact optimal values by the dice recurrence: few big-integer products per state.

Where a roll scores the sum of its dice, or fixed Pig Out points when any die
shows 1, the rolls of ``n`` dice that avoid 1s are those of ``n - 1`` dice plus
one more face from 2 to S.  So with ``T`` the exact outcome table of
:class:`hogsolve.solver.backup.OutcomeTable` and

    F_n(j, o) = sum over the rolls of n dice without a 1 of T(j + their sum, o),

``F_0 = T`` and ``F_n(j) = F_n(j + 1) + F_{n-1}(j + 2) - F_{n-1}(j + S + 1)``:
two big-integer additions per row, opponent score and dice count, where the
dot product of :mod:`hogsolve.solver.exact`'s general pass takes one product and one
addition per point an action can score.  Rolling ``n`` dice then weighs
``(S**n - (S - 1)**n) * T(j + pig_out, o) + F_n(j, o)`` by ``S**(max_dice - n)``.
Only the best action's value is divided back to the table's scale; the others
stay over ``one * total``, which orders them the same.
"""
from __future__ import annotations

from typing import Tuple

import numpy as np

from .backup import Arithmetic, OutcomeTable
from ..hog.dice import pig_out_count, sum_counts_without_ones
from .model import Model
from .kinds import covers


def rolls_are_dice_sums(model: Model) -> bool:
    """True when every roll scores its dice's sum, or the fixed Pig Out points on a 1, and
    a turn's outcome depends on the sum after it alone (no Piggy Back, points bonus or
    history): the recurrence of the module docstring then gives every action's sum."""
    rules = model.rules
    if not covers(model, "dice recurrence") or rules.pig_out_rule is not None:
        return False
    return all(np.array_equal(_dice_sum_counts(int(sides), int(rules.max_dice), int(rules.pig_out),
                                               model.counts.shape[2]), model.counts[t].astype(object))
               for t, sides in enumerate(model.dice_sides_values))


def _dice_sum_counts(sides: int, max_dice: int, pig_out: int, points: int) -> np.ndarray:
    """``counts[n, p]`` of the rolls the recurrence assumes, over ``sides ** max_dice``: the
    dice's sum without a 1 (:func:`hogsolve.hog.dice.sum_counts_without_ones`), else Pig Out."""
    counts = np.zeros((max_dice + 1, points), dtype=object)
    for n in range(1, max_dice + 1):
        sums = sum_counts_without_ones(n, sides)
        counts[n, 2 * n: 2 * n + len(sums)] = sums
        if pig_out < points:
            counts[n, pig_out] += pig_out_count(n, sides)
        counts[n] *= sides ** (max_dice - n)
    return counts


def recurrence_values(model: Model, arith: Arithmetic, progress=None) -> Tuple[np.ndarray, np.ndarray]:
    """Exact optimal ``(values, scaled_action_values)``: value numerators over ``arith.one``,
    and every action's over ``arith.one * arith.total`` (see the module docstring).  Needs
    :func:`rolls_are_dice_sums`; ``progress(stages, total)`` may wrap the score sums."""
    g, A = model.goal, model.num_actions
    max_dice, pig_out = int(model.rules.max_dice), int(model.rules.pig_out)
    table = OutcomeTable(model, arith)
    T = table.table
    rows, top = T.shape[0], 2 * g - 2
    base, whole = arith.total, arith.total * arith.one
    kinds = []
    for sides in (int(x) for x in model.dice_sides_values):
        n = range(1, max_dice + 1)
        weight = np.array([(base // sides ** max_dice) * sides ** (max_dice - k) for k in n], dtype=object)
        pig = np.array([pig_out_count(k, sides) for k in n], dtype=object)
        ring = np.zeros((max_dice + 1, sides + 2, g), dtype=object)  # F_n at rows j .. j + sides + 1
        kinds.append((sides, weight[:, None], pig[:, None], ring))
    values = np.zeros((g, g), dtype=object)
    scaled = np.zeros((g, g, A), dtype=object)

    def advance(j: int) -> None:
        """F_n(j) for n >= 1, from the rows above (F_0(j) is T's row j, once known)."""
        for sides, _, _, ring in kinds:
            size = sides + 2
            here, up, two, far = j % size, (j + 1) % size, (j + 2) % size, (j + sides + 1) % size
            for n in range(1, max_dice + 1):
                ring[n, here] = ring[n, up] + ring[n - 1, two] - ring[n - 1, far]

    def known(j: int) -> None:
        for sides, _, _, ring in kinds:
            ring[0, j % (sides + 2)] = T[j]

    for j in range(rows - 1, top, -1):
        advance(j)
        known(j)
    stages = range(top, -1, -1)
    for k in (stages if progress is None else progress(stages, top + 1)):
        advance(k)
        d = model.diagonals[k]
        sums = np.empty((A, len(d.o)), dtype=object)
        sums[0] = base * T[d.bacon_rows, d.o]
        pigged = T[k + pig_out, d.o][None, :]
        for t, (sides, weight, pig, ring) in enumerate(kinds):
            if d.kind is not None and d.kind != t:
                continue
            rolled = weight * (pig * pigged + ring[1:, k % (sides + 2), d.o])
            sums[1:] = rolled if d.kind is not None else np.where(d.kinds == t, rolled, sums[1:])
        every = whole - sums
        best = every.max(axis=0)
        scaled[d.s, d.o] = every.T
        values[d.s, d.o] = best // base  # exact: see hogsolve.solver.exact
        table.fill(k, values)
        known(k)
    return values, scaled
