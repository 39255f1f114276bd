"""Bad input: one line on stderr, exit code 2, nothing written, no traceback."""
import json
import errno
import os
import subprocess
import sys

import numpy as np
import pytest

import hogsolve.analysis.montecarlo as montecarlo
from hogsolve import get_rules, optimal_strategy, simulate, solve
from hogsolve.cli import main
from hogsolve.cli.common import cap_jobs
from hogsolve.solver.memory import estimate_bytes
from hogsolve.strategy.optimal_bot import shipped_tables
from hogsolve.solver.tables import write_solution
from hogsolve.util.files import atomic_write


def one_line_exit_2(capsys, args, message):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: "), err
    assert message in err, err
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize("args, message", [
    (["solve", "--all", "--rules", "nope"], "name one of"),
    (["solve", "--rules", "su18", "--goal", "100000"], "GB"),
    (["compare", "optimal", "always_roll:4", "--goal", "100000"], "GB"),
    (["solve", "--rules", "su18", "--goal", "2000", "--max-memory", "1"], "limit of 1 GB"),
    (["solve", "--rules", "su18", "--goal", "2000", "--max-memory", "-3"], "positive"),
    (["compare", "optimal", "always_roll:4", "--simulate", "1000", "--seed", "-1"], "seed must be from 0"),
    (["play", "--seed", "x"], "seed must be a whole number"),
    (["sinbad", "tournament", "--bots", "tracker,,greedy", "--games", "2"], "empty bot name"),
    (["sinbad", "tournament", "--bots", "tracker,nobody"], "unknown bot nobody"),
    (["sinbad", "play", "--bots", "x"], "the number of bots must be a whole number"),
    (["sinbad", "play", "--bots", "9"], "the number of bots must be from 1 to 7"),
    (["sibala", "compare", "5²54", "2623"], "dice must be digits"),
    (["sibala", "compare", "5①54", "2623"], "dice must be digits"),
    (["tournament", "optimal", "always_roll:4", "--jobs", "0"], "at least 1"),
    (["plot", "--out", ""], "must be named"),
    (["solve", "--rules", "su18", "--max-memory", "inf"], "positive finite number of GB"),
    (["solve", "--rules", "su18", "--max-memory", "1e308"], "positive finite number of GB"),
    (["solve", "--rules", "su18", "--max-memory", "nan"], "positive finite number of GB"),
    (["solve", "--rules", "piglet", "--goal", "100000"], "piglet at goal 100000 needs about"),
    (["solve", "--rules", "pig", "--goal", "3000", "--max-memory", "1"], "more than the limit of 1 GB"),
    (["compare", "optimal", "hold_at:20", "--rules", "two-dice-pig", "--goal", "3000"], "needs about"),
    (["compare", "optimal", "swap:-8:4"], "the margin must be from 0 to 100 points"),
    (["compare", "optimal", "bacon:101:4"], "the margin must be from 0 to 100 points"),
])
def test_bad_arguments(capsys, args, message):
    one_line_exit_2(capsys, args, message)


@pytest.mark.parametrize("args", [
    ["solve", "--rules", "su18", "fa13", "fa20", "sp15", "fa15", "hog", "fa19", "--goal", "1"],
    ["compare", "optimal", "always_roll:4", "--goal", "1"],
    ["best-response", "always_roll:4", "--rules", "fa13", "--goal", "1"],
    ["tournament", "optimal", "always_roll:4", "--rules", "fa20", "--goal", "1"],
    ["regret", "always_roll:4", "--goal", "1"],
])
def test_goal_1_is_a_game_too(capsys, args):
    """Goal 1 used to fail in the lean pass (a stride of 0); it is a short game, solved and proven."""
    assert main(args + ["--json"]) == 0
    assert "Traceback" not in capsys.readouterr().err


def test_solvers_check_memory_before_allocating():
    from hogsolve import get_pig_game, get_rules, solve
    from hogsolve.solver.pig import solve_pig
    from hogsolve.solver.memory import MemoryLimitError
    with pytest.raises(MemoryLimitError, match="piglet at goal 100000 needs about"):
        solve_pig(get_pig_game("piglet", goal=100000))
    with pytest.raises(MemoryLimitError, match="goal 200000 needs about"):
        solve(get_rules("su18", goal=200000))


def test_out_that_is_a_folder(capsys, tmp_path):
    one_line_exit_2(capsys, ["best-response", "always_roll:4", "--out", str(tmp_path)], "is a folder")
    folder = tmp_path / "pic.png"
    folder.mkdir()
    one_line_exit_2(capsys, ["plot", "--out", str(folder)], "is a folder")
    assert list(tmp_path.iterdir()) == [folder]


def test_memory_estimate_matches_a_measured_solve():
    # measured with /usr/bin/time: 272 MB above the interpreter at goal 1000
    assert 200e6 < estimate_bytes(1000, 10) < 400e6
    assert estimate_bytes(100_000, 10) > 24 * 1024 ** 3  # far beyond this machine
    assert estimate_bytes(100, 10, exact=True) > estimate_bytes(100, 10)


