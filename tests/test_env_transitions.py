"""The fast environments against the engine, turn by turn, with every chance outcome.

The vector environment (:mod:`hogsolve.interop.vector`) and the single environment's lanes
(:mod:`hogsolve.families.lanes`) play the games on their own arrays and lists; here each of
their moves is set up in many positions at once, given each possible chance outcome in turn
(the draw replaced by the outcome wanted), and checked against what the engine says that
outcome does: :func:`hogsolve.hog.engine.score_turn` for Hog (Piggy Back, Feral Hogs, the
bonus rules, swaps, extra turns, the goal) and :class:`hogsolve.pig.engine.PigMatch` for the
roll-or-hold games.  Exact and deterministic: no sampling, so the default tier runs it.
"""
import random

import numpy as np
import pytest

from hogsolve import get_pig_game, get_rules
from hogsolve.hog.engine import score_turn
from hogsolve.families import game_spec
from hogsolve.families.lanes import HogLane, PigLane
from hogsolve.families.vector_games import HogGames as _HogGames, RollOrHoldGames as _RollOrHoldGames
from hogsolve.pig.engine import PigMatch
from hogsolve.pig.state import PigState


def hog_cases(rules, model, rng, positions):
    """(mover, score, opponent_score, my memory, their memory, dice, points) for random
    positions, every legal dice count and every points value that count can score there."""
    g = int(rules.goal)
    size = model.context_shape[0] if rules.history is not None else 1
    cases = []
    corners = [(g - 1, g - 1), (g - 1, 0), (0, g - 1), (0, 0)]  # the largest landings, the start
    for number in range(positions):
        s, o = corners[number] if number < len(corners) else (int(rng.integers(g)), int(rng.integers(g)))
        mover = int(rng.integers(2))
        mine, theirs = int(rng.integers(size)), int(rng.integers(size))
        for dice in range(int(rules.min_dice), int(rules.max_dice) + 1):
            if dice == 0:
                support = [int(model.free_bacon_points[s, o])]
            else:
                support = np.flatnonzero(model.counts[model.dice_kind[s, o], dice]).tolist()
            cases += [(mover, s, o, mine, theirs, dice, p) for p in support]
    return cases


def expected_hog(rules, case):
    """What the engine does with the case: ``(winner, mover next, scores of player 0 and 1,
    memory of the next mover, memory of the other)``; winner None while the game goes on."""
    mover, s, o, mine, theirs, dice, points = case
    turn = score_turn(rules, mover, s, o, dice, points, previous=mine)
    new, opp = turn.new_score, turn.new_opponent_score
    scores = (new, opp) if mover == 0 else (opp, new)
    if new >= rules.goal or opp >= rules.goal:
        return (mover if new >= rules.goal else 1 - mover), None, scores, None, None
    remembered = mine
    if rules.history is not None:
        remembered = int(rules.history.index(rules.history.remembered(dice, points), int(rules.max_dice)))
    if turn.extra_turn:
        return None, mover, scores, remembered, theirs
    return None, 1 - mover, scores, theirs, remembered


class Chosen:
    """The one draw a test wants, whatever is asked (a stand-in for the generator)."""

    def __init__(self, values):
        self.values = values

    def integers(self, low, high, size=None, dtype=None):
        return np.array(self.values, dtype=np.int64)


@pytest.mark.parametrize("name, goal", [("su18", 40), ("fa18", 40), ("fa20", 40), ("sp21", 40), ("fa15", 40),
                                        ("sp15", 40), ("sp17", 40), ("fa19", 30), ("su20", 30), ("fa23", 40),
                                        ("hog", 30)])
