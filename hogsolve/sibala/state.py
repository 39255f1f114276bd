"""One round of Sibala against the bank as a :class:`~hogsolve.games.interface.GameState`.

Seat 0 is the banker, seat 1 the player; there are no decisions, every
step is a roll of four dice (a chance outcome: the index of the roll among
the 1296 equally likely ones).  The banker rolls until the hand scores; 12
or all of a kind win at once, 3 loses at once; otherwise the player rolls
until the hand scores, and the higher hand wins the unit bet (a tie pushes).
"""
from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any, Dict, List, Optional, Tuple

from ..games.interface import CHANCE, TERMINAL
from .odds import ROLLS, banker_instant
from .rules import KATA, NO_POINT, Hand, Variant, evaluate
from ..errors import InputError

BANKER, PLAYER = 0, 1
_EACH = Fraction(1, len(ROLLS))


def settle(banker: Hand, player: Optional[Hand], variant: Variant) -> int:
    """+1 the player wins the unit bet, -1 the banker does, 0 a push (``player`` None: the
    banker's roll decided at once)."""
    if player is None:
        return -banker_instant(banker.strength(variant))
    a, b = player.strength(variant), banker.strength(variant)
    return (a > b) - (a < b)


def roll_index(dice) -> int:
    """The index in :data:`hogsolve.sibala.odds.ROLLS` of four dice in the order rolled."""
    index = 0
    for die in dice:
        index = index * 6 + int(die) - 1
    return index


class SibalaState:
    """A round in progress: the scoring hands so far, every roll, and the result once settled."""

    def __init__(self, variant: Variant = KATA):
        self.variant = variant
        self.banker: Optional[Hand] = None
        self.player: Optional[Hand] = None
        self.rolls: List[Tuple[int, Tuple[int, ...]]] = []  # (seat, dice), every roll in order
        self.result: Optional[int] = None  # settle()'s value once the round is over

    @property
    def rolling(self) -> int:
        """The seat whose hand is being rolled."""
        return BANKER if self.banker is None else PLAYER

    @property
    def current_player(self) -> int:
        """CHANCE until the round is settled, then TERMINAL (nobody decides anything)."""
        return TERMINAL if self.result is not None else CHANCE

    def legal_actions(self) -> List[int]:
        """No decisions in Sibala: always empty."""
        return []

    def is_chance_node(self) -> bool:
        """True until the round is settled."""
        return self.result is None

    def chance_outcomes(self) -> List[Tuple[int, Fraction]]:
        """Each of the 1296 rolls of four dice, equally likely."""
        return [(i, _EACH) for i in range(len(ROLLS))] if self.is_chance_node() else []

    def apply_action(self, action: int) -> None:
        """The roll with index ``action`` (into :data:`hogsolve.sibala.odds.ROLLS`)."""
        if not self.is_chance_node():
            raise InputError("the round is over")
        if not 0 <= int(action) < len(ROLLS):
            raise InputError(f"no roll {action}")
        dice = ROLLS[int(action)]
        seat = self.rolling
        self.rolls.append((seat, dice))
        hand = evaluate(dice, self.variant)
        if hand.category == NO_POINT:
            return  # no point: the same side rolls again
        if seat == BANKER:
            self.banker = hand
            if banker_instant(hand.strength(self.variant)):
                self.result = settle(hand, None, self.variant)
        else:
            self.player = hand
            assert self.banker is not None  # the banker rolls first
            self.result = settle(self.banker, hand, self.variant)

    def is_terminal(self) -> bool:
        """True once the round is settled."""
        return self.result is not None

    def returns(self) -> List[float]:
        """The banker's and the player's gain in units (zeros before the end and on a push)."""
        if self.result is None:
            return [0.0, 0.0]
        return [float(-self.result), float(self.result)]

    def observation(self, seat: int) -> Dict[str, Any]:
        """Everything is public: both hands so far, every roll, and ``seat``'s gain once settled."""
        return {"seat": seat, "banker": self.banker.dice if self.banker else None,
                "player": self.player.dice if self.player else None,
                "rolls": [list(dice) for _, dice in self.rolls],
                "gain": self.returns()[seat] if self.result is not None else None}

    def clone(self) -> "SibalaState":
        """An independent copy."""
        other = copy.copy(self)
        other.rolls = list(self.rolls)
        return other

    def action_to_string(self, action: int) -> str:
        """The roll's dice, e.g. ``roll 3 3 5 6``."""
        return "roll " + " ".join(str(d) for d in ROLLS[int(action)])

    def __str__(self) -> str:
        banker = self.banker.describe() if self.banker else "-"
        player = self.player.describe() if self.player else "-"
        end = f", player gains {self.result:+d}" if self.result is not None else ""
        return f"Sibala: banker {banker}, player {player}{end}"
