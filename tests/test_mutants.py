"""Tests aimed at one-line mistakes that once survived the suite.

Each test names the mistake it catches.
"""
import itertools
import json
import random
import shutil
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import hogsolve.strategy.optimal_bot as player
from hogsolve import best_response, get_rules, solve, tournament
from hogsolve.cli import main
from hogsolve.strategy.optimal_bot import PlayerWarning, optimal_strategy
from hogsolve.sibala.rules import NO_POINT, Variant, evaluate
from hogsolve.sinbad.bots import TrackingBot
from hogsolve.sinbad.room import Message
from hogsolve.strategy.named import always_roll
from hogsolve.solver.tables import write_solution
from hogsolve.version import __version__
from shipped import copy_shipped

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", ["fa13", "fa14"])
def test_best_response_breaks_ties_like_the_exact_solver(name):
    """Mistake: the best response's tie threshold set to 0 (rounding then picks among ties)."""
    rules = get_rules(name)
    exact_policy = np.load(ROOT / "solutions" / name / "policy.npy")
    br = best_response(optimal_strategy(rules), rules)
    assert np.array_equal(br.policy, exact_policy)


def test_tournament_ranks_best_first_whatever_the_order_given():
    """Mistake: the ranking left in the order the strategies were given."""
    rules = get_rules("su18", goal=40)
    result = tournament([always_roll(1), always_roll(10), always_roll(5), solve(rules)], rules,
                        names=["one", "ten", "five", "optimal"])
    ranking = result.ranking()
    means = [r["mean_win_rate"] for r in ranking]
    assert ranking[0]["strategy"] == "optimal" and means == sorted(means, reverse=True)
    assert [r["rank"] for r in ranking] == [1, 2, 3, 4]


def test_player_refuses_a_table_of_another_goal(tmp_path, monkeypatch):
    """Mistake: the player accepting a correctly signed table for another goal (or ruleset)."""
    shipped = copy_shipped(tmp_path / "shipped", "su18")
    shutil.rmtree(shipped / "su18")
    write_solution(solve(get_rules("su18", goal=30)), shipped / "su18", __version__)
    monkeypatch.setattr(player, "shipped_tables", lambda: shipped)
    monkeypatch.setenv("HOGSOLVE_CACHE", str(tmp_path / "cache"))
    with pytest.warns(PlayerWarning, match="holds su18 at goal 30, not su18 at goal 100"):
        bot = optimal_strategy("su18")
    assert bot.table.shape == (100, 100) and bot(0, 0) == 10


def rerolled_odds(dice):
    """Beats/ties/loses of ``dice`` against a random roll re-rolled until it scores: by listing rolls."""
    me = evaluate(dice, Variant())
    outcomes = [0, 0, 0]
    for roll in itertools.product(range(1, 7), repeat=4):
        other = evaluate(list(roll), Variant())
        if other.category == NO_POINT:
            continue
        mine, theirs = me.strength(), other.strength()
        outcomes[0 if mine > theirs else 1 if mine == theirs else 2] += 1
    total = sum(outcomes)
    return [Fraction(c, total) for c in outcomes]


def test_sibala_hand_reroll_changes_the_odds(capsys):
    """Mistake: `sibala hand --reroll` ignored."""
    assert main(["sibala", "hand", "6622", "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main(["sibala", "hand", "6622", "--reroll", "--json"]) == 0
    rerolled = json.loads(capsys.readouterr().out)
    expected = rerolled_odds([6, 6, 2, 2])
    got = [Fraction(rerolled[k]) for k in ("beats", "ties", "loses")]
    assert got == expected
    assert got != [Fraction(plain[k]) for k in ("beats", "ties", "loses")]


def tracker_after_giving_cards():
    """A tracker who has just given 'b' two cards of ham, while 'c' also offers two."""
    bot = TrackingBot("me", random.Random(0))
    items = (("bacon", 10), ("ham", 15), ("sausage", 20))
    hand = ["bacon"] * 5 + ["ham"] * 2 + ["sausage"] * 2
    for m in (Message("round 1", None, ("round", 1, items)),
              Message("", "me", ("hand", tuple(hand))),
              Message("b offers 2", None, ("offer", "b", 2)),
              Message("c offers 2", None, ("offer", "c", 2))):
        bot.observe(m)
    bot.act(hand)
    bot.pending = "ham"
    for m in (Message("me trades 2 with b", None, ("trade", "me", "b", 2)),
              Message("", "me", ("received", "b", "sausage", 2)),
              Message("b offers 2", None, ("offer", "b", 2))):
        bot.observe(m)
    return bot, ["bacon"] * 5 + ["sausage"] * 4


def test_tracker_does_not_take_its_own_cards_back():
    """Mistake: the tracker's rule 'an offer right after I gave that player cards is my own cards
    coming back' removed."""
    bot, hand = tracker_after_giving_cards()
    assert bot.target_chance("b", 2, "bacon") < bot.target_chance("c", 2, "bacon") / 3
    choice = bot.choose_offer_to_take(hand, __import__("collections").Counter(hand), "bacon")
    assert choice is not None and choice[0] == "c"


def test_tracker_can_act_before_a_round_and_ignores_status_words():
    bot = TrackingBot("me", random.Random(1))
    assert bot.act(["bacon"] * 9) == "hog"  # no AttributeError before any round
    bot.observe(Message("b is away", None, ("status", "b", "away")))
    assert bot.players == {"b"}
