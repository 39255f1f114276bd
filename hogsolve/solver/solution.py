"""Every game's solution: one type with one set of fields, whatever the family (scipy's
``OptimizeResult`` model); what a table means is the game's to say."""
from __future__ import annotations

import dataclasses
from typing import Any, Optional, Union

import numpy as np

from ..util.plain import plain
from ..util.status import Certified
from .certificate import Certificate

#: The one tie rule of every table, the player and the web: the fewest dice among the optimal
#: counts (a roll rather than a pass that only ties; in the roll-or-hold games, a hold).  Ties are
#: settled exactly where the exact checks reach; elsewhere "optimal" is "within the tie threshold".
TIE_BREAK = "fewest dice among the optimal dice counts"


@dataclasses.dataclass(frozen=True, repr=False)
class Solution(Certified):
    """A game's certified optimal solution; ``ok``, ``message`` and ``iterations`` are its
    certificate's.

    Arrays are indexed by the game's ``state_axes`` with the player to move first (Hog:
    ``[score, opponent_score]``, then both memories under a history rule; a roll-or-hold game:
    ``[score, opponent_score, turn_total]``).

    ``values``: the mover's chance of winning under optimal play by both.
    ``policy``: the optimal decision (Hog's dice count, fewest on ties; a roll-or-hold game's
    True to roll, holding on ties).
    ``action_values``: Hog's ``[..., n]`` chance when rolling n dice now and playing optimally
    after; None where the solver keeps no such table (the roll-or-hold games: see
    :func:`hogsolve.solver.pig.stages.action_values`).
    ``exact``: the check in rational arithmetic (``solve(..., exact=True)`` where it reaches);
    ``proof``: the check by the error bound (:func:`hogsolve.solver.prove.prove`).

    The solution plays as the optimal strategy: ``solution(score, opponent_score, ...)``.
    """

    game: Any  # the rules solved: a Ruleset or a PigGame
    values: np.ndarray
    policy: np.ndarray
    certificate: Certificate
    solve_seconds: float
    action_values: Optional[np.ndarray] = None
    exact: Optional[Any] = None  # an ExactResult
    proof: Optional[Any] = None  # a BoundCheck

    name = "optimal"

    def __call__(self, score: int, opponent_score: int, *rest: int) -> Union[int, bool]:
        """The optimal decision at a state (the game's own arguments after the two scores)."""
        return self.game.decide(self.policy, score, opponent_score, *rest)

    @property
    def goal(self) -> int:
        """The game's goal."""
        return int(self.game.goal)

    @property
    def first_player_win_probability(self) -> float:
        """P(the first player wins) under optimal play by both."""
        return float(self.values[(0,) * self.values.ndim])

    @property
    def opening_move(self) -> int:
        """The optimal first move (the game's own measure: dice, or the turn total to hold at)."""
        return int(self.game.opening_move(self.policy))

    @property
    def degenerate(self) -> str:
        """'' for a game worth learning; else the one fixed rule that is optimal everywhere."""
        return str(self.game.degenerate(self.policy))

    @property
    def converged(self) -> bool:
        """False when the iteration hit its cap somewhere (see the certificate)."""
        return self.certificate.converged

    @property
    def usable(self) -> bool:
        """Whether the table may be shipped (the certificate's kind says what its proof needs)."""
        return self.certificate.usable(self.proof)

    def to_dict(self) -> dict:
        """The solution's figures as plain JSON values (no tables); the same keys for every game."""
        out = {
            **self.status(),
            "rules": self.game.summary(),
            "first_player_win_probability": self.first_player_win_probability,
            "opening_move": self.opening_move,
            "degenerate": self.degenerate,
            "tie_break": TIE_BREAK,
            "solve_seconds": self.solve_seconds,
            "certificate": self.certificate.to_dict(),
        }
        checked = self.exact if self.exact is not None else self.proof  # the proof, exact or by the bound
        if checked is not None:
            out["exact"] = checked.to_dict()
        return plain(out)

    def __repr__(self) -> str:
        lines = [
            f"Solution({self.game.name}, goal={self.goal})",
            f"  P(first player wins) = {self.first_player_win_probability:.12f}",
            f"  opening move         = {self.game.opening_words(self.policy)}",
            f"  solve time           = {self.solve_seconds * 1000:.1f} ms",
            "  " + repr(self.certificate).replace("\n", "\n  "),
        ]
        if self.exact is not None:
            lines.append("  " + repr(self.exact).replace("\n", "\n  "))
        return "\n".join(lines)
