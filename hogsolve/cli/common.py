"""Helpers shared by every verb: errors, argument types, JSON output, safe paths.

Every user mistake becomes a :class:`UsageError`: one line on stderr, exit 2.
"""
from __future__ import annotations

from ..errors import HogsolveError, InputTypeError
import argparse
import contextlib
import json
import os
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, List, Optional, cast


class UsageError(HogsolveError):
    """Bad input from the user: reported on one line, exit code 2."""


class Failure(Exception):
    """A run that could not give a trustworthy answer: one line on stderr, exit code 1."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2."""

    def error(self, message):
        """Raise a one-line UsageError instead of printing usage and exiting."""
        raise UsageError(f"{self.prog}: {message}")


# ------------------------------------------------------------------ JSON ----

def json_value(x):
    """JSON for values json does not know; anything else is a bug, not a string."""
    if isinstance(x, Fraction):
        return {"fraction": f"{x.numerator}/{x.denominator}", "decimal": float(x)}
    if type(x).__module__ == "numpy":  # numpy scalars and arrays, without importing numpy here
        return x.tolist()
    if isinstance(x, Path):
        return str(x)
    raise InputTypeError(f"cannot write {type(x).__name__} as JSON")


def respond(args, data, show: Callable[[], None], not_proven: str = "") -> int:
    """Print ``data`` as JSON with ``--json``, else call ``show()`` to print text; exit code 0.

    With ``not_proven`` (why the figures rest on an unproven optimum) the JSON says so and
    every text line holding a figure ends in "(not proven)"."""
    if getattr(args, "json", False):
        emit_json({**data, "proven": False, "not_proven": not_proven} if not_proven and isinstance(data, dict)
                  else data)
    elif not_proven:
        import contextlib
        import io
        import re
        text = io.StringIO()
        with contextlib.redirect_stdout(text):
            show()
        print(f"note: not proven: {not_proven}")
        for line in text.getvalue().splitlines():
            print(line + ("  (not proven)" if re.search(r"\d\.\d", line) else ""))
    else:
        show()
    return 0


def emit_json(data) -> None:
    """Print ``data`` as indented JSON (fractions with both exact and decimal forms)."""
    print(json.dumps(data, indent=2, default=json_value))


# -------------------------------------------------------- argument types ----

def int_in_range(low: Optional[int] = None, high: Optional[int] = None, what: str = "a whole number"):
    """An argparse type: a plain decimal integer within [low, high], with a clear message."""
    def parse(text: str) -> int:
        stripped = text.strip()
        body = stripped[1:] if stripped[:1] in "+-" else stripped
        if not (body.isascii() and body.isdecimal()):
            raise argparse.ArgumentTypeError(f"{what} must be a whole number, got {text!r}")
        value = int(stripped)
        if low is not None and value < low or high is not None and value > high:
            span = (f"from {low} to {high}" if low is not None and high is not None
                    else f"at least {low}" if low is not None else f"at most {high}")
            raise argparse.ArgumentTypeError(f"{what} must be {span}, got {value}")
        return value
    parse.__name__ = what.replace(" ", "_")
    return parse


positive = int_in_range(1, what="the value")
seed_value = int_in_range(0, 2 ** 63 - 1, what="a seed")


def cap_jobs(jobs: int) -> int:
    """At most one worker per core: more only fight for memory and time."""
    cores = os.cpu_count() or 1
    if jobs > cores:
        print(f"warning: --jobs {jobs} is more than this machine's {cores} cores; using {cores}",
              file=sys.stderr)
        return cores
    return jobs


def add_jobs_option(p) -> None:
    """Add ``--jobs N`` (capped at the machine's cores when used)."""
    p.add_argument("--jobs", type=int_in_range(1, what="the number of jobs"), default=1, metavar="N",
                   help="parallel workers (default 1; at most the machine's cores)")


# ----------------------------------------------------------------- rules ----

