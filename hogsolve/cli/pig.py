"""The roll-or-hold games (``--rules pig``, ``piglet``, ``two-dice-pig``, ``big-pig``) in the solve, compare
and play verbs."""
from __future__ import annotations

from ..families import ROLL_OR_HOLD
from .common import UsageError, degenerate_goal_note, emit_json, seat_names, stderr_console



def pig_game(name: str, goal, max_memory_gb=None):
    """The named roll-or-hold game at ``goal``, or UsageError (also when solving it would not
    fit in memory: the machine's, or ``--max-memory``)."""
    from ..solver.memory import check_pig_fits
    try:
        game = ROLL_OR_HOLD.game(name, goal)
        check_pig_fits(game, limit_gb=max_memory_gb)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return game


def describe(solution) -> str:
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
    ])


def solve_games(args) -> int:
    """``hogsolve solve --rules pig ... [--exact] [--out DIR]``."""
    if args.all or args.rules_file or args.exact_ties:
        raise UsageError("hogsolve solve: --all, --rules-file and --exact-ties are for Hog rulesets")
    from .common import writable_dir
    if args.out is not None:
        writable_dir(args.out)
    games = [pig_game(name, args.goal, args.max_memory) for name in args.rules]
    records, failed = solve_pig_games(games, args.exact, args.out, args.json)
    if args.json:
        emit_json(records)
    return 1 if failed else 0


def solve_pig_games(games, exact: bool, out, as_json: bool, folder=lambda game: game.name):
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
        lines = describe(solution)
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
                write_or_fail(lambda path=target / file_name, data=data: atomic_write(path, data), target)
            record["written_to"] = str(target)
            lines += f"\n  wrote {target}"
        failed |= not usable
        records.append(record)
        if not as_json:
            print(lines, flush=True)
    return records, failed


def strategy(spec: str, game, solution=None):
    """A roll-or-hold strategy from its spec (see strategy.pig.PIG_STRATEGY_FORMS)."""
    from ..strategy.pig import load_pig_strategy
    try:
        return load_pig_strategy(spec, game, solution)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def compare_games(args) -> int:
    """``hogsolve compare A B --rules pig [--simulate N]``: the exact win rate over both seatings,
    and optionally a seeded Monte Carlo with its 95% Wilson interval."""
    a, b, game, as_json = args.a, args.b, pig_game(args.rules, args.goal, args.max_memory), args.json
    simulate, seed = args.simulate, args.seed
    from ..analysis.pig.evaluate import pig_win_rate
    from ..analysis.pig.montecarlo import simulate_roll_or_hold
    sa, sb = strategy(a, game), strategy(b, game)
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


def play_game_cli(args) -> int:
    """``hogsolve play --rules pig``."""
    from ..sessions.pig_terminal import play_game
    game = pig_game(args.rules, args.goal, args.max_memory)
    you_first, seed = args.first == "you", args.seed
    if args.json:
        emit_json(play_game(game, you_first, seed, *stderr_console()))
    else:
        play_game(game, you_first, seed)
    return 0


def best_response_game(args) -> int:
    """``hogsolve best-response SPEC --rules pig``."""
    if args.out is not None:
        raise UsageError("hogsolve best-response: --out is for Hog rulesets")
    spec, game, as_json = args.spec, pig_game(args.rules, args.goal, args.max_memory), args.json
    from ..analysis.pig.evaluate import pig_best_response
    br = pig_best_response(strategy(spec, game), game)
    if as_json:
        emit_json({"rules": game.name, "goal": game.goal, **br.to_dict(), "opponent": spec})
        return 0
    print(f"Best response to {spec} ({game.name}, goal {game.goal}), exact win probability:")
    print(f"  moving first:  {br.first:.12f}")
    print(f"  moving second: {br.second:.12f}")
    print(f"  average:       {br.average:.12f}")
    print(f"  exploitability of {spec}: {br.exploitability:.12f}")
    return 0


def tournament_game(args) -> int:
    """``hogsolve tournament SPEC... --rules pig``: every pair's exact win rate, ranked by the mean."""
    if len(args.specs) < 2:
        raise UsageError("hogsolve tournament: name at least two strategies")
    specs, game, as_json = args.specs, pig_game(args.rules, args.goal, args.max_memory), args.json
    from ..analysis.pig.evaluate import pig_win_rate
    from ..strategy.pig import pig_bot
    solution = pig_bot(game) if "optimal" in specs else None
    players = [strategy(s, game, solution) for s in specs]
    n = len(specs)
    rate = [[0.5] * n for _ in range(n)]
    for x in range(n):
        for y in range(x + 1, n):
            average = pig_win_rate(players[x], players[y], game).average
            rate[x][y], rate[y][x] = average, 1.0 - average
    mean = [sum(rate[x][y] for y in range(n) if y != x) / (n - 1) for x in range(n)]
    order = sorted(range(n), key=lambda x: (-mean[x], x))
    if as_json:
        emit_json({"rules": game.name, "goal": game.goal, "names": list(specs), "rate": rate, "mean": mean,
                   "ranking": [specs[x] for x in order]})
        return 0
    width = max(len(s) for s in specs)
    print(f"Round robin ({game.name}, goal {game.goal}), exact win rates (row against column):")
    print(f"{'rank':>4}  {'strategy':{width}}  {'mean':>8}  " + "  ".join(f"{k + 1:>8}" for k in range(n)))
    for rank, x in enumerate(order):
        cells = "  ".join(f"{'-':>8}" if y == x else f"{rate[x][y]:8.6f}" for y in order)
        print(f"{rank + 1:>4}  {specs[x]:{width}}  {mean[x]:8.6f}  {cells}")
    return 0


def regret_game(args) -> int:
    """``hogsolve regret SPEC --rules pig``: where a roll/hold strategy loses against optimal play."""
    spec, game, top, as_json = args.spec, pig_game(args.rules, args.goal, args.max_memory), args.top, args.json
    from ..analysis.pig.evaluate import pig_regret
    try:
        report = pig_regret(strategy(spec, game), game)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    rows = report.worst(top)
    if as_json:
        emit_json({"rules": game.name, "goal": game.goal, **report.to_dict(top), "strategy": spec})
        return 0
    print(f"{spec} against the optimal strategy ({game.name}, goal {game.goal}):")
    r = report.win_rate
    print(f"  win rate {r.average:.12f} (first {r.first:.12f}, second {r.second:.12f})")
    print(f"  total expected loss {report.total_expected_loss:.12f} = 1/2 - win rate")
    print("  states where it loses most (expected loss = loss x reach):")
    print(f"  {'score':>5} {'opp':>4} {'turn':>5} {'loss':>9} {'reach':>9} {'expected':>10}")
    for row in rows:
        print(f"  {row['score']:>5} {row['opponent_score']:>4} {row['turn_total']:>5} {row['loss']:>9.6f} "
              f"{row['reach']:>9.6f} {row['expected_loss']:>10.3e}")
    return 0
