"""The solver against independent slow implementations."""
from fractions import Fraction

import numpy as np
import pytest

from hogsolve import Ruleset, compile_model, get_rules, solve
from hogsolve.solver.kinds import backup_all
from hogsolve.solver.certificate import certify, tie_broken_policy
from hogsolve.solver.iteration import lean_optimal_values, optimal_values
from hogsolve.analysis.policy_values import deviation_gains, play_values
from hogsolve.solver.stages import stage_plan
from reference import iterated_values, recursive_values, stagewise_values

NAMES = ["su18", "fa18", "fa13", "fa14"]


@pytest.mark.parametrize("name", NAMES)
def test_matches_plain_recursion_at_goal_30(name):
    rules = get_rules(name, goal=30)
    solution = solve(rules)
    value, action_value = recursive_values(rules)
    for s in range(30):
        for o in range(30):
            assert solution.values[s, o] == pytest.approx(value(s, o), abs=1e-13)
            q = [action_value(s, o, n) for n in range(11)]
            assert solution.action_values[s, o] == pytest.approx(q, abs=1e-13)
            best = max(q)
            if sorted(q)[-2] < best - 1e-9:  # a clear decision: the same dice count
                assert solution.policy[s, o] == q.index(best)


@pytest.mark.parametrize("name", ["su18", "fa13"])
def test_exact_mode_matches_fraction_recursion(name):
    rules = get_rules(name, goal=15)
    solution = solve(rules, exact=True)
    value, action_value = recursive_values(rules, exact=True)
    assert solution.exact.win_probability_start == value(0, 0)
    assert isinstance(value(0, 0), Fraction)
    # exact policy: fewest dice among the exactly optimal counts
    for s in range(15):
        for o in range(15):
            q = [action_value(s, o, n) for n in range(11)]
            assert solution.policy[s, o] == q.index(max(q))
    assert solution.exact.max_value_error <= solution.certificate.error_bound


@pytest.mark.parametrize("name", NAMES)
def test_no_single_state_deviation_improves(name):
    rules = get_rules(name)
    solution = solve(rules)
    model = compile_model(rules)
    gains = deviation_gains(model, solution.policy)
    assert gains.max() <= solution.certificate.error_bound
    # and the policy's own value is the optimal value
    values, _ = play_values(model, solution.policy, solution.policy)
    assert np.abs(values - solution.values).max() <= solution.certificate.error_bound


@pytest.mark.parametrize("name", NAMES)
def test_certificate_is_sound(name):
    c = solve(get_rules(name)).certificate
    assert c.proven and 0 < c.error_bound < 1e-11
    assert c.max_bellman_residual <= c.backup_error
    assert c.min_decision_margin > c.tie_threshold
    assert c.tie_states.shape[1] == 2


def test_ties_break_to_fewest_dice():
    # fa13 at 98 against 3: every dice count wins for sure (Free Bacon scores
    # 1 + 3 = 4; a roll scores at least 1 and no doubling swap is possible).
    solution = solve(get_rules("fa13"))
    q = solution.action_values[98, 3]
    assert np.abs(q - 1.0).max() <= solution.certificate.tie_threshold  # rounding differs by count
    assert solution.policy[98, 3] == 0
    # everywhere: the choice is optimal within the tie threshold, and no count
    # with fewer dice reaches the best value
    q = solution.action_values
    best = q.max(axis=2)
    chosen = np.take_along_axis(q, solution.policy[..., None].astype(int), axis=2)[..., 0]
    assert (chosen >= best - solution.certificate.tie_threshold).all()
    assert (solution.policy <= np.argmax(q == best[..., None], axis=2)).all()


def lean_against_general(rules):
    """The lean one-pass sweep and the general sweep plus a fresh backup, certified alike."""
    model = compile_model(rules)
    plan = stage_plan(model)
    assert plan is not None
    values, action_values, result = lean_optimal_values(model, plan)
    general, _, general_result = optimal_values(model)
    fresh = backup_all(model, general)
    lean, other = certify(model, values, action_values, result), certify(model, general, fresh, general_result)
    assert np.array_equal(values, general)
    moves = np.isfinite(fresh)  # -inf: a dice count that is no move
    assert np.array_equal(np.isfinite(action_values), moves)
    assert np.abs(action_values[moves] - fresh[moves]).max() <= 2 * lean.backup_error  # two roundings of one backup
    assert np.array_equal(action_values.max(axis=-1), values)  # its own action values: no residual
    assert lean.proven and lean.max_bellman_residual == 0
    assert np.array_equal(lean.tie_states, other.tie_states)
    assert np.array_equal(tie_broken_policy(action_values, lean.tie_threshold),
                          tie_broken_policy(fresh, other.tie_threshold))
    return model, action_values


