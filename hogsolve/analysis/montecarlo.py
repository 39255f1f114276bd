"""Vectorised Monte Carlo of many games between two strategies.

All games advance together, one turn per step, with numpy arrays.  Points
are drawn exactly from the model's integer counts: a uniform integer below
the common denominator is looked up in the cumulative counts, so the only
randomness is the seeded generator's.  Games run in chunks of constant
size; game ``i`` starts with ``a`` when ``i`` is odd, so half the games
start with each; the estimate of the win rate carries a 95% Wilson interval.
"""
from __future__ import annotations

import dataclasses
import math
import time
from math import lcm
from typing import Any, Callable, Iterable, Optional

import numpy as np

from ..solver.model import Model, compile_model
from ..hog.rules import Ruleset
from ..util.stats import standard_error, wilson_interval
from ..util.plain import plain
from ..strategy.policy import as_policy
from ..errors import InputError


@dataclasses.dataclass(frozen=True)
class SimulationResult:
    """Win counts of ``a`` in ``games`` games, half with each player first."""

    a: str
    b: str
    games_first: int
    wins_first: int
    games_second: int
    wins_second: int
    seed: Optional[int]
    seconds: float

    @property
    def first(self) -> float:
        """Share of games won by ``a`` when it moved first."""
        return self.wins_first / self.games_first

    @property
    def second(self) -> float:
        """Share of games won by ``a`` when ``b`` moved first."""
        return self.wins_second / self.games_second

    @property
    def average(self) -> float:
        """The estimated CS 61A win rate of ``a``."""
        return (self.first + self.second) / 2

    @property
    def standard_error(self) -> float:
        """Standard error of the average (normal approximation)."""
        return math.hypot(standard_error(self.first, self.games_first),
                          standard_error(self.second, self.games_second)) / 2

    @property
    def effective_games(self) -> float:
        """Trials of one proportion with the average's variance bound: 4 / (1/n1 + 1/n2)."""
        return 4 / (1 / self.games_first + 1 / self.games_second)

    @property
    def interval(self):
        """The 95% Wilson interval of the average win rate.

        The average of two independent proportions has variance at most
        ``p (1 - p) / effective_games`` (concavity), so the Wilson interval
        for that many trials covers it; it never leaves [0, 1].
        """
        return wilson_interval(self.average, self.effective_games)

    def to_dict(self) -> dict:
        """The simulation as plain JSON values."""
        return plain({"a": self.a, "b": self.b, "games": self.games_first + self.games_second,
                      "first": self.first, "second": self.second, "average": self.average,
                      "ci95": list(self.interval), "seed": self.seed, "seconds": self.seconds})


