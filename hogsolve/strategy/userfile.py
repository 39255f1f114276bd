"""A user's ``file.py:function`` (or agent), tabulated in its own fresh interpreter.

Student code is hostile by accident: it imports helpers with common names
(``hog``, ``dice``, ``ucb``), prints, loops, exits, reads input, parses
arguments.  So each file runs in a child process (:mod:`hogsolve.strategy.userfile_child`)
with its own folder first on the import path, a time limit for the whole
tabulation, stdout and stderr captured (never mixed into hogsolve's
output), stdin closed, and its answers checked at every state, twice.  What
goes wrong becomes one :class:`UserFileError` line naming the file.

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
installed packages (modules and data files alike; paths relative to the
file's folder, so two identical ``entry.py`` files importing different
``hog.py`` files are different strategies).  A strategy that lists a folder
or reads what is not a regular file is not cached at all.
"""
from __future__ import annotations

from ..errors import HogsolveError
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
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import numpy as np
import psutil

from .observations import Game, decision_rows, num_actions, table_of
from .agent_calls import AgentError
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


def _cache_path(file: Path, function: str, rules: Game) -> Path:
    key = json.dumps({"file": _sha256(file), "function": function, "rules": rules_key(rules)},
                     sort_keys=True)
    return cache_dir() / (sha256(key.encode()) + ".json")


def _limits(timeout: float, memory_mb: int) -> dict:
    """The limits a cache record was made under (a success is reused under the same limits only)."""
    return {"timeout": float(timeout), "memory_mb": int(memory_mb), "output_mb": OUTPUT_LIMIT // 2 ** 20}


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
    path = _cache_path(file, function, rules)
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


def _in_child(memory_mb: int) -> None:
    """Runs in the student's process before it starts: cap its output and its memory, and have
    the kernel kill it when hogsolve dies, however it dies (a parent-death signal, Linux; its
    own children are the watcher's, see :mod:`hogsolve.strategy.userfile_child`)."""
    import resource
    resource.setrlimit(resource.RLIMIT_FSIZE, (OUTPUT_LIMIT, OUTPUT_LIMIT))
    if memory_mb:
        resource.setrlimit(resource.RLIMIT_AS, (memory_mb * 2 ** 20, memory_mb * 2 ** 20))
    try:
        import ctypes
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG (its errno is not read)
    except (OSError, AttributeError):
        pass  # not Linux: the clean-up on Ctrl-C and SIGTERM still kills it


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
                  memory_mb: int = DEFAULT_MEMORY_MB) -> Tuple[Policy, Optional[CapturedOutput]]:
    """``function`` of the Python file ``path`` as a :class:`Policy`, run isolated.

    Returns the policy and what the file printed (also when the table came
    from the cache, which keeps it).  Raises :class:`UserFileError` with a
    one-line message when the file cannot be tabulated.  A failure is cached
    by content like a success, so a rerun does not pay a looping file's time
    limit again (a time-out only for limits up to the one it hit);
    ``retry_failed`` runs such a file again.  ``memory_mb`` caps the process's address space.
    """
    table, source, captured = tabulate_table(path, function, rules, timeout=timeout, use_cache=use_cache,
                                             retry_failed=retry_failed, memory_mb=memory_mb)
    return Policy(table, rules, f"{path}:{function}", source), captured


def tabulate_table(path: str, function: str, game: Game, *, timeout: float = DEFAULT_TIMEOUT,
                   use_cache: bool = True, retry_failed: bool = False, memory_mb: int = DEFAULT_MEMORY_MB
                   ) -> Tuple[np.ndarray, dict, Optional[CapturedOutput]]:
    """As :func:`tabulate_file`, for either family: the table (Hog's dice counts, or a
    roll-or-hold game's roll table), where it came from, and what the file printed."""
    label = f"{path}:{function}"
    file = Path(path).resolve()
    if not file.is_file():
        raise UserFileError(f"{label}: no such file: {path}")
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
            table = np.array(hit["table"], dtype=np.int64).reshape(shape)
            table = game.stored_table(table)
            return table, {**source, "files": hit["files"], "cached": True}, captured
        limit = hit.get("timeout") if hit else None
        if hit is not None and not retry_failed and (limit is None or timeout <= limit):
            raise UserFileError(f"{hit['failed']} (cached: the file is unchanged; --retry-failed runs it again)")
    if stopping():  # Ctrl-C came while this thread waited its turn: start nothing new
        raise Interrupted()
    try:
        table, files, captured, uncacheable = _run(file, label, function, game, timeout, memory_mb)
    except _Failed as failure:
        if stopping():  # killed by the clean-up, not by its own doing: neither cached nor reported
            raise Interrupted() from None
        if use_cache and not failure.uncacheable:
            _store(file, function, game, {"files": {**failure.files, **_folder_files(file)},
                                          "failed": failure.message, "timeout": failure.timeout, "limits": limits})
        raise UserFileError(failure.message) from None
    if use_cache and not uncacheable:
        _store(file, function, game, {"files": files, "table": table.reshape(-1).astype(int).tolist(),
                                      "shape": list(table.shape), "lines": captured.lines,
                                      "text": captured.text, "limits": limits})
    return table, {**source, "files": files, **({"not_cached": uncacheable} if uncacheable else {})}, captured


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


