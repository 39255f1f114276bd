"""Policy iteration over whole turns (the roll-or-hold games with wipes) against independent
references: the stage solver where both apply, a plain recursion over a dict for a fixed
policy's values and for its chances until a wipe, and the stage evaluator's win rate."""
import numpy as np
import pytest

from hogsolve import get_pig_game, hold_at_or_goal
from hogsolve.analysis.pig.evaluate import pig_win_rate
from hogsolve.solver.pig.solve import _stage_pass
from hogsolve.solver.pig.stages import Rolls
from hogsolve.solver.pig.turns import Turns, solve_by_turns


def _live(g):
    return (np.arange(g)[:, None, None] + np.arange(g)[None, None, :]) < g


def plain_policy_values(game, roll, tol=1e-15):
    """Both players following ``roll[i, j, k]``: per state, the mover's chance to win, the
    chance that a banked score is wiped before the game ends (counting stops there), and
    the expected states visited until then; Gauss-Seidel over a dict, from the rules."""
    g, dist = game.goal, game.outcomes()
    states = [(i, j, k) for i in range(g) for j in range(g) for k in range(g - i)]
    win, wiped, visits = ({s: 0.0 for s in states} for _ in range(3))
    while True:
        change = 0.0
        for (i, j, k) in states:
            if k and not roll[i, j, k]:  # hold: the opponent starts at (j, i + k)
                there = (j, i + k, 0)
                new = (1.0 - win[there] if i + k < g else 1.0, wiped.get(there, 0.0), 1.0 + visits.get(there, 0.0))
            else:
                new = [0.0, 0.0, 1.0]
                for (kind, x), p in dist.items():
                    p = float(p)
                    if kind == "add":
                        there = (i, j, k + x)
                        done = i + k + x >= g
                        new[0] += p * (1.0 if done else win[there])
                        new[1] += p * (0.0 if done else wiped[there])
                        new[2] += p * (0.0 if done else visits[there])
                    elif kind == "wipe" and i > 0:
                        new[0] += p * (1.0 - win[j, 0, 0])
                        new[1] += p
                    else:  # a bust, or a wipe with nothing banked
                        new[0] += p * (1.0 - win[j, i, 0])
                        new[1] += p * wiped[j, i, 0]
                        new[2] += p * visits[j, i, 0]
            for table, value in zip((win, wiped, visits), new):
                change = max(change, abs(value - table[i, j, k]) / max(1.0, abs(value)))
                table[i, j, k] = value
        if change < tol:
            return win, wiped, visits


@pytest.mark.parametrize("name, goal", [("two-dice-pig", 12), ("piglet", 6)])
def test_a_fixed_policy_turn_values_and_chances_match_a_plain_recursion(name, goal):
    game = get_pig_game(name, goal=goal)
    turns = Turns(game, Rolls.of(game))
    roll = np.zeros((goal, goal, goal), dtype=bool)
    roll[..., :4] = True
    roll[2, 5, 4:7] = True  # not a threshold everywhere
    win, wiped, visits = plain_policy_values(game, roll)
    x = turns.start_values([turns.by_turn(roll)])[0]
    z_wiped, z_visits = turns.until_wipe(turns.by_turn(roll))
    for i in range(goal):
        for j in range(goal):
            p = i * goal + j
            assert x[p] == pytest.approx(win[i, j, 0], abs=1e-14)
            assert z_wiped[p] == pytest.approx(wiped[i, j, 0], abs=1e-14)
            assert z_visits[p] == pytest.approx(visits[i, j, 0], rel=1e-14)
    if name == "two-dice-pig":
        assert z_wiped.max() > 0.05
    value, _ = turns.greedy(x, turns.by_turn(roll))  # the policy's own values at every turn total
    for (i, j, k), v in win.items():
        assert value[k, i * goal + j] == pytest.approx(v, abs=1e-14)


