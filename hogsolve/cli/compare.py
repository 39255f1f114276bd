"""``hogsolve compare A B``: exact win rates of two strategies in any game, optionally simulated."""
from __future__ import annotations

import sys

from .common import (add_strategy_options, by_family, converged_or_fail, degenerate_goal_note, emit_json, int_in_range,
                     load_policy, respond, roll_or_hold_game, roll_or_hold_strategy, rules_of, seat_names, seed_value,
                     spec_help, unproven)


def setup_compare(p):
    """``hogsolve compare A B``: exact win rates, optionally simulated too."""
    p.add_argument("a", metavar="A", help=spec_help("the first strategy"))
    p.add_argument("b", metavar="B", help="the second strategy, in the same forms")
    add_strategy_options(p)
    p.add_argument("--simulate", type=int_in_range(2, what="the number of games"), metavar="N",
                   help="also simulate N games (at least 2), in chunks of constant memory")
    p.add_argument("--seed", type=seed_value, default=0, help="seed for --simulate (0 or more; default 0)")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    return by_family({"hog": compare_hog, "roll-or-hold": compare_roll_or_hold})

def compare_hog(args) -> int:
    """``hogsolve compare A B`` for Hog rulesets."""
    from ..analysis.evaluate import win_rate
    from ..analysis.montecarlo import simulate
    from ..util.progress import progress
    rules = rules_of(args)
    ta, tb = load_policy(args.a, rules, args), load_policy(args.b, rules, args)
    exact = converged_or_fail(lambda: win_rate(ta, tb, rules), "exact win rate")
    record = {"rules": rules.name, "goal": rules.goal, "a": args.a, "b": args.b, "exact": exact.to_dict()}
    degenerate_goal_note(exact.first, exact.second, rules.goal)
    record["exact"].update(a=args.a, b=args.b)
    sim = None
    if args.simulate:
        sim = simulate(ta, tb, rules, games=args.simulate, seed=args.seed,
                       progress=lambda it, n: progress(it, n, "simulating"), announce=announce_time)
        record["simulated"] = {**sim.to_dict(), "a": args.a, "b": args.b}
    return respond(args, record, lambda: show_compare(args, rules, exact, sim), not_proven=unproven(ta, tb))

def show_compare(args, rules, exact, sim) -> None:
    """The text of ``hogsolve compare``."""
    a, b = seat_names(args.a, args.b)
    width = max(len(a), len(b)) + 13
    print(f"{a} vs {b} ({rules.name}, goal {rules.goal}), exact probability that {a} wins:")
    print(f"  {(a + ' moves first:'):{width}} {exact.first:.12f}")
    print(f"  {(b + ' moves first:'):{width}} {exact.second:.12f}")
    print(f"  {'average:':{width}} {exact.average:.12f}  (the CS 61A win rate)")
    if sim is not None:
        lo, hi = sim.interval
        print(f"  simulated, {args.simulate} games (seed {args.seed}): {sim.average:.6f} "
              f"(95% interval {lo:.6f} to {hi:.6f})")

def announce_time(seconds: float) -> None:
    """Say how long a simulation will take, when it is more than a minute."""
    if seconds > 60:
        print(f"note: the simulation will take about {seconds / 60:.0f} min (Ctrl-C stops it)",
              file=sys.stderr, flush=True)


def compare_roll_or_hold(args) -> int:
    """``hogsolve compare A B --rules pig [--simulate N]``: the exact win rate over both seatings,
    and optionally a seeded Monte Carlo with its 95% Wilson interval."""
    a, b, game, as_json = args.a, args.b, roll_or_hold_game(args.rules, args.goal, args.max_memory), args.json
    simulate, seed = args.simulate, args.seed
    from ..analysis.pig.evaluate import pig_win_rate
    from ..analysis.pig.montecarlo import simulate_roll_or_hold
    sa, sb = roll_or_hold_strategy(a, game), roll_or_hold_strategy(b, game)
    rate = pig_win_rate(sa, sb, game)
    first, second, average = rate.first, rate.second, rate.average
    degenerate_goal_note(first, second, game.goal)
    simulated = None
    if simulate:
        sim = simulate_roll_or_hold(sa, sb, game, simulate, seed)
        simulated = {"games": simulate, "seed": seed, "average": sim.average, "ci95": list(sim.interval)}
    if as_json:
        emit_json({"rules": game.name, "goal": game.goal, "a": a, "b": b,
                   "exact": {"first": first, "second": second, "average": average},
                   **({"simulated": simulated} if simulated else {})})
        return 0
    a, b = seat_names(a, b)
    width = max(len(a), len(b)) + len(" moves first:")
    print(f"{a} vs {b} ({game.name}, goal {game.goal}), exact probability that {a} wins:")
    print(f"  {a + ' moves first:':{width}} {first:.12f}")
    print(f"  {b + ' moves first:':{width}} {second:.12f}")
    print(f"  {'average:':{width}} {average:.12f}")
    if simulated:
        low, high = simulated["ci95"]
        print(f"  simulated, {simulate} games (seed {seed}): {simulated['average']:.6f} "
              f"(95% interval {low:.6f} to {high:.6f})")
    return 0
