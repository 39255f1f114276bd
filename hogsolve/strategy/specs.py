"""The strategy spec language of the command line, and policy tables from files.

Every spec becomes a :class:`~hogsolve.strategy.policy.Policy`:

* ``optimal`` — the optimal player of the ruleset;
* ``always_roll:N``, ``bacon:MARGIN:N``, ``swap:MARGIN:N`` — the CS 61A baselines;
* ``random:SEED`` — a fixed random dice count per state;
* ``path/to/file.py:function`` — a user's file, run isolated (:mod:`hogsolve.strategy.userfile`):
  a CS 61A ``final_strategy(score, opponent_score)``, or an agent on observation vectors
  (:mod:`hogsolve.strategy.observations`: a callable of one argument, or ``predict``);
  ``path/to/file.py`` alone is its ``final_strategy``, as the lab and the contest take it;
* ``table:path.csv`` — a policy table in the solutions/ layout, validated like code;
  ``table:path.npy`` — the same as a numpy array (the form of history rulesets' tables).
"""
from __future__ import annotations

from ..errors import HogsolveError, InputError
import io
import json
import os
import re
import stat
from pathlib import Path
from typing import Callable, Optional

import numpy as np

from .optimal_bot import optimal_strategy
from .policy import Policy, StrategyError, as_policy
from ..hog.rules import Ruleset
from .named import bacon_strategy, random_strategy, swap_strategy
from ..solver.tables import META_LIMIT
from ..util.files import sha256
from .userfile import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT, UserFileError, file_spec, tabulate_file

SPEC_FORMS = ("optimal", "always_roll:N", "bacon:MARGIN:N", "swap:MARGIN:N", "random:SEED",
              "FILE.py:FUNCTION", "FILE.py (its final_strategy)", "FILE.py:AGENT", "table:PATH.csv")
SPEC_HELP = ("a strategy: optimal; always_roll:N; bacon:MARGIN:N or swap:MARGIN:N (the CS 61A "
             "baselines); random:SEED; FILE.py:FUNCTION (your file, e.g. hog.py:final_strategy, run "
             "isolated; FILE.py alone is its final_strategy; or an agent on observation vectors, e.g. "
             "agent.py:agent); "
             "table:PATH.csv (a policy table in the solutions/ layout)")


class StrategySpecError(HogsolveError, ValueError):
    """A strategy spec that cannot be understood or loaded; the message is one line."""


def _bad(spec: str, why: str) -> StrategySpecError:
    return StrategySpecError(f"bad strategy {spec!r}: {why}; accepted forms: {', '.join(SPEC_FORMS)}")


def _ints(spec: str, parts, count):
    if len(parts) != count:
        raise _bad(spec, f"expected {count} number(s) after the colon")
    if not all(re.fullmatch(r"-?[0-9]{1,18}", p) for p in parts):
        raise _bad(spec, "expected whole numbers")
    return [int(p) for p in parts]


def load_strategy(spec: str, rules: Ruleset, *, timeout: float = DEFAULT_TIMEOUT,
                  on_output: Optional[Callable[[str, object], None]] = None,
                  allow_unproven: bool = False, retry_failed: bool = False,
                  memory_mb: int = DEFAULT_MEMORY_MB) -> Policy:
    """The :class:`Policy` of a spec string (see the module docstring).

    A ``FILE.py:FUNCTION`` runs in its own interpreter for at most
    ``timeout`` seconds and ``memory_mb`` of address space; ``on_output(label, captured)`` hears
    what it printed.
    A file that failed before, unchanged, fails again from the cache unless
    ``retry_failed``.  ``optimal`` of a ruleset without a proven solution raises
    :class:`~hogsolve.strategy.optimal_bot.UnprovenStrategyError` unless ``allow_unproven``.
    """
    head, _, rest = spec.partition(":")
    parts = rest.split(":") if rest else []
    if spec == "optimal":
        return as_policy(optimal_strategy(rules, allow_unproven=allow_unproven), rules, "optimal")
    if head == "always_roll":
        (n,) = _ints(spec, parts, 1)
        if not 0 <= n <= rules.max_dice:
            raise _bad(spec, f"dice count must be from 0 to {rules.max_dice}")
        return Policy(np.full((rules.goal, rules.goal), n), rules, spec, {"kind": "spec", "spec": spec})
    if head in ("bacon", "swap"):
        margin, num_rolls = _ints(spec, parts, 2)
        if not 0 <= margin <= rules.goal:  # a margin of points: a negative one compares with nothing
            raise _bad(spec, f"the margin must be from 0 to {rules.goal} points")
        if not 0 <= num_rolls <= rules.max_dice:
            raise _bad(spec, f"dice count must be from 0 to {rules.max_dice}")
        make = bacon_strategy if head == "bacon" else swap_strategy
        return _spec_policy(make(rules, margin, num_rolls), rules, spec)
    if head == "random":
        (seed,) = _ints(spec, parts, 1)
        if seed < 0:
            raise _bad(spec, "the seed must be 0 or more")
        return _spec_policy(random_strategy(seed, rules), rules, spec)
    if head == "table":
        if not rest:
            raise _bad(spec, "expected a CSV path after table:")
        load = load_table_npy if rest.endswith(".npy") else load_table_csv
        return Policy(load(Path(rest), rules), rules, spec,
                      {"kind": "table", "path": str(Path(rest).resolve())})
    if spec.endswith(".py"):  # a file alone is its final_strategy, as in the lab and the contest
        spec = f"{spec}:final_strategy"
    try:
        named = file_spec(spec)
    except UserFileError as exc:
        raise StrategySpecError(f"{exc}; accepted forms: {', '.join(SPEC_FORMS)}") from None
    if named is not None:
        path, function = named
        try:
            policy, captured = tabulate_file(path, function, rules, timeout=timeout, retry_failed=retry_failed,
                                             memory_mb=memory_mb)
        except UserFileError as exc:
            raise StrategySpecError(str(exc)) from None
        if captured is not None and captured.lines and on_output is not None:
            on_output(spec, captured)
        return policy
    raise _bad(spec, "unknown form")


