"""One call per job, for every game: ``solve``, ``win_rate``, ``best_response``, ``regret``,
``simulate`` and ``optimal_strategy`` take a game as a name (every Hog ruleset, semester and
rule file; every roll-or-hold game) or as a rules object (a :class:`~hogsolve.hog.rules.Ruleset`,
a :class:`~hogsolve.pig.rules.PigGame`) and call that game's family (:mod:`hogsolve.families`).

>>> import hogsolve
>>> round(hogsolve.solve("piglet").first_player_win_probability, 6)
0.522479
>>> hogsolve.win_rate("always_roll:4", "always_roll:6", "su18").average < 0.5
True
"""
from __future__ import annotations

import warnings
from typing import Any, Callable, Optional, Tuple

from .families import FAMILIES, GameFamily, family_of
from .errors import InputTypeError

#: What a game may be given as, in words (the TypeError says it).
ACCEPTED = "a game's name (a Hog ruleset, a rule file, a Pig-family game), a Ruleset or a PigGame"


def resolve(game: Any, goal: Optional[int] = None) -> Tuple[GameFamily, Any]:
    """``(family, rules object)`` of ``game`` (a name or a rules object), at ``goal`` if given."""
    if isinstance(game, str):
        family = family_of(game)
        return family, family.game(game, goal)
    for family in FAMILIES.values():
        if family.is_game(game):
            return family, game if goal is None else game.replace(goal=goal)
    raise InputTypeError(f"expected {ACCEPTED}, got {type(game).__name__}")


def solve(game: Any, *, goal: Optional[int] = None, **options: Any) -> Any:
    """The certified optimal solution of ``game`` (Hog: :func:`hogsolve.solver.optimal.solve`,
    whose ``exact``, ``model`` and ``progress`` options pass through; roll-or-hold:
    :func:`hogsolve.solver.pig.solve_pig`)."""
    family, rules = resolve(game, goal)
    return family.solve(rules, **options)


def win_rate(a: Any, b: Any, game: Any, *, goal: Optional[int] = None, **options: Any) -> Any:
    """The exact win rate of strategy ``a`` against ``b`` (first seat, second seat, average).
    A strategy may be a spec as the command line takes it (``optimal``, ``always_roll:4``,
    ``hold_at:20``, ``FILE.py:NAME``) or a strategy object."""
    family, rules = resolve(game, goal)
    return family.win_rate(_strategy(a, rules, family), _strategy(b, rules, family), rules, **options)


def best_response(strategy: Any, game: Any, *, goal: Optional[int] = None, **options: Any) -> Any:
    """The strategy that wins most often against the fixed ``strategy``, and its win rate."""
    family, rules = resolve(game, goal)
    return family.best_response(_strategy(strategy, rules, family), rules, **options)


def regret(strategy: Any, game: Any, *, goal: Optional[int] = None, **options: Any) -> Any:
    """Where ``strategy`` loses against optimal play: the loss of each state times its reach."""
    family, rules = resolve(game, goal)
    return family.regret(_strategy(strategy, rules, family), rules, **options)


def simulate(a: Any, b: Any, game: Any, games: int = 100_000, seed: Optional[int] = 0, *,
             goal: Optional[int] = None, **options: Any) -> Any:
    """``games`` seeded games of ``a`` against ``b``, half with each first: a
    :class:`~hogsolve.analysis.montecarlo.SimulationResult` for every game."""
    family, rules = resolve(game, goal)
    return family.simulate(_strategy(a, rules, family), _strategy(b, rules, family), rules,
                           games=games, seed=seed, **options)


def optimal_strategy(game: Any = "su18", *, goal: Optional[int] = None, **options: Any) -> Any:
    """The proven optimal strategy of ``game`` (Hog: from the shipped tables or a solve; the
    roll-or-hold games: their shipped tables)."""
    family, rules = resolve(game, goal)
    return family.optimal(rules, **options)


def _strategy(strategy: Any, rules: Any, family: GameFamily) -> Any:
    """A strategy spec (text) loaded for ``rules``; anything else as given."""
    if not isinstance(strategy, str):
        return strategy
    return family.load_strategy(strategy, rules)


def deprecated(name: str, replacement: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` warning that ``hogsolve.name`` goes in the next release (use ``replacement``)."""
    def call(*args: Any, **kwargs: Any) -> Any:
        warnings.warn(f"hogsolve.{name} is deprecated and goes in the next release: use hogsolve.{replacement}, "
                      "which takes every game", DeprecationWarning, stacklevel=2)
        return function(*args, **kwargs)
    call.__name__ = name
    call.__doc__ = f"Deprecated: :func:`hogsolve.{replacement}` takes every game. " + (function.__doc__ or "")
    return call


