"""Sweeps of rulesets: the grid file, each measure against an independent computation, the
resumable results file and the command line."""
import json
from functools import lru_cache

import numpy as np
import pytest

from hogsolve import get_rules, solve
from hogsolve.cli import main
from hogsolve.analysis.evaluate import win_rate
from hogsolve.strategy.named import always_roll
from hogsolve.contest.sweeps import GridError, load_grid, summarize
from reference import outcome_distribution


def recursive_expected_turns(rules, policy):
    """Expected turns until the game ends, both players following ``policy``, by plain
    recursion over the rules' outcomes (extra turns included)."""
    @lru_cache(maxsize=None)
    def turns(s, o):
        total = 1.0
        for key, p in outcome_distribution(rules, s, o, int(policy[s][o])).items():
            if key in ("win", "loss"):
                continue
            total += p * (turns(key[1], key[2]) if key[0] == "again" else turns(*key))
        return total

    for k in range(2 * rules.goal - 2, -1, -1):  # larger score sums first: shallow recursion
        for s in range(max(0, k - rules.goal + 1), min(k, rules.goal - 1) + 1):
            turns(s, k - s)
    return turns(0, 0)


@pytest.mark.parametrize("name", ["su18", "fa20"])
def test_measures_against_independent_computations(name):
    rules = get_rules(name, goal=30)
    row = summarize(rules)
    solution = solve(rules)
    assert row["proven"] and row["first_player_win_probability"] == float(solution.values[0, 0])
    assert row["opening_move"] == int(solution.policy[0, 0])
    assert row["zero_dice_share"] == float(np.mean(solution.policy == 0))
    assert row["expected_turns"] == pytest.approx(recursive_expected_turns(rules, solution.policy), rel=1e-12)
    assert row["win_rate_vs_always_roll_4"] == pytest.approx(
        win_rate(solution.policy, always_roll(4), rules).average, abs=1e-14)


def test_a_ruleset_without_a_value_is_reported_not_measured():
    row = summarize(get_rules("sp22"))
    assert not row["proven"] and np.isnan(row["expected_turns"])


def test_grid_file(tmp_path):
    grid = tmp_path / "grid.toml"
    grid.write_text('base = "fa18"\n[grid]\npig_out = [1, 2]\ngoal = [20, 30, 40]\n')
    keys, combos = load_grid(grid)
    assert keys == ["pig_out", "goal"] and len(combos) == 6
    values, rules = combos[-1]
    assert values == {"pig_out": 2, "goal": 40} and rules.goal == 40 and rules.pig_out == 2
    assert rules.free_bacon is get_rules("fa18").free_bacon
    for text, message in [('[grid]\nspin = [1]\n', "grid.spin: not a rule key"),
                          ('[grid]\npig_out = []\n', "expected a non-empty list"),
                          ('[grid]\nswaps = ["nope"]\n', "unknown component 'nope'"),
                          ('base = "xx99"\n[grid]\npig_out = [1]\n', "base:"),
                          ('colour = 1\n', "colour: unknown key")]:
        grid.write_text(text)
        with pytest.raises(GridError, match=message):
            load_grid(grid)


def test_command_line_resumes(tmp_path, capsys, monkeypatch):
    grid = tmp_path / "grid.toml"
    grid.write_text('[grid]\nswaps = ["never_swap", "swap_double"]\ngoal = [20, 30]\n')
    out = tmp_path / "results.csv"
    assert main(["sweep", str(grid), "--out", str(out), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert len(record["rulesets"]) == 4 and all(r["proven"] for r in record["rulesets"])
    assert len(out.read_text().splitlines()) == 5
    import hogsolve.contest.sweeps as sweep_module
    calls = []
    real = sweep_module.summarize
    monkeypatch.setattr(sweep_module, "summarize", lambda rules: calls.append(rules) or real(rules))
    out.write_text(out.read_text()[:-25])  # the last row cut short by a crash
    assert main(["sweep", str(grid), "--out", str(out), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert len(calls) == 1 and again["rulesets"][:3] == record["rulesets"][:3]
    assert again["rulesets"][3]["first_player_win_probability"] == record["rulesets"][3]["first_player_win_probability"]
    assert main(["sweep", str(tmp_path / "missing.toml")]) == 2
    assert "cannot read" in capsys.readouterr().err
