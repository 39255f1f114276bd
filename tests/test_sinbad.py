"""SinbadHogBot: rules, chat protocol, invariants under seeded games, odds, CLI."""
import copy
import itertools
import json
import random
from collections import Counter
from fractions import Fraction
from math import comb

import pytest

from cli_helpers import run_main
from hogsolve.cli import main
from hogsolve.sinbad.bots import BOTS, Bot
from hogsolve.sinbad.rules import DEFAULT_ITEMS, Game, Round, RuleError
from hogsolve.sinbad.odds import deal_odds, largest_collection, player_dealt_hog, someone_dealt_hog
from hogsolve.sinbad.room import Message, Room
from hogsolve.sinbad.tournament import play_game, run_tournament, standings

ITEMS3 = [("bacon", 10), ("ham", 15), ("ribs", 30)]


def fixed_round(hands):
    """A round with chosen hands (sorted by the item order)."""
    r = Round(list(hands), ITEMS3[:len(hands)], random.Random(0))
    for p, h in hands.items():
        r.hands[p] = r._sorted(h)
    return r


def three_hands():
    return fixed_round({
        "ann": ["bacon"] * 5 + ["ham"] * 2 + ["ribs"] * 2,
        "bob": ["bacon"] * 2 + ["ham"] * 6 + ["ribs"] * 1,
        "cy": ["bacon"] * 2 + ["ham"] * 1 + ["ribs"] * 6,
    })


def test_deal():
    r = Round(["a", "b", "c", "d"], DEFAULT_ITEMS[:4], random.Random(3))
    assert all(len(h) == 9 for h in r.hands.values())
    assert r.card_totals() == Counter({i: 9 for i, _ in DEFAULT_ITEMS[:4]})


def test_offer_and_accept_trade_atomically():
    r = three_hands()
    r.offer("bob", [1, 2])          # bob's two bacon
    trade = r.accept("ann", [6, 7], "bob")  # ann's two ham
    assert (trade.a, trade.b, trade.a_item, trade.b_item, trade.count) == ("ann", "bob", "ham", "bacon", 2)
    assert Counter(r.hands["ann"]) == Counter(bacon=7, ribs=2)
    assert Counter(r.hands["bob"]) == Counter(ham=8, ribs=1)
    assert r.offers == {}


def test_accepting_withdraws_own_offer_and_offer_replaces():
    r = three_hands()
    r.offer("ann", [8])
    r.offer("ann", [8, 9])
    assert r.offers["ann"].count == 2
    r.offer("cy", [3])
    r.accept("ann", [6], "cy")
    assert "ann" not in r.offers and "cy" not in r.offers


@pytest.mark.parametrize("positions, other, message", [
    ([0], "bob", "run from 1 to 9"),
    ([10], "bob", "run from 1 to 9"),
    ([1, 6], "bob", "not all one item"),
    ([1, 2, 3], "bob", "bob offers 2 cards"),
    ([1, 1], "bob", "once"),
    ([1, 2, 3, 4, 5], "bob", "1 to 4"),
    ([1, 2], "zed", "no player named"),
    ([1, 2], "ann", "your own offer"),
    ([1, 2], "cy", "cy has no open offer"),
])
def test_refused_trades_change_nothing(positions, other, message):
    r = three_hands()
    r.offer("bob", [1, 2])
    before = copy.deepcopy((r.hands, r.offers))
    with pytest.raises(RuleError, match=message):
        r.accept("ann", positions, other)
    assert (r.hands, r.offers) == before


def test_away_player_gives_fewest_held_item():
    r = three_hands()
    r.status["cy"] = "away"
    # cy holds bacon 2, ham 1, ribs 6: for one card, the fewest held is ham
    trade = r.accept("ann", [1], "cy")
    assert trade.b_item == "ham"
    # for two cards: only bacon (2) and ribs (6) have enough; bacon is fewer
    trade = r.accept("ann", [1, 2], "cy")
    assert trade.b_item == "bacon"
    with pytest.raises(RuleError, match="holds no 4 cards of one item|not all one item"):
        r.accept("bob", [1, 2, 3, 4], "cy")
    with pytest.raises(RuleError, match="^cy holds no 7 cards of one item$"):
        r.away_gives("cy", 7)
    r.offer("bob", [9])  # an away player's matching open offer is used first
    r.status["bob"] = "gone"
    assert r.accept("cy", [2], "bob").b_item == "ribs"


