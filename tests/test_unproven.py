"""No number without its status: a verb resting on an unproven optimum (sp22 has no value)
says so in one line and exits 1, unless asked; then every figure says "not proven"."""
import json
import re

import pytest

from hogsolve import get_rules
from hogsolve.cli import main
from hogsolve.strategy.optimal_bot import UnprovenStrategyError, optimal_strategy


@pytest.mark.parametrize("args", [
    ["compare", "optimal", "always_roll:4"],
    ["best-response", "optimal"],
    ["regret", "always_roll:4"],
    ["tournament", "optimal", "always_roll:4"],
    ["play", "--seed", "1"],
    ["plot", "--out", "PNG"],
])
def test_unproven_optimum_is_refused_in_one_line(args, capsys, tmp_path, monkeypatch):
    monkeypatch.setattr("sys.stdin", open("/dev/null"))
    args = [str(tmp_path / "x.png") if a == "PNG" else a for a in args]
    assert main(args + ["--rules", "sp22"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert captured.err.startswith("error: sp22 has no proven optimal strategy: both players prefer passing")
    assert "--allow-unproven" in captured.err and "Warning" not in captured.err


def test_asked_for_every_figure_says_not_proven(capsys):
    assert main(["compare", "optimal", "always_roll:4", "--rules", "sp22", "--allow-unproven"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("note: not proven: both players prefer passing forever")
    figures = [line for line in lines if re.search(r"\d\.\d", line) and not line.startswith("note")]
    assert len(figures) == 3 and all(line.endswith("(not proven)") for line in figures)
    assert main(["compare", "optimal", "always_roll:4", "--rules", "sp22", "--allow-unproven", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["proven"] is False and "(72, 75)" in record["not_proven"]


def test_proven_rulesets_are_unmarked(capsys):
    assert main(["compare", "optimal", "always_roll:4", "--rules", "su18", "--goal", "30"]) == 0
    out = capsys.readouterr().out
    assert "not proven" not in out and "0." in out


def test_the_library_refuses_too():
    with pytest.raises(UnprovenStrategyError, match="sp22 has no proven optimal strategy"):
        optimal_strategy("sp22")
    bot = optimal_strategy("sp22", allow_unproven=True)
    assert not bot.proven and "(72, 75)" in bot.reason and bot.source["proven"] is False
    assert optimal_strategy(get_rules("su18")).proven
