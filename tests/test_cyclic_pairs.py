"""A fixed pair in a game whose turns can score nothing (Neller's Hog, sp22's passes), solved score
sum by score sum in closed form (analysis/policy_values._mirrored_solve), against an independent
oracle: the pair's Markov chain written from the rules text and solved as one linear system."""
import numpy as np
import pytest

from hogsolve import get_rules, win_rate
from reference import outcome_distribution


def linear_win_rate(rules, policy_a, policy_b):
    """P(a wins | a first), P(a wins | b first): every (s, o, whose policy moves) an unknown, the
    chance that the mover wins, one equation each, solved at once (numpy)."""
    g = rules.goal
    index = {(s, o, a): i for i, (s, o, a) in enumerate((s, o, a) for s in range(g) for o in range(g)
                                                         for a in (True, False))}
    size = len(index)
    matrix, rhs = np.eye(size), np.zeros(size)
    for (s, o, a), i in index.items():
        policy = policy_a if a else policy_b
        for key, p in outcome_distribution(rules, s, o, int(policy[s][o])).items():
            if key == "win":
                rhs[i] += p
            elif key == "loss":
                continue
            elif key[0] == "again":
                matrix[i, index[key[1], key[2], a]] -= p
            else:  # the other player moves next: the mover wins when they lose
                rhs[i] += p
                matrix[i, index[key[0], key[1], not a]] += p
    value = np.linalg.solve(matrix, rhs)
    return value[index[0, 0, True]], 1 - value[index[0, 0, False]]


@pytest.mark.parametrize("name, goal", [("hog", 12), ("hog", 20)])
def test_neller_hog_pairs_match_the_linear_system(name, goal):
    """Mistakes: the mirrored state taken wrongly (another entry of the sum), the partner's slot
    mixed up, the staying chance of the wrong player in the denominator."""
    rules = get_rules(name, goal=goal)
    rng = np.random.default_rng(goal)
    for _ in range(3):
        a, b = rng.integers(1, 11, (goal, goal)), rng.integers(1, 11, (goal, goal))
        ours = win_rate(a, b, rules)
        first, second = linear_win_rate(rules, a, b)
        assert ours.first == pytest.approx(first, abs=1e-12) and ours.second == pytest.approx(second, abs=1e-12)


def test_passes_that_never_end_are_a_draw_and_the_rest_as_iterated(monkeypatch):
    """sp22 at goal 80 under --endless draw, with strategies that pass to each other at (72, 75):
    one half there, and every figure as the iteration the closed form replaces gives it (the
    linear system is singular where the game never ends).  Mistakes: a division by zero, the
    draw lost, a figure off."""
    from hogsolve.analysis import policy_values
    rules = get_rules("sp22", goal=80).replace(endless="draw")
    a = np.full((80, 80), 3)
    a[72, 75] = a[75, 72] = 0
    b = np.random.default_rng(5).integers(0, 11, (80, 80))
    fast = [win_rate(a, a, rules), win_rate(a, b, rules)]
    assert fast[0].first + fast[0].second == pytest.approx(1.0, abs=1e-12)  # one strategy, either seat

    def iterated(model, table, values, policies, partner, forever, k):
        d = model.diagonals[k]
        q = table.chosen_slot_values(k, policies[d.s, d.o])
        if forever is not None:
            q = np.where(forever[d.s, d.o], 0.5, q)
        values[d.s, d.o] = q
        table.fill(k, values, values, partner)
        return 1.0
    monkeypatch.setattr(policy_values, "_mirrored_solve", iterated)
    slow = [win_rate(a, a, rules), win_rate(a, b, rules)]
    for ours, reference in zip(fast, slow):
        assert ours.first == pytest.approx(reference.first, abs=1e-12)
        assert ours.second == pytest.approx(reference.second, abs=1e-12)


