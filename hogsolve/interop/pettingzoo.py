"""PettingZoo: any hogsolve game as an AEC environment for two learning agents.

``env(rules="su18")`` (or ``env(game="pig")``, with ``goal``) gives agents
``player_0`` (moves first) and ``player_1``.  Each observes
``{"observation": ..., "action_mask": ...}`` (the vector of
:mod:`hogsolve.interop.core` and its legal actions); chance is drawn with the
exact probabilities from ``reset(seed=...)``; the rewards are +1 and -1 at the end.
"""
from __future__ import annotations

import operator
import random
from typing import Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..errors import InputError
from ..families.lanes import lane_for
from .core import env_game, whole_action

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
        self._zeros = np.zeros(n, dtype=np.int8)  # the mask of an agent whose turn it is not
        self._num_actions = n
        self._seat = {a: i for i, a in enumerate(AGENTS)}
        self.lane = lane_for(self.spec_game, None)  # the Gym env's fast lane, with no fixed opponent

    def observation_space(self, agent):
        """The observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent):
        """The action space of ``agent``."""
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        """A new game, player_0 first; ``seed`` fixes every roll."""
        self.rng = random.Random(seed)
        self.lane.new(0, self.rng)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: dict = {a: {} for a in AGENTS}
        self.flagged = False  # infos hold an "illegal" flag
        self.agent_selection = AGENTS[self.lane.mover]

    @property
    def position(self):
        """The game's position as a :class:`~hogsolve.games.interface.GameState`."""
        return self.lane.state

    def observe(self, agent: str) -> dict:
        """What ``agent`` sees, with the actions it may take now (none when it is not its turn)."""
        seat, lane = self._seat[agent], self.lane
        seen = lane.seen(seat)
        if lane.winner is None:
            return {"observation": np.array(seen, dtype=np.int64),
                    "action_mask": lane.mask() if lane.mover == seat else self._zeros.copy()}
        seen = [min(value, int(high)) for value, high in zip(seen, self.spec_game.highs)]  # a final score may pass
        return {"observation": np.array(seen, dtype=np.int64), "action_mask": self._zeros.copy()}

    def step(self, action) -> None:
        """The selected agent's move (an illegal one is played as the nearest legal one)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        number = action if type(action) is int and 0 <= action < self._num_actions else \
            whole_action(action, self._num_actions)  # 3.9 or -1 refused, never rounded
        lane = self.lane
        legal = lane.play(number, self.rng)  # an illegal action as the nearest legal one
        if not legal or self.flagged:  # fresh infos when a flag is set or was (else they stay empty)
            self.infos = {a: {} for a in AGENTS}
            self.flagged = not legal
            if not legal:
                self.infos[agent]["illegal"] = True
        winner = lane.winner
        if winner is not None:
            self.rewards = {a: 1.0 if i == winner else -1.0 for i, a in enumerate(AGENTS)}
            self.terminations = {a: True for a in AGENTS}
            self._accumulate_rewards()
        else:  # no reward before the end: nothing to accumulate
            if self.rewards[AGENTS[0]] or self.rewards[AGENTS[1]]:
                self.rewards = dict.fromkeys(AGENTS, 0.0)
            self.agent_selection = AGENTS[lane.mover]

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

#: The game's own attributes, which PettingZoo's wrappers forward unchanged.
_FORWARDED = ("agent_selection", "rewards", "terminations", "truncations", "infos", "agents", "_cumulative_rewards")


def _read_through(name: str, checked: bool) -> property:
    """``name`` read from the game itself in one C call (``checked``: only after reset, as
    OrderEnforcingWrapper requires: through ``_live``, the game once reset, whose absence
    before then sends Python to the wrapper's ``__getattr__`` and its own refusal)."""
    holder = "_live" if checked and name != "_cumulative_rewards" else "_game"
    return property(operator.attrgetter(f"{holder}.{name}"), doc=f"The game's ``{name}``.")


def _reading_through(wrapper: type, checked: bool = False) -> type:
    """PettingZoo's ``wrapper``, reading the game's attributes from the game itself instead of
    through each wrapper's ``__getattr__`` and ``unwrapped`` (a chain of calls that was most of
    a step's time); what it does is PettingZoo's own."""
    def __init__(self, env, *args, **kwargs):
        wrapper.__init__(self, env, *args, **kwargs)  # type: ignore[misc]  # the class made below
        self._game = env.unwrapped

    def reset(self, seed=None, options=None):
        self._live = self._game  # the checked attributes read through it from now on
        wrapper.reset(self, seed=seed, options=options)  # type: ignore[attr-defined]
    fast = type(f"Fast{wrapper.__name__}", (wrapper,), {"__init__": __init__, "reset": reset,
                                                       "__doc__": _reading_through.__doc__,
                                                       "unwrapped": property(operator.attrgetter("_game"))})
    for name in _FORWARDED:
        setattr(fast, name, _read_through(name, checked))
    return fast


_ILLEGAL = _reading_through(wrappers.TerminateIllegalWrapper)


class _Order(_reading_through(wrappers.OrderEnforcingWrapper, checked=True)):  # type: ignore[misc]
    """OrderEnforcingWrapper: once reset, and while agents remain, a call goes straight to the
    wrapped env (what its checks then do, without the frames of the base wrapper's own call)."""

    def observe(self, agent):
        """The wrapped env's observation, or OrderEnforcingWrapper's refusal before reset."""
        if self._has_reset:
            return self.env.observe(agent)
        return super().observe(agent)

    def step(self, action) -> None:
        """The wrapped env's step, or OrderEnforcingWrapper's refusal or warning."""
        if self._has_reset and self._game.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)


class _Bounds(_reading_through(wrappers.AssertOutOfBoundsWrapper)):  # type: ignore[misc]
    """AssertOutOfBoundsWrapper, with a plain int in range passed at once (what the action
    space's ``contains`` would say of it, without its cost)."""

    def step(self, action) -> None:
        """The action, checked by the action space unless it is a plain int in range."""
        if type(action) is int and 0 <= action < self._game._num_actions:
            self.env.step(action)
        else:
            super().step(action)

    def observe(self, agent):
        """The wrapped env's observation (this wrapper checks actions only)."""
        return self.env.observe(agent)



def env(**kwargs):
    """A hogsolve game as a PettingZoo AEC environment, wrapped as PettingZoo's classic games
    are: an action the mask forbids ends the game with :data:`ILLEGAL_REWARD` for the agent that
    played it (``TerminateIllegalWrapper``; ``raw_env`` plays it as the nearest legal action
    instead and says so in ``infos``), an action outside the action space is an error, and so is
    a call out of order (``step`` or ``observe`` before ``reset``)."""
    return _Order(_Bounds(_ILLEGAL(raw_env(**kwargs), illegal_reward=ILLEGAL_REWARD)))
