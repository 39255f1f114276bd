"""Student code walled in (hogsolve.strategy.sandbox_child, through userfile): hostile contest
entries are each refused with one line, the honest ones rank as before, and nothing outside the
run's private folders changes."""
import json
import socket
import threading
from pathlib import Path

import pytest

from cli_helpers import run_main
from hogsolve.strategy import userfile

pytestmark = pytest.mark.skipif(not userfile._kernel_support()["enforced"],
                                reason="this machine's kernel cannot wall student code in (no Landlock or seccomp)")

HONEST = {
    "ann": "def final_strategy(score, opponent_score):\n    return 4 if score < opponent_score else 6\n",
    "ben": "import os\nDICE = int(open(os.path.join(os.path.dirname(__file__), 'dice.txt')).read())\n"
           "def final_strategy(score, opponent_score):\n    return DICE\n",
}
#: name -> (what it does at import, the words of its one-line refusal)
HOSTILE = {
    "passwd": ("open('/etc/passwd').read()", "tried to read /etc/passwd"),
    "ssh": ("open(os.path.expanduser('~/.ssh/id_ed25519')).read()", "tried to read {home}/.ssh/id_ed25519"),
    "sibling": ("open('../ann/hog.py').read()", "tried to read {students}/ann/hog.py"),
    "cache": ("os.listdir(os.environ['HOGSOLVE_CACHE'])", "tried to list {cache}"),
    "vandal": ("open('../VANDAL_WAS_HERE.txt', 'w').write('x')", "tried to write {students}/VANDAL_WAS_HERE.txt"),
    "home": ("open(os.path.expanduser('~/vandal.txt'), 'w').write('x')", "tried to write {home}/vandal.txt"),
    "tmp": ("open('/tmp/hogsolve-vandal.txt', 'w').write('x')", "tried to write /tmp/hogsolve-vandal.txt"),
    "connect": ("socket.create_connection(('127.0.0.1', {port}), timeout=2)", "tried to open a network socket"),
    "bind": ("socket.socket().bind(('127.0.0.1', 0))", "tried to open a network socket"),
    "shell": ("subprocess.run(['sh', '-c', 'touch /tmp/hogsolve-shell.txt'])", "tried to run sh"),
    "kill": ("os.kill(os.getppid(), 9)", "tried to send signal 9 to process"),
    "forkbomb": ("while True:\n    os.fork()", "tried to start a process (os.fork)"),
    "ctypes": ("ctypes.CDLL(None).system(b'touch /tmp/hogsolve-ctypes.txt')", "called C code through ctypes"),
    "environ": ("open(f'/proc/{{os.getppid()}}/environ').read()", "tried to read /proc/"),
}


def tree(*roots: Path) -> dict:
    """Every file under ``roots`` with its bytes (what a hostile entry could change)."""
    found = {}
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                found[str(path)] = path.read_bytes()
    return found


@pytest.fixture
def contest(tmp_path, monkeypatch):
    """A contest folder of two honest students and every hostile entry, a home with an SSH key,
    a cache, and a local server a hostile entry tries to reach."""
    home, students, cache = tmp_path / "home", tmp_path / "students", tmp_path / "cache"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_ed25519").write_text("PRIVATE KEY\n")
    cache.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("HOGSOLVE_CACHE", str(cache))
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(5)
    server.settimeout(0.2)
    reached = []

    def accept():
        while not getattr(server, "closed", False):
            try:
                reached.append(server.accept())
            except OSError:
                if server.fileno() == -1:
                    return
    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    for name, code in HONEST.items():
        (students / name).mkdir(parents=True)
        (students / name / "hog.py").write_text(code)
    (students / "ben" / "dice.txt").write_text("5\n")
    port = server.getsockname()[1]
    for name, (action, _) in HOSTILE.items():
        (students / name).mkdir()
        (students / name / "hog.py").write_text(
            "import ctypes, os, socket, subprocess\n"
            f"{action.format(port=port)}\n"
            "def final_strategy(score, opponent_score):\n    return 5\n")
    words = {name: said.format(home=home, students=students, cache=cache) for name, (_, said) in HOSTILE.items()}
    yield students, home, words, reached
    server.close()
    thread.join(5)


