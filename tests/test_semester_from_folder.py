"""The semester from a student's project folder (hogsolve.strategy.semester and the verbs that
take student files): the course's ok file names it, and every number follows it."""
import json
from pathlib import Path

import pytest

from cli_helpers import run_main
from hogsolve.strategy.semester import choose_rules, course_file, semester_of_endpoint, SemesterError

STRATEGY = "def final_strategy(score, opponent_score):\n    return 0 if opponent_score % 10 > 5 else 5\n"


def project(folder: Path, endpoint=None, ok_name="proj01.ok", text=STRATEGY) -> Path:
    """A CS 61A project folder: hog.py and, with an endpoint, the course's ok file."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "hog.py").write_text(text)
    if endpoint is not None:
        (folder / ok_name).write_text(json.dumps({"name": "Project 1: Hog", "endpoint": endpoint,
                                                  "src": ["hog.py"], "protocols": ["file_contents"]}))
    return folder / "hog.py"


def average(out: str) -> str:
    return next(line for line in out.splitlines() if "average:" in line).split()[1]


def test_endpoints_name_cs61a_semesters_only():
    """Mistake: another course's endpoint (a high school's copy) read as a CS 61A semester, or
    the case of a hand-edited endpoint refused."""
    assert semester_of_endpoint("cal/cs61a/fa23/proj01") == "fa23"
    assert semester_of_endpoint("cal/CS61A/SP16/hog") == "sp16"
    assert semester_of_endpoint("sfhs/ap_csp/fa21/proj01") is None
    assert semester_of_endpoint("cal/cs61a/proj01") is None


def test_the_course_ok_file_is_found_before_others_and_junk_is_passed_over(tmp_path):
    """Mistake: a lab's ok file (or one that is not JSON) taken before the project's own."""
    (tmp_path / "aaa.ok").write_text(json.dumps({"endpoint": "cal/cs61a/sp18/lab01"}))
    (tmp_path / "broken.ok").write_text("{not json")
    (tmp_path / "hog.ok").write_text(json.dumps({"endpoint": "cal/cs61a/fa14/proj1"}))
    found = course_file(tmp_path)
    assert found is not None and found.path.name == "hog.ok" and found.semester == "fa14"
    (tmp_path / "hog.ok").unlink()
    assert course_file(tmp_path).semester == "sp18"  # any other *.ok with an endpoint comes after
    (tmp_path / "aaa.ok").write_text("[1, 2]")
    assert course_file(tmp_path) is None


def test_compare_plays_the_folders_semester_and_says_so(tmp_path, monkeypatch):
    """A fa23 student without --rules gets fa23's figure, the same as --rules fa23, with one line
    naming where it came from.  Mistake: the default ruleset (su18) used silently."""
    project(tmp_path, "cal/cs61a/fa23/proj01")
    monkeypatch.chdir(tmp_path)
    found = run_main("compare", "hog.py:final_strategy", "optimal", "--goal", "40")
    named = run_main("compare", "hog.py:final_strategy", "optimal", "--goal", "40", "--rules", "fa23")
    su18 = run_main("compare", "hog.py:final_strategy", "optimal", "--goal", "40", "--rules", "su18")
    assert found.returncode == named.returncode == su18.returncode == 0
    assert "(fa23, goal 40)" in found.stdout and average(found.stdout) == average(named.stdout)
    assert average(found.stdout) != average(su18.stdout)
    assert found.stderr.splitlines() == ["rules: fa23, from proj01.ok (--rules NAME plays another ruleset)"]
    assert named.stderr == ""  # the ok file agrees: nothing to say
    assert su18.stderr.splitlines() == ["warning: --rules su18 is not the semester proj01.ok names: fa23"]


def test_an_alias_semester_and_an_old_ok_name(tmp_path, monkeypatch):
    """sp14's hog.ok plays fa13's ruleset (the same rules) and says both.  Mistake: an alias not
    resolved, or an older folder's ok file not read."""
    project(tmp_path, "cal/cs61a/sp14/proj1", ok_name="hog.ok")
    monkeypatch.chdir(tmp_path)
    found = run_main("regret", "hog.py", "--goal", "30", "--top", "1")
    assert found.returncode == 0 and "against the optimal strategy (fa13, goal" in found.stdout
    assert found.stderr.splitlines()[0] == ("rules: sp14 (fa13's rules), from hog.ok (--rules NAME plays another "
                                            "ruleset)")
    agreeing = run_main("regret", "hog.py", "--goal", "30", "--top", "1", "--rules", "fa13")
    assert agreeing.stderr == "" and agreeing.stdout == found.stdout


