"""The state interface every game implements: OpenSpiel's idea in our terms.

A game is a tree of states.  At a decision state ``current_player`` (0 or
1) picks one of ``legal_actions()``; at a chance node the next state is
drawn from ``chance_outcomes()``, exact probabilities as
:class:`fractions.Fraction`; at a terminal state ``returns()`` gives each
player's payoff.  Actions and chance outcomes are whole numbers, so any
adapter (OpenSpiel, Gymnasium, PettingZoo, the web's sessions) is written
once against this interface, not once per game.
"""
from __future__ import annotations

import bisect
import itertools
import math
import random
from fractions import Fraction
from typing import Any, Dict, List, Protocol, Sequence, Tuple, runtime_checkable
from ..errors import InputError, StateError

#: ``current_player`` at a chance node and at a terminal state (OpenSpiel's numbers).
CHANCE = -1
TERMINAL = -4


@runtime_checkable
class GameState(Protocol):
    """One state of a two-player game with explicit chance nodes."""

    @property
    def current_player(self) -> int:
        """0 or 1 to decide, :data:`CHANCE` at a chance node, :data:`TERMINAL` at the end."""

    def legal_actions(self) -> List[int]:
        """The actions open to the player to move (empty at chance and terminal states)."""

    def is_chance_node(self) -> bool:
        """True when the next step is drawn by chance."""

    def chance_outcomes(self) -> List[Tuple[int, Fraction]]:
        """``[(outcome, probability), ...]`` at a chance node, exact, summing to 1."""

    def apply_action(self, action: int) -> None:
        """Take a legal action, or the drawn outcome at a chance node (changes the state)."""

    def is_terminal(self) -> bool:
        """True once the game is over."""

    def returns(self) -> List[float]:
        """Each player's payoff: +1 for the winner, -1 for the loser, 0 before the end or on a push."""

    def observation(self, seat: int) -> Dict[str, Any]:
        """What the player in ``seat`` sees, as plain values."""

    def clone(self) -> "GameState":
        """An independent copy."""

    def action_to_string(self, action: int) -> str:
        """The action (or chance outcome) in words."""


class WinnerTakesAll:
    """``is_terminal()`` and ``returns()`` of a two-player race whose ``self.match.winner`` is
    0, 1, or None while it goes on (Hog, the Pig family)."""

    match: Any  # the game's engine (a Hog Match or a PigMatch), set by the state

    def is_terminal(self) -> bool:
        """True once somebody won."""
        return self.match.winner is not None

    def returns(self) -> List[float]:
        """+1 to the winner and -1 to the loser at the end; zeros before."""
        winner = self.match.winner
        if winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]


class ChanceTable:
    """One chance node's outcomes, worked out once for exact draws: the outcomes with their
    exact probabilities, their common denominator and the cumulative integer weights (one
    uniform integer below the denominator picks an outcome)."""

    def __init__(self, outcomes: Sequence[Tuple[int, Fraction]]):
        self.outcomes = list(outcomes)
        self.denominator = math.lcm(*(p.denominator for _, p in self.outcomes))
        self.cumulative = list(itertools.accumulate(p.numerator * (self.denominator // p.denominator)
                                                    for _, p in self.outcomes))
        if self.cumulative[-1] != self.denominator:
            raise InputError("chance outcomes do not sum to 1")
        self.possible = frozenset(outcome for outcome, _ in self.outcomes)

    def draw(self, rng: random.Random) -> int:
        """One outcome drawn exactly by its probability (one integer draw)."""
        return self.outcomes[bisect.bisect_right(self.cumulative, rng.randrange(self.denominator))][0]


def sample_outcome(outcomes: Sequence[Tuple[int, Fraction]], rng: random.Random) -> int:
    """One chance outcome of a list drawn exactly by its probability."""
    return ChanceTable(outcomes).draw(rng)


def draw_chance(state: GameState, rng: random.Random) -> int:
    """One chance outcome of ``state`` by its exact probability: from the state's cached
    :class:`ChanceTable` when it has one (``chance_table()``), else from its outcome list."""
    table = getattr(state, "chance_table", None)
    return table().draw(rng) if table is not None else sample_outcome(state.chance_outcomes(), rng)


def random_step(state: GameState, rng: random.Random) -> int:
    """Apply a random legal action, or a chance outcome by its probability; returns it."""
    if state.is_chance_node():
        action = draw_chance(state, rng)
    else:
        action = rng.choice(state.legal_actions())
    state.apply_action(action)
    return action


def random_playout(state: GameState, rng: random.Random, max_steps: int = 100_000) -> GameState:
    """Play ``state`` to the end with random actions and chance (changes it); returns it."""
    for _ in range(max_steps):
        if state.is_terminal():
            return state
        random_step(state, rng)
    raise StateError(f"no end after {max_steps} steps")
