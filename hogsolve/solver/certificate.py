"""A checkable certificate that a float solution is optimal.

The certificate measures the Bellman residual of the computed values and
turns it, with a standard floating-point error analysis, into a rigorous
bound on the distance to the true optimal values:

* one backup (a sum of at most ``n`` products of a float probability and
  ``1 - value``) is off by at most ``step = gamma(n + 3)``, where
  ``gamma(k) = k u / (1 - k u)`` and ``u = 2**-53``;
* the score sum never falls.  On score sum ``k`` a turn stays on ``k`` (scores
  0 points) with probability at most ``rho_k`` over every state and action
  (0 when every turn scores).  With ``r_k`` the largest measured residual on
  ``k`` and ``E_k`` the largest error on sums ``k`` and above, the Bellman
  equation gives ``e <= r_k + step + rho_k e + (1 - rho_k) E_{k+1}``, so
  ``E_k <= E_{k+1} + (r_k + step) / (1 - rho_k)``; summed over every sum,
  that is ``error_bound``.  Where the sums are iterated, ``r_k`` is charged at
  least ``step`` (a residual at the rounding level is machine noise; see
  :func:`charged_residuals`), so the bound is the same on every machine.  This covers games with cycles (a turn that
  leaves the scores unchanged) as long as every ``rho_k < 1``.  Passes
  (:mod:`hogsolve.solver.passes`) are measured against their closed form
  instead, which is 1-Lipschitz in larger sums' values: there ``rho_k`` is 0.

A dice count is proven optimal at a state when it beats every other count by
more than ``tie_threshold = 2 (error_bound + step)``; the other states are
listed as ties within the bound (exact ties included) and are settled by the
exact verification in :mod:`hogsolve.solver.exact`.

``proven`` is true only when the iteration converged on every score sum,
the bound is finite and at most :data:`PROOF_TOLERANCE`, every residual lies
within it, and it is below half the smallest decision margin outside the
ties; otherwise ``reason`` says in words what is missing.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Optional, Tuple

import numpy as np

from .iteration import UNIT_ROUNDOFF, IterationResult
from ..util.plain import plain
from .model import Model
from .passes import closed_form, zero_dice_passes
from ..util.status import Proof

#: Largest error bound on values that still counts as a proof (a sanity cap: what proves a
#: decision is the bound being below half its margin).  Pig's bound, with its residuals charged a
#: full rounding step, is 1.2e-9.
PROOF_TOLERANCE = 1e-8


def policy_threshold(tie_threshold: float) -> float:
    """The threshold a policy breaks ties within: the certificate's, capped at twice
    :data:`PROOF_TOLERANCE`.  An unproven solution's bound can be huge or infinite (an endless
    game); ties within it would pick the fewest dice among nearly every count, a policy far
    from the argmax of the values shown beside it.  Capped, the choice is within 2e-8 of the
    best, so it is the argmax of the values as printed."""
    return min(tie_threshold, 2 * PROOF_TOLERANCE)


def gamma(k: int) -> float:
    """Higham's gamma_k: relative error bound of k floating-point operations."""
    return k * UNIT_ROUNDOFF / (1 - k * UNIT_ROUNDOFF)


@dataclasses.dataclass(frozen=True, repr=False)
class Certificate(Proof):
    """Evidence of optimality of a float solution (see the module docstring); ``ok`` when
    proven, ``message`` the reason otherwise, ``iterations`` the score-sum updates."""

    method: str
    updates: int  # score-sum updates: 2 goal - 1 for one pass
    max_bellman_residual: float
    backup_error: float
    stay_probability: float  # largest rho_k
    error_bound: float
    tie_threshold: float
    min_decision_margin: float
    tie_states: np.ndarray  # (n, 2) [score, opponent_score] (plus the context's indices, if any)
    stuck_stages: Tuple[int, ...] = ()  # score sums whose iteration hit its cap
    reason: str = ""  # why not proven ('' when proven)

    @property
    def converged(self) -> bool:
        """True when the iteration settled on every score sum."""
        return not self.stuck_stages

    @property
    def iterations(self) -> int:
        """Score-sum updates (2 goal - 1 for one pass)."""
        return self.updates

    #: What ``updates`` counts.
    update_unit = "score-sum updates"

    def usable(self, proof: Optional[Any] = None) -> bool:
        """Whether a table with this certificate may be shipped: the iteration converged, and a
        proof by the error bound (where there is one) found every decision proven, none wrong."""
        return self.converged and (proof is None or (self.proven and not proof.wrong))


    def to_dict(self) -> dict:
        """The certificate as plain JSON values."""
        return plain({
            **self.status(),
            "method": self.method,
            "updates": self.updates,
            "converged": self.converged,
            "stuck_stages": list(self.stuck_stages),
            "max_bellman_residual": self.max_bellman_residual,
            "backup_error": self.backup_error,
            "stay_probability": self.stay_probability,
            "error_bound": self.error_bound,
            "tie_threshold": self.tie_threshold,
            "min_decision_margin": self.min_decision_margin,
            "num_tie_states": int(len(self.tie_states)),
            "proven": self.proven,
            "reason": self.reason,
        })

    def __repr__(self) -> str:
        status = "proven" if self.proven else f"NOT proven: {self.reason}"
        return (
            f"{type(self).__name__}({self.method}, {self.updates} {self.update_unit})\n"
            f"  max Bellman residual = {self.max_bellman_residual:.3g}\n"
            f"  error bound on values = {self.error_bound:.3g}\n"
            f"  smallest decision margin = {self.min_decision_margin:.3g}\n"
            f"  ties within the bound = {len(self.tie_states)} states\n"
            f"  {status}"
        )


