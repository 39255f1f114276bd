"""Honest numbers where a user looks: unproven figures marked, identities only where they
hold, endless games refused in the same words, a student cache that cannot lie, and limits
on student code (issue 35's reproductions, each as a test)."""
import io
import os
import sys
import subprocess

import numpy as np
import pytest

from cli_helpers import run_main
from hogsolve import get_rules
from hogsolve.hog.rules import ENDLESS_GAME
from hogsolve.strategy.optimal_bot import optimal_strategy


# --- one rule for unproven results -------------------------------------------------------

def test_an_unproven_policy_is_the_argmax_of_its_values():
    """sp22 without a draw has no value; its unproven table still plays the best of the values
    shown beside it (it played 0 dice, the worst, at the start)."""
    bot = optimal_strategy("sp22", allow_unproven=True)
    assert not bot.proven
    for state in [(0, 0), (20, 33), (72, 75), (50, 50)]:
        values = np.asarray(bot.values_at(state))
        assert values[bot.table[state]] >= values.max() - 2e-8, state
    assert int(bot.table[0, 0]) == 3


def test_the_terminal_hint_of_an_unproven_table_says_so():
    r = run_main("play", "--rules", "sp22", "--allow-unproven", "--seed", "1", stdin="h\nq\n")
    assert r.returncode == 0, r.stderr
    hint = [line for line in r.stdout.splitlines() if "Hint" in line or "dice:" in line]
    assert "3 dice" in hint[0] and "not proven" in hint[0]
    assert all(line.endswith("(not proven)") for line in hint[1:]) and len(hint) == 12
    assert "<- best" in hint[4]  # 3 dice


def test_a_proven_hint_has_no_mark():
    r = run_main("play", "--seed", "1", stdin="h\nq\n")
    assert "Hint: the optimal move is 10 dice" in r.stdout and "not proven" not in r.stdout


def test_regret_prints_its_identity_only_where_it_holds():
    proven = run_main("regret", "always_roll:0", "--rules", "sp22", "--endless", "draw", "--top", "3")
    assert proven.returncode == 0, proven.stderr
    assert "= 1/2 - win rate" in proven.stdout
    win = float(proven.stdout.split("win rate ")[1].split()[0])
    total = float(proven.stdout.split("total expected loss ")[1].split()[0])
    assert abs(total - (0.5 - win)) < 1e-9
    unproven = run_main("regret", "always_roll:4", "--rules", "sp22", "--allow-unproven", "--top", "3")
    assert unproven.returncode == 0, unproven.stderr
    assert "total expected loss" in unproven.stdout and "= 1/2 - win rate" not in unproven.stdout
    assert "(not proven)" in unproven.stdout


def test_regret_lists_no_state_where_the_move_is_the_best():
    from hogsolve.analysis.evaluate import regret
    rules = get_rules("sp22").replace(endless="draw")
    report = regret(optimal_strategy(rules), rules)
    assert report.worst(10) == [] and report.total_expected_loss == 0


@pytest.mark.slow  # kept out of the default tier for its time; CI runs the slow tier
def test_every_refusal_for_an_endless_game_says_so_in_the_same_words():
    for args in (["best-response", "always_roll:0", "--rules", "sp22"],
                 ["regret", "always_roll:0", "--rules", "sp22", "--allow-unproven"],
                 ["compare", "always_roll:0", "always_roll:0", "--rules", "sp22"],
                 ["compare", "optimal", "always_roll:4", "--rules", "sp22"]):
        r = run_main(*args)
        assert r.returncode in (1, 2) and r.stdout == "", (args, r.stdout)
        assert ENDLESS_GAME in r.stderr and "--endless draw" in r.stderr, (args, r.stderr)
        assert len(r.stderr.splitlines()) == 1 and "Traceback" not in r.stderr


def test_compare_names_the_seats_when_the_names_are_the_same():
    r = run_main("compare", "optimal", "optimal")
    assert "optimal (A) moves first: 0.500355039531" in r.stdout
    assert "optimal (B) moves first: 0.499644960469" in r.stdout


# --- a cache that cannot lie -------------------------------------------------------------

READS_WEIGHTS = """import os
from helper import scale
def final_strategy(score, opponent_score):
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "weights.txt")) as f:
        return min(10, scale(int(f.read())))
"""


def average(args, cache):
    r = run_main("compare", *args, "always_roll:5", "--goal", "30")
    assert r.returncode == 0, r.stderr
    return float(r.stdout.split("average:")[1].split()[0])


