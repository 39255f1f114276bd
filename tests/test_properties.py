"""Properties checked over generated cases (hypothesis)."""
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from hogsolve import get_rules, rulesets
from hogsolve.solver.model import cached_model
from hogsolve.hog.engine import take_turn
from hogsolve.hog.rules import roll_points, zero_dice_points
from hogsolve.sibala.rules import Variant, evaluate, winner
from hogsolve.sinbad.room import Room

DIE = st.integers(1, 6)
HAND = st.lists(DIE, min_size=4, max_size=4)
VARIANT = st.builds(Variant, triple_scores=st.booleans(), face_rank=st.booleans())


@given(black=HAND, white=HAND, variant=VARIANT)
def test_sibala_comparison_is_symmetric(black, white, variant):
    forward, backward = winner(black, white, variant), winner(white, black, variant)
    flip = {"Black": "White", "White": "Black", None: None}
    assert backward.side == flip[forward.side]
    if forward.side is not None:
        assert forward.hand == backward.hand


@given(dice=HAND, order=st.permutations(range(4)), variant=VARIANT)
def test_sibala_hand_ignores_the_order_of_the_dice(dice, order, variant):
    a, b = evaluate(dice, variant), evaluate([dice[i] for i in order], variant)
    assert (a.category, a.points, a.tie_die) == (b.category, b.points, b.tie_die)
    assert a.strength(variant) == b.strength(variant)


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(sorted(rulesets())), s=st.integers(0, 99), o=st.integers(0, 99),
       n=st.integers(0, 10), faces=st.lists(st.integers(1, 6), min_size=10, max_size=10))
def test_engine_and_model_agree_on_random_states(name, s, o, n, faces):
    model = cached_model(get_rules(name))
    rules = model.rules
    sides = int(rules.dice_sides(s, o))
    faces = [1 + (f - 1) % sides for f in faces]
    stream = iter(faces)
    turn = take_turn(rules, 0, s, o, n, lambda _sides: next(stream))
    raw = int(zero_dice_points(rules, s, o)) if n == 0 else roll_points(faces[:n], rules.pig_out, rules.pig_out_rule)
    points = int(rules.turn_score(raw, n))
    assert turn.points == points
    # a history rule's bonus (both memories 0 here, the start of a game) joins the points
    assert turn.feral_bonus == (int(rules.history.points(n, 0)) if rules.history is not None else 0)
    points += turn.feral_bonus
    if n:
        kind = model.dice_kind[s, o]
        assert model.dice_sides_values[kind] == sides and model.counts[kind, n, points - turn.feral_bonus] > 0
    else:
        assert model.free_bacon_points[s, o] == points - turn.feral_bonus
    landing = int(model.piggy_landing(s, o, n)) if turn.piggy_back else int(model.land(s, o, points))
    if turn.new_score >= rules.goal:
        assert landing == model.win
    elif turn.new_opponent_score >= rules.goal:
        assert landing == model.loss
    elif turn.piggy_back:
        assert landing == turn.new_opponent_score * rules.goal + turn.new_score
    elif turn.extra_turn:
        assert model.again[s + points, o] and landing == turn.new_score * rules.goal + turn.new_opponent_score
    else:
        assert model.again is None or not model.again[s + points, o]
        assert landing == turn.new_opponent_score * rules.goal + turn.new_score


PLAYERS = ["ann", "bob", "cy"]
LINES = st.one_of(
    st.builds(lambda d: f"/b {d}", st.text("0123456789", min_size=1, max_size=5)),
    st.builds(lambda d, p: f"/b {d} {p}", st.text("123456789", min_size=1, max_size=4),
              st.sampled_from(PLAYERS + ["zed"])),
    st.sampled_from(["hog", "/hand", "/away", "/back", "/leave", "hello", "/nope", "/b", "/b x y z"]),
)


class RoomMachine(RuleBasedStateMachine):
    """Random valid and invalid commands: no card is ever created or destroyed."""

    def __init__(self):
        super().__init__()
        self.room = Room(PLAYERS, seed=7)
        self.room.start()

    def snapshot(self):
        r = self.room.round
        return ({p: list(h) for p, h in r.hands.items()}, dict(r.offers), dict(self.room.game.totals))

    @rule(player=st.sampled_from(PLAYERS + ["zed"]), line=LINES)
    def say(self, player, line):
        before = self.snapshot()
        out = self.room.handle(player, line)
        if out and out[0].event and out[0].event[0] == "error":
            assert self.snapshot() == before  # a refusal changes nothing
            assert out[0].to == player        # and is private

    @invariant()
    def cards_are_conserved(self):
        r = self.room.round
        if not r.over:
            assert r.card_totals() == Counter({item: 9 for item in r.items})
            assert all(len(hand) == 9 for hand in r.hands.values())


RoomMachine.TestCase.settings = settings(max_examples=60, stateful_step_count=40, deadline=None,
                                         suppress_health_check=[HealthCheck.too_slow])
test_room_state_machine = RoomMachine.TestCase
