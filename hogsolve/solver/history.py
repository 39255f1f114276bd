"""The backup under a history rule (Feral Hogs), with each player's memories merged where
play cannot tell them apart.

Under fa19, sp20 and su20 a state holds what each player remembers of their own previous
turn, so a value table is ``[s, o, x, y]``: ``x`` the mover's memory, ``y`` the
opponent's.  A player's value depends on its own memory only through what it does with
it, the dice it rolls there and the bonus they earn, and on the other's memory only
through what the other does with theirs and through its own choices.  So where a player's
strategy is fixed, memories that it treats alike everywhere are one *class*
(:class:`MemoryAxes`): always rolling 4 under sp20 has two (remembering 2 or 6 points,
where 4 dice earn the bonus, and the rest), and a best response to it, or a pair with
it, works on those two instead of fourteen.  The merge is exact: values are equal over
a class, so each is computed once and copied out (:func:`expand`).
"""
from __future__ import annotations

from typing import Callable, NamedTuple, Optional, Tuple

import numpy as np

from .backup import Arithmetic, float_arithmetic
from .model import Model
from ..errors import InputError


class MemoryAxes(NamedTuple):
    """How one player's value table indexes the memories: ``own[x]`` is the index of the
    player's own memory ``x`` and ``other[y]`` that of the other player's memory ``y``
    (memories as the model's indices below H; classes numbered by their least memory,
    so memory 0, the start's, is index 0)."""

    own: np.ndarray
    other: np.ndarray

    @property
    def sizes(self) -> Tuple[int, int]:
        """(own classes, other classes)."""
        return int(self.own.max()) + 1, int(self.other.max()) + 1

    @property
    def whole(self) -> bool:
        """True when no memory is merged with another."""
        return self.sizes == (len(self.own), len(self.other))


def every_memory(size: int) -> MemoryAxes:
    """Every memory its own class (the solver's table, a best response's own memory)."""
    return MemoryAxes(np.arange(size), np.arange(size))


def firsts(classes: np.ndarray) -> np.ndarray:
    """The least memory of each class, by class."""
    first = np.empty(int(classes.max()) + 1, dtype=np.intp)
    first[classes[::-1]] = np.arange(len(classes))[::-1]
    return first


def _numbered(keys) -> np.ndarray:
    """Class of each memory from a hashable key per memory, numbered by first appearance."""
    seen: dict = {}
    return np.array([seen.setdefault(key, len(seen)) for key in keys], dtype=np.intp)


def _memory_free(policy: np.ndarray) -> bool:
    """True when a full policy table is one (goal, goal) table broadcast over the memories."""
    return all(stride == 0 for stride in policy.strides[2:])


def dice_used(policy: np.ndarray, actions: int) -> np.ndarray:
    """``[n]``: whether a policy table chooses n dice anywhere: one bit per dice count, or-ed
    together (cheaper than counting; a table that ignores the memories is read once)."""
    chosen = policy[:, :, :1, :1] if policy.ndim == 4 and _memory_free(policy) else policy
    bits = np.left_shift(1, chosen, dtype=np.int16 if actions <= 15 else np.int64)
    return (int(np.bitwise_or.reduce(bits, axis=None)) >> np.arange(actions)) & 1 > 0


def _bonus_points(model: Model) -> np.ndarray:
    """``[x, n]``: the bonus points of rolling n dice with memory x."""
    rule = model.rules.history
    assert rule is not None  # memories come from a history rule
    H, A = model.context_shape[0], model.num_actions
    return np.asarray(rule.points(np.arange(A)[None, :], np.arange(H)[:, None]))


