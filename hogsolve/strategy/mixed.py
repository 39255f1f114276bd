"""A strategy that gives action probabilities: a mixture, evaluated exactly as one.

A :class:`Mixture` holds, for every decision state of one game, the probability of each
action (``probabilities[..., a]``, the game's decision table shape plus the actions), so a
stochastic agent has one exact win rate: the expectation over its choices, computed by the
same backups as a fixed strategy's (:func:`hogsolve.analysis.evaluate.win_rate` for Hog,
:func:`hogsolve.analysis.pig.evaluate.pig_win_rate` for the roll-or-hold games).  A mixture
whose every row puts all its mass on one action is that fixed strategy
(:meth:`Mixture.fixed`), so nothing is lost by giving probabilities.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Optional, Tuple

import numpy as np

from ..errors import InputError

#: How far a row of probabilities may sum from 1 (float rounding of a softmax); farther is a mistake.
SUM_TOLERANCE = 1e-6


def check_probabilities(probabilities: Any, num_actions: int, where: Any = None) -> np.ndarray:
    """``probabilities`` (rows of ``num_actions`` numbers) as float64 rows summing to 1 (each row
    divided by its sum, which must lie within :data:`SUM_TOLERANCE` of 1); InputError names the
    first bad row (``where[row]`` says which state it is)."""
    array = np.asarray(probabilities)
    if array.dtype.kind not in "iuf" or array.ndim != 2 or array.shape[1] != num_actions:
        raise InputError(f"action probabilities must be rows of {num_actions} numbers, got an array of "
                         f"shape {array.shape} and kind {array.dtype}")
    array = array.astype(np.float64)
    sums = array.sum(axis=1)
    bad = ~np.isfinite(array).all(axis=1) | (array < 0).any(axis=1) | (np.abs(sums - 1.0) > SUM_TOLERANCE)
    if bad.any():
        at = int(np.flatnonzero(bad)[0])
        state = f" at the observation {list(where[at])}" if where is not None else ""
        raise InputError(f"gave the probabilities {array[at].tolist()}{state}: each must be at least 0 and "
                         "together they must sum to 1")
    return array / sums[:, None]


@dataclasses.dataclass(frozen=True, eq=False)
class Mixture:
    """Action probabilities at every decision state of ``game``: ``probabilities`` has the
    game's decision table shape plus one axis of actions (Hog: ``[score, opponent_score(,
    memories), dice]``; a roll-or-hold game: ``[score, opponent_score, turn_total, (roll,
    hold)]``); each row sums to 1, illegal actions have none."""

    game: Any
    probabilities: np.ndarray
    name: str = "mixture"

    @classmethod
    def of(cls, game: Any, probabilities: Any, index: Tuple[np.ndarray, ...], name: str = "mixture",
           where: Any = None) -> "Mixture":
        """The mixture with ``probabilities[r]`` at decision state ``index[.][r]`` (rows as from
        :func:`hogsolve.strategy.observations.decision_rows`), checked."""
        rows = check_probabilities(probabilities, game.num_actions, where)
        table = np.zeros(game.decision_table_shape + (game.num_actions,))
        table[index] = rows
        least = getattr(game, "min_dice", 0)
        if least and (table[..., :least] > 0).any():
            at = int(np.flatnonzero((rows[:, :least] > 0).any(axis=1))[0])
            raise InputError(f"gives fewer than {least} dice a chance at the observation "
                             f"{list(where[at]) if where is not None else at}, which {game.name} forbids")
        return cls(game, game.settled_mixture(table), name)

    @classmethod
    def table(cls, game: Any, probabilities: Any, name: str = "mixture") -> "Mixture":
        """The mixture of a whole table ``probabilities[..., action]`` (the game's decision table
        shape plus its actions), checked as :meth:`of` checks rows."""
        array = np.asarray(probabilities)
        shape = game.decision_table_shape + (game.num_actions,)
        if array.shape != shape:
            raise InputError(f"a table of action probabilities for {game.name} at goal {game.goal} has the shape "
                             f"{shape}, not {array.shape}")
        index = tuple(np.indices(shape[:-1]).reshape(len(shape) - 1, -1))
        where = np.stack(index, axis=1)
        return cls.of(game, array.reshape(-1, shape[-1]), index, name, where)

    @staticmethod
    def is_table(game: Any, strategy: Any) -> bool:
        """True for an array shaped as a table of action probabilities for ``game``."""
        return isinstance(strategy, np.ndarray) and \
            strategy.shape == game.decision_table_shape + (game.num_actions,)

    def fixed(self) -> Optional[np.ndarray]:
        """The fixed strategy's table when every row is one action for sure, else None."""
        sure = self.probabilities.max(axis=-1)
        if not (sure == 1.0).all():
            return None
        return self.game.table_of(self.probabilities.argmax(axis=-1).reshape(-1),
                                  tuple(np.indices(self.probabilities.shape[:-1]).reshape(
                                      self.probabilities.ndim - 1, -1)))

    def not_fixed(self) -> InputError:
        """The one line of a job that takes a fixed strategy (regret, the lab, a tournament)."""
        return InputError(f"{self.name} gives action probabilities, and this takes a fixed strategy; "
                          "a mixture's exact win rate and best response come from win_rate, compare, "
                          "best-response and evaluate_agent")

    def __call__(self, *state: int) -> Any:
        """Refused: a mixture has no one move (its probabilities are in ``probabilities``)."""
        raise self.not_fixed()
