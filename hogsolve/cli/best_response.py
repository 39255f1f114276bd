"""``hogsolve best-response SPEC``: the strategy that beats SPEC by the most, in any game."""
from __future__ import annotations

from pathlib import Path

from .common import (UsageError, add_spec_options, by_family, converged_or_fail, emit_json, output_file, respond,
                     roll_or_hold_game, roll_or_hold_strategy, rules_and_policy, unproven, write_or_fail)


def setup_best_response(p):
    """``hogsolve best-response SPEC``: the strategy that beats SPEC by the most."""
    add_spec_options(p, "the fixed opponent's strategy spec")
    p.add_argument("--out", type=Path, metavar="FILE.csv", help="write the best response's policy table")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    return by_family({"hog": best_response_hog, "roll-or-hold": best_response_roll_or_hold})

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
    br = converged_or_fail(lambda: best_response(table, rules), "best response")
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

def best_response_roll_or_hold(args) -> int:
    """``hogsolve best-response SPEC --rules pig``."""
    if args.out is not None:
        raise UsageError("hogsolve best-response: --out is for Hog rulesets")
    spec, game, as_json = args.spec, roll_or_hold_game(args.rules, args.goal, args.max_memory), args.json
    from ..analysis.pig.evaluate import pig_best_response
    br = pig_best_response(roll_or_hold_strategy(spec, game), game)
    if as_json:
        emit_json({"rules": game.name, "goal": game.goal, **br.to_dict(), "opponent": spec})
        return 0
    print(f"Best response to {spec} ({game.name}, goal {game.goal}), exact win probability:")
    print(f"  moving first:  {br.first:.12f}")
    print(f"  moving second: {br.second:.12f}")
    print(f"  average:       {br.average:.12f}")
    print(f"  exploitability of {spec}: {br.exploitability:.12f}")
    return 0
