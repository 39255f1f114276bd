"""What a game family is: :class:`GameFamily`, one typed class per kind of game with its own
solver, which every layer above calls instead of asking which game it serves; and
:class:`GameSpec`, a game of a family ready for the adapters and the lanes.

A family owns its rules type and its names; the jobs (``solve``, ``prove``, ``win_rate``,
``best_response``, ``regret``, ``simulate``), its strategies (``load_strategy``, ``optimal``,
``tabulated``) and its states (``new_state``); and the hooks the front ends need: the web game
and its bot, the duel and its hint, the policy map, the lab's maps, state and sample game, the
reinforcement-learning lane, vector engine and fixed opponent.  Each method imports what it
calls when called, so looking a family up costs nothing.
"""
from __future__ import annotations

import abc
import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Dict, Generic, List, NoReturn, Optional, Tuple, TypeVar

import numpy as np

from ..games.interface import GameState
from ..strategy import observations
from ..strategy.userfile import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT

if TYPE_CHECKING:  # annotations only
    from ..analysis.montecarlo import SimulationResult
    from ..analysis.results import BestResponse, Regret, WinRate

#: A family's rules type (a :class:`~hogsolve.hog.rules.Ruleset`, a :class:`~hogsolve.pig.rules.PigGame`).
G = TypeVar("G")


