"""The proof by error bound, where exact rationals do not reach: it proves the solver's
policies (checked against exact recursions where they exist), and catches a planted wrong move."""
import numpy as np
import pytest

from cli_helpers import run_main
from hogsolve import get_pig_game, get_rules, solve
from hogsolve.solver.bound_check import check_hog_policy, check_pig_policy
from hogsolve.solver.model import model_for
from hogsolve.solver.pig import solve_pig
from hogsolve.solver.pig_exact import verify_pig
from reference import stagewise_values


@pytest.mark.parametrize("name, goal", [("hog", 12), ("hog", 40), ("fa19", 16), ("sp20", 16)])
def test_a_hog_policy_is_proven_and_a_planted_move_is_caught(name, goal):
    rules = get_rules(name, goal=goal)
    model = model_for(rules)
    solution = solve(rules, model=model)
    check = check_hog_policy(model, solution.win_probability, solution.policy)
    assert not check.wrong and check.decisions == solution.policy.size
    if name == "hog":  # no ties: every decision proven
        assert check.proven and check.min_margin > 2 * check.error_bound
    if goal == 12:  # and the proven policy is the one of an exact recursion in Fractions
        exact = stagewise_values(rules, exact=True)
        q = solution.action_values
        for (s, o), v in exact.items():
            assert abs(q[s, o, solution.policy[s, o]] - float(v)) <= 1e-15
    planted = solution.policy.copy()
    state = (goal // 2, goal // 3) + (0,) * (planted.ndim - 2)
    q = solution.action_values[state]
    planted[state] = int(np.argmin(np.where(np.isfinite(q), q, np.inf)))  # the worst move there
    caught = check_hog_policy(model, solution.win_probability, planted)
    assert caught.wrong and caught.worse == 1 and caught.worst[0] == list(state)


@pytest.mark.parametrize("name, goal", [("pig", 25), ("piglet", 10), ("big-pig", 25), ("two-dice-pig", 25)])
def test_a_pig_policy_is_proven_and_a_planted_move_is_caught(name, goal):
    game = get_pig_game(name, goal)
    solution = solve_pig(game)
    check = check_pig_policy(game, solution.value, solution.roll)
    assert check.proven, check
    if name != "two-dice-pig":  # the exact check in Fractions agrees where it is built
        assert verify_pig(solution).proven
    planted = solution.roll.copy()
    planted[3, 4, 5] ^= True
    caught = check_pig_policy(game, solution.value, planted)
    assert caught.wrong and not caught.proven


def test_solve_exact_proves_neller_hog_and_two_dice_pig_from_the_command_line():
    for rules in ("hog", "two-dice-pig"):
        result = run_main("solve", "--rules", rules, "--goal", "30", "--exact")
        assert result.returncode == 0, result.stderr
        assert "exact: proof by error bound" in result.stdout and "every decision proven" in result.stdout
