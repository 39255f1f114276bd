"""Sibala: the kata's six examples, the variants, exact odds checked by hand."""
import itertools
import json
from fractions import Fraction

import pytest

from cli_helpers import run_main
from hogsolve.cli import main
from hogsolve.sibala import ALL_OF_A_KIND, NO_POINT, NORMAL_POINT, SibalaError, Variant, compare, evaluate, odds
from hogsolve.sibala.odds import banker_value, hand_odds
from hogsolve.sessions.sibala_terminal import play_house


@pytest.mark.parametrize("black, white, line", [
    ([5, 3, 5, 4], [2, 6, 2, 3], "White win. - with normal point: 9"),
    ([5, 5, 5, 5], [2, 6, 2, 3], "Black win. - with all of a kind: 5"),
    ([3, 5, 5, 5], [4, 1, 4, 2], "White win. - with normal point: 3"),
    ([3, 4, 5, 5], [4, 1, 4, 6], "White win. - with normal point: 7"),
    ([3, 5, 5, 5], [4, 1, 3, 6], "Tie."),
    ([3, 6, 5, 5], [4, 4, 3, 6], "Tie."),
])
def test_kata_examples(black, white, line):
    assert compare(black, white) == line


def test_hands():
    assert evaluate([1, 1, 2, 2]).points == 4 and evaluate([6, 6, 2, 2]).points == 12
    assert evaluate((2, 2, 6, 1)).tie_die == 6 and evaluate([5, 5, 3, 4]).tie_die == 4
    assert compare([2, 2, 6, 1], [5, 5, 3, 4]).startswith("Black win")
    assert evaluate([1, 2, 3, 4]).category == NO_POINT
    assert evaluate([4, 4, 4, 2]).category == NO_POINT
    # all of a kind: 1 > 4 > 6 > 5 > 3 > 2
    order = [1, 4, 6, 5, 3, 2]
    for a, b in zip(order, order[1:]):
        assert compare([a] * 4, [b] * 4) == f"Black win. - with all of a kind: {a}"
    assert compare([6] * 4, [6, 6, 6, 5]).startswith("Black")


def test_variants():
    triple = Variant(triple_scores=True)
    hand = evaluate([5, 5, 5, 3], triple)
    assert (hand.category, hand.points, hand.tie_die) == (NORMAL_POINT, 8, 5)
    assert compare([3, 5, 5, 5], [4, 1, 4, 2], triple) == "Black win. - with normal point: 8"
    face = Variant(face_rank=True)
    assert compare([1] * 4, [6] * 4, face) == "White win. - with all of a kind: 6"
    assert compare([1] * 4, [6] * 4) == "Black win. - with all of a kind: 1"


@pytest.mark.parametrize("bad", [[1, 2, 3], [1, 2, 3, 4, 5], [0, 1, 2, 3], [7, 1, 2, 3],
                                 [1, 2, 3, 2.0], [True, 2, 3, 4], "1234", None])
def test_bad_dice(bad):
    with pytest.raises(SibalaError):
        evaluate(bad)


def test_odds_by_hand_counting():
    table = odds()
    assert table.categories[ALL_OF_A_KIND] == Fraction(6, 1296)
    # no point: all different 6*5*4*3 = 360, three of a kind + 1: 6*5*4 = 120
    assert table.categories[NO_POINT] == Fraction(480, 1296)
    # 3 (BG): a pair of 3..6 with a 1 and a 2: 4 faces x 12 orders
    assert table.points[3] == Fraction(48, 1296)
    # 12: 6 6 with another pair k k, k != 6: 5 x 6 orders
    assert table.points[12] == Fraction(30, 1296)
    assert sum(table.points.values()) + table.categories[ALL_OF_A_KIND] + table.categories[NO_POINT] == 1
    one = table.one_roll_each
    assert one.beats == one.loses and sum(one) == 1
    assert table.to_dict()["one_roll_each"]["tie"] == f"{one.ties.numerator}/{one.ties.denominator}"


