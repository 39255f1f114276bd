"""A user's ``file.py:function`` (or agent), tabulated in its own fresh interpreter.

Student code is hostile by accident: it imports helpers with common names
(``hog``, ``dice``, ``ucb``), prints, loops, exits, reads input, parses
arguments.  So each file runs in two fresh child processes at once (:mod:`hogsolve.strategy.userfile_child`),
with other seeds for ``random`` and other hash seeds (a strategy built from random numbers shows as
two tables), each walled in by the kernel before the file's code runs
(:mod:`hogsolve.strategy.sandbox_child`: it reads only its folder and Python's files, writes only
a private temporary folder, has no network, starts nothing), with its own folder first on the
import path, a time limit for the whole tabulation, stdout and stderr captured (never mixed into
hogsolve's output), stdin closed, and its answers checked at every state, twice.  What goes
wrong, or what the walls refused, becomes one :class:`UserFileError` line naming the file.

The name may be a CS 61A strategy ``(score, opponent_score)``, a roll-or-hold
strategy ``(score, opponent_score, turn_total) -> roll?``, or an agent on the
observation vectors of :mod:`hogsolve.strategy.observations` (a callable of one
argument, or an object with ``predict``, as the RL libraries' agents have).

Limits: time (``timeout``, 60 s by default), memory (``memory_mb``, the
address space of the student's process, :data:`DEFAULT_MEMORY_MB` by default),
output (:data:`OUTPUT_LIMIT` per stream); a student's process and every process
it starts die with hogsolve, even under SIGKILL (a watcher on a pipe, see
:mod:`hogsolve.strategy.userfile_child`).

Tables are cached under ``$HOGSOLVE_CACHE/strategies`` keyed by everything
they depend on: the function, the ruleset, the limits, and the contents of
every file the strategy loaded or read from outside Python's own and
installed packages, as the child read them (modules and data files alike; paths relative to the
file's folder, so two identical ``entry.py`` files importing different
``hog.py`` files are different strategies).  A file saved while it runs is run again; a strategy
that lists a folder or reads what is not a regular file, or whose report names other bytes of
its file than those on disk, is not cached at all.
"""
from __future__ import annotations

from ..errors import HogsolveError, InputError
import dataclasses
import functools
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import psutil

from .observations import Game, decision_rows, num_actions, table_of
from .userfile_child import RANDOM_HINT
from .agent_calls import AgentError
from .mixed import Mixture
from .policy import Policy, rules_key
from ..hog.rules import Ruleset
from ..util.files import atomic_write, sha256
from ..util.interrupts import Interrupted, stopping

CHILD = Path(__file__).with_name("userfile_child.py")
DEFAULT_TIMEOUT = 60.0
#: The address space a student's process may use, in MB (numpy and the interpreter take about
#: 150 MB; an agent built on a large library may need more: --strategy-memory).  0: no limit.
DEFAULT_MEMORY_MB = 2048
#: Most a strategy may print (stdout and stderr each) before it is stopped.
OUTPUT_LIMIT = 64 * 1024 * 1024
#: Lines of captured output kept for --show-output.
KEPT_LINES = 200
#: Characters of each stream a strategy's print() passes on; the rest is counted and dropped (a
#: strategy that prints on every call is cut, not stopped at :data:`OUTPUT_LIMIT`).
KEPT_CHARS = 1 << 20


class UserFileError(HogsolveError, ValueError):
    """A user file that could not be tabulated; the message is one line."""


def file_spec(spec: str) -> Optional[Tuple[str, str]]:
    """``(path, name)`` of a ``FILE.py:NAME`` spec, None for any other form; UserFileError when
    the name is not one."""
    path, _, name = spec.rpartition(":")
    if not path.endswith(".py"):
        return None
    if not name.isidentifier():
        raise UserFileError(f"bad strategy {spec!r}: {name!r} is not a function name")
    return path, name


@dataclasses.dataclass(frozen=True)
class CapturedOutput:
    """What a user file printed while it was tabulated."""

    lines: int
    text: str  # the first KEPT_LINES lines of stdout then stderr

    def note(self, label: str, shown: bool = False) -> str:
        """The one-line note shown when a file printed while it was tabulated."""
        return (f"note: {label} printed {self.lines} line{'s' if self.lines != 1 else ''} "
                + ("(below)" if shown else "(hidden; --show-output shows them)"))


