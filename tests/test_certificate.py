"""The certificate claims a proof only when it has one (rulesets with cycles included)."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hogsolve.solver.iteration as iteration
from hogsolve import best_response, compile_model, get_rules, solve
from hogsolve.solver.certificate import PROOF_TOLERANCE
from hogsolve.cli import main
from hogsolve.solver.exact import ExactUnsupported
from hogsolve.solver.iteration import ConvergenceError, by_score_sum
from hogsolve.hog.rules import (Ruleset, bacon_digit_difference, bacon_larger_digit, bacon_product_digit,
                            bacon_twice_tens_minus_ones, hog_wild, never_swap, six_sided, swap_double,
                            swap_equal_digit_gaps, swap_ones_equals_tens)
from reference import stagewise_values

# The reference's own float rounding (closed-form solves, no iteration).
REFERENCE_ROUNDING = 1e-13


def four_sided(score, opponent_score):
    return 4 + 0 * score


def bacon_zero(opponent_score):
    """Rolling zero dice scores nothing: a free pass, so play can cycle for sure."""
    return 0 * opponent_score


def assert_matches_reference(solution, rules, ref=None):
    ref = stagewise_values(rules) if ref is None else ref
    bound = solution.certificate.error_bound
    worst = max(abs(ref[k] - solution.values[k]) for k in ref)
    assert worst <= bound + REFERENCE_ROUNDING, (worst, bound)


@pytest.mark.slow
def test_fa13_pig_out_zero_regression():
    """The issue's example: a stage stuck on rounding used to starve every later stage."""
    rules = get_rules("fa13").replace(name="fa13-pig0", pig_out=0)
    solution = solve(rules)
    c = solution.certificate
    assert c.converged and c.proven and c.reason == ""
    assert 0 < c.stay_probability < 1  # four-sided dice: 1 - (3/4)**10
    assert c.max_bellman_residual <= c.error_bound <= PROOF_TOLERANCE
    # independent closed-form solve of the same game (tests/reference.py)
    ref = stagewise_values(rules)
    assert abs(solution.first_player_win_probability - ref[0, 0]) <= c.error_bound + REFERENCE_ROUNDING
    assert solution.first_player_win_probability == pytest.approx(0.511859863304, abs=1e-12)
    assert_matches_reference(solution, rules, ref)
    assert best_response(solution.policy, rules).exploitability <= c.error_bound


def test_smallest_case_that_hit_the_cap():
    rules = Ruleset("x", "issue 9", free_bacon=bacon_larger_digit, dice_sides=hog_wild,
                    pig_out=0, goal=23, max_dice=8)
    solution = solve(rules)
    assert solution.converged and solution.certificate.proven
    assert solution.certificate.updates < 10 * (2 * 23 - 1) * 100
    assert_matches_reference(solution, rules)


def test_hitting_the_cap_is_reported(monkeypatch):
    monkeypatch.setattr(iteration, "STAGE_CAP", 3)
    rules = get_rules("fa13", goal=30).replace(name="fa13-pig0", pig_out=0)
    c = solve(rules).certificate
    assert not c.converged and not c.proven
    assert c.stuck_stages and "did not converge" in c.reason
    assert c.to_dict()["converged"] is False
    with pytest.raises(ConvergenceError, match="did not converge"):
        best_response(np.full((30, 30), 4), rules)


def test_one_stuck_stage_does_not_starve_the_others():
    model = compile_model(get_rules("su18", goal=3).replace(pig_out=0))
    assert not model.progressive
    counts = {}

    def update(k):
        counts[k] = counts.get(k, 0) + 1
        if k == 3:
            return 1.0  # never settles
        return 0.5 ** counts[k]

    result = by_score_sum(model, update, stage_cap=100)
    assert result.stuck_stages == (3,) and not result.converged
    assert counts[3] == 100
    for k in (4, 2, 1, 0):
        assert 1 < counts[k] < 100  # each stage ran to its own settling point


def test_rounding_plateau_ends_a_stage():
    """A change that hovers at rounding level (never below SETTLED) still ends the stage."""
    model = compile_model(get_rules("su18", goal=3).replace(pig_out=0))
    calls = []

    def update(k):
        calls.append(k)
        return 1.1e-15 if len(calls) % 2 else 1.2e-15

    result = by_score_sum(model, update, stage_cap=10_000)
    assert result.converged and result.updates < 5 * (iteration.PATIENCE + 2)


def test_a_certain_cycle_is_not_proven():
    rules = Ruleset("pass", "free pass", free_bacon=bacon_zero, pig_out=0, goal=8, max_dice=3)
    c = solve(rules).certificate
    assert c.stay_probability == 1 and not c.proven
    assert c.error_bound == float("inf") and "for sure" in c.reason


