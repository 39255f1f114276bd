"""The history rules' fixed-strategy values (solver/history.py): a pair's values on the classes of
memories each strategy plays alike, and a best response to a fixed table, checked against every
action's values on every memory picked afterwards, and against plain recursions over the model's
transitions."""
import numpy as np
import pytest

from hogsolve import best_response, get_rules
import hogsolve
from hogsolve.analysis.policy_values import full_policy, occupancy, play_values
from hogsolve.solver.certificate import rounding_tie_threshold, tie_broken_policy
from hogsolve.solver.history import HistoryTable, own_classes, pair_axes, response_axes
from hogsolve.solver.iteration import by_score_sum
from hogsolve.solver.model import model_for


def picked_pair(model, a, b):
    """The reference: both players' values on every memory, each state's every action's value
    (HistoryTable.action_values) and then the chosen one."""
    a, b = full_policy(model, a), full_policy(model, b)
    tables = HistoryTable(model), HistoryTable(model)
    values = np.zeros(model.value_shape), np.zeros(model.value_shape)

    def update(k):
        d = model.diagonals[k]
        new = [np.take_along_axis(tables[p].action_values(k), policy[d.s, d.o][..., None].astype(np.intp),
                                  axis=-1)[..., 0] for p, policy in enumerate((a, b))]
        change = max(float(np.abs(new[p] - values[p][d.s, d.o]).max()) for p in (0, 1))
        for p in (0, 1):
            values[p][d.s, d.o] = new[p]
        tables[0].fill(k, values[1])
        tables[1].fill(k, values[0])
        return change

    by_score_sum(model, update).check("reference")
    return values


def tables(model, goal, seed):
    rng = np.random.default_rng(seed)
    with_memory = rng.integers(0, 11, (goal, goal) + model.context_shape)
    free = rng.integers(0, 11, (goal, goal))
    free[::3] = 0  # Free Bacon now and then
    few = rng.choice([0, 4], (goal, goal))  # two dice counts: few classes of its memory
    return with_memory, free, few


@pytest.mark.parametrize("name", ["fa19", "sp20", "su20"])
def test_a_pairs_values_on_merged_memories_are_every_actions_values_picked(name):
    """Memory-aware random tables, tables that ignore the memories (one with two dice counts, so
    most memories merge) and the constant always_roll:4, against each other.  Mistakes: an
    entry given another dice count's sums, the bonus of another memory, a class of the other's
    memory mapped to the wrong values, a Free Bacon entry left out, a merged table not copied
    back out to every memory."""
    goal = 24
    model = model_for(get_rules(name, goal=goal))
    with_memory, free, few = tables(model, goal, 7)
    four = np.full((goal, goal), 4)
    for a, b in [(with_memory, free), (free, few), (few, with_memory), (with_memory, four), (four, few)]:
        fast = play_values(model, a, b)
        slow = picked_pair(model, a, b)
        for ours, reference in zip(fast, slow):
            assert ours.shape == model.value_shape
            assert np.abs(ours - reference).max() <= 1e-14
        merged = play_values(model, a, b, merged=True)  # memories never reached merged too: the start is the start
        assert abs(merged[0][0, 0, 0, 0] - fast[0][0, 0, 0, 0]) <= 1e-15
        assert abs(merged[1][0, 0, 0, 0] - fast[1][0, 0, 0, 0]) <= 1e-15


def test_memories_a_strategy_plays_alike_are_one_class_and_no_others():
    """always_roll:4 under sp20 earns the bonus after 2 or 6 points only: two classes; a table of
    0 and 4 dice after 2 or 6 (4 dice) and 2 (0 dice): three; a memory-aware random table: none
    merged.  Mistakes: classes by the dice alone (the bonus ignored), merged where the table
    differs, or a memory play reaches merged with 0."""
    goal = 24
    model = model_for(get_rules("sp20", goal=goal))
    H = model.context_shape[0]
    four = full_policy(model, np.full((goal, goal), 4))
    classes = own_classes(model, four)
    assert classes[0] == 0 and set(np.flatnonzero(classes == classes[2])) == {2, 6}
    assert len(set(classes)) == 2
    few = full_policy(model, np.where(np.arange(goal)[:, None] % 2 == 0, 0, 4) + np.zeros((goal, goal), int))
    assert len(set(own_classes(model, few))) == 3
    with_memory, _, _ = tables(model, goal, 3)
    assert len(set(own_classes(model, with_memory))) == H
    # the memory-aware table's choices split always_roll:4's two classes into every memory
    assert [a.sizes for a in pair_axes(model, with_memory, four)] == [(H, H), (2, H)]
    # where only reached memories count: 4 dice score 1 or 8 to 24, so always_roll:4 never
    # remembers 2 to 7 (merged with 0) and, never remembering 2 or 6, plays one class
    reached = pair_axes(model, with_memory, four, reached=True)
    assert [a.sizes for a in reached] == [(H, 8), (1, H)]
    assert set(np.flatnonzero(reached[0].other == 0)) == {0, 2, 3, 4, 5, 6, 7}
    me, them = response_axes(model, four)
    assert me.sizes == (H, 2) and them.sizes == (2, H)