def test_without_an_ok_file_the_assumption_is_said(tmp_path, monkeypatch):
    """Mistake: su18 assumed without a word; or a note where no student file is involved."""
    project(tmp_path / "plain")
    project(tmp_path / "school", "sfhs/ap_csp/fa21/proj01")
    monkeypatch.chdir(tmp_path)
    plain = run_main("best-response", "plain/hog.py", "--goal", "20")
    assert plain.returncode == 0 and "(su18, goal" in plain.stdout
    assert plain.stderr.splitlines() == [
        "note: no course .ok file (proj01.ok) beside the strategy names its semester; assuming su18 (--rules NAME "
        "chooses the semester, such as --rules fa23)"]
    school = run_main("best-response", "school/hog.py", "--goal", "20")
    assert school.stderr.startswith("note: school/proj01.ok names sfhs/ap_csp/fa21/proj01, not a CS 61A semester; "
                                    "assuming su18")
    assert run_main("compare", "optimal", "always_roll:4", "--goal", "20").stderr == ""


def test_a_semester_that_is_not_built_in_is_one_line(tmp_path, monkeypatch):
    """Mistake: a sp19 folder played under su18, or a traceback."""
    project(tmp_path, "cal/cs61a/sp19/proj01")
    monkeypatch.chdir(tmp_path)
    result = run_main("compare", "hog.py", "optimal")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("error: proj01.ok names cal/cs61a/sp19/proj01: sp19 is not built in: ")
    assert result.stderr.rstrip().endswith("--rules NAME plays another ruleset") and result.stderr.count("\n") == 1
    assert run_main("compare", "hog.py", "optimal", "--rules", "su18", "--goal", "20").returncode == 0


def test_a_tournament_of_several_semesters_needs_rules(tmp_path, monkeypatch):
    """Students from fa23 and su18 in one folder: refused unless --rules names one.  Mistake:
    the first folder's semester silently applied to everyone."""
    project(tmp_path / "students" / "ann", "cal/cs61a/fa23/proj01")
    project(tmp_path / "students" / "bob", "cal/cs61a/su18/proj01")
    project(tmp_path / "students" / "cat", "cal/cs61a/fa23/proj01")
    monkeypatch.chdir(tmp_path)
    mixed = run_main("tournament", "students", "always_roll:4", "--goal", "20")
    assert mixed.returncode == 2
    assert mixed.stderr == ("error: the entries come from semesters with different rules (fa23 from "
                            "students/ann/proj01.ok, students/cat/proj01.ok; su18 from students/bob/proj01.ok): "
                            "name one with --rules NAME\n")
    chosen = run_main("tournament", "students", "always_roll:4", "--goal", "20", "--rules", "fa23")
    assert chosen.returncode == 0 and "(fa23, goal 20, 4 strategies)" in chosen.stdout
    assert "warning: --rules fa23 is not the semester students/bob/proj01.ok names: su18" in chosen.stderr
    (tmp_path / "students" / "bob" / "proj01.ok").unlink()
    one = run_main("tournament", "students", "always_roll:4", "--goal", "20")
    assert one.returncode == 0 and "(fa23, goal 20, 4 strategies)" in one.stdout
    assert "note: 1 of the 3 folders name no semester; they play fa23 too" in one.stderr


def test_choose_rules_without_files_with_a_name_and_with_an_unknown_semester(tmp_path):
    """The library call: no files, no notes; a named ruleset kept; a semester that is not built in
    refused with its reason.  Mistake: a note or a change of rules for verbs without student
    files, or an unknown semester played as something else."""
    assert choose_rules([], None).name == "su18" and choose_rules([], None).notes == ()
    a = project(tmp_path / "a", "cal/cs61a/fa19/proj01")
    assert choose_rules([a], "fa19", given_name="fa19").notes == ()
    assert choose_rules([a], None).name == "fa19"
    b = project(tmp_path / "b", "cal/cs61a/fa16/proj01")
    with pytest.raises(SemesterError, match="fa16 is not built in: Pork Chop"):
        choose_rules([a, b], None)


def test_the_lab_plays_the_folders_semester(tmp_path, monkeypatch):
    """`hogsolve lab hog.py` in a fa19 folder serves fa19, and says so.  Mistake: the lab's own
    default (su18) kept."""
    from hogsolve.gui import server
    project(tmp_path, "cal/cs61a/fa19/proj01")
    monkeypatch.chdir(tmp_path)
    served = {}
    monkeypatch.setattr(server, "serve", lambda rules, port, **kwargs: served.update(rules=rules, lab=kwargs["lab"]))
    result = run_main("lab", "hog.py", "--no-browser", "--goal", "20", "--port", "0")
    assert result.returncode == 0, result.stderr
    assert served["rules"] == "fa19" and served["lab"].rules.name == "fa19"
    assert result.stderr.splitlines()[0] == "rules: fa19, from proj01.ok (--rules NAME plays another ruleset)"
