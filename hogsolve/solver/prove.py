"""The proven optimum of a Hog ruleset, by the strongest check that reaches it: exact rationals
where every turn scores (:mod:`hogsolve.solver.exact`), and elsewhere (a turn that can hand the
same scores back, Feral Hogs' memories) the float table with every decision proven by the error
bound (:mod:`hogsolve.solver.bound_check`).  ``hogsolve solve --exact`` and
``hogsolve.solve(game, exact=True)`` both call :func:`prove`, so they prove the same games."""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Optional

from ..hog.rules import Ruleset
from . import bound_check
from .exact import ExactUnsupported, check_exact_supported
from .model import Model, compile_model
from .optimal import solve
from .solution import Solution


def prove(rules: Ruleset, *, model: Optional[Model] = None,
          progress: Optional[Callable[..., Any]] = None) -> Solution:
    """The solution of ``rules`` with its proof: ``solution.exact``, an
    :class:`~hogsolve.solver.exact.ExactResult` (every state recomputed in rationals, the values
    correctly rounded), or where rationals do not reach ``solution.proof``, a
    :class:`~hogsolve.solver.bound_check.BoundCheck` of the float policy (ties settled exactly
    where they can be).  ``solution.usable`` says whether the proof holds."""
    model = model if model is not None else compile_model(rules)
    try:
        check_exact_supported(model)
    except ExactUnsupported:
        solution = solve(rules, model=model, progress=progress)
        proven, check = bound_check.prove_float_table(model, solution)
        return dataclasses.replace(proven, proof=check)
    return solve(rules, exact=True, model=model, progress=progress)
