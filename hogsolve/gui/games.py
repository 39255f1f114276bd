"""Games of a person against the optimal bot, kept on the server by id.

Only the rules of the game live here; :mod:`hogsolve.gui.server` speaks
HTTP.  Every game has its own seeded dice, so games never interfere.
"""
from __future__ import annotations

import math
import random
import secrets
import threading
import time
from collections import OrderedDict
from typing import Optional

from ..strategy.optimal import optimal_strategy
from ..hog.rules import Ruleset, UnknownRulesetError, get_rules
from ..sessions.hog import Session, SessionError



class GameError(Exception):
    """A request that cannot be honoured: carries the HTTP status to answer with."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class WebGame:
    """One game kept by the server: a :class:`~hogsolve.sessions.hog.Session` with an id and a lock."""

    def __init__(self, game_id: str, rules: Ruleset, bot, you_first: bool, seed: int):
        self.id, self.rules, self.seed = game_id, rules, seed
        self.session = Session(rules, bot, you_first, seed)
        self.lock = threading.Lock()
        self.session.bot_moves()

    def play(self, num_dice: int) -> None:
        """The person rolls ``num_dice``; the bot answers until it is the person's turn."""
        with self.lock:
            try:
                self.session.play(num_dice)
            except SessionError as exc:
                raise GameError(409, str(exc)) from None  # the server checked the dice count already
            self.session.bot_moves()

    def hint(self) -> dict:
        """The optimal move and every count's value on your turn; ``best`` None otherwise
        (a page may ask just as the turn passes: that is no error)."""
        with self.lock:
            hint = self.session.hint()
            if hint is None:
                return {"best": None, "values": [], "to_move": self.session.to_move,
                        "winner": self.session.winner}
            # a move the rules forbid (Neller's Hog's 0 dice) is worth -inf: null in JSON, never a 500
            return {**hint, "values": [round(v, 6) if math.isfinite(v) else None for v in hint["values"]]}

    def state(self) -> dict:
        """Everything the page needs to draw the game, as JSON-ready values."""
        with self.lock:
            session = self.session
            you, bot = session.match.scores
            sides = int(self.rules.dice_sides(you, bot)) if session.to_move == "you" else None
            return {"id": self.id, "rules": self.rules.name, "goal": self.rules.goal,
                    "max_dice": self.rules.max_dice, "min_dice": int(self.rules.min_dice), "scores": session.scores,
                    "to_move": session.to_move, "winner": session.winner, "dice_sides": sides,
                    "turns": session.log, "win_probability": session.history, "seed": self.seed}


def canonical(name) -> Optional[str]:
    """The built-in ruleset a name or semester stands for, in any case (``SP23`` -> ``fa22``);
    None for anything else."""
    if not isinstance(name, str):
        return None
    try:
        return get_rules(name).name
    except (UnknownRulesetError, ValueError):
        return None


class GameStore:
    """The server's games by id, thread-safe and bounded.

    At most ``max_games`` are kept; the least recently used goes first, and
    a game idle for ``idle_seconds`` expires.  An expired game answers 404
    with a message the page shows.
    """

    def __init__(self, default_rules: str = "su18", max_games: int = 1000, idle_seconds: float = 6 * 3600,
                 clock=time.monotonic):
        self.default_rules = canonical(default_rules) or default_rules  # sp23 is fa22 in the page
        self.max_games, self.idle_seconds, self.clock = max_games, idle_seconds, clock
        self.games: "OrderedDict[str, WebGame]" = OrderedDict()
        self.used: dict = {}
        self.bots: dict = {}
        self.lock = threading.Lock()

    def bot(self, name: str):
        """The optimal bot of a ruleset, loaded once."""
        with self.lock:
            if name not in self.bots:
                self.bots[name] = optimal_strategy(get_rules(name), allow_unproven=True)  # sp22 too, as before
            return self.bots[name]

    def _expire(self) -> None:
        """Drop idle games, then the least recently used beyond the cap (lock held)."""
        now = self.clock()
        while self.games:
            oldest = next(iter(self.games))
            if now - self.used[oldest] <= self.idle_seconds and len(self.games) <= self.max_games:
                break
            del self.games[oldest], self.used[oldest]

    def create(self, rules_name: str, you_first: bool, seed: Optional[int] = None) -> WebGame:
        """A new game, kept under a fresh random id (the oldest may make room)."""
        rules = get_rules(rules_name)
        seed = seed if seed is not None else random.SystemRandom().randrange(2 ** 32)
        game_id = secrets.token_hex(8)
        game = WebGame(game_id, rules, self.bot(rules_name), you_first, seed)
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