def test_hog_and_scores():
    r = fixed_round({"ann": ["ham"] * 9, "bob": ["bacon"] * 7 + ["ribs"] * 2, "cy": ["bacon"] * 2 + ["ribs"] * 7})
    with pytest.raises(RuleError, match="largest collection is 7"):
        r.hog("bob")
    assert r.hog("ann") == "ham"
    assert r.scores() == {"ann": 15, "bob": 7, "cy": 7}
    with pytest.raises(RuleError, match="round is over"):
        r.hog("ann")  # only the first hog counts


def test_game_end_and_ties():
    g = Game(["a", "b"], random.Random(1), ITEMS3[:2], target=60)
    g.new_round()
    g.totals = {"a": 50, "b": 55}
    g.round.hands = {"a": ["ham"] * 9, "b": ["bacon"] * 9}
    g.round.hog("a")  # a scores 15 -> 65; b scores 9 -> 64
    g.finish_round()
    assert g.winners == ["a"]
    g2 = Game(["a", "b"], random.Random(1), ITEMS3[:2], target=60)
    g2.new_round()
    g2.totals = {"a": 50, "b": 51}
    g2.round.hands = {"a": ["bacon"] * 9, "b": ["ham"] * 9}
    g2.round.end_without_hog()  # both score 9: 59 and 60
    g2.finish_round()
    assert g2.winners == ["b"]
    with pytest.raises(RuleError):
        Game(["a", "a"], random.Random(1))
    with pytest.raises(RuleError):
        Game(["a"], random.Random(1))


def state(room):
    r = room.round
    return copy.deepcopy((r.hands, r.offers, r.status, room.game.totals, r.over))


@pytest.mark.parametrize("line, words", [
    ("/b 0", "run from 1 to 9"), ("/b 19", "not all one item"), ("/b 12345", "1 to 4"),
    ("/b 1 nobody", "no player named"), ("/b 1 p0", "your own offer"), ("/b 1 p1", "no open offer"),
    ("/b", "usage"), ("/bx 1", "usage"), ("hog", "no hog"), ("/frob", "unknown command"),
])
def test_room_refusals_are_private_and_change_nothing(line, words):
    room = Room(["p0", "p1", "p2"], seed=4)
    room.start()
    before = state(room)
    out = room.handle("p0", line)
    assert len(out) == 1 and out[0].to == "p0" and out[0].text.startswith("error:")
    assert words in out[0].text
    assert state(room) == before


def test_room_lines():
    room = Room(["p0", "p1"], seed=5)
    start = room.start()
    assert start[0].to is None and "nine cards of each" in start[0].text
    assert [m.to for m in start[1:]] == ["p0", "p1"]
    item = room.round.hands["p1"][0]
    count = room.round.hands["p1"].count(item)
    p1_before = list(room.round.hands["p1"])
    out = room.handle("p1", "/b 1")
    assert out[0].text == "p1 offers 1 card" and item not in out[0].text  # the room never sees items
    assert out[0].to is None and out[0].event == ("offer", "p1", 1)
    assert out[1:] == [Message(f"your open offer: 1 {item} [{room.round.values[item]}]", "p1", ("my_offer", item, 1))]
    p0_item = room.round.hands["p0"][0]
    out = room.handle("p0", "/b 1 p1")
    public = [m for m in out if m.to is None]
    assert [m.text for m in public] == ["p0 trades 1 card with p1"]
    got = {m.to: m.event for m in out if m.event[0] == "received"}
    assert got["p0"][2] == item and got["p1"][2] == p0_item
    assert room.handle("p1", "hello")[0].text == "p1: hello"
    # the trade moved exactly one card each way
    assert room.round.hands["p1"].count(item) == count - 1 + (p0_item == item)
    assert sorted(room.round.hands["p1"] + [item]) == sorted(p1_before + [p0_item])


class Spy(Bot):
    """Wraps a bot and records every message it was given."""

    def __init__(self, inner):
        self.inner, self.name, self.seen = inner, inner.name, []

    def observe(self, m):
        self.seen.append(m)
        self.inner.observe(m)

    def act(self, hand):
        return self.inner.act(hand)


