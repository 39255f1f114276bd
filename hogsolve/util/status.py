"""The status vocabulary every result shares, in the manner of ``scipy.optimize.OptimizeResult``.

``ok`` says whether the result holds as stated (solved to the end and
proven), ``message`` says why not (empty when ok), and ``iterations`` counts
the work the result took (its unit named in each class).  ``status()`` gives
the three as plain values for ``to_dict()``.
"""
from __future__ import annotations

from typing import Dict


class Status:
    """Mixin: ``ok`` from ``message``; subclasses define ``message`` and ``iterations``."""

    @property
    def message(self) -> str:
        """Why the result does not hold ('' when it does)."""
        raise NotImplementedError

    @property
    def iterations(self) -> int:
        """How much work the result took (the unit depends on the result)."""
        raise NotImplementedError

    @property
    def ok(self) -> bool:
        """True when the result holds as stated."""
        return not self.message

    def status(self) -> Dict[str, object]:
        """``{"ok": ..., "message": ..., "iterations": ...}`` as plain values."""
        return {"ok": self.ok, "message": self.message, "iterations": int(self.iterations)}


class Proof(Status):
    """A certificate: ``message`` is its ``reason`` field, ``proven`` the same as ``ok``."""

    reason: str  # the certificate's own field

    @property
    def message(self) -> str:
        """Why it does not prove the result ('' when it does)."""
        return self.reason

    @property
    def proven(self) -> bool:
        """True when the certificate proves the values and the policy."""
        return not self.reason


class Certified(Status):
    """A solution whose status is its ``certificate``'s."""

    certificate: Proof  # the solution's own field

    @property
    def message(self) -> str:
        """Why the solution is not proven optimal ('' when it is)."""
        return self.certificate.message

    @property
    def iterations(self) -> int:
        """The solve's iterations, in its certificate's unit."""
        return self.certificate.iterations
