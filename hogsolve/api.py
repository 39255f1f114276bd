"""One call per job for every game: ``solve``, ``win_rate``, ``best_response``, ``regret``,
``simulate``, ``tournament`` and ``optimal_strategy`` take a game as a name (every Hog ruleset,
semester and rule file; every roll-or-hold game) or as a rules object (a
:class:`~hogsolve.hog.rules.Ruleset`, a :class:`~hogsolve.pig.rules.PigGame`) and call that
game's family (:class:`hogsolve.families.GameFamily`).

>>> import hogsolve
>>> round(hogsolve.solve("piglet").first_player_win_probability, 6)
0.522479
>>> hogsolve.win_rate("always_roll:4", "always_roll:6", "su18").average < 0.5
True
"""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence, Tuple, Union

from .analysis.montecarlo import SimulationResult
from .analysis.results import BestResponse, Regret, WinRate
from .contest.roundrobin import TournamentResult
from .errors import InputTypeError
from .families import FAMILIES, GameFamily, family_of
from .hog.rules import Ruleset
from .pig.rules import PigGame
from .solver.solution import Solution
from .strategy.mixed import Mixture

#: A game: its name (a ruleset, a semester, a rule file's path, a roll-or-hold game) or its rules.
Game = Union[str, Ruleset, PigGame]
#: A strategy: a spec as the command line takes it (``optimal``, ``always_roll:4``, ``hold_at:20``,
#: ``FILE.py:NAME``), or a strategy object of the game's family (a Policy, a solution, a table, a
#: function of the state), or a mixture (a :class:`~hogsolve.strategy.mixed.Mixture`, or a table of
#: action probabilities ``[..., action]``: ``win_rate`` and ``best_response`` take it exactly).
StrategyLike = Any

#: What a game may be given as, in words (the InputTypeError says it).
ACCEPTED = "a game's name (a Hog ruleset, a rule file, a Pig-family game), a Ruleset or a PigGame"


def resolve(game: Game, goal: Optional[int] = None) -> Tuple[GameFamily, Any]:
    """``(family, rules object)`` of ``game`` (a name or a rules object), at ``goal`` if given."""
    if isinstance(game, str):
        family = family_of(game)
        return family, family.game(game, goal)
    for family in FAMILIES.values():
        if family.is_game(game):
            return family, game if goal is None else game.replace(goal=goal)
    raise InputTypeError(f"expected {ACCEPTED}, got {type(game).__name__}")


def solve(game: Game, *, goal: Optional[int] = None, exact: bool = False,
          progress: Optional[Callable[..., Any]] = None, **options: Any) -> Solution:
    """The certified optimal solution of ``game``; with ``exact``, every decision proven by the
    strongest check that reaches the game (exact rationals, or the rigorous error bound: the
    same proof as ``hogsolve solve --exact``).  ``options`` are the family's own (Hog's
    compiled ``model``, roll-or-hold's ``max_passes``)."""
    family, rules = resolve(game, goal)
    return family.solve(rules, exact=exact, progress=progress, **options)


def win_rate(a: StrategyLike, b: StrategyLike, game: Game, *, goal: Optional[int] = None,
             **options: Any) -> WinRate:
    """The exact win rate of strategy ``a`` against ``b`` (first seat, second seat, average);
    ``options`` are the family's own (Hog's compiled ``model``)."""
    family, rules = resolve(game, goal)
    return family.win_rate(_strategy(a, rules, family), _strategy(b, rules, family), rules, **options)


def best_response(strategy: StrategyLike, game: Game, *, goal: Optional[int] = None,
                  **options: Any) -> BestResponse:
    """The strategy that wins most often against the fixed ``strategy``, and its win rate
    (``options``: the family's own, as Hog's compiled ``model``)."""
    family, rules = resolve(game, goal)
    return family.best_response(_strategy(strategy, rules, family), rules, **options)


def regret(strategy: StrategyLike, game: Game, *, goal: Optional[int] = None, **options: Any) -> Regret:
    """Where ``strategy`` loses against optimal play: the loss of each state times its reach
    (``options``: the family's own, as the ``solution`` to measure against)."""
    family, rules = resolve(game, goal)
    return family.regret(_strategy(strategy, rules, family), rules, **options)


def simulate(a: StrategyLike, b: StrategyLike, game: Game, games: int = 100_000, seed: Optional[int] = 0, *,
             goal: Optional[int] = None, **options: Any) -> SimulationResult:
    """``games`` seeded games of ``a`` against ``b``, half with each first (``options``: the
    family's own, as Hog's ``chunk`` and ``progress``)."""
    family, rules = resolve(game, goal)
    return family.simulate(_strategy(a, rules, family), _strategy(b, rules, family), rules, games=games, seed=seed,
                           **options)


def tournament(strategies: Sequence[StrategyLike], game: Game, *, goal: Optional[int] = None,
               names: Optional[Sequence[str]] = None, jobs: int = 1, threshold: float = 0.5,
               **options: Any) -> TournamentResult:
    """A round robin of ``strategies`` with exact win rates and the contest's standings (a pair is
    won above ``threshold``); ``options`` as :func:`hogsolve.contest.roundrobin.round_robin`
    (``backend``, ``scheduler``, ``known``, ``on_pair``, ``progress``)."""
    family, rules = resolve(game, goal)
    loaded = [_strategy(s, rules, family) for s in strategies]
    if names is None:
        names = [s if isinstance(s, str) else getattr(s, "name", f"strategy {k + 1}") for k, s in enumerate(strategies)]
    return family.tournament(loaded, rules, names=names, jobs=jobs, threshold=threshold, **options)


def optimal_strategy(game: Game = "su18", *, goal: Optional[int] = None, allow_unproven: bool = False) -> Any:
    """The proven optimal strategy of ``game`` (from the shipped tables, or a solve); one without
    a proof raises unless ``allow_unproven``."""
    family, rules = resolve(game, goal)
    return family.optimal(rules, allow_unproven=allow_unproven)


def _strategy(strategy: StrategyLike, rules: Any, family: GameFamily) -> Any:
    """A strategy spec (text) loaded for ``rules``; a table of action probabilities as a
    :class:`~hogsolve.strategy.mixed.Mixture`; anything else as given."""
    if Mixture.is_table(rules, strategy):
        return Mixture.table(rules, strategy)
    if not isinstance(strategy, str):
        return strategy
    return family.load_strategy(strategy, rules)
