"""The committed tables in solutions/ are what a fresh solve produces."""
import functools
from pathlib import Path

import numpy as np
import pytest

from hogsolve import __version__, get_rules, rulesets, solve
from hogsolve.solver.bound_check import prove_float_table
from hogsolve.solver.model import compile_model
from hogsolve.hog.rules import NO_VALUE
from hogsolve.solver.tables import load_arrays, solution_files
from hogsolve.util.stable import GRID_ERROR
from hogsolve.util.files import read_grid_csv, sha256

SOLUTIONS = Path(__file__).resolve().parent.parent / "solutions"
SOLVABLE = list(rulesets())  # sp22 with an endless game counted as a draw (its table's rules say so)
#: Tables exact mode cannot verify: Feral Hogs' memories, and Neller's Hog and sp22, whose turns can
#: score 0 (test_the_float_only_tables_are_those_exact_mode_refuses checks this list against the models).
FLOAT_ONLY = ["fa19", "sp20", "su20", "sp22", "hog"]


def shipped_rules(name):
    """The rules a shipped table is for: the built-in ones, with a draw where they have no value."""
    return get_rules(name).replace(endless="draw") if name in NO_VALUE else get_rules(name)
EXACT = [n for n in SOLVABLE if n not in FLOAT_ONLY]
#: The default tier checks these; the slow tier checks every table.
QUICK = ("su18", "hog", "sp22", "pig", "piglet")


def tiered(names):
    """``names`` as parameters, those outside QUICK marked slow."""
    return [n if n in QUICK else pytest.param(n, marks=pytest.mark.slow) for n in names]


def test_the_float_only_tables_are_those_exact_mode_refuses():
    refused = [n for n in SOLVABLE
               if not compile_model(shipped_rules(n)).progressive or shipped_rules(n).history is not None]
    assert refused == FLOAT_ONLY


@functools.lru_cache(maxsize=None)
def _exact_files(name):
    fresh = solve(get_rules(name), exact=True)
    return fresh.exact.float_policy_mismatches.size, fresh.exact.win_probability_start, fresh.opening_move, \
        solution_files(fresh, __version__)


@pytest.mark.pin
@pytest.mark.parametrize("name", tiered(EXACT))
def test_committed_tables_reproduce_byte_for_byte(name):
    """`hogsolve solve --all --exact` rewrites exactly the committed bytes."""
    directory = SOLUTIONS / name
    meta, arrays = load_arrays(directory, ("policy.npy", "win_probability.npy", "action_values.npy"))
    mismatches, p, opening_move, files = _exact_files(name)
    assert mismatches == 0
    for file_name, data in files.items():
        assert data == (directory / file_name).read_bytes(), file_name

    assert meta["certificate"]["win_probability_start"] == f"{p.numerator}/{p.denominator}"
    assert meta["certificate"]["proven"] is True
    assert meta["opening_move"] == opening_move
    assert meta["layout"].startswith("W[score, opponent_score]")
    # the stored values are the exact ones correctly rounded
    assert float(p) == arrays["win_probability.npy"][0, 0]
    # the float solve agrees within its own certificate
    floats = solve(get_rules(name))
    bound = floats.certificate.error_bound
    assert np.abs(arrays["win_probability.npy"] - floats.values).max() <= bound
    assert np.abs(arrays["action_values.npy"] - floats.action_values).max() <= bound
    # every data file matches its checksum, and the CSV matches the array
    for name_, digest in meta["sha256"].items():
        assert sha256((directory / name_).read_bytes()) == digest
    csv = read_grid_csv(directory / "win_probability.csv", float)
    assert np.allclose(csv, arrays["win_probability.npy"], rtol=1e-11, atol=1e-12)
    assert np.array_equal(read_grid_csv(directory / "policy.csv", int), arrays["policy.npy"])


