"""``hogsolve solve``: solve Hog rulesets and roll-or-hold games, certify them, and write tables."""
from __future__ import annotations

from ..errors import HogsolveError

import functools
import sys
from pathlib import Path
from typing import List, Optional

from ..util.stable import bound_text
from ..version import __version__
from .common import (UsageError, add_rules_option, by_family, certificate_text, emit_json, load_rules,
                     roll_or_hold_game, solve_progress, writable_dir, write_or_fail)


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

    return by_family({"hog": solve_hog, "roll-or-hold": solve_roll_or_hold})

def solve_hog(args) -> int:
    """``hogsolve solve`` for Hog rulesets (--rules, --rules-file or --all): choose the rulesets,
    choose where their tables go, solve and report each one; with --all the roll-or-hold games
    follow, at their built-in goals."""
    if args.exact and args.exact_ties:
        raise UsageError("hogsolve solve: choose --exact (every decision exact) or --exact-ties (the quick check)")
    chosen = chosen_rulesets(args)
    out, cached = table_folder(args, chosen)
    results, failed = [], False
    for rules in chosen:
        record, usable = solve_one(rules, args, out, cached)
        results.append(record)
        failed |= not usable
    if args.all:
        from ..pig.rules import PIG_GAMES
        records, pig_failed = solve_roll_or_hold_games(
            list(PIG_GAMES.values()), args.exact, out, args.json,
            folder=lambda game: f"{game.name}-goal{game.goal}" if cached else game.name)
        results += records
        failed |= pig_failed
    if args.json:
        emit_json(results)
    return 1 if failed else 0


def chosen_rulesets(args) -> list:
    """The rulesets named by --rules, --rules-file or --all (with --all, those without an optimal
    value are skipped, and said so, unless --endless gives them one)."""
    from ..hog.rules import NO_VALUE, rulesets
    if sum(bool(x) for x in (args.all, args.rules, args.rules_file)) > 1:
        raise UsageError("hogsolve solve: name one of --rules NAME ..., --rules-file FILE or --all")
    names: List[Optional[str]]
    if args.all:
        skipped = NO_VALUE if args.endless == "none" else {}  # a draw gives them a value
        names = [n for n in rulesets() if n not in skipped]
        for name in skipped:
            print(f"skipping {name}: {NO_VALUE[name]}", file=sys.stderr if args.json else sys.stdout,
                  flush=True)
    elif args.rules:
        names = args.rules
    elif args.rules_file:
        names = [None]  # the rule file's own
    else:
        raise UsageError("hogsolve solve: name --rules NAME ..., --rules-file FILE or --all")
    return [load_rules(n, args.goal, max_memory_gb=args.max_memory, exact=args.exact,
                       rules_file=args.rules_file, endless=args.endless if n in NO_VALUE or n is None or not args.all
                       else "none") for n in names]


def table_folder(args, chosen: list) -> tuple:
    """``(folder, cached)``: where the tables go (None: nowhere), and whether that is the user
    cache (folders named with their goal) rather than --out or a checkout's solutions/."""
    from ..hog.rules import get_rules
    from ..strategy.optimal_bot import cache_root, shipped_tables, shipped_tables_are_a_checkout
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
    return out, cached


def solve_one(rules, args, out: Optional[Path], cached: bool) -> tuple:
    """Solve one ruleset (proven by exact rationals, or by the error bound where rationals do not
    reach), write its table if it is usable, and report it: ``(record, usable)``."""
    from ..solver.bound_check import prove_float_table
    from ..solver.exact import ExactUnsupported, check_exact_supported, verify_ties
    from ..solver.model import compile_model
    from ..solver.optimal import solve
    from ..solver.tables import write_solution
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
        except HogsolveError as exc:  # not supported, or nothing proven to build on
            raise UsageError(str(exc)) from None
        record["exact_ties"] = ties.to_dict()
    usable = solution.converged and (solution.certificate.proven or not float_only) and \
        not (bounded is not None and bounded.wrong)
    if out is not None and usable:
        target = out / (f"{rules.name}-goal{rules.goal}" if cached else rules.name)
        write_or_fail(lambda: write_solution(solution, target, __version__, policy_only=float_only, proof=bounded),
                      target)
        record["written_to"] = str(target)
    report_one(solution, record, ties, bounded, usable, args.json)
    return record, usable


