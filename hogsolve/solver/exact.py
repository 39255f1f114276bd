"""Exact rational verification of a float solution.

Every dice probability is ``count / sides**max_dice``, so with ``B`` the
least common multiple of those denominators, a win probability reached
within ``j`` turns is a multiple of ``1 / B**j``.  A game has at most
``L = 2 goal - 1`` turns left from any state when every turn scores, so every
value is an integer multiple of ``1 / B**L``: the whole table is computed in
Python integers scaled by ``B**L`` and is exact: by the dice recurrence of
:mod:`hogsolve.solver.dicesums` where rolls score their dice's sum (an algorithm of its
own, independent of the float solver's products), else by the same pass as
the float solver (:mod:`hogsolve.solver.backup`).

Exact mode needs every turn to raise the score sum; with turns that can score
0 points the values solve a linear system per score sum instead, which this
module does not do.
"""
from __future__ import annotations

from ..errors import HogsolveError, InputError
import dataclasses
import time
from fractions import Fraction
from math import lcm
from typing import Any

import numpy as np

from .backup import Arithmetic
from .kinds import outcome_table
from .dicesums import recurrence_values, rolls_are_dice_sums
from .iteration import optimal_values
from .model import Model
from .kinds import UNCOVERED
from .model import Feature
from ..util.status import Status


class ExactStatus(Status):
    """The status of an exact computation: always ``ok`` (every value it states is exact);
    ``iterations`` counts the score sums of its ``policy`` table."""

    policy: np.ndarray  # the result's own field

    @property
    def message(self) -> str:
        """Always '': exact values and decisions."""
        return ""

    @property
    def iterations(self) -> int:
        """Score sums computed exactly."""
        return 2 * int(self.policy.shape[0]) - 1


@dataclasses.dataclass(frozen=True, repr=False)
class ExactResult(ExactStatus):
    """Outcome of the exact recomputation of a solution (always ``ok``: the exact optimal
    policy replaces the float one where they differ; ``iterations`` counts the score sums).

    ``policy[s, o]`` is the exact optimal dice count (fewest dice on exact
    ties); ``float_policy_mismatches`` lists the states [s, o] where the
    float policy chose differently; ``max_value_error`` is the largest
    ``|float value - exact value|`` over all states.  ``win_probability``
    and ``action_values`` are the exact values correctly rounded to float64:
    the same bytes on every machine, within ``ROUNDING_BOUND`` of the truth.
    ``min_decision_margin`` is the smallest exact gap between the best and
    the second-best dice count, over states without an exact tie.
    """

    win_probability_start: Fraction
    policy: np.ndarray
    exact_tie_states: int
    float_policy_mismatches: np.ndarray
    max_value_error: float
    seconds: float
    win_probability: np.ndarray
    action_values: np.ndarray
    min_decision_margin: float

    def table_record(self) -> dict:
        """What a table written from exact values can state: the same on every machine."""
        p = self.win_probability_start
        return {
            "method": "exact rational recomputation; stored values are the exact values "
                      "correctly rounded to float64",
            "error_bound": ROUNDING_BOUND,
            "exact_tie_states": self.exact_tie_states,
            "min_decision_margin": self.min_decision_margin,
            "win_probability_start": f"{p.numerator}/{p.denominator}",
            "win_probability_start_decimal": decimal_digits(p, 30),
            "proven": True,
        }

    def to_dict(self) -> dict:
        """The table record plus this run's comparison with the float solution."""
        return {
            **self.status(),
            **self.table_record(),
            "float_policy_mismatches": self.float_policy_mismatches.tolist(),
            "max_value_error": self.max_value_error,
            "seconds": self.seconds,
        }

    def __repr__(self) -> str:
        p = self.win_probability_start
        return (
            f"ExactResult(P(first player wins) = {decimal_digits(p, 30)}...\n"
            f"  as a fraction: {len(str(p.numerator))}-digit / {len(str(p.denominator))}-digit integers\n"
            f"  float policy mismatches = {len(self.float_policy_mismatches)}, "
            f"exact ties = {self.exact_tie_states}\n"
            f"  max |float - exact| = {self.max_value_error:.3g}, time = {self.seconds:.1f} s)"
        )


