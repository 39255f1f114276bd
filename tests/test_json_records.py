"""What ``--json`` and a result's repr say is the result itself: every key carries the
object's own figure (exact fractions as "p/q", decimals truncated as the docs say), so the
CLI, the API and the web show one number.  Checked against values worked out here
(Decimal arithmetic, the objects' fields), not against earlier output."""
from decimal import ROUND_DOWN, Decimal, localcontext
from fractions import Fraction

import numpy as np
import pytest

from hogsolve import always_roll, get_rules, solve
from hogsolve.analysis.evaluate import best_response, regret
from hogsolve.analysis.montecarlo import simulate
from hogsolve.solver.exact import ROUNDING_BOUND, verify, verify_ties
from hogsolve.solver.model import compile_model


def truncated(p: Fraction, digits: int) -> str:
    with localcontext() as ctx:
        ctx.prec = digits + 10
        return str((Decimal(p.numerator) / Decimal(p.denominator)).quantize(Decimal(1).scaleb(-digits),
                                                                           rounding=ROUND_DOWN))


@pytest.fixture(scope="module")
def su18():
    rules = get_rules("su18").replace(goal=30)  # 9 ties within the bound
    model = compile_model(rules)
    return rules, model, solve(rules, model=model)


def test_the_exact_check_in_json_and_in_words(su18):
    rules, model, solution = su18
    check = verify_ties(model, solution)
    p = check.win_probability_start
    assert isinstance(p, Fraction) and 0.5 < p < 1
    assert check.to_dict() == {
        "ok": True, "message": "", "iterations": int(check.iterations),
        "method": "exact values from the certified decisions; ties settled exactly",
        "win_probability_start": f"{p.numerator}/{p.denominator}",
        "win_probability_start_decimal": truncated(p, 30),
        "tie_states": check.tie_states, "exact_tie_states": check.exact_tie_states,
        "float_choice_changed": check.float_choice_changed, "max_value_error": check.max_value_error,
        "seconds": check.seconds}
    assert check.tie_states == len(solution.certificate.tie_states) > 0
    assert repr(check) == (f"TieCheck(P(first player wins) = {truncated(p, 30)}..., {check.tie_states} ties "
                           f"settled exactly ({check.exact_tie_states} exact ties, {check.float_choice_changed} "
                           f"float choices changed), float values within the certificate's bound, "
                           f"{check.seconds:.2f} s)")
    full = verify(model, solution)
    assert full.win_probability_start == p
    record = full.to_dict()
    assert record == {
        "ok": True, "message": "", "iterations": int(full.iterations),
        "method": "exact rational recomputation; stored values are the exact values correctly rounded to float64",
        "error_bound": ROUNDING_BOUND, "exact_tie_states": full.exact_tie_states,
        "min_decision_margin": full.min_decision_margin,
        "win_probability_start": f"{p.numerator}/{p.denominator}", "win_probability_start_decimal": truncated(p, 30),
        "proven": True, "float_policy_mismatches": full.float_policy_mismatches.tolist(),
        "max_value_error": full.max_value_error, "seconds": full.seconds}
    assert repr(full) == (
        f"ExactResult(P(first player wins) = {truncated(p, 30)}...\n"
        f"  as a fraction: {len(str(p.numerator))}-digit / {len(str(p.denominator))}-digit integers\n"
        f"  float policy mismatches = {len(full.float_policy_mismatches)}, exact ties = {full.exact_tie_states}\n"
        f"  max |float - exact| = {full.max_value_error:.3g}, time = {full.seconds:.1f} s)")


def test_a_simulation_in_json(su18):
    rules, model, _ = su18
    sim = simulate(always_roll(4), always_roll(6), rules, games=1001, seed=9, model=model)
    assert (sim.games_first, sim.games_second) == (500, 501)
    first, second = sim.wins_first / 500, sim.wins_second / 501
    assert sim.to_dict() == {"a": "always_roll:4", "b": "always_roll:6", "games": 1001, "first": first,
                             "second": second, "average": (first + second) / 2, "ci95": list(sim.interval),
                             "seed": 9, "seconds": sim.seconds}


