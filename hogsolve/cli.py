"""Command line: ``hogsolve VERB [options]``.

Exit codes: 0 ok, 1 failure, 2 bad input (one line on stderr, no traceback).
This module only parses, calls the library and formats.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Callable, Dict, List, Optional

from . import __version__

VERBS: Dict[str, Callable] = {}


class UsageError(Exception):
    """Bad input from the user: reported on one line, exit code 2."""


class Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, as for every user mistake
        raise UsageError(f"{self.prog}: {message}")


def verb(name: str, help: str):
    """Register ``setup(parser) -> run(args)`` as a sub-command."""
    def register(setup):
        VERBS[name] = (help, setup)
        return setup
    return register


def json_value(x):
    """JSON for values json does not know: exact fractions keep both forms."""
    from fractions import Fraction
    if isinstance(x, Fraction):
        return {"fraction": f"{x.numerator}/{x.denominator}", "decimal": float(x)}
    return str(x)


def emit_json(data) -> None:
    print(json.dumps(data, indent=2, default=json_value))


def add_rules_option(p, *, many: bool = False) -> None:
    from .rules import rulesets
    names = ", ".join(rulesets())
    if many:
        p.add_argument("--rules", nargs="+", metavar="NAME", help=f"rulesets ({names})")
    else:
        p.add_argument("--rules", default="su18", metavar="NAME", help=f"ruleset ({names}; default su18)")
    p.add_argument("--goal", type=int, default=None, help="score that ends the game (default: the ruleset's)")


def load_rules(name: str, goal: Optional[int] = None):
    from .rules import UnknownRulesetError, get_rules
    try:
        return get_rules(name, goal)
    except (UnknownRulesetError, ValueError, TypeError) as exc:
        raise UsageError(str(exc)) from None


def writable_dir(path: Path) -> Path:
    """Create ``path`` if needed and prove it writable, or raise UsageError."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".hogsolve-write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise UsageError(f"cannot write to {path}: {exc.strerror or exc}") from None
    return path


# ------------------------------------------------------------------ rules --

@verb("rules", "list the built-in rulesets")
def _rules(p):
    p.add_argument("--json", action="store_true", help="machine-readable output")

    def run(args):
        from .rules import rulesets
        known = rulesets()
        if args.json:
            emit_json([r.summary() for r in known.values()])
        else:
            for name, r in known.items():
                print(f"{name}  {r.description}")
        return 0
    return run


# ------------------------------------------------------------------ solve --

@verb("solve", "solve rulesets exactly and write policy tables")
def _solve(p):
    add_rules_option(p, many=True)
    p.add_argument("--all", action="store_true", help="every built-in ruleset; writes ./solutions unless --out")
    p.add_argument("--out", type=Path, help="write one table directory per ruleset under DIR")
    p.add_argument("--exact", action="store_true", help="recompute in exact rationals and check every state")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    def run(args):
        from .exact import ExactUnsupported
        from .rules import rulesets
        from .solver import solve
        from .tables import write_solution
        if args.all:
            names = list(rulesets())
        elif args.rules:
            names = args.rules
        else:
            raise UsageError("hogsolve solve: name --rules NAME ... or --all")
        chosen = [load_rules(n, args.goal) for n in names]
        out = args.out if args.out is not None else (Path("solutions") if args.all else None)
        if out is not None:
            writable_dir(out)
        results, failed = [], False
        for rules in chosen:
            try:
                solution = solve(rules, exact=args.exact)
            except ExactUnsupported as exc:
                raise UsageError(str(exc)) from None
            record = solution.to_dict()
            if out is not None and solution.converged:
                record["written_to"] = str(write_solution(solution, out / rules.name, __version__))
            results.append(record)
            if not args.json:
                print(format_solution(solution, record.get("written_to")))
            if not solution.converged:
                failed = True
                print(f"error: {rules.name}: {solution.certificate.reason}; no table written",
                      file=sys.stderr)
        if args.json:
            emit_json(results)
        return 1 if failed else 0
    return run