@pytest.mark.parametrize("seed", range(12))
def test_invariants_under_seeded_games(seed, monkeypatch):
    kinds = ["tracker", "greedy", "random", "greedy", "random"][: 2 + seed % 4]
    rng = random.Random(seed)
    spies = {}
    real = dict(BOTS)

    def spy_factory(kind):
        def make(name, r):
            spies[name] = Spy(real[kind](name, r))
            return spies[name]
        return make

    monkeypatch.setattr("hogsolve.sinbad.tournament.BOTS", {k: spy_factory(k) for k in real})
    checked = {"trades": 0}

    def observer(m):
        if m.event and m.event[0] == "received":
            checked["trades"] += 1
            assert 1 <= m.event[3] <= 4

    result = play_game(kinds, seed, observer=observer)
    assert checked["trades"] > 0 and checked["trades"] % 2 == 0  # both sides hear of every trade
    assert result.winners and max(result.totals.values()) >= 60
    assert all(result.totals[w] == max(result.totals.values()) for w in result.winners)
    for name, spy in spies.items():
        for m in spy.seen:
            assert m.to in (None, name)  # a bot never sees another's private lines
    # refused commands change nothing; conservation after random garbage
    room = Room([f"p{i}" for i in range(len(kinds))], seed=seed)
    room.start()
    for _ in range(300):
        who = rng.choice(room.game.players)
        line = rng.choice(["/b " + "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 5))),
                           f"/b {rng.randint(1, 9)}{rng.randint(1, 9)} {rng.choice(room.game.players)}",
                           "hog", "/away", "/back", "/b 1 " + rng.choice(room.game.players)])
        before = state(room)
        out = room.handle(who, line)
        if out and out[0].event[0] == "error":
            assert state(room) == before
        trades = [m for m in out if m.event and m.event[0] == "received"]
        if trades:
            a, b = trades
            assert a.event[3] == b.event[3]
        if not room.round.over:
            assert room.round.card_totals() == Counter({i: 9 for i in room.round.items})
            assert all(len(h) == 9 for h in room.round.hands.values())


def test_tournament_is_seeded():
    a = run_tournament(["tracker", "greedy", "random"], 3, 30, seed=9)
    b = run_tournament(["tracker", "greedy", "random"], 3, 30, seed=9)
    assert a == b and a != run_tournament(["tracker", "greedy", "random"], 3, 30, seed=10)


@pytest.mark.slow
def test_tracker_beats_greedy():
    table = {s.kind: s for s in standings(run_tournament(["tracker", "greedy"], 4, 1000, seed=1, jobs=2))}
    tracker, greedy = table["tracker"], table["greedy"]
    assert tracker.seats == greedy.seats == 2000
    assert tracker.interval[0] > greedy.interval[1]


def test_deal_odds_by_enumeration_for_two_players():
    # all C(18, 9) hands of player one, cards 0..8 bacon and 9..17 ham
    counts = Counter()
    for hand in itertools.combinations(range(18), 9):
        bacon = sum(c < 9 for c in hand)
        counts[max(bacon, 9 - bacon)] += 1
    total = comb(18, 9)
    assert largest_collection(2) == {m: Fraction(c, total) for m, c in counts.items()}
    assert player_dealt_hog(2) == Fraction(counts[9], total)
    assert someone_dealt_hog(2) == player_dealt_hog(2)  # the other player then holds a hog too


def test_deal_odds_against_simulation():
    rng = random.Random(1)
    n, trials = 4, 40_000
    deck = [i for i in range(n) for _ in range(9)]
    hits = Counter()
    for _ in range(trials):
        rng.shuffle(deck)
        hits[Counter(deck[:9]).most_common(1)[0][1]] += 1
    for m, p in largest_collection(n).items():
        se = (float(p) * (1 - float(p)) / trials) ** 0.5
        assert abs(hits[m] / trials - float(p)) <= 3.3 * se + 1e-9
    for players in range(2, 9):
        d = deal_odds(players)
        assert sum(d.largest_collection.values()) == 1
        assert d.player_dealt_hog <= d.someone_dealt_hog <= players * d.player_dealt_hog
        assert d.to_dict()["players"] == players


def run(*args, stdin=None):
    return run_main("sinbad", *args, stdin=stdin)


