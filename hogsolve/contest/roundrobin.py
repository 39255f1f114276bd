"""Round robins: every strategy against every other, exact win rates, contest standings.

Each pair's win rate is exact (both seatings averaged, the CS 61A win rate).
The work is split into blocks of rows: one strategy against a block of
opponents in one batched pass (:func:`hogsolve.analysis.policy_values.slot_values`).
Blocks run in this process, in joblib's local worker processes
(``jobs``), or on a Dask cluster through joblib's Dask backend
(``backend="dask"``).  Standings follow the CS 61A contest: a pair is won
above the threshold (ties count as losses), and wins rank the strategies;
a win rate within rounding of the threshold is settled in exact arithmetic.
"""
from __future__ import annotations

import dataclasses
import hashlib
from fractions import Fraction
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from ..solver.model import cached_model
from ..util.parallel import BACKENDS, run_tasks
from ..util.plain import plain
from ..strategy.policy import as_policy
from ..analysis.policy_values import play_values, slot_values, slots_supported
from ..hog.rules import Ruleset
from ..errors import InputError

#: Opponents per batched pass: large enough to amortise the pass, small enough to stay in cache.
BLOCK = 64
#: A win rate this close to the threshold is settled exactly (float error is far below it).
CLOSE = 1e-9

Pair = Tuple[int, int, float, float]  # (i, j, P(i wins | i first), P(i wins | j first))


@dataclasses.dataclass(frozen=True)
class TournamentResult:
    """Exact win rates of a round robin and its contest standings.

    ``first[i, j]``: P(i wins | i moves first against j); ``rate[i, j]``: the
    CS 61A win rate of i against j (NaN on the diagonal).  A pair counts as won
    when its rate exceeds ``threshold``; ``settled`` lists the pairs whose
    decision was made in exact arithmetic (within rounding of the threshold),
    with the exact rate.
    """

    rules: str
    names: List[str]
    first: np.ndarray
    threshold: float = 0.5
    settled: Tuple[Tuple[int, int, Fraction], ...] = ()

    @property
    def rate(self) -> np.ndarray:
        """``rate[i, j]``: mean of i's two seatings against j."""
        rate = (self.first + (1.0 - self.first.T)) / 2
        np.fill_diagonal(rate, np.nan)
        return rate

    @property
    def won(self) -> np.ndarray:
        """``won[i, j]``: True when i's win rate against j exceeds the threshold."""
        won = np.nan_to_num(self.rate, nan=0.0) > self.threshold
        for i, j, exact in self.settled:
            won[i, j], won[j, i] = exact > Fraction(self.threshold), 1 - exact > Fraction(self.threshold)
        np.fill_diagonal(won, False)
        return won

    @property
    def wins(self) -> np.ndarray:
        """Pairs won by each strategy."""
        return self.won.sum(axis=1)

    @property
    def losses(self) -> np.ndarray:
        """Pairs not won (ties count as losses)."""
        return len(self.names) - 1 - self.wins

    @property
    def mean_win_rate(self) -> np.ndarray:
        """Each strategy's mean win rate over its opponents."""
        rate = self.rate
        scored = np.isfinite(rate).sum(axis=1)  # a contest's standings before every pair is scored
        return np.where(scored > 0, np.nansum(rate, axis=1) / np.maximum(scored, 1), np.nan)

    @property
    def ranks(self) -> np.ndarray:
        """Contest rank by wins: 1 + the number of strategies with more wins (equal wins, equal rank)."""
        wins = self.wins
        return 1 + (wins[None, :] > wins[:, None]).sum(axis=1)

    @property
    def order(self) -> List[int]:
        """Strategy indices by rank, then mean win rate, then as given."""
        ranks, mean = self.ranks, self.mean_win_rate
        return sorted(range(len(self.names)), key=lambda i: (ranks[i], -mean[i], i))

    def ranking(self) -> List[dict]:
        """Ranked rows: rank (tied or not), wins, losses, mean win rate, each pairing's rate."""
        ranks, wins, losses, mean, rate = self.ranks, self.wins, self.losses, self.mean_win_rate, self.rate
        counts = np.bincount(ranks)
        return [{"rank": int(ranks[i]), "tied": bool(counts[ranks[i]] > 1), "strategy": self.names[i],
                 "wins": int(wins[i]), "losses": int(losses[i]), "mean_win_rate": float(mean[i]),
                 "win_rates": {self.names[j]: float(rate[i, j]) for j in range(len(self.names)) if j != i}}
                for i in self.order]

    def to_dict(self) -> dict:
        """The tournament as plain JSON values."""
        return plain({"rules": self.rules, "threshold": self.threshold, "ranking": self.ranking(),
                      "settled_exactly": [{"a": self.names[i], "b": self.names[j], "win_rate": exact}
                                          for i, j, exact in self.settled]})

    def __repr__(self) -> str:
        best = self.order[0]
        return (f"TournamentResult({self.rules}, {len(self.names)} strategies; first {self.names[best]} "
                f"with {self.wins[best]} wins)")


