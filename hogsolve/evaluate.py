"""Exact evaluation of fixed strategies over the compiled model.

Strategies are tabulated once into policy tables ``policy[score,
opponent_score] -> dice``; then the win probabilities of two tables playing
each other come from one sweep in decreasing score-sum order (iterated per
sum when turns can score 0), with no simulation.
"""
from __future__ import annotations

from typing import Tuple

import numpy as np

from .backup import OutcomeTable
from .model import Model


def play_values(model: Model, policy_a: np.ndarray, policy_b: np.ndarray, *,
                tol: float = 1e-15, max_iterations: int = 100_000) -> Tuple[np.ndarray, np.ndarray]:
    """Win probabilities of two policy tables playing each other.

    Returns ``(value_a, value_b)``: ``value_a[s, o]`` is the chance that the
    player using ``policy_a`` wins when it is to move with score ``s``
    against ``o`` (the other player using ``policy_b``); ``value_b`` likewise.
    """
    g = model.goal
    policy_a, policy_b = (np.asarray(p, dtype=np.intp).reshape(g, g) for p in (policy_a, policy_b))
    moves_a, moves_b = OutcomeTable(model), OutcomeTable(model)
    value_a, value_b = np.zeros((g, g)), np.zeros((g, g))
    iterations = 0
    for k in range(2 * g - 2, -1, -1):
        s, o = moves_a.states(k)
        while True:
            iterations += 1
            qa = moves_a.chosen_values(k, policy_a[s, o])
            qb = moves_b.chosen_values(k, policy_b[s, o])
            change = max(float(np.abs(qa - value_a[s, o]).max()), float(np.abs(qb - value_b[s, o]).max()))
            value_a[s, o], value_b[s, o] = qa, qb
            moves_a.fill(k, value_b)  # after a's move, b is to move
            moves_b.fill(k, value_a)
            if model.progressive or change <= tol or iterations >= max_iterations:
                break
    return value_a, value_b


def deviation_gains(model: Model, policy: np.ndarray) -> np.ndarray:
    """``gain[s, o, n]``: win probability gained by rolling ``n`` once at (s, o)
    instead of following ``policy``, both players following it otherwise."""
    values, _ = play_values(model, policy, policy)
    table = OutcomeTable(model)
    table.fill_all(values)
    gains = np.empty(values.shape + (model.num_actions,))
    for k in range(2 * model.goal - 1):
        s, o = table.states(k)
        gains[s, o] = table.action_values(k) - values[s, o][:, None]
    return gains
