"""The game families, each one typed class that every layer above calls.

A family is a kind of game with its own solver: Hog (every CS 61A ruleset, rule files and
Neller's Hog) and the roll-or-hold games (Pig, Piglet, Two-Dice Pig, Big Pig).  The verbs, the
web app, the sessions and the adapters look a game up with :func:`family_of` (a name) or
:func:`family_of_game` (a rules object) and call its :class:`GameFamily` methods, so none of them
asks which game it serves; a new family is one more subclass in :data:`FAMILIES`.
"""
from __future__ import annotations

from .base import GameFamily
from .registry import FAMILIES, HOG, ROLL_OR_HOLD, family_of, family_of_game, game_spec
from .base import GameSpec

__all__ = ["FAMILIES", "GameFamily", "GameSpec", "HOG", "ROLL_OR_HOLD", "family_of", "family_of_game", "game_spec"]
