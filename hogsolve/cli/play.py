"""``hogsolve play``: the optimal bot in the terminal."""
from __future__ import annotations

import sys


from . import pig
from .common import (add_rules_option, add_unproven_option, by_family, emit_json, optimal_bot, rules_of, seed_value,
                    stderr_console)


def setup_play(p):
    """``hogsolve play``: a game against the optimal bot in the terminal."""
    add_rules_option(p)
    add_unproven_option(p)
    p.add_argument("--first", choices=["you", "bot"], default="you", help="who moves first (default you)")
    p.add_argument("--seed", type=seed_value, default=None, help="seed for the dice (0 or more)")
    p.add_argument("--json", action="store_true",
                   help="print the game record as JSON at the end (the play itself goes to stderr)")

    return by_family({"hog": play_hog, "roll-or-hold": pig.play_game_cli})


def play_hog(args) -> int:
    """``hogsolve play`` for Hog rulesets."""
    from ..sessions.hog_terminal import play_terminal
    rules = rules_of(args)
    bot = optimal_bot(rules, args)
    if not bot.proven:
        print(f"note: not proven: {bot.reason}; the bot's moves and hints are not proven optimal",
              file=sys.stderr)
    if args.json:
        read, write = stderr_console()
        emit_json(play_terminal(rules, you_first=args.first == "you", seed=args.seed, read=read, write=write,
                                bot=bot))
    else:
        play_terminal(rules, you_first=args.first == "you", seed=args.seed, bot=bot)
    return 0
