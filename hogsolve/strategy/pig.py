"""Roll-or-hold strategies: hold at a turn total, and any strategy as a validated roll table."""
from __future__ import annotations

from typing import Callable
import numpy as np

from ..pig.rules import PigGame


def hold_at(threshold: int) -> Callable[[int, int, int], bool]:
    """Roll until the turn total reaches ``threshold``, then hold (even past the goal)."""
    def strategy(score: int, opponent_score: int, turn_total: int) -> bool:
        return turn_total < threshold
    strategy.name = f"hold_at:{threshold}"
    strategy.table = lambda i, j, k, goal: k < threshold
    return strategy


def hold_at_or_goal(threshold: int, goal: int) -> Callable[[int, int, int], bool]:
    """As :func:`hold_at`, and also hold as soon as holding wins (score + turn total >= goal)."""
    def strategy(score: int, opponent_score: int, turn_total: int) -> bool:
        return turn_total < threshold and score + turn_total < goal
    strategy.name = f"hold_at_or_goal:{threshold}"
    strategy.table = lambda i, j, k, _goal: (k < threshold) & (i + k < goal)
    return strategy


def policy_table(strategy, game: PigGame) -> np.ndarray:
    """``roll[i, j, k]`` for turn totals k below twice the goal (beyond that a player holds,
    which wins), from a table-backed strategy (a solution or best response, with ``roll``
    and ``game``), a named strategy or any callable returning True to roll, validated."""
    g = game.goal
    i, j, k = np.meshgrid(np.arange(g), np.arange(g), np.arange(2 * g), indexing="ij")
    if isinstance(getattr(strategy, "roll", None), np.ndarray):  # a solution or best response: its roll table
        if strategy.game != game:
            raise ValueError(f"the solution is for {strategy.game.name} at goal {strategy.game.goal}")
        table = np.zeros((g, g, 2 * g), dtype=bool)
        table[:, :, :g] = strategy.roll & (i[:, :, :g] + k[:, :, :g] < g)
        table[:, :, 0] = True  # the first roll of a turn is compulsory
        return table
    if hasattr(strategy, "table"):
        return np.asarray(strategy.table(i, j, k, g), dtype=bool)
    table = np.zeros((g, g, 2 * g), dtype=bool)
    for a in range(g):
        for b in range(g):
            for c in range(2 * g):
                choice = strategy(a, b, c)
                if not isinstance(choice, (bool, np.bool_)):
                    raise ValueError(f"strategy {getattr(strategy, 'name', strategy)} returned {choice!r} at "
                                     f"({a}, {b}, {c}); expected True (roll) or False (hold)")
                table[a, b, c] = choice
    return table
