"""Compile a Ruleset once into arrays that every algorithm consumes.

A state is (score, opponent_score) below the goal with the player to move
first, flattened as ``score * goal + opponent_score``.  A turn factors into
two parts, and the model stores each once:

* the points: ``counts[t, n, p] / denominators[t]`` is the exact probability
  that rolling ``n`` dice of kind ``t`` (``dice_sides_values[t]`` sides)
  scores ``p`` points, and ``dice_kind[s, o]`` is the kind in state (s, o);
  rolling zero dice scores ``free_bacon_points[s, o]`` for sure;
* the end of the turn: ``after[new, o]`` is where a turn leads when the mover
  ends it on ``new`` points (before any bonus or swap) against ``o``, seen
  from the *next* mover: the flat index of (opponent's score, mover's score)
  after the swap, or a sentinel, ``win`` (the mover has won) or ``loss`` (the
  mover has lost, e.g. by swapping the opponent past the goal).  Where
  ``again[new, o]`` (extra-turn rules) the mover moves next, and the index is
  (mover's score, opponent's score).

So action ``n`` in state (s, o) leads to ``after[s + p, o]`` with probability
``counts[dice_kind[s, o], n, p] / denominators[...]``; :meth:`Model.transitions`
spells that out for one state.
"""
from __future__ import annotations

import dataclasses
import enum
import functools
from collections import Counter
from fractions import Fraction
from functools import cached_property
from typing import Any, List, Optional, Tuple

import numpy as np

from ..hog.rules import points_counts
from ..hog.rules import Ruleset, call_rule, end_of_turn, moves_again, turn_points, zero_dice_points
from ..errors import InputError


class Feature(enum.Flag):
    """What a compiled model holds beyond plain rules, decided once from its arrays
    (:attr:`Model.features`); :mod:`hogsolve.solver.kinds` says which algorithm covers which."""

    NONE = 0
    MEMORIES = enum.auto()          # Feral Hogs: both players' memories are part of the state
    EXTRA_TURNS = enum.auto()       # a turn can keep the move
    POINTS_LANDING = enum.auto()    # the after-turn change depends on the turn's points
    PIGGY_BACK = enum.auto()        # a roll scoring 0 gives the opponent the dice rolled
    ZERO_POINT_TURNS = enum.auto()  # a turn can score 0, so a score sum can repeat


