"""A person plays SinbadHogBot against bots at a terminal.

The person is "you" and types the room's commands (``/b NNN``,
``/b NNN PLAYER``, ``hog``, ``/hand``); an empty line waits.  Between the
person's lines the bots take a few turns each.  The person sees the room's
lines and their own private lines, never another hand.
"""
from __future__ import annotations

import random
from typing import Callable, Optional

from .bots import BOTS
from .room import Room

YOU = "you"


def play_room(*, bots: int = 3, kinds=("tracker", "greedy"), seed: Optional[int] = None,
              read: Callable[[str], str] = input, write: Callable[[str], None] = print,
              steps_per_line: int = 2) -> dict:
    rng = random.Random(seed)
    names = [YOU] + [f"{kinds[i % len(kinds)]}{i + 1}" for i in range(bots)]
    players = {n: BOTS[n.rstrip("0123456789")](n, random.Random(rng.random())) for n in names[1:]}
    room = Room(names, seed=rng.randrange(2 ** 32))
    write(f"SinbadHogBot: you against {', '.join(names[1:])}. Collect nine of one item, then say hog.")
    write("Commands: /b NNN (offer), /b NNN PLAYER (accept), hog, /hand; Enter waits; /quit leaves.")

    def deliver(messages):
        for m in messages:
            if m.to in (None, YOU):
                write(("  " if m.to is None else "> ") + m.text)
            for n, bot in players.items():
                if m.to is None or m.to == n:
                    bot.observe(m)

    deliver(room.start())
    quiet = 0
    try:
        while not room.game.over:
            line = read(f"[{room.game.totals[YOU]} points] you: ").strip()
            if line == "/quit":
                break
            if line:
                deliver(room.handle(YOU, line))
                quiet = 0
            for _ in range(steps_per_line * len(players)):
                if room.game.over:
                    break
                name = rng.choice(sorted(players))
                act = players[name].act(tuple(room.round.hands[name]))
                out = room.handle(name, act) if act else []
                quiet = 0 if any(m.event and m.event[0] in ("trade", "hog") for m in out) else quiet + 1
                deliver(out)
            if quiet > 40 * len(names):
                deliver(room.stall())
                quiet = 0
    except (EOFError, KeyboardInterrupt):
        write("")
    totals = room.game.totals
    write("Final scores: " + ", ".join(f"{p} {totals[p]}" for p in names))
    return {"totals": dict(totals), "winners": list(room.game.winners), "rounds": room.game.rounds}
