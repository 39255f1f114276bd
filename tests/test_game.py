"""The turn-by-turn engine: scripted dice, validation, and agreement with the model."""
import itertools
import random

import numpy as np
import pytest

from hogsolve import compile_model, get_rules
from hogsolve.hog.engine import play, take_turn
from hogsolve.strategy.named import StrategyError, always_roll, Strategy

su18, fa13 = get_rules("su18"), get_rules("fa13")


def make_test_dice(*outcomes):
    """CS 61A's make_test_dice: cycles through the given outcomes."""
    cycle = itertools.cycle(outcomes)
    return lambda: next(cycle)


def test_seed_example_swap_then_win():
    # su18 seed example 3: 91 vs 12, five dice totalling 20 -> 111 vs 12 swaps; the opponent wins.
    result = play(always_roll(5), always_roll(1), su18, dice=make_test_dice(4),
                  score0=91, score1=12)
    assert result.scores == (12, 111) and result.winner == 1
    (turn,) = result.turns
    assert turn.outcomes == (4, 4, 4, 4, 4) and turn.points == 20 and turn.swapped


def test_fa13_swap_hands_the_win():
    # fa13 seed: Player 0 at 90 scores 10 against 50 (Hog Wild: 140 is a multiple of 7).
    result = play(always_roll(3), always_roll(1), fa13, dice={4: make_test_dice(4, 4, 2)},
                  score0=90, score1=50)
    assert result.scores == (50, 100) and result.winner == 1
    assert [(e["kind"], e["name"], e.get("sides")) for e in result.turns[0].events()] == \
        [("hog_wild", "Hog Wild", 4), ("swine_swap", "Swine Swap", None)]


def test_scripted_game_and_log():
    dice = make_test_dice(3, 4, 1, 6)
    result = play(always_roll(2), always_roll(3), su18, dice=dice, goal=30)
    scores = [0, 0]
    for i, turn in enumerate(result.turns):
        assert turn.mover == i % 2
        assert (turn.score, turn.opponent_score) == (scores[turn.mover], scores[1 - turn.mover])
        scores[turn.mover], scores[1 - turn.mover] = turn.new_score, turn.new_opponent_score
    assert tuple(scores) == result.scores and max(scores) >= 30
    first = result.turns[0]
    assert first.outcomes == (3, 4) and first.points == 7
    second = result.turns[1]
    assert second.outcomes == (1, 6, 3) and second.points == 1 and second.pig_out


def test_dice_consumed_once_per_die():
    calls = []

    def dice():
        calls.append(1)
        return 1

    result = play(always_roll(7), always_roll(0), su18, dice=dice, goal=3)
    # Player 0 Pigs Out three times (1, 2, 3 points); Player 1's Free Bacon rolls nothing.
    assert [t.num_dice for t in result.turns] == [7, 0, 7, 0, 7]
    assert len(calls) == 7 * 3


def test_seeded_games_repeat():
    a = play(always_roll(4), always_roll(6), fa13, seed=5)
    b = play(always_roll(4), always_roll(6), fa13, seed=5)
    assert a == b


@pytest.mark.parametrize("bad", [11, -1, 2.5, "3", None, True])
def test_bad_strategy_answers_are_named(bad):
    cheat = Strategy(lambda s, o: bad, "cheat")
    with pytest.raises(StrategyError, match=r"strategy cheat returned .* at score 0, opponent score 0"):
        play(cheat, always_roll(1), su18, seed=1)


def test_raising_strategy_and_numpy_ints():
    def broken(score, opponent_score):
        raise KeyError("oops")
    with pytest.raises(StrategyError, match="broken raised KeyError"):
        play(broken, always_roll(1), su18, seed=1)
    result = play(lambda s, o: np.int64(5), lambda s, o: np.int8(2), su18, seed=1)
    assert result.winner in (0, 1)


def test_bad_die_value():
    # as in CS 61A, a test die may show more than its sides; not 0, negatives or non-ints
    result = play(always_roll(2), always_roll(2), fa13, dice=make_test_dice(7), goal=20)
    assert max(result.scores) >= 20
    for bad in (0, -3, 2.0, True):
        with pytest.raises(ValueError, match="a die shows a positive whole number"):
            play(always_roll(2), always_roll(2), fa13, dice=make_test_dice(bad))


def faces_for(points, n, sides, pig_out):
    """A roll of n dice scoring ``points``."""
    if points == pig_out and n >= 1 and (points < 2 * n or points > sides * n):
        return [1] + [2] * (n - 1)
    faces, left = [], points
    for i in range(n):
        rest = n - i - 1
        face = min(sides, left - 2 * rest)
        faces.append(face)
        left -= face
    assert all(2 <= f <= sides for f in faces) and sum(faces) == points
    return faces


# test_properties samples all four in the default tier
@pytest.mark.parametrize("name", [pytest.param("su18", marks=pytest.mark.slow),
                                  pytest.param("fa13", marks=pytest.mark.slow)])
def test_engine_matches_model_in_every_state(name):
    rules = get_rules(name)
    model = compile_model(rules)
    g, rng = rules.goal, random.Random(name)
    for s in range(g):
        for o in range(g):
            sides = int(model.dice_sides_values[model.dice_kind[s, o]])
            actions = [0] + rng.sample(range(1, 11), 3)
            for n in actions:
                if n == 0:
                    possible = [int(model.free_bacon_points[s, o])]
                else:
                    possible = rng.sample(list(np.flatnonzero(model.counts[model.dice_kind[s, o], n])), 2)
                for p in possible:
                    script = iter(faces_for(int(p), n, sides, rules.pig_out) if n else ())
                    turn = take_turn(rules, 0, s, o, n, lambda k, script=script: next(script))
                    assert turn.sides == sides and turn.points == p
                    nxt = int(model.after[s + p, o])
                    if turn.new_score >= g:
                        assert nxt == model.win
                    elif turn.new_opponent_score >= g:
                        assert nxt == model.loss
                    else:
                        assert nxt == turn.new_opponent_score * g + turn.new_score
