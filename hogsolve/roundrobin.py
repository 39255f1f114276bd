"""Round robins: every strategy against every other, exact win rates.

Each pair is evaluated exactly (both seatings averaged, the CS 61A win
rate); pairs can run in parallel worker processes through joblib.
"""
from __future__ import annotations

import dataclasses
from typing import Callable, List, Optional, Sequence

import numpy as np

from .evaluate import win_rate
from .rules import Ruleset
from .plain import plain
from .policy import as_policy


@dataclasses.dataclass(frozen=True)
class TournamentResult:
    """``rate[i, j]``: exact win rate of strategy i against j (NaN on the diagonal)."""

    rules: str
    names: List[str]
    rate: np.ndarray

    @property
    def mean_win_rate(self) -> np.ndarray:
        """Each strategy's mean win rate over its opponents."""
        return np.nanmean(self.rate, axis=1)

    @property
    def order(self) -> List[int]:
        """Strategy indices from best to worst mean win rate (stable on ties)."""
        mean = self.mean_win_rate
        return sorted(range(len(self.names)), key=lambda i: -mean[i])

    def ranking(self) -> List[dict]:
        """Ranked rows: rank, strategy, mean win rate, and each pairing's win rate."""
        mean, n = self.mean_win_rate, len(self.names)
        return [{"rank": k + 1, "strategy": self.names[i], "mean_win_rate": float(mean[i]),
                 "win_rates": {self.names[j]: float(self.rate[i, j]) for j in range(n) if j != i}}
                for k, i in enumerate(self.order)]

    def to_dict(self) -> dict:
        """The tournament as plain JSON values."""
        return plain({"rules": self.rules, "ranking": self.ranking()})

    def __repr__(self) -> str:
        best = self.order[0]
        return (f"TournamentResult({self.rules}, {len(self.names)} strategies; first {self.names[best]} "
                f"with mean win rate {self.mean_win_rate[best]:.6f})")


def _pair(i: int, j: int, a: np.ndarray, b: np.ndarray, rules: Ruleset):
    return i, j, win_rate(a, b, rules).average


def tournament(strategies: Sequence, rules: Ruleset, *, names: Optional[Sequence[str]] = None,
               jobs: int = 1, progress: Optional[Callable] = None) -> TournamentResult:
    """Round robin of ``strategies`` (Policies, callables or tables) with exact win rates.

    ``progress(iterable, total)`` may wrap the stream of finished pairs.
    """
    policies = [as_policy(s, rules) for s in strategies]
    tables = [p.table for p in policies]
    names = list(names) if names is not None else [p.name for p in policies]
    n = len(tables)
    if n < 2:
        raise ValueError("a tournament needs at least two strategies")
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    if jobs == 1:
        results = (_pair(i, j, tables[i], tables[j], rules) for i, j in pairs)
    else:
        from joblib import Parallel, delayed
        results = Parallel(n_jobs=jobs, return_as="generator")(
            delayed(_pair)(i, j, tables[i], tables[j], rules) for i, j in pairs)
    if progress is not None:
        results = progress(results, len(pairs))
    rate = np.full((n, n), np.nan)
    for i, j, average in results:
        rate[i, j], rate[j, i] = average, 1 - average
    return TournamentResult(rules.name, names, rate)
