"""Gymnasium environments: one agent against a fixed opponent, in any hogsolve game.

``import hogsolve.interop.gymnasium`` registers ``hogsolve/Hog-v0`` (keyword
``rules``: any built-in ruleset or semester) and ``hogsolve/Pig-v0`` (``game``:
pig, piglet, two-dice-pig, big-pig); both take ``goal``, ``opponent`` (a
strategy spec as the command line takes it, default ``optimal``) and ``seat``
(``first``, ``second`` or ``random``).  The observation is what the agent's seat
sees (:mod:`hogsolve.interop.core`), ``info["action_mask"]`` marks the legal
actions (with ``mask_in_observation=True`` the observation is a dict of both, as
PettingZoo's), the reward is +1 or -1 at the end, and ``reset(seed=...)`` seeds the
dice (drawn with their exact probabilities) and the seat; a ``reset()`` without a seed goes on
with the same dice.  An action outside the action
space is a ValueError; a legal-looking but illegal one (zero dice in Neller's Hog, a hold
with nothing to bank) is played as the nearest legal one.  ``gymnasium.make`` truncates
an episode at :data:`MAX_EPISODE_STEPS` steps.

Every game dealt is an episode, so the mean return estimates the agent's win
rate (``evaluate_agent``'s figure): when the game ends before the agent's first
decision (the opponent, moving first, wins; or in Hog its swap hands the agent the
goal), ``reset`` returns the final position with ``info["game_over"] = True`` and
every action allowed, and the next ``step`` (whatever the action) ends the episode
with the result: -1, or +1 for a game won unplayed.

Each game is played by a *lane* (:mod:`hogsolve.families.lanes`): Hog on its compiled
model, the Pig games on their engine, Hog with memories through the general state
interface; ``env.state`` shows the position as a ``GameState`` and ``env.winner`` the
winner.
"""
from __future__ import annotations

import random
from typing import Optional

import gymnasium
import numpy as np
from gymnasium import spaces

from ..games.interface import GameState
from ..families import FAMILIES
from .core import env_game, whole_action
from ..families.lanes import lane_for
from ..errors import InputError, StateError


class HogsolveEnv(gymnasium.Env):
    """One seat of a two-player hogsolve game against a fixed opponent (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, rules=None, game: Optional[str] = None, goal: Optional[int] = None, opponent="optimal",
                 seat: str = "first", render_mode: Optional[str] = None, mask_in_observation: bool = False,
                 family: Optional[str] = None):
        if seat not in ("first", "second", "random"):
            raise InputError(f"seat must be first, second or random, not {seat!r}")
        if render_mode not in (None, "ansi"):
            raise InputError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.spec_game = env_game(rules, game, goal, family, "HogsolveEnv")
        self.reset_once = False
        self.seat_choice, self.render_mode = seat, render_mode
        self.mask_in_observation = mask_in_observation
        board = spaces.Box(0, self.spec_game.highs, dtype=np.int64)
        self.observation_space = spaces.Dict({"observation": board, "action_mask": spaces.Box(
            0, 1, (self.spec_game.num_actions,), dtype=np.int8)}) if mask_in_observation else board
        self.action_space = spaces.Discrete(self.spec_game.num_actions)
        self.num_actions = self.spec_game.num_actions
        self.lane = lane_for(self.spec_game, opponent)
        self.highs = [int(high) for high in self.spec_game.highs]
        self.playing = False
        self.me = 0
        self.ended_before_moving = False
        self.rng: Optional[random.Random] = None

    @property
    def state(self) -> GameState:
        """The game's position as a :class:`~hogsolve.games.interface.GameState`."""
        return self.lane.state

    @property
    def winner(self) -> Optional[int]:
        """0 or 1 once the game is over, else None."""
        return self.lane.winner

    def _observe(self, mask: np.ndarray, winner: Optional[int]):
        seen = self.lane.seen(self.me)
        if winner is not None:  # a final score may pass the goal
            seen = [min(value, high) for value, high in zip(seen, self.highs)]
        board = np.array(seen, dtype=np.int64)
        observation = {"observation": board, "action_mask": mask} if self.mask_in_observation else board
        return observation, {"action_mask": mask}

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        """A new game; the seed (if any) fixes the seat drawn and every roll after it.  A game
        the opponent won before the agent's first move is still this episode (module doc)."""
        super().reset(seed=seed)
        self.reset_once = True
        if seed is not None or self.rng is None:  # else the dice go on from the previous game
            self.rng = random.Random(int(self.np_random.integers(2 ** 63)))
        self.me = {"first": 0, "second": 1}.get(self.seat_choice, self.rng.randrange(2))
        self.lane.new(self.me, self.rng)
        winner = self.lane.winner
        self.ended_before_moving = winner is not None
        self.playing = not self.ended_before_moving
        if self.ended_before_moving:
            observation, info = self._observe(np.ones(self.spec_game.num_actions, dtype=np.int8), winner)
            info["game_over"] = True
            return observation, info
        return self._observe(self.lane.mask(), None)

    def step(self, action):
        """The agent's move (an illegal one is played as the nearest legal one, and
        ``info["illegal"]`` says so), then chance and the opponent until its next turn."""
        if not self.playing:
            if not self.reset_once:
                raise StateError("call reset() before the first step()")
            if not self.ended_before_moving:
                raise StateError("call reset() before step() (the game is over)")
            self.ended_before_moving = False  # the forced step of a game over before the agent moved
            winner = self.lane.winner
            observation, info = self._observe(self.lane.mask(), winner)
            info["illegal"] = False
            return observation, 1.0 if winner == self.me else -1.0, True, False, info
        lane, me = self.lane, self.me
        legal = lane.move(whole_action(action, self.num_actions), me, self.rng)
        winner = lane.winner
        observation, info = self._observe(lane.mask(), winner)
        info["illegal"] = not legal
        if winner is None:
            return observation, 0.0, False, False, info
        self.playing = False
        return observation, 1.0 if winner == me else -1.0, True, False, info

    def render(self):
        """The state in words (render_mode "ansi")."""
        return str(self.state) if self.render_mode == "ansi" else None


#: Steps before an episode is truncated (a game of two sensible players takes a few dozen).
MAX_EPISODE_STEPS = 10_000

# ``gymnasium.make_vec(id, num_envs=N)`` builds hogsolve's own vector environment (numpy arrays,
# no N copies of the single one): :class:`hogsolve.interop.vector.HogsolveVectorEnv`.
for _family in FAMILIES.values():
    gymnasium.register(id=_family.env_id, entry_point="hogsolve.interop.gymnasium:HogsolveEnv",
                       kwargs={"family": _family.name}, max_episode_steps=MAX_EPISODE_STEPS,
                       vector_entry_point="hogsolve.interop.vector:HogsolveVectorEnv")
