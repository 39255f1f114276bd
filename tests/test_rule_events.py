"""Every rule that changes a turn is an event of the engine, named as its semester named it,
and shown by the terminal and the web game alike.

The check is an account, not a comparison with earlier output: every point a turn moved
beyond the dice's own must be carried by a named event (Feral Hogs, a bonus, Hogtimus
Prime, Piggy Back), a swap must be an event exactly when the swap rule holds on the scores
before it, an extra turn exactly when the mover moves again, and the zero-dice, Pig Out,
Hog Wild and turn-score rules exactly when their components say they applied.
"""
from __future__ import annotations

import json
import random
import http.client

import pytest

from gui_helpers import running_server
from hogsolve.hog.engine import play
from hogsolve.hog.rules import (RULE_NAMES, no_bonus, no_extra_turn, roll_points, rulesets, same_score,
                                six_sided, turn_points, zero_dice_points)
from hogsolve.sessions.hog_terminal import describe_turn

GAMES = 12
MOVER_GAINS = ("feral_hogs", "bonus", "points_bonus")


def _mixed(rules, seed):
    """A strategy of every dice count (zero too, where it is a move), seeded."""
    rng = random.Random(seed)
    low, high = int(rules.min_dice), int(rules.max_dice)
    return lambda score, opponent_score, *memory: rng.choice([low, low, 1, 2, 3, 4, 5, 6, high])


def _check_turn(rules, turn, next_mover):
    """The account of one turn (see the module docstring); the kinds it names."""
    events = turn["events"]
    kinds = [e["kind"] for e in events]
    for event in events:
        assert event["text"].startswith(event["name"]), event
    mover_pre, opponent_pre = (turn["new_opponent_score"], turn["new_score"]) if turn["swapped"] else \
        (turn["new_score"], turn["new_opponent_score"])
    mine = sum(e["points"] for e in events if e["kind"] in MOVER_GAINS and e.get("player") != "opponent")
    theirs = sum(e["points"] for e in events if e.get("player") == "opponent")
    assert mover_pre - turn["score"] - turn["points"] == mine, turn
    assert opponent_pre - turn["opponent_score"] == theirs, turn
    assert ("swine_swap" in kinds) == turn["swapped"] == bool(rules.swaps(mover_pre, opponent_pre)), turn
    over = max(turn["new_score"], turn["new_opponent_score"]) >= rules.goal
    if next_mover is not None and not over:
        assert ("extra_turn" in kinds) == (next_mover == turn["mover"]), turn
    assert ("free_bacon" in kinds) == (turn["num_dice"] == 0), turn
    assert ("pig_out" in kinds) == (1 in turn["outcomes"]), turn
    assert ("hog_wild" in kinds) == (turn["num_dice"] > 0 and turn["sides"] != 6), turn
    raw = int(zero_dice_points(rules, turn["score"], turn["opponent_score"])) if turn["num_dice"] == 0 else \
        roll_points(turn["outcomes"], rules.pig_out, rules.pig_out_rule)
    assert turn["points"] == int(turn_points(rules, raw, turn["num_dice"]))
    assert ("turn_score" in kinds) == (turn["points"] != raw), turn
    names = {e["kind"]: e["name"] for e in events}
    for kind, field in (("free_bacon", "free_bacon"), ("pig_out", "pig_out"), ("bonus", "bonus"),
                        ("swine_swap", "swaps"), ("turn_score", "turn_score"), ("points_bonus", "points_bonus")):
        if kind in names:
            assert names[kind] == rules.rule_name(field)
    return set(kinds)


def _kinds_the_rules_have(rules):
    """The event kinds this ruleset can produce, from its components."""
    kinds = {"free_bacon", "pig_out"} if rules.min_dice == 0 else {"pig_out"}
    optional = [(rules.bonus is not no_bonus, "bonus"), (rules.extra_turn is not no_extra_turn, "extra_turn"),
                (rules.turn_score is not same_score, "turn_score"), (rules.points_bonus is not None, "points_bonus"),
                (rules.history is not None, "feral_hogs"), (rules.piggy_back, "piggy_back"),
                (rules.dice_sides is not six_sided, "hog_wild"), (rules.swaps.__name__ != "never_swap", "swine_swap")]
    return kinds | {kind for present, kind in optional if present}