def test_hostile_entries_are_refused_and_the_honest_rank_as_before(contest, tmp_path):
    """tournament --report: every hostile entry is skipped with its one line, the honest ones'
    figures are those of a contest without them, nothing outside the private folders changes and
    the local server is never reached.  Mistakes: a wall missing (the action succeeds, a file
    appears, the entry is ranked), or a refusal without the line that names it."""
    students, home, words, reached = contest
    before = tree(tmp_path)
    page = tmp_path / "report.html"
    result = run_main("tournament", str(students), "always_roll:4", "--rules", "su18", "--goal", "30",
                      "--names", "folder", "--report", str(page), "--json", "--strategy-timeout", "20")
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    ranked = {row["strategy"] for row in record["ranking"]}
    assert ranked == {"ann", "ben", "always_roll:4"}
    reasons = {s["entry"]: s["reason"] for s in record["skipped"]}
    assert set(reasons) == set(HOSTILE)
    for name, said in words.items():
        assert said in reasons[name] and "\n" not in reasons[name], (name, reasons[name])
    honest = run_main("tournament", str(students / "ann"), str(students / "ben"), "always_roll:4", "--rules",
                      "su18", "--goal", "30", "--names", "folder", "--json")
    assert json.loads(honest.stdout)["ranking"] == record["ranking"]
    after = tree(tmp_path)
    after.pop(str(page))
    assert {k: v for k, v in after.items() if "/cache/" not in k} == \
        {k: v for k, v in before.items() if "/cache/" not in k}
    assert reached == []
    for stray in ("hogsolve-vandal.txt", "hogsolve-shell.txt", "hogsolve-ctypes.txt"):
        assert not Path("/tmp", stray).exists()
    assert "tried to read /etc/passwd" in page.read_text()


def test_compare_and_the_lab_refuse_the_same_way(contest):
    """The same walls on every path that runs student code.  Mistake: one path (the lab, a
    compare) starting the child without them."""
    from hogsolve import get_rules
    from hogsolve.gui.lab import Lab
    students, _, words, _ = contest
    for name in ("passwd", "shell", "vandal"):
        result = run_main("compare", str(students / name / "hog.py"), "optimal", "--rules", "su18", "--goal", "20")
        assert result.returncode == 2 and words[name] in result.stderr and result.stderr.count("\n") == 1
        lab = Lab(str(students / name / "hog.py"), "final_strategy", get_rules("su18", goal=20))
        lab.evaluate()
        assert words[name] in lab.error


def test_a_machine_without_walls_says_so_once_and_require_refuses(tmp_path, monkeypatch):
    """Where the kernel has no Landlock: one notice line per run, and --require-sandbox (or
    HOGSOLVE_REQUIRE_SANDBOX=1) refuses to run the file.  Mistakes: student code run silently
    unwalled, or run although the walls are required."""
    monkeypatch.setattr(userfile, "_kernel_support", lambda: {"landlock_abi": 0, "files": False, "tcp": False,
                                                              "signals": False, "seccomp": True, "enforced": False})
    monkeypatch.setattr(userfile, "_NOTICES", [])
    monkeypatch.delenv(userfile.REQUIRE_SANDBOX_ENV, raising=False)
    (tmp_path / "a.py").write_text("def final_strategy(score, opponent_score):\n    return 4\n")
    (tmp_path / "b.py").write_text("def final_strategy(score, opponent_score):\n    return 6\n")
    ran = run_main("compare", str(tmp_path / "a.py"), str(tmp_path / "b.py"), "--rules", "su18", "--goal", "20")
    assert ran.returncode == 0
    notices = [line for line in ran.stderr.splitlines() if "cannot wall in student code" in line]
    assert len(notices) == 1 and notices[0].startswith("note: this machine cannot wall in student code")
    refused = run_main("compare", str(tmp_path / "a.py"), "optimal", "--rules", "su18", "--goal", "20",
                       "--require-sandbox")
    assert refused.returncode == 2 and refused.stdout == "" and refused.stderr.count("\n") == 1
    assert "not run: this machine cannot wall in student code" in refused.stderr
    (tmp_path / "pig.py").write_text("def strategy(score, opponent_score, turn_total):\n    return turn_total < 5\n")
    pig = run_main("compare", f"{tmp_path / 'pig.py'}:strategy", "optimal", "--rules", "piglet", "--require-sandbox")
    assert pig.returncode == 2 and "not run: this machine cannot wall in student code" in pig.stderr  # every game
    monkeypatch.delenv(userfile.REQUIRE_SANDBOX_ENV, raising=False)
    monkeypatch.setenv(userfile.REQUIRE_SANDBOX_ENV, "1")
    assert run_main("compare", str(tmp_path / "a.py"), "optimal", "--rules", "su18", "--goal", "20").returncode == 2


def test_doctor_tries_every_wall():
    """`hogsolve doctor` starts a walled process and tries each thing a strategy may not do.
    Mistake: a report of what should be, not of what the kernel did."""
    result = run_main("doctor", "--json")
    assert result.returncode == 0
    record = json.loads(result.stdout)
    assert record["walled_in"] is True and record["error"] == ""
    tried = record["tried"]
    assert [tried[k] for k in ("read", "write", "tcp", "socket", "program", "process", "signal")] == ["refused"] * 7
    assert tried["own_read"] == tried["own_write"] == "allowed"
