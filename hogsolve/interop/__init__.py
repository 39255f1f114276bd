"""hogsolve where game researchers and RL students work: OpenSpiel, Gymnasium and PettingZoo.

``import hogsolve.interop.openspiel`` (or ``.gymnasium``, ``.pettingzoo``)
registers the games with that library (``pip install 'hogsolve[rl]'``);
:func:`evaluate_agent` needs none of them.
"""
from .core import AgentEvaluation, GameSpec, evaluate_agent, tabulate

__all__ = ["AgentEvaluation", "GameSpec", "evaluate_agent", "tabulate"]
