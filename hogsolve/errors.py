"""The root of hogsolve's exceptions: ``except hogsolve.HogsolveError`` catches every error
hogsolve raises on purpose (bad input, an unproven optimum, an iteration that hit its cap),
and nothing else.  Each public exception derives from it, and from :class:`ValueError` where
it reports bad input (so ``except ValueError`` keeps working)."""
from __future__ import annotations


class HogsolveError(Exception):
    """Base of every exception hogsolve raises on purpose."""
