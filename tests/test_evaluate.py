"""Exact comparisons: the properties the optimum must have, and independent checks."""
import numpy as np
import pytest

from hogsolve import get_rules, solve
from hogsolve.analysis.evaluate import best_response, exploitability, regret, win_rate
from hogsolve.analysis.policy_values import occupancy
from hogsolve.solver.model import compile_model
from hogsolve.strategy.optimal_bot import optimal_strategy
from hogsolve.analysis.montecarlo import simulate
from hogsolve.util.stats import wilson_interval
from hogsolve.strategy.named import always_roll, baselines, random_strategy, tabulate
from reference import recursive_best_response, recursive_win_rate

Z999 = 3.2905
NAMES = ["su18", "fa18", "fa13", "fa14"]


@pytest.mark.parametrize("name", NAMES)
def test_what_must_hold(name):
    rules = get_rules(name)
    opt = optimal_strategy(rules)
    model = compile_model(rules)
    assert abs(win_rate(opt, opt, rules, model=model).average - 0.5) < 1e-15
    for base in baselines(rules):
        assert win_rate(opt, base, rules, model=model).average > 0.5, base.name
    assert exploitability(opt, rules) < 1e-12
    br = best_response(always_roll(4), rules)
    assert br.win_rate.average > win_rate(opt, always_roll(4), rules).average


@pytest.mark.parametrize("name", ["su18", "fa13"])
def test_win_rate_matches_fraction_recursion(name):
    rules = get_rules(name, goal=25)
    a = tabulate(random_strategy(1, rules), rules)
    b = tabulate(always_roll(3), rules)
    exact = win_rate(a, b, rules)
    first, second = recursive_win_rate(rules, a, b)
    assert exact.first == pytest.approx(float(first), abs=1e-14)
    assert exact.second == pytest.approx(float(second), abs=1e-14)


@pytest.mark.parametrize("name", ["fa18", "fa14"])
def test_best_response_matches_recursion(name):
    rules = get_rules(name, goal=20)
    opponent = tabulate(random_strategy(7, rules), rules)
    br = best_response(opponent, rules)
    first, second = recursive_best_response(rules, opponent)
    assert br.win_rate.first == pytest.approx(first, abs=1e-13)
    assert br.win_rate.second == pytest.approx(second, abs=1e-13)
    # the policy achieves what it claims
    achieved = win_rate(br.policy, opponent, rules)
    assert achieved.average == pytest.approx(br.win_rate.average, abs=1e-13)


@pytest.mark.parametrize("name",
                         ["su18", pytest.param("fa13", marks=pytest.mark.slow), "sp15",
                          pytest.param("fa15", marks=pytest.mark.slow), pytest.param("fa19", marks=pytest.mark.slow),
                          "fa20", pytest.param("fa21", marks=pytest.mark.slow),
                          pytest.param("hog", marks=pytest.mark.slow)])
def test_monte_carlo_agrees_within_interval(name):
    """Every kind of rule the simulator follows: mixed dice (fa13), a points bonus (sp15),
    Piggy Back (fa15), memories (fa19), extra turns (fa20), final bonuses (fa21), no zero
    dice (hog)."""
    rules = get_rules(name)
    opt, base = optimal_strategy(rules), always_roll(5)
    exact = win_rate(opt, base, rules)
    sim = simulate(opt, base, rules, games=200_000, seed=11, chunk=50_000)
    lo, hi = sim.interval
    # Each seat on its own, against the exact figure of that seat: the reported interval is
    # 95%; the test uses 99.9% so a correct simulator fails it by chance once in a thousand
    # seeds, not once in twenty.
    for simulated, true, n in ((sim.first, exact.first, sim.games_first),
                               (sim.second, exact.second, sim.games_second)):
        low, high = wilson_interval(simulated, n, z=Z999)
        assert low <= true <= high, (name, simulated, true)
    assert 0 <= lo < sim.average < hi <= 1 and hi - lo < 0.01
    # seeded: the same run again gives the same counts
    again = simulate(opt, base, rules, games=200_000, seed=11, chunk=50_000)
    assert (again.wins_first, again.wins_second) == (sim.wins_first, sim.wins_second)


def test_regret_adds_up_to_the_shortfall():
    rules = get_rules("su18")
    report = regret(always_roll(4), rules)
    assert report.total_expected_loss == pytest.approx(0.5 - report.win_rate.average, abs=1e-12)
    worst = report.worst(5)
    assert len(worst) == 5
    assert all(w["choice"] == 4 and w["optimal"] != 4 for w in worst)
    assert [w["expected_loss"] for w in worst] == sorted((w["expected_loss"] for w in worst), reverse=True)
    assert report.reach[0, 0] == pytest.approx(0.5)  # the strategy opens half the games
    # the optimal strategy itself loses nothing anywhere
    assert regret(optimal_strategy(rules), rules).total_expected_loss < 1e-12