@pytest.fixture
def student(tmp_path, monkeypatch):
    monkeypatch.setenv("HOGSOLVE_CACHE", str(tmp_path / "cache"))
    (tmp_path / "hog.py").write_text(READS_WEIGHTS)
    (tmp_path / "helper.py").write_text("def scale(x):\n    return x\n")
    (tmp_path / "weights.txt").write_text("5")
    return tmp_path


def test_every_input_of_a_cached_table_is_checked(student, monkeypatch):
    from hogsolve.strategy import userfile
    runs = []
    real = userfile._run
    monkeypatch.setattr(userfile, "_run", lambda *a, **k: runs.append(1) or real(*a, **k))
    spec = [f"{student / 'hog.py'}:final_strategy"]
    assert average(spec, student) == 0.5 and len(runs) == 1
    assert average(spec, student) == 0.5 and len(runs) == 1  # all unchanged: from the cache
    (student / "weights.txt").write_text("3")  # a data file the strategy reads
    assert average(spec, student) != 0.5 and len(runs) == 2
    (student / "weights.txt").write_text("5")
    assert average(spec, student) == 0.5 and len(runs) == 2  # that version is cached too
    (student / "helper.py").write_text("def scale(x):\n    return x - 1\n")  # a helper module
    assert average(spec, student) != 0.5 and len(runs) == 3
    (student / "hog.py").write_text(READS_WEIGHTS + "\n# edited\n")  # the code itself
    average(spec, student)
    assert len(runs) == 4
    r = run_main("compare", *spec, "always_roll:5", "--goal", "31")  # the ruleset
    assert r.returncode == 0 and len(runs) == 5
    for limit in (["--strategy-timeout", "30"], ["--strategy-memory", "1500"]):  # the limits
        r = run_main("compare", *spec, "always_roll:5", "--goal", "31", *limit)
        assert r.returncode == 0, r.stderr
    assert len(runs) == 7


def test_a_strategy_that_lists_a_folder_is_not_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("HOGSOLVE_CACHE", str(tmp_path / "cache"))
    (tmp_path / "ls.py").write_text("import os\ndef final_strategy(s, o):\n    return min(10, len(os.listdir('.')))\n")
    from hogsolve.strategy.userfile import tabulate_file
    _, _ = tabulate_file(str(tmp_path / "ls.py"), "final_strategy", get_rules("su18").replace(goal=20))
    assert not (tmp_path / "cache" / "strategies").exists() or not list((tmp_path / "cache" / "strategies").iterdir())


# --- limits on student code ----------------------------------------------------------------

def student_error(tmp_path, source, *extra):
    (tmp_path / "s.py").write_text(source)
    r = run_main("compare", f"{tmp_path / 's.py'}:final_strategy", "always_roll:4", "--goal", "40", "--rules", "su18",
                 *extra)
    assert r.returncode == 2 and r.stdout == "" and len(r.stderr.splitlines()) == 1, r
    return r.stderr


def test_a_student_over_its_memory_limit_is_one_clear_line(tmp_path, monkeypatch):
    monkeypatch.setenv("HOGSOLVE_CACHE", str(tmp_path / "cache"))
    grows = "kept = []\ndef final_strategy(s, o):\n    kept.append(bytearray(20_000_000))\n    return 4\n"
    err = student_error(tmp_path, grows, "--strategy-memory", "300")
    assert "ran out of memory" in err and "300 MB" in err and "--strategy-memory" in err


def test_a_student_over_its_output_limit_is_one_clear_line(tmp_path, monkeypatch):
    """Writing past the output limit other than by print (os.write on the file) stops the run with
    one line.  Mistake: an OSError's text instead."""
    monkeypatch.setenv("HOGSOLVE_CACHE", str(tmp_path / "cache"))
    from hogsolve.strategy import userfile
    monkeypatch.setattr(userfile, "OUTPUT_LIMIT", 2 ** 20)  # the same check, at 1 MB
    monkeypatch.setattr(userfile, "KEPT_CHARS", 2 ** 18)
    err = student_error(tmp_path, "import sys\ndef final_strategy(s, o):\n    sys.__stdout__.write('x' * 10_000)\n"
                                  "    return 4\n")
    assert "printed more than 1 MB (its output limit)" in err and "OSError" not in err