def picked_best_response(model, opponent, threshold):
    """The reference: a best response on every memory, each state's every action's value, the
    best, and the fewest dice within ``threshold`` of it."""
    opponent = full_policy(model, opponent)
    mine, theirs = HistoryTable(model), HistoryTable(model)
    values = np.zeros(model.value_shape), np.zeros(model.value_shape)
    policy = np.zeros(model.value_shape, dtype=np.int8)

    def update(k):
        d = model.diagonals[k]
        q = mine.action_values(k)
        values[0][d.s, d.o] = q.max(axis=-1)
        policy[d.s, d.o] = tie_broken_policy(np.ascontiguousarray(q), threshold)
        values[1][d.s, d.o] = np.take_along_axis(theirs.action_values(k),
                                                 opponent[d.s, d.o][..., None].astype(np.intp), axis=-1)[..., 0]
        mine.fill(k, values[1])
        theirs.fill(k, values[0])
        return 0.0

    by_score_sum(model, update)
    return values[0], values[1], policy


@pytest.mark.parametrize("name", ["fa19", "sp20"])
def test_a_best_response_on_merged_memories_is_every_memorys(name):
    """The best response to tables that ignore the memories works on the opponent's classes of
    memories (two for always_roll:4); on every memory, every action's value and the tie-break
    give the same values and policy.  Mistakes: a class's value copied to the wrong memories,
    a tie broken differently on merged memories, the opponent's bonus taken from another class."""
    goal = 24
    rules = get_rules(name, goal=goal)
    model = model_for(rules)
    _, free, few = tables(model, goal, 11)
    for opponent in (free, few, np.full((goal, goal), 4)):
        merged = best_response(opponent, rules)
        mine, theirs, policy = picked_best_response(model, opponent, rounding_tie_threshold(model))
        assert np.abs(merged.values - mine).max() <= 1e-14
        assert (merged.policy == policy).all()
        assert merged.win_rate.first == pytest.approx(mine[0, 0, 0, 0], abs=1e-15)
        assert merged.win_rate.second == pytest.approx(1 - theirs[0, 0, 0, 0], abs=1e-15)


def visits_by_transitions(model, mine, theirs):
    """The reference occupancy: expected visits of every state with "me" to move, carried forward
    state by state over the model's own transitions (Fractions as floats), score sum by score sum."""
    g = model.goal
    mine, theirs = full_policy(model, mine), full_policy(model, theirs)
    pending = [{(0, 0, 0, 0): 0.5}, {(0, 0, 0, 0): 0.5}]
    visits = np.zeros(model.value_shape)
    for k in range(2 * g - 1):
        for mover in (0, 1):
            for state in sorted(st for st in pending[mover] if st[0] + st[1] == k):
                mass = pending[mover].pop(state)
                if mover == 0:
                    visits[state] += mass
                n = int((mine if mover == 0 else theirs)[state])
                for nxt, p in model.transitions(state[0], state[1], n, state[2:]):
                    if isinstance(nxt, tuple):
                        flat, a, b = nxt
                        key = (flat // g, flat % g, a, b)
                        pending[1 - mover][key] = pending[1 - mover].get(key, 0.0) + mass * float(p)
    return visits


@pytest.mark.parametrize("name", ["fa19", "sp20"])
def test_occupancy_under_memories_is_the_chance_carried_state_by_state(name):
    """Expected visits with the memories (regret's reach), against a forward pass over the model's
    transitions, for a memory-aware table against a table that ignores the memories (merged
    into few classes).  Mistakes: mass carried to another memory's states, the bonus's rows
    shifted wrongly, a merged memory's mass not handed on, Free Bacon's landing mixed up."""
    goal = 12
    rules = get_rules(name, goal=goal).replace(max_dice=3)
    model = model_for(rules)
    rng = np.random.default_rng(5)
    with_memory = rng.integers(0, 4, (goal, goal) + model.context_shape)
    few = rng.choice([0, 2], (goal, goal))
    for mine, theirs in [(with_memory, few), (few, with_memory)]:
        ours = occupancy(model, mine, theirs)
        reference = visits_by_transitions(model, mine, theirs)
        assert np.abs(ours - reference).max() <= 1e-13


@pytest.mark.parametrize("name", ["fa19", "sp20", "su20"])
def test_regret_under_memories_adds_up_to_the_shortfall(name):
    """The performance-difference identity with memories: the expected losses, weighted by the
    reach the occupancy gives, add up to the strategy's shortfall from one half against the
    optimal strategy.  Mistakes: reach on the wrong memories, mass lost or counted twice."""
    rules = get_rules(name, goal=40)
    report = hogsolve.regret("always_roll:4", rules)
    assert report.total_expected_loss == pytest.approx(0.5 - report.win_rate.average, abs=1e-12)
    assert report.reach[0, 0, 0, 0] == pytest.approx(0.5)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["fa19", "sp20"])
