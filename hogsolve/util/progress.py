"""A small progress bar on stderr, shown only at a terminal and once a run is slow (and, for
long batch jobs, a plain line now and then where stderr is a file or a pipe)."""
from __future__ import annotations

import sys
import time
from typing import Iterable, Iterator, Optional, TextIO, TypeVar

T = TypeVar("T")


def progress(items: Iterable[T], total: int, label: str, *, after: float = 0.5,
             stream: Optional[TextIO] = None, force: bool = False, plain_every: Optional[float] = None,
             clock=time.monotonic) -> Iterator[T]:
    """Yield ``items``, drawing ``label [#####     ] k/total`` once ``after`` seconds passed; where
    ``stream`` is no terminal and ``plain_every`` is given, a line ``label: k/total done`` at most
    that often instead (a log shows a long batch job is alive)."""
    stream = stream if stream is not None else sys.stderr
    show = force or (hasattr(stream, "isatty") and stream.isatty())
    start, drawn = clock(), False
    last = start
    for done, item in enumerate(items, 1):
        yield item
        if not show and plain_every is not None and clock() - last >= plain_every and done < total:
            last = clock()
            stream.write(f"{label}: {done}/{total} done\n")
            stream.flush()
        if show and (drawn or clock() - start >= after):
            filled = int(30 * done / max(total, 1))
            stream.write(f"\r{label} [{'#' * filled}{' ' * (30 - filled)}] {done}/{total}")
            stream.flush()
            drawn = True
    if drawn:
        stream.write("\n")
        stream.flush()
