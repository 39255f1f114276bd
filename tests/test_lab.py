"""hogsolve lab: one file's figures equal the command line's, recomputed on every save over a real
WebSocket, with a failed save marked stale and the next good one recovering."""
import json
import time
import urllib.error
import urllib.request

import pytest
from websockets.sync.client import connect as open_socket

from cli_helpers import run_main
from gui_helpers import running_server
from hogsolve import get_pig_game, get_rules
from hogsolve.gui.lab import Lab

HOG = "def final_strategy(score, opponent_score):\n    return 4 if score < 80 else 2\n"
BETTER = "def final_strategy(score, opponent_score):\n    return 6 if opponent_score > score else 3\n"
PIG = "def strategy(score, opponent_score, turn_total):\n    return turn_total < 20\n"


def cli_json(*args):
    r = run_main(*args, "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def get(port, path):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, json.load(response)


def status_of(port, path):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}") as response:
            return response.status
    except urllib.error.HTTPError as error:
        assert "Traceback" not in error.read().decode()
        return error.code


@pytest.mark.parametrize("rules, source, name, family", [pytest.param("fa19", HOG, "final_strategy", "hog",
                                                                      marks=pytest.mark.slow),
                                                         ("su18", HOG, "final_strategy", "hog"),
                                                         ("piglet", PIG.replace("20", "3"), "strategy",
                                                          "roll-or-hold")])
def test_the_figures_are_what_compare_best_response_and_regret_print(tmp_path, monkeypatch, rules, source, name,
                                                                     family):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.py").write_text(source)
    game = get_pig_game(rules) if family == "roll-or-hold" else get_rules(rules)
    payload = Lab("s.py", name, game).evaluate()
    assert payload["error"] == "" and not payload["stale"] and payload["family"] == family
    f = payload["figures"]
    compare = cli_json("compare", f"s.py:{name}", "optimal", "--rules", rules)["exact"]
    assert (f["first"], f["second"], f["average"]) == (compare["first"], compare["second"], compare["average"])
    response = cli_json("best-response", f"s.py:{name}", "--rules", rules)
    assert f["best_response"] == response["win_rate"]["average"] and f["exploitability"] == response["exploitability"]
    regret = cli_json("regret", f"s.py:{name}", "--rules", rules, "--top", "10")
    assert f["worst"] == regret["worst_states"] and f["total_expected_loss"] == regret["total_expected_loss"]
    maps, g = f["maps"], game.goal
    assert len(maps["strategy"]) == len(maps["optimal"]) == len(maps["loss"]) == g
    shown = sum(x or 0 for row in maps["loss"] for x in row)
    if maps["memory"]:  # one slice of memories (both 0 here): part of the whole
        assert maps["memory"] == [0, 0] and 0 < shown < f["total_expected_loss"]
    else:  # every state's loss x reach is somewhere on the map
        assert shown == pytest.approx(f["total_expected_loss"], rel=1e-9)


def test_hold_thresholds_against_a_plain_loop():
    game = get_pig_game("piglet", goal=8)
    import numpy as np
    rng = np.random.default_rng(3)
    roll = rng.random((8, 8, 16)) < 0.7
    got = game.hold_thresholds(roll)
    for i in range(8):
        for j in range(8):
            first = next((k for k in range(1, 8 - i) if not roll[i, j, k]), 8 - i)
            assert got[i, j] == first, (i, j)
    assert game.goal == 8


def test_a_state_shows_every_action_the_choice_and_the_rules(tmp_path):
    (tmp_path / "s.py").write_text(HOG)
    lab = Lab(str(tmp_path / "s.py"), "final_strategy", get_rules("su18"))
    lab.evaluate()
    state = lab.state((10, 20))
    assert state["choice"] == 4 and len(state["values"]) == 11
    assert state["values"][state["best"]] == max(state["values"])  # the best is the best of the values shown
    assert state["rules"] == ["Free Bacon: rolling 0 dice scores 1"]  # su18: 1 + the larger digit of 20 is... 2 - 1
    assert lab.maps(())["strategy"] == lab.payload()["figures"]["maps"]["strategy"]
    with pytest.raises(ValueError, match="su18 has no memories"):
        lab.maps((1, 2))
    game = lab.game(3)
    assert game["winner"] in ("strategy", "optimal") and max(game["scores"]) >= 100
    assert any("Pig Out" in line for line in game["log"])


