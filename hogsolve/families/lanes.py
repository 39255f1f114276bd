"""One game of the single-agent environment, played turn by turn as plain Python ints.

A *lane* holds one game against the fixed opponent and knows the moves of one family:
:class:`HogLane` walks the compiled model (:mod:`hogsolve.solver.model`, the rules
compiled once, as the solver and the vector environment read them) and draws a turn's
points exactly by the Monte Carlo sampler's integer alias tables, about a microsecond a
turn; :class:`PigLane` plays the engine's own :class:`~hogsolve.pig.engine.PigMatch`
with one exact integer draw a roll; :class:`StateLane` plays any game through the general
:class:`~hogsolve.games.interface.GameState` interface (Hog with memories, Feral Hogs).
Every lane offers the same calls, so the environment has one code path:
``new(me, rng)``, ``move(action, me, rng) -> legal`` (``play`` then ``advance``), ``winner``,
``seen(me)``, ``mask()``
and ``state`` (a :class:`GameState` of the position, for rendering and inspection).
"""
from __future__ import annotations

import bisect
import random
from typing import Any, List, Optional

import numpy as np

from ..analysis.montecarlo import PointSampler
from ..games.interface import GameState
from ..hog.engine import score_turn
from ..hog.state import HogState
from ..pig.state import HOLD, PigState
from ..solver.model import compile_model
from ..errors import StateError
from .opponents import LiveOpponent, legal_or_nearest, opponent_from, opponent_table, settle_chance
from .base import GameSpec


def below(rng: random.Random, n: int, bits: int) -> int:
    """A uniform integer in ``[0, n)``, ``bits = n.bit_length()``: what ``rng.randrange(n)``
    draws, by the same rejection of ``getrandbits``, without its argument checks."""
    draw = rng.getrandbits(bits)
    while draw >= n:
        draw = rng.getrandbits(bits)
    return draw


class Lane:
    """What every lane offers (see the module docstring); ``move`` is the environment's step.
    Built with ``opponent=None`` a lane has no fixed opponent (two agents take turns: only
    ``new(0, rng)`` and ``play`` are used, as PettingZoo does).  ``mover`` is the player to
    move (0 or 1)."""

    def play(self, action: int, rng: random.Random) -> bool:
        """The mover plays ``action``; False if it was illegal (played as the nearest legal one)."""
        raise NotImplementedError

    def advance(self, me: int, rng: random.Random) -> None:
        """The opponent (and chance) until ``me`` moves or the game ends."""
        raise NotImplementedError

    def move(self, action: int, me: int, rng: random.Random) -> bool:
        """``me`` plays ``action``, then the opponent until ``me`` moves again or the end;
        False if the action was illegal (and played as the nearest legal one)."""
        legal = self.play(action, rng)
        self.advance(me, rng)
        return legal