class GameFamily(abc.ABC, Generic[G]):
    """One kind of game: its rules type ``G``, its names, its jobs and its front-end hooks."""

    #: The family's name (``"hog"``), its one-line description, its Gymnasium id, the keyword that
    #: names its game there (``rules``, ``game``), the game played when none is named, and what
    #: the numbers of the lab's maps (:meth:`lab_maps`) count.
    name: ClassVar[str]
    description: ClassVar[str]
    env_id: ClassVar[str]
    env_keyword: ClassVar[str]
    default_game: ClassVar[str]
    map_unit: ClassVar[str]

    # ------------------------------------------------------------- games --

    @abc.abstractmethod
    def names(self) -> Tuple[str, ...]:
        """Every game name this family owns (lower case)."""

    @abc.abstractmethod
    def game(self, name: str, goal: Optional[int] = None) -> G:
        """The rules object of ``name`` at ``goal`` (the game's own when None)."""

    @abc.abstractmethod
    def game_type(self) -> type:
        """The class of this family's rules objects."""

    def listing(self) -> List[Dict[str, Any]]:
        """Each built-in game as a page lists it: name, family, description, caveat (why it has no
        value, if so) and the other names it goes by (semesters)."""
        return [{"name": name, "family": self.name, "description": getattr(self.game(name), "description", name),
                 "caveat": "", "semesters": []} for name in self.names()]

    def canonical(self, name: str) -> Optional[str]:
        """The name this family keeps ``name`` under (``SP23`` is ``fa22``, ``PIG`` is ``pig``);
        None when the name is not one of its games."""
        return name.lower() if self.owns(name) else None

    def owns(self, name: Optional[str]) -> bool:
        """True when ``name`` (in any case) is one of this family's games."""
        return isinstance(name, str) and name.lower() in self.names()

    def is_game(self, game: Any) -> bool:
        """True when ``game`` is a rules object of this family."""
        return isinstance(game, self.game_type())

    def check_fits(self, game: G, *, exact: bool = False, limit_gb: Optional[float] = None) -> None:
        """Raise :class:`~hogsolve.solver.memory.MemoryLimitError` when solving ``game`` would not
        fit in ``limit_gb`` (the memory available now when None)."""
        return None  # a family whose games are small: they always fit

    @abc.abstractmethod
    def new_state(self, game: G, *, first: int = 0) -> "GameState":
        """A game at its start, ``first`` to move."""

    # -------------------------------------------------------------- jobs --

    @abc.abstractmethod
    def solve(self, game: G, *, exact: bool = False, progress: Optional[Callable[..., Any]] = None,
              **options: Any) -> Any:
        """The certified optimal solution (a :class:`~hogsolve.solver.solution.Solution`); with
        ``exact``, :meth:`prove`'s.  ``progress(stages, total)`` may wrap a long solve's stages."""

    def prove(self, game: G, *, progress: Optional[Callable[..., Any]] = None) -> Any:
        """The solution with every decision proven by the strongest check that reaches the game
        (exact rationals, or the rigorous error bound); ``solution.usable`` says whether it holds."""
        self._not_offered("a proof beyond its certificate (solve --exact)")

    def shipped_games(self, endless: str = "none") -> Tuple[List[G], Dict[str, str]]:
        """The games ``hogsolve solve --all`` solves at their built-in goals, and those it skips
        with the reason (a game with no value unless ``endless`` gives it one)."""
        return [], {}

    def describe_solution(self, solution: Any) -> str:
        """The lines ``hogsolve solve`` prints for one solution (its proof included)."""
        return (f"{solution.game.name} (goal {solution.game.goal}): P(first player wins) = "
                f"{solution.first_player_win_probability:.12f}\n  " +
                ("proven optimal" if solution.certificate.proven else f"NOT proven: {solution.certificate.reason}"))

    def write_solution(self, solution: Any, folder: Path, version: str) -> None:
        """Write the solution's table folder (atomically, file by file)."""
        self._not_offered("tables written to disk")

    def check_ties(self, solution: Any) -> Any:
        """``hogsolve solve --exact-ties``: the quick exact check of a float solution's ties."""
        self._not_offered("the quick exact check of ties (--exact-ties)")

    @abc.abstractmethod
    def win_rate(self, a: Any, b: Any, game: G, **options: Any) -> "WinRate":
        """The exact win rate of strategy ``a`` against ``b``, both seatings."""

    def best_response(self, strategy: Any, game: G, **options: Any) -> "BestResponse":
        """The strategy that wins most often against the fixed ``strategy``."""
        self._not_offered("best responses")

    def regret(self, strategy: Any, game: G, **options: Any) -> "Regret":
        """Where ``strategy`` loses against optimal play."""
        self._not_offered("regret reports")

    def simulate(self, a: Any, b: Any, game: G, games: int = 100_000, seed: Optional[int] = 0, *,
                 progress: Optional[Callable[..., Any]] = None,
                 announce: Optional[Callable[[float], None]] = None, **options: Any) -> "SimulationResult":
        """``games`` seeded games of ``a`` against ``b``, half with each first; ``progress`` may wrap
        the chunks of a long run and ``announce(seconds)`` hear its expected time (where the
        family's simulation runs in chunks); ``options`` are the family's own (Hog's ``chunk``, ``model``)."""
        self._not_offered("simulations")

    def tournament(self, strategies: Any, game: G, **options: Any) -> Any:
        """A round robin of ``strategies`` with exact win rates (options as
        :func:`hogsolve.contest.roundrobin.round_robin`): a
        :class:`~hogsolve.contest.roundrobin.TournamentResult`."""
        import functools

        from ..contest.roundrobin import round_robin
        tables = [self.table_of(s, game) for s in strategies]
        names = options.pop("names", None) or [getattr(s, "name", str(s)) for s in strategies]
        return round_robin(tables, game, evaluate=functools.partial(pairs_by_win_rate, self), names=names, **options)

    # -------------------------------------------------------- strategies --

    @abc.abstractmethod
    def load_strategy(self, spec: str, game: G, *, timeout: float = DEFAULT_TIMEOUT,
                      on_output: Optional[Callable[[str, Any], None]] = None, allow_unproven: bool = False,
                      retry_failed: bool = False, memory_mb: int = DEFAULT_MEMORY_MB) -> Any:
        """A strategy from its spec (``optimal``, ``always_roll:4``, ``hold_at:20``, ``FILE.py:NAME``);
        a student's file runs walled in for at most ``timeout`` seconds and ``memory_mb``, and
        ``on_output(label, captured)`` hears what it printed."""

    @abc.abstractmethod
    def optimal(self, game: G, *, allow_unproven: bool = False) -> Any:
        """The proven optimal strategy (the bot); one without a proof raises
        :class:`~hogsolve.strategy.optimal_bot.UnprovenStrategyError` unless ``allow_unproven``."""

    @abc.abstractmethod
    def tabulated(self, game: G, table: np.ndarray) -> Any:
        """The strategy an agent's table of answers plays."""

    # ------------------------------------------------- front-end hooks --

    def session(self, game: G, bot: Any, you_first: bool, seed: int) -> Any:
        """A person against the bot, in the terminal."""
        self._not_offered("a game in the terminal")

    def play_in_terminal(self, game: G, bot: Any, *, you_first: bool, seed: Optional[int],
                         read: Callable[[str], str] = input, write: Callable[[str], None] = print) -> Dict[str, Any]:
        """A person against ``bot`` through ``read`` and ``write`` until someone wins or quits;
        the game's record."""
        self._not_offered("a game in the terminal")

    def policy_picture(self, game: G, bot: Any) -> Tuple[np.ndarray, np.ndarray, str, str]:
        """What ``hogsolve plot`` draws: the policy grid and the win probabilities by the two
        scores, a title, and what the policy's numbers are."""
        self._not_offered("a picture of its policy")

    def web_bot(self, game: G) -> Any:
        """The bot the web page plays (a game without a proven value plays with its caveat)."""
        return self.optimal(game)

    def web_game(self, game_id: str, name: str, seed: int, game: G, bot: Any, you_first: bool) -> Any:
        """A :class:`~hogsolve.sessions.web.WebGame` of a person against ``bot``."""
        from ..sessions.web import StateWebGame
        return StateWebGame(game_id, name, seed, self, game, bot, you_first)

    def duel(self, game: G, seed: int) -> Any:
        """Two people at one table (:mod:`hogsolve.sessions.duel`)."""
        self._not_offered("a table for two people")

    def hint(self, game: G, bot: Any, where: Tuple[int, ...]) -> Dict[str, Any]:
        """The optimal move at ``where`` and each move's chance to win, as the page shows it."""
        self._not_offered("hints")

    def policy_map(self, name: str, game: G, bot: Any, memory: Tuple[int, ...]) -> Dict[str, Any]:
        """The bot's whole policy as the page draws it (at one memory slice where there are memories)."""
        self._not_offered("a map of its policy")

    def lab_maps(self, game: G, optimal: Any, table: np.ndarray, expected: np.ndarray,
                 memory: Tuple[int, ...]) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The lab's three grids ``[score][opponent]``: the strategy's map, the optimal map and the
        expected loss (at ``memory`` where there are memories)."""
        self._not_offered("the strategy lab")

    def lab_state(self, game: G, optimal: Any, table: np.ndarray, where: Tuple[int, ...]) -> Dict[str, Any]:
        """One state for the lab: every action's chance to win, the strategy's choice, the best one
        and the rules that apply there."""
        self._not_offered("the strategy lab")

    def lab_game(self, game: G, strategy: Any, optimal: Any, seed: int) -> Dict[str, Any]:
        """A seeded game of ``strategy`` (first) against ``optimal``, as lines of a log."""
        self._not_offered("the strategy lab")

    @abc.abstractmethod
    def table_of(self, strategy: Any, game: G) -> np.ndarray:
        """A strategy (a spec or a strategy object) as its table: what the environments look up for a
        fixed opponent, and what a round robin scores."""

    @abc.abstractmethod
    def chooser(self, table: np.ndarray, game: G) -> Callable[["GameState"], int]:
        """``choose(state) -> action`` of the player to move, from :meth:`table_of`'s table."""

    def lane(self, spec: "GameSpec", opponent: Any) -> Any:
        """The single environment's fastest lane (:mod:`hogsolve.families.lanes`) for games
        without memories; None: the general lane through the game's states."""
        return None

    def vector_games(self, spec: "GameSpec", opponent: Any) -> Any:
        """N games as numpy arrays (:mod:`hogsolve.families.vector_games`)."""
        self._not_offered("the vector environment")

    def _not_offered(self, what: str) -> NoReturn:
        """Refuse a hook this family does not serve, in one line (the web answers it with 400)."""
        from ..errors import InputError
        raise InputError(f"{self.name} games do not offer {what}")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"

    def __eq__(self, other: object) -> bool:  # a family has no state: one per class, even unpickled
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(type(self).__name__)