def format_solution(solution, written_to: Optional[str]) -> str:
    c = solution.certificate
    lines = [
        f"{solution.rules.name} (goal {solution.goal}): P(first player wins) = "
        f"{solution.first_player_win_probability:.12f}, opening move {solution.opening_move} dice, "
        f"solved in {solution.solve_seconds * 1000:.0f} ms",
        f"  certificate: values within {c.error_bound:.2g} of optimal (Bellman residual "
        f"{c.max_bellman_residual:.2g}); smallest decision margin {c.min_decision_margin:.2g}; "
        f"{len(c.tie_states)} states tied within the bound",
        "  proven optimal" if c.proven else f"  NOT proven: {c.reason}",
    ]
    if solution.exact is not None:
        e = solution.exact
        p = e.win_probability_start
        from .exact import decimal_digits
        confirmed = ("float policy confirmed in every state" if len(e.float_policy_mismatches) == 0
                     else f"float policy differs in {len(e.float_policy_mismatches)} states (exact one kept)")
        lines.append(
            f"  exact: P = {decimal_digits(p, 30)}... ({len(str(p.denominator))}-digit denominator); "
            f"{confirmed}; {e.exact_tie_states} exact ties; max float error {e.max_value_error:.2g} "
            f"({e.seconds:.1f} s)")
    if written_to:
        lines.append(f"  wrote {written_to}")
    return "\n".join(lines)


# ------------------------------------------------------------- strategies --

def load_strategy(spec: str, rules):
    from .strategies import StrategySpecError, parse_strategy
    try:
        return parse_strategy(spec, rules)
    except StrategySpecError as exc:
        raise UsageError(str(exc)) from None


def strategy_table(strategy, rules):
    from .strategies import StrategyError, tabulate
    try:
        return tabulate(strategy, rules)
    except StrategyError as exc:
        raise UsageError(str(exc)) from None


def add_spec_options(p, help: str) -> None:
    p.add_argument("spec", metavar="SPEC", help=help)
    add_rules_option(p)


def rules_and_table(args):
    """The ruleset of --rules/--goal and the validated policy table of args.spec."""
    rules = load_rules(args.rules, args.goal)
    return rules, strategy_table(load_strategy(args.spec, rules), rules)


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


# ------------------------------------------------------------------- play --

@verb("play", "play the optimal bot in the terminal")
def _play(p):
    add_rules_option(p)
    p.add_argument("--first", choices=["you", "bot"], default="you", help="who moves first (default you)")
    p.add_argument("--seed", type=int, default=None, help="seed for the dice")
    p.add_argument("--json", action="store_true",
                   help="print the game record as JSON at the end (the play itself goes to stderr)")

    def run(args):
        from .terminal import play_terminal
        rules = load_rules(args.rules, args.goal)
        if args.json:
            def write(line):
                print(line, file=sys.stderr)

            def read(prompt):
                sys.stderr.write(prompt)
                sys.stderr.flush()
                return input()
            emit_json(play_terminal(rules, you_first=args.first == "you", seed=args.seed,
                                    read=read, write=write))
        else:
            play_terminal(rules, you_first=args.first == "you", seed=args.seed)
        return 0
    return run


# ---------------------------------------------------------------- compare --

@verb("compare", "exact win rates of strategy A against strategy B")
def _compare(p):
    p.add_argument("a", metavar="A", help="strategy spec, e.g. optimal, always_roll:4, file.py:final_strategy")
    p.add_argument("b", metavar="B", help="strategy spec")
    add_rules_option(p)
    p.add_argument("--simulate", type=positive, metavar="N", help="also simulate N games")
    p.add_argument("--seed", type=int, default=0, help="seed for --simulate (default 0)")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    def run(args):
        from .evaluate import win_rate
        from .montecarlo import simulate
        rules = load_rules(args.rules, args.goal)
        a, b = load_strategy(args.a, rules), load_strategy(args.b, rules)
        ta, tb = strategy_table(a, rules), strategy_table(b, rules)
        exact = win_rate(ta, tb, rules)
        record = {"rules": rules.name, "a": args.a, "b": args.b, "exact": exact.to_dict()}
        record["exact"].update(a=args.a, b=args.b)
        sim = None
        if args.simulate:
            if args.simulate < 2:
                raise UsageError("--simulate needs at least 2 games")
            sim = simulate(ta, tb, rules, games=args.simulate, seed=args.seed)
            record["simulated"] = {**sim.to_dict(), "a": args.a, "b": args.b}
        if args.json:
            emit_json(record)
            return 0
        width = max(len(args.a), len(args.b)) + 13
        print(f"{args.a} vs {args.b} ({rules.name}), exact probability that {args.a} wins:")
        print(f"  {(args.a + ' moves first:'):{width}} {exact.first:.12f}")
        print(f"  {(args.b + ' moves first:'):{width}} {exact.second:.12f}")
        print(f"  {'average:':{width}} {exact.average:.12f}  (the CS 61A win rate)")
        if sim is not None:
            lo, hi = sim.interval
            print(f"  simulated, {args.simulate} games (seed {args.seed}): {sim.average:.6f} "
                  f"(95% interval {lo:.6f} to {hi:.6f})")
        return 0
    return run


