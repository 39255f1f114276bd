"""``hogsolve sinbad tournament|play|odds``: parse, call, format."""
from __future__ import annotations

import argparse
from fractions import Fraction

from ..cli import positive
from .bots import BOTS


def bot_list(text: str):
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    bad = [k for k in kinds if k not in BOTS]
    if not kinds or bad:
        raise argparse.ArgumentTypeError(
            f"unknown bot {', '.join(bad) or text!r}; choose from {', '.join(BOTS)} (comma-separated)")
    return kinds


def players(text: str) -> int:
    n = int(text)
    if not 2 <= n <= 8:
        raise argparse.ArgumentTypeError(f"players must be from 2 to 8, got {n}")
    return n


def bot_count(text: str) -> int:
    n = int(text)
    if not 1 <= n <= 7:
        raise argparse.ArgumentTypeError(f"bots must be from 1 to 7, got {n}")
    return n


def setup(parser, usage_error, emit_json):
    sub = parser.add_subparsers(dest="sinbad_verb", metavar="COMMAND", parser_class=type(parser))
    t = sub.add_parser("tournament", help="seeded bot games with win rates and 95% intervals")
    t.add_argument("--players", type=players, default=4, help="players per game, 2 to 8 (default 4)")
    t.add_argument("--games", type=positive, default=1000, help="games to play (default 1000)")
    t.add_argument("--seed", type=int, default=1, help="seed (default 1)")
    t.add_argument("--bots", type=bot_list, default=["tracker", "greedy"],
                   help=f"comma-separated bot kinds cycled over the seats ({', '.join(BOTS)}; "
                        "default tracker,greedy)")
    t.add_argument("--jobs", type=positive, default=1, help="parallel workers (default 1)")
    t.add_argument("--json", action="store_true", help="machine-readable output")
    p = sub.add_parser("play", help="play against bots in the terminal")
    p.add_argument("--bots", type=bot_count, default=3,
                   help="number of bots, 1 to 7 (default 3)")
    p.add_argument("--seed", type=int, default=None)
    o = sub.add_parser("odds", help="exact deal statistics for 2 to 8 players")
    o.add_argument("--json", action="store_true", help="machine-readable output")

    def run(args):
        verb = args.sinbad_verb
        if verb is None:
            raise usage_error("sinbad: name a command: tournament, play or odds")
        if verb == "tournament":
            return tournament(args, emit_json)
        if verb == "play":
            from .play import play_room
            play_room(bots=args.bots, seed=args.seed)
            return 0
        return odds(args, emit_json)
    return run


def tournament(args, emit_json) -> int:
    from ..progress import progress
    from .tournament import run_tournament, standings
    results = run_tournament(args.bots, args.players, args.games, args.seed, jobs=args.jobs,
                             progress=lambda it, n: progress(it, n, "games"))
    table = standings(results)
    rounds = sum(r["rounds"] for r in results) / len(results)
    if args.json:
        emit_json({"games": args.games, "players": args.players, "seed": args.seed, "bots": args.bots,
                   "mean_rounds": rounds, "standings": [s.to_dict() for s in table]})
        return 0
    print(f"SinbadHogBot tournament: {args.games} games of {args.players} players "
          f"(seats: {', '.join(args.bots)} cycled), seed {args.seed}, {rounds:.2f} rounds a game")
    print(f"{'bot':10} {'seats':>6} {'wins':>8} {'win rate':>9}   95% interval")
    for s in table:
        lo, hi = s.win_rate - s.half_width, s.win_rate + s.half_width
        print(f"{s.kind:10} {s.seats:>6} {s.wins:>8.1f} {s.win_rate:>9.3f}   {lo:.3f} to {hi:.3f}")
    return 0


def odds(args, emit_json) -> int:
    from .odds import deal_odds
    rows = [deal_odds(n) for n in range(2, 9)]
    if args.json:
        emit_json(rows)
        return 0
    print("Exact deal statistics (nine cards each from N items of nine cards)")
    print(f"{'N':>2} {'P(you are dealt a hog)':>24} {'P(someone is)':>14}   P(your largest collection = 1..9)")
    for r in rows:
        dist = r["largest_collection"]
        cells = " ".join(f"{float(dist.get(m, Fraction(0))):.4f}" for m in range(1, 10))
        p = r["player_dealt_hog"]
        print(f"{r['players']:>2} {f'1/{p.denominator}':>24} {float(r['someone_dealt_hog']):>14.3e}   {cells}")
    return 0