def wait_for(socket, run, timeout=60):
    """The next payload of run ``run`` or later."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = json.loads(socket.recv(timeout=deadline - time.monotonic()))
        if message["run"] >= run:
            return message
    raise AssertionError(f"no run {run}")


def test_a_save_recomputes_a_broken_save_is_stale_and_the_next_recovers(tmp_path):
    file = tmp_path / "s.py"
    file.write_text(HOG)
    lab = Lab(str(file), "final_strategy", get_rules("su18", goal=30))
    with running_server(lab=lab) as (_, port):
        with open_socket(f"ws://127.0.0.1:{port}/api/lab/ws", open_timeout=10) as socket:
            first = wait_for(socket, 1)
            assert first["error"] == "" and first["figures"] is not None
            time.sleep(0.3)  # the watcher is up
            file.write_text(BETTER)
            second = wait_for(socket, 2)
            assert second["error"] == "" and second["figures"]["average"] != first["figures"]["average"]
            file.write_text("def final_strategy(score, opponent_score)\n    return 4\n")  # a syntax error
            broken = wait_for(socket, 3)
            assert broken["stale"] and broken["figures"] == second["figures"]
            assert "SyntaxError" in broken["error"] and "\n" not in broken["error"]
            line = run_main("compare", f"{file}:final_strategy", "optimal", "--rules", "su18", "--goal", "30").stderr
            assert broken["error"] in line  # the command line's own words
            file.write_text(HOG)
            back = wait_for(socket, 4)
            assert not back["stale"] and back["error"] == "" and back["figures"] == first["figures"]
        assert status_of(port, "/api/lab/state?at=x") == 400
        assert status_of(port, "/api/lab/state?at=1,2,3") == 400
        assert status_of(port, "/api/lab/state?at=30,0") == 400
        assert status_of(port, "/api/lab/game?seed=-1") == 400
        assert status_of(port, "/api/lab/maps?memory=1,2") == 400 and status_of(port, "/api/lab/maps?memory=x") == 400
        assert get(port, "/api/lab/game?seed=5")[0] == 200
        assert status_of(port, "/lab") == 200


def test_without_hogsolve_lab_there_is_no_lab():
    with running_server() as (_, port):
        assert status_of(port, "/lab") == 404 and status_of(port, "/api/lab") == 404


def test_the_command_line_refuses_in_one_line(tmp_path):
    for args in (["lab", str(tmp_path / "missing.py")], ["lab", "notpython.txt"],
                 ["lab", str(tmp_path / "s.py:not a name")]):
        r = run_main(*args, "--no-browser")
        assert r.returncode == 2 and len(r.stderr.splitlines()) == 1 and "Traceback" not in r.stderr, args
    (tmp_path / "s.py").write_text(HOG)
    r = run_main("lab", str(tmp_path / "s.py"), "--host", "0.0.0.0", "--no-browser")
    assert r.returncode == 2 and "--lab-on-network" in r.stderr


def test_no_request_makes_the_lab_run_anything_but_its_file(tmp_path):
    """Paths and code in every route's parameters, bodies and messages: the lab answers 4xx or
    ignores them, and only ever runs the file of its command line."""
    file = tmp_path / "s.py"
    file.write_text(HOG)
    other = tmp_path / "other.py"
    other.write_text("import pathlib\npathlib.Path(__file__).with_name('ran').write_text('x')\n"
                     "def final_strategy(score, opponent_score):\n    return 1\n")
    lab = Lab(str(file), "final_strategy", get_rules("su18", goal=20))
    with running_server(lab=lab) as (_, port):
        with open_socket(f"ws://127.0.0.1:{port}/api/lab/ws", open_timeout=10) as socket:
            wait_for(socket, 1)
            for message in ({"file": str(other)}, {"run": "import os; os.system('touch ran')"},
                            {"path": str(other), "function": "final_strategy"}, "not json"):
                socket.send(json.dumps(message) if not isinstance(message, str) else message)
            for query in (f"/api/lab?file={other}", f"/api/lab/state?at=1,2&file={other}",
                          f"/api/lab/game?seed=1&file={other}&function=final_strategy",
                          f"/lab?file={other}", "/api/lab/../../etc/passwd", f"/api/lab/{other}"):
                assert status_of(port, query) in (200, 400, 404), query
            for path in ("/api/lab", "/api/lab/state", "/api/lab/game"):
                request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method="POST",
                                                 data=json.dumps({"file": str(other)}).encode(),
                                                 headers={"Content-Type": "application/json"})
                try:
                    urllib.request.urlopen(request)
                    raise AssertionError(f"POST {path} was accepted")
                except urllib.error.HTTPError as error:
                    assert 400 <= error.code < 500, (path, error.code)
            status, payload = get(port, "/api/lab")
            assert payload["strategy"] == f"{file}:final_strategy" and payload["run"] == lab.runs
        assert not (tmp_path / "ran").exists() and lab.path == str(file) and lab.runs == 1


def test_a_run_under_way_says_so_and_its_time_is_its_own(tmp_path):
    """While a run is under way the payload says so (and for how long); once it ends, its time and
    duration are the run's own, not when the page asked.  Mistakes: "up to date" during a slow
    run, or the page's load time shown as the run's."""
    import threading
    file = tmp_path / "hog.py"
    file.write_text("import time\ntime.sleep(1.2)\n" + HOG)
    lab = Lab(str(file), "final_strategy", get_rules("su18", goal=20))
    assert lab.payload()["running"] is False and lab.payload()["run"] == 0
    worker = threading.Thread(target=lab.evaluate)
    worker.start()
    deadline = time.monotonic() + 30
    while not lab.payload()["running"] and time.monotonic() < deadline:
        time.sleep(0.01)
    during = lab.payload()
    assert during["running"] and during["run"] == 0 and during["running_for"] >= 0
    worker.join()
    after = lab.payload()
    assert not after["running"] and after["run"] == 1 and after["seconds"] >= 1.2
    time.sleep(1.1)
    assert lab.payload()["time"] == after["time"]  # the run's end, not the moment of asking
    assert lab.begin()["running"] is True and lab.begin()["figures"] == after["figures"]


def test_the_lab_runs_every_save_and_names_what_it_can_do(tmp_path, capsys):
    """A failure cached by `compare` is run again by the lab (it has no --retry-failed to offer),
    and a time-out points at the lab's own --strategy-timeout.  Mistakes: a message that tells the
    student to use an option the lab lacks; the lab's time limit not passed on."""
    file = tmp_path / "hog.py"
    file.write_text("def final_strategy(score, opponent_score):\n    raise ValueError('oops')\n")
    assert run_main("compare", f"{file}:final_strategy", "optimal", "--rules", "su18", "--goal", "20").returncode == 2
    lab = Lab(str(file), "final_strategy", get_rules("su18", goal=20))
    lab.evaluate()
    assert "oops" in lab.error and "cached" not in lab.error and "--retry-failed" not in lab.error
    file.write_text("def final_strategy(score, opponent_score):\n    while True:\n        pass\n")
    slow = Lab(str(file), "final_strategy", get_rules("su18", goal=20), timeout=0.5)
    slow.evaluate()
    assert "did not finish within 0.5 s" in slow.error and "--strategy-timeout SECONDS" in slow.error
    assert "--strategy-timeout" in run_main("lab", "--help").stdout