# ---------------------------------------------------------- best-response --

@verb("best-response", "the strategy that beats SPEC by the most, exactly")
def _best_response(p):
    add_spec_options(p, "the fixed opponent's strategy spec")
    p.add_argument("--out", type=Path, metavar="FILE.csv", help="write the best response's policy table")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    def run(args):
        from .evaluate import best_response
        from .tables import atomic_write, grid_csv
        rules, table = rules_and_table(args)
        if args.out is not None:
            writable_dir(args.out.parent if str(args.out.parent) else Path("."))
        br = best_response(table, rules)
        if args.out is not None:
            atomic_write(args.out, grid_csv(br.policy, str))
        record = {"rules": rules.name, **br.to_dict(), "opponent": args.spec}
        record["win_rate"].update(b=args.spec)
        if args.out is not None:
            record["written_to"] = str(args.out)
        if args.json:
            emit_json(record)
            return 0
        r = br.win_rate
        print(f"Best response to {args.spec} ({rules.name}), exact win probability:")
        print(f"  moving first:  {r.first:.12f}")
        print(f"  moving second: {r.second:.12f}")
        print(f"  average:       {r.average:.12f}")
        print(f"  exploitability of {args.spec}: {br.exploitability:.12f}")
        print(f"  opening move: {int(br.policy[0, 0])} dice")
        if args.out is not None:
            print(f"  wrote {args.out}")
        return 0
    return run


# ----------------------------------------------------------------- regret --

@verb("regret", "where a strategy loses against optimal play")
def _regret(p):
    add_spec_options(p, "strategy spec")
    p.add_argument("--top", type=positive, default=10, metavar="K", help="states to list (default 10)")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    def run(args):
        from .evaluate import regret
        rules, table = rules_and_table(args)
        report = regret(table, rules)
        record = {"rules": rules.name, **report.to_dict(args.top), "strategy": args.spec}
        if args.json:
            emit_json(record)
            return 0
        r = report.win_rate
        print(f"{args.spec} against the optimal strategy ({rules.name}):")
        print(f"  win rate {r.average:.12f} (first {r.first:.12f}, second {r.second:.12f})")
        print(f"  total expected loss {report.total_expected_loss:.12f} = 1/2 - win rate")
        print("  states where it loses most (expected loss = loss x reach):")
        print(f"  {'score':>5} {'opp':>4} {'rolls':>5} {'best':>4} {'loss':>9} {'reach':>9} {'expected':>10}")
        for row in report.worst(args.top):
            print(f"  {row['score']:>5} {row['opponent_score']:>4} {row['choice']:>5} {row['optimal']:>4} "
                  f"{row['loss']:>9.6f} {row['reach']:>9.6f} {row['expected_loss']:>10.3e}")
        return 0
    return run


# ------------------------------------------------------------- tournament --

def _pair_rate(i, j, ti, tj, rules):
    from .evaluate import win_rate
    return i, j, win_rate(ti, tj, rules)


