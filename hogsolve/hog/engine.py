"""Turn-by-turn Hog engine for people, scripts and tests.

The engine applies the ruleset's own rule functions in the order every
ruleset shares: ask the strategy once; roll (every die is rolled, as in
CS 61A) or take Free Bacon; add the points; apply the swap; end the game if a
score reached the goal.  Dice are a zero-argument callable returning one
outcome, shared by both players and consumed once per die rolled, like CS
61A's ``make_test_dice(4, 1, 2)``; for rulesets with Hog Wild it may be a
mapping ``{sides: callable}``.  Without dice, seeded random dice of the right
sides are used.
"""
from __future__ import annotations

import dataclasses
import random
from typing import Callable, Dict, List, Mapping, Optional, Tuple, Union

from collections import Counter
from math import comb

from .dice import pig_out_count, sum_counts_without_ones
from .rules import (Ruleset, checked_choice, end_of_turn_and_swap, moves_again, roll_points, turn_points,
                    zero_dice_points)

Dice = Union[Callable[[], int], Mapping[int, Callable[[], int]]]


@dataclasses.dataclass(frozen=True)
class Turn:
    """One turn: who moved, the scores before and after, and what happened."""

    mover: int                    # 0 or 1
    score: int                    # mover's score before the turn
    opponent_score: int
    num_dice: int
    sides: int
    outcomes: Tuple[int, ...]
    points: int
    new_score: int                # mover's score after the turn
    new_opponent_score: int
    swapped: bool                 # the swap rule fired (even if the scores were equal)
    extra_turn: bool = False      # the mover moves again
    piggy_back: bool = False      # the opponent gained the dice count (Piggy Back)
    feral_bonus: int = 0          # Feral Hogs points added to the turn's points

    @property
    def free_bacon(self) -> bool:
        """True when the mover rolled zero dice."""
        return self.num_dice == 0

    @property
    def pig_out(self) -> bool:
        """True when a die showed 1."""
        return 1 in self.outcomes

    def events(self, normal_sides: int = 6) -> List[Dict[str, object]]:
        """Rule events of the turn, in the order they happen, as data for front ends to word.

        Kinds: ``hog_wild`` (``sides``), ``free_bacon`` (``points``),
        ``pig_out`` (``points``), ``feral_hogs`` (``points``), ``swine_swap``, ``extra_turn``, ``piggy_back``
        (``points``: what the opponent gained).
        """
        out: List[Dict[str, object]] = []
        if self.num_dice and self.sides != normal_sides:
            out.append({"kind": "hog_wild", "sides": self.sides})
        if self.free_bacon:
            out.append({"kind": "free_bacon", "points": self.points})
        if self.pig_out:
            out.append({"kind": "pig_out", "points": self.points})
        if self.feral_bonus:
            out.append({"kind": "feral_hogs", "points": self.feral_bonus})
        if self.swapped:
            out.append({"kind": "swine_swap"})
        if self.piggy_back:
            out.append({"kind": "piggy_back", "points": self.num_dice})
        if self.extra_turn:
            out.append({"kind": "extra_turn"})
        return out

    def to_dict(self) -> dict:
        """The turn as plain values, with its rule events."""
        return {**dataclasses.asdict(self), "free_bacon": self.free_bacon, "pig_out": self.pig_out,
                "events": self.events()}


@dataclasses.dataclass(frozen=True)
class GameResult:
    """Final scores (player 0, player 1), the winner, and every turn."""

    scores: Tuple[int, int]
    winner: int
    turns: List[Turn]

    def to_dict(self) -> dict:
        """The game as plain values."""
        return {"scores": list(self.scores), "winner": self.winner,
                "turns": [t.to_dict() for t in self.turns]}


def random_dice(seed: Optional[int]) -> Callable[[int], int]:
    """``roll(sides)`` from a seeded generator."""
    rng = random.Random(seed)
    return lambda sides: rng.randint(1, sides)


def _die_roller(dice: Optional[Dice], seed: Optional[int]) -> Callable[[int], int]:
    if dice is None:
        return random_dice(seed)
    if isinstance(dice, Mapping):
        def roll(sides):
            if sides not in dice:
                raise ValueError(f"no dice given for {sides}-sided rolls")
            return dice[sides]()
        return roll
    return lambda sides: dice()


def points_counts(rules: Ruleset, num_dice: int, sides: int) -> Dict[int, int]:
    """``{points: rolls}`` over the ``sides ** num_dice`` equally likely rolls of ``num_dice``
    dice: Pig Out (or its count-of-ones rule), then the turn-score rule.  The one
    definition of a roll's points; the compiled model scales it to a common denominator.

    >>> from hogsolve.hog.rules import get_rules
    >>> counts = points_counts(get_rules("su18"), 2, 6)
    >>> counts[1], counts[12], sum(counts.values())
    (11, 1, 36)
    """
    out: Counter = Counter()

    def add(raw: int, count: int) -> None:
        points = int(turn_points(rules, raw, num_dice))
        if points < 0:
            raise ValueError(f"{rules.name}: a turn cannot score {points} points")
        out[points] += count
    if rules.pig_out_rule is None:
        add(int(rules.pig_out), pig_out_count(num_dice, sides))
    else:
        for ones in range(1, num_dice + 1):
            add(int(rules.pig_out_rule(ones, num_dice)), comb(num_dice, ones) * (sides - 1) ** (num_dice - ones))
    for i, count in enumerate(sum_counts_without_ones(num_dice, sides)):
        add(2 * num_dice + i, count)
    return dict(out)


