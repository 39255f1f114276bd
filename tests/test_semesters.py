"""Every built-in semester against the course's official examples: calls and results from
CS 61A's public project files and official test cases for that semester (each below
with the call as the course wrote it), as docs/reference/rulesets.md describes.

CS 61A's functions are mapped onto hogsolve's: ``free_bacon(opp)`` and the
semester's named zero-dice rule onto :func:`zero_dice_points`, ``is_swap``
onto the swap rule, the after-turn helpers (``hog_pile``, ``pigs_on_prime``,
``sus_update``...) onto the bonus rule, ``take_turn``/``roll_dice`` onto the
engine with CS 61A's ``make_test_dice``, and ``play`` onto :func:`hogsolve.play`.
"""
import itertools

import pytest

from hogsolve import get_rules, play, rulesets, solve
from hogsolve.hog.engine import take_turn
from hogsolve.hog.rules import zero_dice_points
from hogsolve.strategy.named import always_roll
from reference import recursive_values


def make_test_dice(*outcomes):
    """CS 61A's make_test_dice: a die cycling through ``outcomes``."""
    cycle = itertools.cycle(outcomes)
    return lambda: next(cycle)


def turn_points(rules, num_rolls, opponent_score, dice=None, score=0):
    """CS 61A's take_turn: the points of one turn (before any after-turn rule)."""
    roll = (lambda sides: dice()) if dice is not None else (lambda sides: 1)
    return take_turn(rules, 0, score, opponent_score, num_rolls, roll).points


def end_score(rules, num_rolls, score, opponent_score, dice=None):
    """CS 61A's sus_update / square_update: the mover's score after the turn and its bonus."""
    roll = (lambda sides: dice()) if dice is not None else (lambda sides: 1)
    return take_turn(rules, 0, score, opponent_score, num_rolls, roll).new_score


def final(rules, s0_strategy, s1_strategy, dice, **kwargs):
    return play(s0_strategy, s1_strategy, rules, dice=dice, **kwargs).scores


THREES = make_test_dice(3)


def strat0(score, opponent):
    """The official tests' first strategy."""
    return opponent % 10


