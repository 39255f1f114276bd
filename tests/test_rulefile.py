"""Rulesets from TOML files: every built-in round-trips; bad files get one line naming file and key."""
import numpy as np
import pytest

from cli_helpers import run_main
from hogsolve import get_rules, rulesets, solve
from hogsolve.hog.rulefile import RuleFileError, load_rules_file, to_toml


@pytest.mark.parametrize("name", list(rulesets()))
def test_every_builtin_round_trips_to_the_same_solution(name, tmp_path):
    rules = get_rules(name)
    path = tmp_path / f"{name}.toml"
    path.write_text(to_toml(rules))
    loaded = load_rules_file(path)
    assert loaded == rules
    a, b = solve(rules.replace(goal=40)), solve(loaded.replace(goal=40))
    assert np.array_equal(a.policy, b.policy) and np.array_equal(a.values, b.values)


GOOD = 'name = "mine"\nfree_bacon = "bacon_pig_tail"\nswaps = "swap_double"\ngoal = 50\n'


@pytest.mark.parametrize("text, key, why", [
    (GOOD + 'colour = "red"\n', "colour", "unknown key"),
    ('name = "mine"\nfree_bacon = "bacon_nope"\n', "free_bacon", "unknown component 'bacon_nope'"),
    ('name = "mine"\nfree_bacon = "bacon_pig_tail"\ngoal = "100"\n', "goal", "expected a whole number"),
    ('name = "mine"\nfree_bacon = "bacon_pig_tail"\nmax_dice = 99\n', "max_dice", "from 1 to 20"),
    ('name = "mine"\nfree_bacon = "bacon_pig_tail"\ngoal = true\n', "goal", "expected a whole number"),
    ('free_bacon = "bacon_pig_tail"\n', "name", "missing"),
    ('name = "mine"\nfree_bacon = 3\n', "free_bacon", "unknown component 3"),
])
def test_bad_rule_files(tmp_path, text, key, why):
    path = tmp_path / "rules.toml"
    path.write_text(text)
    with pytest.raises(RuleFileError, match=f"{path}: {key}: .*{why}"):
        load_rules_file(path)
    result = run_main("solve", "--rules-file", str(path))
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and key in result.stderr


def test_not_toml_or_missing(tmp_path):
    path = tmp_path / "rules.toml"
    path.write_text("name = \n")
    assert "not valid TOML" in run_main("compare", "optimal", "always_roll:4", "--rules-file", str(path)).stderr
    assert "cannot read" in run_main("solve", "--rules-file", str(tmp_path / "none.toml")).stderr


def test_rule_files_work_wherever_rules_do(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(GOOD)
    solved = run_main("solve", "--rules-file", str(path))
    assert solved.returncode == 0 and "mine (goal 50)" in solved.stdout and "proven optimal" in solved.stdout
    compared = run_main("compare", "optimal", "always_roll:4", "--rules-file", str(path), "--json")
    assert compared.returncode == 0 and '"rules": "mine"' in compared.stdout
    shown = run_main("rules", "--show", "sp23", "--toml")
    assert 'name = "fa22"' in shown.stdout and 'bonus = "bonus_square_swine"' in shown.stdout
    assert run_main("solve", "--rules", "su18", "--rules-file", str(path)).returncode == 2


def test_every_problem_is_reported_one_line_each(tmp_path, capsys):
    """A file with a bad goal and a missing free_bacon names both, each on its own line."""
    from hogsolve.cli import main
    path = tmp_path / "bad.toml"
    path.write_text('name = "x"\ngoal = "lots"\nswaps = "nope"\n')
    with pytest.raises(RuleFileError) as caught:
        load_rules_file(path)
    assert [p.split(": ")[1] for p in caught.value.problems] == ["free_bacon", "goal", "swaps"]
    assert main(["solve", "--rules-file", str(path)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 3 and all(line.startswith(f"error: {path}: ") for line in lines)
