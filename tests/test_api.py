"""One call per job for every game (issue 37): the same six calls take a Hog ruleset or a
roll-or-hold game, by name or as an object, and give results with the same names; each
call's figures are those of the family's own function; anything else is a TypeError."""
import pytest

import hogsolve
from hogsolve import WinRate, get_pig_game, get_rules
from hogsolve.analysis import evaluate
from hogsolve.analysis.pig import evaluate as pig_evaluate
from hogsolve.analysis.montecarlo import SimulationResult
from hogsolve.solver.optimal import solve as solve_hog
from hogsolve.solver.pig import solve_pig

GAMES = [pytest.param("su18", id="su18-name"), pytest.param(get_rules("fa19", goal=40), id="fa19-object"),
         pytest.param("piglet", id="piglet-name"),
         pytest.param(get_pig_game("two-dice-pig", goal=30), id="2dice-object")]


def baseline(game):
    rules = hogsolve.resolve(game)[1]
    return "always_roll:4" if isinstance(rules, hogsolve.Ruleset) else "hold_at:20"


@pytest.mark.parametrize("game", GAMES)
def test_the_six_calls_take_every_game(game):
    family, rules = hogsolve.resolve(game)
    solution = hogsolve.solve(game)
    assert solution.game == rules and solution.ok and solution.message == "" and solution.certificate.proven
    assert solution.values.shape[:2] == solution.policy.shape[:2] == (rules.goal, rules.goal)
    assert set(solution.to_dict()) >= {"ok", "message", "certificate"}
    other = baseline(game)
    rate = hogsolve.win_rate("optimal", other, game)
    assert isinstance(rate, WinRate) and 0.5 < rate.average < 1
    response = hogsolve.best_response(other, game)
    assert isinstance(response.win_rate, WinRate) and response.exploitability == response.win_rate.average - 0.5
    assert response.policy.shape[:2] == (rules.goal, rules.goal) and set(response.to_dict()) >= {"win_rate"}
    regret = hogsolve.regret(other, game)
    assert isinstance(regret.win_rate, WinRate) and regret.total_expected_loss > 0 and regret.worst(3)
    assert regret.win_rate.average == pytest.approx(1 - hogsolve.win_rate("optimal", other, game).average, abs=1e-12)
    sim = hogsolve.simulate("optimal", other, game, games=2_000, seed=4)
    assert isinstance(sim, SimulationResult) and sim.games_first + sim.games_second == 2_000 and sim.seed == 4
    bot = hogsolve.optimal_strategy(game)
    assert bot.name == "optimal"
    assert isinstance(solution, hogsolve.Solution) and isinstance(response, hogsolve.BestResponse)
    assert isinstance(regret, hogsolve.Regret)
    assert solution.goal == rules.goal and solution.name == "optimal" and response.game == regret.game == rules
    assert set(response.to_dict()) >= {"opponent", "win_rate", "exploitability"}
    assert set(regret.to_dict(2)) == {"strategy", "win_rate_vs_optimal", "total_expected_loss", "worst_states"}
    assert regret.total_expected_loss == pytest.approx(float((regret.loss * regret.reach).sum()), abs=0)
    assert solution.first_player_win_probability == float(solution.values[(0,) * solution.values.ndim])


def test_each_call_gives_the_familys_own_figures():
    rules, pig = get_rules("fa18", goal=40), get_pig_game("pig", goal=25)
    assert hogsolve.solve(rules).values.tolist() == solve_hog(rules).values.tolist()
    assert hogsolve.solve(pig).values.tolist() == solve_pig(pig).values.tolist()
    assert hogsolve.solve("fa18", goal=40).policy.tolist() == solve_hog(rules).policy.tolist()
    a, b = hogsolve.always_roll(3), hogsolve.always_roll(6)
    assert hogsolve.win_rate(a, b, rules) == evaluate.win_rate(a, b, rules)
    hold = hogsolve.hold_at(15)
    assert hogsolve.win_rate(hold, hogsolve.hold_at(20), pig) == \
        pig_evaluate.pig_win_rate(hold, hogsolve.hold_at(20), pig)
    assert hogsolve.best_response(a, rules).win_rate == evaluate.best_response(a, rules).win_rate
    assert hogsolve.best_response(hold, pig).win_rate == pig_evaluate.pig_best_response(hold, pig).win_rate
    assert hogsolve.regret(hold, pig).total_expected_loss == pig_evaluate.pig_regret(hold, pig).total_expected_loss


def test_a_simulated_roll_or_hold_game_matches_its_exact_rate_per_seat():
    from hogsolve.util.stats import wilson_interval
    game = get_pig_game("pig", goal=25)
    bot = hogsolve.optimal_strategy(game)
    exact = hogsolve.win_rate(bot, hogsolve.hold_at(15), game)
    sim = hogsolve.simulate(bot, hogsolve.hold_at(15), game, games=40_000, seed=2)
    for simulated, true, n in ((sim.first, exact.first, sim.games_first), (sim.second, exact.second, sim.games_second)):
        low, high = wilson_interval(simulated, n, z=4.0)
        assert low <= true <= high
    assert (sim.a, sim.b) == ("optimal", "hold_at:15")