def table_digest(table: np.ndarray, rules) -> str:
    """A short fingerprint of a strategy's table in a game (for resuming from a results file)."""
    h = hashlib.sha256(f"{rules.name}/{rules.goal}/{table.shape}".encode())
    h.update(np.ascontiguousarray(table, dtype=np.int8).tobytes())
    return h.hexdigest()[:16]


#: ``evaluate(game, i, js, tables)``: strategy ``i`` (``tables[0]``) against ``js`` (``tables[1:]``).
Evaluate = Callable[[Any, int, Sequence[int], List[np.ndarray]], List[Pair]]
#: ``settle(game, a, b)``: the exact win rate of table ``a`` against ``b``, None where it cannot be had.
Settle = Callable[[Any, np.ndarray, np.ndarray], Optional[Fraction]]


def evaluate_block(rules: Ruleset, i: int, js: Sequence[int], tables: List[np.ndarray]) -> List[Pair]:
    """Hog: strategy ``i`` (table ``tables[0]``) against the opponents ``js`` (``tables[1:]``): one
    batched pass where the rules allow it, else pair by pair.  Runs in workers too; the
    tables travel in one list with the task (joblib's Dask backend would scatter a lone
    array to one worker, and the scheduler would then run every task there)."""
    from threadpoolctl import threadpool_limits
    mine, theirs = tables[0], tables[1:]
    model = cached_model(rules)
    with threadpool_limits(1):  # these products are small: BLAS threads only contend
        if slots_supported(model) and mine.ndim == 2 and all(t.ndim == 2 for t in theirs):
            B = len(js)
            values = slot_values(model, np.stack([mine] * B + list(theirs)),
                                 np.r_[np.arange(B, 2 * B), np.arange(B)])
            start = values[0, 0]
            return [(i, j, float(start[q]), float(1.0 - start[B + q])) for q, j in enumerate(js)]
        out = []
        for j, table in zip(js, theirs):
            va, vb = play_values(model, mine, table, merged=True)
            out.append((i, j, float(va[(0,) * va.ndim]), float(1.0 - vb[(0,) * vb.ndim])))
        return out


def exact_rate(rules: Ruleset, a: np.ndarray, b: np.ndarray) -> Optional[Fraction]:
    """Hog: the exact CS 61A win rate of table ``a`` against ``b``, or None where exact arithmetic
    does not cover the rules."""
    from ..solver.exact import ExactUnsupported, exact_arithmetic
    if np.array_equal(a, b):
        return Fraction(1, 2)  # the same strategy: first and second seat sum to one
    model = cached_model(rules)
    try:
        arith = exact_arithmetic(model)
    except ExactUnsupported:
        return None
    va, vb = play_values(model, a, b, arith)
    corner = (0,) * va.ndim
    return (Fraction(va[corner], arith.one) + 1 - Fraction(vb[corner], arith.one)) / 2


