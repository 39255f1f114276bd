"""Win rates, best responses, regret and Monte Carlo for the roll-or-hold games.

- :mod:`.evaluate`: exact win rates, best responses and regret, on the solver's stages;
- :mod:`.montecarlo`: simulated games, with the engine's goal rule.
"""
from .evaluate import pig_best_response, pig_regret, pig_win_rate
from .montecarlo import simulate_pig, simulate_roll_or_hold

__all__ = ["pig_best_response", "pig_regret", "pig_win_rate", "simulate_pig",
           "simulate_roll_or_hold"]
