"""The browser's games, kept on the server by id: a person against the optimal bot at Hog or a
roll-or-hold game, or against the bank at Sibala.

Only the games live here; :mod:`hogsolve.gui.app` speaks HTTP.  Every game
has its own seeded dice, so games never interfere.  Bots come from
:class:`Bots`, which loads each once, one at a time, off the event loop.
"""
from __future__ import annotations

import asyncio
import random
import secrets
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Dict, Optional

from ..families import FAMILIES, GameFamily, family_of
from ..hog.rules import Ruleset
from ..sessions.web import SIBALA, GameError, SibalaWebGame, WebGame
from ..util.plain import finite

__all__ = ["Bots", "Catalog", "GameError", "GameStore", "WebGame", "finite"]


class Catalog:
    """Every game the page offers, by name: the built-in Hog rulesets (semester names
    stand for the ruleset they share), rule files given on the command line, the
    roll-or-hold games, and Sibala."""

    def __init__(self, rule_files: Optional[Dict[str, Ruleset]] = None):
        self.rule_files = dict(rule_files or {})

    def family(self, name: str) -> Optional[GameFamily]:
        """The family of a canonical name; None for Sibala, which has no decisions to solve
        (a rule file's name: Hog's, as no family owns it)."""
        return None if name == SIBALA else family_of(name)

    def canonical(self, name) -> Optional[str]:
        """The name a game is kept under (``SP23`` -> ``fa22``, ``PIG`` -> ``pig``); None for
        anything else."""
        if not isinstance(name, str) or len(name) > 80:
            return None
        if name in self.rule_files:
            return name
        if name.lower() == SIBALA:
            return SIBALA
        return family_of(name).canonical(name)  # a name no family owns: Hog's, which refuses it

    def rules(self, name: str):
        """The rules object of a canonical name (a Ruleset or a PigGame; None for Sibala)."""
        if name in self.rule_files:
            return self.rule_files[name]
        family = self.family(name)
        return None if family is None else family.game(name, None)

    def listing(self) -> list:
        """What the page's select lists: name, family, description, caveat, semesters."""
        families = list(FAMILIES.values())
        out = families[0].listing()  # Hog's rulesets, then the rule files, then every other family's games
        out += [{"name": name, "family": r.family, "description": f"rule file: {r.description}", "caveat": "",
                 "semesters": []} for name, r in self.rule_files.items()]
        for family in families[1:]:
            out += family.listing()
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
        family = self.catalog.family(name)
        if family is None:
            raise GameError(404, f"{name} has no bot: nobody decides anything")
        return family.web_bot(self.catalog.rules(name))

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
        game: WebGame = SibalaWebGame(game_id, seed) if family is None else \
            family.web_game(game_id, name, seed, rules, bot, you_first)
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
