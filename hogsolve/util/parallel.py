"""Run independent tasks here, in joblib's local worker processes, or on a Dask cluster.

One place for the choice every batch job makes (round robins, sweeps): the
default is this process (``jobs=1``) or ``jobs`` local processes; with
``backend="dask"`` the tasks go through joblib's Dask backend to the
dask.distributed scheduler at ``scheduler`` (``pip install 'hogsolve[dask]'``).
Results arrive as tasks finish, in any order: each carries what it is.
"""
from __future__ import annotations

from typing import Callable, Iterable, Iterator, Optional

from .interrupts import InWorker, quiet_worker_starts
from ..errors import InputError

BACKENDS = ("local", "dask")


def run_tasks(function: Callable, calls: Iterable[tuple], *, jobs: int = 1, backend: str = "local",
              scheduler: Optional[str] = None) -> Iterator:
    """``function(*call)`` for every call, yielded as each finishes."""
    if backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r}; choose local or dask")
    if backend == "local" and jobs == 1:
        yield from (function(*call) for call in calls)
        return
    from joblib import Parallel, delayed, parallel_config
    if backend == "local":
        quiet_worker_starts()
        work = InWorker(function)  # a terminal's Ctrl-C reaches the workers too: they leave it to us
        yield from Parallel(n_jobs=jobs, return_as="generator_unordered")(delayed(work)(*c) for c in calls)
        return
    client = dask_client(scheduler)
    try:
        with parallel_config(backend="dask"):
            yield from Parallel(n_jobs=-1, return_as="generator_unordered")(delayed(function)(*c) for c in calls)
    finally:
        client.close()


def dask_client(scheduler: Optional[str]):
    """A dask.distributed client of the scheduler at ``scheduler``, or a one-line ValueError."""
    try:
        from distributed import Client
    except ImportError:
        raise InputError("the dask backend needs dask.distributed: pip install 'hogsolve[dask]'") from None
    if not scheduler:
        raise InputError("the dask backend needs a scheduler address, e.g. tcp://127.0.0.1:8786")
    try:
        return Client(scheduler, timeout="10s")
    except (OSError, TimeoutError) as exc:
        raise InputError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
