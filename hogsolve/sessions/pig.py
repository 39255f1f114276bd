"""A person against the optimal roll/hold bot: the one Pig-family session for the terminal and the browser.

Player 0 is the person ("you"), player 1 the bot, as in the Hog session.  The
session keeps the match, the bot's solution, seeded dice and a log of every
roll and hold with who made it; front ends only ask and show.
"""
from __future__ import annotations

import random
from typing import Dict, List, Optional

from ..pig.engine import PigMatch, roll_faces
from ..pig.rules import PigGame
from ..solver.pig.stages import Rolls, values_at
from .hog import PLAYERS, SessionError, YouAndBot
from ..errors import InputError


def move_values(game: PigGame, value, state, rolls: Optional[Rolls] = None) -> Dict[str, Optional[float]]:
    """The mover's win probability if they roll, and if they hold (None: not allowed yet), at
    ``state`` = (score, opponent's score, turn total), from the table of values."""
    i, j, k = state
    if i + k >= game.goal:
        return {"roll": 0.0, "hold": 1.0}  # holding wins at once (rolling risks it for nothing)
    roll, hold = values_at(game, value, i, j, k, rolls)
    return {"roll": roll, "hold": hold if k > 0 else None}


def best_move(values: Dict[str, Optional[float]]) -> str:
    """``"hold"`` when holding is allowed and worth more than rolling, else ``"roll"``."""
    hold, roll = values["hold"], values["roll"]
    return "hold" if hold is not None and roll is not None and hold > roll else "roll"


class PigSession(YouAndBot):
    """One roll-or-hold game of a person against an optimal bot.

    Parameters
    ----------
    game : PigGame
    bot : Solution or PigBot
        The solved game (``game``, ``value``, ``roll``; see :func:`hogsolve.solve_pig`
        and :func:`hogsolve.strategy.pig.pig_bot`).
    you_first : bool
        Whether the person moves first.
    seed : int or None
        Seed of the dice (None: a random game).
    """

    def __init__(self, game: PigGame, bot, you_first: bool = True, seed: Optional[int] = None):
        if bot.game != game:
            raise InputError(f"the bot solved {bot.game.name} at goal {bot.game.goal}, not {game.name} at {game.goal}")
        self.game, self.bot, self.seed = game, bot, seed
        self.rng = random.Random(seed)
        self.match = PigMatch(game, first=0 if you_first else 1)
        self.rolls = Rolls.of(game)

    @property
    def turn_total(self) -> int:
        """Points at stake in the current turn."""
        return self.match.turn_total

    @property
    def log(self) -> List[dict]:
        """Every roll and hold, with ``who`` ("you" or "bot")."""
        return [{**entry, "who": PLAYERS[entry["player"]]} for entry in self.match.log]

    def values(self) -> Dict[str, Optional[float]]:
        """The mover's win probability if they roll, and if they hold (None: not allowed yet)."""
        return move_values(self.game, self.bot.values, self.match.state(), self.rolls)

    def hint(self) -> Optional[Dict[str, object]]:
        """On the person's turn: both choices' win probabilities and the better one."""
        if self.to_move != "you":
            return None
        values = self.values()
        return {"turn_total": self.turn_total, "best": best_move(values), **values}

    def your_win_probability(self) -> float:
        """The person's chance of winning from here if both play optimally."""
        if self.winner is not None:
            return 1.0 if self.winner == "you" else 0.0
        values = self.values()
        p = max(v for v in values.values() if v is not None)
        return p if self.to_move == "you" else 1.0 - p

    def _act(self, roll: bool) -> dict:
        made = len(self.log)  # a roll that reaches the goal also logs the hold that wins
        if roll:
            self.match.roll(roll_faces(self.game, self.rng))
        else:
            self.match.hold()
        return self.log[made]

    def play(self, action: str) -> dict:
        """The person's ``"roll"`` or ``"hold"``; returns the log entry it made."""
        if self.winner is not None:
            raise SessionError(f"the game is over: {self.winner} won")
        if self.to_move != "you":
            raise SessionError("it is not your turn")
        if action not in ("roll", "hold"):
            raise SessionError(f"choose roll or hold, not {action!r}")
        if action == "hold" and self.turn_total == 0:
            raise SessionError("roll at least once before holding")
        return self._act(action == "roll")

    def bot_step(self) -> dict:
        """The bot's one decision (it must be the bot's turn); returns its log entry."""
        if self.to_move != "bot":
            raise SessionError("it is not the bot's turn")
        i, j, k = self.match.state()
        return self._act(k == 0 or self.bot(i, j, k))

    def bot_moves(self) -> List[dict]:
        """The bot decides until it is the person's turn or the game is over."""
        entries = []
        while self.to_move == "bot":
            entries.append(self.bot_step())
        return entries

    def record(self) -> Dict[str, object]:
        """The game so far: rules, scores, winner (None while playing), every roll and hold."""
        return {"rules": self.game.name, "goal": self.game.goal, "scores": self.scores, "winner": self.winner,
                "log": self.log}
