"""Strategies and the strategy spec language."""
import numpy as np
import pytest

from hogsolve import get_rules
from hogsolve.strategy.specs import SPEC_FORMS, StrategySpecError, parse_strategy
from hogsolve.strategy.named import bacon_strategy, swap_strategy, tabulate
from hogsolve.util.files import grid_csv

su18 = get_rules("su18")


def test_bacon_strategy():
    s = bacon_strategy(su18, margin=8, num_rolls=4)
    assert s(0, 28) == 4   # bacon 7 < 8
    assert s(0, 29) == 0   # 1 + (2*9 % 10) = 9
    assert s.name == "bacon:8:4"


def test_swap_strategy():
    s = swap_strategy(su18, margin=8, num_rolls=4)
    # 44 vs 56: bacon 1 + 30 % 10 = 1 -> 45; ones 5 == tens 5 -> swap to 56: beneficial.
    assert s(44, 56) == 0
    # 95 vs 71: bacon 1 + 7 = 8 -> 103, ones 3 != tens 7 and 8 >= margin.
    assert s(95, 71) == 0
    # 99 vs 71: bacon 8 -> 107, ones 7 == tens 7: a harmful swap, so roll.
    assert s(99, 71) == 4


def test_specs(tmp_path):
    assert parse_strategy("always_roll:6", su18)(10, 10) == 6
    assert parse_strategy("bacon:9:5", su18)(0, 0) == 5
    assert parse_strategy("swap:8:4", su18).name == "swap:8:4"
    r1, r2 = parse_strategy("random:3", su18), parse_strategy("random:3", su18)
    assert np.array_equal(tabulate(r1, su18), tabulate(r2, su18))
    assert not np.array_equal(tabulate(r1, su18), tabulate(parse_strategy("random:4", su18), su18))
    assert parse_strategy("optimal", su18)(0, 0) == 10

    student = tmp_path / "hog.py"
    student.write_text("from helper import FOUR\n"
                       "def final_strategy(score, opponent_score):\n"
                       "    return FOUR if score < 50 else 2\n")
    (tmp_path / "helper.py").write_text("FOUR = 4\n")
    s = parse_strategy(f"{student}:final_strategy", su18)
    assert (s(10, 0), s(60, 0)) == (4, 2)

    table = np.full((100, 100), 3, dtype=np.int8)
    table[5, 7] = 9
    path = tmp_path / "p.csv"
    path.write_bytes(grid_csv(table, str))
    t = parse_strategy(f"table:{path}", su18)
    assert (t(5, 7), t(0, 0)) == (9, 3)


@pytest.mark.parametrize("spec, why", [
    ("always_roll:11", "from 0 to 10"),
    ("always_roll:x", "whole numbers"),
    ("bacon:8", "2 number"),
    ("mystery", "unknown form"),
    ("nofile.py:f", "no such file"),
    ("table:", "CSV path"),
])
def test_bad_specs(spec, why):
    with pytest.raises(StrategySpecError, match=why) as info:
        parse_strategy(spec, su18)
    if "no such file" not in why:
        assert "optimal, always_roll:N" in str(info.value)


def test_bad_table_and_missing_function(tmp_path):
    path = tmp_path / "small.csv"
    path.write_bytes(grid_csv(np.zeros((10, 10), dtype=int), str))
    with pytest.raises(StrategySpecError, match="header must be"):
        parse_strategy(f"table:{path}", su18)
    f = tmp_path / "s.py"
    f.write_text("x = 1\n")
    with pytest.raises(StrategySpecError, match="no function 'final_strategy'"):
        parse_strategy(f"{f}:final_strategy", su18)
    assert len(SPEC_FORMS) == 9 and "FILE.py:AGENT" in SPEC_FORMS and "FILE.py (its final_strategy)" in SPEC_FORMS
