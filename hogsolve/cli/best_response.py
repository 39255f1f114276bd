"""``hogsolve best-response SPEC``: the strategy that beats SPEC by the most, in any game."""
from __future__ import annotations

from pathlib import Path

from .common import (UsageError, add_spec_options, converged_or_fail, every_game, game_of, output_file, respond,
                     strategy_of, unproven, write_or_fail)


def setup_best_response(p):
    """``hogsolve best-response SPEC``: the strategy that beats SPEC by the most."""
    add_spec_options(p, "the fixed opponent's strategy spec")
    p.add_argument("--out", type=Path, metavar="FILE.csv",
                   help="write the best response's policy table (.csv where it depends on the two scores only, "
                        "else .npy)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    return every_game(best_response)


def best_response(args) -> int:
    """``hogsolve best-response SPEC`` in the game's family."""
    from ..util.files import atomic_write, grid_csv, npy_bytes
    if args.out is not None:
        output_file(args.out)
    family, game = game_of(args)
    opponent = strategy_of(args.spec, family, game, args)
    br = converged_or_fail(lambda: family.best_response(opponent, game), "best response")
    if args.out is not None:
        table = br.policy
        as_npy = args.out.suffix == ".npy"
        if table.ndim > 2 and not as_npy:
            raise UsageError(f"{game.name} policies depend on more than the two scores: name an --out ending "
                             "in .npy")
        data = npy_bytes(table.astype("int8")) if as_npy else grid_csv(table, str)
        write_or_fail(lambda: atomic_write(args.out, data), args.out)
    record = {"rules": game.name, "goal": game.goal, **br.to_dict(), "opponent": args.spec}
    record["win_rate"].update(b=args.spec)
    if args.out is not None:
        record["written_to"] = str(args.out)
    return respond(args, record, lambda: show_best_response(args, game, br), not_proven=unproven(opponent))


def show_best_response(args, game, br) -> None:
    """The text of ``hogsolve best-response``."""
    r = br.win_rate
    print(f"Best response to {args.spec} ({game.name}, goal {game.goal}), exact win probability:")
    print(f"  moving first:  {r.first:.12f}")
    print(f"  moving second: {r.second:.12f}")
    print(f"  average:       {r.average:.12f}")
    print(f"  exploitability of {args.spec}: {br.exploitability:.12f}")
    print(f"  opening move: {game.opening_words(br.policy)}")
    if args.out is not None:
        print(f"  wrote {args.out}")