def _supervised(file: Path, request: Path, outputs: List[Path], env: dict, watch_read: int, memory_mb: int,
                label: str, timeout: float, progress: Path) -> subprocess.Popen:
    """Start the child, wait for it within ``timeout``, then kill its whole process group
    (anything the file left running); raises :class:`_Failed` on a time-out."""
    with open(outputs[0], "wb") as out, open(outputs[1], "wb") as err:
        try:
            proc = subprocess.Popen([sys.executable, str(CHILD), str(request)], cwd=file.parent,
                                    stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env,
                                    start_new_session=True, pass_fds=(watch_read,),
                                    preexec_fn=functools.partial(_in_child, memory_mb))
        finally:
            os.close(watch_read)
        if stopping():  # Ctrl-C came while it started: the clean-up may have missed it
            _kill_group(proc.pid)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(proc.pid)
            proc.wait()
            raise _Failed(f"{label} did not finish within {timeout:g} s (stopped {_where(progress)})",
                          timeout) from None
        finally:
            if proc.poll() is None:
                _kill_group(proc.pid)
                proc.wait()
    _kill_group(proc.pid)  # anything the file left running
    return proc


def _run(file: Path, label: str, function: str, game: Game, timeout: float, memory_mb: int = DEFAULT_MEMORY_MB):
    """Tabulate ``function`` of ``file`` in a fresh interpreter: its table, the files it loaded
    or read, what it printed, and why it cannot be cached ('' when it can); raises
    :class:`_Failed`."""
    rows, index = decision_rows(game)
    with _work_folder() as work:
        work = Path(work)
        progress, result, rows_file = work / "progress", work / "result.json", work / "rows.npy"
        progress.write_bytes(bytes(12))
        np.save(rows_file, rows, allow_pickle=False)
        # the watcher's pipe: only the child gets the read end; when this process dies, its write
        # end closes and the watcher kills the student's process group
        watch_read, watch_write = os.pipe()
        request = work / "request.json"
        request.write_text(json.dumps({"watch_fd": watch_read, "file": str(file), "function": function,
                                       "goal": int(game.goal),
                                       "family": game.family, "max_dice": num_actions(game) - 1,
                                       "num_actions": num_actions(game), "rows": str(rows_file),
                                       "progress": str(progress), "result": str(result),
                                       "memory_mb": int(memory_mb), "output_mb": OUTPUT_LIMIT // 2 ** 20}))
        outputs = [work / "stdout", work / "stderr"]
        env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1"}
        try:
            proc = _supervised(file, request, outputs, env, watch_read, memory_mb, label, timeout, progress)
        finally:
            os.close(watch_write)
        captured = _read_output(outputs)
        report = json.loads(result.read_text()) if result.exists() else None
        where = _where(progress)
    if report is None:
        code = proc.returncode
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
        raise _Failed(f"{label} {report['message']}{where}{report['hint']}",
                      files=report.get("files"), uncacheable=report.get("uncacheable", ""))
    if "actions" in report:
        try:
            table = table_of(game, np.array(report["actions"], dtype=np.int64), index)
        except AgentError as exc:
            raise _Failed(f"{label} {exc}") from None
    else:
        table = np.array(report["table"], dtype=np.int64).reshape(game.goal, game.goal)
    return table, report["files"], captured, report.get("uncacheable", "")
