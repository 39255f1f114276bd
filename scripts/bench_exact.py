"""Time the exact check of every built-in game: ``hogsolve solve --all --exact --endless draw``.

    python scripts/bench_exact.py [--write BENCHMARKS.md]

Runs the command once, in a child process writing its tables to a temporary
folder, and prints its wall and CPU time (the child's user + system time) and,
per game, the solve and the check as the command's JSON reports them (CPU
seconds for the proof by error bound, wall seconds for the exact rationals),
and whether every decision was proven.  The issue's budget: 10 minutes of CPU.
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMAND = ["solve", "--all", "--exact", "--endless", "draw", "--json"]


def measure() -> dict:
    """The command's wall and CPU seconds and its per-game records."""
    with tempfile.TemporaryDirectory() as out:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        run = subprocess.run([sys.executable, "-m", "hogsolve", *COMMAND, "--out", out],
                             capture_output=True, text=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        sys.exit(f"bench_exact: hogsolve {' '.join(COMMAND)} exited {run.returncode}: {run.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    games = []
    for record in json.loads(run.stdout):
        rules = record["rules"]
        exact = record["exact"]
        games.append({"game": rules["name"] if isinstance(rules, dict) else str(rules),
                      "solve": record["solve_seconds"], "check": exact["seconds"],
                      "method": "error bound" if exact["method"] == "rigorous error bound" else "rationals",
                      "proven": bool(exact["proven"])})
    return {"wall": wall, "cpu": cpu, "games": games}


def lines_of(result: dict) -> list:
    """The figures as Markdown: a summary line and a table by game."""
    proven = sum(g["proven"] for g in result["games"])
    out = [f"`hogsolve {' '.join(COMMAND)} --out DIR`: {result['wall']:.1f} s wall, {result['cpu']:.1f} s of CPU "
           f"(budget 600 s of CPU); every decision proven in {proven} of {len(result['games'])} games.", "",
           "| game | solve (with the check, in rationals) | exact check | by | every decision proven |",
           "| --- | --- | --- | --- | --- |"]
    for g in result["games"]:
        out.append(f"| {g['game']} | {g['solve']:.2f} s | {g['check']:.2f} s | {g['method']} | "
                   f"{'yes' if g['proven'] else '**no**'} |")
    return out


def write(path: Path, lines: list) -> None:
    """Put the figures between this script's markers in ``path`` (added at the end the first time)."""
    start, end = "<!-- bench_exact -->", "<!-- /bench_exact -->"
    text = path.read_text() if path.exists() else ""
    block = (f"{start}\n## Exact check of every built-in game (`python scripts/bench_exact.py`, "
             f"{time.strftime('%Y-%m-%d')})\n\n" + "\n".join(lines) + f"\n{end}")
    if start in text:
        text = text[:text.index(start)] + block + text[text.index(end) + len(end):]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    path.write_text(text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path, metavar="FILE.md", help="also put the figures in this Markdown file")
    args = parser.parse_args()
    lines = lines_of(measure())
    print("\n".join(lines))
    if args.write is not None:
        write(args.write, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