def _sha256(path: Path) -> str:
    return sha256(path.read_bytes())


def cache_dir() -> Path:
    """Where tabulated user files are cached."""
    return Path(os.environ.get("HOGSOLVE_CACHE", Path.home() / ".cache" / "hogsolve")) / "strategies"


def _cache_path(file: Path, function: str, rules: Game, digest: Optional[str] = None) -> Path:
    """Where the records of ``function`` of ``file`` live: keyed on the file's bytes (``digest``,
    as the run read them; the file's present bytes when not given)."""
    key = json.dumps({"file": digest or _sha256(file), "function": function, "rules": rules_key(rules)},
                     sort_keys=True)
    return cache_dir() / (sha256(key.encode()) + ".json")


def _limits(timeout: float, memory_mb: int) -> dict:
    """The limits a cache record was made under (a success is reused under the same limits only,
    and in the same walls)."""
    return {"timeout": float(timeout), "memory_mb": int(memory_mb), "output_mb": OUTPUT_LIMIT // 2 ** 20,
            "sandboxed": bool(sandbox_support()["enforced"])}


class SandboxError(UserFileError):
    """Student code refused because this machine cannot wall it in and the walls are required."""


#: Set (to anything but 0 or empty) to refuse student code where it cannot be walled in: the
#: default a TA can make for every run (``--require-sandbox`` asks for it once).
REQUIRE_SANDBOX_ENV = "HOGSOLVE_REQUIRE_SANDBOX"
_NOTICES: List[str] = []


#: Set to ``off`` to run student code without walls (a file that needs what they forbid, or a test
#: of the supervision alone); hogsolve then says so as on a machine that cannot wall code in.
SANDBOX_ENV = "HOGSOLVE_SANDBOX"


@functools.lru_cache(maxsize=1)
def _kernel_support() -> dict:
    from . import sandbox_child
    return sandbox_child.support()


def sandbox_off() -> bool:
    """Whether the walls are turned off (:data:`SANDBOX_ENV`)."""
    return os.environ.get(SANDBOX_ENV, "").strip().lower() in ("off", "0", "no", "false")


def sandbox_support() -> dict:
    """What a student's process is walled in by on this machine (see :mod:`.sandbox_child`)."""
    if sandbox_off():
        return {**_kernel_support(), "files": False, "tcp": False, "signals": False, "seccomp": False,
                "enforced": False, "off": True}
    return _kernel_support()


def sandbox_missing() -> str:
    """'' where every wall stands; else the one line that says what this machine cannot enforce."""
    have = sandbox_support()
    if have["enforced"]:
        return ""
    if have.get("off"):
        return f"student code runs without walls ({SANDBOX_ENV}=off): a strategy file runs with your permissions"
    lacking = [what for key, what in (("files", "file access"), ("tcp", "TCP connections"),
                                      ("seccomp", "sockets, programs and processes")) if not have[key]]
    return (f"this machine cannot wall in student code (no kernel limits on {', '.join(lacking)}: "
            f"Landlock ABI {have['landlock_abi']}): a strategy file runs with your permissions")


def sandbox_notice() -> str:
    """:func:`sandbox_missing`'s line the first time it is asked for in this process, then ''."""
    line = sandbox_missing()
    if not line or line in _NOTICES:
        return ""
    _NOTICES.append(line)
    return line + f"; --require-sandbox (or {REQUIRE_SANDBOX_ENV}=1) refuses instead"


def sandbox_required(required: bool = False) -> bool:
    """Whether student code must be walled in: asked for, or made the default by the environment."""
    return required or os.environ.get(REQUIRE_SANDBOX_ENV, "") not in ("", "0")


def _cached(file: Path, function: str, rules: Game) -> Optional[dict]:
    """The cache record whose files are all unchanged: ``{"table": [...]}`` of a success, or
    ``{"failed": message, "timeout": seconds or None}`` of a failure; plus ``files`` and
    what the file printed (``lines``, ``text``)."""
    try:
        records = json.loads(_cache_path(file, function, rules).read_text())["records"]
        folder = file.parent
        for record in reversed(records):
            files = record["files"]
            if all((folder / rel).is_file() and _sha256(folder / rel) == digest for rel, digest in files.items()):
                return record
    except (OSError, ValueError, KeyError, TypeError, RecursionError, AttributeError):
        return None
    return None


