"""``hogsolve rules``: the built-in rulesets and roll-or-hold games, or one of them."""
from __future__ import annotations

from .common import (UsageError, load_rules, respond)


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
            def show_one() -> None:
                for key, value in record.items():
                    print(f"{key:12} {value}")
            return respond(args, record, show_one)
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
