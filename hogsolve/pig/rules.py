"""The rules of the roll-or-hold games, each written once for the engine and the solver.

A roll's outcome is one of: ``("add", x)`` (x joins the turn total),
``("bust", 0)`` (the turn total is lost and the turn ends), ``("wipe", 0)``
(Two-Dice Pig's double 1s: the turn total and the whole banked score are
lost and the turn ends).  A player must
roll at least once per turn and may hold whenever the turn total is
positive; holding banks it.  The first to bank ``goal`` wins, so a player
whose score plus turn total reaches the goal holds and wins.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from itertools import product
from typing import Any, Dict, List, Mapping, Sequence, Tuple

import numpy as np
from ..errors import InputError

Outcome = Tuple[str, int]

#: How a roll-or-hold game ends, the one reading every path follows (the solvers, win rates,
#: simulations, tabulated strategies, game states, environments and OpenSpiel games): as in
#: Neller and Presser's model, a roll that brings score + turn total to the goal banks the
#: turn and wins at once, so a strategy's choice there is never asked.
GOAL_RULE = "a roll that brings score + turn total to the goal banks it and wins at once"


@dataclasses.dataclass(frozen=True)
class PigGame:
    """A roll-or-hold game: its roll rule, die sides and goal."""

    name: str
    description: str
    roll: str          # "one_die", "coin", "two_dice", "big_pig"
    sides: int = 6
    goal: int = 100

    def __post_init__(self):
        if not isinstance(self.goal, int) or isinstance(self.goal, bool) or self.goal < 2:
            raise InputError(f"goal must be a whole number of at least 2, got {self.goal!r}")
        if not isinstance(self.sides, int) or isinstance(self.sides, bool) or not 2 <= self.sides <= 100:
            raise InputError(f"sides must be a whole number from 2 to 100, got {self.sides!r}")
        if self.roll not in ROLLS:
            raise InputError(f"unknown roll rule {self.roll!r}; choose from {', '.join(ROLLS)}")

    def replace(self, **changes) -> "PigGame":
        """A copy with some fields changed, e.g. ``game.replace(goal=20)``."""
        return dataclasses.replace(self, **changes)

    def outcomes(self) -> Dict[Outcome, Fraction]:
        """Exact probabilities of one roll's outcomes."""
        return ROLLS[self.roll](self.sides)

    def said(self, faces: Sequence[int]) -> str:
        """A roll in words: "flipped heads" (or tails) for the coin, "rolled 3 5" for dice."""
        if self.roll == "coin":  # a coin shows 2 for heads, 1 for tails
            return "flipped " + ("heads" if tuple(faces)[:1] == (2,) else "tails")
        return "rolled " + " ".join(str(int(f)) for f in faces)

    def outcome_of(self, faces: Sequence[int]) -> Outcome:
        """The outcome of rolled faces (one face, or two for the two-dice games; a coin shows 1 or 2)."""
        return FACES[self.roll](tuple(faces))

    @property
    def baseline(self) -> str:
        """A fixed strategy to measure agents against: hold at the threshold that wins most
        often against optimal play at the game's own goal (Pig 25, Piglet 2, Two-Dice Pig 23,
        Big Pig 32), scaled to this goal."""
        return f"hold_at:{max(1, round(self.goal * BASELINE_SHARE[self.roll]))}"

    #: The family of games this belongs to (:mod:`hogsolve.families`).
    family = "roll-or-hold"

    #: A strategy is asked on observation rows (score, opponent's score, turn total), never on
    #: the two scores alone.
    scores_call = False

    #: What the average of both seats' win rates is called: nothing of its own here.
    average_label = ""

    @staticmethod
    def action_label(action: int) -> str:
        """How a move is said: action 0 rolls, 1 holds."""
        return ("roll", "hold")[action]

    # -- what an agent sees and answers (the environments and agent files read these) --

    @property
    def context_shape(self) -> Tuple[int, ...]:
        """State beyond the scores and turn total: none (no memories)."""
        return ()

    @property
    def num_actions(self) -> int:
        """An action is roll (0) or hold (1)."""
        return 2

    def observation_high(self) -> np.ndarray:
        """The largest value of each observation entry ``[score, opponent_score, turn_total]``."""
        g = int(self.goal)
        return np.array([g, g, 2 * g], dtype=np.int64)

    def observation_vector(self, seen: Mapping[str, Any]) -> List[int]:
        """A state's ``observation(seat)`` as the observation entries."""
        return [int(seen["score"]), int(seen["opponent_score"]), int(seen["turn_total"])]

    def decision_index(self) -> Tuple[np.ndarray, ...]:
        """Every decision state's table index (i, j, k), one array per axis: banked scores and
        turn totals below the goal, where holding does not already win (i + k < goal)."""
        g = int(self.goal)
        index = np.indices((g, g, g)).reshape(3, -1)
        return tuple(index[:, index[0] + index[2] < g])

    def table_of(self, actions: np.ndarray, index: Tuple[np.ndarray, ...]) -> np.ndarray:
        """A strategy table ``roll[i, j, k]`` (True to roll) from ``actions`` (0 roll, 1 hold)
        at ``index``; the first roll of a turn is compulsory."""
        g = int(self.goal)
        roll = np.zeros((g, g, g), dtype=bool)
        roll[index] = np.asarray(actions) == 0
        roll[:, :, 0] = True
        return roll

    def stored_table(self, values: np.ndarray) -> np.ndarray:
        """A table read back from plain numbers (a cache), in :meth:`table_of`'s type."""
        return np.asarray(values).astype(bool)

    # -- what a table of decisions means (every result type reads these) --

    #: The axes of a table of decisions or values.
    state_axes = ("score", "opponent_score", "turn_total")

    def decide(self, table: np.ndarray, score: int, opponent_score: int, turn_total: int) -> bool:
        """A roll table's decision at a state: True to roll (holding at the goal, as the game does)."""
        if score + turn_total >= self.goal:
            return False
        return bool(table[score, opponent_score, turn_total])

    @property
    def decision_table_shape(self) -> Tuple[int, ...]:
        """The shape of a table of decisions: ``(goal, goal, goal)`` by banked scores and turn total."""
        return (int(self.goal),) * 3

    #: The least and the most a cell of a table of decisions holds: 0 to hold, 1 to roll.
    table_cells = (0, 1)

    def settled_mixture(self, probabilities: np.ndarray) -> np.ndarray:
        """A table of (roll, hold) probabilities with the game's own rules applied: the first
        roll of a turn is compulsory, and a turn total that reaches the goal holds and wins."""
        g = int(self.goal)
        out = probabilities.copy()
        i, _, k = np.indices(out.shape[:3])
        out[(i + k >= g)] = (0.0, 1.0)
        out[:, :, 0] = (1.0, 0.0)
        return out

    def choice_name(self, decision: Any) -> str:
        """A table entry in words: "roll" or "hold"."""
        return "roll" if bool(decision) else "hold"

    def hold_thresholds(self, table: np.ndarray) -> np.ndarray:
        """``[i, j]``: the turn total at which a roll table ``table[i, j, k]`` first holds (the
        goal's remainder when it never does)."""
        g = int(self.goal)
        k = np.arange(table.shape[2])[None, None, :]
        i = np.arange(g)[:, None, None]
        holds = ~table[:g, :g, :] & (k >= 1) & (i + k < g)
        first = np.where(holds.any(axis=2), holds.argmax(axis=2), g - np.arange(g)[:, None])
        return first.astype(np.int64)

    def opening_move(self, table: np.ndarray) -> int:
        """The turn total at which the table holds at 0-0 (the first roll is compulsory)."""
        return int(self.hold_thresholds(table)[0, 0])

    def opening_words(self, table: np.ndarray) -> str:
        """:meth:`opening_move` said."""
        return f"hold at {self.opening_move(table)}"

    def degenerate(self, table: np.ndarray) -> str:
        """'' for a table with a real choice; else which fixed rule it plays in every state where
        a choice exists: "always roll" (never hold before the goal, as Pig's optimum at goals 20,
        30 and 35) or "always hold".  A benchmark whose optimum is degenerate is learnt by a
        table that learns nothing."""
        g = self.goal
        i, _, k = np.indices(table.shape)
        choice = (k >= 1) & (i + k < g) & (k < g)  # a turn total to bank, the goal not yet reached
        if not choice.any():
            return ""
        if table[choice].all():
            return "always roll"
        return "always hold" if not table[choice].any() else ""

    def chance_outcome_count(self) -> int:
        """How many chance outcomes a roll can have (:meth:`outcomes`)."""
        return len(self.outcomes())


    def dice_per_roll(self) -> int:
        """Faces shown by one roll."""
        return 2 if self.roll in TWO_DICE else 1

    def summary(self) -> dict:
        """Plain description for --json output."""
        return {"name": self.name, "description": self.description, "roll": self.roll,
                "sides": self.sides, "goal": self.goal, "kind": "roll-or-hold"}


