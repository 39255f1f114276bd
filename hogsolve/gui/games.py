"""The browser's games, kept on the server by id: a person against the optimal bot at Hog or a
roll-or-hold game, or against the bank at Sibala.

Only the games live here; :mod:`hogsolve.gui.app` speaks HTTP.  Every game
has its own seeded dice, so games never interfere.  Bots come from
:class:`Bots`, which loads each once, one at a time, off the event loop.
"""
from __future__ import annotations

from ..errors import HogsolveError
import asyncio
import math
import random
import secrets
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable, Dict, Optional

from ..families import FAMILIES, family_of
from ..hog.rules import NO_VALUE, Ruleset, get_rules, rulesets
from ..pig.rules import PIG_GAMES
from ..sessions.hog import Session, SessionError
from ..sessions.pig import PigSession
from ..sessions.sibala import SibalaSession
from ..strategy.optimal_bot import optimal_strategy
from ..strategy.pig import pig_bot

SIBALA = "sibala"


class GameError(HogsolveError):
    """A request that cannot be honoured: carries the HTTP status to answer with."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def finite(x) -> Optional[float]:
    """A probability for JSON: rounded, and None rather than a non-standard NaN or infinity."""
    x = float(x)
    return round(x, 6) if math.isfinite(x) else None


class Catalog:
    """Every game the page offers, by name: the built-in Hog rulesets (semester names
    stand for the ruleset they share), rule files given on the command line, the
    roll-or-hold games, and Sibala."""

    def __init__(self, rule_files: Optional[Dict[str, Ruleset]] = None):
        self.rule_files = dict(rule_files or {})

    def family(self, name: str) -> str:
        """``"hog"``, ``"roll-or-hold"`` or ``"sibala"`` for a canonical name."""
        return SIBALA if name == SIBALA else family_of(name).name  # a rule file's name: Hog's, as no family owns it

    def canonical(self, name) -> Optional[str]:
        """The name a game is kept under (``SP23`` -> ``fa22``, ``PIG`` -> ``pig``); None for
        anything else."""
        if not isinstance(name, str) or len(name) > 80:
            return None
        if name in self.rule_files:
            return name
        low = name.lower()
        if low == SIBALA or low in PIG_GAMES:
            return low
        try:
            return get_rules(name).name
        except HogsolveError:
            return None

    def rules(self, name: str):
        """The rules object of a canonical name (a Ruleset or a PigGame; None for Sibala)."""
        if name in self.rule_files:
            return self.rule_files[name]
        return None if name == SIBALA else FAMILIES[self.family(name)].game(name, None)

    def listing(self) -> list:
        """What the page's select lists: name, family, description, caveat, semesters."""
        from ..hog.rules import ALIASES
        semesters: Dict[str, list] = {}
        for alias, target in ALIASES.items():
            semesters.setdefault(get_rules(target).name, []).append(alias)
        out = [{"name": r.name, "family": r.family, "description": r.description, "caveat": NO_VALUE.get(r.name, ""),
                "semesters": sorted(semesters.get(r.name, []))} for r in rulesets().values()]
        out += [{"name": name, "family": r.family, "description": f"rule file: {r.description}", "caveat": "",
                 "semesters": []} for name, r in self.rule_files.items()]
        out += [{"name": g.name, "family": g.family, "description": g.description, "caveat": "",
                 "semesters": []} for g in PIG_GAMES.values()]
        out.append({"name": SIBALA, "family": SIBALA, "description": "Sibala (十八啦): four dice against the bank",
                    "caveat": "", "semesters": []})
        return out


class Bots:
    """Each game's optimal bot, loaded once however many ask, one load at a time, in a worker
    thread (a shipped table takes milliseconds; a rule file or sp22 is solved)."""

    def __init__(self, catalog: Catalog, clock=time.monotonic):
        self.catalog, self.clock = catalog, clock
        self.jobs: Dict[str, Future] = {}
        self.started: Dict[str, float] = {}
        self.lock = threading.Lock()
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hogsolve-bots")

    def _load(self, name: str):
        return BOTS[self.catalog.family(name)](self.catalog.rules(name))

    def job(self, name: str) -> Future:
        """The load of ``name``'s bot, started if nobody has asked before."""
        with self.lock:
            if name not in self.jobs:
                self.started[name] = self.clock()
                self.jobs[name] = self.worker.submit(self._load, name)
            return self.jobs[name]

    def get(self, name: str):
        """The bot, or None while it is still being prepared (never waits)."""
        job = self.job(name)
        return job.result() if job.done() else None

    async def wait(self, name: str, seconds: float):
        """The bot, or None if it is still being prepared after ``seconds`` (the event loop
        serves everyone else meanwhile)."""
        job = asyncio.wrap_future(self.job(name))
        try:
            return await asyncio.wait_for(asyncio.shield(job), seconds)
        except asyncio.TimeoutError:
            return None

    def progress(self, name: str) -> dict:
        """What the page shows while a bot is prepared."""
        return {"preparing": name, "seconds": round(self.clock() - self.started.get(name, self.clock()), 1)}


