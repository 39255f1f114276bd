"""Gymnasium environments: one agent against a fixed opponent, in any hogsolve game.

``import hogsolve.interop.gymnasium`` registers ``hogsolve/Hog-v0`` (keyword
``rules``: any built-in ruleset or semester) and ``hogsolve/Pig-v0`` (``game``:
pig, piglet, two-dice-pig, big-pig); both take ``goal``, ``opponent`` (a
strategy spec as the command line takes it, default ``optimal``) and ``seat``
(``first``, ``second`` or ``random``).  The observation is what the agent's seat
sees (:mod:`hogsolve.interop.core`), ``info["action_mask"]`` marks the legal
actions (with ``mask_in_observation=True`` the observation is a dict of both, as
PettingZoo's), the reward is +1 or -1 at the end, and ``reset(seed=...)`` seeds the
dice (drawn with their exact probabilities) and the seat.  An action outside the action
space is a ValueError; a legal-looking but illegal one (zero dice in Neller's Hog, a hold
with nothing to bank) is played as the nearest legal one.  ``gymnasium.make`` truncates
an episode at :data:`MAX_EPISODE_STEPS` steps.

Every game dealt is an episode, so the mean return estimates the agent's win
rate (``evaluate_agent``'s figure): when the opponent, moving first, wins
before the agent's first decision, ``reset`` returns the final position with
``info["game_over"] = True`` and every action allowed, and the next ``step``
(whatever the action) ends the episode with reward -1.
"""
from __future__ import annotations

import random
from typing import Optional

import gymnasium
import numpy as np
from gymnasium import spaces

from .core import GameSpec
from .opponents import legal_or_nearest, opponent_from, settle_chance


class HogsolveEnv(gymnasium.Env):
    """One seat of a two-player hogsolve game against a fixed opponent (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, rules=None, game: Optional[str] = None, goal: Optional[int] = None, opponent="optimal",
                 seat: str = "first", render_mode: Optional[str] = None, mask_in_observation: bool = False):
        if seat not in ("first", "second", "random"):
            raise ValueError(f"seat must be first, second or random, not {seat!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        name = rules if rules is not None else (game or "su18")
        self.spec_game = GameSpec.of(name, goal) if isinstance(name, str) else GameSpec.of(goal=goal, rules=name)
        self.opponent = opponent_from(opponent, self.spec_game)
        self.seat_choice, self.render_mode = seat, render_mode
        self.mask_in_observation = mask_in_observation
        board = spaces.Box(0, self.spec_game.highs, dtype=np.int64)
        self.observation_space = spaces.Dict({"observation": board, "action_mask": spaces.Box(
            0, 1, (self.spec_game.num_actions,), dtype=np.int8)}) if mask_in_observation else board
        self.action_space = spaces.Discrete(self.spec_game.num_actions)
        self.state = None
        self.me = 0
        self.lost_before_moving = False
        self.rng = random.Random(0)

    def _advance(self) -> None:
        """Chance and the opponent play until it is the agent's turn or the game is over."""
        while True:
            settle_chance(self.state, self.rng)
            if self.state.is_terminal() or self.state.current_player == self.me:
                return
            self.state.apply_action(self.opponent(self.state))

    def _observe(self, mask: Optional[np.ndarray] = None):
        mask = self.spec_game.legal(self.state) if mask is None else mask
        board = self.spec_game.observe(self.state, self.me)
        observation = {"observation": board, "action_mask": mask} if self.mask_in_observation else board
        return observation, {"action_mask": mask}

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        """A new game; the seed (if any) fixes the seat drawn and every roll after it.  A game
        the opponent won before the agent's first move is still this episode (module doc)."""
        super().reset(seed=seed)
        self.rng = random.Random(int(self.np_random.integers(2 ** 63)))
        self.me = {"first": 0, "second": 1}.get(self.seat_choice, self.rng.randrange(2))
        self.state = self.spec_game.new_state(first=0)
        self._advance()
        self.lost_before_moving = self.state.is_terminal()
        if self.lost_before_moving:
            observation, info = self._observe(np.ones(self.spec_game.num_actions, dtype=np.int8))
            info["game_over"] = True
            return observation, info
        return self._observe()

    def step(self, action):
        """The agent's move (an illegal one is played as the nearest legal one, and
        ``info["illegal"]`` says so), then chance and the opponent until its next turn."""
        if self.state is not None and self.lost_before_moving:  # the forced step of a game lost unplayed
            self.lost_before_moving = False
            observation, info = self._observe()
            info["illegal"] = False
            return observation, float(self.state.returns()[self.me]), True, False, info
        if self.state is None or self.state.is_terminal():
            raise RuntimeError("call reset() before step() (the game is over)")
        if not self.action_space.contains(np.int64(action) if np.ndim(action) == 0 else action):
            raise ValueError(f"action {action!r} is outside 0 to {self.spec_game.num_actions - 1}")
        played, legal = legal_or_nearest(self.state, int(action))
        self.state.apply_action(played)
        self._advance()
        observation, info = self._observe()
        info["illegal"] = not legal
        terminated = self.state.is_terminal()
        reward = float(self.state.returns()[self.me]) if terminated else 0.0
        return observation, reward, terminated, False, info

    def render(self):
        """The state in words (render_mode "ansi")."""
        return str(self.state) if self.render_mode == "ansi" else None


#: Steps before an episode is truncated (a game of two sensible players takes a few dozen).
MAX_EPISODE_STEPS = 10_000

gymnasium.register(id="hogsolve/Hog-v0", entry_point=HogsolveEnv, kwargs={"rules": "su18"},
                   max_episode_steps=MAX_EPISODE_STEPS)
gymnasium.register(id="hogsolve/Pig-v0", entry_point=HogsolveEnv, kwargs={"game": "pig"},
                   max_episode_steps=MAX_EPISODE_STEPS)
