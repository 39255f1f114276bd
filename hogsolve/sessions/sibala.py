"""A person against the bank, round after round: the Sibala session behind the browser.

Each press of "roll" is one step: the banker's hand (re-rolled until it
scores; 12 or all of a kind win at once, 3 loses at once), then the
person's hand, which settles the unit bet.  Before the person rolls, the
session gives the exact chances of winning, pushing and losing against the
banker's hand, from the 1296 equally likely rolls.
"""
from __future__ import annotations

import random
from fractions import Fraction
from typing import Dict, List, Optional

from ..sibala.odds import ROLLS, banker_value, strength_distribution, versus
from ..sibala.rules import KATA, NO_POINT, Variant, evaluate
from ..sibala.state import BANKER, SibalaState, roll_index


def _fraction(x: Fraction) -> Dict[str, object]:
    return {"exact": f"{x.numerator}/{x.denominator}", "value": float(x)}


class SibalaSession:
    """Rounds of one unit bet against the banker with seeded dice."""

    family = "sibala"

    def __init__(self, seed: Optional[int] = None, variant: Variant = KATA):
        self.seed, self.variant = seed, variant
        self.rng = random.Random(seed)
        self.round: Optional[SibalaState] = None
        self.balance, self.rounds = 0, 0
        self.log: List[Dict[str, object]] = []

    @property
    def phase(self) -> str:
        """``"deal"`` (the banker rolls next), ``"player"`` (you roll next)."""
        return "player" if self.round is not None and not self.round.is_terminal() else "deal"

    def step(self) -> None:
        """The next roll: a new round's banker hand, or your hand against it."""
        if self.phase == "deal":
            self.round, self.rounds = SibalaState(self.variant), self.rounds + 1
        state = self.round
        assert state is not None  # a round was just dealt, or is under way
        seat = state.rolling
        while not state.is_terminal() and state.rolling == seat:  # re-roll a no-point hand
            dice = tuple(self.rng.randint(1, 6) for _ in range(4))
            state.apply_action(roll_index(dice))
            hand = evaluate(dice, self.variant)
            self.log.append({"round": self.rounds, "who": "banker" if seat == BANKER else "you",
                             "dice": list(dice), "hand": hand.describe(), "scores": hand.category != NO_POINT})
        if state.is_terminal() and state.result is not None:
            self.balance += state.result
            self.log.append({"round": self.rounds, "who": "result", "result": state.result,
                             "balance": self.balance})

    def odds(self) -> Optional[Dict[str, object]]:
        """Your exact chances against the banker's hand, before you roll (None otherwise)."""
        if self.phase != "player" or self.round is None or self.round.banker is None:
            return None
        banker = self.round.banker.strength(self.variant)
        chances = versus(strength_distribution(self.variant, reroll=True), {banker: Fraction(1)})
        return {"win": _fraction(chances.beats), "push": _fraction(chances.ties), "lose": _fraction(chances.loses)}

    def state(self) -> dict:
        """Everything the page draws, as JSON-ready values."""
        edge = banker_value(self.variant)
        return {"family": self.family, "rules": "sibala", "phase": self.phase, "rounds": self.rounds,
                "balance": self.balance, "log": self.log[-60:], "odds": self.odds(),
                "banker": list(self.round.banker.dice) if self.round and self.round.banker else None,
                "result": self.round.result if self.round is not None else None,
                "house_edge": _fraction(edge), "rolls": len(ROLLS)}
