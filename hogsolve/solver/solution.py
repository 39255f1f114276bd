"""What every game's solution is: one base type, two kinds (Hog's and the roll-or-hold games')."""
from __future__ import annotations

from ..util.status import Certified


class Solution(Certified):
    """A game's certified optimal solution, whatever the game.

    Every kind has ``game`` (its rules), ``values`` (the mover's optimal chance of winning,
    per state), ``policy`` (the optimal decision per state: Hog's dice counts, a roll-or-hold
    game's True to roll), ``certificate``, ``ok``, ``message``, ``solve_seconds`` and
    ``to_dict()``; it plays as the optimal strategy (``solution(score, opponent_score, ...)``).
    The kinds: :class:`~hogsolve.solver.optimal.HogSolution` and
    :class:`~hogsolve.solver.pig.solve.PigSolution`.
    """

    name = "optimal"

    @property
    def goal(self) -> int:
        """The game's goal."""
        return int(self.game.goal)  # type: ignore[attr-defined]

    @property
    def first_player_win_probability(self) -> float:
        """P(the first player wins) under optimal play by both."""
        values = self.values  # type: ignore[attr-defined]
        return float(values[(0,) * values.ndim])

    @property
    def usable(self) -> bool:
        """Whether the table may be shipped (each kind says what its proof needs)."""
        raise NotImplementedError

    def to_dict(self) -> dict:
        """The solution's figures as plain JSON values (no tables)."""
        raise NotImplementedError
