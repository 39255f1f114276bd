"""Benchmark of every hot path, side by side in one run, against the previous code.

    python scripts/bench.py [--previous REV] [--write BENCHMARKS.md] [--quick]

Measures, each a median of repeated runs on this machine: ``solve`` at goal
100 (every built-in ruleset, BLAS as it comes and limited to one thread),
the solve's growth to goal 2000 (time per state, peak memory), ``win_rate``
of two tables, ``best_response``, the slowest game's pair, best response and regret
against su18's (``scripts/bench_pairs.py``), a 200-strategy round robin (19,900 pairs,
both seatings, exact, ``jobs=2``), Monte Carlo games per second, the exact
verification, the player's cold start above ``import numpy``, and a sweep of
500 rulesets.  With ``--previous REV`` the same measurements (the long ones
smaller, scaled per pair) run on a checkout of revision ``REV`` in a second
process, and every line gets the ratio.  ``--write`` puts the table, the
machine's description and the targets into a Markdown file.
"""
from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL_SCALING = (500, 1000, 2000)


def median_time(call, repeat: int) -> float:
    """Median wall seconds of ``call()`` after one warm-up call."""
    call()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(quick: bool, previous: bool) -> dict:
    """Every figure, with whatever hogsolve is importable (this tree, or an older checkout)."""

    from hogsolve import always_roll, get_rules, rulesets, simulate, solve, tournament, win_rate
    from hogsolve.analysis.evaluate import best_response
    from hogsolve.solver.exact import verify
    from hogsolve.solver.model import compile_model
    from hogsolve.strategy.optimal_bot import optimal_strategy
    from hogsolve.strategy.named import random_strategy, tabulate
    out: dict = {}
    repeat = 5 if quick else 21
    names = [n for n in rulesets() if n not in ("sp22",)]
    # this VM runs its first second of work up to 1.5x slower (timed solves: 4 ms, then
    # 2.7 ms, in a fresh process), so warm up before timing anything
    warm, until = get_rules("su18"), time.perf_counter() + 2.0
    while time.perf_counter() < until:
        solve(warm)
    per_ruleset = {}
    for name in names:
        rules = get_rules(name)
        model = compile_model(rules)
        per_ruleset[name] = median_time(functools.partial(solve, rules, model=model), repeat)
    out["solve_ms_by_ruleset"] = {k: v * 1000 for k, v in per_ruleset.items()}
    out["solve_ms_median"] = statistics.median(per_ruleset.values()) * 1000
    try:
        from threadpoolctl import threadpool_limits
        rules = get_rules("su18")
        model = compile_model(rules)
        with threadpool_limits(1):
            out["solve_ms_su18_one_blas_thread"] = median_time(lambda: solve(rules, model=model), repeat) * 1000
        out["solve_ms_su18"] = per_ruleset["su18"] * 1000
    except ImportError:
        pass
    # growth with the goal: time per state and the peak (tracemalloc sees numpy's arrays)
    import tracemalloc
    scaling = {}
    for goal in (GOAL_SCALING[:2] if quick or previous else GOAL_SCALING):
        rules = get_rules("su18", goal=goal)
        model = compile_model(rules)
        seconds = median_time(functools.partial(solve, rules, model=model), 3)
        tracemalloc.start()
        solve(rules, model=model)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        scaling[goal] = {"seconds": seconds, "us_per_state": seconds / goal ** 2 * 1e6,
                         "peak_arrays": peak / (goal * goal * model.num_actions * 8)}
    out["goal_scaling"] = scaling
    rules = get_rules("su18")
    model = compile_model(rules)
    a, b = optimal_strategy(rules).table, tabulate(always_roll(4), rules)
    out["win_rate_ms"] = median_time(lambda: win_rate(a, b, rules, model=model), repeat) * 1000
    out["best_response_ms"] = median_time(lambda: best_response(b, rules, model=model), repeat) * 1000
    # the round robin: 190 random tables and always_roll:1..10
    count = 40 if previous else (60 if quick else 200)
    tables = [tabulate(random_strategy(s, rules), rules) for s in range(count - 10)]
    tables += [tabulate(always_roll(n), rules) for n in range(1, 11)]
    start = time.perf_counter()
    tournament(tables, rules, jobs=2)
    seconds = time.perf_counter() - start
    pairs = count * (count - 1) // 2
    out["round_robin"] = {"strategies": count, "seconds": seconds, "ms_per_pair": seconds / pairs * 1000,
                          "seconds_for_200": seconds / pairs * 19_900}
    games = 300_000 if quick else 1_000_000
    rates = []
    for seed in range(3 if quick else 5):
        start = time.perf_counter()
        simulate(a, b, rules, games=games, seed=seed, model=model)
        rates.append(games / (time.perf_counter() - start))
    out["monte_carlo_games_per_s"] = statistics.median(rates)
    solution = solve(rules, model=model)
    start, cpu = time.perf_counter(), time.process_time()
    verify(model, solution)
    out["exact_verification_s"] = {"wall": time.perf_counter() - start, "cpu": time.process_time() - cpu}
    try:
        from hogsolve.solver.exact import verify_ties
    except ImportError:  # older revisions have only the full check
        pass
    else:
        ties_cpu = {}
        for name in names:
            rules_q = get_rules(name)
            model_q = compile_model(rules_q)
            solution_q = solve(rules_q, model=model_q)
            try:
                cpu = time.process_time()
                verify_ties(model_q, solution_q)
                ties_cpu[name] = time.process_time() - cpu
            except ValueError:  # history rules, zero-point turns: no exact mode
                pass
        out["exact_ties_s"] = {"median": statistics.median(ties_cpu.values()), "max": max(ties_cpu.values()),
                               "rulesets": len(ties_cpu)}
    out["cold_start_ms"] = cold_start(5 if quick else 11)
    try:  # every game whose state holds more than the scores, beside su18, in this process
        from bench_pairs import measure as measure_pairs
    except ImportError:  # older revisions have no such script
        pass
    else:
        by_game = measure_pairs(["su18", "fa19", "sp20", "su20", "hog", "fa20"])
        out["pairs_by_game"] = {job: max(times[job] / by_game["su18"][job] for times in by_game.values())
                                for job in ("pair", "best_response", "regret")}
    if not previous:
        out["sweep_500"] = sweep_500(quick)
        out["per_state"] = per_state(per_ruleset, quick)  # su18 timed beside each game
    return out


