"""Each score sum's indexing, worked out once per model, for the lean passes.

Where one kind of dice serves each score sum and every turn scores from an
outcome that depends on the sum after the turn alone (no history, points
bonus or Piggy Back), a sum's backup needs only: its block of the outcome
table, its Free Bacon cells, its states (a strided slice of the flat states,
``s * goal + o`` with ``s + o = k``) and where a turn ending on each state
leads.  :func:`stage_plan` lists these per sum, largest first, so a pass
spends a few numpy calls per sum and no Python work per state.
"""
from __future__ import annotations

import dataclasses
import weakref
from typing import List, NamedTuple, Optional

import numpy as np

from .model import Feature, Model
from .kinds import covers
from .passes import zero_dice_passes


class Stage(NamedTuple):
    """One score sum ``k`` of a :func:`stage_plan` (a tuple, so a pass unpacks it cheaply)."""

    k: int
    first_opponent: int   # the sum's states have opponent scores first_opponent .. + size - 1
    size: int
    kind: int             # the sum's one kind of dice
    bacon: np.ndarray     # flat cells of the outcome table after rolling zero dice, (size,)
    states: slice         # the sum's states in the flat state order, by rising opponent score
    lands: np.ndarray     # where a turn ending on each state leads: flat state, model.win or model.loss
    again: Optional[np.ndarray]  # where that turn keeps the move (None: nowhere on this sum)
    plain: bool           # every turn ending here passes the move, and none ends the game
    source: np.ndarray    # the same landings as cells of :func:`landing_values`' vector
    near_mirror: np.ndarray  # (3, size) flat states near each mirror (o, s): (o + 1, s), (o, s + 1), (o + 1, s + 1)
    zero_dice: Optional["ZeroDice"]  # where zero dice score 0 on this sum (None: nowhere, or rules without passes)


class ZeroDice(NamedTuple):
    """A score sum's zero-dice moves that score 0, under rules with passes (:mod:`.passes`):
    places in the sum's states (by rising opponent score)."""

    above: np.ndarray         # states whose zero dice land on a larger sum (a bonus): known already
    above_source: np.ndarray  # where, as cells of :func:`landing_values`' vector
    passes: np.ndarray        # states whose zero dice pass to the mirror
    mirrors: np.ndarray       # each passing state's mirror
    back: np.ndarray          # whether that mirror passes back (a cycle)


@dataclasses.dataclass(frozen=True, eq=False)
class StagePlan:
    """Every score sum of a model as a :class:`Stage`, largest first."""

    stages: List[Stage]
    passes: bool = False  # some zero dice score 0 and pass (the stages' zero_dice say where)

    @property
    def plain(self) -> bool:
        """True when no turn keeps the move or ends the game from below the goal."""
        return all(stage.plain for stage in self.stages)


_PLANS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def stage_plan(model: Model) -> Optional[StagePlan]:
    """The model's :class:`StagePlan`, made once per model; None for rules the lean passes
    do not cover (history rules, a points bonus, Piggy Back, a zero-point turn, or mixed
    kinds of dice on one score sum)."""
    if model in _PLANS:
        return _PLANS[model]
    plan = _make_plan(model)
    _PLANS[model] = plan
    return plan


def mirrored(model: Model) -> bool:
    """True when a turn scoring 0 hands the opponent the same two scores and nothing else:
    no swap or bonus on 0 points, and zero dice always scores (or is no move)."""
    g = model.goal
    s, o = np.divmod(np.arange(g * g), g)
    bacon_scores = bool(model.rules.min_dice) or bool((model.free_bacon_points > 0).all())
    return bacon_scores and model.again is None and bool((model.after[s, o] == o * g + s).all())


