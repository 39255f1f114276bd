"""Roll-or-hold strategies: hold at a turn total, and any strategy as a validated roll table."""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Callable, Optional, Union

import numpy as np

from ..hog.rules import StrategyError
from ..pig.rules import PIG_GAMES, PigGame, get_pig_game
from ..solver.pig import solve_pig
from ..solver.solution import Solution
from .mixed import Mixture
from ..solver.pig.tables import PIG_FORMAT
from ..solver.tables import TableError, load_arrays
from .optimal_bot import PlayerWarning, shipped_tables
from .userfile import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT, UserFileError, file_spec, tabulate_table
from ..errors import InputError


@dataclasses.dataclass(frozen=True, repr=False)
class PigBot:
    """The optimal roll-or-hold player from the shipped tables: ``values`` (float32 on disk, each
    within 2^-21 of the solved value, on a fixed grid) and ``policy`` (True to roll),
    checksum-verified; the same names as a :class:`~hogsolve.solver.solution.Solution`'s."""

    game: PigGame
    values: np.ndarray
    policy: np.ndarray

    name = "optimal"

    def __call__(self, score: int, opponent_score: int, turn_total: int) -> bool:
        """True to roll at (score, opponent_score, turn_total)."""
        return self.game.decide(self.policy, score, opponent_score, turn_total)

    @property
    def first_player_win_probability(self) -> float:
        """P(the first player wins) under optimal play by both."""
        return float(self.values[0, 0, 0])

    def __repr__(self) -> str:
        return f"PigBot({self.game.name}, goal={self.game.goal})"


@dataclasses.dataclass(frozen=True)
class TabulatedPig:
    """A roll-or-hold strategy as a roll table ``policy[i, j, k]`` (True to roll; an agent's or
    a user file's), as hogsolve's Pig analyses take it."""

    game: PigGame
    policy: np.ndarray
    name: str = "agent"

    def __call__(self, score: int, opponent_score: int, turn_total: int) -> bool:
        """True to roll (holding at the goal, as the game does)."""
        return self.game.decide(self.policy, score, opponent_score, turn_total)


def _load_pig(directory: Path, game: PigGame) -> PigBot:
    meta, arrays = load_arrays(directory, ("roll.npy", "value.npy"), PIG_FORMAT)
    g = game.goal
    if meta.get("rules") != game.summary():
        raise TableError(f"{directory} holds another game than {game.name} at goal {g}")
    roll, value = arrays["roll.npy"], arrays["value.npy"]
    if roll.shape != (g, g, g) or roll.dtype != bool or value.shape != (g, g, g) or value.dtype.kind != "f" \
            or not (np.isfinite(value).all() and value.min() >= 0 and value.max() <= 1):
        raise TableError(f"{directory} holds arrays of the wrong shape or kind")
    return PigBot(game, value.astype(np.float64), roll)


def pig_bot(game: Union[str, PigGame]) -> Union[PigBot, Solution]:
    """The optimal player of a roll-or-hold game: its shipped tables when it is a built-in game
    at its built-in goal (a fraction of a second), else a fresh :func:`~hogsolve.solve_pig`."""
    import warnings
    game = get_pig_game(game) if isinstance(game, str) else game
    if game.name in PIG_GAMES and get_pig_game(game.name) == game:
        try:
            return _load_pig(shipped_tables() / game.name, game)
        except TableError as exc:
            warnings.warn(f"cannot use the shipped {game.name} table: {exc}; solving instead", PlayerWarning,
                          stacklevel=2)
    return solve_pig(game)


def _named(strategy: Callable[[int, int, int], bool], name: str, table: Callable) -> Callable[[int, int, int], bool]:
    """``strategy`` with its ``name`` and its ``table(i, j, k, goal)`` (the whole table at once)."""
    setattr(strategy, "name", name)  # noqa: B010 (attributes of a function)
    setattr(strategy, "table", table)  # noqa: B010
    return strategy


def hold_at(threshold: int) -> Callable[[int, int, int], bool]:
    """Roll until the turn total reaches ``threshold``, then hold.  A turn total that reaches the
    goal is banked and wins at once, whatever the threshold (the game's rule,
    :attr:`hogsolve.pig.rules.GOAL_RULE`): ``hold_at:20`` at goal 100 holds at 20 or at the goal."""
    def strategy(score: int, opponent_score: int, turn_total: int) -> bool:
        return turn_total < threshold
    return _named(strategy, f"hold_at:{threshold}", lambda i, j, k, goal: k < threshold)


def hold_at_or_goal(threshold: int, goal: int) -> Callable[[int, int, int], bool]:
    """:func:`hold_at`, holding as soon as holding wins, spelled out (the same table: reaching the
    goal wins at once in every game here)."""
    def strategy(score: int, opponent_score: int, turn_total: int) -> bool:
        return turn_total < threshold and score + turn_total < goal
    return _named(strategy, f"hold_at_or_goal:{threshold}", lambda i, j, k, _goal: (k < threshold) & (i + k < goal))


