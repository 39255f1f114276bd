"""Which algorithm covers which kind of model: one table instead of flags re-checked everywhere.

A model's kind is its :class:`~hogsolve.solver.model.Feature` flags, decided
once at compile time.  Each fast path names the features it does not cover;
a model with any of them takes the general path.  The backup is chosen by
the first feature that needs its own table (:func:`outcome_table`).
"""
from __future__ import annotations

from typing import Dict, Optional, Tuple

import numpy as np

from .backup import Arithmetic, LandingTable, OutcomeTable
from .history import HistoryTable
from .model import Feature, Model

MEMORIES, EXTRA_TURNS = Feature.MEMORIES, Feature.EXTRA_TURNS
POINTS_LANDING, PIGGY_BACK, ZERO_POINT_TURNS = Feature.POINTS_LANDING, Feature.PIGGY_BACK, Feature.ZERO_POINT_TURNS

#: Each algorithm and the features it does not cover.
UNCOVERED: Dict[str, Feature] = {
    # one pass over a per-model stage plan (stages.py, iteration.lean_optimal_values); a turn
    # scoring 0 only where it hands the opponent the same scores (stages.mirrored)
    "lean pass": MEMORIES | POINTS_LANDING | PIGGY_BACK,
    # one pass gathering each state's landings by points (stages.gather_plan,
    # iteration.gathered_optimal_values): a points bonus (sp15) or Piggy Back (fa15)
    "gather pass": MEMORIES | ZERO_POINT_TURNS | EXTRA_TURNS,
    # a fixed policy's values in the lean pass, and many policies at once (policy_values.py)
    "lean policy pass": MEMORIES | POINTS_LANDING | PIGGY_BACK | ZERO_POINT_TURNS,
    # many policies in one batched pass (policy_values.slot_values)
    "slot kernel": MEMORIES | POINTS_LANDING | PIGGY_BACK,
    # exact values by the dice recurrence (dicesums.py; it also needs rolls scoring their dice's sum)
    "dice recurrence": MEMORIES | POINTS_LANDING | PIGGY_BACK,
    # the exact recomputation in integers (exact.py)
    "exact": MEMORIES | ZERO_POINT_TURNS,
    # the vectorised Monte Carlo kernel (analysis/montecarlo.py) follows every feature
    "monte carlo": Feature.NONE,
}

#: The backup table a feature needs, the first that applies; plain rules take "outcome".
BACKUPS: Tuple[Tuple[Feature, str], ...] = ((MEMORIES, "history"), (POINTS_LANDING, "landing"))


def covers(model: Model, algorithm: str) -> bool:
    """True when ``algorithm`` (a key of :data:`UNCOVERED`) handles every feature of ``model``."""
    return not (model.features & UNCOVERED[algorithm])


def backup_kind(model: Model) -> str:
    """``"history"``, ``"landing"`` or ``"outcome"``: the backup table ``model`` needs."""
    return next((name for feature, name in BACKUPS if feature in model.features), "outcome")


def outcome_table(model: Model, arithmetic: Optional[Arithmetic] = None):
    """The backup for ``model``: a :class:`~hogsolve.solver.history.HistoryTable` under a history
    rule, a :class:`~hogsolve.solver.backup.LandingTable` under a points bonus, else an
    :class:`~hogsolve.solver.backup.OutcomeTable`."""
    table = {"history": HistoryTable, "landing": LandingTable, "outcome": OutcomeTable}[backup_kind(model)]
    return table(model, arithmetic)


def backup_all(model: Model, values: np.ndarray, arithmetic: Optional[Arithmetic] = None) -> np.ndarray:
    """One fresh backup of every state and action from finished ``values``, ``value_shape + (A,)``."""
    table = outcome_table(model, arithmetic)
    table.fill_all(values)
    return table.all_action_values()
