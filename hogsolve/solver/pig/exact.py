"""Exact verification of a roll-or-hold solution in rational arithmetic.

With the solution's roll/hold policy fixed, every turn is a backward
induction over the turn total whose value is linear in the value after a
bust, and each pair (i, j), (j, i) of a score sum is a 2x2 linear system:
all solved in exact fractions, stage by stage.  Then every state's chosen
action is checked to be at least as good as the other one, exactly: the
policy is optimal (Bellman optimality, exactly), and the exact value at
(0, 0, 0) is known.
"""
from __future__ import annotations

import dataclasses
import time
from typing import Dict, Tuple
from fractions import Fraction

from ...util.plain import plain
from ...util.status import Status
from ...errors import InputError


@dataclasses.dataclass(frozen=True)
class PigExactResult(Status):
    """What the exact check found; ``ok`` when the policy is optimal in every state exactly,
    ``iterations`` the score sums checked."""

    win_probability_start: Fraction
    suboptimal_states: int       # states where the policy's action is worse than the other
    exact_ties: int              # states where rolling and holding are worth exactly the same
    max_float_error: float       # largest |float value - exact value|
    seconds: float
    stages: int = 0              # score sums checked

    @property
    def proven(self) -> bool:
        """True when the policy is optimal in every state, exactly."""
        return self.suboptimal_states == 0

    @property
    def message(self) -> str:
        """Why the policy is not optimal ('' when it is)."""
        return "" if self.proven else f"the policy's action is worse than the other in {self.suboptimal_states} states"

    @property
    def iterations(self) -> int:
        """Score sums checked (stages)."""
        return self.stages

    def to_dict(self) -> dict:
        """The result as plain JSON values (the fraction exact)."""
        return plain({**self.status(), **dataclasses.asdict(self), "proven": self.proven})


def check_exact_built(game) -> None:
    """ValueError for games the exact check does not cover (those with wipes)."""
    if ("wipe", 0) in game.outcomes():
        raise InputError(f"--exact is not built for {game.name}: a wipe links every stage to lower ones, "
                         "so the stages are no longer solved one 2x2 system at a time")


def verify_pig(solution) -> PigExactResult:
    """Recompute ``solution`` (a :class:`~hogsolve.solver.solution.Solution`) exactly and check it."""
    start = time.perf_counter()
    game, roll = solution.game, solution.policy
    g = game.goal
    check_exact_built(game)
    outcomes = game.outcomes()
    bust = outcomes.get(("bust", 0), Fraction(0))
    adds = [(x, p) for (kind, x), p in outcomes.items() if kind == "add"]
    start_values: Dict[Tuple[int, int], Fraction] = {}  # (i, j) -> exact value at (i, j, 0)
    one = Fraction(1)
    bad = ties = 0
    worst = 0.0
    for s in range(2 * g - 2, -1, -1):
        pairs = [(i, s - i) for i in range(max(0, s - g + 1), min(s, g - 1) + 1)]
        linear = {}
        for i, j in pairs:
            a: Dict[int, Fraction] = {}  # value at k = a[k] + b[k] * u, u the value after a bust
            b: Dict[int, Fraction] = {}
            for k in range(g - i - 1, -1, -1):
                ra = sum(p * (a[k + x] if i + k + x < g else one) for x, p in adds)
                rb = sum(p * b[k + x] for x, p in adds if i + k + x < g) + bust
                if k == 0 or roll[i, j, k]:
                    a[k], b[k] = ra, rb
                else:
                    a[k], b[k] = one - start_values[j, i + k], Fraction(0)
            linear[i, j] = (a, b)
        for i, j in pairs:
            (a, b), (a2, b2) = linear[i, j], linear[j, i]
            c, c2 = a[0] + b[0], a2[0] + b2[0]
            start_values[i, j] = (c - b[0] * c2) / (1 - b[0] * b2[0])
        for i, j in pairs:
            a, b = linear[i, j]
            u = one - start_values[j, i]
            for k in range(g - i):
                value = a[k] + b[k] * u
                worst = max(worst, abs(float(value) - float(solution.values[i, j, k])))
                if k == 0:
                    continue
                rolled = sum(p * (a[k + x] + b[k + x] * u if i + k + x < g else one) for x, p in adds) + bust * u
                held = one - start_values[j, i + k] if i + k < g else one
                chosen, other = (rolled, held) if roll[i, j, k] else (held, rolled)
                bad += chosen < other
                ties += chosen == other
    return PigExactResult(start_values[0, 0], bad, ties, worst, time.perf_counter() - start, 2 * g - 1)
