"""``hogsolve compare | best-response | regret | tournament``: strategies, exactly."""
from __future__ import annotations

import sys
from pathlib import Path

from .common import (Failure, UsageError, add_jobs_option, add_spec_options, add_strategy_options, cap_jobs,
                     respond, int_in_range, load_policy, output_file, positive, rules_and_policy, rules_of,
                     seed_value, spec_help, write_or_fail)


def _converged(call, what: str):
    """Run an exact evaluation; an iteration that hit its cap is one line, exit 1."""
    from ..iteration import ConvergenceError
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

    def run(args):
        from ..evaluate import win_rate
        from ..montecarlo import simulate
        from ..progress import progress
        from .pig import compare_games, is_pig, pig_game
        if is_pig(args.rules):
            return compare_games(args.a, args.b, pig_game(args.rules, args.goal), args.json,
                                 simulate=args.simulate, seed=args.seed)
        rules = rules_of(args)
        ta, tb = load_policy(args.a, rules, args), load_policy(args.b, rules, args)
        exact = _converged(lambda: win_rate(ta, tb, rules), "exact win rate")
        record = {"rules": rules.name, "a": args.a, "b": args.b, "exact": exact.to_dict()}
        record["exact"].update(a=args.a, b=args.b)
        sim = None
        if args.simulate:
            sim = simulate(ta, tb, rules, games=args.simulate, seed=args.seed,
                           progress=lambda it, n: progress(it, n, "simulating"), announce=_announce)
            record["simulated"] = {**sim.to_dict(), "a": args.a, "b": args.b}
        return respond(args, record, lambda: show_compare(args, rules, exact, sim))
    return run


def show_compare(args, rules, exact, sim) -> None:
    """The text of ``hogsolve compare``."""
    width = max(len(args.a), len(args.b)) + 13
    print(f"{args.a} vs {args.b} ({rules.name}), exact probability that {args.a} wins:")
    print(f"  {(args.a + ' moves first:'):{width}} {exact.first:.12f}")
    print(f"  {(args.b + ' moves first:'):{width}} {exact.second:.12f}")
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

    def run(args):
        from ..evaluate import best_response
        from ..tables import atomic_write, grid_csv, npy_bytes
        from .pig import best_response_game, is_pig, pig_game
        if is_pig(args.rules):
            if args.out is not None:
                raise UsageError("hogsolve best-response: --out is for Hog rulesets")
            return best_response_game(args.spec, pig_game(args.rules, args.goal), args.json)
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
        return respond(args, record, lambda: show_best_response(args, rules, br))
    return run


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

    def run(args):
        from ..evaluate import regret
        from .pig import is_pig, pig_game, regret_game
        if is_pig(args.rules):
            return regret_game(args.spec, pig_game(args.rules, args.goal), args.top, args.json)
        rules, table = rules_and_policy(args)
        report = _converged(lambda: regret(table, rules), "regret")
        record = {"rules": rules.name, **report.to_dict(args.top), "strategy": args.spec}
        return respond(args, record, lambda: show_regret(args, rules, report))
    return run


def show_regret(args, rules, report) -> None:
    """The text of ``hogsolve regret``."""
    r = report.win_rate
    print(f"{args.spec} against the optimal strategy ({rules.name}):")
    print(f"  win rate {r.average:.12f} (first {r.first:.12f}, second {r.second:.12f})")
    print(f"  total expected loss {report.total_expected_loss:.12f} = 1/2 - win rate")
    print("  states where it loses most (expected loss = loss x reach):")
    memories = rules.history is not None  # then each state also has both players' memories
    extra = f" {'mem':>3} {'opp mem':>7}" if memories else ""
    print(f"  {'score':>5} {'opp':>4}{extra} {'rolls':>5} {'best':>4} {'loss':>9} {'reach':>9} {'expected':>10}")
    for row in report.worst(args.top):
        extra = f" {row['my_memory']:>3} {row['opponent_memory']:>7}" if memories else ""
        print(f"  {row['score']:>5} {row['opponent_score']:>4}{extra} {row['choice']:>5} {row['optimal']:>4} "
              f"{row['loss']:>9.6f} {row['reach']:>9.6f} {row['expected_loss']:>10.3e}")


def setup_tournament(p):
    """``hogsolve tournament SPEC...``: a round robin with exact win rates."""
    p.add_argument("specs", nargs="+", metavar="SPEC", help=spec_help("two or more strategies"))
    add_strategy_options(p)
    add_jobs_option(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")

    def run(args):
        from ..progress import progress
        from ..roundrobin import tournament
        from .pig import is_pig, pig_game, tournament_game
        if len(args.specs) < 2:
            raise UsageError("hogsolve tournament: name at least two strategies")
        if is_pig(args.rules):
            return tournament_game(args.specs, pig_game(args.rules, args.goal), args.json)
        rules = rules_of(args)
        jobs = cap_jobs(args.jobs)
        tables = [load_policy(s, rules, args) for s in args.specs]
        result = _converged(lambda: tournament(tables, rules, names=args.specs, jobs=jobs,
                                               progress=lambda it, n: progress(it, n, "tournament")),
                            "tournament")
        return respond(args, result.to_dict(), lambda: show_tournament(rules, result))
    return run


def show_tournament(rules, result) -> None:
    """The text of ``hogsolve tournament``: ranked rows, win rates against each column."""
    n, order, mean, rate = len(result.names), result.order, result.mean_win_rate, result.rate
    width = max(len(s) for s in result.names)
    print(f"Round robin ({rules.name}), exact CS 61A win rates (row against column):")
    print(f"{'rank':>4}  {'strategy':{width}}  {'mean':>8}  " + "  ".join(f"{k + 1:>8}" for k in range(n)))
    for k, i in enumerate(order):
        cells = "  ".join(f"{'-':>8}" if j == i else f"{rate[i, j]:8.6f}" for j in order)
        print(f"{k + 1:>4}  {result.names[i]:{width}}  {mean[i]:8.6f}  {cells}")
