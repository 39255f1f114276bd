"""Vectorised Monte Carlo of roll-or-hold games, seeded."""
from __future__ import annotations

import time
from typing import Optional

import numpy as np

from ...pig.rules import PigGame
from ...strategy.pig import policy_table
from ..montecarlo import SimulationResult
from ...errors import InputError


def simulate_pig(a, b, game: PigGame, games: int = 100_000, seed: Optional[int] = 0) -> tuple:
    """Monte Carlo of ``games`` games, vectorised: ``(wins of a moving first, games a moved
    first, wins of a moving second, games a moved second)``.  Game ``n`` has ``a`` first when
    ``n`` is even; every random draw comes from one generator seeded with ``seed``."""
    if games < 2:
        raise InputError("simulate_pig needs at least 2 games")
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


def simulate_roll_or_hold(a, b, game: PigGame, games: int = 100_000, seed: Optional[int] = 0) -> SimulationResult:
    """:func:`simulate_pig` as a :class:`~hogsolve.analysis.montecarlo.SimulationResult`, the
    result Hog's simulations give (per seat, the average and its 95% interval)."""
    if seed is not None and seed < 0:
        raise InputError(f"seed must be 0 or more, got {seed}")
    start = time.perf_counter()
    wins_first, games_first, wins_second, games_second = simulate_pig(a, b, game, games, seed)
    return SimulationResult(a=getattr(a, "name", "a"), b=getattr(b, "name", "b"), games_first=games_first,
                            wins_first=wins_first, games_second=games_second, wins_second=wins_second, seed=seed,
                            seconds=time.perf_counter() - start)
