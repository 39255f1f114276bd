"""Run a hogsolve command, signal it at a chosen moment, and report what it left behind."""
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psutil

LOOPING = "def final_strategy(score, opponent_score):\n    while True:\n        pass\n"

#: Commands that run long enough to be interrupted (name: argv after `hogsolve`).
COMMANDS = {
    "tournament": ["tournament", *[f"random:{i}" for i in range(1, 61)], "--jobs", "2"],
    "sinbad": ["sinbad", "tournament", "--games", "100000", "--jobs", "2"],
    "student": ["compare", "STUDENT", "always_roll:4", "--strategy-timeout", "30"],
    "contest": ["tournament", "STUDENTS", "always_roll:4", "--strategy-timeout", "30", "--jobs", "2"],
    "solve-all": ["solve", "--all", "--out", "OUT"],
}


def tagged(tag: str):
    """Processes whose environment carries ``tag`` (the command and everything it started)."""
    found = []
    for proc in psutil.process_iter(["pid", "cmdline"]):
        try:
            if proc.environ().get("HOGSOLVE_TEST_TAG") == tag:
                found.append(proc)
        except (psutil.Error, OSError):
            pass
    return found


def interrupt(name: str, signum: int, delay: float, work: Path) -> dict:
    """Start COMMANDS[name], send ``signum`` after ``delay`` s (SIGINT to the process group, as
    a terminal's Ctrl-C; SIGTERM to the process, as kill), and report: exit code, seconds
    from the signal to the exit, stderr, tagged processes left, and the temporary folder's
    leftovers."""
    tag = uuid.uuid4().hex
    tmp, cache = work / "tmp", work / "cache"
    tmp.mkdir(parents=True, exist_ok=True)
    student = work / "loop.py"
    student.write_text(LOOPING)
    students = work / "students"
    for who in ("ann", "ben", "cat"):
        (students / who).mkdir(parents=True, exist_ok=True)
        (students / who / "hog.py").write_text(LOOPING)
    fill = {"STUDENT": str(student) + ":final_strategy", "OUT": str(work / "out"), "STUDENTS": str(students)}
    argv = [fill.get(a, a) for a in COMMANDS[name]]
    env = {**os.environ, "HOGSOLVE_TEST_TAG": tag, "TMPDIR": str(tmp), "JOBLIB_TEMP_FOLDER": str(tmp),
           "HOGSOLVE_CACHE": str(cache)}
    proc = subprocess.Popen([sys.executable, "-m", "hogsolve", *argv], env=env, cwd=work, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    time.sleep(delay)
    sent = time.monotonic()
    try:
        if signum == signal.SIGINT:
            os.killpg(proc.pid, signum)
        else:
            proc.send_signal(signum)
    except ProcessLookupError:
        pass
    try:
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    took = time.monotonic() - sent
    time.sleep(0.2)  # let the kernel reap what the command killed
    left = tagged(tag)
    for p in left:  # never leave them running, whatever the test says
        try:
            p.kill()
        except psutil.Error:
            pass
    failures = 0  # failures cached for students the clean-up killed: none may be
    for record_file in (cache / "strategies").glob("*.json"):
        failures += sum("failed" in record for record in json.loads(record_file.read_text())["records"])
    return {"code": proc.returncode, "seconds": took, "stderr": err.decode(errors="replace"),
            "cached_failures": failures,
            "processes": [" ".join(p.info["cmdline"] or [])[:100] for p in left],
            "tmp": sorted(p.name for p in tmp.iterdir())}
