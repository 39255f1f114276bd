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
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple, Union

from ..util.words import plural
from .rules import (EndOfTurn, Ruleset, checked_choice, end_of_turn_steps, moves_again, roll_points,
                    turn_points, zero_dice_points)
from ..errors import InputError, StateError

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
    rule_events: Tuple[Dict[str, object], ...] = ()  # see events()

    @property
    def free_bacon(self) -> bool:
        """True when the mover rolled zero dice."""
        return self.num_dice == 0

    @property
    def pig_out(self) -> bool:
        """True when a die showed 1."""
        return 1 in self.outcomes

    def events(self) -> List[Dict[str, object]]:
        """Every rule that changed this turn, in the order it applied, as the engine recorded
        it: ``kind`` (``hog_wild``, ``free_bacon``, ``pig_out``, ``turn_score``, ``piggy_back``,
        ``feral_hogs``, ``points_bonus``, ``bonus``, ``swine_swap``, ``extra_turn``), ``name`` (the
        semester's own: Boar Brawl, Sus Fuss, Sow Sad...), ``text`` (the words every front end
        shows) and its numbers (``points`` it moved, ``sides``; ``player: "opponent"`` where
        the opponent gained them)."""
        return [dict(event) for event in self.rule_events]

    def to_dict(self) -> dict:
        """The turn as plain values, with its rule events."""
        plain = {field.name: getattr(self, field.name) for field in dataclasses.fields(self)
                 if field.name != "rule_events"}
        return {**plain, "outcomes": list(self.outcomes), "free_bacon": self.free_bacon, "pig_out": self.pig_out,
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
                raise InputError(f"no dice given for {sides}-sided rolls")
            return dice[sides]()
        return roll
    return lambda sides: dice()


def take_turn(rules: Ruleset, mover: int, score: int, opponent_score: int,
              num_dice: int, roll: Callable[[int], int], previous: int = 0) -> Turn:
    """Play one turn of ``num_dice`` dice with ``roll(sides) -> outcome``; ``previous`` is
    what the mover remembers of their last turn (history rules only)."""
    sides = int(rules.dice_sides(score, opponent_score))
    outcomes: Tuple[int, ...] = ()
    if num_dice == 0:
        raw = int(zero_dice_points(rules, score, opponent_score))
    else:
        outcomes = tuple(roll(sides) for _ in range(num_dice))
        for face in outcomes:  # as in CS 61A, a test die may show any positive number
            if isinstance(face, bool) or not isinstance(face, int) or face < 1:
                raise InputError(f"dice gave {face!r}; a die shows a positive whole number")
        raw = roll_points(outcomes, rules.pig_out, rules.pig_out_rule)
    points = int(turn_points(rules, raw, num_dice))
    return score_turn(rules, mover, score, opponent_score, num_dice, points, outcomes, previous, raw=raw)


def score_turn(rules: Ruleset, mover: int, score: int, opponent_score: int, num_dice: int, points: int,
               outcomes: Tuple[int, ...] = (), previous: int = 0, raw: Optional[int] = None) -> Turn:
    """The turn of ``num_dice`` dice that scored ``points`` (the turn-score rule applied to
    the dice's ``raw`` points, when known): Piggy Back, Feral Hogs, the after-turn rules,
    the goal and extra turns, with an event for every rule that changed the turn."""
    sides = int(rules.dice_sides(score, opponent_score))
    piggy = rules.piggy_back and num_dice > 0 and points == 0
    opponent_after = opponent_score + (num_dice if piggy else 0)  # Piggy Back
    feral = int(rules.history.points(num_dice, previous)) if rules.history is not None else 0
    steps = end_of_turn_steps(rules, score, opponent_after, points + feral)
    new, opp = int(steps.mover), int(steps.opponent)
    over = new >= rules.goal or opp >= rules.goal
    again = not over and bool(moves_again(rules, new, opp))
    events = _events(rules, num_dice, sides, outcomes, points, raw, piggy, feral, steps,
                     rules.extra_turn_name(new, opp) if again else None)
    return Turn(mover, score, opponent_score, num_dice, sides, outcomes, points, new, opp, bool(steps.swapped),
                again, piggy, feral, tuple(events))


def _points(n: int) -> str:
    return plural(n, "point")


def _events(rules: Ruleset, num_dice: int, sides: int, outcomes: Tuple[int, ...], points: int,
            raw: Optional[int], piggy: bool, feral: int, steps: EndOfTurn,
            extra_turn: Optional[str]) -> List[Dict[str, object]]:
    """The turn's rule events in the order the rules applied (see :meth:`Turn.events`)."""
    out: List[Dict[str, object]] = []

    def add(kind: str, name: str, text: str, **numbers: object) -> None:
        out.append({"kind": kind, "name": name, "text": text, **numbers})
    if num_dice and sides != 6:
        name = rules.rule_name("dice_sides")
        add("hog_wild", name, f"{name}: {sides}-sided dice", sides=sides)
    base = points if raw is None else int(raw)
    if num_dice == 0:
        name = rules.rule_name("free_bacon")
        add("free_bacon", name, f"{name}: {_points(base)}", points=base)
    elif 1 in outcomes:
        name = rules.rule_name("pig_out")
        add("pig_out", name, f"{name}: {_points(base)}", points=base)
    if points != base:
        name = rules.rule_name("turn_score")
        add("turn_score", name, f"{name}: {base} becomes {points}", points=points - base)
    if piggy:
        name = rules.rule_name("piggy_back")
        add("piggy_back", name, f"{name}: the opponent gains {num_dice}", points=num_dice, player="opponent")
    if feral:
        name = rules.rule_name("history")
        add("feral_hogs", name, f"{name}: +{_points(feral)}", points=feral)
    name = rules.rule_name("points_bonus")
    if int(steps.mover_extra):
        add("points_bonus", name, f"{name}: +{_points(int(steps.mover_extra))}", points=int(steps.mover_extra))
    if int(steps.opponent_extra):
        add("points_bonus", name, f"{name}: the opponent gains {_points(int(steps.opponent_extra))}",
            points=int(steps.opponent_extra), player="opponent")
    if int(steps.bonus):
        name = rules.rule_name("bonus")
        add("bonus", name, f"{name}: +{_points(int(steps.bonus))}", points=int(steps.bonus))
    if steps.swapped:
        name = rules.rule_name("swaps")
        add("swine_swap", name, f"{name}: the scores are swapped")
    if extra_turn is not None:
        add("extra_turn", extra_turn, f"{extra_turn}: an extra turn")
    return out


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
            raise InputError("the game is over")
        return self._record(take_turn(self.rules, self.mover, *self.state(), num_dice, roll,
                                      self.remembered[self.mover]))

    def move_scoring(self, num_dice: int, points: int) -> Turn:
        """The mover rolls ``num_dice`` dice that score ``points`` (a chance outcome drawn
        elsewhere, e.g. by :class:`hogsolve.hog.state.HogState`)."""
        if self.winner is not None:
            raise InputError("the game is over")
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


def play(strategy0: Any, strategy1: Any, rules: Ruleset, *, dice: Optional[Dice] = None,
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
            raise StateError(f"no winner after {max_turns} turns")
        strategy = strategies[match.mover]
        context = match.context() if getattr(strategy, "uses_history", False) else ()
        match.move(checked_choice(strategy, *match.state(), rules.max_dice, context, rules.min_dice), roll)
    return GameResult((match.scores[0], match.scores[1]), match.winner, match.turns)
