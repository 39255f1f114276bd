"""Hog: each turn a number of dice (CS 61A's rulesets from 2014 to 2025, rule files, Neller's Hog)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

from ..games.interface import GameState
from ..hog.rules import Ruleset
from ..util.plain import finite
from ..strategy.userfile import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT
from .base import GameFamily


class HogFamily(GameFamily[Ruleset]):
    """Hog's rulesets: the rules are a :class:`~hogsolve.hog.rules.Ruleset`; a strategy is a
    :class:`~hogsolve.strategy.policy.Policy` of dice counts."""

    name = "hog"
    description = "Hog: choose a number of dice each turn (CS 61A's rulesets and Neller's Hog)"
    env_id = "hogsolve/Hog-v0"
    env_keyword = "rules"
    default_game = "su18"
    map_unit = "dice"

    def names(self) -> Tuple[str, ...]:
        from ..hog.rules import ALIASES, rulesets
        return tuple(rulesets()) + tuple(ALIASES)

    def game(self, name: str, goal: Optional[int] = None) -> Ruleset:
        from ..hog.rulefile import get_rules_or_file
        return get_rules_or_file(name, goal)

    def game_type(self) -> type:
        return Ruleset

    def listing(self) -> List[Dict[str, Any]]:
        from ..hog.rules import ALIASES, NO_VALUE, get_rules, rulesets
        semesters: Dict[str, list] = {}
        for alias, target in ALIASES.items():
            semesters.setdefault(get_rules(target).name, []).append(alias)
        return [{"name": r.name, "family": r.family, "description": r.description, "caveat": NO_VALUE.get(r.name, ""),
                 "semesters": sorted(semesters.get(r.name, []))} for r in rulesets().values()]

    def canonical(self, name: str) -> Optional[str]:
        """The ruleset a name or semester stands for (``SP23`` is ``fa22``)."""
        from ..errors import HogsolveError
        from ..hog.rules import get_rules
        try:
            return get_rules(name).name
        except HogsolveError:
            return None

    def check_fits(self, game: Any, *, exact: bool = False, limit_gb: Optional[float] = None) -> None:
        from ..solver.memory import check_fits
        check_fits(game, exact=exact, limit_gb=limit_gb)

    def new_state(self, game: Ruleset, *, first: int = 0) -> GameState:
        from ..hog.state import new_state
        return new_state(game, first=first)

    def solve(self, game: Ruleset, *, exact: bool = False, progress: Optional[Callable[..., Any]] = None,
              model: Any = None, **options: Any) -> Any:
        """``model``: the compiled model, when the caller has it already."""
        from ..solver.optimal import solve
        if exact:
            return self.prove(game, progress=progress, model=model, **options)
        return solve(game, model=model, progress=progress, **options)

    def prove(self, game: Ruleset, *, progress: Optional[Callable[..., Any]] = None, model: Any = None) -> Any:
        """Exact rationals where every turn scores; elsewhere the error bound (:mod:`hogsolve.solver.prove`)."""
        from ..solver.prove import prove
        return prove(game, model=model, progress=progress)

    def shipped_games(self, endless: str = "none") -> Tuple[List[Ruleset], Dict[str, str]]:
        """Every built-in ruleset; those without an optimal value (sp22) skipped unless ``endless``."""
        from ..hog.rules import NO_VALUE, get_rules, rulesets
        skipped = NO_VALUE if endless == "none" else {}
        games = [get_rules(name) for name in rulesets() if name not in skipped]
        return [g if name not in NO_VALUE else g.replace(endless=endless) for name, g in
                zip([n for n in rulesets() if n not in skipped], games)], dict(skipped)

    def describe_solution(self, solution: Any) -> str:
        from ..solver.exact import decimal_digits
        from ..util.stable import bound_text, certain_digits, certificate_text
        c = solution.certificate
        lines = [
            f"{solution.game.name} (goal {solution.goal}): P(first player wins) = "
            f"{certain_digits(solution.first_player_win_probability, 0 if solution.exact else c.error_bound)}, "
            f"opening move {solution.opening_move} dice, solved in {solution.solve_seconds * 1000:.0f} ms",
            "  certificate: " + certificate_text(c.error_bound, c.max_bellman_residual, c.backup_error,
                                                 c.min_decision_margin, len(c.tie_states)),
            "  proven optimal" if c.proven else f"  NOT proven: {c.reason}",
        ]
        if solution.exact is not None:
            e = solution.exact
            p = e.win_probability_start
            confirmed = ("float policy confirmed in every state" if len(e.float_policy_mismatches) == 0
                         else f"float policy differs in {len(e.float_policy_mismatches)} states (exact one kept)")
            # the float error itself (about 1e-15) follows the machine: said against the bound, in --json as is
            within = "float values within the bound" if e.max_value_error <= c.error_bound else \
                f"float values off by up to {bound_text(e.max_value_error)}, beyond the bound"
            lines.append(f"  exact: P = {decimal_digits(p, 30)}... ({len(str(p.denominator))}-digit denominator); "
                         f"{confirmed}; {e.exact_tie_states} exact ties; {within} ({e.seconds:.1f} s)")
        if solution.proof is not None:
            lines.append(f"  exact: {solution.proof!r}")
        return "\n".join(lines)

    def write_solution(self, solution: Any, folder: Path, version: str) -> None:
        """The float table with its proof where the bound proved it (policy only), else the full tables."""
        from ..solver.tables import write_solution
        write_solution(solution, folder, version, policy_only=solution.proof is not None, proof=solution.proof)

    def check_ties(self, solution: Any) -> Any:
        from ..solver.exact import verify_ties
        from ..solver.model import cached_model
        return verify_ties(cached_model(solution.game), solution)

    def win_rate(self, a: Any, b: Any, game: Ruleset, **options: Any) -> Any:
        from ..analysis.evaluate import win_rate
        return win_rate(a, b, game, **options)

    def best_response(self, strategy: Any, game: Ruleset, **options: Any) -> Any:
        from ..analysis.evaluate import best_response
        return best_response(strategy, game, **options)

    def regret(self, strategy: Any, game: Ruleset, **options: Any) -> Any:
        from ..analysis.evaluate import regret
        return regret(strategy, game, **options)

    def simulate(self, a: Any, b: Any, game: Ruleset, games: int = 100_000, seed: Optional[int] = 0, *,
                 progress: Optional[Callable[..., Any]] = None,
                 announce: Optional[Callable[[float], None]] = None, **options: Any) -> Any:
        from ..analysis.montecarlo import simulate
        return simulate(a, b, game, games=games, seed=seed, progress=progress, announce=announce, **options)

    def tournament(self, strategies: Any, game: Any, **options: Any) -> Any:
        """Blocks of opponents in one batched pass, and close calls settled in exact arithmetic."""
        from ..contest.roundrobin import tournament
        return tournament(strategies, game, **options)

    def load_strategy(self, spec: str, game: Any, *, timeout: float = DEFAULT_TIMEOUT,
                      on_output: Optional[Callable[[str, Any], None]] = None, allow_unproven: bool = False,
                      retry_failed: bool = False, memory_mb: int = DEFAULT_MEMORY_MB) -> Any:
        from ..strategy.specs import load_strategy
        return load_strategy(spec, game, timeout=timeout, on_output=on_output, allow_unproven=allow_unproven,
                      retry_failed=retry_failed, memory_mb=memory_mb)

    def optimal(self, game: Ruleset, *, allow_unproven: bool = False) -> Any:
        from ..strategy.optimal_bot import optimal_strategy
        return optimal_strategy(game, allow_unproven=allow_unproven)

    def tabulated(self, game: Ruleset, table: np.ndarray) -> Any:
        from ..strategy.policy import Policy
        return Policy(table, game)

    def session(self, game: Ruleset, bot: Any, you_first: bool, seed: int) -> Any:
        from ..sessions.hog import Session
        return Session(game, bot, you_first, seed)

    def play_in_terminal(self, game: Ruleset, bot: Any, *, you_first: bool, seed: Optional[int],
                         read: Callable[[str], str] = input, write: Callable[[str], None] = print) -> Dict[str, Any]:
        from ..sessions.hog_terminal import play_terminal
        return play_terminal(game, you_first=you_first, seed=seed, read=read, write=write, bot=bot)

    def policy_picture(self, game: Ruleset, bot: Any) -> Tuple[np.ndarray, np.ndarray, str, str]:
        """Dice counts; under Feral Hogs the slice where both memories are 0."""
        start = (0,) * (bot.table.ndim - 2)
        title = f"{game.name} (goal {game.goal}{', both memories 0' if start else ''}" \
                f"{'; NOT PROVEN' if not bot.proven else ''})"
        return bot.table[(...,) + start], bot.win_probability[(...,) + start], title, "optimal number of dice"

    def web_bot(self, game: Ruleset) -> Any:
        return self.optimal(game, allow_unproven=True)  # sp22 plays, with its caveat on the page

    def web_game(self, game_id: str, name: str, seed: int, game: Ruleset, bot: Any, you_first: bool) -> Any:
        from ..sessions.web import HogWebGame
        return HogWebGame(game_id, name, seed, game, bot, you_first)

    def duel(self, game: Ruleset, seed: int) -> Any:
        from ..sessions.duel import HogDuel
        return HogDuel(game, seed)

    def hint(self, game: Ruleset, bot: Any, where: Tuple[int, ...]) -> Dict[str, Any]:
        return {"best": int(bot.table[where]), "values": [finite(v) for v in bot.values_at(where)],
                "proven": bool(getattr(bot, "proven", True))}

    def policy_map(self, name: str, game: Ruleset, bot: Any, memory: Tuple[int, ...]) -> Dict[str, Any]:
        index = (...,) + tuple(memory)
        payload = {"family": self.name, "rules": name, "goal": int(game.goal), "max_dice": int(game.max_dice),
                   "policy": bot.table[index].astype(int).tolist(),
                   "win_probability": [[finite(x) for x in row] for row in bot.win_probability[index]],
                   "proven": bot.proven}
        if game.history is not None:
            payload.update(memory=list(memory), memory_size=int(game.context_shape[0]),
                           memory_kind=game.history.remembers)
        return payload

    def lab_maps(self, game: Ruleset, optimal: Any, table: np.ndarray, expected: np.ndarray,
                 memory: Tuple[int, ...]) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Dice counts, at the chosen memories under Feral Hogs."""
        where = (slice(None), slice(None)) + tuple(memory)
        best = np.asarray(optimal.table)
        return table[where[:table.ndim]], best[where[:best.ndim]], expected[where[:expected.ndim]]

    def lab_state(self, game: Ruleset, optimal: Any, table: np.ndarray, where: Tuple[int, ...]) -> Dict[str, Any]:
        from ..hog.rules import zero_dice_points
        s, o = where[:2]
        values = [finite(v) for v in optimal.values_at(where)]
        rule_lines = []
        if game.min_dice == 0:
            rule_lines.append(f"{game.rule_name('free_bacon')}: rolling 0 dice scores "
                              f"{int(zero_dice_points(game, s, o))}")
        sides = int(game.dice_sides(s, o))
        if sides != 6:
            rule_lines.append(f"{game.rule_name('dice_sides')}: the dice have {sides} sides")
        return {"state": list(where), "actions": [str(n) for n in range(len(values))], "values": values,
                "choice": int(table[where[:table.ndim]]), "best": int(np.asarray(optimal.table)[where]),
                "rules": rule_lines}

    def lab_game(self, game: Ruleset, strategy: Any, optimal: Any, seed: int) -> Dict[str, Any]:
        from ..hog.engine import play
        from ..sessions.hog_terminal import describe_turn
        result = play(strategy, optimal, game, seed=seed)
        names = ("Strategy", "Optimal")
        lines = [f"{describe_turn(t, names[t.mover])}. Strategy "
                 f"{t.new_score if t.mover == 0 else t.new_opponent_score}, "
                 f"Optimal {t.new_opponent_score if t.mover == 0 else t.new_score}" for t in result.turns]
        return {"seed": seed, "winner": names[result.winner].lower(), "scores": list(result.scores), "log": lines}

    def table_of(self, strategy: Any, game: Ruleset) -> np.ndarray:
        from ..strategy.policy import as_policy
        policy = self.load_strategy(strategy, game, allow_unproven=True) if isinstance(strategy, str) \
            else as_policy(strategy, game)
        return policy.table

    def chooser(self, table: np.ndarray, game: Ruleset) -> Callable[[GameState], int]:
        def choose(state: Any) -> int:
            match = state.match
            index = match.state() + game.context_index(match.context())
            return int(table[index[:table.ndim]])
        return choose

    def lane(self, spec: Any, opponent: Any) -> Any:
        from .lanes import HogLane
        return HogLane(spec, opponent)

    def vector_games(self, spec: Any, opponent: Any) -> Any:
        from .vector_games import HogGames
        return HogGames(spec, opponent)
