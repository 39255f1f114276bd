"""Strategies: ``strategy(score, opponent_score) -> number of dice``.

This is the CS 61A convention, so a student's ``final_strategy`` plugs in
unchanged.  Every strategy here is a :class:`Strategy`: a callable with a
``name``.  :func:`tabulate` turns any strategy into a policy table
``policy[score, opponent_score]`` once, validating every choice; the exact
algorithms work on those tables.

What a strategy may return: an ``int`` (or numpy integer) from 0 to
``max_dice``.  ``bool`` is refused even though Python treats it as an int,
since ``True`` dice is almost surely a bug; floats (even 3.0), strings and
None are refused.  A refusal names the strategy, the state and the value.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Callable

import numpy as np

from .rules import Ruleset

SPEC_FORMS = ("optimal", "always_roll:N", "bacon:MARGIN:NUM_ROLLS", "swap:MARGIN:NUM_ROLLS",
              "random:SEED", "path/to/file.py:function_name", "table:path.csv")


class StrategyError(ValueError):
    """A strategy returned an invalid dice count or raised."""


class StrategySpecError(ValueError):
    """A strategy spec string that cannot be understood."""


class Strategy:
    """A named strategy function ``(score, opponent_score) -> dice``."""

    def __init__(self, function: Callable[[int, int], int], name: str):
        self.function = function
        self.name = name

    def __call__(self, score: int, opponent_score: int):
        return self.function(score, opponent_score)

    def __repr__(self) -> str:
        return f"Strategy({self.name})"


def strategy_name(strategy) -> str:
    """A strategy's name; "table" for a bare policy array."""
    if isinstance(strategy, np.ndarray):
        return "table"
    return getattr(strategy, "name", None) or getattr(strategy, "__name__", None) or repr(strategy)


def checked_choice(strategy, score: int, opponent_score: int, max_dice: int) -> int:
    """Ask ``strategy`` for its dice count at one state, validating the answer."""
    name = strategy_name(strategy)
    try:
        choice = strategy(score, opponent_score)
    except Exception as exc:
        raise StrategyError(
            f"strategy {name} raised {type(exc).__name__}: {exc} "
            f"at score {score}, opponent score {opponent_score}") from exc
    if isinstance(choice, (bool, np.bool_)) or not isinstance(choice, (int, np.integer)) \
            or not 0 <= choice <= max_dice:
        raise StrategyError(
            f"strategy {name} returned {choice!r} at score {score}, opponent score "
            f"{opponent_score}; expected an int from 0 to {max_dice}")
    return int(choice)


def tabulate(strategy, rules: Ruleset) -> np.ndarray:
    """``policy[score, opponent_score]`` of a strategy over every state, validated."""
    table = getattr(strategy, "table", None)
    g = rules.goal
    if isinstance(table, np.ndarray) and table.shape == (g, g):
        return table.astype(np.int8)
    policy = np.empty((g, g), dtype=np.int8)
    for s in range(g):
        for o in range(g):
            policy[s, o] = checked_choice(strategy, s, o, rules.max_dice)
    return policy


# ------------------------------------------------------------ strategies --

def always_roll(n: int) -> Strategy:
    """Roll ``n`` dice in every state."""
    return Strategy(lambda score, opponent_score: n, f"always_roll:{n}")


def bacon_strategy(rules: Ruleset, margin: int = 8, num_rolls: int = 4) -> Strategy:
    """Roll 0 when Free Bacon gives at least ``margin`` points, else ``num_rolls``."""
    def strategy(score, opponent_score):
        return 0 if rules.free_bacon(opponent_score) >= margin else num_rolls
    return Strategy(strategy, f"bacon:{margin}:{num_rolls}")


def swap_strategy(rules: Ruleset, margin: int = 8, num_rolls: int = 4) -> Strategy:
    """Roll 0 when it causes a beneficial swap, or gains at least ``margin``
    points without a harmful swap; else ``num_rolls`` (the CS 61A baseline)."""
    def strategy(score, opponent_score):
        bacon = rules.free_bacon(opponent_score)
        new = score + bacon
        swapped = bool(rules.swaps(new, opponent_score))
        if swapped and opponent_score > new:
            return 0
        if bacon >= margin and not (swapped and opponent_score < new):
            return 0
        return num_rolls
    return Strategy(strategy, f"swap:{margin}:{num_rolls}")


