"""``hogsolve compare | best-response | regret | tournament``: strategies, exactly."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from . import pig
from .common import (Failure, UsageError, add_jobs_option, add_spec_options, add_strategy_options, by_family,
                     degenerate_goal_note,
                     seat_names,
                    cap_jobs, int_in_range, load_policy, optimal_bot, output_file, positive, respond,
                    rules_and_policy, rules_of, seed_value, spec_help, unproven, write_or_fail)


def _converged(call, what: str):
    """Run an exact evaluation; an iteration that hit its cap is one line, exit 1."""
    from ..solver.iteration import ConvergenceError
    try:
        return call()
    except ConvergenceError as exc:
        raise Failure(str(exc)) from None


def setup_compare(p):
    """``hogsolve compare A B``: exact win rates, optionally simulated too."""
    p.add_argument("a", metavar="A", help=spec_help("the first strategy"))
    p.add_argument("b", metavar="B", help="the second strategy, in the same forms")
    add_strategy_options(p)
    p.add_argument("--simulate", type=int_in_range(2, what="the number of games"), metavar="N",
                   help="also simulate N games (at least 2), in chunks of constant memory")
    p.add_argument("--seed", type=seed_value, default=0, help="seed for --simulate (0 or more; default 0)")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    return by_family({"hog": compare_hog, "roll-or-hold": pig.compare_games})


def compare_hog(args) -> int:
    """``hogsolve compare A B`` for Hog rulesets."""
    from ..analysis.evaluate import win_rate
    from ..analysis.montecarlo import simulate
    from ..util.progress import progress
    rules = rules_of(args)
    ta, tb = load_policy(args.a, rules, args), load_policy(args.b, rules, args)
    exact = _converged(lambda: win_rate(ta, tb, rules), "exact win rate")
    record = {"rules": rules.name, "goal": rules.goal, "a": args.a, "b": args.b, "exact": exact.to_dict()}
    degenerate_goal_note(exact.first, exact.second, rules.goal)
    record["exact"].update(a=args.a, b=args.b)
    sim = None
    if args.simulate:
        sim = simulate(ta, tb, rules, games=args.simulate, seed=args.seed,
                       progress=lambda it, n: progress(it, n, "simulating"), announce=_announce)
        record["simulated"] = {**sim.to_dict(), "a": args.a, "b": args.b}
    return respond(args, record, lambda: show_compare(args, rules, exact, sim), not_proven=unproven(ta, tb))


def show_compare(args, rules, exact, sim) -> None:
    """The text of ``hogsolve compare``."""
    a, b = seat_names(args.a, args.b)
    width = max(len(a), len(b)) + 13
    print(f"{a} vs {b} ({rules.name}, goal {rules.goal}), exact probability that {a} wins:")
    print(f"  {(a + ' moves first:'):{width}} {exact.first:.12f}")
    print(f"  {(b + ' moves first:'):{width}} {exact.second:.12f}")
    print(f"  {'average:':{width}} {exact.average:.12f}  (the CS 61A win rate)")
    if sim is not None:
        lo, hi = sim.interval
        print(f"  simulated, {args.simulate} games (seed {args.seed}): {sim.average:.6f} "
              f"(95% interval {lo:.6f} to {hi:.6f})")


def _announce(seconds: float) -> None:
    if seconds > 60:
        print(f"note: the simulation will take about {seconds / 60:.0f} min (Ctrl-C stops it)",
              file=sys.stderr, flush=True)


def setup_best_response(p):
    """``hogsolve best-response SPEC``: the strategy that beats SPEC by the most."""
    add_spec_options(p, "the fixed opponent's strategy spec")
    p.add_argument("--out", type=Path, metavar="FILE.csv", help="write the best response's policy table")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    return by_family({"hog": best_response_hog, "roll-or-hold": pig.best_response_game})


def best_response_hog(args) -> int:
    """``hogsolve best-response SPEC`` for Hog rulesets."""
    from ..analysis.evaluate import best_response
    from ..util.files import atomic_write, grid_csv, npy_bytes
    if args.out is not None:
        output_file(args.out)
    rules, table = rules_and_policy(args)
    as_npy = args.out is not None and args.out.suffix == ".npy"
    if args.out is not None and rules.history is not None and not as_npy:
        raise UsageError(f"{rules.name} policies depend on both players' memories: name an --out "
                         "ending in .npy (read back as table:PATH.npy)")
    br = _converged(lambda: best_response(table, rules), "best response")
    if args.out is not None:
        data = npy_bytes(br.policy.astype("int8")) if as_npy else grid_csv(br.policy, str)
        write_or_fail(lambda: atomic_write(args.out, data), args.out)
    record = {"rules": rules.name, **br.to_dict(), "opponent": args.spec}
    record["win_rate"].update(b=args.spec)
    if args.out is not None:
        record["written_to"] = str(args.out)
    return respond(args, record, lambda: show_best_response(args, rules, br), not_proven=unproven(table))


def show_best_response(args, rules, br) -> None:
    """The text of ``hogsolve best-response``."""
    r = br.win_rate
    print(f"Best response to {args.spec} ({rules.name}), exact win probability:")
    print(f"  moving first:  {r.first:.12f}")
    print(f"  moving second: {r.second:.12f}")
    print(f"  average:       {r.average:.12f}")
    print(f"  exploitability of {args.spec}: {br.exploitability:.12f}")
    print(f"  opening move: {int(br.policy[(0,) * br.policy.ndim])} dice")
    if args.out is not None:
        print(f"  wrote {args.out}")


def setup_regret(p):
    """``hogsolve regret SPEC``: where a strategy loses against optimal play."""
    add_spec_options(p, "strategy spec")
    p.add_argument("--top", type=positive, default=10, metavar="K", help="states to list (default 10)")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    return by_family({"hog": regret_hog, "roll-or-hold": pig.regret_game})


def regret_hog(args) -> int:
    """``hogsolve regret SPEC`` for Hog rulesets."""
    from ..analysis.evaluate import regret
    rules, table = rules_and_policy(args)
    bot = optimal_bot(rules, args)  # regret is measured against it: refused when it is not proven
    report = _converged(lambda: regret(table, rules), "regret")
    record = {"rules": rules.name, **report.to_dict(args.top), "strategy": args.spec}
    return respond(args, record, lambda: show_regret(args, rules, report, proven=not bot.reason),
                   not_proven=bot.reason)


def show_regret(args, rules, report, proven: bool = True) -> None:
    """The text of ``hogsolve regret``; the identity with the win rate only where it holds (the
    optimum proven, and the two sides equal)."""
    r = report.win_rate
    print(f"{args.spec} against the optimal strategy ({rules.name}):")
    print(f"  win rate {r.average:.12f} (first {r.first:.12f}, second {r.second:.12f})")
    holds = proven and abs(report.total_expected_loss - (0.5 - r.average)) <= 1e-9
    print(f"  total expected loss {report.total_expected_loss:.12f}" + (" = 1/2 - win rate" if holds else ""))
    print("  states where it loses most (expected loss = loss x reach):")
    memories = rules.history is not None  # then each state also has both players' memories
    extra = f" {'mem':>3} {'opp mem':>7}" if memories else ""
    print(f"  {'score':>5} {'opp':>4}{extra} {'rolls':>5} {'best':>4} {'loss':>9} {'reach':>9} {'expected':>10}")
    for row in report.worst(args.top):
        extra = f" {row['my_memory']:>3} {row['opponent_memory']:>7}" if memories else ""
        print(f"  {row['score']:>5} {row['opponent_score']:>4}{extra} {row['choice']:>5} {row['optimal']:>4} "
              f"{row['loss']:>9.6f} {row['reach']:>9.6f} {row['expected_loss']:>10.3e}")


def setup_tournament(p):
    """``hogsolve tournament ENTRY...``: the contest round robin with exact win rates."""
    p.add_argument("specs", nargs="+", metavar="ENTRY",
                   help="a folder of student files (every *.py in it, each with final_strategy), a FILE.py, "
                        "or " + spec_help("a strategy"))
    add_strategy_options(p)
    add_jobs_option(p)
    p.add_argument("--threshold", type=float, default=0.5, metavar="RATE",
                   help="a pair is won above this win rate; ties count as losses (default 0.5; the CS 61A "
                        "contest used 0.500001)")
    p.add_argument("--out", type=Path, metavar="RESULTS.csv",
                   help="write every pair's win rates here as they finish; a rerun resumes from it")
    p.add_argument("--report", type=Path, metavar="RESULTS.html",
                   help="also write the contest as one self-contained HTML page (standings a reader can sort, "
                        "the win-rate heatmap, each entry against the optimum, the skipped entries)")
    p.add_argument("--backend", choices=("local", "dask"), default="local",
                   help="local worker processes (--jobs) or a Dask cluster (--scheduler; "
                        "pip install 'hogsolve[dask]')")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="the Dask scheduler's address")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    return by_family({"hog": contest, "roll-or-hold": pig.tournament_game})


def contest(args) -> int:
    """Load every entry (student files in parallel, a broken one skipped), play the round robin
    with the results file, print the standings."""
    from concurrent.futures import ThreadPoolExecutor

    from ..contest.entries import ContestError, ResultsFile, find_entries
    from ..util.progress import progress
    from ..contest.roundrobin import table_digest, tournament
    if not 0 <= args.threshold < 1:
        raise UsageError(f"--threshold must be from 0 to below 1, got {args.threshold}")
    if args.backend == "dask" and not args.scheduler:
        raise UsageError("--backend dask needs --scheduler tcp://HOST:PORT")
    try:
        entries, skipped = find_entries(args.specs)
    except ContestError as exc:
        raise UsageError(str(exc)) from None
    for name, why in skipped:
        print(f"skipped {name}: {why}", file=sys.stderr)
    rules = rules_of(args)
    if args.out is not None:
        output_file(args.out)
    if getattr(args, "report", None) is not None:
        output_file(args.report, ".html", "--report")

    def load(entry):
        name, spec, is_file = entry
        try:
            return load_policy(spec, rules, args)
        except (UsageError, Failure) as exc:
            if not is_file:
                raise
            print(f"skipped {name}: {exc}", file=sys.stderr)
            skipped.append((name, str(exc)))
            return None
    jobs = cap_jobs(args.jobs)
    with ThreadPoolExecutor(max_workers=jobs) as pool:  # each file runs in its own interpreter
        loaded = list(pool.map(load, entries))
    names = [name for (name, _, _), policy in zip(entries, loaded) if policy is not None]
    policies = [policy for policy in loaded if policy is not None]
    if len(policies) < 2:
        raise UsageError(f"hogsolve tournament: {len(policies)} usable strateg{'y' if len(policies) == 1 else 'ies'};"
                         " a round robin needs at least two")
    results = None
    known = {}
    if args.out is not None:
        results = ResultsFile(args.out, rules, names, [table_digest(p.table, rules) for p in policies])
        try:
            known = results.known()
        except (ContestError, OSError) as exc:
            raise UsageError(str(exc)) from None
        if results.ignored:
            print(f"{args.out}: {results.ignored} unreadable row(s) ignored; those pairs run again", file=sys.stderr)
        if known:
            print(f"resuming: {len(known)} of {len(names) * (len(names) - 1) // 2} pairs read from {args.out}",
                  file=sys.stderr)
    try:
        result = _converged(lambda: tournament(
            policies, rules, names=names, jobs=jobs, backend=args.backend, scheduler=args.scheduler,
            threshold=args.threshold, known=known, on_pair=results.append if results else None,
            progress=lambda it, n: progress(it, n, "tournament")), "tournament")
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if results is not None:
        write_or_fail(lambda: results.finish(result), args.out)
    skipped.sort()
    record = {**result.to_dict(), "skipped": [{"entry": name, "reason": why} for name, why in skipped]}
    if args.report is not None:
        from ..contest.report import write_report
        by_name = dict(zip(names, policies))
        against = _against_optimal([by_name[row["strategy"]] for row in record["ranking"]], rules)
        write_or_fail(lambda: write_report(args.report, record, goal=int(rules.goal), against_optimal=against),
                      args.report)

    def show():
        show_tournament(rules, result)
        for name, why in skipped:
            print(f"skipped {name}: {why}")
    return respond(args, record, show, not_proven=unproven(*policies))


def _against_optimal(policies, rules) -> list:
    """Each policy's exact win rate against the optimal strategy (None where the ruleset has
    no proven optimum, as sp22)."""
    from ..api import win_rate
    from ..errors import HogsolveError
    from ..strategy.optimal_bot import optimal_strategy
    try:
        optimal = optimal_strategy(rules)
    except HogsolveError:  # a ruleset with no optimal value (sp22): the column says "-"
        return [None] * len(policies)
    return [float(win_rate(policy, optimal, rules).average) for policy in policies]


def show_tournament(rules, result) -> None:
    """The text of ``hogsolve tournament``: contest standings (a tied rank shows ``=``), and
    each pairing's win rate as columns when there are at most ten strategies."""
    n, order, rate = len(result.names), result.order, result.rate
    ranks, wins, losses, mean = result.ranks, result.wins, result.losses, result.mean_win_rate
    tied = np.bincount(ranks) > 1
    width = max(len(s) for s in result.names + ["strategy"])
    print(f"Round robin ({rules.name}, {n} strategies), exact CS 61A win rates; a pair is won above "
          f"{result.threshold:g}, ties count as losses:")
    columns = n <= 10
    head = f"{'rank':>4}  {'strategy':{width}}  {'wins':>4}  {'losses':>6}  {'mean':>8}"
    print(head + ("  " + "  ".join(f"{k + 1:>8}" for k in range(n)) if columns else ""))
    for i in order:
        rank = ("=" if tied[ranks[i]] else "") + str(ranks[i])
        cells = "  " + "  ".join(f"{'-':>8}" if j == i else f"{rate[i, j]:8.6f}" for j in order) if columns else ""
        print(f"{rank:>4}  {result.names[i]:{width}}  {wins[i]:>4}  {losses[i]:>6}  {mean[i]:8.6f}{cells}")
    for i, j, exact in result.settled:
        print(f"{result.names[i]} vs {result.names[j]}: within rounding of the threshold, settled exactly: "
              f"{exact.numerator / exact.denominator:.12f}{' (exactly 1/2)' if exact == 0.5 else ''}")
