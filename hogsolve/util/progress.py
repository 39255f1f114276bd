"""A small progress bar on stderr, shown only at a terminal and once a run is slow."""
from __future__ import annotations

import sys
import time
from typing import Iterable, Iterator, Optional, TextIO, TypeVar

T = TypeVar("T")


def progress(items: Iterable[T], total: int, label: str, *, after: float = 0.5,
             stream: Optional[TextIO] = None, force: bool = False) -> Iterator[T]:
    """Yield ``items``, drawing ``label [#####     ] k/total`` once ``after`` seconds passed."""
    stream = stream if stream is not None else sys.stderr
    show = force or (hasattr(stream, "isatty") and stream.isatty())
    start, drawn = time.monotonic(), False
    for done, item in enumerate(items, 1):
        yield item
        if show and (drawn or time.monotonic() - start >= after):
            filled = int(30 * done / max(total, 1))
            stream.write(f"\r{label} [{'#' * filled}{' ' * (30 - filled)}] {done}/{total}")
            stream.flush()
            drawn = True
    if drawn:
        stream.write("\n")
        stream.flush()
