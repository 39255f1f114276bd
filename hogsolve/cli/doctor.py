"""``hogsolve doctor``: what this machine enforces on a student's strategy file, tried for real."""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from .common import respond

#: What the probe tries inside the walls, in the order printed: (key, what it tries).
TRIES = (("read", "read a file outside its folder (/etc/hostname)"),
         ("write", "write a file outside its temporary folder"),
         ("tcp", "connect over TCP to 127.0.0.1"),
         ("socket", "open any socket"),
         ("program", "run another program (/bin/sh)"),
         ("process", "start another process (fork)"),
         ("signal", "signal hogsolve"),
         ("own_read", "read its own folder"),
         ("own_write", "write its temporary folder"))

_PROBE = r"""
import importlib.util, json, os, socket, sys
spec = importlib.util.spec_from_file_location("walls", sys.argv[1])
walls = importlib.util.module_from_spec(spec); spec.loader.exec_module(walls)
folder, private, outside = sys.argv[2], sys.argv[3], sys.argv[4]
have = walls.confine(sys.argv[5:], [private]) if os.environ.get("HOGSOLVE_SANDBOX", "") != "off" else {}
def attempt(action):
    try:
        action()
        return "allowed"
    except OSError:
        return "refused"
def connect():
    s = socket.socket(); s.settimeout(1)
    try:
        s.connect(("127.0.0.1", 9))
    except ConnectionRefusedError:
        pass  # the connection was attempted: the wall did not stop it
def fork():
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
print(json.dumps({"have": have,
    "read": attempt(lambda: open("/etc/hostname").read()),
    "write": attempt(lambda: open(outside, "w").write("x")),
    "tcp": attempt(connect), "socket": attempt(lambda: socket.socket(socket.AF_UNIX).close()),
    "program": attempt(lambda: os.spawnv(os.P_WAIT, "/bin/sh", ["sh", "-c", "true"])),
    "process": attempt(fork), "signal": attempt(lambda: os.kill(os.getppid(), 0)),
    "own_read": attempt(lambda: open(os.path.join(folder, "data.txt")).read()),
    "own_write": attempt(lambda: open(os.path.join(private, "scratch.txt"), "w").write("x"))}))
"""


def probe() -> dict:
    """Start a process walled in as a student's is, have it try each of :data:`TRIES`, and return
    what happened to each ("refused" or "allowed") with what the kernel reported."""
    from ..strategy.sandbox_child import __file__ as walls
    from ..strategy.userfile_child import allowed_reads
    with tempfile.TemporaryDirectory(prefix="hogsolve-doctor-") as work:
        folder, private = Path(work, "student"), Path(work, "tmp")
        folder.mkdir()
        private.mkdir()
        (folder / "data.txt").write_text("the student's data\n")
        outside = Path(work, "outside.txt")
        done = subprocess.run([sys.executable, "-c", _PROBE, walls, str(folder), str(private), str(outside),
                               *allowed_reads(str(folder))], capture_output=True, text=True, timeout=60)
        if done.returncode != 0 or not done.stdout.strip():
            return {"error": (done.stderr.strip().splitlines() or ["the probe died"])[-1]}
        found = json.loads(done.stdout)
        found["outside_written"] = outside.exists()
        return found


def setup_doctor(p):
    """``hogsolve doctor``: what a student's file may do here, each wall tried in a real process."""
    p.add_argument("--json", action="store_true", help="machine-readable output")

    def run(args):
        from ..strategy.userfile import REQUIRE_SANDBOX_ENV, sandbox_missing, sandbox_required, sandbox_support
        have = sandbox_support()
        found = probe()
        walled = all(found.get(key) == "refused" for key, _ in TRIES[:7]) and \
            all(found.get(key) == "allowed" for key, _ in TRIES[7:])
        record = {"support": have, "tried": {key: found.get(key) for key, _ in TRIES},
                  "walled_in": bool(walled and not found.get("outside_written")),
                  "required": sandbox_required(), "missing": sandbox_missing(), "error": found.get("error", "")}

        def show():
            print("hogsolve doctor: what a student's strategy file may do on this machine")
            print(f"  kernel: Landlock ABI {have['landlock_abi']}, seccomp filter "
                  f"{'yes' if have['seccomp'] else 'no'}" + (" (turned off: HOGSOLVE_SANDBOX=off)" if have.get("off")
                                                                else ""))
            if record["error"]:
                print(f"  the probe failed: {record['error']}")
            width = max(len(what) for _, what in TRIES)
            for key, what in TRIES:
                print(f"  {what + ' ':.<{width + 2}} {record['tried'][key] or '?'}")
            print("  " + ("student code runs walled in" if record["walled_in"] else
                          f"student code is NOT walled in: {record['missing'] or 'see above'}"))
            print(f"  {REQUIRE_SANDBOX_ENV}: " + ("set: a machine without walls refuses student code"
                                                   if record["required"] else
                                                   "not set (--require-sandbox asks for it once)"))
        return respond(args, record, show)
    return run