@pytest.mark.parametrize("call", ["solve", "win_rate", "best_response", "regret", "simulate", "optimal_strategy"])
def test_anything_else_is_a_type_error_saying_what_is_accepted(call):
    args = {"solve": ([1, 2],), "optimal_strategy": ([1, 2],), "win_rate": ("optimal", "optimal", [1, 2]),
            "simulate": ("optimal", "optimal", [1, 2]), "best_response": ("optimal", [1, 2]),
            "regret": ("optimal", [1, 2])}[call]
    with pytest.raises(TypeError, match="^expected a game's name .*, a Ruleset or a PigGame, got list$"):
        getattr(hogsolve, call)(*args)


def test_a_rule_file_by_its_name(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('name = "house"\nfree_bacon = "bacon_pig_tail"\ngoal = 30\n')
    solution = hogsolve.solve(str(path))
    assert solution.game.name == "house" and solution.game.goal == 30 and solution.ok
    assert hogsolve.solve(str(path), goal=20).game.goal == 20


def test_the_api_is_narrow_and_has_no_shims():
    """The mistake it catches: internals exported from the package root (the exact tie check,
    the chat room, each family's result kinds) or the roll-or-hold calls of before one call
    served every game, kept as deprecation shims."""
    for name in ("verify_ties", "ChatRoom", "solve_pig", "pig_win_rate",
                 "simulate_pig", "Family"):
        assert name not in hogsolve.__all__ and not hasattr(hogsolve, name), name
    assert len(hogsolve.__all__) <= 50


def test_a_solve_option_no_family_knows_is_refused():
    """The mistake it catches: an option swallowed silently by a family's solve."""
    with pytest.raises(TypeError):
        hogsolve.solve("su18", goal=20, chunk=3)
    with pytest.raises(TypeError):
        hogsolve.solve("pig", goal=20, model=None)


def test_the_public_api_is_fully_annotated():
    """Every function hogsolve and hogsolve.interop export, and every public method of every
    class they export, annotates each argument and its return (a dataclass field that holds a
    rule function is data, not a method)."""
    import inspect
    import hogsolve.interop as interop
    missing = []
    exported = [(name, getattr(hogsolve, name)) for name in hogsolve.__all__ if name != "__version__"]
    exported += [(f"interop.{name}", getattr(interop, name)) for name in interop.__all__]
    for label, obj in exported:
        functions = [(label, obj)] if inspect.isfunction(obj) else []
        if inspect.isclass(obj) and not getattr(obj, "_is_protocol", False):
            fields = getattr(obj, "__dataclass_fields__", {})
            functions += [(f"{label}.{name}", f) for name, f in vars(obj).items() if inspect.isfunction(f)
                          and name not in fields and (not name.startswith("_") or name == "__call__")]
        for where, function in functions:
            signature = inspect.signature(function)
            for name, parameter in signature.parameters.items():
                if name not in ("self", "cls") and parameter.kind not in (parameter.VAR_POSITIONAL,
                                                                          parameter.VAR_KEYWORD) \
                        and parameter.annotation is inspect.Parameter.empty:
                    missing.append(f"{where}({name})")
            if signature.return_annotation is inspect.Signature.empty:
                missing.append(f"{where} -> ?")
    assert missing == []


def test_every_job_returns_one_type_with_one_set_of_fields_for_every_game():
    """The mistake it catches: a family's own result kind (Hog's ``win_probability`` where Pig
    has ``value``, a best response or regret with fields only one family fills) or ``to_dict()``
    keys that differ by game, so a script written for su18 breaks on Pig (issue 52)."""
    import dataclasses

    def shape(result):
        fields = [f.name for f in dataclasses.fields(result)] if dataclasses.is_dataclass(result) else None
        return type(result), fields, sorted(result.to_dict())

    seen = {}
    for game, goal in [("su18", 25), ("fa19", 12), ("pig", 20), ("two-dice-pig", 15)]:
        best = hogsolve.optimal_strategy(game, goal=goal)
        other = "always_roll:4" if game in ("su18", "fa19") else "hold_at:8"
        results = [hogsolve.solve(game, goal=goal), hogsolve.win_rate(best, other, game, goal=goal),
                   hogsolve.best_response(other, game, goal=goal), hogsolve.regret(other, game, goal=goal),
                   hogsolve.simulate(best, other, game, goal=goal, games=200)]
        for job, result in zip(["solve", "win_rate", "best_response", "regret", "simulate"], results):
            seen.setdefault(job, {})[game] = shape(result)
    for job, by_game in seen.items():
        assert len(set(map(repr, by_game.values()))) == 1, (job, by_game)
    solved = hogsolve.solve("pig", goal=20)
    assert solved.values.shape == solved.policy.shape == (20, 20, 20) and solved.action_values is None