def plain_two_player_values(game, rolls, tol=1e-15):
    """Player m to move follows ``rolls[m][i, j, k]`` (k below twice the goal, rolling on past
    the goal allowed), or with ``rolls[m]`` None plays best; per player to move, their chance
    to win from every (i, j, k): Gauss-Seidel over dicts, from the rules."""
    g, dist = game.goal, game.outcomes()
    width = 2 * g
    states = [(i, j, k) for i in range(g) for j in range(g) for k in range(width)]
    win = [{s: 0.5 for s in states}, {s: 0.5 for s in states}]
    while True:
        change = 0.0
        for m in (0, 1):
            mine, theirs = win[m], win[1 - m]
            for (i, j, k) in states:
                hold = 1.0 if i + k >= g else 1.0 - theirs[j, i + k, 0]
                roll = 0.0
                for (kind, x), p in dist.items():
                    if kind == "add":
                        roll += float(p) * (1.0 if k + x >= width else mine[i, j, k + x])
                    else:  # a bust, or a wipe (which zeroes a banked score)
                        roll += float(p) * (1.0 - theirs[j, 0 if kind == "wipe" else i, 0])
                if k == 0:
                    value = roll
                elif rolls[m] is None:
                    value = max(roll, hold) if i + k < g else hold
                elif rolls[m].dtype.kind == "f":  # a mixture: the chance of rolling
                    chance = float(rolls[m][i, j, k])
                    value = chance * roll + (1.0 - chance) * hold
                else:
                    value = roll if rolls[m][i, j, k] else hold
                change = max(change, abs(value - mine[i, j, k]))
                mine[i, j, k] = value
        if change < tol:
            return win


def test_two_fixed_strategies_and_a_best_response_match_a_plain_recursion():
    """Two-Dice Pig at goal 8: the win rates of two fixed tables (one rolls on past the goal),
    and the best response to one of them, against plain value iteration over every state."""
    from hogsolve import hold_at
    from hogsolve.analysis.pig.evaluate import pig_best_response
    from hogsolve.strategy.pig import policy_table
    game = get_pig_game("two-dice-pig", goal=8)
    a, b = policy_table(hold_at(5), game), policy_table(hold_at_or_goal(3, 8), game)
    win = plain_two_player_values(game, [a, b])
    rate = pig_win_rate(hold_at(5), hold_at_or_goal(3, 8), game)
    assert rate.first == pytest.approx(win[0][0, 0, 0], abs=1e-14)
    assert rate.second == pytest.approx(1.0 - win[1][0, 0, 0], abs=1e-14)
    best = plain_two_player_values(game, [None, b])
    response = pig_best_response(hold_at_or_goal(3, 8), game)
    assert response.win_rate.first == pytest.approx(best[0][0, 0, 0], abs=1e-14)
    assert response.win_rate.second == pytest.approx(1.0 - best[1][0, 0, 0], abs=1e-14)
    assert response.win_rate.average > rate.average


@pytest.mark.parametrize("name, goal", [("pig", 30), ("big-pig", 25)])
def test_turns_and_stages_agree_where_both_apply(name, goal):
    """Without wipes both solvers apply: the same policy, the same values to 1e-15."""
    game = get_pig_game(name, goal=goal)
    rolls = Rolls.of(game)
    value, roll, rounds = solve_by_turns(game, rolls)
    by_stage, stage_roll, _ = _stage_pass(game, rolls, 50)
    live = _live(goal)
    assert rounds >= 1
    assert np.array_equal(roll & live, stage_roll & live)
    assert np.abs(np.where(live, value - by_stage, 0.0)).max() <= 1e-15


def test_policy_iteration_does_not_cycle_among_tied_policies():
    """Piglet against a player who never holds short of the goal is full of exact ties; the
    best response over whole turns settles (ties keep the current choice) on the stage
    evaluator's win rate."""
    from hogsolve import hold_at
    from hogsolve.analysis.pig.evaluate import _best_response_pass
    from hogsolve.solver.pig.turns import best_response_by_turns
    from hogsolve.strategy.pig import policy_table
    game = get_pig_game("piglet")
    theirs = policy_table(hold_at(20), game)
    mine, their_values, _ = best_response_by_turns(game, theirs)
    by_stage = _best_response_pass(game, Rolls.of(game), theirs, 50)
    assert mine[0, 0] == pytest.approx(by_stage[0][0, 0], abs=1e-14)
    assert their_values[0, 0] == pytest.approx(by_stage[1][0, 0], abs=1e-14)
