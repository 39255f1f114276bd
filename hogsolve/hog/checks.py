"""What a strategy may answer: the legal number of dice, and the error for anything else.
"""
from __future__ import annotations

from typing import Tuple

import numpy as np

from ..errors import HogsolveError


# A move is a dice count from 0 to max_dice; strategies are asked for one.

class StrategyError(HogsolveError, ValueError):
    """A strategy returned an invalid dice count, changed its mind, or raised."""


def strategy_name(strategy) -> str:
    """A strategy's name; "table" for a bare policy array."""
    if isinstance(strategy, np.ndarray):
        return "table"
    return getattr(strategy, "name", None) or getattr(strategy, "__name__", None) or repr(strategy)


def valid_choice(choice, max_dice: int, min_dice: int = 0) -> bool:
    """True for an int (not bool) or numpy integer from ``min_dice`` to ``max_dice``."""
    if type(choice) is int:  # the common case, checked first: a plain int (bool is its own type)
        return min_dice <= choice <= max_dice
    return bool(not isinstance(choice, (bool, np.bool_)) and isinstance(choice, (int, np.integer))
                and min_dice <= choice <= max_dice)


def checked_choice(strategy, score: int, opponent_score: int, max_dice: int, context: Tuple[int, ...] = (),
                   min_dice: int = 0) -> int:
    """Ask ``strategy`` for its dice count at one state (``context``: extra state such as
    both players' memories, passed on only when given), validating the answer.  The
    strategy's name is only worked out for an error message (it costs more than the call)."""
    try:
        choice = strategy(score, opponent_score, *context)
        if type(choice) is int and min_dice <= choice <= max_dice:  # the common case, without a call
            return choice
    except Exception as exc:
        raise StrategyError(
            f"strategy {strategy_name(strategy)} raised {type(exc).__name__}: {exc} "
            f"at score {score}, opponent score {opponent_score}") from exc
    if not valid_choice(choice, max_dice, min_dice):
        raise StrategyError(
            f"strategy {strategy_name(strategy)} returned {choice!r} at score {score}, opponent score "
            f"{opponent_score}; expected an int from {min_dice} to {max_dice}")
    return int(choice)
