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
