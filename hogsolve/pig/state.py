"""A roll-or-hold game as a :class:`~hogsolve.games.interface.GameState`.

Actions are :data:`ROLL` (0) and :data:`HOLD` (1), as in OpenSpiel's Pig;
holding needs a positive turn total.  A roll is a chance node over the
game's exact roll outcomes.  A roll that brings score plus turn total to the
goal wins at once (:data:`hogsolve.pig.rules.GOAL_RULE`, applied by the
engine: every state has ``score + turn total < goal``, as the solver's).
"""
from __future__ import annotations

import copy
import functools
from fractions import Fraction
from typing import Any, Dict, List, Tuple

from ..games.interface import CHANCE, TERMINAL, ChanceTable, WinnerTakesAll
from .engine import PigMatch
from .rules import PigGame
from ..errors import InputError

ROLL, HOLD = 0, 1


@functools.lru_cache(maxsize=64)
def _outcomes(game: PigGame) -> list:
    return sorted(game.outcomes().items())


@functools.lru_cache(maxsize=64)
def _roll(game: PigGame) -> ChanceTable:
    return ChanceTable([(i, p) for i, (_, p) in enumerate(_outcomes(game))])


class PigState(WinnerTakesAll):
    """A roll-or-hold game in progress (see the module docstring)."""

    def __init__(self, game: PigGame, first: int = 0, keep_log: bool = True):
        self.game = game
        self.match = PigMatch(game, first, keep_log)
        self.rolling = False
        self.outcomes = _outcomes(game)  # [((kind, amount), probability)], fixed order

    @property
    def current_player(self) -> int:
        """0 or 1 to roll or hold, CHANCE while the dice roll, TERMINAL at the end."""
        if self.match.winner is not None:
            return TERMINAL
        return CHANCE if self.rolling else self.match.mover

    def legal_actions(self) -> List[int]:
        """Roll always; hold once the turn total is positive."""
        if self.current_player < 0:
            return []
        return [ROLL, HOLD] if self.match.turn_total > 0 else [ROLL]

    def is_chance_node(self) -> bool:
        """True while a roll is in the air."""
        return self.current_player == CHANCE

    def chance_outcomes(self) -> List[Tuple[int, Fraction]]:
        """``[(index into self.outcomes, probability), ...]`` of one roll."""
        return list(self.chance_table().outcomes) if self.is_chance_node() else []

    def chance_table(self) -> ChanceTable:
        """One roll's outcomes, worked out once per game."""
        return _roll(self.game)

    def apply_action(self, action: int) -> None:
        """Roll or hold; at a chance node, the index of the roll's outcome."""
        action = int(action)
        if self.is_terminal():
            raise InputError("the game is over")
        if self.is_chance_node():
            if not 0 <= action < len(self.outcomes):
                raise InputError(f"no roll outcome {action}")
            self.rolling = False
            kind, amount = self.outcomes[action][0]
            self.match.apply_outcome(kind, amount)
            return
        if action not in self.legal_actions():
            raise InputError(f"{self.action_to_string(action)} is not legal here (turn total {self.match.turn_total})")
        if action == HOLD:
            self.match.hold()
        else:
            self.rolling = True

    def observation(self, seat: int) -> Dict[str, Any]:
        """Banked scores from ``seat``'s side, the turn total, and whose move it is."""
        return {"score": self.match.scores[seat], "opponent_score": self.match.scores[1 - seat],
                "turn_total": self.match.turn_total, "to_move": self.current_player == seat}

    def clone(self) -> "PigState":
        """An independent copy."""
        other = copy.copy(self)
        other.match = copy.copy(self.match)
        other.match.scores = list(self.match.scores)
        other.match.log = list(self.match.log)
        return other

    def action_to_string(self, action: int) -> str:
        """``roll`` / ``hold``, or at a chance node the outcome, e.g. ``add 5`` or ``bust``."""
        if self.is_chance_node():
            kind, amount = self.outcomes[action][0]
            return f"add {amount}" if kind == "add" else kind
        return {ROLL: "roll", HOLD: "hold"}.get(action, f"action {action}")

    def __str__(self) -> str:
        a, b = self.match.scores
        if self.is_terminal():
            return f"{self.game.name}: {a}-{b}, player {self.match.winner} won"
        rolling = ", rolling" if self.rolling else ""
        total = self.match.turn_total
        return f"{self.game.name}: {a}-{b}, player {self.match.mover} to move, turn total {total}{rolling}"


def new_state(game: PigGame, *, first: int = 0) -> PigState:
    """A game of ``game`` at its start, player ``first`` to move."""
    return PigState(game, first)
