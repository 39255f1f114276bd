"""The roll-or-hold games' stages: one roll as arrays, a turn by backward induction over the
turn total (linear in the value after a bust), and the 2x2 pair solve; shared by the
solver, its certificate and every evaluation of games without wipes.

States are (i, j, k): the mover's banked score, the opponent's, the turn
total, with ``i + k < goal`` (a mover who can reach the goal holds and wins).
Holding at k >= 1 moves to the opponent's state (j, i + k, 0), on a larger
score sum i + j; a bust moves to (j, i, 0), on the same sum.  So the sums are
solved from the largest down (Neller & Presser's stages).
"""
from __future__ import annotations

import dataclasses
from typing import Optional, Tuple
import numpy as np

from ...pig.rules import PigGame


@dataclasses.dataclass(frozen=True)
class Rolls:
    """One roll as arrays: the added amounts and their probabilities, and the bust chance."""

    adds: np.ndarray
    probs: np.ndarray
    bust: float
    least_add: int
    dense: np.ndarray  # probabilities of adding least_add, least_add + 1, ..., max (zeros between)
    wipe: float = 0.0  # chance of losing the banked score too (Two-Dice Pig's double 1s)

    def exits(self, i: np.ndarray, j: np.ndarray, after_wipe: Optional[np.ndarray]):
        """Per pair (i, j): the chance a roll ends the turn at (j, i, 0) (a wipe with nothing
        banked is a bust), and the value a roll gets from a wipe, ``wipe * after_wipe[j]``
        (``after_wipe[j]``: the mover's value once the opponent moves at (j, 0, 0))."""
        empty = i == 0
        bust = self.bust + self.wipe * empty
        if not self.wipe or after_wipe is None:
            return bust, np.zeros(len(i))
        return bust, np.where(empty, 0.0, self.wipe * after_wipe[j])

    @classmethod
    def of(cls, game: PigGame) -> "Rolls":
        """The roll of ``game`` as arrays."""
        dist = game.outcomes()
        adds = sorted(x for (kind, x) in dist if kind == "add")
        dense = np.zeros(max(adds) - min(adds) + 1)
        for x in adds:
            dense[x - min(adds)] = float(dist["add", x])
        return cls(np.array(adds), np.array([float(dist["add", x]) for x in adds]),
                   float(dist.get(("bust", 0), 0)), min(adds), dense, float(dist.get(("wipe", 0), 0)))


def turn_values(rolls: Rolls, hold: np.ndarray, room: np.ndarray, u: np.ndarray, policy=None,
                 highest_roll: Optional[int] = None, bust: Optional[np.ndarray] = None,
                 wipe: Optional[np.ndarray] = None, win: float = 1.0):
    """Backward induction over the turn total for the pairs of a stage.

    ``hold[p, k]``: value of holding at k (k >= 1); ``room[p]`` = goal - i;
    ``u[p]``: the mover's value after a bust (1 - the opponent's value at
    (j, i, 0)); ``bust[p]`` and ``wipe[p]``: as from :meth:`Rolls.exits`
    (no wipes by default); ``win``: the value of reaching the goal.  Returns
    ``(a, b, rolls_here)`` with value = a + b u at every k, and where rolling
    was chosen (``policy`` fixes it instead).  With ``highest_roll``, holding
    is taken at every larger turn total without comparing (the caller checks
    the result is greedy).
    """
    P, K = hold.shape
    bust = np.full(P, rolls.bust) if bust is None else bust
    wipe = np.zeros(P) if wipe is None else wipe
    top = K + int(rolls.adds.max())
    ab = np.zeros((2, P, top))                 # value = ab[0] + ab[1] u; beyond the room: hold and win
    ab[0] = win
    # what holding gives, (value, 0), until a roll is chosen; from the room on, the goal: a win
    ab[0, :, :K] = np.where(np.arange(K)[None, :] < room[:, None], hold, win)
    exits = np.stack([wipe, bust])             # what a roll adds: the wipe's value, the bust's weight
    roll_choice = np.zeros((P, K), dtype=bool)
    D = len(rolls.dense)
    rooms = -np.sort(-room)
    last = min(K, int(room.max()))
    live_rows = np.searchsorted(-rooms, -np.arange(K), side="left").tolist()  # rooms fall: live rows lead
    if highest_roll is not None and highest_roll + 1 < last:
        last = highest_roll + 1  # beyond it, hold without comparing (as set above)
    for k in range(last - 1, -1, -1):
        n = live_rows[k]
        lo = k + rolls.least_add
        r = ab[:, :n, lo: lo + D] @ rolls.dense
        r += exits[:, :n]
        if k == 0:
            roll = np.ones(n, dtype=bool)
        elif policy is not None and policy.dtype != bool:  # a mixture: the chance of rolling
            chance = policy[:n, k]
            ab[:, :n, k] = chance * r + (1.0 - chance) * ab[:, :n, k]
            continue
        elif policy is not None:
            roll = policy[:n, k]
        else:
            roll = r[1] * u[:n]
            roll += r[0]
            roll = roll >= hold[:n, k]  # ties roll
        np.copyto(ab[:, :n, k], r, where=roll)
        roll_choice[:n, k] = roll
    a, b = ab[0], ab[1]
    return a[:, :K], b[:, :K], roll_choice