#: The frontier: every game of at least this many states solves within FRONTIER x su18's time per state.
FRONTIER_STATES, FRONTIER = 10_000, 3.0


def per_state(per_ruleset: dict, quick: bool) -> dict:
    """Every built-in game's solve at its goal: states, median seconds, time per state and its
    ratio to su18's, each game timed in turns with su18, each solve timed right after an untimed
    one of its own (both warm, neither timed on arrays another solve pushed out of the caches),
    so a busy moment of this shared machine slows both sides of a ratio alike."""
    import numpy as np

    from hogsolve import get_rules, rulesets, solve
    from hogsolve.hog.rules import NO_VALUE
    from hogsolve.pig.rules import PIG_GAMES, get_pig_game
    from hogsolve.solver.model import compile_model
    from hogsolve.solver.pig import solve_pig
    base_rules = get_rules("su18")
    base_model = compile_model(base_rules)
    games = {}
    for name in rulesets():
        rules = get_rules(name).replace(endless="draw") if name in NO_VALUE else get_rules(name)
        model = compile_model(rules)
        label = f"{name} --endless draw" if name in NO_VALUE else name
        games[label] = (int(np.prod(model.value_shape)), lambda rules=rules, model=model: solve(rules, model=model))
    for name in PIG_GAMES:
        game = get_pig_game(name)
        games[name] = (game.goal ** 3, lambda game=game: solve_pig(game))
    rows = {}
    for label, (states, call) in games.items():
        call()
        repeat = 3 if states > 100_000 else (5 if quick else 15)
        own, base = [], []
        for _ in range(repeat):
            for timed, out in ((lambda: solve(base_rules, model=base_model), base), (call, own)):
                timed()  # warm again after the other's arrays
                start = time.perf_counter()
                timed()
                out.append(time.perf_counter() - start)
        seconds, su18 = statistics.median(own), statistics.median(base)
        rows[label] = {"states": states, "seconds": seconds, "us_per_state": seconds / states * 1e6,
                       "ratio": (seconds / states) / (su18 / base_model.num_states)}
    return rows


