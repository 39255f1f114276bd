"""Ctrl-C and SIGTERM end any run within seconds, with one line and exit 130 or 143, leaving
no worker, no student process and no temporary folder; a student's process dies with hogsolve
even when hogsolve is killed outright."""
import os
import random
import signal
import subprocess
import sys
import time

import psutil
import pytest

from interrupts import COMMANDS, LOOPING, interrupt, tagged


def check(report, signum):
    assert report["processes"] == [] and report["tmp"] == [], report
    assert report["cached_failures"] == 0, report  # an interrupted student is not a failed one
    if report["code"] == 0:  # it finished before the signal came
        return
    assert report["code"] == 128 + signum, (report["code"], report["stderr"][-2000:])
    assert report["stderr"].endswith("interrupted\n") and "Traceback" not in report["stderr"], report["stderr"]
    assert report["seconds"] < 5.0, report  # measured 0.04-0.5 s on an idle 2-core machine


@pytest.mark.parametrize("name, signum",
                         [pytest.param("contest", signal.SIGINT, marks=pytest.mark.slow),
                          pytest.param("sinbad", signal.SIGTERM, marks=pytest.mark.slow)])
def test_an_interrupt_leaves_nothing_behind(tmp_path, name, signum):
    check(interrupt(name, signum, 1.5, tmp_path), signum)


@pytest.mark.slow
@pytest.mark.parametrize("run", range(50))
def test_interrupts_at_random_moments(tmp_path, run):
    rng = random.Random(run)
    name = rng.choice(sorted(COMMANDS))
    signum = rng.choice([signal.SIGINT, signal.SIGTERM])
    check(interrupt(name, signum, rng.uniform(0.3, 3.0), tmp_path), signum)


#: A student that starts a process of its own (which would outlive it), then loops.
SPAWNING = ("import subprocess, sys\n"
            "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(901)'])\n" + LOOPING)


@pytest.mark.slow  # kept out of the default tier for its time; CI runs the slow tier
def test_a_student_dies_with_a_killed_hogsolve_and_its_folder_goes_next_time(tmp_path):
    """SIGKILL cannot be handled: the kernel's parent-death signal kills the student's
    interpreter, the watcher on hogsolve's pipe kills the processes the student started, and
    the next run deletes the temporary folder the killed one left."""
    import uuid
    tag = uuid.uuid4().hex
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    (tmp_path / "loop.py").write_text(SPAWNING)
    # HOGSOLVE_SANDBOX=off: a machine without walls, where the student's file can start a process of its own
    env = {**os.environ, "HOGSOLVE_TEST_TAG": tag, "TMPDIR": str(tmp), "HOGSOLVE_CACHE": str(tmp_path / "cache"),
           "HOGSOLVE_SANDBOX": "off"}
    argv = [sys.executable, "-m", "hogsolve", "compare", f"{tmp_path / 'loop.py'}:final_strategy", "always_roll:4"]
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    # hogsolve, the student's interpreter, its watcher and the student's own sleeping child
    while not any("time.sleep(901)" in " ".join(p.cmdline()) for p in tagged(tag)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(tagged(tag)) >= 4 and any(p.name.startswith("hogsolve-") for p in tmp.iterdir())
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 5
    while tagged(tag) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert tagged(tag) == []
    # the next run that tabulates a student file clears the dead run's folder
    (tmp_path / "four.py").write_text("def final_strategy(score, opponent_score):\n    return 4\n")
    done = subprocess.run([sys.executable, "-m", "hogsolve", "compare", f"{tmp_path / 'four.py'}:final_strategy",
                           "always_roll:4", "--goal", "20"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert list(tmp.iterdir()) == []
    assert psutil.pid_exists(proc.pid) is False or psutil.Process(proc.pid).status() == psutil.STATUS_ZOMBIE
