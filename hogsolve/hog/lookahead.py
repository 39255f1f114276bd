"""Every dice count's value at one state, from the table of state values: one turn of lookahead.

A ruleset whose action values are too large to ship (Feral Hogs: goal^2 x
memories^2 x dice floats) ships its state values instead; a hint needs the
values of one state's moves only, which one turn of the engine gives from
them exactly as the solver's backup does: each roll's points with their
probability, then the rules after the roll, then the value of where the turn
ends (the mover's own if it moves again, one minus the opponent's otherwise).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from .engine import score_turn, zero_dice_points, turn_points
from .rules import points_counts
from .rules import Ruleset


def action_values_at(rules: Ruleset, win_probability: np.ndarray, score: int, opponent_score: int,
                     memories: Sequence[int] = ()) -> np.ndarray:
    """P(the mover wins) for each dice count 0..max_dice at one state, given every state's
    value ``win_probability[score, opponent_score, *memories]`` (mover first); ``-inf``
    for a count the rules forbid (Neller's Hog's 0 dice)."""
    previous = int(memories[0]) if memories else 0
    out = np.full(int(rules.max_dice) + 1, -np.inf)
    for num_dice in range(int(rules.min_dice), int(rules.max_dice) + 1):
        if num_dice == 0:
            raw = int(zero_dice_points(rules, score, opponent_score))
            outcomes = {int(turn_points(rules, raw, 0)): 1}
        else:
            outcomes = points_counts(rules, num_dice, int(rules.dice_sides(score, opponent_score)))
        total = sum(outcomes.values())
        value = 0.0
        for points, count in outcomes.items():
            turn = score_turn(rules, 0, score, opponent_score, num_dice, points, previous=previous)
            value += count / total * _after(rules, win_probability, turn, memories)
        out[num_dice] = value
    return out


def _after(rules: Ruleset, win_probability: np.ndarray, turn, memories: Sequence[int]) -> float:
    """The mover's chance of winning once ``turn`` is played."""
    if turn.new_score >= rules.goal:
        return 1.0
    if turn.new_opponent_score >= rules.goal:
        return 0.0
    context: tuple = ()
    if memories:
        assert rules.history is not None  # memories come from a history rule
        mine = int(rules.history.memory(turn.num_dice, turn.points, int(rules.max_dice)))
        context = (mine, int(memories[1]))
    if turn.extra_turn:
        return float(win_probability[(turn.new_score, turn.new_opponent_score) + context])
    return 1.0 - float(win_probability[(turn.new_opponent_score, turn.new_score) + context[::-1]])
