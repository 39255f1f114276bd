"""``hogsolve sinbad tournament|play|odds``: parse, call, format."""
from __future__ import annotations

import argparse
from fractions import Fraction
from pathlib import Path

from .common import (UsageError, add_jobs_option, cap_jobs, int_in_range, ip_address, listening, positive,
                     positive_seconds, respond, seed_value)
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
    t.add_argument("--players", type=players, default=4,
                   help=f"players per game, {MIN_PLAYERS} to {MAX_PLAYERS} (default 4)")
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
    s = sub.add_parser("serve", help="the real-time chat room in the browser (and for network bots)",
                       description="serve SinbadHogBot rooms (/sinbad/ROOM) with the web app; prints the room's link")
    s.add_argument("--port", type=int_in_range(0, 65535, what="the port"), default=8062,
                   help="port (default 8062; 0: any free port)")
    s.add_argument("--host", type=ip_address, default=None, metavar="ADDRESS",
                   help="serve the local network on this address, with an access token in the link")
    s.add_argument("--room", default="lobby", help="the room to open (default lobby)")
    s.add_argument("--bots", type=bot_list, default=[],
                   help="bot kinds seated in the room at start, e.g. greedy,tracker")
    s.add_argument("--seed", type=seed_value, default=None, help="seed of the room's deals (default: random)")
    s.add_argument("--data", type=Path, default=None, metavar="DIR",
                   help="folder of the rooms' event log (default ~/.local/share/hogsolve)")
    s.add_argument("--think", type=positive_seconds, default=0.4, help="seconds a room bot thinks (default 0.4)")
    s.add_argument("--stall", type=positive_seconds, default=180.0,
                   help="seconds a round may last without a hog before it stalls (default 180)")
    s.add_argument("--no-browser", action="store_true", help="do not open a browser")
    b = sub.add_parser("bot", help="a bot that joins a room over the network",
                       description="play in a room over its WebSocket, as a person's page does")
    b.add_argument("--url", required=True, help="ws://HOST:PORT/sinbad/ROOM/ws (with ?access=TOKEN on a network)")
    b.add_argument("--name", required=True, help="the bot's one-word name in the room")
    b.add_argument("--kind", choices=sorted(BOTS), default="greedy", help="its play (default greedy)")
    b.add_argument("--think", type=positive_seconds, default=0.4, help="seconds between moves (default 0.4)")
    b.add_argument("--seed", type=seed_value, default=None, help="seed of its choices (default: random)")
    h = sub.add_parser("history", help="finished games with their scores")
    h.add_argument("room", nargs="?", default=None, help="one room (default: every room)")
    h.add_argument("--data", type=Path, default=None, metavar="DIR", help="folder of the event log")
    h.add_argument("--json", action="store_true", help="machine-readable output")

    def run(args):
        verb = args.sinbad_verb
        if verb is None:
            raise UsageError("sinbad: name a command: tournament, play, odds, serve, bot or history")
        if verb in ("serve", "bot", "history"):
            return {"serve": serve, "bot": network_bot, "history": history}[verb](args)
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


def serve(args) -> int:
    """``hogsolve sinbad serve``: the web app with a room open (and its bots seated)."""
    from ..gui.server import serve as serve_app
    from ..sinbad.rules import NAME
    if not NAME.match(args.room):
        raise UsageError(f"--room must be one word of letters, digits, _ . or -, got {args.room!r}")
    with listening(args.host, args.port):
        serve_app(port=args.port, open_browser=not args.no_browser, host=args.host, page=f"sinbad/{args.room}",
                  announce=lambda line: print(line, flush=True), data=args.data, think=args.think,
                  stall=args.stall, sinbad_room=(args.room, args.bots, args.seed))
    return 0


def network_bot(args) -> int:
    """``hogsolve sinbad bot``: play in a room over the network until its game is over."""
    from ..gui.sinbad_bot import BotRefused, play_over_network
    try:
        result = play_over_network(args.url, args.name, args.kind, think=args.think, seed=args.seed,
                                   say=lambda line: print(line, flush=True))
    except BotRefused as exc:
        raise UsageError(str(exc)) from None
    totals = ", ".join(f"{p} {t}" for p, t in result["totals"].items())
    print(f"game over: {totals}; won by {' and '.join(result['winners'])}")
    return 0


def history(args) -> int:
    """``hogsolve sinbad history [ROOM]``: finished games from the event log."""
    import datetime
    import json
    from ..gui.server import data_folder
    from ..util.eventlog import EventLog
    path = (args.data or data_folder()) / "sinbad.sqlite3"
    if not path.exists():
        raise UsageError(f"no rooms have been played here yet ({path} does not exist)")
    games = EventLog(path).history(args.room)
    if args.json:
        print(json.dumps(games, indent=2))
        return 0
    if not games:
        print("no finished games" + (f" in {args.room}" if args.room else ""))
    for g in games:
        when = datetime.datetime.fromtimestamp(g["finished"]).strftime("%Y-%m-%d %H:%M")
        totals = ", ".join(f"{p} {t}" for p, t in g["totals"].items())
        print(f"{when}  {g['room']} game {g['game']}: {totals}; won by {' and '.join(g['winners'])}")
    return 0
