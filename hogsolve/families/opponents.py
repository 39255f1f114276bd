"""The fixed opponent of a single-agent environment, from any strategy spec the command line takes."""
from __future__ import annotations

import random
from typing import Callable


from ..games.interface import GameState, draw_chance
from .spec import GameSpec


def opponent_from(spec_text, spec: GameSpec) -> Callable[[GameState], int]:
    """``choose(state) -> action`` for the player to move, from a spec (``optimal``,
    ``always_roll:4``, ``FILE.py:FUNCTION``, a table file; ``hold_at:20`` for the Pig
    games) or a ready strategy (a Policy, a table, a callable): its :func:`opponent_table`
    looked up at the state."""
    return spec.family.chooser(opponent_table(spec_text, spec), spec.rules)


def opponent_table(spec_text, spec: GameSpec):
    """The fixed opponent as a table: Hog's dice counts ``[s, o]`` (memories too, if any), a
    roll-or-hold game's ``roll[i, j, k]`` for k below twice the goal (the goal rule applied)."""
    return spec.family.table_of(spec_text, spec.rules)


def settle_chance(state: GameState, rng: random.Random) -> None:
    """Draw chance outcomes by their exact probabilities until someone decides (or the end)."""
    while state.is_chance_node():
        state.apply_action(draw_chance(state, rng))


def legal_or_nearest(state: GameState, action: int) -> tuple:
    """``(action to play, was it legal)``: an illegal choice is played as the nearest legal one
    (Neller's Hog's 0 dice as 1, a hold with nothing to bank as a roll)."""
    legal = state.legal_actions()
    if action in legal:
        return action, True
    return min(legal, key=lambda a: (abs(a - action), a)), False
