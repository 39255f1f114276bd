"""A checkable certificate that a float solution is optimal.

The certificate measures the Bellman residual of the computed values and
turns it, with a standard floating-point error analysis, into a rigorous
bound on the distance to the true optimal values:

* one backup (a sum of at most ``n`` products of a float probability and
  ``1 - value``) is off by at most ``step = gamma(n + 3)``, where
  ``gamma(k) = k u / (1 - k u)`` and ``u = 2**-53``;
* the score sum never falls, and a turn stays on the same sum with
  probability at most ``rho`` (0 when every turn scores), so the error grows
  by at most ``(residual + step) / (1 - rho)`` per score sum, and
  ``error_bound = (2 goal - 1) (residual + step) / (1 - rho)``.

A dice count is proven optimal at a state when it beats every other count by
more than ``tie_threshold = 2 (error_bound + step)``; the other states are
listed as ties within the bound (exact ties included) and are settled by the
exact verification in :mod:`hogsolve.exact`.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from .model import Model

UNIT_ROUNDOFF = 2.0 ** -53


def gamma(k: int) -> float:
    """Higham's gamma_k: relative error bound of k floating-point operations."""
    return k * UNIT_ROUNDOFF / (1 - k * UNIT_ROUNDOFF)


@dataclasses.dataclass(repr=False)
class Certificate:
    """Evidence of optimality of a float solution (see the module docstring)."""

    method: str
    updates: int  # score-sum updates: 2 goal - 1 for one sweep
    max_bellman_residual: float
    backup_error: float
    stay_probability: float
    error_bound: float
    tie_threshold: float
    min_decision_margin: float
    tie_states: np.ndarray  # (n, 2) [score, opponent_score]

    @property
    def proven(self) -> bool:
        """True when the error bound is finite (a rigorous certificate)."""
        return bool(np.isfinite(self.error_bound))

    def to_dict(self) -> dict:
        return {
            "method": self.method,
            "updates": self.updates,
            "max_bellman_residual": self.max_bellman_residual,
            "backup_error": self.backup_error,
            "stay_probability": self.stay_probability,
            "error_bound": self.error_bound,
            "tie_threshold": self.tie_threshold,
            "min_decision_margin": self.min_decision_margin,
            "num_tie_states": int(len(self.tie_states)),
            "proven": self.proven,
        }

    def __repr__(self) -> str:
        return (
            f"Certificate({self.method}, {self.updates} score-sum updates)\n"
            f"  max Bellman residual = {self.max_bellman_residual:.3g}\n"
            f"  error bound on values = {self.error_bound:.3g}\n"
            f"  smallest decision margin = {self.min_decision_margin:.3g}\n"
            f"  ties within the bound = {len(self.tie_states)} states"
        )


def stay_probability(model: Model) -> float:
    """Largest chance, over states and actions, that a turn scores 0 points."""
    if (model.free_bacon_points == 0).any():
        return 1.0
    return float(model.probability[:, 1:, 0].max())


def certify(model: Model, values: np.ndarray, action_values: np.ndarray, updates: int) -> Certificate:
    """Certificate of ``values[s, o]`` given ``action_values[s, o, n]``, one fresh
    backup of every state from ``values`` (see the module docstring)."""
    step = gamma(model.max_outcomes_per_action + 3)
    residual = float(np.abs(action_values.max(axis=2) - values).max())
    rho = 0.0 if model.progressive else stay_probability(model)
    diagonals = 2 * model.goal - 1
    bound = diagonals * (residual + step) / (1 - rho) if rho < 1 else float("inf")
    threshold = 2 * (bound + step)

    ranked = np.sort(action_values, axis=2)
    margin = ranked[..., -1] - ranked[..., -2]
    tied = margin <= threshold
    decided = margin[~tied]
    return Certificate(
        method="one sweep: every turn raises the score sum" if model.progressive
        else "iterated each score sum to convergence",
        updates=updates,
        max_bellman_residual=residual,
        backup_error=step,
        stay_probability=rho,
        error_bound=bound,
        tie_threshold=threshold,
        min_decision_margin=float(decided.min()) if decided.size else float("inf"),
        tie_states=np.argwhere(tied).astype(np.int32),
    )


def tie_broken_policy(action_values: np.ndarray, threshold: float) -> np.ndarray:
    """Fewest dice among the counts within ``threshold`` of the best, per state."""
    near_best = action_values >= action_values.max(axis=2, keepdims=True) - threshold
    return np.argmax(near_best, axis=2).astype(np.int8)
