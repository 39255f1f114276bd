"""The architecture in one list: hogsolve's packages from the bottom layer to the top.

A module may import from a lower layer or from its own package, never from
a package beside it or above it; ``tests/test_layers.py`` checks every
import (those inside functions too) against this list.
"""
from __future__ import annotations

from typing import Tuple

#: Bottom to top; the names on one layer stand side by side and never import each other.
LAYERS: Tuple[Tuple[str, ...], ...] = (
    ("version", "layers", "errors"),       # the version number; this list; HogsolveError
    ("util",),                             # files, plain JSON, stats, progress, parallel tasks
    ("games",),                            # the game interface every game's state implements
    ("hog", "pig", "sibala", "sinbad"),    # each game's rules and engine, nothing else
    ("solver",),                           # compiled models, backups, sweeps, certificates, exact checks
    ("strategy",),                         # Policy, named strategies, specs, user files, the optimal bot
    ("analysis",),                         # win rates, best response, regret, Monte Carlo, plots
    ("contest",),                          # round robins, student entries, sweeps of rulesets
    ("sessions",),                         # a person playing a game: sessions and terminal front ends
    ("families",),                         # the registry of game families the verbs dispatch through
    ("api",),                              # one call per job for every game, through the families
    ("gui", "interop"),                    # the browser front end; OpenSpiel, Gymnasium and PettingZoo
    ("cli",),                              # one module per verb
    ("__init__", "__main__"),              # the public API; python -m hogsolve
)


def layer_of(name: str) -> int:
    """The layer of a package or top-level module named ``name`` (as in :data:`LAYERS`)."""
    for number, names in enumerate(LAYERS):
        if name in names:
            return number
    raise KeyError(f"{name} is not in hogsolve.layers.LAYERS")