def test_every_hog_turn_of_the_vector_env_lands_where_the_engine_says(name, goal):
    """Mistakes: a bonus, swap, Piggy Back, Feral Hogs' points or memory, an extra turn or the
    winner taken wrong in the vector env's turn; the sampler's points are its own test's."""
    rules = get_rules(name, goal=goal)
    games = _HogGames(game_spec(name, goal), "always_roll:4")
    cases = hog_cases(rules, games.model, np.random.default_rng(len(name) + goal), 60)
    n = len(cases)
    mover, s, o, mine, theirs, dice, points = (np.array(column) for column in zip(*cases))
    games.start(n)
    games.state[:], games.mover[:] = s * goal + o, mover
    if rules.history is not None:
        games.mine[:], games.theirs[:] = mine, theirs
    games.sampler.sample = lambda rows, rng: points.copy()  # the outcome each case wants
    games.play(np.arange(n), dice, rng=None)
    for k, case in enumerate(cases):
        winner, next_mover, scores, next_mine, next_theirs = expected_hog(rules, case)
        assert (None if games.winner[k] < 0 else int(games.winner[k])) == winner, case
        if winner is not None:
            continue
        here, there = divmod(int(games.state[k]), goal)
        seen = (here, there) if games.mover[k] == 0 else (there, here)
        assert (int(games.mover[k]), seen) == (next_mover, scores), case
        if rules.history is not None:
            assert (int(games.mine[k]), int(games.theirs[k])) == (next_mine, next_theirs), case


@pytest.mark.parametrize("name, goal", [("su18", 40), ("fa20", 40), ("fa15", 40), ("sp15", 40), ("fa23", 40),
                                        ("hog", 30)])
def test_every_hog_turn_of_the_single_env_lands_where_the_engine_says(name, goal):
    """The same for the Hog lane of Hog-v0 (the rulesets without memories)."""
    rules = get_rules(name, goal=goal)
    lane = HogLane(game_spec(name, goal), "always_roll:4")
    for case in hog_cases(rules, _model(rules), np.random.default_rng(goal + 7), 40):
        mover, s, o, _, _, dice, points = case
        lane.place(*((s, o) if mover == 0 else (o, s)), mover)
        lane.land(dice, points)
        winner, next_mover, scores, _, _ = expected_hog(rules, case)
        assert lane.winner == winner, case
        if winner is None:
            assert (lane.mover, tuple(lane.scores())) == (next_mover, scores), case
        else:
            assert tuple(lane.scores()) == scores, case  # the engine's final scores


def _model(rules):
    from hogsolve.solver.model import compile_model
    return compile_model(rules)


def pig_outcomes(game):
    """Each roll outcome with the least integer draw that gives it, from the exact
    probabilities (their common denominator's units, in the order the state lists them)."""
    outcomes = PigState(game).outcomes  # ((kind, amount), exact probability), the order draws take
    denominator = 1
    for _, p in outcomes:
        denominator = denominator * p.denominator // np.gcd(denominator, p.denominator)
    first, out = 0, []
    for outcome, p in outcomes:
        out.append((outcome, first))
        first += int(p * denominator)
    assert first == denominator
    return out


def pig_positions(game, rng, count):
    g = game.goal
    return [(int(rng.integers(g)), int(rng.integers(g)), int(rng.integers(g)), int(rng.integers(2)))
            for _ in range(count)]


def expected_pig(game, i, j, k, mover, outcome):
    """The engine's match after the mover at (i, j, k) rolls ``outcome`` (or holds: None)."""
    match = PigMatch(game, first=mover, keep_log=False)
    match.scores[mover], match.scores[1 - mover], match.turn_total = i, j, k
    if outcome is None:
        match.hold()
    else:
        match.apply_outcome(*PigState(game).outcomes[outcome][0])
    return match