def _spec_policy(strategy, rules: Ruleset, spec: str) -> Policy:
    policy = as_policy(strategy, rules, spec)
    return Policy(policy.table, rules, spec, {"kind": "spec", "spec": spec})


#: The largest CSV a goal x goal table can be: a two-digit cell and a comma each, plus labels.
def _csv_limit(goal: int) -> int:
    return 3 * (goal + 1) ** 2 + 16 * (goal + 1) + 64


def load_table_csv(path: Path, rules: Ruleset) -> np.ndarray:
    """A policy table CSV in the solutions/ layout, checked strictly.

    The header must read ``score\\opponent_score,0,...,goal-1``, each row
    must start with its own score in order, every cell must be a dice count
    from 0 to max dice; the file must be a regular file of plausible size;
    a ``meta.json`` beside it must list this file's sha256 correctly.
    """
    g, most = int(rules.goal), int(rules.max_dice)
    try:
        info = os.stat(path)
    except OSError as exc:
        raise StrategySpecError(f"cannot read {path}: {exc.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise StrategySpecError(f"{path} is not a regular file")
    if info.st_size > _csv_limit(g):
        raise StrategySpecError(f"{path} is {info.st_size} bytes, too large for a {g}x{g} policy table")
    try:
        with open(path, "rb") as f:
            data = f.read(_csv_limit(g) + 1)
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise StrategySpecError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    _check_meta_beside(Path(path), data)
    lines = text.strip().splitlines()
    header = "score\\opponent_score," + ",".join(str(o) for o in range(g))
    if not lines or lines[0].strip() != header:
        raise StrategySpecError(f"{path}: the header must be score\\opponent_score,0,...,{g - 1}")
    if len(lines) != g + 1:
        raise StrategySpecError(f"{path} has {len(lines) - 1} rows, expected {g} for goal {g}")
    table = np.empty((g, g), dtype=np.int8)
    cell = re.compile(r"[0-9]{1,2}")
    for s, line in enumerate(lines[1:]):
        fields = line.strip().split(",")
        if fields[0] != str(s):
            raise StrategySpecError(f"{path}: row {s + 1} is labelled {fields[0][:20]!r}, expected {s} "
                                    "(rows must be in score order)")
        if len(fields) != g + 1:
            raise StrategySpecError(f"{path}: row {s} has {len(fields) - 1} cells, expected {g}")
        for o, value in enumerate(fields[1:]):
            if not cell.fullmatch(value) or int(value) > most:
                raise StrategySpecError(f"{path}: score {s}, opponent score {o} holds {value[:20]!r}; "
                                        f"expected a dice count from 0 to {most}")
            table[s, o] = int(value)
    return table


def load_table_npy(path: Path, rules: Ruleset) -> np.ndarray:
    """A policy table saved as .npy (never unpickled): ``(goal, goal)`` or, under a history
    rule, ``(goal, goal, H, H)`` integers from 0 to max dice; checked against a
    ``meta.json`` beside it like a CSV."""
    shapes = {(rules.goal, rules.goal), (rules.goal, rules.goal) + rules.context_shape}
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise StrategySpecError(f"{path} is not a regular file")
        limit = 256 + max(int(np.prod(s)) for s in shapes) * 8
        if info.st_size > limit:
            raise StrategySpecError(f"{path} is {info.st_size} bytes, too large for a policy table")
        data = Path(path).read_bytes()
    except OSError as exc:
        raise StrategySpecError(f"cannot read {path}: {exc.strerror}") from None
    _check_meta_beside(Path(path), data)
    try:
        table = np.load(io.BytesIO(data), allow_pickle=False)
    except (ValueError, OSError, EOFError) as exc:
        raise StrategySpecError(f"{path} is not a numpy array: {exc}") from None
    if table.shape not in shapes or table.dtype.kind not in "iu":
        raise StrategySpecError(f"{path} holds {table.dtype} {table.shape}; expected integers shaped "
                                f"{' or '.join(str(s) for s in sorted(shapes))}")
    if table.min() < 0 or table.max() > rules.max_dice:
        raise StrategySpecError(f"{path} holds dice counts outside 0..{rules.max_dice}")
    return table


def _check_meta_beside(path: Path, data: bytes) -> None:
    meta_path = path.with_name("meta.json")
    if not meta_path.is_file():
        return
    try:
        if meta_path.stat().st_size > META_LIMIT:
            raise InputError("too large")
        meta = json.loads(meta_path.read_text())
        digest = meta["sha256"][path.name] if isinstance(meta, dict) and isinstance(meta.get("sha256"), dict) \
            else None
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as exc:
        raise StrategySpecError(f"{meta_path} beside {path.name} is unreadable: {exc}") from None
    if digest is not None and digest != sha256(data):
        raise StrategySpecError(f"{path} does not match its sha256 in {meta_path}")


parse_strategy = load_strategy
__all__ = ["SPEC_FORMS", "SPEC_HELP", "StrategySpecError", "StrategyError", "load_strategy",
           "parse_strategy", "load_table_csv", "load_table_npy"]
