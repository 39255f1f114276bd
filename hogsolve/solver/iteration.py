"""Value iteration in decreasing score-sum order, with honest stopping.

A turn never lowers the score sum, so the states of one sum (a stage) depend
only on themselves and on larger sums.  :func:`by_score_sum` updates the stages from
the largest sum down; a stage is updated once when every turn scores, and
otherwise repeatedly until it settles or hits a per-stage cap, which is
recorded in the :class:`IterationResult` rather than passed over.
"""
from __future__ import annotations

from ..errors import HogsolveError
import dataclasses
from typing import Callable, Iterable, Optional, Tuple

import numpy as np

from .backup import Arithmetic, OutcomeTable
from .kinds import outcome_table
from .mirrored import solve_mirrored, staying_together
from .passes import pass_values
from .model import Feature, Model
from .stages import StagePlan, landing_values

UNIT_ROUNDOFF = 2.0 ** -53
#: A stage has settled when one update changes no value by more than this:
#: a few rounding errors of values in [0, 1].
SETTLED = 64 * UNIT_ROUNDOFF
#: ... or when the change has not fallen for ``PATIENCE`` updates in a row while
#: below ``PLATEAU``: rounding, not the iteration, then limits the change.
PLATEAU = 1e-9
PATIENCE = 32
#: Most updates of one score sum before it is reported as not converged.
STAGE_CAP = 20_000
#: A contraction's change falls at every update; one that has not fallen for
#: this many updates in a row, above the plateau, is oscillating: not converged.
STUCK_PATIENCE = 1_000


class ConvergenceError(HogsolveError, RuntimeError):
    """An iteration hit its cap: its values are not to be trusted."""


@dataclasses.dataclass(frozen=True)
class IterationResult:
    """How a pass went: updates made and the score sums that hit the cap."""

    updates: int
    stuck_stages: Tuple[int, ...] = ()

    @property
    def converged(self) -> bool:
        """True when no score sum hit its cap."""
        return not self.stuck_stages

    def describe_stuck(self) -> str:
        """Words for the stages that did not converge ('' when all did)."""
        if self.converged:
            return ""
        shown = ", ".join(str(k) for k in self.stuck_stages[:5])
        more = f" and {len(self.stuck_stages) - 5} more" if len(self.stuck_stages) > 5 else ""
        return (f"the iteration did not converge on score sum(s) {shown}{more} (the change stopped "
                f"falling above rounding, or {STAGE_CAP} updates passed)")

    def check(self, what: str) -> "IterationResult":
        """Raise :class:`ConvergenceError` unless converged."""
        if not self.converged:
            raise ConvergenceError(f"{what}: {self.describe_stuck()}")
        return self


def by_score_sum(model: Model, update: Callable[[int], float], *, stage_cap: Optional[int] = None,
          progress: Optional[Callable[[Iterable[int], int], Iterable[int]]] = None) -> IterationResult:
    """Run ``update(k) -> change`` for every score sum k from the largest down.

    When every turn scores, each sum needs one update (its values depend
    only on larger sums).  Otherwise a sum repeats until it has settled (see
    :data:`SETTLED` and :data:`PLATEAU`), at most ``stage_cap`` times; a sum
    that hits the cap, or whose change stops falling far above rounding
    (:data:`STUCK_PATIENCE`), is recorded, never silently accepted, and the
    later sums still get their own full budget.  ``progress(stages, total)`` may
    wrap the stages, e.g. to draw a progress bar.
    """
    stage_cap = STAGE_CAP if stage_cap is None else stage_cap
    updates, stuck = 0, []
    stages: Iterable[int] = range(2 * model.goal - 2, -1, -1)
    if progress is not None:
        stages = progress(stages, 2 * model.goal - 1)
    for k in stages:
        lowest, stale = float("inf"), 0
        for _ in range(stage_cap):
            updates += 1
            change = update(k)
            if model.progressive or change <= SETTLED:
                break
            if change < lowest:
                lowest, stale = change, 0
            else:
                stale += 1
                if stale >= PATIENCE and lowest <= PLATEAU:
                    break
                if stale >= STUCK_PATIENCE:
                    stuck.append(k)
                    break
        else:
            stuck.append(k)
    return IterationResult(updates, tuple(stuck))


