"""Roll-or-hold games of the Pig family (Pig, Piglet, Two-Dice Pig, Big Pig), solved exactly.

A turn is a run of decisions: roll again (adding to a turn total that a bad
roll loses) or hold (bank the turn total); the state is (banked score i,
opponent's score j, turn total k), as in Neller & Presser, "Optimal Play of
the Dice Game Pig", UMAP Journal 25(1), 2004.
"""
from .rules import PIG_GAMES, PigGame, get_pig_game
from .solver import (PigBestResponse, PigSolution, hold_at, hold_at_or_goal, pig_best_response, pig_win_rate,
                     solve_pig)

__all__ = ["PIG_GAMES", "PigGame", "get_pig_game", "PigSolution", "solve_pig", "pig_win_rate", "PigBestResponse", "pig_best_response",
           "hold_at", "hold_at_or_goal"]
