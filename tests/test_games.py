"""One state interface for every game, checked against what each solver assumes.

Random walks drive each game's state with random actions and chance outcomes;
at every decision state of the walk, each action's successors and their
probabilities (found through the interface: clone, apply, look) must be the
compiled model's transitions exactly (Hog), satisfy the solved table's Bellman
equation (the Pig family), or give the exact bank value (Sibala).
"""
import random
from fractions import Fraction

import pytest

from hogsolve import get_pig_game, get_rules, rulesets
from hogsolve.solver.pig import solve_pig
from hogsolve.games.interface import CHANCE, TERMINAL, GameState, random_playout, random_step, sample_outcome
from hogsolve.hog.rulefile import load_rules_file, to_toml
from hogsolve.hog.state import HogState
from hogsolve.pig.state import HOLD, ROLL, PigState
from hogsolve.sibala.odds import banker_value
from hogsolve.sibala.rules import Variant
from hogsolve.sibala.state import BANKER, SibalaState
from hogsolve.solver.model import cached_model


def hog_successors(state: HogState, action: int, model):
    """{model key: probability} of one action from a decision state, through the interface only."""
    mover, goal, rules = state.current_player, model.goal, state.rules
    child = state.clone()
    child.apply_action(action)
    branches = [(child, Fraction(1))] if not child.is_chance_node() else []
    for outcome, p in child.chance_outcomes():
        leaf = child.clone()
        leaf.apply_action(outcome)
        branches.append((leaf, p))
    out = {}
    for leaf, p in branches:
        assert not leaf.is_chance_node()
        m = leaf.match
        if leaf.is_terminal():
            key = model.win if m.winner == mover else model.loss
        else:
            s, o = m.scores[m.mover], m.scores[1 - m.mover]
            if rules.history is not None:
                key = (s * goal + o,) + rules.context_index((m.remembered[m.mover], m.remembered[1 - m.mover]))
            else:
                key = s * goal + o + (model.again_base if m.mover == mover else 0)
        out[key] = out.get(key, 0) + p
    return out


def walk_hog(rules, steps: int, seed: int, actions_per_state: int):
    """Check every visited decision state; returns how many were checked."""
    model = cached_model(rules)
    rng = random.Random(seed)
    state, checked = HogState(rules), 0
    for _ in range(steps):
        if state.is_terminal():
            state = HogState(rules, first=rng.randrange(2))
        if not state.is_chance_node():
            m = state.match
            s, o = m.scores[m.mover], m.scores[1 - m.mover]
            context = rules.context_index((m.remembered[m.mover], m.remembered[1 - m.mover]))
            legal = state.legal_actions()
            assert legal == list(range(int(rules.min_dice), int(rules.max_dice) + 1))
            for n in sorted(rng.sample(legal, min(actions_per_state, len(legal)))):
                expected = dict(model.transitions(s, o, n, context))
                assert hog_successors(state, n, model) == expected, (rules.name, s, o, context, n)
            checked += 1
        random_step(state, rng)
    return checked


@pytest.mark.parametrize("name", list(rulesets()))
def test_hog_state_is_the_model_for_every_ruleset(name):
    """Same successors, same exact probabilities, for every built-in ruleset (Feral Hogs'
    memories, extra turns, Piggy Back, bonuses and semester quirks included)."""
    rules = get_rules(name)
    assert walk_hog(rules, steps=25, seed=sum(map(ord, name)), actions_per_state=3) >= 6


@pytest.mark.slow
@pytest.mark.parametrize("name", list(rulesets()))
def test_hog_state_is_the_model_everywhere_on_long_walks(name):
    assert walk_hog(get_rules(name), steps=400, seed=7, actions_per_state=11) >= 100


def test_hog_state_from_a_rule_file(tmp_path):
    """A rule file's ruleset (fa22's components under a new name, at goal 50) through the same check."""
    path = tmp_path / "mine.toml"
    path.write_text(to_toml(get_rules("fa22")).replace('name = "fa22"', 'name = "mine"').replace(
        "goal = 100", "goal = 50"))
    rules = load_rules_file(path)
    assert rules.name == "mine" and rules.goal == 50
    assert walk_hog(rules, steps=60, seed=3, actions_per_state=3) >= 15


