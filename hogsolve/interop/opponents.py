"""The fixed opponent of a single-agent environment, from any strategy spec the command line takes."""
from __future__ import annotations

import random
from typing import Callable

import numpy as np

from ..games.interface import GameState, draw_chance
from ..strategy.pig import load_pig_strategy, policy_table
from ..strategy.specs import load_strategy
from .core import GameSpec


def opponent_from(spec_text, spec: GameSpec) -> Callable[[GameState], int]:
    """``choose(state) -> action`` for the player to move, from a spec (``optimal``,
    ``always_roll:4``, ``FILE.py:FUNCTION``, a table file; ``hold_at:20`` for the Pig
    games) or a ready strategy (a Policy, a table, a callable): its :func:`opponent_table`
    looked up at the state."""
    table = opponent_table(spec_text, spec)
    return CHOOSERS[spec.family_name](table, spec)


def opponent_table(spec_text, spec: GameSpec):
    """The fixed opponent as a table: Hog's dice counts ``[s, o]`` (memories too, if any), a
    roll-or-hold game's ``roll[i, j, k]`` for k below twice the goal (the goal rule applied)."""
    return TABLES[spec.family_name](spec_text, spec.rules)


def _hog_table(spec_text, rules) -> np.ndarray:
    from ..strategy.policy import as_policy
    policy = load_strategy(spec_text, rules, allow_unproven=True) if isinstance(spec_text, str) \
        else as_policy(spec_text, rules)
    return policy.table


def _pig_table(spec_text, game) -> np.ndarray:
    strategy = load_pig_strategy(spec_text, game) if isinstance(spec_text, str) else spec_text
    return policy_table(strategy, game)


def _hog_chooser(table: np.ndarray, spec: GameSpec) -> Callable[[GameState], int]:
    def choose(state) -> int:
        match = state.match
        index = match.state() + spec.rules.context_index(match.context())
        return int(table[index[:table.ndim]])
    return choose


def _pig_chooser(table: np.ndarray, spec: GameSpec) -> Callable[[GameState], int]:
    def choose(state) -> int:
        score, opponent, total = state.match.state()
        return 0 if total == 0 or table[score, opponent, total] else 1
    return choose


#: Each family's strategy table from a spec, and its lookup at a state (:mod:`hogsolve.families`).
TABLES = {"hog": _hog_table, "roll-or-hold": _pig_table}
CHOOSERS = {"hog": _hog_chooser, "roll-or-hold": _pig_chooser}


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