@pytest.mark.parametrize("name, goal", [("pig", 30), ("two-dice-pig", 30), ("big-pig", 40), ("piglet", 10)])
def test_every_roll_and_hold_of_the_vector_env_is_the_engines(name, goal):
    """Mistakes: an outcome drawn for the wrong integer, a bust or a wipe kept, the goal rule
    or the mover after a hold taken wrong in the vector env."""
    game = get_pig_game(name, goal=goal)
    games = _RollOrHoldGames(game_spec(name, goal), "hold_at:10")
    draws = pig_outcomes(game)
    positions = [p for p in pig_positions(game, np.random.default_rng(goal), 40) if p[0] + p[2] < goal]
    cases = [(pos, q, draw) for pos in positions for q, (_, draw) in enumerate(draws)]
    cases += [(pos, None, None) for pos in positions if pos[2] > 0]  # holds
    n = len(cases)
    games.start(n)
    for row, ((i, j, k, mover), _, _) in enumerate(cases):
        games.scores[row, mover], games.scores[row, 1 - mover], games.total[row], games.mover[row] = i, j, k, mover
    actions = np.array([1 if q is None else 0 for _, q, _ in cases])
    rolled = [draw for _, q, draw in cases if q is not None]
    games.play(np.arange(n), actions, Chosen(rolled))
    for row, ((i, j, k, mover), q, _) in enumerate(cases):
        match = expected_pig(game, i, j, k, mover, q)
        assert list(games.scores[row]) == match.scores, (name, i, j, k, mover, q)
        assert (None if games.winner[row] < 0 else int(games.winner[row])) == match.winner
        if match.winner is None:
            assert (int(games.mover[row]), int(games.total[row])) == (match.mover, match.turn_total)


class Bits:
    """A stand-in for ``random.Random`` whose ``getrandbits`` gives the values asked for."""

    def __init__(self, values):
        self.values = list(values)

    def getrandbits(self, bits):
        return self.values.pop(0)


@pytest.mark.parametrize("name, goal", [("pig", 30), ("two-dice-pig", 30), ("piglet", 10)])
def test_every_roll_of_the_pig_lane_is_the_engines(name, goal):
    """Mistakes: the lane's table of draws built off by one, a draw at or above the
    denominator not drawn again, the agent's hold or the opponent's choice taken wrong."""
    game = get_pig_game(name, goal=goal)
    lane = PigLane(game_spec(name, goal), "hold_at:10")
    draws = pig_outcomes(game)
    denominator = int(lane.denominator)
    for i, j, k, _ in pig_positions(game, np.random.default_rng(goal + 1), 25):
        if i + k >= goal:
            continue
        for q, (outcome, draw) in enumerate(draws):
            lane.new(0, random.Random(0))
            match = lane.match
            match.scores[:], match.turn_total, match.mover = [i, j], k, 0
            # one draw past the denominator first (drawn again), then the outcome's own
            rejected = [denominator] if (1 << lane.bits) > denominator else []
            lane.play(0, Bits(rejected + [draw]))
            expected = expected_pig(game, i, j, k, 0, q)
            assert (match.scores, match.mover, match.turn_total) == \
                (expected.scores, expected.mover, expected.turn_total), (outcome, i, j, k)
        if k > 0:
            lane.new(0, random.Random(0))
            match = lane.match
            match.scores[:], match.turn_total, match.mover = [i, j], k, 0
            assert lane.play(1, Bits([])) is True
            assert match.scores == expected_pig(game, i, j, k, 0, None).scores


def test_the_pig_lanes_opponent_plays_its_table_through_play():
    """Mistake: the lane's fast opponent loop (its rule and its inlined draw) drifting from the
    lane's own play(): the same dice give the same match, move after move, against a reference
    that asks the opponent's table and calls play() one action at a time."""
    spec = game_spec("pig", 40)
    fast, slow = PigLane(spec, "hold_at:12"), PigLane(spec, "hold_at:12")
    rng_fast, rng_slow = random.Random(5), random.Random(5)
    choices = random.Random(9)

    def reference_advance():
        match = slow.match
        while match.mover != 0 and match.winner is None:
            total = match.turn_total
            holds = total and not slow.roll_table[match.scores[1]][match.scores[0]][total]
            slow.play(1 if holds else 0, rng_slow)
    fast.new(0, rng_fast)
    slow.state = PigState(spec.rules)
    slow.match = slow.state.match
    reference_advance()
    for _ in range(400):
        if fast.winner is not None:
            assert slow.winner == fast.winner
            fast.new(0, rng_fast)
            slow.state = PigState(spec.rules)
            slow.match = slow.state.match
            reference_advance()
            continue
        action = int(choices.random() < 0.3)
        assert fast.move(action, 0, rng_fast) == slow.play(action, rng_slow)
        reference_advance()
        assert (fast.match.scores, fast.match.turn_total, fast.match.mover) == \
            (slow.match.scores, slow.match.turn_total, slow.match.mover)