class WebGame:
    """One game kept by the server: its session, its id, a lock; subclasses say how to move."""

    family = ""

    def __init__(self, game_id: str, name: str, seed: int):
        self.id, self.name, self.seed = game_id, name, seed
        self.seed_chosen = False  # the client gave the seed: it knows the dice already
        self.lock = threading.Lock()

    def _move(self, body: dict) -> None:
        raise NotImplementedError

    def _state(self) -> dict:
        raise NotImplementedError

    def _hint(self) -> dict:
        raise NotImplementedError

    def move(self, body: dict) -> None:
        """Apply the person's move given in a request body (then the bot's answer)."""
        with self.lock:
            try:
                self._move(body)
            except SessionError as exc:
                raise GameError(409, str(exc)) from None

    def state(self) -> dict:
        """Everything the page needs to draw the game, as JSON-ready values.  The seed, which
        predicts every roll, only once the game is over (for a replay), or when the client
        chose it."""
        with self.lock:
            body = self._state()
            shown = self.seed_chosen or body.get("winner") is not None
            return {"id": self.id, "family": self.family, "rules": self.name,
                    **({"seed": self.seed} if shown else {}), **body}

    def hint(self) -> dict:
        """The optimal move on the person's turn (``best`` None otherwise: no error, the page may
        ask just as the turn passes)."""
        with self.lock:
            return self._hint()


class HogWebGame(WebGame):
    """Hog against the optimal bot."""

    family = "hog"

    def __init__(self, game_id: str, name: str, seed: int, rules: Ruleset, bot, you_first: bool):
        super().__init__(game_id, name, seed)
        self.rules = rules
        self.session = Session(rules, bot, you_first, seed)
        self.session.bot_moves()

    def _move(self, body: dict) -> None:
        dice = body.get("dice")
        least, most = int(self.rules.min_dice), int(self.rules.max_dice)
        if isinstance(dice, bool) or not isinstance(dice, int) or not least <= dice <= most:
            raise GameError(400, f"dice must be a whole number from {least} to {most}, got {dice!r}")
        self.session.play(dice)
        self.session.bot_moves()

    def _state(self) -> dict:
        session = self.session
        you, bot = session.match.scores
        mover = session.to_move
        sides = int(self.rules.dice_sides(you, bot)) if mover == "you" else None
        memories = None
        if self.rules.history is not None and mover is not None:
            memories = [int(m) for m in self.rules.context_index(session.match.context())]  # the mover's first
        return {"goal": int(self.rules.goal), "max_dice": int(self.rules.max_dice),
                "min_dice": int(self.rules.min_dice), "scores": session.scores, "to_move": mover,
                "winner": session.winner, "dice_sides": sides, "memories": memories,
                "memory_size": self.rules.context_shape[0] if self.rules.history is not None else None,
                "turns": session.log, "win_probability": [finite(p) for p in session.history]}

    def _hint(self) -> dict:
        hint: Any = self.session.hint()
        if hint is None:
            return {"best": None, "values": [], "to_move": self.session.to_move, "winner": self.session.winner}
        return {**hint, "values": [finite(v) for v in hint["values"]]}  # a forbidden move: null, never a 500


