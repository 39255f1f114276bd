"""``hogsolve play``: the optimal bot in the terminal."""
from __future__ import annotations


from . import pig
from .common import add_rules_option, by_family, emit_json, rules_of, seed_value, stderr_console


def setup_play(p):
    """``hogsolve play``: a game against the optimal bot in the terminal."""
    add_rules_option(p)
    p.add_argument("--first", choices=["you", "bot"], default="you", help="who moves first (default you)")
    p.add_argument("--seed", type=seed_value, default=None, help="seed for the dice (0 or more)")
    p.add_argument("--json", action="store_true",
                   help="print the game record as JSON at the end (the play itself goes to stderr)")

    return by_family({"hog": play_hog, "roll-or-hold": pig.play_game_cli})


def play_hog(args) -> int:
    """``hogsolve play`` for Hog rulesets."""
    from ..sessions.hog_terminal import play_terminal
    rules = rules_of(args)
    if args.json:
        read, write = stderr_console()
        emit_json(play_terminal(rules, you_first=args.first == "you", seed=args.seed, read=read, write=write))
    else:
        play_terminal(rules, you_first=args.first == "you", seed=args.seed)
    return 0
