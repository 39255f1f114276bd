"""``hogsolve contest serve|submit|export``: the course's contest as a server (parse, call, print)."""
from __future__ import annotations

import csv
import datetime
import json
import os
import secrets
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Dict, List, Optional

from ..errors import HogsolveError
from .common import UsageError, add_jobs_option, cap_jobs, ip_address, listening, load_game, strategy_of

#: The timeout of each request ``contest submit`` makes (seconds).
SUBMIT_TIMEOUT = 60.0


def deadline_value(text: str) -> float:
    """An argparse type: an ISO-8601 time (a time without a zone is UTC) as seconds since the epoch."""
    import argparse
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an ISO-8601 time, e.g. 2026-12-18T23:59:00-08:00") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return moment.timestamp()


def setup_contest(parser):
    """``hogsolve contest serve | submit | export``."""
    sub = parser.add_subparsers(dest="contest_verb", metavar="COMMAND", parser_class=type(parser))
    s = sub.add_parser("serve", help="serve the contest: submissions, live leaderboard, students' pages",
                       description="serve the contest: submissions, live leaderboard, students' pages")
    s.add_argument("--rules", required=True, help="the contest's ruleset (a semester or a Pig-family game)")
    s.add_argument("--goal", type=int, default=None, help="a goal other than the ruleset's")
    s.add_argument("--data", type=Path, required=True, help="the contest's folder (its SQLite file, tokens.csv)")
    s.add_argument("--roster", type=Path, default=None,
                   help="a CSV of students (a 'name' column, else the first): each gets a token in DATA/tokens.csv")
    s.add_argument("--deadline", type=deadline_value, default=None,
                   help="ISO-8601 time after which submissions get 423")
    s.add_argument("--host", type=ip_address, default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    s.add_argument("--port", type=int, default=8062, help="port (default 8062; 0 picks a free one)")
    s.add_argument("--public-name", default=None,
                   help="the name a reverse proxy that terminates HTTPS serves the contest under "
                        "(required to bind to any other address than 127.0.0.1)")
    s.add_argument("--threshold", type=float, default=0.5, help="a pair is won above this win rate (default 0.5)")
    s.add_argument("--past", type=Path, action="append", default=[], metavar="FILE",
                   help="an earlier contest to show beside this one: the course's leaderboard JSON (teams, "
                        "winrate_mat) or a tournament --out CSV (repeat for several)")
    s.add_argument("--backend", choices=["local", "dask"], default="local", help="where pairs are scored")
    s.add_argument("--scheduler", default=None, help="the Dask scheduler's address (with --backend dask)")
    add_jobs_option(s)
    u = sub.add_parser("submit", help="tabulate your strategy here and send its table (never code)",
                       description="tabulate your strategy here and send its table (never code)")
    u.add_argument("strategy", metavar="FILE.py[:FUNCTION]", help="your strategy (final_strategy by default)")
    u.add_argument("--server", required=True, help="the contest's address, e.g. https://contest.example.edu/")
    u.add_argument("--token", required=True, help="the token your course gave you")
    u.add_argument("--name", default=None, help="your team's name on the leaderboard")
    e = sub.add_parser("export", help="every scored pair as CSV (the columns of tournament --out)",
                       description="every scored pair as CSV (the columns of tournament --out)")
    e.add_argument("--data", type=Path, required=True, help="the contest's folder")
    e.add_argument("--out", type=Path, required=True, help="the CSV to write")

    def run(args):
        if args.contest_verb == "serve":
            return serve(args)
        if args.contest_verb == "submit":
            return submit(args)
        if args.contest_verb == "export":
            return export(args)
        raise UsageError("choose a command: serve, submit or export")
    return run


def roster_names(path: Path) -> List[str]:
    """The students of a roster CSV: its 'name' column, else its first."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the roster {path}: {exc}") from None
    if not rows:
        raise UsageError(f"the roster {path} is empty")
    header = [h.strip().lower() for h in rows[0]]
    column = header.index("name") if "name" in header else 0
    body = rows[1:] if "name" in header else rows
    names = [r[column].strip() for r in body if len(r) > column and r[column].strip()]
    if len(set(names)) != len(names):
        raise UsageError(f"the roster {path} names someone twice")
    return names


def _private_write(path: Path, text: str) -> None:
    """Write a secret file readable by its owner alone (to a temporary name, then renamed)."""
    temporary = path.with_name(path.name + ".tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(temporary, path)


def open_contest(args, data: Path):
    """The contest in ``data`` for ``--rules``/``--goal``: settings checked against an existing one,
    then written, and its staff token made (once, in ``data/staff_token``)."""
    from ..contest.ledger import token_hash
    from ..gui.contest import Contest
    family, game = load_game(args.rules, args.goal)
    try:
        contest = Contest(data, game, threshold=args.threshold, jobs=cap_jobs(args.jobs), backend=args.backend,
                          scheduler=args.scheduler, past=getattr(args, "past", []))
    except HogsolveError as exc:
        raise UsageError(str(exc)) from None
    ledger = contest.ledger
    kept = ledger.setting("game")
    here = json.dumps({"rules": game.name, "goal": int(game.goal)})
    if kept is not None and kept != here:
        raise UsageError(f"{data} holds a contest of {kept}, not {here}: use another --data folder")
    ledger.set("game", here)
    if args.deadline is not None:
        ledger.set("deadline", repr(args.deadline))
    staff_file = data / "staff_token"
    if ledger.setting("staff_token_hash") is None or not staff_file.exists():
        staff = secrets.token_urlsafe(24)
        ledger.set("staff_token_hash", token_hash(staff))
        _private_write(staff_file, staff + "\n")
    return contest


def serve(args) -> int:
    """``contest serve``: the leaderboard's address on the first line, then serve until Ctrl-C."""
    from ..gui.contest import ContestServer
    args.data.mkdir(parents=True, exist_ok=True)
    contest = open_contest(args, args.data)
    made: Dict[str, str] = {}
    if args.roster is not None:
        made = contest.ledger.enrol(roster_names(args.roster))
        tokens = args.data / "tokens.csv"
        rows: Dict[str, str] = {}
        if tokens.exists():
            with open(tokens, newline="", encoding="utf-8") as f:
                rows = {r["name"]: r["token"] for r in csv.DictReader(f)}
        rows.update(made)
        _private_write(tokens, "name,token\n" + "".join(f"{n},{t}\n" for n, t in rows.items()))
    try:
        with listening(args.host, args.port):
            server = ContestServer(contest, args.host, args.port, public_name=args.public_name)
    except HogsolveError as exc:
        raise UsageError(str(exc)) from None
    print(f"Hog contest ({contest.game.name}, goal {contest.game.goal}) at {server.url}", flush=True)
    tokens_said = f"{len(made)} new tokens in {args.data / 'tokens.csv'}" if args.roster is not None else \
        "no roster given (--roster roster.csv adds students)"
    print(f"{tokens_said}; the staff token is in {args.data / 'staff_token'}; Ctrl-C to stop", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    return 0


def _request(url: str, *, body: Optional[dict] = None, token: Optional[str] = None) -> Any:
    """One JSON request; the server's own one-line refusal as a UsageError."""
    headers = {"Accept": "application/json"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=data, headers=headers, method="POST" if body is not None else "GET")
    try:
        with urllib.request.urlopen(request, timeout=SUBMIT_TIMEOUT) as reply:
            return json.loads(reply.read().decode())
    except urllib.error.HTTPError as exc:
        try:
            said = json.loads(exc.read().decode()).get("error", "")
        except (ValueError, AttributeError):
            said = ""
        raise UsageError(f"the contest refused ({exc.code}): {said or exc.reason}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise UsageError(f"cannot reach the contest at {url}: {reason}") from None


def submit(args) -> int:
    """``contest submit``: tabulate the strategy in the isolated child, send the table."""
    base = args.server.rstrip("/")
    if not base.startswith(("http://", "https://")):
        raise UsageError(f"--server is an address such as https://contest.example.edu/, not {args.server!r}")
    standings = _request(f"{base}/api/standings")
    family, game = load_game(standings["rules"], int(standings["goal"]))
    args.allow_unproven, args.retry_failed = True, False
    strategy = strategy_of(args.strategy, family, game, args)
    table = family.table_of(strategy, game)
    if table.dtype == bool:
        table = table[:, :, :game.goal].astype(int)  # a roll-or-hold table: 1 to roll, 0 to hold
    body = {"table": table.tolist(), **({"name": args.name} if args.name else {})}
    answer = _request(f"{base}/api/submit", body=body, token=args.token)
    print(f"accepted: {answer['name']} ({answer['pairs_new']} pairs to score); the leaderboard is at {base}/")
    return 0


def export(args) -> int:
    """``contest export``: the scored pairs in ``tournament --out``'s columns."""
    from ..contest.entries import results_csv
    from ..contest.ledger import Ledger
    from ..gui.contest import Contest
    from ..util.files import atomic_write
    path = args.data / "contest.sqlite"
    if not path.exists():
        raise UsageError(f"{args.data} holds no contest (no contest.sqlite)")
    kept = Ledger(path).setting("game")
    if kept is None:
        raise UsageError(f"{args.data} holds no contest settings")
    settings = json.loads(kept)
    _, game = load_game(settings["rules"], settings["goal"])
    contest = Contest(args.data, game)
    rows = contest.export_rows()
    atomic_write(args.out, results_csv(rows).encode())
    print(f"{len(rows)} pairs of {len(contest.ledger.entries(tables=False))} entries written to {args.out}")
    return 0
