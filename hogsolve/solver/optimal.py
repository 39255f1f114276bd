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
from typing import Any, Optional

import numpy as np

from .backup import backup_all
from .certificate import Certificate, certify, policy_threshold, tie_broken_policy
from .exact import check_exact_supported, verify
from .iteration import gathered_optimal_values, lean_optimal_values, optimal_values
from .model import Model, model_for
from ..util.plain import plain
from ..hog.rules import Ruleset
from .passes import roll_rather_than_pass, zero_dice_passes
from .stages import gather_plan, stage_plan
from .solution import Solution
from .memory import check_fits

#: The one tie rule of every table, the player and the web: the fewest dice among the optimal
#: counts (a roll rather than a pass that only ties; in the roll-or-hold games, a hold).  Ties are
#: settled exactly where the exact checks reach; elsewhere "optimal" is "within the tie threshold".
TIE_BREAK = "fewest dice among the optimal dice counts"


@dataclasses.dataclass(frozen=True, repr=False)
class HogSolution(Solution):
    """Optimal values and policy of a Hog ruleset; ``ok``, ``message`` and ``iterations`` are its
    certificate's.

    Arrays are indexed ``[score, opponent_score]`` with the player to move
    first (then, under a history rule, ``[mover's memory, opponent's memory]``):
    ``win_probability[s, o]`` is the mover's chance of winning under
    optimal play, ``action_values[s, o, n]`` the chance when rolling ``n``
    dice now and playing optimally after, ``policy[s, o]`` the optimal dice
    count (fewest dice on ties).
    """

    rules: Ruleset
    win_probability: np.ndarray
    action_values: np.ndarray
    policy: np.ndarray
    certificate: Certificate
    solve_seconds: float
    exact: Optional[Any] = None  # an ExactResult when solved with exact=True
    proof: Optional[Any] = None  # a BoundCheck of the policy where rationals do not reach (solver.prove)

    @property
    def game(self) -> Ruleset:
        """The ruleset solved (the name every game's solution gives its rules)."""
        return self.rules

    @property
    def values(self) -> np.ndarray:
        """``win_probability``: the mover's optimal chance of winning, per state."""
        return self.win_probability

    def __call__(self, score: int, opponent_score: int, *context: int) -> int:
        """The optimal dice count at (score, opponent_score), then the memories under a history rule."""
        return int(self.policy[(score, opponent_score) + tuple(self.rules.context_index(context))])

    @property
    def converged(self) -> bool:
        """False when value iteration hit its cap on some score sum (see the certificate)."""
        return self.certificate.converged

    @property
    def usable(self) -> bool:
        """Whether the table may be shipped: value iteration converged, and a proof by the error
        bound (where there is one: :func:`hogsolve.solver.prove.prove`) found every decision
        proven and none wrong."""
        return self.converged and (self.proof is None or (self.certificate.proven and not self.proof.wrong))

    @property
    def opening_move(self) -> int:
        """The optimal number of dice at (0, 0)."""
        return int(self.policy[(0,) * self.policy.ndim])

    def to_dict(self) -> dict:
        """Summary for --json output and meta.json (no big arrays)."""
        out = {
            **self.status(),
            "rules": self.rules.summary(),
            "first_player_win_probability": self.first_player_win_probability,
            "opening_move": self.opening_move,
            "tie_break": TIE_BREAK,
            "solve_seconds": self.solve_seconds,
            "certificate": self.certificate.to_dict(),
        }
        if self.exact is not None:
            out["exact"] = self.exact.to_dict()
        elif self.proof is not None:  # the proof by the error bound, under the same key
            out["exact"] = self.proof.to_dict()
        return plain(out)

    def __repr__(self) -> str:
        lines = [
            f"Solution({self.rules.name}, goal={self.goal})",
            f"  P(first player wins) = {self.first_player_win_probability:.12f}",
            f"  opening move         = {self.opening_move} dice",
            f"  solve time           = {self.solve_seconds * 1000:.1f} ms",
            "  " + repr(self.certificate).replace("\n", "\n  "),
        ]
        if self.exact is not None:
            lines.append("  " + repr(self.exact).replace("\n", "\n  "))
        return "\n".join(lines)


def solve(rules: Ruleset, exact: bool = False, *, model: Optional[Model] = None,
          progress=None) -> HogSolution:
    """Optimal win probabilities, action values and policy of ``rules``.

    With ``exact=True`` the whole table is recomputed in exact rational
    arithmetic, the float policy is checked state by state (the exact policy
    is kept), and ``solution.exact`` reports the exact win probability at
    (0, 0).  Exact mode needs every turn to score (see :mod:`hogsolve.solver.exact`);
    otherwise it raises :class:`hogsolve.solver.exact.ExactUnsupported` before solving.
    Then ``win_probability`` and ``action_values`` are the exact values
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
    solution = HogSolution(
        rules=rules,
        win_probability=values,
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
            solution, exact=checked, policy=checked.policy, win_probability=checked.win_probability,
            action_values=checked.action_values, solve_seconds=time.perf_counter() - start)
    return solution
