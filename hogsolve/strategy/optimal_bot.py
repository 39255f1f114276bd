"""The optimal bot, read from the shipped solution tables.

Thin on purpose: it imports numpy and the rules, never the solver, scipy or
joblib, so a cold interpreter answers its first move quickly.  Tables are
checksum-verified against meta.json and never unpickled.  If a table is
missing or fails verification the player says so (a ``PlayerWarning``),
solves the ruleset, and caches the result in ``$HOGSOLVE_CACHE`` (default
``~/.cache/hogsolve``) when it may write there.
"""
from __future__ import annotations

from ..errors import HogsolveError
import os
import threading
import warnings
from pathlib import Path
from typing import Optional, Union

from ..hog.rules import ENDLESS_GAME, NO_VALUE, Ruleset, get_rules, rulesets
from ..hog.lookahead import action_values_at
from ..solver.tables import HISTORY_FILES, POLICY_ONLY_FILES, TableError, check_solution_arrays, load_arrays, read_meta

__all__ = ["optimal_strategy", "OptimalStrategy", "PlayerWarning", "UnprovenStrategyError", "shipped_tables",
           "cache_root"]


class PlayerWarning(UserWarning):
    """A shipped table could not be used; the player solved instead."""


class UnprovenStrategyError(HogsolveError, ValueError):
    """The ruleset's solution is not proven optimal (sp22 has no value at all)."""


def shipped_tables() -> Path:
    """The folder of solution tables that ships with the package."""
    from importlib.resources import files
    return Path(str(files("hogsolve.solutions")))


def shipped_tables_are_a_checkout() -> bool:
    """True when the shipped tables are the ``solutions/`` folder of a source checkout (a
    git work tree), never an installed package's copy."""
    folder = shipped_tables()
    return folder.name == "solutions" and (folder.parent / ".git").exists() and "site-packages" not in folder.parts


def cache_root() -> Path:
    """Where solved tables are cached: ``$HOGSOLVE_CACHE`` or ``~/.cache/hogsolve``."""
    return Path(os.environ.get("HOGSOLVE_CACHE", Path.home() / ".cache" / "hogsolve"))


class OptimalStrategy:
    """``strategy(score, opponent_score) -> dice`` from an optimal table.

    ``table``, ``win_probability`` and ``action_values`` (all checked when
    the table is loaded) are indexed ``[score, opponent_score]`` with the player
    to move first.  Under a history rule (Feral Hogs) they are also indexed by
    both players' memories, the strategy takes them as ``strategy(score,
    opponent_score, my_memory, opponent_memory)``; the state values ship (as
    float32) and one state's action values come from them by one turn of
    lookahead (:meth:`values_at`); the whole ``action_values`` array is solved
    on first use.
    """

    def __init__(self, rules: Ruleset, directory: Optional[Path], arrays: dict, reason: str = ""):
        self.rules = rules
        self.name = "optimal"
        self.directory = directory
        self.table = arrays["policy.npy"]
        self.reason = reason  # why the table is not proven optimal ('' when it is)
        self.source = {"kind": "solver", "directory": str(directory) if directory else None,
                       "proven": not reason, **({"reason": reason} if reason else {})}
        self._values = (arrays["win_probability.npy"], arrays["action_values.npy"]) \
            if "action_values.npy" in arrays else None
        self._state_values = arrays.get("win_probability.npy")  # without action values: Feral Hogs
        self._solving = threading.Lock()  # many callers at once (a server's requests) solve once

    def _solved_values(self):
        with self._solving:
            if self._values is None:
                from ..solver.optimal import solve  # only a history ruleset's values, which do not ship
                solution = solve(self.rules)
                self._values = (solution.values, solution.action_values)
            return self._values

    @property
    def win_probability(self):
        """P(the mover wins) by state."""
        if self._values is None and self._state_values is not None:
            return self._state_values
        return self._solved_values()[0]

    @win_probability.setter
    def win_probability(self, table) -> None:
        """Replace the win probabilities (tests use it to plant bad values)."""
        if self._values is None and self._state_values is not None:
            self._state_values = table
        else:
            self._values = (table, self.action_values)

    def values_at(self, index: tuple):
        """P(the mover wins) for each dice count at one state (a table index), without
        solving anything when only the state values are at hand."""
        if self._values is None and self._state_values is not None:
            return action_values_at(self.rules, self._state_values, index[0], index[1], index[2:])
        return self.action_values[index]

    @property
    def action_values(self):
        """P(the mover wins) by state and dice count."""
        return self._solved_values()[1]

    @property
    def uses_history(self) -> bool:
        """True when the table depends on the players' memories (Feral Hogs)."""
        return self.table.ndim > 2

    def __call__(self, score: int, opponent_score: int, *context: int) -> int:
        context = self.rules.context_index(context) if self.rules is not None else ()
        return int(self.table[(score, opponent_score) + tuple(context)])

    @property
    def proven(self) -> bool:
        """True when the table is proven optimal (its certificate, shipped or fresh)."""
        return not self.reason

    def __repr__(self) -> str:
        return f"OptimalStrategy({self.rules.name}, goal={self.rules.goal})"