def add_rules_option(p, *, many: bool = False) -> None:
    """Add ``--rules``, ``--goal`` and ``--max-memory``."""
    from ..pig.rules import PIG_GAMES
    from ..hog.rules import ENDLESS, rulesets
    names = ", ".join(rulesets()) + "; roll-or-hold: " + ", ".join(PIG_GAMES)
    if many:
        p.add_argument("--rules", nargs="+", metavar="NAME", help=f"rulesets ({names})")
    else:
        p.add_argument("--rules", default=None, metavar="NAME",
                       help=f"ruleset or semester ({names}; default: the semester that the course's proj01.ok "
                            "beside a student's file names, else su18)")
    p.add_argument("--rules-file", type=Path, metavar="FILE.toml", default=None,
                   help="a ruleset described as data instead of --rules (see `hogsolve rules --show fa22 --toml`)")
    p.add_argument("--goal", type=int_in_range(1, what="the goal"), default=None,
                   help="score that ends the game (default: the ruleset's)")
    p.add_argument("--max-memory", type=gigabytes, default=None, metavar="GB",
                   help="memory a solve may use, a positive number of GB (default: what the machine has "
                        "available)")
    p.add_argument("--endless", choices=ENDLESS, default="none",
                   help="what a game that never ends is worth: none (no value is agreed: where optimal players "
                        "would pass forever, as in sp22, optimal play has no value) or draw (half a win each)")


def gigabytes(text: str) -> float:
    """A positive, finite number of GB (``inf``, ``nan``, 0 and 1e308 are refused)."""
    from ..solver.memory import is_limit
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of GB, got {text!r}") from None
    if not is_limit(value):
        raise argparse.ArgumentTypeError(f"expected a positive finite number of GB, got {text!r}")
    return value


def load_game(name: Optional[str], goal: Optional[int] = None, *, max_memory_gb: Optional[float] = None,
              exact: bool = False, rules_file: Optional[Path] = None, endless: str = "none", family=None) -> tuple:
    """``(family, game)``: the game ``name`` of its family (or of ``family``, when given) or the
    rule file's, at ``goal``, with an endless game worth ``endless`` where the game can be
    endless; a UsageError when it is not one, or when solving it would not fit in memory (the
    machine's, or ``max_memory_gb``)."""
    from ..families import family_of, family_of_game
    from ..hog.rulefile import load_rules_file
    try:
        if rules_file is not None:
            game = load_rules_file(rules_file)
            game = game if goal is None else game.replace(goal=goal)
        else:
            game = (family or family_of(name)).game(cast(str, name), goal)  # None only beside a rule file
        if getattr(game, "endless", endless) != endless:  # a game that can be endless (a Hog ruleset)
            game = game.replace(endless=endless)
        family = family_of_game(game)
        family.check_fits(game, exact=exact, limit_gb=max_memory_gb)
    except HogsolveError as exc:
        raise UsageError(str(exc)) from None
    return family, game


def load_rules(name: Optional[str], goal: Optional[int] = None, **options) -> Any:
    """The Hog ruleset named (or the one in ``rules_file``), as :func:`load_game` gives it."""
    from ..families import HOG
    return load_game(name, goal, family=HOG, **options)[1]


# ----------------------------------------------------------------- paths ----

def writable_dir(path: Path) -> Path:
    """Create ``path`` if needed and prove it writable, or raise UsageError."""
    if str(path) == "":
        raise UsageError("an output folder must be named, got ''")
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".hogsolve-write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise UsageError(f"cannot write to {path}: {exc.strerror or exc}") from None
    return path


def output_file(path: Path, suffix: Optional[str] = None, option: str = "--out") -> Path:
    """Check that ``path`` can be written as a file (not a folder), or raise UsageError."""
    if str(path).strip() == "" or path.name == "":
        raise UsageError(f"an output file must be named, got {str(path)!r}")
    if suffix is not None and path.suffix.lower() != suffix:
        raise UsageError(f"{option} must name a {suffix} file, got {path}")
    if path.is_dir():
        raise UsageError(f"{option} {path} is a folder; name a file")
    writable_dir(path.parent if str(path.parent) else Path("."))
    return path


