"""hogsolve's error contract (``hogsolve/errors.py``): every error it raises on purpose is a
:class:`~hogsolve.errors.HogsolveError`, so ``except HogsolveError`` catches bad input and
nothing else, and the command line prints those as one line while a bug stays a traceback."""
import ast
import subprocess
import sys
from pathlib import Path

import pytest

import hogsolve
from hogsolve.errors import HogsolveError, InputError

PACKAGE = Path(hogsolve.__file__).parent

#: Built-in exceptions hogsolve may still raise, and why each is no deliberate error of its own.
ALLOWED = {
    "NotImplementedError": "an abstract method a subclass must define",
    "AttributeError": "a module's __getattr__ for a name it does not have (Python's protocol)",
    "OSError": "the operating system's refusal (a file too large, a Landlock call that failed)",
    "KeyError": "layers.layer_of: a developer's lookup in the layer table",
    "ImportError": "the student's interpreter: a file Python cannot load",
    "EOFError": "the terminal session: end of input, as input() gives it",
}
BUILTIN = {name for name in dir(__builtins__ if isinstance(__builtins__, dict) else __builtins__.__dict__)
           if name.endswith(("Error", "Exception"))} | {"Exception", "ValueError", "TypeError", "RuntimeError"}


def raised_builtins():
    """(file, line, name) of every ``raise Name(...)`` of a built-in exception in the package."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and isinstance(node.exc.func, ast.Name):
                name = node.exc.func.id
                if name in BUILTIN:
                    found.append((str(path.relative_to(PACKAGE)), node.lineno, name))
    return found


def test_no_deliberate_error_is_a_bare_builtin():
    """The mistake it catches: ``raise ValueError(...)`` in hogsolve's own checks, which
    ``except HogsolveError`` misses and the CLI cannot tell from a bug."""
    bare = [hit for hit in raised_builtins() if hit[2] not in ALLOWED]
    assert bare == [], bare


def test_the_contract_holds_where_the_issue_found_it_broken():
    """The mistake it catches: the two examples #52 names raising plain ValueError again."""
    from hogsolve.hog.rules import get_rules
    with pytest.raises(HogsolveError):
        get_rules("su18").replace(goal=0)
    with pytest.raises(InputError):  # still a ValueError for callers that catch that
        hogsolve.win_rate("always_roll:4", "always_roll:5", "su18", goal=-3)
    with pytest.raises(TypeError):  # an InputTypeError: still a TypeError
        hogsolve.win_rate("always_roll:4", "always_roll:5", 12)


def test_every_public_exception_derives_from_the_root():
    """The mistake it catches: an exported ``...Error`` class outside the hierarchy."""
    exported = [getattr(hogsolve, name) for name in hogsolve.__all__]
    errors = [e for e in exported if isinstance(e, type) and issubclass(e, BaseException)]
    assert errors and all(issubclass(e, HogsolveError) for e in errors), errors


def test_the_cli_prints_a_deliberate_error_as_one_line_and_a_bug_as_a_traceback(tmp_path):
    """The mistake it catches: the CLI turning any ValueError (bugs included) into a usage line,
    or a deliberate error into a traceback."""
    bad = subprocess.run([sys.executable, "-m", "hogsolve", "compare", "always_roll:4", "always_roll:5",
                          "--rules", "su18", "--goal", "0"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and len(bad.stderr.splitlines()) == 1, bad.stderr
    bug = subprocess.run([sys.executable, "-c", "import sys\n"
                          "import hogsolve.cli.compare as c\n"
                          "def broken(args):\n    raise ValueError('a bug, not bad input')\n"
                          "c.compare = broken\n"
                          "from hogsolve.cli import main\n"
                          "sys.exit(main(['compare', 'always_roll:4', 'always_roll:5']))"],
                         capture_output=True, text=True, timeout=120)
    assert "Traceback" in bug.stderr and "a bug, not bad input" in bug.stderr, bug.stderr