#: Largest error of a value in [0, 1] correctly rounded to float64: half an ulp of 1.
ROUNDING_BOUND = 2.0 ** -54


def rounded(numerators: np.ndarray, one: int) -> np.ndarray:
    """``numerators / one`` correctly rounded to float64 (Python's int division is)."""
    return np.array([int(x) / one for x in numerators.ravel()], dtype=np.float64).reshape(numerators.shape)


def decimal_digits(p: Fraction, digits: int) -> str:
    """The first ``digits`` decimals of a fraction in [0, 1], truncated."""
    scaled = p.numerator * 10 ** digits // p.denominator
    whole, frac = divmod(scaled, 10 ** digits)
    return f"{whole}.{frac:0{digits}d}"


class ExactUnsupported(HogsolveError, ValueError):
    """Exact mode cannot verify this ruleset (a turn can score 0 points)."""


def check_exact_supported(model: Model) -> None:
    """Raise :class:`ExactUnsupported` unless exact mode covers the model's kind: every turn
    raises the score sum and the state is (score, opponent_score) alone
    (:data:`hogsolve.solver.kinds.UNCOVERED`)."""
    blocked = model.features & UNCOVERED["exact"]
    if Feature.MEMORIES in blocked:
        raise ExactUnsupported(
            f"{model.rules.name}: exact mode does not cover history rules (each player's previous "
            "turn is part of the state); the float certificate bounds the error instead")
    if blocked:
        raise ExactUnsupported(
            f"{model.rules.name}: exact mode cannot verify this ruleset: a turn can score 0 points, "
            "so values solve linear systems that exact mode does not handle; "
            "the float certificate bounds the error instead")


