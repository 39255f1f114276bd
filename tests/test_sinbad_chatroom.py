"""The real-time room's game: seats, commands, the first hog, and replay from the commands alone."""
import random
from collections import Counter

import pytest

from hogsolve.sinbad.chatroom import MAX_SEATS, ChatRoom, RoomError
from hogsolve.sinbad.rules import HAND_SIZE


def seated(names, seed=1):
    room = ChatRoom("r", seed)
    for name in names:
        room.apply({"op": "seat", "name": name, "token": f"t-{name}", "kind": "person"})
        room.apply({"op": "presence", "name": name, "online": True})
    return room


def conserved(room):
    """Nine cards of each item, nine cards in each hand."""
    r = room.room.round
    assert all(len(h) == HAND_SIZE for h in r.hands.values())
    assert set(room.room.round.card_totals().values()) == {HAND_SIZE}


def test_seats_names_and_the_start():
    room = seated(["ann"])
    with pytest.raises(RoomError, match="taken"):
        room.apply({"op": "seat", "name": "ANN", "token": "x"})
    with pytest.raises(RoomError, match="one word"):
        room.apply({"op": "seat", "name": "two words", "token": "x"})
    with pytest.raises(RoomError, match="not started"):
        room.apply({"op": "say", "name": "ann", "line": "/b 1"})
    with pytest.raises(RoomError, match="2 to 8"):
        room.apply({"op": "say", "name": "ann", "line": "/start"})
    before = room.snapshot()
    assert room.applied == 2 and before["hands"] == {}
    room.apply({"op": "seat", "name": "bob", "token": "t", "kind": "greedy"})
    out = room.apply({"op": "say", "name": "bob", "line": "/start"})
    kinds = [o.message["type"] for o in out]
    assert kinds[:2] == ["chat", "round_start"] and kinds.count("hand") == 2
    assert sorted(o.to for o in out if o.message["type"] == "hand") == ["ann", "bob"]  # each hand is private
    conserved(room)
    with pytest.raises(RoomError, match="already"):
        room.apply({"op": "say", "name": "ann", "line": "/start"})


def test_the_room_is_capped():
    room = seated([f"p{i}" for i in range(MAX_SEATS)])
    with pytest.raises(RoomError, match="full"):
        room.apply({"op": "seat", "name": "late", "token": "x"})


def test_a_vanished_player_is_away_and_still_traded_with():
    room = seated(["ann", "bob", "cy"], seed=4)
    room.apply({"op": "say", "name": "ann", "line": "/start"})
    room.apply({"op": "presence", "name": "cy", "online": False})
    assert room.room.round.status["cy"] == "away"
    assert {p["name"]: p["status"] for p in room.players()}["cy"] == "away"
    hand = room.room.round.hands["ann"]
    first = hand[0]
    count = min(hand.count(first), 1)
    out = room.apply({"op": "say", "name": "ann", "line": f"/b {'1' * count} cy"})  # the engine's away rule
    assert any(o.message["type"] == "trade" for o in out)
    conserved(room)
    room.apply({"op": "presence", "name": "cy", "online": True})
    assert room.room.round.status["cy"] == "here"


#: The first seed whose first deal hands both of two players nine of one item (found by the
#: search below, which the tests rerun only if the engine's deal ever changes).
TWO_HOGS_SEED = 26784


def two_hogs(seed):
    room = seated(["ann", "bob"], seed)
    room.apply({"op": "say", "name": "ann", "line": "/start"})
    return all(len(set(h)) == 1 for h in room.room.round.hands.values())


def deal_with_two_hogs():
    """A seed whose first deal of two players hands each nine of one item."""
    if two_hogs(TWO_HOGS_SEED):
        return TWO_HOGS_SEED
    for seed in range(200_000):
        if two_hogs(seed):
            return seed
    pytest.skip("no seed below 200,000 deals two hogs")


@pytest.fixture(scope="module")
def two_hogs_seed():
    return deal_with_two_hogs()


