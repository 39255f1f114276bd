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


#: A run stopped after joblib registered a temporary folder with its resource tracker (which
#: outlives the run and shares its stderr) and before joblib could unregister it.
STOPPED_IN_JOBLIB = """
import os, sys, tempfile
import hogsolve.cli as cli
def main(**_):
    from joblib.externals.loky.backend import resource_tracker
    resource_tracker.register(os.path.join(tempfile.mkdtemp(dir=sys.argv[1]), "never-made"), "folder")
    print("interrupted", file=sys.stderr)
    return 143
cli.main = main
cli.program() if sys.argv[2] == "program" else sys.exit(main())
"""


@pytest.mark.parametrize("how", ["program", "bare"])
def test_joblibs_resource_tracker_adds_no_words_after_interrupted(tmp_path, how):
    """The tracker removes such a folder at the end and says so on stderr, after our one line
    (CI saw it once in 50 random interrupts): the program starts it with its warnings off.
    The bare run shows the words the program must keep out (the test would pass vacuously if
    the tracker said nothing there)."""
    done = subprocess.run([sys.executable, "-c", STOPPED_IN_JOBLIB, str(tmp_path), how],
                          capture_output=True, text=True, timeout=60)  # waits for the tracker: it holds stderr
    assert done.returncode == 143
    if how == "program":
        assert done.stderr == "interrupted\n"
    else:
        assert done.stderr.startswith("interrupted\n") and "leaked folder" in done.stderr


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


def _tgkill(pid: int, tid: int, signum: int) -> None:
    """Send ``signum`` to one thread of ``pid`` (Linux's tgkill; Python has no wrapper)."""
    import ctypes
    import platform
    number = {"x86_64": 234, "aarch64": 131}.get(platform.machine())
    if number is None:
        pytest.skip(f"tgkill's number on {platform.machine()} is not known here")
    libc = ctypes.CDLL(None, use_errno=True)
    assert libc.syscall(number, pid, tid, signum) == 0, ctypes.get_errno()


def test_a_signal_the_kernel_gives_a_worker_thread_still_ends_the_run_at_once(tmp_path):
    """The mistake it catches: the main thread blocked in a plain ``pool.map`` while student
    files load; the kernel handed SIGTERM to a loading thread, Python ran the handler only when
    a looping student's 30 s ran out, and that student was cached as failed (CI's run 31)."""
    import uuid
    tag = uuid.uuid4().hex
    students = tmp_path / "students"
    for who in ("ann", "ben"):
        (students / who).mkdir(parents=True)
        (students / who / "hog.py").write_text(LOOPING)
    cache = tmp_path / "cache"
    env = {**os.environ, "HOGSOLVE_TEST_TAG": tag, "HOGSOLVE_CACHE": str(cache)}
    argv = [sys.executable, "-m", "hogsolve", "tournament", str(students), "always_roll:4", "--strategy-timeout",
            "30", "--jobs", "2"]
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and sum("userfile_child" in " ".join(p.cmdline()) for p in tagged(tag)) < 4:
            time.sleep(0.05)  # both students' two interpreters are looping
        threads = [t.id for t in psutil.Process(proc.pid).threads() if t.id != proc.pid]
        assert threads, "no loading thread to signal"
        sent = time.monotonic()
        _tgkill(proc.pid, threads[0], signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143 and err.decode().endswith("interrupted\n"), err.decode()[-2000:]
    assert took < 5.0, took
    assert not any("failed" in r for f in (cache / "strategies").glob("*.json")
                   for r in __import__("json").loads(f.read_text())["records"])


def test_a_signal_after_the_work_is_done_cannot_kill_the_program_silently(tmp_path):
    """CI's run 37: a Ctrl-C that came as a finished tournament's interpreter shut down killed it
    with -2 and no word (Python puts its handlers back to the default action as it exits).  The
    program (``python -m hogsolve``, the console script) ignores both signals once its work is
    done; ``main`` called in-process puts the handlers back instead.  The mistake it catches:
    either of those undone."""
    script = ("import os, signal, sys, time\n"
              "from hogsolve.cli import main\n"
              "code = main(['rules'], exiting=True)\n"
              "assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN\n"
              "assert signal.getsignal(signal.SIGTERM) is signal.SIG_IGN\n"
              "os.kill(os.getpid(), signal.SIGINT)\n"
              "time.sleep(0.2)\n"
              "sys.exit(code)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    kept = subprocess.run([sys.executable, "-c", "import signal\nfrom hogsolve.cli import main\n"
                           "before = signal.getsignal(signal.SIGINT)\nmain(['rules'])\n"
                           "assert signal.getsignal(signal.SIGINT) is before"], capture_output=True, text=True,
                          timeout=120)
    assert kept.returncode == 0, kept.stderr[-2000:]
    import tomllib
    from pathlib import Path
    scripts = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["hogsolve"] == "hogsolve.cli:program"


def test_thread_map_keeps_order_starts_nothing_after_a_failure_and_raises_it():
    """The mistake it catches: results out of order, items started after one failed (a contest
    loading every student after a bad spec), or the failure lost behind a cancelled item."""
    from hogsolve.util.interrupts import thread_map
    assert thread_map(lambda x: (time.sleep(0.01 * (5 - x)), x * x)[1], range(5), 3) == [0, 1, 4, 9, 16]
    started = []

    def work(x):
        started.append(x)
        if x == 1:
            raise ValueError("bad entry")
        time.sleep(0.3)  # a slow entry, still running when the failure comes
        return x
    with pytest.raises(ValueError, match="bad entry"):
        thread_map(work, range(10), 2)
    # the two first, and at most the one the failed item's thread took before the failure was seen
    assert {0, 1} <= set(started) <= {0, 1, 2}