def exact_arithmetic(model: Model) -> Arithmetic:
    """Integers scaled by ``B ** L`` (see the module docstring)."""
    check_exact_supported(model)
    base = lcm(*(int(d) for d in model.denominators))
    weights = np.empty(model.counts.shape, dtype=object)
    for t, d in enumerate(model.denominators):
        weights[t] = model.counts[t].astype(object) * (base // int(d))
    return Arithmetic(object, base ** (2 * model.goal - 1), base, weights)


def exact_values(model: Model, progress=None):
    """Exact ``(numerators[g, g], action_numerators[g, g, A], one, action_one)``: a value is
    its numerator over ``one``, an action's value its numerator over ``action_one`` (the
    dice recurrence of :mod:`hogsolve.solver.dicesums` leaves them over ``one * total``)."""
    arith = exact_arithmetic(model)
    if rolls_are_dice_sums(model):
        values, scaled = recurrence_values(model, arith, progress)
        return values, scaled, arith.one, arith.one * arith.total
    values, action_values, _ = optimal_values(model, arith, keep_action_values=True, progress=progress)
    return values, action_values, arith.one, arith.one


def verify(model: Model, solution, progress=None) -> ExactResult:
    """Recompute ``solution`` exactly and compare it state by state."""
    start = time.perf_counter()
    values, action_values, one, action_one = exact_values(model, progress)
    is_best = action_values == action_values.max(axis=2)[..., None]
    policy = np.argmax(is_best, axis=2).astype(np.int8)  # first optimum: fewest dice
    tied = is_best.sum(axis=2) > 1
    ranked = np.sort(action_values, axis=2)
    gaps = (ranked[..., -1] - ranked[..., -2])[~tied]
    margin = int(gaps.min()) / action_one if gaps.size else float("inf")
    exact_float = rounded(values, one)
    error = float(np.abs(exact_float - solution.values).max())
    mismatches = np.argwhere(policy != solution.policy).astype(np.int32)
    return ExactResult(
        win_probability=exact_float,
        action_values=rounded(action_values, action_one),
        min_decision_margin=margin,
        win_probability_start=Fraction(values[0, 0], one),
        policy=policy,
        exact_tie_states=int(tied.sum()),
        float_policy_mismatches=mismatches,
        max_value_error=error,
        seconds=time.perf_counter() - start,
    )


@dataclasses.dataclass(frozen=True, repr=False)
class TieCheck(ExactStatus):
    """What :func:`verify_ties` proved: every state's exact optimal value, and exactly optimal
    decisions at the certificate's ties (``policy``, fewest dice on exact ties); always
    ``ok``, ``iterations`` the score sums computed exactly."""

    win_probability_start: Fraction
    policy: np.ndarray
    tie_states: int              # the certificate's ties, each settled exactly
    exact_tie_states: int        # of those, states where two dice counts are worth exactly the same
    float_choice_changed: int    # ties where the float policy's choice was not exactly optimal
    max_value_error: float       # largest |float value - exact value|
    seconds: float
    error_bound: float = float("inf")  # the certificate's bound the float values are checked against

    def to_dict(self) -> dict:
        """The check as plain JSON values (the start value as an exact fraction)."""
        p = self.win_probability_start
        return {**self.status(), "method": "exact values from the certified decisions; ties settled exactly",
                "win_probability_start": f"{p.numerator}/{p.denominator}",
                "win_probability_start_decimal": decimal_digits(p, 30), "tie_states": self.tie_states,
                "exact_tie_states": self.exact_tie_states, "float_choice_changed": self.float_choice_changed,
                "max_value_error": self.max_value_error, "seconds": self.seconds}

    def __repr__(self) -> str:
        return (f"TieCheck(P(first player wins) = {decimal_digits(self.win_probability_start, 30)}..., "
                f"{self.tie_states} ties settled exactly ({self.exact_tie_states} exact ties, "
                f"{self.float_choice_changed} float choices changed), float values "
                f"{'within' if self.max_value_error <= self.error_bound else 'BEYOND'} the certificate's bound, "
                f"{self.seconds:.2f} s)")  # the float error itself follows the machine: in to_dict()


def verify_ties(model: Model, solution: Any) -> TieCheck:
    """Every state's exact optimal value, and exact decisions where the certificate has ties,
    at about a tenth of :func:`verify`'s work.

    What is proved, and how: the certificate (a rigorous float bound) proves that outside
    its ties the float policy's dice count is optimal, so there the optimal value is that
    action's value, one exact product per state; at the ties every dice count is valued
    exactly and the best taken (fewest dice on exact ties).  From the largest score sum
    down, every value is then the exact optimal value and every decision optimal.  The
    proof rests on the certificate for the decided states and is exact for the rest; it
    needs a proven certificate.  :func:`verify` checks every decision exactly instead.
    """
    start = time.perf_counter()
    certificate = solution.certificate
    if not certificate.proven:
        raise InputError(f"{model.rules.name}: the certificate does not prove the decided states "
                         f"({certificate.reason}); verify() checks every decision exactly")
    arith = exact_arithmetic(model)
    table = outcome_table(model, arith)
    g = model.goal
    values = np.zeros((g, g), dtype=object)
    policy = np.array(solution.policy, dtype=np.intp)
    tied = np.zeros((g, g), dtype=bool)
    tied[tuple(certificate.tie_states.T)] = True
    exact_ties = changed = 0
    for k in range(2 * g - 2, -1, -1):
        d = model.diagonals[k]
        q = table.chosen_values(k, policy[d.s, d.o])
        rows = np.flatnonzero(tied[d.s, d.o])
        if rows.size:
            every = table.action_values(k, rows)
            best = every.max(axis=1)
            is_best = every == best[:, None]
            choice = np.argmax(is_best, axis=1)  # fewest dice among the exact best
            exact_ties += int((is_best.sum(axis=1) > 1).sum())
            changed += int((choice != policy[d.s[rows], d.o[rows]]).sum())
            policy[d.s[rows], d.o[rows]] = choice
            q[rows] = best
        values[d.s, d.o] = q
        table.fill(k, values)
    error = float(np.abs(rounded(values, arith.one) - solution.values).max())
    return TieCheck(Fraction(values[0, 0], arith.one), policy.astype(np.int8), len(certificate.tie_states),
                    exact_ties, changed, error, time.perf_counter() - start, certificate.error_bound)
