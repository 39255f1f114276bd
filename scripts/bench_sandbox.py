"""What the walls around a student's process cost: one student file tabulated with and without them.

    python scripts/bench_sandbox.py [--repeats 9] [--students 40]

Each repeat tabulates the same su18 student file twice, once walled in (Landlock and seccomp,
the default) and once with ``HOGSOLVE_SANDBOX=off``, in alternating order, without the cache;
prints each median, their difference (the target: at most 50 ms) and their ratio.  Then a
contest's loading phase: ``--students`` different files tabulated two at a time, walled and
unwalled, with the ratio of the two (the target for a 200-student round robin: at most 1.1x).
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from hogsolve import get_rules
from hogsolve.strategy.userfile import SANDBOX_ENV, sandbox_support, tabulate_table

STUDENT = ("import math\n"
           "def final_strategy(score, opponent_score):\n"
           "    bacon = 1 + (opponent_score // 10) * (opponent_score % 10) % 10\n"
           "    return 0 if bacon >= 8 else {n}\n")


def once(path: str, walled: bool) -> float:
    """Seconds to tabulate ``path`` with or without the walls (no cache)."""
    if walled:
        os.environ.pop(SANDBOX_ENV, None)
    else:
        os.environ[SANDBOX_ENV] = "off"
    start = time.perf_counter()
    tabulate_table(path, "final_strategy", get_rules("su18"), use_cache=False)
    return time.perf_counter() - start


def contest(folder: Path, students: int, walled: bool) -> float:
    """Seconds to tabulate ``students`` different files, two at a time (the tournament's loading)."""
    paths = []
    for k in range(students):
        path = folder / f"s{k}" / "hog.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(STUDENT.format(n=k % 10 + 1) + f"# student {k}\n")
        paths.append(str(path))
    if walled:
        os.environ.pop(SANDBOX_ENV, None)
    else:
        os.environ[SANDBOX_ENV] = "off"
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(lambda p: tabulate_table(p, "final_strategy", get_rules("su18"), use_cache=False), paths))
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--students", type=int, default=40)
    args = parser.parse_args()
    print(f"kernel: {sandbox_support()}")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hog.py"
        path.write_text(STUDENT.format(n=5))
        once(str(path), True)  # warm the interpreter's files
        times: dict = {True: [], False: []}
        for k in range(args.repeats):
            for walled in ((True, False) if k % 2 else (False, True)):
                times[walled].append(once(str(path), walled))
        on, off = statistics.median(times[True]), statistics.median(times[False])
        print(f"one student file, su18 (median of {args.repeats}): walled {on * 1000:.0f} ms, unwalled "
              f"{off * 1000:.0f} ms: the walls add {(on - off) * 1000:+.0f} ms ({on / off:.3f}x)")
        loads = {walled: contest(Path(folder) / ("on" if walled else "off"), args.students, walled)
                 for walled in (False, True)}
        print(f"{args.students} student files two at a time: walled {loads[True]:.2f} s, unwalled "
              f"{loads[False]:.2f} s ({loads[True] / loads[False]:.3f}x)")
    os.environ.pop(SANDBOX_ENV, None)


if __name__ == "__main__":
    main()
