"""What every adapter shares: the games by name, their observations as vectors, every decision
state in one batch, and the exact evaluation of an agent.

An observation is what one seat sees, as whole numbers in a fixed order:
Hog ``[score, opponent_score, memory, opponent_memory]`` (memories only under
Feral Hogs) and the roll-or-hold games ``[score, opponent_score, turn_total]``.
Actions are Hog's dice counts (0 to max dice) and roll (0) / hold (1).
No third-party library is imported here.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

from ..families import FAMILIES, HOG, ROLL_OR_HOLD, Family, family_of
from ..games.interface import GameState
from ..pig.rules import PigGame

#: A bound on a memory's value in an observation (points scored on one turn, or dice).
MEMORY_HIGH = 200


@dataclasses.dataclass(frozen=True)
class GameSpec:
    """A game of either family, ready for an adapter: its rules, family and vector shapes
    (plain data, so the states that hold it pickle)."""

    family_name: str
    rules: Any  # a Ruleset or a PigGame

    @classmethod
    def of(cls, name: Optional[str] = None, goal: Optional[int] = None, rules: Any = None) -> "GameSpec":
        """The game named ``name`` (a ruleset, semester, pig game) at ``goal``, or given as rules."""
        if rules is not None:
            family = ROLL_OR_HOLD if isinstance(rules, PigGame) else HOG
            return cls(family.name, rules if goal is None else rules.replace(goal=goal))
        family = family_of(name)
        return cls(family.name, family.game(name, goal))

    @property
    def family(self) -> Family:
        """The family's functions (:mod:`hogsolve.families`)."""
        return FAMILIES[self.family_name]

    @property
    def is_hog(self) -> bool:
        """True for Hog, False for a roll-or-hold game."""
        return self.family_name == HOG.name

    @property
    def goal(self) -> int:
        """The goal score."""
        return int(self.rules.goal)

    @property
    def num_actions(self) -> int:
        """Dice counts 0..max dice, or roll and hold."""
        return int(self.rules.max_dice) + 1 if self.is_hog else 2

    @property
    def memories(self) -> bool:
        """True when the observation carries Feral Hogs' memories."""
        return self.is_hog and self.rules.history is not None

    @property
    def highs(self) -> np.ndarray:
        """The largest value of each observation entry."""
        g = self.goal
        if self.is_hog:
            return np.array([g, g] + ([MEMORY_HIGH, MEMORY_HIGH] if self.memories else []), dtype=np.int64)
        return np.array([g, g, 2 * g], dtype=np.int64)

    def new_state(self, first: int = 0) -> GameState:
        """A fresh game state, ``first`` to move."""
        return self.family.state(self.rules, first=first) if not self.is_hog else \
            self.family.state(self.rules, 0, 0, first)

    def observe(self, state: GameState, seat: int) -> np.ndarray:
        """What ``seat`` sees, as the observation vector."""
        seen = state.observation(seat)
        values = [seen["score"], seen["opponent_score"]]
        if self.is_hog:
            values += [seen["memory"], seen["opponent_memory"]] if self.memories else []
        else:
            values.append(seen["turn_total"])
        return np.minimum(np.array(values, dtype=np.int64), self.highs)

    def legal(self, state: GameState) -> np.ndarray:
        """The action mask of the player to move (int8, 1 where legal)."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        mask[state.legal_actions()] = 1
        return mask

    def decision_states(self) -> Tuple[np.ndarray, Tuple[np.ndarray, ...]]:
        """Every decision state's observation (rows) and its table index (arrays per axis)."""
        g = self.goal
        if self.is_hog:
            shape = (g, g) + tuple(self.rules.context_shape)
        else:
            shape = (g, g, g)
        index = np.indices(shape).reshape(len(shape), -1)
        if not self.is_hog:
            keep = index[0] + index[2] < g  # beyond, the mover holds and wins
            index = index[:, keep]
        return index.T.astype(np.int64), tuple(index)


