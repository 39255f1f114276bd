"""The compiled model agrees with the rules as written, transition by transition."""
import random

import pytest

from hogsolve import compile_model, get_rules, Ruleset
from reference import outcome_distribution


def model_outcomes(model, s, o, n):
    g = model.goal
    out = {}
    for nxt, p in model.transitions(s, o, n):
        key = "win" if nxt == model.win else "loss" if nxt == model.loss else divmod(nxt, g)
        out[key] = out.get(key, 0) + p
    return out


@pytest.mark.parametrize("name", ["su18", "fa18", "fa13", "fa14"])
def test_transitions_match_reference(name):
    rules = get_rules(name)
    model = compile_model(rules)
    rng = random.Random(name)
    states = [(0, 0), (99, 99), (90, 50), (41, 92), (34, 5), (91, 12), (7, 7)]
    states += [(rng.randrange(100), rng.randrange(100)) for _ in range(60)]
    for s, o in states:
        for n in range(11):
            assert model_outcomes(model, s, o, n) == outcome_distribution(rules, s, o, n, exact=True), (s, o, n)


@pytest.mark.slow  # kept out of the default tier for its time; CI runs the slow tier
def test_every_state_every_action_sums_to_one():
    model = compile_model(get_rules("fa13", goal=25))
    for s in range(25):
        for o in range(25):
            for n in range(11):
                assert sum(p for _, p in model.transitions(s, o, n)) == 1


def test_progressive_detection():
    assert compile_model(get_rules("su18")).progressive
    zero = get_rules("su18", goal=20).replace(pig_out=0)
    assert not compile_model(zero).progressive


def test_negative_free_bacon_rejected():
    rules = Ruleset("neg", "bad", free_bacon=lambda o: o - 5, goal=10)
    with pytest.raises(ValueError, match="negative"):
        compile_model(rules)


def test_the_model_kind_is_decided_once_and_routes_every_algorithm():
    """Feature flags from the compiled arrays; the kinds table sends each ruleset to the
    backup, lean pass, slot kernel and exact path its features allow."""
    from hogsolve.analysis.policy_values import slots_supported
    from hogsolve.solver.backup import LandingTable, OutcomeTable
    from hogsolve.solver.history import HistoryTable
    from hogsolve.solver.kinds import outcome_table
    from hogsolve.solver.exact import ExactUnsupported, check_exact_supported
    from hogsolve.solver.kinds import backup_kind, covers
    from hogsolve.solver.model import Feature, cached_model
    from hogsolve.solver.stages import stage_plan
    expected = {"su18": Feature.NONE, "fa19": Feature.MEMORIES, "fa20": Feature.EXTRA_TURNS,
                "sp15": Feature.POINTS_LANDING, "fa15": Feature.PIGGY_BACK,
                "hog": Feature.ZERO_POINT_TURNS}
    for name, features in expected.items():
        model = cached_model(get_rules(name))
        assert model.features == features, name
        table = outcome_table(model)
        assert type(table) is {"history": HistoryTable, "landing": LandingTable,
                               "outcome": OutcomeTable}[backup_kind(model)]
        assert (stage_plan(model) is not None) == covers(model, "lean pass") == (name in ("su18", "fa20", "hog"))
        assert covers(model, "lean policy pass") == (name in ("su18", "fa20"))
        assert covers(model, "gather pass") == (name in ("su18", "sp15", "fa15"))
        assert slots_supported(model) == covers(model, "slot kernel") == (name in ("su18", "fa20", "hog"))
        exact = covers(model, "exact")
        assert exact == (name in ("su18", "fa20", "sp15", "fa15"))
        if not exact:
            with pytest.raises(ExactUnsupported):
                check_exact_supported(model)
