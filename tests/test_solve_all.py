"""`hogsolve solve --all` never writes over the tables that ship: floats go to the user cache,
exact tables rewrite solutions/ only in a source checkout (with the same bytes)."""
import hashlib
from pathlib import Path

import numpy as np
import pytest

import hogsolve.hog.rules as hog_rules
import hogsolve.pig.rules as pig_rules
import hogsolve.strategy.optimal_bot as optimal
from hogsolve.cli import main
from hogsolve.solver.tables import check_solution_arrays, load_arrays

ROOT = Path(__file__).resolve().parent.parent


def digest(folder: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            h.update(str(path.relative_to(folder)).encode() + path.read_bytes())
    return h.hexdigest()


@pytest.fixture
def two_rulesets(monkeypatch, tmp_path):
    """--all over su18 and fa18 only, and of the roll-or-hold games Piglet (the logic is the
    same for every one), with a private cache."""
    few = {name: hog_rules.rulesets()[name] for name in ("su18", "fa18")}
    monkeypatch.setattr(hog_rules, "rulesets", lambda: few)
    monkeypatch.setattr(pig_rules, "PIG_GAMES", {"piglet": pig_rules.PIG_GAMES["piglet"]})
    monkeypatch.setenv("HOGSOLVE_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_solve_all_without_exact_writes_the_user_cache(two_rulesets, capsys):
    before = digest(ROOT / "solutions")
    assert main(["solve", "--all"]) == 0
    out = capsys.readouterr().out
    assert f"wrote {two_rulesets / 'su18-goal100'}" in out and str(ROOT / "solutions") not in out
    assert digest(ROOT / "solutions") == before
    meta, arrays = load_arrays(two_rulesets / "su18-goal100", ("policy.npy", "win_probability.npy",
                                                               "action_values.npy"))
    check_solution_arrays(arrays, 100, 10, two_rulesets / "su18-goal100")  # probabilities in [0, 1]
    assert arrays["action_values.npy"].min() >= 0.0 and meta["certificate"]["proven"]


@pytest.mark.slow  # kept out of the default tier for its time; CI runs the slow tier
def test_solve_all_exact_outside_a_checkout_writes_the_user_cache(two_rulesets, capsys, monkeypatch):
    """An installed package (no git work tree around its tables) is never written into."""
    monkeypatch.setattr(optimal, "shipped_tables_are_a_checkout", lambda: False)
    before = digest(ROOT / "solutions")
    assert main(["solve", "--all", "--exact"]) == 0
    out = capsys.readouterr().out
    assert f"wrote {two_rulesets / 'fa18-goal100'}" in out and f"wrote {two_rulesets / 'piglet-goal10'}" in out
    assert "exact: proof by error bound: 450 decisions" in out and "every decision proven" in out
    assert digest(ROOT / "solutions") == before
    shipped = np.load(ROOT / "solutions" / "fa18" / "policy.npy")
    assert np.array_equal(np.load(two_rulesets / "fa18-goal100" / "policy.npy"), shipped)


def test_only_a_checkout_counts_as_one(monkeypatch, tmp_path):
    assert optimal.shipped_tables_are_a_checkout()  # this test runs in a clone
    installed = tmp_path / "site-packages" / "hogsolve" / "solutions"
    installed.mkdir(parents=True)
    monkeypatch.setattr(optimal, "shipped_tables", lambda: installed)
    assert not optimal.shipped_tables_are_a_checkout()


def test_solve_all_refuses_another_goal(capsys):
    assert main(["solve", "--all", "--goal", "50"]) == 2
    assert "name --rules and --out DIR" in capsys.readouterr().err
