"""Solution tables on disk: write them atomically, read them back verified.

A solution directory holds, for one ruleset (tables are ``W[score,
opponent_score]`` with the player to move first):

* ``policy.csv`` / ``policy.npy``: optimal dice counts;
* ``win_probability.csv`` (12 significant digits) / ``win_probability.npy``;
* ``action_values.npy``: ``[score, opponent_score, dice]`` win probabilities;
* ``meta.json``: ruleset, certificate, exact result, version and the sha256
  of every data file.

Only numpy and the standard library are used here (no pickle, no solver), so
the player can load a table quickly.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
from pathlib import Path
from typing import Dict, Tuple

import numpy as np

FORMAT = "hogsolve-solution/1"
LAYOUT = "W[score, opponent_score] with the player to move first"
DATA_FILES = ("policy.csv", "win_probability.csv", "policy.npy",
              "win_probability.npy", "action_values.npy")


class TableError(ValueError):
    """A solution directory that is missing, malformed or fails its checksums."""


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def grid_csv(grid: np.ndarray, fmt) -> bytes:
    """A goal x goal grid as CSV: header row of opponent scores, first column the mover's."""
    g = grid.shape[1]
    out = io.StringIO()
    out.write("score\\opponent_score," + ",".join(str(o) for o in range(g)) + "\n")
    for s, row in enumerate(grid):
        out.write(f"{s}," + ",".join(fmt(x) for x in row) + "\n")
    return out.getvalue().encode()


def read_grid_csv(path: Path, dtype) -> np.ndarray:
    """Inverse of :func:`grid_csv`."""
    lines = Path(path).read_text().strip().splitlines()
    rows = [line.split(",")[1:] for line in lines[1:]]
    return np.array(rows, dtype=dtype)


def npy_bytes(array: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, array, allow_pickle=False)
    return buf.getvalue()


def atomic_write(path: Path, data: bytes) -> None:
    """Write to a temporary name beside ``path``, then rename over it."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def solution_files(solution, version: str) -> Dict[str, bytes]:
    """Every file of a solution directory, meta.json last."""
    files = {
        "policy.csv": grid_csv(solution.policy, str),
        "win_probability.csv": grid_csv(solution.win_probability, lambda x: f"{x:.12g}"),
        "policy.npy": npy_bytes(solution.policy.astype(np.int8)),
        "win_probability.npy": npy_bytes(solution.win_probability.astype(np.float64)),
        "action_values.npy": npy_bytes(solution.action_values.astype(np.float64)),
    }
    summary = solution.to_dict()
    summary.pop("solve_seconds", None)
    if "exact" in summary:
        summary["exact"].pop("seconds", None)
    meta = {
        "format": FORMAT,
        "layout": LAYOUT,
        "hogsolve_version": version,
        **summary,
        "goal": int(solution.rules.goal),
        "max_dice": int(solution.rules.max_dice),
        "sha256": {name: sha256(data) for name, data in files.items()},
    }
    files["meta.json"] = (json.dumps(meta, indent=2) + "\n").encode()
    return files


def write_solution(solution, directory: Path, version: str) -> Path:
    """Write ``solution`` into ``directory`` (created if needed), file by file atomically."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    for name, data in solution_files(solution, version).items():
        atomic_write(directory / name, data)
    return directory


def read_meta(directory: Path) -> dict:
    path = Path(directory) / "meta.json"
    try:
        meta = json.loads(path.read_text())
    except FileNotFoundError:
        raise TableError(f"no solution table at {directory} (meta.json missing)") from None
    except (OSError, ValueError) as exc:
        raise TableError(f"unreadable {path}: {exc}") from None
    if meta.get("format") != FORMAT:
        raise TableError(f"{path}: unknown format {meta.get('format')!r}")
    return meta


def load_arrays(directory: Path, names: Tuple[str, ...] = ("policy.npy",)) -> Tuple[dict, Dict[str, np.ndarray]]:
    """``(meta, {name: array})`` for the named .npy files, each checksum-verified."""
    directory = Path(directory)
    meta = read_meta(directory)
    arrays = {}
    for name in names:
        try:
            data = (directory / name).read_bytes()
        except OSError as exc:
            raise TableError(f"cannot read {directory / name}: {exc.strerror}") from None
        if sha256(data) != meta.get("sha256", {}).get(name):
            raise TableError(f"{directory / name} does not match its sha256 in meta.json")
        arrays[name] = np.load(io.BytesIO(data), allow_pickle=False)
    return meta, arrays
