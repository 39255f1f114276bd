"""Contest scale: the batched evaluator against the fraction recursion and the pair kernel,
contest standings (threshold, ties as losses, exact ranks), the resumable results file,
a folder of student files, and the Dask backend against the local run."""
import json
from fractions import Fraction

import numpy as np
from pathlib import Path

import pytest

from hogsolve import get_rules, solve
from hogsolve.cli import main
from hogsolve.solver.model import compile_model
from hogsolve.analysis.policy_values import play_values, slot_values, slots_supported
from hogsolve.contest.roundrobin import TournamentResult, exact_rate, tournament
from hogsolve.strategy.named import always_roll, random_strategy, tabulate
from reference import recursive_win_rate


@pytest.mark.parametrize("name", ["su18", "fa21"])
def test_batched_sweep_matches_the_fraction_recursion(name):
    """One policy against a block of opponents in one sweep, both seatings: every slot's
    start value equals the plain recursion in fractions."""
    rules = get_rules(name, goal=25)
    mine = tabulate(random_strategy(1, rules), rules)
    theirs = [tabulate(always_roll(n), rules) for n in (2, 5)] + [tabulate(random_strategy(9, rules), rules)]
    B = len(theirs)
    values = slot_values(compile_model(rules), np.stack([mine] * B + theirs), np.r_[np.arange(B, 2 * B), np.arange(B)])
    for q, table in enumerate(theirs):
        first, second = recursive_win_rate(rules, mine, table)
        assert values[0, 0, q] == pytest.approx(float(first), abs=1e-14)
        assert 1 - values[0, 0, B + q] == pytest.approx(float(second), abs=1e-14)


@pytest.mark.parametrize("name", ["fa13", "fa20", "sp21", "fa22", "sp22", pytest.param("hog", marks=pytest.mark.slow)])
def test_batched_sweep_matches_the_pair_kernel_everywhere(name):
    """Extra turns (fa20, sp21), final bonuses (fa22), a cycling ruleset (sp22) and a
    ruleset without zero dice (hog): slots give the pair kernel's values in every state."""
    rules = get_rules(name)
    model = compile_model(rules)
    assert slots_supported(model)
    low = rules.min_dice
    a = np.random.default_rng(1).integers(max(low, 0), 11, (rules.goal, rules.goal))
    b = np.random.default_rng(2).integers(max(low, 1), 11, (rules.goal, rules.goal))
    va, vb = play_values(model, a, b)
    values = slot_values(model, np.stack([a, b, b]), [1, 0, 0])  # a third slot: b against a again
    assert np.abs(values[..., 0] - va).max() < 1e-13 and np.abs(values[..., 1] - vb).max() < 1e-13
    assert np.abs(values[..., 2] - values[..., 1]).max() < 1e-13


def test_rules_outside_the_batch_fall_back_pair_by_pair():
    rules = get_rules("fa19", goal=30)  # Feral Hogs: memories in the state
    assert not slots_supported(compile_model(rules))
    result = tournament([always_roll(4), always_roll(6), always_roll(2)], rules)
    from hogsolve.analysis.evaluate import win_rate
    assert result.rate[0, 1] == pytest.approx(win_rate(always_roll(4), always_roll(6), rules).average, abs=1e-14)


def test_contest_standings_threshold_ties_and_exact_ranks():
    rules = get_rules("su18", goal=40)
    result = tournament([always_roll(1), always_roll(10), always_roll(5), solve(rules), always_roll(5)], rules,
                        names=["one", "ten", "five", "optimal", "five again"])
    # the same strategy twice: exactly one half, settled exactly, a loss for both
    assert result.settled == ((2, 4, Fraction(1, 2)),)
    assert not result.won[2, 4] and not result.won[4, 2]
    assert list(result.wins) == [0, 3, 1, 4, 1] and list(result.losses) == [4, 1, 3, 0, 3]
    assert list(result.ranks) == [5, 2, 3, 1, 3]  # the two fives share rank 3; no rank 4
    rows = result.ranking()
    assert [r["strategy"] for r in rows][:2] == ["optimal", "ten"] and rows[2]["tied"] and rows[3]["tied"]
    # a pair is won strictly above the threshold
    rate = result.rate[1, 2]
    raised = TournamentResult(result.rules, result.names, result.first, threshold=float(rate))
    assert result.won[1, 2] and not raised.won[1, 2] and not raised.won[1, 4]  # both fives
    assert raised.wins[1] == result.wins[1] - 2


