"""hogsolve where game researchers and RL students work: OpenSpiel, Gymnasium and PettingZoo.

``import hogsolve.interop.openspiel`` (or ``.gymnasium``, ``.pettingzoo``)
registers the games with that library (``pip install 'hogsolve[rl]'``);
:func:`evaluate_agent` needs none of them.
"""
import warnings

from ..families.opponents import LiveOpponent
from .core import AgentEvaluation, GameSpec, evaluate_agent, tabulate_agent

__all__ = ["AgentEvaluation", "GameSpec", "LiveOpponent", "evaluate_agent", "tabulate_agent"]


def __getattr__(name: str):
    if name == "tabulate":  # renamed: hogsolve.strategy's tabulate tabulates a strategy, not an agent
        warnings.warn("hogsolve.interop.tabulate is deprecated and goes in the next release: use "
                      "hogsolve.interop.tabulate_agent", DeprecationWarning, stacklevel=2)
        return tabulate_agent
    raise AttributeError(f"module 'hogsolve.interop' has no attribute {name!r}")
