"""What an agent sees and where its answers go: the decision states as observation rows.

An observation is one seat's view as whole numbers in a fixed order: Hog
``[score, opponent_score]``, plus ``[memory, opponent_memory]`` under Feral
Hogs (each capped where larger values play alike, as the tables index them);
the roll-or-hold games ``[score, opponent_score, turn_total]``.  Actions are
Hog's dice counts (0 to max dice) and roll (0) / hold (1).  The environments
of :mod:`hogsolve.interop` show these vectors, and a tabulated agent's
answers fill the tables hogsolve's analyses take.
"""
from __future__ import annotations

from typing import Tuple, Union

import numpy as np

from ..hog.rules import Ruleset
from ..pig.rules import PigGame
from .agent_calls import AgentError

Game = Union[Ruleset, PigGame]


def is_hog(game: Game) -> bool:
    """True for a Hog ruleset, False for a roll-or-hold game."""
    return not isinstance(game, PigGame)


def num_actions(game: Game) -> int:
    """Dice counts 0..max dice, or roll and hold."""
    return int(game.max_dice) + 1 if is_hog(game) else 2


def highs(game: Game) -> np.ndarray:
    """The largest value of each observation entry."""
    g = int(game.goal)
    if is_hog(game):
        return np.array([g, g] + [size - 1 for size in game.context_shape], dtype=np.int64)
    return np.array([g, g, 2 * g], dtype=np.int64)


def decision_rows(game: Game) -> Tuple[np.ndarray, Tuple[np.ndarray, ...]]:
    """Every decision state's observation (rows, int64) and its table index (one array per axis).
    In the roll-or-hold games, states where holding already wins are left out."""
    g = int(game.goal)
    shape = (g, g) + tuple(game.context_shape) if is_hog(game) else (g, g, g)
    index = np.indices(shape).reshape(len(shape), -1)
    if not is_hog(game):
        index = index[:, index[0] + index[2] < g]
    return np.ascontiguousarray(index.T, dtype=np.int64), tuple(index)


def table_of(game: Game, actions: np.ndarray, index: Tuple[np.ndarray, ...]) -> np.ndarray:
    """The table of an agent's actions at :func:`decision_rows`: Hog's dice counts
    ``(goal, goal[, H, H])`` int8, or a roll-or-hold game's ``roll[i, j, k]`` (True to roll;
    the first roll of a turn is compulsory).  AgentError if a Hog agent rolls too few dice."""
    g = int(game.goal)
    if is_hog(game):
        table = np.zeros((g, g) + tuple(game.context_shape), dtype=np.int8)
        table[index] = actions
        least = int(game.min_dice)
        if (table < least).any():
            raise AgentError(f"chose fewer than {least} dice, which {game.name} forbids")
        return table
    roll = np.zeros((g, g, g), dtype=bool)
    roll[index] = actions == 0
    roll[:, :, 0] = True
    return roll