def _matches(meta: dict, rules: Ruleset) -> bool:
    """The table was solved for exactly these rules: every component, the goal and max dice."""
    return (meta.get("rules") == rules.summary() and meta.get("goal") == rules.goal
            and meta.get("max_dice") == rules.max_dice)


def _load(directory: Path, rules: Ruleset) -> OptimalStrategy:
    meta = read_meta(directory)
    full = ("policy.npy", "win_probability.npy", "action_values.npy")
    names = next(files for files in (full, HISTORY_FILES, POLICY_ONLY_FILES)
                 if all(name in meta["sha256"] for name in files))  # what is missing is solved on use
    meta, arrays = load_arrays(directory, names)
    if not _matches(meta, rules):
        held = meta.get("rules")
        name = held.get("name") if isinstance(held, dict) else None
        raise TableError(f"{directory} holds {name} at goal {meta.get('goal')}, "
                         f"not {rules.name} at goal {rules.goal}")
    check_solution_arrays(arrays, rules.goal, rules.max_dice, Path(directory), rules.context_shape)
    certificate = meta.get("certificate")
    if not isinstance(certificate, dict):
        certificate = {}
    reason = "" if certificate.get("proven") is True else str(certificate.get("reason") or "no proof recorded")
    return OptimalStrategy(rules, directory, arrays, reason)


def _is_builtin(rules: Ruleset) -> bool:
    known = rulesets().get(rules.name)
    return known is not None and known.replace(goal=rules.goal) == rules


def optimal_strategy(rules: Union[str, Ruleset] = "su18", *, allow_unproven: bool = False) -> OptimalStrategy:
    """The optimal strategy of a ruleset (a name or a Ruleset).

    A ruleset whose solution is not proven optimal (sp22, where optimal play
    never ends, or a rule file the certificate cannot prove) raises
    :class:`UnprovenStrategyError`, unless ``allow_unproven``; then the
    strategy's ``proven`` is False and ``reason`` says why.
    """
    if isinstance(rules, str):
        rules = get_rules(rules)
    bot = _find_or_solve(rules)
    if not bot.proven and not allow_unproven:
        endless = f"; {ENDLESS_GAME}" if "endless game" in bot.reason else ""
        raise UnprovenStrategyError(f"{rules.name} has no proven optimal strategy: {bot.reason}{endless}; its "
                                    "figures would not be exact (ask for them anyway with --allow-unproven)")
    return bot


def _find_or_solve(rules: Ruleset) -> OptimalStrategy:
    builtin = _is_builtin(rules)
    cached = cache_root() / f"{rules.name}-goal{rules.goal}"
    candidates = []
    if builtin and rules.goal == rulesets()[rules.name].goal and rules.name not in NO_VALUE:  # these never ship
        candidates.append(shipped_tables() / rules.name)
    if builtin:
        candidates.append(cached)
    for directory in candidates:
        try:
            return _load(directory, rules)
        except TableError as exc:
            if directory != cached:
                warnings.warn(f"cannot use the shipped {rules.name} table: {exc}; "
                              "using a cached or fresh solution instead", PlayerWarning, stacklevel=2)
    return _solve_and_cache(rules, cached if builtin else None)


def _solve_and_cache(rules: Ruleset, directory: Optional[Path]) -> OptimalStrategy:
    from ..version import __version__
    from ..solver.optimal import solve  # only when no table can be used
    from ..solver.tables import write_solution

    solution = solve(rules)
    arrays = {"policy.npy": solution.policy, "win_probability.npy": solution.values,
              "action_values.npy": solution.action_values}
    if not solution.certificate.proven:  # never cached: an unproven table is only shown on request
        return OptimalStrategy(rules, None, arrays, solution.certificate.reason)
    if directory is not None:
        try:
            write_solution(solution, directory, __version__)
        except OSError as exc:
            warnings.warn(f"could not cache the {rules.name} table in {directory}: {exc}",
                          PlayerWarning, stacklevel=3)
            directory = None
    return OptimalStrategy(rules, directory, arrays)
