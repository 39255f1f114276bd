"""Every worked example of the seed documents, and the rule components."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

from hogsolve import Ruleset, get_rules, rulesets
from hogsolve.hog.rules import end_of_turn, roll_points, UnknownRulesetError, call_rule, zero_dice_points

su18, fa18, fa13, fa14 = (get_rules(n) for n in ("su18", "fa18", "fa13", "fa14"))


def test_builtin_names():
    assert list(rulesets()) == ["fa13", "fa14", "sp15", "su15", "fa15", "sp17", "fa17", "sp18", "su18", "fa18", "su19",
                                "fa19", "sp20", "su20", "fa20", "sp21", "fa21", "sp22", "su22", "fa22", "fa23", "hog"]
    assert get_rules("sp14") is get_rules("fa13") and get_rules("sp23").name == "fa22"
    assert get_rules("fa25").name == "fa23"


# seed 000 (su18) -----------------------------------------------------------

def test_pig_out_examples():
    assert roll_points([1, 1, 1, 1, 1, 4, 5]) == 1  # 7 dice, five 1s
    assert roll_points([3, 3, 3, 3]) == 12


@pytest.mark.parametrize("opp, points", [(46, 5), (28, 7), (5, 1)])
def test_su18_free_bacon(opp, points):
    assert su18.free_bacon(opp) == points


@pytest.mark.parametrize("before, opp, rolled, after", [
    (41, 92, 8, (92, 49)),
    (34, 5, 6, (5, 40)),
    (91, 12, 20, (12, 111)),  # the opponent ends the turn with 111 and wins
])
def test_su18_swine_swap(before, opp, rolled, after):
    assert end_of_turn(su18, before, opp, rolled) == after


def test_su18_swap_is_one_directional():
    assert su18.swaps(49, 92) and not su18.swaps(92, 49)
    assert su18.swaps(111, 12) and su18.swaps(40, 5)


# seed 001 (fa18) -----------------------------------------------------------

@pytest.mark.parametrize("opp, points", [(46, 2), (73, 11), (27, 1), (7, 1)])
def test_fa18_free_bacon(opp, points):
    assert fa18.free_bacon(opp) == points


@pytest.mark.parametrize("before, opp, rolled, after", [
    (41, 83, 8, (83, 49)),
    (41, 5, 8, (5, 49)),
    (35, 5, 8, (43, 5)),   # |4-3| = 1 differs from |0-5| = 5: no swap
    (0, 0, 11, (0, 11)),
])
def test_fa18_swine_swap(before, opp, rolled, after):
    assert end_of_turn(fa18, before, opp, rolled) == after


# seed 002 (fa13) -----------------------------------------------------------

@pytest.mark.parametrize("opp, points", [(42, 5), (48, 9)])
def test_fa13_free_bacon(opp, points):
    assert fa13.free_bacon(opp) == points


@pytest.mark.parametrize("score, opp", [(7, 7), (10, 11), (20, 15), (0, 0)])
def test_fa13_hog_wild_four_sided(score, opp):
    assert fa13.dice_sides(score, opp) == 4


@pytest.mark.parametrize("score, opp", [(1, 0), (10, 12), (50, 49)])
def test_fa13_six_sided_otherwise(score, opp):
    assert fa13.dice_sides(score, opp) == 6


def test_fa13_swap_examples():
    # Player 1 at 5 scores 5 against Player 0's 20: they swap.
    assert end_of_turn(fa13, 5, 20, 5) == (20, 10)
    # Player 0 at 90 scores 10 against 50: swap, and Player 1 wins 100 to 50.
    assert end_of_turn(fa13, 90, 50, 10) == (50, 100)
    assert not fa13.swaps(7, 0)  # x vs 0 never swaps


def test_fa14_free_bacon():
    assert [fa14.free_bacon(x) for x in (42, 48, 5, 77)] == [3, 5, 6, 1]


# components on arrays agree with ints ---------------------------------------

@given(st.sampled_from(list(rulesets().values())), st.integers(0, 160), st.integers(0, 99))
def test_components_agree_on_ints_and_arrays(rules, score, opp):
    arr_s, arr_o = np.array([score, 0]), np.array([opp, 0])
    assert int(zero_dice_points(rules, arr_s, arr_o)[0]) == int(zero_dice_points(rules, score, opp))
    assert int(call_rule(rules.bonus, arr_s, arr_o)[0]) == int(rules.bonus(score, opp))
    assert bool(call_rule(rules.swaps, arr_s, arr_o)[0]) == bool(rules.swaps(score, opp))
    assert int(call_rule(rules.dice_sides, arr_s, arr_o)[0]) == rules.dice_sides(score, opp)
    a, b = end_of_turn(rules, arr_s, arr_o, 3)
    assert (int(a[0]), int(b[0])) == tuple(int(x) for x in end_of_turn(rules, score, opp, 3))


def test_int_only_component_still_vectorises():
    rules = Ruleset("mine", "if-based", free_bacon=lambda o: 3 if o > 50 else 1)
    assert list(call_rule(rules.free_bacon, np.array([10, 60]))) == [1, 3]


def test_get_rules_errors_and_goal():
    with pytest.raises(UnknownRulesetError, match="fa13, fa14, sp15, su15"):
        get_rules("wi19")  # no such term: the message lists the names there are
    assert get_rules("su18", goal=30).goal == 30
    with pytest.raises(ValueError):
        su18.replace(goal=0)
    with pytest.raises(ValueError):
        su18.replace(max_dice=0)
    with pytest.raises(TypeError):
        su18.replace(goal=2.5)


def test_every_rule_component_shows_its_semesters_examples():
    """Each component a rule file may name carries a doctest (the semester's official examples
    where the course published any), which the default tier runs."""
    from hogsolve.hog.rulefile import COMPONENTS, OPTIONAL
    missing = []
    for kind, table in {**COMPONENTS, **OPTIONAL}.items():
        for name, component in table.items():
            doc = component.__doc__ if hasattr(component, "__code__") else type(component).points.__doc__
            if ">>> " not in (doc or ""):
                missing.append(f"{kind}: {name}")
    assert missing == []
