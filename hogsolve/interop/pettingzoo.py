"""PettingZoo: any hogsolve game as an AEC environment for two learning agents.

``env(rules="su18")`` (or ``env(game="pig")``, with ``goal``) gives agents
``player_0`` (moves first) and ``player_1``.  Each observes
``{"observation": ..., "action_mask": ...}`` (the vector of
:mod:`hogsolve.interop.core` and its legal actions); chance is drawn with the
exact probabilities from ``reset(seed=...)``; the rewards are +1 and -1 at the end.
"""
from __future__ import annotations

import random
from typing import Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .core import env_game, whole_actions
from ..families.opponents import legal_or_nearest, settle_chance
from ..errors import InputError

AGENTS = ("player_0", "player_1")


class HogsolveAEC(AECEnv):
    """Two agents taking turns at one hogsolve game (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "name": "hogsolve_v0", "is_parallelizable": False, "render_fps": 4}

    def __init__(self, rules=None, game: Optional[str] = None, goal: Optional[int] = None,
                 render_mode: Optional[str] = None):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise InputError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.spec_game = env_game(rules, game, goal, where="hogsolve's PettingZoo environment")
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        n = self.spec_game.num_actions
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(0, self.spec_game.highs, dtype=np.int64),
            "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8)}) for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(n) for a in AGENTS}
        self.rng = random.Random()
        self.position = None

    def observation_space(self, agent):
        """The observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent):
        """The action space of ``agent``."""
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        """A new game, player_0 first; ``seed`` fixes every roll."""
        self.rng = random.Random(seed)
        self.position = self.spec_game.new_state(first=0)
        settle_chance(self.position, self.rng)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[self.position.current_player]

    def observe(self, agent: str) -> dict:
        """What ``agent`` sees, with the actions it may take now (none when it is not its turn)."""
        seat = AGENTS.index(agent)
        mask = self.spec_game.legal(self.position) if (not self.position.is_terminal()
                                                    and self.position.current_player == seat) \
            else np.zeros(self.spec_game.num_actions, dtype=np.int8)
        return {"observation": self.spec_game.observe(self.position, seat), "action_mask": mask}

    def step(self, action) -> None:
        """The selected agent's move (an illegal one is played as the nearest legal one)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        number = int(whole_actions(action, self.spec_game.num_actions))  # 3.9 or -1 is refused, never rounded
        played, legal = legal_or_nearest(self.position, number)
        self.position.apply_action(played)
        settle_chance(self.position, self.rng)
        self.infos = {a: {} for a in AGENTS}
        if not legal:
            self.infos[agent]["illegal"] = True
        if self.position.is_terminal():
            returns = self.position.returns()
            self.rewards = {a: float(returns[i]) for i, a in enumerate(AGENTS)}
            self.terminations = {a: True for a in AGENTS}
        else:
            self.rewards = {a: 0.0 for a in AGENTS}
            self.agent_selection = AGENTS[self.position.current_player]
        self._accumulate_rewards()

    def render(self):
        """The state in words (render_mode "ansi")."""
        return str(self.position) if self.render_mode == "ansi" else None

    def close(self) -> None:
        """Nothing to release."""


def raw_env(**kwargs) -> HogsolveAEC:
    """The unwrapped environment (see :class:`HogsolveAEC`)."""
    return HogsolveAEC(**kwargs)


#: What an agent that plays an action its mask forbids gets, as in PettingZoo's classic games.
ILLEGAL_REWARD = -1.0


def env(**kwargs):
    """A hogsolve game as a PettingZoo AEC environment, wrapped as PettingZoo's classic games
    are: an action the mask forbids ends the game with :data:`ILLEGAL_REWARD` for the agent that
    played it (``TerminateIllegalWrapper``; ``raw_env`` plays it as the nearest legal action
    instead and says so in ``infos``), an action outside the action space is an error, and so is
    a call out of order (``step`` or ``observe`` before ``reset``)."""
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(
        wrappers.TerminateIllegalWrapper(raw_env(**kwargs), illegal_reward=ILLEGAL_REWARD)))