def test_at_the_full_goal_merged_memories_give_every_memorys_figures(name):
    """At goal 100, the optimal strategy against always_roll:4 and a best response to it: the
    merged classes' figures against every memory's with every action's values picked, to
    1e-12; the regret's losses weighted by reach add up to the shortfall."""
    rules = get_rules(name)
    model = model_for(rules)
    optimal = hogsolve.solve(rules).policy
    four = np.full((100, 100), 4)
    rate = hogsolve.win_rate(optimal, four, rules)
    mine, theirs = picked_pair(model, optimal, four)
    assert rate.first == pytest.approx(mine[0, 0, 0, 0], abs=1e-12)
    assert rate.second == pytest.approx(1 - theirs[0, 0, 0, 0], abs=1e-12)
    fast = play_values(model, optimal, four)
    assert max(np.abs(fast[0] - mine).max(), np.abs(fast[1] - theirs).max()) <= 1e-12
    response = best_response("always_roll:4", rules)
    best, _, policy = picked_best_response(model, four, rounding_tie_threshold(model))
    assert np.abs(response.values - best).max() <= 1e-12 and (response.policy == policy).all()
    report = hogsolve.regret("always_roll:4", rules)
    assert report.total_expected_loss == pytest.approx(0.5 - report.win_rate.average, abs=1e-12)


def test_memories_where_a_turn_can_score_nothing_iterate_each_sum():
    """fa19 with a Pig Out worth 0 (a sum can repeat): a pair and a best response on merged
    memories against value iteration over the model's transitions, and the regret's reach
    (carried round the same sum until what stays is negligible) adds up to the shortfall.
    Mistakes: one pass per sum where play can stay on it, mass that stays dropped."""
    from transitions_reference import reference_values
    rules = get_rules("fa19", goal=12).replace(max_dice=3, pig_out=0)
    model = model_for(rules)
    assert not model.progressive
    a = np.random.default_rng(2).integers(0, 4, (12, 12))
    b = np.full((12, 12), 2)
    rate = hogsolve.win_rate(a, b, rules)
    first, theirs = reference_values(model, a, b)
    assert rate.first == pytest.approx(first, abs=1e-12) and rate.second == pytest.approx(1 - theirs, abs=1e-12)
    report = hogsolve.regret(b, rules)
    assert report.total_expected_loss == pytest.approx(0.5 - report.win_rate.average, abs=1e-12)


def test_a_policy_that_chooses_alike_under_every_memory_is_kept_once():
    """A table of the two scores, or a whole table that chooses alike under every memory, is
    kept as one (goal, goal) table broadcast over the memories (the fast paths see it ignores
    them); one that differs at a single memory is kept whole.  Mistakes: a memory-aware table
    taken for a memory-free one (its one different choice lost), or a kept-once table whose
    values or contest digest differ from the same table stored whole."""
    from hogsolve.contest.roundrobin import table_digest
    from hogsolve.strategy.policy import Policy
    goal = 20
    rules = get_rules("fa19", goal=goal)
    model = model_for(rules)
    _, free, _ = tables(model, goal, 5)
    whole = np.ascontiguousarray(full_policy(model, free))
    aware = whole.copy()
    aware[3, 4, 5, 6] = (aware[3, 4, 5, 6] + 1) % 11
    for given in (free, whole):
        kept = Policy(given, rules).table
        assert kept.strides[2:] == (0, 0) and not kept.flags.writeable
        assert np.array_equal(kept, whole) and table_digest(kept, rules) == table_digest(whole, rules)
    kept = Policy(aware, rules).table
    assert 0 not in kept.strides and np.array_equal(kept, aware)
    opponent = tables(model, goal, 6)[0]
    for a, b in [(Policy(whole, rules).table, whole), (Policy(aware, rules).table, aware)]:
        once, stored = play_values(model, a, opponent), play_values(model, b, opponent)
        assert all(np.abs(x - y).max() <= 1e-15 for x, y in zip(once, stored))
