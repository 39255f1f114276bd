"""Contests at the scale of CS 61A's: a round robin of many strategies, and a new entry scored
against the others, with the wall time, the pairs a second and the memory of the whole process tree.

    python scripts/bench_contest.py [--round-robin fa20:151,fa19:139] [--new-entry fa19:150] [--jobs 2]

The entries are what a course's contest holds: the optimal strategy, named strategies
(always_roll:1..10, bacon and swap strategies at several margins, seeded random ones) and
student-like tables (a dice count by score difference, as a student's final_strategy of the
two scores would give), as many as asked, each distinct.  A round robin is
``hogsolve.tournament`` (exact win rates of every pair, in ``--jobs`` worker processes); a new
entry is its pairs with every other entry alone (the others' pairs known, as the contest
server's are).  Memory is the largest sum of the resident sizes of this process and its
workers, sampled every 0.2 s.
"""
from __future__ import annotations

import argparse
import threading
import time

import numpy as np
import psutil


def entries(rules, count: int) -> list:
    """``count`` distinct strategies of ``rules`` as policies, named."""
    from hogsolve import optimal_strategy
    from hogsolve.strategy.named import always_roll, bacon_strategy, random_strategy, swap_strategy
    from hogsolve.strategy.policy import Policy, as_policy
    g = rules.goal
    out = [as_policy(optimal_strategy(rules), rules, "optimal")]
    out += [as_policy(always_roll(n), rules, f"always_roll:{n}") for n in range(1, int(rules.max_dice) + 1)]
    for margin in (2, 5, 8, 12):
        for n in (3, 4, 5, 6):
            out.append(as_policy(bacon_strategy(rules, margin, n), rules, f"bacon:{margin}:{n}"))
            out.append(as_policy(swap_strategy(rules, margin, n), rules, f"swap:{margin}:{n}"))
    rng = np.random.default_rng(61)
    seed = 0
    while len(out) < count:
        if seed % 3 == 0:
            out.append(as_policy(random_strategy(seed, rules), rules, f"random:{seed}"))
        else:  # a student's rule of the score difference: more dice when behind, fewer when ahead
            ahead = np.subtract.outer(np.arange(g), np.arange(g))
            cuts = np.sort(rng.integers(-40, 40, size=3))
            dice = rng.integers(1, int(rules.max_dice) + 1, size=4)
            table = dice[np.searchsorted(cuts, -ahead)]
            out.append(Policy(table.astype(np.int64), rules, f"student:{seed}", {"kind": "table"}))
        seed += 1
    return out[:count]


class PeakMemory:
    """The largest resident size of this process and its children, sampled in a thread."""

    def __init__(self, every: float = 0.2):
        self.every, self.peak, self.running = every, 0, True
        self.thread = threading.Thread(target=self.sample, daemon=True)
        self.thread.start()

    def sample(self) -> None:
        me = psutil.Process()
        while self.running:
            try:
                total = me.memory_info().rss + sum(c.memory_info().rss for c in me.children(recursive=True))
            except psutil.Error:
                total = 0
            self.peak = max(self.peak, total)
            time.sleep(self.every)

    def stop(self) -> float:
        """The peak, in GB."""
        self.running = False
        self.thread.join()
        return self.peak / 1e9


def round_robin(name: str, count: int, jobs: int) -> None:
    from hogsolve import get_rules, tournament
    rules = get_rules(name)
    strategies = entries(rules, count)
    pairs = count * (count - 1) // 2
    memory = PeakMemory()
    start = time.perf_counter()
    result = tournament(strategies, rules, names=[s.name for s in strategies], jobs=jobs)
    seconds = time.perf_counter() - start
    peak = memory.stop()
    first = result.ranking()[0]
    print(f"| round robin | {name} | {count} | {pairs:,} | {seconds:,.1f} s | {pairs / seconds:,.0f} | "
          f"{peak:.2f} GB | first: {first['strategy']} |", flush=True)


def new_entry(name: str, others: int, jobs: int) -> None:
    from hogsolve import get_rules, tournament
    rules = get_rules(name)
    strategies = entries(rules, others + 1)
    newcomer, rest = strategies[-1], strategies[:-1]
    known = {(i, j): (0.5, 0.5) for i in range(1, others + 1) for j in range(i + 1, others + 1)}  # the others'
    memory = PeakMemory()
    start = time.perf_counter()
    result = tournament([newcomer] + rest, rules, names=[s.name for s in [newcomer] + rest], jobs=jobs, known=known)
    seconds = time.perf_counter() - start
    peak = memory.stop()
    print(f"| new entry | {name} | 1 against {others} | {others:,} | {seconds:,.1f} s | {others / seconds:,.1f} | "
          f"{peak:.2f} GB | its mean win rate {result.mean_win_rate[0]:.6f} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--round-robin", default="fa20:151,fa19:139", help="RULES:ENTRIES,... (empty: none)")
    parser.add_argument("--new-entry", default="fa19:150", help="RULES:OTHERS,... (empty: none)")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    print(f"contests on {psutil.cpu_count()} cores, {args.jobs} worker processes")
    print("| job | rules | entries | pairs | wall time | pairs a second | peak memory | |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for item in filter(None, args.new_entry.split(",")):
        name, count = item.split(":")
        new_entry(name, int(count), args.jobs)
    for item in filter(None, args.round_robin.split(",")):
        name, count = item.split(":")
        round_robin(name, int(count), args.jobs)


if __name__ == "__main__":
    main()