def test_cli_tournament_and_odds(capsys):
    assert main(["sinbad", "tournament", "--players", "3", "--games", "20", "--seed", "2",
                 "--bots", "tracker,greedy,random", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {s["bot"] for s in data["standings"]} == {"tracker", "greedy", "random"}
    assert sum(s["wins"] for s in data["standings"]) == pytest.approx(20)
    assert main(["sinbad", "odds"]) == 0
    assert "1/24310" in capsys.readouterr().out


def test_cli_play_scripted():
    result = run("play", "--seed", "2", "--bots", "2", stdin="/hand\n/b 1\n\n/b 99\nhog\n")
    assert result.returncode == 0
    out = result.stdout
    assert "> your hand: 1 " in out and "you offer 1 card" in out
    assert "> error: no hog" in out and "Final scores: you" in out
    for line in out.splitlines():  # only my own private lines
        if line.startswith("> your hand"):
            assert line.count(",") == 8


@pytest.mark.parametrize("args, message", [
    (["tournament", "--bots", "foo"], "unknown bot"),
    (["tournament", "--players", "9"], "from 2 to 8"),
    (["tournament", "--games", "0"], "at least 1"),
    (["play", "--bots", "8"], "bots must be from 1 to 7"),
    ([], "name a command"),
])
def test_cli_bad_input(args, message):
    result = run(*args)
    assert result.returncode == 2 and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("players, items, message", [
    (["ann lee", "bob"], DEFAULT_ITEMS, "one word"),
    ([3, "bob"], DEFAULT_ITEMS, "one word"),
    (["ann", "bob"], (("ham", 10), ("ham", 15)), "item names must differ"),
    (["ann", "bob"], (("ham", 10), ("bacon", 10)), "values must be distinct"),
    (["ann", "bob", "cy"], (("ham", 10), ("bacon", 15)), "2 to 2 players"),
])
def test_room_configuration_is_checked(players, items, message):
    with pytest.raises(RuleError, match=message):
        Room(players, seed=1, items=items)


def test_commands_before_the_deal_are_refused():
    room = Room(["ann", "bob"], seed=1)
    out = room.handle("ann", "/b 1")
    assert out[0].to == "ann" and "not started" in out[0].text


def test_the_terminal_speaks_to_the_person_in_the_second_person():
    from hogsolve.sessions.sinbad_terminal import play_room, second_person
    assert second_person("you offers 1 card") == "you offer 1 card"
    assert second_person("you is away") == "you are away"
    assert second_person("bob offers 2 cards") == "bob offers 2 cards"
    lines = []
    answers = iter(["/b 1", "/quit"])
    play_room(bots=2, seed=4, read=lambda prompt: next(answers), write=lines.append)
    text = "\n".join(lines)
    assert "you offer 1 card" in text and "you offers" not in text


def test_every_room_line_as_the_bot_guide_documents_it():
    """Exact text, addressee and event of each kind of line (docs/guides/sinbad-bot.md), the
    refusals private, presence and chat public; after the game only chat and presence."""
    room = Room(["ann", "bob"], seed=5, target=1)
    assert room.handle("zed", "hi") == [Message("error: zed is not in this game", "zed", ("error",))]
    assert room.handle("ann", "/b 1") == [Message("error: the game has not started", "ann",
                                                  ("error", "not started"))]
    room.start()
    assert room.handle("ann", "  hello there ") == [Message("ann: hello there", None, ("chat", "ann"))]
    for line, state, words in (("/away", "away", "is away"), ("/back", "here", "is back"),
                               ("/leave", "gone", "has left"), ("/back", "here", "is back")):
        assert room.handle("bob", line) == [Message(f"bob {words}", None, ("status", "bob", state))]
        assert room.round.status["bob"] == state
    hand = room.round.hands["ann"]
    values = room.round.values
    assert room.handle("ann", "/hand") == [Message(
        "your hand: " + ", ".join(f"{i} {c} [{values[c]}]" for i, c in enumerate(hand, 1)), "ann",
        ("hand", tuple(hand)))]
    usage = "usage: /b NNN to offer, /b NNN PLAYER to accept"
    assert room.handle("ann", "/b") == [Message(f"error: {usage}", "ann", ("error", usage))]
    out = room.stall()
    assert out[0] == Message("the round stalls: no hog", None, ("stall",))
    totals = room.game.totals
    assert room.game.over and len(out) == 3  # a target of 1: one round ends the game
    assert out[1] == Message(f"round 1 scores: ann +{totals['ann']} = {totals['ann']}; "
                             f"bob +{totals['bob']} = {totals['bob']}", None,
                             ("scores", dict(totals), dict(totals)))
    top = max(totals.values())
    winners = tuple(p for p in ("ann", "bob") if totals[p] == top)
    assert out[2] == Message(f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''} the game with {top}",
                             None, ("winner", winners))
    for line in ("/b 1", "/b 1 bob", "hog", "HOG"):
        assert room.handle("ann", line) == [Message("error: the game is over", "ann", ("error", "the game is over"))]
    assert room.handle("ann", "gg") == [Message("ann: gg", None, ("chat", "ann"))]
    assert room.handle("bob", "/away")[0].event == ("status", "bob", "away")


@pytest.mark.parametrize("players, items, target, message", [
    (["ann", "bad name"], DEFAULT_ITEMS, 60, "player name 'bad name' must be one word of letters, digits, _ . or -"),
    (["ann", "ann"], DEFAULT_ITEMS, 60, "player names must differ"),
    (["ann", "bob"], (("ham", 10), ("bacon", 0)), 60,
     "an item is (one-word name, positive int value), got ('bacon', 0)"),
    (["ann", "bob"], (("ham", 10), ("bacon", True)), 60,
     "an item is (one-word name, positive int value), got ('bacon', True)"),
    (["ann", "bob"], (("ham", 10), ("bacon", 2.5)), 60,
     "an item is (one-word name, positive int value), got ('bacon', 2.5)"),
    (["ann", "bob"], (("ham", 10), ("bac on", 5)), 60,
     "an item is (one-word name, positive int value), got ('bac on', 5)"),
    (["ann", "bob"], (("ham", 10), (5, 5)), 60, "an item is (one-word name, positive int value), got (5, 5)"),
    (["ann", "bob"], (("ham", 10), ("bacon", 5, 1)), 60,
     "an item is (one-word name, positive int value), got ('bacon', 5, 1)"),
    (["ann", "bob"], (("ham", 10), ["bacon", 5]), 60,
     "an item is (one-word name, positive int value), got ['bacon', 5]"),
    (["ann", "bob"], (("ham", 10), ("ham", 15)), 60, "item names must differ (each item has exactly nine cards)"),
    (["ann", "bob"], (("ham", 10), ("bacon", 10)), 60, "item values must be distinct"),
    (["ann"], DEFAULT_ITEMS, 60, "2 to 8 players, got 1"),
    (["ann", "bob"], DEFAULT_ITEMS, 0, "the target must be a positive int, got 0"),
    (["ann", "bob"], DEFAULT_ITEMS, True, "the target must be a positive int, got True"),
    (["ann", "bob"], DEFAULT_ITEMS, 1.5, "the target must be a positive int, got 1.5"),
])
def test_each_bad_configuration_is_named_exactly(players, items, target, message):
    with pytest.raises(RuleError) as caught:
        Game(players, random.Random(1), items, target)
    assert str(caught.value) == message


def test_the_smallest_and_largest_configurations_play():
    """A value of 1, a target of 1, eight players; hands sorted in the items' order (by value),
    not by name."""
    items = tuple((f"item{i}", 9 - i) for i in range(8))  # names in the opposite order to values
    game = Game([f"p{i}" for i in range(8)], random.Random(2), items, 1)
    assert (game.totals, game.rounds, game.winners) == ({f"p{i}": 0 for i in range(8)}, 0, [])
    r = game.new_round()
    assert game.rounds == 1
    order = {name: value for name, value in items}
    for hand in r.hands.values():
        assert [order[c] for c in hand] == sorted(order[c] for c in hand)
    assert r.items == sorted(r.items, key=order.get)
    assert game.new_round() and game.rounds == 2
    with pytest.raises(RuleError, match="^a round needs 2 to 8 players, got 9$"):
        Round([f"p{i}" for i in range(9)], items + (("x", 20),), random.Random(1))
    with pytest.raises(RuleError, match="^a round uses as many items as players$"):
        Round(["a", "b"], items[:3], random.Random(1))


@pytest.mark.parametrize("move, message", [
    (("offer", "p0", [1, 2, 3, 4, 5]), "trade 1 to 4 cards at a time, not 5"),
    (("offer", "p0", [1, 1]), "each card number may appear once"),
    (("offer", "p0", [10]), "card numbers run from 1 to 9, not 10"),
    (("offer", "zed", [1]), "zed is not playing this round"),
    (("accept", "p0", [1], "p0"), "you cannot accept your own offer"),
    (("accept", "p0", [1], "zed"), "no player named 'zed' in this round"),
    (("accept", "p0", [1], "p1"), "p1 has no open offer"),
])
def test_each_refused_move_is_named_exactly(move, message):
    r = Round(["p0", "p1"], [("ham", 10), ("bacon", 15)], random.Random(3))
    kind, *args = move
    with pytest.raises(RuleError) as caught:
        getattr(r, kind)(*args)
    assert str(caught.value) == message
    r.end_without_hog()
    with pytest.raises(RuleError, match="^the round is over$"):
        r.offer("p0", [1])


def test_mixed_cards_are_named_in_the_rounds_item_order():
    r = Round(["p0", "p1"], [("ham", 10), ("bacon", 15)], random.Random(3))
    hand = r.hands["p0"]
    first_bacon = hand.index("bacon") + 1
    assert hand[0] == "ham"  # hands are sorted in the round's item order
    with pytest.raises(RuleError) as caught:
        r.offer("p0", [first_bacon, 1])
    assert str(caught.value) == f"cards {first_bacon}1 are not all one item (ham, bacon)"


def test_plural_lines_presence_across_rounds_and_away_offers():
    """Two cards are "cards"; presence is kept into the next round; an away player's open
    offer of the right size is what they give."""
    room = Room(["p0", "p1"], seed=8)
    room.start()
    hand1 = room.round.hands["p1"]
    pair1 = next((i, j) for i in range(9) for j in range(i + 1, 9) if hand1[i] == hand1[j])
    out = room.handle("p1", f"/b {pair1[0] + 1}{pair1[1] + 1}")
    assert out[0].text == "p1 offers 2 cards"
    offered = hand1[pair1[0]]
    room.handle("p1", "/away")
    hand0 = room.round.hands["p0"]
    pair0 = next((i, j) for i in range(9) for j in range(i + 1, 9) if hand0[i] == hand0[j])
    out = room.handle("p0", f"/b {pair0[0] + 1}{pair0[1] + 1} p1")
    assert out[0].text == "p0 trades 2 cards with p1"
    assert next(m for m in out if m.to == "p0" and m.event[0] == "received").event[2] == offered
    room.stall()
    assert room.round.status["p1"] == "away"  # the next round keeps who is away


def test_a_tie_at_the_target_goes_to_the_player_who_said_hog():
    game = Game(["a", "b"], random.Random(1), (("ham", 10), ("bacon", 15)), target=9)
    r = game.new_round()
    r.hands = {"a": ["ham"] * 9, "b": ["bacon"] * 9}
    r.hog("a")  # a scores 10 for the hog, b 9 for nine bacon: both reach 9
    game.finish_round()
    assert game.totals == {"a": 10, "b": 9} and game.winners == ["a"]
    game2 = Game(["a", "b"], random.Random(1), (("ham", 9), ("bacon", 15)), target=9)
    r2 = game2.new_round()
    r2.hands = {"a": ["ham"] * 9, "b": ["bacon"] * 9}
    r2.hog("a")  # a scores 9 (ham's value), b 9 cards: tied at the target, the hog breaks it
    game2.finish_round()
    assert game2.totals == {"a": 9, "b": 9} and game2.winners == ["a"]


def test_the_round_hog_and_winner_lines_word_for_word():
    """Mistakes: the round's items joined or named wrong, the hog line's words, one winner
    said as several (or several as one); each line written out here, not rebuilt by the
    code's own expression."""
    items = (("ham", 10), ("bacon", 15))
    room = Room(["ann", "bob"], seed=2, items=items, target=9)
    assert room.start()[0].text == "round 1: ham [10], bacon [15]; nine cards of each"
    room.round.hands = {"ann": ["ham"] * 9, "bob": ["bacon"] * 9}
    out = room.handle("ann", "hog")
    assert out[0] == Message("ann says hog with nine ham [10]!", None, ("hog", "ann", "ham"))
    assert out[-1] == Message("ann wins the game with 10", None, ("winner", ("ann",)))
    tie = Room(["ann", "bob"], seed=2, items=(("ham", 9), ("bacon", 15)), target=9)
    tie.start()
    tie.round.hands = {"ann": ["ham"] * 9, "bob": ["bacon"] * 9}
    out = tie.stall()  # nine cards each and no hog: 9 and 9
    assert out[-1] == Message("ann and bob win the game with 9", None, ("winner", ("ann", "bob")))


def test_an_item_worth_one_point_is_an_item():
    """Mistake: the least item value checked at 2 (or 1 refused)."""
    game = Game(["a", "b"], random.Random(1), (("crumbs", 1), ("ham", 15)), target=30)
    assert dict(game.items) == {"crumbs": 1, "ham": 15}
