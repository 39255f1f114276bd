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


def test_every_state_every_action_sums_to_one():
    model = compile_model(get_rules("fa13", goal=40))
    for s in range(40):
        for o in range(40):
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
