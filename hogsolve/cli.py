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


def emit_json(data) -> None:
    print(json.dumps(data, indent=2, default=str))


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
        results = []
        for rules in chosen:
            solution = solve(rules, exact=args.exact)
            record = solution.to_dict()
            if out is not None:
                record["written_to"] = str(write_solution(solution, out / rules.name, __version__))
            results.append(record)
            if not args.json:
                print(format_solution(solution, record.get("written_to")))
        if args.json:
            emit_json(results)
        return 0
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