def test_the_first_hog_counts_and_the_second_is_too_late(two_hogs_seed):
    room = seated(["ann", "bob"], two_hogs_seed)
    room.apply({"op": "say", "name": "ann", "line": "/start"})
    out = room.apply({"op": "say", "name": "bob", "line": "hog"})
    over = [o.message for o in out if o.message["type"] == "round_over"]
    assert len(over) == 1 and over[0]["hog"]["player"] == "bob"
    before = room.snapshot()
    with pytest.raises(RoomError, match="too late: bob said hog first"):
        room.apply({"op": "say", "name": "ann", "line": "hog"})
    assert room.snapshot() == before  # a refusal changes nothing


def random_command(rng, room, names):
    name = rng.choice(names)
    r = rng.random()
    if r < 0.05:
        return {"op": "presence", "name": name, "online": rng.random() < 0.5}
    if r < 0.07:
        return {"op": "say", "name": name, "line": rng.choice(["/start", "hello", "/hand", "/away", "/back"])}
    if r < 0.09:
        return {"op": "say", "name": name, "line": rng.choice(["/b", "/b 0", "/b 12345", "/b 11", "/nope", "hog"])}
    if room.playing:
        hand = room.room.round.hands[name]
        item = rng.choice(hand)
        places = [str(i) for i, c in enumerate(hand, 1) if c == item][:rng.randint(1, 4)]
        if rng.random() < 0.5:
            return {"op": "say", "name": name, "line": "/b " + "".join(places)}
        other = rng.choice([n for n in names if n != name])
        return {"op": "say", "name": name, "line": f"/b {''.join(places)} {other}"}
    return {"op": "say", "name": name, "line": "/start"}


def test_random_commands_conserve_cards_and_replay_exactly():
    """Thousands of random valid and invalid commands: after each the cards are conserved; a
    refused one changes nothing; and the applied commands alone rebuild the same room."""
    rng = random.Random(7)
    names = ["ann", "bob", "cy", "dee"]
    room = seated(names, seed=11)
    log = [c for n in names for c in ({"op": "seat", "name": n, "token": f"t-{n}", "kind": "person"},
                                      {"op": "presence", "name": n, "online": True})]
    winners_per_round = Counter()
    for step in range(4000):
        command = random_command(rng, room, names) if step % 250 or not room.playing else {"op": "stall"}
        before = room.snapshot()
        try:
            out = room.apply(command)
        except RoomError:
            assert room.snapshot() == before
            continue
        log.append(command)
        for o in out:
            if o.message["type"] == "round_over":
                winners_per_round[(room.games, o.message["round"])] += 1
        if room.playing:
            conserved(room)
    assert winners_per_round and set(winners_per_round.values()) == {1}  # each round ended once
    again = ChatRoom("r", 11)
    for command in log:
        again.apply(command)
    assert again.snapshot() == room.snapshot() and again.applied == len(log)


def test_the_winner_saying_hog_again_hears_it_won_not_too_late(two_hogs_seed):
    room = seated(["ann", "bob"], two_hogs_seed)
    room.apply({"op": "say", "name": "ann", "line": "/start"})
    room.apply({"op": "say", "name": "bob", "line": "hog"})
    out = room.apply({"op": "say", "name": "bob", "line": "hog"})
    assert [(o.to, o.message["type"]) for o in out] == [("bob", "chat")]
    assert "already won round" in out[0].message["text"] and "too late" not in out[0].message["text"]


def test_the_scoreboard_follows_every_round_and_the_game_over():
    """Mistake: no players message after a round's scores or the game's winner (the panel kept
    the points from before)."""
    rng = random.Random(3)
    names = ["ann", "bob", "cy"]
    room = seated(names, seed=5)
    ended = rounds = 0
    for step in range(20_000):
        command = random_command(rng, room, names) if step % 200 or not room.playing else {"op": "stall"}
        try:
            out = room.apply(command)
        except RoomError:
            continue
        kinds = [o.message["type"] for o in out]
        for over in ("round_over", "game_over"):
            if over in kinds:
                totals = next(o.message["totals"] for o in out if o.message["type"] == over)
                last = [o.message for o in out[kinds.index(over):] if o.message["type"] == "players"]
                assert last, kinds
                assert {p["name"]: p["points"] for p in last[-1]["players"]} == dict(totals)
                rounds += over == "round_over"
                ended += over == "game_over"
        if ended >= 2:
            break
    assert ended >= 2 and rounds > ended