def optimal_values(model: Model, arithmetic: Optional[Arithmetic] = None, *,
                   keep_action_values: bool = False, progress=None):
    """Value iteration in decreasing score-sum order (see :func:`by_score_sum`).

    Returns ``(values, action_values or None, pass result)``, shaped
    ``model.value_shape`` (plus the actions), in
    floats unless ``arithmetic`` says otherwise (:mod:`hogsolve.solver.exact` passes
    exact integers).  Where :func:`lean_optimal_values` does not apply, the float solver
    leaves the action values to one fresh backup of the finished table, which also
    measures the Bellman residual.
    """
    table = outcome_table(model, arithmetic)
    values = np.zeros(model.value_shape, dtype=table.arith.dtype)
    # actions first: the certificate and the tie-break read each action's values whole
    kept = np.zeros((model.num_actions,) + model.value_shape, dtype=table.arith.dtype) if keep_action_values \
        else None

    def update(k: int) -> float:
        d = model.diagonals[k]
        q = table.action_values(k)
        best = q.max(axis=-1)
        change = 0.0 if model.progressive else float(np.abs(best - values[d.s, d.o]).max())
        values[d.s, d.o] = best
        if kept is not None:
            kept[:, d.s, d.o] = np.moveaxis(q, -1, 0)
        table.fill(k, values)
        return change

    result = by_score_sum(model, update, progress=progress)
    return values, None if kept is None else np.moveaxis(kept, 0, -1), result


def lean_optimal_values(model: Model, plan: StagePlan,
                        progress=None) -> Tuple[np.ndarray, np.ndarray, IterationResult]:
    """:func:`optimal_values` in floats over ``plan`` (see :mod:`hogsolve.solver.stages`): one
    pass, a few numpy calls per score sum (``progress`` as for :func:`by_score_sum`).

    Returns ``(values, action_values, pass result)``.  Each sum's action values are
    computed once, from larger sums already final, so they are exactly a backup of the
    finished table and the certificate needs no second one.  ``action_values`` is a view
    of an actions-first array, which the certificate and the tie-break read fastest."""
    g, n = model.goal, model.num_states
    # each state solved with its mirror (turns scoring 0), unless only zero dice pass
    zero_turns = Feature.ZERO_POINT_TURNS in model.features and not plan.passes
    rounds = 0
    if zero_turns:
        stay, columns = model.probability[:, :, 0].copy(), [np.arange(m) for m in range(g + 1)]
        together = [staying_together(z) for z in stay]
    table = OutcomeTable(model)
    outcomes, cells = table.table, table.table.reshape(-1)
    w = model.probability
    A, P = w.shape[1:]
    below = model.rules.min_dice  # dice counts that are no move
    sums = np.empty((A, n))  # the next mover's chance after each action, by flat state
    known = landing_values(model)
    values, own_loss = known[:n], known[n: 2 * n]
    lowest = np.empty(g)
    stages = plan.stages if progress is None else progress(plan.stages, len(plan.stages))
    weights = list(w)
    # ufuncs and array methods directly: np.take's and ndarray.min's Python wrappers cost
    # about 1 us a call, a sixth of the pass
    draw, stuck = model.rules.endless == "draw", []
    for k, o, m, kind, bacon, states, _, again, _, source, near_mirror, zero_dice in stages:
        block = sums[:, states]
        np.matmul(weights[kind], outcomes[k: k + P, o: o + m], out=block)
        cells.take(bacon, out=block[0])
        if below:
            block[:below] = np.inf
        if zero_dice is not None:  # zero dice scoring 0: a pass to the mirror, or a landing on a larger sum
            if not _passing_sum(block, known, zero_dice, draw, values[states], lowest[:m]):
                stuck.append(k)
        elif zero_turns:  # the sum's own row of outcomes is still 0: block leaves the mirror out
            near = known.take(near_mirror)
            guess = np.add(near[0], near[1], out=near[0])
            guess -= near[2]
            values[states], block[...], taken = solve_mirrored(block, stay[kind], guess, columns[m], together[kind])
            rounds += taken
        else:
            np.subtract(1.0, np.minimum.reduce(block, axis=0, out=lowest[:m]), out=values[states])
        if again is not None:
            np.subtract(1.0, values[states], out=own_loss[states])
        known.take(source, out=outcomes[k, o: o + m])
    action_values = np.subtract(1.0, sums, out=sums).reshape(A, g, g)
    return values.reshape(g, g).copy(), np.moveaxis(action_values, 0, -1), \
        IterationResult(rounds if zero_turns else len(plan.stages), tuple(stuck))