@verb("tournament", "round robin of strategies with exact win rates")
def _tournament(p):
    p.add_argument("specs", nargs="+", metavar="SPEC", help="two or more strategy specs")
    add_rules_option(p)
    p.add_argument("--jobs", type=positive, default=1, metavar="N", help="parallel workers (default 1)")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    def run(args):
        import numpy as np
        from joblib import Parallel, delayed
        from .progress import progress
        if len(args.specs) < 2:
            raise UsageError("hogsolve tournament: name at least two strategies")
        rules = load_rules(args.rules, args.goal)
        tables = [strategy_table(load_strategy(s, rules), rules) for s in args.specs]
        n = len(tables)
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        jobs = Parallel(n_jobs=args.jobs, return_as="generator")(
            delayed(_pair_rate)(i, j, tables[i], tables[j], rules) for i, j in pairs)
        rate = np.full((n, n), np.nan)
        for i, j, r in progress(jobs, len(pairs), "tournament"):
            rate[i, j], rate[j, i] = r.average, 1 - r.average
        mean = np.nanmean(rate, axis=1)
        order = sorted(range(n), key=lambda i: -mean[i])
        ranking = [{"rank": k + 1, "strategy": args.specs[i], "mean_win_rate": float(mean[i]),
                    "win_rates": {args.specs[j]: float(rate[i, j]) for j in range(n) if j != i}}
                   for k, i in enumerate(order)]
        if args.json:
            emit_json({"rules": rules.name, "ranking": ranking})
            return 0
        width = max(len(s) for s in args.specs)
        print(f"Round robin ({rules.name}), exact CS 61A win rates (row against column):")
        print(f"{'rank':>4}  {'strategy':{width}}  {'mean':>8}  " + "  ".join(f"{k + 1:>8}" for k in range(n)))
        for k, i in enumerate(order):
            cells = "  ".join(f"{'-':>8}" if j == i else f"{rate[i, j]:8.6f}" for j in order)
            print(f"{k + 1:>4}  {args.specs[i]:{width}}  {mean[i]:8.6f}  {cells}")
        return 0
    return run


# -------------------------------------------------------------------- gui --

@verb("gui", "play the optimal bot and explore its policy in the browser")
def _gui(p):
    from .rules import rulesets
    p.add_argument("--rules", default="su18", metavar="NAME",
                   help=f"ruleset selected at first ({', '.join(rulesets())}; default su18)")
    p.add_argument("--port", type=int, default=8061, help="port on 127.0.0.1 (default 8061; 0: any free port)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")

    def run(args):
        from .gui.server import serve
        load_rules(args.rules)
        if not 0 <= args.port <= 65535:
            raise UsageError(f"--port must be from 0 to 65535, got {args.port}")
        try:
            serve(args.rules, args.port, open_browser=not args.no_browser,
                  announce=lambda line: print(line, flush=True))
        except OSError as exc:
            raise UsageError(f"cannot listen on 127.0.0.1:{args.port}: {exc.strerror or exc}") from None
        return 0
    return run


# ------------------------------------------------------------------- plot --

@verb("plot", "draw the policy heatmap and win-probability surface (needs matplotlib)")
def _plot(p):
    add_rules_option(p)
    p.add_argument("--out", type=Path, required=True, metavar="FILE.png", help="the picture to write")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    def run(args):
        rules = load_rules(args.rules, args.goal)
        if args.out.suffix.lower() != ".png":
            raise UsageError(f"--out must name a .png file, got {args.out}")
        writable_dir(args.out.parent if str(args.out.parent) else Path("."))
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print("error: hogsolve plot needs matplotlib: pip install 'hogsolve[plot]'", file=sys.stderr)
            return 1
        from .player import optimal_strategy
        from .plot import plot_solution
        bot = optimal_strategy(rules)
        plot_solution(bot.table, bot.win_probability, f"{rules.name} (goal {rules.goal})", args.out)
        if args.json:
            emit_json({"rules": rules.name, "written_to": str(args.out)})
        else:
            print(f"wrote {args.out}")
        return 0
    return run


# ----------------------------------------------------------------- sibala --

@verb("sibala", "Sibala (十八啦): compare hands, exact odds, play the house")
def _sibala(p):
    from .sibala.cli import setup
    return setup(p, UsageError, emit_json)


# ----------------------------------------------------------------- sinbad --

@verb("sinbad", "SinbadHogBot: bot tournaments, play against bots, deal odds")
def _sinbad(p):
    from .sinbad.cli import setup
    return setup(p, UsageError, emit_json)


# ------------------------------------------------------------------- main --

def build_parser() -> Parser:
    parser = Parser(prog="hogsolve", description="Exact solver for Hog and its kin.")
    parser.add_argument("--version", action="version", version=f"hogsolve {__version__}")
    sub = parser.add_subparsers(dest="verb", metavar="VERB", parser_class=Parser)
    for name, (help, setup) in VERBS.items():
        p = sub.add_parser(name, help=help, description=help)
        p.set_defaults(run=setup(p))
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if not getattr(args, "run", None):
            parser.print_help()
            return 2
        return int(args.run(args) or 0)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
