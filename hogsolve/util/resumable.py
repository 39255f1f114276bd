"""A results CSV that grows a row at a time and is read back to resume a long run.

Rows are appended and flushed as results arrive, so a run stopped half way
loses nothing; a line a crash cut short does not parse and is skipped (its
result is computed again).  At the end the file is rewritten in order,
atomically (a temporary name, then a rename).
"""
from __future__ import annotations

from ..errors import HogsolveError
import csv
import io
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, TextIO

from .files import atomic_write


class ResumableCsvError(HogsolveError, ValueError):
    """A results file that cannot be used; the message is one line."""


class ResumableCsv:
    """Rows of ``columns``, keyed by the values of ``key`` columns."""

    def __init__(self, path: Path, columns: Sequence[str], key: Sequence[str]):
        self.path, self.columns, self.key = Path(path), list(columns), list(key)
        self.ignored = 0
        self._handle: Optional[TextIO] = None

    def rows(self) -> Dict[tuple, dict]:
        """The rows already in the file, by key (later rows win); unreadable lines are
        counted in ``ignored``."""
        if not self.path.exists():
            return {}
        lines = self.path.read_text(encoding="utf-8").splitlines()
        if not lines:
            return {}
        if lines[0].split(",") != self.columns:
            raise ResumableCsvError(f"{self.path}: not a results file of this kind (its header differs)")
        found: Dict[tuple, dict] = {}
        for line in lines[1:]:
            if not line.strip():
                continue
            fields = next(csv.reader([line]), [])
            if len(fields) != len(self.columns):
                self.ignored += 1
                continue
            row = dict(zip(self.columns, fields))
            found[tuple(row[k] for k in self.key)] = row
        return found

    def _line(self, row: dict) -> str:
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerow([row[c] for c in self.columns])
        return out.getvalue()

    def append(self, row: dict) -> None:
        """Add one row, flushed at once."""
        if self._handle is None:
            fresh = not self.path.exists() or self.path.stat().st_size == 0
            torn = not fresh and not self.path.read_bytes().endswith(b"\n")
            self._handle = open(self.path, "a", encoding="utf-8")
            if fresh:
                self._handle.write(",".join(self.columns) + "\n")
            elif torn:
                self._handle.write("\n")  # end the line a crash cut short (it is skipped when read)
        handle = self._handle
        handle.write(self._line(row))
        handle.flush()

    def rewrite(self, rows: Iterable[dict]) -> None:
        """Replace the file with ``rows`` in the order given, atomically."""
        if self._handle is not None:
            self._handle.close()
            self._handle = None
        body: List[str] = [",".join(self.columns) + "\n"] + [self._line(row) for row in rows]
        atomic_write(self.path, "".join(body).encode("utf-8"))
