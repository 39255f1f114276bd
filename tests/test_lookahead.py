"""One turn of lookahead from state values gives the solver's action values (the hint of a
ruleset whose action values do not ship)."""
import numpy as np
import pytest

from hogsolve.hog.lookahead import action_values_at
from hogsolve.hog.rules import get_rules
from hogsolve.solver import optimal as solver
from hogsolve.solver.optimal import solve
from hogsolve.util.stable import GRID_ERROR
from hogsolve.strategy.optimal_bot import optimal_strategy


def states(goal, context, count, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        yield tuple(int(x) for x in rng.integers(0, goal, 2)) + tuple(int(rng.integers(0, c)) for c in context)


def close_to(solved, looked, tolerance):
    finite = np.isfinite(solved)
    assert (np.isfinite(looked) == finite).all(), (solved, looked)
    assert np.abs(looked[finite] - solved[finite]).max() <= tolerance


@pytest.mark.parametrize("name", ["su18", "hog", "sp15", "fa13", "fa22"])
def test_lookahead_gives_the_shipped_action_values(name):
    bot = optimal_strategy(name)
    for index in states(100, (), 30):
        close_to(bot.action_values[index], action_values_at(bot.rules, bot.win_probability, *index[:2]), 1e-14)


@pytest.mark.parametrize("name", ["fa19", pytest.param("sp20", marks=pytest.mark.slow)])
def test_lookahead_under_feral_hogs_memories(name):
    rules = get_rules(name).replace(goal=20)
    solution = solve(rules)
    for index in states(20, rules.context_shape, 150, seed=1):
        close_to(solution.action_values[index],
                 action_values_at(rules, solution.values, index[0], index[1], index[2:]), 1e-13)


def test_feral_hints_need_no_solve(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the shipped fa19 table should need no solve")
    monkeypatch.setattr(solver, "solve", refuse)
    bot = optimal_strategy("fa19")
    assert bot.win_probability.shape == (100, 100, 11, 11) and bot.win_probability.dtype == np.float32
    for index in states(100, (11, 11), 40, seed=3):  # the policy's move is the hint's best
        values = bot.values_at(index)
        assert values[bot.table[index]] >= values.max() - 2 * GRID_ERROR


@pytest.mark.slow
@pytest.mark.parametrize("name", ["fa19", "su20"])
def test_shipped_feral_values_are_the_solved_ones_within_their_bound(name):
    bot = optimal_strategy(name)
    solution = solve(bot.rules)
    assert np.abs(bot.win_probability - solution.values).max() <= GRID_ERROR
    for index in states(100, bot.rules.context_shape, 150, seed=2):
        close_to(solution.action_values[index], bot.values_at(index), GRID_ERROR + 1e-13)
        looked = bot.values_at(index)
        assert looked[bot.table[index]] >= looked.max() - 2 * GRID_ERROR - 1e-12