def test_a_best_response_and_a_regret_in_json(su18):
    rules, model, solution = su18
    br = best_response(always_roll(4), rules, model=model)
    assert br.to_dict() == {"opponent": "always_roll:4", "win_rate": br.win_rate.to_dict(),
                            "exploitability": br.win_rate.average - 0.5, "opening_move": int(br.policy[0, 0])}
    assert repr(br) == (f"BestResponse(to always_roll:4: win rate {br.win_rate.average:.12f}, "
                        f"exploitability {br.win_rate.average - 0.5:.12f})")
    r = regret(always_roll(4), rules, model=model, solution=solution)
    record = r.to_dict(top=3)
    assert record["strategy"] == "always_roll:4" and record["win_rate_vs_optimal"] == r.win_rate.to_dict()
    assert record["total_expected_loss"] == r.total_expected_loss and len(record["worst_states"]) == 3
    assert record["worst_states"] == r.to_dict(top=3)["worst_states"] == [dict(s) for s in r.worst(3)]


def test_an_agent_evaluation_in_json():
    from hogsolve.analysis.evaluate import win_rate
    from hogsolve.interop import evaluate_agent
    rules = get_rules("su18", goal=30)
    result = evaluate_agent(lambda observation: 4 if observation[0] < 20 else 2, rules, worst=3)
    table = np.where(np.arange(30)[:, None] < 20, 4, 2) * np.ones((30, 30), dtype=int)
    assert np.array_equal(result.table, table)
    exact = win_rate(table, always_roll(4), rules)
    assert result.to_dict() == {
        "game": "su18", "goal": 30, "against_optimal": result.against_optimal.to_dict(),
        "against_baseline": {**exact.to_dict(), "baseline": "always_roll:4"},
        "best_response_win_rate": best_response(table, rules).win_rate.average,
        "exploitability": best_response(table, rules).win_rate.average - 0.5,
        "worst_states": regret(table, rules).to_dict(top=3)["worst_states"]}
    assert len(result.worst_states) == 3


@pytest.mark.parametrize("name", ["su18", "fa19"])
def test_the_worst_states_are_the_largest_expected_losses_with_their_own_figures(name):
    """``worst(top)``: the states of the ``top`` largest loss x reach (ties in index order),
    each row naming its own scores (and memories) and that state's figures."""
    rules = get_rules(name).replace(goal=30)
    r = regret(always_roll(4), rules)
    rows = r.worst(12)
    e = r.loss * r.reach
    order = sorted((i for i in np.ndindex(e.shape) if e[i] > 0),
                   key=lambda i: (-e[i], np.ravel_multi_index(i, e.shape)))
    assert len(rows) == 12
    for row, where in zip(rows, order[:12]):
        assert (row["score"], row["opponent_score"]) == where[:2]
        if len(where) > 2:
            assert (row["my_memory"], row["opponent_memory"]) == where[2:]
        else:
            assert "my_memory" not in row
        assert row["choice"] == 4 and row["optimal"] == int(r.optimal_policy[where])
        assert (row["loss"], row["reach"], row["expected_loss"]) == (r.loss[where], r.reach[where], e[where])
    assert len(r.worst(10 ** 6)) == int((e > 0).sum())


def test_an_agent_is_evaluated_in_the_game_and_goal_asked_for():
    from hogsolve.interop import evaluate_agent
    by_name = evaluate_agent(lambda observation: 3, "fa18", goal=30)
    assert (by_name.game, by_name.goal, by_name.table.shape, len(by_name.worst_states)) == ("fa18", 30, (30, 30), 10)
    pig = evaluate_agent(lambda observation: int(observation[2] >= 10), game="piglet", goal=8)
    assert (pig.game, pig.goal, pig.baseline, pig.table.shape[:2]) == ("piglet", 8, "hold_at:2", (8, 8))


