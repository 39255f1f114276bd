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

Ties a bound cannot order are settled exactly where every turn scores (the
Feral Hogs semesters): first the states whose value is exactly 0 or 1, found
by backups of 0/1 tables (a state is lost for sure when every outcome of every
action leaves the opponent a sure win, won for sure when one action's every
outcome wins or leaves the opponent a sure loss; a sum of probabilities is 0 or
1 exactly when its float is within half the smallest probability, far above
rounding), checked by induction over the score sums; then, at the few states
left, the tied actions' exact outcome distributions (Fractions), with the
decided states merged, the same as the policy's (states that differ only in a
memory count as the same when, a few turns ahead, they provably are); and at
the very few left, the tied actions' exact values, from a recursion in
Fractions over the states they reach, in which only the actions the bound
cannot rule out are valued.
"""
from __future__ import annotations

import dataclasses
import time
from fractions import Fraction
from typing import Any, Dict, Optional

import numpy as np

from ..util.plain import plain
from ..util.status import Proof
from .kinds import backup_all
from ..util.stable import bound_text
from .certificate import PROOF_TOLERANCE, certify
from .iteration import IterationResult
from .model import Model
from .passes import passing_action_values, zero_dice_passes
from .pig.certificate import certify_pig, pig_backup_error
from .pig.stages import Rolls, action_values
from ..errors import InputError

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
    settled: int = 0        # ties settled exactly (decided states, or the same exact outcomes)

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
        settled = f", {self.settled:,} ties settled exactly" if self.settled else ""
        return (f"proof by error bound: {self.decisions:,} decisions, each above every other action by "
                f"more than 2 x {bound_text(self.error_bound)} (smallest margin {self.min_margin:.2g}{settled}; "
                f"{self.seconds:.1f} s): {status}")


def _verdict(name: str, margin: np.ndarray, error: float, seconds: float, bound_reason: str) -> BoundCheck:
    """The check's result from every decision's margin (inf: a tie settled exactly; -inf: wrong)."""
    unproven = margin <= 2 * error
    worse = int((margin < -2 * error).sum())
    ties = int(unproven.sum()) - worse
    worst = [list(map(int, idx)) for idx in np.argwhere(unproven)[np.argsort(margin[unproven], kind="stable")][:5]]
    if bound_reason:
        reason = bound_reason
    elif worse:
        reason = (f"{worse} decisions are worse than another action by more than 2 x {error:.2g} "
                  f"(the first at {worst[0]})")
    elif ties:
        reason = (f"{ties} decisions are within 2 x {error:.2g} of another action, ties a bound cannot order "
                  f"(the first at {worst[0]})")
    else:
        reason = ""
    finite = margin[np.isfinite(margin)]
    return BoundCheck(name, int(margin.size), error, float(finite.min()) if finite.size else float("inf"),
                      worse, ties, worst, seconds, reason)


def check_hog_policy(model: Model, values: np.ndarray, policy: np.ndarray) -> BoundCheck:
    """Prove ``policy`` (``[s, o]`` or with memories ``[s, o, a, b]``) optimal from float ``values``
    by a fresh backup and the certificate's rigorous bound, settling ties exactly where every
    turn scores (see the module docstring)."""
    return _check_hog(model, values, policy, settle=False)[0]


def prove_float_table(model: Model, solution):
    """``(solution, check)``: a float ``solution`` with every tie that is settled exactly broken
    by the tie rule, and the proof of that policy: what ``hogsolve solve --exact`` ships where
    exact rationals do not reach.  At a state where the bound cannot order the near-best
    actions, the policy takes the fewest dice among those that are exactly optimal (a sure
    win's fewest sure dice; the fewest of the exactly largest values), so the choice depends on
    exact facts, never on which float came out larger; ties that cannot be settled keep the
    fewest dice within the tie threshold, and the check counts them."""
    check, policy = _check_hog(model, solution.values, solution.policy, settle=True)
    return dataclasses.replace(solution, policy=policy.astype(np.int8)), check


def _check_hog(model: Model, values: np.ndarray, policy: np.ndarray, settle: bool):
    """``(check, policy)``: :func:`check_hog_policy`'s check, of ``policy`` with its exactly
    worse ties replaced by the tie rule's choice when ``settle`` (then counted as settled)."""
    start = time.process_time()
    fresh = passing_action_values(model, values, backup_all(model, values))
    certificate = certify(model, values, fresh, IterationResult(0), own_backup=False)
    error = (certificate.error_bound + certificate.backup_error) * OUTWARD
    policy = np.array(np.broadcast_to(np.asarray(policy, dtype=np.intp), values.shape))
    chosen = np.take_along_axis(fresh, policy[..., None], axis=-1)[..., 0]
    others = fresh.copy()
    np.put_along_axis(others, policy[..., None], -np.inf, axis=-1)
    margin = chosen - others.max(axis=-1)
    bound_reason = "" if np.isfinite(certificate.error_bound) and certificate.error_bound <= PROOF_TOLERANCE else \
        f"no usable error bound ({certificate.error_bound:.3g})"
    settled = 0
    if not bound_reason and _well_founded(model) and (np.abs(margin) <= 2 * error).any():
        exact_ties, wrong, better = _settle_ties(model, values, fresh, policy, np.abs(margin) <= 2 * error, error)
        if settle:  # the exactly worse choices replaced by the tie rule's: exactly optimal now
            replaced = better >= 0
            policy = np.where(replaced, better, policy)
            exact_ties, wrong = exact_ties | replaced, wrong & ~replaced
        margin = np.where(exact_ties, np.inf, np.where(wrong, -np.inf, margin))
        settled = int(exact_ties.sum())
    check = _verdict(model.rules.name, margin, error, time.process_time() - start, bound_reason)
    return dataclasses.replace(check, settled=settled), policy


def _well_founded(model: Model) -> bool:
    """True when every claim of a sure win rests on larger score sums: every turn scores, or
    only passes repeat a sum (and a pass never counts as a sure win)."""
    return model.progressive or zero_dice_passes(model) is not None


def decided_states(model: Model, values: np.ndarray):
    """``(lost, won, sure)``: the states whose true value is exactly 0, exactly 1 (from
    candidates near 0 and 1 in ``values``, each checked against the others by one backup of
    0/1 tables, repeated until none is dropped), and at the won ones, which actions win for
    sure.  Sound by induction over the score sums where every turn scores; with passes, a
    pass never counts as a sure win, so no claim rests on itself around a cycle."""
    if not _well_founded(model):
        raise InputError("decided states by induction need every turn to score, or only passes to repeat a sum")
    passes = zero_dice_passes(model)
    half = float(model.probability[model.probability > 0].min()) / 2  # far above any rounding here
    lost, won = values <= 1e-9, values >= 1 - 1e-9
    while True:
        # lost: every action's chance of a win or of leaving the opponent anything but a sure win is 0
        leaves = backup_all(model, won.astype(float))
        still_lost = lost & (np.where(np.isfinite(leaves), leaves, 0.0).max(axis=-1) <= half)
        # won: some action wins or leaves the opponent a sure loss with chance 1
        gains = backup_all(model, (~lost).astype(float))
        sure = np.isfinite(gains) & (gains >= 1 - half)
        if passes is not None:
            sure[..., 0] &= ~passes
        still_won = won & sure.any(axis=-1)
        if np.array_equal(still_lost, lost) and np.array_equal(still_won, won):
            return lost, won, sure
        lost, won = still_lost, still_won


def _settle_ties(model: Model, values: np.ndarray, fresh: np.ndarray, policy: np.ndarray, ties: np.ndarray,
                 error: float):
    """``(exact ties, wrong, better)`` among the ``ties`` states (see the module docstring):
    ``better`` is, where ``policy`` is exactly worse, the fewest dice among the exactly best
    actions (else -1)."""
    policy = policy.astype(np.intp)
    lost, won, sure = decided_states(model, values)
    chosen_sure = np.take_along_axis(sure, policy[..., None], axis=-1)[..., 0]
    exact = ties & (lost | (won & chosen_sure))
    wrong = ties & won & ~chosen_sure
    better = np.where(wrong, np.argmax(sure, axis=-1), -1)  # the fewest dice that win for sure
    same = _ExactTies(model, lost, won, fresh, error)
    for state in np.argwhere(ties & ~lost & ~won)[:5000]:
        state = tuple(int(x) for x in state)
        q, mine = fresh[state], int(policy[state])
        rivals = [n for n in range(len(q)) if n != mine and np.isfinite(q[n]) and q[n] >= q[mine] - 2 * error]
        outcome = same.outcomes(state, mine)
        unmatched = [n for n in rivals if not same.matched(same.outcomes(state, n), outcome, SAME_VALUE_DEPTH)]
        if not unmatched:
            exact[state] = True
            continue
        try:  # the tied actions' exact values, from the exact values of the states they reach
            chosen = same.exact_action_value(state, mine)
            theirs = {n: same.exact_action_value(state, n) for n in unmatched}
        except (_TooFar, RecursionError):  # too far to value here: the tie stays unproven
            continue
        best = max(theirs.values())
        exact[state], wrong[state] = chosen >= best, chosen < best
        if chosen < best:
            better[state] = min(n for n, v in theirs.items() if v == best)
    return exact, wrong, better


#: How many turns ahead two states are followed to show their values are the same.
SAME_VALUE_DEPTH = 3
#: Most states valued exactly (Fractions) to settle one game's ties that no match settles.
EXACT_STATES = 50_000


class _TooFar(Exception):
    """Valuing a tie exactly would need more than :data:`EXACT_STATES` states."""


class _ExactTies:
    """Exact settling of ties, two ways.  Matching: two outcome distributions are worth the same
    when they give every score pair the same chance, where states with the same scores are
    equal when the same actions may be best in both and those actions' outcomes match in turn
    (a few turns ahead, the decided states merged); so states that differ only in a memory whose
    bonus can no longer matter are equal.  Otherwise exact values: a recursion in Fractions over
    the states the tied actions reach, valuing only the actions the bound cannot rule out."""

    def __init__(self, model: Model, lost: np.ndarray, won: np.ndarray, fresh: np.ndarray, error: float):
        self.model, self.lost, self.won, self.fresh, self.error = model, lost, won, fresh, error
        self.known: dict = {}
        self.values: dict = {}

    def outcomes(self, state: tuple, n: int) -> dict:
        return _merged_outcomes(self.model, state, n, self.lost, self.won)

    def matched(self, mine: dict, theirs: dict, depth: int) -> bool:
        """True when the two distributions are provably worth the same to the mover."""
        if mine == theirs:
            return True
        if set(mine) & {"won", "lost"} != set(theirs) & {"won", "lost"} or \
                any(mine[k] != theirs[k] for k in ("won", "lost") if k in mine):
            return False
        by_scores: Dict[Any, Any] = {}
        for side, dist in enumerate((mine, theirs)):
            for key, probability in dist.items():
                if isinstance(key, tuple):
                    by_scores.setdefault(key[:2], ([], []))[side].append((key, probability))
        for a, b in by_scores.values():
            if len(a) != 1 or len(b) != 1 or a[0][1] != b[0][1] or not self.equal(a[0][0], b[0][0], depth):
                return False
        return True

    def equal(self, x: tuple, y: tuple, depth: int) -> bool:
        """True when states ``x`` and ``y`` provably have the same value: the same actions may be
        best in both (every other is below the best by more than the bound), and each of those
        actions' outcomes match (:meth:`matched`), at most ``depth`` turns ahead."""
        if x == y:
            return True
        if depth == 0:
            return False
        key = (x, y, depth)
        if key not in self.known:
            best = [self._near_best(x), self._near_best(y)]
            self.known[key] = best[0] == best[1] and all(
                self.matched(self.outcomes(x, n), self.outcomes(y, n), depth - 1) for n in best[0])
        return self.known[key]

    def exact_action_value(self, state: tuple, n: int) -> Fraction:
        """Action ``n``'s exact value at ``state`` (Fractions), from the exact values of the states
        it reaches; raises :class:`_TooFar` beyond :data:`EXACT_STATES` states."""
        total = Fraction(0)
        for key, probability in self.outcomes(state, n).items():
            if key == "won":
                total += probability
            elif key != "lost":
                total += probability * (1 - self.exact_value(key))
        return total

    def exact_value(self, state: tuple) -> Fraction:
        """The exact value at ``state``: the best of the actions that may be best there (every
        other is provably below them)."""
        if state not in self.values:
            if len(self.values) >= EXACT_STATES:
                raise _TooFar(state)
            self.values[state] = None  # under way: met again, a cycle (passes) that recursion cannot value
            self.values[state] = max(self.exact_action_value(state, n) for n in self._near_best(state))
        if self.values[state] is None:
            raise _TooFar(state)
        return self.values[state]

    def _near_best(self, state: tuple) -> list:
        """The actions that may be best at ``state``: within twice the bound of the largest."""
        q = self.fresh[state]
        return [n for n in range(len(q)) if np.isfinite(q[n]) and q[n] >= q.max() - 2 * self.error]


def _merged_outcomes(model: Model, state: tuple, n: int, lost: np.ndarray, won: np.ndarray) -> dict:
    """Action ``n``'s exact outcome distribution at ``state``, the mover's sure wins (a win, or the
    opponent in a state lost for sure) merged into "won" and the sure losses into "lost"."""
    g = model.goal
    merged: Dict[Any, Any] = {}
    for key, probability in model.transitions(state[0], state[1], n, state[2:]):
        if isinstance(key, tuple):
            there = divmod(key[0], g) + key[1:]
            key = "won" if lost[there] else "lost" if won[there] else there
        elif key in (model.win, model.loss):
            key = "won" if key == model.win else "lost"
        else:
            there = divmod(key, g)
            key = "won" if lost[there] else "lost" if won[there] else there
        merged[key] = merged.get(key, 0) + probability
    return merged


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
    error = (certificate.error_bound + pig_backup_error(rolls)) * OUTWARD
    bound_reason = "" if np.isfinite(certificate.error_bound) and certificate.error_bound <= PROOF_TOLERANCE else \
        f"no usable error bound ({certificate.error_bound:.3g})"
    check = _verdict(game.name, margin, error, time.process_time() - start, bound_reason)
    if check.worst:  # name the states, not their places among the decisions
        places = np.argwhere(decided)
        check = dataclasses.replace(check, worst=[list(map(int, places[i[0]])) for i in check.worst])
    return check
