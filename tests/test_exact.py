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


# --- the exact check against a plain recursion in Fractions -----------------------------------

@pytest.mark.parametrize("name", ["su18", "fa15"])  # dice sums by the recurrence; Piggy Back by the general path
def test_the_exact_check_agrees_with_a_plain_recursion_in_fractions(name):
    """Mistakes in ``verify``: ties counted over the whole table or as one best action, the
    margin taken from the wrong pair or over the ties, a value, margin or count not handed on,
    the general path's values not kept, the time wrong."""
    import time
    from fractions import Fraction

    from hogsolve import solve
    from hogsolve.solver.exact import verify, verify_ties
    from reference import recursive_values
    rules = get_rules(name).replace(goal=14)
    model = compile_model(rules)
    solution = solve(rules, model=model)
    before = time.perf_counter()
    checked = verify(model, solution)
    took = time.perf_counter() - before
    value, action_value = recursive_values(rules, exact=True)
    ties, margins, g = set(), [], rules.goal
    for s in range(g):
        for o in range(g):
            q = [Fraction(action_value(s, o, n)) for n in range(rules.max_dice + 1)]
            best = max(q)
            if q.count(best) > 1:
                ties.add((s, o))
            else:
                margins.append(best - max(x for x in q if x != best))
            assert checked.win_probability[s, o] == float(value(s, o)), (s, o)
            assert checked.policy[s, o] == q.index(best), (s, o)  # the fewest dice among the best
    assert checked.win_probability_start == value(0, 0)
    assert checked.exact_tie_states == len(ties) > 0
    assert checked.min_decision_margin == float(min(margins))
    assert 0 < checked.seconds <= took
    before = time.perf_counter()
    quick = verify_ties(model, solution)
    took = time.perf_counter() - before
    at_ties = {tuple(int(x) for x in state) for state in solution.certificate.tie_states}
    assert quick.tie_states == len(at_ties) and quick.exact_tie_states == len(at_ties & ties)
    assert quick.error_bound == solution.certificate.error_bound and 0 < quick.seconds <= took
    # every state taken as a tie: the tie check values every action exactly, as verify does
    import dataclasses
    everywhere = dataclasses.replace(solution.certificate, tie_states=np.argwhere(np.ones((g, g))).astype(np.int32))
    full = verify_ties(model, dataclasses.replace(solution, certificate=everywhere))
    assert full.exact_tie_states == len(ties) and np.array_equal(full.policy, checked.policy)


def test_a_tie_check_beyond_its_bound_says_so():
    from fractions import Fraction

    from hogsolve.solver.exact import TieCheck
    check = TieCheck(Fraction(1, 2), np.zeros((2, 2), dtype=np.int8), 3, 1, 0, 2e-15, 0.5, error_bound=1e-15)
    assert "float values BEYOND the certificate's bound" in repr(check)
    on_it = TieCheck(Fraction(1, 2), np.zeros((2, 2), dtype=np.int8), 3, 1, 0, 1e-15, 0.5, error_bound=1e-15)
    assert "float values within the certificate's bound" in repr(on_it)


def test_decimals_of_one_and_of_a_third():
    from fractions import Fraction

    from hogsolve.solver.exact import decimal_digits
    assert decimal_digits(Fraction(1), 3) == "1.000"
    assert decimal_digits(Fraction(1, 3), 5) == "0.33333"


def test_exact_mode_says_why_it_cannot_verify_a_game():
    from hogsolve.solver.exact import ExactUnsupported, check_exact_supported
    with pytest.raises(ExactUnsupported) as memories:
        check_exact_supported(compile_model(get_rules("fa19", goal=12)))
    assert str(memories.value) == (
        "fa19: exact mode does not cover history rules (each player's previous turn is part of the "
        "state); the float certificate bounds the error instead")
    with pytest.raises(ExactUnsupported) as stays:
        check_exact_supported(compile_model(get_rules("sp22", goal=12)))
    assert str(stays.value) == (
        "sp22: exact mode cannot verify this ruleset: a turn can score 0 points, so values solve linear "
        "systems that exact mode does not handle; the float certificate bounds the error instead")
