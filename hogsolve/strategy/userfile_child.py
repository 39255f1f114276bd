"""Run in a fresh interpreter: tabulate one function of one user file, report as JSON.

    python userfile_child.py REQUEST.json

Standard library only, and no import of hogsolve, so nothing of hogsolve's
and nothing of another user file is in the way: the file's own folder is
first on ``sys.path`` and its helpers (``hog.py``, ``dice.py``, ``ucb.py``)
are its own.  An agent on observation vectors is asked through
``agent_calls.py`` beside this file, loaded by path after the user's file,
on the rows the parent saved.  The parent (:mod:`hogsolve.strategy.userfile`) sets the limits (time,
memory, output), captures stdout and stderr, and closes stdin.  Before the user's code runs,
a watcher process forked here waits on a pipe from the parent: when the parent dies, however
it dies, the pipe closes and the watcher kills this whole process group, the user's own
children with it.  An audit hook notes every file the user's code opens for reading, so the
parent's cache is keyed on the data files too (a strategy that lists a folder or reads
something that is not a regular file is not cached).  Progress is written to a
small file (phase, score, opponent score) so a stopped run can say where it
stopped; the result is written to a JSON file, never to stdout.
"""
import errno
import hashlib
import importlib.util
import inspect
import json
import numbers
import os
import signal
import site
import stat
import struct
import sys
import sysconfig
from typing import Any

IMPORTING, CALLING, DONE, ASKING = 1, 2, 3, 4
HERE = os.path.dirname(os.path.abspath(__file__))


def described(exc: BaseException) -> str:
    """``ValueError: bad`` or, for an exception without a message (MemoryError()), its name alone."""
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def limit_self(request) -> None:
    """Cap this process's output and memory (hard limits equal to the soft ones, so the user's code
    cannot lift them) and have the kernel kill it when hogsolve dies, however it dies (a
    parent-death signal, Linux): set here, first thing, rather than between fork and exec in
    hogsolve's process, where a signal arriving at that moment would run hogsolve's handler in
    the copy."""
    import resource
    if request.get("output_bytes"):
        cap = int(request["output_bytes"])
        resource.setrlimit(resource.RLIMIT_FSIZE, (cap, cap))
    if request.get("memory_mb"):
        cap = int(request["memory_mb"]) * 2 ** 20
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    try:
        import ctypes
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG (its errno is not read)
    except (OSError, AttributeError):
        pass  # not Linux: the watcher and the clean-up on Ctrl-C and SIGTERM still kill it
    if request.get("parent") is not None and os.getppid() != int(request["parent"]):
        os._exit(70)  # hogsolve died before the signal was set: nobody is waiting


def watch_parent(fd: int) -> None:
    """Fork a watcher that kills this process group once ``fd``, the read end of a pipe whose
    write end only the parent holds, reaches its end: the parent is gone."""
    if os.fork() == 0:
        try:
            while os.read(fd, 1):
                pass
        finally:
            os.killpg(0, signal.SIGKILL)
            os._exit(0)
    os.close(fd)


def from_import_system() -> bool:
    """True when the Python code that raised the audit event is the import system (which lists
    the folders on the path to find modules)."""
    frame = sys._getframe(2)  # the hook's caller's caller: the code that called os.listdir
    return frame is not None and "importlib" in frame.f_code.co_filename


class Capped:
    """A text stream that passes on the first ``limit`` characters and counts the lines of all of
    it: a strategy that prints on every call has its output cut, not its run stopped (the kernel's
    file-size limit still stops one that writes past it by other means)."""

    def __init__(self, stream, limit: int):
        self.stream, self.limit, self.written, self.lines, self.open_line = stream, limit, 0, 0, False

    def write(self, text) -> int:
        """Pass on what fits under the limit; count every line."""
        text = str(text)
        if text:
            self.lines += text.count("\n")
            self.open_line = not text.endswith("\n")
        if self.written < self.limit:
            part = text[:self.limit - self.written]
            self.stream.write(part)
            self.written += len(part)
        return len(text)

    def writelines(self, lines) -> None:
        """:meth:`write` each line."""
        for line in lines:
            self.write(line)

    def counted(self) -> int:
        """Lines printed, the last one counted even without its newline."""
        return self.lines + int(self.open_line)

    def __getattr__(self, name):  # flush, fileno, encoding, isatty...: the real stream's
        return getattr(self.stream, name)


