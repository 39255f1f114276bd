"""The exact dice recurrence against brute-force dice and the general exact sweep."""
import numpy as np
import pytest

from hogsolve import compile_model, get_rules
from hogsolve.solver.dicesums import _dice_sum_counts, recurrence_values, rolls_are_dice_sums
from hogsolve.solver.exact import exact_arithmetic
from hogsolve.solver.iteration import optimal_values
from reference import brute_force_distribution


@pytest.mark.parametrize("sides, max_dice", [(6, 5), (4, 6)])
def test_the_recurrence_counts_are_every_roll(sides, max_dice):
    counts = _dice_sum_counts(sides, max_dice, pig_out=1, points=sides * max_dice + 1)
    for n in range(1, max_dice + 1):
        listed = brute_force_distribution(n, sides)
        scale = sides ** (max_dice - n)
        assert {p: int(c) // scale for p, c in enumerate(counts[n]) if c} == listed


def test_which_rules_the_recurrence_covers():
    def covered(name):
        return rolls_are_dice_sums(compile_model(get_rules(name, goal=20)))
    assert all(covered(name) for name in ("su18", "fa13", "fa20", "fa21"))
    # per-die Pig Out points, Piggy Back, Hogtimus Prime (points-dependent landing), memories
    assert not any(covered(name) for name in ("sp17", "fa15", "sp15", "fa19"))


def general_exact(model):
    arith = exact_arithmetic(model)
    values, action_values, _ = optimal_values(model, arith, keep_action_values=True)
    return arith, values, action_values


@pytest.mark.parametrize("name, goal", [("su18", 30), ("fa13", 30), ("fa20", 30), ("fa21", 30), ("su22", 30),
                                        pytest.param("fa18", 100, marks=pytest.mark.slow)])
def test_the_recurrence_is_the_general_exact_sweep(name, goal):
    """Every value and every action's value, equal as integers: one kind of dice (su18, fa18),
    two kinds (fa13's Hog Wild), extra turns (fa20) and turns that end the game below the
    goal (fa21, su22)."""
    model = compile_model(get_rules(name, goal=goal))
    arith, values, action_values = general_exact(model)
    fast, scaled = recurrence_values(model, arith)
    assert np.array_equal(fast, values)
    assert np.array_equal(scaled, action_values * arith.total)
    assert not any(x % arith.total for x in scaled.ravel())  # dividing by total is exact, as the sweep assumes
