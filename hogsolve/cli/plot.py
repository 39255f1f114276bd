"""``hogsolve plot``: the policy heatmap and win-probability surface as a PNG, in any game."""
from __future__ import annotations

import sys
from pathlib import Path

from .common import (add_rules_option, add_unproven_option, every_game, game_of, optimal_bot, output_file, respond,
                     write_or_fail)


def setup_plot(p):
    """``hogsolve plot``: draw a game's optimal policy and win probabilities to a PNG."""
    add_rules_option(p)
    add_unproven_option(p)
    p.add_argument("--out", type=Path, required=True, metavar="FILE.png", help="the picture to write")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    return every_game(plot)


def plot(args) -> int:
    """The optimal bot's policy and win probabilities, as the game's family draws them."""
    from ..analysis.plot import plot_solution
    family, game = game_of(args)
    bot, reason = optimal_bot(family, game, args)
    output_file(args.out, ".png")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("error: hogsolve plot needs matplotlib: pip install 'hogsolve[plot]'", file=sys.stderr)
        return 1
    policy, values, title, legend = family.policy_picture(game, bot)
    write_or_fail(lambda: plot_solution(policy, values, title, args.out, legend), args.out)
    return respond(args, {"rules": game.name, "written_to": str(args.out)}, lambda: print(f"wrote {args.out}"),
                   not_proven=reason)
