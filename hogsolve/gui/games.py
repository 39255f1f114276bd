"""Games of a person against the optimal bot, kept on the server by id.

Only the rules of the game live here; :mod:`hogsolve.gui.server` speaks
HTTP.  Every game has its own seeded dice, so games never interfere.
"""
from __future__ import annotations

import random
import secrets
import threading
import time
from collections import OrderedDict
from typing import Dict, Optional

from ..game import Match, random_dice
from ..player import optimal_strategy
from ..rules import Ruleset, get_rules

PLAYERS = ("you", "bot")


class GameError(Exception):
    """A request that cannot be honoured: carries the HTTP status to answer with."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class WebGame:
    """One game: the person ("you", player 0) against the optimal bot (player 1)."""

    def __init__(self, game_id: str, rules: Ruleset, bot, you_first: bool, seed: int):
        self.id, self.rules, self.bot, self.seed = game_id, rules, bot, seed
        self.roll = random_dice(seed)
        self.match = Match(rules, first=0 if you_first else 1)
        self.turns: list = []
        self.history = [self.your_win_probability()]
        self.lock = threading.Lock()
        self._bot_moves()

    @property
    def scores(self) -> Dict[str, int]:
        return dict(zip(PLAYERS, self.match.scores))

    @property
    def winner(self) -> Optional[str]:
        return None if self.match.winner is None else PLAYERS[self.match.winner]

    @property
    def to_move(self) -> Optional[str]:
        return None if self.winner is not None else PLAYERS[self.match.mover]

    def your_win_probability(self) -> float:
        """The person's chance of winning from here if both play optimally."""
        if self.winner is not None:
            return 1.0 if self.winner == "you" else 0.0
        p = float(self.bot.win_probability[self.match.state()])
        return p if self.to_move == "you" else 1.0 - p

    def _turn(self, num_dice: int) -> None:
        player = self.to_move
        turn = self.match.move(num_dice, self.roll)
        record = turn.to_dict()
        record.update(player=player, events=turn.events(), scores=self.scores)
        self.turns.append(record)
        self.history.append(self.your_win_probability())

    def _bot_moves(self) -> None:
        while self.to_move == "bot":
            self._turn(self.bot(*self.match.state()))

    def play(self, num_dice: int) -> None:
        """The person rolls ``num_dice``; the bot answers until it is the person's turn."""
        with self.lock:
            if self.winner is not None:
                raise GameError(409, f"game {self.id} is over: {self.winner} won")
            if self.to_move != "you":
                raise GameError(409, "it is not your turn")
            self._turn(num_dice)
            self._bot_moves()

    def hint(self) -> dict:
        """The optimal move and every count's value on your turn; ``best`` None otherwise
        (a page may ask just as the turn passes: that is no error)."""
        if self.to_move != "you":
            return {"best": None, "values": [], "to_move": self.to_move, "winner": self.winner}
        you, bot = self.match.state()
        values = self.bot.action_values[you, bot]
        return {"score": you, "opponent_score": bot, "best": self.bot(you, bot),
                "values": [round(float(v), 6) for v in values]}

    def state(self) -> dict:
        you, bot = self.match.scores
        sides = int(self.rules.dice_sides(you, bot)) if self.to_move == "you" else None
        return {"id": self.id, "rules": self.rules.name, "goal": self.rules.goal,
                "max_dice": self.rules.max_dice, "scores": self.scores,
                "to_move": self.to_move, "winner": self.winner, "dice_sides": sides,
                "turns": self.turns, "win_probability": self.history, "seed": self.seed}


class GameStore:
    """The server's games by id, thread-safe and bounded.

    At most ``max_games`` are kept; the least recently used goes first, and
    a game idle for ``idle_seconds`` expires.  An expired game answers 404
    with a message the page shows.
    """

    def __init__(self, default_rules: str = "su18", max_games: int = 1000, idle_seconds: float = 6 * 3600,
                 clock=time.monotonic):
        self.default_rules = default_rules
        self.max_games, self.idle_seconds, self.clock = max_games, idle_seconds, clock
        self.games: "OrderedDict[str, WebGame]" = OrderedDict()
        self.used: dict = {}
        self.bots: dict = {}
        self.lock = threading.Lock()

    def bot(self, name: str):
        with self.lock:
            if name not in self.bots:
                self.bots[name] = optimal_strategy(get_rules(name))
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
        with self.lock:
            self._expire()
            game = self.games.get(game_id)
            if game is not None:
                self.games.move_to_end(game_id)
                self.used[game_id] = self.clock()
        if game is None:
            raise GameError(404, f"game {game_id} has expired or never existed; start a new one")
        return game
