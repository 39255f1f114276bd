"""``hogsolve play``: the optimal bot in the terminal, in any game."""
from __future__ import annotations

import sys

from .common import (add_rules_option, add_unproven_option, emit_json, every_game, game_of, optimal_bot, seed_value,
                     stderr_console)


def setup_play(p):
    """``hogsolve play``: a game against the optimal bot in the terminal."""
    add_rules_option(p)
    add_unproven_option(p)
    p.add_argument("--first", choices=["you", "bot"], default="you", help="who moves first (default you)")
    p.add_argument("--seed", type=seed_value, default=None, help="seed for the dice (0 or more)")
    p.add_argument("--json", action="store_true",
                   help="print the game record as JSON at the end (the play itself goes to stderr)")
    return every_game(play)


def play(args) -> int:
    """``hogsolve play``: the game's optimal bot (refused when not proven, unless --allow-unproven)."""
    family, game = game_of(args)
    bot, reason = optimal_bot(family, game, args)
    if reason:
        print(f"note: not proven: {reason}; the bot's moves and hints are not proven optimal", file=sys.stderr)
    you_first = args.first == "you"
    if args.json:
        read, write = stderr_console()
        emit_json(family.play_in_terminal(game, bot, you_first=you_first, seed=args.seed, read=read, write=write))
    else:
        family.play_in_terminal(game, bot, you_first=you_first, seed=args.seed)
    return 0