def per_state_table(rows: dict) -> str:
    """The Markdown table of :func:`per_state`, slowest per state first."""
    lines = ["| game | states | solve | per state | x su18 per state |", "| --- | --- | --- | --- | --- |"]
    for name, row in sorted(rows.items(), key=lambda item: -item[1]["ratio"]):
        small = row["states"] < FRONTIER_STATES
        mark = " (under 10,000 states)" if small else ("" if row["ratio"] <= FRONTIER else " **over 3x**")
        seconds = row["seconds"]
        shown = f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"
        lines.append(f"| {name} | {row['states']:,} | {shown} | {row['us_per_state']:.3f} us | "
                     f"{row['ratio']:.2f}x{mark} |")
    return "\n".join(lines)


def cold_start(repeat: int) -> dict:
    """Medians over fresh interpreters of ``import numpy`` and, in the same interpreter
    after it, of importing the player and playing its first move: the player's own cost."""
    code = ("import time; t0 = time.perf_counter(); import numpy; t1 = time.perf_counter(); "
            "from hogsolve.strategy.optimal_bot import optimal_strategy; optimal_strategy('su18')(0, 0); "
            "t2 = time.perf_counter(); print(t1 - t0, t2 - t1)")
    runs = [[float(x) * 1000 for x in subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                                     check=True, env={**os.environ}).stdout.split()]
            for _ in range(repeat)]
    # numpy's import varies by several ms between fresh interpreters; timing both parts in
    # each interpreter takes that spread out of the difference
    return {"numpy": statistics.median(r[0] for r in runs), "player": statistics.median(sum(r) for r in runs),
            "above_numpy": statistics.median(r[1] for r in runs)}


def sweep_500(quick: bool) -> dict:
    """A sweep of 500 rulesets at goal 100 (or 50 with --quick) on two worker processes."""
    from hogsolve.contest.sweeps import load_grid, sweep_rulesets
    with tempfile.TemporaryDirectory() as folder:
        grid = Path(folder) / "grid.toml"
        bacon = ["bacon_larger_digit", "bacon_digit_difference", "bacon_product_digit", "bacon_pig_tail",
                 "bacon_ten_minus_smaller_digit"]
        swaps = ["never_swap", "swap_double", "swap_ones_equals_tens", "swap_reversed_digits", "swap_multiple"]
        pig_out = [1, 2, 3, 4] if not quick else [1]
        extra = '\nmax_dice = [6, 7, 8, 9, 10]' if not quick else '\nmax_dice = [10, 8]'
        grid.write_text("[grid]\nfree_bacon = " + json.dumps(bacon) + "\nswaps = " + json.dumps(swaps)
                        + "\npig_out = " + json.dumps(pig_out) + extra + "\n")
        _, combos = load_grid(grid)
        start = time.perf_counter()
        sweep_rulesets([rules for _, rules in combos], jobs=2)
        return {"rulesets": len(combos), "seconds": time.perf_counter() - start}


