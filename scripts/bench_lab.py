"""How long from a save of a student file to the lab's new figures, over the lab's WebSocket.

    python scripts/bench_lab.py [--repeats 5]

For su18 (the target: at most 1 s) and a Feral Hogs semester, fa19 (at most 3 s): the lab
serves a file, the file is saved with a different strategy, and the time until the page's
WebSocket receives the new run's figures is measured. Prints each game's median and
range, and the ratio of the two medians (a reference run in the same process).
"""
from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from websockets.sync.client import connect

from hogsolve import get_rules
from hogsolve.gui.lab import Lab
from hogsolve.gui.server import Running

STRATEGIES = ["def final_strategy(score, opponent_score):\n    return {n} if score < opponent_score else {m}\n"
              .format(n=n, m=m) for n, m in ((4, 6), (5, 3), (6, 4), (3, 5), (7, 2), (2, 7))]


def save_to_figures(name: str, repeats: int) -> list:
    """Seconds from each save to the new figures for ruleset ``name``."""
    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / "hog.py"
        file.write_text(STRATEGIES[0])
        lab = Lab(str(file), "final_strategy", get_rules(name))
        times = []
        with Running(lab=lab) as server, connect(f"ws://127.0.0.1:{server.port}/api/lab/ws") as socket:
            run = json.loads(socket.recv(timeout=120))["run"]
            time.sleep(0.5)  # the watcher is up
            for k in range(repeats):
                start = time.perf_counter()
                file.write_text(STRATEGIES[(k + 1) % len(STRATEGIES)])
                while True:
                    message = json.loads(socket.recv(timeout=120))
                    if message["run"] > run:
                        break
                times.append(time.perf_counter() - start)
                assert message["error"] == "", message["error"]
                run = message["run"]
                time.sleep(0.3)
        return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    medians = {}
    for name, target in (("su18", 1.0), ("fa19", 3.0)):
        times = save_to_figures(name, args.repeats)
        medians[name] = statistics.median(times)
        print(f"{name}: save to new figures, median {medians[name]:.2f} s (range {min(times):.2f} to "
              f"{max(times):.2f} s over {len(times)} saves; target {target:g} s: "
              f"{'met' if medians[name] <= target else 'NOT met'})")
    print(f"fa19 / su18: {medians['fa19'] / medians['su18']:.1f}x")


if __name__ == "__main__":
    main()
