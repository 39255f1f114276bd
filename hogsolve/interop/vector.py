"""A natively vectorized Gymnasium environment: N games of one seat against a fixed opponent,
advanced together as numpy arrays.

``HogsolveVectorEnv(num_envs, rules=... | game=..., goal=..., opponent=..., seat=...)`` is a
:class:`gymnasium.vector.VectorEnv` with the single environment's observation, action, mask
and reward (:mod:`hogsolve.interop.gymnasium`), its goal rule and its episodes: a game the
opponent wins before the agent's first move is one forced step ending with -1
(``info["game_over"]``).  Finished games are dealt again in the same step
(``AutoresetMode.SAME_STEP``): the step returns the new game's first observation, and the
finished one's is in ``info["final_obs"]`` where ``info["_final_obs"]`` is True (in Hog,
the position before the winning turn: the compiled model's states end at the goal).

Chance is drawn exactly: a roll-or-hold roll by the game's exact outcome weights, a Hog turn
by the integer alias tables of :class:`hogsolve.analysis.montecarlo.PointSampler` (one
uniform integer per turn).  Hog rulesets with memories (Feral Hogs) keep both players'
memories beside the scores, as the Monte Carlo simulation does, and observe them as the
single environment does: ``[score, opponent_score, memory, opponent_memory]``, each memory
as its table index.
"""
from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from .core import env_game, whole_actions
from ..errors import InputError, StateError

SEATS = ("first", "second", "random")


class HogsolveVectorEnv(gymnasium.vector.VectorEnv):
    """N games of one hogsolve game, one seat each against a fixed opponent (module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, num_envs: int = 1024, rules: Any = None, game: Optional[str] = None,
                 goal: Optional[int] = None, opponent: Any = "optimal", seat: str = "first",
                 family: Optional[str] = None, max_episode_steps: Optional[int] = None):
        if seat not in SEATS:
            raise InputError(f"seat must be first, second or random, not {seat!r}")
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise InputError(f"num_envs must be a positive int, got {num_envs!r}")
        self.spec_game = env_game(rules, game, goal, family, "hogsolve's vector environment")
        self.max_episode_steps = max_episode_steps  # as gymnasium.make_vec passes it: truncation
        self.num_envs, self.seat = num_envs, seat
        self.engine = self.spec_game.family.vector_games(self.spec_game, opponent)
        n = self.spec_game.num_actions
        self.single_observation_space = spaces.Box(0, self.spec_game.highs, dtype=np.int64)
        self.single_action_space = spaces.Discrete(n)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self.rng = np.random.default_rng()
        self.me = np.zeros(num_envs, dtype=np.int64)
        self.lost_unplayed = np.zeros(num_envs, dtype=bool)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        """N new games; ``seed`` fixes every seat and roll after it."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self.engine.start(self.num_envs)
        self.steps = np.zeros(self.num_envs, dtype=np.int64)
        self._deal(np.arange(self.num_envs))
        return self._observe(np.zeros(self.num_envs, dtype=bool))

    def step(self, actions) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        """Every game's agent plays its action (an illegal one as the nearest legal one), then
        chance and the opponent until the agent's next turn or the end."""
        if not self.engine.started:
            raise StateError("call reset() before step()")
        actions = whole_actions(actions, self.spec_game.num_actions, self.num_envs)  # never 3.7 played as 3
        playing = ~self.lost_unplayed
        rows = np.flatnonzero(playing)
        illegal = np.zeros(self.num_envs, dtype=bool)
        illegal[rows] = self.engine.play(rows, actions[rows], self.rng)
        self.engine.opponent_until_agent(rows, self.me, self.rng)
        done = self.engine.over() | self.lost_unplayed
        rewards = np.where(done, np.where(self.engine.winner == self.me, 1.0, -1.0), 0.0)
        self.steps += 1
        truncated = ~done & (self.steps >= self.max_episode_steps) if self.max_episode_steps else \
            np.zeros(self.num_envs, dtype=bool)
        final_obs = np.minimum(self.engine.observe(self.me), self.spec_game.highs) \
            if (done | truncated).any() else None
        ended = np.flatnonzero(done | truncated)
        self.steps[ended] = 0
        me, winners = self.me.copy(), self.engine.winner.copy()  # before the ended games are dealt again
        if ended.size:
            self._deal(ended)
        observation, info = self._observe(illegal)
        if ended.size:  # Gymnasium's same-step autoreset: the ended games' last observation and info
            over = done | truncated
            info["final_obs"], info["_final_obs"] = final_obs, over
            info["final_info"] = {"won": done & (winners == me), "_won": over.copy()}
            info["_final_info"] = over.copy()
        return observation, rewards, done, truncated, info

    def _deal(self, rows: np.ndarray) -> None:
        """New games at ``rows``: seats drawn, the opponent's opening moves made."""
        seat = {"first": 0, "second": 1}.get(self.seat)
        self.me[rows] = seat if seat is not None else self.rng.integers(0, 2, size=rows.size)
        self.engine.new_games(rows)
        self.engine.opponent_until_agent(rows, self.me, self.rng)
        self.lost_unplayed[rows] = self.engine.over()[rows]

    def _observe(self, illegal: np.ndarray):
        mask = self.engine.masks()
        mask[self.lost_unplayed] = 1
        info = {"action_mask": mask, "illegal": illegal, "game_over": self.lost_unplayed.copy()}
        return np.minimum(self.engine.observe(self.me), self.spec_game.highs), info