def _one_die_faces(faces) -> Outcome:
    (face,) = faces
    return ("bust", 0) if face == 1 else ("add", face)


def _coin_faces(faces) -> Outcome:
    (face,) = faces
    return ("bust", 0) if face == 1 else ("add", 1)  # 1 is tails


def _two_dice_faces(faces) -> Outcome:
    a, b = faces
    if a == b == 1:
        return ("wipe", 0)
    return ("bust", 0) if 1 in (a, b) else ("add", a + b)


def _big_pig_faces(faces) -> Outcome:
    a, b = faces
    if a == b == 1:
        return ("add", 25)
    if 1 in (a, b):
        return ("bust", 0)
    return ("add", 2 * (a + b)) if a == b else ("add", a + b)


#: The best hold-at threshold against optimal play as a share of the goal, measured at each
#: game's own goal (``max(range(1, goal + 1), key=lambda n: win_rate(hold_at(n), optimal))``).
BASELINE_SHARE = {"one_die": 0.25, "coin": 0.2, "two_dice": 0.23, "big_pig": 0.32}

FACES = {"one_die": _one_die_faces, "coin": _coin_faces, "two_dice": _two_dice_faces, "big_pig": _big_pig_faces}
TWO_DICE = ("two_dice", "big_pig")


def _distribution(roll: str, sides: int) -> Dict[Outcome, Fraction]:
    faces = 2 if roll == "coin" else sides
    per_roll = 2 if roll in TWO_DICE else 1
    out: Dict[Outcome, Fraction] = {}
    for shown in product(range(1, faces + 1), repeat=per_roll):
        key = FACES[roll](shown)
        out[key] = out.get(key, 0) + Fraction(1, faces ** per_roll)
    return out


ROLLS = {name: (lambda sides, name=name: _distribution(name, sides)) for name in FACES}

PIG_GAMES: Dict[str, PigGame] = {g.name: g for g in (
    PigGame("pig", "Pig: roll one die as often as you like; a 1 loses the turn total; hold to bank it",
            "one_die"),
    PigGame("piglet", "Piglet: flip a coin; heads adds 1 to the turn total, tails loses it; first to 10",
            "coin", sides=2, goal=10),
    PigGame("two-dice-pig", "Two-Dice Pig: roll two dice; a single 1 loses the turn total, double 1s "
            "also lose the whole banked score", "two_dice"),
    PigGame("big-pig", "Big Pig: roll two dice; a single 1 loses the turn total, double 1s add 25, "
            "other doubles twice their sum", "big_pig"),
)}


def get_pig_game(name: str, goal: int | None = None, sides: int | None = None) -> PigGame:
    """A roll-or-hold game by name (any case), optionally with another goal or die."""
    game = PIG_GAMES[name.lower()]
    changes = {k: v for k, v in (("goal", goal), ("sides", sides)) if v is not None}
    return game.replace(**changes) if changes else game
