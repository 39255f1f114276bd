"""A score sum that repeats: each state solved with its mirror, in closed form.

Where a turn can score 0 (Neller's Hog: a 1 scores nothing) and nothing else
happens on 0 points, the turn hands the same two scores to the opponent: state
(s, o) leads to (o, s) on the same score sum, and nowhere else on it.  So a
sum's values are pairs of equations, u = max_n (1 - r_n - z_n w) for a state
and w = max_m (1 - r'_m - z_m u) for its mirror, where r_n is the next mover's
chance from the larger sums (already final) and z_n the chance of scoring 0.
For one action of each, the pair is a 2 x 2 linear system with a closed form;
policy iteration over the pairs finds the actions that are best at their own
solution, usually in two or three rounds, and an enumeration of every pair of
actions settles the rare stage where the rounds do not.
"""
from __future__ import annotations

from typing import Optional, Tuple

import numpy as np

#: Rounds of policy iteration before a stage is settled by enumeration.
ROUNDS = 30
#: What a non-move's next-mover chance is taken as in the enumeration (above any real one).
NOT_A_MOVE = 4.0


def staying_together(z: np.ndarray) -> np.ndarray:
    """``[n, n']``: 1 - z_n z_n', the closed form's denominator for every pair of actions."""
    return 1.0 - z[:, None] * z[None, :]


def _pair_values(r, z, actions, columns, together):
    """The values of a sum's states when each state plays ``actions`` (the mirror of state i
    is state m - 1 - i, by rising opponent score): the closed form of each pair's system."""
    cell = actions * r.shape[1]
    cell += columns
    gain = r.reshape(-1).take(cell)
    np.subtract(1.0, gain, out=gain)  # the mover's chance when the turn scores, per state
    top = z.take(actions)
    top *= gain[::-1]
    np.subtract(gain, top, out=top)
    return np.divide(top, together[actions, actions[::-1]], out=top)


def solve_mirrored(r: np.ndarray, z: np.ndarray, guess: np.ndarray, columns: Optional[np.ndarray] = None,
                   together: Optional[np.ndarray] = None) -> Tuple[np.ndarray, np.ndarray, int]:
    """``(values, sums, rounds)`` of one score sum: the mover's chance at each state, the
    next mover's chance after each action at those values (``r + z * mirror's value``,
    shaped like ``r``: its backup), and the rounds taken.

    ``r`` (actions, states): the next mover's chance after each action, leaving out a turn
    scoring 0 (``inf`` for a non-move); ``z`` (actions,): the chance that it scores 0;
    ``guess``: a first guess of each state's mirror's value (nearby states', one sum up);
    ``columns``: ``arange(states)`` and ``together``: :func:`staying_together` of ``z``, if
    the caller keeps them."""
    stays = z[:, None]
    columns = np.arange(r.shape[1]) if columns is None else columns
    together = staying_together(z) if together is None else together
    sums = np.empty_like(r)
    mirror, chosen = guess, None
    values: Optional[np.ndarray] = None
    for rounds in range(1, ROUNDS + 1):
        np.multiply(stays, mirror, out=sums)
        sums += r
        best = sums.argmin(0)
        if chosen is not None and best.tobytes() == chosen.tobytes():
            assert values is not None  # set with chosen
            return values, sums, rounds
        chosen = best
        values = _pair_values(r, z, best, columns, together)
        mirror = values[::-1]
    values = _enumerated(r, z)
    return values, r + stays * values[::-1], ROUNDS + 1


def _enumerated(r: np.ndarray, z: np.ndarray) -> np.ndarray:
    """Every pair of actions (one per state of a pair) solved, and at each state the pair
    whose actions are closest to best at its own solution: the fixed point, which is unique
    because each equation's slope in the other value is below 1."""
    r = np.where(np.isfinite(r), r, NOT_A_MOVE)
    mine = r[:, None, :]              # (n, n', i): my action n
    theirs = r[None, :, ::-1]         # the mirror's action n'
    zi, zj = z[:, None, None], z[None, :, None]
    u = (1.0 - mine - zi * (1.0 - theirs)) / (1.0 - zi * zj)
    w = 1.0 - theirs - zj * u
    my_sums = r[:, None, None, :] + z[:, None, None, None] * w[None]          # (n'', n, n', i)
    their_sums = r[:, None, None, ::-1] + z[:, None, None, None] * u[None]
    shortfall = np.maximum((1.0 - u) - my_sums.min(axis=0), (1.0 - w) - their_sums.min(axis=0))
    flat = shortfall.reshape(-1, r.shape[1])
    return u.reshape(-1, r.shape[1])[np.argmin(flat, axis=0), np.arange(r.shape[1])]
