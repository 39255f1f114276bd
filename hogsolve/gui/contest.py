"""The course's Hog contest as a server: students submit tables, the leaderboard updates itself.

A submission is a table (never code): the server checks it
(:func:`hogsolve.contest.ledger.check_table`), commits it, answers at once with its place in
the queue, and a scoring thread computes only the pairs it brings (the round robin of
:func:`hogsolve.contest.roundrobin.round_robin` with every recorded pair known), committing
each block of pairs as it finishes and telling every open leaderboard over its WebSocket.

Routes: ``/`` the leaderboard page; ``/me`` a student's page; ``GET /api/standings``;
``GET /api/matrix``; ``POST /api/submit`` (``Authorization: Bearer TOKEN``, JSON ``{"name",
"table"}``); ``GET /api/me``; ``/api/live`` (WebSocket: the standings on every change);
staff (``Authorization: Bearer STAFF_TOKEN``): ``POST /api/staff/freeze``, ``POST
/api/staff/remove``, ``GET /api/staff/export.csv``.
"""
from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import threading
import time
from pathlib import Path
from typing import Any, Callable, Deque, Dict, List, Optional, Sequence, Set

import numpy as np
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.exceptions import HTTPException
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..contest.entries import pair_row, results_csv
from ..contest.ledger import ContestClosed, Ledger, NotAllowed, check_table, check_team, past_contest
from ..contest.report import against_optimal, report_html
from ..contest.roundrobin import TournamentResult
from ..errors import HogsolveError
from ..families import family_of_game
from ..sessions.web import GameError
from .app import STATIC, game_error, http_error, json_reply, read_json, refused, server_error
from .guard import Access, Guard
from .lab import choice_maps

#: The largest submission (a Feral Hogs table with both memories is about 2.5 MB of JSON).
MAX_SUBMISSION = 4 * 1024 * 1024
#: Submissions a token may make in :data:`RATE_WINDOW` seconds (429 beyond).
RATE_LIMIT, RATE_WINDOW = 10, 60.0
#: Seconds between commits of finished pairs (and leaderboard updates) while scoring.
FLUSH_SECONDS = 0.25


class Scorer:
    """The thread that scores what the entries bring: woken by each submission, it runs the
    round robin of every entry with the recorded pairs known, so only new pairs are computed."""

    def __init__(self, ledger: Ledger, family: Any, game: Any, *, threshold: float, jobs: int = 1,
                 backend: str = "local", scheduler: Optional[str] = None,
                 changed: Callable[[], None] = lambda: None):
        self.ledger, self.family, self.game = ledger, family, game
        self.threshold, self.jobs, self.backend, self.scheduler = threshold, jobs, backend, scheduler
        self.changed = changed
        self.wake, self.stopping = threading.Event(), threading.Event()
        self.result: Optional[TournamentResult] = None  # the last finished round robin (settled exactly)
        self.scored: List[str] = []  # the digests of its entries, in its order
        self.busy = False
        self.error = ""
        self.thread = threading.Thread(target=self._loop, name="contest-scorer", daemon=True)

    def start(self) -> None:
        """Score what is pending now, then whatever each submission brings."""
        self.wake.set()
        self.thread.start()

    def stop(self) -> None:
        """Stop after the block under way."""
        self.stopping.set()
        self.wake.set()

    def _loop(self) -> None:
        while not self.stopping.is_set():
            self.wake.wait()
            self.wake.clear()
            if self.stopping.is_set():
                return
            self.busy = True
            try:
                self.score()
                self.error = ""
            except HogsolveError as exc:  # an entry the family cannot score: said on the page, not raised
                self.error = str(exc)
            finally:
                self.busy = False
            self.changed()

    def score(self) -> None:
        """One round robin of the entries as they are now, new pairs committed as they finish."""
        entries = self.ledger.entries()
        if len(entries) < 2:
            self.result, self.scored = None, []
            return
        digests = [e["digest"] for e in entries]
        pending: List[tuple] = []
        last = [time.monotonic()]

        def flush() -> None:
            if pending:
                self.ledger.record(pending)
                pending.clear()
                self.changed()
            last[0] = time.monotonic()

        def on_pair(pair) -> None:
            i, j, first, second = pair
            pending.append((digests[i], digests[j], float(first), float(second)))
            if time.monotonic() - last[0] >= FLUSH_SECONDS:
                flush()
        strategies = [self.family.tabulated(self.game, e["table"]) for e in entries]
        result = self.family.tournament(strategies, self.game, names=[e["team"] for e in entries],
                                        known=self.ledger.known(digests), on_pair=on_pair, jobs=self.jobs,
                                        backend=self.backend, scheduler=self.scheduler, threshold=self.threshold)
        flush()
        self.result, self.scored = result, digests


