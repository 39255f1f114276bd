"""One type for every strategy that enters hogsolve: a validated, read-only table.

A :class:`Policy` is a ``goal x goal`` table of dice counts for one ruleset,
``table[score, opponent_score]`` with the player to move first, plus a name
and where it came from.  It is callable as ``policy(score, opponent_score)``,
so it is itself a CS 61A strategy.  :func:`as_policy` is the one boundary:
a callable, a table, a :class:`Policy`, or anything with a ``.policy``
(a solution, a best response) becomes a Policy there, validated once, and
every algorithm takes Policies.

What a strategy may return: an ``int`` (or numpy integer) from 0 to
``max_dice``.  ``bool`` is refused even though Python treats it as an int,
since ``True`` dice is almost surely a bug; floats (even 3.0), strings and
None are refused.  A strategy whose answer differs between two calls at the
same state is refused, as in the CS 61A contest.  A refusal names the
strategy, the state and the values.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Dict, Optional

import numpy as np

from ..hog.rules import Ruleset, StrategyError, checked_choice, strategy_name  # noqa: F401 (StrategyError re-exported)


def rules_key(rules: Any) -> Dict[str, Any]:
    """What a table depends on: the game's summary (a ruleset's components, goal and max dice)."""
    return rules.summary()


def _frozen(table: np.ndarray, memories: int) -> np.ndarray:
    """A read-only int8 copy of a validated table.  One that chooses alike under every memory
    (a strategy of the two scores) is kept as its ``(goal, goal)`` table broadcast over the
    memories, so what reads it can see it ignores them (:mod:`hogsolve.solver.history`)."""
    if memories:
        core = table[(...,) + (slice(0, 1),) * memories]
        if np.array_equal(np.broadcast_to(core, table.shape), table):
            return np.broadcast_to(_frozen(core, 0), table.shape)
    frozen = table.astype(np.int8, copy=True)
    frozen.setflags(write=False)
    return frozen


@dataclasses.dataclass(frozen=True, eq=False)
class Policy:
    """A validated, read-only table of dice counts for one ruleset.

    Parameters
    ----------
    table : ndarray (goal, goal) of int8
        ``table[score, opponent_score]``: dice to roll, the player to move first.
        Under a history rule ``(goal, goal, H, H)``, by the mover's and the
        opponent's memory too; a (goal, goal) table is broadcast over them (and so is a
        whole table that chooses alike under every memory: it is kept once).
    rules : Ruleset
        The ruleset it was made for (its goal and max dice bound the table).
    name : str
        How it is shown (a spec such as ``always_roll:4`` or ``hog.py:final_strategy``).
    source : dict
        Where it came from: ``{"kind": "spec" | "file" | "table" | "solver" | "callable" |
        "array", ...}`` with the file, function and sha256 for files.
    """

    table: np.ndarray
    rules: Ruleset
    name: str = "table"
    source: Dict[str, Any] = dataclasses.field(default_factory=lambda: {"kind": "array"})

    def __post_init__(self):
        table = np.asarray(self.table)
        g, most = int(self.rules.goal), int(self.rules.max_dice)
        shape = (g, g) + self.rules.context_shape
        if table.shape == (g, g) and table.shape != shape:  # a strategy that ignores the history
            table = np.broadcast_to(table[(...,) + (None,) * len(self.rules.context_shape)], shape)
        if table.shape != shape:
            raise StrategyError(f"policy {self.name} is {'x'.join(map(str, table.shape)) or 'a scalar'}, "
                                f"expected {'x'.join(map(str, shape))} for goal {g}")
        if table.dtype.kind not in "iu":
            raise StrategyError(f"policy {self.name} holds {table.dtype} values, expected integers")
        least = int(self.rules.min_dice)
        if table.size and (table.min() < least or table.max() > most):
            bad = np.argwhere((table < least) | (table > most))[0]
            raise StrategyError(
                f"policy {self.name} has {int(table[tuple(bad)])} dice at score {bad[0]}, "
                f"opponent score {bad[1]}; expected {least} to {most}")
        object.__setattr__(self, "table", _frozen(table, len(self.rules.context_shape)))

    def __call__(self, score: int, opponent_score: int, *context: int) -> int:
        """Dice at (score, opponent_score); under a history rule ``context`` is (my memory,
        the opponent's memory) of the previous turns, 0 when not given."""
        context = self.rules.context_index(context) if self.rules is not None else ()
        return int(self.table[(score, opponent_score) + context])

    @property
    def uses_history(self) -> bool:
        """True when the table depends on the players' memories (engines then pass them)."""
        return bool(self.rules.context_shape)

    def __repr__(self) -> str:
        return f"Policy({self.name}, {self.rules.name}, goal={self.rules.goal})"

    def to_dict(self) -> dict:
        """Name, source, ruleset and the table as lists (plain JSON)."""
        return {"name": self.name, "source": dict(self.source), "rules": rules_key(self.rules),
                "table": self.table.tolist()}

    def matches(self, rules: Ruleset) -> bool:
        """True when this policy was made for ``rules`` (same components, goal, max dice)."""
        return rules_key(self.rules) == rules_key(rules)


def tabulate_callable(strategy, rules: Ruleset) -> np.ndarray:
    """Ask a Python callable at every state, twice, validating every answer."""
    g, most = int(rules.goal), int(rules.max_dice)
    name = strategy_name(strategy)
    table = np.empty((g, g), dtype=np.int8)
    for s in range(g):
        for o in range(g):
            first = checked_choice(strategy, s, o, most, min_dice=int(rules.min_dice))
            again = checked_choice(strategy, s, o, most, min_dice=int(rules.min_dice))
            if again != first:
                raise StrategyError(
                    f"strategy {name} is not deterministic: at score {s}, opponent score {o} "
                    f"it returned {first} and then {again}")
            table[s, o] = first
    return table


def as_policy(strategy: Any, rules: Ruleset, name: Optional[str] = None) -> Policy:
    """The one way into hogsolve: ``strategy`` as a validated :class:`Policy` for ``rules``.

    Accepts a Policy (checked to belong to ``rules``), a table array, an
    object with a ``.policy`` (a Solution or a BestResponse) or a ``.table``
    (the optimal player), or any callable ``(score, opponent_score) -> dice``.
    """
    if isinstance(strategy, Policy):
        if not strategy.matches(rules):
            raise StrategyError(
                f"policy {strategy.name} was made for {strategy.rules.name} at goal {strategy.rules.goal}, "
                f"not {rules.name} at goal {rules.goal}")
        return strategy if name is None else dataclasses.replace(strategy, name=name)
    label = name or strategy_name(strategy)
    owner = getattr(strategy, "rules", None)
    if isinstance(owner, Ruleset) and rules_key(owner) != rules_key(rules):
        raise StrategyError(f"{label} was made for {owner.name} at goal {owner.goal}, "
                            f"not {rules.name} at goal {rules.goal}")
    if isinstance(strategy, np.ndarray):
        return Policy(strategy, rules, label, {"kind": "array"})
    table = getattr(strategy, "table", None)
    if isinstance(table, np.ndarray):
        return Policy(table, rules, label, dict(getattr(strategy, "source", None) or {"kind": "table"}))
    inner = getattr(strategy, "policy", None)
    if isinstance(inner, (np.ndarray, Policy)):
        return as_policy(inner, rules, label)
    if not callable(strategy):
        raise StrategyError(f"{label!r} is not a strategy: expected a callable, a table or a Policy")
    return Policy(tabulate_callable(strategy, rules), rules, label, {"kind": "callable"})