def greedy_policy(rolls: Rolls, values: np.ndarray, hold: np.ndarray, room: np.ndarray, u: np.ndarray,
                  choice: np.ndarray, bust: np.ndarray, wipe: np.ndarray) -> bool:
    """True when ``choice`` is greedy for the stage's own ``values`` (all turn totals at once)."""
    P, K = values.shape
    k = np.arange(K)[None, :]
    live = k < room[:, None]
    padded = np.ones((P, K + int(rolls.adds.max()) + 1))
    padded[:, :K] = np.where(live, values, 1.0)
    windows = np.lib.stride_tricks.sliding_window_view(padded[:, rolls.least_add:], len(rolls.dense), axis=1)
    roll_value = windows[:, :K] @ rolls.dense + (bust * u + wipe)[:, None]
    greedy = (k == 0) | (roll_value >= hold)
    return bool(np.array_equal(greedy & live, choice))


def pair_values(c: np.ndarray, b: np.ndarray, c_other: np.ndarray, b_other: np.ndarray,
                 partner: np.ndarray) -> np.ndarray:
    """Values at k = 0 of a stage's movers from ``x = c - b x_other[partner]`` and the other
    movers' ``x_other = c_other - b_other x[partner]`` (``c = a + b``: the turn's value is
    ``a + b (1 - value after a bust)``), solved directly pair by pair."""
    return (c - b * c_other[partner]) / (1.0 - b * b_other[partner])


def stage_pairs(g: int, s: int) -> Tuple[np.ndarray, np.ndarray]:
    """The pairs (i, j) of stage ``s`` (i + j = s, both below the goal ``g``), as two arrays."""
    i = np.arange(max(0, s - g + 1), min(s, g - 1) + 1)
    return i, s - i


def hold_values(value: np.ndarray, i: np.ndarray, j: np.ndarray, g: int, width: Optional[int] = None,
                 flip: bool = True) -> np.ndarray:
    """``hold[p, k]`` = 1 - value[j, i + k, 0] (1 where i + k reaches the goal) for k below
    ``width`` (the goal by default); k = 0 unused.  Without ``flip``: value[j, i + k, 0], 0
    at the goal."""
    k = np.arange(width or g)[None, :]
    target = i[:, None] + k
    inside = target < g
    out = np.full((len(i), width or g), float(flip))
    jj = np.broadcast_to(j[:, None], target.shape)
    found = value[jj[inside], target[inside], 0]
    out[inside] = 1.0 - found if flip else found
    return out


def values_at(game: PigGame, value: np.ndarray, i: int, j: int, k: int, rolls: Optional[Rolls] = None):
    """``(roll, hold)``: the mover's value of rolling and of holding at one state (i + k below
    the goal; hold is -inf at k = 0), as :func:`action_values` gives them for every state."""
    rolls = rolls or Rolls.of(game)
    g = game.goal
    ahead = k + rolls.adds
    landed = np.where(i + ahead < g, value[i, j, np.minimum(ahead, g - 1)], 1.0)
    roll = float((landed * rolls.probs).sum()) + rolls.bust * (1.0 - float(value[j, i, 0])) \
        + rolls.wipe * (1.0 - float(value[j, 0, 0]))
    hold = -np.inf if k == 0 else 1.0 - float(value[j, min(i + k, g - 1), 0]) if i + k < g else 1.0
    return roll, hold


def action_values(game: PigGame, value: np.ndarray, rolls: Optional[Rolls] = None, width: Optional[int] = None):
    """Fresh (roll, hold) values at every (i, j, k), k below ``width`` (the goal by default),
    from a finished ``value`` table, and where i + k is below the goal (beyond, holding wins)."""
    rolls = rolls or Rolls.of(game)
    g = game.goal
    width = width or g
    i, j, k = np.meshgrid(np.arange(g), np.arange(g), np.arange(width), indexing="ij")
    padded = np.ones((g, g, width + int(rolls.adds.max())))
    inside = (i + k) < g
    padded[:, :, :g] = np.where(inside[:, :, :g], value, 1.0)
    roll_value = (padded[:, :, np.arange(width)[:, None] + rolls.adds[None, :]] * rolls.probs).sum(axis=3)
    roll_value += rolls.bust * (1.0 - value[j, i, 0]) + rolls.wipe * (1.0 - value[j, 0, 0])
    banked = np.minimum(i + k, g - 1)
    hold_value = np.where(inside, 1.0 - value[j, banked, 0], 1.0)
    hold_value[:, :, 0] = -np.inf  # the first roll of a turn is compulsory
    return roll_value, hold_value, inside
