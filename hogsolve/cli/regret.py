"""``hogsolve regret SPEC``: where a strategy loses against optimal play, in any game."""
from __future__ import annotations

from ..errors import HogsolveError

from .common import (UsageError, add_spec_options, by_family, converged_or_fail, emit_json, optimal_bot, positive,
                     respond, roll_or_hold_game, roll_or_hold_strategy, rules_and_policy)


def setup_regret(p):
    """``hogsolve regret SPEC``: where a strategy loses against optimal play."""
    add_spec_options(p, "strategy spec")
    p.add_argument("--top", type=positive, default=10, metavar="K", help="states to list (default 10)")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    return by_family({"hog": regret_hog, "roll-or-hold": regret_roll_or_hold})

def regret_hog(args) -> int:
    """``hogsolve regret SPEC`` for Hog rulesets."""
    from ..analysis.evaluate import regret
    rules, table = rules_and_policy(args)
    bot = optimal_bot(rules, args)  # regret is measured against it: refused when it is not proven
    report = converged_or_fail(lambda: regret(table, rules), "regret")
    record = {"rules": rules.name, **report.to_dict(args.top), "strategy": args.spec}
    return respond(args, record, lambda: show_regret(args, rules, report, proven=not bot.reason),
                   not_proven=bot.reason)

def show_regret(args, rules, report, proven: bool = True) -> None:
    """The text of ``hogsolve regret``; the identity with the win rate only where it holds (the
    optimum proven, and the two sides equal)."""
    r = report.win_rate
    print(f"{args.spec} against the optimal strategy ({rules.name}):")
    print(f"  win rate {r.average:.12f} (first {r.first:.12f}, second {r.second:.12f})")
    holds = proven and abs(report.total_expected_loss - (0.5 - r.average)) <= 1e-9
    print(f"  total expected loss {report.total_expected_loss:.12f}" + (" = 1/2 - win rate" if holds else ""))
    print("  states where it loses most (expected loss = loss x reach):")
    memories = rules.history is not None  # then each state also has both players' memories
    extra = f" {'mem':>3} {'opp mem':>7}" if memories else ""
    print(f"  {'score':>5} {'opp':>4}{extra} {'rolls':>5} {'best':>4} {'loss':>9} {'reach':>9} {'expected':>10}")
    for row in report.worst(args.top):
        extra = f" {row['my_memory']:>3} {row['opponent_memory']:>7}" if memories else ""
        print(f"  {row['score']:>5} {row['opponent_score']:>4}{extra} {row['choice']:>5} {row['optimal']:>4} "
              f"{row['loss']:>9.6f} {row['reach']:>9.6f} {row['expected_loss']:>10.3e}")

def regret_roll_or_hold(args) -> int:
    """``hogsolve regret SPEC --rules pig``: where a roll/hold strategy loses against optimal play."""
    spec, game, top, as_json = args.spec, roll_or_hold_game(args.rules, args.goal, args.max_memory), args.top, args.json
    from ..analysis.pig.evaluate import pig_regret
    try:
        report = pig_regret(roll_or_hold_strategy(spec, game), game)
    except HogsolveError as exc:
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
