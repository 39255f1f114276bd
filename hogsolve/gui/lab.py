"""The strategy lab: one student file's strategy against the optimum, recomputed on every save.

A :class:`Lab` holds the one file named on ``hogsolve lab``'s command line (never a
path from a request).  :meth:`Lab.evaluate` runs it in the same isolated child process
``hogsolve compare`` uses and works out, with the same calls as the command line:

- the exact win rate in each seat and the average against the optimal player (what
  ``hogsolve compare FILE optimal`` prints) and the best response's win rate against it;
- the strategy's map, the optimal map and where they differ, coloured by the expected
  loss there (loss x reach, the numbers of ``hogsolve regret``), with the top states;
- on request, one state's every action and its exact win probability, and a seeded game
  of the strategy against the optimal bot with every rule that fired.

A failed run (a syntax error, an exception, a bad answer, a loop) keeps the last good
figures, marked stale, beside the same one-line message as the command line.
"""
from __future__ import annotations

import asyncio
import contextlib
import math
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import api
from ..errors import HogsolveError, InputError
from ..families import family_of_game
from ..strategy.userfile import DEFAULT_TIMEOUT, tabulate_table
from .games import GameError
from .sockets import receive_json

#: How many of the costliest states the page lists (``hogsolve regret --top`` shows the same).
TOP = 10


def choice_maps(family: Any, game: Any, optimal: Any, table: np.ndarray, expected: np.ndarray,
                memory: Tuple[int, ...]) -> Dict[str, Any]:
    """The three maps of a strategy's ``table`` against ``optimal`` as the pages draw them
    (common.js's ``drawChoiceMaps``): its choices, the optimal ones and the ``expected`` loss
    as ``[score][opponent]`` lists at ``memory`` (Feral Hogs), and what the choices count."""
    mine, best, cost = family.lab_maps(game, optimal, table, expected, memory)
    return {"strategy": np.asarray(mine).astype(int).tolist(), "optimal": np.asarray(best).astype(int).tolist(),
            "loss": [[x if math.isfinite(x) else None for x in row] for row in np.asarray(cost, dtype=float).tolist()],
            "memory": list(memory), "unit": family.map_unit}


