"""Exact comparison of strategies over the compiled model: no simulation.

Strategies become validated policy tables ``policy[score,
opponent_score] -> dice`` once (:func:`hogsolve.policy.as_policy`); win
probabilities then come from one sweep in decreasing score-sum order.

* :func:`win_rate`: P(a wins) when a moves first, when b moves first, and
  their average, the CS 61A contest definition.
* :func:`best_response`: the policy that maximises the win rate against a
  fixed opponent; :func:`exploitability`: what it gains over one half.
* :func:`regret`: per state, the win probability a strategy's choice loses
  against the optimal choice, how often play against the optimal opponent
  reaches the state, and their product, the expected loss.  The expected
  losses add up exactly to the strategy's shortfall from one half against
  the optimal opponent (the performance-difference identity).
"""
from __future__ import annotations

import dataclasses
from typing import Optional, Tuple

import numpy as np

from .backup import OutcomeTable, backup_all
from .iteration import STAGE_CAP, ConvergenceError, sweep
from .certificate import gamma, tie_broken_policy
from .model import Model, compile_model
from .rules import Ruleset
from .policy import Policy, as_policy


def _policy(strategy, rules: Ruleset) -> Policy:
    return as_policy(strategy, rules)


def _table(policy: Policy) -> np.ndarray:
    return policy.table.astype(np.intp)