class PointSampler:
    """Exact sampling of a turn's points from the model's integer counts, by integer alias
    tables (Walker's method).  A row is a kind of dice and a dice count, or a sure number
    of points (zero dice: Free Bacon's); every row's counts are scaled so that each of its
    columns (padded to a power of two) holds exactly ``base`` units, split between the
    column's own points and one alias; one uniform integer picks a column (its low bits)
    and a unit in it (the rest)."""

    def __init__(self, model: Model):
        self.model = model
        self.base = lcm(*(int(d) for d in model.denominators))
        counts = np.stack([model.counts[t].astype(np.int64) * (self.base // int(d))
                           for t, d in enumerate(model.denominators)])  # (T, A, P), rows sum to base
        T, A, P = counts.shape
        self.sure = T * A  # row sure + p: exactly p points
        rows = np.concatenate([counts.reshape(T * A, P), np.eye(P, dtype=np.int64) * self.base])
        self.bits = max(1, (P - 1).bit_length())  # columns padded to a power of two: a mask picks one
        width = 1 << self.bits
        self.threshold = np.zeros((len(rows), width), dtype=np.int64)
        self.alias = np.tile(np.arange(width, dtype=np.int64), (len(rows), 1))
        for row, units in enumerate(rows):
            if units.sum():
                padded = np.zeros(width, dtype=np.int64)
                padded[:P] = units * width
                self.threshold[row], self.alias[row] = _alias_row(padded, self.base)
        self.threshold = self.threshold.ravel()
        self.alias = self.alias.ravel()
        self.high = self.base << self.bits
        self.dtype = np.uint32 if self.high <= 2 ** 32 else np.int64

    def rows(self, policy: np.ndarray) -> np.ndarray:
        """The sampler's row for every entry of a flat policy table (memories last, if any)."""
        state = np.arange(len(policy)) // (len(policy) // self.model.num_states)
        return self.row_of(state, policy)

    def row_of(self, state: np.ndarray, actions: np.ndarray) -> np.ndarray:
        """The sampler's row for ``actions`` dice at flat states ``state``: the dice's kind and
        count, or for zero dice the sure row of Free Bacon's points there."""
        model = self.model
        rolled = model.dice_kind.reshape(-1)[state] * model.num_actions + actions
        return np.where(actions > 0, rolled, self.sure + model.free_bacon_points.reshape(-1)[state])

    def sample(self, rows: np.ndarray, rng: np.random.Generator, out: Optional[np.ndarray] = None,
               scratch: Optional[tuple] = None) -> np.ndarray:
        """Points of one turn for each of ``rows`` (int64), into ``out`` if given.  ``rows`` is
        overwritten; ``scratch`` (an int64 and a bool array as long) avoids fresh temporaries."""
        n = len(rows)
        column, kept = scratch if scratch is not None else (np.empty(n, dtype=np.int64), np.empty(n, dtype=bool))
        column, kept = column[:n], kept[:n]
        draw = rng.integers(0, self.high, size=n, dtype=self.dtype)
        np.bitwise_and(draw, (1 << self.bits) - 1, out=column, casting="unsafe")
        cell = np.left_shift(rows, self.bits, out=rows)
        cell |= column
        alias = np.take(self.alias, cell, out=out)
        np.less(np.right_shift(draw, self.bits, out=draw), np.take(self.threshold, cell, out=cell), out=kept)
        column -= alias
        column *= kept
        alias += column
        return alias


def _alias_row(units: np.ndarray, base: int):
    """Integer alias table of one row: ``units`` (summing to ``len(units) * base``) becomes, per
    column, the units kept by the column (``threshold``) and the column the rest goes to."""
    P = len(units)
    threshold = units.astype(object).copy()
    alias = np.arange(P)
    small = [j for j in range(P) if threshold[j] < base]
    large = [j for j in range(P) if threshold[j] > base]
    while small and large:
        j, big = small.pop(), large[-1]
        alias[j] = big
        threshold[big] -= base - threshold[j]
        if threshold[big] < base:
            large.pop()
            small.append(big)
        elif threshold[big] == base:
            large.pop()
    assert all(threshold[j] == base for j in small + large)  # integers: nothing is left over
    return np.array(threshold, dtype=np.int64), alias


#: Games advanced together: memory stays constant however many are asked for.
CHUNK = 131_072


def simulate(a, b, rules: Ruleset, games: int = 100_000, seed: Optional[int] = 0,
             *, model: Optional[Model] = None, chunk: int = CHUNK,
             progress: Optional[Callable] = None,
             announce: Optional[Callable[[float], None]] = None) -> SimulationResult:
    """Play ``games`` games between ``a`` and ``b`` (strategies or policy tables).

    Games run in chunks of ``chunk`` with one seeded generator, so memory is
    constant and the result depends only on ``seed`` and ``chunk``.  Game
    ``i`` has ``a`` first when ``i`` is odd (half the games, rounded down).
    ``progress(chunks, total)`` may wrap the chunks; ``announce(seconds)``
    hears the estimated total time after the first chunk.
    """
    if games < 2:
        raise InputError("simulate needs at least 2 games")
    if seed is not None and seed < 0:
        raise InputError(f"seed must be 0 or more, got {seed}")
    start = time.perf_counter()
    model = model if model is not None else compile_model(rules)
    policy_a, policy_b = as_policy(a, rules), as_policy(b, rules)
    pa, pb = (p.table.reshape(-1).astype(np.int64) for p in (policy_a, policy_b))
    rng = np.random.default_rng(seed)
    sampler = PointSampler(model)
    bounds = list(range(0, games, chunk)) + [games]
    spans: Iterable = list(zip(bounds[:-1], bounds[1:]))
    if progress is not None:
        spans = progress(spans, len(bounds) - 1)
    games_first = wins_first = games_second = wins_second = 0
    for number, (lo, hi) in enumerate(spans):
        a_first = np.arange(lo, hi) % 2 == 1
        a_won = _play_chunk(model, sampler, pa, pb, a_first, rng)
        first = int(a_first.sum())  # counted as played, not as asked for
        games_first, games_second = games_first + first, games_second + (hi - lo - first)
        wins_first += int(a_won[a_first].sum())
        wins_second += int(a_won[~a_first].sum())
        if number == 0 and announce is not None and hi < games:
            announce((time.perf_counter() - start) * games / hi)
    return SimulationResult(
        a=policy_a.name, b=policy_b.name,
        games_first=games_first, wins_first=wins_first,
        games_second=games_second, wins_second=wins_second,
        seed=seed, seconds=time.perf_counter() - start,
    )


def _play_chunk(model: Model, sampler: PointSampler, pa: np.ndarray, pb: np.ndarray,
                a_first: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Play one chunk of games to the end; ``a_won[i]`` for each game.

    The live games sit at the front of preallocated buffers: fresh megabyte-sized
    temporaries every turn would cost page faults, not arithmetic.  A finished game's
    place is taken by a live game from the back, so a turn costs a pass over the live
    games plus work in proportion to the games that just ended.
    """
    rows = np.concatenate([sampler.rows(pb), sampler.rows(pa)])  # b's, then a's: one gather serves both
    policies = np.concatenate([pb, pa])
    offset = len(pb)
    games = len(a_first)
    rule = model.rules.history
    cells = int(np.prod(model.context_shape, dtype=np.int64))  # 1 without a history rule
    state, game = np.zeros(games, dtype=np.int64), np.arange(games)  # flat (mover score, opponent score)
    a_moves = a_first.copy()
    mine = np.zeros(games, dtype=np.int64)    # the mover's memory of their previous turn
    theirs = np.zeros(games, dtype=np.int64)  # the opponent's
    a_won = np.zeros(games, dtype=bool)
    cell_buf, points_buf, row_buf = (np.empty(games, dtype=np.int64) for _ in range(3))
    scratch = (np.empty(games, dtype=np.int64), np.empty(games, dtype=bool))
    over_buf = np.empty(games, dtype=bool)
    moving = [state, game, a_moves] + ([mine, theirs] if rule is not None else [])
    n = games
    while n:
        cell = np.multiply(a_moves[:n], offset, out=cell_buf[:n])
        if cells > 1:
            cell += state[:n] * cells + mine[:n] * model.context_shape[0] + theirs[:n]
        else:
            cell += state[:n]
        points = sampler.sample(np.take(rows, cell, out=row_buf[:n]), rng, out=points_buf[:n], scratch=scratch)
        extra: Any = 0
        if rule is not None:
            actions = policies[cell]
            extra = np.asarray(rule.points(actions, mine[:n]))
            mine[:n], theirs[:n] = theirs[:n], np.asarray(rule.memory(actions, points, model.rules.max_dice))
        dice = policies[cell] if model.piggy is not None else None
        _, again = model.step(state[:n], points, dice, extra, out=state[:n], scratch=points)
        ended = np.flatnonzero(np.greater_equal(state[:n], model.win, out=over_buf[:n]))
        if ended.size:
            a_won[game[ended]] = a_moves[ended] == (state[ended] == model.win)
        if again is None:
            np.logical_not(a_moves[:n], out=a_moves[:n])
        else:
            np.not_equal(a_moves[:n], ~again, out=a_moves[:n])  # an extra turn keeps the mover
        if not ended.size:
            continue
        n, holes = n - ended.size, ended[ended < n - ended.size]
        survivors = np.arange(n, n + ended.size)
        survivors = survivors[~over_buf[n: n + ended.size]]  # live games at the back fill the holes
        for array in moving:
            array[holes] = array[survivors]
    return a_won
