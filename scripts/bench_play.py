"""Benchmarks for issue 3: Monte Carlo throughput and the player's cold start.

    python scripts/bench_play.py [--games 1000000] [--repeat 5]

Prints medians.  Targets: at least 500,000 simulated games per second;
import plus first optimal move under 200 ms in a fresh interpreter.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from hogsolve import get_rules
from hogsolve.strategy.optimal_bot import optimal_strategy
from hogsolve.analysis.montecarlo import simulate
from hogsolve.strategy.named import always_roll, tabulate

COLD = ("import time; t = time.perf_counter(); from hogsolve.strategy.optimal_bot import optimal_strategy; "
        "optimal_strategy('su18')(0, 0); print(time.perf_counter() - t)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    for name in ("su18", "fa13"):
        rules = get_rules(name)
        a, b = optimal_strategy(rules).table, tabulate(always_roll(4), rules)
        rates = []
        for seed in range(args.repeat):
            start = time.perf_counter()
            simulate(a, b, rules, games=args.games, seed=seed)
            rates.append(args.games / (time.perf_counter() - start))
        print(f"simulate {name}: median {statistics.median(rates):,.0f} games/s "
              f"({args.games:,} games, {args.repeat} runs)")

    cold = []
    for _ in range(args.repeat * 2):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", COLD], check=True, capture_output=True)
        cold.append(time.perf_counter() - start)
    inner = [float(subprocess.run([sys.executable, "-c", COLD], check=True, capture_output=True,
                                  text=True).stdout) for _ in range(args.repeat * 2)]
    print(f"player cold start: median {statistics.median(inner) * 1000:.0f} ms import + first move "
          f"({statistics.median(cold) * 1000:.0f} ms with interpreter start-up), {args.repeat * 2} runs")


if __name__ == "__main__":
    main()