def play_values(model: Model, policy_a: np.ndarray, policy_b: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Win probabilities of two policy tables playing each other.

    Returns ``(value_a, value_b)``: ``value_a[s, o]`` is the chance that the
    player using ``policy_a`` wins when it is to move with score ``s``
    against ``o`` (the other player using ``policy_b``); ``value_b`` likewise.
    """
    g = model.goal
    policy_a, policy_b = (np.asarray(p, dtype=np.intp).reshape(g, g) for p in (policy_a, policy_b))
    moves_a, moves_b = OutcomeTable(model), OutcomeTable(model)
    value_a, value_b = np.zeros((g, g)), np.zeros((g, g))

    def update(k: int) -> float:
        d = model.diagonals[k]
        qa = moves_a.chosen_values(k, policy_a[d.s, d.o])
        qb = moves_b.chosen_values(k, policy_b[d.s, d.o])
        change = max(float(np.abs(qa - value_a[d.s, d.o]).max()),
                     float(np.abs(qb - value_b[d.s, d.o]).max()))
        value_a[d.s, d.o], value_b[d.s, d.o] = qa, qb
        moves_a.fill(k, value_b)  # after a's move, b is to move
        moves_b.fill(k, value_a)
        return change

    sweep(model, update).check("exact win rate")
    return value_a, value_b


@dataclasses.dataclass(frozen=True)
class WinRate:
    """P(a wins) with a moving first, with b moving first, and their average."""

    a: str
    b: str
    first: float
    second: float

    @property
    def average(self) -> float:
        return (self.first + self.second) / 2

    def to_dict(self) -> dict:
        return {"a": self.a, "b": self.b, "a_first": self.first, "b_first": self.second,
                "average": self.average}


def win_rate(a, b, rules: Ruleset, *, model: Optional[Model] = None) -> WinRate:
    """Exact win rate of strategy (or policy table) ``a`` against ``b``."""
    model = model if model is not None else compile_model(rules)
    pa, pb = _policy(a, rules), _policy(b, rules)
    va, vb = play_values(model, _table(pa), _table(pb))
    return WinRate(pa.name, pb.name, float(va[0, 0]), float(1 - vb[0, 0]))


@dataclasses.dataclass(frozen=True)
class BestResponse:
    """The best response to ``opponent``: its policy, values and win rate.

    It is itself a strategy: ``best(score, opponent_score)`` and
    ``win_rate(best, other, rules)`` work directly.
    """

    opponent: str
    policy: np.ndarray        # [score, opponent_score], fewest dice on ties
    win_probability: np.ndarray  # [score, opponent_score]: best responder to move
    win_rate: WinRate
    rules: Optional[Ruleset] = None

    @property
    def name(self) -> str:
        return f"best response to {self.opponent}"

    def __call__(self, score: int, opponent_score: int) -> int:
        return int(self.policy[score, opponent_score])

    @property
    def exploitability(self) -> float:
        return self.win_rate.average - 0.5

    def to_dict(self) -> dict:
        return {"opponent": self.opponent, "win_rate": self.win_rate.to_dict(),
                "exploitability": self.exploitability}


def best_response(strategy, rules: Ruleset, *, model: Optional[Model] = None) -> BestResponse:
    """The strategy that maximises the win rate against the fixed ``strategy``."""
    model = model if model is not None else compile_model(rules)
    g = model.goal
    fixed = _policy(strategy, rules)
    opponent = _table(fixed)
    mine, theirs = OutcomeTable(model), OutcomeTable(model)
    value_me, value_opp = np.zeros((g, g)), np.zeros((g, g))
    action_values = np.zeros((g, g, model.num_actions))

    def update(k: int) -> float:
        d = model.diagonals[k]
        q = mine.action_values(k)
        best = q.max(axis=1)
        q_opp = theirs.chosen_values(k, opponent[d.s, d.o])
        change = max(float(np.abs(best - value_me[d.s, d.o]).max()),
                     float(np.abs(q_opp - value_opp[d.s, d.o]).max()))
        value_me[d.s, d.o], value_opp[d.s, d.o], action_values[d.s, d.o] = best, q_opp, q
        mine.fill(k, value_opp)
        theirs.fill(k, value_me)
        return change

    sweep(model, update).check("best response")
    step = gamma(model.max_outcomes_per_action + 3)
    policy = tie_broken_policy(action_values, 2 * (2 * g) * step)
    rate = WinRate(f"best response to {fixed.name}", fixed.name,
                   float(value_me[0, 0]), float(1 - value_opp[0, 0]))
    return BestResponse(fixed.name, policy, value_me, rate, rules)


def exploitability(strategy, rules: Ruleset) -> float:
    """How much the best response's win rate exceeds one half."""
    return best_response(strategy, rules).exploitability


def occupancy(model: Model, policy_me: np.ndarray, policy_opp: np.ndarray) -> np.ndarray:
    """Expected visits of each state with "me" to move, averaged over both seats.

    Play starts at (0, 0) with me first or the opponent first, half each;
    ``visits[s, o]`` is the expected number of times I am to move at (s, o).
    """
    g, S = model.goal, model.num_states
    visits = np.zeros(S)
    pending = [np.zeros(S + 2), np.zeros(S + 2)]  # [me to move, opponent to move]
    pending[0][0] = pending[1][0] = 0.5
    policies = (policy_me.reshape(-1), policy_opp.reshape(-1))
    points = np.arange(model.counts.shape[2])
    for k in range(2 * g - 1):
        d = model.diagonals[k]
        for _ in range(STAGE_CAP):
            mass = [pending[i][d.flat].copy() for i in (0, 1)]
            if not (mass[0].any() or mass[1].any()):
                break
            for i in (0, 1):
                pending[i][d.flat] = 0.0
            visits[d.flat] += mass[0]
            for i in (0, 1):
                actions = policies[i][d.flat]
                w = model.probability[d.kinds, actions]  # (m, P); zero for Free Bacon
                targets = model.after[d.s[:, None] + points, d.o[:, None]]
                np.add.at(pending[1 - i], targets, mass[i][:, None] * w)
                bacon = actions == 0
                np.add.at(pending[1 - i], model.after[d.s[bacon] + model.free_bacon_points[d.o[bacon]],
                                                      d.o[bacon]], mass[i][bacon])
            if model.progressive:
                break
            if mass[0].sum() + mass[1].sum() < 1e-17:
                break
        else:
            raise ConvergenceError(f"occupancy: play stays on score sum {k} after {STAGE_CAP} turns")
    return visits.reshape(g, g)


@dataclasses.dataclass(frozen=True)
class Regret:
    """Where a strategy loses against optimal play (see :func:`regret`).

    Arrays are ``[score, opponent_score]`` with the strategy to move.
    """

    strategy: str
    policy: np.ndarray
    optimal_policy: np.ndarray
    loss: np.ndarray           # win probability lost by the strategy's choice here
    reach: np.ndarray          # expected visits against the optimal opponent
    win_rate: WinRate          # the strategy against the optimal strategy

    @property
    def expected_loss(self) -> np.ndarray:
        return self.loss * self.reach

    @property
    def total_expected_loss(self) -> float:
        return float(self.expected_loss.sum())

    def worst(self, top: int = 10) -> list:
        """The ``top`` states by expected loss, as dicts."""
        flat = np.argsort(-self.expected_loss, axis=None, kind="stable")[:top]
        out = []
        for index in flat:
            s, o = divmod(int(index), self.loss.shape[1])
            if self.expected_loss[s, o] <= 0:
                break
            out.append({"score": s, "opponent_score": o, "choice": int(self.policy[s, o]),
                        "optimal": int(self.optimal_policy[s, o]), "loss": float(self.loss[s, o]),
                        "reach": float(self.reach[s, o]), "expected_loss": float(self.expected_loss[s, o])})
        return out

    def to_dict(self, top: int = 10) -> dict:
        return {"strategy": self.strategy, "win_rate_vs_optimal": self.win_rate.to_dict(),
                "total_expected_loss": self.total_expected_loss, "worst_states": self.worst(top)}


def regret(strategy, rules: Ruleset, *, solution=None) -> Regret:
    """Per-state loss of ``strategy`` against optimal choices, weighted by reach."""
    from .solver import solve
    model = compile_model(rules)
    solution = solution if solution is not None else solve(rules, model=model)
    judged = _policy(strategy, rules)
    policy = _table(judged)
    chosen = np.take_along_axis(solution.action_values, policy[..., None], axis=2)[..., 0]
    loss = np.maximum(solution.win_probability - chosen, 0.0)
    reach = occupancy(model, policy, solution.policy.astype(np.intp))
    rate = win_rate(policy, solution.policy, rules, model=model)
    rate = dataclasses.replace(rate, a=judged.name, b="optimal")
    return Regret(judged.name, policy, solution.policy, loss, reach, rate)


def deviation_gains(model: Model, policy: np.ndarray) -> np.ndarray:
    """``gain[s, o, n]``: win probability gained by rolling ``n`` once at (s, o)
    instead of following ``policy``, both players following it otherwise."""
    values, _ = play_values(model, policy, policy)
    return backup_all(model, values) - values[..., None]