def write_or_fail(write: Callable[[], object], path) -> object:
    """Run ``write()``; a full disk or similar becomes one line, not a traceback."""
    try:
        return write()
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None


# ------------------------------------------------------------ strategies --

def positive_seconds(text: str) -> float:
    """An argparse type: a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not 0 < value < 1e7:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text}")
    return value


def ip_address(text: str) -> str:
    """An argparse type for ``--host``: an IP address (a name could resolve elsewhere later)."""
    import ipaddress
    try:
        ipaddress.ip_address(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an IP address such as 0.0.0.0 or 192.168.1.20, "
                                         f"got {text!r}") from None
    return text


@contextlib.contextmanager
def listening(host: Optional[str], port: int):
    """Serving on ``host:port``: a busy or forbidden port becomes one line that says what to do."""
    try:
        yield
    except OSError as exc:
        raise UsageError(f"cannot listen on {host or '127.0.0.1'}:{port}: {exc.strerror or exc}; choose another "
                         "--port, or --port 0 for any free one") from None


def add_strategy_options(p) -> None:
    """--rules/--goal plus the options of verbs that take strategy specs."""
    from ..strategy.userfile import DEFAULT_MEMORY_MB
    add_rules_option(p)
    p.add_argument("--strategy-timeout", type=positive_seconds, default=60.0, metavar="SECONDS",
                   help="time limit for tabulating each FILE.py:FUNCTION strategy (default 60)")
    p.add_argument("--strategy-memory", type=int_in_range(0, what="the memory limit in MB"), default=DEFAULT_MEMORY_MB,
                   metavar="MB", help=f"memory limit of each FILE.py:FUNCTION strategy's process, in MB of "
                                      f"address space (default {DEFAULT_MEMORY_MB}; 0 for none)")
    p.add_argument("--show-output", action="store_true",
                   help="show what FILE.py strategies printed (on stderr; hidden by default; kept with a "
                        "cached table too)")
    add_sandbox_option(p)
    p.add_argument("--retry-failed", action="store_true",
                   help="run again FILE.py strategies that failed before (a failure is cached by content, "
                        "like a table, so an unchanged looping file does not cost its time limit twice)")
    add_unproven_option(p)


def add_sandbox_option(p) -> None:
    """Add --require-sandbox: refuse student files where this machine cannot wall them in."""
    p.add_argument("--require-sandbox", action="store_true",
                   help="refuse to run FILE.py strategies where this machine cannot wall them in (Landlock and "
                        "seccomp; `hogsolve doctor` says what it enforces); HOGSOLVE_REQUIRE_SANDBOX=1 makes this "
                        "the default")


def add_unproven_option(p) -> None:
    """Add --allow-unproven: figures of a ruleset whose optimum is not proven (sp22)."""
    p.add_argument("--allow-unproven", action="store_true",
                   help="show figures that rest on an optimal strategy the certificate does not prove (sp22 "
                        "has no value: optimal play never ends); each is marked 'not proven'")


def spec_help(what: str) -> str:
    """Help text for a strategy argument, listing every spec form."""
    from ..strategy.pig import PIG_STRATEGY_FORMS
    from ..strategy.specs import SPEC_HELP
    return (f"{what}: {SPEC_HELP}; in the roll-or-hold games: {PIG_STRATEGY_FORMS} (hold_at:N rolls until the "
            "turn total reaches N; a roll that reaches the goal banks and wins at once, whatever the strategy, "
            "so hold_at_or_goal:N is the same strategy spelled out)").replace("%", "%%")


def add_spec_options(p, help: str) -> None:
    """Add a SPEC argument and the strategy options."""
    p.add_argument("spec", metavar="SPEC", help=spec_help(help))
    add_strategy_options(p)


def optimal_bot(family, game, args):
    """``(bot, reason)``: the game's optimal strategy and why it is not proven ('' when it is);
    one line and exit 1 when it is not proven, unless --allow-unproven."""
    from ..strategy.optimal_bot import UnprovenStrategyError
    try:
        bot = family.optimal(game, allow_unproven=getattr(args, "allow_unproven", False))
    except UnprovenStrategyError as exc:
        raise Failure(str(exc)) from None
    return bot, str(getattr(bot, "reason", ""))


def unproven(*strategies) -> str:
    """Why some of ``strategies`` (policies or bots) is not proven optimal, '' when none is flagged."""
    for strategy in strategies:
        source = getattr(strategy, "source", None) or {}
        if source.get("proven") is False:
            return str(source.get("reason", "not proven"))
    return ""


def stderr_console():
    """``(read, write)`` that talk to the person on stderr, keeping stdout for a JSON record."""
    def write(line):
        print(line, file=sys.stderr)

    def read(prompt):
        sys.stderr.write(prompt)
        sys.stderr.flush()
        return input()
    return read, write


def game_of(args, *, exact: bool = False) -> tuple:
    """``(family, game)`` of --rules (su18 when neither it nor a student's folder names one: see
    :func:`settle_rules`), --rules-file, --goal, --endless and --max-memory, for every family."""
    from ..strategy.semester import DEFAULT_RULES
    rules_file = getattr(args, "rules_file", None)
    return load_game(args.rules or (None if rules_file else DEFAULT_RULES), args.goal, max_memory_gb=args.max_memory,
                     exact=exact, rules_file=rules_file, endless=getattr(args, "endless", "none"))


def strategy_of(spec: str, family, game, args):
    """The strategy of a spec for ``game``, with the verb's options (time and memory limits,
    --allow-unproven, --retry-failed); what a student's file printed is one note on stderr."""
    from ..strategy.optimal_bot import UnprovenStrategyError
    from ..strategy.userfile import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT

    def report(label, captured):
        shown = getattr(args, "show_output", False)
        print(captured.note(label, shown), file=sys.stderr)
        if shown:
            print(captured.text, file=sys.stderr)
    try:
        return family.load_strategy(spec, game, timeout=getattr(args, "strategy_timeout", DEFAULT_TIMEOUT),
                                    on_output=report,
                                    memory_mb=getattr(args, "strategy_memory", DEFAULT_MEMORY_MB),
                                    allow_unproven=getattr(args, "allow_unproven", False),
                                    retry_failed=getattr(args, "retry_failed", False))
    except UnprovenStrategyError as exc:
        raise Failure(str(exc)) from None
    except HogsolveError as exc:
        raise UsageError(str(exc)) from None


