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
from typing import Callable, Optional

import numpy as np
import scipy.sparse as sparse
import scipy.sparse.linalg as sparse_linalg

from ...pig.rules import PigGame
from ..iteration import ConvergenceError
from .stages import Rolls

#: Rounds of policy iteration before giving up (a handful are needed).
MOST_ROUNDS = 50
#: Roll and hold values this close are a tie for policy iteration, which then keeps its current
#: choice: two sums of the same exact value can differ by a few roundings, in either direction.
ROUNDING_TIE = 1e-13
#: Solves of one policy's values before giving up on the values after a wipe settling.
MOST_WIPE_SOLVES = 200
#: A change below this that no longer shrinks is rounding: the values after a wipe have settled.
SETTLED_CHANGE = 1e-13


@dataclasses.dataclass
class Turns:
    """One game's pairs (i, j) as flat indices ``p = i * goal + j``, and what every round reuses.

    Arrays by turn total then pair, ``[k, p]``, k below ``width``: the goal for
    optimal play (at turn total k the live pairs, i + k below the goal, are the
    first ``(goal - k) * goal``), twice the goal for any strategy's table (which
    may roll on past the goal; a hold there wins, and so does reaching the width)."""

    game: PigGame
    rolls: Rolls
    width: int = 0  # 0: the goal

    def __post_init__(self):
        g = self.game.goal
        self.g, self.pairs = g, g * g
        self.width = self.width or g
        p = np.arange(self.pairs)
        self.i, self.j = np.divmod(p, g)
        self.live_count = [(g - k) * g if self.width == g else self.pairs for k in range(self.width)]
        empty = self.i == 0
        # a wipe with nothing banked is a bust: both hand the opponent (j, i, 0)
        self.bust = self.rolls.bust + self.rolls.wipe * empty
        self.wipe = np.where(empty, 0.0, self.rolls.wipe)
        self.rows = len(self.rolls.dense) + self.rolls.least_add + self.width
        order = np.argsort(-(self.i + self.j), kind="stable")  # falling score sums
        self.position = np.empty(self.pairs, dtype=np.intp)
        self.position[order] = p
        self.bust_target, self.wipe_target = self.j * g + self.i, self.j * g
        self.wiped_to = np.arange(g) * g  # (j, 0): the opponent's start after a wipe, by j
        banked = self.i[None, :] + np.arange(self.width)[:, None]
        self.inside = banked < g  # a hold that does not reach the goal (one that does wins)
        self.hold_target = np.where(self.inside, self.j[None, :] * g + banked, 0)

    def visits(self, roll: np.ndarray) -> np.ndarray:
        """``[k, p]``: the expected visits of turn total k in a turn that starts at (i, j, 0)
        under ``roll[k, p]`` (rolling at k = 0 is compulsory); 0 past the live states."""
        lo, dense, D = self.rolls.least_add, self.rolls.dense, len(self.rolls.dense)
        mass = np.zeros((self.rows, self.pairs))
        mass[0] = 1.0
        for k, n in enumerate(self.live_count):
            here = mass[k, :n] if k == 0 else mass[k, :n] * roll[k, :n]  # roll: True, or a chance
            mass[k + lo: k + lo + D, :n] += dense[:, None] * here[None, :]
        mass = mass[:self.width]
        if self.width == self.g:
            mass[~self.inside] = 0.0  # reaching the goal ends the turn: a win
        return mass

    def ends(self, roll: np.ndarray):
        """``(hold, rolled)``: under ``roll[k, p]``, the chance that pair p's turn holds at turn
        total k, and the expected number of rolls (each ends the turn in a bust or a wipe with
        the same chance)."""
        mass = self.visits(roll)
        rolling = roll.astype(np.float64)  # True, or the chance of rolling
        rolling[0] = 1.0
        hold = mass * (1.0 - rolling)
        return hold, (mass * rolling).sum(axis=0)

    def _factored(self, movers: list):
        """A solver of ``z + H z = right`` (or with ``transposed``, of ``z + H^T z = right``)
        over ``len(movers)`` copies of the pairs (one per
        player to move; each copy's ends lead to the next copy's pairs): ``movers[m] = (hold,
        bust)``, the holds short of the goal and the weight of the busts, to (j, i).  Block
        triangular in falling score sums, so SuperLU in that order fills in nothing beyond each
        sum's pairs."""
        P, M = self.pairs, len(movers)
        every = np.arange(P)
        rows, cols, data = [], [], []
        for m, (hold, bust) in enumerate(movers):
            k, q = np.nonzero(np.where(self.inside, hold, 0.0))
            other = (m + 1) % M * P
            rows += [m * P + q, m * P + every, m * P + every]
            cols += [other + self.hold_target[k, q], other + self.bust_target, m * P + every]
            data += [hold[k, q], bust, np.ones(P)]
        at = (self.position[None, :] * M + np.arange(M)[:, None]).ravel()  # the movers of a pair side by side
        matrix = sparse.csc_matrix((np.concatenate(data), (at[np.concatenate(rows)], at[np.concatenate(cols)])),
                                   shape=(M * P, M * P))
        factors = sparse_linalg.splu(matrix, permc_spec="NATURAL", diag_pivot_thresh=0.0)

        def solve(right: np.ndarray, transposed: bool = False) -> np.ndarray:
            placed = np.empty_like(right)
            placed[at] = right
            return factors.solve(placed, trans="T" if transposed else "N")[at]
        return solve

    def start_values(self, rolls: list, after_wipe: Optional[np.ndarray] = None) -> np.ndarray:
        """``x[m, p]``: the value at turn total 0 of player m to move, when each player m follows
        ``rolls[m]`` (``[k, p]``; one table: both follow it): ``x_m = 1 - H_m x_next`` (every end
        of a turn leaves the next player at their own start).  The wipes' targets, the values
        ``x[m, (j, 0)]``, are found by repeating the solve from the guess ``after_wipe[m]`` (a
        wipe is rare, so each repetition shrinks the change about 20-fold) until they are a
        fixed point to the last bits."""
        M = len(rolls)
        ends = [self.ends(roll) for roll in rolls]
        solve = self._factored([(hold, rolled * self.bust) for hold, rolled in ends])
        wiping = [rolled * self.wipe for _, rolled in ends]

        def step(w):
            x = solve(np.concatenate([1.0 - wiping[m] * w[(m + 1) % M][self.j] for m in range(M)]))
            x = x.reshape(M, self.pairs)
            return x, x[:, self.wiped_to]
        first = np.full((M, self.g), 0.5) if after_wipe is None else np.asarray(after_wipe).reshape(M, self.g)
        return _settled(step, first, "the values after a wipe")

    def until_wipe(self, roll: np.ndarray):
        """``(wiped, visits)`` by pair, both players following ``roll[k, p]`` and counting only up
        to the first wipe of a banked score: the chance that one happens, and the expected
        states visited (``z = c + H z`` over holds and busts)."""
        hold, rolled = self.ends(roll)
        solve = self._factored([(-hold, -rolled * self.bust)])  # z = c + H z is z + (-H) z = c
        return solve(rolled * self.wipe), solve(rolled + hold.sum(axis=0))

    def greedy(self, x_next: np.ndarray, roll: Optional[np.ndarray] = None, current: Optional[np.ndarray] = None):
        """``(value, roll)`` by ``[k, p]``: the greedy turn when the next player's start values
        are ``x_next`` (a hold that reaches the goal is taken; exact ties roll, or with
        ``current`` keep its choice where the two are within :data:`ROUNDING_TIE`, so policy
        iteration never cycles among policies equal but for rounding),
        or with ``roll`` given, that policy's turn values."""
        lo, dense, D = self.rolls.least_add, self.rolls.dense, len(self.rolls.dense)
        value = np.ones((self.rows, self.pairs))
        after_end = self.bust * (1.0 - x_next[self.bust_target]) + self.wipe * (1.0 - x_next[self.wipe_target])
        held = np.where(self.inside, 1.0 - x_next[self.hold_target], 1.0)
        choice = np.zeros((self.width, self.pairs), dtype=bool)
        for k in range(self.width - 1, -1, -1):
            n = self.live_count[k]
            r = dense @ value[k + lo: k + lo + D, :n]
            r += after_end[:n]
            if k == 0:
                choose = np.ones(n, dtype=bool)
            elif roll is not None:
                choose = roll[k, :n]
            else:
                here = held[k, :n]
                choose = (r >= here) if current is None else \
                    (r > here + ROUNDING_TIE) | (abs(r - here) <= ROUNDING_TIE) & current[k, :n]
                choose &= self.inside[k, :n]
            value[k, :n] = np.where(choose, r, held[k, :n])
            choice[k, :n] = choose
        return value[:self.width], choice

    def smooth_guess(self) -> np.ndarray:
        """A first guess of every pair's start value: a half, moved by the score difference."""
        return 0.5 + (self.i - self.j) / (2.5 * self.g)

    def by_turn(self, table: np.ndarray) -> np.ndarray:
        """An ``[i, j, k]`` roll table (k below the width) as ``[k, p]``; with the width the goal,
        false where i + k reaches it."""
        by_turn = table.reshape(self.pairs, self.width).T
        if self.width == self.g:
            return by_turn & self.inside if by_turn.dtype == bool else by_turn * self.inside
        return np.ascontiguousarray(by_turn)

    def table(self, by_turn: np.ndarray) -> np.ndarray:
        """A ``[k, p]`` array as an ``[i, j, k]`` table."""
        return np.ascontiguousarray(by_turn.T.reshape(self.g, self.g, self.width))


