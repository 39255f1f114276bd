"""Solution tables on disk: write them atomically, read them back verified.

A solution directory holds, for one ruleset (tables are ``W[score,
opponent_score]`` with the player to move first):

* ``policy.csv`` / ``policy.npy``: optimal dice counts;
* ``win_probability.csv`` (12 significant digits) / ``win_probability.npy``;
* ``action_values.npy``: ``[score, opponent_score, dice]`` win probabilities;
* ``meta.json``: ruleset, certificate (the exact one for ``--exact`` tables),
  version and the sha256 of every data file.

Only numpy and the standard library are used here (no pickle, no solver), so
the player can load a table quickly.
"""
from __future__ import annotations

from ..errors import HogsolveError
import io
import json
from pathlib import Path
from typing import Dict, Tuple

import numpy as np

from ..util.files import atomic_write, grid_csv, npy_bytes, sha256
from ..util.stable import GRID_ERROR, bound_up, certain_value, on_grid

FORMAT = "hogsolve-solution/1"
LAYOUT = "W[score, opponent_score] with the player to move first"
#: Under a history rule (Feral Hogs) the policy ships with the state values on a fixed grid as
#: float32 (:func:`hogsolve.util.stable.on_grid`: each within ``GRID_ERROR`` of the solved
#: value, and the same bytes on every machine, whatever its float noise); the
#: action values (goal^2 x memories^2 x dice floats, 100-170 MB) do not: one turn of lookahead
#: (:func:`hogsolve.hog.lookahead.action_values_at`) gives one state's from the state values.
HISTORY_LAYOUT = ("policy[score, opponent_score, mover's memory, opponent's memory] with the player to move "
                  "first; a memory is the dice rolled (or points scored, capped) on that player's previous turn")
POLICY_ONLY_FILES = ("policy.npy",)
HISTORY_FILES = ("policy.npy", "win_probability.npy")
DATA_FILES = ("policy.csv", "win_probability.csv", "policy.npy",
              "win_probability.npy", "action_values.npy")


class TableError(HogsolveError, ValueError):
    """A solution directory that is missing, malformed or fails its checksums."""


def probabilities(values: np.ndarray) -> np.ndarray:
    """Float values clipped into [0, 1] (a float solve can end a rounding step outside, e.g.
    -2.2e-16, which a reader rightly refuses; clipping only moves a value nearer the exact
    one); -inf, the value of a move the rules forbid, stays."""
    values = np.asarray(values, dtype=np.float64)
    return np.where(np.isfinite(values), np.clip(values, 0.0, 1.0), values)


def solution_files(solution, version: str, *, policy_only: bool = False, proof=None) -> Dict[str, bytes]:
    """Every file of a solution directory, meta.json last.

    Tables solved with ``exact=True`` hold the exact values correctly
    rounded, and their meta.json only what is true on every machine, so
    they come out byte-identical everywhere.  Float tables carry the
    certificate of the run that made them; with ``policy_only`` (and always
    under a history rule) only the policy ships (with the values on a fixed
    grid), with the certificate's verdict and bounds rounded up to two digits,
    so the bytes are machine-independent too (a float solve's values vary in
    their last bits); ``proof``, the check of such a policy
    (:func:`hogsolve.solver.bound_check.prove_float_table`), adds how its ties
    were settled.
    """
    history = solution.policy.ndim > 2
    policy_only = policy_only or history
    files = {"policy.npy": npy_bytes(solution.policy.astype(np.int8)),
             "win_probability.npy": npy_bytes(on_grid(probabilities(solution.values)))} \
        if history else \
        {"policy.csv": grid_csv(solution.policy, str), "policy.npy": npy_bytes(solution.policy.astype(np.int8))} \
        if policy_only else {
        "policy.csv": grid_csv(solution.policy, str),
        "win_probability.csv": grid_csv(probabilities(solution.values), lambda x: f"{x:.12g}"),
        "policy.npy": npy_bytes(solution.policy.astype(np.int8)),
        "win_probability.npy": npy_bytes(probabilities(solution.values)),
        "action_values.npy": npy_bytes(probabilities(solution.action_values)),
    }
    if solution.exact is not None:
        certificate = solution.exact.table_record()
    elif policy_only:
        certificate = stable_record(solution.certificate, proof)
    else:
        certificate = {**solution.certificate.to_dict(), "note": "measured by the run that wrote this table"}
    meta = {
        "format": FORMAT,
        "layout": HISTORY_LAYOUT if history else LAYOUT,
        "hogsolve_version": version,
        "rules": solution.game.summary(),
        # a float solve's value varies in its last bits between machines: the digits its bound leaves certain
        "first_player_win_probability": certain_value(solution.first_player_win_probability,
                                                      solution.certificate.error_bound) if policy_only
        else solution.first_player_win_probability,
        "opening_move": solution.opening_move,
        "tie_break": solution.to_dict()["tie_break"],
        "certificate": certificate,
        "goal": int(solution.game.goal),
        "max_dice": int(solution.game.max_dice),
        **({"values": f"win_probability.npy is float32 on a grid of 2^-20: each value within {GRID_ERROR:.1e} "
                      "of the solved one, plus the certificate's error bound (the same bytes on every machine)"}
           if history else {}),
        "sha256": {name: sha256(data) for name, data in files.items()},
    }
    files["meta.json"] = (json.dumps(meta, indent=2) + "\n").encode()
    return files


