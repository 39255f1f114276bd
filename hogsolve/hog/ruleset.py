"""A Hog ruleset: a frozen composition of rule components plus goal and max_dice.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from .checks import StrategyError
from .components import FeralHogs, RULE_NAMES, never_swap, no_bonus, no_extra_turn, same_score, six_sided
from ..errors import InputError, InputTypeError


#: What an endless game is worth (:attr:`Ruleset.endless`): nothing agreed, or half a win each.
ENDLESS = ("none", "draw")


@dataclasses.dataclass(frozen=True)
class Ruleset:
    """A Hog ruleset: rule components plus goal and max_dice.

    Components should accept numpy arrays as well as ints; one that does not
    still works (the model then calls it state by state).

    Parameters
    ----------
    name, description : str
        Short name and one-line description.
    free_bacon : callable ``(opponent_score) -> points``
        Points for rolling zero dice (``(score, opponent_score)`` when marked
        with :func:`both_scores`).
    swaps : callable ``(score, opponent_score) -> bool``
        Swine Swap test, on the mover's new score and the opponent's score.
    bonus : callable ``(score, opponent_score) -> points``
        Extra points for the mover after the turn's points are added and before
        the swap test (Hog Pile, Pigs on Prime, ...); never negative.
    extra_turn : callable ``(score, opponent_score) -> bool``
        After the turn (bonus and swap applied), whether the mover moves again.
    pig_out_rule : callable ``(number of 1s, number of dice) -> points`` or None
        When given, the points of a Pig Out instead of the constant ``pig_out``.
    turn_score : callable ``(points, number of dice) -> points``
        Changes a turn's points, zero dice included (Hogtimus Prime).
    points_bonus : callable ``(score, opponent_score, points) -> (mover's extra, opponent's extra)``
        or None: a change after the turn that depends on its points (sp15's
        Hogtimus Prime); applied first, before the bonus and swap rules.
    history : FeralHogs or None
        A bonus that depends on each player's previous turn (Feral Hogs); the
        state then includes what each player remembers.
    piggy_back : bool
        fa15/sp16 Piggy Back: when a roll of dice scores 0, the opponent gains
        as many points as dice were rolled (before the swap test).
    dice_sides : callable ``(score, opponent_score) -> sides``
        Sides of the dice for a turn, from the scores before the turn.
    pig_out : int
        Points of a turn in which any die shows 1.
    goal, max_dice : int
        Score that ends the game; most dice a player may roll.
    names : tuple of (field, name) pairs
        The course's names for this ruleset's rules where they differ from the component's
        or the usual one (``("free_bacon", "Boar Brawl")``): what the game logs show.
    endless : str
        What a game that never ends is worth: ``"none"`` (nothing is agreed: where optimal
        players would pass forever the game has no value, as in sp22) or ``"draw"`` (half a
        win for each).
    min_dice : int
        Fewest dice a player may roll: 0 (zero dice is a move) or 1 (it is not,
        as in Neller's Hog).
    """

    name: str
    description: str
    free_bacon: Callable
    swaps: Callable = never_swap
    dice_sides: Callable = six_sided
    pig_out: int = 1
    goal: int = 100
    max_dice: int = 10
    bonus: Callable = no_bonus
    extra_turn: Callable = no_extra_turn
    pig_out_rule: Optional[Callable] = None
    turn_score: Callable = same_score
    piggy_back: bool = False
    history: Optional[FeralHogs] = None
    points_bonus: Optional[Callable] = None
    min_dice: int = 0
    endless: str = "none"
    names: Tuple[Tuple[str, str], ...] = ()

    def __post_init__(self):
        for field in ("goal", "max_dice", "pig_out", "min_dice"):
            value = getattr(self, field)
            if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
                raise InputTypeError(f"{field} must be an int, got {value!r}")
        if self.goal < 1:
            raise InputError(f"goal must be at least 1, got {self.goal}")
        if not 1 <= self.max_dice <= 20:
            raise InputError(f"max_dice must be from 1 to 20, got {self.max_dice}")
        if not all(isinstance(pair, tuple) and len(pair) == 2 and pair[0] in RULE_NAMES and isinstance(pair[1], str)
                   for pair in self.names):
            raise InputTypeError(f"names must be (rule kind, name) pairs of {', '.join(RULE_NAMES)}, "
                                 f"got {self.names!r}")
        object.__setattr__(self, "names", tuple(sorted(self.names)))  # one order: equal rulesets compare equal
        if self.min_dice not in (0, 1):
            raise InputError(f"min_dice must be 0 or 1, got {self.min_dice}")
        if self.endless not in ENDLESS:
            raise InputError(f"endless must be one of {', '.join(ENDLESS)}, got {self.endless!r}")
        if self.pig_out < 0:
            raise InputError(f"pig_out must be at least 0, got {self.pig_out}")
        if not isinstance(self.piggy_back, bool):
            raise InputTypeError(f"piggy_back must be True or False, got {self.piggy_back!r}")
        if self.piggy_back and (self.bonus is not no_bonus or self.extra_turn is not no_extra_turn):
            raise InputError("piggy_back does not combine with bonus or extra-turn rules")
        if self.history is not None:
            if not isinstance(self.history, FeralHogs):
                raise InputTypeError(f"history must be a FeralHogs rule or None, got {self.history!r}")
            if self.piggy_back or self.extra_turn is not no_extra_turn:
                raise InputError("a history rule does not combine with piggy_back or extra-turn rules")
        if self.points_bonus is not None and (self.piggy_back or self.history is not None
                                              or self.extra_turn is not no_extra_turn):
            raise InputError("points_bonus does not combine with piggy_back, history or extra-turn rules")

    #: A fixed strategy to measure agents against (what ``evaluate_agent`` compares with).
    baseline = "always_roll:4"

    #: The family of games this belongs to (:mod:`hogsolve.families`).
    family = "hog"

    #: A student's strategy is the course's ``final_strategy(score, opponent_score)``: it may be
    #: asked with the two scores alone (an agent on observation vectors is asked those instead).
    scores_call = True

    #: What the average of both seats' win rates is called (the course's contest counts it).
    average_label = "the CS 61A win rate"

    @staticmethod
    def action_label(action: int) -> str:
        """How a move is said: the number of dice rolled."""
        return f"{action} dice"

    # -- what an agent sees and answers (the environments and agent files read these) --

    @property
    def num_actions(self) -> int:
        """An action is a number of dice, 0 to ``max_dice``."""
        return int(self.max_dice) + 1

    def observation_high(self) -> np.ndarray:
        """The largest value of each observation entry: ``[score, opponent_score]``, then both
        memories (capped where larger values play alike) under a history rule."""
        g = int(self.goal)
        return np.array([g, g] + [size - 1 for size in self.context_shape], dtype=np.int64)

    def observation_vector(self, seen: Mapping[str, Any]) -> List[int]:
        """A state's ``observation(seat)`` as the observation entries (memories as table indices)."""
        values = [int(seen["score"]), int(seen["opponent_score"])]
        if self.history is not None:
            values += self.context_index((seen["memory"], seen["opponent_memory"]))
        return values

    def decision_index(self) -> Tuple[np.ndarray, ...]:
        """Every decision state's table index, one array per axis: every (score, opponent_score)
        below the goal, and every pair of memories."""
        shape = (int(self.goal),) * 2 + tuple(self.context_shape)
        return tuple(np.indices(shape).reshape(len(shape), -1))

    def table_of(self, actions: np.ndarray, index: Tuple[np.ndarray, ...]) -> np.ndarray:
        """A strategy table ``(goal, goal[, H, H])`` of dice counts (int8) with ``actions`` at
        ``index``; StrategyError if any is fewer dice than the ruleset allows."""
        table = np.zeros((int(self.goal),) * 2 + tuple(self.context_shape), dtype=np.int8)
        table[index] = actions
        if (table < int(self.min_dice)).any():
            least = int(self.min_dice)
            raise StrategyError(f"chose fewer than {least} {'die' if least == 1 else 'dice'}, "
                                f"which {self.name} forbids")
        return table

    def stored_table(self, values: np.ndarray) -> np.ndarray:
        """A table read back from plain numbers (a cache), in :meth:`table_of`'s type."""
        return np.asarray(values).astype(np.int8)

    # -- what a table of decisions means (every result type reads these) --

    @property
    def state_axes(self) -> Tuple[str, ...]:
        """The axes of a table of decisions or values: the scores, then both memories under a
        history rule."""
        return ("score", "opponent_score") + (("my_memory", "opponent_memory") if self.history else ())

    def decide(self, table: np.ndarray, score: int, opponent_score: int, *context: int) -> int:
        """A table's dice count at (score, opponent_score), then the memories under a history rule."""
        return int(table[(score, opponent_score) + tuple(self.context_index(context))])

    @property
    def decision_table_shape(self) -> Tuple[int, ...]:
        """The shape of a table of decisions: ``(goal, goal)``, then both memories."""
        return (int(self.goal),) * 2 + tuple(self.context_shape)

    @property
    def table_cells(self) -> Tuple[int, int]:
        """The least and the most a cell of a table of decisions holds: the dice counts allowed."""
        return int(self.min_dice), int(self.max_dice)

    def settled_mixture(self, probabilities: np.ndarray) -> np.ndarray:
        """A table of action probabilities as the evaluation reads it (every state decides)."""
        return probabilities

    def choice_name(self, decision: Any) -> int:
        """A table entry as shown: the dice count."""
        return int(decision)

    def opening_move(self, table: np.ndarray) -> int:
        """The table's dice count at the start (0-0, both memories 0)."""
        return int(table[(0,) * table.ndim])

    def opening_words(self, table: np.ndarray) -> str:
        """:meth:`opening_move` said."""
        return f"{self.opening_move(table)} dice"

    def degenerate(self, table: np.ndarray) -> str:
        """'' for a table with a real choice; else the one dice count it rolls everywhere."""
        least = int(table.min())  # two passes, no sort: a Feral Hogs table has 1.2 million cells
        return f"always {least} dice" if least == int(table.max()) else ""

    def chance_outcome_count(self) -> int:
        """How many chance outcomes a roll can have: its points, 0 to the most any roll scores."""
        from .turn import points_counts
        most = 0
        for sides in sorted({int(self.dice_sides(a, b)) for a in range(self.goal) for b in range(self.goal)}):
            for n in range(1, int(self.max_dice) + 1):
                most = max(most, max(points_counts(self, n, sides)))
        return most + 1


    @property
    def context_shape(self) -> Tuple[int, ...]:
        """Extra state beyond (score, opponent_score): (mover's memory, opponent's memory)
        under a history rule, else ()."""
        if self.history is None:
            return ()
        size = self.history.size(int(self.max_dice))
        return (size, size)

    def context_index(self, context: Sequence[int] = ()) -> Tuple[int, ...]:
        """Table indices of a state's context: (my memory, the opponent's memory) under a
        history rule, capped as :meth:`FeralHogs.index` does, 0 where not given; else ()."""
        if self.history is None:
            return ()
        given = tuple(int(self.history.index(int(c), int(self.max_dice))) for c in context)
        return (given + (0, 0))[:2]

    def rule_name(self, kind: str) -> str:
        """The name this ruleset's course gave the rule ``kind`` (a field: ``free_bacon``,
        ``bonus``, ...): the ruleset's own ``names``, else the component's, else the usual one."""
        own = dict(self.names)
        if kind in own:
            return own[kind]
        component = getattr(self, kind, None)
        return (getattr(component, "rule_name", None) if callable(component) else None) or RULE_NAMES[kind]

    def extra_turn_name(self, score: int, opponent_score: int) -> str:
        """The name of the extra-turn rule that fired at (score, opponent_score): the parts
        that hold (fa20's Pig Pass, Swine Align), else the rule's name."""
        parts = getattr(self.extra_turn, "rule_parts", ())
        held = [name for name, test in parts if bool(test(score, opponent_score))]
        return " and ".join(held) if held else self.rule_name("extra_turn")

    def replace(self, **changes) -> "Ruleset":
        """A copy with some fields changed, e.g. ``rules.replace(goal=30)``."""
        return dataclasses.replace(self, **changes)

    def summary(self) -> Dict[str, object]:
        """Plain description for files and --json output."""
        return {
            "name": self.name,
            "description": self.description,
            "goal": int(self.goal),
            "max_dice": int(self.max_dice),
            "pig_out": int(self.pig_out),
            "free_bacon": getattr(self.free_bacon, "__name__", repr(self.free_bacon)),
            "swaps": getattr(self.swaps, "__name__", repr(self.swaps)),
            "dice_sides": getattr(self.dice_sides, "__name__", repr(self.dice_sides)),
            # the later components only when set, so older tables keep their summary
            **{field: getattr(rule, "__name__", repr(rule)) for field, default in OPTIONAL_RULES.items()
               if (rule := getattr(self, field)) is not default},
            **({"piggy_back": True} if self.piggy_back else {}),
            **({"min_dice": int(self.min_dice)} if self.min_dice else {}),
            **({"endless": self.endless} if self.endless != "none" else {}),
        }


#: Components a summary names only when they differ from these defaults.
OPTIONAL_RULES = {"bonus": no_bonus, "extra_turn": no_extra_turn, "pig_out_rule": None, "turn_score": same_score,
                  "history": None, "points_bonus": None}
