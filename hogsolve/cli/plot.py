"""``hogsolve plot``: the policy heatmap and win-probability surface as a PNG."""
from __future__ import annotations

import sys
from pathlib import Path

from .common import add_rules_option, respond, output_file, rules_of, write_or_fail


def setup_plot(p):
    """``hogsolve plot``: draw a ruleset's policy and win probabilities to a PNG."""
    add_rules_option(p)
    p.add_argument("--out", type=Path, required=True, metavar="FILE.png", help="the picture to write")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    def run(args):
        from .pig import is_pig, pig_game
        game = pig_game(args.rules, args.goal) if is_pig(args.rules) else None
        rules = rules_of(args) if game is None else game
        output_file(args.out, ".png")
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print("error: hogsolve plot needs matplotlib: pip install 'hogsolve[plot]'", file=sys.stderr)
            return 1
        from ..analysis.plot import plot_solution
        if game is not None:  # the roll/hold boundary: the hold threshold at every pair of scores
            from ..solver.pig import solve_pig
            solution = solve_pig(game)
            write_or_fail(lambda: plot_solution(solution.hold_threshold, solution.value[:, :, 0],
                                                f"{game.name} (goal {game.goal})", args.out,
                                                "turn total at which to hold"), args.out)
            return respond(args, {"rules": game.name, "written_to": str(args.out)},
                           lambda: print(f"wrote {args.out}"))
        from ..strategy.optimal import optimal_strategy
        bot = optimal_strategy(rules)
        start = (0,) * (bot.table.ndim - 2)  # Feral Hogs: the slice where both memories are 0
        label = f"{rules.name} (goal {rules.goal}{', both memories 0' if start else ''})"
        write_or_fail(lambda: plot_solution(bot.table[(...,) + start], bot.win_probability[(...,) + start],
                                            label, args.out), args.out)
        return respond(args, {"rules": rules.name, "written_to": str(args.out)}, lambda: print(f"wrote {args.out}"))
    return run