class Lab:
    """The figures of ``path:function`` in ``rules`` (a Ruleset or a PigGame), kept between saves."""

    def __init__(self, path: str, function: str, rules: Any, *, timeout: float = DEFAULT_TIMEOUT):
        self.path, self.function, self.rules = str(path), function, rules
        self.family = family_of_game(rules)
        self.timeout = timeout
        # under Feral Hogs the maps show one slice of memories (both 0 until the page asks), as the policy map does
        self.memory = (0,) * len(rules.context_shape)
        self.optimal = api.optimal_strategy(rules)
        self.solution = api.solve(rules)  # solved once: every run's regret is measured against it
        self.table: Optional[np.ndarray] = None
        self.expected: Optional[np.ndarray] = None  # loss x reach of the last good run, every state
        self.strategy: Any = None
        self.figures: Optional[Dict[str, Any]] = None
        self.error = ""
        self.files: List[Path] = [Path(path).resolve()]
        self.runs = 0
        self.reach: Optional[np.ndarray] = None  # how often the last good run reaches each state
        self.started: Optional[float] = None  # when the run in progress began (None: none is)
        self.finished = ""  # when the last run ended (HH:MM:SS), and how long it took
        self.seconds: Optional[float] = None
        self.lock = threading.Lock()

    @property
    def label(self) -> str:
        """The strategy as the command line names it."""
        return f"{self.path}:{self.function}"

    def watched(self) -> List[Path]:
        """The folders to watch: the file's, and those of every helper module and data file it read."""
        return sorted({p.parent for p in self.files})

    def evaluate(self) -> Dict[str, Any]:
        """Run the file again and recompute every figure; on a failure keep the last good ones
        (marked stale) with the one-line message. Returns :meth:`payload`."""
        with self.lock:
            self.runs += 1
            self.started = time.time()
            try:
                # every save runs the file: a failure cached by an earlier run is not replayed
                table, source, _ = tabulate_table(self.path, self.function, self.rules, timeout=self.timeout,
                                                  retry_failed=True)
                if table.dtype.kind == "f":
                    raise InputError(f"{self.label} gives action probabilities: the lab maps one move a state; "
                                     "its exact win rate as a mixture is in hogsolve compare")
                strategy = self.family.tabulated(self.rules, table)
                figures, expected, reach = self._figures(table, strategy)
            except HogsolveError as error:
                self.error = str(error)
                return self._ended()
            base = Path(self.path).resolve().parent
            self.files = [Path(self.path).resolve()] + [(base / name).resolve() for name in source.get("files", {})]
            self.table, self.strategy, self.figures, self.error = table, strategy, figures, ""
            self.expected, self.reach = expected, reach
            return self._ended()

    def _ended(self) -> Dict[str, Any]:
        """Note when the run ended and how long it took; its payload."""
        if self.started is not None:
            self.seconds = time.time() - self.started
        self.finished, self.started = time.strftime("%H:%M:%S"), None
        return self.payload()

    def payload(self) -> Dict[str, Any]:
        """What the page shows: the figures (None before a first good run), whether they are
        stale (the last run failed), the failure's message, the last run's number, when it ended and
        how long it took, and whether a new run is under way (for how long, in seconds)."""
        running = self.started is not None
        return {"type": "figures", "strategy": self.label, "rules": self.rules.name, "goal": int(self.rules.goal),
                "family": self.family.name, "average_label": self.rules.average_label, "figures": self.figures,
                "stale": bool(self.error and self.figures),
                "error": self.error, "run": self.runs - running, "time": self.finished,
                "seconds": None if self.seconds is None else round(self.seconds, 2), "running": running,
                "running_for": round(time.time() - self.started, 1) if self.started is not None else None}

    def begin(self) -> Dict[str, Any]:
        """The payload that says a run is starting (sent before :meth:`evaluate` is)."""
        return {**self.payload(), "running": True, "running_for": 0.0}

    def _figures(self, table: np.ndarray, strategy: Any) -> Tuple[Dict[str, Any], np.ndarray, np.ndarray]:
        """The page's figures of one run, its loss x reach and its reach in every state (for other memory
        slices)."""
        rules = self.rules
        # the best response and the regret at once (numpy leaves the lock to the other); the regret
        # carries the strategy's win rate against the optimal player, compare's figures
        with ThreadPoolExecutor(max_workers=2, thread_name_prefix="hogsolve-lab") as pool:
            responding = pool.submit(api.best_response, strategy, rules)
            loss = api.regret(strategy, rules, solution=self.solution)
            response = responding.result()
        against = loss.win_rate
        expected = np.asarray(loss.loss * loss.reach, dtype=float)
        reach = np.asarray(loss.reach, dtype=float)
        return {
            "first": float(against.first), "second": float(against.second), "average": float(against.average),
            "best_response": float(response.win_rate.average), "exploitability": float(response.exploitability),
            "total_expected_loss": float(loss.total_expected_loss),
            "worst": loss.to_dict(top=TOP)["worst_states"],
            "maps": self._maps(table, expected, self.memory, reach),
            "memories": [int(n) for n in rules.context_shape],
        }, expected, reach

    @staticmethod
    def _reached(reach: np.ndarray, memory: Tuple[int, ...]) -> bool:
        """Whether play against the optimal player ever reaches the slice ``memory`` of the maps."""
        where = (slice(None), slice(None)) + tuple(memory)
        return bool(np.any(reach[where[:reach.ndim]] > 0))

    def _maps(self, table: np.ndarray, expected: np.ndarray, memory: Tuple[int, ...],
              reach: np.ndarray) -> Dict[str, Any]:
        """The strategy's map, the optimal map and the expected loss, as ``[score][opponent]``
        grids (:data:`MAPS`) at ``memory`` (Feral Hogs); the loss summed over what the grid does not
        show; and whether play against the optimal player reaches that slice at all."""
        return {**choice_maps(self.family, self.rules, self.optimal, table, expected, memory),
                "reached": self._reached(reach, memory)}

    def maps(self, memory: Tuple[int, ...]) -> Dict[str, Any]:
        """The maps of the last good run at another slice of memories (both players' under Feral Hogs)."""
        if self.table is None or self.expected is None or self.reach is None:
            raise LabError("no maps yet: the file has not run successfully")
        shape = tuple(self.rules.context_shape)
        if len(memory) != len(shape) or not all(0 <= m < n for m, n in zip(memory, shape)):
            raise LabError(f"memory is {len(shape)} whole numbers within {list(shape)}" if shape
                           else f"{self.rules.name} has no memories")
        return self._maps(self.table, self.expected, tuple(memory), self.reach)

    def state(self, where: Tuple[int, ...]) -> Dict[str, Any]:
        """One state: every action's exact win probability against optimal play, the strategy's
        choice and the best one, and the rules that apply there."""
        if self.table is None:
            raise LabError("no figures yet: the file has not run successfully")
        shape = tuple(int(axis.max()) + 1 for axis in self.rules.decision_index())
        if len(where) != len(shape) or not all(0 <= w < n for w, n in zip(where, shape)):
            raise LabError(f"a state is {len(shape)} whole numbers within {list(shape)}")
        return self.family.lab_state(self.rules, self.optimal, np.asarray(self.table), where)

    def game(self, seed: int) -> Dict[str, Any]:
        """A seeded game of the strategy (first to move) against the optimal bot, turn by turn."""
        if self.strategy is None:
            raise LabError("no game yet: the file has not run successfully")
        return self.family.lab_game(self.rules, self.strategy, self.optimal, seed)