def _folder_files(file: Path) -> Dict[str, str]:
    """Every file beside ``file`` with its digest: what a failure is cached against besides the
    files it reported (a time-out or a crash reports nothing, so any change beside it, a helper
    or a data file, runs it again)."""
    return {p.name: _sha256(p) for p in sorted(file.parent.iterdir()) if p.is_file()}


def _store(file: Path, function: str, rules: Game, record: dict) -> None:
    path = _cache_path(file, function, rules, record["files"].get(file.name))
    try:
        records = json.loads(path.read_text())["records"] if path.exists() else []
        if not isinstance(records, list):
            records = []
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        records = []
    records = [r for r in records if isinstance(r, dict) and r.get("files") != record["files"]][-15:]
    records.append(record)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, json.dumps({"records": records}).encode())
    except OSError:
        pass  # an unwritable cache only costs time


WORK_PREFIX = "hogsolve-"


def _work_folder() -> tempfile.TemporaryDirectory:
    """A temporary folder for one run, named with this process's PID, after deleting those a
    killed hogsolve left (their PID is gone): a SIGKILL cannot clean up after itself."""
    for stale in Path(tempfile.gettempdir()).glob(f"{WORK_PREFIX}[0-9]*-*"):
        pid = stale.name[len(WORK_PREFIX):].split("-", 1)[0]
        if pid.isdecimal() and int(pid) != os.getpid() and not psutil.pid_exists(int(pid)):
            shutil.rmtree(stale, ignore_errors=True)
    return tempfile.TemporaryDirectory(prefix=f"{WORK_PREFIX}{os.getpid()}-")


def _read_output(paths: List[Path]) -> CapturedOutput:
    lines, kept = 0, []  # type: Tuple[int, List[str]]
    for path in paths:
        with open(path, "rb") as f:
            for raw in f:
                lines += 1
                if len(kept) < KEPT_LINES:
                    kept.append(raw.decode("utf-8", "replace").rstrip("\n"))
    return CapturedOutput(lines, "\n".join(kept))


def _where(progress: Path) -> str:
    phase, s, o = struct.unpack("<iii", progress.read_bytes()[:12])
    if phase == 2:
        return f"at score {s}, opponent score {o}"
    if phase == 4:
        return f"at the observation of score {s}, opponent score {o}"
    if phase == 1:
        return "while being imported"
    return "before it started"


def tabulate_file(path: str, function: str, rules: Ruleset, *, timeout: float = DEFAULT_TIMEOUT,
                  use_cache: bool = True, retry_failed: bool = False,
                  memory_mb: int = DEFAULT_MEMORY_MB) -> Tuple[Any, Optional[CapturedOutput]]:
    """``function`` of the Python file ``path`` as a :class:`Policy` (an agent that gives action
    probabilities: a :class:`~hogsolve.strategy.mixed.Mixture`), run isolated.

    Returns the policy and what the file printed (also when the table came
    from the cache, which keeps it).  Raises :class:`UserFileError` with a
    one-line message when the file cannot be tabulated.  A failure is cached
    by content like a success, so a rerun does not pay a looping file's time
    limit again (a time-out only for limits up to the one it hit);
    ``retry_failed`` runs such a file again.  ``memory_mb`` caps the process's address space.
    """
    table, source, captured = tabulate_table(path, function, rules, timeout=timeout, use_cache=use_cache,
                                             retry_failed=retry_failed, memory_mb=memory_mb)
    if table.dtype.kind == "f":  # an agent that gave action probabilities
        return Mixture(rules, table, f"{path}:{function}"), captured
    return Policy(table, rules, f"{path}:{function}", source), captured


