"""hogsolve.strategy.mixed and the exact evaluation of mixtures (issue 55): an agent that gives
action probabilities is evaluated exactly as the expectation over its choices, checked against
plain recursions from the rules; one that samples is refused in one line."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import hogsolve
from hogsolve.analysis.evaluate import best_response, win_rate
from hogsolve.analysis.pig.evaluate import pig_best_response, pig_win_rate
from hogsolve.hog.rules import get_rules
from hogsolve.interop import distribution_of, evaluate_agent
from hogsolve.pig.rules import get_pig_game
from hogsolve.strategy.mixed import Mixture
from hogsolve.strategy.pig import policy_table

from reference import recursive_mixture_win_rate
from test_pig_turns import plain_two_player_values


def _fraction_chances(rng, goal, actions, least=0):
    """Random exact chances ``[s][o][n]`` (eighths), none below ``least`` dice."""
    table = []
    for _ in range(goal):
        row = []
        for _ in range(goal):
            weights = rng.integers(0, 4, size=actions)
            weights[:least] = 0
            if weights.sum() == 0:
                weights[least] = 1
            row.append([Fraction(int(w), int(weights.sum())) for w in weights])
        table.append(row)
    return table


@pytest.mark.parametrize("name, goal", [("su18", 14), ("fa20", 14), ("fa13", 12)])
def test_a_hog_mixture_matches_a_plain_recursion_in_fractions(name, goal):
    """Mistakes: the mixture's action values weighted with the wrong player's chances, an extra
    turn's value taken from the opponent's side, a -inf value of an illegal action leaking a NaN
    into the sum, or the second seat's rate not complemented."""
    rules = get_rules(name, goal=goal)
    rng = np.random.default_rng(goal)
    actions = int(rules.max_dice) + 1
    a = _fraction_chances(rng, goal, actions, int(rules.min_dice))
    b = _fraction_chances(rng, goal, actions, int(rules.min_dice))
    first, second = recursive_mixture_win_rate(rules, a, b)
    mixture_a = Mixture(rules, np.array(a, dtype=float), "a")
    mixture_b = Mixture(rules, np.array(b, dtype=float), "b")
    rate = win_rate(mixture_a, mixture_b, rules)
    assert rate.first == pytest.approx(float(first), abs=1e-13)
    assert rate.second == pytest.approx(float(second), abs=1e-13)


@pytest.mark.parametrize("name, goal", [("fa19", 20), ("sp20", 16), ("hog", 25), ("su18", 30)])
def test_a_sure_mixture_is_its_fixed_strategy(name, goal):
    """Mistakes: a mixture's pass differing from the fixed pair's under memories (the chances
    indexed without the memories), a cyclic game (Neller's Hog) not iterated, or the best
    response to a mixture other than the best response to the strategy it is sure to play."""
    rules = get_rules(name, goal=goal)
    optimal = hogsolve.optimal_strategy(name, goal=goal)
    table = np.broadcast_to(np.asarray(optimal.table), rules.decision_table_shape)
    sure = Mixture.table(rules, np.eye(rules.num_actions)[table], "optimal, as a mixture")
    assert sure.fixed() is not None
    fixed, mixed = win_rate(optimal, hogsolve.always_roll(4), rules), \
        win_rate(sure, hogsolve.always_roll(4), rules)
    assert mixed.first == pytest.approx(fixed.first, abs=1e-13)
    assert mixed.second == pytest.approx(fixed.second, abs=1e-13)
    opponent = Mixture.table(rules, np.eye(rules.num_actions)[np.full(rules.decision_table_shape, 4)], "4 dice")
    assert np.array_equal(best_response(opponent, rules).policy, best_response(hogsolve.always_roll(4), rules).policy)


@pytest.mark.parametrize("name, goal", [("two-dice-pig", 8), ("pig", 10), ("piglet", 6)])
def test_a_roll_or_hold_mixture_matches_plain_value_iteration(name, goal):
    """Mistakes: a chance of rolling read as True (any nonzero chance rolled for sure), the
    first roll of a turn left to chance, a turn total at the goal not held, or the turns' ends
    under wipes (Two-Dice Pig) counted as if the roll were sure; and the best response to a
    mixture, against plain value iteration that plays best against it."""
    game = get_pig_game(name, goal=goal)
    rng = np.random.default_rng(goal)
    chances = game.settled_mixture(np.stack([c := rng.random((goal,) * 3), 1 - c], axis=-1))
    mixture = Mixture(game, chances, "coin-ish")
    other = policy_table(hogsolve.hold_at(3), game)
    rate = pig_win_rate(mixture, hogsolve.hold_at(3), game)
    mine = policy_table(mixture, game)
    win = plain_two_player_values(game, [mine, other])
    assert rate.first == pytest.approx(win[0][0, 0, 0], abs=1e-12)
    assert rate.second == pytest.approx(1.0 - win[1][0, 0, 0], abs=1e-12)
    best = plain_two_player_values(game, [None, mine])
    response = pig_best_response(mixture, game)
    assert response.win_rate.first == pytest.approx(best[0][0, 0, 0], abs=1e-12)


class _Softmax:
    """An agent that gives the chance of each action, as a learnt policy would: more dice the
    further behind, a little of every legal count."""

    def __init__(self, actions, least=0, shift=0.0):
        self.actions, self.least, self.shift = actions, least, shift

    def action_probabilities(self, observations):
        obs = np.asarray(observations, dtype=float)
        logits = -0.1 * (np.arange(self.actions)[None, :] - 4 - (obs[:, 1:2] - obs[:, 0:1]) / 10 - self.shift) ** 2
        logits[:, :self.least] = -np.inf
        weights = np.exp(logits - logits.max(axis=1, keepdims=True))
        return weights / weights.sum(axis=1, keepdims=True)


