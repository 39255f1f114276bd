"""How a tournament's time scales with Dask workers, measured and extrapolated.

    python scripts/bench_dask.py [--strategies 80] [--workers 1 2 4] [--block 16]

Starts a dask.distributed LocalCluster on 127.0.0.1 with 1, 2 and 4 worker
processes (one thread each), runs the same exact round robin through
joblib's Dask backend on each, and prints the wall time, the speed-up over
one worker and the time per pair; the numbers must equal the local run's
exactly.  Then the arithmetic for 10,000 strategies on 100 workers, from the
measured time per pair and per task.  Needs ``pip install 'hogsolve[dask]'``.
On a 2-core machine 4 workers share 2 cores: that line shows oversubscription.
The workers are started without Dask's MALLOC_TRIM_THRESHOLD_ (see main()).
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strategies", type=int, default=120)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--block", type=int, default=64, help="opponents per task")
    args = parser.parse_args()
    import dask
    from distributed import LocalCluster
    # Dask's nannies start workers with MALLOC_TRIM_THRESHOLD_=65536, which makes glibc hand
    # freed memory straight back and every large temporary page-fault; the README shows how
    # to leave the allocator alone on a real cluster, as here.
    dask.config.set({"distributed.nanny.pre-spawn-environ": {}})

    from hogsolve import get_rules, tournament
    from hogsolve.strategy.named import always_roll, random_strategy, tabulate
    rules = get_rules("su18")
    n = args.strategies
    tables = [tabulate(random_strategy(s, rules), rules) for s in range(n - 10)]
    tables += [tabulate(always_roll(k), rules) for k in range(1, 11)]
    pairs = n * (n - 1) // 2
    tasks = sum(-(-(n - 1 - i) // args.block) for i in range(n))
    start = time.perf_counter()
    local = tournament(tables, rules, block=args.block)
    local_seconds = time.perf_counter() - start
    print(f"{n} strategies, {pairs} pairs in {tasks} tasks of at most {args.block} opponents; "
          f"{os.cpu_count()} cores")
    print(f"in this process:  {local_seconds:6.1f} s  ({local_seconds / pairs * 1000:.2f} ms per pair)")
    one = None
    efficiency = {}
    for workers in args.workers:
        with LocalCluster(n_workers=workers, threads_per_worker=1, host="127.0.0.1", processes=True,
                          dashboard_address=None) as cluster:
            tournament(tables[:12], rules, backend="dask", scheduler=cluster.scheduler_address)  # warm the workers
            start = time.perf_counter()
            far = tournament(tables, rules, backend="dask", scheduler=cluster.scheduler_address, block=args.block)
            seconds = time.perf_counter() - start
        same = np.array_equal(far.first, local.first, equal_nan=True)
        one = one or seconds
        efficiency[workers] = one / seconds / workers
        print(f"{workers} worker(s):     {seconds:6.1f} s  speed-up {one / seconds:4.2f}x  "
              f"({seconds / pairs * 1000:.2f} ms per pair; every number equal to the local run: {same})")
    per_pair = local_seconds / pairs
    big, machines, block = 10_000, 100, 512
    big_pairs = big * (big - 1) // 2
    big_tasks = sum(-(-(big - 1 - i) // block) for i in range(big))
    usable = [w for w in efficiency if w <= (os.cpu_count() or 1)]
    share = efficiency[max(usable)] if usable else 1.0  # each worker's share of a core's speed, measured
    print(f"\n10,000 strategies on {machines} workers (one core each): {big_pairs:,} pairs x "
          f"{per_pair * 1000:.2f} ms = {big_pairs * per_pair / 3600:,.1f} worker-hours; at the "
          f"{share:.0%} per-worker efficiency measured with {max(usable) if usable else 1} worker(s) here, "
          f"{big_pairs * per_pair / machines / share / 60:,.0f} min; "
          f"in tasks of {block} opponents that is {big_tasks:,} tasks "
          f"(at ~1 ms of scheduler time each, {big_tasks / 1000 / 60:.1f} min of scheduling, overlapping the work), "
          f"each shipping {block} tables of 10 KB (5 MB): {big_tasks * 5 / 1e6:,.2f} TB in all unless the tables "
          f"are scattered to the workers once (100 MB each)")


if __name__ == "__main__":
    main()