def solve_progress(label: str):
    """A ``progress(stages, total)`` hook drawing a bar on a terminal for a slow solve."""
    from ..util.progress import progress

    def wrap(items, total):
        return progress(items, total, label, after=2.0)
    return wrap


def student_files(args) -> List[Path]:
    """The student files a verb's arguments name: ``FILE.py[:NAME]`` strategies, a lab's file, and
    the entries of a tournament's folders."""
    from ..contest.entries import ContestError, find_entries
    from ..strategy.userfile import UserFileError, file_spec
    texts = [getattr(args, key, None) for key in ("a", "b", "spec", "file")] + list(getattr(args, "specs", None) or [])
    out: List[Path] = []
    for text in texts:
        if not isinstance(text, str):
            continue
        try:
            named = file_spec(text)
        except UserFileError:
            continue  # loading the spec says what is wrong with it
        path = Path(named[0] if named else text)
        if path.suffix == ".py" and path.is_file():
            out.append(path)
        elif "specs" in vars(args) and path.is_dir():
            try:
                entries, _ = find_entries([text])
            except (ContestError, OSError):
                continue
            out += [Path(spec.rpartition(":")[0]) for _, spec, is_file in entries if is_file]
    return out


def settle_rules(args, files: Optional[List[Path]] = None) -> None:
    """Choose the ruleset of a verb run on student files: without --rules, the semester their
    folders' course ok files name (one line on stderr says which, or what was assumed); with
    --rules, a warning where an ok file names another semester's rules (see
    :mod:`hogsolve.strategy.semester`).  Sets ``args.rules``."""
    from ..families import HOG, family_of
    from ..hog.rules import UnknownRulesetError, get_rules
    from ..strategy.semester import SemesterError, choose_rules
    if isinstance(args.rules, list):
        return  # solve: no student files
    files = student_files(args) if files is None else files
    if not files:
        return  # nothing to read a semester from: --rules, or su18 (game_of)
    walls(args)  # every game's student files, whatever names the rules
    if getattr(args, "rules_file", None) is not None:
        return
    given_name = None
    if args.rules is not None:
        if family_of(args.rules) is not HOG:
            return
        try:
            given_name = get_rules(args.rules).name
        except UnknownRulesetError:
            return  # game_of says what is wrong with the name
    try:
        choice = choose_rules(files, args.rules, given_name=given_name)
    except SemesterError as exc:
        raise UsageError(str(exc)) from None
    for line in choice.notes:
        print(line, file=sys.stderr)
    if choice.name is not None:
        args.rules = choice.name


