"""Benchmark: median wall time of solve() per ruleset, in one process.

    python scripts/bench.py [--repeat 21] [--big-repeat 3] [--skip-big]

Targets (issue 2): under 20 ms per ruleset at goal 100, under 5 s at goal 1000.
"""
from __future__ import annotations

import argparse
import statistics
import time

from hogsolve import get_rules, rulesets, solve


def median_seconds(rules, repeat: int) -> float:
    solve(rules)  # warm-up run, not timed
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        solve(rules)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--big-repeat", type=int, default=3)
    parser.add_argument("--skip-big", action="store_true")
    args = parser.parse_args()
    solve(get_rules("su18", goal=30))  # warm up imports and caches
    print(f"{'ruleset':8} {'goal':>5} {'median':>10} {'runs':>5}")
    for name in rulesets():
        t = median_seconds(get_rules(name), args.repeat)
        print(f"{name:8} {100:>5} {t * 1000:>8.1f}ms {args.repeat:>5}")
    if not args.skip_big:
        for name in rulesets():
            t = median_seconds(get_rules(name, goal=1000), args.big_repeat)
            print(f"{name:8} {1000:>5} {t:>9.2f}s {args.big_repeat:>5}")


if __name__ == "__main__":
    main()
