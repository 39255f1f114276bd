"""The opponent of a single-agent environment: fixed, from any strategy spec the command line
takes, or live (an agent asked at every move, for self-play)."""
from __future__ import annotations

import random
from typing import Any, Callable

import numpy as np

from ..games.interface import GameState, draw_chance
from ..strategy.agent_calls import AgentError, deterministic
from .base import GameSpec


class LiveOpponent:
    """An opponent asked at every move, on its own observation vector (what the agent would see
    in its seat): an agent still learning, for self-play.  ``agent`` is a callable on one
    observation or an object with ``predict`` (Stable-Baselines3's, asked with
    ``deterministic=True`` unless ``sample``); its action may change as it learns, so it is never
    tabulated.  An action its mask forbids is played as the nearest legal one."""

    def __init__(self, agent: Any, sample: bool = False):
        predict = getattr(agent, "predict", None)
        if not callable(predict) and not callable(agent):
            from ..errors import InputTypeError
            raise InputTypeError(f"a live opponent is a callable or has predict(), got {type(agent).__name__}")
        self.agent = agent
        self.act = (predict if sample else deterministic(predict)) if callable(predict) else agent

    def __call__(self, observation: np.ndarray) -> int:
        """The agent's action at ``observation`` (a whole number, or an AgentError)."""
        out = self.act(observation)
        value = np.asarray(out[0] if isinstance(out, tuple) else out).reshape(-1)
        if value.shape != (1,) or value.dtype.kind not in "iu" and not (value.dtype.kind == "f"
                                                                      and float(value[0]).is_integer()):
            raise AgentError(f"the live opponent answered {out!r} at {observation.tolist()}; expected one action")
        return int(value[0])


def opponent_from(spec_text, spec: GameSpec) -> Callable[[GameState], int]:
    """``choose(state) -> action`` for the player to move, from a spec (``optimal``,
    ``always_roll:4``, ``FILE.py:FUNCTION``, a table file; ``hold_at:20`` for the Pig
    games) or a ready strategy (a Policy, a table, a callable): its :func:`opponent_table`
    looked up at the state; a :class:`LiveOpponent` asked at the state instead."""
    if isinstance(spec_text, LiveOpponent):
        live = spec_text

        def ask(state: GameState) -> int:
            return legal_or_nearest(state, live(spec.observe(state, state.current_player)))[0]
        return ask
    return spec.family.chooser(opponent_table(spec_text, spec), spec.rules)


def opponent_table(spec_text, spec: GameSpec):
    """The fixed opponent as a table: Hog's dice counts ``[s, o]`` (memories too, if any), a
    roll-or-hold game's ``roll[i, j, k]`` for k below twice the goal (the goal rule applied)."""
    return spec.family.table_of(spec_text, spec.rules)


def settle_chance(state: GameState, rng: random.Random) -> None:
    """Draw chance outcomes by their exact probabilities until someone decides (or the end)."""
    while state.is_chance_node():
        state.apply_action(draw_chance(state, rng))


def legal_or_nearest(state: GameState, action: int) -> tuple:
    """``(action to play, was it legal)``: an illegal choice is played as the nearest legal one
    (Neller's Hog's 0 dice as 1, a hold with nothing to bank as a roll)."""
    legal = state.legal_actions()
    if action in legal:
        return action, True
    return min(legal, key=lambda a: (abs(a - action), a)), False
