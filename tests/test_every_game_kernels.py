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

GOAL, MOST = 10, 3


def reference_values(model, mine, theirs):
    """``(value_mine, value_theirs)`` at the start by Gauss-Seidel value iteration over
    ``model.transitions``: ``mine`` a table of dice or None for the best response."""
    g = model.goal
    states = sorted(np.ndindex(model.value_shape), key=lambda st: -(st[0] + st[1]))
    actions = range(model.rules.min_dice, model.num_actions)
    moves = {}

    def outcomes(state, n):
        if (state, n) not in moves:
            moves[state, n] = [(key, float(p)) for key, p in model.transitions(state[0], state[1], n, state[2:])]
        return moves[state, n]

    def state_of(key):
        if isinstance(key, tuple):
            flat, a, b = key
            return (flat // g, flat % g, a, b)
        return divmod(key, g)

    def worth(state, n, values, own):
        total = 0.0
        for key, p in outcomes(state, n):
            if key == model.win:
                total += p
            elif key == model.loss:
                continue
            elif not isinstance(key, tuple) and model.again is not None and key >= model.again_base:
                total += p * own[state_of(key - model.again_base)]  # the mover moves again
            else:
                total += p * (1 - values[state_of(key)])
        return total

    value = [dict.fromkeys(states, 0.5), dict.fromkeys(states, 0.5)]
    for _ in range(5000):
        change = 0.0
        for state in states:
            for me in (0, 1):
                table = mine if me == 0 else theirs
                other = value[1 - me]
                if table is None:
                    new = max(worth(state, n, other, value[me]) for n in actions)
                else:
                    new = worth(state, int(table[state[:2]]), other, value[me])
                change = max(change, abs(new - value[me][state]))
                value[me][state] = new
        if change < 1e-15:
            break
    start = (0, 0) + (0,) * len(model.context_shape)
    return value[0][start], value[1][start]


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
