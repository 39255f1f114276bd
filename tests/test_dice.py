"""Exact distributions against brute-force enumeration of every roll."""
from fractions import Fraction

import numpy as np
import pytest

from hogsolve import turn_score_distribution
from reference import brute_force_distribution, roll_distribution


@pytest.mark.parametrize("sides", [4, 6])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_matches_brute_force(n, sides):
    d = turn_score_distribution(n, sides)
    assert d.total == sides ** n
    assert d.as_dict() == brute_force_distribution(n, sides)


@pytest.mark.parametrize("sides", [4, 6])
def test_ten_dice_match_independent_recursion(sides):
    d = turn_score_distribution(10, sides)
    ref = roll_distribution(10, sides)
    assert {p: Fraction(c, d.total) for p, c in d.as_dict().items()} == ref
    assert np.isclose(d.probabilities.sum(), 1.0)


def test_pig_out_score_parameter_merges_points():
    d = turn_score_distribution(1, 6, pig_out=2)
    assert d.as_dict() == {2: 2, 3: 1, 4: 1, 5: 1, 6: 1}


@pytest.mark.parametrize("bad", [0, -1, 2.5])
def test_bad_dice_count(bad):
    with pytest.raises(ValueError):
        turn_score_distribution(bad, 6)
