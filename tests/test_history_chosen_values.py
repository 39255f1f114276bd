"""HistoryTable.chosen_values (solver/backup.py): a fixed strategy's values under Feral Hogs from the
dice counts it chooses only, checked against every action's values (action_values) picked afterwards."""
import numpy as np
import pytest

from hogsolve import get_rules
from hogsolve.analysis.policy_values import play_values
from hogsolve.solver.backup import HistoryTable
from hogsolve.solver.model import model_for


def picked(self, k, actions):
    """The reference: every action's value, then the chosen one."""
    return np.take_along_axis(self.action_values(k), np.asarray(actions)[..., None], axis=-1)[..., 0]


@pytest.mark.parametrize("name", ["fa19", "sp20", "su20"])
def test_chosen_values_are_every_actions_values_picked(name, monkeypatch):
    """Two memory-aware random tables and a table that ignores the memories, played against each
    other.  Mistakes: an entry given another dice count's sums, the bonus of another memory, a
    Free Bacon entry left out, a kind of dice mixed up (fa13-like Hog Wild is not a history rule,
    but the goal's last sums are)."""
    rules = get_rules(name, goal=24)
    model = model_for(rules)
    rng = np.random.default_rng(7)
    a = rng.integers(0, 11, (24, 24) + model.context_shape)
    b = rng.integers(0, 11, (24, 24))
    b[::3] = 0  # Free Bacon now and then
    fast = play_values(model, a, b)
    monkeypatch.setattr(HistoryTable, "chosen_values", picked)
    slow = play_values(model, a, b)
    for ours, reference in zip(fast, slow):
        assert np.abs(ours - reference).max() <= 1e-14
