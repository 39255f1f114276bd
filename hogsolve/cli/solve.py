"""``hogsolve solve``: solve any family's games, prove them, and write their tables."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import List, Optional

from ..errors import HogsolveError
from ..version import __version__
from .common import UsageError, add_rules_option, emit_json, every_game, game_of, solve_progress, writable_dir, \
    write_or_fail


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

    return every_game(solve)


def solve(args) -> int:
    """``hogsolve solve`` (--rules NAME..., --rules-file or --all): choose the games, choose where
    their tables go, solve (and with --exact prove) and report each one; --all solves every
    family's built-in games at their built-in goals."""
    if args.exact and args.exact_ties:
        raise UsageError("hogsolve solve: choose --exact (every decision proven) or --exact-ties (the quick check)")
    chosen = chosen_games(args)
    out, cached = table_folder(args, [game for _, game in chosen])
    results, failed = [], False
    for family, game in chosen:
        record, usable = solve_one(family, game, args, out, cached)
        results.append(record)
        failed |= not usable
    if args.json:
        emit_json(results)
    return 1 if failed else 0


def chosen_games(args) -> list:
    """``(family, game)`` of each game named by --rules, --rules-file or --all (with --all, those
    without an optimal value are skipped, and said so, unless --endless gives them one); one family
    at a time for --rules."""
    from ..families import FAMILIES
    if sum(bool(x) for x in (args.all, args.rules, args.rules_file)) > 1:
        raise UsageError("hogsolve solve: name one of --rules NAME ..., --rules-file FILE or --all")
    if args.all:
        chosen = []
        for family in FAMILIES.values():
            games, skipped = family.shipped_games(args.endless)
            for name, why in skipped.items():
                print(f"skipping {name}: {why}", file=sys.stderr if args.json else sys.stdout, flush=True)
            for game in games:
                game = game if args.goal is None else game.replace(goal=args.goal)
                try:
                    family.check_fits(game, exact=args.exact, limit_gb=args.max_memory)
                except HogsolveError as exc:
                    raise UsageError(str(exc)) from None
                chosen.append((family, game))
        return chosen
    if not args.rules and not args.rules_file:
        raise UsageError("hogsolve solve: name --rules NAME ..., --rules-file FILE or --all")
    names: List[Optional[str]] = list(args.rules) if args.rules else [None]  # None: the rule file's own
    chosen = [game_of(_one(args, name), exact=args.exact) for name in names]
    if len({family.name for family, _ in chosen}) > 1:
        raise UsageError("name games of one family at a time: " + "; ".join(
            f"{f.name}: {f.description}" for f in FAMILIES.values()))
    return chosen


def _one(args, name: Optional[str]):
    """``args`` with --rules naming one game."""
    import argparse
    return argparse.Namespace(**{**vars(args), "rules": name})


def table_folder(args, chosen: list) -> tuple:
    """``(folder, cached)``: where the tables go (None: nowhere), and whether that is the user
    cache (folders named with their goal) rather than --out or a checkout's solutions/."""
    from ..families import family_of_game
    from ..strategy.optimal_bot import cache_root, shipped_tables, shipped_tables_are_a_checkout
    out, cached = args.out, False
    if out is None and args.all:
        for game in chosen:
            shipped_goal = family_of_game(game).game(game.name).goal
            if game.goal != shipped_goal:
                raise UsageError(f"hogsolve solve --all solves the built-in goals (the {game.name} table is "
                                 f"for goal {shipped_goal}); for goal {game.goal} name --rules and --out DIR")
        # only the exact tables of a source checkout replace the shipped ones (with the same bytes)
        cached = not (args.exact and shipped_tables_are_a_checkout())
        out = cache_root() if cached else shipped_tables()
    if out is not None:
        writable_dir(out)
    return out, cached


def solve_one(family, game, args, out: Optional[Path], cached: bool) -> tuple:
    """Solve one game (with --exact, proven by the strongest check that reaches it), write its
    table if it is usable, and report it: ``(record, usable)``."""
    solution = family.solve(game, exact=args.exact, progress=solve_progress(f"solving {game.name}"))
    record = solution.to_dict()
    ties = None
    if args.exact_ties:
        try:
            ties = family.check_ties(solution)
        except HogsolveError as exc:  # not supported, or nothing proven to build on
            raise UsageError(str(exc)) from None
        record["exact_ties"] = ties.to_dict()
    usable = solution.usable
    written = None
    if out is not None and usable:
        target = out / (f"{game.name}-goal{game.goal}" if cached else game.name)
        write_or_fail(lambda: family.write_solution(solution, target, __version__), target)
        record["written_to"] = written = str(target)
    if not args.json:
        lines = family.describe_solution(solution)
        if ties is not None:
            lines += f"\n  exact (quick check): {ties!r}"
        if written:
            lines += f"\n  wrote {written}"
        print(lines, flush=True)
    if not usable:
        reason = getattr(solution.certificate, "reason", "") or "not proven"
        print(f"error: {game.name}: not proven optimal (the certificate says why); no table written"
              if not args.json else f"error: {game.name}: {reason}; no table written", file=sys.stderr)
    return record, usable