def test_occupancy_conserves_probability():
    rules = get_rules("fa13", goal=40)
    model = compile_model(rules)
    pol = tabulate(always_roll(3), rules).astype(np.intp)
    visits = occupancy(model, pol, pol)
    # half the games open with my move at (0, 0), and the sum rises every turn
    assert visits[0, 0] == pytest.approx(0.5) and visits.min() >= 0
    for k in range(2 * 40 - 1):  # I move at most once per score sum in a game
        assert visits[np.add.outer(np.arange(40), np.arange(40)) == k].sum() <= 1 + 1e-12
    # my expected number of turns: at least one per game I open, fewer than 40
    assert 0.5 <= visits.sum() < 40


def test_pig_out_zero_ruleset_evaluates():
    rules = get_rules("su18", goal=15).replace(name="pig0", pig_out=0)
    opt = solve(rules)
    rate = win_rate(opt.policy, opt.policy, rules)
    assert abs(rate.first - opt.values[0, 0]) < 1e-12
    sim = simulate(opt.policy, tabulate(always_roll(2), rules), rules, games=200_000, seed=3)
    exact = win_rate(opt.policy, tabulate(always_roll(2), rules), rules)
    assert abs(sim.average - exact.average) <= Z999 * sim.standard_error


@pytest.mark.parametrize("name", ["su18", "fa13"])
def test_alias_tables_hold_the_exact_distribution(name):
    """The sampler's integer alias tables give every row exactly the model's counts:
    column j keeps threshold[j] of its base units and passes the rest to alias[j]."""
    from math import lcm
    from hogsolve.analysis.montecarlo import PointSampler
    model = compile_model(get_rules(name))
    sampler = PointSampler(model)
    width = 1 << sampler.bits
    threshold = sampler.threshold.reshape(-1, width).astype(object)
    alias = sampler.alias.reshape(-1, width)
    T, A, P = model.counts.shape
    base = lcm(*(int(d) for d in model.denominators))
    assert sampler.base == base
    for row in range(len(threshold)):
        mass = [0] * width
        for j in range(width):
            mass[j] += threshold[row, j]
            mass[alias[row, j]] += base - threshold[row, j]
        if row < T * A:
            t, n = divmod(row, A)
            expected = [int(c) * (base // int(model.denominators[t])) * width for c in model.counts[t, n]]
            if n == 0:
                continue  # zero dice: the sure rows below serve Free Bacon
        else:
            expected = [base * width * (p == row - T * A) for p in range(P)]
        assert mass[:P] == expected and not any(mass[P:])


def _best_response_by_transitions(model, opponent):
    """(first, second) win rates of the best response to the ``opponent`` table, by a plain
    recursion over ``model.transitions`` (any rules: memories, Piggy Back, point bonuses)."""
    from functools import lru_cache
    import sys
    g = model.goal

    def value_of(key, p, other):
        if key == model.win:
            return p
        if key == model.loss:
            return 0.0
        there = divmod(key[0], g) + key[1:] if isinstance(key, tuple) else divmod(key, g)
        return p * (1 - other(there))

    @lru_cache(maxsize=None)
    def mine(state):
        return max(sum(value_of(k, float(p), theirs) for k, p in model.transitions(state[0], state[1], n, state[2:]))
                   for n in range(model.num_actions))

    @lru_cache(maxsize=None)
    def theirs(state):
        n = int(opponent[state])
        return sum(value_of(k, float(p), mine) for k, p in model.transitions(state[0], state[1], n, state[2:]))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    start = (0, 0) + (0,) * len(model.context_shape)
    return mine(start), 1 - theirs(start)


@pytest.mark.parametrize("name, goal, max_dice",
                         [pytest.param("sp15", 25, 10, marks=pytest.mark.slow),
                          pytest.param("fa15", 25, 10, marks=pytest.mark.slow),
                                                  ("fa19", 16, 3)])
def test_best_response_by_two_tables_matches_a_recursion(name, goal, max_dice):
    """The pairwise pass (Hogtimus points, Piggy Back, memories) against a plain recursion."""
    rules = get_rules(name, goal=goal).replace(max_dice=max_dice)
    model = compile_model(rules)
    opponent = tabulate(random_strategy(3, rules), rules)
    br = best_response(opponent, rules, model=model)
    first, second = _best_response_by_transitions(model, opponent.table if hasattr(opponent, "table") else opponent)
    assert br.win_rate.first == pytest.approx(first, abs=1e-12)
    assert br.win_rate.second == pytest.approx(second, abs=1e-12)
    achieved = win_rate(br.policy, opponent, rules, model=model)
    assert achieved.average == pytest.approx(br.win_rate.average, abs=1e-12)


def test_best_response_by_two_tables_where_turns_can_score_nothing():
    """Memories with a Pig Out worth 0 (a sum can repeat): the pairwise pass iterates each sum
    to convergence; a plain value iteration over the model's transitions agrees."""
    rules = get_rules("fa19", goal=10).replace(max_dice=2, pig_out=0)
    model = compile_model(rules)
    assert not model.progressive
    opponent = tabulate(random_strategy(5, rules), rules)
    table = opponent.table if hasattr(opponent, "table") else opponent
    br = best_response(opponent, rules, model=model)
    g = model.goal
    states = list(np.ndindex(table.shape))
    moves = {(s, n): [(k if k in (model.win, model.loss) else divmod(k[0], g) + k[1:], float(p))
                      for k, p in model.transitions(s[0], s[1], n, s[2:])]
             for s in states for n in range(model.num_actions)}
    mine, theirs = dict.fromkeys(states, 0.5), dict.fromkeys(states, 0.5)

    def worth(outcomes, other):
        return sum(p if k == model.win else 0.0 if k == model.loss else p * (1 - other[k]) for k, p in outcomes)
    for _ in range(2000):
        change = 0.0
        for s in states:
            new_mine = max(worth(moves[s, n], theirs) for n in range(model.num_actions))
            new_theirs = worth(moves[s, int(table[s])], mine)
            change = max(change, abs(new_mine - mine[s]), abs(new_theirs - theirs[s]))
            mine[s], theirs[s] = new_mine, new_theirs
        if change < 1e-15:
            break
    start = (0, 0, 0, 0)
    assert br.win_rate.first == pytest.approx(mine[start], abs=1e-11)
    assert br.win_rate.second == pytest.approx(1 - theirs[start], abs=1e-11)


def test_a_best_response_to_an_endless_passer_is_refused_unless_a_draw_values_it():
    """Mistakes: the refusal's test of passes, of the draw rule or of zero dice inverted."""
    import hogsolve
    from hogsolve.solver.iteration import ConvergenceError
    sp22 = get_rules("sp22", goal=30)
    with pytest.raises(ConvergenceError, match=r"^sp22: always_roll:0 passes where a pass can be passed back, so the "
                                               r"best response to it may never end the game: an endless game"):
        hogsolve.best_response("always_roll:0", sp22)
    drawn = hogsolve.best_response("always_roll:0", sp22.replace(endless="draw"))
    assert 0.5 < drawn.win_rate.average <= 1
    assert hogsolve.best_response("always_roll:3", sp22).win_rate.average > 0.5  # no zero dice: no refusal


def test_regret_under_memories_names_each_states_memories():
    """Mistakes: the memories left out of the worst states, a solution of another ruleset used."""
    import hogsolve
    fa19 = get_rules("fa19", goal=15)
    report = hogsolve.regret("always_roll:4", fa19)
    rows = report.worst(5)
    assert len(rows) == 5
    for row in rows:
        assert set(row) == {"score", "opponent_score", "my_memory", "opponent_memory", "choice", "optimal", "loss",
                            "reach", "expected_loss"}
        where = (row["score"], row["opponent_score"], row["my_memory"], row["opponent_memory"])
        assert row["expected_loss"] == report.loss[where] * report.reach[where] and row["choice"] == 4
    with pytest.raises(ValueError, match="^the solution is for su18 at goal 15, not fa19 at goal 15"):
        hogsolve.regret("always_roll:4", fa19, solution=hogsolve.solve(get_rules("su18", goal=15)))


@pytest.mark.parametrize("name", ["fa20", "sp21"])
def test_a_best_response_under_extra_turns_is_worth_what_it_says(name):
    """Mistake: the best responder's own values left out where an extra turn keeps its move (the
    table then counts the opponent's): its policy, evaluated exactly by win_rate (another code
    path), must be worth the value the best response reports, and at least the optimum's."""
    import hogsolve
    rules = get_rules(name, goal=25)
    br = hogsolve.best_response("always_roll:5", rules)
    played = hogsolve.win_rate(br.policy, "always_roll:5", rules)
    assert played.average == pytest.approx(br.win_rate.average, abs=1e-12)
    assert br.win_rate.average >= hogsolve.win_rate("optimal", "always_roll:5", rules).average - 1e-12
