"""compare, best-response, regret and tournament from the command line."""
import json

import numpy as np
import pytest

from cli_helpers import run_main
from hogsolve.cli import main
from hogsolve.util.files import read_grid_csv


def run(*args):
    return run_main(*args)


def test_compare(capsys):
    """The printed win rate is the one a plain recursion in fractions gives for the same two
    tables (the optimal one from the shipped table, always 4 dice)."""
    from reference import recursive_win_rate
    from hogsolve import get_rules
    from hogsolve.strategy.optimal_bot import optimal_strategy
    rules = get_rules("su18").replace(goal=40)
    first, second = recursive_win_rate(rules, optimal_strategy(rules).table, np.full((40, 40), 4))
    assert main(["compare", "optimal", "always_roll:4", "--goal", "40", "--simulate", "20000", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.split("average:")[1].split()[0] == f"{float((first + second) / 2):.12f}"
    assert out.split("optimal moves first:")[1].split()[0] == f"{float(first):.12f}"
    assert "simulated, 20000 games (seed 2)" in out


def test_compare_json_and_student_file(tmp_path, capsys):
    f = tmp_path / "hog.py"
    f.write_text("def final_strategy(score, opponent_score):\n    return 6\n")
    assert main(["compare", f"{f}:final_strategy", "always_roll:6", "--rules", "fa18", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"]["average"] == pytest.approx(0.5, abs=1e-15)


def test_best_response_writes_table(tmp_path, capsys):
    out = tmp_path / "br.csv"
    assert main(["best-response", "always_roll:4", "--out", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["win_rate"]["average"] > 0.8 and data["exploitability"] > 0.3
    table = read_grid_csv(out, int)
    assert table.shape == (100, 100) and 0 <= table.min() and table.max() <= 10


def test_regret_and_tournament(capsys):
    assert main(["regret", "bacon:8:4", "--top", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["worst_states"]) == 3
    assert main(["tournament", "optimal", "always_roll:5", "swap:8:4", "--jobs", "2", "--json"]) == 0
    ranking = json.loads(capsys.readouterr().out)["ranking"]
    assert ranking[0]["strategy"] == "optimal" and ranking[0]["mean_win_rate"] > 0.5


def test_cheating_student_strategy_is_one_line(tmp_path):
    f = tmp_path / "hog.py"
    f.write_text("def final_strategy(score, opponent_score):\n    return 11 if score > 50 else 3\n")
    result = run("compare", f"{f}:final_strategy", "optimal", "--rules", "su18")
    assert result.returncode == 2
    assert "returned 11 at score 51, opponent score 0" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("args, message", [
    (["compare", "optimal", "always_roll:99"], "dice count must be from 0 to 10"),
    (["compare", "optimal"], "required"),
    (["regret", "optimal", "--top", "0"], "must be at least 1"),
    (["tournament", "optimal"], "at least two"),
    (["best-response", "optimal", "--out", "/proc/nope/x.csv"], "cannot write"),
    (["compare", "optimal", "always_roll:3", "--simulate", "1"], "the number of games must be at least 2"),
])
def test_bad_input(args, message):
    result = run(*args)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