class Broadcast:
    """The leaderboards open over WebSockets; each change sends them the standings once."""

    def __init__(self) -> None:
        self.sockets: Set[WebSocket] = set()
        self.loop: Optional[asyncio.AbstractEventLoop] = None
        self.pending = False

    def changed_from_any_thread(self, standings: Callable[[], dict]) -> None:
        """Schedule one send of the standings (changes that come while one waits share it)."""
        loop = self.loop
        if loop is None or self.pending:
            return
        self.pending = True
        loop.call_soon_threadsafe(lambda: asyncio.ensure_future(self._send(standings)))

    async def _send(self, standings: Callable[[], dict]) -> None:
        self.pending = False
        text = json.dumps(await asyncio.to_thread(standings))
        for socket in list(self.sockets):
            try:
                await asyncio.wait_for(socket.send_text(text), timeout=5.0)
            except Exception:  # noqa: BLE001 - a client that left or stalls is dropped, never raised
                self.sockets.discard(socket)


class Contest:
    """The contest's state behind the routes: the ledger, the game, the scorer, the leaderboards."""

    def __init__(self, data: Path, game: Any, *, threshold: float = 0.5, jobs: int = 1, backend: str = "local",
                 scheduler: Optional[str] = None, past: Sequence[Path] = ()):
        self.ledger = Ledger(Path(data) / "contest.sqlite")
        self.game = game
        self.family = family_of_game(game)
        self.threshold = threshold
        self.broadcast = Broadcast()
        self.scorer = Scorer(self.ledger, self.family, game, threshold=threshold, jobs=jobs, backend=backend,
                             scheduler=scheduler, changed=self.changed)
        self.recent: Dict[str, Deque[float]] = collections.defaultdict(collections.deque)
        self.past = [past_contest(path, threshold) for path in past]  # read now: a bad file stops the start
        self.lock = threading.Lock()  # the rate limits
        self.solving = threading.Lock()
        self._solution: Any = None

    def solution(self) -> Any:
        """The game solved once, on the first student's page that needs it (the regret's measure)."""
        with self.solving:
            if self._solution is None:
                self._solution = self.family.solve(self.game)
            return self._solution

    def changed(self) -> None:
        """Tell the leaderboards (from any thread)."""
        self.broadcast.changed_from_any_thread(self.standings)

    # -- what the pages show -------------------------------------------------------

    def matrix(self) -> TournamentResult:
        """The round robin as far as it is scored: the scorer's finished one when it covers every
        entry as they are now, else one of the recorded pairs (unscored pairs NaN, won by nobody)."""
        entries = self.ledger.entries(tables=False)
        names, digests = [e["team"] for e in entries], [e["digest"] for e in entries]
        finished = self.scorer.result
        if finished is not None and self.scorer.scored == digests and finished.names == names:
            return finished  # every pair of the entries as they are, close calls settled exactly
        n = len(entries)
        first = np.full((n, n), np.nan)
        for (i, j), (a_first, a_second) in self.ledger.known(digests).items():
            first[i, j], first[j, i] = a_first, 1.0 - a_second
        return TournamentResult(self.game.name, names, first, self.threshold)

    def standings(self) -> dict:
        """``{"rules", "pairs_done", "pairs_total", "entries": [{"rank", "name", "wins", "mean"}, ...]}``."""
        result = self.matrix()
        n = len(result.names)
        rate = result.rate
        done = int(np.isfinite(rate[np.triu_indices(n, 1)]).sum()) if n else 0
        rows = result.ranking() if n else []
        out = [{"rank": r["rank"], "tied": r["tied"], "name": r["strategy"], "wins": r["wins"],
                "losses": r["losses"], "mean": None if not np.isfinite(r["mean_win_rate"]) else r["mean_win_rate"]}
               for r in rows]
        return {"rules": self.game.name, "goal": int(self.game.goal), "threshold": self.threshold, "at": time.time(),
                "pairs_done": done, "pairs_total": n * (n - 1) // 2, "scoring": self.scorer.busy,
                "deadline": self.ledger.setting("deadline"), "frozen": self.ledger.setting("frozen") == "1",
                "entries": out, "error": self.scorer.error}

    def past_standings(self) -> List[dict]:
        """Earlier contests' standings, as :meth:`standings` gives the live one."""
        return [{"title": title, "rules": result.rules,
                 "entries": [{"rank": r["rank"], "tied": r["tied"], "name": r["strategy"], "wins": r["wins"],
                              "losses": r["losses"], "mean": r["mean_win_rate"]} for r in result.ranking()]}
                for title, result in self.past]

    # -- submitting ----------------------------------------------------------------

    def submit(self, token: Any, body: dict) -> dict:
        """Check, commit and queue one submission (see the module docstring)."""
        owner = self.ledger.owner_of(token)
        with self.lock:
            now = time.monotonic()
            recent = self.recent[owner]
            while recent and now - recent[0] > RATE_WINDOW:
                recent.popleft()
            if len(recent) >= RATE_LIMIT:
                raise GameError(429, f"at most {RATE_LIMIT} submissions a minute; wait and send the latest")
            recent.append(now)
        unknown = set(body) - {"name", "table"}
        if unknown:
            raise GameError(400, f"a submission holds name and table, not {sorted(unknown)[0][:40]}")
        team = check_team(body.get("name", owner))
        table = check_table(self.game, body.get("table"))
        entry = self.ledger.submit(owner, team, table, self.game)
        n = len(self.ledger.entries(tables=False))
        self.scorer.wake.set()
        return {"accepted": True, "owner": owner, "name": team, "digest": entry["digest"],
                "queue": 1 + int(self.scorer.busy), "pairs_new": max(n - 1, 0)}

    def me(self, token: Any) -> dict:
        """A student's own page: their entry's exact win rate against the optimal strategy, its
        costliest states and how each pair went."""
        owner = self.ledger.owner_of(token)
        entries = self.ledger.entries()
        mine = next((k for k, e in enumerate(entries) if e["owner"] == owner), None)
        if mine is None:
            return {"owner": owner, "entry": None}
        entry = entries[mine]
        strategy = self.family.tabulated(self.game, entry["table"])
        optimal = self.family.optimal(self.game, allow_unproven=True)
        rate = self.family.win_rate(strategy, optimal, self.game)
        regret = self.family.regret(strategy, self.game, solution=self.solution())
        worst = regret.worst(10)
        memory = (0,) * len(self.game.context_shape)  # Feral Hogs: the maps at both memories 0, as the lab opens
        maps = choice_maps(self.family, self.game, optimal, self.family.table_of(strategy, self.game),
                           regret.loss * regret.reach, memory)
        result = self.matrix()
        pairs = [{"against": result.names[j], "win_rate": None if not np.isfinite(result.rate[mine, j])
                  else float(result.rate[mine, j]),
                  "won": bool(result.rate[mine, j] > self.threshold) if np.isfinite(result.rate[mine, j]) else None}
                 for j in range(len(result.names)) if j != mine]
        return {"owner": owner, "entry": {"name": entry["team"], "digest": entry["digest"],
                                          "against_optimal": rate.to_dict(), "worst_states": worst,
                                          "state_columns": list(self.game.state_axes), "pairs": pairs,
                                          "maps": maps, "goal": int(self.game.goal)}}

    # -- staff ---------------------------------------------------------------------

    def report_page(self) -> str:
        """The self-contained report page of the standings (``tournament --report``'s), each entry's
        exact win rate against the optimal strategy beside it."""
        result = self.matrix()
        entries = self.ledger.entries()
        record = {**result.to_dict(), "skipped": [], "left_out": []}  # ranked in result.order
        policies = [self.family.tabulated(self.game, entries[i]["table"]) for i in result.order]
        return report_html(record, goal=int(self.game.goal), against_optimal=against_optimal(policies, self.family,
                                                                                             self.game))

    def export_rows(self) -> List[dict]:
        """Every scored pair, in ``hogsolve tournament --out``'s columns."""
        entries, result = self.ledger.entries(tables=False), self.matrix()
        rows = []
        for i in range(len(entries)):
            for j in range(i + 1, len(entries)):
                first, second = result.first[i, j], 1.0 - result.first[j, i]
                if not (np.isfinite(first) and np.isfinite(second)):
                    continue
                rows.append(pair_row(self.game, (entries[i]["team"], entries[i]["digest"]),
                                     (entries[j]["team"], entries[j]["digest"]), float(first), float(second)))
        return rows