def _blocks(n: int, done: set, block: int) -> List[Tuple[int, List[int]]]:
    out: List[Tuple[int, List[int]]] = []
    for i in range(n):
        todo = [j for j in range(i + 1, n) if (i, j) not in done]
        out.extend((i, todo[at: at + block]) for at in range(0, len(todo), block))
    return out


def tournament(strategies: Sequence, rules: Ruleset, **options) -> TournamentResult:
    """A Hog round robin of ``strategies`` (Policies, callables or tables): :func:`round_robin`
    of their tables with Hog's batched pairs and exact settling (``options`` as there)."""
    policies = [as_policy(s, rules) for s in strategies]
    if options.get("names") is None:
        options["names"] = [p.name for p in policies]
    return round_robin([p.table for p in policies], rules, evaluate=evaluate_block, settle=exact_rate, **options)


def round_robin(tables: Sequence[np.ndarray], game, *, evaluate: Evaluate, settle: Optional[Settle] = None,
                names: Optional[Sequence[str]] = None, jobs: int = 1, backend: str = "local",
                scheduler: Optional[str] = None, threshold: float = 0.5,
                known: Optional[Dict[Tuple[int, int], Tuple[float, float]]] = None,
                on_pair: Optional[Callable[[Pair], None]] = None,
                progress: Optional[Callable[[Iterable, int], Iterable]] = None,
                block: int = BLOCK) -> TournamentResult:
    """Round robin of strategies given as their tables in ``game`` (any family's), with exact
    win rates: ``evaluate`` scores a block of pairs (in workers too: a module-level function)
    and ``settle`` decides a pair within rounding of the threshold exactly (where it can).

    ``backend``: ``"local"`` (this process, or ``jobs`` joblib worker processes) or
    ``"dask"`` (the cluster whose scheduler is at ``scheduler``).  ``known[i, j]``
    (i < j): ``(P(i wins | i first), P(i wins | j first))`` already computed, e.g.
    read back from a results file; only the other pairs are evaluated, and
    ``on_pair((i, j, first, second))`` hears each as it finishes.
    ``progress(iterable, total)`` may wrap the stream of finished pairs.
    """
    if backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r}; choose local or dask")
    if not 0 <= threshold < 1:
        raise InputError(f"the threshold must be from 0 to below 1, got {threshold!r}")
    tables = [np.ascontiguousarray(t, dtype=np.int8) for t in tables]
    names = list(names) if names is not None else [f"strategy {k + 1}" for k in range(len(tables))]
    n = len(tables)
    if n < 2:
        raise InputError("a tournament needs at least two strategies")
    first = np.full((n, n), np.nan)
    for (i, j), (a_first, a_second) in (known or {}).items():
        first[i, j], first[j, i] = a_first, 1.0 - a_second
    tasks = _blocks(n, set(known or ()), block)
    calls = ((game, i, js, [tables[i]] + [tables[j] for j in js]) for i, js in tasks)
    finished: Iterable[Pair] = (pair for pairs in run_tasks(evaluate, calls, jobs=jobs, backend=backend,
                                                            scheduler=scheduler) for pair in pairs)
    if progress is not None:
        finished = progress(finished, sum(len(js) for _, js in tasks))
    for pair in finished:
        i, j, a_first, a_second = pair
        first[i, j], first[j, i] = a_first, 1.0 - a_second
        if on_pair is not None:
            on_pair(pair)
    result = TournamentResult(game.name, names, first, threshold)
    close = np.argwhere(np.triu(np.abs(result.rate - threshold) <= CLOSE, 1))
    if len(close) and settle is not None:
        settled = tuple((int(i), int(j), exact) for i, j in close
                        if (exact := settle(game, tables[i], tables[j])) is not None)
        result = dataclasses.replace(result, settled=settled)
    return result


