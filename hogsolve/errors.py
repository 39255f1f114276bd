"""The root of hogsolve's exceptions: ``except hogsolve.HogsolveError`` catches every error
hogsolve raises on purpose (bad input, an unproven optimum, an iteration that hit its cap),
and nothing else.  Each public exception derives from it, and from :class:`ValueError` where
it reports bad input (so ``except ValueError`` keeps working)."""
from __future__ import annotations


class HogsolveError(Exception):
    """Base of every exception hogsolve raises on purpose."""


class InputError(HogsolveError, ValueError):
    """A value hogsolve was given that it cannot use (a goal of 0, a model for other rules, an
    action out of range); the message says which and why."""


class InputTypeError(HogsolveError, TypeError):
    """An argument of a kind hogsolve does not take (a number where a game was expected)."""


class StateError(HogsolveError, RuntimeError):
    """A call out of order (a step before ``reset``) or a game that ran past its turn limit."""