@pytest.mark.parametrize("kwargs, agent, one", [
    ({"game": "pig", "goal": 12}, lambda o: (o[:, 2] >= 5).astype(int), lambda o: int(o[2] >= 5)),
    ({"rules": "su18", "goal": 15}, lambda o: np.where(o[:, 0] < 8, 6, 2), lambda o: 6 if o[0] < 8 else 2),
])
@pytest.mark.parametrize("seat", ["first", "second"])
def test_the_vector_envs_episodes_pay_each_seat_its_exact_win_rate_at_a_small_goal(kwargs, agent, one, seat):
    """The fast tier's check of the vector env's episodes (the slow tier has larger games):
    rewards to the right seat, the deal, the forced step and the autoreset (a swapped seat or
    reward moves the rate by far more than the interval)."""
    from hogsolve.interop.core import evaluate_agent
    from hogsolve.interop.vector import HogsolveVectorEnv
    from hogsolve.util.stats import wilson_interval
    from test_interop import _first_episodes
    env = HogsolveVectorEnv(2048, seat=seat, opponent="optimal", **kwargs)
    exact = evaluate_agent(one, kwargs.get("rules") or kwargs.get("game"), goal=kwargs["goal"]).against_optimal
    rate, n = _first_episodes(env, agent, 3, seed=11)
    low, high = wilson_interval(rate, n, z=4.0)
    assert low <= (exact.first if seat == "first" else exact.second) <= high, (rate, exact)


@pytest.mark.parametrize("kwargs", [{"game": "pig", "goal": 12}, {"game": "piglet", "goal": 4},
                                    {"rules": "hog", "goal": 15}])
@pytest.mark.parametrize("mask_in_observation", [False, True])
def test_every_step_of_the_single_env_says_what_happened(kwargs, mask_in_observation):
    """Mistakes: the illegal flag wrong on the step that ends the game, an observation outside
    its space (a final score past the goal unclipped, the forced step of a game lost before
    the agent moved), the mask missing or not the legal actions, the dict observation's keys."""
    from hogsolve.interop.gymnasium import HogsolveEnv
    env = HogsolveEnv(opponent="optimal", seat="random", mask_in_observation=mask_in_observation, **kwargs)
    rng = np.random.default_rng(3)
    forced = finals = 0
    for episode in range(150):
        observation, info = env.reset(seed=episode)
        done = False
        while not done:
            assert env.observation_space.contains(observation)
            board = observation["observation"] if mask_in_observation else observation
            mask = info["action_mask"]
            assert mask.dtype == np.int8 and board.dtype == np.int64
            if mask_in_observation:
                assert set(observation) == {"observation", "action_mask"}
                assert np.array_equal(observation["action_mask"], mask)
            over = info.get("game_over", False)
            forced += over
            if over:
                assert (mask == 1).all()
            else:
                legal = np.zeros(env.num_actions, dtype=np.int8)
                legal[env.state.legal_actions()] = 1
                assert np.array_equal(mask, legal)
            action = int(rng.integers(env.num_actions))
            illegal = not over and mask[action] == 0
            observation, reward, done, truncated, info = env.step(action)
            assert info["illegal"] == illegal and not truncated
            assert board.shape == env.spec_game.highs.shape
        finals += 1
        assert env.observation_space.contains(observation) and reward in (1.0, -1.0)
        final = observation["observation"] if mask_in_observation else observation
        if "game" in kwargs:
            assert final[2] == 0  # a finished turn is banked or lost
        assert reward == (1.0 if env.winner == env.me else -1.0)
    assert finals == 150
    assert forced or kwargs.get("game") == "piglet"  # piglet's optimal opponent never wins its first turn


