"""Exact evaluation of roll-or-hold strategies: win rates, best response, regret.

Each runs the solver's stages (:mod:`hogsolve.solver.pig.stages`) with one
or both players' roll tables fixed; in games with wipes, win rates and best
responses work on whole turns instead (:mod:`hogsolve.solver.pig.turns`), as
the solver does.
"""
from __future__ import annotations

from typing import Any, List, Optional
import numpy as np

from ...pig.rules import PigGame
from ...solver.pig.stages import (Rolls, greedy_policy, hold_values, pair_values, stage_pairs, turn_values,
                                 action_values)
from ...solver.pig.solve import solve_pig
from ...solver.solution import Solution
from ...solver.pig.turns import best_response_by_turns, policy_start_values, reach_by_turns
from ...strategy.mixed import Mixture
from ...strategy.pig import policy_table
from ..results import BestResponse, Regret, WinRate


def _policy_values(game: PigGame, mine: np.ndarray, theirs: np.ndarray):
    """Win probabilities at (i, j, 0) of two fixed roll/hold tables, each for its own player to
    move: ``(value_mine[i, j], value_theirs[i, j])``."""
    rolls = Rolls.of(game)
    if rolls.wipe:
        return policy_start_values(game, mine, theirs, rolls)
    return _policy_pass(game, rolls, (mine, theirs))


def _policy_pass(game: PigGame, rolls: Rolls, tables: tuple):
    """:func:`_policy_values` by one pass over the stages (no wipes)."""
    g = game.goal
    v = [np.zeros((g, g, g)), np.zeros((g, g, g))]
    width = tables[0].shape[2]
    for s in range(2 * g - 2, -1, -1):
        i, j = stage_pairs(g, s)
        partner = s - i - i[0]
        room = np.full(len(i), width)
        holds = [hold_values(v[1 - p], i, j, g, width) for p in (0, 1)]  # the other player moves next
        bust, _ = rolls.exits(i, j, None)
        ab = [turn_values(rolls, holds[p], room, np.zeros(len(i)), tables[p][i, j], bust=bust) for p in (0, 1)]
        b0, b1 = ab[0][1][:, 0], ab[1][1][:, 0]
        c0, c1 = ab[0][0][:, 0] + b0, ab[1][0][:, 0] + b1
        v[0][i, j, 0] = pair_values(c0, b0, c1, b1, partner)
        v[1][i, j, 0] = pair_values(c1, b1, c0, b0, partner)
    return v[0][:, :, 0], v[1][:, :, 0]


def pig_best_response(strategy, game: PigGame, *, max_passes: int = 50) -> BestResponse:
    """The roll/hold table that wins most often against the fixed ``strategy``: stages as in
    :func:`solve_pig`, with the opponent's turns fixed linear maps of the value after a bust
    (with wipes, policy iteration over whole turns)."""
    rolls = Rolls.of(game)
    theirs = policy_table(strategy, game)
    if rolls.wipe:
        mine_v, their_v, roll = best_response_by_turns(game, theirs, rolls)
    else:
        mine_v, their_v, roll = _best_response_pass(game, rolls, theirs, max_passes)
    name = getattr(strategy, "name", "strategy")
    rate = WinRate(f"best response to {name}", name, float(mine_v[0, 0]), float(1.0 - their_v[0, 0]))
    return BestResponse(game, name, roll, mine_v, rate)


def _best_response_pass(game: PigGame, rolls: Rolls, theirs: np.ndarray, max_passes: int):
    """:func:`pig_best_response` by one pass over the stages (no wipes): ``(mine[i, j],
    theirs[i, j], roll[i, j, k])``."""
    g = game.goal
    mine_v, their_v = np.zeros((g, g, g)), np.zeros((g, g, g))
    roll = np.zeros((g, g, g), dtype=bool)
    for s in range(2 * g - 2, -1, -1):
        i, j = stage_pairs(g, s)
        partner = s - i - i[0]
        hold_mine = hold_values(their_v, i, j, g)
        hold_theirs = hold_values(mine_v, i, j, g, theirs.shape[2])
        bust, no_wipe = rolls.exits(i, j, None)
        a_t, b_t, _ = turn_values(rolls, hold_theirs, np.full(len(i), theirs.shape[2]), np.zeros(len(i)),
                                   theirs[i, j], bust=bust)
        c_t = a_t[:, 0] + b_t[:, 0]
        x_mine = np.full(len(i), 0.5)
        for _ in range(max_passes):
            x_theirs = c_t - b_t[:, 0] * x_mine[partner]
            u = 1.0 - x_theirs[partner]
            a, b, choice = turn_values(rolls, hold_mine, g - i, u, bust=bust)
            x_mine = pair_values(a[:, 0] + b[:, 0], b[:, 0], c_t, b_t[:, 0], partner)
            x_theirs = c_t - b_t[:, 0] * x_mine[partner]
            u = 1.0 - x_theirs[partner]
            if greedy_policy(rolls, a + b * u[:, None], hold_mine, g - i, u, choice, bust, no_wipe):
                break
        mine_v[i, j] = a + b * u[:, None]
        their_v[i, j, 0] = x_theirs
        roll[i, j] = choice
    return mine_v[:, :, 0], their_v[:, :, 0], roll