class LabError(GameError, ValueError):
    """A lab request that cannot be answered (no good run yet, a state outside the game): 400."""

    def __init__(self, message: str):
        super().__init__(400, message)


async def watch(lab: Lab, publish, stop: asyncio.Event) -> None:
    """Re-run ``lab`` whenever a watched file changes (watchfiles), handing each new payload
    to ``publish``; the folders followed grow with the helpers and data files the file reads."""
    import watchfiles
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        folders = lab.watched()
        wanted = set(lab.files)
        async for changes in watchfiles.awatch(*folders, stop_event=stop, debounce=50, step=20):
            if any(Path(path).resolve() in wanted or path.endswith(".py") for _, path in changes):
                await publish(lab.begin())  # the page says "running" until the figures come
                await publish(await loop.run_in_executor(None, lab.evaluate))
                if lab.watched() != folders:
                    break  # follow the new folders


class LabServer:
    """The lab's routes: the page, its figures (also pushed over a WebSocket after every run),
    one state, one game; and the watcher that re-runs the file on a save."""

    def __init__(self, lab: Lab):
        self.lab = lab
        self.sockets: set = set()
        self.stop = asyncio.Event()
        self.task: Optional[asyncio.Task] = None

    async def start(self) -> None:
        """The first run, then the watcher (in the app's lifespan)."""
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, self.lab.evaluate)
        self.task = asyncio.create_task(watch(self.lab, self.publish, self.stop))

    async def close(self) -> None:
        """Stop watching."""
        self.stop.set()
        if self.task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.task, 5)

    async def publish(self, payload: Dict[str, Any]) -> None:
        """Send ``payload`` to every open lab page."""
        for socket in list(self.sockets):
            try:
                await socket.send_json(payload)
            except Exception:  # a page that left: forgotten
                self.sockets.discard(socket)

    async def figures(self, request: Request) -> JSONResponse:
        """GET /api/lab: the figures of the last run."""
        return _reply(self.lab.payload())

    async def state(self, request: Request) -> JSONResponse:
        """GET /api/lab/state?at=S,O[,M,N]: one state's actions and values."""
        return _reply(self.lab.state(_numbers(request, "at", "10,20")))

    async def maps(self, request: Request) -> JSONResponse:
        """GET /api/lab/maps?memory=A,B: the maps at another slice of memories."""
        return _reply(self.lab.maps(_numbers(request, "memory", "3,5")))

    async def game(self, request: Request) -> JSONResponse:
        """GET /api/lab/game?seed=N: a game of the strategy against the optimal bot."""
        raw = request.query_params.get("seed", "0")
        if not raw.isdigit() or len(raw) > 10:
            raise LabError("seed must be a whole number (0 or more)")
        return _reply(await asyncio.get_running_loop().run_in_executor(None, self.lab.game, int(raw)))

    async def socket(self, websocket: WebSocket) -> None:
        """WS /api/lab/ws: the figures now, then after every run."""
        await websocket.accept()
        self.sockets.add(websocket)
        try:
            await websocket.send_json(self.lab.payload())
            while True:  # the page sends nothing the lab acts on; reading notices it leave
                await receive_json(websocket)
        except WebSocketDisconnect:
            pass
        finally:
            self.sockets.discard(websocket)

    def routes(self) -> list:
        """The lab's routes (the page itself is one of the app's pages)."""
        return [Route("/api/lab", self.figures, methods=["GET"]),
                Route("/api/lab/state", self.state, methods=["GET"]),
                Route("/api/lab/maps", self.maps, methods=["GET"]),
                Route("/api/lab/game", self.game, methods=["GET"]),
                WebSocketRoute("/api/lab/ws", self.socket)]


def _numbers(request: Request, key: str, example: str) -> Tuple[int, ...]:
    """The whole numbers of query parameter ``key`` (``?key=1,2``); a 400 otherwise."""
    try:
        return tuple(int(x) for x in request.query_params.get(key, "").split(","))
    except ValueError:
        raise LabError(f"{key} must be whole numbers separated by commas, like {example}") from None


def _reply(payload: Dict[str, Any]) -> JSONResponse:
    """Plain JSON, never cached (the figures change with every save)."""
    return JSONResponse(payload, headers={"Cache-Control": "no-store"})
