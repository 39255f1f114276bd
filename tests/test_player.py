"""The thin player: shipped tables, verification, fallback, and a real install."""
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import hogsolve.strategy.optimal_bot as player
from hogsolve import get_rules, solve
from hogsolve.strategy.optimal_bot import PlayerWarning, optimal_strategy
from shipped import copy_shipped

ROOT = Path(__file__).resolve().parent.parent


def test_shipped_table_is_the_solution():
    bot = optimal_strategy("fa18")
    assert np.array_equal(bot.table, np.load(ROOT / "solutions" / "fa18" / "policy.npy"))
    assert bot(0, 0) == 9 and isinstance(bot(0, 0), int)
    assert bot.action_values.shape == (100, 100, 11)


def test_player_imports_no_solver():
    code = ("import sys; from hogsolve.strategy.optimal_bot import optimal_strategy; optimal_strategy('su18')(0, 0);"
            "print([m for m in ('hogsolve.solver.optimal', 'scipy', 'joblib', 'pickle') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() in ("[]", "['pickle']")
    assert "hogsolve.solver.optimal" not in out.stdout and "scipy" not in out.stdout


def test_corrupt_table_warns_solves_and_caches(tmp_path, monkeypatch):
    shipped = copy_shipped(tmp_path / "shipped", "su18")
    data = bytearray((shipped / "su18" / "policy.npy").read_bytes())
    data[-1] ^= 1
    (shipped / "su18" / "policy.npy").write_bytes(bytes(data))
    monkeypatch.setattr(player, "shipped_tables", lambda: shipped)
    monkeypatch.setenv("HOGSOLVE_CACHE", str(tmp_path / "cache"))
    with pytest.warns(PlayerWarning, match="does not match its sha256"):
        bot = optimal_strategy("su18")
    assert np.array_equal(bot.table, solve(get_rules("su18")).policy)
    assert (tmp_path / "cache" / "su18-goal100" / "meta.json").exists()
    # next time the cache answers (the shipped table still warns)
    with pytest.warns(PlayerWarning):
        again = optimal_strategy("su18")
    assert again.directory == tmp_path / "cache" / "su18-goal100"


def test_other_goal_solves_and_caches(tmp_path, monkeypatch):
    monkeypatch.setenv("HOGSOLVE_CACHE", str(tmp_path))
    bot = optimal_strategy(get_rules("fa13", goal=30))
    assert np.array_equal(bot.table, solve(get_rules("fa13", goal=30)).policy)
    assert (tmp_path / "fa13-goal30" / "policy.npy").exists()


