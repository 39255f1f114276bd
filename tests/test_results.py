"""One result convention: frozen dataclasses, plain-JSON to_dict, a short readable repr."""
import dataclasses
import json

import numpy as np
import pytest

from hogsolve import (best_response, get_rules, regret, simulate, solve, tournament,
                      win_rate)
from hogsolve.solver.iteration import IterationResult
from hogsolve.sibala.odds import hand_odds, odds
from hogsolve.sibala.rules import winner
from hogsolve.sinbad.odds import deal_odds
from hogsolve.sinbad.tournament import play_game, standings
from hogsolve.strategy.named import always_roll

rules = get_rules("su18", goal=40)


def results():
    sol = solve(rules)
    four = always_roll(4)
    return {
        "solution": sol, "exact": solve(get_rules("su18", goal=15), exact=True),
        "certificate": sol.certificate,
        "win rate": win_rate(sol, four, rules), "best response": best_response(four, rules),
        "regret": regret(four, rules), "simulation": simulate(sol, four, rules, games=1000, seed=1),
        "tournament": tournament([sol, four], rules, names=["optimal", "four"]),
        "sibala odds": odds(), "sibala chances": hand_odds([6, 6, 2, 2]),
        "sibala verdict": winner([5, 3, 5, 4], [2, 6, 2, 3]),
        "deal odds": deal_odds(3), "bot game": play_game(["greedy", "random"], 1),
        "standing": standings([play_game(["greedy", "random"], 2)])[0],
        "pig0 certificate": solve(rules.replace(name="pig0", pig_out=0, goal=12)).certificate,
    }


@pytest.fixture(scope="module")
def every_result():
    return results()


def test_to_dict_is_plain_json(every_result):
    for name, result in every_result.items():
        data = result.to_dict()
        text = json.dumps(data, allow_nan=False)  # no default=: nothing but JSON types
        assert json.loads(text) == data, name


def test_results_are_frozen_with_short_reprs(every_result):
    for name, result in every_result.items():
        assert dataclasses.is_dataclass(result), name
        field = dataclasses.fields(result)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(result, field, None)
        assert len(repr(result)) < 1200, name


def test_iterative_results_say_whether_they_converged(every_result):
    assert every_result["solution"].converged and every_result["certificate"].updates == 2 * 40 - 1
    assert IterationResult(10, (3,)).converged is False


def test_no_silent_numpy_scalars():
    data = solve(rules).to_dict()
    assert type(data["opening_move"]) is int and type(data["first_player_win_probability"]) is float
    assert np.isfinite(data["certificate"]["error_bound"])


def test_a_model_of_another_ruleset_is_refused():
    from hogsolve import compile_model
    su18_model = compile_model(get_rules("su18"))
    with pytest.raises(ValueError, match="compiled for su18"):
        solve(get_rules("fa13"), model=su18_model)
    with pytest.raises(ValueError, match="compiled for su18"):
        win_rate(always_roll(4), always_roll(5), get_rules("fa13"), model=su18_model)


def test_cli_json_keeps_numbers_and_refuses_the_unknown():
    from fractions import Fraction
    from hogsolve.cli.common import json_value
    text = json.dumps({"n": np.int64(3), "x": np.float64(0.25), "a": np.arange(2), "p": Fraction(1, 3)},
                      default=json_value)
    assert json.loads(text) == {"n": 3, "x": 0.25, "a": [0, 1], "p": {"fraction": "1/3", "decimal": 1 / 3}}
    with pytest.raises(TypeError, match="cannot write object"):
        json.dumps({"o": object()}, default=json_value)