def tabulate(agent, spec: GameSpec) -> np.ndarray:
    """The agent's action at every decision state, in one batch when it takes one.

    ``agent`` is a callable on an observation, or an object with ``predict(observation)``
    (Stable-Baselines3 returns ``(actions, state)``); both may take a batch of rows.
    """
    rows, index = spec.decision_states()
    act: Callable = agent.predict if hasattr(agent, "predict") else agent
    actions = None
    try:
        out = act(rows)
        out = out[0] if isinstance(out, tuple) else out
        out = np.asarray(out).reshape(-1)
        if out.shape == (len(rows),):
            actions = out
    except Exception:  # a single-observation agent: ask row by row below
        actions = None
    if actions is None:
        actions = []
        for row in rows:
            out = act(row)
            out = out[0] if isinstance(out, tuple) else out
            actions.append(int(np.asarray(out).reshape(-1)[0]))
        actions = np.array(actions)
    if not np.all((actions >= 0) & (actions < spec.num_actions)) or not np.all(actions == np.round(actions)):
        raise ValueError(f"the agent chose actions outside 0..{spec.num_actions - 1}")
    actions = actions.astype(np.int64)
    g = spec.goal
    if spec.is_hog:
        table = np.zeros((g, g) + tuple(spec.rules.context_shape), dtype=np.int8)
        table[index] = actions
        least = int(spec.rules.min_dice)
        if (table < least).any():
            raise ValueError(f"the agent chose fewer than {least} dice, which {spec.rules.name} forbids")
        return table
    roll = np.zeros((g, g, g), dtype=bool)
    roll[index] = actions == 0  # action 0 rolls
    roll[:, :, 0] = True        # the first roll of a turn is compulsory
    return roll


@dataclasses.dataclass(frozen=True)
class TabulatedPig:
    """A roll-or-hold agent as a roll table, as hogsolve's Pig analyses take it."""

    game: PigGame
    roll: np.ndarray
    name: str = "agent"

    def __call__(self, score: int, opponent_score: int, turn_total: int) -> bool:
        """True to roll (holding at the goal, as the game does)."""
        if score + turn_total >= self.game.goal:
            return False
        return bool(self.roll[score, opponent_score, turn_total])


@dataclasses.dataclass(frozen=True)
class AgentEvaluation:
    """An agent's exact standing in one game (see :func:`evaluate_agent`)."""

    game: str
    goal: int
    against_optimal: Any     # WinRate
    against_baseline: Any    # WinRate
    baseline: str
    best_response_win_rate: float
    exploitability: float
    worst_states: List[Dict[str, Any]]
    table: np.ndarray = dataclasses.field(repr=False)

    def to_dict(self) -> dict:
        """Plain values for JSON."""
        return {"game": self.game, "goal": self.goal,
                "against_optimal": self.against_optimal.to_dict(),
                "against_baseline": {**self.against_baseline.to_dict(), "baseline": self.baseline},
                "best_response_win_rate": self.best_response_win_rate, "exploitability": self.exploitability,
                "worst_states": self.worst_states}


def evaluate_agent(agent, rules=None, *, game: Optional[str] = None, goal: Optional[int] = None,
                   worst: int = 10) -> AgentEvaluation:
    """The exact win rate of ``agent`` against the optimal bot and against a baseline
    (``always_roll:4`` for Hog, ``hold_at:20`` for the roll-or-hold games), the exact value
    of the best response to it (exploitability: that value minus one half), and the ``worst``
    states where it loses most against optimal play, weighted by how often it gets there.

    ``rules`` is a ruleset name, a Ruleset or a PigGame (``game`` names a Pig game)."""
    spec = GameSpec.of(rules if isinstance(rules, str) else game, goal,
                       rules=None if isinstance(rules, str) or rules is None else rules)
    table = tabulate(agent, spec)
    family = spec.family
    if spec.is_hog:
        from ..strategy.named import always_roll
        optimal = family.solve(spec.rules)
        baseline, baseline_name = always_roll(4), "always_roll:4"
        strategy = table
    else:
        from ..strategy.pig import hold_at
        optimal = family.solve(spec.rules)
        baseline, baseline_name = hold_at(20), "hold_at:20"
        strategy = TabulatedPig(spec.rules, table)
    against_optimal = family.win_rate(strategy, optimal, spec.rules)
    against_baseline = family.win_rate(strategy, baseline, spec.rules)
    response = family.best_response(strategy, spec.rules)
    regret = family.regret(strategy, spec.rules, solution=optimal) if spec.is_hog else \
        family.regret(strategy, spec.rules, optimal)
    return AgentEvaluation(spec.rules.name, spec.goal, against_optimal, against_baseline, baseline_name,
                           float(response.win_rate.average), float(response.exploitability),
                           regret.to_dict(top=worst)["worst_states"], table)