@pytest.mark.parametrize("name", ["su18", "fa13", "fa20", "sp21", "fa21", "su22"])
def test_the_lean_sweep_is_the_general_one(name):
    """Plain rules, extra turns (fa20, sp21) and turns that end the game below the goal (fa21, su22)."""
    lean_against_general(get_rules(name))


def test_the_lean_sweep_without_a_zero_dice_move():
    rules = get_rules("hog", goal=30).replace(name="hog-scoring", pig_out=1, free_bacon=get_rules("su18").free_bacon)
    _, action_values = lean_against_general(rules)
    assert np.isneginf(action_values[..., 0]).all() and np.isfinite(action_values[..., 1:]).all()


@pytest.mark.parametrize("goal", [2, 7, 12, pytest.param(20, marks=pytest.mark.slow),
                                  pytest.param(31, marks=pytest.mark.slow)])
def test_the_mirrored_sweep_is_the_iterated_one(goal):
    """Neller's Hog (a 1 scores nothing, so a turn can hand the same scores to the opponent):
    each state solved with its mirror in one pass gives the exact values to 1e-15 (a plain
    recursion in Fractions up to goal 12), the iterated sweep's to its stopping tolerance,
    and its policy and ties, with a proof."""
    rules = get_rules("hog", goal=goal)
    model = compile_model(rules)
    values, action_values, result = lean_optimal_values(model, stage_plan(model))
    general, _, general_result = optimal_values(model)
    fresh = backup_all(model, general)
    mirrored, iterated = certify(model, values, action_values, result), certify(model, general, fresh, general_result)
    if goal <= 12:
        exact = stagewise_values(rules, exact=True)
        assert max(abs(float(v) - values[state]) for state, v in exact.items()) <= 1e-15
    assert np.abs(values - general).max() <= iterated.error_bound
    moves = np.isfinite(fresh)
    assert np.array_equal(np.isfinite(action_values), moves)
    assert np.abs(action_values[moves] - fresh[moves]).max() <= iterated.error_bound
    assert mirrored.proven and mirrored.max_bellman_residual <= 4 * mirrored.backup_error
    assert np.array_equal(mirrored.tie_states, iterated.tie_states)
    assert np.array_equal(tie_broken_policy(action_values, mirrored.tie_threshold),
                          tie_broken_policy(fresh, iterated.tie_threshold))


def test_the_mirrored_stage_by_enumeration_agrees_with_its_policy_iteration(monkeypatch):
    """Every pair of actions enumerated (the fallback when policy iteration does not settle)
    finds the same values as policy iteration, at every score sum of Neller's Hog."""
    import hogsolve.solver.mirrored as mirrored
    model = compile_model(get_rules("hog", goal=25))
    plan = stage_plan(model)
    rounds, _, _ = lean_optimal_values(model, plan)
    monkeypatch.setattr(mirrored, "ROUNDS", 0)
    enumerated, action_values, result = lean_optimal_values(model, plan)
    assert np.abs(enumerated - rounds).max() <= 1e-15
    assert certify(model, enumerated, action_values, result).proven
    # a pair with a real choice: the fixed point of u = max(1 - r - z w), w likewise
    r = np.array([[np.inf, np.inf], [0.2, 0.6], [0.1, 0.55]])
    z = np.array([0.0, 0.3, 0.5])
    u = mirrored._enumerated(r, z)
    for i, j in ((0, 1), (1, 0)):
        assert u[i] == pytest.approx(max(1 - r[n, i] - z[n] * u[j] for n in (1, 2)), abs=1e-15)


@pytest.mark.parametrize("name, goal", [("sp15", 20), pytest.param("sp15", 33, marks=pytest.mark.slow), ("fa15", 20),
                                        pytest.param("fa15", 33, marks=pytest.mark.slow)])
