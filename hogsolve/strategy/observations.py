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

from ..hog.rules import Ruleset, StrategyError
from ..pig.rules import PigGame
from .agent_calls import AgentError

Game = Union[Ruleset, PigGame]


def num_actions(game: Game) -> int:
    """Dice counts 0..max dice, or roll and hold (the game's own ``num_actions``)."""
    return game.num_actions


def highs(game: Game) -> np.ndarray:
    """The largest value of each observation entry (the game's ``observation_high()``)."""
    return game.observation_high()


def decision_rows(game: Game) -> Tuple[np.ndarray, Tuple[np.ndarray, ...]]:
    """Every decision state's observation (rows, int64) and its table index (one array per axis).
    In the roll-or-hold games, states where holding already wins are left out."""
    index = game.decision_index()
    return np.ascontiguousarray(np.stack(index, axis=1), dtype=np.int64), index


def table_of(game: Game, actions: np.ndarray, index: Tuple[np.ndarray, ...]) -> np.ndarray:
    """The table of an agent's actions at :func:`decision_rows`: Hog's dice counts
    ``(goal, goal[, H, H])`` int8, or a roll-or-hold game's ``roll[i, j, k]`` (True to roll;
    the first roll of a turn is compulsory).  AgentError if a Hog agent rolls too few dice."""
    try:
        return game.table_of(actions, index)
    except StrategyError as error:
        raise AgentError(str(error)) from None