def own_classes(model: Model, policy: np.ndarray) -> np.ndarray:
    """Classes of a fixed player's own memory: memories where it rolls the same dice for the
    same bonus in every state (``policy`` shaped ``model.value_shape``)."""
    bonus = (_bonus_points(model) > 0).astype(np.int8)  # [x, n]: whether n dice earn the bonus
    if _memory_free(policy):
        used = dice_used(policy, bonus.shape[1])
        return _numbered(bonus[x, used].tobytes() for x in range(len(bonus)))
    by_own = np.ascontiguousarray(np.moveaxis(policy.astype(np.int8), 2, 0))  # [x, s, o, y]
    codes = np.arange(bonus.shape[1], dtype=np.int8) + bonus * np.int8(bonus.shape[1])  # [x, n]: n and the bonus
    return _numbered(np.take(codes[x], by_own[x]).tobytes() for x in range(len(bonus)))


def other_classes(policy: np.ndarray, others_own: np.ndarray) -> np.ndarray:
    """Classes of the other player's memory for a fixed player: the other's own classes,
    split where this player's choices differ."""
    if _memory_free(policy):
        return others_own
    by_other = np.ascontiguousarray(np.moveaxis(policy.astype(np.int8), 3, 0))  # [y, s, o, x]
    return _numbered((int(c), by_other[y].tobytes()) for y, c in enumerate(others_own))


def memory_support(model: Model, policy: np.ndarray) -> np.ndarray:
    """``[x]``: whether a fixed player can ever remember x: 0 before its first turn, then what
    the dice counts it chooses can leave (every point they can score; Free Bacon's points
    for zero dice).  Play never reaches the other memories."""
    rule = model.rules.history
    assert rule is not None  # memories come from a history rule
    H, A, max_dice = model.context_shape[0], model.num_actions, int(model.rules.max_dice)
    used = dice_used(policy, A)
    support = np.zeros(H, dtype=bool)
    support[0] = True
    for n in np.flatnonzero(used):
        points = np.unique(model.free_bacon_points) if n == 0 else np.flatnonzero(model.counts[:, n].any(axis=0))
        support[np.asarray(rule.memory(n, points, max_dice))] = True
    return support


def _within(classes: np.ndarray, support: np.ndarray) -> np.ndarray:
    """``classes`` with every memory outside ``support`` put with memory 0 (never reached, so
    whatever it is worth does not matter), renumbered."""
    return _numbered(np.where(support, classes, classes[0]).tolist())


def pair_axes(model: Model, policy_a: np.ndarray, policy_b: np.ndarray,
              reached: bool = False) -> Tuple[MemoryAxes, MemoryAxes]:
    """Both fixed players' :class:`MemoryAxes` (full policy tables).  With ``reached``, the
    memories a player never has are merged with memory 0 too: the values of states play
    never reaches are then not each their own (enough for the start's value, or the visits)."""
    own_a, own_b = own_classes(model, policy_a), own_classes(model, policy_b)
    if not reached:
        return (MemoryAxes(own_a, other_classes(policy_a, own_b)),
                MemoryAxes(own_b, other_classes(policy_b, own_a)))
    support_a, support_b = memory_support(model, policy_a), memory_support(model, policy_b)
    own_a, own_b = _within(own_a, support_a), _within(own_b, support_b)
    return (MemoryAxes(own_a, _within(other_classes(policy_a, own_b), support_b)),
            MemoryAxes(own_b, _within(other_classes(policy_b, own_a), support_a)))


def visit_axes(model: Model, policy_me: np.ndarray, policy_opp: np.ndarray) -> Tuple[MemoryAxes, MemoryAxes]:
    """The axes for carrying play forward to count my visits of every state (memories whole,
    except those never reached), and the opponent's (its memories it plays alike merged)."""
    H = model.context_shape[0]
    support_me, support_opp = memory_support(model, policy_me), memory_support(model, policy_opp)
    mine = _within(np.arange(H), support_me)
    theirs = _within(np.arange(H), support_opp)
    return MemoryAxes(mine, theirs), MemoryAxes(_within(own_classes(model, policy_opp), support_opp), mine)


