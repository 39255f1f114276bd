"""A third game family in a few dozen lines, to show that a new game is one more GameFamily:
Dash, a race to the goal where each turn a player steps 1 for sure (action 0) or leaps 2 or 0
on a fair coin (action 1).  Only this file knows Dash; tests/test_toy_family.py plays it
through solve, compare, the web game's API and the Gymnasium environment."""
import dataclasses
from fractions import Fraction
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

from hogsolve.analysis.results import WinRate
from hogsolve.families import GameFamily

MOVES = {0: [(1, Fraction(1))], 1: [(2, Fraction(1, 2)), (0, Fraction(1, 2))]}


@dataclasses.dataclass(frozen=True)
class Dash:
    """The rules: a goal, and the facts the adapters read."""
    goal: int = 10
    name: str = "dash"
    description: str = "Dash: step 1, or leap 2 or 0 on a coin; first to the goal wins"
    family = "dash"
    num_actions = 2
    context_shape: Tuple[int, ...] = ()
    average_label = ""

    def replace(self, **changes: Any) -> "Dash":
        return dataclasses.replace(self, **changes)

    def observation_high(self) -> np.ndarray:
        return np.array([self.goal, self.goal])

    def observation_vector(self, seen: Dict[str, Any]) -> List[int]:
        return [seen["score"], seen["opponent_score"]]


class DashState:
    """Dash as a GameState: scores, the player to move, and a pending move's coin."""

    def __init__(self, game: Dash, first: int = 0):
        self.game, self.scores, self.mover, self.pending = game, [0, 0], first, None

    @property
    def current_player(self) -> int:
        return -4 if self.is_terminal() else (-1 if self.pending is not None else self.mover)

    def legal_actions(self) -> List[int]:
        return [] if self.is_terminal() or self.pending is not None else [0, 1]

    def is_chance_node(self) -> bool:
        return self.pending is not None

    def chance_outcomes(self) -> List[Tuple[int, Fraction]]:
        return MOVES[self.pending]

    def apply_action(self, action: int) -> None:
        if self.pending is None:
            self.pending = action
            return
        self.scores[self.mover] += action
        self.pending, self.mover = None, 1 - self.mover

    def is_terminal(self) -> bool:
        return max(self.scores) >= self.game.goal

    def returns(self) -> List[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        return [1.0, -1.0] if self.scores[0] >= self.game.goal else [-1.0, 1.0]

    def observation(self, seat: int) -> Dict[str, Any]:
        return {"score": self.scores[seat], "opponent_score": self.scores[1 - seat]}

    def clone(self) -> "DashState":
        other = DashState(self.game, self.mover)
        other.scores, other.pending = list(self.scores), self.pending
        return other

    def action_to_string(self, action: int) -> str:
        return (f"moves {action}" if self.pending is not None else ("step", "leap")[action])


def after(v: np.ndarray, s: int, o: int, n: int, g: int) -> float:
    """The mover's chance after moving ``n`` from ``s`` against ``o``: a win at the goal, else one
    minus the opponent's (``v[o, s']``: the opponent to move)."""
    return 1.0 if s + n >= g else 1 - v[o, s + n]


def move_values(v: np.ndarray, s: int, o: int, g: int) -> List[float]:
    """Each action's chance at (s, o), the opponent's chances ``v`` after it."""
    return [sum(float(q) * after(v, s, o, n, g) for n, q in MOVES[m]) for m in (0, 1)]


def values(game: Dash, a: np.ndarray, b: np.ndarray, rounds: int = 400) -> np.ndarray:
    """``v[p, s, o]``: P(the player with table p (``a`` or ``b``, actions by (s, o)), to move with s
    against o, wins); tables of None: both play the best move (value iteration)."""
    g, v = game.goal, np.zeros((2, game.goal + 2, game.goal + 2))
    for _ in range(rounds):
        new = v.copy()
        for p, table in ((0, a), (1, b)):
            for s in range(g):
                for o in range(g):
                    choices = move_values(v[1 - p], s, o, g)
                    new[p, s, o] = max(choices) if table is None else choices[int(table[s, o])]
        v = new
    return v


@dataclasses.dataclass(frozen=True)
class Proven:
    """Dash's certificate: 400 rounds of value iteration on a game this small leave no doubt."""
    proven: bool = True
    reason: str = ""


@dataclasses.dataclass(frozen=True)
class DashSolution:
    """The optimum (or a table played as a strategy): actions, the mover's win probabilities."""
    game: Dash
    policy: np.ndarray
    values: np.ndarray
    certificate: Proven = Proven()
    name: str = "optimal"

    @property
    def first_player_win_probability(self) -> float:
        return float(self.values[0, 0])

    @property
    def usable(self) -> bool:
        return True

    def to_dict(self) -> dict:
        return {"ok": True, "first_player_win_probability": self.first_player_win_probability}

    def __call__(self, score: int, opponent_score: int) -> int:
        return int(self.policy[score, opponent_score])


class DashFamily(GameFamily[Dash]):
    """What hogsolve needs of Dash; every other hook keeps its refusing default."""
    name, description, env_id, env_keyword, default_game = "dash", Dash.description, "toy/Dash-v0", "game", "dash"

    def names(self) -> Tuple[str, ...]:
        return ("dash",)

    def game(self, name: str, goal: Optional[int] = None) -> Dash:
        return Dash() if goal is None else Dash(goal=goal)

    def game_type(self) -> type:
        return Dash

    def new_state(self, game: Dash, *, first: int = 0) -> DashState:
        return DashState(game, first)

    def solve(self, game: Dash, *, exact: bool = False, progress: Optional[Callable[..., Any]] = None,
              **options: Any) -> DashSolution:
        v = values(game, None, None)[0, :game.goal, :game.goal]
        g = game.goal
        policy = np.zeros((g, g), dtype=np.int8)
        for s in range(g):
            for o in range(g):
                step, leap = move_values(v, s, o, g)
                policy[s, o] = int(leap > step + 1e-12)
        return DashSolution(game, policy, v)

    def win_rate(self, a: Any, b: Any, game: Dash, **options: Any) -> WinRate:
        ta, tb = self.table_of(a, game), self.table_of(b, game)
        first = values(game, ta, tb)[0, 0, 0]
        second = 1 - values(game, ta, tb)[1, 0, 0]
        return WinRate(getattr(a, "name", str(a)), getattr(b, "name", str(b)), float(first), float(second))

    def load_strategy(self, spec: str, game: Dash, **options: Any) -> Any:
        if spec == "optimal":
            return self.optimal(game)
        action = {"step": 0, "leap": 1}[spec]
        return self.tabulated(game, np.full((game.goal, game.goal), action, dtype=np.int8), spec)

    def optimal(self, game: Dash, *, allow_unproven: bool = False) -> DashSolution:
        return self.solve(game)

    def tabulated(self, game: Dash, table: np.ndarray, name: str = "table") -> DashSolution:
        return DashSolution(game, np.asarray(table, dtype=np.int8), np.zeros(table.shape), name=name)

    def table_of(self, strategy: Any, game: Dash) -> np.ndarray:
        return self.load_strategy(strategy, game).policy if isinstance(strategy, str) else strategy.policy

    def chooser(self, table: np.ndarray, game: Dash) -> Callable[[Any], int]:
        return lambda state: int(table[tuple(state.scores[state.mover:] + state.scores[:state.mover])])