def test_hog_state_follows_the_official_rules():
    """Free Bacon needs no chance node; an extra turn keeps the move; the observation is the
    seat's own side; a finished game has returns and no actions."""
    state = HogState(get_rules("su18"), 46, 0)
    assert state.current_player == 0 and state.legal_actions() == list(range(11))
    state.apply_action(0)  # su18 Free Bacon on 0: 1 + 0 * 0 = 1 point
    assert state.match.scores == [47, 0] and state.current_player == 1
    assert state.observation(1) == {"score": 0, "opponent_score": 47, "to_move": True, "rolling": 0}
    state.apply_action(2)
    assert state.is_chance_node() and state.current_player == CHANCE and state.legal_actions() == []
    outcomes = dict(state.chance_outcomes())
    assert outcomes[1] == Fraction(11, 36) and outcomes[12] == Fraction(1, 36) and sum(outcomes.values()) == 1
    with pytest.raises(ValueError, match="cannot score 3 points"):
        state.apply_action(3)
    state.apply_action(12)
    assert state.match.scores == [47, 12] and str(state) == "su18: 47-12, player 0 to move"
    hog = HogState(get_rules("hog"))
    assert hog.legal_actions() == list(range(1, 11))  # Neller's Hog: no zero-dice move
    with pytest.raises(ValueError, match="not a legal dice count"):
        hog.apply_action(0)
    extra = HogState(get_rules("fa20"), 8, 10)  # Pig Pass: trailing by 2 after the turn
    extra.apply_action(0)
    turn = extra.match.turns[-1]
    assert (extra.match.mover == 0) == turn.extra_turn
    done = HogState(get_rules("su18"), 98, 15)
    done.apply_action(0)  # 1 + (1 x 5) % 10 = 6 points: 104, no swap (ones 4, tens 1)
    assert done.is_terminal() and done.current_player == TERMINAL and done.returns() == [1.0, -1.0]
    assert done.legal_actions() == [] and "player 0 won" in str(done)


def test_feral_hogs_observation_and_clone():
    state = HogState(get_rules("fa19"))
    state.apply_action(4)
    copy = state.clone()
    copy.apply_action(8)
    assert state.is_chance_node() and state.match.scores == [0, 0]
    assert copy.observation(0)["memory"] == 4 and copy.observation(1)["opponent_memory"] == 4


def pig_check(solution, state: PigState):
    """The solved table's Bellman equation at ``state``, with successors from the interface."""
    g, value = solution.game.goal, solution.values
    mover = state.current_player

    def worth(leaf):  # the mover's chance to win after ``leaf``, from the solved table
        m = leaf.match
        if leaf.is_terminal():
            return 1.0 if m.winner == mover else 0.0
        i, j, k = m.state()
        return value[i, j, k] if m.mover == mover else 1.0 - value[i, j, k]
    q = {}
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if child.is_chance_node():
            q[action] = 0.0
            for outcome, p in child.chance_outcomes():
                leaf = child.clone()
                leaf.apply_action(outcome)
                q[action] += float(p) * worth(leaf)
        else:
            q[action] = worth(child)
    i, j, k = state.match.state()
    bound = solution.certificate.error_bound + 1e-12
    assert abs(max(q.values()) - value[i, j, k]) <= 2 * bound
    chosen = ROLL if solution.policy[i, j, k] or k == 0 else HOLD
    assert q[chosen] >= max(q.values()) - 2 * bound
    assert i + k < g


@pytest.mark.parametrize("name, goal", [("pig", 30), ("piglet", 10), ("two-dice-pig", 25), ("big-pig", 30)])
def test_pig_state_satisfies_the_solved_table(name, goal):
    game = get_pig_game(name, goal=goal)
    solution = solve_pig(game)
    rng, state, checked = random.Random(name), PigState(game), 0
    for _ in range(600):
        if state.is_terminal():
            assert sorted(state.returns()) == [-1.0, 1.0]
            state = PigState(game, first=rng.randrange(2))
        if not state.is_chance_node():
            pig_check(solution, state)
            checked += 1
        random_step(state, rng)
    assert checked >= 150