def response_axes(model: Model, opponent: np.ndarray) -> Tuple[MemoryAxes, MemoryAxes]:
    """A best response's axes and its fixed opponent's: the response keeps its own memories
    and sees the opponent's classes (its best choice differs only where the opponent's play does)."""
    H = model.context_shape[0]
    theirs = own_classes(model, opponent)
    return MemoryAxes(np.arange(H), theirs), MemoryAxes(theirs, np.arange(H))


def facing(model: Model, axes: Tuple[MemoryAxes, MemoryAxes]) -> Tuple["HistoryTable", "HistoryTable"]:
    """The two players' outcome tables for ``axes`` (the first player's, the second's): each
    backs up its mover's values and is filled with the other's."""
    return HistoryTable(model, None, *axes), HistoryTable(model, None, axes[1], axes[0])


def supported(axes: MemoryAxes) -> Tuple[np.ndarray, np.ndarray]:
    """``(own, other)``: the memories ``axes`` keep apart from memory 0's class, and memory 0:
    those a player can have where the memories it never has were merged with 0 (:func:`visit_axes`)."""
    return tuple((classes != classes[0]) | (np.arange(len(classes)) == 0)
                 for classes in (axes.own, axes.other))


def compact(table: np.ndarray, axes: MemoryAxes) -> np.ndarray:
    """A full ``[s, o, x, y]`` table on ``axes``' classes (each class's least memories)."""
    if axes.whole:
        return table
    if _memory_free(table):
        return np.broadcast_to(table[:, :, :1, :1], table.shape[:2] + axes.sizes)
    return table[:, :, firsts(axes.own)][:, :, :, firsts(axes.other)]


def expand(table: np.ndarray, axes: MemoryAxes) -> np.ndarray:
    """A table on ``axes``' classes as a full ``[s, o, x, y]`` table."""
    H = len(axes.own)
    if table.shape[2] < H:
        table = np.take(table, axes.own, axis=2)
    if table.shape[3] < H:
        table = np.take(table, axes.other, axis=3)
    return table


class Places(NamedTuple):
    """A fixed policy's entries' rows among the sums (:meth:`HistoryTable._sums`)."""

    place: np.ndarray   # [s, o, i, j] (or one diagonal's [m, i, j]): bonus * (rows) + row
    rolled: np.ndarray  # the dice counts rolled somewhere, row 1 on
    bacon: bool         # zero dice chosen somewhere (row 0)