def _settled(step: Callable, first: np.ndarray, what: str):
    """``step(w) -> (result, next w)`` repeated from ``first`` until w is a fixed point to the
    last bits (no change, or a change below :data:`SETTLED_CHANGE` that no longer shrinks);
    the last result."""
    w, best = first, np.inf
    for _ in range(MOST_WIPE_SOLVES):
        result, after = step(w)
        change = float(np.abs(after - w).max())
        w = after
        if change == 0.0 or change >= best and change < SETTLED_CHANGE:
            return result
        best = min(best, change)
    raise ConvergenceError(f"{what} did not settle in {MOST_WIPE_SOLVES} solves")


def _policy_iteration(turns: Turns, facing: Callable):
    """``(roll, value, rounds, evaluated)``: from the greedy policy of a smooth guess, each
    policy evaluated by ``facing(roll) -> (x_next, evaluated)`` (``x_next``: the start values
    the mover's opponent has) and replaced by the greedy one, until it is its own."""
    _, roll = turns.greedy(turns.smooth_guess())
    for rounds in range(1, MOST_ROUNDS + 1):
        x_next, evaluated = facing(roll)
        value, better = turns.greedy(x_next, current=roll)
        if np.array_equal(better, roll):
            return roll, value, rounds, evaluated
        roll = better
    raise ConvergenceError(f"policy iteration over turns did not settle in {MOST_ROUNDS} rounds")


