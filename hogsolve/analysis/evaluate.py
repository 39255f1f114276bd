"""Exact analyses of strategies over the compiled model: no simulation.

Strategies become validated policy tables ``policy[score,
opponent_score] -> dice`` once (:func:`hogsolve.strategy.policy.as_policy`); win
probabilities then come from one pass in decreasing score-sum order.

* :func:`win_rate`: P(a wins) when a moves first, when b moves first, and
  their average, the CS 61A contest definition.
* :func:`best_response`: the policy that maximises the win rate against a
  fixed opponent; :func:`exploitability`: what it gains over one half.
* :func:`regret`: per state, the win probability a strategy's choice loses
  against the optimal choice, how often play against the optimal opponent
  reaches the state, and their product, the expected loss.  The expected
  losses add up exactly to the strategy's shortfall from one half against
  the optimal opponent (the performance-difference identity).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Optional

import numpy as np

from ..solver.backup import outcome_table
from ..solver.certificate import rounding_tie_threshold, tie_broken_policy
from ..solver.iteration import ConvergenceError, by_score_sum
from ..solver.passes import zero_dice_passes
from ..solver.model import Model, model_for
from .policy_values import best_response_values, occupancy, play_values, slot_values, slots_supported
from ..solver.optimal import solve
from ..hog.rules import ENDLESS_GAME, Ruleset
from ..strategy.policy import Policy, as_policy
from .results import BestResponse, Regret, WinRate
from ..errors import InputError


def _table(policy: Policy) -> np.ndarray:
    return policy.table.astype(np.intp)


def win_rate(a, b, rules: Ruleset, *, model: Optional[Model] = None) -> WinRate:
    """Exact win rate of strategy (or policy table) ``a`` against ``b``."""
    model = model_for(rules, model)
    pa, pb = as_policy(a, rules), as_policy(b, rules)
    ta, tb = _table(pa), _table(pb)
    if slots_supported(model) and ta.ndim == tb.ndim == 2:
        start = slot_values(model, np.stack([ta, tb]), np.array([1, 0]))[0, 0]
        return WinRate(pa.name, pb.name, float(start[0]), float(1 - start[1]))
    va, vb = play_values(model, ta, tb)
    return WinRate(pa.name, pb.name, float(_start(va)), float(1 - _start(vb)))


def _start(values: np.ndarray) -> float:
    """The value at the start of a game: (0, 0), both memories 0."""
    return values[(0,) * values.ndim]


def best_response(strategy, rules: Ruleset, *, model: Optional[Model] = None) -> BestResponse:
    """The strategy that maximises the win rate against the fixed ``strategy``."""
    model = model_for(rules, model)
    fixed = as_policy(strategy, rules)
    opponent = _table(fixed)
    try:
        if slots_supported(model) and opponent.ndim == 2:
            value_me, value_opp, action_values = best_response_values(model, opponent)
        else:
            value_me, value_opp, action_values = _best_response_pairwise(model, opponent)
    except ConvergenceError:
        passes = zero_dice_passes(model)
        if passes is None or rules.endless == "draw" or not (passes & (opponent == 0)).any():
            raise
        raise ConvergenceError(f"{rules.name}: {fixed.name} passes where a pass can be passed back, so the best "
                               f"response to it may never end the game: {ENDLESS_GAME}") from None
    # ties broken as the solver breaks them: fewest dice within the rounding bound
    policy = tie_broken_policy(action_values, rounding_tie_threshold(model))
    rate = WinRate(f"best response to {fixed.name}", fixed.name,
                   float(_start(value_me)), float(1 - _start(value_opp)))
    return BestResponse(rules, fixed.name, policy, value_me, rate)


def _best_response_pairwise(model: Model, opponent: np.ndarray):
    """:func:`best_response`'s pass on two outcome tables (any rules)."""
    mine, theirs = outcome_table(model), outcome_table(model)
    value_me, value_opp = np.zeros(model.value_shape), np.zeros(model.value_shape)
    action_values = np.zeros(model.value_shape + (model.num_actions,))

    def update(k: int) -> float:
        d = model.diagonals[k]
        q = mine.action_values(k)
        best = q.max(axis=-1)
        q_opp = theirs.chosen_values(k, opponent[d.s, d.o])
        change = max(float(np.abs(best - value_me[d.s, d.o]).max()),
                     float(np.abs(q_opp - value_opp[d.s, d.o]).max()))
        value_me[d.s, d.o], value_opp[d.s, d.o], action_values[d.s, d.o] = best, q_opp, q
        mine.fill(k, value_opp, value_me)
        theirs.fill(k, value_me, value_opp)
        return change

    by_score_sum(model, update).check("best response")
    return value_me, value_opp, action_values


def exploitability(strategy: Any, rules: Ruleset, *, model: Optional[Model] = None) -> float:
    """How much the best response's win rate exceeds one half."""
    return best_response(strategy, rules, model=model).exploitability


def regret(strategy, rules: Ruleset, *, model: Optional[Model] = None, solution=None) -> Regret:
    """Per-state loss of ``strategy`` against optimal choices, weighted by reach."""
    model = model_for(rules, model)
    if solution is not None and solution.game != rules:
        raise InputError(f"the solution is for {solution.game.name} at goal {solution.game.goal}, "
                         f"not {rules.name} at goal {rules.goal}")
    solution = solution if solution is not None else solve(rules, model=model)
    judged = as_policy(strategy, rules)
    policy = _table(judged)
    chosen = np.take_along_axis(solution.action_values, policy[..., None], axis=-1)[..., 0]
    # against the best action value (the state value, where proven); none where the choice is the table's
    loss = np.where(policy == solution.policy, 0.0, np.maximum(solution.action_values.max(axis=-1) - chosen, 0.0))
    reach = occupancy(model, policy, solution.policy.astype(np.intp))
    rate = win_rate(policy, solution.policy, rules, model=model)
    rate = dataclasses.replace(rate, a=judged.name, b="optimal")
    return Regret(rules, judged.name, policy, solution.policy, loss, reach, rate)