def report_one(solution, record: dict, ties, bounded, usable: bool, as_json: bool) -> None:
    """The lines of one solved ruleset (none with --json), and its error when it is not usable."""
    if not as_json:
        print(format_hog_solution(solution, record.get("written_to")), flush=True)
        if ties is not None:
            print(f"  exact (quick check): {ties!r}", flush=True)
        if bounded is not None:
            print(f"  exact: {bounded!r}", flush=True)
    if not usable:
        name = solution.rules.name
        print(f"error: {name}: not proven optimal (the certificate says why); no table written"
              if not as_json else f"error: {name}: {solution.certificate.reason}; no table written",
              file=sys.stderr)


def format_hog_solution(solution, written_to: Optional[str]) -> str:
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

def solve_roll_or_hold(args) -> int:
    """``hogsolve solve --rules pig ... [--exact] [--out DIR]``."""
    if args.all or args.rules_file or args.exact_ties:
        raise UsageError("hogsolve solve: --all, --rules-file and --exact-ties are for Hog rulesets")
    from .common import writable_dir
    if args.out is not None:
        writable_dir(args.out)
    games = [roll_or_hold_game(name, args.goal, args.max_memory) for name in args.rules]
    records, failed = solve_roll_or_hold_games(games, args.exact, args.out, args.json)
    if args.json:
        emit_json(records)
    return 1 if failed else 0

def solve_roll_or_hold_games(games, exact: bool, out, as_json: bool, folder=lambda game: game.name):
    """Solve each roll-or-hold game, with ``exact`` prove its policy by the rigorous error bound
    (:mod:`hogsolve.solver.bound_check`), and write the proven tables under ``out``
    (``folder(game)`` names each one's folder): ``(records, failed)``; lines are printed
    unless ``as_json``."""
    from ..solver.bound_check import check_pig_policy
    from ..solver.pig import solve_pig
    from ..solver.pig.tables import pig_solution_files
    from ..util.files import atomic_write
    from ..version import __version__
    from .common import write_or_fail
    records, failed = [], False
    for game in games:
        solution = solve_pig(game)
        record = solution.to_dict()
        lines = format_roll_or_hold_solution(solution)
        usable = solution.certificate.proven
        if exact:
            checked = check_pig_policy(game, solution.value, solution.roll)
            record["exact"] = checked.to_dict()
            lines += f"\n  exact: {checked!r}"
            usable &= not checked.wrong
        if out is not None and usable:
            target = out / folder(game)
            target.mkdir(parents=True, exist_ok=True)
            for file_name, data in pig_solution_files(solution, __version__).items():
                write_or_fail(functools.partial(atomic_write, target / file_name, data), target)
            record["written_to"] = str(target)
            lines += f"\n  wrote {target}"
        failed |= not usable
        records.append(record)
        if not as_json:
            print(lines, flush=True)
    return records, failed

def format_roll_or_hold_solution(solution) -> str:
    """The lines `hogsolve solve --rules pig` prints."""
    from ..util.stable import certain_digits
    from .common import certificate_text
    c = solution.certificate
    return "\n".join([
        f"{solution.game.name} (goal {solution.game.goal}): P(first player wins) = "
        f"{certain_digits(solution.first_player_win_probability, c.error_bound)}, hold at "
        f"{int(solution.hold_threshold[0, 0])} at the start, solved in {solution.solve_seconds * 1000:.0f} ms",
        "  certificate: " + certificate_text(c.error_bound, c.max_bellman_residual, c.backup_error,
                                             c.min_decision_margin, len(c.tie_states)) + "; " +
        (f"{c.policy_passes} rounds of policy iteration over "
        f"whole turns" if c.over_turns else f"{c.policy_passes} policy passes at most per stage"),
        "  proven optimal" if c.proven else f"  NOT proven: {c.reason}",
    ] + ([f"  note: {solution.degenerate} is optimal in every state at this goal: a strategy that learns nothing "
          "can be optimal here (a degenerate benchmark)"] if solution.degenerate else []))
