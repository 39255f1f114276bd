"""The student sandbox's cache and captured output, each promise checked where it is kept (the
survivors of mutmut's run of strategy/userfile.py: the cache's place, its cap, its de-duplication,
a corrupt cache, the lines kept of what a file printed)."""
import json

import pytest

from hogsolve import get_rules
from hogsolve.strategy import userfile
from hogsolve.strategy.userfile import KEPT_LINES, UserFileError, _cached, _read_output, _store, cache_dir, file_spec


def test_the_cache_lives_under_the_users_cache_folder_unless_told(monkeypatch, tmp_path):
    monkeypatch.delenv("HOGSOLVE_CACHE", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert cache_dir() == tmp_path / ".cache" / "hogsolve" / "strategies"  # as the students' guide says
    monkeypatch.setenv("HOGSOLVE_CACHE", str(tmp_path / "elsewhere"))
    assert cache_dir() == tmp_path / "elsewhere" / "strategies"


@pytest.fixture
def student(monkeypatch, tmp_path):
    monkeypatch.setenv("HOGSOLVE_CACHE", str(tmp_path / "cache"))
    file = tmp_path / "hog.py"
    file.write_text("def final_strategy(score, opponent_score):\n    return 4\n")
    return file


def records_of(file, rules):
    return json.loads(userfile._cache_path(file, "final_strategy", rules).read_text())["records"]


def test_the_cache_keeps_the_sixteen_newest_records_one_per_set_of_files(student):
    rules = get_rules("su18")
    for n in range(20):  # twenty versions of a helper beside it
        _store(student, "final_strategy", rules, {"files": {"helper.py": f"digest {n}"}, "table": [n]})
    records = records_of(student, rules)
    assert [r["table"] for r in records] == [[n] for n in range(4, 20)]  # 15 kept, then the new one
    _store(student, "final_strategy", rules, {"files": {"helper.py": "digest 7"}, "table": ["again"]})
    records = records_of(student, rules)
    assert [r["table"] for r in records if r["files"] == {"helper.py": "digest 7"}] == [["again"]]
    assert len(records) == 16 and records[-1]["table"] == ["again"]


def test_a_corrupt_cache_file_is_replaced_not_fatal(student):
    rules = get_rules("su18")
    path = userfile._cache_path(student, "final_strategy", rules)
    path.parent.mkdir(parents=True)
    for junk in ("not json", '{"records": 5}', '{"other": []}', "[1, 2]"):
        path.write_text(junk)
        assert _cached(student, "final_strategy", rules) is None
        _store(student, "final_strategy", rules, {"files": {}, "table": [1]})
        assert records_of(student, rules) == [{"files": {}, "table": [1]}], junk
    # a record whose files are all unchanged is the one found (here: none but the file itself)
    assert _cached(student, "final_strategy", rules) == {"files": {}, "table": [1]}


def test_a_record_whose_file_is_gone_is_passed_over_for_an_older_one(student):
    """Mistake: a missing file read as a match (``or`` for ``and``), or its absence ending the
    search, so the older record made without that helper is never found."""
    rules = get_rules("su18")
    _store(student, "final_strategy", rules, {"files": {}, "table": ["without"]})
    helper = student.parent / "helper.py"
    helper.write_text("DICE = 3\n")
    _store(student, "final_strategy", rules, {"files": {"helper.py": userfile._sha256(helper)}, "table": ["with"]})
    assert _cached(student, "final_strategy", rules)["table"] == ["with"]
    helper.write_text("DICE = 4\n")  # changed: the newer record no longer matches
    assert _cached(student, "final_strategy", rules)["table"] == ["without"]
    helper.unlink()  # gone: likewise
    assert _cached(student, "final_strategy", rules)["table"] == ["without"]


@pytest.mark.parametrize("phase, s, o, words", [
    (0, 0, 0, "before it started"), (1, 0, 0, "while being imported"), (2, 31, 45, "at score 31, opponent score 45"),
    (4, 5, 7, "at the observation of score 5, opponent score 7")])
def test_where_a_stopped_child_was_is_read_from_its_progress_record(tmp_path, phase, s, o, words):
    """The progress record is three little-endian int32 (phase, score, opponent score); a child
    killed before it wrote one (the interpreter failed to start) leaves zeros."""
    import struct
    progress = tmp_path / "progress"
    progress.write_bytes(struct.pack("<iii", phase, s, o))
    assert userfile._where(progress) == words


def test_the_first_lines_printed_are_kept_as_printed(tmp_path):
    out, err = tmp_path / "stdout", tmp_path / "stderr"
    lines = [f"line {n}  ".encode() for n in range(KEPT_LINES + 5)]
    out.write_bytes(b"\n".join(lines[:3]) + b"\nTAX\n")
    err.write_bytes(b"caf\xc3\xa9 \xff\n" + b"\n".join(lines[3:]) + b"\n")
    captured = _read_output([out, err])
    assert captured.lines == KEPT_LINES + 7  # every line counted
    kept = captured.text.split("\n")
    assert len(kept) == KEPT_LINES  # the first KEPT_LINES kept, no more
    assert kept[:3] == ["line 0  ", "line 1  ", "line 2  "]  # trailing spaces as printed, only the newline gone
    assert kept[3] == "TAX"  # the newline stripped, nothing else
    assert kept[4] == "café \ufffd"  # UTF-8 read as such; a byte that is not becomes the replacement mark


def test_a_bad_function_name_is_named_in_the_message():
    with pytest.raises(UserFileError, match=r"bad strategy 'hog.py:no-name': 'no-name' is not a function name"):
        file_spec("hog.py:no-name")


def test_a_record_of_an_older_hogsolve_without_limits_is_run_again_not_trusted(student):
    """A cache record made before limits were recorded (no ``limits``, ``lines`` or ``text``):
    neither its table nor its failure is trusted, and reading it does not crash."""
    from hogsolve.strategy.userfile import tabulate_file
    rules = get_rules("su18", goal=10)
    for old in ({"files": {}, "table": [7] * 100}, {"files": {}, "failed": "an old failure", "timeout": None}):
        path = userfile._cache_path(student, "final_strategy", rules)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"records": [old]}))
        policy, _ = tabulate_file(str(student), "final_strategy", rules)
        assert int(policy.table.min()) == int(policy.table.max()) == 4  # the file's own answer


