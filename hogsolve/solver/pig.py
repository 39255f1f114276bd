"""Optimal play of roll-or-hold games, stage by stage, with a certificate.

States are (i, j, k): the mover's banked score, the opponent's, the turn
total, with ``i + k < goal`` (a mover who can reach the goal holds and wins).
``value[i, j, k]`` is the mover's chance to win under optimal play by both.

Holding at k >= 1 moves to the opponent's state (j, i + k, 0), on a larger
score sum i + j; a bust moves to (j, i, 0), on the same sum.  So the sums are
solved from the largest down (Neller & Presser's stages).  Within a stage, a
fixed roll/hold policy makes each (i, j) turn a backward induction over k
whose value is linear in the value after a bust: ``x_i = a_i + b_i (1 - x_i')``
with i' = j, a 2x2 linear system per pair, solved directly.  Policy
iteration repeats that until the policy is greedy for its own values
(usually two or three passes), so no stage is iterated to a tolerance.

The certificate measures the Bellman residual ``r`` of the final table in
every state and bounds the error rigorously: a turn from (i, j, 0) lasts at
most ``L`` rolls, each adding at most ``r + step`` (rounding), and returns to
the same stage only through a bust, whose chance under any policy is at most
``rho`` (the chance that always rolling busts before the goal).  So a
stage's error is at most ``E_next + L (r + step) / (1 - rho)``, summed over
the stages.
"""
from __future__ import annotations

import dataclasses
import time
from typing import Callable, Optional

import numpy as np

from .certificate import PROOF_TOLERANCE, gamma
from ..util.plain import plain
from ..pig.rules import PigGame


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


