"""Every built-in Hog ruleset's fast kernels (the slot pass, the lean pass, Feral Hogs' merged
memories, the points-bonus table, Neller's closed form per score sum) against one slow
reference: value iteration over the model's own transitions, state by state, in plain Python.
The regret's reach is checked by the performance-difference identity in every game too."""
import numpy as np
import pytest

import hogsolve
from hogsolve import get_rules
from hogsolve.hog.catalog import rulesets
from hogsolve.solver.model import model_for
from transitions_reference import reference_values

GOAL, MOST = 10, 3


@pytest.mark.parametrize("name", sorted(rulesets()))
def test_a_pair_and_a_best_response_agree_with_value_iteration_over_transitions(name):
    """Mistakes: any fast path's landing, bonus, memory or extra turn taken wrongly for one
    semester's rules (each semester reaches the kernel its rules need)."""
    rules = get_rules(name, goal=GOAL).replace(max_dice=MOST)
    model = model_for(rules)
    rng = np.random.default_rng(sum(map(ord, name)))
    a = rng.integers(rules.min_dice, MOST + 1, (GOAL, GOAL))
    b = np.full((GOAL, GOAL), 2)
    rate = hogsolve.win_rate(a, b, rules)
    first, theirs = reference_values(model, a, b)
    assert rate.first == pytest.approx(first, abs=1e-12)
    assert rate.second == pytest.approx(1 - theirs, abs=1e-12)
    response = hogsolve.best_response(b, rules)
    best, theirs = reference_values(model, None, b)
    assert response.win_rate.first == pytest.approx(best, abs=1e-12)
    assert response.win_rate.second == pytest.approx(1 - theirs, abs=1e-12)


@pytest.mark.parametrize("name", sorted(rulesets()))
def test_regret_adds_up_to_the_shortfall_in_every_game(name):
    """The expected losses, weighted by the reach the occupancy gives, add up to the strategy's
    shortfall from one half against the optimal strategy.  Mistakes: reach lost or counted
    twice on one semester's rules, the loss taken against the wrong action."""
    rules = get_rules(name, goal=GOAL + 10)
    report = hogsolve.regret("always_roll:3", rules)
    assert report.total_expected_loss == pytest.approx(0.5 - report.win_rate.average, abs=1e-12)


@pytest.mark.slow
def test_at_the_full_goal_su18s_batched_kernels_give_the_pairwise_passes_figures():
    """su18 at goal 100: the slot kernel's win rate and best response (the lean pass) against
    the pairwise outcome tables' (one state's chosen action at a time), to 1e-12."""
    from hogsolve.analysis.evaluate import _best_response_pairwise
    from hogsolve.analysis.policy_values import play_values
    from hogsolve.solver.certificate import rounding_tie_threshold
    rules = get_rules("su18")
    model = model_for(rules)
    optimal = hogsolve.solve(rules).policy
    four = np.full((100, 100), 4)
    rate = hogsolve.win_rate(optimal, four, rules)
    mine, theirs = play_values(model, optimal, four)
    assert rate.first == pytest.approx(mine[0, 0], abs=1e-12)
    assert rate.second == pytest.approx(1 - theirs[0, 0], abs=1e-12)
    response = hogsolve.best_response(four, rules)
    best, _, policy = _best_response_pairwise(model, four, rounding_tie_threshold(model))
    assert np.abs(response.values - best).max() <= 1e-12 and (response.policy == policy).all()
