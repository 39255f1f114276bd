"""``hogsolve regret SPEC``: where a strategy loses against optimal play, in any game."""
from __future__ import annotations

from .common import (add_spec_options, converged_or_fail, every_game, game_of, optimal_bot, positive, respond,
                     strategy_of)

#: Each column of the worst states' table: its heading, width and number format.
COLUMNS = {"score": ("score", 5, ""), "opponent_score": ("opp", 4, ""), "my_memory": ("mem", 3, ""),
           "opponent_memory": ("opp mem", 7, ""), "turn_total": ("turn", 5, ""), "choice": ("rolls", 5, ""),
           "optimal": ("best", 4, ""), "loss": ("loss", 9, ".6f"), "reach": ("reach", 9, ".6f"),
           "expected_loss": ("expected", 10, ".3e")}


def setup_regret(p):
    """``hogsolve regret SPEC``: where a strategy loses against optimal play."""
    add_spec_options(p, "strategy spec")
    p.add_argument("--top", type=positive, default=10, metavar="K", help="states to list (default 10)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    return every_game(regret)


def regret(args) -> int:
    """``hogsolve regret SPEC`` in the game's family, against its optimal strategy (refused when
    that is not proven, unless --allow-unproven)."""
    family, game = game_of(args)
    strategy = strategy_of(args.spec, family, game, args)
    bot, reason = optimal_bot(family, game, args)
    report = converged_or_fail(lambda: family.regret(strategy, game), "regret")
    record = {"rules": game.name, "goal": game.goal, **report.to_dict(args.top), "strategy": args.spec}
    return respond(args, record, lambda: show_regret(args, game, report, proven=not reason), not_proven=reason)


def show_regret(args, game, report, proven: bool = True) -> None:
    """The text of ``hogsolve regret``; the identity with the win rate only where it holds (the
    optimum proven, and the two sides equal)."""
    r = report.win_rate
    print(f"{args.spec} against the optimal strategy ({game.name}, goal {game.goal}):")
    print(f"  win rate {r.average:.12f} (first {r.first:.12f}, second {r.second:.12f})")
    holds = proven and abs(report.total_expected_loss - (0.5 - r.average)) <= 1e-9
    print(f"  total expected loss {report.total_expected_loss:.12f}" + (" = 1/2 - win rate" if holds else ""))
    print("  states where it loses most (expected loss = loss x reach):")
    columns = [COLUMNS[key] + (key,) for key in report.columns()]
    print("  " + " ".join(f"{head:>{width}}" for head, width, _, _ in columns))
    for row in report.worst(args.top):
        print("  " + " ".join(f"{row[key]:>{width}{form}}" for _, width, form, key in columns))