def _turn_values(rolls: Rolls, hold: np.ndarray, room: np.ndarray, u: np.ndarray, policy=None,
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
    otherwise = np.stack([hold, np.zeros_like(hold)])  # what holding gives: (value, 0)
    roll_choice = np.zeros((P, K), dtype=bool)
    D = len(rolls.dense)
    rooms = -np.sort(-room)
    last = min(K, int(room.max()))
    if highest_roll is not None and highest_roll + 1 < last:
        live = np.arange(K)[None, highest_roll + 1:] < room[:, None]
        ab[0, :, highest_roll + 1:K] = np.where(live, hold[:, highest_roll + 1:], win)
        ab[1, :, highest_roll + 1:K] = 0.0
        last = highest_roll + 1
    live_rows = np.searchsorted(-rooms, -np.arange(K), side="left").tolist()  # rooms fall: live rows lead
    for k in range(last - 1, -1, -1):
        n = live_rows[k]
        lo = k + rolls.least_add
        r = ab[:, :n, lo: lo + D] @ rolls.dense
        r[0] += wipe[:n]
        r[1] += bust[:n]
        if k == 0:
            roll = np.ones(n, dtype=bool)
        elif policy is not None:
            roll = policy[:n, k]
        else:
            roll = r[0] + r[1] * u[:n] >= hold[:n, k]  # ties roll
        ab[:, :n, k] = np.where(roll, r, otherwise[:, :n, k])
        roll_choice[:n, k] = roll
    a, b = ab[0], ab[1]
    return a[:, :K], b[:, :K], roll_choice


def _greedy(rolls: Rolls, values: np.ndarray, hold: np.ndarray, room: np.ndarray, u: np.ndarray,
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


@dataclasses.dataclass(frozen=True, repr=False)
class PigCertificate:
    """Evidence that a roll-or-hold table is optimal (see the module docstring)."""

    max_bellman_residual: float
    error_bound: float
    min_decision_margin: float
    tie_states: int
    policy_passes: int
    reason: str = ""

    @property
    def proven(self) -> bool:
        """True when the bound is at most PROOF_TOLERANCE and separates every decision outside the ties."""
        return not self.reason

    def to_dict(self) -> dict:
        """The certificate as plain JSON values."""
        return plain({**dataclasses.asdict(self), "proven": self.proven})

    def __repr__(self) -> str:
        status = "proven" if self.proven else f"NOT proven: {self.reason}"
        return (f"PigCertificate(residual {self.max_bellman_residual:.3g}, error bound {self.error_bound:.3g}, "
                f"smallest margin {self.min_decision_margin:.3g}, {self.tie_states} ties; {status})")


@dataclasses.dataclass(frozen=True, repr=False)
class PigSolution:
    """Optimal values and roll/hold policy of a roll-or-hold game.

    ``value[i, j, k]`` and ``roll[i, j, k]`` (True: roll) for the mover's banked
    score i, the opponent's j and the turn total k (entries with i + k >= goal
    hold and win).  ``hold_threshold[i, j]`` is the smallest turn total at
    which holding is optimal.
    """

    game: PigGame
    value: np.ndarray
    roll: np.ndarray
    certificate: PigCertificate
    solve_seconds: float

    @property
    def first_player_win_probability(self) -> float:
        """P(the first player wins) under optimal play by both."""
        return float(self.value[0, 0, 0])

    @property
    def hold_threshold(self) -> np.ndarray:
        """``[i, j]``: the smallest turn total k >= 1 at which holding is optimal."""
        g = self.game.goal
        holds = ~self.roll & (np.arange(g)[None, None, :] >= 1)
        first = np.argmax(holds, axis=2)
        room = g - np.arange(g)[:, None]
        return np.where(holds.any(axis=2), first, room).astype(np.int16)

    def __call__(self, score: int, opponent_score: int, turn_total: int) -> bool:
        """True to roll at (score, opponent_score, turn_total)."""
        if score + turn_total >= self.game.goal:
            return False
        return bool(self.roll[score, opponent_score, turn_total])

    name = "optimal"

    def to_dict(self) -> dict:
        """Summary for --json output."""
        return plain({"rules": self.game.summary(), "first_player_win_probability":
                      self.first_player_win_probability, "opening_hold_threshold": int(self.hold_threshold[0, 0]),
                      "solve_seconds": self.solve_seconds, "certificate": self.certificate.to_dict()})

    def __repr__(self) -> str:
        return (f"PigSolution({self.game.name}, goal={self.game.goal}: P(first player wins) = "
                f"{self.first_player_win_probability:.12f}, hold at {int(self.hold_threshold[0, 0])} "
                f"at the start; {self.certificate!r})")


def _pair_values(c: np.ndarray, b: np.ndarray, c_other: np.ndarray, b_other: np.ndarray,
                 partner: np.ndarray) -> np.ndarray:
    """Values at k = 0 of a stage's movers from ``x = c - b x_other[partner]`` and the other
    movers' ``x_other = c_other - b_other x[partner]`` (``c = a + b``: the turn's value is
    ``a + b (1 - value after a bust)``), solved directly pair by pair."""
    return (c - b * c_other[partner]) / (1.0 - b * b_other[partner])


def _stage_pairs(g: int, s: int):
    i = np.arange(max(0, s - g + 1), min(s, g - 1) + 1)
    return i, s - i


def _hold_values(value: np.ndarray, i: np.ndarray, j: np.ndarray, g: int, width: Optional[int] = None,
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


def _settle(rolls: Rolls, sweep: Callable, after_wipe: Callable, max_passes: int = 100):
    """``sweep(None)``, then, in games with wipes, ``sweep(after_wipe(last result))`` until the
    values after a wipe stop changing (about 20-fold per pass at goal 100)."""
    result = sweep(None)
    last_change = np.inf
    for _ in range(max_passes if rolls.wipe else 0):
        before = after_wipe(result)
        result = sweep(before)
        change = float(np.abs(after_wipe(result) - before).max())
        if change == 0.0 or change >= last_change:
            break
        last_change = change
    return result


def _sweep(game: PigGame, rolls: Rolls, after_wipe: Optional[np.ndarray], max_passes: int):
    """One pass over the stages, from the largest score sum down, with the value of a wipe
    taken from ``after_wipe`` (see :meth:`Rolls.exits`): ``(value, roll, most policy passes)``."""
    g = game.goal
    value = np.zeros((g, g, g))
    roll = np.zeros((g, g, g), dtype=bool)
    passes_most = 0
    reach = None  # the largest turn total at which the stage above rolled
    for s in range(2 * g - 2, -1, -1):
        i, j = _stage_pairs(g, s)
        partner = s - i - i[0]  # index of (j, i) in the stage's list
        hold = _hold_values(value, i, j, g)
        room = g - i
        bust, wipe = rolls.exits(i, j, after_wipe)
        # start from the neighbouring state of the stage above: the policy is then usually right at once
        x = np.where(j + 1 < g, value[i, np.minimum(j + 1, g - 1), 0], 1.0) if s < 2 * g - 2 else np.full(len(i), 0.5)
        for passes in range(1, max_passes + 1):
            guess = reach + 8 if passes <= 2 and reach is not None else None  # then full passes
            a, b, choice = _turn_values(rolls, hold, room, 1.0 - x[partner], highest_roll=guess, bust=bust, wipe=wipe)
            c = a[:, 0] + b[:, 0]
            x = _pair_values(c, b[:, 0], c, b[:, 0], partner)
            u = 1.0 - x[partner]
            if _greedy(rolls, a + b * u[:, None], hold, room, u, choice, bust, wipe):
                break
        passes_most = max(passes_most, passes)
        rolled = np.flatnonzero(choice.any(axis=0))
        reach = int(rolled.max()) if rolled.size else None
        value[i, j] = a + b * u[:, None]
        roll[i, j] = choice
    return value, roll, passes_most


def solve_pig(game: PigGame, *, max_passes: int = 50) -> PigSolution:
    """Optimal values and policy of ``game`` by stages and per-stage policy iteration; with
    wipes, passes over all stages repeat until the values after a wipe stop changing."""
    start = time.perf_counter()
    rolls = Rolls.of(game)
    value, roll, passes_most = _settle(rolls, lambda after: _sweep(game, rolls, after, max_passes),
                                       lambda result: 1.0 - result[0][:, 0, 0])
    certificate = certify_pig(game, value, rolls, passes_most, roll)
    return PigSolution(game, value, roll, certificate, time.perf_counter() - start)


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


def bust_before_goal(rolls: Rolls, g: int) -> np.ndarray:
    """``rho[i]``: the chance that always rolling from turn total 0 busts before i + k reaches g."""
    top = int(rolls.adds.max())
    gather = np.ones(g + 1 + top)  # gather[top + d]: the chance to add d points before a bust (1 for d <= 0)
    for d in range(1, g + 1):
        gather[top + d] = gather[top + d - rolls.adds] @ rolls.probs
    return 1.0 - gather[top + g - np.arange(g)]


def policy_exits(game: PigGame, roll: np.ndarray, rolls: Optional[Rolls] = None):
    """With both players following ``roll``, per ``[i, j]`` from (i, j, 0), counting only up
    to the first wipe of a banked score: the chance that such a wipe happens, and the
    expected number of states visited.  One pass over the stages each."""
    rolls = rolls or Rolls.of(game)
    g = game.goal
    tables = np.zeros((2, g, g, g))  # [wipe chance, visits] at (i, j, 0), the rest unused
    for s in range(2 * g - 2, -1, -1):
        i, j = _stage_pairs(g, s)
        partner = s - i - i[0]
        bust, _ = rolls.exits(i, j, None)
        per_roll = (np.where(i == 0, 0.0, rolls.wipe), np.ones(len(i)))  # what each roll adds
        for t, hold_adds in ((0, 0.0), (1, 1.0)):
            hold = hold_adds + _hold_values(tables[t], i, j, g, flip=False)
            a, b, _ = _turn_values(rolls, hold, g - i, np.zeros(len(i)), roll[i, j], bust=bust,
                                   wipe=per_roll[t], win=0.0)
            tables[t, i, j, 0] = _pair_values(a[:, 0], -b[:, 0], a[:, 0], -b[:, 0], partner)  # x = a + b x'
    return tables[0, :, :, 0], tables[1, :, :, 0]


def certify_pig(game: PigGame, value: np.ndarray, rolls: Rolls, passes: int,
                roll: Optional[np.ndarray] = None) -> PigCertificate:
    """Residual, rigorous error bound and decision margins of a finished table.

    Games with wipes (Two-Dice Pig) take the policy route: with the table's
    ``roll`` policy fixed, the error up to the first wipe of a banked score is
    at most ``(r + step) N`` (N the expected states visited until then), and
    such a wipe happens with chance at most ``c`` (:func:`policy_exits`), so
    the error from the policy's exact values is at most ``(r + step) N / (1 - c)``;
    when every decision is then separated by more than twice that, the policy
    is greedy for its own exact values, which therefore solve the optimality
    equations (unique, since every game ends with probability 1).
    """
    g = game.goal
    roll_value, hold_value, inside = action_values(game, value, rolls)
    best = np.maximum(roll_value, hold_value)
    residual_grid = np.where(inside, np.abs(best - value), 0.0)
    if rolls.wipe:
        chosen = np.where(roll | (np.arange(g) == 0), roll_value, hold_value)
        residual_grid = np.maximum(residual_grid, np.where(inside, np.abs(chosen - value), 0.0))
    residual = float(residual_grid.max())
    step = gamma(len(rolls.adds) + (6 if rolls.wipe else 4))
    if rolls.wipe:
        wiped, visits = policy_exits(game, roll, rolls)
        c = float(wiped.max()) + 1e-9  # slack for their own rounding
        bound = (residual + step) * float(visits.max()) * (1 + 1e-9) / (1.0 - c) if c < 1.0 else float("inf")
    else:
        rho = bust_before_goal(rolls, g)
        length = np.ceil((g - np.arange(g)) / rolls.least_add)  # most rolls in one turn
        bound = 0.0
        for s in range(2 * g - 2, -1, -1):
            i, j = _stage_pairs(g, s)
            r_s = float(residual_grid[i, j].max())
            bound += float(np.max(length[i] * (r_s + step) / np.maximum(1.0 - rho[i], 1e-300)))
    threshold = 2 * (bound + step)
    margin = np.abs(roll_value - hold_value)
    decided = inside & (np.arange(g)[None, None, :] >= 1)
    tied = decided & (margin <= threshold)
    outside = margin[decided & ~tied]
    min_margin = float(outside.min()) if outside.size else float("inf")
    if not np.isfinite(bound) or bound > PROOF_TOLERANCE:
        reason = f"the error bound {bound:.3g} exceeds {PROOF_TOLERANCE:g}"
    elif not 2 * bound < min_margin:
        reason = "the error bound does not separate the decisions outside the ties"
    elif rolls.wipe and tied.any():
        reason = f"{int(tied.sum())} decisions within the bound: the policy route needs every one separated"
    else:
        reason = ""
    return PigCertificate(residual, bound, min_margin, int(tied.sum()), passes, reason)


# ------------------------------------------------------------ strategies ----

def hold_at(threshold: int) -> Callable[[int, int, int], bool]:
    """Roll until the turn total reaches ``threshold``, then hold (even past the goal)."""
    def strategy(score: int, opponent_score: int, turn_total: int) -> bool:
        return turn_total < threshold
    strategy.name = f"hold_at:{threshold}"
    strategy.table = lambda i, j, k, goal: k < threshold
    return strategy


def hold_at_or_goal(threshold: int, goal: int) -> Callable[[int, int, int], bool]:
    """As :func:`hold_at`, and also hold as soon as holding wins (score + turn total >= goal)."""
    def strategy(score: int, opponent_score: int, turn_total: int) -> bool:
        return turn_total < threshold and score + turn_total < goal
    strategy.name = f"hold_at_or_goal:{threshold}"
    strategy.table = lambda i, j, k, _goal: (k < threshold) & (i + k < goal)
    return strategy


def policy_table(strategy, game: PigGame) -> np.ndarray:
    """``roll[i, j, k]`` for turn totals k below twice the goal (beyond that a player holds,
    which wins), from a PigSolution, a named strategy or any callable returning True to
    roll, validated."""
    g = game.goal
    i, j, k = np.meshgrid(np.arange(g), np.arange(g), np.arange(2 * g), indexing="ij")
    if isinstance(strategy, (PigSolution, PigBestResponse)):
        if strategy.game != game:
            raise ValueError(f"the solution is for {strategy.game.name} at goal {strategy.game.goal}")
        table = np.zeros((g, g, 2 * g), dtype=bool)
        table[:, :, :g] = strategy.roll & (i[:, :, :g] + k[:, :, :g] < g)
        table[:, :, 0] = True  # the first roll of a turn is compulsory
        return table
    if hasattr(strategy, "table"):
        return np.asarray(strategy.table(i, j, k, g), dtype=bool)
    table = np.zeros((g, g, 2 * g), dtype=bool)
    for a in range(g):
        for b in range(g):
            for c in range(2 * g):
                choice = strategy(a, b, c)
                if not isinstance(choice, (bool, np.bool_)):
                    raise ValueError(f"strategy {getattr(strategy, 'name', strategy)} returned {choice!r} at "
                                     f"({a}, {b}, {c}); expected True (roll) or False (hold)")
                table[a, b, c] = choice
    return table


def _policy_values(game: PigGame, mine: np.ndarray, theirs: np.ndarray):
    """Win probabilities at (i, j, 0) of two fixed roll/hold tables: ``(value_mine, value_theirs)``."""
    rolls = Rolls.of(game)
    return _settle(rolls, lambda after: _policy_sweep(game, rolls, (mine, theirs), after),
                   lambda result: 1.0 - np.stack([result[1][:, 0, 0], result[0][:, 0, 0]]))


def _policy_sweep(game: PigGame, rolls: Rolls, tables: tuple, after_wipe: Optional[np.ndarray]):
    """One pass of :func:`_policy_values`; ``after_wipe[p]``: player p's values once the other
    moves at (j, 0, 0)."""
    g = game.goal
    v = [np.zeros((g, g, g)), np.zeros((g, g, g))]
    width = tables[0].shape[2]
    for s in range(2 * g - 2, -1, -1):
        i, j = _stage_pairs(g, s)
        partner = s - i - i[0]
        room = np.full(len(i), width)
        holds = [_hold_values(v[1 - p], i, j, g, width) for p in (0, 1)]  # the other player moves next
        exits = [rolls.exits(i, j, None if after_wipe is None else after_wipe[p]) for p in (0, 1)]
        ab = [_turn_values(rolls, holds[p], room, np.zeros(len(i)), tables[p][i, j], bust=exits[p][0],
                           wipe=exits[p][1]) for p in (0, 1)]
        b0, b1 = ab[0][1][:, 0], ab[1][1][:, 0]
        c0, c1 = ab[0][0][:, 0] + b0, ab[1][0][:, 0] + b1
        v[0][i, j, 0] = _pair_values(c0, b0, c1, b1, partner)
        v[1][i, j, 0] = _pair_values(c1, b1, c0, b0, partner)
    return v[0], v[1]


@dataclasses.dataclass(frozen=True, repr=False)
class PigBestResponse:
    """The best response to a fixed roll/hold strategy: its roll table and exact win rate."""

    game: PigGame
    opponent: str
    roll: np.ndarray          # [i, j, k] True: roll (the best responder to move)
    first: float              # P(best responder wins | it moves first)
    second: float

    name = "best response"

    @property
    def average(self) -> float:
        """The win rate over both seatings."""
        return (self.first + self.second) / 2

    @property
    def exploitability(self) -> float:
        """How far the best response's win rate exceeds one half."""
        return self.average - 0.5

    def __call__(self, score: int, opponent_score: int, turn_total: int) -> bool:
        return score + turn_total < self.game.goal and bool(self.roll[score, opponent_score, turn_total])

    def __repr__(self) -> str:
        return f"PigBestResponse(to {self.opponent}: win rate {self.average:.12f})"


def pig_best_response(strategy, game: PigGame, *, max_passes: int = 50) -> PigBestResponse:
    """The roll/hold table that wins most often against the fixed ``strategy``: stages as in
    :func:`solve_pig`, with the opponent's turns fixed linear maps of the value after a bust."""
    rolls = Rolls.of(game)
    theirs = policy_table(strategy, game)
    mine_v, their_v, roll = _settle(rolls, lambda after: _best_response_sweep(game, rolls, theirs, after, max_passes),
                                    lambda result: 1.0 - np.stack([result[1][:, 0, 0], result[0][:, 0, 0]]))
    name = getattr(strategy, "name", "strategy")
    return PigBestResponse(game, name, roll, float(mine_v[0, 0, 0]), float(1.0 - their_v[0, 0, 0]))


def _best_response_sweep(game: PigGame, rolls: Rolls, theirs: np.ndarray, after_wipe: Optional[np.ndarray],
                         max_passes: int):
    """One pass of :func:`pig_best_response`: ``(mine, theirs, roll)`` tables."""
    g = game.goal
    mine_v, their_v = np.zeros((g, g, g)), np.zeros((g, g, g))
    roll = np.zeros((g, g, g), dtype=bool)
    for s in range(2 * g - 2, -1, -1):
        i, j = _stage_pairs(g, s)
        partner = s - i - i[0]
        hold_mine = _hold_values(their_v, i, j, g)
        hold_theirs = _hold_values(mine_v, i, j, g, theirs.shape[2])
        bust_m, wipe_m = rolls.exits(i, j, None if after_wipe is None else after_wipe[0])
        bust_t, wipe_t = rolls.exits(i, j, None if after_wipe is None else after_wipe[1])
        a_t, b_t, _ = _turn_values(rolls, hold_theirs, np.full(len(i), theirs.shape[2]), np.zeros(len(i)),
                                   theirs[i, j], bust=bust_t, wipe=wipe_t)
        c_t = a_t[:, 0] + b_t[:, 0]
        x_mine = np.full(len(i), 0.5)
        for _ in range(max_passes):
            x_theirs = c_t - b_t[:, 0] * x_mine[partner]
            u = 1.0 - x_theirs[partner]
            a, b, choice = _turn_values(rolls, hold_mine, g - i, u, bust=bust_m, wipe=wipe_m)
            x_mine = _pair_values(a[:, 0] + b[:, 0], b[:, 0], c_t, b_t[:, 0], partner)
            x_theirs = c_t - b_t[:, 0] * x_mine[partner]
            u = 1.0 - x_theirs[partner]
            if _greedy(rolls, a + b * u[:, None], hold_mine, g - i, u, choice, bust_m, wipe_m):
                break
        mine_v[i, j] = a + b * u[:, None]
        their_v[i, j, 0] = x_theirs
        roll[i, j] = choice
    return mine_v, their_v, roll


def pig_win_rate(a, b, game: PigGame) -> tuple:
    """Exact (P(a wins | a first), P(a wins | b first), average) of two strategies."""
    ta, tb = policy_table(a, game), policy_table(b, game)
    va, vb = _policy_values(game, ta, tb)
    first, second = float(va[0, 0, 0]), float(1.0 - vb[0, 0, 0])
    return first, second, (first + second) / 2


PIG_LAYOUT = ("roll[i, j, k]: True to roll with banked score i, the opponent's j and turn total k "
              "(i + k < goal; beyond, hold and win); hold_threshold[i, j]: the smallest k >= 1 at which "
              "holding is optimal (goal - i when never)")


def pig_solution_files(solution: PigSolution, version: str) -> dict:
    """The files of a roll-or-hold table folder: the decisions only (proven, so the same bytes on
    every machine), and meta.json with the certificate's verdict and bounds to two digits."""
    import json

    from ..util.files import grid_csv, npy_bytes, sha256
    files = {"hold_threshold.csv": grid_csv(solution.hold_threshold, str),
             "roll.npy": npy_bytes(solution.roll)}
    c = solution.certificate
    meta = {"format": "hogsolve-pig-solution/1", "layout": PIG_LAYOUT, "hogsolve_version": version,
            "rules": solution.game.summary(),
            "first_player_win_probability": float(f"{solution.first_player_win_probability:.12g}"),
            "certificate": {"proven": c.proven, "reason": c.reason, "tie_states": c.tie_states,
                            **{key: float(f"{getattr(c, key):.2g}") for key in ("error_bound", "min_decision_margin")}},
            "sha256": {name: sha256(data) for name, data in files.items()}}
    files["meta.json"] = (json.dumps(meta, indent=2) + "\n").encode()
    return files


def simulate_pig(a, b, game: PigGame, games: int = 100_000, seed: int = 0) -> tuple:
    """Monte Carlo of ``games`` games, vectorised: ``(wins of a moving first, games a moved
    first, wins of a moving second, games a moved second)``.  Game ``n`` has ``a`` first when
    ``n`` is even; every random draw comes from one generator seeded with ``seed``."""
    if games < 2:
        raise ValueError("simulate_pig needs at least 2 games")
    rng = np.random.default_rng(seed)
    g = game.goal
    tables = np.stack([policy_table(a, game), policy_table(b, game)])  # [player, i, j, k]
    dist = game.outcomes()
    kinds = list(dist)
    cumulative = np.cumsum([float(dist[kind]) for kind in kinds])
    amounts = np.array([{"add": x, "bust": -1, "wipe": -2}[kind] for kind, x in kinds])
    a_first = np.arange(games) % 2 == 0
    scores = np.zeros((games, 2), dtype=np.int64)   # [game, 0 = a, 1 = b]
    mover = np.where(a_first, 0, 1)
    total = np.zeros(games, dtype=np.int64)
    winner = np.full(games, -1)
    live = np.arange(games)
    width = tables.shape[3]  # beyond the table a player holds (which wins)
    while live.size:
        me = mover[live]
        i, j, k = scores[live, me], scores[live, 1 - me], total[live]
        wants = np.where(k < width, tables[me, i, j, np.minimum(k, width - 1)], False) | (k == 0)
        holding = ~wants
        banked = live[holding]
        scores[banked, mover[banked]] += total[banked]
        total[banked] = 0
        won = scores[banked, mover[banked]] >= g
        winner[banked[won]] = mover[banked[won]]
        mover[banked[~won]] = 1 - mover[banked[~won]]
        rolling = live[wants]
        draw = amounts[np.searchsorted(cumulative, rng.random(rolling.size), side="right").clip(max=len(kinds) - 1)]
        bust = draw < 0
        wiped = rolling[draw == -2]
        scores[wiped, mover[wiped]] = 0
        total[rolling[bust]] = 0
        mover[rolling[bust]] = 1 - mover[rolling[bust]]
        total[rolling[~bust]] += draw[~bust]
        live = live[winner[live] < 0]
    a_won = winner == 0
    return (int(a_won[a_first].sum()), int(a_first.sum()), int(a_won[~a_first].sum()), int((~a_first).sum()))


@dataclasses.dataclass(frozen=True, repr=False)
class PigRegret:
    """Where a roll/hold strategy loses against optimal play (arrays ``[i, j, k]``, k below
    twice the goal, the strategy to move)."""

    game: PigGame
    strategy: str
    loss: np.ndarray      # win probability lost by the strategy's choice at the state
    reach: np.ndarray     # expected visits against the optimal opponent, both seatings averaged
    win_rate: float       # the strategy's win rate against optimal play

    @property
    def total_expected_loss(self) -> float:
        """The sum of loss x reach: one half minus the win rate (performance difference)."""
        return float((self.loss * self.reach).sum())

    def worst(self, top: int = 10) -> list:
        """The ``top`` states by expected loss."""
        expected = self.loss * self.reach
        out = []
        for index in np.argsort(-expected, axis=None, kind="stable")[:top]:
            i, j, k = (int(x) for x in np.unravel_index(index, expected.shape))
            if expected[i, j, k] <= 0:
                break
            out.append({"score": i, "opponent_score": j, "turn_total": k, "loss": float(self.loss[i, j, k]),
                        "reach": float(self.reach[i, j, k]), "expected_loss": float(expected[i, j, k])})
        return out


def _turn_reach(rolls: Rolls, start: np.ndarray, policy: np.ndarray) -> np.ndarray:
    """Expected visits of (pair, k) in one turn from ``start`` mass at k = 0 under ``policy``."""
    P, K = policy.shape
    mass = np.zeros((P, K + int(rolls.adds.max()) + 1))
    mass[:, 0] = start
    for k in range(K):
        moving = mass[:, k] * (policy[:, k] | (k == 0))
        mass[:, k + rolls.adds] += moving[:, None] * rolls.probs[None, :]
    return mass[:, :K]


def pig_regret(strategy, game: PigGame, solution: Optional[PigSolution] = None) -> PigRegret:
    """Per-state loss of ``strategy`` against optimal choices, weighted by how often play
    against the optimal opponent reaches the state (half the games with each first)."""
    g = game.goal
    rolls = Rolls.of(game)
    if rolls.wipe:
        raise ValueError(f"regret is not built for {game.name}: a wipe sends play back to lower scores, "
                         "so the reach of a state is no longer one pass upwards")
    solution = solution or solve_pig(game)
    tables = [policy_table(strategy, game), policy_table(solution, game)]  # [me, optimal opponent]
    width = tables[0].shape[2]
    # the optimal values of both actions over the whole width (beyond the goal: holding wins)
    roll_q, hold_q, _ = action_values(game, solution.value, rolls, width)
    first_roll = np.arange(width)[None, None, :] == 0
    chosen = np.where(tables[0] | first_roll, roll_q, hold_q)
    loss = np.maximum(np.maximum(roll_q, hold_q) - chosen, 0.0)
    # reach, stage by stage upwards: turns start at k = 0, busts return within the stage
    incoming = [np.zeros((g, g)), np.zeros((g, g))]  # mass arriving at (i, j, 0) with me / them to move
    incoming[0][0, 0] = incoming[1][0, 0] = 0.5
    reach = np.zeros((g, g, width))
    for s in range(2 * g - 1):
        i_, j_ = _stage_pairs(g, s)
        partner = s - i_ - i_[0]
        zeros = np.zeros((len(i_), width))
        busts = [_turn_values(rolls, zeros, np.full(len(i_), width), np.zeros(len(i_)), t[i_, j_])[1][:, 0]
                 for t in tables]  # chance that a turn from k = 0 ends in a bust
        inflow = [incoming[r][i_, j_] for r in (0, 1)]
        starts = [None, None]
        for r in (0, 1):  # M_r = In_r + beta_other(partner) (In_other(partner) + beta_r M_r)
            o = 1 - r
            starts[r] = (inflow[r] + busts[o][partner] * inflow[o][partner]) / (1.0 - busts[o][partner] * busts[r])
        for r in (0, 1):
            mass = _turn_reach(rolls, starts[r], tables[r][i_, j_])
            if r == 0:
                reach[i_, j_] = mass
            holds = mass * ~(tables[r][i_, j_] | (np.arange(width) == 0)[None, :])
            p_idx, k_idx = np.nonzero(holds)
            banked = i_[p_idx] + k_idx
            going = banked < g  # otherwise the holder has won
            np.add.at(incoming[1 - r], (j_[p_idx][going], banked[going]), holds[p_idx, k_idx][going])
    first, second, average = pig_win_rate(strategy, solution, game)
    return PigRegret(game, getattr(strategy, "name", "strategy"), loss, reach, average)
