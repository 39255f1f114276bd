"""``hogsolve compare A B``: exact win rates of two strategies in any game, optionally simulated."""
from __future__ import annotations

import sys

from .common import (add_strategy_options, converged_or_fail, degenerate_goal_note, every_game, game_of,
                     int_in_range, respond, seat_names, seed_value, spec_help, strategy_of, unproven)


def setup_compare(p):
    """``hogsolve compare A B``: exact win rates, optionally simulated too."""
    p.add_argument("a", metavar="A", help=spec_help("the first strategy"))
    p.add_argument("b", metavar="B", help="the second strategy, in the same forms")
    add_strategy_options(p)
    p.add_argument("--simulate", type=int_in_range(2, what="the number of games"), metavar="N",
                   help="also simulate N games (at least 2), in chunks of constant memory")
    p.add_argument("--seed", type=seed_value, default=0, help="seed for --simulate (0 or more; default 0)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    return every_game(compare)


def compare(args) -> int:
    """``hogsolve compare A B``: the exact win rate over both seatings in the game's family, and
    optionally a seeded Monte Carlo with its 95% Wilson interval."""
    from ..util.progress import progress
    family, game = game_of(args)
    a, b = strategy_of(args.a, family, game, args), strategy_of(args.b, family, game, args)
    exact = converged_or_fail(lambda: family.win_rate(a, b, game), "exact win rate")
    record = {"rules": game.name, "goal": game.goal, "a": args.a, "b": args.b,
              "exact": {**exact.to_dict(), "a": args.a, "b": args.b}}
    degenerate_goal_note(exact.first, exact.second, game.goal)
    sim = None
    if args.simulate:
        sim = family.simulate(a, b, game, games=args.simulate, seed=args.seed,
                              progress=lambda it, n: progress(it, n, "simulating"), announce=announce_time)
        record["simulated"] = {**sim.to_dict(), "a": args.a, "b": args.b}
    return respond(args, record, lambda: show_compare(args, game, exact, sim), not_proven=unproven(a, b))


def show_compare(args, game, exact, sim) -> None:
    """The text of ``hogsolve compare``."""
    a, b = seat_names(args.a, args.b)
    width = max(len(a), len(b)) + len(" moves first:")
    label = f"  ({game.average_label})" if game.average_label else ""
    print(f"{a} vs {b} ({game.name}, goal {game.goal}), exact probability that {a} wins:")
    print(f"  {(a + ' moves first:'):{width}} {exact.first:.12f}")
    print(f"  {(b + ' moves first:'):{width}} {exact.second:.12f}")
    print(f"  {'average:':{width}} {exact.average:.12f}{label}")
    if sim is not None:
        lo, hi = sim.interval
        print(f"  simulated, {args.simulate} games (seed {args.seed}): {sim.average:.6f} "
              f"(95% interval {lo:.6f} to {hi:.6f})")


def announce_time(seconds: float) -> None:
    """Say how long a simulation will take, when it is more than a minute."""
    if seconds > 60:
        print(f"note: the simulation will take about {seconds / 60:.0f} min (Ctrl-C stops it)",
              file=sys.stderr, flush=True)
