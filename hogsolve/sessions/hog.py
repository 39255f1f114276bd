"""A person against the optimal bot: the one session behind the terminal game and the GUI.

Player 0 is the person ("you"), player 1 the bot.  The session keeps the
match, the bot's table, the dice, a turn log with who moved, and the
person's win probability after every turn; front ends only ask and show.
"""
from __future__ import annotations

from ..errors import HogsolveError
from typing import Any, Dict, List, Optional

from ..hog.engine import Match, Turn, random_dice
from ..hog.rules import Ruleset

PLAYERS = ("you", "bot")


class SessionError(HogsolveError, ValueError):
    """A move out of turn or after the end."""


class YouAndBot:
    """Who is who in a person-against-bot game over ``self.match`` (player 0 "you", 1 "bot")."""

    match: Any  # the session's engine (a Hog Match or a PigMatch)

    @property
    def scores(self) -> Dict[str, int]:
        """``{"you": score, "bot": score}``."""
        return dict(zip(PLAYERS, self.match.scores))

    @property
    def winner(self) -> Optional[str]:
        """"you", "bot", or None while the game goes on."""
        return None if self.match.winner is None else PLAYERS[self.match.winner]

    @property
    def to_move(self) -> Optional[str]:
        """Who moves now: "you", "bot", or None when the game is over."""
        return None if self.winner is not None else PLAYERS[self.match.mover]


class Session(YouAndBot):
    """One game of a person against an optimal bot (an object with ``table``,
    ``win_probability`` and ``action_values`` such as :class:`~hogsolve.strategy.optimal_bot.OptimalStrategy`).

    Parameters
    ----------
    rules : Ruleset
    bot : OptimalStrategy
    you_first : bool
        Whether the person moves first.
    seed : int or None
        Seed of the dice (None: a random game).
    """

    def __init__(self, rules: Ruleset, bot, you_first: bool = True, seed: Optional[int] = None):
        self.rules, self.bot, self.seed = rules, bot, seed
        self.roll = random_dice(seed)
        self.match = Match(rules, first=0 if you_first else 1)
        self.log: List[Dict[str, object]] = []
        self.history = [self.your_win_probability()]

    def your_win_probability(self) -> float:
        """The person's chance of winning from here if both play optimally."""
        if self.winner is not None:
            return 1.0 if self.winner == "you" else 0.0
        p = float(self.bot.win_probability[self.where()])
        return p if self.to_move == "you" else 1.0 - p

    def _turn(self, num_dice: int) -> Turn:
        player = self.to_move
        turn = self.match.move(num_dice, self.roll)
        self.log.append({**turn.to_dict(), "player": player, "scores": self.scores})
        self.history.append(self.your_win_probability())
        return turn

    def bot_move(self) -> Turn:
        """The bot's one move (it must be the bot's turn)."""
        if self.to_move != "bot":
            raise SessionError("it is not the bot's turn")
        return self._turn(self.bot_move_choice())

    def bot_moves(self) -> List[Turn]:
        """The bot moves until it is the person's turn or the game is over."""
        turns = []
        while self.to_move == "bot":
            turns.append(self.bot_move())
        return turns

    def play(self, num_dice: int) -> Turn:
        """The person rolls ``num_dice`` (0 to max dice) on their turn."""
        if self.winner is not None:
            raise SessionError(f"the game is over: {self.winner} won")
        if self.to_move != "you":
            raise SessionError("it is not your turn")
        least, most = self.rules.min_dice, self.rules.max_dice
        if isinstance(num_dice, bool) or not isinstance(num_dice, int) or not least <= num_dice <= most:
            raise SessionError(f"dice must be a whole number from {least} to {most}, got {num_dice!r}")
        return self._turn(num_dice)

    def hint(self) -> Optional[Dict[str, object]]:
        """On the person's turn: the optimal move and every dice count's win probability, and
        whether the bot's table is proven optimal (an unproven one's figures are marked so)."""
        if self.to_move != "you":
            return None
        state = self.where()
        return {"score": state[0], "opponent_score": state[1], "best": int(self.bot.table[state]),
                "values": [float(v) for v in self.bot.values_at(state)],
                "proven": bool(getattr(self.bot, "proven", True))}

    def where(self) -> tuple:
        """The bot's tables' index of the current state: the scores (mover first), then both
        players' memories under a history rule."""
        return self.match.state() + self.rules.context_index(self.match.context())

    def bot_move_choice(self) -> int:
        """What the bot would roll now."""
        return int(self.bot.table[self.where()])

    def bot_win_probability(self, num_dice: int) -> float:
        """The bot's chance of winning when it rolls ``num_dice`` now."""
        return float(self.bot.values_at(self.where())[num_dice])

    def record(self) -> Dict[str, object]:
        """The game so far: rules, scores, winner (None while playing), turns."""
        return {"rules": self.rules.name, "scores": self.scores, "winner": self.winner, "turns": self.log}
