"""Every family by name, and which family a game is."""
from __future__ import annotations

from typing import Any, Dict, Optional

from .base import GameFamily
from .hog import HogFamily
from .roll_or_hold import RollOrHoldFamily
from .base import GameSpec

HOG = HogFamily()
ROLL_OR_HOLD = RollOrHoldFamily()

#: Every family, by name; Hog is the default for names no family owns (rule files, typos: its
#: own lookup then explains the name).
FAMILIES: Dict[str, GameFamily] = {f.name: f for f in (HOG, ROLL_OR_HOLD)}


def family_of(name: Optional[str]) -> GameFamily:
    """The family whose game ``name`` is (Hog for a rule file, ``None``, or an unknown name)."""
    return next((f for f in FAMILIES.values() if f is not HOG and f.owns(name)), HOG)


def family_of_game(game: Any) -> GameFamily:
    """The family of a rules object (a Ruleset, a PigGame); an InputTypeError for anything else."""
    for family in FAMILIES.values():
        if family.is_game(game):
            return family
    from ..errors import InputTypeError
    raise InputTypeError(f"expected a game's rules ({', '.join(f.game_type().__name__ for f in FAMILIES.values())}), "
                         f"got {type(game).__name__}")


def game_spec(name: Optional[str] = None, goal: Optional[int] = None, rules: Any = None) -> GameSpec:
    """The game named ``name`` (a ruleset, semester, roll-or-hold game; the default family's
    default game when None) at ``goal``, or given as ``rules``, ready for an adapter."""
    if rules is not None:
        return GameSpec(family_of_game(rules), rules if goal is None else rules.replace(goal=goal))
    family = family_of(name)
    return GameSpec(family, family.game(family.default_game if name is None else name, goal))