def test_where_rationals_cannot_reach_exact_mode_proves_by_the_error_bound(capsys, monkeypatch):
    """Zero-point turns under a swap: no exact recomputation (the library says so), so
    `solve --exact` proves the policy by a fresh backup's rigorous error bound instead."""
    from hogsolve.families import HOG
    from hogsolve.solver.optimal import solve as solve_in_rationals
    rules = get_rules("su18", goal=12).replace(name="su18-pig0", pig_out=0)
    with pytest.raises(ExactUnsupported, match="cannot verify"):
        solve_in_rationals(rules, exact=True)  # the recomputation in rationals itself
    # the library proves it as the command line does (#52: it once raised where the CLI proved)
    proven = solve(rules, exact=True)
    assert proven.exact is None and "proof by error bound: 144 decisions" in repr(proven.proof)
    assert proven.to_dict()["exact"] == proven.proof.to_dict()
    monkeypatch.setattr("hogsolve.cli.solve.game_of", lambda args, exact=False: (HOG, rules))
    assert main(["solve", "--rules", "x", "--exact"]) == 0
    out = capsys.readouterr().out
    # one state's best two actions tie within the bound: said, not hidden (and not a failure)
    assert "exact: proof by error bound: 144 decisions" in out and "not proven: 1 decisions are within" in out


def test_cli_exits_1_when_not_converged(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(iteration, "STAGE_CAP", 3)
    from hogsolve.families import HOG
    rules = get_rules("fa13", goal=20).replace(name="fa13-pig0", pig_out=0)
    monkeypatch.setattr("hogsolve.cli.solve.game_of", lambda args, exact=False: (HOG, rules))
    assert main(["solve", "--rules", "x", "--out", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    assert "NOT proven" in captured.out and "did not converge" in captured.out
    assert "not proven optimal" in captured.err and "no table written" in captured.err
    assert not (tmp_path / "fa13-pig0").exists()  # no table from an unconverged solve


BACONS = [bacon_product_digit, bacon_twice_tens_minus_ones, bacon_larger_digit,
          bacon_digit_difference, bacon_zero]
SWAPS = [never_swap, swap_ones_equals_tens, swap_equal_digit_gaps, swap_double]
SIDES = [six_sided, hog_wild, four_sided]


RANDOM_RULES = dict(bacon=st.sampled_from(BACONS), swaps=st.sampled_from(SWAPS), sides=st.sampled_from(SIDES),
                    pig_out=st.sampled_from([0, 0, 1, 2]), max_dice=st.integers(1, 10))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(goal=st.integers(2, 24), **RANDOM_RULES)
def test_proven_means_proven(bacon, swaps, sides, pig_out, goal, max_dice):
    check_proven_means_proven(bacon, swaps, sides, pig_out, goal, max_dice)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(goal=st.integers(2, 40), **RANDOM_RULES)
def test_proven_means_proven_up_to_goal_40(bacon, swaps, sides, pig_out, goal, max_dice):
    check_proven_means_proven(bacon, swaps, sides, pig_out, goal, max_dice)


def check_proven_means_proven(bacon, swaps, sides, pig_out, goal, max_dice):
    """A proven certificate's bound holds against the plain reference and the best response."""
    rules = Ruleset("random", "hypothesis", free_bacon=bacon, swaps=swaps, dice_sides=sides,
                    pig_out=pig_out, goal=goal, max_dice=max_dice)
    solution = solve(rules)
    c = solution.certificate
    if not c.converged:
        assert not c.proven
    if not c.proven:
        assert c.reason
        return
    assert c.converged and c.max_bellman_residual <= c.error_bound <= PROOF_TOLERANCE
    assert 2 * c.error_bound < c.min_decision_margin
    assert_matches_reference(solution, rules)
    assert best_response(solution.policy, rules).exploitability <= c.error_bound


@pytest.mark.parametrize("name",
                         ["su18", pytest.param("fa13", marks=pytest.mark.slow), "fa21",
                          pytest.param("sp15", marks=pytest.mark.slow), pytest.param("fa15", marks=pytest.mark.slow)])
def test_quick_exact_check_agrees_with_the_full_one(name):
    """verify_ties (exact values from the certified decisions, ties settled exactly) gives the
    full recomputation's exact start value and exact policy, on plain, mixed-dice, points-bonus,
    Piggy Back and final-bonus rules."""
    from hogsolve.solver.exact import verify, verify_ties
    rules = get_rules(name)
    model = compile_model(rules)
    solution = solve(rules, model=model)
    quick, full = verify_ties(model, solution), verify(model, solution)
    assert quick.win_probability_start == full.win_probability_start
    assert np.array_equal(quick.policy, full.policy) and quick.max_value_error < 1e-14
    assert quick.tie_states == len(solution.certificate.tie_states) > 0


def test_quick_exact_check_settles_a_wrong_tie_and_needs_a_proof():
    """A tie decided wrongly in floats is corrected exactly; an unproven certificate is refused."""
    import dataclasses
    from hogsolve.solver.exact import verify, verify_ties
    rules = get_rules("su18")
    model = compile_model(rules)
    solution = solve(rules, model=model)
    s, o = solution.certificate.tie_states[0]
    policy = solution.policy.copy()
    policy[s, o] = 10 if policy[s, o] != 10 else 9  # not the fewest dice among the exact best
    planted = dataclasses.replace(solution, policy=policy)
    quick = verify_ties(model, planted)
    assert quick.float_choice_changed == 1 and np.array_equal(quick.policy, verify(model, solution).policy)
    unproven = dataclasses.replace(solution, certificate=dataclasses.replace(solution.certificate, reason="no"))
    with pytest.raises(ValueError, match="does not prove"):
        verify_ties(model, unproven)
