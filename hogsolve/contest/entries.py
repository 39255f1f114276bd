"""The Hog contest around a round robin: entries from folders, and a resumable results file.

A folder stands for every ``*.py`` file in it that defines ``final_strategy``
(found by reading, not running, them; helpers are left alone), except that a
folder whose ``hog.py`` defines it stands for ``hog.py`` alone (a student's
``hog_old.py`` beside it is listed as left out); a folder with no such file
stands for each student folder in it, by the same rule.  So ``students/`` and
``students/*/`` enter the same strategies.  Each runs isolated and
time-limited like any user file.  A ``.py`` file stands for its
``final_strategy``; anything else is a strategy spec.  The results file holds
one row per pair, appended as pairs finish (a run stopped half way loses
nothing) and rewritten in order at the end; every strategy is identified by
its name and a digest of its table, so a resumed run reuses a pair only when
both tables are unchanged.
"""
from __future__ import annotations

from ..errors import HogsolveError
import ast
import csv
import io
import os
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from ..util.resumable import ResumableCsv, ResumableCsvError
from .roundrobin import Pair, TournamentResult

COLUMNS = ["rules", "goal", "a", "b", "a_digest", "b_digest", "a_wins_moving_first", "a_wins_moving_second",
           "a_win_rate"]


class ContestError(HogsolveError, ValueError):
    """A contest input that cannot be used; the message is one line."""


Entry = Tuple[str, str, bool]  # (name, spec, is_file)


def defines(path: Path, function: str) -> bool:
    """True when ``path``'s top level defines ``function`` (read with :mod:`ast`, never run);
    a file that does not parse counts, so that loading it reports the student's error."""
    try:
        tree = ast.parse(path.read_bytes())
    except (SyntaxError, ValueError, OSError, RecursionError):
        return True
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == function:
            return True
        if isinstance(node, ast.Assign) and any(isinstance(x, ast.Name) and x.id == function for x in node.targets):
            return True
        if isinstance(node, (ast.Import, ast.ImportFrom)) and any((a.asname or a.name) == function
                                                                  for a in node.names):
            return True
    return False


def _entries_in(folder: Path, function: str) -> Tuple[List[Path], List[Tuple[str, str]], List[Path]]:
    """``(entries, left out, student subfolders)`` of ``folder``: the files that define
    ``function``, or ``hog.py`` alone when it is one of them (the others then left out, with
    the reason)."""
    files = sorted(p for p in folder.glob("*.py") if p.is_file())
    subfolders = sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith((".", "__")))
    defining = [p for p in files if defines(p, function)]
    hog = folder / "hog.py"
    if hog in defining:
        return [hog], [(str(p), f"{hog} defines {function} too and is the folder's entry")
                       for p in defining if p != hog], subfolders
    return defining, [], subfolders


def find_entries(items: Sequence[str], function: str = "final_strategy", *,
                 left_out: Optional[List[Tuple[str, str]]] = None) -> Tuple[List[Entry], List[Tuple[str, str]]]:
    """Every contest entry, and every student left out with the reason.

    A folder's ``*.py`` files that define ``function`` are entries, the
    helpers beside them left alone, or its ``hog.py`` alone when that is one of
    them; a folder with none gives, by the same rule, those of each student
    folder in it (``students/alice/hog.py`` with its helpers).  A ``.py`` file is
    its own entry; anything else is a strategy spec.  The other files of a folder whose
    ``hog.py`` is its entry (a ``hog_old.py``) are listed among the skipped, or in ``left_out``
    when it is given: they are no student left out.
    """
    out: List[Entry] = []
    skipped: List[Tuple[str, str]] = []
    extra = skipped if left_out is None else left_out
    for item in items:
        path = Path(item)
        if path.is_dir():
            defining, second, subfolders = _entries_in(path, function)
            if defining:
                out.extend((str(p), f"{p}:{function}", True) for p in defining)
                extra.extend(second)
                continue
            if not subfolders and any(path.glob("*.py")):  # one student's folder (students/*/): helpers only
                skipped.append((str(path), f"no .py file here defines {function}"))
                continue
            found = False
            for student in subfolders:
                candidates, second, _ = _entries_in(student, function)
                out.extend((str(p), f"{p}:{function}", True) for p in candidates)
                extra.extend(second)
                found = found or bool(candidates)
                if not candidates and any(student.glob("*.py")):
                    skipped.append((str(student), f"no .py file here defines {function}"))
            if not found and not skipped:
                raise ContestError(f"{item}: no .py file here or in a student folder defines {function}")
        elif item.endswith(".py"):
            if not path.is_file():
                raise ContestError(f"{item}: no such file")
            out.append((item, f"{item}:{function}", True))
        elif ":" not in item and ("/" in item or os.sep in item):  # a path, not a spec
            raise ContestError(f"{item}: no such file or folder")
        else:
            out.append((item, item, False))
    names = [name for name, _, _ in out]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ContestError(f"{repeated[0]} is named twice")
    return out, skipped


def contest_entries(items: Sequence[str], function: str = "final_strategy") -> List[Entry]:
    """``(name, spec, is_file)`` for every entry (see :func:`find_entries`, which also says
    who was left out and why)."""
    return find_entries(items, function)[0]


def pair_row(rules, a: Tuple[str, str], b: Tuple[str, str], first: float, second: float) -> dict:
    """One pair as a results file holds it (:data:`COLUMNS`): ``a`` and ``b`` as (name, digest),
    P(a wins | a first) and P(a wins | b first), and their mean, each as Python writes it."""
    return dict(zip(COLUMNS, [rules.name, rules.goal, a[0], b[0], a[1], b[1], repr(first), repr(second),
                              repr((first + second) / 2)]))


def results_csv(rows: Iterable[dict]) -> str:
    """A results file's text: the header, then ``rows`` (:func:`pair_row`'s)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


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
        return pair_row(self.rules, (self.names[i], self.digests[i]), (self.names[j], self.digests[j]), first, second)

    def append(self, pair: Pair) -> None:
        """Add one finished pair (flushed, so a stopped run keeps it)."""
        self.csv.append(self._row(*pair))

    def finish(self, result: TournamentResult) -> None:
        """Rewrite the file with every pair of ``result`` in order, atomically."""
        n = len(self.names)
        self.csv.rewrite(self._row(i, j, float(result.first[i, j]), float(1.0 - result.first[j, i]))
                         for i in range(n) for j in range(i + 1, n))
