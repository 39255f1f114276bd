"""Sweeps of rulesets: every combination of a grid of rule components and parameters,
solved and summarised, on the batch machinery of round robins.

A grid is a TOML file::

    base = "su18"            # the components the grid leaves alone (default su18)
    [grid]
    free_bacon = ["bacon_larger_digit", "bacon_pig_tail"]
    swaps = ["never_swap", "swap_double"]
    pig_out = [1, 2, 3]
    goal = [100]

Keys and values are those of rule files (:mod:`hogsolve.hog.rulefile`).  Each
ruleset gets: P(first player wins) under optimal play and whether it is
proven, the opening move, the expected number of turns between optimal
players (from the Markov chain of play, not simulated), the share of states
where rolling zero dice is optimal, and the win rate of optimal play against
``always_roll:4``.  A ruleset whose iteration cannot converge (no value, as in
sp22) is reported as not proven with no measures (NaN, opening move -1).
"""
from __future__ import annotations

from ..errors import HogsolveError
import itertools
import math
import tomllib
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from ..analysis.evaluate import win_rate
from ..solver.iteration import ConvergenceError
from ..solver.model import cached_model
from ..util.files import read_text_file
from ..util.parallel import run_tasks
from ..analysis.policy_values import occupancy
from ..hog.rulefile import KEYS, RuleFileError, from_dict, to_toml
from ..hog.rules import Ruleset, get_rules
from ..solver.optimal import solve
from ..strategy.named import always_roll

MEASURES = ["proven", "first_player_win_probability", "opening_move", "expected_turns", "zero_dice_share",
            "win_rate_vs_always_roll_4"]
#: The most rulesets one grid may name (each is a solve).
MOST = 100_000


class GridError(HogsolveError, ValueError):
    """A grid file that cannot be used; the message names the file and the reason."""


def load_grid(path: Union[str, Path]) -> Tuple[List[str], List[Tuple[dict, Ruleset]]]:
    """``(grid keys, [(the combination's values, its Ruleset), ...])`` from a grid file."""
    path = Path(path)
    try:
        data = tomllib.loads(read_text_file(path))
    except (OSError, UnicodeDecodeError) as exc:
        raise GridError(f"{path}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise GridError(f"{path}: not valid TOML: {exc}") from None
    unknown = [k for k in data if k not in ("base", "grid")]
    if unknown:
        raise GridError(f"{path}: {unknown[0]}: unknown key; expected base and [grid]")
    base_name = data.get("base", "su18")
    try:
        base = tomllib.loads(to_toml(get_rules(base_name)))
    except (KeyError, ValueError) as exc:
        raise GridError(f"{path}: base: {exc}") from None
    grid = data.get("grid")
    if not isinstance(grid, dict) or not grid:
        raise GridError(f"{path}: [grid]: missing or empty; name at least one key with a list of values")
    for key, values in grid.items():
        if key not in KEYS or key in ("name", "description"):
            raise GridError(f"{path}: grid.{key}: not a rule key; expected one of "
                            f"{', '.join(k for k in KEYS if k not in ('name', 'description'))}")
        if not isinstance(values, list) or not values:
            raise GridError(f"{path}: grid.{key}: expected a non-empty list of values")
        if len(set(map(repr, values))) != len(values):
            raise GridError(f"{path}: grid.{key}: a value is listed twice")
    keys = list(grid)
    count = math.prod(len(grid[k]) for k in keys)
    if count > MOST:
        raise GridError(f"{path}: the grid names {count} rulesets; at most {MOST}")
    out = []
    for values in itertools.product(*(grid[k] for k in keys)):
        combination = dict(zip(keys, values))
        name = ",".join(f"{k}={v}" for k, v in combination.items())
        try:
            rules = from_dict({**base, **combination, "name": name,
                               "description": f"{base_name} with {name}"}, f"{path} ({name})")
        except RuleFileError as exc:
            raise GridError(str(exc)) from None
        out.append((combination, rules))
    return keys, out


def summarize(rules: Ruleset) -> Dict[str, object]:
    """The sweep's measures of one ruleset (see the module docstring); runs in workers too."""
    from threadpoolctl import threadpool_limits
    with threadpool_limits(1):
        model = cached_model(rules)
        solution = solve(rules, model=model)
        if solution.certificate.stuck_stages:  # no value (e.g. endless passing): nothing to measure
            return {"proven": False, **{key: float("nan") for key in MEASURES[1:]}, "opening_move": -1}
        policy = solution.policy
        corner = (0,) * policy.ndim
        row: Dict[str, object] = {
            "proven": solution.certificate.proven,
            "first_player_win_probability": float(solution.values[corner]),
            "opening_move": int(policy[corner]),
            "zero_dice_share": float(np.mean(policy == 0)),
        }
        try:  # both players optimal: turns by either player = twice the visits with "me" to move
            row["expected_turns"] = float(2 * occupancy(model, policy, policy).sum())
            row["win_rate_vs_always_roll_4"] = win_rate(policy, always_roll(4), rules, model=model).average
        except ConvergenceError:  # play that can stay on a score sum for ever
            row["expected_turns"] = row["win_rate_vs_always_roll_4"] = float("nan")
        return row


def _summarize_named(index: int, rules: Ruleset) -> Tuple[int, Dict[str, object]]:
    return index, summarize(rules)


def sweep_rulesets(rulesets: Sequence[Ruleset], *, jobs: int = 1, backend: str = "local",
                   scheduler: Optional[str] = None,
          skip: Iterable[int] = (), on_row: Optional[Callable[[int, dict], None]] = None,
          progress: Optional[Callable[[Iterable, int], Iterable]] = None) -> Dict[int, dict]:
    """:func:`summarize` every ruleset not in ``skip`` (indices), in any order:
    ``{index: measures}``; ``on_row(index, measures)`` hears each as it finishes."""
    skip = set(skip)
    todo = [(i, rules) for i, rules in enumerate(rulesets) if i not in skip]
    finished: Iterable = run_tasks(_summarize_named, todo, jobs=jobs, backend=backend, scheduler=scheduler)
    if progress is not None:
        finished = progress(finished, len(todo))
    out = {}
    for index, row in finished:
        out[index] = row
        if on_row is not None:
            on_row(index, row)
    return out