def digest_of(path: str):
    """The sha256 of a file's bytes, None when it cannot be read."""
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def source_of(path: str) -> str:
    """The source file a cached ``__pycache__/NAME.TAG.pyc`` was compiled from (Python reads the
    .pyc instead of the source while the source's size and time match), else ``path``."""
    folder, name = os.path.split(path)
    if name.endswith(".pyc") and os.path.basename(folder) == "__pycache__":
        return os.path.join(os.path.dirname(folder), name.split(".", 1)[0] + ".py")
    return path


class FilesRead:
    """An audit hook's record of the files the user's code opens for reading, each hashed as it is
    opened: a result is keyed on the bytes that ran, not on what the files hold when it ends."""

    def __init__(self, ignore, system=()):
        self.paths, self.listed, self.ignore = set(), [], {os.path.realpath(p) for p in ignore}
        self.system, self.digests, self.busy = tuple(p + os.sep for p in system), {}, False

    #: The walls' rules as the one-line messages say them: (read roots, write roots, the folder),
    #: set once the process is confined; None before (Python's own start-up is not checked).
    policy: Any = None
    violation = ""  # the first refused action ("tried to read /etc/passwd") and the rule it broke
    rule = ""

    def __call__(self, event, args):
        if self.busy:
            return
        if event == "open":
            path, mode, flags = args
            if path is None or isinstance(path, int):
                return
            writing = (isinstance(mode, str) and "r" not in mode and "+" not in mode) or \
                (mode is None and isinstance(flags, int) and flags & os.O_ACCMODE == os.O_WRONLY)
            opened = os.path.abspath(os.fsdecode(path))
            updating = writing or (isinstance(mode, str) and any(c in mode for c in "+aw")) or \
                (mode is None and isinstance(flags, int) and flags & os.O_ACCMODE != os.O_RDONLY)
            self.check(opened, "write" if updating else "read")
            if not writing:
                self.paths.add(opened)
                self.remember(source_of(opened))
        elif event in ("os.listdir", "os.scandir"):
            if from_import_system():
                return  # the import system looks in every folder of the path: not the user's doing
            where = os.fsdecode(args[0]) if args and args[0] is not None else "."
            self.check(os.path.abspath(where), "list")
            if len(self.listed) < 5:
                self.listed.append(where)
        elif self.policy is not None:
            self.refused(event, args)

    def check(self, path: str, how: str) -> None:
        """Note the first access the walls refuse (the kernel refuses it; this names it)."""
        if self.policy is None or self.violation:
            return
        reads, writes, folder = self.policy
        real = os.path.realpath(path)
        inside = any(real == root or real.startswith(root.rstrip(os.sep) + os.sep)
                     for root in (writes if how == "write" else reads + writes))
        if not inside:
            self.violation = f"tried to {how} {path}"
            self.rule = ("a strategy may write only its temporary folder ($TMPDIR)" if how == "write" else
                         f"a strategy may read only its own folder ({folder}) and Python's files")

    def refused(self, event, args) -> None:
        """Name the first refused action of another kind: the network, a program, a process, a signal."""
        if self.violation:
            return
        if event == "socket.__new__":
            self.violation, self.rule = "tried to open a network socket", "a strategy may not use the network"
        elif event in ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn"):
            program = args[1] if event == "subprocess.Popen" and len(args) > 1 else args[0] if args else "?"
            if isinstance(program, (list, tuple)):
                program = program[0] if program else "?"
            shown = os.fsdecode(program) if isinstance(program, (str, bytes)) else repr(program)
            self.violation, self.rule = f"tried to run {shown}", "a strategy may not start other programs"
        elif event in ("os.fork", "os.forkpty"):
            self.violation, self.rule = "tried to start a process (os.fork)", "a strategy runs in one process"
        elif event == "ctypes.dlsym":  # a C function looked up to be called: past every Python-level check
            name = args[1] if len(args) > 1 else "?"
            name = os.fsdecode(name) if isinstance(name, (str, bytes)) else name
            self.violation = f"called C code through ctypes ({name})"
            self.rule = "a strategy may not call the system directly"
        elif event in ("os.kill", "os.killpg") and args and args[0] not in (0, os.getpid(), os.getpgid(0)):
            self.violation = f"tried to send signal {args[1] if len(args) > 1 else '?'} to process {args[0]}"
            self.rule = "a strategy may not signal other processes"

    def remember(self, path: str) -> None:
        """Hash ``path`` now, the first time it is read (not Python's own files, nor ours)."""
        real = os.path.realpath(path)
        if real in self.digests or real in self.ignore or real.startswith(self.system):
            return
        self.busy = True  # the hash's own open is not the user's
        try:
            self.digests[real] = digest_of(real) if os.path.isfile(real) else None
        finally:
            self.busy = False

    def digest(self, path: str):
        """The digest ``path`` had when it was first read (hashed now if it never was)."""
        real = os.path.realpath(path)
        if real not in self.digests:
            self.remember(real)
        return self.digests.get(real)

    def changed(self, folder: str) -> list:
        """The files read whose bytes are not what they were when read (edited during the run),
        relative to ``folder``."""
        return sorted(os.path.relpath(real, os.path.realpath(folder)) for real, digest in self.digests.items()
                      if digest is not None and digest_of(real) != digest)

    def data_files(self, folder: str, system) -> tuple:
        """``(digests by path relative to folder, why not cacheable or '')``."""
        out, why = {}, ""
        if self.listed:
            why = f"it lists the folder {self.listed[0]!r}"
        for path in sorted(self.paths):
            real = os.path.realpath(path)
            if real in self.ignore or real.endswith(".pyc") or any(real.startswith(p + os.sep) for p in system):
                continue
            try:
                if not stat.S_ISREG(os.stat(real).st_mode):
                    why = why or f"it reads {path}, which is not a regular file"
                    continue
            except OSError:
                continue  # gone again (a file it tried and did not find): nothing to key on
            digest = self.digest(real)
            if digest is not None:
                out[os.path.relpath(real, os.path.realpath(folder))] = digest
        return out, why