def tabulate_table(path: str, function: str, game: Game, *, timeout: float = DEFAULT_TIMEOUT,
                   use_cache: bool = True, retry_failed: bool = False, memory_mb: int = DEFAULT_MEMORY_MB,
                   require_sandbox: bool = False) -> Tuple[np.ndarray, dict, Optional[CapturedOutput]]:
    """As :func:`tabulate_file`, for either family: the table (Hog's dice counts, or a
    roll-or-hold game's roll table), where it came from, and what the file printed.

    The file runs walled in where the machine allows (:mod:`.sandbox_child`); with
    ``require_sandbox`` (or :data:`REQUIRE_SANDBOX_ENV` set) a machine that cannot wall it in
    refuses with :class:`SandboxError` instead."""
    label = f"{path}:{function}"
    file = Path(path).resolve()
    if not file.is_file():
        raise UserFileError(f"{label}: no such file: {path}")
    if sandbox_required(require_sandbox) and sandbox_missing():
        raise SandboxError(f"{label} not run: {sandbox_missing()}, and the walls are required (--require-sandbox "
                           f"or {REQUIRE_SANDBOX_ENV})")
    source = {"kind": "file", "file": str(file), "function": function, "sha256": _sha256(file)}
    limits = _limits(timeout, memory_mb)
    if use_cache:
        hit = _cached(file, function, game)
        if hit is not None and "failed" in hit and not set(_folder_files(file).items()) <= set(hit["files"].items()):
            hit = None  # a file added or changed beside it (a helper that was missing) may mend it
        if hit is not None and {k: v for k, v in hit.get("limits", {}).items() if k != "timeout"} != \
                {k: v for k, v in limits.items() if k != "timeout"}:
            hit = None  # made under another memory or output limit
        if hit is not None and "table" in hit and hit.get("limits", {}).get("timeout") != limits["timeout"]:
            hit = None  # a success under another time limit might not be one under this
        captured = CapturedOutput(int(hit.get("lines", 0)), str(hit.get("text", ""))) if hit else None
        if hit is not None and "table" in hit:
            shape = tuple(hit.get("shape", (game.goal, game.goal)))
            if hit.get("mixture"):  # action probabilities, as the agent gave them
                table = np.array(hit["table"], dtype=np.float64).reshape(shape)
            else:
                table = game.stored_table(np.array(hit["table"], dtype=np.int64).reshape(shape))
            return table, {**source, "files": hit["files"], "cached": True}, captured
        limit = hit.get("timeout") if hit else None
        if hit is not None and not retry_failed and (limit is None or timeout <= limit):
            raise UserFileError(f"{hit['failed']} (cached: the file is unchanged; --retry-failed runs it again)")
    if stopping():  # Ctrl-C came while this thread waited its turn: start nothing new
        raise Interrupted()
    before = _folder_files(file) if use_cache else {}  # what a failure that reports nothing ran
    try:
        for _attempt in range(RUNS_WHILE_EDITED):
            table, files, captured, uncacheable, changed = _run(file, label, function, game, timeout, memory_mb)
            if not changed:
                break  # else a file was saved while it ran: run the new bytes
        if changed:
            uncacheable = (f"{', '.join(changed)} changed while it ran, {RUNS_WHILE_EDITED} times: the figures are "
                           "of one of its versions")
    except _Failed as failure:
        if stopping():  # killed by the clean-up, not by its own doing: neither cached nor reported
            raise Interrupted() from None
        if use_cache and not failure.uncacheable and _folder_files(file) == before:  # nothing saved meanwhile
            _store(file, function, game, {"files": {**before, **failure.files},
                                          "failed": failure.message, "timeout": failure.timeout, "limits": limits})
        raise UserFileError(failure.message) from None
    ran = files.get(file.name, source["sha256"])
    if ran not in (source["sha256"], _sha256(file)) and not uncacheable:
        # the report is the student's process's to write: bytes the file never had would key
        # the cache of another file's content (a forged table for someone else's strategy)
        uncacheable = "its report names other bytes of the file than it had"
    source["sha256"] = ran  # the bytes that ran
    assert captured is not None  # a run that gave a table read what it printed
    if use_cache and not uncacheable:
        mixture = table.dtype.kind == "f"
        _store(file, function, game, {"files": files, "mixture": mixture,
                                      "table": table.reshape(-1).tolist() if mixture else
                                      table.reshape(-1).astype(int).tolist(),
                                      "shape": list(table.shape), "lines": captured.lines,
                                      "text": captured.text, "limits": limits})
    return table, {**source, "files": files, **({"not_cached": uncacheable} if uncacheable else {})}, captured


