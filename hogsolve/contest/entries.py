"""The Hog contest around a round robin: entries from folders, and a resumable results file.

A folder stands for every ``*.py`` file in it (each with ``final_strategy``,
run isolated and time-limited like any user file); a ``.py`` file for its
``final_strategy``; anything else is a strategy spec.  The results file holds
one row per pair, appended as pairs finish (a run stopped half way loses
nothing) and rewritten in order at the end; every strategy is identified by
its name and a digest of its table, so a resumed run reuses a pair only when
both tables are unchanged.
"""
from __future__ import annotations

from pathlib import Path
from typing import Dict, List, Sequence, Tuple

from ..util.resumable import ResumableCsv, ResumableCsvError
from .roundrobin import Pair, TournamentResult

COLUMNS = ["rules", "goal", "a", "b", "a_digest", "b_digest", "a_wins_moving_first", "a_wins_moving_second",
           "a_win_rate"]


class ContestError(ValueError):
    """A contest input that cannot be used; the message is one line."""


def contest_entries(items: Sequence[str], function: str = "final_strategy") -> List[Tuple[str, str, bool]]:
    """``(name, spec, is_file)`` for every entry: a folder's ``*.py`` files in name order,
    a ``.py`` file's ``function``, or a spec as it is."""
    out: List[Tuple[str, str, bool]] = []
    for item in items:
        path = Path(item)
        if path.is_dir():
            files = sorted(p for p in path.glob("*.py") if p.is_file())
            if not files:
                raise ContestError(f"{item}: no *.py files in this folder")
            out.extend((str(p), f"{p}:{function}", True) for p in files)
        elif item.endswith(".py"):
            if not path.is_file():
                raise ContestError(f"{item}: no such file")
            out.append((item, f"{item}:{function}", True))
        else:
            out.append((item, item, False))
    names = [name for name, _, _ in out]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ContestError(f"{repeated[0]} is named twice")
    return out


class ResultsFile:
    """The per-pair CSV of a tournament: read back to resume, appended to, rewritten at the end."""

    def __init__(self, path: Path, rules, names: Sequence[str], digests: Sequence[str]):
        self.csv = ResumableCsv(path, COLUMNS, ("a", "a_digest", "b", "b_digest"))
        self.rules, self.names, self.digests = rules, list(names), list(digests)
        self.index = {(n, d): i for i, (n, d) in enumerate(zip(self.names, self.digests))}

    @property
    def ignored(self) -> int:
        """Lines of the file that did not parse (their pairs run again)."""
        return self.csv.ignored

    def known(self) -> Dict[Tuple[int, int], Tuple[float, float]]:
        """Pairs already in the file whose two tables are unchanged: ``{(i, j): (first, second)}``
        with i < j."""
        found: Dict[Tuple[int, int], Tuple[float, float]] = {}
        try:
            rows = self.csv.rows()
        except ResumableCsvError as exc:
            raise ContestError(str(exc)) from None
        for row in rows.values():
            try:
                goal = int(row["goal"])
                first, second = float(row["a_wins_moving_first"]), float(row["a_wins_moving_second"])
            except ValueError:
                self.csv.ignored += 1
                continue
            if (row["rules"], goal) != (self.rules.name, self.rules.goal):
                raise ContestError(f"{self.csv.path} holds {row['rules']} at goal {goal}, not {self.rules.name} "
                                   f"at goal {self.rules.goal}")
            i, j = self.index.get((row["a"], row["a_digest"])), self.index.get((row["b"], row["b_digest"]))
            if i is None or j is None or i == j or not (0 <= first <= 1 and 0 <= second <= 1):
                continue
            found[(i, j) if i < j else (j, i)] = (first, second) if i < j else (1.0 - second, 1.0 - first)
        return found

    def _row(self, i: int, j: int, first: float, second: float) -> dict:
        return dict(zip(COLUMNS, [self.rules.name, self.rules.goal, self.names[i], self.names[j], self.digests[i],
                                  self.digests[j], repr(first), repr(second), repr((first + second) / 2)]))

    def append(self, pair: Pair) -> None:
        """Add one finished pair (flushed, so a stopped run keeps it)."""
        self.csv.append(self._row(*pair))

    def finish(self, result: TournamentResult) -> None:
        """Rewrite the file with every pair of ``result`` in order, atomically."""
        n = len(self.names)
        self.csv.rewrite(self._row(i, j, float(result.first[i, j]), float(1.0 - result.first[j, i]))
                         for i in range(n) for j in range(i + 1, n))