def _make_plan(model: Model) -> Optional[StagePlan]:
    if not covers(model, "lean pass"):
        return None
    passes = zero_dice_passes(model)
    if Feature.ZERO_POINT_TURNS in model.features and not mirrored(model) and passes is None:
        return None
    g, n = model.goal, model.num_states
    stages = []
    for k in range(2 * g - 2, -1, -1):
        d = model.diagonals[k]
        if d.kind is None:
            return None
        start = int(d.flat[0])  # s * g + o with s + o = k: a stride of -(g - 1) as o rises
        stride = max(g - 1, 1)  # at goal 1 the one state needs a stride too
        stop = start - stride * len(d.o)
        source = np.where(d.lands >= model.win, d.lands - model.win + 2 * n, d.lands)
        if d.again is not None:
            source = np.where(d.again, d.lands + n, source)
        stages.append(Stage(
            k=k, first_opponent=int(d.o[0]), size=len(d.o), kind=int(d.kind),
            bacon=d.bacon_rows * g + d.o, states=slice(start, stop if stop >= 0 else None, -stride),
            lands=d.lands, again=d.again, plain=d.again is None and not d.final, source=source,
            near_mirror=_near_mirror(d.s, d.o, g), zero_dice=None if passes is None else
            _zero_dice(passes[d.s, d.o], d.bacon_rows == k, source)))
    return StagePlan(stages, passes=passes is not None)


def _zero_dice(passing: np.ndarray, zero: np.ndarray, source: np.ndarray) -> Optional[ZeroDice]:
    if not zero.any():
        return None
    above = np.flatnonzero(zero & ~passing)
    passes = np.flatnonzero(passing)
    mirrors = len(passing) - 1 - passes
    return ZeroDice(above, source[above], passes, mirrors, passing[mirrors])


def _near_mirror(s: np.ndarray, o: np.ndarray, g: int) -> np.ndarray:
    """Flat states one and two sums up from each mirror (o, s): their values, known before the
    sum is solved, give a first guess of the mirror's, V(o + 1, s) + V(o, s + 1) - V(o + 1, s + 1)
    (at the goal, the nearest state below it stands in)."""
    up_o, up_s = np.minimum(o + 1, g - 1), np.minimum(s + 1, g - 1)
    return np.stack([up_o * g + s, o * g + up_s, up_o * g + up_s])


class GatherStage(NamedTuple):
    """One score sum of a :func:`gather_plan`: cells of the known-values vector (the next
    mover's value by flat state, then 0 where the mover has won and 1 where lost)."""

    kind: int                # the sum's one kind of dice
    states: np.ndarray       # the sum's flat states, by rising opponent score
    lands: np.ndarray        # (size, P): where a turn scoring each number of points leads
    bacon: np.ndarray        # (size,): where zero dice lead
    piggy: Optional[np.ndarray]  # (A, size): where n dice scoring 0 lead under Piggy Back (None: no such rule)


_GATHER_PLANS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def gather_plan(model: Model) -> Optional[List[GatherStage]]:
    """Every score sum as a :class:`GatherStage`, largest first, made once per model; None
    for rules the gathering pass does not cover (history rules, extra turns, a turn scoring
    0 points, or mixed kinds of dice on one score sum)."""
    if model not in _GATHER_PLANS:
        _GATHER_PLANS[model] = _make_gather_plan(model)
    return _GATHER_PLANS[model]


def _make_gather_plan(model: Model) -> Optional[List[GatherStage]]:
    if not covers(model, "gather pass"):
        return None
    points = np.arange(model.probability.shape[2])
    dice = np.arange(model.num_actions)[:, None]
    plan = []
    for k in range(2 * model.goal - 2, -1, -1):
        d = model.diagonals[k]
        if d.kind is None:
            return None
        lands = np.asarray(model.land(d.s[:, None], d.o[:, None], points[None, :]), dtype=np.intp)
        bacon = lands[np.arange(len(d.s)), d.bacon_rows - k]
        piggy = None if model.piggy is None else \
            np.asarray(model.piggy_landing(d.s[None, :], d.o[None, :], np.maximum(dice, 1)), dtype=np.intp)
        plan.append(GatherStage(int(d.kind), d.flat.astype(np.intp), lands, bacon, piggy))
    return plan


def landing_values(model: Model) -> np.ndarray:
    """The vector a :class:`Stage`'s ``source`` indexes: the next mover's value by flat
    state (first ``num_states`` cells), the mover's own chance of losing where an extra turn
    keeps the move (the next ``num_states``), then 0 (the mover has won) and 1 (lost).
    The caller fills the first two parts as the pass goes."""
    n = model.num_states
    known = np.zeros(2 * n + 2)
    known[-1] = 1.0
    return known
