"""Two people against each other: a Hog or roll-or-hold game between seats 0 and 1.

The match, seeded dice and the log live here; who may act for a seat is the
caller's business (the browser's seat tokens).  Either seat may ask for the
optimal move on its turn when the caller passes a hint function.
"""
from __future__ import annotations

import random
from typing import Any, Dict, List, Optional

from ..hog.engine import Match, random_dice
from ..hog.rules import Ruleset
from ..pig.engine import PigMatch, roll_faces
from ..pig.rules import PigGame
from .hog import SessionError


class Duel:
    """What both duels share: whose move it is over ``self.match``, the winner, the turn check."""

    match: Any  # the duel's engine (a Hog Match or a PigMatch)

    @property
    def to_move(self) -> Optional[int]:
        """The seat to move, None once the game is over."""
        return None if self.match.winner is not None else self.match.mover

    @property
    def winner(self) -> Optional[int]:
        """The winning seat, None while the game goes on."""
        return self.match.winner

    def _check_turn(self, seat: int) -> None:
        if self.winner is not None:
            raise SessionError("the game is over")
        if seat != self.to_move:
            raise SessionError("it is not your turn")


class HogDuel(Duel):
    """A Hog game between two people (seat 0 moves first unless ``first`` says otherwise)."""

    def __init__(self, rules: Ruleset, seed: Optional[int] = None, first: int = 0):
        self.rules, self.seed = rules, seed
        self.roll = random_dice(seed)
        self.match = Match(rules, first=first)
        self.log: List[Dict[str, object]] = []

    def move(self, seat: int, move) -> None:
        """Seat ``seat`` rolls ``move`` dice (a whole number the rules allow)."""
        self._check_turn(seat)
        least, most = self.rules.min_dice, self.rules.max_dice
        if isinstance(move, bool) or not isinstance(move, int) or not least <= move <= most:
            raise SessionError(f"dice must be a whole number from {least} to {most}, got {move!r}")
        turn = self.match.move(move, self.roll)
        self.log.append({**turn.to_dict(), "seat": seat, "scores": list(self.match.scores)})

    def where(self) -> tuple:
        """The optimal tables' index of the current state (mover first, memories under Feral Hogs)."""
        return self.match.state() + self.rules.context_index(self.match.context())

    def state(self) -> dict:
        """Everything a page draws, as JSON-ready values (seats by number)."""
        mover = self.to_move
        sides = int(self.rules.dice_sides(*self.match.state())) if mover is not None else None
        return {"family": self.rules.family, "rules": self.rules.name, "goal": int(self.rules.goal),
                "max_dice": int(self.rules.max_dice), "min_dice": int(self.rules.min_dice),
                "scores": list(self.match.scores), "to_move": mover, "winner": self.winner,
                "dice_sides": sides, "turns": self.log,
                "memories": list(self.match.context()) if self.rules.history is not None else None}


class PigDuel(Duel):
    """A roll-or-hold game between two people (the first roll of a turn is compulsory)."""

    def __init__(self, game: PigGame, seed: Optional[int] = None, first: int = 0):
        self.rules, self.seed = game, seed
        self.rng = random.Random(seed)
        self.match = PigMatch(game, first=first)

    def move(self, seat: int, move) -> None:
        """Seat ``seat`` says ``"roll"`` or ``"hold"``."""
        self._check_turn(seat)
        if move not in ("roll", "hold"):
            raise SessionError(f"choose roll or hold, not {move!r}")
        if move == "hold" and self.match.turn_total == 0:
            raise SessionError("roll at least once before holding")
        if move == "roll":
            self.match.roll(roll_faces(self.rules, self.rng))
        else:
            self.match.hold()

    def where(self) -> tuple:
        """(mover's score, opponent's score, turn total)."""
        return self.match.state()

    def state(self) -> dict:
        """Everything a page draws, as JSON-ready values (seats by number)."""
        return {"family": self.rules.family, "rules": self.rules.name, "goal": int(self.rules.goal),
                "scores": list(self.match.scores), "to_move": self.to_move, "winner": self.winner,
                "turn_total": self.match.turn_total, "log": self.match.log}
