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
        rules = rules_of(args)
        output_file(args.out, ".png")
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print("error: hogsolve plot needs matplotlib: pip install 'hogsolve[plot]'", file=sys.stderr)
            return 1
        from ..player import optimal_strategy
        from ..plot import plot_solution
        bot = optimal_strategy(rules)
        write_or_fail(lambda: plot_solution(bot.table, bot.win_probability,
                                            f"{rules.name} (goal {rules.goal})", args.out), args.out)
        return respond(args, {"rules": rules.name, "written_to": str(args.out)}, lambda: print(f"wrote {args.out}"))
    return run
