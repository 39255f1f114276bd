"""Vectorised Monte Carlo of many games between two strategies.

All games advance together, one turn per step, with numpy arrays.  Points
are drawn exactly from the model's integer counts: a uniform integer below
the common denominator is looked up in the cumulative counts, so the only
randomness is the seeded generator's.  Games run in chunks of constant
size; game ``i`` starts with ``a`` when ``i`` is odd, so half the games
start with each; the estimate of the win rate carries a 95% Wilson interval.
"""
from __future__ import annotations

import dataclasses
import math
import time
from math import lcm
from typing import Callable, Iterable, Optional

import numpy as np

from .model import Model, compile_model
from .rules import Ruleset
from .stats import standard_error, wilson_interval
from .plain import plain
from .policy import as_policy


@dataclasses.dataclass(frozen=True)
class SimulationResult:
    """Win counts of ``a`` in ``games`` games, half with each player first."""

    a: str
    b: str
    games_first: int
    wins_first: int
    games_second: int
    wins_second: int
    seed: Optional[int]
    seconds: float

    @property
    def first(self) -> float:
        """Share of games won by ``a`` when it moved first."""
        return self.wins_first / self.games_first

    @property
    def second(self) -> float:
        """Share of games won by ``a`` when ``b`` moved first."""
        return self.wins_second / self.games_second

    @property
    def average(self) -> float:
        """The estimated CS 61A win rate of ``a``."""
        return (self.first + self.second) / 2

    @property
    def standard_error(self) -> float:
        """Standard error of the average (normal approximation)."""
        return math.hypot(standard_error(self.first, self.games_first),
                          standard_error(self.second, self.games_second)) / 2

    @property
    def effective_games(self) -> float:
        """Trials of one proportion with the average's variance bound: 4 / (1/n1 + 1/n2)."""
        return 4 / (1 / self.games_first + 1 / self.games_second)

    @property
    def interval(self):
        """The 95% Wilson interval of the average win rate.

        The average of two independent proportions has variance at most
        ``p (1 - p) / effective_games`` (concavity), so the Wilson interval
        for that many trials covers it; it never leaves [0, 1].
        """
        return wilson_interval(self.average, self.effective_games)

    def to_dict(self) -> dict:
        """The simulation as plain JSON values."""
        return plain({"a": self.a, "b": self.b, "games": self.games_first + self.games_second,
                      "first": self.first, "second": self.second, "average": self.average,
                      "ci95": list(self.interval), "seed": self.seed, "seconds": self.seconds})