def test_pig_state_rules():
    state = PigState(get_pig_game("pig", goal=10))
    assert state.legal_actions() == [ROLL]
    with pytest.raises(ValueError, match="hold is not legal"):
        state.apply_action(HOLD)
    state.apply_action(ROLL)
    assert state.is_chance_node() and sum(p for _, p in state.chance_outcomes()) == 1
    six = next(i for i, ((kind, x), _) in enumerate(state.outcomes) if (kind, x) == ("add", 6))
    state.apply_action(six)
    assert state.legal_actions() == [ROLL, HOLD] and state.observation(0)["turn_total"] == 6
    state.apply_action(ROLL)
    state.apply_action(six)  # 12 >= 10: holds and wins at once
    assert state.is_terminal() and state.returns() == [1.0, -1.0] and state.match.scores == [12, 0]
    wipe = PigState(get_pig_game("two-dice-pig"))
    wipe.match.scores = [30, 0]
    wipe.apply_action(ROLL)
    wiped = next(i for i, ((kind, _), _) in enumerate(wipe.outcomes) if kind == "wipe")
    assert wipe.action_to_string(wiped) == "wipe"
    wipe.apply_action(wiped)
    assert wipe.match.scores == [0, 0] and wipe.current_player == 1


def expected_banker_gain(variant: Variant) -> Fraction:
    """The banker's exact expected gain over the interface's whole tree; a no-point roll
    returns to the same state, so each rolling phase is solved as v = (sum over the
    others) / (1 - chance of a no-point roll); the player's phase is cached by the banker's hand."""
    cache = {}

    def phase(state: SibalaState) -> Fraction:
        key = (state.rolling, state.banker.strength(variant) if state.banker else None)
        if key in cache:
            return cache[key]
        rest, stay = Fraction(0), Fraction(0)
        for outcome, p in state.chance_outcomes():
            child = state.clone()
            child.apply_action(outcome)
            if child.is_terminal():
                rest += p * Fraction(int(child.returns()[BANKER]))
            elif child.rolling == state.rolling:
                stay += p
            else:
                rest += p * phase(child)
        cache[key] = rest / (1 - stay)
        return cache[key]
    return phase(SibalaState(variant))


@pytest.mark.parametrize("variant", [Variant(), Variant(triple_scores=True, face_rank=True)])
def test_sibala_state_gives_the_exact_bank_value(variant):
    assert expected_banker_gain(variant) == banker_value(variant)


def test_sibala_round_by_the_interface():
    rng = random.Random(5)
    results = set()
    for _ in range(300):
        state = random_playout(SibalaState(), rng)
        assert state.legal_actions() == [] and state.current_player == TERMINAL
        assert sum(state.returns()) == 0 and state.returns()[1] == state.result
        results.add(state.result)
        assert state.observation(1)["gain"] == state.result and "Sibala: banker" in str(state)
    assert results == {-1, 0, 1}


@pytest.mark.parametrize("make", [lambda: HogState(get_rules("fa19")), lambda: PigState(get_pig_game("piglet")),
                                  SibalaState])
def test_every_state_is_a_game_state(make):
    state = make()
    assert isinstance(state, GameState)
    playout = random_playout(state.clone(), random.Random(1))
    assert playout.is_terminal() and not state.is_terminal()


def test_sample_outcome_is_exact():
    outcomes = [(0, Fraction(1, 3)), (1, Fraction(2, 3))]
    rng = random.Random(0)
    draws = [sample_outcome(outcomes, rng) for _ in range(3000)]
    assert 900 <= draws.count(0) <= 1100
    with pytest.raises(ValueError, match="do not sum to 1"):
        sample_outcome([(0, Fraction(1, 3))], random.Random(0))


def test_the_sibala_terminal_plays_through_the_state():
    """Every roll's index names the same dice, and a seeded game at the terminal settles as the
    state says (the house's terminal rolls through SibalaState)."""
    from itertools import product
    from hogsolve.sessions.sibala_terminal import play_house
    from hogsolve.sibala.odds import ROLLS
    from hogsolve.sibala.state import roll_index
    assert all(ROLLS[roll_index(dice)] == dice for dice in product(range(1, 7), repeat=4))
    lines = []
    answers = iter([""] * 40 + ["q"])
    result = play_house(seed=11, read=lambda prompt: next(answers), write=lines.append)
    outcomes = [line for line in lines if line in ("You win the round.", "The banker wins the round.", "Push.")]
    assert len(outcomes) == result["rounds"] == 40
    gains = {"You win the round.": 1, "The banker wins the round.": -1, "Push.": 0}
    assert sum(gains[o] for o in outcomes) == result["balance"]