def bearer(request: Any) -> Optional[str]:
    """The token of an ``Authorization: Bearer ...`` header."""
    header = request.headers.get("authorization", "")
    kind, _, token = header.partition(" ")
    return token.strip() if kind.lower() == "bearer" and token.strip() else None


def create_contest_app(contest: Contest, access: Access) -> Guard:
    """The contest's web app behind the guard (Host, Origin and body-size checks of the GUI)."""

    async def standings(request: Request) -> Response:
        return json_reply(await asyncio.to_thread(contest.standings))

    async def matrix(request: Request) -> Response:
        result = await asyncio.to_thread(contest.matrix)
        rate = [[None if not np.isfinite(x) else float(x) for x in row] for row in result.rate]
        return json_reply({"teams": result.names, "winrate_mat": rate})

    async def past(request: Request) -> Response:
        return json_reply(contest.past_standings())

    async def submit(request: Request) -> Response:
        body = await read_json(request, MAX_SUBMISSION)
        try:
            answer = await asyncio.to_thread(contest.submit, bearer(request), body)
        except NotAllowed as exc:
            raise GameError(403 if bearer(request) else 401, str(exc)) from None
        except ContestClosed as exc:
            raise GameError(423, str(exc)) from None
        return json_reply(answer, 202)

    async def me(request: Request) -> Response:
        try:
            return json_reply(await asyncio.to_thread(contest.me, bearer(request)))
        except NotAllowed as exc:
            raise GameError(403 if bearer(request) else 401, str(exc)) from None

    def staff(request: Request) -> None:
        if not contest.ledger.is_staff(bearer(request)):
            raise GameError(403, "this needs the staff token the server printed")

    async def freeze(request: Request) -> Response:
        staff(request)
        body = await read_json(request)
        if not isinstance(body.get("frozen"), bool):
            raise GameError(400, 'send {"frozen": true} or {"frozen": false}')
        contest.ledger.set("frozen", "1" if body["frozen"] else "0")
        contest.changed()
        return json_reply({"frozen": body["frozen"]})

    async def remove(request: Request) -> Response:
        staff(request)
        body = await read_json(request)
        owner = body.get("owner")
        if not isinstance(owner, str) or not contest.ledger.remove(owner):
            raise GameError(404, "no entry of that student")
        contest.scorer.wake.set()
        return json_reply({"removed": owner})

    async def export(request: Request) -> Response:
        staff(request)
        text = results_csv(await asyncio.to_thread(contest.export_rows))
        return Response(text, media_type="text/csv", headers={"Cache-Control": "no-store"})

    async def report(request: Request) -> Response:
        staff(request)
        page = await asyncio.to_thread(contest.report_page)
        keep = {"Cache-Control": "no-store", "Content-Disposition": 'attachment; filename="report.html"'}
        return Response(page, media_type="text/html; charset=utf-8", headers=keep)  # its script runs from a file

    async def live(socket: WebSocket) -> None:
        await socket.accept()
        contest.broadcast.loop = asyncio.get_running_loop()
        contest.broadcast.sockets.add(socket)
        try:
            await socket.send_text(json.dumps(await asyncio.to_thread(contest.standings)))
            while True:
                await socket.receive_text()  # nothing is asked: this only notices the client leaving
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            contest.broadcast.sockets.discard(socket)

    def page(file: str) -> Callable:
        async def serve_page(request: Request) -> Response:
            return FileResponse(STATIC / file, headers={"Cache-Control": "no-cache"})
        return serve_page

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        contest.broadcast.loop = asyncio.get_running_loop()
        contest.scorer.start()
        yield
        contest.scorer.stop()

    routes = [
        Route("/", page("contest.html"), methods=["GET"]),
        Route("/me", page("contest_me.html"), methods=["GET"]),
        Route("/api/standings", standings, methods=["GET"]),
        Route("/api/matrix", matrix, methods=["GET"]),
        Route("/api/past", past, methods=["GET"]),
        Route("/api/submit", submit, methods=["POST"]),
        Route("/api/me", me, methods=["GET"]),
        Route("/api/staff/freeze", freeze, methods=["POST"]),
        Route("/api/staff/remove", remove, methods=["POST"]),
        Route("/api/staff/export.csv", export, methods=["GET"]),
        Route("/api/staff/report.html", report, methods=["GET"]),
        WebSocketRoute("/api/live", live),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    handlers: Dict[Any, Any] = {GameError: game_error, HogsolveError: refused, HTTPException: http_error,
                                Exception: server_error}
    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan)
    return Guard(app, access, max_body=MAX_SUBMISSION)