class HogLane(Lane):
    """A Hog game without memories as a flat state ``score * goal + opponent_score`` of the
    mover, on the compiled model; the final scores come from the engine's ``score_turn``."""

    winner: Optional[int]

    def __init__(self, spec: GameSpec, opponent: Any):
        rules = self.rules = spec.rules
        model = compile_model(rules)
        sampler = PointSampler(model)
        self.goal, self.win, self.num_actions = int(rules.goal), int(model.win), model.num_actions
        self.min_dice = int(rules.min_dice)
        self.kind = model.dice_kind.reshape(-1).tolist()
        self.bacon_row = (sampler.sure + model.free_bacon_points.reshape(-1)).tolist()
        self.bits, self.high = sampler.bits, int(sampler.high)
        self.high_bits = self.high.bit_length()
        self.column_mask = (1 << sampler.bits) - 1
        self.threshold, self.alias = sampler.threshold.tolist(), sampler.alias.tolist()
        self.step_one = model.step_one  # the model's transition of one turn
        self.table = [] if opponent is None else opponent_table(opponent, spec).reshape(-1).tolist()
        mask = np.ones(spec.num_actions, dtype=np.int8)
        mask[:self.min_dice] = 0
        self._mask = mask
        self.position, self.mover, self.winner = 0, 0, None
        self.final: Optional[List[int]] = None

    def new(self, me: int, rng: random.Random) -> None:
        """A new game at 0-0, player 0 to move; the opponent plays until ``me`` moves."""
        self.position, self.mover, self.winner, self.final = 0, 0, None, None
        self._opponent(me, rng)

    def play(self, action: int, rng: random.Random) -> bool:
        """The mover rolls ``action`` dice (below the least, the least); False if illegal."""
        legal = action >= self.min_dice
        self._turn(action if legal else self.min_dice, rng)
        return legal

    def advance(self, me: int, rng: random.Random) -> None:
        """The opponent's turns until ``me`` moves or the game ends."""
        self._opponent(me, rng)

    def _opponent(self, me: int, rng: random.Random) -> None:
        while self.winner is None and self.mover != me:
            self._turn(self.table[self.position], rng)

    def _turn(self, dice: int, rng: random.Random) -> None:
        self.land(dice, self.draw(dice, rng))

    def draw(self, dice: int, rng: random.Random) -> int:
        """The points of ``dice`` dice here, drawn exactly: one integer picks a column of the
        row's alias table (its low bits) and a unit in it (the rest)."""
        position = self.position
        row = self.kind[position] * self.num_actions + dice if dice > 0 else self.bacon_row[position]
        draw = below(rng, self.high, self.high_bits)
        column = draw & self.column_mask
        cell = (row << self.bits) | column
        return column if (draw >> self.bits) < self.threshold[cell] else self.alias[cell]

    def land(self, dice: int, points: int) -> None:
        """The mover's turn of ``dice`` dice scored ``points``: the model's next position (the
        bonus rules, Piggy Back, swaps and extra turns), or the end with the engine's scores."""
        position, goal = self.position, self.goal
        new, again = self.step_one(position, dice, points)
        if new >= self.win:
            turn = score_turn(self.rules, self.mover, position // goal, position % goal, dice, points)
            mine, theirs = turn.new_score, turn.new_opponent_score
            self.final = [mine, theirs] if self.mover == 0 else [theirs, mine]
            self.winner = self.mover if new == self.win else 1 - self.mover
            return
        if not again:
            self.mover = 1 - self.mover
        self.position = new

    def place(self, score0: int, score1: int, mover: int) -> None:
        """Set the position (scores below the goal) with ``mover`` to move."""
        mine, theirs = (score0, score1) if mover == 0 else (score1, score0)
        self.position, self.mover, self.winner, self.final = mine * self.goal + theirs, mover, None, None

    def scores(self) -> List[int]:
        """Player 0's and player 1's score."""
        if self.final is not None:
            return list(self.final)
        mine, theirs = divmod(self.position, self.goal)
        return [mine, theirs] if self.mover == 0 else [theirs, mine]

    def seen(self, me: int) -> List[int]:
        """``me``'s score and the opponent's."""
        scores = self.scores()
        return [scores[me], scores[1 - me]]

    def mask(self) -> np.ndarray:
        """The legal dice counts (a fresh array)."""
        return self._mask.copy()

    @property
    def state(self) -> GameState:
        """The position as a :class:`~hogsolve.hog.state.HogState` (scores and mover)."""
        score0, score1 = self.scores()
        return HogState(self.rules, score0, score1, self.mover)


class PigLane(Lane):
    """A roll-or-hold game: the engine's :class:`~hogsolve.pig.engine.PigMatch` (its goal rule),
    a roll drawn exactly by one uniform integer below the outcomes' common denominator,
    looked up in a list of the outcome of every such integer; the match's log is kept only
    if ``keep_log``."""

    def __init__(self, spec: GameSpec, opponent: Any, keep_log: bool = False):
        self.spec, self.keep_log = spec, keep_log
        self.state: PigState = PigState(spec.rules, keep_log=keep_log)
        self.match = self.state.match
        chance = self.state.chance_table()
        self.cumulative, self.denominator = chance.cumulative, chance.denominator
        self.bits = self.denominator.bit_length()
        self.outcomes = [outcome for outcome, _ in self.state.outcomes]
        self.by_draw: Optional[List[Optional[tuple]]] = None if self.bits > 16 else [
            self.outcomes[bisect.bisect_right(self.cumulative, draw)] if draw < self.denominator else None
            for draw in range(1 << self.bits)]  # None: at or above the denominator, drawn again
        self.roll_table = [] if opponent is None else opponent_table(opponent, spec).tolist()  # [i][j][k] True: roll
        self._masks = (np.array([1, 0], dtype=np.int8), np.array([1, 1], dtype=np.int8))

    @property
    def winner(self) -> Optional[int]:
        """0 or 1 once the game is over, else None."""
        return self.match.winner

    @property
    def mover(self) -> int:
        """The player to move (0 or 1)."""
        return int(self.match.mover)

    def new(self, me: int, rng: random.Random) -> None:
        """A new game, player 0 to move; the opponent plays until ``me`` moves."""
        self.state = PigState(self.spec.rules, keep_log=self.keep_log)
        self.match = self.state.match
        self.advance(me, rng)

    def play(self, action: int, rng: random.Random) -> bool:
        """Roll (0) or hold (1); a hold with nothing to bank is a roll (False: illegal)."""
        match = self.match
        if action == HOLD and match.turn_total > 0:
            match.hold()
            return True
        match.apply_outcome(*self.roll(rng))
        return action != HOLD

    def move(self, action: int, me: int, rng: random.Random) -> bool:
        """:meth:`play` then :meth:`advance`, in one call (the single env's step)."""
        match = self.match
        if action == HOLD and match.turn_total > 0:
            match.hold()
            legal = True
        else:
            match.apply_outcome(*self.roll(rng))
            legal = action != HOLD
        if match.winner is None and match.mover != me:
            self.advance(me, rng)
        return legal

    def roll(self, rng: random.Random) -> tuple:
        """One roll's ``(kind, amount)``, by its exact probability (as ``randrange`` draws): a
        draw at or above the denominator (None in the list) is drawn again."""
        by_draw = self.by_draw
        if by_draw is None:  # a game of many outcomes: no list of every draw
            return self.outcomes[bisect.bisect_right(self.cumulative, below(rng, self.denominator, self.bits))]
        return by_draw[rng.getrandbits(self.bits)] or self.roll(rng)

    def advance(self, me: int, rng: random.Random) -> None:
        """The opponent's moves until ``me`` moves or the game ends (the environment's hot path:
        the opponent's rule and the roll read without a call to :meth:`play`)."""
        match, table, roll, scores = self.match, self.roll_table, self.roll, self.match.scores
        by_draw, bits, getrandbits = self.by_draw, self.bits, rng.getrandbits
        while match.mover != me and match.winner is None:
            total, mover = match.turn_total, match.mover
            if total and not table[scores[mover]][scores[1 - mover]][total]:
                match.hold()
            else:  # roll's own draw, inlined where the game has its list
                match.apply_outcome(*(by_draw[getrandbits(bits)] or roll(rng) if by_draw is not None else roll(rng)))

    def seen(self, me: int) -> List[int]:
        """``me``'s banked score, the opponent's, and ``me``'s turn total (0 off turn)."""
        match = self.match
        return [match.scores[me], match.scores[1 - me], match.turn_total if match.mover == me else 0]

    def mask(self) -> np.ndarray:
        """Roll always, hold once the turn total is positive (a fresh array)."""
        return self._masks[self.match.turn_total > 0].copy()


class StateLane(Lane):
    """Any game through :class:`GameState` (Hog with memories): slower, but general."""

    def __init__(self, spec: GameSpec, opponent: Any):
        self.spec = spec
        self.opponent = None if opponent is None else opponent_from(opponent, spec)
        self.state: GameState = spec.new_state(first=0)

    @property
    def mover(self) -> int:
        """The player to move (0 or 1; chance is settled after every move)."""
        return int(self.state.current_player)

    @property
    def winner(self) -> Optional[int]:
        """0 or 1 once the game is over, else None."""
        if not self.state.is_terminal():
            return None
        return 0 if self.state.returns()[0] > 0 else 1

    def new(self, me: int, rng: random.Random) -> None:
        """A new game, player 0 to move; the opponent plays until ``me`` moves."""
        self.state = self.spec.new_state(first=0)
        self.advance(me, rng)

    def play(self, action: int, rng: random.Random) -> bool:
        """The mover's action (an illegal one as the nearest legal one); False if illegal."""
        played, legal = legal_or_nearest(self.state, action)
        self.state.apply_action(played)
        settle_chance(self.state, rng)
        return legal

    def advance(self, me: int, rng: random.Random) -> None:
        """Chance and the opponent until ``me`` moves or the game ends."""
        while True:
            settle_chance(self.state, rng)
            if self.state.is_terminal() or self.state.current_player == me:
                return
            if self.opponent is None:
                raise StateError("this lane has no fixed opponent (two agents take turns): play each move")
            self.state.apply_action(self.opponent(self.state))

    def seen(self, me: int) -> List[int]:
        """What ``me`` sees, as :meth:`GameSpec.observe` (memories included)."""
        return self.spec.observe(self.state, me).tolist()

    def mask(self) -> np.ndarray:
        """The legal actions of the player to move."""
        return self.spec.legal(self.state)


def lane_for(spec: GameSpec, opponent: Any):
    """The fastest lane that plays ``spec``: Hog's compiled model, the Pig engine, or the
    general state (Hog with memories); ``opponent=None``: two agents, no fixed opponent."""
    fast = None
    if not spec.memories and not isinstance(opponent, LiveOpponent):  # a live opponent is asked at each state
        fast = spec.family.lane(spec, opponent)
    return fast if fast is not None else StateLane(spec, opponent)