# --- a file saved while it runs (the cache is keyed on the bytes that ran) -------------------------

def _when_both_runs_call(then, timeout=30.0):
    """A thread that waits until both of this process's student runs are calling the strategy (their
    progress files say so), then calls ``then()``."""
    import glob
    import os
    import struct
    import tempfile
    import threading
    import time

    def watch():
        deadline = time.monotonic() + timeout
        pattern = os.path.join(tempfile.gettempdir(), f"{userfile.WORK_PREFIX}{os.getpid()}-*", "run*", "progress")
        while time.monotonic() < deadline:
            phases = []
            for path in glob.glob(pattern):
                try:
                    phases.append(struct.unpack("<iii", open(path, "rb").read()[:12])[0])
                except (OSError, struct.error):
                    pass
            if len(phases) == 2 and all(phase == 2 for phase in phases):
                break
            time.sleep(0.01)
        then()
    thread = threading.Thread(target=watch)
    thread.start()
    return thread


def test_a_file_saved_while_it_runs_gives_the_new_figure_and_the_old_one_is_not_cached(tmp_path, monkeypatch):
    """The student saves `return 5` while `return 4` is being tabulated (the runs wait at the first
    state until the save).  Mistake (the bug students met): the key taken from the files as they
    are when the run ends, so the new file's key held the old file's table, printed for ever after."""
    monkeypatch.setenv("HOGSOLVE_CACHE", str(tmp_path / "cache"))
    go = tmp_path / "go"
    file = tmp_path / "hog.py"
    old = ("import os, time\ndef final_strategy(score, opponent_score):\n"
           f"    while not os.path.exists({str(go)!r}):\n        time.sleep(0.01)\n    return 4\n")
    new = "def final_strategy(score, opponent_score):\n    return 5\n"
    file.write_text(old)
    rules = get_rules("su18", goal=10)

    def save():
        file.write_text(new)
        go.write_text("")
    thread = _when_both_runs_call(save)
    table, source, _ = userfile.tabulate_table(str(file), "final_strategy", rules)
    thread.join()
    assert (table == 5).all() and "not_cached" not in source
    again, source, _ = userfile.tabulate_table(str(file), "final_strategy", rules)
    assert source.get("cached") and (again == 5).all()
    file.write_text(old)  # the old bytes were never stored: they run again, and give their own figure
    table, source, _ = userfile.tabulate_table(str(file), "final_strategy", rules)
    assert (table == 4).all() and "cached" not in source


def test_a_loop_fixed_while_it_runs_is_not_cached_as_a_loop(tmp_path, monkeypatch):
    """A looping save, fixed before its time limit ends.  Mistake: the time-out stored against the
    fixed file (the folder hashed after the run), so the fix stays 'did not finish' from the cache."""
    monkeypatch.setenv("HOGSOLVE_CACHE", str(tmp_path / "cache"))
    file = tmp_path / "hog.py"
    file.write_text("def final_strategy(score, opponent_score):\n    while True:\n        pass\n")
    rules = get_rules("su18", goal=10)
    thread = _when_both_runs_call(lambda: file.write_text("def final_strategy(score, opponent_score):\n"
                                                          "    return 6\n"))
    with pytest.raises(UserFileError, match="did not finish within 2 s"):
        userfile.tabulate_table(str(file), "final_strategy", rules, timeout=2)
    thread.join()
    table, source, _ = userfile.tabulate_table(str(file), "final_strategy", rules, timeout=2)
    assert (table == 6).all() and "cached" not in source


def test_a_report_naming_other_bytes_of_the_file_is_not_cached(student, monkeypatch):
    """The report is written by the student's own process, so it could name bytes the file never
    had and key another file's cache record (a forged table for someone else's strategy).
    Mistake: the reported digest trusted as the key."""
    rules = get_rules("su18", goal=10)
    run = userfile._run

    def forged(*args, **kwargs):
        table, files, captured, uncacheable, changed = run(*args, **kwargs)
        return table, {**files, "hog.py": "0" * 64}, captured, uncacheable, changed
    monkeypatch.setattr(userfile, "_run", forged)
    _, source, _ = userfile.tabulate_table(str(student), "final_strategy", rules)
    assert source["not_cached"] == "its report names other bytes of the file than it had"
    assert not userfile.cache_dir().exists() or not any(userfile.cache_dir().iterdir())
