"""The single environment's fast lanes against the engine: every turn lands where the rules
say, and every draw has the exact probability of the chance node it stands for."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest

from hogsolve.hog.rules import rulesets
from hogsolve.hog.state import HogState
from hogsolve.families import game_spec
from hogsolve.pig.state import PigState
from hogsolve.families.lanes import HogLane, PigLane, StateLane, below, lane_for

GOAL = 30
HOG = [name for name, rules in rulesets().items() if rules.history is None]
#: One ruleset of each feature in the default tier (a swap, Hog Wild, a points bonus, Piggy
#: Back, a turn-score rule, extra turns, a bonus, no zero dice); every ruleset in the slow tier.
FEATURES = {"su18", "fa13", "sp15", "fa15", "sp17", "fa20", "sp21", "fa23", "hog"}
EACH = [pytest.param(name, marks=() if name in FEATURES else pytest.mark.slow) for name in HOG]


def _engine_after(rules, score0, score1, mover, dice, points):
    """Scores, mover and winner after one turn, by the engine's own state."""
    state = HogState(rules, score0, score1, mover)
    state.apply_action(dice)
    if state.is_chance_node():
        state.apply_action(points)
    return list(state.match.scores), state.match.mover, state.match.winner


@pytest.mark.parametrize("name", EACH)
def test_every_turn_of_the_hog_lane_lands_as_the_engine_says(name):
    """Mistakes: an extra turn, a swap, Piggy Back or a bonus rule read wrong on the lane."""
    spec = game_spec(name, GOAL)
    lane = HogLane(spec, "always_roll:4")
    rules, rng = spec.rules, random.Random(name)
    positions = [(rng.randrange(GOAL), rng.randrange(GOAL), rng.randrange(2)) for _ in range(25)]
    for score0, score1, mover in positions + [(GOAL - 1, GOAL - 1, 0), (0, GOAL - 1, 1)]:
        for dice in range(int(rules.min_dice), int(rules.max_dice) + 1):
            state = HogState(rules, score0, score1, mover)
            state.apply_action(dice)
            outcomes = [p for p, _ in state.chance_outcomes()] if state.is_chance_node() else [None]
            for points in outcomes:
                lane.place(score0, score1, mover)
                if points is None:  # zero dice: Free Bacon's sure points
                    points = lane.draw(0, rng)
                lane.land(dice, points)
                scores, next_mover, winner = _engine_after(rules, score0, score1, mover, dice, points)
                assert (lane.scores(), lane.winner) == (scores, winner), (score0, score1, mover, dice, points)
                if winner is None:
                    assert lane.mover == next_mover, (score0, score1, mover, dice, points)


class _Fixed:
    """A generator that always draws ``value``: to read one unit of the alias table."""

    def __init__(self, value: int):
        self.value = value

    def getrandbits(self, bits: int) -> int:
        assert 0 <= self.value < 1 << bits
        return self.value


@pytest.mark.parametrize("name", ["su18", "fa18", "sp22", "fa23"])
def test_the_hog_lanes_draws_have_the_exact_probabilities(name):
    """Mistake: a column or a unit of the alias table read wrong (the low bits, the rest)."""
    spec = game_spec(name, GOAL)
    lane = HogLane(spec, "always_roll:4")
    width, base = 1 << lane.bits, lane.high >> lane.bits
    for score0, score1 in [(0, 0), (7, 12), (GOAL - 1, 3)]:
        for dice in range(1, int(spec.rules.max_dice) + 1):
            lane.place(score0, score1, 0)
            state = HogState(spec.rules, score0, score1, 0)
            state.apply_action(dice)
            exact = {p: q for p, q in state.chance_outcomes()}
            row = lane.kind[lane.position] * lane.num_actions + dice
            drawn: dict = {}
            for column in range(width):
                cell = (row << lane.bits) | column
                kept = Fraction(lane.threshold[cell], base * width)
                drawn[column] = drawn.get(column, 0) + kept
                drawn[lane.alias[cell]] = drawn.get(lane.alias[cell], 0) + Fraction(1, width) - kept
                for unit in {max(lane.threshold[cell] - 1, 0), min(lane.threshold[cell], base - 1)}:
                    expected = column if unit < lane.threshold[cell] else lane.alias[cell]
                    assert lane.draw(dice, _Fixed((unit << lane.bits) | column)) == expected
            assert {p: q for p, q in drawn.items() if q} == exact


def test_the_pig_lane_plays_the_engine_and_its_goal_rule():
    """Mistakes: a hold with nothing to bank allowed, the opponent's roll and hold swapped."""
    spec = game_spec("pig", 20)
    lane = PigLane(spec, "hold_at:10", keep_log=True)
    rng = random.Random(3)
    lane.new(me=0, rng=rng)
    assert lane.play(1, rng) is False  # nothing to bank: played as a roll
    for seed in range(200):
        lane.new(me=1, rng=random.Random(seed))
        match = lane.state.match
        assert lane.winner is not None or match.mover == 1
        assert match.log
        for entry in match.log:  # the opponent (player 0) held only at 10 or more, or reached the goal
            if entry["player"] == 0 and entry["action"] == "hold":
                assert entry["banked"] >= 10 or match.scores[0] >= 20
    assert lane.mask().tolist() in ([1, 0], [1, 1])


def test_below_draws_as_randrange_does():
    """Mistake: the rejection bound off by one (n itself drawn, or n - 1 never)."""
    for n in (1, 2, 6, 7, 36, 2 ** 40 + 3):
        first, second = random.Random(n), random.Random(n)
        assert [below(first, n, n.bit_length()) for _ in range(300)] == [second.randrange(n) for _ in range(300)]
    rng = random.Random(0)
    assert set(below(rng, 6, 3) for _ in range(500)) == set(range(6))


def test_each_game_gets_its_lane():
    assert isinstance(lane_for(game_spec("su18"), "optimal"), HogLane)
    assert isinstance(lane_for(game_spec("piglet"), "optimal"), PigLane)
    assert isinstance(lane_for(game_spec("fa19"), "optimal"), StateLane)  # Feral Hogs' memories


def test_the_pig_lanes_rolls_have_the_exact_probabilities():
    """Mistake: the list of draws built off by one, or a game of many outcomes drawn wrong."""
    for name in ("pig", "two-dice-pig", "big-pig"):
        spec = game_spec(name, 20)
        lane, listless = PigLane(spec, "hold_at:10"), PigLane(spec, "hold_at:10")
        listless.by_draw = None  # the path of a game too large for the list: the same draws
        exact = {outcome: p for outcome, p in PigState(spec.rules).outcomes}
        counted: dict = {}
        for value in range(lane.denominator):
            outcome = lane.roll(_Fixed(value))
            assert listless.roll(_Fixed(value)) == outcome
            counted[outcome] = counted.get(outcome, 0) + Fraction(1, lane.denominator)
        assert counted == exact
