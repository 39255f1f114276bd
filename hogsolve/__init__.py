"""hogsolve: exact solutions of Hog and other dice games of the Pig family.

The public API is re-exported here and imported lazily, so that
``import hogsolve.strategy.optimal_bot`` stays light (no solver, scipy or joblib).
"""
from __future__ import annotations

import importlib

from .version import __version__

_EXPORTS = {
    # the root of every exception hogsolve raises on purpose
    "HogsolveError": "errors", "InputError": "errors",
    # rules and dice
    "Ruleset": "hog.rules", "rulesets": "hog.rules", "get_rules": "hog.rules",
    "turn_score_distribution": "hog.dice", "Distribution": "hog.dice",
    # model and algorithms
    "Model": "solver.model", "compile_model": "solver.model",
    "Solution": "solver.solution", "HogSolution": "solver.optimal", "Certificate": "solver.certificate",
    "ExactResult": "solver.exact", "verify_ties": "solver.exact", "TieCheck": "solver.exact",
    # playing and comparing
    "play": "hog.engine", "GameResult": "hog.engine", "Turn": "hog.engine",
    "Policy": "strategy.policy", "as_policy": "strategy.policy", "StrategyError": "strategy.policy",
    "Strategy": "strategy.named", "always_roll": "strategy.named", "bacon_strategy": "strategy.named",
    "swap_strategy": "strategy.named", "random_strategy": "strategy.named", "table_strategy": "strategy.named",
    "tabulate": "strategy.named",
    "load_strategy": "strategy.specs", "parse_strategy": "strategy.specs", "StrategySpecError": "strategy.specs",
    "tournament": "contest.roundrobin", "TournamentResult": "contest.roundrobin",
    "contest_entries": "contest.entries", "write_report": "contest.report",
    "sweep_rulesets": "contest.sweeps", "load_grid": "contest.sweeps",
    "WinRate": "analysis.results", "exploitability": "analysis.evaluate", "SimulationResult": "analysis.montecarlo",
    "BestResponse": "analysis.results", "Regret": "analysis.results",
    "HogBestResponse": "analysis.evaluate", "HogRegret": "analysis.evaluate",
    # one call per job for every game (a name or a rules object)
    "solve": "api", "win_rate": "api", "best_response": "api", "regret": "api", "simulate": "api",
    "optimal_strategy": "api", "resolve": "api",
    # the Pig family
    "PigGame": "pig.rules", "get_pig_game": "pig.rules", "PIG_GAMES": "pig.rules",
    "PigSolution": "solver.pig", "PigBestResponse": "analysis.pig.evaluate", "PigRegret": "analysis.pig.evaluate",
    "hold_at": "strategy.pig", "hold_at_or_goal": "strategy.pig", "pig_bot": "strategy.pig",
    # one game interface, one registry of families
    "GameState": "games.interface", "HogState": "hog.state", "PigState": "pig.state",
    "SibalaState": "sibala.state", "GameFamily": "families", "FAMILIES": "families", "family_of": "families",
    # one state's move values from the state values (what a hint needs)
    "action_values_at": "hog.lookahead",
    # SinbadHogBot's real-time room
    "ChatRoom": "sinbad.chatroom",
}

#: The roll-or-hold functions of before one call served every game: they still work for one
#: release, with a DeprecationWarning naming the call that replaces each.
_DEPRECATED = {
    "solve_pig": ("solver.pig", "solve"), "pig_win_rate": ("analysis.pig.evaluate", "win_rate"),
    "pig_best_response": ("analysis.pig.evaluate", "best_response"),
    "pig_regret": ("analysis.pig.evaluate", "regret"), "simulate_pig": ("analysis.pig.montecarlo", "simulate"),
}

__all__ = sorted(_EXPORTS) + ["__version__"]


def __getattr__(name: str):
    if name in _EXPORTS:
        value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
        globals()[name] = value
        return value
    if name in _DEPRECATED:
        from .api import deprecated
        module, replacement = _DEPRECATED[name]
        value = deprecated(name, replacement, getattr(importlib.import_module(f".{module}", __name__), name))
        globals()[name] = value
        return value
    raise AttributeError(f"module 'hogsolve' has no attribute {name!r}")


def __dir__():
    return __all__
