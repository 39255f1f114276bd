"""The roll-or-hold games: each roll, roll again or bank the turn (Pig, Piglet, Two-Dice Pig, Big Pig)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

from ..games.interface import GameState
from ..pig.rules import PigGame
from ..util.plain import finite
from ..strategy.userfile import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT
from .base import GameFamily


class RollOrHoldFamily(GameFamily[PigGame]):
    """The roll-or-hold games: the rules are a :class:`~hogsolve.pig.rules.PigGame`; a strategy
    says roll (True) or hold at each (score, opponent's score, turn total)."""

    name = "roll-or-hold"
    description = "roll or hold each roll: Pig, Piglet, Two-Dice Pig, Big Pig"
    env_id = "hogsolve/Pig-v0"
    env_keyword = "game"
    default_game = "pig"
    map_unit = "hold at turn total"

    def names(self) -> Tuple[str, ...]:
        from ..pig.rules import PIG_GAMES
        return tuple(PIG_GAMES)

    def game(self, name: str, goal: Optional[int] = None) -> PigGame:
        from ..pig.rules import get_pig_game
        return get_pig_game(name, goal)

    def game_type(self) -> type:
        return PigGame

    def listing(self) -> List[Dict[str, Any]]:
        from ..pig.rules import PIG_GAMES
        return [{"name": g.name, "family": g.family, "description": g.description, "caveat": "", "semesters": []}
                for g in PIG_GAMES.values()]

    def check_fits(self, game: Any, *, exact: bool = False, limit_gb: Optional[float] = None) -> None:
        from ..solver.memory import check_pig_fits
        check_pig_fits(game, limit_gb=limit_gb)

    def new_state(self, game: PigGame, *, first: int = 0) -> GameState:
        from ..pig.state import new_state
        return new_state(game, first=first)

    def solve(self, game: PigGame, *, exact: bool = False, progress: Optional[Callable[..., Any]] = None,
              max_passes: int = 50, **options: Any) -> Any:
        """Stage by stage (no progress to report); ``max_passes`` caps each stage's policy passes."""
        from ..solver.pig import solve_pig
        if exact:
            return self.prove(game, max_passes=max_passes, **options)
        return solve_pig(game, max_passes=max_passes, **options)

    def prove(self, game: PigGame, *, progress: Optional[Callable[..., Any]] = None, max_passes: int = 50) -> Any:
        """The float policy checked state by state against the rigorous error bound."""
        import dataclasses

        from ..solver.bound_check import check_pig_policy
        from ..solver.pig import solve_pig
        solution = solve_pig(game, max_passes=max_passes)
        return dataclasses.replace(solution, proof=check_pig_policy(game, solution.values, solution.policy))

    def shipped_games(self, endless: str = "none") -> Tuple[List[PigGame], Dict[str, str]]:
        """Every roll-or-hold game at its built-in goal; each has a value."""
        from ..pig.rules import PIG_GAMES
        return list(PIG_GAMES.values()), {}

    def describe_solution(self, solution: Any) -> str:
        from ..util.stable import certain_digits, certificate_text
        c = solution.certificate
        lines = [
            f"{solution.game.name} (goal {solution.game.goal}): P(first player wins) = "
            f"{certain_digits(solution.first_player_win_probability, c.error_bound)}, hold at "
            f"{solution.opening_move} at the start, solved in {solution.solve_seconds * 1000:.0f} ms",
            "  certificate: " + certificate_text(c.error_bound, c.max_bellman_residual, c.backup_error,
                                                 c.min_decision_margin, len(c.tie_states)) + "; " +
            (f"{c.policy_passes} rounds of policy iteration over whole turns" if c.over_turns
             else f"{c.policy_passes} policy passes at most per stage"),
            "  proven optimal" if c.proven else f"  NOT proven: {c.reason}",
        ]
        if solution.degenerate:
            lines.append(f"  note: {solution.degenerate} is optimal in every state at this goal: a strategy that "
                         "learns nothing can be optimal here (a degenerate benchmark)")
        if solution.proof is not None:
            lines.append(f"  exact: {solution.proof!r}")
        return "\n".join(lines)

    def write_solution(self, solution: Any, folder: Path, version: str) -> None:
        from ..solver.pig.tables import pig_solution_files
        from ..util.files import atomic_write
        folder.mkdir(parents=True, exist_ok=True)
        for file_name, data in pig_solution_files(solution, version).items():
            atomic_write(folder / file_name, data)

    def check_ties(self, solution: Any) -> Any:
        """Refused: the quick exact check of ties is Hog's (``--exact`` proves these games)."""
        from ..errors import InputError
        raise InputError("--exact-ties is the quick check of Hog's ties; --exact proves the roll-or-hold games")

    def win_rate(self, a: Any, b: Any, game: PigGame, **options: Any) -> Any:
        from ..analysis.pig.evaluate import pig_win_rate
        return pig_win_rate(a, b, game, **options)

    def best_response(self, strategy: Any, game: PigGame, **options: Any) -> Any:
        from ..analysis.pig.evaluate import pig_best_response
        return pig_best_response(strategy, game, **options)

    def regret(self, strategy: Any, game: PigGame, **options: Any) -> Any:
        from ..analysis.pig.evaluate import pig_regret
        return pig_regret(strategy, game, **options)

    def simulate(self, a: Any, b: Any, game: PigGame, games: int = 100_000, seed: Optional[int] = 0, *,
                 progress: Optional[Callable[..., Any]] = None,
                 announce: Optional[Callable[[float], None]] = None, **options: Any) -> Any:
        """All games at once, vectorised (no chunks: ``progress`` and ``announce`` are not called)."""
        from ..analysis.pig.montecarlo import simulate_roll_or_hold
        return simulate_roll_or_hold(a, b, game, games=games, seed=seed, **options)

    def load_strategy(self, spec: str, game: Any, *, timeout: float = DEFAULT_TIMEOUT,
                      on_output: Optional[Callable[[str, Any], None]] = None, allow_unproven: bool = False,
                      retry_failed: bool = False, memory_mb: int = DEFAULT_MEMORY_MB) -> Any:
        from ..strategy.pig import load_pig_strategy
        return load_pig_strategy(spec, game, timeout=timeout, on_output=on_output, allow_unproven=allow_unproven,
                      retry_failed=retry_failed, memory_mb=memory_mb)

    def optimal(self, game: PigGame, *, allow_unproven: bool = False) -> Any:
        """The shipped or solved table: every roll-or-hold game's optimum is proven."""
        from ..strategy.pig import pig_bot
        return pig_bot(game)

    def tabulated(self, game: PigGame, table: np.ndarray) -> Any:
        from ..strategy.pig import TabulatedPig
        return TabulatedPig(game, np.asarray(table, dtype=bool))  # True: roll (a round robin's tables are int8)

    def session(self, game: PigGame, bot: Any, you_first: bool, seed: int) -> Any:
        from ..sessions.pig import PigSession
        return PigSession(game, bot, you_first, seed)

    def play_in_terminal(self, game: PigGame, bot: Any, *, you_first: bool, seed: Optional[int],
                         read: Callable[[str], str] = input, write: Callable[[str], None] = print) -> Dict[str, Any]:
        from ..sessions.pig_terminal import play_game
        return play_game(game, you_first, seed, read, write, bot=bot)

    def policy_picture(self, game: PigGame, bot: Any) -> Tuple[np.ndarray, np.ndarray, str, str]:
        """The hold threshold at every pair of scores, and the win probability at a turn's start."""
        return (game.hold_thresholds(bot.policy), bot.values[:, :, 0], f"{game.name} (goal {game.goal})",
                "turn total at which to hold")

    def web_bot(self, game: PigGame) -> Any:
        return self.optimal(game)

    def web_game(self, game_id: str, name: str, seed: int, game: PigGame, bot: Any, you_first: bool) -> Any:
        from ..sessions.web import PigWebGame
        return PigWebGame(game_id, name, seed, game, bot, you_first)

    def duel(self, game: PigGame, seed: int) -> Any:
        from ..sessions.duel import PigDuel
        return PigDuel(game, seed)

    def hint(self, game: PigGame, bot: Any, where: Tuple[int, ...]) -> Dict[str, Any]:
        from ..sessions.pig import best_move, move_values
        values = move_values(game, bot.values, where)
        return {"best": best_move(values), **{k: None if v is None else finite(v) for k, v in values.items()}}

    def policy_map(self, name: str, game: PigGame, bot: Any, memory: Tuple[int, ...]) -> Dict[str, Any]:
        return {"family": self.name, "rules": name, "goal": int(bot.game.goal),
                "hold_threshold": game.hold_thresholds(bot.policy).astype(int).tolist(),
                "win_probability": [[finite(x) for x in row] for row in bot.values[:, :, 0]]}

    def lab_maps(self, game: PigGame, optimal: Any, table: np.ndarray, expected: np.ndarray,
                 memory: Tuple[int, ...]) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Hold thresholds by banked scores; the loss summed over turn totals."""
        g = int(game.goal)
        return game.hold_thresholds(table), game.hold_thresholds(optimal.policy), expected.reshape(g, g, -1).sum(axis=2)

    def lab_state(self, game: PigGame, optimal: Any, table: np.ndarray, where: Tuple[int, ...]) -> Dict[str, Any]:
        from ..sessions.pig import best_move, move_values
        values = move_values(game, optimal.values, where)
        roll = bool(table[where]) or where[2] == 0
        return {"state": list(where), "actions": ["roll", "hold"], "values": [finite(values["roll"]),
                None if values["hold"] is None else finite(values["hold"])],
                "choice": 0 if roll else 1, "best": 0 if best_move(values) == "roll" else 1,
                "rules": ["the first roll of a turn is compulsory"] if where[2] == 0 else []}

    def lab_game(self, game: PigGame, strategy: Any, optimal: Any, seed: int) -> Dict[str, Any]:
        from ..pig.engine import play_pig
        from ..sessions.pig_terminal import describe
        match = play_pig(strategy, optimal, game, seed=seed)
        names = ("Strategy", "Optimal")
        return {"seed": seed, "winner": names[int(match.winner or 0)].lower(), "scores": list(match.scores),
                "log": [describe(entry, names[entry["player"]]) for entry in match.log]}

    def table_of(self, strategy: Any, game: PigGame) -> np.ndarray:
        from ..strategy.pig import policy_table
        loaded = self.load_strategy(strategy, game) if isinstance(strategy, str) else strategy
        return policy_table(loaded, game)

    def chooser(self, table: np.ndarray, game: PigGame) -> Callable[[GameState], int]:
        def choose(state: Any) -> int:
            score, opponent, total = state.match.state()
            return 0 if total == 0 or table[score, opponent, total] else 1
        return choose

    def lane(self, spec: Any, opponent: Any) -> Any:
        from .lanes import PigLane
        return PigLane(spec, opponent)

    def vector_games(self, spec: Any, opponent: Any) -> Any:
        from .vector_games import RollOrHoldGames
        return RollOrHoldGames(spec, opponent)
