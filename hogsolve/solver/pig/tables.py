"""A roll-or-hold table folder on disk: the decisions and meta.json."""
from __future__ import annotations


import numpy as np

from ..solution import Solution


PIG_LAYOUT = ("roll[i, j, k]: True to roll with banked score i, the opponent's j and turn total k "
              "(i + k < goal; beyond, hold and win); value[i, j, k]: the mover's win probability there, "
              "float32 on a grid of 2^-20 (within 4.8e-07 of the solved value, plus the certificate's bound); "
              "hold_threshold[i, j]: the smallest k >= 1 at which holding is optimal (goal - i when never)")
PIG_FORMAT = "hogsolve-pig-solution/1"


def pig_solution_files(solution: Solution, version: str) -> dict:
    """The files of a roll-or-hold table folder: the decisions (proven, so the same bytes on
    every machine), the values on a fixed grid as float32 (:func:`hogsolve.util.stable.on_grid`,
    so the same bytes too), and meta.json with the certificate's verdict, its bound rounded up to
    two digits and the first player's chance to the digits the bound leaves certain."""
    import json

    from ...util.files import grid_csv, npy_bytes, sha256
    from ...util.stable import bound_up, certain_value, on_grid
    files = {"hold_threshold.csv": grid_csv(solution.game.hold_thresholds(solution.policy), str),
             "roll.npy": npy_bytes(solution.policy),
             "value.npy": npy_bytes(on_grid(np.clip(solution.values, 0.0, 1.0)))}
    c = solution.certificate
    meta = {"format": PIG_FORMAT, "layout": PIG_LAYOUT, "hogsolve_version": version,
            "rules": solution.game.summary(),
            "first_player_win_probability": certain_value(solution.first_player_win_probability, c.error_bound),
            "certificate": {"proven": c.proven, "reason": c.reason, "tie_states": len(c.tie_states),
                            "error_bound": bound_up(c.error_bound),
                            "min_decision_margin": float(f"{c.min_decision_margin:.2g}")},
            "sha256": {name: sha256(data) for name, data in files.items()}}
    files["meta.json"] = (json.dumps(meta, indent=2) + "\n").encode()
    return files
