"""``hogsolve play``: the optimal bot in the terminal, in any game."""
from __future__ import annotations

import sys

from .common import (add_rules_option, add_unproven_option, by_family, emit_json, optimal_bot, roll_or_hold_game,
                     rules_of, seed_value, stderr_console)


def setup_play(p):
    """``hogsolve play``: a game against the optimal bot in the terminal."""
    add_rules_option(p)
    add_unproven_option(p)
    p.add_argument("--first", choices=["you", "bot"], default="you", help="who moves first (default you)")
    p.add_argument("--seed", type=seed_value, default=None, help="seed for the dice (0 or more)")
    p.add_argument("--json", action="store_true",
                   help="print the game record as JSON at the end (the play itself goes to stderr)")

    return by_family({"hog": play_hog, "roll-or-hold": play_roll_or_hold})

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

def play_roll_or_hold(args) -> int:
    """``hogsolve play --rules pig``."""
    from ..sessions.pig_terminal import play_game
    game = roll_or_hold_game(args.rules, args.goal, args.max_memory)
    you_first, seed = args.first == "you", args.seed
    if args.json:
        emit_json(play_game(game, you_first, seed, *stderr_console()))
    else:
        play_game(game, you_first, seed)
    return 0
