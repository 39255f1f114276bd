"""OpenSpiel: every hogsolve game as a registered Python game with explicit chance nodes.

``import hogsolve.interop.openspiel`` registers

* ``python_hogsolve_hog`` with parameters ``rules`` (any built-in ruleset or
  semester, or a rule file's path) and ``goal`` (0: the ruleset's);
* ``python_hogsolve_pig`` with ``game`` (pig, piglet, two-dice-pig, big-pig) and ``goal``.

So ``pyspiel.load_game("python_hogsolve_hog(rules=su18,goal=20)")`` works.
One adapter serves both: a :class:`~hogsolve.games.interface.GameState` under
OpenSpiel's state API.  Chance outcomes carry hogsolve's exact probabilities
(as floats); ``str(state)`` is the state itself (scores, whose move, memories or
turn total), so OpenSpiel's value iteration sees each state once; observation
and information-state tensors are the observation vector of
:mod:`hogsolve.interop.core` with whose move it is; games serialize through
their action history.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import numpy as np
import pyspiel

from ..families import ROLL_OR_HOLD
from ..hog.rulefile import load_rules_file
from ..families import GameSpec, game_spec
from ..errors import InputError

#: A bound on a game's length in moves (a game can last for ever with probability zero).
MAX_GAME_LENGTH = 100_000


def _game_type(short: str, long: str, params: dict) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short, long_name=long, dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2, min_num_players=2, provides_information_state_string=True,
        provides_information_state_tensor=True, provides_observation_string=True,
        provides_observation_tensor=True, parameter_specification=params)


HOG_TYPE = _game_type("python_hogsolve_hog", "hogsolve Hog (any CS 61A ruleset)", {"rules": "su18", "goal": 0})
PIG_TYPE = _game_type("python_hogsolve_pig", "hogsolve Pig, Piglet, Two-Dice Pig, Big Pig", {"game": "pig", "goal": 0})


def _hog_spec(params: dict) -> GameSpec:
    name, goal = str(params.get("rules", "su18")), int(params.get("goal", 0)) or None
    if name.endswith(".toml") and Path(name).exists():
        return game_spec(goal=goal, rules=load_rules_file(name))
    return game_spec(name, goal)


class HogsolveGame(pyspiel.Game):
    """A hogsolve game for OpenSpiel (see the module docstring)."""

    def __init__(self, game_type: pyspiel.GameType, spec: GameSpec, params: dict):
        self.spec_game = spec
        size = len(spec.highs) + 1
        info = pyspiel.GameInfo(num_distinct_actions=spec.num_actions,
                                max_chance_outcomes=spec.rules.chance_outcome_count(),
                                num_players=2, min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                max_game_length=MAX_GAME_LENGTH)
        super().__init__(game_type, info, params)
        self.tensor_size = size

    def new_initial_state(self) -> "HogsolveState":
        """The start: player 0 to move."""
        return HogsolveState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "Observer":
        """Observations and information states alike (the game has perfect information)."""
        return Observer(self)


class HogSpielGame(HogsolveGame):
    """``python_hogsolve_hog(rules=...,goal=...)``."""

    def __init__(self, params: Optional[dict] = None):
        params = {**HOG_TYPE.parameter_specification, **(params or {})}
        super().__init__(HOG_TYPE, _hog_spec(params), params)


class PigSpielGame(HogsolveGame):
    """``python_hogsolve_pig(game=...,goal=...)``."""

    def __init__(self, params: Optional[dict] = None):
        params = {**PIG_TYPE.parameter_specification, **(params or {})}
        spec = game_spec(str(params["game"]), int(params["goal"]) or None)
        if not ROLL_OR_HOLD.is_game(spec.rules):
            raise InputError(f"{params['game']} is not a roll-or-hold game (pig, piglet, two-dice-pig, big-pig)")
        super().__init__(PIG_TYPE, spec, params)


class HogsolveState(pyspiel.State):
    """A hogsolve GameState under OpenSpiel's state API."""

    def __init__(self, game: HogsolveGame):
        super().__init__(game)
        self.spec_game = game.spec_game
        self.inner = self.spec_game.new_state(first=0)

    def current_player(self) -> int:
        """0, 1, chance or terminal, as OpenSpiel numbers them (hogsolve uses the same)."""
        player = self.inner.current_player
        if player >= 0:
            return player
        return pyspiel.PlayerId.TERMINAL if self.inner.is_terminal() else pyspiel.PlayerId.CHANCE

    def _legal_actions(self, player: int):
        return sorted(self.inner.legal_actions())

    def chance_outcomes(self):
        """``[(outcome, probability)]`` with hogsolve's exact probabilities as floats."""
        return [(int(a), float(p)) for a, p in self.inner.chance_outcomes()]

    def _apply_action(self, action: int) -> None:
        self.inner.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.inner.action_to_string(int(action))  # the inner state knows a roll from a move

    def is_terminal(self) -> bool:
        """True once someone won."""
        return self.inner.is_terminal()

    def returns(self):
        """+1 and -1 at the end, zeros before."""
        return list(self.inner.returns())

    def __str__(self) -> str:
        return str(self.inner)



class Observer:
    """Observation (and information state) of a seat: the observation vector, then whose move."""

    def __init__(self, game: HogsolveGame):
        self.spec_game = game.spec_game
        self.tensor = np.zeros(game.tensor_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: HogsolveState, player: int) -> None:
        """Fill the tensor with what ``player`` sees in ``state``."""
        inner = state.inner
        self.tensor[:-1] = self.spec_game.observe(inner, player)
        self.tensor[-1] = 1.0 if inner.current_player == player else 0.0

    def string_from(self, state: HogsolveState, player: int) -> str:
        """The same, in words."""
        return f"seat {player}: {str(state.inner)}"


pyspiel.register_game(HOG_TYPE, HogSpielGame)
pyspiel.register_game(PIG_TYPE, PigSpielGame)
