"""Ctrl-C and SIGTERM end a run at once and leave nothing behind.

:func:`install` makes both signals kill every process this one started (joblib's
workers, student files' interpreters in their own sessions, their children)
and then raise :class:`Interrupted` in the main thread, so ``finally`` blocks
and temporary folders are cleaned up on the way out.  Killing first matters:
threads that wait on a student's process, or a worker pool shutting down,
would otherwise hold the exit until a time limit ran out.
"""
from __future__ import annotations

import os
import signal
import threading
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from typing import Callable, Iterable, List, Optional, TypeVar

import psutil


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (SIGINT) or SIGTERM; ``signum`` says which (exit code 128 + signum)."""

    def __init__(self, signum: int = signal.SIGINT):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _is_resource_tracker(process: psutil.Process) -> bool:
    """joblib's resource tracker: it frees shared memory once this process has exited, and
    killing it first makes it print a traceback (so it is left to end by itself)."""
    try:
        return any("resource_tracker" in part for part in process.cmdline())
    except psutil.Error:
        return False


def kill_children(grace: float = 0.5) -> int:
    """Terminate every descendant of this process (but joblib's resource tracker, which ends
    when this process does), then kill those still alive after ``grace`` seconds; returns
    how many there were."""
    try:
        children = [c for c in psutil.Process().children(recursive=True) if not _is_resource_tracker(c)]
    except psutil.Error:
        return 0
    for child in children:
        try:
            child.terminate()
        except psutil.Error:
            pass
    _, alive = psutil.wait_procs(children, timeout=grace)
    for child in alive:
        try:
            child.kill()
        except psutil.Error:
            pass
    psutil.wait_procs(alive, timeout=grace)
    return len(children)


_STOPPING = threading.Event()

T = TypeVar("T")
R = TypeVar("R")

#: How long the main thread sleeps at most between looks at a signal (seconds).
TICK = 0.1


def thread_map(function: Callable[[T], R], items: Iterable[T], jobs: int) -> List[R]:
    """``[function(x) for x in items]`` on ``jobs`` threads, in order, waiting in short ticks.

    The kernel may hand SIGINT or SIGTERM to any thread; Python runs its handler only in the
    main thread, and only when that thread runs Python again.  A main thread blocked in a plain
    ``pool.map`` would learn of the signal only when a future completed (a looping student's
    whole time limit later, after that student was cached as failed), so it waits in ticks."""
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(function, item) for item in items]
        try:
            pending = set(futures)
            while pending:
                done, pending = wait(pending, timeout=TICK, return_when=FIRST_EXCEPTION)
                if any(f.exception() is not None for f in done):  # start nothing more; let the running end
                    pending = {f for f in pending if not f.cancel()}
            failed = next((f for f in futures if not f.cancelled() and f.exception() is not None), None)
            if failed is not None:  # the first failure in the items' order
                raise failed.exception()  # type: ignore[misc]
            return [f.result() for f in futures]
        finally:
            for future in futures:
                future.cancel()


def stopping() -> bool:
    """True once Ctrl-C or SIGTERM came: threads still at work start nothing new, and a
    process that died in the clean-up is no failure of its own (nothing is cached)."""
    return _STOPPING.is_set()


def _handler(signum, frame) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not break the clean-up
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _STOPPING.set()
    kill_children()
    raise Interrupted(signum)


def install() -> tuple:
    """Handle SIGINT and SIGTERM as the module docstring says (main thread only); returns the
    handlers they had, for :func:`restore`."""
    _STOPPING.clear()
    return signal.signal(signal.SIGINT, _handler), signal.signal(signal.SIGTERM, _handler)


def ignore_until_exit() -> None:
    """Ignore SIGINT and SIGTERM from now on: for a program whose work is done and which is
    about to exit.  (Python puts its own handlers back to the default action while it shuts
    down, so a Ctrl-C then killed the process without a word, exit code -2, after the work
    had finished; an ignored signal stays ignored.)"""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def restore(previous: tuple) -> None:
    """Put back the handlers :func:`install` returned (an interrupt stays known until the
    next :func:`install`: threads may still be finishing while the process exits)."""
    signal.signal(signal.SIGINT, previous[0])
    signal.signal(signal.SIGTERM, previous[1])


#: A warnings filter (``PYTHONWARNINGS``) that silences joblib's resource tracker (loky's).
TRACKER_QUIET = "ignore::UserWarning:joblib.externals.loky.backend.resource_tracker"


def quiet_resource_tracker() -> None:
    """Start joblib's resource tracker, when joblib starts it, with its warnings off.

    The tracker outlives this process and writes to the same stderr.  A signal can land
    between joblib's registering a temporary folder with it and joblib's arranging to
    unregister that folder; the tracker then removes the folder itself at the end and reports
    a "leaked" folder after our one line ``interrupted``.  For the program only (it changes
    the environment every process started from now on inherits), before any pool starts."""
    current = os.environ.get("PYTHONWARNINGS", "")
    if TRACKER_QUIET not in current.split(","):
        os.environ["PYTHONWARNINGS"] = ",".join(part for part in (current, TRACKER_QUIET) if part)


def quiet_worker_starts() -> None:
    """Start joblib's worker processes with Ctrl-C blocked (a blocked signal stays blocked across
    fork and exec), so a terminal's Ctrl-C, which reaches the whole process group, cannot
    interrupt a worker while it imports and make it print a traceback; the main process
    stops the workers itself.  It wraps loky's process launcher, a private name: where a
    joblib release renames it, workers fall back to :class:`InWorker` alone."""
    try:  # loky's launcher imports this module's fork_exec each time it starts a worker
        from joblib.externals.loky.backend import fork_exec as launcher
    except ImportError:
        return
    original = getattr(launcher, "fork_exec", None)
    if original is None or getattr(original, "blocks_ctrl_c", False):
        return

    def fork_exec(*args, **kwargs):
        before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            return original(*args, **kwargs)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)
    setattr(fork_exec, "blocks_ctrl_c", True)  # noqa: B010 (a function attribute mypy does not know)
    launcher.fork_exec = fork_exec


class InWorker:
    """``function`` run in a worker process, which leaves Ctrl-C to the main process (picklable)."""

    def __init__(self, function):
        self.function = function

    def __call__(self, *args, **kwargs):
        ignore_in_worker()
        return self.function(*args, **kwargs)


def exit_code(exc: Optional[BaseException]) -> int:
    """130 for Ctrl-C, 143 for SIGTERM (128 + the signal's number)."""
    return 128 + getattr(exc, "signum", signal.SIGINT)


def ignore_in_worker() -> None:
    """In a worker process: leave Ctrl-C to the main process (which stops the workers), so a
    terminal's Ctrl-C does not print a traceback from every worker."""
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
