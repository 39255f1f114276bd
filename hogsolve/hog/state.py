"""Hog as a :class:`~hogsolve.games.interface.GameState`: any ruleset, turn by turn.

The player to move picks a dice count (an action); rolling one or more dice
is then a chance node whose outcomes are the turn's points, with the exact
probabilities of :func:`~hogsolve.hog.turn.points_counts` (Hog Wild's
sides, Pig Out's rule and the turn-score rule included).  Zero dice score
Free Bacon at once.  The rest of the turn (Piggy Back, Feral Hogs, bonuses,
swaps, extra turns, the goal) is the engine's :class:`~hogsolve.hog.engine.Match`.
"""
from __future__ import annotations

import copy
import functools
from fractions import Fraction
from typing import Any, Dict, List, Optional, Tuple

from ..games.interface import CHANCE, TERMINAL, ChanceTable, WinnerTakesAll
from ..util.words import plural
from .engine import Match
from .rules import Ruleset, points_counts
from ..errors import InputError


@functools.lru_cache(maxsize=1024)
def _roll(rules: Ruleset, num_dice: int, sides: int) -> ChanceTable:
    """The exact outcomes of rolling ``num_dice`` dice of ``sides`` sides, worked out once."""
    total = sides ** num_dice
    return ChanceTable([(points, Fraction(count, total))
                        for points, count in sorted(points_counts(rules, num_dice, sides).items())])


class HogState(WinnerTakesAll):
    """A Hog game in progress (see the module docstring)."""

    def __init__(self, rules: Ruleset, score0: int = 0, score1: int = 0, first: int = 0):
        self.rules = rules
        self.match = Match(rules, score0, score1, first)
        self.rolling: Optional[int] = None  # dice chosen, waiting for the roll

    @property
    def current_player(self) -> int:
        """0 or 1 to choose dice, CHANCE while the dice roll, TERMINAL at the end."""
        if self.match.winner is not None:
            return TERMINAL
        return CHANCE if self.rolling is not None else self.match.mover

    def legal_actions(self) -> List[int]:
        """Dice counts from the ruleset's least (0, or 1 without Free Bacon) to its most."""
        if self.current_player < 0:
            return []
        return list(range(int(self.rules.min_dice), int(self.rules.max_dice) + 1))

    def is_chance_node(self) -> bool:
        """True while chosen dice wait to be rolled."""
        return self.current_player == CHANCE

    def chance_outcomes(self) -> List[Tuple[int, Fraction]]:
        """``[(points, probability), ...]`` of rolling the chosen dice here."""
        return list(self.chance_table().outcomes) if self.is_chance_node() else []

    def chance_table(self) -> ChanceTable:
        """This chance node's outcomes, worked out once per ruleset, dice count and die."""
        return _roll(self.rules, self.rolling, int(self.rules.dice_sides(*self.match.state())))

    def apply_action(self, action: int) -> None:
        """Choose a dice count, or (at a chance node) the points the dice scored; a finished
        turn joins ``self.match.turns``."""
        action = int(action)
        if self.is_terminal():
            raise InputError("the game is over")
        if self.is_chance_node():
            if action not in self.chance_table().possible:
                raise InputError(f"{self.rolling} dice cannot score {action} points here")
            num_dice, self.rolling = self.rolling, None
            self.match.move_scoring(num_dice, action)
            return
        if action not in self.legal_actions():
            raise InputError(f"{action} is not a legal dice count (choose from {self.legal_actions()})")
        if action == 0:
            self.match.move(0, lambda sides: 0)  # Free Bacon: no die is rolled
        else:
            self.rolling = action

    def observation(self, seat: int) -> Dict[str, Any]:
        """Scores from ``seat``'s side, whose move it is, the dice being rolled, and (under
        Feral Hogs) both players' memories of their last turn."""
        seen: Dict[str, Any] = {"score": self.match.scores[seat], "opponent_score": self.match.scores[1 - seat],
                                "to_move": self.current_player == seat, "rolling": self.rolling or 0}
        if self.rules.history is not None:
            seen["memory"] = self.match.remembered[seat]
            seen["opponent_memory"] = self.match.remembered[1 - seat]
        return seen

    def clone(self) -> "HogState":
        """An independent copy (the turn log is shared, never changed in place)."""
        other = copy.copy(self)
        other.match = copy.copy(self.match)
        other.match.scores = list(self.match.scores)
        other.match.remembered = list(self.match.remembered)
        other.match.turns = list(self.match.turns)
        return other

    def action_to_string(self, action: int) -> str:
        """``roll 4 dice``, ``roll 0 dice (Free Bacon)``, or at a chance node ``9 points``."""
        if self.is_chance_node():
            return f"{action} points"
        return f"roll {plural(action, 'die')}" + (" (Free Bacon)" if action == 0 else "")

    def __str__(self) -> str:
        scores = f"{self.match.scores[0]}-{self.match.scores[1]}"
        if self.is_terminal():
            return f"{self.rules.name}: {scores}, player {self.match.winner} won"
        rolling = f", rolling {self.rolling} dice" if self.rolling is not None else ""
        # everything the state holds: under a history rule each player's memory of their last turn too,
        # so that two states print alike only when they are one state (tabular algorithms key on this)
        memories = (f", memories {self.match.remembered[0]} and {self.match.remembered[1]}"
                    if self.rules.history is not None else "")
        return f"{self.rules.name}: {scores}, player {self.match.mover} to move{rolling}{memories}"


def new_state(rules: Ruleset, *, first: int = 0) -> HogState:
    """A game of ``rules`` at its start (both scores 0), player ``first`` to move."""
    return HogState(rules, 0, 0, first)
