"""Monte Carlo checked exactly where it can be: every draw of the sampler enumerated, seats
counted in a game the first mover always wins, chunks and announcements counted; and, where
only statistics can tell, each seat against its exact rate in games built to make each rule's
mistakes large (memories at a low goal, Piggy Back with one die, points memories)."""
import time

import numpy as np
import pytest

from hogsolve import always_roll, get_rules
from hogsolve.analysis.evaluate import best_response, win_rate
from hogsolve.analysis.montecarlo import PointSampler, simulate
from hogsolve.hog.rules import Ruleset
from hogsolve.solver.model import compile_model
from hogsolve.util.stats import wilson_interval


class EveryDraw:
    """A stand-in generator whose ``integers`` returns every value of its range once."""

    def integers(self, low, high=None, size=None, dtype=np.int64):
        if high is None:
            low, high = 0, low
        assert size == high - low, "one call for every value"
        return np.arange(low, high, dtype=np.int64).astype(dtype)


def four_sided(score, opponent_score):
    return 4 + 0 * score


@pytest.mark.parametrize("rules", [get_rules("su18").replace(max_dice=2), get_rules("fa13").replace(max_dice=3),
                                   Ruleset("d4", "four-sided dice", free_bacon=get_rules("su18").free_bacon,
                                           dice_sides=four_sided, max_dice=4)], ids=["su18", "fa13", "d4"])
def test_every_draw_of_the_sampler_gives_the_exact_distribution(rules):
    """All ``high`` draws of one row, enumerated: each number of points comes up exactly its
    probability x ``high`` times (the d4 rules have 17 columns: one past a power of two)."""
    model = compile_model(rules)
    sampler = PointSampler(model)
    T, A, P = model.counts.shape
    if rules.name == "d4":
        assert P == 17
    for row in range(T * A + P):
        t, n = divmod(row, A)
        if row < T * A and n == 0:
            continue  # zero dice are drawn from the sure rows
        points = sampler.sample(np.full(sampler.high, row, dtype=np.int64), EveryDraw())
        seen = np.bincount(points, minlength=P)
        if row < T * A:
            expected = model.counts[t, n].astype(object) * (sampler.high // int(model.denominators[t]))
        else:
            expected = np.zeros(P, dtype=object)
            expected[row - T * A] = sampler.high
        assert seen.tolist() == list(expected), row


def test_seats_are_counted_exactly_where_the_first_mover_always_wins():
    """At goal 1 every turn wins (a Pig Out scores 1): ``a`` wins exactly the games it starts,
    the odd-numbered ones, in any chunking."""
    rules = get_rules("su18", goal=1)
    for games, chunk in ((11, 3), (10, 4), (2, 1), (7, 100)):
        sim = simulate(always_roll(3), always_roll(5), rules, games=games, seed=1, chunk=chunk)
        assert (sim.games_first, sim.games_second) == (games // 2, games - games // 2)
        assert (sim.wins_first, sim.wins_second) == (games // 2, 0)
        assert isinstance(sim.games_first, int) and (sim.a, sim.b, sim.seed) == ("always_roll:3", "always_roll:5", 1)


def test_progress_and_announcement_are_told_the_truth():
    rules = get_rules("su18", goal=30)
    told, chunks_done, announced = [], [], []

    def progress(spans, total):
        told.append(total)
        for span in spans:
            yield span
            chunks_done.append(span)

    before = time.perf_counter()

    def announce(seconds):
        elapsed = time.perf_counter() - before
        announced.append((seconds, len(chunks_done), elapsed))

    simulate(always_roll(4), always_roll(6), rules, games=10_000, seed=2, chunk=2_500,
             progress=progress, announce=announce)
    assert told == [4] and len(chunks_done) == 4
    (seconds, done, elapsed), = announced  # once, after the first chunk, the whole run estimated
    assert done == 0 and 0.5 * elapsed * 4 <= seconds <= elapsed * 4
    announced.clear()
    simulate(always_roll(4), always_roll(6), rules, games=2_500, seed=2, chunk=2_500, announce=announce)
    assert announced == []  # one chunk: nothing to estimate


def test_the_defaults_and_the_time_taken():
    """Mistakes: another default number of games or seed (the CLI's and the docs' figures are
    made with them), a run's seconds not its wall time."""
    rules = get_rules("su18", goal=30)
    before = time.perf_counter()
    sim = simulate(always_roll(4), always_roll(6), rules)
    took = time.perf_counter() - before
    assert (sim.games_first, sim.games_second, sim.seed) == (50_000, 50_000, 0)
    same = simulate(always_roll(4), always_roll(6), rules, games=100_000, seed=0)
    assert (sim.wins_first, sim.wins_second) == (same.wins_first, same.wins_second)
    assert 0 < sim.seconds <= took


def test_the_smallest_simulation_and_bad_seeds():
    rules = get_rules("su18", goal=10)
    assert simulate(always_roll(3), always_roll(3), rules, games=2, seed=0).games_first == 1
    with pytest.raises(ValueError, match="^simulate needs at least 2 games$"):
        simulate(always_roll(3), always_roll(3), rules, games=1)
    with pytest.raises(ValueError, match="^seed must be 0 or more, got -1$"):
        simulate(always_roll(3), always_roll(3), rules, games=10, seed=-1)
    assert simulate(always_roll(3), always_roll(3), rules, games=10, seed=None).seed is None


Z = 4.0  # a correct simulator fails one seat by chance once in about 16,000 runs


@pytest.mark.parametrize("name, goal, max_dice, b", [
    ("fa19", 12, 4, 2),    # memories of dice: games end within a few turns, so buffers are compacted often
    ("sp20", 15, 4, 3),    # memories of points
    ("fa15", 20, 10, 1),   # Piggy Back: one die's Pig Out
    ("sp15", 20, 10, 1),   # Hogtimus points: landing by points
])
def test_each_seat_matches_its_exact_rate_where_each_rule_matters_most(name, goal, max_dice, b):
    """``a`` is the best response to ``always_roll(b)`` (it plays the rule for all it is worth);
    400,000 games; each seat's rate against its exact value."""
    rules = get_rules(name, goal=goal).replace(max_dice=max_dice)
    model = compile_model(rules)
    a = best_response(always_roll(b), rules, model=model).policy
    exact = win_rate(a, always_roll(b), rules, model=model)
    sim = simulate(a, always_roll(b), rules, games=400_000, seed=17, model=model)
    for simulated, true, n in ((sim.first, exact.first, sim.games_first), (sim.second, exact.second, sim.games_second)):
        low, high = wilson_interval(simulated, n, z=Z)
        assert low <= true <= high, (name, simulated, true)


@pytest.mark.slow
def test_every_game_is_played_including_the_first():
    """Game 0 (``b`` first) is played too: over 200 two-game runs ``a`` wins some of the games
    it does not start (about 40% of them at goal 20)."""
    rules = get_rules("su18", goal=20)
    wins = [simulate(always_roll(5), always_roll(5), rules, games=2, seed=s, chunk=2).wins_second for s in range(200)]
    assert 40 <= sum(wins) <= 120
