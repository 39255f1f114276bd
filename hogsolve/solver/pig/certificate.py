"""The certificate of a roll-or-hold table: Bellman residual, rigorous error bound, margins.

A turn from (i, j, 0) lasts at most ``L`` rolls, each adding at most ``r +
step`` (rounding), and returns to the same stage only through a bust, whose
chance under any policy is at most ``rho`` (the chance that always rolling
busts before the goal).  So a stage's error is at most ``E_next + L (r +
step) / (1 - rho)``, summed over the stages.  Games with wipes take the
policy route (see :func:`certify_pig`).
"""
from __future__ import annotations

from typing import Any, Optional
import numpy as np

from ..certificate import PROOF_TOLERANCE, Certificate, gamma
from ...pig.rules import PigGame
from .stages import Rolls, stage_pairs, action_values
from .turns import Turns


#: How a roll-or-hold table was found: policy passes within each stage, or over whole turns.
BY_STAGES = "policy iteration stage by stage"
OVER_TURNS = "policy iteration over whole turns"


class PigCertificate(Certificate):
    """A :class:`~hogsolve.solver.certificate.Certificate` of a roll-or-hold table: the same
    fields and JSON keys as every game's; ``updates`` counts the most policy passes of a stage
    (or the rounds of policy iteration over whole turns), ``tie_states`` holds (i, j, k) rows
    and ``stay_probability`` the largest chance of coming back to a stage (a bust, or a wipe)."""

    @property
    def policy_passes(self) -> int:
        """The most policy passes one stage took (or the rounds over whole turns)."""
        return self.updates

    @property
    def over_turns(self) -> bool:
        """True when the table was found by policy iteration over whole turns (games with wipes)."""
        return self.method == OVER_TURNS

    def usable(self, proof: Optional[Any] = None) -> bool:
        """Whether the table may be shipped: the certificate proves it, and a check by the error
        bound (where there is one) found no decision wrong."""
        return bool(self.proven) and not (proof is not None and proof.wrong)

    @property
    def update_unit(self) -> str:  # type: ignore[override]
        """What ``updates`` counts."""
        return "rounds over whole turns" if self.over_turns else "policy passes at most per stage"


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
    expected number of states visited (one sparse solve each, over whole turns)."""
    turns = Turns(game, rolls or Rolls.of(game))
    wiped, visits = turns.until_wipe(turns.by_turn(roll))
    return wiped.reshape(game.goal, game.goal), visits.reshape(game.goal, game.goal)


def pig_backup_error(rolls: Rolls) -> float:
    """Rounding error of one backup of a roll-or-hold state (the terms of a roll, the bust, the
    wipe, and the operations around them)."""
    return gamma(len(rolls.adds) + (6 if rolls.wipe else 4))


def certify_pig(game: PigGame, value: np.ndarray, rolls: Rolls, passes: int,
                roll: Optional[np.ndarray] = None, over_turns: bool = False) -> PigCertificate:
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
    step = pig_backup_error(rolls)
    # a residual at the rounding level is machine noise: charged as a full step, the bound is the
    # same number on every machine (see hogsolve.solver.certificate.charged_residuals)
    if rolls.wipe:
        assert roll is not None, "the policy route needs the table"
        wiped, visits = policy_exits(game, roll, rolls)
        c = float(wiped.max()) + 1e-9  # slack for their own rounding
        stay = c
        bound = (max(residual, step) + step) * float(visits.max()) * (1 + 1e-9) / (1.0 - c) if c < 1.0 else float("inf")
    else:
        rho = bust_before_goal(rolls, g)
        stay = float(rho.max())
        length = np.ceil((g - np.arange(g)) / rolls.least_add)  # most rolls in one turn
        bound = 0.0
        for s in range(2 * g - 2, -1, -1):
            i, j = stage_pairs(g, s)
            r_s = max(float(residual_grid[i, j].max()), step)
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
    return PigCertificate(method=OVER_TURNS if over_turns else BY_STAGES, updates=passes, max_bellman_residual=residual,
                          backup_error=step, stay_probability=stay, error_bound=bound, tie_threshold=threshold,
                          min_decision_margin=min_margin, tie_states=np.argwhere(tied).astype(np.int32), reason=reason)
