"""hogsolve.cli's verbs written once for every family (cli/compare.py, best_response.py,
regret.py): the same JSON keys, the same text, whatever game they serve."""
import json

import numpy as np
import pytest

from cli_helpers import run_main

#: (game, two strategies of it) at small goals: Hog, Hog with memories, two roll-or-hold games.
GAMES = [("su18", 20, "always_roll:4", "always_roll:6"), ("fa19", 15, "always_roll:3", "always_roll:5"),
         ("pig", 20, "hold_at:8", "hold_at:12"), ("two-dice-pig", 20, "hold_at:10", "optimal")]


def keys(value, prefix=""):
    """Every key path of a JSON record (list items by their first element's keys; a round robin's
    ``win_rates`` by opponent name stop there: the names are the strategies')."""
    if isinstance(value, dict) and not prefix.endswith("win_rates."):
        return {p for k, v in value.items() for p in {prefix + k} | keys(v, prefix + k + ".")}
    if isinstance(value, list) and value and isinstance(value[0], dict):
        return keys(value[0], prefix + "[].")
    return set()


def record(*args):
    done = run_main(*args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("verb", ["compare", "best-response", "regret", "tournament"])
def test_every_family_gives_the_same_json_keys(verb):
    """The mistake it catches: a family's own copy of a verb with its own keys (roll-or-hold's
    compare once wrote ``ci95`` where Hog's wrote ``interval``; its best response had no
    ``opening_move``; its round robin had no wins, ties or threshold)."""
    seen = {}
    for name, goal, a, b in GAMES:
        entries = dict.fromkeys([a, b, "optimal"])  # each once
        args = {"compare": ("compare", a, b, "--simulate", "2000"), "best-response": ("best-response", a),
                "regret": ("regret", a, "--top", "3"), "tournament": ("tournament", *entries)}[verb]
        got = record(*args, "--rules", name, "--goal", str(goal))
        assert got["rules"] == name and got.get("goal", goal) == goal
        seen[name] = keys(got) - {k for k in keys(got) if "memory" in k}  # memories: Hog's Feral Hogs only
    assert len({frozenset(v - {k for k in v if "turn_total" in k or "choice" in k or "optimal" in k})
                for v in seen.values()}) == 1, seen


def test_every_family_prints_the_same_lines():
    """The mistake it catches: one family's text drifting from the other's (a goal left out of
    the heading, the opening move shown for one family only)."""
    for name, goal, a, _ in GAMES:
        done = run_main("best-response", a, "--rules", name, "--goal", str(goal))
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        assert lines[0] == f"Best response to {a} ({name}, goal {goal}), exact win probability:"
        assert lines[-1].startswith("  opening move: ")
        done = run_main("regret", a, "--rules", name, "--goal", str(goal), "--top", "2")
        assert done.returncode == 0 and done.stdout.startswith(f"{a} against the optimal strategy ({name}, goal "
                                                                f"{goal}):"), done.stdout


def test_a_roll_or_hold_best_response_is_written_as_its_whole_table(tmp_path):
    """The mistake it catches: ``--out`` refused for every game but Hog, or a three-axis table
    flattened into a CSV nobody can read back."""
    csv = run_main("best-response", "hold_at:8", "--rules", "piglet", "--goal", "10", "--out", str(tmp_path / "b.csv"))
    assert csv.returncode == 2 and ".npy" in csv.stderr and not (tmp_path / "b.csv").exists()
    npy = run_main("best-response", "hold_at:8", "--rules", "piglet", "--goal", "10", "--out", str(tmp_path / "b.npy"))
    assert npy.returncode == 0, npy.stderr
    from hogsolve import best_response
    expected = best_response("hold_at:8", "piglet", goal=10).policy
    assert np.array_equal(np.load(tmp_path / "b.npy"), expected.astype(np.int8))


def test_a_roll_or_hold_student_file_is_named_as_hogs_are(tmp_path):
    """The mistake it catches: ``FILE.py`` alone (its final_strategy) and what the file prints
    served for Hog's files only."""
    (tmp_path / "pigbot.py").write_text("print('thinking')\n"
                                        "def final_strategy(score, opponent_score, turn_total):\n"
                                        "    return turn_total < 8\n")
    done = run_main("compare", str(tmp_path / "pigbot.py"), "hold_at:8", "--rules", "pig", "--goal", "20")
    assert done.returncode == 0, done.stderr
    assert "0.500000000000" in done.stdout and "printed" in done.stderr


def test_a_roll_or_hold_contest_resumes_and_writes_its_report(tmp_path):
    """The mistake it catches: the roll-or-hold round robin of before (no results file, no
    report, no ties): a contest of Pig strategies gets what Hog's gets."""
    args = ("tournament", "optimal", "hold_at:10", "hold_at:15", "--rules", "pig", "--goal", "30",
            "--out", str(tmp_path / "r.csv"), "--report", str(tmp_path / "r.html"))
    first = run_main(*args)
    assert first.returncode == 0, first.stderr
    assert (tmp_path / "r.html").read_text().count("hold_at:15") >= 1
    again = run_main(*args)
    assert again.returncode == 0 and "resuming: 3 of 3 pairs read from" in again.stderr
    assert again.stdout == first.stdout
