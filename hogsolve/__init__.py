"""hogsolve: exact solutions of Hog and other dice games of the Pig family.

The public API is re-exported here and imported lazily, so that
``import hogsolve.strategy.optimal_bot`` stays light (no solver, scipy or joblib).
"""
from __future__ import annotations

import importlib

from .version import __version__

_EXPORTS = {
    # the root of every exception hogsolve raises on purpose, and bad input
    "HogsolveError": "errors", "InputError": "errors",
    # the games
    "Ruleset": "hog.rules", "rulesets": "hog.rules", "get_rules": "hog.rules",
    "PigGame": "pig.rules", "get_pig_game": "pig.rules", "PIG_GAMES": "pig.rules",
    "turn_score_distribution": "hog.dice", "Distribution": "hog.dice",
    # one call per job for every game (a name or a rules object)
    "solve": "api", "win_rate": "api", "best_response": "api", "regret": "api", "simulate": "api",
    "tournament": "api", "optimal_strategy": "api", "resolve": "api",
    # the results: one type per job
    "Solution": "solver.solution", "Certificate": "solver.certificate", "WinRate": "analysis.results",
    "BestResponse": "analysis.results", "Regret": "analysis.results", "SimulationResult": "analysis.montecarlo",
    "TournamentResult": "contest.roundrobin",
    # strategies
    "Policy": "strategy.policy", "as_policy": "strategy.policy", "load_strategy": "strategy.specs",
    "always_roll": "strategy.named", "hold_at": "strategy.pig", "hold_at_or_goal": "strategy.pig",
    "Mixture": "strategy.mixed",
    # playing a game: the engine, one state interface, one move's values (what a hint needs)
    "play": "hog.engine", "GameState": "games.interface", "HogState": "hog.state", "PigState": "pig.state",
    "SibalaState": "sibala.state", "action_values_at": "hog.lookahead",
    # the families every call goes through, and the compiled model the solvers share
    "GameFamily": "families", "FAMILIES": "families", "family_of": "families",
    "Model": "solver.model", "compile_model": "solver.model",
}

__all__ = sorted(_EXPORTS) + ["__version__"]


def __getattr__(name: str):
    if name in _EXPORTS:
        value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'hogsolve' has no attribute {name!r}")


def __dir__():
    return __all__