@pytest.mark.parametrize("name", list(rulesets()))
def test_every_rule_the_engine_applies_is_named_in_the_terminal_log(name):
    """Mistakes: a rule applied with no event (fa23's Sus Fuss, su22's Pigs on Prime), an event
    with the wrong points or the wrong semester's name, a terminal line that drops one."""
    rules = rulesets()[name]
    seen = set()
    for game in range(GAMES):
        result = play(_mixed(rules, game), _mixed(rules, 1000 + game), rules, seed=game, max_turns=2000)
        turns = result.turns
        for i, turn in enumerate(turns):
            plain = turn.to_dict()
            seen |= _check_turn(rules, plain, turns[i + 1].mover if i + 1 < len(turns) else None)
            line = describe_turn(turn, "You")
            for event in plain["events"]:
                assert event["text"] in line, (line, event)
    missing = _kinds_the_rules_have(rules) - seen
    assert not missing, f"{name}: {GAMES} seeded games never showed {missing}"


def test_the_names_are_the_courses():
    """The semesters' own names, as RULESETS.md gives them."""
    named = {name: {kind: rules.rule_name(kind) for kind in RULE_NAMES} for name, rules in rulesets().items()}
    assert named["fa23"]["free_bacon"] == "Boar Brawl" and named["fa23"]["bonus"] == "Sus Fuss"
    assert [name for name in named if named[name]["pig_out"] == "Sow Sad"] == ["sp22", "su22", "fa22", "fa23"]
    assert named["sp17"]["pig_out"] == "Pig Out" and named["fa19"]["history"] == "Feral Hogs"
    assert named["su22"]["free_bacon"] == "Oink Points" and named["fa18"]["free_bacon"] == "Free Bacon"
    assert named["su22"]["bonus"] == "Pigs on Prime" and named["fa22"]["bonus"] == "Square Swine"
    assert named["fa22"]["free_bacon"] == "Pig Tail" and named["sp22"]["free_bacon"] == "Hefty Hogs"
    assert named["sp22"]["bonus"] == named["fa21"]["bonus"] == "Hog Pile"
    assert named["fa21"]["free_bacon"] == "Picky Piggy" and named["sp21"]["free_bacon"] == "Piggy Points"
    assert named["sp21"]["extra_turn"] == "More Boar" and named["sp15"]["points_bonus"] == "Hogtimus Prime"
    assert named["sp17"]["turn_score"] == "Hogtimus Prime"
    fa20 = rulesets()["fa20"]
    assert fa20.extra_turn_name(18, 20) == "Pig Pass" and fa20.extra_turn_name(30, 20) == "Swine Align"


def _request(port, method, path, body=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request(method, path, body=json.dumps(body) if body is not None else None,
                 headers={"Content-Type": "application/json"})
    response = conn.getresponse()
    data = json.loads(response.read())
    conn.close()
    return response.status, data


@pytest.mark.parametrize("name", ["fa23"] + [pytest.param(n, marks=pytest.mark.slow)
                                            for n in ("su22", "fa22", "sp15", "fa20", "fa15")])
def test_the_web_game_names_the_same_rules(name):
    """The browser game's turns carry the engine's events (the page shows each ``text``)."""
    rules = rulesets()[name]
    seen = set()
    with running_server() as (_, port):
        for game in range(4):
            status, state = _request(port, "POST", "/api/games", {"rules": name, "first": "you", "seed": game})
            for _ in range(100):
                if status == 202:  # the bot is still loading
                    status, state = _request(port, "POST", "/api/games", {"rules": name, "first": "you", "seed": game})
                    continue
                break
            assert status == 201, state
            rng = random.Random(game)
            while state["winner"] is None:
                status, state = _request(port, "POST", f"/api/games/{state['id']}/move",
                                         {"dice": rng.choice([0, 1, 2, 4, 6, 8])})
                assert status == 200, state
            turns = state["turns"]
            for i, turn in enumerate(turns):
                seen |= _check_turn(rules, turn, turns[i + 1]["mover"] if i + 1 < len(turns) else None)
    assert seen & (_kinds_the_rules_have(rules) - {"free_bacon", "pig_out"})  # its own rule fired on the page


def test_a_rule_file_names_its_rules_or_is_refused():
    from hogsolve.hog.rulefile import RuleFileError, from_dict
    rules = from_dict({"name": "mine", "free_bacon": "bacon_pig_tail", "names": {"free_bacon": "Tail Wind"}})
    assert rules.rule_name("free_bacon") == "Tail Wind" and rules.rule_name("pig_out") == "Pig Out"
    for bad in ({"wobble": "x"}, {"free_bacon": ""}, {"free_bacon": "a\nb"}, ["free_bacon"]):
        with pytest.raises(RuleFileError, match="names"):
            from_dict({"name": "mine", "free_bacon": "bacon_pig_tail", "names": bad})
