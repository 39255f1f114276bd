"""Roll against the house at a terminal: the loop behind ``hogsolve sibala play``.

Bank rules as in :mod:`hogsolve.sibala.odds`: the banker rolls first, both
sides re-roll a no-point hand; the banker wins at once on 12 or all of a kind
and loses at once on 3; otherwise the higher hand wins and ties push.
"""
from __future__ import annotations

import random
from typing import Callable, Optional

from ..sibala.rules import KATA, Variant, evaluate
from ..sibala.state import BANKER, SibalaState, roll_index
from ..util.words import plural


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
            state = SibalaState(variant)
            while not state.is_terminal():
                dice = [rng.randint(1, 6) for _ in range(4)]
                banker = state.rolling == BANKER
                state.apply_action(roll_index(dice))
                write(f"{'Banker rolls' if banker else 'You roll'} {evaluate(dice, variant).describe()}")
                if banker and state.is_terminal():
                    write("The banker's roll decides at once.")
            result = state.result
            assert result is not None  # the round is over
            balance += result
            write({1: "You win the round.", -1: "The banker wins the round.", 0: "Push."}[result])
    except (EOFError, KeyboardInterrupt):
        write("")
    write(f"Quit after {plural(rounds, 'round')}. Balance {balance:+d}.")
    return {"rounds": rounds, "balance": balance}