@pytest.mark.parametrize("kwargs, one, episodes", [
    ({"game": "pig", "goal": 12}, lambda o: int(o[2] >= 5), 4000),
    ({"rules": "su18", "goal": 15}, lambda o: 6 if o[0] < 8 else 2, 4000),
    ({"rules": "fa19", "goal": 12}, lambda o: 2 if o[2] == 0 else 5, 1200),  # memories: the general lane
])
@pytest.mark.parametrize("seat", ["first", "second"])
def test_the_single_envs_episodes_pay_each_seat_its_exact_win_rate_at_a_small_goal(kwargs, one, episodes, seat):
    """The fast tier's check that Hog-v0 and Pig-v0 play the agent's moves in the agent's seat
    and pay it its result (the slow tier has larger games); with fa19, the general lane, whose
    opponent plays by its memory-dependent table."""
    from hogsolve.interop.core import evaluate_agent
    from hogsolve.interop.gymnasium import HogsolveEnv
    from hogsolve.util.stats import wilson_interval
    env = HogsolveEnv(opponent="optimal", seat=seat, **kwargs)
    exact = evaluate_agent(one, kwargs.get("rules") or kwargs.get("game"), goal=kwargs["goal"]).against_optimal
    wins = 0
    observation, _ = env.reset(seed=21)
    for _ in range(episodes):
        done = False
        while not done:
            observation, reward, done, _, _ = env.step(one(observation))
        wins += reward > 0
        observation, _ = env.reset()
    low, high = wilson_interval(wins / episodes, episodes, z=4.0)
    assert low <= (exact.first if seat == "first" else exact.second) <= high, (wins / episodes, exact)


def test_the_vector_env_is_built_as_asked_and_answers_in_its_types():
    """Mistakes: num_envs checked at the wrong bound, a rules object's goal dropped, the
    seat drawn wrong, a bad action misnamed, Neller's one die called illegal, arrays of the
    wrong dtype, new games not at 0-0, a finished game's turn total shown, piglet's hold at a
    total of 1 masked."""
    from hogsolve.interop.vector import HogsolveVectorEnv
    for bad in (0, -3, True, 2.5):
        with pytest.raises(ValueError, match=f"^num_envs must be a positive int, got {bad!r}$"):
            HogsolveVectorEnv(bad)
    one = HogsolveVectorEnv(1)
    assert one.spec_game.rules.name == "su18" and one.action_space.shape == (1,)
    custom = HogsolveVectorEnv(6, rules=get_rules("fa18"), goal=25)
    assert custom.spec_game.goal == 25 and list(custom.single_observation_space.high) == [25, 25]
    observation, info = custom.reset(seed=3)
    assert observation.dtype == np.int64 and info["action_mask"].dtype == np.int8
    assert info["illegal"].dtype == bool and not info["illegal"].any()
    _, reward, done, truncated, info = custom.step(np.full(6, 4))
    assert reward.dtype == np.float64 and done.dtype == bool and truncated.dtype == bool
    assert info["illegal"].dtype == bool
    with pytest.raises(ValueError, match="^action 11 is outside 0 to 10$"):
        custom.step(np.array([0, 11, 12, 3, 3, 3]))
    with pytest.raises(ValueError, match="^action -1 is outside 0 to 10$"):
        custom.step(np.array([0, 3, -1, 3, 3, 3]))
    first = HogsolveVectorEnv(32, game="pig", goal=30, seat="first", opponent="hold_at:10")
    assert (first.reset(seed=1)[0] == 0).all()  # every game at 0-0, the agent to move
    both = HogsolveVectorEnv(64, game="pig", goal=30, seat="random")
    both.reset(seed=2)
    assert set(both.me.tolist()) == {0, 1}
    hog = HogsolveVectorEnv(16, rules="hog", goal=30)
    hog.reset(seed=1)
    assert not hog.step(np.ones(16, dtype=int))[4]["illegal"].any()  # one die is a move in Neller's Hog
    piglet = HogsolveVectorEnv(256, game="piglet", goal=10, opponent="hold_at:3")
    observation, info = piglet.reset(seed=4)
    for _ in range(30):
        assert np.array_equal(info["action_mask"][:, 1] == 1, (observation[:, 2] > 0) | info["game_over"])
        observation, reward, done, _, info = piglet.step(np.zeros(256, dtype=int))
        if done.any():
            assert (info["final_obs"][done, 2] == 0).all()  # a finished turn is banked or lost


