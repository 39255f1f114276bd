"""Result types every game family shares, so each verb prints and serialises them once:
:class:`WinRate`, and the base types of every game's best response and regret (Hog's and the
roll-or-hold games' are kinds of them, as every game's solution is a
:class:`~hogsolve.solver.solution.Solution`)."""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

import numpy as np

from ..util.plain import plain


@dataclasses.dataclass(frozen=True)
class WinRate:
    """P(a wins) with a moving first, with b moving first, and their average."""

    a: str
    b: str
    first: float
    second: float

    @property
    def average(self) -> float:
        """The CS 61A win rate: the mean of the two seatings."""
        return (self.first + self.second) / 2

    def to_dict(self) -> dict:
        """The win rate as plain JSON values."""
        return {"a": self.a, "b": self.b, "first": self.first, "second": self.second,
                "average": self.average}


class BestResponse:
    """The strategy that wins most often against a fixed ``opponent``, whatever the game.

    Every kind has ``game`` (its rules), ``opponent`` (the fixed strategy's name), ``policy``
    (the best responder's decision per state), ``win_rate`` (a :class:`WinRate` of the best
    response against the opponent), ``exploitability`` and ``to_dict()``, and plays as a
    strategy.  The kinds: :class:`~hogsolve.analysis.evaluate.HogBestResponse` and
    :class:`~hogsolve.analysis.pig.evaluate.PigBestResponse`.
    """

    if TYPE_CHECKING:  # what every kind has, as its own fields or properties
        opponent: str

        @property
        def game(self) -> Any: ...

        @property
        def policy(self) -> np.ndarray: ...

        @property
        def win_rate(self) -> WinRate: ...

    @property
    def opening_action(self) -> int:
        """The best response's first move of the game (an action of the game's own numbering)."""
        raise NotImplementedError

    @property
    def exploitability(self) -> float:
        """How far the best response's win rate exceeds one half."""
        return self.win_rate.average - 0.5

    def to_dict(self) -> dict:
        """The best response's figures as plain JSON values (no tables)."""
        return plain({"opponent": self.opponent, "win_rate": self.win_rate,
                      "exploitability": self.exploitability, "opening_move": self.opening_action})


class Regret:
    """Where a strategy loses against optimal play, whatever the game: ``loss`` (the win
    probability its choice gives up in each state, the strategy to move) times ``reach`` (the
    state's expected visits against the optimal opponent).

    Every kind has ``game``, ``strategy`` (its name), ``loss``, ``reach``, ``win_rate`` (a
    :class:`WinRate` of the strategy against optimal play), ``total_expected_loss`` (one half
    minus that win rate), ``worst(top)`` and ``to_dict(top)``.  The kinds:
    :class:`~hogsolve.analysis.evaluate.HogRegret` and
    :class:`~hogsolve.analysis.pig.evaluate.PigRegret`.
    """

    if TYPE_CHECKING:  # what every kind has, as its own fields or properties
        @property
        def game(self) -> Any: ...

        strategy: str
        loss: np.ndarray
        reach: np.ndarray
        win_rate: WinRate

    @property
    def expected_loss(self) -> np.ndarray:
        """``loss * reach`` per state."""
        return self.loss * self.reach

    @property
    def total_expected_loss(self) -> float:
        """The sum of the expected losses: one half minus the win rate (performance difference)."""
        return float(self.expected_loss.sum())

    def columns(self) -> list:
        """The keys of :meth:`worst`'s rows, in the order a table shows them."""
        raise NotImplementedError

    def worst(self, top: int = 10) -> list:
        """The ``top`` states by expected loss, as dicts (keys: :meth:`columns`)."""
        raise NotImplementedError

    def to_dict(self, top: int = 10) -> dict:
        """The regret report as plain JSON values, with the ``top`` worst states."""
        return plain({"strategy": self.strategy, "win_rate_vs_optimal": self.win_rate,
                      "total_expected_loss": self.total_expected_loss, "worst_states": self.worst(top)})
