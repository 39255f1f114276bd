"""Optimal play of roll-or-hold games, stage by stage, with a certificate.

``value[i, j, k]`` is the mover's chance to win under optimal play by both
(see :mod:`hogsolve.solver.pig.stages` for the states and stages).  Within a
stage, a fixed roll/hold policy makes each (i, j) turn a backward induction
over k whose value is linear in the value after a bust: ``x_i = a_i + b_i (1 -
x_i')`` with i' = j, a 2x2 linear system per pair, solved directly.  Policy
iteration repeats that until the policy is greedy for its own values
(usually two or three passes), so no stage is iterated to a tolerance.
Games with wipes (Two-Dice Pig) send play back to lower sums, so they are
solved by policy iteration over whole turns instead (:mod:`.turns`).
"""
from __future__ import annotations

import time
import numpy as np

from ..solution import Solution
from ...pig.rules import PigGame
from .stages import Rolls, greedy_policy, hold_values, pair_values, stage_pairs, turn_values, action_values
from .turns import solve_by_turns
from .certificate import certify_pig
from ..memory import check_pig_fits
from ..certificate import policy_threshold


def _stage_pass(game: PigGame, rolls: Rolls, max_passes: int):
    """One pass over the stages, from the largest score sum down (no wipes):
    ``(value, roll, most policy passes)``."""
    g = game.goal
    value = np.zeros((g, g, g))
    roll = np.zeros((g, g, g), dtype=bool)
    passes_most = 0
    reach = None  # the largest turn total at which the stage above rolled
    for s in range(2 * g - 2, -1, -1):
        i, j = stage_pairs(g, s)
        partner = s - i - i[0]  # index of (j, i) in the stage's list
        hold = hold_values(value, i, j, g)
        room = g - i
        bust, wipe = rolls.exits(i, j, None)
        # start from the neighbouring state of the stage above: the policy is then usually right at once
        x = np.where(j + 1 < g, value[i, np.minimum(j + 1, g - 1), 0], 1.0) if s < 2 * g - 2 else np.full(len(i), 0.5)
        for passes in range(1, max_passes + 1):
            guess = reach + 8 if passes <= 2 and reach is not None else None  # then full passes
            a, b, choice = turn_values(rolls, hold, room, 1.0 - x[partner], highest_roll=guess, bust=bust, wipe=wipe)
            c = a[:, 0] + b[:, 0]
            x = pair_values(c, b[:, 0], c, b[:, 0], partner)
            u = 1.0 - x[partner]
            if greedy_policy(rolls, a + b * u[:, None], hold, room, u, choice, bust, wipe):
                break
        passes_most = max(passes_most, passes)
        rolled = np.flatnonzero(choice.any(axis=0))
        reach = int(rolled.max()) if rolled.size else None
        value[i, j] = a + b * u[:, None]
        roll[i, j] = choice
    return value, roll, passes_most


def solve_pig(game: PigGame, *, max_passes: int = 50) -> Solution:
    """Optimal values and policy of ``game`` by stages and per-stage policy iteration; with
    wipes, which send play back to lower sums, by policy iteration over whole turns instead
    (:mod:`hogsolve.solver.pig.turns`: a sparse solve a round, where passes over all stages
    would repeat until the values after a wipe stop changing).  A game that would not fit
    in the memory available raises :class:`hogsolve.solver.memory.MemoryLimitError` first."""
    check_pig_fits(game, physical=True)
    start = time.perf_counter()
    rolls = Rolls.of(game)
    if rolls.wipe:
        value, roll, passes_most = solve_by_turns(game, rolls)
    else:
        value, roll, passes_most = _stage_pass(game, rolls, max_passes)
    certificate = certify_pig(game, value, rolls, passes_most, roll, over_turns=bool(rolls.wipe))
    if len(certificate.tie_states):  # the policy's ties are among the certificate's: none, nothing to redo
        roll = hold_on_ties(game, value, roll, rolls, policy_threshold(certificate.tie_threshold))
    return Solution(game=game, values=value, policy=roll, certificate=certificate,
                    solve_seconds=time.perf_counter() - start)


def hold_on_ties(game: PigGame, value: np.ndarray, roll: np.ndarray, rolls: Rolls, threshold: float) -> np.ndarray:
    """``roll`` with a hold wherever holding is within ``threshold`` of rolling (the tie rule of
    every table: the fewest dice, here none; the first roll of a turn stays compulsory).  The
    built-in games have no such state; the rule keeps a tie from following float noise."""
    roll_value, hold_value, inside = action_values(game, value, rolls)
    tied = inside & (np.abs(roll_value - hold_value) <= threshold) & (np.arange(game.goal) >= 1)
    return roll & ~tied if tied.any() else roll