#: Runs of a file that is being saved while it runs before its figures are given uncached.
RUNS_WHILE_EDITED = 3
#: The two fresh runs that show a strategy random at import: (seed for ``random``, PYTHONHASHSEED).
SEEDS = ((1, "1"), (2, "2"))


class _Failed(Exception):
    """A run that failed: its one-line message, and the time limit it hit (None: not a time-out)."""

    def __init__(self, message: str, timeout: Optional[float] = None, files: Optional[dict] = None,
                 uncacheable: str = ""):
        super().__init__(message)
        self.message, self.timeout, self.files, self.uncacheable = message, timeout, files or {}, uncacheable


def _kill_group(pid: int) -> None:
    """SIGKILL the student's process group; already gone (the Ctrl-C clean-up got there
    first, or nothing was left) is fine."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _supervised(file: Path, children: List[dict], label: str, timeout: float) -> List[int]:
    """Start the children (each ``request``, ``outputs``, ``env``, ``watch_read``, ``progress``) at
    once, wait for them within ``timeout``, then kill each one's process group (anything the file
    left running); their exit codes; raises :class:`_Failed` on a time-out."""
    procs: List[subprocess.Popen] = []
    try:
        for child in children:
            with open(child["outputs"][0], "wb") as out, open(child["outputs"][1], "wb") as err:
                try:
                    procs.append(subprocess.Popen(
                        [sys.executable, str(CHILD), str(child["request"])], cwd=file.parent,
                        stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=child["env"], start_new_session=True,
                        pass_fds=(child["watch_read"],)))  # no preexec_fn: no Python runs between fork and exec
                finally:
                    os.close(child["watch_read"])
            if stopping():  # Ctrl-C came while it started: the clean-up may have missed it
                _kill_group(procs[-1].pid)
        deadline = time.monotonic() + timeout
        for proc, child in zip(procs, children):
            try:
                proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                raise _Failed(f"{label} did not finish within {timeout:g} s (stopped {_where(child['progress'])})"
                              f"{SLOW_HINT}", timeout) from None
    finally:
        for proc in procs:
            if proc.poll() is None:
                _kill_group(proc.pid)
                proc.wait()
    for proc in procs:
        _kill_group(proc.pid)  # anything the file left running
    return [int(proc.returncode) for proc in procs]


#: What a student whose file ran out of time can do (a slow strategy is not a wrong one).
SLOW_HINT = ("; a strategy that loops never finishes, but a correct slow one only needs longer: "
             "--strategy-timeout SECONDS gives it more time")


def _run(file: Path, label: str, function: str, game: Game, timeout: float, memory_mb: int = DEFAULT_MEMORY_MB):
    """Tabulate ``function`` of ``file`` in two fresh interpreters at once, with other seeds for
    ``random`` and other hash seeds, so that a strategy built from random numbers (at import or
    in the call) shows as two tables; its table, the files it loaded or read (hashed as they were
    read), what it printed, why it cannot be cached ('' when it can), and the files that changed
    while it ran; raises :class:`_Failed`."""
    rows, index = decision_rows(game)
    with _work_folder() as work:
        work = Path(work)
        rows_file = work / "rows.npy"
        np.save(rows_file, rows, allow_pickle=False)
        children: List[Dict[str, Any]] = []
        write_ends: List[int] = []
        for number, (seed, hash_seed) in enumerate(SEEDS):
            folder = work / f"run{number}"
            folder.mkdir()
            progress, result = folder / "progress", folder / "result.json"
            private = folder / "tmp"  # the one folder it may write; removed with the work folder
            private.mkdir()
            progress.write_bytes(bytes(12))
            # the watcher's pipe: only the child gets the read end; when this process dies, its write
            # end closes and the watcher kills the student's process group
            watch_read, watch_write = os.pipe()
            write_ends.append(watch_write)
            request = folder / "request.json"
            request.write_text(json.dumps({"watch_fd": watch_read, "parent": os.getpid(),
                                           "output_bytes": OUTPUT_LIMIT, "file": str(file), "function": function,
                                           "goal": int(game.goal), "seed": seed,
                                           "scores_call": bool(game.scores_call), "max_dice": num_actions(game) - 1,
                                           "num_actions": num_actions(game), "rows": str(rows_file),
                                           "progress": str(progress), "result": str(result),
                                           "memory_mb": int(memory_mb), "keep_chars": KEPT_CHARS,
                                           "sandbox": None if sandbox_off() else {"writes": [str(private)]}}))
            env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONDONTWRITEBYTECODE": "1", "TMPDIR": str(private)}
            children.append({"request": request, "outputs": [folder / "stdout", folder / "stderr"], "env": env,
                             "watch_read": watch_read, "progress": progress, "result": result})
        try:
            codes = _supervised(file, children, label, timeout)
        finally:
            for end in write_ends:
                os.close(end)
        captured = _read_output(children[0]["outputs"])
        reports = [_report(c["result"]) for c in children]
        wheres = [_where(c["progress"]) for c in children]
    first, second = (_check_report(report, code, where, label) for report, code, where in zip(reports, codes, wheres))
    tables = [_table_of(report, game, index, label) for report in (first, second)]
    changed = sorted(set(first.get("changed", [])) | set(second.get("changed", []))
                     | {rel for rel, digest in first["files"].items() if second["files"].get(rel, digest) != digest})
    if not changed and not np.array_equal(tables[0], tables[1]):
        raise _Failed(f"{label} {_differ(tables)}", uncacheable="it is random")
    if first.get("printed", 0) > captured.lines:  # cut by the child: it says how much it printed
        captured = dataclasses.replace(captured, lines=int(first["printed"]))
    return tables[0], first["files"], captured, first.get("uncacheable", ""), changed


def _report(path: Path) -> Optional[dict]:
    """A child's report, None when it wrote none (it died first) or only part of one."""
    try:
        report = json.loads(path.read_bytes() or b"null")
    except (OSError, ValueError):
        return None
    return report if isinstance(report, dict) else None


