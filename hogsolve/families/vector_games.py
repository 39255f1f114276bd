"""N games of one family as numpy arrays, advanced together: what the vector environment
(:mod:`hogsolve.interop.vector`) steps.  Each family's :meth:`~hogsolve.families.GameFamily.vector_games`
gives its class: :class:`HogGames` (the compiled model, memories beside the scores under Feral
Hogs) or :class:`RollOrHoldGames`."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..analysis.montecarlo import PointSampler
from ..errors import InputError
from ..pig.state import PigState
from ..solver.model import compile_model
from .opponents import opponent_table
from .base import GameSpec


class VectorGames:
    """What N games of any family keep: whose turn it is and who won (-1: not over), and the
    opponent's moves until the agent's turn; a family adds its position and its moves."""

    started = False

    def start(self, n: int) -> None:
        """Arrays for ``n`` games (call before the first deal)."""
        self.mover = np.zeros(n, dtype=np.int64)
        self.winner = np.full(n, -1, dtype=np.int64)
        self.started = True

    def new_games(self, rows: np.ndarray) -> None:
        """Deal new games at ``rows``: 0-0, player 0 to move."""
        self.mover[rows] = 0
        self.winner[rows] = -1

    def over(self) -> np.ndarray:
        """True where a game has a winner."""
        return self.winner >= 0

    def opponent_until_agent(self, rows: np.ndarray, me: np.ndarray, rng: np.random.Generator) -> None:
        """The opponent plays the games at ``rows`` until it is the agent's turn or the end."""
        while True:
            rows = rows[(self.winner[rows] < 0) & (self.mover[rows] != me[rows])]
            if not rows.size:
                return
            self.play(rows, self.opponent_actions(rows), rng)

    def play(self, rows: np.ndarray, actions: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The movers at ``rows`` play ``actions``; True where one was illegal (played as the nearest legal one)."""
        raise NotImplementedError

    def opponent_actions(self, rows: np.ndarray) -> np.ndarray:
        """The fixed opponent's action in each game at ``rows``."""
        raise NotImplementedError

    def observe(self, me: np.ndarray) -> np.ndarray:
        """What each game's agent (seat ``me``) sees."""
        raise NotImplementedError

    def masks(self) -> np.ndarray:
        """Each game's legal actions (int8, 1 where legal)."""
        raise NotImplementedError


class RollOrHoldGames(VectorGames):
    """N roll-or-hold games as arrays: banked scores and the turn total besides."""

    def __init__(self, spec: GameSpec, opponent: Any):
        game = spec.rules
        self.goal = game.goal
        chance = PigState(game).chance_table()  # the exact integer weights of one roll's outcomes
        self.denominator, self.cumulative = chance.denominator, np.array(chance.cumulative)
        outcomes = [outcome for outcome, _ in PigState(game).outcomes]
        self.adds = np.array([x if kind == "add" else 0 for kind, x in outcomes], dtype=np.int64)
        self.busts = np.array([kind in ("bust", "wipe") for kind, _ in outcomes])
        self.wipes = np.array([kind == "wipe" for kind, _ in outcomes])
        self.any_wipes = bool(self.wipes.any())
        self.table = opponent_table(opponent, spec)  # [i, j, k] True: roll, k below twice the goal

    def start(self, n: int) -> None:
        """Arrays for ``n`` games (call before the first deal)."""
        super().start(n)
        self.scores = np.zeros((n, 2), dtype=np.int64)
        self.total = np.zeros(n, dtype=np.int64)

    def new_games(self, rows: np.ndarray) -> None:
        """Deal new games at ``rows``: 0-0, player 0 to move."""
        super().new_games(rows)
        self.scores[rows] = 0
        self.total[rows] = 0

    def play(self, rows: np.ndarray, actions: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The movers at ``rows`` roll (0) or hold (1); a hold with nothing to bank is a roll.
        Returns where the action was illegal.  (Empty sets of rows are skipped: at a few hundred
        games the fixed cost of each numpy call is most of a step.)"""
        asks = actions == 1
        totals = self.total[rows]
        illegal = asks & (totals == 0)
        hold = asks & ~illegal
        if hold.any():
            self._hold(rows[hold])
            rows = rows[~hold]
        if rows.size:
            self._roll(rows, rng)
        return illegal

    def _hold(self, rows: np.ndarray) -> None:
        mover = self.mover[rows]
        banked = self.scores[rows, mover] + self.total[rows]
        self.scores[rows, mover] = banked
        self.total[rows] = 0
        won = banked >= self.goal
        if won.any():
            self.winner[rows[won]] = mover[won]
            self.mover[rows[~won]] = 1 - mover[~won]
        else:
            self.mover[rows] = 1 - mover

    def _roll(self, rows: np.ndarray, rng: np.random.Generator) -> None:
        pick = np.searchsorted(self.cumulative, rng.integers(0, self.denominator, size=rows.size), side="right")
        mover = self.mover[rows]
        bust = self.busts[pick]
        if self.any_wipes:
            wipe = self.wipes[pick]
            self.scores[rows[wipe], mover[wipe]] = 0
        total = np.where(bust, 0, self.total[rows] + self.adds[pick])
        self.total[rows] = total
        if bust.any():
            self.mover[rows[bust]] = 1 - mover[bust]
        reached = ~bust & (self.scores[rows, mover] + total >= self.goal)  # the goal rule
        if reached.any():
            self._hold(rows[reached])

    def opponent_until_agent(self, rows: np.ndarray, me: np.ndarray, rng: np.random.Generator) -> None:
        """The opponent's whole turn in the games at ``rows`` where it moves, on local arrays
        written back once: the same rolls, drawn in the same order, as one :meth:`play` a roll
        (a turn always passes to the other player here, so one turn reaches the agent)."""
        rows = rows[(self.winner[rows] < 0) & (self.mover[rows] != me[rows])]
        if not rows.size:
            return
        mover = self.mover[rows]
        i, j, k = self.scores[rows, mover], self.scores[rows, 1 - mover], self.total[rows]
        live = np.arange(rows.size)  # positions in rows still in the opponent's turn
        goal, table = self.goal, self.table
        while live.size:
            kl = k[live]
            rolls = table[i[live], j[live], kl] | (kl == 0)
            if not rolls.all():  # a hold banks the turn (never the goal: that is banked on the roll)
                held = live[~rolls]
                i[held] += k[held]
                k[held] = 0
                live = live[rolls]
                if not live.size:
                    break
            pick = np.searchsorted(self.cumulative, rng.integers(0, self.denominator, size=live.size), side="right")
            bust = self.busts[pick]
            if self.any_wipes:
                i[live[self.wipes[pick]]] = 0
            k[live] = np.where(bust, 0, k[live] + self.adds[pick])
            going = live[~bust]
            reached = i[going] + k[going] >= goal  # the goal rule: banked at once, and won
            if reached.any():
                won = going[reached]
                i[won] += k[won]
                k[won] = 0
                going = going[~reached]
            live = going
        self.scores[rows, mover], self.total[rows] = i, k
        won = i >= goal
        self.winner[rows[won]] = mover[won]
        self.mover[rows[~won]] = 1 - mover[~won]

    def opponent_actions(self, rows: np.ndarray) -> np.ndarray:
        """The fixed opponent's action in each game at ``rows``."""
        mover = self.mover[rows]
        i, j, k = self.scores[rows, mover], self.scores[rows, 1 - mover], self.total[rows]
        return np.where(self.table[i, j, k] | (k == 0), 0, 1)

    def observe(self, me: np.ndarray) -> np.ndarray:
        """What each game's agent (seat ``me``) sees."""
        n = len(me)
        mine, theirs = self.scores[np.arange(n), me], self.scores[np.arange(n), 1 - me]
        total = np.where(self.mover == me, self.total, 0)
        return np.stack([mine, theirs, total], axis=1)

    def masks(self) -> np.ndarray:
        """Each game's legal actions (int8, 1 where legal)."""
        mask = np.ones((len(self.total), 2), dtype=np.int8)
        mask[:, 1] = self.total > 0
        return mask


class HogGames(VectorGames):
    """N Hog games as flat state indices (the mover's score and the opponent's), as the
    compiled model and the Monte Carlo sampler see them; under a history rule (Feral Hogs)
    the mover's memory and the opponent's besides, as table indices."""

    def __init__(self, spec: GameSpec, opponent: Any):
        rules = spec.rules
        self.model = compile_model(rules)
        self.sampler = PointSampler(self.model)
        self.table = opponent_table(opponent, spec).reshape(-1).astype(np.int64)
        self.min_dice, self.num_actions, self.goal = int(rules.min_dice), spec.num_actions, rules.goal
        self.rule, self.max_dice = rules.history, int(rules.max_dice)
        self.memory_size = self.model.context_shape[0] if self.rule is not None else 1
        if self.rule is not None and self.model.points_landing is not None:
            raise InputError(f"{rules.name}: memories with point-dependent landings are not served by the "
                             "vector environment; use hogsolve/Hog-v0")

    def start(self, n: int) -> None:
        """Arrays for ``n`` games (call before the first deal)."""
        super().start(n)
        self.state = np.zeros(n, dtype=np.int64)   # flat (mover's score, opponent's score)
        self.mine = np.zeros(n, dtype=np.int64)    # the mover's memory (index), 0 before a first turn
        self.theirs = np.zeros(n, dtype=np.int64)  # the opponent's

    def new_games(self, rows: np.ndarray) -> None:
        """Deal new games at ``rows``: 0-0, player 0 to move."""
        super().new_games(rows)
        self.state[rows] = 0
        self.mine[rows] = 0
        self.theirs[rows] = 0

    def play(self, rows: np.ndarray, actions: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The movers at ``rows`` roll ``actions`` dice (below the least, the least)."""
        illegal = actions < self.min_dice
        actions = np.maximum(actions, self.min_dice)
        model, state = self.model, self.state[rows]
        points = self.sampler.sample(self.sampler.row_of(state, actions), rng)
        extra = 0 if self.rule is None else np.asarray(self.rule.points(actions, self.mine[rows]))
        new, moves_again = model.step(state, points, actions, extra)
        mover = self.mover[rows]
        ended = new >= model.win
        self.winner[rows[ended]] = np.where(new[ended] == model.win, mover[ended], 1 - mover[ended])
        again = np.zeros(len(rows), dtype=bool) if moves_again is None else moves_again
        self.mover[rows] = np.where(again, mover, 1 - mover)
        self.state[rows] = np.where(ended, state, new)  # a finished game keeps its last position
        if self.rule is not None:  # the mover remembers this turn; the next mover's memory comes first
            mine, theirs = self.mine[rows], self.theirs[rows]
            now = np.asarray(self.rule.memory(actions, points, self.max_dice))
            kept = ended | again
            self.mine[rows] = np.where(ended, mine, np.where(again, now, theirs))
            self.theirs[rows] = np.where(kept, theirs, now)
        return illegal

    def opponent_actions(self, rows: np.ndarray) -> np.ndarray:
        """The fixed opponent's action in each game at ``rows``."""
        cell = self.state[rows]
        if self.rule is not None:
            cell = (cell * self.memory_size + self.mine[rows]) * self.memory_size + self.theirs[rows]
        return self.table[cell]

    def observe(self, me: np.ndarray) -> np.ndarray:
        """What each game's agent (seat ``me``) sees."""
        s, o = np.divmod(self.state, self.goal)
        moving = self.mover == me
        seen = [np.where(moving, s, o), np.where(moving, o, s)]
        if self.rule is not None:
            seen += [np.where(moving, self.mine, self.theirs), np.where(moving, self.theirs, self.mine)]
        return np.stack(seen, axis=1)

    def masks(self) -> np.ndarray:
        """Each game's legal actions (int8, 1 where legal)."""
        mask = np.ones((len(self.state), self.num_actions), dtype=np.int8)
        mask[:, :self.min_dice] = 0
        return mask