@pytest.mark.pin
@pytest.mark.parametrize("name", tiered(FLOAT_ONLY))
def test_float_only_tables_reproduce_byte_for_byte(name):
    """Tables that exact mode cannot verify (Feral Hogs' memories; Neller's Hog and sp22, whose
    turns can score 0) hold the certified float policy, and the bytes `solve --all --exact`
    writes (sp22's with --endless draw)."""
    directory = SOLUTIONS / name
    meta, arrays = load_arrays(directory, ("policy.npy",))
    rules = shipped_rules(name)
    fresh, proof = prove_float_table(compile_model(rules), solve(rules))
    assert fresh.certificate.proven and proof.proven
    for file_name, data in solution_files(fresh, __version__, policy_only=True, proof=proof).items():
        assert data == (directory / file_name).read_bytes(), file_name
    assert arrays["policy.npy"].shape == (100, 100) + rules.context_shape
    assert meta["certificate"]["proven"] is True and meta["opening_move"] == fresh.opening_move
    if rules.history is not None:
        assert meta["layout"].startswith("policy[score, opponent_score, mover's memory")
        assert sorted(meta["sha256"]) == ["policy.npy", "win_probability.npy"]
        _, values = load_arrays(directory, ("win_probability.npy",))
        assert np.abs(values["win_probability.npy"] - fresh.values).max() <= GRID_ERROR
    else:
        assert sorted(meta["sha256"]) == ["policy.csv", "policy.npy"]
        assert np.array_equal(read_grid_csv(directory / "policy.csv", int), arrays["policy.npy"])


def test_every_solvable_builtin_ships_a_table():
    from hogsolve.pig import PIG_GAMES
    assert sorted(p.name for p in SOLUTIONS.iterdir() if (p / "meta.json").exists()) == \
        sorted(SOLVABLE + list(PIG_GAMES))


@pytest.mark.pin
@pytest.mark.parametrize("name", tiered(["pig", "piglet", "two-dice-pig", "big-pig"]))
def test_pig_tables_reproduce_byte_for_byte(name):
    """`hogsolve solve --rules pig piglet two-dice-pig big-pig --out solutions` writes exactly the
    committed bytes."""
    import json
    from hogsolve import get_pig_game
    from hogsolve.solver.pig import solve_pig
    from hogsolve.solver.pig.tables import pig_solution_files
    fresh = solve_pig(get_pig_game(name))
    for file_name, data in pig_solution_files(fresh, __version__).items():
        assert data == (SOLUTIONS / name / file_name).read_bytes(), file_name
    meta = json.loads((SOLUTIONS / name / "meta.json").read_text())
    assert meta["certificate"]["proven"] and meta["layout"].startswith("roll[i, j, k]")
    roll = np.load(SOLUTIONS / name / "roll.npy", allow_pickle=False)
    assert roll.shape == (fresh.game.goal,) * 3 and np.array_equal(roll, fresh.policy)
    thresholds = read_grid_csv(SOLUTIONS / name / "hold_threshold.csv", int)
    assert np.array_equal(thresholds, fresh.game.hold_thresholds(fresh.policy))
    from hogsolve.strategy.pig import PigBot, pig_bot
    bot = pig_bot(name)
    assert isinstance(bot, PigBot) and np.array_equal(bot.policy, fresh.policy)
    assert np.abs(bot.values - fresh.values).max() <= GRID_ERROR


def test_pig_bots_load_without_solving(monkeypatch):
    from hogsolve.strategy import pig as strategy_pig
    monkeypatch.setattr(strategy_pig, "solve_pig", lambda game: pytest.fail("solved a shipped game"))
    for name in ("pig", "two-dice-pig"):
        bot = strategy_pig.pig_bot(name)
        assert bot.values.shape == (100, 100, 100) and bot(0, 0, 0) and not bot(0, 0, 30)


def test_solutions_readme_exists():
    assert "policy.csv" in (SOLUTIONS / "README.md").read_text()
