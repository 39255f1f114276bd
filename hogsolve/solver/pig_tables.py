"""A roll-or-hold table folder on disk: the decisions and meta.json."""
from __future__ import annotations


import numpy as np

from .pig import PigSolution


PIG_LAYOUT = ("roll[i, j, k]: True to roll with banked score i, the opponent's j and turn total k "
              "(i + k < goal; beyond, hold and win); value[i, j, k]: the mover's win probability there, "
              "float32; hold_threshold[i, j]: the smallest k >= 1 at which holding is optimal (goal - i when never)")
PIG_FORMAT = "hogsolve-pig-solution/1"


def pig_solution_files(solution: PigSolution, version: str) -> dict:
    """The files of a roll-or-hold table folder: the decisions (proven, so the same bytes on
    every machine), the values as float32 (each within 2^-25 of the solved one, so the same bytes
    too), and meta.json with the certificate's verdict and bounds to two digits."""
    import json

    from ..util.files import grid_csv, npy_bytes, sha256
    files = {"hold_threshold.csv": grid_csv(solution.hold_threshold, str),
             "roll.npy": npy_bytes(solution.roll),
             "value.npy": npy_bytes(np.clip(solution.value, 0.0, 1.0).astype(np.float32))}
    c = solution.certificate
    meta = {"format": PIG_FORMAT, "layout": PIG_LAYOUT, "hogsolve_version": version,
            "rules": solution.game.summary(),
            "first_player_win_probability": float(f"{solution.first_player_win_probability:.12g}"),
            "certificate": {"proven": c.proven, "reason": c.reason, "tie_states": c.tie_states,
                            **{key: float(f"{getattr(c, key):.2g}") for key in ("error_bound", "min_decision_margin")}},
            "sha256": {name: sha256(data) for name, data in files.items()}}
    files["meta.json"] = (json.dumps(meta, indent=2) + "\n").encode()
    return files
