"""A small progress bar on stderr, shown only at a terminal and once a run is slow (and, for
long batch jobs, a plain line now and then where stderr is a file or a pipe)."""
from __future__ import annotations

import sys
import time
from typing import Iterable, Iterator, Optional, TextIO, TypeVar

T = TypeVar("T")


def time_left(elapsed: float, done: int, total: int) -> str:
    """``about 3 min left`` from the pace so far (empty before anything is done or at the end).

    >>> time_left(30.0, 10, 40), time_left(1.0, 1, 1)
    ('about 2 min left', '')
    """
    if done <= 0 or done >= total:
        return ""
    seconds = elapsed / done * (total - done)
    if seconds < 90:
        return f"about {max(1, round(seconds))} s left"
    if seconds < 5400:
        return f"about {round(seconds / 60)} min left"
    return f"about {seconds / 3600:.1f} h left"


def progress(items: Iterable[T], total: int, label: str, *, after: float = 0.5,
             stream: Optional[TextIO] = None, force: bool = False, plain_every: Optional[float] = None,
             clock=time.monotonic) -> Iterator[T]:
    """Yield ``items``, drawing ``label [#####     ] k/total, about 3 min left`` once ``after``
    seconds passed; where ``stream`` is no terminal and ``plain_every`` is given, a line
    ``label: k/total done, about 3 min left`` at most that often instead (a log shows a long
    batch job is alive, and when it will end)."""
    stream = stream if stream is not None else sys.stderr
    show = force or (hasattr(stream, "isatty") and stream.isatty())
    start, drawn = clock(), False
    last = start
    for done, item in enumerate(items, 1):
        yield item
        if not show and plain_every is not None and clock() - last >= plain_every and done < total:
            last = clock()
            left = time_left(clock() - start, done, total)
            stream.write(f"{label}: {done}/{total} done{', ' + left if left else ''}\n")
            stream.flush()
        if show and (drawn or clock() - start >= after):
            filled = int(30 * done / max(total, 1))
            left = time_left(clock() - start, done, total)
            stream.write(f"\r{label} [{'#' * filled}{' ' * (30 - filled)}] {done}/{total}"
                         f"{', ' + left if left else ''}\033[K")
            stream.flush()
            drawn = True
    if drawn:
        stream.write("\n")
        stream.flush()
