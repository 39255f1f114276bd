"""The roll-or-hold solver: Pig, Two-Dice Pig, Big Pig and Piglet solved stage by stage, with a certificate.

- :mod:`.stages`: the states (i, j, k), the stages of a score sum and one turn's backward induction;
- :mod:`.turns`: policy iteration over whole turns, for games whose wipes send play back;
- :mod:`.solve`: :func:`solve_pig` (a :class:`~hogsolve.solver.solution.Solution`);
- :mod:`.certificate`: the error bound of a solution;
- :mod:`.exact`: the same solution recomputed in rationals and checked;
- :mod:`.tables`: a solution's files on disk.
"""
from .solve import hold_on_ties, solve_pig

__all__ = ["hold_on_ties", "solve_pig"]
