"""``hogsolve sinbad tournament|play|odds``: parse, call, format."""
from __future__ import annotations

import argparse
from fractions import Fraction

from .common import UsageError, add_jobs_option, cap_jobs, int_in_range, positive, respond, seed_value
from ..sinbad.bots import BOTS
from ..sinbad.rules import MAX_PLAYERS, MIN_PLAYERS

players = int_in_range(MIN_PLAYERS, MAX_PLAYERS, what="the number of players")
bot_count = int_in_range(MIN_PLAYERS - 1, MAX_PLAYERS - 1, what="the number of bots")


def bot_list(text: str):
    """'tracker,greedy' -> ['tracker', 'greedy']; an empty or unknown name is refused."""
    kinds = [k.strip() for k in text.split(",")]
    if any(not k for k in kinds):
        raise argparse.ArgumentTypeError(
            f"empty bot name in {text!r}; write names separated by single commas, e.g. tracker,greedy")
    bad = [k for k in kinds if k not in BOTS]
    if bad:
        raise argparse.ArgumentTypeError(
            f"unknown bot {', '.join(bad)}; choose from {', '.join(BOTS)} (comma-separated)")
    return kinds


def setup_sinbad(parser):
    """``hogsolve sinbad tournament | play | odds``."""
    sub = parser.add_subparsers(dest="sinbad_verb", metavar="COMMAND", parser_class=type(parser))
    t = sub.add_parser("tournament", help="seeded bot games with win rates and 95%% intervals",
                       description="seeded bot games with win rates and 95% intervals")
    t.add_argument("--players", type=players, default=4, help=f"players per game, {MIN_PLAYERS} to {MAX_PLAYERS} (default 4)")
    t.add_argument("--games", type=positive, default=1000, help="games to play (default 1000)")
    t.add_argument("--seed", type=seed_value, default=1, help="seed (default 1)")
    t.add_argument("--bots", type=bot_list, default=["tracker", "greedy"],
                   help=f"comma-separated bot kinds cycled over the seats ({', '.join(BOTS)}; "
                        "default tracker,greedy)")
    add_jobs_option(t)
    t.add_argument("--json", action="store_true", help="machine-readable output")
    p = sub.add_parser("play", help="play against bots in the terminal")
    p.add_argument("--bots", type=bot_count, default=3,
                   help="number of bots, 1 to 7 (default 3)")
    p.add_argument("--seed", type=seed_value, default=None, help="seed (default: random)")
    o = sub.add_parser("odds", help=f"exact deal statistics for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    o.add_argument("--json", action="store_true", help="machine-readable output")

    def run(args):
        verb = args.sinbad_verb
        if verb is None:
            raise UsageError("sinbad: name a command: tournament, play or odds")
        if verb == "tournament":
            return tournament(args)
        if verb == "play":
            from ..sessions.sinbad_terminal import play_room
            play_room(bots=args.bots, seed=args.seed)
            return 0
        return odds(args)
    return run


def tournament(args) -> int:
    """``sinbad tournament``: seeded bot games and their win rates."""
    from ..util.progress import progress
    from ..sinbad.tournament import run_tournament, standings
    results = run_tournament(args.bots, args.players, args.games, args.seed, jobs=cap_jobs(args.jobs),
                             progress=lambda it, n: progress(it, n, "games"))
    table = standings(results)
    rounds = sum(r.rounds for r in results) / len(results)
    record = {"games": args.games, "players": args.players, "seed": args.seed, "bots": args.bots,
              "mean_rounds": rounds, "standings": [s.to_dict() for s in table]}

    def show():
        print(f"SinbadHogBot tournament: {args.games} games of {args.players} players "
              f"(seats: {', '.join(args.bots)} cycled), seed {args.seed}, {rounds:.2f} rounds a game")
        print(f"{'bot':10} {'seats':>6} {'wins':>8} {'win rate':>9}   95% interval")
        for s in table:
            lo, hi = s.interval
            print(f"{s.kind:10} {s.seats:>6} {s.wins:>8.1f} {s.win_rate:>9.3f}   {lo:.3f} to {hi:.3f}")
    return respond(args, record, show)


def odds(args) -> int:
    """``sinbad odds``: exact deal statistics for every number of players."""
    from ..sinbad.odds import deal_odds
    rows = [deal_odds(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]

    def show():
        print("Exact deal statistics (nine cards each from N items of nine cards)")
        print(f"{'N':>2} {'P(you are dealt a hog)':>24} {'P(someone is)':>14}   P(your largest collection = 1..9)")
        for r in rows:
            dist = r.largest_collection
            cells = " ".join(f"{float(dist.get(m, Fraction(0))):.4f}" for m in range(1, 10))
            p = r.player_dealt_hog
            print(f"{r.players:>2} {f'1/{p.denominator}':>24} {float(r.someone_dealt_hog):>14.3e}   {cells}")
    return respond(args, [r.to_dict() for r in rows], show)