def test_an_unknown_command_is_called_so_before_and_during_a_game(two_hogs_seed):
    room = seated(["ann", "bob"], two_hogs_seed)
    with pytest.raises(RoomError, match="unknown command /nonsense"):
        room.apply({"op": "say", "name": "ann", "line": "/nonsense"})
    with pytest.raises(RoomError, match="has not started"):
        room.apply({"op": "say", "name": "ann", "line": "/b 12"})
    room.apply({"op": "say", "name": "ann", "line": "/start"})
    with pytest.raises(RoomError, match="unknown command /nonsense"):
        room.apply({"op": "say", "name": "ann", "line": "/nonsense now"})
    out = room.apply({"op": "say", "name": "ann", "line": "no slash, just chat"})
    assert out[0].message["type"] == "chat" and out[0].message["line"] == "no slash, just chat"


def test_a_room_of_bots_plays_like_people():
    """Greedy and tracking bots in one room for ten minutes of room time (a chance to act every
    0.2 s, to one bot at a time): no bot offers the item it just received within its next
    KEEP_ACTS turns, none repeats an offer nobody took with no trade since, each says at most
    LINES_PER_MINUTE lines a minute besides hog, and rounds end by hog."""
    from hogsolve.sinbad.bots import BOTS, KEEP_ACTS, LINES_PER_MINUTE
    names = ["g1", "g2", "t1", "t2"]
    room = ChatRoom("bots", 4)
    for n in names:
        room.apply({"op": "seat", "name": n, "token": f"t-{n}", "kind": "greedy" if n[0] == "g" else "tracker"})
    brains = {n: BOTS["greedy" if n[0] == "g" else "tracker"](n, random.Random(n)) for n in names}
    just = {n: (None, 0) for n in names}  # (item just received, turns to act since)
    said = {n: [] for n in names}
    last_offer = {}
    trades = 0

    def deliver(out):
        nonlocal trades
        for o in out:
            if o.engine is None:
                continue
            event = o.engine.event or ()
            if event and event[0] == "round":
                just.update({n: (None, 0) for n in names})
                last_offer.clear()
            if event and event[0] == "received":
                just[o.to] = (event[2], 0)
            if event and event[0] == "trade":
                trades += 1
            for n, brain in brains.items():
                if o.to is None or o.to == n:
                    brain.observe(o.engine)
    deliver(room.apply({"op": "say", "name": "g1", "line": "/start"}))
    rng, now, hogs = random.Random(9), 0.0, 0
    while now < 600 and room.playing:
        now += 0.2
        name = rng.choice(names)
        hand = tuple(room.room.round.hands[name])
        item, acts = just[name]
        line = brains[name].speak(hand, now)
        just[name] = (item, acts + 1)
        if line is None:
            continue
        if line.startswith("/b") and len(line.split()) == 2:
            offered = {hand[int(d) - 1] for d in line.split()[1]}
            assert item not in offered or acts + 1 >= KEEP_ACTS, (name, line, item, acts)  # not offered back
            assert last_offer.get(name) != (line, trades), (name, line)  # no idle repeat
            last_offer[name] = (line, trades)
        if line != "hog":
            said[name].append(now)
        try:
            out = room.apply({"op": "say", "name": name, "line": line})
        except RoomError:
            continue
        hogs += any(o.message["type"] == "round_over" for o in out)
        deliver(out)
    for n, times in said.items():
        for i, t in enumerate(times):
            assert sum(1 for u in times[i:] if u - t < 60) <= LINES_PER_MINUTE, n
    assert hogs >= 2  # bots finish rounds by saying hog