@contextlib.contextmanager
def verb_environment():
    """Run one verb: what it sets for every student file it runs (``--require-sandbox``, through
    the environment, so that every thread and path sees it) is undone when it ends, so a verb run
    in-process (the tests, a notebook) leaves the next one as it found it."""
    from ..strategy.userfile import REQUIRE_SANDBOX_ENV
    before = os.environ.get(REQUIRE_SANDBOX_ENV)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(REQUIRE_SANDBOX_ENV, None)
        else:
            os.environ[REQUIRE_SANDBOX_ENV] = before


def walls(args) -> None:
    """Before student files run: --require-sandbox made the rule for every file this process runs,
    and the one-line notice (once) where this machine cannot wall them in."""
    from ..strategy.userfile import REQUIRE_SANDBOX_ENV, sandbox_notice, sandbox_required
    if getattr(args, "require_sandbox", False):
        os.environ[REQUIRE_SANDBOX_ENV] = "1"
    if not sandbox_required():
        line = sandbox_notice()
        if line:
            print(f"note: {line}", file=sys.stderr)


def every_game(handler: Callable) -> Callable:
    """A verb's ``run(args)`` for every family: ``handler(args)`` once the semester of any student
    files is settled (:func:`settle_rules`); the handler asks the game's family for what differs."""
    def run(args):
        if hasattr(args, "rules"):
            settle_rules(args)
        return handler(args)
    return run


def seat_names(a: str, b: str):
    """How ``compare`` names its two strategies: as given, or, when both are the same text
    (``compare optimal optimal``), marked A and B so each line says which one moves first."""
    return (a, b) if a != b else (f"{a} (A)", f"{b} (B)")


def degenerate_goal_note(first: float, second: float, goal: int) -> None:
    """A note on stderr when the seat alone decides every game (a goal so low that whoever
    moves first, or second, always wins): the figures then say nothing about the strategies."""
    if {first, second} == {0.0, 1.0}:
        winner = "first" if first == 1.0 else "second"
        print(f"note: at goal {goal} whoever moves {winner} always wins, whatever the strategies: "
              "the win rates compare seats, not strategies", file=sys.stderr)


def converged_or_fail(call, what: str):
    """Run an exact evaluation; an iteration that hit its cap is one line, exit 1."""
    from ..solver.iteration import ConvergenceError
    try:
        return call()
    except ConvergenceError as exc:
        raise Failure(str(exc)) from None