def stay_probabilities(model: Model) -> np.ndarray:
    """``rho[s, o]``: the largest chance, over actions, that a turn from (s, o) scores 0."""
    by_kind = model.probability[:, 1:, 0].max(axis=1)  # (T,) rolling dice scores 0
    rho = by_kind[model.dice_kind]
    if model.rules.min_dice:  # zero dice is not a move
        return rho
    return np.where(model.free_bacon_points == 0, 1.0, rho)


def _by_score_sum(model: Model, grid: np.ndarray) -> np.ndarray:
    """Largest entry of ``grid[s, o]`` on each score sum ``s + o``."""
    g = model.goal
    s, o = np.meshgrid(np.arange(g), np.arange(g), indexing="ij")
    out = np.zeros(2 * g - 1)
    np.maximum.at(out, (s + o).ravel(), grid.ravel())
    return out


def backup_error(model: Model) -> float:
    """Rounding error of one backup: ``gamma(n + 3)`` for sums of ``n`` terms (module doc)."""
    return gamma(model.max_outcomes_per_action + 3)


def stay_by_score_sum(model: Model) -> np.ndarray:
    """``rho_k``: the largest chance that a turn stays on score sum ``k`` (0 when every turn scores)."""
    if model.progressive:
        return np.zeros(2 * model.goal - 1)
    return _by_score_sum(model, stay_probabilities(model))


def charged_residuals(model: Model, residual_by_sum: np.ndarray, step: float, own_backup: bool = True) -> np.ndarray:
    """The residual each score sum is charged in the bound: as measured against a one-pass
    solve's own backup (0 by construction on every machine), else at least one rounding
    ``step`` (an iterated sum, or a fresh backup by another path: there the measured residual
    is noise of that size, which follows the machine's summation order; charging the step
    makes the bound the same number everywhere)."""
    return residual_by_sum if model.progressive and own_backup else np.maximum(residual_by_sum, step)


def value_error_bound(model: Model, residual_by_sum: np.ndarray, rho: np.ndarray) -> float:
    """Rigorous bound on |computed - true| values from each score sum's residual and
    ``rho = stay_by_score_sum(model)`` (module doc)."""
    if (rho >= 1).any():
        return float("inf")
    return float(np.sum((residual_by_sum + backup_error(model)) / (1 - rho)))


def rounding_tie_threshold(model: Model) -> float:
    """The tie threshold of a pass whose only error is rounding (zero measured residual).

    Used by algorithms that break ties like the solver without a fresh
    residual of their own, e.g. the best response.
    """
    bound = value_error_bound(model, np.zeros(2 * model.goal - 1), stay_by_score_sum(model))
    return 2 * (bound + backup_error(model))