def measure_previous(rev: str, quick: bool) -> dict:
    """:func:`measure` on a checkout of ``rev`` (a git worktree), in a fresh interpreter."""
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "previous"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), rev], check=True,
                       capture_output=True)
        try:
            env = {**os.environ, "PYTHONPATH": str(tree)}
            # the revision's own script, which knows its own module layout
            script = tree / "scripts" / "bench.py"
            text = subprocess.run([sys.executable, str(script if script.exists() else __file__), "--measure-only",
                                   "--previous-mode"]
                                  + (["--quick"] if quick else []), cwd=folder, env=env, capture_output=True,
                                  text=True, check=True).stdout
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False,
                           capture_output=True)
    return json.loads(text)


def machine() -> str:
    """One line about this machine: CPU, cores, Python, numpy and its BLAS."""
    import numpy as np
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    blas = ""
    try:
        from threadpoolctl import threadpool_info
        info = [i for i in threadpool_info() if i.get("user_api") == "blas"]
        if info:
            blas = (f", BLAS {info[0].get('internal_api')} {info[0].get('version')} "
                    f"({info[0].get('num_threads')} threads)")
    except ImportError:
        pass
    return (f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, Python "
            f"{platform.python_version()}, numpy {np.__version__}{blas}")


ROWS = [  # (label, target, how to read the figure, lower is better)
    ("solve, goal 100 (median over rulesets)", "<= 3 ms", lambda m: m["solve_ms_median"], "ms", True),
    ("solve su18, BLAS as it comes", "", lambda m: m.get("solve_ms_su18"), "ms", True),
    ("solve su18, one BLAS thread (threadpoolctl)", "", lambda m: m.get("solve_ms_su18_one_blas_thread"), "ms", True),
    ("solve time per state, goal 1000", "~ goal^2", lambda m: m["goal_scaling"]["1000"]["us_per_state"], "us", True),
    ("solve time per state, goal 2000", "~ goal^2", lambda m: m["goal_scaling"].get("2000", {}).get("us_per_state"),
     "us", True),
    ("solve peak memory, goal 2000 (arrays of goal^2 x actions)", "<= 2",
     lambda m: m["goal_scaling"].get("2000", {}).get("peak_arrays"), "", True),
    ("win_rate of two tables", "<= 5 ms", lambda m: m["win_rate_ms"], "ms", True),
    ("best_response", "<= 10 ms", lambda m: m["best_response_ms"], "ms", True),
    ("round robin of 200 (19,900 pairs, 2 workers)", "<= 60 s", lambda m: m["round_robin"]["seconds_for_200"], "s",
     True),
    ("Monte Carlo, optimal vs always_roll:4", ">= 2,000,000/s", lambda m: m["monte_carlo_games_per_s"], "games/s",
     False),
    ("exact verification su18, every decision (CPU)", "<= 1 s", lambda m: m["exact_verification_s"]["cpu"], "s",
     True),
    ("exact check, certified decisions + exact ties (CPU, slowest ruleset)", "<= 1 s",
     lambda m: m["exact_ties_s"]["max"], "s", True),
    ("player cold start above import numpy", "<= 20 ms", lambda m: m["cold_start_ms"]["above_numpy"], "ms", True),
    ("a pair's win rate, slowest game (Feral Hogs, Neller's) / su18's", "<= 20x",
     lambda m: m["pairs_by_game"]["pair"], "x", True),
    ("best response, slowest game / su18's", "<= 20x", lambda m: m["pairs_by_game"]["best_response"], "x", True),
    ("regret, slowest game / su18's", "<= 20x", lambda m: m["pairs_by_game"]["regret"], "x", True),
    ("sweep of 500 rulesets at goal 100 (2 workers)", "a few minutes",
     lambda m: m["sweep_500"]["seconds"] if m.get("sweep_500", {}).get("rulesets") == 500 else None, "s", True),
]


