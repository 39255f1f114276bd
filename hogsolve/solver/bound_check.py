"""The proof for games exact arithmetic does not reach: every decision of a given policy
beats every other action by more than twice a rigorous bound on the values' error.

Neller's Hog, the Feral Hogs semesters and the roll-or-hold games have cycles
(a turn can hand the same scores back, or a bust returns to the same score
sum) or memories, where rationals grow too large to carry.  Instead the
values are backed up once more from scratch (not the solver's own action
values), the Bellman residual of that backup gives a rigorous bound E on the
distance from the true optimal values (the certificate's error analysis:
each backup's rounding bounded by Higham's gamma, a cycle's by its chance of
staying, and the total rounded up by a relative 2^-40), so every true action
value lies within ``E + step`` of the one computed.  A state is proven when
the policy's action is more than ``2 (E + step)`` above every other: then it
is the unique optimal action there, whatever the rounding.  The check is of
the *given* policy, so a table with one wrong move fails at that state.
"""
from __future__ import annotations

import dataclasses
import time
from typing import Optional

import numpy as np

from ..util.plain import plain
from ..util.status import Proof
from .backup import backup_all
from .certificate import certify
from .iteration import IterationResult
from .model import Model
from .pig_certificate import certify_pig, pig_backup_error
from .pig_stages import Rolls, action_values

#: Relative slack on the bound for the rounding of the bound's own arithmetic.
OUTWARD = 1.0 + 2.0 ** -40


@dataclasses.dataclass(frozen=True, repr=False)
class BoundCheck(Proof):
    """What :func:`check_hog_policy` or :func:`check_pig_policy` found; ``ok`` when every
    decision is proven, ``iterations`` the decisions checked."""

    game: str
    decisions: int          # states where the policy chooses among two or more actions
    error_bound: float      # E + step: how far any computed action value may be from the true one
    min_margin: float       # smallest (policy's action - best other), over every decision
    worse: int              # decisions provably worse than another action (margin below -2 x bound)
    ties: int               # decisions within 2 x bound of another action: a bound cannot order them
    worst: list             # up to five unproven states (the smallest margins), by the state's indices
    seconds: float
    reason: str = ""

    @property
    def wrong(self) -> bool:
        """True when some decision is provably not optimal, or no usable bound was found."""
        return bool(self.worse) or self.reason.startswith("no usable")

    @property
    def iterations(self) -> int:
        """The decisions checked."""
        return self.decisions

    def to_dict(self) -> dict:
        """The check as plain JSON values."""
        return plain({**self.status(), "method": "rigorous error bound", "proven": self.proven,
                      **{k: v for k, v in dataclasses.asdict(self).items() if k != "reason"}})

    def __repr__(self) -> str:
        status = "every decision proven" if self.proven else ("WRONG: " if self.wrong else "not proven: ") + self.reason
        return (f"proof by error bound: {self.decisions:,} decisions, each above every other action by "
                f"more than 2 x {self.error_bound:.2g} (smallest margin {self.min_margin:.2g}; "
                f"{self.seconds:.1f} s): {status}")


def _verdict(name: str, margin: np.ndarray, error: float, seconds: float, bound_reason: str) -> BoundCheck:
    error *= OUTWARD
    unproven = margin <= 2 * error
    worse = int((margin < -2 * error).sum())
    ties = int(unproven.sum()) - worse
    worst = [list(map(int, idx)) for idx in np.argwhere(unproven)[np.argsort(margin[unproven], kind="stable")][:5]]
    if bound_reason:
        reason = bound_reason
    elif worse:
        reason = f"{worse} decisions are worse than another action by more than 2 x {error:.2g} (the first at {worst[0]})"
    elif ties:
        reason = (f"{ties} decisions are within 2 x {error:.2g} of another action, ties a bound cannot order "
                  f"(the first at {worst[0]})")
    else:
        reason = ""
    return BoundCheck(name, int(margin.size), error, float(margin.min()) if margin.size else float("inf"),
                      worse, ties, worst, seconds, reason)


def check_hog_policy(model: Model, values: np.ndarray, policy: np.ndarray) -> BoundCheck:
    """Prove ``policy`` (``[s, o]`` or with memories ``[s, o, a, b]``) optimal from float ``values``
    by a fresh backup and the certificate's rigorous bound (see the module docstring)."""
    start = time.process_time()
    fresh = backup_all(model, values)
    certificate = certify(model, values, fresh, IterationResult(0))
    error = certificate.error_bound + certificate.backup_error
    policy = np.broadcast_to(np.asarray(policy, dtype=np.intp), values.shape)
    chosen = np.take_along_axis(fresh, policy[..., None], axis=-1)[..., 0]
    others = fresh.copy()
    np.put_along_axis(others, policy[..., None], -np.inf, axis=-1)
    margin = chosen - others.max(axis=-1)
    bound_reason = "" if np.isfinite(certificate.error_bound) and certificate.error_bound <= 1e-9 else \
        f"no usable error bound ({certificate.error_bound:.3g})"
    return _verdict(model.rules.name, margin, error, time.process_time() - start, bound_reason)


def check_pig_policy(game, value: np.ndarray, roll: np.ndarray, rolls: Optional[Rolls] = None) -> BoundCheck:
    """Prove the roll-or-hold ``roll[i, j, k]`` table optimal from float ``value`` by a fresh
    backup and the certificate's rigorous bound (see the module docstring)."""
    start = time.process_time()
    rolls = rolls or Rolls.of(game)
    certificate = certify_pig(game, value, rolls, 0, roll)
    roll_value, hold_value, inside = action_values(game, value, rolls)
    g = game.goal
    decided = inside & (np.arange(g)[None, None, :] >= 1)  # at k = 0 the first roll is compulsory
    margin = np.where(roll, roll_value - hold_value, hold_value - roll_value)[decided]
    error = certificate.error_bound + pig_backup_error(rolls)
    bound_reason = "" if np.isfinite(certificate.error_bound) and certificate.error_bound <= 1e-9 else \
        f"no usable error bound ({certificate.error_bound:.3g})"
    check = _verdict(game.name, margin, error, time.process_time() - start, bound_reason)
    if check.worst:  # name the states, not their places among the decisions
        places = np.argwhere(decided)
        check = dataclasses.replace(check, worst=[list(map(int, places[i[0]])) for i in check.worst])
    return check
