"""Asking an agent for its action at every decision state: one batch when it takes one.

An agent is a callable on an observation vector, or an object with
``predict(observation)`` (Stable-Baselines3's returns ``(actions, state)``).
Both may take a whole batch of rows.  hogsolve imports this module, and the
isolated child that runs a user's file loads it by path
(:mod:`hogsolve.strategy.userfile_child`), so it imports only the standard
library at the top and numpy when an agent is asked: a plain CS 61A
strategy's child then starts without numpy.
"""
from __future__ import annotations

import inspect
from typing import Callable, Optional

#: Rows asked again as a smaller batch, to check that a batch answer is row by row.
SAMPLE = 64


try:  # within the package; the student's interpreter loads this file by path, standard library only
    from ..errors import HogsolveError
except ImportError:
    class HogsolveError(Exception):  # type: ignore[no-redef]
        """Stands for hogsolve's root exception where the package is not imported."""


class AgentError(HogsolveError, ValueError):
    """An agent that gave no usable action; the message is one line."""


def takes_observation(obj) -> bool:
    """True for an agent (a ``predict`` or ``action_probabilities`` method, or a callable of one
    required argument); False for a CS 61A strategy ``(score, opponent_score)`` or a roll-or-hold one."""
    if callable(getattr(obj, "predict", None)) or callable(getattr(obj, "action_probabilities", None)):
        return True
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return False
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    required = [p for p in signature.parameters.values() if p.kind in positional and p.default is p.empty]
    return len(required) == 1


def deterministic(predict: Callable) -> Callable:
    """``predict`` asked for its most likely action where it can be (Stable-Baselines3's
    ``predict(obs, deterministic=True)``; by default it samples, and a sampled answer is no
    strategy to evaluate exactly)."""
    try:
        parameters = inspect.signature(predict).parameters
    except (TypeError, ValueError):
        return predict
    if "deterministic" in parameters:
        return lambda observation: predict(observation, deterministic=True)
    return predict


def actions_of(agent, rows, num_actions: int, progress: Optional[Callable] = None):
    """The agent's action (int64) at each row of ``rows`` (:func:`answers_of`); AgentError if it
    gives action probabilities instead, which only the exact evaluation of a mixture takes."""
    answers = answers_of(agent, rows, num_actions, progress)
    if answers.ndim == 2:
        raise AgentError("gives action probabilities, and this takes one action a state; a mixture is "
                         "evaluated exactly by compare, evaluate_agent and win_rate")
    return answers


def answers_of(agent, rows, num_actions: int, progress: Optional[Callable] = None):
    """The agent's answer at each row of ``rows``: its action (int64, shape ``(n,)``), or the
    chance of each action (float64, ``(n, num_actions)``) from an agent that gives
    probabilities: an ``action_probabilities(observations)`` method, or a callable (or
    ``predict``) answering a row of ``num_actions`` floats.  Asked in one batch when the agent
    takes one (and answers a sample of the rows, asked again as a batch, alike), else row by
    row; ``progress(row)`` hears each row asked singly.  An agent whose answer at an
    observation changes when asked again is refused: a sampled answer is no strategy.
    AgentError names the first bad answer."""
    import numpy as np  # here, not at the top: see the module docstring

    chances = getattr(agent, "action_probabilities", None)
    predict = getattr(agent, "predict", None)
    act = chances if callable(chances) else deterministic(predict) if callable(predict) else agent

    def shaped(out, n):
        """An answer for ``n`` rows: ``(n,)`` actions, or ``(n, num_actions)`` probabilities."""
        array = np.asarray(out[0] if isinstance(out, tuple) else out)
        if callable(chances) or (array.dtype.kind == "f" and array.size == n * num_actions > n
                                 and array.shape[-1] == num_actions):
            return array.reshape(n, -1) if array.size == n * num_actions else array
        return array.reshape(-1)

    def same(x, y) -> bool:  # a NaN answered twice is the same answer (refused later, as a bad value)
        x, y = np.asarray(x), np.asarray(y)
        return bool(np.array_equal(x, y, equal_nan=x.dtype.kind == "f" and y.dtype.kind == "f"))

    def one(row):
        out = shaped(act(row[None, :]) if callable(chances) else act(row), 1)  # action_probabilities: batches
        if out.ndim == 2:
            return out[0]
        if out.shape != (1,):
            raise AgentError(f"returned {out.size} values for the observation {row.tolist()}; expected one action "
                             f"or {num_actions} probabilities")
        return out[0]

    def checked(values):
        if values.ndim == 2:  # probabilities: the mixture checks them (sums, signs, illegal actions)
            if values.shape != (len(rows), num_actions) or values.dtype.kind not in "iuf":
                raise AgentError(f"gave action probabilities of shape {values.shape}; expected "
                                 f"{num_actions} numbers an observation")
            return values.astype(np.float64)
        good = np.zeros(len(values), dtype=bool) if values.dtype.kind not in "iuf" else \
            (values == np.round(values)) & (values >= 0) & (values < num_actions)
        if not good.all():
            at = int(np.flatnonzero(~good)[0])
            chosen = values[at].item() if hasattr(values[at], "item") else values[at]  # None has no item()
            raise AgentError(f"chose {chosen!r} at the observation {rows[at].tolist()}; "
                             f"expected an action from 0 to {num_actions - 1}")
        return values.astype(np.int64)

    sample = np.unique(np.linspace(0, len(rows) - 1, min(SAMPLE, len(rows))).astype(np.int64))  # asked again
    try:
        batch = shaped(act(rows), len(rows))
    except Exception:  # noqa: BLE001 - an agent of one observation at a time fails on a batch
        batch = None
    if batch is not None and batch.shape[:1] == (len(rows),) and batch.ndim <= 2:
        try:
            again = shaped(act(rows[sample]), len(sample))
        except Exception:  # noqa: BLE001
            again = None
        if again is not None and again.shape == batch[sample].shape and same(again, batch[sample]):
            return checked(batch)
    answers = []
    for row in rows:
        if progress is not None:
            progress(row)
        answers.append(one(row))
    if len({np.ndim(answer) for answer in answers}) > 1:  # rows of unequal kinds
        raise AgentError(f"answered some observations with an action and some with {num_actions} "
                         "probabilities; give one kind")
    values = checked(np.array(answers))
    for at in sample:  # asked again: an agent that samples its actions is no fixed strategy
        again = one(rows[at])
        if not same(again, values[at]):
            said = np.asarray(values[at]).tolist()
            raise AgentError(f"chose {said} and then {np.asarray(again).tolist()} at the observation "
                             f"{rows[at].tolist()}: it samples its actions, and only a fixed strategy or "
                             "a mixture has an exact win rate; make it deterministic (Stable-Baselines3: "
                             "predict(observation, deterministic=True), which hogsolve asks for where predict "
                             "takes it; a policy: its most likely action) or give its probabilities "
                             "(action_probabilities(observations), or hogsolve.interop.distribution_of(model))")
    return values