@dataclasses.dataclass(frozen=True, eq=False)
class Model:
    """A ruleset compiled to arrays (see the module docstring)."""

    rules: Ruleset
    goal: int
    dice_kind: np.ndarray          # (goal, goal) index into dice_sides_values
    dice_sides_values: np.ndarray  # (T,) sides of each kind of dice
    counts: np.ndarray             # (T, A, P) exact numerators; row n = 0 unused
    denominators: np.ndarray       # (T,) sides ** max_dice
    probability: np.ndarray        # (T, A, P) floats counts / denominators
    free_bacon_points: np.ndarray  # (goal, goal) points of zero dice by [score, opponent score]
    after: np.ndarray              # (goal + P, goal) int32 next state, see module doc
    again: Optional[np.ndarray]    # (goal + P, goal) bool: the mover moves again (None: never)
    piggy: Optional[np.ndarray]    # (A, goal, goal) Piggy Back ending past the goal: 0 won, 1 lost, -1 not over
    score_sum_gain: int            # least points of any turn: least rise of the score sum
    points_landing: Optional[np.ndarray] = None  # (goal, goal, P) next state by turn points (points_bonus rules)

    @cached_property
    def features(self) -> Feature:
        """The model's :class:`Feature` flags (``Feature.NONE`` for plain rules)."""
        found = Feature.NONE
        for present, feature in ((bool(self.context_shape), Feature.MEMORIES),
                                 (self.again is not None, Feature.EXTRA_TURNS),
                                 (self.points_landing is not None, Feature.POINTS_LANDING),
                                 (self.piggy is not None, Feature.PIGGY_BACK),
                                 (not self.progressive, Feature.ZERO_POINT_TURNS)):
            if present:
                found |= feature
        return found

    @property
    def num_states(self) -> int:
        """``goal ** 2`` states (score, opponent_score)."""
        return self.goal * self.goal

    @property
    def context_shape(self) -> Tuple[int, ...]:
        """Extra state beyond the scores: (mover's memory, opponent's memory) under a
        history rule (Feral Hogs), else ()."""
        return self.rules.context_shape

    @property
    def value_shape(self) -> Tuple[int, ...]:
        """Shape of a value or policy table: ``(goal, goal) + context_shape``."""
        return (self.goal, self.goal) + self.context_shape

    @property
    def num_actions(self) -> int:
        """Dice counts 0 to max_dice."""
        return self.counts.shape[1]

    @property
    def max_points(self) -> int:
        """Most points a turn can score (rows of ``after`` beyond the goal)."""
        return self.after.shape[0] - self.goal - 1

    @cached_property
    def diagonals(self) -> List[Diagonal]:
        """Every score sum k = 0 .. 2 goal - 2 as a :class:`Diagonal` (views into shared arrays)."""
        g = self.goal
        s, o = np.divmod(np.arange(g * g), g)
        order = np.lexsort((o, s + o))  # by score sum, then rising opponent score
        s, o = s[order], o[order]
        kinds = self.dice_kind[s, o]
        lands, bacon_rows = self.after[s, o], s + o + self.free_bacon_points[s, o]
        bounds = np.searchsorted((s + o), np.arange(2 * g))
        low = np.minimum.reduceat(kinds, bounds[:-1])
        high = np.maximum.reduceat(kinds, bounds[:-1])
        again = self.again[s, o] if self.again is not None else None

        def keeps_move(a, b):
            return None if again is None or not again[a:b].any() else again[a:b]
        return [Diagonal(bool((lands[a:b] >= self.win).any()), keeps_move(a, b), s[a:b], o[a:b], order[a:b],
                         lands[a:b], bacon_rows[a:b], kinds[a:b], int(low[k]) if low[k] == high[k] else None)
                for k, (a, b) in enumerate(zip(bounds[:-1], bounds[1:]))]

    @property
    def win(self) -> int:
        """Sentinel next state: the mover has won."""
        return self.num_states

    @property
    def loss(self) -> int:
        """Sentinel next state: the mover has lost."""
        return self.num_states + 1

    def land(self, s: Any, o: Any, points: Any) -> Any:
        """Where a turn scoring ``points`` (bonus rules and swap applied) from (s, o) leads:
        the flat next state from the next mover's side, or ``win`` / ``loss`` (arrays too)."""
        if self.points_landing is not None:
            return self.points_landing[s, o, np.minimum(points, self.points_landing.shape[2] - 1)]
        return self.after[np.minimum(np.asarray(s) + points, self.after.shape[0] - 1), o]

    # -- the one transition of a turn, as every sampler and environment plays it --

    @cached_property
    def flat(self) -> "FlatTransition":
        """The transition's arrays flattened by state ``score * goal + opponent_score``."""
        return FlatTransition.of(self)

    def step(self, state: np.ndarray, points: np.ndarray, dice: Optional[np.ndarray] = None, extra: Any = 0, *,
             out: Optional[np.ndarray] = None, scratch: Optional[np.ndarray] = None
             ) -> Tuple[np.ndarray, Optional[np.ndarray]]:
        """A turn in many games at once: from flat states ``state`` (the mover's side), ``dice``
        dice (needed under Piggy Back) scoring ``points``, plus ``extra`` points of a history
        rule's bonus.  Returns ``(next, again)``: the next flat state from the next mover's side,
        or :attr:`win` / :attr:`loss`; and per game whether the mover moves again (None when no
        turn can keep the move).  ``out`` may be ``state`` itself and ``scratch`` ``points``
        itself (both are read first): the Monte Carlo loop reuses its buffers so."""
        g, flat = self.goal, self.flat
        piggy_rows = piggy_next = None
        if self.piggy is not None:
            assert dice is not None, "Piggy Back needs the dice rolled"
            piggy_rows = np.flatnonzero((dice > 0) & (points == 0))
            piggy_next = self.piggy_landing(*np.divmod(state[piggy_rows], g), dice[piggy_rows])
        again = None
        if flat.landing is not None:
            new = np.take(flat.landing, state * flat.landing_width + points, out=out)
        else:
            if isinstance(extra, int) and not extra:
                landing = np.multiply(points, g, out=scratch)
            else:
                landing = np.add(points, extra, out=scratch)
                landing *= g
            landing += state  # (s + points + extra, o)
            if flat.again is not None:
                again = flat.again[landing]
            new = np.take(flat.after, landing, out=out)
        if piggy_rows is not None:
            new[piggy_rows] = piggy_next
        return new, again

    def step_one(self, state: int, dice: int, points: int) -> Tuple[int, bool]:
        """:meth:`step` for one game without memories, in plain ints (an environment's turn:
        a microsecond, where a numpy call costs several)."""
        flat = self.flat
        if flat.landing_list is not None:
            landed = -1
            new = flat.landing_list[state * flat.landing_width + min(points, flat.landing_width - 1)]
        else:
            goal = self.goal
            landed = min(state // goal + points, flat.after_rows - 1) * goal + state % goal
            new = flat.after_list[landed]
        if self.piggy is not None and dice > 0 and points == 0:
            new = int(self.piggy_landing(state // self.goal, state % self.goal, dice))
        return new, bool(flat.again_list is not None and landed >= 0 and flat.again_list[landed])

    def piggy_landing(self, s: Any, o: Any, n: Any) -> Any:
        """Where Piggy Back takes a roll of ``n`` dice scoring 0 at (s, o): the flat next
        state (from the next mover's side), or ``win`` / ``loss``."""
        s, o, n = np.asarray(s), np.asarray(o), np.asarray(n)
        assert self.piggy is not None, "Piggy Back is not a rule of this ruleset"
        inside = o + n < self.goal
        nxt = self.after[s, np.minimum(o + n, self.goal - 1)]
        code = self.piggy[n, s, o]
        return np.where(inside, nxt, np.where(code == 0, self.win, self.loss))

    @property
    def again_base(self) -> int:
        """Offset of "the mover again at state i" in :meth:`transitions`."""
        return self.num_states + 2

    @property
    def progressive(self) -> bool:
        """True when every turn raises the score sum, so one pass is exact."""
        return self.score_sum_gain >= 1

    @property
    def max_outcomes_per_action(self) -> int:
        """Most terms of one backup sum: distinct point values of one action (plus the two
        operations of Piggy Back's correction)."""
        return max(1, int((self.counts > 0).sum(axis=2).max())) + (2 if self.piggy is not None else 0)

    def transitions(self, score: int, opponent_score: int, num_dice: int,
                    context: Tuple[int, ...] = ()) -> List[Tuple[Any, Fraction]]:
        """``[(next_state, probability), ...]`` of one action, merged by next state.

        ``next_state`` is a flat index seen from the next mover, or ``win`` /
        ``loss``, or ``again_base + index`` when the mover moves again (index
        from the mover's side); probabilities are exact :class:`fractions.Fraction`.
        Under a history rule ``context`` is (mover's memory, opponent's memory)
        as indices, and a next state that is not final is ``(flat index, next
        mover's memory, the other's memory)``, as :class:`HistoryTable` backs it up.
        """
        if self.context_shape:
            return self._history_transitions(score, opponent_score, num_dice, context)
        s, o = score, opponent_score

        def landing(new):
            nxt = int(self.land(s, o, new - s))
            return nxt + self.again_base if self.again is not None and self.again[new, o] else nxt
        if num_dice == 0:
            return [(landing(s + self.free_bacon_points[s, o]), Fraction(1))]
        t = self.dice_kind[s, o]
        merged: dict = {}
        for p in np.flatnonzero(self.counts[t, num_dice]):
            nxt = int(self.piggy_landing(s, o, num_dice)) if self.piggy is not None and p == 0 else landing(s + p)
            merged[nxt] = merged.get(nxt, 0) + Fraction(int(self.counts[t, num_dice, p]),
                                                         int(self.denominators[t]))
        return sorted(merged.items())

    def _history_transitions(self, s: int, o: int, num_dice: int, context: Tuple[int, ...]):
        rule, max_dice = self.rules.history, int(self.rules.max_dice)
        assert rule is not None  # called under a history rule only
        mine, theirs = context
        if num_dice == 0:
            scored = [(int(self.free_bacon_points[s, o]), Fraction(1))]
        else:
            t = self.dice_kind[s, o]
            scored = [(int(p), Fraction(int(self.counts[t, num_dice, p]), int(self.denominators[t])))
                      for p in np.flatnonzero(self.counts[t, num_dice])]
        bonus = int(rule.points(num_dice, mine))
        merged: dict = {}
        for points, probability in scored:
            nxt = int(self.land(s, o, points + bonus))
            memory = int(rule.memory(num_dice, points, max_dice))
            key = nxt if nxt >= self.win else (nxt, theirs, memory)
            merged[key] = merged.get(key, 0) + probability
        return sorted(merged.items(), key=lambda item: (not isinstance(item[0], tuple), item[0]))


@dataclasses.dataclass(frozen=True)
class Diagonal:
    """The states of one score sum ``k``, by rising opponent score, with lookups."""

    final: bool            # a turn ending exactly on one of these states can end the game (bonus rules)
    again: Optional[np.ndarray]  # where a turn ending on these states keeps the move (None: nowhere)
    s: np.ndarray          # mover's scores
    o: np.ndarray          # opponent's scores (consecutive)
    flat: np.ndarray       # flat state indices
    lands: np.ndarray      # after[s, o]: where a turn ending on exactly (s, o) leads
    bacon_rows: np.ndarray  # k + Free Bacon points: the sum after rolling zero dice
    kinds: np.ndarray      # dice kind of each state
    kind: Optional[int]    # the one dice kind of the sum, or None when mixed

    @property
    def opponents(self) -> slice:
        """The opponent scores of the diagonal as a slice."""
        return slice(int(self.o[0]), int(self.o[-1]) + 1)


def _points_counts(kinds: np.ndarray, rules: Ruleset) -> np.ndarray:
    """(T, A, P) counts of a turn's points for n dice, scaled to denominator sides**max_dice
    (the engine's :func:`~hogsolve.hog.turn.points_counts`, one kind of dice at a time)."""
    max_dice = int(rules.max_dice)
    mapped: Counter = Counter()  # (kind, n, points after the turn-score rule) -> count
    for t, sides in enumerate(int(x) for x in kinds):
        for n in range(1, max_dice + 1):
            up = sides ** (max_dice - n)
            for points, count in points_counts(rules, n, sides).items():
                mapped[t, n, points] += count * up
    counts = np.zeros((len(kinds), max_dice + 1, max(q for _, _, q in mapped) + 1), dtype=np.int64)
    for (t, n, q), c in mapped.items():
        counts[t, n, q] += c
    return counts


def _piggy_codes(rules: Ruleset, goal: int) -> np.ndarray:
    """Piggy Back with ``n`` dice from (s, o) gives the opponent ``o + n``; past the goal
    the game is over: 0 where the swap hands the mover the win, 1 where the mover lost,
    -1 where it goes on (see :meth:`Model.piggy_landing`)."""
    s, o = np.meshgrid(np.arange(goal), np.arange(goal), indexing="ij")
    codes = np.full((int(rules.max_dice) + 1, goal, goal), -1, dtype=np.int8)
    for n in range(1, int(rules.max_dice) + 1):
        mover, _ = end_of_turn(rules, s, o + n, 0)
        over = o + n >= goal
        codes[n] = np.where(over, np.where(mover >= goal, 0, 1), -1)
    return codes


@functools.lru_cache(maxsize=8)
def cached_model(rules: Ruleset) -> Model:
    """The compiled model of ``rules``, compiled once per process (models are never changed)."""
    return compile_model(rules)


def model_for(rules: Ruleset, model: Optional[Model] = None) -> Model:
    """``model`` checked to be compiled from ``rules``, or the cached compilation.

    A model of another ruleset (or goal) would give that ruleset's numbers
    under this one's name, so it is refused with a ValueError.
    """
    if model is None:
        return cached_model(rules)
    if model.rules != rules:
        raise InputError(f"the model was compiled for {model.rules.name} at goal {model.rules.goal}, "
                         f"not {rules.name} at goal {rules.goal}")
    return model


def compile_model(rules: Ruleset) -> Model:
    """Compile ``rules`` into a :class:`Model`."""
    goal, max_dice = int(rules.goal), int(rules.max_dice)
    s, o = np.meshgrid(np.arange(goal), np.arange(goal), indexing="ij")

    sides = np.asarray(call_rule(rules.dice_sides, s, o), dtype=np.int64)
    if sides.min() < 2:
        raise InputError(f"{rules.name}: dice_sides must be at least 2, got {sides.min()}")
    kinds, dice_kind = np.unique(sides, return_inverse=True)
    if int(kinds.max()) ** max_dice >= 2 ** 62:
        raise InputError(f"{rules.name}: {kinds.max()}-sided dice x {max_dice} overflow exact counts")
    counts = _points_counts(kinds, rules)
    denominators = kinds.astype(np.int64) ** max_dice

    bacon = np.asarray(zero_dice_points(rules, s, o), dtype=np.int64)
    bacon = np.broadcast_to(bacon, (goal, goal))
    bacon = np.asarray(turn_points(rules, bacon, np.zeros_like(bacon)), dtype=np.int64).copy()
    if bacon.min() < 0:
        raise InputError(f"{rules.name}: free_bacon must never be negative, got {bacon.min()}")

    feral = int(rules.history.bonus) if rules.history is not None else 0
    most = int(max(counts.shape[2] - 1, bacon.max())) + feral
    new = np.arange(goal + most + 1)[:, None]
    opp = np.arange(goal)[None, :]
    extra = np.asarray(call_rule(rules.bonus, new, opp))
    if extra.min() < 0:
        raise InputError(f"{rules.name}: the after-turn bonus must never be negative, got {extra.min()}")
    mover, opponent = end_of_turn(rules, new, opp, 0)
    win, loss = goal * goal, goal * goal + 1
    over = (mover >= goal) | (opponent >= goal)
    again = ~over & np.asarray(moves_again(rules, np.minimum(mover, goal - 1), np.minimum(opponent, goal - 1)),
                               dtype=bool)
    after = np.where(mover >= goal, win, np.where(opponent >= goal, loss,
                                                  np.where(again, mover * goal + opponent, opponent * goal + mover)))

    dice_kind = dice_kind.reshape(goal, goal).astype(np.int8)

    # A swap only exchanges the two scores, so the score sum rises by the points.
    rolled = np.flatnonzero(counts[:, 1:].sum(axis=(0, 1)))
    if rules.piggy_back:  # a roll scoring 0 still raises the sum: the opponent gains the dice
        rolled = rolled[rolled > 0] if (rolled > 0).any() else np.array([1])
    gain = min(int(bacon.min()), int(rolled.min()))
    piggy = _piggy_codes(rules, goal) if rules.piggy_back else None
    points_landing = _points_landing(rules, goal, most) if rules.points_bonus is not None else None
    pad = most + 1 - counts.shape[2]
    counts = np.pad(counts, ((0, 0), (0, 0), (0, pad)))
    return Model(
        rules=rules, goal=goal,
        dice_kind=dice_kind,
        dice_sides_values=kinds, counts=counts, denominators=denominators,
        probability=counts / denominators[:, None, None],
        free_bacon_points=bacon, after=after.astype(np.int32),
        again=again if again.any() else None,
        piggy=piggy,
        score_sum_gain=gain,
        points_landing=points_landing,
    )


def _points_landing(rules: Ruleset, goal: int, most: int) -> np.ndarray:
    """``landing[s, o, p]``: where a turn scoring p from (s, o) leads, for rules whose
    after-turn change depends on the points (``points_bonus``)."""
    s, o, p = np.meshgrid(np.arange(goal), np.arange(goal), np.arange(most + 1), indexing="ij")
    mover, opponent = end_of_turn(rules, s, o, p)
    win, loss = goal * goal, goal * goal + 1
    landing = np.where(mover >= goal, win, np.where(opponent >= goal, loss,
                                                    opponent * goal + np.minimum(mover, goal - 1)))
    return landing.astype(np.int32)


@dataclasses.dataclass(frozen=True)
class FlatTransition:
    """A model's landing arrays flattened by state (``after[(s + points) * goal + o]``), as
    numpy arrays for :meth:`Model.step` and as lists for :meth:`Model.step_one`."""

    after: np.ndarray                 # (rows * goal,) int64
    again: Optional[np.ndarray]       # (rows * goal,) bool, or None
    landing: Optional[np.ndarray]     # (goal * goal * width,) int64 under a points bonus, else None
    landing_width: int
    after_rows: int
    after_list: List[int]
    again_list: Optional[List[bool]]
    landing_list: Optional[List[int]]

    @classmethod
    def of(cls, model: "Model") -> "FlatTransition":
        """The flat arrays of ``model``."""
        after = model.after.reshape(-1).astype(np.int64)
        again = None if model.again is None else model.again.reshape(-1)
        landing = None if model.points_landing is None else model.points_landing.reshape(-1).astype(np.int64)
        width = 0 if model.points_landing is None else int(model.points_landing.shape[2])
        return cls(after, again, landing, width, int(model.after.shape[0]), after.tolist(),
                   None if again is None else again.tolist(), None if landing is None else landing.tolist())
