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
from typing import Any, List, Optional, Tuple

import numpy as np

from ..solver.history import MemoryAxes, compact, expand, facing, response_axes
from ..solver.kinds import outcome_table
from ..solver.certificate import rounding_tie_threshold, tie_broken_policy
from ..solver.iteration import ConvergenceError, by_score_sum
from ..solver.passes import zero_dice_passes
from ..solver.model import Model, model_for
from .policy_values import best_response_values, full_policy, occupancy, play_values, slot_values, slots_supported
from ..solver.optimal import solve
from ..hog.rules import ENDLESS_GAME, Ruleset
from ..strategy.mixed import Mixture
from ..strategy.policy import Policy, as_policy, rules_key
from .results import BestResponse, Regret, WinRate
from ..errors import InputError


def _table(policy: Policy) -> np.ndarray:
    return policy.table.astype(np.intp)


def win_rate(a, b, rules: Ruleset, *, model: Optional[Model] = None) -> WinRate:
    """Exact win rate of strategy (or policy table) ``a`` against ``b``; either may be a
    :class:`~hogsolve.strategy.mixed.Mixture`, whose win rate is the expectation over its
    choices (:func:`mixed_values`)."""
    model = model_for(rules, model)
    if isinstance(a, Mixture) or isinstance(b, Mixture):
        (qa, na), (qb, nb) = _probabilities(a, rules), _probabilities(b, rules)
        va, vb = mixed_values(model, qa, qb)
        return WinRate(na, nb, float(_start(va)), float(1 - _start(vb)))
    pa, pb = as_policy(a, rules), as_policy(b, rules)
    if slots_supported(model) and pa.table.ndim == pb.table.ndim == 2:
        start = slot_values(model, np.stack([_table(pa), _table(pb)]), np.array([1, 0]))[0, 0]
        return WinRate(pa.name, pb.name, float(start[0]), float(1 - start[1]))
    va, vb = play_values(model, pa.table, pb.table, merged=True)  # the tables' own small ints
    return WinRate(pa.name, pb.name, float(_start(va)), float(1 - _start(vb)))


def _probabilities(strategy: Any, rules: Ruleset):
    """``(probabilities[..., dice], name)`` of a mixture, or of a fixed strategy (one action each)."""
    if isinstance(strategy, Mixture):
        if rules_key(strategy.game) != rules_key(rules):
            raise InputError(f"{strategy.name} was made for {strategy.game.name} at goal {strategy.game.goal}, "
                             f"not {rules.name} at goal {rules.goal}")
        return strategy.probabilities, strategy.name
    fixed = as_policy(strategy, rules)
    table = np.broadcast_to(_table(fixed), rules.decision_table_shape)
    return np.eye(rules.num_actions)[table], fixed.name


def _weighted(q: np.ndarray, probabilities: np.ndarray) -> np.ndarray:
    """The expectation of action values ``q[..., a]`` under ``probabilities[..., a]`` (an action
    without chance counts nothing, though its value be -inf below the least dice)."""
    with np.errstate(invalid="ignore"):
        return np.where(probabilities > 0, q * probabilities, 0.0).sum(axis=-1)


def mixed_values(model: Model, mine: np.ndarray, theirs: np.ndarray):
    """``(value_mine, value_theirs)``, each for its own player to move, when each player draws its
    action from its table of probabilities ``[..., dice]``: every action's value by the solver's
    backup (outcome tables), weighted by its chance, score sum by score sum (iterated where a
    score sum can repeat).  Exact as a fixed pair's values are: the same backups, one weighted
    sum more."""
    tables = outcome_table(model), outcome_table(model)
    values = np.zeros(model.value_shape), np.zeros(model.value_shape)
    chances = mine, theirs

    def update(k: int) -> float:
        d = model.diagonals[k]
        new = [_weighted(tables[p].action_values(k), chances[p][d.s, d.o]) for p in (0, 1)]
        change = max(float(np.abs(new[p] - values[p][d.s, d.o]).max()) for p in (0, 1))
        for p in (0, 1):
            values[p][d.s, d.o] = new[p]
        tables[0].fill(k, values[1], values[0])
        tables[1].fill(k, values[0], values[1])
        return change

    by_score_sum(model, update).check("a mixture's values")
    return values


def _start(values: np.ndarray) -> float:
    """The value at the start of a game: (0, 0), both memories 0."""
    return values[(0,) * values.ndim]