@pytest.mark.parametrize("name, goal, opponent", [("pig", 30, "hold_at:10"), ("piglet", 10, "hold_at:1"),
                                                   ("fa19", 20, "optimal"), ("su18", 20, "optimal")])
def test_the_vector_envs_opponent_and_observations_read_the_right_cells(name, goal, opponent):
    """Mistakes: the opponent's table read at the wrong memories or turn total, a roll or hold
    coded wrong, the agent's observation with the scores or memories of the wrong seat."""
    from hogsolve.families.opponents import opponent_table
    spec = game_spec(name, goal)
    games = spec.family.vector_games(spec, opponent)
    table = opponent_table(opponent, spec)
    rng = np.random.default_rng(goal)
    n = 300
    games.start(n)
    games.mover[:] = rng.integers(0, 2, n)
    me = rng.integers(0, 2, n)
    if spec.family.name == "roll-or-hold":
        games.scores[:] = rng.integers(0, goal, (n, 2))
        games.total[:] = rng.integers(0, goal, n)
        i, j = games.scores[np.arange(n), games.mover], games.scores[np.arange(n), 1 - games.mover]
        k = games.total
        expected = [0 if kk == 0 or table[a, b, kk] else 1 for a, b, kk in zip(i, j, k)]
        seen = [[games.scores[r, me[r]], games.scores[r, 1 - me[r]], k[r] if games.mover[r] == me[r] else 0]
                for r in range(n)]
    else:
        s, o = rng.integers(0, goal, n), rng.integers(0, goal, n)
        games.state[:] = s * goal + o
        size = spec.rules.context_shape[0] if spec.memories else 1
        mine, theirs = rng.integers(0, size, n), rng.integers(0, size, n)
        if spec.memories:
            games.mine[:], games.theirs[:] = mine, theirs
            expected = [int(table[a, b, c, d]) for a, b, c, d in zip(s, o, mine, theirs)]
        else:
            expected = [int(table[a, b]) for a, b in zip(s, o)]
        seen = []
        for r in range(n):
            row = [s[r], o[r]] if games.mover[r] == me[r] else [o[r], s[r]]
            if spec.memories:
                row += [mine[r], theirs[r]] if games.mover[r] == me[r] else [theirs[r], mine[r]]
            seen.append(row)
    assert games.opponent_actions(np.arange(n)).tolist() == expected
    assert games.observe(me).tolist() == [[int(x) for x in row] for row in seen]


def test_the_envs_edges_a_user_meets():
    """Mistakes: a Hog game dealt anywhere but 0-0, a reset without a seed failing, the batched
    action space one game wide, a column of actions refused, Neller's zero dice played as zero
    dice rather than one, a finished single game stepped on."""
    from hogsolve.interop.gymnasium import HogsolveEnv
    from hogsolve.interop.vector import HogsolveVectorEnv
    hog = HogsolveVectorEnv(8, rules="su18", goal=30, seat="first")
    assert (hog.reset(seed=2)[0] == 0).all() and hog.action_space.shape == (8,)
    unseeded = HogsolveVectorEnv(8, game="pig", goal=20, seat="random")
    unseeded.reset()
    column = unseeded.step(np.zeros((8, 1), dtype=int))
    assert column[0].shape == (8, 3)
    twins = [HogsolveVectorEnv(8, rules="su18", goal=30) for _ in range(2)]
    for env in twins:
        env.reset(seed=9)
    assert np.array_equal(twins[0].step(np.full((8, 1), 3))[0], twins[1].step([3] * 8)[0])
    lanes = [HogLane(game_spec("hog", 30), "always_roll:4") for _ in range(2)]
    for lane, dice in zip(lanes, (0, 1)):
        lane.place(10, 12, 0)
        assert lane.play(dice, random.Random(4)) is (dice == 1)
    assert lanes[0].scores() == lanes[1].scores() and lanes[0].mover == lanes[1].mover
    single = HogsolveEnv(game="pig", goal=10, opponent="hold_at:5")
    single.reset(seed=1)
    done = False
    while not done:
        _, _, done, _, _ = single.step(0)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        single.step(0)