def certify(model: Model, values: np.ndarray, action_values: np.ndarray,
            iteration: IterationResult, *, own_backup: bool = True) -> Certificate:
    """Certificate of ``values[s, o, ...]`` given ``action_values[s, o, ..., n]``, a backup
    of every state from the finished ``values``: a fresh one, or a one-pass solve's own
    (each sum computed once from larger sums already final: the same backup); see the
    module docstring.  The ``...`` is the model's context (players' memories), if any;
    ``own_backup=False`` for action values backed up afresh by another path (the proofs of
    :mod:`hogsolve.solver.bound_check`), whose residual is charged at least a step."""
    step = backup_error(model)
    residuals = np.abs(action_values.max(axis=-1) - values)
    rho = stay_by_score_sum(model)
    passes = zero_dice_passes(model)
    if passes is not None:  # a pass is measured against its closed form, whose errors do not grow
        target = closed_form(action_values, passes, model.rules.endless == "draw")
        residuals = np.where(passes, np.maximum(residuals, np.nan_to_num(np.abs(values - target), nan=np.inf)),
                             residuals)
        rho = np.zeros_like(rho)
    residual = float(residuals.max())
    by_scores = residuals.reshape(model.goal, model.goal, -1).max(axis=2)  # worst over any memories
    bound = value_error_bound(model, charged_residuals(model, _by_score_sum(model, by_scores), step, own_backup), rho)
    threshold = 2 * (bound + step)

    margin = _top_two_gap(action_values)
    tied = margin <= threshold
    decided = margin[~tied]
    min_margin = float(decided.min()) if decided.size else float("inf")

    if not iteration.converged:
        reason = iteration.describe_stuck()
        endless = endless_passes(model, action_values)
        if endless:
            (s, o), (s2, o2) = endless[0]
            reason = (f"both players prefer passing forever at ({s}, {o}) and ({s2}, {o2}) (zero dice score 0 "
                      "there for either, and rolling is worth less than the other's turn): an endless game, "
                      "so optimal play has no value")
    elif not np.isfinite(bound):
        k = int(np.argmax(rho >= 1))
        reason = (f"a turn can stay on score sum {k} for sure (rolling zero dice scores 0), "
                  f"so no error bound follows from the residual {residual:.3g}")
    elif bound > PROOF_TOLERANCE:
        reason = (f"the error bound {bound:.3g} (Bellman residual {residual:.3g}) exceeds "
                  f"{PROOF_TOLERANCE:g}")
    elif not (residual <= bound and 2 * bound < min_margin):
        reason = "the error bound does not separate the decisions outside the ties"
    else:
        reason = ""
    return Certificate(
        method="one sweep: every turn raises the score sum" if model.progressive
        else "iterated each score sum to convergence",
        updates=iteration.updates,
        max_bellman_residual=residual,
        backup_error=step,
        stay_probability=float(rho.max()),
        error_bound=bound,
        tie_threshold=threshold,
        min_decision_margin=min_margin,
        tie_states=np.argwhere(tied).astype(np.int32),
        stuck_stages=iteration.stuck_stages,
        reason=reason,
    )


def _top_two_gap(action_values: np.ndarray) -> np.ndarray:
    """Best minus second-best action value per state (0 where two are equal): a pass over
    the actions keeping the best two, a block of score rows at a time."""
    margin = np.empty(action_values.shape[:-1])
    for rows, acts in _actions_first(action_values):
        best, second = np.full(acts.shape[1:], -np.inf), np.full(acts.shape[1:], -np.inf)
        lower = np.empty(acts.shape[1:])
        for values in acts:
            np.maximum(second, np.minimum(best, values, out=lower), out=second)
            np.maximum(best, values, out=best)
        np.subtract(best, second, out=margin[rows])
    return margin


def _actions_first(action_values: np.ndarray, rows: int = 128):
    """``(rows, acts)`` per block of score rows, ``acts[n]`` the block's values of action n,
    contiguous (a copy of the block when the actions are the last axis in memory): whole
    tables of temporaries would raise the peak memory at large goals."""
    for start in range(0, len(action_values), rows):
        block = np.moveaxis(action_values[start: start + rows], -1, 0)
        yield slice(start, start + rows), block if block[0].flags.c_contiguous else np.ascontiguousarray(block)


def endless_passes(model: Model, action_values: np.ndarray) -> list:
    """Pairs of states ``((s, o), (o, s))`` where rolling zero dice scores 0 for both movers
    and, with the values computed, each prefers handing the move back to rolling: the
    rolls are worth ``R1 + R2 < 1``, so neither ever rolls and every split of the
    endless game between the two is an equilibrium (no unique value).  Empty when
    every turn scores."""
    if model.progressive or model.context_shape:
        return []
    g = model.goal
    s, o = np.nonzero(model.free_bacon_points == 0)
    lands = model.after[s, o]
    back = (lands == o * g + s) & (model.free_bacon_points[o, s] == 0) & (model.after[o, s] == s * g + o)
    rolls = action_values[..., 1:].max(axis=-1)
    both = back & (rolls[s, o] + rolls[o, s] < 1) & (s < o)
    return [((int(a), int(b)), (int(b), int(a))) for a, b in zip(s[both], o[both])]


def tie_broken_policy(action_values: np.ndarray, threshold: float) -> np.ndarray:
    """Fewest dice among the counts within ``threshold`` of the best, per state."""
    policy = np.empty(action_values.shape[:-1], dtype=np.int8)
    count = action_values.shape[-1]
    # the fewest near-best dice n has the largest count - n among the near-best
    rank = np.arange(count, 0, -1, dtype=np.int8).reshape((-1,) + (1,) * (action_values.ndim - 1))
    for rows, acts in _actions_first(action_values):
        near = acts >= acts.max(axis=0) - threshold
        np.subtract(count, np.multiply(near, rank, dtype=np.int8).max(axis=0), out=policy[rows])
    return policy
