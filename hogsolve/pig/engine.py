"""Turn-by-turn roll-or-hold engine: for people, Monte Carlo and tests.

A strategy is ``strategy(score, opponent_score, turn_total) -> bool`` (True:
roll).  The first roll of a turn is compulsory; a roll that brings score plus
turn total to the goal banks the turn and wins at once
(:data:`hogsolve.pig.rules.GOAL_RULE`), so no strategy is asked there.
"""
from __future__ import annotations

import random
from typing import Callable, List, Optional, Tuple

from .rules import PigGame
from ..errors import InputError, StateError


def roll_faces(game: PigGame, rng: random.Random) -> Tuple[int, ...]:
    """One roll's faces from a seeded generator (a coin shows 1 for tails, 2 for heads)."""
    faces = 2 if game.roll == "coin" else game.sides
    return tuple(rng.randint(1, faces) for _ in range(game.dice_per_roll()))


class PigMatch:
    """A game in progress: banked scores, whose turn, the turn total, and the log (kept
    unless ``keep_log`` is False, as for an environment's millions of rolls)."""

    def __init__(self, game: PigGame, first: int = 0, keep_log: bool = True):
        self.game = game
        self.goal = game.goal  # read on every roll
        self.scores = [0, 0]
        self.mover = first
        self.turn_total = 0
        self.log: List[dict] = []
        self.keep_log = keep_log

    @property
    def winner(self) -> Optional[int]:
        """0 or 1 once a banked score reached the goal, else None."""
        scores, goal = self.scores, self.goal
        return 0 if scores[0] >= goal else 1 if scores[1] >= goal else None

    def state(self) -> Tuple[int, int, int]:
        """(mover's score, opponent's score, turn total)."""
        return self.scores[self.mover], self.scores[1 - self.mover], self.turn_total

    def roll(self, faces: Tuple[int, ...]) -> Tuple[str, int]:
        """The mover rolls ``faces``: the outcome is added, or the turn total (and with a
        wipe the banked score too) is lost."""
        return self.apply_outcome(*self.game.outcome_of(faces), faces=faces)

    def apply_outcome(self, kind: str, amount: int, faces: Tuple[int, ...] = ()) -> Tuple[str, int]:
        """The mover's roll came out as ``(kind, amount)`` (see :mod:`hogsolve.pig.rules`); a roll
        that reaches the goal is banked at once and wins (:data:`~hogsolve.pig.rules.GOAL_RULE`)."""
        if self.keep_log:
            self.log.append({"player": self.mover, "action": "roll", "faces": list(faces), "outcome": kind,
                             "amount": amount, "said": self.game.said(faces)})
        if kind == "wipe":
            self.scores[self.mover] = 0
        if kind in ("bust", "wipe"):
            self.turn_total = 0
            self.mover = 1 - self.mover
        else:
            self.turn_total += amount
            if self.scores[self.mover] + self.turn_total >= self.goal:
                self.hold()
        return kind, amount

    def hold(self) -> None:
        """The mover banks the turn total (allowed once it is positive)."""
        if self.turn_total <= 0:
            raise InputError("roll at least once before holding")
        self.scores[self.mover] += self.turn_total
        if self.keep_log:
            self.log.append({"player": self.mover, "action": "hold", "banked": self.turn_total})
        self.turn_total = 0
        if self.winner is None:
            self.mover = 1 - self.mover


def play_pig(strategy0: Callable, strategy1: Callable, game: PigGame, *, seed: Optional[int] = None,
             first: int = 0, max_rolls: int = 1_000_000) -> PigMatch:
    """Play one game to the end with seeded dice; returns the finished match."""
    rng = random.Random(seed)
    match = PigMatch(game, first)
    strategies = (strategy0, strategy1)
    for _ in range(max_rolls):
        if match.winner is not None:
            return match
        score, opponent, total = match.state()
        if total > 0 and not strategies[match.mover](score, opponent, total):
            match.hold()
        else:
            match.roll(roll_faces(game, rng))
    raise StateError(f"no winner after {max_rolls} rolls")