def _passing_sum(block: np.ndarray, known: np.ndarray, zero_dice, draw: bool, out: np.ndarray,
                 lowest: np.ndarray) -> bool:
    """One score sum with zero dice scoring 0 (:mod:`hogsolve.solver.passes`): ``block`` (the
    next mover's chance per action; zero dice read this sum's row, not yet filled) is set
    right and the sum's values written to ``out``; False when a cycle has no value."""
    above, above_source, passes, mirrors, back = zero_dice
    block[0, above] = known.take(above_source)  # a landing on a larger sum: known already
    block[0, passes] = np.inf  # R: the best action but the pass
    np.subtract(1.0, np.minimum.reduce(block, axis=0, out=lowest), out=out)
    if not passes.size:
        return True
    values, mirror_passes, endless = pass_values(out[passes], out[mirrors], True, back, draw)
    stuck = endless.any() and not draw
    out[passes] = np.where(endless, 0.5, values) if stuck else values  # no value: 1/2 as a stand-in
    block[0, passes] = out[mirrors]  # the next mover's chance after a pass
    if endless.any():  # a cycle never left: the draw
        block[0, passes[mirror_passes]] = 0.5
    return not stuck


def gathered_optimal_values(model: Model, plan) -> Tuple[np.ndarray, np.ndarray, IterationResult]:
    """:func:`optimal_values` in floats over a :func:`~hogsolve.solver.stages.gather_plan`: one
    pass in which each score sum gathers its states' landings by points (a points bonus makes
    the landing depend on the points, Piggy Back on the dice too) and one matrix product per
    sum weighs them.  Returns ``(values, action_values, pass result)`` as
    :func:`lean_optimal_values` does: its action values are the backup of the finished table."""
    g, n = model.goal, model.num_states
    known = np.zeros(n + 2)  # the next mover's value by flat state; model.win: 0, model.loss: 1
    known[model.loss] = 1.0
    w = model.probability
    zero = w[:, :, 0, None]  # (T, A, 1): the chance of scoring 0, which Piggy Back moves elsewhere
    below = model.rules.min_dice
    sums = np.empty((w.shape[1], n))  # by stage order; put back in flat order at the end
    order = np.empty(n, dtype=np.intp)
    start = 0
    for kind, states, lands, bacon, piggy in plan:
        m = len(states)
        block = sums[:, start: start + m]
        nxt = known.take(lands)  # (m, P)
        np.matmul(w[kind], nxt.T, out=block)
        if piggy is not None:
            block += zero[kind] * (known.take(piggy) - nxt[:, 0])
        block[0] = known.take(bacon)
        if below:
            block[:below] = np.inf
        known[states] = 1.0 - block.min(axis=0)
        order[start: start + m] = states
        start += m
    action_values = np.empty_like(sums)
    action_values[:, order] = 1.0 - sums
    return known[:n].reshape(g, g).copy(), np.moveaxis(action_values.reshape(-1, g, g), 0, -1), \
        IterationResult(len(plan))
