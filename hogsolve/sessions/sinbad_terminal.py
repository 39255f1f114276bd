"""A person plays SinbadHogBot against bots at a terminal.

The person is "you" and types the room's commands (``/b NNN``,
``/b NNN PLAYER``, ``hog``, ``/hand``); an empty line waits.  Between the
person's lines the bots take a few turns each.  The person sees the room's
lines and their own private lines, never another hand.
"""
from __future__ import annotations

import random
from typing import Callable, Optional

from ..sinbad.bots import BOTS
from ..sinbad.room import Room
from ..sinbad.seats import Seats

YOU = "you"
#: The room words every player in the third person; lines about the person read in the second.
SECOND_PERSON = {"offers": "offer", "trades": "trade", "is": "are", "has": "have", "says": "say", "wins": "win",
                 "takes": "take", "scores": "score"}


def second_person(text: str) -> str:
    """``you offers 1 card`` as ``you offer 1 card`` (a line of the room about the person)."""
    words = text.split(" ", 2)
    if len(words) >= 2 and words[0] == YOU and words[1] in SECOND_PERSON:
        words[1] = SECOND_PERSON[words[1]]
    return " ".join(words)


def play_room(*, bots: int = 3, kinds=("tracker", "greedy"), seed: Optional[int] = None,
              read: Callable[[str], str] = input, write: Callable[[str], None] = print,
              steps_per_line: int = 2) -> dict:
    """A person against ``bots`` bots in the terminal until the game ends or they leave."""
    rng = random.Random(seed)
    seated = [kinds[i % len(kinds)] for i in range(bots)]
    names = [YOU] + [f"{kind}{i + 1}" for i, kind in enumerate(seated)]
    players = {n: BOTS[kind](n, random.Random(rng.random())) for n, kind in zip(names[1:], seated)}
    room = Room(names, seed=rng.randrange(2 ** 32))
    write(f"SinbadHogBot: you against {', '.join(names[1:])}. Collect nine of one item, then say hog.")
    write("Commands: /b NNN (offer), /b NNN PLAYER (accept), hog, /hand; Enter waits; /quit leaves.")

    def show(m):
        if m.to in (None, YOU):
            write(("  " if m.to is None else "> ") + second_person(m.text))

    seats = Seats(room, players, patience=40, observer=show)
    seats.deliver(room.start())
    seats.new_round()
    try:
        while not room.game.over:
            line = read(f"[{room.game.totals[YOU]} points] you: ").strip()
            if line == "/quit":
                break
            if line:
                seats.deliver(room.handle(YOU, line))
                seats.quiet = 0
            for _ in range(steps_per_line * len(players)):
                if room.game.over:
                    break
                seats.step(rng.choice(sorted(players)))
    except (EOFError, KeyboardInterrupt):
        write("")
    totals = room.game.totals
    write("Final scores: " + ", ".join(f"{p} {totals[p]}" for p in names))
    return {"totals": dict(totals), "winners": list(room.game.winners), "rounds": room.game.rounds}
