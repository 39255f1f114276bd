"""Roll against the house at a terminal: the loop behind ``hogsolve sibala play``.

Bank rules as in :mod:`hogsolve.sibala.odds`: the banker rolls first, both
sides re-roll a no-point hand; the banker wins at once on 12 or all of a kind
and loses at once on 3; otherwise the higher hand wins and ties push.
"""
from __future__ import annotations

import random
from typing import Callable, Optional

from ..sibala.rules import KATA, NO_POINT, Hand, Variant, evaluate
from ..sibala.odds import banker_instant
from ..sibala.state import settle


def roll_scoring(rng: random.Random, variant: Variant, write: Callable[[str], None], who: str) -> Hand:
    """Roll four dice until the hand scores, reporting each roll."""
    while True:
        hand = evaluate([rng.randint(1, 6) for _ in range(4)], variant)
        write(f"{who} {'roll' if who == 'You' else 'rolls'} {hand.describe()}")
        if hand.category != NO_POINT:
            return hand


def play_house(*, seed: Optional[int] = None, variant: Variant = KATA,
               read: Callable[[str], str] = input, write: Callable[[str], None] = print) -> dict:
    """Rounds of one unit bet against the banker until the person quits."""
    rng = random.Random(seed)
    balance, rounds = 0, 0
    write("Sibala (十八啦) against the house: 1 unit a round. Enter to roll, q to quit.")
    try:
        while True:
            if read(f"[balance {balance:+d}] roll? ").strip().lower() in ("q", "quit"):
                break
            rounds += 1
            banker = roll_scoring(rng, variant, write, "Banker")
            player = None
            if banker_instant(banker.strength(variant)):
                write("The banker's roll decides at once.")
            else:
                player = roll_scoring(rng, variant, write, "You")
            result = settle(banker, player, variant)
            balance += result
            write({1: "You win the round.", -1: "The banker wins the round.", 0: "Push."}[result])
    except (EOFError, KeyboardInterrupt):
        write("")
    write(f"Quit after {rounds} rounds. Balance {balance:+d}.")
    return {"rounds": rounds, "balance": balance}
