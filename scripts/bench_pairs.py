"""A pair's exact win rate, the best response and the regret, for every built-in game, against su18's.

    python scripts/bench_pairs.py [--previous REV] [--games hog,fa19,...]

For each game at its own goal: the optimal strategy against always_roll:4 (``hogsolve.win_rate``,
best of three), the best response to always_roll:4 (best of two) and the regret of
always_roll:4 (best of two), each also as a multiple of su18's (the target: at most 20x).  With
``--previous REV`` the same measures of a checkout of REV run in a second process, side by side.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAMES = ("su18", "fa13", "sp15", "fa15", "sp17", "fa17", "sp18", "fa18", "su19", "fa19", "sp20", "su20", "fa20",
         "sp21", "fa21", "su22", "fa22", "fa23", "hog")


def best_of(call, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def measure(games) -> dict:
    """Seconds of each measure, by game (the optimal table loaded and the model compiled first)."""
    from hogsolve import best_response, get_rules, optimal_strategy, regret, win_rate
    out = {}
    for name in games:
        rules = get_rules(name)
        bot = optimal_strategy(rules)
        win_rate(bot, "always_roll:4", rules)  # warm: the model, the tables
        out[name] = {"pair": best_of(lambda b=bot, r=rules: win_rate(b, "always_roll:4", r), 3),
                     "best_response": best_of(lambda r=rules: best_response("always_roll:4", r), 2),
                     "regret": best_of(lambda r=rules: regret("always_roll:4", r), 2)}
    return out


def previous(rev: str, games) -> dict:
    """The same measures on a checkout of ``rev``, in its own process."""
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(["git", "-C", str(root), "worktree", "add", "-q", "--detach", folder, rev], check=True)
        try:
            done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--json", "--games", ",".join(games)],
                                  cwd=folder, env={**os.environ, "PYTHONPATH": folder}, capture_output=True,
                                  text=True, check=True)
        finally:
            subprocess.run(["git", "-C", str(root), "worktree", "remove", "--force", folder], check=False)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--previous", metavar="REV")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    games = [g for g in args.games.split(",") if g]
    if "su18" not in games:
        games.insert(0, "su18")
    now = measure(games)
    if args.json:
        print(json.dumps(now))
        return
    before = previous(args.previous, games) if args.previous else None
    head = "| game | pair | x su18 | best response | x su18 | regret | x su18 |"
    if before:
        head += f" pair at {args.previous} | best response at {args.previous} |"
    print(head)
    print("|" + " --- |" * (head.count("|") - 1))
    base = now["su18"]
    for name in games:
        row = now[name]
        line = (f"| {name} | {row['pair'] * 1000:.1f} ms | {row['pair'] / base['pair']:.0f}x | "
                f"{row['best_response'] * 1000:.1f} ms | {row['best_response'] / base['best_response']:.0f}x | "
                f"{row['regret'] * 1000:.1f} ms | {row['regret'] / base['regret']:.0f}x |")
        if before:
            line += f" {before[name]['pair'] * 1000:.1f} ms | {before[name]['best_response'] * 1000:.1f} ms |"
        print(line)


if __name__ == "__main__":
    main()
