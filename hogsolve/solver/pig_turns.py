"""The roll-or-hold games by policy iteration over whole turns, for games with wipes.

With the roll/hold policy fixed, a turn that starts at (i, j, 0) ends in a hold
at some turn total, a bust or a wipe, with chances found by one forward pass
over the turn total for every pair (i, j) at once.  The values at the turns'
starts then solve one sparse linear system, ``x = 1 - H x`` (every end is 1
minus the opponent's value where play goes on, and the chances add up to 1),
which SuperLU factors in the order of falling score sums: holds and busts point
back to sums already eliminated, and only the wipes' 100 targets fill in.  One
backward pass over the turn total, again for every pair at once, gives each
state's greedy choice for those values.  Policy iteration repeats the two until
the policy is greedy for its own values: a handful of rounds where the stage
sweep needs a dozen passes over every stage to settle the values after a wipe.
"""
from __future__ import annotations

import dataclasses
from typing import Optional

import numpy as np
import scipy.sparse as sparse
import scipy.sparse.linalg as sparse_linalg

from ..pig.rules import PigGame
from .iteration import ConvergenceError
from .pig_stages import SETTLED_CHANGE, Rolls

#: Rounds of policy iteration before giving up (a handful are needed).
MOST_ROUNDS = 50
#: Solves of one policy's values before giving up on the values after a wipe settling.
MOST_WIPE_SOLVES = 200


