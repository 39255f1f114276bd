"""Zero dice that score 0 and hand the opponent the same scores (sp22's Hefty Hogs): passes.

Where dice always score but zero dice can score 0, a score sum repeats only
by a pass: from (s, o) to (o, s).  So each state that passes waits on its
mirror, and a pair that can pass to each other is a cycle.  With R the best
of the other actions (from larger sums, already final), a state whose mirror
cannot pass back is worth max(R, 1 - R_mirror); in a cycle, when
R + R_mirror >= 1 rolling beats every pass and each is worth its R, and
otherwise optimal players pass forever.  Then the game has no value unless an
endless game is agreed on: counted as half a win for each (``endless="draw"``),
each player can force at least the draw by passing, so a state is worth
median(R, 1/2, 1 - R_mirror).  These closed forms are 1-Lipschitz in the R's,
so errors do not grow through a cycle (the certificate's rho is 0 here).
"""
from __future__ import annotations

import weakref
from typing import Optional, Tuple

import numpy as np

from .model import Feature, Model


_PASSES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def zero_dice_passes(model: Model) -> Optional[np.ndarray]:
    """``pass[s, o]``: zero dice score 0 at (s, o) and hand the opponent (o, s); None for rules
    where a score sum repeats some other way (dice that score 0, extra turns, a zero-point turn
    landing elsewhere on the same sum) or never.  Worked out once per model."""
    if model not in _PASSES:
        _PASSES[model] = _find_passes(model)
    return _PASSES[model]


def _find_passes(model: Model) -> Optional[np.ndarray]:
    if Feature.ZERO_POINT_TURNS not in model.features or model.again is not None or model.rules.min_dice \
            or model.context_shape or model.probability[:, 1:, 0].max() > 0:
        return None
    g = model.goal
    s, o = np.divmod(np.arange(g * g), g)
    lands = model.after[s, o]
    zero = (model.free_bacon_points == 0).reshape(-1)
    mirror = lands == o * g + s
    same_sum = (lands < model.win) & (lands // g + lands % g == s + o)
    if (zero & same_sum & ~mirror).any():
        return None
    return (zero & mirror).reshape(g, g)


def pass_values(rest: np.ndarray, rest_mirror: np.ndarray, passes, passes_back: np.ndarray,
                draw: bool) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(values, mirror passes forever, endless)`` of states whose best other action is worth
    ``rest`` (the mirror's ``rest_mirror``), where ``passes`` says the state can pass and
    ``passes_back`` its mirror can (see the module docstring).  ``endless`` marks the
    cycles optimal players never leave (worth 1/2 under ``draw``, no value (NaN) otherwise);
    ``mirror passes forever`` where the mirror then passes while this state rolls or passes."""
    cycle = passes & passes_back
    values = np.where(passes & ~passes_back, np.maximum(rest, 1.0 - rest_mirror), rest)
    endless = cycle & (rest + rest_mirror < 1.0)
    mirror_passes = endless & (rest_mirror <= 0.5)
    if endless.any():  # rare: one pair of states in sp22
        forever = np.minimum(np.maximum(0.5, rest), 1.0 - rest_mirror) if draw else np.nan
        values = np.where(endless, forever, values)
    return values, mirror_passes, endless


def best_other(action_values: np.ndarray, passes: np.ndarray) -> np.ndarray:
    """R: the best action but the pass where zero dice pass, the best action elsewhere."""
    return np.where(passes, action_values[..., 1:].max(axis=-1), action_values.max(axis=-1))


def closed_form(action_values: np.ndarray, passes: np.ndarray, draw: bool) -> np.ndarray:
    """Every passing state's value from the R's of ``action_values`` (NaN in a cycle without
    a value), and NaN elsewhere: what the certificate measures a passing state against."""
    rest = best_other(action_values, passes)
    values, _, _ = pass_values(rest, rest.T, passes, passes.T, draw)
    return np.where(passes, values, np.nan)


def passing_action_values(model: Model, values: np.ndarray, action_values: np.ndarray) -> np.ndarray:
    """``action_values`` with zero dice at a passing state worth what the pass brings when the
    mirror then passes forever: 1/2 under ``endless="draw"`` (a plain backup says 1 - the
    mirror's value, which ties with the rolls there and would let a tie-break pick an endless
    game).  The other entries are unchanged."""
    passes = zero_dice_passes(model)
    if passes is None or model.rules.endless != "draw":
        return action_values
    rest = best_other(action_values, passes)
    _, mirror_passes, _ = pass_values(rest, rest.T, passes, passes.T, draw=True)
    out = action_values.copy()
    out[..., 0] = np.where(mirror_passes, 0.5, action_values[..., 0])
    return out


def roll_rather_than_pass(policy: np.ndarray, action_values: np.ndarray, threshold: float,
                          passes: np.ndarray) -> np.ndarray:
    """``policy`` with a pass replaced by the best other action wherever that is as good (within
    ``threshold``): a pass tied with a roll gains nothing, and two players who both pass on a
    tie never end the game (at (99, 20) in sp22 rolling wins at once; the pass only ties).
    Among the rolls within ``threshold`` of the best, the fewest dice (the tie rule of every
    table; never whichever float came out larger)."""
    where = np.nonzero(passes & (policy == 0))
    values = action_values[where]
    best = values.max(axis=-1, keepdims=True)
    near = values[:, 1:] >= best - threshold
    idle = near.any(axis=-1)
    out = policy.copy()
    out[tuple(w[idle] for w in where)] = 1 + np.argmax(near[idle], axis=-1)  # the first near-best roll
    return out
