"""``hogsolve plot``: the policy heatmap and win-probability surface as a PNG."""
from __future__ import annotations

import sys
from pathlib import Path

from .common import (add_rules_option, add_unproven_option, by_family, optimal_bot, output_file, respond, rules_of,
                    write_or_fail)


def setup_plot(p):
    """``hogsolve plot``: draw a ruleset's policy and win probabilities to a PNG."""
    add_rules_option(p)
    add_unproven_option(p)
    p.add_argument("--out", type=Path, required=True, metavar="FILE.png", help="the picture to write")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    return by_family({"hog": plot_hog, "roll-or-hold": plot_pig})


def _matplotlib(args) -> bool:
    """Check the output name, then that matplotlib is there (one line on stderr if not)."""
    output_file(args.out, ".png")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("error: hogsolve plot needs matplotlib: pip install 'hogsolve[plot]'", file=sys.stderr)
        return False
    return True


def plot_pig(args) -> int:
    """The roll/hold boundary: the hold threshold at every pair of scores."""
    from ..analysis.plot import plot_solution
    from ..strategy.pig import pig_bot
    from .common import roll_or_hold_game
    game = roll_or_hold_game(args.rules, args.goal, args.max_memory)
    if not _matplotlib(args):
        return 1
    solution = pig_bot(game)
    write_or_fail(lambda: plot_solution(solution.hold_threshold, solution.value[:, :, 0],
                                        f"{game.name} (goal {game.goal})", args.out,
                                        "turn total at which to hold"), args.out)
    return respond(args, {"rules": game.name, "written_to": str(args.out)}, lambda: print(f"wrote {args.out}"))


def plot_hog(args) -> int:
    """The policy heatmap and win-probability surface of a Hog ruleset."""
    from ..analysis.plot import plot_solution
    rules = rules_of(args)
    bot = optimal_bot(rules, args)
    if not _matplotlib(args):
        return 1
    start = (0,) * (bot.table.ndim - 2)  # Feral Hogs: the slice where both memories are 0
    label = f"{rules.name} (goal {rules.goal}{', both memories 0' if start else ''}" \
            f"{'; NOT PROVEN' if not bot.proven else ''})"
    write_or_fail(lambda: plot_solution(bot.table[(...,) + start], bot.win_probability[(...,) + start],
                                        label, args.out), args.out)
    return respond(args, {"rules": rules.name, "written_to": str(args.out)}, lambda: print(f"wrote {args.out}"),
                   not_proven=bot.reason)