NOTES = """## Notes

- **solve.** Where the state is the two scores, every turn scores, one kind of dice serves
  each score sum and the landing does not depend on the points (15 of the 21 built-in
  rulesets), the sweep works each sum's indexing out once per model and spends five numpy
  calls per sum (an 11 x 61 matrix product of about 3 us, and two gathers, a minimum and a
  subtraction of 0.7-1.5 us each, called without numpy's Python wrappers): about 1.7 ms
  for the 199 sums of goal 100. Each sum's action values are computed once from larger
  sums that are already final, so they are the backup of the finished table that the
  certificate needs (no second full backup), and the top-two gap and the tie-break make
  one pass over the actions. The other games take a one-pass path of their own:
  Neller's Hog (a 1 scores nothing, so a turn can hand the same scores back) solves each
  state with its mirror, a 2 x 2 system per pair of actions in closed form, by policy
  iteration from a guess of nearby states' values (two rounds at most sums, 2.3 on
  average); sp15's points bonus and fa15's Piggy Back gather each state's landings by
  points (and by dice) and weigh them with one matrix product per sum; the Feral Hogs
  semesters keep each sum's action values (a pass computes them from final larger sums,
  so no second backup), built actions-first so the certificate reads them without a
  copy; sp22 under `--endless draw` solves its passes in closed form. The roll-or-hold
  games solve by stages with per-stage policy iteration (Neller and Presser's stages);
  Two-Dice Pig's wipes send play back to lower sums, so it is solved by policy iteration
  over whole turns: per round, one forward pass over the turn total for every pair at once
  (each turn's chances to hold at each total, bust or wipe), one sparse solve of the values
  at the turns' starts (SuperLU in falling score sums, about 7 ms to factor, the values
  after a wipe repeated to a fixed point), and one backward pass for the greedy policy;
  7 rounds at goal 100, where passes over every stage had to repeat 13 times (3.9 s).
- **Exact check.** `--exact` takes every action's exact value from the dice recurrence
  F_n(j) = F_n(j+1) + F_(n-1)(j+2) - F_(n-1)(j+S+1) (F_n: the outcome table summed over the
  rolls of n dice without a 1), two big-integer additions per row, state and dice count
  instead of a product per point, and divides back only the best action's value. What
  remains is mostly rounding the 110,000 exact action values to floats for the tables.
- **BLAS threads.** Limiting OpenBLAS to one thread (threadpoolctl) changes `solve` by
  under 10% either way here (the rows above), and entering and leaving the limit costs
  about 0.3 ms, so `solve` does not set it; the batched evaluations run under a one-thread
  limit in every worker, where two BLAS threads per process on two cores only contend.
- **Growth with the goal.** Time per state falls as the goal grows (fixed costs spread
  thin), so time grows no faster than goal^2; single runs at one goal vary from run to
  run (fresh arrays of hundreds of MB page-fault differently). The peak holds the action
  values, the outcome table and one block of rows at a time.
- **Cold start** is, in each of several fresh interpreters, the time to import the player
  and play its first move after `import numpy`, and the median of those; timing both in
  one interpreter takes out numpy's own spread of several ms between interpreters (the
  earlier method, a difference of two medians, measured 12-23 ms for the same code).
- **Round robin**: one strategy against blocks of up to 64 opponents in one sweep (the
  opponents on an array axis), two worker processes. On a Dask cluster see
  `scripts/bench_dask.py` and the README.
"""


def _get(read, m):
    try:
        value = read(m)
    except (KeyError, TypeError):
        return None
    return value


