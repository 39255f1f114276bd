"""One status vocabulary (ok, message, iterations) on every solver result, Hog and Pig alike."""
import json

import pytest

from hogsolve import get_pig_game, get_rules, solve
from hogsolve.solver.pig import solve_pig
from hogsolve.analysis.pig.evaluate import pig_win_rate
from hogsolve.analysis.results import WinRate
from hogsolve.strategy.pig import hold_at


@pytest.mark.parametrize("make", [lambda: solve(get_rules("su18", goal=30)), lambda: solve(get_rules("sp22")),
                                  lambda: solve_pig(get_pig_game("pig", goal=25)),
                                  lambda: solve_pig(get_pig_game("two-dice-pig", goal=20))])
def test_solutions_and_certificates_share_the_vocabulary(make):
    solution = make()
    for result in (solution, solution.certificate):
        assert result.ok == (result.message == "") == result.certificate.proven if result is solution \
            else result.ok == (result.message == "") == result.proven
        assert isinstance(result.iterations, int) and result.iterations >= 1
        record = result.to_dict()
        assert (record["ok"], record["message"], record["iterations"]) == (result.ok, result.message,
                                                                             result.iterations)
        json.dumps(record)


def test_not_ok_says_why():
    solution = solve(get_rules("sp22"))
    assert not solution.ok and "(72, 75)" in solution.message and solution.message == solution.certificate.reason


def test_pig_win_rate_is_the_hog_result_type():
    game = get_pig_game("pig", goal=20)
    rate = pig_win_rate(solve_pig(game), hold_at(10), game)
    assert isinstance(rate, WinRate) and rate.a == "optimal" and rate.b == "hold_at:10"
    assert rate.average == (rate.first + rate.second) / 2 > 0.5
    assert rate.to_dict()["average"] == rate.average


def test_the_exact_checks_share_the_vocabulary():
    from hogsolve.solver.exact import verify_ties
    from hogsolve.solver.model import compile_model
    from hogsolve.solver.pig.exact import verify_pig
    rules = get_rules("su18", goal=20)
    exact = solve(rules, exact=True).exact
    ties = verify_ties(compile_model(rules), solve(rules))
    checked = verify_pig(solve_pig(get_pig_game("pig", goal=15)))
    for result in (exact, ties, checked):
        assert result.ok and result.message == "" and result.iterations in (39, 29)
        assert {"ok", "message", "iterations"} <= set(result.to_dict())
    wrong = solve_pig(get_pig_game("pig", goal=15))
    wrong.policy[3, 5, 1] = False  # hold at 1: strictly worse than rolling
    bad = verify_pig(wrong)
    assert not bad.ok and bad.message == "the policy's action is worse than the other in 1 states"
