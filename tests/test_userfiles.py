"""A student's own code, safely: isolated, time-limited, deterministic, validated.

Every case uses real files in a temporary folder, as a student or the
course staff would have them.
"""
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Tuple

import numpy as np
import pytest

import hogsolve.strategy.optimal_bot as player
from hogsolve import Policy, as_policy, best_response, get_rules, win_rate
from hogsolve.strategy.policy import StrategyError
from hogsolve.cli import main
from hogsolve.strategy.optimal_bot import PlayerWarning, optimal_strategy
from hogsolve.strategy.specs import StrategySpecError, load_strategy
from hogsolve.util.files import grid_csv
from shipped import copy_shipped

ROOT = Path(__file__).resolve().parent.parent
su18 = get_rules("su18")


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HOGSOLVE_CACHE", str(tmp_path / "cache"))


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def two_students(root: Path):
    for who, dice in (("alice", 2), ("bob", 7)):
        write(root / who / "entry.py", "from hog import final_strategy\n")
        write(root / who / "hog.py", f"def final_strategy(score, opponent_score):\n    return {dice}\n")
    return f"{root}/alice/entry.py:final_strategy", f"{root}/bob/entry.py:final_strategy"


#: The line every verb prints when a student's folder names no semester (tests/test_semester_from_folder.py
#: checks it); these tests' folders have no ok file, and their one-line errors are what they check.
ASSUMED = "note: no course .ok file"


