"""A game of a person against a bot, kept by id for the web page: its session, its lock and
its JSON.  Each family gives its own (:meth:`hogsolve.families.GameFamily.web_game`);
:mod:`hogsolve.gui` keeps them and speaks HTTP."""
from __future__ import annotations

import threading
from typing import Any, Optional

from ..errors import HogsolveError
from ..hog.rules import Ruleset
from ..util.plain import finite
from .hog import Session, SessionError
from .pig import PigSession
from .sibala import SibalaSession

SIBALA = "sibala"


class GameError(HogsolveError):
    """A request that cannot be honoured: carries the HTTP status to answer with."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


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

    def __init__(self, game_id: str, name: str, seed: int, rules: Ruleset, bot, you_first: bool):
        super().__init__(game_id, name, seed)
        self.rules, self.family = rules, rules.family
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

    def __init__(self, game_id: str, name: str, seed: int, game, bot, you_first: bool):
        super().__init__(game_id, name, seed)
        self.game, self.family = game, game.family
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


class StateWebGame(WebGame):
    """Any family's game through its :class:`~hogsolve.games.interface.GameState`: the person
    moves by action number (``{"action": n}``), the bot by the family's chooser of its table,
    chance by the state's exact outcomes drawn from the game's seed.  What a family with no web
    game of its own is served by."""

    def __init__(self, game_id: str, name: str, seed: int, family: Any, game: Any, bot: Any, you_first: bool):
        import random
        super().__init__(game_id, name, seed)
        self.family, self.game = family.name, game
        self.you = 0 if you_first else 1
        self.rng = random.Random(seed)
        self.position = family.new_state(game, first=0)
        self.choose = family.chooser(family.table_of(bot, game), game)
        self.log: list = []
        self._advance()

    def _advance(self) -> None:
        """Chance and the bot until the person moves or the game ends."""
        from ..games.interface import draw_chance
        state = self.position
        while not state.is_terminal():
            if state.is_chance_node():
                outcome = draw_chance(state, self.rng)
                self.log.append({"who": "chance", "move": state.action_to_string(outcome)})
                state.apply_action(outcome)
            elif state.current_player != self.you:
                action = self.choose(state)
                self.log.append({"who": "bot", "move": state.action_to_string(action)})
                state.apply_action(action)
            else:
                return

    def _whose(self, seat: Optional[int]) -> Optional[str]:
        return None if seat is None else ("you" if seat == self.you else "bot")

    def _winner(self) -> Optional[int]:
        if not self.position.is_terminal():
            return None
        return 0 if self.position.returns()[0] > 0 else 1

    def _move(self, body: dict) -> None:
        state = self.position
        if state.is_terminal():
            raise GameError(409, "the game is over")
        action = body.get("action")
        legal = state.legal_actions()
        if isinstance(action, bool) or not isinstance(action, int) or action not in legal:
            raise GameError(400, f"action must be one of {legal}, got {action!r}")
        self.log.append({"who": "you", "move": state.action_to_string(action)})
        state.apply_action(action)
        self._advance()

    def _state(self) -> dict:
        state = self.position
        mover = None if state.is_terminal() else self._whose(state.current_player)
        return {"goal": int(self.game.goal), "to_move": mover, "winner": self._whose(self._winner()),
                "observation": state.observation(self.you),
                "legal_actions": state.legal_actions() if mover == "you" else [], "log": list(self.log)}

    def _hint(self) -> dict:
        mover = None if self.position.is_terminal() else self.position.current_player
        return {"best": None, "to_move": self._whose(mover), "winner": self._whose(self._winner())}