def test_each_score_sum_is_solved_in_one_step_and_checked_once(monkeypatch):
    """Where the only turns that stay on a score sum hand back the mirrored scores (Neller's Hog),
    the closed form is the fixed point: each sum takes the solving step and one check, never the
    dozens of sweeps of plain iteration.  Mistake: a wrong mirror or partner, which the check then
    has to iterate away (the figures stay right, the speed is lost)."""
    from hogsolve.analysis import policy_values
    results = []
    run = policy_values.by_score_sum

    def counted(*args, **kwargs):
        results.append(run(*args, **kwargs))
        return results[-1]
    monkeypatch.setattr(policy_values, "by_score_sum", counted)
    from hogsolve import best_response
    goal = 20
    rng = np.random.default_rng(2)
    win_rate(rng.integers(1, 11, (goal, goal)), rng.integers(1, 11, (goal, goal)), get_rules("hog", goal=goal))
    best_response(rng.integers(1, 11, (goal, goal)), get_rules("hog", goal=goal))  # the best response's sums too
    sums = 2 * goal - 1
    assert len(results) == 2  # a step and a check each (a third, rarely, for rounding)
    assert all(result.updates <= 3 * sums for result in results), [result.updates for result in results]


@pytest.mark.parametrize("goal", [12, 20])
def test_the_best_response_in_neller_hog_is_the_iterations_and_its_policy_wins_as_it_says(goal):
    """The best response solved score sum by score sum in closed form (the largest of each
    action's fixed points) equals the general iteration's values, and its policy, played as a
    fixed pair in the linear system, wins exactly as often as it claims.  Mistakes: the maximum
    taken before the fixed points (a different value), the opponent's value at the wrong state."""
    from hogsolve import best_response
    from hogsolve.analysis.evaluate import _best_response_pairwise
    from hogsolve.analysis.policy_values import best_response_values
    from hogsolve.solver.model import model_for
    rules = get_rules("hog", goal=goal)
    model = model_for(rules)
    opponent = np.random.default_rng(goal + 1).integers(1, 11, (goal, goal))
    mine, theirs, _ = best_response_values(model, opponent)
    reference_mine, reference_theirs, _ = _best_response_pairwise(model, opponent, 0.0)
    assert np.abs(mine - reference_mine).max() <= 1e-12 and np.abs(theirs - reference_theirs).max() <= 1e-12
    response = best_response(opponent, rules)
    first, second = linear_win_rate(rules, response.policy, opponent)
    assert response.win_rate.first == pytest.approx(first, abs=1e-12)
    assert response.win_rate.second == pytest.approx(second, abs=1e-12)


def linear_occupancy(rules, mine, theirs):
    """Expected visits of each (s, o) with "me" to move, half the games me first: the chain's
    fundamental matrix, (I - T)^-1 from the start, written from the rules text."""
    g = rules.goal
    index = {(s, o, me): i for i, (s, o, me) in enumerate((s, o, me) for s in range(g) for o in range(g)
                                                          for me in (True, False))}
    transitions = np.zeros((len(index), len(index)))
    for (s, o, me), i in index.items():
        policy = mine if me else theirs
        for key, p in outcome_distribution(rules, s, o, int(policy[s][o])).items():
            if key in ("win", "loss"):
                continue
            if key[0] == "again":
                transitions[i, index[key[1], key[2], me]] += p
            else:
                transitions[i, index[key[0], key[1], not me]] += p
    start = np.zeros(len(index))
    start[index[0, 0, True]] = start[index[0, 0, False]] = 0.5
    visits = np.linalg.solve((np.eye(len(index)) - transitions).T, start)
    return np.array([[visits[index[s, o, True]] for o in range(g)] for s in range(g)])


def test_neller_hog_occupancy_matches_the_chains_fundamental_matrix():
    """How often a pair reaches each state (regret's weights), summed over the bounces between
    mirrored states in closed form.  Mistakes: the bounce's return counted for the wrong mover,
    the mass that stays spread again, a state's visits lost."""
    from hogsolve.analysis.policy_values import occupancy
    from hogsolve.solver.model import model_for
    rules = get_rules("hog", goal=12)
    rng = np.random.default_rng(9)
    mine, theirs = rng.integers(1, 11, (12, 12)), rng.integers(1, 11, (12, 12))
    ours = occupancy(model_for(rules), mine, theirs)
    assert np.abs(ours - linear_occupancy(rules, mine, theirs)).max() <= 1e-12