def pairs_by_win_rate(family: GameFamily, game: Any, i: int, js: Any, tables: List[np.ndarray]) -> List[tuple]:
    """A round robin's block for any family: strategy ``i`` (``tables[0]``) against each of ``js``,
    by the family's own exact win rate of the strategies its tables play."""
    mine = family.tabulated(game, tables[0])
    out = []
    for j, table in zip(js, tables[1:]):
        rate = family.win_rate(mine, family.tabulated(game, table), game)
        out.append((i, j, float(rate.first), float(rate.second)))
    return out


@dataclasses.dataclass(frozen=True)
class GameSpec:
    """A game ready for an adapter: its family, its rules and its vector shapes (plain data, so
    the states that hold it pickle); :func:`hogsolve.families.game_spec` makes one from a name."""

    family: GameFamily
    rules: Any  # a rules object of the family

    @property
    def goal(self) -> int:
        """The goal score."""
        return int(self.rules.goal)

    @property
    def num_actions(self) -> int:
        """Dice counts 0..max dice, or roll and hold."""
        return self.rules.num_actions

    @property
    def memories(self) -> bool:
        """True when the observation carries Feral Hogs' memories."""
        return bool(self.rules.context_shape)

    @property
    def highs(self) -> np.ndarray:
        """The largest value of each observation entry."""
        return self.rules.observation_high()

    def new_state(self, first: int = 0) -> GameState:
        """A fresh game state, ``first`` to move."""
        return self.family.new_state(self.rules, first=first)

    def observe(self, state: GameState, seat: int) -> np.ndarray:
        """What ``seat`` sees, as the observation vector."""
        values = self.rules.observation_vector(state.observation(seat))
        return np.minimum(np.array(values, dtype=np.int64), self.highs)

    def legal(self, state: GameState) -> np.ndarray:
        """The action mask of the player to move (int8, 1 where legal)."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        mask[state.legal_actions()] = 1
        return mask

    def decision_states(self) -> Tuple[np.ndarray, Tuple[np.ndarray, ...]]:
        """Every decision state's observation (rows) and its table index (arrays per axis)."""
        return observations.decision_rows(self.rules)