def pig_win_rate(a, b, game: PigGame) -> WinRate:
    """Exact P(a wins | a first), P(a wins | b first) and their average, as for Hog."""
    ta, tb = policy_table(a, game), policy_table(b, game)
    va, vb = _policy_values(game, ta, tb)
    return WinRate(getattr(a, "name", "a"), getattr(b, "name", "b"), float(va[0, 0]), float(1.0 - vb[0, 0]))


def _turn_reach(rolls: Rolls, start: np.ndarray, policy: np.ndarray) -> np.ndarray:
    """Expected visits of (pair, k) in one turn from ``start`` mass at k = 0 under ``policy``."""
    P, K = policy.shape
    mass = np.zeros((P, K + int(rolls.adds.max()) + 1))
    mass[:, 0] = start
    for k in range(K):
        moving = mass[:, k] * (policy[:, k] | (k == 0))
        mass[:, k + rolls.adds] += moving[:, None] * rolls.probs[None, :]
    return mass[:, :K]


def pig_regret(strategy, game: PigGame, solution: Optional[Solution] = None) -> Regret:
    """Per-state loss of ``strategy`` against optimal choices, weighted by how often play
    against the optimal opponent reaches the state (half the games with each first): one pass
    upwards over the stages, or with wipes (Two-Dice Pig), which send play back down, one
    transposed solve over whole turns (:func:`~hogsolve.solver.pig.turns.reach_by_turns`)."""
    if isinstance(strategy, Mixture):
        raise strategy.not_fixed()
    g = game.goal
    rolls = Rolls.of(game)
    solution = solution or solve_pig(game)
    tables = [policy_table(strategy, game), policy_table(solution, game)]  # [me, optimal opponent]
    width = tables[0].shape[2]
    # the optimal values of both actions over the whole width (beyond the goal: holding wins)
    roll_q, hold_q, _ = action_values(game, solution.values, rolls, width)
    first_roll = np.arange(width)[None, None, :] == 0
    chosen = np.where(tables[0] | first_roll, roll_q, hold_q)
    loss = np.maximum(np.maximum(roll_q, hold_q) - chosen, 0.0)
    start = np.zeros((2, g, g))  # mass arriving at (i, j, 0) with me / them to move
    start[:, 0, 0] = 0.5

    if rolls.wipe:
        reach = reach_by_turns(game, tables, start, rolls)
    else:
        reach = np.zeros((g, g, width))
        _reach_pass(rolls, tables, list(start), reach, g, width)
    return Regret(game, getattr(strategy, "name", "strategy"), tables[0], tables[1], loss, reach,
                  pig_win_rate(strategy, solution, game))


def _reach_pass(rolls: Rolls, tables: list, incoming: list, reach: np.ndarray, g: int, width: int) -> None:
    """One pass upwards over the stages (no wipes): turns start at k = 0, busts return within
    the stage, holds go up; adds my visits to ``reach``."""
    for s in range(2 * g - 1):
        i_, j_ = stage_pairs(g, s)
        partner = s - i_ - i_[0]
        zeros = np.zeros((len(i_), width))
        bust, _ = rolls.exits(i_, j_, None)  # a wipe with nothing banked is a bust
        busts = [turn_values(rolls, zeros, np.full(len(i_), width), np.zeros(len(i_)), t[i_, j_], bust=bust)[1][:, 0]
                 for t in tables]  # chance that a turn from k = 0 ends in a bust
        inflow = [incoming[r][i_, j_] for r in (0, 1)]
        starts: List[Any] = [None, None]
        for r in (0, 1):  # M_r = In_r + beta_other(partner) (In_other(partner) + beta_r M_r)
            o = 1 - r
            starts[r] = (inflow[r] + busts[o][partner] * inflow[o][partner]) / (1.0 - busts[o][partner] * busts[r])
        for r in (0, 1):
            mass = _turn_reach(rolls, starts[r], tables[r][i_, j_])
            if r == 0:
                reach[i_, j_] += mass
            rolled = mass * (tables[r][i_, j_] | (np.arange(width) == 0)[None, :])
            holds = mass - rolled
            p_idx, k_idx = np.nonzero(holds)
            banked = i_[p_idx] + k_idx
            going = banked < g  # otherwise the holder has won
            np.add.at(incoming[1 - r], (j_[p_idx][going], banked[going]), holds[p_idx, k_idx][going])

