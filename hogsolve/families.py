"""The game families the verbs serve, registered once.

A family is a kind of game with its own solver: Hog (every CS 61A ruleset,
rule files and Neller's Hog) and the roll-or-hold games (Pig, Piglet,
Two-Dice Pig, Big Pig).  Each verb looks the ``--rules`` name up here with
:func:`family_of` and calls the family's functions, so no verb asks which
family it serves; a new family is one more :class:`Family` in
:data:`FAMILIES`.  Functions are imported when called, so looking a family
up costs nothing.
"""
from __future__ import annotations

import dataclasses
import importlib
from typing import Any, Callable, Dict, Optional, Tuple


def _lazy(path: str) -> Callable[..., Any]:
    """``module:function`` of hogsolve, imported at the first call."""
    module, _, name = path.partition(":")

    def call(*args, **kwargs):
        return getattr(importlib.import_module(f"hogsolve.{module}"), name)(*args, **kwargs)
    call.__name__ = name
    setattr(call, "target", (f"hogsolve.{module}", name))  # noqa: B010 (what it calls, for tests and readers)
    call.__doc__ = f"hogsolve.{module}.{name}"
    return call


def _class(path: str) -> type:
    """``module:Class`` of hogsolve, imported now."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(f"hogsolve.{module}"), name)


@dataclasses.dataclass(frozen=True)
class Family:
    """What a verb needs of a kind of game; each field a callable of that family's own.

    ``game(name, goal)`` gives the rules object every other function takes, an
    instance of ``game_type()``; ``solve(game)`` the certified solution;
    ``win_rate(a, b, game)`` a :class:`~hogsolve.analysis.results.WinRate`;
    ``best_response(strategy, game)``, ``regret(strategy, game)``;
    ``simulate(a, b, game, games, seed)`` a
    :class:`~hogsolve.analysis.montecarlo.SimulationResult`; ``new_state(game, *, first=0)`` a
    game at its start (a :class:`~hogsolve.games.interface.GameState`), ``first`` to move; ``session(game, bot,
    you_first, seed)`` a person against the bot; ``optimal(game)`` the bot;
    ``tabulated(game, table)`` the strategy an agent's table of answers plays
    (:meth:`table_of` of the game); ``load_strategy(spec, game)`` a strategy from its
    spec (``optimal``, ``always_roll:4``, ``hold_at:20``, ``FILE.py:NAME``).  ``env_id`` is its
    Gymnasium id, whose keyword ``env_keyword`` names the game, ``default_game`` when none is named.
    """

    name: str
    description: str
    names: Callable[[], Tuple[str, ...]]
    game: Callable[..., Any]
    solve: Callable[..., Any]
    win_rate: Callable[..., Any]
    best_response: Callable[..., Any]
    regret: Callable[..., Any]
    simulate: Callable[..., Any]
    game_type: Callable[[], type]
    new_state: Callable[..., Any]
    session: Callable[..., Any]
    optimal: Callable[..., Any]
    tabulated: Callable[..., Any]
    load_strategy: Callable[..., Any]
    env_id: str
    env_keyword: str
    default_game: str

    def owns(self, name: Optional[str]) -> bool:
        """True when ``name`` (a --rules name, in any case) is one of this family's games."""
        return isinstance(name, str) and name.lower() in self.names()

    def is_game(self, game: Any) -> bool:
        """True when ``game`` is a rules object of this family (a Ruleset, a PigGame)."""
        return isinstance(game, self.game_type())


def _hog_names() -> Tuple[str, ...]:
    from .hog.rules import ALIASES, rulesets
    return tuple(rulesets()) + tuple(ALIASES)


def _pig_names() -> Tuple[str, ...]:
    from .pig.rules import PIG_GAMES
    return tuple(PIG_GAMES)


def _hog_policy(game: Any, table: Any) -> Any:
    """A Hog table of dice counts as a :class:`~hogsolve.strategy.policy.Policy` (a strategy
    every analysis and the engine take), named as a table is."""
    from .strategy.policy import Policy
    return Policy(table, game)


HOG = Family(
    name="hog", description="Hog: choose a number of dice each turn (CS 61A's rulesets and Neller's Hog)",
    names=_hog_names, game=_lazy("hog.rulefile:get_rules_or_file"), solve=_lazy("solver.optimal:solve"),
    win_rate=_lazy("analysis.evaluate:win_rate"), best_response=_lazy("analysis.evaluate:best_response"),
    regret=_lazy("analysis.evaluate:regret"), simulate=_lazy("analysis.montecarlo:simulate"),
    game_type=lambda: _class("hog.rules:Ruleset"), new_state=_lazy("hog.state:new_state"),
    session=_lazy("sessions.hog:Session"), optimal=_lazy("strategy.optimal_bot:optimal_strategy"),
    tabulated=_hog_policy, load_strategy=_lazy("strategy.specs:load_strategy"),
    env_id="hogsolve/Hog-v0", env_keyword="rules", default_game="su18")

ROLL_OR_HOLD = Family(
    name="roll-or-hold", description="roll or hold each roll: Pig, Piglet, Two-Dice Pig, Big Pig",
    names=_pig_names, game=_lazy("pig.rules:get_pig_game"), solve=_lazy("solver.pig:solve_pig"),
    win_rate=_lazy("analysis.pig.evaluate:pig_win_rate"),
    best_response=_lazy("analysis.pig.evaluate:pig_best_response"),
    regret=_lazy("analysis.pig.evaluate:pig_regret"), simulate=_lazy("analysis.pig.montecarlo:simulate_roll_or_hold"),
    game_type=lambda: _class("pig.rules:PigGame"), new_state=_lazy("pig.state:new_state"),
    session=_lazy("sessions.pig:PigSession"), optimal=_lazy("strategy.pig:pig_bot"),
    tabulated=_lazy("strategy.pig:TabulatedPig"), load_strategy=_lazy("strategy.pig:load_pig_strategy"),
    env_id="hogsolve/Pig-v0", env_keyword="game", default_game="pig")

#: Every family, by name; Hog is the default for names no family owns (rule files, typos: its
#: own lookup then explains the name).
FAMILIES: Dict[str, Family] = {f.name: f for f in (HOG, ROLL_OR_HOLD)}


def family_of(name: Optional[str]) -> Family:
    """The family whose game ``name`` is (Hog for a rule file, ``None``, or an unknown name)."""
    return next((f for f in FAMILIES.values() if f is not HOG and f.owns(name)), HOG)
