"""The one-step backup that every algorithm over the model shares.

A swap only exchanges the scores, so a turn from a state of score sum ``k``
that scores ``p`` points lands on sum ``k + p``.  :class:`OutcomeTable` keeps
``table[k + p, o]``: the next mover's win probability after the mover ends a
turn on ``new = k + p - o`` points against ``o`` (``model.after`` decides
swap, win and loss).  The backup of every state on the diagonal ``s + o = k``
is then one small matrix product per kind of dice, with no Python loop over
states: ``Q[n] = 1 - sum_p P(n dice score p) * table[k + p, o]``.

The same code runs in floats and, for :mod:`hogsolve.solver.exact`, in exact
integers scaled by a common denominator (see :class:`Arithmetic`).
"""
from __future__ import annotations

import dataclasses
import weakref
from typing import Any, Callable, Optional

import numpy as np

from .model import Model
from ..errors import InputError


@dataclasses.dataclass(frozen=True)
class Arithmetic:
    """How numbers are stored: value ``x`` is kept as ``x * one``.

    ``weights`` are the point probabilities scaled so that each action's
    weights sum to ``total``; a backup divides by ``total`` again.  In floats
    ``one`` and ``total`` are 1.
    """

    dtype: Any    # float or object (Python ints)
    one: Any      # 1, or the exact scale: an int
    total: Any
    weights: np.ndarray  # (T, A, P)

    def finish(self, sums):
        """Mover's value from the weighted sums of the next mover's values."""
        if self.dtype is object:
            return (self.total * self.one - sums) // self.total  # exact division
        return np.subtract(1.0, sums, out=sums)


def float_arithmetic(model: Model) -> Arithmetic:
    """Plain float64 arithmetic: values as they are, weights the model's probabilities."""
    return Arithmetic(np.float64, 1.0, 1.0, model.probability)


