"""``hogsolve rules`` and ``hogsolve solve``."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

from ..version import __version__
from . import pig
from ..util.stable import bound_text
from .common import (UsageError, add_rules_option, by_family, certificate_text, emit_json, load_rules, respond,
                     solve_progress, writable_dir, write_or_fail)


def setup_rules(p):
    """``hogsolve rules``: list the built-in rulesets, or show one (as a rule file with --toml)."""
    p.add_argument("--show", metavar="NAME", help="show one ruleset (a name or a semester)")
    p.add_argument("--toml", action="store_true", help="with --show: print it as a rule file for --rules-file")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    def run(args):
        from ..hog.rulefile import to_toml
        from ..pig.rules import PIG_GAMES
        from ..hog.rules import INFERRED, NO_VALUE, NOT_BUILT_IN, rulesets, semesters
        if args.toml and not args.show:
            raise UsageError("hogsolve rules: --toml goes with --show NAME")
        if args.toml and args.json:
            raise UsageError("hogsolve rules: choose --toml (a rule file) or --json (machine-readable), not both")
        if args.show:
            rules = load_rules(args.show)
            if args.toml:
                print(to_toml(rules), end="")
                return 0
            record = {**rules.summary(), "semesters": list(semesters(rules.name)),
                      "inferred": INFERRED.get(rules.name, ""), "no_value": NO_VALUE.get(rules.name, "")}
            return respond(args, record, lambda: [print(f"{k:12} {v}") for k, v in record.items()])
        known = rulesets()
        records = [{**r.summary(), "semesters": list(semesters(name)), "inferred": INFERRED.get(name, ""),
                    "no_value": NO_VALUE.get(name, "")} for name, r in known.items()]
        records += [{"name": name, "not_built_in": why} for name, why in NOT_BUILT_IN.items()]
        records += [game.summary() for game in PIG_GAMES.values()]

        def show():
            for name, r in known.items():
                also = semesters(name)[1:]
                print(f"{name}{' (also ' + ', '.join(also) + ')' if also else ''}  {r.description}")
                if name in INFERRED:
                    print(f"      inferred: {INFERRED[name]}")
                if name in NO_VALUE:
                    print(f"      no optimal value: {NO_VALUE[name]}")
            for name, why in NOT_BUILT_IN.items():
                print(f"{name}  not built in: {why}")
            for name, game in PIG_GAMES.items():
                print(f"{name}  roll-or-hold, goal {game.goal}: {game.description}")
        return respond(args, records, show)
    return run


def setup_solve(p):
    """``hogsolve solve``: solve rulesets, certify them, and write tables."""
    from ..strategy.optimal_bot import cache_root, shipped_tables
    add_rules_option(p, many=True)
    p.add_argument("--all", action="store_true",
                   help="every built-in ruleset, at the built-in goals. Without --out, the tables go to the user "
                        f"cache ({cache_root()}), where the optimal player finds them; with --exact in a source "
                        f"checkout they rewrite its solutions/ folder ({shipped_tables()}) with the same bytes. "
                        "An installed package's own tables are never overwritten")
    p.add_argument("--out", type=Path, metavar="DIR",
                   help="write one table folder per ruleset under DIR (with --rules, nothing is "
                        "written without --out)")
    p.add_argument("--exact", action="store_true",
                   help="recompute in exact rationals, check every state, and store the exact values "
                        "correctly rounded (identical bytes on every machine)")
    p.add_argument("--exact-ties", action="store_true",
                   help="the quick exact check: exact values everywhere from the certified decisions, and "
                        "the certificate's ties settled in exact rationals (tables as without --exact)")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    return by_family({"hog": solve_hog, "roll-or-hold": pig.solve_games})


def solve_hog(args) -> int:
    """``hogsolve solve`` for Hog rulesets (--rules, --rules-file or --all)."""
    from ..strategy.optimal_bot import cache_root, shipped_tables, shipped_tables_are_a_checkout
    from ..solver.bound_check import prove_float_table
    from ..solver.exact import ExactUnsupported, check_exact_supported, verify_ties
    from ..solver.model import compile_model
    from ..hog.rules import NO_VALUE, get_rules, rulesets
    from ..solver.optimal import solve
    from ..solver.tables import write_solution
    if args.exact and args.exact_ties:
        raise UsageError("hogsolve solve: choose --exact (every decision exact) or --exact-ties (the quick check)")
    if sum(bool(x) for x in (args.all, args.rules, args.rules_file)) > 1:
        raise UsageError("hogsolve solve: name one of --rules NAME ..., --rules-file FILE or --all")
    if args.all:
        skipped = NO_VALUE if args.endless == "none" else {}  # a draw gives them a value
        names = [n for n in rulesets() if n not in skipped]
        for name in skipped:
            print(f"skipping {name}: {NO_VALUE[name]}", file=sys.stderr if args.json else sys.stdout,
                  flush=True)
    elif args.rules:
        names = args.rules
    elif args.rules_file:
        names = [None]
    else:
        raise UsageError("hogsolve solve: name --rules NAME ..., --rules-file FILE or --all")
    chosen = [load_rules(n, args.goal, max_memory_gb=args.max_memory, exact=args.exact,
                         rules_file=args.rules_file, endless=args.endless if n in NO_VALUE or n is None or not args.all
                         else "none") for n in names]
    out, cached = args.out, False
    if out is None and args.all:
        for rules in chosen:
            shipped_goal = get_rules(rules.name).goal
            if rules.goal != shipped_goal:
                raise UsageError(f"hogsolve solve --all solves the built-in goals (the {rules.name} table is "
                                 f"for goal {shipped_goal}); for goal {rules.goal} name --rules and --out DIR")
        # only the exact tables of a source checkout replace the shipped ones (with the same bytes)
        cached = not (args.exact and shipped_tables_are_a_checkout())
        out = cache_root() if cached else shipped_tables()
    if out is not None:
        writable_dir(out)
    results, failed = [], False
    for rules in chosen:
        model = compile_model(rules)
        exact, float_only = args.exact, False
        if args.exact:  # where rationals cannot reach (cycles, memories): the proof by error bound
            try:
                check_exact_supported(model)
            except ExactUnsupported:
                exact, float_only = False, True
        solution = solve(rules, exact=exact, model=model, progress=solve_progress(f"solving {rules.name}"))
        bounded = None
        if float_only:  # ties settled exactly where they can be, then every decision proven
            solution, bounded = prove_float_table(model, solution)
        record = solution.to_dict()
        if bounded is not None:
            record["exact"] = bounded.to_dict()
        ties = None
        if args.exact_ties:
            try:
                ties = verify_ties(model, solution)
            except ValueError as exc:  # not supported, or nothing proven to build on
                raise UsageError(str(exc)) from None
            record["exact_ties"] = ties.to_dict()
        usable = solution.converged and (solution.certificate.proven or not float_only) and \
            not (bounded is not None and bounded.wrong)
        if out is not None and usable:
            target = out / (f"{rules.name}-goal{rules.goal}" if cached else rules.name)
            write_or_fail(lambda solution=solution, target=target, float_only=float_only, bounded=bounded:
                          write_solution(solution, target, __version__, policy_only=float_only, proof=bounded), target)
            record["written_to"] = str(target)
        results.append(record)
        if not args.json:
            print(format_solution(solution, record.get("written_to")), flush=True)
            if ties is not None:
                print(f"  exact (quick check): {ties!r}", flush=True)
            if bounded is not None:
                print(f"  exact: {bounded!r}", flush=True)
        if not usable:
            failed = True
            print(f"error: {rules.name}: not proven optimal (the certificate says why); no table written"
                  if not args.json else f"error: {rules.name}: {solution.certificate.reason}; no table written",
                  file=sys.stderr)
    if args.all:  # the roll-or-hold games too, at their built-in goals
        from ..pig.rules import PIG_GAMES
        records, pig_failed = pig.solve_pig_games(
            list(PIG_GAMES.values()), args.exact, out, args.json,
            folder=lambda game: f"{game.name}-goal{game.goal}" if cached else game.name)
        results += records
        failed |= pig_failed
    if args.json:
        emit_json(results)
    return 1 if failed else 0


def format_solution(solution, written_to: Optional[str]) -> str:
    """The lines `hogsolve solve` prints for one ruleset."""
    from ..util.stable import certain_digits
    c = solution.certificate
    lines = [
        f"{solution.rules.name} (goal {solution.goal}): P(first player wins) = "
        f"{certain_digits(solution.first_player_win_probability, 0 if solution.exact else c.error_bound)}, "
        f"opening move {solution.opening_move} dice, solved in {solution.solve_seconds * 1000:.0f} ms",
        "  certificate: " + certificate_text(c.error_bound, c.max_bellman_residual, c.backup_error,
                                             c.min_decision_margin, len(c.tie_states)),
        "  proven optimal" if c.proven else f"  NOT proven: {c.reason}",
    ]
    if solution.exact is not None:
        from ..solver.exact import decimal_digits
        e = solution.exact
        p = e.win_probability_start
        confirmed = ("float policy confirmed in every state" if len(e.float_policy_mismatches) == 0
                     else f"float policy differs in {len(e.float_policy_mismatches)} states (exact one kept)")
        # the float error itself (about 1e-15) follows the machine: said against the bound, in --json as is
        within = "float values within the bound" if e.max_value_error <= c.error_bound else \
            f"float values off by up to {bound_text(e.max_value_error)}, beyond the bound"
        lines.append(
            f"  exact: P = {decimal_digits(p, 30)}... ({len(str(p.denominator))}-digit denominator); "
            f"{confirmed}; {e.exact_tie_states} exact ties; {within} ({e.seconds:.1f} s)")
    if written_to:
        lines.append(f"  wrote {written_to}")
    return "\n".join(lines)