@pytest.mark.slow
def test_odds_against_brute_force_pairs():
    rolls = list(itertools.product(range(1, 7), repeat=4))[::7]  # a sample of Black's rolls
    wins = 0
    for b in rolls:
        for w in itertools.product(range(1, 7), repeat=4):
            wins += compare(b, w).startswith("Black")
    expected = sum(hand_odds(b).beats for b in rolls) * 1296
    assert wins == expected


def test_reroll_and_bank():
    table = odds(reroll=True)
    assert table.expected_rolls_per_hand == Fraction(1296, 816)
    assert sum(table.points_after_reroll.values()) + Fraction(6, 816) == 1
    # the bank game played out over every pair of scoring rolls (816 x 816)
    scoring = [h for h in (evaluate(r) for r in itertools.product(range(1, 7), repeat=4))
               if h.category != NO_POINT]
    assert len(scoring) == 816
    push = to_banker = 0
    for banker in scoring:
        if banker.category == ALL_OF_A_KIND or banker.points == 12:
            push, to_banker = push + 816, to_banker + 816
        elif banker.points == 3:
            push, to_banker = push - 816, to_banker - 816
        else:
            kb = banker.strength()
            for player in scoring:
                kp = player.strength()
                push += (kp < kb) - (kp > kb)
                to_banker += 1 if kp <= kb else -1
    assert banker_value() == table.banker_value["ties_push"] == Fraction(push, 816 * 816)
    assert banker_value(ties_to_banker=True) == Fraction(to_banker, 816 * 816)
    chances = hand_odds([6, 6, 2, 2])
    assert (chances.beats, chances.ties, chances.loses) == (Fraction(35, 36), Fraction(5, 216), Fraction(1, 216))
    assert chances.to_dict()["ties"] == "5/216"


def test_play_house_scripted():
    lines = []
    answers = iter(["", "", "", "q"])
    result = play_house(seed=3, read=lambda prompt: next(answers), write=lines.append)
    assert result["rounds"] == 3 and "Quit after 3 rounds" in lines[-1]
    assert any("Banker rolls" in line for line in lines)


def run(*args, stdin=None):
    return run_main("sibala", *args, stdin=stdin)


def test_cli(capsys):
    assert main(["sibala", "compare", "5354", "2623"]) == 0
    assert capsys.readouterr().out == "White win. - with normal point: 9\n"
    assert main(["sibala", "compare", "5 5 5 5", "2 6 2 3", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "all of a kind of 5" in out and out.endswith("Black win. - with all of a kind: 5\n")
    assert main(["sibala", "compare", "--black", "3455", "--white", "4146"]) == 0
    assert capsys.readouterr().out == "White win. - with normal point: 7\n"
    assert main(["sibala", "hand", "6622"]) == 0
    assert "beats 35/36" in capsys.readouterr().out
    assert main(["sibala", "odds", "--reroll", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["expected_rolls_per_hand"] == "27/17"
    assert main(["sibala", "odds", "--variant", "triple-scores"]) == 0
    assert "variant triple-scores" in capsys.readouterr().out


def test_cli_play():
    result = run("play", "--seed", "1", stdin="\n\n")
    assert result.returncode == 0 and "Quit after 2 rounds" in result.stdout


@pytest.mark.parametrize("args, message", [
    (["compare", "53545", "2623"], "four dice, got 5"),
    (["compare", "5374", "2623"], "from 1 to 6"),
    (["compare", "5350", "2623"], "from 1 to 6"),
    (["compare", "abcd", "2623"], "digits"),
    (["compare"], "give Black's and White's dice"),
    (["compare", "5354"], "give Black's and White's dice"),
    (["hand", ""], "no dice given"),
    ([], "name a command"),
])
def test_cli_bad_input(args, message):
    result = run(*args)
    assert result.returncode == 2 and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