class _FakeSB3:
    """What distribution_of reads of a Stable-Baselines3 model: ``policy.obs_to_tensor`` and
    ``policy.get_distribution(obs).distribution.probs`` (torch-free here)."""

    def __init__(self, agent):
        outer = self

        class Policy:
            def obs_to_tensor(self, observations):
                return np.asarray(observations), True

            def get_distribution(self, tensor):
                class Distribution:
                    probs = outer.agent.action_probabilities(tensor)

                class Wrapped:
                    distribution = Distribution
                return Wrapped

        self.agent, self.policy = agent, Policy()

    def predict(self, observation, deterministic=False):  # what evaluate_agent asks without the wrapper
        chances = self.agent.action_probabilities(np.atleast_2d(observation))
        return chances.argmax(axis=1), None


def test_an_agent_that_gives_probabilities_is_evaluated_as_its_mixture():
    """Mistakes: the probabilities taken as actions (or refused), the agent's mixture scored
    other than as ``win_rate`` scores the same table of chances, a callable answering a row of
    probabilities per observation read differently from a batch method, SB3's distribution not
    reached through distribution_of, or a mixture's worst states listed without its reach."""
    agent = _Softmax(11)
    rules = get_rules("su18", goal=25)
    report = evaluate_agent(agent, "su18", goal=25)
    rows = np.stack(np.indices((25, 25)).reshape(2, -1), axis=1)
    table = agent.action_probabilities(rows).reshape(25, 25, 11)
    direct = hogsolve.win_rate(table, "optimal", rules)
    assert report.against_optimal.first == pytest.approx(direct.first, abs=1e-15)
    assert report.against_optimal.average < 0.5 and report.worst_states == []
    assert report.table.shape == (25, 25, 11)
    one_row = evaluate_agent(lambda o: agent.action_probabilities(np.atleast_2d(o))[0], "su18", goal=25)
    assert one_row.against_optimal.first == pytest.approx(direct.first, abs=1e-15)
    model = _FakeSB3(agent)
    assert evaluate_agent(distribution_of(model), "su18", goal=25).against_optimal.first == \
        pytest.approx(direct.first, abs=1e-15)
    greedy = evaluate_agent(model, "su18", goal=25)  # predict(deterministic=True): a fixed strategy
    assert greedy.worst_states and greedy.against_optimal.first != pytest.approx(direct.first, abs=1e-6)
    pig = evaluate_agent(_Softmax(2), game="pig", goal=20)
    assert 0 < pig.against_optimal.average < 0.5 and pig.exploitability > 0


def test_a_sure_mixture_from_an_agent_is_its_fixed_strategy():
    """Mistake: probabilities that are all ones and zeros treated as a mixture, losing the fixed
    strategy's worst states (its regret)."""
    sure = evaluate_agent(lambda o: np.eye(11)[4], "su18", goal=20)
    fixed = evaluate_agent(lambda o: 4, "su18", goal=20)
    assert sure.against_optimal == fixed.against_optimal and sure.worst_states == fixed.worst_states


@pytest.mark.parametrize("agent, words", [
    (lambda o: np.array([0.5, 0.2] + [0.0] * 9), "must sum to 1"),
    (lambda o: np.array([-0.5, 1.5] + [0.0] * 9), "at least 0"),
    (lambda o: np.array([np.nan] + [0.1] * 10), "sum to 1"),
    (lambda o: np.full(3, 1 / 3), "expected one action or 11 probabilities"),
])
def test_bad_probabilities_are_one_clear_line(agent, words):
    """Mistakes: probabilities that do not sum to 1, negative ones, NaN, or a row of the wrong
    length evaluated anyway (a number that is no win rate) instead of refused in one line."""
    with pytest.raises(hogsolve.HogsolveError, match=words) as caught:
        evaluate_agent(agent, "su18", goal=12)
    assert "\n" not in str(caught.value)


def test_illegal_dice_with_a_chance_are_refused():
    """Mistake: a chance on fewer dice than the ruleset allows (hog: at least one die) played
    as if legal, or silently moved to a legal count."""
    with pytest.raises(hogsolve.HogsolveError, match="fewer than 1 dice a chance"):
        evaluate_agent(lambda o: np.full(11, 1 / 11), "hog", goal=15)


def test_a_sampling_agent_is_refused_and_told_both_ways_out():
    """Mistake: an agent whose probabilities change between calls at one observation evaluated
    as one mixture, or refused without saying how to give probabilities."""
    rng = np.random.default_rng(5)

    def noisy(observation):
        weights = rng.random(11)
        return weights / weights.sum()
    with pytest.raises(hogsolve.HogsolveError, match="action_probabilities") as caught:
        evaluate_agent(noisy, "su18", goal=12)
    assert "deterministic=True" in str(caught.value)


def test_jobs_that_take_a_fixed_strategy_refuse_a_mixture_in_one_line():
    """Mistake: the regret of a mixture computed as if its table were dice counts (or a
    traceback from calling the mixture as a strategy)."""
    rules = get_rules("su18", goal=15)
    mixture = Mixture.table(rules, np.full((15, 15, 11), 1 / 11))
    with pytest.raises(hogsolve.HogsolveError, match="takes a fixed strategy"):
        hogsolve.regret(mixture, rules)
    with pytest.raises(hogsolve.HogsolveError, match="has the shape"):
        Mixture.table(rules, np.full((15, 15, 10), 0.1))
