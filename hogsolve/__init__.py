"""hogsolve: exact solutions of Hog and other dice games of the Pig family.

The public API is re-exported here and imported lazily, so that
``import hogsolve.player`` stays light (no solver, scipy or joblib).
"""
from __future__ import annotations

import importlib

from .version import __version__

_EXPORTS = {
    # rules and dice
    "Ruleset": "rules", "rulesets": "rules", "get_rules": "rules",
    "turn_score_distribution": "dice", "Distribution": "dice",
    # model and algorithms
    "Model": "model", "compile_model": "model",
    "solve": "solver", "Solution": "solver", "Certificate": "certificate",
    "ExactResult": "exact", "verify_ties": "exact", "TieCheck": "exact",
    # playing and comparing
    "play": "game", "GameResult": "game", "Turn": "game",
    "optimal_strategy": "player",
    "Policy": "policy", "as_policy": "policy", "StrategyError": "policy",
    "Strategy": "strategies", "always_roll": "strategies", "bacon_strategy": "strategies",
    "swap_strategy": "strategies", "random_strategy": "strategies", "table_strategy": "strategies",
    "tabulate": "strategies",
    "load_strategy": "specs", "parse_strategy": "specs", "StrategySpecError": "specs",
    "tournament": "roundrobin", "TournamentResult": "roundrobin",
    "contest_entries": "contest", "sweep_rulesets": "sweep", "load_grid": "sweep",
    "win_rate": "evaluate", "WinRate": "evaluate", "best_response": "evaluate",
    "exploitability": "evaluate", "regret": "evaluate",
    "simulate": "montecarlo",
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