@dataclasses.dataclass
class Turns:
    """One game's pairs (i, j) as flat indices ``p = i * goal + j``, and what every round reuses.

    Arrays by turn total then pair, ``[k, p]``: at turn total k the live pairs
    (i + k below the goal) are the first ``(goal - k) * goal``."""

    game: PigGame
    rolls: Rolls

    def __post_init__(self):
        g = self.game.goal
        self.g, self.pairs = g, g * g
        p = np.arange(self.pairs)
        self.i, self.j = np.divmod(p, g)
        self.live_count = [(g - k) * g for k in range(g)]
        empty = self.i == 0
        # a wipe with nothing banked is a bust: both hand the opponent (j, i, 0)
        self.bust = self.rolls.bust + self.rolls.wipe * empty
        self.wipe = np.where(empty, 0.0, self.rolls.wipe)
        self.rows = len(self.rolls.dense) + self.rolls.least_add + g
        order = np.argsort(-(self.i + self.j), kind="stable")  # falling score sums
        self.position = np.empty(self.pairs, dtype=np.intp)
        self.position[order] = p
        self.bust_target, self.wipe_target = self.j * g + self.i, self.j * g
        self.wiped_to = np.arange(g) * g  # (j, 0): the opponent's start after a wipe, by j
        k, q = np.meshgrid(np.arange(g), p, indexing="ij")
        self.hold_target = np.where(self.i[None, :] + k < g, self.j[None, :] * g + self.i[None, :] + k, 0)

    def ends(self, roll: np.ndarray):
        """``(hold, ended)``: under ``roll[k, p]`` (rolling at k = 0 is compulsory), the chance
        that pair p's turn holds at turn total k, and the chance it ends in a bust or wipe."""
        lo, dense, D = self.rolls.least_add, self.rolls.dense, len(self.rolls.dense)
        mass = np.zeros((self.rows, self.pairs))
        mass[0] = 1.0
        rolled = np.zeros(self.pairs)
        hold = np.zeros((self.g, self.pairs))
        for k, n in enumerate(self.live_count):
            here = mass[k, :n]
            if k:
                np.copyto(hold[k, :n], here, where=~roll[k, :n])
                here = np.where(roll[k, :n], here, 0.0)
            rolled[:n] += here
            mass[k + lo: k + lo + D, :n] += dense[:, None] * here[None, :]
        return hold, rolled

    def _factored(self, hold: np.ndarray, bust: np.ndarray):
        """A solver of ``z + H z = right``, ``H`` the holds of ``hold`` and the busts with weight
        ``bust`` (per pair, to (j, i)): block triangular in falling score sums, so SuperLU in
        that order fills in nothing beyond each sum's pairs."""
        k, q = np.nonzero(hold)
        every = np.arange(self.pairs)
        at = self.position
        rows = np.concatenate([q, every, every])
        cols = np.concatenate([self.hold_target[k, q], self.bust_target, every])
        data = np.concatenate([hold[k, q], bust, np.ones(self.pairs)])
        matrix = sparse.csc_matrix((data, (at[rows], at[cols])), shape=(self.pairs, self.pairs))
        factors = sparse_linalg.splu(matrix, permc_spec="NATURAL", diag_pivot_thresh=0.0)

        def solve(right: np.ndarray) -> np.ndarray:
            placed = np.empty_like(right)
            placed[at] = right
            return factors.solve(placed)[at]
        return solve

    def start_values(self, roll: np.ndarray, after_wipe: Optional[np.ndarray] = None) -> np.ndarray:
        """``x[p]``: each pair's value at turn total 0 when both players follow ``roll[k, p]``:
        ``x = 1 - H x`` (every end of a turn leaves the opponent at their own start).  The
        wipes' targets, the values ``x[j, 0]`` of the opponent after a wipe, are found by
        repeating the solve from the guess ``after_wipe`` (a wipe is rare, so each repetition
        shrinks the change about 20-fold) until they are a fixed point to the last bits."""
        hold, rolled = self.ends(roll)
        solve = self._factored(hold, rolled * self.bust)
        wiping = rolled * self.wipe
        w = np.full(self.g, 0.5) if after_wipe is None else after_wipe
        best = np.inf
        for _ in range(MOST_WIPE_SOLVES):
            x = solve(1.0 - wiping * w[self.j])
            change = float(np.abs(x[self.wiped_to] - w).max())
            w = x[self.wiped_to]
            if change == 0.0 or change >= best and change < SETTLED_CHANGE:
                return x
            best = min(best, change)
        raise ConvergenceError(f"the values after a wipe did not settle in {MOST_WIPE_SOLVES} solves")

    def until_wipe(self, roll: np.ndarray):
        """``(wiped, visits)`` by pair, both players following ``roll[k, p]`` and counting only up
        to the first wipe of a banked score: the chance that one happens, and the expected
        states visited (``z = c + H z`` over holds and busts)."""
        hold, rolled = self.ends(roll)
        solve = self._factored(-hold, -rolled * self.bust)  # z = c + H z is z + (-H) z = c
        return solve(rolled * self.wipe), solve(rolled + hold.sum(axis=0))

    def greedy(self, x: np.ndarray, roll: Optional[np.ndarray] = None):
        """``(value, roll)`` by ``[k, p]``: the greedy turn for the start values ``x`` (ties
        roll), or with ``roll`` given, that policy's turn values."""
        lo, dense, D = self.rolls.least_add, self.rolls.dense, len(self.rolls.dense)
        value = np.ones((self.rows, self.pairs))
        after_end = self.bust * (1.0 - x[self.bust_target]) + self.wipe * (1.0 - x[self.wipe_target])
        held = 1.0 - x[self.hold_target]
        choice = np.zeros((self.g, self.pairs), dtype=bool)
        for k in range(self.g - 1, -1, -1):
            n = self.live_count[k]
            r = dense @ value[k + lo: k + lo + D, :n]
            r += after_end[:n]
            if k == 0:
                choose = np.ones(n, dtype=bool)
            elif roll is not None:
                choose = roll[k, :n]
            else:
                choose = r >= held[k, :n]
            value[k, :n] = np.where(choose, r, held[k, :n])
            choice[k, :n] = choose
        return value[:self.g], choice

    def by_turn(self, table: np.ndarray) -> np.ndarray:
        """An ``[i, j, k]`` roll table as ``[k, p]``, false where i + k reaches the goal."""
        g = self.g
        live = np.arange(g)[:, None] < (g - self.i)[None, :]
        return table.reshape(self.pairs, g).T & live

    def table(self, by_turn: np.ndarray) -> np.ndarray:
        """A ``[k, p]`` array as the solver's ``[i, j, k]`` table."""
        return np.ascontiguousarray(by_turn.T.reshape(self.g, self.g, self.g))


def solve_by_turns(game: PigGame, rolls: Optional[Rolls] = None):
    """``(value, roll, rounds)`` as ``[i, j, k]`` tables: the optimal values and policy by policy
    iteration over whole turns, from the greedy policy of a smooth guess."""
    turns = Turns(game, rolls or Rolls.of(game))
    g = game.goal
    guess = 0.5 + (turns.i - turns.j) / (2.5 * g)
    _, roll = turns.greedy(guess)
    x = guess
    for rounds in range(1, MOST_ROUNDS + 1):
        x = turns.start_values(roll, x[turns.wiped_to])
        value, better = turns.greedy(x)
        if np.array_equal(better, roll):
            return turns.table(value), turns.table(roll), rounds
        roll = better
    raise ConvergenceError(f"policy iteration over turns did not settle in {MOST_ROUNDS} rounds")
