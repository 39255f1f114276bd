"""Optimal play by value iteration over the compiled model.

``solve(rules)`` returns, for every state (score, opponent_score) below the
goal with the player to move, the probability of winning under optimal play
by both players, the value of every dice count, and the optimal dice count.

Every turn scores at least 0 points and a swap keeps the score sum, so the
sum never falls.  When every turn scores at least 1 (all built-in rulesets),
a state depends only on states of larger sum, and one sweep in decreasing
sum order is exact.  Otherwise the sweep repeats until the values settle.

Ties: when several dice counts are optimal, the fewest dice is chosen.  In
floats, "optimal" means within the certificate's tie threshold of the best
value (a rigorous bound on rounding), so exact ties are broken the same way
as in exact arithmetic; ``solve(rules, exact=True)`` checks every state.
"""
from __future__ import annotations

import dataclasses
import time
from typing import Optional

import numpy as np

from .backup import Arithmetic, OutcomeTable, backup_all, sweep
from .certificate import Certificate, certify, tie_broken_policy
from .model import Model, compile_model
from .rules import Ruleset

TIE_BREAK = "fewest dice among the optimal dice counts"


@dataclasses.dataclass(repr=False)
class Solution:
    """Optimal values and policy of a ruleset.

    Arrays are indexed ``[score, opponent_score]`` with the player to move
    first: ``win_probability[s, o]`` is the mover's chance of winning under
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
    exact: Optional[object] = None

    @property
    def goal(self) -> int:
        return self.rules.goal

    @property
    def first_player_win_probability(self) -> float:
        return float(self.win_probability[0, 0])

    @property
    def opening_move(self) -> int:
        return int(self.policy[0, 0])

    def to_dict(self) -> dict:
        """Summary for --json output and meta.json (no big arrays)."""
        out = {
            "rules": self.rules.summary(),
            "first_player_win_probability": self.first_player_win_probability,
            "opening_move": self.opening_move,
            "tie_break": TIE_BREAK,
            "solve_seconds": self.solve_seconds,
            "certificate": self.certificate.to_dict(),
        }
        if self.exact is not None:
            out["exact"] = self.exact.to_dict()
        return out

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


def optimal_values(model: Model, arithmetic: Optional[Arithmetic] = None, *,
                   keep_action_values: bool = False):
    """Value iteration in decreasing score-sum order (see :func:`backup.sweep`).

    Returns ``(values[g, g], action_values[g, g, A] or None, updates)``, in
    floats unless ``arithmetic`` says otherwise (:mod:`hogsolve.exact` passes
    exact integers).  The float solver leaves the action values to one fresh
    backup of the finished table, which also measures the Bellman residual.
    """
    g = model.goal
    table = OutcomeTable(model, arithmetic)
    values = np.zeros((g, g), dtype=table.arith.dtype)
    flat_values = values.reshape(-1)
    kept = np.zeros((g * g, model.num_actions), dtype=table.arith.dtype) if keep_action_values else None

    def update(k: int) -> float:
        states = model.diagonals[k].flat
        q = table.action_values(k)
        best = q.max(axis=1)
        change = 0.0 if model.progressive else float(np.abs(best - flat_values[states]).max())
        flat_values[states] = best
        if kept is not None:
            kept[states] = q
        table.fill(k, values)
        return change

    updates = sweep(model, update)
    return values, None if kept is None else kept.reshape(g, g, -1), updates


def solve(rules: Ruleset, exact: bool = False, *, model: Optional[Model] = None) -> Solution:
    """Optimal win probabilities, action values and policy of ``rules``.

    With ``exact=True`` the whole table is recomputed in exact rational
    arithmetic, the float policy is checked state by state (the exact policy
    is kept), and ``solution.exact`` reports the exact win probability at
    (0, 0).
    """
    start = time.perf_counter()
    model = model if model is not None else compile_model(rules)
    values, _, updates = optimal_values(model)
    action_values = backup_all(model, values)
    certificate = certify(model, values, action_values, updates)
    policy = tie_broken_policy(action_values, certificate.tie_threshold)
    solution = Solution(
        rules=rules,
        win_probability=values,
        action_values=action_values,
        policy=policy,
        certificate=certificate,
        solve_seconds=time.perf_counter() - start,
    )
    if exact:
        from .exact import verify
        solution.exact = verify(model, solution)
        solution.policy = solution.exact.policy  # identical unless the float one erred
    return solution
