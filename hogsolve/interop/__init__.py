"""hogsolve where game researchers and RL students work: OpenSpiel, Gymnasium and PettingZoo.

``import hogsolve.interop.openspiel`` (or ``.gymnasium``, ``.pettingzoo``)
registers the games with that library (``pip install 'hogsolve[rl]'``);
:func:`evaluate_agent` needs none of them.
"""
from ..families.opponents import LiveOpponent
from .core import AgentEvaluation, GameSpec, distribution_of, evaluate_agent, strategy_of_agent, tabulate_agent

__all__ = ["AgentEvaluation", "GameSpec", "LiveOpponent", "distribution_of", "evaluate_agent", "strategy_of_agent",
           "tabulate_agent"]