def _check_report(report: Optional[dict], code: int, where: str, label: str) -> dict:
    """A child's report of a table; :class:`_Failed` with the one line of a child that did not
    tabulate the file."""
    if report is None:
        if code == -signal.SIGXFSZ:
            why = f"printed more than {OUTPUT_LIMIT // 2 ** 20} MB"
        elif code < 0:
            why = f"crashed the interpreter ({signal.Signals(-code).name})"
        else:
            why = f"exited with code {code} (os._exit?)"
        raise _Failed(f"{label} {why} {where}")
    if not report["ok"]:
        where = (f" at score {report['score']}, opponent score {report['opponent_score']}"
                 if report["score"] >= 0 else "")
        nondeterministic = report.get("kind") == "nondeterministic"
        raise _Failed(f"{label} {report['message']}{where}{report['hint']}",
                      files=report.get("files"), uncacheable="it is random" if nondeterministic
                      else report.get("uncacheable", ""))
    return report


def _table_of(report: dict, game: Game, index, label: str) -> np.ndarray:
    """The strategy table a child's report holds: the game's table of actions, or, from an agent
    that gave action probabilities, its table of them (the game's shape plus the actions; one
    whose every row is sure is the table of actions)."""
    if "actions" in report:
        answers = np.array(report["actions"])
        try:
            if answers.ndim == 2:
                mixture = Mixture.of(game, answers, index, where=np.stack(index, axis=1))
                fixed = mixture.fixed()
                return mixture.probabilities if fixed is None else fixed
            return table_of(game, answers.astype(np.int64), index)
        except (AgentError, InputError) as exc:
            raise _Failed(f"{label} {exc}") from None
    return np.array(report["table"], dtype=np.int64).reshape(game.goal, game.goal)


def _differ(tables: List[np.ndarray]) -> str:
    """The one line for a strategy whose two fresh runs chose differently: where first, and why."""
    mixture = tables[0].dtype.kind == "f"  # an agent's action probabilities: the last axis is the actions
    unequal = tables[0] != tables[1]
    at = tuple(int(i) for i in np.argwhere(unequal.any(axis=-1) if mixture else unequal)[0])
    where = f"at score {at[0]}, opponent score {at[1]}"
    if len(at) == 3:  # a roll-or-hold table: (score, opponent score, turn total)
        where += f", turn total {at[2]}"
    elif len(at) == 4:  # a table with both players' memories
        where += f", memory slots {at[2]} and {at[3]}"
    return (f"is not a function of the scores: two fresh runs chose {tables[0][at]} and then {tables[1][at]} "
            f"{where}{RANDOM_HINT}")