def random_strategy(seed: int, rules: Ruleset) -> Strategy:
    """A fixed random dice count per state, drawn once from ``seed``."""
    g = rules.goal
    table = np.random.default_rng(seed).integers(0, rules.max_dice + 1, size=(g, g)).astype(np.int8)
    return table_strategy(table, f"random:{seed}")


def table_strategy(table: np.ndarray, name: str = "table") -> Strategy:
    """A strategy read from a policy table ``table[score, opponent_score]``."""
    table = np.asarray(table)

    def strategy(score, opponent_score):
        return int(table[score, opponent_score])
    s = Strategy(strategy, name)
    s.table = table
    return s


def load_table_csv(path: Path, rules: Ruleset) -> np.ndarray:
    """A goal x goal policy CSV in the solutions/ layout (header row and column)."""
    from .tables import read_grid_csv
    try:
        table = read_grid_csv(Path(path), int)
    except OSError as exc:
        raise StrategySpecError(f"cannot read {path}: {exc.strerror}") from None
    except ValueError as exc:
        raise StrategySpecError(f"{path} is not a policy table: {exc}") from None
    g = rules.goal
    if table.shape != (g, g):
        raise StrategySpecError(f"{path} is {table.shape[0]}x{table.shape[1] if table.ndim == 2 else '?'}, "
                                f"expected {g}x{g} for goal {g}")
    if table.min() < 0 or table.max() > rules.max_dice:
        raise StrategySpecError(f"{path} has dice counts outside 0..{rules.max_dice}")
    return table.astype(np.int8)


def load_function(path: str, function: str) -> Callable:
    """``function`` from the Python file ``path`` (its folder joins sys.path)."""
    file = Path(path)
    if not file.is_file():
        raise StrategySpecError(f"no such file: {path}")
    spec = importlib.util.spec_from_file_location(f"hogsolve_user_{file.stem}", file)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(file.resolve().parent))
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        raise StrategySpecError(f"cannot load {path}: {type(exc).__name__}: {exc}") from None
    finally:
        sys.path.remove(str(file.resolve().parent))
    found = getattr(module, function, None)
    if not callable(found):
        raise StrategySpecError(f"{path} has no function {function!r}")
    return found


def parse_strategy(spec: str, rules: Ruleset) -> Strategy:
    """A strategy from a command-line spec (see ``SPEC_FORMS``)."""
    def bad(why: str) -> StrategySpecError:
        return StrategySpecError(f"bad strategy {spec!r}: {why}; accepted forms: {', '.join(SPEC_FORMS)}")

    def ints(parts, count):
        if len(parts) != count:
            raise bad(f"expected {count} number(s) after the colon")
        try:
            return [int(p) for p in parts]
        except ValueError:
            raise bad("expected whole numbers") from None

    head, _, rest = spec.partition(":")
    parts = rest.split(":") if rest else []
    if spec == "optimal":
        from .player import optimal_strategy
        return optimal_strategy(rules)
    if head == "always_roll":
        (n,) = ints(parts, 1)
        if not 0 <= n <= rules.max_dice:
            raise bad(f"dice count must be from 0 to {rules.max_dice}")
        return always_roll(n)
    if head in ("bacon", "swap"):
        margin, num_rolls = ints(parts, 2)
        if not 0 <= num_rolls <= rules.max_dice:
            raise bad(f"dice count must be from 0 to {rules.max_dice}")
        return (bacon_strategy if head == "bacon" else swap_strategy)(rules, margin, num_rolls)
    if head == "random":
        (seed,) = ints(parts, 1)
        return random_strategy(seed, rules)
    if head == "table":
        if not rest:
            raise bad("expected a CSV path after table:")
        return table_strategy(load_table_csv(Path(rest), rules), spec)
    if spec.count(":") >= 1 and spec.rsplit(":", 1)[0].endswith(".py"):
        path, function = spec.rsplit(":", 1)
        return Strategy(load_function(path, function), spec)
    raise bad("unknown form")


def baselines(rules: Ruleset) -> list:
    """The CS 61A baselines: always_roll 0..max_dice and the bacon/swap strategies."""
    out = [always_roll(n) for n in range(rules.max_dice + 1)]
    return out + [bacon_strategy(rules), swap_strategy(rules)]