def policy_table(strategy, game: PigGame) -> np.ndarray:
    """``roll[i, j, k]`` for turn totals k below twice the goal, from a table-backed strategy (a
    solution or best response, with ``roll`` and ``game``), a named strategy or any callable
    returning True to roll, validated.  Where the turn total reaches the goal (i + k >= goal)
    the table holds whatever the strategy says: the turn is banked and wins at once
    (:data:`hogsolve.pig.rules.GOAL_RULE`), as in every other path."""
    return _goal_rule(_strategy_table(strategy, game), game.goal)


def _goal_rule(table: np.ndarray, g: int) -> np.ndarray:
    """``table`` holding wherever score + turn total reaches the goal ``g`` (a table of roll
    probabilities: 0 there)."""
    i = np.arange(g)[:, None, None]
    k = np.arange(table.shape[2])[None, None, :]
    inside = i + k < g
    return table & inside if table.dtype == bool else table * inside


def _strategy_table(strategy, game: PigGame) -> np.ndarray:
    g = game.goal
    if isinstance(strategy, Mixture):  # the chance of rolling, as float64
        if strategy.game != game:
            raise InputError(f"{strategy.name} was made for {strategy.game.name} at goal {strategy.game.goal}")
        chance = np.zeros((g, g, 2 * g))
        chance[:, :, :g] = strategy.probabilities[..., 0]
        return chance
    i, j, k = np.meshgrid(np.arange(g), np.arange(g), np.arange(2 * g), indexing="ij")
    if isinstance(getattr(strategy, "policy", None), np.ndarray):  # a solution, bot or best response: its table
        if strategy.game != game:
            raise InputError(f"the solution is for {strategy.game.name} at goal {strategy.game.goal}")
        table = np.zeros((g, g, 2 * g), dtype=bool)
        w = min(strategy.policy.shape[2], 2 * g)  # a solution's g turn totals, or a whole table's 2g
        table[:, :, :w] = strategy.policy[:, :, :w] & (i[:, :, :w] + k[:, :, :w] < g)
        table[:, :, 0] = True  # the first roll of a turn is compulsory
        return table
    if hasattr(strategy, "table"):
        return np.asarray(strategy.table(i, j, k, g), dtype=bool)
    table = np.zeros((g, g, 2 * g), dtype=bool)
    for a in range(g):
        for b in range(g):
            for c in range(2 * g):
                choice = strategy(a, b, c)
                if not isinstance(choice, (bool, np.bool_)):
                    raise StrategyError(f"strategy {getattr(strategy, 'name', strategy)} returned {choice!r} at "
                                     f"({a}, {b}, {c}); expected True (roll) or False (hold)")
                table[a, b, c] = choice
    return table


#: The roll-or-hold strategy specs the command line and the environments take.
PIG_STRATEGY_FORMS = "optimal, hold_at:N, hold_at_or_goal:N, FILE.py:NAME"


def load_pig_strategy(spec: str, game: PigGame, solution=None, *, timeout: float = DEFAULT_TIMEOUT,
                      on_output: Optional[Callable[[str, object], None]] = None, allow_unproven: bool = False,
                      retry_failed: bool = False, memory_mb: int = DEFAULT_MEMORY_MB):
    """A roll-or-hold strategy from its spec (see :data:`PIG_STRATEGY_FORMS`); a StrategyError if bad.

    ``FILE.py:NAME`` (``FILE.py`` alone: its ``final_strategy``) is an agent on observation
    vectors (:mod:`~hogsolve.strategy.observations`) or a function ``(score, opponent_score,
    turn_total)`` returning True to roll, tabulated walled in for at most ``timeout`` seconds and
    ``memory_mb``, as Hog's files are (:func:`~hogsolve.strategy.specs.load_strategy`);
    ``on_output(label, captured)`` hears what it printed.  Every roll-or-hold bot is proven, so
    ``allow_unproven`` changes nothing."""
    if spec == "optimal":
        return solution or pig_bot(game)
    head, _, rest = spec.partition(":")
    if head in ("hold_at", "hold_at_or_goal"):
        if not rest.isascii() or not rest.isdigit() or not 1 <= int(rest) <= 10 * game.goal:
            raise StrategyError(f"bad strategy {spec!r}: expected {head}:N with N from 1 to {10 * game.goal}")
        return hold_at(int(rest)) if head == "hold_at" else hold_at_or_goal(int(rest), game.goal)
    if spec.endswith(".py"):
        spec = f"{spec}:final_strategy"
    try:
        named = file_spec(spec)
        if named is not None:
            roll, _source, captured = tabulate_table(*named, game, timeout=timeout, retry_failed=retry_failed,
                                                     memory_mb=memory_mb)
            if captured is not None and captured.lines and on_output is not None:
                on_output(spec, captured)
            if roll.dtype.kind == "f":  # an agent that gave action probabilities
                return Mixture(game, roll, spec)
            return TabulatedPig(game, roll, spec)
    except UserFileError as exc:
        raise StrategyError(str(exc)) from None
    raise StrategyError(f"bad strategy {spec!r} for {game.name}; accepted forms: {PIG_STRATEGY_FORMS}")
