"""What every adapter shares: the games by name, their observations as vectors, and the exact
evaluation of an agent.

Observations, actions and decision states are defined once, in
:mod:`hogsolve.strategy.observations` (which the command line's agent files
use too).  No third-party library is imported here.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Dict, List, Optional

import numpy as np

from ..families import FAMILIES, GameSpec, family_of, game_spec
from ..strategy import observations
from ..strategy.agent_calls import actions_of, answers_of
from ..strategy.mixed import Mixture
from ..errors import InputError


def env_game(rules: Any, game: Optional[str], goal: Optional[int], family: Optional[str] = None,
             where: str = "the environment") -> GameSpec:
    """The game an environment plays: ``rules`` (a Hog ruleset, a name or a Ruleset) or ``game``
    (a roll-or-hold game's name), never both; of ``family`` when the environment's id serves one
    (then named by that id, and a ValueError names the id to use for another family's game)."""
    own = FAMILIES[family] if family is not None else None
    where = own.env_id if own is not None else where
    if rules is not None and game is not None:
        raise InputError(f"{where}: give rules= (a Hog ruleset) or game= (a roll-or-hold game), not both "
                         f"(got rules={rules!r}, game={game!r})")
    name = rules if rules is not None else game
    if name is None:
        name = (own or family_of(None)).default_game  # no family: Hog's, as every verb
    spec = game_spec(name, goal) if isinstance(name, str) else game_spec(goal=goal, rules=name)
    if own is not None and spec.family != own:
        other = spec.family
        raise InputError(f"{where} plays {own.name} games, not {spec.rules.name}: use "
                         f"{other.env_id} ({other.env_keyword}=...)")
    return spec


def whole_action(action: Any, num_actions: int) -> int:
    """One action as :func:`whole_actions` checks it, a plain int in range passed at once (the
    single environments' hot path)."""
    if type(action) is int and 0 <= action < num_actions:
        return action
    return int(whole_actions(action, num_actions))


def whole_actions(actions: Any, num_actions: int, count: Optional[int] = None) -> np.ndarray:
    """Actions as int64, each a whole number from 0 to ``num_actions - 1`` (``count`` of them for a
    vector of environments, else one); ValueError for anything else (3.7, True, "3", None, -1):
    an environment never plays another action than the one it was given."""
    array = np.asarray(actions)
    if array.dtype == bool or not np.issubdtype(array.dtype, np.integer):
        raise InputError(f"actions are whole numbers from 0 to {num_actions - 1} (an integer type), got "
                         f"{_short(actions)} ({array.dtype})")
    if count is None and array.ndim != 0:
        raise InputError(f"an action is one whole number from 0 to {num_actions - 1}, got {_short(actions)}")
    if count is not None and array.size != count:
        raise InputError(f"expected {count} actions, one per environment, got {array.size}")
    out = array.astype(np.int64).reshape(-1 if count is not None else ())
    bad = (out < 0) | (out >= num_actions)
    if bad.any():
        raise InputError(f"action {int(out[bad][0]) if out.ndim else int(out)} is outside 0 to {num_actions - 1}")
    return out


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def tabulate_agent(agent: Any, spec: GameSpec) -> np.ndarray:
    """The agent's action at every decision state, in one batch when it takes one, as the
    game's table (:func:`hogsolve.strategy.observations.table_of`).

    ``agent`` is a callable on an observation, or an object with ``predict(observation)``
    (Stable-Baselines3 returns ``(actions, state)``); both may take a batch of rows.
    """
    rows, index = spec.decision_states()
    return observations.table_of(spec.rules, actions_of(agent, rows, spec.num_actions), index)


def strategy_of_agent(agent: Any, spec: GameSpec, name: str = "agent") -> Any:
    """The agent as hogsolve evaluates it: its table of actions as the game's strategy, or, from
    an agent that gives action probabilities (:func:`~hogsolve.strategy.agent_calls.answers_of`),
    a :class:`~hogsolve.strategy.mixed.Mixture` of them (one whose every row is sure is its
    fixed strategy)."""
    rows, index = spec.decision_states()
    answers = answers_of(agent, rows, spec.num_actions)
    if answers.ndim == 1:
        return spec.family.tabulated(spec.rules, observations.table_of(spec.rules, answers, index))
    mixture = Mixture.of(spec.rules, answers, index, name=name, where=rows)
    fixed = mixture.fixed()
    return mixture if fixed is None else spec.family.tabulated(spec.rules, fixed)


class ModelDistribution:
    """A Stable-Baselines3 model asked for its action distribution (see :func:`distribution_of`)."""

    def __init__(self, model: Any):
        self.model = model

    def action_probabilities(self, observations: np.ndarray) -> np.ndarray:
        """The chance of each action at each observation (rows)."""
        policy = self.model.policy
        tensor = policy.obs_to_tensor(observations)[0]
        probabilities = policy.get_distribution(tensor).distribution.probs
        return np.asarray(probabilities.detach().cpu().numpy() if hasattr(probabilities, "detach") else probabilities)


def distribution_of(model: Any) -> ModelDistribution:
    """A Stable-Baselines3 model's action distribution as an agent that gives probabilities:
    ``hogsolve.evaluate_agent(distribution_of(model), "su18")`` evaluates the policy it samples
    from exactly, where ``model`` itself is asked for its most likely action
    (``predict(..., deterministic=True)``).  Works with any model whose ``policy`` has
    ``obs_to_tensor`` and ``get_distribution`` (PPO, A2C and the like; DQN's has no distribution)."""
    policy = getattr(model, "policy", None)
    if not all(callable(getattr(policy, name, None)) for name in ("obs_to_tensor", "get_distribution")):
        raise InputError("distribution_of takes a Stable-Baselines3 model whose policy has obs_to_tensor and "
                         "get_distribution (PPO, A2C); for any other agent give action_probabilities(observations)")
    return ModelDistribution(model)


@dataclasses.dataclass(frozen=True)
class AgentEvaluation:
    """An agent's exact standing in one game (see :func:`evaluate_agent`)."""

    game: str
    goal: int
    against_optimal: Any     # WinRate
    against_baseline: Any    # WinRate
    baseline: str
    best_response_win_rate: float
    exploitability: float
    worst_states: List[Dict[str, Any]]  # empty for a mixture (its states' reach is not computed)
    table: np.ndarray = dataclasses.field(repr=False)  # the agent's table, or a mixture's probabilities

    def to_dict(self) -> dict:
        """Plain values for JSON."""
        return {"game": self.game, "goal": self.goal,
                "against_optimal": self.against_optimal.to_dict(),
                "against_baseline": {**self.against_baseline.to_dict(), "baseline": self.baseline},
                "best_response_win_rate": self.best_response_win_rate, "exploitability": self.exploitability,
                "worst_states": self.worst_states}


def evaluate_agent(agent: Any, rules: Any = None, *, game: Optional[str] = None, goal: Optional[int] = None,
                   baseline: Optional[str] = None, worst: int = 10) -> AgentEvaluation:
    """The exact win rate of ``agent`` against the optimal bot and against ``baseline`` (a
    strategy spec; by default the game's own, ``rules.baseline``: ``always_roll:4`` for Hog,
    a hold-at threshold fitted to the roll-or-hold game and its goal), the exact value of the
    best response to it (exploitability: that value minus one half), and the ``worst`` states
    where it loses most against optimal play, weighted by how often it gets there.

    ``rules`` is a ruleset name, a Ruleset or a PigGame (``game`` names a Pig game)."""
    from ..api import best_response, regret, win_rate
    spec = game_spec(rules if isinstance(rules, str) else game, goal,
                       rules=None if isinstance(rules, str) or rules is None else rules)
    strategy = strategy_of_agent(agent, spec)
    optimal = spec.family.solve(spec.rules)
    baseline_name = baseline or spec.rules.baseline
    against_optimal = win_rate(strategy, optimal, spec.rules)
    against_baseline = win_rate(strategy, baseline_name, spec.rules)
    response = best_response(strategy, spec.rules)
    if isinstance(strategy, Mixture):
        worst_states: List[Dict[str, Any]] = []
        table = strategy.probabilities
    else:
        worst_states = regret(strategy, spec.rules, solution=optimal).to_dict(top=worst)["worst_states"]
        table = np.asarray(strategy.policy if hasattr(strategy, "policy") else strategy.table)
    return AgentEvaluation(spec.rules.name, spec.goal, against_optimal, against_baseline, baseline_name,
                           float(response.win_rate.average), float(response.exploitability), worst_states, table)