def best_response(strategy, rules: Ruleset, *, model: Optional[Model] = None) -> BestResponse:
    """The strategy that maximises the win rate against the fixed ``strategy``."""
    model = model_for(rules, model)
    # ties broken as the solver breaks them: fewest dice within the rounding bound
    threshold = rounding_tie_threshold(model)
    if isinstance(strategy, Mixture):  # its chances of each action, weighted in the pairwise pass
        chances, name = _probabilities(strategy, rules)
        value_me, value_opp, policy = _best_response_pairwise(model, chances, threshold, mixed=True)
        rate = WinRate(f"best response to {name}", name, float(_start(value_me)), float(1 - _start(value_opp)))
        return BestResponse(rules, name, policy, value_me, rate)
    fixed = as_policy(strategy, rules)
    try:
        if slots_supported(model) and fixed.table.ndim == 2:
            value_me, value_opp, action_values = best_response_values(model, _table(fixed))
            policy = tie_broken_policy(action_values, threshold)
        else:
            value_me, value_opp, policy = _best_response_pairwise(model, fixed.table, threshold)
    except ConvergenceError:
        passes = zero_dice_passes(model)
        if passes is None or rules.endless == "draw" or not (passes & (fixed.table == 0)).any():
            raise
        raise ConvergenceError(f"{rules.name}: {fixed.name} passes where a pass can be passed back, so the best "
                               f"response to it may never end the game: {ENDLESS_GAME}") from None
    rate = WinRate(f"best response to {fixed.name}", fixed.name,
                   float(_start(value_me)), float(1 - _start(value_opp)))
    return BestResponse(rules, fixed.name, policy, value_me, rate)


def _best_response_pairwise(model: Model, opponent: np.ndarray, threshold: float, mixed: bool = False):
    """:func:`best_response`'s pass on two outcome tables (any rules): ``(value_me, value_opp,
    policy)`` (``value_opp`` on the opponent's classes of memories: its start is the start),
    the policy's ties broken within ``threshold`` score sum by score sum; with
    ``mixed``, ``opponent`` holds the chance of each action (``[..., dice]``).  Under a history
    rule the fixed opponent's memories that it plays alike are one class
    (:func:`hogsolve.solver.history.response_axes`)."""
    axes: Optional[Tuple[MemoryAxes, MemoryAxes]] = None
    if model.context_shape and not mixed:
        opponent = full_policy(model, opponent)
        axes = response_axes(model, opponent)
        mine, theirs = facing(model, axes)
        opponent = compact(opponent, axes[1])
        shapes: List[Tuple[int, ...]] = [(model.goal, model.goal) + a.sizes for a in axes]
    else:
        mine, theirs = outcome_table(model), outcome_table(model)
        shapes = [model.value_shape] * 2
    value_me, value_opp = np.zeros(shapes[0]), np.zeros(shapes[1])
    policy = np.zeros(shapes[0], dtype=np.int8)
    # a history table's action values are large: their ties are broken score sum by score sum;
    # the others' are kept (goal x goal x dice) and their ties broken at once
    kept = None if model.context_shape else np.zeros(shapes[0] + (model.num_actions,))
    play = None if mixed else theirs.follow(opponent)

    def update(k: int) -> float:
        d = model.diagonals[k]
        q = mine.action_values(k)
        best = q.max(axis=-1)
        q_opp = _weighted(theirs.action_values(k), opponent[d.s, d.o]) if play is None else play(k)
        change = max(float(np.abs(best - value_me[d.s, d.o]).max()),
                     float(np.abs(q_opp - value_opp[d.s, d.o]).max()))
        value_me[d.s, d.o], value_opp[d.s, d.o] = best, q_opp
        if kept is None:  # the tie-break over actions-first rows: (i, m, j) for a history table's layout
            policy[d.s, d.o] = np.swapaxes(tie_broken_policy(np.swapaxes(q, 0, 1), threshold), 0, 1)
        else:
            kept[d.s, d.o] = q
        mine.fill(k, value_opp, value_me)
        theirs.fill(k, value_me, value_opp)
        return change

    by_score_sum(model, update).check("best response")
    if kept is not None:
        policy = tie_broken_policy(kept, threshold)
    if axes is not None:
        return expand(value_me, axes[0]), value_opp, expand(policy, axes[0])  # the opponent's: its start only
    return value_me, value_opp, policy


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