class HistoryTable:
    """Outcome values under a history rule, with the interface of
    :class:`~hogsolve.solver.backup.OutcomeTable` over values ``[s, o, i, j]`` (``i`` the
    class of the mover's memory, ``j`` of the opponent's, as ``mover``'s axes say; every
    memory its own class by default).

    ``by_memory[h, r, o, c]`` is the next mover's win probability after the mover ends a
    turn on ``r - o`` points (Feral bonus included) against ``o``; the next mover's own
    memory is in class ``c`` and the mover now remembers ``h`` (the dice just rolled, or
    the points just scored, capped; as the next mover's ``other`` class).  Rolling ``n``
    dice with memory ``x`` scores ``p`` with the bonus ``beta(x, n)``, so each action's sum
    runs over ``by_memory[h(n, p), k + beta + p, o]``: whole rows where the memory is the
    dice count, and for the points, one gather of the rows below the cap and whole rows
    above it.  Floats only.
    """

    def __init__(self, model: Model, arithmetic: Arithmetic | None = None,
                 mover: Optional[MemoryAxes] = None, following: Optional[MemoryAxes] = None):
        """``mover``: the axes of the values this table backs up; ``following``: those of the
        next mover's values it is filled with (both every memory when not given)."""
        self.model = model
        self.arith = arithmetic if arithmetic is not None else float_arithmetic(model)
        if self.arith.dtype is object:
            raise InputError(f"{model.rules.name}: history rules are solved in floats only")
        rule, max_dice = model.rules.history, int(model.rules.max_dice)
        if rule is None:
            raise InputError(f"{model.rules.name}: no history rule to keep memories of")
        self.rule = rule
        g, most, (H, _) = model.goal, model.max_points, model.context_shape
        self.mover = mover if mover is not None else every_memory(H)
        self.following = following if following is not None else every_memory(H)
        own, other = self.following.sizes
        # rows past the last reachable sum keep the bonus-shifted blocks in range (zero weights there)
        self.by_memory = np.zeros((other, 2 * g - 1 + most + int(rule.bonus), g, own))  # [h, r, o, c]
        new, opp = np.nonzero(model.after[g:, :] == model.loss)  # the mover lost ending there: 1
        keep = g + new + opp < self.by_memory.shape[1]
        self.by_memory[:, (g + new + opp)[keep], opp[keep]] = 1.0
        A, P = self.arith.weights.shape[1:]
        mine = firsts(self.mover.own)
        self.bonus = _bonus_points(model)[mine]  # (own classes, A)
        self.bonus_values = np.unique(self.bonus)
        self.betas = [int(b) for b in self.bonus_values]
        self.bonus_rank = np.searchsorted(self.bonus_values, self.bonus)  # which of bonus_values
        # the next mover's own class of each class of theirs that the mover's values see
        self.their_class = self.following.own[firsts(self.mover.other)]
        if not np.array_equal(self.their_class[self.mover.other], self.following.own):
            raise InputError("the mover's classes of the other's memory must split the other's own classes")
        # the row of by_memory that n dice scoring p lead to (the mover's new memory, as a class)
        n, p = np.meshgrid(np.arange(A), np.arange(P), indexing="ij")
        memory = np.asarray(rule.memory(n, p, max_dice))  # (A, P)
        self.row = self.following.other[memory]
        self.memory_of_dice = bool((memory == memory[:, :1]).all())  # remembered: the dice count
        self.memory_of_points = bool((memory == memory[-1]).all())   # remembered: the points
        self._bacon_rows: Optional[np.ndarray] = None
        if self.memory_of_points:  # rows from `cap` on share one memory: a view, not a gather
            same = self.row[0] == self.row[0, -1]
            self.cap = int(P - np.argmin(same[::-1])) if not same.all() else 0

    def fill(self, k: int, values: np.ndarray, same_values: Optional[np.ndarray] = None) -> None:
        """Record outcomes landing on sum ``k`` from the next mover's ``values`` (on the
        ``following`` axes; see :meth:`OutcomeTable.fill`; no extra turns here)."""
        d = self.model.diagonals[k]
        flat = values.reshape((-1,) + values.shape[2:])
        win = self.model.win
        known = flat[np.minimum(d.lands, win - 1)]
        if d.final:
            decided = np.where(d.lands == win, 0.0, 1.0)[:, None, None]
            known = np.where((d.lands < win)[:, None, None], known, decided)
        self.by_memory[:, k, d.opponents] = np.moveaxis(known, -1, 0)

    def fill_all(self, values: np.ndarray) -> None:
        """Record the outcomes of every score sum from a finished ``values`` table."""
        for k in range(2 * self.model.goal - 1):
            self.fill(k, values)

    def _sums(self, k: int, d, t: int, dice: np.ndarray, bacon: bool) -> np.ndarray:
        """``[bonus, row, m * c]``: the weighted outcome values of rolling ``dice[row - 1]`` dice
        of kind t for each bonus value (in :attr:`bonus_values`' order) at each state m and
        class c of the next mover; row 0 is rolling zero dice (filled when ``bacon``)."""
        w = self.arith.weights[t][dice]
        U, P = w.shape
        betas = self.betas
        table = self.by_memory
        m, C = d.opponents.stop - d.opponents.start, table.shape[3]
        out = np.empty((len(betas), U + 1, m * C))
        if bacon:
            out[:, 0] = self._bacon(k, d)
        if not U:
            return out
        if self.memory_of_dice:  # the rows of every dice count at once, shifted for each bonus
            block = table[self._dice_rows(dice), k: k + P + max(betas), d.opponents].reshape(U, -1, m * C)
            for at, beta in enumerate(betas):
                np.matmul(w[:, None, :], block[:, beta: beta + P], out=out[at, 1:, None, :])
            return out
        for at, beta in enumerate(betas):
            start = k + beta
            if self.memory_of_points:  # gathered below the cap, one view of rows above it
                c = self.cap
                low, high = self._point_rows(start, d, P)
                np.matmul(w[:, c:], table[high].reshape(P - c, m * C), out=out[at, 1:])
                out[at, 1:] += w[:, :c] @ table[low].reshape(c, m * C)
            else:
                for j, n in enumerate(dice):
                    rows = table[self.row[n], np.arange(start, start + P), d.opponents].reshape(P, m * C)
                    np.matmul(w[j], rows, out=out[at, j + 1])
        return out

    def _bacon(self, k: int, d) -> np.ndarray:
        """``[bonus, m * c]``: the outcome value of rolling zero dice: the Free Bacon points, each
        bonus, and the memory they leave (one gather of rows of ``by_memory``)."""
        C = self.by_memory.shape[3]
        return np.take(self.by_memory.reshape(-1, C), self._bacon_index(d), axis=0).reshape(len(self.betas), -1)

    def _bacon_index(self, d) -> np.ndarray:
        """``[bonus, m]``: the row of ``by_memory`` seen as ``(h, r, o)`` rows that zero dice lead
        to from each state of diagonal ``d`` with each bonus (memory left, sum after, o)."""
        if self._bacon_rows is None:  # every state at once, the first time
            model = self.model
            g, R = model.goal, self.by_memory.shape[1]
            s, o = np.meshgrid(np.arange(g), np.arange(g), indexing="ij")
            points = model.free_bacon_points
            memory = self.following.other[np.broadcast_to(
                self.rule.memory(0, points, int(model.rules.max_dice)), points.shape)]
            self._bacon_rows = ((memory * R + s + o + points) * g + o).reshape(-1)
        return self._bacon_rows[d.flat][None, :] + (self.bonus_values * self.model.goal)[:, None]

    def _dice_rows(self, dice: np.ndarray):
        """The rows of ``by_memory`` that rolling each of ``dice`` leads to where the memory is the
        dice count: one slice when they are consecutive memories (a view), else their indices."""
        rows = self.row[dice, 0]
        return slice(int(rows[0]), int(rows[-1]) + 1) if (np.diff(rows) == 1).all() else rows

    def _point_rows(self, start: int, d, P: int):
        """Where the memory is the points: the cells of ``by_memory`` that scoring each p leads to
        from sum ``start`` (the bonus included), as an index for the points below the cap (one
        gather) and one for the rest (one view)."""
        c = self.cap
        return ((self.row[0, :c], np.arange(start, start + c), d.opponents),
                (int(self.row[0, -1]), slice(start + c, start + P), d.opponents))

    def _kinds(self, d):
        return (d.kind,) if d.kind is not None else [int(t) for t in np.unique(d.kinds)]

    def action_values(self, k: int) -> np.ndarray:
        """Mover's value of every action at each state of diagonal ``k``, (m, i, j, A): a view
        of an array laid out ``[n, i, m, j]``, whose reductions over the actions run fastest
        and whose copies run over whole rows of states."""
        d = self.model.diagonals[k]
        A = self.arith.weights.shape[1]
        (n_own, n_other), m, C = self.mover.sizes, len(d.s), self.by_memory.shape[3]
        # the row of the sums that action n takes with memory class i: its bonus's
        rows = self.bonus_rank.T * A + np.arange(A)[:, None]  # (n, i)
        kinds = self._kinds(d)
        out = np.empty((A, n_own, m, n_other))
        for t in kinds:
            sums = self._sums(k, d, t, np.arange(1, A), True).reshape(-1, m, C)  # [bonus * A + n, m, c]
            if n_other != C or not np.array_equal(self.their_class, np.arange(C)):
                sums = np.take(sums, self.their_class, axis=2)  # [., m, j]
            if len(kinds) == 1:
                np.take(sums, rows, axis=0, out=out)
            else:
                np.copyto(out, np.take(sums, rows, axis=0), where=(d.kinds == t)[None, None, :, None])
        return np.transpose(np.subtract(1.0, out, out=out), (2, 1, 3, 0))

    def chosen_values(self, k: int, actions: np.ndarray) -> np.ndarray:
        """Mover's value of the given actions ``(m, i, j)`` at diagonal ``k``."""
        d = self.model.diagonals[k]
        places = self.places(np.broadcast_to(np.asarray(actions), (len(d.s),) + self.mover.sizes))
        return self._values_of(k, places.place, places)

    def follow(self, policy: np.ndarray) -> Callable[[int], np.ndarray]:
        """``values(k)``: the mover's values at diagonal ``k`` when it plays the fixed ``policy``
        (``[s, o, i, j]`` on the mover's axes).  The sums are those of the dice counts the policy
        uses only (a fixed strategy uses few; every action's value, as :meth:`action_values`
        works out, costs up to eleven times as much), and each entry's place among them is
        worked out once for the whole table."""
        places = self.places(policy)
        diagonals = self.model.diagonals
        return lambda k: self._values_of(k, places.place[diagonals[k].s, diagonals[k].o], places)

    def places(self, policy: np.ndarray) -> "Places":
        """Where each entry of ``policy`` (any leading shape, then the mover's ``(i, j)``) finds
        its value among the sums :meth:`_sums` returns for the dice it uses."""
        A = self.arith.weights.shape[1]
        n_own = self.mover.sizes[0]
        free = policy.ndim == 4 and _memory_free(policy)
        chosen = policy[:, :, :1, :1] if free else policy
        used = dice_used(policy, A)
        rolled = np.flatnonzero(used[1:]) + 1
        row_of = np.zeros(A, dtype=np.intp)
        row_of[rolled] = np.arange(1, rolled.size + 1)
        lut = (self.bonus_rank * (rolled.size + 1) + row_of[None, :]).reshape(-1)  # [i * A + n]: the row
        if free:  # one choice per (s, o): a place per class i, the same for every j
            place = np.take(lut, chosen[:, :, :1] + np.arange(0, n_own * A, A)[:, None])
            return Places(np.broadcast_to(place, policy.shape), rolled, bool(used[0]))
        at = np.arange(0, n_own * A, A, dtype=np.int16)[:, None]
        return Places(np.take(lut, np.add(policy, at, dtype=np.int16)), rolled, bool(used[0]))

    def _index(self, place: np.ndarray, m: int, C: int) -> np.ndarray:
        """Each entry's place ``(m, i, j)`` as its index into the flattened sums ``[bonus, row, m, c]``."""
        index = place * (m * C)
        index += (np.arange(m) * C)[:, None, None] + self.their_class[None, None, :]
        return index

    def _values_of(self, k: int, place: np.ndarray, places: "Places") -> np.ndarray:
        """The mover's values at diagonal ``k`` from each entry's ``place`` ``(m, i, j)``."""
        d = self.model.diagonals[k]
        (n_own, n_other), m, C = self.mover.sizes, len(d.s), self.by_memory.shape[3]
        index = self._index(place, m, C)
        kinds = self._kinds(d)
        out = np.empty((m, n_own, n_other))
        for t in kinds:
            sums = self._sums(k, d, t, places.rolled, places.bacon)
            if len(kinds) == 1:
                np.take(sums.reshape(-1), index, out=out)
            else:
                np.copyto(out, np.take(sums.reshape(-1), index), where=(d.kinds == t)[:, None, None])
        return np.subtract(1.0, out, out=out)

    def spread(self, k: int, place: np.ndarray, places: "Places", mass: np.ndarray) -> None:
        """Carry ``mass`` ``(m, i, j)``, the chance that the mover is at each state of diagonal
        ``k`` playing the fixed policy whose entries' ``place`` (:meth:`places`) it gives, to
        where its turns end: the transpose of :meth:`follow`'s values.  ``by_memory`` then holds
        the chance of each outcome, as :meth:`arrivals` hands it on (start from
        :meth:`clear_outcomes`)."""
        d = self.model.diagonals[k]
        m, C = len(d.s), self.by_memory.shape[3]
        index = self._index(place, m, C)
        rows = len(self.bonus_values) * (places.rolled.size + 1)
        for t in self._kinds(d):
            share = mass if d.kind is not None else np.where((d.kinds == t)[:, None, None], mass, 0.0)
            by_row = np.bincount(index.reshape(-1), weights=share.reshape(-1), minlength=rows * m * C)
            self._spread_sums(k, d, t, places.rolled, places.bacon, by_row.reshape(len(self.bonus_values), -1, m * C))

    def _spread_sums(self, k: int, d, t: int, dice: np.ndarray, bacon: bool, mass: np.ndarray) -> None:
        """The transpose of :meth:`_sums`: ``mass[bonus, row, m * c]`` of each dice count (row 0:
        zero dice) added to the outcomes it leads to, weighted by the chance of each."""
        w = self.arith.weights[t][dice]
        U, P = w.shape
        betas = self.betas
        table = self.by_memory
        m, C = d.opponents.stop - d.opponents.start, table.shape[3]
        if bacon:
            table.reshape(-1, C)[self._bacon_index(d).reshape(-1)] += mass[:, 0].reshape(-1, C)
        if not U:
            return
        for at, beta in enumerate(betas):
            start = k + beta
            carried = mass[at, 1:]  # (U, m * C)
            if self.memory_of_points:
                c = self.cap
                low, high = self._point_rows(start, d, P)
                table[high] += (w[:, c:].T @ carried).reshape(P - c, m, C)
                table[low] += (w[:, :c].T @ carried).reshape(c, m, C)
            elif self.memory_of_dice:
                rows = self._dice_rows(dice)
                if isinstance(rows, slice):  # consecutive memories: one view, every dice count at once
                    table[rows, start: start + P, d.opponents] += \
                        (w[:, :, None] * carried[:, None, :]).reshape(U, P, m, C)
                else:  # one dice count at a time: two counts may share a memory's rows
                    for j in range(U):
                        table[int(rows[j]), start: start + P, d.opponents] += \
                            np.multiply.outer(w[j], carried[j]).reshape(P, m, C)
            else:
                for j, n in enumerate(dice):
                    table[self.row[n], np.arange(start, start + P), d.opponents] += \
                        np.multiply.outer(w[j], carried[j]).reshape(P, m, C)

    def clear_outcomes(self) -> None:
        """Empty ``by_memory`` to carry chances (:meth:`spread`) instead of values."""
        self.by_memory[...] = 0.0

    def arrivals(self, k: int) -> np.ndarray:
        """``[m, c, h]``: the chance carried to each cell of diagonal ``k`` (turns ended there),
        as the next mover's ``(own class, other class)`` at ``diagonals[k].lands``; taken out
        of the table."""
        d = self.model.diagonals[k]
        cells = self.by_memory[:, k, d.opponents]
        landed = np.moveaxis(cells, 0, -1).copy()
        cells[...] = 0.0
        return landed

    def all_action_values(self) -> np.ndarray:
        """Mover's value of every action at every state, (goal, goal, i, j, A); needs every diagonal filled."""
        g = self.model.goal
        out = np.empty((g, g) + self.mover.sizes + (self.arith.weights.shape[1],))
        for k in range(2 * g - 1):
            d = self.model.diagonals[k]
            out[d.s, d.o] = self.action_values(k)
        return out