def cli(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, "".join(line for line in err.splitlines(True) if not line.startswith(ASSUMED))


def test_same_helper_name_in_two_folders(tmp_path, capsys):
    """Each student's own hog.py: Alice always rolls 2, Bob 7, and the win rate is the one a
    plain recursion in fractions gives for those two strategies."""
    from reference import recursive_win_rate
    alice, bob = two_students(tmp_path)
    rules = get_rules("su18").replace(goal=40)
    first, second = recursive_win_rate(rules, np.full((40, 40), 2), np.full((40, 40), 7))
    expected = float((first + second) / 2)
    code, out, err = cli(capsys, "compare", alice, bob, "--goal", "40")
    assert code == 0, out + err
    assert out.split("average:")[1].split()[0] == f"{expected:.12f}"
    code, out, _ = cli(capsys, "tournament", alice, bob, "--json", "--goal", "40")
    ranking = {r["strategy"]: r for r in json.loads(out)["ranking"]}
    assert ranking[bob]["win_rates"][alice] == pytest.approx(1 - expected, abs=1e-12)
    # and nothing of theirs leaked into this process
    assert "hog" not in sys.modules and "entry" not in sys.modules


def test_a_loop_stops_within_the_limit(tmp_path, capsys):
    f = write(tmp_path / "loop.py", "def final_strategy(score, opponent_score):\n"
                                    "    if score == 3 and opponent_score == 4:\n"
                                    "        while True:\n            pass\n"
                                    "    return 4\n")
    start = time.monotonic()
    code, out, err = cli(capsys, "compare", f"{f}:final_strategy", "optimal", "--strategy-timeout", "2")
    assert time.monotonic() - start < 2 + 10
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert "did not finish within 2 s (stopped at score 3, opponent score 4)" in err


def test_sleep_at_import_stops(tmp_path, capsys):
    f = write(tmp_path / "slow.py", "import time\ntime.sleep(30)\n"
                                    "def final_strategy(s, o):\n    return 1\n")
    code, _, err = cli(capsys, "regret", f"{f}:final_strategy", "--strategy-timeout", "1")
    assert code == 2 and "did not finish within 1 s (stopped while being imported)" in err


def test_printing_never_reaches_the_output(tmp_path, capsys):
    f = write(tmp_path / "chatty.py", "print('hello from import')\n"
                                      "def final_strategy(score, opponent_score):\n"
                                      "    print('thinking', score, opponent_score)\n"
                                      "    return 5\n")
    code, out, err = cli(capsys, "compare", f"{f}:final_strategy", "always_roll:5", "--json")
    assert code == 0
    assert json.loads(out)["exact"]["average"] == pytest.approx(0.5, abs=1e-12)
    assert "printed 20001 lines (hidden; --show-output shows them)" in err
    assert err.count("\n") == 1
    # cached now: nothing runs, nothing printed; --show-output on a fresh file shows lines
    g = write(tmp_path / "other" / "chatty.py", (tmp_path / "chatty.py").read_text().replace("5", "6"))
    code, out, err = cli(capsys, "best-response", f"{g}:final_strategy", "--show-output")
    assert code == 0 and "hello from import" in err and "thinking 0 0" in err


HOSTILE = {
    "exit at import": ("import sys\nsys.exit(0)\n", "called sys.exit(0) while being imported"),
    "os._exit at import": ("import os\nos._exit(3)\n", "exited with code 3 (os._exit?) while being imported"),
    "crash": ("import ctypes\nctypes.string_at(0)\n", "crashed the interpreter (SIGSEGV)"),
    "input": ("name = input('name? ')\n", "EOFError while being imported"),
    "generator exit": ("raise GeneratorExit('odd')\n", "GeneratorExit while being imported: odd"),
    "keyboard interrupt": ("def final_strategy(s, o):\n    raise KeyboardInterrupt\n",
                           "raised KeyboardInterrupt at score 0, opponent score 0"),
    "exit in call": ("def final_strategy(s, o):\n    import sys\n    sys.exit('bye')\n",
                     "called sys.exit('bye') at score 0, opponent score 0"),
    "random": ("import random\ndef final_strategy(s, o):\n    return random.randrange(11)\n",
               "is not a function of the scores: it returned"),
    "random at import": ("import random\nN = random.randrange(11)\ndef final_strategy(s, o):\n    return N\n",
                         "is not a function of the scores: two fresh runs chose"),
    "float": ("def final_strategy(s, o):\n    return 3.0\n",
              "returned 3.0 at score 0, opponent score 0; expected an int from 0 to 10"),
    "missing helper": ("from dice import six_sided\n",
                       "No module named 'dice' (the course's support file dice.py must sit beside hog.py, in "
                       "its folder)"),
    "no function": ("def final_strategy_v2(s, o):\n    return 1\n", "has no function 'final_strategy'"),
}


def test_an_entry_without_its_project_names_the_file_it_imports(tmp_path, capsys):
    """A contest entry that does `from hog import *` handed in without its hog.py.  Mistake: told
    to add the course's dice.py and ucb.py, which are not what is missing."""
    f = write(tmp_path / "entry.py", "from hog import *\n")
    code, _, err = cli(capsys, "compare", str(f), "optimal", "--rules", "su18")
    assert code == 2
    assert "No module named 'hog' (the file it imports hog.py must sit beside entry.py, in its folder)" in err
    assert "dice.py" not in err


@pytest.mark.parametrize("case", list(HOSTILE))
def test_hostile_files_are_one_line_exit_2(tmp_path, capsys, case):
    text, message = HOSTILE[case]
    if "def final_strategy" not in text:  # the call cases define it themselves
        text += "def final_strategy(score, opponent_score):\n    return 4\n"
    f = write(tmp_path / "hog.py", text)
    code, out, err = cli(capsys, "compare", f"{f}:final_strategy", "optimal", "--json")
    assert code == 2 and out == "", (out, err)
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err
    assert message in err, err
    assert str(f) in err


def test_module_level_argument_parsing_sees_no_hogsolve_arguments(tmp_path, capsys):
    f = write(tmp_path / "hog.py", "import argparse\n"
                                   "parser = argparse.ArgumentParser()\n"
                                   "parser.add_argument('-v', action='store_true')\n"
                                   "args = parser.parse_args()\n"
                                   "import sys\nN = len(sys.argv)\n"
                                   "def final_strategy(score, opponent_score):\n    return N\n")
    code, out, err = cli(capsys, "compare", f"{f}:final_strategy", "always_roll:1", "--json")
    assert code == 0, err
    assert json.loads(out)["exact"]["average"] == pytest.approx(0.5, abs=1e-12)


def test_cache_follows_every_loaded_file(tmp_path, monkeypatch):
    from hogsolve.strategy import userfile
    runs = []
    run = userfile._run

    def counted(*args, **kwargs):
        runs.append(1)  # one run is two fresh processes
        return run(*args, **kwargs)
    monkeypatch.setattr(userfile, "_run", counted)

    class Log:
        def read_text(self):
            return "ran\n" * (2 * len(runs))
    log = Log()
    entry = write(tmp_path / "s" / "entry.py", "from hog import final_strategy\n")
    helper = write(tmp_path / "s" / "hog.py", "def final_strategy(s, o):\n    return 3\n")
    first = load_strategy(f"{entry}:final_strategy", su18)
    again = load_strategy(f"{entry}:final_strategy", su18)
    assert log.read_text().count("ran") == 2  # two fresh runs (random at import shows); the second call: cache
    assert again.source["cached"] and np.array_equal(first.table, again.table)
    assert set(first.source["files"]) == {"entry.py", "hog.py"}
    helper.write_text("def final_strategy(s, o):\n    return 6\n")
    changed = load_strategy(f"{entry}:final_strategy", su18)
    assert log.read_text().count("ran") == 4 and changed(0, 0) == 6
    assert load_strategy(f"{entry}:final_strategy", get_rules("su18", goal=50)).table.shape == (50, 50)


def test_policy_type_is_validated_and_read_only():
    with pytest.raises(StrategyError, match="-1 dice at score 0, opponent score 0"):
        win_rate(np.full((100, 100), -1), optimal_strategy(su18), su18)
    with pytest.raises(StrategyError, match="99 dice"):
        win_rate(np.full((100, 100), 99), optimal_strategy(su18), su18)
    with pytest.raises(StrategyError, match="expected 100x100"):
        as_policy(np.zeros((50, 50), dtype=int), su18)
    with pytest.raises(StrategyError, match="expected integers"):
        as_policy(np.zeros((100, 100)), su18)
    p = as_policy(lambda s, o: 3, su18)
    assert isinstance(p, Policy) and p(5, 5) == 3 and p.source["kind"] == "callable"
    with pytest.raises(ValueError):
        p.table[0, 0] = 4
    with pytest.raises(StrategyError, match="made for su18 at goal 100, not fa18"):
        as_policy(p, get_rules("fa18"))
    calls = []

    def flaky(s, o):
        calls.append(1)
        return len(calls) % 2
    with pytest.raises(StrategyError, match="not deterministic: at score 0, opponent score 0"):
        as_policy(flaky, su18)


def test_best_response_plugs_straight_into_win_rate():
    br = best_response(lambda s, o: 4, su18)
    direct = win_rate(br, lambda s, o: 4, su18)
    assert direct.average == pytest.approx(br.win_rate.average, abs=1e-12)
    assert br(0, 0) == int(br.policy[0, 0])


# ------------------------------------------------------------------- tables --

def table_file(tmp_path, table=None, name="p.csv") -> Path:
    table = np.full((100, 100), 4, dtype=np.int8) if table is None else table
    return Path(write(tmp_path / name, grid_csv(table, str).decode()))


def test_good_table_loads(tmp_path):
    table = np.full((100, 100), 4, dtype=np.int8)
    table[5, 7] = 9
    p = load_strategy(f"table:{table_file(tmp_path, table)}", su18)
    assert p(5, 7) == 9 and p.source["kind"] == "table"


def test_bad_tables_are_refused(tmp_path):
    good = table_file(tmp_path).read_text().splitlines()
    cases = {
        "shuffled": ([good[0]] + good[1:][::-1], "labelled '99', expected 0"),
        "bad header": (["score,0"] + good[1:], "header must be"),
        "20 digits": ([good[0], good[1].replace(",4", ",12345678901234567890", 1)] + good[2:],
                      "holds '12345678901234567890'"),
        "11 dice": ([good[0], good[1].replace(",4", ",11", 1)] + good[2:], "holds '11'"),
        "short": (good[:50], "has 49 rows"),
    }
    for name, (lines, message) in cases.items():
        f = write(tmp_path / name / "p.csv", "\n".join(lines) + "\n")
        with pytest.raises(StrategySpecError, match=message):
            load_strategy(f"table:{f}", su18)


def test_table_meta_checksum_and_odd_files(tmp_path, capsys):
    f = table_file(tmp_path / "signed")
    import hashlib
    digest = hashlib.sha256(f.read_bytes()).hexdigest()
    flipped = digest[:-1] + ("0" if digest[-1] != "0" else "1")
    write(f.with_name("meta.json"), json.dumps({"sha256": {"p.csv": flipped}}))
    with pytest.raises(StrategySpecError, match="does not match its sha256"):
        load_strategy(f"table:{f}", su18)
    fifo = tmp_path / "fifo.csv"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.csv"
    zero.symlink_to("/dev/zero")
    big = write(tmp_path / "big.csv", "x" * 100_000)
    for path, message in ((fifo, "not a regular file"), (zero, "not a regular file"), (big, "too large")):
        start = time.monotonic()
        code, out, err = cli(capsys, "compare", f"table:{path}", "optimal")
        assert code == 2 and message in err and err.count("\n") == 1
        assert time.monotonic() - start < 10


def test_damaged_shipped_tables_fall_back_with_a_warning(tmp_path, monkeypatch):
    shipped = tmp_path / "shipped"
    monkeypatch.setattr(player, "shipped_tables", lambda: shipped)
    meta_cases = {"list": "[]", "null": "null", "no sha": None, "deep": "[" * 30000 + "]" * 30000}
    for name, text in meta_cases.items():
        shutil.rmtree(shipped, ignore_errors=True)
        copy_shipped(shipped, "su18")
        meta = shipped / "su18" / "meta.json"
        if text is None:
            data = json.loads(meta.read_text())
            data["sha256"] = None
            text = json.dumps(data)
        meta.write_text(text)
        with pytest.warns(PlayerWarning, match="cannot use the shipped su18 table"):
            bot = optimal_strategy("su18")
        assert bot(0, 0) == 10, name


def test_re_signed_tables_are_checked_for_range_and_ruleset(tmp_path, monkeypatch):
    from hogsolve.util.files import npy_bytes, sha256
    shipped = copy_shipped(tmp_path / "shipped", "su18")
    monkeypatch.setattr(player, "shipped_tables", lambda: shipped)
    folder = shipped / "su18"
    meta = json.loads((folder / "meta.json").read_text())
    bad = npy_bytes(np.full((100, 100), -1, dtype=np.int8))
    (folder / "policy.npy").write_bytes(bad)
    meta["sha256"]["policy.npy"] = sha256(bad)
    (folder / "meta.json").write_text(json.dumps(meta))
    with pytest.warns(PlayerWarning, match="outside 0..10"):
        assert optimal_strategy("su18")(0, 0) == 10
    # another ruleset's table, correctly signed, under su18's name
    shutil.rmtree(folder)
    shutil.copytree(ROOT / "solutions" / "fa18", folder)
    with pytest.warns(PlayerWarning, match="holds fa18"):
        assert optimal_strategy("su18")(0, 0) == 10


def test_damaged_action_values_found_at_load(tmp_path, monkeypatch):
    shipped = copy_shipped(tmp_path / "shipped", "fa18")
    monkeypatch.setattr(player, "shipped_tables", lambda: shipped)
    data = bytearray((shipped / "fa18" / "action_values.npy").read_bytes())
    data[-5] ^= 0xFF
    (shipped / "fa18" / "action_values.npy").write_bytes(bytes(data))
    with pytest.warns(PlayerWarning, match="action_values.npy does not match"):
        optimal_strategy("fa18")


# --------------------------------------------------------------------- help --

def test_spec_help_lists_every_form(capsys):
    for verb in ("compare", "best-response", "regret", "tournament"):
        with pytest.raises(SystemExit):
            main([verb, "--help"])
        out = " ".join(capsys.readouterr().out.split())
        for form in ("optimal", "always_roll:N", "bacon:MARGIN:N", "swap:MARGIN:N", "random:SEED",
                     "FILE.py:FUNCTION", "table:PATH.csv", "--strategy-timeout", "--show-output"):
            assert form in out, (verb, form)


def test_a_bare_file_is_its_final_strategy(tmp_path, capsys):
    """`compare hog.py optimal`, as students.md quotes it and as `lab` and `tournament` take a
    file.  Mistake: a bare file refused, or another function than final_strategy taken."""
    f = write(tmp_path / "hog.py", "def final_strategy(s, o):\n    return 4\n\ndef other(s, o):\n    return 9\n")
    bare = cli(capsys, "compare", str(f), "always_roll:4", "--goal", "30")
    named = cli(capsys, "compare", f"{f}:final_strategy", "always_roll:4", "--goal", "30")
    assert bare[0] == named[0] == 0
    assert bare[1].split("average:")[1].split()[0] == "0.500000000000" == named[1].split("average:")[1].split()[0]


def test_python_callables_stay_in_process():
    seen = []

    def mine(score, opponent_score):
        seen.append(os.getpid())
        return 4
    assert win_rate(mine, lambda s, o: 4, su18).average == pytest.approx(0.5, abs=1e-12)
    assert set(seen) == {os.getpid()}


@pytest.mark.parametrize("source, message", [
    ("raise MemoryError\n", "ran out of memory while being imported"),
    ("def final_strategy(score, opponent_score):\n    raise ValueError()\n",
     "raised ValueError at score 0, opponent score 0"),
])
def test_messages_without_a_reason_read_well(tmp_path, capsys, source, message):
    """An exception with no message is named alone (no dangling ': '); states read 'opponent score'."""
    path = tmp_path / "hog.py"
    path.write_text(source)
    code, out, err = cli(capsys, "compare", f"{path}:final_strategy", "optimal", "--goal", "20")
    assert code == 2 and message in err and err.count("\n") == 1
    assert ": ;" not in err and not err.rstrip().endswith(":") and "opponent_score" not in err


@pytest.mark.slow  # kept out of the default tier for its time; CI runs the slow tier
def test_a_failure_is_cached_by_content_like_a_table(tmp_path, capsys):
    """A looping file's time limit is paid once; an unchanged rerun fails at once from the
    cache; --retry-failed, a longer limit or a changed file (or helper) runs it again."""
    f = write(tmp_path / "loop.py", "def final_strategy(score, opponent_score):\n    while True:\n        pass\n")
    args = ["compare", f"{f}:final_strategy", "always_roll:4", "--strategy-timeout", "0.5"]
    code, _, err = cli(capsys, *args)
    assert code == 2 and "did not finish within 0.5 s" in err and "(cached" not in err
    code, _, err = cli(capsys, *args)
    assert code == 2 and "did not finish within 0.5 s" in err and "(cached" in err and "--retry-failed" in err
    assert err.count("\n") == 1
    code, _, err = cli(capsys, *args, "--retry-failed")
    assert code == 2 and "did not finish within 0.5 s" in err and "(cached" not in err
    code, _, err = cli(capsys, *args[:-1], "1")  # a longer limit than the one it hit: run again
    assert code == 2 and "within 1 s" in err and "(cached" not in err
    write(tmp_path / "helper.py", "X = 1\n")  # anything changed beside it: run again
    code, _, err = cli(capsys, *args)
    assert code == 2 and "(cached" not in err


def test_captured_output_is_kept_with_the_cached_table(tmp_path, capsys):
    f = write(tmp_path / "talk.py", "def final_strategy(score, opponent_score):\n    print('thinking')\n"
                                    "    return 4\n")
    code, _, err = cli(capsys, "compare", f"{f}:final_strategy", "always_roll:4", "--goal", "10", "--show-output")
    assert code == 0 and "printed 200 lines (below)" in err and "thinking" in err and "hidden" not in err
    code, _, err = cli(capsys, "compare", f"{f}:final_strategy", "always_roll:4", "--goal", "10", "--show-output")
    assert code == 0 and "printed 200 lines (below)" in err and "thinking" in err  # from the cache
    code, _, err = cli(capsys, "compare", f"{f}:final_strategy", "always_roll:4", "--goal", "10")
    assert "printed 200 lines (hidden; --show-output shows them)" in err and "thinking" not in err


def test_a_student_file_runs_in_its_folder_with_two_hash_seeds_and_its_stderr_kept(tmp_path):
    """Mistakes in the sandbox's start: the child run in the caller's folder (a file that reads
    its data beside it fails), its stderr not captured (a warning the student printed lost), or
    both runs given one hash seed, so that a strategy that depends on the order of a set of
    strings (it changes from run to run) passes as exact.  Where it first differs comes from
    two separate interpreters with the seeds the two runs use (1 and 2)."""
    import subprocess

    from hogsolve.strategy.userfile import UserFileError, tabulate_file
    seeded = [json.loads(subprocess.run([sys.executable, "-c", "print([hash(f'hog{o}') % 11 for o in range(100)])"],
                                        capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": seed},
                                        check=True).stdout) for seed in ("1", "2")]
    first = next(o for o in range(100) if seeded[0][o] != seeded[1][o])
    write(tmp_path / "student" / "rolls.txt", "3\n")
    path = write(tmp_path / "student" / "hog.py",
                 "import sys\n"
                 "BASE = int(open('rolls.txt').read())  # beside the file, by a relative path\n"
                 "print('reading my notes', file=sys.stderr)\n"
                 "def final_strategy(score, opponent_score):\n"
                 "    return BASE\n")
    hashing = write(tmp_path / "student" / "hashing.py",
                    "def final_strategy(score, opponent_score):\n"
                    "    return BASE if score else hash(f'hog{opponent_score}') % 11\nBASE = 3\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    here = os.getcwd()
    os.chdir(elsewhere)
    try:
        policy, captured = tabulate_file(str(path), "final_strategy", get_rules("su18"), use_cache=False)
        with pytest.raises(UserFileError, match=rf"two fresh runs chose {seeded[0][first]} and then "
                                                rf"{seeded[1][first]} at score 0, opponent score {first};"):
            tabulate_file(str(hashing), "final_strategy", get_rules("su18"), use_cache=False)
    finally:
        os.chdir(here)
    assert int(policy.table[7, 5]) == 3 and (policy.table == 3).all()
    assert captured is not None and "reading my notes" in captured.text
    assert policy.name == f"{path}:final_strategy"
    cache = tmp_path / "cache"
    assert not cache.exists() or not any(cache.rglob("*.json"))  # use_cache=False: nothing stored


def test_a_cached_failure_is_run_again_once_a_missing_helper_appears(tmp_path):
    """Mistake: a failure cached against no helpers (the folder's ``*.py`` not hashed), so a
    student who adds the missing helper keeps getting the old error from the cache."""
    from hogsolve.strategy.userfile import UserFileError, tabulate_file
    path = write(tmp_path / "student" / "hog.py", "from helper import DICE\n"
                                                 "def final_strategy(score, opponent_score):\n"
                                                 "    return DICE\n")
    rules = get_rules("su18")
    with pytest.raises(UserFileError, match="helper"):
        tabulate_file(str(path), "final_strategy", rules)
    with pytest.raises(UserFileError, match=r"helper.*\(cached"):  # the same failure, from the cache by default
        tabulate_file(str(path), "final_strategy", rules)
    write(tmp_path / "student" / "helper.py", "DICE = 6\n")
    policy, _ = tabulate_file(str(path), "final_strategy", rules)
    assert int(policy.table.min()) == int(policy.table.max()) == 6


def test_work_folders_left_by_dead_processes_are_removed_and_no_others(tmp_path, monkeypatch):
    """Mistakes in the clean-up of folders a killed hogsolve left: a dead process's folder kept,
    a live process's (or our own) removed, a name that is not a PID read as one, a new folder
    not named with this process's PID (then nobody could tell whose it is), a name that cannot
    be removed (a symbolic link, or one another hogsolve removes first) stopping the run."""
    import tempfile

    from hogsolve.strategy.userfile import _work_folder
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    dead, mine, live, odd = (tmp_path / f"hogsolve-{name}" for name in
                             ("99999999-ab12cd", f"{os.getpid()}-ef34gh", f"{os.getppid()}-ij56kl", "12a-mn78op"))
    for folder in (dead, mine, live, odd):
        folder.mkdir()
    (tmp_path / "hogsolve-99999998-qr90st").symlink_to(live)  # rmtree refuses a link
    work = _work_folder()
    try:
        assert not dead.exists() and mine.exists() and live.exists() and odd.exists()
        assert Path(work.name).name.startswith(f"hogsolve-{os.getpid()}-") and Path(work.name).parent == tmp_path
    finally:
        work.cleanup()


def test_a_student_file_reads_an_empty_stdin_not_ours(tmp_path):
    """Mistake: the child inheriting hogsolve's stdin (a strategy that calls ``input()`` then
    waits on the user's terminal, or reads what was piped to hogsolve).  Here hogsolve's own
    stdin holds a line; the file must see end of input instead."""
    from hogsolve.strategy.userfile import tabulate_file
    path = write(tmp_path / "hog.py", "import sys\n"
                                      "HEARD = sys.stdin.read()\n"
                                      "def final_strategy(score, opponent_score):\n"
                                      "    return 5 if HEARD else 2\n")
    read_end, write_end = os.pipe()
    os.write(write_end, b"7\n")
    os.close(write_end)
    saved = os.dup(0)
    os.dup2(read_end, 0)
    os.close(read_end)
    try:
        policy, _ = tabulate_file(str(path), "final_strategy", get_rules("su18"), use_cache=False)
    finally:
        os.dup2(saved, 0)
        os.close(saved)
    assert int(policy.table.min()) == int(policy.table.max()) == 2


def test_a_student_process_starts_with_its_limits_fixed_and_death_tied_to_ours(tmp_path, monkeypatch):
    """What the child (``limit_self``) sets before the student's code runs, read by the student's own
    code: the output cap (RLIMIT_FSIZE) and the memory cap (RLIMIT_AS), each with a hard limit
    equal to the soft one (else the file could lift its own cap), and the parent-death signal
    SIGKILL (so a hogsolve killed outright takes the student's process with it).  Mistakes: a
    limit on the wrong resource or of the wrong size, a hard limit left higher, no death signal,
    no session of its own (then the watcher's kill of its group would take hogsolve too)."""
    import ctypes
    import resource
    import signal

    from hogsolve.strategy.userfile import OUTPUT_LIMIT, tabulate_file
    assert ctypes.CDLL(None).prctl  # Linux, as CI
    monkeypatch.setenv("HOGSOLVE_SANDBOX", "off")  # the file reads its limits through ctypes, which the walls refuse
    path = write(tmp_path / "hog.py", "import ctypes, os, resource\n"
                                      "sig = ctypes.c_int(-1)\n"
                                      "ctypes.CDLL(None).prctl(2, ctypes.byref(sig))  # PR_GET_PDEATHSIG\n"
                                      "print(resource.getrlimit(resource.RLIMIT_FSIZE), "
                                      "resource.getrlimit(resource.RLIMIT_AS), sig.value, "
                                      "os.getsid(0) == os.getpid())\n"
                                      "def final_strategy(score, opponent_score):\n"
                                      "    return 4\n")
    _, captured = tabulate_file(str(path), "final_strategy", get_rules("su18"), use_cache=False, memory_mb=1500)
    cap = 1500 * 2 ** 20
    assert captured is not None and captured.text == \
        f"({OUTPUT_LIMIT}, {OUTPUT_LIMIT}) ({cap}, {cap}) {int(signal.SIGKILL)} True"
    _, captured = tabulate_file(str(path), "final_strategy", get_rules("su18"), use_cache=False, memory_mb=0)
    unlimited = resource.getrlimit(resource.RLIMIT_AS)  # as ours
    assert captured.text == f"({OUTPUT_LIMIT}, {OUTPUT_LIMIT}) {unlimited} {int(signal.SIGKILL)} True"  # 0: no cap


def test_a_file_that_exits_is_cached_as_failed_like_any_other_failure(tmp_path):
    """Mistake: a failure with no report from the child (an exit, a crash, a time-out) taken as
    uncacheable, so every rerun pays for it again.  The message names the code and where."""
    from hogsolve.strategy.userfile import UserFileError, tabulate_file
    path = write(tmp_path / "hog.py", "import os\nos._exit(3)\n")
    rules = get_rules("su18")
    with pytest.raises(UserFileError, match=r"^\S+hog.py:final_strategy exited with code 3 \(os._exit\?\) "
                                            r"while being imported$"):
        tabulate_file(str(path), "final_strategy", rules)
    with pytest.raises(UserFileError, match=r"exited with code 3 .*\(cached: the file is unchanged"):
        tabulate_file(str(path), "final_strategy", rules)


@pytest.mark.parametrize("source, words", [
    ("raise ValueError('bad')\n", "ValueError while being imported: bad"),
    ("def final_strategy(score, opponent_score):\n    raise ValueError('bad')\n",
     "raised ValueError: bad at score 0, opponent score 0"),
    ("x = 1\n", "has no function 'final_strategy'"),
    ("import os\nos._exit(0)\n", "exited with code 0 (os._exit?) while being imported"),
    # Python ignores SIGXFSZ; a file that restores it is killed by the kernel at the output cap
    ("import os, signal\nsignal.signal(signal.SIGXFSZ, signal.SIG_DFL)\n"
     "while True:\n    os.write(1, b'x' * 2 ** 20)\n", "printed more than 64 MB while being imported"),
], ids=["at import", "in a call", "no function", "exit 0", "killed at the output cap"])
def test_a_failure_is_reported_in_exactly_these_words(tmp_path, source, words):
    """Mistakes in the failure messages put together here: the file's label missing, a place
    or a hint that is not there printed as text ("None", an empty place), an exit with code 0
    read as a signal, the output cap given in the wrong unit; and a failure stored although
    the cache was not to be used."""
    from hogsolve.strategy.userfile import UserFileError, cache_dir, tabulate_file
    path = write(tmp_path / "hog.py", source)
    with pytest.raises(UserFileError) as failure:
        tabulate_file(str(path), "final_strategy", get_rules("su18"), use_cache=False)
    assert str(failure.value) == f"{path}:final_strategy {words}"
    assert not cache_dir().exists() or not any(cache_dir().iterdir())


def test_a_time_out_is_cached_with_its_limit(tmp_path):
    """Mistake: a time-out cached without the limit it hit, so a longer limit replays it from
    the cache instead of running the file again; ``retry_failed`` not passed on; the message
    without the file's label."""
    from hogsolve.strategy.userfile import UserFileError, tabulate_file
    path = write(tmp_path / "hog.py", "def final_strategy(score, opponent_score):\n    while True:\n        pass\n")
    rules = get_rules("su18", goal=10)
    label = f"{path}:final_strategy"
    with pytest.raises(UserFileError, match=rf"^{label} did not finish within 0.3 s \(stopped at score 0, "
                                            r"opponent score 0\); a strategy that loops never finishes, but a "
                                            r"correct slow one only needs longer: --strategy-timeout SECONDS "
                                            r"gives it more time$"):
        tabulate_file(str(path), "final_strategy", rules, timeout=0.3)
    with pytest.raises(UserFileError, match=r"within 0.3 s .*\(cached"):
        tabulate_file(str(path), "final_strategy", rules, timeout=0.3)
    with pytest.raises(UserFileError, match=r"within 0.3 s \(stopped at score 0, opponent score 0\); a strategy"):
        tabulate_file(str(path), "final_strategy", rules, timeout=0.3, retry_failed=True)  # run again
    with pytest.raises(UserFileError, match=rf"^{label} did not finish within 0.6 s \(stopped at score 0, "
                                            r"opponent score 0\); a strategy"):  # a longer limit: run again
        tabulate_file(str(path), "final_strategy", rules, timeout=0.6)


def test_a_failure_is_cached_against_the_data_it_read_and_not_when_it_listed_a_folder(tmp_path):
    """Mistakes: a failure cached without the files the child saw it read (a data file beside it
    is mended, and the old failure comes back from the cache), a time-out (which reports
    nothing) cached against the helpers beside it only, or a failure cached although the file
    listed a folder (what it would read next is unknown)."""
    from hogsolve.strategy.userfile import UserFileError, tabulate_file
    rules = get_rules("su18", goal=10)
    data = write(tmp_path / "reads" / "data" / "dice.txt", "bad\n")  # not beside it: only the child knows
    path = write(tmp_path / "reads" / "hog.py", "DICE = int(open('data/dice.txt').read())\n"
                                                "def final_strategy(score, opponent_score):\n    return DICE\n")
    with pytest.raises(UserFileError, match="ValueError while being imported"):
        tabulate_file(str(path), "final_strategy", rules)
    data.write_text("6\n")
    policy, _ = tabulate_file(str(path), "final_strategy", rules)
    assert int(policy.table.min()) == int(policy.table.max()) == 6
    mode = write(tmp_path / "loops" / "mode.txt", "loop")
    loops = write(tmp_path / "loops" / "hog.py", "while open('mode.txt').read() == 'loop':\n    pass\n"
                                                 "def final_strategy(score, opponent_score):\n    return 5\n")
    with pytest.raises(UserFileError, match="did not finish within 0.3 s"):
        tabulate_file(str(loops), "final_strategy", rules, timeout=0.3)
    mode.write_text("play")
    policy, _ = tabulate_file(str(loops), "final_strategy", rules, timeout=0.3)
    assert int(policy.table.min()) == 5
    lists = write(tmp_path / "lists" / "hog.py", "import os\nFILES = os.listdir('.')\n"
                                                 "def final_strategy(score, opponent_score):\n"
                                                 "    raise ValueError(len(FILES))\n")
    for _ in range(2):
        with pytest.raises(UserFileError) as failure:
            tabulate_file(str(lists), "final_strategy", rules)
        assert "raised ValueError: 1 at score 0" in str(failure.value) and "(cached" not in str(failure.value)


def test_a_hogsolve_killed_outright_takes_the_students_whole_process_group_with_it(tmp_path):
    """Mistake: no watcher in the student's process group, so a hogsolve killed with SIGKILL (no
    clean-up runs) leaves what the file started running for ever.  The student's own process
    also has a parent-death signal; the grandchild it starts has only the watcher.  The file
    runs in two interpreters at once (the check that it is a function of the scores): each
    writes its own record (one shared file raced: one run truncated it as the test read it)."""
    import signal
    import subprocess

    records = tmp_path / "records"
    records.mkdir()
    path = write(tmp_path / "hog.py", "import os, subprocess, sys, time\n"
                                      "child = subprocess.Popen([sys.executable, '-c', "
                                      "'import time; time.sleep(60)'])\n"
                                      f"part = os.path.join({str(records)!r}, f'{{os.getpid()}}.part')\n"
                                      "open(part, 'w').write(f'{os.getpid()} {child.pid}')\n"
                                      "os.replace(part, part[:-5] + '.pids')\n"
                                      "while True:\n    time.sleep(0.05)\n")
    runner = subprocess.Popen([sys.executable, "-c", "import sys; from hogsolve import get_rules; "
                               "from hogsolve.strategy.userfile import tabulate_file; "
                               "tabulate_file(sys.argv[1], 'final_strategy', get_rules('su18'), use_cache=False)",
                               str(path)], env={**os.environ, "HOGSOLVE_SANDBOX": "off"})  # a machine without walls

    def pids():
        return [int(pid) for record in records.glob("*.pids") for pid in record.read_text().split()]
    try:
        deadline = time.monotonic() + 30
        while len(pids()) < 4 and time.monotonic() < deadline:  # both runs: each student and its child
            time.sleep(0.05)
        started = pids()
        assert len(started) == 4, started
        os.kill(runner.pid, signal.SIGKILL)
        runner.wait()
        deadline = time.monotonic() + 10
        while not all(_gone(pid) for pid in started) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert all(_gone(pid) for pid in started)
    finally:
        runner.kill()
        for pid in pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def _sleeper(folder: Path) -> Tuple[Path, Path]:
    """A student file that writes its PID, then sleeps at import for longer than any test (the
    tests that use it check the supervision alone, with the walls off: they forbid writing the PID
    where the test can read it)."""
    pid = folder / "pid"
    # written whole, then renamed: the file's two runs never leave it half written (one would
    # truncate it as the test read it)
    return write(folder / "hog.py", f"import os, time\npart = {str(pid)!r} + f'.{{os.getpid()}}'\n"
                                    "open(part, 'w').write(str(os.getpid()))\n"
                                    f"os.replace(part, {str(pid)!r})\n"
                                    "time.sleep(60)\n"), pid


def _gone(pid: int) -> bool:
    import psutil
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def test_a_ctrl_c_while_the_student_starts_stops_it_at_once(tmp_path, monkeypatch):
    """Ctrl-C that lands while the child is being started (after the check before it): the
    child is killed at once and the run ends as interrupted.  Mistake: that kill aimed wrong
    (a TypeError instead, and the sleeper runs on)."""
    from hogsolve.strategy import userfile
    from hogsolve.util.interrupts import Interrupted
    monkeypatch.setenv("HOGSOLVE_SANDBOX", "off")
    path, _ = _sleeper(tmp_path)
    answers = iter([False])  # not yet when the run begins; from then on, yes
    monkeypatch.setattr(userfile, "stopping", lambda: next(answers, True))
    start = time.monotonic()
    with pytest.raises(Interrupted):
        userfile.tabulate_table(str(path), "final_strategy", get_rules("su18"), use_cache=False)
    assert time.monotonic() - start < 20


def test_an_exception_while_waiting_for_the_student_kills_it_before_it_goes_up(tmp_path, monkeypatch):
    """KeyboardInterrupt (or anything) raised while hogsolve waits for the child: the child's
    group is killed and reaped before the exception goes on.  Mistake: the kill skipped or
    aimed wrong, leaving the sleeper running."""
    import subprocess

    from hogsolve.strategy.userfile import tabulate_file
    monkeypatch.setenv("HOGSOLVE_SANDBOX", "off")
    path, pid = _sleeper(tmp_path)
    wait = subprocess.Popen.wait

    def interrupted_wait(self, timeout=None):
        if timeout is not None:  # the supervisor's wait within the time limit
            deadline = time.monotonic() + 20
            while not pid.exists() and time.monotonic() < deadline:
                time.sleep(0.02)
            raise KeyboardInterrupt
        return wait(self)
    monkeypatch.setattr(subprocess.Popen, "wait", interrupted_wait)
    with pytest.raises(KeyboardInterrupt):
        tabulate_file(str(path), "final_strategy", get_rules("su18"), use_cache=False)
    assert _gone(int(pid.read_text()))


def test_a_tabulated_file_says_where_it_came_from(tmp_path):
    """The policy's source names the file, the function and the file's SHA-256 (computed here
    by hashlib), and the helper it loaded.  Mistake: a key or a value of that record wrong."""
    import hashlib

    from hogsolve.strategy.userfile import tabulate_file
    write(tmp_path / "helper.py", "DICE = 5\n")
    path = write(tmp_path / "hog.py", "from helper import DICE\n"
                                      "def final_strategy(score, opponent_score):\n    return DICE\n")
    digest = {name: hashlib.sha256((tmp_path / name).read_bytes()).hexdigest() for name in ("hog.py", "helper.py")}
    expected = {"kind": "file", "file": str(path.resolve()), "function": "final_strategy", "sha256": digest["hog.py"],
                "files": digest}
    policy, _ = tabulate_file(str(path), "final_strategy", get_rules("su18", goal=10))
    assert policy.source == expected
    policy, _ = tabulate_file(str(path), "final_strategy", get_rules("su18", goal=10))
    assert policy.source == {**expected, "cached": True}
    lister = write(tmp_path / "lists" / "hog.py", "import os\nN = len(os.listdir('.'))\n"
                                                  "def final_strategy(score, opponent_score):\n    return N\n")
    policy, _ = tabulate_file(str(lister), "final_strategy", get_rules("su18", goal=10))
    assert policy.source["not_cached"] == "it lists the folder '.'" and "cached" not in policy.source


def test_tabulate_table_replays_a_cached_failure_unless_told_and_names_a_missing_file(tmp_path):
    """tabulate_table's defaults, which the contest and the lab rely on: a failure comes back from
    the cache (no second run); a missing file is named."""
    from hogsolve.strategy.userfile import UserFileError, tabulate_table
    path = write(tmp_path / "hog.py", "raise ValueError('bad')\n")
    rules = get_rules("su18", goal=10)
    for cached in (False, True):
        with pytest.raises(UserFileError) as failure:
            tabulate_table(str(path), "final_strategy", rules)
        assert ("(cached" in str(failure.value)) == cached
    with pytest.raises(UserFileError) as failure:
        tabulate_table(str(tmp_path / "gone.py"), "final_strategy", rules)
    assert str(failure.value) == f"{tmp_path / 'gone.py'}:final_strategy: no such file: {tmp_path / 'gone.py'}"
