"""sp22's passes: zero dice that score 0 hand the opponent the same scores.  Optimal players
pass forever at one pair of states, so the game has no value, unless an endless game counts as
half a win for each (--endless draw); then it has one, and its policy is certified."""
import functools

import numpy as np
import pytest

from cli_helpers import run_main
from hogsolve import always_roll, best_response, get_rules, solve, win_rate
from hogsolve.solver.bound_check import check_hog_policy
from hogsolve.solver.iteration import ConvergenceError
from hogsolve.solver.model import model_for
from hogsolve.strategy.named import tabulate
from reference import iterated_values, outcome_distribution

GOAL = 48  # sp22 at goal 48 has an endless pair: (35, 36) and (36, 35)


@pytest.fixture(scope="module")
def draw():
    rules = get_rules("sp22", goal=GOAL).replace(endless="draw")
    return rules, model_for(rules), solve(rules)


def test_without_a_convention_the_endless_pair_has_no_value():
    solution = solve(get_rules("sp22", goal=GOAL))
    assert not solution.certificate.proven and not solution.converged
    assert "both players prefer passing forever at (35, 36) and (36, 35)" in solution.certificate.reason


def test_an_endless_pair_is_one_whose_best_rolls_are_worth_less_than_one_together(draw):
    """Mistakes: the one-die roll left out of the rolls, a pair whose rolls are worth exactly
    one counted as endless (its values are then unique: each rolls or passes at the same worth)."""
    from hogsolve.solver.certificate import endless_passes
    rules, model, solution = draw
    pair = ((24, 25), (25, 24))  # zero dice score 0 there for either, and hand the same scores back
    values = np.zeros_like(solution.action_values)
    for worth, endless in (((0.4,) * 10, True), ((0.5,) * 10, False), ((0.6,) + (0.3,) * 9, False)):
        for s, o in pair:
            values[s, o, 1:] = worth
        assert (pair in endless_passes(model, values)) == endless, worth
    assert endless_passes(model_for(get_rules("fa19")), solve(get_rules("fa19")).action_values) == []


@pytest.mark.slow  # kept out of the default tier for its time; CI runs the slow tier
def test_with_a_draw_the_values_are_those_of_games_cut_short_as_draws(draw):
    """A plain Gauss-Seidel iteration from 1/2 everywhere (the game cut short after t turns,
    scored as a draw, as t grows) gives the solver's values, and the pair passes."""
    rules, model, solution = draw
    reference = iterated_values(rules, start=0.5, tol=1e-16)
    assert max(abs(v - solution.values[state]) for state, v in reference.items()) <= 1e-12
    assert solution.values[35, 36] == solution.values[36, 35] == 0.5
    assert solution.policy[35, 36] == solution.policy[36, 35] == 0
    assert solution.certificate.proven and solution.certificate.error_bound <= 1e-11


def test_the_draw_policy_is_proven_and_never_passes_on_a_tie(draw):
    rules, model, solution = draw
    check = check_hog_policy(model, solution.values, solution.policy)
    assert check.proven, check
    # the policy against itself passes forever only at the pair that is worth a draw
    from hogsolve.analysis.policy_values import endless_play
    forever = endless_play(model, solution.policy, solution.policy)
    assert sorted(map(tuple, np.argwhere(forever).tolist())) == [(35, 36), (36, 35)]


def iterate_from_a_draw(rules, choose_mine, theirs):
    """Both players' values, the first choosing by ``choose_mine(state, worth)`` (``worth(n)``:
    the value of n dice), the second by the table ``theirs``: a plain Gauss-Seidel iteration
    from 1/2 everywhere, by falling score sum, until nothing changes."""
    g = rules.goal
    states = sorted(((s, o) for s in range(g) for o in range(g)), key=lambda x: -sum(x))
    dists = {(state, n): outcome_distribution(rules, *state, n) for state in states
             for n in range(rules.max_dice + 1)}
    v = [dict.fromkeys(states, 0.5), dict.fromkeys(states, 0.5)]

    def worth(state, n, p):
        return sum(q * (1 if k == "win" else 0 if k == "loss" else 1 - v[1 - p][k])
                   for k, q in dists[state, n].items())
    for _ in range(200):
        change = 0.0
        for state in states:
            mine = choose_mine(state, functools.partial(worth, state, p=0), dists)
            theirs_now = worth(state, int(theirs[state]), 1)
            change = max(change, abs(mine - v[0][state]), abs(theirs_now - v[1][state]))
            v[0][state], v[1][state] = mine, theirs_now
        if change == 0.0:
            break
    return v


@pytest.mark.slow
def test_win_rates_and_the_best_response_under_a_draw(draw):
    """Against fixed tables, by the same iteration from a draw: two win rates, and the best
    response to always rolling zero dice (its pass to a player who passes back: the draw)."""
    rules, model, solution = draw
    zero = tabulate(always_roll(0), rules)
    for a, b in ((solution.policy, zero), (zero, zero)):
        rate = win_rate(a, b, rules)
        v = iterate_from_a_draw(rules, lambda state, worth, _, a=a: worth(int(a[state])), b)
        assert rate.first == pytest.approx(v[0][0, 0], abs=1e-12)
        assert rate.second == pytest.approx(1 - v[1][0, 0], abs=1e-12)

    def best(state, worth, dists):
        values = [worth(n) for n in range(rules.max_dice + 1)]
        if dists[state, 0] == {state[::-1]: 1} and dists[state[::-1], 0] == {state: 1}:
            values[0] = 0.5  # the other always passes back: passing starts the endless game
        return max(values)
    v = iterate_from_a_draw(rules, best, zero)
    response = best_response(zero, rules)
    assert response.win_rate.first == pytest.approx(v[0][0, 0], abs=1e-12)
    assert response.win_rate.second == pytest.approx(1 - v[1][0, 0], abs=1e-12)


def test_without_a_convention_two_strategies_that_pass_forever_have_no_win_rate():
    rules = get_rules("sp22", goal=GOAL)
    zero = tabulate(always_roll(0), rules)
    with pytest.raises(ConvergenceError, match=r"pass to each other forever .*--endless draw"):
        win_rate(zero, zero, rules)
    result = run_main("compare", "always_roll:0", "always_roll:0", "--rules", "sp22")
    assert result.returncode == 1 and "--endless draw" in result.stderr and len(result.stderr.splitlines()) == 1


def test_solve_sp22_with_a_draw_from_the_command_line():
    result = run_main("solve", "--rules", "sp22", "--endless", "draw", "--exact")
    assert result.returncode == 0, result.stderr
    assert "proven optimal" in result.stdout and "every decision proven" in result.stdout
    refused = run_main("solve", "--rules", "sp22")
    assert refused.returncode == 1 and "an endless game, so optimal play has no value" in refused.stdout


def test_without_a_convention_the_pair_has_an_infinite_residual():
    """The closed form of the endless pair is NaN (no value): charged as an infinite residual."""
    c = solve(get_rules("sp22", goal=GOAL)).certificate
    assert c.max_bellman_residual == float("inf") and c.error_bound == float("inf")