class PointSampler:
    """Exact sampling of a turn's points from the model's integer counts."""

    def __init__(self, model: Model):
        self.model = model
        self.base = lcm(*(int(d) for d in model.denominators))
        scaled = model.counts * (self.base // model.denominators)[:, None, None]
        T, A, P = scaled.shape
        self.width = P
        rows = np.arange(T * A).reshape(T, A, 1)
        self.cumulative = (np.cumsum(scaled, axis=2) + rows * self.base).ravel()

    def sample(self, kinds: np.ndarray, actions: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Points for rolls of ``actions`` dice of ``kinds`` (actions >= 1)."""
        row = kinds.astype(np.int64) * self.model.num_actions + actions
        key = row * self.base + rng.integers(0, self.base, size=len(row))
        index = np.searchsorted(self.cumulative, key, side="right")
        return index - row * self.width


#: Games advanced together: memory stays constant however many are asked for.
CHUNK = 500_000


def simulate(a, b, rules: Ruleset, games: int = 100_000, seed: Optional[int] = 0,
             *, model: Optional[Model] = None, chunk: int = CHUNK,
             progress: Optional[Callable] = None,
             announce: Optional[Callable[[float], None]] = None) -> SimulationResult:
    """Play ``games`` games between ``a`` and ``b`` (strategies or policy tables).

    Games run in chunks of ``chunk`` with one seeded generator, so memory is
    constant and the result depends only on ``seed`` and ``chunk``.  Game
    ``i`` has ``a`` first when ``i`` is odd (half the games, rounded down).
    ``progress(chunks, total)`` may wrap the chunks; ``announce(seconds)``
    hears the estimated total time after the first chunk.
    """
    if games < 2:
        raise ValueError("simulate needs at least 2 games")
    if seed is not None and seed < 0:
        raise ValueError(f"seed must be 0 or more, got {seed}")
    start = time.perf_counter()
    model = model if model is not None else compile_model(rules)
    policy_a, policy_b = as_policy(a, rules), as_policy(b, rules)
    pa, pb = (p.table.reshape(-1).astype(np.int64) for p in (policy_a, policy_b))
    rng = np.random.default_rng(seed)
    sampler = PointSampler(model)
    bounds = list(range(0, games, chunk)) + [games]
    spans: Iterable = list(zip(bounds[:-1], bounds[1:]))
    if progress is not None:
        spans = progress(spans, len(bounds) - 1)
    wins_first = wins_second = 0
    for number, (lo, hi) in enumerate(spans):
        a_first = np.arange(lo, hi) % 2 == 1
        a_won = _play_chunk(model, sampler, pa, pb, a_first, rng)
        wins_first += int(a_won[a_first].sum())
        wins_second += int(a_won[~a_first].sum())
        if number == 0 and announce is not None and hi < games:
            announce((time.perf_counter() - start) * games / hi)
    n_first = games // 2
    return SimulationResult(
        a=policy_a.name, b=policy_b.name,
        games_first=n_first, wins_first=wins_first,
        games_second=games - n_first, wins_second=wins_second,
        seed=seed, seconds=time.perf_counter() - start,
    )


def _play_chunk(model: Model, sampler: PointSampler, pa: np.ndarray, pb: np.ndarray,
                a_first: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Play one chunk of games to the end; ``a_won[i]`` for each game."""
    g = model.goal
    kinds_flat = model.dice_kind.reshape(-1)
    after = model.after.reshape(-1)
    again = None if model.again is None else model.again.reshape(-1)
    games = len(a_first)
    state = np.zeros(games, dtype=np.int64)        # flat (mover score, opponent score)
    a_moves = a_first.copy()
    game = np.arange(games)
    a_won = np.zeros(games, dtype=bool)
    rule = model.rules.history
    cells = int(np.prod(model.context_shape, dtype=np.int64))  # 1 without a history rule
    mine = np.zeros(games, dtype=np.int64)    # the mover's memory of their previous turn
    theirs = np.zeros(games, dtype=np.int64)  # the opponent's
    while len(state):
        s, o = np.divmod(state, g)
        cell = state * cells + (mine * model.context_shape[0] + theirs if cells > 1 else 0)
        actions = np.where(a_moves, pa[cell], pb[cell])
        points = model.free_bacon_points[s, o]
        rolled = actions > 0
        points[rolled] = sampler.sample(kinds_flat[state[rolled]], actions[rolled], rng)
        extra = 0
        if rule is not None:
            extra = np.asarray(rule.points(actions, mine))
            mine, theirs = theirs, np.asarray(rule.index(rule.remembered(actions, points), model.rules.max_dice))
        landing = (s + points + extra) * g + o
        nxt = after[landing] if model.points_landing is None else model.points_landing[s, o, points]
        if model.piggy is not None:
            piggy = rolled & (points == 0)
            nxt[piggy] = model.piggy_landing(s[piggy], o[piggy], actions[piggy])
        over = nxt >= model.win
        mover_won = nxt[over] == model.win
        a_won[game[over]] = np.where(a_moves[over], mover_won, ~mover_won)
        keep = ~over
        turn_passes = True if again is None else ~again[landing]  # an extra turn keeps the mover
        state, a_moves, game = nxt[keep], (a_moves ^ turn_passes)[keep], game[keep]
        mine, theirs = mine[keep], theirs[keep]
    return a_won