def test_the_gathering_sweep_is_the_general_one(name, goal):
    """A points bonus (sp15) and Piggy Back (fa15) in one pass gathering each state's landings:
    the general sweep's values and fresh backup to 1e-15, its policy and ties, with a proof."""
    from hogsolve.solver.iteration import gathered_optimal_values
    from hogsolve.solver.stages import gather_plan
    model = compile_model(get_rules(name, goal=goal))
    values, action_values, result = gathered_optimal_values(model, gather_plan(model))
    general, _, general_result = optimal_values(model)
    fresh = backup_all(model, general)
    gathered, other = certify(model, values, action_values, result), certify(model, general, fresh, general_result)
    assert np.abs(values - general).max() <= 1e-15
    assert np.abs(action_values - fresh).max() <= 1e-15
    assert gathered.proven and gathered.max_bellman_residual == 0
    assert np.array_equal(gathered.tie_states, other.tie_states)
    assert np.array_equal(tie_broken_policy(action_values, gathered.tie_threshold),
                          tie_broken_policy(fresh, other.tie_threshold))


@pytest.mark.parametrize("name", ["fa19", "sp20"])
def test_a_feral_pass_keeps_the_backup_of_its_finished_table(name):
    """Under Feral Hogs every turn scores, so each sum's action values, computed once from
    larger sums already final, are bit for bit a fresh backup of the finished table (solve
    keeps them instead of backing up twice), and the certificate proves them."""
    model = compile_model(get_rules(name, goal=24))
    values, kept, result = optimal_values(model, keep_action_values=True)
    assert np.array_equal(kept, backup_all(model, values))
    solution = solve(get_rules(name, goal=24))
    assert np.array_equal(solution.action_values, kept) and solution.certificate.proven
    assert solution.certificate.max_bellman_residual == 0


def test_solve_takes_the_one_pass_sweep_where_it_applies():
    lean = solve(get_rules("fa20"))  # covered: its action values are its own backup
    assert lean.certificate.max_bellman_residual == 0 and lean.certificate.proven
    gathered = solve(get_rules("fa15"))  # Piggy Back: the gathering pass, its own backup too
    assert gathered.certificate.max_bellman_residual == 0 and gathered.certificate.proven
    general = solve(pig_out_zero(20))  # a 0-point turn under su18's swap: iterated, and a fresh backup
    assert general.certificate.max_bellman_residual > 0 and general.certificate.proven


def test_the_stage_plan_covers_what_it_says():
    covered = {name: stage_plan(compile_model(get_rules(name, goal=20))) for name in
               ("su18", "fa20", "fa21", "fa15", "sp15", "fa19", "hog")}
    assert covered["su18"].plain and not covered["fa20"].plain and not covered["fa21"].plain
    assert [name for name, plan in covered.items() if plan is None] == ["fa15", "sp15", "fa19"]
    model = compile_model(get_rules("su18", goal=20))
    stages = stage_plan(model).stages
    assert [stage.k for stage in stages] == list(range(38, -1, -1))
    for stage in stages:  # each sum's states, by rising opponent score, as a strided slice
        flat = np.arange(model.num_states)[stage.states]
        assert np.array_equal(flat, model.diagonals[stage.k].flat)


def pig_out_zero(goal):
    return get_rules("su18", goal=goal).replace(name="su18-pig0", pig_out=0)


def test_pig_out_zero_iterates_to_the_right_answer():
    rules = pig_out_zero(12)
    solution = solve(rules)
    ref = iterated_values(rules)
    for (s, o), v in ref.items():
        assert solution.values[s, o] == pytest.approx(v, abs=1e-12)
    c = solution.certificate
    assert c.method.startswith("iterated") and c.updates > 2 * 12 - 1
    assert 0 < c.stay_probability < 1 and c.proven
    # the converged values leave no profitable deviation
    gains = deviation_gains(compile_model(rules), solution.policy)
    assert gains.max() <= c.error_bound
    from hogsolve.solver.optimal import solve as solve_in_rationals
    with pytest.raises(ValueError, match="exact mode"):
        solve_in_rationals(rules, exact=True)  # no rationals where a turn can score nothing
    assert not solve(rules, exact=True).proof.wrong  # hogsolve.solve checks it by the error bound instead


def test_user_ruleset_from_own_functions():
    def bacon(opp):  # ints only: no numpy
        return 2 if opp % 2 else 3

    rules = Ruleset("mine", "own rules", free_bacon=bacon, swaps=lambda s, o: s == o + 1,
                    dice_sides=lambda s, o: 8 if s > o else 6, goal=25, max_dice=5)
    solution = solve(rules)
    value, _ = recursive_values(rules)
    for s in range(25):
        for o in range(25):
            assert solution.values[s, o] == pytest.approx(value(s, o), abs=1e-13)