class _Follows:
    """:meth:`follow` for a table whose ``chosen_values(k, actions)`` takes one action a state."""

    model: Model

    def chosen_values(self, k: int, actions: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def follow(self, policy: np.ndarray) -> Callable[[int], np.ndarray]:
        """``values(k)``: the mover's values at diagonal ``k`` when it plays the fixed ``policy``."""
        diagonals = self.model.diagonals
        return lambda k: self.chosen_values(k, policy[diagonals[k].s, diagonals[k].o])


class OutcomeTable(_Follows):
    """Values of turn outcomes by (score sum after the turn, opponent score)."""

    def __init__(self, model: Model, arithmetic: Arithmetic | None = None, slots: int = 0):
        """``slots``: keep that many independent tables side by side on a last axis (floats,
        fixed policies only; see :meth:`chosen_slot_values`)."""
        self.model = model
        self.arith = arithmetic if arithmetic is not None else float_arithmetic(model)
        g, most = model.goal, model.max_points
        self.slots = slots
        self._buffer: Optional[np.ndarray] = None  # slot_action_values' output, reused
        self._supports = _supports(self.arith)
        if self.arith.dtype is object:
            start = _final_outcomes(model, self.arith.one, object)
        else:  # the float start is the same every time: made once per model
            if model not in _FLOAT_STARTS:
                _FLOAT_STARTS[model] = _final_outcomes(model, 1.0, np.float64)
            start = _FLOAT_STARTS[model]
        self.table = np.empty((2 * g - 1 + most, g) + ((slots,) if slots else ()), dtype=self.arith.dtype)
        self.table[...] = start[(...,) + ((None,) if slots else ())]

    def _column(self, per_state: np.ndarray) -> np.ndarray:
        """A per-state array shaped to broadcast against the slots."""
        return per_state[:, None] if self.slots else per_state

    def fill(self, k: int, values: np.ndarray, same_values: Optional[np.ndarray] = None,
             partner: Optional[np.ndarray] = None) -> None:
        """Record outcomes landing on sum ``k`` (that diagonal known).

        ``values[s, o]`` is the win probability of whoever moves next;
        where an extra-turn rule keeps the move, the mover's own values
        ``same_values`` count instead (the same table unless two different
        policies play).  Usually a turn ending below the goal does not end
        the game; an after-turn bonus can push it over, and then the outcome
        is final.  With slots, slot ``i`` takes the next mover's values from
        slot ``partner[i]`` of ``values``.
        """
        d = self.model.diagonals[k]
        flat = values.reshape((-1,) + values.shape[2:])
        pick = (lambda x: x) if partner is None else (lambda x: x[:, partner])
        if not d.final and d.again is None:
            self.table[k, d.opponents] = flat[d.lands] if partner is None else flat[d.lands[:, None], partner]
            return
        win, col = self.model.win, self._column
        lands = np.minimum(d.lands, win - 1)
        known = pick(flat[lands])
        if d.again is not None:
            same = (values if same_values is None else same_values)
            same = same.reshape((-1,) + same.shape[2:])[lands]
            known = np.where(col(d.again), self.arith.one - same, known)  # the opponent's chance, as stored
        if d.final:
            lost = np.full(len(d.lands), self.arith.one, dtype=self.arith.dtype)
            won = np.zeros(len(d.lands), dtype=self.arith.dtype)
            known = np.where(col(d.lands < win), known, col(np.where(d.lands == win, won, lost)))
        self.table[k, d.opponents] = known

    def fill_all(self, values: np.ndarray) -> None:
        """Record the outcomes of every score sum from a finished ``values`` table."""
        for k in range(2 * self.model.goal - 1):
            self.fill(k, values)

    def _sums(self, k: int, actions, rows=None) -> np.ndarray:
        """Weighted sums of outcome values: (m, A) for actions=None, else (m,); only the
        diagonal's states ``rows`` when given (actions=None only)."""
        d, w = self.model.diagonals[k], self.arith.weights
        block = self.table[k: k + w.shape[2], d.opponents]  # (P, m)
        if rows is not None:
            d = dataclasses.replace(d, s=d.s[rows], o=d.o[rows], kinds=d.kinds[rows], bacon_rows=d.bacon_rows[rows])
            block = block[:, rows]
        bacon = self.arith.total * self.table[d.bacon_rows, d.o]
        out: Any = None
        for t in (d.kind,) if d.kind is not None else np.unique(d.kinds):
            if actions is None and w.dtype == object:  # exact: only the points each action can score
                part = np.empty((len(d.s), w.shape[1]), dtype=object)
                for n, support in enumerate(self._supports[t]):
                    part[:, n] = w[t, n, support] @ block[support] if len(support) else 0
                part[:, 0] = bacon
            elif actions is None:
                part = (w[t] @ block).T
                part[:, 0] = bacon
            elif w.dtype == object:
                part = _exact_chosen_sums(w, self._supports, np.full(len(actions), t), actions, block.T)
            else:
                part = np.einsum("mp,pm->m", w[t][actions], block)
            out = part if out is None else np.where(
                (d.kinds == t)[:, None] if actions is None else d.kinds == t, part, out)
        if self.model.piggy is not None:
            delta = self._piggy_delta(d.s, d.o, d.kinds)  # (m, A)
            out = out + (delta if actions is None else delta[np.arange(len(d.s)), actions])
        return out if actions is None else np.where(actions == 0, bacon, out)

    def _piggy_delta(self, s: np.ndarray, o: np.ndarray, kinds: np.ndarray) -> np.ndarray:
        """Piggy Back's correction to the weighted sums at states (s, o): a roll of ``n``
        dice scoring 0 lands on (s, o + n), not on (s, o).  Returns (len(s), A)."""
        model, w, piggy = self.model, self.arith.weights, self.model.piggy
        assert piggy is not None  # called only under Piggy Back
        g, A = model.goal, w.shape[1]
        n = np.arange(1, A)[None, :]
        gained = o[:, None] + n                                   # the opponent's score after it
        landed = self.table[(s + o)[:, None] + n, np.minimum(gained, g - 1)]
        won = np.zeros(landed.shape, dtype=self.arith.dtype)      # past the goal: decided (see model)
        lost = np.full(landed.shape, self.arith.one, dtype=self.arith.dtype)
        final = np.where(piggy[n, s[:, None], o[:, None]] == 0, won, lost)
        value = np.where(gained < g, landed, final)
        delta = np.zeros((len(s), A), dtype=self.arith.dtype)
        delta[:, 1:] = w[kinds, 1:, 0] * (value - self.table[s + o, o][:, None])
        return delta

    def all_action_values(self) -> np.ndarray:
        """Mover's value of every action at every state, (goal, goal, A), all at once.

        Needs every diagonal filled; used to check a finished table.  A
        strided view ``outcomes[o, s, p] = table[s + o + p, o]`` avoids copies.
        """
        model, w = self.model, self.arith.weights
        g, P = model.goal, w.shape[2]
        step = self.table.strides[0] // g
        outcomes = np.lib.stride_tricks.as_strided(  # [s, o, p] = table[s + o + p, o]
            self.table, shape=(g, g, P), strides=(g * step, (g + 1) * step, g * step), writeable=False)
        kinds = model.dice_kind  # [s, o]
        present, count = np.unique(kinds, return_counts=True)
        common = present[np.argmax(count)]
        sums = np.matmul(outcomes, w[common].T)  # (s, o, A), the only array of that size made here
        for t in present[present != common]:
            s_, o_ = np.nonzero(kinds == t)
            sums[s_, o_] = outcomes[s_, o_] @ w[t].T
        s, o = np.meshgrid(np.arange(g), np.arange(g), indexing="ij")
        if model.piggy is not None:
            sums += self._piggy_delta(s.ravel(), o.ravel(), model.dice_kind.ravel()).reshape(g, g, -1)
        sums[..., 0] = self.arith.total * self.table[s + o + model.free_bacon_points[s, o], o]
        return _not_moves(model, self.arith.finish(sums))

    def action_values(self, k: int, rows: Optional[np.ndarray] = None) -> np.ndarray:
        """Mover's value of every action at each state of diagonal ``k`` (or its states
        ``rows``), (m, A); -inf for a dice count below the ruleset's ``min_dice`` (not a move)."""
        return _not_moves(self.model, self.arith.finish(self._sums(k, None, rows)))

    def chosen_values(self, k: int, actions: np.ndarray) -> np.ndarray:
        """Mover's value of the given action at each state of diagonal ``k``, (m,)."""
        return self.arith.finish(self._sums(k, actions))

    def slot_action_values(self, k: int) -> np.ndarray:
        """Mover's value of every action at each state of diagonal ``k`` in every slot,
        ``(A, m, slots)``, in one matrix product (-inf below ``min_dice``).  The array is a
        buffer the next call overwrites: large fresh temporaries on every score sum cost
        page faults where the allocator returns memory eagerly (Dask's workers do)."""
        d, w = self.model.diagonals[k], self.arith.weights
        A, P = w.shape[1:]
        o = int(d.o[0])
        block = self.table[k: k + P, o: o + len(d.o)]  # (P, m, slots); rows of (m, slots) are contiguous
        m, S = block.shape[1:]
        if self._buffer is None:
            self._buffer = np.empty(A * self.model.goal * S)
        every = self._buffer[: A * m * S].reshape(A, m, S)
        if d.kind is not None:
            np.matmul(w[d.kind], block.reshape(P, m * S), out=every.reshape(A, m * S))
        else:
            np.einsum("map,pms->ams", w[d.kinds], block, out=every)
        every[0] = self.table[d.bacon_rows, d.o]
        np.subtract(1.0, every, out=every)
        if self.model.rules.min_dice:
            every[: self.model.rules.min_dice] = -np.inf
        return every

    def chosen_slot_values(self, k: int, actions: np.ndarray) -> np.ndarray:
        """Mover's value at each state of diagonal ``k`` in every slot, (m, slots), for the
        chosen ``actions[m, slot]``."""
        every = self.slot_action_values(k)
        A, m, S = every.shape
        return every.reshape(A, m * S)[actions.reshape(-1), np.arange(m * S)].reshape(m, S)


_FLOAT_STARTS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _final_outcomes(model: Model, one, dtype) -> np.ndarray:
    """The outcome table before any pass: where the mover ends on the goal or beyond, the
    outcome is final (``one`` where the mover has lost, else 0), and every other cell 0."""
    g, most = model.goal, model.max_points
    table = np.zeros((2 * g - 1 + most, g), dtype=dtype)
    new, opp = np.meshgrid(np.arange(g, g + most + 1), np.arange(g), indexing="ij")
    keep = new + opp < table.shape[0]
    lost = np.zeros(int(keep.sum()), dtype=table.dtype)
    lost[model.after[g:, :][keep] == model.loss] = one
    table[(new + opp)[keep], opp[keep]] = lost
    return table


def _supports(arith: Arithmetic):
    """Per kind and action, the points it can score: exact arithmetic skips the zeros (None in floats)."""
    return [[np.flatnonzero(row) for row in kind] for kind in arith.weights] if arith.dtype is object else None


def _exact_chosen_sums(w: np.ndarray, supports, kinds: np.ndarray, actions: np.ndarray,
                       outcomes: np.ndarray) -> np.ndarray:
    """Exact ``sum_p w[kind, action, p] * outcomes[m, p]`` per state, states grouped by (kind,
    action) and only over the points the action can score (0 where it scores none)."""
    sums = np.zeros(len(actions), dtype=object)
    for t, n in {(int(t), int(n)) for t, n in zip(kinds, actions)}:
        rows, support = np.flatnonzero((kinds == t) & (actions == n)), supports[t][n]
        if len(support):
            sums[rows] = outcomes[rows][:, support] @ w[t, n, support]
    return sums


def _not_moves(model: Model, values: np.ndarray) -> np.ndarray:
    """``values`` with the dice counts below ``min_dice`` set to -inf, so no maximum picks them."""
    if model.rules.min_dice:
        if values.dtype == object:
            raise InputError(f"{model.rules.name}: exact mode does not cover rulesets without a zero-dice move")
        values[..., : model.rules.min_dice] = -np.inf
    return values


class LandingTable(_Follows):
    """The backup for rules whose after-turn change depends on the turn's points
    (``points_bonus``), with the interface of :class:`OutcomeTable`.

    The landing of a turn then depends on (s, o, points), not on the sum after
    the turn alone, so each state gathers its own row of next values through
    ``model.points_landing`` and one product per kind of dice sums them.  Every
    turn must score (all landings lie on larger sums, already known).
    """

    def __init__(self, model: Model, arithmetic: Arithmetic | None = None):
        if not model.progressive:
            raise InputError(f"{model.rules.name}: a points bonus needs every turn to score")
        if model.points_landing is None:
            raise InputError(f"{model.rules.name}: no points bonus to land by")
        self.model = model
        self.landing = model.points_landing  # (goal, goal, P) next state by turn points
        self.arith = arithmetic if arithmetic is not None else float_arithmetic(model)
        self._supports = _supports(self.arith)
        extra = np.array([0, self.arith.one], dtype=self.arith.dtype)  # next mover's value: win, loss
        self.known = np.concatenate([np.zeros(model.num_states, dtype=self.arith.dtype), extra])

    def fill(self, k: int, values: np.ndarray, same_values: Optional[np.ndarray] = None) -> None:
        """Record the values of diagonal ``k`` (no extra turns with these rules)."""
        d = self.model.diagonals[k]
        self.known[d.flat] = values.reshape(-1)[d.flat]

    def fill_all(self, values: np.ndarray) -> None:
        """Record every state's value from a finished ``values`` table."""
        self.known[: self.model.num_states] = values.reshape(-1)

    def action_values(self, k: int, rows: Optional[np.ndarray] = None) -> np.ndarray:
        """Mover's value of every action at each state of diagonal ``k`` (or its states
        ``rows``), (m, A)."""
        d, w = self.model.diagonals[k], self.arith.weights
        s, o, kinds, bacon_rows = d.s, d.o, d.kinds, d.bacon_rows
        if rows is not None:
            s, o, kinds, bacon_rows = s[rows], o[rows], kinds[rows], bacon_rows[rows]
        nxt = self.known[self.landing[s, o]]  # (m, P)
        out: Any = None
        for t in (d.kind,) if d.kind is not None else np.unique(kinds):
            part = nxt @ w[t].T
            out = part if out is None else np.where((kinds == t)[:, None], part, out)
        out[:, 0] = self.arith.total * nxt[np.arange(len(s)), bacon_rows - k]
        return self.arith.finish(out)

    def chosen_values(self, k: int, actions: np.ndarray) -> np.ndarray:
        """Mover's value of the given action at each state of diagonal ``k``, (m,)."""
        if self.arith.dtype is not object:
            return np.take_along_axis(self.action_values(k), np.asarray(actions)[:, None], axis=1)[:, 0]
        d = self.model.diagonals[k]  # exact: only the chosen action's points
        nxt = self.known[self.landing[d.s, d.o]]
        sums = _exact_chosen_sums(self.arith.weights, self._supports, d.kinds, actions, nxt)
        zero = np.flatnonzero(actions == 0)
        sums[zero] = self.arith.total * nxt[zero, d.bacon_rows[zero] - k]
        return self.arith.finish(sums)

    def all_action_values(self) -> np.ndarray:
        """Mover's value of every action at every state, (goal, goal, A)."""
        out = np.empty(self.model.value_shape + (self.arith.weights.shape[1],), dtype=self.arith.dtype)
        for k in range(2 * self.model.goal - 1):
            d = self.model.diagonals[k]
            out[d.s, d.o] = self.action_values(k)
        return out