def table(now: dict, before: dict | None, rev: str | None) -> str:
    """The Markdown table: target, this run, the previous revision, and the speed-up."""
    head = "| measure | target | now |" + (f" {rev} | speed-up |" if before else "")
    rule = "| --- | --- | --- |" + (" --- | --- |" if before else "")
    lines = [head, rule]
    for label, target, read, unit, lower in ROWS:
        value = _get(read, now)
        if value is None:
            continue
        cell = f"{value:,.0f} {unit}" if value >= 1000 else f"{value:.3g} {unit}"
        row = f"| {label} | {target} | {cell.strip()} |"
        if before:
            old = _get(read, before)
            if old is None:
                row += " - | - |"
            else:
                old_cell = f"{old:,.0f} {unit}" if old >= 1000 else f"{old:.3g} {unit}"
                ratio = old / value if lower else value / old
                row += f" {old_cell.strip()} | {ratio:.2f}x |"
        lines.append(row)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--previous", metavar="REV", help="also measure this git revision, in a worktree")
    parser.add_argument("--write", type=Path, metavar="FILE.md", help="write the results as Markdown")
    parser.add_argument("--quick", action="store_true", help="fewer runs and smaller sizes (a smoke test)")
    parser.add_argument("--measure-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--previous-mode", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure_only:
        print(json.dumps(measure(args.quick, args.previous_mode)))
        return
    now = json.loads(json.dumps(measure(args.quick, False)))  # the same key types as a child's
    before = measure_previous(args.previous, args.quick) if args.previous else None
    text = table(now, before, args.previous)
    print(machine())
    print(text)
    by_ruleset = now["solve_ms_by_ruleset"]
    print("solve at goal 100 by ruleset (ms): " + ", ".join(f"{k} {v:.1f}" for k, v in by_ruleset.items()))
    print(per_state_table(now["per_state"]))
    scaling = now["goal_scaling"]
    print("goal scaling (su18): " + "; ".join(f"goal {g}: {v['seconds']:.2f} s, {v['us_per_state']:.3f} us/state, "
                                              f"peak {v['peak_arrays']:.2f} arrays" for g, v in scaling.items()))
    print(f"round robin: {now['round_robin']['strategies']} strategies in {now['round_robin']['seconds']:.1f} s "
          f"({now['round_robin']['ms_per_pair']:.2f} ms per pair)"
          + (f"; {args.previous}: {before['round_robin']['strategies']} strategies in "
             f"{before['round_robin']['seconds']:.1f} s ({before['round_robin']['ms_per_pair']:.2f} ms per pair)"
             if before else ""))
    if args.write:
        extra = (f"Every built-in game at its goal, time per state against su18's (the frontier: every game "
                 f"of at least {FRONTIER_STATES:,} states within {FRONTIER:g}x):\n\n"
                 f"{per_state_table(now['per_state'])}\n\n"
                 f"Solve at goal 100 by ruleset (ms): "
                 + ", ".join(f"{k} {v:.1f}" for k, v in now["solve_ms_by_ruleset"].items()) + ".\n\n"
                 + "Growth with the goal (su18): " + "; ".join(
                     f"goal {g}: {v['seconds']:.2f} s, {v['us_per_state']:.3f} us per state, peak "
                     f"{v['peak_arrays']:.2f} arrays of goal^2 x actions" for g, v in scaling.items()) + ".\n")
        previous = f" --previous {args.previous}" if before else ""
        body = (f"# Benchmarks\n\nMeasured by `python scripts/bench.py{previous}"
                f"{' --quick' if args.quick else ''} --write {args.write.name}` on {time.strftime('%Y-%m-%d')}, "
                f"every figure a median of repeated runs in one process, the previous revision's in a second "
                f"process on a checkout of it (its round robin on 40 strategies, scaled per pair).\n\n"
                f"Machine: {machine()}.\n\n{text}\n\n{extra}\n{NOTES}")
        import re
        old = args.write.read_text() if args.write.exists() else ""
        kept = re.findall(r"<!-- (\w+) -->.*?<!-- /\1 -->", old, re.S)  # other scripts' sections stay
        blocks = [m.group(0) for m in re.finditer(r"<!-- (\w+) -->.*?<!-- /\1 -->", old, re.S)]
        args.write.write_text(body.rstrip("\n") + "".join("\n\n" + b for b in blocks) + "\n" if kept else body)


if __name__ == "__main__":
    main()