def solve_by_turns(game: PigGame, rolls: Optional[Rolls] = None):
    """``(value, roll, rounds)`` as ``[i, j, k]`` tables: the optimal values and policy by policy
    iteration over whole turns, both players following the same policy."""
    turns = Turns(game, rolls or Rolls.of(game))
    after_wipe = turns.smooth_guess()[turns.wiped_to]

    def facing(roll):
        nonlocal after_wipe
        x = turns.start_values([roll], after_wipe)[0]
        after_wipe = x[turns.wiped_to]  # the next round starts from these
        return x, x
    roll, value, rounds, _ = _policy_iteration(turns, facing)
    return turns.table(value), turns.table(roll), rounds


def best_response_by_turns(game: PigGame, theirs: np.ndarray, rolls: Optional[Rolls] = None):
    """``(mine, theirs_values, roll)``: the best response to the fixed ``theirs[i, j, k]`` (k below
    twice the goal), by policy iteration over whole turns: the start values ``[i, j]`` of the
    best responder to move and of the opponent to move, and the responder's roll table
    ``[i, j, k]`` (k below the goal)."""
    g = game.goal
    turns = Turns(game, rolls or Rolls.of(game), width=theirs.shape[2])
    fixed = turns.by_turn(theirs)
    after_wipe = None

    def facing(roll):
        nonlocal after_wipe
        x = turns.start_values([roll, fixed], after_wipe)
        after_wipe = x[:, turns.wiped_to]
        return x[1], x
    roll, _, _, x = _policy_iteration(turns, facing)
    return x[0].reshape(g, g), x[1].reshape(g, g), turns.table(roll)[:, :, :g]


def policy_start_values(game: PigGame, mine: np.ndarray, theirs: np.ndarray, rolls: Optional[Rolls] = None):
    """``(mine, theirs)`` start values ``[i, j]`` of two fixed roll tables ``[i, j, k]`` (the same
    width), each for its own player to move."""
    g = game.goal
    turns = Turns(game, rolls or Rolls.of(game), width=mine.shape[2])
    x = turns.start_values([turns.by_turn(mine), turns.by_turn(theirs)])
    return x[0].reshape(g, g), x[1].reshape(g, g)


def reach_by_turns(game: PigGame, tables: list, start: np.ndarray, rolls: Optional[Rolls] = None) -> np.ndarray:
    """``reach[i, j, k]``: the expected visits of each state with the first player to move, when
    player m follows ``tables[m]`` (``[i, j, k]``, the same width) and turns start with mass
    ``start[m, i, j]``.  The turns' starts solve the transposed system ``y = start + G^T y``
    (G: where each turn leads), the mass wipes send down repeated to a fixed point as the
    values after a wipe are; each turn's own visits then scale with its start."""
    turns = Turns(game, rolls or Rolls.of(game), width=tables[0].shape[2])
    by_turn = [turns.by_turn(t) for t in tables]
    ends = [turns.ends(roll) for roll in by_turn]
    solve = turns._factored([(-hold, -rolled * turns.bust) for hold, rolled in ends])
    wiping = [rolled * turns.wipe for _, rolled in ends]
    starts = start.reshape(2, turns.pairs)

    def step(sent):
        y = solve((starts + sent).ravel(), transposed=True).reshape(2, turns.pairs)
        wiped = np.zeros((2, turns.pairs))
        for m in (0, 1):  # a wipe by player m: the other starts at (j, 0)
            wiped[1 - m] = np.bincount(turns.wipe_target, weights=y[m] * wiping[m], minlength=turns.pairs)
        return y, wiped
    y = _settled(step, np.zeros((2, turns.pairs)), "the mass wipes send back")
    return turns.table(turns.visits(by_turn[0]) * y[0][None, :])
