"""Writing and reading solution tables."""
import json

import numpy as np
import pytest

from hogsolve import get_rules, solve
from hogsolve.solver.tables import TableError, load_arrays, write_solution


@pytest.fixture(scope="module")
def small():
    return solve(get_rules("fa18", goal=20))


def test_round_trip(small, tmp_path):
    write_solution(small, tmp_path, "test")
    meta, arrays = load_arrays(tmp_path, ("policy.npy", "win_probability.npy"))
    assert np.array_equal(arrays["policy.npy"], small.policy)
    assert np.array_equal(arrays["win_probability.npy"], small.values)
    assert meta["goal"] == 20 and meta["tie_break"].startswith("fewest dice")
    assert not list(tmp_path.glob(".*tmp"))


def test_tampered_file_is_refused(small, tmp_path):
    write_solution(small, tmp_path, "test")
    arr = np.load(tmp_path / "policy.npy")
    arr[3, 4] = (arr[3, 4] + 1) % 11
    np.save(tmp_path / "policy.npy", arr)
    with pytest.raises(TableError, match="sha256"):
        load_arrays(tmp_path)


def test_missing_or_foreign_directory(tmp_path):
    with pytest.raises(TableError, match="meta.json missing"):
        load_arrays(tmp_path)
    (tmp_path / "meta.json").write_text(json.dumps({"format": "other"}))
    with pytest.raises(TableError, match="unknown format"):
        load_arrays(tmp_path)