def take_turn(rules: Ruleset, mover: int, score: int, opponent_score: int,
              num_dice: int, roll: Callable[[int], int], previous: int = 0) -> Turn:
    """Play one turn of ``num_dice`` dice with ``roll(sides) -> outcome``; ``previous`` is
    what the mover remembers of their last turn (history rules only)."""
    sides = int(rules.dice_sides(score, opponent_score))
    if num_dice == 0:
        outcomes: Tuple[int, ...] = ()
        points = int(turn_points(rules, int(zero_dice_points(rules, score, opponent_score)), 0))
    else:
        outcomes = tuple(roll(sides) for _ in range(num_dice))
        for face in outcomes:  # as in CS 61A, a test die may show any positive number
            if isinstance(face, bool) or not isinstance(face, int) or face < 1:
                raise ValueError(f"dice gave {face!r}; a die shows a positive whole number")
        points = int(turn_points(rules, roll_points(outcomes, rules.pig_out, rules.pig_out_rule), num_dice))
    return score_turn(rules, mover, score, opponent_score, num_dice, points, outcomes, previous)


def score_turn(rules: Ruleset, mover: int, score: int, opponent_score: int, num_dice: int, points: int,
               outcomes: Tuple[int, ...] = (), previous: int = 0) -> Turn:
    """The turn of ``num_dice`` dice that scored ``points`` (the turn-score rule applied):
    Piggy Back, Feral Hogs, the after-turn rules, the goal and extra turns."""
    sides = int(rules.dice_sides(score, opponent_score))
    piggy = rules.piggy_back and num_dice > 0 and points == 0
    opponent_after = opponent_score + (num_dice if piggy else 0)  # Piggy Back
    feral = int(rules.history.points(num_dice, previous)) if rules.history is not None else 0
    new, opp, swapped = end_of_turn_and_swap(rules, score, opponent_after, points + feral)
    over = new >= rules.goal or opp >= rules.goal
    again = not over and bool(moves_again(rules, int(new), int(opp)))
    return Turn(mover, score, opponent_score, num_dice, sides, outcomes, points, int(new), int(opp), swapped,
                again, piggy, feral)


class Match:
    """A game in progress between players 0 and 1: scores, whose move, the log.

    The one place that applies turns to scores and checks the goal; the
    engine, the terminal game and the browser game all play through it.
    """

    def __init__(self, rules: Ruleset, score0: int = 0, score1: int = 0, first: int = 0):
        self.rules = rules
        self.scores = [score0, score1]
        self.mover = first
        self.turns: List[Turn] = []
        self.remembered = [0, 0]  # each player's memory of their previous turn (history rules)

    @property
    def winner(self) -> Optional[int]:
        """0 or 1 once a score reached the goal, else None."""
        for player in (0, 1):
            if self.scores[player] >= self.rules.goal:
                return player
        return None

    def state(self) -> Tuple[int, int]:
        """(mover's score, opponent's score)."""
        return self.scores[self.mover], self.scores[1 - self.mover]

    def context(self) -> Tuple[int, ...]:
        """(mover's memory, opponent's memory) under a history rule, else ()."""
        if self.rules.history is None:
            return ()
        return self.remembered[self.mover], self.remembered[1 - self.mover]

    def move(self, num_dice: int, roll: Callable[[int], int]) -> Turn:
        """The mover rolls ``num_dice``; the move passes to the other player (unless an
        extra-turn rule keeps it)."""
        if self.winner is not None:
            raise ValueError("the game is over")
        return self._record(take_turn(self.rules, self.mover, *self.state(), num_dice, roll,
                                      self.remembered[self.mover]))

    def move_scoring(self, num_dice: int, points: int) -> Turn:
        """The mover rolls ``num_dice`` dice that score ``points`` (a chance outcome drawn
        elsewhere, e.g. by :class:`hogsolve.hog.state.HogState`)."""
        if self.winner is not None:
            raise ValueError("the game is over")
        return self._record(score_turn(self.rules, self.mover, *self.state(), num_dice, points,
                                       previous=self.remembered[self.mover]))

    def _record(self, turn: Turn) -> Turn:
        num_dice = turn.num_dice
        self.scores[self.mover], self.scores[1 - self.mover] = turn.new_score, turn.new_opponent_score
        if self.rules.history is not None:
            self.remembered[self.mover] = int(self.rules.history.remembered(num_dice, turn.points))
        self.turns.append(turn)
        if not turn.extra_turn:
            self.mover = 1 - self.mover
        return turn


def play(strategy0, strategy1, rules: Ruleset, *, dice: Optional[Dice] = None,
         score0: int = 0, score1: int = 0, goal: Optional[int] = None,
         seed: Optional[int] = None, first: int = 0, max_turns: int = 100_000,
         feral_hogs: bool = True) -> GameResult:
    """Play one game; player ``first`` (0 by default) moves first.

    ``goal`` overrides the ruleset's goal; ``feral_hogs=False`` turns a history
    rule off, as CS 61A's ``play(..., feral_hogs=False)``.  A strategy that
    uses history (``uses_history``, e.g. the optimal player of such a ruleset)
    is also given both players' memories.  A strategy answering anything but
    an int from 0 to max_dice raises :class:`hogsolve.strategy.named.StrategyError`.
    """
    if goal is not None:
        rules = rules.replace(goal=goal)
    if not feral_hogs:
        rules = rules.replace(history=None)
    roll = _die_roller(dice, seed)
    strategies = (strategy0, strategy1)
    match = Match(rules, score0, score1, first)
    while match.winner is None:
        if len(match.turns) >= max_turns:
            raise RuntimeError(f"no winner after {max_turns} turns")
        strategy = strategies[match.mover]
        context = match.context() if getattr(strategy, "uses_history", False) else ()
        match.move(checked_choice(strategy, *match.state(), rules.max_dice, context, rules.min_dice), roll)
    return GameResult(tuple(match.scores), match.winner, match.turns)