def main(request_path: str) -> None:
    """Tabulate the request's function and write the result file (see the module docstring)."""
    with open(request_path) as f:
        request = json.load(f)
    limit_self(request)
    if request.get("watch_fd") is not None:
        watch_parent(int(request["watch_fd"]))
    progress = os.open(request["progress"], os.O_WRONLY)
    result_fd = os.open(request["result"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # before the walls
    reads = FilesRead([request_path, request["progress"], request["result"], request["rows"],
                       __file__, os.path.join(HERE, "agent_calls.py"), os.path.join(HERE, "sandbox_child.py")],
                      system_paths() | {os.path.realpath(HERE)})
    sys.addaudithook(reads)
    keep = int(request.get("keep_chars", 1 << 20))
    capped = [Capped(sys.stdout, keep), Capped(sys.stderr, keep)]
    sys.stdout, sys.stderr = capped
    if request.get("seed") is not None:  # each of the two runs draws other numbers: randomness shows
        import random
        random.seed(int(request["seed"]))

    def mark(phase, score=-1, opponent_score=-1):
        os.pwrite(progress, struct.pack("<iii", phase, score, opponent_score), 0)

    def finish(result):
        result = {**result, "printed": sum(stream.counted() for stream in capped), "sandbox": walls}
        data = json.dumps(result).encode()
        reads.busy = True  # our own last writes are not the user's
        while data:
            data = data[os.write(result_fd, data):]
        mark(DONE)
        for stream in (sys.__stdout__, sys.__stderr__):
            try:
                stream.flush()  # type: ignore[union-attr]
            except Exception:
                pass
        os._exit(0)  # no atexit handlers or threads of the user's code

    def seen() -> dict:
        """The files the user's code has loaded and read so far (what a result, a failure too, is
        cached against), and why it cannot be cached, if it cannot."""
        folder = os.path.dirname(request["file"])
        try:
            files = user_files(folder, reads.digest)
            data, why = reads.data_files(folder, system_paths())
            changed = reads.changed(folder)
        except Exception as exc:  # out of memory, say: what it read is not known
            return {"files": {}, "uncacheable": f"what it read is not known ({described(exc)})"}
        return {"files": {**data, **files}, **({"uncacheable": why} if why else {}),
                **({"changed": changed} if changed else {})}

    def fail(kind, message, score=-1, opponent_score=-1, hint=""):
        if reads.violation and kind != "sandbox":  # what the walls refused explains the failure
            kind, message, hint = "sandbox", reads.violation, f": {reads.rule}"
        finish({"ok": False, "kind": kind, "message": message, "score": score,
                "opponent_score": opponent_score, "hint": hint, **seen()})

    def raised(exc, score=-1, opponent_score=-1, during=""):
        """The one line for an exception of the user's code (the limits named as limits)."""
        if isinstance(exc, OSError) and exc.errno == errno.EFBIG:
            fail("output", f"printed more than {int(request['output_bytes']) // 2 ** 20} MB (its output limit){during}",
                 score,
                 opponent_score)
        if isinstance(exc, MemoryError):
            fail("memory", f"ran out of memory{during}", score, opponent_score,
                 f" (its limit is {request.get('memory_mb')} MB; --strategy-memory MB changes it)"
                 if request.get("memory_mb") else "")
        fail("raised", f"raised {described(exc)}{during}", score, opponent_score)

    def done(result):
        if reads.violation:  # refused, even if the user's code caught the error and went on
            fail("sandbox", reads.violation, hint=f": {reads.rule}")
        finish({**result, **seen()})

    path, function = request["file"], request["function"]
    folder = os.path.dirname(path)
    sys.path[0] = folder
    sys.argv = [path]
    name = os.path.splitext(os.path.basename(path))[0]

    walls = confine(request.get("sandbox"), reads, folder, request["rows"])
    mark(IMPORTING)
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise ImportError(f"no loader for {path}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    except SystemExit as exc:
        fail("exit", f"called sys.exit({exc.code!r}) while being imported")
    except ModuleNotFoundError as exc:
        missing = (exc.name or "").split(".")[0]
        what = ("the course's support file" if missing in ("dice", "ucb") else "the file it imports")
        fail("import", f"ModuleNotFoundError: {exc} ({what} {missing}.py must sit beside "
                       f"{os.path.basename(path)}, in its folder)" if missing else f"ModuleNotFoundError: {exc}")
    except MemoryError as exc:
        raised(exc, during=" while being imported")
    except OSError as exc:
        if exc.errno == errno.EFBIG:
            raised(exc, during=" while being imported")
        fail("import", f"{type(exc).__name__} while being imported" + (f": {exc}" if str(exc) else ""))
    except BaseException as exc:  # noqa: B902 - user code may raise anything
        fail("import", f"{type(exc).__name__} while being imported" + (f": {exc}" if str(exc) else ""))

    strategy: Any = getattr(module, function, None)
    if not callable(strategy) and not any(callable(getattr(strategy, method, None))
                                          for method in ("predict", "action_probabilities")):
        fail("missing", f"has no function {function!r}")
    calls = _agent_calls()
    if calls.takes_observation(strategy) or not request["scores_call"]:
        done({"ok": True, "actions": ask_every_row(calls, strategy, request, mark, fail, raised)})
    check_signature(strategy, function, fail)

    goal, most = request["goal"], request["max_dice"]
    table = []
    for s in range(goal):
        for o in range(goal):
            mark(CALLING, s, o)
            answers = []
            for _ in range(2):
                try:
                    choice = strategy(s, o)
                except SystemExit as exc:
                    fail("exit", f"called sys.exit({exc.code!r})", s, o)
                except BaseException as exc:  # noqa: B902
                    raised(exc, s, o)
                if (isinstance(choice, bool) or type(choice).__name__ == "bool_"
                        or not isinstance(choice, numbers.Integral) or not 0 <= int(choice) <= most):
                    fail("value", f"returned {short_repr(choice)}", s, o, f"; expected an int from 0 to {most}")
                answers.append(int(choice))
            if answers[0] != answers[1]:
                fail("nondeterministic", f"is not a function of the scores: it returned {answers[0]} and then "
                                         f"{answers[1]}", s, o, RANDOM_HINT)
            table.append(answers[0])
    done({"ok": True, "table": table})


#: Why a strategy's answers vary, and what to change (the same words as the parent's two-run check).
RANDOM_HINT = ("; a strategy must depend only on what it is given (the scores), and this one draws random "
               "numbers when it is imported or called (random, make_averaged, a Monte Carlo such as "
               "max_scoring_num_rolls): compute its numbers without randomness, or call random.seed(0) first")

#: How hogsolve calls each kind of strategy (named when a function cannot be called so).
SIGNATURES = ("a Hog strategy as f(score, opponent_score) -> dice (the CS 61A form, every semester's "
              "final_strategy, the Feral Hogs ones too), a roll-or-hold one as f(score, opponent_score, "
              "turn_total) -> roll?, and an agent as f(observation) or agent.predict(observation)")


def check_signature(strategy, function, fail) -> None:
    """Fail with the accepted forms when ``strategy`` cannot be called with two arguments."""
    try:
        signature = inspect.signature(strategy)
    except (TypeError, ValueError):
        return  # a builtin or an odd callable: calling it will tell
    try:
        signature.bind(0, 0)
    except TypeError:
        fail("signature", f"takes {function}{signature}, which cannot be called with two arguments; hogsolve "
                          f"calls {SIGNATURES}")


def allowed_reads(folder: str, *more: str) -> list:
    """What a student's process may read besides the system files of ``sandbox_child``: its own
    folder, Python's own and installed packages, this folder of hogsolve's child scripts, and
    ``more`` (the rows an agent is asked on).  ``hogsolve doctor`` walls its probe in with it too."""
    return sorted({os.path.realpath(p) for p in (folder, HERE, *more)} | system_paths())


def confine(sandbox, reads: "FilesRead", folder: str, rows: str) -> dict:
    """Put up the walls the parent asked for (``sandbox``: the private folder to write; None: no
    walls) with ``sandbox_child.py`` beside this file; what the kernel enforces, or why nothing."""
    if not sandbox:
        return {"enforced": False, "why": "not asked for"}
    spec = importlib.util.spec_from_file_location("_hogsolve_sandbox", os.path.join(HERE, "sandbox_child.py"))
    assert spec is not None and spec.loader is not None  # a .py file beside this one
    walls = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(walls)
    readable = allowed_reads(folder, rows)
    writable = [os.path.realpath(p) for p in sandbox["writes"]]
    reads.busy = True  # the walls' own opens (each path a rule names) are not the user's reads
    try:
        have = walls.confine(readable, writable)
    except OSError as exc:
        return {"enforced": False, "why": f"the kernel refused the walls ({exc})"}
    finally:
        reads.busy = False
    if have.get("landlock_abi", 0) >= 1:
        reads.policy = ([os.path.realpath(p) for p in walls.readable(readable)], writable, folder)
    return have


def system_paths() -> set:
    """Python's own and installed packages' folders (their files are not the user's)."""
    system = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    system |= {os.path.realpath(p) for p in sysconfig.get_paths().values()}
    system |= {os.path.realpath(p) for p in site.getsitepackages() + [site.getusersitepackages()]}
    return system


def _agent_calls():
    """hogsolve's agent_calls.py, loaded by path from beside this file (standard library only at
    its top)."""
    spec = importlib.util.spec_from_file_location("_hogsolve_agent_calls", os.path.join(HERE, "agent_calls.py"))
    assert spec is not None and spec.loader is not None  # a .py file beside this one
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _numpy():
    """numpy, imported with the user's folder off the path (a user's ``numpy.py`` does not
    shadow it)."""
    first = sys.path.pop(0)
    try:
        import numpy
    finally:
        sys.path.insert(0, first)
    return numpy


def ask_every_row(calls, strategy, request, mark, fail, raised) -> list:
    """The action at every row the parent saved: an agent's (one batch if it takes one), or a
    roll-or-hold function's True (roll, action 0) or False (hold, action 1); asked twice."""
    np = _numpy()
    rows = np.load(request["rows"], allow_pickle=False)
    agent = calls.takes_observation(strategy)
    if agent:
        def ask():  # actions, or an agent's action probabilities (a mixture, evaluated exactly)
            return calls.answers_of(strategy, rows, request["num_actions"],
                                    progress=lambda row: mark(ASKING, int(row[0]), int(row[1])))
    else:
        def ask():
            answers = []
            for s, o, t in rows.tolist():
                mark(CALLING, s, o)
                roll = strategy(s, o, t)
                if not isinstance(roll, bool) and type(roll).__name__ != "bool_":
                    raise calls.AgentError(f"returned {short_repr(roll)} at score {s}, opponent score {o}, "
                                           "turn total {t}; expected True (roll) or False (hold)".format(t=t))
                answers.append(0 if roll else 1)
            return np.array(answers, dtype=np.int64)
    results = []
    for _ in range(2):
        try:
            results.append(ask())
        except calls.AgentError as exc:
            fail("value", str(exc))
        except SystemExit as exc:
            fail("exit", f"called sys.exit({exc.code!r})")
        except BaseException as exc:  # noqa: B902
            raised(exc)
    differ = np.flatnonzero((results[0] != results[1]).reshape(len(rows), -1).any(axis=1))
    if len(differ):
        at = int(differ[0])
        fail("nondeterministic", f"is not a function of what it sees: it chose {results[0][at].tolist()} and "
                                 f"then {results[1][at].tolist()} at the observation {rows[at].tolist()}",
             hint=RANDOM_HINT)
    return results[0].tolist()


def short_repr(value) -> str:
    """``repr(value)``, at most 60 characters, never raising."""
    try:
        text = repr(value)
    except BaseException:  # noqa: B902
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


def user_files(folder: str, digest) -> dict:
    """sha256 of every loaded module file outside Python's own and installed packages (as
    ``digest(path)`` gives it: the bytes when the file was read), by path relative to the user's
    folder."""
    system = system_paths()
    here = os.path.realpath(os.path.dirname(__file__))
    out = {}
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if not file or not file.endswith(".py"):
            continue
        real = os.path.realpath(file)
        if real.startswith(here + os.sep) or any(real.startswith(p + os.sep) for p in system):
            continue
        sha = digest(real)
        if sha is not None:
            out[os.path.relpath(real, os.path.realpath(folder))] = sha
    return dict(sorted(out.items()))


if __name__ == "__main__":
    main(sys.argv[1])
