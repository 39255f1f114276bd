"""Strategies: ``strategy(score, opponent_score) -> number of dice``.

This is the CS 61A convention, so a student's ``final_strategy`` plugs in
unchanged.  The strategies here are :class:`Strategy` objects: callables
with a ``name``.  Algorithms never take them directly: every strategy
becomes a validated :class:`~hogsolve.strategy.policy.Policy` first
(:func:`~hogsolve.strategy.policy.as_policy`; :func:`tabulate` gives its table).
The spec language of the command line lives in :mod:`hogsolve.strategy.specs`.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

import numpy as np

from .policy import StrategyError, as_policy  # noqa: F401 (StrategyError re-exported)
from ..hog.rules import Ruleset, end_of_turn_and_swap, zero_dice_points


class Strategy:
    """A named strategy function ``(score, opponent_score) -> dice``."""

    def __init__(self, function: Callable[[int, int], int], name: str):
        self.function = function
        self.name = name
        self.table: Optional[np.ndarray] = None  # a table strategy's table (as_policy reads it, not its calls)

    def __call__(self, score: int, opponent_score: int) -> int:
        return self.function(score, opponent_score)

    def __repr__(self) -> str:
        return f"Strategy({self.name})"


def tabulate(strategy: Any, rules: Ruleset) -> np.ndarray:
    """``policy[score, opponent_score]`` of a strategy over every state, validated."""
    return as_policy(strategy, rules).table


# ------------------------------------------------------------ strategies --

def always_roll(n: int) -> Strategy:
    """Roll ``n`` dice in every state."""
    return Strategy(lambda score, opponent_score: n, f"always_roll:{n}")


def bacon_strategy(rules: Ruleset, margin: int = 8, num_rolls: int = 4) -> Strategy:
    """Roll 0 when Free Bacon gives at least ``margin`` points, else ``num_rolls``."""
    def strategy(score, opponent_score):
        return 0 if zero_dice_points(rules, score, opponent_score) >= margin else num_rolls
    return Strategy(strategy, f"bacon:{margin}:{num_rolls}")


def swap_strategy(rules: Ruleset, margin: int = 8, num_rolls: int = 4) -> Strategy:
    """Roll 0 when it causes a beneficial swap, or gains at least ``margin``
    points without a harmful swap; else ``num_rolls`` (the CS 61A baseline)."""
    def strategy(score, opponent_score):
        bacon = zero_dice_points(rules, score, opponent_score)
        mover, opponent, swapped = end_of_turn_and_swap(rules, score, opponent_score, bacon)
        if swapped and mover > opponent:
            return 0  # the swap helps
        if bacon >= margin and not (swapped and mover < opponent):
            return 0
        return num_rolls
    return Strategy(strategy, f"swap:{margin}:{num_rolls}")


def random_strategy(seed: int, rules: Ruleset) -> Strategy:
    """A fixed random dice count per state, drawn once from ``seed``."""
    g = rules.goal
    table = np.random.default_rng(seed).integers(0, rules.max_dice + 1, size=(g, g)).astype(np.int8)
    return table_strategy(table, f"random:{seed}")


def table_strategy(table: np.ndarray, name: str = "table") -> Strategy:
    """A strategy read from a policy table ``table[score, opponent_score]``."""
    table = np.asarray(table)

    def strategy(score, opponent_score):
        return int(table[score, opponent_score])
    s = Strategy(strategy, name)
    s.table = table
    return s


def baselines(rules: Ruleset) -> list:
    """The CS 61A baselines: always_roll 0..max_dice and the bacon/swap strategies."""
    out = [always_roll(n) for n in range(rules.max_dice + 1)]
    return out + [bacon_strategy(rules), swap_strategy(rules)]