def strat1(score, opponent):
    """The official tests' second strategy (su19 onward)."""
    return max((score // 10) - 4, 0)


def assert_simulation_and_exploitability(rules, sol, seed):
    """Monte Carlo of optimal vs always_roll:4 inside the exact win rate's 3.3-sigma band, and the
    optimal table unexploitable beyond its certificate's bound."""
    from hogsolve import best_response, simulate, win_rate
    exact = win_rate(sol, always_roll(4), rules)
    sim = simulate(sol, always_roll(4), rules, games=200_000, seed=seed)
    assert abs(sim.average - exact.average) <= 3.3 * sim.standard_error
    assert best_response(sol, rules).exploitability <= sol.certificate.error_bound


def hog_wild_dice():
    """The official tests' dice for Hog Wild semesters: four-sided always 1, six-sided always 3."""
    return {4: make_test_dice(1), 6: make_test_dice(3)}


def assert_hog_wild_examples(rules, pig_out_points):
    """The examples the Hog Wild semesters share: select_dice, take_turn, play stopping at 106."""
    assert rules.dice_sides(4, 24) == 4 and rules.dice_sides(16, 64) == 6 and rules.dice_sides(0, 0) == 4
    assert turn_points(rules, 2, 0, make_test_dice(4, 6, 1), score=1) == 10
    assert turn_points(rules, 3, 0, make_test_dice(4, 6, 1), score=1) == pig_out_points
    assert turn_points(rules, 0, 35) == 6
    assert final(rules, always_roll(5), always_roll(3), hog_wild_dice(), score0=91, score1=10)[0] == 106


def assert_shared_examples(rules, score=0):
    """The examples many semesters share: two take_turn rolls and play stopping at its goal."""
    assert turn_points(rules, 2, 0, make_test_dice(4, 5, 1), score=score) == 9
    assert turn_points(rules, 3, 0, make_test_dice(4, 6, 1), score=score) == 1
    assert final(rules, always_roll(5), always_roll(3), make_test_dice(3), score0=91, score1=10)[0] == 106
    assert final(rules, always_roll(5), always_roll(5), make_test_dice(3), goal=10)[0] == 15


def test_sp14_is_fa13():
    rules = get_rules("sp14")
    assert rules.name == "fa13"
    assert rules.dice_sides(4, 24) == 4 and rules.dice_sides(16, 64) == 6
    assert turn_points(rules, 2, 0, make_test_dice(4, 6, 1), score=1) == 10
    assert turn_points(rules, 3, 20, make_test_dice(4, 6, 1), score=1) == 1
    dice = {4: make_test_dice(1), 6: make_test_dice(3)}
    assert final(rules, always_roll(5), always_roll(5), dice) == (92, 106)
    dice = {4: make_test_dice(1), 6: make_test_dice(3)}
    assert final(rules, always_roll(2), always_roll(2), dice) == (17, 102)
    dice = {4: make_test_dice(1), 6: make_test_dice(3)}
    assert final(rules, always_roll(2), always_roll(10), dice) == (19, 120)
    dice = {4: make_test_dice(1), 6: make_test_dice(3)}
    assert final(rules, always_roll(0), always_roll(0), dice) == (91, 103)


def test_su15():
    rules = get_rules("su15")
    assert rules.swaps(19, 91) and not rules.swaps(20, 40) and rules.swaps(41, 14)
    assert_hog_wild_examples(rules, pig_out_points=1)
    assert final(rules, always_roll(5), always_roll(5), hog_wild_dice(), goal=10)[0] == 1
    assert final(rules, always_roll(5), always_roll(3), hog_wild_dice(), score0=36, score1=15, goal=50)[0] == 15
    assert final(rules, always_roll(5), always_roll(3), hog_wild_dice(), score0=98, score1=31)[0] == 31


@pytest.mark.parametrize("name, bacon", [("fa17", {35: 6, 71: 8, 7: 8}), ("sp18", {35: 4, 71: 8, 7: 9, 0: 2})])
def test_fa17_and_sp18(name, bacon):
    rules = get_rules(name)
    assert {o: int(zero_dice_points(rules, 0, o)) for o in bacon} == bacon
    assert not rules.swaps(19, 91) and rules.swaps(20, 40) and rules.swaps(40, 20)
    assert turn_points(rules, 2, 0, make_test_dice(4, 6, 1)) == 10
    assert turn_points(rules, 3, 0, make_test_dice(4, 6, 1)) == 1
    assert turn_points(rules, 0, 35) == bacon[35]
    assert final(rules, always_roll(5), always_roll(3), make_test_dice(3), score0=91, score1=10)[0] == 106
    assert final(rules, always_roll(5), always_roll(5), make_test_dice(3), goal=10)[0] == 15
    assert final(rules, always_roll(4), always_roll(3), make_test_dice(3), score0=88, score1=20)[0] == 20
    if name == "fa17":
        assert final(rules, always_roll(4), always_roll(4), make_test_dice(3), score0=87, score1=88)[0] == 99
    else:
        strat0 = lambda score, opponent: opponent % 10  # noqa: E731 (the official test's own)
        strat1 = lambda score, opponent: score // 10  # noqa: E731
        assert final(rules, strat0, strat1, make_test_dice(3), score0=41, score1=80)[0] == 51


def test_su19():
    rules = get_rules("su19")
    assert [int(zero_dice_points(rules, 0, o)) for o in (35, 71, 9)] == [7, 9, 10]
    assert not rules.swaps(56, 32) and rules.swaps(56, 35) and not rules.swaps(89, 91)
    assert_shared_examples(rules)
    assert turn_points(rules, 0, 56) == 5
    assert final(rules, always_roll(5), always_roll(5), make_test_dice(3), goal=15)[0] == 15
    assert final(rules, strat0, strat1, make_test_dice(7), score0=71, score1=80)[0] == 108


def test_fa21():
    rules = get_rules("fa21")
    assert [rules.bonus(a, b) for a, b in ((25, 43), (32, 33), (7, 7))] == [0, 0, 7]
    assert [int(zero_dice_points(rules, 0, n)) for n in (0, 1, 2)] == [7, 1, 4]
    assert_shared_examples(rules)
    assert turn_points(rules, 0, 2) == 4
    assert final(rules, always_roll(3), always_roll(3), make_test_dice(3), goal=15)[0] == 9
    assert final(rules, strat0, strat1, make_test_dice(7), score0=71, score1=80)[0] == 75


def test_su22():
    rules = get_rules("su22")
    assert int(zero_dice_points(rules, 5, 123)) == 1 and int(zero_dice_points(rules, 5, 584)) == 12
    assert [rules.bonus(a, b) for a, b in ((25, 43), (7, 7), (32, 33))] == [0, 4, 0]
    assert_shared_examples(rules, score=5)
    assert turn_points(rules, 0, 41, score=3) == 7
    assert final(rules, always_roll(3), always_roll(3), make_test_dice(3), goal=15)[0] == 18
    assert final(rules, always_roll(1), always_roll(1), make_test_dice(3), goal=5)[0] == 5


def test_fa22_and_sp23():
    rules = get_rules("sp23")
    assert rules.name == "fa22"
    assert [s + rules.bonus(s, 0) for s in (1, 9, 64)] == [4, 16, 81]  # next_perfect_square
    assert rules.bonus(2, 0) == 0
    assert [int(zero_dice_points(rules, 0, o)) for o in (25, 52, 0)] == [7, 7, 1]
    assert turn_points(rules, 2, 0, make_test_dice(4, 5, 1)) == 9
    assert turn_points(rules, 3, 0, make_test_dice(4, 6, 1)) == 1
    assert turn_points(rules, 0, 41) == 7


def test_fa23_onward():
    for semester in ("fa23", "sp24", "su24", "fa24", "su25", "fa25"):
        assert get_rules(semester).name == "fa23"
    rules = get_rules("fa23")
    assert [int(zero_dice_points(rules, s, o)) for s, o in ((21, 46), (52, 79), (0, 0))] == [9, 15, 1]
    assert [s + rules.bonus(s, 0) for s in (1, 21, 25)] == [1, 23, 29]  # sus_points
    assert end_score(rules, 2, 5, 7, make_test_dice(2, 4)) == 11
    assert end_score(rules, 0, 15, 37) == 23
    assert end_score(rules, 2, 2, 3, make_test_dice(4)) == 11
    assert turn_points(rules, 2, 27, make_test_dice(4, 5, 1), score=7) == 9
    assert turn_points(rules, 3, 9, make_test_dice(4, 6, 1), score=15) == 1
    assert turn_points(rules, 0, 41, score=12) == 6


@pytest.mark.parametrize("name", [n for n in rulesets() if n not in ("su18", "fa18", "fa13", "fa14", "sp22", "hog")
                                  and get_rules(n).history is None])
@pytest.mark.parametrize("goal",
                         [1, 2, pytest.param(11, marks=pytest.mark.slow), pytest.param(14, marks=pytest.mark.slow),
                          pytest.param(25, marks=pytest.mark.slow)])
def test_solver_matches_a_plain_recursion(name, goal):
    """The new rules through the compiled model agree with a recursion over the rules' text."""
    rules = get_rules(name, goal=goal)
    solution = solve(rules)
    value, _ = recursive_values(rules)
    worst = max(abs(solution.values[s, o] - value(s, o)) for s in range(goal) for o in range(goal))
    assert worst <= solution.certificate.error_bound + 1e-15


def test_fa20_extra_turns():
    rules = get_rules("fa20")
    assert [int(zero_dice_points(rules, 0, o)) for o in (0, 1, 2)] == [6, 4, 7]
    # official pig_pass(5, 4), pig_pass(13, 10), pig_pass(7, 10) are False (and no Swine Align there)
    assert not any(rules.extra_turn(a, b) for a, b in ((5, 4), (13, 10), (7, 10)))
    assert rules.extra_turn(8, 10) and rules.extra_turn(9, 10)  # Pig Pass: trailing by 2 or 1
    # official swine_align(11, 22) and swine_align(36, 24) are True; (2, 40) has neither rule
    assert not rules.extra_turn(2, 40) and rules.extra_turn(11, 22) and rules.extra_turn(36, 24)
    assert_shared_examples(rules)
    assert turn_points(rules, 0, 2) == 7
    assert final(rules, always_roll(5), always_roll(5), make_test_dice(3), goal=25)[0] == 15  # Swine Align
    assert final(rules, always_roll(5), always_roll(5), make_test_dice(3), goal=15)[0] == 15
    turns = play(always_roll(5), always_roll(5), rules, dice=make_test_dice(3), goal=25).turns
    assert [t.mover for t in turns] == [0, 1, 1]  # 15 vs 15: gcd 15, the second player goes again and wins


def test_sp21_extra_turns():
    rules = get_rules("sp21")
    assert rules.extra_turn(21, 43) and not rules.extra_turn(32, 33) and rules.extra_turn(6, 18)
    assert [int(zero_dice_points(rules, 0, o)) for o in (4, 10, 94)] == [4, 3, 6]
    assert_shared_examples(rules)
    assert turn_points(rules, 0, 2) == 7
    assert final(rules, always_roll(6), always_roll(2), make_test_dice(3), goal=25)[0] == 36  # More Boar
    assert final(rules, always_roll(5), always_roll(5), make_test_dice(3), goal=15)[0] == 15


@pytest.mark.parametrize("name", ["fa20", "sp21"])
def test_extra_turns_everywhere_downstream(name):
    """Exact evaluation, simulation and reach all follow who keeps the move."""
    from hogsolve.solver.model import compile_model
    from hogsolve.analysis.policy_values import occupancy
    rules = get_rules(name)
    sol = solve(rules)
    assert_simulation_and_exploitability(rules, sol, seed=4)
    # every game visits (0, 0) once with its first mover, and expected visits are probabilities
    visits = occupancy(compile_model(rules), sol.policy.astype(int), sol.policy.astype(int))
    assert visits[0, 0] == pytest.approx(0.5) and visits.min() >= 0


def test_sp17_ones_and_primes():
    from hogsolve.hog.rules import roll_points
    rules = get_rules("sp17")
    ones = rules.pig_out_rule
    assert roll_points([1, 2, 3, 1], 1, ones) == 2           # roll_dice(4, make_test_dice(1, 2, 3))
    assert roll_points([1] * 9, 1, ones) == 2                # roll_dice(9, make_test_dice(1))
    assert roll_points([1, 2, 1, 1, 2, 1, 1], 1, ones) == 4  # roll_dice(7, make_test_dice(1, 2, 1))
    assert not rules.swaps(19, 91) and rules.swaps(20, 40) and rules.swaps(40, 20)
    assert_hog_wild_examples(rules, pig_out_points=1)
    assert final(rules, always_roll(5), always_roll(5), hog_wild_dice(), goal=10)[0] == 7
    assert final(rules, always_roll(5), always_roll(3), hog_wild_dice(), score0=2, score1=40, goal=50)[0] == 24
    assert final(rules, always_roll(4), always_roll(3), hog_wild_dice(), score0=88, score1=20)[0] == 100


def test_fa15_and_sp16_piggy_back():
    rules = get_rules("sp16")
    assert rules.name == "fa15" and rules.piggy_back
    assert rules.swaps(19, 91) and not rules.swaps(20, 40) and rules.swaps(41, 14)
    assert_hog_wild_examples(rules, pig_out_points=0)
    assert turn_points(rules, 1, 0, make_test_dice(3), score=1) == 5   # Hogtimus Prime: 3 -> 5
    assert turn_points(rules, 0, 60) == 11                               # 7 -> 11
    assert final(rules, always_roll(5), always_roll(5), hog_wild_dice(), goal=10)[0] == 0  # by Piggy Back
    assert final(rules, always_roll(5), always_roll(3), hog_wild_dice(), score0=36, score1=15, goal=50)[0] == 15
    assert final(rules, always_roll(5), always_roll(3), hog_wild_dice(), score0=98, score1=31)[0] == 31
    turn = take_turn(rules, 0, 0, 0, 5, lambda sides: 1)
    assert turn.piggy_back and (turn.new_score, turn.new_opponent_score) == (0, 5)


def test_piggy_back_everywhere_downstream():
    from hogsolve import simulate, win_rate
    from hogsolve.solver.model import compile_model
    from hogsolve.analysis.policy_values import occupancy
    rules = get_rules("fa15")
    sol = solve(rules)
    assert sol.certificate.proven and sol.certificate.stay_probability == 0
    exact = win_rate(sol, always_roll(6), rules)
    sim = simulate(sol, always_roll(6), rules, games=200_000, seed=8)
    assert abs(sim.average - exact.average) <= 3.3 * sim.standard_error
    model = compile_model(rules)
    visits = occupancy(model, sol.policy.astype(int), sol.policy.astype(int))
    assert visits[0, 0] == pytest.approx(0.5) and visits.min() >= 0
    assert all(sum(p for _, p in model.transitions(s, o, n)) == 1 for s, o in ((0, 0), (50, 97)) for n in range(11))


@pytest.mark.parametrize("name, bacon, swaps, no_swaps, bacon_56, strategies_end", [
    ("fa19", {35: 7, 71: 9, 9: 10}, [(28, 4)], [(2, 4), (22, 4)], 5, 108),
    ("sp20", {4: 3, 1: 2, 20: 9}, [(1, 0)], [(2, 4), (11, 1)], 13, 78),
    ("su20", {4: 6, 1: 9, 20: 12}, [(11, 1)], [(2, 4), (1, 0)], 9, None),
])
def test_feral_hogs_semesters(name, bacon, swaps, no_swaps, bacon_56, strategies_end):
    """fa19, sp20, su20: the official examples (their play() cases turn Feral Hogs off)."""
    rules = get_rules(name)
    assert rules.history is not None
    assert {o: int(zero_dice_points(rules, 0, o)) for o in bacon} == bacon
    assert all(rules.swaps(a, b) for a, b in swaps) and not any(rules.swaps(a, b) for a, b in no_swaps)
    assert turn_points(rules, 0, 56) == bacon_56
    assert turn_points(rules, 2, 0, make_test_dice(4, 5, 1)) == 9
    assert turn_points(rules, 3, 0, make_test_dice(4, 6, 1)) == 1
    off = {"feral_hogs": False}
    assert final(rules, always_roll(5), always_roll(3), make_test_dice(3), score0=91, score1=10, **off)[0] == 106
    assert final(rules, always_roll(5), always_roll(5), make_test_dice(3), goal=10, **off)[0] == 15
    assert final(rules, always_roll(5), always_roll(5), make_test_dice(3), goal=15, **off)[0] == 15
    if strategies_end is not None:
        assert final(rules, strat0, strat1, make_test_dice(7), score0=71, score1=80, **off)[0] == strategies_end
    else:
        assert final(rules, always_roll(5), always_roll(2), make_test_dice(3), goal=25, **off)[0] == 36


def test_feral_hogs_bonus_follows_each_players_memory():
    """+3 when this turn's dice differ by exactly 2 from what the mover remembers."""
    fa19, sp20 = get_rules("fa19"), get_rules("sp20")
    # fa19 remembers dice: rolling 2 at the start (memory 0) earns the bonus
    turns = play(always_roll(2), always_roll(4), fa19, dice=make_test_dice(3), goal=30).turns
    assert [t.feral_bonus for t in turns[:4]] == [3, 0, 0, 0]
    feral = {"kind": "feral_hogs", "name": "Feral Hogs", "text": "Feral Hogs: +3 points", "points": 3}
    assert turns[0].new_score == 6 + 3 and feral in turns[0].events()
    # sp20 remembers points: 3 dice of 2s score 6, then rolling 4 dice is |4 - 6| = 2 -> bonus
    first = iter([3])
    turns = play(lambda s, o: next(first, 4), always_roll(1), sp20, dice=make_test_dice(2), goal=40).turns
    assert [t.feral_bonus for t in turns[:3]] == [0, 0, 3]
    assert not play(always_roll(2), always_roll(4), fa19, dice=make_test_dice(3), goal=30,
                    feral_hogs=False).turns[0].feral_bonus


def test_sp22_hefty_hogs_and_hog_pile():
    rules = get_rules("sp22")
    assert [int(zero_dice_points(rules, 5, o)) for o in (123, 456)] == [9, 29]
    assert [rules.bonus(a, b) for a, b in ((25, 43), (32, 33), (7, 7))] == [0, 0, 7]
    assert turn_points(rules, 2, 0, make_test_dice(4, 5, 1), score=5) == 9
    assert turn_points(rules, 3, 0, make_test_dice(4, 6, 1), score=5) == 1
    assert turn_points(rules, 0, 2, score=3) == 9
    assert final(rules, always_roll(5), always_roll(3), make_test_dice(3), score0=91, score1=10)[0] == 106
    assert final(rules, always_roll(5), always_roll(5), make_test_dice(3), goal=10)[0] == 15
    assert final(rules, always_roll(3), always_roll(3), make_test_dice(3), goal=15)[0] == 9
    assert final(rules, strat0, strat1, make_test_dice(7), score0=71, score1=80)[0] == 91
    assert int(zero_dice_points(rules, 30, 0)) == 1  # our reading of 0: one digit 0, (30 + 1) % 30


@pytest.mark.parametrize("name",
                         ["fa19", pytest.param("sp20", marks=pytest.mark.slow),
                          pytest.param("su20", marks=pytest.mark.slow)])
@pytest.mark.parametrize("goal, max_dice", [(7, 4), pytest.param(15, 5, marks=pytest.mark.slow)])
def test_feral_hogs_solver_matches_a_plain_recursion(name, goal, max_dice):
    """Every state (both memories included) against a recursion that keeps raw, uncapped
    memories: a capping or memory-update mistake in the model shows up here."""
    import sys
    from reference import feral_values
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    rules = get_rules(name).replace(goal=goal, max_dice=max_dice)  # small enough for plain Python
    solution = solve(rules)
    assert solution.certificate.proven
    value, action_value = feral_values(rules)
    size = rules.context_shape[0]
    raw = list(range(size)) + ([size + 4, 40] if rules.history.remembers == "points" else [])
    worst = 0.0
    for s in range(goal):
        for o in range(goal):
            for a in raw:
                for b in raw:
                    i, j = rules.context_index((a, b))
                    worst = max(worst, abs(solution.values[s, o, i, j] - value(s, o, a, b)))
    assert worst <= solution.certificate.error_bound + 1e-15
    # and the chosen dice are optimal by the recursion's own action values
    s, o = 3, 5
    best = max(action_value(s, o, 2, 4, n) for n in range(max_dice + 1))
    assert action_value(s, o, 2, 4, solution.policy[s, o, 2, 4]) == pytest.approx(best, abs=1e-12)


@pytest.mark.parametrize("name, goal",
                         [pytest.param("fa19", 40, marks=pytest.mark.slow),
                          pytest.param("fa19", 100, marks=pytest.mark.slow),
                          pytest.param("sp20", 100, marks=pytest.mark.slow)])
def test_feral_hogs_everywhere_downstream(name, goal):
    """Exact win rates, best response, regret and Monte Carlo all follow the memories; a
    student's 2-argument strategy is evaluated exactly as one that ignores them."""
    from hogsolve import best_response, regret, win_rate
    rules = get_rules(name, goal=goal)
    sol = solve(rules)
    assert_simulation_and_exploitability(rules, sol, seed=5)
    report = regret(always_roll(4), rules, solution=sol)
    # performance difference: the per-state expected losses add up to the shortfall
    assert report.total_expected_loss == pytest.approx(0.5 - report.win_rate.average, abs=1e-12)
    assert report.reach[0, 0, 0, 0] == pytest.approx(0.5)
    # the best response to always_roll:4 uses the memories, does at least as well as the optimal
    # table against it, and its own table replays to the same win rate
    br = best_response(always_roll(4), rules)
    assert br.policy.shape == (goal, goal) + rules.context_shape
    assert (br.policy != br.policy[:, :, :1, :1]).any()
    assert br.win_rate.average >= win_rate(sol, always_roll(4), rules).average - 1e-12
    assert win_rate(br, always_roll(4), rules).average == pytest.approx(br.win_rate.average, abs=1e-12)


def test_sp22_has_no_value_and_says_why():
    """Hefty Hogs lets both players pass forever at (72, 75) and prefer it: no value exists."""
    from hogsolve.hog.rules import NO_VALUE
    rules = get_rules("sp22")
    assert int(zero_dice_points(rules, 72, 75)) == 0 and int(zero_dice_points(rules, 75, 72)) == 0
    solution = solve(rules)
    assert not solution.certificate.proven
    assert "(72, 75) and (75, 72)" in solution.certificate.reason and "no value" in solution.certificate.reason
    assert "sp22" in NO_VALUE
    # rolling there is worth less to each than the other's turn: R1 + R2 < 1
    rolls = solution.action_values[..., 1:].max(axis=-1)
    assert rolls[72, 75] + rolls[75, 72] < 0.95


def test_sp15_prime_sum_leader_gains():
    """sp15: the official examples, the four play() games included (they settle the reading)."""
    from hogsolve.hog.components import _tables_for
    is_prime = _tables_for(900)[0]
    assert is_prime[61] and not is_prime[48] and is_prime[857]
    rules = get_rules("sp15")
    assert rules.dice_sides(4, 24) == 4 and rules.dice_sides(16, 64) == 6 and rules.dice_sides(0, 0) == 4
    assert turn_points(rules, 2, 0, make_test_dice(4, 6, 1), score=1) == 10
    assert turn_points(rules, 3, 20, make_test_dice(4, 6, 1), score=1) == 1
    assert turn_points(rules, 0, 35) == 6
    games = {(5, 5): (106, 46), (2, 2): (57, 104), (2, 10): (7, 126), (0, 0): (74, 106)}
    for (a, b), scores in games.items():
        assert final(rules, always_roll(a), always_roll(b), hog_wild_dice()) == scores
    # the leader gains, whoever moved: 10 against 20 ending on sum 31 (prime) gives the opponent +1
    turn = take_turn(rules, 0, 10, 20, 0, lambda sides: 3)  # Free Bacon 1 + 2 = 3: 13 vs 20, sum 33
    assert (turn.new_score, turn.new_opponent_score) == (13, 20)
    turn = take_turn(rules, 0, 8, 20, 0, lambda sides: 3)   # 11 vs 20: sum 31 is prime, 20 leads
    assert (turn.new_score, turn.new_opponent_score) == (11, 23)


def test_every_semester_of_the_course_is_listed():
    """`hogsolve rules` names every semester of the course's rule history (sp14 to fa25):
    built in, an alias, or not built in with the reason."""
    from hogsolve.hog.rules import ALIASES, NOT_BUILT_IN
    course = [f"{term}{year:02d}" for year in range(14, 26) for term in ("sp", "su", "fa")]
    known = set(rulesets()) | set(ALIASES) | set(NOT_BUILT_IN)
    assert [s for s in course if s not in known] == []
    with pytest.raises(ValueError, match="fa16 is not built in: Pork Chop"):
        get_rules("fa16")
    for semester in ("su16", "su17", "sp19", "su21", "sp25"):  # each refused with what is not known of it
        with pytest.raises(ValueError, match=f"^{semester} is not built in: .{{30}}"):
            get_rules(semester)


def test_neller_hog_against_plain_value_iteration():
    """Neller's Hog: 1 to 10 dice, any 1 scores 0 (the state can repeat), no zero-dice move."""
    from reference import iterated_values
    rules = get_rules("hog", goal=15)
    solution = solve(rules)
    assert solution.certificate.proven and 0 < solution.certificate.error_bound < 1e-9
    assert solution.certificate.stay_probability == pytest.approx(1 - (5 / 6) ** 10)  # 10 dice, any 1
    reference = iterated_values(rules)
    worst = max(abs(solution.values[s, o] - p) for (s, o), p in reference.items())
    assert worst <= solution.certificate.error_bound + 1e-13
    assert solution.policy.min() >= 1  # zero dice is never chosen: it is not a move
    from hogsolve.strategy.policy import StrategyError
    with pytest.raises(StrategyError, match="expected an int from 1 to 10"):
        play(always_roll(0), always_roll(3), rules, seed=1)
