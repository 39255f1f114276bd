"""Roll-or-hold games of the Pig family (Pig, Piglet, Two-Dice Pig, Big Pig): rules and engine.

A turn is a run of decisions: roll again (adding to a turn total that a bad
roll loses) or hold (bank the turn total); the state is (banked score i,
opponent's score j, turn total k), as in Neller & Presser, "Optimal Play of
the Dice Game Pig", UMAP Journal 25(1), 2004.  Solving lives in
:mod:`hogsolve.solver.pig`; ``hogsolve.solve("pig")`` (or a PigGame) reaches it.
"""
from .rules import PIG_GAMES, PigGame, get_pig_game

__all__ = ["PIG_GAMES", "PigGame", "get_pig_game"]
