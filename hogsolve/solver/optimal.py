"""Optimal play by value iteration over the compiled model.

``solve(rules)`` returns, for every state (score, opponent_score) below the
goal with the player to move, the probability of winning under optimal play
by both players, the value of every dice count, and the optimal dice count.

Every turn scores at least 0 points and a swap keeps the score sum, so the
sum never falls.  When every turn scores at least 1 (all built-in rulesets),
a state depends only on states of larger sum, and one pass in decreasing
sum order is exact.  Otherwise the pass repeats until the values settle.

Ties: when several dice counts are optimal, the fewest dice is chosen.  In
floats, "optimal" means within the certificate's tie threshold of the best
value (a rigorous bound on rounding), so exact ties are broken the same way
as in exact arithmetic; ``solve(rules, exact=True)`` checks every state.
"""
from __future__ import annotations

import dataclasses
import time
from typing import Optional


from .kinds import backup_all
from .certificate import certify, policy_threshold, tie_broken_policy
from .exact import check_exact_supported, verify
from .iteration import gathered_optimal_values, lean_optimal_values, optimal_values
from .model import Model, model_for
from ..hog.rules import Ruleset
from .passes import roll_rather_than_pass, zero_dice_passes
from .stages import gather_plan, stage_plan
from .solution import Solution
from .memory import check_fits

def solve(rules: Ruleset, exact: bool = False, *, model: Optional[Model] = None,
          progress=None) -> Solution:
    """Optimal win probabilities, action values and policy of ``rules``.

    With ``exact=True`` the whole table is recomputed in exact rational
    arithmetic, the float policy is checked state by state (the exact policy
    is kept), and ``solution.exact`` reports the exact win probability at
    (0, 0).  Exact mode needs every turn to score (see :mod:`hogsolve.solver.exact`);
    otherwise it raises :class:`hogsolve.solver.exact.ExactUnsupported` before solving.
    Then ``values`` and ``action_values`` are the exact values
    correctly rounded to float64.  ``progress(stages, total)`` may wrap the
    score sums of each pass (e.g. a progress bar).  A solve that would not fit in the
    memory available raises :class:`hogsolve.solver.memory.MemoryLimitError` first.
    """
    start = time.perf_counter()
    if model is None:
        check_fits(rules, exact=exact, physical=True)
    model = model_for(rules, model)
    if exact:
        check_exact_supported(model)
    plan, gathered = stage_plan(model), gather_plan(model)
    if plan is not None:
        values, action_values, result = lean_optimal_values(model, plan, progress)
    elif gathered is not None:
        values, action_values, result = gathered_optimal_values(model, gathered)
    elif model.progressive:  # each sum's action values come from final larger sums: the backup
        values, action_values, result = optimal_values(model, keep_action_values=True, progress=progress)
    else:
        values, _, result = optimal_values(model, progress=progress)
        action_values = backup_all(model, values)
    certificate = certify(model, values, action_values, result)
    threshold = policy_threshold(certificate.tie_threshold)
    policy = tie_broken_policy(action_values, threshold)
    passes = zero_dice_passes(model)
    if passes is not None:
        policy = roll_rather_than_pass(policy, action_values, threshold, passes)
    solution = Solution(
        game=rules,
        values=values,
        action_values=action_values,
        policy=policy,
        certificate=certificate,
        solve_seconds=time.perf_counter() - start,
    )
    if exact:
        checked = verify(model, solution, progress=progress)
        # Keep the exact policy and the exact values, correctly rounded: the
        # same bytes on every machine (the float ones differ in the last bits).
        solution = dataclasses.replace(
            solution, exact=checked, policy=checked.policy, values=checked.win_probability,
            action_values=checked.action_values, solve_seconds=time.perf_counter() - start)
    return solution
