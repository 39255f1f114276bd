"""Result types every game family shares, one type per job with one set of fields, so each
verb prints and serialises them once: :class:`WinRate`, :class:`BestResponse` and
:class:`Regret` (as every game's solution is a :class:`~hogsolve.solver.solution.Solution`).
What a table means is the game's to say (``state_axes``, ``decide``, ``choice_name``)."""
from __future__ import annotations

import dataclasses
from typing import Any

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


@dataclasses.dataclass(frozen=True, repr=False)
class BestResponse:
    """The strategy that wins most often against a fixed ``opponent``, for every game.

    ``policy``: the best responder's decision per state (the game's ``state_axes``);
    ``values``: its chance of winning, itself to move (Hog: per state; a roll-or-hold game: at
    the start of each turn, ``[score, opponent_score]``); ``win_rate``: a :class:`WinRate` of
    the best response against the opponent.  It plays as a strategy:
    ``best(score, opponent_score, ...)``.
    """

    game: Any
    opponent: str
    policy: np.ndarray
    values: np.ndarray
    win_rate: WinRate

    @property
    def name(self) -> str:
        """How the best response is shown."""
        return f"best response to {self.opponent}"

    def __call__(self, score: int, opponent_score: int, *rest: int) -> Any:
        """The best response's decision at a state (the game's own arguments after the scores)."""
        return self.game.decide(self.policy, score, opponent_score, *rest)

    @property
    def uses_history(self) -> bool:
        """True when the policy depends on the players' memories (Feral Hogs)."""
        return bool(self.game.context_shape)

    @property
    def opening_move(self) -> int:
        """The best response's first move (the game's own measure: dice, or the turn total to hold at)."""
        return int(self.game.opening_move(self.policy))

    @property
    def exploitability(self) -> float:
        """How far the best response's win rate exceeds one half."""
        return self.win_rate.average - 0.5

    def to_dict(self) -> dict:
        """The best response's figures as plain JSON values (no tables)."""
        return plain({"opponent": self.opponent, "win_rate": self.win_rate,
                      "exploitability": self.exploitability, "opening_move": self.opening_move})

    def __repr__(self) -> str:
        return (f"BestResponse(to {self.opponent}: win rate {self.win_rate.average:.12f}, "
                f"exploitability {self.exploitability:.12f})")


@dataclasses.dataclass(frozen=True, repr=False)
class Regret:
    """Where a strategy loses against optimal play, for every game: ``loss`` (the win
    probability its choice gives up in each state, the strategy to move) times ``reach`` (the
    state's expected visits against the optimal opponent, both seatings averaged).

    Arrays follow the game's ``state_axes``: ``policy`` (the strategy's decisions),
    ``optimal_policy``, ``loss`` and ``reach``; ``win_rate`` is a :class:`WinRate` of the
    strategy against optimal play, and ``total_expected_loss`` equals one half minus its
    average (the performance-difference identity).
    """

    game: Any
    strategy: str
    policy: np.ndarray
    optimal_policy: np.ndarray
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
        return [*self.game.state_axes, "choice", "optimal", "loss", "reach", "expected_loss"]

    def worst(self, top: int = 10) -> list:
        """The ``top`` states by expected loss, as dicts (keys: :meth:`columns`)."""
        expected = self.expected_loss
        axes = self.game.state_axes
        out = []
        for index in np.argsort(-expected, axis=None, kind="stable")[:top]:
            where = tuple(int(i) for i in np.unravel_index(int(index), expected.shape))
            if expected[where] <= 0:
                break
            out.append({**dict(zip(axes, where)), "choice": self.game.choice_name(self.policy[where]),
                        "optimal": self.game.choice_name(self.optimal_policy[where]),
                        "loss": float(self.loss[where]), "reach": float(self.reach[where]),
                        "expected_loss": float(expected[where])})
        return out

    def to_dict(self, top: int = 10) -> dict:
        """The regret report as plain JSON values, with the ``top`` worst states."""
        return plain({"strategy": self.strategy, "win_rate_vs_optimal": self.win_rate,
                      "total_expected_loss": self.total_expected_loss, "worst_states": self.worst(top)})

    def __repr__(self) -> str:
        return (f"Regret({self.strategy}: win rate {self.win_rate.average:.12f} against optimal, "
                f"total expected loss {self.total_expected_loss:.12f})")