def test_shipped_tables_are_only_rewritten_at_their_goal(capsys):
    before = {p: p.read_bytes() for p in (shipped_tables() / "su18").iterdir()}
    one_line_exit_2(capsys, ["solve", "--all", "--goal", "50"], "solves the built-in goals")
    assert {p: p.read_bytes() for p in (shipped_tables() / "su18").iterdir()} == before


def test_solve_help_says_where_files_go(capsys):
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "user cache" in out and "never overwritten" in out and "nothing is written without --out" in out
    assert str(shipped_tables()) in out.replace(" ", "")


def full_disk(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_full_disk_is_one_line_and_leaves_no_partial_file(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(os, "fsync", full_disk)
    err = one_line_exit_2(capsys, ["solve", "--rules", "fa18", "--goal", "20", "--out", str(tmp_path)],
                          "No space left on device")
    assert "fa18" in err
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]
    target = tmp_path / "br.csv"
    one_line_exit_2(capsys, ["best-response", "always_roll:4", "--out", str(target)], "No space left")
    assert not target.exists() and not list(tmp_path.glob(".*tmp"))


def test_writes_are_flushed_to_disk_and_strays_removed(tmp_path, monkeypatch):
    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd) or real(fd))
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()
    stray = tmp_path / f".policy.csv.{dead}.tmp"
    stray.write_bytes(b"half a table")
    atomic_write(tmp_path / "policy.csv", b"whole")
    assert (tmp_path / "policy.csv").read_bytes() == b"whole"
    assert not stray.exists() and synced
    mine = tmp_path / f".other.{os.getpid()}.tmp"  # a live process's file stays
    mine.write_bytes(b"busy")
    atomic_write(tmp_path / "x", b"1")
    assert mine.exists()


def test_jobs_capped_at_the_cores(capsys):
    assert cap_jobs(1000) == (os.cpu_count() or 1)
    assert "warning: --jobs 1000" in capsys.readouterr().err
    assert cap_jobs(1) == 1


def test_simulation_runs_in_chunks_of_constant_size(monkeypatch):
    rules = get_rules("su18")
    sizes, announced = [], []
    real = montecarlo._play_chunk

    def record(model, sampler, pa, pb, a_first, rng):
        sizes.append(len(a_first))
        return real(model, sampler, pa, pb, a_first, rng)

    monkeypatch.setattr(montecarlo, "_play_chunk", record)
    bot = optimal_strategy(rules)
    sim = simulate(bot, bot.table, rules, games=10_001, seed=5, chunk=1000, announce=announced.append)
    assert sizes == [1000] * 10 + [1]
    assert sim.games_first + sim.games_second == 10_001 and sim.games_first == 5000
    assert len(announced) == 1 and announced[0] > 0
    lo, hi = sim.interval
    assert lo < 0.5 < hi  # optimal against itself


def test_wilson_interval_stays_in_range():
    rules = get_rules("su18")
    sim = simulate(optimal_strategy(rules), np.zeros((100, 100), dtype=int), rules, games=2, seed=1)
    lo, hi = sim.interval
    assert 0 <= lo < hi <= 1


def test_solve_progress_hook_sees_every_score_sum():
    seen = []

    def progress(stages, total):
        seen.append(total)
        return stages

    solve(get_rules("su18", goal=30), progress=progress)
    assert seen == [59]


@pytest.mark.slow  # kept out of the default tier for its time; CI runs the slow tier
def test_exact_tables_are_identical_whatever_the_blas_threads(tmp_path):
    outputs = []
    for threads in ("1", "2"):
        out = tmp_path / threads
        env = {**os.environ, "OPENBLAS_NUM_THREADS": threads, "OMP_NUM_THREADS": threads}
        result = subprocess.run([sys.executable, "-m", "hogsolve", "solve", "--rules", "fa13", "--goal", "40",
                                 "--exact", "--out", str(out)], capture_output=True, text=True, env=env,
                                timeout=600)
        assert result.returncode == 0, result.stderr
        outputs.append({p.name: p.read_bytes() for p in (out / "fa13").iterdir()})
    assert outputs[0] == outputs[1] and len(outputs[0]) == 6


def test_float_tables_state_their_run(tmp_path):
    write_solution(solve(get_rules("fa18", goal=20)), tmp_path, "test")
    assert "measured by the run" in (tmp_path / "meta.json").read_text()


def test_names_are_case_insensitive(capsys):
    """SU18 is su18 and PIG is pig, as semester names already were."""
    assert main(["compare", "optimal", "always_roll:4", "--rules", "SU18", "--goal", "20", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rules"] == "su18"
    assert main(["compare", "optimal", "hold_at:10", "--rules", "Piglet", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rules"] == "piglet"


def test_sp22_says_why_once(capsys):
    assert main(["solve", "--rules", "sp22"]) == 1
    captured = capsys.readouterr()
    assert (captured.out + captured.err).count("both players prefer passing forever") == 1