def stable_record(certificate, proof=None) -> dict:
    """A float certificate as the same bytes on every machine: its verdict, its count of
    ties, its bounds rounded up to two significant digits and its smallest margin to two (the
    last bits of a float solve vary with the machine's BLAS kernels, and so does the number
    of updates an iterated score sum takes to settle at the rounding level, which is left
    out); with ``proof``, how many ties were settled exactly and how many were not."""
    from .solution import TIE_BREAK
    full = certificate.to_dict()
    record = {"method": full["method"], "proven": full["proven"], "reason": full["reason"],
              "num_tie_states": full["num_tie_states"],
              **{key: bound_up(full[key]) for key in ("error_bound", "tie_threshold")},
              "min_decision_margin": float(f"{full['min_decision_margin']:.2g}"),
              "tie_rule": TIE_BREAK}
    if proof is not None:
        record.update({"proof": "every decision proven" if proof.proven else f"not proven: {proof.reason}",
                       "ties_settled_exactly": int(proof.settled), "ties_not_settled": int(proof.ties),
                       "note": "ties settled exactly take the tie rule among the exactly optimal dice counts; "
                               "the others take it among the counts within the tie threshold"})
    return record


def write_solution(solution, directory: Path, version: str, *, policy_only: bool = False, proof=None) -> Path:
    """Write ``solution`` into ``directory`` (created if needed), file by file atomically."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    for name, data in solution_files(solution, version, policy_only=policy_only, proof=proof).items():
        atomic_write(directory / name, data)
    return directory


#: A meta.json is small; anything larger is not one of ours.
META_LIMIT = 1_000_000


def read_meta(directory: Path, format: str = FORMAT) -> dict:
    """meta.json of a solution folder, checked to be ours (else :class:`TableError`)."""
    path = Path(directory) / "meta.json"
    try:
        if path.stat().st_size > META_LIMIT:
            raise TableError(f"{path} is larger than any meta.json hogsolve writes")
        meta = json.loads(path.read_text())
    except FileNotFoundError:
        raise TableError(f"no solution table at {directory} (meta.json missing)") from None
    except (OSError, ValueError, RecursionError) as exc:
        raise TableError(f"unreadable {path}: {type(exc).__name__}") from None
    if not isinstance(meta, dict):
        raise TableError(f"{path} holds {type(meta).__name__}, not a table description")
    if meta.get("format") != format:
        raise TableError(f"{path}: unknown format {str(meta.get('format'))[:40]!r}")
    digests = meta.get("sha256")
    if not isinstance(digests, dict) or not all(isinstance(v, str) for v in digests.values()):
        raise TableError(f"{path} has no valid sha256 list")
    return meta


def load_arrays(directory: Path, names: Tuple[str, ...] = ("policy.npy",),
                format: str = FORMAT) -> Tuple[dict, Dict[str, np.ndarray]]:
    """``(meta, {name: array})`` for the named .npy files, each checksum-verified."""
    directory = Path(directory)
    meta = read_meta(directory, format)
    arrays = {}
    for name in names:
        try:
            data = (directory / name).read_bytes()
        except OSError as exc:
            raise TableError(f"cannot read {directory / name}: {exc.strerror}") from None
        if sha256(data) != meta["sha256"].get(name):
            raise TableError(f"{directory / name} does not match its sha256 in meta.json")
        try:
            arrays[name] = np.load(io.BytesIO(data), allow_pickle=False)
        except (ValueError, OSError, EOFError) as exc:
            raise TableError(f"{directory / name} is not a numpy array: {exc}") from None
    return meta, arrays


def check_solution_arrays(arrays: Dict[str, np.ndarray], goal: int, max_dice: int, where: Path,
                          context: Tuple[int, ...] = ()) -> None:
    """Shape, dtype and range of a solution's arrays, checked after their checksums
    (``context``: the ruleset's extra state axes, e.g. the memories of Feral Hogs)."""
    states = (goal, goal) + tuple(context)
    expected = {"policy.npy": (states, "i"), "win_probability.npy": (states, "f"),
                "action_values.npy": (states + (max_dice + 1,), "f")}
    for name, array in arrays.items():
        shape, kind = expected[name]
        if array.shape != shape or array.dtype.kind != kind:
            raise TableError(f"{where / name} is {array.dtype} {array.shape}, expected {shape}")
        if kind == "i" and (array.min() < 0 or array.max() > max_dice):
            raise TableError(f"{where / name} holds dice counts outside 0..{max_dice}")
        if kind == "f" and not (np.isfinite(array).all() and array.min() >= 0 and array.max() <= 1):
            raise TableError(f"{where / name} holds values that are not probabilities")
