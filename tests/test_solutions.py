"""The committed tables in solutions/ are what a fresh solve produces."""
from pathlib import Path

import numpy as np
import pytest

from hogsolve import __version__, get_rules, rulesets, solve
from hogsolve.tables import load_arrays, read_grid_csv, solution_files, sha256

SOLUTIONS = Path(__file__).resolve().parent.parent / "solutions"


@pytest.mark.parametrize("name", list(rulesets()))
def test_committed_tables_reproduce(name, tmp_path):
    directory = SOLUTIONS / name
    meta, arrays = load_arrays(directory, ("policy.npy", "win_probability.npy", "action_values.npy"))
    fresh = solve(get_rules(name), exact=True)
    bound = fresh.certificate.error_bound

    assert fresh.exact.float_policy_mismatches.size == 0
    assert np.array_equal(arrays["policy.npy"], fresh.policy)
    assert np.abs(arrays["win_probability.npy"] - fresh.win_probability).max() <= bound
    assert np.abs(arrays["action_values.npy"] - fresh.action_values).max() <= bound

    files = solution_files(fresh, __version__)
    assert files["policy.csv"] == (directory / "policy.csv").read_bytes()
    p = fresh.exact.win_probability_start
    assert meta["exact"]["win_probability_start"] == f"{p.numerator}/{p.denominator}"
    assert meta["opening_move"] == fresh.opening_move
    assert meta["layout"].startswith("W[score, opponent_score]")
    # every data file matches its checksum, and the CSV matches the array
    for name_, digest in meta["sha256"].items():
        assert sha256((directory / name_).read_bytes()) == digest
    csv = read_grid_csv(directory / "win_probability.csv", float)
    assert np.allclose(csv, arrays["win_probability.npy"], rtol=1e-11, atol=1e-12)
    assert np.array_equal(read_grid_csv(directory / "policy.csv", int), arrays["policy.npy"])


def test_solutions_readme_exists():
    assert "policy.csv" in (SOLUTIONS / "README.md").read_text()