def test_a_strategy_that_prints_on_every_call_is_cut_not_stopped(tmp_path, monkeypatch):
    """print() on every call (ten lines a state here, past the 1 MB limit of this test) keeps its
    first lines and its figure; the note counts every line.  Mistake: such a strategy disqualified
    ("printed more than 1 MB"), or its lines counted from the cut file only."""
    monkeypatch.setenv("HOGSOLVE_CACHE", str(tmp_path / "cache"))
    from hogsolve.strategy import userfile
    monkeypatch.setattr(userfile, "OUTPUT_LIMIT", 2 ** 20)
    monkeypatch.setattr(userfile, "KEPT_CHARS", 2 ** 18)
    (tmp_path / "s.py").write_text("def final_strategy(s, o):\n    for k in range(10):\n"
                                   "        print('x' * 100, s, o, k)\n    return 4\n")
    r = run_main("compare", f"{tmp_path / 's.py'}:final_strategy", "always_roll:4", "--rules", "su18")
    assert r.returncode == 0 and r.stdout.split("average:")[1].split()[0] == "0.500000000000"
    assert r.stderr == (f"note: {tmp_path / 's.py'}:final_strategy printed 200000 lines (hidden; --show-output "
                        "shows them)\n")


def test_a_strategy_of_the_wrong_signature_names_the_accepted_ones(tmp_path, monkeypatch):
    monkeypatch.setenv("HOGSOLVE_CACHE", str(tmp_path / "cache"))
    err = student_error(tmp_path, "def final_strategy(score, opponent_score, mine, theirs):\n    return 4\n")
    assert "f(score, opponent_score)" in err and "TypeError" not in err


# --- bad input, one clean line ----------------------------------------------------------

@pytest.mark.parametrize("args", [["solve", "--rules-file", "PATH"], ["sweep", "PATH"]])
@pytest.mark.parametrize("kind", ["device", "fifo", "huge"])
def test_a_file_argument_must_be_a_small_regular_file(tmp_path, args, kind):
    if kind == "device":
        path = "/dev/zero"
    elif kind == "fifo":
        path = str(tmp_path / "fifo")
        os.mkfifo(path)
    else:
        path = str(tmp_path / "huge.toml")
        with open(path, "w") as f:
            f.write("# " + "x" * 2_000_000 + "\n")
    r = run_main(*[path if a == "PATH" else a for a in args])
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r
    assert {"device": "a device", "fifo": "a FIFO", "huge": "larger than"}[kind] in r.stderr


@pytest.mark.parametrize("name", ["two\\nlines", "a\\u202eb"])
def test_a_rule_file_name_must_print_as_one_plain_line(tmp_path, name):
    (tmp_path / "r.toml").write_text(f'name = "{name}"\nfree_bacon = "bacon_larger_digit"\n')
    r = run_main("solve", "--rules-file", str(tmp_path / "r.toml"))
    assert r.returncode == 2 and "name: expected printable text" in r.stderr
    assert "\u202e" not in r.stderr and len(r.stderr.splitlines()) == 1


def test_toml_and_json_together_are_refused():
    r = run_main("rules", "--show", "su18", "--toml", "--json")
    assert r.returncode == 2 and "not both" in r.stderr


def test_help_prints_in_an_ascii_terminal():
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    done = subprocess.run([sys.executable, "-m", "hogsolve", "sibala", "--help"], env=env, capture_output=True,
                          text=True, encoding="ascii", errors="replace", timeout=60)
    assert done.returncode == 0 and "Traceback" not in done.stderr and "Sibala" in done.stdout


def test_students_and_each_student_folder_enter_the_same_strategies(tmp_path):
    from hogsolve.contest.entries import find_entries
    students = tmp_path / "students"
    for who in ("ann", "ben"):
        (students / who).mkdir(parents=True)
        (students / who / "hog.py").write_text("def final_strategy(s, o):\n    return 4\n")
    (students / "ann" / "hog_old.py").write_text("def final_strategy(s, o):\n    return 5\n")
    (students / "ben" / "dice.py").write_text("def roll():\n    return 1\n")
    whole, skipped_whole = find_entries([str(students)])
    each, skipped_each = find_entries([str(students / "ann"), str(students / "ben")])
    assert [e[0] for e in whole] == [e[0] for e in each] == [str(students / w / "hog.py") for w in ("ann", "ben")]
    assert skipped_whole == skipped_each and skipped_whole[0][0] == str(students / "ann" / "hog_old.py")


def test_a_long_sweep_says_it_is_alive_in_a_log():
    from hogsolve.util.progress import progress
    ticks = iter(range(0, 1000, 20))
    stream = io.StringIO()
    out = list(progress(range(10), 10, "sweep", stream=stream, plain_every=30.0, clock=lambda: next(ticks)))
    assert out == list(range(10))
    lines = stream.getvalue().splitlines()
    assert lines and all(line.startswith("sweep: ") and " done, about " in line and line.endswith(" left")
                         for line in lines)  # how far, and how long to go
    assert len(lines) < 10  # at most every 30 s, not every item
