"""The command line as a user meets it."""
import json

import pytest

from cli_helpers import run_main
from hogsolve.cli import main


def run(*args):
    return run_main(*args)


def test_rules_lists_every_ruleset(capsys):
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    listed = [line.split()[0] for line in out.splitlines() if not line.startswith(" ")]
    assert listed == ["fa13", "fa14", "sp15", "su15", "fa15", "sp17", "fa17", "sp18", "su18", "fa18", "su19", "fa19",
                      "sp20", "su20", "fa20", "sp21", "fa21", "sp22", "su22",
                      "fa22", "fa23", "hog", "su16", "fa16", "su17", "sp19", "su21", "sp25", "pig", "piglet",
                      "two-dice-pig", "big-pig"]
    assert "fa23 (also su23, sp24, su24, fa24, su25, fa25)" in out and "fa13 (also sp14, su14)" in out
    assert "fa16  not built in: Pork Chop" in out and "no optimal value: at (72, 75)" in out
    assert "inferred: Free Bacon 2 + |tens - ones| is inferred" in out


def test_solve_prints_and_writes(tmp_path, capsys):
    from reference import recursive_values
    from hogsolve import get_rules
    value, _ = recursive_values(get_rules("su18").replace(goal=30), exact=True)  # a plain recursion in fractions
    assert main(["solve", "--rules", "su18", "--goal", "30", "--out", str(tmp_path), "--exact"]) == 0
    out = capsys.readouterr().out
    assert f"P(first player wins) = {float(value(0, 0)):.12f}" in out
    assert "float policy confirmed in every state" in out
    assert (tmp_path / "su18" / "policy.csv").exists()


def test_solve_json(capsys):
    assert main(["solve", "--rules", "fa13", "--goal", "20", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data[0]["rules"]["name"] == "fa13" and 0 < data[0]["first_player_win_probability"] < 1
    assert data[0]["certificate"]["proven"] is True


@pytest.mark.parametrize("args, message", [
    (["solve", "--rules", "sp99"], "unknown ruleset 'sp99'"),
    (["solve"], "--all"),
    (["solve", "--rules", "su18", "--goal", "0"], "goal must be at least 1"),
    (["solve", "--rules", "su18", "--goal", "x"], "the goal must be a whole number"),
    (["frobnicate"], "invalid choice"),
])
def test_bad_input_is_one_line_exit_2(args, message):
    result = run(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_unwritable_out_writes_nothing(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    result = run("solve", "--all", "--out", str(blocker / "sub"))
    assert result.returncode == 2 and "cannot write" in result.stderr
    assert blocker.read_text() == "not a directory"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]
