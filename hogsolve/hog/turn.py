"""One turn's points and the end of a turn, in the order every ruleset shares.
"""
from __future__ import annotations

import dataclasses
from collections import Counter
from math import comb
from typing import Any, Dict, Sequence

import numpy as np

from .dice import pig_out_count, sum_counts_without_ones
from ..errors import InputError

#: What these functions take as ``rules``: a :class:`~hogsolve.hog.ruleset.Ruleset`, read for its
#: components only (this module sits below the Ruleset, which uses :func:`points_counts`).
Rules = Any


def roll_points(outcomes: Sequence[int], pig_out: int = 1, pig_out_rule=None) -> int:
    """Points of one roll: if any die shows 1 (Pig Out), ``pig_out`` or
    ``pig_out_rule(number of 1s, number of dice)``; else the sum."""
    outcomes = list(outcomes)
    if 1 not in outcomes:
        return sum(outcomes)
    return int(pig_out_rule(outcomes.count(1), len(outcomes))) if pig_out_rule is not None else pig_out


def turn_points(rules: Rules, raw_points, num_dice):
    """A turn's points after the ruleset's turn-score rule (Hogtimus Prime, ...)."""
    return call_rule(rules.turn_score, raw_points, num_dice)


def call_rule(rule, *args):
    """Call a rule component on ints or arrays.

    On arrays the result is broadcast to the arguments' shape; a component
    written for plain ints only is then called element by element.
    """
    if all(type(a) is int for a in args):  # the engine's plain ints: the common case, kept fast
        return rule(*args)
    if all(np.ndim(a) == 0 for a in args):
        return rule(*(int(a) for a in args))
    shape = np.broadcast_shapes(*(np.shape(a) for a in args))
    try:
        return np.broadcast_to(np.asarray(rule(*args)), shape)
    except Exception:  # a component written for plain ints only
        one = np.vectorize(lambda *xs: rule(*(int(x) for x in xs)), otypes=[np.int64])
        return one(*args)


@dataclasses.dataclass(frozen=True)
class EndOfTurn:
    """The after-turn rules of one turn, step by step (ints, or numpy arrays element-wise):
    the points bonus's extras (sp15), the mover's bonus (Hog Pile, ...), whether the swap
    fired, and the scores (mover, opponent) it ends on."""

    mover_extra: Any
    opponent_extra: Any
    bonus: Any
    swapped: Any
    mover: Any
    opponent: Any


def end_of_turn_steps(rules: Rules, score, opponent_score, points) -> EndOfTurn:
    """Add ``points`` to ``score``, then the points bonus, the bonus and the swap test (once):
    the one definition of their order, for the engine's events and every solver alike."""
    new = score + points
    mover_extra, opponent_extra = 0 * new, 0 * new
    if rules.points_bonus is not None:
        mover_extra, opponent_extra = rules.points_bonus(new, opponent_score, points)
        new, opponent_score = new + mover_extra, opponent_score + opponent_extra
    bonus = call_rule(rules.bonus, new, opponent_score)
    new = new + bonus
    swap = call_rule(rules.swaps, new, opponent_score)
    if np.ndim(swap) == 0:
        swap = bool(swap)
        mover, opponent = (opponent_score, new) if swap else (new, opponent_score)
    else:
        swap = swap.astype(bool)
        mover, opponent = np.where(swap, opponent_score, new), np.where(swap, new, opponent_score)
    return EndOfTurn(mover_extra, opponent_extra, bonus, swap, mover, opponent)


def end_of_turn_and_swap(rules: Rules, score, opponent_score, points):
    """``(mover, opponent, swapped)`` after adding ``points`` and applying the swap rule.

    The swap test runs once; works on ints and, element-wise, on numpy arrays.
    """
    steps = end_of_turn_steps(rules, score, opponent_score, points)
    return steps.mover, steps.opponent, steps.swapped


def end_of_turn(rules: Rules, score, opponent_score, points):
    """Scores (mover, opponent) after adding ``points`` and applying the swap rule."""
    mover, opponent, _ = end_of_turn_and_swap(rules, score, opponent_score, points)
    return mover, opponent


def zero_dice_points(rules: Rules, score, opponent_score):
    """Points of rolling zero dice at (score, opponent_score), for ints or arrays."""
    if getattr(rules.free_bacon, "uses_score", False):
        return call_rule(rules.free_bacon, score, opponent_score)
    points = call_rule(rules.free_bacon, opponent_score)
    if np.ndim(score) or np.ndim(opponent_score):
        return np.broadcast_to(points, np.broadcast_shapes(np.shape(score), np.shape(opponent_score)))
    return points


def moves_again(rules: Rules, score, opponent_score):
    """True where the mover keeps the move after ending a turn on (score, opponent_score)."""
    return call_rule(rules.extra_turn, score, opponent_score)


def points_counts(rules: Rules, num_dice: int, sides: int) -> Dict[int, int]:
    """``{points: rolls}`` over the ``sides ** num_dice`` equally likely rolls of ``num_dice``
    dice: Pig Out (or its count-of-ones rule), then the turn-score rule.  The one
    definition of a roll's points; the compiled model scales it to a common denominator.

    >>> from hogsolve.hog.rules import get_rules
    >>> counts = points_counts(get_rules("su18"), 2, 6)
    >>> counts[1], counts[12], sum(counts.values())
    (11, 1, 36)
    """
    out: Counter = Counter()

    def add(raw: int, count: int) -> None:
        points = int(turn_points(rules, raw, num_dice))
        if points < 0:
            raise InputError(f"{rules.name}: a turn cannot score {points} points")
        out[points] += count
    if rules.pig_out_rule is None:
        add(int(rules.pig_out), pig_out_count(num_dice, sides))
    else:
        for ones in range(1, num_dice + 1):
            add(int(rules.pig_out_rule(ones, num_dice)), comb(num_dice, ones) * (sides - 1) ** (num_dice - ones))
    for i, count in enumerate(sum_counts_without_ones(num_dice, sides)):
        add(2 * num_dice + i, count)
    return dict(out)