class ContestServer:
    """The contest served by uvicorn: ``run()`` in this thread, or ``with ContestServer(...)`` in
    one of its own (tests).  Bound to ``host`` (127.0.0.1 unless told otherwise; any other
    address only with ``public_name``, the name a reverse proxy that terminates HTTPS serves it
    under)."""

    def __init__(self, contest: Contest, host: str = "127.0.0.1", port: int = 0, *,
                 public_name: Optional[str] = None, limits: Optional[dict] = None):
        import socket

        import uvicorn

        from .protocol import config
        from .server import LOOPBACK, local_addresses
        if host not in LOOPBACK and not public_name:
            raise HogsolveError(f"the contest binds to {host} only behind a reverse proxy that terminates HTTPS: "
                                "give --public-name NAME (the name students open), or bind to 127.0.0.1")
        self.contest, self.host = contest, host
        self.sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, port))
        self.sock.listen(512)
        self.port = self.sock.getsockname()[1]
        access = Access.for_addresses(local_addresses(host), self.port)
        if public_name:
            access = Access(access.hosts + (public_name,))
            access.origins = access.origins + (f"https://{public_name}",)
        self.public_name = public_name
        self.app = create_contest_app(contest, access)
        self.server = uvicorn.Server(config(self.app, host, self.port, **(limits or {})))
        self.thread: Optional[threading.Thread] = None

    @property
    def url(self) -> str:
        """The leaderboard's address."""
        return f"https://{self.public_name}/" if self.public_name else f"http://127.0.0.1:{self.port}/"

    def run(self) -> None:
        """Serve until interrupted."""
        try:
            self.server.run(sockets=[self.sock])
        finally:
            self.sock.close()

    def __enter__(self) -> "ContestServer":
        from .server import serve_in_thread
        self.thread = serve_in_thread(self.server, self.sock)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        if self.thread is not None:
            self.thread.join(timeout=30)
        self.sock.close()
