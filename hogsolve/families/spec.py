"""A game of one family ready for the adapters and the lanes: its family, its rules and the
shapes of its observations (plain data, so the states that hold it pickle)."""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Tuple

import numpy as np

from ..games.interface import GameState
from ..strategy import observations

if TYPE_CHECKING:
    from .base import GameFamily


@dataclasses.dataclass(frozen=True)
class GameSpec:
    """A game ready for an adapter: its family, its rules and its vector shapes (plain data, so
    the states that hold it pickle); :func:`hogsolve.families.game_spec` makes one from a name."""

    family: "GameFamily"
    rules: Any  # a rules object of the family

    @property
    def goal(self) -> int:
        """The goal score."""
        return int(self.rules.goal)

    @property
    def num_actions(self) -> int:
        """Dice counts 0..max dice, or roll and hold."""
        return self.rules.num_actions

    @property
    def memories(self) -> bool:
        """True when the observation carries Feral Hogs' memories."""
        return bool(self.rules.context_shape)

    @property
    def highs(self) -> np.ndarray:
        """The largest value of each observation entry."""
        return self.rules.observation_high()

    def new_state(self, first: int = 0) -> GameState:
        """A fresh game state, ``first`` to move."""
        return self.family.new_state(self.rules, first=first)

    def observe(self, state: GameState, seat: int) -> np.ndarray:
        """What ``seat`` sees, as the observation vector."""
        values = self.rules.observation_vector(state.observation(seat))
        return np.minimum(np.array(values, dtype=np.int64), self.highs)

    def legal(self, state: GameState) -> np.ndarray:
        """The action mask of the player to move (int8, 1 where legal)."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        mask[state.legal_actions()] = 1
        return mask

    def decision_states(self) -> Tuple[np.ndarray, Tuple[np.ndarray, ...]]:
        """Every decision state's observation (rows) and its table index (arrays per axis)."""
        return observations.decision_rows(self.rules)