class PigWebGame(WebGame):
    """A roll-or-hold game against the optimal bot."""

    family = "roll-or-hold"

    def __init__(self, game_id: str, name: str, seed: int, game, bot, you_first: bool):
        super().__init__(game_id, name, seed)
        self.game = game
        self.session = PigSession(game, bot, you_first, seed)
        self.history = [self.session.your_win_probability()]
        self.session.bot_moves()
        self.history.append(self.session.your_win_probability())

    def _move(self, body: dict) -> None:
        action = body.get("action")
        if action not in ("roll", "hold"):
            raise GameError(400, f"action must be 'roll' or 'hold', got {action!r}")
        self.session.play(action)
        self.session.bot_moves()
        self.history.append(self.session.your_win_probability())

    def _state(self) -> dict:
        s = self.session
        return {"goal": int(self.game.goal), "scores": s.scores, "to_move": s.to_move, "winner": s.winner,
                "turn_total": s.turn_total, "log": s.log, "dice_per_roll": self.game.dice_per_roll(),
                "coin": self.game.roll == "coin", "win_probability": [finite(p) for p in self.history]}

    def _hint(self) -> dict:
        hint = self.session.hint()
        if hint is None:
            return {"best": None, "to_move": self.session.to_move, "winner": self.session.winner}
        return {**hint, "roll": finite(hint["roll"]), "hold": None if hint["hold"] is None else finite(hint["hold"])}


class SibalaWebGame(WebGame):
    """Sibala against the bank: each move is the next roll."""

    family = SIBALA

    def __init__(self, game_id: str, seed: int):
        super().__init__(game_id, SIBALA, seed)
        self.session = SibalaSession(seed)

    def _move(self, body: dict) -> None:
        if body.get("action") != "roll":
            raise GameError(400, f"action must be 'roll', got {body.get('action')!r}")
        self.session.step()

    def _state(self) -> dict:
        return self.session.state()

    def _hint(self) -> dict:
        return {"best": "roll", "odds": self.session.odds()}


class GameStore:
    """The server's games by id, thread-safe and bounded.

    At most ``max_games`` are kept; the least recently used goes first, and
    a game idle for ``idle_seconds`` expires.  An expired game answers 404
    with a message the page shows.
    """

    def __init__(self, catalog: Catalog, bots: Bots, default_rules: str = "su18", max_games: int = 1000,
                 idle_seconds: float = 6 * 3600, clock=time.monotonic):
        self.catalog, self.bots = catalog, bots
        self.default_rules = catalog.canonical(default_rules) or default_rules  # sp23 is fa22 in the page
        self.max_games, self.idle_seconds, self.clock = max_games, idle_seconds, clock
        self.games: "OrderedDict[str, WebGame]" = OrderedDict()
        self.used: dict = {}
        self.lock = threading.Lock()

    def _expire(self) -> None:
        """Drop idle games, then the least recently used beyond the cap (lock held)."""
        now = self.clock()
        while self.games:
            oldest = next(iter(self.games))
            if now - self.used[oldest] <= self.idle_seconds and len(self.games) <= self.max_games:
                break
            del self.games[oldest], self.used[oldest]

    def create(self, name: str, you_first: bool, seed: Optional[int], bot) -> WebGame:
        """A new game of the canonical ``name`` with its (ready) bot, under a fresh random id; the
        seed, unless the client chose it, stays on the server until the game is over."""
        chosen = seed is not None
        seed = seed if seed is not None else random.SystemRandom().randrange(2 ** 32)
        game_id = secrets.token_hex(8)
        family = self.catalog.family(name)
        rules = self.catalog.rules(name)
        game: WebGame = SibalaWebGame(game_id, seed) if family == SIBALA else \
            WEB_GAMES[family](game_id, name, seed, rules, bot, you_first)
        game.seed_chosen = chosen
        with self.lock:
            self.games[game_id] = game
            self.used[game_id] = self.clock()
            self._expire()
        return game

    def get(self, game_id: str) -> WebGame:
        """The game ``game_id``, marked as just used; 404 if it expired or never was."""
        with self.lock:
            self._expire()
            game = self.games.get(game_id)
            if game is not None:
                self.games.move_to_end(game_id)
                self.used[game_id] = self.clock()
        if game is None:
            raise GameError(404, f"game {game_id} has expired or never existed; start a new one")
        return game


#: Each family's optimal bot for the page (a Hog ruleset without a proven value, sp22, plays with
#: its caveat) and its kind of game (:mod:`hogsolve.families`).
BOTS: Dict[str, Callable[[Any], Any]] = {"hog": lambda rules: optimal_strategy(rules, allow_unproven=True),
                                         "roll-or-hold": pig_bot}
WEB_GAMES = {"hog": HogWebGame, "roll-or-hold": PigWebGame}