@pytest.mark.slow
def test_the_tie_check_counts_and_settles_ties_as_a_plain_recursion_does(su18):
    """Among the certificate's ties: exact ties (two counts worth exactly the same) counted,
    the fewest dice among the exactly best chosen, changed choices counted; every state's
    value exact; the float values within the bound of it."""
    from test_bound_check import _plain_exact_values
    rules, model, solution = su18
    value, action = _plain_exact_values(model)
    check = verify_ties(model, solution)
    ties = [tuple(map(int, s)) for s in solution.certificate.tie_states]
    exact_ties = changed = 0
    for state in ties:
        best = [n for n in range(model.num_actions) if action(state, n) == value(state)]
        exact_ties += len(best) > 1
        changed += best[0] != int(solution.policy[state])
        assert int(check.policy[state]) == best[0]
    assert (check.tie_states, check.exact_tie_states, check.float_choice_changed) == (len(ties), exact_ties, changed)
    assert exact_ties > 0 and check.policy.dtype == np.int8
    assert check.win_probability_start == value((0, 0))
    worst = max(abs(float(value(s)) - solution.values[s]) for s in np.ndindex(solution.policy.shape))
    assert check.max_value_error == pytest.approx(worst, abs=2 ** -53)
    assert check.error_bound == solution.certificate.error_bound and 0 < check.seconds < 60


def test_the_note_on_a_files_output_counts_its_lines():
    from hogsolve.strategy.userfile import CapturedOutput
    assert CapturedOutput(1, "x").note("hog.py") == "note: hog.py printed 1 line (hidden; --show-output shows them)"
    assert CapturedOutput(2, "x").note("hog.py", shown=True) == "note: hog.py printed 2 lines (below)"
    assert CapturedOutput(0, "").note("a.py").startswith("note: a.py printed 0 lines ")


def test_a_bound_check_in_json_and_in_words(su18):
    from hogsolve.solver.bound_check import check_hog_policy
    from hogsolve.util.stable import bound_text
    rules, model, solution = su18
    check = check_hog_policy(model, solution.values, solution.policy)
    assert check.proven and check.settled > 0
    fields = ("game", "decisions", "error_bound", "min_margin", "worse", "ties", "worst", "seconds", "settled")
    assert check.to_dict() == {"ok": True, "message": "", "iterations": check.decisions,
                               "method": "rigorous error bound", "proven": True,
                               **{k: getattr(check, k) for k in fields}}
    assert repr(check) == (f"proof by error bound: 900 decisions, each above every other action by more than 2 x "
                           f"{bound_text(check.error_bound)} (smallest margin {check.min_margin:.2g}, "
                           f"{check.settled} ties settled exactly; {check.seconds:.1f} s): every decision proven")
    planted = solution.policy.copy()
    q = solution.action_values[5, 5]
    planted[5, 5] = int(np.argsort(q)[-2])
    wrong = check_hog_policy(model, solution.values, planted)
    assert repr(wrong).endswith(f": WRONG: {wrong.reason}") and wrong.reason.startswith("1 decisions are worse")
    record = wrong.to_dict()
    assert record["message"] == wrong.reason and "reason" not in record and record["proven"] is False


def test_results_name_their_strategies():
    from hogsolve.analysis.evaluate import win_rate
    for rules in (get_rules("su18", goal=20), get_rules("fa19", goal=12).replace(max_dice=6)):
        rate = win_rate(always_roll(3), always_roll(5), rules)
        assert (rate.a, rate.b) == ("always_roll:3", "always_roll:5")
        br = best_response(always_roll(4), rules)
        assert (br.win_rate.a, br.win_rate.b) == ("best response to always_roll:4", "always_roll:4")
        assert br.game == rules and br.values.shape == br.policy.shape
        assert br.values[(0,) * br.policy.ndim] == pytest.approx(br.win_rate.first, abs=1e-12)
        r = regret(always_roll(4), rules)
        assert (r.win_rate.a, r.win_rate.b) == ("always_roll:4", "optimal")