def test_exact_rate_settles_close_calls():
    rules = get_rules("su18", goal=30)
    a, b = tabulate(always_roll(5), rules), tabulate(always_roll(6), rules)
    first, second = recursive_win_rate(rules, a, b)
    assert exact_rate(rules, a, b) == (first + second) / 2
    assert exact_rate(rules, a, a) == Fraction(1, 2)


@pytest.mark.slow
def test_contest_folder_results_file_and_resume(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "students"
    folder.mkdir()
    (folder / "alice.py").write_text("def final_strategy(score, opponent_score):\n    return 5\n")
    (folder / "bob.py").write_text("def final_strategy(score, opponent_score):\n    print('hi')\n"
                                   "    return 4 if score < 50 else 6\n")
    (folder / "carol.py").write_text("def final_strategy(score, opponent_score):\n    while True:\n        pass\n")
    (folder / "dave.py").write_text("def final_strategy(score, opponent_score):\n    return 11\n")
    out = tmp_path / "results.csv"
    args = ["tournament", str(folder), "optimal", "always_roll:5", "--goal", "40", "--strategy-timeout", "1",
            "--out", str(out), "--threshold", "0.500001"]
    assert main(args + ["--json"]) == 0
    captured = capsys.readouterr()
    record = json.loads(captured.out)
    assert {s["entry"] for s in record["skipped"]} == {str(folder / "carol.py"), str(folder / "dave.py")}
    assert "skipped" not in captured.err  # said once, in the record (text: on stdout, after the standings)
    names = [row["strategy"] for row in record["ranking"]]
    assert names[0] == "optimal" and sorted(names) == sorted(["optimal", "always_roll:5", str(folder / "alice.py"),
                                                               str(folder / "bob.py")])
    # alice is always_roll:5: exactly one half, a loss for both at any threshold
    alice = next(r for r in record["ranking"] if r["strategy"] == str(folder / "alice.py"))
    assert alice["win_rates"]["always_roll:5"] == 0.5 and alice["tied"]
    lines = out.read_text().splitlines()
    assert lines[0].startswith("rules,goal,a,b,") and len(lines) == 1 + 6
    # a rerun reads every pair back and evaluates none
    import hogsolve.contest.roundrobin as rr
    calls = []
    real = rr.evaluate_block
    monkeypatch.setattr(rr, "evaluate_block", lambda *a: calls.append(a) or real(*a))
    assert main(args + ["--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert calls == [] and {k: v for k, v in again.items() if k != "skipped"} == \
        {k: v for k, v in record.items() if k != "skipped"}
    assert [s["entry"] for s in again["skipped"]] == [s["entry"] for s in record["skipped"]]
    # a line cut short by a crash: only its pair runs again
    out.write_text(out.read_text()[:-30])
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "1 unreadable row(s) ignored" in err and "resuming: 5 of 6 pairs" in err
    assert sum(len(c[2]) for c in calls) == 1 and len(out.read_text().splitlines()) == 7
    # a results file of another ruleset is refused in one line, and left alone
    before = out.read_bytes()
    assert main(["tournament", str(folder), "optimal", "--goal", "30", "--out", str(out),
                 "--strategy-timeout", "3"]) == 2
    assert "holds su18 at goal 40, not su18 at goal 30" in capsys.readouterr().err and out.read_bytes() == before


def test_contest_text_output(tmp_path, capsys):
    assert main(["tournament", "optimal", "always_roll:5", "always_roll:6", "--goal", "40"]) == 0
    out = capsys.readouterr().out
    assert "a pair is won above 0.5, ties count as losses" in out
    assert out.splitlines()[2].split()[:4] == ["1", "optimal", "2", "0"]
    assert main(["tournament", "optimal", str(tmp_path / "missing.py")]) == 2
    assert "missing.py: no such file" in capsys.readouterr().err
    assert main(["tournament", "optimal", "always_roll:5", "--backend", "dask"]) == 2
    assert "--backend dask needs --scheduler" in capsys.readouterr().err


@pytest.mark.slow
def test_dask_cluster_gives_the_local_numbers_exactly():
    """A small tournament on a dask.distributed LocalCluster (2 worker processes on
    127.0.0.1), through joblib's Dask backend: every number equals the local run."""
    distributed = pytest.importorskip("distributed")
    rules = get_rules("su18", goal=40)
    strategies = [always_roll(n) for n in range(1, 7)] + [random_strategy(s, rules) for s in range(3)]
    local = tournament(strategies, rules, block=3)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1", processes=True,
                                  dashboard_address=None) as cluster:
        far = tournament(strategies, rules, backend="dask", scheduler=cluster.scheduler_address, block=3)
    assert np.array_equal(local.first, far.first, equal_nan=True)
    assert local.ranking() == far.ranking()
    with pytest.raises(ValueError, match="cannot reach the Dask scheduler"):
        tournament(strategies[:2], rules, backend="dask", scheduler="tcp://127.0.0.1:9")


def ta_layout(root):
    """One folder per student, with the helper modules a CS 61A project ships."""
    final = "def final_strategy(score, opponent_score):\n    return {}\n"
    files = {
        "alice/hog.py": "from helpers import N\n" + final.format("N"), "alice/helpers.py": "N = 5\n",
        "alice/dice.py": "def six_sided():\n    return 3\n", "alice/ucb.py": "def main(fn):\n    return fn\n",
        "bob/hog.py": "import dice\n" + final.format("4"), "bob/dice.py": "X = 1\n",
        "carol/strategy.py": final.format("6"), "carol/util.py": "Y = 2\n",
        "dave/util.py": "Z = 3\n",
        "eve/hog.py": "def final_strategy(score, opponent_score):\n    while True:\n        pass\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_the_ta_layout_one_folder_per_student(tmp_path, capsys):
    """students/NAME/hog.py beside its helpers: each student is one entry, helpers are left
    alone, and the results (text and --json) list everyone left out with the reason."""
    students = ta_layout(tmp_path / "students")
    args = ["tournament", str(students), "always_roll:5", "--goal", "20", "--strategy-timeout", "1"]
    assert main(args + ["--json"]) == 0
    captured = capsys.readouterr()
    record = json.loads(captured.out)
    names = sorted(row["strategy"] for row in record["ranking"])
    assert names == sorted([str(students / "alice/hog.py"), str(students / "bob/hog.py"),
                            str(students / "carol/strategy.py"), "always_roll:5"])
    reasons = {Path(s["entry"]).parts[-2 if s["entry"].endswith(".py") else -1]: s["reason"]
               for s in record["skipped"]}
    assert set(reasons) == {"dave", "eve"}
    assert "no .py file here defines final_strategy" in reasons["dave"]
    assert "did not finish within 1 s" in reasons["eve"]
    assert "helpers.py" not in captured.err and "ucb.py" not in captured.err and "dice.py" not in captured.err
    assert main(args) == 0  # the text says who was left out too (eve's failure now from the cache)
    out = capsys.readouterr().out
    assert f"skipped {students / 'dave'}: no .py file" in out and "eve/hog.py" in out
    # the same students named one folder each (a shell's students/*/)
    assert main(["tournament", *sorted(str(p) for p in students.iterdir()), "always_roll:5", "--goal", "20",
                 "--strategy-timeout", "1", "--json"]) == 0
    captured = capsys.readouterr()
    assert len(json.loads(captured.out)["ranking"]) == 4 and "helpers.py" not in captured.err


def test_a_missing_folder_says_so(capsys):
    assert main(["tournament", "nosuchdir/", "optimal"]) == 2
    assert capsys.readouterr().err == "error: nosuchdir/: no such file or folder\n"
